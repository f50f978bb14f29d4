//! Product at-most-one (Chen 2010), applied recursively.
//!
//! For `m` literals:
//! - if `m <= BASE` (= 6), the pairwise encoding (base case: up to 6 literals pairwise is no
//!   larger, 15 clauses against 16 for one product level at m = 6);
//! - otherwise, with `p = ceil(sqrt(m))`, `q = ceil(m/p)` and then `p = ceil(m/q)` (so no row
//!   of the grid is empty), the literal with 0-based index `k` is placed on the cell
//!   (`k / q`, `k mod q`) of a `p x q` grid. Fresh row variables `u_1 .. u_p` and column
//!   variables `v_1 .. v_q`; every literal implies its row and its column variable,
//!   `(-x_k v u_{k/q})` and `(-x_k v v_{k mod q})`; then, recursively, at most one of the `u`
//!   and at most one of the `v`. Two true literals differ in their row or their column.
//!
//! Size: with `S(m)` the size for `m` literals,
//! `S(m) = pairwise(m)` for `m <= 6`, else
//! `S(m) = 2m clauses, 4m literals, p + q auxiliary variables, + S(p) + S(q)`.
//! [`size`] evaluates the recursion directly (it visits O(log m) sub-lists in all, since
//! each level takes a square root). That is `2m + 4 sqrt(m) + O(m^(1/4))` clauses and
//! `2 sqrt(m) + O(m^(1/4))` auxiliaries.
//!
//! Order: the `2m` binary clauses literal by literal (row first), then the `u` constraint,
//! then the `v` constraint. The `p + q` variables of a level are taken from the allocator
//! before those of the sub-levels.
//!
//! ## References
//! - J. Chen, "A New SAT Encoding of the At-Most-One Constraint", Tenth International Workshop
//!   on Constraint Modelling and Reformulation (ModRef 2010).

use super::{ceil_sqrt, pairwise, Size};
use crate::cnf::{ClauseSink, Lit};
use crate::encode::VarAlloc;
use std::io;

/// Lists of at most this many literals are encoded pairwise.
pub const BASE: usize = 6;

/// The grid `(p, q)` for `m > BASE` literals.
pub fn grid(m: usize) -> (usize, usize) {
    let p = ceil_sqrt(m);
    let q = m.div_ceil(p);
    (m.div_ceil(q), q)
}

/// Size of the product encoding on `m` literals.
pub fn size(m: usize) -> Size {
    if m <= BASE {
        return pairwise::size(m);
    }
    let (p, q) = grid(m);
    let level = Size {
        vars: (p + q) as u64,
        clauses: 2 * m as u64,
        literals: 4 * m as u64,
    };
    level + size(p) + size(q)
}

/// Emits the product encoding of "at most one of `lits`".
pub fn encode<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<()> {
    let m = lits.len();
    if m <= BASE {
        return pairwise::encode(lits, sink);
    }
    let (p, q) = grid(m);
    let u = alloc.fresh_lits(p);
    let v = alloc.fresh_lits(q);
    for (k, &x) in lits.iter().enumerate() {
        sink.add_clause(&[!x, u[k / q]])?;
        sink.add_clause(&[!x, v[k % q]])?;
    }
    encode(&u, alloc, sink)?;
    encode(&v, alloc, sink)
}

at_most_one_entry! {
    /// The product encoding in the catalogue ([`super::CATALOGUE`]).
    Product, "product", aux "p":
        "the literals on a p x q grid: at most one row and one column, recursively (Chen 2010)",
    size |m, _| size(m), encode |lits, _, alloc, sink| encode(lits, alloc, sink)
}
