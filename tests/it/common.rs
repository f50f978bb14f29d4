//! Helpers shared by the integration tests: running the binary under test and reading what it
//! printed, bounded waits, throw-away solver scripts, the published counts, the external
//! solvers and model counter as oracles, and the one way to require an external program or a
//! Python module of the tests' virtual environment ([`require`]): when it is missing, a loud
//! message naming what provides it and a skip, or a failure under CI.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::fmt::Debug;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

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

/// The path of the `queens-sat` binary built for this test run.
pub const BIN: &str = env!("CARGO_BIN_EXE_queens-sat");

/// The `queens-sat` binary built for this test run, with the Python interpreter that
/// [`require`] checks ([`python`]) as its `QUEENS_SAT_PYTHON`.
pub fn bin() -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("QUEENS_SAT_PYTHON", python());
    cmd
}

/// Runs the binary with `args` and returns its output.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    output(bin().args(args))
}

/// Runs the binary with `args`, which must succeed, and returns its standard output.
pub fn run_ok<S: AsRef<OsStr> + Debug>(args: &[S]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The standard output of a finished command, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard error of a finished command, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// What an external solver said about a DIMACS file: `Some(model)` (DIMACS literals, one per
/// variable it printed) for SAT, `None` for UNSAT.
pub fn run_external(solver: &str, cnf: &Path) -> Option<Vec<i64>> {
    match solver {
        "minisat" => {
            let out = cnf.with_extension("minisat.out");
            let status = output(Command::new("minisat").arg("-verb=0").arg(cnf).arg(&out));
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
            let out = output(Command::new(solver).arg("-q").arg(cnf));
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

/// The at-most-one encodings by their command-line names (`--amo NAME`), read from the
/// library's catalogue, so that a new encoding is tested with no new test code.
pub fn amo_names() -> Vec<&'static str> {
    queens_sat::encode::Amo::names()
}

/// `base` followed by `opts`, as the arguments of [`run`].
pub fn with_options(base: &[&str], opts: &[&str]) -> Vec<String> {
    base.iter().chain(opts).map(|s| s.to_string()).collect()
}

/// For every option set of `combos` and every n in `1..=max_n`: `solve N --count` with the
/// options prints the published number of solutions.
pub fn counts_are_published(combos: &[&[&str]], max_n: usize) {
    for opts in combos {
        for n in 1..=max_n {
            let o = run(&with_options(&["solve", &n.to_string(), "--count"], opts));
            assert_eq!(o.status.code(), Some(0), "{opts:?} n={n}: {}", stderr(&o));
            let got: u64 = stdout(&o).trim().parse().unwrap();
            assert_eq!(got, published_total(n), "{opts:?} n={n}");
        }
    }
}

/// For CaDiCaL and MiniSat where installed, every option set of `combos` and every n of `ns`
/// (boards with solutions): the formula `encode` writes with the options is solved by the
/// solver, and `verify` with the same options accepts its answer and rejects the answer with
/// its first literal flipped.
pub fn external_answers_verified(combos: &[&[&str]], ns: &[usize]) {
    let dir = tempfile::tempdir().unwrap();
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        for opts in combos {
            for &n in ns {
                let cnf = dir.path().join(format!("f{n}.cnf"));
                let o = run(&with_options(
                    &["encode", &n.to_string(), "-o", cnf.to_str().unwrap()],
                    opts,
                ));
                assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
                let model = run_external(solver, &cnf).expect("n >= 4 has solutions");
                let answer = dir.path().join("answer.txt");
                let verify = |model: &[i64]| {
                    let lits: Vec<String> = model.iter().map(i64::to_string).collect();
                    let text = format!("s SATISFIABLE\nv {} 0\n", lits.join(" "));
                    std::fs::write(&answer, text).unwrap();
                    let o = run(&with_options(
                        &["verify", &n.to_string(), answer.to_str().unwrap()],
                        opts,
                    ));
                    (o.status.code(), stdout(&o))
                };
                let (code, out) = verify(&model);
                assert_eq!(code, Some(0), "{solver} {opts:?} n={n}: {out}");
                let mut wrong = model.clone();
                wrong[0] = -wrong[0];
                let (code, out) = verify(&wrong);
                assert_eq!(code, Some(1), "{solver} {opts:?} n={n}: {out}");
            }
        }
    }
}

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

// ---- External programs: where they come from, and the one way to require them ----

/// Where an external program the tests start comes from: the program, then the Debian
/// package(s) that install it.
pub const PROGRAMS: [(&str, &str); 25] = [
    ("cadical", "cadical"),
    ("minisat", "minisat"),
    ("minisat+", "minisat+"),
    ("sat4j", "sat4j"),
    ("pdflatex", "texlive-latex-base"),
    ("chromium", "chromium"),
    ("node", "nodejs"),
    ("sbatch", "slurm-wlm munge"),
    ("sinfo", "slurm-wlm munge"),
    ("squeue", "slurm-wlm munge"),
    ("scancel", "slurm-wlm munge"),
    ("slurmctld", "slurm-wlm munge"),
    ("slurmd", "slurm-wlm munge"),
    ("munged", "munge"),
    ("mungekey", "munge"),
    ("parallel", "parallel"),
    ("timeout", "coreutils"),
    ("cat", "coreutils"),
    ("true", "coreutils"),
    ("kill", "procps"),
    ("mknod", "coreutils"),
    ("sh", "dash"),
    ("bash", "bash"),
    ("mount", "mount"),
    ("umount", "mount"),
];

/// The Python packages the tests import, from PyPI (tests/requirements.txt): the name the
/// tests require them by (the PyPI name), and the module imported to see that it is there.
const PYTHON_PACKAGES: [(&str, &str); 5] = [
    ("pyganak", "pyganak"),
    ("gbd-tools", "gbd_core.contexts"),
    ("exact", "exact"),
    ("ortools", "ortools.sat.python.cp_model"),
    ("scipy", "scipy.optimize"),
];

/// How to get the Python packages of tests/requirements.txt.
const VENV_HINT: &str = "python3 -m venv .venv && .venv/bin/pip install -r \
                         tests/requirements.txt, then QUEENS_SAT_PYTHON=$PWD/.venv/bin/python; \
                         ./test.sh does both";

/// `true` when the environment variable `CI` is `true` or `1`: every external program the
/// tests use must then be there, and a missing one fails the test that needs it.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

/// `true` when this process runs as root.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

thread_local! {
    /// The reasons already reported by the test running on this thread (each test has a thread
    /// of its own), so that a test that asks several times says it once.
    static REPORTED: RefCell<HashSet<String>> = RefCell::new(HashSet::new());
}

/// Says loudly that (part of) the current test cannot run here and why, then returns so the
/// caller can skip; under CI ([`ci`]) that is a failure instead. The message goes straight to
/// the standard error of the test process, past the test harness's capture, so that a skip is
/// seen in a normal `cargo test` run.
#[track_caller]
pub fn skip(why: &str) {
    if ci() {
        let ci = std::env::var("CI").unwrap_or_default();
        panic!("{why}; CI={ci}, so this test must run, not be skipped");
    }
    if REPORTED.with(|r| r.borrow_mut().insert(why.to_string())) {
        let test = std::thread::current()
            .name()
            .unwrap_or("a test")
            .to_string();
        let _ = writeln!(std::io::stderr(), "\n*** SKIPPED in {test}: {why} ***\n");
    }
}

/// `true` when `program` is a file on PATH.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// What provides `name` (a program of [`PROGRAMS`] or a Python package of
/// [`PYTHON_PACKAGES`]), as a sentence for a message.
fn provided_by(name: &str) -> Option<String> {
    if let Some((_, debs)) = PROGRAMS.iter().find(|p| p.0 == name) {
        let words: Vec<&str> = debs.split(' ').collect();
        return Some(format!(
            "Debian package{} {} (apt-get install {debs}; ./test.sh installs it when run as root)",
            if words.len() > 1 { "s" } else { "" },
            words.join(" and "),
        ));
    }
    PYTHON_PACKAGES.iter().find(|p| p.0 == name).map(|_| {
        format!(
            "PyPI package {name} of tests/requirements.txt, in a virtual environment ({VENV_HINT})"
        )
    })
}

/// The one way a test asks for an external program (`cadical`, `pdflatex`, `sbatch`, ...) or a
/// Python package of tests/requirements.txt (`pyganak`, `gbd-tools`, `exact`, imported by
/// [`python`]): `true` when it is there. When it is not, a loud message names it and the
/// Debian or PyPI package that provides it, and the caller skips what needs it; under CI
/// ([`ci`]) the test fails with that message instead. Every name must be listed above, with
/// its package.
#[track_caller]
pub fn require(name: &str) -> bool {
    let provider = provided_by(name)
        .unwrap_or_else(|| panic!("require({name:?}): no package is listed for it in common.rs"));
    let (found, what) = match PYTHON_PACKAGES.iter().find(|p| p.0 == name) {
        Some((_, module)) => {
            let python = python();
            let found = Command::new(&python)
                .args(["-c", &format!("import {module}")])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            let what = format!(
                "{} cannot import the Python module {module}",
                python.display()
            );
            (found, what)
        }
        None => (on_path(name), format!("{name} is not on PATH")),
    };
    if !found {
        skip(&format!("{what}; it comes with the {provider}"));
    }
    found
}

/// Fails the test because `cmd` could not be started, saying what provides its program.
fn cannot_start(cmd: &Command, e: std::io::Error) -> ! {
    let program = Path::new(cmd.get_program());
    let name = program.file_name().unwrap_or_default().to_string_lossy();
    let from = if program == Path::new(BIN) {
        "it is the binary under test, built by cargo".to_string()
    } else if program == python() {
        format!("it is the Python of the tests' virtual environment ({VENV_HINT})")
    } else {
        match provided_by(&name) {
            Some(p) => format!("it comes with the {p}"),
            None => "no package is listed for it in tests/it/common.rs".to_string(),
        }
    };
    panic!("cannot start {}: {e}; {from}", program.display());
}

/// Starts `cmd`; a program that cannot be started fails the test naming what provides it.
/// Every external program the tests start goes through this, [`output`] or [`status`]; call
/// [`require`] first to skip when it is missing.
pub fn spawn(cmd: &mut Command) -> Child {
    cmd.spawn().unwrap_or_else(|e| cannot_start(cmd, e))
}

/// Runs `cmd` to its end and returns its output (see [`spawn`]).
pub fn output(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| cannot_start(cmd, e))
}

/// Runs `cmd` to its end and returns its exit status (see [`spawn`]).
pub fn status(cmd: &mut Command) -> ExitStatus {
    cmd.status().unwrap_or_else(|e| cannot_start(cmd, e))
}

// ---- Bounded runs ----

/// Reads a child's pipe to its end on a thread of its own.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut v);
        }
        v
    })
}

/// Waits for `child` at most `limit`, reading its piped standard output and error meanwhile
/// (so that a child cannot stall on a full pipe), and returns what it printed; kills it and
/// fails the test when it takes longer.
pub fn wait_bounded(child: Child, limit: Duration) -> Output {
    let what = format!("process {}", child.id());
    wait_bounded_named(child, limit, &what)
}

/// [`wait_bounded`], naming the child `what` when it fails.
fn wait_bounded_named(mut child: Child, limit: Duration, what: &str) -> Output {
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    match child.wait_timeout(limit).unwrap() {
        Some(status) => Output {
            status,
            stdout: out.join().unwrap(),
            stderr: err.join().unwrap(),
        },
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still running after {limit:?}");
        }
    }
}

/// Runs `cmd` with its standard output and error piped, failing the test when it does not
/// end within `limit` (see [`wait_bounded`]).
pub fn output_within(cmd: &mut Command, limit: Duration) -> Output {
    let child = spawn(cmd.stdout(Stdio::piped()).stderr(Stdio::piped()));
    wait_bounded_named(child, limit, &format!("{cmd:?}"))
}

/// An Excluded Diagonals instance of the paper's generator (`generate excluded-diagonals N
/// --min-free 4 --compatible jair --d D --seed S`), written to `dir/e-N-D-S.txt`.
pub fn jair_instance(dir: &Path, n: usize, d: usize, seed: u64) -> PathBuf {
    let f = dir.join(format!("e-{n}-{d}-{seed}.txt"));
    let (n, d, seed) = (n.to_string(), d.to_string(), seed.to_string());
    let o = run(&[
        "generate",
        "excluded-diagonals",
        &n,
        "--min-free",
        "4",
        "--compatible",
        "jair",
        "--d",
        &d,
        "--seed",
        &seed,
        "-o",
        f.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    f
}

/// Writes an executable shell script `name` into `dir`: `#!/bin/sh`, then `body`. The tests'
/// fake solvers are such scripts.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

// ---- Python oracles ----

/// The Python interpreter of the tests' virtual environment: `$QUEENS_SAT_PYTHON`, else
/// `.venv/bin/python` at the repository's top (./test.sh makes it from
/// tests/requirements.txt). [`require`] checks that it has a package.
pub fn python() -> PathBuf {
    std::env::var_os("QUEENS_SAT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"))
}

/// Ganak's counts of DIMACS files (`tests/python/ganak_count.py`, which reads the files with a
/// parser of its own), per file: `(type, projected, unprojected)`, the unprojected count only
/// with `unprojected` or when the file declares no projection (`None` otherwise). Needs
/// `require("pyganak")`.
pub fn ganak_counts(
    files: &[PathBuf],
    unprojected: bool,
) -> HashMap<PathBuf, (String, u128, Option<u128>)> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/ganak_count.py");
    let out = output(
        Command::new(python())
            .arg(script)
            .args(unprojected.then_some("--unprojected"))
            .args(files),
    );
    assert!(
        out.status.success(),
        "ganak_count.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut counts = HashMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("count ") else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        assert_eq!(f.len(), 4, "{line}");
        counts.insert(
            PathBuf::from(f[0]),
            (f[1].to_string(), f[2].parse().unwrap(), f[3].parse().ok()),
        );
    }
    assert_eq!(counts.len(), files.len(), "one line per file: {text}");
    counts
}

/// A CSV file as `compare` (or another command) wrote it: the header and the rows, cells found
/// by column name.
pub struct CsvTable {
    /// The header line.
    pub header: csv::StringRecord,
    /// Every row after it.
    pub rows: Vec<csv::StringRecord>,
}

impl CsvTable {
    /// Reads a CSV file, failing the test on any malformed row.
    pub fn read(path: &Path) -> CsvTable {
        let mut r =
            csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let header = r.headers().unwrap().clone();
        let rows = r.records().map(Result::unwrap).collect();
        CsvTable { header, rows }
    }

    /// The index of the column `name`, failing the test when there is none.
    pub fn col(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.header))
    }
}

/// The recorded answers of the CSPLib problem 079 instance `diag-N-4-ID` by D (read here on
/// a path of its own: the whitespace-separated fields, `n D mininrow id FILE:Solutions:
/// NUMSOLS ...`).
pub fn recorded(n: &str, id: &str) -> std::collections::BTreeMap<usize, bool> {
    use std::io::{BufRead, BufReader};
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/csplib-prob079");
    let gz = std::fs::File::open(data.join("run-diags-shiftqueens-processed.txt.gz")).unwrap();
    BufReader::new(flate2::read::GzDecoder::new(gz))
        .lines()
        .map(Result::unwrap)
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            (f[0] == n && f[2] == "4" && f[3] == id).then(|| (f[1].parse().unwrap(), f[5] != "0"))
        })
        .collect()
}

/// The count `solve --engine propagator` reports before `kind` on its statistics line
/// (`said`, its stderr): `propagator_count(&err, "class clauses")`.
pub fn propagator_count(said: &str, kind: &str) -> u64 {
    said.split(&format!(" {kind}"))
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|k| k.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no count of {kind} in {said}"))
}
