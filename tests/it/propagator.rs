//! `solve --engine propagator`: CaDiCaL with the rows' at-least-one clauses as CNF and the
//! at-most-one of every line propagated through IPASIR-UP. Its counts against the published
//! table (n = 1..10) and against the backtracking counter on instances with blocked cells,
//! placed queens and the torus; its solutions checked here as boards; what it does not do
//! refused with exit 2.

use crate::common::{is_valid_placement, published_total, run, stderr, stdout};
use std::path::Path;

/// Runs `solve ARGS --engine propagator` (expected to succeed) and returns stdout.
fn propagate(args: &[&str]) -> String {
    let mut a = vec!["solve"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--engine", "propagator"]);
    let o = run(&a);
    assert_eq!(o.status.code(), Some(0), "{a:?}: {}", stderr(&o));
    stdout(&o)
}

/// The queens of a one-line answer (`2 4 1 3`: 1-based columns row by row) as 0-based cells.
fn queens(line: &str) -> Vec<(usize, usize)> {
    line.split_whitespace()
        .enumerate()
        .map(|(r, c)| (r, c.parse::<usize>().expect("a column") - 1))
        .collect()
}

/// The solutions of an instance file by the backtracking counter (`count --instance`).
fn counted(file: &Path) -> u64 {
    let o = run(&["count", "--instance", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    out.lines()
        .find_map(|l| l.strip_prefix("solutions: "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count in {out}"))
}

#[cfg_attr(not(feature = "cadical"), ignore = "needs the cadical feature")]
#[test]
fn counts_and_solutions_agree_with_the_table() {
    for n in 1..=10 {
        let count = propagate(&[&n.to_string(), "--count"]);
        assert_eq!(
            count.trim().parse::<u64>().unwrap(),
            published_total(n),
            "n = {n}"
        );
        let o = run(&[
            "solve",
            &n.to_string(),
            "--format",
            "line",
            "--engine",
            "propagator",
        ]);
        if published_total(n) == 0 {
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            assert!(
                stdout(&o).contains("no solution"),
                "n = {n}: {}",
                stdout(&o)
            );
            continue;
        }
        assert!(o.status.success(), "n = {n}: {}", stderr(&o));
        let q = queens(stdout(&o).trim());
        assert_eq!(q.len(), n, "n = {n}");
        assert!(is_valid_placement(n, &q), "n = {n}: {q:?}");
        assert!(stderr(&o).contains("propagator: "), "{}", stderr(&o));
    }
    // Every listed solution is a solution, and none twice.
    let all = propagate(&["8", "--all", "--format", "line"]);
    let mut boards: Vec<&str> = all.lines().collect();
    assert_eq!(boards.len(), 92);
    for b in &boards {
        assert!(is_valid_placement(8, &queens(b)), "{b}");
    }
    boards.sort_unstable();
    boards.dedup();
    assert_eq!(boards.len(), 92);
}

#[cfg_attr(not(feature = "cadical"), ignore = "needs the cadical feature")]
#[test]
fn instances_agree_with_the_counter() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for seed in 1..=4 {
        let f = dir.path().join(format!("blocked{seed}.txt"));
        let o = run(&[
            "generate",
            "blocked",
            "10",
            "--p",
            "0.3",
            "--seed",
            &seed.to_string(),
            "-o",
            f.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        files.push(f);
    }
    for (kind, args) in [
        (
            "completion",
            vec!["completion", "10", "--k", "3", "--seed", "2"],
        ),
        ("toroidal", vec!["toroidal", "7"]),
        ("toroidal8", vec!["toroidal", "8"]),
        (
            "diagonals",
            vec!["excluded-diagonals", "9", "--d", "3", "--seed", "1"],
        ),
    ] {
        let f = dir.path().join(format!("{kind}.txt"));
        let mut a = vec!["generate"];
        a.extend_from_slice(&args);
        a.extend_from_slice(&["-o", f.to_str().unwrap()]);
        let o = run(&a);
        assert!(o.status.success(), "{a:?}: {}", stderr(&o));
        files.push(f);
    }
    for f in &files {
        let file = f.to_str().unwrap();
        let expected = counted(f);
        let got = propagate(&["--instance", file, "--count"]);
        assert_eq!(got.trim().parse::<u64>().unwrap(), expected, "{file}");
        // One solution, checked here: a board that keeps the rules and the instance's cells.
        let o = run(&[
            "solve",
            "--instance",
            file,
            "--format",
            "line",
            "--engine",
            "propagator",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        if expected == 0 {
            assert!(text.contains("no solution"), "{file}: {text}");
            continue;
        }
        let line = text.trim();
        let answer = queens(line);
        let saved = dir.path().join("answer.txt");
        std::fs::write(&saved, format!("{line}\n")).unwrap();
        let n = answer.len().to_string();
        let check = run(&["verify", &n, saved.to_str().unwrap(), "--instance", file]);
        assert!(
            check.status.success(),
            "{file}: {answer:?}: {}{}",
            stdout(&check),
            stderr(&check)
        );
    }
    // Placed and forbidden cells from the command line, against the default engine.
    for extra in [
        vec!["8", "--place", "1,1"],
        vec!["8", "--place", "1,1", "--forbid", "2,3"],
        vec!["9", "--forbid", "5,5", "--forbid", "1,2"],
        vec!["8", "--place", "1,1", "--place", "2,3"],
    ] {
        let mut sat = vec!["solve", "--count"];
        sat.extend_from_slice(&extra);
        let o = run(&sat);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut args = extra.clone();
        args.push("--count");
        assert_eq!(propagate(&args), stdout(&o), "{extra:?}");
    }
}

#[test]
fn what_the_propagator_does_not_do_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.drat");
    for (args, message) in [
        (vec!["3", "--proof", proof.to_str().unwrap()], "no proofs"),
        (vec!["3", "--check-proof"], "no proofs"),
        (vec!["8", "--why"], "--why"),
        (vec!["8", "--solver", "cadical"], "--solver"),
        (vec!["8", "--backend", "varisat"], "--backend"),
        (vec!["8", "--backend", "kissat"], "--backend"),
        (vec!["8", "--amo", "sequential"], "pairwise"),
        (vec!["8", "--symmetry-breaking", "lex-leader"], "pairwise"),
        (vec!["8", "--column-alo"], "pairwise"),
        (vec!["8", "--solver-option", "nope=1"], "nope"),
    ] {
        let mut a = vec!["solve"];
        a.extend_from_slice(&args);
        a.extend_from_slice(&["--engine", "propagator"]);
        let o = run(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stdout(&o));
        assert!(!proof.exists());
        if cfg!(feature = "cadical") {
            let e = stderr(&o);
            assert!(e.contains(message), "{a:?}: {e}");
        }
    }
    let o = run(&["solve", "8", "--engine", "search-tree"]);
    assert_eq!(o.status.code(), Some(2));
}
