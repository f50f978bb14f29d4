//! Experiments that compare encodings: for every (n, encoding, solver) the formula's size, the
//! time to write it, and the solver's time and statistics.
//!
//! Every solver, the embedded one included, runs as a separate process on the same DIMACS file,
//! with a timeout, so times are comparable and a stuck solver can be stopped. Results come as
//! [`Row`]s, handed to the caller as each is finished (see [`report`] for CSV, JSON and
//! Markdown, [`plot`] for the SVG).
//!
//! The parts: [`SweepConfig`] says what a sweep measures (its points, drawn by a
//! [`FamilySweep`] or the empty boards; [`params`] reads a family sweep as people write it),
//! [`solvers`] names the solvers, [`run_sweep`] runs it, [`sources`] lists the instance files
//! of folders and lists, [`sample`] draws a seeded sample of them, [`formula`] runs DIMACS and OPB files as they are, [`expected`]
//! checks rows against known answers, [`check_resume`] and [`resume`] resume it from its CSV
//! file, [`merge_files`] joins the CSV files of finished sweeps and of the shards of one;
//! [`transition`], [`values`] and [`scores`] sum a sweep up (per configuration and value, per
//! value, per configuration), [`report`] writes it. The `compare` command (in the module
//! `command`) does all of that as `queens-sat compare` asks for it; [`certificate`] keeps and
//! checks the certificates of the refutations (`compare --certify`, a chain's `solve --proof`).

pub mod attempt;
pub mod certificate;
pub mod expected;
pub mod formula;
pub mod merge;
pub mod params;
pub mod plot;
pub mod report;
pub mod resume;
mod row;
mod run;
pub mod sample;
pub mod scores;
pub mod shuffle;
pub mod solvers;
pub mod sources;
mod sweep;
pub mod transition;
pub mod values;

pub use merge::{merge_files, ShardMergeError};
pub use resume::{check_resume, OtherSweep};
pub use row::{is_failure, median, model_name, sweep_name, tool_version, Metadata, Row};
pub use run::run_sweep;
pub use solvers::{machine_description, solver_version, SolverSpec, PROPAGATOR, SEARCH};
pub use sweep::{
    in_shard, FamilySweep, Point, SweepConfig, SweepError, MAX_POINTS, MAX_SHUFFLE, MAX_TIMEOUT_S,
    MIN_TIMEOUT_S,
};
