//! The coupled domain encoding: the direct and the order encodings of each row's integer side
//! by side, channelled, so that constraints can use either (as integer encodings in SAT
//! libraries offer it). Per row, `n` direct variables `x(r)=c` and then `n - 1` order
//! variables `[x(r) >= c]` (`c = 1..n-1`, 0-based), `2n - 1` in all.
//!
//! Clauses, per row:
//! - `D1`, the order ladder `[x(r) >= c+1] -> [x(r) >= c]`: `n - 2` binary clauses (`n >= 2`);
//! - `D2`, the channelling `x(r)=c <-> [x(r) >= c] and not [x(r) >= c+1]` (the bound
//!   `[x(r) >= 0]` is true and `[x(r) >= n]` false, so their literals are left out): for each
//!   value `x(r)=c -> [x(r) >= c]` (if `c > 0`), `x(r)=c -> not [x(r) >= c+1]` (if `c < n-1`)
//!   and `[x(r) >= c] and not [x(r) >= c+1] -> x(r)=c`; `3n - 2` clauses with `7n - 6`
//!   literals for `n >= 2`, the unit `x(r)=1` for `n = 1`.
//!
//! The ladder makes the true bounds a prefix, so exactly one value has its bound true and the
//! next one false, and the channelling makes exactly that direct variable true: no at-least-one
//! or at-most-one clauses are needed. A value is one literal, `x(r)=c`, so the conflict
//! clauses are those of the direct domain, while unit propagation also sees the bounds.
//!
//! DIMACS variables: row `r` (0-based) has the block starting at `r(2n-1) + 1`; `x(r)=c` is
//! `r(2n-1) + c + 1`, `[x(r) >= c]` is `r(2n-1) + n + c`. The direct variables are the
//! projection: the bounds are determined by them, so the count is preserved.
//!
//! ## References
//! - T. Walsh, "SAT v CSP", CP 2000, LNCS 1894, pp. 441-456 (the direct encoding).
//! - N. Tamura, A. Taga, S. Kitagawa and M. Banbara, "Compiling finite linear CSP into SAT",
//!   Constraints 14(2) (2009), pp. 254-272 (the order encoding).
//! - I. P. Gent and P. Nightingale, "A new encoding of AllDifferent into SAT", CP 2004
//!   workshop on modelling and reformulating constraint satisfaction problems (the
//!   channelling of values and bounds).

use super::{ColumnDecodeError, DomainEncoding, DomainGroup, Row, RowClauses};
use crate::cnf::{Lit, Var};
use crate::encode::Amo;
use std::io;

/// The coupled domain in the catalogue ([`super::DOMAINS`]).
pub struct Coupled;

/// `x(row)=c`.
fn value(row: Row, c: usize) -> Var {
    row.var(c)
}

/// `[x(row) >= c]` for `c` in `1..n`.
fn bound(n: usize, row: Row, c: usize) -> Var {
    debug_assert!(c >= 1 && c < n);
    row.var(n + c - 1)
}

impl DomainEncoding for Coupled {
    fn name(&self) -> &'static str {
        "coupled"
    }
    fn summary(&self) -> &'static str {
        "the direct and the order encodings of each row, channelled"
    }
    fn vars_per_row(&self, n: usize) -> usize {
        2 * n - 1
    }
    fn projected_per_row(&self, n: usize) -> usize {
        n
    }
    fn groups(&self, n: usize, _: Amo) -> Option<Vec<DomainGroup>> {
        let ladder = n.saturating_sub(2) as u64;
        let nn = n as u64;
        let (clauses, literals) = if n == 1 {
            (1, 1)
        } else {
            (3 * nn - 2, 7 * nn - 6)
        };
        Some(vec![
            DomainGroup::domain(
                "D1",
                "ladder: [x(r) >= c+1] implies [x(r) >= c]",
                ladder,
                ladder.checked_mul(2)?,
            ),
            DomainGroup::domain(
                "D2",
                "channelling: x(r)=c iff [x(r) >= c] and not [x(r) >= c+1]",
                clauses,
                literals,
            ),
        ])
    }
    fn encode_row(&self, at: RowClauses<'_>) -> io::Result<()> {
        let RowClauses {
            n,
            group,
            row,
            sink,
            ..
        } = at;
        if group == 0 {
            for c in 1..n.saturating_sub(1) {
                sink.add_clause(&[bound(n, row, c + 1).negative(), bound(n, row, c).positive()])?;
            }
            return Ok(());
        }
        let mut back = Vec::with_capacity(3);
        for c in 0..n {
            let x = value(row, c).positive();
            back.clear();
            if c > 0 {
                sink.add_clause(&[!x, bound(n, row, c).positive()])?;
                back.push(bound(n, row, c).negative());
            }
            if c + 1 < n {
                sink.add_clause(&[!x, bound(n, row, c + 1).negative()])?;
                back.push(bound(n, row, c + 1).positive());
            }
            back.push(x);
            sink.add_clause(&back)?;
        }
        Ok(())
    }
    fn push_value_lits(&self, _: usize, row: Row, c: usize, out: &mut Vec<Lit>) {
        out.push(value(row, c).positive());
    }
    fn bound_lit(&self, n: usize, row: Row, c: usize) -> Option<Lit> {
        (c >= 1 && c < n).then(|| bound(n, row, c).positive())
    }
    fn value_lits_len(&self, _: usize, _: usize) -> u64 {
        1
    }
    fn decode_row(
        &self,
        n: usize,
        row: Row,
        val: &dyn Fn(Var) -> bool,
    ) -> Result<usize, ColumnDecodeError> {
        ColumnDecodeError::one_value(row.index, (0..n).filter(|&c| val(value(row, c))))
    }
    fn var_name(&self, n: usize, r: usize, p: usize) -> String {
        if p < n {
            format!("x({})={}", r + 1, p + 1)
        } else {
            // Bound c = p - n + 1 (0-based) is column p - n + 2.
            format!("[x({}) >= {}]", r + 1, p - n + 2)
        }
    }
    fn var_meaning(&self, n: usize, r: usize, p: usize) -> String {
        if p < n {
            format!("the queen of row {} is in column {}", r + 1, p + 1)
        } else {
            format!(
                "the queen of row {} is in column {} or further right",
                r + 1,
                p - n + 2
            )
        }
    }
    fn numbering(&self, n: usize) -> String {
        format!(
            "variables: var (r-1)*{w} + c = x(r)=c (c = 1..{n}), var (r-1)*{w} + {n} + c - 1 = [x(r) >= c] (c = 2..{n}), 1-based",
            w = 2 * n - 1
        )
    }
}
