//! SVG plots of a sweep: clauses vs n and solve time vs n, one series per encoding (and
//! solver), log scales on both axes.

use super::Row;
use plotters::prelude::*;
use std::collections::BTreeMap;

/// A palette that stays readable for a dozen series.
const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

type Series = BTreeMap<String, Vec<(f64, f64)>>;

/// Log-scale bounds padded to whole decades.
fn bounds(points: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for p in points.filter(|p| *p > 0.0) {
        lo = lo.min(p);
        hi = hi.max(p);
    }
    if lo > hi {
        return (1.0, 10.0);
    }
    (
        10f64.powf(lo.log10().floor()),
        10f64.powf((hi.log10() + 1e-9).ceil()).max(lo * 10.0),
    )
}

fn draw_panel(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    title: &str,
    y_desc: &str,
    series: &Series,
) -> Result<(), Box<dyn std::error::Error>> {
    let (x0, x1) = bounds(series.values().flatten().map(|p| p.0));
    let (y0, y1) = bounds(series.values().flatten().map(|p| p.1));
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
    chart.configure_mesh().x_desc("n").y_desc(y_desc).draw()?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<(f64, f64)> = pts.iter().copied().filter(|p| p.1 > 0.0).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// An SVG document with two panels: clauses vs n per encoding, and median solve time vs n per
/// encoding and solver (rows that timed out or failed are left out of the second panel).
pub fn render_svg(rows: &[Row]) -> anyhow::Result<String> {
    let mut clauses: Series = BTreeMap::new();
    let mut times: Series = BTreeMap::new();
    for r in rows {
        let e = clauses.entry(r.encoding.clone()).or_default();
        if !e.iter().any(|p| p.0 == r.n as f64) {
            e.push((r.n as f64, r.clauses as f64));
        }
        if let Some(t) = r.solve_ms {
            times
                .entry(format!("{} / {}", r.encoding, r.solver))
                .or_default()
                .push((r.n as f64, t.max(0.01)));
        }
    }
    for v in clauses.values_mut().chain(times.values_mut()) {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1400, 560)).into_drawing_area();
        let draw = || -> Result<(), Box<dyn std::error::Error>> {
            root.fill(&WHITE)?;
            let (left, right) = root.split_horizontally(700);
            draw_panel(&left, "Clauses vs n", "clauses", &clauses)?;
            draw_panel(&right, "Median solve time vs n", "solve time (ms)", &times)?;
            root.present()?;
            Ok(())
        };
        draw().map_err(|e| anyhow::anyhow!("cannot draw the plot: {e}"))?;
    }
    Ok(svg)
}
