//! `queens-sat check`: the cross-checks of [`queens_sat::crosscheck`] for a range of n and a set
//! of encodings, as a table streamed row by row and a final verdict (exit 0 when everything
//! agrees, 1 on any discrepancy).

use anyhow::Result;
use clap::{Args, ValueEnum};
use queens_sat::command::check::{CheckFormat, CheckProgress, CheckRequest};
use queens_sat::count;
use queens_sat::crosscheck::CheckConfig;
use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A table, one row per n and encoding, printed as each row finishes.
    Text,
    /// One JSON document with every row and the verdict, at the end.
    Json,
}

use super::NList;

/// Parses board sizes as [`super::parse_n_list_up_to`] does, up to the counter's range.
pub fn parse_n_list(s: &str) -> Result<NList, String> {
    super::parse_n_list_up_to(s, count::MAX_N, too_large)
}

fn too_large(n: usize) -> String {
    format!(
        "n = {n} is beyond the counter's range: check takes n from 1 to {}",
        count::MAX_N
    )
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Board sizes: a range `a..b` (ends included), with a step `4..12:2`, a list `4,6,8`, or
    /// both `1..5,12`.
    #[arg(long, default_value = "1..10", value_parser = parse_n_list, value_name = "NS")]
    n: NList,
    /// Encodings to check (default: every at-most-one encoding): names separated by commas
    /// (`pairwise,sequential,commander:4`); repeat the option for per-line settings, each of
    /// which is one encoding (`--amo rows=sequential,diagonals=product`).
    #[arg(long, alias = "encoding", value_name = "ENCODINGS")]
    amo: Vec<String>,
    /// Add the redundant column at-least-one clauses to every encoding checked.
    #[arg(long)]
    column_alo: bool,
    #[command(flatten)]
    models: super::ModelsArg,
    /// Count by SAT enumeration only for n up to this (the number of models grows fast).
    #[arg(long, default_value_t = 10, value_name = "N")]
    enumerate_up_to: usize,
    /// Run the backtracking counter only for n up to this (n = 16 takes seconds, each further
    /// n about 6 times longer); beyond it the published table (n <= 27) gives the counts.
    #[arg(long, default_value_t = 16, value_name = "N")]
    count_up_to: usize,
    /// External solvers to run on the exported DIMACS, separated by commas
    /// (`cadical,minisat`); those not on PATH are skipped with a note.
    #[arg(long, value_delimiter = ',', value_name = "SOLVERS")]
    external: Vec<String>,
    /// Time limit per external solver run, in seconds (the solver and every process it
    /// started are stopped).
    #[arg(long, default_value = "60", value_parser = queens_sat::input::parse_timeout, value_name = "SECONDS", allow_negative_numbers = true)]
    timeout: Duration,
    /// How many enumerated solutions to corrupt for the soundness check (besides the
    /// constructed placements).
    #[arg(long, default_value_t = 3, value_name = "K")]
    corrupt: usize,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Check instance files (docs/formats.md) instead of the empty boards of --n: each under
    /// every model and encoding asked for, against its count by the bitboard counter (n <= 64);
    /// repeatable.
    #[arg(long, value_name = "FILE")]
    instance: Vec<std::path::PathBuf>,
    #[command(flatten)]
    diagonals: super::import::DiagonalsArg,
    /// The embedded solver of the SAT enumeration and the symmetry-breaking count: varisat (the
    /// default: faster on the many small sub-problems of an enumeration), cadical or kissat
    /// (which solves each step afresh). The single solve and the proofs of its UNSAT answers
    /// always use varisat.
    #[arg(long, value_name = "NAME", default_value_t = queens_sat::solve::Backend::for_enumeration(), value_parser = super::parse_backend())]
    backend: queens_sat::solve::Backend,
    #[command(flatten)]
    solver_options: super::backends::SolverOptionArgs,
}

pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let req = CheckRequest {
        ns: args.n.0,
        amo: args.amo,
        column_alo: args.column_alo,
        models: args.models.models,
        instances: args.instance,
        diagonals: args.diagonals.diagonals,
        config: CheckConfig {
            enumerate_up_to: args.enumerate_up_to,
            count_up_to: args.count_up_to,
            corrupted_solutions: args.corrupt,
            external: args.external,
            timeout: args.timeout,
            threads: args.threads,
            backend: args.backend,
            solver_options: args.solver_options.checked(args.backend)?,
        },
        format: match args.format {
            Format::Text => CheckFormat::Text,
            Format::Json => CheckFormat::Json,
        },
    };
    let mut bar = Bar(None);
    let ending = queens_sat::command::check::check(
        &req,
        &mut queens_sat::output::stdout(),
        &mut io::stderr(),
        &mut bar,
    )?;
    Ok(ExitCode::from(ending.exit_code()))
}

/// The progress bar of the checks on stderr, shown only on a terminal.
struct Bar(Option<indicatif::ProgressBar>);

impl CheckProgress for Bar {
    fn start(&mut self, rows: usize) {
        self.0 = io::stderr().is_terminal().then(|| {
            let b = indicatif::ProgressBar::new(rows as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} rows checked",
            ) {
                b.set_style(style.progress_chars("=> "));
            }
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
    }

    fn row(&mut self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    fn suspend(&mut self, write: &mut dyn FnMut() -> io::Result<()>) -> io::Result<()> {
        match &self.0 {
            Some(b) => b.suspend(write),
            None => write(),
        }
    }

    fn finish(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn n_lists() {
        assert_eq!(parse_n_list("1..4").unwrap().0, vec![1, 2, 3, 4]);
        assert_eq!(parse_n_list("4..=6").unwrap().0, vec![4, 5, 6]);
        assert_eq!(parse_n_list("8, 4,6,4").unwrap().0, vec![4, 6, 8]);
        assert_eq!(parse_n_list("1..3,12").unwrap().0, vec![1, 2, 3, 12]);
        assert_eq!(parse_n_list("7").unwrap().0, vec![7]);
        for bad in ["", "0..3", "5..2", "1..x", "a", "1,,2", "1..40", "-3"] {
            assert!(parse_n_list(bad).is_err(), "{bad}");
        }
    }
}
