//! Plain-text printers: the readable listing and DIMACS with a comment above every clause.

use super::{clause_meaning, group_count_formula, Namer};
use crate::board::Line;
use crate::cnf::{ClauseSink, DimacsWriter, GroupInfo, Lit};
use crate::encode::{Group, Label, LabelSink, QueensEncoder};
use std::io::{self, Write};

/// How connectives are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// `¬`, `∨`, `⊥`.
    #[default]
    Unicode,
    /// `-`, `v`, `FALSE` (plain ASCII).
    Ascii,
}

impl Notation {
    /// The negation sign.
    pub fn negation(self) -> &'static str {
        match self {
            Notation::Unicode => "¬",
            Notation::Ascii => "-",
        }
    }
    /// The disjunction, with spaces.
    pub fn disjunction(self) -> &'static str {
        match self {
            Notation::Unicode => " ∨ ",
            Notation::Ascii => " v ",
        }
    }
    /// The empty clause.
    pub fn falsum(self) -> &'static str {
        match self {
            Notation::Unicode => "⊥",
            Notation::Ascii => "FALSE",
        }
    }
}

/// Looks up the model's group for the rule of a label announced by the encoder.
fn group_of_label(groups: &[Group], label: &Label) -> io::Result<Group> {
    groups
        .iter()
        .find(|g| g.rule() == label.rule)
        .cloned()
        .ok_or_else(|| io::Error::other(format!("no group enforces {:?}", label.rule)))
}

struct Readable<'a, W: Write> {
    out: W,
    enc: &'a QueensEncoder,
    namer: Namer,
    groups: Vec<Group>,
    notation: Notation,
    limit: Option<u64>,
    shown: u64,
    hidden: u64,
    line: Option<Line>,
    line_printed: bool,
    group: Option<Group>,
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

impl<W: Write> LabelSink for Readable<'_, W> {
    fn begin_label(&mut self, label: &Label) -> io::Result<()> {
        if let Some(line) = label.line {
            self.line = Some(line);
            self.line_printed = false;
            return Ok(());
        }
        self.close_group()?;
        let g = group_of_label(&self.groups, label)?;
        let size = self.enc.group_size(&g);
        writeln!(self.out)?;
        writeln!(self.out, "{}  {}", g.tag, g.meaning)?;
        let how = if g.at_least_one {
            "at least one".to_string()
        } else {
            format!(
                "at most one, {} encoding",
                self.enc.options().amo.for_kind(g.line)
            )
        };
        match group_count_formula(self.enc, &g) {
            Some(f) => writeln!(
                self.out,
                "    {} clauses ({how}); in general {f}",
                size.clauses
            )?,
            None => writeln!(
                self.out,
                "    {} clauses, {} auxiliary variables ({how})",
                size.clauses, size.vars
            )?,
        }
        self.line = None;
        self.group = Some(g);
        Ok(())
    }
}

impl<W: Write> ClauseSink for Readable<'_, W> {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        if self.limit.is_some_and(|k| self.shown >= k) {
            self.hidden += 1;
            return Ok(());
        }
        if !self.line_printed {
            if let Some(line) = self.line {
                writeln!(
                    self.out,
                    "  {}:",
                    line.describe_on(self.enc.n(), self.enc.geometry())
                )?;
                if self.group.as_ref().is_some_and(|g| !g.at_least_one) {
                    for v in self.namer.aux_of_line(&line) {
                        if let Some(m) = self.namer.aux_meaning(v) {
                            writeln!(self.out, "    where {m}")?;
                        }
                    }
                }
            }
            self.line_printed = true;
        }
        self.shown += 1;
        writeln!(self.out, "    {}", self.namer.clause(clause, self.notation))
    }
}

/// Writes the formula of `enc` in readable form: a heading with the variable convention, then
/// each group (Q1 ...) with its meaning, clause count and closed formula, and its clauses line
/// by line. `limit` caps the clauses printed per group (the rest are counted).
pub fn write_readable<W: Write>(
    enc: &QueensEncoder,
    out: W,
    notation: Notation,
    limit: Option<u64>,
) -> io::Result<W> {
    let n = enc.n();
    let size = enc.size();
    let mut r = Readable {
        out,
        enc,
        namer: Namer::new(enc),
        groups: enc.groups(),
        notation,
        limit,
        shown: 0,
        hidden: 0,
        line: None,
        line_printed: false,
        group: None,
    };
    writeln!(
        r.out,
        "{n}-queens as a propositional formula: {} variables, {} clauses",
        size.vars, size.clauses
    )?;
    writeln!(r.out, "Model: {}", enc.describe())?;
    writeln!(
        r.out,
        "q(r,c) is true when a queen stands on row r, column c (1-based); it is DIMACS variable (r-1)*{n} + c."
    )?;
    if size.vars > (n * n) as u64 {
        // The letters of the encodings on this formula's lines, in the catalogue's order.
        let used: Vec<&str> = crate::encode::amo::CATALOGUE
            .iter()
            .filter(|e| {
                crate::board::LineKind::ALL.iter().any(|&k| {
                    let amo = enc.options().amo.for_kind(k);
                    amo.encoding().name() == e.name() && amo.size(n).vars > 0
                })
            })
            .map(|e| e.aux_symbol())
            .fold(Vec::new(), |mut v, s| {
                if !v.contains(&s) {
                    v.push(s);
                }
                v
            });
        let names: Vec<String> = used
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if i == 0 {
                    format!("{s}(line, k)")
                } else {
                    format!("{s}(...)")
                }
            })
            .collect();
        writeln!(
            r.out,
            "{}: the k-th auxiliary variable of that line's encoding (DIMACS variables {}..{}), explained where the line's clauses start.",
            names.join(", "),
            n * n + 1,
            size.vars
        )?;
    }
    writeln!(
        r.out,
        "The formula is the conjunction (AND) of all clauses below; each clause is a disjunction (OR)."
    )?;
    enc.encode_labelled(&mut r)?;
    r.close_group()?;
    Ok(r.out)
}

struct Commented<W: Write> {
    w: DimacsWriter<W>,
    namer: Namer,
    groups: Vec<Group>,
    group: Option<Group>,
    line: Option<Line>,
}

impl<W: Write> ClauseSink for Commented<W> {
    fn begin_group(&mut self, info: &GroupInfo) -> io::Result<()> {
        self.w.comment("")?;
        self.w.comment(&format!("{}: {}", info.tag, info.meaning))
    }

    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        if let Some(g) = &self.group {
            let meaning = clause_meaning(&self.namer, g, self.line.as_ref(), clause);
            let text = self.namer.clause(clause, Notation::Ascii);
            self.w.comment(&format!("{} {meaning}: {text}", g.tag))?;
        }
        self.w.add_clause(clause)
    }
}

impl<W: Write> LabelSink for Commented<W> {
    fn begin_label(&mut self, label: &Label) -> io::Result<()> {
        if label.line.is_none() {
            self.group = Some(group_of_label(&self.groups, label)?);
        }
        self.line = label.line;
        Ok(())
    }
}

/// Writes DIMACS with a `c` line above every clause giving its group, its meaning in words and
/// the clause with named variables. The clause lines are exactly those of plain DIMACS output.
///
/// `header` is the header of the whole formula (the encoder's own, or an instance's, whose
/// counts include the `tail`: its pre-placed and forbidden cells, written after the model's
/// clauses with their comments; see [`super::fixed_clauses`]).
pub fn write_dimacs_commented<W: Write>(
    enc: &QueensEncoder,
    out: W,
    header: &crate::cnf::DimacsHeader,
    tail: &[super::FixedClause],
) -> io::Result<W> {
    let mut c = Commented {
        w: DimacsWriter::new(out, header)?,
        namer: Namer::new(enc),
        groups: enc.groups(),
        group: None,
        line: None,
    };
    enc.encode_labelled(&mut c)?;
    super::write_tail(&mut c.w, tail, |cl| c.namer.clause(cl, Notation::Ascii))?;
    c.w.finish()
}
