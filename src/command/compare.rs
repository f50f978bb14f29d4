//! `queens-sat compare` as a library function: [`compare`] takes a [`CompareRequest`] (what
//! the comparison does, typed: run the grid of a sweep, one shard of it, or merge the CSV files
//! of a sharded one; and the reports it writes), checks it whole before any work, runs or
//! resumes the sweep (or merges the CSV files) and reports it: the table on `out`, notes on
//! `log`, the CSV, JSON and SVG files.

use super::Ending;
use crate::count::Shard;
use crate::encode::LineEncodings;
use crate::experiment::certificate;
use crate::experiment::expected::{self, Expected, ExpectedError};
use crate::experiment::formula::{run_formulas, FormulaError, FormulaFile, FormulaKind};
use crate::experiment::params::{self, ParamError};
use crate::experiment::plot::{self, PlotError};
use crate::experiment::report::{self, CsvError};
use crate::experiment::resume::{self, ResumeError};
use crate::experiment::sample::{self, Sample, SampleError};
use crate::experiment::solvers::SolverError;
use crate::experiment::sources::{self, InstanceSource, SourceError};
use crate::experiment::{
    merge_files, run_sweep, scores, transition, values, Metadata, Point, Row, ShardMergeError,
    SolverSpec, SweepConfig, SweepError,
};
use crate::output::{write_output, OutputError};
use crate::symmetry_breaking::SymmetryBreaking;
use std::cell::RefCell;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A comparison: what it does ([`Mode`]) and the reports it writes besides the table.
#[derive(Clone, Debug)]
pub struct CompareRequest {
    /// Run the grid of a sweep, one shard of it, or merge the CSV files of a sharded one.
    pub mode: Mode,
    /// The JSON document and the plots.
    pub reports: Reports,
}

/// What a comparison does.
#[derive(Clone, Debug)]
pub enum Mode {
    /// Run the whole grid, its rows appended to the CSV file when there is one (and resumed
    /// from it).
    Run {
        /// The sweep.
        grid: Grid,
        /// The CSV file of its rows.
        csv: Option<CsvFile>,
    },
    /// Run one shard of the grid (every K-th run) into its CSV file, whose rows carry the
    /// shard; [`Mode::Merge`] joins the K files.
    Shard {
        /// The sweep.
        grid: Grid,
        /// The shard, I of K.
        shard: Shard,
        /// The CSV file of the shard's rows.
        csv: CsvFile,
    },
    /// Report finished sweeps from their CSV files as one sweep: each file a whole sweep or
    /// shards of one, every shard once, the same settings ([`merge_files`]).
    Merge {
        /// The CSV files of the sweeps and shards.
        files: Vec<PathBuf>,
        /// The CSV file of the merged rows (replaced).
        csv: Option<PathBuf>,
        /// Report only the instances every configuration ran
        /// ([`scores::on_common_instances`]).
        common: bool,
    },
}

/// The CSV file of a sweep's rows, appended to row by row.
#[derive(Clone, Debug)]
pub struct CsvFile {
    /// The file.
    pub path: PathBuf,
    /// Start it afresh instead of resuming it (only a sweep's CSV is replaced).
    pub fresh: bool,
}

/// A sweep's grid: every instance under every model, symmetry breaking mode and solver.
#[derive(Clone, Debug)]
pub struct Grid {
    /// The instances solved.
    pub instances: Instances,
    /// The models by name ([`crate::encode::catalogue::models`]).
    pub models: Vec<String>,
    /// The at-most-one encodings: names separated by commas, or one per-line setting
    /// (`rows=sequential,diagonals=product`) per value.
    pub amo: Vec<String>,
    /// Add the redundant column at-least-one clauses to the cell models.
    pub column_alo: bool,
    /// Redundant global constraints added to every model (none by default).
    pub redundant: crate::encode::redundant::RedundantSet,
    /// The symmetry breaking modes, each a configuration with every encoding.
    pub symmetry_breaking: Vec<SymmetryBreaking>,
    /// The solvers and how they run.
    pub solvers: Solvers,
    /// How each combination is run.
    pub runs: Runs,
    /// A file of expected answers: a row that answers the other way is `WRONG: expected SAT`
    /// or `WRONG: expected UNSAT`.
    pub expected: Option<ExpectedFile>,
}

/// The instances of a sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instances {
    /// The empty boards of these sizes.
    Boards(Vec<usize>),
    /// Instances drawn from a family, for every size, parameter value and seed.
    Family {
        /// Board sizes.
        ns: Vec<usize>,
        /// The family, its parameters and seeds.
        sweep: FamilyRequest,
    },
    /// The instances of instance files (their sizes are the sweep's), and formula files
    /// (DIMACS, OPB: [`crate::experiment::formula`]) solved as they are.
    Files {
        /// Where the files are: files, folders, lists ([`sources::expand`]); each file is an
        /// instance file ([`crate::family::read_instance_file`]) or a formula file
        /// ([`FormulaKind::of`]).
        sources: Vec<InstanceSource>,
        /// The first D diagonals of Excluded Diagonals parameter files: one instance per
        /// file and D (empty: the files as they are, every diagonal).
        diagonals: Vec<usize>,
        /// Solve only a seeded sample of these instances ([`sample::draw`]), in its order;
        /// all of them, in the order given, when `None`.
        sample: Option<Sample>,
    },
}

/// A file of expected answers ([`Expected::read`]) and the columns of its CSV form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedFile {
    /// The file.
    pub path: PathBuf,
    /// The columns of the instance, D and the answer (the usual names when left out).
    pub columns: expected::Columns,
}

/// A family sweep as written: read by [`params::family_sweep`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyRequest {
    /// The family, by name.
    pub family: String,
    /// Its parameters, `NAME=VALUES` each ([`params::parse_values`]).
    pub params: Vec<String>,
    /// Its seeds ([`params::parse_seeds`]; `1..10` when `None`).
    pub seeds: Option<String>,
}

/// The solvers of a sweep.
#[derive(Clone, Debug, Default)]
pub struct Solvers {
    /// The solvers by name ([`SolverSpec::named`]).
    pub names: Vec<String>,
    /// Options of the embedded solvers but varisat, recorded with the solver's name.
    pub options: Vec<crate::solve::SolverOption>,
    /// The queens-sat program whose `sat` command runs the embedded solvers (this process's
    /// own executable when `None`).
    pub program: Option<PathBuf>,
}

/// How each combination of a sweep is run.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// Runs per combination (the median is reported).
    pub repeats: usize,
    /// Time limit of one run (wall clock).
    pub timeout: Duration,
    /// CPU time limit of one run: the solver and every process it starts.
    pub cpu_limit: Option<Duration>,
    /// Memory limit of one run, in bytes: the solver and its processes together.
    pub memory_limit: Option<u64>,
    /// Solve this many shuffled copies of each formula (0: the formula as encoded).
    pub shuffle: usize,
    /// Certify every refutation: the stage that refutes writes its certificate, which VeriPB
    /// checks ([`SweepConfig::certify`]).
    pub certify: bool,
}

/// The reports written besides the table: files, each replaced (`-` for standard output);
/// and the one table to print instead of the whole report, if one.
#[derive(Clone, Debug, Default)]
pub struct Reports {
    /// Print only this table (its Markdown lines, no caption) instead of the whole report.
    pub table: Option<Table>,
    /// The JSON document of the results and metadata.
    pub json: Option<PathBuf>,
    /// The SVG plot of sizes and times against n (or the phase transition of a family).
    pub plot: Option<PathBuf>,
    /// The SVG cactus plot.
    pub cactus: Option<PathBuf>,
    /// The SVG scatter plot of two configurations.
    pub scatter: Option<Scatter>,
}

/// One table of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// A line per run ([`report::markdown`]), or for a family sweep per (n, value, encoding,
    /// solver) ([`transition::table`]).
    Runs,
    /// A family sweep per value over every configuration ([`values::table`]).
    Values,
    /// The scores per configuration over instances ([`scores::table`]).
    Scores,
    /// The runs side by side, a line per instance and a column per configuration
    /// ([`values::instances_table`]).
    Instances,
    /// The certificates of the refutations per configuration (`--certify`,
    /// [`crate::experiment::certificate::table`]).
    Certificates,
}

impl Table {
    /// Every table, as named on the command line.
    pub const ALL: [(&'static str, Table); 5] = [
        ("runs", Table::Runs),
        ("values", Table::Values),
        ("scores", Table::Scores),
        ("instances", Table::Instances),
        ("certificates", Table::Certificates),
    ];

    /// The table's name.
    pub fn name(self) -> &'static str {
        Table::ALL
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("", |(n, _)| n)
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Table {
    type Err = String;

    /// `runs`, `values`, `scores` or `instances`.
    fn from_str(s: &str) -> Result<Table, String> {
        Table::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, t)| *t)
            .ok_or_else(|| format!("'{s}' is not a table: runs, values, scores or instances"))
    }
}

/// The scatter plot of two configurations, instance by instance.
#[derive(Clone, Debug)]
pub struct Scatter {
    /// The SVG file.
    pub path: PathBuf,
    /// The two configurations; the two with the best scores when `None`.
    pub pair: Option<[Configuration; 2]>,
}

/// A configuration of a sweep: an encoding (as rows name it) and a solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Configuration {
    /// The encoding.
    pub encoding: String,
    /// The solver.
    pub solver: String,
}

impl fmt::Display for Configuration {
    /// As plots label it: `encoding / solver`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {}", self.encoding, self.solver)
    }
}

/// Why a pair of configurations cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    /// Not two of them.
    #[error("give two configurations, A,B (ENCODING/SOLVER each)")]
    Count,
    /// One is not `ENCODING/SOLVER`.
    #[error("'{0}' is not ENCODING/SOLVER")]
    Configuration(String),
}

/// Reads two configurations, `A,B`, each `ENCODING/SOLVER`.
pub fn parse_pair(text: &str) -> Result<[Configuration; 2], PairError> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let one = |p: &str| match p.rsplit_once('/') {
        Some((e, s)) if !e.trim().is_empty() && !s.trim().is_empty() => Ok(Configuration {
            encoding: e.trim().to_string(),
            solver: s.trim().to_string(),
        }),
        _ => Err(PairError::Configuration(p.to_string())),
    };
    let [a, b] = parts[..] else {
        return Err(PairError::Count);
    };
    Ok([one(a)?, one(b)?])
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
    /// One more row is finished: `row`.
    fn row(&mut self, row: &Row) {
        let _ = row;
    }
    /// The sweep is over (the report comes next).
    fn finish(&mut self) {}
}

/// No progress reported.
impl SweepProgress for () {}

/// A file a comparison writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// The CSV file of the rows.
    Csv,
    /// The JSON document.
    Json,
    /// The plot against n (or the phase transition).
    Plot,
    /// The cactus plot.
    Cactus,
    /// The scatter plot.
    Scatter,
}

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Output::Csv => "the CSV file",
            Output::Json => "the JSON file",
            Output::Plot => "the plot",
            Output::Cactus => "the cactus plot",
            Output::Scatter => "the scatter plot",
        })
    }
}

/// Why an output file cannot be written (found before the sweep).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unwritable {
    /// An empty file name.
    #[error("empty file name")]
    Empty,
    /// The path ends in no file name (`..`).
    #[error("{} names no file", .0.display())]
    NoName(PathBuf),
    /// The file cannot be created or replaced.
    #[error("cannot write {}: {why}", .path.display())]
    Cannot {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
}

/// Why a comparison could not run or report. The messages speak of the library's terms (the
/// command line names its options instead).
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// The at-most-one encodings cannot be read.
    #[error("at-most-one encodings: {0}")]
    Encodings(String),
    /// A pseudo-Boolean solver with a model that has no OPB form.
    #[error("{solver} reads the OPB form of the instance: {error}")]
    NoOpbForm {
        /// The solver.
        solver: String,
        /// Why the model has no OPB form.
        error: crate::instance::OpbError,
    },
    /// Two instance files of the same name (rows name files by their names).
    #[error("two instance files are named {0}; rows name files by their names")]
    SameFileName(String),
    /// A folder or list of instances cannot be read.
    #[error(transparent)]
    Sources(#[from] SourceError),
    /// A formula file cannot be read.
    #[error(transparent)]
    Formula(#[from] FormulaError),
    /// A formula file in a sweep with an engine that solves boards, or a chain of solvers.
    #[error("{solver} solves boards, and {} is a formula file (DIMACS or OPB); search, propagator and chains of solvers take board instances only", .file.display())]
    FormulaEngine {
        /// The engine.
        solver: String,
        /// The formula file.
        file: PathBuf,
    },
    /// A formula file that no solver of the sweep reads.
    #[error("no solver of the sweep reads {}, {}", .file.display(), match .kind { FormulaKind::Dimacs => "a DIMACS file (the pseudo-Boolean solvers read OPB only; give a SAT solver)", FormulaKind::Opb => "an OPB file (give a pseudo-Boolean solver: minisat+, sat4j-pb, exact, cp-sat or lp)" })]
    Unread {
        /// The formula file.
        file: PathBuf,
        /// Its format.
        kind: FormulaKind,
    },
    /// A formula file with the first D diagonals.
    #[error("{} is a formula file: the first D diagonals are taken of Excluded Diagonals parameter files only", .0.display())]
    FormulaDiagonals(PathBuf),
    /// `--certify` with a solver that writes no certificates.
    #[error("{0} writes no certificate of its refutations: --certify takes search, propagator, exact and chains of them")]
    Uncertified(String),
    /// `--certify` on formula files (certificates refer to a board's OPB form).
    #[error("certificates are made of the refutations of boards, not of formula files")]
    CertifyFormulas,
    /// A formula file with shuffled copies.
    #[error("{} is a formula file: shuffled copies are made of the formulas of boards only", .0.display())]
    FormulaShuffle(PathBuf),
    /// An output file cannot be written.
    #[error("{output}: {problem}")]
    Unwritable {
        /// The output.
        output: Output,
        /// Why.
        problem: Unwritable,
    },
    /// Two outputs name the same file.
    #[error("{output} and {other} are the same file {}", .path.display())]
    SameFile {
        /// The later output.
        output: Output,
        /// The earlier one.
        other: Output,
        /// The file as given.
        path: PathBuf,
    },
    /// More shards than runs.
    #[error("shard {shard}: the sweep has {units} runs, fewer than the {} shards asked for", .shard.of)]
    TooManyShards {
        /// The shard asked for.
        shard: Shard,
        /// The runs of the sweep.
        units: usize,
    },
    /// A table the sweep does not have: values without a family, scores without instances.
    #[error("the sweep has no table of {table}: {why}")]
    NoTable {
        /// The table asked for.
        table: Table,
        /// Why there is none.
        why: &'static str,
    },
    /// No instance was run by every configuration (a report on the common instances).
    #[error("no instance was run by every configuration: {configurations} configurations, none on the same instances")]
    NoCommonInstances {
        /// The configurations of the rows.
        configurations: usize,
    },
    /// A scatter plot without two configurations to draw.
    #[error(
        "the scatter plot needs two configurations (encodings or solvers); this sweep has {0}"
    )]
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
    /// The sweep cannot be drawn, encoded or run (or the parameters do not make a recipe of
    /// the family: [`SweepError::Recipe`]).
    #[error("{0}")]
    Sweep(#[source] Box<SweepError>),
    /// The file of expected answers cannot be read.
    #[error("{0}")]
    Expected(#[from] ExpectedError),
    /// The sample of the instances cannot be drawn.
    #[error("{0}")]
    Sample(#[from] SampleError),
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
    /// An instance file cannot be read, or an output file or the table written.
    #[error(transparent)]
    Failure(#[from] super::Failure),
}

failures_into!(CompareError: crate::family::InstanceFileError, OutputError, std::io::Error);

impl From<SweepError> for CompareError {
    fn from(e: SweepError) -> Self {
        CompareError::Sweep(Box::new(e))
    }
}

/// The files a comparison writes, as `reports` and the CSV file name them.
fn outputs<'a>(csv: Option<&'a Path>, reports: &'a Reports) -> [(Output, Option<&'a Path>); 5] {
    [
        (Output::Csv, csv),
        (Output::Json, reports.json.as_deref()),
        (Output::Plot, reports.plot.as_deref()),
        (Output::Cactus, reports.cactus.as_deref()),
        (
            Output::Scatter,
            reports.scatter.as_ref().map(|s| s.path.as_path()),
        ),
    ]
}

/// Runs the comparison `req` asks for (see the module documentation): every part of it is
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
    let (grid, shard, csv) = match &req.mode {
        Mode::Merge { files, csv, common } => {
            return merge(files, csv.as_deref(), *common, &req.reports, out, log)
        }
        Mode::Run { grid, csv } => (grid, None, csv.as_ref()),
        Mode::Shard { grid, shard, csv } => (grid, Some(*shard), Some(csv)),
    };
    check_table(
        req.reports.table,
        matches!(grid.instances, Instances::Family { .. }),
        !matches!(grid.instances, Instances::Boards(_)),
        grid.runs.certify,
    )?;
    let csv_path = csv.map(|c| c.path.as_path());
    let encodings = LineEncodings::parse_list(&grid.amo).map_err(CompareError::Encodings)?;
    let solvers = grid
        .solvers
        .names
        .iter()
        .map(|s| SolverSpec::named(s, grid.solvers.program.as_deref(), &grid.solvers.options))
        .collect::<Result<Vec<_>, _>>()?;
    let (ns, family, files, formulas) = match &grid.instances {
        Instances::Boards(ns) => (ns.clone(), None, Vec::new(), Vec::new()),
        Instances::Family { ns, sweep } => (
            ns.clone(),
            Some(params::family_sweep(
                &sweep.family,
                &sweep.params,
                sweep.seeds.as_deref(),
            )?),
            Vec::new(),
            Vec::new(),
        ),
        Instances::Files {
            sources,
            diagonals,
            sample,
        } => {
            let mut set = instance_files(sources, diagonals, log)?;
            // No output replaces an instance file (of the whole set, the sample's or not), a
            // list of them or the expected answers.
            let lists = sources.iter().filter_map(|s| match s {
                InstanceSource::List(list) => Some(list.as_path()),
                InstanceSource::Path(_) => None,
            });
            let inputs: Vec<&Path> = set
                .files
                .iter()
                .map(|(_, path)| path.as_path())
                .chain(set.formulas.iter().map(|f| f.path.as_path()))
                .chain(lists)
                .chain(grid.expected.iter().map(|e| e.path.as_path()))
                .collect();
            crate::output::refuse_input_as_output(
                &inputs,
                &outputs(csv_path, &req.reports).map(|o| o.1),
            )?;
            if let Some(sample) = sample {
                let all = set.len();
                set = set.sample(*sample)?;
                let _ = writeln!(
                    log,
                    "sample: {} of {all} instances (seed {})",
                    sample.size, sample.seed
                );
            }
            let InstanceSet { files, formulas } = set;
            check_formulas(&formulas, &solvers, grid.runs.shuffle)?;
            let mut ns: Vec<usize> = files.iter().map(|(p, _)| p.n).collect();
            ns.sort_unstable();
            ns.dedup();
            (ns, None, files, formulas)
        }
    };
    // No output replaces the expected answers.
    if let Some(e) = &grid.expected {
        crate::output::refuse_input_as_output(
            &[e.path.as_path()],
            &outputs(csv_path, &req.reports).map(|o| o.1),
        )?;
    }
    let mut modes = grid.symmetry_breaking.clone();
    modes.dedup();
    let cfg = SweepConfig {
        ns,
        models: crate::encode::catalogue::models(&grid.models, &encodings, grid.column_alo)
            .map_err(CompareError::Models)?
            .into_iter()
            .map(|m| m.with_redundant(grid.redundant))
            .collect(),
        column_alo: grid.column_alo,
        solvers,
        repeats: grid.runs.repeats,
        timeout: grid.runs.timeout,
        cpu_limit: grid.runs.cpu_limit,
        memory_limit: grid.runs.memory_limit,
        family,
        symmetry_breaking: modes,
        shard,
        shuffle: grid.runs.shuffle,
        certify: grid.runs.certify,
    };
    // A pseudo-Boolean solver reads the OPB form, which only some models have (a sweep of
    // formula files alone encodes no board).
    let boards = !matches!(grid.instances, Instances::Files { .. }) || !files.is_empty();
    if let Some(pb) = cfg.solvers.iter().find(|s| s.opb).filter(|_| boards) {
        for &model in &cfg.models {
            for &mode in &cfg.symmetry_breaking {
                let inst = crate::instance::Instance::new(4, model)
                    .map_err(|e| CompareError::Models(e.to_string()))?
                    .with_symmetry_breaking(mode);
                if let Err(error) = inst.opb_constraints() {
                    return Err(CompareError::NoOpbForm {
                        solver: pb.name.clone(),
                        error,
                    });
                }
            }
        }
    }
    if cfg.certify {
        if let Some(s) = cfg.solvers.iter().find(|s| !s.certifies()) {
            return Err(CompareError::Uncertified(s.name.clone()));
        }
        if !formulas.is_empty() {
            return Err(CompareError::CertifyFormulas);
        }
    }
    // Every instance is drawn now: a parameter out of range is refused before the sweep.
    let mut points = cfg.validate()?;
    if let Instances::Files { .. } = &grid.instances {
        for (p, path) in &files {
            for &model in &cfg.models {
                p.instance(model)
                    .map_err(|error| crate::family::InstanceFileError::Model {
                        path: path.clone(),
                        error,
                    })?;
            }
        }
        points = files.iter().map(|(p, _)| p.clone()).collect();
    }
    let expected = grid
        .expected
        .as_ref()
        .map(|e| Expected::read(&e.path, &e.columns))
        .transpose()?;
    // Rows name instance and formula files by these names.
    let names: Vec<String> = files
        .iter()
        .map(|(p, _)| p.value.clone())
        .chain(formulas.iter().map(|f| f.name.clone()))
        .collect();
    check_outputs(csv_path, &req.reports)?;
    let board_units = points.len()
        * cfg.models.len()
        * cfg.symmetry_breaking.len().max(1)
        * cfg.shuffle.max(1)
        * cfg.solvers.len();
    let units = board_units + formulas.len() * cfg.solvers.len();
    if let Some(shard) = shard.filter(|s| s.of > units) {
        return Err(CompareError::TooManyShards { shard, units });
    }
    // The runs of formula files: each file with the solvers that read its format.
    let total = board_units
        + formulas
            .iter()
            .map(|f| cfg.solvers.iter().filter(|s| f.kind.read_by(s)).count())
            .sum::<usize>();
    // Every solver's version is asked now: one that cannot be run is refused before the sweep.
    let meta = cfg.metadata();
    if let Some(name) = meta.missing_solvers.first() {
        if let Some(solver) = cfg.solvers.iter().find(|s| &s.name == name) {
            return Err(crate::experiment::solvers::missing(solver).into());
        }
    }
    let shard_name = shard.map(|s| s.to_string()).unwrap_or_default();
    let (mut csv, previous) = match csv {
        Some(c) => {
            let file = resume::read(&c.path, c.fresh, &shard_name)?;
            let (csv, previous) = resume::open(&c.path, file, &cfg, &meta, &names, log)?;
            (Some(csv), previous)
        }
        None => (None, Vec::new()),
    };
    progress.start(total as u64, previous.len() as u64);
    let progress = RefCell::new(progress);
    // Rows are checked against the expected answers as they come (resumed ones too).
    let checked = RefCell::new((0usize, 0usize));
    let judge = |row: &mut Row| {
        if let Some(agrees) = expected.as_ref().and_then(|e| e.judge(row)) {
            let mut c = checked.borrow_mut();
            c.0 += 1;
            c.1 += usize::from(!agrees);
        }
    };
    let mut rows = previous.clone();
    rows.iter_mut().for_each(&judge);
    let mut on_step = |step: &str| progress.borrow_mut().step(step);
    let mut on_row = |row: &Row| -> Result<(), CompareError> {
        let mut row = row.clone();
        judge(&mut row);
        if let Some(c) = csv.as_mut() {
            c.append(&row)?;
        }
        progress.borrow_mut().row(&row);
        rows.push(row);
        Ok(())
    };
    run_sweep(&cfg, &points, &meta, &previous, &mut on_step, &mut on_row)?;
    run_formulas(
        &cfg,
        &formulas,
        board_units,
        &meta,
        &previous,
        &mut on_step,
        &mut on_row,
    )?;
    progress.into_inner().finish();
    let mut matched_none = false;
    if let Some(e) = &expected {
        let (checked, wrong) = checked.into_inner();
        let _ = writeln!(
            log,
            "expected answers: {} instances; {checked} rows checked, {wrong} answered otherwise",
            e.len()
        );
        let answered = rows
            .iter()
            .filter(|r| r.status == "SAT" || r.status == "UNSAT")
            .count();
        if checked == 0 && answered > 0 {
            matched_none = true;
            let _ = writeln!(
                log,
                "EXPECTED ANSWERS MATCHED NO ROW: none of the {answered} answered rows has an instance in the file of expected answers (see --expected-columns), so nothing was checked"
            );
        }
    }
    let ending = report_rows(&req.reports, &meta, rows, cfg.family.is_some(), out, log)?;
    Ok(if matched_none {
        Ending::Failure
    } else {
        ending
    })
}

/// The points of the instance files of `sources` ([`sources::expand`]; what a folder skipped
/// is noted on `log`), each with its file: each read (once per D of `diagonals`, its first D
/// diagonals, or once as it is when `diagonals` is empty), named by its file name, with ` d=D`
/// for D diagonals; and the formula files among them, read whole. Two files of the same name
/// are refused.
fn instance_files(
    sources: &[InstanceSource],
    diagonals: &[usize],
    log: &mut dyn Write,
) -> Result<InstanceSet, CompareError> {
    let (paths, folders) = sources::expand(sources)?;
    for folder in folders.iter().filter(|f| f.skipped > 0) {
        let _ = writeln!(
            log,
            "note: {}: {} instance files taken, {} other entries skipped (hidden, folders, other extensions)",
            folder.path.display(),
            folder.files.len(),
            folder.skipped
        );
    }
    let each: Vec<Option<usize>> = if diagonals.is_empty() {
        vec![None]
    } else {
        diagonals.iter().copied().map(Some).collect()
    };
    let mut files: Vec<(Point, PathBuf)> = Vec::new();
    let mut formulas: Vec<FormulaFile> = Vec::new();
    for path in paths {
        let Some(kind) = FormulaKind::of(&path) else {
            for &diagonals in &each {
                let point = instance_file(&path, diagonals, &files)?;
                if formulas.iter().any(|f| f.name == point.value) {
                    return Err(CompareError::SameFileName(point.value));
                }
                files.push((point, path.clone()));
            }
            continue;
        };
        if !diagonals.is_empty() {
            return Err(CompareError::FormulaDiagonals(path));
        }
        let name = file_name(&path);
        if files.iter().any(|(p, _)| p.value == name) || formulas.iter().any(|f| f.name == name) {
            return Err(CompareError::SameFileName(name));
        }
        formulas.push(FormulaFile::read(&path, name, kind)?);
    }
    Ok(InstanceSet { files, formulas })
}

/// The files of a sweep's instance set ([`instance_files`]).
struct InstanceSet {
    /// The points of the instance files (of boards), each with its file.
    files: Vec<(Point, PathBuf)>,
    /// The formula files.
    formulas: Vec<FormulaFile>,
}

impl InstanceSet {
    /// The instances: the boards' points and the formula files.
    fn len(&self) -> usize {
        self.files.len() + self.formulas.len()
    }

    /// The seeded sample of the instances ([`sample::draw`], by the names rows give them),
    /// each kind in the sample's order.
    fn sample(self, sample: Sample) -> Result<InstanceSet, SampleError> {
        let names: Vec<String> = self
            .files
            .iter()
            .map(|(p, _)| p.value.clone())
            .chain(self.formulas.iter().map(|f| f.name.clone()))
            .collect();
        let picked = sample::draw(&names, sample)?;
        let boards = self.files.len();
        let mut files: Vec<Option<(Point, PathBuf)>> = self.files.into_iter().map(Some).collect();
        let mut formulas: Vec<Option<FormulaFile>> = self.formulas.into_iter().map(Some).collect();
        let mut set = InstanceSet {
            files: Vec::new(),
            formulas: Vec::new(),
        };
        for i in picked {
            if i < boards {
                set.files.extend(files[i].take());
            } else {
                set.formulas.extend(formulas[i - boards].take());
            }
        }
        Ok(set)
    }
}

/// The name rows give a file: its file name.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Checks, before a sweep, that its formula files can be run as asked: no engine that solves
/// boards, no shuffled copies, and a solver that reads each file's format.
fn check_formulas(
    formulas: &[FormulaFile],
    solvers: &[SolverSpec],
    shuffle: usize,
) -> Result<(), CompareError> {
    let Some(first) = formulas.first() else {
        return Ok(());
    };
    if let Some(engine) = solvers.iter().find(|s| s.solves_boards()) {
        return Err(CompareError::FormulaEngine {
            solver: engine.name.clone(),
            file: first.path.clone(),
        });
    }
    if shuffle > 0 {
        return Err(CompareError::FormulaShuffle(first.path.clone()));
    }
    match formulas
        .iter()
        .find(|f| !solvers.iter().any(|s| f.kind.read_by(s)))
    {
        Some(f) => Err(CompareError::Unread {
            file: f.path.clone(),
            kind: f.kind,
        }),
        None => Ok(()),
    }
}

/// The point of one instance file with its first `diagonals` diagonals, named by its file
/// name (one of `earlier` of the same name is refused).
fn instance_file(
    path: &Path,
    diagonals: Option<usize>,
    earlier: &[(Point, PathBuf)],
) -> Result<Point, CompareError> {
    let spec = crate::family::read_instance_file(path, diagonals)?;
    let mut name = file_name(path);
    if let Some(d) = diagonals {
        // Rows of other prefixes of the same file stay apart.
        name = format!("{name} d={d}");
    }
    if earlier.iter().any(|(p, _)| p.value == name) {
        return Err(CompareError::SameFileName(name));
    }
    Ok(Point {
        n: spec.n,
        spec: Some(spec),
        value: name,
    })
}

/// Checks, before a sweep, that every output file can be written ([`check_output`]) and that
/// no two name the same file.
fn check_outputs(csv: Option<&Path>, reports: &Reports) -> Result<(), CompareError> {
    let mut seen: Vec<(Output, PathBuf)> = Vec::new();
    for (output, path) in outputs(csv, reports) {
        let Some(path) = path else { continue };
        if output != Output::Csv && path.as_os_str() == "-" {
            continue;
        }
        let resolved = check_output(output, path)?;
        if let Some((other, _)) = seen.iter().find(|(_, p)| *p == resolved) {
            return Err(CompareError::SameFile {
                output,
                other: *other,
                path: path.to_path_buf(),
            });
        }
        seen.push((output, resolved));
    }
    Ok(())
}

/// Checks, before a sweep, that an output file can be written: its folder exists and takes
/// new files, and the path is not a folder or a device. Returns the path as it will be
/// compared with the other outputs (the folder resolved).
fn check_output(output: Output, path: &Path) -> Result<PathBuf, CompareError> {
    let unwritable = |problem| CompareError::Unwritable { output, problem };
    let cannot = |why: String| {
        unwritable(Unwritable::Cannot {
            path: path.to_path_buf(),
            why,
        })
    };
    if path.as_os_str().is_empty() {
        return Err(unwritable(Unwritable::Empty));
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
        .ok_or_else(|| unwritable(Unwritable::NoName(path.to_path_buf())))?;
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    Ok(dir.join(name))
}

/// Checks that a sweep has the table asked for: values only a family sweep, scores only a
/// sweep over instances (a family, instance files).
fn check_table(
    table: Option<Table>,
    family: bool,
    over_instances: bool,
    certified: bool,
) -> Result<(), CompareError> {
    let why = match table {
        Some(Table::Values) if !family => "only a family sweep has parameter values",
        Some(Table::Scores) if !over_instances => {
            "the scores are over instances (a family sweep, instance files), not empty boards"
        }
        Some(Table::Certificates) if !certified => {
            "no row has a certificate (the sweep did not run with --certify, or refuted nothing)"
        }
        _ => return Ok(()),
    };
    Err(CompareError::NoTable {
        table: table.unwrap_or(Table::Runs),
        why,
    })
}

/// Reports `rows` (sorted here): on `out` the whole report, or the one table of
/// [`Reports::table`]. The whole report: the table of the runs (the summary per n, value,
/// encoding and solver for a family sweep), a family sweep's summary per value, over instances
/// the scores and whether the answers agree, and the line on the tool, machine and solvers.
/// Then the JSON and SVG files asked for; on `log` the number of wrong answers and of rows
/// without one, and the instances answered SAT by some runs and UNSAT by others, which end in
/// [`Ending::Failure`] as a wrong answer does.
fn report_rows(
    reports: &Reports,
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
    // Over instances (a family, instance files) the scores sum up the sweep.
    let over_instances = rows.iter().any(|r| !r.family.is_empty());
    let summary = family.then(|| transition::summarize(&rows));
    let by_value = family.then(|| values::by_value(&rows));
    let scores = scores::scores(&rows);
    let agreement = over_instances.then(|| values::agreement(&rows));
    match reports.table {
        Some(Table::Runs) => match &summary {
            Some(s) => write!(out, "{}", transition::table(s))?,
            None => write!(out, "{}", report::markdown(&rows))?,
        },
        Some(Table::Values) => write!(
            out,
            "{}",
            values::table(by_value.as_deref().unwrap_or_default())
        )?,
        Some(Table::Scores) => write!(out, "{}", scores::table(&scores))?,
        Some(Table::Instances) => {
            let configurations: Vec<(String, String)> = scores
                .configurations
                .iter()
                .map(|c| (c.encoding.clone(), c.solver.clone()))
                .collect();
            write!(out, "{}", values::instances_table(&rows, &configurations))?
        }
        Some(Table::Certificates) => write!(out, "{}", certificate::table(&rows))?,
        None => {
            match &summary {
                Some(s) => writeln!(out, "{}", transition::markdown(s))?,
                None => writeln!(out, "{}", report::markdown(&rows))?,
            }
            if let Some(v) = &by_value {
                writeln!(out, "{}", values::markdown(v))?;
            }
            if let Some(a) = &agreement {
                writeln!(out, "{}\n{a}\n", scores::markdown(&scores))?;
            }
            let certificates = certificate::table(&rows);
            if !certificates.is_empty() {
                writeln!(
                    out,
                    "Certificates of the refutations (--certify, checked by VeriPB):\n\n{certificates}"
                )?;
            }
            writeln!(
                out,
                "{}; machine: {}{}; limits per run: {}; solvers: {}",
                meta.tool_version,
                meta.machine,
                meta.load_at_start
                    .map_or_else(String::new, |l| format!(", load {l:.2} at the start")),
                limits_text(meta),
                meta.solvers
                    .iter()
                    .map(|(s, v)| format!("{s} ({v})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )?;
        }
    }
    let write_file =
        |path: &Path, text: &str| write_output(Some(path), |w| w.write_all(text.as_bytes()));
    if let Some(path) = &reports.json {
        let sections = report::Sections {
            summary: summary.as_deref(),
            values: by_value.as_deref(),
            scores: over_instances.then_some(&scores),
            agreement: agreement.as_ref(),
        };
        write_file(path, &report::json(meta, &rows, &sections)?)?;
    }
    // A plot in the format its file name asks for (SVG, PNG, PDF).
    let write_plot = |path: &Path, svg: &str| -> Result<(), CompareError> {
        let bytes = plot::export(svg, plot::Format::of(path))?;
        Ok(write_output(Some(path), |w| w.write_all(&bytes))?)
    };
    if let Some(path) = &reports.plot {
        let svg = match &summary {
            Some(s) => plot::render_transition_svg(s)?,
            None => plot::render_svg(&rows)?,
        };
        write_plot(path, &svg)?;
    }
    if let Some(path) = &reports.cactus {
        write_plot(path, &plot::render_cactus_svg(&rows)?)?;
    }
    if let Some(scatter) = &reports.scatter {
        let (a, b) = match &scatter.pair {
            Some([a, b]) => (a.to_string(), b.to_string()),
            None if scores.configurations.len() >= 2 => {
                let [a, b] = [0, 1].map(|i| &scores.configurations[i]);
                (
                    format!("{} / {}", a.encoding, a.solver),
                    format!("{} / {}", b.encoding, b.solver),
                )
            }
            None => return Err(CompareError::NoScatterPair(scores.configurations.len())),
        };
        write_plot(&scatter.path, &plot::render_scatter_svg(&rows, &a, &b)?)?;
    }
    let count = |prefix: &str| rows.iter().filter(|r| r.status.starts_with(prefix)).count();
    let (wrong, error) = (count("WRONG"), count("ERROR"));
    if wrong > 0 {
        let _ = writeln!(
            log,
            "{wrong} rows have a wrong answer (a model that is not a valid placement or breaks \
             a clause of the formula, UNSAT where solutions exist, or not the expected answer)"
        );
    }
    if error > 0 {
        let _ = writeln!(
            log,
            "{error} rows have no usable answer (the solver failed, or printed no readable answer)"
        );
    }
    let uncertified = certificate::uncertified(&rows);
    for r in &uncertified {
        let _ = writeln!(
            log,
            "error: the refutation of {} by {} is not certified: {}",
            if r.value.is_empty() {
                format!("n = {}", r.n)
            } else {
                format!(
                    "{} (n = {}, seed {})",
                    r.value,
                    r.n,
                    r.seed.map_or_else(|| "-".into(), |s| s.to_string())
                )
            },
            r.solver,
            r.certified
        );
    }
    let disagreements = agreement.map_or_else(Vec::new, |a| a.disagreements);
    if !disagreements.is_empty() {
        /// The instances named on `log`; the JSON lists them all.
        const NAMED: usize = 20;
        let _ = writeln!(
            log,
            "error: {} instances were answered SAT by some runs and UNSAT by others:",
            disagreements.len()
        );
        for d in disagreements.iter().take(NAMED) {
            let _ = writeln!(log, "  {d}");
        }
        if disagreements.len() > NAMED {
            let _ = writeln!(
                log,
                "  and {} more (the JSON lists them all)",
                disagreements.len() - NAMED
            );
        }
    }
    Ok(
        if !disagreements.is_empty()
            || !uncertified.is_empty()
            || rows
                .iter()
                .any(|r| crate::experiment::is_failure(&r.status))
        {
            Ending::Failure
        } else {
            Ending::Success
        },
    )
}

/// The limits of one run as the summary line names them: `60 s wall, 10 s CPU, 2048 MiB
/// memory`.
fn limits_text(meta: &crate::experiment::Metadata) -> String {
    let mut parts = vec![format!("{} s wall", meta.timeout_s)];
    if let Some(c) = meta.cpu_limit_s {
        parts.push(format!("{c} s CPU"));
    }
    if let Some(m) = meta.memory_limit_mib {
        parts.push(format!("{m} MiB memory"));
    }
    parts.join(", ")
}

/// [`Mode::Merge`]: the rows of the CSV files of finished sweeps and shards, checked and
/// joined ([`merge_files`]), with `common` only those of the instances every configuration ran
/// ([`scores::on_common_instances`]), written to the CSV file `csv` if given, and reported as
/// one sweep.
fn merge(
    paths: &[PathBuf],
    csv: Option<&Path>,
    common: bool,
    reports: &Reports,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, CompareError> {
    // No output replaces a CSV file merged.
    let inputs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    crate::output::refuse_input_as_output(&inputs, &outputs(csv, reports).map(|o| o.1))?;
    let mut files = Vec::new();
    for path in paths {
        if !path.exists() {
            return Err(ShardMergeError::NoFile(path.clone()).into());
        }
        let file = report::read_for_resume(path, false)?;
        if let Some(line) = file.torn_line {
            return Err(ShardMergeError::Torn {
                file: path.clone(),
                line,
            }
            .into());
        }
        files.push((path.display().to_string(), file.rows));
    }
    let mut rows = merge_files(&files)?;
    let _ = writeln!(log, "merged {} files: {} rows", files.len(), rows.len());
    if common {
        let configurations = scores::scores(&rows).configurations.len();
        let (kept, left_out) = scores::on_common_instances(rows);
        if kept.is_empty() {
            return Err(CompareError::NoCommonInstances { configurations });
        }
        let _ = writeln!(
            log,
            "the instances every configuration ran: {} rows kept, {left_out} instances left out",
            kept.len()
        );
        rows = kept;
    }
    let family = rows.iter().any(|r| !r.parameter.is_empty());
    check_table(
        reports.table,
        family,
        rows.iter().any(|r| !r.family.is_empty()),
        rows.iter().any(|r| !r.certified.is_empty()),
    )?;
    let meta = crate::experiment::merge::metadata(&rows);
    if let Some(path) = csv {
        check_output(Output::Csv, path)?;
        let text = report::csv_text(&rows)?;
        write_output(Some(path), |w| w.write_all(text.as_bytes()))?;
    }
    report_rows(reports, &meta, rows, family, out, log)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sweep of empty boards of size 4, pairwise cells, varisat, one run.
    fn grid(instances: Instances, solvers: &[&str]) -> Grid {
        Grid {
            instances,
            models: vec!["cells".into()],
            amo: vec!["pairwise".into()],
            column_alo: false,
            redundant: Default::default(),
            symmetry_breaking: vec![SymmetryBreaking::default()],
            solvers: Solvers {
                names: solvers.iter().map(|s| s.to_string()).collect(),
                ..Default::default()
            },
            runs: Runs {
                repeats: 1,
                timeout: Duration::from_secs(10),
                cpu_limit: None,
                memory_limit: None,
                shuffle: 0,
                certify: false,
            },
            expected: None,
        }
    }

    /// The error of `mode` with `reports`, which must fail before any run.
    fn error(mode: Mode, reports: Reports) -> CompareError {
        let req = CompareRequest { mode, reports };
        let (mut out, mut log) = (Vec::new(), Vec::new());
        match compare(&req, &mut out, &mut log, &mut ()) {
            Ok(_) => panic!("{req:?} ran"),
            Err(e) => e,
        }
    }

    #[test]
    fn errors_speak_of_the_sweep_not_of_options() {
        let family = |name: &str, params: &[&str], seeds: Option<&str>| Instances::Family {
            ns: vec![4],
            sweep: FamilyRequest {
                family: name.into(),
                params: params.iter().map(|p| p.to_string()).collect(),
                seeds: seeds.map(str::to_string),
            },
        };
        let run = |instances, solvers: &[&str]| Mode::Run {
            grid: grid(instances, solvers),
            csv: None,
        };
        let dir = tempfile::tempdir().unwrap();
        let nowhere = dir.path().join("no-such-folder").join("r.json");
        let cases = [
            (
                run(family("nope", &[], None), &["varisat"]),
                Reports::default(),
                "unknown family 'nope'",
            ),
            (
                run(family("blocked", &["p"], None), &["varisat"]),
                Reports::default(),
                "parameter p: expected NAME=VALUES",
            ),
            (
                run(family("blocked", &["p=0.1"], Some("5..1")), &["varisat"]),
                Reports::default(),
                "seeds: the range 5..1 is empty",
            ),
            (
                run(Instances::Boards(vec![4]), &[" "]),
                Reports::default(),
                "empty solver name",
            ),
            (
                run(Instances::Boards(vec![4]), &["varisat"]),
                Reports {
                    json: Some(nowhere),
                    ..Default::default()
                },
                "the JSON file: cannot write",
            ),
            (
                Mode::Shard {
                    grid: grid(Instances::Boards(vec![4]), &["varisat"]),
                    shard: "1/9".parse().unwrap(),
                    csv: CsvFile {
                        path: dir.path().join("s.csv"),
                        fresh: false,
                    },
                },
                Reports::default(),
                "shard 1/9: the sweep has 1 runs, fewer than the 9 shards asked for",
            ),
            (
                Mode::Merge {
                    files: vec![dir.path().join("none.csv")],
                    csv: None,
                    common: false,
                },
                Reports::default(),
                "none.csv does not exist",
            ),
        ];
        for (mode, reports, message) in cases {
            let e = error(mode, reports).to_string();
            assert!(e.contains(message), "{e}");
            assert!(!e.contains("--"), "{e}");
        }
    }

    #[test]
    fn two_outputs_of_the_same_file_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let same = dir.path().join("r.svg");
        let e = error(
            Mode::Run {
                grid: grid(Instances::Boards(vec![4]), &["varisat"]),
                csv: None,
            },
            Reports {
                plot: Some(same.clone()),
                scatter: Some(Scatter {
                    path: same,
                    pair: None,
                }),
                ..Default::default()
            },
        );
        assert!(
            matches!(
                e,
                CompareError::SameFile {
                    output: Output::Scatter,
                    other: Output::Plot,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn pairs_of_configurations_are_read() {
        let [a, b] = parse_pair("pairwise/cadical, sequential / kissat").unwrap();
        assert_eq!(a.to_string(), "pairwise / cadical");
        assert_eq!(b.to_string(), "sequential / kissat");
        assert_eq!(parse_pair("a/b"), Err(PairError::Count));
        assert_eq!(
            parse_pair("a/b,c"),
            Err(PairError::Configuration("c".into()))
        );
        assert_eq!(
            parse_pair("a/b,/c"),
            Err(PairError::Configuration("/c".into()))
        );
    }
}
