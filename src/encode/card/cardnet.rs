//! Cardinality network (Asin, Nieuwenhuis, Oliveras & Rodriguez-Carbonell 2011): sort blocks
//! of the literals, then keep only the first outputs while merging the blocks.
//!
//! Let `r` be the number of outputs the bound reads (`k + 1` for at most and exactly `k`, `k`
//! for at least `k`) and `K` the smallest power of two `>= r`. The literals, padded with the
//! constant false to a multiple of `K`, are cut into blocks of `K`, and
//!
//! - each block is sorted by an odd-even merge sorter on `K` inputs (`HSort`, Batcher's network
//!   for a power of two);
//! - `Card(B_1 .. B_p) = SMerge(HSort(B_1), Card(B_2 .. B_p))` truncated to its first `K`
//!   outputs, `Card(B) = HSort(B)` for a single block;
//! - `SMerge(a, b)` on two sorted sequences of `K` gives the first `K + 1` outputs of their
//!   merge: for `K = 1` one comparator; otherwise `v = SMerge` of the odd-position elements of
//!   both, `w = SMerge` of the even-position ones (each `K/2 + 1` outputs), and the result is
//!   `v_1` and the comparators `(w_i, v_{i+1})` for `i = 1 .. K/2`.
//!
//! Every comparator has the clauses of the [sorting network](super::sortnet)'s comparators
//! (up for an upper bound, down for a lower bound, both for exactly). A comparator with a false input
//! (from the padding) is a pair of wires, without variable or clause, so the padding costs
//! nothing. The last of the `K + 1` outputs of each `SMerge` is computed although the network
//! keeps only `K` (the definition of the simplified merge has it). Output `j` of the network
//! says "at least `j` true"; the bound is `-y_{k+1}`, `y_k`, or both (`y_k` first).
//!
//! Asin et al. state the network for `K` a power of two dividing the number of inputs; the
//! padding with false constants (simplified away) is how any `m` and `k` are covered here.
//!
//! ## Size
//!
//! Every comparator on two literals costs 2 variables and 3 clauses of 7 literals per
//! direction. The number of such comparators depends on where the constants are; since
//! sorted and merged sequences keep their literals first and their constants last, a
//! sequence is described by its length and its number of literals, and [`size`] counts the
//! comparators by the recursions above on these shapes, memoised, in O(log^2 K) steps: only
//! the last block is padded, and from the second merge on every block adds the same. For
//! `m` a multiple of `K` the network has `(m/K) S(K) + (m/K - 1) M(K)` comparators, with
//! `S(K)` those of the sorter (`(K/4) log2 K (log2 K - 1) + K - 1`) and `M(K)` those of the
//! simplified merge (`M(1) = 1`, `M(K) = 2 M(K/2) + K/2`, so `M(K) = (K/2) log2 K + K`). For at
//! most one (`K = 2`) that is 4 comparators per 2 literals: about `4m` auxiliaries and `6m`
//! clauses.
//!
//! ## Model counts
//!
//! Preserved for exactly `k` (every comparator output is the `or` or the `and` of its
//! inputs, and the padding adds no variable). The half encodings leave outputs free (at most:
//! the first output when no literal is true; at least: the last literal outputs of a
//! comparator when all are): not preserved.
//!
//! ## References
//! - R. Asin, R. Nieuwenhuis, A. Oliveras and E. Rodriguez-Carbonell, "Cardinality Networks: a
//!   Theoretical and Empirical Study", Constraints 16(2) (2011), pp. 195-221.
//! - K. E. Batcher, "Sorting Networks and Their Applications", AFIPS Spring Joint Computer
//!   Conference 1968, pp. 307-314.

use super::network::{network_size, Network, Sig};
use super::{Job, Kind, Size};
use crate::cnf::ClauseSink;
use std::collections::HashMap;
use std::io;

/// The block size `K` for a bound: the smallest power of two at least the outputs read.
pub fn block_size(k: usize, kind: Kind) -> usize {
    let r = match kind {
        Kind::AtLeast => k,
        Kind::AtMost | Kind::Exactly => k.saturating_add(1),
    };
    r.checked_next_power_of_two().unwrap_or(usize::MAX)
}

/// The shape recursions of the size computation: each returns the comparators on two
/// literals and the number of literals (as opposed to constants) in the output.
#[derive(Default)]
struct Shapes {
    merge: HashMap<(usize, usize, usize, usize), (u64, usize)>,
    sort: HashMap<(usize, usize), (u64, usize)>,
    smerge: HashMap<(usize, usize, usize), (u64, usize)>,
}

impl Shapes {
    /// The odd-even merge of `la` elements (the first `va` literals) and `lb` (`vb`).
    fn merge(&mut self, la: usize, va: usize, lb: usize, vb: usize) -> (u64, usize) {
        if la == 0 || lb == 0 {
            return (0, va + vb);
        }
        if la == 1 && lb == 1 {
            return (u64::from(va == 1 && vb == 1), va + vb);
        }
        if let Some(&r) = self.merge.get(&(la, va, lb, vb)) {
            return r;
        }
        let (cv, vv) = self.merge(
            la.div_ceil(2),
            va.div_ceil(2),
            lb.div_ceil(2),
            vb.div_ceil(2),
        );
        let (cw, vw) = self.merge(la / 2, va / 2, lb / 2, vb / 2);
        let (lv, lw) = (la.div_ceil(2) + lb.div_ceil(2), la / 2 + lb / 2);
        let pairs = lw.min(lv - 1);
        let both = pairs.min(vw).min(vv.saturating_sub(1));
        let either = pairs.min(vw.max(vv.saturating_sub(1)));
        let left_v = vv.saturating_sub(pairs + 1);
        let left_w = vw.saturating_sub(pairs);
        let out = usize::from(vv >= 1) + either + both + left_v + left_w;
        let r = (cv.saturating_add(cw).saturating_add(both as u64), out);
        self.merge.insert((la, va, lb, vb), r);
        r
    }

    /// The odd-even merge sort of `len` elements, the first `v` of them literals.
    fn sort(&mut self, len: usize, v: usize) -> (u64, usize) {
        if len <= 1 {
            return (0, v);
        }
        if let Some(&r) = self.sort.get(&(len, v)) {
            return r;
        }
        let (l, rl) = (len - len / 2, len / 2);
        let (c1, o1) = self.sort(l, v.min(l));
        let (c2, o2) = self.sort(rl, v - v.min(l));
        let (c3, o3) = self.merge(l, o1, rl, o2);
        let r = (c1.saturating_add(c2).saturating_add(c3), o3);
        self.sort.insert((len, v), r);
        r
    }

    /// `SMerge` of two sorted sequences of `n` (a power of two) with `va` and `vb` literals.
    fn smerge(&mut self, n: usize, va: usize, vb: usize) -> (u64, usize) {
        if n == 1 {
            return (u64::from(va == 1 && vb == 1), va + vb);
        }
        if let Some(&r) = self.smerge.get(&(n, va, vb)) {
            return r;
        }
        let (cv, vv) = self.smerge(n / 2, va.div_ceil(2), vb.div_ceil(2));
        let (cw, vw) = self.smerge(n / 2, va / 2, vb / 2);
        let pairs = n / 2;
        let both = pairs.min(vw).min(vv.saturating_sub(1));
        let either = pairs.min(vw.max(vv.saturating_sub(1)));
        let r = (
            cv.saturating_add(cw).saturating_add(both as u64),
            usize::from(vv >= 1) + either + both,
        );
        self.smerge.insert((n, va, vb), r);
        r
    }
}

/// Comparators on two literals in the cardinality network of `m >= 1` literals, blocks of `kb`.
pub fn comparators(m: usize, kb: usize) -> u64 {
    let mut shapes = Shapes::default();
    let blocks = m.div_ceil(kb);
    let (mut count, mut out) = shapes.sort(kb, m - (blocks - 1) * kb);
    let (cs, os) = shapes.sort(kb, kb);
    for done in 1..blocks {
        let (cm, om) = shapes.smerge(kb, os, out);
        count = count.saturating_add(cs.saturating_add(cm));
        if om.min(kb) == out {
            // Every further block costs the same: add them at once.
            let rest = (blocks - 1 - done) as u64;
            return count.saturating_add(rest.saturating_mul(cs.saturating_add(cm)));
        }
        out = om.min(kb);
    }
    count
}

/// Size of the cardinality network for "`kind` `k` of `m` literals", `1 <= k < m`.
fn size_proper(m: usize, k: usize, kind: Kind) -> Size {
    network_size(comparators(m, block_size(k, kind)), kind)
}

/// `SMerge` of two sorted sequences of the same power-of-two length `n`: `n + 1` outputs.
fn smerge<S: ClauseSink + ?Sized>(
    net: &mut Network<'_, S>,
    a: &[Sig],
    b: &[Sig],
) -> io::Result<Vec<Sig>> {
    if a.len() == 1 {
        let (hi, lo) = net.comparator(a[0], b[0])?;
        return Ok(vec![hi, lo]);
    }
    let odd = |x: &[Sig]| x.iter().step_by(2).copied().collect::<Vec<_>>();
    let even = |x: &[Sig]| x.iter().skip(1).step_by(2).copied().collect::<Vec<_>>();
    let v = smerge(net, &odd(a), &odd(b))?;
    let w = smerge(net, &even(a), &even(b))?;
    let mut out = Vec::with_capacity(a.len() + 1);
    out.push(v[0]);
    for i in 1..=a.len() / 2 {
        let (hi, lo) = net.comparator(w[i - 1], v[i])?;
        out.push(hi);
        out.push(lo);
    }
    Ok(out)
}

/// Emits the cardinality network for "`kind` `k` of `lits`", `1 <= k < m`: the last block's
/// sorter, then, block by block towards the first, the block's sorter and the simplified merge
/// with what the later blocks gave; then the unit clauses.
fn encode_proper<S: ClauseSink + ?Sized>(mut job: Job<'_, S>) -> io::Result<()> {
    let (k, kind) = (job.k, job.kind);
    let kb = block_size(k, kind);
    let mut inputs: Vec<Sig> = job.lits.iter().copied().map(Some).collect();
    inputs.resize(job.lits.len().div_ceil(kb) * kb, None);
    let mut net = job.network();
    let mut blocks = inputs.chunks(kb).rev();
    let mut y = match blocks.next() {
        Some(last) => net.sort(last)?,
        None => Vec::new(),
    };
    for block in blocks {
        let d = net.sort(block)?;
        y = smerge(&mut net, &d, &y)?;
        y.truncate(kb);
    }
    // Outputs 1 ..= min(K, m) are literals, so the outputs read are (k < m, k < K).
    if kind != Kind::AtMost {
        match y[k - 1] {
            Some(x) => job.sink.add_clause(&[x])?,
            None => job.sink.add_clause(&[])?,
        }
    }
    if kind != Kind::AtLeast {
        if let Some(x) = y[k] {
            job.sink.add_clause(&[!x])?;
        }
    }
    Ok(())
}

cardinality_entry!(
    /// The cardinality network in the catalogue ([`super::CATALOGUE`]).
    CardNet,
    "cardnet",
    "sorted blocks of K >= k + 1 merged keeping only the first K outputs (Asin et al. 2011)",
    |kind| kind == Kind::Exactly
);
