//! The order domain encoding (Tamura, Taga, Kitagawa, Banbara 2009): one variable
//! `[x(r) >= c]` per row and column `c = 1..n-1` (0-based; `[x(r) >= 0]` is always true and has
//! no variable), `n - 1` per row, with the ladder `[x(r) >= c+1] -> [x(r) >= c]` (group `D1`,
//! `n - 2` binary clauses a row for `n >= 2`).
//!
//! DIMACS variable `r*(n-1) + c` (0-based `r`, `c >= 1`). Value `c` is `[x(r) >= c]` (if
//! `c > 0`) and `-[x(r) >= c+1]` (if `c < n-1`): one literal at either end of the board, two
//! inside, none for `n = 1`.
//!
//! ## References
//! - N. Tamura, A. Taga, S. Kitagawa and M. Banbara, "Compiling finite linear CSP into SAT",
//!   Constraints 14(2) (2009), pp. 254-272.

use super::{ColumnDecodeError, DomainEncoding, DomainGroup, Row, RowClauses};
use crate::cnf::{Lit, Var};
use crate::encode::Amo;
use std::io;

/// The order domain in the catalogue ([`super::DOMAINS`]).
pub struct Order;

/// `[x(row) >= c]` for `c` in `1..n`.
pub(super) fn bound(row: Row, c: usize) -> Var {
    debug_assert!(c >= 1);
    row.var(c - 1)
}

impl DomainEncoding for Order {
    fn name(&self) -> &'static str {
        "order"
    }
    fn summary(&self) -> &'static str {
        "one variable per bound, [x(r) >= c], chained by a ladder"
    }
    fn vars_per_row(&self, n: usize) -> usize {
        n - 1
    }
    fn groups(&self, n: usize, _: Amo) -> Option<Vec<DomainGroup>> {
        let clauses = n.saturating_sub(2) as u64;
        Some(vec![DomainGroup::domain(
            "D1",
            "ladder: [x(r) >= c+1] implies [x(r) >= c]",
            clauses,
            clauses.checked_mul(2)?,
        )])
    }
    fn encode_row(&self, at: RowClauses<'_>) -> io::Result<()> {
        let RowClauses { n, row, sink, .. } = at;
        for c in 1..n.saturating_sub(1) {
            sink.add_clause(&[bound(row, c + 1).negative(), bound(row, c).positive()])?;
        }
        Ok(())
    }
    fn push_value_lits(&self, n: usize, row: Row, c: usize, out: &mut Vec<Lit>) {
        if c > 0 {
            out.push(bound(row, c).positive());
        }
        if c + 1 < n {
            out.push(bound(row, c + 1).negative());
        }
    }
    fn bound_lit(&self, n: usize, row: Row, c: usize) -> Option<Lit> {
        (c >= 1 && c < n).then(|| bound(row, c).positive())
    }
    fn value_lits_len(&self, n: usize, c: usize) -> u64 {
        (c > 0) as u64 + (c + 1 < n) as u64
    }
    fn decode_row(
        &self,
        n: usize,
        row: Row,
        val: &dyn Fn(Var) -> bool,
    ) -> Result<usize, ColumnDecodeError> {
        // The value is the number of true bounds when they form a prefix.
        let mut value = 0;
        for c in 1..n {
            if val(bound(row, c)) {
                if value + 1 != c {
                    return Err(ColumnDecodeError::BrokenLadder {
                        row: row.index,
                        value: c - 1,
                    });
                }
                value = c;
            }
        }
        Ok(value)
    }
    fn var_name(&self, _: usize, r: usize, p: usize) -> String {
        // 0-based bound p + 1 is column p + 2.
        format!("[x({}) >= {}]", r + 1, p + 2)
    }
    fn var_meaning(&self, _: usize, r: usize, p: usize) -> String {
        format!(
            "the queen of row {} is in column {} or further right",
            r + 1,
            p + 2
        )
    }
    fn numbering(&self, n: usize) -> String {
        format!(
            "variables: var (r-1)*{} + c - 1 = [x(r) >= c], the queen of row r is in column c or further right (c = 2..{n}, 1-based)",
            n - 1
        )
    }
}
