//! `queens-sat check`: the cross-checks of [`queens_sat::crosscheck`] for a range of n and a set
//! of encodings, as a table streamed row by row and a final verdict (exit 0 when everything
//! agrees, 1 on any discrepancy).

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::count;
use queens_sat::crosscheck::{self, CheckConfig, Formula, RowReport};
use queens_sat::encode::{Amo, LineEncodings};
use queens_sat::instance::Instance;
use std::io::{self, IsTerminal, Write};
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
    /// Board sizes: a range `a..b` (ends included), a list `4,6,8`, or both `1..5,12`.
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
    /// default: faster on the many small sub-problems of an enumeration) or cadical. The single
    /// solve and the proofs of UNSAT answers always use varisat.
    #[arg(long, value_name = "NAME", default_value_t = queens_sat::solve::Backend::for_enumeration(), value_parser = super::parse_backend())]
    backend: queens_sat::solve::Backend,
}

/// The models the `--models` values name, each with every encoding of `encs` where it takes
/// one.
/// The encodings the `--amo` values name (all of them when none is given).
fn encodings(values: &[String]) -> Result<Vec<LineEncodings>> {
    if values.is_empty() {
        return Ok(Amo::all().into_iter().map(LineEncodings::uniform).collect());
    }
    let out = LineEncodings::parse_list(values).map_err(|e| anyhow::anyhow!("--amo: {e}"))?;
    if out.is_empty() {
        bail!("--amo: no encoding named");
    }
    Ok(out)
}

pub fn run(args: CheckArgs) -> Result<ExitCode> {
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let encs = encodings(&args.amo)?;
    let mut formulas: Vec<std::sync::Arc<dyn Formula>> = Vec::new();
    let models = super::models(&args.models.models, &encs, args.column_alo)?;
    if args.instance.is_empty() {
        for &n in &args.n.0 {
            for &model in &models {
                formulas.push(std::sync::Arc::new(Instance::new(n, model)?));
            }
        }
    }
    for path in &args.instance {
        let spec = super::read_instance_file_with(path, args.diagonals.diagonals)?;
        if spec.n > queens_sat::count::MASKED_MAX_N {
            bail!(
                "{}: n = {} is above {}, the largest board the counter checks",
                path.display(),
                spec.n,
                queens_sat::count::MASKED_MAX_N
            );
        }
        for &model in &models {
            let inst = spec
                .instance(model)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            formulas.push(std::sync::Arc::new(inst));
        }
    }
    let external: Vec<String> = args
        .external
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    for e in &external {
        let program = e.split_whitespace().next().unwrap_or(e);
        if !crosscheck::on_path(program) {
            eprintln!("note: {program} is not on PATH; its check is skipped");
        }
    }
    if !external.is_empty() {
        // The solvers run in their own process groups: an interruption must stop them.
        super::output::install_interrupt_handler();
    }
    let cfg = CheckConfig {
        enumerate_up_to: args.enumerate_up_to,
        count_up_to: args.count_up_to,
        corrupted_solutions: args.corrupt,
        external,
        timeout: args.timeout,
        threads: args.threads,
        backend: args.backend,
    };

    let bar = io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(formulas.len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} rows checked",
        ) {
            b.set_style(style.progress_chars("=> "));
        }
        b.enable_steady_tick(Duration::from_millis(200));
        b
    });
    let width = formulas
        .iter()
        .map(|f| f.name().len())
        .max()
        .unwrap_or(8)
        .max(8);
    // Wide enough for the largest count the rows can show.
    let numw = args
        .n
        .0
        .iter()
        .filter_map(|&n| crosscheck::reference_total(n))
        .map(|d| d.to_string().len())
        .max()
        .unwrap_or(0)
        .max(7);
    let widths = (width, numw);
    let text = args.format == Format::Text;
    let mut out = io::stdout().lock();
    let mut write_error: Option<io::Error> = None;
    let mut emit = |lines: &str, out: &mut io::StdoutLock| {
        if write_error.is_some() {
            return;
        }
        let mut write = || -> io::Result<()> {
            out.write_all(lines.as_bytes())?;
            out.flush()
        };
        let result = match &bar {
            Some(b) => b.suspend(write),
            None => write(),
        };
        if let Err(e) = result {
            write_error = Some(e);
        }
    };
    if text {
        emit(&header(widths), &mut out);
    }
    let summary = crosscheck::run(&formulas, &cfg, |row| {
        if let Some(b) = &bar {
            b.inc(1);
        }
        if text {
            emit(&format_row(row, widths), &mut out);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if text {
        let verdict = if summary.ok {
            format!(
                "verdict: all checks agree ({}: {} x {})\n",
                plural(summary.rows.len(), "row"),
                if args.instance.is_empty() {
                    plural(args.n.0.len(), "board size")
                } else {
                    plural(args.instance.len(), "instance")
                },
                plural(models.len(), "model")
            )
        } else {
            let bad = summary.rows.iter().filter(|r| !r.ok()).count();
            format!(
                "verdict: {} in {bad} of {}\n",
                if summary.discrepancies == 1 {
                    "1 discrepancy".to_string()
                } else {
                    format!("{} discrepancies", summary.discrepancies)
                },
                plural(summary.rows.len(), "row")
            )
        };
        out.write_all(verdict.as_bytes())?;
    } else {
        serde_json::to_writer_pretty(&mut out, &summary)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(if summary.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `1 row`, `70 rows`.
fn plural(k: usize, what: &str) -> String {
    if k == 1 {
        format!("1 {what}")
    } else {
        format!("{k} {what}s")
    }
}

/// The table's header; `width` is that of the encoding column, `numw` of the count columns.
fn header((width, numw): (usize, usize)) -> String {
    format!(
        "{:>3}  {:<width$}  {:>6}  {:>8}  {:<5}  {:>numw$}  {:>numw$}  {:>numw$}  {:>9}  {:>7}  {:<6}  external\n",
        "n", "encoding", "vars", "clauses", "sat", "models", "counter", "table", "construct", "corrupt", "result"
    )
}

/// One row of the table, with its discrepancies on the lines below.
fn format_row(r: &RowReport, (width, numw): (usize, usize)) -> String {
    let opt = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |x| x.to_string());
    let sat = match r.sat {
        Some(true) => "SAT",
        Some(false) => "UNSAT",
        None => "?",
    };
    let construct = if r.constructed == 0 {
        "-".to_string()
    } else {
        r.constructed.to_string()
    };
    let external = if r.external.is_empty() {
        "-".to_string()
    } else {
        r.external
            .iter()
            .map(|e| format!("{} {}", e.solver, e.status))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = format!(
        "{:>3}  {:<width$}  {:>6}  {:>8}  {:<5}  {:>numw$}  {:>numw$}  {:>numw$}  {:>9}  {:>7}  {:<6}  {}\n",
        r.n,
        r.encoding,
        r.vars,
        r.clauses,
        sat,
        opt(r.models),
        opt(r.counter),
        opt(r.reference),
        construct,
        r.corruptions,
        if r.ok() { "ok" } else { "FAIL" },
        external
    );
    if let Some(lemmas) = r.proof_lemmas {
        let how = if lemmas == 0 {
            "unit propagation alone refutes the formula".to_string()
        } else {
            format!("DRAT, {lemmas} lemmas")
        };
        s.push_str(&format!(
            "       n = {}, {}: UNSAT proved ({how}, checked by dratify)\n",
            r.n, r.encoding
        ));
    }
    for d in &r.discrepancies {
        s.push_str(&format!("     ! n = {}, {}: {d}\n", r.n, r.encoding));
    }
    s
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

    #[test]
    fn encoding_lists() {
        assert_eq!(encodings(&[]).unwrap().len(), Amo::all().len());
        let e = encodings(&["pairwise,sequential".into(), "sequential".into()]).unwrap();
        assert_eq!(
            e,
            vec![
                LineEncodings::uniform(Amo::PAIRWISE),
                LineEncodings::uniform(Amo::SEQUENTIAL)
            ]
        );
        let e = encodings(&["rows=sequential,diagonals=product".into()]).unwrap();
        assert_eq!(e.len(), 1);
        assert!(encodings(&["nope".into()]).is_err());
    }
}
