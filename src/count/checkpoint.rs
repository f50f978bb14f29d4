//! Checkpoint files: the counts of every finished sub-problem, so that an interrupted count
//! resumes where it stopped.
//!
//! The file is text. A header names the tool version, n and the split (its name, number of
//! sub-problems and a digest of the list), and ends with a checksum of the header lines. Then one
//! line per finished sub-problem: its index, its classes of 8, 4 and 2, and a checksum of the
//! line keyed with the header checksum. A file whose header does not match the run, or with a
//! line whose checksum is wrong, is refused; only an incomplete last line (the run was killed
//! while writing it) is dropped, and its sub-problem is searched again.
//!
//! A run holds an exclusive lock on the file while it counts: a second run on the same file is
//! refused at once. The file is never replaced (its permissions and its inode stay); records
//! are appended, and a torn last line is cut off in place.
//!
//! ```text
//! queens-sat count checkpoint 1
//! tool 0.1.0
//! n 12
//! split constellations 274 5c1d0e2a9b3f4471
//! header 9e0c4f7a12b3d6e8
//! 0 3 0 0 1b2c3d4e5f607182
//! ```

use super::constellation::Constellation;
use super::split::ClassCounts;
use super::CountError;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MAGIC: &str = "queens-sat count checkpoint 1";
/// The first line of a shard file: a checkpoint of the sub-problems of one shard, with a
/// `shard` header line and, once complete, a `done` line.
pub(crate) const SHARD_MAGIC: &str = "queens-sat count shard 1";

/// The shard a checkpoint belongs to, if any: its header line and the sub-problems it holds.
#[derive(Clone, Debug)]
pub(crate) struct ShardPlan {
    /// `shard I/K DIGEST`.
    pub line: String,
    /// `owned[i]`: sub-problem `i` belongs to this shard.
    pub owned: Vec<bool>,
}

/// FNV-1a, 64 bits.
pub(crate) fn fnv(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = seed;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A digest of the list of sub-problems, so that a checkpoint of another split is refused.
fn split_digest(subs: &[Constellation]) -> u64 {
    let mut h = FNV_OFFSET;
    for s in subs {
        h = fnv(h, &[s.top, s.bottom, s.left, s.right, s.stab]);
    }
    h
}

pub(crate) fn header_lines(
    n: usize,
    subs: &[Constellation],
    shard: Option<&ShardPlan>,
) -> Vec<String> {
    let mut lines = vec![
        if shard.is_some() { SHARD_MAGIC } else { MAGIC }.to_string(),
        format!("tool {}", env!("CARGO_PKG_VERSION")),
        format!("n {n}"),
        format!(
            "split constellations {} {:016x}",
            subs.len(),
            split_digest(subs)
        ),
    ];
    if let Some(s) = shard {
        lines.push(s.line.clone());
    }
    lines
}

pub(crate) fn header_sum(lines: &[String]) -> u64 {
    let mut h = FNV_OFFSET;
    for l in lines {
        h = fnv(h, l.as_bytes());
        h = fnv(h, b"\n");
    }
    h
}

pub(crate) fn record_body(index: usize, c: &ClassCounts) -> String {
    format!("{index} {} {} {}", c.of8, c.of4, c.of2)
}

/// An open checkpoint file, appended to as sub-problems finish, and locked for this run.
///
/// The lock is an advisory exclusive lock (`flock`) on the checkpoint file itself, held from
/// [`Checkpoint::open`] until the checkpoint is dropped. The file itself, rather than a sidecar
/// `FILE.lock`, because it is never replaced: an existing file is only appended to, and a last
/// line cut short by a crash is cut off in place with `set_len`, so every run opens the same
/// inode and two runs cannot end up writing to two different files. No extra file is left
/// behind, and the kernel drops the lock when the process ends, even on SIGKILL, so a lock is
/// never stale.
pub(crate) struct Checkpoint {
    path: PathBuf,
    key: u64,
    file: Mutex<File>,
}

/// The summary line that closes a complete shard file: the number of sub-problems, the classes
/// of 8, 4 and 2, the solutions and their residues mod 13 and 15 (which a merge recomputes),
/// keyed like the records.
pub(crate) fn done_line(key: u64, subs: usize, c: &ClassCounts) -> String {
    let total = 8 * c.of8 + 4 * c.of4 + 2 * c.of2;
    let body = format!(
        "done {subs} {} {} {} {total} {} {}",
        c.of8,
        c.of4,
        c.of2,
        total % 13,
        total % 15
    );
    let sum = fnv(key, body.as_bytes());
    format!("{body} {sum:016x}")
}

/// The folder of `p` (`.` for a bare name).
fn folder_of(p: &Path) -> &Path {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Checks that `path` can hold a checkpoint: an existing regular file (symbolic links are
/// followed), or nothing yet in an existing folder. Devices, FIFOs and directories are refused
/// before they are opened, so nothing is read from them.
pub(crate) fn check_path(path: &Path) -> Result<(), CountError> {
    let bad = |reason: String| CountError::Checkpoint {
        path: path.to_path_buf(),
        reason,
    };
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(bad("it is a directory".into())),
        Ok(m) if !m.is_file() => Err(bad(
            "it is not a regular file (a device, FIFO or socket cannot hold a checkpoint)".into(),
        )),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            // A dangling symbolic link names a file to create in the link's target folder.
            let target = std::fs::read_link(path)
                .map(|t| folder_of(path).join(t))
                .unwrap_or_else(|_| path.to_path_buf());
            let dir = folder_of(&target);
            if dir.is_dir() {
                Ok(())
            } else {
                Err(bad(format!("folder {} does not exist", dir.display())))
            }
        }
        Err(e) if e.kind() == ErrorKind::NotADirectory => Err(bad(format!(
            "{} is not a folder",
            folder_of(path).display()
        ))),
        Err(e) => Err(bad(format!("cannot use it: {e}"))),
    }
}

/// The process holding the `flock` lock on `file`, from `/proc/locks` (Linux).
#[cfg(target_os = "linux")]
fn lock_holder(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let m = file.metadata().ok()?;
    let id = format!(
        "{:02x}:{:02x}:{}",
        libc::major(m.dev()),
        libc::minor(m.dev()),
        m.ino()
    );
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF"; waiting requests have "->" after
    // the number and are skipped.
    locks.lines().find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        (f.len() >= 6 && f[1] == "FLOCK" && f[5] == id)
            .then(|| f[4].parse().ok())
            .flatten()
    })
}

#[cfg(not(target_os = "linux"))]
fn lock_holder(_: &File) -> Option<u32> {
    None
}

/// The largest checkpoint a run with `subs` sub-problems reads: the header and one record of at
/// most 100 characters per sub-problem, four times over. Anything larger is not its checkpoint.
fn size_limit(subs: usize) -> u64 {
    4096 + 400 * subs as u64
}

impl Checkpoint {
    /// Opens (or creates) the checkpoint for this run, locks it, and returns the counts it
    /// already holds, by sub-problem index. A file in use by another run is refused at once. An
    /// existing file is checked line by line and never rewritten: only an incomplete last line
    /// (the run was killed while writing it) is cut off before new records are appended. A new
    /// file gets the usual permissions (umask), an existing one keeps its own.
    pub fn open(
        path: &Path,
        n: usize,
        subs: &[Constellation],
        shard: Option<&ShardPlan>,
    ) -> Result<(Checkpoint, Vec<Option<ClassCounts>>, bool), CountError> {
        let header = header_lines(n, subs, shard);
        let key = header_sum(&header);
        let bad = |reason: String| CountError::Checkpoint {
            path: path.to_path_buf(),
            reason,
        };
        check_path(path)?;
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| bad(format!("cannot open it: {e}")))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(bad(match lock_holder(&file) {
                    Some(pid) => format!("it is in use by another queens-sat count (pid {pid})"),
                    None => "it is in use by another queens-sat count (it is locked)".into(),
                }))
            }
            Err(TryLockError::Error(e)) => return Err(bad(format!("cannot lock it: {e}"))),
        }
        // What was opened may have changed since `check_path`.
        let meta = file
            .metadata()
            .map_err(|e| bad(format!("cannot read it: {e}")))?;
        if !meta.is_file() {
            return Err(bad("it is not a regular file".into()));
        }
        let limit = size_limit(subs.len());
        let mut bytes = Vec::new();
        (&mut file)
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| bad(format!("cannot read it: {e}")))?;
        if bytes.len() as u64 > limit {
            return Err(bad(format!(
                "it is too large to be a checkpoint of this run (over {limit} bytes)"
            )));
        }
        let mut head = String::new();
        for l in &header {
            head.push_str(l);
            head.push('\n');
        }
        head.push_str(&format!("header {key:016x}\n"));
        let mut done: Vec<Option<ClassCounts>> = vec![None; subs.len()];
        let mut closed = false;
        let write_err = |e: std::io::Error| bad(format!("cannot write: {e}"));
        if head.as_bytes().starts_with(&bytes) {
            // A new file, or one whose header was cut short: no records to keep.
            file.set_len(0).map_err(write_err)?;
            file.write_all(head.as_bytes()).map_err(write_err)?;
            file.sync_all().map_err(write_err)?;
        } else {
            let text = String::from_utf8(bytes)
                .map_err(|_| bad("it is not a checkpoint file (not text)".into()))?;
            closed = parse(&text, n, &header, key, shard, &mut done).map_err(bad)?;
            // Records are only ever appended, so the complete ones stay where they are; a torn
            // last line is cut off so that the next record starts on a line of its own.
            let complete = text.rfind('\n').map_or(0, |i| i + 1);
            if complete < text.len() {
                file.set_len(complete as u64).map_err(write_err)?;
                file.sync_all().map_err(write_err)?;
            }
        }
        Ok((
            Checkpoint {
                path: path.to_path_buf(),
                key,
                file: Mutex::new(file),
            },
            done,
            closed,
        ))
    }

    /// Appends the `done` line of a complete shard ([`done_line`]) and syncs the file.
    pub fn close_shard(&self, subs: usize, counts: &ClassCounts) -> Result<(), CountError> {
        let line = format!("{}\n", done_line(self.key, subs, counts));
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.write_all(line.as_bytes())
            .and_then(|()| f.sync_all())
            .map_err(|e| CountError::Checkpoint {
                path: self.path.clone(),
                reason: format!("cannot write: {e}"),
            })
    }

    /// Appends the counts of a finished sub-problem (one `write` call per line).
    pub fn record(&self, index: usize, counts: &ClassCounts) -> Result<(), CountError> {
        let body = record_body(index, counts);
        let sum = fnv(self.key, body.as_bytes());
        let line = format!("{body} {sum:016x}\n");
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.write_all(line.as_bytes())
            .map_err(|e| CountError::Checkpoint {
                path: self.path.clone(),
                reason: format!("cannot write: {e}"),
            })
    }
}

/// The counts by sub-problem index held by `text`, the content of a checkpoint of a count of
/// board size `n`, read as [`Checkpoint::open`] reads an existing file (a final line without
/// its newline is dropped).
pub(crate) fn read_text(text: &str, n: usize) -> Result<Vec<Option<ClassCounts>>, String> {
    let subs = super::constellation::constellations(n);
    let header = header_lines(n, &subs, None);
    let key = header_sum(&header);
    let mut done = vec![None; subs.len()];
    parse(text, n, &header, key, None, &mut done)?;
    Ok(done)
}

/// The text of a checkpoint of a count of board size `n` holding the counts `done`, by
/// sub-problem index, as [`Checkpoint::open`] and [`Checkpoint::record`] write it.
pub(crate) fn write_text(n: usize, done: &[Option<ClassCounts>]) -> String {
    let subs = super::constellation::constellations(n);
    let header = header_lines(n, &subs, None);
    let key = header_sum(&header);
    let mut text = String::new();
    for l in &header {
        text.push_str(l);
        text.push('\n');
    }
    text.push_str(&format!("header {key:016x}\n"));
    for (index, c) in done.iter().enumerate() {
        if let Some(c) = c {
            let body = record_body(index, c);
            let sum = fnv(key, body.as_bytes());
            text.push_str(&format!("{body} {sum:016x}\n"));
        }
    }
    text
}

/// Reads a checkpoint's text into `done`, refusing anything that does not match; for a shard,
/// also refuses a record of a sub-problem of another shard and checks the closing `done` line.
/// Returns `true` when the file is a closed (complete) shard.
pub(crate) fn parse(
    text: &str,
    n: usize,
    header: &[String],
    key: u64,
    shard: Option<&ShardPlan>,
    done: &mut [Option<ClassCounts>],
) -> Result<bool, String> {
    // Only lines ending in a newline are complete; a final partial line is dropped.
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    let mut lines = complete.lines();
    let first = lines.next().unwrap_or("");
    if first != header[0] {
        return Err(match (first, shard) {
            (MAGIC, Some(_)) => "it is a checkpoint of a whole count, not a shard file".into(),
            (SHARD_MAGIC, None) => "it is a shard file, not a checkpoint of a whole count".into(),
            (_, Some(_)) => "it is not a queens-sat count shard file (unknown first line)".into(),
            _ => "it is not a queens-sat count checkpoint (unknown first line)".into(),
        });
    }
    let mut file_header = vec![first.to_string()];
    for _ in 1..header.len() {
        file_header.push(lines.next().ok_or("its header is incomplete")?.to_string());
    }
    let sum_line = lines.next().ok_or("its header is incomplete")?;
    if sum_line != format!("header {:016x}", header_sum(&file_header)) {
        return Err("its header is damaged (checksum mismatch)".into());
    }
    for (have, want) in file_header.iter().zip(header) {
        if have != want {
            let what = have.split(' ').next().unwrap_or("");
            return Err(match what {
                "n" => format!(
                    "it was written for {}, not n = {n}",
                    have.replacen("n ", "n = ", 1)
                ),
                "tool" => format!(
                    "it was written by queens-sat {} and this is {}; use a new file",
                    have.trim_start_matches("tool "),
                    env!("CARGO_PKG_VERSION")
                ),
                "shard" => format!(
                    "it was written for {}, not {}; use a new file",
                    have.rsplit_once(' ').map_or(have.as_str(), |h| h.0),
                    want.rsplit_once(' ').map_or(want.as_str(), |w| w.0)
                ),
                _ => "it was written for another split of the search".to_string(),
            });
        }
    }
    let mut closed = false;
    for (k, line) in lines.enumerate() {
        let lineno = k + header.len() + 2;
        let fields: Vec<&str> = line.split(' ').collect();
        let damaged = || format!("line {lineno} is damaged or was edited (checksum mismatch)");
        if closed {
            return Err(format!("line {lineno} follows the shard's `done` line"));
        }
        if let (Some(plan), Some(&"done")) = (shard, fields.first()) {
            check_done(line, key, plan, done).map_err(|e| format!("line {lineno}: {e}"))?;
            closed = true;
            continue;
        }
        if fields.len() != 5 {
            return Err(damaged());
        }
        let body = fields[..4].join(" ");
        if fields[4] != format!("{:016x}", fnv(key, body.as_bytes())) {
            return Err(damaged());
        }
        let nums: Result<Vec<u64>, _> = fields[..4].iter().map(|f| f.parse::<u64>()).collect();
        let nums = nums.map_err(|_| damaged())?;
        let index = nums[0] as usize;
        if index >= done.len() {
            return Err(format!(
                "line {lineno} names a sub-problem that does not exist"
            ));
        }
        if shard.is_some_and(|p| !p.owned[index]) {
            return Err(format!(
                "line {lineno} records sub-problem {index}, which belongs to another shard"
            ));
        }
        let c = ClassCounts {
            of8: nums[1],
            of4: nums[2],
            of2: nums[3],
        };
        match done[index] {
            Some(prev) if prev != c => {
                return Err(format!(
                    "line {lineno} contradicts an earlier record of sub-problem {index}"
                ))
            }
            _ => done[index] = Some(c),
        }
    }
    Ok(closed)
}

/// Checks a shard's `done` line against its records: intact, every sub-problem of the shard
/// recorded, and the sums and residues those records give.
fn check_done(
    line: &str,
    key: u64,
    plan: &ShardPlan,
    done: &[Option<ClassCounts>],
) -> Result<(), String> {
    let owned = plan.owned.iter().filter(|&&o| o).count();
    let recorded = done.iter().flatten().count();
    if recorded != owned {
        return Err(format!(
            "the shard is marked done with {recorded} of its {owned} sub-problems recorded"
        ));
    }
    let mut sum = ClassCounts::default();
    for c in done.iter().flatten() {
        sum.add(c);
    }
    let expected = done_line(key, owned, &sum);
    if line == expected {
        return Ok(());
    }
    // Tell an edited summary (its own checksum holds, residues or sums do not) from damage.
    let (body, tail) = line.rsplit_once(' ').unwrap_or((line, ""));
    if tail == format!("{:016x}", fnv(key, body.as_bytes())) {
        return Err(format!(
            "the shard's summary disagrees with its records (expected `{}`)",
            expected.rsplit_once(' ').map_or("", |e| e.0)
        ));
    }
    Err("the shard's `done` line is damaged or was edited (checksum mismatch)".into())
}
