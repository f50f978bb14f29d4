//! The formula as a LaTeX document: each group in big-operator form, and for small n every
//! clause written out.

use super::Namer;
use crate::board::LineKind;
use crate::cnf::{ClauseSink, Lit};
use crate::encode::{Amo, Group, Label, LabelSink, QueensEncoder};
use std::io::{self, Write};

/// Escapes text for LaTeX's text mode.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(ch);
            }
            '^' => out.push_str("\\^{}"),
            '~' => out.push_str("\\~{}"),
            _ => out.push(ch),
        }
    }
    out
}

/// The group in big-operator form (pairwise model), or an AMO over the lines for the others.
fn big_operator(g: &Group, amo: Amo) -> String {
    if g.at_least_one {
        return match g.line {
            LineKind::Row => r"\bigwedge_{i=1}^{n} \bigvee_{j=1}^{n} q_{i,j}".into(),
            _ => r"\bigwedge_{j=1}^{n} \bigvee_{i=1}^{n} q_{i,j}".into(),
        };
    }
    if amo != Amo::PAIRWISE {
        let lines = match g.line {
            LineKind::Row => r"\text{rows } L",
            LineKind::Column => r"\text{columns } L",
            LineKind::Diagonal => r"\text{/ diagonals } L",
            LineKind::AntiDiagonal => r"\text{\textbackslash{} diagonals } L",
        };
        return format!(
            r"\bigwedge_{{{lines}}} \mathrm{{AMO}}_{{\text{{{}}}}}\bigl(\{{ q_{{i,j}} : (i,j) \in L \}}\bigr)",
            escape(&amo.name())
        );
    }
    match g.line {
        LineKind::Row => r"\bigwedge_{i=1}^{n} \bigwedge_{1 \le j < k \le n} (\neg q_{i,j} \lor \neg q_{i,k})".into(),
        LineKind::Column => r"\bigwedge_{j=1}^{n} \bigwedge_{1 \le i < k \le n} (\neg q_{i,j} \lor \neg q_{k,j})".into(),
        LineKind::Diagonal => r"\bigwedge_{\substack{1 \le i < k \le n,\ 1 \le j, l \le n \\ i + j = k + l}} (\neg q_{i,j} \lor \neg q_{k,l})".into(),
        LineKind::AntiDiagonal => r"\bigwedge_{\substack{1 \le i < k \le n,\ 1 \le j, l \le n \\ i - j = k - l}} (\neg q_{i,j} \lor \neg q_{k,l})".into(),
    }
}

/// `1 clause`, `2 clauses`.
fn plural(k: u64, word: &str) -> String {
    if k == 1 {
        format!("1 {word}")
    } else {
        format!("{k} {word}s")
    }
}

struct Latex<'a, W: Write> {
    out: W,
    enc: &'a QueensEncoder,
    namer: Namer,
    groups: Vec<Group>,
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

impl<W: Write> LabelSink for Latex<'_, W> {
    fn begin_label(&mut self, label: &Label) -> io::Result<()> {
        if label.line.is_some() {
            return Ok(());
        }
        self.close()?;
        let g = self
            .groups
            .iter()
            .find(|g| g.rule() == label.rule)
            .cloned()
            .ok_or_else(|| io::Error::other(format!("no group enforces {:?}", label.rule)))?;
        let size = self.enc.group_size(&g);
        writeln!(
            self.out,
            "\n\\subsection*{{{}: {}}}",
            g.tag,
            escape(g.meaning)
        )?;
        let count = match super::group_count_formulas(self.enc, &g) {
            Some((_, f)) => format!("{} (in general ${f}$)", plural(size.clauses, "clause")),
            None => format!(
                "{}, {}",
                plural(size.clauses, "clause"),
                plural(size.vars, "auxiliary variable")
            ),
        };
        writeln!(
            self.out,
            "{count}.\n\\[ {} \\]",
            big_operator(&g, self.enc.options().amo.for_kind(g.line))
        )?;
        if self.expand && size.clauses > 0 {
            writeln!(self.out, r"\begin{{align*}}")?;
            self.open = true;
        }
        Ok(())
    }
}

impl<W: Write> ClauseSink for Latex<'_, W> {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        if !self.expand {
            return Ok(());
        }
        let body = clause_latex(clause, |v| self.namer.var_latex(v));
        writeln!(self.out, r"& ({body}) \\")
    }
}

/// A clause in LaTeX math: `\neg v_1 \lor v_2`, `\bot` when empty; `name` writes a variable.
pub(super) fn clause_latex(clause: &[Lit], name: impl Fn(crate::cnf::Var) -> String) -> String {
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

/// Writes a complete LaTeX document (article class, amsmath) for the formula of `enc`: the
/// variable convention, each group in big-operator form with its clause count, and, when
/// `expand` is true, every clause of the group in an `align*` environment.
///
/// `tail` holds an instance's pre-placed queens and forbidden cells ([`super::fixed_clauses`]),
/// written in a section of their own after the model's groups.
pub fn write_latex<W: Write>(
    enc: &QueensEncoder,
    out: W,
    expand: bool,
    tail: &[super::FixedClause],
) -> io::Result<W> {
    let n = enc.n();
    let size = enc.size();
    let mut l = Latex {
        out,
        enc,
        namer: Namer::new(enc),
        groups: enc.groups(),
        expand,
        open: false,
    };
    write_preamble(&mut l.out)?;
    writeln!(l.out, r"\section*{{The {n}-queens formula}}")?;
    writeln!(
        l.out,
        "$q_{{i,j}}$ is true when a queen stands on row $i$, column $j$ ($1 \\le i, j \\le n$, here $n = {n}$). \
         The formula is the conjunction of the groups below: {} variables, {} clauses.",
        size.vars, size.clauses
    )?;
    enc.encode_labelled(&mut l)?;
    l.close()?;
    let namer = &l.namer;
    write_tail(&mut l.out, tail, |v| namer.var_latex(v))?;
    writeln!(l.out, r"\end{{document}}")?;
    Ok(l.out)
}

/// The start of every LaTeX document `explain` writes: article class, amsmath, page breaks
/// inside long alignments.
pub(crate) fn write_preamble<W: Write>(out: &mut W) -> io::Result<()> {
    writeln!(out, r"\documentclass{{article}}")?;
    writeln!(out, r"\usepackage{{amsmath,amssymb}}")?;
    writeln!(out, r"\allowdisplaybreaks")?;
    writeln!(out, r"\begin{{document}}")
}

/// The section of an instance's pre-placed queens and forbidden cells: each clause with its
/// meaning (nothing when `tail` is empty).
pub(crate) fn write_tail<W: Write>(
    out: &mut W,
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
    for (meaning, clause) in tail {
        writeln!(
            out,
            r"& ({}) && \text{{{}}} \\",
            clause_latex(clause, &var),
            escape(meaning)
        )?;
    }
    writeln!(out, r"\end{{align*}}")
}
