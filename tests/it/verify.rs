//! `queens-sat verify` on real CaDiCaL and MiniSat answers to exported files, and on corrupted
//! copies of them. When a solver is missing the test says it is skipped, unless CI=true
//! (then ./test.sh must have installed it and the test fails).

use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Exports the CNF of `n` with `extra` options into `dir`.
fn export(dir: &Path, n: usize, extra: &[&str]) -> PathBuf {
    let path = dir.join(format!("q{n}.cnf"));
    let o = output(
        bin()
            .args(["encode", &n.to_string(), "-o"])
            .arg(&path)
            .args(extra),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

/// Runs a real solver on `cnf` and returns its answer file.
fn solve_with(solver: &str, cnf: &Path, out: &Path) -> PathBuf {
    if solver == "minisat" {
        let _ = output(Command::new("minisat").arg(cnf).arg(out));
    } else {
        let o = output(Command::new(solver).arg(cnf));
        std::fs::write(out, &o.stdout).unwrap();
    }
    assert!(out.exists());
    out.to_path_buf()
}

fn verify(n: usize, file: &Path, extra: &[&str]) -> Output {
    output(bin().args(["verify", &n.to_string()]).arg(file).args(extra))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Accepted: real answers for several n, both solvers; UNSAT answers for n = 2, 3.
#[test]
fn accepts_real_solver_output() {
    let dir = tempfile::tempdir().unwrap();
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        for n in [1usize, 4, 8, 12, 30] {
            let cnf = export(dir.path(), n, &[]);
            let ans = solve_with(solver, &cnf, &dir.path().join(format!("{solver}{n}.txt")));
            let o = verify(n, &ans, &[]);
            assert_eq!(o.status.code(), Some(0), "{solver} n={n}: {}", stdout(&o));
            assert!(stdout(&o).contains("verdict: valid"));
            assert!(stdout(&o).contains("board: valid"));
        }
        // With the redundant column clauses.
        let cnf = dir.path().join("partial.cnf");
        let o = output(bin().args(["encode", "10", "--column-alo", "-o"]).arg(&cnf));
        assert!(o.status.success());
        let ans = solve_with(solver, &cnf, &dir.path().join("partial.txt"));
        let o = verify(10, &ans, &["--column-alo"]);
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        for n in [2usize, 3] {
            let cnf = export(dir.path(), n, &[]);
            let ans = solve_with(solver, &cnf, &dir.path().join(format!("{solver}u{n}.txt")));
            let o = verify(n, &ans, &[]);
            assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
            assert!(stdout(&o).contains("correct: no solution exists"));
        }
    }
}

/// Negates the first literal of the model whose variable is `var`.
fn flip(text: &str, var: i64) -> String {
    let mut done = false;
    text.lines()
        .map(|line| {
            if !is_model_line(line) || done {
                return line.to_string();
            }
            line.split(' ')
                .map(|t| match t.parse::<i64>() {
                    Ok(l) if !done && l.abs() == var => {
                        done = true;
                        (-l).to_string()
                    }
                    _ => t.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .map(|l| l + "\n")
        .collect()
}

/// `true` for a line of a model: a `v` line or MiniSat's literal line.
fn is_model_line(l: &str) -> bool {
    l.starts_with("v ") || l.starts_with(|ch: char| ch == '-' || ch.is_ascii_digit())
}

/// The byte range of the model lines (from the first to the end of the last, newline included).
fn model_span(text: &str) -> (usize, usize) {
    let mut start = None;
    let mut end = 0;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        if is_model_line(line) {
            start.get_or_insert(pos);
            end = pos + line.len();
        }
        pos += line.len();
    }
    (start.expect("a model"), end)
}

/// The board's queens' variables (positive literals among the cells) of a model text.
fn queens(text: &str, n: i64) -> Vec<i64> {
    text.lines()
        .filter(|l| is_model_line(l))
        .flat_map(|l| l.split_whitespace())
        .filter_map(|t| t.parse::<i64>().ok())
        .filter(|&l| l > 0 && l <= n * n)
        .collect()
}

#[test]
fn rejects_corrupted_output() {
    let dir = tempfile::tempdir().unwrap();
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        let n = 30usize;
        let cnf = export(dir.path(), n, &[]);
        let good_path = solve_with(solver, &cnf, &dir.path().join(format!("{solver}.txt")));
        let good = std::fs::read_to_string(&good_path).unwrap();
        let qs = queens(&good, n as i64);
        assert_eq!(qs.len(), n);

        // A queen removed: its row is empty, so a Q1 clause is false.
        let f = write(dir.path(), "removed.txt", &flip(&good, qs[3]));
        let o = verify(n, &f, &[]);
        assert_eq!(o.status.code(), Some(1), "{solver}: {}", stdout(&o));
        let text = stdout(&o);
        assert!(text.contains("row 4 has no queen"), "{text}");
        assert!(
            text.contains("(Q1: every row has at least one queen) is false"),
            "{text}"
        );

        // A queen added next to the first one: two queens in row 1, a Q2 clause is false.
        let first_col = qs[0]; // row 1: variable = column
        let other = if first_col == 1 { 2 } else { first_col - 1 };
        let f = write(dir.path(), "added.txt", &flip(&good, other));
        let o = verify(n, &f, &[]);
        assert_eq!(o.status.code(), Some(1));
        let text = stdout(&o);
        assert!(text.contains("row 1 has 2 queens"), "{text}");
        assert!(
            text.contains("(Q2: every row has at most one queen) is false"),
            "{text}"
        );
        assert!(text.contains("-q(1,"), "{text}");

        // The final 0 missing.
        let (start, end) = model_span(&good);
        let model = good[start..end].trim_end();
        assert!(model.ends_with(" 0"));
        let no0 = format!(
            "{}{}\n{}",
            &good[..start],
            &model[..model.len() - 2],
            &good[end..]
        );
        let f = write(dir.path(), "no0.txt", &no0);
        let o = verify(n, &f, &[]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("does not end with 0"), "{}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1);

        // A model line cut short in the middle, the rest of the output intact.
        let lines: Vec<&str> = good.lines().collect();
        // (MiniSat writes the model on one line: cutting it loses the final 0.)
        let model_lines = lines.iter().filter(|l| is_model_line(l)).count();
        let i = lines.iter().position(|l| is_model_line(l)).unwrap();
        let mut cut: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let keep: Vec<&str> = lines[i].split_whitespace().take(10).collect();
        cut[i] = keep.join(" ");
        let f = write(dir.path(), "cut.txt", &(cut.join("\n") + "\n"));
        let o = verify(n, &f, &[]);
        if model_lines > 1 {
            // Ends with 0 but gives no value to some variables: incomplete input, exit 2.
            assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
            assert!(stderr(&o).contains("gives no value to"), "{}", stderr(&o));
            assert_eq!(stderr(&o).lines().count(), 1);
        } else {
            assert_eq!(o.status.code(), Some(2));
            assert!(stderr(&o).contains("does not end with 0"), "{}", stderr(&o));
        }

        // A truncated output: everything after the middle of the model gone.
        let f = write(dir.path(), "trunc.txt", &good[..(start + end) / 2]);
        let o = verify(n, &f, &[]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("does not end with 0"), "{}", stderr(&o));

        // A model of the wrong n, both ways.
        let o = verify(n - 2, &good_path, &[]);
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stdout(&o).contains("is it a model for n = 30?"),
            "{}",
            stdout(&o)
        );
        // (A model for a smaller n gives no value to the larger formula's last variables:
        // incomplete, exit 2.)
        let o = verify(n + 2, &good_path, &[]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("is it a model for n = 30?"),
            "{}",
            stderr(&o)
        );

        // The right model under a partial board it does not complete.
        let place = format!("1,{}", if first_col == 1 { 2 } else { 1 });
        let o = verify(n, &good_path, &["--place", &place]);
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stdout(&o).contains("(P: pre-placed queen) is false"),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn judges_unsat_claims_and_placements() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "u.txt", "c made up\ns UNSATISFIABLE\n");
    let o = verify(8, &f, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("WRONG"));
    let o = verify(3, &f, &[]);
    assert_eq!(o.status.code(), Some(0));
    let f = write(dir.path(), "m.txt", "UNSAT\n");
    let o = verify(8, &f, &["--place", "1,1", "--place", "2,3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let f = write(dir.path(), "k.txt", "s UNKNOWN\n");
    assert_eq!(verify(8, &f, &[]).status.code(), Some(1));

    // One-line placements, from a file and from stdin.
    let f = write(dir.path(), "ok.txt", "4 6 8 2 7 1 3 5\n");
    let o = verify(8, &f, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let f = write(dir.path(), "bad.txt", "1 2 3 4 5 6 7 8\n");
    let o = verify(8, &f, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("queens at (1,1) and (2,2) share a \\ diagonal"));
    assert!(
        stdout(&o).contains("(Q5: every \\ diagonal"),
        "{}",
        stdout(&o)
    );
    let mut child = spawn(
        bin()
            .args(["verify", "9", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped()),
    );
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"4 6 8 2 7 1 3 5 9\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));

    // Unreadable inputs: one line on stderr, exit 2.
    for (name, text, needle) in [
        ("g.txt", "hello\n", "unexpected line"),
        ("short.txt", "1 3 5\n", "expected 8 columns"),
        ("e.txt", "", "no solver answer"),
        ("x.txt", "s SATISFIABLE\nv 1 x 0\n", "'x' is not a literal"),
    ] {
        let f = write(dir.path(), name, text);
        let o = verify(8, &f, &[]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(stderr(&o).contains(needle), "{name}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1);
    }
    // A model that ends with 0 but leaves variables out: truncated, exit 2.
    let f = write(dir.path(), "v0.txt", "s SATISFIABLE\nv 2 8 9 0\n");
    let o = verify(4, &f, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("incomplete model"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("gives no value to 13"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).lines().count(), 1);
    assert!(stdout(&o).is_empty());
    let o = verify(8, &dir.path().join("missing.txt"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"));
}

#[test]
fn instance_file_gives_n() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("b.txt");
    let o = output(
        bin()
            .args([
                "generate", "blocked", "8", "--p", "0.2", "--seed", "1", "-o",
            ])
            .arg(&inst),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = output(
        bin()
            .args(["solve", "--format", "line", "--instance"])
            .arg(&inst),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let answer = write(dir.path(), "a.txt", &stdout(&o));
    let verify_inst = |extra: &[&str], operands: &[&Path]| {
        output(
            bin()
                .arg("verify")
                .arg("--instance")
                .arg(&inst)
                .args(extra)
                .args(operands),
        )
    };
    // Without N, and with the file's N: the same verdict.
    let o = verify_inst(&[], &[&answer]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("verdict: valid"), "{}", stdout(&o));
    let eight = Path::new("8");
    let o = verify_inst(&[], &[eight, &answer]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The instance still applies without N: forbidding the answer's first queen rejects it.
    let first: usize = stdout(&o)
        .lines()
        .find_map(|l| l.strip_prefix("answer: one-line placement "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|c| c.parse().ok())
        .expect("the answer line");
    let cell = format!("1,{first}");
    let o = verify_inst(&["--forbid", &cell], &[&answer]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    // Bad input: one line, exit 2.
    let nine = Path::new("9");
    for (o, needle) in [
        (
            verify_inst(&[], &[nine, &answer]),
            "disagrees with the instance file",
        ),
        (
            output(bin().arg("verify").arg(&answer)),
            "give the board size N before the answer, or --instance FILE",
        ),
    ] {
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
}

/// The clauses of a DIMACS file as DIMACS literals, and its `p cnf` counts, read here.
fn dimacs_of(path: &Path) -> (usize, usize, Vec<Vec<i64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut counts = None;
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        if let Some(p) = t.strip_prefix("p cnf ") {
            let v: Vec<usize> = p.split_whitespace().map(|x| x.parse().unwrap()).collect();
            counts = Some((v[0], v[1]));
            continue;
        }
        for tok in t.split_whitespace() {
            let l: i64 = tok.parse().unwrap();
            if l == 0 {
                clauses.push(std::mem::take(&mut clause));
            } else {
                clause.push(l);
            }
        }
    }
    let (vars, n) = counts.expect("a p cnf line");
    assert_eq!(n, clauses.len());
    (vars, n, clauses)
}

/// The literals of the model of an answer file (SAT-competition `v` lines or MiniSat's line).
fn model_lits(text: &str) -> Vec<i64> {
    text.lines()
        .filter(|l| is_model_line(l))
        .flat_map(|l| l.trim_start_matches("v ").split_whitespace())
        .map(|t| t.parse::<i64>().unwrap())
        .filter(|&l| l != 0)
        .collect()
}

/// The 1-based number and the literals of the first clause that `model` falsifies, evaluated
/// here.
fn first_false(clauses: &[Vec<i64>], model: &[i64]) -> Option<(usize, Vec<i64>)> {
    let truth: std::collections::HashSet<i64> = model.iter().copied().collect();
    clauses
        .iter()
        .position(|c| !c.iter().any(|l| truth.contains(l)))
        .map(|i| (i + 1, clauses[i].clone()))
}

/// `verify --cnf FILE [N] ANSWER`.
fn verify_cnf(cnf: &Path, n: Option<usize>, answer: &Path) -> Output {
    let mut cmd = bin();
    cmd.arg("verify").arg("--cnf").arg(cnf);
    if let Some(n) = n {
        cmd.arg(n.to_string());
    }
    output(cmd.arg(answer))
}

/// The board of a report (`board: valid n-queens solution for n = N: ...`) as 0-based cells.
fn reported_board(report: &str) -> Vec<(usize, usize)> {
    let line = report
        .lines()
        .find_map(|l| l.split_once("board: valid n-queens solution for n = "))
        .map(|(_, rest)| rest.split_once(": ").expect("the one-line board").1)
        .expect("a valid board");
    line.split_whitespace()
        .enumerate()
        .map(|(r, c)| (r, c.parse::<usize>().unwrap() - 1))
        .collect()
}

/// Asserts a one-line error on stderr containing `needle`, exit 2, nothing on stdout.
#[track_caller]
fn assert_input_error(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(o), stderr(o));
    assert!(stderr(o).contains(needle), "{}", stderr(o));
    assert_eq!(stderr(o).lines().count(), 1, "{}", stderr(o));
    assert!(stdout(o).is_empty(), "{}", stdout(o));
}

/// `verify --cnf FILE ANSWER` takes the options from the file's header: real solvers' models of
/// files written with other encodings, models, redundant constraints, symmetry breaking and
/// partial boards are valid without repeating the options, while the same answers checked
/// against the default formula are not.
#[test]
fn cnf_file_gives_the_options() {
    let dir = tempfile::tempdir().unwrap();
    let n = 8usize;
    let options: [&[&str]; 8] = [
        &["--amo", "sequential"],
        &[
            "--amo",
            "rows=pairwise,columns=sequential,diagonals=product",
            "--column-alo",
        ],
        &["--model", "columns"],
        &["--model", "columns", "--domain", "order"],
        &["--redundant", "sums"],
        &["--amo", "commander", "--symmetry-breaking", "lex-leader"],
        &["--amo", "ladder", "--place", "1,3", "--forbid", "2,5"],
        &["--model", "columns", "--alldiff", "hall"],
    ];
    let mut solvers = 0;
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        solvers += 1;
        for (k, extra) in options.iter().enumerate() {
            let cnf = dir.path().join(format!("f{k}.cnf"));
            let o = output(
                bin()
                    .args(["encode", &n.to_string(), "-o"])
                    .arg(&cnf)
                    .args(*extra),
            );
            assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
            let answer = solve_with(solver, &cnf, &dir.path().join(format!("{solver}{k}.txt")));
            let model = model_lits(&std::fs::read_to_string(&answer).unwrap());
            // The oracles: the file's clauses evaluated here, the board checked here.
            let (vars, clauses, cls) = dimacs_of(&cnf);
            assert_eq!(first_false(&cls, &model), None, "{solver} {extra:?}");
            let o = verify_cnf(&cnf, None, &answer);
            let report = stdout(&o);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{solver} {extra:?}: {report}{}",
                stderr(&o)
            );
            assert!(report.contains("verdict: valid"), "{report}");
            let all = format!(
                "CNF: satisfies all {clauses} clauses of {} over {vars} variables",
                cnf.display()
            );
            assert!(report.contains(&all), "{extra:?}: {report}");
            let board = reported_board(&report);
            assert!(is_valid_placement(n, &board), "{extra:?}: {report}");
            if extra[0] != "--model" && extra[0] != "--alldiff" {
                // The cell model: the board is the model's, read here.
                let mut queens = queens_of_model(n, &model);
                queens.sort();
                assert_eq!(board, queens, "{extra:?}: {report}");
            }
            if extra.contains(&"--place") {
                assert!(
                    board.contains(&(0, 2)) && !board.contains(&(1, 4)),
                    "{report}"
                );
            }
            // N given, agreeing with the header: the same verdict.
            let o = verify_cnf(&cnf, Some(n), &answer);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            // Without --cnf and without the options, an answer with auxiliary variables is
            // not one of the default formula's (the defect this option mends).
            if vars != n * n {
                let o = verify(n, &answer, &[]);
                assert_ne!(o.status.code(), Some(0), "{extra:?}: {}", stdout(&o));
            }
        }
    }
    if solvers == 0 || !require("cadical") {
        return;
    }
    // The options repeated without --cnf keep their meaning.
    let cnf = export(dir.path(), n, &["--amo", "sequential"]);
    let answer = solve_with("cadical", &cnf, &dir.path().join("seq.txt"));
    let o = verify(n, &answer, &["--amo", "sequential"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// An answer checked against a file it is not a model of, or a corrupted answer: INVALID, exit
/// 1, naming the first false clause of the file as found here.
#[test]
fn cnf_file_names_the_false_clause() {
    let dir = tempfile::tempdir().unwrap();
    let n = 10usize;
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        let cnf = export(dir.path(), n, &["--amo", "sequential"]);
        let answer = solve_with(solver, &cnf, &dir.path().join(format!("{solver}.txt")));
        let good = std::fs::read_to_string(&answer).unwrap();
        let model = model_lits(&good);
        let queens = queens_of_model(n, &model);
        assert_eq!(queens.len(), n);

        // Another file with the same variables: the answer's queen of row 4 forbidden.
        let (r, c) = queens[3];
        let forbid = format!("{},{}", r + 1, c + 1);
        let other = dir.path().join("other.cnf");
        let o = output(
            bin()
                .args([
                    "encode",
                    &n.to_string(),
                    "--amo",
                    "sequential",
                    "--forbid",
                    &forbid,
                ])
                .arg("-o")
                .arg(&other),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let (_, clauses, cls) = dimacs_of(&other);
        let (k, lits) = first_false(&cls, &model).expect("a false clause");
        assert_eq!(lits, [-((r * n + c + 1) as i64)]);
        let o = verify_cnf(&other, None, &answer);
        let report = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{report}{}", stderr(&o));
        assert!(report.contains("verdict: INVALID"), "{report}");
        let named = format!(
            "CNF: NOT satisfied: clause {k} (F: forbidden cell) is false: -q({},{})",
            r + 1,
            c + 1
        );
        assert!(report.contains(&named), "{report}");
        assert_eq!(k, clauses, "the forbidden cell's unit clause comes last");
        assert!(
            report.contains("board: NOT a solution: the forbidden cell"),
            "{report}"
        );

        // The file with a clause of its own appended (not the header's): named as written.
        let text = std::fs::read_to_string(&cnf).unwrap();
        let (vars, count, cls) = dimacs_of(&cnf);
        let extra = format!("-{} {} 0\n", r * n + c + 1, vars);
        let appended = text.replace(
            &format!("p cnf {vars} {count}\n"),
            &format!("p cnf {vars} {}\n", count + 1),
        ) + extra.as_str();
        let appended_path = write(dir.path(), "appended.cnf", &appended);
        let mut with = cls.clone();
        with.push(vec![-((r * n + c + 1) as i64), vars as i64]);
        match first_false(&with, &model) {
            Some((k, lits)) => {
                let o = verify_cnf(&appended_path, None, &answer);
                assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
                let line = format!(
                    "CNF: NOT satisfied: clause {k} of {} is false: {}",
                    appended_path.display(),
                    lits.iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                assert!(stdout(&o).contains(&line), "{}", stdout(&o));
            }
            None => {
                let o = verify_cnf(&appended_path, None, &answer);
                assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
            }
        }

        // A corrupted model: the queen of row 4 taken away.
        let var = (r * n + c + 1) as i64;
        let bad = flip(&good, var);
        let bad_model = model_lits(&bad);
        assert!(bad_model.contains(&-var));
        let (k, _) = first_false(&cls, &bad_model).expect("a false clause");
        let bad_path = write(dir.path(), "bad.txt", &bad);
        let o = verify_cnf(&cnf, None, &bad_path);
        let report = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{report}");
        assert!(report.contains("verdict: INVALID"), "{report}");
        assert!(
            report.contains(&format!("CNF: NOT satisfied: clause {k} (")),
            "{report}"
        );
        assert!(
            report.contains("board: NOT a solution: row 4 has no queen"),
            "{report}"
        );

        // Against the pairwise file of the same n: the model names variables it has not.
        let pairwise = export(dir.path(), n, &[]);
        let o = verify_cnf(&pairwise, None, &answer);
        assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
        assert!(
            stdout(&o).contains(&format!("the model names variable {vars}")),
            "{}",
            stdout(&o)
        );
    }
}

/// A file without a queens-sat header: N gives the board, whose cells are variables 1..n*n;
/// without N, or with an N that the header contradicts, a one-line error and exit 2.
#[test]
fn cnf_file_without_header_needs_n() {
    let dir = tempfile::tempdir().unwrap();
    if !require("cadical") {
        return;
    }
    let n = 9usize;
    let cnf = export(dir.path(), n, &["--amo", "product"]);
    let text = std::fs::read_to_string(&cnf).unwrap();
    let plain: String = text
        .lines()
        .filter(|l| !l.starts_with('c'))
        .map(|l| format!("{l}\n"))
        .collect();
    let plain_path = write(dir.path(), "plain.cnf", &plain);
    let answer = solve_with("cadical", &plain_path, &dir.path().join("a.txt"));
    let model = model_lits(&std::fs::read_to_string(&answer).unwrap());
    let (vars, clauses, cls) = dimacs_of(&plain_path);
    assert!(first_false(&cls, &model).is_none());

    let o = verify_cnf(&plain_path, Some(n), &answer);
    let report = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{report}{}", stderr(&o));
    assert!(report.contains("without a queens-sat header"), "{report}");
    assert!(report.contains("variables 1..81"), "{report}");
    assert!(
        report.contains(&format!(
            "satisfies all {clauses} clauses of {} over {vars} variables",
            plain_path.display()
        )),
        "{report}"
    );
    let mut queens = queens_of_model(n, &model);
    queens.sort();
    assert_eq!(reported_board(&report), queens);

    // A queen moved: the first false clause, as written in the file.
    let (r, c) = queens[0];
    let moved = flip(
        &flip(
            &std::fs::read_to_string(&answer).unwrap(),
            (r * n + c + 1) as i64,
        ),
        (r * n + (c + 1) % n + 1) as i64,
    );
    let (k, lits) = first_false(&cls, &model_lits(&moved)).expect("a false clause");
    let moved_path = write(dir.path(), "moved.txt", &moved);
    let o = verify_cnf(&plain_path, Some(n), &moved_path);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let line = format!(
        "CNF: NOT satisfied: clause {k} of {} is false: {}",
        plain_path.display(),
        lits.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(stdout(&o).contains(&line), "{}", stdout(&o));

    // No header and no N; N disagreeing with a header; more cells than variables.
    assert_input_error(
        &verify_cnf(&plain_path, None, &answer),
        "has no queens-sat header",
    );
    assert_input_error(
        &verify_cnf(&cnf, Some(n + 1), &answer),
        &format!(
            "n = {} disagrees with the header of {} (n = {n})",
            n + 1,
            cnf.display()
        ),
    );
    let huge = (vars as f64).sqrt() as usize + 1;
    assert_input_error(
        &verify_cnf(&plain_path, Some(huge), &answer),
        &format!("fewer than the {} cells", huge * huge),
    );
    // The options come from the file, not from the command line; a header that does not
    // describe its file; a file that is not DIMACS.
    let o = output(
        bin()
            .args(["verify", "--amo", "product", "--cnf"])
            .arg(&cnf)
            .arg(&answer),
    );
    assert_input_error(&o, "cannot be used with");
    let lying = write(
        dir.path(),
        "lying.cnf",
        &text.replace(&format!("p cnf {vars} "), &format!("p cnf {} ", vars + 1)),
    );
    assert_input_error(
        &verify_cnf(&lying, None, &answer),
        "is not what its header says",
    );
    assert_input_error(&verify_cnf(&answer, None, &answer), "is not valid DIMACS");
    let bogus = write(
        dir.path(),
        "bogus.cnf",
        &text.replace("--amo product", "--amo nonesuch"),
    );
    assert_input_error(
        &verify_cnf(&bogus, None, &answer),
        "unknown at-most-one encoding",
    );
}

/// UNSAT claims and one-line placements against a file; a file whose header reads an instance
/// file (a name with a blank and a quote), checked from another folder.
#[test]
fn cnf_file_judges_unsat_claims_placements_and_instances() {
    let dir = tempfile::tempdir().unwrap();
    if !require("cadical") {
        return;
    }
    // A real UNSAT answer, and a made-up one for a satisfiable file.
    let q3 = export(dir.path(), 3, &["--amo", "sequential"]);
    let u3 = solve_with("cadical", &q3, &dir.path().join("u3.txt"));
    let o = verify_cnf(&q3, None, &u3);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("has no model"), "{}", stdout(&o));
    let q8 = export(dir.path(), 8, &["--amo", "sequential"]);
    let o = verify_cnf(&q8, None, &u3);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let line = stdout(&o)
        .lines()
        .find_map(|l| {
            l.split_once("is satisfiable, e.g. by the solution ")
                .map(|x| x.1.to_string())
        })
        .expect("a solution");
    let board: Vec<(usize, usize)> = line
        .split_whitespace()
        .enumerate()
        .map(|(r, c)| (r, c.parse::<usize>().unwrap() - 1))
        .collect();
    assert!(is_valid_placement(8, &board), "{line}");

    // One-line placements: the auxiliary variables found by the embedded solver.
    let good = brute_force_solutions(8)[5]
        .iter()
        .map(|c| (c + 1).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let f = write(dir.path(), "good.txt", &format!("{good}\n"));
    let o = verify_cnf(&q8, None, &f);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("verdict: valid"), "{}", stdout(&o));
    let f = write(dir.path(), "diag.txt", "1 2 3 4 5 6 7 8\n");
    let o = verify_cnf(&q8, None, &f);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("no values of the auxiliary variables satisfy"),
        "{}",
        stdout(&o)
    );

    // An instance file in a folder of its own, read from the folder of the CNF.
    let sub = dir.path().join("a folder");
    std::fs::create_dir(&sub).unwrap();
    let o = output(bin().current_dir(&sub).args([
        "generate",
        "completion",
        "12",
        "--k",
        "4",
        "--seed",
        "3",
        "-o",
        "it's.txt",
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = output(bin().current_dir(&sub).args([
        "encode",
        "--instance",
        "it's.txt",
        "--amo",
        "binary",
        "-o",
        "i.cnf",
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    let cnf = sub.join("i.cnf");
    let answer = solve_with("cadical", &cnf, &dir.path().join("i.txt"));
    let o =
        output(
            bin()
                .current_dir(dir.path())
                .args(["verify", "--cnf", "a folder/i.cnf", "i.txt"]),
        );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // The instance's placed queens hold in the board reported.
    let inst = std::fs::read_to_string(sub.join("it's.txt")).unwrap();
    let placed: Vec<(usize, usize)> = inst
        .lines()
        .find_map(|l| l.strip_prefix("placed "))
        .expect("placed queens")
        .split_whitespace()
        .map(|rc| {
            let (r, c) = rc.split_once(',').unwrap();
            (
                r.parse::<usize>().unwrap() - 1,
                c.parse::<usize>().unwrap() - 1,
            )
        })
        .collect();
    let board = reported_board(&stdout(&o));
    assert!(
        placed.iter().all(|q| board.contains(q)),
        "{placed:?} {board:?}"
    );
    let model = model_lits(&std::fs::read_to_string(&answer).unwrap());
    assert!(first_false(&dimacs_of(&cnf).2, &model).is_none());
    // A solution of the empty board without the first placed queen: not one of the instance.
    let (r, c) = placed[0];
    let other = brute_force_solutions(12)
        .into_iter()
        .find(|s| s[r] != c)
        .unwrap();
    let line: Vec<String> = other.iter().map(|c| (c + 1).to_string()).collect();
    write(dir.path(), "other.txt", &(line.join(" ") + "\n"));
    let o = output(bin().current_dir(dir.path()).args([
        "verify",
        "--cnf",
        "a folder/i.cnf",
        "other.txt",
    ]));
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    // (The first placed queen it lacks, in the instance's order, is named.)
    let named = placed
        .iter()
        .find(|&&(r, c)| other[r] != c)
        .map(|(r, c)| format!("the pre-placed queen ({},{}) is missing", r + 1, c + 1))
        .unwrap();
    assert!(
        stdout(&o).contains(&format!("board: NOT a solution: {named}")),
        "{}",
        stdout(&o)
    );
}
