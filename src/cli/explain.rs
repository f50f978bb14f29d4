//! `queens-sat explain N`: the formula for people: readable, LaTeX, or DIMACS with comments.

use super::output::write_output;
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::encode::QueensEncoder;
use queens_sat::explain::{write_dimacs_commented, write_latex, write_readable, Notation};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// Groups Q1..Q6 with meanings, counts and closed formulas, clauses with named variables.
    Text,
    /// A LaTeX document: big-operator form of each group, clauses written out for small n.
    Latex,
    /// DIMACS with each clause's group and meaning as a `c` line above it.
    DimacsCommented,
}

/// The largest n whose formula `explain` prints without `--force` (the listing grows as n^3).
const MAX_N: usize = 40;

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Board size (n x n, n >= 1).
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    model: super::ModelArgs,
    /// Plain ASCII connectives (-, v) instead of ¬ and ∨.
    #[arg(long)]
    ascii: bool,
    /// Print at most K clauses per group in the text format (the rest are counted).
    #[arg(long, value_name = "K")]
    limit: Option<u64>,
    /// LaTeX: write every clause out (default: only for n <= 5).
    #[arg(long)]
    expand: bool,
    /// Output file (default: stdout).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print even for n above 40.
    #[arg(long)]
    force: bool,
}

pub fn run(args: ExplainArgs) -> Result<ExitCode> {
    if args.n > MAX_N && !args.force {
        bail!(
            "explain prints every clause, about n^3 of them; n = {} is above {MAX_N}: use --limit with --force, or `encode` for DIMACS",
            args.n
        );
    }
    let enc = QueensEncoder::new(args.n, args.model.options())?;
    super::guard_stream(args.n, args.model.options())?;
    let notation = if args.ascii {
        Notation::Ascii
    } else {
        Notation::Unicode
    };
    let command = super::command_line();
    write_output(args.output.as_deref(), |w| match args.format {
        Format::Text => write_readable(&enc, w, notation, args.limit).map(|_| ()),
        Format::Latex => write_latex(&enc, w, args.expand || args.n <= 5).map(|_| ()),
        Format::DimacsCommented => write_dimacs_commented(&enc, w, Some(&command)).map(|_| ()),
    })?;
    Ok(ExitCode::SUCCESS)
}
