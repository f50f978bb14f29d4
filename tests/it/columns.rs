//! The column model end to end: every domain and constraint encoding through the real binary,
//! counts against the published table, exports solved by external solvers and their answers
//! checked by `verify`, and bad option combinations refused.

use crate::common::{counts_are_published, external_answers_verified, run, stderr, stdout};

/// Every column-model combination as command-line options.
const COMBOS: [&[&str]; 6] = [
    &["--model", "columns"],
    &["--model", "columns", "--amo", "sequential"],
    &["--model", "columns", "--domain", "order"],
    &["--model", "columns", "--domain", "log"],
    &["--model", "columns", "--constraints", "support"],
    &["--model", "columns", "--amo", "commander"],
];

#[test]
fn counts_equal_the_published_table() {
    counts_are_published(&COMBOS, 9);
}

#[test]
fn check_covers_every_column_encoding() {
    let o = run(&["check", "--n", "1..7", "--models", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    for name in [
        "columns-direct-pairwise",
        "columns-order",
        "columns-log",
        "columns-direct-support-pairwise",
    ] {
        assert!(stdout(&o).contains(name), "{name} missing");
    }
}

#[test]
fn exports_solved_by_external_solvers_and_verified() {
    external_answers_verified(&COMBOS, &[4, 9, 17, 30]);
}

#[test]
fn header_names_the_variables() {
    let o = run(&["encode", "4", "--model", "columns", "--domain", "order"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    // [x(1) >= 2] is the first ladder variable of row 1 (values 1..4, 3 variables per row).
    assert!(text.lines().any(|l| l == "c var 1 = [x(1) >= 2]"), "{text}");
    // n (n-1) = 12 variables.
    assert!(text.lines().any(|l| l.starts_with("p cnf 12 ")), "{text}");
}

#[test]
fn bad_combinations_are_refused() {
    for args in [
        &["encode", "8", "--domain", "order"][..],
        &["encode", "8", "--constraints", "support"],
        &[
            "encode",
            "8",
            "--model",
            "columns",
            "--domain",
            "log",
            "--constraints",
            "support",
        ],
        &["encode", "8", "--model", "columns", "--domain", "binary"],
        &["encode", "8", "--model", "columns", "--column-alo"],
        &["encode", "8", "--model", "rows"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    let o = run(&["encode", "8", "--model", "columns", "--domain", "binary"]);
    assert!(stderr(&o).contains("order"), "{}", stderr(&o));
}
