//! One checked run of an external SAT solver: every command that runs a solver program
//! (`solve --solver`, `compare`, `check --external`) goes through [`run`].
//!
//! A [`RunRequest`] says what to run and how far to check the answer:
//!
//! * the solver ([`SolverCommand`]) and what it reads ([`CnfInput`]): an instance or clauses
//!   written to a DIMACS file in a temporary folder (removed afterwards, and by
//!   [`super::kill_running`] when the program is interrupted), or an existing DIMACS file;
//! * an optional time limit: the solver runs in its own process group
//!   ([`super::process::run_bounded`]), and the whole group is killed at the limit;
//! * whether a model is checked ([`RunRequest::verify`]): as a board and against every clause
//!   ([`super::verify_assignment`]), after mapping it back to the formula's variables when the
//!   file was renamed ([`RunRequest::restore`]);
//! * how an UNSAT claim is checked ([`UnsatCheck`]): trusted, contradicted by what is known of
//!   the instance, or refuted by looking for a solution ([`refute_unsat`]);
//! * an optional DRAT proof ([`ProofRequest`]): the solver (one of [`PROOF_SOLVERS`]) writes it
//!   to a path, and it is checked with [`super::check_proof`] after an UNSAT answer.
//!
//! The [`RunReport`] gives the [`Outcome`] (a checked model, a wrong one, UNSAT and how it
//! was checked, UNKNOWN, the time limit, or a [`SolverFailure`]: an unreadable answer or too
//! much output), the exit code, the time and the statistics the solver printed. An error
//! ([`RunError`]) means the run could not be made or checked at all: the command is empty or
//! cannot be started, the file cannot be written, the proof cannot be read.
//!
//! The answer is read with [`super::parse_solver_answer`]: SAT-competition output (`s` and `v`
//! lines) on standard output (CaDiCaL, Kissat, Glucose, ...), or MiniSat's result file, given
//! as a second argument (`minisat in.cnf out.txt`) when the program is MiniSat. Exit codes are
//! not trusted (10 and 20 by convention, but not everywhere). The output accepted is bounded
//! by the number of variables ([`output_bound`]).
//!
//! ```no_run
//! use queens_sat::instance::{Instance, Model};
//! use queens_sat::solve::runner::{self, CnfInput, Outcome, RunRequest, SolverCommand, UnsatCheck};
//! use std::time::Duration;
//!
//! let inst = Instance::new(8, Model::default()).unwrap();
//! let cadical = SolverCommand::parse("cadical -q").unwrap();
//! let request = RunRequest::new(&cadical, CnfInput::instance(&inst, None))
//!     .timeout(Some(Duration::from_secs(10)))
//!     .verify(&inst)
//!     .unsat(UnsatCheck::Refute(&inst));
//! let report = runner::run(&request).unwrap();
//! match report.outcome {
//!     Outcome::Sat { verified: Some(v), .. } => println!("{}", v.placement),
//!     other => println!("{other:?}"),
//! }
//! ```

mod command;
#[cfg(test)]
mod tests;

pub use command::{
    output_bound, solver_version, writes_proofs, SolverCommand, PROOF_SOLVERS, VERSION_TIMEOUT,
};

use super::measure::{LimitHit, MemorySize, Usage};
use super::process::{escape, run_bounded, Limits, ProcessError, TempDirGuard};
use super::{
    check_proof, parse_solver_answer, verify_assignment, AnswerFormat, Assignment,
    ParseAnswerError, ProofError, SolveError, SolverAnswer, VerifyReport,
};
use crate::board::Placement;
use crate::cnf::{ClauseSink, Cnf, DimacsHeader, DimacsWriter};
use crate::instance::{Formula, Instance};
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// What the solver reads.
pub enum CnfInput<'a> {
    /// An instance, written to a DIMACS file with `comment` in its `c` lines.
    Instance {
        /// The instance.
        instance: &'a Instance,
        /// A comment for the file's header (the command line, say).
        comment: Option<&'a str>,
    },
    /// Clauses in memory, written with `vars` in the `p cnf` line and these comment lines (a
    /// formula that need not be what it declares: the cross-checks' variants).
    Clauses {
        /// The clauses.
        cnf: &'a Cnf,
        /// The variable count of the `p cnf` line.
        vars: usize,
        /// Comment lines (without `c `).
        comments: Vec<String>,
    },
    /// An existing DIMACS file; the variable count of its `p cnf` line bounds the output
    /// accepted.
    File(&'a Path),
    /// An existing OPB file (`encode --format opb`) with `vars` variables, for a
    /// pseudo-Boolean solver: its answer is read in the output format of the Pseudo-Boolean
    /// Competition ([`super::parse_pb_answer`]), `v x1 -x2 ...`.
    Opb {
        /// The file.
        path: &'a Path,
        /// The variable count of its `* #variable=` line, which bounds the output accepted.
        vars: usize,
    },
}

impl<'a> CnfInput<'a> {
    /// An instance to write, with an optional comment line.
    pub fn instance(instance: &'a Instance, comment: Option<&'a str>) -> Self {
        CnfInput::Instance { instance, comment }
    }
}

/// How an UNSAT answer is checked.
#[derive(Clone, Copy)]
pub enum UnsatCheck<'a> {
    /// Not checked: reported as the solver gives it ([`UnsatVerdict::Unchecked`]).
    Trust,
    /// The instance is known to have solutions, so the answer is wrong
    /// ([`UnsatVerdict::KnownSatisfiable`]), without solving anything.
    KnownSatisfiable,
    /// A solution is looked for with [`refute_unsat`]: the answer is refuted by one
    /// ([`UnsatVerdict::Refuted`]) or confirmed ([`UnsatVerdict::Confirmed`]).
    Refute(&'a Instance),
}

/// A DRAT proof asked of the solver.
#[derive(Clone, Copy)]
pub struct ProofRequest<'a> {
    /// Where the solver writes it (the argument after the input file).
    pub path: &'a Path,
    /// Check it against this formula after an UNSAT answer that stands (not refuted or
    /// contradicted), with [`super::check_proof`]; `None`: leave it unchecked.
    pub check: Option<&'a dyn Formula>,
}

/// Maps a model of a renamed file back to the formula's variables.
pub type Restore<'a> = &'a dyn Fn(&Assignment) -> Assignment;

/// One run of a solver: what to run, on what, and how to check its answer. Made with
/// [`RunRequest::new`] (no time limit, nothing checked) and the methods that set the rest.
pub struct RunRequest<'a> {
    /// The solver.
    pub solver: &'a SolverCommand,
    /// What it reads.
    pub input: CnfInput<'a>,
    /// Stop it (and every process it started) after this long.
    pub timeout: Option<Duration>,
    /// Stop it once it and its processes have used this much CPU time.
    pub cpu_limit: Option<Duration>,
    /// Stop it once it and its processes hold more than this many bytes of memory.
    pub memory_limit: Option<u64>,
    /// Check a model against this formula: as a board and clause by clause
    /// ([`super::verify_assignment`]).
    pub verify: Option<&'a dyn Formula>,
    /// Map a model back to the formula's variables before checking it (a file whose variables
    /// were renamed).
    pub restore: Option<Restore<'a>>,
    /// How an UNSAT answer is checked.
    pub unsat: UnsatCheck<'a>,
    /// A DRAT proof to ask for.
    pub proof: Option<ProofRequest<'a>>,
}

impl<'a> RunRequest<'a> {
    /// `solver` on `input`, without a time limit, its answer taken as given.
    pub fn new(solver: &'a SolverCommand, input: CnfInput<'a>) -> Self {
        RunRequest {
            solver,
            input,
            timeout: None,
            cpu_limit: None,
            memory_limit: None,
            verify: None,
            restore: None,
            unsat: UnsatCheck::Trust,
            proof: None,
        }
    }

    /// Sets the time limit.
    pub fn timeout(mut self, limit: Option<Duration>) -> Self {
        self.timeout = limit;
        self
    }

    /// Sets the CPU time limit ([`crate::solve::measure`]).
    pub fn cpu_limit(mut self, limit: Option<Duration>) -> Self {
        self.cpu_limit = limit;
        self
    }

    /// Sets the memory limit, in bytes ([`crate::solve::measure`]).
    pub fn memory_limit(mut self, limit: Option<u64>) -> Self {
        self.memory_limit = limit;
        self
    }

    /// Checks a model against `formula`.
    pub fn verify(mut self, formula: &'a dyn Formula) -> Self {
        self.verify = Some(formula);
        self
    }

    /// Maps a model back with `restore` before checking it.
    pub fn restore(mut self, restore: Restore<'a>) -> Self {
        self.restore = Some(restore);
        self
    }

    /// Sets how an UNSAT answer is checked.
    pub fn unsat(mut self, check: UnsatCheck<'a>) -> Self {
        self.unsat = check;
        self
    }

    /// Asks for a DRAT proof.
    pub fn proof(mut self, proof: Option<ProofRequest<'a>>) -> Self {
        self.proof = proof;
        self
    }
}

/// A model that passed the check: the board it describes and the clauses it satisfies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The board.
    pub placement: Placement,
    /// The clauses of the formula, every one true under the model.
    pub clauses: usize,
}

/// How an UNSAT answer was checked ([`UnsatCheck`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnsatVerdict {
    /// Not checked.
    Unchecked,
    /// No solution found: the answer stands.
    Confirmed,
    /// A solution exists: the answer is wrong.
    Refuted(Placement),
    /// The instance is known to have solutions: the answer is wrong.
    KnownSatisfiable,
}

impl UnsatVerdict {
    /// `true` when the answer was shown wrong.
    pub fn is_wrong(&self) -> bool {
        matches!(
            self,
            UnsatVerdict::Refuted(_) | UnsatVerdict::KnownSatisfiable
        )
    }
}

/// What a run gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// SAT. With [`RunRequest::verify`], the model passed the check (`verified`); without, it
    /// is as the solver gave it (`verified` is `None`).
    Sat {
        /// The model (mapped back with [`RunRequest::restore`] if given).
        model: Assignment,
        /// The check it passed.
        verified: Option<Verified>,
    },
    /// SAT, with a model that fails the check of [`RunRequest::verify`].
    WrongModel {
        /// The model.
        model: Assignment,
        /// What is wrong with it.
        report: VerifyReport,
    },
    /// UNSAT.
    Unsat {
        /// How the claim was checked.
        verdict: UnsatVerdict,
        /// The proof's check, when one was asked for and the claim stands.
        proof: Option<crate::proof::Verdict>,
    },
    /// The solver answered UNKNOWN.
    Unknown,
    /// Stopped at a time limit (wall-clock, or CPU: [`RunReport::hit`] says which).
    Timeout {
        /// The limit.
        limit: Duration,
    },
    /// Stopped at the memory limit, or failed under it for want of memory
    /// ([`super::process::Finished::out_of_memory`]).
    Memout {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The solver ran but gave no usable answer.
    Failed(SolverFailure),
}

/// Why a solver that ran gave no usable answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolverFailure {
    /// Its answer could not be read.
    #[error("cannot read the answer of '{program}' (exit code {}): {}{}", code_text(*.exit_code), escape(&.error.to_string(), 300), .stderr.as_ref().map_or_else(String::new, |l| format!("; stderr: {l}")))]
    Unreadable {
        /// The program.
        program: String,
        /// Its exit code, if it exited normally.
        exit_code: Option<i32>,
        /// What is wrong with the answer.
        error: ParseAnswerError,
        /// The last line of its standard error (escaped), if any.
        stderr: Option<String>,
    },
    /// It printed more than the output accepted ([`output_bound`]) and was stopped.
    #[error("'{program}' was stopped: solver output exceeds {limit} bytes")]
    OutputTooLarge {
        /// The program.
        program: String,
        /// The bound.
        limit: usize,
    },
}

impl SolverFailure {
    /// The failure in short, for a status in a table: what is wrong with the answer (escaped,
    /// at most 300 characters), or the whole message for too much output.
    pub fn reason(&self) -> String {
        match self {
            SolverFailure::Unreadable { error, .. } => escape(&error.to_string(), 300),
            other => other.to_string(),
        }
    }
}

/// An exit code as messages give it: the number, or that a signal killed the program.
pub(crate) fn code_text(code: Option<i32>) -> String {
    code.map_or_else(|| "none, killed by a signal".into(), |c| c.to_string())
}

/// What one run gave, with the run's facts.
#[derive(Clone, Debug, PartialEq)]
pub struct RunReport {
    /// The program, as messages name it.
    pub program: String,
    /// The answer, checked as asked.
    pub outcome: Outcome,
    /// The exit code, if the solver exited normally.
    pub exit_code: Option<i32>,
    /// From the start to the exit (or to the kill at the time limit; zero when the output
    /// was too large).
    pub elapsed: Duration,
    /// CPU time and peak memory of the solver and its processes (zero when the output was too
    /// large).
    pub usage: Usage,
    /// The limit that stopped the run, if one did.
    pub hit: Option<LimitHit>,
    /// Conflicts, if the solver printed them (`c conflicts: ...`).
    pub conflicts: Option<u64>,
    /// Decisions, if the solver printed them.
    pub decisions: Option<u64>,
}

impl RunReport {
    /// For a run without an answer (the time limit, a [`SolverFailure`]), what happened in one
    /// line: `'cadical' gave no answer within 10 s and was stopped`. `None` otherwise.
    pub fn failure(&self) -> Option<String> {
        match &self.outcome {
            Outcome::Timeout { limit } => Some(format!(
                "'{}' gave no answer within {} s and was stopped",
                self.program,
                limit.as_secs_f64()
            )),
            Outcome::Memout { limit } => Some(format!(
                "'{}' ran out of memory (limit {})",
                self.program,
                MemorySize(*limit)
            )),
            Outcome::Failed(f) => Some(f.to_string()),
            _ => None,
        }
    }
}

/// Why a run could not be made or checked.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// An empty command.
    #[error("empty solver command")]
    EmptyCommand,
    /// A proof was asked of a solver that is not known to write one.
    #[error("'{program}' is not known to write DRAT proofs; solvers asked for one: {}", PROOF_SOLVERS.join(", "))]
    NoProof {
        /// The program.
        program: String,
    },
    /// The temporary folder or the DIMACS file could not be made.
    #[error("{context}")]
    Input {
        /// What was being done, e.g. `writing /tmp/queens-sat-x/queens-8.cnf`.
        context: String,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// The program could not be started, or waiting for it failed.
    #[error(transparent)]
    Process(ProcessError),
    /// The answer could not be read (MiniSat's result file).
    #[error("{context}")]
    Io {
        /// What was being done.
        context: String,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// Looking for a solution that refutes an UNSAT answer failed.
    #[error(transparent)]
    Refute(SolveError),
    /// Checking the model failed.
    #[error(transparent)]
    Verify(SolveError),
    /// The proof could not be read or checked.
    #[error(transparent)]
    Proof(ProofError),
}

fn input_error(context: impl Into<String>) -> impl FnOnce(io::Error) -> RunError {
    let context = context.into();
    move |source| RunError::Input { context, source }
}

/// Runs the request: writes the input if asked, runs the solver, reads its answer and checks
/// it as asked (see the module documentation).
pub fn run(req: &RunRequest<'_>) -> Result<RunReport, RunError> {
    let solver = req.solver;
    let program = solver.label();
    if req.proof.is_some() {
        solver.check_proofs()?;
    }
    // The folder of a written input, removed when the run is over.
    let mut _written = None;
    let pb = matches!(req.input, CnfInput::Opb { .. });
    let (cnf_path, vars) = match &req.input {
        CnfInput::File(path) => (path.to_path_buf(), header_vars(path)),
        CnfInput::Opb { path, vars } => (path.to_path_buf(), *vars),
        CnfInput::Instance { instance, comment } => {
            let (dir, guard) = TempDirGuard::create("queens-sat-")
                .map_err(input_error("cannot create a temporary folder"))?;
            let path = dir.path().join(format!("queens-{}.cnf", instance.n()));
            write_file(&path, |w| instance.write_dimacs(w, *comment).map(|_| ()))?;
            _written = Some((dir, guard));
            (path, instance.num_vars() as usize)
        }
        CnfInput::Clauses {
            cnf,
            vars,
            comments,
        } => {
            let (dir, guard) = TempDirGuard::create("queens-sat-check-")
                .map_err(input_error("cannot create a temporary folder"))?;
            let path = dir.path().join("formula.cnf");
            let header = DimacsHeader {
                comments: comments.clone(),
                vars: *vars as u64,
                clauses: cnf.len() as u64,
                counting: None,
            };
            write_file(&path, |w| {
                let mut d = DimacsWriter::new(w, &header)?;
                for c in cnf.iter() {
                    d.add_clause(c)?;
                }
                d.finish().map(|_| ())
            })?;
            _written = Some((dir, guard));
            (path, *vars)
        }
    };
    let raw = execute(
        solver,
        &cnf_path,
        vars,
        Limits {
            timeout: req.timeout,
            cpu: req.cpu_limit,
            memory: req.memory_limit,
            ..Limits::default()
        },
        req.proof.map(|p| p.path),
        pb,
    )?;
    let gave_up = given_up_at_cpu_limit(&raw.usage, req.cpu_limit)
        && matches!(raw.answer, Answer::Read(Ok((SolverAnswer::Unknown, _))));
    let outcome = match raw.answer {
        _ if gave_up => Outcome::Timeout {
            limit: req.cpu_limit.unwrap_or_default(),
        },
        Answer::TimedOut => Outcome::Timeout {
            limit: match raw.hit {
                Some(LimitHit::Cpu) => req.cpu_limit,
                _ => req.timeout,
            }
            .unwrap_or_default(),
        },
        Answer::Memout => Outcome::Memout {
            limit: req.memory_limit.unwrap_or_default(),
        },
        Answer::TooLarge(limit) => Outcome::Failed(SolverFailure::OutputTooLarge {
            program: program.clone(),
            limit,
        }),
        Answer::Read(Err(error)) => Outcome::Failed(SolverFailure::Unreadable {
            program: program.clone(),
            exit_code: raw.exit_code,
            error,
            stderr: raw.stderr_last.clone(),
        }),
        Answer::Read(Ok((SolverAnswer::Unknown, _))) => Outcome::Unknown,
        Answer::Read(Ok((SolverAnswer::Sat(model), _))) => check_model(req, model)?,
        Answer::Read(Ok((SolverAnswer::Unsat, _))) => check_unsat(req)?,
    };
    Ok(RunReport {
        program,
        outcome,
        exit_code: raw.exit_code,
        elapsed: raw.elapsed,
        usage: raw.usage,
        hit: if gave_up {
            Some(LimitHit::Cpu)
        } else {
            raw.hit
        },
        conflicts: statistic(&raw.output, "conflicts"),
        decisions: statistic(&raw.output, "decisions"),
    })
}

/// The share of the CPU limit from which an UNKNOWN answer is a stop at the limit
/// ([`given_up_at_cpu_limit`]).
const GIVE_UP_SHARE: f64 = 0.9;

/// Whether a solver that answered UNKNOWN stopped at its CPU limit: it used at least
/// [`GIVE_UP_SHARE`] of it. The kernel's bound (`RLIMIT_CPU`, a second past the limit) can
/// strike before the sampler sees the limit (its clock runs ahead of the sampled account by a
/// second or two on a loaded machine), and a solver that catches the signal and answers
/// UNKNOWN (Exact does) has then reached its limit: [`Outcome::Timeout`], not
/// [`Outcome::Unknown`].
fn given_up_at_cpu_limit(usage: &Usage, cpu: Option<Duration>) -> bool {
    cpu.is_some_and(|c| usage.cpu >= c.mul_f64(GIVE_UP_SHARE))
}

/// The number of variables in the `p cnf` line of a DIMACS file (0 when it cannot be read:
/// the output bound is then the smallest).
fn header_vars(path: &Path) -> usize {
    let Ok(f) = std::fs::File::open(path) else {
        return 0;
    };
    crate::cnf::read_header(io::BufReader::new(f), 1 << 20).map_or(0, |h| h.vars)
}

/// Writes a file through a buffer, naming the file in an error.
fn write_file(
    path: &Path,
    write: impl FnOnce(&mut io::BufWriter<std::fs::File>) -> io::Result<()>,
) -> Result<(), RunError> {
    let writing = || format!("writing {}", path.display());
    let file = std::fs::File::create(path).map_err(|e| input_error(writing())(e))?;
    let mut w = io::BufWriter::with_capacity(1 << 16, file);
    write(&mut w)
        .and_then(|_| w.flush())
        .map_err(|e| input_error(writing())(e))
}

/// A SAT answer's model, mapped back and checked as the request asks.
fn check_model(req: &RunRequest<'_>, model: Assignment) -> Result<Outcome, RunError> {
    let model = match req.restore {
        Some(restore) => restore(&model),
        None => model,
    };
    let Some(f) = req.verify else {
        return Ok(Outcome::Sat {
            model,
            verified: None,
        });
    };
    let report = verify_assignment(f, &model).map_err(RunError::Verify)?;
    Ok(match (&report.placement, report.is_ok()) {
        (Some(p), true) => Outcome::Sat {
            verified: Some(Verified {
                placement: p.clone(),
                clauses: report.clauses,
            }),
            model,
        },
        _ => Outcome::WrongModel { model, report },
    })
}

/// An UNSAT answer, checked as the request asks, and its proof checked if asked.
fn check_unsat(req: &RunRequest<'_>) -> Result<Outcome, RunError> {
    let verdict = match req.unsat {
        UnsatCheck::Trust => UnsatVerdict::Unchecked,
        UnsatCheck::KnownSatisfiable => UnsatVerdict::KnownSatisfiable,
        UnsatCheck::Refute(inst) => match refute_unsat(inst).map_err(RunError::Refute)? {
            Some(p) => UnsatVerdict::Refuted(p),
            None => UnsatVerdict::Confirmed,
        },
    };
    let proof = match req.proof {
        Some(ProofRequest {
            path,
            check: Some(f),
        }) if !verdict.is_wrong() => {
            let file = std::fs::File::open(path)
                .map_err(|e| RunError::Proof(crate::proof::ProofError::Read(e).into()))?;
            Some(
                check_proof(f, io::BufReader::new(file), &Default::default())
                    .map_err(RunError::Proof)?,
            )
        }
        _ => None,
    };
    Ok(Outcome::Unsat { verdict, proof })
}

/// What a solver printed, before any check.
enum Answer {
    /// Stopped at the time limit.
    TimedOut,
    /// Out of memory.
    Memout,
    /// More output than the bound given.
    TooLarge(usize),
    /// The answer read.
    Read(Result<(SolverAnswer, AnswerFormat), ParseAnswerError>),
}

/// One run of a program, before any check.
struct RawRun {
    answer: Answer,
    exit_code: Option<i32>,
    elapsed: Duration,
    usage: Usage,
    hit: Option<LimitHit>,
    /// Standard output (statistics lines), as text.
    output: String,
    /// The last non-empty line of standard error, escaped.
    stderr_last: Option<String>,
}

/// Runs `solver` on the DIMACS file `cnf` (with `vars` variables, which bounds the output
/// accepted), within the time and memory of `limits`; with `proof`, the solver is asked to write
/// its DRAT proof there, as the argument after the input file; with `pb`, the file is OPB and
/// the answer is read as a pseudo-Boolean solver's (`v x1 -x2 ...`, about twice the bytes of
/// a DIMACS model).
fn execute(
    solver: &SolverCommand,
    cnf: &Path,
    vars: usize,
    limits: Limits,
    proof: Option<&Path>,
    pb: bool,
) -> Result<RawRun, RunError> {
    let label = solver.label();
    let max = if pb {
        output_bound(vars).saturating_mul(2)
    } else {
        output_bound(vars)
    };
    let mut cmd = Command::new(&solver.program);
    cmd.args(&solver.args).arg(cnf);
    if let Some(p) = proof {
        cmd.arg(p);
    }
    // MiniSat's result file, in a folder of its own.
    let result = if solver.result_file {
        let (dir, guard) = TempDirGuard::create("queens-sat-")
            .map_err(input_error("cannot create a temporary folder"))?;
        let path = dir.path().join("result.txt");
        cmd.arg(&path);
        Some((dir, guard, path))
    } else {
        None
    };
    let limits = Limits {
        stdout_max: max,
        ..limits
    };
    let too_large = |limit| RawRun {
        answer: Answer::TooLarge(limit),
        exit_code: None,
        elapsed: Duration::ZERO,
        usage: Usage::default(),
        hit: None,
        output: String::new(),
        stderr_last: None,
    };
    let fin = match run_bounded(cmd, &label, &limits) {
        Ok(fin) => fin,
        Err(ProcessError::OutputTooLarge { limit, .. }) => return Ok(too_large(limit)),
        Err(e) => return Err(RunError::Process(e)),
    };
    let mut run = RawRun {
        answer: Answer::TimedOut,
        exit_code: fin.status.and_then(|s| s.code()),
        elapsed: fin.elapsed,
        usage: fin.usage,
        hit: fin.hit,
        output: String::from_utf8_lossy(&fin.stdout).into_owned(),
        stderr_last: fin.stderr_last_line(),
    };
    if fin.timed_out() {
        return Ok(run);
    }
    if fin.out_of_memory(limits.memory) {
        run.answer = Answer::Memout;
        return Ok(run);
    }
    let text = match &result {
        Some((_, _, path)) => match std::fs::File::open(path) {
            // No result file: the parse below reports that there is no answer.
            Err(_) => String::new(),
            Ok(f) => {
                let mut buf = Vec::new();
                f.take(max as u64 + 1)
                    .read_to_end(&mut buf)
                    .map_err(|source| RunError::Io {
                        context: format!("reading {}", path.display()),
                        source,
                    })?;
                if buf.len() > max {
                    return Ok(too_large(max));
                }
                String::from_utf8_lossy(&buf).into_owned()
            }
        },
        None => run.output.clone(),
    };
    run.answer = Answer::Read(if pb {
        super::parse_pb_answer(&text).map(|a| (a, AnswerFormat::Competition))
    } else {
        parse_solver_answer(&text)
    });
    Ok(run)
}

/// The number after `name` in a statistics line such as CaDiCaL's `c conflicts: 1234 ...` or
/// MiniSat's `conflicts             : 1234   (...)`.
fn statistic(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let l = l.trim();
        let l = l.strip_prefix("c ").unwrap_or(l).trim_start();
        let rest = l.strip_prefix(name)?.trim_start();
        let rest = rest.strip_prefix(':')?.trim_start();
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// Checks a claim that the instance has no solution: a solution that refutes it, or `None`
/// when there is indeed none. An empty board of size 1 or at least 4 is answered by the direct
/// construction at once; otherwise the embedded solver decides.
pub fn refute_unsat(inst: &Instance) -> Result<Option<Placement>, SolveError> {
    let n = inst.n();
    if inst.known_satisfiable() == Some(true) {
        if let Ok(Some(p)) = crate::construct::construct(n, crate::construct::Method::default()) {
            if crate::construct::verify(&p).is_ok() {
                return Ok(Some(p));
            }
        }
    }
    super::solve(inst)
}
