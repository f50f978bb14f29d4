//! `queens-sat generate FAMILY N ...`: draw an instance of a family and write its instance file.

use anyhow::Result;
use clap::{Args, Subcommand};
use queens_sat::family::{generate, CompletionMode, Density, Recipe};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(subcommand)]
    family: FamilyCommand,
}

/// Where the file goes and the seed: shared by every family.
#[derive(Args, Debug)]
struct Common {
    /// Board size (n x n, n >= 1).
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// The seed: the same family, parameters and seed give the same file on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (default: stdout). Written to a temporary file, then renamed.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Cells to block: a probability per cell or an exact number.
#[derive(Args, Debug)]
#[group(multiple = false)]
struct DensityArgs {
    /// Block each cell with probability P (0 <= P <= 1).
    #[arg(long, value_name = "P", allow_negative_numbers = true)]
    p: Option<f64>,
    /// Block exactly B distinct cells (0 <= B <= n*n).
    #[arg(long, value_name = "B")]
    b: Option<usize>,
}

impl DensityArgs {
    fn density(&self) -> Option<Density> {
        match (self.p, self.b) {
            (Some(p), _) => Some(Density::Probability(p)),
            (None, Some(b)) => Some(Density::Exactly(b)),
            (None, None) => None,
        }
    }
}

#[derive(Subcommand, Debug)]
enum FamilyCommand {
    /// n-Queens Completion: K queens pre-placed, from a random solution (always completable)
    /// or placed at random without attacks (may be impossible).
    Completion {
        #[command(flatten)]
        common: Common,
        /// Number of pre-placed queens (0 <= K <= n).
        #[arg(long, value_name = "K")]
        k: usize,
        /// Where the queens come from: solution (a random solution) or random.
        #[arg(
            long,
            value_name = "MODE",
            default_value = "solution",
            conflicts_with = "compatible"
        )]
        mode: CompletionMode,
        #[command(flatten)]
        jair: super::jair::CompatibleArgs,
    },
    /// Blocked cells: each with probability P, or exactly B of them.
    Blocked {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        density: DensityArgs,
    },
    /// The Excluded Diagonals Problem: D whole diagonals on which no queen may stand.
    ExcludedDiagonals {
        #[command(flatten)]
        common: Common,
        /// Number of diagonals to exclude (both directions, 0 <= D <= 4n-2); with --compatible
        /// jair, the first D the script keeps (default: all of them).
        #[arg(long, value_name = "D", required_unless_present = "compatible")]
        d: Option<usize>,
        /// Skip a diagonal that would leave a row or column with fewer than M free cells.
        #[arg(long, value_name = "M", default_value_t = 1)]
        min_free: usize,
        #[command(flatten)]
        jair: super::jair::CompatibleArgs,
    },
    /// The toroidal board (diagonals wrap around), optionally with blocked cells.
    Toroidal {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        density: DensityArgs,
    },
}

pub fn run(args: GenerateArgs) -> Result<ExitCode> {
    let (common, recipe) = match &args.family {
        FamilyCommand::Completion {
            common, k, jair, ..
        } if jair.reproduce()? => {
            let output = common.output.as_deref();
            return super::jair::completion(common.n, *k, common.seed, output, jair);
        }
        FamilyCommand::ExcludedDiagonals {
            common,
            d,
            min_free,
            jair,
        } if jair.reproduce()? => {
            let (n, seed, output) = (common.n, common.seed, common.output.as_deref());
            return super::jair::excluded_diagonals(n, *d, *min_free, seed, output, jair);
        }
        FamilyCommand::Completion {
            common, k, mode, ..
        } => (common, Recipe::Completion { k: *k, mode: *mode }),
        FamilyCommand::Blocked { common, density } => {
            let Some(density) = density.density() else {
                anyhow::bail!(
                    "blocked needs --p P (a probability per cell) or --b B (a number of cells)"
                );
            };
            (common, Recipe::Blocked { density })
        }
        FamilyCommand::ExcludedDiagonals {
            common,
            d,
            min_free,
            ..
        } => (
            common,
            Recipe::ExcludedDiagonals {
                d: d.ok_or_else(|| anyhow::anyhow!("excluded-diagonals needs --d D"))?,
                min_free: *min_free,
            },
        ),
        FamilyCommand::Toroidal { common, density } => (
            common,
            Recipe::Toroidal {
                blocked: density.density(),
            },
        ),
    };
    let spec = generate(common.n, &recipe, common.seed)?;
    let text = spec.to_text();
    queens_sat::output::write_output(common.output.as_deref(), |w| w.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}
