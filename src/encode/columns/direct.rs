//! The direct domain encoding (Walsh 2000): one variable `x(r)=c` per row and column, `n` per
//! row, at least one value per row (group `D1`, one clause of `n` literals a row) and at most
//! one value per row with the chosen at-most-one encoding (group `D2`).
//!
//! DIMACS variable `r*n + c + 1` (0-based `r`, `c`): the same numbers as the cell model's
//! `q(r,c)`. The at-most-one's auxiliary variables follow all the rows' variables, one block
//! per row, in row order. A value is one literal, `x(r)=c`.
//!
//! ## References
//! - T. Walsh, "SAT v CSP", Principles and Practice of Constraint Programming (CP 2000),
//!   LNCS 1894, pp. 441-456.

use super::{ColumnDecodeError, DomainEncoding, DomainGroup, Row, RowClauses};
use crate::board::LineKind;
use crate::cnf::{Lit, Var};
use crate::encode::{Amo, Rule, Size};
use std::io;

/// The direct domain in the catalogue ([`super::DOMAINS`]).
pub struct Direct;

impl DomainEncoding for Direct {
    fn name(&self) -> &'static str {
        "direct"
    }
    fn summary(&self) -> &'static str {
        "one variable per value, x(r)=c; at least one and at most one (amo) per row"
    }
    fn uses_amo(&self) -> bool {
        true
    }
    fn vars_per_row(&self, n: usize) -> usize {
        n
    }
    fn cell_variables(&self) -> bool {
        true
    }
    fn groups(&self, n: usize, amo: Amo) -> Option<Vec<DomainGroup>> {
        Some(vec![
            DomainGroup {
                tag: "D1",
                meaning: "every row's queen is in at least one column".into(),
                rule: Rule::AtLeastOne(LineKind::Row),
                label_rows: true,
                per_row: Size {
                    vars: 0,
                    clauses: 1,
                    literals: n as u64,
                },
            },
            DomainGroup {
                tag: "D2",
                meaning: format!("every row's queen is in at most one column ({amo} at-most-one)"),
                rule: Rule::AtMostOne(LineKind::Row),
                label_rows: true,
                per_row: amo.size(n),
            },
        ])
    }
    fn encode_row(&self, at: RowClauses<'_>) -> io::Result<()> {
        let RowClauses {
            n,
            group,
            row,
            amo,
            alloc,
            sink,
        } = at;
        let values: Vec<Lit> = (0..n).map(|c| row.var(c).positive()).collect();
        if group == 0 {
            sink.add_clause(&values)
        } else {
            amo.encode(&values, alloc, sink)
        }
    }
    fn push_value_lits(&self, _: usize, row: Row, c: usize, out: &mut Vec<Lit>) {
        out.push(row.var(c).positive());
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
        ColumnDecodeError::one_value(row.index, (0..n).filter(|&c| val(row.var(c))))
    }
    fn var_name(&self, _: usize, r: usize, p: usize) -> String {
        format!("x({})={}", r + 1, p + 1)
    }
    fn var_meaning(&self, _: usize, r: usize, p: usize) -> String {
        format!("the queen of row {} is in column {}", r + 1, p + 1)
    }
    fn numbering(&self, n: usize) -> String {
        format!(
            "variables: var (r-1)*{n} + c = x(r)=c, the queen of row r is in column c (1-based)"
        )
    }
}
