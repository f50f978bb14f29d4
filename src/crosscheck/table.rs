//! The published counts of n-queens solutions, the oracle the other parts are checked against.
//!
//! Total solutions D(n) are OEIS A000170, fundamental solutions U(n) (classes under the 8
//! symmetries of the square) are OEIS A002562, for n = 1..27 (n = 27 was completed in 2016 by
//! the Q27 project). The values are copied from the published sequences, not computed by this
//! crate, so that the counter and the SAT enumeration are compared with something neither of
//! them produced.

/// `(n, U(n), D(n))`: fundamental solutions (OEIS A002562) and all solutions (OEIS A000170).
pub const REFERENCE_COUNTS: [(usize, u64, u64); 27] = [
    (1, 1, 1),
    (2, 0, 0),
    (3, 0, 0),
    (4, 1, 2),
    (5, 2, 10),
    (6, 1, 4),
    (7, 6, 40),
    (8, 12, 92),
    (9, 46, 352),
    (10, 92, 724),
    (11, 341, 2_680),
    (12, 1_787, 14_200),
    (13, 9_233, 73_712),
    (14, 45_752, 365_596),
    (15, 285_053, 2_279_184),
    (16, 1_846_955, 14_772_512),
    (17, 11_977_939, 95_815_104),
    (18, 83_263_591, 666_090_624),
    (19, 621_012_754, 4_968_057_848),
    (20, 4_878_666_808, 39_029_188_884),
    (21, 39_333_324_973, 314_666_222_712),
    (22, 336_376_244_042, 2_691_008_701_644),
    (23, 3_029_242_658_210, 24_233_937_684_440),
    (24, 28_439_272_956_934, 227_514_171_973_736),
    (25, 275_986_683_743_434, 2_207_893_435_808_352),
    (26, 2_789_712_466_510_289, 22_317_699_616_364_044),
    (27, 29_363_495_934_315_694, 234_907_967_154_122_528),
];

/// The published number of solutions D(n) (OEIS A000170), for n = 1..27.
pub fn reference_total(n: usize) -> Option<u64> {
    REFERENCE_COUNTS
        .iter()
        .find(|&&(m, _, _)| m == n)
        .map(|&(_, _, d)| d)
}

/// The published number of fundamental solutions U(n) (OEIS A002562), for n = 1..27.
pub fn reference_fundamental(n: usize) -> Option<u64> {
    REFERENCE_COUNTS
        .iter()
        .find(|&&(m, _, _)| m == n)
        .map(|&(_, u, _)| u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_complete_and_consistent() {
        for (i, &(n, u, d)) in REFERENCE_COUNTS.iter().enumerate() {
            assert_eq!(n, i + 1);
            // A class has 8, 4 or 2 members (1 only for n = 1).
            assert!(u <= d && d <= 8 * u, "n = {n}");
        }
        assert_eq!(reference_total(8), Some(92));
        assert_eq!(reference_fundamental(8), Some(12));
        assert_eq!(reference_total(28), None);
    }
}
