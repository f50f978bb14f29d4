//! `queens-sat construct N`: a solution by a closed-form construction, no search
//! ([`queens_sat::command::construct`]).

use anyhow::Result;
use clap::{Args, ValueEnum};
use queens_sat::construct::Method;
use std::path::PathBuf;
use std::process::ExitCode;

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

/// Runs `construct`: exit 0 with the placement (or the "no solution exists" message for
/// n = 2, 3), 1 if `--check` found the placement invalid, an error (exit 2) for bad input.
pub fn run(args: ConstructArgs) -> Result<ExitCode> {
    use queens_sat::command::construct::{construct, ConstructRequest, Format as Out};
    let req = ConstructRequest {
        n: args.n,
        method: args.method,
        format: match args.format {
            Format::Line => Out::Line,
            Format::Board => Out::Board,
            Format::Svg => Out::Svg,
            Format::None => Out::None,
        },
        check: args.check,
        output: args.output,
    };
    let ending = construct(
        &req,
        &mut queens_sat::output::stdout(),
        &mut std::io::stderr(),
    )?;
    Ok(ExitCode::from(ending.exit_code()))
}
