//! Sequential counter at-most-one (Sinz 2005), the counter `LTseq` for k = 1.
//!
//! For literals `x_1 .. x_m` (m >= 2) it adds `m - 1` auxiliary variables `s_1 .. s_{m-1}`,
//! where `s_i` means "some `x_j` with `j <= i` is true" (it is forced true by such an `x_j`, and
//! free otherwise), and the clauses
//!
//! ```text
//! (-x_1 v s_1)
//! (-x_i v s_i), (-s_{i-1} v s_i), (-x_i v -s_{i-1})     for 1 < i < m
//! (-x_m v -s_{m-1})
//! ```
//!
//! Size for `m >= 2` literals: `m - 1` auxiliary variables, `3m - 4` binary clauses,
//! `6m - 8` literals. For `m <= 1` nothing is emitted.
//!
//! Unit propagation keeps arc consistency: a true `x_i` propagates `s_j` for `j >= i` and
//! then `-x_j` for every `j > i`, and `-s_{i-1}` and so `-x_j` for every `j < i`.
//!
//! ## References
//! - C. Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality Constraints", Principles
//!   and Practice of Constraint Programming (CP 2005), LNCS 3709, pp. 827-831.

use super::Size;
use crate::cnf::{ClauseSink, Lit};
use crate::encode::VarAlloc;
use std::io;

/// Size of the sequential counter on `m` literals.
pub fn size(m: usize) -> Size {
    if m <= 1 {
        return Size::default();
    }
    let m = m as u64;
    Size {
        vars: m - 1,
        clauses: 3 * m - 4,
        literals: 6 * m - 8,
    }
}

/// Emits the sequential counter for "at most one of `lits`", in the order of the formula above
/// (`s_1 .. s_{m-1}` are taken from `alloc` first).
pub fn encode<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<()> {
    let m = lits.len();
    if m <= 1 {
        return Ok(());
    }
    let s = alloc.fresh_lits(m - 1);
    sink.add_clause(&[!lits[0], s[0]])?;
    for i in 1..m - 1 {
        sink.add_clause(&[!lits[i], s[i]])?;
        sink.add_clause(&[!s[i - 1], s[i]])?;
        sink.add_clause(&[!lits[i], !s[i - 1]])?;
    }
    sink.add_clause(&[!lits[m - 1], !s[m - 2]])?;
    Ok(())
}

at_most_one_entry! {
    /// The sequential encoding in the catalogue ([`super::CATALOGUE`]).
    Sequential, "sequential" or "seq", "seqcounter", aux "s":
        "a chain of m - 1 \"some literal so far\" variables (Sinz 2005)",
    size |m, _| size(m), encode |lits, _, alloc, sink| encode(lits, alloc, sink)
}
