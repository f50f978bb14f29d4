//! `queens-sat explain N`: the formula for people: readable, LaTeX, or DIMACS with comments.

use super::output::write_output;
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::encode::QueensEncoder;
use queens_sat::explain::{
    write_dimacs_commented, write_dimacs_commented_columns, write_latex, write_latex_columns,
    write_readable, write_readable_columns, Notation,
};
use queens_sat::instance::{Instance, Model};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// Groups Q1..Q6 with meanings, counts and closed formulas, clauses with named variables
    /// (for the column model: every variable named and explained, then its groups D, C, S).
    Text,
    /// A LaTeX document: big-operator form of each group, clauses written out for small n
    /// (cell model only).
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
    let notation = if args.ascii {
        Notation::Ascii
    } else {
        Notation::Unicode
    };
    let command = super::command_line();
    let model = args.model.model()?;
    super::guard_stream(args.n, model)?;
    if let Model::Columns(_) = model {
        let instance = Instance::new(args.n, model)?;
        let Some(enc) = instance.columns_encoder() else {
            bail!("internal error: a column-model instance without its encoder");
        };
        write_output(args.output.as_deref(), |w| match args.format {
            Format::DimacsCommented => {
                let header = instance.dimacs_header(Some(&command));
                write_dimacs_commented_columns(enc, w, &header).map(|_| ())
            }
            Format::Latex => write_latex_columns(enc, w, args.expand || args.n <= 5).map(|_| ()),
            Format::Text => write_readable_columns(enc, w, notation, args.limit).map(|_| ()),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let enc = QueensEncoder::new(args.n, args.model.options())?;
    write_output(args.output.as_deref(), |w| match args.format {
        Format::Text => write_readable(&enc, w, notation, args.limit).map(|_| ()),
        Format::Latex => write_latex(&enc, w, args.expand || args.n <= 5).map(|_| ()),
        Format::DimacsCommented => write_dimacs_commented(&enc, w, Some(&command)).map(|_| ()),
    })?;
    Ok(ExitCode::SUCCESS)
}
