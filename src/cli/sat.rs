//! `queens-sat sat FILE` (hidden): solve any DIMACS CNF file with an embedded solver
//! (`--backend varisat`, the default here, or `cadical`) and answer in SAT-competition style
//! (exit 10 SAT, 20 UNSAT), as `compare` runs it ([`queens_sat::command::sat`]).

use anyhow::Result;
use clap::Args;
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
    let ending =
        queens_sat::command::sat::sat(&args.file, args.backend, &mut std::io::stdout().lock())?;
    Ok(ExitCode::from(ending.exit_code()))
}
