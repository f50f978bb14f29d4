//! One numbering of clauses in every output, and a grader that is hard to fool: rules that hold
//! only because the rest of the board forces them, ranges of n from a generator, n up to 12,
//! 0-based files named. The flawed generator is written here (a Python script); the oracles are
//! the reference table, a backtracking count written here, and CaDiCaL.

use crate::common::{
    is_valid_placement, published_total, python, require, run, run_external, stderr, stdout,
};
use std::path::Path;

/// A generator of the pairwise model that writes a diagonal's pair only when the two cells are
/// fewer than NEAR rows apart (a loop bound too small): `gen.py N NEAR [zero]`, `zero` for
/// 0-based variable numbers.
const GENERATOR: &str = r#"
import sys
n, near = int(sys.argv[1]), int(sys.argv[2])
base = 0 if len(sys.argv) > 3 else 1
def v(r, c):
    return r * n + c + base
clauses = [[v(r, c) for c in range(n)] for r in range(n)]
cells = [(r, c) for r in range(n) for c in range(n)]
for i, a in enumerate(cells):
    for b in cells[i + 1:]:
        line = a[0] == b[0] or a[1] == b[1]
        diagonal = abs(a[0] - b[0]) == abs(a[1] - b[1])
        if line or (diagonal and abs(a[0] - b[0]) < near):
            clauses.append([-v(*a), -v(*b)])
print("p cnf %d %d" % (n * n, len(clauses)))
for c in clauses:
    print(" ".join(str(l) for l in c) + " 0")
"#;

/// Writes the generator into `dir`: the command that runs it, before its arguments.
fn generator(dir: &Path) -> String {
    let script = dir.join("gen.py");
    std::fs::write(&script, GENERATOR).unwrap();
    format!("'{}' '{}'", python().display(), script.display())
}

/// The generator's output for `args` (`N NEAR [zero]`).
fn generate(dir: &Path, args: &str) -> String {
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{} {args}", generator(dir)))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Permutations of n (a queen per row and column) with no two queens on a diagonal fewer than
/// `near` rows apart: the boards of the flawed file, counted by backtracking.
fn flawed_count(n: usize, near: usize) -> u64 {
    fn place(n: usize, near: usize, cols: &mut Vec<usize>) -> u64 {
        let r = cols.len();
        if r == n {
            return 1;
        }
        let mut total = 0;
        for c in 0..n {
            let clash = cols
                .iter()
                .enumerate()
                .any(|(r2, &c2)| c2 == c || (r - r2 == c.abs_diff(c2) && r - r2 < near));
            if !clash {
                cols.push(c);
                total += place(n, near, cols);
                cols.pop();
            }
        }
        total
    }
    place(n, near, &mut Vec::new())
}

/// The pairs of cells (1-based) on one diagonal `near` or more rows apart: those the flawed
/// generator leaves out.
fn left_out(n: usize, near: usize) -> Vec<((usize, usize), (usize, usize))> {
    let mut out = Vec::new();
    for a in 0..n * n {
        for b in a + 1..n * n {
            let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
            if rb - ra == ca.abs_diff(cb) && rb - ra >= near {
                out.push(((ra + 1, ca + 1), (rb + 1, cb + 1)));
            }
        }
    }
    out
}

/// Grades `text` as n-queens with `extra` arguments.
fn grade(n: usize, text: &str, extra: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.cnf");
    std::fs::write(&f, text).unwrap();
    let ns = n.to_string();
    let mut args = vec!["grade", ns.as_str(), f.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn one_number_names_a_clause_in_verify_explain_why_latex_and_grade() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("q4.cnf");
    let o = run(&["encode", "4", "-o", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&f).unwrap();
    // q(2,3) is variable 7, q(3,2) variable 10: the clause's place among the clause lines.
    let k = crate::grade::clauses(&text)
        .iter()
        .position(|c| {
            let mut c = c.clone();
            c.sort();
            c == [-10, -7]
        })
        .expect("the clause -q(2,3) -q(3,2)")
        + 1;
    let has = |line: &str| line.contains("q(2,3)") && line.contains("q(3,2)");

    // verify: the board 1 3 2 4 breaks no row or column, and no / diagonal before (2,3)-(3,2).
    let answer = dir.path().join("answer.txt");
    std::fs::write(&answer, "1 3 2 4\n").unwrap();
    let answer = answer.to_str().unwrap();
    let o = run(&["verify", "4", answer, "--explain"]);
    let out = stdout(&o);
    assert!(
        out.contains(&format!("clause {k} ")),
        "verify does not name clause {k}:\n{out}"
    );
    assert!(
        out.contains(&format!("the first false: clause {k})")),
        "{out}"
    );
    let o = run(&["verify", answer, "--cnf", f.to_str().unwrap()]);
    assert!(
        stdout(&o).contains(&format!("clause {k} ")),
        "{}",
        stdout(&o)
    );

    // explain: the listing's clause number k, and the commented DIMACS's comment above it.
    let out = stdout(&run(&["explain", "4", "--ascii"]));
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{k}. ")))
        .unwrap_or_else(|| panic!("no clause {k} in:\n{out}"));
    assert!(has(line), "{line}");
    let out = stdout(&run(&["explain", "4", "--format", "dimacs-commented"]));
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(&format!("c clause {k},")))
        .unwrap_or_else(|| panic!("no comment of clause {k}:\n{out}"));
    assert!(has(lines[at]), "{}", lines[at]);
    let mut next: Vec<i64> = lines[at + 1]
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    next.sort();
    assert_eq!(next, [-10, -7, 0]);

    // LaTeX: the clause of q_{2,3} and q_{3,2} is tagged k.
    let out = stdout(&run(&["explain", "4", "--format", "latex"]));
    let tagged = out
        .lines()
        .find(|l| l.contains(&format!(r"\tag{{{k}}}")))
        .unwrap_or_else(|| panic!("no tag {k}"));
    assert!(tagged.contains("2,3") && tagged.contains("3,2"), "{tagged}");

    // --why: a queen on (2,3) and none on (3,1) leave row 3 no cell; the core lists the clause
    // as number k, and the argument uses it by that number.
    let out = stdout(&run(&[
        "solve", "4", "--place", "2,3", "--forbid", "3,1", "--why",
    ]));
    assert!(
        out.lines()
            .any(|l| l.contains(&format!("by clause {k}: ")) && has(l)),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{k}. ")))
        .unwrap_or_else(|| panic!("no clause {k} in:\n{out}"));
    assert!(has(line), "{line}");

    // grade --rules: the rule of the pair is stated by clause k of the file.
    let o = run(&["grade", "4", f.to_str().unwrap(), "--rules"]);
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.contains("not both (2,3) and (3,2)"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.ends_with(&format!("on its own, clause {k}")), "{line}");
}

#[test]
fn diagonal_pairs_left_out_but_implied_at_5_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let n = 5;
    let near = 3;
    // The oracle: at n = 5 the flawed file has exactly the solutions, at n = 6 more.
    assert_eq!(flawed_count(n, near), published_total(n));
    assert!(flawed_count(6, near) > published_total(6));
    let text = generate(dir.path(), &format!("{n} {near}"));
    let o = grade(n, &text, &["--rules"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let missing = left_out(n, near);
    assert!(!missing.is_empty());
    assert!(
        out.contains(&format!(
            "on its own: NO, {} rules hold only because the rest of the board forces them at n = 5",
            missing.len()
        )),
        "{out}"
    );
    assert!(out.contains("verdict: RIGHT for n = 5"), "{out}");
    // Each rule: the left-out pairs only by the rest and without a clause; every other rule on
    // its own, stated by its clause of the file.
    let clauses = crate::grade::clauses(&text);
    let var = |(r, c): (usize, usize)| ((r - 1) * n + c) as i64;
    let rules: Vec<&str> = out.lines().filter(|l| l.starts_with("  Q")).collect();
    assert_eq!(rules.len(), clauses.len() + missing.len(), "{out}");
    for line in rules {
        let dropped = missing.iter().find(|(a, b)| {
            line.contains(&format!("not both ({},{}) and ({},{})", a.0, a.1, b.0, b.1))
        });
        match dropped {
            Some(_) => assert!(
                line.ends_with("only by the rest of the board, no clause of its own"),
                "{line}"
            ),
            None => {
                let k: usize = line
                    .rsplit("clause ")
                    .next()
                    .and_then(|t| t.parse().ok())
                    .unwrap_or_else(|| panic!("{line}"));
                assert!(line.contains(": on its own, clause"), "{line}");
                // The clause k of the file is the rule's: its cells are those the line names.
                let mut lits = clauses[k - 1].clone();
                lits.sort();
                let cells: Vec<(usize, usize)> = line
                    .split('(')
                    .skip(1)
                    .filter_map(|t| {
                        let (r, rest) = t.split_once(',')?;
                        let c = rest.split(')').next()?;
                        Some((r.parse().ok()?, c.parse().ok()?))
                    })
                    .collect();
                let mut want: Vec<i64> = if line.contains("a queen in row") {
                    let r: usize = line
                        .split("row ")
                        .nth(1)
                        .and_then(|t| t.split(':').next())
                        .unwrap()
                        .parse()
                        .unwrap();
                    (1..=n).map(|c| var((r, c))).collect()
                } else {
                    cells.iter().map(|&x| -var(x)).collect()
                };
                want.sort();
                assert_eq!(lits, want, "{line}");
            }
        }
    }

    // The same generator at n = 6 is wrong, with a real diagonal attack that CaDiCaL confirms
    // as a model of the file.
    let text6 = generate(dir.path(), &format!("6 {near}"));
    let o = grade(6, &text6, &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("verdict: WRONG for n = 6"), "{out}");
    let board = board_after(&out, "sound: NO");
    assert!(!is_valid_placement(6, &board), "{out}");
    if require("cadical") {
        let mut units = text6.clone();
        let count = crate::grade::clauses(&text6).len() + 36;
        units = units.replacen(
            &format!("p cnf 36 {}", count - 36),
            &format!("p cnf 36 {count}"),
            1,
        );
        for k in 0..36 {
            let q = board.contains(&(k / 6, k % 6));
            units.push_str(&format!("{}{} 0\n", if q { "" } else { "-" }, k + 1));
        }
        let f = dir.path().join("board.cnf");
        std::fs::write(&f, units).unwrap();
        assert!(
            run_external("cadical", &f).is_some(),
            "the board is not a model of the file:\n{out}"
        );
    }
}

/// The queens (0-based) of the board drawn after the line starting with `after`.
fn board_after(report: &str, after: &str) -> Vec<(usize, usize)> {
    let mut lines = report.lines().skip_while(|l| !l.starts_with(after));
    lines
        .next()
        .unwrap_or_else(|| panic!("no '{after}':\n{report}"));
    let mut queens = Vec::new();
    for (r, l) in lines
        .take_while(|l| l.starts_with("  ") && l.trim().chars().all(|c| "Q. ".contains(c)))
        .enumerate()
    {
        for (c, t) in l.split_whitespace().enumerate() {
            if t == "Q" {
                queens.push((r, c));
            }
        }
    }
    queens
}

#[test]
fn right_files_have_no_warning() {
    for amo in ["pairwise", "sequential", "commander", "bimander"] {
        let o = run(&["encode", "7", "--amo", amo]);
        let text = stdout(&o);
        let o = grade(7, &text, &[]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{amo}: {out}{}", stderr(&o));
        assert!(
            out.contains("on its own: yes, the file enforces each rule"),
            "{amo}: {out}"
        );
        assert!(out.contains("verdict: RIGHT, the models are exactly the 40 solutions"));
    }
}

#[test]
fn a_range_from_a_generator_names_the_smallest_wrong_n() {
    let dir = tempfile::tempdir().unwrap();
    let near = 6;
    let ns: Vec<usize> = (4..=9).collect();
    // The oracle: the smallest n whose flawed boards outnumber the solutions.
    let first_wrong = *ns
        .iter()
        .find(|&&n| flawed_count(n, near) > published_total(n))
        .unwrap();
    let command = format!("{} {{n}} {near}", generator(dir.path()));
    let o = run(&["grade", "--n", "4..9", "--generator", &command]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert_eq!(out.lines().count(), ns.len() + 1, "{out}");
    for &n in &ns {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("n = {n}: ")))
            .unwrap();
        let right = flawed_count(n, near) == published_total(n);
        assert_eq!(line.contains(": RIGHT"), right, "{line}");
        // Right, but pairs left out: the warning.
        if right && !left_out(n, near).is_empty() {
            assert!(
                line.contains("only because the rest of the board"),
                "{line}"
            );
        }
    }
    assert!(
        out.contains(&format!("verdict: WRONG from n = {first_wrong} on")),
        "{out}"
    );

    // The same files by a pattern: the same lines.
    for &n in &ns {
        std::fs::write(
            dir.path().join(format!("s-{n}.cnf")),
            generate(dir.path(), &format!("{n} {near}")),
        )
        .unwrap();
    }
    let pattern = dir.path().join("s-{n}.cnf");
    let o = run(&["grade", "--n", "4..9", pattern.to_str().unwrap()]);
    assert_eq!(stdout(&o), out);

    // A generator that fails is bad input, in one line.
    let o = run(&["grade", "--n", "4..5", "--generator", "exit 3 # {n}"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("n = 4: 'exit 3 # 4' exited with status 3"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).trim_end().lines().count(), 1);
}

#[test]
fn zero_based_numbering_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let text = generate(dir.path(), "5 10 zero");
    let o = grade(5, &text, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("variable numbers start at 1: this file seems to use 0-based numbering"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // Only variable 0 written as `0`, never negated: the first row's clause `0 1 2 3 4 0`.
    let text = "p cnf 25 2\n0 1 2 3 4 0\n5 6 7 8 9 0\n";
    let err = stderr(&grade(5, text, &[]));
    assert!(err.contains("line 2: variable numbers start at 1"), "{err}");
}

#[test]
fn n_11_and_12_are_graded_against_the_table() {
    for (n, amo) in [(11, "pairwise"), (12, "pairwise"), (12, "sequential")] {
        let text = stdout(&run(&["encode", &n.to_string(), "--amo", amo]));
        let start = std::time::Instant::now();
        let o = grade(n, &text, &[]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
        let total = published_total(n);
        assert!(
            out.contains(&format!(
                "projected count: {total} (models projected onto the cells), the counter's: {total}"
            )),
            "{out}"
        );
        eprintln!("grade {n} ({amo}): {:.2?}", start.elapsed());
    }
}
