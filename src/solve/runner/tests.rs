//! The runner's outcomes, with real solvers (CaDiCaL, MiniSat, when on PATH) and small shell
//! scripts standing in for solvers that lie, crash, hang or print too much.

use super::*;
use crate::instance::Model;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

fn board(n: usize) -> Instance {
    Instance::new(n, Model::default()).unwrap()
}

/// An executable shell script `name` with `body` in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> SolverCommand {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    SolverCommand {
        program: p,
        args: Vec::new(),
        result_file: false,
    }
}

/// `true` when `program` is on PATH; says so when it is not (the test is then skipped).
fn have(program: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()));
    if !found {
        eprintln!("SKIPPED: {program} not on PATH");
    }
    found
}

/// The checked run `solve --solver` makes on `inst`.
fn checked<'a>(solver: &'a SolverCommand, inst: &'a Instance) -> RunRequest<'a> {
    RunRequest::new(solver, CnfInput::instance(inst, Some("test")))
        .verify(inst)
        .unsat(UnsatCheck::Refute(inst))
}

#[test]
fn a_false_unsat_claim_is_refuted_and_a_true_one_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let liar = script(dir.path(), "unsat.sh", "echo 's UNSATISFIABLE'\n");
    // The empty board of n = 8: refuted by the construction.
    let inst = board(8);
    let r = run(&checked(&liar, &inst)).unwrap();
    let Outcome::Unsat {
        verdict: UnsatVerdict::Refuted(p),
        proof: None,
    } = &r.outcome
    else {
        panic!("{r:?}")
    };
    assert!(crate::board::is_solution(p));
    // A partial board with completions: refuted by the embedded solver.
    let placed = board(8).with_cells(&[(0, 0)], &[]).unwrap();
    let r = run(&checked(&liar, &placed)).unwrap();
    assert!(
        matches!(&r.outcome, Outcome::Unsat { verdict: UnsatVerdict::Refuted(p), .. } if p.col(0) == 0),
        "{r:?}"
    );
    // n = 3 has no solution.
    let inst = board(3);
    let r = run(&checked(&liar, &inst)).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Unsat {
            verdict: UnsatVerdict::Confirmed,
            proof: None
        }
    );
    assert_eq!(r.failure(), None);
    // Known to have solutions: wrong without solving; trusted: taken as given.
    let inst = board(6);
    let known =
        RunRequest::new(&liar, CnfInput::instance(&inst, None)).unsat(UnsatCheck::KnownSatisfiable);
    let r = run(&known).unwrap();
    assert!(matches!(
        r.outcome,
        Outcome::Unsat {
            verdict: UnsatVerdict::KnownSatisfiable,
            ..
        }
    ));
    let r = run(&RunRequest::new(&liar, CnfInput::instance(&inst, None))).unwrap();
    assert!(matches!(
        r.outcome,
        Outcome::Unsat {
            verdict: UnsatVerdict::Unchecked,
            ..
        }
    ));
}

#[test]
fn a_wrong_model_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // Every cell true: every at-most-one clause is false.
    let all: String = (1..=16).map(|v| format!("{v} ")).collect();
    let liar = script(
        dir.path(),
        "sat.sh",
        &format!("echo 's SATISFIABLE'\necho 'v {all}0'\n"),
    );
    let inst = board(4);
    let r = run(&checked(&liar, &inst)).unwrap();
    let Outcome::WrongModel { model, report } = &r.outcome else {
        panic!("{r:?}")
    };
    assert_eq!(model.max_var(), 16);
    assert!(report.board.is_err() && report.cnf.is_err(), "{report:?}");
    // Unchecked, the same model is simply SAT.
    let r = run(&RunRequest::new(&liar, CnfInput::instance(&inst, None))).unwrap();
    assert!(matches!(r.outcome, Outcome::Sat { verified: None, .. }));
}

#[test]
fn a_crash_an_unreadable_answer_and_unknown_are_failures() {
    let dir = tempfile::tempdir().unwrap();
    let inst = board(5);
    let crash = script(dir.path(), "crash.sh", "echo 'oops' >&2\nkill -SEGV $$\n");
    let r = run(&checked(&crash, &inst)).unwrap();
    let Outcome::Failed(
        f @ SolverFailure::Unreadable {
            exit_code: None, ..
        },
    ) = &r.outcome
    else {
        panic!("{r:?}")
    };
    let msg = f.to_string();
    assert!(
        msg.contains("exit code none, killed by a signal") && msg.ends_with("; stderr: oops"),
        "{msg}"
    );
    assert_eq!(r.failure().as_deref(), Some(msg.as_str()));
    let garbage = script(dir.path(), "garbage.sh", "echo 'hello'\nexit 3\n");
    let r = run(&checked(&garbage, &inst)).unwrap();
    let Outcome::Failed(f) = &r.outcome else {
        panic!("{r:?}")
    };
    assert_eq!(r.exit_code, Some(3));
    assert!(f.to_string().contains("(exit code 3)"), "{f}");
    assert!(!f.reason().contains("exit code"), "{}", f.reason());
    let unknown = script(dir.path(), "unknown.sh", "echo 's UNKNOWN'\n");
    assert_eq!(
        run(&checked(&unknown, &inst)).unwrap().outcome,
        Outcome::Unknown
    );
}

#[test]
fn a_hanging_solver_times_out_and_too_much_output_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let inst = board(5);
    let hang = script(dir.path(), "hang.sh", "sleep 1000 &\nwait\n");
    let start = std::time::Instant::now();
    let limit = Duration::from_millis(300);
    let r = run(&checked(&hang, &inst).timeout(Some(limit))).unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(r.outcome, Outcome::Timeout { limit });
    assert_eq!(
        r.failure().unwrap(),
        format!(
            "'{}' gave no answer within 0.3 s and was stopped",
            r.program
        )
    );
    let flood = script(dir.path(), "flood.sh", "head -c 50000000 /dev/zero\n");
    let r = run(&checked(&flood, &inst)).unwrap();
    let Outcome::Failed(f @ SolverFailure::OutputTooLarge { .. }) = &r.outcome else {
        panic!("{r:?}")
    };
    assert!(f.to_string().contains("solver output exceeds"), "{f}");
}

#[test]
fn runs_that_cannot_be_made_are_errors() {
    let inst = board(4);
    let missing = SolverCommand::parse("no-such-solver-xyz").unwrap();
    let e = run(&checked(&missing, &inst)).unwrap_err();
    assert!(matches!(e, RunError::Process(_)));
    assert!(e.to_string().contains("not found"), "{e}");
    let minisat = SolverCommand::parse("minisat").unwrap();
    let proof = ProofRequest {
        path: Path::new("/nonexistent/p.drat"),
        check: None,
    };
    let e = run(&checked(&minisat, &inst).proof(Some(proof))).unwrap_err();
    assert!(matches!(e, RunError::NoProof { .. }), "{e}");
}

#[test]
fn statistics_and_files_and_clauses() {
    let dir = tempfile::tempdir().unwrap();
    let stats = script(
        dir.path(),
        "stats.sh",
        "echo 'c conflicts:   12   3.0 per second'\necho 'c decisions: 7'\necho 's UNSATISFIABLE'\n",
    );
    let cnf = dir.path().join("f.cnf");
    std::fs::write(&cnf, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
    let r = run(&RunRequest::new(&stats, CnfInput::File(&cnf))).unwrap();
    assert_eq!((r.conflicts, r.decisions), (Some(12), Some(7)));
    assert_eq!(r.exit_code, Some(0));
    // Clauses in memory are written with the variable count given.
    let echo = script(dir.path(), "echo.sh", "grep '^p' \"$1\" >&2\nexit 1\n");
    let mut clauses = Cnf::new();
    clauses.add_clause(&[crate::cnf::pos(3)]).unwrap();
    let input = CnfInput::Clauses {
        cnf: &clauses,
        vars: 5,
        comments: vec!["x".into()],
    };
    let r = run(&RunRequest::new(&echo, input)).unwrap();
    let Outcome::Failed(SolverFailure::Unreadable { stderr, .. }) = &r.outcome else {
        panic!("{r:?}")
    };
    assert_eq!(stderr.as_deref(), Some("p cnf 5 1"));
}

#[test]
fn statistics_lines_are_read() {
    let cadical = "c conflicts:                  1234       5.00 per second\nc decisions:  99 x";
    assert_eq!(statistic(cadical, "conflicts"), Some(1234));
    assert_eq!(statistic(cadical, "decisions"), Some(99));
    let minisat = "conflicts             : 17             (1700 /sec)\n";
    assert_eq!(statistic(minisat, "conflicts"), Some(17));
    assert_eq!(statistic("nothing", "conflicts"), None);
}

#[test]
fn unsat_claims_are_refuted() {
    assert!(refute_unsat(&board(3)).unwrap().is_none());
    let p = refute_unsat(&board(1000)).unwrap().unwrap();
    assert!(crate::board::is_solution(&p));
    let placed = board(8).with_cells(&[(0, 0)], &[]).unwrap();
    let p = refute_unsat(&placed).unwrap().unwrap();
    assert_eq!(p.col(0), 0);
    let dead = board(4).with_cells(&[(0, 0), (1, 2)], &[]).unwrap();
    assert!(refute_unsat(&dead).unwrap().is_none());
}

#[test]
fn real_solvers_are_checked() {
    for name in ["cadical", "minisat"] {
        if !have(name) {
            continue;
        }
        let solver = SolverCommand::parse(name).unwrap();
        let inst = board(10);
        let r = run(&checked(&solver, &inst)).unwrap();
        let Outcome::Sat {
            verified: Some(v), ..
        } = &r.outcome
        else {
            panic!("{name}: {r:?}")
        };
        assert!(crate::board::is_solution(&v.placement));
        assert_eq!(v.clauses, inst.size().clauses as usize);
        let inst = board(3);
        let r = run(&checked(&solver, &inst)).unwrap();
        assert!(matches!(
            r.outcome,
            Outcome::Unsat {
                verdict: UnsatVerdict::Confirmed,
                ..
            }
        ));
    }
}

#[test]
fn a_real_proof_is_checked() {
    if !have("cadical") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("p.drat");
    let solver = SolverCommand::parse("cadical").unwrap();
    let inst = board(3);
    let proof = ProofRequest {
        path: &path,
        check: Some(&inst),
    };
    let r = run(&checked(&solver, &inst).proof(Some(proof))).unwrap();
    let Outcome::Unsat {
        verdict: UnsatVerdict::Confirmed,
        proof: Some(check),
    } = &r.outcome
    else {
        panic!("{r:?}")
    };
    assert!(check.verified(), "{check}");
    // A proof that does not prove anything: the empty file.
    let empty = script(
        dir.path(),
        "cadical-empty",
        "echo 's UNSATISFIABLE'\n: > \"$2\"\n",
    );
    let r = run(&checked(&empty, &inst).proof(Some(proof))).unwrap();
    let Outcome::Unsat {
        proof: Some(check), ..
    } = &r.outcome
    else {
        panic!("{r:?}")
    };
    assert!(!check.verified());
}
