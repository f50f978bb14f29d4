//! Proofs of unsatisfiability: `solve --proof FILE` and `--check-proof`, from the embedded
//! solver and from CaDiCaL, checked by the crate's two checkers (its own and VeriPB) and by
//! the tests' own plain checker ([`crate::oracle`]); corrupted proofs rejected by all; bad
//! inputs refused without leaving a file behind.

use crate::common::{bin, require, run, spawn, status, stderr, stdout};
use std::path::{Path, PathBuf};

/// An UNSAT case: its name and the arguments that select it.
struct Case {
    name: &'static str,
    args: Vec<String>,
}

/// n = 2, n = 3, an impossible partial board, and two impossible family instances (a
/// completion drawn at random that has no completion, and the toroidal 8 x 8 board), written
/// with `generate` into `dir`.
fn cases(dir: &Path) -> Vec<Case> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let completion = dir.join("completion.txt");
    let o = run(&[
        "generate",
        "completion",
        "12",
        "--k",
        "4",
        "--mode",
        "random",
        "--seed",
        "4",
        "-o",
        completion.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let torus = dir.join("torus.txt");
    let o = run(&["generate", "toroidal", "8", "-o", torus.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    vec![
        Case {
            name: "n2",
            args: s(&["2"]),
        },
        Case {
            name: "n3",
            args: s(&["3"]),
        },
        Case {
            name: "partial",
            args: s(&["8", "--place", "1,1", "--place", "2,3"]),
        },
        Case {
            name: "completion",
            args: s(&["--instance", completion.to_str().unwrap()]),
        },
        Case {
            name: "torus",
            args: s(&["--instance", torus.to_str().unwrap()]),
        },
    ]
}

fn with(args: &[String], more: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = args.to_vec();
    v.extend(more.iter().map(|x| x.to_string()));
    v
}

/// Writes the case's CNF (for the oracle).
fn cnf_of(case: &Case, dir: &Path) -> PathBuf {
    let cnf = dir.join(format!("{}.cnf", case.name));
    let mut a = vec!["encode".to_string()];
    a.extend(with(&case.args, &["-o", cnf.to_str().unwrap()]));
    let o = run(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    cnf
}

/// `queens-sat solve ARGS --proof FILE --check-proof`, expected to succeed.
fn prove(case: &Case, proof: &Path, solver: Option<&str>) -> String {
    let mut a = vec!["solve".to_string()];
    a.extend(with(
        &case.args,
        &["--proof", proof.to_str().unwrap(), "--check-proof"],
    ));
    if let Some(s) = solver {
        a.extend(["--solver".to_string(), s.to_string()]);
    }
    let o = run(&a);
    assert_eq!(o.status.code(), Some(0), "{}: {}", case.name, stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("no solution exists"), "{out}");
    assert!(
        out.contains(
            "checked by: the DRAT checker of queens-sat (accepted), VeriPB 3.0.2 (accepted)"
        ),
        "{}: {out}",
        case.name
    );
    out
}

/// The crate's checker on a proof file, the formula built by the library from the case's
/// arguments.
fn ours(case: &Case, proof: &Path) -> bool {
    let inst = instance_of(case);
    let f = std::fs::File::open(proof).unwrap();
    match queens_sat::solve::check_proof(&inst, f, &Default::default()) {
        Ok(c) => c.verified(),
        Err(_) => false,
    }
}

fn instance_of(case: &Case) -> queens_sat::instance::Instance {
    use queens_sat::instance::{Instance, Model};
    if case.args[0] == "--instance" {
        let text = std::fs::read_to_string(&case.args[1]).unwrap();
        let spec = queens_sat::family::InstanceSpec::parse(&text).unwrap();
        return spec.instance_with(Model::default(), &[], &[]).unwrap();
    }
    let n: usize = case.args[0].parse().unwrap();
    let place: Vec<(usize, usize)> = case.args[1..]
        .chunks(2)
        .map(|c| queens_sat::input::parse_cell(&c[1]).unwrap())
        .collect();
    Instance::new(n, Model::default())
        .unwrap()
        .with_cells(&place, &[])
        .unwrap()
}

/// Corrupted copies of a text proof, by kind: each lemma removed (from the last), each
/// lemma's first literal negated (from the first), and every lemma removed (only the empty
/// clause left).
fn corruptions(proof: &str) -> Vec<(&'static str, usize, String)> {
    let lines: Vec<&str> = proof.lines().collect();
    let lemma = |l: &str| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('d') && !t.starts_with('c') && t != "0"
    };
    let at: Vec<usize> = (0..lines.len()).filter(|&i| lemma(lines[i])).collect();
    let mut v = Vec::new();
    for &i in at.iter().rev() {
        let mut c = lines.clone();
        c.remove(i);
        v.push(("removed", i + 1, c.join("\n") + "\n"));
    }
    for &i in &at {
        let mut c: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let mut toks: Vec<String> = c[i].split_whitespace().map(String::from).collect();
        toks[0] = (-toks[0].parse::<i64>().unwrap()).to_string();
        c[i] = toks.join(" ");
        v.push(("negated", i + 1, c.join("\n") + "\n"));
    }
    v.push(("all lemmas removed", 0, "0\n".to_string()));
    v
}

#[test]
fn embedded_proofs_are_accepted_by_both_checkers_and_corruptions_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let all = cases(dir.path());
    for case in &all {
        let proof = dir.path().join(format!("{}.drat", case.name));
        prove(case, &proof, None);
        assert!(ours(case, &proof), "{}", case.name);
        let text = std::fs::read_to_string(&proof).unwrap();
        let cnf = cnf_of(case, dir.path());
        assert!(
            crate::oracle::check_files(&cnf, &proof),
            "{}: the oracle rejects",
            case.name
        );
        // Corruptions, tried in turn until one of each kind breaks the proof (a removed or
        // changed lemma may be redundant): both checkers give the same verdict on every one
        // tried, and removing every lemma is always rejected.
        let mut broken: Vec<&str> = Vec::new();
        for (kind, line, bad) in corruptions(&text) {
            if broken.contains(&kind) {
                continue;
            }
            let p = dir.path().join(format!("{}-bad.drat", case.name));
            std::fs::write(&p, &bad).unwrap();
            let (a, b) = (ours(case, &p), crate::oracle::check_files(&cnf, &p));
            assert_eq!(
                a, b,
                "{}: line {line} {kind}: the checkers disagree",
                case.name
            );
            if !a {
                broken.push(kind);
            }
        }
        assert!(broken.contains(&"all lemmas removed"), "{}", case.name);
        if !["n2", "n3"].contains(&case.name) {
            // Longer proofs: a single removed lemma and a single changed literal break them.
            assert_eq!(broken.len(), 3, "{}: {broken:?}", case.name);
        }
        eprintln!("{}: rejected corruptions: {broken:?}", case.name);
    }
    // A proof of a different formula: n = 3's proof does not prove n = 2 ... or an impossible
    // board of n = 8.
    let p3 = dir.path().join("n3.drat");
    let partial = all.iter().find(|c| c.name == "partial").unwrap();
    assert!(!ours(partial, &p3));
    let cnf = cnf_of(partial, dir.path());
    assert!(!crate::oracle::check_files(&cnf, &p3));
}

#[test]
fn cadical_proofs_are_checked_by_both() {
    if !require("cadical") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for case in &cases(dir.path()) {
        // Binary (cadical's default), read by our checker.
        let bin = dir.path().join(format!("{}.bin.drat", case.name));
        let out = prove(case, &bin, Some("cadical"));
        assert!(out.contains("binary DRAT"), "{out}");
        assert!(ours(case, &bin));
        // Text, for the oracle too.
        let txt = dir.path().join(format!("{}.txt.drat", case.name));
        let out = prove(case, &txt, Some("cadical --no-binary"));
        assert!(out.contains("text DRAT"), "{out}");
        let cnf = cnf_of(case, dir.path());
        assert!(crate::oracle::check_files(&cnf, &txt), "{}", case.name);
        // A truncated binary proof: a parse error (or a rejection), never a panic.
        let bytes = std::fs::read(&bin).unwrap();
        if bytes.len() > 2 {
            let cut = dir.path().join("cut.drat");
            std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
            let inst = instance_of(case);
            match queens_sat::solve::check_proof(
                &inst,
                std::fs::File::open(&cut).unwrap(),
                &Default::default(),
            ) {
                Err(e) => assert!(e.to_string().contains("truncated"), "{e}"),
                Ok(c) => assert!(!c.verified()),
            }
        }
    }
}

#[test]
fn truncated_binary_proof_is_a_parse_error() {
    let inst =
        queens_sat::instance::Instance::new(3, queens_sat::instance::Model::default()).unwrap();
    let e = queens_sat::solve::check_proof(
        &inst,
        &[b'a', 2, 4, 0, b'a', 0x82][..],
        &Default::default(),
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("byte 6") && msg.contains("truncated"), "{msg}");
}

#[test]
fn bad_inputs_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let listing = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    // Unwritable targets: refused before solving, exit 2.
    let missing = dir.path().join("no-such-folder").join("p.drat");
    let o = run(&["solve", "3", "--proof", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no folder"), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1);
    assert!(stdout(&o).is_empty());
    let o = run(&["solve", "3", "--proof", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("directory"), "{}", stderr(&o));
    // A satisfiable instance: the solution, a message, exit 1, the old file untouched.
    let keep = dir.path().join("keep.drat");
    std::fs::write(&keep, "old contents\n").unwrap();
    let o = run(&[
        "solve",
        "6",
        "--format",
        "line",
        "--proof",
        keep.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).split_whitespace().count(), 6, "{}", stdout(&o));
    assert!(stderr(&o).contains("has a solution"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "old contents\n");
    let fresh = dir.path().join("fresh.drat");
    let o = run(&[
        "solve",
        "6",
        "--proof",
        fresh.to_str().unwrap(),
        "--check-proof",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(listing(dir.path()), vec!["keep.drat".to_string()]);
    // Enumeration and a proof: a usage error.
    for bad in ["--all", "--count"] {
        let o = run(&["solve", "3", bad, "--proof", fresh.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
    }
    // A solver that cannot write proofs: refused before running, naming those that can.
    let o = run(&[
        "solve",
        "3",
        "--solver",
        "minisat",
        "--proof",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cadical, kissat"), "{}", stderr(&o));
    assert_eq!(listing(dir.path()), vec!["keep.drat".to_string()]);
    // An existing file is replaced only by a complete, checked proof.
    let o = run(&[
        "solve",
        "3",
        "--proof",
        keep.to_str().unwrap(),
        "--check-proof",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&keep).unwrap().ends_with("0\n"));
    assert_eq!(listing(dir.path()), vec!["keep.drat".to_string()]);
}

#[test]
fn check_proves_its_unsat_answers() {
    let o = run(&["check", "--n", "2..3", "--amo", "pairwise,sequential"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.matches("UNSAT proved (DRAT, ").count(), 4, "{out}");
    assert!(out.contains("checked by the DRAT checker of queens-sat and VeriPB"));
}

#[test]
fn an_interrupted_proof_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let torus = dir.path().join("t14.txt");
    let o = run(&["generate", "toroidal", "14", "-o", torus.to_str().unwrap()]);
    assert!(o.status.success());
    let proof = dir.path().join("big.drat");
    // The 14 x 14 torus takes many seconds: stopped with SIGTERM while the proof is written.
    let child = spawn(
        bin()
            .args(["solve", "--instance", torus.to_str().unwrap(), "--proof"])
            .arg(&proof)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped()),
    );
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed =
        status(std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]));
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("was not written"), "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("t14.txt")]);
}

/// `verify-proof` with its arguments, standard input from `stdin`: the exit code, stdout and
/// stderr, within 60 s (a command that reads without bound fails here instead of hanging).
fn verify_proof_with(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    use std::io::Write;
    let mut cmd = bin();
    cmd.arg("verify-proof").args(args);
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = spawn(&mut cmd);
    let mut input = child.stdin.take().unwrap();
    let data = stdin.unwrap_or_default().to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let o = crate::common::wait_bounded(child, std::time::Duration::from_secs(60));
    feeder.join().unwrap();
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

#[test]
fn endless_and_malformed_formulas_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("x.drat");
    std::fs::write(&proof, "0\n").unwrap();
    let p = proof.to_str().unwrap();
    // /dev/zero: a NUL byte is no text; refused at the first bytes, in both argument orders.
    for args in [vec!["/dev/zero", p], vec!["--cnf", "/dev/zero", p]] {
        let (code, out, err) = verify_proof_with(&args, None);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains("/dev/zero is not valid DIMACS"), "{err}");
        assert!(err.contains("not a text line"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // An endless stream of clauses after `p cnf 1 1`: the reading stops at the first clause
    // past the header's count.
    let sh = format!(
        "(echo 'p cnf 1 1'; yes '1 0') | {} verify-proof --cnf /dev/stdin {p}",
        crate::common::BIN
    );
    let o = crate::common::output_within(
        std::process::Command::new("sh").args(["-c", &sh]),
        std::time::Duration::from_secs(60),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 3: the 'p cnf' line says 1 clauses, and more follow"),
        "{}",
        stderr(&o)
    );
    // `sat` on /dev/zero and on too many clauses.
    let o = run(&["sat", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a text line"), "{}", stderr(&o));
    let extra = dir.path().join("extra.cnf");
    std::fs::write(&extra, "p cnf 2 1\n1 0\n-2 0\n").unwrap();
    let o = run(&["sat", extra.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("and more follow"), "{}", stderr(&o));
}

#[test]
fn verify_proof_takes_both_argument_orders_and_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("q3.cnf");
    assert!(run(&["encode", "3", "-o", cnf.to_str().unwrap()])
        .status
        .success());
    let proof = dir.path().join("q3.drat");
    let o = run(&["solve", "3", "--proof", proof.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (c, p) = (cnf.to_str().unwrap(), proof.to_str().unwrap());
    let (code, first, _) = verify_proof_with(&[c, p], None);
    assert_eq!(code, 0, "{first}");
    let (code, out, _) = verify_proof_with(&["--cnf", c, p], None);
    assert_eq!((code, &out), (0, &first));
    // The proof, then the formula, from standard input.
    let bytes = std::fs::read(&proof).unwrap();
    let (code, out, err) = verify_proof_with(&[c, "-"], Some(&bytes));
    assert_eq!((code, &out), (0, &first), "{err}");
    let formula = std::fs::read(&cnf).unwrap();
    let (code, out, err) = verify_proof_with(&["-", p], Some(&formula));
    assert_eq!((code, &out), (0, &first), "{err}");
    // Both from standard input, three files, --cnf with two: usage errors, one line each.
    for args in [
        vec!["-", "-"],
        vec![c, p, p],
        vec!["--cnf", c, c, p],
        vec![c],
    ] {
        let (code, out, err) = verify_proof_with(&args, None);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty());
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_formula_refuted_by_unit_propagation_needs_no_proof() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("f.cnf");
    std::fs::write(&cnf, "p cnf 2 3\n1 0\n-1 2 0\n-2 0\n").unwrap();
    let proof = dir.path().join("p.drat");
    std::fs::write(&proof, "1 2 0\nd 1 2 0\n-2 1 0\n0\n").unwrap();
    let (code, out, err) =
        verify_proof_with(&[cnf.to_str().unwrap(), proof.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(
            "verified: text DRAT proof, refuted by unit propagation; the proof's 4 steps were not needed\n"
        ),
        "{out}"
    );
    assert!(out.contains("VeriPB 3.0.2 (accepted)"), "{out}");
    // A malformed proof is still refused: it is read all the same.
    std::fs::write(&proof, "1 2 0\n1 x 0\n").unwrap();
    let (code, _, err) = verify_proof_with(&[cnf.to_str().unwrap(), proof.to_str().unwrap()], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2") && err.contains("'x'"), "{err}");
}

/// Kissat writes its proof by path into a temporary folder of its own: SIGTERM during the
/// proof removes that folder too, not only the proof file being staged.
#[test]
fn an_interrupted_kissat_proof_leaves_no_folder() {
    let dir = tempfile::tempdir().unwrap();
    let torus = dir.path().join("t14.txt");
    let o = run(&["generate", "toroidal", "14", "-o", torus.to_str().unwrap()]);
    assert!(o.status.success());
    // The child's own temporary folder, to see everything it makes there.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let child = spawn(
        bin()
            .env("TMPDIR", &tmp)
            .args(["solve", "--instance", torus.to_str().unwrap()])
            .args(["--backend", "kissat", "--check-proof"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped()),
    );
    // The 14 x 14 torus takes Kissat many seconds.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // The folders made there by then: Kissat's.
    let during: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name())
        .collect();
    let killed =
        status(std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]));
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    // Kissat's folder was there while it ran (else the test proves nothing).
    assert!(!during.is_empty(), "no folder while Kissat ran");
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left in the temporary folder: {left:?}");
}
