//! The SVG pictures, read back with an XML parser: boards hold exactly the queens of the
//! one-line answer of the same command, the dot plot of n = 1000 is a valid placement, grids
//! hold the listed solutions, and heatmap cells hold the per-cell counts, checked against the
//! lister's output and a brute force written here.

use crate::common::{
    brute_force_solutions, is_valid_placement, output, require, run, run_ok, stderr, stdout,
};

/// The 1-based (row, column) of every element with `class="queen"` under `node`.
fn queens_in(node: roxmltree::Node) -> Vec<(usize, usize)> {
    node.descendants()
        .filter(|e| e.attribute("class") == Some("queen"))
        .map(|e| {
            let a = |k: &str| e.attribute(k).unwrap().parse::<usize>().unwrap();
            (a("data-row"), a("data-col"))
        })
        .collect()
}

/// The queens of a one-line answer (1-based).
fn queens_of_line(line: &str) -> Vec<(usize, usize)> {
    line.split_whitespace()
        .enumerate()
        .map(|(r, c)| (r + 1, c.parse().unwrap()))
        .collect()
}

#[test]
fn solve_and_construct_boards_hold_the_queens_of_the_line_answer() {
    for n in [1, 5, 8, 12, 64, 70] {
        let ns = n.to_string();
        for cmd in ["solve", "construct"] {
            let line = run_ok(&[cmd, &ns, "--format", "line"]);
            let svg = run_ok(&[cmd, &ns, "--format", "svg"]);
            let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
            let mut got = queens_in(doc.root());
            got.sort();
            let mut want = queens_of_line(line.trim());
            want.sort();
            assert_eq!(got.len(), n, "{cmd} {n}");
            assert_eq!(got, want, "{cmd} {n}");
            // Chessboards up to n = 64, dot plots beyond.
            let circles = doc
                .descendants()
                .filter(|e| e.has_tag_name("circle"))
                .count();
            assert_eq!(circles, if n > 64 { n } else { 0 }, "{cmd} {n}");
        }
    }
}

#[test]
fn the_dot_plot_of_a_construction_of_1000_is_a_valid_placement() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q1000.svg");
    let f = file.to_str().unwrap();
    run_ok(&["construct", "1000", "--format", "svg", "-o", f]);
    let svg = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let queens = queens_in(doc.root());
    assert_eq!(queens.len(), 1000);
    assert!(queens
        .iter()
        .all(|&(r, c)| (1..=1000).contains(&r) && (1..=1000).contains(&c)));
    assert!(
        is_valid_placement(1000, &queens),
        "two queens attack each other"
    );
    assert_eq!(
        doc.descendants()
            .filter(|e| e.attribute("class") == Some("queen"))
            .filter(|e| e.has_tag_name("circle"))
            .count(),
        1000
    );
    // Only the temporary-file-then-rename path wrote into the folder.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_grid_holds_the_listed_solutions_and_refuses_long_lists() {
    for (n, extra) in [(6, None), (8, Some("--fundamental")), (5, None)] {
        let ns = n.to_string();
        let mut args = vec!["count", ns.as_str(), "--list"];
        args.extend(extra);
        let listed: Vec<Vec<(usize, usize)>> = run_ok(&args).lines().map(queens_of_line).collect();
        args.extend(["--format", "svg"]);
        let svg = run_ok(&args);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let boards: Vec<_> = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("board"))
            .collect();
        assert_eq!(boards.len(), listed.len(), "n = {n}");
        for (i, (b, want)) in boards.iter().zip(&listed).enumerate() {
            assert_eq!(
                b.attribute("data-index"),
                Some((i + 1).to_string().as_str())
            );
            let mut got = queens_in(*b);
            got.sort();
            let mut want = want.clone();
            want.sort();
            assert_eq!(got, want, "n = {n}, board {}", i + 1);
        }
    }
    let o = run(&["count", "11", "--list", "--format", "svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("at most 1000 boards"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

/// Per-cell counts from the brute-force solutions of the tests: each queen counted.
fn brute_force_cells(n: usize) -> Vec<u64> {
    let mut counts = vec![0; n * n];
    for cols in brute_force_solutions(n) {
        for (r, c) in cols.into_iter().enumerate() {
            counts[r * n + c] += 1;
        }
    }
    counts
}

/// The `solutions: K` line of a count's table.
fn total_of(table: &str) -> u64 {
    table
        .lines()
        .find_map(|l| l.strip_prefix("solutions: "))
        .unwrap()
        .parse()
        .unwrap()
}

/// The `data-count` of every heatmap cell, `[r * n + c]`; each cell must be drawn once.
fn drawn_cells(n: usize, doc: &roxmltree::Document) -> Vec<u64> {
    let mut drawn = vec![None; n * n];
    for e in doc
        .descendants()
        .filter(|e| e.attribute("class") == Some("cell"))
    {
        let a = |k: &str| e.attribute(k).unwrap().parse::<u64>().unwrap();
        let (r, c) = (a("data-row") as usize, a("data-col") as usize);
        assert!(drawn[(r - 1) * n + c - 1]
            .replace(a("data-count"))
            .is_none());
    }
    drawn.into_iter().map(|v| v.expect("every cell")).collect()
}

/// Per-cell counts of the one-line solutions a lister printed.
fn listed_cells(n: usize, listing: &str) -> Vec<u64> {
    let mut counts = vec![0u64; n * n];
    for line in listing.lines() {
        for (r, c) in queens_of_line(line) {
            counts[(r - 1) * n + c - 1] += 1;
        }
    }
    counts
}

#[test]
fn heatmap_cells_hold_the_per_cell_counts() {
    let dir = tempfile::tempdir().unwrap();
    for n in 6..=8 {
        let ns = n.to_string();
        let file = dir.path().join(format!("h{n}.svg"));
        let f = file.to_str().unwrap();
        let table = run_ok(&["count", &ns, "--heatmap", f]);
        let total = total_of(&table);
        let listed = listed_cells(n, &run_ok(&["count", &ns, "--list"]));
        let brute = brute_force_cells(n);
        let svg = std::fs::read_to_string(&file).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let drawn = drawn_cells(n, &doc);
        assert_eq!(drawn, listed, "n = {n}: heatmap vs count --list");
        assert_eq!(drawn, brute, "n = {n}: heatmap vs brute force");
        for r in 0..n {
            let sum: u64 = drawn[r * n..(r + 1) * n].iter().sum();
            assert_eq!(sum, total, "n = {n}, row {}", r + 1);
        }
        if n == 8 {
            assert_eq!(total, 92);
        }
        let legend = doc
            .descendants()
            .find(|e| e.attribute("class") == Some("legend"))
            .unwrap();
        let min = drawn.iter().min().unwrap().to_string();
        let max = drawn.iter().max().unwrap().to_string();
        assert_eq!(legend.attribute("data-min"), Some(min.as_str()));
        assert_eq!(legend.attribute("data-max"), Some(max.as_str()));
    }
    let o = run(&["count", "15", "--heatmap", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("n <= 14"), "{}", stderr(&o));
}

#[test]
fn a_heatmap_of_an_instance_counts_its_solutions_per_cell() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("c.txt");
    let svg = dir.path().join("c.svg");
    run_ok(&[
        "generate",
        "completion",
        "8",
        "--k",
        "2",
        "--seed",
        "3",
        "-o",
        inst.to_str().unwrap(),
    ]);
    let table = run_ok(&[
        "count",
        "--instance",
        inst.to_str().unwrap(),
        "--heatmap",
        svg.to_str().unwrap(),
    ]);
    let total = total_of(&table);
    let listed = listed_cells(
        8,
        &run_ok(&["count", "--instance", inst.to_str().unwrap(), "--list"]),
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let drawn = drawn_cells(8, &doc);
    assert_eq!(drawn, listed);
    assert!(total > 0);
    assert!((0..8).all(|r| drawn[r * 8..r * 8 + 8].iter().sum::<u64>() == total));
}

#[test]
fn svg_options_are_refused_where_they_do_not_apply() {
    for args in [
        &["solve", "8", "--all", "--format", "svg"][..],
        &["solve", "8", "-o", "/dev/null"],
        &["count", "8", "--format", "svg"],
        &["construct", "100001", "--format", "svg"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o).trim_end().lines().count(), 1, "{}", stderr(&o));
    }
}

/// The heatmap renders in a browser: chromium loads it without an XML error and keeps the
/// cells in its DOM.
#[test]
fn chromium_renders_the_heatmap() {
    if !require("chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("h.svg");
    run_ok(&["count", "8", "--heatmap", file.to_str().unwrap()]);
    let profile = dir.path().join("profile");
    let o = output(
        std::process::Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("--dump-dom")
            .arg(format!("file://{}", file.display())),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let dom = stdout(&o);
    assert!(!dom.contains("error on line"), "{dom}");
    assert_eq!(dom.matches("class=\"cell\"").count(), 64, "{dom}");
}
