//! The search core shared by the exact counter of instances ([`super::count_masked`]) and the
//! decision engine ([`mod@super::decide`]): a backtracking over the open lines of the board with
//! propagation at every node.
//!
//! A node holds the open rows, each with its free cells (a bit per column, cleared of the
//! cells the placed queens attack), and the open columns. The core *settles* each node before
//! it branches:
//!
//! * an open row or column without a free cell ends the branch; one with a single free cell
//!   forces its queen, which is placed at once, and the node is settled again;
//! * the diagonals ([`Reasoning::diagonals`]): every remaining queen needs a `/` diagonal and a
//!   `\` diagonal of its own among those that still hold a free cell, so fewer such diagonals
//!   of a direction than open rows end the branch; with exactly as many, each of them must
//!   hold a queen, so one with a single free cell forces it and one with two free cells is a
//!   line to branch on, like a row;
//! * the sums ([`Reasoning::sums`], square board): the remaining queens stand on the open rows
//!   and columns, one on each, so the indices `r + c` of their `/` diagonals add up to the sum
//!   of the open rows plus the sum of the open columns, and the indices `c - r` of their `\`
//!   diagonals to the difference. `m` distinct free diagonals add up to at least the sum of the
//!   `m` smallest and at most the sum of the `m` largest, which bounds both.
//! * the second moments ([`Reasoning::moments`], square board): with `a = r + c - (n - 1)`
//!   and `b = c - r` the two diagonals of a queen counted from the middle of the board,
//!   `a^2 + b^2` is half of `x^2 + y^2` with `x = 2r - (n - 1)` and `y = 2c - (n - 1)`, so the
//!   `a^2` of the remaining queens' `/` diagonals plus the `b^2` of their `\` diagonals are
//!   fixed by the open rows and columns; `m` free diagonals of a direction add up to at least
//!   the `m` nearest the middle and at most the `m` farthest. Where the instance excludes the
//!   diagonals near the middle (the Excluded Diagonals benchmark), this refutes instances at
//!   the root that the other reasoning needs millions of nodes for;
//! * the matchings ([`Reasoning::matching`], off by default): for each two kinds of lines
//!   (rows, columns, `/` and `\` diagonals), the lines that meet in free cells must match as
//!   many queens as remain.
//!
//! The node then branches on the open line with the fewest free cells, ties going to the
//! line nearest the middle of the board (and a line one cell longer but much nearer the
//! middle preferred too), or on a diagonal that must hold a queen and has two free cells.
//! With [`Reasoning::branch_diagonals`] it may also branch on any free diagonal with one to
//! three free cells (the fewest, farthest from the middle among equals, since those weigh
//! most in the second moments) where that makes at most one child more than the line: one
//! child per free cell, then one with the diagonal left empty.
//! With [`Reasoning::probe`] the nodes of the first levels are probed first: every free cell
//! whose queen fails at once is taken away ([`Node::probe`]).
//! A walker may shuffle the order of the children ([`Walker::shuffled`]) and give up after a
//! budget of nodes ([`Walker::budget`]): the runs of the decision's random restarts. Two
//! walkers on two threads may take turns on one core ([`Walker::taking_turns`], a [`Baton`]):
//! the one-thread decision's plain walk and complete search.
//! Placing a queen clears its lines from the other open rows.
//!
//! A [`Visitor`] sees each solution (the queens placed along the path) and may stop the walk:
//! the counter counts them, the decision keeps the first. The first levels of the tree run in
//! parallel (rayon), every thread watching one [`Watch`]: node count, time limit, stop flag and
//! condition, progress callback, and the halt raised when a solution ends a decision.

use crate::board::Geometry;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The largest board: one bit per column in a `u64`, one bit per diagonal in a `u128`.
pub(crate) const MAX: usize = 64;

/// The column counts the core tells apart (bit-sliced counters): columns with more free cells
/// are never branched on (a row with fewer always exists or is as good).
const COUNTED: usize = 6;

/// Which reasoning runs at each node, besides the rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reasoning {
    /// The free diagonals counted against the queens to place; forced and must-use diagonals.
    pub diagonals: bool,
    /// The bounds on the sums of the diagonal indices (square board only; needs `diagonals`).
    pub sums: bool,
    /// The matchings between the kinds of lines (needs `diagonals`): each queen to place
    /// takes an open row, an open column, a free `/` and a free `\` diagonal of its own, so
    /// for each two kinds the lines meeting in free cells must match as many queens. Off in
    /// [`Reasoning::FULL`]: on the Excluded Diagonals instances it cuts the nodes by a third
    /// or less and costs more than that in time per node.
    pub matching: bool,
    /// The bound on the second moments of the diagonal indices (square board only; needs
    /// `diagonals`): see [`Node::moments_reachable`].
    pub moments: bool,
    /// Branching on a free diagonal with few free cells (its cells, then none of them) where
    /// that has at most one choice more than the best row or column (square board, needs
    /// `diagonals`).
    pub branch_diagonals: bool,
    /// Failed-cell probing at the nodes of the first `probe` branching levels: every free cell
    /// whose queen makes the node fail at once (by the reasoning above) is taken away, until
    /// none is ([`Node::probe`]). 0 turns it off.
    pub probe: usize,
}

impl Reasoning {
    /// Everything that pays on the decisions: all but the matchings.
    pub const FULL: Reasoning = Reasoning {
        diagonals: true,
        sums: true,
        matching: false,
        moments: true,
        branch_diagonals: false,
        probe: 0,
    };

    /// What the exact counter runs: the diagonals and the sums.
    pub const COUNTING: Reasoning = Reasoning {
        diagonals: true,
        sums: true,
        matching: false,
        moments: false,
        branch_diagonals: false,
        probe: 0,
    };
}

/// The board the search runs on: size and geometry, with the bit arithmetic of its lines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geo {
    n: usize,
    torus: bool,
}

impl Geo {
    pub fn new(n: usize, geometry: Geometry) -> Geo {
        assert!((1..=MAX).contains(&n), "n = {n} is outside 1..={MAX}");
        Geo {
            n,
            torus: geometry == Geometry::Toroidal,
        }
    }

    /// The n low bits.
    #[inline(always)]
    fn full(self) -> u128 {
        (1u128 << self.n) - 1
    }

    /// The cells of row `r2` attacked by a queen at (`r`, `c`), `r2 != r`.
    #[inline(always)]
    fn attacks(self, r: usize, c: usize, r2: usize) -> u64 {
        let bit = 1u64 << c;
        if self.torus {
            let n = self.n;
            let d = r.abs_diff(r2) % n;
            bit | 1u64 << ((c + d) % n) | 1u64 << ((c + n - d) % n)
        } else {
            // Bits shifted past column n - 1 are not free anyway.
            let d = r.abs_diff(r2);
            bit | bit << d | bit >> d
        }
    }

    /// The `/` diagonals of the cells `f` of row `r`, a bit each: `r + c` on the square board
    /// (0 ..= 2n - 2), `(r + c) mod n` on the torus.
    #[inline(always)]
    fn sums(self, r: usize, f: u64) -> u128 {
        let f = u128::from(f);
        if self.torus {
            ((f << r) | (f >> ((self.n - r) % self.n))) & self.full()
        } else {
            f << r
        }
    }

    /// The `\` diagonals of the cells `f` of row `r`, a bit each: `c - r + n - 1` on the
    /// square board (0 ..= 2n - 2), `(c - r) mod n` on the torus.
    #[inline(always)]
    fn diffs(self, r: usize, f: u64) -> u128 {
        let f = u128::from(f);
        if self.torus {
            ((f >> r) | (f << ((self.n - r) % self.n))) & self.full()
        } else {
            // r <= n - 1: one shift, no bit lost.
            f << (self.n - 1 - r)
        }
    }

    /// The column of row `r` on `/` diagonal `s`, if the diagonal crosses the row.
    #[inline(always)]
    fn sum_col(self, r: usize, s: usize) -> Option<usize> {
        if self.torus {
            Some((s + self.n - r) % self.n)
        } else {
            s.checked_sub(r).filter(|&c| c < self.n)
        }
    }

    /// The column of row `r` on `\` diagonal `t`, if the diagonal crosses the row.
    #[inline(always)]
    fn diff_col(self, r: usize, t: usize) -> Option<usize> {
        if self.torus {
            Some((t + r) % self.n)
        } else {
            (t + r).checked_sub(self.n - 1).filter(|&c| c < self.n)
        }
    }

    /// How far line `x` (a row or a column) lies from the middle of the board, doubled:
    /// `|2x - (n - 1)|`.
    #[inline(always)]
    fn off_middle(self, x: usize) -> u32 {
        (2 * x).abs_diff(self.n - 1) as u32
    }
}

/// A line to branch on: its free cells are the choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// The open row at this index of the node's list.
    Row(usize),
    /// An open column.
    Col(usize),
    /// A `/` diagonal that must hold a queen.
    Sum(usize),
    /// A `\` diagonal that must hold a queen.
    Diff(usize),
    /// A `/` diagonal that may stay empty: its free cells, then the node without them.
    SumOrNone(usize),
    /// A `\` diagonal that may stay empty: its free cells, then the node without them.
    DiffOrNone(usize),
}

/// What settling a node found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Settled {
    /// No solution below.
    Fail,
    /// Every row holds a queen: the path is a solution.
    Solved,
    /// Branch on this line.
    Branch(Line),
}

/// A queen on the path: row and column.
pub(crate) type Queen = (u8, u8);

/// A search node: the open rows with their free cells, the open columns, and the sums of the
/// open rows and of the open columns for the sum bounds. Only the first `m` entries of `rows`
/// and `free` are used.
#[derive(Clone)]
pub(crate) struct Node {
    m: usize,
    rows: [u8; MAX],
    free: [u64; MAX],
    cols: u64,
    row_sum: u32,
    col_sum: u32,
}

/// What the diagonal reasoning found.
enum Diag {
    Fail,
    /// A forced queen was placed: settle again.
    Placed,
    /// Nothing forced; the line to branch on may have changed.
    Nothing,
}

/// The sum of the positions of the set bits of `x`.
#[inline(always)]
fn position_sum(x: u128) -> u32 {
    // Bit b of a position is set for the positions in MASKS[b].
    const MASKS: [u128; 7] = [
        0xAAAA_AAAA_AAAA_AAAA_AAAA_AAAA_AAAA_AAAA,
        0xCCCC_CCCC_CCCC_CCCC_CCCC_CCCC_CCCC_CCCC,
        0xF0F0_F0F0_F0F0_F0F0_F0F0_F0F0_F0F0_F0F0,
        0xFF00_FF00_FF00_FF00_FF00_FF00_FF00_FF00,
        0xFFFF_0000_FFFF_0000_FFFF_0000_FFFF_0000,
        0xFFFF_FFFF_0000_0000_FFFF_FFFF_0000_0000,
        0xFFFF_FFFF_FFFF_FFFF_0000_0000_0000_0000,
    ];
    MASKS
        .iter()
        .enumerate()
        .map(|(b, &mask)| (x & mask).count_ones() << b)
        .sum()
}

/// Whether `want` lies between the least and the largest sum of the positions of `k`
/// distinct set bits of `x` (which has at least `k`): the sum of all of them less the largest
/// (or the smallest) of the others.
#[inline(always)]
fn sum_reachable(x: u128, k: usize, want: u32) -> bool {
    let all = position_sum(x);
    let spare = x.count_ones() as usize - k;
    let (mut low, mut high) = (x, x);
    let (mut low_sum, mut high_sum) = (0, 0);
    for _ in 0..spare {
        low_sum += low.trailing_zeros();
        low &= low - 1;
        let top = 127 - high.leading_zeros();
        high_sum += top;
        high ^= 1u128 << top;
    }
    // Least: drop the `spare` largest; largest: drop the `spare` smallest.
    all - high_sum <= want && want <= all - low_sum
}

/// Whether the bipartite graph with the left vertices `adj` (each the set of its right
/// vertices, at most 128) has a matching of `need` edges (Kuhn's augmenting paths on bitsets,
/// stopped as soon as it has them or can no longer reach them).
fn has_matching(adj: &[u128], need: usize) -> bool {
    if adj.len() < need {
        return false;
    }
    if need == 0 {
        return true;
    }
    // owner[j]: the left vertex matched to right vertex j (when j is in `taken`).
    let mut owner = [0u8; 128];
    let mut taken = 0u128;
    let mut size = 0;
    let mut failed = 0;
    let mut waiting = [0u8; 128];
    let mut w = 0;
    // Greedy first: each left vertex takes a free right vertex if it has one.
    for (u, &a) in adj.iter().enumerate() {
        let x = a & !taken;
        if x != 0 {
            let j = x.trailing_zeros() as usize;
            owner[j] = u as u8;
            taken |= 1u128 << j;
            size += 1;
            if size == need {
                return true;
            }
        } else if a == 0 {
            failed += 1;
            if adj.len() - failed < need {
                return false;
            }
        } else {
            waiting[w] = u as u8;
            w += 1;
        }
    }
    /// Finds an augmenting path from `u`, right vertices in `seen` excluded.
    fn augment(
        adj: &[u128],
        u: usize,
        seen: &mut u128,
        owner: &mut [u8; 128],
        taken: u128,
    ) -> bool {
        loop {
            let x = adj[u] & !*seen;
            if x == 0 {
                return false;
            }
            let j = x.trailing_zeros() as usize;
            *seen |= 1u128 << j;
            if taken >> j & 1 == 0 || augment(adj, usize::from(owner[j]), seen, owner, taken) {
                owner[j] = u as u8;
                return true;
            }
        }
    }
    for &u in &waiting[..w] {
        let mut seen = 0u128;
        if augment(adj, usize::from(u), &mut seen, &mut owner, taken) {
            // The path stops at the first free right vertex it visits: the only one in `seen`
            // not taken, now taken.
            taken |= seen & !taken;
            size += 1;
            if size == need {
                return true;
            }
        } else {
            // No augmenting path now means none later either (Kuhn).
            failed += 1;
            if adj.len() - failed < need {
                return false;
            }
        }
    }
    size >= need
}

impl Node {
    /// A node with nothing open, to be written by [`Node::place_into`].
    pub fn blank() -> Node {
        Node {
            m: 0,
            rows: [0; MAX],
            free: [0; MAX],
            cols: 0,
            row_sum: 0,
            col_sum: 0,
        }
    }

    /// The root: every row open with the free cells `allowed[r]` (columns below n).
    pub fn root(g: Geo, allowed: &[u64]) -> Node {
        let n = g.n;
        let mut node = Node::blank();
        node.m = n;
        node.cols = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        for (r, &a) in allowed.iter().enumerate().take(n) {
            node.rows[r] = r as u8;
            node.free[r] = a & node.cols;
            node.row_sum += r as u32;
        }
        node.col_sum = node.row_sum;
        node
    }

    /// Restricts the free cells of row `r` to `mask` (when open).
    pub fn restrict_row(&mut self, r: usize, mask: u64) {
        if let Some(i) = self.rows[..self.m]
            .iter()
            .position(|&x| usize::from(x) == r)
        {
            self.free[i] &= mask;
        }
    }

    /// The open row at index `i` of the list.
    #[inline(always)]
    fn row(&self, i: usize) -> usize {
        usize::from(self.rows[i])
    }

    /// Places a queen at column `c` of the open row at index `i` (a free cell) in this node,
    /// recording it on `path`; `false` when an open row is left without free cells (the node
    /// is then partly updated and must be dropped).
    #[inline(always)]
    fn place(&mut self, g: Geo, i: usize, c: usize, path: &mut Vec<Queen>) -> bool {
        let r = self.row(i);
        path.push((r as u8, c as u8));
        self.cols &= !(1u64 << c);
        self.row_sum -= r as u32;
        self.col_sum -= c as u32;
        let mut k = 0;
        for j in 0..self.m {
            if j == i {
                continue;
            }
            let f = self.free[j] & !g.attacks(r, c, self.row(j));
            if f == 0 {
                return false;
            }
            self.rows[k] = self.rows[j];
            self.free[k] = f;
            k += 1;
        }
        self.m -= 1;
        true
    }

    /// Writes into `next` this node after a queen at column `c` of the open row at index `i`
    /// (a free cell); `false` when an open row is left without free cells (`next` is then
    /// partly written).
    #[inline(always)]
    fn place_into(&self, g: Geo, i: usize, c: usize, next: &mut Node) -> bool {
        let r = self.row(i);
        next.m = self.m - 1;
        next.cols = self.cols & !(1u64 << c);
        next.row_sum = self.row_sum - r as u32;
        next.col_sum = self.col_sum - c as u32;
        let mut k = 0;
        for j in 0..self.m {
            if j == i {
                continue;
            }
            let f = self.free[j] & !g.attacks(r, c, self.row(j));
            if f == 0 {
                return false;
            }
            next.rows[k] = self.rows[j];
            next.free[k] = f;
            k += 1;
        }
        true
    }

    /// Writes into `next` this node with the free cells of the diagonal of `line` (a
    /// [`Line::SumOrNone`] or [`Line::DiffOrNone`]) taken away; `false` when that leaves an
    /// open row without free cells, or `line` is not such a line.
    fn without(&self, g: Geo, line: Line, next: &mut Node) -> bool {
        let (x, col) = match line {
            Line::SumOrNone(s) => (s, Geo::sum_col as fn(Geo, usize, usize) -> Option<usize>),
            Line::DiffOrNone(t) => (t, Geo::diff_col as _),
            _ => return false,
        };
        let on = |r: usize| col(g, r, x);
        next.clone_from(self);
        for i in 0..self.m {
            if let Some(c) = on(self.row(i)) {
                next.free[i] &= !(1u64 << c);
                if next.free[i] == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// The choices of `line`: (index of the open row, column) for each free cell on it.
    #[inline(always)]
    fn choices(&self, g: Geo, line: Line, mut out: impl FnMut(usize, usize)) {
        match line {
            Line::Row(i) => {
                let mut cells = self.free[i];
                while cells != 0 {
                    out(i, cells.trailing_zeros() as usize);
                    cells &= cells - 1;
                }
            }
            Line::Col(c) => {
                for i in 0..self.m {
                    if self.free[i] >> c & 1 == 1 {
                        out(i, c);
                    }
                }
            }
            Line::Sum(s) | Line::SumOrNone(s) => {
                for i in 0..self.m {
                    if let Some(c) = g.sum_col(self.row(i), s) {
                        if self.free[i] >> c & 1 == 1 {
                            out(i, c);
                        }
                    }
                }
            }
            Line::Diff(t) | Line::DiffOrNone(t) => {
                for i in 0..self.m {
                    if let Some(c) = g.diff_col(self.row(i), t) {
                        if self.free[i] >> c & 1 == 1 {
                            out(i, c);
                        }
                    }
                }
            }
        }
    }

    /// Propagates (forced queens are placed and recorded on `path`) and says whether the node
    /// failed, is solved, or which line to branch on.
    pub fn settle(&mut self, g: Geo, why: Reasoning, path: &mut Vec<Queen>) -> Settled {
        let n = g.n as u32;
        loop {
            let m = self.m;
            if m == 0 {
                return Settled::Solved;
            }
            // The branching line minimises n * (free cells) + 2 * off_middle: fewest first, ties
            // (and lines one cell longer but much nearer the middle) to the middle.
            let (mut best, mut best_k) = (0, u32::MAX);
            let (mut line, mut line_k, mut key) = (Line::Row(0), u32::MAX, u32::MAX);
            // c[l]: the columns free in more than l open rows (saturating bit-sliced counters).
            let mut c = [0u64; COUNTED];
            for (i, &f) in self.free[..m].iter().enumerate() {
                let k = f.count_ones();
                if k < best_k {
                    (best, best_k) = (i, k);
                    if k == 0 {
                        return Settled::Fail;
                    }
                }
                let key_i = n * k + 2 * g.off_middle(usize::from(self.rows[i]));
                if key_i < key {
                    (line, line_k, key) = (Line::Row(i), k, key_i);
                }
                for l in (1..COUNTED).rev() {
                    c[l] |= c[l - 1] & f;
                }
                c[0] |= f;
            }
            if self.cols & !c[0] != 0 {
                return Settled::Fail;
            }
            if best_k == 1 {
                let col = self.free[best].trailing_zeros() as usize;
                if !self.place(g, best, col, path) {
                    return Settled::Fail;
                }
                continue;
            }
            let single = self.cols & !c[1];
            if single != 0 {
                let col = single.trailing_zeros() as usize;
                let i = (0..m)
                    .find(|&i| self.free[i] >> col & 1 == 1)
                    .expect("an open column with a free cell");
                if !self.place(g, i, col, path) {
                    return Settled::Fail;
                }
                continue;
            }
            // Columns with k free cells, for the k that can beat the best row.
            for k in 2..=(best_k as usize + 1).min(COUNTED - 1) {
                let mut at = self.cols & c[k - 1] & !c[k];
                while at != 0 {
                    let col = at.trailing_zeros() as usize;
                    at &= at - 1;
                    let key_c = n * k as u32 + 2 * g.off_middle(col);
                    if key_c < key {
                        (line, line_k, key) = (Line::Col(col), k as u32, key_c);
                    }
                }
            }
            if why.diagonals {
                match self.diagonals(g, why, path, &mut line, line_k) {
                    Diag::Fail => return Settled::Fail,
                    Diag::Placed => continue,
                    Diag::Nothing => {}
                }
            }
            return Settled::Branch(line);
        }
    }

    /// Failed-cell probing (a settled node): takes away every free cell whose queen makes
    /// [`Node::settle`] fail at once, each tested on the node as the cells before it left it,
    /// and says whether it took any (the node must then be settled again). Sound for
    /// counting as well as for deciding: a cell taken away has no solution through it.
    fn probe(&mut self, g: Geo, why: Reasoning) -> bool {
        // Only whether a child fails is read: which diagonal it would branch on is not.
        let why = Reasoning {
            branch_diagonals: false,
            ..why
        };
        let mut taken = false;
        let mut child = Node::blank();
        let mut scratch = Vec::with_capacity(MAX);
        for i in 0..self.m {
            let mut cells = self.free[i];
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let lives = self.place_into(g, i, c, &mut child) && {
                    scratch.clear();
                    !matches!(child.settle(g, why, &mut scratch), Settled::Fail)
                };
                if !lives {
                    self.free[i] &= !(1u64 << c);
                    taken = true;
                }
            }
        }
        taken
    }

    /// Bit-sliced counts of the free cells of the diagonals: `[k][l]` holds the diagonals of
    /// direction `k` (0 for `/`, 1 for `\`) with more than `l` free cells.
    fn diagonal_counts(&self, g: Geo) -> [[u128; 4]; 2] {
        let mut c = [[0u128; 4]; 2];
        for i in 0..self.m {
            let (r, f) = (self.row(i), self.free[i]);
            for (c, x) in c.iter_mut().zip([g.sums(r, f), g.diffs(r, f)]) {
                c[3] |= c[2] & x;
                c[2] |= c[1] & x;
                c[1] |= c[0] & x;
                c[0] |= x;
            }
        }
        c
    }

    /// The diagonal reasoning of [`Node::settle`], after the rows and columns: every open row
    /// and column has at least two free cells. `line` (with `line_k` choices) may be replaced
    /// by a diagonal that must hold a queen and has fewer.
    fn diagonals(
        &mut self,
        g: Geo,
        why: Reasoning,
        path: &mut Vec<Queen>,
        line: &mut Line,
        line_k: u32,
    ) -> Diag {
        let m = self.m;
        let branching = why.branch_diagonals && !g.torus;
        // more[k][l]: the diagonals of direction k (`/`, `\`) with more than l free cells,
        // counted when some reasoning below needs it (its first words are the free ones).
        let mut more = branching.then(|| self.diagonal_counts(g));
        let (s0, d0) = match more {
            Some([[s0, ..], [d0, ..]]) => (s0, d0),
            None => {
                let (mut s0, mut d0) = (0u128, 0u128);
                for i in 0..m {
                    let (r, f) = (self.row(i), self.free[i]);
                    s0 |= g.sums(r, f);
                    d0 |= g.diffs(r, f);
                }
                (s0, d0)
            }
        };
        let (ns, nd) = (s0.count_ones() as usize, d0.count_ones() as usize);
        if ns < m || nd < m {
            return Diag::Fail;
        }
        if more.is_none() && (ns == m || nd == m) {
            more = Some(self.diagonal_counts(g));
        }
        if ns == m || nd == m {
            // Every free diagonal of that direction must hold a queen.
            let [[_, s1, s2, _], [_, d1, d2, _]] = more.expect("counted when tight");
            let mut two = None;
            for (is_sum, tight, once, twice) in [
                (true, ns == m, s0 & !s1, s1 & !s2),
                (false, nd == m, d0 & !d1, d1 & !d2),
            ] {
                if !tight {
                    continue;
                }
                if once != 0 {
                    let x = once.trailing_zeros() as usize;
                    let l = if is_sum { Line::Sum(x) } else { Line::Diff(x) };
                    let mut at = None;
                    self.choices(g, l, |i, c| at = Some((i, c)));
                    let (i, c) = at.expect("a free diagonal has a free cell");
                    if !self.place(g, i, c, path) {
                        return Diag::Fail;
                    }
                    return Diag::Placed;
                }
                if twice != 0 && two.is_none() {
                    let x = twice.trailing_zeros() as usize;
                    two = Some(if is_sum { Line::Sum(x) } else { Line::Diff(x) });
                }
            }
            if let Some(l) = two.filter(|_| line_k > 2) {
                *line = l;
            }
        }
        if let Some(c) = more.filter(|_| branching && matches!(line, Line::Row(_) | Line::Col(_))) {
            // The free diagonal with the fewest free cells (farthest from the middle among
            // equals: its square weighs most in the second moments), if it has no more free
            // cells than the line has choices: its cells and "none of them" are one choice
            // more. Measured against the nearest the middle and against no extra choice
            // (docs/experiments.md): 1.2x to 2.0x fewer nodes on the refutations.
            let mid = g.n - 1;
            let mut best: Option<((u32, usize), Line)> = None;
            for (k, c) in c.iter().enumerate() {
                for (j, x) in [(1u32, c[0] & !c[1]), (2, c[1] & !c[2]), (3, c[2] & !c[3])] {
                    if j > line_k {
                        break;
                    }
                    let mut x = x;
                    while x != 0 {
                        let b = x.trailing_zeros() as usize;
                        x &= x - 1;
                        // Farther first: the larger distance gives the smaller key.
                        let key = (j, usize::MAX - b.abs_diff(mid));
                        if best.is_none_or(|(k, _)| key < k) {
                            let l = if k == 0 {
                                Line::SumOrNone(b)
                            } else {
                                Line::DiffOrNone(b)
                            };
                            best = Some((key, l));
                        }
                    }
                    if best.is_some() {
                        break;
                    }
                }
            }
            if let Some((_, l)) = best {
                *line = l;
            }
        }
        if why.sums && !g.torus {
            let n = g.n as u32;
            // r + c over the remaining queens, and c - r + n - 1.
            let want_s = self.row_sum + self.col_sum;
            let want_d = self.col_sum + m as u32 * (n - 1) - self.row_sum;
            if !sum_reachable(s0, m, want_s) || !sum_reachable(d0, m, want_d) {
                return Diag::Fail;
            }
        }
        if why.moments && !g.torus && !self.moments_reachable(g, s0, d0) {
            return Diag::Fail;
        }
        if why.matching && !self.matched(g) {
            return Diag::Fail;
        }
        Diag::Nothing
    }

    /// The second moment (square board): with `a = r + c - (n - 1)` and `b = c - r` the
    /// diagonals of a queen taken from the middle, `a^2 + b^2 = (x^2 + y^2) / 2` where
    /// `x = 2r - (n - 1)` and `y = 2c - (n - 1)`, so the `a^2` of the `/` diagonals of the
    /// remaining queens plus the `b^2` of their `\` diagonals add up to half the `x^2` of the
    /// open rows plus the `y^2` of the open columns. A queen's `a` and `b` have the parity of
    /// its `\` diagonal's index `b + n - 1`: if `k` of the queens stand where `a` is even, `k`
    /// of the `/` and `k` of the `\` diagonals are of that class and `m - k` of the other,
    /// and `m - k` has the parity of the sum of the `a` (fixed by the open rows and columns).
    /// For some such `k`, the sum must lie between that of the free diagonals nearest the
    /// middle and that of the farthest, taken by class and direction.
    fn moments_reachable(&self, g: Geo, s0: u128, d0: u128) -> bool {
        let (n, m) = (g.n, self.m);
        let sq = |x: usize| -> u64 {
            let v = (2 * x).abs_diff(n - 1) as u64;
            v * v
        };
        let mut want = 0u64;
        for i in 0..m {
            want += sq(self.row(i));
        }
        let mut cols = self.cols;
        while cols != 0 {
            want += sq(cols.trailing_zeros() as usize);
            cols &= cols - 1;
        }
        // near[dir][class][k]: the sum of the k smallest squared distances from the middle
        // of the free diagonals of direction dir whose queens have a of parity class. The
        // free diagonals of a direction by distance from the middle, a bit per distance: `lo`
        // for those below the middle (the low bits of `x` reversed), `hi` for the middle one
        // and those above. A queen's class is the parity of the distance of its `/` diagonal,
        // and of its `\` diagonal's distance plus n - 1.
        let mid = n - 1;
        let mut near = [[[0u64; MAX + 1]; 2]; 2];
        let mut count = [[0usize; 2]; 2];
        for (dir, x) in [s0, d0].into_iter().enumerate() {
            let below = (x & ((1u128 << n) - 1)) as u64;
            let lo = (below.reverse_bits() >> (64 - n)) & !1;
            let hi = (x >> mid) as u64;
            for class in 0..2 {
                let odd_dist = if dir == 0 { class } else { (class + n - 1) % 2 };
                let parity = if odd_dist == 1 {
                    0xAAAA_AAAA_AAAA_AAAA
                } else {
                    0x5555_5555_5555_5555
                };
                let (a, b) = (lo & parity, hi & parity);
                let (near, count) = (&mut near[dir][class], &mut count[dir][class]);
                let mut at = a | b;
                while at != 0 {
                    let dist = at.trailing_zeros();
                    at &= at - 1;
                    let sq = u64::from(dist * dist);
                    for _ in 0..((a >> dist & 1) + (b >> dist & 1)) {
                        near[*count + 1] = near[*count] + sq;
                        *count += 1;
                    }
                }
            }
        }
        let odd = (self.row_sum as usize + self.col_sum as usize + m * (n - 1)) % 2;
        // The sum of the k nearest and of the k farthest, for a direction and class.
        let low = |dir: usize, class: usize, k: usize| near[dir][class][k];
        let high = |dir: usize, class: usize, k: usize| {
            let c = count[dir][class];
            near[dir][class][c] - near[dir][class][c - k]
        };
        let most = count[0][0].min(count[1][0]).min(m);
        (0..=most).any(|k| {
            let rest = m - k;
            rest % 2 == odd
                && rest <= count[0][1].min(count[1][1])
                && 2 * (low(0, 0, k) + low(0, 1, rest) + low(1, 0, k) + low(1, 1, rest)) <= want
                && want <= 2 * (high(0, 0, k) + high(0, 1, rest) + high(1, 0, k) + high(1, 1, rest))
        })
    }

    /// Whether every two kinds of lines (open rows, open columns, free `/` and free `\`
    /// diagonals) match as many queens as remain: a queen takes one line of each kind, and two
    /// of its lines meet in its (free) cell.
    fn matched(&self, g: Geo) -> bool {
        let m = self.m;
        let mut adj = [0u128; 2 * MAX];
        // Rows against `/` diagonals, `\` diagonals and columns.
        let by_row: [fn(Geo, usize, u64) -> u128; 3] = [
            |g, r, f| g.sums(r, f),
            |g, r, f| g.diffs(r, f),
            |_, _, f| u128::from(f),
        ];
        for lines in by_row {
            for (i, a) in adj.iter_mut().enumerate().take(m) {
                *a = lines(g, self.row(i), self.free[i]);
            }
            if !has_matching(&adj[..m], m) {
                return false;
            }
        }
        // Per free cell: its `/` and `\` diagonals, by column and by `/` diagonal.
        let mut col_s = [0u128; MAX];
        let mut col_d = [0u128; MAX];
        let mut sum_d = [0u128; 2 * MAX];
        for i in 0..m {
            let r = self.row(i);
            let mut f = self.free[i];
            while f != 0 {
                let c = f.trailing_zeros() as usize;
                f &= f - 1;
                let sb = g.sums(r, 1u64 << c);
                let db = g.diffs(r, 1u64 << c);
                col_s[c] |= sb;
                col_d[c] |= db;
                sum_d[sb.trailing_zeros() as usize] |= db;
            }
        }
        // `/` diagonals against `\` diagonals.
        let mut k = 0;
        for &x in sum_d.iter().filter(|&&x| x != 0) {
            adj[k] = x;
            k += 1;
        }
        if !has_matching(&adj[..k], m) {
            return false;
        }
        // Columns against `/` and `\` diagonals.
        for by_col in [&col_s, &col_d] {
            k = 0;
            let mut cols = self.cols;
            while cols != 0 {
                let c = cols.trailing_zeros() as usize;
                cols &= cols - 1;
                adj[k] = by_col[c];
                k += 1;
            }
            if !has_matching(&adj[..k], m) {
                return false;
            }
        }
        true
    }
}

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

/// Why a walk was halted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// The time limit passed.
    TimeLimit,
    /// The stop flag or the stop condition was raised.
    Interrupted,
    /// A visitor ended the walk (a decision found its solution).
    Done,
}

type ProgressFn<'a> = Box<dyn Fn(u64, Duration) + Send + Sync + 'a>;
type StopFn<'a> = Box<dyn Fn() -> bool + Send + Sync + 'a>;

/// What every thread of one search watches: the node count, the time limit, the stop flag
/// and condition, the progress callback, and the halt.
pub(crate) struct Watch<'a> {
    start: Instant,
    deadline: Option<Instant>,
    stop_flag: Option<&'a AtomicBool>,
    stop_when: Option<StopFn<'a>>,
    progress: Option<ProgressFn<'a>>,
    progress_every: Duration,
    nodes: AtomicU64,
    /// Nanoseconds from the start to the last progress report.
    reported: AtomicU64,
    halted: Mutex<Option<Halt>>,
    halt: AtomicBool,
}

/// Nodes a thread visits between two looks at the [`Watch`].
const TICK: u64 = 1024;

impl<'a> Watch<'a> {
    pub fn new() -> Watch<'a> {
        Watch {
            start: Instant::now(),
            deadline: None,
            stop_flag: None,
            stop_when: None,
            progress: None,
            progress_every: Duration::from_millis(200),
            nodes: AtomicU64::new(0),
            reported: AtomicU64::new(0),
            halted: Mutex::new(None),
            halt: AtomicBool::new(false),
        }
    }

    pub fn time_limit(&mut self, limit: Duration) {
        // A limit past the end of time is no limit.
        self.deadline = self.start.checked_add(limit);
    }

    pub fn stop_flag(&mut self, flag: &'a AtomicBool) {
        self.stop_flag = Some(flag);
    }

    pub fn stop_when(&mut self, f: StopFn<'a>) {
        self.stop_when = Some(f);
    }

    pub fn progress(&mut self, f: ProgressFn<'a>, every: Duration) {
        self.progress = Some(f);
        self.progress_every = every;
    }

    /// Nodes visited so far (as last reported by the threads).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Why the search was halted, if it was.
    pub fn halted(&self) -> Option<Halt> {
        *self.halted.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn is_halted(&self) -> bool {
        self.halt.load(Ordering::Relaxed)
    }

    /// Halts every thread, for `why` (the first reason is kept).
    pub fn halt(&self, why: Halt) {
        let mut h = self.halted.lock().unwrap_or_else(|e| e.into_inner());
        h.get_or_insert(why);
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Checks the stop conditions before any search; `Break` when the search must not start.
    pub fn check(&self) -> ControlFlow<()> {
        self.tick(0)
    }

    /// Adds `k` visited nodes, checks the stop conditions and reports progress; `Break` when
    /// the search must end.
    fn tick(&self, k: u64) -> ControlFlow<()> {
        let nodes = self.nodes.fetch_add(k, Ordering::Relaxed) + k;
        if self.is_halted() {
            return ControlFlow::Break(());
        }
        if self.stop_flag.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.stop_when.as_ref().is_some_and(|f| f())
        {
            self.halt(Halt::Interrupted);
            return ControlFlow::Break(());
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            self.halt(Halt::TimeLimit);
            return ControlFlow::Break(());
        }
        if let Some(f) = &self.progress {
            let at = now.duration_since(self.start);
            let at_ns = u64::try_from(at.as_nanos()).unwrap_or(u64::MAX);
            let last = self.reported.load(Ordering::Relaxed);
            let every = u64::try_from(self.progress_every.as_nanos()).unwrap_or(u64::MAX);
            if at_ns.saturating_sub(last) >= every
                && self
                    .reported
                    .compare_exchange(last, at_ns, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            {
                f(nodes, at);
            }
        }
        ControlFlow::Continue(())
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
        let mut x = self.shuffle;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.shuffle = x;
        x
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
        self.watch.nodes.fetch_add(k, Ordering::Relaxed);
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

    #[test]
    fn position_sums_and_reachable_sums() {
        let x: u128 = (1 << 3) | (1 << 70) | (1 << 127) | 1;
        assert_eq!(position_sum(x), 3 + 70 + 127);
        // Two of {0, 3, 70, 127}: from 3 to 197.
        assert!(sum_reachable(x, 2, 3) && sum_reachable(x, 2, 197));
        assert!(!sum_reachable(x, 2, 2) && !sum_reachable(x, 2, 198));
        assert!(sum_reachable(x, 4, 200) && !sum_reachable(x, 4, 199));
    }

    /// [`Node::moments_reachable`] written from its definition: the squared distances of the
    /// free diagonals listed by direction and class, sorted.
    fn moments_by_sorting(node: &Node, n: usize, s0: u128, d0: u128) -> bool {
        let mid = n as i64 - 1;
        let sq = |x: usize| (2 * x as i64 - mid).pow(2) as u64;
        let want: u64 = (0..node.m).map(|i| sq(node.row(i))).sum::<u64>()
            + (0..n)
                .filter(|c| node.cols >> c & 1 == 1)
                .map(sq)
                .sum::<u64>();
        // lists[dir][class]: a queen on `/` diagonal j has a = j - mid; on `\` diagonal j,
        // a has the parity of j.
        let mut lists = [[Vec::new(), Vec::new()], [Vec::new(), Vec::new()]];
        for (dir, x) in [s0, d0].into_iter().enumerate() {
            for j in 0..2 * n - 1 {
                if x >> j & 1 == 1 {
                    let class = if dir == 0 {
                        (j as i64 - mid).rem_euclid(2)
                    } else {
                        j as i64 % 2
                    };
                    lists[dir][class as usize].push((j as i64 - mid).pow(2) as u64);
                }
            }
        }
        for l in lists.iter_mut().flatten() {
            l.sort_unstable();
        }
        let low = |l: &Vec<u64>, k: usize| l[..k].iter().sum::<u64>();
        let high = |l: &Vec<u64>, k: usize| l[l.len() - k..].iter().sum::<u64>();
        let odd = (node.row_sum as usize + node.col_sum as usize + node.m * (n - 1)) % 2;
        (0..=node.m).any(|k| {
            let rest = node.m - k;
            let [[s_even, s_odd], [d_even, d_odd]] = &lists;
            rest % 2 == odd
                && k <= s_even.len().min(d_even.len())
                && rest <= s_odd.len().min(d_odd.len())
                && 2 * (low(s_even, k) + low(s_odd, rest) + low(d_even, k) + low(d_odd, rest))
                    <= want
                && want
                    <= 2 * (high(s_even, k)
                        + high(s_odd, rest)
                        + high(d_even, k)
                        + high(d_odd, rest))
        })
    }

    /// A xorshift64 stream of random words from a non-zero seed.
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    #[test]
    fn the_second_moment_bound_agrees_with_its_definition() {
        let mut random = xorshift(0x2545_F491_4F6C_DD1Du64);
        let (mut yes, mut no) = (0, 0);
        for round in 0..4000 {
            let n = [5, 8, 13, 30, 63, 64][round % 6];
            let g = Geo::new(n, Geometry::Square);
            let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            let mut node = Node::root(g, &vec![full; n]);
            let mut path = Vec::new();
            // A few queens placed on free cells of random rows.
            for _ in 0..random() % (n as u64 / 2) {
                let i = (random() % node.m as u64) as usize;
                let f = node.free[i];
                let c = (0..64)
                    .cycle()
                    .skip((random() % 64) as usize)
                    .find(|c| f >> c & 1 == 1);
                if !node.place(g, i, c.expect("a free cell"), &mut path) {
                    break;
                }
            }
            // Free diagonals: dense and sparse random sets.
            let bits = (1u128 << (2 * n - 1)) - 1;
            let mut mask = || {
                let r = u128::from(random()) << 64 | u128::from(random());
                let r = match random() % 3 {
                    0 => r,
                    1 => r | u128::from(random()) << 64 | u128::from(random()),
                    _ => r & (u128::from(random()) << 64 | u128::from(random())),
                };
                r & bits
            };
            let (s0, d0) = (mask(), mask());
            let expect = moments_by_sorting(&node, n, s0, d0);
            assert_eq!(
                node.moments_reachable(g, s0, d0),
                expect,
                "n = {n}, round {round}"
            );
            if expect {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 100 && no > 100, "{yes} reachable, {no} not");
    }

    #[test]
    fn probing_keeps_every_solution() {
        // Exact counts of random boards (whole diagonals excluded, and random cells blocked),
        // with the free cells probed at every level and without: taking a cell away must
        // never lose a solution, and must shrink some trees.
        let mut random = xorshift(0x9E37_79B9_7F4A_7C15u64);
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

    #[test]
    fn diagonal_bits_match_the_geometry() {
        for (geometry, n) in [
            (Geometry::Square, 7),
            (Geometry::Toroidal, 7),
            (Geometry::Square, 64),
            (Geometry::Toroidal, 64),
        ] {
            let g = Geo::new(n, geometry);
            for r in 0..n {
                for c in 0..n {
                    let s = g.sums(r, 1u64 << c).trailing_zeros() as usize;
                    let d = g.diffs(r, 1u64 << c).trailing_zeros() as usize;
                    assert_eq!(g.sum_col(r, s), Some(c));
                    assert_eq!(g.diff_col(r, d), Some(c));
                    assert_eq!(s, geometry.diagonal(n, r, c), "{geometry:?} ({r}, {c})");
                    if geometry == Geometry::Toroidal {
                        assert_eq!(d, (c + n - r) % n);
                    } else {
                        assert_eq!(d, c + n - 1 - r);
                    }
                }
            }
        }
    }
}
