//! `queens-sat verify-proof --cnf FILE.cnf PROOF`: a proof of unsatisfiability (DRAT or LRAT,
//! text or binary, recognised from its content) checked against any DIMACS file
//! ([`verify_proof`]): LRAT with the library's checker, DRAT with dratify.

use super::Ending;
use crate::cnf::{read_dimacs_into, Cnf, DimacsError, ReadLimits};
use crate::solve::{check_proof_clauses, ProofError, ProofVerdict, MAX_PROOF_BYTES};
use std::io::{self, Write};
use std::path::Path;

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

/// Checks the proof file `proof` against the DIMACS file `cnf` (an LRAT proof numbers the
/// clauses in the file's order) and writes the verdict on `out`: `verified: ...` and
/// [`Ending::Success`], or `rejected: ...` with, for LRAT, the first failing step (its number,
/// counting deletions, its line or byte offset and its clause id) and [`Ending::Failure`].
pub fn verify_proof(
    cnf: &Path,
    proof: &Path,
    out: &mut dyn Write,
) -> Result<Ending, VerifyProofError> {
    let open = |path: &Path| {
        std::fs::File::open(path).map_err(|source| VerifyProofError::Open {
            file: path.display().to_string(),
            source,
        })
    };
    let file = open(cnf)?;
    let mut formula = Cnf::new();
    let counts = read_dimacs_into(
        io::BufReader::with_capacity(1 << 16, file),
        &ReadLimits::default(),
        &mut formula,
    )
    .map_err(|source| VerifyProofError::NotDimacs {
        file: cnf.display().to_string(),
        source,
    })?;
    let clauses: Vec<Vec<i32>> = formula
        .iter()
        .map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect())
        .collect();
    drop(formula);
    let file = open(proof)?;
    let verdict = check_proof_clauses(
        &clauses,
        counts.vars,
        io::BufReader::with_capacity(1 << 16, file),
        MAX_PROOF_BYTES,
    )
    .map_err(|source| VerifyProofError::Proof {
        file: proof.display().to_string(),
        source,
    })?;
    let kind = verdict.kind();
    if verdict.verified() {
        writeln!(
            out,
            "verified: {kind} proof, {} (checked by {})",
            verdict.summary(),
            verdict.checker()
        )?;
        return Ok(Ending::Success);
    }
    writeln!(out, "rejected: {kind} proof: {verdict}")?;
    if let ProofVerdict::Lrat(c) = &verdict {
        if let Some(f) = &c.failure {
            writeln!(
                out,
                "first failing step: {} ({}), clause id {}",
                f.step, f.at, f.id
            )?;
        }
    }
    Ok(Ending::Failure)
}
