//! `compare` on instance sets as researchers keep them: a folder of instance files, a list of
//! files (`--instance @LIST`), and DIMACS and OPB files solved as they are, every model
//! checked against the file; and seeded samples of a set (`--sample`).

use crate::common::{published_total, require, run, script, stderr, stdout, CsvTable};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/csplib-prob079/params")
        .join(name)
}

/// Runs `compare` with `args`, one run per combination, rows to the CSV file `csv`.
fn compare(args: &[&str], csv: &Path) -> std::process::Output {
    let mut all = vec!["compare", "--repeat", "1", "--csv", csv.to_str().unwrap()];
    all.extend(args);
    run(&all)
}

/// The rows of a sweep's CSV file: (value, encoding, solver) to the row's cells by column.
fn rows(csv: &Path) -> BTreeMap<(String, String, String), BTreeMap<String, String>> {
    let t = CsvTable::read(csv);
    t.rows
        .iter()
        .map(|r| {
            let cell = |c: &str| r[t.col(c)].to_string();
            let cells = t
                .header
                .iter()
                .map(str::to_string)
                .zip(r.iter().map(str::to_string));
            (
                (cell("value"), cell("encoding"), cell("solver")),
                cells.collect(),
            )
        })
        .collect()
}

/// Writes the formula of the board of size `n` to `path` (`queens-sat encode N ... -o PATH`,
/// with `options` such as `--format opb`).
fn encode(n: usize, options: &[&str], path: &Path) {
    let n = n.to_string();
    let mut args = vec!["encode", &n];
    args.extend(options);
    args.extend(["-o", path.to_str().unwrap()]);
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// The rows of a sweep of every file in the folder `dir` by `solvers`, which must succeed
/// (into `dir/r.csv`, made after the folder is read).
fn sweep_folder(
    dir: &Path,
    solvers: &str,
) -> BTreeMap<(String, String, String), BTreeMap<String, String>> {
    let csv = dir.join("r.csv");
    let out = compare(
        &["--instance", dir.to_str().unwrap(), "--solver", solvers],
        &csv,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    rows(&csv)
}

/// The values of the rows, in the order of the CSV file.
fn values(csv: &Path) -> Vec<String> {
    let t = CsvTable::read(csv);
    t.rows
        .iter()
        .map(|r| r[t.col("value")].to_string())
        .collect()
}

#[test]
fn a_folder_and_a_list_give_their_files_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    std::fs::create_dir_all(set.join("sub")).unwrap();
    for f in ["diag-10-4-778.param", "diag-10-4-1.param"] {
        std::fs::copy(data(f), set.join(f)).unwrap();
    }
    // Skipped: another extension, a hidden file, a subfolder (and what is in it).
    std::fs::write(set.join("README.md"), "the set\n").unwrap();
    std::fs::copy(data("diag-14-4-500.param"), set.join(".hidden.param")).unwrap();
    std::fs::copy(
        data("diag-14-4-500.param"),
        set.join("sub/diag-14-4-500.param"),
    )
    .unwrap();
    let csv = dir.path().join("folder.csv");
    let args = [
        "--instance",
        set.to_str().unwrap(),
        "--diagonals",
        "5",
        "--amo",
        "pairwise",
    ];
    let out = compare(&args, &csv);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        values(&csv),
        ["diag-10-4-1.param d=5", "diag-10-4-778.param d=5"],
        "sorted by name"
    );
    assert!(
        stderr(&out).contains("2 instance files taken, 3 other entries skipped"),
        "{}",
        stderr(&out)
    );
    // Run again: every row is there, nothing runs.
    let out = compare(&args, &csv);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("resuming: 2 rows"),
        "{}",
        stderr(&out)
    );
    assert_eq!(values(&csv).len(), 2);

    // A list: paths relative to its folder, comments and blank lines skipped, a folder too.
    let lists = dir.path().join("lists");
    std::fs::create_dir(&lists).unwrap();
    let list = lists.join("hard.txt");
    std::fs::write(
        &list,
        "# the set of the paper\n\n../set/sub/diag-14-4-500.param\n   ../set/diag-10-4-1.param  \n",
    )
    .unwrap();
    let csv = dir.path().join("list.csv");
    let at = format!("@{}", list.display());
    let out = compare(&["--instance", &at, "--amo", "pairwise"], &csv);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(values(&csv), ["diag-14-4-500.param", "diag-10-4-1.param"]);
}

/// Runs `queens-sat` with `args`, which must be refused in one line holding `message`, exit 2.
fn refused<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S], message: &str) {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn bad_sets_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("notes.md"), "").unwrap();
    let list = d.join("list.txt");
    std::fs::write(&list, "# two files\n").unwrap();
    let bad_list = d.join("bad.txt");
    std::fs::copy(data("diag-10-4-1.param"), d.join("a.param")).unwrap();
    std::fs::write(&bad_list, "a.param\n\nnone.param\n").unwrap();
    std::fs::write(d.join("f.cnf"), "p cnf 2 1\n1 3 0\n").unwrap();
    std::fs::write(d.join("g.cnf"), "p cnf 2 1\n1 2 0\n").unwrap();
    std::fs::write(
        d.join("h.opb"),
        "* #variable= 1 #constraint= 1\n+1 x1 >= 1 ;\n",
    )
    .unwrap();
    let path = |f: &str| d.join(f).display().to_string();
    let at = |f: &str| format!("@{}", path(f));
    let cases: [(Vec<String>, &str); 9] = [
        (
            vec![path("empty")],
            "holds no instance files (files ending in .txt, .param, .cnf, .opb)",
        ),
        (vec![at("none.txt")], "cannot open list of instances"),
        (vec![at("list.txt")], "list.txt names no file"),
        (
            vec![at("bad.txt")],
            "bad.txt, line 3: none.param does not exist",
        ),
        (vec!["@".into()], "@ is followed by the path of a list"),
        (
            vec![path("f.cnf")],
            "f.cnf: line 2: literal 3 is beyond the 2 variables",
        ),
        (
            vec![path("g.cnf"), "--solver".into(), "search".into()],
            "--solver search: search solves boards, and",
        ),
        (
            vec![path("h.opb"), "--solver".into(), "cadical".into()],
            "no solver of the sweep reads",
        ),
        (
            vec![path("g.cnf"), "--diagonals".into(), "4".into()],
            "--diagonals:",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["compare".to_string(), "--instance".into()];
        all.extend(args);
        refused(&all, message);
    }
    // The same file twice is refused: rows name files by their names.
    std::fs::create_dir(d.join("again")).unwrap();
    std::fs::copy(d.join("g.cnf"), d.join("again/g.cnf")).unwrap();
    let out = run(&[
        "compare",
        "--instance",
        &path("g.cnf"),
        "--instance",
        &path("again"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("two files are named g.cnf"),
        "{}",
        stderr(&out)
    );
}

/// The documented order of `--sample` (docs/commands.md), computed here apart from the
/// product: the names ranked by the MD5 digest of `SEED NAME` in hexadecimal, the first `k`.
fn sample_of(names: &[String], seed: u64, k: usize) -> Vec<String> {
    use md5::{Digest, Md5};
    let hex = |name: &String| {
        let digest = Md5::digest(format!("{seed} {name}"));
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let mut ranked: Vec<(String, &String)> = names.iter().map(|n| (hex(n), n)).collect();
    ranked.sort();
    ranked.into_iter().take(k).map(|(_, n)| n.clone()).collect()
}

#[test]
fn a_sample_is_the_first_k_in_the_seeded_order_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    std::fs::create_dir(&set).unwrap();
    let files = [
        "diag-10-4-1.param",
        "diag-10-4-778.param",
        "diag-14-4-500.param",
    ];
    for f in files {
        std::fs::copy(data(f), set.join(f)).unwrap();
    }
    // 3 files x D = 3..6: 12 instances, named as rows name them.
    let names: Vec<String> = files
        .iter()
        .flat_map(|f| (3..=6).map(move |d| format!("{f} d={d}")))
        .collect();
    let sweep = |k: &str, seed: &str, csv: &Path| {
        let args = [
            "--instance",
            set.to_str().unwrap(),
            "--diagonals",
            "3..6",
            "--sample",
            k,
            "--sample-seed",
            seed,
            "--solver",
            "search",
            "--amo",
            "pairwise",
        ];
        let out = compare(&args, csv);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        out
    };
    let csv = dir.path().join("s5.csv");
    let out = sweep("5", "28", &csv);
    assert!(
        stderr(&out).contains("sample: 5 of 12 instances (seed 28)"),
        "{}",
        stderr(&out)
    );
    // Run in the sample's order.
    assert_eq!(values(&csv), sample_of(&names, 28, 5));
    // A larger sample keeps the smaller one; another seed draws another.
    let csv8 = dir.path().join("s8.csv");
    sweep("8", "28", &csv8);
    assert_eq!(values(&csv8), sample_of(&names, 28, 8));
    assert_eq!(values(&csv8)[..5], values(&csv)[..]);
    let other = dir.path().join("other.csv");
    sweep("5", "29", &other);
    assert_eq!(values(&other), sample_of(&names, 29, 5));
    assert_ne!(values(&other), values(&csv));
    // The same command again resumes the file: nothing is run.
    let out = sweep("5", "28", &csv);
    assert!(
        stderr(&out).contains("resuming: 5 rows"),
        "{}",
        stderr(&out)
    );
    assert_eq!(values(&csv).len(), 5);
    // Refused in one line, exit 2: more than the set, no instances to draw from, a seed alone.
    let s = set.to_str().unwrap();
    for (args, message) in [
        (
            vec!["--instance", s, "--sample", "13", "--diagonals", "3..6"],
            "--sample: a sample of 13 instances, but the set holds 12",
        ),
        (vec!["--instance", s, "--sample", "0"], "'--sample <K>'"),
        (vec!["--n", "8", "--sample", "2"], "--instance"),
        (vec!["--instance", s, "--sample-seed", "2"], "--sample"),
    ] {
        let mut all = vec!["compare"];
        all.extend(args);
        refused(&all, message);
    }
}

/// A random 3-CNF formula of `vars` variables and `clauses` clauses (a fixed generator), as
/// clauses of DIMACS literals.
fn random_3cnf(vars: i64, clauses: usize, seed: u64) -> Vec<[i64; 3]> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    };
    (0..clauses)
        .map(|_| {
            [0; 3].map(|_| {
                let v = next(vars as u64) as i64 + 1;
                if next(2) == 0 {
                    v
                } else {
                    -v
                }
            })
        })
        .collect()
}

/// Whether some assignment of `vars` variables satisfies every clause, by trying them all.
fn brute_force_sat(vars: i64, clauses: &[[i64; 3]]) -> bool {
    (0u32..1 << vars).any(|bits| {
        clauses.iter().all(|c| {
            c.iter()
                .any(|&l| (bits >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
        })
    })
}

#[test]
fn dimacs_files_are_solved_as_they_are_and_their_answers_checked() {
    for s in ["cadical", "minisat"] {
        if !require(s) {
            return;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Random 3-CNF near the threshold (some SAT, some UNSAT), decided here by brute force.
    let mut answers = BTreeMap::new();
    for seed in 1..=6 {
        let (vars, count) = (12, 52);
        let clauses = random_3cnf(vars, count, seed);
        let mut text = format!("c random 3-CNF, seed {seed}\np cnf {vars} {count}\n");
        for c in &clauses {
            text += &format!("{} {} {} 0\n", c[0], c[1], c[2]);
        }
        let name = format!("r{seed}.cnf");
        std::fs::write(d.join(&name), text).unwrap();
        answers.insert(name, (brute_force_sat(vars, &clauses), vars, count));
    }
    assert!(answers.values().any(|a| a.0) && answers.values().any(|a| !a.0));
    // Formulas of boards, by content (no .cnf): n = 8 has solutions, n = 3 none.
    for n in [3usize, 8] {
        let name = format!("queens-{n}.dimacs.txt");
        encode(n, &["--amo", "pairwise"], &d.join(&name));
        let text = std::fs::read_to_string(d.join(&name)).unwrap();
        let header: Vec<i64> = text
            .lines()
            .find(|l| l.starts_with("p cnf"))
            .unwrap()
            .split_whitespace()
            .skip(2)
            .map(|w| w.parse().unwrap())
            .collect();
        answers.insert(
            name,
            (published_total(n) > 0, header[0], header[1] as usize),
        );
    }
    let got = sweep_folder(d, "cadical,cadical-lib,minisat");
    assert_eq!(got.len(), 3 * answers.len());
    for ((value, encoding, solver), row) in &got {
        let (sat, vars, clauses) = answers[value];
        assert_eq!(encoding, "file");
        assert_eq!(row["family"], "dimacs");
        assert_eq!(row["n"], "0");
        assert_eq!(
            row["status"],
            if sat { "SAT" } else { "UNSAT" },
            "{value} {solver}"
        );
        assert_eq!(row["vars"], vars.to_string());
        assert_eq!(row["clauses"], clauses.to_string());
    }
    // The GBD identifier read from the file is the one of the formula encoded for n = 8.
    let board_csv = d.join("board.csv");
    let out = compare(
        &["--n", "8", "--amo", "pairwise", "--solver", "minisat"],
        &board_csv,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let board = rows(&board_csv);
    let board_hash = &board.values().next().unwrap()["gbd_hash"];
    let file_key = (
        "queens-8.dimacs.txt".to_string(),
        "file".to_string(),
        "minisat".to_string(),
    );
    assert_eq!(&got[&file_key]["gbd_hash"], board_hash);
    // The table names the files.
    assert!(stdout(&out).contains("| 8 | pairwise | minisat |"));
}

#[test]
fn a_lying_solver_is_caught_by_the_clauses_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Every variable true: the at-most-one clauses of n = 5 forbid it.
    let liar = script(
        d,
        "liar",
        r#"m=$(grep '^p cnf' "$1" | cut -d' ' -f3)
echo "s SATISFIABLE"
echo "v $(seq -s ' ' 1 "$m") 0""#,
    );
    let beyond = script(d, "beyond", "echo 's SATISFIABLE'; echo 'v 1 -2 3 99 0'");
    let cnf = d.join("q5.cnf");
    encode(5, &["--amo", "pairwise"], &cnf);
    let csv = d.join("r.csv");
    let solvers = format!("{},{}", liar.display(), beyond.display());
    let out = compare(
        &["--instance", cnf.to_str().unwrap(), "--solver", &solvers],
        &csv,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let got = rows(&csv);
    let status = |solver: &Path| {
        got[&("q5.cnf".into(), "file".into(), solver.display().to_string())]["status"].clone()
    };
    // The first clause with no true literal: an at-most-one of row 1.
    assert!(
        status(&liar).starts_with("WRONG: clause ") && status(&liar).ends_with("is false: -1 -2"),
        "{}",
        status(&liar)
    );
    assert_eq!(
        status(&beyond),
        "WRONG: the model names variable 99, beyond the 25 variables of the file"
    );
    assert!(
        stderr(&out).contains("2 rows have a wrong answer"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn opb_files_go_to_the_pseudo_boolean_solvers() {
    if !require("minisat+") || !require("cadical") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for n in [3, 6] {
        encode(n, &["--format", "opb"], &d.join(format!("q{n}.opb")));
    }
    encode(6, &[], &d.join("q6.cnf"));
    let got: Vec<(String, String, String, String)> = sweep_folder(d, "cadical,minisat+")
        .into_iter()
        .map(|((value, _, solver), row)| {
            (value, solver, row["family"].clone(), row["status"].clone())
        })
        .collect();
    // Each file with the solvers of its format only.
    assert_eq!(
        got,
        [
            (
                "q3.opb".into(),
                "minisat+".into(),
                "opb".into(),
                "UNSAT".into()
            ),
            (
                "q6.cnf".into(),
                "cadical".into(),
                "dimacs".into(),
                "SAT".into()
            ),
            (
                "q6.opb".into(),
                "minisat+".into(),
                "opb".into(),
                "SAT".into()
            ),
        ]
    );
}

#[test]
fn shards_of_a_mixed_set_merge_to_the_whole_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let set = d.join("set");
    std::fs::create_dir(&set).unwrap();
    std::fs::copy(data("diag-10-4-1.param"), set.join("diag-10-4-1.param")).unwrap();
    encode(6, &[], &set.join("q6.cnf"));
    encode(3, &[], &set.join("q3.cnf"));
    let sweep = |csv: &Path, shard: Option<&str>| {
        let mut args = vec![
            "--instance",
            set.to_str().unwrap(),
            "--amo",
            "pairwise,sequential",
            "--solver",
            "varisat,cadical-lib",
        ];
        args.extend(shard.map(|s| ["--shard", s]).into_iter().flatten());
        let out = compare(&args, csv);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    let whole = d.join("whole.csv");
    sweep(&whole, None);
    let mut parts = Vec::new();
    for i in 1..=3 {
        let part = d.join(format!("part-{i}.csv"));
        sweep(&part, Some(&format!("{i}/3")));
        parts.push(part);
    }
    let merged = d.join("merged.csv");
    let mut args = vec!["compare".to_string(), "--merge".into()];
    args.extend(parts.iter().map(|p| p.display().to_string()));
    args.extend(["--csv".into(), merged.display().to_string()]);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answers = |csv: &Path| -> Vec<_> {
        rows(csv)
            .into_iter()
            .map(|(key, row)| (key, row["status"].clone()))
            .collect()
    };
    // 1 board file x 2 encodings x 2 solvers, 2 formula files x 2 solvers.
    assert_eq!(answers(&whole).len(), 8);
    assert_eq!(answers(&merged), answers(&whole));
}
