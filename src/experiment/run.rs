//! Running one solver on one DIMACS file with a time limit, and reading what it said.

use crate::solve::process::ProcessError;
use crate::solve::{
    dimacs_vars, run_solver, Assignment, ExternalError, ParseAnswerError, SolverAnswer,
    SolverCommand,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A solver: a program (with arguments) that takes a DIMACS file as its last argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverSpec {
    /// The name used in results (`varisat`, `cadical`, `kissat -q`, ...).
    pub name: String,
    /// The program.
    pub program: PathBuf,
    /// Arguments before the file.
    pub args: Vec<String>,
    /// MiniSat style: the answer goes to a result file given after the input file.
    pub result_file: bool,
    /// The version to record, when the program cannot say it (`None`: ask `--version`).
    pub version: Option<String>,
}

impl SolverSpec {
    /// A solver from its command line (`cadical`, `kissat --sat`, `minisat`): MiniSat is
    /// recognised by its program name and given a result file.
    pub fn command(command: &str) -> Option<SolverSpec> {
        let c = SolverCommand::parse(command).ok()?;
        Some(SolverSpec {
            name: command.trim().to_string(),
            program: c.program,
            args: c.args,
            result_file: c.result_file,
            version: None,
        })
    }

    /// The command to run.
    pub fn to_command(&self) -> SolverCommand {
        SolverCommand {
            program: self.program.clone(),
            args: self.args.clone(),
            result_file: self.result_file,
        }
    }
}

/// What one run gave.
#[derive(Debug)]
pub struct RunOutcome {
    /// `Ok(Some(model))` SAT with the model printed, `Ok(None)` UNSAT, `Err` no usable answer
    /// (unreadable, UNKNOWN, too much output). Meaningless when `timed_out`.
    pub answer: std::result::Result<Option<Assignment>, String>,
    /// The run was stopped at the time limit.
    pub timed_out: bool,
    /// Wall time from start to exit (or to the kill).
    pub elapsed: Duration,
    /// Conflicts, if the solver printed them.
    pub conflicts: Option<u64>,
    /// Decisions, if the solver printed them.
    pub decisions: Option<u64>,
}

/// Runs `solver` on `cnf`, killing its process group after `timeout`. The output accepted is
/// bounded by the number of variables in the file's `p cnf` line; a solver printing more is
/// stopped and its answer is an error. Errors only when the solver cannot be run at all.
pub fn run_with_timeout(
    solver: &SolverSpec,
    cnf: &Path,
    timeout: Duration,
) -> Result<RunOutcome, ExternalError> {
    let vars = dimacs_vars(cnf).unwrap_or(0);
    match run_solver(&solver.to_command(), cnf, vars, Some(timeout)) {
        Ok(run) => Ok(RunOutcome {
            timed_out: run.answer.is_none(),
            answer: match run.answer {
                Some(a) => answer_of(a),
                None => Err("stopped at the time limit".into()),
            },
            elapsed: run.elapsed,
            conflicts: statistic(&run.output, "conflicts"),
            decisions: statistic(&run.output, "decisions"),
        }),
        Err(e @ ExternalError::Process(ProcessError::OutputTooLarge { .. })) => Ok(RunOutcome {
            answer: Err(e.to_string()),
            timed_out: false,
            elapsed: Duration::ZERO,
            conflicts: None,
            decisions: None,
        }),
        Err(e) => Err(e),
    }
}

/// The answer as [`RunOutcome::answer`] has it.
fn answer_of(
    a: std::result::Result<(SolverAnswer, crate::solve::AnswerFormat), ParseAnswerError>,
) -> std::result::Result<Option<Assignment>, String> {
    match a {
        Ok((SolverAnswer::Sat(a), _)) => Ok(Some(a)),
        Ok((SolverAnswer::Unsat, _)) => Ok(None),
        Ok((SolverAnswer::Unknown, _)) => Err("the solver answered UNKNOWN".to_string()),
        Err(e) => Err(crate::solve::process::escape(&e.to_string(), 300)),
    }
}

/// Reads the answer with [`crate::solve::parse_solver_answer`].
#[cfg(test)]
fn parse_answer(text: &str) -> std::result::Result<Option<Assignment>, String> {
    answer_of(crate::solve::parse_solver_answer(text))
}

/// The number after `name` in a statistics line such as CaDiCaL's `c conflicts: 1234 ...` or
/// MiniSat's `conflicts             : 1234   (...)`.
pub(crate) fn statistic(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let l = l.trim();
        let l = l.strip_prefix("c ").unwrap_or(l).trim_start();
        let rest = l.strip_prefix(name)?.trim_start();
        let rest = rest.strip_prefix(':')?.trim_start();
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// The solver's version as it reports it (`--version`, first line), `Some("unknown")` when it
/// runs but says nothing (within [`crate::solve::VERSION_TIMEOUT`]), `None` when it cannot be
/// run at all.
pub fn solver_version(solver: &SolverSpec) -> Option<String> {
    if let Some(v) = &solver.version {
        return Some(v.clone());
    }
    crate::solve::solver_version(&solver.program)
}

/// CPU model, cores and memory of this machine, e.g. `Intel(R) Xeon(R) Processor, 2 cores, 24 GiB`.
pub fn machine_description() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemTotal"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| format!(", {} GiB", (kb + (1 << 19)) >> 20))
        .unwrap_or_default();
    format!("{cpu}, {cores} cores{mem}, {}", std::env::consts::OS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_statistics_lines() {
        let cadical =
            "c conflicts:                  1234       5.00 per second\nc decisions:  99 x";
        assert_eq!(statistic(cadical, "conflicts"), Some(1234));
        assert_eq!(statistic(cadical, "decisions"), Some(99));
        let minisat = "conflicts             : 17             (1700 /sec)\n";
        assert_eq!(statistic(minisat, "conflicts"), Some(17));
        assert_eq!(statistic("nothing", "conflicts"), None);
    }

    fn model(lits: &[isize]) -> Assignment {
        let lits: Vec<crate::Lit> = lits.iter().map(|&l| crate::Lit::from_dimacs(l)).collect();
        Assignment::from_lits(&lits)
    }

    #[test]
    fn reads_answers() {
        assert_eq!(
            parse_answer("c x\ns SATISFIABLE\nv 1 -2\nv 3 0\n"),
            Ok(Some(model(&[1, -2, 3])))
        );
        assert_eq!(parse_answer("UNSAT\n"), Ok(None));
        assert!(parse_answer("").is_err());
        assert!(parse_answer("s UNKNOWN\n").is_err());
    }
}
