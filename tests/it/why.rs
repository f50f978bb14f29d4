//! `solve --explain`, `solve --why` and `verify`'s false clause in words, checked against
//! independent oracles: the clause counts of the reference model, the DIMACS that `encode`
//! exports evaluated here, and a real solver (cadical) on the printed core.

use crate::common::*;
use std::collections::HashSet;
use std::path::Path;

/// The clauses of `encode N EXTRA...` as DIMACS literals.
fn exported(n: usize, extra: &[&str]) -> Vec<Vec<i64>> {
    let mut args = vec!["encode".to_string(), n.to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_ok(&args)
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .map(|l| {
            l.split_whitespace()
                .map(|t| t.parse::<i64>().unwrap())
                .take_while(|&v| v != 0)
                .collect()
        })
        .collect()
}

/// `q(r,c)` / `¬q(r,c)` as a DIMACS literal by the numbering rule `(r-1)*n + c`.
fn lit(n: usize, tok: &str) -> Option<i64> {
    let (neg, name) = match tok.strip_prefix('¬') {
        Some(rest) => (true, rest),
        None => (false, tok),
    };
    let rc = name.strip_prefix("q(")?.strip_suffix(')')?;
    let (r, c) = rc.split_once(',')?;
    let v = (r.parse::<i64>().ok()? - 1) * n as i64 + c.parse::<i64>().ok()?;
    Some(if neg { -v } else { v })
}

/// The core printed by `--why`: the clause lines under the group headings, before the
/// argument.
fn printed_core(n: usize, text: &str) -> (usize, usize, Vec<(usize, Vec<i64>)>) {
    let head = text
        .lines()
        .find(|l| l.contains(" clauses already contradict each other"))
        .expect("core heading");
    let words: Vec<&str> = head.split_whitespace().collect();
    let (k, total) = (words[0].parse().unwrap(), words[3].parse().unwrap());
    let mut core = Vec::new();
    for l in text
        .lines()
        .skip_while(|l| !l.contains("contradict each other;"))
        .skip(1)
        .take_while(|l| !l.starts_with("Why"))
    {
        if let Some(rest) = l.strip_prefix("    ") {
            // `60. ¬q(2,3) ∨ ¬q(3,2)   / diagonal r+c=5`: the number, then the clause.
            let (number, rest) = rest.trim_start().split_once(". ").expect("a number");
            let clause: Vec<i64> = rest
                .split_whitespace()
                .filter(|t| *t != "∨")
                .map_while(|t| lit(n, t))
                .collect();
            core.push((number.parse().unwrap(), clause));
        }
    }
    (k, total, core)
}

fn write_cnf(path: &Path, clauses: &[Vec<i64>], vars: usize) {
    let mut s = format!("p cnf {vars} {}\n", clauses.len());
    for c in clauses {
        for l in c {
            s.push_str(&format!("{l} "));
        }
        s.push_str("0\n");
    }
    std::fs::write(path, s).unwrap();
}

/// Checks with cadical that `core` is unsatisfiable and that dropping any one clause makes it
/// satisfiable.
fn cadical_confirms_mus(core: &[Vec<i64>], vars: usize) {
    if !require("cadical") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("core.cnf");
    write_cnf(&path, core, vars);
    assert_eq!(
        run_external("cadical", &path),
        None,
        "the core is satisfiable"
    );
    for k in 0..core.len() {
        let mut rest = core.to_vec();
        rest.remove(k);
        write_cnf(&path, &rest, vars);
        assert!(
            run_external("cadical", &path).is_some(),
            "not minimal: {:?} can go",
            core[k]
        );
    }
}

#[test]
fn why_prints_a_minimal_core_that_cadical_confirms() {
    for (n, extra, unit) in [
        (2, vec![], None),
        (3, vec![], None),
        (4, vec!["--place", "1,1"], Some(vec![1i64])),
    ] {
        let mut args = vec!["solve".to_string(), n.to_string(), "--why".to_string()];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = run_ok(&args);
        assert!(text.starts_with(&format!("no solution exists for n = {n}")));
        let mut formula = exported(n, &[]);
        formula.extend(unit);
        let (k, total, core) = printed_core(n, &text);
        assert_eq!(total, formula.len());
        assert_eq!(k, core.len());
        // Every clause of the core is the clause of the formula of its number (from 1, the
        // DIMACS file's order).
        for (k, c) in &core {
            assert_eq!(&formula[k - 1], c, "n = {n}: clause {k}");
        }
        let core: Vec<Vec<i64>> = core.into_iter().map(|(_, c)| c).collect();
        cadical_confirms_mus(&core, n * n);
        assert!(text.contains("contradiction: every literal of"), "{text}");
    }
}

#[test]
fn why_on_a_satisfiable_board_shows_a_solution() {
    let text = run_ok(&["solve", "5", "--why"]);
    assert!(text.contains("a solution exists"));
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("one-line: "))
        .unwrap();
    let queens: Vec<(usize, usize)> = line
        .split_whitespace()
        .enumerate()
        .map(|(r, c)| (r, c.parse::<usize>().unwrap() - 1))
        .collect();
    assert!(is_valid_placement(5, &queens));
}

#[test]
fn explain_reports_every_group_with_the_reference_counts() {
    for n in [4usize, 8] {
        let text = run_ok(&["solve", &n.to_string(), "--explain", "--column-alo"]);
        let c2 = n * (n - 1) / 2;
        let c3 = (n + 1) * n * (n - 1) / 6;
        let diag = 2 * c3 - c2;
        let expected = [
            ("Q1", n),
            ("Q2", n * c2),
            ("Q3", n * c2),
            ("Q4", diag),
            ("Q5", diag),
            ("Q6", n),
        ];
        for (tag, count) in expected {
            let l = text
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{tag} ")))
                .unwrap_or_else(|| panic!("{tag} missing: {text}"));
            assert!(
                l.ends_with(&format!(": holds ({count} of {count} clauses true)")),
                "{l}"
            );
        }
        let total: usize = expected.iter().map(|e| e.1).sum();
        assert!(text.contains(&format!("all {total} clauses hold")));
    }
}

#[test]
fn verify_says_the_first_false_clause_in_words() {
    // The oracle: the first clause of the exported DIMACS that the board falsifies.
    for (n, board) in [(4usize, "1 3 2 4"), (5, "1 2 3 4 5"), (6, "2 4 6 1 5 3")] {
        let cols: Vec<i64> = board.split(' ').map(|c| c.parse().unwrap()).collect();
        let truth: HashSet<i64> = cols
            .iter()
            .enumerate()
            .map(|(r, c)| r as i64 * n as i64 + c)
            .collect();
        let formula = exported(n, &[]);
        let first = formula
            .iter()
            .position(|c| {
                !c.iter()
                    .any(|&l| (l > 0 && truth.contains(&l)) || (l < 0 && !truth.contains(&-l)))
            })
            .expect("a false clause");
        let cells: Vec<String> = formula[first]
            .iter()
            .map(|l| {
                let v = l.abs() - 1;
                format!("({},{})", v / n as i64 + 1, v % n as i64 + 1)
            })
            .collect();
        let mut child = spawn(
            bin()
                .args(["verify", &n.to_string(), "-"])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped()),
        );
        {
            use std::io::Write;
            // Written and closed (the end of input) before the wait.
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(board.as_bytes()).unwrap();
        }
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(1));
        let text = String::from_utf8(o.stdout).unwrap();
        let words = text
            .lines()
            .find_map(|l| l.strip_prefix("in words: "))
            .unwrap_or_else(|| panic!("{text}"));
        // The group from the reference sizes: Q1 n, Q2 and Q3 n C(n,2), then Q4 and Q5.
        let c2 = n * (n - 1) / 2;
        let diag = (n + 1) * n * (n - 1) / 3 - c2;
        let ends = [n, n + n * c2, n + 2 * n * c2, n + 2 * n * c2 + diag];
        let (tag, kind) = match ends.iter().position(|&e| first < e) {
            Some(1) => ("Q2", "row"),
            Some(2) => ("Q3", "column"),
            Some(3) => ("Q4", "diagonal"),
            _ => ("Q5", "diagonal"),
        };
        let expected = format!(
            "{tag}: queens at {} and {} share a {kind}",
            cells[0], cells[1]
        );
        assert_eq!(words, expected);
        assert!(text.contains(&format!("clause {} (", first + 1)), "{text}");
    }
}
