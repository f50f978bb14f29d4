//! `compare`: the encoding experiment. Its CSV and JSON parse back, its sizes agree with
//! `encode`, its answers with the reference table, its SVG is well-formed with one series per
//! encoding, interrupted sweeps resume, and broken solvers are caught.

mod common;

use common::*;
use std::path::Path;

const ENCODINGS: &str = "pairwise,sequential,ladder,commander,product,binary,bimander";

fn csv_rows(path: &Path) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records().map(|x| x.unwrap()).collect()
}

fn csv_header(path: &Path) -> csv::StringRecord {
    csv::Reader::from_path(path)
        .unwrap()
        .headers()
        .unwrap()
        .clone()
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
    let mut solvers = vec!["varisat"];
    for s in ["cadical", "minisat"] {
        if solver_available(s) {
            solvers.push(s);
        }
    }
    let solver_list = solvers.join(",");
    let out = run(&[
        "compare",
        "--n",
        "1,2,3,5,8",
        "--amo",
        ENCODINGS,
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
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let encodings: Vec<&str> = ENCODINGS.split(',').collect();

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
    // Series are drawn 2 px wide (axes 1 px). The solid ones (the clauses panel, and the first
    // solver in the time panel; the others are dashed, one short polyline per dash) have a
    // point per n: one per encoding in each panel.
    let solid = xml
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
    assert_eq!(solid, 2 * encodings.len());
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

fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn timeouts_skip_larger_n_and_wrong_answers_fail() {
    let dir = tempfile::tempdir().unwrap();
    let slow = script(dir.path(), "slow", "sleep 20");
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
        "15",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let rows = csv_rows(&csv_path);
    assert_eq!(rows.len(), 3);
    assert_eq!(&rows[2][status], "SKIPPED");
    // Running it would take the whole 15 s time limit (asking its version takes at most 2 s).
    assert!(
        started.elapsed() < std::time::Duration::from_secs(12),
        "the slow solver ran again"
    );

    // A solver that claims UNSAT for a board with solutions, and one that prints a bad model.
    let liar = script(dir.path(), "liar", "echo 's UNSATISFIABLE'; exit 20");
    let out = run(&[
        "compare", "--n", "4", "--amo", "pairwise", "--solver", &liar, "--repeat", "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("WRONG"));
    let bad = script(
        dir.path(),
        "bad",
        "echo 's SATISFIABLE'; echo 'v 1 2 3 4 0'; exit 10",
    );
    let out = run(&[
        "compare", "--n", "4", "--amo", "pairwise", "--solver", &bad, "--repeat", "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("WRONG: row 1 has 4 queens"));
}

#[test]
fn missing_solver_is_reported_not_fatal() {
    let out = run(&[
        "compare",
        "--n",
        "4",
        "--amo",
        "pairwise",
        "--solver",
        "varisat,no-such-solver-here",
        "--repeat",
        "1",
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-solver-here"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("| 4 | pairwise | varisat |"));
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["compare", "--n", "0"][..],
        &["compare", "--n", "4", "--amo", "quadratic"],
        &["compare", "--n", "4", "--timeout", "0"],
        &["compare", "--n", "4", "--repeat", "0"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim().lines().count(),
            1
        );
    }
}
