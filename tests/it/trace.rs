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
                // The other searches in turn: each must reach the same verdict.
                let others: [&[&str]; 5] = [
                    &["--algorithm", "backtracking"],
                    &["--heuristic", "vsids", "--watches"],
                    &["--heuristic", "random", "--seed", "11"],
                    &["--restarts", "--heuristic", "vsids"],
                    &["--watches", "--restarts", "--heuristic", "random"],
                ];
                let other = others[(n + m) % others.len()];
                let is_backtracking = other[1] == "backtracking";
                if !(is_backtracking && (learning || n > 6 || m > 0)) {
                    args.extend(other.iter().map(|s| s.to_string()));
                }
                if args.iter().any(|a| a == "--restarts") && !learning {
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

/// Random 3-CNF files, traced by every search: the verdict is varisat's, every step replays.
#[test]
fn dimacs_files_are_traced_by_every_search_with_varisat_s_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let searches: [&[&str]; 6] = [
        &[],
        &["--algorithm", "backtracking"],
        &["--algorithm", "cdcl"],
        &[
            "--algorithm",
            "cdcl",
            "--watches",
            "--heuristic",
            "vsids",
            "--restarts",
        ],
        &["--watches", "--heuristic", "random", "--seed", "4"],
        &["--algorithm", "backtracking", "--watches"],
    ];
    let mut verdicts = [0usize; 2];
    for k in 0..16 {
        let vars = 5 + rng.below(8);
        let count = vars * 43 / 10;
        let formula: Vec<Vec<i64>> = (0..count)
            .map(|_| {
                (0..3)
                    .map(|_| {
                        let v = 1 + rng.below(vars) as i64;
                        if rng.below(2) == 0 {
                            v
                        } else {
                            -v
                        }
                    })
                    .collect()
            })
            .collect();
        let mut text = format!("p cnf {vars} {count}\n");
        for c in &formula {
            let c: Vec<String> = c.iter().map(|l| l.to_string()).collect();
            text.push_str(&format!("{} 0\n", c.join(" ")));
        }
        let file = dir.path().join(format!("f{k}.cnf"));
        std::fs::write(&file, text).unwrap();
        // varisat's verdict: the formula has a model when the empty clause does not follow.
        let sat = !implied(&formula, &[]);
        for search in searches {
            let mut args = vec![file.to_str().unwrap().to_string()];
            args.extend(search.iter().map(|s| s.to_string()));
            let t = trace_json(&args);
            assert_eq!(t["view"], "variables");
            assert_eq!(replay(&t, false), sat, "{args:?}");
            if sat {
                let model = lits(&t["assignment"]);
                for c in &formula {
                    assert!(
                        c.iter().any(|l| model.contains(l)),
                        "{args:?}: {c:?} not true"
                    );
                }
            }
        }
        verdicts[sat as usize] += 1;
    }
    assert!(verdicts[0] >= 2 && verdicts[1] >= 2, "{verdicts:?}");
}

#[test]
fn a_file_of_encode_is_traced_as_its_instance_and_a_map_gives_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("e5.cnf");
    let c = cnf.to_str().unwrap();
    assert!(run(&["encode", "5", "-o", c]).status.success());
    // The file of `encode 5` is traced as `trace 5`, step for step.
    let a = trace_json(&[c.to_string()]);
    let b = trace_json(&["5".to_string()]);
    assert_eq!(a["steps"], b["steps"]);
    // A map: the transposed board. The board found shows a queen on (r, c) exactly when the
    // model makes the variable of (c, r) true, and it is a solution.
    let map = dir.path().join("map.txt");
    let mut m = String::from("c transposed\n");
    for r in 1..=5 {
        for col in 1..=5 {
            m.push_str(&format!("{r} {col} {}\n", (col - 1) * 5 + r));
        }
    }
    std::fs::write(&map, m).unwrap();
    let t = trace_json(&[c.to_string(), "--map".into(), map.to_str().unwrap().into()]);
    assert!(replay(&t, false));
    let model = lits(&t["assignment"]);
    let last = t["steps"].as_array().unwrap().last().unwrap();
    for r in 0..5 {
        let row = last["board"][r].as_str().unwrap().as_bytes();
        for (col, &cell) in row.iter().enumerate() {
            let v = (col * 5 + r + 1) as i64;
            assert_eq!(
                cell == b'Q',
                model.contains(&v),
                "cell ({},{})",
                r + 1,
                col + 1
            );
        }
    }
    let cols: Vec<usize> = t["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize - 1)
        .collect();
    Instance::new(5, Model::default())
        .unwrap()
        .check_board(&Placement::from_cols(&cols))
        .unwrap();
    assert_eq!(t["names"][1], "q(2,1)");
}

#[test]
fn each_option_shows_in_the_trace() {
    // Backtracking: no propagation at all.
    let t = trace_json(&["5".into(), "--algorithm".into(), "backtracking".into()]);
    assert_eq!(t["stats"]["propagations"], 0);
    assert_eq!(t["options"]["algorithm"], "backtracking");
    assert!(replay(&t, true));
    // CDCL: every learn step resolves from the conflict clause to the learned clause.
    let t = trace_json(&["6".into(), "--algorithm".into(), "cdcl".into()]);
    let steps = t["steps"].as_array().unwrap();
    let mut learns = 0;
    for (k, s) in steps.iter().enumerate() {
        if s["kind"] != "learn" {
            continue;
        }
        learns += 1;
        let r = s["resolution"].as_array().unwrap();
        assert_eq!(
            r[0]["clause"],
            steps[k - 1]["clause"],
            "the conflict clause first"
        );
        let mut last: Vec<i64> = lits(&r.last().unwrap()["resolvent"]);
        let mut learned = lits(&s["learned"]);
        last.sort();
        learned.sort();
        assert_eq!(last, learned, "step {}", s["step"]);
        for w in r.windows(2) {
            let v = w[1]["variable"].as_i64().unwrap();
            let before = lits(&w[0]["resolvent"]);
            assert!(before.contains(&v) || before.contains(&-v), "{w:?}");
            assert!(
                !lits(&w[1]["resolvent"]).iter().any(|l| l.abs() == v),
                "{w:?}"
            );
        }
    }
    assert!(learns > 0);
    // Restarts.
    let t = trace_json(&["8".into(), "--learning".into(), "--restarts".into()]);
    assert!(t["stats"]["restarts"].as_u64().unwrap() > 0);
    assert!(t["steps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["kind"] == "restart"));
    assert!(replay(&t, true));
    // Watches: each move leaves a false literal for one that is not false; each propagation
    // is the other watch of a clause the step before made unit (or the learned clause).
    let t = trace_json(&["6".into(), "--watches".into()]);
    let steps = t["steps"].as_array().unwrap();
    assert!(steps.iter().all(|s| s["watches"].is_object()));
    let moves: usize = steps
        .iter()
        .map(|s| s["watches"]["moved"].as_array().unwrap().len())
        .sum();
    assert!(moves > 0);
    let mut units: Vec<u64> = Vec::new();
    for s in steps {
        if s["kind"] == "propagate" {
            let c = s["clause"].as_u64().unwrap();
            assert!(
                units.contains(&c),
                "step {}: clause {c} was not made unit",
                s["step"]
            );
        }
        units.extend(
            s["watches"]["unit"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u.as_u64().unwrap()),
        );
        if s["kind"] == "backtrack" {
            units.clear();
        }
    }
    assert!(replay(&t, true));
    // Heuristics: random with a seed is repeatable, another seed decides otherwise.
    let r = |seed: &str| {
        trace_json(&[
            "6".into(),
            "--heuristic".into(),
            "random".into(),
            "--seed".into(),
            seed.into(),
        ])
    };
    assert_eq!(r("3")["steps"], r("3")["steps"]);
    assert_ne!(r("3")["steps"], r("4")["steps"]);
    let v = trace_json(&[
        "6".into(),
        "--learning".into(),
        "--heuristic".into(),
        "vsids".into(),
    ]);
    assert!(replay(&v, true));
    assert_eq!(v["options"]["heuristic"], "vsids");
}

#[test]
fn bad_options_and_files_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    let f = file.to_str().unwrap();
    let not_dimacs = dir.path().join("notes.cnf");
    std::fs::write(&not_dimacs, "hello\n").unwrap();
    let cnf = dir.path().join("small.cnf");
    std::fs::write(&cnf, "p cnf 4 1\n1 2 3 4 0\n").unwrap();
    let map = dir.path().join("map.txt");
    std::fs::write(&map, "1 1 1\n1 2 2\n2 1 3\n2 2 9\n").unwrap();
    let half = dir.path().join("half.txt");
    std::fs::write(&half, "1 1 1\n1 2 2\n2 1 3\n").unwrap();
    let missing = dir.path().join("missing.cnf");
    let (n, c, m, h, x) = (
        not_dimacs.to_str().unwrap(),
        cnf.to_str().unwrap(),
        map.to_str().unwrap(),
        half.to_str().unwrap(),
        missing.to_str().unwrap(),
    );
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        (vec!["trace", "4", "--algorithm", "walksat"], &["walksat"]),
        (
            vec!["trace", "4", "--heuristic", "random", "--seed", "x"],
            &["--seed"],
        ),
        (
            vec![
                "trace",
                "4",
                "--heuristic",
                "random",
                "--seed",
                "4294967296",
            ],
            &["--seed"],
        ),
        (vec!["trace", "4", "--seed", "3"], &["--heuristic random"]),
        (
            vec!["trace", "4", "--restarts"],
            &["--restarts needs --algorithm cdcl"],
        ),
        (
            vec!["trace", "4", "--algorithm", "dpll", "--learning"],
            &["--learning"],
        ),
        (vec!["trace", "4", "--decide", "2=0"], &["K=LIT"]),
        (vec!["trace", "4", "--decide", "1=17"], &["16 variables"]),
        (
            vec!["trace", "4", "--decide", "2=1"],
            &["already has a value"],
        ),
        (vec!["trace", x], &["cannot read", "missing.cnf"]),
        (vec!["trace", "missing"], &["neither a board size"]),
        (vec!["trace", n], &["not valid DIMACS", "line 1"]),
        (vec!["trace", c, "--map", m], &["variable 9", "4 variables"]),
        (vec!["trace", c, "--map", h], &["cells have no variable"]),
        (vec!["trace", "4", "--map", m], &["--map"]),
        (vec!["trace", c, "--amo", "sequential"], &["DIMACS file"]),
        (vec!["trace", c, "-o", c], &["small.cnf"]),
    ];
    for (args, expected) in cases {
        let mut args = args.clone();
        if !args.contains(&"-o") {
            args.extend(["-o", f]);
        }
        refused(&args, expected, &file);
    }
}

/// `--show PARTS`: the text lists exactly the steps of the shown kinds, as the JSON of the same
/// search has them (numbers and kinds), the end always; details only when asked for.
#[test]
fn show_chooses_the_steps_and_details_of_the_text() {
    let base = ["6", "--algorithm", "cdcl", "--watches"];
    let json = trace_json(&base.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let steps: Vec<(u64, String)> = json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["step"].as_u64().unwrap(),
                s["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for shown in [
        "decide",
        "conflict,learn",
        "propagate,backjump",
        "learn,resolution",
    ] {
        let mut args: Vec<&str> = vec!["trace"];
        args.extend(base);
        args.extend(["--show", shown]);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        // A step line: its number right-aligned, two spaces, its kind.
        let listed: Vec<(u64, String)> = text
            .lines()
            .filter_map(|l| {
                let mut words = l.split_whitespace();
                let k = words.next()?.parse().ok()?;
                let kind = words.next()?;
                // The totals line (`176 steps: ...`) is no step.
                (kind != "steps:").then(|| (k, kind.to_string()))
            })
            .collect();
        let kinds: Vec<&str> = shown.split(',').collect();
        let expected: Vec<(u64, String)> = steps
            .iter()
            .filter(|(_, kind)| kinds.contains(&kind.as_str()) || kind == "sat" || kind == "unsat")
            .cloned()
            .collect();
        assert_eq!(listed, expected, "--show {shown}");
        assert_eq!(
            text.contains("resolution: the conflict clause"),
            shown.contains("resolution"),
            "--show {shown}"
        );
        assert!(!text.contains("watch moves"), "--show {shown}");
        assert!(text.contains("result: a solution"), "--show {shown}");
    }
    // Everything by default, and `all` the same.
    let all = stdout(&run(&["trace", "6", "--algorithm", "cdcl", "--watches"]));
    assert_eq!(
        all,
        stdout(&run(&[
            "trace",
            "6",
            "--algorithm",
            "cdcl",
            "--watches",
            "--show",
            "all"
        ]))
    );
    assert!(all.contains("watch moves") && all.contains("resolution: the conflict clause"));
}

#[test]
fn show_is_refused_with_unknown_parts_and_outside_the_text() {
    for (args, says) in [
        (
            vec!["trace", "4", "--show", "decide,learnt"],
            "unknown part 'learnt'",
        ),
        (vec!["trace", "4", "--show", ""], "unknown part ''"),
        (
            vec!["trace", "4", "--format", "json", "--show", "decide"],
            "--show chooses what the text shows",
        ),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}
