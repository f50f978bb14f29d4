//! Resuming a sweep from its CSV file: the rows already there must come from the same
//! settings ([`check_resume`]).

use super::{Metadata, Row};

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
