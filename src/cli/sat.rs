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
    let file = std::fs::File::open(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let mut solver = varisat::Solver::new();
    solver
        .add_dimacs_cnf(std::io::BufReader::new(file))
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
