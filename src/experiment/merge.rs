//! Joining the CSV files of finished sweeps and of the shards of sharded ones
//! ([`merge_files`]).

use super::resume::Settings;
use super::row::{row_key, RowKey};
use super::{Metadata, Row};
use crate::count::Shard;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

/// Why CSV files could not be merged; each names the file (and line).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShardMergeError {
    /// No files, or a file without rows.
    #[error("{0}")]
    Empty(String),
    /// A file that does not exist.
    #[error("{} does not exist", .0.display())]
    NoFile(PathBuf),
    /// A file whose last row is cut short: its sweep or shard did not finish.
    #[error("{} line {line} is a row cut short: its sweep did not finish (rerun it on the same file)", .file.display())]
    Torn {
        /// The file.
        file: PathBuf,
        /// The line of the row.
        line: u64,
    },
    /// A row that does not belong with the others: a shard of another sweep or none among
    /// sharded rows, other settings, a run given twice.
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

/// Joins the rows of CSV files (`(file, rows with their lines)`) into one set of runs to report.
///
/// A file holds a whole sweep (rows without a shard, or rows of every shard 1..K of a sharded
/// one: the file `--merge` wrote) or a part of a sharded sweep (the rows of some of its K
/// shards; one shard per file as `--shard` writes them). The parts given must make whole
/// sweeps: every shard 1..K of each K once. Every row must be made under the same settings as
/// the first (the redundant clauses, repeats, time limit, tool version, each solver's version,
/// a family's fixed parameters; the machine may differ), and no run may be given twice (so a
/// sweep's file and one of its shards' cannot go together). Returns the rows.
pub fn merge_files(files: &[(String, Vec<(u64, Row)>)]) -> Result<Vec<Row>, ShardMergeError> {
    let first = files
        .first()
        .and_then(|(_, rows)| rows.first().map(|(_, r)| r.clone()))
        .ok_or_else(|| ShardMergeError::Empty("no rows to merge".into()))?;
    // Per K, the file that holds each shard of the parts given.
    let mut owners: BTreeMap<usize, Vec<Option<String>>> = BTreeMap::new();
    let mut versions: HashMap<String, String> = HashMap::new();
    let mut seen: HashMap<RowKey, (String, u64)> = HashMap::new();
    let mut out = Vec::new();
    for (file, rows) in files {
        if rows.is_empty() {
            return Err(ShardMergeError::Empty(format!("{file} holds no rows")));
        }
        let bad = |line: u64, reason: String| ShardMergeError::Row {
            file: file.clone(),
            line,
            reason,
        };
        // The file's shards first: a shard given twice is named as such.
        let (shards, of) = file_shards(rows, &bad)?;
        // A part of a sharded sweep: its shards are owned by this file.
        if let Some(k) = of.filter(|&k| shards.len() < k) {
            let owner = owners.entry(k).or_insert_with(|| vec![None; k]);
            for i in shards {
                if let Some(other) = &owner[i - 1] {
                    return Err(ShardMergeError::Duplicate {
                        shard: format!("{i}/{k}"),
                        a: other.clone(),
                        b: file.clone(),
                    });
                }
                owner[i - 1] = Some(file.clone());
            }
        }
        for (line, r) in rows {
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
    for (&of, owner) in &owners {
        let missing: Vec<usize> = (1..=of).filter(|i| owner[i - 1].is_none()).collect();
        if !missing.is_empty() {
            return Err(ShardMergeError::Missing { missing, of });
        }
    }
    Ok(out)
}

/// The shards whose rows `rows` (a file's) hold, and their K; none for an unsharded sweep's
/// rows. Refused with `bad(line, reason)`: a shard that is not `I/K`, two values of K, and
/// unsharded rows among sharded ones.
fn file_shards(
    rows: &[(u64, Row)],
    bad: &dyn Fn(u64, String) -> ShardMergeError,
) -> Result<(BTreeSet<usize>, Option<usize>), ShardMergeError> {
    let mut shards: BTreeSet<usize> = BTreeSet::new();
    let mut of = None;
    let Some((_, head)) = rows.first() else {
        return Ok((shards, of));
    };
    for (line, r) in rows {
        match (r.shard.is_empty(), head.shard.is_empty()) {
            (true, true) => {}
            (false, false) => {
                let shard: Shard = r
                    .shard
                    .parse()
                    .map_err(|e| bad(*line, format!("shard '{}': {e}", r.shard)))?;
                let k = *of.get_or_insert(shard.of);
                if shard.of != k {
                    return Err(bad(
                        *line,
                        format!(
                            "shard {shard}, while the file's first row has {}: not the same \
                             sharded sweep",
                            head.shard
                        ),
                    ));
                }
                shards.insert(shard.index);
            }
            (row_unsharded, _) => {
                let (this, other) = if row_unsharded {
                    ("no shard".to_string(), format!("shard {}", head.shard))
                } else {
                    (format!("shard {}", r.shard), "none".to_string())
                };
                return Err(bad(
                    *line,
                    format!(
                        "the row has {this}, while the file's first row has {other}: rows of a \
                         sharded and of an unsharded sweep"
                    ),
                ));
            }
        }
    }
    Ok((shards, of))
}

/// What merged rows record about their sweep: the settings of the first row, each solver with
/// its version, and every machine that ran a shard or a sweep (`; ` between them).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of solver `solver` on seed `seed`, from shard `shard` (`""`: unsharded).
    fn run(solver: &str, seed: u64, shard: &str) -> Row {
        Row {
            n: 8,
            encoding: "pairwise".into(),
            solver: solver.into(),
            repeats: 1,
            timeout_s: 10.0,
            status: "SAT".into(),
            tool_version: "t".into(),
            family: "blocked".into(),
            parameter: "p".into(),
            value: "0.5".into(),
            seed: Some(seed),
            shard: shard.into(),
            ..Row::default()
        }
    }

    /// A file of `rows`, lines from 2.
    fn file(name: &str, rows: Vec<Row>) -> (String, Vec<(u64, Row)>) {
        (name.into(), (2..).zip(rows).collect())
    }

    fn error(files: &[(String, Vec<(u64, Row)>)]) -> String {
        merge_files(files).unwrap_err().to_string()
    }

    #[test]
    fn whole_sweeps_and_shards_make_one_set_of_runs() {
        // An unsharded sweep (solver a), a merged sharded one (b: shards 1/2 and 2/2 in one
        // file) and the two shard files of a third (c).
        let whole = file("a.csv", vec![run("a", 1, ""), run("a", 2, "")]);
        let merged = file("b.csv", vec![run("b", 1, "1/2"), run("b", 2, "2/2")]);
        let parts = [
            file("c-1.csv", vec![run("c", 1, "1/2")]),
            file("c-2.csv", vec![run("c", 2, "2/2")]),
        ];
        let all = [
            whole.clone(),
            merged.clone(),
            parts[0].clone(),
            parts[1].clone(),
        ];
        assert_eq!(merge_files(&all).unwrap().len(), 6);
        assert_eq!(merge_files(std::slice::from_ref(&whole)).unwrap().len(), 2);
        // A shard missing, a shard twice, a run twice.
        assert_eq!(
            error(&[whole.clone(), parts[0].clone()]),
            "missing shard 2 of 2: their runs are not in the files"
        );
        assert_eq!(
            error(&[parts[0].clone(), parts[0].clone()]),
            "shard 1/2 is given twice: c-1.csv and c-1.csv"
        );
        let e = error(&[whole.clone(), whole.clone()]);
        assert!(e.contains("the same run as a.csv line 2"), "{e}");
        // Unsharded rows among sharded ones, two values of K in one file.
        let mixed = file("m.csv", vec![run("d", 1, "1/2"), run("d", 2, "")]);
        let e = error(&[mixed]);
        assert!(e.starts_with("m.csv line 3: the row has no shard"), "{e}");
        let two_k = file("k.csv", vec![run("d", 1, "1/2"), run("d", 2, "2/3")]);
        assert!(error(&[two_k]).contains("not the same sharded sweep"));
        // Another time limit.
        let mut slow = run("e", 1, "");
        slow.timeout_s = 30.0;
        let e = error(&[whole, file("e.csv", vec![slow])]);
        assert!(e.contains("timeout_s = 30"), "{e}");
    }
}
