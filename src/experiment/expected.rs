//! Expected answers of instance files, to check a sweep's rows against: [`Expected::read`]
//! takes either the results file of CSPLib problem 079 (Excluded Diagonals: `n D mininrow id
//! RESULT-FILE:Solutions: NUMSOLS Nodes: ...`, one instance a line, gzip or plain) or a CSV
//! file with a header, read with the `csv` crate: `instance,D,answer` (`answer` SAT or UNSAT,
//! `D` empty for the file as a whole), or any columns named by [`Columns`], such as the CSV
//! that `compare` itself writes (`value` names the instance, `status` is the answer).
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
        line: u64,
        /// What is wrong.
        why: String,
    },
    /// The CSV file has no column of that name, or none of the names a role is looked up by.
    #[error("{}: no column {wanted} for the {role} (the columns are {})", .path.display(), .columns.join(", "))]
    Column {
        /// The file.
        path: PathBuf,
        /// What the column holds: `instance`, `D` or `answer`.
        role: &'static str,
        /// The name asked for (`'status'`), or the names looked for (`'answer' or 'status'`).
        wanted: String,
        /// The columns of the file's header.
        columns: Vec<String>,
    },
    /// The file holds no answer.
    #[error("{}: no expected answers (neither the CSPLib prob079 results format nor a CSV file with instances and SAT or UNSAT answers)", .0.display())]
    Empty(PathBuf),
    /// Two lines give the same instance different answers.
    #[error("{}, line {line}: {instance} is expected {} on an earlier line", .path.display(), answer_text(*.earlier))]
    Contradiction {
        /// The file.
        path: PathBuf,
        /// The later line.
        line: u64,
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

/// Which columns of a CSV file of expected answers hold the instance, its number of
/// diagonals D and the answer, by header name (compared without regard to case). A column
/// left `None` is looked up by its usual names: the instance `instance`, else `value` (the
/// column that names the instance in the CSV of `compare`); D `D` (none: the instance as it
/// is named); the answer `answer`, else `status`; the board size `n` and the seed `seed`.
///
/// A file with a seed column holds the answers of drawn instances (a family sweep's rows): each
/// is matched by its board size, the swept parameter's value (the D column where there is one,
/// else the instance column: `value` in a CSV of `compare`) and its seed ([`family_key`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// The column of the instance's name.
    pub instance: Option<String>,
    /// The column of D, the first diagonals taken (empty cells: the file as it is).
    pub d: Option<String>,
    /// The column of the answer.
    pub answer: Option<String>,
    /// The column of the board size (drawn instances).
    pub n: Option<String>,
    /// The column of the seed (drawn instances).
    pub seed: Option<String>,
}

/// The name of a drawn instance among expected answers: board size, the swept parameter's
/// value and the seed, `n=30 29 seed=4`.
pub fn family_key(n: usize, value: &str, seed: u64) -> String {
    format!("n={n} {value} seed={seed}")
}

/// The whole number a value written as a fraction of n stands for (`0.9n` at n = 30: `27`,
/// rounded to the nearest), as a sweep's recipe takes it; `None` for any other value.
fn of_n(n: usize, value: &str) -> Option<String> {
    let f: f64 = value.strip_suffix('n')?.parse().ok()?;
    (f.is_finite() && f >= 0.0).then(|| format!("{}", (f * n as f64).round() as usize))
}

/// Why the columns of a CSV file of expected answers cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColumnsError {
    /// A part is not `ROLE=COLUMN`.
    #[error("'{0}' is not ROLE=COLUMN (instance=NAME, d=NAME, answer=NAME, n=NAME or seed=NAME)")]
    Part(String),
    /// A role other than instance, d and answer.
    #[error("unknown role '{0}' (choose instance, d, answer, n or seed)")]
    Role(String),
    /// A role named twice.
    #[error("the {0} column is named twice")]
    Twice(String),
}

impl std::str::FromStr for Columns {
    type Err = ColumnsError;

    /// `instance=NAME,d=NAME,answer=NAME`, each part optional, in any order (roles without
    /// regard to case).
    fn from_str(text: &str) -> Result<Columns, ColumnsError> {
        let mut columns = Columns::default();
        for part in text.split(',').map(str::trim) {
            let Some((role, name)) = part.split_once('=') else {
                return Err(ColumnsError::Part(part.to_string()));
            };
            let (role, name) = (role.trim().to_ascii_lowercase(), name.trim());
            if name.is_empty() {
                return Err(ColumnsError::Part(part.to_string()));
            }
            let slot = match role.as_str() {
                "instance" => &mut columns.instance,
                "d" => &mut columns.d,
                "answer" => &mut columns.answer,
                "n" => &mut columns.n,
                "seed" => &mut columns.seed,
                _ => return Err(ColumnsError::Role(role)),
            };
            if slot.replace(name.to_string()).is_some() {
                return Err(ColumnsError::Twice(role));
            }
        }
        Ok(columns)
    }
}

impl Columns {
    /// `true` when no column is named.
    pub fn is_default(&self) -> bool {
        *self == Columns::default()
    }
}

/// What an answer cell says: SAT (`true`), UNSAT (`false`), or nothing to expect (`None`).
/// `SAT` / `SATISFIABLE` and `UNSAT` / `UNSATISFIABLE` without regard to case; no expectation
/// for an empty cell, `UNKNOWN`, `TIMEOUT`, `MEMOUT`, `SKIPPED`, and the statuses of rows that
/// `compare` did not decide (`WRONG: ...`, `ERROR: ...`).
pub fn parse_answer(cell: &str) -> Result<Option<bool>, String> {
    let word = cell.trim().to_ascii_uppercase();
    let status = word.split(':').next().unwrap_or("").trim();
    match word.as_str() {
        "SAT" | "SATISFIABLE" => Ok(Some(true)),
        "UNSAT" | "UNSATISFIABLE" => Ok(Some(false)),
        "" | "UNKNOWN" | "TIMEOUT" | "MEMOUT" | "SKIPPED" => Ok(None),
        _ if status == "WRONG" || status == "ERROR" => Ok(None),
        _ => Err(format!(
            "answer '{}' is neither SAT nor UNSAT (nor SATISFIABLE, UNSATISFIABLE; UNKNOWN, \
             TIMEOUT, MEMOUT, SKIPPED or empty expect nothing)",
            cell.trim()
        )),
    }
}

/// Expected answers by instance, named as rows name them in their `value` column (`FILE`, or
/// `FILE d=D` for the first D diagonals); `true` for SAT.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    answers: HashMap<String, bool>,
}

/// The name of an instance in a row's `value` column: `FILE`, or `FILE d=D`.
fn instance_name(file: &str, d: Option<usize>) -> String {
    match d {
        Some(d) => format!("{file} d={d}"),
        None => file.to_string(),
    }
}

impl Expected {
    /// Reads a file of expected answers (gzip when it starts with the gzip magic bytes): the
    /// CSPLib prob079 results file, or a CSV file with a header (read as such when its first
    /// line has a comma or `columns` names a column), whose `columns` hold the instance, D and
    /// the answer ([`Columns`], [`parse_answer`]).
    pub fn read(path: &Path, columns: &Columns) -> Result<Expected, ExpectedError> {
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
        let first = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]);
        let mut expected = Expected::default();
        let mut add = |line: u64, instance: String, sat: bool| match expected
            .answers
            .insert(instance.clone(), sat)
        {
            Some(earlier) if earlier != sat => Err(ExpectedError::Contradiction {
                path: path.to_path_buf(),
                line,
                instance,
                earlier,
            }),
            _ => Ok(()),
        };
        if first.contains(&b',') || first.contains(&b'\t') || !columns.is_default() {
            read_csv(path, &bytes, columns, &mut add)?;
        } else {
            for (number, line) in BufReader::new(&bytes[..]).lines().enumerate() {
                let number = number as u64 + 1;
                let line = line.map_err(io)?;
                if line.trim().is_empty() {
                    continue;
                }
                let (instance, sat) = results_line(&line).map_err(|why| ExpectedError::Line {
                    path: path.to_path_buf(),
                    line: number,
                    why,
                })?;
                add(number, instance, sat)?;
            }
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
        self.answers.get(value).copied()
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
        let expected = match row.seed.filter(|_| !row.family.is_empty()) {
            // A value given as a fraction of n (`d=0.9n`) is matched as written, else as the
            // number it stands for at this n (`27` at n = 30), as published files give it.
            Some(seed) => self
                .answer(&family_key(row.n, &row.value, seed))
                .or_else(|| {
                    let number = of_n(row.n, &row.value)?;
                    self.answer(&family_key(row.n, &number, seed))
                })?,
            None => self.answer(&row.value)?,
        };
        if said != expected {
            row.status = format!("WRONG: expected {}", answer_text(expected));
        }
        Some(said == expected)
    }
}

/// The index of the column of `role` in `header`: the one named `given`, else the first of
/// `usual` there (`None` when `required` is false and none is).
fn column(
    path: &Path,
    header: &csv::StringRecord,
    role: &'static str,
    given: Option<&str>,
    usual: &[&str],
    required: bool,
) -> Result<Option<usize>, ExpectedError> {
    let find = |name: &str| header.iter().position(|h| h.eq_ignore_ascii_case(name));
    let found = match given {
        Some(name) => find(name).ok_or_else(|| format!("'{name}'")),
        None => match usual.iter().find_map(|u| find(u)) {
            Some(i) => Ok(i),
            None if !required => return Ok(None),
            None => Err(usual
                .iter()
                .map(|u| format!("'{u}'"))
                .collect::<Vec<_>>()
                .join(" or ")),
        },
    };
    found.map(Some).map_err(|wanted| ExpectedError::Column {
        path: path.to_path_buf(),
        role,
        wanted,
        columns: header.iter().map(str::to_string).collect(),
    })
}

/// Reads the CSV form: a header, then one answer a record (see [`Expected::read`]), each
/// handed to `add` with its line and the instance's name.
fn read_csv(
    path: &Path,
    bytes: &[u8],
    columns: &Columns,
    add: &mut dyn FnMut(u64, String, bool) -> Result<(), ExpectedError>,
) -> Result<(), ExpectedError> {
    let bad = |line: u64, why: String| ExpectedError::Line {
        path: path.to_path_buf(),
        line,
        why,
    };
    let csv_error = |e: csv::Error| {
        let line = e.position().map_or(1, csv::Position::line);
        let why = match e.kind() {
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => format!("{len} fields, the header has {expected_len}"),
            csv::ErrorKind::Utf8 { .. } => "not a text line (UTF-8)".to_string(),
            _ => e.to_string(),
        };
        bad(line, why)
    };
    // Tab-separated when the header has a tab and no comma.
    let header_line = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let tabs = header_line.contains(&b'\t') && !header_line.contains(&b',');
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .delimiter(if tabs { b'\t' } else { b',' })
        .from_reader(bytes);
    let header = reader.headers().map_err(csv_error)?.clone();
    let col = |role, given: &Option<String>, usual: &[&str], required| {
        column(path, &header, role, given.as_deref(), usual, required)
    };
    let seed = col("seed", &columns.seed, &["seed"], columns.seed.is_some())?;
    let d = col("D", &columns.d, &["d"], false)?;
    // Drawn instances are named by size, value and seed; the value may be D, and then no
    // column need name the instance.
    let instance = col(
        "instance",
        &columns.instance,
        &["instance", "value"],
        seed.is_none() || d.is_none(),
    )?;
    let n = match seed {
        Some(_) => col("n", &columns.n, &["n"], true)?,
        None => None,
    };
    let answer = col("answer", &columns.answer, &["answer", "status"], true)?;
    let Some(answer) = answer else {
        return Ok(());
    };
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        let line = record.position().map_or(0, csv::Position::line);
        let sat = parse_answer(&record[answer]).map_err(|why| bad(line, why))?;
        // A row without a seed names an instance file (a compare CSV of files).
        let seeded = seed.filter(|&s| !record[s].is_empty());
        if let (Some(seed), Some(n)) = (seeded, n) {
            let number = |i: usize, what: &str| -> Result<u64, ExpectedError> {
                record[i].parse().map_err(|_| {
                    bad(
                        line,
                        format!("{what} '{}' is not a whole number", &record[i]),
                    )
                })
            };
            let value = match (d, instance) {
                (Some(i), _) | (None, Some(i)) => &record[i],
                (None, None) => "",
            };
            let key = family_key(number(n, "n")? as usize, value, number(seed, "seed")?);
            if let Some(sat) = sat {
                add(line, key, sat)?;
            }
            continue;
        }
        let Some(instance) = instance else {
            return Err(bad(
                line,
                "no seed, and no column names the instance".into(),
            ));
        };
        let name = &record[instance];
        if name.is_empty() {
            return Err(bad(line, "empty instance name".into()));
        }
        let d = match d.map(|i| &record[i]) {
            None | Some("") => None,
            Some(d) => Some(
                d.parse()
                    .map_err(|_| bad(line, format!("D '{d}' is not a whole number")))?,
            ),
        };
        if let Some(sat) = sat {
            add(line, instance_name(name, d), sat)?;
        }
    }
    Ok(())
}

/// One line of the CSPLib prob079 results file: `n D mininrow id RESULT:Solutions: NUMSOLS
/// ...`; the instance is `diag-N-MININROW-ID.param` with its first D diagonals, SAT when
/// NUMSOLS > 0.
fn results_line(line: &str) -> Result<(String, bool), String> {
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
    Ok((instance_name(&file, Some(d)), numsols > 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn fractions_of_n_are_the_numbers_they_stand_for() {
        assert_eq!(of_n(36, "0.833n").as_deref(), Some("30"));
        assert_eq!(of_n(30, "0.967n").as_deref(), Some("29"));
        assert_eq!(of_n(30, "27"), None);
        assert_eq!(of_n(30, "-1n"), None);
        assert_eq!(of_n(30, "xn"), None);
    }

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
        let e = Expected::read(f.path(), &Columns::default()).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e.answer("diag-10-4-985.param d=5"), Some(true));
        assert_eq!(e.answer("diag-10-4-985.param d=9"), Some(false));
        assert_eq!(e.answer("diag-10-4-985.param d=6"), None);
        assert_eq!(e.answer("diag-10-4-985.param"), None);
        let f = file("instance,D,answer\nx.txt,,unsat\n\ny.param,3,SAT\n");
        let e = Expected::read(f.path(), &Columns::default()).unwrap();
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
    fn any_columns_and_the_words_of_other_tools() {
        // Columns named, in another order, quoted fields, the words of solvers.
        let f = file(
            "status,name,time\n\
             SATISFIABLE,a.cnf,1.5\n\
             \"unsatisfiable\",\"b, c.cnf\",2\n\
             UNKNOWN,d.cnf,\n\
             ,e.cnf,\n",
        );
        let columns: Columns = "instance=name, answer=STATUS".parse().unwrap();
        let e = Expected::read(f.path(), &columns).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e.answer("a.cnf"), Some(true));
        assert_eq!(e.answer("b, c.cnf"), Some(false));
        assert_eq!(e.answer("d.cnf"), None);
        // The columns of compare's own CSV are found without naming them.
        let f = file(
            "n,encoding,solver,status,value\n\
             10,pairwise,varisat,SAT,diag-10-4-1.param d=5\n\
             10,pairwise,cadical,SAT,diag-10-4-1.param d=5\n\
             10,pairwise,varisat,TIMEOUT,diag-10-4-1.param d=9\n\
             10,pairwise,varisat,WRONG: expected UNSAT,diag-10-4-1.param d=8\n\
             10,pairwise,varisat,UNSAT,diag-10-4-1.param d=7\n",
        );
        let e = Expected::read(f.path(), &Columns::default()).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e.answer("diag-10-4-1.param d=5"), Some(true));
        assert_eq!(e.answer("diag-10-4-1.param d=7"), Some(false));
        assert_eq!(e.answer("diag-10-4-1.param d=8"), None);
        // A D column of another name.
        let f = file("file,result\n");
        let e = Expected::read(f.path(), &"instance=file,d=diags".parse().unwrap()).unwrap_err();
        assert!(e.to_string().contains("no column 'diags' for the D"), "{e}");
        let f = file("file,diags,result\nx.param,4,SAT\n");
        let columns: Columns = "d=diags,instance=file,answer=result".parse().unwrap();
        let e = Expected::read(f.path(), &columns).unwrap();
        assert_eq!(e.answer("x.param d=4"), Some(true));
    }

    #[test]
    fn columns_are_read() {
        use ColumnsError::{Part, Role, Twice};
        assert_eq!(
            "answer=status".parse::<Columns>(),
            Ok(Columns {
                answer: Some("status".into()),
                ..Default::default()
            })
        );
        assert_eq!("x".parse::<Columns>(), Err(Part("x".into())));
        assert_eq!("answer=".parse::<Columns>(), Err(Part("answer=".into())));
        assert_eq!("time=t".parse::<Columns>(), Err(Role("time".into())));
        assert_eq!("d=a,D=b".parse::<Columns>(), Err(Twice("d".into())));
    }

    #[test]
    fn bad_files_name_the_line() {
        for (text, columns, message) in [
            (
                "instance,D,answer\nx,,maybe\n",
                "",
                "line 2: answer 'maybe'",
            ),
            ("instance,D,answer\nx,q,SAT\n", "", "line 2: D 'q'"),
            (
                "instance,D,answer\nx,SAT\n",
                "",
                "line 2: 2 fields, the header has 3",
            ),
            (
                "instance,D,answer\n,,SAT\n",
                "",
                "line 2: empty instance name",
            ),
            (
                "10 5 4 985 z:Solutions: 1\n",
                "",
                "line 1: the result file z",
            ),
            ("hello\n", "", "line 1: expected at least 6 fields"),
            ("instance,D,answer\n", "", "no expected answers"),
            (
                "instance,D,answer\nx,,SAT\nx,,UNSAT\n",
                "",
                "line 3: x is expected SAT on an earlier line",
            ),
            (
                "name,result\nx,SAT\n",
                "",
                "no column 'instance' or 'value' for the instance (the columns are name, result)",
            ),
            (
                "name,result\nx,SAT\n",
                "instance=name,answer=status",
                "no column 'status' for the answer (the columns are name, result)",
            ),
        ] {
            let f = file(text);
            let columns = if columns.is_empty() {
                Columns::default()
            } else {
                columns.parse().unwrap()
            };
            let e = Expected::read(f.path(), &columns).unwrap_err().to_string();
            assert!(e.contains(message), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
