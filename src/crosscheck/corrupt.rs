//! Boards next to a solution: the corruptions the soundness check feeds to a formula.
//!
//! From a solution the check derives boards that differ in one queen: one removed (a row
//! without a queen), one added (two queens on a row), one moved within its row (two queens on a
//! column or a diagonal), or two rows' queens swapped (still one queen per row and column, so
//! only diagonals can be attacked). The rules decide, independently of any formula, whether each
//! board is a solution ([`rule_check`]); a correct formula must agree with them on every board.

use crate::board::{check_placement, Placement};
use crate::instance::{BoardProblem, DecodeError};

/// One change to a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// The queen of `row` is taken off: that row has no queen.
    Removed {
        /// The row (0-based).
        row: usize,
    },
    /// A second queen is put in `row`, at `col`.
    Added {
        /// The row (0-based).
        row: usize,
        /// The column of the extra queen (0-based).
        col: usize,
    },
    /// The queen of `row` moves to `col`: it may share a column or a diagonal with another.
    Moved {
        /// The row (0-based).
        row: usize,
        /// Its new column (0-based).
        col: usize,
    },
    /// The queens of rows `a` and `b` exchange columns: rows and columns keep one queen each.
    Swapped {
        /// One row (0-based).
        a: usize,
        /// The other (0-based).
        b: usize,
    },
}

/// A solution with one corruption applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorruptBoard {
    /// The solution it starts from.
    pub base: Placement,
    /// What was changed.
    pub corruption: Corruption,
}

impl CorruptBoard {
    /// The board as the values of the `n * n` cell variables (row-major).
    pub fn cells(&self) -> Vec<bool> {
        let n = self.base.n();
        let mut cells = self.base.to_assignment();
        match self.corruption {
            Corruption::Removed { row } => cells[row * n + self.base.col(row)] = false,
            Corruption::Added { row, col } => cells[row * n + col] = true,
            Corruption::Moved { row, col } => {
                cells[row * n + self.base.col(row)] = false;
                cells[row * n + col] = true;
            }
            Corruption::Swapped { a, b } => {
                let (ca, cb) = (self.base.col(a), self.base.col(b));
                cells[a * n + ca] = false;
                cells[b * n + cb] = false;
                cells[a * n + cb] = true;
                cells[b * n + ca] = true;
            }
        }
        cells
    }

    /// The board in words, 1-based: `2 4 1 3 with the queen of row 2 moved to column 1
    /// (2 1 1 3)`.
    pub fn describe(&self) -> String {
        let base = self.base.to_one_line();
        match self.corruption {
            Corruption::Removed { row } => format!("{base} without the queen of row {}", row + 1),
            Corruption::Added { row, col } => {
                format!("{base} plus a queen at ({},{})", row + 1, col + 1)
            }
            Corruption::Moved { row, col } => format!(
                "{base} with the queen of row {} moved to column {} ({})",
                row + 1,
                col + 1,
                self.one_line()
            ),
            Corruption::Swapped { a, b } => format!(
                "{base} with the queens of rows {} and {} swapped ({})",
                a + 1,
                b + 1,
                self.one_line()
            ),
        }
    }

    /// The one-line form of a moved or swapped board (one queen per row).
    fn one_line(&self) -> String {
        let mut cols = self.base.cols().to_vec();
        match self.corruption {
            Corruption::Moved { row, col } => cols[row] = col as u32,
            Corruption::Swapped { a, b } => cols.swap(a, b),
            Corruption::Removed { .. } | Corruption::Added { .. } => {}
        }
        Placement::new(cols).to_one_line()
    }
}

/// Every board one corruption away from `p`: each row's queen removed; a second queen added
/// next to each row's queen; each queen moved to every other column of its row; every pair of
/// rows swapped. `n + n + n (n - 1) + n (n - 1) / 2` boards for n >= 2.
pub fn corruptions(p: &Placement) -> Vec<CorruptBoard> {
    let n = p.n();
    let mut out = Vec::new();
    let mut push = |corruption| {
        out.push(CorruptBoard {
            base: p.clone(),
            corruption,
        })
    };
    for row in 0..n {
        push(Corruption::Removed { row });
        if n > 1 {
            let col = (p.col(row) + 1) % n;
            push(Corruption::Added { row, col });
        }
    }
    for row in 0..n {
        for col in (0..n).filter(|&c| c != p.col(row)) {
            push(Corruption::Moved { row, col });
        }
    }
    for a in 0..n {
        for b in a + 1..n {
            push(Corruption::Swapped { a, b });
        }
    }
    out
}

/// What the rules say about a board given as the values of its `n * n` cell variables: the
/// placement when every row has exactly one queen and no two queens attack each other, or the
/// first problem found (a row with no queen or several, then an attacking pair).
pub fn rule_check(n: usize, cells: &[bool]) -> Result<Placement, BoardProblem> {
    let p = board_of_cells(n, cells)?;
    check_placement(&p).map_err(BoardProblem::Attack)?;
    Ok(p)
}

/// The rules of an instance for a board given cell by cell: one queen per row, a solution on
/// the instance's board (wrap-around diagonals on a torus), every pre-placed queen there, no
/// queen on a forbidden cell ([`crate::instance::check_board`]).
pub fn rule_check_instance(
    f: &dyn crate::instance::Formula,
    cells: &[bool],
) -> Result<Placement, BoardProblem> {
    let p = board_of_cells(f.n(), cells)?;
    crate::instance::check_board(f, &p)?;
    Ok(p)
}

/// One queen per row, or which row is wrong.
fn board_of_cells(n: usize, cells: &[bool]) -> Result<Placement, BoardProblem> {
    let mut cols = Vec::with_capacity(n);
    for row in 0..n {
        let queens: Vec<usize> = (0..n).filter(|&c| cells[row * n + c]).collect();
        if queens.len() != 1 {
            return Err(DecodeError::RowCount { row, cols: queens }.into());
        }
        cols.push(queens[0] as u32);
    }
    Ok(Placement::new(cols))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_corruption_of_a_small_solution_breaks_the_rules() {
        // 2 4 1 3: the other solution of n = 4 is its mirror image 3 1 4 2, which no single
        // change reaches, so every corruption must be illegal.
        let p = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
        let boards = corruptions(&p);
        assert_eq!(boards.len(), 4 + 4 + 12 + 6);
        for b in &boards {
            assert!(rule_check(4, &b.cells()).is_err(), "{}", b.describe());
        }
        assert_eq!(rule_check(4, &p.to_assignment()), Ok(p.clone()));
        let removed = CorruptBoard {
            base: p.clone(),
            corruption: Corruption::Removed { row: 1 },
        };
        assert_eq!(
            rule_check(4, &removed.cells()).unwrap_err().to_string(),
            "row 2 has no queen"
        );
        assert_eq!(removed.describe(), "2 4 1 3 without the queen of row 2");
        let swapped = CorruptBoard {
            base: p,
            corruption: Corruption::Swapped { a: 0, b: 1 },
        };
        let err = rule_check(4, &swapped.cells()).unwrap_err().to_string();
        assert!(err.contains("diagonal"), "{err}");
        assert_eq!(
            swapped.describe(),
            "2 4 1 3 with the queens of rows 1 and 2 swapped (4 2 1 3)"
        );
    }
}
