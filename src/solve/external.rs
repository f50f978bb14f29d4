//! Running an external SAT solver on the exported CNF.
//!
//! The formula is written to a DIMACS file in a temporary folder and the command is run on
//! it with [`super::process::run_bounded`]: in its own process group, with an optional time
//! limit and a bound on its output. Solvers that print SAT-competition output (CaDiCaL,
//! Kissat, Glucose, ...) are read from their standard output; MiniSat, which writes its answer
//! to a result file given as a second argument (`minisat in.cnf out.txt`), is recognised by its
//! program name. Exit codes are not trusted on their own (10/20 by convention, but not
//! everywhere): the answer is parsed with [`super::parse_solver_answer`].
//!
//! Nor is an UNSAT answer trusted: [`refute_unsat`] looks for a solution the solver claims
//! does not exist, by the direct construction when the board is empty and with the embedded
//! solver otherwise.

use super::process::{escape, run_bounded, Limits, ProcessError, TempDirGuard};
use super::{parse_solver_answer, AnswerFormat, ParseAnswerError, SolveError, SolverAnswer};
use crate::board::Placement;
use crate::instance::{Formula, Instance};
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Time limit of the `--version` probe.
pub const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

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
    /// A proof was asked of a solver that is not known to write one.
    #[error("'{program}' is not known to write DRAT proofs; solvers asked for one: {}", PROOF_SOLVERS.join(", "))]
    NoProof {
        /// The program.
        program: String,
    },
    /// An empty command.
    #[error("empty solver command")]
    EmptyCommand,
    /// The program could not be started, or it printed too much, or waiting for it failed.
    #[error(transparent)]
    Process(#[from] ProcessError),
    /// Writing the CNF or reading the answer failed.
    #[error("{context}")]
    Io {
        /// What was being done, e.g. `writing /tmp/queens-sat-x/queens-8.cnf`.
        context: String,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// The solver ran into the time limit and was stopped.
    #[error("'{program}' gave no answer within {} s and was stopped", .limit.as_secs_f64())]
    Timeout {
        /// The program.
        program: String,
        /// The limit.
        limit: Duration,
    },
    /// The answer could not be read.
    #[error("cannot read the answer of '{program}' (exit code {code}): {}{stderr}", escape(&.error.to_string(), 300))]
    Parse {
        /// The program.
        program: String,
        /// Its exit code, as text.
        code: String,
        /// The parse error.
        error: ParseAnswerError,
        /// The last line of its standard error (escaped), if any, prefixed by "; stderr: ".
        stderr: String,
    },
}

impl ExternalError {
    /// `true` when the solver ran but gave no usable answer (time limit, too much output,
    /// unreadable answer), as opposed to a problem with the command or the formula.
    pub fn is_solver_failure(&self) -> bool {
        matches!(
            self,
            ExternalError::Timeout { .. }
                | ExternalError::Parse { .. }
                | ExternalError::Process(ProcessError::OutputTooLarge { .. })
        )
    }
}

fn io_error(context: impl Into<String>) -> impl FnOnce(io::Error) -> ExternalError {
    let context = context.into();
    move |source| ExternalError::Io { context, source }
}

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
    pub fn parse(command: &str) -> Result<SolverCommand, ExternalError> {
        let mut parts = command.split_whitespace();
        let program = parts.next().ok_or(ExternalError::EmptyCommand)?;
        Ok(SolverCommand {
            program: PathBuf::from(program),
            args: parts.map(String::from).collect(),
            result_file: is_minisat(program),
        })
    }

    fn label(&self) -> String {
        self.program.display().to_string()
    }
}

/// What one run of a solver on a DIMACS file gave.
#[derive(Clone, Debug)]
pub struct SolverRun {
    /// The answer (`None` when stopped at the time limit).
    pub answer: Option<Result<(SolverAnswer, AnswerFormat), ParseAnswerError>>,
    /// Its exit code, if it exited normally.
    pub exit_code: Option<i32>,
    /// From the start to the exit (or to the kill at the time limit).
    pub elapsed: Duration,
    /// Its standard output (statistics lines), as text.
    pub output: String,
    /// The last non-empty line of its standard error, escaped.
    pub stderr_last: Option<String>,
}

/// The most standard output (or result-file) bytes accepted from a solver on a formula with
/// `vars` variables: a model needs at most about 12 bytes per variable; generous room is left
/// for comments and statistics.
pub fn output_bound(vars: usize) -> usize {
    (32usize << 20).saturating_add(vars.saturating_mul(24))
}

/// The number of variables in the `p cnf` line of a DIMACS file, if it can be read.
pub fn dimacs_vars(path: &Path) -> Option<usize> {
    let f = std::fs::File::open(path).ok()?;
    for line in io::BufReader::new(f).take(1 << 20).lines() {
        let line = line.ok()?;
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("p ") {
            let mut w = rest.split_whitespace();
            return (w.next()? == "cnf").then(|| w.next()?.parse().ok())?;
        }
        if !t.is_empty() && !t.starts_with('c') {
            return None;
        }
    }
    None
}

/// Runs `solver` on the DIMACS file `cnf` (with `vars` variables, which bounds the output
/// accepted), stopping it after `timeout` if given.
pub fn run_solver(
    solver: &SolverCommand,
    cnf: &Path,
    vars: usize,
    timeout: Option<Duration>,
) -> Result<SolverRun, ExternalError> {
    run_solver_with_proof(solver, cnf, vars, timeout, None)
}

/// Solvers that write a DRAT proof to a file named after the input file
/// (`cadical in.cnf proof.drat`), by program name.
pub const PROOF_SOLVERS: [&str; 2] = ["cadical", "kissat"];

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

/// Like [`run_solver`]; with `proof`, the solver (one of [`PROOF_SOLVERS`]) is asked to write
/// its DRAT proof there, as the argument after the input file.
pub fn run_solver_with_proof(
    solver: &SolverCommand,
    cnf: &Path,
    vars: usize,
    timeout: Option<Duration>,
    proof: Option<&Path>,
) -> Result<SolverRun, ExternalError> {
    let label = solver.label();
    let max = output_bound(vars);
    let mut cmd = Command::new(&solver.program);
    cmd.args(&solver.args).arg(cnf);
    if let Some(p) = proof {
        if solver.result_file || !writes_proofs(&solver.program) {
            return Err(ExternalError::NoProof { program: label });
        }
        cmd.arg(p);
    }
    let result = if solver.result_file {
        let (dir, guard) = TempDirGuard::create("queens-sat-")
            .map_err(io_error("cannot create a temporary folder"))?;
        let path = dir.path().join("result.txt");
        cmd.arg(&path);
        Some((dir, guard, path))
    } else {
        None
    };
    let limits = Limits {
        timeout,
        stdout_max: max,
        ..Limits::default()
    };
    let fin = run_bounded(cmd, &label, &limits)?;
    let output = String::from_utf8_lossy(&fin.stdout).into_owned();
    let stderr_last = fin.stderr_last_line();
    let exit_code = fin.status.and_then(|s| s.code());
    if fin.timed_out {
        return Ok(SolverRun {
            answer: None,
            exit_code,
            elapsed: fin.elapsed,
            output,
            stderr_last,
        });
    }
    let text = match &result {
        Some((_, _, path)) => match std::fs::File::open(path) {
            // No result file: the parse below reports that there is no answer.
            Err(_) => String::new(),
            Ok(f) => {
                let mut buf = Vec::new();
                f.take(max as u64 + 1)
                    .read_to_end(&mut buf)
                    .map_err(io_error(format!("reading {}", path.display())))?;
                if buf.len() > max {
                    return Err(ProcessError::OutputTooLarge {
                        program: label,
                        limit: max,
                    }
                    .into());
                }
                String::from_utf8_lossy(&buf).into_owned()
            }
        },
        None => output.clone(),
    };
    Ok(SolverRun {
        answer: Some(parse_solver_answer(&text)),
        exit_code,
        elapsed: fin.elapsed,
        output,
        stderr_last,
    })
}

/// `true` when the program is MiniSat, which writes its answer to a result file.
fn is_minisat(program: &str) -> bool {
    Path::new(program)
        .file_name()
        .and_then(|f| f.to_str())
        .is_some_and(|f| f.to_ascii_lowercase().starts_with("minisat"))
}

/// Runs `command` (a program and its arguments, separated by white space) on the CNF of the
/// instance and parses its answer, without a time limit. `comment` goes
/// into the CNF's `c` lines.
pub fn run_external(
    command: &str,
    inst: &Instance,
    comment: Option<&str>,
) -> Result<ExternalAnswer, ExternalError> {
    run_external_with(command, inst, comment, None)
}

/// Like [`run_external`], stopping the solver after `timeout` if given.
pub fn run_external_with(
    command: &str,
    inst: &Instance,
    comment: Option<&str>,
    timeout: Option<Duration>,
) -> Result<ExternalAnswer, ExternalError> {
    run_external_proof(command, inst, comment, timeout, None)
}

/// Like [`run_external_with`]; with `proof`, the solver writes its DRAT proof there (see
/// [`run_solver_with_proof`]; a solver that cannot is refused before it runs).
pub fn run_external_proof(
    command: &str,
    inst: &Instance,
    comment: Option<&str>,
    timeout: Option<Duration>,
    proof: Option<&Path>,
) -> Result<ExternalAnswer, ExternalError> {
    let solver = SolverCommand::parse(command)?;
    if proof.is_some() && (solver.result_file || !writes_proofs(&solver.program)) {
        return Err(ExternalError::NoProof {
            program: solver.label(),
        });
    }
    let n = inst.n();
    let vars = inst.num_vars() as usize;
    let (dir, _guard) = TempDirGuard::create("queens-sat-")
        .map_err(io_error("cannot create a temporary folder"))?;
    let cnf_path = dir.path().join(format!("queens-{n}.cnf"));
    let writing = format!("writing {}", cnf_path.display());
    let file = std::fs::File::create(&cnf_path).map_err(io_error(writing.clone()))?;
    let write = || -> io::Result<()> {
        use io::Write;
        inst.write_dimacs(io::BufWriter::new(file), comment)?
            .flush()
    };
    write().map_err(io_error(writing))?;
    let program = solver.label();
    let run = run_solver_with_proof(&solver, &cnf_path, vars, timeout, proof)?;
    let Some(answer) = run.answer else {
        return Err(ExternalError::Timeout {
            program,
            limit: timeout.unwrap_or_default(),
        });
    };
    match answer {
        Ok((answer, format)) => Ok(ExternalAnswer {
            answer,
            format,
            exit_code: run.exit_code,
            program,
        }),
        Err(error) => Err(ExternalError::Parse {
            program,
            code: run
                .exit_code
                .map_or_else(|| "none, killed by a signal".into(), |c| c.to_string()),
            error,
            stderr: run
                .stderr_last
                .map_or_else(String::new, |l| format!("; stderr: {l}")),
        }),
    }
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
    if fin.timed_out || !fin.status.is_some_and(|s| s.success()) {
        return Some("unknown".into());
    }
    let out = String::from_utf8_lossy(&fin.stdout);
    let first = out.lines().map(str::trim).find(|l| !l.is_empty());
    Some(first.map_or_else(|| "unknown".to_string(), |v| escape(v, 200)))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn board(n: usize) -> Instance {
        Instance::new(n, crate::instance::Model::default()).unwrap()
    }

    #[test]
    fn recognises_minisat() {
        assert!(is_minisat("minisat"));
        assert!(is_minisat("/usr/bin/minisat"));
        assert!(!is_minisat("cadical"));
        assert!(writes_proofs(Path::new("/usr/bin/cadical")));
        assert!(writes_proofs(Path::new("kissat")));
        assert!(!writes_proofs(Path::new("minisat")));
    }

    #[test]
    fn missing_program_is_a_clear_error() {
        let e = run_external("no-such-solver-xyz", &board(4), None).unwrap_err();
        assert!(e.to_string().contains("not found"), "{e}");
    }

    #[test]
    fn unsat_claims_are_refuted() {
        assert!(refute_unsat(&board(3)).unwrap().is_none());
        let p = refute_unsat(&board(1000)).unwrap().unwrap();
        assert!(crate::board::is_solution(&p));
        let placed = board(8).with_cells(&[(0, 0)], &[]).unwrap();
        let p = refute_unsat(&placed).unwrap().unwrap();
        assert_eq!(p.col(0), 0);
        let dead = board(4).with_cells(&[(0, 0), (1, 2)], &[]).unwrap();
        assert!(refute_unsat(&dead).unwrap().is_none());
    }

    #[test]
    fn reads_the_variable_count() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.cnf");
        std::fs::write(&p, "c x\np cnf 64 100\n1 0\n").unwrap();
        assert_eq!(dimacs_vars(&p), Some(64));
        std::fs::write(&p, "1 0\n").unwrap();
        assert_eq!(dimacs_vars(&p), None);
    }
}
