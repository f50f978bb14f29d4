//! `queens-sat sat FILE` (hidden): solve any DIMACS CNF file with the embedded solver and answer
//! in SAT-competition style (exit 10 SAT, 20 UNSAT). `compare` runs it as the `varisat` solver,
//! so every solver is timed the same way, as a process reading the same file.

use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct SatArgs {
    /// A DIMACS CNF file.
    file: PathBuf,
}

pub fn run(args: SatArgs) -> Result<ExitCode> {
    let text = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    // An empty file (or one of comments only) is not a formula: refuse it rather than call
    // it satisfiable.
    let has_header = text
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty() && !l.starts_with(b"c"))
        .is_some_and(|l| l.starts_with(b"p cnf") || l.starts_with(b"p  cnf"));
    if !has_header {
        anyhow::bail!(
            "{} is not valid DIMACS: no 'p cnf' header",
            args.file.display()
        );
    }
    let mut solver = varisat::Solver::new();
    solver
        .add_dimacs_cnf(&text[..])
        .with_context(|| format!("{} is not valid DIMACS", args.file.display()))?;
    let sat = solver.solve().context("the solver stopped")?;
    let mut out = std::io::stdout().lock();
    if !sat {
        writeln!(out, "s UNSATISFIABLE")?;
        return Ok(ExitCode::from(20));
    }
    writeln!(out, "s SATISFIABLE")?;
    let model = solver.model().unwrap_or_default();
    queens_sat::cnf::write_v_lines(&mut out, &model)?;
    Ok(ExitCode::from(10))
}
