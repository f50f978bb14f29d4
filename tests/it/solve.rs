//! Embedded solving and enumeration, through the library and the real binary.
//!
//! Oracles: the published counts (OEIS A000170, the reference table in nqueens.md), the
//! independent board check, and filtering the unconstrained enumeration for partial boards.

use crate::common::*;

use queens_sat::board::{check_placement, is_solution};
use queens_sat::encode::{Amo, EncodeOptions, LineEncodings};
use queens_sat::instance::{Instance, InstanceError, Model};
use queens_sat::solve::{
    count_solutions, parse_solver_answer, solutions, solve, verify_assignment, Enumeration,
    SolverAnswer,
};
use queens_sat::Placement;
use std::collections::BTreeSet;

/// The settings of a test, made into an instance for each board size.
#[derive(Clone, Default)]
struct Cfg {
    options: EncodeOptions,
    place: Vec<(usize, usize)>,
    forbid: Vec<(usize, usize)>,
}

impl Cfg {
    fn with_placed(place: &[(usize, usize)]) -> Self {
        Cfg {
            place: place.to_vec(),
            ..Default::default()
        }
    }
    fn validate(&self, n: usize) -> Result<Instance, InstanceError> {
        Instance::new(n, Model::cells(self.options))?.with_cells(&self.place, &self.forbid)
    }
    fn at(&self, n: usize) -> Instance {
        self.validate(n).unwrap()
    }
}

fn all(n: usize, cfg: &Cfg) -> Vec<Placement> {
    solutions(&cfg.at(n))
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

#[test]
fn every_model_is_valid_and_counts_match_the_table() {
    let cfg = Cfg::default();
    for n in 1..=10 {
        let sols = all(n, &cfg);
        for p in &sols {
            assert_eq!(p.n(), n);
            check_placement(p).unwrap_or_else(|v| panic!("n={n}: {p}: {v}"));
        }
        let distinct: BTreeSet<_> = sols.iter().collect();
        assert_eq!(distinct.len(), sols.len(), "n={n}: a board found twice");
        assert_eq!(sols.len() as u64, published_total(n), "n={n}");
        assert_eq!(
            count_solutions(&cfg.at(n)).unwrap(),
            published_total(n),
            "n={n}"
        );
    }
}

/// Every at-most-one encoding the encoder offers, uniform and mixed with pairwise: auxiliary
/// variables must never change the number of boards.
#[test]
fn counts_do_not_depend_on_the_encoding() {
    for amo in Amo::all() {
        let mixed = LineEncodings {
            rows: amo,
            ..LineEncodings::default()
        };
        for amo_lines in [LineEncodings::uniform(amo), mixed] {
            for column_alo in [false, true] {
                let cfg = Cfg {
                    options: EncodeOptions {
                        amo: amo_lines,
                        column_alo,
                    },
                    ..Default::default()
                };
                for n in 1..=8 {
                    assert_eq!(
                        count_solutions(&cfg.at(n)).unwrap(),
                        published_total(n),
                        "n={n} {amo_lines} column_alo={column_alo}"
                    );
                    if let Some(m) = queens_sat::solve::solve_model(&cfg.at(n)).unwrap() {
                        let rep = verify_assignment(&cfg.at(n), &m.assignment).unwrap();
                        assert!(rep.is_ok(), "n={n} {amo_lines}: {rep:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn split_depths_and_threads_agree_with_the_table() {
    let cfg = Cfg::default();
    for n in [9, 10, 11] {
        for k in 0..=4 {
            for t in [1, 2] {
                let c = Enumeration::new(cfg.at(n))
                    .split_rows(k)
                    .threads(t)
                    .count(|_| {})
                    .unwrap();
                assert_eq!(c, published_total(n), "n={n} k={k} t={t}");
            }
        }
    }
}

#[test]
fn two_and_three_are_unsat() {
    let cfg = Cfg::default();
    for n in [2, 3] {
        assert!(solve(&cfg.at(n)).unwrap().is_none());
        assert_eq!(count_solutions(&cfg.at(n)).unwrap(), 0);
        for format in ["board", "line"] {
            let o = run(&["solve", &n.to_string(), "--format", format]);
            assert_eq!(o.status.code(), Some(0));
            assert_eq!(stdout(&o).trim(), format!("no solution exists for n = {n}"));
        }
        let o = run(&["solve", &n.to_string(), "--format", "competition"]);
        assert_eq!(o.status.code(), Some(20));
        assert!(stdout(&o).lines().any(|l| l == "s UNSATISFIABLE"));
        let o = run(&["solve", &n.to_string(), "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["satisfiable"], false);
    }
}

/// Completions of a partial board are exactly the solutions that contain it, found by
/// filtering the unconstrained enumeration; cells no solution uses give UNSAT.
#[test]
fn placed_queens_and_forbidden_cells() {
    for n in [5, 6, 7, 8] {
        let free = all(n, &Cfg::default());
        let mut incompletable = 0;
        for r in 0..n {
            for c in 0..n {
                let cfg = Cfg::with_placed(&[(r, c)]);
                let got: BTreeSet<_> = all(n, &cfg).into_iter().collect();
                let want: BTreeSet<_> = free.iter().filter(|p| p.col(r) == c).cloned().collect();
                assert_eq!(got, want, "n={n} place ({r},{c})");
                assert!(got.iter().all(|p| p.col(r) == c));
                if want.is_empty() {
                    incompletable += 1;
                    assert!(solve(&cfg.at(n)).unwrap().is_none(), "n={n} ({r},{c})");
                }
                let cfg = Cfg {
                    forbid: vec![(r, c)],
                    ..Default::default()
                };
                let got = count_solutions(&cfg.at(n)).unwrap();
                let want = free.iter().filter(|p| p.col(r) != c).count() as u64;
                assert_eq!(got, want, "n={n} forbid ({r},{c})");
            }
        }
        if n == 6 {
            // n = 6 has 4 solutions and 36 cells: most cells are in none.
            assert!(incompletable > 0);
        }
    }
}

/// Pairs of non-attacking queens that no solution contains: UNSAT, also from the command line.
#[test]
fn incompletable_pairs_are_unsat() {
    let n = 8;
    let free = all(n, &Cfg::default());
    let mut checked = 0;
    'outer: for a in 0..n * n {
        for b in a + 1..n * n {
            let (pa, pb) = ((a / n, a % n), (b / n, b % n));
            let cfg = Cfg::with_placed(&[pa, pb]);
            if cfg.validate(n).is_err() {
                continue; // attacking pairs are input errors, tested elsewhere
            }
            let completable = free
                .iter()
                .any(|p| p.col(pa.0) == pa.1 && p.col(pb.0) == pb.1);
            if completable {
                continue;
            }
            assert!(solve(&cfg.at(n)).unwrap().is_none());
            if checked < 3 {
                let place_a = format!("{},{}", pa.0 + 1, pa.1 + 1);
                let place_b = format!("{},{}", pb.0 + 1, pb.1 + 1);
                let args = [
                    "solve",
                    "8",
                    "--place",
                    &place_a,
                    "--place",
                    &place_b,
                    "--format",
                    "competition",
                ];
                let o = run(&args);
                assert_eq!(o.status.code(), Some(20), "{}", stderr(&o));
                let o = run(&args[..6]);
                assert_eq!(o.status.code(), Some(0));
                assert!(stdout(&o).starts_with("no solution exists for n = 8 with queens on"));
            }
            checked += 1;
            if checked >= 40 {
                break 'outer;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn cli_one_solution_in_every_format() {
    let o = run(&["solve", "8"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let grid: Vec<&str> = text.lines().filter(|l| l.starts_with(['Q', '.'])).collect();
    assert_eq!(grid.len(), 8);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("one-line: "))
        .expect("one-line form");
    let p = Placement::parse_one_line(line, Some(8)).unwrap();
    assert!(is_solution(&p));
    for (r, row) in grid.iter().enumerate() {
        assert_eq!(row.split(' ').position(|c| c == "Q"), Some(p.col(r)));
    }

    let o = run(&["solve", "8", "--format", "line"]);
    assert!(is_solution(
        &Placement::parse_one_line(&stdout(&o), Some(8)).unwrap()
    ));

    let o = run(&["solve", "8", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let cols: Vec<u32> = v["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as u32 - 1)
        .collect();
    assert!(is_solution(&Placement::new(cols)));
}

#[test]
fn cli_competition_format() {
    let o = run(&["solve", "40", "--format", "competition"]);
    assert_eq!(o.status.code(), Some(10));
    let text = stdout(&o);
    assert!(text.lines().all(|l| l.len() <= 4096));
    assert!(text.lines().filter(|l| l.starts_with("v ")).count() > 1);
    let SolverAnswer::Sat(a) = parse_solver_answer(&text).unwrap().0 else {
        panic!("not SAT")
    };
    let rep = verify_assignment(&Cfg::default().at(40), &a).unwrap();
    assert!(rep.is_ok(), "{rep:?}");
}

#[test]
fn cli_all_count_limit() {
    let o = run(&["solve", "10", "--all", "--format", "line"]);
    assert_eq!(o.status.code(), Some(0));
    let lines: BTreeSet<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 724);
    for l in &lines {
        assert!(is_solution(
            &Placement::parse_one_line(l, Some(10)).unwrap()
        ));
    }
    let o = run(&["solve", "10", "--count"]);
    assert_eq!(stdout(&o).trim(), "724");
    let o = run(&["solve", "10", "--count", "--limit", "100"]);
    assert_eq!(stdout(&o).trim(), "100");
    let o = run(&["solve", "10", "--limit", "5", "--format", "line"]);
    assert_eq!(stdout(&o).lines().count(), 5);
    let o = run(&["solve", "6", "--all"]);
    assert_eq!(stdout(&o).matches("one-line: ").count(), 4);
    assert!(stdout(&o).trim_end().ends_with("4 solutions for n = 6"));
    let o = run(&["solve", "8", "--all", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["count"], 92);
    assert_eq!(v["solutions"].as_array().unwrap().len(), 92);
    let o = run(&[
        "solve",
        "11",
        "--count",
        "--split-rows",
        "0",
        "--threads",
        "1",
    ]);
    assert_eq!(stdout(&o).trim(), "2680");
    // Completions of a partial board, listed.
    let o = run(&["solve", "8", "--all", "--place", "1,1", "--format", "line"]);
    let sols: Vec<Placement> = stdout(&o)
        .lines()
        .map(|l| Placement::parse_one_line(l, Some(8)).unwrap())
        .collect();
    assert!(!sols.is_empty());
    assert!(sols.iter().all(|p| p.col(0) == 0 && is_solution(p)));
}

#[test]
fn cli_bad_input_gets_one_line_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "8", "--place", "9,1"], "(9,1)"),
        (&["solve", "8", "--forbid", "1,9"], "(1,9)"),
        (
            &["solve", "8", "--place", "1,1", "--place", "3,3"],
            "(1,1) and (3,3)",
        ),
        (
            &["solve", "8", "--place", "2,2", "--forbid", "2,2"],
            "(2,2)",
        ),
        (&["solve", "8", "--place", "0,1"], "numbered from 1"),
        (&["solve", "8", "--place", "x"], "not a cell"),
        (
            &["solve", "8", "--all", "--format", "competition"],
            "competition",
        ),
        (&["solve", "0"], "at least 1"),
        (&["solve", "8", "--limit", "0"], "--limit"),
        (&["solve", "8", "--amo", "nonsense"], "nonsense"),
    ];
    for (args, needle) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

/// Options that do not go together are refused on the command line, naming them (the
/// library's request cannot hold them); the library's errors about options it cannot take
/// come back in the command line's words.
#[test]
fn cli_refusals_name_the_options() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "8", "--count", "--format", "svg"],
            "--format svg draws one solution",
        ),
        (
            &["solve", "8", "-o", "x.svg"],
            "-o FILE goes with --format svg",
        ),
        (
            &["solve", "3", "--why", "--timeout", "5"],
            "--timeout applies to solving and enumeration, not to --why or proofs",
        ),
        (
            &[
                "solve",
                "8",
                "--solver",
                "cadical",
                "--solver-option",
                "reduce=0",
            ],
            "--solver-option sets options of the embedded solver, not of --solver",
        ),
        (
            &["solve", "3", "--why", "--solver-option", "reduce=0"],
            "--solver-option does not go with --why",
        ),
        (
            &["solve", "8", "--engine", "propagator", "--why"],
            "--why explains the formula's clauses; it does not go with --engine propagator",
        ),
        (
            &[
                "solve",
                "8",
                "--engine",
                "propagator",
                "--backend",
                "varisat",
            ],
            "--backend can only be cadical",
        ),
        // Mapped from the library's typed errors.
        (
            &["solve", "6", "--count", "--split-rows", "40"],
            "--split-rows 40 would make up to 6^40 sub-problems",
        ),
        (
            &[
                "solve",
                "3",
                "--check-proof",
                "--backend",
                "varisat",
                "--proof-format",
                "lrat",
            ],
            "--backend varisat does not write lrat proofs (cadical writes lrat)",
        ),
        (
            &[
                "solve",
                "8",
                "--backend",
                "varisat",
                "--solver-option",
                "reduce=0",
            ],
            "--solver-option for varisat: ",
        ),
    ];
    for (args, needle) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

/// A fake solver that answers with a wrong model, and one that claims UNSAT.
#[cfg(unix)]
#[test]
fn cli_wrong_external_answers_are_caught() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let liar = dir.path().join("liar");
    // Queens on (1,1) and (1,2), everything else empty: a full model of the 16 variables.
    std::fs::write(
        &liar,
        "#!/bin/sh\necho 's SATISFIABLE'\necho 'v 1 2 -3 -4 -5 -6 -7 -8 -9 -10 -11 -12 -13 -14 -15 -16 0'\n",
    )
    .unwrap();
    let unsat = dir.path().join("pessimist");
    std::fs::write(&unsat, "#!/bin/sh\necho 's UNSATISFIABLE'\n").unwrap();
    for p in [&liar, &unsat] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let o = run(&["solve", "4", "--solver", liar.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("row 1 has 2 queens"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("clause 2 (Q1: every row has at least one queen) is false"),
        "{}",
        stderr(&o)
    );
    let o = run(&["solve", "8", "--solver", unsat.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("has solutions"));
    let o = run(&["solve", "8", "--solver", "no-such-solver-here"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not found"));
}

#[test]
fn cli_external_solvers() {
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        for n in [1usize, 5, 8, 13] {
            let o = run(&[
                "solve",
                &n.to_string(),
                "--solver",
                solver,
                "--format",
                "line",
            ]);
            assert_eq!(o.status.code(), Some(0), "{solver} n={n}: {}", stderr(&o));
            let p = Placement::parse_one_line(&stdout(&o), Some(n)).unwrap();
            assert!(is_solution(&p));
        }
        let o = run(&["solve", "3", "--solver", solver, "--format", "competition"]);
        assert_eq!(o.status.code(), Some(20), "{solver}");
        // A partial board: the external answer must contain the placed queen.
        let o = run(&[
            "solve", "9", "--solver", solver, "--place", "5,5", "--format", "line",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let p = Placement::parse_one_line(&stdout(&o), Some(9)).unwrap();
        assert_eq!(p.col(4), 4);
        assert!(is_solution(&p));
    }
}
