//! The plots of a sweep, as SVG (and PNG or PDF made from it, [`export`]): clauses and median
//! solve time against n, the phase transition of a family, the cactus plot and the scatter plot
//! of two configurations, drawn as the SAT community's plots are (mkplot's): a log axis for
//! times and sizes with its decades labelled, a linear n axis, data ranges fitted, the legend
//! beside the frame showing each series' colour, dash pattern and marker.
//!
//! Every configuration (`encoding / solver`) keeps one style through all the plots of a run: the
//! styles are given out in the sorted order of the configurations the rows hold, so a
//! configuration looks the same in the plot against n, the cactus plot and their legends.

mod chart;

use super::transition::{compare_values, Summary};
use super::Row;
use chart::{Axis, Line, Marker, Panel, Series, Style};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(pub String);

/// The label of a configuration in plots: `encoding / solver`.
fn config(r: &Row) -> String {
    format!("{} / {}", r.encoding, r.solver)
}

/// The style of each configuration of `rows`, by label: the `i`-th in sorted order of
/// (encoding, solver) gets [`Style::nth`]`(i)`.
fn styles(rows: &[Row]) -> BTreeMap<String, Style> {
    let configs: BTreeSet<(&str, &str)> = rows
        .iter()
        .map(|r| (r.encoding.as_str(), r.solver.as_str()))
        .collect();
    (configs.into_iter().enumerate())
        .map(|(i, (e, s))| (format!("{e} / {s}"), Style::nth(i)))
        .collect()
}

/// Markers on at most about 15 points of a series.
fn every(points: usize) -> usize {
    points.div_ceil(15).max(1)
}

/// The series of `points` by label, in the order of `styles`.
fn series_of(
    points: BTreeMap<String, Vec<(f64, f64)>>,
    style: impl Fn(&str) -> Style,
    order: &[String],
) -> Vec<Series> {
    let mut points = points;
    let mut out = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    for l in order.iter().chain(points.keys()) {
        if points.contains_key(l) && !labels.contains(l) {
            labels.push(l.clone());
        }
    }
    for label in labels {
        let mut pts = points.remove(&label).unwrap_or_default();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.push(Series {
            style: style(&label),
            marker_every: every(pts.len()),
            label,
            points: pts,
            line: true,
        });
    }
    out
}

/// Times are drawn from 0.01 ms up (log axes).
const FLOOR_MS: f64 = 0.01;

/// An SVG document with two panels: clauses against n per encoding, and the median solve time
/// against n per encoding and solver (rows that timed out or failed are left out of the
/// second panel); n on a linear axis, clauses and times on log axes. An encoding's clauses are
/// drawn in the style of its first configuration.
pub fn render_svg(rows: &[Row]) -> Result<String, PlotError> {
    let styles = styles(rows);
    let order: Vec<String> = styles.keys().cloned().collect();
    let mut clauses: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut times: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows {
        let e = clauses.entry(r.encoding.clone()).or_default();
        if !e.iter().any(|p| p.0 == r.n as f64) {
            e.push((r.n as f64, r.clauses as f64));
        }
        if let Some(t) = r.solve_ms {
            (times.entry(config(r)).or_default()).push((r.n as f64, t.max(FLOOR_MS)));
        }
    }
    let first_style = |encoding: &str| {
        let prefix = format!("{encoding} / ");
        (styles.iter())
            .find(|(l, _)| l.starts_with(&prefix))
            .map_or(Style::nth(0), |(_, s)| *s)
    };
    let encodings: Vec<String> = {
        let set: BTreeSet<&str> = rows.iter().map(|r| r.encoding.as_str()).collect();
        set.into_iter().map(String::from).collect()
    };
    let clauses = series_of(clauses, first_style, &encodings);
    let times = series_of(times, |l| styles[l], &order);
    let ns = rows.iter().map(|r| r.n as f64);
    let x = Axis::linear(ns, "n", false).integer();
    let y_of = |series: &[Series], title: &str| {
        Axis::log(
            series.iter().flat_map(|s| s.points.iter().map(|p| p.1)),
            title,
        )
    };
    let panels = [
        Panel {
            title: "Clauses vs n".into(),
            x: x.clone(),
            y: y_of(&clauses, "clauses"),
            width: 440.0,
            height: 360.0,
            lines: Vec::new(),
            series: clauses,
        },
        Panel {
            title: "Median solve time vs n".into(),
            x,
            y: y_of(&times, "solve time (ms)"),
            width: 440.0,
            height: 360.0,
            lines: Vec::new(),
            series: times,
        },
    ];
    Ok(chart::render(&panels))
}

/// An SVG document with the phase transition of a family sweep ([`super::transition`]): the
/// fraction of satisfiable instances against the swept parameter, and the median solve time
/// (log scale; a timeout counts as the time limit) against it, one series per encoding and
/// solver (and board size, when the sweep has several). Parameter values that are not all
/// numbers are drawn evenly spaced, in order.
pub fn render_transition_svg(summary: &[Summary]) -> Result<String, PlotError> {
    let mut values: Vec<&str> = Vec::new();
    for s in summary {
        if !values.contains(&s.value.as_str()) {
            values.push(&s.value);
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
    let keys: BTreeSet<(usize, &str, &str)> = summary
        .iter()
        .map(|s| (s.n, s.encoding.as_str(), s.solver.as_str()))
        .collect();
    let several_n = keys.iter().map(|k| k.0).collect::<BTreeSet<_>>().len() > 1;
    let label = |n: usize, e: &str, s: &str| {
        if several_n {
            format!("n={n} {e} / {s}")
        } else {
            format!("{e} / {s}")
        }
    };
    let order: Vec<String> = keys.iter().map(|&(n, e, s)| label(n, e, s)).collect();
    let style = |l: &str| Style::nth(order.iter().position(|o| o == l).unwrap_or(0));
    let parameter = summary
        .first()
        .map(|s| s.parameter.as_str())
        .filter(|p| !p.is_empty())
        .unwrap_or("value");
    let mut fraction: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut times: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for s in summary {
        let l = label(s.n, &s.encoding, &s.solver);
        let x = x_of(&s.value);
        if let Some(f) = s.fraction_sat {
            fraction.entry(l.clone()).or_default().push((x, f));
        }
        if let Some(t) = s.median_ms {
            times.entry(l).or_default().push((x, t.max(FLOOR_MS)));
        }
    }
    let fraction = series_of(fraction, style, &order);
    let times = series_of(times, style, &order);
    let x = if numeric {
        Axis::linear(values.iter().map(|v| x_of(v)), parameter, false)
    } else {
        Axis::categorical(values.iter().map(|v| v.to_string()).collect(), parameter)
    };
    let y_times = Axis::log(
        times.iter().flat_map(|s| s.points.iter().map(|p| p.1)),
        "median solve time (ms)",
    );
    let panels = [
        Panel {
            title: format!("Fraction SAT vs {parameter}"),
            x: x.clone(),
            y: Axis::linear_range(-0.02, 1.02, "fraction SAT"),
            width: 440.0,
            height: 360.0,
            lines: Vec::new(),
            series: fraction,
        },
        Panel {
            title: format!("Median solve time vs {parameter} (timeout = limit)"),
            x,
            y: y_times,
            width: 440.0,
            height: 360.0,
            lines: Vec::new(),
            series: times,
        },
    ];
    Ok(chart::render(&panels))
}

/// An SVG cactus plot ([`super::scores::cactus`]): for each encoding and solver, the number of
/// instances solved (x, linear from 0) within a time (y, log scale): the further right and
/// lower a line, the better.
pub fn render_cactus_svg(rows: &[Row]) -> Result<String, PlotError> {
    let styles = styles(rows);
    let order: Vec<String> = styles.keys().cloned().collect();
    let points: BTreeMap<String, Vec<(f64, f64)>> = super::scores::cactus(rows)
        .into_iter()
        .map(|(label, times)| {
            let pts = (times.iter().enumerate())
                .map(|(k, &t)| ((k + 1) as f64, t.max(FLOOR_MS)))
                .collect();
            (label, pts)
        })
        .collect();
    let most = points.values().map(Vec::len).max().unwrap_or(0).max(1) as f64;
    let series = series_of(
        points,
        |l| styles.get(l).copied().unwrap_or(Style::nth(0)),
        &order,
    );
    let y = Axis::log(
        series.iter().flat_map(|s| s.points.iter().map(|p| p.1)),
        "CPU time (ms)",
    );
    let panel = Panel {
        title: "Instances solved within a time".into(),
        x: Axis::linear([0.0, most], "instances solved", true).integer(),
        y,
        width: 560.0,
        height: 400.0,
        lines: Vec::new(),
        series,
    };
    Ok(chart::render(&[panel]))
}

/// An SVG scatter plot of configurations `a` and `b` (`encoding / solver`) instance by
/// instance ([`super::scores::scatter`]): x the time of `a`, y that of `b`, on equal log axes.
/// An instance one of them did not solve is drawn at the time limit, on the frame's top or
/// right edge, with a cross; the diagonal y = x is drawn solid, y = 2x, x = 2y, y = 10x and
/// x = 10y dashed (those that cross the frame: the axes are fitted to the data, half a decade
/// at least): points below the diagonal are instances `b` solved faster.
pub fn render_scatter_svg(rows: &[Row], a: &str, b: &str) -> Result<String, PlotError> {
    let pts = super::scores::scatter(rows, a, b);
    if pts.is_empty() {
        return Err(PlotError(format!(
            "no instance was run with both '{a}' and '{b}'"
        )));
    }
    let coords = || pts.iter().flat_map(|p| [p.0, p.1]).map(|t| t.max(FLOOR_MS));
    let lo = coords().fold(f64::MAX, f64::min).log10();
    let hi = coords().fold(f64::MIN, f64::max).log10();
    let timeouts = pts.iter().any(|p| !(p.2 && p.3));
    let (lo, hi) = chart::log_range(lo, hi, timeouts);
    let axis = |who: &str| Axis::log_range(lo, hi, &format!("{who}: CPU time (ms)"));
    let point = |p: &(f64, f64, bool, bool)| (p.0.max(FLOOR_MS), p.1.max(FLOOR_MS));
    let solved: Vec<(f64, f64)> = pts.iter().filter(|p| p.2 && p.3).map(point).collect();
    let unsolved: Vec<(f64, f64)> = pts.iter().filter(|p| !(p.2 && p.3)).map(point).collect();
    let mut series = vec![Series {
        label: "solved by both".into(),
        style: Style {
            color: "#1f77b4",
            dash: None,
            marker: Marker::Circle,
        },
        points: solved,
        line: false,
        marker_every: 1,
    }];
    if !unsolved.is_empty() {
        series.push(Series {
            label: "not solved by one (at the limit)".into(),
            style: Style {
                color: "#d62728",
                dash: None,
                marker: Marker::Cross,
            },
            points: unsolved,
            line: false,
            marker_every: 1,
        });
    }
    // The diagonals y = c x, each clipped to the square: in log units y = x + log10(c).
    let mut lines = Vec::new();
    for (c, label, dash) in [
        (1.0, "y = x", None),
        (2.0, "y = 2x, x = 2y", Some("6 4")),
        (10.0, "y = 10x, x = 10y", Some("2 3")),
    ] {
        let mut labelled = false;
        for (i, d) in [f64::log10(c), -f64::log10(c)].into_iter().enumerate() {
            if c == 1.0 && i == 1 {
                continue;
            }
            let (x0, x1) = (lo.max(lo - d), hi.min(hi - d));
            if x0 < x1 {
                lines.push(Line {
                    label: if labelled {
                        String::new()
                    } else {
                        label.into()
                    },
                    from: (10f64.powf(x0), 10f64.powf(x0 + d)),
                    to: (10f64.powf(x1), 10f64.powf(x1 + d)),
                    color: if c == 1.0 { "#444444" } else { "#888888" },
                    dash,
                });
                labelled = true;
            }
        }
    }
    let panel = Panel {
        title: format!("{a} vs {b}"),
        x: axis(a),
        y: axis(b),
        width: 440.0,
        height: 440.0,
        lines,
        series,
    };
    Ok(chart::render(&[panel]))
}

/// The file format of a plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// SVG, as drawn.
    Svg,
    /// PNG, the SVG rasterised at twice its size (192 dpi).
    Png,
    /// PDF, the SVG as vector graphics.
    Pdf,
}

impl Format {
    /// The format a file name asks for: PNG for `.png`, PDF for `.pdf` (in any case), SVG
    /// otherwise.
    pub fn of(path: &Path) -> Format {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext.eq_ignore_ascii_case("png") {
            Format::Png
        } else if ext.eq_ignore_ascii_case("pdf") {
            Format::Pdf
        } else {
            Format::Svg
        }
    }
}

/// The plot `svg` (one of this module's) as a file of `format`. Text is set in the system's
/// fonts (DejaVu Sans, Liberation Sans, Arial or Helvetica when present, else the first font
/// found); on a system without fonts the plot is drawn without its text. PNG and PDF need the
/// `plot-export` feature (default).
pub fn export(svg: &str, format: Format) -> Result<Vec<u8>, PlotError> {
    match format {
        Format::Svg => Ok(svg.as_bytes().to_vec()),
        #[cfg(feature = "plot-export")]
        Format::Png | Format::Pdf => export::convert(svg, format),
        #[cfg(not(feature = "plot-export"))]
        Format::Png | Format::Pdf => Err(PlotError(format!(
            "{format:?} output needs the plot-export feature; this build writes SVG only"
        ))),
    }
}

#[cfg(feature = "plot-export")]
mod export {
    use super::{Format, PlotError};
    use resvg::usvg::{self, fontdb};
    use std::sync::{Arc, OnceLock};

    /// The system's fonts, loaded once, with the generic sans-serif family set to one present.
    fn fonts() -> Arc<fontdb::Database> {
        static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
        FONTS
            .get_or_init(|| {
                let mut db = fontdb::Database::new();
                db.load_system_fonts();
                let present = |name: &str| {
                    db.faces()
                        .any(|f| f.families.iter().any(|(family, _)| family == name))
                };
                let family = ["DejaVu Sans", "Liberation Sans", "Arial", "Helvetica"]
                    .into_iter()
                    .find(|f| present(f))
                    .map(String::from)
                    .or_else(|| {
                        db.faces()
                            .next()
                            .and_then(|f| f.families.first().map(|(name, _)| name.clone()))
                    });
                if let Some(family) = family {
                    db.set_sans_serif_family(family);
                }
                Arc::new(db)
            })
            .clone()
    }

    pub(super) fn convert(svg: &str, format: Format) -> Result<Vec<u8>, PlotError> {
        let options = usvg::Options {
            fontdb: fonts(),
            font_family: "sans-serif".into(),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PlotError(e.to_string()))?;
        match format {
            Format::Png => {
                let scale: f32 = 2.0;
                let size = tree
                    .size()
                    .to_int_size()
                    .scale_by(scale)
                    .ok_or_else(|| PlotError("the plot is too large for a PNG image".into()))?;
                let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
                    .ok_or_else(|| PlotError("the plot is too large for a PNG image".into()))?;
                resvg::render(
                    &tree,
                    resvg::tiny_skia::Transform::from_scale(scale, scale),
                    &mut pixmap.as_mut(),
                );
                pixmap.encode_png().map_err(|e| PlotError(e.to_string()))
            }
            _ => svg2pdf::to_pdf(
                &tree,
                svg2pdf::ConversionOptions::default(),
                svg2pdf::PageOptions::default(),
            )
            .map_err(|e| PlotError(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::chart::{Axis, Label};
    use super::*;

    /// A run of configuration `enc / s` on instance `seed`: solved in `ms`, or a timeout.
    fn row(enc: &str, seed: u64, ms: Option<f64>) -> Row {
        Row {
            n: 10,
            encoding: enc.into(),
            solver: "s".into(),
            timeout_s: 10.0,
            status: if ms.is_some() { "SAT" } else { "TIMEOUT" }.into(),
            solve_ms: ms,
            family: "blocked".into(),
            value: "0.5".into(),
            seed: Some(seed),
            ..Row::default()
        }
    }

    fn num(node: roxmltree::Node, name: &str) -> f64 {
        node.attribute(name).unwrap().parse().unwrap()
    }

    #[test]
    fn log_axes_label_the_decades_only_when_two_are_in_range() {
        let axis = Axis::log([3.0, 20.0, 40_000.0], "t");
        let labels: Vec<(f64, Label)> = (axis.ticks().into_iter())
            .filter_map(|(v, l)| l.map(|l| (v, l)))
            .collect();
        // 3 .. 40000 fills most of the decades 1 .. 100000: those, every one labelled 10^k.
        let ks: Vec<i32> = (labels.iter())
            .map(|(v, l)| match l {
                Label::Decade(k) => {
                    assert!((10f64.powi(*k) - v).abs() < 1e-9 * v);
                    *k
                }
                Label::Plain(p) => panic!("{p} labelled beside the decades"),
            })
            .collect();
        assert_eq!(ks, vec![0, 1, 2, 3, 4, 5]);
        assert!(axis.frac(1.0).abs() < 1e-9 && (axis.frac(1e5) - 1.0).abs() < 1e-9);
        // 8 .. 32 fills a third of 1 .. 100: the data with a margin; 10 and 20 alone would be
        // two labels, so every multiple is.
        let axis = Axis::log([8.0, 32.0], "n");
        assert!(axis.frac(8.0) > 0.0 && axis.frac(8.0) < 0.1);
        assert!(axis.frac(32.0) < 1.0 && axis.frac(32.0) > 0.9);
        let labelled: Vec<f64> = (axis.ticks().into_iter())
            .filter(|t| t.1.is_some())
            .map(|t| t.0)
            .collect();
        assert_eq!(labelled, vec![8.0, 9.0, 10.0, 20.0, 30.0]);
        // 3 .. 25 (to the decades 1 .. 100 would leave half the frame empty): 5, 10, 20.
        let labelled: Vec<f64> = (Axis::log([3.0, 25.0], "t").ticks().into_iter())
            .filter(|t| t.1.is_some())
            .map(|t| t.0)
            .collect();
        assert_eq!(labelled, vec![5.0, 10.0, 20.0]);
    }

    #[test]
    fn linear_axes_fit_the_data() {
        let axis = Axis::linear([8.0, 16.0, 24.0, 32.0], "n", false).integer();
        assert!((axis.frac(8.0) - 0.05 / 1.1).abs() < 1e-9);
        assert!((axis.frac(32.0) - 1.05 / 1.1).abs() < 1e-9);
        let ticks: Vec<f64> = axis.ticks().into_iter().map(|t| t.0).collect();
        assert!(ticks.len() >= 4 && ticks.len() <= 8, "{ticks:?}");
        assert!(ticks.windows(2).all(|w| w[1] > w[0]));
    }

    #[test]
    fn styles_follow_the_sorted_configurations() {
        let mut rows = vec![row("z", 1, Some(1.0)), row("a", 1, Some(1.0))];
        rows[0].solver = "b".into();
        let forward = styles(&rows);
        rows.reverse();
        assert_eq!(forward, styles(&rows));
        assert_eq!(forward["a / s"], Style::nth(0));
        assert_eq!(forward["z / b"], Style::nth(1));
        let all: BTreeSet<(&str, Option<&str>, Marker)> = (0..200)
            .map(Style::nth)
            .map(|s| (s.color, s.dash, s.marker))
            .collect();
        assert_eq!(all.len(), 200);
    }

    #[test]
    fn scatter_puts_timeouts_on_the_frame_and_draws_the_diagonals() {
        let mut rows = Vec::new();
        for seed in 0..6 {
            let t = 3.0 * 4f64.powi(seed as i32);
            rows.push(row("a", seed, Some(t)));
            rows.push(row("b", seed, (seed < 4).then_some(t / 3.0)));
        }
        rows.push(row("a", 9, None));
        rows.push(row("b", 9, Some(50.0)));
        let svg = render_scatter_svg(&rows, "a / s", "b / s").unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let frame = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("frame"))
            .unwrap();
        let (fx, fy, fw, fh) = (
            num(frame, "x"),
            num(frame, "y"),
            num(frame, "width"),
            num(frame, "height"),
        );
        assert!((fw - fh).abs() < 1e-9, "square frame");
        // The decades on each axis, by their labels: equal axes have the same ones, as far
        // apart on both.
        let decades = |class: &str, coord: &str| -> Vec<(i32, f64)> {
            let axis = doc
                .descendants()
                .find(|n| n.attribute("class") == Some(class))
                .unwrap();
            assert_eq!(axis.attribute("data-scale"), Some("log"));
            (axis.descendants())
                .filter(|n| n.attribute("class") == Some("tick"))
                .filter(|n| n.text() == Some("10"))
                .map(|n| {
                    let k = n.children().find(|c| c.has_tag_name("tspan")).unwrap();
                    (k.text().unwrap().parse().unwrap(), num(n, coord))
                })
                .collect()
        };
        let xs = decades("x-axis", "x");
        let ys = decades("y-axis", "y");
        assert!(xs.len() >= 2, "{xs:?}");
        assert_eq!(
            xs.iter().map(|d| d.0).collect::<Vec<_>>(),
            ys.iter().map(|d| d.0).collect::<Vec<_>>()
        );
        let per_decade = (xs[1].1 - xs[0].1) / f64::from(xs[1].0 - xs[0].0);
        assert!(per_decade > 0.0);
        for w in xs.windows(2).chain(ys.windows(2)) {
            let step = (w[1].1 - w[0].1).abs() / f64::from(w[1].0 - w[0].0);
            assert!((step - per_decade).abs() < 0.2, "{xs:?} {ys:?}");
        }
        // Timeouts (the last instance for a, two for b): crosses on the right or top edge.
        let uses: Vec<roxmltree::Node> = (doc.descendants())
            .filter(|n| n.has_tag_name("use"))
            .filter(|n| {
                n.ancestors()
                    .all(|a| a.attribute("class") != Some("legend"))
            })
            .collect();
        let crosses: Vec<(f64, f64)> = (uses.iter())
            .filter(|n| n.attribute("href") == Some("#marker-cross"))
            .map(|n| (num(*n, "x"), num(*n, "y")))
            .collect();
        assert_eq!(crosses.len(), 3);
        for (x, y) in &crosses {
            assert!(
                (x - (fx + fw)).abs() < 0.2 || (y - fy).abs() < 0.2,
                "{x},{y} not on the frame"
            );
        }
        assert_eq!(uses.len(), 7);
        // The diagonals: 45 degree lines whose offset from y = x, in decades, is 0, +-log 2,
        // +-1; the first solid, the others dashed.
        let mut offsets: Vec<(f64, bool)> = (doc.descendants())
            .filter(|n| n.attribute("class") == Some("guide"))
            .map(|n| {
                let (x1, y1, x2, y2) = (num(n, "x1"), num(n, "y1"), num(n, "x2"), num(n, "y2"));
                assert!(((x2 - x1) - (y1 - y2)).abs() < 0.2, "45 degrees");
                let offset = ((fy + fh - y1) - (x1 - fx)) / per_decade;
                (offset, n.attribute("stroke-dasharray").is_some())
            })
            .collect();
        offsets.sort_by(|a, b| a.0.total_cmp(&b.0));
        let l2 = 2f64.log10();
        let expected = [
            (-1.0, true),
            (-l2, true),
            (0.0, false),
            (l2, true),
            (1.0, true),
        ];
        assert_eq!(offsets.len(), expected.len(), "{offsets:?}");
        for (got, want) in offsets.iter().zip(expected) {
            assert!(
                (got.0 - want.0).abs() < 0.01 && got.1 == want.1,
                "{offsets:?}"
            );
        }
    }

    #[test]
    fn plot_formats_by_file_name() {
        assert_eq!(Format::of(Path::new("a/b.PNG")), Format::Png);
        assert_eq!(Format::of(Path::new("b.pdf")), Format::Pdf);
        assert_eq!(Format::of(Path::new("b.svg")), Format::Svg);
        assert_eq!(Format::of(Path::new("b")), Format::Svg);
    }

    #[cfg(feature = "plot-export")]
    #[test]
    fn png_and_pdf_are_made_from_the_svg() {
        let rows = vec![row("a", 1, Some(2.0)), row("a", 2, Some(30.0))];
        let svg = render_cactus_svg(&rows).unwrap();
        let png = export(&svg, Format::Png).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let width: u32 = doc
            .root_element()
            .attribute("width")
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            u32::from_be_bytes(png[16..20].try_into().unwrap()),
            2 * width
        );
        assert!(png.len() > 10_000, "{} bytes", png.len());
        // The title's text is drawn (a font was found): dark pixels in the band above the
        // frame, where nothing else is drawn.
        let image = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        let dark = (0..image.width())
            .flat_map(|x| (30..60).map(move |y| (x, y)))
            .filter(|&(x, y)| image.pixel(x, y).is_some_and(|p| p.red() < 100))
            .count();
        assert!(
            dark > 50,
            "no text in the PNG: is a font installed (fonts-dejavu-core)?"
        );
        let pdf = export(&svg, Format::Pdf).unwrap();
        assert!(pdf.starts_with(b"%PDF-") && pdf.len() > 1000);
    }
}
