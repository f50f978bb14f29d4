//! Solving: the encoder's clauses handed to a SAT solver (embedded: CaDiCaL or varisat, see
//! [`Backend`]; or a solver of the library user's own, see [`Solver`]), models turned back into
//! boards, all solutions enumerated and counted, and external solvers run and their answers
//! checked.
//!
//! * [`solve`] finds one solution (or proves there is none); [`solve_model`] also returns the
//!   full model, auxiliary variables included. Both use [`Backend::for_formula`]: varisat for
//!   the empty board, else [`Backend::default`] (CaDiCaL when the `cadical` feature is on, as
//!   it is by default; else varisat); [`solve_with`],
//!   [`solve_model_with`] and [`solve_model_within`] take the backend, and the last a time
//!   limit ([`Budget`]): a solve that runs out of it ends in [`SolveError::Stopped`].
//! * [`solutions`] iterates over every solution; [`count_solutions`] counts them in parallel;
//!   [`Enumeration`] gives control over the split into sub-problems, threads, a limit, the
//!   backend ([`Enumeration::backend`]) and a time limit ([`Enumeration::time_limit`]).
//! * [`runner`] runs an external solver program on the CNF, checked: the formula written to a
//!   DIMACS file, the program run with a time limit in its own process group, its answer read
//!   ([`parse_solver_answer`]: SAT-competition `s`/`v` lines or a MiniSat result file), a model
//!   checked against the board and every clause, an UNSAT claim checked or refuted
//!   ([`refute_unsat`]), a DRAT proof asked for and checked ([`runner::run`]).
//! * a [`Prover`] (varisat, CaDiCaL or Kissat, DRAT or LRAT, with or without the queens
//!   propagator) writes a proof of unsatisfiability; [`check_proof`] checks one, from the
//!   embedded solver or an external one, with the library's checker and VeriPB
//!   ([`crate::proof`]).
//! * [`verify_assignment`] and [`verify_placement`] check an answer twice, independently: as a
//!   board ([`crate::board::check_placement`]) and clause by clause against the CNF.
//!
//! Everything takes a [`crate::instance::Formula`], in practice an
//! [`crate::instance::Instance`]: its pre-placed queens and forbidden cells are unit clauses
//! after the model's clauses, so the solver answers "which completions of this partial board
//! exist?".
//!
//! Only the projection variables are read back or blocked: auxiliary variables of an encoding
//! never make two models of the same board count twice.
//!
//! ```
//! use queens_sat::instance::{Instance, Model};
//! use queens_sat::solve::{count_solutions, solve};
//!
//! let board = |n| Instance::new(n, Model::default()).unwrap();
//! let p = solve(&board(8)).unwrap().expect("n = 8 has solutions");
//! assert!(queens_sat::board::is_solution(&p));
//! assert!(solve(&board(3)).unwrap().is_none());
//! assert_eq!(count_solutions(&board(6)).unwrap(), 4);
//! ```
//!
//! # A solver of your own
//!
//! The built-in backends implement the [`Solver`] trait: add clauses, solve under assumptions
//! within a [`Budget`], read the model (and take blocking clauses between solves). Another
//! solver (a binding to a different library, an experimental one) implements the same trait
//! and goes through the same code: [`solve_model_with_solver`] finds one solution with it, and
//! [`Enumeration::solver`] gives each part of an enumeration one of its solvers, so that
//! listing and counting solutions, with every model checked as a board, work unchanged.
//! [`Backend`] stays the list of built-in solvers (the command line's `--backend`).
//!
//! Here a brute-force solver, which tries every assignment (fine for a handful of variables),
//! finds and counts the solutions of the 4 x 4 board (16 variables, one per cell):
//!
//! ```
//! use queens_sat::cnf::{Lit, Var};
//! use queens_sat::instance::{Instance, Model};
//! use queens_sat::solve::{solve_model_with_solver, Budget, Enumeration, SolveError, Solver};
//!
//! #[derive(Default)]
//! struct BruteForce {
//!     clauses: Vec<Vec<Lit>>,
//!     vars: usize,
//!     model: Vec<Lit>,
//! }
//!
//! impl Solver for BruteForce {
//!     fn add_clause(&mut self, clause: &[Lit]) {
//!         for l in clause {
//!             self.vars = self.vars.max(l.index() + 1);
//!         }
//!         self.clauses.push(clause.to_vec());
//!     }
//!
//!     fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Result<bool, SolveError> {
//!         budget.check()?;
//!         assert!(self.vars <= 24, "brute force is for tiny formulas");
//!         for bits in 0u32..1 << self.vars {
//!             let holds = |l: &Lit| ((bits >> l.index()) & 1 == 1) == l.is_positive();
//!             if assumptions.iter().all(holds)
//!                 && self.clauses.iter().all(|c| c.iter().any(holds))
//!             {
//!                 self.model = (0..self.vars)
//!                     .map(|i| Var::from_index(i).lit((bits >> i) & 1 == 1))
//!                     .collect();
//!                 return Ok(true);
//!             }
//!         }
//!         Ok(false)
//!     }
//!
//!     fn model(&mut self, vars: usize) -> Result<Vec<Lit>, SolveError> {
//!         let mut m = self.model.clone();
//!         // Variables in no clause are free: false will do.
//!         m.extend((m.len()..vars).map(|i| Var::from_index(i).negative()));
//!         Ok(m)
//!     }
//! }
//!
//! let board = Instance::new(4, Model::default()).unwrap();
//! let mut solver = BruteForce::default();
//! let found = solve_model_with_solver(&board, &mut solver, &Budget::unlimited())
//!     .unwrap()
//!     .expect("n = 4 has solutions");
//! assert!(queens_sat::board::is_solution(&found.placement));
//! let count = Enumeration::new(board).solver(BruteForce::default).count(|_| {}).unwrap();
//! assert_eq!(count, 2);
//! ```

mod backend;
#[cfg(feature = "cadical")]
pub(crate) mod cadical;
#[cfg(feature = "cadical")]
mod certificate;
mod enumerate;
#[cfg(feature = "kissat")]
pub(crate) mod kissat;
pub mod measure;
pub mod options;
mod parse;
pub mod process;
mod proof;
#[cfg(feature = "cadical")]
pub mod propagator;
pub(crate) mod reduce;
pub mod runner;
mod verify;

pub use backend::{
    solve_clauses, Backend, Budget, ClauseSolver, ParseBackendError, Solver, Stop,
    KISSAT_COPY_LIMIT, VARISAT_VERSION,
};
#[cfg(feature = "cadical")]
pub use certificate::{certify_with_propagator, Certificate, CertificateStats};
pub use enumerate::{
    count_solutions, default_split_rows, max_split_rows, solutions, Enumeration, Progress,
    Solutions, MAX_PARTS, PROPAGATE_MAX_N,
};
pub use options::{OptionError, SolverOption};
pub use parse::{
    parse_pb_answer, parse_solver_answer, AnswerFormat, Assignment, ParseAnswerError, SolverAnswer,
};
pub use process::{clear_interrupted, interrupted, kill_running};
pub use proof::{check_proof, ProofEngine, ProofError, ProofFormat, ProofOutcome, Proved, Prover};
pub use runner::{
    output_bound, refute_unsat, solver_version, writes_proofs, SolverCommand, PROOF_SOLVERS,
    VERSION_TIMEOUT,
};
pub use verify::{
    clause_violation, describe_lit, verify_assignment, verify_placement, ClauseViolation,
    CnfProblem, ModelMismatch, VerifyReport,
};

use crate::board::Placement;
use crate::cnf::Lit;
use crate::instance::{check_board, BoardProblem, Formula, InstanceError};

/// Why a problem could not be set up or solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The instance could not be made (size, cells).
    #[error(transparent)]
    Instance(#[from] InstanceError),
    /// The embedded solver failed (it is not interrupted and writes no proof, so this is not
    /// expected).
    #[error("the embedded solver failed: {0}")]
    Solver(String),
    /// The embedded solver returned a model that is not a solution: a bug in an encoding.
    #[error("the solver's model is not a solution: {problem} ({model})")]
    BadModel {
        /// What is wrong.
        problem: BoardProblem,
        /// The model's queens, in words.
        model: String,
    },
    /// Threads for the enumeration could not be started.
    #[error("cannot start threads: {0}")]
    Threads(String),
    /// The solve stopped without an answer: its time limit passed or the process was
    /// interrupted.
    #[error("the embedded solver stopped without an answer: {0}")]
    Stopped(Stop),
    /// The backend is not part of this build (CaDiCaL and Kissat need their features).
    #[error("the {0} backend is not part of this build (it needs the `{0}` feature)")]
    Unavailable(Backend),
    /// A solver option is unknown or out of range.
    #[error("solver option: {0}")]
    Option(#[from] OptionError),
}

impl From<crate::encode::EncodeError> for SolveError {
    fn from(e: crate::encode::EncodeError) -> Self {
        SolveError::Instance(e.into())
    }
}

/// A solution with the solver's full model (auxiliary variables included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The board.
    pub placement: Placement,
    /// The value of every variable of the formula.
    pub assignment: Assignment,
}

/// Finds one solution of the instance, or `None` when there is none (n = 2 or 3, or a partial
/// board with no completion).
pub fn solve(f: &dyn Formula) -> Result<Option<Placement>, SolveError> {
    Ok(solve_model(f)?.map(|m| m.placement))
}

/// Like [`solve`], but also returns the full model.
pub fn solve_model(f: &dyn Formula) -> Result<Option<Solution>, SolveError> {
    solve_model_with(f, Backend::for_formula(f))
}

/// Like [`solve`], with the given backend.
pub fn solve_with(f: &dyn Formula, backend: Backend) -> Result<Option<Placement>, SolveError> {
    Ok(solve_model_with(f, backend)?.map(|m| m.placement))
}

/// Like [`solve_model`], with the given backend.
pub fn solve_model_with(f: &dyn Formula, backend: Backend) -> Result<Option<Solution>, SolveError> {
    solve_model_within(f, backend, Budget::unlimited())
}

/// Like [`solve_model_with`], stopping with [`SolveError::Stopped`] once the budget is spent
/// (a time limit, or an interruption: see [`Budget`]). CaDiCaL stops during the search;
/// varisat, under a time limit, at its next proof write (see [`Budget`]).
///
/// ```
/// use queens_sat::instance::{Instance, Model};
/// use queens_sat::solve::{solve_model_within, Backend, Budget, SolveError, Stop};
/// use std::time::Duration;
///
/// let inst = Instance::new(8, Model::default()).unwrap();
/// let spent = Budget::time_limit(Duration::ZERO);
/// let r = solve_model_within(&inst, Backend::default(), spent);
/// assert!(matches!(r, Err(SolveError::Stopped(Stop::Timeout(_)))));
/// ```
pub fn solve_model_within(
    f: &dyn Formula,
    backend: Backend,
    budget: Budget,
) -> Result<Option<Solution>, SolveError> {
    let mut solver = backend.solver(&budget)?;
    solve_model_with_solver(f, solver.as_mut(), &budget)
}

/// Like [`solve_model_within`], with solver options by name (see [`Backend::solver_with`]).
pub fn solve_model_with_options(
    f: &dyn Formula,
    backend: Backend,
    options: &[SolverOption],
    budget: Budget,
) -> Result<Option<Solution>, SolveError> {
    let mut solver = backend.solver_with(&budget, options)?;
    solve_model_with_solver(f, solver.as_mut(), &budget)
}

/// Like [`solve_model_within`], with a solver of the user's own (see [`Solver`] and the
/// example in the module documentation): `solver` gets the formula's clauses, then one solve
/// call. The model is checked as the built-in solvers' are: a model that is not a solution of
/// the instance is [`SolveError::BadModel`].
pub fn solve_model_with_solver(
    f: &dyn Formula,
    solver: &mut dyn Solver,
    budget: &Budget,
) -> Result<Option<Solution>, SolveError> {
    // Adding clauses to a solver cannot fail.
    let _ = crate::instance::encode(f, &mut *solver);
    if !solver.solve(&[], budget)? {
        return Ok(None);
    }
    let lits = solver.model(f.num_vars() as usize)?;
    let placement = decode_model(f, &lits)?;
    let assignment = Assignment::from_lits(&lits);
    Ok(Some(Solution {
        placement,
        assignment,
    }))
}

/// The values of a model's variables by 0-based index, `len` at least `vars`.
pub(crate) fn values_of(lits: &[Lit], vars: usize) -> Vec<bool> {
    let mut v = vec![false; vars.max(lits.len())];
    for l in lits {
        if let Some(x) = v.get_mut(l.index()) {
            *x = l.is_positive();
        }
    }
    v
}

/// The board of a solver's model, checked: a solution of the instance. A model that is not
/// one is [`SolveError::BadModel`], naming what is wrong and the model's queens.
pub(crate) fn decode_model(f: &dyn Formula, lits: &[Lit]) -> Result<Placement, SolveError> {
    let values = values_of(lits, f.num_vars() as usize);
    let bad = |problem: BoardProblem| SolveError::BadModel {
        problem,
        model: describe_model(f, &values),
    };
    let p = f.decode(&values).map_err(|e| bad(e.into()))?;
    check_board(f, &p).map_err(bad)?;
    Ok(p)
}

/// The true projection variables of a model, by name: `q(1,2) q(2,4) ...`, or "no queen".
pub fn describe_model(f: &dyn Formula, values: &[bool]) -> String {
    let names: Vec<String> = f
        .projection()
        .into_iter()
        .filter(|v| values.get(v.index()).copied().unwrap_or(false))
        .map(|v| f.var_name(v))
        .collect();
    if names.is_empty() {
        "no variable of the board is true".to_string()
    } else {
        names.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{Instance, Model as M};

    #[test]
    fn solves_small_boards() {
        for n in 1..=12 {
            let inst = Instance::new(n, M::default()).unwrap();
            let r = solve(&inst).unwrap();
            assert_eq!(r.is_some(), n != 2 && n != 3, "n = {n}");
        }
    }
}
