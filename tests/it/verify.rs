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
