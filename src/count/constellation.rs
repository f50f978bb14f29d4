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

use super::bitboard::WORD_BITS;
use super::interior::{attacked, Interior};
use super::kernel;
use super::split::ClassCounts;
use crate::board::{Cell, Geometry, Symmetry};

/// One constellation: the columns of the row-0 and row-(n-1) queens, the rows of the
/// column-0 and column-(n-1) queens, and the symmetries fixing it (bits 1..=7: the three turns,
/// then the mirrors left-right, in the main diagonal, top-bottom, in the anti-diagonal: the
/// order of [`Symmetry::IMAGE_ORDER`]).
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
    /// Bit g set if symmetry g (1..=7) of [`Symmetry::IMAGE_ORDER`] maps the constellation onto
    /// itself.
    pub stab: u8,
}

impl Constellation {
    /// The border queens as sorted cells, deduplicated (a corner queen counts once).
    fn cells(&self, n: usize) -> Vec<Cell> {
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

    /// The interior rows its border queens leave to the kernel.
    pub(super) fn interior(&self, n: usize) -> Interior {
        Interior::of_cells(n, &self.cells(n))
    }

    /// The number of constellations in this one's orbit.
    pub fn orbit(&self) -> u64 {
        8 / (1 + self.stab.count_ones() as u64)
    }
}

/// Whether two queens of the n x n board attack each other: they share a row, a column or a
/// diagonal (as equal cells do).
fn attack(n: usize, a: Cell, b: Cell) -> bool {
    Geometry::Square.shared_line(n, a, b).is_some()
}

/// The image of `cells` under symmetry `g` of [`Symmetry::IMAGE_ORDER`] of the n x n board,
/// sorted.
fn image(g: usize, n: usize, cells: &[Cell]) -> Vec<Cell> {
    let s = Symmetry::IMAGE_ORDER[g];
    let mut img: Vec<Cell> = cells.iter().map(|&(r, c)| s.apply(n, r, c)).collect();
    img.sort();
    img
}

/// The preference among the images of a constellation (the smallest key is searched): the
/// product of the numbers of cells the border queens leave free in the first n/2 interior rows,
/// an estimate of the size of the upper half of the search tree.
fn key(n: usize, cells: &[Cell]) -> u128 {
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
            if attack(n, (0, top), (m, bottom)) {
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
                        .all(|(i, &a)| cells[i + 1..].iter().all(|&b| !attack(n, a, b)));
                    if !ok {
                        continue;
                    }
                    // The class: the 8 images (some equal), each marked as met.
                    let images: Vec<Vec<Cell>> = (0..8).map(|g| image(g, n, &cells)).collect();
                    let best = images
                        .iter()
                        .min_by_key(|img| (key(n, img), *img))
                        .expect("8 images");
                    let mut stab = 0u8;
                    for (g, img) in images.iter().enumerate() {
                        seen[index(&of_cells(n, img))] = true;
                        // The symmetries of the kept image (conjugate to those of `c`).
                        if g > 0 && image(g, n, best) == *best {
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
fn of_cells(n: usize, cells: &[Cell]) -> Constellation {
    let m = n - 1;
    let find = |on: &dyn Fn(&Cell) -> bool, pick: fn(&Cell) -> usize| {
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

/// The classes of the solutions whose constellation is in the orbit of `c` (a canonical
/// constellation), by size.
pub fn solve(n: usize, c: &Constellation) -> ClassCounts {
    let it = c.interior(n);
    let total = kernel::count(&it);
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
                    let (ir, ic) = Symmetry::Rotate90.apply(n, r, s[r]);
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
                let it = c.interior(n);
                let mut enumerated = 0u64;
                let mut cols = [0u8; WORD_BITS];
                it.each(
                    &it.all_steps(),
                    (0, 0, 0),
                    &mut cols[..it.depth],
                    &mut |_| enumerated += 1,
                );
                assert_eq!(kernel::count(&it), enumerated, "n = {n}, {c:?}");
                assert_eq!(kernel::count_plain(&it), enumerated, "n = {n}, {c:?}");
            }
        }
    }

    /// With buffers of every size from one node up, each vector kernel's count (the `wide`
    /// module) of every constellation's interior it takes equals the depth-first kernel's (for
    /// any processor): all of them up to n = 14, and from n = 15 to the vector kernels' limit of
    /// 18 the 40 with the fewest free cells (the depth-first count of all takes seconds to
    /// minutes there). A kernel this processor cannot run is reported, loudly, and skipped.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_kernels_count_as_the_depth_first_kernel() {
        use super::super::interior::TAIL;
        use super::super::wide::{fits, Kernel, CAP};
        let kernels: Vec<Kernel> = [Kernel::Avx512, Kernel::Avx2]
            .into_iter()
            .filter(|k| {
                let ok = k.available();
                if !ok {
                    eprintln!(
                        "\n*** SKIPPED: this processor cannot run the {k:?} counting kernel; it is \
                         not tested here ***\n"
                    );
                }
                ok
            })
            .collect();
        let mut taken = 0;
        for n in 4..=19 {
            let mut interiors: Vec<_> = constellations(n)
                .iter()
                .map(|c| (estimated_cost(n, c), c.interior(n)))
                .collect();
            if n >= 15 {
                interiors.sort_by_key(|(cost, _)| *cost);
                interiors.truncate(40);
            }
            for (_, it) in &interiors {
                if !fits(it) {
                    assert!(it.depth <= TAIL || n > 18, "n = {n}");
                    continue;
                }
                taken += 1;
                let want = kernel::count_plain(it);
                for &k in &kernels {
                    for cap in [1, 2, 3, 17, 100, CAP] {
                        assert_eq!(
                            k.count_with(it, cap),
                            want,
                            "n = {n}, {k:?}, buffers of {cap}"
                        );
                    }
                }
            }
        }
        assert!(taken > 1000, "{taken} interiors");
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
                let it = c.interior(n);
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
                                    .all(|j| cells[i] == cells[j] || !attack(n, cells[i], cells[j]))
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
            let all: std::collections::BTreeSet<Vec<Cell>> =
                kept.iter().map(|c| c.cells(n)).collect();
            assert_eq!(all.len(), kept.len(), "n = {n}");
            for c in &kept {
                for g in 1..8 {
                    let img = image(g, n, &c.cells(n));
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
