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
    let cnf = varisat::dimacs::DimacsParser::parse(&text[..])
        .with_context(|| format!("{} is not valid DIMACS", args.file.display()))?;
    let answer = queens_sat::solve::solve_clauses(
        cnf.iter(),
        cnf.var_count(),
        args.backend,
        queens_sat::solve::Budget::unlimited(),
    )
    .context("the solver stopped")?;
    let mut out = std::io::stdout().lock();
    let Some(model) = answer else {
        writeln!(out, "s UNSATISFIABLE")?;
        return Ok(ExitCode::from(20));
    };
    writeln!(out, "s SATISFIABLE")?;
    queens_sat::cnf::write_v_lines(&mut out, &model)?;
    Ok(ExitCode::from(10))
}
