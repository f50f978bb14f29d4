//! The end of a solve that wrote a VeriPB certificate of a refutation (the search's, the
//! propagator's): the certificate checked by VeriPB against the instance's OPB form when
//! asked, put in its file, and the answer written with notes on the certificate.

use super::super::solution::write_unsat;
use super::super::Ending;
use super::{proof_note, unchecked_note, ProofKept, SolveCommandError, Written};
use crate::instance::{Instance, CERTIFICATE_FORM};
use crate::output::Staged;
use std::io::Write;

/// Who made a certificate and what to say of it.
pub(super) struct Made<'a> {
    /// Where it goes and whether it is checked first.
    pub kept: &'a ProofKept,
    /// How the answer is written.
    pub written: &'a Written,
    /// Who wrote it, in words (`the search`).
    pub by: &'a str,
    /// The note of the UNSAT answer, if any.
    pub unsat_note: Option<&'a str>,
    /// Notes on what the certificate holds.
    pub notes: Vec<String>,
}

/// Checks the certificate in `target` against `form` (the instance's certificate form) when
/// asked: a rejection fails the solve and keeps no file; then the file is put in place and
/// the answer UNSAT written with the notes.
pub(super) fn finish(
    inst: &Instance,
    form: &Instance,
    target: Staged,
    made: Made<'_>,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, SolveCommandError> {
    let Made {
        kept,
        written,
        by,
        unsat_note,
        mut notes,
    } = made;
    let bytes = target.bytes();
    if kept.checked() {
        let dir = tempfile::Builder::new()
            .prefix("queens-sat-certificate")
            .tempdir()?;
        let formula = dir.path().join("formula.opb");
        form.write_opb(
            std::io::BufWriter::new(std::fs::File::create(&formula)?),
            None,
        )
        .map_err(|e| SolveCommandError::Certificate(e.to_string()))?;
        let started = std::time::Instant::now();
        match crate::experiment::certificate::check(&formula, target.path()) {
            Ok(checker) => notes.push(format!(
                "proof checked: {checker} accepted the certificate in {:.2} s",
                started.elapsed().as_secs_f64()
            )),
            Err(reason) => {
                let _ = writeln!(
                    log,
                    "error: the certificate of {by} does not check: {reason}; no proof written"
                );
                return Ok(Ending::Failure);
            }
        }
    }
    if let Some(path) = target.target() {
        notes.push(format!(
            "proof written to {} (VeriPB by {by}, {bytes} bytes, against `queens-sat encode --format opb --redundant {CERTIFICATE_FORM}` of the instance){}",
            path.display(),
            unchecked_note(kept.checked())
        ));
    }
    target.commit()?;
    let ending = write_unsat(out, written.format(), inst, unsat_note)?;
    for n in &notes {
        proof_note(out, log, written.format(), n)?;
    }
    Ok(ending)
}
