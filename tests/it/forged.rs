//! Tests that the checkers do not lie: forged proofs of satisfiable formulas (the defect's
//! reproductions, RAT after the deletion of a reason, deleted clauses used again, wrong LRAT
//! hints, proofs of another formula, truncated and reordered proofs) are never accepted, by
//! `verify-proof`, by `solve --check-proof` from a lying solver, or by the library; and
//! thousands of random mutations of real proofs (varisat, CaDiCaL, Kissat; DRAT and LRAT) of
//! small satisfiable and unsatisfiable formulas get from the library's DRAT checker exactly
//! the verdict of the plain checker of the tests ([`crate::oracle`]), and are accepted by
//! either checker only when the formula has no model (every assignment tried).

use crate::common::{run, script, stderr, stdout};
use crate::oracle::{self, brute_force_sat, Step};
use queens_sat::cnf::{Cnf, Lit};
use queens_sat::proof::{check, CheckOptions, Opinion, OwnCheck, ProofError, Verdict};
use queens_sat::solve::{Backend, ProofFormat, Prover};
use std::path::Path;

/// The library's verdict on a proof, VeriPB on LRAT too; an error for a malformed proof.
fn try_verdict(clauses: &[Vec<i64>], proof: &[u8]) -> Result<Verdict, ProofError> {
    let options = CheckOptions {
        veripb_on_lrat: true,
        ..CheckOptions::default()
    };
    check(&to_cnf(clauses), 0, proof, &options)
}

/// [`try_verdict`] of a well-formed proof.
fn verdict(clauses: &[Vec<i64>], proof: &[u8]) -> Verdict {
    try_verdict(clauses, proof).unwrap_or_else(|e| panic!("{e}"))
}

fn cnf_text(clauses: &[Vec<i64>]) -> String {
    let vars = clauses
        .iter()
        .flatten()
        .map(|l| l.unsigned_abs())
        .max()
        .unwrap_or(0);
    let mut s = format!("p cnf {vars} {}\n", clauses.len());
    for c in clauses {
        for l in c {
            s.push_str(&format!("{l} "));
        }
        s.push_str("0\n");
    }
    s
}

/// `verify-proof CNF PROOF` in both argument orders: the exit code and the output, the same
/// in both.
fn verify_proof(dir: &Path, cnf: &str, proof: &[u8]) -> (i32, String) {
    let f = dir.join("f.cnf");
    let p = dir.join("p.proof");
    std::fs::write(&f, cnf).unwrap();
    std::fs::write(&p, proof).unwrap();
    let a = run(&["verify-proof", f.to_str().unwrap(), p.to_str().unwrap()]);
    let b = run(&[
        "verify-proof",
        "--cnf",
        f.to_str().unwrap(),
        p.to_str().unwrap(),
    ]);
    assert_eq!(stdout(&a), stdout(&b));
    assert_eq!(a.status.code(), b.status.code());
    assert!(stderr(&a).is_empty(), "{}", stderr(&a));
    (a.status.code().unwrap_or(-1), stdout(&a))
}

#[test]
fn the_defects_reproductions_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    // A satisfiable one-clause formula and 4-queens (2 solutions), text and binary proofs.
    let one = "p cnf 1 1\n1 0\n";
    let b = "-2 -1 0\nd -2 -1 0\n2 0\n0\n";
    let q4 = dir.path().join("q4.cnf");
    let o = run(&["encode", "4", "-o", q4.to_str().unwrap()]);
    assert!(o.status.success());
    let q4 = std::fs::read_to_string(&q4).unwrap();
    let c = "100 0\n-101 -100 0\nd -101 -100 0\n101 0\n0\n";
    for (cnf, proof) in [(one, b), (q4.as_str(), c)] {
        for bytes in [
            proof.as_bytes().to_vec(),
            oracle::binary(&oracle::parse(proof)),
        ] {
            let (code, out) = verify_proof(dir.path(), cnf, &bytes);
            assert_eq!(code, 1, "{out}");
            assert!(out.starts_with("rejected: "), "{out}");
            assert!(
                out.contains("checked by: the DRAT checker of queens-sat (rejected), VeriPB"),
                "{out}"
            );
            assert!(!out.contains("verified"), "{out}");
        }
    }
}

#[test]
fn a_lying_solver_gets_no_proof_checked() {
    // A solver named like CaDiCaL (so that it is asked for a proof) that says UNSATISFIABLE
    // on 3-queens, rightly, but writes a forged proof: the deletion trick of the defect.
    let dir = tempfile::tempdir().unwrap();
    let liar = script(
        dir.path(),
        "cadical-liar",
        "printf -- '100 0\\n-101 -100 0\\nd -101 -100 0\\n101 0\\n0\\n' > \"$2\"\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let proof = dir.path().join("p.drat");
    let o = run(&[
        "solve",
        "3",
        "--solver",
        liar.to_str().unwrap(),
        "--proof",
        proof.to_str().unwrap(),
        "--check-proof",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("does not check") && stderr(&o).contains("no proof written"),
        "{}",
        stderr(&o)
    );
    assert!(!proof.exists());
    // The same solver's proof without --check-proof is written, and said to be unchecked.
    let o = run(&[
        "solve",
        "3",
        "--solver",
        liar.to_str().unwrap(),
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("not checked here"), "{}", stdout(&o));
}

/// n-queens (the reference model), as DIMACS clauses.
fn queens(n: &str) -> Vec<Vec<i64>> {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("q.cnf");
    let o = run(&["encode", n, "-o", f.to_str().unwrap()]);
    assert!(o.status.success());
    oracle::read_cnf(&std::fs::read_to_string(&f).unwrap())
}

#[test]
fn forged_proofs_of_satisfiable_formulas_are_never_accepted() {
    let f = |v: &[&[i64]]| v.iter().map(|c| c.to_vec()).collect::<Vec<_>>();
    // (1 2) (-1 2) (1 -2): satisfiable (1 and 2 true) but one clause short of refuted.
    let three = f(&[&[1, 2], &[-1, 2], &[1, -2]]);
    let q4 = queens("4");
    let cases: Vec<(&str, Vec<Vec<i64>>, String)> = vec![
        ("the empty clause alone", three.clone(), "0\n".into()),
        (
            "RAT after the deletion of a reason",
            f(&[&[1]]),
            "-2 -1 0\nd -2 -1 0\n2 0\n0\n".into(),
        ),
        (
            "a unit reason deleted, then its negation by RAT",
            f(&[&[1, 2], &[-1]]),
            "d 1 2 0\n-2 0\n0\n".into(),
        ),
        (
            "a deleted clause used again",
            three.clone(),
            "2 0\nd 1 2 0\nd 2 0\n-2 0\n0\n".into(),
        ),
        (
            "a lemma on a fresh variable both ways",
            three.clone(),
            "3 0\n-3 0\n0\n".into(),
        ),
        (
            "the lemmas of another formula (n = 3) on n = 4",
            q4.clone(),
            String::from_utf8(proof_of(&queens("3"), Backend::Varisat, ProofFormat::Drat)).unwrap(),
        ),
        (
            "units claimed without a reason",
            q4.clone(),
            "1 0\n-2 0\n-3 0\n-4 0\n0\n".into(),
        ),
        (
            "deletions of every clause, then the empty clause",
            three.clone(),
            "d 1 2 0\nd -1 2 0\nd 1 -2 0\n0\n".into(),
        ),
    ];
    for (name, clauses, proof) in &cases {
        assert!(
            brute_force_sat(clauses),
            "{name}: the formula must be satisfiable"
        );
        for bytes in [
            proof.as_bytes().to_vec(),
            oracle::binary(&oracle::parse(proof)),
        ] {
            let v = verdict(clauses, &bytes);
            assert!(!v.verified(), "{name}: accepted: {v}");
            assert!(!v.own.verified(), "{name}: {v}");
            assert_ne!(v.veripb, Opinion::Accepted, "{name}: VeriPB accepts");
            assert!(
                !oracle::check(clauses, &oracle::parse(proof)).verified(),
                "{name}"
            );
        }
    }
    // Truncated and reordered real proofs of n = 3, against n = 3 minus one clause (so that
    // every one of them is a proof of a satisfiable formula) and against n = 3 itself (where
    // the verdict must be the oracle's).
    let q3 = queens("3");
    let proof = proof_of(&q3, Backend::Varisat, ProofFormat::Drat);
    let steps = oracle::parse(std::str::from_utf8(&proof).unwrap());
    let mut variants: Vec<Vec<Step>> = Vec::new();
    for k in 0..steps.len() {
        variants.push(steps[..k].to_vec());
        let mut r = steps.clone();
        r.swap(k, (k + 1) % steps.len());
        variants.push(r);
        let mut r = steps.clone();
        r.reverse();
        variants.push(r);
    }
    let weaker: Vec<Vec<i64>> = q3
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 0)
        .map(|(_, c)| c.clone())
        .collect();
    assert!(brute_force_sat(&weaker));
    for v in &variants {
        let text = oracle::text(v);
        let ours = verdict(&weaker, text.as_bytes());
        assert!(
            !ours.verified() && ours.veripb != Opinion::Accepted,
            "{text}"
        );
        let ours = verdict(&q3, text.as_bytes());
        assert_eq!(
            ours.own.verified(),
            oracle::check(&q3, v).verified(),
            "{text}"
        );
    }
}

/// A real proof of an unsatisfiable formula, by an embedded solver.
fn proof_of(clauses: &[Vec<i64>], backend: Backend, format: ProofFormat) -> Vec<u8> {
    let vars = clauses.iter().flatten().map(|l| l.abs()).max().unwrap_or(0);
    Prover::new(backend, format)
        .and_then(|p| p.prove_clauses(&to_cnf(clauses), vars as usize, Vec::new()))
        .unwrap()
        .expect("unsatisfiable")
}

fn to_cnf(c: &[Vec<i64>]) -> Cnf {
    c.iter()
        .map(|c| {
            c.iter()
                .map(|&l| Lit::from_dimacs(l as isize))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn forged_lrat_proofs_are_never_accepted() {
    let f = |v: &[&[i64]]| v.iter().map(|c| c.to_vec()).collect::<Vec<_>>();
    let three = f(&[&[1, 2], &[-1, 2], &[1, -2]]);
    let four = f(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]);
    let good = "5 2 0 1 2 0\n6 0 5 3 4 0\n";
    assert!(verdict(&four, good.as_bytes()).verified());
    let forged = [
        ("a hint that is not unit", "5 2 0 1 0\n6 0 5 3 4 0\n"),
        ("hints out of order", "5 2 0 1 2 0\n6 0 3 5 4 0\n"),
        (
            "a hint to a deleted clause",
            "5 2 0 1 2 0\n5 d 3 0\n6 0 5 3 4 0\n",
        ),
        ("a hint to no clause", "5 2 0 1 2 0\n6 0 5 3 9 0\n"),
        (
            "an id used twice",
            "5 2 0 1 2 0\n5 -2 0 3 4 0\n6 0 5 3 4 0\n",
        ),
        ("the empty clause without hints", "5 0 0\n"),
        (
            "a RAT lemma without its groups",
            "5 -1 0 -1 0\n6 0 5 1 2 0\n",
        ),
        (
            "a deletion of an unknown id",
            "5 2 0 1 2 0\n5 d 77 0\n6 0 5 3 4 0\n",
        ),
    ];
    for (name, proof) in forged {
        // Against the unsatisfiable four clauses: rejected by the LRAT checker.
        let v = verdict(&four, proof.as_bytes());
        assert!(!v.own.verified(), "{name}: {v}");
        assert!(!v.verified(), "{name}: {v}");
        // Against the satisfiable three: rejected by both.
        let v = verdict(&three, proof.as_bytes());
        assert!(
            !v.verified() && v.veripb != Opinion::Accepted,
            "{name}: {v}"
        );
    }
}

/// A small random number generator (SplitMix64) for reproducible mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A random 3-SAT formula over `vars` variables with `clauses` clauses.
fn random_3sat(rng: &mut Rng, vars: u64, clauses: usize) -> Vec<Vec<i64>> {
    (0..clauses)
        .map(|_| {
            let mut c: Vec<i64> = Vec::new();
            while c.len() < 3 {
                let v = (rng.next() % vars + 1) as i64;
                if c.iter().all(|l| l.abs() != v) {
                    c.push(if rng.next() & 1 == 1 { v } else { -v });
                }
            }
            c
        })
        .collect()
}

/// The pigeonhole formula: `p` pigeons in `h` holes.
fn pigeonhole(p: i64, h: i64) -> Vec<Vec<i64>> {
    let x = |i: i64, j: i64| i * h + j + 1;
    let mut out: Vec<Vec<i64>> = (0..p).map(|i| (0..h).map(|j| x(i, j)).collect()).collect();
    for j in 0..h {
        for a in 0..p {
            for b in a + 1..p {
                out.push(vec![-x(a, j), -x(b, j)]);
            }
        }
    }
    out
}

/// One random change to a proof: a step removed, duplicated, moved or turned into its
/// opposite kind, a literal negated or replaced (by another variable, possibly a fresh
/// one), a random clause added or deleted, the proof cut short.
fn mutate(rng: &mut Rng, steps: &[Step], vars: i64) -> Vec<Step> {
    let mut s = steps.to_vec();
    if s.is_empty() {
        return vec![Step::Lemma(vec![])];
    }
    let k = rng.below(s.len());
    let lit = |rng: &mut Rng| {
        let v = (rng.next() % (vars as u64 + 2) + 1) as i64;
        if rng.next() & 1 == 1 {
            v
        } else {
            -v
        }
    };
    match rng.below(9) {
        0 => {
            s.remove(k);
        }
        1 => {
            let x = s[k].clone();
            s.insert(rng.below(s.len() + 1), x);
        }
        2 => {
            let x = s.remove(k);
            s.insert(rng.below(s.len() + 1), x);
        }
        3 => {
            s[k] = match &s[k] {
                Step::Lemma(l) => Step::Delete(l.clone()),
                Step::Delete(l) => Step::Lemma(l.clone()),
            }
        }
        4 | 5 => {
            let l = match &mut s[k] {
                Step::Lemma(l) | Step::Delete(l) => l,
            };
            if !l.is_empty() {
                let i = rng.below(l.len());
                l[i] = if rng.next() & 1 == 1 { -l[i] } else { lit(rng) };
            }
        }
        6 => {
            let c: Vec<i64> = (0..1 + rng.below(3)).map(|_| lit(rng)).collect();
            s.insert(rng.below(s.len() + 1), Step::Lemma(c));
        }
        7 => {
            let c: Vec<i64> = (0..1 + rng.below(3)).map(|_| lit(rng)).collect();
            s.insert(rng.below(s.len() + 1), Step::Delete(c));
        }
        _ => s.truncate(k),
    }
    s
}

/// Small unsatisfiable formulas, each with a satisfiable relative (a clause left out).
fn formulas() -> Vec<(String, Vec<Vec<i64>>)> {
    let mut rng = Rng(49);
    let mut out = vec![
        ("n = 3".to_string(), queens("3")),
        ("pigeonhole 4/3".to_string(), pigeonhole(4, 3)),
        ("pigeonhole 3/2".to_string(), pigeonhole(3, 2)),
    ];
    let mut found = 0;
    while found < 3 {
        let f = random_3sat(&mut rng, 10, 60);
        if !brute_force_sat(&f) {
            out.push((format!("random 3-SAT #{found}"), f));
            found += 1;
        }
    }
    out
}

/// A satisfiable relative: the formula without its first clause whose removal makes it
/// satisfiable.
fn relative(f: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    (0..f.len()).find_map(|k| {
        let g: Vec<Vec<i64>> = f
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, c)| c.clone())
            .collect();
        brute_force_sat(&g).then_some(g)
    })
}

#[test]
fn random_mutations_of_real_proofs_agree_with_the_oracle_and_never_prove_a_satisfiable_formula() {
    let mut rng = Rng(2026);
    let mut backends = vec![Backend::Varisat];
    for b in [Backend::Cadical, Backend::Kissat] {
        if b.is_available() {
            backends.push(b);
        }
    }
    let (mut checked, mut accepted, mut disagreements) = (0u64, 0u64, Vec::new());
    for (name, f) in formulas() {
        let vars = f.iter().flatten().map(|l| l.abs()).max().unwrap();
        let weaker = relative(&f).expect("a satisfiable relative");
        for &backend in &backends {
            let proof = proof_of(&f, backend, ProofFormat::Drat);
            let steps = oracle::parse(std::str::from_utf8(&proof).unwrap());
            // The real proof: accepted on the formula, by everyone; rejected on the relative.
            let v = verdict(&f, &proof);
            assert!(v.verified(), "{name} {backend}: {v}");
            assert!(oracle::check(&f, &steps).verified(), "{name} {backend}");
            assert!(!verdict(&weaker, &proof).verified(), "{name} {backend}");
            for round in 0..120 {
                let mut m = mutate(&mut rng, &steps, vars);
                if round % 3 == 0 {
                    m = mutate(&mut rng, &m, vars);
                }
                let text = oracle::text(&m);
                for (formula, sat) in [(&f, false), (&weaker, true)] {
                    let v = verdict(formula, text.as_bytes());
                    let o = oracle::check(formula, &m);
                    checked += 1;
                    assert_eq!(
                        v.own.verified(),
                        o.verified(),
                        "{name} {backend} (satisfiable: {sat}): ours {v}, oracle {o:?}\n{text}"
                    );
                    if sat {
                        assert!(
                            !v.verified() && v.veripb != Opinion::Accepted,
                            "{name}: {v}\n{text}"
                        );
                    }
                    if v.veripb == Opinion::Accepted {
                        assert!(!brute_force_sat(formula), "{name}: VeriPB accepts\n{text}");
                    }
                    if v.disagree() {
                        disagreements.push(format!("{name} {backend}: {v}\n{text}"));
                    }
                    accepted += u64::from(v.verified());
                    // Binary DRAT: the same verdict.
                    if round % 10 == 0 {
                        let b = verdict(formula, &oracle::binary(&m));
                        assert_eq!(b.own.verified(), v.own.verified(), "{name}\n{text}");
                    }
                }
            }
        }
    }
    eprintln!(
        "{checked} mutated DRAT proofs checked, {accepted} accepted (all of unsatisfiable formulas); \
         the checkers disagreed on {}",
        disagreements.len()
    );
    assert!(checked >= 2000);
    assert!(
        disagreements.is_empty(),
        "{}",
        disagreements.join("\n---\n")
    );
}

#[test]
fn random_mutations_of_lrat_proofs_never_prove_a_satisfiable_formula() {
    if !Backend::Cadical.is_available() {
        return;
    }
    let mut rng = Rng(51);
    let (mut checked, mut accepted) = (0u64, 0u64);
    for (name, f) in formulas() {
        let weaker = relative(&f).unwrap();
        let proof = proof_of(&f, Backend::Cadical, ProofFormat::Lrat);
        let text = String::from_utf8(proof).unwrap();
        let v = verdict(&f, text.as_bytes());
        assert!(v.verified() && v.veripb == Opinion::Accepted, "{name}: {v}");
        let lines: Vec<Vec<i64>> = text
            .lines()
            .map(|l| {
                l.split_whitespace()
                    .filter_map(|t| t.parse().ok())
                    .collect()
            })
            .collect();
        for _ in 0..150 {
            let mut m = lines.clone();
            let k = rng.below(m.len());
            let len = m[k].len();
            match rng.below(4) {
                0 => {
                    m.remove(k);
                }
                // A number of the line changed (an id, a literal or a hint).
                1 | 2 if len > 2 => {
                    let i = 1 + rng.below(len - 2);
                    m[k][i] = if rng.next() & 1 == 1 {
                        -m[k][i]
                    } else {
                        m[k][i] + 1 + rng.below(3) as i64
                    };
                }
                _ => {
                    let j = rng.below(m.len());
                    m.swap(k, j);
                }
            }
            let mutated: String = m
                .iter()
                .map(|l| {
                    l.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                        + "\n"
                })
                .collect::<String>();
            for (formula, sat) in [(&f, false), (&weaker, true)] {
                // A malformed line is a read error: not a verdict, and not an acceptance.
                let Ok(v) = try_verdict(formula, mutated.as_bytes()) else {
                    continue;
                };
                checked += 1;
                if sat {
                    assert!(
                        !v.verified() && v.veripb != Opinion::Accepted,
                        "{name}: {v}"
                    );
                }
                if v.verified() {
                    accepted += 1;
                    assert!(matches!(v.own, OwnCheck::Lrat(_)));
                    assert_eq!(v.veripb, Opinion::Accepted, "{name}: {v}");
                }
                if v.veripb == Opinion::Accepted {
                    assert!(!brute_force_sat(formula), "{name}");
                }
            }
        }
    }
    eprintln!("{checked} mutated LRAT proofs checked, {accepted} accepted");
    assert!(checked >= 500);
}

#[test]
fn the_cnf_of_a_proof_must_be_the_one_it_was_written_for() {
    // A proof of n = 3 checked against a formula file where one clause was changed.
    let dir = tempfile::tempdir().unwrap();
    let q3 = queens("3");
    let proof = proof_of(&q3, Backend::Varisat, ProofFormat::Drat);
    let mut changed = q3.clone();
    changed[0].pop();
    changed[0].push(9);
    let sat = brute_force_sat(&changed);
    let (code, out) = verify_proof(dir.path(), &cnf_text(&changed), &proof);
    if sat {
        assert_eq!(code, 1, "{out}");
    }
    let (code, out) = verify_proof(dir.path(), &cnf_text(&q3), &proof);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("verified: text DRAT proof, "), "{out}");
}
