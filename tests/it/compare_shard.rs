//! Sharded sweeps: `compare ... --shard I/K --csv part-I.csv` and `compare --merge`. The merged
//! rows are those of an unsharded sweep (same runs, sizes, answers and GBD hashes); the merge
//! refuses a missing or duplicated shard, rows of another sweep and a run given twice.

use crate::common::{run, stderr, stdout};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const SWEEP: [&str; 9] = [
    "compare",
    "--n",
    "5..8",
    "--amo",
    "pairwise,sequential",
    "--solver",
    "varisat",
    "--repeat",
    "1",
];

const FAMILY: [&str; 12] = [
    "compare",
    "--family",
    "blocked",
    "--n",
    "8",
    "--param",
    "p=0.2,0.5",
    "--seeds",
    "1..3",
    "--amo",
    "pairwise",
    "--repeat",
];

fn sweep(base: &[&str], extra: &[&str]) -> std::process::Output {
    let mut args: Vec<&str> = base.to_vec();
    args.extend(extra);
    run(&args)
}

/// The rows of a CSV as sets of the columns that do not depend on timing.
fn runs(path: &Path) -> BTreeSet<Vec<String>> {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let headers = rdr.headers().unwrap().clone();
    let keep = [
        "n", "encoding", "solver", "vars", "clauses", "status", "family", "value", "seed",
        "gbd_hash",
    ];
    let idx: Vec<usize> = keep
        .iter()
        .map(|k| headers.iter().position(|h| h == *k).unwrap())
        .collect();
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            idx.iter().map(|&i| r[i].to_string()).collect()
        })
        .collect()
}

fn shards(dir: &Path, base: &[&str], extra: &[&str], k: usize) -> Vec<PathBuf> {
    (1..=k)
        .map(|i| {
            let f = dir.join(format!("part-{i}.csv"));
            let shard = format!("{i}/{k}");
            let mut e = extra.to_vec();
            e.extend(["--shard", &shard, "--csv", f.to_str().unwrap()]);
            let o = sweep(base, &e);
            assert!(o.status.success(), "{}", stderr(&o));
            f
        })
        .collect()
}

fn merge(files: &[PathBuf], extra: &[&str]) -> std::process::Output {
    let mut args = vec!["compare".to_string(), "--merge".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs)
}

#[test]
fn merged_shards_are_the_unsharded_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let o = sweep(&SWEEP, &["--csv", whole.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    for k in [2, 3, 8] {
        let sub = dir.path().join(format!("k{k}"));
        std::fs::create_dir(&sub).unwrap();
        let files = shards(&sub, &SWEEP, &[], k);
        // Each shard ran a part, none ran everything.
        for f in &files {
            let part = runs(f);
            assert!(!part.is_empty() && part.len() < runs(&whole).len());
        }
        let merged = sub.join("merged.csv");
        let svg = sub.join("plot.svg");
        let o = merge(
            &files,
            &[
                "--csv",
                merged.to_str().unwrap(),
                "--plot",
                svg.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(runs(&merged), runs(&whole), "K = {k}");
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
        // The table lists every run.
        assert_eq!(
            stdout(&o).lines().filter(|l| l.starts_with("| ")).count(),
            1 + 8
        );
    }
}

#[test]
fn a_sharded_family_sweep_merges_to_the_same_summary() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let o = sweep(&FAMILY, &["1", "--csv", whole.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let files = shards(dir.path(), &FAMILY, &["1"], 4);
    let o = merge(&files, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let merged_csv = dir.path().join("m.csv");
    assert!(merge(&files, &["--csv", merged_csv.to_str().unwrap()])
        .status
        .success());
    assert_eq!(runs(&merged_csv), runs(&whole));
    // The summary's counts of SAT and UNSAT per value are those of the unsharded sweep.
    let counts = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("| 8 |"))
            .map(|l| l.split('|').take(7).collect::<Vec<_>>().join("|"))
            .collect()
    };
    let again = sweep(&FAMILY, &["1"]);
    assert_eq!(counts(&stdout(&o)), counts(&stdout(&again)));
    assert!(!counts(&stdout(&o)).is_empty(), "{}", stdout(&o));
}

fn refused(files: &[PathBuf], needle: &str) {
    let o = merge(files, &[]);
    assert_ne!(o.status.code(), Some(0), "{needle}");
    let err = stderr(&o);
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn merge_refuses_what_does_not_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), &SWEEP, &[], 3);
    refused(&files[..2], "missing shard 3 of 3");
    let mut dup = files.clone();
    dup.push(files[0].clone());
    refused(&dup, "shard 1/3 is given twice");
    // A shard of a sweep with another time limit.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let slow = shards(&other, &SWEEP, &["--timeout", "30"], 3);
    let mixed = vec![files[0].clone(), files[1].clone(), slow[2].clone()];
    refused(&mixed, "timeout_s");
    // A run given twice (a row copied into another shard's file).
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let row = text.lines().nth(1).unwrap().to_string();
    let edited = dir.path().join("edited.csv");
    let second = std::fs::read_to_string(&files[1]).unwrap();
    std::fs::write(
        &edited,
        format!("{second}{}\n", row.replace(",1/3,", ",2/3,")),
    )
    .unwrap();
    refused(
        &[files[0].clone(), edited, files[2].clone()],
        "the same run as",
    );
    // An unsharded sweep's CSV is a whole sweep: it merges alone, to the sweep's table; with a
    // shard of the same sweep its runs are given twice.
    let whole = dir.path().join("whole.csv");
    let o = sweep(&SWEEP, &["--csv", whole.to_str().unwrap()]);
    assert!(o.status.success());
    let alone = merge(std::slice::from_ref(&whole), &[]);
    assert!(alone.status.success(), "{}", stderr(&alone));
    let runs_table = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("| "))
            .map(|l| l.split('|').take(8).collect::<Vec<_>>().join("|"))
            .collect()
    };
    assert_eq!(runs_table(&stdout(&alone)), runs_table(&stdout(&o)));
    refused(&[whole.clone(), files[0].clone()], "the same run as");
    // A missing file, a file that is not a sweep's CSV.
    refused(&[dir.path().join("none.csv")], "does not exist");
    let junk = dir.path().join("junk.csv");
    std::fs::write(&junk, "a,b\n1,2\n").unwrap();
    refused(&[junk], "junk.csv");
    // Resuming a shard's CSV as another shard, or as the whole sweep, is refused.
    let o = sweep(
        &SWEEP,
        &["--shard", "2/3", "--csv", files[0].to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("shard 1/3"), "{}", stderr(&o));
    let o = sweep(&SWEEP, &["--csv", files[0].to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // More shards than runs; --shard without --csv.
    let o = sweep(&SWEEP, &["--shard", "1/99", "--csv", "x.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("fewer than"), "{}", stderr(&o));
    let o = sweep(&SWEEP, &["--shard", "1/2"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A CSV of an earlier version (without the `shard` and `gbd_hash` columns) still resumes,
/// and the rows appended keep its columns.
#[test]
fn csv_files_without_the_new_columns_resume() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("old.csv");
    let o = sweep(&SWEEP, &["--csv", csv.to_str().unwrap()]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&csv).unwrap();
    // Strip the columns after `fixed_parameters` (shard, gbd_hash, shuffle, the limits and
    // the measures), and keep the first three rows only.
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let after = header.len()
        - 1
        - header
            .iter()
            .position(|&h| h == "fixed_parameters")
            .unwrap();
    let old: Vec<String> = text
        .lines()
        .take(4)
        .map(|l| {
            let f: Vec<&str> = l.rsplitn(after + 1, ',').collect();
            f[after].to_string()
        })
        .collect();
    assert!(old[0].ends_with("fixed_parameters"), "{}", old[0]);
    std::fs::write(&csv, old.join("\n") + "\n").unwrap();
    let o = sweep(&SWEEP, &["--csv", csv.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming: 3 rows"), "{}", stderr(&o));
    let after = std::fs::read_to_string(&csv).unwrap();
    let fields = |l: &str| {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(l.as_bytes())
            .records()
            .next()
            .unwrap()
            .unwrap()
            .len()
    };
    let width = fields(after.lines().next().unwrap());
    assert_eq!(after.lines().count(), 9);
    assert!(after.lines().all(|l| fields(l) == width), "{after}");
}

/// The scores table (solved, SAT, UNSAT, PAR-2) of a family sweep, recomputed here from its CSV, and the
/// cactus and scatter plots.
#[test]
fn scores_and_plots_of_a_family_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("s.csv");
    let cactus = dir.path().join("cactus.svg");
    let scatter = dir.path().join("scatter.svg");
    let o = run(&[
        "compare",
        "--family",
        "blocked",
        "--n",
        "9",
        "--param",
        "p=0.3,0.6",
        "--seeds",
        "1..4",
        "--amo",
        "pairwise,sequential",
        "--repeat",
        "1",
        "--timeout",
        "5",
        "--csv",
        csv_path.to_str().unwrap(),
        "--cactus",
        cactus.to_str().unwrap(),
        "--scatter",
        scatter.to_str().unwrap(),
        "--scatter-of",
        "pairwise/varisat,sequential/varisat",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let mut rdr = csv::Reader::from_path(&csv_path).unwrap();
    let h = rdr.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|x| x == name).unwrap();
    let (enc, status, cpu, limit) = (
        col("encoding"),
        col("status"),
        col("cpu_s"),
        col("timeout_s"),
    );
    for e in ["pairwise", "sequential"] {
        let rows: Vec<csv::StringRecord> = csv::Reader::from_path(&csv_path)
            .unwrap()
            .records()
            .map(|r| r.unwrap())
            .filter(|r| &r[enc] == e)
            .collect();
        let solved: Vec<&csv::StringRecord> = rows
            .iter()
            .filter(|r| matches!(&r[status], "SAT" | "UNSAT"))
            .collect();
        let par2 = rows
            .iter()
            .map(|r| match &r[status] {
                "SAT" | "UNSAT" => r[cpu].parse::<f64>().unwrap(),
                _ => 2.0 * r[limit].parse::<f64>().unwrap(),
            })
            .sum::<f64>()
            / rows.len() as f64;
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("| {e} | varisat | ")) && l.split('|').count() == 17)
            .unwrap_or_else(|| panic!("no score line for {e}: {out}"));
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f[3], rows.len().to_string(), "{line}");
        assert_eq!(f[4], solved.len().to_string(), "{line}");
        let sat = solved.iter().filter(|r| &r[status] == "SAT").count();
        assert_eq!(f[5], sat.to_string(), "{line}");
        assert_eq!(f[6], (solved.len() - sat).to_string(), "{line}");
        let timeouts = rows.iter().filter(|r| &r[status] == "TIMEOUT").count();
        assert_eq!(f[7], timeouts.to_string(), "{line}");
        assert_eq!(f[10], format!("{par2:.3}"), "{line}");
    }
    for (svg, needle) in [
        (&cactus, "pairwise / varisat"),
        (&scatter, "pairwise / varisat vs"),
    ] {
        let text = std::fs::read_to_string(svg).unwrap();
        roxmltree::Document::parse(&text).expect("well-formed SVG");
        assert!(text.contains(needle), "{}", svg.display());
    }
    // A configuration the sweep did not run, or a malformed pair: one line, exit 2.
    for bad in ["pairwise/cadical,sequential/varisat", "pairwise"] {
        let o = run(&[
            "compare",
            "--n",
            "6",
            "--repeat",
            "1",
            "--amo",
            "pairwise,sequential",
            "--scatter",
            scatter.to_str().unwrap(),
            "--scatter-of",
            bad,
        ]);
        assert_ne!(o.status.code(), Some(0), "{bad}");
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
}

/// The family sweep of [`FAMILY`] (one run each) on `seeds` with `amo` and `solver`, into the
/// CSV file `csv`.
fn family_sweep(seeds: &str, amo: &str, solver: &str, csv: &Path) {
    let mut args: Vec<&str> = FAMILY.to_vec();
    // FAMILY ends in --repeat: its value, then the seeds, encodings and solver of this sweep
    // in place of its own.
    args.push("1");
    let at = |args: &[&str], flag: &str| args.iter().position(|a| *a == flag).unwrap();
    let i = at(&args, "--seeds");
    args[i + 1] = seeds;
    let i = at(&args, "--amo");
    args[i + 1] = amo;
    args.extend(["--solver", solver, "--csv", csv.to_str().unwrap()]);
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A finished family sweep reported again from its CSV: `--table values` recomputed here from
/// the CSV (decided, SAT, UNSAT per value; the hardest and easiest configuration by the median
/// of its times, an unsolved run at the limit), `--table` refused where the sweep has no such
/// table, and an answer edited into a disagreement: named on stderr, exit status 1.
#[test]
fn reported_sweeps_give_their_values_and_check_their_answers() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("s.csv");
    family_sweep("1..4", "pairwise,sequential", "varisat", &csv_path);
    let o = merge(std::slice::from_ref(&csv_path), &["--table", "values"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    let mut rdr = csv::Reader::from_path(&csv_path).unwrap();
    let h = rdr.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    let col = |name: &str| h.iter().position(|x| x == name).unwrap();
    let (value, seed, enc, status, cpu, limit) = (
        col("value"),
        col("seed"),
        col("encoding"),
        col("status"),
        col("cpu_s"),
        col("timeout_s"),
    );
    let mut values: Vec<String> = rows.iter().map(|r| r[value].to_string()).collect();
    values.dedup();
    values.sort_by(|a, b| a.parse::<f64>().unwrap().total_cmp(&b.parse().unwrap()));
    values.dedup();
    assert_eq!(table.lines().count(), 2 + values.len(), "{table}");
    for v in &values {
        let at: Vec<&csv::StringRecord> = rows.iter().filter(|r| &r[value] == v).collect();
        let seeds: BTreeSet<&str> = at.iter().map(|r| &r[seed]).collect();
        let answers = |s: &str| -> BTreeSet<&str> {
            at.iter()
                .filter(|r| &r[seed] == s && matches!(&r[status], "SAT" | "UNSAT"))
                .map(|r| &r[status])
                .collect()
        };
        let sat = seeds
            .iter()
            .filter(|s| answers(s) == ["SAT"].into())
            .count();
        let unsat = seeds
            .iter()
            .filter(|s| answers(s) == ["UNSAT"].into())
            .count();
        let decided = seeds.iter().filter(|s| !answers(s).is_empty()).count();
        // The median per encoding (the solver is varisat alone).
        let median = |e: &str| -> f64 {
            let mut t: Vec<f64> = at
                .iter()
                .filter(|r| &r[enc] == e)
                .map(|r| match (&r[status], r[cpu].parse::<f64>()) {
                    ("SAT" | "UNSAT", Ok(c)) => c,
                    _ => r[limit].parse().unwrap(),
                })
                .collect();
            t.sort_by(f64::total_cmp);
            let k = t.len();
            if k % 2 == 1 {
                t[k / 2]
            } else {
                (t[k / 2 - 1] + t[k / 2]) / 2.0
            }
        };
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("| 8 | {v} |")))
            .unwrap_or_else(|| panic!("no line for {v} in {table}"));
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(
            (f[3], f[4], f[5], f[6]),
            (
                seeds.len().to_string().as_str(),
                decided.to_string().as_str(),
                sat.to_string().as_str(),
                unsat.to_string().as_str()
            ),
            "{line}"
        );
        let (p, s) = (median("pairwise"), median("sequential"));
        let named = |cell: &str| -> (String, f64) {
            let (config, ms) = cell.split_once(": ").unwrap();
            (config.to_string(), ms.parse().unwrap())
        };
        let (hardest, easiest) = (named(f[8]), named(f[9]));
        let slower = if p >= s { p } else { s };
        assert!((hardest.1 - slower * 1e3).abs() < 0.051, "{line}: {p} {s}");
        assert!(
            (easiest.1 - p.min(s) * 1e3).abs() < 0.051,
            "{line}: {p} {s}"
        );
        if p != s {
            let (hard, easy) = if p > s {
                ("pairwise", "sequential")
            } else {
                ("sequential", "pairwise")
            };
            assert_eq!(hardest.0, format!("{hard} / varisat"), "{line}");
            assert_eq!(easiest.0, format!("{easy} / varisat"), "{line}");
        }
    }
    // Only a family sweep has values; the scores table alone.
    let boards = dir.path().join("boards.csv");
    let o = run(&[
        "compare",
        "--n",
        "5",
        "--repeat",
        "1",
        "--csv",
        boards.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = merge(std::slice::from_ref(&boards), &["--table", "values"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--table values: only a family sweep has parameter values"),
        "{}",
        stderr(&o)
    );
    let o = merge(std::slice::from_ref(&csv_path), &["--table", "scores"]);
    assert!(stdout(&o).starts_with("| encoding | solver | instances |"));
    assert_eq!(stdout(&o).lines().count(), 2 + 2 + 1, "{}", stdout(&o));
    // One answer turned around: the runs disagree on that instance.
    let text = std::fs::read_to_string(&csv_path).unwrap();
    let sat_line = text
        .lines()
        .position(|l| l.contains(",SAT,") && l.starts_with("8,pairwise,"))
        .expect("a SAT row of pairwise");
    let edited: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == sat_line {
                l.replacen(",SAT,", ",UNSAT,", 1)
            } else {
                l.to_string()
            }
        })
        .collect();
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, edited.join("\n") + "\n").unwrap();
    let o = merge(std::slice::from_ref(&bad), &["--table", "values"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("error: 1 instances were answered SAT by some runs and UNSAT by others:"),
        "{err}"
    );
    assert!(
        err.contains("SAT by sequential / varisat; UNSAT by pairwise / varisat"),
        "{err}"
    );
    let o = merge(std::slice::from_ref(&bad), &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("ANSWERS DISAGREE: 1 of the"),
        "{}",
        stdout(&o)
    );
}

/// Sweeps of the same instances with other solvers, reported together on the instances all of
/// them ran (`--common`); none in common is refused.
#[test]
fn sweeps_are_compared_on_their_common_instances() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    // a: seeds 1..3 with varisat; b: seeds 2..4 with the search engine.
    family_sweep("1..3", "pairwise", "varisat", &a);
    family_sweep("2..4", "pairwise", "search", &b);
    let both = [a.clone(), b.clone()];
    let o = merge(&both, &["--common", "--table", "scores"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Seeds 2 and 3 at two values: 4 instances each; 2 of a's and 2 of b's left out.
    for config in [
        "pairwise | varisat",
        "pairwise | search",
        "VBS | best of all",
    ] {
        assert!(
            stdout(&o).contains(&format!("| {config} | 4 |")),
            "{config}: {}",
            stdout(&o)
        );
    }
    assert!(
        stderr(&o).contains("4 instances left out"),
        "{}",
        stderr(&o)
    );
    let o = merge(&both, &["--table", "scores"]);
    assert!(
        stdout(&o).contains("| VBS | best of all | 8 |"),
        "{}",
        stdout(&o)
    );
    // Seeds 1..3 with varisat, seed 4 with the search engine: nothing in common.
    let c = dir.path().join("c.csv");
    family_sweep("4", "pairwise", "search", &c);
    let o = merge(&[a, c], &["--common"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--common: no instance was run by every configuration"),
        "{}",
        stderr(&o)
    );
}
