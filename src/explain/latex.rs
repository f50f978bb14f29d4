//! Any encoding's formula as a LaTeX document, in its [`Words`]: the model and its variables,
//! each group with its note (for the cell model its big-operator form), and for small n every
//! clause written out.

use crate::cnf::{ClauseSink, GroupInfo, Lit};
use crate::encode::words::escape_latex as escape;
use crate::encode::{Encoding, Label, LabelSink, Words};
use std::io::{self, Write};

struct Latex<'a, W: Write> {
    out: W,
    words: Box<dyn Words + 'a>,
    expand: bool,
    open: bool,
    /// The clauses so far: the number (from 1) of the last, as in the DIMACS file.
    number: u64,
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
        writeln!(
            self.out,
            "\n\\subsection*{{{}: {}}}",
            escape(&info.tag),
            escape(&info.meaning)
        )?;
        writeln!(self.out, "{}", self.words.group_note_latex(info))?;
        if self.expand && self.words.group_clauses(info) > 0 {
            writeln!(self.out, r"\begin{{align*}}")?;
            self.open = true;
        }
        Ok(())
    }

    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        self.number += 1;
        if !self.expand {
            return Ok(());
        }
        let body = clause_latex(clause, |v| self.words.var_latex(v));
        writeln!(self.out, r"& ({body}) \tag{{{}}} \\", self.number)
    }
}

impl<W: Write> LabelSink for Latex<'_, W> {
    fn begin_label(&mut self, _: &Label) -> io::Result<()> {
        Ok(())
    }
}

/// A clause in LaTeX math: `\neg v_1 \lor v_2`, `\bot` when empty; `name` writes a variable.
fn clause_latex(clause: &[Lit], name: impl Fn(crate::cnf::Var) -> String) -> String {
    if clause.is_empty() {
        return r"\bot".to_string();
    }
    clause
        .iter()
        .map(|l| {
            let v = name(l.var());
            if l.is_negative() {
                format!(r"\neg {v}")
            } else {
                v
            }
        })
        .collect::<Vec<_>>()
        .join(r" \lor ")
}

/// Writes a complete LaTeX document (article class, amsmath) for the formula of `enc`, in its
/// [`Words`]: the model and its variables ([`Words::latex_heading`]), each group with its
/// note ([`Words::group_note_latex`]: its clause count, for the cell model the group in
/// big-operator form) and, when `expand` is true, every clause of the group in an `align*`
/// environment, tagged with its number (from 1, its place in the DIMACS file).
///
/// `tail` holds an instance's pre-placed queens and forbidden cells ([`super::fixed_clauses`]),
/// written in a section of their own after the model's groups.
pub fn write_latex<W: Write>(
    enc: &dyn Encoding,
    out: W,
    expand: bool,
    tail: &[super::FixedClause],
) -> io::Result<W> {
    let mut l = Latex {
        out,
        words: enc.words(),
        expand,
        open: false,
        number: 0,
    };
    write_preamble(&mut l.out)?;
    for line in l.words.latex_heading() {
        writeln!(l.out, "{line}")?;
    }
    enc.encode_labelled(&mut l)?;
    l.close()?;
    let words = &l.words;
    write_tail(&mut l.out, l.number, tail, |v| words.var_latex(v))?;
    writeln!(l.out, r"\end{{document}}")?;
    Ok(l.out)
}

/// The start of every LaTeX document `explain` writes: article class, amsmath, page breaks
/// inside long alignments.
fn write_preamble<W: Write>(out: &mut W) -> io::Result<()> {
    writeln!(out, r"\documentclass{{article}}")?;
    writeln!(out, r"\usepackage{{amsmath,amssymb}}")?;
    writeln!(out, r"\allowdisplaybreaks")?;
    writeln!(out, r"\begin{{document}}")
}

/// The section of an instance's pre-placed queens and forbidden cells: each clause with its
/// meaning, numbered after the model's `model_clauses` (nothing when `tail` is empty).
fn write_tail<W: Write>(
    out: &mut W,
    model_clauses: u64,
    tail: &[super::FixedClause],
    var: impl Fn(crate::cnf::Var) -> String,
) -> io::Result<()> {
    if tail.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        r"\subsection*{{The instance: pre-placed queens and forbidden cells}}"
    )?;
    writeln!(
        out,
        "{} clauses: a unit clause for each pre-placed queen, one excluding each forbidden cell.",
        tail.len()
    )?;
    writeln!(out, r"\begin{{align*}}")?;
    for (k, (meaning, clause)) in tail.iter().enumerate() {
        writeln!(
            out,
            r"& ({}) && \text{{{}}} \tag{{{}}} \\",
            clause_latex(clause, &var),
            escape(meaning),
            model_clauses + k as u64 + 1
        )?;
    }
    writeln!(out, r"\end{{align*}}")
}
