//! `queens-sat construct N`: a solution by a closed-form construction, no search
//! ([`construct`]).
//!
//! The one-line form is streamed from the construction (constant memory); with `check` the
//! placement is stored, verified in O(n) and the case that made it reported on the log; the
//! board format draws small boards.

use super::Ending;
use crate::construct::{verify, ConstructError, Construction, Method};
use crate::instance::human_bytes;
use crate::output::{write_output, OutputError};
use crate::vocabulary::Param;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Largest n drawn as a board of text (a row is 2n - 1 characters wide).
pub const MAX_BOARD_N: usize = 100;

/// Bytes per queen that the check needs: the placement (one `u32`) and the checker's bit sets
/// (one bit per column and per diagonal of each direction, 5 bits, rounded up to a byte).
const CHECK_BYTES_PER_QUEEN: u64 = 4 + 1;

/// How to write the placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The one-line form: 1-based columns row by row, e.g. `2 4 1 3`.
    Line,
    /// The board drawn with `Q` and `.` (n <= [`MAX_BOARD_N`]).
    Board,
    /// SVG: a chessboard with queens, a dot plot for large n.
    Svg,
    /// Nothing (with the check: only verify).
    None,
}

/// A construction as `queens-sat construct` asks for it.
#[derive(Clone, Debug)]
pub struct ConstructRequest {
    /// Board size.
    pub n: usize,
    /// The construction.
    pub method: Method,
    /// How to write the placement.
    pub format: Format,
    /// Verify the placement in O(n) and say on the log which case made it.
    pub check: bool,
    /// The output file (stdout when `None`), written whole or not at all.
    pub output: Option<PathBuf>,
}

/// Why a construction could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum ConstructCommandError {
    /// A board too large to draw as text.
    #[error("{0} board draws boards up to n = {MAX_BOARD_N} (n = {n} would be {1} characters wide); use the one-line form ({0} line)", Param::Format, 2 * .n - 1)]
    BoardTooLarge {
        /// Board size.
        n: usize,
    },
    /// A board too large to draw as SVG.
    #[error("{0} svg draws boards up to n = {1} (n = {n} would make a picture of {n} dots); use the one-line form ({0} line)", Param::Format, crate::board::picture::MAX_DOT_PLOT_N)]
    SvgTooLarge {
        /// Board size.
        n: usize,
    },
    /// The check needs more memory than there is.
    #[error("n = {n} with {0} needs about {1} of memory, only {2} is available; drop {0} to stream the answer in constant memory", Param::Check, human_bytes(*.need), human_bytes(*.available))]
    Memory {
        /// Board size.
        n: usize,
        /// Bytes needed.
        need: u64,
        /// Bytes available.
        available: u64,
    },
    /// The construction failed.
    #[error("{0}")]
    Construct(#[from] ConstructError),
    /// The output file or standard output cannot be written.
    #[error(transparent)]
    Failure(#[from] super::Failure),
}

failures_into!(ConstructCommandError: OutputError, std::io::Error);

/// Bytes of memory the kernel reports as available, if it says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Builds and writes the placement of `req`: "no solution exists" on `out` for n = 2 and 3;
/// with the check, the verdict and the case on `log`, and [`Ending::Failure`] if the placement
/// were not a solution.
pub fn construct(
    req: &ConstructRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Ending, ConstructCommandError> {
    let n = req.n;
    if req.format == Format::Board && n > MAX_BOARD_N {
        return Err(ConstructCommandError::BoardTooLarge { n });
    }
    if req.format == Format::Svg && n > crate::board::picture::MAX_DOT_PLOT_N {
        return Err(ConstructCommandError::SvgTooLarge { n });
    }
    let started = Instant::now();
    let Some(construction) = Construction::new(n, req.method)? else {
        writeln!(out, "no solution exists for n = {n}")?;
        return Ok(Ending::Success);
    };
    let case = construction.case();
    if !req.check {
        write_placement(req, &construction, None)?;
        return Ok(Ending::Success);
    }
    let need = (n as u64).saturating_mul(CHECK_BYTES_PER_QUEEN);
    if let Some(available) = available_memory().filter(|&a| need > a) {
        return Err(ConstructCommandError::Memory { n, need, available });
    }
    let placement = construction.placement()?;
    let built = started.elapsed();
    let checked_at = Instant::now();
    let verdict = verify(&placement);
    let checked = checked_at.elapsed();
    match verdict {
        Ok(()) => {
            let _ = writeln!(
                log,
                "n = {n}: {} case {case} ({}): valid, checked in O(n) \
                 (construct {:.1} ms, check {:.1} ms)",
                req.method,
                case.description(),
                built.as_secs_f64() * 1e3,
                checked.as_secs_f64() * 1e3
            );
        }
        Err(v) => {
            let _ = writeln!(
                log,
                "n = {n}: {} case {case} ({}) is NOT a solution: {v}",
                req.method,
                case.description()
            );
            return Ok(Ending::Failure);
        }
    }
    write_placement(req, &construction, Some(placement.cols()))?;
    Ok(Ending::Success)
}

/// Writes in the chosen format, from the stored columns when there are some, else streamed
/// from the construction.
fn write_placement(
    req: &ConstructRequest,
    construction: &Construction,
    stored: Option<&[u32]>,
) -> Result<(), ConstructCommandError> {
    let output = req.output.as_deref();
    match req.format {
        Format::None => {}
        Format::Line => write_output(output, |w| match stored {
            Some(cols) => crate::construct::write_one_line(cols.iter().copied(), w),
            None => construction.write_one_line(w),
        })?,
        Format::Board => {
            let text = construction.placement()?.render_board();
            write_output(output, |w| w.write_all(text.as_bytes()))?
        }
        Format::Svg => {
            let placement = construction.placement()?;
            let title = format!(
                "n = {}: {} construction, case {}",
                placement.n(),
                req.method,
                construction.case()
            );
            write_output(output, |w| {
                crate::board::picture::write_board(w, &placement, &title)
            })?
        }
    }
    Ok(())
}
