//! The search's certificates (`solve --engine search --proof-format veripb`): every refutation
//! of CSPLib problem 079 instances around their transition is certified and checked by VeriPB,
//! the answers are the recorded ones, `verify-proof --opb` checks a certificate against the
//! OPB that `encode` writes, and forged certificates (another formula, a cut-off conclusion, a
//! clause made stronger) are rejected. The propagator engine's certificates
//! (`solve --engine propagator --proof-format veripb`, its arguments on) get the same checks,
//! and forged ones (a bound's cutting-planes step replaced) are rejected. A chain's
//! refutations by Exact are certified by its proof log, translated to VeriPB's current
//! format, with the same checks.

use crate::common::{propagator_count, recorded, require, run, stderr, stdout};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The parameter file of the CSPLib problem 079 instance `diag-NAME.param` kept in the
/// repository.
fn param(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/csplib-prob079/params")
        .join(format!("diag-{name}.param"))
}

/// `encode --format opb` of the instance with `d` excluded diagonals, with the form the
/// certificates refer to, written to `out`.
fn opb(name: &str, d: usize, out: &Path) {
    let o = run(&[
        "encode".as_ref(),
        "--instance".as_ref(),
        param(name).as_os_str(),
        "--diagonals".as_ref(),
        d.to_string().as_ref(),
        "--format".as_ref(),
        "opb".as_ref(),
        "--redundant".as_ref(),
        "diagonals,sums,moments".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `solve --engine search` with a certificate written to `proof` and checked.
fn certify(name: &str, d: usize, proof: &Path) -> std::process::Output {
    certify_with("search", name, d, proof)
}

/// `solve --engine ENGINE --proof-format veripb` with a certificate written to `proof` and
/// checked.
fn certify_with(engine: &str, name: &str, d: usize, proof: &Path) -> std::process::Output {
    let (file, d) = (param(name), d.to_string());
    let instance: [&OsStr; 4] = [
        "--instance".as_ref(),
        file.as_ref(),
        "--diagonals".as_ref(),
        d.as_ref(),
    ];
    solve_certified(&instance, engine, proof)
}

/// `solve INSTANCE... --engine ENGINE` with a VeriPB certificate written to `proof` and
/// checked, the solution on one line.
fn solve_certified(instance: &[&OsStr], engine: &str, proof: &Path) -> std::process::Output {
    let mut args: Vec<&OsStr> = vec!["solve".as_ref()];
    args.extend_from_slice(instance);
    for a in ["--engine", engine, "--proof"] {
        args.push(a.as_ref());
    }
    args.push(proof.as_os_str());
    for a in [
        "--proof-format",
        "veripb",
        "--check-proof",
        "--format",
        "line",
    ] {
        args.push(a.as_ref());
    }
    run(&args)
}

/// `verify-proof --opb FORMULA PROOF`: (exit code, output).
fn verify(formula: &Path, proof: &Path) -> (i32, String) {
    let o = run(&[
        "verify-proof".as_ref(),
        "--opb".as_ref(),
        formula.as_os_str(),
        proof.as_os_str(),
    ]);
    (
        o.status.code().unwrap_or(-1),
        stdout(&o) + stderr(&o).as_str(),
    )
}

/// `forged` is rejected by `verify-proof --opb` against `formula` (exit 1, `rejected: ...`);
/// it is written to `dir` as LABEL.pbp.
fn assert_rejected(dir: &Path, label: &str, forged: String, formula: &Path) {
    let path = dir.join(format!("{label}.pbp"));
    std::fs::write(&path, forged).unwrap();
    let (code, said) = verify(formula, &path);
    assert_eq!(code, 1, "{label}: {said}");
    assert!(said.starts_with("rejected:"), "{label}: {said}");
}

/// Around each instance's transition (the last satisfiable D and the first three
/// unsatisfiable ones, as recorded), the search's answer is the recorded one; each
/// refutation's certificate is accepted by VeriPB in the solve and again by `verify-proof
/// --opb` against the OPB written by `encode`, and a solution writes no proof.
#[test]
fn the_refutations_around_the_transition_are_certified() {
    let certified = around_the_transitions("search", |_, _| ());
    assert!(certified >= 8, "{certified} refutations certified");
}

/// The same for the propagator engine with its arguments on: each refutation's certificate
/// (CaDiCaL's learned clauses as `rup` steps, the propagator's clauses of the counts, sums
/// and moments and the reasons of the cells their bounds made false, the cutting-planes steps
/// of the bounds) is accepted by VeriPB in the solve and by `verify-proof --opb`, and some of
/// them need the bounds' steps and hold the bounds' propagations.
#[test]
fn the_propagators_refutations_around_the_transition_are_certified() {
    let (mut bounds, mut excluded) = (0, 0);
    let certified = around_the_transitions("propagator", |text, said| {
        bounds += text.lines().filter(|l| l.starts_with("pol ")).count();
        excluded += propagator_count(said, "bound propagations");
    });
    assert!(certified >= 8, "{certified} refutations certified");
    assert!(bounds > 0, "no certificate needed a bound's step");
    assert!(excluded > 0, "no bound propagated");
}

/// `solve --engine propagator` on one of the n = 30 refutations of seed 17 (D = 26..29, which
/// the colour classes refute), its certificate written to `proof` and checked; its OPB form
/// written to `formula`.
fn certify_seed17(d: usize, proof: &Path, formula: &Path) -> std::process::Output {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "docs/results/frontier/n30-refutations/d{d}-seed17.txt"
    ));
    let o = run(&[
        "encode".as_ref(),
        "--instance".as_ref(),
        file.as_os_str(),
        "--format".as_ref(),
        "opb".as_ref(),
        "--redundant".as_ref(),
        "diagonals,sums,moments".as_ref(),
        "-o".as_ref(),
        formula.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    solve_certified(
        &["--instance".as_ref(), file.as_os_str()],
        "propagator",
        proof,
    )
}

/// Certifies seed 17's instance with `d` diagonals ([`certify_seed17`]) in a new temporary
/// folder, which must succeed: the folder, the certificate's and the formula's paths, and the
/// certificate's text.
fn certified_seed17(d: usize) -> (tempfile::TempDir, PathBuf, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let (proof, formula) = (dir.path().join("p.pbp"), dir.path().join("f.opb"));
    let o = certify_seed17(d, &proof, &formula);
    assert!(o.status.success(), "d={d}: {}", stderr(&o));
    let text = std::fs::read_to_string(&proof).unwrap();
    (dir, proof, formula, text)
}

/// The colour classes' refutations are certified: the four n = 30 instances of seed 17
/// (which the propagator refutes by its class clauses, and not within minutes without them)
/// get certificates with the classes' order variables (`red` steps) and their cases, which
/// VeriPB accepts in the solve and `verify-proof --opb` again.
#[test]
fn the_colour_classes_refutations_are_certified() {
    let dir = tempfile::tempdir().unwrap();
    for d in 26..=29 {
        let (proof, formula) = (dir.path().join("p.pbp"), dir.path().join("f.opb"));
        let o = certify_seed17(d, &proof, &formula);
        assert!(o.status.success(), "d={d}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("proof checked: VeriPB"),
            "{}",
            stdout(&o)
        );
        assert!(
            propagator_count(&stderr(&o), "class clauses") > 0,
            "{}",
            stderr(&o)
        );
        let text = std::fs::read_to_string(&proof).unwrap();
        assert!(
            text.contains("\nred ") && text.contains(" 2 d "),
            "d={d}: no class steps"
        );
        let (code, said) = verify(&formula, &proof);
        assert_eq!(code, 0, "d={d}: {said}");
    }
}

/// Forged certificates of the colour classes are rejected: the parity steps without their
/// division by 2 (still sound steps, too weak for the clauses that follow), an order
/// variable (15 queens on colour 0) defined with the wrong witness, and its definition made
/// one stronger.
#[test]
fn forged_certificates_of_the_colour_classes_are_rejected() {
    let (dir, _, formula, text) = certified_seed17(26);
    let rejected = |label: &str, forged: String| {
        assert_ne!(forged, text, "{label}: nothing forged");
        assert_rejected(dir.path(), label, forged, &formula);
    };
    rejected("undivided", text.replace(" 2 d ", " "));
    // The order variable of 15 queens on colour 0 (at most 1 is implied by the form alone:
    // the 29 diagonals of class 1 cannot hold 30 queens).
    let first = text
        .lines()
        .find(|l| l.starts_with("red 15 ~k0ge15 "))
        .unwrap();
    rejected(
        "witness",
        text.replacen(first, &first.replace("-> 0", "-> 1"), 1),
    );
    // `k ~y + K >= k` made `k ~y + K >= k + 1`.
    let k = first.split_once(" >= ").unwrap().1;
    let k: u64 = k.split(' ').next().unwrap().parse().unwrap();
    let stronger = first.replace(&format!(" >= {k} :"), &format!(" >= {} :", k + 1));
    rejected("stronger", text.replacen(first, &stronger, 1));
}

/// Each clause of a bound names its bound's cutting-planes step as its hint: the `rup` step
/// after each `pol` step of the bounds names it, and VeriPB takes a `rup` step's hints as
/// the only constraints it propagates over, so the same clause naming another step (an
/// earlier bound's) is rejected.
#[test]
fn the_bounds_steps_are_their_clauses_hints() {
    let (dir, proof, formula, text) = certified_seed17(28);
    // The id of each rule: after `f N`, every `pol`, `rup` and `red` gives the next id.
    let mut id: u64 = 0;
    let mut steps = Vec::new();
    let mut previous: Option<(u64, &str)> = None;
    for line in text.lines() {
        let word = line.split(' ').next().unwrap_or("");
        if word == "f" {
            id = line.split(' ').nth(1).unwrap().parse().unwrap();
            continue;
        }
        if !matches!(word, "pol" | "rup" | "red") {
            continue;
        }
        id += 1;
        if let (Some((pol, before)), "rup") = (previous, word) {
            if before.starts_with("pol") && !before.contains(" d ") {
                steps.push((pol, line));
            }
        }
        previous = Some((id, line));
    }
    assert!(steps.len() >= 2, "{} bound steps", steps.len());
    for (pol, rup) in &steps {
        let hints = rup.split_once(" : ").map(|(_, h)| h.trim_end_matches(" ;"));
        let hints: Vec<u64> = hints
            .unwrap_or_else(|| panic!("no hints: {rup}"))
            .split(' ')
            .map(|h| h.parse().unwrap())
            .collect();
        assert!(hints.contains(pol), "{rup} does not name step {pol}");
    }
    // The last bound's first clause, naming the first bound's step instead of its own.
    let (first, _) = steps[0];
    let (last, rup) = *steps.last().unwrap();
    let (clause, hints) = rup.split_once(" : ").unwrap();
    let wrong: Vec<String> = hints
        .split(' ')
        .map(|h| match h.parse::<u64>() {
            Ok(h) if h == last => first.to_string(),
            _ => h.to_string(),
        })
        .collect();
    let wrong = wrong.join(" ");
    let forged = text.replacen(rup, &format!("{clause} : {wrong}"), 1);
    assert_ne!(forged, text);
    assert_rejected(dir.path(), "forged", forged, &formula);
    // The certificate itself is accepted.
    let (code, said) = verify(&formula, &proof);
    assert_eq!(code, 0, "{said}");
}

/// Around each instance's transition, certifies every refutation by `engine` (answers as
/// recorded, solutions without a proof), checks each again by `verify-proof --opb`, and hands
/// each certificate's text and what the solve wrote on stderr to `seen`; the number certified.
fn around_the_transitions(engine: &str, mut seen: impl FnMut(&str, &str)) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let mut certified = 0;
    for (name, n, id) in [
        ("10-4-1", "10", "1"),
        ("10-4-778", "10", "778"),
        ("14-4-500", "14", "500"),
    ] {
        let answers = recorded(n, id);
        let first_unsat = answers
            .iter()
            .find(|(_, &sat)| !sat)
            .map(|(&d, _)| d)
            .unwrap();
        for d in first_unsat - 1..first_unsat + 3 {
            let proof = dir.path().join(format!("{name}-{d}.pbp"));
            let o = certify_with(engine, name, d, &proof);
            let out = stdout(&o);
            if answers[&d] {
                assert_eq!(o.status.code(), Some(1), "{name} d={d}: {out}");
                assert!(
                    stderr(&o).contains("no proof of unsatisfiability"),
                    "{}",
                    stderr(&o)
                );
                assert!(
                    !proof.exists(),
                    "{name} d={d}: a proof of a satisfiable instance"
                );
                continue;
            }
            assert!(o.status.success(), "{name} d={d}: {out}{}", stderr(&o));
            assert!(out.contains("proof checked: VeriPB"), "{out}");
            let formula = dir.path().join(format!("{name}-{d}.opb"));
            opb(name, d, &formula);
            let (code, said) = verify(&formula, &proof);
            assert_eq!(code, 0, "{name} d={d}: {said}");
            assert!(said.starts_with("verified:"), "{said}");
            seen(&std::fs::read_to_string(&proof).unwrap(), &stderr(&o));
            certified += 1;
        }
    }
    certified
}

/// A certificate of CSPLib's 14-4-500 at its first unsatisfiable D, made by `make`, and the
/// OPB forms of that instance (`strict`) and of the satisfiable one with a diagonal fewer
/// (`loose`), to forge certificates from.
struct Forgery {
    dir: tempfile::TempDir,
    text: String,
    strict: PathBuf,
    loose: PathBuf,
}

impl Forgery {
    fn of(make: impl Fn(usize, &Path) -> std::process::Output) -> Forgery {
        let dir = tempfile::tempdir().unwrap();
        let answers = recorded("14", "500");
        let first_unsat = answers.iter().find(|(_, &s)| !s).map(|(&d, _)| d).unwrap();
        let proof = dir.path().join("p.pbp");
        let o = make(first_unsat, &proof);
        assert!(o.status.success(), "{}", stderr(&o));
        let (strict, loose) = (dir.path().join("strict.opb"), dir.path().join("loose.opb"));
        opb("14-4-500", first_unsat, &strict);
        opb("14-4-500", first_unsat - 1, &loose);
        assert_eq!(verify(&strict, &proof).0, 0);
        let text = std::fs::read_to_string(&proof).unwrap();
        Forgery {
            dir,
            text,
            strict,
            loose,
        }
    }

    /// The forgeries every certificate must fail: checked against the satisfiable formula
    /// (its header made to count that formula's constraints, so that VeriPB goes on to the
    /// rules), cut before its conclusion, and every clause of two literals or more made
    /// stronger (its first literal left out).
    fn common(&self) {
        let (text, strict, loose) = (&self.text, &self.strict, &self.loose);
        // The header says how many constraints the formula has (an equality counts twice).
        let ids = |f: &Path| -> usize {
            let t = std::fs::read_to_string(f).unwrap();
            t.lines()
                .filter(|l| !l.starts_with('*'))
                .map(|l| if l.contains(" >= ") { 1 } else { 2 })
                .sum()
        };
        assert!(ids(loose) < ids(strict));
        let header_ok = text.replacen(
            &format!("\nf {} ;\n", ids(strict)),
            &format!("\nf {} ;\n", ids(loose)),
            1,
        );
        assert_ne!(&header_ok, text);
        self.rejected("loose", header_ok, loose);
        self.rejected(
            "cut",
            text[..text.find("output NONE").unwrap()].to_string(),
            strict,
        );
        // Every rule still checks, but the proof no longer concludes UNSAT (VeriPB alone
        // accepts it).
        let at = text.find("conclusion UNSAT").unwrap();
        let end = at + text[at..].find(';').unwrap() + 1;
        let none = format!("{}conclusion NONE ;{}", &text[..at], &text[end..]);
        self.rejected("none", none, strict);
        let stronger: Vec<String> = text
            .lines()
            .map(|l| match l.strip_prefix("rup 1 ") {
                Some(rest) if rest.matches(" 1 ").count() >= 1 => {
                    format!("rup {}", &rest[rest.find(" 1 ").unwrap() + 1..])
                }
                _ => l.to_string(),
            })
            .collect();
        self.rejected("stronger", stronger.join("\n") + "\n", strict);
    }

    /// `forged` is rejected by `verify-proof --opb` against `formula` (exit 1).
    fn rejected(&self, label: &str, forged: String, formula: &Path) {
        assert_rejected(self.dir.path(), label, forged, formula);
    }
}

/// Forged certificates are rejected by `verify-proof --opb` (exit 1): a refutation checked
/// against the formula of a satisfiable instance (the same board with fewer diagonals
/// excluded), the proof cut off before its conclusion, a conclusion that names a constraint of
/// the formula, the conclusion made `NONE` (every rule still checks), and the clauses of the proof made stronger (a decision left out of each).
#[test]
fn forged_certificates_are_rejected() {
    let f = Forgery::of(|d, proof| certify("14-4-500", d, proof));
    f.common();
    let (text, strict) = (&f.text, &f.strict);
    let forge = |label: &str, forged: String, formula: &Path| f.rejected(label, forged, formula);
    let at = text.find("conclusion UNSAT : ").unwrap();
    forge(
        "conclusion",
        format!(
            "{}conclusion UNSAT : 1 ;\nend pseudo-Boolean proof ;\n",
            &text[..at]
        ),
        strict,
    );
}

/// Forged certificates of the propagator are rejected: against the formula of the
/// satisfiable instance with a diagonal fewer, cut before the conclusion, the bounds' steps
/// replaced by copies of the sums' and moments' constraints (the bounds' clauses then no
/// longer follow), the clauses made stronger (each its first literal left out), and the hints
/// replaced by a row's constraint.
#[test]
fn forged_certificates_of_the_propagator_are_rejected() {
    let f = Forgery::of(|d, proof| certify_with("propagator", "14-4-500", d, proof));
    f.common();
    let text = &f.text;
    // `pol S C t * + ...` made `pol S` (a copy of the sum's or the moments' constraint, the
    // ids unchanged): the bounds' clauses no longer follow by unit propagation.
    let copies: Vec<String> = text
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            match w.as_slice() {
                ["pol", s, rest @ ..] if rest.contains(&"*") => format!("pol {s} ;"),
                _ => l.to_string(),
            }
        })
        .collect();
    let copies = copies.join("\n") + "\n";
    assert!(&copies != text, "no bound's step to forge");
    f.rejected("copies", copies, &f.strict);
    // Every step's hints replaced by the first row's constraint alone.
    let hints: Vec<String> = text
        .lines()
        .map(|l| match l.split_once(" >= 1 : ") {
            Some((head, _)) if l.starts_with("rup ") => format!("{head} >= 1 : 1 ;"),
            _ => l.to_string(),
        })
        .collect();
    let hints = hints.join("\n") + "\n";
    assert!(&hints != text, "no hints to forge");
    f.rejected("hints", hints, &f.strict);
}

/// The proof options of the search: any format but veripb is refused, as are veripb with the
/// SAT engine, `--threads` above 1 and `--proof-format` without a proof (exit 2, before any
/// work); a proof target that exists is left as it was when the instance has a solution.
#[test]
fn the_search_refuses_what_its_proofs_cannot_be() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.pbp");
    let p = proof.to_str().unwrap();
    for (args, says) in [
        (
            vec![
                "solve",
                "6",
                "--engine",
                "search",
                "--proof",
                p,
                "--proof-format",
                "drat",
            ],
            "VeriPB format",
        ),
        (
            vec!["solve", "3", "--proof", p, "--proof-format", "veripb"],
            "--engine search",
        ),
        (
            vec![
                "solve",
                "3",
                "--engine",
                "search",
                "--check-proof",
                "--threads",
                "2",
            ],
            "one thread",
        ),
        (
            vec![
                "solve",
                "3",
                "--engine",
                "search",
                "--proof-format",
                "veripb",
            ],
            "--proof FILE or --check-proof",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(!proof.exists());
    }
    std::fs::write(&proof, "kept\n").unwrap();
    let o = run(&["solve", "8", "--engine", "search", "--proof", p]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&proof).unwrap(), "kept\n");
    // Standard input is not a file VeriPB can read.
    let o = run(&["verify-proof", "--opb", "-", p]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `solve --engine CHAIN` with a certificate written to `proof` and checked.
fn certify_by(chain: &str, name: &str, d: usize, proof: &Path) -> std::process::Output {
    run(&[
        "solve".as_ref(),
        "--instance".as_ref(),
        param(name).as_os_str(),
        "--diagonals".as_ref(),
        d.to_string().as_ref(),
        "--engine".as_ref(),
        chain.as_ref(),
        "--proof".as_ref(),
        proof.as_os_str(),
        "--check-proof".as_ref(),
        "--format".as_ref(),
        "line".as_ref(),
    ])
}

/// Exact (the PyPI package) as the first stage of a chain refutes the instances past their
/// transition, as recorded, and each refutation's certificate (Exact's proof log in VeriPB's
/// format 1.1, translated) is accepted by VeriPB in the solve and again by `verify-proof
/// --opb` against `encode`'s OPB; a solution writes no proof; the search as the stage that
/// refutes writes its own certificate.
#[test]
fn a_chains_refutations_by_exact_are_certified() {
    if !require("exact") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut certified = 0;
    for (name, n, id) in [("10-4-778", "10", "778"), ("14-4-500", "14", "500")] {
        let answers = recorded(n, id);
        let first_unsat = answers.iter().find(|(_, &s)| !s).map(|(&d, _)| d).unwrap();
        for d in first_unsat - 1..first_unsat + 2 {
            let proof = dir.path().join(format!("{name}-{d}.pbp"));
            let o = certify_by("exact@60+search", name, d, &proof);
            let (out, err) = (stdout(&o), stderr(&o));
            if answers[&d] {
                assert_eq!(o.status.code(), Some(1), "{name} d={d}: {out}{err}");
                assert!(err.contains("no proof of unsatisfiability"), "{err}");
                assert!(!proof.exists(), "{name} d={d}: a proof of a solution");
                continue;
            }
            assert!(o.status.success(), "{name} d={d}: {out}{err}");
            assert!(out.contains("refuted by exact"), "{out}");
            assert!(out.contains("Exact's proof log"), "{out}");
            assert!(out.contains("proof checked: VeriPB"), "{out}");
            let formula = dir.path().join(format!("{name}-{d}.opb"));
            opb(name, d, &formula);
            let (code, said) = verify(&formula, &proof);
            assert_eq!(code, 0, "{name} d={d}: {said}");
            certified += 1;
        }
    }
    assert_eq!(certified, 4);
    let proof = dir.path().join("by-search.pbp");
    let o = certify_by("search@60+exact", "14-4-500", 26, &proof);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("refuted by search"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("VeriPB by the search"),
        "{}",
        stdout(&o)
    );
}

/// Forged certificates made from Exact's refutation are rejected by `verify-proof --opb`: the
/// refutation against the formula of the satisfiable instance with one diagonal fewer, the
/// log translated as if the formula had one constraint fewer (every id off by one), the
/// proof without its last derivation, and the contradiction claimed at a formula constraint.
#[test]
fn forged_certificates_from_exacts_log_are_rejected() {
    if !require("exact") {
        return;
    }
    let f = Forgery::of(|d, proof| certify_by("exact@60+search", "14-4-500", d, proof));
    let (text, strict, loose) = (&f.text, &f.strict, &f.loose);
    let forge = |label: &str, forged: String, formula: &Path| f.rejected(label, forged, formula);
    forge("loose", text.clone(), loose);
    // Every id past the formula's one lower, as a translation with the wrong count would be.
    let shifted: Vec<String> = text
        .lines()
        .map(|l| match l.strip_prefix("pol ") {
            // Not the loads, `pol I ;`, whose ids are the formula's.
            Some(rest) if rest.split_whitespace().count() > 2 => {
                let toks: Vec<&str> = rest.split_whitespace().collect();
                let moved: Vec<String> = toks
                    .iter()
                    .enumerate()
                    .map(|(k, t)| match t.parse::<u64>() {
                        Ok(i) if !matches!(toks.get(k + 1), Some(&"*") | Some(&"d")) => {
                            (i - 1).to_string()
                        }
                        _ => t.to_string(),
                    })
                    .collect();
                format!("pol {}", moved.join(" "))
            }
            _ => l.to_string(),
        })
        .collect();
    assert_ne!(&(shifted.join("\n") + "\n"), text);
    forge("shifted", shifted.join("\n") + "\n", strict);
    let at = text.find("output NONE").unwrap();
    let last = text[..at - 1].rfind('\n').unwrap() + 1;
    forge("short", format!("{}{}", &text[..last], &text[at..]), strict);
    let at = text.find("conclusion UNSAT : ").unwrap();
    forge(
        "conclusion",
        format!(
            "{}conclusion UNSAT : 1 ;\nend pseudo-Boolean proof ;\n",
            &text[..at]
        ),
        strict,
    );
}

/// A chain with a proof: every stage must be one that writes proofs (the search, Exact), the
/// format is VeriPB's, and the search certifies on one thread (exit 2, before any work).
#[test]
fn a_chain_refuses_what_its_proofs_cannot_be() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.pbp");
    let p = proof.to_str().unwrap();
    for (args, says) in [
        (
            vec!["solve", "6", "--engine", "search+varisat", "--proof", p],
            "writes no proof",
        ),
        (
            vec![
                "solve",
                "6",
                "--engine",
                "search+search",
                "--proof",
                p,
                "--proof-format",
                "drat",
            ],
            "VeriPB certificates",
        ),
        (
            vec![
                "solve",
                "6",
                "--engine",
                "search+search",
                "--check-proof",
                "--threads",
                "2",
            ],
            "one thread",
        ),
        (
            vec![
                "solve",
                "6",
                "--engine",
                "search+search",
                "--proof-format",
                "veripb",
            ],
            "--proof FILE or --check-proof",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(!proof.exists());
    }
}

/// `compare --certify`: every refutation of the search, of a chain that starts with Exact and
/// of the propagator is certified and accepted by VeriPB (the rows' `certified`,
/// `certificate_bytes` and `check_s`), the answers are the recorded ones, solutions are not
/// certified, the table of the certificates counts them; a merged file with a rejected certificate fails (exit 1) and
/// names it; solvers that write no certificates and formula files are refused (exit 2).
#[test]
fn compare_certifies_every_refutation() {
    if !require("exact") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("c.csv");
    let answers = recorded("14", "500");
    let first_unsat = answers.iter().find(|(_, &s)| !s).map(|(&d, _)| d).unwrap();
    let ds = format!("{}..{}", first_unsat - 1, first_unsat + 1);
    let o = run(&[
        "compare".as_ref(),
        "--instance".as_ref(),
        param("14-4-500").as_os_str(),
        "--diagonals".as_ref(),
        ds.as_ref(),
        "--solver".as_ref(),
        "search,exact@5+search,propagator".as_ref(),
        "--amo".as_ref(),
        "pairwise".as_ref(),
        "--redundant".as_ref(),
        "diagonals,sums,moments".as_ref(),
        "--repeat".as_ref(),
        "1".as_ref(),
        "--certify".as_ref(),
        "--csv".as_ref(),
        csv.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Certificates of the refutations"),
        "{}",
        stdout(&o)
    );
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let head = reader.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let (value, status, certified, bytes, by, solver) = (
        col("value"),
        col("status"),
        col("certified"),
        col("certificate_bytes"),
        col("decided_by"),
        col("solver"),
    );
    let mut accepted = 0;
    let (mut by_exact, mut by_propagator) = (0, 0);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 9);
    for r in &rows {
        let d: usize = r[value].rsplit("d=").next().unwrap().parse().unwrap();
        let sat = answers[&d];
        assert_eq!(&r[status], if sat { "SAT" } else { "UNSAT" }, "{r:?}");
        if sat {
            assert_eq!(&r[certified], "", "{r:?}");
            continue;
        }
        assert_eq!(&r[certified], "accepted", "{r:?}");
        assert!(r[bytes].parse::<u64>().unwrap() > 0, "{r:?}");
        accepted += 1;
        by_exact += usize::from(&r[by] == "exact");
        by_propagator += usize::from(&r[solver] == "propagator");
    }
    assert_eq!((accepted, by_exact, by_propagator), (6, 2, 2));
    let table = run(&[
        "compare".as_ref(),
        "--merge".as_ref(),
        csv.as_os_str(),
        "--table".as_ref(),
        "certificates".as_ref(),
    ]);
    assert!(table.status.success(), "{}", stderr(&table));
    let lines: Vec<String> = stdout(&table).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(
        lines[2..].iter().all(|l| l.contains("| 2 | 2 | 0 | 0 |")),
        "{lines:?}"
    );
    // A certificate that VeriPB rejected fails the report and is named.
    let text = std::fs::read_to_string(&csv).unwrap();
    let forged = dir.path().join("forged.csv");
    std::fs::write(
        &forged,
        text.replacen(",accepted", ",rejected: VeriPB rejects line 9", 1),
    )
    .unwrap();
    let o = run(&["compare".as_ref(), "--merge".as_ref(), forged.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not certified: rejected"),
        "{}",
        stderr(&o)
    );
    // What cannot be certified is refused before any run.
    let opb = dir.path().join("q.opb");
    assert!(run(&[
        "encode",
        "4",
        "--format",
        "opb",
        "-o",
        opb.to_str().unwrap()
    ])
    .status
    .success());
    for (args, says) in [
        (
            vec![
                "compare",
                "--n",
                "4",
                "--solver",
                "cadical-lib",
                "--certify",
            ],
            "writes no certificate",
        ),
        (
            vec![
                "compare",
                "--n",
                "4",
                "--solver",
                "search+varisat",
                "--certify",
            ],
            "writes no certificate",
        ),
        (
            vec![
                "compare",
                "--instance",
                opb.to_str().unwrap(),
                "--solver",
                "exact",
                "--certify",
            ],
            "not of formula files",
        ),
        (
            vec![
                "compare",
                "--n",
                "4",
                "--solver",
                "search",
                "--table",
                "certificates",
            ],
            "no row has a certificate",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}
