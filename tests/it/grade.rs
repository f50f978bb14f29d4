//! `queens-sat grade`: our own exports pass, deliberately broken copies fail with a real
//! counterexample or a real missing solution, `--map` renumbers, `--n` grades several files,
//! bad input exits 2 with the line. The oracles (solutions, attacks, the cell definitions of the
//! column model) are computed here, apart from the code under test.

use crate::common::{
    amo_names, brute_force_solutions as solutions, is_valid_placement, run, stderr, stdout,
};

/// `true` when two queens share a diagonal.
fn diagonal_pair(queens: &[(usize, usize)]) -> bool {
    queens.iter().enumerate().any(|(i, a)| {
        queens[i + 1..]
            .iter()
            .any(|b| a.0.abs_diff(b.0) == a.1.abs_diff(b.1))
    })
}

/// The DIMACS text of `queens-sat encode N ARGS`.
fn export(n: usize, args: &[&str]) -> String {
    let ns = n.to_string();
    let mut all = vec!["encode", ns.as_str()];
    all.extend_from_slice(args);
    let o = run(&all);
    assert!(o.status.success(), "encode {args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The clauses of a DIMACS text (comment and header lines dropped), as DIMACS literals, in
/// the order of their lines: the clause numbered k is entry k - 1.
pub fn clauses(text: &str) -> Vec<Vec<i64>> {
    text.lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty())
        .map(|l| {
            let mut v: Vec<i64> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            assert_eq!(v.pop(), Some(0), "one clause per line: {l}");
            v
        })
        .collect()
}

/// The variable count of the `p cnf` line.
fn header_vars(text: &str) -> usize {
    let p = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    p.split_whitespace().nth(2).unwrap().parse().unwrap()
}

/// A DIMACS text of `vars` variables and these clauses.
fn dimacs(vars: usize, clauses: &[Vec<i64>]) -> String {
    let mut s = format!(
        "c written by tests/it/grade.rs\np cnf {vars} {}\n",
        clauses.len()
    );
    for c in clauses {
        for l in c {
            s.push_str(&format!("{l} "));
        }
        s.push_str("0\n");
    }
    s
}

/// The cell variable of 0-based (r, c) in our numbering.
fn cell(n: usize, r: usize, c: usize) -> i64 {
    (r * n + c + 1) as i64
}

/// Runs `grade` with `args` after writing `files` (name, text) into a temporary folder;
/// `{dir}` in an argument stands for the folder.
fn grade_files(files: &[(&str, &str)], args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let d = dir.path().display().to_string();
    let args: Vec<String> = args.iter().map(|a| a.replace("{dir}", &d)).collect();
    let mut all = vec!["grade"];
    all.extend(args.iter().map(String::as_str));
    run(&all)
}

/// Grades one text as n-queens (with an optional map).
fn grade_text(n: usize, text: &str, map: Option<&str>) -> std::process::Output {
    let ns = n.to_string();
    match map {
        None => grade_files(&[("f.cnf", text)], &[&ns, "{dir}/f.cnf"]),
        Some(m) => grade_files(
            &[("f.cnf", text), ("f.map", m)],
            &[&ns, "{dir}/f.cnf", "--map", "{dir}/f.map"],
        ),
    }
}

/// The boards drawn in a report after the line starting with `after`: the queens of the
/// board's lines (two spaces, then `Q` and `.`).
fn board_after(report: &str, after: &str) -> Vec<(usize, usize)> {
    let mut lines = report.lines().skip_while(|l| !l.starts_with(after));
    lines
        .next()
        .unwrap_or_else(|| panic!("no '{after}' in:\n{report}"));
    let mut queens = Vec::new();
    for (r, l) in lines
        .take_while(|l| {
            l.starts_with("  ") && l.trim().chars().all(|c| c == 'Q' || c == '.' || c == ' ')
        })
        .enumerate()
    {
        for (c, tok) in l.split_whitespace().enumerate() {
            if tok == "Q" {
                queens.push((r, c));
            }
        }
    }
    queens
}

/// For the column model's order and log domains, which have no variable per cell: a
/// variable per cell defined by clauses (q <-> the conjunction of the domain literals that say
/// "column c"), appended after the file's variables, and the map naming them. The meaning of
/// each domain variable is read from the file's `c var` lines.
fn with_cell_definitions(n: usize, text: &str) -> (String, String) {
    let vars = header_vars(text);
    // For each row, the literals of each column.
    let mut conds: Vec<Vec<Vec<i64>>> = vec![vec![Vec::new(); n]; n];
    for l in text.lines().filter_map(|l| l.strip_prefix("c var ")) {
        let (v, meaning) = l.split_once(" = ").unwrap();
        let v: i64 = v.parse().unwrap();
        if let Some(rest) = meaning.strip_prefix("[x(") {
            // [x(r) >= k]: true for the columns k..n (1-based).
            let (r, k) = rest.trim_end_matches(']').split_once(") >= ").unwrap();
            let (r, k): (usize, usize) = (r.parse().unwrap(), k.parse().unwrap());
            for c in 1..=n {
                conds[r - 1][c - 1].push(if c >= k { v } else { -v });
            }
        } else if let Some(rest) = meaning.strip_prefix("x(") {
            // x(r).bitb: bit b of the 0-based column.
            let (r, b) = rest.split_once(").bit").unwrap();
            let (r, b): (usize, usize) = (r.parse().unwrap(), b.parse().unwrap());
            for (c, lits) in conds[r - 1].iter_mut().enumerate() {
                lits.push(if c >> b & 1 == 1 { v } else { -v });
            }
        } else {
            panic!("unexpected variable: {l}");
        }
    }
    let mut cls = clauses(text);
    let mut map = String::from("# cells defined after the domain variables\n");
    for (r, row) in conds.iter().enumerate() {
        for (c, lits) in row.iter().enumerate() {
            let q = (vars + r * n + c + 1) as i64;
            assert!(!lits.is_empty());
            for &l in lits {
                cls.push(vec![-q, l]);
            }
            let mut back = vec![q];
            back.extend(lits.iter().map(|l| -l));
            cls.push(back);
            map.push_str(&format!("{} {} {q}\n", r + 1, c + 1));
        }
    }
    (dimacs(vars + n * n, &cls), map)
}

#[test]
fn our_exports_pass() {
    for n in 4..=7 {
        let total = solutions(n).len();
        let mut exports: Vec<(String, String, Option<String>)> = Vec::new();
        for amo in amo_names() {
            exports.push((format!("cells {amo}"), export(n, &["--amo", amo]), None));
        }
        exports.push((
            "columns direct".into(),
            export(n, &["--model", "columns", "--domain", "direct"]),
            None,
        ));
        for domain in ["order", "log"] {
            let text = export(n, &["--model", "columns", "--domain", domain]);
            let (text, map) = with_cell_definitions(n, &text);
            exports.push((format!("columns {domain}"), text, Some(map)));
        }
        for (what, text, map) in &exports {
            let o = grade_text(n, text, map.as_deref());
            let out = stdout(&o);
            assert_eq!(
                o.status.code(),
                Some(0),
                "n = {n}, {what}:\n{out}{}",
                stderr(&o)
            );
            assert!(out.contains(&format!(
                "projected count: {total} (models projected onto the cells), the counter's: {total}"
            )));
            assert!(out.contains("verdict: RIGHT"), "{out}");
            // No false warning: each rule on the file's own clauses for it.
            assert!(
                out.contains("on its own: yes"),
                "n = {n}, {what}: a false warning:\n{out}"
            );
        }
    }
}

/// The pairwise export of n without its diagonal clauses (both directions): the pairs of
/// cells on one diagonal.
fn without_diagonals(n: usize) -> String {
    let at = |l: i64| (((-l - 1) as usize) / n, ((-l - 1) as usize) % n);
    let kept: Vec<Vec<i64>> = clauses(&export(n, &[]))
        .into_iter()
        .filter(|c| {
            !(c.len() == 2 && c.iter().all(|&l| l < 0) && diagonal_pair(&[at(c[0]), at(c[1])]))
        })
        .collect();
    dimacs(n * n, &kept)
}

#[test]
fn a_missing_diagonal_group_is_caught_with_a_real_diagonal_attack() {
    for n in [5, 6] {
        let o = grade_text(n, &without_diagonals(n), None);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{out}");
        let queens = board_after(&out, "sound: NO");
        assert_eq!(queens.len(), n, "{out}");
        assert!(diagonal_pair(&queens), "no diagonal attack in:\n{out}");
        assert!(out.contains("diagonal"), "{out}");
        assert!(out.contains("complete: yes"), "{out}");
        assert!(out.contains("verdict: WRONG"), "{out}");
    }
}

#[test]
fn a_missing_row_at_least_one_is_caught() {
    let n = 6;
    let text = export(n, &[]);
    let row3: Vec<i64> = (0..n).map(|c| cell(n, 2, c)).collect();
    let all = clauses(&text);
    let kept: Vec<Vec<i64>> = all.iter().filter(|c| **c != row3).cloned().collect();
    assert_eq!(
        kept.len() + 1,
        all.len(),
        "the ALO clause of row 3 is in the export"
    );
    let o = grade_text(n, &dimacs(n * n, &kept), None);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let queens = board_after(&out, "sound: NO");
    assert!(queens.iter().all(|q| q.0 != 2), "row 3 empty:\n{out}");
    assert_eq!(queens.len(), n - 1, "{out}");
    assert!(out.contains("row 3 has no queen"), "{out}");
}

#[test]
fn an_extra_clause_that_forbids_solutions_is_caught_with_a_real_missing_solution() {
    let n = 6;
    let sols = solutions(n);
    let s = &sols[1];
    let (a, b) = ((0, s[0]), (1, s[1]));
    let mut cls = clauses(&export(n, &[]));
    cls.push(vec![-cell(n, a.0, a.1), -cell(n, b.0, b.1)]);
    let o = grade_text(n, &dimacs(n * n, &cls), None);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("sound: yes"), "{out}");
    let missing = board_after(&out, "complete: NO");
    assert!(is_valid_placement(n, &missing), "not a solution:\n{out}");
    assert!(missing.contains(&a) && missing.contains(&b), "{out}");
    let forbidding = sols.iter().filter(|t| t[0] == a.1 && t[1] == b.1).count();
    assert!(
        out.contains(&format!(
            "complete: NO, {forbidding} of the {} solutions",
            sols.len()
        )),
        "{out}"
    );
    assert!(out.contains(&format!(
        "projected count: {} (models projected onto the cells)",
        sols.len() - forbidding
    )));
}

#[test]
fn variables_shifted_by_one_fail() {
    let n = 5;
    let text = export(n, &[]);
    let shifted: Vec<Vec<i64>> = clauses(&text)
        .into_iter()
        .map(|c| c.into_iter().map(|l| l + l.signum()).collect())
        .collect();
    let o = grade_text(n, &dimacs(n * n + 1, &shifted), None);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("verdict: WRONG"), "{out}");
}

#[test]
fn a_permuted_numbering_passes_with_its_map_only() {
    let n = 6;
    let text = export(n, &["--amo", "sequential"]);
    let vars = header_vars(&text);
    // The numbering reversed: v -> vars + 1 - v.
    let perm = |v: i64| vars as i64 + 1 - v;
    let renamed: Vec<Vec<i64>> = clauses(&text)
        .into_iter()
        .map(|c| c.into_iter().map(|l| perm(l.abs()) * l.signum()).collect())
        .collect();
    let file = dimacs(vars, &renamed);
    let mut map = String::from("c row column variable, in a shuffled order\n");
    for i in 0..n * n {
        let j = (i * 7) % (n * n);
        let (r, c) = (j / n, j % n);
        map.push_str(&format!("{} {} {}\n", r + 1, c + 1, perm(cell(n, r, c))));
    }
    let o = grade_text(n, &file, Some(&map));
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = grade_text(n, &file, None);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
}

#[test]
fn a_range_grades_one_file_per_n() {
    let texts: Vec<(String, String)> = (4..=7)
        .map(|n| (format!("student-{n}.cnf"), export(n, &["--amo", "ladder"])))
        .collect();
    let files: Vec<(&str, &str)> = texts
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let o = grade_files(&files, &["--n", "4..7", "{dir}/student-%d.cnf"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    for n in 4..=7 {
        assert!(out.contains(&format!("n = {n}: RIGHT (")), "{out}");
    }
    assert!(
        out.contains("verdict: RIGHT for each of the 4 board sizes"),
        "{out}"
    );

    // n = 6 without its diagonal clauses... of the pairwise export, say: wrong for n = 6 only.
    let broken = without_diagonals(6);
    let mut files = files.clone();
    files[2].1 = &broken;
    let o = grade_files(&files, &["--n", "4..7", "{dir}/student-{n}.cnf"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("n = 6: WRONG: allows boards that are not solutions"),
        "{out}"
    );
    assert!(
        out.contains("verdict: WRONG from n = 6 on: wrong for 1 of the 4 board sizes (n = 6)"),
        "{out}"
    );
    // A missing file is bad input.
    let o = grade_files(&files, &["--n", "4..8", "{dir}/student-%d.cnf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("student-8.cnf"), "{}", stderr(&o));
}

#[test]
fn bad_input_exits_2_with_the_line() {
    let good = export(4, &[]);
    let cases: Vec<(String, Option<&str>, &str)> = vec![
        (
            "p cnf 16 1\n1 2 x 0\n".into(),
            None,
            "line 2: 'x' is not a literal",
        ),
        ("c only\n1 2 0\n".into(), None, "line 2: no 'p cnf"),
        (
            "p cnf 16 1\nc\n1 17 0\n".into(),
            None,
            "line 3: literal 17 is beyond the 16 variables",
        ),
        (
            "p cnf 15 0\n".into(),
            None,
            "line 1: the 'p cnf' line declares 15 variables, fewer than the 16 cells",
        ),
        (
            "p cnf 16 2\n1 0\n".into(),
            None,
            "line 1: the 'p cnf' line says 2 clauses, the file has 1",
        ),
        (
            good.clone(),
            Some("1 1 1\n1 1 2\n"),
            "line 2: cell (1,1) is mapped twice (first on line 1)",
        ),
        (
            good.clone(),
            Some("1 1 1\n# two\n1 2 1\n"),
            "line 3: variable 1 is mapped twice (first on line 1)",
        ),
        (
            good.clone(),
            Some("5 1 1\n"),
            "line 1: cell (5,1) is off the 4 x 4 board",
        ),
        (
            good.clone(),
            Some("1 1 1\n1 2 2\n"),
            "line 2: 14 cells have no variable, the first (1,3)",
        ),
        (
            good.clone(),
            Some("1 1 1 1\n"),
            "line 1: '1 1 1 1' is not a line",
        ),
    ];
    for (text, map, want) in cases {
        let o = grade_text(4, &text, map);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{want}: {err}{}", stdout(&o));
        assert!(err.contains(want), "expected '{want}' in: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    // A map variable past the file's variables: the map's line.
    let map: String = (0..16)
        .map(|i| {
            format!(
                "{} {} {}\n",
                i / 4 + 1,
                i % 4 + 1,
                if i == 5 { 99 } else { i + 1 }
            )
        })
        .collect();
    let o = grade_text(4, &good, Some(&map));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("line 6: variable 99 is beyond the 16 variables"),
        "{}",
        stderr(&o)
    );
    // n past the limit.
    let o = grade_text(14, &good, None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("n must be in 1..=13"), "{}", stderr(&o));
}
