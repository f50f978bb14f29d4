//! A search node and its settling: the propagation and the choice of the line to branch on.
//!
//! A node holds the open rows, each with its free cells (a bit per column, cleared of the
//! cells the placed queens attack), and the open columns. A node is *settled* before it
//! branches ([`Node::settle`]):
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
//! The sums, the second moments and the matchings are bounds on what the node leaves open,
//! computed in the module `bounds`.
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
//! Placing a queen clears its lines from the other open rows.

use super::bounds::{self, Open};
use super::geometry::{Geo, MAX};

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
    /// `diagonals`): see [`bounds::moments_reachable`].
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
    /// The open rows (their indices), the first `m` entries.
    pub(super) rows: [u8; MAX],
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

impl Node {
    /// A node with nothing open, to be written by [`Node::place_into`].
    #[inline]
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

    /// What the bounds read of this node: its open rows and columns.
    #[inline(always)]
    pub(super) fn open(&self) -> Open<'_> {
        Open {
            rows: &self.rows[..self.m],
            free: &self.free[..self.m],
            cols: self.cols,
            row_sum: self.row_sum,
            col_sum: self.col_sum,
        }
    }

    /// Takes the free cell of column `c` away from the open row at index `i` (a probed cell
    /// that fails).
    pub(super) fn take(&mut self, i: usize, c: usize) {
        self.free[i] &= !(1u64 << c);
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
    pub(super) fn place_into(&self, g: Geo, i: usize, c: usize, next: &mut Node) -> bool {
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
    pub(super) fn without(&self, g: Geo, line: Line, next: &mut Node) -> bool {
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
    pub(super) fn choices(&self, g: Geo, line: Line, mut out: impl FnMut(usize, usize)) {
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
    pub(super) fn probe(&mut self, g: Geo, why: Reasoning) -> bool {
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
            None => self.open().free_diagonals(g),
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
        if why.sums && !g.torus && !bounds::sums_reachable(g, &self.open(), s0, d0) {
            return Diag::Fail;
        }
        if why.moments && !g.torus && !bounds::moments_reachable(g, &self.open(), s0, d0) {
            return Diag::Fail;
        }
        if why.matching && !bounds::matched(g, &self.open()) {
            return Diag::Fail;
        }
        Diag::Nothing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    /// [`bounds::moments_reachable`] written from its definition: the squared distances of the
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

    #[test]
    fn the_second_moment_bound_agrees_with_its_definition() {
        let mut random = super::super::random_words(0x2545_F491_4F6C_DD1Du64);
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
                bounds::moments_reachable(g, &node.open(), s0, d0),
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
}
