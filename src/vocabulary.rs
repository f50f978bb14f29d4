//! How the library's messages name the options a user sets. An error that says which option to
//! change names it by a [`Param`], never by a command-line spelling: by default in the library's
//! own terms (`amo`, `max_steps`), the names the Python package takes too. A program with its own
//! spelling of the options (the command line's `--amo`) registers it once with [`set_spelling`],
//! and every message then names the options as its users type them.
//!
//! ```
//! use queens_sat::vocabulary::Param;
//! assert_eq!(Param::MaxSteps.to_string(), "max_steps");
//! ```

use std::fmt;
use std::sync::OnceLock;

/// An option a message may ask the user to set or change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    /// The model (cells, columns, ...).
    Model,
    /// The at-most-one encoding.
    Amo,
    /// The column model's domain encoding.
    Domain,
    /// The column model's constraint encoding.
    Constraints,
    /// The column model's all-different encoding.
    Alldiff,
    /// The cell model's at-least-one clauses per column.
    ColumnAlo,
    /// The symmetry breaking.
    SymmetryBreaking,
    /// The redundant constraints.
    Redundant,
    /// The output format.
    Format,
    /// Work past the size limits.
    Force,
    /// A limit on the clauses or steps shown.
    Limit,
    /// Split into cubes on the first rows.
    Cubes,
    /// The trace's limit of steps.
    MaxSteps,
    /// Check the answer as it is built.
    Check,
    /// The DIMACS file an answer belongs to.
    Cnf,
    /// The models of a comparison.
    Models,
    /// The range of board sizes.
    Sizes,
    /// Worker threads.
    Threads,
    /// Why there is no solution: the clauses that contradict each other.
    Why,
    /// Check the proof of unsatisfiability.
    CheckProof,
    /// The board size.
    BoardSize,
    /// The heatmap of solutions per cell.
    Heatmap,
    /// Only the fundamental solutions.
    Fundamental,
    /// One shard of the work.
    Shard,
    /// What solves: a SAT solver or the search.
    Engine,
    /// The embedded solver.
    Backend,
    /// An option of the embedded solver.
    SolverOption,
    /// The rows an enumeration is split on.
    SplitRows,
}

impl Param {
    /// Every option, in declaration order.
    pub const ALL: [Param; 28] = [
        Param::Model,
        Param::Amo,
        Param::Domain,
        Param::Constraints,
        Param::Alldiff,
        Param::ColumnAlo,
        Param::SymmetryBreaking,
        Param::Redundant,
        Param::Format,
        Param::Force,
        Param::Limit,
        Param::Cubes,
        Param::MaxSteps,
        Param::Check,
        Param::Cnf,
        Param::Models,
        Param::Sizes,
        Param::Threads,
        Param::Why,
        Param::CheckProof,
        Param::BoardSize,
        Param::Heatmap,
        Param::Fundamental,
        Param::Shard,
        Param::Engine,
        Param::Backend,
        Param::SolverOption,
        Param::SplitRows,
    ];

    /// The option's name in the library's terms (the Python package's keyword).
    pub fn name(self) -> &'static str {
        match self {
            Param::Model => "model",
            Param::Amo => "amo",
            Param::Domain => "domain",
            Param::Constraints => "constraints",
            Param::Alldiff => "alldiff",
            Param::ColumnAlo => "column_alo",
            Param::SymmetryBreaking => "symmetry_breaking",
            Param::Redundant => "redundant",
            Param::Format => "format",
            Param::Force => "force",
            Param::Limit => "limit",
            Param::Cubes => "cubes",
            Param::MaxSteps => "max_steps",
            Param::Check => "check",
            Param::Cnf => "cnf",
            Param::Models => "models",
            Param::Sizes => "n",
            Param::Threads => "threads",
            Param::Why => "why",
            Param::CheckProof => "check_proof",
            Param::BoardSize => "n",
            Param::Heatmap => "heatmap",
            Param::Fundamental => "fundamental",
            Param::Shard => "shard",
            Param::Engine => "engine",
            Param::Backend => "backend",
            Param::SolverOption => "solver_option",
            Param::SplitRows => "split_rows",
        }
    }
}

/// The spelling a program registered with [`set_spelling`].
static SPELLING: OnceLock<fn(Param) -> &'static str> = OnceLock::new();

/// Registers how this program's users spell the options (once: later calls change nothing);
/// [`Param`]'s `Display` uses it from then on.
pub fn set_spelling(spelling: fn(Param) -> &'static str) {
    let _ = SPELLING.set(spelling);
}

/// The option as this program's users spell it: the registered spelling, else
/// [`Param::name`].
impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(SPELLING.get().map_or_else(|| self.name(), |s| s(*self)))
    }
}
