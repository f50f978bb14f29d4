//! `queens-sat grade N FILE`: is a DIMACS file a correct encoding of n-queens? Sound (every
//! model's board a solution), complete (every solution a model's board), and the projected
//! count against the counter's. `--n A..B PATTERN` grades one file per n
//! ([`queens_sat::command::grade`]).

use anyhow::{anyhow, bail, Result};
use clap::Args;
use queens_sat::grade::MAX_GRADE_N;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(
    override_usage = "queens-sat grade [OPTIONS] N FILE\n       queens-sat grade [OPTIONS] --n A..B PATTERN"
)]
pub struct GradeArgs {
    /// N and FILE: the board size and the DIMACS file. With --n, only PATTERN: a file name
    /// in which `%d` stands for n (e.g. 'student-%d.cnf').
    #[arg(value_name = "N FILE", num_args = 1..=2, required = true)]
    args: Vec<String>,
    /// Grade one file per n: a range `4..8` (ends included), a list `4,6,8`, or both, n <= 10.
    #[arg(long = "n", value_name = "NS", value_parser = parse_ns)]
    ns: Option<super::NList>,
    /// Where the cells are: one line `ROW COLUMN VARIABLE` per cell (1-based row and column;
    /// comment lines start with `c` or `#`). Default: cell (r,c) is variable (r-1)*n + c, as
    /// `encode` numbers them. With --n, `%d` in the name stands for n.
    #[arg(long, value_name = "MAP")]
    map: Option<String>,
}

fn parse_ns(s: &str) -> Result<super::NList, String> {
    super::parse_n_list_up_to(s, MAX_GRADE_N, |n| {
        format!("n = {n}: grade enumerates every model, n <= {MAX_GRADE_N}")
    })
}

/// Runs `grade`: exit 0 when every file is a correct encoding, 1 when one is not, 2 for bad
/// input (the first one stops the run).
pub fn run(args: GradeArgs) -> Result<ExitCode> {
    use queens_sat::command::grade::{grade_files, GradeRequest};
    let req = match (args.ns, &args.args[..]) {
        (Some(ns), [pattern]) => GradeRequest::Each {
            ns: ns.0,
            pattern: pattern.clone(),
            map: args.map,
        },
        (Some(_), _) => bail!("with --n give one file name PATTERN (with %d for n), not N FILE"),
        (None, [n, file]) => GradeRequest::One {
            n: queens_sat::input::parse_n(n).map_err(|e| anyhow!("N: {e}"))?,
            file: file.clone(),
            map: args.map,
        },
        (None, _) => bail!("give N and FILE (or --n A..B and a file name PATTERN)"),
    };
    let ending = grade_files(&req, &mut queens_sat::output::stdout())?;
    Ok(ExitCode::from(ending.exit_code()))
}
