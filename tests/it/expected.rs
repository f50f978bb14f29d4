//! `compare --instance FILE --diagonals A..B --expected FILE`: one instance per D of an
//! Excluded Diagonals parameter file, every row checked against expected answers (the CSPLib
//! problem 079 results file, or a CSV file `instance,D,answer`).

use crate::common::{run, script, stderr, stdout};
use flate2::read::GzDecoder;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/csplib-prob079")
        .join(name)
}

/// The results file's answers for `diag-10-4-1.param`, by D (read here on a path of its own:
/// the whitespace-separated fields, `n D mininrow id FILE:Solutions: NUMSOLS ...`).
fn recorded_for_diag_10_4_1() -> BTreeMap<usize, bool> {
    let gz = std::fs::File::open(data("run-diags-shiftqueens-processed.txt.gz")).unwrap();
    let mut answers = BTreeMap::new();
    for line in BufReader::new(GzDecoder::new(gz)).lines() {
        let line = line.unwrap();
        let f: Vec<&str> = line.split_whitespace().collect();
        if f[..4] == ["10", f[1], "4", "1"] {
            answers.insert(f[1].parse().unwrap(), f[5] != "0");
        }
    }
    answers
}

/// The statuses of a sweep's CSV file by the `value` column (one encoding, one solver).
fn statuses(csv: &Path) -> BTreeMap<String, String> {
    let mut reader = csv::Reader::from_path(csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (value, status) = (col("value"), col("status"));
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[value].to_string(), r[status].to_string())
        })
        .collect()
}

fn sweep(
    dir: &Path,
    solver: &str,
    diagonals: &str,
    expected: &Path,
) -> (std::process::Output, PathBuf) {
    let csv = dir.join(format!("r-{}.csv", dir.read_dir().unwrap().count()));
    let param = data("params/diag-10-4-1.param");
    let out = run(&[
        "compare".as_ref(),
        "--instance".as_ref(),
        param.as_os_str(),
        "--diagonals".as_ref(),
        diagonals.as_ref(),
        "--amo".as_ref(),
        "pairwise".as_ref(),
        "--solver".as_ref(),
        solver.as_ref(),
        "--repeat".as_ref(),
        "1".as_ref(),
        "--expected".as_ref(),
        expected.as_os_str(),
        "--csv".as_ref(),
        csv.as_os_str(),
    ]);
    (out, csv)
}

#[test]
fn a_range_of_diagonals_agrees_with_the_results_file() {
    let recorded = recorded_for_diag_10_4_1();
    // D = 5, 6 have solutions, 7, 8 none: both answers are checked.
    assert_eq!(
        (4..=8).map(|d| recorded[&d]).collect::<Vec<_>>(),
        [true, true, true, false, false]
    );
    let dir = tempfile::tempdir().unwrap();
    let results = data("run-diags-shiftqueens-processed.txt.gz");
    let (out, csv) = sweep(dir.path(), "varisat", "4..8", &results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = statuses(&csv);
    let want: BTreeMap<String, String> = (4..=8)
        .map(|d| {
            let answer = if recorded[&d] { "SAT" } else { "UNSAT" };
            (format!("diag-10-4-1.param d={d}"), answer.to_string())
        })
        .collect();
    assert_eq!(got, want);
    assert!(
        stderr(&out).contains("5 rows checked, 0 answered otherwise"),
        "{}",
        stderr(&out)
    );

    // A list gives the same rows, D by D.
    let (out, csv) = sweep(dir.path(), "varisat", "8,4", &results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = statuses(&csv);
    assert_eq!(got.len(), 2);
    assert_eq!(got["diag-10-4-1.param d=4"], want["diag-10-4-1.param d=4"]);
    assert_eq!(got["diag-10-4-1.param d=8"], want["diag-10-4-1.param d=8"]);

    // Expected answers that say the opposite (a CSV file) make every row wrong.
    let forged = dir.path().join("forged.csv");
    let mut text = String::from("instance,D,answer\n");
    for d in 4..=8 {
        let opposite = if recorded[&d] { "UNSAT" } else { "SAT" };
        text += &format!("diag-10-4-1.param,{d},{opposite}\n");
    }
    std::fs::write(&forged, text).unwrap();
    let (out, csv) = sweep(dir.path(), "varisat", "4..8", &forged);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    for d in 4..=8 {
        let want = if recorded[&d] {
            "WRONG: expected UNSAT"
        } else {
            "WRONG: expected SAT"
        };
        assert_eq!(statuses(&csv)[&format!("diag-10-4-1.param d={d}")], want);
    }
    assert!(stdout(&out).contains("WRONG: expected UNSAT"));
}

#[test]
fn a_lying_solver_is_caught_by_the_expected_answers() {
    let dir = tempfile::tempdir().unwrap();
    let liar = script(dir.path(), "liar", "echo 's UNSATISFIABLE'; exit 20")
        .display()
        .to_string();
    let results = data("run-diags-shiftqueens-processed.txt.gz");
    // D = 5 has a solution; the liar says none.
    assert!(recorded_for_diag_10_4_1()[&5]);
    let (out, csv) = sweep(dir.path(), &liar, "5", &results);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        statuses(&csv)["diag-10-4-1.param d=5"],
        "WRONG: expected SAT"
    );
    // Without --expected nothing knows better: the row is UNSAT.
    let param = data("params/diag-10-4-1.param");
    let out = run(&[
        "compare".as_ref(),
        "--instance".as_ref(),
        param.as_os_str(),
        "--diagonals".as_ref(),
        "5".as_ref(),
        "--amo".as_ref(),
        "pairwise".as_ref(),
        "--solver".as_ref(),
        liar.as_ref(),
        "--repeat".as_ref(),
        "1".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("| UNSAT |"), "{}", stdout(&out));
}

#[test]
fn bad_expected_files_and_ranges_are_refused_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    // A solver that would leave a mark if it ran.
    let mark = dir.path().join("ran");
    let solver = script(
        dir.path(),
        "marker",
        &format!("touch {}; echo 's SATISFIABLE'; exit 10", mark.display()),
    )
    .display()
    .to_string();
    let malformed = dir.path().join("bad.csv");
    std::fs::write(
        &malformed,
        "instance,D,answer\ndiag-10-4-1.param,5,SAT\nx,3,maybe\n",
    )
    .unwrap();
    let results = dir.path().join("bad-results.txt");
    std::fs::write(&results, "10 5 4 1 somewhere/else.result:Solutions: 1\n").unwrap();
    let param = data("params/diag-10-4-1.param");
    let missing = dir.path().join("none.csv");
    let cases: [(&str, &Path, &str); 6] = [
        ("5", &missing, "--expected: "),
        (
            "5",
            &malformed,
            "bad.csv, line 3: answer 'maybe' is neither SAT nor UNSAT",
        ),
        ("5", &results, "bad-results.txt, line 1: the result file"),
        ("8..4", &malformed, "the range 8..4 is empty"),
        ("4..x", &malformed, "'x' is not a number of diagonals"),
        ("4,,5", &malformed, "'' is not a number of diagonals"),
    ];
    for (diagonals, expected, message) in cases {
        let out = run(&[
            "compare".as_ref(),
            "--instance".as_ref(),
            param.as_os_str(),
            "--diagonals".as_ref(),
            diagonals.as_ref(),
            "--solver".as_ref(),
            solver.as_ref(),
            "--expected".as_ref(),
            expected.as_os_str(),
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{diagonals} {err}");
        assert!(err.contains(message), "{err}");
        assert!(!mark.exists(), "the solver ran: {err}");
    }
    // --expected and --diagonals go with --instance.
    let out = run(&["compare", "--n", "4", "--expected", "x.csv"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A sweep of `diag-10-4-1.param` with its first 4 to 8 diagonals by `solver`, checked against
/// `expected` read with `columns` (if any), into a CSV file of its own in `dir`.
fn sweep_4_to_8(
    dir: &Path,
    solver: &str,
    expected: Option<(&Path, Option<&str>)>,
) -> (std::process::Output, PathBuf) {
    let csv = dir.join(format!("r-{}.csv", dir.read_dir().unwrap().count()));
    let param = data("params/diag-10-4-1.param");
    let mut args: Vec<&std::ffi::OsStr> = [
        "compare",
        "--diagonals",
        "4..8",
        "--amo",
        "pairwise",
        "--repeat",
        "1",
        "--solver",
        solver,
        "--instance",
    ]
    .into_iter()
    .map(|a| a.as_ref())
    .collect();
    args.extend([param.as_os_str(), "--csv".as_ref(), csv.as_os_str()]);
    if let Some((file, columns)) = expected {
        args.extend(["--expected".as_ref(), file.as_os_str()]);
        if let Some(c) = columns {
            args.extend::<[&std::ffi::OsStr; 2]>(["--expected-columns".as_ref(), c.as_ref()]);
        }
    }
    (run(&args), csv)
}

#[test]
fn one_sweeps_answers_check_another_and_any_columns_are_read() {
    let recorded = recorded_for_diag_10_4_1();
    let dir = tempfile::tempdir().unwrap();
    // The first sweep's answers agree with the paper's.
    let (out, first) = sweep_4_to_8(dir.path(), "varisat", None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for d in 4..=8 {
        let answer = if recorded[&d] { "SAT" } else { "UNSAT" };
        assert_eq!(
            statuses(&first)[&format!("diag-10-4-1.param d={d}")],
            answer
        );
    }
    // Its CSV, as it is, checks a second sweep with another solver.
    let (out, _) = sweep_4_to_8(dir.path(), "cadical-lib", Some((&first, None)));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("expected answers: 5 instances; 5 rows checked, 0 answered otherwise"),
        "{}",
        stderr(&out)
    );

    // Another tool's CSV, its columns named: the words of solvers, one answer unknown, one
    // forged (D = 6 said the other way).
    let theirs = dir.path().join("theirs.csv");
    let mut text = String::from("file,diagonals,seconds,result\n");
    for d in 4..=8 {
        let sat = recorded[&d] != (d == 6);
        let word = match d {
            8 => "UNKNOWN",
            _ if sat => "SATISFIABLE",
            _ => "unsatisfiable",
        };
        text += &format!("\"diag-10-4-1.param\",{d},1.5,{word}\n");
    }
    std::fs::write(&theirs, text).unwrap();
    let columns = "instance=file,d=diagonals,answer=result";
    let (out, csv) = sweep_4_to_8(dir.path(), "varisat", Some((&theirs, Some(columns))));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let got = statuses(&csv);
    let forged = if recorded[&6] {
        "WRONG: expected UNSAT"
    } else {
        "WRONG: expected SAT"
    };
    assert_eq!(got["diag-10-4-1.param d=6"], forged);
    assert_eq!(
        got["diag-10-4-1.param d=8"],
        statuses(&first)["diag-10-4-1.param d=8"]
    );
    assert!(
        stderr(&out).contains("4 rows checked, 1 answered otherwise"),
        "{}",
        stderr(&out)
    );

    // Bad input: an answer of no known word (its line named), a column the file lacks.
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "file,diagonals,result\ndiag-10-4-1.param,4,SAT\ndiag-10-4-1.param,5,perhaps\n",
    )
    .unwrap();
    for (columns, message) in [
        (columns, "bad.csv, line 3: answer 'perhaps' is neither SAT nor UNSAT"),
        (
            "instance=file,answer=status",
            "bad.csv: no column 'status' for the answer (the columns are file, diagonals, result); --expected-columns names the columns",
        ),
    ] {
        let (out, _) = sweep_4_to_8(dir.path(), "varisat", Some((&bad, Some(columns))));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(message), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let out = run(&[
        "compare",
        "--instance",
        "x.param",
        "--expected-columns",
        "answer=status",
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--expected-columns goes with --expected"
    );
}
