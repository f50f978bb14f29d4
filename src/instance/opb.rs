//! The instance as a pseudo-Boolean problem in the OPB format of the Pseudo-Boolean
//! Competition (`encode --format opb`), for solvers that reason on linear constraints
//! themselves (minisat+, sat4j's PB solver, Exact).
//!
//! The first line is `* #variable= V #constraint= C`; comment lines start with `*`; then one
//! constraint a line, `+1 x1 +1 x2 ... = 1 ;`. The variables are the board's cells with their
//! DIMACS numbers (`x5` is variable 5, the cell `r*n + c + 1`), so an answer reads back like a
//! SAT model of the model's cell variables. Only the relations `>=` and `=` are used (at most
//! one is `-1 x ... >= -1`), which every OPB reader takes.
//!
//! Constraints: every row exactly one queen; every column at most one (exactly one with
//! `--redundant permutation`); every diagonal of two or more cells at most one (square or
//! torus); a pre-placed queen `+1 x = 1`, a forbidden cell `+1 x = 0`. With
//! `--redundant diagonals`, an occupancy variable per diagonal of two or more cells (numbered
//! after the cells, `/` diagonals first), tied to its cells (`o <= sum of cells`,
//! `o >= cell`), and exactly `n` occupied diagonals per direction (corner cells count as their
//! own occupancy). With `--redundant sums`, the two linear equalities themselves, over the
//! cells with 1-based row `r` and column `c`: `sum (r + c) x = n(n + 1)` and
//! `sum (r - c) x = 0` (terms with coefficient 0, the main diagonal's, left out).
//!
//! Only models whose variables are the cells can be written this way (the cell model, the
//! column model's direct domain: [`crate::encode::Encoding::cell_variables`]); the other
//! models, and symmetry breaking (whose clauses have no short linear form here), are refused
//! with [`OpbError`].

use super::Instance;
use crate::board::{Geometry, Line, LineKind};
use crate::encode::redundant::{Redundant, WithRedundant};
use std::any::Any;
use std::io::{self, Write};

/// The models that OPB can express, for messages.
pub const OPB_MODELS: &str =
    "--model cells (any --amo) or --model columns --domain direct (any --amo, --constraints conflict or support)";

/// Why an instance has no OPB form, or the file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OpbError {
    /// The model's variables are not the board's cells.
    #[error("--format opb needs a model whose variables are the board's cells, not {model} (valid: {OPB_MODELS})")]
    Model {
        /// The model's name.
        model: String,
    },
    /// Cubes (iCNF) were asked for.
    #[error("--format opb writes no cubes (valid: --format dimacs with --cubes)")]
    Cubes,
    /// Symmetry breaking was asked for.
    #[error("--format opb writes the board's constraints without symmetry breaking (valid: --symmetry-breaking none)")]
    Symmetry,
    /// The writer failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// `+1 x1 +1 x2 ...` (or `-1 ...`) over 1-based variable numbers.
fn terms(coef: i64, vars: &[usize]) -> String {
    vars.iter()
        .map(|v| format!("{coef:+} x{v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The cells (DIMACS numbers) of every line of `kind`.
fn lines(n: usize, geometry: Geometry, kind: LineKind) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); Line::count_on(kind, n, geometry)];
    for r in 0..n {
        for c in 0..n {
            let i = match kind {
                LineKind::Row => r,
                LineKind::Column => c,
                LineKind::Diagonal => geometry.diagonal(n, r, c),
                LineKind::AntiDiagonal => geometry.anti_diagonal(n, r, c),
            };
            out[i].push(r * n + c + 1);
        }
    }
    out
}

impl Instance {
    /// The constraints of the OPB form, one a line (without the header), and the number of
    /// variables; [`OpbError`] when the model cannot be written so.
    pub fn opb_constraints(&self) -> Result<(usize, Vec<String>), OpbError> {
        let enc = self.encoding();
        if !enc.cell_variables() {
            return Err(OpbError::Model { model: enc.name() });
        }
        if self.symmetry_breaking().is_on() {
            return Err(OpbError::Symmetry);
        }
        let any: &dyn Any = enc;
        let set = any
            .downcast_ref::<WithRedundant>()
            .map(|w| w.set())
            .unwrap_or_default();
        let (n, geometry) = (self.n(), self.geometry());
        let mut out = Vec::new();
        for row in lines(n, geometry, LineKind::Row) {
            out.push(format!("{} = 1 ;", terms(1, &row)));
        }
        for col in lines(n, geometry, LineKind::Column) {
            if set.contains(Redundant::Permutation) {
                out.push(format!("{} = 1 ;", terms(1, &col)));
            } else if col.len() >= 2 {
                out.push(format!("{} >= -1 ;", terms(-1, &col)));
            }
        }
        let mut vars = n * n;
        for kind in [LineKind::Diagonal, LineKind::AntiDiagonal] {
            let diagonals = lines(n, geometry, kind);
            for d in diagonals.iter().filter(|d| d.len() >= 2) {
                out.push(format!("{} >= -1 ;", terms(-1, d)));
            }
            if set.contains(Redundant::Diagonals) {
                let mut occupied = Vec::new();
                for d in &diagonals {
                    if d.len() == 1 {
                        occupied.push(d[0]);
                        continue;
                    }
                    vars += 1;
                    occupied.push(vars);
                    out.push(format!("{} -1 x{vars} >= 0 ;", terms(1, d)));
                    for &cell in d {
                        out.push(format!("+1 x{vars} -1 x{cell} >= 0 ;"));
                    }
                }
                out.push(format!("{} = {n} ;", terms(1, &occupied)));
            }
        }
        if set.contains(Redundant::Sums) {
            let cell = |r: usize, c: usize| r * n + c + 1;
            let plus: Vec<String> = (0..n)
                .flat_map(|r| (0..n).map(move |c| (r, c)))
                .map(|(r, c)| format!("+{} x{}", r + c + 2, cell(r, c)))
                .collect();
            out.push(format!("{} = {} ;", plus.join(" "), n * (n + 1)));
            let minus: Vec<String> = (0..n)
                .flat_map(|r| (0..n).map(move |c| (r, c)))
                .filter(|(r, c)| r != c)
                .map(|(r, c)| format!("{:+} x{}", r as i64 - c as i64, cell(r, c)))
                .collect();
            if !minus.is_empty() {
                out.push(format!("{} = 0 ;", minus.join(" ")));
            }
        }
        for &(r, c) in self.placed() {
            out.push(format!("+1 x{} = 1 ;", r * n + c + 1));
        }
        for &(r, c) in self.forbidden() {
            out.push(format!("+1 x{} = 0 ;", r * n + c + 1));
        }
        Ok((vars, out))
    }

    /// Writes the instance in OPB to `out` and returns it flushed: the header line, comments
    /// (the tool, n, the model, the command line), the constraints.
    pub fn write_opb<W: Write>(&self, mut out: W, command: Option<&str>) -> Result<W, OpbError> {
        let (vars, constraints) = self.opb_constraints()?;
        writeln!(
            out,
            "* #variable= {vars} #constraint= {}",
            constraints.len()
        )?;
        writeln!(
            out,
            "* {} {}: n-queens, pseudo-Boolean (OPB)",
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION")
        )?;
        writeln!(out, "* n = {}", self.n())?;
        writeln!(
            out,
            "* pseudo-Boolean form of {}: x(r*n+c+1) = a queen on row r, column c (0-based), the DIMACS numbers of the cells",
            self.encoding().name()
        )?;
        if let Some(cmd) = command {
            writeln!(out, "* command: {cmd}")?;
        }
        for line in &constraints {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        Ok(out)
    }
}
