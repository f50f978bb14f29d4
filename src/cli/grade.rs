//! `queens-sat grade N FILE`: is a DIMACS file a correct encoding of n-queens? Sound (every
//! model's board a solution), complete (every solution a model's board), each rule of the
//! reference model enforced on its own, and the projected count against the counter's.
//! `--n A..B PATTERN` grades one file per n, `--n A..B --generator CMD` the output of a command
//! run per n ([`queens_sat::command::grade`]).

use anyhow::{anyhow, bail, Result};
use clap::Args;
use queens_sat::grade::MAX_GRADE_N;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(
    override_usage = "queens-sat grade [OPTIONS] N FILE\n       queens-sat grade [OPTIONS] --n A..B PATTERN\n       queens-sat grade [OPTIONS] --n A..B --generator 'CMD {n}'"
)]
pub struct GradeArgs {
    /// N and FILE: the board size and the DIMACS file. With --n, only PATTERN: a file name
    /// in which `{n}` (or `%d`) stands for n (e.g. 'student-{n}.cnf'); with --generator, none.
    #[arg(value_name = "N FILE", num_args = 0..=2)]
    args: Vec<String>,
    /// Grade each n of a range `4..8` (ends included), a list `4,6,8`, or both, n <= 13: one
    /// line per n, then the verdict with the smallest n where the encoding is wrong.
    #[arg(long = "n", value_name = "NS", value_parser = parse_ns)]
    ns: Option<super::NList>,
    /// A command that writes the DIMACS file of n on its standard output, run by `sh -c` for
    /// each n of --n with `{n}` replaced by n (e.g. 'python3 mine.py {n}').
    #[arg(long, value_name = "CMD", requires = "ns")]
    generator: Option<String>,
    /// Where the cells are: one line `ROW COLUMN VARIABLE` per cell (1-based row and column;
    /// comment lines start with `c` or `#`). Default: cell (r,c) is variable (r-1)*n + c, as
    /// `encode` numbers them. With --n, `{n}` (or `%d`) in the name stands for n.
    #[arg(long, value_name = "MAP")]
    map: Option<String>,
    /// After the report of one file, list every rule of the reference model: enforced on its
    /// own, only by the rest of the board, or broken, and the number of the file's clause that
    /// states it.
    #[arg(long)]
    rules: bool,
}

fn parse_ns(s: &str) -> Result<super::NList, String> {
    super::parse_n_list_up_to(s, MAX_GRADE_N, |n| {
        format!("n = {n}: grade checks every solution, n <= {MAX_GRADE_N}")
    })
}

/// Runs `grade`: exit 0 when every file is a correct encoding, 1 when one is not, 2 for bad
/// input (the first one stops the run).
pub fn run(args: GradeArgs) -> Result<ExitCode> {
    use queens_sat::command::grade::{grade_files, GradeRequest, Source};
    let (ns, source) = match (args.ns, args.generator, &args.args[..]) {
        (Some(ns), Some(g), []) => (ns.0, Source::Generator(g)),
        (Some(_), Some(_), _) => bail!("with --generator give no N or FILE"),
        (Some(ns), None, [pattern]) => (ns.0, Source::Pattern(pattern.clone())),
        (Some(_), None, _) => {
            bail!("with --n give one file name PATTERN (with {{n}} for n), or --generator")
        }
        (None, _, [n, file]) => (
            vec![queens_sat::input::parse_n(n).map_err(|e| anyhow!("N: {e}"))?],
            Source::File(file.clone()),
        ),
        (None, _, _) => bail!("give N and FILE (or --n A..B and a file name PATTERN)"),
    };
    if args.rules && ns.len() > 1 {
        bail!("--rules lists the rules of one file: give one n");
    }
    let req = GradeRequest {
        ns,
        source,
        map: args.map,
        rules: args.rules,
    };
    let ending = grade_files(&req, &mut queens_sat::output::stdout())?;
    Ok(ExitCode::from(ending.exit_code()))
}
