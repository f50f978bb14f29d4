//! One run of one solver on one instance, in the form the solver reads ([`Target`]): an
//! engine of queens-sat on the board, a SAT solver on the DIMACS file, a pseudo-Boolean solver
//! on the OPB form, each a process measured and bounded by [`Limits`], its answer checked
//! ([`attempt`], what a sweep's row repeats); or a chain of solvers ([`run_chain`]).
//!
//! A chain (`search@60+exact`, [`Stage`]) runs its stages one after the other until one
//! answers SAT or UNSAT (checked as every answer is), or gives a wrong answer, which ends the
//! chain as `WRONG`; a stage that stops at its budget, runs out of memory or fails hands the
//! instance on. A stage's budget, `@SECONDS`, is CPU time (user + system of its processes); a
//! stage without one gets [`DEFAULT_STAGE_BUDGET`], the last stage everything that is left.
//! Every stage is also bounded by what is left of the run's own limits (its wall-clock time
//! and CPU time), and its wall-clock time by [`WALL_PER_CPU`] times its budget, so that a
//! stage that waits without computing ends too.

use super::solvers::Stage;
use super::{SolverSpec, SweepError};
use crate::board::Placement;
use crate::cnf::Lit;
use crate::instance::Instance;
use crate::solve::process::{run_bounded, Limits};
use crate::solve::runner;
use crate::solve::Assignment;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The CPU time of a stage that names no budget, unless it is the last.
pub const DEFAULT_STAGE_BUDGET: Duration = Duration::from_secs(10);

/// A stage's wall-clock bound, as a multiple of its CPU budget.
pub const WALL_PER_CPU: u32 = 10;

/// An instance in the forms its solvers read, and what its answers are checked against.
pub struct Target<'a> {
    /// The formula's instance: every model is checked against its board and clauses.
    pub instance: &'a Instance,
    /// The DIMACS file of its formula, as written (perhaps a shuffled copy).
    pub dimacs: &'a Path,
    /// Maps a model of the DIMACS file back to the formula's variables (a shuffled copy).
    pub restore: Option<&'a super::shuffle::Shuffle>,
    /// The board as the engines' command line takes it: `N`, or `--instance FILE`.
    pub board: Vec<String>,
    /// The folder where the OPB form is written when a pseudo-Boolean solver first needs it.
    pub dir: &'a Path,
    /// The OPB form, once written: its path and variable count.
    pub opb: RefCell<Option<(PathBuf, usize)>>,
    /// `Some(true)` when the instance is known to have solutions: UNSAT is then wrong.
    pub known: Option<bool>,
    /// Threads of the search engine (1 when `None`).
    pub search_threads: Option<usize>,
    /// Where the stages that can prove a refutation write their proofs (`None`: no proofs):
    /// the search its certificate, `search.pbp` ([`SEARCH_PROOF`]; it then walks on one
    /// thread), the propagator its certificate, `propagator.pbp` ([`PROPAGATOR_PROOF`]), Exact
    /// its proof log, `exact.proof` ([`EXACT_PROOF_LOG`]), all against the OPB form of the
    /// instance.
    pub proofs: Option<&'a Path>,
}

/// The file of the search's certificate in [`Target::proofs`].
pub const SEARCH_PROOF: &str = "search.pbp";

/// The file of the propagator's certificate in [`Target::proofs`].
pub const PROPAGATOR_PROOF: &str = "propagator.pbp";

/// The file of Exact's proof log in [`Target::proofs`] (Exact adds `.proof` to the name it is
/// given, and writes the formula as it read it beside, `.formula`).
pub const EXACT_PROOF_LOG: &str = "exact.proof";

/// What one run gave: its status (`SAT`, `UNSAT`, `TIMEOUT`, `MEMOUT`, `UNKNOWN`, `WRONG: ...`,
/// `ERROR: ...`), what it measured, and the board of a SAT answer.
#[derive(Clone, Debug, Default)]
pub struct Attempt {
    /// The status, as a row shows it.
    pub status: String,
    /// Wall-clock time from the start to the end (zero when the run did not start).
    pub wall: Duration,
    /// CPU time, user + system, of the solver and its processes.
    pub cpu: Duration,
    /// The largest memory of the solver and its processes together, in bytes.
    pub max_rss: u64,
    /// Conflicts, if the solver printed them.
    pub conflicts: Option<u64>,
    /// Decisions, if the solver printed them.
    pub decisions: Option<u64>,
    /// The board of a SAT answer, checked.
    pub placement: Option<Placement>,
    /// In a chain, the stage that answered (SAT, UNSAT or wrongly), by name.
    pub decided_by: Option<String>,
}

impl Attempt {
    /// The run answered SAT or UNSAT (and the answer passed its checks).
    pub fn decided(&self) -> bool {
        self.status == "SAT" || self.status == "UNSAT"
    }

    /// The run started and was measured.
    pub fn ran(&self) -> bool {
        self.wall > Duration::ZERO
    }

    /// The run of a solver program as the runner reports it, with its status.
    pub(super) fn of_report(out: &runner::RunReport, status: String) -> Attempt {
        Attempt {
            status,
            wall: out.elapsed,
            cpu: out.usage.cpu,
            max_rss: out.usage.max_rss,
            conflicts: out.conflicts,
            decisions: out.decisions,
            placement: None,
            decided_by: None,
        }
    }

    /// A run that gave no answer: `ERROR: message`.
    pub(super) fn error(message: &str) -> Attempt {
        Attempt {
            status: format!("ERROR: {}", one_line(message)),
            ..Attempt::default()
        }
    }
}

/// Runs `solver` once on `target` within `limits`. An error only when a file cannot be
/// written; a solver that fails gives an `ERROR` status.
pub fn attempt(
    solver: &SolverSpec,
    target: &Target,
    limits: &Limits,
) -> Result<Attempt, SweepError> {
    if !solver.stages.is_empty() {
        return run_chain(&solver.stages, target, limits).map(|c| c.attempt);
    }
    if solver.search || solver.propagator {
        return Ok(run_engine(solver, target, limits));
    }
    let mut command = solver.to_command();
    if let (Some(dir), true) = (target.proofs, solver.logs_proofs()) {
        let base = dir.join(EXACT_PROOF_LOG.trim_end_matches(".proof"));
        command.args.push(format!("proof-log={}", base.display()));
    }
    let restore = |m: &Assignment| target.restore.map_or_else(|| m.clone(), |s| s.restore(m));
    let extend = |m: &Assignment| extend_cells(target.instance, m);
    let opb = if solver.opb {
        Some(opb_form(target)?)
    } else {
        None
    };
    let input = match &opb {
        Some((path, vars)) => runner::CnfInput::Opb { path, vars: *vars },
        None => runner::CnfInput::File(target.dimacs),
    };
    let request = runner::RunRequest::new(&command, input)
        .timeout(limits.timeout)
        .cpu_limit(limits.cpu)
        .memory_limit(limits.memory)
        .verify(target.instance)
        .restore(if solver.opb {
            &extend as runner::Restore
        } else {
            &restore
        })
        .unsat(if target.known == Some(true) {
            runner::UnsatCheck::KnownSatisfiable
        } else {
            runner::UnsatCheck::Trust
        });
    let out = match runner::run(&request) {
        Ok(out) => out,
        Err(runner::RunError::Verify(e)) => {
            return Ok(Attempt::error(&format!("cannot check the model: {e}")))
        }
        Err(e) => return Ok(Attempt::error(&format!("{e:#}"))),
    };
    let placement = match &out.outcome {
        runner::Outcome::Sat {
            verified: Some(v), ..
        } => Some(v.placement.clone()),
        _ => None,
    };
    Ok(Attempt {
        placement,
        ..Attempt::of_report(&out, run_status(&out.outcome, solver))
    })
}

/// The OPB form of the target, written the first time it is needed: its path and variable
/// count.
fn opb_form(target: &Target) -> Result<(PathBuf, usize), SweepError> {
    if let Some(done) = target.opb.borrow().as_ref() {
        return Ok(done.clone());
    }
    let enc = target.instance;
    let path = target.dir.join(format!("q{}.opb", enc.n()));
    let opb_err = |e: crate::instance::OpbError| SweepError::Io {
        what: format!("cannot write the OPB form to {}", path.display()),
        source: std::io::Error::other(e.to_string()),
    };
    let (vars, _) = enc.opb_constraints().map_err(opb_err)?;
    let file = std::fs::File::create(&path).map_err(|e| opb_err(e.into()))?;
    enc.write_opb(std::io::BufWriter::with_capacity(1 << 16, file), None)
        .map_err(opb_err)?;
    *target.opb.borrow_mut() = Some((path.clone(), vars));
    Ok((path, vars))
}

/// The status of a row for the outcome of a run of `solver`: `SAT`, `UNSAT`, `TIMEOUT`,
/// `MEMOUT`, `UNKNOWN` (an incomplete solver's no answer, [`SolverSpec::incomplete`]),
/// `WRONG: ...` (a model that fails its check, UNSAT for an instance known to have solutions)
/// or `ERROR: ...` (no usable answer).
pub(super) fn run_status(outcome: &runner::Outcome, solver: &SolverSpec) -> String {
    use runner::Outcome;
    match outcome {
        Outcome::Unknown if solver.incomplete() => "UNKNOWN".to_string(),
        Outcome::Timeout { .. } => "TIMEOUT".to_string(),
        Outcome::Memout { .. } => "MEMOUT".to_string(),
        Outcome::Failed(f) => format!("ERROR: {}", one_line(&f.reason())),
        Outcome::Unknown => "ERROR: the solver answered UNKNOWN".to_string(),
        Outcome::Unsat { verdict, .. } if verdict.is_wrong() => "WRONG: UNSAT".to_string(),
        Outcome::Unsat { .. } => "UNSAT".to_string(),
        Outcome::Sat { .. } => "SAT".to_string(),
        Outcome::WrongModel { report, .. } => match (&report.board, &report.cnf) {
            (Err(b), _) => format!("WRONG: {}", one_line(&b.to_string())),
            (_, Err(p)) => format!("WRONG: {}", one_line(&p.to_string())),
            (Ok(()), Ok(())) => "SAT".to_string(),
        },
    }
}

/// An engine of queens-sat itself (`search`, `propagator`) run as a child process of this
/// program, as the embedded SAT solvers are: `PROGRAM solve N|--instance FILE --engine E
/// --format line`, measured and limited as every solver is. The placement the engine prints is
/// checked against the target's formula, as a board and clause by clause; UNSAT is wrong for
/// an instance known to have solutions.
fn run_engine(solver: &SolverSpec, target: &Target, limits: &Limits) -> Attempt {
    let engine = if solver.search {
        "search"
    } else {
        "propagator"
    };
    let mut cmd = std::process::Command::new(&solver.program);
    cmd.arg("solve")
        .args(&target.board)
        .args(["--engine", engine, "--format", "line"]);
    if solver.search {
        match target.proofs {
            Some(dir) => {
                cmd.args(["--threads", "1", "--proof"]);
                cmd.arg(dir.join(SEARCH_PROOF));
            }
            None => {
                let threads = solver.threads.or(target.search_threads).unwrap_or(1);
                cmd.args(["--threads", &threads.to_string()]);
            }
        }
    } else if let Some(dir) = target.proofs {
        cmd.arg("--proof").arg(dir.join(PROPAGATOR_PROOF));
        cmd.args(["--proof-format", "veripb"]);
    }
    cmd.args(
        solver
            .options
            .iter()
            .map(|o| format!("--solver-option={o}")),
    );
    let fin = match run_bounded(cmd, &solver.name, limits) {
        Ok(fin) => fin,
        Err(e) => return Attempt::error(&e.to_string()),
    };
    let (status, placement) = engine_status(&fin, target, limits);
    Attempt {
        status,
        wall: fin.elapsed,
        cpu: fin.usage.cpu,
        max_rss: fin.usage.max_rss,
        conflicts: None,
        decisions: None,
        placement,
        decided_by: None,
    }
}

/// The status of a run of an engine of queens-sat ([`run_engine`]), and its checked board.
fn engine_status(
    fin: &crate::solve::process::Finished,
    target: &Target,
    limits: &Limits,
) -> (String, Option<Placement>) {
    if fin.timed_out() {
        return ("TIMEOUT".into(), None);
    }
    if fin.out_of_memory(limits.memory) {
        return ("MEMOUT".into(), None);
    }
    let said = fin
        .stderr_last_line()
        .map_or_else(String::new, |l| format!("; stderr: {l}"));
    let error = |m: String| (format!("ERROR: {}", one_line(&m)), None);
    let code = fin.status.and_then(|s| s.code());
    // With a proof asked for, the engine that finds a solution prints it and exits 1 (no
    // proof is written): the solution is read and checked as any other.
    let solution_without_proof = target.proofs.is_some()
        && code == Some(1)
        && !fin.stdout.iter().all(u8::is_ascii_whitespace);
    if !fin.status.is_some_and(|s| s.success()) && !solution_without_proof {
        let code = runner::code_text(code);
        return error(format!("the engine failed (exit code {code}){said}"));
    }
    let text = String::from_utf8_lossy(&fin.stdout);
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.starts_with("no solution") {
        let status = if target.known == Some(true) {
            "WRONG: UNSAT"
        } else {
            "UNSAT"
        };
        return (status.into(), None);
    }
    let enc = target.instance;
    let placement = match Placement::parse_one_line(line, Some(enc.n())) {
        Ok(p) => p,
        Err(e) => return error(format!("cannot read the engine's answer: {e}{said}")),
    };
    match crate::solve::verify_placement(enc, &placement) {
        Ok(report) => match (&report.board, &report.cnf) {
            (Err(b), _) => (format!("WRONG: {}", one_line(&b.to_string())), None),
            (_, Err(p)) => (format!("WRONG: {}", one_line(&p.to_string())), None),
            (Ok(()), Ok(())) => ("SAT".into(), Some(placement)),
        },
        Err(e) => error(format!("cannot check the model: {e}")),
    }
}

/// The model of a pseudo-Boolean solver, which names the cells by their DIMACS numbers (the
/// OPB's other variables are its own), as a model of the formula: the cells' values, extended
/// to the formula's auxiliaries by the embedded solver with the cells fixed. Where no
/// extension exists (the board breaks a clause), the cells alone, which the clause check
/// then rejects. Only for models whose variables `1..=n^2` are the cells (those OPB takes).
fn extend_cells(enc: &Instance, model: &Assignment) -> Assignment {
    let n = enc.n();
    let cells: Vec<Lit> = (0..n * n)
        .map(|i| {
            let v = crate::cnf::Var::from_index(i);
            Lit::from_var(v, model.value(v).unwrap_or(false))
        })
        .collect();
    let cnf = crate::instance::to_labelled_cnf(enc).cnf;
    let mut solver = varisat::Solver::new();
    solver.add_formula(&cnf.to_varisat());
    solver.assume(&cells);
    match solver.solve() {
        Ok(true) => Assignment::from_lits(&solver.model().unwrap_or_default()),
        _ => Assignment::from_lits(&cells),
    }
}

/// A message on one line (for a status in a table or CSV).
pub(super) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a chain did: the run as a whole (its status that of the stage that decided, or of
/// the last stage run; the times summed over the stages, the memory the largest; the stage
/// that decided in [`Attempt::decided_by`]), and each stage's own run.
#[derive(Clone, Debug, Default)]
pub struct ChainRun {
    /// The chain's run as one.
    pub attempt: Attempt,
    /// Each stage run, in order.
    pub stages: Vec<StageRun>,
}

/// The run of one stage of a chain.
#[derive(Clone, Debug, Default)]
pub struct StageRun {
    /// What it gave.
    pub attempt: Attempt,
    /// The CPU time it was given (`None`: no bound).
    pub budget: Option<Duration>,
}

/// Runs the stages on `target` within `limits` ([`Limits::timeout`] and [`Limits::cpu`]
/// bound the whole chain; [`Limits::memory`] each stage).
pub fn run_chain(
    stages: &[Stage],
    target: &Target,
    limits: &Limits,
) -> Result<ChainRun, SweepError> {
    let mut run = ChainRun::default();
    let mut total = Attempt::default();
    for (i, stage) in stages.iter().enumerate() {
        let last = i + 1 == stages.len();
        let left_wall = limits.timeout.map(|t| t.saturating_sub(total.wall));
        let left_cpu = limits.cpu.map(|c| c.saturating_sub(total.cpu));
        let budget = match (stage.budget, last) {
            (Some(b), _) => Some(b),
            (None, false) => Some(DEFAULT_STAGE_BUDGET),
            (None, true) => None,
        };
        let cpu = min_of(budget, left_cpu);
        let wall = min_of(left_wall, budget.map(|b| b * WALL_PER_CPU));
        if cpu.is_some_and(|c| c.is_zero()) || wall.is_some_and(|w| w.is_zero()) {
            total.status = "TIMEOUT".into();
            break;
        }
        let stage_limits = Limits {
            timeout: wall,
            cpu,
            ..limits.clone()
        };
        let a = attempt(&stage.solver, target, &stage_limits)?;
        total.wall += a.wall;
        total.cpu += a.cpu;
        total.max_rss = total.max_rss.max(a.max_rss);
        total.status = a.status.clone();
        run.stages.push(StageRun {
            attempt: a.clone(),
            budget: cpu,
        });
        if a.decided() || a.status.starts_with("WRONG") {
            total.conflicts = a.conflicts;
            total.decisions = a.decisions;
            total.placement = a.placement;
            total.decided_by = Some(stage.solver.name.clone());
            break;
        }
    }
    run.attempt = total;
    Ok(run)
}

/// The smaller of two optional bounds (`None`: no bound).
fn min_of(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smaller_bound_holds() {
        let s = Duration::from_secs;
        assert_eq!(min_of(Some(s(3)), Some(s(5))), Some(s(3)));
        assert_eq!(min_of(None, Some(s(5))), Some(s(5)));
        assert_eq!(min_of(Some(s(3)), None), Some(s(3)));
        assert_eq!(min_of(None, None), None);
    }
}
