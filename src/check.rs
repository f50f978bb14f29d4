//! Is a placement a solution? A linear-time check that names what is wrong.
//!
//! [`check_placement`] uses one flag array per line kind (columns, `/` diagonals with equal
//! `r + c`, `\` diagonals with equal `r - c`); rows hold one queen by construction of
//! [`Placement`]. On failure it returns the first attacking pair it meets.

use crate::board::Placement;

/// Which kind of line two attacking queens share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// A row (equal `r`).
    Row,
    /// A column (equal `c`).
    Column,
    /// A `/` diagonal (equal `r + c`).
    Diagonal,
    /// A `\` diagonal (equal `r - c`).
    AntiDiagonal,
}

impl LineKind {
    /// All four kinds, in the order the reference model constrains them.
    pub const ALL: [LineKind; 4] = [
        LineKind::Row,
        LineKind::Column,
        LineKind::Diagonal,
        LineKind::AntiDiagonal,
    ];

    /// A short human name: "row", "column", "/ diagonal", "\ diagonal".
    pub fn name(self) -> &'static str {
        match self {
            LineKind::Row => "row",
            LineKind::Column => "column",
            LineKind::Diagonal => "/ diagonal",
            LineKind::AntiDiagonal => "\\ diagonal",
        }
    }
}

/// The board's geometry: the ordinary square board, or the torus, where diagonals wrap around
/// the edges (modular n-queens: a `/` diagonal is `r + c` mod n, a `\` diagonal `r - c` mod n;
/// solutions exist exactly when gcd(n, 6) = 1, counts in OEIS A051906).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Geometry {
    /// The ordinary n x n board: `2n - 1` diagonals per direction.
    #[default]
    Square,
    /// Diagonals wrap around: `n` diagonals per direction, each of `n` cells.
    Toroidal,
}

impl Geometry {
    /// `square` or `toroidal`, as in instance files.
    pub fn name(self) -> &'static str {
        match self {
            Geometry::Square => "square",
            Geometry::Toroidal => "toroidal",
        }
    }

    /// The index of the `/` diagonal of cell (r, c): `r + c` on the square, `(r + c) mod n` on
    /// the torus.
    pub fn diagonal(self, n: usize, r: usize, c: usize) -> usize {
        match self {
            Geometry::Square => r + c,
            Geometry::Toroidal => (r + c) % n,
        }
    }

    /// The index of the `\` diagonal of cell (r, c): `r - c + n - 1` on the square,
    /// `(r - c) mod n` on the torus.
    pub fn anti_diagonal(self, n: usize, r: usize, c: usize) -> usize {
        match self {
            Geometry::Square => r + n - 1 - c,
            Geometry::Toroidal => (r + n - c) % n,
        }
    }

    /// The line two distinct cells of an `n` x `n` board share, if any.
    pub fn shared_line(self, n: usize, a: (usize, usize), b: (usize, usize)) -> Option<LineKind> {
        if a.0 == b.0 {
            Some(LineKind::Row)
        } else if a.1 == b.1 {
            Some(LineKind::Column)
        } else if self.diagonal(n, a.0, a.1) == self.diagonal(n, b.0, b.1) {
            Some(LineKind::Diagonal)
        } else if self.anti_diagonal(n, a.0, a.1) == self.anti_diagonal(n, b.0, b.1) {
            Some(LineKind::AntiDiagonal)
        } else {
            None
        }
    }
}

impl std::str::FromStr for Geometry {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "square" => Ok(Geometry::Square),
            "toroidal" | "torus" => Ok(Geometry::Toroidal),
            other => Err(format!(
                "unknown board geometry '{other}' (valid: square, toroidal)"
            )),
        }
    }
}

/// Why a placement is not a solution. Rows and columns are 0-based; `Display` shows them 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// A queen's column is outside the board.
    #[error("the queen of row {} is in column {}, outside 1..{n}", .row + 1, .col + 1)]
    OffBoard {
        /// Row of the queen.
        row: usize,
        /// Its column.
        col: usize,
        /// Board size.
        n: usize,
    },
    /// Two queens share a line.
    #[error("queens at ({},{}) and ({},{}) share a {}", .a.0 + 1, .a.1 + 1, .b.0 + 1, .b.1 + 1, .line.name())]
    Attack {
        /// The kind of line they share.
        line: LineKind,
        /// The earlier queen (row, column).
        a: (usize, usize),
        /// The later queen (row, column).
        b: (usize, usize),
    },
}

/// Checks that `p` is an n-queens solution in O(n) time and memory.
///
/// Returns the first violation met, scanning rows in order.
pub fn check_placement(p: &Placement) -> Result<(), Violation> {
    check_placement_on(p, Geometry::Square)
}

/// Checks that `p` is a solution on a board of the given geometry, in O(n) time and memory.
pub fn check_placement_on(p: &Placement, geometry: Geometry) -> Result<(), Violation> {
    let n = p.n();
    const NONE: u32 = u32::MAX;
    let mut col_owner = vec![NONE; n];
    let mut diag_owner = vec![NONE; 2 * n.max(1) - 1];
    let mut anti_owner = vec![NONE; 2 * n.max(1) - 1];
    for (r, &c) in p.cols().iter().enumerate() {
        let c = c as usize;
        if c >= n {
            return Err(Violation::OffBoard { row: r, col: c, n });
        }
        let checks = [
            (LineKind::Column, &mut col_owner[c]),
            (
                LineKind::Diagonal,
                &mut diag_owner[geometry.diagonal(n, r, c)],
            ),
            (
                LineKind::AntiDiagonal,
                &mut anti_owner[geometry.anti_diagonal(n, r, c)],
            ),
        ];
        for (line, owner) in checks {
            if *owner != NONE {
                let r0 = *owner as usize;
                return Err(Violation::Attack {
                    line,
                    a: (r0, p.col(r0)),
                    b: (r, c),
                });
            }
            *owner = r as u32;
        }
    }
    Ok(())
}

/// `true` when `p` is an n-queens solution.
pub fn is_solution(p: &Placement) -> bool {
    check_placement(p).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(cols: &[usize]) -> Placement {
        Placement::from_cols(cols)
    }

    #[test]
    fn accepts_known_solutions() {
        assert!(is_solution(&p(&[0])));
        assert!(is_solution(&p(&[1, 3, 0, 2])));
        assert!(is_solution(&p(&[])));
    }

    #[test]
    fn names_the_attacking_pair() {
        let v = check_placement(&p(&[0, 1, 3, 2])).unwrap_err();
        assert_eq!(
            v,
            Violation::Attack {
                line: LineKind::AntiDiagonal,
                a: (0, 0),
                b: (1, 1)
            }
        );
        assert_eq!(
            v.to_string(),
            "queens at (1,1) and (2,2) share a \\ diagonal"
        );
        let v = check_placement(&p(&[1, 3, 1, 0])).unwrap_err();
        assert!(matches!(
            v,
            Violation::Attack {
                line: LineKind::Column,
                a: (0, 1),
                b: (2, 1)
            }
        ));
        let v = check_placement(&p(&[1, 0, 3, 2])).unwrap_err();
        assert!(matches!(
            v,
            Violation::Attack {
                line: LineKind::Diagonal,
                ..
            }
        ));
    }

    #[test]
    fn off_board() {
        assert!(matches!(
            check_placement(&p(&[1, 4, 0, 2])),
            Err(Violation::OffBoard {
                row: 1,
                col: 4,
                n: 4
            })
        ));
    }
}
