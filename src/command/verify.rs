//! `queens-sat verify N FILE`: is an external solver's answer (or a one-line placement) a
//! valid n-queens solution, and does it satisfy the formula? ([`verify`], and the report of one
//! answer, [`write_report`]).

use super::Ending;
use crate::board::Placement;
use crate::explain::{clause_number_in_words, write_groups};
use crate::instance::{Instance, InstanceError, Limits};
use crate::solve::process::escape;
use crate::solve::{
    parse_solver_answer, refute_unsat, verify_assignment, verify_placement, Assignment, CnfProblem,
    ModelMismatch, SolveError, SolverAnswer, VerifyReport,
};
use std::io::{self, Read, Write};
use std::path::PathBuf;

/// An answer checked as `queens-sat verify` asks for it.
#[derive(Clone, Debug)]
pub struct VerifyRequest {
    /// The formula the answer is for.
    pub instance: Instance,
    /// The answer: SAT-competition output, a MiniSat result file or a one-line placement;
    /// `-` reads stdin.
    pub answer: PathBuf,
    /// Also say for each clause group whether it holds under the answer.
    pub explain: bool,
    /// Check even a formula past the size limits.
    pub force: bool,
}

/// Why an answer could not be checked (a wrong answer is not an error: see [`verify`]).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The formula is past the size limits for checking clauses.
    #[error("{0}; use a smaller n, another --amo, or --force")]
    TooLarge(InstanceError),
    /// The answer cannot be read.
    #[error("cannot read {name}")]
    Read {
        /// The file (`stdin`).
        name: String,
        /// Why.
        source: io::Error,
    },
    /// The answer is larger than an answer for the formula can be.
    #[error("{name} is larger than {cap} bytes, more than an answer for this formula can need")]
    TooLong {
        /// The file.
        name: String,
        /// The most it may hold.
        cap: u64,
    },
    /// The answer is not text.
    #[error("{name} is not text (UTF-8)")]
    NotText {
        /// The file.
        name: String,
        /// Why.
        source: std::string::FromUtf8Error,
    },
    /// The answer cannot be understood (the message names the file and what is wrong).
    #[error("{0}")]
    Unreadable(String),
    /// The embedded solver failed.
    #[error("{0}")]
    Solve(#[from] SolveError),
    /// The report cannot be written.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// The most an answer file may hold: 64 MiB plus 24 bytes per variable (a `v` line writes
/// each literal in at most 12 bytes).
fn answer_cap(vars: u64) -> u64 {
    (64u64 << 20).saturating_add(vars.saturating_mul(24))
}

/// Reads at most `cap` bytes of `r`; more is an input error.
fn read_bounded(r: impl Read, cap: u64, name: &str) -> Result<String, VerifyError> {
    let mut bytes = Vec::new();
    r.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| VerifyError::Read {
            name: name.to_string(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(VerifyError::TooLong {
            name: name.to_string(),
            cap,
        });
    }
    String::from_utf8(bytes).map_err(|source| VerifyError::NotText {
        name: name.to_string(),
        source,
    })
}

/// `true` when the text's first meaningful line starts with a number: a one-line placement.
fn looks_like_one_line(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with(|ch: char| ch.is_ascii_digit()))
}

/// Reads the answer of `req` and checks it: a model or a placement as a board and against
/// every clause, an UNSAT claim refuted (by construction or the embedded solver) or
/// confirmed. The report goes to `out`; a wrong answer (or UNKNOWN) ends in
/// [`Ending::Failure`].
pub fn verify(req: &VerifyRequest, out: &mut dyn Write) -> Result<Ending, VerifyError> {
    let inst = &req.instance;
    let n = inst.n();
    let name = req.answer.display().to_string();
    // Checking clauses has size limits; an UNSAT claim about an empty board does not (it is
    // refuted by the construction).
    let size_guard = || -> Result<(), VerifyError> {
        if !req.force {
            // Without auxiliaries the clauses are evaluated streaming; with them, a board
            // needs the solver and the formula in memory.
            let limits = if inst.has_auxiliaries() {
                Limits::IN_MEMORY
            } else {
                Limits::STREAM
            };
            inst.check_size(limits).map_err(VerifyError::TooLarge)?;
        }
        Ok(())
    };
    let cap = answer_cap(inst.size().vars);
    let text = if req.answer.as_os_str() == "-" {
        read_bounded(io::stdin().lock(), cap, "stdin")?
    } else {
        let f = std::fs::File::open(&req.answer).map_err(|source| VerifyError::Read {
            name: name.clone(),
            source,
        })?;
        read_bounded(f, cap, &name)?
    };
    if looks_like_one_line(&text) {
        size_guard()?;
        let p = Placement::parse_one_line(&text, Some(n)).map_err(|e| {
            VerifyError::Unreadable(format!("{name}: not a one-line placement for n = {n}: {e}"))
        })?;
        writeln!(out, "answer: one-line placement {}", p.to_one_line())?;
        let report = verify_placement(inst, &p)?;
        let mut a = Assignment::default();
        for (i, v) in p.to_assignment().into_iter().enumerate() {
            a.set(crate::Var::from_index(i), v);
        }
        let complete = !inst.has_auxiliaries();
        if req.explain && !complete {
            writeln!(
                out,
                "(no group-by-group check: a board gives no values to the encoding's auxiliary variables)"
            )?;
        }
        let groups = (req.explain && complete).then_some(&a);
        return Ok(write_report(out, inst, &report, groups)?);
    }
    let (answer, format) = parse_solver_answer(&text)
        .map_err(|e| VerifyError::Unreadable(format!("{name}: {}", escape(&e.to_string(), 300))))?;
    match answer {
        SolverAnswer::Sat(a) => {
            size_guard()?;
            let report = verify_assignment(inst, &a)?;
            // A model without values for some variables is incomplete (truncated output, or
            // an answer for a smaller formula): an input error, not a wrong answer.
            if let Err(CnfProblem::Mismatch(m @ ModelMismatch::MissingVars { .. })) = &report.cnf {
                return Err(VerifyError::Unreadable(format!(
                    "{name}: incomplete model: {m}"
                )));
            }
            writeln!(out, "answer: SATISFIABLE ({format})")?;
            let complete = report.vars >= a.max_var() && a.missing(report.vars).is_empty();
            let groups = (req.explain && complete).then_some(&a);
            Ok(write_report(out, inst, &report, groups)?)
        }
        SolverAnswer::Unsat => {
            writeln!(out, "answer: UNSATISFIABLE ({format})")?;
            // An empty board of size 1 or >= 4 has a solution by construction: no search.
            match refute_unsat(inst)? {
                None => {
                    writeln!(out, "correct: no solution exists for n = {n}")?;
                    Ok(Ending::Success)
                }
                Some(p) => {
                    writeln!(
                        out,
                        "WRONG: the formula is satisfiable, e.g. by the solution {}",
                        p.to_one_line()
                    )?;
                    Ok(Ending::Failure)
                }
            }
        }
        SolverAnswer::Unknown => {
            writeln!(out, "answer: UNKNOWN ({format}): the solver gave no answer")?;
            Ok(Ending::Failure)
        }
    }
}

/// Writes the report of one checked answer: the board, the clauses (the first false one in
/// words when the formula fits in memory), each clause group under `groups` if given, and the
/// verdict; a wrong answer ends in [`Ending::Failure`].
pub fn write_report(
    out: &mut dyn Write,
    inst: &Instance,
    r: &VerifyReport,
    groups: Option<&Assignment>,
) -> io::Result<Ending> {
    let n = inst.n();
    // Naming the clause in words, or each group, builds the formula in memory: only when it
    // fits.
    let fits = || inst.check_size(Limits::IN_MEMORY).is_ok();
    match (&r.board, &r.placement) {
        (Ok(()), Some(p)) => writeln!(
            out,
            "board: valid n-queens solution for n = {n}: {}",
            p.to_one_line()
        )?,
        (Ok(()), None) => writeln!(out, "board: valid")?,
        (Err(e), _) => writeln!(out, "board: NOT a solution: {e}")?,
    }
    match &r.cnf {
        Ok(()) => writeln!(
            out,
            "CNF: satisfies all {} clauses over {} variables",
            r.clauses, r.vars
        )?,
        Err(e) => {
            writeln!(out, "CNF: NOT satisfied: {e}")?;
            if let (CnfProblem::Falsified(v), true) = (e, fits()) {
                let words = clause_number_in_words(inst, v.number);
                writeln!(out, "in words: {words}")?;
            }
        }
    }
    if let Some(a) = groups {
        if fits() {
            write_groups(out, inst, a)?;
        } else {
            writeln!(
                out,
                "(no group-by-group check: the formula is too large to hold in memory)"
            )?;
        }
    }
    if r.is_ok() {
        writeln!(out, "verdict: valid")?;
        Ok(Ending::Success)
    } else {
        writeln!(out, "verdict: INVALID")?;
        Ok(Ending::Failure)
    }
}
