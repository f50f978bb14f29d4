//! `solve --all`, `--count`, `--limit`: the solutions of the embedded solver listed as they
//! come, or their number ([`enumeration`], [`write_count`]).

use super::{
    checked_options, embedded_backend, stopped, Ending, Engine, Format, SolveCommandError,
    SolveProgress, SolveRequest,
};
use crate::command::solution::{unsat_message, write_listed};
use crate::solve::{Backend, Enumeration, SolveError};
use std::io::{self, Write};

/// `--all`, `--count`, `--limit`: the solutions listed as they come, or their number.
pub(super) fn enumeration(
    req: &SolveRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &mut dyn SolveProgress,
) -> Result<Ending, SolveCommandError> {
    let inst = &req.instance;
    let n = inst.n();
    let backend = match req.engine {
        Engine::Sat | Engine::Search => embedded_backend(req, Backend::for_enumeration),
        Engine::Propagator => Backend::Cadical,
    };
    let options = checked_options(req, backend)?;
    let mut e = Enumeration::new(inst.clone())
        .limit(req.limit)
        .backend_with_options(backend, &options)
        .time_limit(req.timeout);
    #[cfg(feature = "cadical")]
    if req.engine == Engine::Propagator {
        use crate::solve::propagator::PropagatorSolver;
        let inst = inst.clone();
        // The model and the options were checked: making the solver cannot fail.
        e = e.solver(move || {
            PropagatorSolver::new(&inst, &options).expect("the propagator's instance was checked")
        });
    }
    crate::interrupt::cleanup_needed();
    if let Some(k) = req.split_rows {
        let max = crate::solve::max_split_rows(n);
        if k > max {
            return Err(SolveCommandError::SplitRows { k, n, max });
        }
        e = e.split_rows(k);
    }
    if let Some(t) = req.threads {
        e = e.threads(t);
    }
    let mut out = io::BufWriter::new(out);
    if req.count {
        let count = e.count(|p| progress.update(p));
        progress.finish();
        let count = match count {
            Err(SolveError::Stopped(stop)) => return Ok(stopped(stop, log)),
            r => r?,
        };
        write_count(&mut out, log, req, count)?;
        out.flush()?;
        return Ok(Ending::Success);
    }
    let mut found = 0u64;
    if req.format == Format::Json {
        write!(out, "{{\"n\":{n},\"solutions\":[")?;
    }
    let format = req.format;
    let result = e.for_each_batch::<SolveCommandError>(
        |batch| {
            for p in batch {
                found += 1;
                write_listed(&mut out, format, found, &p)?;
            }
            Ok(true)
        },
        |p| progress.update(p),
    );
    progress.finish();
    if let Err(e) = result {
        out.flush()?;
        if let SolveCommandError::Solve(SolveError::Stopped(stop)) = e {
            return Ok(stopped(stop, log));
        }
        return Err(e);
    }
    match req.format {
        Format::Json => {
            let limit = serde_json::json!(req.limit);
            writeln!(out, "],\"count\":{found},\"limit\":{limit}}}")?;
        }
        Format::Board if found == 0 => writeln!(out, "{}", unsat_message(inst))?,
        Format::Board => {
            let limited = req.limit.is_some_and(|l| found >= l);
            writeln!(
                out,
                "{found} solution{} for n = {n}{}",
                if found == 1 { "" } else { "s" },
                if limited { " (stopped at --limit)" } else { "" }
            )?;
        }
        _ => {}
    }
    out.flush()?;
    Ok(Ending::Success)
}

/// Writes the number of solutions (JSON: with the limit and the symmetry breaking); with
/// symmetry breaking on, what the number counts goes on `log`, so that `out` stays the bare
/// number.
fn write_count(
    out: &mut dyn Write,
    log: &mut dyn Write,
    req: &SolveRequest,
    count: u64,
) -> io::Result<()> {
    let inst = &req.instance;
    let mode = inst.symmetry_breaking();
    let broken = || -> Vec<&str> { inst.symmetries_broken().iter().map(|s| s.name()).collect() };
    if req.format == Format::Json {
        let mut v = serde_json::json!({"n": inst.n(), "count": count, "limit": req.limit});
        if mode.is_on() {
            v["symmetry_breaking"] = serde_json::json!(mode.name());
            v["broken"] = serde_json::json!(broken());
        }
        return writeln!(out, "{v}");
    }
    writeln!(out, "{count}")?;
    if mode.is_on() {
        if inst.is_empty_board() && inst.geometry() == crate::board::Geometry::Square {
            let _ = writeln!(log, "({count} {})", mode.count_meaning());
        } else {
            let broken = broken();
            let _ = writeln!(
                log,
                "({count} classes of solutions under the symmetries that map the instance onto itself: {})",
                if broken.is_empty() { "none".to_string() } else { broken.join(", ") }
            );
        }
    }
    Ok(())
}
