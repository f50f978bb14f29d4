//! `queens-sat compare`: the encoding experiment: sizes and solve times per n, encoding and
//! solver, as a Markdown table, CSV, JSON and an SVG plot.

use super::output::write_output;
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use queens_sat::encode::LineEncodings;
use queens_sat::experiment::{self, report, Row, SolverSpec, SweepConfig};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Board sizes, comma-separated (e.g. 8,16,32,64,128).
    #[arg(long = "n", value_delimiter = ',', value_parser = super::parse_n, default_value = "8,16,32")]
    ns: Vec<usize>,
    /// Encodings, comma-separated (pairwise,sequential,...); repeat the option for a per-line
    /// setting such as `--amo rows=sequential,diagonals=product`.
    #[arg(
        long,
        alias = "encoding",
        default_value = "pairwise,sequential,commander,product,binary"
    )]
    amo: Vec<String>,
    /// Add the redundant column at-least-one clauses.
    #[arg(long)]
    column_alo: bool,
    /// Solvers, comma-separated: `varisat` (embedded) or any command on PATH that reads a
    /// DIMACS file (cadical, kissat, minisat, ...).
    #[arg(long, value_delimiter = ',', default_value = "varisat")]
    solver: Vec<String>,
    /// Runs per combination (the median is reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Time limit of one run, in seconds.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Append each row to this CSV file as it is finished; rows already there are skipped.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Start the CSV file afresh instead of resuming it.
    #[arg(long)]
    fresh: bool,
    /// Write the results and metadata as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw clauses vs n and solve time vs n (log scales) as SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

/// `pairwise,sequential` -> two encodings; a value with `=` is one per-line setting.
fn parse_encodings(values: &[String]) -> Result<Vec<LineEncodings>> {
    let mut out = Vec::new();
    for v in values {
        let items: Vec<&str> = if v.contains('=') {
            vec![v.as_str()]
        } else {
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect()
        };
        for item in items {
            let e: LineEncodings = item
                .parse()
                .map_err(|e: String| anyhow::anyhow!("--amo: {e}"))?;
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    Ok(out)
}

fn solver_spec(name: &str) -> Result<SolverSpec> {
    if name.trim() == "varisat" {
        let exe = std::env::current_exe().context("cannot find the queens-sat executable")?;
        return Ok(SolverSpec {
            name: "varisat".into(),
            program: exe,
            args: vec!["sat".into()],
            result_file: false,
            version: Some(format!(
                "varisat 0.2, embedded in {}",
                experiment::tool_version()
            )),
        });
    }
    SolverSpec::command(name).ok_or_else(|| anyhow::anyhow!("--solver: empty solver name"))
}

pub fn run(args: CompareArgs) -> Result<ExitCode> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!("--timeout must be a positive number of seconds");
    }
    let encodings = parse_encodings(&args.amo)?;
    let solvers = args
        .solver
        .iter()
        .map(|s| solver_spec(s))
        .collect::<Result<Vec<_>>>()?;
    let cfg = SweepConfig {
        ns: args.ns.clone(),
        encodings,
        column_alo: args.column_alo,
        solvers,
        repeats: args.repeat as usize,
        timeout: Duration::from_secs_f64(args.timeout),
    };
    let mut previous = Vec::new();
    let mut csv = None;
    if let Some(path) = &args.csv {
        if args.fresh && path.exists() {
            std::fs::remove_file(path)
                .with_context(|| format!("cannot start {} afresh", path.display()))?;
        }
        previous = report::read_csv(path)?;
        csv = Some(report::CsvAppender::open(path)?);
    }
    let wanted = |r: &Row| {
        cfg.ns.contains(&r.n)
            && cfg.encodings.iter().any(|e| e.to_string() == r.encoding)
            && cfg.solvers.iter().any(|s| s.name == r.solver)
    };
    let previous: Vec<Row> = previous.into_iter().filter(|r| wanted(r)).collect();
    if !previous.is_empty() {
        eprintln!(
            "resuming: {} rows already in {}",
            previous.len(),
            args.csv
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        );
    }
    let total = (cfg.ns.len() * cfg.encodings.len() * cfg.solvers.len()) as u64;
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(total);
        b.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} [{elapsed} elapsed, ~{eta} left] {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_position(previous.len() as u64);
        b
    } else {
        ProgressBar::hidden()
    };
    let mut rows = previous.clone();
    let meta = experiment::run_sweep(
        &cfg,
        &previous,
        |step| bar.set_message(step.to_string()),
        |row| {
            if let Some(c) = csv.as_mut() {
                c.append(row)?;
            }
            bar.inc(1);
            rows.push(row.clone());
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    for m in &meta.missing_solvers {
        eprintln!("note: solver '{m}' cannot be run (not on PATH?); its rows are left out");
    }
    rows.sort_by(|a, b| (a.n, &a.encoding, &a.solver).cmp(&(b.n, &b.encoding, &b.solver)));
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", experiment::report::markdown(&rows))?;
    writeln!(
        out,
        "{}; machine: {}; solvers: {}",
        meta.tool_version,
        meta.machine,
        meta.solvers
            .iter()
            .map(|(s, v)| format!("{s} ({v})"))
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    if let Some(path) = &args.json {
        let doc = report::json(&meta, &rows)?;
        write_output(Some(path), |w| w.write_all(doc.as_bytes()))?;
    }
    if let Some(path) = &args.plot {
        let svg = experiment::plot::render_svg(&rows)?;
        write_output(Some(path), |w| w.write_all(svg.as_bytes()))?;
    }
    let wrong = rows
        .iter()
        .filter(|r| r.status.starts_with("WRONG"))
        .count();
    if wrong > 0 {
        eprintln!("{wrong} rows have a wrong answer (a model that is not a valid placement, or UNSAT where solutions exist)");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
