//! The bounds a node's open lines put on the queens still to place, beyond the counts of
//! free lines: each a necessary condition for a solution below the node, read from what the
//! node leaves open ([`Open`]), and each refuting the node when it fails.
//!
//! * the sums ([`sums_reachable`], square board): the indices `r + c` of the remaining queens'
//!   `/` diagonals add up to the sum of the open rows plus the sum of the open columns, the
//!   indices `c - r` of their `\` diagonals to the difference; `m` distinct free diagonals add
//!   up to at least the sum of the `m` smallest and at most the sum of the `m` largest;
//! * the second moments ([`moments_reachable`], square board): the squares of the diagonals'
//!   distances from the middle of the board, fixed by the open rows and columns, between those
//!   of the free diagonals nearest the middle and those of the farthest;
//! * the matchings ([`matched`]): for each two kinds of lines (rows, columns, `/` and `\`
//!   diagonals), the lines that meet in free cells must match as many queens as remain.

use super::geometry::{Geo, MAX};

/// What the bounds read of a node: its open rows with their free cells, its open columns, and
/// the sums of the indices of the open rows and of the open columns.
#[derive(Clone, Copy)]
pub(super) struct Open<'a> {
    /// The open rows (their indices); as many queens remain to place.
    pub rows: &'a [u8],
    /// The free cells of each open row, a bit per column.
    pub free: &'a [u64],
    /// The open columns, a bit each.
    pub cols: u64,
    /// The sum of the indices of the open rows.
    pub row_sum: u32,
    /// The sum of the indices of the open columns.
    pub col_sum: u32,
}

impl Open<'_> {
    /// The free diagonals, `/` then `\`, a bit each: those with a free cell in an open row.
    #[inline(always)]
    pub fn free_diagonals(&self, g: Geo) -> (u128, u128) {
        let (mut s0, mut d0) = (0u128, 0u128);
        for (&r, &f) in self.rows.iter().zip(self.free) {
            s0 |= g.sums(usize::from(r), f);
            d0 |= g.diffs(usize::from(r), f);
        }
        (s0, d0)
    }
}

/// Whether the indices of the free `/` diagonals `s0` and of the free `\` diagonals `d0` (a
/// bit each, of which each direction has at least as many as open rows) can add up to what
/// the remaining queens' diagonals must (square board): `r + c` over the remaining queens is
/// the sum of the open rows plus the sum of the open columns, and `c - r + n - 1` their
/// difference plus `m (n - 1)`.
#[inline(always)]
pub(super) fn sums_reachable(g: Geo, open: &Open<'_>, s0: u128, d0: u128) -> bool {
    let (n, m) = (g.n as u32, open.rows.len());
    // r + c over the remaining queens, and c - r + n - 1.
    let want_s = open.row_sum + open.col_sum;
    let want_d = open.col_sum + m as u32 * (n - 1) - open.row_sum;
    sum_reachable(s0, m, want_s) && sum_reachable(d0, m, want_d)
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
pub(super) fn moments_reachable(g: Geo, open: &Open<'_>, s0: u128, d0: u128) -> bool {
    let (n, m) = (g.n, open.rows.len());
    let sq = |x: usize| -> u64 {
        let v = (2 * x).abs_diff(n - 1) as u64;
        v * v
    };
    let mut want = 0u64;
    for &r in open.rows {
        want += sq(usize::from(r));
    }
    let mut cols = open.cols;
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
    let odd = (open.row_sum as usize + open.col_sum as usize + m * (n - 1)) % 2;
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
pub(super) fn matched(g: Geo, open: &Open<'_>) -> bool {
    let m = open.rows.len();
    let mut adj = [0u128; 2 * MAX];
    // Rows against `/` diagonals, `\` diagonals and columns.
    let by_row: [fn(Geo, usize, u64) -> u128; 3] = [
        |g, r, f| g.sums(r, f),
        |g, r, f| g.diffs(r, f),
        |_, _, f| u128::from(f),
    ];
    for lines in by_row {
        for (i, a) in adj.iter_mut().enumerate().take(m) {
            *a = lines(g, usize::from(open.rows[i]), open.free[i]);
        }
        if !has_matching(&adj[..m], m) {
            return false;
        }
    }
    // Per free cell: its `/` and `\` diagonals, by column and by `/` diagonal.
    let mut col_s = [0u128; MAX];
    let mut col_d = [0u128; MAX];
    let mut sum_d = [0u128; 2 * MAX];
    for (&r, &f) in open.rows.iter().zip(open.free) {
        let r = usize::from(r);
        let mut f = f;
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
        let mut cols = open.cols;
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
}
