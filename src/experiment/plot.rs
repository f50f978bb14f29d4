//! SVG plots of a sweep: clauses vs n and solve time vs n, one series per encoding (and
//! solver), log scales on both axes.

use super::transition::{compare_values, Summary};
use super::Row;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::collections::BTreeMap;

/// The plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(pub String);

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

/// Series by label; each with its color index (the encoding) and marker index (the solver).
type Series = BTreeMap<String, (usize, usize, Vec<(f64, f64)>)>;

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

/// Log-scale bounds with a margin of a factor 1.6 on each side (for the n axis).
fn tight_bounds(mut points: impl Iterator<Item = f64>) -> (f64, f64) {
    let lo = points.next().unwrap_or(1.0);
    let hi = points.next().unwrap_or(lo);
    (lo / 1.6, hi * 1.6)
}

fn draw_panel(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    title: &str,
    y_desc: &str,
    series: &Series,
) -> Result<(), Box<dyn std::error::Error>> {
    let all = || series.values().flat_map(|s| s.2.iter());
    let (mut x0, mut x1) = (f64::MAX, f64::MIN);
    for p in all() {
        x0 = x0.min(p.0);
        x1 = x1.max(p.0);
    }
    let (x0, x1) = if x0 > x1 {
        (1.0, 10.0)
    } else {
        tight_bounds([x0, x1].into_iter())
    };
    let (y0, y1) = bounds(all().map(|p| p.1));
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .x_desc("n")
        .y_desc(y_desc)
        .draw()?;
    draw_lines(&mut chart, series, true)
}

/// Draws every series of `series` on `chart` (a line per series, solid for the first solver and
/// dashed for the others, with markers and a legend entry); with `positive_only`, points at or
/// below 0 are left out (log scales).
fn draw_lines<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    series: &Series,
    positive_only: bool,
) -> Result<(), Box<dyn std::error::Error>>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (name, (color, marker, pts)) in series {
        let color = COLORS[color % COLORS.len()];
        let pts: Vec<(f64, f64)> = pts
            .iter()
            .copied()
            .filter(|p| !positive_only || p.1 > 0.0)
            .collect();
        // Solid lines for the first solver, dashed for the others.
        let drawn = if *marker == 0 {
            chart.draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))?
        } else {
            chart.draw_series(DashedLineSeries::new(
                pts.clone(),
                6,
                4,
                color.stroke_width(2),
            ))?
        };
        drawn.label(name.as_str()).legend(move |(x, y)| {
            PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
        });
        // The marker tells the solvers apart: circle, triangle, cross, then circles again.
        match marker % 3 {
            0 => chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))?,
            1 => chart.draw_series(
                pts.iter()
                    .map(|&p| TriangleMarker::new(p, 5, color.filled())),
            )?,
            _ => chart.draw_series(pts.iter().map(|&p| Cross::new(p, 4, color.stroke_width(2))))?,
        };
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// The encodings and the solvers of `rows`, in order of first appearance: colors follow the
/// encodings, markers the solvers.
fn encodings_and_solvers(rows: &[Row]) -> (Vec<&str>, Vec<&str>) {
    let mut encodings: Vec<&str> = Vec::new();
    let mut solvers: Vec<&str> = Vec::new();
    for r in rows {
        if !encodings.contains(&r.encoding.as_str()) {
            encodings.push(&r.encoding);
        }
        if !solvers.contains(&r.solver.as_str()) {
            solvers.push(&r.solver);
        }
    }
    (encodings, solvers)
}

/// An SVG document with two panels: clauses vs n per encoding, and median solve time vs n per
/// encoding and solver (rows that timed out or failed are left out of the second panel).
pub fn render_svg(rows: &[Row]) -> Result<String, PlotError> {
    let (encodings, solvers) = encodings_and_solvers(rows);
    let index = |v: &[&str], x: &str| v.iter().position(|y| *y == x).unwrap_or(0);
    let mut clauses: Series = BTreeMap::new();
    let mut times: Series = BTreeMap::new();
    for r in rows {
        let color = index(&encodings, &r.encoding);
        let e = clauses
            .entry(r.encoding.clone())
            .or_insert_with(|| (color, 0, Vec::new()));
        if !e.2.iter().any(|p| p.0 == r.n as f64) {
            e.2.push((r.n as f64, r.clauses as f64));
        }
        if let Some(t) = r.solve_ms {
            let marker = index(&solvers, &r.solver);
            times
                .entry(format!("{} / {}", r.encoding, r.solver))
                .or_insert_with(|| (color, marker, Vec::new()))
                .2
                .push((r.n as f64, t.max(0.01)));
        }
    }
    for v in clauses.values_mut().chain(times.values_mut()) {
        v.2.sort_by(|a, b| a.0.total_cmp(&b.0));
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
        draw().map_err(|e| PlotError(e.to_string()))?;
    }
    Ok(svg)
}

/// An SVG document with the phase transition of a family sweep ([`super::transition`]): the
/// fraction of satisfiable instances against the swept parameter, and the median solve time
/// (log scale; a timeout counts as the time limit) against it, one series per encoding and
/// solver (and board size, when the sweep has several). Parameter values that are not all
/// numbers are drawn evenly spaced, in order.
pub fn render_transition_svg(summary: &[Summary]) -> Result<String, PlotError> {
    let mut values: Vec<&str> = Vec::new();
    let mut encodings: Vec<(usize, &str)> = Vec::new();
    let mut solvers: Vec<&str> = Vec::new();
    let mut ns: Vec<usize> = Vec::new();
    for s in summary {
        if !values.contains(&s.value.as_str()) {
            values.push(&s.value);
        }
        if !encodings.contains(&(s.n, s.encoding.as_str())) {
            encodings.push((s.n, &s.encoding));
        }
        if !solvers.contains(&s.solver.as_str()) {
            solvers.push(&s.solver);
        }
        if !ns.contains(&s.n) {
            ns.push(s.n);
        }
    }
    values.sort_by(|a, b| compare_values(a, b));
    let numeric = values.iter().all(|v| v.parse::<f64>().is_ok());
    let x_of = |v: &str| -> f64 {
        if numeric {
            v.parse().unwrap_or(0.0)
        } else {
            values.iter().position(|w| *w == v).unwrap_or(0) as f64
        }
    };
    let parameter = summary
        .first()
        .map(|s| s.parameter.as_str())
        .filter(|p| !p.is_empty())
        .unwrap_or("value");
    let mut fraction: Series = BTreeMap::new();
    let mut times: Series = BTreeMap::new();
    for s in summary {
        let label = if ns.len() > 1 {
            format!("n={} {} / {}", s.n, s.encoding, s.solver)
        } else {
            format!("{} / {}", s.encoding, s.solver)
        };
        let color = encodings
            .iter()
            .position(|e| *e == (s.n, s.encoding.as_str()))
            .unwrap_or(0);
        let marker = solvers.iter().position(|x| *x == s.solver).unwrap_or(0);
        let x = x_of(&s.value);
        if let Some(f) = s.fraction_sat {
            fraction
                .entry(label.clone())
                .or_insert_with(|| (color, marker, Vec::new()))
                .2
                .push((x, f));
        }
        if let Some(t) = s.median_ms {
            times
                .entry(label)
                .or_insert_with(|| (color, marker, Vec::new()))
                .2
                .push((x, t.max(0.01)));
        }
    }
    for v in fraction.values_mut().chain(times.values_mut()) {
        v.2.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let xs: Vec<f64> = values.iter().map(|v| x_of(v)).collect();
    let (lo, hi) = xs
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
    let (x0, x1) = if lo > hi {
        (0.0, 1.0)
    } else {
        let pad = if hi > lo { (hi - lo) * 0.05 } else { 0.5 };
        (lo - pad, hi + pad)
    };
    let label_of = |x: &f64| -> String {
        if numeric {
            let s = format!("{x:.4}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            if s == "-0" {
                "0".to_string()
            } else {
                s.to_string()
            }
        } else {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                values
                    .get(i as usize)
                    .map_or_else(String::new, |v| v.to_string())
            } else {
                String::new()
            }
        }
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1400, 560)).into_drawing_area();
        let draw = || -> Result<(), Box<dyn std::error::Error>> {
            root.fill(&WHITE)?;
            let (left, right) = root.split_horizontally(700);
            let x_labels = if numeric { 10 } else { values.len().max(1) };
            let mut chart = ChartBuilder::on(&left)
                .caption(format!("Fraction SAT vs {parameter}"), ("sans-serif", 20))
                .margin(12)
                .x_label_area_size(35)
                .y_label_area_size(60)
                .build_cartesian_2d(x0..x1, -0.02..1.02)?;
            chart
                .configure_mesh()
                .light_line_style(WHITE)
                .x_labels(x_labels)
                .y_labels(6)
                .x_label_formatter(&label_of)
                .y_label_formatter(&|y| format!("{y:.1}"))
                .x_desc(parameter)
                .y_desc("fraction SAT")
                .draw()?;
            draw_lines::<RangedCoordf64, RangedCoordf64>(&mut chart, &fraction, false)?;
            let (y0, y1) = bounds(times.values().flat_map(|s| s.2.iter()).map(|p| p.1));
            let mut chart = ChartBuilder::on(&right)
                .caption(
                    format!("Median solve time vs {parameter} (timeout = limit)"),
                    ("sans-serif", 20),
                )
                .margin(12)
                .x_label_area_size(35)
                .y_label_area_size(60)
                .build_cartesian_2d(x0..x1, (y0..y1).log_scale())?;
            chart
                .configure_mesh()
                .light_line_style(WHITE)
                .x_labels(x_labels)
                .y_labels(8)
                .x_label_formatter(&label_of)
                .y_label_formatter(&|y| format!("{y:.0e}"))
                .x_desc(parameter)
                .y_desc("median solve time (ms)")
                .draw()?;
            draw_lines(&mut chart, &times, true)?;
            root.present()?;
            Ok(())
        };
        draw().map_err(|e| PlotError(e.to_string()))?;
    }
    Ok(svg)
}

/// An SVG cactus plot ([`super::scores::cactus`]): for each encoding and solver, the number of
/// instances solved (x) within a time (y, log scale): the further right and lower a line, the
/// better.
pub fn render_cactus_svg(rows: &[Row]) -> Result<String, PlotError> {
    let data = super::scores::cactus(rows);
    let (encodings, solvers) = encodings_and_solvers(rows);
    let mut series: Series = BTreeMap::new();
    for (label, times) in &data {
        let r = rows
            .iter()
            .find(|r| format!("{} / {}", r.encoding, r.solver) == *label);
        let color = r.map_or(0, |r| {
            encodings.iter().position(|e| *e == r.encoding).unwrap_or(0)
        });
        let marker = r.map_or(0, |r| {
            solvers.iter().position(|s| *s == r.solver).unwrap_or(0)
        });
        let pts = times
            .iter()
            .enumerate()
            .map(|(k, &t)| ((k + 1) as f64, t.max(0.01)))
            .collect();
        series.insert(label.clone(), (color, marker, pts));
    }
    let most = data.iter().map(|(_, v)| v.len()).max().unwrap_or(0).max(1) as f64;
    let (y0, y1) = bounds(series.values().flat_map(|s| s.2.iter().map(|p| p.1)));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 600)).into_drawing_area();
        let draw = || -> Result<(), Box<dyn std::error::Error>> {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption("Instances solved within a time", ("sans-serif", 20))
                .margin(12)
                .x_label_area_size(35)
                .y_label_area_size(60)
                .build_cartesian_2d(0.0..most + 1.0, (y0..y1).log_scale())?;
            chart
                .configure_mesh()
                .light_line_style(WHITE)
                .x_desc("instances solved")
                .x_label_formatter(&|x| format!("{x:.0}"))
                .y_desc("solve time (ms)")
                .y_label_formatter(&|y| format!("{y:.0e}"))
                .draw()?;
            draw_lines(&mut chart, &series, true)?;
            root.present()?;
            Ok(())
        };
        draw().map_err(|e| PlotError(e.to_string()))?;
    }
    Ok(svg)
}

/// An SVG scatter plot of configurations `a` and `b` (`encoding / solver`) instance by
/// instance ([`super::scores::scatter`]): x the time of `a`, y that of `b` (log scales, an
/// unsolved run at the time limit, drawn as a cross), with the diagonal: points below it are
/// instances `b` solved faster.
pub fn render_scatter_svg(rows: &[Row], a: &str, b: &str) -> Result<String, PlotError> {
    let pts = super::scores::scatter(rows, a, b);
    if pts.is_empty() {
        return Err(PlotError(format!(
            "no instance was run with both '{a}' and '{b}'"
        )));
    }
    let (lo, hi) = bounds(pts.iter().flat_map(|p| [p.0, p.1]).map(|t| t.max(0.01)));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (700, 700)).into_drawing_area();
        let draw = || -> Result<(), Box<dyn std::error::Error>> {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(format!("{a} vs {b}"), ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())?;
            chart
                .configure_mesh()
                .light_line_style(WHITE)
                .x_desc(format!("{a}: solve time (ms)"))
                .y_desc(format!("{b}: solve time (ms)"))
                .x_label_formatter(&|x| format!("{x:.0e}"))
                .y_label_formatter(&|y| format!("{y:.0e}"))
                .draw()?;
            chart.draw_series(LineSeries::new(vec![(lo, lo), (hi, hi)], BLACK.mix(0.5)))?;
            let color = COLORS[0];
            chart.draw_series(
                pts.iter()
                    .filter(|p| p.2 && p.3)
                    .map(|p| Circle::new((p.0.max(0.01), p.1.max(0.01)), 4, color.filled())),
            )?;
            chart.draw_series(pts.iter().filter(|p| !(p.2 && p.3)).map(|p| {
                Cross::new((p.0.max(0.01), p.1.max(0.01)), 5, COLORS[3].stroke_width(2))
            }))?;
            root.present()?;
            Ok(())
        };
        draw().map_err(|e| PlotError(e.to_string()))?;
    }
    Ok(svg)
}
