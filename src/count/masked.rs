//! Exact counting and listing of the solutions of n-queens *instances*, independently of any
//! SAT solver: an n x n board (1 ..= 64) of either [`Geometry`], with some cells blocked and
//! some rows fixed to one column (pre-placed queens).
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
//! ```
//! use queens_sat::check::Geometry;
//! use queens_sat::count::{count_masked, MaskedBoard};
//! let mut b = MaskedBoard::new(8, Geometry::Square).unwrap();
//! assert_eq!(count_masked(&b), 92);
//! b.place(0, 0); // a queen in the corner
//! assert_eq!(count_masked(&b), 4);
//! ```

use crate::board::Placement;
use crate::check::Geometry;
use rayon::prelude::*;

/// The largest board a [`MaskedBoard`] can hold: one bit per column in a 64-bit word.
pub const MASKED_MAX_N: usize = 64;

/// Why a [`MaskedBoard`] cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaskedError {
    /// The board size is outside `1 ..= 64`.
    #[error(
        "n = {0} is outside 1..=64: an instance board keeps one bit per column in a 64-bit word"
    )]
    Size(usize),
}

/// One of the 8 symmetries of the square (the dihedral group D4), acting on cells `(r, c)` of
/// an n x n board (0-based). Every one of them maps the lines of both geometries onto lines of
/// the same geometry, so it maps the solutions of an instance onto the solutions of the image
/// instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// `(r, c) -> (r, c)`.
    Identity,
    /// A quarter turn clockwise: `(r, c) -> (c, n-1-r)`.
    Rotate90,
    /// A half turn: `(r, c) -> (n-1-r, n-1-c)`.
    Rotate180,
    /// A quarter turn counter-clockwise: `(r, c) -> (n-1-c, r)`.
    Rotate270,
    /// Left and right swapped: `(r, c) -> (r, n-1-c)`.
    Mirror,
    /// Top and bottom swapped: `(r, c) -> (n-1-r, c)`.
    Flip,
    /// Rows and columns swapped: `(r, c) -> (c, r)`.
    Transpose,
    /// The reflection in the other diagonal: `(r, c) -> (n-1-c, n-1-r)`.
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of cell `(r, c)` of an n x n board (`r, c < n`).
    pub fn apply(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        let (rr, cc) = (n - 1 - r, n - 1 - c);
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, rr),
            Symmetry::Rotate180 => (rr, cc),
            Symmetry::Rotate270 => (cc, r),
            Symmetry::Mirror => (r, cc),
            Symmetry::Flip => (rr, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (cc, rr),
        }
    }
}

/// An n-queens instance: board size, geometry and the cells a queen may stand on.
///
/// Blocking a cell removes it; placing a queen at `(r, c)` keeps only that cell in row `r` and
/// removes from the other rows the cells that queen attacks (its column and its two diagonals
/// in the geometry), as no solution can use them. Both only ever remove cells, so the order of
/// the calls does not matter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaskedBoard {
    n: usize,
    geometry: Geometry,
    allowed: Vec<u64>,
}

/// The mask of the n columns.
fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl MaskedBoard {
    /// An n x n board of the given geometry with every cell allowed; `n` must be in `1 ..= 64`.
    pub fn new(n: usize, geometry: Geometry) -> Result<Self, MaskedError> {
        if !(1..=MASKED_MAX_N).contains(&n) {
            return Err(MaskedError::Size(n));
        }
        Ok(MaskedBoard {
            n,
            geometry,
            allowed: vec![full_mask(n); n],
        })
    }

    fn check_cell(&self, r: usize, c: usize) {
        assert!(
            r < self.n && c < self.n,
            "cell ({r}, {c}) is outside the {n} x {n} board (0-based)",
            n = self.n
        );
    }

    /// Forbids a queen on cell `(r, c)` (0-based).
    ///
    /// # Panics
    /// If the cell is outside the board.
    pub fn block(&mut self, r: usize, c: usize) {
        self.check_cell(r, c);
        self.allowed[r] &= !(1u64 << c);
    }

    /// Requires the queen of row `r` to stand in column `c` (0-based), and removes the cells
    /// that queen attacks from the other rows. Placing a queen on a blocked or attacked cell,
    /// or two queens in one row, leaves an instance without solutions.
    ///
    /// # Panics
    /// If the cell is outside the board.
    pub fn place(&mut self, r: usize, c: usize) {
        self.check_cell(r, c);
        let (n, g) = (self.n, self.geometry);
        let (d, a) = (g.diagonal(n, r, c), g.anti_diagonal(n, r, c));
        for r2 in (0..n).filter(|&r2| r2 != r) {
            for c2 in 0..n {
                if c2 == c || g.diagonal(n, r2, c2) == d || g.anti_diagonal(n, r2, c2) == a {
                    self.allowed[r2] &= !(1u64 << c2);
                }
            }
        }
        self.allowed[r] &= 1u64 << c;
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The board's geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The cells of row `r` a queen may stand on: bit `c` set when `(r, c)` is allowed.
    ///
    /// # Panics
    /// If `r` is outside the board.
    pub fn allowed(&self, r: usize) -> u64 {
        self.allowed[r]
    }

    /// `true` when a queen may stand on `(r, c)`.
    pub fn is_allowed(&self, r: usize, c: usize) -> bool {
        r < self.n && c < self.n && self.allowed[r] >> c & 1 == 1
    }

    /// The symmetries of the square that map the instance onto itself: those that map the set
    /// of allowed cells onto itself (every symmetry preserves the lines of both geometries).
    /// They map its solutions onto its solutions. The identity is always included, first.
    pub fn symmetries(&self) -> Vec<Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(|&s| self.invariant_under(s))
            .collect()
    }

    /// `true` when `s` maps the allowed cells onto themselves (it is a bijection of the cells,
    /// so mapping them into themselves is enough).
    pub fn invariant_under(&self, s: Symmetry) -> bool {
        let n = self.n;
        (0..n).all(|r| {
            (0..n).filter(|&c| self.is_allowed(r, c)).all(|c| {
                let (r2, c2) = s.apply(n, r, c);
                self.is_allowed(r2, c2)
            })
        })
    }
}

/// The search state after some rows: columns taken and the cells of the next row attacked along
/// each diagonal direction.
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

/// Counts with the given first-row columns (a subset of the allowed ones), splitting the work
/// over the first two rows.
fn count_with_first(b: &MaskedBoard, first: u64) -> u64 {
    let n = b.n;
    let full = full_mask(n);
    let torus = b.geometry == Geometry::Toroidal;
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
    let first = st0.free(b.allowed[0]) & first;
    if n == 1 {
        return u64::from(first.count_ones());
    }
    // Sub-problems: the states after the queens of rows 0 and 1.
    let subs: Vec<State> = bits(first)
        .flat_map(|b0| {
            let s1 = next(st0, b0);
            bits(s1.free(b.allowed[1])).map(move |b1| next(s1, b1))
        })
        .collect();
    if n == 2 {
        return subs.len() as u64;
    }
    subs.par_iter()
        .with_max_len(1)
        .map(|&st| {
            if torus {
                count_from::<true>(&b.allowed, 2, st, full)
            } else {
                count_from::<false>(&b.allowed, 2, st, full)
            }
        })
        .sum()
}

/// Counts the solutions of the instance exactly, on all cores. When the instance is invariant
/// under the left-right mirror, only first-row queens in the left half and the middle column
/// are searched (the left half counted twice).
pub fn count_masked(b: &MaskedBoard) -> u64 {
    let n = b.n;
    if b.invariant_under(Symmetry::Mirror) {
        // The mirror maps the solutions with the first queen in column c one to one onto
        // those with it in column n-1-c.
        let left = full_mask(n / 2);
        let middle = if n % 2 == 1 { 1u64 << (n / 2) } else { 0 };
        2 * count_with_first(b, left) + count_with_first(b, middle)
    } else {
        count_with_first(b, full_mask(n))
    }
}

/// Counts the solutions by the full search, without the symmetry shortcut (for tests).
#[cfg(test)]
pub(crate) fn count_masked_full(b: &MaskedBoard) -> u64 {
    count_with_first(b, full_mask(b.n))
}

/// The first `limit` solutions of the instance in lexicographic order of their columns (row 0
/// first), by a plain sequential backtracking.
pub fn solutions_masked(b: &MaskedBoard, limit: usize) -> Vec<Placement> {
    fn go<const TORUS: bool>(
        allowed: &[u64],
        st: State,
        full: u64,
        cols: &mut Vec<u32>,
        out: &mut Vec<Placement>,
        limit: usize,
    ) {
        let n = allowed.len();
        let row = cols.len();
        if row == n {
            out.push(Placement::new(cols.clone()));
            return;
        }
        let mut free = st.free(allowed[row]);
        while free != 0 && out.len() < limit {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            cols.push(bit.trailing_zeros());
            go::<TORUS>(
                allowed,
                st.next::<TORUS>(bit, n, full),
                full,
                cols,
                out,
                limit,
            );
            cols.pop();
        }
    }
    let mut out = Vec::new();
    if limit == 0 {
        return out;
    }
    let mut cols = Vec::with_capacity(b.n);
    let full = full_mask(b.n);
    match b.geometry {
        Geometry::Square => go::<false>(&b.allowed, State::EMPTY, full, &mut cols, &mut out, limit),
        Geometry::Toroidal => {
            go::<true>(&b.allowed, State::EMPTY, full, &mut cols, &mut out, limit)
        }
    }
    out
}
