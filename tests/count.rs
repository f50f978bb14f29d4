//! The backtracking counter against the reference table, against the plain enumeration, across
//! thread counts and interruptions, and through the command line.

use queens_sat::check::is_solution;
use queens_sat::count::{self, Counter, Outcome};
use queens_sat::Placement;
use std::collections::BTreeSet;
use std::process::Command;

/// (n, fundamental U, total D) from the reference table (OEIS A002562, A000170).
const TABLE: &[(usize, u64, u64)] = &[
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
];

#[test]
fn counts_match_reference_table_up_to_15() {
    for &(n, u, d) in TABLE.iter().filter(|t| t.0 <= 15) {
        let c = count::count(n).unwrap();
        assert_eq!((c.n, c.total, c.fundamental), (n, d, u), "n = {n}");
        let k = c.classes;
        assert_eq!(8 * k.of8 + 4 * k.of4 + 2 * k.of2 + k.of1, d, "n = {n}");
        assert_eq!(k.of8 + k.of4 + k.of2 + k.of1, u, "n = {n}");
    }
}

#[test]
#[ignore = "slow: n = 16 and 17 (run with --ignored)"]
fn counts_match_reference_table_16_17() {
    for &(n, u, d) in TABLE.iter().filter(|t| t.0 >= 16) {
        let c = count::count(n).unwrap();
        assert_eq!((c.total, c.fundamental), (d, u), "n = {n}");
    }
}
