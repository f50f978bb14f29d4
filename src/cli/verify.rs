//! `queens-sat verify [N] FILE`: is an external solver's answer (or a one-line placement) a valid
//! n-queens solution, and does it satisfy the exported CNF, or the DIMACS file of `--cnf`?
//! ([`queens_sat::command::verify`])

use super::solve::FormulaArgs;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// `[N] ANSWER`: the board size (n x n, n >= 1; may be left out with --instance, whose
    /// file gives n, or with --cnf FILE, whose header does), then the answer: SAT-competition
    /// output (s/v lines), a MiniSat result file, or a one-line placement (1-based columns row
    /// by row); `-` reads stdin.
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
    /// Check the answer against this DIMACS file, clause by clause, instead of the formula of
    /// the options. The board's size and options come from the file's header (`c n = N`,
    /// `c command: queens-sat encode ...`) when queens-sat wrote it; a file without that
    /// header needs N, and its cells are taken to be variables 1..n*n, row by row.
    #[arg(long, value_name = "FILE", conflicts_with_all = FORMULA_OPTIONS)]
    cnf: Option<PathBuf>,
}

/// The options that choose the formula, which `--cnf` reads from the file instead.
const FORMULA_OPTIONS: [&str; 12] = [
    "amo",
    "column_alo",
    "model",
    "domain",
    "constraints",
    "alldiff",
    "redundant",
    "place",
    "forbid",
    "instance",
    "diagonals",
    "symmetry_breaking",
];

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    use queens_sat::command::verify::{cnf_formula, verify, VerifyRequest};
    let (n, answer) = match <[PathBuf; 2]>::try_from(args.operands) {
        Ok([n, answer]) => {
            let n = n
                .to_str()
                .ok_or_else(|| anyhow::anyhow!("N is not a number"))?;
            (Some(super::parse_n(n).map_err(anyhow::Error::msg)?), answer)
        }
        Err(mut one) => match one.pop() {
            Some(answer) if args.formula.has_instance() || args.cnf.is_some() => (None, answer),
            _ => bail!("give the board size N before the answer, or --instance FILE or --cnf FILE"),
        },
    };
    let (instance, cnf) = match &args.cnf {
        Some(path) => {
            let (instance, file) = cnf_formula(path, n, &super::instance_of_command)?;
            (instance, Some(file))
        }
        None => (args.formula.instance(n)?, None),
    };
    let req = VerifyRequest {
        instance,
        answer,
        explain: args.explain,
        force: args.force,
        cnf,
    };
    let ending = verify(&req, &mut queens_sat::output::stdout())?;
    Ok(ExitCode::from(ending.exit_code()))
}
