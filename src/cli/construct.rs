//! `queens-sat construct N`: a solution by a closed-form construction, no search.
//!
//! The one-line form is streamed from the construction (constant memory); `--check` stores
//! the placement, verifies it in O(n) and reports the case that made it on stderr;
//! `--format board` draws small boards.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::construct::{verify, Construction, Method};
use queens_sat::output::write_output;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Largest n drawn with `--format board` (a row is 2n - 1 characters wide).
pub const MAX_BOARD_N: usize = 100;

/// Bytes per queen that `--check` needs: the placement (one `u32`) and the checker's bit sets
/// (one bit per column and per diagonal of each direction, 5 bits, rounded up to a byte).
const CHECK_BYTES_PER_QUEEN: u64 = 4 + 1;

/// How to print the placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The one-line form: 1-based columns row by row, e.g. `2 4 1 3`.
    Line,
    /// The board drawn with `Q` and `.` (n <= 100).
    Board,
    /// SVG: a chessboard with queens for n <= 64, a dot plot (one dot per queen) up to
    /// n = 100000.
    Svg,
    /// Nothing (with --check: only verify).
    None,
}

/// Arguments of `queens-sat construct`.
#[derive(Args, Debug)]
pub struct ConstructArgs {
    /// Board size (n x n, 1 <= n <= 4294967295). For n = 2 and 3 no solution exists: that is
    /// printed on stdout and the exit code is 0.
    #[arg(value_parser = parse_board_size, allow_negative_numbers = true)]
    n: usize,
    /// Construction: hlm (Hoffman-Loessi-Moore, cases A1..B4) or staircase.
    #[arg(long, default_value = "hlm", value_parser = parse_method)]
    method: Method,
    /// Output format.
    #[arg(long, value_enum, default_value = "line")]
    format: Format,
    /// Verify the placement in O(n) and report on stderr which case made it
    /// (exit 1 if it were not a solution).
    #[arg(long)]
    check: bool,
    /// Output file (default: stdout). Written to a temporary file, then renamed.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// A board size: `parse_n`, with a clearer message for numbers too large to read.
fn parse_board_size(s: &str) -> Result<usize, String> {
    super::parse_n(s).map_err(|e| {
        let t = s.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && t.parse::<u64>().is_err() {
            format!(
                "n = {t} is too large: the constructor handles boards up to n = {}",
                queens_sat::construct::MAX_N
            )
        } else {
            e
        }
    })
}

fn parse_method(s: &str) -> Result<Method, String> {
    s.parse()
}

/// Bytes of memory the kernel reports as available, if it says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Runs `construct`: exit 0 with the placement (or the "no solution exists" message for
/// n = 2, 3), 1 if `--check` found the placement invalid, an error (exit 2) for bad input.
pub fn run(args: ConstructArgs) -> Result<ExitCode> {
    let n = args.n;
    if args.format == Format::Board && n > MAX_BOARD_N {
        bail!(
            "--format board draws boards up to n = {MAX_BOARD_N} (n = {n} would be {} characters wide); \
             use the one-line form (--format line)",
            2 * n - 1
        );
    }
    if args.format == Format::Svg && n > queens_sat::picture::MAX_DOT_PLOT_N {
        bail!(
            "--format svg draws boards up to n = {} (n = {n} would make a picture of {n} dots); \
             use the one-line form (--format line)",
            queens_sat::picture::MAX_DOT_PLOT_N
        );
    }
    let started = Instant::now();
    let Some(construction) = Construction::new(n, args.method)? else {
        println!("no solution exists for n = {n}");
        return Ok(ExitCode::SUCCESS);
    };
    let case = construction.case();

    if args.check {
        let need = (n as u64).saturating_mul(CHECK_BYTES_PER_QUEEN);
        if let Some(avail) = available_memory() {
            if need > avail {
                bail!(
                    "n = {n} with --check needs about {} of memory, only {} is available; \
                     drop --check to stream the answer in constant memory",
                    super::encode::human_bytes(need),
                    super::encode::human_bytes(avail)
                );
            }
        }
        let placement = construction.placement()?;
        let built = started.elapsed();
        let checked_at = Instant::now();
        let verdict = verify(&placement);
        let checked = checked_at.elapsed();
        match verdict {
            Ok(()) => eprintln!(
                "n = {n}: {} case {case} ({}): valid, checked in O(n) \
                 (construct {:.1} ms, check {:.1} ms)",
                args.method,
                case.description(),
                built.as_secs_f64() * 1e3,
                checked.as_secs_f64() * 1e3
            ),
            Err(v) => {
                eprintln!(
                    "n = {n}: {} case {case} ({}) is NOT a solution: {v}",
                    args.method,
                    case.description()
                );
                return Ok(ExitCode::from(1));
            }
        }
        write_placement(&args, &construction, Some(placement.cols()))?;
    } else {
        write_placement(&args, &construction, None)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes in the chosen format, from the stored columns when there are some, else streamed
/// from the construction.
fn write_placement(
    args: &ConstructArgs,
    construction: &Construction,
    stored: Option<&[u32]>,
) -> Result<()> {
    match args.format {
        Format::None => Ok(()),
        Format::Line => Ok(write_output(args.output.as_deref(), |w| match stored {
            Some(cols) => queens_sat::construct::write_one_line(cols.iter().copied(), w),
            None => construction.write_one_line(w),
        })?),
        Format::Board => {
            let placement = construction.placement()?;
            let text = placement.render_board();
            Ok(write_output(args.output.as_deref(), |w| {
                w.write_all(text.as_bytes())
            })?)
        }
        Format::Svg => {
            let placement = construction.placement()?;
            let title = format!(
                "n = {}: {} construction, case {}",
                placement.n(),
                args.method,
                construction.case()
            );
            Ok(write_output(args.output.as_deref(), |w| {
                queens_sat::picture::write_board(w, &placement, &title)
            })?)
        }
    }
}
