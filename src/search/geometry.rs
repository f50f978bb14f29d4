//! The board as the search sees it: its size and geometry (square or torus), with the bit
//! arithmetic of its lines. A row's free cells are a bit per column in a `u64`; the diagonals
//! of a direction are a bit each in a `u128`: `r + c` (`/`) and `c - r + n - 1` (`\`) on the
//! square board (0 ..= 2n - 2), the same modulo n on the torus. [`Geo`] moves between them: the
//! cells of a row a queen attacks, the diagonals of a row's cells, the cell of a row on a
//! diagonal, and how far a line lies from the middle of the board.

use crate::board::Geometry;

/// The largest board: one bit per column in a `u64`, one bit per diagonal in a `u128`.
pub(crate) const MAX: usize = 64;

/// The board the search runs on: size and geometry, with the bit arithmetic of its lines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geo {
    /// The board size, 1 ..= [`MAX`].
    pub(super) n: usize,
    /// Whether the board is the torus.
    pub(super) torus: bool,
}

impl Geo {
    /// The board of size `n` (1 ..= [`MAX`]) and `geometry`.
    pub fn new(n: usize, geometry: Geometry) -> Geo {
        assert!((1..=MAX).contains(&n), "n = {n} is outside 1..={MAX}");
        Geo {
            n,
            torus: geometry == Geometry::Toroidal,
        }
    }

    /// The n low bits.
    #[inline(always)]
    pub(super) fn full(self) -> u128 {
        (1u128 << self.n) - 1
    }

    /// The cells of row `r2` attacked by a queen at (`r`, `c`), `r2 != r`.
    #[inline(always)]
    pub(super) fn attacks(self, r: usize, c: usize, r2: usize) -> u64 {
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
    pub(super) fn sums(self, r: usize, f: u64) -> u128 {
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
    pub(super) fn diffs(self, r: usize, f: u64) -> u128 {
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
    pub(super) fn sum_col(self, r: usize, s: usize) -> Option<usize> {
        if self.torus {
            Some((s + self.n - r) % self.n)
        } else {
            s.checked_sub(r).filter(|&c| c < self.n)
        }
    }

    /// The column of row `r` on `\` diagonal `t`, if the diagonal crosses the row.
    #[inline(always)]
    pub(super) fn diff_col(self, r: usize, t: usize) -> Option<usize> {
        if self.torus {
            Some((t + r) % self.n)
        } else {
            (t + r).checked_sub(self.n - 1).filter(|&c| c < self.n)
        }
    }

    /// How far line `x` (a row or a column) lies from the middle of the board, doubled:
    /// `|2x - (n - 1)|`.
    #[inline(always)]
    pub(super) fn off_middle(self, x: usize) -> u32 {
        (2 * x).abs_diff(self.n - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
