//! A sweep's results as a Markdown table, CSV (appended row by row, read back to resume) and
//! JSON.

use super::scores::Scores;
use super::transition::Summary;
use super::values::{Agreement, Value};
use super::{Metadata, Row};
use std::fs::OpenOptions;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The Markdown table of `rows`, one line per (n, encoding, solver).
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| n | encoding | solver | vars | clauses | literals | DIMACS bytes | encode ms | status | solve ms (median) | CPU s | memory MiB | conflicts | decisions |\n\
         |---:|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n",
    );
    let opt = |v: Option<u64>| v.map_or_else(|| "".to_string(), |v| v.to_string());
    let instances = rows.iter().any(|r| !r.family.is_empty());
    if instances {
        // Instance files: the file of each row, after n.
        s = s
            .replacen("| n | encoding", "| n | instance | encoding", 1)
            .replacen("|---:|---|", "|---:|---|---|", 1);
    }
    for r in rows {
        let n = if instances {
            format!("{} | {}", r.n, r.value)
        } else {
            r.n.to_string()
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {} |\n",
            n,
            r.encoding,
            r.solver,
            r.vars,
            r.clauses,
            r.literals,
            r.dimacs_bytes,
            r.encode_ms,
            r.status,
            r.solve_ms.map_or_else(String::new, |t| format!("{t:.1}")),
            r.cpu_s.map_or_else(String::new, |t| format!("{t:.3}")),
            r.max_rss_mib
                .map_or_else(String::new, |m| format!("{m:.1}")),
            opt(r.conflicts),
            opt(r.decisions),
        ));
    }
    s
}

/// The largest CSV file read back to resume a sweep (a row takes some 300 bytes).
pub const MAX_CSV_BYTES: u64 = 64 << 20;

/// Why a CSV file cannot be resumed or appended to.
#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    /// A device, a pipe or a folder.
    #[error("{} is not a regular file; the CSV must be one", .0.display())]
    NotRegular(PathBuf),
    /// Larger than [`MAX_CSV_BYTES`].
    #[error("{} has {size} bytes, more than the {max} a sweep's CSV may have", .path.display(), max = MAX_CSV_BYTES)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
    },
    /// Another program's file: its header is not the sweep's.
    #[error("{} is not a CSV of queens-sat compare (its first line is '{first_line}'); it is left as it is: choose another file", .path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// Its first line (shortened).
        first_line: String,
    },
    /// A row that cannot be read, before the last one.
    #[error("{} line {line} is not a row of a queens-sat sweep ({reason}); start it afresh or use another file", .path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The line where the row starts (the header is line 1).
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed.
    #[error("cannot {what} {}: {source}", .path.display())]
    Io {
        /// "read", "write", ...
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The header line of a sweep's CSV (without its line end): the fields of [`Row`], in order.
pub fn csv_header() -> String {
    let row = Row::default();
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing to memory cannot fail.
    let _ = w.serialize(&row);
    let bytes = w.into_inner().unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    text.lines().next().unwrap_or_default().to_string()
}

/// The last column of the CSV files of each earlier version: up to `fixed_parameters`
/// (before `shard`, `gbd_hash` and `shuffle`), up to `shuffle` (before the limits and the
/// measures, `cpu_limit_s` ... `max_rss_mib`), up to `max_rss_mib` (before `decided_by`), up
/// to `decided_by` (before the certificates' `certificate_bytes`, `check_s`, `certified`).
/// Such files are still read, resumed and merged; rows appended to them keep their columns.
const EARLIER_LAST_COLUMNS: [&str; 4] =
    ["fixed_parameters", "shuffle", "max_rss_mib", "decided_by"];

/// The headers of the CSV files of earlier versions, oldest first: [`csv_header`] cut after
/// after `fixed_parameters`, after `shuffle`, after `max_rss_mib` and after `decided_by`.
pub fn earlier_csv_headers() -> Vec<String> {
    let h = csv_header();
    EARLIER_LAST_COLUMNS
        .iter()
        .filter_map(|last| {
            let cut = format!(",{last}");
            h.find(&format!("{cut},"))
                .map(|i| h[..i + cut.len()].to_string())
        })
        .collect()
}

/// The header of the oldest CSV files still read ([`earlier_csv_headers`]).
pub fn legacy_csv_header() -> String {
    earlier_csv_headers().swap_remove(0)
}

/// The CSV text of `rows`: the header ([`csv_header`]) and one line per row.
pub fn csv_text(rows: &[Row]) -> Result<String, csv::Error> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for r in rows {
        w.serialize(r)?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(format!(
        "{}\n{}",
        csv_header(),
        String::from_utf8_lossy(&bytes)
    ))
}

/// A sweep's CSV as read back to resume it.
#[derive(Debug, Default)]
pub struct ResumeFile {
    /// The file has the columns of an earlier version ([`earlier_csv_headers`]), this many:
    /// rows appended keep to them. `None`: every column of [`Row`].
    pub columns: Option<usize>,
    /// The rows, each with the line it starts on (the header is line 1).
    pub rows: Vec<(u64, Row)>,
    /// How many bytes of the file to keep when appending: `None` for a file that does not
    /// exist yet; less than its size when a torn last row is dropped, 0 to start afresh.
    pub keep: Option<u64>,
    /// The line of a torn last row (the sweep stopped while writing it), dropped and measured
    /// again.
    pub torn_line: Option<u64>,
}

/// Reads `path` to resume a sweep, or with `fresh` only checks that it is a sweep's CSV (and
/// keeps none of it). Nothing is written: the caller truncates with [`CsvAppender::open`].
///
/// Refused: a file that is not a regular file, one larger than [`MAX_CSV_BYTES`], one whose
/// header is not exactly [`csv_header`] (another program's file, even with `fresh`), and one
/// with a damaged row before the last. A torn last row (no line end, wrong number of fields,
/// unreadable values) is reported in [`ResumeFile::torn_line`] and cut off by `keep`.
pub fn read_for_resume(path: &Path, fresh: bool) -> Result<ResumeFile, CsvError> {
    let io = |what, source| CsvError::Io {
        what,
        path: path.to_path_buf(),
        source,
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ResumeFile::default()),
        Err(e) => return Err(io("read", e)),
    };
    if !meta.is_file() {
        return Err(CsvError::NotRegular(path.to_path_buf()));
    }
    if !fresh && meta.len() > MAX_CSV_BYTES {
        return Err(CsvError::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
        });
    }
    // With `fresh`, only the header matters.
    let limit = if fresh { 1 << 16 } else { MAX_CSV_BYTES + 1 };
    let file = std::fs::File::open(path).map_err(|e| io("read", e))?;
    let mut data = Vec::new();
    file.take(limit)
        .read_to_end(&mut data)
        .map_err(|e| io("read", e))?;
    if !fresh && data.len() as u64 > MAX_CSV_BYTES {
        return Err(CsvError::TooLarge {
            path: path.to_path_buf(),
            size: data.len() as u64,
        });
    }
    let header = csv_header();
    let mut out = ResumeFile {
        keep: Some(if fresh { 0 } else { data.len() as u64 }),
        ..Default::default()
    };
    if data.is_empty() {
        return Ok(out);
    }
    let first_end = data.iter().position(|&b| b == b'\n');
    let first_line = &data[..first_end.unwrap_or(data.len())];
    let foreign = || CsvError::Foreign {
        path: path.to_path_buf(),
        first_line: shorten(&String::from_utf8_lossy(first_line)),
    };
    let earlier = earlier_csv_headers();
    if first_end.is_none() {
        // Only part of the header: the sweep stopped while writing its first row.
        if header.as_bytes().starts_with(first_line) {
            out.keep = Some(0);
            out.torn_line = (!fresh).then_some(1);
            return Ok(out);
        }
        return Err(foreign());
    }
    if let Some(h) = earlier.iter().find(|h| first_line == h.as_bytes()) {
        out.columns = Some(h.split(',').count());
    } else if first_line != header.as_bytes() {
        return Err(foreign());
    }
    if fresh {
        return Ok(out);
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(&data[..]);
    let headers = reader
        .byte_headers()
        .map_err(|e| damaged(path, 1, &e))?
        .clone();
    let mut records = Vec::new();
    let mut rec = csv::ByteRecord::new();
    loop {
        match reader.read_byte_record(&mut rec) {
            Ok(true) => records.push(rec.clone()),
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                return Err(damaged(path, line, &e));
            }
        }
    }
    let complete = data.ends_with(b"\n");
    let last = records.len().saturating_sub(1);
    for (i, rec) in records.iter().enumerate() {
        let pos = rec.position().cloned().unwrap_or_else(csv::Position::new);
        let parsed = if rec.len() != headers.len() {
            Err(format!(
                "{} fields, the header has {}",
                rec.len(),
                headers.len()
            ))
        } else {
            rec.deserialize::<Row>(Some(&headers))
                .map_err(|e| e.to_string())
        };
        match parsed {
            Ok(row) if i < last || complete => out.rows.push((pos.line(), row)),
            Err(reason) if i < last => {
                return Err(CsvError::Damaged {
                    path: path.to_path_buf(),
                    line: pos.line(),
                    reason,
                })
            }
            parsed => {
                // A torn row is one line cut short; more lines (an open quote that swallowed
                // the rows after it) mean damage, which is not cut off.
                let rest = &data[pos.byte() as usize..];
                let rest = rest.strip_suffix(b"\n").unwrap_or(rest);
                if rest.contains(&b'\n') {
                    return Err(CsvError::Damaged {
                        path: path.to_path_buf(),
                        line: pos.line(),
                        reason: parsed.err().unwrap_or_else(|| "an open quote".into()),
                    });
                }
                out.keep = Some(pos.byte());
                out.torn_line = Some(pos.line());
            }
        }
    }
    Ok(out)
}

fn damaged(path: &Path, line: u64, e: &csv::Error) -> CsvError {
    CsvError::Damaged {
        path: path.to_path_buf(),
        line,
        reason: e.to_string(),
    }
}

/// At most 60 characters of a line, printable.
fn shorten(s: &str) -> String {
    let clean: String = s
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if clean.chars().count() > 60 {
        format!("{}...", clean.chars().take(60).collect::<String>())
    } else {
        clean
    }
}

/// Appends rows to a CSV file, writing the header first when the file is new or empty, and
/// flushing after every row so an interrupted sweep keeps what it finished.
pub struct CsvAppender {
    writer: csv::Writer<std::fs::File>,
    path: PathBuf,
    /// Fields written per row: all of [`Row`]'s, or the first ones (an earlier version's,
    /// [`earlier_csv_headers`]).
    fields: Option<usize>,
}

impl CsvAppender {
    /// Opens (or creates) `path` for appending, first cutting it to `keep` bytes when given
    /// (see [`ResumeFile::keep`]).
    pub fn open(path: &Path, keep: Option<u64>) -> Result<Self, CsvError> {
        let io = |source| CsvError::Io {
            what: "write",
            path: path.to_path_buf(),
            source,
        };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if let Some(len) = keep {
            file.set_len(len).map_err(io)?;
        }
        let empty = file.metadata().map_err(io)?.len() == 0;
        let writer = csv::WriterBuilder::new()
            .has_headers(empty)
            .from_writer(file);
        Ok(CsvAppender {
            writer,
            path: path.to_path_buf(),
            fields: None,
        })
    }

    /// Writes rows with only the first `columns` columns (for a file of an earlier version,
    /// see [`ResumeFile::columns`]); `None` writes them all.
    pub fn columns(mut self, columns: Option<usize>) -> Self {
        self.fields = columns;
        self
    }

    /// Appends one row and flushes it to disk.
    pub fn append(&mut self, row: &Row) -> Result<(), CsvError> {
        let io = |source| CsvError::Io {
            what: "write",
            path: self.path.clone(),
            source,
        };
        match self.fields {
            None => self
                .writer
                .serialize(row)
                .map_err(|e| io(std::io::Error::other(e.to_string())))?,
            Some(k) => {
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(Vec::new());
                w.serialize(row)
                    .map_err(|e| io(std::io::Error::other(e.to_string())))?;
                let bytes = w
                    .into_inner()
                    .map_err(|e| io(std::io::Error::other(e.to_string())))?;
                let rec = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .from_reader(&bytes[..])
                    .records()
                    .next()
                    .transpose()
                    .map_err(|e| io(std::io::Error::other(e.to_string())))?
                    .unwrap_or_default();
                let fields: Vec<&str> = rec.iter().take(k).collect();
                self.writer
                    .write_record(&fields)
                    .map_err(|e| io(std::io::Error::other(e.to_string())))?;
            }
        }
        self.writer.flush().map_err(io)?;
        Ok(())
    }
}

/// The text columns of [`Row`] that are empty when there is nothing to say (an empty board
/// has no family, an unsharded sweep no shard, a row of an older file no `gbd_hash`): `null`
/// in the JSON, as the numbers that are not available are.
pub const TEXT_OR_NULL: [&str; 8] = [
    "family",
    "parameter",
    "value",
    "fixed_parameters",
    "shard",
    "gbd_hash",
    "decided_by",
    "certified",
];

/// A row as the JSON document gives it: the CSV's columns in their order, numbers as numbers
/// (`solve_ms_all` an array of them), and a value that is not available as `null`, never 0
/// or an empty string.
struct JsonRow<'a>(&'a Row);

impl serde::Serialize for JsonRow<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeMap};
        use serde_json::Value;
        let Value::Object(mut fields) = serde_json::to_value(self.0).map_err(S::Error::custom)?
        else {
            return Err(S::Error::custom("a row is not a JSON object"));
        };
        let header = csv_header();
        let mut map = s.serialize_map(Some(fields.len()))?;
        for name in header.split(',') {
            let value = match fields.remove(name).unwrap_or(Value::Null) {
                _ if name == "solve_ms_all" => Value::from(solve_times(&self.0.solve_ms_all)),
                Value::String(t) if t.is_empty() && TEXT_OR_NULL.contains(&name) => Value::Null,
                v => v,
            };
            map.serialize_entry(name, &value)?;
        }
        map.end()
    }
}

/// The times of [`Row::solve_ms_all`], in milliseconds (those that are not numbers left out).
pub fn solve_times(text: &str) -> Vec<f64> {
    text.split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// What the JSON document of a sweep sums up besides its rows; each part left out when `None`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sections<'a> {
    /// A family sweep's summary per (n, value, encoding, solver) ([`super::transition`]).
    pub summary: Option<&'a [Summary]>,
    /// A family sweep's summary per value over every configuration ([`super::values`]).
    pub values: Option<&'a [Value]>,
    /// The scores over instances ([`super::scores`]).
    pub scores: Option<&'a Scores>,
    /// Whether the runs that decided an instance agree ([`super::values::agreement`]).
    pub agreement: Option<&'a Agreement>,
}

/// The JSON document of a sweep: its metadata, its rows (each in the CSV's column order,
/// numbers as numbers, `null` for what is not available) and the `sections` given.
pub fn json(
    meta: &Metadata,
    rows: &[Row],
    sections: &Sections,
) -> Result<String, serde_json::Error> {
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        metadata: &'a Metadata,
        rows: Vec<JsonRow<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        summary: Option<&'a [Summary]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        values: Option<&'a [Value]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        scores: Option<&'a Scores>,
        #[serde(skip_serializing_if = "Option::is_none")]
        agreement: Option<&'a Agreement>,
    }
    serde_json::to_string_pretty(&Doc {
        metadata: meta,
        rows: rows.iter().map(JsonRow).collect(),
        summary: sections.summary,
        values: sections.values,
        scores: sections.scores,
        agreement: sections.agreement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lists_the_settings_of_a_row() {
        assert_eq!(
            csv_header(),
            "n,encoding,column_alo,solver,repeats,timeout_s,vars,clauses,literals,\
             dimacs_bytes,encode_ms,status,solve_ms,solve_ms_all,conflicts,decisions,\
             solver_version,tool_version,machine,family,parameter,value,seed,fixed_parameters,\
             shard,gbd_hash,shuffle,cpu_limit_s,memory_limit_mib,wall_s,cpu_s,max_rss_mib,\
             decided_by,certificate_bytes,check_s,certified"
        );
        // The headers of files written before the last columns.
        let earlier = earlier_csv_headers();
        assert_eq!(earlier.len(), 4);
        assert!(earlier[0].ends_with(",fixed_parameters"));
        assert!(earlier[1].ends_with(",gbd_hash,shuffle"));
        assert!(earlier[2].ends_with(",cpu_s,max_rss_mib"));
        assert!(earlier[3].ends_with(",max_rss_mib,decided_by"));
        for h in &earlier {
            assert!(csv_header().starts_with(&format!("{h},")));
        }
    }

    #[test]
    fn the_json_document_gets_the_scores_as_numbers_and_keeps_its_members() {
        // One instance: a timed out, b solved it in 0.25 s.
        let base = Row {
            solver: "s".into(),
            timeout_s: 10.0,
            family: "blocked".into(),
            ..Row::default()
        };
        let rows = vec![
            Row {
                encoding: "a".into(),
                status: "TIMEOUT".into(),
                ..base.clone()
            },
            Row {
                encoding: "b".into(),
                status: "SAT".into(),
                solve_ms: Some(250.0),
                ..base
            },
        ];
        let meta = crate::experiment::Metadata {
            tool_version: "t".into(),
            machine: "m".into(),
            solvers: vec![],
            missing_solvers: vec![],
            repeats: 1,
            timeout_s: 10.0,
            cpu_limit_s: None,
            memory_limit_mib: None,
            load_at_start: None,
            column_alo: false,
            family: None,
        };
        let doc = json(&meta, &rows, &Sections::default()).unwrap();
        let scores = crate::experiment::scores::scores(&rows);
        let with = json(
            &meta,
            &rows,
            &Sections {
                scores: Some(&scores),
                ..Sections::default()
            },
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&with).unwrap();
        let old: serde_json::Value = serde_json::from_str(&doc).unwrap();
        assert_eq!(
            (&v["metadata"], &v["rows"]),
            (&old["metadata"], &old["rows"])
        );
        assert!(old.get("scores").is_none());
        let s = &v["scores"];
        assert_eq!(s["time_basis"], "wall");
        let b = &s["configurations"][0];
        assert_eq!(b["encoding"], "b");
        assert_eq!(b["solved"].as_u64(), Some(1));
        assert_eq!(b["solved_median_s"].as_f64(), Some(0.25));
        assert_eq!(b["unique"].as_u64(), Some(1));
        assert_eq!(b["vbs_contributions"].as_u64(), Some(1));
        let a = &s["configurations"][1];
        assert!(a["solved_median_s"].is_null());
        assert_eq!(a["par2_s"].as_f64(), Some(20.0));
        assert_eq!(
            (a["timeouts"].as_u64(), a["total_s"].as_f64()),
            (Some(1), Some(10.0))
        );
        assert_eq!(b["timeouts"].as_u64(), Some(0));
        assert_eq!(s["vbs"]["solved"].as_u64(), Some(1));
    }

    #[test]
    fn json_rows_have_numbers_and_nulls() {
        let row = Row {
            n: 4,
            status: "SAT".into(),
            solve_ms: Some(1.5),
            solve_ms_all: "1.25 1.50 2.00".into(),
            conflicts: Some(0),
            shard: "1/2".into(),
            ..Row::default()
        };
        let meta = Metadata {
            tool_version: "t".into(),
            machine: "m".into(),
            solvers: vec![],
            missing_solvers: vec![],
            repeats: 3,
            timeout_s: 60.0,
            cpu_limit_s: None,
            memory_limit_mib: None,
            load_at_start: None,
            column_alo: false,
            family: None,
        };
        let doc: serde_json::Value =
            serde_json::from_str(&json(&meta, &[row], &Sections::default()).unwrap()).unwrap();
        let r = &doc["rows"][0];
        assert_eq!(r["solve_ms_all"], serde_json::json!([1.25, 1.5, 2.0]));
        assert_eq!(r["solve_ms"], 1.5);
        // A measured 0 stays 0; what is not available is null.
        assert_eq!(r["conflicts"], 0);
        assert!(r["decisions"].is_null() && r["seed"].is_null() && r["shuffle"].is_null());
        for name in TEXT_OR_NULL.iter().filter(|&&k| k != "shard") {
            assert!(r[name].is_null(), "{name}: {}", r[name]);
        }
        assert_eq!(r["shard"], "1/2");
        // The columns of the CSV, in its order.
        let keys: Vec<&String> = r.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), csv_header().split(',').count());
        let text = json(&meta, &[Row::default()], &Sections::default()).unwrap();
        let at = |k: &str| text.find(&format!("\"{k}\":")).unwrap();
        assert!(at("n") < at("encoding") && at("gbd_hash") < at("shuffle"));
        // No run answered: an empty array, the median null.
        let r = &serde_json::from_str::<serde_json::Value>(&text).unwrap()["rows"][0];
        assert_eq!(r["solve_ms_all"], serde_json::json!([]));
        assert!(r["solve_ms"].is_null());
    }

    #[test]
    fn files_without_the_last_columns_are_read_as_legacy() {
        // The row with only the first k columns.
        let cut = |k: usize| {
            format!(
                "{}\n",
                ROW.trim_end()
                    .split(',')
                    .take(k)
                    .collect::<Vec<_>>()
                    .join(",")
            )
        };
        let head = format!("{}\n", legacy_csv_header());
        let r = resume(&format!("{head}{}", cut(24))).unwrap();
        assert_eq!(r.columns, Some(24));
        assert_eq!(r.rows.len(), 1);
        assert_eq!(r.rows[0].1.shard, "");
        let head = format!("{}\n", earlier_csv_headers()[1]);
        let r = resume(&format!("{head}{}", cut(27))).unwrap();
        assert_eq!(r.columns, Some(27));
        assert_eq!(r.rows[0].1.cpu_s, None);
        let head = format!("{}\n", earlier_csv_headers()[2]);
        let r = resume(&format!("{head}{}", cut(32))).unwrap();
        assert_eq!(r.columns, Some(32));
        assert_eq!(r.rows[0].1.decided_by, "");
        let head = format!("{}\n", earlier_csv_headers()[3]);
        let r = resume(&format!("{head}{}", cut(33))).unwrap();
        assert_eq!(r.columns, Some(33));
        assert_eq!(r.rows[0].1.certified, "");
        assert_eq!(
            resume(&format!("{}\n{ROW}", csv_header())).unwrap().columns,
            None
        );
    }

    const ROW: &str =
        "4,pairwise,false,varisat,1,60.0,16,80,168,1577,0.1,SAT,1.2,1.2,,,v,t,m,,,,,,,,,,,,,,,,,\n";

    fn resume(text: &str) -> Result<ResumeFile, CsvError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, text).unwrap();
        read_for_resume(&path, false)
    }

    #[test]
    fn torn_rows_and_damaged_rows() {
        let head = format!("{}\n", csv_header());
        let r = resume(&format!("{head}{ROW}{ROW}")).unwrap();
        assert_eq!(r.rows.len(), 2);
        assert_eq!(r.rows[1].0, 3);
        assert_eq!(r.torn_line, None);
        // A last row without its line end is cut off where it starts.
        let r = resume(&format!("{head}{ROW}{}", &ROW[..20])).unwrap();
        assert_eq!(r.rows.len(), 1);
        assert_eq!(r.torn_line, Some(3));
        assert_eq!(r.keep, Some((head.len() + ROW.len()) as u64));
        // Only part of the header.
        let r = resume(&head[..10]).unwrap();
        assert_eq!((r.keep, r.torn_line), (Some(0), Some(1)));
        // An open quote swallowing the rows after it is damage, not a torn row.
        let quoted = ROW.replace(",v,", ",\"v,");
        let e = resume(&format!("{head}{quoted}{ROW}{ROW}")).unwrap_err();
        assert!(matches!(e, CsvError::Damaged { line: 2, .. }), "{e}");
        // A bad row before the last.
        let bad = ROW.replace("false", "maybe");
        let e = resume(&format!("{head}{ROW}{bad}{ROW}")).unwrap_err();
        assert!(matches!(e, CsvError::Damaged { line: 3, .. }), "{e}");
    }
}
