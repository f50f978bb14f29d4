//! The search engine (`solve --engine search`, [`queens_sat::search::Decision`]): its answers
//! against the exact counter on random boards and on every family, against the recorded
//! answers of the literature's solver (CSPLib problem 079, an independent oracle), every
//! solution checked here again; the command line's output, time limit and refusals, and
//! `compare --solver search`.

use crate::common::{is_valid_placement, run, stderr, stdout, CsvTable};
use flate2::read::GzDecoder;
use queens_sat::board::{check_placement_on, Geometry, MaskedBoard, Placement};
use queens_sat::count::count_masked;
use queens_sat::family::rng::SplitMix64;
use queens_sat::family::{generate, read_instance_text, CompletionMode, Density, Recipe};
use queens_sat::search::{Answer, Decision};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Decides `board` on `threads` threads; a solution is checked here against the board (no two
/// queens attack each other in its geometry, every queen on an allowed cell).
fn decide(board: &MaskedBoard, threads: usize, what: &str) -> bool {
    let done = Decision::new(board).threads(threads).run().unwrap();
    match done.answer {
        Answer::Sat(p) => {
            check_solution(board, &p, what);
            true
        }
        Answer::Unsat => false,
        Answer::Stopped(s) => panic!("{what}: stopped without a limit: {s}"),
    }
}

fn check_solution(board: &MaskedBoard, p: &Placement, what: &str) {
    assert_eq!(p.n(), board.n(), "{what}");
    check_placement_on(p, board.geometry()).unwrap_or_else(|v| panic!("{what}: {v:?}"));
    for (r, &c) in p.cols().iter().enumerate() {
        assert!(
            board.is_allowed(r, c as usize),
            "{what}: a queen on the forbidden cell ({r}, {c})"
        );
    }
}

#[test]
fn decisions_agree_with_the_counter_on_random_boards() {
    let mut rng = SplitMix64::new(27);
    let (mut sat, mut unsat) = (0, 0);
    for i in 0..400 {
        let n = 1 + rng.index(11);
        let geometry = if i % 4 == 3 {
            Geometry::Toroidal
        } else {
            Geometry::Square
        };
        let mut board = MaskedBoard::new(n, geometry).unwrap();
        let percent = [5, 15, 25, 40][rng.index(4)];
        for r in 0..n {
            for c in 0..n {
                if rng.below(100) < percent {
                    board.block(r, c);
                }
            }
        }
        // A queen or two on cells that are still allowed.
        for _ in 0..rng.index(3) {
            let (r, c) = (rng.index(n), rng.index(n));
            if board.is_allowed(r, c) {
                board.place(r, c);
            }
        }
        let what = format!("board {i}: n = {n}, {geometry:?}, {percent} % blocked");
        let count = count_masked(&board);
        let found = decide(&board, 1 + i % 2, &what);
        assert_eq!(found, count > 0, "{what}: {count} solutions");
        if found {
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    assert!(sat >= 100 && unsat >= 100, "{sat} SAT, {unsat} UNSAT");
}

#[test]
fn decisions_agree_with_the_counter_on_every_family() {
    let recipes = [
        Recipe::Completion {
            k: 3,
            mode: CompletionMode::Random,
        },
        Recipe::Completion {
            k: 4,
            mode: CompletionMode::FromSolution,
        },
        Recipe::Blocked {
            density: Density::Probability(0.3),
        },
        Recipe::ExcludedDiagonals { d: 9, min_free: 3 },
        Recipe::Toroidal {
            blocked: Some(Density::Probability(0.1)),
        },
    ];
    let mut answers = std::collections::BTreeSet::new();
    for recipe in &recipes {
        for n in [7usize, 9, 11, 12] {
            for seed in 1..=6 {
                let Ok(spec) = generate(n, recipe, seed) else {
                    continue;
                };
                let inst = spec.instance(Default::default()).unwrap();
                let board = queens_sat::instance::masked_board(&inst).unwrap();
                let what = spec.describe();
                let found = decide(&board, 2, &what);
                assert_eq!(found, count_masked(&board) > 0, "{what}");
                answers.insert((recipe.family().name(), found));
            }
        }
    }
    // Every family gives both answers, except the solution-based completions (always SAT).
    assert!(answers.len() >= 8, "{answers:?}");
}

/// The number of solutions of `board` (square), by a plain backtracking written here: a queen
/// per row, on an allowed cell in a column and on two diagonals not yet taken. It shares no
/// code with the search, so it checks every pruning of the search, whichever is turned on.
fn brute_force_count(board: &MaskedBoard) -> u64 {
    fn go(board: &MaskedBoard, r: usize, cols: u64, sums: u128, diffs: u128) -> u64 {
        let n = board.n();
        if r == n {
            return 1;
        }
        let mut total = 0;
        for c in 0..n {
            let (s, d) = (r + c, c + n - 1 - r);
            if board.is_allowed(r, c)
                && cols >> c & 1 == 0
                && sums >> s & 1 == 0
                && diffs >> d & 1 == 0
            {
                total += go(board, r + 1, cols | 1 << c, sums | 1 << s, diffs | 1 << d);
            }
        }
        total
    }
    go(board, 0, 0, 0, 0)
}

#[test]
fn every_pruning_agrees_with_a_plain_backtracking_on_random_boards() {
    // Excluded Diagonals boards (whole diagonals forbidden, as in the benchmark, where the
    // second moments prune most) and boards with random blocked cells, n = 6..12, around the
    // point where the answers change; each decided with the default reasoning (second
    // moments on), without the second moments, with the matchings too, by the portfolio,
    // with the free cells probed at every level, and on one thread taking turns with the
    // portfolio's complete search after a few nodes.
    let mut rng = SplitMix64::new(79);
    let (mut sat, mut unsat, mut fewer, mut probed, mut switched) = (0, 0, 0, 0, 0);
    const SWITCH: u64 = 3;
    for i in 0..360 {
        let n = 6 + rng.index(7);
        let mut board = MaskedBoard::new(n, Geometry::Square).unwrap();
        let kind = if i % 3 == 2 {
            let percent = [15, 25, 35][rng.index(3)];
            for r in 0..n {
                for c in 0..n {
                    if rng.below(100) < percent {
                        board.block(r, c);
                    }
                }
            }
            format!("{percent} % of the cells blocked")
        } else {
            // D of the 2(2n - 1) diagonals, D from 0.6n to 1.1n.
            let d = (n * (6 + rng.index(6))).div_ceil(10);
            let picked = rng.sample(2 * (2 * n - 1), d);
            for r in 0..n {
                for c in 0..n {
                    let (s, t) = (r + c, 2 * n - 1 + c + n - 1 - r);
                    if picked.contains(&s) || picked.contains(&t) {
                        board.block(r, c);
                    }
                }
            }
            format!("{d} diagonals excluded")
        };
        let what = format!("board {i}: n = {n}, {kind}");
        let want = brute_force_count(&board) > 0;
        let mut nodes = Vec::new();
        // The plain complete search with each reasoning, then the default portfolio on two
        // threads (the complete search branching on diagonals races the random restarts),
        // then the plain search probing the free cells at every level; last the default on one
        // thread with a budget of 3 nodes for its plain walk, so that on most boards it takes
        // turns with the portfolio's complete search.
        for (moments, matching, portfolio, threads, probe, budget) in [
            (true, false, false, 1 + i % 2, None, None),
            (false, false, false, 1 + i % 2, None, None),
            (true, true, false, 1 + i % 2, None, None),
            (true, false, true, 2, None, None),
            (true, false, false, 1 + i % 2, Some(64), None),
            (true, false, true, 1, None, Some(SWITCH)),
        ] {
            let mut decision = Decision::new(&board);
            if let Some(l) = probe {
                decision = decision.probe(l);
            }
            if let Some(b) = budget {
                decision = decision.one_thread_budget(b);
            }
            let done = decision
                .threads(threads)
                .moments(moments)
                .matching(matching)
                .portfolio(portfolio)
                .run()
                .unwrap();
            let found = match done.answer {
                Answer::Sat(p) => {
                    check_solution(&board, &p, &what);
                    true
                }
                Answer::Unsat => false,
                Answer::Stopped(s) => panic!("{what}: stopped without a limit: {s}"),
            };
            assert_eq!(
                found, want,
                "{what}: moments {moments}, matching {matching}, portfolio {portfolio} on {threads} threads, probe {probe:?}, budget {budget:?}"
            );
            nodes.push(done.nodes);
        }
        if nodes[5] > SWITCH {
            switched += 1;
        }
        if !want {
            unsat += 1;
            // On one thread the walk is the same but for the pruning: fewer nodes means the
            // second moments refuted something here.
            if i % 2 == 0 && nodes[0] < nodes[1] {
                fewer += 1;
            }
            if i % 2 == 0 && nodes[4] < nodes[0] {
                probed += 1;
            }
        } else {
            sat += 1;
        }
    }
    assert!(sat >= 80 && unsat >= 80, "{sat} SAT, {unsat} UNSAT");
    assert!(
        fewer >= 10,
        "the second moments pruned on {fewer} UNSAT boards"
    );
    assert!(probed >= 10, "probing pruned on {probed} UNSAT boards");
    assert!(
        switched >= 100,
        "the one-thread search switched on {switched} boards"
    );
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/csplib-prob079")
        .join(name)
}

/// The parameter files of `diag-N.tar.gz`, by file name.
fn published(n: usize) -> std::collections::HashMap<String, String> {
    let file = std::fs::File::open(data(&format!("diag-{n}.tar.gz"))).unwrap();
    let mut archive = tar::Archive::new(GzDecoder::new(file));
    let mut out = std::collections::HashMap::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().into_owned();
        if path.extension().is_some_and(|e| e == "param") {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.insert(name, text);
        }
    }
    out
}

/// A recorded answer: n, D, the parameter file, SAT, the recorded solver's seconds.
type Recorded = (usize, usize, String, bool, f64);

/// The lines of the results file (format in tests/data/csplib-prob079/README.md).
fn recorded_answers() -> Vec<Recorded> {
    let gz = std::fs::File::open(data("run-diags-shiftqueens-processed.txt.gz")).unwrap();
    BufReader::new(GzDecoder::new(gz))
        .lines()
        .map(|l| {
            let l = l.unwrap();
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = f[0].parse().unwrap();
            let file = format!("diag-{n}-{}-{}.param", f[2], f[3]);
            let sat = match f[5] {
                "1" => true,
                "0" => false,
                other => panic!("numsols {other}: {l}"),
            };
            (n, f[1].parse().unwrap(), file, sat, f[11].parse().unwrap())
        })
        .collect()
}

#[test]
fn recorded_answers_agree_with_the_search() {
    let lines = recorded_answers();
    assert_eq!(lines.len(), 319_000);
    // A seeded sample of every n (answered within a second by the paper's solver), and
    // instances of n = 21's hard band (D = 18..20), where the answers change.
    let mut rng = SplitMix64::new(2017);
    let mut sample: Vec<&Recorded> = Vec::new();
    while sample.len() < 300 {
        let r = &lines[rng.index(lines.len())];
        if r.4 <= 1.0 {
            sample.push(r);
        }
    }
    let hard: Vec<&Recorded> = lines
        .iter()
        .filter(|r| r.0 == 21 && (18..=20).contains(&r.1))
        .collect();
    for _ in 0..24 {
        sample.push(hard[rng.index(hard.len())]);
    }
    let mut archives = std::collections::HashMap::new();
    let (mut sat, mut unsat) = (0, 0);
    for (n, d, file, satisfiable, _) in sample {
        let files = archives.entry(*n).or_insert_with(|| published(*n));
        let spec = read_instance_text(&files[file], file, Some(*d)).unwrap();
        let mut board = MaskedBoard::new(spec.n, spec.geometry).unwrap();
        for (r, c) in spec.forbidden_cells() {
            board.block(r, c);
        }
        let what = format!("{file} with D = {d}");
        assert_eq!(decide(&board, 2, &what), *satisfiable, "{what}");
        if *satisfiable {
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    assert!(sat >= 60 && unsat >= 60, "{sat} SAT, {unsat} UNSAT");

    // The command line reads the published file and gives the recorded answers, the
    // solution checked here against the file's diagonals.
    let dir = tempfile::tempdir().unwrap();
    let picks = [("diag-21-4-163.param", 21), ("diag-14-4-500.param", 14)];
    for (file, n) in picks {
        let text = std::fs::read_to_string(data(&format!("params/{file}"))).unwrap();
        let path = dir.path().join(file);
        std::fs::write(&path, &text).unwrap();
        for r in lines.iter().filter(|r| r.2 == file) {
            let d = r.1;
            let o = run(&[
                "solve",
                "--instance",
                path.to_str().unwrap(),
                "--diagonals",
                &d.to_string(),
                "--engine",
                "search",
                "--format",
                "line",
            ]);
            assert!(o.status.success(), "{file} D = {d}: {}", stderr(&o));
            let out = stdout(&o);
            let line = out.lines().next().unwrap();
            let cols: Option<Vec<usize>> = line
                .split_whitespace()
                .map(|c| c.parse::<usize>().ok().map(|c| c - 1))
                .collect();
            assert_eq!(cols.is_some(), r.3, "{file} D = {d}: {out}");
            if let Some(cols) = cols {
                let queens: Vec<(usize, usize)> = cols.into_iter().enumerate().collect();
                assert!(is_valid_placement(n, &queens), "{file} D = {d}: {out}");
                let spec = read_instance_text(&text, file, Some(d)).unwrap();
                let forbidden = spec.forbidden_cells();
                assert!(
                    queens.iter().all(|q| !forbidden.contains(q)),
                    "{file} D = {d}: {out}"
                );
            }
        }
    }
}

#[test]
fn solve_with_the_search_prints_a_checked_solution_or_none() {
    let out = run(&["solve", "8", "--engine", "search"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("n = 8: a solution found by the search, checked"),
        "{text}"
    );
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("one-line: "))
        .unwrap();
    let queens: Vec<(usize, usize)> = line
        .split_whitespace()
        .map(|c| c.parse::<usize>().unwrap() - 1)
        .enumerate()
        .collect();
    assert!(is_valid_placement(8, &queens), "{text}");

    // Placed queens and forbidden cells are kept.
    let out = run(&[
        "solve", "10", "--engine", "search", "--place", "1,1", "--forbid", "2,3", "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["satisfiable"], true);
    let cols: Vec<u64> = v["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(cols[0], 1);
    assert_ne!(cols[1], 3);

    // None: the same message as the SAT engines, and a note that the search is complete.
    let out = run(&["solve", "3", "--engine", "search"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let sat = run(&["solve", "3"]);
    let first = stdout(&sat).lines().next().unwrap().to_string();
    assert!(stdout(&out).starts_with(&first), "{}", stdout(&out));
    assert!(stdout(&out).contains("the search is complete"));
    let out = run(&["solve", "2", "--engine", "search", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["satisfiable"], false);

    // The default engine is unchanged: sat.
    let default = run(&["solve", "6", "--format", "line"]);
    let sat = run(&["solve", "6", "--format", "line", "--engine", "sat"]);
    assert_eq!(stdout(&default), stdout(&sat));
}

#[test]
fn the_search_stops_at_its_time_limit() {
    // The toroidal board of even n has no solution, and the search has to look at every
    // placement to see it: far beyond a tenth of a second at n = 40.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("torus.txt");
    let o = run(&["generate", "toroidal", "40", "-o", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let start = std::time::Instant::now();
    let out = run(&[
        "solve",
        "--instance",
        path.to_str().unwrap(),
        "--engine",
        "search",
        "--timeout",
        "0.2",
    ]);
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("the search stopped without an answer: the time limit of 0.200 s passed"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn the_search_refuses_what_it_cannot_do() {
    let refused = [
        ("--all", vec!["--all"]),
        ("--count", vec!["--count"]),
        ("--limit", vec!["--limit", "2"]),
        ("--solver", vec!["--solver", "cadical"]),
        ("--why", vec!["--why"]),
        ("--format competition", vec!["--format", "competition"]),
        (
            "--symmetry-breaking",
            vec!["--symmetry-breaking", "lex-leader"],
        ),
    ];
    for (flag, extra) in refused {
        let mut args = vec!["solve", "8", "--engine", "search"];
        args.extend(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{flag}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("{flag} does not go with --engine search")),
            "{flag}: {}",
            stderr(&out)
        );
    }
    // An unknown engine: the message lists the engines.
    let out = run(&["solve", "8", "--engine", "magic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("sat, search, propagator, or a chain of solvers"),
        "{}",
        stderr(&out)
    );
    // Past the search's board size.
    let out = run(&["solve", "65", "--engine", "search"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("64"), "{}", stderr(&out));
}

/// The options that choose the formula, and those of the SAT solvers, are refused with
/// `--engine search` (which makes no formula) instead of being ignored; the default formula's
/// values, given or not, change nothing.
#[test]
fn the_search_refuses_the_formulas_options() {
    let refused = [
        ("--amo", vec!["--amo", "sequential"]),
        ("--amo", vec!["--amo", "rows=sequential"]),
        ("--model columns", vec!["--model", "columns"]),
        (
            "--model columns",
            vec!["--model", "columns", "--domain", "order"],
        ),
        (
            "--model columns",
            vec!["--model", "columns", "--alldiff", "hall"],
        ),
        ("--redundant", vec!["--redundant", "sums"]),
        (
            "--redundant",
            vec!["--model", "columns", "--redundant", "permutation"],
        ),
        ("--column-alo", vec!["--column-alo"]),
        ("--force", vec!["--force"]),
    ];
    for (flag, extra) in refused {
        let mut args = vec!["solve", "8", "--engine", "search"];
        args.extend(extra.iter().copied());
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert_eq!(
            stderr(&out).lines().count(),
            1,
            "{extra:?}: {}",
            stderr(&out)
        );
        assert!(
            stderr(&out).starts_with(&format!("error: {flag} does not go with --engine search")),
            "{extra:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{extra:?}");
    }
    // --domain without the column model is refused naming it, as for every engine.
    let out = run(&["solve", "8", "--engine", "search", "--domain", "order"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--domain"), "{}", stderr(&out));
    for plain in [
        vec![],
        vec!["--amo", "pairwise"],
        vec!["--model", "cells"],
        vec!["--redundant", "none"],
    ] {
        let mut args = vec!["solve", "8", "--engine", "search", "--format", "line"];
        args.extend(plain.iter().copied());
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{plain:?}: {}", stderr(&out));
        let cols: Vec<usize> = stdout(&out)
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let queens: Vec<(usize, usize)> =
            cols.iter().enumerate().map(|(r, &c)| (r, c - 1)).collect();
        assert!(is_valid_placement(8, &queens), "{plain:?}: {cols:?}");
    }
}

#[test]
fn compare_runs_the_search_as_a_solver() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rows.csv");
    let out = run(&[
        "compare",
        "--n",
        "2,3,6,8",
        "--amo",
        "pairwise",
        "--solver",
        "search,varisat",
        "--repeat",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = CsvTable::read(&csv);
    let col = |name: &str| table.col(name);
    let (n, solver, status, ms, version) = (
        col("n"),
        col("solver"),
        col("status"),
        col("solve_ms"),
        col("solver_version"),
    );
    let rows = &table.rows;
    let search: Vec<&csv::StringRecord> = rows.iter().filter(|r| &r[solver] == "search").collect();
    assert_eq!(search.len(), 4, "{rows:?}");
    for r in &search {
        let expected = if matches!(&r[n], "2" | "3") {
            "UNSAT"
        } else {
            "SAT"
        };
        assert_eq!(&r[status], expected, "{r:?}");
        assert!(r[ms].parse::<f64>().is_ok(), "{r:?}");
        assert!(r[version].contains("search"), "{r:?}");
    }
    // The SAT solver's rows agree.
    for r in rows.iter().filter(|r| &r[solver] == "varisat") {
        let twin = search.iter().find(|s| s[n] == r[n]).unwrap();
        assert_eq!(r[status], twin[status], "{r:?}");
    }
}
