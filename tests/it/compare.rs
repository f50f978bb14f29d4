//! `compare`: the encoding experiment. Its CSV and JSON parse back, its sizes agree with
//! `encode`, its answers with the reference table, its SVG is well-formed with one series per
//! encoding, interrupted sweeps resume, and broken solvers are caught.

use crate::common::*;
use std::path::Path;

/// Every at-most-one encoding of the catalogue, as `--amo` takes a list.
fn all_encodings() -> String {
    amo_names().join(",")
}

fn csv_rows(path: &Path) -> Vec<csv::StringRecord> {
    CsvTable::read(path).rows
}

fn csv_header(path: &Path) -> csv::StringRecord {
    CsvTable::read(path).header
}

/// `p cnf V C` of `queens-sat encode n --amo amo`: the sizes by an independent path.
fn encode_counts(n: usize, amo: &str) -> (u64, u64) {
    let out = run(&["encode", &n.to_string(), "--amo", amo]);
    let text = String::from_utf8(out.stdout).unwrap();
    let p = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let f: Vec<u64> = p[6..].split(' ').map(|x| x.parse().unwrap()).collect();
    (f[0], f[1])
}

#[test]
fn sweep_outputs_parse_back_and_agree() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    let json_path = dir.path().join("r.json");
    let svg_path = dir.path().join("r.svg");
    let cactus_path = dir.path().join("c.svg");
    let scatter_path = dir.path().join("s.svg");
    let mut solvers = vec!["varisat"];
    for s in ["cadical", "minisat"] {
        if require(s) {
            solvers.push(s);
        }
    }
    let solver_list = solvers.join(",");
    let out = run(&[
        "compare",
        "--n",
        "1,2,3,5,8",
        "--amo",
        &all_encodings(),
        "--solver",
        &solver_list,
        "--repeat",
        "2",
        "--timeout",
        "30",
        "--csv",
        csv_path.to_str().unwrap(),
        "--json",
        json_path.to_str().unwrap(),
        "--plot",
        svg_path.to_str().unwrap(),
        "--cactus",
        cactus_path.to_str().unwrap(),
        "--scatter",
        scatter_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let encodings = amo_names();

    // CSV: one row per combination, sizes as `encode` reports them, answers as the table says.
    let header = csv_header(&csv_path);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows = csv_rows(&csv_path);
    assert_eq!(rows.len(), 5 * encodings.len() * solvers.len());
    for r in &rows {
        let n: usize = r[col("n")].parse().unwrap();
        let (vars, clauses) = encode_counts(n, &r[col("encoding")]);
        assert_eq!(r[col("vars")].parse::<u64>().unwrap(), vars);
        assert_eq!(r[col("clauses")].parse::<u64>().unwrap(), clauses);
        let expected = if n == 2 || n == 3 { "UNSAT" } else { "SAT" };
        assert_eq!(&r[col("status")], expected, "{r:?}");
        let times: Vec<f64> = r[col("solve_ms_all")]
            .split(' ')
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(times.len(), 2);
        assert!(r[col("solve_ms")].parse::<f64>().unwrap() > 0.0);
        assert!(r[col("machine")].contains("cores"));
        assert!(r[col("tool_version")].starts_with("queens-sat"));
    }
    // The Markdown table has the same rows.
    assert_eq!(
        table
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| n "))
            .count(),
        rows.len()
    );

    // JSON: metadata and the same rows.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(doc["rows"].as_array().unwrap().len(), rows.len());
    assert!(doc["metadata"]["machine"]
        .as_str()
        .unwrap()
        .contains("cores"));
    assert_eq!(
        doc["metadata"]["solvers"].as_array().unwrap().len(),
        solvers.len()
    );

    // SVG: well-formed XML; the clauses panel has one legend entry per encoding, the time panel
    // one per encoding and solver; every series is a polyline plus its legend line.
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let xml = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let texts: Vec<String> = xml
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect();
    for e in &encodings {
        assert_eq!(
            texts.iter().filter(|t| t == e).count(),
            1,
            "legend entry {e}"
        );
        for s in &solvers {
            let label = format!("{e} / {s}");
            assert_eq!(texts.iter().filter(|t| **t == label).count(), 1, "{label}");
        }
    }
    // Every series is a polyline 2 px wide (axes 1 px) with a point per n: one per encoding in
    // the clauses panel, one per encoding and solver in the time panel.
    let lines = xml
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
        .filter(|n| {
            n.attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .count()
                == 5
        })
        .count();
    assert_eq!(lines, encodings.len() * (1 + solvers.len()));

    // The plots as mkplot draws them.
    let plot = plot_panels(&svg);
    let cactus_svg = std::fs::read_to_string(&cactus_path).unwrap();
    let cactus = plot_panels(&cactus_svg);
    let scatter = plot_panels(&std::fs::read_to_string(&scatter_path).unwrap());
    assert_eq!((plot.len(), cactus.len(), scatter.len()), (2, 1, 1));
    for p in plot.iter().chain(&cactus).chain(&scatter) {
        p.check_legend();
        p.check_log_ticks();
    }
    // n on a linear axis, the clauses on a log axis; both fitted to the data (n = 1 and n = 8
    // near the frame's sides, the clauses over most of its height).
    for p in &plot {
        assert_eq!(p.scales, ["linear", "log"]);
        let (x0, x1) = p.data_x();
        assert!(x0 - p.frame.x < 0.1 * p.frame.w && p.frame.right() - x1 < 0.1 * p.frame.w);
        let ticks = &p.ticks[0];
        assert!(ticks.len() >= 3, "{ticks:?}");
        let slope = (ticks[1].1 - ticks[0].1) / (ticks[1].0 - ticks[0].0);
        for t in ticks {
            let expected = ticks[0].1 + slope * (t.0 - ticks[0].0);
            assert!((t.1 - expected).abs() < 0.2, "linear n axis: {ticks:?}");
        }
    }
    // The clauses (1 at n = 1, hundreds at n = 8) span more than two decades: all labelled.
    assert!(plot[0].decades[0].0.len() >= 3, "{:?}", plot[0].decades);
    let (y0, y1) = plot[0].data_y();
    assert!(y1 - y0 > 0.5 * plot[0].frame.h, "clauses over {y0}..{y1}");
    assert_eq!(cactus[0].scales, ["linear", "log"]);
    assert_eq!(scatter[0].scales, ["log", "log"]);
    // One style per configuration: the same in the time panel and the cactus plot.
    let styles = |p: &PlotPanel| -> std::collections::BTreeMap<String, Look> {
        p.entries
            .iter()
            .map(|e| (e.label.clone(), e.clone()))
            .collect()
    };
    let (times, cactus_styles) = (styles(&plot[1]), styles(&cactus[0]));
    assert_eq!(times.len(), encodings.len() * solvers.len());
    assert_eq!(times, cactus_styles);
    let colours: std::collections::BTreeSet<&Option<String>> =
        times.values().map(|l| &l.stroke).collect();
    assert_eq!(
        colours.len(),
        times.len().min(10),
        "a colour per configuration"
    );
    // The scatter plot's diagonals: y = x solid, 2x dashed (and 10x, when the axes span more
    // than a decade; the unit tests draw them).
    let guides: Vec<(String, Option<String>)> = scatter[0]
        .entries
        .iter()
        .filter(|e| e.marker.is_none())
        .map(|e| (e.label.clone(), e.dash.clone()))
        .collect();
    assert!(guides.len() >= 2, "{guides:?}");
    assert!(guides[0].1.is_none() && guides[1..].iter().all(|g| g.1.is_some()));
    assert!(guides.len() < 3 || guides[1].1 != guides[2].1);
}

#[test]
fn plots_as_png_and_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let (png, pdf, svg) = (
        dir.path().join("p.png"),
        dir.path().join("c.pdf"),
        dir.path().join("s.SVG"),
    );
    let out = run(&[
        "compare",
        "--n",
        "4,5,6",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "varisat",
        "--repeat",
        "1",
        "--plot",
        png.to_str().unwrap(),
        "--cactus",
        pdf.to_str().unwrap(),
        "--scatter",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let png = std::fs::read(&png).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    let (w, h) = (
        u32::from_be_bytes(png[16..20].try_into().unwrap()),
        u32::from_be_bytes(png[20..24].try_into().unwrap()),
    );
    assert!(w > 1000 && h > 500, "{w} x {h}");
    assert!(png.len() > 20_000, "{} bytes", png.len());
    let pdf = std::fs::read(&pdf).unwrap();
    assert!(pdf.starts_with(b"%PDF-") && pdf.len() > 2_000);
    roxmltree::Document::parse(&std::fs::read_to_string(&svg).unwrap()).expect("SVG");
}

/// A rectangle of the SVG.
#[derive(Clone, Copy, Debug)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    fn of(node: roxmltree::Node) -> Rect {
        let a = |name| attr(node, name);
        Rect {
            x: a("x"),
            y: a("y"),
            w: a("width"),
            h: a("height"),
        }
    }
    fn right(&self) -> f64 {
        self.x + self.w
    }
    fn bottom(&self) -> f64 {
        self.y + self.h
    }
    fn holds(&self, (x, y): (f64, f64)) -> bool {
        x >= self.x - 0.5
            && x <= self.right() + 0.5
            && y >= self.y - 0.5
            && y <= self.bottom() + 0.5
    }
    fn meets(&self, o: &Rect) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }
}

fn attr(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .parse()
        .unwrap()
}

/// How a series or a legend entry is drawn: stroke colour and dash pattern of its line (none
/// without a line), its marker and the marker's colour.
#[derive(Clone, Debug, PartialEq)]
struct Look {
    label: String,
    stroke: Option<String>,
    dash: Option<String>,
    marker: Option<(String, String)>,
}

/// The labels of a log axis: the decades (exponent, position), and the others as written.
type LogLabels = (Vec<(i32, f64)>, Vec<String>);

/// A panel of a plot as its SVG elements say.
#[derive(Debug)]
struct PlotPanel {
    frame: Rect,
    legend: Option<Rect>,
    /// Points drawn in the legend: sample lines' ends, markers, labels' anchors.
    legend_points: Vec<(f64, f64)>,
    entries: Vec<Look>,
    series: Vec<Look>,
    /// Points of the series (lines and markers).
    points: Vec<(f64, f64)>,
    /// The scales of the x and y axes.
    scales: Vec<String>,
    /// The tick labels of each axis: value, and position along the axis.
    ticks: [Vec<(f64, f64)>; 2],
    /// The decade tick labels (exponents) of each log axis, and any other labels of it.
    decades: Vec<LogLabels>,
}

fn look(node: roxmltree::Node, label: String, line: &str) -> Look {
    let line = node
        .descendants()
        .find(|n| n.has_tag_name(line) && n.attribute("stroke-width") == Some("2"));
    let marker = node.descendants().find(|n| n.has_tag_name("use"));
    Look {
        label,
        stroke: line.and_then(|l| l.attribute("stroke")).map(String::from),
        dash: line
            .and_then(|l| l.attribute("stroke-dasharray"))
            .map(String::from),
        marker: marker.map(|m| {
            (
                m.attribute("href").unwrap().to_string(),
                m.attribute("fill").unwrap().to_string(),
            )
        }),
    }
}

fn class_is(node: &roxmltree::Node, class: &str) -> bool {
    node.attribute("class") == Some(class)
}

/// The panels of an SVG plot of `compare`.
fn plot_panels(svg: &str) -> Vec<PlotPanel> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let text = |n: roxmltree::Node| -> String {
        n.descendants()
            .filter(|d| d.is_text())
            .map(|d| d.text().unwrap())
            .collect()
    };
    let xy = |n: roxmltree::Node| (attr(n, "x"), attr(n, "y"));
    let mut out = Vec::new();
    for panel in doc.descendants().filter(|n| class_is(n, "panel")) {
        let find = |class: &str| panel.descendants().find(|n| class_is(n, class));
        let legend = find("legend");
        let mut legend_points = Vec::new();
        let mut entries = Vec::new();
        for e in legend
            .iter()
            .flat_map(|l| l.children())
            .filter(|n| class_is(n, "entry"))
        {
            for n in e.descendants() {
                if n.has_tag_name("line") {
                    legend_points.push((attr(n, "x1"), attr(n, "y1")));
                    legend_points.push((attr(n, "x2"), attr(n, "y2")));
                } else if n.has_tag_name("use") || n.has_tag_name("text") {
                    legend_points.push(xy(n));
                }
            }
            let label = text(e.children().find(|n| n.has_tag_name("text")).unwrap());
            entries.push(look(e, label, "line"));
        }
        let mut series = Vec::new();
        let mut points = Vec::new();
        for s in panel.descendants().filter(|n| class_is(n, "series")) {
            let label = text(s.children().find(|n| n.has_tag_name("title")).unwrap());
            series.push(look(s, label, "polyline"));
            for n in s.descendants() {
                if n.has_tag_name("use") {
                    points.push(xy(n));
                } else if n.has_tag_name("polyline") {
                    for p in n.attribute("points").unwrap().split_whitespace() {
                        let (x, y) = p.split_once(',').unwrap();
                        points.push((x.parse().unwrap(), y.parse().unwrap()));
                    }
                }
            }
        }
        let mut scales = Vec::new();
        let mut ticks = [Vec::new(), Vec::new()];
        let mut decades = Vec::new();
        for (i, (class, coord)) in [("x-axis", "x"), ("y-axis", "y")].into_iter().enumerate() {
            let axis = find(class).unwrap();
            let scale = axis.attribute("data-scale").unwrap().to_string();
            let labels: Vec<roxmltree::Node> =
                axis.descendants().filter(|n| class_is(n, "tick")).collect();
            let mut tens = Vec::new();
            let mut others = Vec::new();
            for l in &labels {
                let at = attr(*l, coord);
                match l.children().find(|c| c.has_tag_name("tspan")) {
                    Some(k) if l.text() == Some("10") => {
                        let k: i32 = k.text().unwrap().parse().unwrap();
                        tens.push((k, at));
                        ticks[i].push((10f64.powi(k), at));
                    }
                    _ => {
                        let t = text(*l);
                        if let Ok(v) = t.parse::<f64>() {
                            ticks[i].push((v, at));
                        }
                        others.push(t);
                    }
                }
            }
            if scale == "log" {
                decades.push((tens, others));
            }
            scales.push(scale);
        }
        out.push(PlotPanel {
            frame: Rect::of(find("frame").unwrap()),
            legend: find("legend-box").map(Rect::of),
            legend_points,
            entries,
            series,
            points,
            scales,
            ticks,
            decades,
        });
    }
    out
}

impl PlotPanel {
    /// The legend: beside the frame (its box meets neither the frame nor a point of the data),
    /// everything it draws inside its box; an entry per series drawn as the series is (stroke,
    /// dash pattern, marker and its colour), no two entries alike.
    fn check_legend(&self) {
        let legend = self.legend.expect("a legend");
        assert!(
            !legend.meets(&self.frame),
            "{legend:?} over {:?}",
            self.frame
        );
        assert!(self.points.iter().all(|p| !legend.holds(*p)));
        assert!(
            self.points.iter().all(|p| self.frame.holds(*p)),
            "points off the frame"
        );
        assert!(self.legend_points.iter().all(|p| legend.holds(*p)));
        for s in &self.series {
            let entry = self.entries.iter().find(|e| e.label == s.label);
            assert_eq!(entry, Some(s), "the legend entry of {}", s.label);
            assert!(s.marker.is_some(), "{s:?}");
            if let Some(stroke) = &s.stroke {
                assert_eq!(Some(stroke), s.marker.as_ref().map(|m| &m.1));
            }
        }
        for (i, a) in self.entries.iter().enumerate() {
            for b in &self.entries[i + 1..] {
                let style = |l: &Look| (l.stroke.clone(), l.dash.clone(), l.marker.clone());
                assert_ne!(style(a), style(b), "{} and {} alike", a.label, b.label);
            }
        }
    }

    /// Log axes: labelled at consecutive decades, equally far apart, in the axis' direction;
    /// with two decades or more in range, nothing else labelled.
    fn check_log_ticks(&self) {
        for (tens, others) in &self.decades {
            assert!(tens.len() + others.len() >= 2, "{tens:?} {others:?}");
            // A power of ten is labelled as one (10 with its exponent), never as a plain number.
            for o in others {
                let v: f64 = o.parse().unwrap();
                let k = v.log10().round();
                assert!(
                    (v - 10f64.powf(k)).abs() > 1e-9 * v,
                    "{o} not labelled 10^{k}"
                );
            }
            if tens.len() >= 2 {
                assert!(others.is_empty(), "{others:?} beside {tens:?}");
                let step = (tens[1].1 - tens[0].1) / f64::from(tens[1].0 - tens[0].0);
                assert!(step.abs() > 10.0);
                for w in tens.windows(2) {
                    assert_eq!(w[1].0, w[0].0 + 1, "{tens:?}");
                    assert!((w[1].1 - w[0].1 - step).abs() < 0.2, "{tens:?}");
                }
            }
        }
    }

    fn data_x(&self) -> (f64, f64) {
        let xs = self.points.iter().map(|p| p.0);
        (
            xs.clone().fold(f64::MAX, f64::min),
            xs.fold(f64::MIN, f64::max),
        )
    }

    fn data_y(&self) -> (f64, f64) {
        let ys = self.points.iter().map(|p| p.1);
        (
            ys.clone().fold(f64::MAX, f64::min),
            ys.fold(f64::MIN, f64::max),
        )
    }
}

#[test]
fn interrupted_sweep_resumes_from_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    let args = [
        "compare",
        "--n",
        "4,6",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "varisat",
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
    ];
    assert!(run(&args).status.success());
    let full = std::fs::read_to_string(&csv_path).unwrap();
    assert_eq!(csv_rows(&csv_path).len(), 4);
    // Simulate an interruption after two rows: keep the header and the first two rows.
    let kept: Vec<&str> = full.lines().take(3).collect();
    std::fs::write(&csv_path, kept.join("\n") + "\n").unwrap();
    let out = run(&args);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming: 2 rows"));
    let rows = csv_rows(&csv_path);
    assert_eq!(rows.len(), 4);
    // The two kept rows are untouched, the two missing ones were measured again.
    let again = std::fs::read_to_string(&csv_path).unwrap();
    assert!(again.starts_with(&(kept.join("\n") + "\n")));
    let keys: std::collections::HashSet<(String, String)> = rows
        .iter()
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect();
    assert_eq!(keys.len(), 4);
    // A rerun with everything done measures nothing new.
    assert!(run(&args).status.success());
    assert_eq!(csv_rows(&csv_path).len(), 4);
}

#[test]
fn timeouts_skip_larger_n_and_wrong_answers_fail() {
    let dir = tempfile::tempdir().unwrap();
    let slow = script(dir.path(), "slow", "sleep 20").display().to_string();
    let csv_path = dir.path().join("r.csv");
    let out = run(&[
        "compare",
        "--n",
        "4,5",
        "--amo",
        "pairwise",
        "--solver",
        &slow,
        "--repeat",
        "1",
        "--timeout",
        "0.3",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = csv_rows(&csv_path);
    let header = csv_header(&csv_path);
    let status = header.iter().position(|h| h == "status").unwrap();
    assert_eq!(&rows[0][status], "TIMEOUT");
    assert_eq!(&rows[1][status], "SKIPPED");
    // Resuming with a larger n does not try the solver again: it timed out at a smaller n.
    let started = std::time::Instant::now();
    let out = run(&[
        "compare",
        "--n",
        "4,5,6",
        "--amo",
        "pairwise",
        "--solver",
        &slow,
        "--repeat",
        "1",
        "--timeout",
        "0.3",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let rows = csv_rows(&csv_path);
    assert_eq!(rows.len(), 3);
    // Run again, it would have timed out: TIMEOUT, not SKIPPED.
    assert_eq!(&rows[2][status], "SKIPPED");
    // Running it would take the whole 0.3 s time limit, asking its version 2 s.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(12),
        "the slow solver ran again"
    );

    // A solver that claims UNSAT for a board with solutions, and one that prints a bad model.
    let liar = script(dir.path(), "liar", "echo 's UNSATISFIABLE'; exit 20")
        .display()
        .to_string();
    let out = run(&[
        "compare", "--n", "4", "--amo", "pairwise", "--solver", &liar, "--repeat", "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("WRONG"));
    let bad = script(
        dir.path(),
        "bad",
        "echo 's SATISFIABLE'; echo 'v 1 2 3 4 0'; exit 10",
    )
    .display()
    .to_string();
    let out = run(&[
        "compare", "--n", "4", "--amo", "pairwise", "--solver", &bad, "--repeat", "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("WRONG: row 1 has 4 queens"));
}

/// A solver that cannot be run is refused before the sweep (it gave an empty table, or a
/// table without its rows, and exit 0), naming the embedded solver that can take its place.
#[test]
fn a_missing_solver_is_refused_before_the_sweep() {
    let dir = tempfile::tempdir().unwrap();
    // A PATH without solvers.
    let empty = dir.path().join("bin");
    std::fs::create_dir(&empty).unwrap();
    let csv = dir.path().join("r.csv");
    let cases = [
        (
            "kissat",
            "--solver kissat: the program kissat cannot be run",
            "--solver kissat-lib",
        ),
        (
            "cadical -q",
            "--solver cadical -q: the program cadical cannot be run",
            "--solver cadical-lib",
        ),
        (
            "none",
            "--solver none: the program none cannot be run",
            "varisat, cadical-lib, kissat-lib",
        ),
        (
            "varisat,no-such-solver-here",
            "--solver no-such-solver-here: the program no-such-solver-here cannot be run",
            "varisat, cadical-lib, kissat-lib",
        ),
    ];
    for (solvers, message, instead) in cases {
        let out = output(
            bin()
                .env("PATH", &empty)
                .args([
                    "compare", "--n", "4", "--amo", "pairwise", "--repeat", "1", "--solver",
                    solvers, "--csv",
                ])
                .arg(&csv),
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{solvers}: {err}");
        assert_eq!(err.lines().count(), 1, "{solvers}: {err}");
        assert!(
            err.starts_with(&format!("error: {message}")),
            "{solvers}: {err}"
        );
        assert!(err.contains(instead), "{solvers}: {err}");
        assert!(stdout(&out).is_empty(), "{solvers}: {}", stdout(&out));
        assert!(!csv.exists(), "{solvers}");
    }
    // The embedded ones need no PATH.
    let out = output(bin().env("PATH", &empty).args([
        "compare",
        "--n",
        "4",
        "--amo",
        "pairwise",
        "--repeat",
        "1",
        "--solver",
        "varisat,kissat-lib",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("| 4 | pairwise | kissat-lib |"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["compare", "--n", "0"][..],
        &["compare", "--n", "4", "--amo", "quadratic"],
        &["compare", "--n", "4", "--timeout", "0"],
        &["compare", "--n", "4", "--repeat", "0"],
        &["compare", "--n", "4", "--timeout", "1e30"],
        &["compare", "--n", "4", "--timeout", "inf"],
        &["compare", "--n", "4", "--timeout", "nan"],
        &["compare", "--n", "4", "--timeout", "-1"],
        &["compare", "--n", "4", "--timeout", "604801"],
        &["compare", "--n", "4..1"],
        &["compare", "--n", "1..100000000000"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim().lines().count(),
            1
        );
    }
}

/// Clauses of the reference model (pairwise at-most-one): n + 2n C(n,2) + 2(2 C(n+1,3) -
/// C(n,2)), plus n with the redundant column clauses.
fn reference_clauses(n: u64, column_alo: bool) -> u64 {
    let c2 = n * (n - 1) / 2;
    let c3 = (n + 1) * n * (n - 1) / 6;
    n + 2 * n * c2 + 2 * (2 * c3 - c2) + if column_alo { n } else { 0 }
}

fn field(path: &Path, row: usize, name: &str) -> String {
    let header = csv_header(path);
    let col = header.iter().position(|h| h == name).unwrap();
    csv_rows(path)[row][col].to_string()
}

#[test]
fn resume_with_other_settings_is_refused_and_fresh_recomputes() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("ca.csv");
    let csv = csv_path.to_str().unwrap();
    let base = ["compare", "--n", "8", "--amo", "pairwise", "--csv", csv];
    // `--repeat 1` unless the test gives another.
    let with = |extra: &[&str]| {
        let mut v: Vec<&str> = base.to_vec();
        if !extra.contains(&"--repeat") {
            v.extend_from_slice(&["--repeat", "1"]);
        }
        v.extend_from_slice(extra);
        run(&v)
    };
    let out = with(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(reference_clauses(8, false), 736);
    assert_eq!(field(&csv_path, 0, "clauses"), "736");
    let before = std::fs::read(&csv_path).unwrap();
    // Each setting that changes a row: refused, naming it, the file untouched.
    for (extra, setting) in [
        (&["--column-alo"][..], "column_alo"),
        (&["--timeout", "30"], "timeout_s"),
        (&["--repeat", "2"], "repeats"),
    ] {
        let out = with(extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(setting) && err.contains("--fresh"), "{err}");
        assert_eq!(std::fs::read(&csv_path).unwrap(), before, "{extra:?}");
    }
    // --fresh starts over with the new setting.
    let out = with(&["--column-alo", "--fresh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(csv_rows(&csv_path).len(), 1);
    assert_eq!(
        field(&csv_path, 0, "clauses"),
        reference_clauses(8, true).to_string()
    );
    assert_eq!(field(&csv_path, 0, "clauses"), "744");
    assert_eq!(field(&csv_path, 0, "column_alo"), "true");
    // And now resuming with the same settings measures nothing new.
    let out = with(&["--column-alo"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("resuming: 1 rows"));
    assert_eq!(csv_rows(&csv_path).len(), 1);
}

#[test]
fn foreign_and_unreadable_csvs_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.csv");
    let original = "a,b,c\n1,2,3\n";
    std::fs::write(&path, original).unwrap();
    for fresh in [false, true] {
        let mut args = vec![
            "compare",
            "--n",
            "4",
            "--amo",
            "pairwise",
            "--repeat",
            "1",
            "--csv",
            path.to_str().unwrap(),
        ];
        if fresh {
            args.push("--fresh");
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "fresh {fresh}");
        assert_eq!(stderr(&out).trim().lines().count(), 1);
        assert!(stderr(&out).contains("a,b,c"), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    }
    // Not a regular file: refused at once, not read without end.
    let started = std::time::Instant::now();
    let out = run(&["compare", "--n", "4", "--csv", "/dev/zero", "--repeat", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not a regular file"));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    // A damaged row before the last: refused with its line, the file untouched.
    let sweep = dir.path().join("sweep.csv");
    let args = [
        "compare",
        "--n",
        "4,5,6",
        "--amo",
        "pairwise",
        "--repeat",
        "1",
        "--csv",
        sweep.to_str().unwrap(),
    ];
    assert!(run(&args).status.success());
    let text = std::fs::read_to_string(&sweep).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[2] = lines[2].replacen(",pairwise,", ",pairwise,extra,", 1);
    let damaged = lines.join("\n") + "\n";
    std::fs::write(&sweep, &damaged).unwrap();
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 3"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&sweep).unwrap(), damaged);
}

#[test]
fn torn_last_row_is_dropped_and_measured_again() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    let args = [
        "compare",
        "--n",
        "4,5,6",
        "--amo",
        "pairwise",
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
    ];
    assert!(run(&args).status.success());
    let full = std::fs::read_to_string(&csv_path).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 4);
    let kept = lines[..3].join("\n") + "\n";
    let last = lines[3];
    // Cut mid-row without a line end; cut with a line end (too few fields); cut inside the
    // quoted machine field.
    let machine_at = last.find(",\"").unwrap() + 5;
    for torn in [
        format!("{kept}{}", &last[..last.len() / 2]),
        format!("{kept}{}\n", &last[..last.len() / 3]),
        format!("{kept}{}", &last[..machine_at]),
    ] {
        std::fs::write(&csv_path, &torn).unwrap();
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).contains("line 4"), "{}", stderr(&out));
        let again = std::fs::read_to_string(&csv_path).unwrap();
        assert!(again.starts_with(&kept) && again.ends_with('\n'));
        let rows = csv_rows(&csv_path);
        let header = csv_header(&csv_path);
        let ns: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
        assert_eq!(ns, ["4", "5", "6"]);
        for r in &rows {
            assert_eq!(r.len(), header.len());
        }
        assert_eq!(field(&csv_path, 2, "status"), "SAT");
        assert_eq!(
            field(&csv_path, 2, "clauses"),
            reference_clauses(6, false).to_string()
        );
    }
}

/// A solver that ignores the formula and prints the board 1 5 8 6 3 7 2 4 (n = 8) with every
/// other variable of the file's `p cnf` line false.
fn fixed_board_solver(dir: &Path) -> String {
    script(
        dir,
        "fixed",
        r#"m=$(grep '^p cnf' "$1" | cut -d' ' -f3)
lits=""
r=0
for c in 1 5 8 6 3 7 2 4; do
  for k in 1 2 3 4 5 6 7 8; do
    v=$((r * 8 + k)); if [ $k -eq $c ]; then lits="$lits $v"; else lits="$lits -$v"; fi
  done
  r=$((r + 1))
done
for v in $(seq 65 "$m"); do lits="$lits -$v"; done
echo "s SATISFIABLE"
echo "v$lits 0"
exit 10"#,
    )
    .display()
    .to_string()
}

#[test]
fn models_breaking_auxiliary_clauses_are_wrong() {
    let board = [1usize, 5, 8, 6, 3, 7, 2, 4];
    let queens: Vec<(usize, usize)> = board.iter().enumerate().map(|(r, c)| (r, c - 1)).collect();
    assert!(is_valid_placement(8, &queens));
    let dir = tempfile::tempdir().unwrap();
    let solver = fixed_board_solver(dir.path());
    // Pairwise has no auxiliary variables: the board alone is a model.
    let out = run(&[
        "compare", "--n", "8", "--amo", "pairwise", "--solver", &solver, "--repeat", "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("| SAT |"));
    // Sequential: with every auxiliary false, the first counter clause of a row with its
    // queen in column 1 (-q(1,1) or s1) is false.
    let csv_path = dir.path().join("r.csv");
    let out = run(&[
        "compare",
        "--n",
        "8",
        "--amo",
        "sequential",
        "--solver",
        &solver,
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let status = field(&csv_path, 0, "status");
    assert!(status.starts_with("WRONG: clause"), "{status}");
    assert!(stdout(&out).contains("WRONG"));
}

#[test]
fn solver_without_an_answer_fails_the_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    for (name, body) in [
        ("garbage", "echo 'no idea'"),
        ("crash", "echo 's SATISFIABLE'; kill -SEGV $$"),
    ] {
        let solver = script(dir.path(), name, body).display().to_string();
        let out = run(&[
            "compare",
            "--n",
            "5",
            "--amo",
            "pairwise",
            "--solver",
            &solver,
            "--repeat",
            "1",
            "--csv",
            csv_path.to_str().unwrap(),
            "--fresh",
        ]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        assert!(field(&csv_path, 0, "status").starts_with("ERROR"), "{name}");
    }
}

#[test]
fn n_ranges_as_check_takes_them() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    let out = run(&[
        "compare",
        "--n",
        "1..4,6",
        "--amo",
        "pairwise",
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = csv_rows(&csv_path);
    let ns: Vec<usize> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    assert_eq!(ns, [1, 2, 3, 4, 6]);
    for (i, &n) in ns.iter().enumerate() {
        let expected = if published_total(n) > 0 {
            "SAT"
        } else {
            "UNSAT"
        };
        assert_eq!(field(&csv_path, i, "status"), expected, "n = {n}");
        assert_eq!(
            field(&csv_path, i, "clauses"),
            reference_clauses(n as u64, false).to_string()
        );
    }
}

#[test]
fn outputs_are_checked_before_the_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    let missing = dir.path().join("no-such-folder").join("r.json");
    let folder = dir.path().to_str().unwrap();
    for (option, target) in [("--json", missing.to_str().unwrap()), ("--plot", folder)] {
        let out = run(&[
            "compare",
            "--n",
            "4",
            "--amo",
            "pairwise",
            "--repeat",
            "1",
            "--csv",
            csv_path.to_str().unwrap(),
            option,
            target,
        ]);
        assert_eq!(out.status.code(), Some(2), "{option}");
        assert!(stderr(&out).contains(option), "{}", stderr(&out));
        // Refused before any row was measured.
        assert!(!csv_path.exists());
    }
}

/// `compare --models` sweeps the cell model and the column model's domains side by side; the
/// clause counts of n = 8 are derived by hand:
/// - cells, pairwise: 8 row at-least-one clauses, 8 * C(8,2) = 224 for the rows and 224 for the
///   columns, and for each diagonal direction 2 * (C(2,2) + ... + C(7,2)) + C(8,2) = 140:
///   8 + 224 + 224 + 280 = 736;
/// - columns, order: n(n-2) = 48 ladder clauses, n * C(n,2) = 224 column conflicts and
///   (n-1)^2 + ... + 1^2 = 140 conflicts per diagonal direction: 48 + 224 + 280 = 552, which is
///   (7n^3 - 3n^2 - 10n) / 6;
/// - columns, log: n = 8 is a power of two, so no value is excluded: 224 + 280 = 504.
#[test]
fn compare_models_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("m.csv");
    let out = run(&[
        "compare",
        "--n",
        "8",
        "--models",
        "cells,order,log",
        "--amo",
        "pairwise",
        "--solver",
        "varisat",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let header = csv_header(&csv_path);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut got: Vec<(String, u64, String)> = csv_rows(&csv_path)
        .iter()
        .map(|r| {
            (
                r[col("encoding")].to_string(),
                r[col("clauses")].parse().unwrap(),
                r[col("status")].to_string(),
            )
        })
        .collect();
    got.sort();
    let n: u64 = 8;
    assert_eq!((7 * n * n * n - 3 * n * n - 10 * n) / 6, 552);
    let expected = [
        ("columns-log", 504),
        ("columns-order", 552),
        ("pairwise", 736),
    ];
    assert_eq!(got.len(), expected.len(), "{got:?}");
    for ((name, clauses, status), (want_name, want)) in got.iter().zip(expected) {
        assert_eq!((name.as_str(), *clauses), (want_name, want));
        assert_eq!(status, "SAT");
    }
    // The same sweep again resumes every row instead of measuring it again.
    let again = run(&[
        "compare",
        "--n",
        "8",
        "--models",
        "cells,order,log",
        "--amo",
        "pairwise",
        "--solver",
        "varisat",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("resuming: 3 rows"));
    assert_eq!(csv_rows(&csv_path).len(), 3);
}

/// The CSV's rows as maps from column name to value.
pub fn csv_maps(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let header = csv_header(path);
    csv_rows(path)
        .iter()
        .map(|r| {
            header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Whether the instance of `family` with `params` on an n x n board drawn with `seed` has a
/// solution, by the library's generator and the embedded enumeration (not the sweep's
/// external-process path).
fn oracle(family: &str, n: usize, params: &[(&str, &str)], seed: u64) -> bool {
    use queens_sat::family::{generate, Family, Recipe};
    let family: Family = family.parse().unwrap();
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let recipe = Recipe::from_parameters(family, &params).unwrap();
    let spec = generate(n, &recipe, seed).unwrap();
    let inst = spec
        .instance(queens_sat::instance::Model::default())
        .unwrap();
    queens_sat::solve::solve(&inst).unwrap().is_some()
}

fn family_sweep_args<'a>(csv: &'a str, json: &'a str, svg: &'a str) -> Vec<&'a str> {
    vec![
        "compare",
        "--family",
        "blocked",
        "--n",
        "8",
        "--param",
        "p=0.1..0.5:0.2",
        "--seeds",
        "1..3",
        "--models",
        "cells",
        "--amo",
        "pairwise",
        "--solver",
        "varisat",
        "--repeat",
        "1",
        "--csv",
        csv,
        "--json",
        json,
        "--plot",
        svg,
    ]
}

#[test]
fn family_sweep_agrees_with_the_oracle_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let (csv_path, json_path, svg_path) = (
        dir.path().join("t.csv"),
        dir.path().join("t.json"),
        dir.path().join("t.svg"),
    );
    let args = family_sweep_args(
        csv_path.to_str().unwrap(),
        json_path.to_str().unwrap(),
        svg_path.to_str().unwrap(),
    );
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    // One row per value and seed, each answer as the oracle has it.
    let rows = csv_maps(&csv_path);
    assert_eq!(rows.len(), 3 * 3);
    let mut points = std::collections::HashSet::new();
    let (mut sat, mut unsat) = (0, 0);
    for r in &rows {
        assert_eq!(r["family"], "blocked");
        assert_eq!(r["parameter"], "p");
        assert_eq!(r["fixed_parameters"], "");
        assert_eq!(r["n"], "8");
        let value = r["value"].clone();
        let seed: u64 = r["seed"].parse().unwrap();
        assert!(["0.1", "0.3", "0.5"].contains(&value.as_str()), "{value}");
        assert!((1..=3).contains(&seed));
        assert!(points.insert((value.clone(), seed)));
        let expected = if oracle("blocked", 8, &[("p", &value)], seed) {
            sat += 1;
            "SAT"
        } else {
            unsat += 1;
            "UNSAT"
        };
        assert_eq!(r["status"], expected, "p = {value}, seed {seed}");
    }
    // The range crosses the transition: both answers occur.
    assert!(sat > 0 && unsat > 0, "{sat} SAT, {unsat} UNSAT");

    // The summary: one line per value, with the counts of the rows.
    let table = stdout(&out);
    assert!(table.contains("| n | p | encoding | solver | instances | SAT | UNSAT | no answer |"));
    assert!(table.contains("timed out counts as the time limit"));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let summary = doc["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 3);
    assert_eq!(doc["rows"].as_array().unwrap().len(), 9);
    assert_eq!(doc["metadata"]["family"]["family"], "blocked");
    for s in summary {
        let value = s["value"].as_str().unwrap();
        let of_value: Vec<_> = rows.iter().filter(|r| r["value"] == value).collect();
        let count = |st: &str| of_value.iter().filter(|r| r["status"] == st).count() as u64;
        assert_eq!(s["instances"].as_u64(), Some(3));
        assert_eq!(s["sat"].as_u64(), Some(count("SAT")));
        assert_eq!(s["unsat"].as_u64(), Some(count("UNSAT")));
        let fraction = count("SAT") as f64 / 3.0;
        assert!((s["fraction_sat"].as_f64().unwrap() - fraction).abs() < 1e-9);
        let line = format!(
            "| 8 | {value} | pairwise | varisat | 3 | {} | {} | 0 | 0 | {fraction:.2} |",
            count("SAT"),
            count("UNSAT")
        );
        assert!(table.contains(&line), "{line} in\n{table}");
    }

    // The SVG: both panels, one series per encoding and solver in each.
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let xml = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let texts: Vec<String> = xml
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect();
    assert!(texts.iter().any(|t| t == "Fraction SAT vs p"), "{texts:?}");
    assert!(texts
        .iter()
        .any(|t| t.starts_with("Median solve time vs p")));
    assert_eq!(
        texts.iter().filter(|t| *t == "pairwise / varisat").count(),
        2
    );
    // The fraction line has a point per value.
    assert!(xml.descendants().any(|n| n.has_tag_name("polyline")
        && n.attribute("stroke-width") == Some("2")
        && n.attribute("points")
            .unwrap_or("")
            .split_whitespace()
            .count()
            == 3));

    // Resume after losing the last two rows: only those are measured again.
    let full = std::fs::read_to_string(&csv_path).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let kept = lines[..lines.len() - 2].join("\n") + "\n";
    std::fs::write(&csv_path, &kept).unwrap();
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("resuming: 7 rows"),
        "{}",
        stderr(&out)
    );
    let again = std::fs::read_to_string(&csv_path).unwrap();
    assert!(again.starts_with(&kept));
    let rows = csv_maps(&csv_path);
    assert_eq!(rows.len(), 9);
    let keys: std::collections::HashSet<(String, String)> = rows
        .iter()
        .map(|r| (r["value"].clone(), r["seed"].clone()))
        .collect();
    assert_eq!(keys.len(), 9);
    // Nothing left to do.
    assert!(run(&args).status.success());
    assert_eq!(csv_rows(&csv_path).len(), 9);
}

#[test]
fn completion_from_a_solution_is_never_unsat() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("c.csv");
    let out = run(&[
        "compare",
        "--family",
        "completion",
        "--n",
        "8",
        "--param",
        "k=0..6:3",
        "--param",
        "mode=solution",
        "--seeds",
        "1..4",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "varisat",
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = csv_maps(&csv_path);
    assert_eq!(rows.len(), 3 * 4 * 2);
    for r in &rows {
        assert_eq!(r["status"], "SAT", "{r:?}");
        assert_eq!(r["fixed_parameters"], "mode=solution");
        assert!(["0", "3", "6"].contains(&r["value"].as_str()));
    }
    // Resuming with another fixed parameter is refused with the setting that differs.
    let out = run(&[
        "compare",
        "--family",
        "completion",
        "--n",
        "8",
        "--param",
        "k=0..6:3",
        "--param",
        "mode=random",
        "--seeds",
        "1..4",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "varisat",
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("fixed_parameters"),
        "{}",
        stderr(&out)
    );

    // A solver claiming UNSAT is wrong on them, but not on a blocked board.
    let liar = script(dir.path(), "liar", "echo 's UNSATISFIABLE'; exit 20")
        .display()
        .to_string();
    let args = |family: &str, param: &str| {
        run(&[
            "compare", "--family", family, "--n", "6", "--param", param, "--seeds", "1..2",
            "--amo", "pairwise", "--solver", &liar, "--repeat", "1",
        ])
    };
    let out = args("completion", "k=2");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("wrong answer"));
    assert!(stdout(&out).contains("| 6 | 2 | pairwise |"));
    let out = args("blocked", "p=0.2");
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn bad_family_sweeps_exit_2_before_running() {
    for (args, message) in [
        (&["--family", "nope"][..], "unknown family 'nope'"),
        (&["--family", "custom"], "written, not drawn"),
        (
            &["--family", "blocked", "--param", "k=3"],
            "blocked has no parameter 'k'",
        ),
        (&["--family", "blocked"], "needs the parameter p or b"),
        (
            &[
                "--family",
                "blocked",
                "--param",
                "p=0.1,0.2",
                "--param",
                "b=1,2",
            ],
            "only one parameter may take several values",
        ),
        (
            &["--family", "blocked", "--param", "p=0.5..0.1:0.1"],
            "is empty",
        ),
        (
            &["--family", "blocked", "--param", "p=0.1..0.5:0"],
            "must be greater than 0",
        ),
        (
            &["--family", "blocked", "--param", "p=0.1..0.5:-0.1"],
            "must be greater than 0",
        ),
        (
            &["--family", "blocked", "--param", "p=0..1:0.000001"],
            "more than the 100000",
        ),
        (
            &[
                "--family",
                "blocked",
                "--param",
                "p=0..1:0.001",
                "--seeds",
                "1..1000",
            ],
            "more than the 100000",
        ),
        (
            &[
                "--family",
                "blocked",
                "--param",
                "p=0.5,1.5",
                "--seeds",
                "3",
            ],
            "n = 8, p = 1.5, seed 3: p = 1.5 must be a probability in [0, 1]",
        ),
        (
            &[
                "--family",
                "completion",
                "--param",
                "k=8",
                "--param",
                "mode=random",
                "--seeds",
                "1",
            ],
            "cannot draw completion n = 8, k = 8, seed 1: placed only",
        ),
        (
            &["--family", "blocked", "--param", "p=0.1", "--seeds", "5..1"],
            "is empty",
        ),
        (
            &["--family", "blocked", "--param", "p"],
            "expected NAME=VALUES",
        ),
        (
            &[
                "--family", "blocked", "--param", "p=0.1", "--param", "p=0.2",
            ],
            "given twice",
        ),
        (&["--param", "p=0.1"], "give --family too"),
        (&["--seeds", "1..3"], "give --family too"),
    ] {
        let mut all = vec!["compare", "--n", "8", "--amo", "pairwise", "--repeat", "1"];
        all.extend_from_slice(args);
        let started = std::time::Instant::now();
        let out = run(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }
}

#[test]
fn a_sweep_killed_by_sigkill_resumes_to_the_same_rows() {
    // A real kill, not a simulated one: SIGKILL once some rows are in the CSV (the solver is a
    // script that sleeps, so the sweep is surely still running), then the same command again.
    let dir = tempfile::tempdir().unwrap();
    let slow = script(
        dir.path(),
        "slow.sh",
        "sleep 0.3; echo 's UNSATISFIABLE'; exit 20",
    )
    .display()
    .to_string();
    let csv_path = dir.path().join("r.csv");
    let args = [
        "compare",
        "--n",
        "2,3",
        "--amo",
        "pairwise,sequential,commander,product,binary",
        "--solver",
        &slow,
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
    ];
    let mut child = spawn(
        bin()
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null()),
    );
    let start = std::time::Instant::now();
    while csv_rows_or_empty(&csv_path) < 3 {
        assert!(start.elapsed().as_secs() < 60, "no rows after 60 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = std::fs::read_to_string(&csv_path).unwrap();
    let done = csv_rows_or_empty(&csv_path);
    assert!(done < 10, "the sweep finished before it was killed");
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = std::fs::read_to_string(&csv_path).unwrap();
    // What was written before the kill is kept as it was (at most a torn last line dropped).
    let complete_part = &before[..before.rfind('\n').map_or(0, |i| i + 1)];
    assert!(after.starts_with(complete_part));
    // Every (n, encoding) exactly once: 2 sizes x 5 encodings.
    let rows = csv_rows(&csv_path);
    let keys: std::collections::HashSet<(String, String)> = rows
        .iter()
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect();
    assert_eq!(rows.len(), 10);
    assert_eq!(keys.len(), 10);
    assert!(rows.iter().all(|r| &r[11] == "UNSAT"), "{rows:?}");
}

/// Data rows in a CSV that may not exist yet or be cut mid-row.
fn csv_rows_or_empty(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.matches('\n').count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn instance_files_are_compared_and_resumed() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/instances");
    let files = [
        "blocked-9-b20-s14.txt",
        "toroidal-7-b6-s16.txt",
        "completion-random-12-k6-s12.txt",
    ];
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    let mut args: Vec<String> = [
        "compare",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "varisat",
        "--repeat",
        "1",
        "--csv",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(csv_path.to_str().unwrap().into());
    for f in files {
        args.push("--instance".into());
        args.push(data.join(f).to_str().unwrap().into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = csv_maps(&csv_path);
    assert_eq!(rows.len(), 3 * 2);
    for r in &rows {
        // The oracle: the counter of instances, a path that shares nothing with the solvers.
        let text = std::fs::read_to_string(data.join(&r["value"])).unwrap();
        let spec = queens_sat::family::InstanceSpec::parse(&text).unwrap();
        let inst = spec.instance(Default::default()).unwrap();
        let count =
            queens_sat::count::count_masked(&queens_sat::instance::masked_board(&inst).unwrap());
        let want = if count > 0 { "SAT" } else { "UNSAT" };
        assert_eq!(r["status"], want, "{r:?}");
        assert_eq!(r["n"], spec.n.to_string());
    }
    // A rerun measures nothing new.
    let out = run(&args);
    assert!(out.status.success());
    assert_eq!(csv_maps(&csv_path).len(), 6);
    // Two files of one name, and a bad file, are refused before anything runs.
    let copy = dir.path().join("blocked-9-b20-s14.txt");
    std::fs::copy(data.join(files[0]), &copy).unwrap();
    let out = run(&[
        "compare",
        "--instance",
        data.join(files[0]).to_str().unwrap(),
        "--instance",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("two files are named"),
        "{}",
        stderr(&out)
    );
    std::fs::write(&copy, "queens-sat instance 1\nn 8\n").unwrap();
    let out = run(&["compare", "--instance", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 3:"), "{}", stderr(&out));
}

/// The library's errors speak of the sweep; the command line names the flag at fault.
#[test]
fn refusals_name_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("r.svg");
    let svg = svg.to_str().unwrap();
    for (args, message) in [
        (
            &["--family", "nope"][..],
            "error: --family: unknown family 'nope'",
        ),
        (
            &["--family", "blocked", "--param", "k=3"],
            "error: --param: blocked has no parameter 'k'",
        ),
        (
            &["--family", "blocked", "--param", "p=0.1", "--seeds", "x"],
            "error: --seeds: 'x' is not a seed",
        ),
        (
            &["--scatter", svg, "--scatter-of", "pairwise/varisat"],
            "error: --scatter-of: give two configurations",
        ),
        (
            &["--plot", svg, "--scatter", svg],
            "--scatter and --plot name the same file",
        ),
        (
            &["--solver", "varisat, "],
            "error: --solver: empty solver name",
        ),
        (&["--shard", "1/2"], "--csv"),
    ] {
        let mut all = vec!["compare", "--n", "4", "--amo", "pairwise", "--repeat", "1"];
        all.extend_from_slice(args);
        let out = run(&all);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

/// The rows of the table under `heading` in a Markdown page, each as its trimmed cells.
fn table_rows(page: &str, heading: &str) -> Vec<Vec<String>> {
    let section = page
        .split_once(heading)
        .unwrap_or_else(|| panic!("no section {heading}"))
        .1;
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            cells[1..cells.len() - 1]
                .iter()
                .map(|c| c.to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_csv_columns_are_the_documented_ones() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    let o = run(&[
        "compare",
        "--n",
        "4..5",
        "--amo",
        "pairwise",
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let header: Vec<String> = csv_header(&csv_path).iter().map(String::from).collect();
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md"))
            .unwrap();
    let rows = table_rows(&page, "## Results of `queens-sat compare`: CSV and JSON");
    let documented: Vec<String> = rows
        .iter()
        .map(|r| r[0].trim_matches('`').to_string())
        .collect();
    assert_eq!(documented, header);
    // Every row says its unit and meaning; every time column its timing basis.
    for row in &rows {
        assert!(!row[1].is_empty() && !row[3].is_empty(), "{row:?}");
        if row[1] == "milliseconds" || row[1] == "seconds" {
            let cpu = row[0].starts_with("`cpu");
            assert_eq!(row[2], if cpu { "CPU" } else { "wall" }, "{row:?}");
        }
    }
}

#[test]
fn json_rows_are_the_csv_rows_with_numbers_and_nulls() {
    let dir = tempfile::tempdir().unwrap();
    let (csv_path, json_path) = (dir.path().join("r.csv"), dir.path().join("r.json"));
    let o = run(&[
        "compare",
        "--n",
        "3..4",
        "--amo",
        "pairwise",
        "--solver",
        "varisat,search",
        "--repeat",
        "2",
        "--csv",
        csv_path.to_str().unwrap(),
        "--json",
        json_path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = CsvTable::read(&csv_path);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), table.rows.len());
    let col = |name: &str| table.header.iter().position(|h| h == name).unwrap();
    for csv_row in &table.rows {
        // The report orders its rows; the CSV has them as they were finished.
        let json_row = rows
            .iter()
            .find(|r| {
                r["n"].as_u64() == csv_row[col("n")].parse().ok()
                    && r["solver"] == csv_row[col("solver")]
            })
            .unwrap();
        let fields = json_row.as_object().unwrap();
        // The same names (the order is the unit tests' concern: a parsed object is sorted).
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        let mut header: Vec<&str> = table.header.iter().collect();
        header.sort_unstable();
        assert_eq!(names, header);
        for (name, text) in table.header.iter().zip(csv_row.iter()) {
            let value = &fields[name];
            match (name, text) {
                ("solve_ms_all", _) => {
                    let times: Vec<f64> = text.split(' ').filter_map(|t| t.parse().ok()).collect();
                    let array: Vec<f64> = value
                        .as_array()
                        .unwrap_or_else(|| panic!("{name}: {value}"))
                        .iter()
                        .map(|t| t.as_f64().unwrap())
                        .collect();
                    assert_eq!(array.len(), times.len());
                    for (a, t) in array.iter().zip(&times) {
                        assert!((a - t).abs() <= 1e-12 * t.abs(), "{a} {t}");
                    }
                    assert_eq!(array.len(), 2, "{csv_row:?}");
                }
                // A missing value: an empty field, null.
                (_, "") => assert!(value.is_null(), "{name}: {value}"),
                // A number (serde_json's parser may miss the last bit of a float).
                (_, t) if t.parse::<f64>().is_ok() && name != "value" => {
                    let (json, csv) = (value.as_f64().unwrap(), t.parse::<f64>().unwrap());
                    assert!(
                        (json - csv).abs() <= 1e-12 * csv.abs(),
                        "{name}: {json} {csv}"
                    )
                }
                ("column_alo", t) => assert_eq!(value.as_bool(), t.parse().ok(), "{name}"),
                (_, t) => assert_eq!(value.as_str(), Some(t), "{name}"),
            }
        }
        // Neither solver prints its conflicts: not available, not 0.
        assert!(json_row["conflicts"].is_null() && json_row["family"].is_null());
        assert!(json_row["solve_ms"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn progress_lines_when_stderr_is_not_a_terminal() {
    let args = [
        "compare", "--n", "4..32", "--amo", "pairwise", "--repeat", "3",
    ];
    // Every 0.05 s: lines counting the runs up, on stderr; the table alone on stdout.
    let o = output(bin().args(args).env("QUEENS_SAT_PROGRESS_SECONDS", "0.05"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert!(!lines.is_empty(), "no progress line");
    let mut last = 0;
    for line in &lines {
        let rest = line
            .strip_prefix("compare: ")
            .unwrap_or_else(|| panic!("{line}"));
        let (done, rest) = rest
            .split_once("/29 runs, ")
            .unwrap_or_else(|| panic!("{line}"));
        let done: u64 = done.parse().unwrap();
        assert!(done >= last && done <= 29, "{line}");
        last = done;
        let (solved, rest) = rest.split_once(" solved, ").unwrap();
        assert!(solved.parse::<u64>().unwrap() <= done, "{line}");
        assert!(
            rest.starts_with("00:") && rest[5..].starts_with(" elapsed"),
            "{line}"
        );
    }
    assert!(!stdout(&o).contains("compare: "));
    // By default at most one line every 5 s: none in a sweep this short.
    let o = output(bin().args([
        "compare", "--n", "4..5", "--amo", "pairwise", "--repeat", "1",
    ]));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "");
}

/// The scores of a small family sweep in its JSON: per configuration the counts of its CSV
/// rows, and the unique solves and the virtual best solver recomputed here from the CSV; the
/// totals consistent with each other and with the printed table.
#[test]
fn the_json_scores_agree_with_the_csv_and_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let (csv_path, json_path) = (dir.path().join("s.csv"), dir.path().join("s.json"));
    let out = run(&[
        "compare",
        "--family",
        "blocked",
        "--n",
        "8",
        "--param",
        "p=0.1..0.5:0.2",
        "--seeds",
        "1..2",
        "--models",
        "cells",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "varisat,search",
        "--repeat",
        "1",
        "--csv",
        csv_path.to_str().unwrap(),
        "--json",
        json_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = csv_maps(&csv_path);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let scores = &doc["scores"];
    assert_eq!(scores["time_basis"], "CPU");
    let configs = scores["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 4);
    let is_solved = |r: &std::collections::HashMap<String, String>| {
        matches!(r["status"].as_str(), "SAT" | "UNSAT") && !r["cpu_s"].is_empty()
    };
    let instance = |r: &std::collections::HashMap<String, String>| {
        (r["n"].clone(), r["value"].clone(), r["seed"].clone())
    };
    let instances: std::collections::BTreeSet<_> = rows.iter().map(instance).collect();
    assert_eq!(instances.len(), 6);
    // Per instance: the configurations that solved it, and the best time.
    let solvers_of = |i: &(String, String, String)| -> Vec<(String, String, f64)> {
        rows.iter()
            .filter(|r| instance(r) == *i && is_solved(r))
            .map(|r| {
                let s: f64 = r["cpu_s"].parse().unwrap();
                (r["encoding"].clone(), r["solver"].clone(), s)
            })
            .collect()
    };
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    let x = |v: &serde_json::Value| v.as_f64().unwrap();
    let vbs = &scores["vbs"];
    let vbs_solved = instances
        .iter()
        .filter(|i| !solvers_of(i).is_empty())
        .count() as u64;
    assert_eq!(n(&vbs["instances"]), 6);
    assert_eq!(n(&vbs["solved"]), vbs_solved);
    let vbs_total: f64 = instances
        .iter()
        .filter_map(|i| solvers_of(i).iter().map(|s| s.2).reduce(f64::min))
        .sum();
    assert!((x(&vbs["solved_total_s"]) - vbs_total).abs() < 1e-9);
    assert_eq!(
        n(&vbs["solved"]),
        n(&vbs["solved_sat"]) + n(&vbs["solved_unsat"])
    );
    let (mut unique_sum, mut contributions_sum) = (0, 0);
    for c in configs {
        let (enc, solver) = (
            c["encoding"].as_str().unwrap(),
            c["solver"].as_str().unwrap(),
        );
        let own: Vec<_> = rows
            .iter()
            .filter(|r| r["encoding"] == enc && r["solver"] == solver)
            .collect();
        let count = |st: &str| own.iter().filter(|r| r["status"] == st).count() as u64;
        assert_eq!(n(&c["instances"]), own.len() as u64, "{c}");
        assert_eq!(n(&c["solved_sat"]), count("SAT"), "{c}");
        assert_eq!(n(&c["solved_unsat"]), count("UNSAT"), "{c}");
        assert_eq!(n(&c["solved"]), count("SAT") + count("UNSAT"), "{c}");
        assert!(n(&vbs["solved"]) >= n(&c["solved"]), "{c}");
        assert!(x(&vbs["par2_s"]) <= x(&c["par2_s"]) + 1e-9, "{c}");
        let total: f64 = own
            .iter()
            .filter(|r| is_solved(r))
            .map(|r| r["cpu_s"].parse::<f64>().unwrap())
            .sum();
        assert!((x(&c["solved_total_s"]) - total).abs() < 1e-9, "{c}");
        // Unique: solved here and by no other configuration.
        let unique = instances
            .iter()
            .filter(|i| {
                let s = solvers_of(i);
                s.len() == 1 && s[0].0 == enc && s[0].1 == solver
            })
            .count() as u64;
        assert_eq!(n(&c["unique"]), unique, "{c}");
        unique_sum += unique;
        contributions_sum += n(&c["vbs_contributions"]);
        // Its line in the table.
        let table = stdout(&out);
        let line = format!(
            "| {enc} | {solver} | {} | {} | {} | {} | {} | {} | {} | {:.3} |",
            n(&c["instances"]),
            n(&c["solved"]),
            n(&c["solved_sat"]),
            n(&c["solved_unsat"]),
            count("TIMEOUT"),
            n(&c["unique"]),
            n(&c["vbs_contributions"]),
            x(&c["par2_s"]),
        );
        assert!(table.contains(&line), "{line} in\n{table}");
    }
    assert!(unique_sum <= n(&vbs["solved"]));
    // Every instance solved has a fastest configuration (more than one on a tie).
    assert!(contributions_sum >= n(&vbs["solved"]));
    let vbs_line = format!(
        "| VBS | best of all | 6 | {} | {} | {} | {} |  |  | {:.3} |",
        n(&vbs["solved"]),
        n(&vbs["solved_sat"]),
        n(&vbs["solved_unsat"]),
        n(&vbs["timeouts"]),
        x(&vbs["par2_s"])
    );
    assert!(stdout(&out).contains(&vbs_line), "{vbs_line}");
    // The rest of the document as before: a row per CSV row.
    assert_eq!(doc["rows"].as_array().unwrap().len(), rows.len());
}
