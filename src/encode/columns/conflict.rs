//! The conflict encoding of the three all-different constraints (any domain; Walsh 2000): for
//! rows `r1 < r2` and every pair of values that conflict, the clause that forbids both, the
//! negation of [`ColumnEncoder::value_lits`]`(r1, a)` and `value_lits(r2, b)`.
//!
//! For row distance `d = r2 - r1` there are `n` column conflicts (`a = b`, group `C1`),
//! `n - d` `/` conflicts (`b = a - d`, group `C2`) and `n - d` `\` conflicts (`b = a + d`,
//! group `C3`). Summed: `C1` has `n C(n,2)` clauses, `C2` and `C3` each
//! `S2 = sum_{j=1}^{n-1} j^2 = (n-1)n(2n-1)/6`. On the torus every value has exactly one
//! conflict per row and direction (`b = a -+ d mod n`), so `C2` and `C3` are the size of `C1`.
//!
//! Literals: with `L(c)` the literals of value `c` in the domain
//! ([`super::DomainEncoding::value_lits_len`]) and `P(k) = L(0) + ... + L(k-1)`, `C1` has
//! `2 C(n,2) P(n)` and, on the square, `C2` and `C3` each
//! `sum_{d=1}^{n-1} (n-d) (P(n) - P(d) + P(n-d))`: the values `a >= d` of the upper row and
//! `b < n-d` of the lower one (and mirrored). That sum is computed in O(n) steps.
//!
//! ## References
//! - T. Walsh, "SAT v CSP", Principles and Practice of Constraint Programming (CP 2000),
//!   LNCS 1894, pp. 441-456.

use super::{ColumnEncoder, ConstraintEncoding, ConstraintGroup, DomainEncoding};
use crate::board::{Geometry, LineKind};
use crate::cnf::ClauseSink;
use crate::encode::{Rule, VarAlloc};
use std::io;

/// The conflict encoding in the catalogue ([`super::CONSTRAINTS`]).
pub struct Conflict;

/// The three groups: the line kind each constrains, its tag and its meaning on the square and
/// on the torus.
const GROUPS: [(LineKind, &str, &str, &str); 3] = [
    (
        LineKind::Column,
        "C1",
        "the queens of two rows are in different columns: x(r) != x(s)",
        "the queens of two rows are in different columns: x(r) != x(s)",
    ),
    (
        LineKind::Diagonal,
        "C2",
        "the queens of two rows are on different / diagonals: x(r) + r != x(s) + s",
        "the queens of two rows are on different / diagonals: x(r) + r != x(s) + s (mod n)",
    ),
    (
        LineKind::AntiDiagonal,
        "C3",
        "the queens of two rows are on different \\ diagonals: x(r) - r != x(s) - s",
        "the queens of two rows are on different \\ diagonals: x(r) - r != x(s) - s (mod n)",
    ),
];

/// The value of row `r1 + d` that conflicts with value `a` of row `r1` on lines of `kind`.
fn partner(kind: LineKind, geometry: Geometry, n: usize, a: usize, d: usize) -> Option<usize> {
    match (kind, geometry) {
        (LineKind::Diagonal, Geometry::Square) => a.checked_sub(d),
        (LineKind::AntiDiagonal, Geometry::Square) => Some(a + d).filter(|&b| b < n),
        (LineKind::Diagonal, Geometry::Toroidal) => Some((a + n - d) % n),
        (LineKind::AntiDiagonal, Geometry::Toroidal) => Some((a + d) % n),
        _ => Some(a),
    }
}

impl ConstraintEncoding for Conflict {
    fn name(&self) -> &'static str {
        "conflict"
    }
    fn summary(&self) -> &'static str {
        "one clause per pair of conflicting values of two rows"
    }
    fn groups(
        &self,
        n: usize,
        geometry: Geometry,
        domain: &dyn DomainEncoding,
    ) -> Option<Vec<ConstraintGroup>> {
        let nn = n as u64;
        let (pairs, s2) = super::row_pairs(nn)?;
        let c1 = nn.checked_mul(pairs)?;
        // P(k) for k = 0..=n.
        let mut prefix = Vec::with_capacity(n + 1);
        prefix.push(0u64);
        for c in 0..n {
            prefix.push(prefix[c].checked_add(domain.value_lits_len(n, c))?);
        }
        let l1 = pairs.checked_mul(2)?.checked_mul(prefix[n])?;
        let diagonal = if geometry == Geometry::Toroidal {
            (c1, l1)
        } else {
            let mut literals = 0u64;
            for d in 1..n {
                let per_pair = prefix[n] - prefix[d] + prefix[n - d];
                literals = literals.checked_add(((n - d) as u64).checked_mul(per_pair)?)?;
            }
            (s2, literals)
        };
        let torus = geometry == Geometry::Toroidal;
        Some(
            GROUPS
                .iter()
                .map(|&(kind, tag, square, wrapped)| {
                    let (clauses, literals) = if kind == LineKind::Column {
                        (c1, l1)
                    } else {
                        diagonal
                    };
                    ConstraintGroup {
                        tag,
                        meaning: if torus { wrapped } else { square }.into(),
                        rule: Rule::AtMostOne(kind),
                        vars: 0,
                        clauses,
                        literals,
                    }
                })
                .collect(),
        )
    }
    fn encode(
        &self,
        enc: &ColumnEncoder,
        group: usize,
        _: &mut VarAlloc,
        sink: &mut dyn ClauseSink,
    ) -> io::Result<()> {
        let n = enc.n();
        let kind = GROUPS[group].0;
        let mut clause = Vec::new();
        for r1 in 0..n {
            for r2 in r1 + 1..n {
                for a in 0..n {
                    let Some(b) = partner(kind, enc.geometry(), n, a, r2 - r1) else {
                        continue;
                    };
                    clause.clear();
                    enc.push_value_lits(r1, a, &mut clause);
                    enc.push_value_lits(r2, b, &mut clause);
                    for l in clause.iter_mut() {
                        *l = !*l;
                    }
                    sink.add_clause(&clause)?;
                }
            }
        }
        Ok(())
    }
}
