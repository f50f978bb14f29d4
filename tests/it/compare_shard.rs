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
    // An unsharded sweep's CSV.
    let whole = dir.path().join("whole.csv");
    assert!(sweep(&SWEEP, &["--csv", whole.to_str().unwrap()])
        .status
        .success());
    refused(std::slice::from_ref(&whole), "not from a sharded sweep");
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
            .find(|l| l.starts_with(&format!("| {e} | varisat | ")) && l.split('|').count() == 15)
            .unwrap_or_else(|| panic!("no score line for {e}: {out}"));
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f[3], rows.len().to_string(), "{line}");
        assert_eq!(f[4], solved.len().to_string(), "{line}");
        let sat = solved.iter().filter(|r| &r[status] == "SAT").count();
        assert_eq!(f[5], sat.to_string(), "{line}");
        assert_eq!(f[6], (solved.len() - sat).to_string(), "{line}");
        assert_eq!(f[9], format!("{par2:.3}"), "{line}");
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
