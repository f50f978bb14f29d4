//! The teaching add-ons of `solve` and `verify`: each clause group evaluated on an answer
//! (`--explain`), the first false clause in words, and a minimal contradicting core (`--why`).

use anyhow::Result;
use queens_sat::explain::{false_clause_in_words, group_status, minimal_unsat_core, write_why};
use queens_sat::instance::{to_labelled_cnf, Formula, Instance};
use queens_sat::solve::Assignment;
use std::io::Write;

/// The most lines of a case-split argument that `--why` prints.
const MAX_ARGUMENT_LINES: usize = 120;

/// Prints, for each clause group, whether it holds under `a`, and whether all clauses do.
pub fn write_groups(out: &mut impl Write, inst: &Instance, a: &Assignment) -> Result<()> {
    let cnf = to_labelled_cnf(inst);
    let values = a.to_bools(inst.num_vars() as usize);
    let status = group_status(&cnf, &values);
    writeln!(out, "the formula's clauses on this assignment:")?;
    for s in &status {
        writeln!(out, "  {s}")?;
    }
    let holding = status.iter().filter(|s| s.holds()).count();
    if holding == status.len() {
        writeln!(out, "all {} clauses hold", cnf.len())?;
    } else {
        writeln!(
            out,
            "{} of {} groups fail",
            status.len() - holding,
            status.len()
        )?;
    }
    Ok(())
}

/// The first false clause of the instance's formula, numbered from 1 as in the DIMACS file,
/// said in words.
pub fn clause_in_words(inst: &Instance, number: usize) -> Result<String> {
    let cnf = to_labelled_cnf(inst);
    Ok(false_clause_in_words(inst, &cnf, number - 1))
}

/// Prints a minimal unsatisfiable core of the instance's formula and, when short enough, a
/// case-split argument over it.
pub fn write_core(out: &mut impl Write, inst: &Instance) -> Result<()> {
    let cnf = to_labelled_cnf(inst);
    match minimal_unsat_core(&cnf)? {
        Some(core) => {
            let Some(enc) = inst.cells_encoder() else {
                anyhow::bail!("--why explains the cell model only (use --model cells)");
            };
            write_why(out, enc, &cnf, &core, MAX_ARGUMENT_LINES)?
        }
        None => writeln!(out, "(the formula is satisfiable)")?,
    }
    Ok(())
}
