//! Running one solver on one DIMACS file with a time limit, and reading what it said.

use crate::board::Placement;
use crate::check::check_placement;
use crate::instance::Formula;
use crate::solve::{parse_solver_answer, Assignment, SolverAnswer};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

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
        let mut parts = command.split_whitespace();
        let program = parts.next()?;
        let result_file = Path::new(program)
            .file_name()
            .and_then(|f| f.to_str())
            .is_some_and(|f| f.to_ascii_lowercase().starts_with("minisat"));
        Some(SolverSpec {
            name: command.trim().to_string(),
            program: PathBuf::from(program),
            args: parts.map(String::from).collect(),
            result_file,
            version: None,
        })
    }
}

/// What one run gave.
#[derive(Debug)]
pub struct RunOutcome {
    /// `Ok(Some(model))` SAT with the model printed, `Ok(None)` UNSAT, `Err` no usable answer
    /// (unreadable, or UNKNOWN). Meaningless when `timed_out`.
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

/// Runs `solver` on `cnf`, killing it after `timeout`.
pub fn run_with_timeout(solver: &SolverSpec, cnf: &Path, timeout: Duration) -> Result<RunOutcome> {
    let dir = tempfile::tempdir()?;
    let stdout_path = dir.path().join("stdout");
    let result_path = dir.path().join("result");
    let stdout = std::fs::File::create(&stdout_path)?;
    let mut cmd = Command::new(&solver.program);
    cmd.args(&solver.args).arg(cnf);
    if solver.result_file {
        cmd.arg(&result_path);
    }
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot run {}", solver.program.display()))?;
    let status = child.wait_timeout(timeout)?;
    let elapsed = start.elapsed();
    let timed_out = status.is_none();
    if timed_out {
        let _ = child.kill();
        let _ = child.wait();
    }
    let text = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let answer_text = if solver.result_file {
        std::fs::read_to_string(&result_path).unwrap_or_default()
    } else {
        text.clone()
    };
    Ok(RunOutcome {
        answer: parse_answer(&answer_text),
        timed_out,
        elapsed,
        conflicts: statistic(&text, "conflicts"),
        decisions: statistic(&text, "decisions"),
    })
}

/// Reads the answer with [`crate::solve::parse_solver_answer`].
fn parse_answer(text: &str) -> std::result::Result<Option<Assignment>, String> {
    match parse_solver_answer(text) {
        Ok((SolverAnswer::Sat(a), _)) => Ok(Some(a)),
        Ok((SolverAnswer::Unsat, _)) => Ok(None),
        Ok((SolverAnswer::Unknown, _)) => Err("the solver answered UNKNOWN".to_string()),
        Err(e) => Err(e.to_string()),
    }
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

/// Checks that a model describes an n-queens solution: exactly one queen per row (from the
/// cell variables) and no two queens attacking. Says what is wrong otherwise.
pub(crate) fn check_model(n: usize, model: &Assignment) -> std::result::Result<Placement, String> {
    let inst = crate::instance::Instance::new(n, Default::default()).map_err(|e| e.to_string())?;
    let p = inst
        .decode(&model.to_bools(n * n))
        .map_err(|e| e.to_string())?;
    check_placement(&p).map_err(|v| v.to_string())?;
    Ok(p)
}

/// The solver's version as it reports it (`--version`, first line), `Some("unknown")` when it
/// runs but says nothing, `None` when it cannot be run at all.
pub fn solver_version(solver: &SolverSpec) -> Option<String> {
    if let Some(v) = &solver.version {
        return Some(v.clone());
    }
    let mut child = Command::new(&solver.program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let status = child.wait_timeout(Duration::from_secs(2)).ok()?;
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        return Some("unknown".into());
    }
    let mut out = String::new();
    use std::io::Read;
    child.stdout.take()?.read_to_string(&mut out).ok()?;
    let first = out.lines().map(str::trim).find(|l| !l.is_empty());
    Some(match first {
        Some(v) if status.is_some_and(|s| s.success()) => v.to_string(),
        _ => "unknown".to_string(),
    })
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

    #[test]
    fn decodes_models_to_placements() {
        let p = check_model(4, &model(&[2, 8, 9, 15, -1])).unwrap();
        assert_eq!(p.cols(), &[1, 3, 0, 2]);
        assert_eq!(
            check_model(4, &model(&[2, 8, 9])).unwrap_err(),
            "row 4 has no queen"
        );
        assert!(check_model(4, &model(&[1, 2, 8, 9, 15]))
            .unwrap_err()
            .starts_with("row 1 has 2 queens"));
        assert!(check_model(4, &model(&[1, 6, 12, 15]))
            .unwrap_err()
            .contains("share"));
    }
}
