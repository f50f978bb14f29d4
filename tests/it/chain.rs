//! Chains of solvers (`search@60+exact`): in `compare --solver` a configuration whose row
//! sums the stages' times and names the stage that decided, in `solve --engine` one command
//! that decides an instance. Each chain goes on past a stage that burns its budget or crashes,
//! and stops at one that lies; answers are checked against the published table and the
//! recorded answers of CSPLib problem 079.

use crate::common::{
    is_valid_placement, published_total, recorded, require, run, script, stderr, stdout, CsvTable,
};
use std::path::{Path, PathBuf};

/// The fake solvers of these tests, in `dir`: one that burns CPU until stopped, one that
/// crashes, one that says UNSAT of anything.
fn fakes(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    (
        script(dir, "burner", "while :; do :; done"),
        script(dir, "crash", "kill -SEGV $$"),
        script(dir, "liar", "echo 's UNSATISFIABLE'; exit 20"),
    )
}

/// The rows of a sweep's CSV file: (solver, status, cpu_s, decided_by) for board size `n`.
fn rows(csv: &Path, n: usize) -> Vec<(String, String, f64, String)> {
    let t = CsvTable::read(csv);
    let c = |name| t.col(name);
    t.rows
        .iter()
        .filter(|r| r[c("n")] == n.to_string())
        .map(|r| {
            (
                r[c("solver")].to_string(),
                r[c("status")].to_string(),
                r[c("cpu_s")].parse().unwrap_or(-1.0),
                r[c("decided_by")].to_string(),
            )
        })
        .collect()
}

#[test]
fn a_chain_in_a_sweep_goes_on_past_burners_and_crashes_and_stops_at_a_liar() {
    let dir = tempfile::tempdir().unwrap();
    let (burner, crash, liar) = fakes(dir.path());
    let (burner, crash, liar) = (
        burner.display().to_string(),
        crash.display().to_string(),
        liar.display().to_string(),
    );
    let chains = [
        format!("{burner}@0.5+cadical-lib"),
        format!("{crash}+search"),
        format!("{liar}+varisat"),
    ];
    let csv = dir.path().join("r.csv");
    let out = run(&[
        "compare",
        "--n",
        "3,8",
        "--amo",
        "pairwise",
        "--solver",
        &chains.join(","),
        "--repeat",
        "1",
        "--timeout",
        "60",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    // The liar's rows are wrong at n = 8: the sweep fails once every run is done.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    for n in [3, 8] {
        let want = if published_total(n) > 0 {
            "SAT"
        } else {
            "UNSAT"
        };
        let rows = rows(&csv, n);
        assert_eq!(rows.len(), 3, "{rows:?}");
        let row = |chain: &str| rows.iter().find(|r| r.0 == chain).unwrap();
        // The burner spends its budget, then CaDiCaL decides: the row counts both.
        let r = row(&chains[0]);
        assert_eq!((r.1.as_str(), r.3.as_str()), (want, "cadical-lib"), "{r:?}");
        assert!(r.2 >= 0.45, "the burner's 0.5 s of CPU are counted: {r:?}");
        // The crash hands the instance on to the search.
        let r = row(&chains[1]);
        assert_eq!((r.1.as_str(), r.3.as_str()), (want, "search"), "{r:?}");
        // The liar's UNSAT stands at n = 3 (none exists) and is caught at n = 8 (the empty
        // board has solutions): varisat is not asked.
        let r = row(&chains[2]);
        let lie = if n == 8 { "WRONG: UNSAT" } else { "UNSAT" };
        assert_eq!((r.1.as_str(), r.3.as_str()), (lie, liar.as_str()), "{r:?}");
    }
}

#[test]
fn solve_decides_with_a_chain_and_says_which_stage_did() {
    let dir = tempfile::tempdir().unwrap();
    let (burner, crash, liar) = fakes(dir.path());
    // n = 8: the crash hands on to the search, whose board is valid.
    let chain = format!("{}+search", crash.display());
    let out = run(&["solve", "8", "--engine", &chain, "--format", "line"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let cols: Vec<usize> = stdout(&out)
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    let queens: Vec<(usize, usize)> = cols.iter().enumerate().map(|(r, &c)| (r, c - 1)).collect();
    assert!(is_valid_placement(8, &queens), "{cols:?}");
    let log = stderr(&out);
    assert!(
        log.contains("stage 1 of 2") && log.contains("ERROR"),
        "{log}"
    );
    assert!(log.contains("stage 2 of 2, search"), "{log}");
    // n = 3 has no solution (the published table): refuted after the burner's budget.
    let chain = format!("{}@0.3+varisat", burner.display());
    let out = run(&["solve", "3", "--engine", &chain]);
    assert_eq!(published_total(3), 0);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("refuted by varisat"),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("TIMEOUT"), "{}", stderr(&out));
    // A liar ends the chain with an error, not an answer.
    let chain = format!("{}+varisat", liar.display());
    let out = run(&["solve", "8", "--engine", &chain]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("answered wrongly"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn a_chain_that_cannot_run_is_refused_before_any_work() {
    for (chain, says) in [
        ("search@x+varisat", "'x' is not a budget"),
        ("search@0+varisat", "'0' is not a budget"),
        ("@5+varisat", "a stage names no solver"),
        ("search+no-such-solver", "no-such-solver cannot be run"),
    ] {
        let out = run(&["solve", "8", "--engine", chain]);
        assert_eq!(out.status.code(), Some(2), "{chain}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{chain}: {}", stderr(&out));
        let out = run(&["compare", "--n", "8", "--solver", chain]);
        assert_eq!(out.status.code(), Some(2), "{chain}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{chain}: {}", stderr(&out));
    }
    let out = run(&["solve", "8", "--engine", "search+varisat", "--count"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--count does not go with a chain"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_search_then_exact_decides_the_hard_band_as_recorded() {
    if !require("exact") {
        return;
    }
    let answers = recorded("21", "259");
    let param = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/csplib-prob079/params/diag-21-4-259.param");
    // The band of the published experiment (d = 17..21): both answers occur.
    let band: Vec<(usize, bool)> = (17..=21).map(|d| (d, answers[&d])).collect();
    assert!(
        band.iter().any(|b| b.1) && band.iter().any(|b| !b.1),
        "{band:?}"
    );
    let mut by_exact = 0;
    for (d, sat) in band {
        let out = run(&[
            "solve",
            "--instance",
            param.to_str().unwrap(),
            "--diagonals",
            &d.to_string(),
            "--redundant",
            "diagonals,sums,moments",
            "--engine",
            "search@0.05+exact",
            "--timeout",
            "120",
            "--format",
            "line",
        ]);
        assert_eq!(out.status.code(), Some(0), "d = {d}: {}", stderr(&out));
        let said_sat = !stdout(&out).starts_with("no solution");
        assert_eq!(said_sat, sat, "d = {d}: {}{}", stdout(&out), stderr(&out));
        by_exact += usize::from(stderr(&out).contains("stage 2 of 2, exact: "));
    }
    // A twentieth of a second leaves most of the band to Exact.
    assert!(by_exact > 0, "the search decided every instance alone");
}

#[test]
fn a_family_sweep_draws_the_papers_instances_with_d_as_a_fraction_of_n() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The sweep's instances (d = 0.875 x 16 = 14) and `generate`'s, drawn apart.
    let sweep = |args: &[&str], csv: &str| {
        let csv = d.join(csv);
        let mut all = vec![
            "compare", "--n", "16", "--amo", "pairwise", "--solver", "varisat",
        ];
        all.extend(["--repeat", "1", "--csv", csv.to_str().unwrap()]);
        all.extend(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let t = CsvTable::read(&csv);
        let (hash, status) = (t.col("gbd_hash"), t.col("status"));
        let mut rows: Vec<(String, String)> = t
            .rows
            .iter()
            .map(|r| (r[hash].to_string(), r[status].to_string()))
            .collect();
        rows.sort();
        rows
    };
    let drawn = sweep(
        &[
            "--family",
            "excluded-diagonals",
            "--param",
            "d=0.875n",
            "--param",
            "min-free=4",
            "--param",
            "compatible=jair",
            "--seeds",
            "1..3",
        ],
        "drawn.csv",
    );
    let mut files = Vec::new();
    for seed in ["1", "2", "3"] {
        let f = d.join(format!("e-{seed}.txt"));
        let out = run(&[
            "generate",
            "excluded-diagonals",
            "16",
            "--min-free",
            "4",
            "--seed",
            seed,
            "--compatible",
            "jair",
            "--d",
            "14",
            "-o",
            f.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        files.push(f.display().to_string());
    }
    let mut args = Vec::new();
    for f in &files {
        args.extend(["--instance", f.as_str()]);
    }
    let generated = sweep(&args, "generated.csv");
    assert_eq!(drawn.len(), 3);
    assert_eq!(drawn, generated);
    for (param, says) in [
        ("compatible=python", "compatible=jair"),
        ("d=xn", "fraction of n"),
    ] {
        let out = run(&[
            "compare",
            "--n",
            "16",
            "--family",
            "excluded-diagonals",
            "--param",
            param,
            "--param",
            "min-free=4",
        ]);
        assert_eq!(out.status.code(), Some(2), "{param}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{param}: {}", stderr(&out));
    }
    let out = run(&[
        "compare",
        "--n",
        "16",
        "--family",
        "blocked",
        "--param",
        "p=0.5",
        "--param",
        "compatible=jair",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not blocked"), "{}", stderr(&out));
}

/// A sweep of the paper's Excluded Diagonals instances at n = 14 (`d_param` such as
/// `d=10..13`, seeds 1..3, pairwise, one run each) with `solver`, into `dir/csv`, checked
/// against `expected` when given: its output and the CSV file.
fn jair_sweep(
    dir: &Path,
    d_param: &str,
    solver: &str,
    csv: &str,
    expected: Option<&Path>,
) -> (std::process::Output, std::path::PathBuf) {
    let csv = dir.join(csv);
    let mut args = vec![
        "compare",
        "--family",
        "excluded-diagonals",
        "--n",
        "14",
        "--param",
        d_param,
        "--param",
        "min-free=4",
        "--param",
        "compatible=jair",
        "--seeds",
        "1..3",
        "--amo",
        "pairwise",
        "--solver",
        solver,
        "--repeat",
        "1",
        "--csv",
        csv.to_str().unwrap(),
    ];
    if let Some(e) = expected {
        args.extend(["--expected", e.to_str().unwrap()]);
    }
    (run(&args), csv)
}

#[test]
fn a_family_sweep_is_checked_against_the_answers_of_another() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sweep = |solver: &str, csv: &str, expected: Option<&Path>| {
        jair_sweep(d, "d=10..13", solver, csv, expected)
    };
    // The search's answers, then varisat's checked against them.
    let (out, reference) = sweep("search", "search.csv", None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (out, _) = sweep("varisat", "varisat.csv", Some(&reference));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("12 rows checked, 0 answered otherwise"),
        "{}",
        stderr(&out)
    );
    // A tab-separated file of (n, D, seed, answer) with one answer forged: one wrong row.
    let t = CsvTable::read(&reference);
    let c = |name| t.col(name);
    let mut tsv = String::from("n\tD\tseed\tanswer\n");
    for (i, r) in t.rows.iter().enumerate() {
        let mut answer = r[c("status")].to_string();
        if i == 0 {
            answer = if answer == "SAT" { "UNSAT" } else { "SAT" }.to_string();
        }
        tsv.push_str(&format!(
            "{}\t{}\t{}\t{answer}\n",
            &r[c("n")],
            &r[c("value")],
            &r[c("seed")]
        ));
    }
    let forged = d.join("forged.tsv");
    std::fs::write(&forged, tsv).unwrap();
    let (out, csv) = sweep("varisat", "forged.csv", Some(&forged));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let t = CsvTable::read(&csv);
    let wrong = t
        .rows
        .iter()
        .filter(|r| r[t.col("status")].starts_with("WRONG: expected"))
        .count();
    assert_eq!(wrong, 1);
}

/// A sweep with D as a fraction of n is checked against a file that gives D as a number (as
/// the published frontier files do), and a file that matches no row fails the sweep loudly.
#[test]
fn expected_answers_match_d_given_as_a_fraction_of_n() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sweep =
        |ds: &str, csv: &str, expected: Option<&Path>| jair_sweep(d, ds, "search", csv, expected);
    // 0.75n and 0.85n at n = 14 are D = 11 (10.5 rounded) and 12 (11.9).
    let (out, reference) = sweep("d=11,12", "numbers.csv", None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let t = CsvTable::read(&reference);
    let c = |name| t.col(name);
    let mut tsv = String::from("n\tD\tseed\tanswer\n");
    for r in &t.rows {
        let line =
            [&r[c("n")], &r[c("value")], &r[c("seed")], &r[c("status")]].map(|s| s.to_string());
        tsv.push_str(&format!("{}\n", line.join("\t")));
    }
    let numbers = d.join("numbers.tsv");
    std::fs::write(&numbers, tsv).unwrap();
    let (out, _) = sweep("d=0.75n,0.85n", "fractions.csv", Some(&numbers));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("6 rows checked, 0 answered otherwise"),
        "{}",
        stderr(&out)
    );
    // Keys of another board size: nothing matches, and the sweep says so and fails.
    let other = d.join("other.tsv");
    std::fs::write(&other, "n\tD\tseed\tanswer\n15\t11\t1\tSAT\n").unwrap();
    let (out, _) = sweep("d=0.75n", "other.csv", Some(&other));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("EXPECTED ANSWERS MATCHED NO ROW"),
        "{}",
        stderr(&out)
    );
}
