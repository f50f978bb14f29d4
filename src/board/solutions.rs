//! Enumeration of the solutions of the n x n board one by one, by plain row-by-row
//! backtracking with column and diagonal flags. It is deliberately a separate code path from
//! the counter's bitboard kernels (no bitboards, no symmetry), so each can check the
//! other.

use super::{Geometry, Placement};

/// Iterator over every solution of n-queens, in lexicographic order of the one-line form.
///
/// ```
/// let sols: Vec<_> = queens_sat::board::solutions(4).map(|p| p.to_one_line()).collect();
/// assert_eq!(sols, ["2 4 1 3", "3 1 4 2"]);
/// ```
#[derive(Debug, Clone)]
pub struct Solutions {
    n: usize,
    cols: Vec<usize>,
    col_used: Vec<bool>,
    slash_used: Vec<bool>,
    backslash_used: Vec<bool>,
    /// Next column to try in the current row, or `None` when the search is over.
    next: Option<usize>,
}

/// All solutions of the n x n board in lexicographic order (none for n = 0, 2, 3).
pub fn solutions(n: usize) -> Solutions {
    let diags = (2 * n).saturating_sub(1);
    Solutions {
        n,
        cols: Vec::with_capacity(n),
        col_used: vec![false; n],
        slash_used: vec![false; diags],
        backslash_used: vec![false; diags],
        next: if n == 0 { None } else { Some(0) },
    }
}

/// One representative per symmetry class: the solutions equal to their own canonical form
/// ([`Placement::canonical`]), in lexicographic order. For n = 8 there are 12.
pub fn fundamental_solutions(n: usize) -> impl Iterator<Item = Placement> {
    solutions(n).filter(|p| p.canonical().as_ref() == Some(p))
}

impl Solutions {
    fn set(&mut self, r: usize, c: usize, v: bool) {
        let n = self.n;
        self.col_used[c] = v;
        self.slash_used[Geometry::Square.diagonal(n, r, c)] = v;
        self.backslash_used[Geometry::Square.anti_diagonal(n, r, c)] = v;
    }

    fn free(&self, r: usize, c: usize) -> bool {
        let n = self.n;
        !self.col_used[c]
            && !self.slash_used[Geometry::Square.diagonal(n, r, c)]
            && !self.backslash_used[Geometry::Square.anti_diagonal(n, r, c)]
    }
}

impl Iterator for Solutions {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        let n = self.n;
        let mut c = self.next?;
        loop {
            let r = self.cols.len();
            // Find the next free column of row r from c on.
            while c < n && !self.free(r, c) {
                c += 1;
            }
            if c < n {
                self.set(r, c, true);
                self.cols.push(c);
                if self.cols.len() == n {
                    let sol = Placement::from_cols(&self.cols);
                    // Resume by backtracking out of the last row.
                    let last = self.cols.pop().unwrap_or(0);
                    self.set(n - 1, last, false);
                    self.next = Some(last + 1);
                    return Some(sol);
                }
                c = 0;
            } else {
                // Row r exhausted: backtrack.
                match self.cols.pop() {
                    Some(prev) => {
                        self.set(self.cols.len(), prev, false);
                        c = prev + 1;
                    }
                    None => {
                        self.next = None;
                        return None;
                    }
                }
            }
        }
    }
}
