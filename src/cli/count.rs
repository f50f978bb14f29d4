//! `queens-sat count N`: the number of solutions and of fundamental solutions, or the solutions
//! themselves with `--list` ([`queens_sat::command::count`]).

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens_sat::command::count::{
    self as count_command, Board, CountProgress, CountRequest, Format as Out, InstanceFile,
    ListFormat, Listing,
};
use queens_sat::count::{self, Progress};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Readable text.
    Text,
    /// One JSON object.
    Json,
    /// With --list: the solutions drawn as a grid of small boards (SVG, at most 1000).
    Svg,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size (n x n, 1 <= n <= 32); left out with --instance.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true, required_unless_present_any = ["instance", "merge"], conflicts_with = "instance")]
    n: Option<usize>,
    /// Count the solutions of an instance file (docs/formats.md; n <= 64): pre-placed queens,
    /// blocked cells, excluded diagonals, toroidal boards. The board's symmetries are used only
    /// where the instance has them.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["checkpoint", "fundamental"])]
    instance: Option<PathBuf>,
    #[command(flatten)]
    diagonals: super::import::DiagonalsArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// List the solutions (one-line form, 1-based columns) instead of counting them.
    #[arg(long)]
    list: bool,
    /// With --list: one representative per symmetry class (the smallest of its 8 images).
    #[arg(long)]
    fundamental: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Also draw a heatmap of the board to FILE (SVG): how many solutions put a queen on each
    /// cell, by one exact count per cell (n <= 14; with --instance, boards up to n = 64 as
    /// far as their counts are quick).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["list", "checkpoint", "shard", "merge"])]
    heatmap: Option<PathBuf>,
    /// Record finished sub-problems in FILE and resume from it if it exists.
    #[arg(long, value_name = "FILE", conflicts_with = "list")]
    checkpoint: Option<PathBuf>,
    /// Output file (default: stdout). With --shard, the shard file: written as sub-problems
    /// finish, resumed when the same command runs again on it.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Count only shard I of K (1-based) of the sub-problems, dealt by estimated cost so that
    /// shards take similar time, into the shard file given with -o; `--merge` joins the K
    /// files (docs/cluster.md).
    #[arg(long, value_name = "I/K", value_parser = queens_sat::count::parse_shard, requires = "output", conflicts_with_all = ["list", "checkpoint", "instance", "merge"])]
    shard: Option<count::Shard>,
    /// Merge the shard files of a sharded count (every shard once, all of the same n, split
    /// and version, each complete and intact) and print the counts of the whole board.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["list", "checkpoint", "instance", "threads"])]
    merge: Vec<PathBuf>,
}

pub fn run(args: CountArgs) -> Result<ExitCode> {
    let req = request(args)?;
    let bar = Bar::new();
    let ending = count_command::count(
        &req,
        &mut queens_sat::output::stdout(),
        &mut std::io::stderr(),
        &bar,
    )?;
    Ok(ExitCode::from(ending.exit_code()))
}

/// The request the flags make, or why they do not go together (those clap does not refuse).
fn request(args: CountArgs) -> Result<CountRequest> {
    args.diagonals.check(args.instance.is_some())?;
    if args.fundamental && !args.list {
        bail!(
            "--fundamental goes with --list (the count always reports the fundamental solutions)"
        );
    }
    if args.format == Format::Svg && !args.list {
        bail!("--format svg goes with --list (a grid of the solutions); --heatmap FILE draws the counts per cell");
    }
    let format = match args.format {
        Format::Json => Out::Json,
        Format::Text | Format::Svg => Out::Text,
    };
    let threads = args.threads.map(|t| t as usize);
    let output = args.output;
    if !args.merge.is_empty() {
        return Ok(CountRequest::Merge {
            files: args.merge,
            n: args.n,
            format,
            output,
        });
    }
    let board = match (args.instance, args.n) {
        (Some(path), _) => Board::Instance(InstanceFile {
            path,
            diagonals: args.diagonals.diagonals,
        }),
        (None, Some(n)) => Board::Empty(n),
        (None, None) => bail!("give the board size N, --instance FILE or --merge FILE..."),
    };
    Ok(match (board, args.shard, output) {
        (board, _, output) if args.list => CountRequest::List {
            listing: match board {
                Board::Empty(n) if args.fundamental => Listing::Fundamental(n),
                _ if args.fundamental => bail!("--fundamental goes with N (the empty board)"),
                board => Listing::Every(board),
            },
            format: match args.format {
                Format::Svg => ListFormat::Svg,
                Format::Text | Format::Json => ListFormat::Lines(format),
            },
            output,
        },
        (Board::Empty(n), Some(shard), Some(file)) => CountRequest::Shard {
            n,
            shard,
            file,
            threads,
        },
        (_, Some(_), _) => bail!("--shard I/K goes with N and -o FILE (the shard file)"),
        (Board::Empty(n), None, output) => CountRequest::Count {
            n,
            threads,
            checkpoint: args.checkpoint,
            heatmap: args.heatmap,
            format,
            output,
        },
        (Board::Instance(instance), None, output) => {
            if args.checkpoint.is_some() {
                bail!("--checkpoint goes with N (the count of the empty board)");
            }
            CountRequest::CountInstance {
                instance,
                threads,
                heatmap: args.heatmap,
                format,
                output,
            }
        }
    })
}

/// A progress bar on stderr, shown only on a terminal and only once a run has lasted a second.
struct Bar {
    start: Instant,
    bar: Option<Mutex<ProgressBar>>,
}

impl Bar {
    fn new() -> Bar {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
            b.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {pos}/{len} sub-problems, about {eta} left",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            Mutex::new(b)
        });
        Bar {
            start: Instant::now(),
            bar,
        }
    }
}

impl CountProgress for Bar {
    fn update(&self, p: Progress) {
        let Some(bar) = &self.bar else { return };
        let Ok(b) = bar.lock() else { return };
        if b.length() != Some(p.total as u64) {
            b.set_length(p.total as u64);
        }
        if b.is_hidden() && self.start.elapsed() > Duration::from_secs(1) {
            b.set_draw_target(ProgressDrawTarget::stderr());
        }
        b.set_position(p.done as u64);
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            if let Ok(b) = bar.lock() {
                b.finish_and_clear();
            }
        }
    }
}
