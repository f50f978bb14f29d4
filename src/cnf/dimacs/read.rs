//! Reading DIMACS CNF: streaming, line by line, with every error naming its line.
//!
//! The format read: `c` comment lines anywhere, one `p cnf V C` line before the clauses,
//! clauses as integers ending with `0` (over one or more lines), an optional `%` line ending
//! the file (as in SATLIB). Every literal must be within `1..=V`, and there must be exactly `C`
//! clauses. The input is bounded ([`ReadLimits`]): at most so many variables (a model and the
//! solver's tables grow with them) and so many bytes.
//!
//! [`read_dimacs_into`] hands each clause to a [`ClauseSink`] as it is read (a solver, a
//! hasher: nothing is kept); [`read_dimacs`] and [`read_dimacs_limited`] keep the clauses
//! ([`Dimacs`]); [`read_header`] reads only as far as the `p cnf` line.
//!
//! ```
//! use queens_sat::cnf::{read_dimacs, DimacsErrorKind};
//!
//! let cnf = read_dimacs(&b"c two clauses\np cnf 3 2\n1 -2\n 3 0\n-1 0\n"[..]).unwrap();
//! assert_eq!((cnf.vars, cnf.clauses.len()), (3, 2));
//! let e = read_dimacs(&b"p cnf 2 1\n1 3 0\n"[..]).unwrap_err();
//! assert_eq!(e.line, 2);
//! assert!(matches!(e.kind, DimacsErrorKind::LiteralOutOfRange { lit: 3, vars: 2 }));
//! ```

use crate::cnf::{ClauseSink, Lit, Var};
use std::io::BufRead;

/// Bounds on what a reader accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// The most variables the `p cnf` line may declare (at most [`Var::max_count`], which the
    /// literals cannot exceed).
    pub max_vars: usize,
    /// The most bytes read; a longer input is refused ([`DimacsErrorKind::TooLarge`]).
    pub max_bytes: u64,
    /// Who sets `max_vars`, for the message of [`DimacsErrorKind::TooManyVars`]:
    /// `{n} variables, more than the {max} {whose}` (e.g. `a graded file may have`).
    pub whose: &'static str,
}

impl Default for ReadLimits {
    /// As many variables as a literal can name, any number of bytes.
    fn default() -> Self {
        ReadLimits {
            max_vars: Var::max_count(),
            max_bytes: u64::MAX,
            whose: "a literal can name",
        }
    }
}

/// A CNF read from DIMACS: the header's variable count and the clauses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dimacs {
    /// Variables declared in the `p cnf` line.
    pub vars: usize,
    /// The line of the `p cnf` line (1-based).
    pub header_line: usize,
    /// The clauses, in the order of the file.
    pub clauses: Vec<Vec<Lit>>,
}

/// The counts of a `p cnf` line and where it stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DimacsCounts {
    /// Variables declared.
    pub vars: usize,
    /// Clauses declared (after a full read, also the clauses read: they must agree).
    pub clauses: u64,
    /// The line of the `p cnf` line (1-based).
    pub header_line: usize,
}

/// Why DIMACS input could not be read: what, and on which line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct DimacsError {
    /// The line (1-based; for a problem at the end of the input, its last line).
    pub line: usize,
    /// What is wrong.
    pub kind: DimacsErrorKind,
}

/// What is wrong in DIMACS input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DimacsErrorKind {
    /// A clause or the end of the input before any `p cnf` line.
    #[error("no 'p cnf VARIABLES CLAUSES' line before the clauses")]
    NoHeader,
    /// A `p` line that is not `p cnf V C` with two numbers.
    #[error("'{0}' is not a 'p cnf VARIABLES CLAUSES' line")]
    BadHeader(String),
    /// A second `p` line.
    #[error("a second 'p' line")]
    SecondHeader,
    /// More variables than [`ReadLimits::max_vars`].
    #[error("{vars} variables, more than the {max} {whose}")]
    TooManyVars {
        /// The header's count.
        vars: u64,
        /// The bound.
        max: usize,
        /// Who sets it ([`ReadLimits::whose`]).
        whose: &'static str,
    },
    /// More bytes than [`ReadLimits::max_bytes`].
    #[error("more than {0} bytes")]
    TooLarge(u64),
    /// A line is longer than the bound ([`MAX_LINE_BYTES`]).
    #[error("a line longer than {0} bytes")]
    LongLine(usize),
    /// More clauses follow the number the `p cnf` line declares (the reading stops at the
    /// first of them).
    #[error("the 'p cnf' line says {0} clauses, and more follow")]
    MoreClauses(u64),
    /// A token in a clause that is not an integer.
    #[error("'{0}' is not a literal")]
    BadToken(String),
    /// A literal past the header's variable count.
    #[error("literal {lit} is beyond the {vars} variables of the 'p cnf' line")]
    LiteralOutOfRange {
        /// The literal as written.
        lit: i64,
        /// The header's count.
        vars: usize,
    },
    /// The last clause does not end with `0`.
    #[error("the last clause does not end with 0")]
    Unterminated,
    /// Not as many clauses as the header says.
    #[error("the 'p cnf' line says {header} clauses, the file has {found}")]
    ClauseCount {
        /// The header's count.
        header: u64,
        /// Clauses read.
        found: u64,
    },
    /// Bytes that are not UTF-8 text.
    #[error("not a text line (UTF-8)")]
    NotText,
    /// A `-0`, or a `0` in mid-line that ends an empty clause (`0 5 0`) in a file whose clause
    /// count then does not fit the header: the file numbers its variables from 0, and variable 0
    /// ends its clauses early.
    #[error("variable numbers start at 1: this file seems to use 0-based numbering ({0})")]
    ZeroBased(&'static str),
    /// The reader (or the sink the clauses go to) failed.
    #[error("cannot read: {0}")]
    Io(String),
}

/// Reads DIMACS CNF (see the module documentation) with the default [`ReadLimits`], keeping
/// the clauses.
pub fn read_dimacs(input: impl BufRead) -> Result<Dimacs, DimacsError> {
    read_dimacs_limited(input, &ReadLimits::default())
}

/// Like [`read_dimacs`], within `limits`.
pub fn read_dimacs_limited(
    input: impl BufRead,
    limits: &ReadLimits,
) -> Result<Dimacs, DimacsError> {
    let mut keep = Keep(Vec::new());
    let counts = read_dimacs_into(input, limits, &mut keep)?;
    Ok(Dimacs {
        vars: counts.vars,
        header_line: counts.header_line,
        clauses: keep.0,
    })
}

/// Keeps the clauses read.
struct Keep(Vec<Vec<Lit>>);

impl ClauseSink for Keep {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        self.0.push(clause.to_vec());
        Ok(())
    }
}

/// Reads DIMACS CNF within `limits`, handing each clause to `sink` as soon as its `0` is read.
/// On an error the sink may already hold the clauses before it. Returns the header's counts.
pub fn read_dimacs_into<S: ClauseSink + ?Sized>(
    input: impl BufRead,
    limits: &ReadLimits,
    sink: &mut S,
) -> Result<DimacsCounts, DimacsError> {
    let mut lines = Lines::new(input, limits.max_bytes);
    let mut header: Option<DimacsCounts> = None;
    let mut clauses = 0u64;
    let mut clause = Vec::new();
    let mut clause_line = 0;
    // The first line where a 0 ends an empty clause and more follows on the line (`0 5 0`): in
    // a file whose clause count then does not fit its header, a sign of 0-based numbering.
    let mut mid_zero: Option<usize> = None;
    let zero_based = |mid_zero: Option<usize>| {
        mid_zero.map(|line| DimacsError {
            line,
            kind: DimacsErrorKind::ZeroBased("a 0 in mid-line ends a clause early"),
        })
    };
    while let Some((line_no, t)) = lines.next_line()? {
        let err = |kind| DimacsError {
            line: line_no,
            kind,
        };
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        if t == "%" {
            break;
        }
        if t.starts_with('p') {
            if header.is_some() {
                return Err(err(DimacsErrorKind::SecondHeader));
            }
            header = Some(parse_header(t, line_no, limits)?);
            continue;
        }
        let Some(h) = header else {
            return Err(err(DimacsErrorKind::NoHeader));
        };
        let mut toks = t.split_whitespace().peekable();
        while let Some(tok) = toks.next() {
            let lit: i64 = tok
                .parse()
                .map_err(|_| err(DimacsErrorKind::BadToken(shorten(tok))))?;
            if lit == 0 && tok.starts_with('-') {
                return Err(err(DimacsErrorKind::ZeroBased("a literal -0")));
            }
            if lit == 0 {
                if clause.is_empty() && toks.peek().is_some() {
                    mid_zero.get_or_insert(line_no);
                }
                if clauses == h.clauses {
                    return Err(zero_based(mid_zero)
                        .unwrap_or_else(|| err(DimacsErrorKind::MoreClauses(h.clauses))));
                }
                sink.add_clause(&clause)
                    .map_err(|e| err(DimacsErrorKind::Io(e.to_string())))?;
                clause.clear();
                clauses += 1;
                continue;
            }
            if clauses == h.clauses {
                return Err(zero_based(mid_zero)
                    .unwrap_or_else(|| err(DimacsErrorKind::MoreClauses(h.clauses))));
            }
            if lit.unsigned_abs() > h.vars as u64 {
                return Err(err(DimacsErrorKind::LiteralOutOfRange {
                    lit,
                    vars: h.vars,
                }));
            }
            if clause.is_empty() {
                clause_line = line_no;
            }
            clause.push(Lit::from_dimacs(lit as isize));
        }
    }
    let Some(h) = header else {
        return Err(DimacsError {
            line: lines.line.max(1),
            kind: DimacsErrorKind::NoHeader,
        });
    };
    if !clause.is_empty() {
        return Err(DimacsError {
            line: clause_line,
            kind: DimacsErrorKind::Unterminated,
        });
    }
    if clauses != h.clauses {
        if let Some(e) = zero_based(mid_zero) {
            return Err(e);
        }
        return Err(DimacsError {
            line: h.header_line,
            kind: DimacsErrorKind::ClauseCount {
                header: h.clauses,
                found: clauses,
            },
        });
    }
    Ok(h)
}

/// Reads only as far as the `p cnf` line (comment and empty lines may come before it): its
/// counts, within the default [`ReadLimits`] and at most `max_bytes` bytes.
pub fn read_header(input: impl BufRead, max_bytes: u64) -> Result<DimacsCounts, DimacsError> {
    let limits = ReadLimits {
        max_bytes,
        ..ReadLimits::default()
    };
    let mut lines = Lines::new(input, max_bytes);
    while let Some((line_no, t)) = lines.next_line()? {
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        if t.starts_with('p') {
            return parse_header(t, line_no, &limits);
        }
        break;
    }
    Err(DimacsError {
        line: lines.line.max(1),
        kind: DimacsErrorKind::NoHeader,
    })
}

/// A `p cnf V C` line (trimmed), on line `line_no`.
fn parse_header(t: &str, line_no: usize, limits: &ReadLimits) -> Result<DimacsCounts, DimacsError> {
    let err = |kind| DimacsError {
        line: line_no,
        kind,
    };
    let bad = || err(DimacsErrorKind::BadHeader(shorten(t)));
    let parts: Vec<&str> = t.split_whitespace().collect();
    let ["p", "cnf", v, c] = parts[..] else {
        return Err(bad());
    };
    let (Ok(v), Ok(c)) = (v.parse::<u64>(), c.parse::<u64>()) else {
        return Err(bad());
    };
    let max = limits.max_vars.min(Var::max_count());
    if v > max as u64 {
        return Err(err(DimacsErrorKind::TooManyVars {
            vars: v,
            max,
            whose: limits.whose,
        }));
    }
    Ok(DimacsCounts {
        vars: v as usize,
        clauses: c,
        header_line: line_no,
    })
}

/// The most bytes of a DIMACS formula that the commands reading one (`verify-proof`, `sat`,
/// `verify --cnf`) take: 1 GiB.
pub const MAX_FORMULA_BYTES: u64 = 1 << 30;

/// The longest line a DIMACS file may have: 64 MiB (a clause of five million literals).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// The input's lines, trimmed, counted, within a bound on the bytes read.
struct Lines<R> {
    input: std::io::Take<R>,
    max_bytes: u64,
    buf: Vec<u8>,
    /// The number of the line last returned (1-based; 0 before the first).
    line: usize,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R, max_bytes: u64) -> Self {
        Lines {
            input: input.take(max_bytes.saturating_add(1)),
            max_bytes,
            buf: Vec::new(),
            line: 0,
        }
    }

    /// The next line's number and text, trimmed, or `None` at the end of the input. The
    /// bytes are looked at as they come: a NUL byte (no text has one) ends the reading at
    /// once, and so does a line longer than [`MAX_LINE_BYTES`], so that neither `/dev/zero`
    /// nor a file without line breaks is read into memory.
    fn next_line(&mut self) -> Result<Option<(usize, &str)>, DimacsError> {
        self.buf.clear();
        let line = self.line + 1;
        let err = |kind| DimacsError { line, kind };
        loop {
            let chunk = self
                .input
                .fill_buf()
                .map_err(|e| err(DimacsErrorKind::Io(e.to_string())))?;
            if chunk.is_empty() {
                break;
            }
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(k) => (k + 1, true),
                None => (chunk.len(), false),
            };
            if chunk[..take].contains(&0) {
                return Err(err(DimacsErrorKind::NotText));
            }
            self.buf.extend_from_slice(&chunk[..take]);
            self.input.consume(take);
            if self.input.limit() == 0 {
                return Err(err(DimacsErrorKind::TooLarge(self.max_bytes)));
            }
            if self.buf.len() > MAX_LINE_BYTES {
                return Err(err(DimacsErrorKind::LongLine(MAX_LINE_BYTES)));
            }
            if done {
                break;
            }
        }
        if self.buf.is_empty() {
            return Ok(None);
        }
        self.line = line;
        let text = std::str::from_utf8(&self.buf).map_err(|_| err(DimacsErrorKind::NotText))?;
        Ok(Some((self.line, text.trim())))
    }
}

/// At most 40 characters of a token or line, for messages.
pub(crate) fn shorten(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(40).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dimacs(text: &str) -> Result<Dimacs, DimacsError> {
        read_dimacs(text.as_bytes())
    }

    #[test]
    fn zero_based_numbering_is_named() {
        let e = |t: &str| dimacs(t).unwrap_err().to_string();
        // Variable 0 as a literal ends its clause early: more clauses than the header says.
        let zero = "variable numbers start at 1: this file seems to use 0-based numbering";
        let x = e("p cnf 4 2\n1 2 0\n0 3 0\n");
        assert!(
            x.starts_with(&format!("line 3: {zero} (a 0 in mid-line")),
            "{x}"
        );
        // Found at the end of the file, too.
        let x = e("p cnf 4 4\n1 0\n0 3 0\n");
        assert!(x.starts_with("line 3: variable numbers start at 1"), "{x}");
        assert!(e("p cnf 4 1\n-0 3 0\n").starts_with(&format!("line 2: {zero} (a literal -0)")));
        // Two clauses on a line are DIMACS: with the right count, no complaint, and a wrong
        // count without an empty clause in mid-line is the count's.
        assert_eq!(dimacs("p cnf 4 2\n1 0 2 0\n").unwrap().clauses.len(), 2);
        assert_eq!(
            e("p cnf 4 3\n1 0 2 0\n"),
            "line 1: the 'p cnf' line says 3 clauses, the file has 2"
        );
        assert_eq!(
            e("p cnf 4 1\n1 0 2 0\n"),
            "line 2: the 'p cnf' line says 1 clauses, and more follow"
        );
    }

    #[test]
    fn reads_dimacs_and_names_lines() {
        let d = dimacs("c hi\np cnf 3 2\n1 -2\n 3 0\n-1 0\n").unwrap();
        assert_eq!(d.vars, 3);
        assert_eq!(d.header_line, 2);
        assert_eq!(d.clauses.len(), 2);
        assert_eq!(d.clauses[0].len(), 3);
        let e = |t: &str| dimacs(t).unwrap_err();
        assert_eq!(e("1 0\n").line, 1);
        assert!(matches!(e("1 0\n").kind, DimacsErrorKind::NoHeader));
        assert!(matches!(e("").kind, DimacsErrorKind::NoHeader));
        let x = e("p cnf 2 1\nc\n1 3 0\n");
        assert_eq!(x.line, 3);
        assert_eq!(
            x.to_string(),
            "line 3: literal 3 is beyond the 2 variables of the 'p cnf' line"
        );
        assert_eq!(e("p cnf 2 1\n1 x 0\n").line, 2);
        assert_eq!(e("p cnf 2 2\n1 0\n").line, 1);
        assert_eq!(e("p cnf 2 1\n1 0\n\n2\n").line, 4);
        assert!(matches!(e("p cnf 2\n").kind, DimacsErrorKind::BadHeader(_)));
        assert!(matches!(
            e("pcnf 2 1\n").kind,
            DimacsErrorKind::BadHeader(_)
        ));
        assert!(matches!(
            e("p cnf 2 0\np cnf 2 0\n").kind,
            DimacsErrorKind::SecondHeader
        ));
        assert!(dimacs("p cnf 1 1\n1 0\n%\n0\n").is_ok());
        assert!(dimacs("p  cnf 1 1\n1 0\n").is_ok());
    }

    #[test]
    fn limits_are_kept() {
        let small = ReadLimits {
            max_vars: 5,
            max_bytes: 20,
            whose: "a test file may have",
        };
        let read = |t: &str| read_dimacs_limited(t.as_bytes(), &small);
        assert!(read("p cnf 5 1\n1 0\n").is_ok());
        let e = read("p cnf 6 1\n1 0\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: 6 variables, more than the 5 a test file may have"
        );
        let e = read("p cnf 5 3\n1 0\n2 0\n3 0\n4 0\n").unwrap_err();
        assert_eq!(e.kind, DimacsErrorKind::TooLarge(20));
        assert_eq!(e.line, 4);
        let huge = format!("p cnf {} 0\n", Var::max_count() + 1);
        assert!(matches!(
            read_dimacs(huge.as_bytes()).unwrap_err().kind,
            DimacsErrorKind::TooManyVars { .. }
        ));
    }

    #[test]
    fn bytes_that_are_not_text_are_named() {
        let e = read_dimacs(&b"p cnf 1 1\n\xff 0\n"[..]).unwrap_err();
        assert_eq!((e.line, e.kind), (2, DimacsErrorKind::NotText));
    }

    #[test]
    fn clauses_stream_into_a_sink() {
        let mut cnf = crate::cnf::Cnf::new();
        let counts = read_dimacs_into(
            &b"p cnf 2 2\n1 -2 0 2\n0\n"[..],
            &ReadLimits::default(),
            &mut cnf,
        )
        .unwrap();
        assert_eq!(
            counts,
            DimacsCounts {
                vars: 2,
                clauses: 2,
                header_line: 1
            }
        );
        assert_eq!(cnf.len(), 2);
        assert_eq!(cnf.clause(1), &[Lit::from_dimacs(2)]);
    }

    #[test]
    fn the_header_alone() {
        let h = read_header(&b"c x\n\np cnf 64 100\n1 0\n"[..], 1 << 20).unwrap();
        assert_eq!((h.vars, h.clauses, h.header_line), (64, 100, 3));
        assert!(read_header(&b"1 0\n"[..], 1 << 20).is_err());
        assert!(read_header(&b"c long comment\np cnf 1 1\n"[..], 8).is_err());
    }

    #[test]
    fn written_formulas_read_back() {
        use crate::cnf::{neg, pos, DimacsHeader, DimacsWriter};
        let header = DimacsHeader {
            comments: vec!["x".into()],
            vars: 1_000_000,
            clauses: 2,
            counting: None,
        };
        let mut w = DimacsWriter::new(Vec::new(), &header).unwrap();
        w.add_clause(&[pos(1_000_000), neg(10), pos(9)]).unwrap();
        w.add_clause(&[]).unwrap();
        let text = w.finish().unwrap();
        let d = read_dimacs(&text[..]).unwrap();
        assert_eq!(d.vars, 1_000_000);
        assert_eq!(
            d.clauses,
            vec![vec![pos(1_000_000), neg(10), pos(9)], vec![]]
        );
    }
}
