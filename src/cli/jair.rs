//! `generate completion|excluded-diagonals ... --compatible jair [--format jair]`: the
//! literature's Python generators (CSPLib problem 079) reproduced, as an instance file or as
//! the parameter file the script prints.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::family::jair;
use std::path::Path;
use std::process::ExitCode;

/// Whose generator to reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Compatible {
    /// Gent, Jefferson and Nightingale, JAIR 2017 (CSPLib problem 079): queens-diag-gen.py,
    /// queens-gen-fast.py.
    Jair,
}

/// What `generate` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The instance file (docs/formats.md).
    Instance,
    /// The parameter file exactly as the Python script prints it (needs --compatible jair).
    Jair,
}

/// The options of the reproduced generators.
#[derive(Args, Debug)]
pub struct CompatibleArgs {
    /// Draw exactly as the literature's script does with the same n, parameter and seed:
    /// `jair`, the generators of Gent, Jefferson and Nightingale (CSPLib problem 079).
    #[arg(long, value_enum, value_name = "NAME")]
    pub compatible: Option<Compatible>,
    /// Output format: `instance` (the instance file) or, with --compatible jair, `jair` (the
    /// parameter file byte for byte as the script prints it).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "instance")]
    pub format: Format,
}

impl CompatibleArgs {
    /// `true` when the script is to be reproduced; an error for `--format jair` without it.
    pub fn reproduce(&self) -> Result<bool> {
        if self.format == Format::Jair && self.compatible.is_none() {
            bail!("--format jair writes the literature's parameter file: it goes with --compatible jair");
        }
        Ok(self.compatible.is_some())
    }
}

fn write(output: Option<&Path>, text: &str) -> Result<ExitCode> {
    queens_sat::output::write_output(output, |w| w.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}

/// `generate completion N --k K --compatible jair`: queens-gen-fast.py N K SEED.
pub fn completion(
    n: usize,
    k: usize,
    seed: u64,
    output: Option<&Path>,
    args: &CompatibleArgs,
) -> Result<ExitCode> {
    let text = match args.format {
        Format::Jair => jair::completion(n, k, seed)?.to_text(),
        Format::Instance => jair::completion_spec(n, k, seed)?.to_text(),
    };
    write(output, &text)
}

/// `generate excluded-diagonals N --min-free M --compatible jair [--d D]`:
/// queens-diag-gen.py N M SEED, its first D diagonals in the instance file.
pub fn excluded_diagonals(
    n: usize,
    d: Option<usize>,
    min_free: usize,
    seed: u64,
    output: Option<&Path>,
    args: &CompatibleArgs,
) -> Result<ExitCode> {
    let text = match args.format {
        Format::Jair => {
            if let Some(d) = d {
                bail!("--format jair writes every diagonal the script keeps, as it prints them; --d {d} chooses the prefix of an instance file (leave out --format jair, or --d)");
            }
            jair::excluded_diagonals(n, min_free, seed)?.to_text()
        }
        Format::Instance => jair::excluded_diagonals_spec(n, min_free, seed, d)?.to_text(),
    };
    write(output, &text)
}
