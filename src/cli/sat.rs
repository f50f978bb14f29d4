//! `queens-sat sat FILE`: solve any DIMACS CNF file with an embedded solver
//! (`--backend varisat`, the default here, `cadical` or `kissat`, with `--solver-option`) and
//! answer in SAT-competition style (exit 10 SAT, 20 UNSAT), as `compare` runs it
//! ([`queens_sat::command::sat`]).

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct SatArgs {
    /// A DIMACS CNF file.
    file: PathBuf,
    /// The embedded solver: varisat, cadical or kissat (in-process).
    #[arg(long, value_name = "NAME", default_value = "varisat", value_parser = super::parse_backend())]
    backend: queens_sat::solve::Backend,
    #[command(flatten)]
    solver_options: super::backends::SolverOptionArgs,
}

pub fn run(args: SatArgs) -> Result<ExitCode> {
    let options = args.solver_options.checked(args.backend)?;
    let ending = queens_sat::command::sat::sat(
        &args.file,
        args.backend,
        &options,
        &mut queens_sat::output::stdout(),
    )?;
    Ok(ExitCode::from(ending.exit_code()))
}
