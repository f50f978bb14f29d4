//! The interior of a constellation: the rows the border queens leave to be searched, with the
//! free columns of each and the shifts of the diagonal words between them, as the counting
//! kernel (the `kernel` module) reads them, and a plain enumeration of their completions
//! (every one, or those the half turn maps onto themselves) that the constellation split
//! uses to classify solutions and the tests use to check the kernel.

use super::bitboard::WORD_BITS;
use crate::board::Cell;

/// The size of the per-level tables of the last levels (the kernel searches at most this many
/// last levels with its complete check).
pub(super) const TAIL_MAX: usize = 8;

/// The number of last levels the kernels search with the complete check (at most
/// [`TAIL_MAX`]).
pub(super) const TAIL: usize = 6;

/// The columns of row `r` that the queens on `cells` attack (by column or diagonal), as bits:
/// the cells of row `r` that share a line with a queen in another row
/// ([`crate::board::shared_line`]), computed a row at a time with shifts.
pub(super) fn attacked(n: usize, cells: &[Cell], r: usize) -> u32 {
    let mut f = 0u32;
    for &(qr, qc) in cells {
        let d = r.abs_diff(qr);
        f |= 1 << qc;
        if qc + d < n {
            f |= 1 << (qc + d);
        }
        if qc >= d {
            f |= 1 << (qc - d);
        }
    }
    f
}

/// The interior search of one constellation: the interior rows in order, the free columns of
/// each given the border queens, and the shift of the diagonal words from each to the next.
pub(super) struct Interior {
    /// Number of interior rows (levels).
    pub(super) depth: usize,
    /// The row of each level, top down.
    pub(super) rows: [u8; WORD_BITS],
    /// The columns of each level that the border queens leave free.
    pub(super) mask: [u32; WORD_BITS],
    /// Rows from each level to the next one (2 past a border queen's row).
    pub(super) shift: [u32; WORD_BITS],
    /// n - 1.
    m: u32,
    /// The interior columns.
    pub(super) cols: u32,
    /// The last levels, by the number `R` of levels left (2 ..= [`TAIL_MAX`]): the shift from
    /// the first of them to the second.
    pub(super) tshift: [u32; TAIL_MAX + 1],
    /// `tmask[R][k]`: the mask of the level `k` below the first of the last `R` levels.
    pub(super) tmask: [[u32; TAIL_MAX]; TAIL_MAX + 1],
    /// `tdist[R][k]`: rows from the second of the last `R` levels to the level `k` below the
    /// first (so `tdist[R][1] = 0`).
    pub(super) tdist: [[u32; TAIL_MAX]; TAIL_MAX + 1],
}

impl Interior {
    /// The interior left by the border queens on `cells` (4 <= n <= 32).
    pub(super) fn of_cells(n: usize, cells: &[Cell]) -> Interior {
        let full = u32::MAX >> (WORD_BITS - n);
        let mut it = Interior {
            depth: 0,
            rows: [0; WORD_BITS],
            mask: [0; WORD_BITS],
            shift: [0; WORD_BITS],
            m: (n - 1) as u32,
            cols: full,
            tshift: [0; TAIL_MAX + 1],
            tmask: [[0; TAIL_MAX]; TAIL_MAX + 1],
            tdist: [[0; TAIL_MAX]; TAIL_MAX + 1],
        };
        for &(_, qc) in cells {
            it.cols &= !(1 << qc);
        }
        for r in 0..n {
            if cells.iter().any(|&(qr, _)| qr == r) {
                continue;
            }
            it.rows[it.depth] = r as u8;
            it.mask[it.depth] = full & !attacked(n, cells, r);
            it.depth += 1;
        }
        for i in 0..it.depth.saturating_sub(1) {
            it.shift[i] = (it.rows[i + 1] - it.rows[i]) as u32;
        }
        for left in 2..=TAIL_MAX.min(it.depth) {
            let first = it.depth - left;
            it.tshift[left] = it.shift[first];
            for k in 1..left {
                it.tmask[left][k] = it.mask[first + k];
                it.tdist[left][k] = (it.rows[first + k] - it.rows[first + 1]) as u32;
            }
        }
        it
    }

    /// The steps of an enumeration of every completion: each level on its own.
    #[cfg(test)]
    pub(super) fn all_steps(&self) -> Vec<Step> {
        (0..self.depth)
            .map(|i| Step {
                level: i,
                mirror: None,
                allow: !0,
            })
            .collect()
    }

    /// The steps of an enumeration of the completions that the half turn maps onto themselves
    /// (the constellation itself being one such): the levels of the upper half, each with the
    /// level of the mirror row, then the middle row (odd n), whose queen must be the center.
    pub(super) fn half_turn_steps(&self) -> Vec<Step> {
        let m = self.m as usize;
        let level_of = |row: usize| (0..self.depth).find(|&j| self.rows[j] as usize == row);
        let mut steps = Vec::new();
        for i in 0..self.depth {
            let r = self.rows[i] as usize;
            if 2 * r < m {
                steps.push(Step {
                    level: i,
                    mirror: level_of(m - r),
                    allow: !0,
                });
            } else if 2 * r == m {
                steps.push(Step {
                    level: i,
                    mirror: None,
                    allow: 1 << (m / 2),
                });
            }
        }
        steps
    }

    /// Calls `f` with the interior column of each level, for every completion the `steps` reach
    /// (any row order: the diagonal words are indexed by diagonal, `a` by row + column, `b` by
    /// n - 1 - row + column, `d` the columns).
    pub(super) fn each(
        &self,
        steps: &[Step],
        (a, d, b): (u64, u32, u64),
        cols: &mut [u8],
        f: &mut dyn FnMut(&[u8]),
    ) {
        let Some((step, rest)) = steps.split_first() else {
            f(cols);
            return;
        };
        let free_at = |i: usize, a: u64, d: u32, b: u64| {
            let r = self.rows[i] as u32;
            self.mask[i] & !(d | (a >> r) as u32 | (b >> (self.m - r)) as u32)
        };
        let place = |i: usize, bit: u32, a: u64, d: u32, b: u64| {
            let r = self.rows[i] as u32;
            let w = bit as u64;
            (a | (w << r), d | bit, b | (w << (self.m - r)))
        };
        let mut free = step.allow & free_at(step.level, a, d, b);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            cols[step.level] = bit.trailing_zeros() as u8;
            let mut words = place(step.level, bit, a, d, b);
            if let Some(j) = step.mirror {
                // The half turn's image of this queen, in the mirror row.
                let c = self.m - bit.trailing_zeros();
                let (a, d, b) = words;
                if free_at(j, a, d, b) & (1 << c) == 0 {
                    continue;
                }
                cols[j] = c as u8;
                words = place(j, 1 << c, a, d, b);
            }
            self.each(rest, words, cols, f);
        }
    }
}

/// One step of an enumeration: a level, the level of its mirror row when the half turn's
/// image of each queen is placed with it, and the columns allowed.
pub(super) struct Step {
    level: usize,
    mirror: Option<usize>,
    allow: u32,
}
