//! The board of an n-queens *instance*: an n x n board (1 ..= 64) of either [`Geometry`] with
//! the cells a queen may stand on, a bit per column in a `u64` per row: what blocked cells and
//! pre-placed queens leave of it, and the symmetries of the square that map it onto itself.
//!
//! The exact counter of instances and the decision engine both read their instances as a
//! [`MaskedBoard`]; so does an instance's formula when it is checked against them.

use super::{Cell, Geometry, Symmetry};

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

    /// An n x n board of the given geometry with the queens of `placed` pre-placed and the
    /// cells of `forbidden` blocked ([`MaskedBoard::place`], [`MaskedBoard::block`]): the board
    /// of an instance with these fixed cells; `n` must be in `1 ..= 64`.
    ///
    /// # Panics
    /// If a cell is outside the board.
    pub fn with_cells(
        n: usize,
        geometry: Geometry,
        placed: &[Cell],
        forbidden: &[Cell],
    ) -> Result<Self, MaskedError> {
        let mut b = MaskedBoard::new(n, geometry)?;
        for &(r, c) in forbidden {
            b.block(r, c);
        }
        for &(r, c) in placed {
            b.place(r, c);
        }
        Ok(b)
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

    /// The cells a queen may stand on, row by row: entry `r` is [`MaskedBoard::allowed`]`(r)`.
    pub(crate) fn rows(&self) -> &[u64] {
        &self.allowed
    }

    /// Sets the cells row `r` offers to `mask`, whatever the rest of the board holds (for
    /// tests: a row that placing queens would not leave).
    #[cfg(test)]
    pub(crate) fn set_allowed(&mut self, r: usize, mask: u64) {
        self.allowed[r] = mask;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_detected() {
        let all = Symmetry::ALL.to_vec();
        for geometry in [Geometry::Square, Geometry::Toroidal] {
            for n in 1..=9 {
                assert_eq!(MaskedBoard::new(n, geometry).unwrap().symmetries(), all);
            }
            // One off-centre blocked cell off both diagonals: only the identity.
            let mut b = MaskedBoard::new(8, geometry).unwrap();
            b.block(2, 1);
            assert_eq!(b.symmetries(), vec![Symmetry::Identity]);
            assert!(!b.invariant_under(Symmetry::Mirror));
            // Blocked in a mirrored pair: identity and mirror only.
            b.block(2, 6);
            assert_eq!(b.symmetries(), vec![Symmetry::Identity, Symmetry::Mirror]);
            // A corner: the main diagonal reflection.
            let mut b = MaskedBoard::new(7, geometry).unwrap();
            b.block(0, 0);
            assert_eq!(
                b.symmetries(),
                vec![Symmetry::Identity, Symmetry::Transpose]
            );
            // The centre of an odd board, blocked or holding a queen: all 8.
            let mut b = MaskedBoard::new(7, geometry).unwrap();
            b.block(3, 3);
            assert_eq!(b.symmetries(), all);
            let mut b = MaskedBoard::new(7, geometry).unwrap();
            b.place(3, 3);
            assert_eq!(b.symmetries(), all);
        }
    }
}
