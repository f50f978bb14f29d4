//! Grading an encoding: is a DIMACS file, written by anyone, a correct CNF of n-queens?
//!
//! The file's cell variables are numbered as ours (cell (r, c), 0-based, is variable
//! `r * n + c + 1`: [`CellMap::standard`]) or as a map file says ([`CellMap::parse`]); every
//! other variable is auxiliary. [`grade`] then checks, with the embedded solver and the
//! counter:
//!
//! * **sound**: every model, projected onto the cell variables, is a solution. The projections
//!   are enumerated with blocking clauses on the `n * n` cell literals (so auxiliary variables
//!   never make a board count twice, and a board with extra queens is not blocked by a board
//!   it contains); the first one that is not a solution is kept with the rule it breaks
//!   ([`Counterexample`]).
//! * **complete**: every solution (listed by [`crate::board::solutions`]) extends to a model:
//!   the file is solved under assumptions fixing all `n * n` cell values. The first solution
//!   without a model is kept.
//! * the **projected count** (distinct projections of models) against the counter's count.
//!   The enumeration stops once it has seen one board more than there are solutions: the
//!   count is then only known to be larger, and among those boards one is not a solution.
//!
//! Full enumeration limits the board to [`MAX_GRADE_N`].
//!
//! ```
//! use queens_sat::grade::{grade, read_dimacs, CellMap};
//! let mut text = Vec::new();
//! let inst = queens_sat::instance::Instance::new(5, Default::default()).unwrap();
//! inst.write_dimacs(&mut text, None).unwrap();
//! let cnf = read_dimacs(&text[..]).unwrap();
//! let g = grade(5, &cnf, &CellMap::standard(5)).unwrap();
//! assert!(g.is_right());
//! assert_eq!((g.projected, g.expected), (10, 10));
//! ```

use crate::board::{check_placement, render_cells, Cell, LineKind, Placement, Violation};
use crate::cnf::{shorten, Lit, Var};
use crate::solve::{Backend, ClauseSolver, SolveError};
use std::io::BufRead;

/// Largest n [`grade`] takes: it enumerates every model's board (n = 10: 724 solutions, as
/// many solves for each check; n = 11 would need 2,680 and n = 12 14,200).
pub const MAX_GRADE_N: usize = 10;

/// The most variables a graded file may declare.
pub const MAX_VARS: usize = 10_000_000;

pub use crate::cnf::{Dimacs, DimacsError, DimacsErrorKind};

/// Reads DIMACS CNF with the crate's reader ([`crate::cnf::read_dimacs_limited`]), streaming,
/// line by line: `c` comment lines anywhere, one `p cnf V C` line before the clauses, clauses
/// as integers ending with `0` (over one or more lines), an optional `%` line ending the file
/// (as in SATLIB). Every literal must be within `1..=V`, there must be exactly `C` clauses,
/// and at most [`MAX_VARS`] variables. Errors name the line.
pub fn read_dimacs(input: impl BufRead) -> Result<Dimacs, DimacsError> {
    let limits = crate::cnf::ReadLimits {
        max_vars: MAX_VARS,
        max_bytes: u64::MAX,
        whose: "a graded file may have",
    };
    crate::cnf::read_dimacs_limited(input, &limits)
}

/// Which variable stands for each cell: `var(r, c)` is true when a queen is on cell (r, c).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellMap {
    n: usize,
    vars: Vec<Var>,
    /// The map file's line of each cell (0 for the standard numbering).
    lines: Vec<usize>,
}

/// Why a map file could not be read: what, and on which line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct MapError {
    /// The line (1-based; for missing cells, the last line).
    pub line: usize,
    /// What is wrong.
    pub kind: MapErrorKind,
}

/// What is wrong in a map file. Cells are shown 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapErrorKind {
    /// A line that is not three numbers.
    #[error("'{0}' is not a line 'ROW COLUMN VARIABLE'")]
    BadLine(String),
    /// A cell off the board.
    #[error("cell ({row},{col}) is off the {n} x {n} board")]
    OffBoard {
        /// Row as written.
        row: u64,
        /// Column as written.
        col: u64,
        /// Board size.
        n: usize,
    },
    /// A variable that is not positive.
    #[error("variable {0} is not a positive number")]
    BadVar(String),
    /// A cell named twice.
    #[error("cell ({},{}) is mapped twice (first on line {first})", .cell.0 + 1, .cell.1 + 1)]
    CellTwice {
        /// The cell (0-based).
        cell: Cell,
        /// Its first line.
        first: usize,
    },
    /// A variable given to two cells.
    #[error("variable {var} is mapped twice (first on line {first})")]
    VarTwice {
        /// The variable (DIMACS number).
        var: usize,
        /// Its first line.
        first: usize,
    },
    /// Cells without a variable.
    #[error("{count} cells have no variable, the first ({},{})", .first.0 + 1, .first.1 + 1)]
    Missing {
        /// How many.
        count: usize,
        /// The first in row order (0-based).
        first: Cell,
    },
    /// A variable past the CNF's variable count.
    #[error("variable {var} is beyond the {vars} variables of the CNF")]
    BeyondCnf {
        /// The variable.
        var: usize,
        /// The CNF's count.
        vars: usize,
    },
}

impl CellMap {
    /// The project's numbering: cell (r, c), 0-based, is variable `r * n + c + 1`.
    pub fn standard(n: usize) -> CellMap {
        CellMap {
            n,
            vars: (0..n * n).map(Var::from_index).collect(),
            lines: vec![0; n * n],
        }
    }

    /// Reads a map file: one line `ROW COLUMN VARIABLE` per cell (1-based row and column, as
    /// everywhere on the command line; DIMACS variable numbers), every cell exactly once, no
    /// variable twice; blank lines and comment lines (starting with `c` or `#`) are skipped.
    pub fn parse(text: &str, n: usize) -> Result<CellMap, MapError> {
        let mut vars: Vec<Option<Var>> = vec![None; n * n];
        let mut lines = vec![0; n * n];
        let mut var_line = std::collections::HashMap::new();
        let mut last = 0;
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            last = line_no;
            let err = |kind| MapError {
                line: line_no,
                kind,
            };
            let t = line.trim();
            if t.is_empty() || t.starts_with('c') || t.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = t.split_whitespace().collect();
            let bad = || err(MapErrorKind::BadLine(shorten(t)));
            let [r, c, v] = parts[..] else {
                return Err(bad());
            };
            let (Ok(r), Ok(c)) = (r.parse::<u64>(), c.parse::<u64>()) else {
                return Err(bad());
            };
            if r == 0 || c == 0 || r > n as u64 || c > n as u64 {
                return Err(err(MapErrorKind::OffBoard { row: r, col: c, n }));
            }
            let var = match v.parse::<u64>() {
                Ok(v) if v >= 1 && v <= MAX_VARS as u64 => v as usize,
                _ => return Err(err(MapErrorKind::BadVar(shorten(v)))),
            };
            let cell = ((r - 1) as usize, (c - 1) as usize);
            let k = cell.0 * n + cell.1;
            if vars[k].is_some() {
                return Err(err(MapErrorKind::CellTwice {
                    cell,
                    first: lines[k],
                }));
            }
            if let Some(&first) = var_line.get(&var) {
                return Err(err(MapErrorKind::VarTwice { var, first }));
            }
            var_line.insert(var, line_no);
            vars[k] = Some(Var::from_dimacs(var as isize));
            lines[k] = line_no;
        }
        let missing: Vec<usize> = (0..n * n).filter(|&k| vars[k].is_none()).collect();
        if let Some(&k) = missing.first() {
            return Err(MapError {
                line: last.max(1),
                kind: MapErrorKind::Missing {
                    count: missing.len(),
                    first: (k / n, k % n),
                },
            });
        }
        Ok(CellMap {
            n,
            vars: vars.into_iter().flatten().collect(),
            lines,
        })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The variable of cell (r, c), 0-based.
    pub fn var(&self, r: usize, c: usize) -> Var {
        self.vars[r * self.n + c]
    }

    /// The variables of the cells, `[r * n + c]`.
    pub fn vars(&self) -> &[Var] {
        &self.vars
    }

    /// Checks that every variable of the map is one of the CNF's `vars` (the error names the
    /// map's line).
    pub fn check_vars(&self, vars: usize) -> Result<(), MapError> {
        match self
            .vars
            .iter()
            .zip(&self.lines)
            .find(|(v, _)| v.index() >= vars)
        {
            Some((v, &line)) => Err(MapError {
                line,
                kind: MapErrorKind::BeyondCnf {
                    var: v.index() + 1,
                    vars,
                },
            }),
            None => Ok(()),
        }
    }
}

/// The rule a board breaks. Cells are 0-based; `Display` shows them 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BrokenRule {
    /// Two queens share a row, a column or a diagonal.
    #[error("queens at ({},{}) and ({},{}) share a {}", .a.0 + 1, .a.1 + 1, .b.0 + 1, .b.1 + 1, .line.name())]
    Attack {
        /// The line they share.
        line: LineKind,
        /// One queen.
        a: Cell,
        /// The other.
        b: Cell,
    },
    /// A row without a queen.
    #[error("row {} has no queen", .0 + 1)]
    EmptyRow(usize),
}

/// The rule a set of queens (`cells[r * n + c]`) breaks, or `None` for a solution: two queens
/// in a row first, then a row without a queen, then two queens on a column or diagonal
/// ([`check_placement`]). More than n queens always put two in a row.
pub fn broken_rule(n: usize, cells: &[bool]) -> Option<BrokenRule> {
    let mut cols = Vec::with_capacity(n);
    let mut empty = None;
    for r in 0..n {
        let mut queens = (0..n).filter(|&c| cells[r * n + c]);
        match (queens.next(), queens.next()) {
            (Some(a), Some(b)) => {
                return Some(BrokenRule::Attack {
                    line: LineKind::Row,
                    a: (r, a),
                    b: (r, b),
                })
            }
            (Some(c), None) => cols.push(c),
            (None, _) => {
                empty.get_or_insert(r);
            }
        }
    }
    if let Some(r) = empty {
        return Some(BrokenRule::EmptyRow(r));
    }
    match check_placement(&Placement::from_cols(&cols)) {
        Ok(()) => None,
        Err(Violation::Attack { line, a, b }) => Some(BrokenRule::Attack { line, a, b }),
        // Every column is on the board by construction.
        Err(Violation::OffBoard { .. }) => None,
    }
}

/// A board of a model that is not a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The queens, `cells[r * n + c]`.
    pub cells: Vec<bool>,
    /// The rule it breaks.
    pub rule: BrokenRule,
}

impl Counterexample {
    /// The board drawn as text ([`render_cells`]).
    pub fn render(&self, n: usize) -> String {
        render_cells(n, &self.cells)
    }

    /// How many queens the board has.
    pub fn queens(&self) -> usize {
        self.cells.iter().filter(|&&q| q).count()
    }
}

/// Why a file could not be graded.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// n is past [`MAX_GRADE_N`] (or 0).
    #[error("grade enumerates every model: n must be in 1..={MAX_GRADE_N}, not {0} (n = 10 has 724 solutions, each checked by a solve; n = 12 would need 14,200)")]
    Size(usize),
    /// The file has fewer variables than the board has cells.
    #[error("line {line}: the 'p cnf' line declares {vars} variables, fewer than the {cells} cells of the board")]
    FewVars {
        /// The line of the `p cnf` line.
        line: usize,
        /// Variables declared.
        vars: usize,
        /// n * n.
        cells: usize,
    },
    /// The map and n disagree.
    #[error("the map is for n = {map}, not {n}")]
    MapSize {
        /// The map's n.
        map: usize,
        /// The n graded.
        n: usize,
    },
    /// A map variable beyond the file's variables.
    #[error(transparent)]
    Map(#[from] MapError),
    /// The embedded solver failed or was interrupted.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// The result of [`grade`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// Board size.
    pub n: usize,
    /// The solutions of n-queens (the counter's count).
    pub expected: u64,
    /// Distinct projections of models onto the cells found.
    pub projected: u64,
    /// `false` when the enumeration stopped after `expected + 1` boards: the projected count
    /// is then at least `projected`, more than the solutions.
    pub projected_exact: bool,
    /// The first board of a model that is not a solution.
    pub counterexample: Option<Counterexample>,
    /// Boards of models that are not solutions, among those enumerated.
    pub invalid: u64,
    /// The first solution that no model has.
    pub missing: Option<Placement>,
    /// How many solutions no model has.
    pub missing_count: u64,
}

impl Grade {
    /// Every model's board is a solution.
    pub fn is_sound(&self) -> bool {
        self.counterexample.is_none()
    }

    /// Every solution extends to a model.
    pub fn is_complete(&self) -> bool {
        self.missing.is_none()
    }

    /// Sound and complete: the models, projected onto the cells, are exactly the solutions.
    pub fn is_right(&self) -> bool {
        self.is_sound() && self.is_complete()
    }
}

/// The cells of a model (`lits` from the solver; a variable it does not mention is false).
fn cells_of(map: &CellMap, lits: &[Lit]) -> Vec<bool> {
    map.vars()
        .iter()
        .map(|v| {
            lits.get(v.index())
                .filter(|l| l.var() == *v)
                .map_or_else(|| lits.contains(&v.positive()), |l| l.is_positive())
        })
        .collect()
}

/// Grades `cnf` as an encoding of n-queens whose cells are `map`'s variables (see the module
/// documentation), with the embedded solver varisat (fast on the many small solves).
pub fn grade(n: usize, cnf: &Dimacs, map: &CellMap) -> Result<Grade, GradeError> {
    if n == 0 || n > MAX_GRADE_N {
        return Err(GradeError::Size(n));
    }
    if map.n() != n {
        return Err(GradeError::MapSize { map: map.n(), n });
    }
    if cnf.vars < n * n {
        return Err(GradeError::FewVars {
            line: cnf.header_line,
            vars: cnf.vars,
            cells: n * n,
        });
    }
    map.check_vars(cnf.vars)?;
    let backend = Backend::for_enumeration();
    let load = || -> Result<ClauseSolver, SolveError> {
        let mut s = ClauseSolver::new(backend)?;
        for c in &cnf.clauses {
            s.add_clause(c);
        }
        Ok(s)
    };

    // Complete: each solution under assumptions fixing every cell.
    let mut solver = load()?;
    let mut expected = 0;
    let mut missing = None;
    let mut missing_count = 0;
    for p in crate::board::solutions(n) {
        expected += 1;
        let a = p.to_assignment();
        let assumptions: Vec<Lit> = map.vars().iter().zip(&a).map(|(v, &b)| v.lit(b)).collect();
        if !solver.solve(&assumptions)? {
            missing_count += 1;
            missing.get_or_insert(p);
        }
    }

    // Sound, and the projected count: models blocked on their cell literals.
    let mut solver = load()?;
    let mut projected = 0;
    let mut invalid = 0;
    let mut counterexample = None;
    let mut projected_exact = true;
    while solver.solve(&[])? {
        let lits = solver.model(cnf.vars)?;
        let cells = cells_of(map, &lits);
        projected += 1;
        if let Some(rule) = broken_rule(n, &cells) {
            invalid += 1;
            counterexample.get_or_insert(Counterexample {
                cells: cells.clone(),
                rule,
            });
        }
        let block: Vec<Lit> = map
            .vars()
            .iter()
            .zip(&cells)
            .map(|(v, &b)| v.lit(!b))
            .collect();
        solver.add_clause(&block);
        if projected > expected {
            projected_exact = false;
            break;
        }
    }
    Ok(Grade {
        n,
        expected,
        projected,
        projected_exact,
        counterexample,
        invalid,
        missing,
        missing_count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader is the crate's DIMACS reader, tested with it; the limits are grading's own.
    #[test]
    fn reads_dimacs_within_the_grading_limits() {
        let d = read_dimacs(&b"c hi\np cnf 3 2\n1 -2\n 3 0\n-1 0\n"[..]).unwrap();
        assert_eq!((d.vars, d.clauses.len(), d.clauses[0].len()), (3, 2, 3));
        assert_eq!(
            read_dimacs(&b"p cnf 10000001 0\n"[..])
                .unwrap_err()
                .to_string(),
            "line 1: 10000001 variables, more than the 10000000 a graded file may have"
        );
    }

    #[test]
    fn reads_maps() {
        let m = CellMap::parse("# 2 x 2\n1 1 4\n1 2 3\nc\n2 1 2\n2 2 1\n", 2).unwrap();
        assert_eq!(m.var(0, 0), Var::from_dimacs(4));
        assert_eq!(m.var(1, 1), Var::from_dimacs(1));
        let e = |t: &str| CellMap::parse(t, 2).unwrap_err();
        assert_eq!(e("1 1 1\n1 1 2\n").line, 2);
        assert!(matches!(
            e("1 1 1\n1 2 1\n").kind,
            MapErrorKind::VarTwice { var: 1, first: 1 }
        ));
        assert!(matches!(e("3 1 1\n").kind, MapErrorKind::OffBoard { .. }));
        assert!(matches!(e("1 1 0\n").kind, MapErrorKind::BadVar(_)));
        let x = e("1 1 1\n2 2 2\n");
        assert_eq!(
            x.to_string(),
            "line 2: 2 cells have no variable, the first (1,2)"
        );
        assert!(m.check_vars(4).is_ok());
        assert_eq!(m.check_vars(3).unwrap_err().line, 2);
    }

    #[test]
    fn broken_rules_are_named() {
        let cells = |s: &str| -> Vec<bool> {
            s.chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| c == 'Q')
                .collect()
        };
        assert_eq!(broken_rule(4, &cells(".Q.. ...Q Q... ..Q.")), None);
        assert_eq!(
            broken_rule(4, &cells(".Q.. .... Q... ..Q.")),
            Some(BrokenRule::EmptyRow(1))
        );
        assert_eq!(
            broken_rule(4, &cells(".Q.Q .... Q... ..Q.")),
            Some(BrokenRule::Attack {
                line: LineKind::Row,
                a: (0, 1),
                b: (0, 3)
            })
        );
        assert!(matches!(
            broken_rule(4, &cells("Q... .Q.. ...Q ..Q.")),
            Some(BrokenRule::Attack {
                line: LineKind::AntiDiagonal,
                ..
            })
        ));
    }

    #[test]
    fn an_unconstrained_board_is_unsound_and_stops_early() {
        // Only the variables: every board is a model.
        let cnf = read_dimacs(&b"p cnf 16 0\n"[..]).unwrap();
        let g = grade(4, &cnf, &CellMap::standard(4)).unwrap();
        assert!(!g.is_sound() && g.is_complete());
        assert!(!g.projected_exact);
        assert_eq!(g.projected, 3);
    }
}
