//! `queens-sat trace N`: a small DPLL (or CDCL) search on the instance, every step recorded and
//! said in words, written as text, JSON or one HTML page ([`trace`]).

use super::Ending;
use crate::instance::Instance;
use crate::output::{write_output, OutputError};
use crate::trace::{TraceError, TraceOptions, MAX_HTML_N};
use std::path::PathBuf;

/// How to write the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Step by step in words, with small boards.
    Text,
    /// One JSON object.
    Json,
    /// One self-contained HTML page (n <= [`MAX_HTML_N`]).
    Html,
}

/// A trace as `queens-sat trace` asks for it.
#[derive(Clone, Debug)]
pub struct TraceRequest {
    /// The instance.
    pub instance: Instance,
    /// How to write the trace.
    pub format: Format,
    /// The search.
    pub options: TraceOptions,
    /// The output file (stdout when `None`), written whole or not at all.
    pub output: Option<PathBuf>,
}

/// Why a trace could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum TraceCommandError {
    /// The search could not be traced.
    #[error("{0}")]
    Trace(#[from] TraceError),
    /// The output cannot be written.
    #[error("{0}")]
    Output(#[from] OutputError),
}

/// Traces the search on the instance of `req` and writes it.
pub fn trace(req: &TraceRequest) -> Result<Ending, TraceCommandError> {
    let n = req.instance.n();
    if req.format == Format::Html && n > MAX_HTML_N {
        return Err(TraceError::BoardTooLarge { n, max: MAX_HTML_N }.into());
    }
    let t = crate::trace::trace(&req.instance, &req.options)?;
    write_output(req.output.as_deref(), |w| match req.format {
        Format::Text => t.write_text(w),
        Format::Json => t.write_json(w),
        Format::Html => t.write_html(w),
    })?;
    Ok(Ending::Success)
}
