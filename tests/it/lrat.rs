//! LRAT proofs from the embedded CaDiCaL and DRAT proofs from CaDiCaL and Kissat: written by
//! `solve --proof FILE --proof-format ...`, checked by `verify-proof` against the file that
//! `encode` writes with the same options (by the library's checkers and VeriPB); the LRAT
//! proof with its hints dropped checked as DRAT by the library's DRAT path and by the tests'
//! own plain checker ([`crate::oracle`]); corrupted proofs rejected; bad input refused with
//! exit 2.

use crate::common::{run, stderr, stdout, CsvTable};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// UNSAT cases: a name and the arguments that select the formula (for `solve` and `encode`).
fn cases(dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let torus = dir.join("torus8.txt");
    let o = run(&["generate", "toroidal", "8", "-o", torus.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    vec![
        ("n3", s(&["3"])),
        ("partial", s(&["8", "--place", "1,1", "--place", "2,3"])),
        (
            "sequential",
            s(&[
                "8",
                "--place",
                "1,1",
                "--place",
                "2,3",
                "--amo",
                "sequential",
            ]),
        ),
        ("torus", s(&["--instance", torus.to_str().unwrap()])),
    ]
}

fn args(base: &[String], more: &[&str]) -> Vec<String> {
    let mut v = base.to_vec();
    v.extend(more.iter().map(|x| x.to_string()));
    v
}

/// `encode ARGS -o DIR/NAME.cnf`.
fn encode(dir: &Path, name: &str, base: &[String]) -> PathBuf {
    let cnf = dir.join(format!("{name}.cnf"));
    let mut a = vec!["encode".to_string()];
    a.extend(args(base, &["-o", cnf.to_str().unwrap()]));
    let o = run(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    cnf
}

/// `solve ARGS --proof FILE --check-proof MORE`, expected to prove UNSAT.
fn prove(base: &[String], proof: &Path, more: &[&str]) -> String {
    let mut a = vec!["solve".to_string()];
    a.extend(args(
        base,
        &["--proof", proof.to_str().unwrap(), "--check-proof"],
    ));
    a.extend(more.iter().map(|x| x.to_string()));
    let o = run(&a);
    assert_eq!(o.status.code(), Some(0), "{a:?}: {}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("no solution exists"), "{out}");
    out
}

/// `verify-proof --cnf CNF PROOF`: the exit code and stdout.
pub(crate) fn verify(cnf: &Path, proof: &Path) -> (i32, String) {
    let o = run(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        proof.to_str().unwrap(),
    ]);
    (
        o.status.code().unwrap_or(-1),
        stdout(&o) + stderr(&o).as_str(),
    )
}

/// The tests' own DRAT checker's verdict on a text DRAT proof ([`crate::oracle`]).
pub(crate) fn oracle_check(cnf: &Path, proof: &Path) -> bool {
    crate::oracle::check_files(cnf, proof)
}

/// The clauses of a DIMACS file, by id (1, 2, ... in order), as text.
fn clauses_of(cnf: &Path) -> HashMap<u64, String> {
    let clauses = crate::oracle::read_cnf(&std::fs::read_to_string(cnf).unwrap());
    clauses
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let lits: Vec<String> = c.iter().map(i64::to_string).collect();
            (i as u64 + 1, lits.join(" "))
        })
        .collect()
}

/// The text LRAT proof with its hints dropped: DRAT (deletions by their clauses' literals;
/// deletions of ids never added left out).
pub(crate) fn drop_hints(cnf: &Path, lrat: &str) -> String {
    let mut clauses = clauses_of(cnf);
    let mut out = String::new();
    for line in lrat.lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.is_empty() || toks[0] == "c" {
            continue;
        }
        let id: u64 = toks[0].parse().unwrap();
        if toks[1] == "d" {
            for t in &toks[2..toks.len() - 1] {
                // A deletion of a clause the proof never added (a corrupted proof whose
                // lemma was dropped) has no literals to write: left out.
                let Some(c) = clauses.remove(&t.parse::<u64>().unwrap()) else {
                    continue;
                };
                out.push_str(&format!("d {c}{}0\n", if c.is_empty() { "" } else { " " }));
            }
            continue;
        }
        let end = toks[1..].iter().position(|t| *t == "0").unwrap() + 1;
        let lits = toks[1..end].join(" ");
        out.push_str(&format!(
            "{lits}{}0\n",
            if lits.is_empty() { "" } else { " " }
        ));
        clauses.insert(id, lits);
    }
    out
}

/// Corrupted copies of a text LRAT proof, by kind, tried from the end: a lemma's first
/// literal negated, a lemma's last hint removed, a lemma dropped, and the empty clause
/// removed.
pub(crate) fn corruptions(lrat: &str) -> Vec<(&'static str, String)> {
    let lines: Vec<&str> = lrat.lines().collect();
    let lemma = |l: &str| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.len() > 2 && t[1] != "d" && t[1] != "0"
    };
    let at: Vec<usize> = (0..lines.len())
        .rev()
        .filter(|&i| lemma(lines[i]))
        .collect();
    let mut v = Vec::new();
    let rebuild = |i: usize, new: Option<String>| {
        let mut c: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        match new {
            Some(l) => c[i] = l,
            None => {
                c.remove(i);
            }
        }
        c.join("\n") + "\n"
    };
    for &i in &at {
        let mut toks: Vec<String> = lines[i].split_whitespace().map(String::from).collect();
        toks[1] = (-toks[1].parse::<i64>().unwrap()).to_string();
        v.push(("literal changed", rebuild(i, Some(toks.join(" ")))));
    }
    for &i in &at {
        let mut toks: Vec<String> = lines[i].split_whitespace().map(String::from).collect();
        let n = toks.len();
        if toks[n - 2] != "0" {
            toks.remove(n - 2);
            v.push(("hint removed", rebuild(i, Some(toks.join(" ")))));
        }
    }
    for &i in &at {
        v.push(("step dropped", rebuild(i, None)));
    }
    let empty = (0..lines.len())
        .find(|&i| {
            let t: Vec<&str> = lines[i].split_whitespace().collect();
            t.len() > 1 && t[1] == "0"
        })
        .expect("the proof has the empty clause");
    v.push(("empty clause removed", rebuild(empty, None)));
    v
}

#[test]
fn lrat_proofs_check_against_the_encoded_file_and_as_drat() {
    let dir = tempfile::tempdir().unwrap();
    for (name, base) in cases(dir.path()) {
        let proof = dir.path().join(format!("{name}.lrat"));
        let out = prove(&base, &proof, &["--proof-format", "lrat"]);
        assert!(out.contains("LRAT checker"), "{name}: {out}");
        let cnf = encode(dir.path(), name, &base);
        let (code, text) = verify(&cnf, &proof);
        assert_eq!(code, 0, "{name}: {text}");
        assert!(text.contains("verified: text LRAT"), "{name}: {text}");
        // Hints dropped: a DRAT proof, checked by the library's DRAT path and the oracle.
        let lrat = std::fs::read_to_string(&proof).unwrap();
        let drat = dir.path().join(format!("{name}.drat"));
        std::fs::write(&drat, drop_hints(&cnf, &lrat)).unwrap();
        let (code, text) = verify(&cnf, &drat);
        assert_eq!(code, 0, "{name} as DRAT: {text}");
        assert!(text.contains("text DRAT"), "{text}");
        assert!(oracle_check(&cnf, &drat), "{name}: the oracle rejects");
        // Corruptions: the LRAT checker rejects one of each kind; where the DRAT version
        // changes too, the DRAT checkers agree with each other, reject whenever... and
        // never accept what LRAT... (DRAT is the weaker check: a DRAT rejection implies an
        // LRAT one).
        let mut broken: Vec<&str> = Vec::new();
        let mut broken_drat: Vec<&str> = Vec::new();
        for (kind, bad) in corruptions(&lrat) {
            if broken.contains(&kind) && (kind == "hint removed" || broken_drat.contains(&kind)) {
                continue;
            }
            let p = dir.path().join(format!("{name}-bad.lrat"));
            std::fs::write(&p, &bad).unwrap();
            let (code, text) = verify(&cnf, &p);
            assert!(code == 0 || code == 1, "{name} {kind}: {text}");
            let lrat_ok = code == 0;
            if !lrat_ok {
                assert!(
                    text.contains("rejected: text LRAT proof: step ")
                        || kind == "empty clause removed",
                    "{text}"
                );
                if !broken.contains(&kind) {
                    broken.push(kind);
                }
            }
            if kind == "hint removed" {
                continue;
            }
            let d = dir.path().join(format!("{name}-bad.drat"));
            std::fs::write(&d, drop_hints(&cnf, &bad)).unwrap();
            let (code, text) = verify(&cnf, &d);
            assert!(code == 0 || code == 1, "{name} {kind}: {text}");
            let drat_ok = code == 0;
            assert_eq!(
                drat_ok,
                oracle_check(&cnf, &d),
                "{name} {kind}: DRAT checkers disagree"
            );
            assert!(
                lrat_ok <= drat_ok,
                "{name} {kind}: LRAT accepts what DRAT rejects"
            );
            if !drat_ok && !broken_drat.contains(&kind) {
                broken_drat.push(kind);
            }
        }
        assert!(
            broken.contains(&"empty clause removed"),
            "{name}: {broken:?}"
        );
        // (Without the empty clause a DRAT proof still checks when its last lemmas refute the
        // formula by unit propagation, as drat-trim accepts it: the oracle agreed above.)
        if name != "n3" {
            assert_eq!(broken.len(), 4, "{name}: {broken:?}");
            assert!(
                broken_drat.contains(&"literal changed") || broken_drat.contains(&"step dropped"),
                "{name}: {broken_drat:?}"
            );
        }
        eprintln!("{name}: LRAT rejects {broken:?}, DRAT rejects {broken_drat:?}");
    }
}

#[test]
fn cadical_and_kissat_drat_proofs_check_against_the_encoded_file() {
    let dir = tempfile::tempdir().unwrap();
    let backends: Vec<&str> = queens_sat::solve::Backend::available()
        .iter()
        .map(|b| b.name())
        .collect();
    for (name, base) in cases(dir.path()) {
        let cnf = encode(dir.path(), name, &base);
        for backend in &backends {
            let proof = dir.path().join(format!("{name}-{backend}.drat"));
            let out = prove(
                &base,
                &proof,
                &["--backend", backend, "--proof-format", "drat"],
            );
            assert!(
                out.contains("checked by: the DRAT checker of queens-sat (accepted), VeriPB"),
                "{name} {backend}: {out}"
            );
            let (code, text) = verify(&cnf, &proof);
            assert_eq!(code, 0, "{name} {backend}: {text}");
            assert!(
                oracle_check(&cnf, &proof),
                "{name} {backend}: the oracle rejects"
            );
        }
    }
}

#[test]
fn verify_proof_reports_the_first_failing_step_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("x.cnf");
    std::fs::write(&cnf, "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n").unwrap();
    let good = dir.path().join("good.lrat");
    std::fs::write(&good, "5 2 0 1 2 0\n6 0 5 3 4 0\n").unwrap();
    let (code, text) = verify(&cnf, &good);
    assert_eq!(code, 0, "{text}");
    let bad = dir.path().join("bad.lrat");
    std::fs::write(&bad, "5 2 0 1 2 0\n6 0 5 3 0\n").unwrap();
    let (code, text) = verify(&cnf, &bad);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("rejected: text LRAT proof: step 2 (line 2), clause 6 []"),
        "{text}"
    );
    // Binary LRAT of the same proof.
    let bin = dir.path().join("good.blrat");
    std::fs::write(&bin, [b'a', 10, 4, 0, 2, 4, 0, b'a', 12, 0, 10, 6, 8, 0]).unwrap();
    let (code, text) = verify(&cnf, &bin);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("binary LRAT"), "{text}");
    // Bad input: exit 2.
    let garbage = dir.path().join("garbage.lrat");
    std::fs::write(&garbage, "5 2 0 1 x 0\n").unwrap();
    assert_eq!(verify(&cnf, &garbage).0, 2);
    assert_eq!(verify(&cnf, &dir.path().join("missing")).0, 2);
    let not_cnf = dir.path().join("n.cnf");
    std::fs::write(&not_cnf, "hello\n").unwrap();
    assert_eq!(verify(&not_cnf, &good).0, 2);
}

#[test]
fn solver_options_are_checked_and_versions_listed() {
    let o = run(&["--version"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("varisat 0.2.2"), "{out}");
    if cfg!(feature = "cadical") {
        assert!(out.contains("\ncadical 3."), "{out}");
    }
    if cfg!(feature = "kissat") {
        assert!(out.contains("\nkissat 4."), "{out}");
    }
    if cfg!(feature = "cadical") {
        let o = run(&[
            "solve",
            "10",
            "--backend",
            "cadical",
            "--solver-option",
            "elim=0",
            "--format",
            "line",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let o = run(&[
            "solve",
            "10",
            "--backend",
            "cadical",
            "--solver-option",
            "elimm=0",
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("unknown option 'elimm'"),
            "{}",
            stderr(&o)
        );
        let o = run(&["solve", "10", "--solver-option", "elim=5"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("from 0 to 1"), "{}", stderr(&o));
    }
    if cfg!(feature = "kissat") {
        let o = run(&[
            "solve",
            "8",
            "--count",
            "--backend",
            "kissat",
            "--solver-option",
            "eliminate=0",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o).trim(), "92");
    }
    let o = run(&[
        "solve",
        "8",
        "--backend",
        "varisat",
        "--solver-option",
        "x=1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("varisat takes no options"),
        "{}",
        stderr(&o)
    );
}

#[cfg(all(feature = "cadical", feature = "kissat"))]
#[test]
fn compare_records_the_embedded_solvers_versions_and_options() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("c.csv");
    let o = run(&[
        "compare",
        "--n",
        "8",
        "--amo",
        "pairwise",
        "--solver",
        "cadical-lib,kissat-lib,cadical-lib elim=0",
        "--repeat",
        "1",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let table = CsvTable::read(&csv);
    let (col, rows) = (|name: &str| table.col(name), table.rows.as_slice());
    assert_eq!(rows.len(), 3, "{text}");
    let solvers: Vec<&str> = rows.iter().map(|r| &r[col("solver")]).collect();
    assert!(solvers.contains(&"cadical-lib elim=0"), "{solvers:?}");
    for row in rows {
        let v = &row[col("solver_version")];
        assert!(
            v.starts_with("cadical 3.") || v.starts_with("kissat 4."),
            "{v}"
        );
        assert_eq!(&row[col("status")], "SAT", "{text}");
    }
    let o = run(&["compare", "--n", "8", "--solver", "kissat-lib nope=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown option 'nope'"),
        "{}",
        stderr(&o)
    );
}
