//! Binary (bitwise) at-most-one (Frisch et al. 2005; Prestwich).
//!
//! For literals `x_0 .. x_{m-1}` it adds `b = ceil(log2 m)` auxiliary bit variables
//! `B_0 .. B_{b-1}`, and makes every true literal write its index in binary onto them: for
//! every `i` and every bit `j`, the clause `(-x_i v B_j)` if bit `j` of `i` is 1, else
//! `(-x_i v -B_j)`. Two true literals have different indices, so they would force some bit
//! both ways.
//!
//! Size for `m` literals: `b = ceil(log2 m)` auxiliary variables, `m * b` binary clauses,
//! `2 m b` literals (nothing for `m <= 1`). Clauses are emitted literal by literal, bit 0 first.
//!
//! The encoding has the fewest auxiliaries of all here. A true `x_i` still falsifies every
//! other literal by unit propagation (it fixes all bits, and every other `x_k` has a clause on
//! a bit where `k` differs from `i`), but partial information on the bits propagates little.
//!
//! ## References
//! - A. M. Frisch, T. J. Peugniez, A. J. Doggett and P. W. Nightingale, "Solving Non-Boolean
//!   Satisfiability Problems with Stochastic Local Search: A Comparison of Encodings", Journal
//!   of Automated Reasoning 35 (2005), pp. 143-179.
//! - S. D. Prestwich, "CNF Encodings", Handbook of Satisfiability (2009), chapter 2 (the
//!   "bitwise" encoding).

use super::{bits_for, Size};
use crate::cnf::{ClauseSink, Lit};
use crate::encode::VarAlloc;
use std::io;

/// Size of the binary encoding on `m` literals.
pub fn size(m: usize) -> Size {
    let b = bits_for(m) as u64;
    let m = m as u64;
    Size {
        vars: b,
        clauses: m.saturating_mul(b),
        literals: m.saturating_mul(b).saturating_mul(2),
    }
}

/// Emits the binary encoding of "at most one of `lits`" (the bits are taken from `alloc`).
pub fn encode<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<()> {
    let bits = alloc.fresh_lits(bits_for(lits.len()));
    encode_indices(lits, |i| i, &bits, sink)
}

/// For every literal `lits[i]` and every bit `j`: `lits[i]` implies that `bits[j]` equals bit
/// `j` of `index(i)`. Shared with the bimander encoding (where the index is the group's).
pub(crate) fn encode_indices<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    index: impl Fn(usize) -> usize,
    bits: &[Lit],
    sink: &mut S,
) -> io::Result<()> {
    for (i, &x) in lits.iter().enumerate() {
        let idx = index(i);
        for (j, &b) in bits.iter().enumerate() {
            let bit = if idx >> j & 1 == 1 { b } else { !b };
            sink.add_clause(&[!x, bit])?;
        }
    }
    Ok(())
}

at_most_one_entry! {
    /// The binary encoding in the catalogue ([`super::CATALOGUE`]).
    Binary, "binary" or "bitwise", aux "b":
        "each literal forces its index in binary onto ceil(log2 m) bits",
    size |m, _| size(m), encode |lits, _, alloc, sink| encode(lits, alloc, sink)
}
