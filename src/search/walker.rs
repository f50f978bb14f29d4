//! The walk: depth first from a node, settling each node ([`Node::settle`]) and branching on
//! the line it names, reporting each solution to a [`Visitor`].
//!
//! A [`Visitor`] sees each solution (the queens placed along the path) and may stop the walk:
//! the counter counts them ([`Counting`]), the decision keeps the first ([`First`]). The first
//! levels of the tree run in parallel (rayon), every thread watching one [`Watch`].
//! A walker may shuffle the order of the children ([`Walker::shuffled`]) and give up after a
//! budget of nodes ([`Walker::budget`]): the runs of the decision's random restarts. Two
//! walkers on two threads may take turns on one core ([`Walker::taking_turns`], a [`Baton`]):
//! the one-thread decision's plain walk and complete search.

use super::geometry::{Geo, MAX};
use super::node::{Line, Node, Queen, Reasoning, Settled};
use super::watch::{Halt, Watch, TICK};
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};

/// What a walk reports to: each solution, as the queens placed along the path (in the order
/// they were placed). The parallel levels give each branch a [`Visitor::fork`] and
/// [`Visitor::join`] the forks back.
pub(crate) trait Visitor: Send + Sync + Sized {
    /// A solution; `Break` stops the walk.
    fn solution(&mut self, path: &[Queen]) -> ControlFlow<()>;
    /// A fresh visitor for a branch walked on another thread.
    fn fork(&self) -> Self;
    /// Takes in what a fork found.
    fn join(&mut self, other: Self);
}

/// Counts the solutions.
#[derive(Default)]
pub(crate) struct Counting(pub u64);

impl Visitor for Counting {
    fn solution(&mut self, _: &[Queen]) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }

    fn fork(&self) -> Self {
        Counting(0)
    }

    fn join(&mut self, other: Self) {
        self.0 += other.0;
    }
}

/// Keeps the first solution and stops.
#[derive(Default)]
pub(crate) struct First(pub Option<Vec<Queen>>);

impl Visitor for First {
    fn solution(&mut self, path: &[Queen]) -> ControlFlow<()> {
        self.0 = Some(path.to_vec());
        ControlFlow::Break(())
    }

    fn fork(&self) -> Self {
        First(None)
    }

    fn join(&mut self, other: Self) {
        if self.0.is_none() {
            self.0 = other.0;
        }
    }
}

/// Two walkers taking turns on one core ([`Walker::taking_turns`]): each walks its slice of
/// nodes, hands over to the other and waits for its next turn, so that neither starts again
/// from its root. When one of them ends, the other runs on alone.
pub(crate) struct Baton {
    /// Whose turn it is (0 or 1), or [`Baton::FREE`] once one has ended.
    turn: Mutex<usize>,
    changed: Condvar,
    /// The nodes of a turn (a multiple of [`TICK`]).
    slice: u64,
    /// The turns handed over so far.
    passes: AtomicU64,
}

impl Baton {
    const FREE: usize = usize::MAX;

    /// Turns of `slice` nodes (rounded up to a multiple of the watch's tick), walker 0 first.
    pub fn new(slice: u64) -> Baton {
        Baton {
            turn: Mutex::new(0),
            changed: Condvar::new(),
            slice: slice.div_ceil(TICK).max(1) * TICK,
            passes: AtomicU64::new(0),
        }
    }

    /// Waits until it is the turn of walker `me`.
    fn wait(&self, me: usize) {
        let mut turn = self.turn.lock().unwrap_or_else(|e| e.into_inner());
        while *turn != me && *turn != Self::FREE {
            turn = self.changed.wait(turn).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Hands the turn of walker `me` to the other and waits for the next one.
    fn pass(&self, me: usize) {
        {
            let mut turn = self.turn.lock().unwrap_or_else(|e| e.into_inner());
            if *turn == me {
                *turn = 1 - me;
                self.passes.fetch_add(1, Ordering::Relaxed);
                self.changed.notify_all();
            }
        }
        self.wait(me);
    }

    /// One walker has ended: the other runs without turns.
    fn finish(&self) {
        *self.turn.lock().unwrap_or_else(|e| e.into_inner()) = Self::FREE;
        self.changed.notify_all();
    }
}

/// The branching levels whose children are walked in parallel, when the pool has more than
/// one thread: enough sub-trees to keep every thread busy to the end.
const PARALLEL_LEVELS: usize = 8;

/// A walk: depth first from a node, the first [`PARALLEL_LEVELS`] branching levels in
/// parallel, reporting solutions to the visitor.
pub(crate) struct Walker<'w, 'a> {
    g: Geo,
    why: Reasoning,
    watch: &'w Watch<'a>,
    nodes: u64,
    parallel: usize,
    /// The state of the random order of the choices (xorshift), 0 for the natural order.
    shuffle: u64,
    /// The nodes this walker may visit before it gives up (a restart's budget).
    budget: u64,
    /// Whether the walk gave up at its budget.
    cut: bool,
    /// The turns this walker takes with another, and its number (0 or 1).
    baton: Option<(&'w Baton, usize)>,
}

impl<'w, 'a> Walker<'w, 'a> {
    pub fn new(g: Geo, why: Reasoning, watch: &'w Watch<'a>) -> Self {
        let parallel = if rayon::current_num_threads() > 1 {
            PARALLEL_LEVELS
        } else {
            0
        };
        Walker {
            g,
            why,
            watch,
            nodes: 0,
            parallel,
            shuffle: 0,
            budget: u64::MAX,
            cut: false,
            baton: None,
        }
    }

    /// Takes the choices of every branching in a random order drawn from `seed` (on one
    /// thread: the first levels are not walked in parallel).
    pub fn shuffled(mut self, seed: u64) -> Self {
        // Any non-zero state; small seeds spread over the word.
        self.shuffle = seed.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        self.parallel = 0;
        self
    }

    /// Gives up after `budget` nodes ([`Walker::cut`]), on one thread.
    pub fn budget(mut self, budget: u64) -> Self {
        self.budget = budget;
        self.parallel = 0;
        self
    }

    /// Takes turns with another walker on `baton` as walker `me` (0 or 1), on one thread each:
    /// [`Walker::run`] waits for its first turn and ends the turns when it returns.
    pub fn taking_turns(mut self, baton: &'w Baton, me: usize) -> Self {
        self.baton = Some((baton, me));
        self.parallel = 0;
        self
    }

    /// Whether the last walk gave up at its budget (its answer is then not complete).
    pub fn cut(&self) -> bool {
        self.cut
    }

    /// The next random number of the shuffle (xorshift64).
    fn random(&mut self) -> u64 {
        self.shuffle = super::xorshift64(self.shuffle);
        self.shuffle
    }

    /// Walks the tree of `root` on the current rayon pool; `Break` when the visitor or the
    /// watch ended it.
    pub fn run<V: Visitor>(&mut self, visitor: &mut V, root: Node) -> ControlFlow<()> {
        let Some((baton, me)) = self.baton else {
            return self.walk_root(visitor, root);
        };
        /// Ends the turns when the walk returns or unwinds (a panic must not leave the other
        /// walker waiting for ever).
        struct Finish<'b>(&'b Baton);
        impl Drop for Finish<'_> {
            fn drop(&mut self) {
                self.0.finish();
            }
        }
        baton.wait(me);
        let _finish = Finish(baton);
        self.walk_root(visitor, root)
    }

    fn walk_root<V: Visitor>(&mut self, visitor: &mut V, mut root: Node) -> ControlFlow<()> {
        self.watch.check()?;
        let mut path = Vec::with_capacity(MAX);
        let flow = self.dfs(visitor, &mut root, &mut path, 0);
        self.flush();
        flow
    }

    /// Hands the nodes not yet counted to the watch.
    fn flush(&mut self) {
        let k = self.nodes % TICK;
        self.watch.add_nodes(k);
        self.nodes -= k;
    }

    fn dfs<V: Visitor>(
        &mut self,
        visitor: &mut V,
        node: &mut Node,
        path: &mut Vec<Queen>,
        depth: usize,
    ) -> ControlFlow<()> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(TICK) {
            self.watch.tick(TICK)?;
            if let Some((baton, me)) = self.baton {
                if self.nodes.is_multiple_of(baton.slice) {
                    baton.pass(me);
                    // The other walker may have ended the search meanwhile.
                    self.watch.check()?;
                }
            }
        }
        if self.nodes > self.budget {
            self.cut = true;
            return ControlFlow::Break(());
        }
        let base = path.len();
        let mut settled = node.settle(self.g, self.why, path);
        if depth < self.why.probe {
            while matches!(settled, Settled::Branch(_)) && node.probe(self.g, self.why) {
                settled = node.settle(self.g, self.why, path);
            }
        }
        let flow = match settled {
            Settled::Fail => ControlFlow::Continue(()),
            Settled::Solved => {
                let flow = visitor.solution(path);
                if flow.is_break() {
                    self.watch.halt(Halt::Done);
                }
                flow
            }
            Settled::Branch(line) if depth < self.parallel => {
                self.branch_parallel(visitor, node, line, path, depth)
            }
            Settled::Branch(line) => self.branch(visitor, node, line, path, depth),
        };
        path.truncate(base);
        flow
    }

    fn branch<V: Visitor>(
        &mut self,
        visitor: &mut V,
        node: &Node,
        line: Line,
        path: &mut Vec<Queen>,
        depth: usize,
    ) -> ControlFlow<()> {
        let g = self.g;
        let mut child = Node::blank();
        let mut cells = [(0u8, 0u8); MAX];
        let mut k = 0;
        node.choices(g, line, |i, c| {
            cells[k] = (i as u8, c as u8);
            k += 1;
        });
        if self.shuffle != 0 {
            for j in (1..k).rev() {
                let r = (self.random() % (j as u64 + 1)) as usize;
                cells.swap(j, r);
            }
        }
        for &(i, c) in &cells[..k] {
            let (i, c) = (usize::from(i), usize::from(c));
            if node.place_into(g, i, c, &mut child) {
                path.push((node.rows[i], c as u8));
                let flow = self.dfs(visitor, &mut child, path, depth + 1);
                path.pop();
                flow?;
            }
        }
        if node.without(g, line, &mut child) {
            self.dfs(visitor, &mut child, path, depth + 1)?;
        }
        ControlFlow::Continue(())
    }

    /// [`Walker::branch`] with the children walked in parallel, each with a fork of the
    /// visitor.
    fn branch_parallel<V: Visitor>(
        &mut self,
        visitor: &mut V,
        node: &Node,
        line: Line,
        path: &[Queen],
        depth: usize,
    ) -> ControlFlow<()> {
        let g = self.g;
        let mut children = Vec::new();
        node.choices(g, line, |i, c| {
            let mut child = Node::blank();
            if node.place_into(g, i, c, &mut child) {
                let mut p = Vec::with_capacity(MAX);
                p.extend_from_slice(path);
                p.push((node.rows[i], c as u8));
                children.push((child, p));
            }
        });
        let mut none = Node::blank();
        if node.without(g, line, &mut none) {
            children.push((none, path.to_vec()));
        }
        let (g, why, watch, parallel) = (self.g, self.why, self.watch, self.parallel);
        let shared: &V = visitor;
        let results: Vec<(V, ControlFlow<()>)> = children
            .into_par_iter()
            .map(|(mut child, mut p)| {
                let mut fork = shared.fork();
                if watch.is_halted() {
                    return (fork, ControlFlow::Break(()));
                }
                let mut w = Walker {
                    parallel,
                    ..Walker::new(g, why, watch)
                };
                let flow = w.dfs(&mut fork, &mut child, &mut p, depth + 1);
                w.flush();
                (fork, flow)
            })
            .collect();
        let mut flow = ControlFlow::Continue(());
        for (fork, f) in results {
            visitor.join(fork);
            if f.is_break() {
                flow = ControlFlow::Break(());
            }
        }
        flow
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn probing_keeps_every_solution() {
        // Exact counts of random boards (whole diagonals excluded, and random cells blocked),
        // with the free cells probed at every level and without: taking a cell away must
        // never lose a solution, and must shrink some trees.
        let mut random = super::super::random_words(0x9E37_79B9_7F4A_7C15u64);
        let (mut solved, mut smaller) = (0, 0);
        for round in 0..300 {
            let n = 5 + round % 7;
            let g = Geo::new(n, Geometry::Square);
            let full = (1u64 << n) - 1;
            let mut allowed = vec![full; n];
            // About a quarter or an eighth of the diagonals excluded.
            let mut diagonals = || {
                let x = random() & random();
                if round % 2 == 0 {
                    x
                } else {
                    x & random()
                }
            };
            let (sums, diffs) = (diagonals(), diagonals());
            for (r, a) in allowed.iter_mut().enumerate() {
                for c in 0..n {
                    let excluded = sums >> (r + c) & 1 == 1 || diffs >> (c + n - 1 - r) & 1 == 1;
                    if excluded || random() % 100 < 5 {
                        *a &= !(1u64 << c);
                    }
                }
            }
            let mut counts = Vec::new();
            for why in [
                Reasoning::COUNTING,
                Reasoning {
                    probe: 64,
                    ..Reasoning::COUNTING
                },
                Reasoning {
                    probe: 64,
                    branch_diagonals: true,
                    ..Reasoning::FULL
                },
            ] {
                let watch = Watch::new();
                let mut w = Walker::new(g, why, &watch);
                let mut counted = Counting(0);
                let _ = w.run(&mut counted, Node::root(g, &allowed));
                counts.push((counted.0, watch.nodes()));
            }
            assert_eq!(counts[1].0, counts[0].0, "n = {n}, round {round}");
            assert_eq!(counts[2].0, counts[0].0, "n = {n}, round {round}");
            solved += usize::from(counts[0].0 > 0);
            smaller += usize::from(counts[1].1 < counts[0].1);
        }
        assert!(
            solved > 30 && solved < 270,
            "{solved} boards with solutions"
        );
        assert!(smaller > 30, "probing shrank {smaller} trees");
    }

    #[test]
    fn walkers_taking_turns_count_as_walkers_alone() {
        // Two walkers with different reasoning count the 11 x 11 board, each alone and then
        // taking turns of one tick on two threads: the counts must not change, and the turns
        // must have been taken (the trees have tens of thousands of nodes).
        let n = 11;
        let g = Geo::new(n, Geometry::Square);
        let allowed = vec![(1u64 << n) - 1; n];
        let whys = [
            Reasoning::COUNTING,
            Reasoning {
                probe: 4,
                branch_diagonals: true,
                ..Reasoning::FULL
            },
        ];
        let alone: Vec<u64> = whys
            .iter()
            .map(|&why| {
                let watch = Watch::new();
                let mut counted = Counting(0);
                let _ = Walker::new(g, why, &watch).run(&mut counted, Node::root(g, &allowed));
                counted.0
            })
            .collect();
        let (baton, watch) = (Baton::new(1), Watch::new());
        let turns: Vec<u64> = std::thread::scope(|s| {
            let walkers: Vec<_> = whys
                .iter()
                .enumerate()
                .map(|(me, &why)| {
                    let (baton, watch, allowed) = (&baton, &watch, &allowed);
                    s.spawn(move || {
                        let mut counted = Counting(0);
                        let mut w = Walker::new(g, why, watch).taking_turns(baton, me);
                        let _ = w.run(&mut counted, Node::root(g, allowed));
                        counted.0
                    })
                })
                .collect();
            walkers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        assert!(alone[0] > 0);
        assert_eq!(turns, alone);
        assert!(baton.passes.load(Ordering::Relaxed) >= 4, "too few turns");
    }
}
