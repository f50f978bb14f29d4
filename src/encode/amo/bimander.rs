//! Bimander at-most-one (Hoelldobler & Nguyen 2013): pairwise inside groups, binary between
//! them.
//!
//! The literals are split into `g` consecutive groups of nearly equal size (the first
//! `m mod g` groups have `ceil(m/g)` literals, the others `floor(m/g)`). Inside each group
//! the pairwise encoding; between groups, every literal of group `i` writes `i` in binary onto
//! `b = ceil(log2 g)` auxiliary bit variables, as in [`super::binary`]. Two true literals in
//! one group break a pairwise clause; in different groups they force different bit patterns.
//!
//! The group count is the parameter: `bimander:K` uses `g = min(K, m)` groups, plain
//! `bimander` uses `g = ceil(sqrt(m))`, which keeps both parts near `m sqrt(m) / 2` and
//! `m log2(m) / 2` clauses. `g = 1` is the pairwise encoding, `g = m` the binary one.
//!
//! Size for `m` literals and `g` groups, with `q = floor(m/g)`, `r = m mod g`:
//! `b = ceil(log2 g)` auxiliary variables;
//! `r C(q+1, 2) + (g - r) C(q, 2) + m b` clauses, all binary, so twice as many literals.
//! Clauses are emitted group by group (its pairs, then its literals' bit clauses).
//!
//! ## References
//! - S. Hoelldobler and V. H. Nguyen, "An Efficient Encoding of the At-Most-One Constraint",
//!   Technical Report KRR-13-04, Knowledge Representation and Reasoning Group, Technische
//!   Universitaet Dresden, 2013.

use super::{bits_for, ceil_sqrt, pairwise, Size};
use crate::cnf::{ClauseSink, Lit};
use crate::encode::VarAlloc;
use std::io;

/// The number of groups used for `m` literals: `min(k, m)` for a fixed count `k` (at least 1),
/// `ceil(sqrt(m))` for `None`.
pub fn group_count(m: usize, groups: Option<usize>) -> usize {
    match groups {
        Some(k) => k.max(1).min(m),
        None => ceil_sqrt(m),
    }
}

/// Size of the bimander encoding on `m` literals in `g` groups (`g <= m`; `g = 0` only for
/// `m = 0`).
pub fn size(m: usize, g: usize) -> Size {
    if m == 0 || g == 0 {
        return Size::default();
    }
    let (q, r) = (m / g, m % g);
    let pairs = (r as u64)
        .saturating_mul(pairwise::size(q + 1).clauses)
        .saturating_add(((g - r) as u64).saturating_mul(pairwise::size(q).clauses));
    let b = bits_for(g) as u64;
    let clauses = pairs.saturating_add((m as u64).saturating_mul(b));
    Size {
        vars: b,
        clauses,
        literals: clauses.saturating_mul(2),
    }
}

/// Emits the bimander encoding of "at most one of `lits`" with `g` groups (the bits are taken
/// from `alloc`).
pub fn encode<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    g: usize,
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<()> {
    let m = lits.len();
    if m == 0 || g == 0 {
        return Ok(());
    }
    let bits = alloc.fresh_lits(bits_for(g));
    let (q, r) = (m / g, m % g);
    let mut start = 0;
    for i in 0..g {
        let len = q + usize::from(i < r);
        let group = &lits[start..start + len];
        pairwise::encode(group, sink)?;
        super::binary::encode_indices(group, |_| i, &bits, sink)?;
        start += len;
    }
    Ok(())
}

at_most_one_entry! {
    /// The bimander encoding in the catalogue ([`super::CATALOGUE`]): `bimander:K` for `K`
    /// groups, ceil(sqrt(m)) by default.
    Bimander, "bimander", aux "b":
        "pairwise inside K groups, the group index in binary (Hoelldobler & Nguyen 2013)",
    parameter super::Parameter {
        letter: "K",
        meaning: "group count",
        min: 1,
        default: None,
        default_text: "ceil(sqrt(line length))",
        default_word: Some("sqrt"),
    },
    size |m, groups| size(m, group_count(m, groups)),
    encode |lits, groups, alloc, sink| encode(lits, group_count(lits.len(), groups), alloc, sink)
}
