//! The backtracking counter: the number of solutions of n-queens (OEIS A000170), the number of
//! fundamental solutions (classes under the 8 symmetries of the square, OEIS A002562) and how
//! the classes split by size, computed independently of any SAT solver.
//!
//! The search is split into independent sub-problems, the *constellations*: the queens of the
//! four border lines, one per class of the board's symmetries (see [`constellation`]). Each
//! sub-problem is a bitboard backtracking over the interior rows. Sub-problems run on all cores
//! (rayon) and can be recorded in a checkpoint file so that an interrupted run resumes where it
//! stopped. The previous kernel (first rows as sub-problems, the top queen restricted by the
//! symmetries, see [`split`]) remains as [`count_by_prefix_split`], an independent code path.
//!
//! ```
//! let c = queens_sat::count::count(8).unwrap();
//! assert_eq!((c.total, c.fundamental), (92, 12));
//! assert_eq!((c.classes.of8, c.classes.of4, c.classes.of2), (11, 1, 0));
//! ```
//!
//! [`crate::board::solutions`] enumerates the solutions themselves by a separate, plain
//! backtracking.
//! [`masked`] counts and lists the solutions of instances (blocked cells, pre-placed queens,
//! square or toroidal board) up to n = 64.

mod bitboard;
mod checkpoint;
pub mod constellation;
mod interior;
mod kernel;
pub mod masked;
pub mod shard;
pub mod split;
#[cfg(target_arch = "x86_64")]
mod wide;

pub use kernel::{check_variable as check_kernel_variable, KERNEL_VARIABLE};
pub use masked::{cell_counts, count_masked, for_each_solution_masked, solutions_masked};
pub use shard::{merge, parse_shard, MergeError, Merged, Shard};
pub use split::ClassCounts;

use rayon::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The largest board the counter accepts: one bit per column in a 32-bit word.
pub const MAX_N: usize = bitboard::WORD_BITS;

/// The result of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Board size.
    pub n: usize,
    /// Number of solutions (OEIS A000170).
    pub total: u64,
    /// Number of fundamental solutions: classes under rotations and reflections (OEIS A002562).
    pub fundamental: u64,
    /// The classes by number of members.
    pub classes: ClassSizes,
}

/// Symmetry classes by size. `total = 8 of8 + 4 of4 + 2 of2 + of1`,
/// `fundamental = of8 + of4 + of2 + of1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ClassSizes {
    /// Classes of 8 solutions (no symmetry).
    #[serde(rename = "8")]
    pub of8: u64,
    /// Classes of 4 solutions (symmetric under the half turn only).
    #[serde(rename = "4")]
    pub of4: u64,
    /// Classes of 2 solutions (symmetric under the quarter turn).
    #[serde(rename = "2")]
    pub of2: u64,
    /// Classes of 1 solution (only the 1 x 1 board).
    #[serde(rename = "1")]
    pub of1: u64,
}

impl Counts {
    fn from_classes(n: usize, c: ClassSizes) -> Counts {
        Counts {
            n,
            total: 8 * c.of8 + 4 * c.of4 + 2 * c.of2 + c.of1,
            fundamental: c.of8 + c.of4 + c.of2 + c.of1,
            classes: c,
        }
    }
}

/// Why a count could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    /// n = 0.
    #[error("n must be at least 1")]
    Zero,
    /// n beyond the bitboard word.
    #[error("n = {0} is too large: the counter keeps one bit per column in a 32-bit word, so n can be at most {MAX_N}")]
    TooLarge(usize),
    /// A checkpoint file that cannot be used.
    #[error("checkpoint {}: {reason}", path.display())]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A shard of a board too small to be split into sub-problems (n < 4): such a board is
    /// counted whole.
    #[error("n = {0} is not split into sub-problems; count it without {shard}", shard = crate::vocabulary::Param::Shard)]
    Unsplit(usize),
    /// More shards than the board has sub-problems.
    #[error("n = {n} has {sub_problems} sub-problems, fewer than the {shards} shards asked for")]
    TooManyShards {
        /// Board size.
        n: usize,
        /// Its sub-problems.
        sub_problems: usize,
        /// The shards asked for.
        shards: usize,
    },
    /// The worker threads could not be started.
    #[error("cannot start {threads} threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The system's reason.
        reason: String,
    },
}

/// How far a run has got, as reported to a progress callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Sub-problems finished (including those read from a checkpoint).
    pub done: usize,
    /// Sub-problems in all.
    pub total: usize,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every sub-problem was solved.
    Complete(Counts),
    /// The run stopped early ([`Counter::stop_after`]); the checkpoint, if any, holds what was
    /// finished.
    Stopped(Progress),
}

type ProgressFn<'a> = Box<dyn Fn(Progress) + Send + Sync + 'a>;
type StopFn<'a> = Box<dyn Fn() -> bool + Send + Sync + 'a>;

/// A configurable count: threads, checkpoint file, progress reports, early stop.
///
/// ```
/// use queens_sat::count::{Counter, Outcome};
/// let out = Counter::new(10).unwrap().threads(2).run().unwrap();
/// match out {
///     Outcome::Complete(c) => assert_eq!((c.total, c.fundamental), (724, 92)),
///     Outcome::Stopped(_) => unreachable!(),
/// }
/// ```
pub struct Counter<'a> {
    n: usize,
    threads: Option<usize>,
    checkpoint: Option<PathBuf>,
    stop_after: Option<usize>,
    stop_when: Option<StopFn<'a>>,
    progress: Option<ProgressFn<'a>>,
    shard: Option<Shard>,
}

/// Checks that the counter can handle board size `n`.
pub fn check_n(n: usize) -> Result<(), CountError> {
    match n {
        0 => Err(CountError::Zero),
        n if n > MAX_N => Err(CountError::TooLarge(n)),
        _ => Ok(()),
    }
}

/// Counts the solutions of n-queens on all cores: total, fundamental and class sizes.
pub fn count(n: usize) -> Result<Counts, CountError> {
    match Counter::new(n)?.run()? {
        Outcome::Complete(c) => Ok(c),
        // No stop was asked for, so every sub-problem ran.
        Outcome::Stopped(p) => unreachable!("count stopped at {p:?} without a stop request"),
    }
}

/// Counts the solutions of n-queens on one thread with the previous kernel (sub-problems are
/// the first rows, the top queen restricted by the symmetries, see [`split`]): the same counts
/// as [`count`] by another code path.
pub fn count_by_prefix_split(n: usize) -> Result<Counts, CountError> {
    check_n(n)?;
    if n < 4 {
        return count(n);
    }
    let mut c = ClassCounts::default();
    for sp in split::sub_problems(n) {
        c.add(&split::solve(n, &sp));
    }
    Ok(Counts::from_classes(
        n,
        ClassSizes {
            of8: c.of8,
            of4: c.of4,
            of2: c.of2,
            of1: 0,
        },
    ))
}

/// Reads `text` as the content of a checkpoint file of a count of board size `n` (1 ..=
/// [`MAX_N`]) and returns the counts it holds by sub-problem index, or why it is refused; the
/// checks of [`Counter::checkpoint`] without a file. For tests and fuzzing, not a stable
/// interface.
#[doc(hidden)]
pub fn checkpoint_check(text: &str, n: usize) -> Result<Vec<Option<ClassCounts>>, String> {
    check_n(n).map_err(|e| e.to_string())?;
    checkpoint::read_text(text, n)
}

/// The text of a checkpoint file of a count of board size `n` (1 ..= [`MAX_N`]) holding the
/// counts `done` by sub-problem index, as a run writes it. For tests and fuzzing, not a stable
/// interface.
#[doc(hidden)]
pub fn checkpoint_text(n: usize, done: &[Option<ClassCounts>]) -> Result<String, CountError> {
    check_n(n)?;
    Ok(checkpoint::write_text(n, done))
}

/// The number of independent sub-problems the search of board size `n` is split into.
pub fn sub_problem_count(n: usize) -> Result<usize, CountError> {
    check_n(n)?;
    Ok(if n < 4 {
        1
    } else {
        constellation::constellations(n).len()
    })
}

impl<'a> Counter<'a> {
    /// A count of board size `n` (1 ..= [`MAX_N`]) on all cores, without checkpoint.
    pub fn new(n: usize) -> Result<Self, CountError> {
        check_n(n)?;
        Ok(Counter {
            n,
            threads: None,
            checkpoint: None,
            stop_after: None,
            stop_when: None,
            progress: None,
            shard: None,
        })
    }

    /// Counts only the sub-problems of `shard` ([`shard::assignment`]); the checkpoint, if
    /// any, is then a shard file, closed with a `done` line when the shard is complete, and
    /// the counts returned are the shard's. [`merge`] joins the shard files.
    pub fn shard(mut self, shard: Shard) -> Self {
        self.shard = Some(shard);
        self
    }

    /// Uses `k` worker threads (at least 1). The counts do not depend on `k`.
    pub fn threads(mut self, k: usize) -> Self {
        self.threads = Some(k.max(1));
        self
    }

    /// Records each finished sub-problem in `path` and, if the file exists, resumes from it
    /// (after checking it belongs to this count).
    pub fn checkpoint(mut self, path: impl AsRef<Path>) -> Self {
        self.checkpoint = Some(path.as_ref().to_path_buf());
        self
    }

    /// Stops after `k` sub-problems have been solved in this run (as an interruption would);
    /// the run then returns [`Outcome::Stopped`].
    pub fn stop_after(mut self, k: usize) -> Self {
        self.stop_after = Some(k);
        self
    }

    /// Stops, as [`Counter::stop_after`] does, once `f` returns `true` (asked before each
    /// sub-problem, from any worker thread): how a front end that stays alive after Ctrl-C
    /// (an interactive interpreter) stops a count.
    pub fn stop_when(mut self, f: impl Fn() -> bool + Send + Sync + 'a) -> Self {
        self.stop_when = Some(Box::new(f));
        self
    }

    /// Calls `f` after each finished sub-problem (from any worker thread).
    pub fn on_progress(mut self, f: impl Fn(Progress) + Send + Sync + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Runs the count.
    pub fn run(self) -> Result<Outcome, CountError> {
        let n = self.n;
        // A checkpoint that cannot be used is refused even when no search is needed.
        if let Some(p) = &self.checkpoint {
            checkpoint::check_path(p)?;
        }
        if let Some(s) = self.shard {
            shard::check_shard(n, s)?;
        }
        if n < 4 {
            // 1 x 1: one solution fixed by every symmetry; 2 x 2 and 3 x 3: none.
            let mut c = ClassSizes::default();
            for s in crate::board::solutions(n) {
                match s.class_size() {
                    Some(8) => c.of8 += 1,
                    Some(4) => c.of4 += 1,
                    Some(2) => c.of2 += 1,
                    _ => c.of1 += 1,
                }
            }
            // Each class was seen once per member.
            c.of8 /= 8;
            c.of4 /= 4;
            c.of2 /= 2;
            return Ok(Outcome::Complete(Counts::from_classes(n, c)));
        }
        let subs = constellation::constellations(n);
        let plan = self.shard.map(|s| shard::plan(n, &subs, s));
        let owned = |i: usize| plan.as_ref().is_none_or(|p| p.owned[i]);
        let (ckpt, done, closed) = match &self.checkpoint {
            Some(p) => {
                let (c, d, closed) = checkpoint::Checkpoint::open(p, n, &subs, plan.as_ref())?;
                (Some(c), d, closed)
            }
            None => (None, vec![None; subs.len()], false),
        };
        let total = (0..subs.len()).filter(|&i| owned(i)).count();
        let todo: Vec<usize> = (0..subs.len())
            .filter(|&i| owned(i) && done[i].is_none())
            .collect();
        let finished = AtomicUsize::new(total - todo.len());
        let started = AtomicUsize::new(0);
        let failure: Mutex<Option<CountError>> = Mutex::new(None);
        if let Some(f) = &self.progress {
            f(Progress {
                done: finished.load(Ordering::Relaxed),
                total,
            });
        }
        let work = || -> Vec<Option<(usize, ClassCounts)>> {
            todo.par_iter()
                .with_max_len(1)
                .map(|&i| {
                    if let Some(k) = self.stop_after {
                        if started.fetch_add(1, Ordering::Relaxed) >= k {
                            return None;
                        }
                    }
                    if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                        return None;
                    }
                    if self.stop_when.as_ref().is_some_and(|stop| stop()) {
                        return None;
                    }
                    let c = constellation::solve(n, &subs[i]);
                    if let Some(cp) = &ckpt {
                        if let Err(e) = cp.record(i, &c) {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            return None;
                        }
                    }
                    let d = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some(f) = &self.progress {
                        f(Progress { done: d, total });
                    }
                    Some((i, c))
                })
                .collect()
        };
        let results = match self.threads {
            None => work(),
            Some(k) => rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .map_err(|e| CountError::Threads {
                    threads: k,
                    reason: e.to_string(),
                })?
                .install(work),
        };
        if let Some(e) = failure.into_inner().unwrap_or(None) {
            return Err(e);
        }
        let mut sum = ClassCounts::default();
        let mut solved = 0;
        for c in done.iter().flatten() {
            sum.add(c);
            solved += 1;
        }
        for (_, c) in results.iter().flatten() {
            sum.add(c);
            solved += 1;
        }
        if solved < total {
            return Ok(Outcome::Stopped(Progress {
                done: solved,
                total,
            }));
        }
        if let (Some(cp), Some(_), false) = (&ckpt, &plan, closed) {
            cp.close_shard(total, &sum)?;
        }
        Ok(Outcome::Complete(Counts::from_classes(
            n,
            ClassSizes {
                of8: sum.of8,
                of4: sum.of4,
                of2: sum.of2,
                of1: 0,
            },
        )))
    }
}
