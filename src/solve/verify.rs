//! Checking an answer twice, by independent paths: as a board (one queen per row, then
//! [`crate::check::check_placement`] for attacking pairs) and clause by clause against the
//! exported CNF ([`crate::cnf::Cnf::first_falsified`]), naming what fails.

use super::{Assignment, SolveConfig, SolveError};
use crate::board::Placement;
use crate::check::{check_placement, Violation};
use crate::cnf::{Cnf, Lit, Var};
use crate::encode::{cell_lit, cell_of_var};
use std::fmt;

/// A literal in words: `q(3,5)` / `-q(3,5)` for cells (1-based), `x70` / `-x70` for auxiliary
/// variables (DIMACS number).
pub fn describe_lit(n: usize, lit: Lit) -> String {
    let sign = if lit.is_negative() { "-" } else { "" };
    match cell_of_var(n, lit.var()) {
        Some((r, c)) => format!("{sign}q({},{})", r + 1, c + 1),
        None => format!("{sign}x{}", lit.var().to_dimacs()),
    }
}

fn describe_var(n: usize, var: Var) -> String {
    match cell_of_var(n, var) {
        Some((r, c)) => format!("{} = q({},{})", var.to_dimacs(), r + 1, c + 1),
        None => format!("{} (auxiliary)", var.to_dimacs()),
    }
}

/// What is wrong with the board an answer describes. Cells 0-based inside, 1-based shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardProblem {
    /// A placement for another board size.
    WrongSize {
        /// Expected n.
        expected: usize,
        /// Rows given.
        found: usize,
    },
    /// A row without a queen or with several (the columns listed).
    RowCount {
        /// The row.
        row: usize,
        /// Its queens' columns.
        cols: Vec<usize>,
    },
    /// Two queens attack each other (or a queen is off the board).
    Attack(Violation),
    /// A pre-placed queen is not on the board.
    PlacedMissing((usize, usize)),
    /// A forbidden cell holds a queen.
    ForbiddenUsed((usize, usize)),
}

impl fmt::Display for BoardProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardProblem::WrongSize { expected, found } => {
                write!(f, "the placement has {found} rows, the board {expected}")
            }
            BoardProblem::RowCount { row, cols } if cols.is_empty() => {
                write!(f, "row {} has no queen", row + 1)
            }
            BoardProblem::RowCount { row, cols } => write!(
                f,
                "row {} has {} queens, in columns {}",
                row + 1,
                cols.len(),
                cols.iter()
                    .map(|c| (c + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            BoardProblem::Attack(v) => write!(f, "{v}"),
            BoardProblem::PlacedMissing((r, c)) => {
                write!(f, "the pre-placed queen ({},{}) is missing", r + 1, c + 1)
            }
            BoardProblem::ForbiddenUsed((r, c)) => {
                write!(f, "the forbidden cell ({},{}) holds a queen", r + 1, c + 1)
            }
        }
    }
}

/// A clause of the formula that an assignment falsifies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClauseViolation {
    /// 1-based clause number in the DIMACS file (comments and header not counted).
    pub number: usize,
    /// Its group's tag (`Q1`...`Q6`, `P`, `F`).
    pub tag: String,
    /// What the group says.
    pub meaning: String,
    /// The clause's literals in words ([`describe_lit`]).
    pub literals: Vec<String>,
}

impl fmt::Display for ClauseViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clause {} ({}: {}) is false: {}",
            self.number,
            self.tag,
            self.meaning,
            if self.literals.is_empty() {
                "(empty clause)".to_string()
            } else {
                self.literals.join(" ")
            }
        )
    }
}

/// A model that does not fit the formula: it names variables the formula does not have, or
/// leaves some without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelMismatch {
    /// Variables beyond the formula's.
    ExtraVars {
        /// Highest variable named.
        max_var: usize,
        /// Variables of the formula.
        formula_vars: usize,
        /// Board size.
        n: usize,
    },
    /// Variables without a value.
    MissingVars {
        /// How many.
        count: usize,
        /// The first one, described.
        first: String,
        /// Highest variable named by the model.
        max_var: usize,
        /// Variables of the formula.
        formula_vars: usize,
        /// Board size.
        n: usize,
    },
}

/// The side length k of a board with `v` cell variables, if `v` is a square.
fn square_side(v: usize) -> Option<usize> {
    let k = (v as f64).sqrt().round() as usize;
    (k * k == v).then_some(k)
}

impl fmt::Display for ModelMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelMismatch::ExtraVars {
                max_var,
                formula_vars,
                n,
            } => {
                write!(
                    f,
                    "the model names variable {max_var}, but the formula for n = {n} has {formula_vars} variables"
                )?;
                match square_side(*max_var) {
                    Some(k) if k != *n => write!(f, " (is it a model for n = {k}?)"),
                    _ => write!(f, " (a model of another formula?)"),
                }
            }
            ModelMismatch::MissingVars {
                count,
                first,
                max_var,
                formula_vars,
                n,
            } => {
                write!(
                    f,
                    "the model gives no value to {count} of the formula's {formula_vars} variables (first: {first})"
                )?;
                match square_side(*max_var) {
                    Some(k) if k < *n && *max_var > 0 => {
                        write!(f, "; is it a model for n = {k}?")
                    }
                    _ => write!(f, "; the output may be truncated"),
                }
            }
        }
    }
}

/// What is wrong with an answer as a model of the CNF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CnfProblem {
    /// The model does not fit the formula's variables.
    Mismatch(ModelMismatch),
    /// A clause is false.
    Falsified(ClauseViolation),
    /// (Placements only.) No values of the auxiliary variables make the formula true with
    /// this board.
    NoExtension,
}

impl fmt::Display for CnfProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CnfProblem::Mismatch(m) => write!(f, "{m}"),
            CnfProblem::Falsified(c) => write!(f, "{c}"),
            CnfProblem::NoExtension => write!(
                f,
                "no values of the auxiliary variables satisfy the formula with this board"
            ),
        }
    }
}

/// The outcome of checking an answer both ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// The board read from the cell variables, when every row has exactly one queen.
    pub placement: Option<Placement>,
    /// The board check.
    pub board: Result<(), BoardProblem>,
    /// The clause-by-clause check.
    pub cnf: Result<(), CnfProblem>,
    /// Clauses in the formula.
    pub clauses: usize,
    /// Variables in the formula.
    pub vars: usize,
}

impl VerifyReport {
    /// `true` when both checks pass.
    pub fn is_ok(&self) -> bool {
        self.board.is_ok() && self.cnf.is_ok()
    }
}

/// The board of an assignment from its cell variables (missing values count as false), or the
/// first row without exactly one queen.
pub fn board_of(n: usize, a: &Assignment) -> Result<Placement, BoardProblem> {
    let mut cols = Vec::with_capacity(n);
    for r in 0..n {
        let queens: Vec<usize> = (0..n)
            .filter(|&c| a.value(cell_lit(n, r, c).var()) == Some(true))
            .collect();
        if queens.len() != 1 {
            return Err(BoardProblem::RowCount {
                row: r,
                cols: queens,
            });
        }
        cols.push(queens[0] as u32);
    }
    Ok(Placement::new(cols))
}

fn check_board(p: &Placement, cfg: &SolveConfig) -> Result<(), BoardProblem> {
    check_placement(p).map_err(BoardProblem::Attack)?;
    if let Some(&cell) = cfg.place.iter().find(|&&(r, c)| p.col(r) != c) {
        return Err(BoardProblem::PlacedMissing(cell));
    }
    if let Some(&cell) = cfg.forbid.iter().find(|&&(r, c)| p.col(r) == c) {
        return Err(BoardProblem::ForbiddenUsed(cell));
    }
    Ok(())
}

fn evaluate(n: usize, cnf: &Cnf, values: &[bool]) -> Result<(), CnfProblem> {
    match cnf.first_falsified(values) {
        None => Ok(()),
        Some(i) => {
            let (tag, meaning) = cnf
                .group_of(i)
                .map_or(("?".to_string(), "ungrouped".to_string()), |g| {
                    (g.tag.clone(), g.meaning.clone())
                });
            Err(CnfProblem::Falsified(ClauseViolation {
                number: i + 1,
                tag,
                meaning,
                literals: cnf.clause(i).iter().map(|&l| describe_lit(n, l)).collect(),
            }))
        }
    }
}

/// Checks a full assignment (an external solver's model) for the `n`-queens formula under
/// `cfg`: the board it describes, and every clause of the formula.
pub fn verify_assignment(
    n: usize,
    cfg: &SolveConfig,
    a: &Assignment,
) -> Result<VerifyReport, SolveError> {
    let enc = cfg.encoder(n)?;
    let vars = enc.size().vars as usize;
    let cnf = cfg.to_cnf(n)?;
    let (placement, board) = match board_of(n, a) {
        Ok(p) => {
            let b = check_board(&p, cfg);
            (Some(p), b)
        }
        Err(e) => (None, Err(e)),
    };
    let max_var = a.max_var();
    let missing = a.missing(vars);
    let cnf_result = if max_var > vars {
        Err(CnfProblem::Mismatch(ModelMismatch::ExtraVars {
            max_var,
            formula_vars: vars,
            n,
        }))
    } else if let Some(&first) = missing.first() {
        Err(CnfProblem::Mismatch(ModelMismatch::MissingVars {
            count: missing.len(),
            first: describe_var(n, first),
            max_var,
            formula_vars: vars,
            n,
        }))
    } else {
        evaluate(n, &cnf, &a.to_bools(vars))
    };
    Ok(VerifyReport {
        placement,
        board,
        cnf: cnf_result,
        clauses: cnf.len(),
        vars,
    })
}

/// Checks a placement (a one-line answer) for the `n`-queens formula under `cfg`: as a board,
/// and against the CNF with the cell variables set from the board. When the encoding has
/// auxiliary variables, the embedded solver looks for values of them that satisfy the formula
/// with this board.
pub fn verify_placement(
    n: usize,
    cfg: &SolveConfig,
    p: &Placement,
) -> Result<VerifyReport, SolveError> {
    let enc = cfg.encoder(n)?;
    let vars = enc.size().vars as usize;
    if p.n() != n {
        return Ok(VerifyReport {
            placement: None,
            board: Err(BoardProblem::WrongSize {
                expected: n,
                found: p.n(),
            }),
            cnf: Err(CnfProblem::NoExtension),
            clauses: 0,
            vars,
        });
    }
    let board = check_board(p, cfg);
    let cnf = cfg.to_cnf(n)?;
    let mut a = Assignment::default();
    for r in 0..n {
        for c in 0..n {
            a.set(cell_lit(n, r, c).var(), p.col(r) == c);
        }
    }
    let cnf_result = if vars == n * n {
        evaluate(n, &cnf, &a.to_bools(vars))
    } else {
        let mut solver = varisat::Solver::new();
        solver.add_formula(&cnf.to_varisat());
        solver.assume(&a.lits());
        let sat = solver
            .solve()
            .map_err(|e| SolveError::Solver(e.to_string()))?;
        match solver.model() {
            Some(model) if sat => {
                let full = Assignment::from_lits(&model);
                evaluate(n, &cnf, &full.to_bools(vars))
            }
            _ => Err(CnfProblem::NoExtension),
        }
    };
    Ok(VerifyReport {
        placement: Some(p.clone()),
        board,
        cnf: cnf_result,
        clauses: cnf.len(),
        vars,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model_of(n: usize, p: &Placement) -> Assignment {
        let mut a = Assignment::default();
        for r in 0..n {
            for c in 0..n {
                a.set(cell_lit(n, r, c).var(), p.col(r) == c);
            }
        }
        a
    }

    #[test]
    fn good_and_bad_models() {
        let cfg = SolveConfig::default();
        let good = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
        let rep = verify_assignment(4, &cfg, &model_of(4, &good)).unwrap();
        assert!(rep.is_ok(), "{rep:?}");
        let bad = Placement::parse_one_line("1 2 4 3", Some(4)).unwrap();
        let rep = verify_assignment(4, &cfg, &model_of(4, &bad)).unwrap();
        let Err(CnfProblem::Falsified(v)) = &rep.cnf else {
            panic!("{rep:?}")
        };
        // (3,4) and (4,3) share a / diagonal; Q4 comes before Q5 in the formula.
        assert_eq!(v.tag, "Q4");
        assert_eq!(v.literals, vec!["-q(3,4)", "-q(4,3)"]);
        assert!(matches!(rep.board, Err(BoardProblem::Attack(_))));
        // A model of n = 3 for n = 4.
        let mut small = Assignment::default();
        small.set(Var::from_index(8), true);
        let rep = verify_assignment(4, &cfg, &small).unwrap();
        let msg = rep.cnf.unwrap_err().to_string();
        assert!(msg.contains("n = 3"), "{msg}");
    }

    #[test]
    fn placement_with_partial_board() {
        let cfg = SolveConfig {
            place: vec![(0, 0)],
            ..Default::default()
        };
        let p = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
        let rep = verify_placement(4, &cfg, &p).unwrap();
        assert_eq!(rep.board, Err(BoardProblem::PlacedMissing((0, 0))));
        let Err(CnfProblem::Falsified(v)) = rep.cnf else {
            panic!()
        };
        assert_eq!(v.tag, "P");
        assert_eq!(v.literals, vec!["q(1,1)"]);
    }
}
