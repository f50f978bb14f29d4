//! `queens-sat verify N FILE`: is an external solver's answer (or a one-line placement) a valid
//! n-queens solution, and does it satisfy the exported CNF? ([`queens_sat::command::verify`])

use super::solve::FormulaArgs;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Board size (n x n, n >= 1); with --instance, the instance file's n.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// The answer: SAT-competition output (s/v lines), a MiniSat result file, or a one-line
    /// placement (1-based columns row by row). `-` reads stdin.
    file: PathBuf,
    /// The formula the answer is for: the same options as `encode` / `solve`.
    #[command(flatten)]
    formula: FormulaArgs,
    /// Also say for each clause group whether it holds under the answer.
    #[arg(long)]
    explain: bool,
    /// Check even a formula estimated too large to stream (or, for encodings with auxiliary
    /// variables, to hold in memory).
    #[arg(long)]
    force: bool,
}

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    use queens_sat::command::verify::{verify, VerifyRequest};
    let req = VerifyRequest {
        instance: args.formula.instance(Some(args.n))?,
        answer: args.file,
        explain: args.explain,
        force: args.force,
    };
    let ending = verify(&req, &mut std::io::stdout().lock())?;
    Ok(ExitCode::from(ending.exit_code()))
}
