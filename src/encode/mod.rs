//! The n-queens CNF encoder.
//!
//! [`QueensEncoder`] decides which line of the board gets which constraint and streams the
//! clauses into any [`crate::cnf::ClauseSink`]; [`amo`] holds the at-most-one encodings it
//! applies to each line. Sizes are known in closed form before the first clause is made
//! ([`QueensEncoder::size`]), so a DIMACS header can be written up front.
//!
//! Variable numbering (shared by every interface): the cell in 0-based row `r`, column `c` is
//! DIMACS variable `r * n + c + 1`, so `1..=n*n` are the cells, row-major; auxiliary variables
//! of an encoding follow, in the order the lines are encoded.

pub mod amo;
pub mod columns;
mod queens;

pub use amo::Amo;
pub use columns::{
    ColumnDecodeError, ColumnEncoder, ColumnError, ColumnGroup, ColumnOptions, Constraints, Domain,
};
pub use queens::{AuxBlock, EncodeError, EncodeOptions, Group, Line, LineEncodings, QueensEncoder};

use crate::cnf::{Lit, Var};

/// The DIMACS-numbered variable of cell (`r`, `c`), 0-based, on an `n` x `n` board.
#[inline]
pub fn cell_var(n: usize, r: usize, c: usize) -> Var {
    Var::from_index(r * n + c)
}

/// The positive literal of cell (`r`, `c`), 0-based: "a queen stands on (r, c)".
#[inline]
pub fn cell_lit(n: usize, r: usize, c: usize) -> Lit {
    cell_var(n, r, c).positive()
}

/// The cell (0-based row, column) of a variable, or `None` for an auxiliary variable.
pub fn cell_of_var(n: usize, var: Var) -> Option<(usize, usize)> {
    let i = var.index();
    (i < n * n).then(|| (i / n, i % n))
}

/// The number of variables, clauses and literal occurrences of a formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Variables (cells plus auxiliaries).
    pub vars: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences over all clauses.
    pub literals: u64,
}

impl Size {
    /// The exact size in bytes of the clause lines of a DIMACS file with this formula is not
    /// known without writing it; this is an upper estimate: every literal takes the digits of
    /// the largest variable plus a sign and a space, every clause `0\n`.
    pub fn estimated_dimacs_bytes(&self) -> u64 {
        let digits = self.vars.max(1).ilog10() as u64 + 1;
        self.literals.saturating_mul(digits + 2) + self.clauses.saturating_mul(2)
    }
}

impl std::ops::Add for Size {
    type Output = Size;
    fn add(self, o: Size) -> Size {
        Size {
            vars: self.vars + o.vars,
            clauses: self.clauses + o.clauses,
            literals: self.literals + o.literals,
        }
    }
}

/// Hands out fresh auxiliary variables, in increasing order.
#[derive(Clone, Debug)]
pub struct VarAlloc {
    next: usize,
}

impl VarAlloc {
    /// An allocator whose first fresh variable has 0-based index `first_index`
    /// (DIMACS number `first_index + 1`).
    pub fn starting_at(first_index: usize) -> Self {
        VarAlloc { next: first_index }
    }

    /// A fresh variable.
    pub fn fresh(&mut self) -> Var {
        let v = Var::from_index(self.next);
        self.next += 1;
        v
    }

    /// The number of variables handed out or reserved so far, counting from index 0.
    pub fn used(&self) -> usize {
        self.next
    }
}
