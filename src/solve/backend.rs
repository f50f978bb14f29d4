//! The embedded SAT solvers behind one small interface: varisat (pure Rust, always built) and
//! CaDiCaL (in-process, behind the `cadical` feature).
//!
//! [`Backend`] names the solver; the solving, enumeration and counting code drives either
//! through the public [`Solver`] trait (add a clause, solve under assumptions within a
//! [`Budget`], read the model), so that there is one enumeration, whatever the solver. A
//! library user's own solver implements the same trait and goes wherever a built-in one does
//! (see the documentation of [`crate::solve`]).
//!
//! A [`Budget`] bounds a solve: a deadline and the process's interrupt flag
//! ([`super::interrupted`], set on Ctrl-C by the program). CaDiCaL checks it from its terminate
//! callback during the search, so a hard instance stops within moments of the limit. varisat
//! has no such callback; under a time limit it writes a proof (in varisat's own format, which
//! allows incremental solving) into a sink that discards it and fails once the budget is
//! spent, which ends the search with an error (the solver is then not used again): it stops
//! at its next proof write, as promptly in practice. Without a time limit, an interruption
//! stops varisat only between two solver calls.

use super::SolveError;
use crate::cnf::Lit;
use crate::instance::Formula;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which embedded SAT solver to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// varisat 0.2: pure Rust, writes DRAT proofs; slower on hard instances.
    Varisat,
    /// CaDiCaL 1.9.5 in-process (needs the `cadical` feature): a state-of-the-art CDCL solver.
    Cadical,
}

impl Backend {
    /// Every backend's name, in the order of the enum.
    pub const NAMES: [&'static str; 2] = ["varisat", "cadical"];

    /// The backend's name, as `--backend` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Varisat => "varisat",
            Backend::Cadical => "cadical",
        }
    }

    /// `true` when this build includes the backend (CaDiCaL needs the `cadical` feature).
    pub fn is_available(self) -> bool {
        match self {
            Backend::Varisat => true,
            Backend::Cadical => cfg!(feature = "cadical"),
        }
    }

    /// The backends this build includes.
    pub fn available() -> Vec<Backend> {
        [Backend::Varisat, Backend::Cadical]
            .into_iter()
            .filter(|b| b.is_available())
            .collect()
    }
}

impl Default for Backend {
    /// CaDiCaL when the `cadical` feature is on (the default build), else varisat.
    fn default() -> Self {
        if cfg!(feature = "cadical") {
            Backend::Cadical
        } else {
            Backend::Varisat
        }
    }
}

impl Backend {
    /// The default for enumerating and counting: varisat. An enumeration solves thousands of
    /// small sub-problems (a few hundred clauses each once the first rows are fixed), where
    /// varisat's start-up is cheaper than CaDiCaL's: counting all solutions of n = 12 and 14
    /// takes CaDiCaL 1.22 and 1.10 times varisat's CPU time (docs/benchmarks.md).
    /// [`Backend::default`] (CaDiCaL in the default build) is for single, possibly hard, solves.
    pub fn for_enumeration() -> Backend {
        Backend::Varisat
    }

    /// The default for one solve of `f`: varisat for the empty square board, [`Backend::default`]
    /// (CaDiCaL in the default build) for everything else. The empty board is easy for every
    /// solver and its formula is large (13.3 million clauses at n = 200), where CaDiCaL's
    /// clause storage costs it 8 times varisat's time and 10 times its memory (4.0 s and 1.9 GB
    /// against 0.46 s and 180 MB at n = 200, docs/benchmarks.md); instances with placed or
    /// forbidden cells, and toroidal boards, are where solving is hard and CaDiCaL far ahead.
    pub fn for_formula(f: &dyn crate::instance::Formula) -> Backend {
        let (place, forbid) = f.fixed();
        if place.is_empty() && forbid.is_empty() && f.geometry() == crate::board::Geometry::Square {
            Backend::Varisat
        } else {
            Backend::default()
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A backend name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend '{0}' (expected varisat or cadical)")]
pub struct ParseBackendError(pub String);

impl FromStr for Backend {
    type Err = ParseBackendError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "varisat" => Ok(Backend::Varisat),
            "cadical" => Ok(Backend::Cadical),
            _ => Err(ParseBackendError(s.to_string())),
        }
    }
}

/// Why a solve stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stop {
    /// The time limit passed.
    #[error("the time limit of {:.3} s passed", .0.as_secs_f64())]
    Timeout(Duration),
    /// The process was interrupted (Ctrl-C or a termination signal).
    #[error("interrupted")]
    Interrupted,
}

/// How long a solve may run: an optional deadline, and the process's interrupt flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    limit: Option<Duration>,
    deadline: Option<Instant>,
}

impl Budget {
    /// No time limit (an interruption still stops the solve).
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// A limit of `limit` from now.
    pub fn time_limit(limit: Duration) -> Self {
        Budget {
            limit: Some(limit),
            deadline: Instant::now().checked_add(limit),
        }
    }

    /// A limit from now when `limit` is given, else none.
    pub fn from_limit(limit: Option<Duration>) -> Self {
        limit.map_or_else(Budget::unlimited, Budget::time_limit)
    }

    /// The reason to stop now, if any.
    pub fn exhausted(&self) -> Option<Stop> {
        if super::interrupted() {
            return Some(Stop::Interrupted);
        }
        match (self.limit, self.deadline) {
            (Some(l), Some(d)) if Instant::now() >= d => Some(Stop::Timeout(l)),
            _ => None,
        }
    }

    /// `Err(SolveError::Stopped)` once the budget is spent: what a [`Solver`] returns when
    /// asked to solve with nothing left.
    pub fn check(&self) -> Result<(), SolveError> {
        match self.exhausted() {
            Some(s) => Err(SolveError::Stopped(s)),
            None => Ok(()),
        }
    }
}

/// A SAT solver as the solving, enumeration and counting code drives it: clauses in, a
/// satisfiability answer under assumptions, a model out. The built-in backends ([`Backend`])
/// implement it; so can a library user's own solver, which then goes where a built-in one does:
/// [`super::solve_model_with_solver`] for one solution and [`super::Enumeration::solver`] for
/// all of them (see the documentation of [`crate::solve`] for an example).
///
/// Literals are varisat's [`Lit`] (0-based variable indices; [`Lit::to_dimacs`] gives the
/// DIMACS form). Clauses come before the first solve; more clauses (blocking clauses, when
/// enumerating) may come between solves, so the solver is incremental.
pub trait Solver {
    /// Adds a clause (a disjunction of the literals; empty: the formula is unsatisfiable).
    fn add_clause(&mut self, clause: &[Lit]);
    /// Solves the clauses so far with the `assumptions` true for this call only: `Ok(true)`
    /// SAT, `Ok(false)` UNSAT, `Err(SolveError::Stopped)` when the budget runs out first
    /// ([`Budget::check`] says so at once; a long search should look at
    /// [`Budget::exhausted`] now and then), `Err(SolveError::Solver)` when it fails.
    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Result<bool, SolveError>;
    /// The model of the last satisfiable call: one literal for each of the first `vars`
    /// variables at least (a variable the solver never saw may be given either value).
    fn model(&mut self, vars: usize) -> Result<Vec<Lit>, SolveError>;
    /// Adds a blocking clause: the same as [`Solver::add_clause`] unless the solver treats
    /// them apart (the enumeration adds one after each model).
    fn block(&mut self, clause: &[Lit]) {
        self.add_clause(clause);
    }
}

/// An encoder streams its clauses into a solver.
impl crate::cnf::ClauseSink for dyn Solver + '_ {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        Solver::add_clause(self, clause);
        Ok(())
    }
}

/// Makes a solver for each solve or each part of an enumeration: a user's own.
pub(crate) type MakeSolver = Arc<dyn Fn() -> Box<dyn Solver> + Send + Sync>;

/// Where the solvers of an enumeration come from: a built-in backend or a user's function.
#[derive(Clone)]
pub(crate) enum SolverSource {
    /// A built-in backend.
    Builtin(Backend),
    /// A user's solvers.
    Custom(MakeSolver),
}

impl SolverSource {
    /// A new solver without clauses, stoppable within the budget.
    pub(crate) fn make(&self, budget: &Budget) -> Result<Box<dyn Solver>, SolveError> {
        match self {
            SolverSource::Builtin(b) => b.solver(budget),
            SolverSource::Custom(make) => Ok(make()),
        }
    }

    /// A new solver loaded with the formula's clauses.
    pub(crate) fn loaded(
        &self,
        f: &dyn Formula,
        budget: &Budget,
    ) -> Result<Box<dyn Solver>, SolveError> {
        let mut s = self.make(budget)?;
        // Adding clauses to a solver cannot fail.
        let _ = crate::instance::encode(f, s.as_mut());
        Ok(s)
    }
}

/// Solves any CNF (not only a queens formula) with the backend: the model, one literal for
/// each of the first `vars` variables at least, or `None` when the clauses are unsatisfiable.
///
/// ```
/// use queens_sat::cnf::{neg, pos};
/// use queens_sat::solve::{solve_clauses, Backend, Budget};
/// // DIMACS variables 1 and 2: (1 or 2) and not 1.
/// let clauses = [vec![pos(1), pos(2)], vec![neg(1)]];
/// let model = solve_clauses(clauses.iter().map(|c| &c[..]), 2, Backend::default(), Budget::unlimited())
///     .unwrap()
///     .unwrap();
/// assert!(model.contains(&pos(2)));
/// ```
pub fn solve_clauses<'a>(
    clauses: impl IntoIterator<Item = &'a [Lit]>,
    vars: usize,
    backend: Backend,
    budget: Budget,
) -> Result<Option<Vec<Lit>>, SolveError> {
    let mut e = backend.solver(&budget)?;
    for c in clauses {
        e.add_clause(c);
    }
    if !e.solve(&[], &budget)? {
        return Ok(None);
    }
    e.model(vars).map(Some)
}

/// An embedded solver for any clauses (not only a queens formula), kept across calls: add
/// clauses, solve under assumptions, read the model, add more clauses (blocking clauses, say)
/// and solve again. An interruption of the process stops a solve
/// ([`SolveError::Stopped`]).
///
/// ```
/// use queens_sat::cnf::{neg, pos};
/// use queens_sat::solve::{Backend, ClauseSolver};
/// let mut s = ClauseSolver::new(Backend::Varisat).unwrap();
/// s.add_clause(&[pos(1), pos(2)]);
/// assert!(!s.solve(&[neg(1), neg(2)]).unwrap());
/// assert!(s.solve(&[neg(1)]).unwrap());
/// assert!(s.model(2).unwrap().contains(&pos(2)));
/// ```
pub struct ClauseSolver {
    engine: Box<dyn Solver>,
    budget: Budget,
}

impl ClauseSolver {
    /// An empty solver of the backend (refused when this build lacks it).
    pub fn new(backend: Backend) -> Result<Self, SolveError> {
        let budget = Budget::unlimited();
        Ok(ClauseSolver {
            engine: backend.solver(&budget)?,
            budget,
        })
    }

    /// A solver of the user's own (see [`Solver`]), without a time limit.
    pub fn with_solver(solver: Box<dyn Solver>) -> Self {
        ClauseSolver {
            engine: solver,
            budget: Budget::unlimited(),
        }
    }

    /// Adds a clause.
    pub fn add_clause(&mut self, clause: &[Lit]) {
        self.engine.add_clause(clause);
    }

    /// Solves under the assumptions: `true` when the clauses and the assumptions are
    /// satisfiable together.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Result<bool, SolveError> {
        self.engine.solve(assumptions, &self.budget)
    }

    /// The model of the last satisfiable solve: one literal for each of the first `vars`
    /// variables at least (a variable the solver never saw may be missing).
    pub fn model(&mut self, vars: usize) -> Result<Vec<Lit>, SolveError> {
        self.engine.model(vars)
    }
}

impl Backend {
    /// A solver of the backend without clauses (refused when this build lacks the backend).
    /// Under a time limit, `budget` must be the one its solves are given: varisat is stopped
    /// through the proof it writes, which is set up here (see the module documentation).
    pub fn solver(self, budget: &Budget) -> Result<Box<dyn Solver>, SolveError> {
        Ok(match self {
            Backend::Varisat => {
                let mut solver = varisat::Solver::new();
                if budget.limit.is_some() {
                    solver.write_proof(BudgetSink(*budget), varisat::ProofFormat::Varisat);
                }
                Box::new(VarisatSolver(solver))
            }
            #[cfg(feature = "cadical")]
            Backend::Cadical => Box::new(CadicalSolver::new()),
            #[cfg(not(feature = "cadical"))]
            Backend::Cadical => return Err(SolveError::Unavailable(self)),
        })
    }
}

/// Where varisat's proof goes under a time limit: nowhere, until the budget is spent; then
/// each write fails, which stops the search.
struct BudgetSink(Budget);

impl std::io::Write for BudgetSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.exhausted() {
            Some(stop) => Err(std::io::Error::other(stop)),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// varisat behind [`Solver`].
struct VarisatSolver(varisat::Solver<'static>);

impl Solver for VarisatSolver {
    fn add_clause(&mut self, clause: &[Lit]) {
        varisat::ExtendFormula::add_clause(&mut self.0, clause);
    }

    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Result<bool, SolveError> {
        budget.check()?;
        if !assumptions.is_empty() {
            // The proof output of the time limit's sink must not record assumptions.
            if budget.limit.is_some() {
                return Err(SolveError::Solver(
                    "varisat cannot solve under assumptions with a time limit".into(),
                ));
            }
            self.0.assume(assumptions);
        }
        self.0.solve().map_err(|e| match budget.exhausted() {
            Some(stop) => SolveError::Stopped(stop),
            None => SolveError::Solver(e.to_string()),
        })
    }

    fn model(&mut self, _vars: usize) -> Result<Vec<Lit>, SolveError> {
        self.0
            .model()
            .ok_or_else(|| SolveError::Solver("no model after SAT".into()))
    }
}

/// CaDiCaL's terminate callback: the budget, checked periodically during the search.
#[cfg(feature = "cadical")]
struct BudgetCallbacks(Budget);

#[cfg(feature = "cadical")]
impl cadical::Callbacks for BudgetCallbacks {
    fn terminate(&mut self) -> bool {
        self.0.exhausted().is_some()
    }
}

/// CaDiCaL behind [`Solver`]; literals in DIMACS form.
#[cfg(feature = "cadical")]
struct CadicalSolver {
    solver: cadical::Solver<BudgetCallbacks>,
    /// The largest variable (1-based) in any clause added.
    max_var: usize,
}

#[cfg(feature = "cadical")]
impl CadicalSolver {
    fn new() -> Self {
        CadicalSolver {
            solver: cadical::Solver::new(),
            max_var: 0,
        }
    }
}

/// A literal as a DIMACS integer.
#[cfg(feature = "cadical")]
fn dimacs(l: Lit) -> i32 {
    l.to_dimacs() as i32
}

#[cfg(feature = "cadical")]
impl Solver for CadicalSolver {
    fn add_clause(&mut self, clause: &[Lit]) {
        for l in clause {
            self.max_var = self.max_var.max(l.index() + 1);
        }
        self.solver.add_clause(clause.iter().map(|&l| dimacs(l)));
    }

    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Result<bool, SolveError> {
        budget.check()?;
        self.solver.set_callbacks(Some(BudgetCallbacks(*budget)));
        let r = self
            .solver
            .solve_with(assumptions.iter().map(|&l| dimacs(l)));
        self.solver.set_callbacks(None);
        match r {
            Some(sat) => Ok(sat),
            None => Err(SolveError::Stopped(
                budget.exhausted().unwrap_or(Stop::Interrupted),
            )),
        }
    }

    fn model(&mut self, vars: usize) -> Result<Vec<Lit>, SolveError> {
        if self.solver.status() != Some(true) {
            return Err(SolveError::Solver("no model after SAT".into()));
        }
        let n = vars.max(self.max_var);
        Ok((0..n)
            .map(|i| {
                let v = crate::cnf::Var::from_index(i);
                // An unassigned variable is free: false is as good as true.
                let value = self.solver.value(i as i32 + 1).unwrap_or(false);
                v.lit(value)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in [Backend::Varisat, Backend::Cadical] {
            assert_eq!(b.to_string().parse::<Backend>(), Ok(b));
        }
        assert!("minisat".parse::<Backend>().is_err());
        assert!(Backend::default().is_available());
    }

    #[test]
    fn a_spent_budget_stops_every_backend() {
        let inst = crate::instance::Instance::new(6, crate::instance::Model::default()).unwrap();
        let spent = Budget::time_limit(Duration::ZERO);
        for b in Backend::available() {
            let mut e = SolverSource::Builtin(b)
                .loaded(&inst, &Budget::unlimited())
                .unwrap();
            assert!(matches!(
                e.solve(&[], &spent),
                Err(SolveError::Stopped(Stop::Timeout(_)))
            ));
            assert!(e.solve(&[], &Budget::unlimited()).unwrap(), "{b}");
        }
    }
}
