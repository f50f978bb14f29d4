//! Helpers shared by the integration tests: running the real binary and external solvers.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// `(n, U(n), D(n))` for n = 1..17: fundamental solutions (OEIS A002562) and all solutions
/// (OEIS A000170), copied from the reference table of the project's facts. The tests' oracle,
/// kept apart from the crate's own copy (`crosscheck::REFERENCE_COUNTS`), which a test compares
/// with this one.
pub const REFERENCE: [(usize, u64, u64); 17] = [
    (1, 1, 1),
    (2, 0, 0),
    (3, 0, 0),
    (4, 1, 2),
    (5, 2, 10),
    (6, 1, 4),
    (7, 6, 40),
    (8, 12, 92),
    (9, 46, 352),
    (10, 92, 724),
    (11, 341, 2_680),
    (12, 1_787, 14_200),
    (13, 9_233, 73_712),
    (14, 45_752, 365_596),
    (15, 285_053, 2_279_184),
    (16, 1_846_955, 14_772_512),
    (17, 11_977_939, 95_815_104),
];

/// D(n), the number of solutions, from [`REFERENCE`] (1 <= n <= 17).
pub fn published_total(n: usize) -> u64 {
    REFERENCE[n - 1].2
}

/// The `queens-sat` binary built for this test run.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_queens-sat"))
}

/// Runs the binary with `args` and returns its output.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

/// The standard output of a finished command, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard error of a finished command, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `true` when a program is on PATH. Under CI (env `CI` set) a missing solver is a failure,
/// elsewhere the caller skips with a message.
pub fn solver_available(name: &str) -> bool {
    let found = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()))
        .unwrap_or(false);
    if !found {
        if std::env::var_os("CI").is_some() {
            panic!("{name} is not on PATH, but CI must have it (.ci/run installs it)");
        }
        eprintln!("skipped: {name} is not on PATH (install Debian's '{name}' package)");
    }
    found
}

/// What an external solver said about a DIMACS file: `Some(model)` (DIMACS literals, one per
/// variable it printed) for SAT, `None` for UNSAT.
pub fn run_external(solver: &str, cnf: &Path) -> Option<Vec<i64>> {
    match solver {
        "minisat" => {
            let out = cnf.with_extension("minisat.out");
            let status = Command::new("minisat")
                .arg("-verb=0")
                .arg(cnf)
                .arg(&out)
                .output()
                .expect("minisat runs");
            let text = std::fs::read_to_string(&out).expect("minisat wrote its result");
            let mut lines = text.lines();
            match lines.next() {
                Some("SAT") => {
                    assert_eq!(status.status.code(), Some(10));
                    Some(parse_lits(lines))
                }
                Some("UNSAT") => {
                    assert_eq!(status.status.code(), Some(20));
                    None
                }
                other => panic!("minisat said {other:?}"),
            }
        }
        _ => {
            let out = Command::new(solver)
                .arg("-q")
                .arg(cnf)
                .output()
                .expect("solver runs");
            let text = String::from_utf8_lossy(&out.stdout);
            if text.lines().any(|l| l.trim() == "s UNSATISFIABLE") {
                assert_eq!(out.status.code(), Some(20));
                return None;
            }
            assert!(
                text.lines().any(|l| l.trim() == "s SATISFIABLE"),
                "{solver}: {text}"
            );
            assert_eq!(out.status.code(), Some(10));
            Some(parse_lits(
                text.lines()
                    .filter(|l| l.starts_with("v "))
                    .map(|l| &l[2..]),
            ))
        }
    }
}

fn parse_lits<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<i64> {
    let mut lits = Vec::new();
    for l in lines {
        for tok in l.split_whitespace() {
            let v: i64 = tok.parse().expect("literal");
            if v != 0 {
                lits.push(v);
            }
        }
    }
    lits
}

/// Reads the queens off a model: the cells whose variable `(r-1)*n + c` is true, as 0-based
/// (row, column) pairs. Written from the numbering rule, independently of the library.
pub fn queens_of_model(n: usize, model: &[i64]) -> Vec<(usize, usize)> {
    model
        .iter()
        .filter(|&&l| l > 0 && (l as usize) <= n * n)
        .map(|&l| ((l as usize - 1) / n, (l as usize - 1) % n))
        .collect()
}

/// An independent validity check: n queens, no two sharing a row, column or diagonal.
pub fn is_valid_placement(n: usize, queens: &[(usize, usize)]) -> bool {
    use std::collections::HashSet;
    if queens.len() != n {
        return false;
    }
    let rows: HashSet<_> = queens.iter().map(|q| q.0).collect();
    let cols: HashSet<_> = queens.iter().map(|q| q.1).collect();
    let sums: HashSet<_> = queens.iter().map(|q| q.0 + q.1).collect();
    let difs: HashSet<_> = queens.iter().map(|q| q.0 as i64 - q.1 as i64).collect();
    rows.len() == n && cols.len() == n && sums.len() == n && difs.len() == n
}

/// The Python interpreter of the tests' virtual environment when it can import `module`:
/// `$QUEENS_SAT_PYTHON`, else `.venv/bin/python` at the repository's top (.ci/run makes it
/// from `tests/requirements.txt`). Under CI a missing one is a failure; elsewhere the caller
/// skips, after a loud message.
pub fn python_with(module: &str) -> Option<std::path::PathBuf> {
    let python = std::env::var_os("QUEENS_SAT_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    let ok = Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let msg = format!(
            "{} cannot import the Python module '{module}' (python3 -m venv .venv && \
             .venv/bin/pip install -r tests/requirements.txt)",
            python.display()
        );
        if std::env::var_os("CI").is_some() {
            panic!("{msg}, but CI must have it (.ci/run installs it)");
        }
        eprintln!("\n*** skipped: {msg} ***\n");
        return None;
    }
    Some(python)
}

/// Waits for `child` at most `limit`, killing it and failing when it takes longer.
pub fn wait_bounded(mut child: std::process::Child, limit: std::time::Duration) -> Output {
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The at-most-one encodings by their command-line names (`--amo NAME`).
pub const AMO_NAMES: [&str; 7] = [
    "pairwise",
    "sequential",
    "ladder",
    "commander",
    "product",
    "binary",
    "bimander",
];

/// Every solution of n-queens (0-based columns, in lexicographic order) by a plain
/// backtracking written here, apart from the crate's counters.
pub fn brute_force_solutions(n: usize) -> Vec<Vec<usize>> {
    fn rec(n: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cols.len() == n {
            out.push(cols.clone());
            return;
        }
        let r = cols.len();
        for c in 0..n {
            if cols
                .iter()
                .enumerate()
                .all(|(r0, &c0)| c0 != c && r - r0 != c.abs_diff(c0))
            {
                cols.push(c);
                rec(n, cols, out);
                cols.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(n, &mut Vec::new(), &mut out);
    out
}
