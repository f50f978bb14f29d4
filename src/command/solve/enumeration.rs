//! [`SatTask::Enumerate`](super::SatTask::Enumerate): the solutions of a solver in this
//! process listed as they come, or their number ([`enumeration`], [`write_count`]).

use super::{stopped, Ending, EnumerateSolve, ListFormat, SolveCommandError, SolveProgress};
use crate::command::solution::{unsat_message, write_listed};
use crate::command::Failure;
use crate::instance::Instance;
use crate::solve::{Backend, Enumeration, SolveError};
use std::io::{self, Write};

/// The solutions of `inst` listed as they come, or their number, as `req` asks.
pub(super) fn enumeration(
    inst: &Instance,
    req: &EnumerateSolve,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &mut dyn SolveProgress,
) -> Result<Ending, SolveCommandError> {
    let n = inst.n();
    let (backend, options) = req.solver.checked(Backend::for_enumeration)?;
    let limit = req.limit.map(std::num::NonZeroU64::get);
    let mut e = Enumeration::new(inst.clone())
        .limit(limit)
        .backend_with_options(backend, &options)
        .time_limit(req.timeout);
    #[cfg(feature = "cadical")]
    if let super::InProcess::Propagator { .. } = req.solver {
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
    if req.count_only {
        let count = e.count(|p| progress.update(p));
        progress.finish();
        let count = match count {
            Err(SolveError::Stopped(stop)) => return Ok(stopped(stop, log)),
            r => r?,
        };
        write_count(&mut out, log, inst, req, count)?;
        out.flush()?;
        return Ok(Ending::Success);
    }
    let mut found = 0u64;
    if req.format == ListFormat::Json {
        write!(out, "{{\"n\":{n},\"solutions\":[")?;
    }
    let format = req.format.format();
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
        if let SolveCommandError::Failure(Failure::Solve(SolveError::Stopped(stop))) = e {
            return Ok(stopped(stop, log));
        }
        return Err(e);
    }
    match req.format {
        ListFormat::Json => {
            let limit = serde_json::json!(limit);
            writeln!(out, "],\"count\":{found},\"limit\":{limit}}}")?;
        }
        ListFormat::Board if found == 0 => writeln!(out, "{}", unsat_message(inst))?,
        ListFormat::Board => {
            let limited = limit.is_some_and(|l| found >= l);
            writeln!(
                out,
                "{found} solution{} for n = {n}{}",
                if found == 1 { "" } else { "s" },
                if limited {
                    format!(" (stopped at {})", crate::vocabulary::Param::Limit)
                } else {
                    String::new()
                }
            )?;
        }
        ListFormat::Line => {}
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
    inst: &Instance,
    req: &EnumerateSolve,
    count: u64,
) -> io::Result<()> {
    let mode = inst.symmetry_breaking();
    let broken = || -> Vec<&str> { inst.symmetries_broken().iter().map(|s| s.name()).collect() };
    if req.format == ListFormat::Json {
        let limit = req.limit.map(std::num::NonZeroU64::get);
        let mut v = serde_json::json!({"n": inst.n(), "count": count, "limit": limit});
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
