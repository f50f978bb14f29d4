//! Solving: the encoder's clauses handed to the embedded SAT solver (varisat), models turned
//! back into boards, all solutions enumerated and counted, and the answers of external solvers
//! read and checked.
//!
//! * [`solve`] finds one solution (or proves there is none); [`solve_model`] also returns the
//!   full model, auxiliary variables included.
//! * [`solutions`] iterates over every solution; [`count_solutions`] counts them in parallel;
//!   [`Enumeration`] gives control over the split into sub-problems, threads and a limit.
//! * [`parse_solver_answer`] reads SAT-competition output (`s`/`v` lines) or a MiniSat result
//!   file into an [`Assignment`]; [`run_external`] runs a solver command on the CNF.
//! * [`verify_assignment`] and [`verify_placement`] check an answer twice, independently: as a
//!   board ([`crate::check::check_placement`]) and clause by clause against the CNF.
//!
//! A [`SolveConfig`] carries the encoding options and the pre-placed queens and forbidden cells,
//! which become unit clauses after the encoder's clauses, so the solver answers "which
//! completions of this partial board exist?".
//!
//! Only the `n * n` cell variables are read back or blocked: auxiliary variables of an encoding
//! never make two models of the same board count twice.
//!
//! ```
//! use queens_sat::solve::{count_solutions, solve, SolveConfig};
//!
//! let cfg = SolveConfig::default();
//! let p = solve(8, &cfg).unwrap().expect("n = 8 has solutions");
//! assert!(queens_sat::check::is_solution(&p));
//! assert!(solve(3, &cfg).unwrap().is_none());
//! assert_eq!(count_solutions(6, &cfg).unwrap(), 4);
//! ```

mod enumerate;
mod external;
mod parse;
pub mod process;
mod verify;

pub use enumerate::{
    count_solutions, default_split_rows, solutions, Enumeration, Progress, Solutions,
};
pub use external::{
    dimacs_vars, output_bound, refute_unsat, run_external, run_external_with, run_solver,
    solver_version, ExternalAnswer, ExternalError, SolverCommand, SolverRun, VERSION_TIMEOUT,
};
pub use parse::{parse_solver_answer, AnswerFormat, Assignment, ParseAnswerError, SolverAnswer};
pub use process::kill_running;
pub use verify::{
    board_of, describe_lit, verify_assignment, verify_placement, BoardProblem, ClauseViolation,
    CnfProblem, ModelMismatch, VerifyReport,
};

use crate::board::Placement;
use crate::check::LineKind;
use crate::cnf::{ClauseSink, Cnf, DimacsHeader, GroupInfo, Lit};
use crate::encode::{cell_lit, cell_of_var, EncodeError, EncodeOptions, QueensEncoder};
use std::io;

/// What to solve besides the board size: the encoding, and a partial board to complete.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveConfig {
    /// The encoding of the at-most-one constraints and the optional redundant clauses.
    pub options: EncodeOptions,
    /// Cells (0-based row, column) that must hold a queen.
    pub place: Vec<(usize, usize)>,
    /// Cells (0-based row, column) that must stay empty.
    pub forbid: Vec<(usize, usize)>,
}

/// Why a problem could not be set up or solved. Cells are stored 0-based and shown 1-based.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The encoder refused the size.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// A pre-placed or forbidden cell is off the board.
    #[error("{what} cell ({},{}) is outside the {n} x {n} board", .cell.0 + 1, .cell.1 + 1)]
    CellOutOfRange {
        /// `"placed"` or `"forbidden"`.
        what: &'static str,
        /// The cell.
        cell: (usize, usize),
        /// Board size.
        n: usize,
    },
    /// A cell is both pre-placed and forbidden.
    #[error("cell ({},{}) is both placed and forbidden", .0 .0 + 1, .0 .1 + 1)]
    PlacedAndForbidden((usize, usize)),
    /// Two pre-placed queens attack each other.
    #[error("placed queens at ({},{}) and ({},{}) share a {}", .a.0 + 1, .a.1 + 1, .b.0 + 1, .b.1 + 1, .line.name())]
    PlacedQueensAttack {
        /// The line they share.
        line: LineKind,
        /// One queen.
        a: (usize, usize),
        /// The other.
        b: (usize, usize),
    },
    /// The embedded solver failed (it is not interrupted and writes no proof, so this is not
    /// expected).
    #[error("the embedded solver failed: {0}")]
    Solver(String),
    /// The embedded solver returned a model that is not a solution: a bug in an encoding.
    #[error("internal error: the solver's model is not a solution ({0})")]
    BadModel(String),
}

impl SolveConfig {
    /// The default encoding with the given pre-placed queens (0-based cells).
    pub fn with_placed(place: &[(usize, usize)]) -> Self {
        SolveConfig {
            place: place.to_vec(),
            ..Default::default()
        }
    }

    /// `true` when no cell is placed or forbidden.
    pub fn is_unconstrained(&self) -> bool {
        self.place.is_empty() && self.forbid.is_empty()
    }

    /// Checks the placed and forbidden cells against the board: on the board, no cell both
    /// placed and forbidden, no two placed queens attacking each other. A configuration that
    /// passes may still have no completion; the solver decides that.
    pub fn validate(&self, n: usize) -> Result<(), SolveError> {
        for (what, cells) in [("placed", &self.place), ("forbidden", &self.forbid)] {
            if let Some(&cell) = cells.iter().find(|&&(r, c)| r >= n || c >= n) {
                return Err(SolveError::CellOutOfRange { what, cell, n });
            }
        }
        if let Some(&cell) = self.place.iter().find(|c| self.forbid.contains(c)) {
            return Err(SolveError::PlacedAndForbidden(cell));
        }
        for (i, &a) in self.place.iter().enumerate() {
            for &b in &self.place[i + 1..] {
                if a == b {
                    continue;
                }
                if let Some(line) = shared_line(a, b) {
                    return Err(SolveError::PlacedQueensAttack { line, a, b });
                }
            }
        }
        Ok(())
    }

    /// The encoder for `n` with these options, after [`SolveConfig::validate`].
    pub fn encoder(&self, n: usize) -> Result<QueensEncoder, SolveError> {
        let enc = QueensEncoder::new(n, self.options)?;
        self.validate(n)?;
        Ok(enc)
    }

    /// Streams the whole formula into `sink`: the encoder's clauses, then the units of the
    /// partial board in groups `P` (placed queens) and `F` (forbidden cells).
    pub fn encode_into<S: ClauseSink + ?Sized>(
        &self,
        enc: &QueensEncoder,
        sink: &mut S,
    ) -> io::Result<()> {
        enc.encode(sink)?;
        let n = enc.n();
        if !self.place.is_empty() {
            sink.begin_group(&GroupInfo {
                tag: "P".into(),
                meaning: "pre-placed queen".into(),
            })?;
            for &(r, c) in &self.place {
                sink.add_clause(&[cell_lit(n, r, c)])?;
            }
        }
        if !self.forbid.is_empty() {
            sink.begin_group(&GroupInfo {
                tag: "F".into(),
                meaning: "forbidden cell".into(),
            })?;
            for &(r, c) in &self.forbid {
                sink.add_clause(&[!cell_lit(n, r, c)])?;
            }
        }
        Ok(())
    }

    /// The whole formula in memory (for evaluation).
    pub fn to_cnf(&self, n: usize) -> Result<Cnf, SolveError> {
        let enc = self.encoder(n)?;
        let mut cnf = Cnf::new();
        self.encode_into(&enc, &mut cnf)
            .map_err(|e| SolveError::Solver(e.to_string()))?;
        Ok(cnf)
    }

    /// The DIMACS header of the whole formula (encoder clauses plus units), with `c` lines
    /// listing the placed and forbidden cells.
    pub fn dimacs_header(
        &self,
        enc: &QueensEncoder,
        command: Option<&str>,
    ) -> Result<DimacsHeader, SolveError> {
        let mut h = enc.dimacs_header(command);
        h.clauses += (self.place.len() + self.forbid.len()) as u64;
        for &(r, c) in &self.place {
            h.comments.push(format!(
                "group P: pre-placed queen q({},{}) (unit clause)",
                r + 1,
                c + 1
            ));
        }
        for &(r, c) in &self.forbid {
            h.comments.push(format!(
                "group F: forbidden cell q({},{}) (unit clause)",
                r + 1,
                c + 1
            ));
        }
        Ok(h)
    }

    /// Writes the whole formula as DIMACS to `out`.
    pub fn write_dimacs<W: io::Write>(
        &self,
        n: usize,
        out: W,
        command: Option<&str>,
    ) -> Result<W, SolveError> {
        let enc = self.encoder(n)?;
        let header = self.dimacs_header(&enc, command)?;
        let io_err = |e: io::Error| SolveError::Solver(format!("writing the CNF: {e}"));
        let mut w = crate::cnf::DimacsWriter::new(out, &header).map_err(io_err)?;
        self.encode_into(&enc, &mut w).map_err(io_err)?;
        w.finish().map_err(io_err)
    }
}

/// The line two distinct cells share, if any.
pub(crate) fn shared_line(a: (usize, usize), b: (usize, usize)) -> Option<LineKind> {
    if a.0 == b.0 {
        Some(LineKind::Row)
    } else if a.1 == b.1 {
        Some(LineKind::Column)
    } else if a.0 + a.1 == b.0 + b.1 {
        Some(LineKind::Diagonal)
    } else if a.0 + b.1 == b.0 + a.1 {
        Some(LineKind::AntiDiagonal)
    } else {
        None
    }
}

/// A solution with the solver's full model (auxiliary variables included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The board.
    pub placement: Placement,
    /// The value of every variable of the formula.
    pub assignment: Assignment,
}

/// Finds one solution of the `n`-queens problem under `cfg`, or `None` when there is none
/// (n = 2 or 3, or a partial board with no completion).
pub fn solve(n: usize, cfg: &SolveConfig) -> Result<Option<Placement>, SolveError> {
    Ok(solve_model(n, cfg)?.map(|m| m.placement))
}

/// Like [`solve`], but also returns the full model.
pub fn solve_model(n: usize, cfg: &SolveConfig) -> Result<Option<Model>, SolveError> {
    let enc = cfg.encoder(n)?;
    let mut solver = varisat::Solver::new();
    cfg.encode_into(&enc, &mut solver)
        .map_err(|e| SolveError::Solver(e.to_string()))?;
    if !solver
        .solve()
        .map_err(|e| SolveError::Solver(e.to_string()))?
    {
        return Ok(None);
    }
    let lits = solver
        .model()
        .ok_or_else(|| SolveError::Solver("no model after SAT".into()))?;
    let placement = placement_from_lits(n, &lits)?;
    check_solution(&placement, cfg)?;
    let assignment = Assignment::from_lits(&lits);
    Ok(Some(Model {
        placement,
        assignment,
    }))
}

/// Reads the board from the true cell literals of a model; auxiliary variables are ignored.
/// Fails unless every row has exactly one queen.
pub(crate) fn placement_from_lits(n: usize, lits: &[Lit]) -> Result<Placement, SolveError> {
    const NONE: u32 = u32::MAX;
    let mut cols = vec![NONE; n];
    for l in lits.iter().filter(|l| l.is_positive()) {
        if let Some((r, c)) = cell_of_var(n, l.var()) {
            if cols[r] != NONE {
                return Err(SolveError::BadModel(format!(
                    "row {} has queens in columns {} and {}",
                    r + 1,
                    cols[r] + 1,
                    c + 1
                )));
            }
            cols[r] = c as u32;
        }
    }
    if let Some(r) = cols.iter().position(|&c| c == NONE) {
        return Err(SolveError::BadModel(format!("row {} has no queen", r + 1)));
    }
    Ok(Placement::new(cols))
}

/// Checks a solver's board: a solution, with the placed queens and without forbidden cells.
pub(crate) fn check_solution(p: &Placement, cfg: &SolveConfig) -> Result<(), SolveError> {
    crate::check::check_placement(p).map_err(|v| SolveError::BadModel(v.to_string()))?;
    for &(r, c) in &cfg.place {
        if p.col(r) != c {
            return Err(SolveError::BadModel(format!(
                "placed queen ({},{}) missing",
                r + 1,
                c + 1
            )));
        }
    }
    for &(r, c) in &cfg.forbid {
        if p.col(r) == c {
            return Err(SolveError::BadModel(format!(
                "forbidden cell ({},{}) used",
                r + 1,
                c + 1
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_cells() {
        let cfg = SolveConfig {
            place: vec![(0, 0), (1, 2), (3, 3)],
            ..Default::default()
        };
        let e = cfg.validate(8).unwrap_err();
        assert_eq!(
            e.to_string(),
            "placed queens at (1,1) and (4,4) share a \\ diagonal"
        );
        let cfg = SolveConfig {
            forbid: vec![(8, 0)],
            ..Default::default()
        };
        assert_eq!(
            cfg.validate(8).unwrap_err().to_string(),
            "forbidden cell (9,1) is outside the 8 x 8 board"
        );
        let cfg = SolveConfig {
            place: vec![(2, 3)],
            forbid: vec![(2, 3)],
            ..Default::default()
        };
        assert!(matches!(
            cfg.validate(8),
            Err(SolveError::PlacedAndForbidden((2, 3)))
        ));
    }

    #[test]
    fn shared_lines() {
        assert_eq!(shared_line((0, 0), (0, 5)), Some(LineKind::Row));
        assert_eq!(shared_line((0, 3), (5, 3)), Some(LineKind::Column));
        assert_eq!(shared_line((0, 3), (3, 0)), Some(LineKind::Diagonal));
        assert_eq!(shared_line((1, 2), (3, 4)), Some(LineKind::AntiDiagonal));
        assert_eq!(shared_line((0, 0), (1, 2)), None);
    }

    #[test]
    fn solves_small_boards() {
        let cfg = SolveConfig::default();
        for n in 1..=12 {
            let r = solve(n, &cfg).unwrap();
            assert_eq!(r.is_some(), n != 2 && n != 3, "n = {n}");
        }
    }
}
