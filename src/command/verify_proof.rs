//! `queens-sat verify-proof CNF PROOF`: a proof of unsatisfiability (DRAT or LRAT, text or
//! binary, recognised from its content) checked against any DIMACS file ([`verify_proof`]) by
//! the library's checker and by VeriPB ([`crate::proof::check`]).

use super::Ending;
use crate::cnf::{read_dimacs_into, Cnf, DimacsError, ReadLimits, MAX_FORMULA_BYTES};
use crate::proof::{check, CheckOptions, Opinion, ProofError, Verdict};
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

/// A proof to check, and against what.
#[derive(Clone, Debug)]
pub struct VerifyProofRequest {
    /// The formula, a DIMACS file (`-`: standard input); an LRAT proof numbers its clauses
    /// in the file's order.
    pub cnf: PathBuf,
    /// The proof (`-`: standard input, when the formula is not read from it).
    pub proof: PathBuf,
    /// Also have VeriPB check an LRAT proof (it always checks a DRAT proof).
    pub veripb_on_lrat: bool,
    /// VeriPB checks each DRAT lemma on its own, without the hints of the library's checker
    /// ([`CheckOptions::veripb_alone`]).
    pub veripb_alone: bool,
}

/// Why a proof could not be checked (the command line's exit 2).
#[derive(Debug, thiserror::Error)]
pub enum VerifyProofError {
    /// A file cannot be opened.
    #[error("cannot read {file}")]
    Open {
        /// The file.
        file: String,
        /// Why.
        source: io::Error,
    },
    /// The formula and the proof are both to be read from standard input.
    #[error("the formula and the proof cannot both be read from standard input ('-')")]
    BothStdin,
    /// The formula is not DIMACS.
    #[error("{file} is not valid DIMACS")]
    NotDimacs {
        /// The file.
        file: String,
        /// What is wrong, and where.
        source: DimacsError,
    },
    /// The proof cannot be read or parsed.
    #[error("{file} cannot be checked")]
    Proof {
        /// The proof file.
        file: String,
        /// What is wrong, and where.
        source: ProofError,
    },
    /// The verdict cannot be written.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// `-` as standard input, any other path as a file.
fn open(path: &std::path::Path) -> Result<(Box<dyn BufRead>, String), VerifyProofError> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(io::BufReader::new(io::stdin())), "stdin".into()));
    }
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| VerifyProofError::Open {
        file: name.clone(),
        source,
    })?;
    Ok((Box::new(io::BufReader::with_capacity(1 << 16, file)), name))
}

/// Checks a pseudo-Boolean proof in VeriPB's format (the search's certificates, `solve
/// --engine search --proof-format veripb`) against an OPB file (`encode --format opb`) by
/// VeriPB, and writes the verdict on `out`: `verified: ...` and [`Ending::Success`] when it
/// accepts the proof and its conclusion that the formula is unsatisfiable, `rejected: ...`
/// (the failing line and VeriPB's reason) and [`Ending::Failure`]; then `checked by: ...`.
/// Both are files (VeriPB reads them by name); one that cannot be read is an error.
#[cfg(feature = "veripb")]
pub fn verify_pb_proof(
    opb: &std::path::Path,
    proof: &std::path::Path,
    out: &mut dyn Write,
) -> Result<Ending, VerifyProofError> {
    for path in [opb, proof] {
        if path.as_os_str() == "-" {
            return Err(VerifyProofError::Open {
                file: "-".into(),
                source: io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "VeriPB reads an OPB formula and its proof from files, not standard input",
                ),
            });
        }
        open(path)?;
    }
    let checker = format!("VeriPB {}", crate::proof::VERIPB_VERSION);
    let ending = match crate::proof::check_opb(opb, proof) {
        crate::proof::OpbJudgement::Accepted => {
            writeln!(
                out,
                "verified: every rule of the pseudo-Boolean proof checks, and it concludes that the formula is unsatisfiable"
            )?;
            writeln!(out, "checked by: {checker} (accepted)")?;
            Ending::Success
        }
        crate::proof::OpbJudgement::Rejected { line, reason } => {
            match line {
                Some(l) => writeln!(out, "rejected: line {l} of the proof: {reason}")?,
                None => writeln!(out, "rejected: {reason}")?,
            }
            writeln!(out, "checked by: {checker} (rejected)")?;
            Ending::Failure
        }
    };
    Ok(ending)
}

/// Checks the proof of `req` against its formula and writes the verdict on `out`:
/// `verified: ...` and [`Ending::Success`] when every checker that ran accepts it, or
/// `rejected: ...` (the first failing step, or both checkers' verdicts when they disagree)
/// and [`Ending::Failure`]; then the line `checked by: ...`.
pub fn verify_proof(
    req: &VerifyProofRequest,
    out: &mut dyn Write,
) -> Result<Ending, VerifyProofError> {
    if req.cnf.as_os_str() == "-" && req.proof.as_os_str() == "-" {
        return Err(VerifyProofError::BothStdin);
    }
    let (input, name) = open(&req.cnf)?;
    let mut formula = Cnf::new();
    let limits = ReadLimits {
        max_bytes: MAX_FORMULA_BYTES,
        ..ReadLimits::default()
    };
    let counts = read_dimacs_into(input, &limits, &mut formula)
        .map_err(|source| VerifyProofError::NotDimacs { file: name, source })?;
    let (proof, name) = open(&req.proof)?;
    let options = CheckOptions {
        veripb_on_lrat: req.veripb_on_lrat,
        veripb_alone: req.veripb_alone,
        ..CheckOptions::default()
    };
    let verdict = check(&formula, counts.vars, proof, &options)
        .map_err(|source| VerifyProofError::Proof { file: name, source })?;
    write_verdict(&verdict, out)?;
    Ok(if verdict.verified() {
        Ending::Success
    } else {
        Ending::Failure
    })
}

/// The verdict as `verify-proof` writes it: `verified: ...` or `rejected: ...`, each
/// checker's own verdict when they disagree, VeriPB's reason when it rejects, and the
/// checkers that ran.
pub fn write_verdict(verdict: &Verdict, out: &mut dyn Write) -> io::Result<()> {
    let status = if verdict.verified() {
        "verified"
    } else {
        "rejected"
    };
    if verdict.disagree() {
        writeln!(
            out,
            "rejected: the checkers disagree on this {} proof",
            verdict.kind
        )?;
        let own = if verdict.own.verified() {
            format!("accepted: {}", verdict.own)
        } else {
            format!("rejected: {}", verdict.own)
        };
        writeln!(out, "  {}: {own}", verdict.own.name())?;
        writeln!(out, "  {}: {}", Opinion::name(), verdict.veripb)?;
    } else {
        writeln!(out, "{status}: {}", verdict.summary())?;
        if matches!(verdict.veripb, Opinion::Rejected { .. }) {
            writeln!(out, "{}: {}", Opinion::name(), verdict.veripb)?;
        }
    }
    writeln!(out, "checked by: {}", verdict.checkers())
}
