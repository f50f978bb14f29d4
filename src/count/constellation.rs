//! The counting kernel by *constellations* (the border-queen pre-placement of the
//! Q27 project): every solution (n >= 4) has exactly one queen in each border line (row 0, row
//! n-1, column 0, column n-1; a corner queen serves two). These 2 to 4 border queens are placed
//! first; of each symmetry class of such constellations only one is kept (the image whose first
//! interior rows the border queens block most, see [`constellations`]), with the size of its
//! orbit, and the interior rows are then searched top down with the border queens' columns and
//! diagonals blocked in every row (one mask per row), a look-ahead of one row, and the last two
//! rows counted directly from their two free columns.
//!
//! The total is the sum over kept constellations of orbit size times interior completions. A
//! symmetry that fixes a solution fixes its constellation, so solutions of a constellation that
//! no symmetry fixes are all in classes of 8; for the few symmetric constellations each
//! completion is tested against the constellation's symmetries.

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

/// The preference among the images of a constellation (the smallest key is searched): the
/// product of the numbers of cells the border queens leave free in the first four interior rows,
/// an estimate of the size of the top of the search tree.
fn key(n: usize, cells: &[(usize, usize)]) -> u64 {
    let m = n - 1;
    let mut prod = 1u64;
    let mut seen = 0;
    for k in 1..m {
        if seen == 4 {
            break;
        }
        if cells.iter().any(|c| c.0 == k) {
            continue;
        }
        let mut f = 0u32;
        for &(qr, qc) in cells {
            let d = k.abs_diff(qr);
            f |= 1 << qc;
            if qc + d < n {
                f |= 1 << (qc + d);
            }
            if qc >= d {
                f |= 1 << (qc - d);
            }
        }
        prod *= n as u64 - f.count_ones() as u64;
        seen += 1;
    }
    prod
}

/// The canonical constellations of board size `n` (4 <= n <= 32): one per symmetry class, the
/// image with the smallest key (then the smallest sorted cells), in a fixed order.
pub fn constellations(n: usize) -> Vec<Constellation> {
    assert!((4..=WORD_BITS).contains(&n));
    let m = n - 1;
    let mut out = Vec::new();
    for top in 0..n {
        for bottom in 0..n {
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
                    let cells = c.cells(n);
                    let ok = cells
                        .iter()
                        .enumerate()
                        .all(|(i, &a)| cells[i + 1..].iter().all(|&b| !attack(a, b)));
                    if !ok {
                        continue;
                    }
                    let key0 = (key(n, &cells), cells.clone());
                    let mut stab = 0u8;
                    let mut smallest = true;
                    for g in 1..8 {
                        let mut img: Vec<(usize, usize)> =
                            cells.iter().map(|&(r, c)| map(g, m, r, c)).collect();
                        img.sort();
                        if img == cells {
                            stab |= 1 << g;
                            continue;
                        }
                        if (key(n, &img), img) < key0 {
                            smallest = false;
                        }
                    }
                    if smallest {
                        out.push(Constellation { stab, ..c });
                    }
                }
            }
        }
    }
    out
}

/// The interior search of one constellation: the interior rows in order, the free columns of
/// each given the border queens, and the shift of the diagonal words from each to the next.
struct Interior {
    /// Number of interior rows (levels).
    depth: usize,
    /// The row of each level, top down.
    rows: [u8; WORD_BITS],
    /// The columns of each level that the border queens leave free.
    mask: [u32; WORD_BITS],
    /// Rows from each level to the next one (2 past a border queen's row).
    shift: [u32; WORD_BITS],
    /// n - 1.
    m: u32,
    /// The interior columns.
    cols: u32,
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
        };
        for &(_, qc) in cells {
            it.cols &= !(1 << qc);
        }
        for r in 0..n {
            if cells.iter().any(|&(qr, _)| qr == r) {
                continue;
            }
            let mut f = full;
            for &(qr, qc) in cells {
                let d = r.abs_diff(qr);
                f &= !(1 << qc);
                if qc + d < n {
                    f &= !(1 << (qc + d));
                }
                if qc >= d {
                    f &= !(1 << (qc - d));
                }
            }
            it.rows[it.depth] = r as u8;
            it.mask[it.depth] = f;
            it.depth += 1;
        }
        for i in 0..it.depth.saturating_sub(1) {
            it.shift[i] = (it.rows[i + 1] - it.rows[i]) as u32;
        }
        it
    }

    /// Completions from level `i` on, `f` the free columns of level `i`; `i + 1 < depth`.
    fn walk(&self, i: usize, mut f: u32, l: u32, d: u32, r: u32) -> u64 {
        let s = self.shift[i];
        let s2 = self.shift[i + 1];
        let next = self.mask[i + 1];
        let mut count = 0;
        if i + 3 == self.depth {
            // The last two levels: two columns are left, counted directly.
            let last = self.mask[i + 2];
            while f != 0 {
                let b = f & f.wrapping_neg();
                f ^= b;
                let nl = (l | b) << s;
                let nd = d | b;
                let nr = (r | b) >> s;
                let f1 = next & !(nl | nd | nr);
                let g = last & !((nl << s2) | nd | (nr >> s2));
                let c = self.cols & !nd;
                let lo = c & c.wrapping_neg();
                let hi = c ^ lo;
                if hi == lo << s2 {
                    continue;
                }
                count += ((lo & f1 != 0) & (hi & g != 0)) as u64;
                count += ((hi & f1 != 0) & (lo & g != 0)) as u64;
            }
            return count;
        }
        if i + 2 == self.depth {
            while f != 0 {
                let b = f & f.wrapping_neg();
                f ^= b;
                let nf = next & !(((l | b) << s) | (d | b) | ((r | b) >> s));
                count += (nf != 0) as u64;
            }
            return count;
        }
        while f != 0 {
            let b = f & f.wrapping_neg();
            f ^= b;
            let nl = (l | b) << s;
            let nd = d | b;
            let nr = (r | b) >> s;
            let nf = next & !(nl | nd | nr);
            // Look-ahead: the level after the next one, ignoring the next queen.
            let after = self.mask[i + 2] & !((nl << s2) | nd | (nr >> s2));
            if (nf != 0) & (after != 0) {
                count += self.walk(i + 1, nf, nl, nd, nr);
            }
        }
        count
    }

    /// The number of completions.
    fn count(&self) -> u64 {
        match self.depth {
            0 => 1,
            1 => (self.mask[0] != 0) as u64,
            _ => self.walk(0, self.mask[0], 0, 0, 0),
        }
    }

    /// Calls `f` with the interior column of each level, for every completion (any row order:
    /// the diagonal words are indexed by diagonal).
    fn each(&self, i: usize, a: u64, d: u32, b: u64, cols: &mut [u8], f: &mut dyn FnMut(&[u8])) {
        if i == self.depth {
            f(cols);
            return;
        }
        let r = self.rows[i] as u32;
        let q = self.m - r;
        let mut free = self.mask[i] & !(d | (a >> r) as u32 | (b >> q) as u32);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            cols[i] = bit.trailing_zeros() as u8;
            let w = bit as u64;
            self.each(i + 1, a | (w << r), d | bit, b | (w << q), cols, f);
        }
    }
}

/// The classes of the solutions whose constellation is in the orbit of `c` (a canonical
/// constellation), by size.
pub fn solve(n: usize, c: &Constellation) -> ClassCounts {
    let it = Interior::new(n, c);
    if c.stab == 0 {
        return ClassCounts {
            of8: it.count(),
            ..ClassCounts::default()
        };
    }
    // Symmetric constellation: the symmetries of each completion are among the
    // constellation's. m[k] counts completions with k symmetries (identity included).
    let m = n - 1;
    let mut by_fixed = [0u64; 9];
    let mut sol = [0usize; WORD_BITS];
    for &(r, col) in &c.cells(n) {
        sol[r] = col;
    }
    let mut cols = [0u8; WORD_BITS];
    it.each(0, 0, 0, 0, &mut cols[..it.depth], &mut |cs| {
        let mut s = sol;
        for (k, &col) in cs.iter().enumerate() {
            s[it.rows[k] as usize] = col as usize;
        }
        let mut fixed = 1;
        for g in 1..8 {
            if c.stab & (1 << g) != 0
                && (0..n).all(|r| {
                    let (ir, ic) = map(g, m, r, s[r]);
                    s[ir] == ic
                })
            {
                fixed += 1;
            }
        }
        by_fixed[fixed] += 1;
    });
    // Classes of size k = 8 / fixed: orbit * m_k / k of them.
    let orbit = c.orbit();
    ClassCounts {
        of8: orbit * by_fixed[1] / 8,
        of4: orbit * by_fixed[2] / 4,
        of2: orbit * by_fixed[4] / 2,
    }
}
