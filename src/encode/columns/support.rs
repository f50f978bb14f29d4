//! The support encoding of the three all-different constraints (direct domain only; Gent
//! 2002): for every ordered pair of distinct rows `(r, s)` and value `a`,
//! `(-x(r)=a v OR_{b compatible with a} x(s)=b)`, group `S`: `n^2 (n-1)` clauses.
//!
//! Value `b` of row `s` is compatible with value `a` of row `r` unless `b = a` or
//! `b = a -+ d` (`d = |r - s|`), so `a` has `n - 1 - [a >= d] - [a + d < n]` supports; without
//! any (only for `n = 2`) the clause is the unit `-x(r)=a`. The clauses are correct only
//! together with the at-least-one and at-most-one clauses of the direct domain, which the
//! direct domain always has. Summed, the clauses have `2 (n^2 C(n,2) - 2 S2)` literals
//! (`S2 = (n-1)n(2n-1)/6`).
//!
//! On the torus the values `a`, `a - d`, `a + d` (mod n) excluded for `a` are three distinct
//! ones, except at `d = n/2` (n even) where `a - d = a + d`: so `n - 3` supports, or `n - 2`.
//!
//! ## References
//! - I. P. Gent, "Arc Consistency in SAT", ECAI 2002, pp. 121-125.

use super::{ColumnEncoder, ConstraintEncoding, ConstraintGroup, DomainEncoding};
use crate::board::Geometry;
use crate::cnf::ClauseSink;
use crate::encode::{Rule, VarAlloc};
use std::io;

/// The support encoding in the catalogue ([`super::CONSTRAINTS`]).
pub struct Support;

impl ConstraintEncoding for Support {
    fn name(&self) -> &'static str {
        "support"
    }
    fn summary(&self) -> &'static str {
        "one clause per value of a row and other row: the value's supports there"
    }
    fn domains(&self) -> Option<&'static [&'static str]> {
        Some(&["direct"])
    }
    fn groups(
        &self,
        n: usize,
        geometry: Geometry,
        _: &dyn DomainEncoding,
    ) -> Option<Vec<ConstraintGroup>> {
        let nn = n as u64;
        let (pairs, s2) = super::row_pairs(nn)?;
        // Per ordered row pair at distance d: n clauses with n^2 - 2(n-d) literals.
        let clauses = nn.checked_mul(nn)?.checked_mul(nn - 1)?;
        let literals = if geometry == Geometry::Toroidal {
            // n - 2 literals per value and ordered pair (the supports and the head), plus one
            // for each of the n * n clauses of distance n/2 when n is even.
            let even = if nn.is_multiple_of(2) {
                nn.checked_mul(nn)?
            } else {
                0
            };
            nn.checked_mul(pairs)?
                .checked_mul(2)?
                .checked_mul(nn.saturating_sub(2))?
                .checked_add(even)?
        } else {
            nn.checked_mul(nn)?
                .checked_mul(pairs)?
                .checked_sub(s2.checked_mul(2)?)?
                .checked_mul(2)?
        };
        Some(vec![ConstraintGroup {
            tag: "S",
            meaning: "every column of a row has a compatible column in every other row".into(),
            rule: Rule::Support,
            vars: 0,
            clauses,
            literals,
        }])
    }
    fn encode(
        &self,
        enc: &ColumnEncoder,
        _: usize,
        _: &mut VarAlloc,
        sink: &mut dyn ClauseSink,
    ) -> io::Result<()> {
        let n = enc.n();
        let torus = enc.geometry() == Geometry::Toroidal;
        let mut clause = Vec::with_capacity(n);
        for r in 0..n {
            for s in (0..n).filter(|&s| s != r) {
                let d = r.abs_diff(s);
                for a in 0..n {
                    clause.clear();
                    enc.push_value_lits(r, a, &mut clause);
                    clause[0] = !clause[0];
                    for b in (0..n).filter(|&b| {
                        if torus {
                            b != a && b != (a + n - d) % n && b != (a + d) % n
                        } else {
                            b != a && b + d != a && a + d != b
                        }
                    }) {
                        enc.push_value_lits(s, b, &mut clause);
                    }
                    sink.add_clause(&clause)?;
                }
            }
        }
        Ok(())
    }
}
