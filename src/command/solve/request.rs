//! The request of a solve: what solves it how ([`SolveMode`]), each mode holding only what it
//! reads, so that a combination that means nothing cannot be built.

use super::super::solution::Format;
use crate::instance::Instance;
use crate::solve::{Backend, ProofFormat, SolverOption};
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A solve: the instance, and what solves it how ([`SolveMode`]).
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// The instance (its model, partial board and symmetry breaking).
    pub instance: Instance,
    /// What solves the instance, and what it answers.
    pub mode: SolveMode,
}

/// What solves the instance, and what it answers.
#[derive(Clone, Debug)]
pub enum SolveMode {
    /// A SAT solver on the instance's formula.
    Sat {
        /// What the solver is asked.
        task: SatTask,
        /// Solve even a formula past the size limits ([`Limits::IN_MEMORY`](crate::instance::Limits::IN_MEMORY) for a solver in
        /// this process, [`Limits::STREAM`](crate::instance::Limits::STREAM) for an external one, which reads a written file).
        force: bool,
    },
    /// The backtracking search of the instance counter on the board itself, without a formula
    /// ([`crate::search::Decision`], n <= 64): one solution, checked, or the proof by
    /// exhaustive search that there is none. It takes the plain formula's instance only (the
    /// cell model, pairwise at-most-one, nothing added, no symmetry breaking): see
    /// [`SearchRefusal`](super::SearchRefusal).
    Search(SearchSolve),
    /// A chain of solvers ([`crate::experiment::attempt::run_chain`]), each a process of its own, run in
    /// turn until one decides.
    Chain(ChainSolve),
}

/// What a SAT solver is asked.
#[derive(Clone, Debug)]
pub enum SatTask {
    /// One solution, or that there is none.
    One(OneSolve),
    /// One solution (on the board, by varisat), or, without one, a minimal set of clauses that
    /// contradict each other, and why.
    Why,
    /// One solution, or the proof that there is none.
    Proof(ProofSolve),
    /// Every solution (or the first ones), listed as they come or counted.
    Enumerate(EnumerateSolve),
}

/// One solution, or that there is none.
#[derive(Clone, Debug)]
pub struct OneSolve {
    /// How the answer is written.
    pub written: Written,
    /// After the solution, each clause group evaluated on it.
    pub explain: bool,
    /// The solver.
    pub solver: SatSolver,
    /// The time limit of the solve (of an external solver and every process it started);
    /// none when `None`.
    pub timeout: Option<Duration>,
}

/// The SAT solver of one solve.
#[derive(Clone, Debug)]
pub enum SatSolver {
    /// A solver in this process.
    InProcess(InProcess),
    /// An external solver, given the formula as a DIMACS file; its answer is checked.
    External(ExternalSolver),
}

/// A SAT solver in this process.
#[derive(Clone, Debug)]
pub enum InProcess {
    /// An embedded solver.
    Embedded {
        /// Which one (default: CaDiCaL when `options` are given and it is built in; else
        /// [`Backend::for_formula`] for one solution, [`Backend::for_enumeration`] for many;
        /// for a proof, varisat, or CaDiCaL for an LRAT proof).
        backend: Option<Backend>,
        /// Its options, by name (checked by [`Backend::check_options`]).
        options: Vec<SolverOption>,
    },
    /// CaDiCaL with the cell variables and the rows' at-least-one clauses, the at-most-one of
    /// every line propagated ([`crate::solve::propagator`]; the pairwise cell model only,
    /// needs the `cadical` feature).
    Propagator {
        /// CaDiCaL's options, by name.
        options: Vec<SolverOption>,
    },
}

/// An external SAT solver.
#[derive(Clone, Debug)]
pub struct ExternalSolver {
    /// Its command line: a program on PATH and its arguments ([`SolverCommand::parse`](crate::solve::SolverCommand::parse)).
    pub command: String,
    /// The command line of the solve, for the comments of the DIMACS file it is given.
    pub command_line: Option<String>,
}

/// One solution, or the proof that there is none.
#[derive(Clone, Debug)]
pub struct ProofSolve {
    /// How the answer is written (the notes about the proof go on the log with JSON and SVG).
    pub written: Written,
    /// Where the proof goes and whether it is checked.
    pub kept: ProofKept,
    /// The solver that writes the proof.
    pub prover: ProofSolver,
}

/// What becomes of a proof of unsatisfiability: written to a file (that appears only once it
/// is complete, and checked if asked), or made in a temporary place to be checked only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofKept {
    /// Written to this file, not checked.
    File(PathBuf),
    /// Checked (DRAT by the library's checker and VeriPB, LRAT by the library's checker),
    /// then written to this file.
    CheckedFile(PathBuf),
    /// Made in a temporary place and checked.
    Checked,
}

impl ProofKept {
    /// The file the proof goes to, if any.
    pub fn file(&self) -> Option<&Path> {
        match self {
            ProofKept::File(p) | ProofKept::CheckedFile(p) => Some(p),
            ProofKept::Checked => None,
        }
    }

    /// Whether the proof is checked before it is reported.
    pub fn checked(&self) -> bool {
        !matches!(self, ProofKept::File(_))
    }
}

/// The solver that writes a proof of unsatisfiability.
#[derive(Clone, Debug)]
pub enum ProofSolver {
    /// A solver in this process (no time limit: a proof is made to the end).
    InProcess {
        /// The solver.
        solver: InProcess,
        /// The proof's format (LRAT: CaDiCaL only).
        format: ProofFormat,
    },
    /// The propagator engine (CaDiCaL with the queens propagator and its arguments) writing
    /// a VeriPB certificate against the instance's OPB form with the counts, sums and
    /// moments ([`crate::solve::certify_with_propagator`]).
    PropagatorCertificate {
        /// CaDiCaL's options and the propagator's own.
        options: Vec<SolverOption>,
    },
    /// An external solver that writes its own DRAT proof (CaDiCaL, Kissat).
    External {
        /// The solver.
        solver: ExternalSolver,
        /// Its time limit (it and every process it started); none when `None`.
        timeout: Option<Duration>,
    },
}

/// Every solution (or the first ones) by a solver in this process, listed as they come or
/// counted.
#[derive(Clone, Debug)]
pub struct EnumerateSolve {
    /// How the solutions, or their number, are written.
    pub format: ListFormat,
    /// Write only the number of solutions.
    pub count_only: bool,
    /// Stop after this many solutions.
    pub limit: Option<NonZeroU64>,
    /// Split into sub-problems on the first K rows (default: by n,
    /// [`crate::solve::Enumeration::split_rows`]).
    pub split_rows: Option<usize>,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// The solver.
    pub solver: InProcess,
    /// The time limit of the enumeration; none when `None`.
    pub timeout: Option<Duration>,
}

/// How a list of solutions, or their number, is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFormat {
    /// Each board as a text grid and its one-line form, then how many there are (the number
    /// alone when counted).
    Board,
    /// Each solution's one-line form (the number alone when counted).
    Line,
    /// JSON: the solutions and their number, or the number.
    Json,
}

impl ListFormat {
    /// The format of one solution that lists the same way.
    pub fn format(self) -> Format {
        match self {
            ListFormat::Board => Format::Board,
            ListFormat::Line => Format::Line,
            ListFormat::Json => Format::Json,
        }
    }
}

/// The search on the board.
#[derive(Clone, Debug)]
pub struct SearchSolve {
    /// How the answer is written (not in SAT-competition format: see [`SearchRefusal`](super::SearchRefusal)).
    pub written: Written,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// The time limit of the search; none when `None`.
    pub timeout: Option<Duration>,
    /// A certificate of unsatisfiability: the search walks on one thread and writes a VeriPB
    /// proof against the instance's OPB form ([`crate::search::certify`]), kept and checked
    /// as this says; none when `None`.
    pub proof: Option<ProofKept>,
}

/// A chain of solvers.
#[derive(Clone, Debug)]
pub struct ChainSolve {
    /// The stages, in order ([`crate::experiment::solvers::parse_chain`]).
    pub stages: Vec<crate::experiment::solvers::Stage>,
    /// How the answer is written.
    pub written: Written,
    /// Threads of the search, where it is a stage (1 when `None`).
    pub threads: Option<usize>,
    /// The wall-clock limit of the whole chain; none when `None`.
    pub timeout: Option<Duration>,
    /// A certificate of unsatisfiability from the stage that refutes (the search or Exact):
    /// a VeriPB proof against the instance's OPB form with the counts, sums and moments,
    /// which the chain then solves; none when `None`.
    pub proof: Option<ProofKept>,
}

/// How one solution, or the answer that there is none, is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// On the output, in this format.
    Out(Format),
    /// As an SVG picture, to this file (a temporary file, then renamed).
    SvgFile(PathBuf),
}

impl Written {
    /// The format.
    pub fn format(&self) -> Format {
        match self {
            Written::Out(f) => *f,
            Written::SvgFile(_) => Format::Svg,
        }
    }

    /// The file of an SVG picture, if it does not go on the output.
    pub fn svg_file(&self) -> Option<&Path> {
        match self {
            Written::Out(_) => None,
            Written::SvgFile(p) => Some(p),
        }
    }
}
