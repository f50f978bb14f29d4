//! The binary under the batch systems that shard counting and sweeps: a Slurm job array on a
//! single-node cluster started for the test (tests/cluster/slurm.sh), and GNU parallel on
//! this machine. Each task counts one shard of n = 12, 13 or 14 with the real binary; the
//! shards are merged and compared with the published table and an unsharded run. Missing
//! programs (or, for Slurm, not being root) skip the test with a loud message; under CI
//! (`CI=true`) they are failures.

use crate::common::{is_root, output, published_total, require, skip, BIN};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The programs tests/cluster/slurm.sh and the Slurm test run.
const SLURM_PROGRAMS: [&str; 8] = [
    "sbatch",
    "sinfo",
    "squeue",
    "scancel",
    "slurmctld",
    "slurmd",
    "munged",
    "mungekey",
];

/// Seconds a whole batch (submission to the last task's end) may take before the test fails.
const BATCH_TIMEOUT: u64 = 120;

/// `true` when the test can run; otherwise a loud message for each missing program, or for not
/// being root (a panic under CI).
fn can_run(what: &str, programs: &[&str], need_root: bool) -> bool {
    // Every program is asked for, so that each missing one is named.
    let missing = programs.iter().filter(|p| !require(p)).count();
    if need_root && !is_root() {
        skip(&format!(
            "{what}: not root (the Slurm and munge daemons run as root); see docs/cluster.md"
        ));
        return false;
    }
    missing == 0
}

/// A command with no `SLURM_*` variables of an enclosing job, so that it talks only to the
/// cluster the test names.
fn clean_command(program: &str) -> Command {
    let mut cmd = Command::new(program);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("SLURM_") {
            cmd.env_remove(&key);
        }
    }
    cmd
}

fn slurm_sh() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cluster/slurm.sh")
}

fn text(out: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A single-node Slurm cluster in a directory of its own; dropping it stops the daemons
/// (also when the test fails), then removes the directory.
struct Cluster {
    conf: PathBuf,
    dir: tempfile::TempDir,
}

impl Cluster {
    fn start() -> Cluster {
        // A short path: munged's socket lives inside it.
        let dir = tempfile::Builder::new()
            .prefix("qs-slurm-")
            .tempdir()
            .unwrap();
        let out = output(
            clean_command("bash")
                .arg(slurm_sh())
                .arg("start")
                .arg(dir.path()),
        );
        let cluster = Cluster {
            conf: dir.path().join("slurm.conf"),
            dir,
        };
        assert!(
            out.status.success(),
            "slurm.sh start failed:\n{}",
            text(&out)
        );
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert_eq!(
            line,
            format!("export SLURM_CONF={}", cluster.conf.display()),
            "what slurm.sh start prints"
        );
        cluster
    }

    /// Writes `body` as a job script in `work` and runs it as a job array of `tasks` tasks
    /// there, waiting for the end (under `timeout`, so a stuck job fails the test).
    fn run_array(&self, work: &Path, body: &str, tasks: usize) {
        let script = work.join("task.sh");
        std::fs::write(&script, format!("#!/bin/sh\nset -eu\n{body}\n")).unwrap();
        let out = output(
            self.command("timeout")
                .arg(BATCH_TIMEOUT.to_string())
                .arg("sbatch")
                .arg(format!("--array=1-{tasks}"))
                .args(["--wait", "--quiet", "--output=slurm-%A_%a.out"])
                .arg("--chdir")
                .arg(work)
                .arg(&script),
        );
        assert!(
            out.status.success(),
            "sbatch --wait failed (exit status 124: over {BATCH_TIMEOUT} s); logs in {}/log:\n{}",
            self.dir.path().display(),
            text(&out)
        );
    }

    /// A Slurm client command aimed at this cluster.
    fn command(&self, program: &str) -> Command {
        let mut cmd = clean_command(program);
        cmd.env("SLURM_CONF", &self.conf);
        cmd
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Not through `common::output`: a panic in a drop while a failing test unwinds would
        // abort the whole test run.
        let out = clean_command("bash")
            .arg(slurm_sh())
            .arg("stop")
            .arg(self.dir.path())
            .output();
        match out {
            Ok(o) if o.status.success() => {}
            Ok(o) => eprintln!("slurm.sh stop failed:\n{}", text(&o)),
            Err(e) => eprintln!("slurm.sh stop did not run: {e}"),
        }
    }
}

/// The board sizes counted in shards, and the number of shards of each.
const SHARDED: [usize; 3] = [12, 13, 14];
const SHARDS: usize = 4;

/// Task `t` (1-based) of the array: shard `i` of board size `n`, as `(n, i)`.
const TASK_SCRIPT: &str = "t=$1; n=$((12 + (t - 1) / 4)); i=$(((t - 1) % 4 + 1)); \"$QS\" count $n --shard $i/4 --threads 1 -o part-$n-$i.txt > /dev/null";

/// Merges the shard files of every board size in `dir` and compares with the published table
/// and with an unsharded run of the same binary.
fn check_merged(dir: &Path) {
    for n in SHARDED {
        let files: Vec<PathBuf> = (1..=SHARDS)
            .map(|i| dir.join(format!("part-{n}-{i}.txt")))
            .collect();
        let merged = output(Command::new(BIN).args(["count", "--merge"]).args(&files));
        assert!(merged.status.success(), "n = {n}: {}", text(&merged));
        let whole = output(Command::new(BIN).args(["count", &n.to_string()]));
        let merged = String::from_utf8(merged.stdout).unwrap();
        assert_eq!(merged, String::from_utf8(whole.stdout).unwrap(), "n = {n}");
        assert!(
            merged.contains(&format!("solutions: {}\n", published_total(n))),
            "n = {n}: {merged}"
        );
    }
}

#[test]
fn a_slurm_job_array_counts_shards_that_merge_to_the_table() {
    if !can_run("Slurm job array", &SLURM_PROGRAMS, true) {
        return;
    }
    let cluster = Cluster::start();
    let work = tempfile::tempdir().unwrap();
    cluster.run_array(
        work.path(),
        &format!("QS='{BIN}'\nset -- \"$SLURM_ARRAY_TASK_ID\"\n{TASK_SCRIPT}"),
        SHARDED.len() * SHARDS,
    );
    check_merged(work.path());
}

#[test]
fn gnu_parallel_counts_shards_that_merge_to_the_table() {
    if !can_run("GNU parallel", &["parallel"], false) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let tasks: Vec<String> = (1..=SHARDED.len() * SHARDS)
        .map(|t| t.to_string())
        .collect();
    // Task t ({}) counts one shard of one board size.
    let out = output(
        Command::new("timeout")
            .arg(BATCH_TIMEOUT.to_string())
            .args(["parallel", "--will-cite", "--halt", "now,fail=1", "-j", "2"])
            .arg(format!("sh -c '{TASK_SCRIPT}' task {{}}"))
            .arg(":::")
            .args(&tasks)
            .env("QS", BIN)
            .current_dir(work.path()),
    );
    assert!(
        out.status.success(),
        "parallel failed (exit status 124: over {BATCH_TIMEOUT} s):\n{}",
        text(&out)
    );
    check_merged(work.path());
}

/// The sweep the batch tests shard: `compare` over n = 5..8, two encodings, two solvers.
const SWEEP: &str =
    "compare --n 5..8 --amo pairwise,sequential --solver varisat,cadical --repeat 1";
const SWEEP_SHARDS: usize = 3;

/// Merges the sweep's shard CSVs in `dir` and compares the runs with an unsharded sweep.
fn check_sweep(dir: &Path) {
    let files: Vec<PathBuf> = (1..=SWEEP_SHARDS)
        .map(|i| dir.join(format!("sweep-{i}.csv")))
        .collect();
    let merged = dir.join("merged.csv");
    let out = output(
        Command::new(BIN)
            .args(["compare", "--merge"])
            .args(&files)
            .arg("--csv")
            .arg(&merged),
    );
    assert!(out.status.success(), "{}", text(&out));
    let whole = dir.join("whole.csv");
    let out = output(
        Command::new(BIN)
            .args(SWEEP.split(' '))
            .arg("--csv")
            .arg(&whole),
    );
    assert!(out.status.success(), "{}", text(&out));
    // The runs (n, encoding, solver), their sizes and answers; not the times.
    let runs = |p: &Path| {
        let mut v: Vec<String> = std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                [f[0], f[1], f[3], f[6], f[7], f[11]].join(",")
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(runs(&merged), runs(&whole));
    assert_eq!(runs(&whole).len(), 4 * 2 * 2);
}

#[test]
fn a_slurm_job_array_runs_a_sharded_sweep() {
    if !can_run("Slurm job array", &SLURM_PROGRAMS, true) || !require("cadical") {
        return;
    }
    let cluster = Cluster::start();
    let work = tempfile::tempdir().unwrap();
    cluster.run_array(
        work.path(),
        &format!(
            "'{BIN}' {SWEEP} --shard \"$SLURM_ARRAY_TASK_ID\"/{SWEEP_SHARDS} --csv sweep-\"$SLURM_ARRAY_TASK_ID\".csv > /dev/null"
        ),
        SWEEP_SHARDS,
    );
    check_sweep(work.path());
}

#[test]
fn gnu_parallel_runs_a_sharded_sweep() {
    if !can_run("GNU parallel", &["parallel"], false) || !require("cadical") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let out = output(
        Command::new("timeout")
            .arg(BATCH_TIMEOUT.to_string())
            .args(["parallel", "--will-cite", "--halt", "now,fail=1", "-j", "2"])
            .arg(format!(
                "'{BIN}' {SWEEP} --shard {{}}/{SWEEP_SHARDS} --csv sweep-{{}}.csv > /dev/null"
            ))
            .arg(":::")
            .args((1..=SWEEP_SHARDS).map(|i| i.to_string()))
            .current_dir(work.path()),
    );
    assert!(out.status.success(), "parallel failed:\n{}", text(&out));
    check_sweep(work.path());
}
