//! Placements: a [`Placement`] is one queen column per row, as the one-line form lists it.
//!
//! A placement is not necessarily a solution; [`check_placement`](super::check_placement)
//! decides that. This module only stores, parses and draws placements as text; its images
//! under the symmetries of the square are in [`Symmetry`](super::Symmetry).

use std::fmt::Write as _;

/// A placement of one queen per row: `cols[r]` is the 0-based column of the queen in row `r`.
///
/// The one-line form (1-based columns, row by row, e.g. `2 4 1 3`) is its textual form.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    cols: Vec<u32>,
}

/// Why a one-line placement could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePlacementError {
    /// A token that is not a positive integer.
    #[error("'{0}' is not a column number")]
    NotANumber(String),
    /// A column outside `1..=n`.
    #[error("column {col} in row {row} is outside 1..{n}")]
    OutOfRange {
        /// 1-based row of the bad entry.
        row: usize,
        /// The column as written.
        col: u64,
        /// Board size.
        n: usize,
    },
    /// Fewer or more columns than rows.
    #[error("expected {expected} columns (one per row), found {found}")]
    WrongLength {
        /// Board size.
        expected: usize,
        /// Number of columns read.
        found: usize,
    },
}

impl Placement {
    /// A placement from 0-based columns, one per row. The board size is `cols.len()`.
    pub fn new(cols: Vec<u32>) -> Self {
        Placement { cols }
    }

    /// A placement from 0-based `usize` columns.
    pub fn from_cols(cols: &[usize]) -> Self {
        Placement::new(cols.iter().map(|&c| c as u32).collect())
    }

    /// Board size (number of rows).
    pub fn n(&self) -> usize {
        self.cols.len()
    }

    /// The 0-based column of each row.
    pub fn cols(&self) -> &[u32] {
        &self.cols
    }

    /// The 0-based column of the queen in row `r`.
    pub fn col(&self, r: usize) -> usize {
        self.cols[r] as usize
    }

    /// Consumes the placement and returns its columns.
    pub fn into_cols(self) -> Vec<u32> {
        self.cols
    }

    /// Parses the one-line form: 1-based columns separated by white space or commas.
    ///
    /// With `n = Some(n)` the length must be `n`; otherwise the length is the board size.
    pub fn parse_one_line(text: &str, n: Option<usize>) -> Result<Self, ParsePlacementError> {
        let tokens: Vec<&str> = text
            .split(|ch: char| ch.is_whitespace() || ch == ',')
            .filter(|t| !t.is_empty())
            .collect();
        let size = n.unwrap_or(tokens.len());
        if tokens.len() != size {
            return Err(ParsePlacementError::WrongLength {
                expected: size,
                found: tokens.len(),
            });
        }
        let mut cols = Vec::with_capacity(size);
        for (row, tok) in tokens.iter().enumerate() {
            let col: u64 = tok
                .parse()
                .map_err(|_| ParsePlacementError::NotANumber(tok.to_string()))?;
            if col == 0 || col > size as u64 {
                return Err(ParsePlacementError::OutOfRange {
                    row: row + 1,
                    col,
                    n: size,
                });
            }
            cols.push((col - 1) as u32);
        }
        Ok(Placement { cols })
    }

    /// The one-line form: 1-based columns separated by single spaces.
    pub fn to_one_line(&self) -> String {
        let mut s = String::with_capacity(self.cols.len() * 4);
        for (i, c) in self.cols.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{}", c + 1);
        }
        s
    }

    /// Draws the board as text: `Q` for a queen, `.` for an empty cell, one row per line.
    pub fn render_board(&self) -> String {
        render_cells(self.n(), &self.to_assignment())
    }

    /// The placement as an assignment of the `n * n` cell variables: entry `r * n + c` (the
    /// 0-based index of the variable of 0-based row `r`, column `c`; DIMACS variable
    /// `r * n + c + 1`) is `true` exactly when the queen of row `r` stands in column `c`.
    /// Auxiliary variables of an encoding are not included.
    pub fn to_assignment(&self) -> Vec<bool> {
        let n = self.n();
        let mut a = vec![false; n * n];
        for (r, &c) in self.cols.iter().enumerate() {
            if (c as usize) < n {
                a[r * n + c as usize] = true;
            }
        }
        a
    }
}

/// Draws any set of queens on an `n` x `n` board as text (`cells[r * n + c]` is the cell of
/// 0-based row `r`, column `c`): `Q` for a queen, `.` for an empty cell, one row per line. Rows
/// may hold several queens or none, as in a model of a broken encoding.
pub fn render_cells(n: usize, cells: &[bool]) -> String {
    let mut s = String::with_capacity(n * (2 * n + 1));
    for r in 0..n {
        for col in 0..n {
            if col > 0 {
                s.push(' ');
            }
            s.push(if cells[r * n + col] { 'Q' } else { '.' });
        }
        s.push('\n');
    }
    s
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_one_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_round_trip() {
        let p = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
        assert_eq!(p.cols(), &[1, 3, 0, 2]);
        assert_eq!(p.to_one_line(), "2 4 1 3");
        assert_eq!(Placement::parse_one_line("2,4,1,3", None).unwrap().n(), 4);
    }

    #[test]
    fn one_line_errors() {
        assert!(matches!(
            Placement::parse_one_line("2 4 1", Some(4)),
            Err(ParsePlacementError::WrongLength { .. })
        ));
        assert!(matches!(
            Placement::parse_one_line("2 5 1 3", Some(4)),
            Err(ParsePlacementError::OutOfRange { row: 2, .. })
        ));
        assert!(matches!(
            Placement::parse_one_line("2 x 1 3", Some(4)),
            Err(ParsePlacementError::NotANumber(_))
        ));
    }

    #[test]
    fn board_drawing() {
        let p = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
        assert_eq!(p.render_board(), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
    }
}
