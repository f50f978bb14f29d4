//! Pairwise (binomial) at-most-one: for every pair `i < j`, the clause `(-x_i v -x_j)`.
//!
//! Size for `m` literals: `m(m-1)/2` binary clauses, `m(m-1)` literals, no auxiliary variables.
//! It is the encoding of the reference n-queens model and the strongest for unit propagation,
//! but quadratic in the line length.
//!
//! ## References
//! - The textbook encoding; see e.g. S. D. Prestwich, "CNF Encodings", Handbook of
//!   Satisfiability (2009), section 2.2.

use super::Size;
use crate::cnf::{ClauseSink, Lit};
use itertools::Itertools;
use std::io;

/// Size of the pairwise encoding of `m` literals.
pub fn size(m: usize) -> Size {
    let pairs = (m as u64).saturating_mul((m as u64).saturating_sub(1)) / 2;
    Size {
        vars: 0,
        clauses: pairs,
        literals: 2 * pairs,
    }
}

/// Emits `(-x_i v -x_j)` for every `i < j`, in lexicographic order of `(i, j)`.
pub fn encode<S: ClauseSink + ?Sized>(lits: &[Lit], sink: &mut S) -> io::Result<()> {
    lits.iter()
        .tuple_combinations()
        .try_for_each(|(&a, &b)| sink.add_clause(&[!a, !b]))
}

at_most_one_entry! {
    /// The pairwise encoding in the catalogue ([`super::CATALOGUE`]).
    Pairwise, "pairwise" or "binomial", aux "x":
        "one binary clause per pair of literals, no auxiliary variables",
    size |m, _| size(m), encode |lits, _, _, sink| encode(lits, sink)
}
