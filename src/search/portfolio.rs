//! How a decision runs its walks ([`first_solution`]): on two threads or more, the portfolio of
//! a complete search and random restarts; on one thread, the plain walk within a budget of
//! nodes, then taking turns with the portfolio's complete search; the root of the instance's
//! tree, the restarts' budgets (the Luby sequence), and the placement of the solution found.

use super::geometry::Geo;
use super::node::{Node, Queen, Reasoning};
use super::walker::{Baton, First, Walker};
use super::watch::{Halt, Watch};
use crate::board::{MaskedBoard, Placement, Symmetry};

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
/// ([`super::Decision::probe`]).
#[doc(hidden)]
pub const PORTFOLIO_PROBE_LEVELS: usize = 10;

/// The nodes the one-thread search walks with the plain branching before it takes turns with
/// the portfolio's complete search ([`first_solution`]): above the largest tree of the published
/// n = 21 instances (about 2 million nodes), 2 to 3 s.
pub(super) const ONE_THREAD_BUDGET: u64 = 4_000_000;

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
/// ([`super::Decision::probe`]), the restarts do not. The complete search decides every instance,
/// so the answer does not depend on which finishes first; only the solution found may.
///
/// On one thread the search is the plain complete one within `one_thread_budget` nodes (taking
/// turns with a second search from the start was measured at twice the CPU time on the
/// published n = 21 instances, docs/benchmarks.md, whose trees stay under that budget); past
/// that it starts again and takes turns with the complete search of the portfolio, probing
/// included (a second thread, but only one of the two runs at a time), until one ends: the
/// time stays within about twice that of the faster of the two, whichever it is. Without
/// `portfolio`, or with `probe` set, it is the one plain walk to the end.
pub(super) fn first_solution(
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
) -> (Option<Vec<Queen>>, bool) {
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
pub(super) fn placement(n: usize, path: &[Queen]) -> Placement {
    let mut cols = vec![0u32; n];
    for &(r, c) in path {
        cols[usize::from(r)] = u32::from(c);
    }
    Placement::new(cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
