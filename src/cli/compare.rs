//! `queens-sat compare`: the encoding experiment: sizes and solve times per n, encoding and
//! solver, as a Markdown table, CSV, JSON and an SVG plot.

use super::output::write_output;
use super::NList;
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use queens_sat::encode::LineEncodings;
use queens_sat::experiment::{self, report, transition, Row, SolverSpec, SweepConfig};
use queens_sat::family::Family;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// The largest n compare takes (the encoder refuses far smaller boards for most encodings).
const MAX_N: usize = 1 << 16;

/// The most runs per combination.
const MAX_REPEAT: u32 = 1000;

fn parse_ns(s: &str) -> Result<NList, String> {
    super::parse_n_list_up_to(s, MAX_N, |n| {
        format!("n = {n} is too large: compare takes n from 1 to {MAX_N}")
    })
}

/// `--timeout SECONDS` ([`queens_sat::input::parse_seconds`]), with one message for every
/// value refused.
fn parse_timeout(s: &str) -> Result<f64, String> {
    queens_sat::input::parse_seconds(s).map_err(|_| {
        format!(
            "'{s}' is not a number of seconds from {} to {} (a week)",
            experiment::MIN_TIMEOUT_S,
            experiment::MAX_TIMEOUT_S
        )
    })
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Board sizes: a list `8,16,32`, a range `a..b` (ends included), or both `4..8,16`.
    #[arg(long = "n", value_parser = parse_ns, default_value = "8,16,32", value_name = "NS")]
    ns: NList,
    /// Encodings, comma-separated (pairwise,sequential,...); repeat the option for a per-line
    /// setting such as `--amo rows=sequential,diagonals=product`.
    #[arg(
        long,
        alias = "encoding",
        default_value = "pairwise,sequential,commander,product,binary"
    )]
    amo: Vec<String>,
    /// Add the redundant column at-least-one clauses (to the cell models).
    #[arg(long)]
    column_alo: bool,
    #[command(flatten)]
    models: super::ModelsArg,
    /// Symmetry breaking modes, comma-separated (none, lex-leader, rotations): each a
    /// configuration with every encoding; a row's encoding carries the mode as a suffix
    /// (`pairwise+lex-leader`).
    #[arg(long, value_delimiter = ',', default_value = "none", value_name = "MODES", value_parser = super::solve::parse_symmetry_breaking())]
    symmetry_breaking: Vec<queens_sat::symmetry::SymmetryBreaking>,
    /// Solvers, comma-separated: `varisat` or `cadical-lib` (the embedded solvers, run as
    /// `queens-sat sat --backend ...` processes) or any command on PATH that reads a DIMACS
    /// file (cadical, kissat, minisat, ...).
    #[arg(long, value_delimiter = ',', default_value = "varisat")]
    solver: Vec<String>,
    /// Runs per combination, 1 to 1000 (the median is reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=MAX_REPEAT as i64))]
    repeat: u32,
    /// Time limit of one run, in seconds (0.001 to 604800, a week).
    #[arg(long, default_value_t = 60.0, value_parser = parse_timeout)]
    timeout: f64,
    /// Append each row to this CSV file as it is finished; rerunning the same command resumes
    /// it (the rows already there must come from the same settings).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Start the CSV file afresh instead of resuming it (only a sweep's CSV is replaced).
    #[arg(long)]
    fresh: bool,
    /// Write the results and metadata as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw clauses vs n and solve time vs n (log scales) as SVG; with --family, the phase
    /// transition: fraction SAT and median solve time against the swept parameter.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Solve K shuffled copies of each formula (variables renamed, polarities flipped, clauses
    /// and literals reordered from a seed, as cnfshuffle does) instead of the formula as
    /// encoded, 1 to 1000; rows carry the copy (`shuffle` column), and models are mapped back
    /// and checked against the original formula.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=experiment::MAX_SHUFFLE as i64))]
    shuffle: Option<u32>,
    /// Draw a cactus plot as SVG: for each encoding and solver, the instances solved within a
    /// time.
    #[arg(long, value_name = "FILE.svg")]
    cactus: Option<PathBuf>,
    /// Draw a scatter plot as SVG of two configurations instance by instance (those of
    /// --scatter-of, or the two with the best scores).
    #[arg(long, value_name = "FILE.svg")]
    scatter: Option<PathBuf>,
    /// The two configurations of --scatter, as ENCODING/SOLVER,ENCODING/SOLVER (for example
    /// pairwise/cadical,sequential/cadical).
    #[arg(long, value_name = "A,B", requires = "scatter")]
    scatter_of: Option<String>,
    /// Solve instances drawn from a family instead of empty boards: completion, blocked,
    /// excluded-diagonals or toroidal (as `generate` draws them), for every n, parameter value
    /// and seed. The output is a summary per n, value, encoding and solver: SAT, UNSAT and
    /// TIMEOUT counts, the fraction SAT, the median and 90th percentile solve time.
    #[arg(long, value_name = "FAMILY")]
    family: Option<String>,
    /// A parameter of the family (with --family), repeatable: `NAME=VALUE`, a list
    /// `p=0.7,0.8`, or a range with a step `p=0.6..0.9:0.05`, `k=0..20:2` (ends included, step
    /// 1 when left out). At most one parameter takes several values, the swept one; the others
    /// stay fixed (`--param mode=random`). Parameters: completion k, mode (solution or random);
    /// blocked p or b; excluded-diagonals d, min-free; toroidal p or b (optional).
    #[arg(long = "param", value_name = "NAME=VALUES")]
    params: Vec<String>,
    /// The seeds each parameter value is drawn with (with --family): a range `1..10` (ends
    /// included), a list `1,5,9`, or both; 1..10 when left out.
    #[arg(long, value_name = "SEEDS")]
    seeds: Option<String>,
    /// Solve the instances of these instance files (docs/formats.md; `generate` writes them)
    /// instead of empty boards, repeatable; rows name each file in the `value` column.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["family", "params", "seeds"])]
    instance: Vec<PathBuf>,
    #[command(flatten)]
    diagonals: super::import::DiagonalsArg,
    /// Run only shard I of K (1-based) of the grid: every K-th (instance, encoding, solver)
    /// combination, into the CSV file of --csv (rows carry the shard); `--merge` joins the K
    /// files (docs/cluster.md). Every combination of the share runs (no skipping after a
    /// timeout at a smaller n).
    #[arg(long, value_name = "I/K", value_parser = queens_sat::input::parse_shard, requires = "csv")]
    shard: Option<queens_sat::count::Shard>,
    /// Merge the CSV files of a sharded sweep (every shard once, the same settings, no run
    /// twice) and report them as the whole sweep: the table, and --csv, --json, --plot.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["shard", "fresh", "instance", "family", "params", "seeds"])]
    merge: Vec<PathBuf>,
}

/// The number of decimals written in a number (`0.05` -> 2, `3` -> 0).
fn decimals(s: &str) -> usize {
    s.split_once('.').map_or(0, |(_, f)| {
        f.chars().take_while(char::is_ascii_digit).count()
    })
}

/// The values of `--param NAME=VALUES`: a comma list, or a range `a..b[:step]`.
fn parse_values(name: &str, text: &str) -> Result<Vec<String>> {
    let text = text.trim();
    if let Some((start, rest)) = text.split_once("..") {
        let (end, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let (start, end, step) = (start.trim(), end.trim(), step.trim());
        let number = |what: &str, v: &str| -> Result<f64> {
            match v.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => bail!("--param {name}: the range's {what} '{v}' is not a number"),
            }
        };
        let (a, b, d) = (
            number("start", start)?,
            number("end", end)?,
            number("step", step)?,
        );
        if d <= 0.0 {
            bail!("--param {name}: the step {step} must be greater than 0");
        }
        if b < a {
            bail!("--param {name}: the range {text} is empty (its end is below its start)");
        }
        let count = ((b - a) / d + 1e-9).floor() + 1.0;
        if count > experiment::MAX_POINTS as f64 {
            bail!(
                "--param {name}: the range {text} has {count} values, more than the {} a sweep may draw",
                experiment::MAX_POINTS
            );
        }
        let places = decimals(start).max(decimals(step));
        return Ok((0..count as usize)
            .map(|i| format!("{:.places$}", a + i as f64 * d))
            .collect());
    }
    let mut values: Vec<String> = Vec::new();
    for v in text.split(',').map(str::trim) {
        if v.is_empty() {
            bail!("--param {name}: an empty value in '{text}'");
        }
        if values.iter().any(|w| w == v) {
            bail!("--param {name}: the value {v} is given twice");
        }
        values.push(v.to_string());
    }
    Ok(values)
}

/// Seeds: ranges `a..b` (ends included) and single seeds, comma-separated; sorted, each once.
fn parse_seeds(text: &str) -> Result<Vec<u64>> {
    let mut seeds = Vec::new();
    for part in text.split(',').map(str::trim) {
        let seed = |v: &str| -> Result<u64> {
            v.trim().parse().map_err(|_| {
                anyhow::anyhow!(
                    "--seeds: '{v}' is not a seed (a whole number from 0 to {})",
                    u64::MAX
                )
            })
        };
        let (a, b) = match part.split_once("..") {
            Some((a, b)) => (seed(a)?, seed(b)?),
            None => {
                let s = seed(part)?;
                (s, s)
            }
        };
        if b < a {
            bail!("--seeds: the range {part} is empty (its end is below its start)");
        }
        if (b - a) as u128 + 1 + seeds.len() as u128 > experiment::MAX_POINTS {
            bail!(
                "--seeds: more than the {} seeds a sweep may draw",
                experiment::MAX_POINTS
            );
        }
        seeds.extend(a..=b);
    }
    seeds.sort_unstable();
    seeds.dedup();
    Ok(seeds)
}

/// The family sweep of `--family`, `--param` and `--seeds`, or `None` without `--family`.
fn family_sweep(args: &CompareArgs) -> Result<Option<experiment::FamilySweep>> {
    let Some(name) = &args.family else {
        if !args.params.is_empty() || args.seeds.is_some() {
            bail!("--param and --seeds describe a family sweep: give --family too");
        }
        return Ok(None);
    };
    let drawn = "completion, blocked, excluded-diagonals or toroidal";
    let family = match name.parse::<Family>() {
        Ok(Family::Custom) => {
            bail!("--family: custom instances are written, not drawn (choose {drawn})")
        }
        Ok(f) => f,
        Err(_) => bail!("--family: unknown family '{name}' (choose {drawn})"),
    };
    let mut swept: Option<(String, Vec<String>)> = None;
    let mut single: Vec<(String, String)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for p in &args.params {
        let Some((name, values)) = p.split_once('=') else {
            bail!("--param {p}: expected NAME=VALUES, e.g. p=0.6..0.9:0.05");
        };
        let name = name.trim().to_string();
        if name.is_empty() {
            bail!("--param {p}: the parameter has no name");
        }
        if names.contains(&name) {
            bail!("--param: the parameter {name} is given twice");
        }
        names.push(name.clone());
        let values = parse_values(&name, values)?;
        if values.len() == 1 {
            single.push((name, values[0].clone()));
        } else if let Some((other, _)) = &swept {
            bail!("--param: only one parameter may take several values, and {other} and {name} both do");
        } else {
            swept = Some((name, values));
        }
    }
    // With every parameter fixed, the first one given names the sweep's (single) value.
    let (parameter, values) = match swept {
        Some(s) => s,
        None if !single.is_empty() => {
            let (k, v) = single.remove(0);
            (k, vec![v])
        }
        None => (String::new(), vec![String::new()]),
    };
    let seeds = parse_seeds(args.seeds.as_deref().unwrap_or("1..10"))?;
    Ok(Some(experiment::FamilySweep {
        family,
        parameter,
        values,
        fixed: single,
        seeds,
    }))
}

/// Checks, before a sweep, that an output file can be written: its folder exists and takes
/// new files, and the path is not a folder or a device. Returns the path as it will be
/// compared with the other outputs (the folder resolved).
fn check_output(option: &str, path: &Path) -> Result<PathBuf> {
    if path.as_os_str().is_empty() {
        bail!("{option}: empty file name");
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        bail!(
            "{option}: cannot write {}: folder {} does not exist",
            path.display(),
            dir.display()
        );
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => bail!("{option}: cannot write {}: it is a folder", path.display()),
        Ok(m) if !m.is_file() => bail!(
            "{option}: cannot write {}: it is not a regular file",
            path.display()
        ),
        _ => {}
    }
    tempfile::Builder::new()
        .prefix(".queens-sat-")
        .tempfile_in(dir)
        .map_err(|e| {
            anyhow::anyhow!(
                "{option}: cannot write {}: cannot create files in {} ({})",
                path.display(),
                dir.display(),
                std::io::Error::from(e.kind())
            )
        })?;
    let name = path
        .file_name()
        .with_context(|| format!("{option}: {} names no file", path.display()))?;
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    Ok(dir.join(name))
}

/// The embedded solvers as `compare` names them: the name, the backend and its version.
const EMBEDDED: [(&str, queens_sat::solve::Backend, &str); 2] = [
    (
        "varisat",
        queens_sat::solve::Backend::Varisat,
        "varisat 0.2",
    ),
    (
        "cadical-lib",
        queens_sat::solve::Backend::Cadical,
        "CaDiCaL 1.9.5",
    ),
];

fn solver_spec(name: &str) -> Result<SolverSpec> {
    if let Some(&(name, backend, version)) = EMBEDDED.iter().find(|e| e.0 == name.trim()) {
        if !backend.is_available() {
            anyhow::bail!(
                "--solver {name}: {}",
                queens_sat::solve::SolveError::Unavailable(backend)
            );
        }
        let exe = std::env::current_exe().context("cannot find the queens-sat executable")?;
        return Ok(SolverSpec {
            name: name.into(),
            program: exe,
            // `sat` defaults to varisat: its command line stays the one of earlier sweeps.
            args: match backend {
                queens_sat::solve::Backend::Varisat => vec!["sat".into()],
                _ => vec!["sat".into(), "--backend".into(), backend.name().into()],
            },
            result_file: false,
            version: Some(format!(
                "{version}, embedded in {}",
                experiment::tool_version()
            )),
        });
    }
    SolverSpec::command(name).ok_or_else(|| anyhow::anyhow!("--solver: empty solver name"))
}

pub fn run(args: CompareArgs) -> Result<ExitCode> {
    // A malformed --scatter-of is refused before any work.
    scatter_pair(&args)?;
    if !args.merge.is_empty() {
        return merge(&args);
    }
    let encodings =
        LineEncodings::parse_list(&args.amo).map_err(|e| anyhow::anyhow!("--amo: {e}"))?;
    let solvers = args
        .solver
        .iter()
        .map(|s| solver_spec(s))
        .collect::<Result<Vec<_>>>()?;
    let family = family_sweep(&args)?;
    // Instance files: their sizes replace --n.
    let mut files = Vec::new();
    for path in &args.instance {
        let spec = super::read_instance_file_with(path, args.diagonals.diagonals)?;
        let mut name = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        if let Some(d) = args.diagonals.diagonals {
            // Rows of other prefixes of the same file stay apart.
            name = format!("{name} d={d}");
        }
        if files.iter().any(|p: &experiment::Point| p.value == name) {
            bail!("--instance: two files are named {name}; rows name files by their names");
        }
        files.push(experiment::Point {
            n: spec.n,
            spec: Some(spec),
            value: name,
        });
    }
    let ns = if files.is_empty() {
        args.ns.0.clone()
    } else {
        let mut ns: Vec<usize> = files.iter().map(|p| p.n).collect();
        ns.sort_unstable();
        ns.dedup();
        ns
    };
    let cfg = SweepConfig {
        ns,
        models: super::models(&args.models.models, &encodings, args.column_alo)?,
        column_alo: args.column_alo,
        solvers,
        repeats: args.repeat as usize,
        timeout: Duration::from_secs_f64(args.timeout),
        family,
        symmetry_breaking: {
            let mut modes = args.symmetry_breaking.clone();
            modes.dedup();
            modes
        },
        shard: args.shard,
        shuffle: args.shuffle.unwrap_or(0) as usize,
    };
    // Every instance is drawn now: a parameter out of range is refused before the sweep.
    let mut points = cfg.validate().map_err(|e| match e {
        experiment::SweepError::Recipe { .. } => anyhow::anyhow!("--param: {e}"),
        e => e.into(),
    })?;
    if !files.is_empty() {
        for (p, path) in files.iter().zip(&args.instance) {
            for &model in &cfg.models {
                p.instance(model)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            }
        }
        points = files.clone();
    }
    // Every output is checked before the sweep, not after it.
    let mut outputs: Vec<(&str, PathBuf)> = Vec::new();
    for (option, path) in [
        ("--csv", &args.csv),
        ("--json", &args.json),
        ("--plot", &args.plot),
        ("--cactus", &args.cactus),
        ("--scatter", &args.scatter),
    ] {
        let Some(path) = path else { continue };
        if option != "--csv" && path.as_os_str() == "-" {
            continue;
        }
        let resolved = check_output(option, path)?;
        if let Some((other, _)) = outputs.iter().find(|(_, p)| *p == resolved) {
            bail!("{option} and {other} name the same file {}", path.display());
        }
        outputs.push((option, resolved));
    }
    if let Some(shard) = args.shard {
        let units = points.len()
            * cfg.models.len()
            * cfg.symmetry_breaking.len().max(1)
            * cfg.shuffle.max(1)
            * cfg.solvers.len();
        if shard.of > units {
            bail!(
                "--shard {shard}: the sweep has {units} runs, fewer than the {} shards asked for",
                shard.of
            );
        }
    }
    let resume = match &args.csv {
        Some(path) => report::read_for_resume(path, args.fresh)?,
        None => report::ResumeFile::default(),
    };
    let shard_name = args.shard.map(|s| s.to_string()).unwrap_or_default();
    if let Some((line, r)) = resume.rows.iter().find(|(_, r)| r.shard != shard_name) {
        let what = |s: &str| {
            if s.is_empty() {
                "an unsharded sweep".to_string()
            } else {
                format!("shard {s}")
            }
        };
        bail!(
            "{} line {line} holds a row of {}, this run is {}; use another file",
            args.csv
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            what(&r.shard),
            what(&shard_name)
        );
    }
    let meta = cfg.metadata();
    if let Some(path) = &args.csv {
        experiment::check_resume(&meta, resume.rows.iter().map(|(line, r)| (*line, r))).map_err(
            |e| {
                anyhow::anyhow!(
                    "{} holds rows of another sweep: {e}; use --fresh or another file",
                    path.display()
                )
            },
        )?;
    }
    let mut csv = None;
    if let Some(path) = &args.csv {
        csv = Some(report::CsvAppender::open(path, resume.keep)?.legacy(resume.legacy));
        if let Some(line) = resume.torn_line {
            eprintln!(
                "note: {} line {line} is a row cut short (the sweep stopped while writing it); \
                 it is dropped and measured again",
                path.display()
            );
        }
    }
    let wanted_point = |r: &Row| match &cfg.family {
        None if !files.is_empty() => {
            r.parameter.is_empty() && files.iter().any(|p| p.value == r.value)
        }
        None => r.family.is_empty(),
        Some(f) => {
            r.family == f.family.name()
                && r.parameter == f.parameter
                && f.values.contains(&r.value)
                && r.seed.is_some_and(|s| f.seeds.contains(&s))
        }
    };
    let wanted = |r: &Row| {
        let copy_wanted = match r.shuffle {
            None => cfg.shuffle == 0,
            Some(k) => (1..=cfg.shuffle as u64).contains(&k),
        };
        copy_wanted
            && wanted_point(r)
            && cfg.ns.contains(&r.n)
            && cfg.models.iter().any(|m| {
                let modes = if cfg.symmetry_breaking.is_empty() {
                    &[queens_sat::symmetry::SymmetryBreaking::None][..]
                } else {
                    &cfg.symmetry_breaking[..]
                };
                modes
                    .iter()
                    .any(|&s| experiment::sweep_name(m, s) == r.encoding)
            })
            && cfg.solvers.iter().any(|s| s.name == r.solver)
    };
    let previous: Vec<Row> = resume
        .rows
        .into_iter()
        .map(|(_, r)| r)
        .filter(|r| wanted(r))
        .collect();
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
    let total = (points.len()
        * cfg.models.len()
        * cfg.symmetry_breaking.len().max(1)
        * cfg.shuffle.max(1)
        * cfg.solvers.len()) as u64;
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
    experiment::run_sweep(
        &cfg,
        &points,
        &meta,
        &previous,
        |step| bar.set_message(step.to_string()),
        |row| -> Result<()> {
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
    report_rows(&args, &meta, rows, cfg.family.is_some())
}

/// Prints the table of `rows` (the phase-transition summary for a family sweep), writes the
/// --json and --plot files, and returns exit 1 when a row is a failure.
fn report_rows(
    args: &CompareArgs,
    meta: &experiment::Metadata,
    mut rows: Vec<Row>,
    family: bool,
) -> Result<ExitCode> {
    rows.sort_by(|a, b| {
        (a.n, &a.encoding, &a.solver)
            .cmp(&(b.n, &b.encoding, &b.solver))
            .then_with(|| transition::compare_values(&a.value, &b.value))
            .then_with(|| a.seed.cmp(&b.seed))
    });
    let summary = family.then(|| transition::summarize(&rows));
    let mut out = std::io::stdout().lock();
    match &summary {
        Some(s) => writeln!(out, "{}", transition::markdown(s))?,
        None => writeln!(out, "{}", experiment::report::markdown(&rows))?,
    }
    let scores = experiment::scores::scores(&rows);
    // Over instances (a family, instance files) the scores sum up the sweep.
    if rows.iter().any(|r| !r.family.is_empty()) {
        writeln!(out, "{}", experiment::scores::markdown(&scores))?;
    }
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
        let doc = report::json(meta, &rows, summary.as_deref())?;
        write_output(Some(path), |w| w.write_all(doc.as_bytes()))?;
    }
    if let Some(path) = &args.plot {
        let svg = match &summary {
            Some(s) => experiment::plot::render_transition_svg(s)?,
            None => experiment::plot::render_svg(&rows)?,
        };
        write_output(Some(path), |w| w.write_all(svg.as_bytes()))?;
    }
    if let Some(path) = &args.cactus {
        let svg = experiment::plot::render_cactus_svg(&rows)?;
        write_output(Some(path), |w| w.write_all(svg.as_bytes()))?;
    }
    if let Some(path) = &args.scatter {
        let (a, b) = match scatter_pair(args)? {
            Some(pair) => pair,
            None if scores.len() >= 2 => (
                format!("{} / {}", scores[0].encoding, scores[0].solver),
                format!("{} / {}", scores[1].encoding, scores[1].solver),
            ),
            None => bail!(
                "--scatter needs two configurations (encodings or solvers); this sweep has {}",
                scores.len()
            ),
        };
        let svg = experiment::plot::render_scatter_svg(&rows, &a, &b)?;
        write_output(Some(path), |w| w.write_all(svg.as_bytes()))?;
    }
    let count = |prefix: &str| rows.iter().filter(|r| r.status.starts_with(prefix)).count();
    let (wrong, error) = (count("WRONG"), count("ERROR"));
    if wrong > 0 {
        eprintln!(
            "{wrong} rows have a wrong answer (a model that is not a valid placement or breaks \
             a clause of the formula, or UNSAT where solutions exist)"
        );
    }
    if error > 0 {
        eprintln!(
            "{error} rows have no usable answer (the solver failed, or printed no readable answer)"
        );
    }
    if rows.iter().any(|r| experiment::is_failure(&r.status)) {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The two configurations of `--scatter-of` as plot labels (`encoding / solver`), or `None`
/// when not given.
fn scatter_pair(args: &CompareArgs) -> Result<Option<(String, String)>> {
    let Some(pair) = &args.scatter_of else {
        return Ok(None);
    };
    let parts: Vec<&str> = pair.split(',').map(str::trim).collect();
    let label = |p: &str| -> Result<String> {
        match p.rsplit_once('/') {
            Some((e, s)) if !e.trim().is_empty() && !s.trim().is_empty() => {
                Ok(format!("{} / {}", e.trim(), s.trim()))
            }
            _ => bail!("--scatter-of: '{p}' is not ENCODING/SOLVER"),
        }
    };
    let [a, b] = parts[..] else {
        bail!("--scatter-of: give two configurations, A,B (ENCODING/SOLVER each)");
    };
    Ok(Some((label(a)?, label(b)?)))
}

/// `compare --merge FILE...`: the rows of a sharded sweep's CSV files, checked and joined,
/// reported as the whole sweep.
fn merge(args: &CompareArgs) -> Result<ExitCode> {
    let mut files = Vec::new();
    for path in &args.merge {
        if !path.exists() {
            bail!("--merge: {} does not exist", path.display());
        }
        let file = report::read_for_resume(path, false)?;
        if let Some(line) = file.torn_line {
            bail!(
                "--merge: {} line {line} is a row cut short: its shard did not finish (rerun it on the same file)",
                path.display()
            );
        }
        files.push((path.display().to_string(), file.rows));
    }
    let rows = experiment::merge_shards(&files)?;
    let first = &rows[0];
    let mut solvers: Vec<(String, String)> = Vec::new();
    let mut machines: Vec<String> = Vec::new();
    for r in &rows {
        if !solvers.iter().any(|(s, _)| *s == r.solver) {
            solvers.push((r.solver.clone(), r.solver_version.clone()));
        }
        if !machines.contains(&r.machine) {
            machines.push(r.machine.clone());
        }
    }
    let meta = experiment::Metadata {
        tool_version: first.tool_version.clone(),
        machine: machines.join("; "),
        solvers,
        missing_solvers: Vec::new(),
        repeats: first.repeats,
        timeout_s: first.timeout_s,
        column_alo: first.column_alo,
        family: None,
    };
    if let Some(path) = &args.csv {
        check_output("--csv", path)?;
        let mut text = report::csv_header();
        text.push('\n');
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        for r in &rows {
            w.serialize(r)?;
        }
        text.push_str(&String::from_utf8(w.into_inner()?)?);
        write_output(Some(path), |out| out.write_all(text.as_bytes()))?;
    }
    let family = rows.iter().any(|r| !r.parameter.is_empty());
    eprintln!("merged {} shard files: {} rows", files.len(), rows.len());
    report_rows(args, &meta, rows, family)
}
