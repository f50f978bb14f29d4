//! The formula made readable, for teaching: named variables, labelled clause groups, the
//! meaning of every clause in words.
//!
//! * [`Namer`] names variables: `q(r,c)` for the cell in row r, column c (1-based), and the
//!   auxiliary variables of an encoding by the line of the board they serve.
//! * [`clause_meaning`] says what one clause states.
//! * [`write_readable`], [`write_latex`] and [`write_dimacs_commented`] print a whole formula.
//! * [`group_status`] and [`false_clause_in_words`] say why an assignment is, or is not, a
//!   solution; [`minimal_unsat_core`], [`case_split`] and [`write_why`] why there is none.
//!
//! Every printer is a [`crate::cnf::ClauseSink`] fed by the same encoder that exports DIMACS, so
//! the listing shows exactly the clauses that are solved.

mod columns;
mod fixed;
mod holds;
mod latex;
mod text;
mod why;

pub use columns::{write_dimacs_commented_columns, write_latex_columns, write_readable_columns};
pub use fixed::{clause_text, fixed_clauses, write_fixed_readable, FixedClause};
pub use holds::{
    clause_number_in_words, false_clause_in_words, group_status, write_groups, GroupStatus,
};
pub use latex::write_latex;
pub use text::{write_dimacs_commented, write_readable, Notation};

/// Writes an instance's fixed-cell clauses after a model's, each under a `c` line with its
/// group, meaning and named clause (`clause` names the variables).
fn write_tail<W: std::io::Write>(
    w: &mut crate::cnf::DimacsWriter<W>,
    tail: &[FixedClause],
    clause: impl Fn(&[crate::cnf::Lit]) -> String,
) -> std::io::Result<()> {
    use crate::cnf::ClauseSink;
    let mut last_group = None;
    for (meaning, lits) in tail {
        let group = meaning.chars().next();
        if group != last_group {
            w.comment("")?;
            w.comment(match group {
                Some('P') => "P: pre-placed queens",
                _ => "F: forbidden cells",
            })?;
            last_group = group;
        }
        w.comment(&format!("{meaning}: {}", clause(lits)))?;
        w.add_clause(lits)?;
    }
    Ok(())
}
pub use why::{
    case_split, minimal_unsat_core, write_core, write_why, Case, CoreError, Outcome, Refutation,
    Step, MAX_ARGUMENT_LINES,
};

use crate::board::{Line, LineKind};
use crate::cnf::Cnf;
use crate::cnf::{Lit, Var};
use crate::encode::{cell_of_var, Amo, AuxBlock, Group, QueensEncoder, VarAlloc};

/// Names variables the way the coursework does.
///
/// Cells are `q(r,c)`. An auxiliary variable is named by its encoding's letter, its line and
/// its position in the line's block: `s(row 2, 3)` is the third sequential-counter variable of
/// row 2. Its meaning ([`Namer::aux_meaning`]) is read off the clauses themselves: which queens
/// on the line force it true and which force it false, by unit propagation over the
/// encoding's binary clauses.
#[derive(Clone, Debug)]
pub struct Namer {
    n: usize,
    geometry: crate::board::Geometry,
    blocks: Vec<AuxBlock>,
}

/// What the queens of a line force onto one auxiliary variable of its encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuxForcing {
    /// 0-based positions in the line whose queen forces the variable true.
    pub true_by: Vec<usize>,
    /// 0-based positions whose queen forces it false.
    pub false_by: Vec<usize>,
}

/// For each auxiliary variable of `amo` on a line of `m` cells, the positions whose queen
/// forces it true or false, found by propagating each literal through the binary clauses.
pub fn aux_forcing(amo: Amo, m: usize) -> Vec<AuxForcing> {
    let lits: Vec<Lit> = (0..m).map(|i| Lit::from_index(i, true)).collect();
    let mut alloc = VarAlloc::starting_at(m);
    let mut cnf = Cnf::new();
    // Emitting into memory cannot fail.
    let _ = amo.encode(&lits, &mut alloc, &mut cnf);
    let total = alloc.used();
    // Implication graph over literal codes: (a v b) gives -a -> b and -b -> a.
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); 2 * total];
    for c in cnf.iter().filter(|c| c.len() == 2) {
        next[(!c[0]).code()].push(c[1].code());
        next[(!c[1]).code()].push(c[0].code());
    }
    let mut out = vec![
        AuxForcing {
            true_by: Vec::new(),
            false_by: Vec::new()
        };
        total - m
    ];
    for (i, lit) in lits.iter().enumerate() {
        let mut seen = vec![false; 2 * total];
        let mut stack = vec![lit.code()];
        seen[lit.code()] = true;
        while let Some(x) = stack.pop() {
            for &y in &next[x] {
                if !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        for (k, f) in out.iter_mut().enumerate() {
            let v = Var::from_index(m + k);
            if seen[v.positive().code()] {
                f.true_by.push(i);
            }
            if seen[v.negative().code()] {
                f.false_by.push(i);
            }
        }
    }
    out
}

impl Namer {
    /// A namer for the formula `enc` makes.
    pub fn new(enc: &QueensEncoder) -> Self {
        Namer {
            n: enc.n(),
            geometry: enc.geometry(),
            blocks: enc.aux_blocks(),
        }
    }

    /// A line's name on the formula's board: `row 3`, `/ diagonal r+c=5`, or on the torus
    /// `/ diagonal r+c≡5 (mod 8)`.
    pub fn describe_line(&self, line: &Line) -> String {
        line.describe_on(self.n, self.geometry)
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The auxiliary block a variable belongs to and its 1-based position in it.
    pub fn aux_of(&self, v: Var) -> Option<(&AuxBlock, u64)> {
        let d = v.to_dimacs() as u64;
        let k = self.blocks.partition_point(|b| b.first <= d);
        let b = self.blocks.get(k.checked_sub(1)?)?;
        (d < b.first + b.count).then(|| (b, d - b.first + 1))
    }

    /// `q(2,3)` for a cell; `s(row 1, 2)` for the 2nd auxiliary of row 1's sequential counter.
    pub fn var(&self, v: Var) -> String {
        if let Some((r, c)) = cell_of_var(self.n, v) {
            return format!("q({},{})", r + 1, c + 1);
        }
        match self.aux_of(v) {
            Some((b, k)) => format!(
                "{}({}, {k})",
                b.amo.aux_symbol(),
                self.describe_line(&b.line)
            ),
            None => format!("x{}", v.to_dimacs()),
        }
    }

    /// The auxiliary variables of the block that encodes `line` in a group of at-most-one
    /// clauses (none for pairwise), in order.
    pub fn aux_of_line(&self, line: &Line) -> Vec<Var> {
        self.blocks
            .iter()
            .filter(|b| b.line == *line)
            .flat_map(|b| (b.first..b.first + b.count).map(|d| Var::from_dimacs(d as isize)))
            .collect()
    }

    /// What an auxiliary variable stands for, in words (e.g. "true when a queen is among the
    /// first 3 cells of row 2"), or `None` for a cell variable.
    pub fn aux_meaning(&self, v: Var) -> Option<String> {
        let (b, k) = self.aux_of(v)?;
        let cells: Vec<(usize, usize)> = b.line.cells(self.n).collect();
        let f = aux_forcing(b.amo, cells.len()).swap_remove(k as usize - 1);
        let line = self.describe_line(&b.line);
        let set = |pos: &[usize]| -> String {
            if pos.len() > 1 && pos.iter().enumerate().all(|(i, &p)| i == p) {
                return format!("the first {} cells of {line}", pos.len());
            }
            let list: Vec<String> = pos
                .iter()
                .map(|&p| format!("({},{})", cells[p].0 + 1, cells[p].1 + 1))
                .collect();
            format!("{} of {line}", list.join(", "))
        };
        let mut parts = Vec::new();
        if !f.true_by.is_empty() {
            parts.push(format!(
                "must be true when a queen is on {}",
                set(&f.true_by)
            ));
        }
        if !f.false_by.is_empty() {
            parts.push(format!(
                "must be false when a queen is on {}",
                set(&f.false_by)
            ));
        }
        if parts.is_empty() {
            parts.push("not forced by any single queen".to_string());
        }
        Some(format!("{}: {}", self.var(v), parts.join("; ")))
    }

    /// The LaTeX form: `q_{2,3}`, or `s_{3}^{\text{row 2}}`.
    pub fn var_latex(&self, v: Var) -> String {
        if let Some((r, c)) = cell_of_var(self.n, v) {
            return format!("q_{{{},{}}}", r + 1, c + 1);
        }
        match self.aux_of(v) {
            Some((b, k)) => format!(
                "{}_{{{k}}}^{{\\text{{{}}}}}",
                b.amo.aux_symbol(),
                latex::escape(&self.describe_line(&b.line))
            ),
            None => format!("x_{{{}}}", v.to_dimacs()),
        }
    }

    /// A literal in the chosen notation: `q(1,2)`, `¬q(1,2)` or `-q(1,2)`.
    pub fn lit(&self, l: Lit, notation: Notation) -> String {
        let name = self.var(l.var());
        if l.is_negative() {
            format!("{}{name}", notation.negation())
        } else {
            name
        }
    }

    /// A clause in the chosen notation: `¬q(1,1) ∨ ¬q(1,2)`; the empty clause is `⊥`.
    pub fn clause(&self, clause: &[Lit], notation: Notation) -> String {
        if clause.is_empty() {
            return notation.falsum().to_string();
        }
        clause
            .iter()
            .map(|&l| self.lit(l, notation))
            .collect::<Vec<_>>()
            .join(notation.disjunction())
    }
}

/// What a clause of the n-queens formula says, in words.
///
/// `group` and `line` are where the encoder emitted it (see [`crate::cnf::Cnf::group_of`] and
/// [`crate::encode::LabelledCnf::line_of`]).
pub fn clause_meaning(namer: &Namer, group: &Group, line: Option<&Line>, clause: &[Lit]) -> String {
    let n = namer.n();
    let where_ = line
        .map(|l| namer.describe_line(l))
        .unwrap_or_else(|| group.line.name().to_string());
    if group.at_least_one {
        return format!("{where_} has at least one queen");
    }
    let cells: Vec<(usize, usize)> = clause
        .iter()
        .filter_map(|l| cell_of_var(n, l.var()))
        .collect();
    if cells.len() == 2 && clause.len() == 2 && clause.iter().all(|l| l.is_negative()) {
        let (a, b) = (cells[0], cells[1]);
        return format!(
            "no two queens on {where_}: not both ({},{}) and ({},{})",
            a.0 + 1,
            a.1 + 1,
            b.0 + 1,
            b.1 + 1
        );
    }
    format!("at most one queen on {where_} (auxiliary clause of the encoding)")
}

/// The sentence for a falsified clause, given the queens on the board: names the queens that
/// share a line when the clause forbids them, or the empty line.
pub fn falsified_in_words(
    namer: &Namer,
    group: &Group,
    line: Option<&Line>,
    clause: &[Lit],
) -> String {
    let n = namer.n();
    let where_ = line
        .map(|l| namer.describe_line(l))
        .unwrap_or_else(|| group.line.name().to_string());
    if group.at_least_one {
        return format!("{}: {where_} has no queen", group.tag);
    }
    let cells: Vec<(usize, usize)> = clause
        .iter()
        .filter(|l| l.is_negative())
        .filter_map(|l| cell_of_var(n, l.var()))
        .collect();
    if cells.len() == 2 && clause.len() == 2 {
        let (a, b) = (cells[0], cells[1]);
        let what = match group.line {
            LineKind::Row => "a row",
            LineKind::Column => "a column",
            LineKind::Diagonal | LineKind::AntiDiagonal => "a diagonal",
        };
        return format!(
            "{}: queens at ({},{}) and ({},{}) share {what}",
            group.tag,
            a.0 + 1,
            a.1 + 1,
            b.0 + 1,
            b.1 + 1
        );
    }
    format!(
        "{}: the clause {} of {where_} fails",
        group.tag,
        namer.clause(clause, Notation::Ascii)
    )
}

/// The number of clauses of a group in closed form in n, for the reference (pairwise) model,
/// as text; `None` where the group's encoding has no simple closed form here.
pub fn group_count_formula(enc: &QueensEncoder, group: &Group) -> Option<&'static str> {
    group_count_formulas(enc, group).map(|f| f.0)
}

/// [`group_count_formula`] as (text, LaTeX).
pub(crate) fn group_count_formulas(
    enc: &QueensEncoder,
    group: &Group,
) -> Option<(&'static str, &'static str)> {
    if group.at_least_one {
        return Some(("n", "n"));
    }
    if enc.options().amo.for_kind(group.line) != crate::encode::Amo::PAIRWISE {
        return None;
    }
    Some(match group.line {
        LineKind::Row | LineKind::Column => (
            "n·C(n,2) = n²(n−1)/2",
            r"n\binom{n}{2} = \frac{n^2(n-1)}{2}",
        ),
        LineKind::Diagonal | LineKind::AntiDiagonal => (
            "2·C(n+1,3) − C(n,2) = n(n−1)(2n−1)/6",
            r"2\binom{n+1}{3} - \binom{n}{2} = \frac{n(n-1)(2n-1)}{6}",
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::EncodeOptions;

    #[test]
    fn names_cells_one_based() {
        let enc = QueensEncoder::new(4, EncodeOptions::default()).unwrap();
        let namer = Namer::new(&enc);
        assert_eq!(namer.var(Var::from_dimacs(7)), "q(2,3)");
        assert_eq!(
            namer.clause(
                &[Lit::from_dimacs(-1), Lit::from_dimacs(-6)],
                Notation::Unicode
            ),
            "¬q(1,1) ∨ ¬q(2,2)"
        );
        assert_eq!(namer.var_latex(Var::from_dimacs(16)), "q_{4,4}");
    }

    #[test]
    fn aux_forcing_matches_the_papers_definitions() {
        let m = 6;
        // Sinz: s_k is forced true by any of x_1..x_k.
        for (k, f) in aux_forcing(Amo::SEQUENTIAL, m).iter().enumerate() {
            assert_eq!(f.true_by, (0..=k).collect::<Vec<_>>());
        }
        // Ladder: y_k means "none of x_1..x_k", so any of them forces it false.
        for (k, f) in aux_forcing(Amo::LADDER, m).iter().enumerate() {
            assert_eq!(f.false_by, (0..=k).collect::<Vec<_>>());
        }
        // Binary: bit j is forced to bit j of the index of the true literal.
        for (j, f) in aux_forcing(Amo::BINARY, m).iter().enumerate() {
            let ones: Vec<usize> = (0..m).filter(|i| i >> j & 1 == 1).collect();
            let zeros: Vec<usize> = (0..m).filter(|i| i >> j & 1 == 0).collect();
            assert_eq!((f.true_by.clone(), f.false_by.clone()), (ones, zeros));
        }
        assert!(aux_forcing(Amo::PAIRWISE, m).is_empty());
    }

    #[test]
    fn closed_forms_match_group_sizes() {
        // Evaluate the printed closed forms numerically and compare with the encoder's counts.
        for n in 1..=30u64 {
            let enc = QueensEncoder::new(n as usize, EncodeOptions::default()).unwrap();
            for g in enc.groups() {
                let f = group_count_formula(&enc, &g).unwrap();
                let value = match f {
                    "n" => n,
                    "n·C(n,2) = n²(n−1)/2" => n * n * (n - 1) / 2,
                    _ => n * (n - 1) * (2 * n - 1) / 6,
                };
                assert_eq!(value, enc.group_size(&g).clauses, "n={n} {}", g.tag);
            }
        }
    }
}
