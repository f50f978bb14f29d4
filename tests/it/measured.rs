//! Measured and limited runs of `compare`: CPU time, wall-clock time and peak memory of every
//! run, `--cpu-limit` and `--memory-limit` enforced on the solver and every process it starts,
//! and a sweep that goes on past a solver that burns CPU, one that eats memory, one that
//! crashes and one that lies, each becoming its row.

use crate::common::{run, script, stderr, CsvTable};
use std::collections::HashMap;
use std::path::Path;

/// The rows of a sweep's CSV, by solver: column name to value.
fn rows_by_solver(path: &Path) -> HashMap<String, HashMap<String, String>> {
    let t = CsvTable::read(path);
    t.rows
        .iter()
        .map(|r| {
            let row: HashMap<String, String> = t
                .header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect();
            (row["solver"].clone(), row)
        })
        .collect()
}

/// A number of a row, failing the test when it is not one.
fn num(row: &HashMap<String, String>, name: &str) -> f64 {
    row[name]
        .parse()
        .unwrap_or_else(|_| panic!("{name} = '{}' in {row:?}", row[name]))
}

#[test]
fn a_sweep_goes_on_past_burners_hogs_crashes_and_liars() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two busy loops in two processes: only the sum over the group reaches the CPU limit
    // before the kernel's per-process bound (a second later) would stop either.
    let burner = script(
        d,
        "burner",
        "while :; do :; done & while :; do :; done & wait",
    );
    // tail keeps the one endless line of /dev/zero in memory.
    let hog = script(d, "hog", "tail /dev/zero");
    let crash = script(d, "crash", "kill -SEGV $$");
    let liar = script(d, "liar", "echo 's UNSATISFIABLE'; exit 20");
    let solvers = [&burner, &hog, &crash, &liar]
        .map(|p| p.display().to_string())
        .join(",");
    let csv = d.join("r.csv");
    let out = run(&[
        "compare",
        "--n",
        "8",
        "--amo",
        "pairwise",
        "--solver",
        &format!("{solvers},cadical-lib,search"),
        "--repeat",
        "1",
        "--timeout",
        "100",
        "--cpu-limit",
        "1",
        "--memory-limit",
        "64M",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    // Wrong and failed rows make the sweep fail, once every run is done.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rows = rows_by_solver(&csv);
    assert_eq!(rows.len(), 6, "{rows:?}");
    let row = |p: &Path| &rows[&p.display().to_string()];
    for r in rows.values() {
        assert_eq!(num(r, "cpu_limit_s"), 1.0, "{r:?}");
        assert_eq!(num(r, "memory_limit_mib"), 64.0, "{r:?}");
    }

    let b = row(&burner);
    assert_eq!(b["status"], "TIMEOUT", "{b:?}");
    assert!(num(b, "cpu_s") >= 1.0, "{b:?}");
    assert!(num(b, "wall_s") < 100.0, "{b:?}");

    let h = row(&hog);
    assert_eq!(h["status"], "MEMOUT", "{h:?}");
    assert!(num(h, "wall_s") < 100.0, "{h:?}");

    let c = row(&crash);
    assert!(c["status"].starts_with("ERROR"), "{c:?}");

    let l = row(&liar);
    assert!(l["status"].starts_with("WRONG"), "{l:?}");

    // The honest solver and the engine, measured as child processes: their memory is there.
    for name in ["cadical-lib", "search"] {
        let r = &rows[name];
        assert_eq!(r["status"], "SAT", "{r:?}");
        assert!(num(r, "max_rss_mib") > 0.0, "{r:?}");
        assert!(num(r, "cpu_s") >= 0.0 && num(r, "cpu_s") <= num(r, "cpu_limit_s"));
        assert!(num(r, "wall_s") > 0.0, "{r:?}");
    }

    // The line after the table names the limits.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("limits per run: 100 s wall, 1 s CPU, 64 MiB memory"),
        "{text}"
    );
}

/// A solver that answers UNKNOWN once it has used most of its CPU limit (as Exact does when the
/// kernel's bound signals it first) is a TIMEOUT row; one that answers UNKNOWN at once is an
/// ERROR row, and the sweep fails.
#[test]
fn unknown_at_the_cpu_limit_is_a_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let python = crate::common::python();
    let tired = script(
        d,
        "tired",
        &format!(
            "{} -c 'import time\nwhile time.process_time() < 1.85: pass\nprint(\"s UNKNOWN\")'",
            python.display()
        ),
    );
    let lazy = script(d, "lazy", "echo 's UNKNOWN'");
    let csv = d.join("r.csv");
    let solvers = format!("{},{}", tired.display(), lazy.display());
    let out = run(&[
        "compare",
        "--n",
        "8",
        "--amo",
        "pairwise",
        "--solver",
        &solvers,
        "--repeat",
        "1",
        "--cpu-limit",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rows = rows_by_solver(&csv);
    let t = &rows[&tired.display().to_string()];
    assert_eq!(t["status"], "TIMEOUT", "{t:?}");
    assert!(num(t, "cpu_s") >= 1.8, "{t:?}");
    let l = &rows[&lazy.display().to_string()];
    assert!(l["status"].starts_with("ERROR"), "{l:?}");
}

#[test]
fn resuming_under_other_limits_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    let sweep = |extra: &[&str]| {
        let mut args = vec![
            "compare",
            "--n",
            "6",
            "--amo",
            "pairwise",
            "--solver",
            "varisat",
            "--repeat",
            "1",
            "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    assert!(sweep(&["--cpu-limit", "5"]).status.success());
    let other = sweep(&["--cpu-limit", "6"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(stderr(&other).contains("cpu_limit_s"), "{}", stderr(&other));
    let other = sweep(&["--cpu-limit", "5", "--memory-limit", "1G"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(
        stderr(&other).contains("memory_limit_mib"),
        "{}",
        stderr(&other)
    );
    assert!(sweep(&["--cpu-limit", "5"]).status.success());
}

#[test]
fn bad_limits_get_one_line_and_exit_2() {
    for (flag, value) in [
        ("--memory-limit", "1X"),
        ("--memory-limit", "0"),
        ("--memory-limit", "-5G"),
        ("--cpu-limit", "0"),
        ("--cpu-limit", "soon"),
        ("--cpu-limit", "1e9"),
    ] {
        let out = run(&["compare", "--n", "6", &format!("{flag}={value}")]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = stderr(&out);
        assert!(err.contains(flag) && !err.contains("panicked"), "{err}");
    }
}
