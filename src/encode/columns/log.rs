//! The log domain encoding (Iwama & Miyazaki 1994; Walsh 2000): `k = ceil(log2 n)` bits per
//! row (`k = 0` for `n = 1`), bit 0 least significant, spelling the 0-based column; the
//! `2^k - n` patterns of columns `n..2^k-1` are excluded by one `k`-literal clause each
//! (group `D1`).
//!
//! DIMACS variable `r*k + b + 1`. A value is its `k` bits.
//!
//! ## References
//! - K. Iwama and S. Miyazaki, "SAT-Variable Complexity of Hard Combinatorial Problems",
//!   IFIP World Computer Congress 1994, pp. 253-258.
//! - T. Walsh, "SAT v CSP", CP 2000, LNCS 1894, pp. 441-456.

use super::{ColumnDecodeError, DomainEncoding, DomainGroup, Row, RowClauses};
use crate::cnf::{Lit, Var};
use crate::encode::amo::bits_for;
use crate::encode::Amo;
use std::io;

/// The log domain in the catalogue ([`super::DOMAINS`]).
pub struct Log;

impl DomainEncoding for Log {
    fn name(&self) -> &'static str {
        "log"
    }
    fn summary(&self) -> &'static str {
        "the 0-based value in binary, ceil(log2 n) bits; the patterns past n excluded"
    }
    fn vars_per_row(&self, n: usize) -> usize {
        bits_for(n)
    }
    fn groups(&self, n: usize, _: Amo) -> Option<Vec<DomainGroup>> {
        let k = bits_for(n);
        let excluded = 1u64.checked_shl(k as u32)? - n as u64;
        Some(vec![DomainGroup::domain(
            "D1",
            "the bit patterns of columns beyond n are excluded",
            excluded,
            excluded.checked_mul(k as u64)?,
        )])
    }
    fn encode_row(&self, at: RowClauses<'_>) -> io::Result<()> {
        let RowClauses { n, row, sink, .. } = at;
        let k = bits_for(n);
        let mut clause = Vec::with_capacity(k);
        for v in n..(1usize << k) {
            clause.clear();
            clause.extend((0..k).map(|b| row.var(b).lit(v >> b & 1 == 0)));
            sink.add_clause(&clause)?;
        }
        Ok(())
    }
    fn push_value_lits(&self, n: usize, row: Row, c: usize, out: &mut Vec<Lit>) {
        out.extend((0..bits_for(n)).map(|b| row.var(b).lit(c >> b & 1 == 1)));
    }
    fn value_lits_len(&self, n: usize, _: usize) -> u64 {
        bits_for(n) as u64
    }
    fn decode_row(
        &self,
        n: usize,
        row: Row,
        val: &dyn Fn(Var) -> bool,
    ) -> Result<usize, ColumnDecodeError> {
        let value = (0..bits_for(n))
            .filter(|&b| val(row.var(b)))
            .map(|b| 1usize << b)
            .sum();
        if value >= n {
            return Err(ColumnDecodeError::OutOfRange {
                row: row.index,
                value,
                n,
            });
        }
        Ok(value)
    }
    fn var_name(&self, _: usize, r: usize, p: usize) -> String {
        format!("x({}).bit{}", r + 1, p)
    }
    fn var_meaning(&self, _: usize, r: usize, p: usize) -> String {
        format!(
            "bit {p} (weight {}) of the 0-based column of row {}'s queen",
            1u64 << p,
            r + 1
        )
    }
    fn numbering(&self, n: usize) -> String {
        let k = bits_for(n);
        format!(
            "variables: var (r-1)*{k} + b + 1 = x(r).bitb, bit b (weight 2^b, b = 0..{}) of the 0-based column of row r's queen",
            k.saturating_sub(1)
        )
    }
}
