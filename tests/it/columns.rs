//! The column model end to end: every domain and constraint encoding through the real binary,
//! counts against the published table, exports solved by external solvers and their answers
//! checked by `verify`, and bad option combinations refused.

use crate::common::{published_total, require, run, run_external, stderr, stdout};

/// Every column-model combination as command-line options.
const COMBOS: [&[&str]; 6] = [
    &["--model", "columns"],
    &["--model", "columns", "--amo", "sequential"],
    &["--model", "columns", "--domain", "order"],
    &["--model", "columns", "--domain", "log"],
    &["--model", "columns", "--constraints", "support"],
    &["--model", "columns", "--amo", "commander"],
];

fn with(base: &[&str], opts: &[&str]) -> Vec<String> {
    base.iter().chain(opts).map(|s| s.to_string()).collect()
}

#[test]
fn counts_equal_the_published_table() {
    for opts in COMBOS {
        for n in 1..=9usize {
            let o = run(&with(&["solve", &n.to_string(), "--count"], opts));
            assert_eq!(o.status.code(), Some(0), "{opts:?} n={n}: {}", stderr(&o));
            let got: u64 = stdout(&o).trim().parse().unwrap();
            assert_eq!(got, published_total(n), "{opts:?} n={n}");
        }
    }
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
    let dir = tempfile::tempdir().unwrap();
    for solver in ["cadical", "minisat"] {
        if !require(solver) {
            continue;
        }
        for opts in COMBOS {
            for n in [4usize, 9, 17, 30] {
                let cnf = dir.path().join(format!("c{n}.cnf"));
                let o = run(&with(
                    &["encode", &n.to_string(), "-o", cnf.to_str().unwrap()],
                    opts,
                ));
                assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
                let model = run_external(solver, &cnf).expect("n >= 4 has solutions");
                let answer = dir.path().join("answer.txt");
                let verify = |model: &[i64]| {
                    let lits: Vec<String> = model.iter().map(i64::to_string).collect();
                    let text = format!("s SATISFIABLE\nv {} 0\n", lits.join(" "));
                    std::fs::write(&answer, text).unwrap();
                    let o = run(&with(
                        &["verify", &n.to_string(), answer.to_str().unwrap()],
                        opts,
                    ));
                    (o.status.code(), stdout(&o))
                };
                let (code, out) = verify(&model);
                assert_eq!(code, Some(0), "{solver} {opts:?} n={n}: {out}");
                // Flip the first literal: a wrong answer is rejected.
                let mut wrong = model.clone();
                wrong[0] = -wrong[0];
                let (code, out) = verify(&wrong);
                assert_eq!(code, Some(1), "{solver} {opts:?} n={n}: {out}");
            }
        }
    }
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
