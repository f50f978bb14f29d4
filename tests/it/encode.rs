//! The encoder and the `encode` command: counts, DIMACS round trips, external solvers, CLI.

use crate::common::*;
use queens_sat::cnf::{Cnf, CountingSink};
use queens_sat::encode::{Amo, EncodeOptions, LineEncodings, QueensEncoder};

/// Every option combination the encoder offers: each at-most-one encoding, with and without
/// the redundant column clauses.
fn all_options() -> Vec<EncodeOptions> {
    let mut v = Vec::new();
    for amo in Amo::all() {
        for column_alo in [false, true] {
            v.push(EncodeOptions {
                amo: LineEncodings::uniform(amo),
                column_alo,
            });
        }
    }
    v
}

fn binom(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The reference document's closed form.
fn reference_clauses(n: u64) -> u64 {
    n + 2 * n * binom(n, 2) + 2 * (2 * binom(n + 1, 3) - binom(n, 2))
}

#[test]
fn counting_sink_and_formula_agree_with_closed_form() {
    for n in 1..=60usize {
        let enc = QueensEncoder::new(n, EncodeOptions::default()).unwrap();
        let mut count = CountingSink::default();
        enc.encode(&mut count).unwrap();
        assert_eq!(count.clauses, reference_clauses(n as u64), "n={n}");
        if n <= 25 {
            let mut f = Cnf::new();
            enc.encode(&mut f).unwrap();
            assert_eq!(f.len() as u64, count.clauses);
            assert_eq!(f.max_var(), n * n);
        }
    }
}

#[test]
fn dimacs_round_trips_through_varisat_parser() {
    for opts in all_options() {
        for n in 1..=30usize {
            let enc = QueensEncoder::new(n, opts).unwrap();
            let text = enc.write_dimacs(Vec::new(), Some("test")).unwrap();
            // The parser checks the clause and variable counts of the header.
            let mut parser = varisat_dimacs::DimacsParser::new();
            parser.parse_chunk(&text).unwrap();
            parser.eof().unwrap();
            parser.check_header().unwrap();
            let header = parser.header().expect("header present");
            let parsed = parser.take_formula();
            let mut f = Cnf::new();
            enc.encode(&mut f).unwrap();
            assert_eq!(header.clause_count, f.len());
            assert_eq!(header.var_count as u64, enc.size().vars);
            let a: Vec<Vec<_>> = parsed.iter().map(|c| c.to_vec()).collect();
            let b: Vec<Vec<_>> = f.iter().map(|c| c.to_vec()).collect();
            assert_eq!(a, b, "n={n} {opts:?}");
        }
    }
}

#[test]
fn header_starts_with_comments_then_exact_counts() {
    let out = run(&["encode", "8"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let mut comments = Vec::new();
    let p = loop {
        let l = lines.next().unwrap();
        if let Some(c) = l.strip_prefix('c') {
            comments.push(c.to_string());
        } else {
            break l;
        }
    };
    assert_eq!(p, "p cnf 64 736");
    let all = comments.join("\n");
    assert!(all.contains("queens-sat"));
    assert!(all.contains("n = 8"));
    assert!(all.contains("command: queens-sat encode 8"));
    // variable 10 is row 2, column 2 by the rule (r-1)*n + c.
    assert!(all.contains("var 10 = q(2,2)"));
    let clauses: Vec<&str> = lines.collect();
    assert_eq!(clauses.len(), 736);
    assert!(clauses.iter().all(|l| l.ends_with(" 0")));
    // Q1 first: row 1 at least one.
    assert_eq!(clauses[0], "1 2 3 4 5 6 7 8 0");
}

#[test]
fn output_file_equals_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.cnf");
    let out = run(&["encode", "9", "--column-alo", "-o", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let file = std::fs::read_to_string(&path).unwrap();
    let stdout = String::from_utf8(run(&["encode", "9", "--column-alo"]).stdout).unwrap();
    // Only the command-line comment differs.
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("c command:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&file), strip(&stdout));
    assert!(file.contains(&format!("p cnf 81 {}", reference_clauses(9) + 9)));
    // Nothing else left in the folder (the temporary file was renamed).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // The file has the usual permissions, not the temporary file's private ones.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644);
}

fn assert_usage_error(args: &[&str], needle: &str) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "one-line error: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    assert_usage_error(&["encode", "0"], "at least 1");
    assert_usage_error(&["encode", "-3"], "positive integer");
    assert_usage_error(&["encode", "eight"], "positive integer");
    assert_usage_error(&["encode", "8", "--frobnicate"], "--frobnicate");
    assert_usage_error(&["encode", "8", "--amo", "nonsense"], "nonsense");
    assert_usage_error(&["encode"], "required");
    assert_usage_error(
        &["encode", "8", "-o", "/no/such/folder/q.cnf"],
        "does not exist",
    );
}

#[test]
fn unwritable_output_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    // A path whose "folder" is a regular file cannot be written.
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let out = run(&["encode", "5", "-o", blocker.join("q.cnf").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // Writing onto a directory is refused too.
    let out = run(&["encode", "5", "-o", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("file")]);
}

#[test]
fn absurd_sizes_are_refused_with_an_estimate() {
    let out = run(&["encode", "100000"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("variables"), "{err}");
    let out = run(&["encode", "1000"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("clauses") && err.contains("--force"), "{err}");
    assert!(err.contains("GiB"), "{err}");
}

/// A reader that goes away after the first bytes (`| head`) ends the command quietly, whether
/// the library writes standard output itself (encode) or a command writes to the program's
/// (count --list, solve --all, construct).
#[test]
fn broken_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    for args in [
        &["encode", "300"][..],
        &["count", "12", "--list"],
        &["solve", "12", "--all"],
        &["construct", "20000", "--format", "line"],
    ] {
        let mut child = spawn(
            bin()
                .args(args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        );
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 100];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Real external solvers on exported files: SAT for n = 1, 4..20 with a valid placement in
/// the model, UNSAT for n = 2, 3.
fn external_solver_agrees(solver: &str) {
    if !require(solver) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for opts in all_options() {
        for n in [1usize, 2, 3].into_iter().chain(4..=20) {
            let path = dir.path().join(format!("q{n}.cnf"));
            let mut args = vec!["encode".to_string(), n.to_string(), "-o".into()];
            args.push(path.to_str().unwrap().into());
            args.push("--amo".into());
            args.push(opts.amo.to_string());
            if opts.column_alo {
                args.push("--column-alo".into());
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run(&args);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let answer = run_external(solver, &path);
            if n == 2 || n == 3 {
                assert!(answer.is_none(), "{solver} found a model for n={n}");
            } else {
                let model = answer.unwrap_or_else(|| panic!("{solver}: n={n} UNSAT"));
                let queens = queens_of_model(n, &model);
                assert!(
                    is_valid_placement(n, &queens),
                    "{solver} n={n} {opts:?}: {queens:?}"
                );
            }
        }
    }
}

#[test]
fn cadical_solves_exported_files() {
    external_solver_agrees("cadical");
}

#[test]
fn minisat_solves_exported_files() {
    external_solver_agrees("minisat");
}

/// An interruption (SIGINT or SIGTERM) while `-o FILE` is being written removes the temporary
/// file, leaves no FILE, says so and exits with status 130.
#[cfg(unix)]
#[test]
fn interrupted_write_leaves_no_file() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("q.cnf");
        // About 4 GB of DIMACS: seconds of writing, interrupted long before the end.
        let child = spawn(
            bin()
                .args(["encode", "600", "-o", target.to_str().unwrap()])
                .stderr(Stdio::piped()),
        );
        let names = || -> Vec<std::ffi::OsString> {
            std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect()
        };
        // The write has begun once the temporary file exists.
        let start = Instant::now();
        while names().is_empty() {
            assert!(start.elapsed() < Duration::from_secs(60), "nothing written");
            std::thread::sleep(Duration::from_millis(2));
        }
        // SAFETY: kill(2) on the pid of a child not yet waited for.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "signal {signal}: {err}");
        assert!(names().is_empty(), "signal {signal}: left {:?}", names());
        assert!(
            err.contains("interrupted") && err.contains("q.cnf was not written"),
            "{err}"
        );
    }
}
