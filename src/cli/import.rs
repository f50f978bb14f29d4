//! `queens-sat import FILE`: the literature's parameter files (Excluded Diagonals, Essence'
//! n-Queens Completion) as an instance file, and the `--diagonals D` option that goes with
//! `--instance FILE` in every command.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The file to read: an Excluded Diagonals parameter file (`n = `, `numdiags = `, `diags =
    /// [[k, t], ...]`, as queens-diag-gen.py of CSPLib problem 079 writes), an Essence'
    /// parameter file of n-Queens Completion (`letting n = `, `letting init = [[r, c], ...]`),
    /// or an instance file; `-` reads stdin.
    file: PathBuf,
    /// Take the first D diagonals of an Excluded Diagonals parameter file, as the paper
    /// prescribes (default: all of them, numdiags).
    #[arg(long, value_name = "D")]
    diagonals: Option<usize>,
    /// Output file (default: stdout). Written to a temporary file, then renamed.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// `--diagonals D`, for the commands that take `--instance FILE`.
#[derive(Args, Debug, Clone, Default)]
pub struct DiagonalsArg {
    /// With --instance FILE of an Excluded Diagonals parameter file (CSPLib problem 079): take
    /// its first D diagonals, as the paper prescribes (default: all of them, numdiags).
    #[arg(long, value_name = "D", requires = "instance")]
    pub diagonals: Option<usize>,
}

impl DiagonalsArg {
    /// Refuses `--diagonals` without `--instance` (for the commands where clap's `requires`
    /// gives way to another option's conflict with `--instance`, as `count N` has).
    pub fn check(&self, instance_given: bool) -> Result<()> {
        if self.diagonals.is_some() && !instance_given {
            anyhow::bail!(
                "--diagonals D goes with --instance FILE (an Excluded Diagonals parameter file)"
            );
        }
        Ok(())
    }
}

pub fn run(args: ImportArgs) -> Result<ExitCode> {
    queens_sat::output::refuse_input_as_output(&[&args.file], &[args.output.as_deref()])?;
    let spec = queens_sat::family::read_instance_file(&args.file, args.diagonals)?;
    let text = spec.to_text();
    queens_sat::output::write_output(args.output.as_deref(), |w| w.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}
