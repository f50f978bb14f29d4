//! `queens-sat encode N`: the CNF in DIMACS, or iCNF with cubes for cube-and-conquer, streamed
//! to stdout or a file ([`encode`]).

use super::Ending;
use crate::cubes::CubeError;
use crate::encode::{Amo, EncodeOptions, LineEncodings, QueensEncoder};
use crate::instance::{human_bytes, Instance, Limits};
use crate::output::{write_output, OutputError};
use crate::vocabulary::Param;
use std::path::PathBuf;

/// A formula written as `queens-sat encode` asks for it.
#[derive(Clone, Debug)]
pub struct EncodeRequest {
    /// The instance.
    pub instance: Instance,
    /// The at-most-one encodings and redundant clauses as given, which the message about a
    /// formula too large names (with the sequential encoding as a hint when it would fit).
    pub options: EncodeOptions,
    /// The output file (stdout when `None`), written whole or not at all.
    pub output: Option<PathBuf>,
    /// Write even a formula estimated to be huge.
    pub force: bool,
    /// Write iCNF with one cube per placement of the first K rows.
    pub cubes: Option<usize>,
    /// The command line, for the comments of the file.
    pub command_line: Option<String>,
    /// Write the pseudo-Boolean form (OPB) instead of the CNF.
    pub opb: bool,
}

/// Why a formula could not be written.
#[derive(Debug, thiserror::Error)]
pub enum EncodeCommandError {
    /// The formula is past [`Limits::STREAM`]; the hint names a smaller encoding that fits.
    #[error("n = {n} with {amo} would write {clauses} clauses (about {}); use {hint}a smaller n, or {}", human_bytes(*.bytes), Param::Force)]
    TooLarge {
        /// Board size.
        n: usize,
        /// The encodings asked for.
        amo: String,
        /// Clauses of the formula.
        clauses: u64,
        /// Its estimated size in DIMACS.
        bytes: u64,
        /// `--amo sequential (...), ` when that fits, else empty.
        hint: String,
    },
    /// The cubes cannot be made.
    #[error("{0}")]
    Cubes(#[from] CubeError),
    /// The model has no OPB form.
    #[error("{0}")]
    Opb(#[from] crate::instance::OpbError),
    /// The output cannot be written.
    #[error(transparent)]
    Failure(#[from] super::Failure),
}

failures_into!(EncodeCommandError: OutputError);

/// Writes the formula of `req` (unless `force`, refusing one past [`Limits::STREAM`]).
pub fn encode(req: &EncodeRequest) -> Result<Ending, EncodeCommandError> {
    let inst = &req.instance;
    if req.opb {
        if req.cubes.is_some() {
            return Err(crate::instance::OpbError::Cubes.into());
        }
        // Refused before any file is made.
        inst.opb_constraints()?;
        let command = req.command_line.as_deref();
        write_output(req.output.as_deref(), |w| {
            inst.write_opb(w, command).map(|_| ()).map_err(|e| match e {
                crate::instance::OpbError::Io(e) => e,
                other => std::io::Error::other(other.to_string()),
            })
        })?;
        return Ok(Ending::Success);
    }
    let options = req.options;
    let size = inst.size();
    if !req.force && inst.check_size(Limits::STREAM).is_err() {
        // Suggest the sequential counter (linear in the line length) when it would fit.
        let linear = EncodeOptions {
            amo: LineEncodings::uniform(Amo::SEQUENTIAL),
            ..options
        };
        let hint = match QueensEncoder::new(inst.n(), linear) {
            Ok(e) if Limits::STREAM.allows(&e.size()) && options.amo != linear.amo => format!(
                "{} sequential (linear in the line length: {} clauses, about {}), ",
                Param::Amo,
                e.size().clauses,
                human_bytes(e.size().estimated_dimacs_bytes())
            ),
            _ => String::new(),
        };
        return Err(EncodeCommandError::TooLarge {
            n: inst.n(),
            amo: options.amo.to_string(),
            clauses: size.clauses,
            bytes: size.estimated_dimacs_bytes(),
            hint,
        });
    }
    let command = req.command_line.as_deref();
    let output = req.output.as_deref();
    if let Some(k) = req.cubes {
        let cubes = crate::cubes::cubes(inst, k, crate::cubes::MAX_CUBES)?;
        write_output(output, |w| {
            crate::cubes::write_icnf(inst, &cubes, k, w, command).map(|_| ())
        })?;
        return Ok(Ending::Success);
    }
    write_output(output, |w| inst.write_dimacs(w, command).map(|_| ()))?;
    Ok(Ending::Success)
}
