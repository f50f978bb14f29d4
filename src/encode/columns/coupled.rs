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

use super::direct::Direct;
use super::order::{self, Order};
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

/// The order part of the row: its `n - 1` bounds, laid out as a row of the order domain.
fn bounds(n: usize, row: Row) -> Row {
    Row {
        index: row.index,
        first: row.first + n,
    }
}

/// `[x(row) >= c]` for `c` in `1..n`.
fn bound(n: usize, row: Row, c: usize) -> Var {
    debug_assert!(c >= 1 && c < n);
    order::bound(bounds(n, row), c)
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
    fn groups(&self, n: usize, amo: Amo) -> Option<Vec<DomainGroup>> {
        let nn = n as u64;
        let (clauses, literals) = if n == 1 {
            (1, 1)
        } else {
            (3 * nn - 2, 7 * nn - 6)
        };
        // D1, the order domain's ladder over the bounds.
        let mut groups = Order.groups(n, amo)?;
        groups.push(DomainGroup::domain(
            "D2",
            "channelling: x(r)=c iff [x(r) >= c] and not [x(r) >= c+1]",
            clauses,
            literals,
        ));
        Some(groups)
    }
    fn encode_row(&self, at: RowClauses<'_>) -> io::Result<()> {
        if at.group == 0 {
            let row = bounds(at.n, at.row);
            return Order.encode_row(RowClauses { row, ..at });
        }
        let RowClauses { n, row, sink, .. } = at;
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
    // A value is read as in the direct domain, a bound as in the order domain.
    fn push_value_lits(&self, n: usize, row: Row, c: usize, out: &mut Vec<Lit>) {
        Direct.push_value_lits(n, row, c, out);
    }
    fn bound_lit(&self, n: usize, row: Row, c: usize) -> Option<Lit> {
        Order.bound_lit(n, bounds(n, row), c)
    }
    fn value_lits_len(&self, n: usize, c: usize) -> u64 {
        Direct.value_lits_len(n, c)
    }
    fn decode_row(
        &self,
        n: usize,
        row: Row,
        val: &dyn Fn(Var) -> bool,
    ) -> Result<usize, ColumnDecodeError> {
        Direct.decode_row(n, row, val)
    }
    fn var_name(&self, n: usize, r: usize, p: usize) -> String {
        if p < n {
            Direct.var_name(n, r, p)
        } else {
            Order.var_name(n, r, p - n)
        }
    }
    fn var_meaning(&self, n: usize, r: usize, p: usize) -> String {
        if p < n {
            Direct.var_meaning(n, r, p)
        } else {
            Order.var_meaning(n, r, p - n)
        }
    }
    fn numbering(&self, n: usize) -> String {
        format!(
            "variables: var (r-1)*{w} + c = x(r)=c (c = 1..{n}), var (r-1)*{w} + {n} + c - 1 = [x(r) >= c] (c = 2..{n}), 1-based",
            w = 2 * n - 1
        )
    }
}
