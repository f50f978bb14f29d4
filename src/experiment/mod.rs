//! Experiments that compare encodings: for every (n, encoding, solver) the formula's size, the
//! time to write it, and the solver's time and statistics.
//!
//! Every solver, the embedded one included, runs as a separate process on the same DIMACS file,
//! with a timeout, so times are comparable and a stuck solver can be stopped. Results come as
//! [`Row`]s, handed to the caller as each is finished (see [`report`] for CSV, JSON and
//! Markdown, [`plot`] for the SVG).

pub mod plot;
pub mod report;
mod run;
pub mod scores;
pub mod shuffle;
pub mod transition;

pub use run::{machine_description, solver_version, SolverSpec};

use crate::cnf::Lit;
use crate::encode::{EncodeOptions, LineEncodings};
use crate::family::{generate, Family, InstanceSpec, Recipe};
use crate::instance::{Instance, InstanceError, Model};
use crate::solve::runner;
use crate::symmetry::SymmetryBreaking;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Why a sweep could not run.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The encoder refused a board size.
    #[error("n = {n}, {encoding}: {source}")]
    Encode {
        /// Board size.
        n: usize,
        /// The encoding.
        encoding: String,
        /// Why.
        source: InstanceError,
    },
    /// The parameters do not make a recipe of the family (an unknown or missing parameter, a
    /// value that is not a number of the right kind).
    #[error("{message}")]
    Recipe {
        /// The family.
        family: Family,
        /// Why.
        message: String,
    },
    /// An instance could not be drawn (a parameter out of range, or the generator gave up).
    #[error("cannot draw {family} n = {n}, {value}, seed {seed}: {message}")]
    Draw {
        /// The family.
        family: Family,
        /// Board size.
        n: usize,
        /// The swept parameter and its value, `p = 0.3` (or `no parameter`).
        value: String,
        /// The seed.
        seed: u64,
        /// Why.
        message: String,
    },
    /// More instances than [`MAX_POINTS`].
    #[error("{points} instances ({ns} n x {values} values x {seeds} seeds) are more than the {max} a sweep may draw", max = MAX_POINTS)]
    TooManyPoints {
        /// Instances asked for.
        points: u128,
        /// Board sizes.
        ns: usize,
        /// Parameter values.
        values: usize,
        /// Seeds.
        seeds: usize,
    },
    /// A temporary file could not be written.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

/// Why the rows of a CSV cannot be resumed by this sweep: the first row made under other
/// settings, the setting that differs and both values.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line} has {setting} = {found}, this run {expected}")]
pub struct OtherSweep {
    /// The CSV line of the row (the header is line 1).
    pub line: u64,
    /// The setting (a CSV column).
    pub setting: &'static str,
    /// Its value in the row.
    pub found: String,
    /// Its value in this run.
    pub expected: String,
}

/// One measured combination.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Board size.
    pub n: usize,
    /// The model and encoding, by [`model_name`] (`pairwise`, `columns-order`, ...).
    pub encoding: String,
    /// The redundant column at-least-one clauses were added.
    pub column_alo: bool,
    /// The solver's name.
    pub solver: String,
    /// Runs asked for (the median of the finished ones is reported).
    pub repeats: usize,
    /// Time limit of one run, in seconds.
    pub timeout_s: f64,
    /// Variables.
    pub vars: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences.
    pub literals: u64,
    /// Size of the DIMACS file.
    pub dimacs_bytes: u64,
    /// Time to encode and write the DIMACS file, in milliseconds.
    pub encode_ms: f64,
    /// `SAT`, `UNSAT`, `TIMEOUT`, `SKIPPED` (timed out at a smaller n), `WRONG` (a model that is
    /// not a valid placement, or an answer that contradicts the known counts) or `ERROR: ...`.
    pub status: String,
    /// Median solve time over the repeats, in milliseconds (none unless every repeat finished).
    pub solve_ms: Option<f64>,
    /// Every repeat's time, in milliseconds, separated by spaces.
    pub solve_ms_all: String,
    /// Conflicts the solver reported (last repeat), if it reports them.
    pub conflicts: Option<u64>,
    /// Decisions the solver reported (last repeat), if it reports them.
    pub decisions: Option<u64>,
    /// The solver's version as it reports it.
    pub solver_version: String,
    /// This tool's version.
    pub tool_version: String,
    /// The machine (CPU model, cores, memory).
    pub machine: String,
    /// The family the instance was drawn from; empty for the empty board.
    pub family: String,
    /// The swept parameter (`p`, `k`, ...); empty for the empty board.
    pub parameter: String,
    /// Its value for this instance; empty for the empty board.
    pub value: String,
    /// The seed the instance was drawn with; none for the empty board.
    pub seed: Option<u64>,
    /// The parameters that stay the same over the sweep, as `name=value` separated by spaces
    /// (`mode=random`); empty for the empty board.
    pub fixed_parameters: String,
    /// The shard of a sharded sweep that made the row (`I/K`); empty for an unsharded sweep.
    /// (Rows of CSV files written before this column existed read as empty.)
    #[serde(default)]
    pub shard: String,
    /// The formula's identifier in the Global Benchmark Database (the MD5 digest of its
    /// clauses in normal form, as gbd-tools computes it), to match rows with other benchmark
    /// data.
    #[serde(default)]
    pub gbd_hash: String,
    /// The shuffled copy of the formula that was solved (1..=K with `--shuffle K`,
    /// [`shuffle`]); none for the formula as encoded.
    #[serde(default)]
    pub shuffle: Option<u64>,
}

/// The most instances a family sweep draws (board sizes x values x seeds).
pub const MAX_POINTS: u128 = 100_000;

/// A sweep over instances of a family: one parameter takes several values, each drawn with
/// several seeds, the other parameters stay fixed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilySweep {
    /// The family.
    #[serde(with = "family_name")]
    pub family: Family,
    /// The swept parameter; empty when every parameter is fixed (or there is none).
    pub parameter: String,
    /// Its values, in order (one empty value when `parameter` is empty).
    pub values: Vec<String>,
    /// The fixed parameters, `(name, value)`.
    pub fixed: Vec<(String, String)>,
    /// The seeds each value is drawn with.
    pub seeds: Vec<u64>,
}

mod family_name {
    use crate::family::Family;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(f: &Family, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(f.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Family, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl FamilySweep {
    /// The parameters of the instances drawn for `value`: the swept one, then the fixed ones.
    pub fn parameters(&self, value: &str) -> Vec<(String, String)> {
        let mut v = Vec::with_capacity(self.fixed.len() + 1);
        if !self.parameter.is_empty() {
            v.push((self.parameter.clone(), value.to_string()));
        }
        v.extend(self.fixed.iter().cloned());
        v
    }

    /// The fixed parameters as a row records them: `mode=random min-free=2`.
    pub fn fixed_text(&self) -> String {
        self.fixed
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `p = 0.3`, or `no parameter` when nothing is swept.
    fn value_text(&self, value: &str) -> String {
        if self.parameter.is_empty() {
            "no parameter".to_string()
        } else {
            format!("{} = {value}", self.parameter)
        }
    }

    /// Draws every instance, for each n, each value, each seed in that order; refuses the
    /// first recipe or instance that cannot be made, and more than [`MAX_POINTS`] instances.
    pub fn draw(&self, ns: &[usize]) -> Result<Vec<Point>, SweepError> {
        let points = ns.len() as u128 * self.values.len() as u128 * self.seeds.len() as u128;
        if points > MAX_POINTS {
            return Err(SweepError::TooManyPoints {
                points,
                ns: ns.len(),
                values: self.values.len(),
                seeds: self.seeds.len(),
            });
        }
        let recipes = self
            .values
            .iter()
            .map(|v| {
                Recipe::from_parameters(self.family, &self.parameters(v)).map_err(|message| {
                    SweepError::Recipe {
                        family: self.family,
                        message,
                    }
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = Vec::with_capacity(points as usize);
        for &n in ns {
            for (value, recipe) in self.values.iter().zip(&recipes) {
                for &seed in &self.seeds {
                    let spec = generate(n, recipe, seed).map_err(|e| SweepError::Draw {
                        family: self.family,
                        n,
                        value: self.value_text(value),
                        seed,
                        message: e.to_string(),
                    })?;
                    out.push(Point {
                        n,
                        spec: Some(spec),
                        value: value.clone(),
                    });
                }
            }
        }
        Ok(out)
    }
}

/// One point of a sweep: the empty board of size n, or an instance drawn from a family.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Board size.
    pub n: usize,
    /// The drawn instance; `None` for the empty board.
    pub spec: Option<InstanceSpec>,
    /// The swept parameter's value (empty for the empty board).
    pub value: String,
}

impl Point {
    /// The empty board of size `n`.
    pub fn empty(n: usize) -> Point {
        Point {
            n,
            spec: None,
            value: String::new(),
        }
    }

    /// The instance to encode under `model`.
    pub fn instance(&self, model: Model) -> Result<Instance, InstanceError> {
        match &self.spec {
            None => Instance::new(self.n, model),
            Some(spec) => spec.instance(model),
        }
    }
}

/// What a sweep measures.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// Board sizes.
    pub ns: Vec<usize>,
    /// The models, each with its encoding (a row's `encoding` is [`model_name`]).
    pub models: Vec<Model>,
    /// The redundant column at-least-one clauses were added to the cell models (recorded in
    /// every row; [`SweepConfig::cells`] builds cell models with it).
    pub column_alo: bool,
    /// Solvers, each a command reading a DIMACS file.
    pub solvers: Vec<SolverSpec>,
    /// Runs per combination; the median is reported.
    pub repeats: usize,
    /// Time limit of one run.
    pub timeout: Duration,
    /// Instances of a family instead of empty boards.
    pub family: Option<FamilySweep>,
    /// The symmetry breaking modes, each a configuration with every model (empty: none only);
    /// a row's `encoding` carries the mode as a suffix ([`sweep_name`]).
    pub symmetry_breaking: Vec<SymmetryBreaking>,
    /// Run only this shard of the grid ([`in_shard`]); `None` runs all of it.
    pub shard: Option<crate::count::Shard>,
    /// Solve this many shuffled copies of each formula ([`shuffle`]) instead of the formula
    /// as encoded; 0 for the formula itself.
    pub shuffle: usize,
}

/// The most shuffled copies of a formula a sweep takes.
pub const MAX_SHUFFLE: usize = 1000;

/// `true` when run `unit` (0-based, counting the (point, configuration, solver) combinations
/// of a sweep in the order [`run_sweep`] visits them) belongs to `shard`: the units are dealt
/// round-robin, so that each shard gets every K-th one, spread over the sizes, values and
/// seeds. A sharded sweep runs every combination of its share (no combination is skipped
/// because a smaller n timed out, as that n may be another shard's), so the shards together
/// give the rows of an unsharded sweep run without skipping.
pub fn in_shard(unit: usize, shard: crate::count::Shard) -> bool {
    unit % shard.of == shard.index - 1
}

/// What the sweep records about itself.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Metadata {
    /// This tool's name and version.
    pub tool_version: String,
    /// The machine.
    pub machine: String,
    /// Each solver and its version.
    pub solvers: Vec<(String, String)>,
    /// Solvers that could not be found.
    pub missing_solvers: Vec<String>,
    /// Repeats per combination.
    pub repeats: usize,
    /// Timeout per run, in seconds.
    pub timeout_s: f64,
    /// The redundant column at-least-one clauses were added.
    pub column_alo: bool,
    /// The family sweep, if the points are drawn instances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<FamilySweep>,
}

/// The tool's name and version, as recorded in results.
pub fn tool_version() -> String {
    format!("{} {}", env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
}

/// Median of a non-empty list.
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let k = s.len();
    if k % 2 == 1 {
        s[k / 2]
    } else {
        (s[k / 2 - 1] + s[k / 2]) / 2.0
    }
}

/// The longest time limit of one run a sweep takes: a week ([`crate::input::MAX_TIMEOUT_SECS`]).
pub const MAX_TIMEOUT_S: f64 = crate::input::MAX_TIMEOUT_SECS;

/// The shortest time limit of one run a sweep takes: a millisecond
/// ([`crate::input::MIN_TIMEOUT_SECS`]).
pub const MIN_TIMEOUT_S: f64 = crate::input::MIN_TIMEOUT_SECS;

impl SweepConfig {
    /// The points of the sweep: the empty boards of [`SweepConfig::ns`], or every instance of
    /// the family sweep drawn (see [`FamilySweep::draw`]).
    pub fn points(&self) -> Result<Vec<Point>, SweepError> {
        match &self.family {
            None => Ok(self.ns.iter().map(|&n| Point::empty(n)).collect()),
            Some(f) => f.draw(&self.ns),
        }
    }

    /// Draws the points and checks that every one can be encoded with every encoding, so that
    /// a sweep does not stop half-way on a size the encoder refuses or an instance that cannot
    /// be drawn. Returns the points, for [`run_sweep`].
    pub fn validate(&self) -> Result<Vec<Point>, SweepError> {
        let points = self.points()?;
        let mut seen = HashSet::new();
        for p in &points {
            // The encoder's limits depend on n alone.
            if !seen.insert(p.n) {
                continue;
            }
            for &model in &self.models {
                p.instance(model).map_err(|source| SweepError::Encode {
                    n: p.n,
                    encoding: model_name(&model),
                    source,
                })?;
            }
        }
        Ok(points)
    }

    /// The cell models of `encodings`, with the redundant column clauses when `column_alo`.
    pub fn cells(encodings: &[LineEncodings], column_alo: bool) -> Vec<Model> {
        encodings
            .iter()
            .map(|&amo| Model::cells(EncodeOptions { amo, column_alo }))
            .collect()
    }

    /// What this sweep records about itself: asks every solver its version (a solver that
    /// cannot be run is listed as missing).
    pub fn metadata(&self) -> Metadata {
        let mut solvers = Vec::new();
        let mut missing = Vec::new();
        for s in &self.solvers {
            match solver_version(s) {
                Some(v) => solvers.push((s.name.clone(), v)),
                None => missing.push(s.name.clone()),
            }
        }
        Metadata {
            tool_version: tool_version(),
            machine: machine_description(),
            solvers,
            missing_solvers: missing,
            repeats: self.repeats,
            timeout_s: self.timeout.as_secs_f64(),
            column_alo: self.column_alo,
            family: self.family.clone(),
        }
    }
}

/// Checks that rows read back from a CSV (each with its line number) were made under the
/// settings of this sweep, so that resuming cannot mix them: the redundant clauses, the
/// repeats, the time limit, this tool's version, the machine, and the solver's version (for
/// the solvers of this sweep), and, for rows of this sweep's family and swept parameter, the
/// fixed parameters. Returns the first row that differs and how.
pub fn check_resume<'a>(
    meta: &Metadata,
    rows: impl IntoIterator<Item = (u64, &'a Row)>,
) -> Result<(), OtherSweep> {
    let settings = Settings {
        column_alo: meta.column_alo,
        repeats: meta.repeats,
        timeout_s: meta.timeout_s,
        tool_version: &meta.tool_version,
        machine: Some(&meta.machine),
        family: meta
            .family
            .as_ref()
            .map(|f| (f.family.name(), f.parameter.as_str(), f.fixed_text())),
    };
    for (line, r) in rows {
        let differ = |(setting, found, expected)| {
            Err(OtherSweep {
                line,
                setting,
                found,
                expected,
            })
        };
        if let Some(d) = settings.first_difference(r) {
            return differ(d);
        }
        if let Some((_, v)) = meta.solvers.iter().find(|(s, _)| *s == r.solver) {
            if *v != r.solver_version {
                return differ((
                    "solver_version",
                    format!("'{}'", r.solver_version),
                    format!("'{v}'"),
                ));
            }
        }
    }
    Ok(())
}

/// The settings every row of one sweep shares, as resuming a CSV file and merging the files of
/// a sharded sweep compare them.
struct Settings<'a> {
    column_alo: bool,
    repeats: usize,
    timeout_s: f64,
    tool_version: &'a str,
    /// `None` where rows may come from several machines (the shards of a sweep).
    machine: Option<&'a str>,
    /// The family, its swept parameter and the text of its fixed parameters.
    family: Option<(&'a str, &'a str, String)>,
}

impl<'a> Settings<'a> {
    /// The settings of a row, any machine.
    fn of_row(r: &'a Row) -> Self {
        Settings {
            column_alo: r.column_alo,
            repeats: r.repeats,
            timeout_s: r.timeout_s,
            tool_version: &r.tool_version,
            machine: None,
            family: Some((&r.family, &r.parameter, r.fixed_parameters.clone())),
        }
    }

    /// The first setting in which `r` differs: the CSV column, the row's value and the
    /// expected one (texts quoted). A family's fixed parameters are compared only between rows
    /// of the same family and swept parameter.
    fn first_difference(&self, r: &Row) -> Option<(&'static str, String, String)> {
        let quoted = |s: &str| format!("'{s}'");
        if r.column_alo != self.column_alo {
            return Some((
                "column_alo",
                r.column_alo.to_string(),
                self.column_alo.to_string(),
            ));
        }
        if r.repeats != self.repeats {
            return Some(("repeats", r.repeats.to_string(), self.repeats.to_string()));
        }
        if r.timeout_s != self.timeout_s {
            return Some((
                "timeout_s",
                r.timeout_s.to_string(),
                self.timeout_s.to_string(),
            ));
        }
        if r.tool_version != self.tool_version {
            return Some((
                "tool_version",
                quoted(&r.tool_version),
                quoted(self.tool_version),
            ));
        }
        if let Some(m) = self.machine.filter(|m| r.machine != *m) {
            return Some(("machine", quoted(&r.machine), quoted(m)));
        }
        if let Some((family, parameter, fixed)) = &self.family {
            if r.family == *family && r.parameter == *parameter && r.fixed_parameters != *fixed {
                return Some((
                    "fixed_parameters",
                    quoted(&r.fixed_parameters),
                    quoted(fixed),
                ));
            }
        }
        None
    }
}

/// The name of a model in a sweep's `encoding` column: the model's display name
/// (`pairwise`, `columns-order`, `columns-direct-pairwise`, ...) without its redundant column
/// clauses, which are in the `column_alo` column; so rows of earlier sweeps, which named cell
/// models that way, are resumed.
pub fn model_name(model: &Model) -> String {
    model.with_column_alo(false).to_string()
}

/// The name of a configuration in a sweep's `encoding` column: [`model_name`], with
/// `+lex-leader` or `+rotations` when symmetry breaking is on.
pub fn sweep_name(model: &Model, mode: SymmetryBreaking) -> String {
    if mode.is_on() {
        format!("{}+{mode}", model_name(model))
    } else {
        model_name(model)
    }
}

/// `true` for the statuses that make a sweep fail: a wrong answer, or a solver that gave no
/// usable answer (crashed, printed something unreadable, answered UNKNOWN, could not be run).
pub fn is_failure(status: &str) -> bool {
    status.starts_with("WRONG") || status.starts_with("ERROR")
}

/// The status of a row for the outcome of a run: `SAT`, `UNSAT`, `TIMEOUT`, `WRONG: ...` (a
/// model that fails its check, UNSAT for an instance known to have solutions) or `ERROR: ...`
/// (no usable answer).
fn run_status(outcome: &runner::Outcome) -> String {
    use runner::Outcome;
    match outcome {
        Outcome::Timeout { .. } => "TIMEOUT".to_string(),
        Outcome::Failed(f) => format!("ERROR: {}", one_line(&f.reason())),
        Outcome::Unknown => "ERROR: the solver answered UNKNOWN".to_string(),
        Outcome::Unsat { verdict, .. } if verdict.is_wrong() => "WRONG: UNSAT".to_string(),
        Outcome::Unsat { .. } => "UNSAT".to_string(),
        Outcome::Sat { .. } => "SAT".to_string(),
        Outcome::WrongModel { report, .. } => match (&report.board, &report.cnf) {
            (Err(b), _) => format!("WRONG: {}", one_line(&b.to_string())),
            (_, Err(p)) => format!("WRONG: {}", one_line(&p.to_string())),
            (Ok(()), Ok(())) => "SAT".to_string(),
        },
    }
}

/// A message on one line (for a status in a table or CSV).
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The key of a row in a resumed sweep: n, encoding, solver, family, parameter, value, seed,
/// shuffled copy.
type RowKey = (
    usize,
    String,
    String,
    String,
    String,
    String,
    Option<u64>,
    Option<u64>,
);

fn row_key(r: &Row) -> RowKey {
    (
        r.n,
        r.encoding.clone(),
        r.solver.clone(),
        r.family.clone(),
        r.parameter.clone(),
        r.value.clone(),
        r.seed,
        r.shuffle,
    )
}

/// The seed of shuffled copy `copy` of the formula of a point and configuration: a digest of
/// the configuration's name, the point (n, family, value, seed) and the copy, so that every
/// machine draws the same copies.
fn shuffle_seed(name: &str, point: &Point, copy: u64) -> u64 {
    let text = format!(
        "{name} {} {} {} {:?} {copy}",
        point.n,
        point.spec.as_ref().map_or("", |s| s.family.name()),
        point.value,
        point.spec.as_ref().and_then(|s| s.seed)
    );
    // FNV-1a, 64 bits.
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Runs the sweep described by `cfg` on its `points` (see [`SweepConfig::validate`]) with the
/// solvers `meta` found (see [`SweepConfig::metadata`]; missing solvers are left out): for
/// each point, each encoding, each solver, skipping the combinations already in `previous` (a
/// resumed sweep, checked with [`check_resume`]), calling `on_row` as each row is finished
/// and `on_step` before each run with a short description. On empty boards, an encoding and
/// solver that timed out (here or in `previous`) is not tried again at larger n.
///
/// Every model is checked as a board (with the instance's pre-placed queens and forbidden
/// cells) and against every clause of the formula; a model that fails either gives a `WRONG`
/// row, as does UNSAT for an instance known to have solutions (an empty board with
/// solutions, a completion instance whose queens come from a solution).
pub fn run_sweep<E: From<SweepError>>(
    cfg: &SweepConfig,
    points: &[Point],
    meta: &Metadata,
    previous: &[Row],
    mut on_step: impl FnMut(&str),
    mut on_row: impl FnMut(&Row) -> Result<(), E>,
) -> Result<(), E> {
    let dir = tempfile::Builder::new()
        .prefix("queens-sat-compare-")
        .tempdir()
        .map_err(|source| SweepError::Io {
            what: "cannot create a temporary folder".into(),
            source,
        })?;
    let solvers: Vec<(&SolverSpec, &String)> = cfg
        .solvers
        .iter()
        .filter_map(|s| {
            meta.solvers
                .iter()
                .find(|(name, _)| *name == s.name)
                .map(|(_, v)| (s, v))
        })
        .collect();
    let skip: HashSet<RowKey> = previous.iter().map(row_key).collect();
    let mut timed_out: HashSet<(String, String)> = previous
        .iter()
        .filter(|r| r.family.is_empty() && (r.status == "TIMEOUT" || r.status == "SKIPPED"))
        .map(|r| (r.encoding.clone(), r.solver.clone()))
        .collect();
    let fixed = cfg
        .family
        .as_ref()
        .map(FamilySweep::fixed_text)
        .unwrap_or_default();
    let parameter = cfg
        .family
        .as_ref()
        .map(|f| f.parameter.clone())
        .unwrap_or_default();
    let repeats = cfg.repeats.max(1);
    let modes = if cfg.symmetry_breaking.is_empty() {
        vec![SymmetryBreaking::None]
    } else {
        cfg.symmetry_breaking.clone()
    };
    let configurations: Vec<(Model, SymmetryBreaking)> = cfg
        .models
        .iter()
        .flat_map(|&m| modes.iter().map(move |&s| (m, s)))
        .collect();
    let shard_name = cfg.shard.map(|s| s.to_string()).unwrap_or_default();
    let mut unit = 0usize;
    for point in points {
        let n = point.n;
        let drawn = point.spec.as_ref();
        let family = drawn
            .map(|s| s.family.name().to_string())
            .unwrap_or_default();
        let seed = drawn.and_then(|s| s.seed);
        let label = drawn.map_or_else(|| format!("n={n}"), InstanceSpec::describe);
        let copies: Vec<Option<u64>> = if cfg.shuffle == 0 {
            vec![None]
        } else {
            (1..=cfg.shuffle as u64).map(Some).collect()
        };
        for (&(model, mode), copy) in configurations
            .iter()
            .flat_map(|c| copies.iter().map(move |&k| (c, k)))
        {
            let name = sweep_name(&model, mode);
            let template = Row {
                n,
                encoding: name.clone(),
                column_alo: cfg.column_alo,
                solver: String::new(),
                repeats: cfg.repeats,
                timeout_s: meta.timeout_s,
                tool_version: meta.tool_version.clone(),
                machine: meta.machine.clone(),
                family: family.clone(),
                parameter: if drawn.is_some() {
                    parameter.clone()
                } else {
                    String::new()
                },
                value: point.value.clone(),
                seed,
                fixed_parameters: if drawn.is_some() {
                    fixed.clone()
                } else {
                    String::new()
                },
                shard: shard_name.clone(),
                shuffle: copy,
                ..Row::default()
            };
            // The units of the configured solvers (found or not), so that every shard deals
            // the same grid.
            let first_unit = unit;
            unit += cfg.solvers.len();
            let todo: Vec<_> = solvers
                .iter()
                .filter(|(s, _)| {
                    let mut r = template.clone();
                    r.solver = s.name.clone();
                    let k = cfg
                        .solvers
                        .iter()
                        .position(|c| c.name == s.name)
                        .unwrap_or(0);
                    cfg.shard.is_none_or(|sh| in_shard(first_unit + k, sh))
                        && !skip.contains(&row_key(&r))
                })
                .collect();
            if todo.is_empty() {
                continue;
            }
            let enc = point
                .instance(model)
                .map(|i| i.with_symmetry_breaking(mode))
                .map_err(|source| SweepError::Encode {
                    n,
                    encoding: name.clone(),
                    source,
                })?;
            let known = drawn
                .and_then(InstanceSpec::known_satisfiable)
                .or_else(|| enc.known_satisfiable());
            let size = enc.size();
            on_step(&format!("{label} {name}: encoding"));
            let path = dir.path().join(format!("q{n}.cnf"));
            let io_err = |source| SweepError::Io {
                what: format!("cannot write the formula to {}", path.display()),
                source,
            };
            let t = Instant::now();
            let file = std::fs::File::create(&path).map_err(io_err)?;
            let mut hasher = crate::cnf::GbdHasher::default();
            let shuffled = match copy {
                None => {
                    enc.write_dimacs(std::io::BufWriter::with_capacity(1 << 16, file), None)
                        .map_err(io_err)?;
                    crate::instance::encode(&enc, &mut hasher).map_err(io_err)?;
                    None
                }
                Some(k) => {
                    // The copy is made in memory: renamed, reordered, then written.
                    let cnf = crate::instance::to_labelled_cnf(&enc).cnf;
                    let clauses: Vec<Vec<Lit>> = cnf.iter().map(<[Lit]>::to_vec).collect();
                    let sh =
                        shuffle::Shuffle::new(size.vars as usize, shuffle_seed(&name, point, k));
                    let header = crate::cnf::DimacsHeader {
                        comments: vec![format!(
                            "{} shuffled copy {k} of {name}, n = {n} (variables renamed, polarities flipped, clauses and literals reordered)",
                            tool_version()
                        )],
                        vars: size.vars,
                        clauses: clauses.len() as u64,
                        counting: None,
                    };
                    let mut w = crate::cnf::DimacsWriter::new(
                        std::io::BufWriter::with_capacity(1 << 16, file),
                        &header,
                    )
                    .map_err(io_err)?;
                    for c in sh.apply(&clauses) {
                        crate::cnf::ClauseSink::add_clause(&mut w, &c).map_err(io_err)?;
                        crate::cnf::ClauseSink::add_clause(&mut hasher, &c).map_err(io_err)?;
                    }
                    w.finish().map_err(io_err)?;
                    Some(sh)
                }
            };
            let encode_ms = t.elapsed().as_secs_f64() * 1e3;
            let dimacs_bytes = std::fs::metadata(&path).map_err(io_err)?.len();
            let gbd_hash = hasher.finish();
            for (solver, version) in todo {
                let mut row = Row {
                    solver: solver.name.clone(),
                    vars: size.vars,
                    clauses: size.clauses,
                    literals: size.literals,
                    dimacs_bytes,
                    encode_ms,
                    solver_version: (*version).clone(),
                    gbd_hash: gbd_hash.clone(),
                    ..template.clone()
                };
                if drawn.is_none()
                    && cfg.shard.is_none()
                    && timed_out.contains(&(name.clone(), solver.name.clone()))
                {
                    row.status = "SKIPPED".into();
                    on_row(&row)?;
                    continue;
                }
                let mut times = Vec::new();
                let command = solver.to_command();
                // The model is checked as a board and against every clause (mapped back to
                // the formula's variables in a shuffled copy); UNSAT is wrong for an instance
                // known to have solutions.
                let restore = |m: &crate::solve::Assignment| {
                    shuffled
                        .as_ref()
                        .map_or_else(|| m.clone(), |s| s.restore(m))
                };
                let request = runner::RunRequest::new(&command, runner::CnfInput::File(&path))
                    .timeout(Some(cfg.timeout))
                    .verify(&enc)
                    .restore(&restore)
                    .unsat(if known == Some(true) {
                        runner::UnsatCheck::KnownSatisfiable
                    } else {
                        runner::UnsatCheck::Trust
                    });
                for rep in 0..repeats {
                    on_step(&format!(
                        "{label} {name} {} run {}/{repeats}",
                        solver.name,
                        rep + 1,
                    ));
                    let out = match runner::run(&request) {
                        Ok(out) => out,
                        Err(runner::RunError::Verify(e)) => {
                            row.status = format!("ERROR: cannot check the model: {e}");
                            break;
                        }
                        Err(e) => {
                            row.status = format!("ERROR: {}", one_line(&format!("{e:#}")));
                            break;
                        }
                    };
                    row.conflicts = out.conflicts;
                    row.decisions = out.decisions;
                    row.status = run_status(&out.outcome);
                    if row.status != "SAT" && row.status != "UNSAT" {
                        break;
                    }
                    times.push(out.elapsed.as_secs_f64() * 1e3);
                }
                row.solve_ms_all = times
                    .iter()
                    .map(|t| format!("{t:.2}"))
                    .collect::<Vec<_>>()
                    .join(" ");
                if row.status == "SAT" || row.status == "UNSAT" {
                    row.solve_ms = Some(median(&times));
                } else if row.status == "TIMEOUT" && drawn.is_none() {
                    timed_out.insert((name.clone(), solver.name.clone()));
                }
                on_row(&row)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep(parameter: &str, values: &[&str], fixed: &[(&str, &str)]) -> FamilySweep {
        FamilySweep {
            family: Family::Completion,
            parameter: parameter.into(),
            values: values.iter().map(|v| v.to_string()).collect(),
            fixed: fixed
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            seeds: vec![4, 5],
        }
    }

    #[test]
    fn family_sweeps_draw_every_n_value_and_seed_in_order() {
        let s = sweep("k", &["0", "2"], &[("mode", "random")]);
        assert_eq!(s.fixed_text(), "mode=random");
        let points = s.draw(&[6, 8]).unwrap();
        let got: Vec<(usize, &str, Option<u64>, usize)> = points
            .iter()
            .map(|p| {
                let spec = p.spec.as_ref().unwrap();
                (p.n, p.value.as_str(), spec.seed, spec.placed.len())
            })
            .collect();
        assert_eq!(
            got,
            [
                (6, "0", Some(4), 0),
                (6, "0", Some(5), 0),
                (6, "2", Some(4), 2),
                (6, "2", Some(5), 2),
                (8, "0", Some(4), 0),
                (8, "0", Some(5), 0),
                (8, "2", Some(4), 2),
                (8, "2", Some(5), 2),
            ]
        );
        let e = sweep("k", &["1", "9"], &[]).draw(&[8]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot draw completion n = 8, k = 9, seed 4: k = 9"),
            "{e}"
        );
        let e = sweep("q", &["1"], &[]).draw(&[8]).unwrap_err();
        assert!(matches!(e, SweepError::Recipe { .. }), "{e}");
        let many = FamilySweep {
            seeds: (0..50_001).collect(),
            ..sweep("k", &["1"], &[])
        };
        assert!(matches!(
            many.draw(&[8, 9]),
            Err(SweepError::TooManyPoints {
                points: 100_002,
                ..
            })
        ));
    }
}

/// Why the CSV files of a sharded sweep could not be merged; each names the file (and line).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShardMergeError {
    /// No files, or a file without rows.
    #[error("{0}")]
    Empty(String),
    /// A row that is not from a sharded sweep, or from another shard than the file's first.
    #[error("{file} line {line}: {reason}")]
    Row {
        /// The file.
        file: String,
        /// The line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// The same shard in two files.
    #[error("shard {shard} is given twice: {a} and {b}")]
    Duplicate {
        /// The shard.
        shard: String,
        /// One file.
        a: String,
        /// The other.
        b: String,
    },
    /// Shards without a file.
    #[error("missing shard{} {} of {of}: their runs are not in the files", if missing.len() == 1 { "" } else { "s" }, missing.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", "))]
    Missing {
        /// The shards (1-based).
        missing: Vec<usize>,
        /// K.
        of: usize,
    },
}

/// Joins the rows of the CSV files of a sharded sweep (`(file, rows with their lines)`): every
/// shard of the same K once, every row made under the same settings as the first (the
/// redundant clauses, repeats, time limit, tool version, each solver's version, a family's
/// fixed parameters; the machine may differ), no combination twice. Returns the rows.
pub fn merge_shards(files: &[(String, Vec<(u64, Row)>)]) -> Result<Vec<Row>, ShardMergeError> {
    let first = files
        .first()
        .and_then(|(_, rows)| rows.first().map(|(_, r)| r.clone()))
        .ok_or_else(|| ShardMergeError::Empty("no rows to merge".into()))?;
    let mut of = None;
    let mut owner: Vec<Option<String>> = Vec::new();
    let mut versions: HashMap<String, String> = HashMap::new();
    let mut seen: HashMap<RowKey, (String, u64)> = HashMap::new();
    let mut out = Vec::new();
    for (file, rows) in files {
        let Some((_, head)) = rows.first() else {
            return Err(ShardMergeError::Empty(format!("{file} holds no rows")));
        };
        let bad = |line: u64, reason: String| ShardMergeError::Row {
            file: file.clone(),
            line,
            reason,
        };
        let shard: crate::count::Shard = head.shard.parse().map_err(|_| {
            bad(
                rows[0].0,
                "the row has no shard: not from a sharded sweep (compare --shard I/K)".into(),
            )
        })?;
        let k = *of.get_or_insert(shard.of);
        if shard.of != k {
            return Err(bad(
                rows[0].0,
                format!("shard {shard}, while the first file's sweep has {k} shards"),
            ));
        }
        owner.resize(k, None);
        if let Some(other) = &owner[shard.index - 1] {
            return Err(ShardMergeError::Duplicate {
                shard: shard.to_string(),
                a: other.clone(),
                b: file.clone(),
            });
        }
        owner[shard.index - 1] = Some(file.clone());
        for (line, r) in rows {
            if r.shard != head.shard {
                return Err(bad(
                    *line,
                    format!(
                        "shard {}, while the file's first row has {}",
                        r.shard, head.shard
                    ),
                ));
            }
            if let Some((what, found, want)) = Settings::of_row(&first).first_difference(r) {
                return Err(bad(
                    *line,
                    format!("{what} = {found}, the first row {want}: not the same sweep"),
                ));
            }
            let v = versions
                .entry(r.solver.clone())
                .or_insert_with(|| r.solver_version.clone());
            if *v != r.solver_version {
                return Err(bad(
                    *line,
                    format!(
                        "{} version '{}', earlier rows '{v}': not the same sweep",
                        r.solver, r.solver_version
                    ),
                ));
            }
            if let Some((f, l)) = seen.insert(row_key(r), (file.clone(), *line)) {
                return Err(bad(
                    *line,
                    format!("the same run as {f} line {l} (n, encoding, solver, instance)"),
                ));
            }
            out.push(r.clone());
        }
    }
    let k = of.unwrap_or(1);
    let missing: Vec<usize> = (1..=k).filter(|i| owner[i - 1].is_none()).collect();
    if !missing.is_empty() {
        return Err(ShardMergeError::Missing { missing, of: k });
    }
    Ok(out)
}
