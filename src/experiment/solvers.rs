//! The solvers of a sweep (each run through [`crate::solve::runner`]) and the facts recorded
//! with its results: solver versions and the machine.

use crate::solve::SolverCommand;
use std::path::PathBuf;

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
