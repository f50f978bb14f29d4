//! How the results of a solve are written, in each [`Format`]: one solution
//! ([`write_solution`]), none ([`write_unsat`], [`unsat_message`]), a solution of a list
//! ([`write_listed`]). [`super::solve`] writes with them; other front ends may too.

use super::{Ending, Failure};
use crate::board::Placement;
use crate::cnf::Lit;
use crate::instance::{Formula, Instance};
use crate::output::write_output;
use std::io::{self, Write};
use std::path::Path;

/// How to write solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The board as a text grid (Q for a queen) and the one-line form.
    Board,
    /// The one-line form: 1-based columns row by row.
    Line,
    /// JSON.
    Json,
    /// SAT-competition style: `s SATISFIABLE` and `v` lines; ends in
    /// [`Ending::Satisfiable`] or [`Ending::Unsatisfiable`].
    Competition,
    /// SVG: the board drawn with its queens (one solution).
    Svg,
}

/// "no solution exists for n = 8 with queens on (1,1), (2,3)" (or the plain form).
pub fn unsat_message(inst: &Instance) -> String {
    let (place, forbid) = (inst.placed(), inst.forbidden());
    let cells = |v: &[(usize, usize)]| {
        v.iter()
            .map(|(r, c)| format!("({},{})", r + 1, c + 1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = format!("no solution exists for n = {}", inst.n());
    if !place.is_empty() {
        s.push_str(&format!(" with queens on {}", cells(place)));
    }
    if !forbid.is_empty() {
        s.push_str(if place.is_empty() { " with " } else { " and " });
        s.push_str(&format!("cells {} empty", cells(forbid)));
    }
    s
}

/// Writes that `inst` has no solution, in `format`, with a note (who answered) if any.
pub fn write_unsat(
    out: &mut dyn Write,
    format: Format,
    inst: &Instance,
    note: Option<&str>,
) -> io::Result<Ending> {
    match format {
        Format::Board | Format::Line | Format::Svg => {
            writeln!(out, "{}", unsat_message(inst))?;
            if let Some(note) = note {
                writeln!(out, "({note})")?;
            }
            Ok(Ending::Success)
        }
        Format::Json => {
            let v = serde_json::json!({"n": inst.n(), "satisfiable": false, "solution": null});
            writeln!(out, "{v}")?;
            Ok(Ending::Success)
        }
        Format::Competition => {
            writeln!(out, "c {}", unsat_message(inst))?;
            if let Some(note) = note {
                writeln!(out, "c {note}")?;
            }
            writeln!(out, "s UNSATISFIABLE")?;
            Ok(Ending::Unsatisfiable)
        }
    }
}

/// The 1-based columns of a placement, as JSON lists them.
fn json_cols(p: &Placement) -> Vec<u32> {
    p.cols().iter().map(|c| c + 1).collect()
}

/// Writes a solution `p` of `inst` (with its full `model`, for the `v` lines) in `format`
/// under `header`; an SVG goes to `svg_output` (stdout when `None`).
pub fn write_solution(
    out: &mut dyn Write,
    format: Format,
    svg_output: Option<&Path>,
    inst: &Instance,
    p: &Placement,
    model: &[Lit],
    header: &str,
) -> Result<Ending, Failure> {
    let n = inst.n();
    match format {
        Format::Board => {
            writeln!(out, "n = {n}: {header}")?;
            write!(out, "{}", p.render_board())?;
            writeln!(out, "one-line: {}", p.to_one_line())?;
        }
        Format::Line => writeln!(out, "{}", p.to_one_line())?,
        Format::Svg => {
            let title = format!("n = {n}: {header} ({})", Formula::name(inst));
            write_output(svg_output, |w| {
                crate::board::picture::write_board(w, p, &title)
            })?;
        }
        Format::Json => {
            let v = serde_json::json!({"n": n, "satisfiable": true, "solution": json_cols(p)});
            writeln!(out, "{v}")?;
        }
        Format::Competition => {
            writeln!(
                out,
                "c {} {}: n = {n}, {}",
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION"),
                inst.describe()
            )?;
            writeln!(out, "c {header}")?;
            writeln!(out, "c one-line: {}", p.to_one_line())?;
            writeln!(out, "s SATISFIABLE")?;
            crate::cnf::write_v_lines(out, model)?;
            return Ok(Ending::Satisfiable);
        }
    }
    Ok(Ending::Success)
}

/// Writes solution number `k` (from 1) of a list in `format` (JSON: a list element, after a
/// comma from the second on).
pub fn write_listed(out: &mut dyn Write, format: Format, k: u64, p: &Placement) -> io::Result<()> {
    match format {
        Format::Board => {
            writeln!(out, "solution {k}:")?;
            write!(out, "{}", p.render_board())?;
            writeln!(out, "one-line: {}", p.to_one_line())?;
            writeln!(out)
        }
        Format::Line => writeln!(out, "{}", p.to_one_line()),
        Format::Json => {
            if k > 1 {
                write!(out, ",")?;
            }
            write!(out, "{}", serde_json::json!(json_cols(p)))
        }
        Format::Competition | Format::Svg => Ok(()),
    }
}
