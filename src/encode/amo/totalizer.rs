//! Totalizer at-most-one: the cardinality encoding [`crate::encode::card::totalizer`]
//! (Bailleux & Boufkhad 2003) for k = 1.
//!
//! The literals are the leaves of a balanced binary tree (a list of `s >= 2` split into its
//! first `ceil(s/2)` and last `floor(s/2)`). Every inner node has two outputs, `r_1` ("a
//! literal below is true") and `r_2` ("two are"), forced up by its children's outputs `a`,
//! `b` (a leaf's only output is its literal): `(-a_i v -b_j v r_{i+j})` for
//! `1 <= i + j <= 2`. The root's unit clause `-r_2` forbids two true literals.
//!
//! Size for `m >= 2` literals: `2(m - 1)` auxiliary variables; an inner node costs 3 clauses
//! (7 literals) over two leaves, 4 (9) over a leaf and a subtree, 5 (11) over two subtrees;
//! plus the unit clause. [`crate::encode::card::totalizer::size`] sums the nodes over the
//! O(log m) distinct subtree sizes: about `4m` clauses. For `m <= 1` nothing is emitted.
//!
//! ## References
//! - O. Bailleux and Y. Boufkhad, "Efficient CNF Encoding of Boolean Cardinality
//!   Constraints", Principles and Practice of Constraint Programming (CP 2003), LNCS 2833,
//!   pp. 108-122.

use super::AtMostOneOf;
use crate::encode::card::totalizer::Totalizer;

/// The totalizer at-most-one encoding in the catalogue ([`super::CATALOGUE`]).
pub static TOTALIZER: AtMostOneOf<Totalizer> = AtMostOneOf {
    card: Totalizer,
    summary: "a binary tree of counters up to 2, the cardinality totalizer for k = 1 (Bailleux & Boufkhad 2003)",
    aux_symbol: "t",
    aliases: &[],
};
