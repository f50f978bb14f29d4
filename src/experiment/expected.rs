//! Expected answers of instance files, to check a sweep's rows against: [`Expected::read`]
//! takes either the results file of CSPLib problem 079 (Excluded Diagonals: `n D mininrow id
//! RESULT-FILE:Solutions: NUMSOLS Nodes: ...`, one instance a line, gzip or plain) or a CSV
//! file `instance,D,answer` (`answer` SAT or UNSAT, `D` empty for the file as a whole).
//! [`Expected::judge`] turns a row whose solver answered the other way into `WRONG: expected
//! SAT` or `WRONG: expected UNSAT`.
//!
//! Also [`parse_diagonals`], the D values of `compare --diagonals`: one number, a range
//! `17..21` (ends included), a list `17,19,21`, or both.

use super::Row;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The most D values `--diagonals` may list.
pub const MAX_DIAGONALS: usize = 10_000;

/// Why a list of D values cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiagonalsError {
    /// A part is not a whole number.
    #[error("'{0}' is not a number of diagonals (a whole number)")]
    Number(String),
    /// A range whose end is below its start.
    #[error("the range {0} is empty (its end is below its start)")]
    Empty(String),
    /// Too many values.
    #[error("more than {MAX_DIAGONALS} values")]
    TooMany,
}

/// The D values of `D`, `A..B` (ends included), `A,B,C` or a mix (`1,5..7`): sorted, each
/// once.
pub fn parse_diagonals(text: &str) -> Result<Vec<usize>, DiagonalsError> {
    let mut values = Vec::new();
    for part in text.split(',').map(str::trim) {
        let number = |v: &str| -> Result<usize, DiagonalsError> {
            v.trim()
                .parse()
                .map_err(|_| DiagonalsError::Number(v.trim().to_string()))
        };
        let (a, b) = crate::input::range_ends(part, number)?;
        if b < a {
            return Err(DiagonalsError::Empty(part.to_string()));
        }
        if b - a >= MAX_DIAGONALS || values.len() + (b - a) >= MAX_DIAGONALS {
            return Err(DiagonalsError::TooMany);
        }
        values.extend(a..=b);
    }
    values.sort_unstable();
    values.dedup();
    Ok(values)
}

/// Why a file of expected answers cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ExpectedError {
    /// The file cannot be opened or read.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not of the file's format.
    #[error("{}, line {line}: {why}", .path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The file holds no answer.
    #[error("{}: no expected answers (neither the CSPLib prob079 results format nor a CSV file instance,D,answer)", .0.display())]
    Empty(PathBuf),
    /// Two lines give the same instance different answers.
    #[error("{}, line {line}: {instance} is expected {} on an earlier line", .path.display(), answer_text(*.earlier))]
    Contradiction {
        /// The file.
        path: PathBuf,
        /// The later line.
        line: usize,
        /// The instance (`FILE` or `FILE d=D`).
        instance: String,
        /// The earlier answer (SAT: `true`).
        earlier: bool,
    },
}

fn answer_text(sat: bool) -> &'static str {
    if sat {
        "SAT"
    } else {
        "UNSAT"
    }
}

/// Expected answers by instance: the file name and the number of diagonals (`None` for the
/// file as a whole); `true` for SAT.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    answers: HashMap<(String, Option<usize>), bool>,
}

impl Expected {
    /// Reads a file of expected answers (gzip when it starts with the gzip magic bytes): the
    /// CSPLib prob079 results file, or a CSV file with the header `instance,D,answer`.
    pub fn read(path: &Path) -> Result<Expected, ExpectedError> {
        let io = |source| ExpectedError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut bytes = std::fs::read(path).map_err(io)?;
        if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut plain = Vec::new();
            flate2::read::MultiGzDecoder::new(&bytes[..])
                .read_to_end(&mut plain)
                .map_err(io)?;
            bytes = plain;
        }
        let mut lines = BufReader::new(&bytes[..]).lines();
        let mut expected = Expected::default();
        let bad = |line: usize, why: String| ExpectedError::Line {
            path: path.to_path_buf(),
            line,
            why,
        };
        let Some(first) = lines.next() else {
            return Err(ExpectedError::Empty(path.to_path_buf()));
        };
        let first = first.map_err(io)?;
        let csv = first
            .split(',')
            .map(|c| c.trim().to_ascii_lowercase())
            .eq(["instance", "d", "answer"]);
        let mut add = |line: usize, key: (String, Option<usize>), sat: bool| {
            let instance = match key.1 {
                Some(d) => format!("{} d={d}", key.0),
                None => key.0.clone(),
            };
            match expected.answers.insert(key, sat) {
                Some(earlier) if earlier != sat => Err(ExpectedError::Contradiction {
                    path: path.to_path_buf(),
                    line,
                    instance,
                    earlier,
                }),
                _ => Ok(()),
            }
        };
        // The CSV's first line is its header; the results file has none.
        type Parse = fn(&str) -> Result<((String, Option<usize>), bool), String>;
        let (parse, first): (Parse, _) = if csv {
            (csv_line, None)
        } else {
            (results_line, Some((1, Ok(first))))
        };
        let rest = lines.enumerate().map(|(i, l)| (i + 2, l));
        for (number, line) in first.into_iter().chain(rest) {
            let line = line.map_err(io)?;
            if line.trim().is_empty() {
                continue;
            }
            let (key, sat) = parse(&line).map_err(|why| bad(number, why))?;
            add(number, key, sat)?;
        }
        if expected.answers.is_empty() {
            return Err(ExpectedError::Empty(path.to_path_buf()));
        }
        Ok(expected)
    }

    /// The number of instances with an expected answer.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// `true` when no instance has an expected answer.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }

    /// The expected answer of the instance a row names in its `value` column (`FILE`, or
    /// `FILE d=D` for the first D diagonals): `Some(true)` for SAT.
    pub fn answer(&self, value: &str) -> Option<bool> {
        let key = match value.rsplit_once(" d=") {
            Some((name, d)) => match d.parse() {
                Ok(d) => (name.to_string(), Some(d)),
                Err(_) => (value.to_string(), None),
            },
            None => (value.to_string(), None),
        };
        self.answers.get(&key).copied()
    }

    /// Checks a row against its expected answer: a SAT or UNSAT row that says the other way
    /// becomes `WRONG: expected SAT` or `WRONG: expected UNSAT`. Returns `Some(agrees)` for a
    /// row that was checked (answered, with an expected answer), `None` otherwise.
    pub fn judge(&self, row: &mut Row) -> Option<bool> {
        let said = match row.status.as_str() {
            "SAT" => true,
            "UNSAT" => false,
            _ => return None,
        };
        let expected = self.answer(&row.value)?;
        if said != expected {
            row.status = format!("WRONG: expected {}", answer_text(expected));
        }
        Some(said == expected)
    }
}

/// One line of the CSV form: `instance,D,answer`.
fn csv_line(line: &str) -> Result<((String, Option<usize>), bool), String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [instance, d, answer] = fields[..] else {
        return Err(format!(
            "expected 3 fields instance,D,answer, found {}",
            fields.len()
        ));
    };
    if instance.is_empty() {
        return Err("empty instance name".into());
    }
    let d = match d {
        "" => None,
        d => Some(
            d.parse()
                .map_err(|_| format!("D '{d}' is not a whole number"))?,
        ),
    };
    let sat = match answer.to_ascii_uppercase().as_str() {
        "SAT" => true,
        "UNSAT" => false,
        _ => return Err(format!("answer '{answer}' is neither SAT nor UNSAT")),
    };
    Ok(((instance.to_string(), d), sat))
}

/// One line of the CSPLib prob079 results file: `n D mininrow id RESULT:Solutions: NUMSOLS
/// ...`; the instance is `diag-N-MININROW-ID.param` with its first D diagonals, SAT when
/// NUMSOLS > 0.
fn results_line(line: &str) -> Result<((String, Option<usize>), bool), String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 6 {
        return Err(format!(
            "expected at least 6 fields (n D mininrow id filename numsols), found {}",
            f.len()
        ));
    }
    let number = |i: usize, what: &str| -> Result<u64, String> {
        f[i].parse()
            .map_err(|_| format!("{what} '{}' is not a whole number", f[i]))
    };
    let (n, d, min_free, id) = (
        number(0, "n")?,
        number(1, "D")?,
        number(2, "mininrow")?,
        number(3, "id")?,
    );
    let numsols = number(5, "numsols")?;
    let file = format!("diag-{n}-{min_free}-{id}.param");
    if !f[4].contains(&file) {
        return Err(format!(
            "the result file {} does not name {file}, the instance of n, mininrow and id",
            f[4]
        ));
    }
    let d = usize::try_from(d).map_err(|_| format!("D {d} is too large"))?;
    Ok(((file, Some(d)), numsols > 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn diagonals_lists_and_ranges() {
        use DiagonalsError::{Empty, Number, TooMany};
        let cases: [(&str, Result<Vec<usize>, DiagonalsError>); 7] = [
            ("5", Ok(vec![5])),
            ("3..5", Ok(vec![3, 4, 5])),
            ("7, 3..4,3", Ok(vec![3, 4, 7])),
            ("5..3", Err(Empty("5..3".into()))),
            ("x", Err(Number("x".into()))),
            ("", Err(Number("".into()))),
            ("0..99999", Err(TooMany)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_diagonals(text), want, "{text}");
        }
    }

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(text.as_bytes()).unwrap();
        f
    }

    #[test]
    fn both_formats_are_read() {
        let f = file(
            "10 5 4 985 a/diag-10-4-985.param-5.shiftqueens.result:Solutions: 1 Nodes: 6 Timeout: 0 Time: 0.1\n\
             10 9 4 985 a/diag-10-4-985.param-9.shiftqueens.result:Solutions: 0 Nodes: 6 Timeout: 0 Time: 0.1\n",
        );
        let e = Expected::read(f.path()).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e.answer("diag-10-4-985.param d=5"), Some(true));
        assert_eq!(e.answer("diag-10-4-985.param d=9"), Some(false));
        assert_eq!(e.answer("diag-10-4-985.param d=6"), None);
        assert_eq!(e.answer("diag-10-4-985.param"), None);
        let f = file("instance,D,answer\nx.txt,,unsat\ny.param,3,SAT\n");
        let e = Expected::read(f.path()).unwrap();
        assert_eq!(e.answer("x.txt"), Some(false));
        assert_eq!(e.answer("y.param d=3"), Some(true));
        let mut row = Row {
            value: "x.txt".into(),
            status: "SAT".into(),
            ..Default::default()
        };
        assert_eq!(e.judge(&mut row), Some(false));
        assert_eq!(row.status, "WRONG: expected UNSAT");
        row.status = "TIMEOUT".into();
        assert_eq!(e.judge(&mut row), None);
    }

    #[test]
    fn bad_files_name_the_line() {
        for (text, message) in [
            ("instance,D,answer\nx,,maybe\n", "line 2: answer 'maybe'"),
            ("instance,D,answer\nx,q,SAT\n", "line 2: D 'q'"),
            ("instance,D,answer\nx,SAT\n", "line 2: expected 3 fields"),
            ("10 5 4 985 z:Solutions: 1\n", "line 1: the result file z"),
            ("hello\n", "line 1: expected at least 6 fields"),
            ("instance,D,answer\n", "no expected answers"),
            (
                "instance,D,answer\nx,,SAT\nx,,UNSAT\n",
                "line 3: x is expected SAT",
            ),
        ] {
            let f = file(text);
            let e = Expected::read(f.path()).unwrap_err().to_string();
            assert!(e.contains(message), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
