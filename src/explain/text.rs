//! Plain-text printers of any encoding's formula, in its [`Words`]: the readable listing and
//! DIMACS with a comment above every clause.

use crate::cnf::{ClauseSink, DimacsWriter, GroupInfo, Lit};
use crate::encode::{Encoding, Label, LabelSink, LineHeading, Words};
use std::io::{self, Write};

pub use crate::encode::Notation;

struct Readable<'a, W: Write> {
    out: W,
    words: Box<dyn Words + 'a>,
    notation: Notation,
    limit: Option<u64>,
    shown: u64,
    hidden: u64,
    /// The clauses so far: the number (from 1) of the last, as in the DIMACS file.
    number: u64,
    /// The width of the largest number.
    width: usize,
    /// The heading of the current line's clauses, until it is printed above the first one.
    heading: Option<LineHeading>,
}

impl<W: Write> Readable<'_, W> {
    fn close_group(&mut self) -> io::Result<()> {
        if self.hidden > 0 {
            writeln!(self.out, "    ... and {} more clauses", self.hidden)?;
        }
        self.shown = 0;
        self.hidden = 0;
        Ok(())
    }
}

impl<W: Write> ClauseSink for Readable<'_, W> {
    fn begin_group(&mut self, info: &GroupInfo) -> io::Result<()> {
        self.close_group()?;
        self.heading = None;
        writeln!(self.out)?;
        writeln!(self.out, "{}  {}", info.tag, info.meaning)?;
        writeln!(self.out, "    {}", self.words.group_note(info))
    }

    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        self.number += 1;
        if self.limit.is_some_and(|k| self.shown >= k) {
            self.hidden += 1;
            return Ok(());
        }
        if let Some(h) = self.heading.take() {
            writeln!(self.out, "  {}:", h.line)?;
            for note in &h.notes {
                writeln!(self.out, "    {note}")?;
            }
        }
        self.shown += 1;
        writeln!(
            self.out,
            "    {:>w$}. {}",
            self.number,
            self.words.clause(clause, self.notation),
            w = self.width
        )
    }
}

impl<W: Write> LabelSink for Readable<'_, W> {
    fn begin_label(&mut self, label: &Label) -> io::Result<()> {
        self.heading = match label.line {
            Some(_) => self.words.line_heading(label),
            None => None,
        };
        Ok(())
    }
}

/// Writes the formula of `enc` in readable form, in its [`Words`]: a heading with the exact
/// counts, the model and its variables ([`Words::readable_heading`]), then each group with its
/// meaning and note (its clause count, and its closed form where known), and its clauses with
/// named variables and its number (from 1, the clause's place in the DIMACS file, as `verify`
/// and `--why` name it), each board line's under its heading. `limit` caps the clauses printed
/// per group (the rest are counted).
pub fn write_readable<W: Write>(
    enc: &dyn Encoding,
    out: W,
    notation: Notation,
    limit: Option<u64>,
) -> io::Result<W> {
    let size = enc.size();
    let mut r = Readable {
        out,
        words: enc.words(),
        notation,
        limit,
        shown: 0,
        hidden: 0,
        number: 0,
        width: size.clauses.max(1).to_string().len(),
        heading: None,
    };
    writeln!(
        r.out,
        "{}-queens as a propositional formula: {} variables, {} clauses",
        enc.n(),
        size.vars,
        size.clauses
    )?;
    for line in r.words.readable_heading() {
        writeln!(r.out, "{line}")?;
    }
    writeln!(
        r.out,
        "The formula is the conjunction (AND) of all clauses below; each clause is a disjunction (OR)."
    )?;
    writeln!(
        r.out,
        "Each clause has its number in the DIMACS file of `encode` (from 1)."
    )?;
    enc.encode_labelled(&mut r)?;
    r.close_group()?;
    Ok(r.out)
}

struct Commented<'a, W: Write> {
    w: DimacsWriter<W>,
    words: Box<dyn Words + 'a>,
    /// The tag of the current group, once one is announced.
    tag: Option<String>,
    label: Option<Label>,
}

impl<W: Write> ClauseSink for Commented<'_, W> {
    fn begin_group(&mut self, info: &GroupInfo) -> io::Result<()> {
        self.tag = Some(info.tag.clone());
        self.label = None;
        self.w.comment("")?;
        self.w.comment(&format!("{}: {}", info.tag, info.meaning))
    }

    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        if let Some(tag) = &self.tag {
            let text = self.words.clause(clause, Notation::Ascii);
            let meaning = self
                .label
                .and_then(|l| self.words.clause_meaning(&l, clause));
            let number = self.w.clauses_written() + 1;
            let comment = match meaning {
                Some(m) => format!("clause {number}, {tag} {m}: {text}"),
                None => format!("clause {number}, {tag}: {text}"),
            };
            self.w.comment(&comment)?;
        }
        self.w.add_clause(clause)
    }
}

impl<W: Write> LabelSink for Commented<'_, W> {
    fn begin_label(&mut self, label: &Label) -> io::Result<()> {
        self.label = Some(*label);
        Ok(())
    }
}

/// Writes DIMACS with a `c` line above every clause giving its number (from 1), its group, its
/// meaning in words
/// where the encoding's [`Words`] say one ([`Words::clause_meaning`]) and the clause with named
/// variables. The clause lines are exactly those of plain DIMACS output.
///
/// `header` is the header of the whole formula (the encoding's own, or an instance's, whose
/// counts include the `tail`: its pre-placed and forbidden cells, written after the model's
/// clauses with their comments; see [`super::fixed_clauses`]).
pub fn write_dimacs_commented<W: Write>(
    enc: &dyn Encoding,
    out: W,
    header: &crate::cnf::DimacsHeader,
    tail: &[super::FixedClause],
) -> io::Result<W> {
    let mut c = Commented {
        w: DimacsWriter::new(out, header)?,
        words: enc.words(),
        tag: None,
        label: None,
    };
    enc.encode_labelled(&mut c)?;
    let words = &c.words;
    super::write_tail(&mut c.w, tail, |cl| words.clause(cl, Notation::Ascii))?;
    c.w.finish()
}
