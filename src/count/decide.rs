//! The decision engine for instances: one solution of a [`MaskedBoard`], or the proof by
//! exhaustive search that there is none, without a SAT solver.
//!
//! It runs the search core of the exact counter ([`super::count_masked`]) with the
//! reasoning a decision can afford at every node (see the module `core`): forced queens in
//! rows and columns with a single free cell, the free diagonals counted against the queens
//! still to place, diagonals that must hold a queen branched on like rows, bounds on the
//! sums of the diagonal indices and on the sums of their squares taken from the middle of the
//! board (the second moment: the queens' `x^2 + y^2` about the centre is fixed by the open rows
//! and columns). It stops at the first solution, which is checked against the
//! instance before it is returned. On one thread the search is this one complete walk. On two
//! threads or more it is a portfolio ([`Decision::threads`]): the complete walk, with the
//! diagonals with the fewest free cells also branched on (their cells, then none of them) and
//! its first levels split over all threads but one, races random restarts on the last thread
//! (the plain branching with the choices shuffled, within node budgets that follow the Luby
//! sequence). The first answer stops every thread.
//!
//! ```
//! use queens_sat::board::Geometry;
//! use queens_sat::count::{decide, Answer, MaskedBoard};
//! let mut b = MaskedBoard::new(8, Geometry::Square).unwrap();
//! b.place(0, 0);
//! assert!(matches!(decide(&b), Answer::Sat(p) if p.col(0) == 0));
//! let mut b = MaskedBoard::new(3, Geometry::Square).unwrap();
//! assert_eq!(decide(&b), Answer::Unsat);
//! ```

use super::core::{self, Baton, First, Geo, Halt, Node, Reasoning, Walker, Watch};
use super::masked::MaskedBoard;
use crate::board::{check_placement_on, Placement, Symmetry};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
/// use queens_sat::board::Geometry;
/// use queens_sat::count::{Answer, Decision, MaskedBoard};
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
    /// turns with the portfolio's complete search (the module `decide` has the details).
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
        let work = || search(board, why, &watch, portfolio, probe, one_thread_budget);
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

/// The root node of the board; when the instance is invariant under the left-right mirror,
/// the queen of row 0 is kept in the left half or the middle column (the mirror image of a
/// solution is a solution).
fn root(board: &MaskedBoard, g: Geo) -> Node {
    let n = board.n();
    let allowed: Vec<u64> = (0..n).map(|r| board.allowed(r)).collect();
    let mut node = Node::root(g, &allowed);
    if n > 1 && board.invariant_under(Symmetry::Mirror) {
        let half = n.div_ceil(2);
        node.restrict_row(0, (1u64 << half) - 1);
    }
    node
}

/// The unit of the restarts' budgets: run `i` may visit `luby(i)` times as many nodes.
const RESTART_UNIT: u64 = 16_384;

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ... (`i` from 1): the
/// restart budgets within a constant factor of the best fixed budget, whatever the
/// distribution of the run lengths (Luby, Sinclair and Zuckerman 1993).
fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// The branching levels whose free cells the portfolio's complete search probes by default
/// ([`Decision::probe`]).
#[doc(hidden)]
pub const PORTFOLIO_PROBE_LEVELS: usize = 10;

/// The nodes the one-thread search walks with the plain branching before it takes turns with
/// the portfolio's complete search ([`search`]): above the largest tree of the published
/// n = 21 instances (about 2 million nodes), 2 to 3 s.
const ONE_THREAD_BUDGET: u64 = 4_000_000;

/// The nodes of a turn when the one-thread search's two walks take turns (about a second).
const ONE_THREAD_TURN: u64 = 1 << 20;

/// The first solution the search finds, or `None` (no solution, or halted).
///
/// With `portfolio` and two threads or more, two searches with complementary strengths run
/// side by side, the first answer ending both: a *complete* one on all threads but one, which
/// also branches on the diagonals with the fewest free cells (their cells, then none of them)
/// and so shrinks the trees of unsatisfiable instances, and *restarts* on the last thread:
/// runs of the plain branching with the choices in a random order, each within a budget of
/// nodes that follows the Luby sequence, which find solutions where a fixed order goes
/// astray; the complete search probes the free cells of its first levels
/// ([`Decision::probe`]), the restarts do not. The complete search decides every instance,
/// so the answer does not depend on which finishes first; only the solution found may.
///
/// On one thread the search is the plain complete one within `one_thread_budget` nodes (taking
/// turns with a second search from the start was measured at twice the CPU time on the
/// published n = 21 instances, docs/benchmarks.md, whose trees stay under that budget); past
/// that it starts again and takes turns with the complete search of the portfolio, probing
/// included (a second thread, but only one of the two runs at a time), until one ends: the
/// time stays within about twice that of the faster of the two, whichever it is. Without
/// `portfolio`, or with `probe` set, it is the one plain walk to the end.
fn search(
    board: &MaskedBoard,
    why: Reasoning,
    watch: &Watch<'_>,
    portfolio: bool,
    probe: Option<usize>,
    one_thread_budget: u64,
) -> Option<Placement> {
    let g = Geo::new(board.n(), board.geometry());
    let found = if portfolio && rayon::current_num_threads() > 1 {
        let (a, b) = rayon::join(
            || {
                let why = portfolio_complete(why, probe);
                walk(board, g, watch, Walker::new(g, why, watch)).0
            },
            || {
                // Probing slows the restarts' short runs (up to 1.4x the CPU time with 8
                // levels and up to 11x with 12 on satisfiable n = 30 instances,
                // docs/experiments.md): they go without.
                let why = Reasoning { probe: 0, ..why };
                for i in 1.. {
                    let w = Walker::new(g, why, watch)
                        .shuffled(i)
                        .budget(RESTART_UNIT.saturating_mul(luby(i)));
                    let (path, done) = walk(board, g, watch, w);
                    if done {
                        return path;
                    }
                }
                None
            },
        );
        a.or(b)
    } else if portfolio && probe.is_none() && !why.branch_diagonals {
        // One thread: the plain walk first, within a budget that the published instances up
        // to n = 21 stay under; past it, the plain walk (from its root again) and the
        // portfolio's complete search (probing included, which shrinks the large trees of
        // unsatisfiable instances many times but finds solutions late) take turns of
        // ONE_THREAD_TURN nodes on one core until one of them ends (docs/experiments.md).
        let plain = Reasoning { probe: 0, ..why };
        let complete = portfolio_complete(why, None);
        let w = Walker::new(g, plain, watch).budget(one_thread_budget);
        match walk(board, g, watch, w) {
            (path, true) => path,
            (_, false) => {
                let baton = Baton::new(ONE_THREAD_TURN);
                std::thread::scope(|s| {
                    let other = std::thread::Builder::new().spawn_scoped(s, || {
                        let w = Walker::new(g, complete, watch).taking_turns(&baton, 1);
                        walk(board, g, watch, w).0
                    });
                    let Ok(other) = other else {
                        // No second thread: the complete search alone decides too.
                        return walk(board, g, watch, Walker::new(g, complete, watch)).0;
                    };
                    let w = Walker::new(g, plain, watch).taking_turns(&baton, 0);
                    let mine = walk(board, g, watch, w).0;
                    match other.join() {
                        Ok(theirs) => mine.or(theirs),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                })
            }
        }
    } else {
        let why = Reasoning {
            probe: probe.unwrap_or(0),
            ..why
        };
        walk(board, g, watch, Walker::new(g, why, watch)).0
    };
    found.map(|path| placement(board.n(), &path))
}

/// The reasoning of the portfolio's complete search: `why` with the diagonal branching, and
/// the free cells of the first `probe` levels probed (by default [`PORTFOLIO_PROBE_LEVELS`]).
fn portfolio_complete(why: Reasoning, probe: Option<usize>) -> Reasoning {
    Reasoning {
        branch_diagonals: true,
        probe: probe.unwrap_or(PORTFOLIO_PROBE_LEVELS),
        ..why
    }
}

/// One run of `w` from the root of the board: the solution found, if any, and whether the
/// search is over. A solution, or a tree walked to its end (no solution: the other searches
/// are halted), or a halt from outside, end the search; a run cut at its budget (a restart's)
/// does not.
fn walk(
    board: &MaskedBoard,
    g: Geo,
    watch: &Watch<'_>,
    mut w: Walker<'_, '_>,
) -> (Option<Vec<core::Queen>>, bool) {
    let mut first = First::default();
    let flow = w.run(&mut first, root(board, g));
    if first.0.is_some() {
        return (first.0, true);
    }
    if w.cut() && watch.halted().is_none() {
        return (None, false);
    }
    if flow.is_continue() {
        // Walked to the end without a solution.
        watch.halt(Halt::Done);
    }
    (None, true)
}

/// The placement of the queens of a solution's path.
fn placement(n: usize, path: &[core::Queen]) -> Placement {
    let mut cols = vec![0u32; n];
    for &(r, c) in path {
        cols[usize::from(r)] = u32::from(c);
    }
    Placement::new(cols)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn small_boards() {
        for n in 1..=12 {
            let b = MaskedBoard::new(n, Geometry::Square).unwrap();
            let a = decide(&b);
            assert_eq!(matches!(a, Answer::Sat(_)), !(n == 2 || n == 3), "n = {n}");
        }
    }
}
