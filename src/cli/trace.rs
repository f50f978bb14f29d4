//! `queens-sat trace N`: a small DPLL (or, with --learning, CDCL) search on the instance, every
//! step recorded and said in words: as text, JSON, or one self-contained HTML page
//! ([`queens_sat::command::trace`]).

use anyhow::Result;
use clap::{Args, ValueEnum};
use queens_sat::trace::{TraceOptions, DEFAULT_MAX_STEPS};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// Step by step in words, with small boards (Q queen, x excluded, . open).
    Text,
    /// One JSON object: the clauses and every step with its board (docs/formats.md).
    Json,
    /// One self-contained page: the board as SVG, the clause list, forward and back buttons
    /// and arrow keys, #step=K in the address (n <= 16).
    Html,
}

#[derive(Args, Debug)]
pub struct TraceArgs {
    /// Board size (n x n, n >= 1); may be left out with --instance.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true, required_unless_present = "instance")]
    n: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// CDCL: learn a clause from each conflict (first UIP) and jump back; without it, DPLL
    /// with chronological backtracking.
    #[arg(long)]
    learning: bool,
    /// Stop with an error (exit 2, nothing written) past this many steps.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_MAX_STEPS)]
    max_steps: usize,
    /// The formula: model, encodings and the partial board (--place, --forbid, --instance),
    /// as for `solve`.
    #[command(flatten)]
    formula: super::solve::FormulaArgs,
    /// Output file (default: stdout), written whole or not at all.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: TraceArgs) -> Result<ExitCode> {
    use queens_sat::command::trace::{trace, Format as Out, TraceRequest};
    args.formula.refuse_as_output(&[args.output.as_deref()])?;
    let req = TraceRequest {
        instance: args.formula.instance(args.n)?,
        format: match args.format {
            Format::Text => Out::Text,
            Format::Json => Out::Json,
            Format::Html => Out::Html,
        },
        options: TraceOptions {
            learning: args.learning,
            max_steps: args.max_steps,
        },
        output: args.output,
    };
    Ok(ExitCode::from(trace(&req)?.exit_code()))
}
