//! `queens-sat check` as a library function: [`check`] takes a [`CheckRequest`] (board sizes
//! or instance files, models and encodings, the checks' settings), runs the checks and writes
//! the table row by row and the verdict, or one JSON document.

use super::Ending;
use crate::crosscheck::{on_path, plural, run, CheckConfig, Formula, Table};
use crate::encode::{Amo, LineEncodings};
use crate::input::ReadError;
use crate::instance::{Instance, InstanceError};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// How to write the results of the checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckFormat {
    /// A table, one row per n and encoding, written as each row finishes, then the verdict.
    Text,
    /// One JSON document with every row and the verdict, at the end.
    Json,
}

/// The checks as `queens-sat check` asks for them.
#[derive(Clone, Debug)]
pub struct CheckRequest {
    /// Board sizes (unused with instance files).
    pub ns: Vec<usize>,
    /// The at-most-one encodings: names separated by commas, or one per-line setting per
    /// value; every encoding when empty.
    pub amo: Vec<String>,
    /// Add the redundant column at-least-one clauses to every encoding checked.
    pub column_alo: bool,
    /// The models by name ([`crate::encode::catalogue::models`]).
    pub models: Vec<String>,
    /// Check these instance files instead of the empty boards of `ns`.
    pub instances: Vec<PathBuf>,
    /// The first D diagonals of Excluded Diagonals parameter files (`--diagonals D`).
    pub diagonals: Option<usize>,
    /// The settings of the checks (the external solvers as given: blank names are dropped).
    pub config: CheckConfig,
    /// How to write the results.
    pub format: CheckFormat,
}

/// What the checks report as they go (the command line draws a progress bar). Every method
/// does the least unless implemented.
pub trait CheckProgress {
    /// The checks start: `rows` rows to check.
    fn start(&mut self, rows: usize) {
        let _ = rows;
    }
    /// One more row is checked.
    fn row(&mut self) {}
    /// Runs `write`, which writes lines of the table (a progress bar hides meanwhile).
    fn suspend(&mut self, write: &mut dyn FnMut() -> io::Result<()>) -> io::Result<()> {
        write()
    }
    /// The checks are over (the verdict comes next).
    fn finish(&mut self) {}
}

/// No progress reported.
impl CheckProgress for () {}

/// Why the checks could not run or report (a discrepancy is not an error: see [`check`]).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// No worker thread.
    #[error("{} must be at least 1", crate::vocabulary::Param::Threads)]
    Threads,
    /// The encodings cannot be read.
    #[error("{amo}: {0}", amo = crate::vocabulary::Param::Amo)]
    Amo(String),
    /// The models cannot be made.
    #[error("{0}")]
    Models(String),
    /// An instance file's board is beyond the counter.
    #[error("{}: n = {n} is above {}, the largest board the counter checks", .path.display(), crate::board::MASKED_MAX_N)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its board size.
        n: usize,
    },
    /// An instance file does not make an instance of a model.
    #[error("{}: {error}", .path.display())]
    InstanceFile {
        /// The file.
        path: PathBuf,
        /// Why.
        error: InstanceError,
    },
    /// The JSON document cannot be written.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// A formula cannot be made, an instance file read, or the results written.
    #[error(transparent)]
    Failure(#[from] super::Failure),
}

failures_into!(CheckError: InstanceError, ReadError, crate::family::InstanceFileError, io::Error);

/// The encodings the `--amo` values name (all of them when none is given).
pub fn encodings(values: &[String]) -> Result<Vec<LineEncodings>, CheckError> {
    if values.is_empty() {
        return Ok(Amo::all().into_iter().map(LineEncodings::uniform).collect());
    }
    let out = LineEncodings::parse_list(values).map_err(CheckError::Amo)?;
    if out.is_empty() {
        return Err(CheckError::Amo("no encoding named".into()));
    }
    Ok(out)
}

/// Runs the checks `req` asks for: every model with every encoding, on the empty board of each
/// n or on each instance file. Notes go to `log` (an external solver not on PATH is skipped),
/// the table row by row and the verdict (or the JSON document) to `out`. Ends in
/// [`Ending::Failure`] on any discrepancy. Should writing fail, the checks still run to their
/// end, and the error is returned then.
pub fn check(
    req: &CheckRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &mut dyn CheckProgress,
) -> Result<Ending, CheckError> {
    if req.config.threads == Some(0) {
        return Err(CheckError::Threads);
    }
    let encs = encodings(&req.amo)?;
    let models = crate::encode::catalogue::models(&req.models, &encs, req.column_alo)
        .map_err(CheckError::Models)?;
    let mut formulas: Vec<Arc<dyn Formula>> = Vec::new();
    if req.instances.is_empty() {
        for &n in &req.ns {
            for &model in &models {
                formulas.push(Arc::new(Instance::new(n, model)?));
            }
        }
    }
    for path in &req.instances {
        let spec = crate::family::read_instance_file(path, req.diagonals)?;
        if spec.n > crate::board::MASKED_MAX_N {
            return Err(CheckError::TooLarge {
                path: path.clone(),
                n: spec.n,
            });
        }
        for &model in &models {
            let inst = spec
                .instance(model)
                .map_err(|error| CheckError::InstanceFile {
                    path: path.clone(),
                    error,
                })?;
            formulas.push(Arc::new(inst));
        }
    }
    let external: Vec<String> = req
        .config
        .external
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    for e in &external {
        let program = e.split_whitespace().next().unwrap_or(e);
        if !on_path(program) {
            let _ = writeln!(log, "note: {program} is not on PATH; its check is skipped");
        }
    }
    if !external.is_empty() {
        // The solvers run in their own process groups: an interruption must stop them.
        crate::interrupt::cleanup_needed();
    }
    let cfg = CheckConfig {
        external,
        ..req.config.clone()
    };
    progress.start(formulas.len());
    let names: Vec<String> = formulas.iter().map(|f| f.name()).collect();
    let table = Table::new(names.iter().map(String::as_str), &req.ns);
    let text = req.format == CheckFormat::Text;
    let mut write_error: Option<io::Error> = None;
    let mut emit = |lines: &str, progress: &mut dyn CheckProgress| {
        if write_error.is_some() {
            return;
        }
        let mut write = || {
            out.write_all(lines.as_bytes())?;
            out.flush()
        };
        if let Err(e) = progress.suspend(&mut write) {
            write_error = Some(e);
        }
    };
    if text {
        emit(&table.header(), progress);
    }
    let summary = run(&formulas, &cfg, |row| {
        progress.row();
        if text {
            emit(&table.row(row), progress);
        }
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if text {
        let checked = format!(
            "{} x {}",
            if req.instances.is_empty() {
                plural(req.ns.len(), "board size")
            } else {
                plural(req.instances.len(), "instance")
            },
            plural(models.len(), "model")
        );
        out.write_all(summary.verdict(&checked).as_bytes())?;
    } else {
        serde_json::to_writer_pretty(&mut *out, &summary)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(if summary.ok {
        Ending::Success
    } else {
        Ending::Failure
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_lists() {
        assert_eq!(encodings(&[]).unwrap().len(), Amo::all().len());
        let e = encodings(&["pairwise,sequential".into(), "sequential".into()]).unwrap();
        assert_eq!(
            e,
            vec![
                LineEncodings::uniform(Amo::PAIRWISE),
                LineEncodings::uniform(Amo::SEQUENTIAL)
            ]
        );
        let e = encodings(&["rows=sequential,diagonals=product".into()]).unwrap();
        assert_eq!(e.len(), 1);
        assert!(encodings(&["nope".into()]).is_err());
    }
}
