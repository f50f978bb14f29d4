//! `queens-sat sat FILE`: any DIMACS CNF file solved by an embedded solver, with the
//! answer in SAT-competition style ([`sat`]). `compare` runs it as the `varisat`,
//! `cadical-lib` and `kissat-lib` solvers, so that every solver is timed the same way, as a
//! process reading the same file.

use super::Ending;
use crate::cnf::{read_dimacs_into, DimacsError, DimacsErrorKind, ReadLimits, MAX_FORMULA_BYTES};
use crate::solve::{Backend, Budget, SolveError, SolverOption};
use std::io::{self, Write};
use std::path::Path;

/// Why a DIMACS file could not be solved.
#[derive(Debug, thiserror::Error)]
pub enum SatError {
    /// The file cannot be opened.
    #[error("cannot read {file}")]
    Open {
        /// The file.
        file: String,
        /// Why.
        source: io::Error,
    },
    /// The file has no `p cnf` line (an empty file, or one of comments only, is not a
    /// formula).
    #[error("{0} is not valid DIMACS: no 'p cnf' header")]
    NoHeader(String),
    /// Reading the file failed.
    #[error("cannot read {file}: {why}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        why: String,
    },
    /// The file is not DIMACS.
    #[error("{file} is not valid DIMACS")]
    NotDimacs {
        /// The file.
        file: String,
        /// What is wrong, and where.
        source: DimacsError,
    },
    /// The solver cannot be made (a backend this build lacks).
    #[error("{0}")]
    Backend(#[source] SolveError),
    /// The solver stopped without an answer.
    #[error("the solver stopped")]
    Stopped(#[source] SolveError),
    /// The answer cannot be written.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Solves the DIMACS file `file` with `backend` and its `options` (by name, see
/// [`Backend::solver_with`]), the clauses handed to the solver as they are read, and writes
/// `s SATISFIABLE` and the `v` lines, or `s UNSATISFIABLE`, on `out`.
pub fn sat(
    file: &Path,
    backend: Backend,
    options: &[SolverOption],
    out: &mut dyn Write,
) -> Result<Ending, SatError> {
    let name = || file.display().to_string();
    let input = std::fs::File::open(file).map_err(|source| SatError::Open {
        file: name(),
        source,
    })?;
    let budget = Budget::unlimited();
    let mut solver = backend
        .solver_with(&budget, options)
        .map_err(SatError::Backend)?;
    let read = read_dimacs_into(
        io::BufReader::with_capacity(1 << 16, input),
        &ReadLimits {
            max_bytes: MAX_FORMULA_BYTES,
            ..ReadLimits::default()
        },
        solver.as_mut(),
    );
    let counts = match read {
        Ok(c) => c,
        Err(e) => {
            return Err(match &e.kind {
                DimacsErrorKind::NoHeader => SatError::NoHeader(name()),
                DimacsErrorKind::Io(why) => SatError::Read {
                    file: name(),
                    why: why.clone(),
                },
                _ => SatError::NotDimacs {
                    file: name(),
                    source: e,
                },
            })
        }
    };
    let answer = if solver.solve(&[], &budget).map_err(SatError::Stopped)? {
        Some(solver.model(counts.vars).map_err(SatError::Stopped)?)
    } else {
        None
    };
    let Some(model) = answer else {
        writeln!(out, "s UNSATISFIABLE")?;
        return Ok(Ending::Unsatisfiable);
    };
    writeln!(out, "s SATISFIABLE")?;
    crate::cnf::write_v_lines(out, &model)?;
    Ok(Ending::Satisfiable)
}
