//! `queens-sat sat FILE` (hidden): solve any DIMACS CNF file with an embedded solver
//! (`--backend varisat`, the default here, or `cadical`) and answer in SAT-competition style
//! (exit 10 SAT, 20 UNSAT). `compare` runs it as the `varisat` and `cadical-lib` solvers, so
//! every solver is timed the same way, as a process reading the same file.

use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct SatArgs {
    /// A DIMACS CNF file.
    file: PathBuf,
    /// The embedded solver: varisat or cadical (CaDiCaL in-process).
    #[arg(long, value_name = "NAME", default_value = "varisat", value_parser = super::parse_backend())]
    backend: queens_sat::solve::Backend,
}

pub fn run(args: SatArgs) -> Result<ExitCode> {
    use queens_sat::cnf::{read_dimacs_into, DimacsErrorKind, ReadLimits};
    use queens_sat::solve::Budget;
    let file = std::fs::File::open(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let budget = Budget::unlimited();
    let mut solver = args.backend.solver(&budget)?;
    // The clauses go to the solver as they are read.
    let read = read_dimacs_into(
        std::io::BufReader::with_capacity(1 << 16, file),
        &ReadLimits::default(),
        solver.as_mut(),
    );
    let counts = match read {
        Ok(c) => c,
        Err(e) => {
            let file = args.file.display();
            match &e.kind {
                // An empty file (or one of comments only) is not a formula: refuse it rather
                // than call it satisfiable.
                DimacsErrorKind::NoHeader => {
                    anyhow::bail!("{file} is not valid DIMACS: no 'p cnf' header")
                }
                DimacsErrorKind::Io(why) => anyhow::bail!("cannot read {file}: {why}"),
                _ => {
                    return Err(anyhow::Error::new(e).context(format!("{file} is not valid DIMACS")))
                }
            }
        }
    };
    let answer = if solver.solve(&[], &budget).context("the solver stopped")? {
        Some(solver.model(counts.vars).context("the solver stopped")?)
    } else {
        None
    };
    let mut out = std::io::stdout().lock();
    let Some(model) = answer else {
        writeln!(out, "s UNSATISFIABLE")?;
        return Ok(ExitCode::from(20));
    };
    writeln!(out, "s SATISFIABLE")?;
    queens_sat::cnf::write_v_lines(&mut out, &model)?;
    Ok(ExitCode::from(10))
}
