//! External solvers run by the real binary: time limits that stop a whole process group,
//! UNSAT answers checked before they are reported, bounded output, cleanup on SIGTERM and
//! Ctrl-C, and the real CaDiCaL and MiniSat. Fake solvers are small shell scripts.
#![cfg(unix)]

use crate::common::{
    bin, is_valid_placement, output, output_within, queens_of_model, require, run, script, spawn,
    stderr, stdout, wait_bounded,
};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// A solver that never answers: it records its own pid in `pid` and that of a background
/// `sleep 1000` in `child`, then waits.
fn hang_script(dir: &Path) -> PathBuf {
    let d = dir.display();
    script(
        dir,
        "hang.sh",
        &format!("echo $$ > {d}/pid\nsleep 1000 &\necho $! > {d}/child\nwait\n"),
    )
}

/// `true` while the process `pid` exists and is not a zombie.
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            // The state follows the command name in parentheses.
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
    }
}

/// Waits up to `limit` for the pid written into `file`.
fn read_pid(file: &Path, limit: Duration) -> i32 {
    let start = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(file) {
            if let Ok(p) = s.trim().parse() {
                return p;
            }
        }
        assert!(start.elapsed() < limit, "{} never written", file.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Asserts that `pid` is gone within two seconds, killing it (for the next tests) if not.
fn assert_gone(pid: i32, what: &str) {
    let start = Instant::now();
    while alive(pid) && start.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    if alive(pid) {
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
        panic!("{what} (pid {pid}) is still running");
    }
}

/// Runs the binary with `args`, failing if it takes longer than `limit`.
fn run_bounded(args: &[&str], limit: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let o = output_within(bin().args(args).stdin(Stdio::null()), limit);
    (o, start.elapsed())
}

#[test]
fn a_hanging_solver_and_its_children_are_stopped_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let hang = hang_script(dir.path());
    let (o, took) = run_bounded(
        &[
            "solve",
            "8",
            "--solver",
            hang.to_str().unwrap(),
            "--timeout",
            "1",
        ],
        Duration::from_secs(20),
    );
    assert!(took < Duration::from_secs(6), "took {took:?}");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("gave no answer within 1 s"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(stdout(&o).is_empty());
    assert_gone(read_pid(&dir.path().join("pid"), Duration::ZERO), "hang.sh");
    assert_gone(
        read_pid(&dir.path().join("child"), Duration::ZERO),
        "the sleep 1000 started by hang.sh",
    );
}

#[test]
fn a_solver_that_exits_but_leaves_a_child_holding_the_pipe_does_not_block() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    // Answers UNSAT for n = 3 (true), leaving a background sleep with its stdout.
    let s = script(
        dir.path(),
        "leaver.sh",
        &format!("sleep 1000 &\necho $! > {d}/child\necho 's UNSATISFIABLE'\n"),
    );
    let (o, took) = run_bounded(
        &["solve", "3", "--solver", s.to_str().unwrap()],
        Duration::from_secs(20),
    );
    assert!(took < Duration::from_secs(6), "took {took:?}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("no solution exists for n = 3"));
    assert_gone(
        read_pid(&dir.path().join("child"), Duration::ZERO),
        "the sleep 1000 left behind",
    );
}

#[test]
fn an_unsat_answer_on_a_partial_board_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let liar = script(dir.path(), "liar.sh", "echo 's UNSATISFIABLE'\n");
    let liar = liar.to_str().unwrap();
    // 8 queens with one on (1,1) has 4 completions (a solution with a queen in a corner).
    for format in ["board", "competition"] {
        let o = run(&[
            "solve", "8", "--place", "1,1", "--solver", liar, "--format", format,
        ]);
        assert_eq!(o.status.code(), Some(1), "{format}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(
            err.contains("says UNSATISFIABLE but the embedded solver finds a solution: "),
            "{err}"
        );
        assert!(!stdout(&o).contains("no solution exists"), "{}", stdout(&o));
        // The solution given is real and has the placed queen.
        let line = err.rsplit(": ").next().unwrap();
        let cols: Vec<usize> = line
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let queens: Vec<(usize, usize)> =
            cols.iter().enumerate().map(|(r, &c)| (r, c - 1)).collect();
        assert!(is_valid_placement(8, &queens), "{line}");
        assert_eq!(queens[0], (0, 0));
    }
    // The same lie on an empty board.
    let o = run(&["solve", "8", "--solver", liar]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("has solutions"), "{}", stderr(&o));
    // A true UNSAT is reported: 4 queens have no solution with a queen on (1,1)
    // (the two solutions are 2 4 1 3 and 3 1 4 2).
    let o = run(&["solve", "4", "--place", "1,1", "--solver", liar]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("no solution exists for n = 4 with queens on (1,1)"));
    let o = run(&[
        "solve",
        "4",
        "--place",
        "1,1",
        "--solver",
        liar,
        "--format",
        "competition",
    ]);
    assert_eq!(o.status.code(), Some(20), "{}", stderr(&o));
    assert!(stdout(&o).contains("s UNSATISFIABLE"));
}

#[test]
fn check_external_catches_a_liar_and_stops_a_hanging_solver() {
    let dir = tempfile::tempdir().unwrap();
    let liar = script(dir.path(), "liar.sh", "echo 's UNSATISFIABLE'\n");
    let base = [
        "check",
        "--n",
        "6",
        "--amo",
        "pairwise",
        "--enumerate-up-to",
        "0",
        "--count-up-to",
        "0",
        "--corrupt",
        "0",
    ];
    let mut args = base.to_vec();
    args.extend(["--external", liar.to_str().unwrap()]);
    let (o, _) = run_bounded(&args, Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("says UNSAT, but there are 4 solutions"),
        "{}",
        stdout(&o)
    );

    let hang = hang_script(dir.path());
    let mut args = base.to_vec();
    args.extend(["--external", hang.to_str().unwrap(), "--timeout", "1"]);
    let (o, took) = run_bounded(&args, Duration::from_secs(60));
    assert!(took < Duration::from_secs(15), "took {took:?}");
    assert!(stdout(&o).contains("timeout"), "{}", stdout(&o));
    assert_gone(
        read_pid(&dir.path().join("child"), Duration::ZERO),
        "the sleep 1000 started by hang.sh",
    );
}

#[test]
fn a_flooding_solver_ends_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let flood = script(dir.path(), "flood.sh", "yes\n");
    let (o, took) = run_bounded(
        &["solve", "8", "--solver", flood.to_str().unwrap()],
        Duration::from_secs(30),
    );
    assert!(took < Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("solver output exceeds"), "{err}");
    assert!(err.contains("bytes"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn solver_output_in_messages_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(
        dir.path(),
        "escape.sh",
        "printf '\\033]0;pwned\\007\\033[31mred\\n'\necho 'oops \\033[2J' >&2\nexit 3\n",
    );
    let o = run(&["solve", "8", "--solver", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("\\u{1b}[31mred"), "{err}");
    assert!(err.contains("exit code 3"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Sends `signal` to `queens-sat solve 8 --solver hang.sh` once the solver runs: the solver
/// and its child are killed, the temporary folder removed, and the exit status is 130.
fn interrupted(signal: i32) {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let hang = hang_script(dir.path());
    let child = spawn(
        bin()
            .args(["solve", "8", "--solver", hang.to_str().unwrap()])
            .env("TMPDIR", &tmp)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    let solver = read_pid(&dir.path().join("pid"), Duration::from_secs(20));
    let sleeper = read_pid(&dir.path().join("child"), Duration::from_secs(20));
    let entries = std::fs::read_dir(&tmp).unwrap().count();
    assert_eq!(entries, 1, "the CNF's temporary folder is in TMPDIR");
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let o = wait_bounded(child, Duration::from_secs(10));
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert_gone(solver, "hang.sh");
    assert_gone(sleeper, "the sleep 1000 started by hang.sh");
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

#[test]
fn sigterm_kills_the_solver_group_and_removes_the_temporary_folder() {
    interrupted(libc::SIGTERM);
}

#[test]
fn ctrl_c_kills_the_solver_group_and_removes_the_temporary_folder() {
    interrupted(libc::SIGINT);
}

#[test]
fn bad_time_limits_are_refused() {
    for bad in ["1e30", "0", "-1", "nan", "inf", "abc", "604801", "1e-9"] {
        for cmd in [
            &["solve", "8", "--solver", "cadical", "--timeout", bad][..],
            &[
                "check",
                "--n",
                "4",
                "--external",
                "cadical",
                "--timeout",
                bad,
            ][..],
        ] {
            let o = run(cmd);
            assert_eq!(o.status.code(), Some(2), "{cmd:?}: {}", stderr(&o));
            let err = stderr(&o);
            assert_eq!(err.lines().count(), 1, "{cmd:?}: {err}");
            assert!(err.contains("--timeout"), "{cmd:?}: {err}");
            assert!(
                err.contains("time limit") || err.contains("number of seconds"),
                "{cmd:?}: {err}"
            );
            assert!(!err.contains("panicked"), "{err}");
            assert!(stdout(&o).is_empty());
        }
    }
    // The embedded solvers take a time limit too.
    let o = run(&["solve", "8", "--timeout", "5"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn verify_refutes_an_unsat_claim_for_a_large_board_at_once() {
    let mut child = spawn(
        bin()
            .args(["verify", "1000", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"s UNSATISFIABLE\n")
        .unwrap();
    let start = Instant::now();
    let o = wait_bounded(child, Duration::from_secs(60));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out.lines().find(|l| l.starts_with("WRONG")).unwrap();
    let cols = line.rsplit("solution ").next().unwrap();
    let queens: Vec<(usize, usize)> = cols
        .split_whitespace()
        .enumerate()
        .map(|(r, c)| (r, c.parse::<usize>().unwrap() - 1))
        .collect();
    assert!(is_valid_placement(1000, &queens));
}

/// The model in `v` lines (or after a MiniSat `SAT` line), as DIMACS literals.
fn model_of(text: &str) -> Vec<i64> {
    text.lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(|l| l[2..].split_whitespace())
        .map(|t| t.parse::<i64>().unwrap())
        .filter(|&l| l != 0)
        .collect()
}

#[test]
fn real_solvers_still_work() {
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        for n in [1usize, 8, 20] {
            let ns = n.to_string();
            let (o, _) = run_bounded(
                &[
                    "solve",
                    &ns,
                    "--solver",
                    solver,
                    "--timeout",
                    "60",
                    "--format",
                    "competition",
                ],
                Duration::from_secs(90),
            );
            assert_eq!(o.status.code(), Some(10), "{solver} n={n}: {}", stderr(&o));
            let out = stdout(&o);
            assert!(
                out.contains(&format!("a solution found by {solver}, checked")),
                "{out}"
            );
            let queens = queens_of_model(n, &model_of(&out));
            assert!(is_valid_placement(n, &queens), "{solver} n={n}: {out}");
        }
        // Partial boards, judged by an independent backtracking count: the solver's UNSAT
        // is reported only when there is no completion, its model only when it is one.
        for place in [["1,1", "2,3"], ["1,1", "2,5"]] {
            let cells: Vec<(usize, usize)> = place
                .iter()
                .map(|c| {
                    let (r, c) = c.split_once(',').unwrap();
                    (
                        r.parse::<usize>().unwrap() - 1,
                        c.parse::<usize>().unwrap() - 1,
                    )
                })
                .collect();
            let (o, _) = run_bounded(
                &[
                    "solve", "8", "--place", place[0], "--place", place[1], "--solver", solver,
                    "--format", "line",
                ],
                Duration::from_secs(90),
            );
            assert_eq!(
                o.status.code(),
                Some(0),
                "{solver} {place:?}: {}",
                stderr(&o)
            );
            if completions(8, &cells) == 0 {
                assert!(stdout(&o).contains("no solution exists"), "{}", stdout(&o));
            } else {
                let queens: Vec<(usize, usize)> = stdout(&o)
                    .split_whitespace()
                    .enumerate()
                    .map(|(r, c)| (r, c.parse::<usize>().unwrap() - 1))
                    .collect();
                assert!(is_valid_placement(8, &queens));
                assert!(cells.iter().all(|q| queens.contains(q)));
            }
        }
    }
}

/// Solutions of n queens with queens on `placed` (0-based), by plain backtracking.
fn completions(n: usize, placed: &[(usize, usize)]) -> u64 {
    fn go(n: usize, row: usize, cols: &mut Vec<usize>, placed: &[(usize, usize)]) -> u64 {
        if row == n {
            return 1;
        }
        let mut total = 0;
        for c in 0..n {
            if placed.iter().any(|&(r, pc)| r == row && pc != c) {
                continue;
            }
            let ok = cols
                .iter()
                .enumerate()
                .all(|(r, &q)| q != c && row - r != q.abs_diff(c));
            if ok {
                cols.push(c);
                total += go(n, row + 1, cols, placed);
                cols.pop();
            }
        }
        total
    }
    go(n, 0, &mut Vec::new(), placed)
}

#[test]
fn a_failure_to_write_the_cnf_keeps_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    let liar = script(dir.path(), "liar.sh", "echo 's UNSATISFIABLE'\n");
    let o = output(
        bin()
            .args(["solve", "8", "--solver", liar.to_str().unwrap()])
            .env("TMPDIR", dir.path().join("no-such-folder")),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("cannot create a temporary folder"), "{err}");
    assert!(err.contains("No such file or directory"), "{err}");
    assert!(!err.contains("embedded solver"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
