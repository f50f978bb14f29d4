//! Modulo totalizer at-most-one: the [modulo totalizer](crate::encode::card::mtotalizer)
//! cardinality encoding (Ogawa et al. 2013) for k = 1.
//!
//! For k = 1 the modulus is `p = 2`: every inner node of the balanced binary tree over the
//! literals counts its true literals as a parity digit `L_1` ("an odd number"), a quotient
//! digit `U_1` ("two or more", the only one the test needs) and a carry `C` ("both children
//! odd"), all forced up from the children's digits (a leaf's only digit is its literal, as
//! `L_1`); the root's unit clause `-U_1` forbids two true literals.
//!
//! Size for `m >= 2` literals: `3(m - 1)` auxiliary variables. An inner node over `s`
//! literals has 3 lower-digit clauses (9 literals), one binary clause per child whose upper
//! digit exists (children over 2 or more literals), the binary clause `-C v U_1`, and, for
//! `s = 3, 4, 5`, the clause that forbids a carry on top of two full upper digits; plus the
//! unit clause. [`crate::encode::card::mtotalizer::size`] sums the nodes over the O(log m)
//! distinct subtree sizes: about `5.3m` clauses. For `m <= 1` nothing is emitted.
//!
//! ## References
//! - T. Ogawa, Y. Liu, R. Hasegawa, M. Koshimura and H. Fujita, "Modulo Based CNF Encoding of
//!   Cardinality Constraints and Its Application to MaxSAT Solvers", IEEE 25th International
//!   Conference on Tools with Artificial Intelligence (ICTAI 2013), pp. 9-17.

use super::AtMostOneOf;
use crate::encode::card::mtotalizer::ModuloTotalizer;

/// The modulo totalizer at-most-one encoding in the catalogue ([`super::CATALOGUE`]).
pub static MTOTALIZER: AtMostOneOf<ModuloTotalizer> = AtMostOneOf {
    card: ModuloTotalizer,
    summary: "a binary tree counting in parity and quotient digits, the modulo totalizer for k = 1 (Ogawa et al. 2013)",
    aux_symbol: "d",
    aliases: &[],
};
