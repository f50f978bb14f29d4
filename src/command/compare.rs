//! `queens-sat compare` as a library function: [`compare`] takes a [`CompareRequest`] (the
//! command's options, typed), checks it whole before any work, runs or resumes the sweep (or
//! merges the CSV files of a sharded one) and reports it: the table on `out`, notes on `log`,
//! the CSV, JSON and SVG files.

use super::Ending;
use crate::count::Shard;
use crate::encode::LineEncodings;
use crate::experiment::params::{self, ParamError};
use crate::experiment::plot::{self, PlotError};
use crate::experiment::report::{self, CsvError};
use crate::experiment::resume::{self, ResumeError};
use crate::experiment::solvers::SolverError;
use crate::experiment::{
    merge_shards, run_sweep, scores, transition, Metadata, Point, Row, ShardMergeError, SolverSpec,
    SweepConfig, SweepError,
};
use crate::input::ReadError;
use crate::instance::InstanceError;
use crate::output::{write_output, OutputError};
use crate::symmetry_breaking::SymmetryBreaking;
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A sweep as `queens-sat compare` takes it: the options, as typed, that [`compare`] checks.
#[derive(Clone, Debug)]
pub struct CompareRequest {
    /// Board sizes (with instance files, their sizes instead).
    pub ns: Vec<usize>,
    /// The at-most-one encodings: names separated by commas, or one per-line setting
    /// (`rows=sequential,diagonals=product`) per value.
    pub amo: Vec<String>,
    /// Add the redundant column at-least-one clauses to the cell models.
    pub column_alo: bool,
    /// Redundant global constraints added to every model (`--redundant`; none by default).
    pub redundant: crate::encode::redundant::RedundantSet,
    /// The models by name ([`crate::encode::catalogue::models`]).
    pub models: Vec<String>,
    /// The symmetry breaking modes, each a configuration with every encoding.
    pub symmetry_breaking: Vec<SymmetryBreaking>,
    /// The solvers by name ([`SolverSpec::named`]).
    pub solvers: Vec<String>,
    /// Options of the embedded solvers but varisat, recorded with the solver's name.
    pub solver_options: Vec<crate::solve::SolverOption>,
    /// Runs per combination (the median is reported).
    pub repeats: usize,
    /// Time limit of one run.
    pub timeout: Duration,
    /// The CSV file, appended to row by row and resumed.
    pub csv: Option<PathBuf>,
    /// Start the CSV file afresh instead of resuming it.
    pub fresh: bool,
    /// The JSON file of the results and metadata.
    pub json: Option<PathBuf>,
    /// The SVG plot of sizes and times against n (or the phase transition of a family).
    pub plot: Option<PathBuf>,
    /// The SVG cactus plot.
    pub cactus: Option<PathBuf>,
    /// The SVG scatter plot of two configurations.
    pub scatter: Option<PathBuf>,
    /// The two configurations of the scatter plot, `ENCODING/SOLVER,ENCODING/SOLVER`.
    pub scatter_of: Option<String>,
    /// Solve this many shuffled copies of each formula (0: the formula as encoded).
    pub shuffle: usize,
    /// The family to draw instances from, by name ([`params::family_sweep`]).
    pub family: Option<String>,
    /// The family's parameters, `NAME=VALUES` each.
    pub params: Vec<String>,
    /// The family's seeds (`1..10` when `None`).
    pub seeds: Option<String>,
    /// Instance files to solve instead of empty boards.
    pub instances: Vec<PathBuf>,
    /// The first D diagonals of Excluded Diagonals parameter files (`--diagonals D`).
    pub diagonals: Option<usize>,
    /// Run only this shard of the grid (into the CSV file).
    pub shard: Option<Shard>,
    /// Merge these CSV files of a sharded sweep instead of running one.
    pub merge: Vec<PathBuf>,
    /// The queens-sat program whose `sat` command runs the embedded solvers (this process's
    /// own executable when `None`).
    pub program: Option<PathBuf>,
}

/// What a sweep reports as it goes (the command line draws a progress bar). Every method does
/// nothing unless implemented.
pub trait SweepProgress {
    /// The sweep starts: `total` runs, `done` of them already in the resumed CSV file.
    fn start(&mut self, total: u64, done: u64) {
        let _ = (total, done);
    }
    /// A short description of the step starting now.
    fn step(&mut self, what: &str) {
        let _ = what;
    }
    /// One more row is finished.
    fn row(&mut self) {}
    /// The sweep is over (the report comes next).
    fn finish(&mut self) {}
}

/// No progress reported.
impl SweepProgress for () {}

/// Why a comparison could not run or report. Each says which option is at fault.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// An option's value cannot be used.
    #[error("{option}: {message}")]
    Invalid {
        /// The option.
        option: &'static str,
        /// What is wrong.
        message: String,
    },
    /// Two outputs name the same file.
    #[error("{option} and {other} name the same file {}", .path.display())]
    SameFile {
        /// The later option.
        option: &'static str,
        /// The earlier one.
        other: &'static str,
        /// The file as given.
        path: PathBuf,
    },
    /// More shards than runs.
    #[error("--shard {shard}: the sweep has {units} runs, fewer than the {} shards asked for", .shard.of)]
    TooManyShards {
        /// The shard asked for.
        shard: Shard,
        /// The runs of the sweep.
        units: usize,
    },
    /// `--scatter` without two configurations to draw.
    #[error("--scatter needs two configurations (encodings or solvers); this sweep has {0}")]
    NoScatterPair(usize),
    /// The models cannot be made.
    #[error("{0}")]
    Models(String),
    /// A solver cannot be used.
    #[error("{0}")]
    Solver(#[from] SolverError),
    /// The family sweep cannot be read.
    #[error("{0}")]
    Param(#[from] ParamError),
    /// The parameters do not make a recipe of the family.
    #[error("--param: {0}")]
    Recipe(#[source] Box<SweepError>),
    /// The sweep cannot be drawn, encoded or run.
    #[error("{0}")]
    Sweep(#[source] Box<SweepError>),
    /// An instance file cannot be read.
    #[error("{0}")]
    Read(#[from] ReadError),
    /// An instance file cannot be read or parsed.
    #[error("{0}")]
    ReadInstance(#[from] crate::family::InstanceFileError),
    /// An instance file does not make an instance of a model.
    #[error("{}: {error}", .path.display())]
    Instance {
        /// The file.
        path: PathBuf,
        /// Why.
        error: InstanceError,
    },
    /// The CSV file cannot be resumed.
    #[error("{0}")]
    Resume(#[from] ResumeError),
    /// The CSV file cannot be read or written.
    #[error("{0}")]
    Csv(#[from] CsvError),
    /// The CSV files of a sharded sweep do not merge.
    #[error("{0}")]
    Merge(#[from] ShardMergeError),
    /// The merged rows cannot be written as CSV.
    #[error("{0}")]
    CsvText(#[from] csv::Error),
    /// The JSON document cannot be made.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// A plot cannot be drawn.
    #[error("{0}")]
    Plot(#[from] PlotError),
    /// An output file cannot be written.
    #[error("{0}")]
    Output(#[from] OutputError),
    /// The table cannot be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<SweepError> for CompareError {
    fn from(e: SweepError) -> Self {
        CompareError::Sweep(Box::new(e))
    }
}

/// Runs the comparison `req` asks for (see the module documentation): every option is
/// checked before any run (the solvers, the family's parameters, every instance drawn under
/// every model, every output file), then the sweep runs, resuming its CSV file, reporting to
/// `progress`, and the results are reported: the table on `out` (with the scores over
/// instances and a line on the tool, machine and solvers), the files asked for, and on `log`
/// the notes and the number of wrong answers. Ends in [`Ending::Failure`] when a row is a
/// wrong answer or has none ([`crate::experiment::is_failure`]).
pub fn compare(
    req: &CompareRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &mut dyn SweepProgress,
) -> Result<Ending, CompareError> {
    // Its solvers run in their own process groups: an interruption must stop them.
    crate::interrupt::cleanup_needed();
    // A malformed --scatter-of is refused before any work.
    let pair = scatter_pair(req.scatter_of.as_deref())?;
    // No output replaces a file read: an instance file, a CSV file merged.
    let inputs: Vec<&Path> = req
        .instances
        .iter()
        .chain(&req.merge)
        .map(PathBuf::as_path)
        .collect();
    let outputs = [&req.csv, &req.json, &req.plot, &req.cactus, &req.scatter];
    crate::output::refuse_input_as_output(&inputs, &outputs.map(Option::as_deref))?;
    if !req.merge.is_empty() {
        return merge(req, pair, out, log);
    }
    let encodings =
        LineEncodings::parse_list(&req.amo).map_err(|message| CompareError::Invalid {
            option: "--amo",
            message,
        })?;
    let solvers = req
        .solvers
        .iter()
        .map(|s| SolverSpec::named(s, req.program.as_deref(), &req.solver_options))
        .collect::<Result<Vec<_>, _>>()?;
    let family = params::family_sweep(req.family.as_deref(), &req.params, req.seeds.as_deref())?;
    let files = instance_files(&req.instances, req.diagonals)?;
    let ns = if files.is_empty() {
        req.ns.clone()
    } else {
        let mut ns: Vec<usize> = files.iter().map(|p| p.n).collect();
        ns.sort_unstable();
        ns.dedup();
        ns
    };
    let mut modes = req.symmetry_breaking.clone();
    modes.dedup();
    let cfg = SweepConfig {
        ns,
        models: crate::encode::catalogue::models(&req.models, &encodings, req.column_alo)
            .map_err(CompareError::Models)?
            .into_iter()
            .map(|m| m.with_redundant(req.redundant))
            .collect(),
        column_alo: req.column_alo,
        solvers,
        repeats: req.repeats,
        timeout: req.timeout,
        family,
        symmetry_breaking: modes,
        shard: req.shard,
        shuffle: req.shuffle,
    };
    // A pseudo-Boolean solver reads the OPB form, which only some models have.
    if let Some(pb) = cfg.solvers.iter().find(|s| s.opb) {
        for &model in &cfg.models {
            for &mode in &cfg.symmetry_breaking {
                let inst = crate::instance::Instance::new(4, model)
                    .map_err(|e| CompareError::Models(e.to_string()))?
                    .with_symmetry_breaking(mode);
                if let Err(e) = inst.opb_constraints() {
                    return Err(CompareError::Invalid {
                        option: "--solver",
                        message: format!("{} reads the OPB form of the instance: {e}", pb.name),
                    });
                }
            }
        }
    }
    // Every instance is drawn now: a parameter out of range is refused before the sweep.
    let mut points = cfg.validate().map_err(|e| match e {
        SweepError::Recipe { .. } => CompareError::Recipe(Box::new(e)),
        e => e.into(),
    })?;
    if !files.is_empty() {
        for (p, path) in files.iter().zip(&req.instances) {
            for &model in &cfg.models {
                p.instance(model).map_err(|error| CompareError::Instance {
                    path: path.clone(),
                    error,
                })?;
            }
        }
        points = files.clone();
    }
    check_outputs(req)?;
    let total = points.len()
        * cfg.models.len()
        * cfg.symmetry_breaking.len().max(1)
        * cfg.shuffle.max(1)
        * cfg.solvers.len();
    if let Some(shard) = req.shard.filter(|s| s.of > total) {
        return Err(CompareError::TooManyShards {
            shard,
            units: total,
        });
    }
    // Every solver's version is asked now: one that cannot be run is refused before the sweep.
    let meta = cfg.metadata();
    if let Some(name) = meta.missing_solvers.first() {
        if let Some(solver) = cfg.solvers.iter().find(|s| &s.name == name) {
            return Err(crate::experiment::solvers::missing(solver).into());
        }
    }
    let shard_name = req.shard.map(|s| s.to_string()).unwrap_or_default();
    let file = match &req.csv {
        Some(path) => Some(resume::read(path, req.fresh, &shard_name)?),
        None => None,
    };
    let (mut csv, previous) = match (&req.csv, file) {
        (Some(path), Some(file)) => {
            let (csv, previous) = resume::open(path, file, &cfg, &meta, &files, log)?;
            (Some(csv), previous)
        }
        _ => (None, Vec::new()),
    };
    progress.start(total as u64, previous.len() as u64);
    let progress = RefCell::new(progress);
    let mut rows = previous.clone();
    run_sweep(
        &cfg,
        &points,
        &meta,
        &previous,
        |step| progress.borrow_mut().step(step),
        |row| -> Result<(), CompareError> {
            if let Some(c) = csv.as_mut() {
                c.append(row)?;
            }
            progress.borrow_mut().row();
            rows.push(row.clone());
            Ok(())
        },
    )?;
    progress.into_inner().finish();
    report_rows(req, pair, &meta, rows, cfg.family.is_some(), out, log)
}

/// The points of instance files: each read, named by its file name (two files of the same
/// name are refused).
fn instance_files(paths: &[PathBuf], diagonals: Option<usize>) -> Result<Vec<Point>, CompareError> {
    let mut files: Vec<Point> = Vec::new();
    for path in paths {
        let spec = crate::family::read_instance_file(path, diagonals)?;
        let mut name = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        if let Some(d) = diagonals {
            // Rows of other prefixes of the same file stay apart.
            name = format!("{name} d={d}");
        }
        if files.iter().any(|p| p.value == name) {
            return Err(CompareError::Invalid {
                option: "--instance",
                message: format!("two files are named {name}; rows name files by their names"),
            });
        }
        files.push(Point {
            n: spec.n,
            spec: Some(spec),
            value: name,
        });
    }
    Ok(files)
}

/// Checks, before a sweep, that every output file can be written ([`check_output`]) and that
/// no two name the same file.
fn check_outputs(req: &CompareRequest) -> Result<(), CompareError> {
    let mut outputs: Vec<(&'static str, PathBuf)> = Vec::new();
    for (option, path) in [
        ("--csv", &req.csv),
        ("--json", &req.json),
        ("--plot", &req.plot),
        ("--cactus", &req.cactus),
        ("--scatter", &req.scatter),
    ] {
        let Some(path) = path else { continue };
        if option != "--csv" && path.as_os_str() == "-" {
            continue;
        }
        let resolved = check_output(option, path)?;
        if let Some((other, _)) = outputs.iter().find(|(_, p)| *p == resolved) {
            return Err(CompareError::SameFile {
                option,
                other,
                path: path.clone(),
            });
        }
        outputs.push((option, resolved));
    }
    Ok(())
}

/// Checks, before a sweep, that an output file can be written: its folder exists and takes
/// new files, and the path is not a folder or a device. Returns the path as it will be
/// compared with the other outputs (the folder resolved).
fn check_output(option: &'static str, path: &Path) -> Result<PathBuf, CompareError> {
    let invalid = |message: String| CompareError::Invalid { option, message };
    let cannot = |why: String| invalid(format!("cannot write {}: {why}", path.display()));
    if path.as_os_str().is_empty() {
        return Err(invalid("empty file name".into()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(cannot(format!("folder {} does not exist", dir.display())));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return Err(cannot("it is a folder".into())),
        Ok(m) if !m.is_file() => return Err(cannot("it is not a regular file".into())),
        _ => {}
    }
    tempfile::Builder::new()
        .prefix(".queens-sat-")
        .tempfile_in(dir)
        .map_err(|e| {
            cannot(format!(
                "cannot create files in {} ({})",
                dir.display(),
                std::io::Error::from(e.kind())
            ))
        })?;
    let name = path
        .file_name()
        .ok_or_else(|| invalid(format!("{} names no file", path.display())))?;
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    Ok(dir.join(name))
}

/// The two configurations of `--scatter-of` (`A,B`, each `ENCODING/SOLVER`) as plot labels
/// (`encoding / solver`), or `None` when not given.
fn scatter_pair(pair: Option<&str>) -> Result<Option<(String, String)>, CompareError> {
    let Some(pair) = pair else {
        return Ok(None);
    };
    let invalid = |message: String| CompareError::Invalid {
        option: "--scatter-of",
        message,
    };
    let parts: Vec<&str> = pair.split(',').map(str::trim).collect();
    let label = |p: &str| match p.rsplit_once('/') {
        Some((e, s)) if !e.trim().is_empty() && !s.trim().is_empty() => {
            Ok(format!("{} / {}", e.trim(), s.trim()))
        }
        _ => Err(invalid(format!("'{p}' is not ENCODING/SOLVER"))),
    };
    let [a, b] = parts[..] else {
        return Err(invalid(
            "give two configurations, A,B (ENCODING/SOLVER each)".into(),
        ));
    };
    Ok(Some((label(a)?, label(b)?)))
}

/// Reports `rows` (sorted here): the table on `out` (the phase-transition summary for a family
/// sweep), the scores over instances and the line on the tool, machine and solvers; the JSON
/// and SVG files asked for; on `log` the number of wrong answers and of rows without one.
fn report_rows(
    req: &CompareRequest,
    pair: Option<(String, String)>,
    meta: &Metadata,
    mut rows: Vec<Row>,
    family: bool,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, CompareError> {
    rows.sort_by(|a, b| {
        (a.n, &a.encoding, &a.solver)
            .cmp(&(b.n, &b.encoding, &b.solver))
            .then_with(|| transition::compare_values(&a.value, &b.value))
            .then_with(|| a.seed.cmp(&b.seed))
    });
    let summary = family.then(|| transition::summarize(&rows));
    match &summary {
        Some(s) => writeln!(out, "{}", transition::markdown(s))?,
        None => writeln!(out, "{}", report::markdown(&rows))?,
    }
    let scores = scores::scores(&rows);
    // Over instances (a family, instance files) the scores sum up the sweep.
    if rows.iter().any(|r| !r.family.is_empty()) {
        writeln!(out, "{}", scores::markdown(&scores))?;
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
    let write_file =
        |path: &Path, text: &str| write_output(Some(path), |w| w.write_all(text.as_bytes()));
    if let Some(path) = &req.json {
        write_file(path, &report::json(meta, &rows, summary.as_deref())?)?;
    }
    if let Some(path) = &req.plot {
        let svg = match &summary {
            Some(s) => plot::render_transition_svg(s)?,
            None => plot::render_svg(&rows)?,
        };
        write_file(path, &svg)?;
    }
    if let Some(path) = &req.cactus {
        write_file(path, &plot::render_cactus_svg(&rows)?)?;
    }
    if let Some(path) = &req.scatter {
        let (a, b) = match pair {
            Some(pair) => pair,
            None if scores.len() >= 2 => (
                format!("{} / {}", scores[0].encoding, scores[0].solver),
                format!("{} / {}", scores[1].encoding, scores[1].solver),
            ),
            None => return Err(CompareError::NoScatterPair(scores.len())),
        };
        write_file(path, &plot::render_scatter_svg(&rows, &a, &b)?)?;
    }
    let count = |prefix: &str| rows.iter().filter(|r| r.status.starts_with(prefix)).count();
    let (wrong, error) = (count("WRONG"), count("ERROR"));
    if wrong > 0 {
        let _ = writeln!(
            log,
            "{wrong} rows have a wrong answer (a model that is not a valid placement or breaks \
             a clause of the formula, or UNSAT where solutions exist)"
        );
    }
    if error > 0 {
        let _ = writeln!(
            log,
            "{error} rows have no usable answer (the solver failed, or printed no readable answer)"
        );
    }
    Ok(
        if rows
            .iter()
            .any(|r| crate::experiment::is_failure(&r.status))
        {
            Ending::Failure
        } else {
            Ending::Success
        },
    )
}

/// `compare --merge FILE...`: the rows of a sharded sweep's CSV files, checked and joined
/// ([`merge_shards`]), written to the CSV file if asked, and reported as the whole sweep.
fn merge(
    req: &CompareRequest,
    pair: Option<(String, String)>,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, CompareError> {
    let invalid = |message: String| CompareError::Invalid {
        option: "--merge",
        message,
    };
    let mut files = Vec::new();
    for path in &req.merge {
        if !path.exists() {
            return Err(invalid(format!("{} does not exist", path.display())));
        }
        let file = report::read_for_resume(path, false)?;
        if let Some(line) = file.torn_line {
            return Err(invalid(format!(
                "{} line {line} is a row cut short: its shard did not finish (rerun it on the same file)",
                path.display()
            )));
        }
        files.push((path.display().to_string(), file.rows));
    }
    let rows = merge_shards(&files)?;
    let meta = crate::experiment::merge::metadata(&rows);
    if let Some(path) = &req.csv {
        check_output("--csv", path)?;
        let text = report::csv_text(&rows)?;
        write_output(Some(path), |w| w.write_all(text.as_bytes()))?;
    }
    let family = rows.iter().any(|r| !r.parameter.is_empty());
    let _ = writeln!(
        log,
        "merged {} shard files: {} rows",
        files.len(),
        rows.len()
    );
    report_rows(req, pair, &meta, rows, family, out, log)
}
