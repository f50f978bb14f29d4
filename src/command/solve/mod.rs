//! `queens-sat solve`: one solution, every solution or their number, from the embedded solver
//! or an external one, with proofs of UNSAT answers ([`solve()`]); the results are written by
//! [`super::solution`]. The enumeration (`--all`, `--count`, `--limit`) is in the module
//! `enumeration`, the decision engine's solve (`--engine search`) in the module `search`.

mod enumeration;
mod search;

use super::solution::{write_solution, write_unsat, Format};
use super::Ending;
use crate::explain::{write_core, write_groups, CoreError};
use crate::instance::{Formula, Instance, InstanceError, Limits};
use crate::output::{OutputError, Staged};
use crate::search::SearchProgress;
use crate::solve::runner::{
    self, CnfInput, Outcome, ProofRequest, RunError, RunReport, RunRequest, UnsatCheck,
    UnsatVerdict,
};
use crate::solve::{
    check_proof, solve_model_with_options, Backend, Budget, Progress, ProofError, ProofFormat,
    ProofOutcome, Prover, SolveError, SolverCommand, SolverOption, Stop,
};
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

/// What solves (`--engine`): a SAT solver on the formula, the search on the board, or CaDiCaL
/// with the at-most-one constraints of the lines as a propagator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// A SAT solver on the formula: the embedded one ([`SolveRequest::backend`]) or an
    /// external one ([`SolveRequest::solver`]).
    #[default]
    Sat,
    /// The backtracking search of the instance counter on the board itself, without a formula
    /// ([`crate::search::Decision`], n <= 64): one solution, checked, or the proof by
    /// exhaustive search that there is none.
    Search,
    /// The cell variables and the rows' at-least-one clauses in CaDiCaL, the at-most-one of
    /// every line propagated ([`crate::solve::propagator`]; the pairwise cell model only, needs
    /// the `cadical` feature).
    Propagator,
}

impl Engine {
    /// Every engine, in the order `--engine` lists them.
    pub const ALL: [Engine; 3] = [Engine::Sat, Engine::Search, Engine::Propagator];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Sat => "sat",
            Engine::Search => "search",
            Engine::Propagator => "propagator",
        }
    }

    /// The names of [`Engine::ALL`].
    pub fn names() -> [&'static str; 3] {
        Engine::ALL.map(Engine::name)
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        Engine::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown engine '{s}' (one of: {})",
                    Engine::names().join(", ")
                )
            })
    }
}

/// A solve as `queens-sat solve` asks for it.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// The instance (its model, partial board and symmetry breaking).
    pub instance: Instance,
    /// The board size as given (`None` with an instance file): the SVG's size limit applies
    /// to it.
    pub n: Option<usize>,
    /// How to write solutions.
    pub format: Format,
    /// List every solution.
    pub all: bool,
    /// Write only the number of solutions.
    pub count: bool,
    /// The SVG file (stdout when `None`).
    pub output: Option<PathBuf>,
    /// Stop after this many solutions (listing them unless `count`).
    pub limit: Option<u64>,
    /// An external solver's command line, instead of the embedded solver.
    pub solver: Option<String>,
    /// The time limit of the solve, the enumeration or the external solver.
    pub timeout: Option<Duration>,
    /// The embedded solver (default: CaDiCaL when `solver_options` are given and it is built
    /// in; else [`Backend::for_formula`] for one solution, [`Backend::for_enumeration`] for
    /// many; for a proof, varisat, or CaDiCaL for an LRAT proof).
    pub backend: Option<Backend>,
    /// Options of the embedded solver, by name (checked by [`Backend::check_options`]).
    pub solver_options: Vec<SolverOption>,
    /// Enumeration: split into sub-problems on the first K rows.
    pub split_rows: Option<usize>,
    /// Enumeration: worker threads.
    pub threads: Option<usize>,
    /// Solve even a formula past the size limits.
    pub force: bool,
    /// After the solution, each clause group evaluated on it.
    pub explain: bool,
    /// Without a solution, a minimal set of clauses that contradict each other, and why.
    pub why: bool,
    /// Without a solution, the DRAT proof of it written to this file.
    pub proof: Option<PathBuf>,
    /// Check the proof of unsatisfiability before reporting (DRAT with the library's checker
    /// and VeriPB, LRAT with the library's checker).
    pub check_proof: bool,
    /// The embedded solver's proof format (default: DRAT).
    pub proof_format: Option<ProofFormat>,
    /// The command line, for the comments of the DIMACS file given to an external solver.
    pub command_line: Option<String>,
    /// What solves (default: a SAT solver on the formula).
    pub engine: Engine,
}

/// What an enumeration reports as it goes (the command line draws a progress bar). Every
/// method does nothing unless implemented.
pub trait SolveProgress {
    /// The sub-problems done and the solutions found so far.
    fn update(&mut self, progress: Progress) {
        let _ = progress;
    }
    /// The enumeration is over (the results come next).
    fn finish(&mut self) {}
    /// `--engine search`: the nodes visited so far, about five times a second (from the
    /// calling thread).
    fn search(&mut self, progress: SearchProgress) {
        let _ = progress;
    }
}

/// No progress reported.
impl SolveProgress for () {}

/// Why a solve could not run or report.
#[derive(Debug, thiserror::Error)]
pub enum SolveCommandError {
    /// The formula is past the size limits (the hint says what to do instead).
    #[error(
        "{error}; use `queens-sat construct {n}` for one solution, {hint}a smaller n, or --force"
    )]
    TooLarge {
        /// The limit's message.
        error: InstanceError,
        /// Board size.
        n: usize,
        /// `--amo sequential, ` when that encoding would fit, else empty.
        hint: &'static str,
    },
    /// Options that do not go together, or a value out of range; the message says which.
    #[error("{0}")]
    Usage(&'static str),
    /// An SVG of a board too large.
    #[error(
        "--format svg draws boards up to n = {}",
        crate::board::picture::MAX_DOT_PLOT_N
    )]
    SvgTooLarge,
    /// Too many sub-problems.
    #[error("--split-rows {k} would make up to {n}^{k} sub-problems; at most {max} for n = {n} (at most {} parts)", crate::solve::MAX_PARTS)]
    SplitRows {
        /// The rows asked for.
        k: usize,
        /// Board size.
        n: usize,
        /// The most rows for this n.
        max: usize,
    },
    /// The proof of an UNSAT answer could not be checked.
    #[error("the proof of {who} cannot be checked: {message}")]
    ProofUnchecked {
        /// The solver.
        who: String,
        /// Why.
        message: String,
    },
    /// An outcome of the runner that this command does not expect.
    #[error("unexpected outcome of {who}: {outcome}")]
    Unexpected {
        /// The solver.
        who: String,
        /// The outcome.
        outcome: String,
    },
    /// The options of the embedded solver are unknown or out of range for it.
    #[error("--solver-option for {backend}: {source}")]
    SolverOptions {
        /// The embedded solver.
        backend: Backend,
        /// What is wrong.
        source: SolveError,
    },
    /// The embedded solver cannot write the proof format asked for.
    #[error("--backend {backend} does not write {format} proofs (cadical writes lrat)")]
    ProofFormat {
        /// The embedded solver.
        backend: Backend,
        /// The format asked for.
        format: ProofFormat,
    },
    /// The instance cannot go to the propagator engine.
    #[error("{0}")]
    Propagator(String),
    /// The embedded solver failed.
    #[error("{0}")]
    Solve(#[from] SolveError),
    /// The external solver could not be run.
    #[error("{0}")]
    Run(#[from] RunError),
    /// The embedded solver's proof could not be made.
    #[error("{0}")]
    Proof(#[from] ProofError),
    /// `--why` could not explain the formula.
    #[error("{0}")]
    Core(#[from] CoreError),
    /// An option that `--engine search` does not take.
    #[error("{0} does not go with --engine search, which finds one solution or shows that there is none, on the board, without a formula")]
    NotWithSearch(&'static str),
    /// `--engine search` cannot take this instance (n past 64, a queen on a forbidden cell).
    #[error("{0}")]
    Board(#[from] crate::board::MaskedError),
    /// `--engine search` could not run.
    #[error("{0}")]
    Search(#[from] crate::search::DecideError),
    /// An output file cannot be written.
    #[error("{0}")]
    Output(#[from] OutputError),
    /// Standard output cannot be written.
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl From<super::solution::WriteError> for SolveCommandError {
    fn from(e: super::solution::WriteError) -> Self {
        match e {
            super::solution::WriteError::Output(e) => SolveCommandError::Output(e),
            super::solution::WriteError::Io(e) => SolveCommandError::Io(e),
        }
    }
}

/// The message for a proof asked of a satisfiable instance.
const NO_PROOF_SAT: &str =
    "no proof of unsatisfiability: the instance has a solution (shown above), so none exists";

/// Solves as `req` asks, after refusing options that do not go together and (unless `force`)
/// a formula past the size limits: writes the solution, the solutions, their number or that
/// none exists on `out`; notes, the symmetry classes a count counts and what went wrong with
/// an external solver on `log`; reports the enumeration's progress.
pub fn solve(
    req: &SolveRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &mut dyn SolveProgress,
) -> Result<Ending, SolveCommandError> {
    use SolveCommandError::Usage;
    if req.engine == Engine::Search {
        return search::search(req, out, log, progress);
    }
    if !req.force {
        check_size(req)?;
    }
    if req.limit == Some(0) {
        return Err(Usage("--limit must be at least 1"));
    }
    let enumerate = req.all || req.count || req.limit.is_some();
    if req.timeout.is_some()
        && req.solver.is_none()
        && (req.why || req.proof.is_some() || req.check_proof)
    {
        return Err(Usage(
            "--timeout applies to solving and enumeration, not to --why or proofs",
        ));
    }
    if enumerate && req.format == Format::Competition {
        return Err(Usage("--format competition shows one model; use --all or --count with --format board, line or json"));
    }
    if req.format == Format::Svg {
        if enumerate {
            return Err(Usage(
                "--format svg draws one solution; `count N --list --format svg` draws many",
            ));
        }
        if req
            .n
            .is_some_and(|n| n > crate::board::picture::MAX_DOT_PLOT_N)
        {
            return Err(SolveCommandError::SvgTooLarge);
        }
    } else if req.output.is_some() {
        return Err(Usage(
            "-o FILE goes with --format svg (the other formats go to stdout)",
        ));
    }
    if req.solver.is_some() && !req.solver_options.is_empty() {
        return Err(Usage(
            "--solver-option sets options of the embedded solver, not of --solver",
        ));
    }
    if req.engine == Engine::Propagator {
        check_propagator(req)?;
    }
    if enumerate {
        return enumeration::enumeration(req, out, log, progress);
    }
    if req.proof.is_some() || req.check_proof {
        return with_proof(req, out, log);
    }
    match &req.solver {
        Some(cmd) => external(req, cmd, out, log),
        None => embedded(req, out, log),
    }
}

/// One solve by the embedded solver, with `--explain` and `--why`.
fn embedded(
    req: &SolveRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    let inst = &req.instance;
    let backend = if req.why {
        Backend::Varisat
    } else if req.engine == Engine::Propagator {
        Backend::Cadical
    } else {
        embedded_backend(req, || Backend::for_formula(inst))
    };
    let options = checked_options(req, backend)?;
    crate::interrupt::cleanup_needed();
    let budget = Budget::from_limit(req.timeout);
    let solved = match req.engine {
        // (The search answered before any formula was made.)
        Engine::Sat | Engine::Search => solve_model_with_options(inst, backend, &options, budget),
        Engine::Propagator => with_propagator(inst, &options, budget, log),
    };
    let model = match solved {
        Err(SolveError::Stopped(stop)) => return Ok(stopped(stop, log)),
        r => r?,
    };
    let header = if req.why {
        "a solution exists, so the formula is satisfiable; here is one"
    } else {
        "a solution"
    };
    let ending = match &model {
        Some(m) => write_solution(
            out,
            req.format,
            req.output.as_deref(),
            inst,
            &m.placement,
            &m.assignment.lits(),
            header,
        )?,
        None => write_unsat(out, req.format, inst, None)?,
    };
    if req.explain {
        match &model {
            Some(m) => write_groups(out, inst, &m.assignment)?,
            None => writeln!(out, "(--why shows clauses that contradict each other)")?,
        }
    }
    if req.why && model.is_none() {
        write_core(out, inst)?;
    }
    Ok(ending)
}

/// Refuses what the propagator engine does not do: another solver than the embedded CaDiCaL,
/// `--why`, a model other than the pairwise cell model.
fn check_propagator(req: &SolveRequest) -> Result<(), SolveCommandError> {
    use SolveCommandError::Usage;
    if req.solver.is_some() {
        return Err(Usage(
            "--engine propagator runs the embedded CaDiCaL; it does not go with --solver",
        ));
    }
    if req.backend.is_some_and(|b| b != Backend::Cadical) {
        return Err(Usage(
            "--engine propagator runs CaDiCaL (IPASIR-UP); --backend can only be cadical",
        ));
    }
    if req.why {
        return Err(Usage(
            "--why explains the formula's clauses; it does not go with --engine propagator",
        ));
    }
    if !Backend::Cadical.is_available() {
        return Err(SolveError::Unavailable(Backend::Cadical).into());
    }
    #[cfg(feature = "cadical")]
    crate::solve::propagator::check_model(&req.instance)
        .map_err(|e| SolveCommandError::Propagator(e.to_string()))?;
    Ok(())
}

/// The embedded backend: the one asked for, else CaDiCaL when options are given (and built
/// in), else `default`.
fn embedded_backend(req: &SolveRequest, default: impl FnOnce() -> Backend) -> Backend {
    match req.backend {
        Some(b) => b,
        None if !req.solver_options.is_empty() && Backend::Cadical.is_available() => {
            Backend::Cadical
        }
        None => default(),
    }
}

/// The solver options, checked against the backend's.
fn checked_options(
    req: &SolveRequest,
    backend: Backend,
) -> Result<Vec<SolverOption>, SolveCommandError> {
    backend
        .check_options(&req.solver_options)
        .map_err(|source| SolveCommandError::SolverOptions { backend, source })?;
    Ok(req.solver_options.clone())
}

/// One solve by CaDiCaL with the queens propagator; what the propagator did goes on `log`.
#[cfg(feature = "cadical")]
fn with_propagator(
    inst: &Instance,
    options: &[SolverOption],
    budget: Budget,
    log: &mut dyn Write,
) -> Result<Option<crate::solve::Model>, SolveError> {
    use crate::solve::propagator::PropagatorSolver;
    let mut solver = PropagatorSolver::new(inst, options)?;
    let model = crate::solve::solve_model_with_solver(inst, &mut solver, &budget);
    let s = solver.stats();
    let _ = writeln!(
        log,
        "propagator: {} propagations, {} reason clauses, {} conflicts ({} clauses on complete models); CNF: {} clauses, {} at-most-one clauses propagated instead",
        s.propagations, s.reasons, s.conflicts, s.model_clauses, s.clauses_kept, s.clauses_replaced
    );
    model
}

/// The proof of the propagator engine, written to `file`; what the propagator did goes on
/// `log`.
#[cfg(feature = "cadical")]
fn propagator_proof(
    inst: &Instance,
    format: ProofFormat,
    options: &[SolverOption],
    file: io::BufWriter<std::fs::File>,
    log: &mut dyn Write,
) -> Result<ProofOutcome, ProofError> {
    let proved = Prover::new(Backend::Cadical, format)?
        .with_options(options)?
        .with_engine(crate::solve::ProofEngine::Propagator)?
        .prove(inst, file)?;
    let s = proved.propagator.unwrap_or_default();
    let _ = writeln!(
        log,
        "propagator: {} propagations, {} reason clauses, {} conflicts ({} clauses on complete models); CNF: {} clauses, {} at-most-one clauses propagated instead",
        s.propagations, s.reasons, s.conflicts, s.model_clauses, s.clauses_kept, s.clauses_replaced
    );
    Ok(proved.outcome)
}

/// Without the `cadical` feature there is no propagator engine.
#[cfg(not(feature = "cadical"))]
fn propagator_proof(
    _inst: &Instance,
    _format: ProofFormat,
    _options: &[SolverOption],
    _file: io::BufWriter<std::fs::File>,
    _log: &mut dyn Write,
) -> Result<ProofOutcome, ProofError> {
    Err(SolveError::Unavailable(Backend::Cadical).into())
}

/// Without the `cadical` feature there is no propagator engine.
#[cfg(not(feature = "cadical"))]
fn with_propagator(
    _inst: &Instance,
    _options: &[SolverOption],
    _budget: Budget,
    _log: &mut dyn Write,
) -> Result<Option<crate::solve::Model>, SolveError> {
    Err(SolveError::Unavailable(Backend::Cadical))
}

/// The message of an embedded solve that stopped without an answer, and its ending: a failure
/// at the time limit (as with an external solver), interrupted otherwise.
fn stopped(stop: Stop, log: &mut dyn Write) -> Ending {
    let _ = writeln!(
        log,
        "error: the embedded solver stopped without an answer: {stop}"
    );
    match stop {
        Stop::Timeout(_) => Ending::Failure,
        Stop::Interrupted => Ending::Interrupted,
    }
}

/// Refuses a formula past the size limits: the embedded solver holds the formula in memory
/// ([`Limits::IN_MEMORY`]); an external solver reads a written file ([`Limits::STREAM`]).
fn check_size(req: &SolveRequest) -> Result<(), SolveCommandError> {
    use crate::encode::{Amo, LineEncodings, ModelOptions};
    let inst = &req.instance;
    let limits = if req.solver.is_some() {
        Limits::STREAM
    } else {
        Limits::IN_MEMORY
    };
    let Err(error) = inst.check_size(limits) else {
        return Ok(());
    };
    // The same model with the sequential at-most-one, where the model reads --amo and that
    // would fit.
    let sequential = LineEncodings::uniform(Amo::SEQUENTIAL);
    let fits = inst.model().is_some_and(|model| {
        let linear = ModelOptions {
            amo: sequential,
            ..*model.options()
        };
        model.options().amo != sequential
            && crate::encode::Model::new(model.entry(), &linear)
                .ok()
                .filter(|m| m.options().amo == sequential)
                .and_then(|m| m.encoder_on(inst.n(), inst.geometry()).ok())
                .is_some_and(|e| limits.allows(&e.size()))
    });
    let hint = if fits { "--amo sequential, " } else { "" };
    Err(SolveCommandError::TooLarge {
        error,
        n: inst.n(),
        hint,
    })
}

/// The checked run of the external solver on the instance (with the proof asked for, if
/// any): the model checked as a board and against every clause, an UNSAT answer refuted or
/// confirmed by the embedded solver.
fn run_solver(
    req: &SolveRequest,
    solver: &SolverCommand,
    proof: Option<ProofRequest<'_>>,
) -> Result<RunReport, RunError> {
    let inst = &req.instance;
    crate::interrupt::cleanup_needed();
    let request = RunRequest::new(
        solver,
        CnfInput::instance(inst, req.command_line.as_deref()),
    )
    .timeout(req.timeout)
    .verify(inst)
    .unsat(UnsatCheck::Refute(inst))
    .proof(proof);
    runner::run(&request)
}

/// The message of a run without an answer (the time limit, an unreadable answer, too much
/// output), if it had none.
fn no_answer(report: &RunReport, log: &mut dyn Write) -> Option<Ending> {
    let failure = report.failure()?;
    let _ = writeln!(log, "error: {failure}");
    Some(Ending::Failure)
}

/// Writes `text` on `log`: the ending is a failure.
fn failure(log: &mut dyn Write, text: &str) -> Ending {
    let _ = writeln!(log, "{text}");
    Ending::Failure
}

/// One solve by an external solver, its answer checked.
fn external(
    req: &SolveRequest,
    cmd: &str,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    let inst = &req.instance;
    let n = inst.n();
    let solver = SolverCommand::parse(cmd)?;
    let report = run_solver(req, &solver, None)?;
    if let Some(ending) = no_answer(&report, log) {
        return Ok(ending);
    }
    let who = &report.program;
    let mut say = |text: String| Ok(failure(log, &text));
    match &report.outcome {
        Outcome::Sat {
            model,
            verified: Some(v),
        } => {
            let header = format!(
                "a solution found by {who}, checked: no two queens attack each other, all {} clauses hold",
                v.clauses
            );
            let format = req.format;
            let svg = req.output.as_deref();
            let ending =
                write_solution(out, format, svg, inst, &v.placement, &model.lits(), &header)?;
            if req.explain {
                write_groups(out, inst, model)?;
            }
            Ok(ending)
        }
        Outcome::WrongModel { report, .. } => {
            let mut text = format!("{who} answered SATISFIABLE with a wrong model:");
            if let Err(b) = &report.board {
                text.push_str(&format!("\n  board: {b}"));
            }
            if let Err(c) = &report.cnf {
                text.push_str(&format!("\n  CNF: {c}"));
            }
            say(text)
        }
        // Never reported as a fact unchecked: a solution refutes it.
        Outcome::Unsat {
            verdict: UnsatVerdict::Refuted(p),
            ..
        } => {
            if inst.is_empty_board() {
                say(format!(
                    "{who} says UNSATISFIABLE, but n = {n} has solutions (only n = 2 and 3 have none), e.g. {}",
                    p.to_one_line()
                ))
            } else {
                say(format!(
                    "{who} says UNSATISFIABLE but the embedded solver finds a solution: {}",
                    p.to_one_line()
                ))
            }
        }
        Outcome::Unsat { .. } => {
            let note = format!("answer of {who}, confirmed by the embedded solver");
            Ok(write_unsat(out, req.format, inst, Some(&note))?)
        }
        Outcome::Unknown => say(format!("{who} gave no answer (UNKNOWN)")),
        other => Err(SolveCommandError::Unexpected {
            who: who.clone(),
            outcome: format!("{other:?}"),
        }),
    }
}

/// A line about the proof: on `out` (a `c` line in competition format), on `log` with JSON
/// and SVG output.
fn proof_note(
    out: &mut dyn Write,
    log: &mut dyn Write,
    format: Format,
    text: &str,
) -> io::Result<()> {
    match format {
        Format::Json | Format::Svg => {
            let _ = writeln!(log, "{text}");
        }
        Format::Competition => writeln!(out, "c {text}")?,
        Format::Board | Format::Line => writeln!(out, "{text}")?,
    }
    Ok(())
}

/// `--proof FILE` / `--check-proof`: the proof of an UNSAT answer written (atomically) and
/// checked if asked.
fn with_proof(
    req: &SolveRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    let inst = &req.instance;
    // Before any solving: the target must be writable, the solver able to write a proof.
    let solver = match &req.solver {
        Some(cmd) => {
            let solver = SolverCommand::parse(cmd)?;
            solver.check_proofs()?;
            Some(solver)
        }
        None => None,
    };
    let proof_format = req.proof_format.unwrap_or_default();
    let backend = if req.engine == Engine::Propagator {
        Backend::Cadical
    } else {
        embedded_backend(req, || match proof_format {
            ProofFormat::Lrat => Backend::Cadical,
            ProofFormat::Drat => Backend::Varisat,
        })
    };
    let options = checked_options(req, backend)?;
    if solver.is_none() && !proof_format.written_by(backend) {
        return Err(SolveCommandError::ProofFormat {
            backend,
            format: proof_format,
        });
    }
    let mut target = Staged::proof(req.proof.as_deref())?;
    let who;
    let check: Option<crate::proof::Verdict>;
    let mut kind = "DRAT";
    let (format, svg) = (req.format, req.output.as_deref());
    match &solver {
        None => {
            who = match req.engine {
                Engine::Propagator => "the propagator engine".to_string(),
                Engine::Sat | Engine::Search => "the embedded solver".to_string(),
            };
            if proof_format == ProofFormat::Lrat {
                kind = "LRAT";
            }
            let file = io::BufWriter::new(target.file().try_clone()?);
            let outcome = match req.engine {
                Engine::Propagator => propagator_proof(inst, proof_format, &options, file, log)?,
                Engine::Sat | Engine::Search => {
                    Prover::new(backend, proof_format)?
                        .with_options(&options)?
                        .prove(inst, file)?
                        .outcome
                }
            };
            if let ProofOutcome::Sat(m) = outcome {
                let lits = m.assignment.lits();
                write_solution(out, format, svg, inst, &m.placement, &lits, "a solution")?;
                out.flush()?;
                return Ok(failure(log, NO_PROOF_SAT));
            }
            check = if req.check_proof {
                let file = target.reopen()?;
                let checked = check_proof(inst, io::BufReader::new(file), &Default::default());
                Some(checked.map_err(|e| SolveCommandError::ProofUnchecked {
                    who: who.clone(),
                    message: e.to_string(),
                })?)
            } else {
                None
            };
        }
        Some(solver) => {
            let request = ProofRequest {
                path: target.path(),
                check: req.check_proof.then_some(inst as &dyn Formula),
            };
            let report = match run_solver(req, solver, Some(request)) {
                Err(RunError::Proof(e)) => {
                    return Err(SolveCommandError::ProofUnchecked {
                        who: solver.label(),
                        message: e.to_string(),
                    })
                }
                r => r?,
            };
            if let Some(ending) = no_answer(&report, log) {
                return Ok(ending);
            }
            who = report.program.clone();
            match report.outcome {
                Outcome::Sat {
                    model,
                    verified: Some(v),
                } => {
                    let header = format!("a solution found by {who}, checked");
                    let lits = model.lits();
                    write_solution(out, format, svg, inst, &v.placement, &lits, &header)?;
                    out.flush()?;
                    return Ok(failure(log, NO_PROOF_SAT));
                }
                Outcome::Sat { .. } | Outcome::WrongModel { .. } => {
                    return Ok(failure(
                        log,
                        &format!("{who} answered SATISFIABLE with a wrong model; no proof written"),
                    ));
                }
                Outcome::Unknown => {
                    return Ok(failure(
                        log,
                        &format!("{who} gave no answer (UNKNOWN); no proof written"),
                    ));
                }
                Outcome::Unsat {
                    verdict: UnsatVerdict::Refuted(p),
                    ..
                } => {
                    return Ok(failure(log, &format!(
                        "{who} says UNSATISFIABLE but the embedded solver finds a solution: {}; no proof written",
                        p.to_one_line()
                    )));
                }
                Outcome::Unsat { proof, .. } => check = proof,
                other => {
                    return Err(SolveCommandError::Unexpected {
                        who,
                        outcome: format!("{other:?}"),
                    })
                }
            }
        }
    }
    let bytes = target.bytes();
    let mut notes = Vec::new();
    if let Some(check) = &check {
        if !check.verified() {
            return Ok(failure(
                log,
                &format!(
                    "error: the proof of {who} does not check: {check}; checkers: {}; no proof written",
                    check.checkers()
                ),
            ));
        }
        notes.push(format!("proof checked: {}", check.summary()));
        notes.push(format!("checked by: {}", check.checkers()));
    }
    if let Some(path) = target.target() {
        notes.push(format!(
            "proof written to {} ({kind} by {who}, {bytes} bytes){}",
            path.display(),
            if req.check_proof {
                ""
            } else {
                "; not checked here (--check-proof checks it)"
            }
        ));
    }
    target.commit()?;
    let note = format!("answer of {who}");
    let ending = write_unsat(
        out,
        format,
        inst,
        req.solver.as_ref().map(|_| note.as_str()),
    )?;
    for n in &notes {
        proof_note(out, log, format, n)?;
    }
    Ok(ending)
}
