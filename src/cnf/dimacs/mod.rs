//! DIMACS CNF, both ways: this module writes it, streaming; its submodule `read` reads it
//! back ([`read_dimacs`], [`read_dimacs_into`], [`read_header`]), the one reader of DIMACS files
//! in the crate.
//!
//! Writing: the header (`c` comment lines, then `p cnf V C`) is written first, from counts the
//! caller knows in advance, with the Model Counting Competition's problem type (`c t mc` or
//! `c t pmc`) and projection (`c p show ... 0`) when the caller declares them ([`Counting`]),
//! then one clause per line ending in `0`. Clauses are formatted into a reusable byte buffer and
//! handed to the underlying writer in large blocks, so writing a file never holds the formula
//! in memory. [`DimacsWriter::finish`] checks that the clauses written match the header's
//! count.

mod read;

pub(crate) use read::shorten;
pub use read::{
    read_dimacs, read_dimacs_into, read_dimacs_limited, read_header, Dimacs, DimacsCounts,
    DimacsError, DimacsErrorKind, ReadLimits, MAX_FORMULA_BYTES, MAX_LINE_BYTES,
};

use super::{ClauseSink, GroupInfo, Lit, Var};
use std::io::{self, Write};

/// What a model counter is to count, in the format of the Model Counting Competition (2024):
/// a `c t` line first, and for projected counting a `c p show <vars> 0` line after `p cnf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counting {
    /// `c t mc`: every variable counts (the formula has no auxiliary variables).
    Mc,
    /// `c t pmc` and `c p show <vars> 0`: count the distinct assignments of these variables
    /// (the projection) that extend to a model.
    Pmc(Vec<Var>),
}

/// What goes before the first clause: comment lines and the `p cnf` counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DimacsHeader {
    /// Comment lines, written as `c <line>` (without the `c `).
    pub comments: Vec<String>,
    /// Number of variables in the `p cnf` line.
    pub vars: u64,
    /// Number of clauses in the `p cnf` line.
    pub clauses: u64,
    /// The model-counting type and projection, if declared.
    pub counting: Option<Counting>,
}

const FLUSH_AT: usize = 1 << 16;

/// A [`ClauseSink`] that writes DIMACS text to `W`.
pub struct DimacsWriter<W: Write> {
    out: W,
    buf: Vec<u8>,
    expected: u64,
    written: u64,
    group_comments: bool,
}

impl<W: Write> DimacsWriter<W> {
    /// Writes the header to `out` and returns a writer ready for clauses.
    pub fn new(out: W, header: &DimacsHeader) -> io::Result<Self> {
        Self::with_problem_line(out, header, false)
    }

    /// Like [`DimacsWriter::new`], for an incremental file (iCNF): `p inccnf` instead of the
    /// counts; the clauses are followed by cubes ([`DimacsWriter::cube`]).
    pub fn new_inccnf(out: W, header: &DimacsHeader) -> io::Result<Self> {
        Self::with_problem_line(out, header, true)
    }

    fn with_problem_line(out: W, header: &DimacsHeader, inccnf: bool) -> io::Result<Self> {
        let mut w = DimacsWriter {
            out,
            buf: Vec::with_capacity(FLUSH_AT + 4096),
            expected: header.clauses,
            written: 0,
            group_comments: false,
        };
        match &header.counting {
            Some(Counting::Mc) => w.comment("t mc")?,
            Some(Counting::Pmc(_)) => w.comment("t pmc")?,
            None => {}
        }
        for line in &header.comments {
            for part in line.split('\n') {
                w.comment(part)?;
            }
        }
        if inccnf {
            w.buf.extend_from_slice(b"p inccnf\n");
        } else {
            w.buf.extend_from_slice(
                format!("p cnf {} {}\n", header.vars, header.clauses).as_bytes(),
            );
        }
        if let Some(Counting::Pmc(show)) = &header.counting {
            // One line, as every counter reads it; streamed, as it has n^2 entries for the
            // cell model.
            w.buf.extend_from_slice(b"c p show ");
            let mut fmt = itoa::Buffer::new();
            for v in show {
                w.buf
                    .extend_from_slice(fmt.format(v.to_dimacs()).as_bytes());
                w.buf.push(b' ');
                w.maybe_flush()?;
            }
            w.buf.extend_from_slice(b"0\n");
        }
        Ok(w)
    }

    /// When on, every group announced by the encoder becomes a `c` line before its clauses.
    pub fn with_group_comments(mut self, on: bool) -> Self {
        self.group_comments = on;
        self
    }

    /// Writes a `c` comment line. Comments may appear between clauses.
    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        self.buf.extend_from_slice(b"c");
        if !text.is_empty() {
            self.buf.push(b' ');
            self.buf.extend_from_slice(text.as_bytes());
        }
        self.buf.push(b'\n');
        self.maybe_flush()
    }

    /// Writes a cube of an iCNF file: `a <lits> 0` (after every clause).
    pub fn cube(&mut self, lits: &[Lit]) -> io::Result<()> {
        let mut fmt = itoa::Buffer::new();
        self.buf.extend_from_slice(b"a ");
        for &l in lits {
            push_lit(&mut self.buf, &mut fmt, l);
        }
        self.buf.extend_from_slice(b"0\n");
        self.maybe_flush()
    }

    /// Number of clauses written so far.
    pub fn clauses_written(&self) -> u64 {
        self.written
    }

    /// Flushes everything and returns the inner writer. Fails if the number of clauses written
    /// differs from the header's count.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()?;
        if self.written != self.expected {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "DIMACS header announced {} clauses but {} were written",
                    self.expected, self.written
                ),
            ));
        }
        Ok(self.out)
    }

    fn maybe_flush(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

/// Appends the decimal form of `lit` (DIMACS, signed) and a space to `buf`.
#[inline]
fn push_lit(buf: &mut Vec<u8>, fmt: &mut itoa::Buffer, lit: Lit) {
    if lit.is_negative() {
        buf.push(b'-');
    }
    buf.extend_from_slice(fmt.format(lit.index() + 1).as_bytes());
    buf.push(b' ');
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    #[inline]
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        let mut fmt = itoa::Buffer::new();
        for &l in clause {
            push_lit(&mut self.buf, &mut fmt, l);
        }
        self.buf.extend_from_slice(b"0\n");
        self.written += 1;
        self.maybe_flush()
    }

    fn begin_group(&mut self, group: &GroupInfo) -> io::Result<()> {
        if self.group_comments {
            self.comment(&format!("{}: {}", group.tag, group.meaning))?;
        }
        Ok(())
    }
}

/// Longest `v` line [`write_v_lines`] writes, in characters.
pub const V_LINE_MAX: usize = 4096;

/// Writes a model as the `v` lines of the SAT-competition output format: the DIMACS literals
/// after `v `, lines of at most [`V_LINE_MAX`] characters, the last one ending with `0`.
pub fn write_v_lines<W: Write + ?Sized>(out: &mut W, lits: &[Lit]) -> io::Result<()> {
    let mut line = String::from("v");
    let tokens = lits
        .iter()
        .map(|l| l.to_dimacs().to_string())
        .chain(std::iter::once("0".to_string()));
    for t in tokens {
        if line.len() + 1 + t.len() > V_LINE_MAX {
            writeln!(out, "{line}")?;
            line = String::from("v");
        }
        line.push(' ');
        line.push_str(&t);
    }
    writeln!(out, "{line}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{neg, pos};

    #[test]
    fn writes_header_and_clauses() {
        let header = DimacsHeader {
            comments: vec!["hello".into(), "two\nlines".into()],
            vars: 12,
            clauses: 2,
            counting: None,
        };
        let mut w = DimacsWriter::new(Vec::new(), &header).unwrap();
        w.add_clause(&[pos(1), neg(12)]).unwrap();
        w.add_clause(&[]).unwrap();
        let out = String::from_utf8(w.finish().unwrap()).unwrap();
        assert_eq!(out, "c hello\nc two\nc lines\np cnf 12 2\n1 -12 0\n0\n");
    }

    #[test]
    fn counting_lines_frame_the_header() {
        let mut header = DimacsHeader {
            comments: vec!["hello".into()],
            vars: 3,
            clauses: 1,
            counting: Some(Counting::Mc),
        };
        let write = |h: &DimacsHeader| {
            let mut w = DimacsWriter::new(Vec::new(), h).unwrap();
            w.add_clause(&[pos(1), neg(3)]).unwrap();
            String::from_utf8(w.finish().unwrap()).unwrap()
        };
        assert_eq!(write(&header), "c t mc\nc hello\np cnf 3 1\n1 -3 0\n");
        header.counting = Some(Counting::Pmc(vec![
            Var::from_dimacs(1),
            Var::from_dimacs(2),
        ]));
        assert_eq!(
            write(&header),
            "c t pmc\nc hello\np cnf 3 1\nc p show 1 2 0\n1 -3 0\n"
        );
        // A projection longer than the write buffer streams through it.
        let show: Vec<Var> = (1..=100_000).map(Var::from_dimacs).collect();
        header.vars = 100_000;
        header.counting = Some(Counting::Pmc(show));
        let text = write(&header);
        let line = text.lines().find(|l| l.starts_with("c p show")).unwrap();
        let vars: Vec<&str> = line.split(' ').skip(3).collect();
        assert_eq!(vars.len(), 100_001);
        assert_eq!((vars[0], vars[99_999], vars[100_000]), ("1", "100000", "0"));
    }

    #[test]
    fn finish_detects_count_mismatch() {
        let header = DimacsHeader {
            vars: 1,
            clauses: 2,
            ..DimacsHeader::default()
        };
        let mut w = DimacsWriter::new(Vec::new(), &header).unwrap();
        w.add_clause(&[pos(1)]).unwrap();
        assert!(w.finish().is_err());
    }

    #[test]
    fn large_numbers_round_trip_through_varisat_parser() {
        let header = DimacsHeader {
            vars: 1_000_000,
            clauses: 1,
            ..DimacsHeader::default()
        };
        let mut w = DimacsWriter::new(Vec::new(), &header).unwrap();
        w.add_clause(&[pos(1_000_000), neg(10), pos(9)]).unwrap();
        let out = w.finish().unwrap();
        let f = varisat_dimacs::DimacsParser::parse(&out[..]).unwrap();
        let clauses: Vec<_> = f.iter().map(|c| c.to_vec()).collect();
        assert_eq!(clauses, vec![vec![pos(1_000_000), neg(10), pos(9)]]);
    }

    #[test]
    fn v_lines_are_short_and_end_with_zero() {
        let lits: Vec<Lit> = (1..5000).map(|v| Lit::from_dimacs(-(v as isize))).collect();
        let mut buf = Vec::new();
        write_v_lines(&mut buf, &lits).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(text
            .lines()
            .all(|l| l.len() <= V_LINE_MAX && l.starts_with("v ")));
        assert!(text.trim_end().ends_with(" 0"));
        assert_eq!(text.split_whitespace().filter(|t| *t != "v").count(), 5000);
    }

    #[test]
    fn empty_model_is_a_single_zero() {
        let mut buf = Vec::new();
        write_v_lines(&mut buf, &[]).unwrap();
        assert_eq!(buf, b"v 0\n");
    }
}
