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

pub use run::{machine_description, run_with_timeout, solver_version, RunOutcome, SolverSpec};

use crate::encode::{EncodeOptions, LineEncodings, QueensEncoder};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// One measured combination.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Board size.
    pub n: usize,
    /// The encoding (as `--amo` takes it).
    pub encoding: String,
    /// The solver's name.
    pub solver: String,
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
}

/// What a sweep measures.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// Board sizes.
    pub ns: Vec<usize>,
    /// Encodings.
    pub encodings: Vec<LineEncodings>,
    /// Add the redundant column at-least-one clauses.
    pub column_alo: bool,
    /// Solvers, each a command reading a DIMACS file.
    pub solvers: Vec<SolverSpec>,
    /// Runs per combination; the median is reported.
    pub repeats: usize,
    /// Time limit of one run.
    pub timeout: Duration,
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

/// `true` when the reference table says n-queens has a solution (n = 2 and 3 have none).
fn has_solution(n: usize) -> bool {
    n != 2 && n != 3
}

/// Runs the sweep: for each n, each encoding, each solver (missing solvers are left out and
/// listed in the metadata), skipping the combinations already in `previous` (a resumed sweep;
/// an encoding and solver that timed out there are not tried again at larger n), calling `on_row` as each row is finished
/// and `on_step` before each run with a short description. Returns the metadata.
pub fn run_sweep(
    cfg: &SweepConfig,
    previous: &[Row],
    mut on_step: impl FnMut(&str),
    mut on_row: impl FnMut(&Row) -> Result<()>,
) -> Result<Metadata> {
    let machine = machine_description();
    let mut solvers = Vec::new();
    let mut missing = Vec::new();
    for s in &cfg.solvers {
        match solver_version(s) {
            Some(v) => solvers.push((s.clone(), v)),
            None => missing.push(s.name.clone()),
        }
    }
    let meta = Metadata {
        tool_version: tool_version(),
        machine: machine.clone(),
        solvers: solvers
            .iter()
            .map(|(s, v)| (s.name.clone(), v.clone()))
            .collect(),
        missing_solvers: missing,
        repeats: cfg.repeats,
        timeout_s: cfg.timeout.as_secs_f64(),
    };
    let dir = tempfile::Builder::new()
        .prefix("queens-sat-compare-")
        .tempdir()?;
    let skip: HashSet<(usize, String, String)> = previous
        .iter()
        .map(|r| (r.n, r.encoding.clone(), r.solver.clone()))
        .collect();
    let mut timed_out: HashSet<(String, String)> = previous
        .iter()
        .filter(|r| r.status == "TIMEOUT" || r.status == "SKIPPED")
        .map(|r| (r.encoding.clone(), r.solver.clone()))
        .collect();
    for &n in &cfg.ns {
        for encoding in &cfg.encodings {
            let name = encoding.to_string();
            let todo: Vec<_> = solvers
                .iter()
                .filter(|(s, _)| !skip.contains(&(n, name.clone(), s.name.clone())))
                .collect();
            if todo.is_empty() {
                continue;
            }
            let opts = EncodeOptions {
                amo: *encoding,
                column_alo: cfg.column_alo,
            };
            let enc = QueensEncoder::new(n, opts)?;
            let size = enc.size();
            on_step(&format!("n={n} {name}: encoding"));
            let path = dir.path().join(format!("q{n}.cnf"));
            let t = Instant::now();
            let file = std::fs::File::create(&path)?;
            enc.write_dimacs(std::io::BufWriter::with_capacity(1 << 16, file), None)?;
            let encode_ms = t.elapsed().as_secs_f64() * 1e3;
            let dimacs_bytes = std::fs::metadata(&path)?.len();
            for (solver, version) in todo {
                let mut row = Row {
                    n,
                    encoding: name.clone(),
                    solver: solver.name.clone(),
                    vars: size.vars,
                    clauses: size.clauses,
                    literals: size.literals,
                    dimacs_bytes,
                    encode_ms,
                    status: String::new(),
                    solve_ms: None,
                    solve_ms_all: String::new(),
                    conflicts: None,
                    decisions: None,
                    solver_version: version.clone(),
                    tool_version: meta.tool_version.clone(),
                    machine: machine.clone(),
                };
                if timed_out.contains(&(name.clone(), solver.name.clone())) {
                    row.status = "SKIPPED".into();
                    on_row(&row)?;
                    continue;
                }
                let mut times = Vec::new();
                for rep in 0..cfg.repeats.max(1) {
                    on_step(&format!(
                        "n={n} {name} {} run {}/{}",
                        solver.name,
                        rep + 1,
                        cfg.repeats.max(1)
                    ));
                    let out = run_with_timeout(solver, &path, cfg.timeout)?;
                    row.conflicts = out.conflicts;
                    row.decisions = out.decisions;
                    row.status = match &out.answer {
                        _ if out.timed_out => "TIMEOUT".to_string(),
                        Err(e) => format!("ERROR: {e}"),
                        Ok(None) if has_solution(n) => "WRONG: UNSAT".to_string(),
                        Ok(None) => "UNSAT".to_string(),
                        Ok(Some(model)) => match run::check_model(n, model) {
                            Ok(_) => "SAT".to_string(),
                            Err(v) => format!("WRONG: {v}"),
                        },
                    };
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
                } else if row.status == "TIMEOUT" {
                    timed_out.insert((name.clone(), solver.name.clone()));
                }
                on_row(&row)?;
            }
        }
    }
    Ok(meta)
}
