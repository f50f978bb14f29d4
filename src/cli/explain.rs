//! `queens-sat explain N`: the formula for people: readable, LaTeX, or DIMACS with comments.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::explain::{
    fixed_clauses, write_dimacs_commented, write_dimacs_commented_columns, write_fixed_readable,
    write_latex, write_latex_columns, write_readable, write_readable_columns, Notation,
};
use queens_sat::output::write_output;
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
    /// Board size (n x n, n >= 1); may be left out with --instance.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true, required_unless_present = "instance")]
    n: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The formula: model, encodings and the partial board (--place, --forbid, --instance),
    /// as for `solve`.
    #[command(flatten)]
    formula: super::solve::FormulaArgs,
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
    let (instance, spec) = args.formula.instance_and_spec(args.n)?;
    if instance.symmetry_breaking().is_on() {
        bail!(
            "explain lists the model's clauses and does not list the symmetry-breaking ones; use `queens-sat encode` with --symmetry-breaking {} for the whole formula",
            instance.symmetry_breaking()
        );
    }
    let n = instance.n();
    if n > MAX_N && !args.force {
        bail!(
            "explain prints every clause, about n^3 of them; n = {n} is above {MAX_N}: use --limit with --force, or `encode` for DIMACS"
        );
    }
    let notation = if args.ascii {
        Notation::Ascii
    } else {
        Notation::Unicode
    };
    let command = super::command_line();
    super::guard_stream(&instance)?;
    // The part of the instance beyond the model: pre-placed queens, forbidden cells, and
    // where it comes from.
    let has_cells = !instance.is_empty_board();
    let tail = fixed_clauses(&instance);
    let origin = spec.as_ref().map(|s| s.comment_lines()).unwrap_or_default();
    let picture = spec.as_ref().filter(|s| s.n <= 40).map(|s| s.picture());
    let header = instance.dimacs_header(Some(&command));
    let fixed_part = |w: &mut dyn std::io::Write| -> std::io::Result<()> {
        if has_cells || spec.is_some() {
            write_fixed_readable(&instance, w, &origin, picture.as_deref(), notation)?;
        }
        Ok(())
    };
    if let Some(enc) = instance.columns_encoder() {
        write_output(args.output.as_deref(), |w| match args.format {
            Format::DimacsCommented => {
                write_dimacs_commented_columns(enc, w, &header, &tail).map(|_| ())
            }
            Format::Latex => write_latex_columns(enc, w, args.expand || n <= 5, &tail).map(|_| ()),
            Format::Text => {
                let w = write_readable_columns(enc, w, notation, args.limit)?;
                fixed_part(w)
            }
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(enc) = instance.cells_encoder() else {
        bail!("internal error: an instance without its encoder");
    };
    write_output(args.output.as_deref(), |w| match args.format {
        Format::Text => {
            let w = write_readable(enc, w, notation, args.limit)?;
            fixed_part(w)
        }
        Format::Latex => write_latex(enc, w, args.expand || n <= 5, &tail).map(|_| ()),
        Format::DimacsCommented => write_dimacs_commented(enc, w, &header, &tail).map(|_| ()),
    })?;
    Ok(ExitCode::SUCCESS)
}
