//! `queens-sat explain N`: the formula for people: readable, LaTeX, or DIMACS with a comment
//! on each clause ([`explain`]).

use super::Ending;
use crate::explain::{
    fixed_clauses, write_dimacs_commented, write_fixed_readable, write_latex, write_readable,
    Notation,
};
use crate::family::InstanceSpec;
use crate::instance::{Instance, InstanceError, Limits};
use crate::output::{write_output, OutputError};
use crate::symmetry_breaking::SymmetryBreaking;
use crate::vocabulary::Param;
use std::io::Write;
use std::path::PathBuf;

/// The largest n whose formula is explained without `force` (the listing grows as n^3).
pub const MAX_N: usize = 40;

/// How to write the formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Groups with meanings, counts and closed formulas, clauses with named variables.
    Text,
    /// A LaTeX document.
    Latex,
    /// DIMACS with each clause's group and meaning as a `c` line above it.
    DimacsCommented,
}

/// A formula explained as `queens-sat explain` asks for it.
#[derive(Clone, Debug)]
pub struct ExplainRequest {
    /// The instance.
    pub instance: Instance,
    /// The instance file it was read from, if any (its origin and picture are shown).
    pub spec: Option<InstanceSpec>,
    /// How to write the formula.
    pub format: Format,
    /// Plain ASCII connectives instead of ¬ and ∨.
    pub ascii: bool,
    /// Text: at most this many clauses per group (the rest are counted).
    pub limit: Option<u64>,
    /// LaTeX: every clause written out (otherwise only for n <= 5).
    pub expand: bool,
    /// The output file (stdout when `None`).
    pub output: Option<PathBuf>,
    /// Explain even for n above [`MAX_N`].
    pub force: bool,
    /// The command line, for the comments of the DIMACS file.
    pub command_line: Option<String>,
}

/// Why a formula could not be explained.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// The symmetry-breaking clauses are not listed.
    #[error("explain lists the model's clauses and does not list the symmetry-breaking ones; use `queens-sat encode` with {p} {0} for the whole formula", p = Param::SymmetryBreaking)]
    SymmetryBreaking(SymmetryBreaking),
    /// The redundant constraints are not listed.
    #[error("explain lists the model's clauses and does not list the redundant constraints; use `queens-sat encode` with {p} {0} for the whole formula", p = Param::Redundant)]
    Redundant(crate::encode::redundant::RedundantSet),
    /// n above [`MAX_N`] without `force`.
    #[error("explain prints every clause, about n^3 of them; n = {0} is above {MAX_N}: use {limit} with {force}, or `encode` for DIMACS", limit = Param::Limit, force = Param::Force)]
    TooManyClauses(usize),
    /// The formula is past [`Limits::STREAM`].
    #[error("{0}; use a smaller n or {amo} sequential", amo = Param::Amo)]
    TooLarge(InstanceError),
    /// The output cannot be written.
    #[error("{0}")]
    Output(#[from] OutputError),
}

/// Writes the formula of `req` in its format.
pub fn explain(req: &ExplainRequest) -> Result<Ending, ExplainError> {
    let instance = &req.instance;
    if instance.symmetry_breaking().is_on() {
        return Err(ExplainError::SymmetryBreaking(instance.symmetry_breaking()));
    }
    let redundant = instance.encoding().redundant();
    if !redundant.is_empty() {
        return Err(ExplainError::Redundant(redundant));
    }
    let n = instance.n();
    if n > MAX_N && !req.force {
        return Err(ExplainError::TooManyClauses(n));
    }
    let notation = if req.ascii {
        Notation::Ascii
    } else {
        Notation::Unicode
    };
    // Refused even with `force`, which lifts only the rule above.
    instance
        .check_size(Limits::STREAM)
        .map_err(ExplainError::TooLarge)?;
    // The part of the instance beyond the model: pre-placed queens, forbidden cells, and
    // where it comes from.
    let spec = req.spec.as_ref();
    let has_cells = !instance.is_empty_board();
    let tail = fixed_clauses(instance);
    let origin = spec.map(|s| s.comment_lines()).unwrap_or_default();
    let picture = spec.filter(|s| s.n <= 40).map(|s| s.picture());
    let header = instance.dimacs_header(req.command_line.as_deref());
    let fixed_part = |w: &mut dyn Write| -> std::io::Result<()> {
        if has_cells || spec.is_some() {
            let model_clauses = instance.encoding().size().clauses;
            write_fixed_readable(
                instance,
                model_clauses,
                w,
                &origin,
                picture.as_deref(),
                notation,
            )?;
        }
        Ok(())
    };
    let expand = req.expand || n <= 5;
    let output = req.output.as_deref();
    // Whatever the model: the listings are in the encoding's own words.
    let enc = instance.encoding();
    write_output(output, |w| match req.format {
        Format::Text => fixed_part(write_readable(enc, w, notation, req.limit)?),
        Format::Latex => write_latex(enc, w, expand, &tail).map(|_| ()),
        Format::DimacsCommented => write_dimacs_commented(enc, w, &header, &tail).map(|_| ()),
    })?;
    Ok(Ending::Success)
}
