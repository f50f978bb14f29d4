//! The direct constructor: validity by an independent oracle, the reference examples, the
//! reference CNF evaluated on the constructed placement, and the `construct` command.

use crate::common::*;

use queens_sat::cnf::{clause_satisfied, ClauseSink, Lit};
use queens_sat::construct::{construct, Case, Construction, Method};
use queens_sat::encode::{cell_var, EncodeOptions, QueensEncoder};
use queens_sat::Placement;
use std::io::Read;
use std::process::Stdio;

/// The independent oracle: n columns, each in 1..=n (1-based, as printed), and no two queens
/// sharing a column, a `r + c` diagonal or a `r - c` diagonal. Written here from the
/// definition, sharing no code with the library's checks.
fn is_solution_1based(cols: &[u64]) -> bool {
    let n = cols.len();
    let mut col = vec![false; n + 1];
    let mut sum = vec![false; 2 * n + 2];
    let mut diff = vec![false; 2 * n + 2];
    for (i, &c) in cols.iter().enumerate() {
        let r = i as u64 + 1;
        if c < 1 || c > n as u64 {
            return false;
        }
        let (s, d) = ((r + c) as usize, (r + n as u64 - c) as usize);
        if col[c as usize] || sum[s] || diff[d] {
            return false;
        }
        col[c as usize] = true;
        sum[s] = true;
        diff[d] = true;
    }
    true
}

fn one_based(p: &Placement) -> Vec<u64> {
    p.cols().iter().map(|&c| c as u64 + 1).collect()
}

fn build(n: usize, m: Method) -> Placement {
    construct(n, m)
        .expect("valid size")
        .expect("a solution exists")
}

#[test]
fn oracle_rejects_non_solutions() {
    assert!(is_solution_1based(&[2, 4, 1, 3]));
    assert!(!is_solution_1based(&[1, 2, 3, 4])); // diagonal
    assert!(!is_solution_1based(&[2, 4, 1, 2])); // column
    assert!(!is_solution_1based(&[4, 2, 1, 3])); // anti-diagonal
    assert!(!is_solution_1based(&[2, 5, 1, 3])); // off the board
}

#[test]
fn both_methods_valid_for_every_n_from_4_to_5000() {
    for m in Method::ALL {
        for n in 4..=5000 {
            let p = build(n, m);
            assert_eq!(p.n(), n);
            assert!(is_solution_1based(&one_based(&p)), "{m} n = {n}: {p}");
            // The streamed columns are the stored ones.
            let c = Construction::new(n, m).unwrap().unwrap();
            assert!(c.columns().eq(p.cols().iter().copied()), "{m} n = {n}");
        }
    }
}

#[test]
fn both_methods_valid_for_sampled_large_n() {
    // Every residue mod 12 (which fixes the case of both methods) near 10^5, 10^6 and 10^7.
    let mut sizes = Vec::new();
    for base in [100_000usize, 1_000_000, 10_000_000] {
        sizes.extend((0..12).map(|k| base - k));
    }
    sizes.extend([999_983, 4_999_999, 7_654_321]);
    for m in Method::ALL {
        for &n in &sizes {
            let p = build(n, m);
            assert!(is_solution_1based(&one_based(&p)), "{m} n = {n}");
        }
    }
}

#[test]
fn reference_examples_exactly() {
    let line = |n, m| build(n, m).to_one_line();
    assert_eq!(line(8, Method::Hlm), "4 6 8 2 7 1 3 5");
    assert_eq!(line(9, Method::Hlm), "4 6 8 2 7 1 3 5 9");
    assert_eq!(line(14, Method::Hlm), "7 9 11 13 1 3 5 10 12 14 2 4 6 8");
    assert_eq!(line(8, Method::Staircase), "2 4 6 8 3 1 7 5");
    assert_eq!(line(9, Method::Staircase), "4 6 8 2 5 7 9 1 3");
    assert_eq!(Case::of(8, Method::Hlm), Some(Case::B1));
    assert_eq!(Case::of(9, Method::Hlm), Some(Case::B3));
    assert_eq!(Case::of(14, Method::Hlm), Some(Case::B2));
}

#[test]
fn small_sizes() {
    for m in Method::ALL {
        assert_eq!(build(1, m).to_one_line(), "1");
        assert_eq!(construct(2, m), Ok(None));
        assert_eq!(construct(3, m), Ok(None));
        assert!(construct(0, m).is_err());
    }
}

/// Evaluates clauses as they stream: counts them and records the first one `assignment`
/// falsifies.
struct EvalSink<'a> {
    assignment: &'a [bool],
    clauses: u64,
    first_falsified: Option<(u64, Vec<Lit>)>,
}

impl ClauseSink for EvalSink<'_> {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        if self.first_falsified.is_none() && !clause_satisfied(clause, self.assignment) {
            self.first_falsified = Some((self.clauses, clause.to_vec()));
        }
        self.clauses += 1;
        Ok(())
    }
}

fn falsified(n: usize, assignment: &[bool]) -> Option<(u64, Vec<Lit>)> {
    let enc = QueensEncoder::new(n, EncodeOptions::default()).unwrap();
    let mut sink = EvalSink {
        assignment,
        clauses: 0,
        first_falsified: None,
    };
    enc.encode(&mut sink).unwrap();
    assert_eq!(sink.clauses, enc.size().clauses);
    sink.first_falsified
}

#[test]
fn assignment_uses_the_cell_variables() {
    for n in [1, 4, 7, 8, 13] {
        let p = build(n, Method::Hlm);
        let a = p.to_assignment();
        assert_eq!(a.len(), n * n);
        for r in 0..n {
            for c in 0..n {
                assert_eq!(
                    a[cell_var(n, r, c).index()],
                    p.col(r) == c,
                    "n = {n} ({r},{c})"
                );
                // DIMACS numbering of the reference: (r-1)*n + c for 1-based r, c.
                assert_eq!(cell_var(n, r, c).to_dimacs() as usize, r * n + c + 1);
            }
        }
    }
}

#[test]
fn constructed_placements_satisfy_the_reference_cnf() {
    for m in Method::ALL {
        for n in 4..=200 {
            let a = build(n, m).to_assignment();
            assert_eq!(falsified(n, &a), None, "{m} n = {n}");
        }
    }
    // In memory too, through Cnf::first_falsified.
    let mut cnf = queens_sat::cnf::Cnf::new();
    QueensEncoder::new(14, EncodeOptions::default())
        .unwrap()
        .encode(&mut cnf)
        .unwrap();
    assert_eq!(
        cnf.first_falsified(&build(14, Method::Hlm).to_assignment()),
        None
    );
}

#[test]
fn the_cnf_check_can_fail() {
    // The main diagonal: every queen on one "\" diagonal.
    let diag = Placement::new((0..8).collect());
    assert!(falsified(8, &diag.to_assignment()).is_some());
    // A valid placement with one queen moved: a column collision.
    let mut cols = build(10, Method::Hlm).into_cols();
    cols[0] = cols[1];
    assert!(falsified(10, &Placement::new(cols).to_assignment()).is_some());
    // No queen at all: the row clauses fail.
    assert!(falsified(5, &[false; 25]).is_some());
}

// ---- the command line ----

fn parse_line(s: &str) -> Vec<u64> {
    s.split_whitespace()
        .map(|t| t.parse().expect("a column number"))
        .collect()
}

#[test]
fn cli_prints_the_reference_examples() {
    for (n, method, expected) in [
        ("8", "hlm", "4 6 8 2 7 1 3 5\n"),
        ("9", "hlm", "4 6 8 2 7 1 3 5 9\n"),
        ("14", "hlm", "7 9 11 13 1 3 5 10 12 14 2 4 6 8\n"),
        ("8", "staircase", "2 4 6 8 3 1 7 5\n"),
        ("9", "staircase", "4 6 8 2 5 7 9 1 3\n"),
        ("1", "hlm", "1\n"),
    ] {
        let o = run(&["construct", n, "--method", method]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), expected, "n = {n} {method}");
    }
    // hlm is the default.
    assert_eq!(stdout(&run(&["construct", "8"])), "4 6 8 2 7 1 3 5\n");
}

#[test]
fn cli_check_names_the_case() {
    for (n, method, case) in [
        ("4", "hlm", "case A1"),
        ("5", "hlm", "case A2"),
        ("8", "hlm", "case B1"),
        ("14", "hlm", "case B2"),
        ("9", "hlm", "case B3"),
        ("15", "hlm", "case B4"),
        ("8", "staircase", "case S2"),
        ("9", "staircase", "case S3"),
        ("10", "staircase", "case S "),
    ] {
        let o = run(&["construct", n, "--method", method, "--check"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(case) && err.contains("valid"),
            "n = {n}: {err}"
        );
        assert!(is_solution_1based(&parse_line(&stdout(&o))));
    }
}

#[test]
fn cli_no_solution_for_2_and_3() {
    for n in ["2", "3"] {
        for extra in [&[][..], &["--check"], &["--format", "board"]] {
            let mut args = vec!["construct", n];
            args.extend_from_slice(extra);
            let o = run(&args);
            assert_eq!(o.status.code(), Some(0));
            assert_eq!(stdout(&o), format!("no solution exists for n = {n}\n"));
        }
    }
}

#[test]
fn cli_board_format() {
    let o = run(&["construct", "4", "--format", "board"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
    let o = run(&["construct", "101", "--format", "board"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("--format board draws boards up to n = 100"));
}

#[test]
fn cli_bad_input() {
    for (args, needle) in [
        (&["construct", "0"][..], "at least 1"),
        (&["construct", "-5"], "positive integer"),
        (&["construct", "abc"], "positive integer"),
        (&["construct", "12.5"], "positive integer"),
        (&["construct", "99999999999999999999999"], "too large"),
        (&["construct", "4294967296"], "too large"),
        (
            &["construct", "8", "--method", "magic"],
            "unknown construction method",
        ),
        (&["construct", "8", "--format", "png"], "png"),
        (&["construct"], "required"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error:") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}");
    }
}

#[test]
fn cli_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.txt");
    let o = run(&["construct", "14", "-o", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "7 9 11 13 1 3 5 10 12 14 2 4 6 8\n"
    );
}

#[test]
fn cli_large_n_streams_a_valid_answer() {
    for method in ["hlm", "staircase"] {
        for n in [1_000_000u64, 999_999, 999_998, 1_000_001] {
            let o = run(&["construct", &n.to_string(), "--method", method]);
            assert!(o.status.success(), "{}", stderr(&o));
            let cols = parse_line(&stdout(&o));
            assert_eq!(cols.len() as u64, n);
            assert!(is_solution_1based(&cols), "{method} n = {n}");
        }
    }
    let o = run(&["construct", "10000000", "--check", "--format", "none"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("valid"));
}

#[test]
fn cli_huge_n_streams_without_storing_the_answer() {
    // 4 * 10^9 queens: about 43 GB of text. The first bytes must come at once and a closed
    // pipe must end the command quietly.
    let mut child = spawn(
        bin()
            .args(["construct", "4000000000"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    let mut head = vec![0u8; 4096];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    assert!(String::from_utf8_lossy(&head).starts_with("2 4 6 8 10 "));
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.is_empty(), "{err}");
}
