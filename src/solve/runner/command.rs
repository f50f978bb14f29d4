//! A solver command: the program, its arguments, how it gives its answer and whether it can
//! write a DRAT proof; and the `--version` probe.

use super::super::process::{escape, run_bounded, Limits, ProcessError};
use super::RunError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Time limit of the `--version` probe.
pub const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

/// Solvers that write a DRAT proof to a file named after the input file
/// (`cadical in.cnf proof.drat`), by program name.
pub const PROOF_SOLVERS: [&str; 2] = ["cadical", "kissat"];

/// A solver command: a program, its arguments, and whether it writes a MiniSat result file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverCommand {
    /// The program.
    pub program: PathBuf,
    /// Arguments before the input file.
    pub args: Vec<String>,
    /// MiniSat style: the answer goes to a result file given after the input file.
    pub result_file: bool,
}

impl SolverCommand {
    /// A command line (`cadical -q`, `minisat`), split at white space; MiniSat is recognised
    /// by its program name.
    pub fn parse(command: &str) -> Result<SolverCommand, RunError> {
        let mut parts = command.split_whitespace();
        let program = parts.next().ok_or(RunError::EmptyCommand)?;
        Ok(SolverCommand {
            program: PathBuf::from(program),
            args: parts.map(String::from).collect(),
            result_file: is_minisat(program),
        })
    }

    /// The program as messages name it.
    pub fn label(&self) -> String {
        self.program.display().to_string()
    }

    /// `Ok` when the solver can be asked for a DRAT proof (one of [`PROOF_SOLVERS`], answering
    /// on standard output), else [`RunError::NoProof`].
    pub fn check_proofs(&self) -> Result<(), RunError> {
        if self.result_file || !writes_proofs(&self.program) {
            return Err(RunError::NoProof {
                program: self.label(),
            });
        }
        Ok(())
    }
}

/// The most standard output (or result-file) bytes accepted from a solver on a formula with
/// `vars` variables: a model needs at most about 12 bytes per variable; generous room is left
/// for comments and statistics.
pub fn output_bound(vars: usize) -> usize {
    (32usize << 20).saturating_add(vars.saturating_mul(24))
}

/// `true` when the program is one of [`PROOF_SOLVERS`], which are asked for a proof by a
/// second file argument.
pub fn writes_proofs(program: &Path) -> bool {
    program
        .file_name()
        .and_then(|f| f.to_str())
        .is_some_and(|f| {
            let f = f.to_ascii_lowercase();
            PROOF_SOLVERS.iter().any(|s| f.starts_with(s))
        })
}

/// `true` when the program is MiniSat, which writes its answer to a result file.
fn is_minisat(program: &str) -> bool {
    Path::new(program)
        .file_name()
        .and_then(|f| f.to_str())
        .is_some_and(|f| f.to_ascii_lowercase().starts_with("minisat"))
}

/// The version a program reports (`program --version`, first non-empty line, escaped),
/// `Some("unknown")` when it runs but says nothing usable within [`VERSION_TIMEOUT`], `None`
/// when it cannot be run at all.
pub fn solver_version(program: &Path) -> Option<String> {
    let mut cmd = Command::new(program);
    cmd.arg("--version");
    let limits = Limits {
        timeout: Some(VERSION_TIMEOUT),
        stdout_max: 1 << 16,
        stderr_tail: 256,
        ..Limits::default()
    };
    let fin = match run_bounded(cmd, &program.display().to_string(), &limits) {
        Err(ProcessError::Spawn { .. }) => return None,
        Err(_) => return Some("unknown".into()),
        Ok(f) => f,
    };
    if fin.timed_out() || !fin.status.is_some_and(|s| s.success()) {
        return Some("unknown".into());
    }
    let out = String::from_utf8_lossy(&fin.stdout);
    let first = out.lines().map(str::trim).find(|l| !l.is_empty());
    Some(first.map_or_else(|| "unknown".to_string(), |v| escape(v, 200)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_minisat_and_proof_writers() {
        assert!(is_minisat("minisat"));
        assert!(is_minisat("/usr/bin/minisat"));
        assert!(!is_minisat("cadical"));
        assert!(writes_proofs(Path::new("/usr/bin/cadical")));
        assert!(writes_proofs(Path::new("kissat")));
        assert!(!writes_proofs(Path::new("minisat")));
        let minisat = SolverCommand::parse("minisat -verb=0").unwrap();
        assert!(minisat.result_file);
        assert_eq!(minisat.args, ["-verb=0"]);
        let e = minisat.check_proofs().unwrap_err();
        assert!(e.to_string().contains("cadical, kissat"), "{e}");
        assert!(SolverCommand::parse("cadical -q")
            .unwrap()
            .check_proofs()
            .is_ok());
        assert!(matches!(
            SolverCommand::parse("  "),
            Err(RunError::EmptyCommand)
        ));
    }
}
