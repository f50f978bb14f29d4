//! `solve --engine search`: the decision engine of the library ([`crate::search`]) on the
//! instance's board, without a formula; the options that only a formula or a SAT solver
//! reads are refused ([`search`]).

use super::{Ending, Format, SolveCommandError, SolveProgress, SolveRequest};
use crate::command::solution::{write_solution, write_unsat};
use crate::instance::Instance;
use crate::search::SearchProgress;
use std::io::Write;
use std::time::Duration;

/// The option that chose another formula than the plain one (the cell model, pairwise at
/// most one, nothing added), for `--engine search`, which searches the board without a formula:
/// `--redundant`, `--model columns` (with its `--domain`, `--constraints`, `--alldiff`),
/// `--amo`, `--column-alo`. `None` for the plain formula and for a library user's own encoding.
fn formula_option(inst: &Instance) -> Option<&'static str> {
    let model = inst.model()?;
    let options = model.options();
    if !options.redundant.is_empty() {
        return Some("--redundant");
    }
    if model.entry().name != crate::encode::Model::default().entry().name {
        return Some("--model columns");
    }
    if options.amo != crate::encode::LineEncodings::default() {
        return Some("--amo");
    }
    options.column_alo.then_some("--column-alo")
}

/// `--engine search`: the decision engine of the library on the instance's board (on
/// [`SolveRequest::threads`] threads, within [`SolveRequest::timeout`]); the solution it finds
/// is checked against the instance before it is written.
pub(super) fn search(
    req: &SolveRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &mut dyn SolveProgress,
) -> Result<Ending, SolveCommandError> {
    use crate::search::{Answer, Decision, Stopped};
    use std::sync::atomic::{AtomicU64, Ordering};
    let inst = &req.instance;
    let refused = [
        (req.all, "--all"),
        (req.count, "--count"),
        (req.limit.is_some(), "--limit"),
        (req.solver.is_some(), "--solver"),
        (req.backend.is_some(), "--backend"),
        (req.split_rows.is_some(), "--split-rows"),
        (req.explain, "--explain"),
        (req.why, "--why"),
        (req.proof.is_some(), "--proof"),
        (req.check_proof, "--check-proof"),
        (!req.solver_options.is_empty(), "--solver-option"),
        (req.proof_format.is_some(), "--proof-format"),
        (req.force, "--force"),
        (req.format == Format::Competition, "--format competition"),
        (inst.symmetry_breaking().is_on(), "--symmetry-breaking"),
    ];
    if let Some(&(_, flag)) = refused.iter().find(|(on, _)| *on) {
        return Err(SolveCommandError::NotWithSearch(flag));
    }
    if let Some(flag) = formula_option(inst) {
        return Err(SolveCommandError::NotWithSearch(flag));
    }
    if req.format == Format::Svg
        && req
            .n
            .is_some_and(|n| n > crate::board::picture::MAX_DOT_PLOT_N)
    {
        return Err(SolveCommandError::SvgTooLarge);
    }
    if req.format != Format::Svg && req.output.is_some() {
        return Err(SolveCommandError::Usage(
            "-o FILE goes with --format svg (the other formats go to stdout)",
        ));
    }
    let board = crate::instance::masked_board(inst)?;
    crate::interrupt::cleanup_needed();
    let nodes = AtomicU64::new(0);
    let started = std::time::Instant::now();
    let mut decision = Decision::new(&board)
        .stop_when(crate::solve::interrupted)
        .on_progress(Duration::from_millis(200), |p| {
            nodes.store(p.nodes, Ordering::Relaxed)
        });
    if let Some(t) = req.timeout {
        decision = decision.time_limit(t);
    }
    if let Some(k) = req.threads {
        decision = decision.threads(k);
    }
    // The search runs on its own thread; this one reports its progress.
    let done = std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::channel();
        scope.spawn(move || {
            let _ = send.send(decision.run());
        });
        loop {
            match receive.recv_timeout(Duration::from_millis(200)) {
                Ok(done) => return Some(done),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    progress.search(SearchProgress {
                        nodes: nodes.load(Ordering::Relaxed),
                        elapsed: started.elapsed(),
                    });
                }
                // The worker panicked: the scope passes the panic on.
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    });
    progress.finish();
    let Some(done) = done else {
        unreachable!("a panic of the search thread is passed on by the scope")
    };
    let done = done?;
    match done.answer {
        Answer::Sat(p) => Ok(write_solution(
            out,
            req.format,
            req.output.as_deref(),
            inst,
            &p,
            &[],
            "a solution found by the search, checked: no two queens attack each other, none on a forbidden cell",
        )?),
        Answer::Unsat => Ok(write_unsat(
            out,
            req.format,
            inst,
            Some("the search is complete: no placement of the queens is left"),
        )?),
        Answer::Stopped(stop) => {
            let _ = writeln!(log, "error: the search stopped without an answer: {stop}");
            Ok(match stop {
                Stopped::TimeLimit(_) => Ending::Failure,
                Stopped::Interrupted => Ending::Interrupted,
            })
        }
    }
}
