//! The part of an instance beyond its model: the pre-placed queens and forbidden cells, as
//! unit clauses with their meaning, for `explain` of an instance.

use super::Notation;
use crate::cnf::Lit;
use crate::instance::{Formula, Instance};
use std::io::{self, Write};

/// One clause of the instance's fixed cells with its comment: `P pre-placed queen q(2,4)`.
pub type FixedClause = (String, Vec<Lit>);

/// The unit and forbidding clauses of the pre-placed queens (group P) and forbidden cells
/// (group F), in the order the instance emits them, each with its meaning.
pub fn fixed_clauses(inst: &Instance) -> Vec<FixedClause> {
    let mut out = Vec::new();
    for &(r, c) in inst.placed() {
        for l in inst.value_lits(r, c) {
            out.push((
                format!("P pre-placed queen on ({},{})", r + 1, c + 1),
                vec![l],
            ));
        }
    }
    for &(r, c) in inst.forbidden() {
        let clause = inst.value_lits(r, c).into_iter().map(|l| !l).collect();
        out.push((format!("F no queen on ({},{})", r + 1, c + 1), clause));
    }
    out
}

/// A clause with the instance's variable names: `¬q(1,3) ∨ ¬q(2,4)`.
pub fn clause_text(inst: &Instance, clause: &[Lit], notation: Notation) -> String {
    clause
        .iter()
        .map(|l| {
            let name = inst.var_name(l.var());
            if l.is_positive() {
                name
            } else {
                format!("{}{name}", notation.negation())
            }
        })
        .collect::<Vec<_>>()
        .join(&format!(" {} ", notation.disjunction()))
}

/// Writes the instance part in readable form: where it comes from, the board drawn (n <= 40),
/// then groups P and F with their clauses, numbered after the model's `model_clauses` clauses
/// as in the DIMACS file.
pub fn write_fixed_readable<W: Write>(
    inst: &Instance,
    model_clauses: u64,
    mut out: W,
    origin: &[String],
    picture: Option<&str>,
    notation: Notation,
) -> io::Result<W> {
    let clauses = fixed_clauses(inst);
    writeln!(out)?;
    writeln!(
        out,
        "The instance adds {} clauses to the model ({} board):",
        clauses.len(),
        inst.geometry().name()
    )?;
    for line in origin {
        writeln!(out, "  {line}")?;
    }
    if let Some(p) = picture {
        writeln!(out, "  Q pre-placed queen, # no queen allowed, . free")?;
        for line in p.lines() {
            writeln!(out, "    {line}")?;
        }
    }
    let placed = clauses.iter().filter(|(m, _)| m.starts_with('P')).count();
    for (tag, meaning, count) in [
        ("P", "every pre-placed queen stands", placed),
        ("F", "no queen on a forbidden cell", clauses.len() - placed),
    ] {
        if count == 0 {
            continue;
        }
        writeln!(out)?;
        writeln!(out, "{tag}  {meaning}")?;
        writeln!(out, "    {count} clauses")?;
        for (k, (m, clause)) in clauses
            .iter()
            .enumerate()
            .filter(|(_, (m, _))| m.starts_with(tag))
        {
            writeln!(
                out,
                "    {}. {}    ({})",
                model_clauses + k as u64 + 1,
                clause_text(inst, clause, notation),
                &m[2..]
            )?;
        }
    }
    Ok(out)
}
