//! The decision engine for instances, behind `solve --engine search`: one solution of a
//! [`MaskedBoard`], or the proof by exhaustive search that there is none, without a SAT solver.
//!
//! It runs a backtracking over the open lines of the board with propagation at every node, the
//! search core that the exact counter of instances (`count::masked`) runs too, with the
//! reasoning a decision can afford at every node (see the module `node`): forced queens in rows
//! and columns with a single free cell, the free diagonals counted against the queens still to
//! place, diagonals that must hold a queen branched on like rows, bounds on the sums of the
//! diagonal indices and on the sums of their squares taken from the middle of the board (the
//! second moment: the queens' `x^2 + y^2` about the centre is fixed by the open rows and
//! columns). It stops at the first solution, which is checked against the instance before it is
//! returned. On one thread the search is this one complete walk. On two threads or more it is a
//! portfolio ([`Decision::threads`]): the complete walk, with the diagonals with the fewest
//! free cells also branched on (their cells, then none of them) and its first levels split over
//! all threads but one, races random restarts on the last thread (the plain branching with the
//! choices shuffled, within node budgets that follow the Luby sequence). The first answer stops
//! every thread.
//!
//! ```
//! use queens_sat::board::{Geometry, MaskedBoard};
//! use queens_sat::search::{decide, Answer};
//! let mut b = MaskedBoard::new(8, Geometry::Square).unwrap();
//! b.place(0, 0);
//! assert!(matches!(decide(&b), Answer::Sat(p) if p.col(0) == 0));
//! let mut b = MaskedBoard::new(3, Geometry::Square).unwrap();
//! assert_eq!(decide(&b), Answer::Unsat);
//! ```
//!
//! The parts of the engine, from the board up:
//!
//! * `geometry`: the board's lines as the search sees them, a bit per column or diagonal;
//! * `node`: a node of the tree, its propagation (settling) and the line it branches on;
//! * `bounds`: the bounds on what a node leaves open (sums and second moments of the
//!   diagonal indices, matchings between the kinds of lines);
//! * `watch`: what every thread of one search watches (nodes, time limit, stop, progress,
//!   halt);
//! * `walker`: the walk from a node, its visitors, the restarts' shuffles and budgets, and
//!   two walks taking turns on one core;
//! * `portfolio`: how a decision runs its walks (one walk, the portfolio, the turns).

mod bounds;
mod certificate;
mod geometry;
mod node;
mod portfolio;
mod walker;
mod watch;

pub use certificate::{
    certify, CertificateStats, Certified, CertifyError, CertifyLimits, CERTIFIED_PROBE_LEVELS,
};
#[doc(hidden)]
pub use portfolio::PORTFOLIO_PROBE_LEVELS;
// The core the exact counter of instances runs on.
pub(crate) use geometry::Geo;
pub(crate) use node::{Node, Reasoning};
pub(crate) use walker::{Counting, Walker};
pub(crate) use watch::Watch;

use crate::board::{check_placement_on, MaskedBoard, Placement};
use portfolio::{first_solution, ONE_THREAD_BUDGET};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use watch::Halt;

/// One step of the xorshift64 generator (Marsaglia 2003): the walkers' random order of the
/// choices, and the tests' random boards.
#[inline]
fn xorshift64(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// A stream of xorshift64 words from a non-zero seed.
#[cfg(test)]
fn random_words(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x = xorshift64(x);
        x
    }
}

/// The answer of a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A solution of the instance (checked: n non-attacking queens on allowed cells).
    Sat(Placement),
    /// The search is complete and found no solution.
    Unsat,
    /// The search stopped before an answer.
    Stopped(Stopped),
}

/// Why a decision stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    /// The time limit passed.
    #[error("the time limit of {:.3} s passed", .0.as_secs_f64())]
    TimeLimit(Duration),
    /// The stop flag or condition was raised (an interruption).
    #[error("interrupted")]
    Interrupted,
}

/// Why a decision could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DecideError {
    /// The worker threads could not be started.
    #[error("cannot start {threads} threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The system's reason.
        reason: String,
    },
    /// The search returned a placement the instance does not accept: a bug, reported rather
    /// than returned as an answer.
    #[error("the search returned a placement that is not a solution of the instance: {0}")]
    Unverified(String),
}

/// How far a search has got, as reported to a progress callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchProgress {
    /// Nodes visited so far (every thread).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// A finished decision: the answer and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The answer.
    pub answer: Answer,
    /// Nodes visited (every thread).
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

type ProgressFn<'a> = Box<dyn Fn(SearchProgress) + Send + Sync + 'a>;
type StopFn<'a> = Box<dyn Fn() -> bool + Send + Sync + 'a>;

/// A configurable decision: threads, time limit, stop flag, progress reports.
///
/// ```
/// use queens_sat::board::{Geometry, MaskedBoard};
/// use queens_sat::search::{Answer, Decision};
/// use std::time::Duration;
/// let b = MaskedBoard::new(30, Geometry::Square).unwrap();
/// let done = Decision::new(&b)
///     .threads(2)
///     .time_limit(Duration::from_secs(60))
///     .run()
///     .unwrap();
/// assert!(matches!(done.answer, Answer::Sat(_)));
/// ```
pub struct Decision<'a> {
    board: &'a MaskedBoard,
    threads: Option<usize>,
    time_limit: Option<Duration>,
    stop_flag: Option<&'a AtomicBool>,
    stop_when: Option<StopFn<'a>>,
    progress: Option<(ProgressFn<'a>, Duration)>,
    why: Reasoning,
    portfolio: bool,
    /// The probed levels when set ([`Decision::probe`]); by default those of the portfolio's
    /// complete search.
    probe: Option<usize>,
    /// The nodes of the one-thread search's plain walk ([`Decision::one_thread_budget`]).
    one_thread_budget: u64,
}

/// Decides the instance on all cores, without limits.
pub fn decide(board: &MaskedBoard) -> Answer {
    match Decision::new(board).run() {
        Ok(d) => d.answer,
        // No thread pool is built without `threads`, and a found placement is always checked
        // by the search's own invariants; a failure here is a bug.
        Err(e) => panic!("{e}"),
    }
}

impl<'a> Decision<'a> {
    /// A decision of `board` on all cores, without limits.
    pub fn new(board: &'a MaskedBoard) -> Self {
        Decision {
            board,
            threads: None,
            time_limit: None,
            stop_flag: None,
            stop_when: None,
            progress: None,
            why: Reasoning::FULL,
            portfolio: true,
            probe: None,
            one_thread_budget: ONE_THREAD_BUDGET,
        }
    }

    /// Uses `k` worker threads (at least 1); the answer's satisfiability does not depend on
    /// `k`, the solution found may. With two threads or more the search is a portfolio: a
    /// complete search that also branches on diagonals, which shortens the refutations,
    /// beside random restarts on one thread, which find the solutions a fixed order misses.
    /// On one thread the plain complete search runs first, and past 4 million nodes it takes
    /// turns with the portfolio's complete search (the module `search` has the details).
    pub fn threads(mut self, k: usize) -> Self {
        self.threads = Some(k.max(1));
        self
    }

    /// Stops with [`Stopped::TimeLimit`] after `limit`.
    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }

    /// Stops with [`Stopped::Interrupted`] once `flag` is set (looked at every thousand
    /// nodes or so, well under a millisecond).
    pub fn stop_flag(mut self, flag: &'a AtomicBool) -> Self {
        self.stop_flag = Some(flag);
        self
    }

    /// Stops with [`Stopped::Interrupted`] once `f` returns `true` (asked as often as the
    /// stop flag).
    pub fn stop_when(mut self, f: impl Fn() -> bool + Send + Sync + 'a) -> Self {
        self.stop_when = Some(Box::new(f));
        self
    }

    /// Calls `f` with the nodes visited so far, about every `every` (from any worker thread).
    pub fn on_progress(
        mut self,
        every: Duration,
        f: impl Fn(SearchProgress) + Send + Sync + 'a,
    ) -> Self {
        self.progress = Some((Box::new(f), every));
        self
    }

    /// Uses only some of the reasoning (for measurements and tests).
    #[doc(hidden)]
    pub fn reasoning(mut self, diagonals: bool, sums: bool) -> Self {
        self.why = Reasoning {
            diagonals,
            sums,
            ..self.why
        };
        self
    }

    /// Turns the matchings between the kinds of lines on or off (off by default; for
    /// measurements and tests).
    #[doc(hidden)]
    pub fn matching(mut self, on: bool) -> Self {
        self.why.matching = on;
        self
    }

    /// Turns the bound on the second moments of the diagonal indices on or off (on by
    /// default; for measurements and tests).
    #[doc(hidden)]
    pub fn moments(mut self, on: bool) -> Self {
        self.why.moments = on;
        self
    }

    /// Turns the branching on diagonals with few free cells on or off in the complete search
    /// without the portfolio (off by default there; the portfolio's complete search always
    /// branches on them; for measurements and tests).
    #[doc(hidden)]
    pub fn branch_diagonals(mut self, on: bool) -> Self {
        self.why.branch_diagonals = on;
        self
    }

    /// Sets how many branching levels of the complete search probe their free cells (0 for
    /// none; for measurements and tests): at those nodes every free cell whose queen fails at
    /// once is taken away before the branching. By default the portfolio's complete search
    /// probes its first 10 levels and the one-thread search's plain walk none (past its
    /// budget, [`Decision::one_thread_budget`], it takes turns with the complete search that
    /// probes; at n = 21, where the trees are small, probing cost 4x the time:
    /// docs/experiments.md); the restarts never probe. Set, it makes the one-thread search one
    /// walk with these levels.
    #[doc(hidden)]
    pub fn probe(mut self, levels: usize) -> Self {
        self.probe = Some(levels);
        self
    }

    /// Sets how many nodes the one-thread search walks with the plain branching before it
    /// takes turns with the portfolio's complete search (by default 4 million; for
    /// measurements and tests; see [`Decision::threads`]).
    #[doc(hidden)]
    pub fn one_thread_budget(mut self, nodes: u64) -> Self {
        self.one_thread_budget = nodes;
        self
    }

    /// Turns the portfolio off or on (on by default; for measurements and tests; it runs only
    /// on two threads or more, see [`Decision::threads`]): off, one complete search with the
    /// plain branching (rows, columns and the diagonals that must hold a queen), its first
    /// levels on all threads.
    #[doc(hidden)]
    pub fn portfolio(mut self, on: bool) -> Self {
        self.portfolio = on;
        self
    }

    /// Runs the search.
    pub fn run(self) -> Result<Decided, DecideError> {
        let Decision {
            board,
            threads,
            time_limit,
            stop_flag,
            stop_when,
            progress,
            why,
            portfolio,
            probe,
            one_thread_budget,
        } = self;
        let mut watch = Watch::new();
        if let Some(l) = time_limit {
            watch.time_limit(l);
        }
        if let Some(f) = stop_flag {
            watch.stop_flag(f);
        }
        if let Some(f) = stop_when {
            watch.stop_when(f);
        }
        if let Some((f, every)) = progress {
            watch.progress(
                Box::new(move |nodes, elapsed| f(SearchProgress { nodes, elapsed })),
                every,
            );
        }
        let work = || first_solution(board, why, &watch, portfolio, probe, one_thread_budget);
        let found = match threads {
            None => work(),
            Some(k) => rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .map_err(|e| DecideError::Threads {
                    threads: k,
                    reason: e.to_string(),
                })?
                .install(work),
        };
        let answer = match found {
            Some(p) => {
                verify(board, &p).map_err(DecideError::Unverified)?;
                Answer::Sat(p)
            }
            None => match watch.halted() {
                Some(Halt::TimeLimit) => {
                    Answer::Stopped(Stopped::TimeLimit(time_limit.unwrap_or_default()))
                }
                Some(Halt::Interrupted) => Answer::Stopped(Stopped::Interrupted),
                Some(Halt::Done) | None => Answer::Unsat,
            },
        };
        Ok(Decided {
            answer,
            nodes: watch.nodes(),
            elapsed: watch.elapsed(),
        })
    }
}

/// Checks that `p` is a solution of the board: non-attacking on its geometry, every queen on
/// an allowed cell.
fn verify(board: &MaskedBoard, p: &Placement) -> Result<(), String> {
    if p.n() != board.n() {
        return Err(format!("{} queens on a board of {}", p.n(), board.n()));
    }
    check_placement_on(p, board.geometry()).map_err(|e| e.to_string())?;
    match (0..p.n()).find(|&r| !board.is_allowed(r, p.col(r))) {
        Some(r) => Err(format!(
            "the queen of row {} stands on a forbidden cell, column {}",
            r + 1,
            p.col(r) + 1
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn small_boards() {
        for n in 1..=12 {
            let b = MaskedBoard::new(n, Geometry::Square).unwrap();
            let a = decide(&b);
            assert_eq!(matches!(a, Answer::Sat(_)), !(n == 2 || n == 3), "n = {n}");
        }
    }
}
