//! Sharded counts: the sub-problems of a count dealt to K shards, each counted on its own
//! (another machine, a Slurm array task, a GNU parallel job) into a shard file, and the files
//! merged into the count of the whole board.
//!
//! * [`Shard`] is `I/K`, shard I (1-based) of K.
//! * [`assignment`] deals the sub-problems (constellations) to the shards, deterministically:
//!   largest estimated cost first, each to the shard with the least estimated cost so far
//!   (ties to the lowest shard), so shards take similar time. Every machine computes the same
//!   assignment from n and K alone; its digest is in every shard file.
//! * A shard file is a checkpoint ([`super::Counter::checkpoint`]) of the shard's sub-problems
//!   with a `shard I/K DIGEST` header line, closed by a `done` line with the shard's sums and
//!   the residues of its solutions mod 13 and 15. A rerun on the same file resumes it.
//! * [`merge`] reads the K files back and refuses anything that does not add up: another n,
//!   split, tool version or K, a missing or duplicated shard, an incomplete shard, a damaged or
//!   edited line (each names its file and line).
//!
//! ```text
//! queens-sat count shard 1
//! tool 0.1.0
//! n 12
//! split constellations 274 5c1d0e2a9b3f4471
//! shard 3/8 0f1e2d3c4b5a6978
//! header 9e0c4f7a12b3d6e8
//! 17 3 0 0 1b2c3d4e5f607182
//! ...
//! done 35 160 1 0 1284 10 9 77aa55cc00ee1122
//! ```

use super::checkpoint::{self, ShardPlan, FNV_OFFSET, SHARD_MAGIC};
use super::constellation::{self, Constellation};
use super::{check_n, ClassCounts, ClassSizes, CountError, Counts};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;

/// The most shards a count may be dealt to.
pub const MAX_SHARDS: usize = 1_000_000;

/// Shard `index` (1-based) of `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// 1 ..= `of`.
    pub index: usize,
    /// The number of shards, 1 ..= [`MAX_SHARDS`].
    pub of: usize,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/K` with 1 <= I <= K <= [`MAX_SHARDS`] ([`parse_shard`]).
    fn from_str(s: &str) -> Result<Shard, String> {
        parse_shard(s)
    }
}

/// A shard `I/K` (the I-th of K parts of a sharded run), 1 <= I <= K <= [`MAX_SHARDS`].
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let t = s.trim();
    let (i, k) = t
        .split_once('/')
        .ok_or_else(|| format!("'{s}' is not a shard I/K (for example 3/8)"))?;
    let num = |x: &str, what: &str| {
        x.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{s}': {what} '{x}' is not a whole number"))
    };
    let (index, of) = (num(i, "the shard")?, num(k, "the number of shards")?);
    if of == 0 || of > MAX_SHARDS {
        return Err(format!(
            "'{s}': the number of shards must be 1 to {MAX_SHARDS}"
        ));
    }
    if index == 0 || index > of {
        return Err(format!(
            "'{s}': the shard must be 1 to {of} (shards count from 1)"
        ));
    }
    Ok(Shard { index, of })
}

/// The shard (0-based) of every sub-problem of board size `n` (4 ..= 32) dealt to `of` shards.
pub fn assignment(n: usize, of: usize) -> Vec<usize> {
    deal(n, &constellation::constellations(n), of)
}

fn deal(n: usize, subs: &[Constellation], of: usize) -> Vec<usize> {
    let cost: Vec<u128> = subs
        .iter()
        .map(|c| constellation::estimated_cost(n, c))
        .collect();
    let mut order: Vec<usize> = (0..subs.len()).collect();
    order.sort_by_key(|&i| (Reverse(cost[i]), i));
    // The least loaded shard first, then the lowest.
    let mut heap: BinaryHeap<Reverse<(u128, usize)>> = (0..of).map(|s| Reverse((0, s))).collect();
    let mut shard_of = vec![0; subs.len()];
    for i in order {
        if let Some(Reverse((load, s))) = heap.pop() {
            shard_of[i] = s;
            heap.push(Reverse((load + cost[i], s)));
        }
    }
    shard_of
}

/// The plan of shard `shard` for board size `n`: its header line and its sub-problems.
pub(crate) fn plan(n: usize, subs: &[Constellation], shard: Shard) -> ShardPlan {
    let shard_of = deal(n, subs, shard.of);
    let mut h = FNV_OFFSET;
    for &s in &shard_of {
        h = checkpoint::fnv(h, &(s as u64).to_le_bytes());
    }
    ShardPlan {
        line: format!("shard {shard} {h:016x}"),
        owned: shard_of.iter().map(|&s| s + 1 == shard.index).collect(),
    }
}

/// Checks that board size `n` can be sharded into `shard.of` shards: n from 4 (smaller boards
/// have no split) and no more shards than sub-problems.
pub fn check_shard(n: usize, shard: Shard) -> Result<usize, CountError> {
    check_n(n)?;
    if n < 4 {
        return Err(CountError::Unsplit(n));
    }
    let subs = constellation::constellations(n).len();
    if shard.of > subs {
        return Err(CountError::TooManyShards {
            n,
            sub_problems: subs,
            shards: shard.of,
        });
    }
    Ok(subs)
}

/// One shard file read back by [`merge`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardSummary {
    /// The file.
    pub path: PathBuf,
    /// Its shard.
    pub shard: Shard,
    /// Its sub-problems.
    pub sub_problems: usize,
    /// Its solutions.
    pub total: u64,
}

/// What [`merge`] gives: the count of the whole board and a line per shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The counts, as an unsharded run gives them.
    pub counts: Counts,
    /// The shards, in shard order.
    pub shards: Vec<ShardSummary>,
}

/// Why shard files could not be merged. Each names the file (and the line) at fault.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No files.
    #[error("no shard files to merge")]
    NoFiles,
    /// A file that cannot be read or is not a valid shard file.
    #[error("{}: {reason}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Files of different counts (n, tool version, split or number of shards).
    #[error("{} and {} belong to different counts: {reason}", a.display(), b.display())]
    Mismatch {
        /// The first file.
        a: PathBuf,
        /// The file that disagrees with it.
        b: PathBuf,
        /// How.
        reason: String,
    },
    /// The same shard twice.
    #[error("shard {shard} is given twice: {} and {}", a.display(), b.display())]
    Duplicate {
        /// The shard.
        shard: Shard,
        /// One file.
        a: PathBuf,
        /// The other.
        b: PathBuf,
    },
    /// Shards without a file.
    #[error("missing shard{} {} of {of}: their sub-problems are not counted", if missing.len() == 1 { "" } else { "s" }, missing.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "))]
    Missing {
        /// The shards (1-based).
        missing: Vec<usize>,
        /// K.
        of: usize,
    },
}

/// The fields of a shard file's header that identify its count: lines 2..=5 (tool, n, split,
/// shard), read without checking them.
fn identity(text: &str) -> Result<(Vec<String>, usize, Shard), String> {
    let mut lines = text.lines();
    if lines.next() != Some(SHARD_MAGIC) {
        return Err("line 1: not a queens-sat count shard file".into());
    }
    let head: Vec<String> = lines.take(4).map(str::to_string).collect();
    if head.len() < 4 {
        return Err("its header is incomplete".into());
    }
    let n = head[1]
        .strip_prefix("n ")
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| (4..=super::MAX_N).contains(&n))
        .ok_or("line 3: not a board size `n N` with 4 <= N <= 32")?;
    let shard = head[3]
        .strip_prefix("shard ")
        .and_then(|v| v.split(' ').next())
        .ok_or("line 5: not a `shard I/K` line".to_string())?
        .parse::<Shard>()
        .map_err(|e| format!("line 5: {e}"))?;
    Ok((head, n, shard))
}

/// Merges shard files (`(path, contents)`) into the count of the whole board: every file of the
/// same n, tool version, split and K, every shard once, each complete and intact.
pub fn merge(files: &[(PathBuf, String)]) -> Result<Merged, MergeError> {
    let (first_path, first_text) = files.first().ok_or(MergeError::NoFiles)?;
    let file_err = |path: &PathBuf, reason: String| MergeError::File {
        path: path.clone(),
        reason,
    };
    let (head0, n, shard0) = identity(first_text).map_err(|e| file_err(first_path, e))?;
    let subs = constellation::constellations(n);
    let of = shard0.of;
    let mut by_shard: Vec<Option<(PathBuf, ShardSummary)>> = vec![None; of];
    let mut sum = ClassCounts::default();
    for (path, text) in files {
        let (head, _, shard) = identity(text).map_err(|e| file_err(path, e))?;
        for (k, what) in [(0, "tool version"), (1, "board size"), (2, "split")] {
            if head[k] != head0[k] {
                return Err(MergeError::Mismatch {
                    a: first_path.clone(),
                    b: path.clone(),
                    reason: format!("{what} `{}` against `{}`", head0[k], head[k]),
                });
            }
        }
        if shard.of != of {
            return Err(MergeError::Mismatch {
                a: first_path.clone(),
                b: path.clone(),
                reason: format!("{} shards against {}", of, shard.of),
            });
        }
        let plan = plan(n, &subs, shard);
        let header = checkpoint::header_lines(n, &subs, Some(&plan));
        let key = checkpoint::header_sum(&header);
        let mut done = vec![None; subs.len()];
        let closed = checkpoint::parse(text, n, &header, key, Some(&plan), &mut done)
            .map_err(|e| file_err(path, e))?;
        if !text.ends_with('\n') {
            return Err(file_err(path, "its last line is cut short".into()));
        }
        if !closed {
            let owned = plan.owned.iter().filter(|&&o| o).count();
            let recorded = done.iter().flatten().count();
            return Err(file_err(
                path,
                format!("shard {shard} is incomplete: {recorded} of its {owned} sub-problems counted (rerun it on this file to finish)"),
            ));
        }
        let mut part = ClassCounts::default();
        for c in done.iter().flatten() {
            part.add(c);
        }
        let slot = &mut by_shard[shard.index - 1];
        if let Some((other, _)) = slot {
            return Err(MergeError::Duplicate {
                shard,
                a: other.clone(),
                b: path.clone(),
            });
        }
        sum.add(&part);
        *slot = Some((
            path.clone(),
            ShardSummary {
                path: path.clone(),
                shard,
                sub_problems: done.iter().flatten().count(),
                total: 8 * part.of8 + 4 * part.of4 + 2 * part.of2,
            },
        ));
    }
    let missing: Vec<usize> = (1..=of).filter(|i| by_shard[i - 1].is_none()).collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, of });
    }
    Ok(Merged {
        counts: Counts::from_classes(
            n,
            ClassSizes {
                of8: sum.of8,
                of4: sum.of4,
                of2: sum.of2,
                of1: 0,
            },
        ),
        shards: by_shard.into_iter().flatten().map(|(_, s)| s).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse() {
        assert_eq!(parse_shard(" 3/8 "), Ok(Shard { index: 3, of: 8 }));
        assert!(parse_shard("3").unwrap_err().contains("is not a shard I/K"));
        assert!(parse_shard("0/8").unwrap_err().contains("count from 1"));
        assert!(parse_shard("9/8").unwrap_err().contains("1 to 8"));
        assert!(parse_shard("1/0").unwrap_err().contains("number of shards"));
        assert!(parse_shard("a/8").unwrap_err().contains("whole number"));
    }

    #[test]
    fn shard_parses_and_refuses() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, of: 8 }));
        for bad in ["0/8", "9/8", "3", "3/0", "a/8", "3/b", "-1/8", "1/1000001"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn assignment_covers_every_sub_problem_once_and_balances() {
        for n in [8, 12, 14] {
            let subs = constellation::constellations(n);
            for of in [1, 2, 3, 8] {
                let a = assignment(n, of);
                assert_eq!(a.len(), subs.len());
                assert!(a.iter().all(|&s| s < of));
                // The plans partition the sub-problems.
                let plans: Vec<ShardPlan> = (1..=of)
                    .map(|index| plan(n, &subs, Shard { index, of }))
                    .collect();
                for i in 0..subs.len() {
                    assert_eq!(plans.iter().filter(|p| p.owned[i]).count(), 1);
                }
                // Greedy dealing: no shard's estimate exceeds another's by more than the
                // largest single cost.
                let mut load = vec![0u128; of];
                for (i, &s) in a.iter().enumerate() {
                    load[s] += constellation::estimated_cost(n, &subs[i]);
                }
                let max_cost = subs
                    .iter()
                    .map(|c| constellation::estimated_cost(n, c))
                    .max()
                    .unwrap();
                let (lo, hi) = (load.iter().min().unwrap(), load.iter().max().unwrap());
                assert!(hi - lo <= max_cost, "n = {n}, K = {of}: {load:?}");
            }
        }
    }
}
