//! The solve of an instance by a chain of solvers ([`crate::experiment::attempt::run_chain`]): `solve
//! --engine search@60+exact` runs each stage as a process of its own, bounded by its budget,
//! until one decides; the answer is checked (a board against the instance and every clause of
//! its formula) and written as every solve writes it, the stages' runs on the log.

use super::super::solution::{write_solution, write_unsat};
use super::super::Ending;
use super::{check_size, check_svg, ChainSolve, SolveCommandError};
use crate::experiment::attempt::run_chain;
use crate::experiment::solvers::Stage;
use crate::family::InstanceSpec;
use crate::instance::Instance;
use crate::solve::process::{Limits, TempDirGuard};
use std::io::Write;

/// What follows an option a chain does not take.
pub struct NotWithChain;

impl std::fmt::Display for NotWithChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "does not go with a chain of solvers ({} A+B), which finds one solution or shows \
             that there is none, from the first stage that decides",
            crate::vocabulary::Param::Engine
        )
    }
}

/// How a stage's run reads on the log: `search (5 s of CPU): UNSAT, 2.17 s CPU, 2.62 s`.
fn stage_line(stage: &Stage, a: &crate::experiment::attempt::StageRun) -> String {
    let budget = a
        .budget
        .map_or_else(String::new, |b| format!(" ({} s of CPU)", b.as_secs_f64()));
    format!(
        "{}{budget}: {}, {:.2} s CPU, {:.2} s",
        stage.solver.name,
        a.attempt.status,
        a.attempt.cpu.as_secs_f64(),
        a.attempt.wall.as_secs_f64()
    )
}

/// Solves `inst` with the chain of `req`: its formula written as DIMACS (and as OPB when a
/// stage reads it) and its board as an instance file in a temporary folder, the stages run
/// in turn within `req.timeout` in all.
pub(super) fn chain(
    inst: &Instance,
    req: &ChainSolve,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    // With a proof, the chain solves the certificates' OPB form, which the search's
    // certificate and Exact's proof log both refer to.
    let form;
    let inst = match &req.proof {
        Some(_) => {
            form = super::search::certificate_form(inst)
                .map_err(|e| SolveCommandError::Certificate(e.to_string()))?;
            &form
        }
        None => inst,
    };
    check_size(inst, true)?;
    check_svg(inst, &req.written)?;
    let engines = req
        .stages
        .iter()
        .any(|s| s.solver.search || s.solver.propagator);
    if engines && inst.symmetry_breaking().is_on() {
        return Err(SolveCommandError::ChainSymmetry);
    }
    crate::interrupt::cleanup_needed();
    let (dir, _guard) = TempDirGuard::create("queens-sat-chain-")?;
    let dimacs = dir.path().join(format!("q{}.cnf", inst.n()));
    let file = std::fs::File::create(&dimacs)?;
    inst.write_dimacs(std::io::BufWriter::with_capacity(1 << 16, file), None)?;
    let board_file = dir.path().join(format!("q{}.txt", inst.n()));
    let spec = InstanceSpec {
        placed: inst.placed().to_vec(),
        blocked: inst.forbidden().to_vec(),
        ..InstanceSpec::empty(inst.n(), inst.geometry())
    };
    std::fs::write(&board_file, spec.to_text())?;
    let target = crate::experiment::attempt::Target {
        instance: inst,
        dimacs: &dimacs,
        restore: None,
        board: vec!["--instance".into(), board_file.display().to_string()],
        dir: dir.path(),
        opb: Default::default(),
        known: inst.known_satisfiable(),
        search_threads: req.threads,
        proofs: req.proof.as_ref().map(|_| dir.path()),
    };
    let limits = Limits {
        timeout: req.timeout,
        ..Limits::default()
    };
    let run = run_chain(&req.stages, &target, &limits)
        .map_err(|e| SolveCommandError::Chain(crate::solve::process::error_chain(&e)))?;
    for (i, (stage, a)) in req.stages.iter().zip(&run.stages).enumerate() {
        let _ = writeln!(
            log,
            "stage {} of {}, {}",
            i + 1,
            req.stages.len(),
            stage_line(stage, a)
        );
    }
    let (format, svg) = (req.written.format(), req.written.svg_file());
    let total = &run.attempt;
    match (&total.decided_by, total.status.as_str(), &total.placement) {
        (Some(by), "SAT", Some(p)) => {
            let ending = write_solution(
                out,
                format,
                svg,
                inst,
                p,
                &[],
                &format!(
                    "a solution found by {by}, checked: as a board and against every clause of the formula"
                ),
            )?;
            if req.proof.is_none() {
                return Ok(ending);
            }
            out.flush()?;
            let _ = writeln!(log, "{}", super::NO_PROOF_SAT);
            Ok(Ending::Failure)
        }
        (Some(by), "UNSAT", _) => {
            let notes = match &req.proof {
                Some(kept) => {
                    let stage = req.stages.iter().find(|s| &s.solver.name == by);
                    match chain_proof(stage, &target, kept)? {
                        Ok(notes) => notes,
                        Err(why) => {
                            let _ = writeln!(
                                log,
                                "error: {by} refuted the instance, but {why}; no proof written"
                            );
                            return Ok(Ending::Failure);
                        }
                    }
                }
                None => Vec::new(),
            };
            let ending = write_unsat(
                out,
                format,
                inst,
                Some(&format!("refuted by {by}, a stage of the chain")),
            )?;
            for n in &notes {
                super::proof_note(out, log, format, n)?;
            }
            Ok(ending)
        }
        (Some(by), status, _) => {
            let _ = writeln!(log, "error: {by} answered wrongly: {status}");
            Ok(Ending::Failure)
        }
        (None, status, _) => {
            let _ = writeln!(
                log,
                "error: no stage of the chain decided the instance (the last: {status})"
            );
            Ok(Ending::Failure)
        }
    }
}

/// The proof of the refutation by `stage` ([`crate::experiment::certificate::keep`]), checked
/// by VeriPB against the OPB form it refers to ([`crate::experiment::certificate::formula`])
/// when `kept` asks, then put in its file: the notes to print, or `Ok(Err(why))` when there is
/// none to keep.
fn chain_proof(
    stage: Option<&Stage>,
    target: &crate::experiment::attempt::Target,
    kept: &super::ProofKept,
) -> Result<Result<Vec<String>, String>, SolveCommandError> {
    use crate::experiment::certificate::{check, formula, keep, CERTIFICATE_FORM};
    let Some(stage) = stage else {
        return Ok(Err("no stage of that name".into()));
    };
    let proofs = target.proofs.unwrap_or(target.dir);
    let formula = match formula(&stage.solver, target)? {
        Some(path) => path,
        None => return Ok(Err("no OPB form was written".into())),
    };
    let mut staged = crate::output::Staged::proof(kept.file())?;
    let made = match keep(&stage.solver, proofs, &formula, staged.file()) {
        Ok(made) => made,
        Err(why) => return Ok(Err(why)),
    };
    let mut notes: Vec<String> = made.note.into_iter().collect();
    if kept.checked() {
        let started = std::time::Instant::now();
        match check(&formula, staged.path()) {
            Ok(checker) => notes.push(format!(
                "proof checked: {checker} accepted the certificate in {:.2} s",
                started.elapsed().as_secs_f64()
            )),
            Err(reason) => return Ok(Err(format!("the proof does not check: {reason}"))),
        }
    }
    if let Some(path) = staged.target() {
        notes.push(format!(
            "proof written to {} ({}, {} bytes, against `queens-sat encode --format opb --redundant {CERTIFICATE_FORM}` of the instance){}",
            path.display(),
            made.made_by,
            made.bytes,
            super::unchecked_note(kept.checked())
        ));
    }
    staged.commit()?;
    Ok(Ok(notes))
}
