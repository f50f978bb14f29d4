//! The split of the count by *constellations* (the border-queen pre-placement of the Q27
//! project): every solution (n >= 4) has exactly one queen in each border line (row 0, row n-1,
//! column 0, column n-1; a corner queen serves two). These 2 to 4 border queens are placed
//! first; of each symmetry class of such constellations only one is kept (the image whose first
//! n/2 interior rows the border queens block most, see [`constellations`]), with the size of its
//! orbit, and the interior rows are then searched top down with the border queens' columns and
//! diagonals blocked in every row (one mask per row) by the kernel of the `kernel` module.
//!
//! The total is the sum over kept constellations of orbit size times interior completions. A
//! symmetry that fixes a solution fixes its constellation, and only rotations can fix a
//! solution (a reflection would put two queens in one line). So the completions of a
//! constellation the half turn does not fix are all in classes of 8; for the few it fixes, the
//! completions the half turn fixes too are enumerated separately (queens placed in pairs, a
//! small search) and tested for the quarter turn.

use super::kernel::{self, TAIL_MAX};
use super::search::WORD_BITS;
use super::split::ClassCounts;

/// One constellation: the columns of the row-0 and row-(n-1) queens, the rows of the
/// column-0 and column-(n-1) queens, and the symmetries fixing it (bits 1..=7: the three turns,
/// then the mirrors left-right, in the main diagonal, top-bottom, in the anti-diagonal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constellation {
    /// Column of the queen in row 0.
    pub top: u8,
    /// Column of the queen in row n-1.
    pub bottom: u8,
    /// Row of the queen in column 0.
    pub left: u8,
    /// Row of the queen in column n-1.
    pub right: u8,
    /// Bit g set if symmetry g (1..=7) maps the constellation onto itself.
    pub stab: u8,
}

/// The image of cell (r, c) under symmetry g of the square (0 is the identity).
fn map(g: usize, m: usize, r: usize, c: usize) -> (usize, usize) {
    match g {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (c, r),
        6 => (m - r, c),
        _ => (m - c, m - r),
    }
}

impl Constellation {
    /// The border queens as sorted cells, deduplicated (a corner queen counts once).
    fn cells(&self, n: usize) -> Vec<(usize, usize)> {
        let m = n - 1;
        let mut v = vec![
            (0, self.top as usize),
            (m, self.bottom as usize),
            (self.left as usize, 0),
            (self.right as usize, m),
        ];
        v.sort();
        v.dedup();
        v
    }

    /// The number of constellations in this one's orbit.
    pub fn orbit(&self) -> u64 {
        8 / (1 + self.stab.count_ones() as u64)
    }
}

/// Whether two queens attack each other (same row, column or diagonal), distinct cells.
fn attack(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

/// The columns of row `r` that the queens on `cells` attack (by column or diagonal).
fn attacked(n: usize, cells: &[(usize, usize)], r: usize) -> u32 {
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

/// The image of `cells` under symmetry `g` of the board (m = n - 1), sorted.
fn image(g: usize, m: usize, cells: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut img: Vec<(usize, usize)> = cells.iter().map(|&(r, c)| map(g, m, r, c)).collect();
    img.sort();
    img
}

/// The preference among the images of a constellation (the smallest key is searched): the
/// product of the numbers of cells the border queens leave free in the first n/2 interior rows,
/// an estimate of the size of the upper half of the search tree.
fn key(n: usize, cells: &[(usize, usize)]) -> u128 {
    let m = n - 1;
    let mut prod = 1u128;
    let mut seen = 0;
    for k in 1..m {
        if seen == n / 2 {
            break;
        }
        if cells.iter().any(|c| c.0 == k) {
            continue;
        }
        prod *= (n - attacked(n, cells, k).count_ones() as usize) as u128;
        seen += 1;
    }
    prod
}

/// An estimate of the cost of searching constellation `c`'s interior: the product of the
/// numbers of cells its border queens leave free in the first n/2 interior rows (the key
/// [`constellations`] orders images by). What shards are balanced on.
pub(crate) fn estimated_cost(n: usize, c: &Constellation) -> u128 {
    key(n, &c.cells(n))
}

/// The canonical constellations of board size `n` (4 <= n <= 32): one per symmetry class, the
/// image with the smallest key (then the smallest sorted cells), in the order in which the
/// classes are first met (top, bottom, left and right position ascending, in that nesting).
pub fn constellations(n: usize) -> Vec<Constellation> {
    assert!((4..=WORD_BITS).contains(&n));
    let m = n - 1;
    let index = |c: &Constellation| {
        ((c.top as usize * n + c.bottom as usize) * n + c.left as usize) * n + c.right as usize
    };
    // Members of the classes already met.
    let mut seen = vec![false; n * n * n * n];
    let mut out = Vec::new();
    for top in 0..n {
        for bottom in 0..n {
            if attack((0, top), (m, bottom)) {
                continue;
            }
            for left in 0..n {
                for right in 0..n {
                    // Corner queens are shared by two border lines.
                    if (top == 0) != (left == 0)
                        || (top == m) != (right == 0)
                        || (bottom == 0) != (left == m)
                        || (bottom == m) != (right == m)
                    {
                        continue;
                    }
                    let c = Constellation {
                        top: top as u8,
                        bottom: bottom as u8,
                        left: left as u8,
                        right: right as u8,
                        stab: 0,
                    };
                    if seen[index(&c)] {
                        continue;
                    }
                    let cells = c.cells(n);
                    let ok = cells
                        .iter()
                        .enumerate()
                        .all(|(i, &a)| cells[i + 1..].iter().all(|&b| !attack(a, b)));
                    if !ok {
                        continue;
                    }
                    // The class: the 8 images (some equal), each marked as met.
                    let images: Vec<Vec<(usize, usize)>> =
                        (0..8).map(|g| image(g, m, &cells)).collect();
                    let best = images
                        .iter()
                        .min_by_key(|img| (key(n, img), *img))
                        .expect("8 images");
                    let mut stab = 0u8;
                    for (g, img) in images.iter().enumerate() {
                        seen[index(&of_cells(n, img))] = true;
                        // The symmetries of the kept image (conjugate to those of `c`).
                        if g > 0 && image(g, m, best) == *best {
                            stab |= 1 << g;
                        }
                    }
                    out.push(Constellation {
                        stab,
                        ..of_cells(n, best)
                    });
                }
            }
        }
    }
    out
}

/// The constellation whose border queens are `cells` (no symmetry recorded).
fn of_cells(n: usize, cells: &[(usize, usize)]) -> Constellation {
    let m = n - 1;
    let find = |on: &dyn Fn(&(usize, usize)) -> bool, pick: fn(&(usize, usize)) -> usize| {
        cells
            .iter()
            .find(|x| on(x))
            .map(pick)
            .expect("a queen on every border line") as u8
    };
    Constellation {
        top: find(&|x| x.0 == 0, |x| x.1),
        bottom: find(&|x| x.0 == m, |x| x.1),
        left: find(&|x| x.1 == 0, |x| x.0),
        right: find(&|x| x.1 == m, |x| x.0),
        stab: 0,
    }
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
    fn new(n: usize, c: &Constellation) -> Interior {
        Interior::of_cells(n, &c.cells(n))
    }

    fn of_cells(n: usize, cells: &[(usize, usize)]) -> Interior {
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

    /// The number of completions.
    fn count(&self) -> u64 {
        kernel::count(self)
    }

    /// The steps of an enumeration of every completion: each level on its own.
    #[cfg(test)]
    fn all_steps(&self) -> Vec<Step> {
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
    fn half_turn_steps(&self) -> Vec<Step> {
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
    fn each(
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
struct Step {
    level: usize,
    mirror: Option<usize>,
    allow: u32,
}

/// The classes of the solutions whose constellation is in the orbit of `c` (a canonical
/// constellation), by size.
pub fn solve(n: usize, c: &Constellation) -> ClassCounts {
    let it = Interior::new(n, c);
    let total = it.count();
    let orbit = c.orbit();
    // Only rotations can fix a solution (a reflection would put two queens in one line), and
    // the quarter turn only if the half turn does. A completion's symmetries are among the
    // constellation's, so without the half turn every class has 8 members.
    if c.stab & HALF_TURN == 0 {
        return ClassCounts {
            of8: orbit * total / 8,
            ..ClassCounts::default()
        };
    }
    let m = n - 1;
    let mut sol = [0usize; WORD_BITS];
    for &(r, col) in &c.cells(n) {
        sol[r] = col;
    }
    // The completions the half turn fixes, and among them those the quarter turn fixes.
    let (mut half, mut quarter) = (0u64, 0u64);
    let mut cols = [0u8; WORD_BITS];
    it.each(
        &it.half_turn_steps(),
        (0, 0, 0),
        &mut cols[..it.depth],
        &mut |cs| {
            half += 1;
            if c.stab & QUARTER_TURN != 0 {
                let mut s = sol;
                for (k, &col) in cs.iter().enumerate() {
                    s[it.rows[k] as usize] = col as usize;
                }
                if (0..n).all(|r| {
                    let (ir, ic) = map(1, m, r, s[r]);
                    s[ir] == ic
                }) {
                    quarter += 1;
                }
            }
        },
    );
    // Completions fixed by 1, 2 (half turn) and 4 (all rotations) symmetries form classes of
    // 8, 4 and 2: orbit * completions / class size of them.
    ClassCounts {
        of8: orbit * (total - half) / 8,
        of4: orbit * (half - quarter) / 4,
        of2: orbit * quarter / 2,
    }
}

/// Bit of the quarter turn in [`Constellation::stab`].
const QUARTER_TURN: u8 = 1 << 1;
/// Bit of the half turn in [`Constellation::stab`].
const HALF_TURN: u8 = 1 << 2;

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel's count of every constellation's interior equals the number of completions
    /// the enumeration `each` visits (indexed diagonal words, no look-ahead, no pruning beyond
    /// the attacks), for both compiled kernels; the interiors range over every depth from 2 to
    /// n - 2 and every position of the skipped rows.
    #[test]
    fn kernel_counts_equal_enumerated_completions() {
        for n in 4..=12 {
            for c in constellations(n) {
                let it = Interior::new(n, &c);
                let mut enumerated = 0u64;
                let mut cols = [0u8; WORD_BITS];
                it.each(
                    &it.all_steps(),
                    (0, 0, 0),
                    &mut cols[..it.depth],
                    &mut |_| enumerated += 1,
                );
                assert_eq!(it.count(), enumerated, "n = {n}, {c:?}");
                assert_eq!(kernel::count_plain(&it), enumerated, "n = {n}, {c:?}");
            }
        }
    }

    /// The half-turn enumeration yields exactly the completions, among all, that the half turn
    /// maps onto themselves, for every constellation the half turn fixes.
    #[test]
    fn half_turn_enumeration_finds_exactly_the_fixed_completions() {
        let mut seen_symmetric = 0;
        for n in 4..=13 {
            let m = n - 1;
            for c in constellations(n)
                .into_iter()
                .filter(|c| c.stab & HALF_TURN != 0)
            {
                let it = Interior::new(n, &c);
                let rows: Vec<usize> = (0..it.depth).map(|k| it.rows[k] as usize).collect();
                let fixed = |cs: &[u8]| {
                    let mut s = vec![usize::MAX; n];
                    for (r, col) in c.cells(n) {
                        s[r] = col;
                    }
                    for (k, &col) in cs.iter().enumerate() {
                        s[rows[k]] = col as usize;
                    }
                    (0..n).all(|r| s[m - r] == m - s[r])
                };
                let mut cols = [0u8; WORD_BITS];
                let mut expected = Vec::new();
                it.each(
                    &it.all_steps(),
                    (0, 0, 0),
                    &mut cols[..it.depth],
                    &mut |cs| {
                        if fixed(cs) {
                            expected.push(cs.to_vec());
                        }
                    },
                );
                let mut found = Vec::new();
                it.each(
                    &it.half_turn_steps(),
                    (0, 0, 0),
                    &mut cols[..it.depth],
                    &mut |cs| found.push(cs.to_vec()),
                );
                found.sort();
                expected.sort();
                assert_eq!(found, expected, "n = {n}, {c:?}");
                seen_symmetric += expected.len();
            }
        }
        // The comparison is not vacuous.
        assert!(seen_symmetric > 0);
    }

    /// The constellations are one per class: their orbits add up to every valid border
    /// placement (counted here by brute force), and the images of each are not kept again.
    #[test]
    fn one_constellation_per_class() {
        for n in 4..=14 {
            let m = n - 1;
            let mut valid = 0u64;
            for t in 0..n {
                for b in 0..n {
                    for l in 0..n {
                        for r in 0..n {
                            let cells = [(0, t), (m, b), (l, 0), (r, m)];
                            // Each border line holds exactly one queen (a corner one serves two).
                            let lines_ok = (t == 0) == (l == 0)
                                && (t == m) == (r == 0)
                                && (b == 0) == (l == m)
                                && (b == m) == (r == m);
                            let peaceful = (0..4).all(|i| {
                                (i + 1..4)
                                    .all(|j| cells[i] == cells[j] || !attack(cells[i], cells[j]))
                            });
                            valid += (lines_ok && peaceful) as u64;
                        }
                    }
                }
            }
            let kept = constellations(n);
            assert_eq!(
                kept.iter().map(|c| c.orbit()).sum::<u64>(),
                valid,
                "n = {n}"
            );
            let all: std::collections::BTreeSet<Vec<(usize, usize)>> =
                kept.iter().map(|c| c.cells(n)).collect();
            assert_eq!(all.len(), kept.len(), "n = {n}");
            for c in &kept {
                for g in 1..8 {
                    let img = image(g, m, &c.cells(n));
                    let fixed = c.stab & (1 << g) != 0;
                    assert_eq!(img == c.cells(n), fixed, "n = {n}, {c:?}, g = {g}");
                    assert!(
                        fixed || !all.contains(&img),
                        "n = {n}: {c:?} and its image {g}"
                    );
                }
            }
        }
    }
}
