//! The n-queens CNF encoder.
//!
//! [`QueensEncoder`] decides which line of the board gets which constraint and streams the
//! clauses into any [`crate::cnf::ClauseSink`]; [`amo`] holds the at-most-one encodings it
//! applies to each line, and [`card`] the cardinality encodings (at most, at least, exactly k
//! of a list of literals), for library users and for the at-most-one encodings built on them. Sizes are known in closed form before the first clause is made
//! ([`QueensEncoder::size`]), so a DIMACS header can be written up front.
//!
//! Both models also encode the toroidal board ([`crate::board::Geometry::Toroidal`], where
//! diagonals wrap around the edges): [`QueensEncoder::new_on`], [`ColumnEncoder::new_on`].
//!
//! How a formula is said to people (names in listings and LaTeX, meanings, what each clause
//! says) is part of the [`Encoding`] too: [`Encoding::words`] hands out its [`Words`]
//! ([`words`]), which the listings, the traced search and the explanations of an assignment
//! print, whatever the model.
//!
//! Variable numbering (shared by every interface): the cell in 0-based row `r`, column `c` is
//! DIMACS variable `r * n + c + 1`, so `1..=n*n` are the cells, row-major; auxiliary variables
//! of an encoding follow, in the order the lines are encoded.

pub mod amo;
pub mod card;
pub mod catalogue;
pub mod cells;
pub mod columns;
pub mod pb;
pub mod redundant;
#[cfg(test)]
pub(crate) mod torus_oracle;
pub mod words;

pub use amo::{Amo, AtMostOne};
pub use catalogue::{Model, ModelEntry, ModelOption, ModelOptions, MODELS};
pub use cells::{AuxBlock, CellWords, EncodeOptions, Group, LineEncodings, Namer, QueensEncoder};
pub use columns::{
    ColumnDecodeError, ColumnEncoder, ColumnGroup, ColumnOptions, ColumnWords, ConstraintEncoding,
    Constraints, Domain, DomainEncoding,
};
pub use words::{LineHeading, Notation, PlainWords, Words};

use crate::board::Placement;
use crate::board::{Geometry, Line};
use crate::cnf::{Lit, Var};
use std::io;

/// One model's encoding of n-queens on one board, ready to emit: what an
/// `Instance` holds (in the module `instance`, which builds on this one), and what a new model
/// implements.
///
/// The built-in implementations are the cell model ([`QueensEncoder`]) and the column model
/// ([`ColumnEncoder`]), both built from a [`Model`] of the catalogue ([`Model::encoder`]); an
/// implementation of a library user's own goes into an instance with
/// `Instance::from_encoding` and is then solved, enumerated, counted,
/// checked and exported like the built-in ones.
///
/// The contract, which the generic tests check for every encoding of the catalogue: the
/// clauses [`Encoding::encode_labelled`] emits have exactly the [`Encoding::size`]; they are
/// satisfiable together with [`Encoding::push_value_lits`] of a board's cells exactly when the
/// board is a solution; and the models projected onto [`Encoding::projection`] are one-to-one
/// with the solutions, [`Encoding::decode`] reading the board back.
pub trait Encoding: Send + Sync + std::fmt::Debug {
    /// The board size.
    fn n(&self) -> usize;
    /// The board's geometry (square, or toroidal with wrapped diagonals).
    fn geometry(&self) -> Geometry;
    /// The short name used in reports and file names (`pairwise`, `columns-order`, ...).
    fn name(&self) -> String;
    /// A one-line description, for comments and reports.
    fn describe(&self) -> String;
    /// Variables, clauses and literal occurrences, exact, before any clause is made.
    fn size(&self) -> Size;
    /// Streams the clauses into `sink`, announcing groups and labels.
    fn encode_labelled(&self, sink: &mut dyn LabelSink) -> io::Result<()>;
    /// Appends literals whose conjunction holds exactly when the queen of row `r` stands in
    /// column `c` (given the encoding's own clauses).
    fn push_value_lits(&self, r: usize, c: usize, out: &mut Vec<Lit>);
    /// The board of a model (`assignment[i]` is the value of the variable with 0-based index
    /// `i`; missing variables are false), read from the projection. Attacks are not checked.
    fn decode(&self, assignment: &[bool]) -> Result<Placement, DecodeError>;
    /// The variables whose values determine the board.
    fn projection(&self) -> Vec<Var>;
    /// A variable's name: `q(2,3)`, `x(2)=3`, an auxiliary's name.
    fn var_name(&self, var: Var) -> String;
    /// A variable's meaning in words (by default its name).
    fn var_meaning(&self, var: Var) -> String {
        self.var_name(var)
    }
    /// The comment lines of a DIMACS header (without `c `): the tool, n, the model, the command
    /// line if given, the variables, the groups. [`header_start`] gives the first lines.
    fn header_comments(&self, command: Option<&str>) -> Vec<String>;
    /// `true` when DIMACS variable `r * n + c + 1` is true exactly when a queen stands on cell
    /// (`r`, `c`) (0-based) and these `n * n` variables are the projection, as in the cell
    /// model.
    fn cell_variables(&self) -> bool {
        false
    }
    /// The redundant constraints the encoding adds to its model's (none by default; see
    /// [`redundant::WithRedundant`]), which the OPB form states linearly and `explain` does not
    /// list.
    fn redundant(&self) -> redundant::RedundantSet {
        redundant::RedundantSet::NONE
    }
    /// How the formula is said to people ([`Words`]): the variables' names in listings and in
    /// LaTeX, their meanings, the headings of a listing, the note under each group, what a
    /// clause says and what it means that one is false. What the listings of `explain`, the
    /// traced search and the explanations of an assignment print, whatever the model.
    ///
    /// By default [`PlainWords`]: the names of [`Encoding::var_name`], the meanings of
    /// [`Encoding::var_meaning`], the groups as [`Encoding::encode_labelled`] announces them,
    /// their clauses counted.
    fn words(&self) -> Box<dyn Words + '_> {
        Box::new(PlainWords::new(self))
    }
}

/// The first comment lines of every DIMACS header: the tool with its version, and `n`.
pub fn header_start(n: usize) -> Vec<String> {
    vec![
        format!(
            "{} {}: n-queens CNF",
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION")
        ),
        format!("n = {n}"),
    ]
}

/// The largest variable number allowed: DIMACS literals are 32-bit signed in most solvers, and
/// varisat numbers fewer still.
pub fn max_vars() -> u64 {
    (i32::MAX as u64).min(varisat::Var::max_count() as u64)
}

/// Why an encoder could not be made, or an encoding's name not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// n = 0.
    #[error("n must be at least 1")]
    Zero,
    /// More variables than DIMACS (32-bit signed literals) or the solver can number.
    #[error("n = {n} needs {vars} variables, more than the {max} a DIMACS file or the solver can number")]
    TooManyVars {
        /// Board size.
        n: usize,
        /// Variables needed.
        vars: u64,
        /// The limit ([`max_vars`]).
        max: u64,
    },
    /// A clause or literal count does not fit in 64 bits.
    #[error("n = {n}: the number of clauses or literals of the {model} does not fit in 64 bits")]
    SizeOverflow {
        /// Board size.
        n: usize,
        /// The model and encoding, in words (`order/conflict column model`).
        model: String,
    },
    /// A constraint encoding was asked for with a domain it does not work with.
    #[error("the {constraints} encoding needs the {needs} domain, not {domain} (valid: {valid})")]
    DomainNotAccepted {
        /// The constraint encoding.
        constraints: &'static str,
        /// The domains it works with.
        needs: String,
        /// The domain asked for.
        domain: &'static str,
        /// The valid combinations ([`columns::valid_combinations`]).
        valid: String,
    },
    /// A domain name that is not in [`columns::DOMAINS`].
    #[error("unknown domain encoding '{0}' (valid: {valid})", valid = Domain::names().join(", "))]
    UnknownDomain(String),
    /// A constraint name that is not in [`columns::CONSTRAINTS`].
    #[error("unknown constraint encoding '{0}' (valid: {valid})", valid = Constraints::names().join(", "))]
    UnknownConstraints(String),
}

/// Why a model of the formula does not describe a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A row without a queen or with several (the columns listed, 0-based).
    #[error("{}", row_count_message(*.row, .cols))]
    RowCount {
        /// The row (0-based).
        row: usize,
        /// Its queens' columns (0-based).
        cols: Vec<usize>,
    },
    /// The column model's variables of a row do not stand for one column.
    #[error(transparent)]
    Column(#[from] ColumnDecodeError),
}

fn row_count_message(row: usize, cols: &[usize]) -> String {
    if cols.is_empty() {
        format!("row {} has no queen", row + 1)
    } else {
        format!(
            "row {} has {} queens, in columns {}",
            row + 1,
            cols.len(),
            cols.iter()
                .map(|c| (c + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// A `Copy` handle on an entry of a catalogue of encodings (a static slice of trait objects):
/// equal, hashed, shown and parsed by the entry's name.
macro_rules! catalogue_handle {
    ($(#[$doc:meta])* $name:ident, $trait:ident, $catalogue:ident, $err:path) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name(&'static dyn $trait);

        impl $name {
            /// The handle of `encoding`.
            pub const fn of(encoding: &'static dyn $trait) -> Self {
                $name(encoding)
            }
            /// Every entry of the catalogue, in its order.
            pub fn all() -> Vec<$name> {
                $catalogue.iter().map(|&e| $name(e)).collect()
            }
            /// The entries' names, in catalogue order.
            pub fn names() -> Vec<&'static str> {
                $catalogue.iter().map(|e| e.name()).collect()
            }
            /// The encoding.
            pub fn encoding(self) -> &'static dyn $trait {
                self.0
            }
            /// Its command-line name.
            pub fn name(self) -> &'static str {
                self.0.name()
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.name() == other.name()
            }
        }

        impl Eq for $name {}

        impl std::hash::Hash for $name {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.name().hash(state)
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({})", stringify!($name), self.name())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $name {
            type Err = EncodeError;

            /// A name of the catalogue (surrounding white space ignored).
            fn from_str(s: &str) -> Result<Self, EncodeError> {
                let s = s.trim();
                $catalogue
                    .iter()
                    .find(|e| e.name() == s)
                    .map(|&e| $name(e))
                    .ok_or_else(|| $err(s.to_string()))
            }
        }
    };
}
pub(crate) use catalogue_handle;

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

    /// `count` fresh variables, as positive literals, in increasing order.
    pub fn fresh_lits(&mut self, count: usize) -> Vec<Lit> {
        (0..count).map(|_| self.fresh().positive()).collect()
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
    /// Redundant linear equalities over the queens' coordinates (`--redundant sums`).
    Sums,
    /// Symmetry breaking: lex-leader constraints that keep one solution of each symmetry class
    /// (the module `symmetry_breaking`, which builds on this one).
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
