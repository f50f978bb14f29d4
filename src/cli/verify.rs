//! `queens-sat verify [N] FILE`: is an external solver's answer (or a one-line placement) a valid
//! n-queens solution, and does it satisfy the exported CNF? ([`queens_sat::command::verify`])

use super::solve::FormulaArgs;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// `[N] ANSWER`: the board size (n x n, n >= 1; may be left out with --instance, whose
    /// file gives n), then the answer: SAT-competition output (s/v lines), a MiniSat result
    /// file, or a one-line placement (1-based columns row by row); `-` reads stdin.
    #[arg(value_name = "[N] ANSWER", num_args = 1..=2, required = true, allow_negative_numbers = true)]
    operands: Vec<PathBuf>,
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
    let (n, answer) = match <[PathBuf; 2]>::try_from(args.operands) {
        Ok([n, answer]) => {
            let n = n
                .to_str()
                .ok_or_else(|| anyhow::anyhow!("N is not a number"))?;
            (Some(super::parse_n(n).map_err(anyhow::Error::msg)?), answer)
        }
        Err(mut one) => match one.pop() {
            Some(answer) if args.formula.has_instance() => (None, answer),
            _ => bail!("give the board size N before the answer, or --instance FILE"),
        },
    };
    let req = VerifyRequest {
        instance: args.formula.instance(n)?,
        answer,
        explain: args.explain,
        force: args.force,
    };
    let ending = verify(&req, &mut std::io::stdout().lock())?;
    Ok(ExitCode::from(ending.exit_code()))
}
