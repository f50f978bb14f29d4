//! Pictures in SVG: a board with its queens, a grid of many small boards, and a heatmap of how
//! many solutions put a queen on each cell.
//!
//! The SVG is written by hand (no fonts, images or scripts are needed to show it): squares are
//! rectangles, a queen is a crown drawn as a path, and the labels are plain `<text>` in the
//! generic `sans-serif` family. Boards up to [`MAX_CHESSBOARD_N`] are drawn as chessboards with
//! row and column labels; larger ones as a dot plot (one dot per queen, columns across, rows
//! down, with axes), up to [`MAX_DOT_PLOT_N`].
//!
//! Every queen is one element with `class="queen"` and its 1-based `data-row` and `data-col`;
//! every board of a grid is a `<g class="board" data-index="k">` (1-based, in the order given);
//! every heatmap cell is a `<rect class="cell">` with `data-row`, `data-col` and `data-count`.
//! Programs (and the tests) read positions from these attributes, not from coordinates.
//!
//! ```
//! use queens_sat::board::picture::write_board;
//! use queens_sat::Placement;
//! let p = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
//! let mut svg = Vec::new();
//! write_board(&mut svg, &p, "n = 4").unwrap();
//! let svg = String::from_utf8(svg).unwrap();
//! assert_eq!(svg.matches("class=\"queen\"").count(), 4);
//! assert!(svg.contains("data-row=\"1\" data-col=\"2\""));
//! ```

use crate::board::Placement;
use std::io::{self, Write};

/// Largest board drawn as a chessboard; larger boards become a dot plot.
pub const MAX_CHESSBOARD_N: usize = 64;

/// Largest board drawn at all (a dot plot of 100,000 queens is about 8 MB of SVG).
pub const MAX_DOT_PLOT_N: usize = 100_000;

/// The most boards a grid of solutions shows.
pub const MAX_GRID_BOARDS: usize = 1000;

/// Largest board of a grid of solutions (each small board is a chessboard).
pub const MAX_GRID_N: usize = MAX_CHESSBOARD_N;

/// Largest board of a heatmap (cells are labelled with their counts up to n = 16).
pub const MAX_HEATMAP_N: usize = MAX_CHESSBOARD_N;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const QUEEN_FILL: &str = "#1b1b1b";
const QUEEN_STROKE: &str = "#ffffff";
const FONT: &str = "font-family=\"sans-serif\"";

/// The crown of a queen in a unit square: a base and five points.
const CROWN: &str =
    "M.2 .84H.8V.74H.2Z M.22 .7L.12 .3L.34 .5L.42 .2L.5 .46L.58 .2L.66 .5L.88 .3L.78 .7Z";

/// Text with the five special characters of XML and HTML escaped (`'` as `&#39;`, which both
/// read), for element content and quoted attribute values; the HTML trace uses it too.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn header(w: &mut dyn Write, width: f64, height: f64, title: &str) -> io::Result<()> {
    writeln!(
        w,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\">"
    )?;
    writeln!(w, "<title>{}</title>", escape(title))?;
    writeln!(
        w,
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    )
}

/// A caption line at `(x, y)`.
fn caption(w: &mut dyn Write, x: f64, y: f64, size: f64, text: &str) -> io::Result<()> {
    writeln!(
        w,
        "<text x=\"{x}\" y=\"{y}\" {FONT} font-size=\"{size}\">{}</text>",
        escape(text)
    )
}

/// Every `step`-th label of `1..=n` is written (and the first): labels stay legible.
fn label_step(n: usize, cell: f64) -> usize {
    let mut step = 1;
    while (step as f64) * cell < 14.0 {
        step = match step {
            1 => 2,
            2 => 5,
            s => s * 2,
        };
    }
    step.min(n.max(1))
}

/// The squares of an `n` x `n` chessboard of cell size `s` at `(x, y)`, light at the top left.
fn squares(w: &mut dyn Write, n: usize, x: f64, y: f64, s: f64) -> io::Result<()> {
    let side = n as f64 * s;
    writeln!(
        w,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" fill=\"{LIGHT}\"/>"
    )?;
    write!(w, "<path fill=\"{DARK}\" d=\"")?;
    for r in 0..n {
        for c in (0..n).filter(|c| (r + c) % 2 == 1) {
            write!(
                w,
                "M{} {}h{s}v{s}h-{s}Z",
                x + c as f64 * s,
                y + r as f64 * s
            )?;
        }
    }
    writeln!(w, "\"/>")?;
    writeln!(
        w,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" fill=\"none\" stroke=\"#555555\" stroke-width=\"1\"/>"
    )
}

/// One queen (0-based `r`, `c`) on a board of cell size `s` at `(x, y)`.
fn queen(w: &mut dyn Write, r: usize, c: usize, x: f64, y: f64, s: f64) -> io::Result<()> {
    writeln!(
        w,
        "<path class=\"queen\" data-row=\"{}\" data-col=\"{}\" transform=\"translate({} {}) scale({s})\" \
         d=\"{CROWN}\" fill=\"{QUEEN_FILL}\" stroke=\"{QUEEN_STROKE}\" stroke-width=\"{}\"/>",
        r + 1,
        c + 1,
        x + c as f64 * s,
        y + r as f64 * s,
        (1.0 / s).min(0.04)
    )
}

/// Row labels at the left and column labels above a board of cell size `s` at `(x, y)`.
fn labels(w: &mut dyn Write, n: usize, x: f64, y: f64, s: f64) -> io::Result<()> {
    let step = label_step(n, s);
    let size = (s * 0.55).clamp(7.0, 13.0);
    for i in (0..n).filter(|i| i % step == 0 || *i + 1 == n && n < 2 * step) {
        let mid = i as f64 * s + s / 2.0;
        writeln!(
            w,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"{size}\" text-anchor=\"middle\">{}</text>",
            x + mid,
            y - 5.0,
            i + 1
        )?;
        writeln!(
            w,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"{size}\" text-anchor=\"end\">{}</text>",
            x - 5.0,
            y + mid + size * 0.35,
            i + 1
        )?;
    }
    Ok(())
}

/// Draws one placement: a chessboard with queens and row and column labels (1-based) for
/// `n <=` [`MAX_CHESSBOARD_N`], a dot plot with axes for larger boards. `title` goes into the
/// SVG's `<title>` and a caption.
///
/// # Errors
/// Write errors, and `InvalidInput` for a board larger than [`MAX_DOT_PLOT_N`].
pub fn write_board(w: &mut dyn Write, p: &Placement, title: &str) -> io::Result<()> {
    let n = p.n();
    if n > MAX_DOT_PLOT_N {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("boards are drawn up to n = {MAX_DOT_PLOT_N}, not n = {n}"),
        ));
    }
    if n > MAX_CHESSBOARD_N {
        return write_dot_plot(w, p, title);
    }
    let s = (640.0 / n.max(1) as f64).clamp(10.0, 60.0).floor();
    let (x, y) = (36.0, 52.0);
    let side = n as f64 * s;
    header(w, x + side + 16.0, y + side + 16.0, title)?;
    caption(w, 8.0, 20.0, 15.0, title)?;
    labels(w, n, x, y, s)?;
    squares(w, n, x, y, s)?;
    for (r, &c) in p.cols().iter().enumerate() {
        queen(w, r, c as usize, x, y, s)?;
    }
    writeln!(w, "</svg>")
}

/// Tick values for an axis of `0..=n`: 1, then multiples of a round step (1, 2 or 5 times a
/// power of ten) giving about five ticks, and n.
fn ticks(n: usize) -> Vec<usize> {
    let mut step = 1;
    'outer: loop {
        for f in [1, 2, 5] {
            if n / (step * f) <= 6 {
                step *= f;
                break 'outer;
            }
        }
        step *= 10;
    }
    let mut t = vec![1];
    t.extend((1..=n / step).map(|k| k * step).filter(|&v| v > 1));
    if *t.last().unwrap_or(&0) != n {
        t.push(n);
    }
    // Drop a round tick crowding the last one.
    if t.len() >= 3 && (n - t[t.len() - 2]) * 12 < n {
        t.remove(t.len() - 2);
    }
    t
}

/// A dot plot of a large placement: one dot per queen at (column, row), rows growing downwards
/// as on the board.
fn write_dot_plot(w: &mut dyn Write, p: &Placement, title: &str) -> io::Result<()> {
    let n = p.n();
    let plot = 720.0;
    let (x0, y0) = (70.0, 60.0);
    header(w, x0 + plot + 30.0, y0 + plot + 60.0, title)?;
    caption(w, 8.0, 22.0, 15.0, title)?;
    let scale = plot / n as f64;
    let pos = |i: usize| (i as f64 - 0.5) * scale;
    writeln!(
        w,
        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{plot}\" height=\"{plot}\" fill=\"#fbfbfb\" stroke=\"#333333\"/>"
    )?;
    for t in ticks(n) {
        let v = pos(t);
        writeln!(
            w,
            "<path d=\"M{} {}v6M{} {}h-6\" stroke=\"#333333\"/>",
            x0 + v,
            y0 + plot,
            x0,
            y0 + v
        )?;
        writeln!(
            w,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"11\" text-anchor=\"middle\">{t}</text>",
            x0 + v,
            y0 + plot + 19.0
        )?;
        writeln!(
            w,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"11\" text-anchor=\"end\">{t}</text>",
            x0 - 9.0,
            y0 + v + 4.0
        )?;
    }
    writeln!(
        w,
        "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"13\" text-anchor=\"middle\">column</text>",
        x0 + plot / 2.0,
        y0 + plot + 40.0
    )?;
    writeln!(
        w,
        "<text x=\"20\" y=\"{}\" {FONT} font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 20 {})\">row</text>",
        y0 + plot / 2.0,
        y0 + plot / 2.0
    )?;
    let radius = (scale * 0.45).max(0.9);
    writeln!(w, "<g fill=\"#1f4e9c\">")?;
    for (r, &c) in p.cols().iter().enumerate() {
        writeln!(
            w,
            "<circle class=\"queen\" data-row=\"{}\" data-col=\"{}\" cx=\"{:.2}\" cy=\"{:.2}\" r=\"{radius:.2}\"/>",
            r + 1,
            c + 1,
            x0 + pos(c as usize + 1),
            y0 + pos(r + 1)
        )?;
    }
    writeln!(w, "</g>\n</svg>")
}

/// Draws solutions of one board size as a grid of small chessboards, each a
/// `<g class="board" data-index="k">` (1-based) with its queens, numbered below.
///
/// # Errors
/// Write errors, and `InvalidInput` for more than [`MAX_GRID_BOARDS`] boards, a board larger
/// than [`MAX_GRID_N`], or a placement of another size.
pub fn write_solutions(
    w: &mut dyn Write,
    n: usize,
    solutions: &[Placement],
    title: &str,
) -> io::Result<()> {
    let invalid = |m: String| Err(io::Error::new(io::ErrorKind::InvalidInput, m));
    if solutions.len() > MAX_GRID_BOARDS {
        return invalid(format!(
            "a grid shows at most {MAX_GRID_BOARDS} boards, not {}",
            solutions.len()
        ));
    }
    if n > MAX_GRID_N {
        return invalid(format!("a grid shows boards up to n = {MAX_GRID_N}"));
    }
    if let Some(p) = solutions.iter().find(|p| p.n() != n) {
        return invalid(format!(
            "a placement of size {} among boards of n = {n}",
            p.n()
        ));
    }
    let k = solutions.len();
    let per_row = ((k as f64).sqrt().ceil() as usize).clamp(1, 12);
    let s = (96.0 / n.max(1) as f64).clamp(3.0, 14.0).floor();
    let side = n as f64 * s;
    let (gap, label) = (14.0, 14.0);
    let rows = k.div_ceil(per_row).max(1);
    let width = 16.0 + per_row as f64 * (side + gap);
    let height = 40.0 + rows as f64 * (side + gap + label);
    header(w, width, height, title)?;
    caption(w, 8.0, 22.0, 15.0, title)?;
    for (i, p) in solutions.iter().enumerate() {
        let x = 10.0 + (i % per_row) as f64 * (side + gap);
        let y = 36.0 + (i / per_row) as f64 * (side + gap + label);
        writeln!(w, "<g class=\"board\" data-index=\"{}\">", i + 1)?;
        squares(w, n, x, y, s)?;
        for (r, &c) in p.cols().iter().enumerate() {
            queen(w, r, c as usize, x, y, s)?;
        }
        writeln!(
            w,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"10\" text-anchor=\"middle\">{}</text>",
            x + side / 2.0,
            y + side + 11.0,
            i + 1
        )?;
        writeln!(w, "</g>")?;
    }
    writeln!(w, "</svg>")
}

/// The colour scale of heatmaps (light yellow to dark red), by stops.
const SCALE: [(f64, f64, f64); 5] = [
    (255.0, 255.0, 204.0),
    (254.0, 217.0, 118.0),
    (253.0, 141.0, 60.0),
    (227.0, 26.0, 28.0),
    (128.0, 0.0, 38.0),
];

/// The colour of `t` in `0..=1` on [`SCALE`], as `#rrggbb`.
fn colour(t: f64) -> String {
    let t = t.clamp(0.0, 1.0) * (SCALE.len() - 1) as f64;
    let i = (t.floor() as usize).min(SCALE.len() - 2);
    let f = t - i as f64;
    let (a, b) = (SCALE[i], SCALE[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Draws a heatmap of per-cell counts (`counts[r * n + c]`, how many solutions put a queen on
/// cell (r, c), 0-based): each cell coloured on a scale from the smallest count to the largest,
/// with its number for n <= 16, a legend with the scale's minimum and maximum, and each row's
/// sum at its right. Cells are `<rect class="cell">` with 1-based `data-row`, `data-col` and
/// `data-count`.
///
/// # Errors
/// Write errors, and `InvalidInput` when `counts` does not hold `n * n` values or `n` is past
/// [`MAX_HEATMAP_N`].
pub fn write_heatmap(w: &mut dyn Write, n: usize, counts: &[u64], title: &str) -> io::Result<()> {
    if n > MAX_HEATMAP_N || counts.len() != n * n {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "a heatmap needs n <= {MAX_HEATMAP_N} and n * n counts (n = {n}, {} counts)",
                counts.len()
            ),
        ));
    }
    let lo = counts.iter().copied().min().unwrap_or(0);
    let hi = counts.iter().copied().max().unwrap_or(0);
    let t = |v: u64| {
        if hi == lo {
            0.5
        } else {
            (v - lo) as f64 / (hi - lo) as f64
        }
    };
    let s = (560.0 / n.max(1) as f64).clamp(10.0, 64.0).floor();
    let (x, y) = (40.0, 56.0);
    let side = n as f64 * s;
    let sums_w = 70.0;
    let legend_x = x + side + sums_w + 10.0;
    let width = legend_x + 110.0;
    // The legend's bar, then its two caption lines under it: the picture holds both.
    let bar_h = side.clamp(120.0, 400.0);
    let height = y + side.max(bar_h + 34.0).max(200.0) + 20.0;
    header(w, width, height, title)?;
    caption(w, 8.0, 22.0, 15.0, title)?;
    labels(w, n, x, y, s)?;
    let numbers = n <= 16;
    let size = (s * 0.3).clamp(8.0, 15.0);
    for r in 0..n {
        for c in 0..n {
            let v = counts[r * n + c];
            let (cx, cy) = (x + c as f64 * s, y + r as f64 * s);
            writeln!(
                w,
                "<rect class=\"cell\" data-row=\"{}\" data-col=\"{}\" data-count=\"{v}\" x=\"{cx}\" y=\"{cy}\" \
                 width=\"{s}\" height=\"{s}\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>",
                r + 1,
                c + 1,
                colour(t(v))
            )?;
            if numbers {
                let ink = if t(v) > 0.55 { "#ffffff" } else { "#222222" };
                writeln!(
                    w,
                    "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"{size}\" text-anchor=\"middle\" fill=\"{ink}\">{v}</text>",
                    cx + s / 2.0,
                    cy + s / 2.0 + size * 0.35
                )?;
            }
        }
        let sum: u64 = counts[r * n..(r + 1) * n].iter().sum();
        writeln!(
            w,
            "<text class=\"row-sum\" data-row=\"{}\" x=\"{}\" y=\"{}\" {FONT} font-size=\"{}\" fill=\"#555555\">{sum}</text>",
            r + 1,
            x + side + 6.0,
            y + r as f64 * s + s / 2.0 + 4.0,
            size.min(12.0)
        )?;
    }
    writeln!(
        w,
        "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"11\" fill=\"#555555\">row sums</text>",
        x + side + 6.0,
        y - 5.0
    )?;
    // The legend: a vertical bar from the largest count (top) to the smallest.
    writeln!(
        w,
        "<defs><linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
    )?;
    for (i, _) in SCALE.iter().enumerate() {
        let f = i as f64 / (SCALE.len() - 1) as f64;
        writeln!(w, "<stop offset=\"{f}\" stop-color=\"{}\"/>", colour(f))?;
    }
    writeln!(w, "</linearGradient></defs>")?;
    writeln!(
        w,
        "<g class=\"legend\" data-min=\"{lo}\" data-max=\"{hi}\">\n\
         <rect x=\"{legend_x}\" y=\"{y}\" width=\"18\" height=\"{bar_h}\" fill=\"url(#scale)\" stroke=\"#555555\"/>\n\
         <text x=\"{}\" y=\"{}\" {FONT} font-size=\"12\">{hi} (max)</text>\n\
         <text x=\"{}\" y=\"{}\" {FONT} font-size=\"12\">{lo} (min)</text>\n\
         <text x=\"{legend_x}\" y=\"{}\" {FONT} font-size=\"11\" fill=\"#555555\">solutions with</text>\n\
         <text x=\"{legend_x}\" y=\"{}\" {FONT} font-size=\"11\" fill=\"#555555\">a queen on the cell</text>\n</g>",
        legend_x + 24.0,
        y + 10.0,
        legend_x + 24.0,
        y + bar_h,
        y + bar_h + 20.0,
        y + bar_h + 34.0
    )?;
    writeln!(w, "</svg>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> String {
        let mut v = Vec::new();
        f(&mut v).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn ticks_are_round_and_end_at_n() {
        assert_eq!(ticks(1000), vec![1, 200, 400, 600, 800, 1000]);
        assert_eq!(ticks(65), vec![1, 10, 20, 30, 40, 50, 65]);
        assert_eq!(*ticks(123_457).last().unwrap(), 123_457);
    }

    #[test]
    fn colours_run_from_the_first_stop_to_the_last() {
        assert_eq!(colour(0.0), "#ffffcc");
        assert_eq!(colour(1.0), "#800026");
        assert_eq!(colour(7.0), "#800026");
    }

    #[test]
    fn titles_are_escaped_and_sizes_checked() {
        let p = Placement::parse_one_line("1", None).unwrap();
        let s = svg(|w| write_board(w, &p, "a < b & \"c\""));
        assert!(s.contains("a &lt; b &amp; &quot;c&quot;"));
        assert!(write_heatmap(&mut Vec::new(), 2, &[1, 2, 3], "x").is_err());
        let many = vec![p.clone(); MAX_GRID_BOARDS + 1];
        assert!(write_solutions(&mut Vec::new(), 1, &many, "x").is_err());
        let big = Placement::new(vec![0; MAX_DOT_PLOT_N + 1]);
        assert!(write_board(&mut Vec::new(), &big, "x").is_err());
    }

    /// The numbers of attribute `name` in `svg`, in order.
    fn attribute(svg: &str, name: &str) -> Vec<f64> {
        let key = format!(" {name}=\"");
        svg.split(key.as_str())
            .skip(1)
            .filter_map(|rest| rest.split('"').next()?.parse().ok())
            .collect()
    }

    /// Every text line and every shape lies inside the picture's frame.
    fn inside(svg: &str) {
        let height = attribute(svg, "height")[0];
        let width = attribute(svg, "width")[0];
        for line in svg.lines() {
            if line.starts_with("<text") || line.starts_with("<rect") {
                let y = attribute(line, "y")[0];
                let h = attribute(line, "height").first().copied().unwrap_or(0.0);
                let x = attribute(line, "x")[0];
                assert!(
                    y + h <= height && x < width,
                    "outside {width} x {height}: {line}"
                );
            }
        }
    }

    #[test]
    fn heatmaps_hold_their_legend_caption() {
        for n in 1..=40 {
            let counts: Vec<u64> = (0..n * n).map(|i| (i % 7) as u64).collect();
            inside(&svg(|w| write_heatmap(w, n, &counts, "heatmap")));
        }
    }

    #[test]
    fn large_boards_are_dot_plots() {
        let p = Placement::new((0..100).collect());
        let s = svg(|w| write_board(w, &p, "n = 100"));
        assert_eq!(s.matches("<circle class=\"queen\"").count(), 100);
    }
}
