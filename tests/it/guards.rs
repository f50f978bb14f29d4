//! Guards against bad input: sizes past the limits, unbounded reads, caps on threads and
//! splits, empty DIMACS, usage errors with clap's hints. Every child runs under a watchdog, so a
//! regression that hangs fails instead of hanging the test run.

use crate::common::{bin, output_within, spawn, stderr, stdout};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use wait_timeout::ChildExt;

/// Exit code, stdout and stderr of the binary with `args`, killed (and the test failed) after
/// `secs` seconds.
fn run_timed(args: &[&str], secs: u64) -> (i32, String, String) {
    let o = output_within(
        bin().args(args).stdin(Stdio::null()),
        Duration::from_secs(secs),
    );
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

/// Asserts a refusal: exit 2, one line on stderr containing every one of `words`, no panic.
fn assert_refused(args: &[&str], secs: u64, words: &[&str]) -> String {
    let (code, _, err) = run_timed(args, secs);
    assert_eq!(code, 2, "queens-sat {}: stderr {err}", args.join(" "));
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for w in words {
        assert!(err.contains(w), "'{w}' missing from: {err}");
    }
    err
}

fn tmp_file(dir: &Path, name: &str, contents: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

// 1. Huge n: refused at once, no overflow.

#[test]
fn huge_n_is_refused_at_once() {
    for cmd in ["encode", "solve", "explain", "verify"] {
        let mut args = vec![cmd, "2147483648"];
        match cmd {
            "verify" => args.push("/dev/null"),
            "explain" => args.push("--force"),
            _ => {}
        }
        assert_refused(&args, 5, &["variables"]);
    }
    // 2^32: n*n wraps in u64 without checked arithmetic.
    assert_refused(&["encode", "4294967296"], 5, &["variables"]);
    assert_refused(
        &["solve", "4294967296", "--amo", "sequential"],
        5,
        &["variables"],
    );
}

#[test]
fn n_past_u64_is_too_large_not_malformed() {
    let err = assert_refused(&["encode", "18446744073709551616"], 5, &["too large"]);
    assert!(!err.contains("positive integer"), "{err}");
}

// 2. One size guard for every command.

#[test]
fn solve_refuses_formulas_too_large_for_memory() {
    for n in ["700", "16000"] {
        assert_refused(&["solve", n], 5, &["construct", "smaller n", "--force"]);
    }
    // The hint for --amo sequential appears only where it would fit.
    let err = assert_refused(&["solve", "700"], 5, &["--amo sequential"]);
    assert!(err.contains("clauses"), "{err}");
    let err = assert_refused(&["solve", "16000"], 5, &[]);
    assert!(!err.contains("--amo sequential"), "{err}");
    // Below the limit solve still works.
    let (code, out, _) = run_timed(&["solve", "8", "--format", "line"], 30);
    assert_eq!(code, 0);
    assert_eq!(out.split_whitespace().count(), 8);
}

#[test]
fn encode_keeps_its_message_and_force() {
    assert_refused(
        &["encode", "2000"],
        5,
        &["would write", "clauses", "--amo sequential", "--force"],
    );
}

#[test]
fn explain_of_a_huge_formula_is_refused_or_quick() {
    assert_refused(
        &["explain", "2000", "--force", "--limit", "1"],
        5,
        &["clauses"],
    );
    // `| head -3`: the first lines come at once, and the command stops when the reader goes.
    let mut child = spawn(
        bin()
            .args([
                "explain",
                "2000",
                "--force",
                "--limit",
                "1",
                "--amo",
                "sequential",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    );
    let mut first = String::new();
    {
        use std::io::BufRead;
        let mut r = std::io::BufReader::new(child.stdout.take().unwrap());
        for _ in 0..3 {
            r.read_line(&mut first).unwrap();
        }
    }
    let status = match child.wait_timeout(Duration::from_secs(30)).unwrap() {
        Some(s) => s,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("explain 2000 --amo sequential did not stop after its reader went away");
        }
    };
    assert!(first.starts_with("2000-queens"), "{first}");
    assert_eq!(status.code(), Some(0));
}

// 3. verify: streaming evaluation, bounded reads.

#[test]
fn verify_streams_the_clauses_of_a_large_board() {
    let n = 300;
    let dir = tempfile::tempdir().unwrap();
    let (code, line, err) = run_timed(&["construct", "300", "--format", "line"], 30);
    assert_eq!(code, 0, "{err}");
    let f = tmp_file(dir.path(), "p300", &line);
    let path = f.to_str().unwrap();
    let (code, out, err) = run_timed(&["verify", &n.to_string(), path], 60);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verdict: valid"), "{out}");
    assert!(out.contains("CNF: satisfies all"), "{out}");
    // A wrong board is named clause by clause.
    let f = tmp_file(dir.path(), "bad8", "1 2 3 4 5 6 7 8\n");
    let (code, out, _) = run_timed(&["verify", "8", f.to_str().unwrap()], 30);
    assert_eq!(code, 1);
    assert!(out.contains("clause 653 (Q5"), "{out}");
}

#[test]
fn verify_refuses_boards_past_the_limit_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let f = tmp_file(dir.path(), "p1000", "1\n");
    for n in ["1000", "10000"] {
        assert_refused(
            &["verify", n, f.to_str().unwrap()],
            5,
            &["clauses", "--force"],
        );
    }
}

#[test]
fn verify_bounds_its_read() {
    assert_refused(&["verify", "8", "/dev/zero"], 10, &["larger than"]);
}

// 4. Caps.

#[test]
fn threads_are_capped_and_zero_refused() {
    assert_refused(
        &["solve", "10", "--count", "--threads", "100000"],
        5,
        &["1..=1024"],
    );
    assert_refused(&["solve", "8", "--threads", "0"], 5, &["--threads"]);
}

#[test]
fn split_rows_are_bounded() {
    for k in ["8", "30"] {
        assert_refused(
            &["solve", "30", "--limit", "1", "--split-rows", k],
            5,
            &["--split-rows", "at most"],
        );
    }
    let (code, out, err) = run_timed(&["solve", "8", "--count", "--split-rows", "3"], 60);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "92");
}

// 5. sat on an empty file.

#[test]
fn sat_refuses_a_file_without_header() {
    let dir = tempfile::tempdir().unwrap();
    let f = tmp_file(dir.path(), "empty.cnf", "");
    assert_refused(&["sat", f.to_str().unwrap()], 5, &["p cnf"]);
    let f = tmp_file(dir.path(), "comments.cnf", "c only a comment\n");
    assert_refused(&["sat", f.to_str().unwrap()], 5, &["p cnf"]);
    let f = tmp_file(dir.path(), "ok.cnf", "p cnf 1 1\n1 0\n");
    let (code, out, _) = run_timed(&["sat", f.to_str().unwrap()], 10);
    assert_eq!(code, 10);
    assert!(out.contains("s SATISFIABLE"));
}

// 6. clap's hints.

#[test]
fn usage_errors_keep_clap_hints_on_one_line() {
    assert_refused(
        &["solv", "8"],
        5,
        &["unrecognized subcommand", "tip:", "'solve'"],
    );
    assert_refused(
        &["solve", "8", "--format", "xx"],
        5,
        &["possible values", "board"],
    );
}
