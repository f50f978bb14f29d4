//! The geometry of the board: cells, the four kinds of line (rows, columns and the two
//! diagonal directions), the square and the toroidal board, and the lines themselves with
//! their cells, lengths and names.
//!
//! On the square board the `/` diagonal of cell (r, c) (0-based) is numbered `r + c` and the
//! `\` diagonal `r - c + n - 1`, both in `0..2n - 1`; on the torus they are `(r + c) mod n` and
//! `(r - c) mod n` ([`Geometry::diagonal`], [`Geometry::anti_diagonal`]). A [`Line`] is a kind
//! and such a number.

/// A cell of the board: 0-based row and column.
pub type Cell = (usize, usize);

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
    #[inline]
    pub fn diagonal(self, n: usize, r: usize, c: usize) -> usize {
        match self {
            Geometry::Square => r + c,
            Geometry::Toroidal => (r + c) % n,
        }
    }

    /// The index of the `\` diagonal of cell (r, c): `r - c + n - 1` on the square,
    /// `(r - c) mod n` on the torus.
    #[inline]
    pub fn anti_diagonal(self, n: usize, r: usize, c: usize) -> usize {
        match self {
            Geometry::Square => r + n - 1 - c,
            Geometry::Toroidal => (r + n - c) % n,
        }
    }

    /// The line two distinct cells of an `n` x `n` board share, if any.
    pub fn shared_line(self, n: usize, a: Cell, b: Cell) -> Option<LineKind> {
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

/// One line of the board: a row, a column or a diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// What kind of line.
    pub kind: LineKind,
    /// Which one: the row, the column, `r + c` for a `/` diagonal, `r - c + n - 1` for a `\`
    /// diagonal (all 0-based). On the torus ([`Geometry::Toroidal`]) the diagonals are
    /// `(r + c) mod n` and `(r - c) mod n`, as [`Geometry::diagonal`] and
    /// [`Geometry::anti_diagonal`] number them.
    pub index: usize,
}

impl Line {
    /// Number of lines of `kind` on an `n` x `n` board (the square board's; see
    /// [`Line::count_on`]).
    pub fn count(kind: LineKind, n: usize) -> usize {
        Line::count_on(kind, n, Geometry::Square)
    }

    /// Number of lines of `kind` on an `n` x `n` board of the given geometry: `n` rows and
    /// `n` columns; `2n - 1` diagonals per direction on the square, `n` on the torus.
    pub fn count_on(kind: LineKind, n: usize, geometry: Geometry) -> usize {
        match (kind, geometry) {
            (LineKind::Row | LineKind::Column, _) | (_, Geometry::Toroidal) => n,
            (LineKind::Diagonal | LineKind::AntiDiagonal, Geometry::Square) => {
                (2 * n).saturating_sub(1)
            }
        }
    }

    /// The length of this line on an `n` x `n` square board (see [`Line::len_on`]).
    pub fn len(&self, n: usize) -> usize {
        self.len_on(n, Geometry::Square)
    }

    /// The length of this line on an `n` x `n` board of the given geometry: every line of the
    /// torus has `n` cells.
    pub fn len_on(&self, n: usize, geometry: Geometry) -> usize {
        match (self.kind, geometry) {
            (LineKind::Row | LineKind::Column, _) | (_, Geometry::Toroidal) => n,
            (LineKind::Diagonal | LineKind::AntiDiagonal, Geometry::Square) => {
                if self.index < n {
                    self.index + 1
                } else {
                    2 * n - 1 - self.index
                }
            }
        }
    }

    /// The cells (0-based row, column) of the line on the square board, in increasing row
    /// (rows: increasing column). See [`Line::cells_on`].
    pub fn cells(&self, n: usize) -> impl Iterator<Item = Cell> {
        self.cells_on(n, Geometry::Square)
    }

    /// The cells (0-based row, column) of the line on a board of the given geometry, in
    /// increasing row (rows: increasing column). On the torus the `/` diagonal `i` is the
    /// cells with `(r + c) mod n = i` and the `\` diagonal `i` those with `(r - c) mod n = i`,
    /// one per row.
    pub fn cells_on(&self, n: usize, geometry: Geometry) -> impl Iterator<Item = Cell> {
        let (i, kind) = (self.index, self.kind);
        let len = self.len_on(n, geometry);
        (0..len).map(move |t| match (kind, geometry) {
            (LineKind::Row, _) => (i, t),
            (LineKind::Column, _) => (t, i),
            (LineKind::Diagonal, Geometry::Square) => {
                let r0 = i.saturating_sub(n - 1);
                (r0 + t, i - r0 - t)
            }
            (LineKind::AntiDiagonal, Geometry::Square) => {
                // r - c = i - (n - 1)
                let r0 = i.saturating_sub(n - 1);
                let c0 = (n - 1).saturating_sub(i);
                (r0 + t, c0 + t)
            }
            // c = (i - r) mod n
            (LineKind::Diagonal, Geometry::Toroidal) => (t, (i + n - t) % n),
            // c = (r - i) mod n
            (LineKind::AntiDiagonal, Geometry::Toroidal) => (t, (t + n - i) % n),
        })
    }

    /// A human name on the square board, 1-based: "row 3", "column 2", "/ diagonal r+c=5",
    /// "\ diagonal r-c=-1". See [`Line::describe_on`].
    pub fn describe(&self, n: usize) -> String {
        self.describe_on(n, Geometry::Square)
    }

    /// A human name on a board of the given geometry, 1-based. On the square as
    /// [`Line::describe`]; on the torus the diagonals are named by their residue:
    /// "/ diagonal r+c≡5 (mod 8)", "\ diagonal r-c≡7 (mod 8)" (residues `0..n`).
    pub fn describe_on(&self, n: usize, geometry: Geometry) -> String {
        match (self.kind, geometry) {
            (LineKind::Row, _) => format!("row {}", self.index + 1),
            (LineKind::Column, _) => format!("column {}", self.index + 1),
            // 1-based r + c = 0-based r + c + 2
            (LineKind::Diagonal, Geometry::Square) => {
                format!("/ diagonal r+c={}", self.index + 2)
            }
            (LineKind::AntiDiagonal, Geometry::Square) => {
                format!("\\ diagonal r-c={}", self.index as i64 - (n as i64 - 1))
            }
            (LineKind::Diagonal, Geometry::Toroidal) => {
                format!("/ diagonal r+c≡{} (mod {n})", (self.index + 2) % n)
            }
            // 1-based r - c = 0-based r - c
            (LineKind::AntiDiagonal, Geometry::Toroidal) => {
                format!("\\ diagonal r-c≡{} (mod {n})", self.index)
            }
        }
    }
}

/// The line two distinct cells of the square board share, if any (the board's size does not
/// matter on the square board).
pub fn shared_line(a: Cell, b: Cell) -> Option<LineKind> {
    // On the square board the line does not depend on n; any n past both cells will do.
    let n = a.0.max(a.1).max(b.0).max(b.1) + 1;
    Geometry::Square.shared_line(n, a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_lines() {
        assert_eq!(shared_line((0, 0), (0, 5)), Some(LineKind::Row));
        assert_eq!(shared_line((0, 3), (5, 3)), Some(LineKind::Column));
        assert_eq!(shared_line((0, 3), (3, 0)), Some(LineKind::Diagonal));
        assert_eq!(shared_line((1, 2), (3, 4)), Some(LineKind::AntiDiagonal));
        assert_eq!(shared_line((0, 0), (1, 2)), None);
    }
}
