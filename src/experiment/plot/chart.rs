//! The drawing of the plots, written as SVG element by element: panels with a linear or a log
//! axis each (decade ticks on log axes, data ranges fitted), series of lines and markers, and a
//! legend beside the frame whose entries draw each series' colour, dash pattern and marker as
//! the series is drawn.
//!
//! The document is laid out for a reader of the file as much as for the eye: each panel is a
//! `g class="panel"`, its frame a `rect class="frame"`, its axes `g class="x-axis"` and
//! `g class="y-axis"` (with `data-scale` `linear` or `log`), each series a `g class="series"`
//! titled with its label, and the legend a `g class="legend"` with a `rect class="legend-box"`
//! and a `g class="entry"` per series.

use std::fmt::Write;

/// The fonts asked for, in order: those Debian, other Linux systems, macOS and Windows have.
pub(super) const FONT: &str = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";

/// The shape drawn at a series' points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Plus,
    Cross,
}

/// The markers, in the order styles take them.
const MARKERS: [Marker; 7] = [
    Marker::Circle,
    Marker::Square,
    Marker::TriangleUp,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Plus,
    Marker::Cross,
];

impl Marker {
    fn id(self) -> &'static str {
        match self {
            Marker::Circle => "marker-circle",
            Marker::Square => "marker-square",
            Marker::TriangleUp => "marker-triangle-up",
            Marker::Diamond => "marker-diamond",
            Marker::TriangleDown => "marker-triangle-down",
            Marker::Plus => "marker-plus",
            Marker::Cross => "marker-cross",
        }
    }

    /// The shape around (0, 0), about 10 px across, and a transform of it.
    fn shape(self) -> (&'static str, &'static str) {
        const PLUS: &str = "M-1.5 -5.5H1.5V-1.5H5.5V1.5H1.5V5.5H-1.5V1.5H-5.5V-1.5H-1.5Z";
        match self {
            Marker::Circle => ("M4.5 0A4.5 4.5 0 1 1 -4.5 0A4.5 4.5 0 1 1 4.5 0Z", ""),
            Marker::Square => ("M-4 -4H4V4H-4Z", ""),
            Marker::TriangleUp => ("M0 -5.5L5 3.5H-5Z", ""),
            Marker::Diamond => ("M0 -5.5L5 0L0 5.5L-5 0Z", ""),
            Marker::TriangleDown => ("M0 5.5L5 -3.5H-5Z", ""),
            Marker::Plus => (PLUS, ""),
            Marker::Cross => (PLUS, "rotate(45)"),
        }
    }
}

/// The ten colours of matplotlib's default cycle (mkplot's), readable on white.
const COLORS: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// Dash patterns: solid for the first ten styles, then dashed, dotted, dash-dotted.
const DASHES: [Option<&str>; 4] = [None, Some("7 4"), Some("2 3"), Some("7 3 2 3")];

/// How a series is drawn: colour, dash pattern (none: solid) and marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    pub color: &'static str,
    pub dash: Option<&'static str>,
    pub marker: Marker,
}

impl Style {
    /// The `i`-th style: colour `i` mod 10, marker `i` mod 7 (so the first 70 styles differ in
    /// colour or marker), dash pattern `i / 10` mod 4.
    pub fn nth(i: usize) -> Style {
        Style {
            color: COLORS[i % COLORS.len()],
            dash: DASHES[(i / COLORS.len()) % DASHES.len()],
            marker: MARKERS[i % MARKERS.len()],
        }
    }
}

/// Linear or log (base 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scale {
    Linear,
    Log,
}

/// A tick label: a plain number or category, or the decade 10^k.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Label {
    Plain(String),
    Decade(i32),
}

/// An axis: its scale, its range (in log10 units on a log axis) and its title.
#[derive(Clone, Debug)]
pub(super) struct Axis {
    scale: Scale,
    lo: f64,
    hi: f64,
    title: String,
    /// Ticks on whole numbers only (n, instances).
    integer: bool,
    /// Categories drawn at 0, 1, 2, ... instead of numbers.
    categories: Vec<String>,
}

/// A tick: its value, and its label for a major tick (none for a minor one).
pub(super) type Tick = (f64, Option<Label>);

/// The least and the greatest finite value of `values`, if any.
fn extent(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((f64::min(lo, v), f64::max(hi, v))),
        })
}

/// A log range (in log10 units) for data from `lo` to `hi` (log10 units): the enclosing decades
/// when the data fill at least half of them, else the data (widened to half a decade at least)
/// with a margin of 5% of their span on each side. With `exact_hi` the range ends at `hi` (scatter
/// plots: timeouts on the frame).
pub(super) fn log_range(lo: f64, hi: f64, exact_hi: bool) -> (f64, f64) {
    let span = hi - lo;
    let (mut lo, mut hi) = (lo, hi);
    if hi - lo < 0.5 {
        let grow = 0.5 - (hi - lo);
        if exact_hi {
            lo -= grow;
        } else {
            lo -= grow / 2.0;
            hi += grow / 2.0;
        }
    }
    let (flo, chi) = ((lo + 1e-9).floor(), (hi - 1e-9).ceil());
    let chi = if exact_hi { hi } else { chi };
    if span / (chi - flo) >= 0.5 {
        return (flo, chi);
    }
    let pad = 0.05 * (hi - lo);
    (lo - pad, if exact_hi { hi } else { hi + pad })
}

/// A number as a tick label: at most `decimals` decimals, trailing zeros dropped.
fn plain(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

impl Axis {
    /// A linear axis over `values` with a margin of 5% of their span on each side (not below 0
    /// for values that are not negative; from 0 with `from_zero`).
    pub fn linear(values: impl IntoIterator<Item = f64>, title: &str, from_zero: bool) -> Axis {
        let (lo, hi) = extent(values).unwrap_or((0.0, 1.0));
        let pad = if hi > lo {
            0.05 * (hi - lo)
        } else {
            (0.1 * lo.abs()).max(1.0)
        };
        let mut a = lo - pad;
        if from_zero || (lo >= 0.0 && a < 0.0) {
            a = 0.0;
        }
        Axis::linear_range(a, hi + pad, title)
    }

    /// A linear axis from `lo` to `hi`.
    pub fn linear_range(lo: f64, hi: f64, title: &str) -> Axis {
        Axis {
            scale: Scale::Linear,
            lo,
            hi,
            title: title.into(),
            integer: false,
            categories: Vec::new(),
        }
    }

    /// Ticks on whole numbers only.
    pub fn integer(mut self) -> Axis {
        self.integer = true;
        self
    }

    /// An axis of categories, drawn evenly spaced in order.
    pub fn categorical(categories: Vec<String>, title: &str) -> Axis {
        let hi = categories.len().max(1) as f64 - 0.5;
        Axis {
            categories,
            ..Axis::linear_range(-0.5, hi, title)
        }
    }

    /// A log axis over the positive `values` ([`log_range`]).
    pub fn log(values: impl IntoIterator<Item = f64>, title: &str) -> Axis {
        let (lo, hi) = extent(values.into_iter().filter(|v| *v > 0.0)).unwrap_or((1.0, 10.0));
        let (lo, hi) = log_range(lo.log10(), hi.log10(), false);
        Axis::log_range(lo, hi, title)
    }

    /// A log axis from 10^`lo` to 10^`hi`.
    pub fn log_range(lo: f64, hi: f64, title: &str) -> Axis {
        Axis {
            scale: Scale::Log,
            ..Axis::linear_range(lo, hi, title)
        }
    }

    /// Where `v` falls, 0 at the start of the axis and 1 at its end.
    pub fn frac(&self, v: f64) -> f64 {
        let v = match self.scale {
            Scale::Linear => v,
            Scale::Log => v.max(f64::MIN_POSITIVE).log10(),
        };
        (v - self.lo) / (self.hi - self.lo)
    }

    /// The ticks: on a log axis every decade labelled, and the multiples 2..9 of each decade
    /// minor ticks (when fewer than two decades are in range, labelled 2 and 5, or all of them
    /// when that makes fewer than three labels); on a linear axis a step of 1, 2, 2.5 or 5
    /// times a power of ten, about six labels.
    pub fn ticks(&self) -> Vec<Tick> {
        let inside = |v: f64| v >= self.lo - 1e-9 && v <= self.hi + 1e-9;
        if !self.categories.is_empty() {
            return (self.categories.iter().enumerate())
                .map(|(i, c)| (i as f64, Some(Label::Plain(c.clone()))))
                .collect();
        }
        match self.scale {
            Scale::Log => {
                let decades: Vec<i32> =
                    (self.lo.floor() as i32 - 1..=self.hi.ceil() as i32).collect();
                let grid = |ms: &[u32]| -> Vec<(i32, u32)> {
                    (decades.iter())
                        .flat_map(|&k| ms.iter().map(move |&m| (k, m)))
                        .filter(|&(k, m)| inside(k as f64 + (m as f64).log10()))
                        .collect()
                };
                let labelled: &[u32] = match grid(&[1]).len() {
                    0 | 1 if grid(&[1, 2, 5]).len() >= 3 => &[1, 2, 5],
                    0 | 1 => &[1, 2, 3, 4, 5, 6, 7, 8, 9],
                    _ => &[1],
                };
                grid(&[1, 2, 3, 4, 5, 6, 7, 8, 9])
                    .into_iter()
                    .map(|(k, m)| {
                        let v = 10f64.powi(k) * m as f64;
                        let label = if m == 1 {
                            Some(Label::Decade(k))
                        } else if labelled.contains(&m) {
                            Some(Label::Plain(plain(v, (-k).max(0) as usize)))
                        } else {
                            None
                        };
                        (v, label)
                    })
                    .collect()
            }
            Scale::Linear => {
                let raw = (self.hi - self.lo) / 6.0;
                let mag = 10f64.powf(raw.log10().floor());
                let step = [1.0, 2.0, 2.5, 5.0, 10.0]
                    .into_iter()
                    .map(|f| f * mag)
                    .find(|s| *s >= raw * 0.8)
                    .unwrap_or(10.0 * mag);
                let step = if self.integer { step.ceil() } else { step };
                let decimals = (-(step.log10().floor()) as i32 + 1).max(0) as usize;
                let first = (self.lo / step).ceil() as i64;
                let last = (self.hi / step).floor() as i64;
                (first..=last)
                    .map(|i| {
                        let v = i as f64 * step;
                        (v, Some(Label::Plain(plain(v, decimals))))
                    })
                    .collect()
            }
        }
    }
}

/// A series: its points drawn as a line (when `line`) and markers at every `marker_every`-th
/// point and the last.
pub(super) struct Series {
    pub label: String,
    pub style: Style,
    pub points: Vec<(f64, f64)>,
    pub line: bool,
    pub marker_every: usize,
}

/// A straight line between two points of the data, with a legend entry when `label` is not
/// empty.
pub(super) struct Line {
    pub label: String,
    pub from: (f64, f64),
    pub to: (f64, f64),
    pub color: &'static str,
    pub dash: Option<&'static str>,
}

/// A panel: a frame of `width` x `height` pixels with its axes, lines under the series, and a
/// legend to the right of the frame.
pub(super) struct Panel {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub width: f64,
    pub height: f64,
    pub lines: Vec<Line>,
    pub series: Vec<Series>,
}

const LEFT: f64 = 82.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 58.0;
const GAP: f64 = 18.0;
const RIGHT: f64 = 14.0;
const ENTRY: f64 = 18.0;
/// The width of a character at 12 px, a little over the average of a sans-serif font.
const CHAR: f64 = 7.2;

/// XML text.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn dash_attr(dash: Option<&str>) -> String {
    dash.map_or_else(String::new, |d| format!(r#" stroke-dasharray="{d}""#))
}

fn marker_use(out: &mut String, m: Marker, color: &str, x: f64, y: f64) {
    let _ = writeln!(
        out,
        r##"<use href="#{}" x="{x:.1}" y="{y:.1}" fill="{color}"/>"##,
        m.id()
    );
}

fn label_text(label: &Label) -> String {
    match label {
        Label::Plain(s) => escape(s),
        Label::Decade(k) => format!(r#"10<tspan dy="-7" font-size="9">{k}</tspan>"#),
    }
}

/// A legend entry: label, colour, dash, whether it has a line sample, its marker.
struct Entry<'a> {
    label: &'a str,
    color: &'a str,
    dash: Option<&'a str>,
    line: bool,
    marker: Option<Marker>,
}

impl Panel {
    fn entries(&self) -> Vec<Entry<'_>> {
        let series = self.series.iter().map(|s| Entry {
            label: &s.label,
            color: s.style.color,
            dash: s.style.dash,
            line: s.line,
            marker: Some(s.style.marker),
        });
        let lines = self.lines.iter().filter(|l| !l.label.is_empty());
        series
            .chain(lines.map(|l| Entry {
                label: &l.label,
                color: l.color,
                dash: l.dash,
                line: true,
                marker: None,
            }))
            .collect()
    }

    fn legend_width(&self) -> f64 {
        let entries = self.entries();
        let chars = entries.iter().map(|e| e.label.chars().count()).max();
        chars.map_or(0.0, |c| 54.0 + c as f64 * CHAR)
    }

    /// The panel's size in pixels.
    fn size(&self) -> (f64, f64) {
        let legend = self.entries().len() as f64 * ENTRY + 12.0;
        (
            LEFT + self.width + GAP + self.legend_width() + RIGHT,
            (TOP + self.height + BOTTOM).max(TOP + legend + 10.0),
        )
    }

    fn draw(&self, out: &mut String) {
        let (w, h) = (self.width, self.height);
        let px = |v: f64| LEFT + self.x.frac(v) * w;
        let py = |v: f64| TOP + (1.0 - self.y.frac(v)) * h;
        let _ = writeln!(
            out,
            r#"<text class="title" x="{:.1}" y="26" font-size="15" text-anchor="middle">{}</text>"#,
            LEFT + w / 2.0,
            escape(&self.title)
        );
        // Grid lines, then the axes' ticks and labels.
        for (axis, class) in [(&self.x, "x-axis"), (&self.y, "y-axis")] {
            let scale = match axis.scale {
                Scale::Linear => "linear",
                Scale::Log => "log",
            };
            let _ = writeln!(out, r#"<g class="{class}" data-scale="{scale}">"#);
            for (v, label) in axis.ticks() {
                let len = if label.is_some() { 6.0 } else { 3.0 };
                let major = label.is_some() || axis.scale == Scale::Linear;
                if class == "x-axis" {
                    let x = px(v);
                    if major {
                        let _ = writeln!(
                            out,
                            r##"<line class="grid" x1="{x:.1}" y1="{TOP:.1}" x2="{x:.1}" y2="{:.1}" stroke="#e4e4e4"/>"##,
                            TOP + h
                        );
                    }
                    let _ = writeln!(
                        out,
                        r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="black"/>"#,
                        TOP + h,
                        TOP + h + len
                    );
                    if let Some(l) = label {
                        let _ = writeln!(
                            out,
                            r#"<text class="tick" x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
                            TOP + h + 21.0,
                            label_text(&l)
                        );
                    }
                } else {
                    let y = py(v);
                    if major {
                        let _ = writeln!(
                            out,
                            r##"<line class="grid" x1="{LEFT:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e4e4e4"/>"##,
                            LEFT + w
                        );
                    }
                    let _ = writeln!(
                        out,
                        r#"<line x1="{:.1}" y1="{y:.1}" x2="{LEFT:.1}" y2="{y:.1}" stroke="black"/>"#,
                        LEFT - len
                    );
                    if let Some(l) = label {
                        let _ = writeln!(
                            out,
                            r#"<text class="tick" x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{}</text>"#,
                            LEFT - 9.0,
                            y + 4.0,
                            label_text(&l)
                        );
                    }
                }
            }
            if class == "x-axis" {
                let _ = writeln!(
                    out,
                    r#"<text class="axis-title" x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle">{}</text>"#,
                    LEFT + w / 2.0,
                    TOP + h + 46.0,
                    escape(&axis.title)
                );
            } else {
                let (x, y) = (20.0, TOP + h / 2.0);
                let _ = writeln!(
                    out,
                    r#"<text class="axis-title" x="{x:.1}" y="{y:.1}" font-size="13" text-anchor="middle" transform="rotate(-90 {x:.1} {y:.1})">{}</text>"#,
                    escape(&axis.title)
                );
            }
            let _ = writeln!(out, "</g>");
        }
        for l in &self.lines {
            let _ = writeln!(
                out,
                r#"<line class="guide" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="1.2"{}/>"#,
                px(l.from.0),
                py(l.from.1),
                px(l.to.0),
                py(l.to.1),
                l.color,
                dash_attr(l.dash)
            );
        }
        for s in &self.series {
            let _ = writeln!(
                out,
                r#"<g class="series"><title>{}</title>"#,
                escape(&s.label)
            );
            if s.line && !s.points.is_empty() {
                let points: Vec<String> = (s.points.iter())
                    .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
                    .collect();
                let _ = writeln!(
                    out,
                    r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2" stroke-linejoin="round"{}/>"#,
                    points.join(" "),
                    s.style.color,
                    dash_attr(s.style.dash)
                );
            }
            let every = s.marker_every.max(1);
            for (i, &(x, y)) in s.points.iter().enumerate() {
                if i % every == 0 || i + 1 == s.points.len() {
                    marker_use(out, s.style.marker, s.style.color, px(x), py(y));
                }
            }
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(
            out,
            r#"<rect class="frame" x="{LEFT:.1}" y="{TOP:.1}" width="{w:.1}" height="{h:.1}" fill="none" stroke="black"/>"#
        );
        // The legend, beside the frame.
        let entries = self.entries();
        if entries.is_empty() {
            return;
        }
        let (bx, by) = (LEFT + w + GAP, TOP);
        let _ = writeln!(
            out,
            r##"<g class="legend"><rect class="legend-box" x="{bx:.1}" y="{by:.1}" width="{:.1}" height="{:.1}" fill="white" stroke="#999"/>"##,
            self.legend_width(),
            entries.len() as f64 * ENTRY + 12.0
        );
        for (i, e) in entries.iter().enumerate() {
            let y = by + 6.0 + ENTRY / 2.0 + i as f64 * ENTRY;
            let _ = writeln!(out, r#"<g class="entry">"#);
            if e.line {
                let _ = writeln!(
                    out,
                    r#"<line class="sample" x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="2"{}/>"#,
                    bx + 8.0,
                    bx + 40.0,
                    e.color,
                    dash_attr(e.dash)
                );
            }
            if let Some(m) = e.marker {
                marker_use(out, m, e.color, bx + 24.0, y);
            }
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="12">{}</text>"#,
                bx + 48.0,
                y + 4.0,
                escape(e.label)
            );
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
}

/// An SVG document of `panels` side by side.
pub(super) fn render(panels: &[Panel]) -> String {
    let sizes: Vec<(f64, f64)> = panels.iter().map(Panel::size).collect();
    let width: f64 = sizes.iter().map(|s| s.0).sum::<f64>().ceil();
    let height = sizes.iter().map(|s| s.1).fold(0.0, f64::max).ceil();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}">"#
    );
    let _ = writeln!(out, "<defs>");
    for m in MARKERS {
        let (d, transform) = m.shape();
        let transform = if transform.is_empty() {
            String::new()
        } else {
            format!(r#" transform="{transform}""#)
        };
        let _ = writeln!(out, r#"<path id="{}" d="{d}"{transform}/>"#, m.id());
    }
    let _ = writeln!(out, "</defs>");
    let _ = writeln!(
        out,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    let mut x = 0.0;
    for (p, size) in panels.iter().zip(&sizes) {
        let _ = writeln!(out, r#"<g class="panel" transform="translate({x:.1} 0)">"#);
        p.draw(&mut out);
        let _ = writeln!(out, "</g>");
        x += size.0;
    }
    out.push_str("</svg>\n");
    out
}
