//! `queens-sat encode N`: the CNF in DIMACS, streamed to stdout or a file
//! ([`queens_sat::command::encode`]).

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct EncodeArgs {
    /// Board size (n x n, n >= 1); may be left out with --instance.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true, required_unless_present = "instance")]
    pub(super) n: Option<usize>,
    /// Output file (default: stdout). Written to a temporary file, then renamed.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The formula: encoding options and the partial board, as for `solve`.
    #[command(flatten)]
    pub(super) formula: super::solve::FormulaArgs,
    /// Write even a formula estimated to be huge.
    #[arg(long)]
    force: bool,
    /// Write iCNF for cube-and-conquer: the clauses under `p inccnf`, then one cube (`a ... 0`)
    /// per placement of the first K rows in which no queens attack each other: disjoint cubes
    /// that cover every solution (at most a million).
    #[arg(long, value_name = "K")]
    cubes: Option<usize>,
    /// The output format: `dimacs` (the CNF) or `opb` (the board's linear constraints, in the
    /// OPB format of the Pseudo-Boolean Competition, over the cell variables; the cell model
    /// or the column model's direct domain).
    #[arg(long, value_name = "FORMAT", default_value = "dimacs", value_parser = ["dimacs", "opb"])]
    format: String,
}

pub fn run(args: EncodeArgs) -> Result<ExitCode> {
    use queens_sat::command::encode::{encode, EncodeRequest};
    args.formula.refuse_as_output(&[args.output.as_deref()])?;
    let req = EncodeRequest {
        instance: args.formula.instance(args.n)?,
        options: args.formula.options(),
        output: args.output,
        force: args.force,
        cubes: args.cubes,
        command_line: Some(super::command_line()),
        opb: args.format == "opb",
    };
    Ok(ExitCode::from(encode(&req)?.exit_code()))
}
