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
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MAGIC: &str = "queens-sat count checkpoint 1";

/// FNV-1a, 64 bits.
fn fnv(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = seed;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A digest of the list of sub-problems, so that a checkpoint of another split is refused.
fn split_digest(subs: &[Constellation]) -> u64 {
    let mut h = FNV_OFFSET;
    for s in subs {
        h = fnv(h, &[s.top, s.bottom, s.left, s.right, s.stab]);
    }
    h
}

fn header_lines(n: usize, subs: &[Constellation]) -> Vec<String> {
    vec![
        MAGIC.to_string(),
        format!("tool {}", env!("CARGO_PKG_VERSION")),
        format!("n {n}"),
        format!(
            "split constellations {} {:016x}",
            subs.len(),
            split_digest(subs)
        ),
    ]
}

fn header_sum(lines: &[String]) -> u64 {
    let mut h = FNV_OFFSET;
    for l in lines {
        h = fnv(h, l.as_bytes());
        h = fnv(h, b"\n");
    }
    h
}

fn record_body(index: usize, c: &ClassCounts) -> String {
    format!("{index} {} {} {}", c.of8, c.of4, c.of2)
}

/// An open checkpoint file, appended to as sub-problems finish.
pub(crate) struct Checkpoint {
    path: PathBuf,
    key: u64,
    file: Mutex<File>,
}

impl Checkpoint {
    /// Opens (or creates) the checkpoint for this run and returns the counts it already holds,
    /// by sub-problem index. An existing file is checked line by line and rewritten with only
    /// its complete records before new ones are appended.
    pub fn open(
        path: &Path,
        n: usize,
        subs: &[Constellation],
    ) -> Result<(Checkpoint, Vec<Option<ClassCounts>>), CountError> {
        let header = header_lines(n, subs);
        let key = header_sum(&header);
        let bad = |reason: String| CountError::Checkpoint {
            path: path.to_path_buf(),
            reason,
        };
        let mut done: Vec<Option<ClassCounts>> = vec![None; subs.len()];
        if path.exists() {
            let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| bad("it is not a checkpoint file (not text)".into()))?;
            parse(&text, n, &header, key, &mut done).map_err(bad)?;
        }
        // Write the header and the complete records to a temporary file, then rename it over
        // the checkpoint: a crash here leaves the old file intact.
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut tmp = tempfile::Builder::new()
            .prefix(".queens-sat-checkpoint-")
            .tempfile_in(dir)
            .map_err(|e| bad(format!("cannot create a file next to it: {e}")))?;
        let mut text = String::new();
        for l in &header {
            text.push_str(l);
            text.push('\n');
        }
        text.push_str(&format!("header {key:016x}\n"));
        for (i, c) in done.iter().enumerate() {
            if let Some(c) = c {
                let body = record_body(i, c);
                let sum = fnv(key, body.as_bytes());
                text.push_str(&format!("{body} {sum:016x}\n"));
            }
        }
        tmp.write_all(text.as_bytes())
            .and_then(|_| tmp.as_file().sync_all())
            .map_err(|e| bad(format!("cannot write: {e}")))?;
        tmp.persist(path)
            .map_err(|e| bad(format!("cannot write: {}", e.error)))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| bad(format!("cannot open for appending: {e}")))?;
        Ok((
            Checkpoint {
                path: path.to_path_buf(),
                key,
                file: Mutex::new(file),
            },
            done,
        ))
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

/// Reads a checkpoint's text into `done`, refusing anything that does not match.
fn parse(
    text: &str,
    n: usize,
    header: &[String],
    key: u64,
    done: &mut [Option<ClassCounts>],
) -> Result<(), String> {
    // Only lines ending in a newline are complete; a final partial line is dropped.
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    let mut lines = complete.lines();
    let first = lines.next().unwrap_or("");
    if first != MAGIC {
        return Err("it is not a queens-sat count checkpoint (unknown first line)".into());
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
                _ => "it was written for another split of the search".to_string(),
            });
        }
    }
    for (k, line) in lines.enumerate() {
        let lineno = k + header.len() + 2;
        let fields: Vec<&str> = line.split(' ').collect();
        let damaged = || format!("line {lineno} is damaged or was edited (checksum mismatch)");
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
    Ok(())
}
