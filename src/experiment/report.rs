//! A sweep's results as a Markdown table, CSV (appended row by row, read back to resume) and
//! JSON.

use super::{Metadata, Row};
use anyhow::{Context, Result};
use std::fs::OpenOptions;
use std::path::Path;

/// The Markdown table of `rows`, one line per (n, encoding, solver).
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| n | encoding | solver | vars | clauses | literals | DIMACS bytes | encode ms | status | solve ms (median) | conflicts | decisions |\n\
         |---:|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|\n",
    );
    let opt = |v: Option<u64>| v.map_or_else(|| "".to_string(), |v| v.to_string());
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} |\n",
            r.n,
            r.encoding,
            r.solver,
            r.vars,
            r.clauses,
            r.literals,
            r.dimacs_bytes,
            r.encode_ms,
            r.status,
            r.solve_ms.map_or_else(String::new, |t| format!("{t:.1}")),
            opt(r.conflicts),
            opt(r.decisions),
        ));
    }
    s
}

/// Appends rows to a CSV file, writing the header first when the file is new or empty, and
/// flushing after every row so an interrupted sweep keeps what it finished.
pub struct CsvAppender {
    writer: csv::Writer<std::fs::File>,
}

impl CsvAppender {
    /// Opens (or creates) `path` for appending.
    pub fn open(path: &Path) -> Result<Self> {
        let empty = std::fs::metadata(path)
            .map(|m| m.len() == 0)
            .unwrap_or(true);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let writer = csv::WriterBuilder::new()
            .has_headers(empty)
            .from_writer(file);
        Ok(CsvAppender { writer })
    }

    /// Appends one row and flushes it to disk.
    pub fn append(&mut self, row: &Row) -> Result<()> {
        self.writer.serialize(row)?;
        self.writer.flush()?;
        Ok(())
    }
}

/// Reads the rows of a CSV file written by [`CsvAppender`]. A missing file gives no rows.
pub fn read_csv(path: &Path) -> Result<Vec<Row>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, rec) in reader.deserialize().enumerate() {
        let row: Row = rec.with_context(|| {
            format!(
                "{} line {} is not a row of a queens-sat sweep",
                path.display(),
                i + 2
            )
        })?;
        rows.push(row);
    }
    Ok(rows)
}

/// The JSON document of a sweep: its metadata and its rows.
pub fn json(meta: &Metadata, rows: &[Row]) -> Result<String> {
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        metadata: &'a Metadata,
        rows: &'a [Row],
    }
    Ok(serde_json::to_string_pretty(&Doc {
        metadata: meta,
        rows,
    })?)
}
