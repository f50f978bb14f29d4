//! `-o FILE` on what is not a plain new file: device nodes, FIFOs, symbolic links (followed,
//! never replaced), a full disk, and temporary files left by a killed run. Every command with
//! `-o` is driven through the same cases.
#![cfg(unix)]

use crate::common::*;
use std::ffi::CString;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The commands that take `-o FILE`, with arguments small enough to run quickly.
const COMMANDS: [&[&str]; 8] = [
    &["encode", "7"],
    &["generate", "blocked", "9", "--p", "0.3"],
    &["encode", "6", "--amo", "sequential"],
    &["explain", "5"],
    &["count", "8", "--list"],
    &["count", "9", "--format", "json"],
    &["construct", "40"],
    &["trace", "5", "--learning", "--format", "html"],
];

fn c_path(p: &Path) -> CString {
    CString::new(p.as_os_str().as_bytes()).unwrap()
}

/// Makes a character device node like the system's (`mknod PATH c MAJOR MINOR`).
fn mknod_char(p: &Path, major: u32, minor: u32) -> bool {
    require("mknod")
        && status(
            Command::new("mknod")
                .arg(p)
                .args(["c", &major.to_string(), &minor.to_string()]),
        )
        .success()
}

fn mkfifo(p: &Path) {
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path(p).as_ptr(), 0o644) }, 0);
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Output without the line that quotes the command line (the only one that differs between a
/// run to stdout and one with `-o`).
fn strip_command(s: &[u8]) -> String {
    String::from_utf8_lossy(s)
        .lines()
        .filter(|l| !l.contains("command"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `args` with `-o target` added.
fn run_to(args: &[&str], target: &Path) -> Output {
    output(bin().args(args).arg("-o").arg(target))
}

fn assert_ok(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: {:?} {}",
        out.status,
        stderr(out)
    );
    assert!(out.stdout.is_empty(), "{what}: wrote to stdout");
}

fn assert_one_line_error(out: &Output, what: &str, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: {err}");
    assert!(err.contains(needle), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

#[test]
fn device_nodes_stay_devices() {
    if !is_root() {
        return skip("making device nodes (mknod) needs root");
    }
    let dir = tempfile::tempdir().unwrap();
    let null = dir.path().join("null");
    let full = dir.path().join("full");
    if !mknod_char(&null, 1, 3) || !mknod_char(&full, 1, 7) {
        return skip("mknod failed");
    }
    let is_dev = |p: &Path, minor: u64| {
        let m = std::fs::symlink_metadata(p).unwrap();
        m.file_type().is_char_device() && m.rdev() == libc::makedev(1, minor as u32)
    };
    for args in COMMANDS {
        let what = format!("{args:?} -o null");
        let out = run_to(args, &null);
        assert_ok(&out, &what);
        assert!(is_dev(&null, 3), "{what}: the node was replaced");

        let what = format!("{args:?} -o full");
        let out = run_to(args, &full);
        assert_one_line_error(&out, &what, "No space left on device");
        assert!(is_dev(&full, 7), "{what}: the node was replaced");
        assert_eq!(names(dir.path()), ["full", "null"], "{what}");
    }
}

#[test]
fn fifos_are_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    for args in COMMANDS {
        let what = format!("{args:?} -o pipe");
        // The reader is a `cat` child, so that it can be killed should the FIFO have been
        // replaced (its open would then wait for ever).
        let mut cat = spawn(Command::new("cat").arg(&fifo).stdout(Stdio::piped()));
        let mut cat_out = cat.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut v = Vec::new();
            cat_out.read_to_end(&mut v).unwrap();
            v
        });
        let out = run_to(args, &fifo);
        let start = Instant::now();
        while cat.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(20) {
                cat.kill().unwrap();
                cat.wait().unwrap();
                panic!("{what}: nothing was written to the FIFO; {}", stderr(&out));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let got = reader.join().unwrap();
        assert_ok(&out, &what);
        let want = run(args);
        assert!(want.status.success());
        assert_eq!(strip_command(&got), strip_command(&want.stdout), "{what}");
        assert!(!got.is_empty(), "{what}");
        let m = std::fs::symlink_metadata(&fifo).unwrap();
        assert!(m.file_type().is_fifo(), "{what}: the FIFO was replaced");
        assert_eq!(names(dir.path()), ["pipe"], "{what}");
    }
}

#[test]
fn symbolic_links_are_followed_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("sub")).unwrap();
    let real = d.join("sub/real.txt");
    for args in COMMANDS {
        let what = format!("{args:?}");
        let want = run(args);
        assert!(want.status.success());
        let want = strip_command(&want.stdout);

        // A link to an existing file (relative, through a second link): the file gets the
        // output and keeps its permissions; both links stay links.
        std::fs::write(&real, "old\n").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let _ = std::fs::remove_file(d.join("link"));
        let _ = std::fs::remove_file(d.join("link2"));
        std::os::unix::fs::symlink("sub/real.txt", d.join("link")).unwrap();
        std::os::unix::fs::symlink(d.join("link"), d.join("link2")).unwrap();
        for link in ["link", "link2"] {
            std::fs::write(&real, "old\n").unwrap();
            let out = run_to(args, &d.join(link));
            assert_ok(&out, &what);
            assert_eq!(
                strip_command(&std::fs::read(&real).unwrap()),
                want,
                "{what}"
            );
            let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o640, "{what} via {link}");
        }
        for link in ["link", "link2"] {
            let m = std::fs::symlink_metadata(d.join(link)).unwrap();
            assert!(m.file_type().is_symlink(), "{what}: {link} was replaced");
        }
        assert_eq!(
            std::fs::read_link(d.join("link")).unwrap(),
            PathBuf::from("sub/real.txt")
        );

        // A dangling link whose folder exists: the file it names is created.
        let new = d.join("sub/new.txt");
        let _ = std::fs::remove_file(&new);
        let _ = std::fs::remove_file(d.join("dangling"));
        std::os::unix::fs::symlink("sub/new.txt", d.join("dangling")).unwrap();
        let out = run_to(args, &d.join("dangling"));
        assert_ok(&out, &what);
        assert_eq!(strip_command(&std::fs::read(&new).unwrap()), want, "{what}");
        let m = std::fs::symlink_metadata(d.join("dangling")).unwrap();
        assert!(m.file_type().is_symlink(), "{what}: dangling was replaced");

        // A dangling link into a folder that does not exist: refused, nothing created.
        let _ = std::fs::remove_file(d.join("nowhere"));
        std::os::unix::fs::symlink("missing/x.txt", d.join("nowhere")).unwrap();
        let out = run_to(args, &d.join("nowhere"));
        assert_one_line_error(&out, &what, "does not exist");
        assert!(!d.join("missing").exists());

        // No temporary file anywhere.
        assert_eq!(
            names(d),
            ["dangling", "link", "link2", "nowhere", "sub"],
            "{what}"
        );
        assert_eq!(names(&d.join("sub")), ["new.txt", "real.txt"], "{what}");
    }
    // A loop of links is refused.
    std::os::unix::fs::symlink("loop2", d.join("loop1")).unwrap();
    std::os::unix::fs::symlink("loop1", d.join("loop2")).unwrap();
    let out = run_to(&["encode", "4"], &d.join("loop1"));
    assert_one_line_error(&out, "loop", "symbolic links");
}

/// A pid that no process has: a child that has exited and was waited for.
fn dead_pid() -> u32 {
    let mut child = spawn(&mut Command::new("true"));
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn stale_temporary_files_of_the_target_are_removed_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let dead = dead_pid();
    let alive = std::process::id();
    let stale = format!(".q.cnf.queens-sat-{dead}.tmp");
    let keep = [
        // A process that still runs (this test).
        format!(".q.cnf.queens-sat-{alive}.tmp"),
        // Another target's file.
        format!(".r.cnf.queens-sat-{dead}.tmp"),
        // Names that only look alike.
        format!(".q.cnf.queens-sat-{dead}.tmp.bak"),
        format!("q.cnf.queens-sat-{dead}.tmp"),
        format!(".q.cnf.queens-sat-0{dead}.tmp"),
        ".q.cnf.queens-sat-.tmp".to_string(),
    ];
    for f in keep.iter().chain([&stale]) {
        std::fs::write(d.join(f), "partial").unwrap();
    }
    // A stale file of another user is left alone.
    let foreign = format!(".q.cnf.queens-sat-{}.tmp", dead_pid());
    std::fs::write(d.join(&foreign), "partial").unwrap();
    let foreign_owned =
        is_root() && unsafe { libc::chown(c_path(&d.join(&foreign)).as_ptr(), 65534, 65534) } == 0;
    if !foreign_owned {
        std::fs::remove_file(d.join(&foreign)).unwrap();
    }
    let out = run(&["encode", "5", "-o", d.join("q.cnf").to_str().unwrap()]);
    assert_ok(&out, "encode 5 -o q.cnf");
    let mut want: Vec<String> = keep.to_vec();
    want.push("q.cnf".into());
    if foreign_owned {
        want.push(foreign);
    }
    want.sort();
    assert_eq!(names(d), want);
}

#[test]
fn sigkill_leaves_a_recognisable_file_that_the_next_run_removes() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("q.cnf");
    std::fs::write(&target, "old\n").unwrap();
    // About 4 GB of DIMACS: killed long before the end.
    let mut child = spawn(bin().args(["encode", "600", "-o", target.to_str().unwrap()]));
    let tmp = format!(".q.cnf.queens-sat-{}.tmp", child.id());
    let start = Instant::now();
    while !dir.path().join(&tmp).exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no {tmp}: {:?}",
            names(dir.path())
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old\n");
    assert_eq!(names(dir.path()), [tmp.as_str(), "q.cnf"]);
    let out = run(&["encode", "5", "-o", target.to_str().unwrap()]);
    assert_ok(&out, "rerun");
    assert_eq!(names(dir.path()), ["q.cnf"]);
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .contains("p cnf 25 "));
}

/// A small tmpfs mounted for a test, unmounted when dropped.
struct Mount(PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        // Not through `common::status`: a panic in a drop while a failing test unwinds would
        // abort the whole test run.
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// A 64 KiB tmpfs in a temporary folder (root only; `None` after saying why it is skipped).
fn small_disk() -> Option<(tempfile::TempDir, PathBuf, Mount)> {
    if !is_root() {
        skip("mounting a small tmpfs needs root");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("small");
    std::fs::create_dir(&mnt).unwrap();
    if !require("mount") {
        return None;
    }
    let mounted = status(
        Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&mnt),
    );
    if !mounted.success() {
        skip("mount -t tmpfs -o size=64k failed");
        return None;
    }
    let mount = Mount(mnt.clone());
    Some((dir, mnt, mount))
}

#[test]
fn every_other_output_on_a_full_disk_fails_in_one_line_and_resumes() {
    let Some((_dir, mnt, _mount)) = small_disk() else {
        return;
    };
    // Fill the disk but for a few KiB.
    let filler = mnt.join("filler");
    std::fs::write(&filler, vec![7u8; 60_000]).unwrap();
    let tmp = mnt.to_str().unwrap();
    // The checkpoint of count: refused when a record cannot be written ...
    let ck = mnt.join("q12.ckpt");
    let out = run(&[
        "count",
        "12",
        "--threads",
        "1",
        "--checkpoint",
        ck.to_str().unwrap(),
    ]);
    assert_one_line_error(
        &out,
        "count --checkpoint on a full disk",
        "No space left on device",
    );
    // ... and, once there is room, resumed to the published total.
    std::fs::remove_file(&filler).unwrap();
    let out = run(&[
        "count",
        "12",
        "--format",
        "json",
        "--checkpoint",
        ck.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], published_total(12));
    std::fs::remove_file(&ck).unwrap();
    std::fs::write(&filler, vec![7u8; 60_000]).unwrap();
    // compare --csv: one line, exit 2.
    let csv = mnt.join("c.csv");
    let out = run(&[
        "compare",
        "--n",
        "4..40",
        "--amo",
        "pairwise",
        "--repeat",
        "1",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_one_line_error(
        &out,
        "compare --csv on a full disk",
        "No space left on device",
    );
    // The temporary DIMACS of compare and of solve --solver on a full TMPDIR: the cause is
    // named (not "the solver failed"), and no temporary folder is left.
    let out = output(
        bin()
            .args(["compare", "--n", "40", "--amo", "pairwise", "--repeat", "1"])
            .env("TMPDIR", tmp),
    );
    assert_one_line_error(
        &out,
        "compare with a full TMPDIR",
        "No space left on device",
    );
    let out = output(
        bin()
            .args(["solve", "30", "--solver", "true"])
            .env("TMPDIR", tmp),
    );
    assert_one_line_error(
        &out,
        "solve --solver with a full TMPDIR",
        "No space left on device",
    );
    let mut left = names(&mnt);
    left.retain(|n| n != "filler" && n != "c.csv");
    assert!(left.is_empty(), "left behind: {left:?}");
    // No message repeats its cause.
    assert_eq!(
        stderr(&out).matches("No space left on device").count(),
        1,
        "{}",
        stderr(&out)
    );
}

#[test]
fn full_disk_keeps_the_old_file() {
    let Some((_dir, mnt, _mount)) = small_disk() else {
        return;
    };
    let target = mnt.join("q.cnf");
    let old: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(&target, &old).unwrap();
    // n = 60 is several megabytes of DIMACS: far more than the 64 KiB that fit.
    let out = run(&["encode", "60", "-o", target.to_str().unwrap()]);
    assert_one_line_error(&out, "encode 60 on a full disk", "No space left on device");
    assert_eq!(std::fs::read(&target).unwrap(), old);
    assert_eq!(names(&mnt), ["q.cnf"]);
}

#[test]
fn a_pipe_named_through_proc_is_written_in_place() {
    // /proc/self/fd/1 (what /dev/stdout points to) is a link to no path when stdout is a pipe.
    if !Path::new("/proc/self/fd").is_dir() {
        return skip("no /proc/self/fd");
    }
    for args in COMMANDS {
        let what = format!("{args:?} -o /proc/self/fd/1");
        let out = run_to(args, Path::new("/proc/self/fd/1"));
        assert!(out.status.success(), "{what}: {}", stderr(&out));
        let want = run(args);
        assert_eq!(
            strip_command(&out.stdout),
            strip_command(&want.stdout),
            "{what}"
        );
        assert!(!out.stdout.is_empty(), "{what}");
    }
}

/// A folder that exists but takes no new file (`/proc`): the message says that the file
/// cannot be created there, not that the folder is missing.
#[test]
fn an_output_in_proc_cannot_be_created() {
    if !Path::new("/proc/self").is_dir() {
        return skip("no /proc");
    }
    let mut lines: Vec<Vec<&str>> = COMMANDS
        .iter()
        .map(|c| [*c, &["-o", "/proc/queens-sat-x.out"][..]].concat())
        .collect();
    lines.push(vec!["solve", "3", "--proof", "/proc/queens-sat-x.out"]);
    for args in &lines {
        let out = run(args);
        let what = args.join(" ");
        assert_one_line_error(
            &out,
            &what,
            "error: cannot create /proc/queens-sat-x.out: /proc takes no new files",
        );
        assert!(stdout(&out).is_empty(), "{what}");
    }
}

/// An output that is the input file (by its name, through a link, or a hard link to it) is
/// refused before anything is written: the input stays as it was, and nothing else is made.
#[test]
fn an_output_that_is_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (input, shard) = (d("t6.txt"), d("s.txt"));
    let out = run(&["generate", "toroidal", "6", "-o", &input]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run(&["count", "8", "--shard", "1/1", "-o", &shard]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::os::unix::fs::symlink("t6.txt", d("link.txt")).unwrap();
    std::fs::hard_link(&input, d("hard.txt")).unwrap();
    let before = names(dir.path());
    let (text, shard_text) = (
        std::fs::read(&input).unwrap(),
        std::fs::read(&shard).unwrap(),
    );
    let (link, hard) = (d("link.txt"), d("hard.txt"));
    let i = input.as_str();
    let lines: Vec<Vec<&str>> = vec![
        vec!["encode", "--instance", i, "-o", i],
        vec!["encode", "--instance", i, "-o", &link],
        vec!["encode", "--instance", &link, "-o", &hard],
        vec!["explain", "--instance", i, "-o", i],
        vec!["trace", "--instance", i, "-o", i],
        vec!["solve", "--instance", i, "--format", "svg", "-o", i],
        vec!["solve", "--instance", i, "--proof", i],
        vec!["count", "--instance", i, "-o", i],
        vec!["count", "--instance", i, "--heatmap", i],
        vec!["count", "--merge", &shard, "-o", &shard],
        vec!["import", i, "-o", i],
        vec![
            "compare",
            "--instance",
            i,
            "--solver",
            "varisat",
            "--json",
            i,
        ],
        vec![
            "compare",
            "--instance",
            i,
            "--solver",
            "varisat",
            "--plot",
            &hard,
        ],
    ];
    for args in &lines {
        let what = args.join(" ");
        let out = run(args);
        assert_one_line_error(&out, &what, "it is the input file");
        assert!(stdout(&out).is_empty(), "{what}");
        assert_eq!(std::fs::read(&input).unwrap(), text, "{what}");
        assert_eq!(std::fs::read(&shard).unwrap(), shard_text, "{what}");
        assert_eq!(names(dir.path()), before, "{what}");
    }
    // Another file next to it is written as usual.
    let out = run(&["encode", "--instance", i, "-o", &d("t6.cnf")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
