//! Ladder (regular) at-most-one (Gent & Nightingale 2004; Ansotegui & Manya 2004).
//!
//! The literals `x_1 .. x_m` are read as the values of one finite-domain variable with `m + 1`
//! values: "`x_i` is the true one" for `i = 1..m`, and "none is true". That variable is given
//! the regular (ladder) encoding: `m` auxiliary variables `y_1 .. y_m`, where `y_i` means
//! "no `x_j` with `j <= i` is true" (with `y_0` = true implicitly), tied together by
//!
//! ```text
//! ladder:        (-y_i v y_{i-1})                                     for 2 <= i <= m
//! channelling:   x_1 <-> -y_1:          (-x_1 v -y_1), (y_1 v x_1)
//!                x_i <-> y_{i-1} & -y_i: (-x_i v y_{i-1}), (-x_i v -y_i),
//!                                        (-y_{i-1} v y_i v x_i)         for 2 <= i <= m
//! ```
//!
//! Two true literals `x_a`, `x_b` (`a < b`) would need `-y_a` and `y_{b-1}`, which the ladder
//! forbids. Unlike the sequential counter, the auxiliaries are fully determined by the
//! literals (the channelling goes both ways), so every assignment of the literals extends to
//! exactly one model.
//!
//! Size for `m >= 2` literals: `m` auxiliary variables, `(m - 1) + 2 + 3(m - 1) = 4m - 2`
//! clauses, `2(m - 1) + 4 + 7(m - 1) = 9m - 5` literals. For `m <= 1` nothing is emitted.
//!
//! ## References
//! - I. P. Gent and P. Nightingale, "A New Encoding of AllDifferent into SAT", Third
//!   International Workshop on Modelling and Reformulating Constraint Satisfaction Problems
//!   (ModRef 2004), pp. 95-110.
//! - C. Ansotegui and F. Manya, "Mapping Problems with Finite-Domain Variables to Problems
//!   with Boolean Variables", Theory and Applications of Satisfiability Testing (SAT 2004),
//!   LNCS 3542 (2005), pp. 1-15.

use super::Size;
use crate::cnf::{ClauseSink, Lit};
use crate::encode::VarAlloc;
use std::io;

/// Size of the ladder encoding on `m` literals.
pub fn size(m: usize) -> Size {
    if m <= 1 {
        return Size::default();
    }
    let m = m as u64;
    Size {
        vars: m,
        clauses: 4 * m - 2,
        literals: 9 * m - 5,
    }
}

/// Emits the ladder encoding of "at most one of `lits`": first the `m - 1` ladder clauses, then
/// the channelling clauses of `x_1`, `x_2`, ... (`y_1 .. y_m` are taken from `alloc` first).
pub fn encode<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<()> {
    let m = lits.len();
    if m <= 1 {
        return Ok(());
    }
    let y = alloc.fresh_lits(m);
    for i in 1..m {
        sink.add_clause(&[!y[i], y[i - 1]])?;
    }
    sink.add_clause(&[!lits[0], !y[0]])?;
    sink.add_clause(&[y[0], lits[0]])?;
    for i in 1..m {
        sink.add_clause(&[!lits[i], y[i - 1]])?;
        sink.add_clause(&[!lits[i], !y[i]])?;
        sink.add_clause(&[!y[i - 1], y[i], lits[i]])?;
    }
    Ok(())
}

at_most_one_entry! {
    /// The ladder encoding in the catalogue ([`super::CATALOGUE`]).
    Ladder, "ladder" or "regular", aux "y":
        "a ladder of m variables channelled to the literals (regular encoding)",
    size |m, _| size(m), encode |lits, _, alloc, sink| encode(lits, alloc, sink)
}
