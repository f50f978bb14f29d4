//! `solve --engine propagator`: CaDiCaL with the rows' at-least-one clauses as CNF and the
//! at-most-one of every line propagated through IPASIR-UP. Its counts against the published
//! table (n = 1..10) and against the backtracking counter on instances with blocked cells,
//! placed queens and the torus; its solutions checked here as boards; its proofs of UNSAT
//! answers checked against the file `encode` writes (the pairwise formula) by the library's
//! LRAT checker and, with the hints dropped, as DRAT by the library's checker, VeriPB and the
//! tests' own plain checker ([`crate::oracle`]); what it does not do refused with exit 2.

use crate::common::{
    is_valid_placement, propagator_count, published_total, run, stderr, stdout, CsvTable,
};
use crate::lrat::{corruptions, drop_hints, oracle_check, verify};
use std::path::{Path, PathBuf};

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

/// The counting argument (too few live diagonals: a conflict; exactly n: each must hold a
/// queen) and the bounds on the diagonals' sums and second moments remove no solution, each
/// alone or all: on Excluded Diagonals instances, where it fires (the paper's
/// generator, n = 12, D = 9..11, both satisfiable and unsatisfiable ones) and on the torus
/// (n diagonals of each direction, all of them needed), the propagator's counts are the
/// backtracking counter's, and its one-solve answers agree with them.
#[cfg_attr(not(feature = "cadical"), ignore = "needs the cadical feature")]
#[test]
fn the_counting_argument_keeps_every_solution() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for d in 9..=11 {
        for seed in 1..=4 {
            files.push(crate::common::jair_instance(dir.path(), 12, d, seed));
        }
    }
    for n in ["7", "11"] {
        let f = dir.path().join(format!("torus-{n}.txt"));
        let o = run(&["generate", "toroidal", n, "-o", f.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        files.push(f);
    }
    let (mut counting, mut sums, mut moments, mut unsat) = (0u64, 0u64, 0u64, 0);
    let mut excluded = 0u64;
    for f in &files {
        let file = f.to_str().unwrap();
        let expected = counted(f);
        let got = propagate(&["--instance", file, "--count"]);
        assert_eq!(got.trim().parse::<u64>().unwrap(), expected, "{file}");
        // Each argument alone (the bounds with and without their propagation), and none:
        // the same count.
        for only in [
            [
                "counting=1",
                "sums=0",
                "moments=0",
                "propagate=0",
                "classes=0",
            ],
            [
                "counting=0",
                "sums=1",
                "moments=0",
                "propagate=0",
                "classes=0",
            ],
            [
                "counting=0",
                "sums=1",
                "moments=0",
                "propagate=1",
                "classes=0",
            ],
            [
                "counting=0",
                "sums=0",
                "moments=1",
                "propagate=0",
                "classes=0",
            ],
            [
                "counting=0",
                "sums=0",
                "moments=1",
                "propagate=1",
                "classes=0",
            ],
            [
                "counting=0",
                "sums=0",
                "moments=0",
                "propagate=0",
                "classes=1",
            ],
        ] {
            let mut args = vec!["--instance", file, "--count"];
            for o in only {
                args.extend(["--solver-option", o]);
            }
            let got = propagate(&args);
            assert_eq!(
                got.trim().parse::<u64>().unwrap(),
                expected,
                "{file} {only:?}"
            );
        }
        let off = [
            "--solver-option",
            "counting=0",
            "--solver-option",
            "sums=0",
            "--solver-option",
            "moments=0",
            "--solver-option",
            "classes=0",
        ];
        let mut args = vec!["--instance", file, "--count"];
        args.extend_from_slice(&off);
        let got = propagate(&args);
        assert_eq!(got.trim().parse::<u64>().unwrap(), expected, "{file}");
        let once = |extra: &[&str]| {
            let mut a = vec![
                "solve",
                "--instance",
                file,
                "--engine",
                "propagator",
                "--format",
                "line",
            ];
            a.extend_from_slice(extra);
            run(&a)
        };
        let o = once(&off);
        assert!(
            stderr(&o).contains(
                ", 0 counting clauses, 0 sum clauses, 0 moment clauses, 0 class clauses, 0 bound \
                 propagations;"
            ),
            "{}",
            stderr(&o)
        );
        let o = once(&[]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            stdout(&o).starts_with("no solution"),
            expected == 0,
            "{file}: {}",
            stdout(&o)
        );
        unsat += usize::from(expected == 0);
        let err = stderr(&o);
        counting += propagator_count(&err, "counting clauses");
        sums += propagator_count(&err, "sum clauses");
        moments += propagator_count(&err, "moment clauses");
        excluded += propagator_count(&err, "bound propagations");
    }
    assert!(unsat > 0 && unsat < files.len(), "both answers must occur");
    assert!(counting > 0, "the counting argument never fired");
    assert!(sums > 0, "the bounds on the sums never fired");
    assert!(moments > 0, "the bounds on the moments never fired");
    assert!(excluded > 0, "the bounds never propagated");
    // The option takes 0 or 1, in `solve` and in `compare`'s solver names.
    for bad in [
        vec![
            "solve",
            "6",
            "--engine",
            "propagator",
            "--solver-option",
            "counting=2",
        ],
        vec!["compare", "--n", "6", "--solver", "propagator counting=2"],
    ] {
        let o = run(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("'counting' takes values from 0 to 1"),
            "{}",
            stderr(&o)
        );
    }
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
        (
            vec![
                "3",
                "--proof",
                proof.to_str().unwrap(),
                "--backend",
                "kissat",
            ],
            "--backend",
        ),
        (
            vec!["3", "--check-proof", "--amo", "sequential"],
            "pairwise",
        ),
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

/// UNSAT instances for the proofs: a name and the arguments that select the formula (for
/// `solve` and `encode`), each found unsatisfiable here by the backtracking counter.
fn unsat_cases(dir: &Path) -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = vec![
        ("n2".into(), vec!["2".into()]),
        ("n3".into(), vec!["3".into()]),
        (
            "placed".into(),
            ["8", "--place", "1,1", "--place", "2,3"]
                .map(String::from)
                .to_vec(),
        ),
    ];
    let generated: [(&str, Vec<&str>); 6] = [
        (
            "blocked1",
            vec!["blocked", "10", "--p", "0.6", "--seed", "1"],
        ),
        (
            "blocked2",
            vec!["blocked", "10", "--p", "0.6", "--seed", "2"],
        ),
        (
            "blocked3",
            vec!["blocked", "14", "--p", "0.55", "--seed", "3"],
        ),
        (
            "diagonals",
            vec!["excluded-diagonals", "10", "--d", "8", "--seed", "1"],
        ),
        (
            "diagonals2",
            vec!["excluded-diagonals", "10", "--d", "6", "--seed", "2"],
        ),
        ("torus", vec!["toroidal", "8"]),
    ];
    for (name, args) in generated {
        let f = dir.join(format!("{name}.txt"));
        let mut a = vec!["generate"];
        a.extend_from_slice(&args);
        a.extend_from_slice(&["-o", f.to_str().unwrap()]);
        let o = run(&a);
        assert!(o.status.success(), "{a:?}: {}", stderr(&o));
        if counted(&f) != 0 {
            // A generator changed its boards: this one is no UNSAT case any more.
            eprintln!("{name}: has solutions, left out");
            continue;
        }
        v.push((
            name.into(),
            vec!["--instance".into(), f.to_str().unwrap().into()],
        ));
    }
    assert!(v.len() >= 7, "too few UNSAT cases: {v:?}");
    v
}

/// `encode ARGS -o DIR/NAME.cnf`: the pairwise formula the proofs refer to.
fn encode(dir: &Path, name: &str, base: &[String]) -> PathBuf {
    let cnf = dir.join(format!("{name}.cnf"));
    let mut a: Vec<String> = vec!["encode".into()];
    a.extend(base.iter().cloned());
    a.extend(["-o".to_string(), cnf.to_str().unwrap().to_string()]);
    let o = run(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    cnf
}

/// `solve ARGS --engine propagator --proof FILE --proof-format FORMAT --check-proof`,
/// expected to prove UNSAT; stdout.
fn prove(base: &[String], proof: &Path, format: &str) -> String {
    let mut a: Vec<String> = vec!["solve".into()];
    a.extend(base.iter().cloned());
    a.extend(
        [
            "--engine",
            "propagator",
            "--proof",
            proof.to_str().unwrap(),
            "--proof-format",
            format,
            "--check-proof",
        ]
        .map(String::from),
    );
    let o = run(&a);
    assert_eq!(o.status.code(), Some(0), "{a:?}: {}", stderr(&o));
    assert!(stderr(&o).contains("propagator: "), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("no solution exists"), "{out}");
    assert!(out.contains("by the propagator engine"), "{out}");
    out
}

#[cfg_attr(not(feature = "cadical"), ignore = "needs the cadical feature")]
#[test]
fn proofs_check_against_the_pairwise_formula_of_encode() {
    let dir = tempfile::tempdir().unwrap();
    for (name, base) in unsat_cases(dir.path()) {
        let cnf = encode(dir.path(), &name, &base);
        // LRAT: the library's checker, here and in `verify-proof` against encode's file.
        let proof = dir.path().join(format!("{name}.lrat"));
        let out = prove(&base, &proof, "lrat");
        assert!(out.contains("LRAT checker"), "{name}: {out}");
        let (code, text) = verify(&cnf, &proof);
        assert_eq!(code, 0, "{name}: {text}");
        assert!(text.contains("verified: text LRAT"), "{name}: {text}");
        // Hints dropped: DRAT, checked by the library's DRAT path and the oracle.
        let lrat = std::fs::read_to_string(&proof).unwrap();
        let drat = dir.path().join(format!("{name}-nohints.drat"));
        std::fs::write(&drat, drop_hints(&cnf, &lrat)).unwrap();
        let (code, text) = verify(&cnf, &drat);
        assert_eq!(code, 0, "{name} as DRAT: {text}");
        assert!(oracle_check(&cnf, &drat), "{name}: the oracle rejects");
        // The engine's own DRAT proof, checked by both too.
        let own = dir.path().join(format!("{name}.drat"));
        let out = prove(&base, &own, "drat");
        assert!(
            out.contains("checked by: the DRAT checker of queens-sat (accepted), VeriPB"),
            "{name}: {out}"
        );
        let (code, text) = verify(&cnf, &own);
        assert_eq!(code, 0, "{name} DRAT: {text}");
        assert!(
            oracle_check(&cnf, &own),
            "{name}: the oracle rejects the DRAT proof"
        );
        // Corrupted: the empty clause removed is rejected by every checker; of the other
        // kinds, whatever DRAT rejects LRAT rejects too, and the DRAT checkers agree.
        let mut rejected = Vec::new();
        let mut tried: Vec<&str> = Vec::new();
        for (kind, bad) in corruptions(&lrat) {
            // Up to 4 tries of each kind (from the end), until one is rejected.
            if rejected.contains(&kind) || tried.iter().filter(|k| **k == kind).count() >= 4 {
                continue;
            }
            tried.push(kind);
            let p = dir.path().join(format!("{name}-bad.lrat"));
            std::fs::write(&p, &bad).unwrap();
            let (code, text) = verify(&cnf, &p);
            assert!(code == 0 || code == 1, "{name} {kind}: {text}");
            if kind == "hint removed" {
                if code == 1 {
                    rejected.push(kind);
                }
                continue;
            }
            let d = dir.path().join(format!("{name}-bad.drat"));
            std::fs::write(&d, drop_hints(&cnf, &bad)).unwrap();
            let (dcode, dtext) = verify(&cnf, &d);
            assert!(dcode == 0 || dcode == 1, "{name} {kind}: {dtext}");
            assert_eq!(
                dcode == 0,
                oracle_check(&cnf, &d),
                "{name} {kind}: checkers disagree"
            );
            assert!(
                code >= dcode,
                "{name} {kind}: LRAT accepts what DRAT rejects"
            );
            if kind == "empty clause removed" {
                // LRAT needs the empty clause; DRAT accepts the proof without it when its last
                // lemmas refute the formula by unit propagation (drat-trim does too), as the
                // oracle decided above.
                assert_eq!(code, 1, "{name}: {text} {dtext}");
            }
            if code == 1 {
                rejected.push(kind);
            }
        }
        assert!(
            rejected.contains(&"empty clause removed"),
            "{name}: {rejected:?}"
        );
        if name != "n2" {
            // (A dropped lemma may be one the refutation never uses.)
            assert!(
                rejected.contains(&"literal changed") && rejected.len() >= 3,
                "{name}: {rejected:?}"
            );
        }
        // A proof of another formula (the sequential encoding of the same instance) is not
        // accepted: the proof's numbers name the pairwise formula's clauses.
        if name == "placed" {
            let mut other = base.clone();
            other.extend(["--amo".to_string(), "sequential".to_string()]);
            let seq = encode(dir.path(), "sequential", &other);
            let (code, text) = verify(&seq, &proof);
            assert_eq!(code, 1, "{text}");
        }
    }
}

#[cfg_attr(not(feature = "cadical"), ignore = "needs the cadical feature")]
#[test]
fn a_proof_asked_of_a_satisfiable_instance_gives_the_checked_solution() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.lrat");
    for n in ["5", "8"] {
        let o = run(&[
            "solve",
            n,
            "--engine",
            "propagator",
            "--proof",
            proof.to_str().unwrap(),
            "--proof-format",
            "lrat",
            "--format",
            "line",
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains("none exists"), "{}", stderr(&o));
        let q = queens(stdout(&o).trim());
        let n: usize = n.parse().unwrap();
        assert_eq!(q.len(), n);
        assert!(is_valid_placement(n, &q), "{q:?}");
        assert!(
            !proof.exists(),
            "no proof is written of a satisfiable instance"
        );
    }
}

#[cfg_attr(not(feature = "cadical"), ignore = "needs the cadical feature")]
#[test]
fn compare_runs_the_propagator_beside_the_encodings() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rows.csv");
    let out = run(&[
        "compare",
        "--n",
        "2,3,6,8",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "propagator,cadical-lib,propagator elim=0",
        "--repeat",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = CsvTable::read(&csv);
    let col = |name: &str| table.col(name);
    let (n, encoding, solver, status, ms, all, version) = (
        col("n"),
        col("encoding"),
        col("solver"),
        col("status"),
        col("solve_ms"),
        col("solve_ms_all"),
        col("solver_version"),
    );
    let rows = &table.rows;
    let prop: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| r[solver].starts_with("propagator"))
        .collect();
    // Two propagator columns, four sizes, two encodings.
    assert_eq!(prop.len(), 16, "{rows:?}");
    assert!(
        prop.iter().any(|r| &r[solver] == "propagator elim=0"),
        "{rows:?}"
    );
    for r in &prop {
        // The answers against the published table: none for n = 2, 3.
        let expected = if published_total(r[n].parse().unwrap()) == 0 {
            "UNSAT"
        } else {
            "SAT"
        };
        assert_eq!(&r[status], expected, "{r:?}");
        assert!(r[ms].parse::<f64>().is_ok(), "{r:?}");
        assert_eq!(r[all].split_whitespace().count(), 2, "{r:?}");
        assert!(r[version].contains("cadical 3."), "{r:?}");
        assert!(r[version].contains("propagator"), "{r:?}");
    }
    // CaDiCaL on the encodings agrees.
    for r in rows.iter().filter(|r| &r[solver] == "cadical-lib") {
        let twin = prop
            .iter()
            .find(|p| p[n] == r[n] && p[encoding] == r[encoding])
            .unwrap();
        assert_eq!(r[status], twin[status], "{r:?}");
    }
    // A bad option is refused before any run.
    let o = run(&["compare", "--n", "4", "--solver", "propagator nope=1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("nope"), "{}", stderr(&o));
}
