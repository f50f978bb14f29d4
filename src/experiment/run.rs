//! Running a sweep: every point, configuration and solver, each formula written once as
//! DIMACS and solved by every solver as a separate process, checked through
//! [`crate::solve::runner`] ([`run_sweep`]).

use super::attempt::{attempt, Attempt, Target};
use super::row::{row_key, RowKey};
use super::{
    in_shard, median, shuffle, sweep_name, tool_version, FamilySweep, Metadata, Point, Row,
    SolverSpec, SweepConfig, SweepError,
};
use crate::cnf::Lit;
use crate::family::InstanceSpec;
use crate::instance::Model;
use crate::solve::process::Limits;
use crate::symmetry_breaking::SymmetryBreaking;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// What the runs of a row measured: the times of the runs that answered (milliseconds), and
/// the wall-clock and CPU seconds of every run and the largest memory (MiB), where measured.
#[derive(Clone, Debug, Default)]
pub(super) struct Measures {
    pub(super) times_ms: Vec<f64>,
    wall_s: Vec<f64>,
    cpu_s: Vec<f64>,
    max_rss_mib: Option<f64>,
}

impl Measures {
    /// Adds a run's wall-clock and CPU time and its peak memory (bytes).
    pub(super) fn run(&mut self, wall: Duration, cpu: Duration, max_rss: u64) {
        self.wall_s.push(wall.as_secs_f64());
        self.cpu_s.push(cpu.as_secs_f64());
        let mib = max_rss as f64 / f64::from(1u32 << 20);
        self.max_rss_mib = Some(self.max_rss_mib.map_or(mib, |m| m.max(mib)));
    }
}

/// The runs of one row: `repeats` runs of `once` (stopping at the first that does not
/// decide), with `on_step` called before each. The last run's report (status, statistics,
/// the stage that decided) and what the runs measured.
pub(super) fn runs(
    repeats: usize,
    on_step: &mut dyn FnMut(usize),
    once: &mut dyn FnMut() -> Result<Attempt, SweepError>,
) -> Result<(Attempt, Measures), SweepError> {
    let mut measured = Measures::default();
    let mut last = Attempt::default();
    for rep in 0..repeats {
        on_step(rep);
        last = once()?;
        if last.ran() {
            measured.run(last.wall, last.cpu, last.max_rss);
        }
        if !last.decided() {
            break;
        }
        measured.times_ms.push(last.wall.as_secs_f64() * 1e3);
    }
    Ok((last, measured))
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
/// resumed sweep, checked with [`check_resume`](super::check_resume)), calling `on_row` as each row is finished
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
        .filter(|r| {
            r.family.is_empty() && matches!(r.status.as_str(), "TIMEOUT" | "MEMOUT" | "SKIPPED")
        })
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
    // The bounds of every run of a solver or engine.
    let limits = Limits {
        timeout: Some(cfg.timeout),
        cpu: cfg.cpu_limit,
        memory: cfg.memory_limit,
        ..Limits::default()
    };
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
    let mut unit = 0usize;
    for point in points {
        let n = point.n;
        let drawn = point.spec.as_ref();
        let family = drawn
            .map(|s| s.family.name().to_string())
            .unwrap_or_default();
        let seed = drawn.and_then(|s| s.seed);
        let label = drawn.map_or_else(|| format!("n={n}"), InstanceSpec::describe);
        // The engines work on the board, not the formula: one run per point (and engine, by
        // name: the propagator's options) serves every configuration of the point.
        let mut engine_runs: Vec<(String, (Attempt, Measures))> = Vec::new();
        // The engines' command line for the board: N, or the instance file.
        let board = match &point.spec {
            None => vec![n.to_string()],
            Some(spec) => {
                let file = dir.path().join(format!("q{n}.txt"));
                std::fs::write(&file, spec.to_text()).map_err(|source| SweepError::Io {
                    what: format!("cannot write the instance to {}", file.display()),
                    source,
                })?;
                vec!["--instance".into(), file.display().to_string()]
            }
        };
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
                shuffle: copy,
                ..cfg.row(meta)
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
            let proofs = dir.path().join("proofs");
            if cfg.certify {
                std::fs::create_dir_all(&proofs).map_err(io_err)?;
            }
            let target = Target {
                instance: &enc,
                dimacs: &path,
                restore: shuffled.as_ref(),
                board: board.clone(),
                dir: dir.path(),
                opb: Default::default(),
                known,
                search_threads: None,
                proofs: cfg.certify.then_some(proofs.as_path()),
            };
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
                let engine = solver.search || solver.propagator;
                let cached = engine_runs
                    .iter()
                    .find(|e| engine && e.0 == solver.name)
                    .map(|e| e.1.clone());
                let (last, measured) = match cached {
                    Some(done) => done,
                    None => {
                        if cfg.certify {
                            super::certificate::forget(&proofs);
                        }
                        let done = runs(
                            repeats,
                            &mut |rep| {
                                on_step(&format!(
                                    "{label} {name} {} run {}/{repeats}",
                                    solver.name,
                                    rep + 1
                                ))
                            },
                            &mut || attempt(solver, &target, &limits),
                        )?;
                        if engine {
                            engine_runs.push((solver.name.clone(), done.clone()));
                        }
                        done
                    }
                };
                row.status = last.status;
                row.conflicts = last.conflicts;
                row.decisions = last.decisions;
                row.decided_by = last.decided_by.unwrap_or_default();
                if cfg.certify && row.status == "UNSAT" {
                    super::certificate::certify_row(&mut row, solver, &target)?;
                }
                if record_times(&mut row, &measured) && drawn.is_none() {
                    timed_out.insert((name.clone(), solver.name.clone()));
                }
                on_row(&row)?;
            }
        }
    }
    Ok(())
}

/// Writes what a row's runs measured on the row: the times of the answers (milliseconds) and
/// their median when the formula was solved, the medians of the wall-clock and CPU times of
/// every run, the largest memory; `true` when the row timed out or ran out of memory (a larger
/// n is not tried).
pub(super) fn record_times(row: &mut Row, measured: &Measures) -> bool {
    let times = &measured.times_ms;
    let round = |x: f64| (x * 1e4).round() / 1e4;
    row.wall_s = (!measured.wall_s.is_empty()).then(|| round(median(&measured.wall_s)));
    row.cpu_s = (!measured.cpu_s.is_empty()).then(|| round(median(&measured.cpu_s)));
    row.max_rss_mib = measured.max_rss_mib.map(|m| (m * 100.0).round() / 100.0);
    row.solve_ms_all = times
        .iter()
        .map(|t| format!("{t:.2}"))
        .collect::<Vec<_>>()
        .join(" ");
    if row.status == "SAT" || row.status == "UNSAT" {
        row.solve_ms = Some(median(times));
        return false;
    }
    row.status == "TIMEOUT" || row.status == "MEMOUT"
}
