//! Sorting-network at-most-one: the [sorting network](crate::encode::card::sortnet)
//! cardinality encoding (Batcher's odd-even merge sort; Een & Sorensson 2006) for k = 1.
//!
//! The literals go through a complete odd-even merge sorting network; every comparator on
//! `a`, `b` takes two fresh variables `hi` (`a or b`) and `lo` (`a and b`), forced up by
//! `(-a v hi)`, `(-b v hi)`, `(-a v -b v lo)`. The unit clause `-y_2` on the second output
//! of the sorter forbids two true literals.
//!
//! Size for `m >= 2` literals, with `C(m)` the comparators of the sorter
//! ([`crate::encode::card::sortnet::comparators`], a recursion over O(log^2 m) argument
//! pairs; `(m/4) log2 m (log2 m - 1) + m - 1` for a power of two): `2 C(m)` auxiliary
//! variables, `3 C(m) + 1` clauses, `7 C(m) + 1` literals. For `m <= 1` nothing is emitted.
//!
//! ## References
//! - K. E. Batcher, "Sorting Networks and Their Applications", AFIPS Spring Joint Computer
//!   Conference 1968, pp. 307-314.
//! - N. Een and N. Sorensson, "Translating Pseudo-Boolean Constraints into SAT", Journal on
//!   Satisfiability, Boolean Modeling and Computation 2 (2006), pp. 1-26.

use super::AtMostOneOf;
use crate::encode::card::sortnet::SortNet;

/// The sorting-network at-most-one encoding in the catalogue ([`super::CATALOGUE`]).
pub static SORTNET: AtMostOneOf<SortNet> = AtMostOneOf {
    card: SortNet,
    summary: "a complete odd-even merge sorting network, second output false (Batcher; Een & Sorensson 2006)",
    aux_symbol: "z",
    aliases: &["sortnetwrk"],
};
