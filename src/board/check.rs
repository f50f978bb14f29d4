//! Is a placement a solution? A linear-time check that names what is wrong.
//!
//! [`check_placement`] uses one flag array per line kind (columns, `/` diagonals with equal
//! `r + c`, `\` diagonals with equal `r - c`); rows hold one queen by construction of
//! [`Placement`]. On failure it returns the first attacking pair it meets.

use super::{Cell, Geometry, LineKind, Placement};

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
        a: Cell,
        /// The later queen (row, column).
        b: Cell,
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
