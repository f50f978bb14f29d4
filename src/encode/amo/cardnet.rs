//! Cardinality-network at-most-one: the [cardinality network](crate::encode::card::cardnet)
//! cardinality encoding (Asin et al. 2011) for k = 1.
//!
//! For k = 1 the network reads 2 outputs, so its blocks have 2 literals (the last one padded
//! with a false constant when `m` is odd): each block is sorted by one comparator, and the
//! blocks are merged from the last to the first by simplified merges that keep 2 of their 3
//! outputs (3 comparators; 2 for the merge with a padded block). Every comparator on `a`, `b`
//! takes two fresh variables `hi` (`a or b`) and `lo` (`a and b`), forced up by `(-a v hi)`,
//! `(-b v hi)`, `(-a v -b v lo)`. The unit clause `-y_2` forbids two true literals.
//!
//! Size for `m >= 2` literals: `2m - 3` comparators, so `4m - 6` auxiliary variables,
//! `6m - 8` clauses and `14m - 20` literals (closed form checked against
//! [`crate::encode::card::cardnet::size`] by the tests). For `m <= 1` nothing is emitted.
//!
//! ## References
//! - R. Asin, R. Nieuwenhuis, A. Oliveras and E. Rodriguez-Carbonell, "Cardinality Networks: a
//!   Theoretical and Empirical Study", Constraints 16(2) (2011), pp. 195-221.

use super::AtMostOneOf;
use crate::encode::card::cardnet::CardNet;

/// The cardinality-network at-most-one encoding in the catalogue ([`super::CATALOGUE`]).
pub static CARDNET: AtMostOneOf<CardNet> = AtMostOneOf {
    card: CardNet,
    summary:
        "sorted pairs merged keeping the first 2 outputs, second output false (Asin et al. 2011)",
    aux_symbol: "w",
    aliases: &["cardnetwrk"],
};
