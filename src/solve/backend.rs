//! The embedded SAT solvers behind one small interface: varisat (pure Rust, always built),
//! CaDiCaL 3 (in-process, behind the `cadical` feature) and Kissat 4 (behind the `kissat`
//! feature).
//!
//! [`Backend`] names the solver; the solving, enumeration and counting code drives any of them
//! through the public [`Solver`] trait (add a clause, solve under assumptions within a
//! [`Budget`], read the model), so that there is one enumeration, whatever the solver. A
//! library user's own solver implements the same trait and goes wherever a built-in one does
//! (see the documentation of [`crate::solve`]). Options go to CaDiCaL and Kissat by name
//! ([`Backend::solver_with`], checked by [`Backend::check_options`]); varisat takes none.
//!
//! A [`Budget`] bounds a solve: a deadline and the process's interrupt flag
//! ([`super::interrupted`], set on Ctrl-C by the program). CaDiCaL and Kissat check it from
//! their terminate callbacks during the search, so a hard instance stops within moments of
//! the limit. varisat has no such callback; under a time limit it writes a proof (in varisat's
//! own format, which allows incremental solving) into a sink that discards it and fails once
//! the budget is spent, which ends the search with an error (the solver is then not used
//! again): it stops at its next proof write, as promptly in practice. Without a time limit, an
//! interruption stops varisat only between two solver calls.
//!
//! Kissat is not incremental: one solve per solver, no assumptions. Behind [`Solver`] it
//! keeps a copy of the clauses while they are few ([`KISSAT_COPY_LIMIT`] literals) and
//! answers a second solve, or one under assumptions, by solving the copy afresh in a new
//! Kissat, the assumptions as unit clauses (cheap for the small sub-problems of an
//! enumeration); past the limit such a solve is refused with [`SolveError::Solver`] naming
//! the reason.

use super::options::{OptionError, SolverOption};
use super::SolveError;
use crate::cnf::Lit;
use crate::instance::Formula;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most literals (clauses included) that the Kissat backend copies to solve again (16 MiB
/// of copy): see the module documentation.
pub const KISSAT_COPY_LIMIT: usize = 1 << 22;

/// The version of varisat linked in (it reports none itself; a test compares it with
/// Cargo.lock).
pub const VARISAT_VERSION: &str = "0.2.2";

/// Which embedded SAT solver to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// varisat 0.2: pure Rust, writes DRAT proofs; slower on hard instances.
    Varisat,
    /// CaDiCaL 3 in-process (needs the `cadical` feature): a state-of-the-art CDCL solver,
    /// incremental, writes LRAT and DRAT proofs.
    Cadical,
    /// Kissat 4 in-process (needs the `kissat` feature): a state-of-the-art CDCL solver, not
    /// incremental (see the module documentation), writes DRAT proofs.
    Kissat,
}

impl Backend {
    /// Every backend's name, in the order of the enum.
    pub const NAMES: [&'static str; 3] = ["varisat", "cadical", "kissat"];

    /// The backend's name, as `--backend` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Varisat => "varisat",
            Backend::Cadical => "cadical",
            Backend::Kissat => "kissat",
        }
    }

    /// `true` when this build includes the backend (CaDiCaL and Kissat need their features).
    pub fn is_available(self) -> bool {
        match self {
            Backend::Varisat => true,
            Backend::Cadical => cfg!(feature = "cadical"),
            Backend::Kissat => cfg!(feature = "kissat"),
        }
    }

    /// The backends this build includes.
    pub fn available() -> Vec<Backend> {
        [Backend::Varisat, Backend::Cadical, Backend::Kissat]
            .into_iter()
            .filter(|b| b.is_available())
            .collect()
    }

    /// The solver's version, as the linked library reports it (`3.0.1` for CaDiCaL, `4.0.4`
    /// for Kissat; varisat reports none: [`VARISAT_VERSION`]), or `None` when this build lacks
    /// the backend.
    pub fn version(self) -> Option<String> {
        match self {
            Backend::Varisat => Some(VARISAT_VERSION.to_string()),
            #[cfg(feature = "cadical")]
            Backend::Cadical => Some(super::cadical::version()),
            #[cfg(feature = "kissat")]
            Backend::Kissat => Some(super::kissat::version()),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The options the toolkit gives the backend's solver before the user's own, which
    /// override them (`--solver-option stabilizeonly=0` gives CaDiCaL its own defaults back):
    /// CaDiCaL in stable mode only (`stabilizeonly=1`, the heart of CaDiCaL's own `--sat`
    /// configuration), Kissat in its configuration for satisfiable instances (`target=2`,
    /// `restartint=50`, what Kissat's `--sat` sets); varisat takes none. On the hard set of
    /// blocked n = 60 boards they take CaDiCaL 3 from 8 to 15 solved of 20 and Kissat 4 from
    /// 10 to 16; on the unsatisfiable and mixed workloads measured beside (the Excluded
    /// Diagonals band of n = 21, blocked boards past the transition, toroidal boards,
    /// counting) they cost a little (docs/benchmarks.md, "The embedded solvers' default
    /// options"). The propagator engine keeps CaDiCaL's own defaults, with which it was
    /// measured.
    pub fn default_options(self) -> &'static [(&'static str, i64)] {
        match self {
            Backend::Varisat => &[],
            Backend::Cadical => &[("stabilizeonly", 1)],
            Backend::Kissat => &[("target", 2), ("restartint", 50)],
        }
    }

    /// [`Backend::default_options`] in the form `name=value` joined by spaces (empty for
    /// none): what the rows of `compare` record beside the solver's version.
    pub fn default_options_field(self) -> String {
        let options: Vec<SolverOption> = self
            .default_options()
            .iter()
            .map(|&(name, value)| SolverOption {
                name: name.into(),
                value,
            })
            .collect();
        super::options::options_field(&options)
    }

    /// `true` when a solver of the backend solves again after a first solve, and under
    /// assumptions, without starting afresh (Kissat does not: see the module documentation).
    pub fn is_incremental(self) -> bool {
        self != Backend::Kissat
    }

    /// Checks options against the solver's own: an unknown name or a value out of range is an
    /// error, as is any option for varisat (which takes none) or a backend this build lacks.
    pub fn check_options(self, options: &[SolverOption]) -> Result<(), SolveError> {
        if !self.is_available() {
            return Err(SolveError::Unavailable(self));
        }
        if options.is_empty() {
            return Ok(());
        }
        match self {
            Backend::Varisat => Err(OptionError::NoOptions("varisat").into()),
            #[cfg(feature = "cadical")]
            Backend::Cadical => {
                let mut s = super::cadical::Cadical::new();
                for o in options {
                    s.set_option(&o.name, o.value)?;
                }
                Ok(())
            }
            #[cfg(feature = "kissat")]
            Backend::Kissat => {
                for o in options {
                    super::kissat::Kissat::check_option(&o.name, o.value)?;
                }
                Ok(())
            }
            #[allow(unreachable_patterns)]
            _ => Err(SolveError::Unavailable(self)),
        }
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
    /// took CaDiCaL 1.9.5 1.22 and 1.10 times varisat's CPU time (docs/benchmarks.md); Kissat,
    /// not incremental, solves each step afresh.
    /// [`Backend::default`] (CaDiCaL in the default build) is for single, possibly hard, solves.
    pub fn for_enumeration() -> Backend {
        Backend::Varisat
    }

    /// The default for one solve of `f`: varisat for the empty square board, [`Backend::default`]
    /// (CaDiCaL in the default build) for everything else. The empty board is easy for every
    /// solver and its formula is large (13.3 million clauses at n = 200), where CaDiCaL's
    /// clause storage costs it 22 times varisat's CPU time and 13 times its memory (12.1 s and
    /// 2.4 GB against 0.55 s and 180 MB at n = 200; 6.3 and 7.4 times with its inprocessing
    /// and clause reduction off: docs/benchmarks.md, "The empty board"); instances with placed
    /// or forbidden cells, and toroidal boards, are where solving is hard and CaDiCaL far
    /// ahead.
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
#[error("unknown backend '{0}' (expected varisat, cadical or kissat)")]
pub struct ParseBackendError(pub String);

impl FromStr for Backend {
    type Err = ParseBackendError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "varisat" => Ok(Backend::Varisat),
            "cadical" => Ok(Backend::Cadical),
            "kissat" => Ok(Backend::Kissat),
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

    /// The error of a solve that ended without an answer: stopped by the budget, or else
    /// interrupted.
    #[cfg(any(feature = "cadical", feature = "kissat"))]
    fn undecided(&self) -> SolveError {
        SolveError::Stopped(self.exhausted().unwrap_or(Stop::Interrupted))
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
    /// A built-in backend with options (checked before).
    BuiltinWith(Backend, Arc<[SolverOption]>),
    /// A user's solvers.
    Custom(MakeSolver),
}

impl SolverSource {
    /// A new solver without clauses, stoppable within the budget.
    pub(crate) fn make(&self, budget: &Budget) -> Result<Box<dyn Solver>, SolveError> {
        match self {
            SolverSource::Builtin(b) => b.solver(budget),
            SolverSource::BuiltinWith(b, options) => b.solver_with(budget, options),
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
        self.solver_with(budget, &[])
    }

    /// Like [`Backend::solver`], with options set by name (checked: see
    /// [`Backend::check_options`]).
    pub fn solver_with(
        self,
        budget: &Budget,
        options: &[SolverOption],
    ) -> Result<Box<dyn Solver>, SolveError> {
        Ok(match self {
            Backend::Varisat => {
                if !options.is_empty() {
                    return Err(OptionError::NoOptions("varisat").into());
                }
                let mut solver = varisat::Solver::new();
                if budget.limit.is_some() {
                    solver.write_proof(BudgetSink(*budget), varisat::ProofFormat::Varisat);
                }
                Box::new(VarisatSolver(solver, false))
            }
            #[cfg(feature = "cadical")]
            Backend::Cadical => Box::new(CadicalSolver::new(options)?),
            #[cfg(feature = "kissat")]
            Backend::Kissat => Box::new(KissatSolver::new(options)?),
            #[allow(unreachable_patterns)]
            _ => return Err(SolveError::Unavailable(self)),
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

/// varisat behind [`Solver`]; `true` while assumptions are set.
struct VarisatSolver(varisat::Solver<'static>, bool);

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
            self.1 = true;
        } else if self.1 {
            // varisat keeps the assumptions of the last call until they are replaced.
            self.0.assume(&[]);
            self.1 = false;
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

/// A literal as a DIMACS integer.
#[cfg(any(feature = "cadical", feature = "kissat"))]
fn dimacs(l: Lit) -> i32 {
    l.to_dimacs() as i32
}

/// The terminate callback of a budget.
#[cfg(any(feature = "cadical", feature = "kissat"))]
fn stop_when_spent(budget: Budget) -> Box<dyn FnMut() -> bool + Send> {
    Box::new(move || budget.exhausted().is_some())
}

/// CaDiCaL behind [`Solver`].
#[cfg(feature = "cadical")]
pub(crate) struct CadicalSolver {
    solver: super::cadical::Cadical,
    /// The answer of the last solve.
    status: Option<super::cadical::Status>,
    buf: Vec<i32>,
}

#[cfg(feature = "cadical")]
impl CadicalSolver {
    /// A CaDiCaL with the backend's default options ([`Backend::default_options`]), then
    /// `options`.
    pub(crate) fn new(options: &[SolverOption]) -> Result<Self, SolveError> {
        Self::configured(Backend::Cadical.default_options(), options)
    }

    /// A CaDiCaL with CaDiCaL's own defaults, then `options` (the propagator engine's).
    pub(crate) fn with_own_defaults(options: &[SolverOption]) -> Result<Self, SolveError> {
        Self::configured(&[], options)
    }

    fn configured(defaults: &[(&str, i64)], options: &[SolverOption]) -> Result<Self, SolveError> {
        let mut solver = super::cadical::Cadical::new();
        for &(name, value) in defaults {
            solver.set_option(name, value)?;
        }
        for o in options {
            solver.set_option(&o.name, o.value)?;
        }
        Ok(CadicalSolver {
            solver,
            status: None,
            buf: Vec::new(),
        })
    }

    /// The solver, to connect a tracer before the clauses.
    pub(crate) fn inner(&mut self) -> &mut super::cadical::Cadical {
        &mut self.solver
    }
}

#[cfg(feature = "cadical")]
impl Solver for CadicalSolver {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.buf.clear();
        self.buf.extend(clause.iter().map(|&l| dimacs(l)));
        self.solver.add_clause(&self.buf);
    }

    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Result<bool, SolveError> {
        use super::cadical::Status;
        budget.check()?;
        self.solver.set_terminate(Some(stop_when_spent(*budget)));
        for &l in assumptions {
            self.solver.assume(dimacs(l));
        }
        let r = self.solver.solve();
        self.solver.set_terminate(None);
        self.status = Some(r);
        match r {
            Status::Sat => Ok(true),
            Status::Unsat => Ok(false),
            Status::Unknown => Err(budget.undecided()),
        }
    }

    fn model(&mut self, vars: usize) -> Result<Vec<Lit>, SolveError> {
        if self.status != Some(super::cadical::Status::Sat) {
            return Err(SolveError::Solver("no model after SAT".into()));
        }
        let n = vars.max(self.solver.max_var() as usize);
        Ok((0..n)
            .map(|i| {
                // An unassigned variable is free: false is as good as true.
                let value = self.solver.value(i as i32 + 1).unwrap_or(false);
                crate::cnf::Var::from_index(i).lit(value)
            })
            .collect())
    }
}

/// Kissat behind [`Solver`]: see the module documentation for how a second solve and
/// assumptions are answered.
#[cfg(feature = "kissat")]
pub(crate) struct KissatSolver {
    options: Vec<SolverOption>,
    /// The solver not yet solved, with every clause so far.
    fresh: Option<super::kissat::Kissat>,
    /// The solver of the last solve, for its model.
    last: Option<super::kissat::Kissat>,
    last_sat: bool,
    /// The clauses so far, each ended by 0, while within [`KISSAT_COPY_LIMIT`].
    copy: Option<Vec<i32>>,
    buf: Vec<i32>,
}

#[cfg(feature = "kissat")]
impl KissatSolver {
    pub(crate) fn new(options: &[SolverOption]) -> Result<Self, SolveError> {
        let options = options.to_vec();
        let fresh = Self::make(&options)?;
        Ok(KissatSolver {
            options,
            fresh: Some(fresh),
            last: None,
            last_sat: false,
            copy: Some(Vec::new()),
            buf: Vec::new(),
        })
    }

    fn make(options: &[SolverOption]) -> Result<super::kissat::Kissat, SolveError> {
        let mut s = super::kissat::Kissat::new();
        for &(name, value) in Backend::Kissat.default_options() {
            s.set_option(name, value)?;
        }
        for o in options {
            s.set_option(&o.name, o.value)?;
        }
        Ok(s)
    }

    /// The solver, to set up a proof before the clauses.
    pub(crate) fn inner(&mut self) -> Option<&mut super::kissat::Kissat> {
        self.fresh.as_mut()
    }

    /// A new solver with the copied clauses.
    fn refill(&mut self) -> Result<super::kissat::Kissat, SolveError> {
        let Some(copy) = &self.copy else {
            return Err(SolveError::Solver(format!(
                "kissat is not incremental, and the formula is too large (over {KISSAT_COPY_LIMIT} literals) to solve afresh: use cadical or varisat to solve again or under assumptions"
            )));
        };
        let mut s = Self::make(&self.options)?;
        for c in copy.split(|&x| x == 0) {
            if !c.is_empty() {
                s.add_clause(c);
            }
        }
        // Empty clauses were kept as a lone 0 after another 0 (or at the start).
        if copy.first() == Some(&0) || copy.windows(2).any(|w| w == [0, 0]) {
            s.add_clause(&[]);
        }
        Ok(s)
    }
}

#[cfg(feature = "kissat")]
impl Solver for KissatSolver {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.buf.clear();
        self.buf.extend(clause.iter().map(|&l| dimacs(l)));
        if let Some(copy) = &mut self.copy {
            if copy.len() + self.buf.len() < KISSAT_COPY_LIMIT {
                copy.extend_from_slice(&self.buf);
                copy.push(0);
            } else {
                self.copy = None;
            }
        }
        if let Some(s) = &mut self.fresh {
            s.add_clause(&self.buf);
        }
    }

    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Result<bool, SolveError> {
        use super::kissat::SolveOnce;
        budget.check()?;
        let mut s = match self.fresh.take() {
            Some(s) => s,
            None => self.refill()?,
        };
        for &l in assumptions {
            s.add_clause(&[dimacs(l)]);
        }
        s.set_terminate(Some(stop_when_spent(*budget)));
        let r = s.solve().map_err(|e| SolveError::Solver(e.to_string()))?;
        s.set_terminate(None);
        self.last_sat = r == SolveOnce::Sat;
        self.last = Some(s);
        match r {
            SolveOnce::Sat => Ok(true),
            SolveOnce::Unsat => Ok(false),
            SolveOnce::Unknown => Err(budget.undecided()),
        }
    }

    fn model(&mut self, vars: usize) -> Result<Vec<Lit>, SolveError> {
        let s = match &self.last {
            Some(s) if self.last_sat => s,
            _ => return Err(SolveError::Solver("no model after SAT".into())),
        };
        let n = vars.max(s.max_var() as usize);
        Ok((0..n)
            .map(|i| {
                let value = s.value(i as i32 + 1).unwrap_or(false);
                crate::cnf::Var::from_index(i).lit(value)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in [Backend::Varisat, Backend::Cadical, Backend::Kissat] {
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

#[cfg(test)]
mod more_tests {
    use super::*;
    use crate::cnf::{neg, pos};

    #[test]
    fn varisat_version_is_the_locked_one() {
        let lock = include_str!("../../Cargo.lock");
        let at = lock
            .find("name = \"varisat\"\n")
            .expect("varisat in Cargo.lock");
        let version = lock[at..].lines().nth(1).unwrap();
        assert_eq!(version, format!("version = \"{VARISAT_VERSION}\""));
    }

    #[test]
    fn every_backend_solves_again_and_under_assumptions() {
        for b in Backend::available() {
            let mut s = b.solver(&Budget::unlimited()).unwrap();
            s.add_clause(&[pos(1), pos(2)]);
            assert!(s.solve(&[], &Budget::unlimited()).unwrap(), "{b}");
            assert!(
                !s.solve(&[neg(1), neg(2)], &Budget::unlimited()).unwrap(),
                "{b}"
            );
            s.block(&[neg(1)]);
            assert!(s.solve(&[], &Budget::unlimited()).unwrap(), "{b}");
            assert!(s.model(2).unwrap().contains(&pos(2)), "{b}");
            s.add_clause(&[]);
            assert!(!s.solve(&[], &Budget::unlimited()).unwrap(), "{b}");
        }
    }

    #[test]
    fn options_are_checked_by_name() {
        use super::super::options::SolverOption;
        let o = |s: &str| s.parse::<SolverOption>().unwrap();
        assert!(Backend::Varisat.check_options(&[]).is_ok());
        assert!(Backend::Varisat.check_options(&[o("x=1")]).is_err());
        if Backend::Cadical.is_available() {
            assert!(Backend::Cadical.check_options(&[o("elim=0")]).is_ok());
            assert!(Backend::Cadical.check_options(&[o("elimx=0")]).is_err());
        }
        if Backend::Kissat.is_available() {
            assert!(Backend::Kissat.check_options(&[o("eliminate=0")]).is_ok());
            assert!(Backend::Kissat.check_options(&[o("elim=0")]).is_err());
        }
    }

    /// The backend's default options reach the solver, the user's override them, and the
    /// propagator engine's CaDiCaL keeps CaDiCaL's own defaults: read back from the solvers'
    /// option tables, against a solver made without any option.
    #[test]
    fn default_options_are_set_and_overridden() {
        use super::super::options::SolverOption;
        let o = |s: &str| s.parse::<SolverOption>().unwrap();
        for b in Backend::available() {
            for &(name, value) in b.default_options() {
                assert!(
                    b.check_options(&[o(&format!("{name}={value}"))]).is_ok(),
                    "{b}: {name}"
                );
            }
        }
        #[cfg(feature = "cadical")]
        {
            let own = super::super::cadical::Cadical::new().get_option("stabilizeonly");
            assert_eq!(own, 0, "CaDiCaL's own default");
            let mut s = CadicalSolver::new(&[]).unwrap();
            assert_eq!(s.inner().get_option("stabilizeonly"), 1);
            let mut s = CadicalSolver::new(&[o("stabilizeonly=0")]).unwrap();
            assert_eq!(s.inner().get_option("stabilizeonly"), own);
            let mut s = CadicalSolver::with_own_defaults(&[]).unwrap();
            assert_eq!(s.inner().get_option("stabilizeonly"), own);
        }
        #[cfg(feature = "kissat")]
        {
            let fresh = super::super::kissat::Kissat::new();
            let (target, restartint) = (fresh.get_option("target"), fresh.get_option("restartint"));
            assert_ne!((target, restartint), (2, 50), "Kissat's own defaults");
            let mut s = KissatSolver::new(&[]).unwrap();
            let k = s.inner().unwrap();
            assert_eq!(
                (k.get_option("target"), k.get_option("restartint")),
                (2, 50)
            );
            let mut s = KissatSolver::new(&[o("target=1")]).unwrap();
            assert_eq!(s.inner().unwrap().get_option("target"), 1);
        }
    }
}
