//! The solve of an instance: one solution, every solution or their number, from the embedded
//! solver, an external one or the search on the board, with proofs of UNSAT answers
//! ([`solve()`]); the results are written by [`super::solution`]. A [`SolveRequest`] says by
//! its types what the solve does ([`SolveMode`]): each mode holds only what it reads, so that
//! a combination that means nothing cannot be built. The enumeration is in the module
//! `enumeration`, the search's solve in the module `search`.

mod certified;
mod chain;
mod enumeration;
mod request;
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
use crate::vocabulary::Param;
use std::io::{self, Write};
use std::time::Duration;

pub use chain::NotWithChain;
pub use request::*;
pub use search::{NotWithSearch, SearchRefusal};

/// What an enumeration reports as it goes (the command line draws a progress bar). Every
/// method does nothing unless implemented.
pub trait SolveProgress {
    /// The sub-problems done and the solutions found so far.
    fn update(&mut self, progress: Progress) {
        let _ = progress;
    }
    /// The enumeration is over (the results come next).
    fn finish(&mut self) {}
    /// [`SolveMode::Search`]: the nodes visited so far, about five times a second (from the
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
    /// The formula is past the size limits (the message says what to do instead).
    #[error(
        "{error}; use `queens-sat construct {n}` for one solution, {}a smaller n, or {}",
        if *sequential_fits { format!("{} sequential, ", Param::Amo) } else { String::new() },
        Param::Force
    )]
    TooLarge {
        /// The limit's message.
        error: InstanceError,
        /// Board size.
        n: usize,
        /// Whether the same model with the sequential at-most-one encoding would fit.
        sequential_fits: bool,
    },
    /// An SVG picture of a board too large.
    #[error(
        "{} svg draws boards up to n = {}",
        Param::Format,
        crate::board::picture::MAX_DOT_PLOT_N
    )]
    SvgTooLarge,
    /// Too many sub-problems.
    #[error("{} {k} would make up to {n}^{k} sub-problems; at most {max} for n = {n} (at most {} parts)", Param::SplitRows, crate::solve::MAX_PARTS)]
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
    #[error("{} for {backend}: {source}", Param::SolverOption)]
    SolverOptions {
        /// The embedded solver.
        backend: Backend,
        /// What is wrong.
        source: SolveError,
    },
    /// The embedded solver cannot write the proof format asked for.
    #[error(
        "{} {backend} does not write {format} proofs (cadical writes lrat)",
        Param::Backend
    )]
    ProofFormat {
        /// The embedded solver.
        backend: Backend,
        /// The format asked for.
        format: ProofFormat,
    },
    /// The search's certificate could not be made (its OPB form, or the walk).
    #[error("the search's certificate could not be made: {0}")]
    Certificate(String),
    /// The instance cannot go to the propagator.
    #[error("{0}")]
    Propagator(String),
    /// The external solver could not be run.
    #[error("{0}")]
    Run(#[from] RunError),
    /// The embedded solver's proof could not be made.
    #[error("{0}")]
    Proof(#[from] ProofError),
    /// The formula could not be explained ([`SatTask::Why`]).
    #[error("{0}")]
    Core(#[from] CoreError),
    /// What the search does not take.
    #[error("{0} {NotWithSearch}")]
    NotForSearch(SearchRefusal),
    /// A chain with the search or the propagator as a stage, on an instance that breaks
    /// symmetries (the engines do not).
    #[error("{} does not go with a chain whose stages include the search or the propagator, which do not break symmetries", Param::SymmetryBreaking)]
    ChainSymmetry,
    /// A chain's files could not be written.
    #[error("the chain of solvers could not run: {0}")]
    Chain(String),
    /// The search cannot take this instance (n past 64, a queen on a forbidden cell).
    #[error("{0}")]
    Board(#[from] crate::board::MaskedError),
    /// The search could not run.
    #[error("{0}")]
    Search(#[from] crate::search::DecideError),
    /// The embedded solver failed, or an output file or standard output cannot be written.
    #[error(transparent)]
    Failure(#[from] super::Failure),
}

failures_into!(SolveCommandError: SolveError, OutputError, io::Error);

/// The message for a proof asked of a satisfiable instance.
pub(super) const NO_PROOF_SAT: &str =
    "no proof of unsatisfiability: the instance has a solution (shown above), so none exists";

/// Solves as `req` asks, after refusing (unless forced) a formula past the size limits, an
/// SVG picture too large and an instance the propagator or the search cannot take: writes the
/// solution, the solutions, their number or that none exists on `out`; notes, the symmetry
/// classes a count counts and what went wrong with an external solver on `log`; reports the
/// enumeration's and the search's progress.
pub fn solve(
    req: &SolveRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &mut dyn SolveProgress,
) -> Result<Ending, SolveCommandError> {
    let inst = &req.instance;
    let (task, force) = match &req.mode {
        SolveMode::Search(s) => return search::search(inst, s, out, log, progress),
        SolveMode::Chain(c) => return chain::chain(inst, c, out, log),
        SolveMode::Sat { task, force } => (task, *force),
    };
    let (written, in_process) = match task {
        SatTask::One(one) => match &one.solver {
            SatSolver::InProcess(s) => (Some(&one.written), Some(s)),
            SatSolver::External(_) => (Some(&one.written), None),
        },
        SatTask::Why => (None, None),
        SatTask::Proof(p) => match &p.prover {
            ProofSolver::InProcess { solver, .. } => (Some(&p.written), Some(solver)),
            ProofSolver::PropagatorCertificate { .. } | ProofSolver::External { .. } => {
                (Some(&p.written), None)
            }
        },
        SatTask::Enumerate(e) => (None, Some(&e.solver)),
    };
    let certificate = matches!(
        task,
        SatTask::Proof(ProofSolve {
            prover: ProofSolver::PropagatorCertificate { .. },
            ..
        })
    );
    if certificate {
        check_propagator(inst)?;
    }
    if !force {
        let external = in_process.is_none() && !matches!(task, SatTask::Why) && !certificate;
        check_size(inst, external)?;
    }
    if let Some(w) = written {
        check_svg(inst, w)?;
    }
    if let Some(InProcess::Propagator { .. }) = in_process {
        check_propagator(inst)?;
    }
    match task {
        SatTask::Enumerate(e) => enumeration::enumeration(inst, e, out, log, progress),
        SatTask::Proof(p) => with_proof(inst, p, out, log),
        SatTask::Why => {
            let solver = InProcess::Embedded {
                backend: Some(Backend::Varisat),
                options: Vec::new(),
            };
            let one = OneSolve {
                written: Written::Out(Format::Board),
                explain: false,
                solver: SatSolver::InProcess(solver.clone()),
                timeout: None,
            };
            embedded(inst, &one, &solver, true, out, log)
        }
        SatTask::One(one) => match &one.solver {
            SatSolver::External(solver) => external(inst, one, solver, out, log),
            SatSolver::InProcess(solver) => embedded(inst, one, solver, false, out, log),
        },
    }
}

/// Refuses an SVG picture of a board past [`crate::board::picture::MAX_DOT_PLOT_N`].
fn check_svg(inst: &Instance, written: &Written) -> Result<(), SolveCommandError> {
    if written.format() == Format::Svg && inst.n() > crate::board::picture::MAX_DOT_PLOT_N {
        return Err(SolveCommandError::SvgTooLarge);
    }
    Ok(())
}

/// One solve in this process (`one.solver` is `solver`); with `why`, a minimal set of clauses
/// that contradict each other when there is no solution.
fn embedded(
    inst: &Instance,
    one: &OneSolve,
    solver: &InProcess,
    why: bool,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    let (backend, options) = solver.checked(|| Backend::for_formula(inst))?;
    crate::interrupt::cleanup_needed();
    let budget = Budget::from_limit(one.timeout);
    let solved = match solver {
        InProcess::Embedded { .. } => solve_model_with_options(inst, backend, &options, budget),
        InProcess::Propagator { .. } => with_propagator(inst, &options, budget, log),
    };
    let model = match solved {
        Err(SolveError::Stopped(stop)) => return Ok(stopped(stop, log)),
        r => r?,
    };
    let header = if why {
        "a solution exists, so the formula is satisfiable; here is one"
    } else {
        "a solution"
    };
    let (format, svg) = (one.written.format(), one.written.svg_file());
    let ending = match &model {
        Some(m) => write_solution(
            out,
            format,
            svg,
            inst,
            &m.placement,
            &m.assignment.lits(),
            header,
        )?,
        None => write_unsat(out, format, inst, None)?,
    };
    if one.explain {
        match &model {
            Some(m) => write_groups(out, inst, &m.assignment)?,
            None => writeln!(
                out,
                "({} shows clauses that contradict each other)",
                crate::vocabulary::Param::Why
            )?,
        }
    }
    if why && model.is_none() {
        write_core(out, inst)?;
    }
    Ok(ending)
}

/// Refuses what the propagator does not take: a build without CaDiCaL, a model other than
/// the pairwise cell model.
fn check_propagator(inst: &Instance) -> Result<(), SolveCommandError> {
    if !Backend::Cadical.is_available() {
        return Err(SolveError::Unavailable(Backend::Cadical).into());
    }
    #[cfg(feature = "cadical")]
    crate::solve::propagator::check_model(inst)
        .map_err(|e| SolveCommandError::Propagator(e.to_string()))?;
    #[cfg(not(feature = "cadical"))]
    let _ = inst;
    Ok(())
}

impl InProcess {
    /// The backend and its options, checked against it: the propagator runs CaDiCaL; an
    /// embedded solver is the one asked for, else CaDiCaL when options are given (and built
    /// in), else `default`.
    fn checked(
        &self,
        default: impl FnOnce() -> Backend,
    ) -> Result<(Backend, Vec<SolverOption>), SolveCommandError> {
        let (backend, options) = match self {
            InProcess::Embedded { backend, options } => {
                let backend = match backend {
                    Some(b) => *b,
                    None if !options.is_empty() && Backend::Cadical.is_available() => {
                        Backend::Cadical
                    }
                    None => default(),
                };
                (backend, options)
            }
            InProcess::Propagator { options } => (Backend::Cadical, options),
        };
        let cadical = match self {
            #[cfg(feature = "cadical")]
            InProcess::Propagator { .. } => {
                crate::solve::propagator::split_options(options)
                    .map_err(|e| SolveCommandError::SolverOptions {
                        backend,
                        source: crate::solve::SolveError::Option(e),
                    })?
                    .1
            }
            _ => options.clone(),
        };
        backend
            .check_options(&cadical)
            .map_err(|source| SolveCommandError::SolverOptions { backend, source })?;
        Ok((backend, options.clone()))
    }
}
/// One solve by CaDiCaL with the queens propagator; what the propagator did goes on `log`.
#[cfg(feature = "cadical")]
fn with_propagator(
    inst: &Instance,
    options: &[SolverOption],
    budget: Budget,
    log: &mut dyn Write,
) -> Result<Option<crate::solve::Solution>, SolveError> {
    use crate::solve::propagator::PropagatorSolver;
    let mut solver = PropagatorSolver::new(inst, options)?;
    let model = crate::solve::solve_model_with_solver(inst, &mut solver, &budget);
    let s = solver.stats();
    let _ = writeln!(log, "{s}");
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
    let _ = writeln!(log, "{s}");
    Ok(proved.outcome)
}

/// The propagator engine's VeriPB certificate ([`crate::solve::certify_with_propagator`]),
/// checked when asked and put in its file; a solution is written, with no proof.
#[cfg(feature = "cadical")]
fn propagator_certificate(
    inst: &Instance,
    options: &[SolverOption],
    p: &ProofSolve,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    let unmade = |e: &dyn std::fmt::Display| SolveCommandError::Certificate(e.to_string());
    let form = crate::instance::certificate_form(inst).map_err(|e| unmade(&e))?;
    let mut target = Staged::proof(p.kept.file())?;
    let file = io::BufWriter::with_capacity(1 << 16, target.file().try_clone()?);
    let made = crate::solve::certify_with_propagator(inst, options, file)?;
    drop(made.proof);
    let _ = writeln!(log, "{}", made.propagator);
    if let ProofOutcome::Sat(m) = made.outcome {
        let (format, svg) = (p.written.format(), p.written.svg_file());
        let lits = m.assignment.lits();
        write_solution(out, format, svg, inst, &m.placement, &lits, "a solution")?;
        out.flush()?;
        return Ok(failure(log, NO_PROOF_SAT));
    }
    let s = made.stats;
    let note = format!(
        "certificate: {} rules: {} clauses of the propagator, {} cutting-planes steps of the bounds, {} clauses derived by CaDiCaL ({} with hints)",
        s.rules, s.propagator_clauses, s.bounds, s.derived, s.hinted
    );
    certified::finish(
        inst,
        &form,
        target,
        certified::Made {
            kept: &p.kept,
            written: &p.written,
            by: "the propagator engine",
            unsat_note: None,
            notes: vec![note],
        },
        out,
        log,
    )
}

/// Without the `cadical` feature there is no propagator engine.
#[cfg(not(feature = "cadical"))]
fn propagator_certificate(
    _inst: &Instance,
    _options: &[SolverOption],
    _p: &ProofSolve,
    _out: &mut dyn Write,
    _log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    Err(SolveError::Unavailable(Backend::Cadical).into())
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
) -> Result<Option<crate::solve::Solution>, SolveError> {
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

/// Refuses a formula past the size limits: a solver in this process holds the formula in
/// memory ([`Limits::IN_MEMORY`]); an `external` one reads a written file ([`Limits::STREAM`]).
fn check_size(inst: &Instance, external: bool) -> Result<(), SolveCommandError> {
    use crate::encode::{Amo, LineEncodings, ModelOptions};
    let limits = if external {
        Limits::STREAM
    } else {
        Limits::IN_MEMORY
    };
    let Err(error) = inst.check_size(limits) else {
        return Ok(());
    };
    // The same model with the sequential at-most-one, where the model has an at-most-one
    // encoding and that would fit.
    let sequential = LineEncodings::uniform(Amo::SEQUENTIAL);
    let sequential_fits = inst.model().is_some_and(|model| {
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
    Err(SolveCommandError::TooLarge {
        error,
        n: inst.n(),
        sequential_fits,
    })
}

/// The checked run of the external `solver` on the instance (with the proof asked for, if
/// any): the model checked as a board and against every clause, an UNSAT answer refuted or
/// confirmed by the embedded solver.
fn run_solver(
    inst: &Instance,
    solver: &SolverCommand,
    command_line: Option<&str>,
    timeout: Option<Duration>,
    proof: Option<ProofRequest<'_>>,
) -> Result<RunReport, RunError> {
    crate::interrupt::cleanup_needed();
    let request = RunRequest::new(solver, CnfInput::instance(inst, command_line))
        .timeout(timeout)
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
    inst: &Instance,
    one: &OneSolve,
    solver: &ExternalSolver,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    let n = inst.n();
    let command = SolverCommand::parse(&solver.command)?;
    let line = solver.command_line.as_deref();
    let report = run_solver(inst, &command, line, one.timeout, None)?;
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
            let (format, svg) = (one.written.format(), one.written.svg_file());
            let ending =
                write_solution(out, format, svg, inst, &v.placement, &model.lits(), &header)?;
            if one.explain {
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
            Ok(write_unsat(out, one.written.format(), inst, Some(&note))?)
        }
        Outcome::Unknown => say(format!("{who} gave no answer (UNKNOWN)")),
        other => Err(SolveCommandError::Unexpected {
            who: who.clone(),
            outcome: format!("{other:?}"),
        }),
    }
}

/// What follows the note of a written proof: nothing when it was checked, else where to have
/// it checked.
pub(super) fn unchecked_note(checked: bool) -> String {
    if checked {
        String::new()
    } else {
        format!(
            "; not checked here ({} checks it)",
            crate::vocabulary::Param::CheckProof
        )
    }
}

/// A line about the proof: on `out` (a `c` line in competition format), on `log` with JSON
/// and SVG output.
pub(super) fn proof_note(
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

/// One solution, or the proof that there is none: written (atomically) and checked as `p`
/// asks.
fn with_proof(
    inst: &Instance,
    p: &ProofSolve,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    let (format, svg) = (p.written.format(), p.written.svg_file());
    let checked = p.kept.checked();
    let who;
    let check: Option<crate::proof::Verdict>;
    let mut kind = "DRAT";
    let mut target;
    match &p.prover {
        ProofSolver::InProcess {
            solver,
            format: proof_format,
        } => {
            // Before any solving: the solver able to write the proof, the target writable.
            let proof_format = *proof_format;
            let (backend, options) = solver.checked(|| match proof_format {
                ProofFormat::Lrat => Backend::Cadical,
                ProofFormat::Drat => Backend::Varisat,
            })?;
            if !proof_format.written_by(backend) {
                return Err(SolveCommandError::ProofFormat {
                    backend,
                    format: proof_format,
                });
            }
            target = Staged::proof(p.kept.file())?;
            who = match solver {
                InProcess::Propagator { .. } => "the propagator engine".to_string(),
                InProcess::Embedded { .. } => "the embedded solver".to_string(),
            };
            if proof_format == ProofFormat::Lrat {
                kind = "LRAT";
            }
            let file = io::BufWriter::new(target.file().try_clone()?);
            let outcome = match solver {
                InProcess::Propagator { .. } => {
                    propagator_proof(inst, proof_format, &options, file, log)?
                }
                InProcess::Embedded { .. } => {
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
            check = if checked {
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
        ProofSolver::PropagatorCertificate { options } => {
            return propagator_certificate(inst, options, p, out, log)
        }
        ProofSolver::External { solver, timeout } => {
            // Before any solving: the solver able to write a proof, the target writable.
            let command = SolverCommand::parse(&solver.command)?;
            command.check_proofs()?;
            target = Staged::proof(p.kept.file())?;
            let request = ProofRequest {
                path: target.path(),
                check: checked.then_some(inst as &dyn Formula),
            };
            let line = solver.command_line.as_deref();
            let report = match run_solver(inst, &command, line, *timeout, Some(request)) {
                Err(RunError::Proof(e)) => {
                    return Err(SolveCommandError::ProofUnchecked {
                        who: command.label(),
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
            unchecked_note(checked)
        ));
    }
    target.commit()?;
    let note = format!("answer of {who}");
    let external = matches!(p.prover, ProofSolver::External { .. });
    let ending = write_unsat(out, format, inst, external.then_some(note.as_str()))?;
    for n in &notes {
        proof_note(out, log, format, n)?;
    }
    Ok(ending)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn plain(n: usize) -> Instance {
        Instance::new(n, crate::instance::Model::default()).unwrap()
    }

    fn run(req: &SolveRequest) -> Result<(Ending, String), SolveCommandError> {
        let (mut out, mut log) = (Vec::new(), Vec::new());
        let ending = solve(req, &mut out, &mut log, &mut ())?;
        Ok((ending, String::from_utf8(out).unwrap()))
    }

    fn search(instance: Instance, written: Written) -> SolveRequest {
        SolveRequest {
            instance,
            mode: SolveMode::Search(SearchSolve {
                written,
                threads: Some(1),
                timeout: None,
                proof: None,
            }),
        }
    }

    /// What the search cannot take is refused by a typed error, whose message speaks of the
    /// library's terms, not of command-line options.
    #[test]
    fn the_search_refuses_what_it_cannot_take_in_library_terms() {
        use crate::symmetry_breaking::SymmetryBreaking;
        let broken = plain(8).with_symmetry_breaking(SymmetryBreaking::LexLeader);
        let cases = [
            (
                search(broken, Written::Out(Format::Line)),
                SearchRefusal::SymmetryBreaking,
            ),
            (
                search(plain(8), Written::Out(Format::Competition)),
                SearchRefusal::CompetitionFormat,
            ),
        ];
        for (req, want) in cases {
            let e = run(&req).unwrap_err();
            assert!(
                matches!(e, SolveCommandError::NotForSearch(r) if r == want),
                "{e:?}"
            );
            assert!(!e.to_string().contains("--"), "{e}");
        }
        let (ending, out) = run(&search(plain(8), Written::Out(Format::Line))).unwrap();
        assert_eq!(ending, Ending::Success);
        assert_eq!(out.split_whitespace().count(), 8, "{out}");
    }

    /// The errors that name options in the command line's wording name none here.
    #[test]
    fn errors_speak_of_the_library_not_of_flags() {
        let enumerate = |split_rows| SolveRequest {
            instance: plain(6),
            mode: SolveMode::Sat {
                task: SatTask::Enumerate(EnumerateSolve {
                    format: ListFormat::Line,
                    count_only: true,
                    limit: None,
                    split_rows,
                    threads: Some(1),
                    solver: InProcess::Embedded {
                        backend: Some(Backend::Varisat),
                        options: Vec::new(),
                    },
                    timeout: None,
                }),
                force: false,
            },
        };
        let e = run(&enumerate(Some(40))).unwrap_err();
        assert!(
            matches!(e, SolveCommandError::SplitRows { k: 40, n: 6, .. }),
            "{e:?}"
        );
        let (_, out) = run(&enumerate(Some(1))).unwrap();
        assert_eq!(out.trim(), "4");
        let proof = SolveRequest {
            instance: plain(3),
            mode: SolveMode::Sat {
                task: SatTask::Proof(ProofSolve {
                    written: Written::Out(Format::Line),
                    kept: ProofKept::Checked,
                    prover: ProofSolver::InProcess {
                        solver: InProcess::Embedded {
                            backend: Some(Backend::Varisat),
                            options: Vec::new(),
                        },
                        format: ProofFormat::Lrat,
                    },
                }),
                force: false,
            },
        };
        let e = run(&proof).unwrap_err();
        assert!(matches!(e, SolveCommandError::ProofFormat { .. }), "{e:?}");
        let too_large = SolveRequest {
            instance: plain(16000),
            mode: SolveMode::Sat {
                task: SatTask::Why,
                force: false,
            },
        };
        let e = run(&too_large).unwrap_err();
        assert!(matches!(e, SolveCommandError::TooLarge { .. }), "{e:?}");
        let messages = [
            e.to_string(),
            run(&enumerate(Some(40))).unwrap_err().to_string(),
            run(&proof).unwrap_err().to_string(),
            SolveCommandError::SvgTooLarge.to_string(),
        ];
        for m in messages {
            assert!(!m.contains("--"), "{m}");
        }
    }

    #[test]
    fn a_proof_kept_says_where_it_goes_and_whether_it_is_checked() {
        let p = PathBuf::from("p.drat");
        assert_eq!(ProofKept::File(p.clone()).file(), Some(p.as_path()));
        assert!(!ProofKept::File(p.clone()).checked());
        assert!(ProofKept::CheckedFile(p.clone()).checked());
        assert_eq!(ProofKept::Checked.file(), None);
        assert!(ProofKept::Checked.checked());
    }
}
