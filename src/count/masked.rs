//! Exact counting and listing of the solutions of n-queens *instances*, independently of any
//! SAT solver: an n x n board (1 ..= 64) of either [`Geometry`], with some cells blocked and
//! some rows fixed to one column (pre-placed queens), a [`MaskedBoard`].
//!
//! The counter is what SAT-based model counts of instances are checked against: a solution is
//! n queens, one per row, no two on a column or a diagonal of the geometry, none on a blocked
//! cell, every pre-placed queen present. The search is a bitboard backtracking row by row
//! (one bit per column in a `u64`); on the square board the diagonal masks shift by one column
//! per row, on the torus they rotate within the n columns. When the instance is invariant under
//! the left-right mirror, only the first-row queens in the left half (and the middle column) are
//! searched, the left half counted twice. Sub-problems (the queens of the first two rows) run on
//! all cores.
//!
//! When more than a tenth of the cells are blocked, the count runs on the search core it
//! shares with the decision engine ([`crate::search`]): it branches on the line, row or column,
//! with the fewest free cells (as dancing links chooses among the primary items of an exact
//! cover), keeping the free cells of each open row as the queens are placed; a line with a
//! single free cell forces its queen, a line with none ends the branch, and the free diagonals
//! are counted against the queens still to place. The first levels of the tree run on all
//! cores.
//!
//! ```
//! use queens_sat::board::{Geometry, MaskedBoard};
//! use queens_sat::count::count_masked;
//! let mut b = MaskedBoard::new(8, Geometry::Square).unwrap();
//! assert_eq!(count_masked(&b), 92);
//! b.place(0, 0); // a queen in the corner
//! assert_eq!(count_masked(&b), 4);
//! ```

use crate::board::{Geometry, MaskedBoard, Placement, Symmetry};
use crate::search;
use rayon::prelude::*;
use std::ops::ControlFlow;

/// The mask of the n columns.
fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The search state after some rows: columns taken and the cells of the next row attacked along
/// each diagonal direction. The masks are the bit form of the diagonals of
/// [`Geometry::diagonal`] and [`Geometry::anti_diagonal`], moved one column per row (wrapping
/// on the torus) instead of indexed, for the inner loop.
#[derive(Clone, Copy)]
struct State {
    cols: u64,
    /// Attacked along `\` (moves one column right per row).
    down_right: u64,
    /// Attacked along `/` (moves one column left per row).
    down_left: u64,
}

impl State {
    const EMPTY: State = State {
        cols: 0,
        down_right: 0,
        down_left: 0,
    };

    /// The state for the next row after a queen on bit `bit`.
    #[inline(always)]
    fn next<const TORUS: bool>(self, bit: u64, n: usize, full: u64) -> State {
        let dr = self.down_right | bit;
        let dl = self.down_left | bit;
        if TORUS {
            // Rotate within the n columns: column n-1 wraps to 0 and back.
            State {
                cols: self.cols | bit,
                down_right: ((dr << 1) | (dr >> (n - 1))) & full,
                down_left: ((dl >> 1) | (dl << (n - 1))) & full,
            }
        } else {
            // Bits shifted off either edge leave the board (`<<` drops bit 63 for n = 64).
            State {
                cols: self.cols | bit,
                down_right: (dr << 1) & full,
                down_left: dl >> 1,
            }
        }
    }

    #[inline(always)]
    fn free(self, allowed: u64) -> u64 {
        allowed & !(self.cols | self.down_right | self.down_left)
    }
}

/// Counts the completions of rows `row..n` from `st`.
fn count_from<const TORUS: bool>(allowed: &[u64], row: usize, st: State, full: u64) -> u64 {
    let n = allowed.len();
    let mut free = st.free(allowed[row]);
    if row + 1 == n {
        return u64::from(free.count_ones());
    }
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += count_from::<TORUS>(allowed, row + 1, st.next::<TORUS>(bit, n, full), full);
    }
    total
}

/// The two searches: rows in order with shifted diagonal masks (fastest on open boards), or
/// the row with the fewest free cells first, keeping a free mask per open row (much smaller
/// trees when many cells are blocked). Both are exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    /// Rows in order, [`State`] masks.
    RowOrder,
    /// The most constrained row first (the line search's predecessor, kept for comparisons).
    #[cfg_attr(not(test), allow(dead_code))]
    FewestFirst,
    /// The search core shared with the decision engine: the most constrained line first,
    /// rows, columns and diagonals that must hold a queen, with forced queens and the
    /// diagonal counts and sums.
    FewestLine,
}

impl Engine {
    /// Row order when at most a tenth of the cells are blocked, else the fewest line first.
    fn choose(b: &MaskedBoard) -> Engine {
        let open: usize = b.rows().iter().map(|m| m.count_ones() as usize).sum();
        if 10 * open >= 9 * b.n() * b.n() {
            Engine::RowOrder
        } else {
            Engine::FewestLine
        }
    }
}

/// The cells of row `r2` attacked by a queen at (`r`, `c`), `r2 != r`: the cells of row `r2`
/// that share a line with it ([`Geometry::shared_line`]), found by column offsets for the inner
/// loops.
#[inline(always)]
fn attacks(n: usize, torus: bool, r: usize, c: usize, r2: usize) -> u64 {
    let bit = 1u64 << c;
    let mut m = bit;
    if torus {
        // Columns c + d and c - d mod n, with d = |r2 - r| mod n.
        let d = r.abs_diff(r2) % n;
        m |= 1u64 << ((c + d) % n);
        m |= 1u64 << ((c + n - d) % n);
    } else {
        let d = r.abs_diff(r2);
        if c + d < n {
            m |= 1u64 << (c + d);
        }
        if d <= c {
            m |= 1u64 << (c - d);
        }
    }
    m
}

/// Counts the completions when the rows of `open` and the columns of `cols` (a bit each) are
/// still to be filled, each open row `r` with the free cells `free[r]` (already cleared of the
/// attacks of the queens placed). Branches on the open row with the fewest free cells, unless
/// an open column has a single free cell left, which is then forced; stops when an open row or
/// an open column has none.
fn count_fewest(n: usize, torus: bool, free: &[u64; 64], open: u64, cols: u64) -> u64 {
    if open == 0 {
        return 1;
    }
    let (mut best, mut best_k) = (0, u32::MAX);
    // Columns free in at least one open row, in at least two.
    let (mut ones, mut twos) = (0u64, 0u64);
    let mut o = open;
    while o != 0 {
        let r = o.trailing_zeros() as usize;
        o &= o - 1;
        let f = free[r];
        let k = f.count_ones();
        if k < best_k {
            (best, best_k) = (r, k);
            if k == 0 {
                return 0;
            }
        }
        twos |= ones & f;
        ones |= f;
    }
    if cols & !ones != 0 {
        return 0;
    }
    if open.count_ones() == 1 {
        return u64::from(best_k);
    }
    let single = cols & !twos;
    if best_k > 1 && single != 0 {
        // The column's only free cell must hold its queen.
        let c = single.trailing_zeros() as usize;
        let mut o = open;
        while o != 0 {
            let r = o.trailing_zeros() as usize;
            o &= o - 1;
            if free[r] >> c & 1 == 1 {
                return count_placed(n, torus, free, open, cols, r, c);
            }
        }
        unreachable!("column {c} is free in some open row");
    }
    let mut total = 0;
    let mut cells = free[best];
    while cells != 0 {
        let c = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        total += count_placed(n, torus, free, open, cols, best, c);
    }
    total
}

/// [`count_fewest`] after a queen at (`r`, `c`), a free cell of an open row.
#[inline(always)]
fn count_placed(
    n: usize,
    torus: bool,
    free: &[u64; 64],
    open: u64,
    cols: u64,
    r: usize,
    c: usize,
) -> u64 {
    let rest = open & !(1u64 << r);
    let mut next = *free;
    let mut o = rest;
    while o != 0 {
        let r2 = o.trailing_zeros() as usize;
        o &= o - 1;
        next[r2] &= !attacks(n, torus, r, c, r2);
    }
    count_fewest(n, torus, &next, rest, cols & !(1u64 << c))
}

/// Counts the solutions of `board` with the core, row 0 restricted to `first`, on the current
/// rayon pool.
fn count_core(board: &MaskedBoard, first: u64) -> u64 {
    let g = search::Geo::new(board.n(), board.geometry());
    let n = board.n();
    let allowed: Vec<u64> = (0..n).map(|r| board.allowed(r)).collect();
    let mut root = search::Node::root(g, &allowed);
    root.restrict_row(0, first);
    let watch = search::Watch::new();
    let mut counted = search::Counting::default();
    let _ = search::Walker::new(g, search::Reasoning::COUNTING, &watch).run(&mut counted, root);
    counted.0
}

/// Counts with the given first-row columns (a subset of the allowed ones), splitting the work
/// over the choices of the first two rows (the search core splits its own tree).
fn count_with_first(b: &MaskedBoard, first: u64, engine: Engine) -> u64 {
    let n = b.n();
    if engine == Engine::FewestLine {
        return count_core(b, first);
    }
    let full = full_mask(n);
    let torus = b.geometry() == Geometry::Toroidal;
    let st0 = State::EMPTY;
    let next = |st: State, bit: u64| {
        if torus {
            st.next::<true>(bit, n, full)
        } else {
            st.next::<false>(bit, n, full)
        }
    };
    let bits = |mut m: u64| {
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let bit = m & m.wrapping_neg();
                m ^= bit;
                bit
            })
        })
    };
    let first = st0.free(b.rows()[0]) & first;
    if n == 1 {
        return u64::from(first.count_ones());
    }
    // Sub-problems: the queens of rows 0 and 1, as bits.
    let subs: Vec<(u64, u64)> = bits(first)
        .flat_map(|b0| bits(next(st0, b0).free(b.rows()[1])).map(move |b1| (b0, b1)))
        .collect();
    if n == 2 {
        return subs.len() as u64;
    }
    subs.par_iter()
        .with_max_len(1)
        .map(|&(b0, b1)| match engine {
            Engine::RowOrder => {
                let st = next(next(st0, b0), b1);
                if torus {
                    count_from::<true>(b.rows(), 2, st, full)
                } else {
                    count_from::<false>(b.rows(), 2, st, full)
                }
            }
            Engine::FewestFirst | Engine::FewestLine => {
                let (c0, c1) = (b0.trailing_zeros() as usize, b1.trailing_zeros() as usize);
                let mut free = [0u64; 64];
                for (r, (f, &a)) in free.iter_mut().zip(b.rows()).enumerate().skip(2) {
                    *f = a & !attacks(n, torus, 0, c0, r) & !attacks(n, torus, 1, c1, r);
                }
                count_fewest(n, torus, &free, full & !3, full & !(b0 | b1))
            }
        })
        .sum()
}

/// Counts the solutions of the instance exactly, on all cores. When the instance is invariant
/// under the left-right mirror, only first-row queens in the left half and the middle column
/// are searched (the left half counted twice).
pub fn count_masked(b: &MaskedBoard) -> u64 {
    count_masked_with(b, Engine::choose(b), true)
}

/// Counts with the given search, with or without the mirror shortcut.
pub(crate) fn count_masked_with(b: &MaskedBoard, engine: Engine, shortcut: bool) -> u64 {
    let n = b.n();
    if shortcut && b.invariant_under(Symmetry::Mirror) {
        // The mirror maps the solutions with the first queen in column c one to one onto
        // those with it in column n-1-c.
        let left = full_mask(n / 2);
        let middle = if n % 2 == 1 { 1u64 << (n / 2) } else { 0 };
        2 * count_with_first(b, left, engine) + count_with_first(b, middle, engine)
    } else {
        count_with_first(b, full_mask(n), engine)
    }
}

/// Counts the solutions by the full search, without the symmetry shortcut (for tests).
#[cfg(test)]
pub(crate) fn count_masked_full(b: &MaskedBoard) -> u64 {
    count_masked_with(b, Engine::choose(b), false)
}

/// How many solutions of the instance put a queen on each cell: entry `r * n + c` (0-based)
/// counts the solutions with the queen of row `r` in column `c`. One exact count per allowed
/// cell ([`count_masked`] with that queen placed), so each row sums to the number of
/// solutions. A cell's count needs about `1/n` of the work of the whole count: the pass costs
/// about `n` whole counts.
///
/// ```
/// use queens_sat::board::{Geometry, MaskedBoard};
/// use queens_sat::count::cell_counts;
/// let counts = cell_counts(&MaskedBoard::new(4, Geometry::Square).unwrap());
/// assert_eq!(&counts[..4], &[0, 1, 1, 0]);
/// ```
pub fn cell_counts(b: &MaskedBoard) -> Vec<u64> {
    let n = b.n();
    let mut out = vec![0; n * n];
    for r in 0..n {
        for c in (0..n).filter(|&c| b.is_allowed(r, c)) {
            let mut one = b.clone();
            one.place(r, c);
            out[r * n + c] = count_masked(&one);
        }
    }
    out
}

/// The first `limit` solutions of the instance in lexicographic order of their columns (row 0
/// first), by a plain sequential backtracking.
pub fn solutions_masked(b: &MaskedBoard, limit: usize) -> Vec<Placement> {
    let mut out = Vec::new();
    if limit == 0 {
        return out;
    }
    for_each_solution_masked(b, |p| {
        out.push(p.clone());
        if out.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    out
}

/// Calls `f` with every solution of the instance in lexicographic order of their columns (row 0
/// first), streaming (memory O(n)), until `f` breaks. Returns `true` when every solution was
/// visited.
pub fn for_each_solution_masked(
    b: &MaskedBoard,
    mut f: impl FnMut(&Placement) -> ControlFlow<()>,
) -> bool {
    fn go<const TORUS: bool>(
        allowed: &[u64],
        st: State,
        full: u64,
        cols: &mut Vec<u32>,
        f: &mut dyn FnMut(&Placement) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let n = allowed.len();
        let row = cols.len();
        if row == n {
            return f(&Placement::new(cols.clone()));
        }
        let mut free = st.free(allowed[row]);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            cols.push(bit.trailing_zeros());
            let flow = go::<TORUS>(allowed, st.next::<TORUS>(bit, n, full), full, cols, f);
            cols.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }
    let mut cols = Vec::with_capacity(b.n());
    let full = full_mask(b.n());
    let flow = match b.geometry() {
        Geometry::Square => go::<false>(b.rows(), State::EMPTY, full, &mut cols, &mut f),
        Geometry::Toroidal => go::<true>(b.rows(), State::EMPTY, full, &mut cols, &mut f),
    };
    flow.is_continue()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::check_placement_on;
    use std::collections::BTreeSet;

    /// splitmix64: a small seeded generator, so the tests are reproducible.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, k: usize) -> usize {
            (self.next() % k as u64) as usize
        }
        /// `true` with probability `pct` percent.
        fn chance(&mut self, pct: u64) -> bool {
            self.next() % 100 < pct
        }
    }

    /// An instance as lists of what was asked for, for the brute force, next to the board.
    struct Spec {
        n: usize,
        geometry: Geometry,
        blocked: Vec<(usize, usize)>,
        placed: Vec<(usize, usize)>,
    }

    impl Spec {
        fn board(&self) -> MaskedBoard {
            let mut b = MaskedBoard::new(self.n, self.geometry).unwrap();
            for &(r, c) in &self.blocked {
                b.block(r, c);
            }
            for &(r, c) in &self.placed {
                b.place(r, c);
            }
            b
        }

        /// A random instance: each cell blocked with probability `density` percent, then
        /// `queens` random pre-placed queens (possibly conflicting).
        fn random(
            rng: &mut Rng,
            n: usize,
            geometry: Geometry,
            density: u64,
            queens: usize,
        ) -> Spec {
            let mut blocked = Vec::new();
            for r in 0..n {
                for c in 0..n {
                    if rng.chance(density) {
                        blocked.push((r, c));
                    }
                }
            }
            let placed = (0..queens).map(|_| (rng.below(n), rng.below(n))).collect();
            Spec {
                n,
                geometry,
                blocked,
                placed,
            }
        }

        /// All solutions in lexicographic order: every permutation of the columns, kept when
        /// the checker accepts it on the geometry, it avoids the blocked cells and it holds
        /// every pre-placed queen.
        fn brute_force(&self) -> Vec<Vec<u32>> {
            crate::encode::torus_oracle::permutations(self.n)
                .into_iter()
                .map(|p| p.into_iter().map(|c| c as u32).collect::<Vec<u32>>())
                .filter(|p| {
                    check_placement_on(&Placement::new(p.clone()), self.geometry).is_ok()
                        && self.blocked.iter().all(|&(r, c)| p[r] as usize != c)
                        && self.placed.iter().all(|&(r, c)| p[r] as usize == c)
                })
                .collect()
        }
    }

    fn cols(ps: &[Placement]) -> Vec<Vec<u32>> {
        ps.iter().map(|p| p.cols().to_vec()).collect()
    }

    fn check_against_brute_force(spec: &Spec, what: &str) {
        let want = spec.brute_force();
        let b = spec.board();
        assert_eq!(count_masked(&b), want.len() as u64, "count, {what}");
        assert_eq!(
            count_masked_full(&b),
            want.len() as u64,
            "full count, {what}"
        );
        assert_eq!(
            cols(&solutions_masked(&b, usize::MAX)),
            want,
            "solutions, {what}"
        );
        let k = want.len() / 2;
        assert_eq!(
            cols(&solutions_masked(&b, k)),
            want[..k],
            "first {k}, {what}"
        );
    }

    #[test]
    fn random_instances_match_brute_force() {
        let mut rng = Rng(0x5EED_0001);
        let mut nonzero = 0;
        for n in 1..=8 {
            for geometry in [Geometry::Square, Geometry::Toroidal] {
                for density in [0, 5, 15, 30, 60] {
                    for queens in 0..3 {
                        let reps = if n <= 6 { 6 } else { 2 };
                        for _ in 0..reps {
                            let spec = Spec::random(&mut rng, n, geometry, density, queens);
                            let what = format!(
                                "n = {n}, {geometry:?}, blocked {:?}, placed {:?}",
                                spec.blocked, spec.placed
                            );
                            check_against_brute_force(&spec, &what);
                            nonzero += usize::from(count_masked(&spec.board()) > 0);
                        }
                    }
                }
            }
        }
        // The instances are not all trivial.
        assert!(nonzero > 100, "only {nonzero} instances with solutions");
    }

    /// A random instance invariant under the mirror: cells blocked in pairs (r, c), (r, n-1-c),
    /// queens placed in the middle column.
    fn mirror_symmetric(rng: &mut Rng, n: usize, geometry: Geometry, density: u64) -> Spec {
        let mut spec = Spec::random(rng, n, geometry, density, 0);
        let pairs: Vec<_> = spec.blocked.iter().map(|&(r, c)| (r, n - 1 - c)).collect();
        spec.blocked.extend(pairs);
        if n % 2 == 1 && rng.chance(30) {
            spec.placed.push((rng.below(n), n / 2));
        }
        spec
    }

    #[test]
    fn mirror_symmetric_instances_match_brute_force_and_full_search() {
        let mut rng = Rng(0x5EED_0002);
        for n in 1..=8 {
            for geometry in [Geometry::Square, Geometry::Toroidal] {
                for density in [0, 5, 15, 30] {
                    for _ in 0..4 {
                        let spec = mirror_symmetric(&mut rng, n, geometry, density);
                        let b = spec.board();
                        assert!(b.symmetries().contains(&Symmetry::Mirror), "n = {n}");
                        let what = format!("n = {n}, {geometry:?}, blocked {:?}", spec.blocked);
                        check_against_brute_force(&spec, &what);
                    }
                }
            }
        }
        // Larger boards: the shortcut against the full search only.
        for n in 9..=12 {
            for geometry in [Geometry::Square, Geometry::Toroidal] {
                for density in [0, 5, 15] {
                    let b = mirror_symmetric(&mut rng, n, geometry, density).board();
                    assert!(b.invariant_under(Symmetry::Mirror));
                    let full = count_masked_full(&b);
                    assert_eq!(count_masked(&b), full, "n = {n}");
                    for engine in [Engine::RowOrder, Engine::FewestFirst, Engine::FewestLine] {
                        assert_eq!(count_masked_with(&b, engine, true), full, "n = {n}");
                    }
                }
            }
        }
    }

    #[test]
    fn symmetries_map_solutions_onto_solutions() {
        let mut rng = Rng(0x5EED_0003);
        let mut seen_nontrivial = 0;
        for n in 4..=8 {
            for geometry in [Geometry::Square, Geometry::Toroidal] {
                for _ in 0..30 {
                    // Few blocked cells, often symmetric ones, so some instances keep symmetries.
                    let mut spec = Spec::random(&mut rng, n, geometry, 3, 0);
                    let s = Symmetry::ALL[rng.below(8)];
                    let images: Vec<_> = spec
                        .blocked
                        .iter()
                        .map(|&(r, c)| s.apply(n, r, c))
                        .collect();
                    spec.blocked.extend(images);
                    let sols: BTreeSet<Vec<u32>> = spec.brute_force().into_iter().collect();
                    let b = spec.board();
                    for g in b.symmetries() {
                        seen_nontrivial += usize::from(g != Symmetry::Identity);
                        let mapped: BTreeSet<Vec<u32>> = sols
                            .iter()
                            .map(|p| {
                                let mut q = vec![0u32; n];
                                for (r, &c) in p.iter().enumerate() {
                                    let (r2, c2) = g.apply(n, r, c as usize);
                                    q[r2] = c2 as u32;
                                }
                                q
                            })
                            .collect();
                        assert_eq!(mapped, sols, "n = {n}, {geometry:?}, {g:?}");
                    }
                }
            }
        }
        assert!(seen_nontrivial > 50);
    }

    #[test]
    fn larger_random_instances_list_valid_distinct_solutions() {
        let mut rng = Rng(0x5EED_0004);
        for &(n, density) in &[(12, 20), (16, 45), (24, 65), (28, 75)] {
            for geometry in [Geometry::Square, Geometry::Toroidal] {
                let spec = Spec::random(&mut rng, n, geometry, density, 0);
                let b = spec.board();
                let count = count_masked(&b);
                assert_eq!(count, count_masked_full(&b));
                if count > 200_000 {
                    continue;
                }
                let sols = solutions_masked(&b, usize::MAX);
                assert_eq!(sols.len() as u64, count, "n = {n}, {geometry:?}");
                for (i, p) in sols.iter().enumerate() {
                    assert!(check_placement_on(p, geometry).is_ok(), "{p:?}");
                    for &(r, c) in &spec.blocked {
                        assert_ne!(p.col(r), c, "queen on blocked ({r},{c})");
                    }
                    if i > 0 {
                        assert!(sols[i - 1] < *p, "not in lexicographic order");
                    }
                }
            }
        }
    }

    #[test]
    fn line_search_matches_brute_force_on_sparse_instances() {
        let mut rng = Rng(0x5EED_0005);
        let mut nonzero = 0;
        for n in 1..=8 {
            for geometry in [Geometry::Square, Geometry::Toroidal] {
                for density in [40, 55, 70, 85] {
                    for queens in 0..2 {
                        for _ in 0..6 {
                            let spec = Spec::random(&mut rng, n, geometry, density, queens);
                            let want = spec.brute_force().len() as u64;
                            let b = spec.board();
                            for shortcut in [false, true] {
                                assert_eq!(
                                    count_masked_with(&b, Engine::FewestLine, shortcut),
                                    want,
                                    "n = {n}, {geometry:?}, blocked {:?}, placed {:?}",
                                    spec.blocked,
                                    spec.placed
                                );
                            }
                            nonzero += usize::from(want > 0);
                        }
                    }
                }
            }
        }
        assert!(nonzero > 40, "only {nonzero} instances with solutions");
    }

    #[test]
    fn line_search_matches_the_row_searches_on_larger_sparse_boards() {
        let mut rng = Rng(0x5EED_0006);
        let mut nonzero = 0;
        for (n, density) in [
            (20, 70),
            (22, 80),
            (24, 70),
            (26, 70),
            (28, 72),
            (30, 75),
            (30, 85),
        ] {
            for geometry in [Geometry::Square, Geometry::Toroidal] {
                let b = Spec::random(&mut rng, n, geometry, density, 0).board();
                let want = count_masked_with(&b, Engine::FewestFirst, false);
                assert_eq!(
                    count_masked_with(&b, Engine::FewestLine, false),
                    want,
                    "n = {n}, {geometry:?}, {density}%"
                );
                assert_eq!(count_masked(&b), want, "n = {n}, {geometry:?}, {density}%");
                if n <= 22 {
                    let rows = count_masked_with(&b, Engine::RowOrder, false);
                    assert_eq!(rows, want, "n = {n}, {geometry:?}, {density}%");
                }
                nonzero += usize::from(want > 0);
            }
        }
        assert!(nonzero >= 3, "only {nonzero} boards with solutions");
    }

    #[test]
    fn the_largest_boards() {
        // A solution of the 64 x 64 board (n mod 6 = 4): (i, 2i+1) and (32+i, 2i).
        let n = 64;
        let sol: Vec<u32> = (0..32)
            .map(|i| 2 * i + 1)
            .chain((0..32).map(|i| 2 * i))
            .collect();
        let p = Placement::new(sol.clone());
        assert!(check_placement_on(&p, Geometry::Square).is_ok());
        let mut b = MaskedBoard::new(n, Geometry::Square).unwrap();
        for (r, &c) in sol.iter().enumerate() {
            for c2 in (0..n).filter(|&c2| c2 != c as usize) {
                b.block(r, c2);
            }
        }
        assert_eq!(count_masked(&b), 1);
        assert_eq!(solutions_masked(&b, 5), vec![p]);
        // Column 63 and the diagonals through it are not lost: the same with every queen
        // placed instead.
        let mut b = MaskedBoard::new(n, Geometry::Square).unwrap();
        for (r, &c) in sol.iter().enumerate() {
            b.place(r, c as usize);
        }
        assert_eq!(count_masked(&b), 1);
        // Two queens on one diagonal of the 64 x 64 board, through column 63: none.
        let mut b = MaskedBoard::new(n, Geometry::Square).unwrap();
        b.place(0, 62);
        b.set_allowed(1, 1 << 63);
        assert_eq!(count_masked(&b), 0);
        // The torus: queens (r, 2r mod 61) form a solution; the only one on those cells.
        let n = 61;
        let mut b = MaskedBoard::new(n, Geometry::Toroidal).unwrap();
        for r in 0..n {
            for c in (0..n).filter(|&c| c != 2 * r % n) {
                b.block(r, c);
            }
        }
        let got = solutions_masked(&b, 2);
        assert_eq!(got.len(), 1);
        assert!(check_placement_on(&got[0], Geometry::Toroidal).is_ok());
        assert_eq!(count_masked(&b), 1);
        // On the 64-column torus a queen at column 63 attacks column 0 of the next row.
        let mut b = MaskedBoard::new(64, Geometry::Toroidal).unwrap();
        b.place(0, 63);
        assert!(!b.is_allowed(1, 0) && !b.is_allowed(1, 62) && b.is_allowed(1, 1));
        // And the search sees it: row 1 offered only column 0 (the rows below do not matter).
        b.set_allowed(1, 1);
        assert_eq!(count_masked(&b), 0);
        assert!(solutions_masked(&b, 1).is_empty());
    }
}
