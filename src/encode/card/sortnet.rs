//! Sorting network (Batcher's odd-even merge sort, as Een & Sorensson use it for cardinality
//! constraints in MiniSat+): sort the literals, then read the sorted outputs.
//!
//! The `m` literals go through a complete odd-even merge sorting network (Batcher 1968; for
//! any `m`, not only powers of two: a list is split into its first `ceil(m/2)` and last
//! `floor(m/2)` elements, both sorted, then merged by the odd-even merge, which works for any
//! two lengths). Every comparator on `a`, `b` takes two fresh variables, `hi` (`a or b`)
//! and `lo` (`a and b`), with three "up" clauses for an upper bound, three "down" clauses for
//! a lower bound, all six for both:
//!
//! ```text
//! up:    -a v hi,  -b v hi,  -a v -b v lo      (7 literals)
//! down:  -hi v a v b,  -lo v a,  -lo v b       (7 literals)
//! ```
//!
//! The outputs
//! `y_1 >= .. >= y_m` then say "at least `j` true" (`y_j`), and the bound is one or two unit
//! clauses: at most `k` is `-y_{k+1}`, at least `k` is `y_k`, exactly `k` both (`y_k` first).
//!
//! The whole sorter is emitted whatever `k` is (the [cardinality network](super::cardnet)
//! is the variant that builds only what the first `k + 1` outputs need); Een and Sorensson
//! encode each comparator by the polarity it is used in, which for a cardinality constraint is
//! the half encoding here.
//!
//! ## Size
//!
//! With `M(a, b)` the comparators of the merge of lengths `a` and `b`: `M(a, 0) = M(0, b) = 0`,
//! `M(1, 1) = 1`, otherwise, with `v = ceil(a/2) + ceil(b/2)` and `w = floor(a/2) + floor(b/2)`,
//! `M(a, b) = M(ceil(a/2), ceil(b/2)) + M(floor(a/2), floor(b/2)) + min(w, v - 1)`; and
//! `C(m) = C(ceil(m/2)) + C(floor(m/2)) + M(ceil(m/2), floor(m/2))`, `C(1) = 0`. The encoding
//! has `2 C(m)` auxiliaries, `3 C(m)` clauses and `7 C(m)` literals per direction, and one
//! unit clause per bound read. [`size`] evaluates the recursions with memoisation over the
//! O(log^2 m) distinct argument pairs. For powers of two `C(m) = (m/4)(log2 m)(log2 m - 1) + m
//! - 1` (19 comparators for 8 literals, 63 for 16).
//!
//! ## Model counts
//!
//! Preserved for exactly `k` (every comparator output is the `or` or the `and` of its inputs).
//! The half encodings leave outputs free (at most: `y_1` when no literal is true; at least:
//! `y_m` when all are): not preserved.
//!
//! ## References
//! - K. E. Batcher, "Sorting Networks and Their Applications", AFIPS Spring Joint Computer
//!   Conference 1968, pp. 307-314.
//! - N. Een and N. Sorensson, "Translating Pseudo-Boolean Constraints into SAT", Journal on
//!   Satisfiability, Boolean Modeling and Computation 2 (2006), pp. 1-26.
//! - R. Asin, R. Nieuwenhuis, A. Oliveras and E. Rodriguez-Carbonell, "Cardinality Networks: a
//!   Theoretical and Empirical Study", Constraints 16(2) (2011), pp. 195-221 (odd-even
//!   sorting networks in clauses, and their comparison with cardinality networks).

use super::network::network_size;
use super::{Job, Kind, Size};
use crate::cnf::{ClauseSink, Lit};
use std::collections::HashMap;
use std::io;

/// Comparators of the odd-even merge of sorted sequences of lengths `a` and `b`.
fn merge_comparators(a: usize, b: usize, memo: &mut HashMap<(usize, usize), u64>) -> u64 {
    if a == 0 || b == 0 {
        return 0;
    }
    if a == 1 && b == 1 {
        return 1;
    }
    if let Some(&c) = memo.get(&(a, b)) {
        return c;
    }
    let (va, vb, wa, wb) = (a.div_ceil(2), b.div_ceil(2), a / 2, b / 2);
    let pairs = (wa + wb).min(va + vb - 1) as u64;
    // Saturating: a size query may name a list longer than any that can be encoded.
    let c = merge_comparators(va, vb, memo)
        .saturating_add(merge_comparators(wa, wb, memo))
        .saturating_add(pairs);
    memo.insert((a, b), c);
    c
}

/// Comparators of the odd-even merge sort of `m` elements.
pub fn comparators(m: usize) -> u64 {
    fn sort(
        m: usize,
        sorts: &mut HashMap<usize, u64>,
        merges: &mut HashMap<(usize, usize), u64>,
    ) -> u64 {
        if m <= 1 {
            return 0;
        }
        if let Some(&c) = sorts.get(&m) {
            return c;
        }
        let (l, r) = (m - m / 2, m / 2);
        let c = sort(l, sorts, merges)
            .saturating_add(sort(r, sorts, merges))
            .saturating_add(merge_comparators(l, r, merges));
        sorts.insert(m, c);
        c
    }
    sort(m, &mut HashMap::new(), &mut HashMap::new())
}

/// Size of the sorting network for "`kind` `k` of `m` literals", `1 <= k < m`.
fn size_proper(m: usize, _: usize, kind: Kind) -> Size {
    network_size(comparators(m), kind)
}

/// Emits the sorting network for "`kind` `k` of `lits`", `1 <= k < m`: the comparators in the
/// order of the recursion (left half, right half, merge), then the unit clauses.
fn encode_proper<S: ClauseSink + ?Sized>(mut job: Job<'_, S>) -> io::Result<()> {
    let inputs: Vec<Option<Lit>> = job.lits.iter().copied().map(Some).collect();
    let y = job.network().sort(&inputs)?;
    // Without constants every output of the sorter is a literal.
    let y: Vec<Lit> = y.into_iter().flatten().collect();
    super::bound_count(job.sink, job.kind, job.k, &y)
}

cardinality_entry!(
    /// The sorting network in the catalogue ([`super::CATALOGUE`]).
    SortNet,
    "sortnet",
    "a complete odd-even merge sorting network, then one output (Batcher; Een & Sorensson 2006)",
    |kind| kind == Kind::Exactly
);
