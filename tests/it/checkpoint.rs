//! `count --checkpoint FILE` against damage: a second run on a file in use is refused, a run
//! killed outright resumes to the exact totals, the file keeps its permissions and is never
//! replaced, and paths that cannot hold a checkpoint are refused.
#![cfg(unix)]

use crate::common::*;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `queens-sat count` with umask 022, so that the permissions of a new file are known.
fn count_cmd(args: &[&str]) -> Command {
    let mut c = bin();
    c.arg("count").args(args);
    // SAFETY: umask is async-signal-safe and cannot fail.
    unsafe {
        c.pre_exec(|| {
            libc::umask(0o022);
            Ok(())
        });
    }
    c
}

/// Runs a command that must end within `secs` seconds.
fn run_within(mut cmd: Command, secs: u64) -> Output {
    output_within(&mut cmd, Duration::from_secs(secs))
}

/// `(total, fundamental)` from `count --format json` output.
fn totals(out: &Output) -> (u64, u64) {
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (
        v["total"].as_u64().unwrap(),
        v["fundamental"].as_u64().unwrap(),
    )
}

/// The published `(D(n), U(n))`.
fn published(n: usize) -> (u64, u64) {
    let (m, u, d) = REFERENCE[n - 1];
    assert_eq!(m, n);
    (d, u)
}

/// The number of lines in `path` (0 while it does not exist).
fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// Waits until `path` has more than `k` lines, while `child` runs.
fn wait_for_lines(path: &Path, k: usize, child: &mut Child) {
    let start = Instant::now();
    while lines(path) <= k {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before writing {k} lines"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "nothing written");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn assert_refused(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_second_run_on_a_checkpoint_in_use_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("c16.ckpt");
    let p = f.to_str().unwrap();
    let mut first = spawn(
        count_cmd(&[
            "16",
            "--threads",
            "1",
            "--checkpoint",
            p,
            "--format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped()),
    );
    // The header is written once the file is locked.
    wait_for_lines(&f, 4, &mut first);
    let t = Instant::now();
    let second = run_within(
        count_cmd(&["16", "--checkpoint", p, "--format", "json"]),
        10,
    );
    assert!(t.elapsed() < Duration::from_secs(5), "not refused at once");
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first run ended before the second was refused: inconclusive"
    );
    assert_refused(
        &second,
        &format!("is in use by another queens-sat count (pid {})", first.id()),
    );
    let out = first.wait_with_output().unwrap();
    assert_eq!(totals(&out), published(16));
    // The file holds every record: a rerun reads them all and gives the same totals.
    let again = run_within(
        count_cmd(&["16", "--checkpoint", p, "--format", "json"]),
        60,
    );
    assert_eq!(totals(&again), published(16));
    assert!(std::fs::read_to_string(&f).unwrap().ends_with('\n'));
}

#[test]
fn sigkill_then_resume_gives_the_exact_totals() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("c15.ckpt");
    let p = f.to_str().unwrap();
    let mut child = spawn(
        count_cmd(&["15", "--threads", "1", "--checkpoint", p])
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    );
    // Header (5 lines) and a few records.
    wait_for_lines(&f, 20, &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    let recorded = lines(&f);
    // A record cut short, as a kill in the middle of a write would leave it.
    let mut text = std::fs::read_to_string(&f).unwrap();
    text.truncate(text.rfind('\n').unwrap() + 1);
    text.push_str("9999 12");
    std::fs::write(&f, &text).unwrap();
    let ino = std::fs::metadata(&f).unwrap().ino();
    let out = run_within(
        count_cmd(&["15", "--checkpoint", p, "--format", "json"]),
        120,
    );
    assert_eq!(totals(&out), published(15));
    // Resumed in the same file: the complete records kept, the torn line gone.
    let after = std::fs::read_to_string(&f).unwrap();
    assert!(after.starts_with(&text[..text.len() - "9999 12".len()]));
    assert!(after.ends_with('\n') && !after.contains("9999 12"));
    assert!(after.lines().count() > recorded);
    assert_eq!(std::fs::metadata(&f).unwrap().ino(), ino);
}

#[test]
fn permissions_are_kept_and_the_file_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("c.ckpt");
    let p = f.to_str().unwrap();
    let mode = |f: &Path| std::fs::metadata(f).unwrap().permissions().mode() & 0o777;
    let out = run_within(
        count_cmd(&["11", "--checkpoint", p, "--format", "json"]),
        60,
    );
    assert_eq!(totals(&out), published(11));
    assert_eq!(mode(&f), 0o644, "a new file gets the umask's permissions");
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
    let ino = std::fs::metadata(&f).unwrap().ino();
    let out = run_within(
        count_cmd(&["11", "--checkpoint", p, "--format", "json"]),
        60,
    );
    assert_eq!(totals(&out), published(11));
    assert_eq!(mode(&f), 0o640);
    assert_eq!(std::fs::metadata(&f).unwrap().ino(), ino);
    // Nothing else in the folder.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn paths_that_cannot_hold_a_checkpoint_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let missing = d.join("missing/dir/x");
    for n in ["3", "8"] {
        let out = run_within(
            count_cmd(&[n, "--checkpoint", missing.to_str().unwrap()]),
            10,
        );
        assert_refused(&out, "does not exist");
    }
    assert!(!d.join("missing").exists());
    // A folder.
    let out = run_within(count_cmd(&["8", "--checkpoint", d.to_str().unwrap()]), 10);
    assert_refused(&out, "directory");
    // A FIFO: refused, not waited on.
    let fifo = d.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let out = run_within(
        count_cmd(&["8", "--checkpoint", fifo.to_str().unwrap()]),
        10,
    );
    assert_refused(&out, "not a regular file");
    // A device that never ends (like /dev/zero): refused, not read.
    let zero = d.join("zero");
    let made = is_root()
        && require("mknod")
        && status(Command::new("mknod").arg(&zero).args(["c", "1", "5"])).success();
    if made {
        let out = run_within(
            count_cmd(&["8", "--checkpoint", zero.to_str().unwrap()]),
            10,
        );
        assert_refused(&out, "not a regular file");
    } else {
        skip("the device case needs root (mknod)");
    }
    let mut names: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let want: Vec<&str> = if made {
        vec!["fifo", "zero"]
    } else {
        vec!["fifo"]
    };
    assert_eq!(names, want);
}

#[test]
fn a_locked_checkpoint_is_refused_by_the_library_too() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("c.ckpt");
    let _ = queens_sat::count::Counter::new(10)
        .unwrap()
        .checkpoint(&f)
        .stop_after(3)
        .run()
        .unwrap();
    let before = std::fs::read(&f).unwrap();
    let holder = std::fs::File::open(&f).unwrap();
    // Other tests of this binary fork children (`pre_exec`); a child holds a copy of every
    // open file until it execs, so the lock of the run above can outlive it by a moment.
    lock_within_5_seconds(&holder);
    let err = queens_sat::count::Counter::new(10)
        .unwrap()
        .checkpoint(&f)
        .run()
        .unwrap_err();
    assert!(err.to_string().contains("in use"), "{err}");
    assert_eq!(std::fs::read(&f).unwrap(), before);
    drop(holder);
    // The same moment for the lock just dropped (see above).
    let start = std::time::Instant::now();
    let outcome = loop {
        match queens_sat::count::Counter::new(10)
            .unwrap()
            .checkpoint(&f)
            .run()
        {
            Err(e) if e.to_string().contains("in use") && start.elapsed().as_secs() < 5 => {
                std::thread::sleep(Duration::from_millis(20))
            }
            other => break other.unwrap(),
        }
    };
    match outcome {
        queens_sat::count::Outcome::Complete(c) => {
            assert_eq!((c.total, c.fundamental), published(10))
        }
        other => panic!("{other:?}"),
    }
}

/// Takes the lock on `file`, waiting up to 5 seconds for a forked child of another test to
/// exec and let go of its copy.
fn lock_within_5_seconds(file: &std::fs::File) {
    let start = std::time::Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return,
            Err(std::fs::TryLockError::WouldBlock) if start.elapsed().as_secs() < 5 => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(e) => panic!("cannot lock the checkpoint: {e:?}"),
        }
    }
}
