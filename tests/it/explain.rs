//! `explain`: the readable listing, the commented DIMACS and the LaTeX carry exactly the clauses
//! of the exported DIMACS.

use crate::common::*;
use std::collections::HashMap;

/// The DIMACS clause lines of `encode` (the oracle), and its aux map from the header comments:
/// `c aux FIRST..LAST = ... of LINE` gives the variables `x(LINE; k)` stands for.
fn exported(n: usize, extra: &[&str]) -> (Vec<Vec<i64>>, HashMap<String, i64>) {
    let mut args = vec!["encode".to_string(), n.to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut aux = HashMap::new();
    let mut clauses = Vec::new();
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("c aux ") {
            let (range, what) = rest.split_once(" = ").unwrap();
            let (first, last) = range.split_once("..").unwrap();
            let (first, last): (i64, i64) = (first.parse().unwrap(), last.parse().unwrap());
            // `... of LINE; named s(LINE, 1..K)`
            let named = what.split_once("; named ").unwrap().1;
            let (prefix, _) = named.rsplit_once(", 1..").unwrap();
            for v in first..=last {
                aux.insert(format!("{prefix}, {})", v - first + 1), v);
            }
        } else if !l.starts_with('c') && !l.starts_with('p') {
            clauses.push(
                l.split_whitespace()
                    .map(|t| t.parse::<i64>().unwrap())
                    .take_while(|&v| v != 0)
                    .collect(),
            );
        }
    }
    (clauses, aux)
}

/// Parses one literal of the listing: `q(r,c)`, `¬q(r,c)`, `-q(r,c)` or an aux name.
fn parse_lit(n: usize, tok: &str, aux: &HashMap<String, i64>) -> i64 {
    let (neg, name) = if let Some(rest) = tok.strip_prefix('¬') {
        (true, rest)
    } else if let Some(rest) = tok.strip_prefix('-') {
        (true, rest)
    } else {
        (false, tok)
    };
    let v = if let Some(rc) = name.strip_prefix("q(").and_then(|s| s.strip_suffix(')')) {
        let (r, c) = rc.split_once(',').unwrap();
        let (r, c): (i64, i64) = (r.parse().unwrap(), c.parse().unwrap());
        (r - 1) * n as i64 + c
    } else {
        *aux.get(name)
            .unwrap_or_else(|| panic!("unknown variable {name}"))
    };
    if neg {
        -v
    } else {
        v
    }
}

/// A clause line of the listing, `    12. ¬q(1,1) ∨ ¬q(1,2)`: its number and its text.
fn numbered(line: &str) -> Option<(usize, &str)> {
    let (k, rest) = line.strip_prefix("    ")?.trim_start().split_once(". ")?;
    Some((k.parse().ok()?, rest))
}

/// The clauses of a listing, in order; their numbers must be 1, 2, 3, ... (those of the DIMACS
/// file).
fn listing_clauses(n: usize, text: &str, aux: &HashMap<String, i64>) -> Vec<Vec<i64>> {
    let listed: Vec<(usize, &str)> = text.lines().filter_map(numbered).collect();
    let numbers: Vec<usize> = listed.iter().map(|(k, _)| *k).collect();
    assert_eq!(numbers, (1..=listed.len()).collect::<Vec<_>>());
    listed
        .iter()
        .map(|(_, l)| {
            l.trim()
                .split(" ∨ ")
                .flat_map(|part| part.split(" v "))
                .map(|t| parse_lit(n, t.trim(), aux))
                .collect()
        })
        .collect()
}

#[test]
fn readable_listing_carries_the_dimacs_clauses() {
    for n in 1..=7usize {
        for (extra, ascii) in [(vec![], false), (vec!["--column-alo"], true)] {
            let (dimacs, aux) = exported(n, &extra);
            let mut args = vec!["explain".to_string(), n.to_string()];
            args.extend(extra.iter().map(|s| s.to_string()));
            if ascii {
                args.push("--ascii".into());
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run(&args);
            assert!(out.status.success());
            let text = String::from_utf8(out.stdout).unwrap();
            assert_eq!(listing_clauses(n, &text, &aux), dimacs, "n={n} {extra:?}");
            for tag in ["Q1", "Q2", "Q3", "Q4", "Q5"] {
                assert!(text.contains(&format!("\n{tag}  ")), "{tag} missing");
            }
            assert_eq!(text.contains("\nQ6  "), !extra.is_empty());
        }
    }
}

#[test]
fn listings_of_every_encoding_carry_the_dimacs_clauses() {
    // Auxiliary variables are named in the listing (s(row 1, 2), ...) and mapped back through
    // the `c aux ... named ...` comments of the export.
    let mut settings: Vec<&str> = amo_names()
        .into_iter()
        .filter(|&a| a != "pairwise")
        .collect();
    settings.push("rows=sequential,diagonals=product");
    for amo in settings {
        for n in [1usize, 3, 5, 8] {
            let extra = ["--amo", amo];
            let (dimacs, aux) = exported(n, &extra);
            let out = run(&["explain", &n.to_string(), "--amo", amo]);
            assert!(out.status.success());
            let text = String::from_utf8(out.stdout).unwrap();
            assert_eq!(listing_clauses(n, &text, &aux), dimacs, "n={n} {amo}");
            // Every auxiliary variable of the formula is explained once, where its line starts.
            assert_eq!(
                text.lines()
                    .filter(|l| l.trim_start().starts_with("where "))
                    .count(),
                aux.len(),
                "n={n} {amo}"
            );
        }
    }
}

#[test]
fn readable_group_counts_are_the_pairs_of_cells_sharing_a_line() {
    // The oracle: pairs of cells sharing a row, a column, a / or a \ diagonal, counted by
    // brute force over every pair of cells; the reference model has one clause per pair.
    for n in 1..=8usize {
        let cells: Vec<(i64, i64)> = (0..n as i64)
            .flat_map(|r| (0..n as i64).map(move |c| (r, c)))
            .collect();
        let pairs = |same: &dyn Fn((i64, i64), (i64, i64)) -> bool| {
            let mut k = 0;
            for (i, &a) in cells.iter().enumerate() {
                for &b in &cells[i + 1..] {
                    k += same(a, b) as usize;
                }
            }
            k
        };
        let expected = [
            ("Q1", n),
            ("Q2", pairs(&|a, b| a.0 == b.0)),
            ("Q3", pairs(&|a, b| a.1 == b.1)),
            ("Q4", pairs(&|a, b| a.0 + a.1 == b.0 + b.1)),
            ("Q5", pairs(&|a, b| a.0 - a.1 == b.0 - b.1)),
        ];
        let listing = String::from_utf8(run(&["explain", &n.to_string()]).stdout).unwrap();
        for (tag, count) in expected {
            let pos = listing.find(&format!("\n{tag}  ")).unwrap();
            let mut lines = listing[pos + 1..].lines().skip(1);
            let printed = lines.next().unwrap();
            assert!(
                printed
                    .trim_start()
                    .starts_with(&format!("{count} clauses")),
                "n={n} {tag}: {printed} vs {count}"
            );
            // The clauses listed under the group, up to the next group.
            let listed = lines
                .take_while(|l| !l.starts_with('Q'))
                .filter(|l| l.starts_with("    ") && !l.trim().is_empty())
                .count();
            assert_eq!(listed, count, "n={n} {tag}: clauses listed");
        }
    }
}

#[test]
fn limit_counts_the_hidden_clauses() {
    let out = run(&["explain", "6", "--limit", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    // Q2 for n = 6 has 6 * 15 = 90 clauses: 3 shown, 87 counted.
    assert!(text.contains("... and 87 more clauses"), "{text}");
}

#[test]
fn commented_dimacs_has_the_same_clause_lines() {
    for n in 1..=8usize {
        let plain = String::from_utf8(run(&["encode", &n.to_string()]).stdout).unwrap();
        let commented = String::from_utf8(
            run(&["explain", &n.to_string(), "--format", "dimacs-commented"]).stdout,
        )
        .unwrap();
        let body = |s: &str| -> Vec<String> {
            s.lines()
                .filter(|l| !l.starts_with('c'))
                .map(String::from)
                .collect()
        };
        assert_eq!(body(&plain), body(&commented), "n={n}");
        // Every clause line is preceded by a comment naming its number and group.
        let lines: Vec<&str> = commented.lines().collect();
        let mut k = 0;
        for (i, l) in lines.iter().enumerate() {
            if !l.starts_with('c') && !l.starts_with('p') {
                k += 1;
                assert!(
                    lines[i - 1].starts_with(&format!("c clause {k}, Q")),
                    "{}",
                    lines[i - 1]
                );
            }
        }
        // And it still parses as DIMACS with checked header counts.
        let mut p = varisat_dimacs::DimacsParser::new();
        p.parse_chunk(commented.as_bytes()).unwrap();
        p.eof().unwrap();
        p.check_header().unwrap();
    }
}

fn check_latex_structure(tex: &str, n: usize, dimacs: &[Vec<i64>]) {
    let mut depth = 0i64;
    let mut prev = ' ';
    for ch in tex.chars() {
        if prev != '\\' {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0, "unbalanced braces");
        }
        prev = if prev == '\\' && ch == '\\' { ' ' } else { ch };
    }
    assert_eq!(depth, 0, "unbalanced braces");
    for env in ["document", "align*"] {
        assert_eq!(
            tex.matches(&format!("\\begin{{{env}}}")).count(),
            tex.matches(&format!("\\end{{{env}}}")).count(),
            "{env}"
        );
    }
    // Every clause, written out, in order.
    let rows: Vec<&str> = tex.lines().filter(|l| l.starts_with("& (")).collect();
    assert_eq!(rows.len(), dimacs.len());
    // Each tagged with its number.
    let mut k = 0;
    for (row, clause) in rows.iter().zip(dimacs) {
        let want: Vec<String> = clause
            .iter()
            .map(|&l| {
                let v = l.unsigned_abs() as usize - 1;
                let name = format!("q_{{{},{}}}", v / n + 1, v % n + 1);
                if l < 0 {
                    format!("\\neg {name}")
                } else {
                    name
                }
            })
            .collect();
        k += 1;
        assert_eq!(
            *row,
            format!("& ({}) \\tag{{{k}}} \\\\", want.join(" \\lor "))
        );
    }
}

/// Writes `tex` to `dir/name.tex` and compiles it with pdflatex, which must succeed. Without
/// pdflatex (Debian's texlive-latex-base) the compilation is skipped with a loud message, and
/// the caller's structural checks stand alone; under CI that is a failure.
fn compile_latex(dir: &std::path::Path, name: &str, tex: &str) {
    if !require("pdflatex") {
        return;
    }
    let file = dir.join(format!("{name}.tex"));
    std::fs::write(&file, tex).unwrap();
    let status = output(
        std::process::Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error"])
            .arg(&file)
            .current_dir(dir),
    );
    assert!(
        status.status.success(),
        "pdflatex failed for {name}: {}",
        String::from_utf8_lossy(&status.stdout)
    );
}

#[test]
fn latex_is_well_formed_and_complete() {
    let dir = tempfile::tempdir().unwrap();
    for n in 1..=5usize {
        let (dimacs, _) = exported(n, &[]);
        let out = run(&["explain", &n.to_string(), "--format", "latex"]);
        assert!(out.status.success());
        let tex = String::from_utf8(out.stdout).unwrap();
        check_latex_structure(&tex, n, &dimacs);
        compile_latex(dir.path(), &format!("q{n}"), &tex);
    }
}

/// The column model's LaTeX: every clause of the export appears (one `align*` line each, as
/// many as the `p cnf` count), every variable is listed, and pdflatex compiles it.
#[test]
fn column_model_latex_compiles_and_lists_every_clause() {
    let dir = tempfile::tempdir().unwrap();
    for domain in ["direct", "order", "log"] {
        let n = 4;
        let args = ["--model", "columns", "--domain", domain];
        let enc = run(&[&["encode", "4"][..], &args].concat());
        let header = String::from_utf8_lossy(&enc.stdout)
            .lines()
            .find(|l| l.starts_with("p cnf"))
            .unwrap()
            .to_string();
        let fields: Vec<usize> = header[6..]
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let out = run(&[&["explain", "4", "--format", "latex"][..], &args].concat());
        assert_eq!(out.status.code(), Some(0), "{domain}");
        let tex = String::from_utf8(out.stdout).unwrap();
        let clause_lines = tex.lines().filter(|l| l.starts_with("& (")).count();
        assert_eq!(clause_lines, fields[1], "{domain}: clauses");
        let items = tex.lines().filter(|l| l.starts_with(r"\item ")).count();
        assert_eq!(items, fields[0], "{domain}: variables");
        compile_latex(dir.path(), &format!("c{n}{domain}"), &tex);
    }
}

#[test]
fn explain_refuses_large_n_and_bad_input() {
    let out = run(&["explain", "100"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    let out = run(&["explain", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["explain", "4", "--format", "pdf"]);
    assert_eq!(out.status.code(), Some(2));
    // Redundant constraints are not listed: refused in one line, with the command that writes
    // the whole formula; nothing on stdout.
    for format in ["text", "latex", "dimacs-commented"] {
        let out = run(&[
            "explain",
            "4",
            "--redundant",
            "permutation,sums",
            "--format",
            format,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("--redundant permutation,sums"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// The column model's listing names every variable in words (the order domain's ladder
/// variables `[x(r) >= c]`, c = 2..n, named here by hand) and its heading gives the clause
/// count of the export.
#[test]
fn column_model_listing_names_every_variable() {
    let args = ["4", "--model", "columns", "--domain", "order"];
    let listing = String::from_utf8(run(&[&["explain"], &args[..]].concat()).stdout).unwrap();
    let dimacs = String::from_utf8(run(&[&["encode"], &args[..]].concat()).stdout).unwrap();
    let mut names = Vec::new();
    for r in 1..=4 {
        for c in 2..=4 {
            names.push(format!("[x({r}) >= {c}]"));
        }
    }
    assert_eq!(names.len(), 12);
    for (i, name) in names.iter().enumerate() {
        assert!(
            listing.contains(&format!("  {}: {name}, ", i + 1)),
            "{name} is not listed as variable {}:\n{listing}",
            i + 1
        );
    }
    let p = dimacs.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let clauses = p.split(' ').nth(3).unwrap();
    let heading = listing.lines().next().unwrap();
    assert_eq!(
        heading,
        format!("4-queens as a propositional formula: 12 variables, {clauses} clauses")
    );
}

#[test]
fn an_instance_is_explained_with_its_fixed_cells_in_every_format() {
    // Two pre-placed queens and two forbidden cells on a 5 x 5 board, given on the command
    // line; the DIMACS export is the oracle for their clauses.
    let dir = tempfile::tempdir().unwrap();
    let cells = [
        "--place", "2,5", "--place", "3,3", "--forbid", "1,1", "--forbid", "5,4",
    ];
    let mut enc = vec!["encode", "5"];
    enc.extend(cells);
    let dimacs = String::from_utf8(run(&enc).stdout).unwrap();
    let tail: Vec<&str> = dimacs.lines().rev().take(4).collect();
    assert_eq!(tail, ["-24 0", "-1 0", "13 0", "10 0"], "{dimacs}");
    for model in [
        &["--model", "cells"][..],
        &["--model", "columns", "--domain", "order"][..],
    ] {
        for format in ["text", "latex", "dimacs-commented"] {
            let mut args = vec!["explain", "5", "--format", format];
            args.extend(cells);
            args.extend(model);
            let out = run(&args);
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = String::from_utf8(out.stdout).unwrap();
            for cell in ["(2,5)", "(3,3)", "(1,1)", "(5,4)"] {
                assert!(text.contains(cell), "{format} {model:?}: {cell} missing");
            }
            if format == "latex" {
                compile_latex(dir.path(), &format!("inst-{}", model.len()), &text);
            }
        }
    }
    // The commented DIMACS of the cell model has exactly the clauses of the export.
    let mut args = vec!["explain", "5", "--format", "dimacs-commented"];
    args.extend(cells);
    let commented = String::from_utf8(run(&args).stdout).unwrap();
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('c'))
            .map(String::from)
            .collect()
    };
    assert_eq!(body(&commented), body(&dimacs));
}
