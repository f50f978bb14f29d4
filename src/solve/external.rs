//! Running an external SAT solver on the exported CNF.
//!
//! The formula is written to a DIMACS file in a temporary folder and the command is run on
//! it. Solvers that print SAT-competition output (CaDiCaL, Kissat, Glucose, ...) are read from
//! their standard output; MiniSat, which writes its answer to a result file given as a second
//! argument (`minisat in.cnf out.txt`), is recognised by its program name. Exit codes are not
//! trusted on their own (10/20 by convention, but not everywhere): the answer is parsed with
//! [`super::parse_solver_answer`].

use super::{parse_solver_answer, AnswerFormat, ParseAnswerError, SolveError, SolverAnswer};
use crate::instance::Instance;
use std::path::Path;
use std::process::{Command, Stdio};

/// What an external solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalAnswer {
    /// The parsed answer.
    pub answer: SolverAnswer,
    /// Its format.
    pub format: AnswerFormat,
    /// The solver's exit code, if it exited normally.
    pub exit_code: Option<i32>,
    /// The program run.
    pub program: String,
}

/// Why an external solver gave no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    /// The formula could not be made.
    #[error(transparent)]
    Setup(#[from] SolveError),
    /// An empty command.
    #[error("empty solver command")]
    EmptyCommand,
    /// The program could not be started.
    #[error("cannot run solver '{program}': {reason}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        reason: String,
    },
    /// Writing the CNF or reading the answer failed.
    #[error("{0}")]
    Io(String),
    /// The answer could not be read.
    #[error("cannot read the answer of '{program}' (exit code {code}): {error}{stderr}")]
    Parse {
        /// The program.
        program: String,
        /// Its exit code, as text.
        code: String,
        /// The parse error.
        error: ParseAnswerError,
        /// The last line of its standard error, if any, prefixed by "; stderr: ".
        stderr: String,
    },
}

/// `true` when the program is MiniSat, which writes its answer to a result file.
fn is_minisat(program: &str) -> bool {
    Path::new(program)
        .file_name()
        .and_then(|f| f.to_str())
        .is_some_and(|f| f.to_ascii_lowercase().starts_with("minisat"))
}

/// Runs `command` (a program and its arguments, separated by white space) on the CNF of the
/// instance and parses its answer. `comment` goes into the CNF's `c`
/// lines.
pub fn run_external(
    command: &str,
    inst: &Instance,
    comment: Option<&str>,
) -> Result<ExternalAnswer, ExternalError> {
    let mut parts = command.split_whitespace();
    let program = parts.next().ok_or(ExternalError::EmptyCommand)?.to_string();
    let args: Vec<&str> = parts.collect();
    let n = inst.n();
    let dir = tempfile::Builder::new()
        .prefix("queens-sat-")
        .tempdir()
        .map_err(|e| ExternalError::Io(format!("cannot create a temporary folder: {e}")))?;
    let cnf_path = dir.path().join(format!("queens-{n}.cnf"));
    let file = std::fs::File::create(&cnf_path)
        .map_err(|e| ExternalError::Io(format!("cannot write {}: {e}", cnf_path.display())))?;
    inst.write_dimacs(std::io::BufWriter::new(file), comment)
        .map_err(|e| ExternalError::Io(format!("cannot write {}: {e}", cnf_path.display())))?;
    let result_path = dir.path().join("result.txt");
    let mut cmd = Command::new(&program);
    cmd.args(&args).arg(&cnf_path);
    let minisat = is_minisat(&program);
    if minisat {
        cmd.arg(&result_path);
    }
    let out = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| ExternalError::Spawn {
            program: program.clone(),
            reason: if e.kind() == std::io::ErrorKind::NotFound {
                "not found (is it installed and on PATH?)".to_string()
            } else {
                e.to_string()
            },
        })?;
    let text = if minisat {
        // No result file: the parse below reports that there is no answer.
        std::fs::read_to_string(&result_path).unwrap_or_default()
    } else {
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let code = out.status.code();
    match parse_solver_answer(&text) {
        Ok((answer, format)) => Ok(ExternalAnswer {
            answer,
            format,
            exit_code: code,
            program,
        }),
        Err(error) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
            Err(ExternalError::Parse {
                program,
                code: code.map_or_else(|| "none, killed by a signal".into(), |c| c.to_string()),
                error,
                stderr: last.map_or_else(String::new, |l| format!("; stderr: {}", l.trim())),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_minisat() {
        assert!(is_minisat("minisat"));
        assert!(is_minisat("/usr/bin/minisat"));
        assert!(!is_minisat("cadical"));
    }

    #[test]
    fn missing_program_is_a_clear_error() {
        let e = run_external(
            "no-such-solver-xyz",
            &Instance::new(4, crate::instance::Model::default()).unwrap(),
            None,
        )
        .unwrap_err();
        assert!(e.to_string().contains("not found"), "{e}");
    }
}
