//! `queens-sat trace`: the verdict against the bitboard counter, the board found against the
//! instance, every propagation replayed from the JSON output (its reason clause must be unit),
//! every learned clause checked to follow from the formula with varisat, the limits and their
//! messages.

use crate::common::{run, stderr, stdout};
use queens_sat::board::{Geometry, MaskedBoard};
use queens_sat::count::count_masked;
use queens_sat::instance::{Instance, Model};
use queens_sat::Placement;
use serde_json::Value;
use std::collections::HashMap;

/// The JSON trace of `args` (after `trace --format json`).
fn trace_json(args: &[String]) -> Value {
    let mut all: Vec<&str> = vec!["trace", "--format", "json"];
    all.extend(args.iter().map(String::as_str));
    let out = run(&all);
    assert_eq!(out.status.code(), Some(0), "{all:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("the trace is JSON")
}

fn lits(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("a clause is an array")
        .iter()
        .map(|l| l.as_i64().expect("a literal is a number"))
        .collect()
}

/// `true` when `formula` and the negation of `clause` have no model: the clause follows from
/// the formula.
fn implied(formula: &[Vec<i64>], clause: &[i64]) -> bool {
    let mut f = varisat::CnfFormula::new();
    let lit = |d: i64| varisat::Lit::from_dimacs(d as isize);
    for c in formula {
        let c: Vec<varisat::Lit> = c.iter().map(|&d| lit(d)).collect();
        varisat::ExtendFormula::add_clause(&mut f, &c);
    }
    for &d in clause {
        varisat::ExtendFormula::add_clause(&mut f, &[lit(-d)]);
    }
    let mut s = varisat::Solver::new();
    s.add_formula(&f);
    !s.solve().expect("varisat solves")
}

/// Replays the steps of a trace on an assignment of its own and checks each one: decisions and
/// flips take open variables, a propagation's reason clause is unit (every other literal false,
/// its literal open), a conflict's clause is false, a learned clause is false when learned and
/// follows from the formula, a jump keeps only the levels up to its own, and `sat` leaves every
/// clause with a true literal. For the cell model, each step's board is the assignment's.
/// Returns the verdict.
fn replay(t: &Value, cell_model: bool) -> bool {
    let n = t["n"].as_u64().unwrap() as usize;
    let formula: Vec<Vec<i64>> = t["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| lits(&c["lits"]))
        .collect();
    let mut clauses = formula.clone();
    // Variable -> (value, level).
    let mut a: HashMap<u64, (bool, u64)> = HashMap::new();
    let val = |a: &HashMap<u64, (bool, u64)>, l: i64| {
        a.get(&l.unsigned_abs()).map(|&(v, _)| v == (l > 0))
    };
    let mut verdict = None;
    let mut backtracked = None;
    for s in t["steps"].as_array().unwrap() {
        let kind = s["kind"].as_str().unwrap();
        let level = s["level"].as_u64().unwrap();
        let what = format!("step {}: {}", s["step"], s["text"]);
        let literal = s["literal"].as_i64();
        // Clauses are numbered from 1: clause k is clauses[k - 1].
        let clause = s["clause"].as_u64().map(|i| i as usize - 1);
        match kind {
            "decide" | "flip" => {
                let l = literal.unwrap();
                assert_eq!(val(&a, l), None, "{what}: the variable has a value");
                // A decision opens the next level; a flip retakes the level just undone.
                let top = a.values().map(|&(_, lv)| lv).max().unwrap_or(0);
                let expected = match kind {
                    "decide" => top + 1,
                    _ => backtracked.take().expect("a flip follows a backtrack") + 1,
                };
                assert_eq!(level, expected, "{what}: level");
                a.insert(l.unsigned_abs(), (l > 0, level));
            }
            "propagate" => {
                let l = literal.unwrap();
                let c = &clauses[clause.unwrap()];
                assert!(
                    c.contains(&l),
                    "{what}: the literal is not in its reason {c:?}"
                );
                assert_eq!(val(&a, l), None, "{what}: the literal has a value");
                for &o in c.iter().filter(|&&o| o != l) {
                    assert_eq!(val(&a, o), Some(false), "{what}: {c:?} is not unit");
                }
                a.insert(l.unsigned_abs(), (l > 0, level));
            }
            "conflict" => {
                let c = &clauses[clause.unwrap()];
                assert!(
                    c.iter().all(|&o| val(&a, o) == Some(false)),
                    "{what}: {c:?} is not false"
                );
            }
            "learn" => {
                let c = lits(&s["learned"]);
                assert_eq!(clause, Some(clauses.len()), "{what}: learned clause number");
                assert!(
                    c.iter().all(|&o| val(&a, o) == Some(false)),
                    "{what}: not false when learned"
                );
                assert!(
                    implied(&formula, &c),
                    "{what}: {c:?} does not follow from the formula"
                );
                clauses.push(c);
            }
            "backjump" | "backtrack" | "restart" => {
                a.retain(|_, &mut (_, lv)| lv <= level);
                backtracked = (kind == "backtrack").then_some(level);
            }
            "sat" => {
                for c in &formula {
                    assert!(
                        c.iter().any(|&o| val(&a, o) == Some(true)),
                        "{what}: {c:?} not true"
                    );
                }
                verdict = Some(true);
            }
            "unsat" => verdict = Some(false),
            other => panic!("unknown step kind {other}"),
        }
        if cell_model {
            let board: Vec<&str> = s["board"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            assert_eq!(board.len(), n, "{what}: rows");
            for (r, row) in board.iter().enumerate() {
                for c in 0..n {
                    let v = (r * n + c + 1) as i64;
                    let expected = match val(&a, v) {
                        Some(true) => 'Q',
                        Some(false) => 'x',
                        None => '.',
                    };
                    assert_eq!(
                        row.as_bytes()[c] as char,
                        expected,
                        "{what}: cell ({},{})",
                        r + 1,
                        c + 1
                    );
                }
            }
        }
    }
    assert_eq!(
        t["steps"].as_array().unwrap().len(),
        t["steps"].as_array().unwrap().last().unwrap()["step"]
            .as_u64()
            .unwrap() as usize
    );
    verdict.expect("the trace ends with sat or unsat")
}

/// A small deterministic generator (xorshift), so that the instances are the same every run.
struct Rng(u64);
impl Rng {
    fn below(&mut self, k: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % k as u64) as usize
    }
}

fn attack(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0 + b.1 == b.0 + a.1 || a.0 + a.1 == b.0 + b.1
}

#[test]
fn verdicts_boards_propagations_and_learned_clauses_hold_on_random_instances() {
    let models: [&[&str]; 6] = [
        &["--amo", "pairwise"],
        &["--amo", "sequential"],
        &["--amo", "commander"],
        &["--model", "columns"],
        &["--model", "columns", "--domain", "order"],
        &["--model", "columns", "--domain", "log"],
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut verdicts = [0usize; 2];
    for n in 1..=8usize {
        for (m, model) in models.iter().enumerate() {
            for learning in [false, true] {
                // Up to two pre-placed queens that do not attack each other, up to four
                // forbidden cells elsewhere.
                let mut place: Vec<(usize, usize)> = Vec::new();
                for _ in 0..rng.below(3) {
                    let cell = (rng.below(n), rng.below(n));
                    if place.iter().all(|&p| p != cell && !attack(p, cell)) {
                        place.push(cell);
                    }
                }
                let mut forbid: Vec<(usize, usize)> = Vec::new();
                for _ in 0..rng.below(5) {
                    let cell = (rng.below(n), rng.below(n));
                    if !place.contains(&cell) && !forbid.contains(&cell) {
                        forbid.push(cell);
                    }
                }
                let mut args: Vec<String> = vec![n.to_string()];
                args.extend(model.iter().map(|s| s.to_string()));
                for (opt, cells) in [("--place", &place), ("--forbid", &forbid)] {
                    for &(r, c) in cells.iter() {
                        args.push(opt.into());
                        args.push(format!("{},{}", r + 1, c + 1));
                    }
                }
                if learning {
                    args.push("--learning".into());
                }
                let t = trace_json(&args);
                let sat = replay(&t, m < 3);
                // The oracle: the bitboard counter of instances.
                let mut b = MaskedBoard::new(n, Geometry::Square).unwrap();
                for &(r, c) in &place {
                    b.place(r, c);
                }
                for &(r, c) in &forbid {
                    b.block(r, c);
                }
                let count = count_masked(&b);
                assert_eq!(
                    sat,
                    count > 0,
                    "{args:?}: the counter finds {count} solutions"
                );
                assert_eq!(t["satisfiable"], Value::Bool(sat), "{args:?}");
                verdicts[sat as usize] += 1;
                if sat {
                    let cols: Vec<usize> = t["solution"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_u64().unwrap() as usize - 1)
                        .collect();
                    let inst = Instance::new(n, Model::default())
                        .unwrap()
                        .with_cells(&place, &forbid)
                        .unwrap();
                    inst.check_board(&Placement::from_cols(&cols))
                        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
                } else {
                    assert!(t["solution"].is_null());
                }
            }
        }
    }
    // Both verdicts were exercised.
    assert!(verdicts[0] >= 10 && verdicts[1] >= 10, "{verdicts:?}");
}

#[test]
fn n3_is_proved_impossible_and_n4_solved_by_both_searches() {
    for learning in [false, true] {
        let mut args = vec!["3".to_string()];
        if learning {
            args.push("--learning".into());
        }
        let t3 = trace_json(&args);
        assert!(!replay(&t3, true));
        assert_eq!(
            t3["steps"].as_array().unwrap().last().unwrap()["kind"],
            "unsat"
        );
        args[0] = "4".into();
        let t4 = trace_json(&args);
        assert!(replay(&t4, true));
        assert_eq!(t4["solution"], serde_json::json!([2, 4, 1, 3]));
        assert_eq!(t4["solver"], if learning { "cdcl" } else { "dpll" });
    }
}

#[test]
fn the_text_trace_of_n4_gives_reasons_in_words() {
    let out = run(&["trace", "4"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for expected in [
        "decide    q(1,1) = true (level 1)",
        "Q3 column 1 has at most one queen (clause 29): q(1,1) forces ¬q(2,1)",
        "Q1 row 4 has at least one queen (clause 4): ¬q(4,1), ¬q(4,3), ¬q(4,4) force q(4,2)",
        "conflict  Q1: row 3 has no queen",
        "flip      q(2,3) failed: try ¬q(2,3)",
        "result: a solution, one-line: 2 4 1 3",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // Boards are drawn.
    assert!(text.contains("  Q x x x\n"), "{text}");
    // With learning, n = 6 learns clauses drawn as patterns.
    let out = run(&["trace", "6", "--learning"]);
    let text = stdout(&out);
    // The first learned clause is numbered after the formula's clauses, as `encode` writes
    // them.
    let dimacs = stdout(&run(&["encode", "6"]));
    let m = dimacs
        .lines()
        .filter(|l| l.starts_with(|c: char| c == '-' || c.is_ascii_digit()))
        .count();
    let first = format!("learn     clause {} (learned): ", m + 1);
    assert!(text.contains(&first), "{first:?} missing in {text}");
    assert!(text.contains("cannot all hold together"), "{text}");
    assert!(text.contains("backjump  jump back to level"), "{text}");
}

#[test]
fn auxiliaries_and_column_variables_are_named() {
    let out = run(&["trace", "4", "--amo", "sequential"]);
    assert!(
        stdout(&out).contains(": q(1,1) forces s(row 1, 1)"),
        "{}",
        stdout(&out)
    );
    let out = run(&["trace", "4", "--model", "columns", "--domain", "order"]);
    assert!(
        stdout(&out).contains(
            "[x(1) >= 2] = true (level 1); the queen of row 1 is in column 2 or further right"
        ),
        "{}",
        stdout(&out)
    );
}

/// A run that must fail with exit 2, one line on stderr containing every `expected`, and leave
/// `file` as it was.
fn refused(args: &[&str], expected: &[&str], file: &std::path::Path) {
    let before = std::fs::read(file).ok();
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    for e in expected {
        assert!(err.contains(e), "{args:?}: {err:?} lacks {e:?}");
    }
    assert!(out.stdout.is_empty(), "{args:?}");
    assert_eq!(
        std::fs::read(file).ok(),
        before,
        "{args:?} touched {}",
        file.display()
    );
}

#[test]
fn limits_and_bad_paths_are_refused_and_leave_files_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("trace.html");
    std::fs::write(&file, "old contents").unwrap();
    let f = file.to_str().unwrap();
    refused(
        &["trace", "17", "--format", "html", "-o", f],
        &["up to n = 16", "n = 17"],
        &file,
    );
    refused(
        &["trace", "8", "--max-steps", "10", "-o", f],
        &["more than 10 steps", "--max-steps"],
        &file,
    );
    refused(
        &[
            "trace",
            "8",
            "--learning",
            "--format",
            "json",
            "--max-steps",
            "50",
            "-o",
            f,
        ],
        &["more than 50 steps", "--max-steps"],
        &file,
    );
    let missing = dir.path().join("no such folder").join("t.html");
    refused(
        &[
            "trace",
            "4",
            "--format",
            "html",
            "-o",
            missing.to_str().unwrap(),
        ],
        &["cannot write"],
        &missing,
    );
    refused(&["trace", "0"], &["error:"], &file);
    refused(
        &["trace", "4", "--place", "1,1", "--place", "2,2"],
        &["share a"],
        &file,
    );
    // The limit allows what it says: n = 4 takes 43 steps.
    let out = run(&["trace", "4", "--max-steps", "43", "-o", f]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&file).unwrap().contains("43 steps"));
    let out = run(&["trace", "4", "--max-steps", "42"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn instance_files_agree_with_count_instance() {
    let dir = tempfile::tempdir().unwrap();
    let mut verdicts = [0usize; 2];
    let mut files = Vec::new();
    for seed in 1..=8 {
        let file = dir.path().join(format!("b{seed}.txt"));
        let f = file.to_str().unwrap();
        let out = run(&[
            "generate",
            "blocked",
            "7",
            "--p",
            "0.45",
            "--seed",
            &seed.to_string(),
            "-o",
            f,
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        files.push(file);
    }
    for n in [5, 7] {
        let file = dir.path().join(format!("t{n}.txt"));
        let out = run(&[
            "generate",
            "toroidal",
            &n.to_string(),
            "-o",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        files.push(file);
    }
    for file in &files {
        let f = file.to_str().unwrap().to_string();
        let counted: Value =
            serde_json::from_slice(&run(&["count", "--instance", &f, "--format", "json"]).stdout)
                .unwrap();
        let total = counted["total"].as_u64().unwrap();
        for learning in [false, true] {
            let mut args = vec!["--instance".to_string(), f.clone()];
            if learning {
                args.push("--learning".into());
            }
            let t = trace_json(&args);
            let sat = replay(&t, true);
            assert_eq!(sat, total > 0, "{args:?}: count --instance finds {total}");
            verdicts[sat as usize] += 1;
        }
    }
    assert!(verdicts[0] >= 2 && verdicts[1] >= 2, "{verdicts:?}");
}
