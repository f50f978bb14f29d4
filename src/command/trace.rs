//! `queens-sat trace N` (or `trace FILE.cnf`): a small backtracking, DPLL or CDCL search on
//! the instance or the DIMACS file, every step recorded and said in words, written as text,
//! JSON or one HTML page ([`trace`]).

use super::Ending;
use crate::cnf::DimacsError;
use crate::grade::CellMap;
use crate::instance::{Formula, Instance};
use crate::output::{write_output, OutputError};
use crate::trace::{CnfBoard, CnfTraceError, Shown, Trace, TraceError, TraceOptions, MAX_HTML_N};
use std::io::BufReader;
use std::path::PathBuf;

/// How to write the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Step by step in words, with small boards: the parts of the text shown.
    Text(Shown),
    /// One JSON object.
    Json,
    /// One self-contained HTML page (n <= [`MAX_HTML_N`]).
    Html,
}

/// What is traced.
#[derive(Clone, Debug)]
pub enum TraceInput {
    /// An instance (`trace N` with its options).
    Instance(Box<Instance>),
    /// A DIMACS file, with a map of its cells (`--map FILE`, as `grade` reads it) or without
    /// (then its queens-sat header, if any, gives the board).
    Cnf {
        /// The DIMACS file.
        path: PathBuf,
        /// The map file.
        map: Option<PathBuf>,
    },
}

/// A trace as `queens-sat trace` asks for it.
#[derive(Clone, Debug)]
pub struct TraceRequest {
    /// What is traced.
    pub input: TraceInput,
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
    /// The DIMACS or map file cannot be read.
    #[error("cannot read {name}: {why}")]
    Read {
        /// The file.
        name: String,
        /// Why.
        why: String,
    },
    /// The DIMACS file is not DIMACS.
    #[error("{name} is not valid DIMACS")]
    NotDimacs {
        /// The file.
        name: String,
        /// What is wrong, and where.
        source: DimacsError,
    },
    /// The map does not fit the file.
    #[error("{0}")]
    Map(#[from] CnfTraceError),
}

/// Turns a command line written in a queens-sat header (`c command: ...`) into its instance.
pub type ParseCommand<'a> = &'a dyn Fn(&[String]) -> Result<Instance, String>;

/// Traces the search on the instance or file of `req` and writes it. `parse_command` reads
/// the command line of a DIMACS file's queens-sat header (the command line's own parser).
pub fn trace(req: &TraceRequest, parse_command: ParseCommand) -> Result<Ending, TraceCommandError> {
    let t = make_trace(req, parse_command)?;
    if req.format == Format::Html && t.n > MAX_HTML_N {
        return Err(TraceError::BoardTooLarge {
            n: t.n,
            max: MAX_HTML_N,
        }
        .into());
    }
    write_output(req.output.as_deref(), |w| match req.format {
        Format::Text(shown) => t.write_text_showing(w, shown),
        Format::Json => t.write_json(w),
        Format::Html => t.write_html(w),
    })?;
    Ok(Ending::Success)
}

fn make_trace(req: &TraceRequest, parse_command: ParseCommand) -> Result<Trace, TraceCommandError> {
    let (path, map) = match &req.input {
        TraceInput::Instance(inst) => {
            let n = inst.n();
            if req.format == Format::Html && n > MAX_HTML_N {
                return Err(TraceError::BoardTooLarge { n, max: MAX_HTML_N }.into());
            }
            return Ok(crate::trace::trace(inst, &req.options)?);
        }
        TraceInput::Cnf { path, map } => (path, map),
    };
    let name = path.display().to_string();
    let read_err = |name: &str, e: std::io::Error| TraceCommandError::Read {
        name: name.to_string(),
        why: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(|e| read_err(&name, e))?;
    let cnf =
        crate::grade::read_dimacs(BufReader::with_capacity(1 << 16, file)).map_err(|e| match &e
            .kind
        {
            crate::cnf::DimacsErrorKind::Io(why) => TraceCommandError::Read {
                name: name.clone(),
                why: why.to_string(),
            },
            _ => TraceCommandError::NotDimacs {
                name: name.clone(),
                source: e,
            },
        })?;
    let board = match map {
        Some(m) => {
            let map_name = m.display().to_string();
            let text = std::fs::read_to_string(m).map_err(|e| read_err(&map_name, e))?;
            CnfBoard::Cells(crate::trace::read_map(&text, &map_name, cnf.vars)?)
        }
        None => header_board(path, &cnf, parse_command),
    };
    Ok(crate::trace::trace_cnf(&cnf, &name, &board, &req.options)?)
}

/// The board a DIMACS file's queens-sat header gives: its instance when the file is that
/// instance's formula, clause for clause; the cells of the instance when they are variables
/// `1..n*n` row by row; none otherwise (no header, or one that cannot be used).
fn header_board(path: &std::path::Path, cnf: &crate::cnf::Dimacs, parse: ParseCommand) -> CnfBoard {
    let Ok((inst, _)) = super::verify::cnf_formula(path, None, parse) else {
        return CnfBoard::None;
    };
    if crate::trace::same_formula(&inst, cnf) {
        return CnfBoard::Instance(Box::new(inst));
    }
    let n = inst.n();
    let standard = (0..n * n)
        .all(|i| inst.value_lits(i / n, i % n) == [crate::cnf::Var::from_index(i).positive()]);
    if standard && n * n <= cnf.vars {
        CnfBoard::Cells(CellMap::standard(n))
    } else {
        CnfBoard::None
    }
}
