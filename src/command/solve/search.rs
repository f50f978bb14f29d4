//! [`SolveMode::Search`](super::SolveMode::Search): the decision engine of the library
//! ([`crate::search`]) on the instance's board, without a formula; an instance or a format
//! that only a formula or a SAT solver has a use for is refused ([`SearchRefusal`]).

use super::{check_svg, Ending, Format, SearchSolve, SolveCommandError, SolveProgress};
use crate::command::solution::{write_solution, write_unsat};
use crate::instance::Instance;
use crate::search::SearchProgress;
use std::io::Write;
use std::time::Duration;

/// What the search does not take: it searches the plain board (the cell model, pairwise at
/// most one, nothing added), finds one solution or shows that there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchRefusal {
    /// The SAT-competition format (its `v` lines are a formula's model).
    CompetitionFormat,
    /// Symmetry breaking (one solution of each class is a formula's matter).
    SymmetryBreaking,
    /// Redundant constraints added to the model.
    Redundant,
    /// The column model.
    ColumnModel,
    /// An at-most-one encoding other than pairwise.
    AtMostOne,
    /// The cell model's redundant column at-least-one clauses.
    ColumnAlo,
}

/// The option refused, as the user sets it.
impl std::fmt::Display for SearchRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::vocabulary::Param;
        match self {
            SearchRefusal::CompetitionFormat => write!(f, "{} competition", Param::Format),
            SearchRefusal::SymmetryBreaking => write!(f, "{}", Param::SymmetryBreaking),
            SearchRefusal::Redundant => write!(f, "{}", Param::Redundant),
            SearchRefusal::ColumnModel => write!(f, "{} columns", Param::Model),
            SearchRefusal::AtMostOne => write!(f, "{}", Param::Amo),
            SearchRefusal::ColumnAlo => write!(f, "{}", Param::ColumnAlo),
        }
    }
}

/// What follows an option the search does not take: `does not go with engine search, which
/// finds one solution or shows that there is none, on the board, without a formula`.
pub struct NotWithSearch;

impl std::fmt::Display for NotWithSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "does not go with {} search, which finds one solution or shows that there is none, \
             on the board, without a formula",
            crate::vocabulary::Param::Engine
        )
    }
}

/// What in the instance chose another formula than the plain one (the cell model, pairwise at
/// most one, nothing added), or breaks symmetries. `None` for the plain formula and for a
/// library user's own encoding.
fn refusal(inst: &Instance) -> Option<SearchRefusal> {
    if inst.symmetry_breaking().is_on() {
        return Some(SearchRefusal::SymmetryBreaking);
    }
    let model = inst.model()?;
    let options = model.options();
    if !options.redundant.is_empty() {
        return Some(SearchRefusal::Redundant);
    }
    if model.entry().name != crate::encode::Model::default().entry().name {
        return Some(SearchRefusal::ColumnModel);
    }
    if options.amo != crate::encode::LineEncodings::default() {
        return Some(SearchRefusal::AtMostOne);
    }
    options.column_alo.then_some(SearchRefusal::ColumnAlo)
}

/// The decision engine of the library on the instance's board (on [`SearchSolve::threads`]
/// threads, within [`SearchSolve::timeout`]); the solution it finds is checked against the
/// instance before it is written.
pub(super) fn search(
    inst: &Instance,
    req: &SearchSolve,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &mut dyn SolveProgress,
) -> Result<Ending, SolveCommandError> {
    use crate::search::{Answer, Decision, Stopped};
    use std::sync::atomic::{AtomicU64, Ordering};
    if req.written.format() == Format::Competition {
        return Err(SolveCommandError::NotForSearch(
            SearchRefusal::CompetitionFormat,
        ));
    }
    if let Some(refused) = refusal(inst) {
        return Err(SolveCommandError::NotForSearch(refused));
    }
    check_svg(inst, &req.written)?;
    let board = crate::instance::masked_board(inst)?;
    crate::interrupt::cleanup_needed();
    if let Some(kept) = &req.proof {
        return certified(inst, &board, req, kept, out, log);
    }
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
        Answer::Sat(p) => Ok(found(inst, req, &p, out)?),
        Answer::Unsat => Ok(write_unsat(
            out,
            req.written.format(),
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

/// Writes the search's solution `p` of `inst`, checked, as `req` says.
fn found(
    inst: &Instance,
    req: &SearchSolve,
    p: &crate::board::Placement,
    out: &mut dyn Write,
) -> Result<Ending, crate::command::Failure> {
    write_solution(
        out,
        req.written.format(),
        req.written.svg_file(),
        inst,
        p,
        &[],
        "a solution found by the search, checked: no two queens attack each other, none on a forbidden cell",
    )
}

pub use crate::experiment::certificate::certificate_form;

/// The search with a certificate ([`crate::search::certify`]): a solution is checked and
/// written (no proof); a refutation's proof is checked by VeriPB when asked, then put in its
/// file.
fn certified(
    inst: &Instance,
    board: &crate::board::MaskedBoard,
    req: &SearchSolve,
    kept: &super::ProofKept,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    use crate::search::{certify, Certified, CertifyLimits};
    let unmade = |e: &dyn std::fmt::Display| SolveCommandError::Certificate(e.to_string());
    let form = certificate_form(inst).map_err(|e| unmade(&e))?;
    let (_, _, anchors) = form.opb_form().map_err(|e| unmade(&e))?;
    let mut target = crate::output::Staged::proof(kept.file())?;
    let deadline = req.timeout.map(|t| std::time::Instant::now() + t);
    let stop = crate::solve::interrupted;
    let limits = CertifyLimits {
        deadline,
        stop: Some(&stop),
    };
    let answer = {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, target.file().try_clone()?);
        let answer = certify(board, &anchors, &mut w, limits).map_err(|e| unmade(&e))?;
        w.flush()?;
        answer
    };
    let stats = match answer {
        Certified::Sat(p) => {
            found(inst, req, &p, out)?;
            out.flush()?;
            let _ = writeln!(log, "{}", super::NO_PROOF_SAT);
            return Ok(Ending::Failure);
        }
        Certified::Stopped => {
            let (why, ending) = if crate::solve::interrupted() {
                ("interrupted", Ending::Interrupted)
            } else {
                ("the time limit passed", Ending::Failure)
            };
            let _ = writeln!(
                log,
                "error: the search stopped without an answer ({why}); no proof written"
            );
            return Ok(ending);
        }
        Certified::Unsat(stats) => stats,
    };
    let note = format!(
        "certificate: {} nodes, {} rules, {} of them cutting-planes steps of the bounds",
        stats.nodes, stats.rules, stats.bounds
    );
    super::certified::finish(
        inst,
        &form,
        target,
        super::certified::Made {
            kept,
            written: &req.written,
            by: "the search",
            unsat_note: Some("the search is complete: no placement of the queens is left"),
            notes: vec![note],
        },
        out,
        log,
    )
}
