//! The records of a sweep: one [`Row`] per measured combination, the [`Metadata`] the sweep
//! records about itself, and the names rows give to models and configurations.

use super::FamilySweep;
use crate::instance::Model;
use crate::symmetry_breaking::SymmetryBreaking;
use serde::{Deserialize, Serialize};

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
    /// `SAT`, `UNSAT`, `TIMEOUT` (the wall-clock or the CPU limit), `MEMOUT` (the memory
    /// limit), `SKIPPED` (timed out or out of memory at a smaller n), `WRONG` (a model that is
    /// not a valid placement, or an answer that contradicts the known counts) or `ERROR: ...`.
    pub status: String,
    /// Median solve time over the repeats, in milliseconds (none unless every repeat finished).
    pub solve_ms: Option<f64>,
    /// The time of every run that answered (SAT or UNSAT), in milliseconds with two decimals,
    /// separated by spaces (a CSV field); the JSON gives it as an array of numbers
    /// ([`super::report::solve_times`]).
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
    /// [`shuffle`](super::shuffle)); none for the formula as encoded.
    #[serde(default)]
    pub shuffle: Option<u64>,
    /// The CPU time limit of one run, in seconds (none: only the wall-clock limit `timeout_s`).
    #[serde(default)]
    pub cpu_limit_s: Option<f64>,
    /// The memory limit of one run, in MiB (none: no limit).
    #[serde(default)]
    pub memory_limit_mib: Option<f64>,
    /// Wall-clock time of a run, in seconds: the median over the runs of the row (the run that
    /// stopped it included). Not available for rows of older files.
    #[serde(default)]
    pub wall_s: Option<f64>,
    /// CPU time (user + system) of the solver and every process it started, in seconds, the
    /// median over the runs of the row ([`crate::solve::measure`]).
    #[serde(default)]
    pub cpu_s: Option<f64>,
    /// The largest memory (resident set) the solver and its processes held together, in MiB,
    /// over the runs of the row.
    #[serde(default)]
    pub max_rss_mib: Option<f64>,
    /// For a chain of solvers ([`super::attempt`]), the stage that answered, by name; empty
    /// for a single solver, and for a chain that did not decide.
    #[serde(default)]
    pub decided_by: String,
    /// With `--certify`, a refutation's certificate ([`super::certificate`]): its size in
    /// bytes.
    #[serde(default)]
    pub certificate_bytes: Option<u64>,
    /// With `--certify`, VeriPB's time to check the refutation's certificate, in seconds.
    #[serde(default)]
    pub check_s: Option<f64>,
    /// With `--certify`, for a refutation: `accepted` (by VeriPB), `rejected: why`, or
    /// `none: why` (no certificate made); empty otherwise.
    #[serde(default)]
    pub certified: String,
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
    /// CPU time limit per run, in seconds.
    #[serde(default)]
    pub cpu_limit_s: Option<f64>,
    /// Memory limit per run, in MiB.
    #[serde(default)]
    pub memory_limit_mib: Option<f64>,
    /// The load average of the machine over the minute before the sweep started.
    #[serde(default)]
    pub load_at_start: Option<f64>,
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

/// The key of a row in a resumed sweep: n, encoding, solver, family, parameter, value, seed,
/// shuffled copy.
pub(super) type RowKey = (
    usize,
    String,
    String,
    String,
    String,
    String,
    Option<u64>,
    Option<u64>,
);

pub(super) fn row_key(r: &Row) -> RowKey {
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
