//! A library user's own encoding of n-queens, written here through the public `Encoding` trait
//! only (outside the catalogue, with its own variable names), goes through everything an
//! instance goes through: explained in every format, traced, exported as DIMACS and OPB, and
//! solved, enumerated and counted by every embedded backend of this build.

use crate::common::brute_force_solutions;
use queens_sat::board::{Geometry, Line, LineKind, Placement};
use queens_sat::cnf::{read_dimacs, CountingSink, GroupInfo};
use queens_sat::encode::{
    header_start, DecodeError, Encoding, Label, LabelSink, Notation, Rule, Size,
};
use queens_sat::explain::{write_dimacs_commented, write_latex, write_readable};
use queens_sat::instance::{to_labelled_cnf, Instance};
use queens_sat::solve::{solve_with, Backend, Enumeration};
use queens_sat::trace::{trace, Algorithm, TraceOptions};
use queens_sat::{Lit, Var};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The toy model: one Boolean `b<r>_<c>` per square (1-based), every row at least one queen,
/// every row, column and diagonal at most one, pairwise. Its groups are `T1` ... `T5`; each
/// line's clauses are labelled with the line.
#[derive(Debug)]
struct Toy {
    n: usize,
}

/// The toy's groups: tag, meaning, the kind of line, at least one (else at most one).
const GROUPS: [(&str, &str, LineKind, bool); 5] = [
    ("T1", "a queen in every row", LineKind::Row, true),
    ("T2", "no two queens in a row", LineKind::Row, false),
    ("T3", "no two queens in a column", LineKind::Column, false),
    (
        "T4",
        "no two queens on a / diagonal",
        LineKind::Diagonal,
        false,
    ),
    (
        "T5",
        "no two queens on a \\ diagonal",
        LineKind::AntiDiagonal,
        false,
    ),
];

impl Toy {
    fn var(&self, r: usize, c: usize) -> Var {
        Var::from_index(r * self.n + c)
    }

    /// The squares of each line of `kind`, computed here: rows, columns, equal `r + c`, equal
    /// `r - c` (indexed as `board::Line` numbers them, `r - c + n - 1` for `\`).
    fn lines(&self, kind: LineKind) -> Vec<Vec<(usize, usize)>> {
        let n = self.n;
        let count = match kind {
            LineKind::Row | LineKind::Column => n,
            _ => 2 * n - 1,
        };
        let mut lines = vec![Vec::new(); count];
        for r in 0..n {
            for c in 0..n {
                let i = match kind {
                    LineKind::Row => r,
                    LineKind::Column => c,
                    LineKind::Diagonal => r + c,
                    LineKind::AntiDiagonal => r + n - 1 - c,
                };
                lines[i].push((r, c));
            }
        }
        lines
    }
}

impl Encoding for Toy {
    fn n(&self) -> usize {
        self.n
    }
    fn geometry(&self) -> Geometry {
        Geometry::Square
    }
    fn name(&self) -> String {
        "toy".into()
    }
    fn describe(&self) -> String {
        "toy model: a Boolean per square, pairwise at most one on every line".into()
    }
    fn size(&self) -> Size {
        let mut size = Size {
            vars: (self.n * self.n) as u64,
            ..Size::default()
        };
        for (_, _, kind, at_least_one) in GROUPS {
            for line in self.lines(kind) {
                let k = line.len() as u64;
                if at_least_one {
                    size.clauses += 1;
                    size.literals += k;
                } else {
                    size.clauses += k * k.saturating_sub(1) / 2;
                    size.literals += k * k.saturating_sub(1);
                }
            }
        }
        size
    }
    fn encode_labelled(&self, sink: &mut dyn LabelSink) -> std::io::Result<()> {
        for (tag, meaning, kind, at_least_one) in GROUPS {
            sink.begin_group(&GroupInfo {
                tag: tag.into(),
                meaning: meaning.into(),
            })?;
            let rule = if at_least_one {
                Rule::AtLeastOne(kind)
            } else {
                Rule::AtMostOne(kind)
            };
            for (index, cells) in self.lines(kind).into_iter().enumerate() {
                sink.begin_label(&Label {
                    rule,
                    line: Some(Line { kind, index }),
                })?;
                let lits: Vec<Lit> = cells
                    .iter()
                    .map(|&(r, c)| self.var(r, c).positive())
                    .collect();
                if at_least_one {
                    sink.add_clause(&lits)?;
                } else {
                    for (i, &a) in lits.iter().enumerate() {
                        for &b in &lits[i + 1..] {
                            sink.add_clause(&[!a, !b])?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
    fn push_value_lits(&self, r: usize, c: usize, out: &mut Vec<Lit>) {
        out.push(self.var(r, c).positive());
    }
    fn decode(&self, assignment: &[bool]) -> Result<Placement, DecodeError> {
        let n = self.n;
        let mut cols = Vec::with_capacity(n);
        for r in 0..n {
            let row: Vec<usize> = (0..n)
                .filter(|&c| assignment.get(r * n + c).copied().unwrap_or(false))
                .collect();
            match row[..] {
                [c] => cols.push(c),
                _ => return Err(DecodeError::RowCount { row: r, cols: row }),
            }
        }
        Ok(Placement::from_cols(&cols))
    }
    fn projection(&self) -> Vec<Var> {
        (0..self.n * self.n).map(Var::from_index).collect()
    }
    fn var_name(&self, var: Var) -> String {
        let i = var.index();
        format!("b{}_{}", i / self.n + 1, i % self.n + 1)
    }
    fn var_meaning(&self, var: Var) -> String {
        let i = var.index();
        format!("a queen on square ({},{})", i / self.n + 1, i % self.n + 1)
    }
    fn header_comments(&self, command: Option<&str>) -> Vec<String> {
        let mut c = header_start(self.n);
        c.push(format!("model: {}", self.describe()));
        c.extend(command.map(|cmd| format!("command: {cmd}")));
        c
    }
    fn cell_variables(&self) -> bool {
        true
    }
}

fn toy(n: usize) -> Instance {
    Instance::from_encoding(Arc::new(Toy { n }))
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

/// The toy keeps the contract: the size is what it emits.
#[test]
fn the_toy_emits_its_size() {
    for n in 1..=9 {
        let inst = toy(n);
        let mut count = CountingSink::default();
        queens_sat::instance::encode(&inst, &mut count).unwrap();
        assert_eq!(
            (count.clauses, count.literals),
            (inst.size().clauses, inst.size().literals)
        );
    }
}

/// The readable listing names the toy's variables its way, counts each group's clauses, heads
/// each line's clauses with the line, and lists every clause of the formula.
#[test]
fn explained_as_readable_text() {
    let inst = toy(4);
    let listing =
        text(write_readable(inst.encoding(), Vec::new(), Notation::Unicode, None).unwrap());
    let size = inst.size();
    assert!(listing.starts_with(&format!(
        "4-queens as a propositional formula: 16 variables, {} clauses\nModel: toy model",
        size.clauses
    )));
    for expected in [
        "  1: b1_1, a queen on square (1,1)",
        "  16: b4_4, a queen on square (4,4)",
        "  T1  a queen in every row (4 clauses)",
        "  T3  no two queens in a column (24 clauses)",
        "T4  no two queens on a / diagonal\n    14 clauses\n",
        "  row 1:\n    b1_1 ∨ b1_2 ∨ b1_3 ∨ b1_4\n",
        "  \\ diagonal r-c=0:\n    ¬b1_1 ∨ ¬b2_2\n",
    ] {
        assert!(
            listing.contains(expected),
            "{expected:?} missing:\n{listing}"
        );
    }
    // Every clause of the formula is listed, in order.
    let cnf = to_labelled_cnf(&inst);
    let words = inst.encoding().words();
    let listed: Vec<&str> = listing
        .lines()
        .filter(|l| l.starts_with("    b") || l.starts_with("    ¬"))
        .map(str::trim)
        .collect();
    let expected: Vec<String> = cnf
        .iter()
        .map(|c| words.clause(c, Notation::Unicode))
        .collect();
    assert_eq!(listed, expected);
    // With a limit, the rest of each group is counted.
    let limited =
        text(write_readable(inst.encoding(), Vec::new(), Notation::Ascii, Some(2)).unwrap());
    assert!(limited.contains("    -b1_1 v -b1_2\n    -b1_1 v -b1_3\n    ... and 22 more clauses"));
}

/// The commented DIMACS has exactly the clause lines of the plain export, each under a
/// comment with its group and named literals.
#[test]
fn explained_as_commented_dimacs() {
    let inst = toy(5).with_cells(&[(0, 1)], &[(2, 2)]).unwrap();
    let header = inst.dimacs_header(None);
    let tail = queens_sat::explain::fixed_clauses(&inst);
    let commented =
        text(write_dimacs_commented(inst.encoding(), Vec::new(), &header, &tail).unwrap());
    let plain = text(inst.write_dimacs(Vec::new(), None).unwrap());
    let read = |s: &str| read_dimacs(s.as_bytes()).unwrap();
    assert_eq!(read(&commented), read(&plain));
    for expected in [
        "c T1: b1_1 v b1_2 v b1_3 v b1_4 v b1_5\n1 2 3 4 5 0\n",
        "c T5: -b1_1 v -b2_2\n-1 -7 0\n",
        "c P pre-placed queen on (1,2): b1_2\n2 0\n",
        "c F no queen on (3,3): -b3_3\n-13 0\n",
    ] {
        assert!(
            commented.contains(expected),
            "{expected:?} missing:\n{commented}"
        );
    }
}

/// The LaTeX document lists the variables, each group with its count and, expanded, every
/// clause; its environments are balanced.
#[test]
fn explained_as_latex() {
    let inst = toy(4).with_cells(&[(0, 1)], &[]).unwrap();
    let tail = queens_sat::explain::fixed_clauses(&inst);
    let tex = text(write_latex(inst.encoding(), Vec::new(), true, &tail).unwrap());
    assert!(tex.starts_with("\\documentclass{article}"));
    assert!(tex.trim_end().ends_with("\\end{document}"));
    for expected in [
        "\\section*{The 4-queens formula}",
        "\\item $\\text{b1\\_1}$ (variable 1): a queen on square (1,1)",
        "\\subsection*{T2: no two queens in a row}\n24 clauses.\n\\begin{align*}",
        "& (\\neg \\text{b1\\_1} \\lor \\neg \\text{b1\\_2}) \\\\",
        "& (\\text{b1\\_2}) && \\text{P pre-placed queen on (1,2)} \\\\",
    ] {
        assert!(tex.contains(expected), "{expected:?} missing:\n{tex}");
    }
    assert_eq!(
        tex.matches("\\begin{align*}").count(),
        tex.matches("\\end{align*}").count()
    );
    let clause_lines = tex.lines().filter(|l| l.starts_with("& (")).count();
    assert_eq!(clause_lines as u64, inst.size().clauses);
}

/// `queens-sat explain`'s library function takes the toy as it takes the built-in models.
#[test]
fn explained_by_the_command() {
    use queens_sat::command::explain::{explain, ExplainRequest, Format};
    let dir = tempfile::tempdir().unwrap();
    for (format, name, expected) in [
        (
            Format::Text,
            "toy.txt",
            "The instance adds 1 clauses to the model",
        ),
        (
            Format::Latex,
            "toy.tex",
            "\\subsection*{T1: a queen in every row}",
        ),
        (Format::DimacsCommented, "toy.cnf", "c T2: -b1_1 v -b1_2"),
    ] {
        let path = dir.path().join(name);
        let req = ExplainRequest {
            instance: toy(5).with_cells(&[], &[(4, 4)]).unwrap(),
            spec: None,
            format,
            ascii: true,
            limit: None,
            expand: false,
            output: Some(path.clone()),
            force: false,
            command_line: None,
        };
        explain(&req).unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(
            written.contains(expected),
            "{expected:?} missing:\n{written}"
        );
    }
}

/// The traced search speaks the toy's names and finds the solutions by hand.
#[test]
fn traced() {
    for learning in [false, true] {
        let opts = TraceOptions {
            algorithm: if learning {
                Algorithm::Cdcl
            } else {
                Algorithm::Dpll
            },
            ..TraceOptions::default()
        };
        let inst = toy(4);
        let t = trace(&inst, &opts).unwrap();
        let cols: Vec<usize> = t.solution.clone().unwrap().iter().map(|c| c - 1).collect();
        inst.check_board(&Placement::from_cols(&cols)).unwrap();
        if !learning {
            // Without learning the search meets the boards in order: the first is 2 4 1 3.
            assert_eq!(t.solution.as_deref(), Some(&[2, 4, 1, 3][..]));
        }
        assert_eq!(t.names[0], "b1_1");
        let mut out = Vec::new();
        t.write_text(&mut out).unwrap();
        let out = text(out);
        assert!(
            out.contains("decide    b1_1 = true (level 1); a queen on square (1,1)"),
            "{out}"
        );
        assert!(
            out.contains("T3 column 1 has at most one queen (clause "),
            "{out}"
        );
        assert!(out.contains(": b1_1 forces ¬b2_1"), "{out}");
        let t3 = trace(&toy(3), &opts).unwrap();
        assert!(!t3.satisfiable);
    }
}

/// The DIMACS export has the toy's clauses and header; the OPB export, the board's
/// constraints over the toy's cell variables.
#[test]
fn exported_as_dimacs_and_opb() {
    let inst = toy(6).with_cells(&[(0, 1)], &[(5, 5)]).unwrap();
    let dimacs = text(inst.write_dimacs(Vec::new(), Some("toy 6")).unwrap());
    assert!(dimacs.contains("c model: toy model"));
    assert!(dimacs.contains("c command: toy 6"));
    let read = read_dimacs(dimacs.as_bytes()).unwrap();
    assert_eq!(read.vars, 36);
    let cnf = to_labelled_cnf(&inst);
    let clauses: Vec<Vec<Lit>> = cnf.iter().map(|c| c.to_vec()).collect();
    assert_eq!(read.clauses, clauses);
    assert_eq!(clauses.len() as u64, inst.size().clauses);

    let opb = text(inst.write_opb(Vec::new(), None).unwrap());
    assert!(opb.starts_with("* #variable= 36 #constraint="), "{opb}");
    assert!(opb.contains("+1 x2 = 1 ;"), "the pre-placed queen:\n{opb}");
    assert!(opb.contains("+1 x36 = 0 ;"), "the forbidden cell:\n{opb}");
}

/// Every embedded backend of the build solves the toy and enumerates its solutions: each a
/// valid board of the instance, as many as the published counts, the same set as a plain
/// backtracking finds.
#[test]
fn solved_and_counted_by_every_backend() {
    let backends: Vec<Backend> = [Backend::Varisat, Backend::Cadical, Backend::Kissat]
        .into_iter()
        .filter(|b| b.is_available())
        .collect();
    assert!(!backends.is_empty());
    for &backend in &backends {
        for (n, total) in [(1, 1), (2, 0), (3, 0), (4, 2), (6, 4), (8, 92)] {
            let inst = toy(n);
            match solve_with(&inst, backend).unwrap() {
                Some(p) => inst.check_board(&p).unwrap(),
                None => assert_eq!(total, 0, "{backend:?} n = {n}"),
            }
            let count = Enumeration::new(inst.clone())
                .backend(backend)
                .count(|_| {})
                .unwrap();
            assert_eq!(count, total, "{backend:?} n = {n}");
        }
        // n = 6: the very solutions, each a valid board.
        let inst = toy(6);
        let found: BTreeSet<Vec<usize>> = Enumeration::new(inst.clone())
            .backend(backend)
            .iter()
            .map(|p| {
                let p = p.unwrap();
                inst.check_board(&p).unwrap();
                (0..6).map(|r| p.col(r)).collect()
            })
            .collect();
        let expected: BTreeSet<Vec<usize>> = brute_force_solutions(6).into_iter().collect();
        assert_eq!(found, expected, "{backend:?}");
        // An instance: a queen on (1,2) leaves one of the four; forbidding (1,2) three.
        let placed = toy(6).with_cells(&[(0, 1)], &[]).unwrap();
        let forbidden = toy(6).with_cells(&[], &[(0, 1)]).unwrap();
        for (inst, total) in [(placed, 1), (forbidden, 3)] {
            let count = Enumeration::new(inst)
                .backend(backend)
                .count(|_| {})
                .unwrap();
            assert_eq!(count, total, "{backend:?}");
        }
    }
}
