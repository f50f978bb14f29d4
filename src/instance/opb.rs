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
//! torus); a pre-placed queen `+1 x = 1`, a forbidden cell `+1 x = 0`.
//!
//! The redundant constraints are stated over *occupancies*: a variable `o` per line of two or
//! more cells, defined as the number of queens on the line (`+1 cells... -1 o = 0`, so 0 or
//! 1), numbered after the cells in the order the constraints first use them (a line of one
//! cell is its own occupancy). With `--redundant diagonals`, exactly `n` occupied diagonals
//! per direction. With `--redundant sums`, over the square's lines `r + c = v` and
//! `r - c = v` (1-based rows and columns; on the torus, the parts of the wrapped diagonals):
//! `sum v o = n(n + 1)` and `sum v o = 0`. With `--redundant moments`, over the same lines:
//! `sum (v - n - 1)^2 o + sum v^2 o = n(n^2 - 1)/3`. Terms of weight 0 are left out. Over
//! the cells these equalities would be linear combinations of the rows and columns, and so
//! worthless to a solver that reasons on linear relaxations; over the occupancies, where each
//! line counts once, they carry the counting arguments of the search (docs/experiments.md).
//!
//! Only models whose variables are the cells can be written this way (the cell model, the
//! column model's direct domain: [`crate::encode::Encoding::cell_variables`]); the other
//! models, and symmetry breaking (whose clauses have no short linear form here), are refused
//! with [`OpbError`].

use super::{Instance, InstanceError, Model};
use crate::board::{Geometry, Line, LineKind};
use crate::encode::redundant::{moment_lines, moments_total, sum_lines, Redundant};
use crate::proof::OpbAnchors;
use crate::vocabulary::Param;
use std::collections::HashMap;
use std::io::{self, Write};

/// The models that OPB can express, for messages.
pub struct OpbModels;

impl std::fmt::Display for OpbModels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::vocabulary::Param::{Amo, Constraints, Domain, Model};
        write!(
            f,
            "{Model} cells (any {Amo}) or {Model} columns {Domain} direct (any {Amo}, {Constraints} conflict or support)"
        )
    }
}

/// Why an instance has no OPB form, or the file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OpbError {
    /// The model's variables are not the board's cells.
    #[error("{} opb needs a model whose variables are the board's cells, not {model} (valid: {OpbModels})", Param::Format)]
    Model {
        /// The model's name.
        model: String,
    },
    /// Cubes (iCNF) were asked for.
    #[error(
        "{0} opb writes no cubes (valid: {0} dimacs with {1})",
        Param::Format,
        Param::Cubes
    )]
    Cubes,
    /// Symmetry breaking was asked for.
    #[error(
        "{} opb writes the board's constraints without symmetry breaking (valid: {} none)",
        Param::Format,
        Param::SymmetryBreaking
    )]
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

/// The occupancy variables of the lines (by their cells' DIMACS numbers), numbered after the
/// cells in the order they are defined.
struct Occupancy {
    vars: usize,
    defined: HashMap<Vec<usize>, usize>,
    /// The line of the form that defines each occupancy variable.
    lines: Vec<(usize, usize)>,
}

impl Occupancy {
    /// The variable of the line `cells`: its cell for a line of one cell, else the line's
    /// occupancy, defined at its first use as the number of queens on the line
    /// (`+1 cells... -1 o = 0`, 0 or 1 since the line holds at most one).
    fn of(&mut self, cells: &[usize], out: &mut Vec<String>) -> usize {
        if cells.len() == 1 {
            return cells[0];
        }
        if let Some(&o) = self.defined.get(cells) {
            return o;
        }
        self.vars += 1;
        let o = self.vars;
        self.lines.push((o, out.len()));
        out.push(format!("{} -1 x{o} = 0 ;", terms(1, cells)));
        self.defined.insert(cells.to_vec(), o);
        o
    }
}

/// `sum w x = total` over the terms of non-zero weight; nothing when there is none (n = 1).
/// Whether a line was written.
fn push_weighted(weighted: &[(i64, usize)], total: i64, out: &mut Vec<String>) -> bool {
    let terms: Vec<String> = weighted
        .iter()
        .filter(|t| t.0 != 0)
        .map(|(w, x)| format!("{w:+} x{x}"))
        .collect();
    if terms.is_empty() {
        return false;
    }
    out.push(format!("{} = {total} ;", terms.join(" ")));
    true
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

/// The ids VeriPB gives the constraints of one line of the form: two for an equality.
fn ids_of(line: &str) -> u64 {
    if line.contains(" >= ") {
        1
    } else {
        2
    }
}

/// The ids of the lines of a form being written, counted as they come.
#[derive(Default)]
struct Ids {
    /// The lines counted so far.
    counted: usize,
    /// The ids they take.
    ids: u64,
}

impl Ids {
    /// The id the next line of `out` gets.
    fn next(&mut self, out: &[String]) -> u64 {
        self.ids += out[self.counted..].iter().map(|l| ids_of(l)).sum::<u64>();
        self.counted = out.len();
        self.ids + 1
    }
}

impl Instance {
    /// The constraints of the OPB form, one a line (without the header), and the number of
    /// variables; [`OpbError`] when the model cannot be written so.
    pub fn opb_constraints(&self) -> Result<(usize, Vec<String>), OpbError> {
        self.opb_form().map(|(vars, lines, _)| (vars, lines))
    }

    /// The constraints of the OPB form ([`Instance::opb_constraints`]) with where each kind
    /// stands ([`OpbAnchors`]).
    pub fn opb_form(&self) -> Result<(usize, Vec<String>, OpbAnchors), OpbError> {
        let enc = self.encoding();
        if !enc.cell_variables() {
            return Err(OpbError::Model { model: enc.name() });
        }
        if self.symmetry_breaking().is_on() {
            return Err(OpbError::Symmetry);
        }
        let set = enc.redundant();
        let (n, geometry) = (self.n(), self.geometry());
        let mut out = Vec::new();
        let mut anchors = OpbAnchors {
            columns_exact: set.contains(Redundant::Permutation),
            ..OpbAnchors::default()
        };
        let mut ids = Ids::default();
        for row in lines(n, geometry, LineKind::Row) {
            anchors.rows.push(ids.next(&out));
            out.push(format!("{} = 1 ;", terms(1, &row)));
        }
        for col in lines(n, geometry, LineKind::Column) {
            if set.contains(Redundant::Permutation) {
                anchors.columns.push(Some(ids.next(&out)));
                out.push(format!("{} = 1 ;", terms(1, &col)));
            } else if col.len() >= 2 {
                anchors.columns.push(Some(ids.next(&out)));
                out.push(format!("{} >= -1 ;", terms(-1, &col)));
            } else {
                anchors.columns.push(None);
            }
        }
        let mut occupancy = Occupancy {
            vars: n * n,
            defined: HashMap::new(),
            lines: Vec::new(),
        };
        for (k, kind) in [LineKind::Diagonal, LineKind::AntiDiagonal]
            .into_iter()
            .enumerate()
        {
            let diagonals = lines(n, geometry, kind);
            let by_index = &mut anchors.diagonals[k];
            by_index.resize(2 * n, None);
            // `lines` gives the diagonals in the order of their index.
            for (index, d) in diagonals.iter().enumerate().filter(|(_, d)| d.len() >= 2) {
                by_index[index] = Some(ids.next(&out));
                out.push(format!("{} >= -1 ;", terms(-1, d)));
            }
            if set.contains(Redundant::Diagonals) {
                let occupied: Vec<usize> = diagonals
                    .iter()
                    .map(|d| occupancy.of(d, &mut out))
                    .collect();
                anchors.occupancy[k] = occupied.iter().map(|&o| Some(o as u64)).collect();
                anchors.occupancy[k].resize(2 * n, None);
                anchors.counts[k] = Some(ids.next(&out));
                out.push(format!("{} = {n} ;", terms(1, &occupied)));
            }
        }
        // The square's lines as the CNF's sums and moments read them, their cells as DIMACS
        // numbers.
        let dimacs = |line: &[usize]| -> Vec<usize> { line.iter().map(|&i| i + 1).collect() };
        if set.contains(Redundant::Sums) {
            // Over the occupancies of the square's lines, each line's index counted once.
            for (k, (plus, total)) in [(true, n as i64 * (n as i64 + 1)), (false, 0)]
                .into_iter()
                .enumerate()
            {
                let weighted: Vec<(i64, usize)> = sum_lines(n, plus)
                    .iter()
                    .map(|(v, line)| (*v, occupancy.of(&dimacs(line), &mut out)))
                    .collect();
                let id = ids.next(&out);
                if push_weighted(&weighted, total, &mut out) {
                    anchors.sums[k] = Some(id);
                }
            }
        }
        if set.contains(Redundant::Moments) {
            let weighted: Vec<(i64, usize)> = moment_lines(n)
                .iter()
                .map(|(w, line)| (*w as i64, occupancy.of(&dimacs(line), &mut out)))
                .collect();
            let id = ids.next(&out);
            if push_weighted(&weighted, moments_total(n) as i64, &mut out) {
                anchors.moments = Some(id);
            }
        }
        let vars = occupancy.vars;
        for &(r, c) in self.placed() {
            anchors.cells.insert(r * n + c, ids.next(&out));
            out.push(format!("+1 x{} = 1 ;", r * n + c + 1));
        }
        for &(r, c) in self.forbidden() {
            anchors.cells.insert(r * n + c, ids.next(&out) + 1);
            out.push(format!("+1 x{} = 0 ;", r * n + c + 1));
        }
        anchors.ids = ids.next(&out) - 1;
        // Each definition's id: one past the ids of the lines before it.
        let mut first = Vec::with_capacity(out.len());
        let mut id = 1;
        for line in &out {
            first.push(id);
            id += ids_of(line);
        }
        for &(o, line) in &occupancy.lines {
            anchors.definitions.insert(o as u64, first[line]);
        }
        Ok((vars, out, anchors))
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

/// The redundant constraints of the OPB form that the certificates of refutations refer to
/// (the search's, the propagator's, Exact's translated logs).
pub const CERTIFICATE_FORM: &str = "diagonals,sums,moments";

/// The instance's OPB form that the certificates refer to: the cell model, pairwise at most
/// one, with the counts, sums and moments ([`CERTIFICATE_FORM`]), the instance's cells.
pub fn certificate_form(inst: &Instance) -> Result<Instance, InstanceError> {
    let set = CERTIFICATE_FORM
        .parse()
        .expect("the certificate's redundant constraints are known names");
    let model = Model::default().with_redundant(set);
    Instance::new_on(inst.n(), model, inst.geometry())?.with_cells(inst.placed(), inst.forbidden())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::catalogue::Model;

    /// The OPB's constraints and variable count for the cell model with `redundant`.
    fn opb(n: usize, redundant: &str, geometry: Geometry) -> (usize, Vec<String>) {
        let model = Model::default().with_redundant(redundant.parse().unwrap());
        Instance::new_on(n, model, geometry)
            .unwrap()
            .opb_constraints()
            .unwrap()
    }

    /// Each line of two or more cells gets one occupancy, defined once, whichever of
    /// `diagonals`, `sums` and `moments` asks for it: `2(2n - 3)` on the square.
    #[test]
    fn occupancies_are_defined_once_and_shared() {
        for n in 2..=9 {
            for set in ["diagonals", "sums", "moments", "diagonals,sums,moments"] {
                let (vars, lines) = opb(n, set, Geometry::Square);
                assert_eq!(vars, n * n + 2 * (2 * n - 3), "{set} n={n}");
                for o in n * n + 1..=vars {
                    let defined = lines
                        .iter()
                        .filter(|l| l.ends_with(&format!(" -1 x{o} = 0 ;")))
                        .count();
                    assert_eq!(defined, 1, "{set} n={n} x{o}");
                }
            }
        }
    }

    /// At n = 4 the weights of `moments` are the lines' squared distances from the middle (by
    /// hand: 9, 4, 1, 0, 1, 4, 9 per direction, the 0 left out) and the total is
    /// `4 (4^2 - 1) / 3 = 20`.
    #[test]
    fn the_moments_line_at_n_4() {
        let (_, lines) = opb(4, "moments", Geometry::Square);
        let last = lines.last().unwrap();
        assert!(last.ends_with(" = 20 ;"), "{last}");
        let weights: Vec<i64> = last
            .split_whitespace()
            .filter_map(|t| t.strip_prefix('+').and_then(|w| w.parse().ok()))
            .collect();
        // Six lines per direction (the middle one weighs 0): 9, 4, 1, 1, 4, 9 twice.
        let mut sorted = weights.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [1, 1, 1, 1, 4, 4, 4, 4, 9, 9, 9, 9]);
    }
}
