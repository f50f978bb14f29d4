//! `queens-sat explain N`: the formula for people: readable, LaTeX, or DIMACS with comments
//! ([`queens_sat::command::explain`]).

use anyhow::Result;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// Groups Q1..Q6 with meanings, counts and closed formulas, clauses with named variables
    /// (for the column model: every variable named and explained, then its groups D, C, S).
    Text,
    /// A LaTeX document: each group with its count (for the cell model in big-operator form),
    /// clauses written out for small n.
    Latex,
    /// DIMACS with each clause's number, group and meaning as a `c` line above it.
    DimacsCommented,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Board size (n x n, n >= 1); may be left out with --instance.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true, required_unless_present = "instance")]
    pub(super) n: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The formula: model, encodings and the partial board (--place, --forbid, --instance),
    /// as for `solve`.
    #[command(flatten)]
    pub(super) formula: super::solve::FormulaArgs,
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
    use queens_sat::command::explain::{explain, ExplainRequest, Format as Out};
    args.formula.refuse_as_output(&[args.output.as_deref()])?;
    let (instance, spec) = args.formula.instance_and_spec(args.n)?;
    let req = ExplainRequest {
        instance,
        spec,
        format: match args.format {
            Format::Text => Out::Text,
            Format::Latex => Out::Latex,
            Format::DimacsCommented => Out::DimacsCommented,
        },
        ascii: args.ascii,
        limit: args.limit,
        expand: args.expand,
        output: args.output,
        force: args.force,
        command_line: Some(super::command_line()),
    };
    Ok(ExitCode::from(explain(&req)?.exit_code()))
}
