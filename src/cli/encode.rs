//! `queens-sat encode N`: the CNF in DIMACS, streamed to stdout or a file.

use anyhow::{bail, Result};
use clap::Args;
use queens_sat::encode::{Amo, EncodeOptions, LineEncodings, QueensEncoder};
pub use queens_sat::instance::human_bytes;
use queens_sat::instance::Limits;
use queens_sat::output::write_output;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct EncodeArgs {
    /// Board size (n x n, n >= 1); may be left out with --instance.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true, required_unless_present = "instance")]
    n: Option<usize>,
    /// Output file (default: stdout). Written to a temporary file, then renamed.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The formula: encoding options and the partial board, as for `solve`.
    #[command(flatten)]
    formula: super::solve::FormulaArgs,
    /// Write even a formula estimated to be huge.
    #[arg(long)]
    force: bool,
    /// Write iCNF for cube-and-conquer: the clauses under `p inccnf`, then one cube (`a ... 0`)
    /// per placement of the first K rows in which no queens attack each other: disjoint cubes
    /// that cover every solution (at most a million).
    #[arg(long, value_name = "K")]
    cubes: Option<usize>,
}

pub fn run(args: EncodeArgs) -> Result<ExitCode> {
    let inst = args.formula.instance(args.n)?;
    let options = args.formula.options();
    let size = inst.size();
    let bytes = size.estimated_dimacs_bytes();
    if !args.force && inst.check_size(Limits::STREAM).is_err() {
        // Suggest the sequential counter (linear in the line length) when it would fit.
        let linear = EncodeOptions {
            amo: LineEncodings::uniform(Amo::SEQUENTIAL),
            ..options
        };
        let hint = match QueensEncoder::new(inst.n(), linear) {
            Ok(e) if Limits::STREAM.allows(&e.size()) && options.amo != linear.amo => format!(
                "--amo sequential (linear in the line length: {} clauses, about {}), ",
                e.size().clauses,
                human_bytes(e.size().estimated_dimacs_bytes())
            ),
            _ => String::new(),
        };
        bail!(
            "n = {} with {} would write {} clauses (about {}); use {hint}a smaller n, or --force",
            inst.n(),
            options.amo,
            size.clauses,
            human_bytes(bytes)
        );
    }
    let command = super::command_line();
    if let Some(k) = args.cubes {
        let cubes = queens_sat::cubes::cubes(&inst, k, queens_sat::cubes::MAX_CUBES)?;
        write_output(args.output.as_deref(), |w| {
            queens_sat::cubes::write_icnf(&inst, &cubes, k, w, Some(&command)).map(|_| ())
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    write_output(args.output.as_deref(), |w| {
        inst.write_dimacs(w, Some(&command)).map(|_| ())
    })?;
    Ok(ExitCode::SUCCESS)
}
