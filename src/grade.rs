//! Grading an encoding: is a DIMACS file, written by anyone, a correct CNF of n-queens?
//!
//! The file's cell variables are numbered as ours (cell (r, c), 0-based, is variable
//! `r * n + c + 1`: [`CellMap::standard`]) or as a map file says ([`CellMap::parse`]); every
//! other variable is auxiliary. [`grade`] then checks, with the embedded solver and the
//! counter:
//!
//! * **sound**: the file implies every constraint of the reference model (each row's
//!   at-least-one, each pair of cells on a row, column or diagonal): one solve per constraint,
//!   of the file and the constraint's negation. A model that breaks one is a board that is not
//!   a solution ([`Counterexample`]).
//! * **on its own**: whether the file enforces each constraint without the help of the rest of
//!   the board, or only because the other rules force it at this n ([`Standing`]): a file that
//!   leaves out clauses which happen to be implied at this n is right here, and its generator is
//!   likely wrong at a larger n.
//! * **complete**: every solution (listed by [`crate::board::solutions`]) extends to a model:
//!   the file's clauses over cells only are evaluated on it, and the file is solved under
//!   assumptions fixing all `n * n` cell values when it has other variables. The first solution
//!   without a model is kept, with the clause of the file that it makes false.
//! * the **projected count** (distinct projections of models) against the counter's count.
//!
//! [`grade`] says how each check is made; the board goes up to [`MAX_GRADE_N`].
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

/// Largest n [`grade`] takes: completeness takes one check per solution (n = 12: 14,200, n = 13:
/// 73,712).
pub const MAX_GRADE_N: usize = 13;

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
    #[error("grade checks every solution: n must be in 1..={MAX_GRADE_N}, not {0} (n = 13 has 73,712 solutions, n = 14 365,596)")]
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

/// One rule of the reference model (docs: /work/shared/reference: the pairwise model Q1 to
/// Q5): a row's at-least-one clause, or a pair of cells on one line that may not both hold a
/// queen. Cells are 0-based; `Display` shows them 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// Row `0` (0-based) has a queen (Q1).
    RowHasQueen(usize),
    /// Not both `a` and `b`, which share `line` (Q2 to Q5).
    Pair {
        /// The line they share.
        line: LineKind,
        /// The first cell in row order.
        a: Cell,
        /// The second.
        b: Cell,
    },
}

impl std::fmt::Display for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Constraint::RowHasQueen(r) => write!(f, "a queen in row {}", r + 1),
            Constraint::Pair { line, a, b } => write!(
                f,
                "not both ({},{}) and ({},{}), on one {}",
                a.0 + 1,
                a.1 + 1,
                b.0 + 1,
                b.1 + 1,
                line.name()
            ),
        }
    }
}

impl Constraint {
    /// The group of the reference model: `Q1` (rows' at-least-one) to `Q5` (`\` diagonals).
    pub fn group(&self) -> &'static str {
        match self {
            Constraint::RowHasQueen(_) => "Q1",
            Constraint::Pair { line, .. } => match line {
                LineKind::Row => "Q2",
                LineKind::Column => "Q3",
                LineKind::Diagonal => "Q4",
                LineKind::AntiDiagonal => "Q5",
            },
        }
    }

    /// The rule a board that breaks the constraint breaks.
    pub fn broken(&self) -> BrokenRule {
        match *self {
            Constraint::RowHasQueen(r) => BrokenRule::EmptyRow(r),
            Constraint::Pair { line, a, b } => BrokenRule::Attack { line, a, b },
        }
    }

    /// The constraint's clause over the cell variables of `map`, as the reference model
    /// writes it.
    pub fn clause(&self, map: &CellMap) -> Vec<Lit> {
        match *self {
            Constraint::RowHasQueen(r) => (0..map.n()).map(|c| map.var(r, c).positive()).collect(),
            Constraint::Pair { a, b, .. } => {
                vec![map.var(a.0, a.1).negative(), map.var(b.0, b.1).negative()]
            }
        }
    }
}

/// The constraints of the reference model of n-queens, in its order: each row's at-least-one
/// (Q1), then the pairs of each row (Q2), column (Q3), `/` diagonal (Q4) and `\` diagonal (Q5),
/// each line's cells in row order (`n + 2 n C(n,2) + 2 (2 C(n+1,3) - C(n,2))` in all).
pub fn reference_constraints(n: usize) -> Vec<Constraint> {
    let mut all: Vec<Constraint> = (0..n).map(Constraint::RowHasQueen).collect();
    for line in LineKind::ALL {
        // Cells on one line of `line`'s kind, keyed by the line, in row order.
        let key = |r: usize, c: usize| match line {
            LineKind::Row => r,
            LineKind::Column => c,
            LineKind::Diagonal => r + c,
            LineKind::AntiDiagonal => r + n - 1 - c,
        };
        let lines = match line {
            LineKind::Row | LineKind::Column => n,
            _ => (2 * n).saturating_sub(1),
        };
        let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); lines];
        for r in 0..n {
            for c in 0..n {
                cells[key(r, c)].push((r, c));
            }
        }
        for on_line in &cells {
            for (i, &a) in on_line.iter().enumerate() {
                for &b in &on_line[i + 1..] {
                    all.push(Constraint::Pair { line, a, b });
                }
            }
        }
    }
    all
}

/// How a file stands to one constraint of the reference model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The file enforces it on its own: its clauses that keep queens apart forbid the pair, or
    /// its clauses that put queens on the board fill the row (see [`grade`]).
    OnItsOwn,
    /// The file implies it only with the help of the rest of the board: at this n the other
    /// rules happen to rule the pair out (or fill the row); on a larger board they need not.
    ByTheRest,
    /// A model of the file breaks it: its board (`cells[r * n + c]`).
    Broken(Vec<bool>),
}

/// One constraint of the reference model, checked against a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstraintCheck {
    /// The constraint.
    pub constraint: Constraint,
    /// How the file stands to it.
    pub standing: Standing,
    /// The number (from 1, in the file's order of clauses) of the first clause of the file that
    /// is the constraint's own clause (the same cell literals, nothing else), if one is.
    pub clause: Option<usize>,
}

/// The result of [`grade`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// Board size.
    pub n: usize,
    /// The solutions of n-queens (the counter's count).
    pub expected: u64,
    /// Distinct projections of models onto the cells: exact when the file is sound (the
    /// solutions that extend to a model); for an unsound file, those found by enumeration.
    pub projected: u64,
    /// `false` when the enumeration of an unsound file stopped after `expected + 1` boards: the
    /// projected count is then at least `projected`, more than the solutions.
    pub projected_exact: bool,
    /// A board of a model that is not a solution: the first broken constraint's.
    pub counterexample: Option<Counterexample>,
    /// Boards of models that are not solutions, among those enumerated (unsound files only).
    pub invalid: u64,
    /// The first solution that no model has.
    pub missing: Option<Placement>,
    /// How many solutions no model has.
    pub missing_count: u64,
    /// The number (from 1) of the first clause of the file over cell variables only that is
    /// false on the first missing solution, when one is.
    pub missing_clause: Option<usize>,
    /// Every constraint of the reference model ([`reference_constraints`]), checked.
    pub constraints: Vec<ConstraintCheck>,
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

    /// The constraints the file breaks.
    pub fn broken(&self) -> impl Iterator<Item = &ConstraintCheck> + '_ {
        self.constraints
            .iter()
            .filter(|c| matches!(c.standing, Standing::Broken(_)))
    }

    /// The constraints the file implies only with the help of the rest of the board.
    pub fn by_the_rest(&self) -> impl Iterator<Item = &ConstraintCheck> + '_ {
        self.constraints
            .iter()
            .filter(|c| c.standing == Standing::ByTheRest)
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

/// The clauses of a file sorted by how they treat the cells, for [`grade`].
struct Parts {
    /// For each variable index, its cell (`r * n + c`), if it is a cell's.
    cell_of: Vec<Option<usize>>,
    /// The clauses over cell variables only: their number (from 1) and literals as (cell,
    /// positive).
    cell_only: Vec<(usize, Vec<(usize, bool)>)>,
    /// Some clause has a variable that is not a cell's.
    auxiliary: bool,
}

impl Parts {
    fn new(cnf: &Dimacs, map: &CellMap) -> Parts {
        let mut cell_of = vec![None; cnf.vars];
        for (k, v) in map.vars().iter().enumerate() {
            cell_of[v.index()] = Some(k);
        }
        let mut cell_only = Vec::new();
        let mut auxiliary = false;
        for (i, c) in cnf.clauses.iter().enumerate() {
            let lits: Option<Vec<(usize, bool)>> = c
                .iter()
                .map(|l| cell_of[l.index()].map(|k| (k, l.is_positive())))
                .collect();
            match lits {
                Some(lits) => cell_only.push((i + 1, lits)),
                None => auxiliary = true,
            }
        }
        Parts {
            cell_of,
            cell_only,
            auxiliary,
        }
    }

    /// Whether `clause` has a cell literal of sign `positive`.
    fn has_cell_lit(&self, clause: &[Lit], positive: bool) -> bool {
        clause
            .iter()
            .any(|l| l.is_positive() == positive && self.cell_of[l.index()].is_some())
    }

    /// The first clause over cells only that `cells` makes false: its number.
    fn first_false(&self, cells: &[bool]) -> Option<usize> {
        self.cell_only
            .iter()
            .find(|(_, lits)| !lits.iter().any(|&(k, pos)| cells[k] == pos))
            .map(|(i, _)| *i)
    }

    /// For each constraint's clause (as sorted literals), the first clause of the file that is
    /// it: its number.
    fn numbers(&self, cnf: &Dimacs) -> std::collections::HashMap<Vec<Lit>, usize> {
        let mut m = std::collections::HashMap::new();
        for (i, _) in &self.cell_only {
            let mut c = cnf.clauses[i - 1].clone();
            c.sort_unstable();
            c.dedup();
            m.entry(c).or_insert(*i);
        }
        m
    }
}

/// Grades `cnf` as an encoding of n-queens whose cells are `map`'s variables, with the embedded
/// solver varisat (fast on the many small solves):
///
/// * **sound**: for each constraint C of the reference model ([`reference_constraints`]), the
///   file and the negation of C (both cells of a pair hold queens; every cell of a row is
///   empty) have no model. The file is sound exactly when it implies every constraint: then
///   every model's board is a solution. A model that breaks C is the counterexample.
/// * **on its own**: a pair is enforced on its own when the file's clauses *without a positive
///   cell literal* (those that can only keep queens off cells: every at-most-one encoding's,
///   never an at-least-one clause) already forbid the two queens; a row's at-least-one when the
///   clauses *without a negative cell literal* already fill the row. A constraint the file
///   implies, but not on its own, holds only because the rest of the board forces it at this
///   n ([`Standing::ByTheRest`]).
/// * **complete**: every solution (listed by [`crate::board::solutions`]) extends to a model;
///   the file's clauses over cells only are evaluated on it, then, when the file has other
///   variables, it is solved under assumptions fixing all `n * n` cells.
/// * the **projected count**: exact for a sound file (the solutions that extend to a model);
///   for an unsound one, the projections are enumerated with blocking clauses until one board
///   more than there are solutions has been seen.
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
    let parts = Parts::new(cnf, map);
    let backend = Backend::for_enumeration();
    let load = |keep: &dyn Fn(&[Lit]) -> bool| -> Result<ClauseSolver, SolveError> {
        let mut s = ClauseSolver::new(backend)?;
        for c in cnf.clauses.iter().filter(|c| keep(c)) {
            s.add_clause(c);
        }
        Ok(s)
    };

    // Each constraint: on its own, by the rest, or broken.
    let numbers = parts.numbers(cnf);
    let mut apart = load(&|c| !parts.has_cell_lit(c, true))?;
    let mut filling = load(&|c| !parts.has_cell_lit(c, false))?;
    let mut whole = load(&|_| true)?;
    let mut constraints = Vec::new();
    let mut counterexample = None;
    for constraint in reference_constraints(n) {
        let mut clause = constraint.clause(map);
        let negation: Vec<Lit> = clause.iter().map(|&l| !l).collect();
        let relaxed = match constraint {
            Constraint::RowHasQueen(_) => &mut filling,
            Constraint::Pair { .. } => &mut apart,
        };
        let standing = if !relaxed.solve(&negation)? {
            Standing::OnItsOwn
        } else if !whole.solve(&negation)? {
            Standing::ByTheRest
        } else {
            let cells = cells_of(map, &whole.model(cnf.vars)?);
            counterexample.get_or_insert(Counterexample {
                cells: cells.clone(),
                rule: constraint.broken(),
            });
            Standing::Broken(cells)
        };
        clause.sort_unstable();
        constraints.push(ConstraintCheck {
            constraint,
            standing,
            clause: numbers.get(&clause).copied(),
        });
    }

    // Complete: each solution, on the clauses over cells only, then under assumptions fixing
    // every cell.
    let mut expected = 0;
    let mut missing = None;
    let mut missing_clause = None;
    let mut missing_count = 0;
    for p in crate::board::solutions(n) {
        expected += 1;
        let a = p.to_assignment();
        let lost = match parts.first_false(&a) {
            Some(number) => {
                if missing.is_none() {
                    missing_clause = Some(number);
                }
                true
            }
            None if parts.auxiliary => {
                let assumptions: Vec<Lit> =
                    map.vars().iter().zip(&a).map(|(v, &b)| v.lit(b)).collect();
                !whole.solve(&assumptions)?
            }
            None => false,
        };
        if lost {
            missing_count += 1;
            missing.get_or_insert(p);
        }
    }

    // The projected count: exact when sound; otherwise models blocked on their cell literals.
    let mut projected = expected - missing_count;
    let mut projected_exact = true;
    let mut invalid = 0;
    if counterexample.is_some() {
        projected = 0;
        while whole.solve(&[])? {
            let lits = whole.model(cnf.vars)?;
            let cells = cells_of(map, &lits);
            projected += 1;
            if broken_rule(n, &cells).is_some() {
                invalid += 1;
            }
            let block: Vec<Lit> = map
                .vars()
                .iter()
                .zip(&cells)
                .map(|(v, &b)| v.lit(!b))
                .collect();
            whole.add_clause(&block);
            if projected > expected {
                projected_exact = false;
                break;
            }
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
        missing_clause,
        constraints,
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

    /// The counts of the reference (/work/shared/reference/nqueens.md): the pairwise model has
    /// one clause per constraint.
    #[test]
    fn the_reference_model_has_its_published_clause_counts() {
        for (n, count) in [
            (1, 1),
            (2, 8),
            (3, 31),
            (4, 80),
            (8, 736),
            (10, 1480),
            (12, 2608),
        ] {
            let all = reference_constraints(n);
            assert_eq!(all.len(), count, "n = {n}");
            let distinct: std::collections::HashSet<_> = all.iter().collect();
            assert_eq!(distinct.len(), count);
        }
        // Every pair shares its line, and is in row order.
        for c in reference_constraints(6) {
            if let Constraint::Pair { line, a, b } = c {
                assert!(a < b);
                let same = match line {
                    LineKind::Row => a.0 == b.0,
                    LineKind::Column => a.1 == b.1,
                    LineKind::Diagonal => a.0 + a.1 == b.0 + b.1,
                    LineKind::AntiDiagonal => a.0 + b.1 == b.0 + a.1,
                };
                assert!(same, "{c}");
            }
        }
    }

    /// The clauses of `text` (one per line, `0`-terminated) as a file of `vars` variables.
    fn file(vars: usize, clauses: &[Vec<i64>]) -> Dimacs {
        let mut s = format!("p cnf {vars} {}\n", clauses.len());
        for c in clauses {
            for l in c {
                s.push_str(&format!("{l} "));
            }
            s.push_str("0\n");
        }
        read_dimacs(s.as_bytes()).unwrap()
    }

    /// The pairwise model of n written here, leaving out the pairs `drop` says.
    fn pairwise(n: usize, drop: impl Fn(Cell, Cell) -> bool) -> Vec<Vec<i64>> {
        let v = |(r, c): Cell| (r * n + c + 1) as i64;
        let mut out: Vec<Vec<i64>> = (0..n)
            .map(|r| (0..n).map(|c| v((r, c))).collect())
            .collect();
        for i in 0..n * n {
            for j in i + 1..n * n {
                let (a, b) = ((i / n, i % n), (j / n, j % n));
                let shared = a.0 == b.0 || a.1 == b.1 || b.0 - a.0 == a.1.abs_diff(b.1);
                if shared && !drop(a, b) {
                    out.push(vec![-v(a), -v(b)]);
                }
            }
        }
        out
    }

    #[test]
    fn pairs_left_out_but_implied_hold_only_by_the_rest() {
        // At n = 5 the two corner-to-corner pairs are implied: the 3 x 3 square between them has
        // no solution of its own.
        let corners = |a: Cell, b: Cell| b.0 - a.0 == 4 && a.1.abs_diff(b.1) == 4;
        let cnf = file(25, &pairwise(5, corners));
        let g = grade(5, &cnf, &CellMap::standard(5)).unwrap();
        assert!(g.is_right());
        let rest: Vec<String> = g.by_the_rest().map(|c| c.constraint.to_string()).collect();
        assert_eq!(
            rest,
            [
                "not both (1,5) and (5,1), on one / diagonal",
                "not both (1,1) and (5,5), on one \\ diagonal"
            ]
        );
        assert!(g.by_the_rest().all(|c| c.clause.is_none()));
        // The whole model: every rule on its own, each with its clause.
        let cnf = file(25, &pairwise(5, |_, _| false));
        let g = grade(5, &cnf, &CellMap::standard(5)).unwrap();
        assert!(g.is_right() && g.by_the_rest().next().is_none());
        assert!(g.constraints.iter().all(|c| c.clause.is_some()));
        // Row 1's at-least-one left out, every column's added: five queens in five columns, at
        // most one per row, fill row 1, but not on row 1's own clause.
        let mut clauses = pairwise(5, |_, _| false);
        clauses.remove(0);
        for c in 0..5 {
            clauses.push((0..5).map(|r| (r * 5 + c + 1) as i64).collect());
        }
        let g = grade(5, &file(25, &clauses), &CellMap::standard(5)).unwrap();
        assert!(g.is_right());
        assert_eq!(
            g.by_the_rest().map(|c| c.constraint).collect::<Vec<_>>(),
            [Constraint::RowHasQueen(0)]
        );
    }

    #[test]
    fn a_missing_solution_names_the_clause_that_excludes_it() {
        // 2 4 1 3 puts queens on (1,2) and (2,4): a clause forbidding both loses it.
        let mut clauses = pairwise(4, |_, _| false);
        clauses.push(vec![-2, -8]);
        let g = grade(4, &file(16, &clauses), &CellMap::standard(4)).unwrap();
        assert!(g.is_sound() && !g.is_complete());
        assert_eq!(g.missing_count, 1);
        assert_eq!(g.missing_clause, Some(clauses.len()));
        assert_eq!(g.projected, 1);
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
