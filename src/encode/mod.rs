//! The n-queens CNF encoder.
//!
//! [`QueensEncoder`] decides which line of the board gets which constraint and streams the
//! clauses into any [`crate::cnf::ClauseSink`]; [`amo`] holds the at-most-one encodings it
//! applies to each line. Sizes are known in closed form before the first clause is made
//! ([`QueensEncoder::size`]), so a DIMACS header can be written up front.
//!
//! Both models also encode the toroidal board ([`crate::board::Geometry::Toroidal`], where
//! diagonals wrap around the edges): [`QueensEncoder::new_on`], [`ColumnEncoder::new_on`].
//!
//! Variable numbering (shared by every interface): the cell in 0-based row `r`, column `c` is
//! DIMACS variable `r * n + c + 1`, so `1..=n*n` are the cells, row-major; auxiliary variables
//! of an encoding follow, in the order the lines are encoded.

pub mod amo;
pub mod columns;
mod queens;
#[cfg(test)]
pub(crate) mod torus_oracle;

pub use amo::Amo;
pub use columns::{
    ColumnDecodeError, ColumnEncoder, ColumnError, ColumnGroup, ColumnOptions, Constraints, Domain,
};
pub use queens::{
    max_vars, AuxBlock, EncodeError, EncodeOptions, Group, LineEncodings, QueensEncoder,
};

use crate::board::Line;
use crate::cnf::{Lit, Var};

/// The DIMACS-numbered variable of cell (`r`, `c`), 0-based, on an `n` x `n` board.
#[inline]
pub fn cell_var(n: usize, r: usize, c: usize) -> Var {
    Var::from_index(r * n + c)
}

/// The positive literal of cell (`r`, `c`), 0-based: "a queen stands on (r, c)".
#[inline]
pub fn cell_lit(n: usize, r: usize, c: usize) -> Lit {
    cell_var(n, r, c).positive()
}

/// The cell (0-based row, column) of a variable, or `None` for an auxiliary variable.
pub fn cell_of_var(n: usize, var: Var) -> Option<(usize, usize)> {
    let i = var.index();
    (i < n * n).then(|| (i / n, i % n))
}

/// The number of variables, clauses and literal occurrences of a formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Variables (cells plus auxiliaries).
    pub vars: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences over all clauses.
    pub literals: u64,
}

impl Size {
    /// The exact size in bytes of the clause lines of a DIMACS file with this formula is not
    /// known without writing it; this is an upper estimate: every literal takes the digits of
    /// the largest variable plus a sign and a space, every clause `0\n`.
    pub fn estimated_dimacs_bytes(&self) -> u64 {
        let digits = self.vars.max(1).ilog10() as u64 + 1;
        self.literals
            .saturating_mul(digits + 2)
            .saturating_add(self.clauses.saturating_mul(2))
    }
}

/// Saturating: a size at `u64::MAX` is past every limit and is refused as too large, never
/// wrapped to a small number.
impl std::ops::Add for Size {
    type Output = Size;
    fn add(self, o: Size) -> Size {
        Size {
            vars: self.vars.saturating_add(o.vars),
            clauses: self.clauses.saturating_add(o.clauses),
            literals: self.literals.saturating_add(o.literals),
        }
    }
}

/// Hands out fresh auxiliary variables, in increasing order.
#[derive(Clone, Debug)]
pub struct VarAlloc {
    next: usize,
}

impl VarAlloc {
    /// An allocator whose first fresh variable has 0-based index `first_index`
    /// (DIMACS number `first_index + 1`).
    pub fn starting_at(first_index: usize) -> Self {
        VarAlloc { next: first_index }
    }

    /// A fresh variable.
    pub fn fresh(&mut self) -> Var {
        let v = Var::from_index(self.next);
        self.next += 1;
        v
    }

    /// The number of variables handed out or reserved so far, counting from index 0.
    pub fn used(&self) -> usize {
        self.next
    }
}

/// What a block of clauses says about the board, whatever the model and encoding: the typed
/// counterpart of a group's tag, for code that must know which rule a clause enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Every line of this kind has at least one queen (rows; columns when redundant).
    AtLeastOne(crate::board::LineKind),
    /// Every line of this kind has at most one queen.
    AtMostOne(crate::board::LineKind),
    /// The variables of a row stand for exactly one value (an integer domain's own clauses,
    /// such as the order encoding's ladder or the log encoding's excluded values).
    Domain,
    /// A pre-placed queen (unit clauses).
    Placed,
    /// A forbidden cell.
    Forbidden,
    /// The support encoding's clauses: each value of a row keeps a compatible value in every
    /// other row (columns and both diagonals at once).
    Support,
    /// Symmetry breaking: lex-leader constraints that keep one solution of each symmetry class
    /// ([`crate::symmetry`]).
    Symmetry,
}

/// Where the clauses that follow come from: the rule they enforce and, for constraints on one
/// line of the board, that line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    /// The rule.
    pub rule: Rule,
    /// The board line, if the clauses constrain one line.
    pub line: Option<Line>,
}

/// A [`ClauseSink`](crate::cnf::ClauseSink) that also takes the board-level [`Label`] of the
/// clauses that follow. The CNF layer knows nothing of boards; this is where the board meets
/// it. [`Unlabelled`] turns any clause sink into one that ignores labels.
pub trait LabelSink: crate::cnf::ClauseSink {
    /// Announces the label of the clauses that follow.
    fn begin_label(&mut self, label: &Label) -> std::io::Result<()>;
}

/// Any clause sink, ignoring labels.
pub struct Unlabelled<'a, S: ?Sized>(pub &'a mut S);

impl<S: crate::cnf::ClauseSink + ?Sized> crate::cnf::ClauseSink for Unlabelled<'_, S> {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        self.0.add_clause(clause)
    }
    fn begin_group(&mut self, group: &crate::cnf::GroupInfo) -> std::io::Result<()> {
        self.0.begin_group(group)
    }
}

impl<S: crate::cnf::ClauseSink + ?Sized> LabelSink for Unlabelled<'_, S> {
    fn begin_label(&mut self, _: &Label) -> std::io::Result<()> {
        Ok(())
    }
}

/// A formula in memory with the [`Label`] of every clause: what teaching and checking code
/// reads to say which rule and line a clause belongs to.
#[derive(Clone, Debug, Default)]
pub struct LabelledCnf {
    /// The clauses (and their groups, for comments).
    pub cnf: crate::cnf::Cnf,
    /// Index of the first clause of each run and its label.
    labels: Vec<(usize, Label)>,
}

impl LabelledCnf {
    /// The label of clause `i` (0-based), if one was announced before it.
    pub fn label_of(&self, i: usize) -> Option<Label> {
        let k = self.labels.partition_point(|(start, _)| *start <= i);
        (k > 0).then(|| self.labels[k - 1].1)
    }

    /// The rule of clause `i`.
    pub fn rule_of(&self, i: usize) -> Option<Rule> {
        self.label_of(i).map(|l| l.rule)
    }

    /// The board line of clause `i`, if it constrains one.
    pub fn line_of(&self, i: usize) -> Option<Line> {
        self.label_of(i).and_then(|l| l.line)
    }
}

impl std::ops::Deref for LabelledCnf {
    type Target = crate::cnf::Cnf;
    fn deref(&self) -> &crate::cnf::Cnf {
        &self.cnf
    }
}

impl crate::cnf::ClauseSink for LabelledCnf {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        self.cnf.add_clause(clause)
    }
    fn begin_group(&mut self, group: &crate::cnf::GroupInfo) -> std::io::Result<()> {
        self.cnf.begin_group(group)
    }
}

impl LabelSink for LabelledCnf {
    fn begin_label(&mut self, label: &Label) -> std::io::Result<()> {
        self.labels.push((self.cnf.len(), *label));
        Ok(())
    }
}
