//! The column model for people: the readable listing and DIMACS with a comment above every
//! clause, with the variables named in words by [`ColumnEncoder::var_name`] and
//! [`ColumnEncoder::var_meaning`].

use super::Notation;
use crate::cnf::{ClauseSink, DimacsHeader, DimacsWriter, GroupInfo, Lit, Var};
use crate::encode::{ColumnEncoder, ColumnGroup};
use std::io::{self, Write};

/// A clause with named variables: `¬[x(1) >= 3] ∨ [x(1) >= 2]`.
fn clause_text(enc: &ColumnEncoder, clause: &[Lit], notation: Notation) -> String {
    if clause.is_empty() {
        return notation.falsum().to_string();
    }
    clause
        .iter()
        .map(|l| {
            let name = enc.var_name(l.var());
            if l.is_negative() {
                format!("{}{name}", notation.negation())
            } else {
                name
            }
        })
        .collect::<Vec<_>>()
        .join(notation.disjunction())
}

struct Readable<'a, W: Write> {
    out: W,
    enc: &'a ColumnEncoder,
    groups: Vec<ColumnGroup>,
    notation: Notation,
    limit: Option<u64>,
    shown: u64,
    hidden: u64,
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
        let count = self
            .groups
            .iter()
            .find(|g| g.tag == info.tag)
            .map_or(0, |g| g.clauses);
        writeln!(self.out)?;
        writeln!(self.out, "{}  {}", info.tag, info.meaning)?;
        writeln!(self.out, "    {count} clauses")
    }

    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        if self.limit.is_some_and(|k| self.shown >= k) {
            self.hidden += 1;
            return Ok(());
        }
        self.shown += 1;
        writeln!(
            self.out,
            "    {}",
            clause_text(self.enc, clause, self.notation)
        )
    }
}

/// Writes the column model's formula readably: a heading with the exact counts, every
/// variable with its DIMACS number, name and meaning, then each group (tag, meaning, clause
/// count) with its clauses written with named variables. `limit` caps the clauses printed per
/// group (the rest are counted).
pub fn write_readable_columns<W: Write>(
    enc: &ColumnEncoder,
    out: W,
    notation: Notation,
    limit: Option<u64>,
) -> io::Result<W> {
    let n = enc.n();
    let size = enc.size();
    let mut r = Readable {
        out,
        enc,
        groups: enc.groups(),
        notation,
        limit,
        shown: 0,
        hidden: 0,
    };
    writeln!(
        r.out,
        "{n}-queens as a propositional formula: {} variables, {} clauses",
        size.vars, size.clauses
    )?;
    writeln!(
        r.out,
        "Model: column model, x(r) = the column of row r's queen (1-based); all x(r), all x(r)+r, all x(r)-r different; {}",
        enc.options()
    )?;
    writeln!(r.out, "Variables (DIMACS number: name, meaning):")?;
    for i in 0..size.vars as usize {
        let v = Var::from_index(i);
        writeln!(
            r.out,
            "  {}: {}, {}",
            v.to_dimacs(),
            enc.var_name(v),
            enc.var_meaning(v)
        )?;
    }
    writeln!(r.out, "Groups:")?;
    for g in &r.groups {
        writeln!(r.out, "  {}  {} ({} clauses)", g.tag, g.meaning, g.clauses)?;
    }
    writeln!(
        r.out,
        "The formula is the conjunction (AND) of all clauses below; each clause is a disjunction (OR)."
    )?;
    enc.encode(&mut r)?;
    r.close_group()?;
    Ok(r.out)
}

struct Commented<'a, W: Write> {
    w: DimacsWriter<W>,
    enc: &'a ColumnEncoder,
    tag: String,
}

impl<W: Write> ClauseSink for Commented<'_, W> {
    fn begin_group(&mut self, info: &GroupInfo) -> io::Result<()> {
        self.tag = info.tag.clone();
        self.w.comment("")?;
        self.w.comment(&format!("{}: {}", info.tag, info.meaning))
    }

    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        let text = clause_text(self.enc, clause, Notation::Ascii);
        self.w.comment(&format!("{}: {text}", self.tag))?;
        self.w.add_clause(clause)
    }
}

/// Writes the column model's formula as DIMACS under `header`, with a `c` line above every
/// clause giving its group's tag and the clause with named variables. The clause lines are
/// exactly those of plain DIMACS output.
///
/// `tail` holds the instance's pre-placed and forbidden cells, written after the model's
/// clauses with their comments (the header's counts include them).
pub fn write_dimacs_commented_columns<W: Write>(
    enc: &ColumnEncoder,
    out: W,
    header: &DimacsHeader,
    tail: &[super::FixedClause],
) -> io::Result<W> {
    let mut c = Commented {
        w: DimacsWriter::new(out, header)?,
        enc,
        tag: String::new(),
    };
    enc.encode(&mut c)?;
    super::write_tail(&mut c.w, tail, |cl| {
        cl.iter()
            .map(|&l| {
                let name = enc.var_name(l.var());
                if l.is_positive() {
                    name
                } else {
                    format!("-{name}")
                }
            })
            .collect::<Vec<_>>()
            .join(" v ")
    })?;
    c.w.finish()
}

/// A variable's name in LaTeX math mode: `\text{[x(1) $\geq$ 2]}`.
fn var_latex(enc: &ColumnEncoder, v: Var) -> String {
    format!(
        r"\text{{{}}}",
        super::latex::escape(&enc.var_name(v)).replace(">=", r"$\geq$")
    )
}

struct Latex<'a, W: Write> {
    out: W,
    enc: &'a ColumnEncoder,
    groups: Vec<ColumnGroup>,
    expand: bool,
    open: bool,
}

impl<W: Write> Latex<'_, W> {
    fn close(&mut self) -> io::Result<()> {
        if self.open {
            writeln!(self.out, r"\end{{align*}}")?;
            self.open = false;
        }
        Ok(())
    }
}

impl<W: Write> ClauseSink for Latex<'_, W> {
    fn begin_group(&mut self, info: &GroupInfo) -> io::Result<()> {
        self.close()?;
        let count = self
            .groups
            .iter()
            .find(|g| g.tag == info.tag)
            .map_or(0, |g| g.clauses);
        writeln!(
            self.out,
            "\n\\subsection*{{{}: {}}}\n{count} clauses.",
            super::latex::escape(&info.tag),
            super::latex::escape(&info.meaning)
        )?;
        if self.expand && count > 0 {
            writeln!(self.out, r"\begin{{align*}}")?;
            self.open = true;
        }
        Ok(())
    }

    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        if !self.expand {
            return Ok(());
        }
        let body = super::latex::clause_latex(clause, |v| var_latex(self.enc, v));
        writeln!(self.out, r"& ({body}) \\")
    }
}

/// Writes a complete LaTeX document (article class, amsmath) for the column model's formula:
/// the variables with their meanings, each group with its meaning and clause count, and, when
/// `expand` is true, every clause in an `align*` environment.
///
/// `tail` holds an instance's pre-placed queens and forbidden cells, written in a section of
/// their own after the groups.
pub fn write_latex_columns<W: Write>(
    enc: &ColumnEncoder,
    out: W,
    expand: bool,
    tail: &[super::FixedClause],
) -> io::Result<W> {
    let n = enc.n();
    let size = enc.size();
    let mut l = Latex {
        out,
        enc,
        groups: enc.groups(),
        expand,
        open: false,
    };
    super::latex::write_preamble(&mut l.out)?;
    writeln!(l.out, r"\section*{{The {n}-queens formula, column model}}")?;
    writeln!(
        l.out,
        "$x(r)$ is the column of the queen of row $r$ ($1 \\le r \\le n$, here $n = {n}$); all $x(r)$, all $x(r) + r$ and all $x(r) - r$ differ. Encoding: {}. {} variables, {} clauses.",
        super::latex::escape(&enc.options().to_string()),
        size.vars,
        size.clauses
    )?;
    writeln!(l.out, r"\begin{{itemize}}")?;
    for i in 0..size.vars as usize {
        let v = Var::from_index(i);
        writeln!(
            l.out,
            "\\item ${}$ (variable {}): {}",
            var_latex(enc, v),
            v.to_dimacs(),
            super::latex::escape(&enc.var_meaning(v))
        )?;
    }
    writeln!(l.out, r"\end{{itemize}}")?;
    enc.encode(&mut l)?;
    l.close()?;
    super::latex::write_tail(&mut l.out, tail, |v| var_latex(enc, v))?;
    writeln!(l.out, r"\end{{document}}")?;
    Ok(l.out)
}
