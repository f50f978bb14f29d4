//! The binary under the batch systems that shard counting and sweeps: a Slurm job array on a
//! single-node cluster started for the test (tests/cluster/slurm.sh), and GNU parallel on
//! this machine. Each task runs the real `count` and its total is compared with the published
//! one. Missing programs (or, for Slurm, not being root) skip the test with a loud message;
//! under CI (env `CI` set) they are failures.

mod common;

use common::published_total;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The board sizes the tasks count: task `i` (1-based) counts `SIZES[i - 1]`.
const SIZES: [usize; 3] = [6, 7, 8];

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

/// `true` when the test can run; otherwise a loud message (a panic under CI).
fn can_run(what: &str, programs: &[&str], need_root: bool) -> bool {
    let on_path = |name: &str| {
        std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()))
            .unwrap_or(false)
    };
    let mut missing: Vec<String> = Vec::new();
    let absent: Vec<&str> = programs.iter().copied().filter(|p| !on_path(p)).collect();
    if !absent.is_empty() {
        missing.push(format!(
            "{} not on PATH (Debian packages: slurm-wlm munge parallel)",
            absent.join(", ")
        ));
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    if need_root && unsafe { libc::geteuid() } != 0 {
        missing.push("not root (the Slurm and munge daemons run as root)".to_string());
    }
    if missing.is_empty() {
        return true;
    }
    let msg = format!("{what}: {}; see docs/cluster.md", missing.join("; "));
    if std::env::var_os("CI").is_some() {
        panic!("{msg}, but CI must run this test (.ci/run installs them)");
    }
    eprintln!("\n*** skipped: {msg} ***\n");
    false
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
        let out = clean_command("bash")
            .arg(slurm_sh())
            .arg("start")
            .arg(dir.path())
            .output()
            .expect("bash runs");
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

    /// A Slurm client command aimed at this cluster.
    fn command(&self, program: &str) -> Command {
        let mut cmd = clean_command(program);
        cmd.env("SLURM_CONF", &self.conf);
        cmd
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
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

/// The `solutions: X` total of a `count` output file.
fn total_in(path: &Path) -> u64 {
    let body = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} was not written: {e}", path.display()));
    body.lines()
        .find_map(|l| l.strip_prefix("solutions: "))
        .unwrap_or_else(|| panic!("no total in {}:\n{body}", path.display()))
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("bad total in {}: {e}\n{body}", path.display()))
}

/// Every task's output holds the published total of its board size.
fn check_outputs(dir: &Path) {
    for (i, &n) in SIZES.iter().enumerate() {
        let path = dir.join(format!("out-{}.txt", i + 1));
        assert_eq!(
            total_in(&path),
            published_total(n),
            "n = {n}, task {}",
            i + 1
        );
    }
}

#[test]
fn a_slurm_job_array_counts_with_the_real_binary() {
    if !can_run("Slurm job array", &SLURM_PROGRAMS, true) {
        return;
    }
    let cluster = Cluster::start();
    let work = tempfile::tempdir().unwrap();
    let sizes: Vec<String> = SIZES.iter().map(|n| n.to_string()).collect();
    let script = work.path().join("task.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             # Task i counts the i-th board size.\n\
             set -eu\n\
             n=$(echo {sizes} | cut -d' ' -f\"$SLURM_ARRAY_TASK_ID\")\n\
             '{bin}' count \"$n\" --threads 1 > out-\"$SLURM_ARRAY_TASK_ID\".tmp\n\
             mv out-\"$SLURM_ARRAY_TASK_ID\".tmp out-\"$SLURM_ARRAY_TASK_ID\".txt\n",
            sizes = sizes.join(" "),
            bin = env!("CARGO_BIN_EXE_queens-sat"),
        ),
    )
    .unwrap();
    let out = cluster
        .command("timeout")
        .arg(BATCH_TIMEOUT.to_string())
        .arg("sbatch")
        .arg(format!("--array=1-{}", SIZES.len()))
        .arg("--wait")
        .arg("--quiet")
        .arg("--chdir")
        .arg(work.path())
        .arg("--output=slurm-%A_%a.out")
        .arg(&script)
        .output()
        .expect("timeout runs");
    assert!(
        out.status.success(),
        "sbatch --wait failed (exit status 124: over {BATCH_TIMEOUT} s); \
         logs in {}/log:\n{}",
        cluster.dir.path().display(),
        text(&out)
    );
    check_outputs(work.path());
}

#[test]
fn gnu_parallel_counts_with_the_real_binary() {
    if !can_run("GNU parallel", &["parallel"], false) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_queens-sat");
    let sizes: Vec<String> = SIZES.iter().map(|n| n.to_string()).collect();
    // Task i ({#}, 1-based) counts the i-th size ({}).
    let out = Command::new("timeout")
        .arg(BATCH_TIMEOUT.to_string())
        .args(["parallel", "--will-cite", "--halt", "now,fail=1", "-j", "2"])
        .arg(format!(
            "'{bin}' count {{}} --threads 1 > out-{{#}}.tmp && mv out-{{#}}.tmp out-{{#}}.txt"
        ))
        .arg(":::")
        .args(&sizes)
        .current_dir(work.path())
        .output()
        .expect("timeout runs");
    assert!(
        out.status.success(),
        "parallel failed (exit status 124: over {BATCH_TIMEOUT} s):\n{}",
        text(&out)
    );
    check_outputs(work.path());
}
