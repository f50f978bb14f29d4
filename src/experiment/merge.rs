//! Joining the CSV files of a sharded sweep ([`merge_shards`]).

use super::resume::Settings;
use super::row::{row_key, RowKey};
use super::{Metadata, Row};
use std::collections::HashMap;
use std::path::PathBuf;

/// Why the CSV files of a sharded sweep could not be merged; each names the file (and line).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShardMergeError {
    /// No files, or a file without rows.
    #[error("{0}")]
    Empty(String),
    /// A file that does not exist.
    #[error("{} does not exist", .0.display())]
    NoFile(PathBuf),
    /// A file whose last row is cut short: its shard did not finish.
    #[error("{} line {line} is a row cut short: its shard did not finish (rerun it on the same file)", .file.display())]
    Torn {
        /// The file.
        file: PathBuf,
        /// The line of the row.
        line: u64,
    },
    /// A row without a shard: the file is not from a sharded sweep.
    #[error("{file} line {line}: the row has no shard: not from a sharded sweep")]
    Unsharded {
        /// The file.
        file: String,
        /// The line.
        line: u64,
    },
    /// A row that is not from a sharded sweep, or from another shard than the file's first.
    #[error("{file} line {line}: {reason}")]
    Row {
        /// The file.
        file: String,
        /// The line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// The same shard in two files.
    #[error("shard {shard} is given twice: {a} and {b}")]
    Duplicate {
        /// The shard.
        shard: String,
        /// One file.
        a: String,
        /// The other.
        b: String,
    },
    /// Shards without a file.
    #[error("missing shard{} {} of {of}: their runs are not in the files", if missing.len() == 1 { "" } else { "s" }, missing.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", "))]
    Missing {
        /// The shards (1-based).
        missing: Vec<usize>,
        /// K.
        of: usize,
    },
}

/// Joins the rows of the CSV files of a sharded sweep (`(file, rows with their lines)`): every
/// shard of the same K once, every row made under the same settings as the first (the
/// redundant clauses, repeats, time limit, tool version, each solver's version, a family's
/// fixed parameters; the machine may differ), no combination twice. Returns the rows.
pub fn merge_shards(files: &[(String, Vec<(u64, Row)>)]) -> Result<Vec<Row>, ShardMergeError> {
    let first = files
        .first()
        .and_then(|(_, rows)| rows.first().map(|(_, r)| r.clone()))
        .ok_or_else(|| ShardMergeError::Empty("no rows to merge".into()))?;
    let mut of = None;
    let mut owner: Vec<Option<String>> = Vec::new();
    let mut versions: HashMap<String, String> = HashMap::new();
    let mut seen: HashMap<RowKey, (String, u64)> = HashMap::new();
    let mut out = Vec::new();
    for (file, rows) in files {
        let Some((_, head)) = rows.first() else {
            return Err(ShardMergeError::Empty(format!("{file} holds no rows")));
        };
        let bad = |line: u64, reason: String| ShardMergeError::Row {
            file: file.clone(),
            line,
            reason,
        };
        let shard: crate::count::Shard =
            head.shard.parse().map_err(|_| ShardMergeError::Unsharded {
                file: file.clone(),
                line: rows[0].0,
            })?;
        let k = *of.get_or_insert(shard.of);
        if shard.of != k {
            return Err(bad(
                rows[0].0,
                format!("shard {shard}, while the first file's sweep has {k} shards"),
            ));
        }
        owner.resize(k, None);
        if let Some(other) = &owner[shard.index - 1] {
            return Err(ShardMergeError::Duplicate {
                shard: shard.to_string(),
                a: other.clone(),
                b: file.clone(),
            });
        }
        owner[shard.index - 1] = Some(file.clone());
        for (line, r) in rows {
            if r.shard != head.shard {
                return Err(bad(
                    *line,
                    format!(
                        "shard {}, while the file's first row has {}",
                        r.shard, head.shard
                    ),
                ));
            }
            if let Some((what, found, want)) = Settings::of_row(&first).first_difference(r) {
                return Err(bad(
                    *line,
                    format!("{what} = {found}, the first row {want}: not the same sweep"),
                ));
            }
            let v = versions
                .entry(r.solver.clone())
                .or_insert_with(|| r.solver_version.clone());
            if *v != r.solver_version {
                return Err(bad(
                    *line,
                    format!(
                        "{} version '{}', earlier rows '{v}': not the same sweep",
                        r.solver, r.solver_version
                    ),
                ));
            }
            if let Some((f, l)) = seen.insert(row_key(r), (file.clone(), *line)) {
                return Err(bad(
                    *line,
                    format!("the same run as {f} line {l} (n, encoding, solver, instance)"),
                ));
            }
            out.push(r.clone());
        }
    }
    let k = of.unwrap_or(1);
    let missing: Vec<usize> = (1..=k).filter(|i| owner[i - 1].is_none()).collect();
    if !missing.is_empty() {
        return Err(ShardMergeError::Missing { missing, of: k });
    }
    Ok(out)
}

/// What the merged rows of a sharded sweep record about it: the settings of its first row,
/// each solver with its version, and every machine that ran a shard (`; ` between them).
pub fn metadata(rows: &[Row]) -> Metadata {
    let first = rows.first().cloned().unwrap_or_default();
    let mut solvers: Vec<(String, String)> = Vec::new();
    let mut machines: Vec<String> = Vec::new();
    for r in rows {
        if !solvers.iter().any(|(s, _)| *s == r.solver) {
            solvers.push((r.solver.clone(), r.solver_version.clone()));
        }
        if !machines.contains(&r.machine) {
            machines.push(r.machine.clone());
        }
    }
    Metadata {
        tool_version: first.tool_version,
        machine: machines.join("; "),
        solvers,
        missing_solvers: Vec::new(),
        repeats: first.repeats,
        timeout_s: first.timeout_s,
        cpu_limit_s: first.cpu_limit_s,
        memory_limit_mib: first.memory_limit_mib,
        load_at_start: None,
        column_alo: first.column_alo,
        family: None,
    }
}
