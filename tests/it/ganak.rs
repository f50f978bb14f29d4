//! The exported DIMACS files, counted by a real exact model counter (Ganak, through its Python
//! bindings; `tests/python/ganak_count.py` reads the files with a parser of its own): for every
//! model and encoding, n = 1..8, the count projected as the file's Model Counting Competition
//! header declares (`c t mc`, or `c t pmc` with `c p show`) equals the published table.

use crate::common::{ganak_counts, published_total, require, run, stderr};
use std::path::PathBuf;

/// The `encode` options of every model and encoding, with a short name.
fn models() -> Vec<(String, Vec<&'static str>)> {
    let mut out = Vec::new();
    for amo in crate::common::amo_names() {
        out.push((format!("cells-{amo}"), vec!["--amo", amo]));
        out.push((
            format!("direct-{amo}"),
            vec!["--model", "columns", "--domain", "direct", "--amo", amo],
        ));
    }
    out.push((
        "cells-pairwise+column-alo".into(),
        vec!["--amo", "pairwise", "--column-alo"],
    ));
    out.push((
        "cells-sequential+column-alo".into(),
        vec!["--amo", "sequential", "--column-alo"],
    ));
    out.push((
        "order".into(),
        vec!["--model", "columns", "--domain", "order"],
    ));
    out.push(("log".into(), vec!["--model", "columns", "--domain", "log"]));
    out.push((
        "support".into(),
        vec!["--model", "columns", "--constraints", "support"],
    ));
    out.push(("cells+sums".into(), vec!["--redundant", "sums"]));
    out.push((
        "log+permutation+diagonals+sums".into(),
        vec![
            "--model",
            "columns",
            "--domain",
            "log",
            "--redundant",
            "permutation,diagonals,sums",
        ],
    ));
    out
}

/// `c t` type and `c p show` variables of a file, and the `p cnf` variable count.
fn header(text: &str) -> (Option<String>, Option<Vec<u64>>, u64) {
    let first = text.lines().next().unwrap_or("");
    let kind = first.strip_prefix("c t ").map(str::to_string);
    let show = text
        .lines()
        .find_map(|l| l.strip_prefix("c p show "))
        .map(|s| {
            let mut vars: Vec<u64> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();
            assert_eq!(vars.pop(), Some(0), "`c p show` ends with 0");
            vars
        });
    let vars = text
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|s| s.split_whitespace().next())
        .map(|v| v.parse().unwrap())
        .unwrap();
    (kind, show, vars)
}

#[test]
fn projected_counts_of_every_encoding_equal_the_table() {
    if !require("pyganak") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    // Up to n = 7 (40 solutions) for every encoding, and n = 8 (92) for the pairwise cell
    // model: Ganak takes a second or two per file from n = 7 on.
    for n in 1..=8usize {
        for (name, opts) in models() {
            if n == 8 && name != "cells-pairwise" {
                continue;
            }
            let path = dir.path().join(format!("{name}-{n}.cnf"));
            let mut args = vec!["encode".to_string(), n.to_string()];
            args.extend(opts.iter().map(|s| s.to_string()));
            args.extend(["-o".into(), path.display().to_string()]);
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run(&refs);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            files.push((n, name, path));
        }
    }
    let paths: Vec<PathBuf> = files.iter().map(|f| f.2.clone()).collect();
    let counts = ganak_counts(&paths, false);
    for (n, name, path) in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let (kind, show, vars) = header(&text);
        let (ganak_kind, projected, unprojected) = &counts[path];
        let expected = published_total(*n) as u128;
        assert_eq!(
            *projected, expected,
            "{name}, n = {n}: Ganak counts {projected} under the file's header, the table {expected}"
        );
        match kind.as_deref() {
            // No projection declared: every variable counts, and the count is the table's.
            Some("mc") => {
                assert!(show.is_none(), "{name}, n = {n}: `c t mc` with `c p show`");
                assert_eq!(*unprojected, Some(*projected));
            }
            // A projection onto the board's variables, fewer than all.
            Some("pmc") => {
                let show = show.unwrap_or_else(|| panic!("{name}, n = {n}: pmc without show"));
                assert!((show.len() as u64) < vars, "{name}, n = {n}");
                assert!(show.iter().all(|&v| v >= 1 && v <= vars));
            }
            other => panic!("{name}, n = {n}: the first line declares {other:?}"),
        }
        assert_eq!(ganak_kind.as_str(), kind.as_deref().unwrap());
    }
}

/// The projection matters: an encoding with auxiliary variables that are not determined by
/// the board has more models than boards, and the header says so (pmc). Without this the
/// test above could pass with a header that declares nothing useful.
#[test]
fn auxiliary_variables_change_the_unprojected_count() {
    if !require("pyganak") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seq6.cnf");
    let o = run(&[
        "encode",
        "6",
        "--amo",
        "sequential",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let counts = ganak_counts(std::slice::from_ref(&path), true);
    let (kind, projected, unprojected) = &counts[&path];
    assert_eq!(kind, "pmc");
    assert_eq!(*projected, published_total(6) as u128);
    let unprojected = unprojected.expect("asked for");
    assert!(unprojected > *projected, "{unprojected} <= {projected}");
}

/// With lex-leader symmetry breaking, the projected count of the export is the number of
/// fundamental solutions (OEIS A002562), for models with and without auxiliary variables of
/// their own.
#[test]
fn lex_leader_exports_count_the_fundamental_solutions() {
    if !require("pyganak") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for n in 1..=9usize {
        for (name, opts) in [
            ("pairwise", vec![]),
            ("sequential", vec!["--amo", "sequential"]),
            ("order", vec!["--model", "columns", "--domain", "order"]),
            ("log", vec!["--model", "columns", "--domain", "log"]),
        ] {
            let path = dir.path().join(format!("lex-{name}-{n}.cnf"));
            let ns = n.to_string();
            let mut args = vec!["encode", ns.as_str(), "--symmetry-breaking", "lex-leader"];
            args.extend(opts);
            args.extend(["-o", path.to_str().unwrap()]);
            let o = run(&args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            files.push((n, path));
        }
    }
    let paths: Vec<PathBuf> = files.iter().map(|f| f.1.clone()).collect();
    let counts = ganak_counts(&paths, false);
    for (n, path) in &files {
        let (kind, projected, _) = &counts[path];
        // Symmetry breaking adds auxiliaries (on the 1 x 1 board there may be nothing to add).
        assert!(
            kind == "pmc" || (*n == 1 && kind == "mc"),
            "{}",
            path.display()
        );
        assert_eq!(
            *projected,
            crate::common::REFERENCE[n - 1].1 as u128,
            "{}",
            path.display()
        );
    }
}
