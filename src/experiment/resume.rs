//! Resuming a sweep from its CSV file: the file read back ([`read`]), its rows checked against
//! the sweep's settings ([`check_resume`]), those the sweep wants kept and the file opened for
//! the new rows ([`open`]).

use super::formula::FORMULA_ENCODING;
use super::report::{self, CsvAppender, CsvError, ResumeFile};
use super::{sweep_name, Metadata, Row, SweepConfig};
use crate::symmetry_breaking::SymmetryBreaking;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a sweep's CSV file cannot be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The file cannot be read, or is not a sweep's CSV.
    #[error("{0}")]
    Csv(#[from] CsvError),
    /// A row of another shard (or of an unsharded sweep, or a sharded one).
    #[error("{} line {line} holds a row of {}, this run is {}; use another file", .path.display(), shard_text(.found), shard_text(.expected))]
    OtherShard {
        /// The file.
        path: PathBuf,
        /// The line of the row.
        line: u64,
        /// The row's shard (`I/K`, empty when unsharded).
        found: String,
        /// This run's.
        expected: String,
    },
    /// A row made under other settings.
    #[error("{} holds rows of another sweep: {source}; start it afresh or use another file", .path.display())]
    OtherSweep {
        /// The file.
        path: PathBuf,
        /// The row and the setting.
        source: OtherSweep,
    },
}

/// `shard I/K`, or `an unsharded sweep`.
fn shard_text(shard: &str) -> String {
    if shard.is_empty() {
        "an unsharded sweep".to_string()
    } else {
        format!("shard {shard}")
    }
}

/// Reads the CSV file `path` of a sweep run as `shard` (`I/K`, empty when unsharded) to resume
/// it (or, with `fresh`, only checks that it is a sweep's CSV: see
/// [`report::read_for_resume`]); a row of another shard is refused.
pub fn read(path: &Path, fresh: bool, shard: &str) -> Result<ResumeFile, ResumeError> {
    let file = report::read_for_resume(path, fresh)?;
    if let Some((line, r)) = file.rows.iter().find(|(_, r)| r.shard != shard) {
        return Err(ResumeError::OtherShard {
            path: path.to_path_buf(),
            line: *line,
            found: r.shard.clone(),
            expected: shard.to_string(),
        });
    }
    Ok(file)
}

/// Opens the CSV file `path` read back by [`read`] for the rows of the sweep `cfg` (with
/// `meta`, its [`SweepConfig::metadata`]): its rows are checked ([`check_resume`]), a torn last
/// row is cut off (said on `log`), and the file is opened for appending. Returns the appender
/// and the rows the sweep wants (of its points, or of the instance and formula files it names
/// `files` by, models, modes, solvers and shuffled copies), which it does not measure again.
pub fn open(
    path: &Path,
    file: ResumeFile,
    cfg: &SweepConfig,
    meta: &Metadata,
    files: &[String],
    log: &mut dyn Write,
) -> Result<(CsvAppender, Vec<Row>), ResumeError> {
    check_resume(meta, file.rows.iter().map(|(line, r)| (*line, r))).map_err(|source| {
        ResumeError::OtherSweep {
            path: path.to_path_buf(),
            source,
        }
    })?;
    let csv = CsvAppender::open(path, file.keep)?.columns(file.columns);
    if let Some(line) = file.torn_line {
        let _ = writeln!(
            log,
            "note: {} line {line} is a row cut short (the sweep stopped while writing it); \
             it is dropped and measured again",
            path.display()
        );
    }
    let previous: Vec<Row> = file
        .rows
        .into_iter()
        .map(|(_, r)| r)
        .filter(|r| wanted(cfg, files, r))
        .collect();
    if !previous.is_empty() {
        let _ = writeln!(
            log,
            "resuming: {} rows already in {}",
            previous.len(),
            path.display()
        );
    }
    Ok((csv, previous))
}

/// `true` when the sweep `cfg` (on the instance and formula files named `files`, if any) has
/// the run of row `r`.
fn wanted(cfg: &SweepConfig, files: &[String], r: &Row) -> bool {
    let solver = cfg.solvers.iter().any(|s| s.name == r.solver);
    if r.encoding == FORMULA_ENCODING {
        // A formula file is solved as it is: no model, no copy.
        return solver && r.shuffle.is_none() && files.contains(&r.value);
    }
    let point = match &cfg.family {
        None if !files.is_empty() => r.parameter.is_empty() && files.contains(&r.value),
        None => r.family.is_empty(),
        Some(f) => {
            r.family == f.family.name()
                && r.parameter == f.parameter
                && f.values.contains(&r.value)
                && r.seed.is_some_and(|s| f.seeds.contains(&s))
        }
    };
    let copy = match r.shuffle {
        None => cfg.shuffle == 0,
        Some(k) => (1..=cfg.shuffle as u64).contains(&k),
    };
    let modes = if cfg.symmetry_breaking.is_empty() {
        &[SymmetryBreaking::None][..]
    } else {
        &cfg.symmetry_breaking[..]
    };
    copy && point
        && cfg.ns.contains(&r.n)
        && cfg
            .models
            .iter()
            .any(|m| modes.iter().any(|&s| sweep_name(m, s) == r.encoding))
        && solver
}

/// Why the rows of a CSV cannot be resumed by this sweep: the first row made under other
/// settings, the setting that differs and both values.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line} has {setting} = {found}, this run {expected}")]
pub struct OtherSweep {
    /// The CSV line of the row (the header is line 1).
    pub line: u64,
    /// The setting (a CSV column).
    pub setting: &'static str,
    /// Its value in the row.
    pub found: String,
    /// Its value in this run.
    pub expected: String,
}

/// Checks that rows read back from a CSV (each with its line number) were made under the
/// settings of this sweep, so that resuming cannot mix them: the redundant clauses, the
/// repeats, the time limit, this tool's version, the machine, and the solver's version (for
/// the solvers of this sweep), and, for rows of this sweep's family and swept parameter, the
/// fixed parameters. Returns the first row that differs and how.
pub fn check_resume<'a>(
    meta: &Metadata,
    rows: impl IntoIterator<Item = (u64, &'a Row)>,
) -> Result<(), OtherSweep> {
    let settings = Settings {
        column_alo: meta.column_alo,
        repeats: meta.repeats,
        timeout_s: meta.timeout_s,
        cpu_limit_s: meta.cpu_limit_s,
        memory_limit_mib: meta.memory_limit_mib,
        tool_version: &meta.tool_version,
        machine: Some(&meta.machine),
        family: meta
            .family
            .as_ref()
            .map(|f| (f.family.name(), f.parameter.as_str(), f.fixed_text())),
    };
    for (line, r) in rows {
        let differ = |(setting, found, expected)| {
            Err(OtherSweep {
                line,
                setting,
                found,
                expected,
            })
        };
        if let Some(d) = settings.first_difference(r) {
            return differ(d);
        }
        if let Some((_, v)) = meta.solvers.iter().find(|(s, _)| *s == r.solver) {
            if *v != r.solver_version {
                return differ((
                    "solver_version",
                    format!("'{}'", r.solver_version),
                    format!("'{v}'"),
                ));
            }
        }
    }
    Ok(())
}

/// The settings every row of one sweep shares, as resuming a CSV file and merging the files of
/// a sharded sweep compare them.
pub(super) struct Settings<'a> {
    column_alo: bool,
    repeats: usize,
    timeout_s: f64,
    cpu_limit_s: Option<f64>,
    memory_limit_mib: Option<f64>,
    tool_version: &'a str,
    /// `None` where rows may come from several machines (the shards of a sweep).
    machine: Option<&'a str>,
    /// The family, its swept parameter and the text of its fixed parameters.
    family: Option<(&'a str, &'a str, String)>,
}

impl<'a> Settings<'a> {
    /// The settings of a row, any machine.
    pub(super) fn of_row(r: &'a Row) -> Self {
        Settings {
            column_alo: r.column_alo,
            repeats: r.repeats,
            timeout_s: r.timeout_s,
            cpu_limit_s: r.cpu_limit_s,
            memory_limit_mib: r.memory_limit_mib,
            tool_version: &r.tool_version,
            machine: None,
            family: Some((&r.family, &r.parameter, r.fixed_parameters.clone())),
        }
    }

    /// The first setting in which `r` differs: the CSV column, the row's value and the
    /// expected one (texts quoted). A family's fixed parameters are compared only between rows
    /// of the same family and swept parameter.
    pub(super) fn first_difference(&self, r: &Row) -> Option<(&'static str, String, String)> {
        let quoted = |s: &str| format!("'{s}'");
        if r.column_alo != self.column_alo {
            return Some((
                "column_alo",
                r.column_alo.to_string(),
                self.column_alo.to_string(),
            ));
        }
        if r.repeats != self.repeats {
            return Some(("repeats", r.repeats.to_string(), self.repeats.to_string()));
        }
        if r.timeout_s != self.timeout_s {
            return Some((
                "timeout_s",
                r.timeout_s.to_string(),
                self.timeout_s.to_string(),
            ));
        }
        let limit = |v: Option<f64>| v.map_or_else(|| "none".to_string(), |x| x.to_string());
        if r.cpu_limit_s != self.cpu_limit_s {
            return Some(("cpu_limit_s", limit(r.cpu_limit_s), limit(self.cpu_limit_s)));
        }
        if r.memory_limit_mib != self.memory_limit_mib {
            return Some((
                "memory_limit_mib",
                limit(r.memory_limit_mib),
                limit(self.memory_limit_mib),
            ));
        }
        if r.tool_version != self.tool_version {
            return Some((
                "tool_version",
                quoted(&r.tool_version),
                quoted(self.tool_version),
            ));
        }
        if let Some(m) = self.machine.filter(|m| r.machine != *m) {
            return Some(("machine", quoted(&r.machine), quoted(m)));
        }
        if let Some((family, parameter, fixed)) = &self.family {
            if r.family == *family && r.parameter == *parameter && r.fixed_parameters != *fixed {
                return Some((
                    "fixed_parameters",
                    quoted(&r.fixed_parameters),
                    quoted(fixed),
                ));
            }
        }
        None
    }
}
