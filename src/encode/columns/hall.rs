//! The Hall-interval decomposition of the three all-different constraints (Bessiere,
//! Katsirelos, Narodytska, Quimper and Walsh, IJCAI 2009), over the bounds `[x(r) >= c]` of
//! the order or the coupled domain (`--constraints hall`, `--alldiff hall`).
//!
//! An all-different over variables `y_1..y_m` holds exactly when, for every interval `[l, u]`
//! of values, at most `u - l + 1` of the variables take a value in it (intervals of one value
//! already say it; the wider ones are the Hall intervals that the pairwise clauses do not
//! see). The decomposition introduces `A(i, l, u) <-> y_i in [l, u]` and the cardinality
//! constraint `sum_i A(i, l, u) <= u - l + 1`. When the variables are given in the order
//! encoding and each cardinality constraint is propagated to arc consistency, unit propagation
//! on the decomposition achieves bound consistency on the all-different (their Theorem), which
//! the pairwise decomposition does not.
//!
//! Here the three constraints are all `x(r)` different (`y = x`, group `C1`), all `x(r) + r`
//! (`/`, group `C2`) and all `x(r) - r` (`\`, group `C3`). A value interval of `y` is, for row
//! `r`, an interval `[a, b]` of columns (cut to the board; on the torus a cyclic interval,
//! which is an interval or the complement of one). Its literal is
//!
//! - `-[x(r) >= b+1]` when `a = 0`, `[x(r) >= a]` when `b = n - 1`;
//! - otherwise the interval variable `h(r, a, b)` of group `H`, defined by the three clauses
//!   `h -> [x(r) >= a]`, `h -> -[x(r) >= b+1]`, `[x(r) >= a] & -[x(r) >= b+1] -> h`.
//!
//! Group `H` defines every inner interval `1 <= a <= b <= n - 2` of every row once (the
//! column constraint uses each of them; the diagonals reuse them): `T = (n-1)(n-2)/2`
//! variables per row, `nT` variables, `3nT` clauses, `7nT` literals.
//!
//! For every interval of `k = 1..n-1` consecutive values of a constraint (wider ones always
//! hold, every row having one value), with `m` the number of rows whose values can fall in it:
//! when `m > k`, at most `k` of those `m` literals, by the sequential counter
//! ([`crate::encode::card::seqcounter`], which unit propagation keeps arc consistent):
//! `(m-1)k` auxiliary variables and `2mk + m - 3k - 1` clauses. On the square, `C1` has the
//! `n - k + 1` intervals of width `k` over the `n` columns, all with `m = n`:
//!
//! `C1`: `sum_{k=1}^{n-1} (n-k+1) (n-1) k` variables, `sum_{k=1}^{n-1} (n-k+1)(2nk + n - 3k - 1)`
//! clauses;
//!
//! `C2` and `C3` (the same sizes, mirrored) have the `2n - k` intervals `[l, l+k-1]` of
//! `0..2n-2`, where `m(l) = min(n-1, l+k-1) - max(0, l-n+1) + 1` rows reach the interval. On
//! the torus every row reaches every interval of the `n` residues: `C2` and `C3` are sized as
//! `C1`. All sizes are computed exactly, with checked arithmetic, in O(n^2) steps; the size is
//! O(n^4) clauses (about `n^4/3` for `C1`).
//!
//! The interval variables are defined both ways, so they are functions of the bounds; the
//! sequential counter's registers for at most k are not (a half encoding), so the count is
//! kept on the projection only (the domain's variables, as for every column model).
//!
//! ## References
//! - C. Bessiere, G. Katsirelos, N. Narodytska, C.-G. Quimper and T. Walsh, "Decompositions of
//!   All Different, Global Cardinality and Related Constraints", IJCAI 2009, pp. 419-424.
//! - C. Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality Constraints", CP 2005,
//!   LNCS 3709, pp. 827-831.
//! - N. Tamura, A. Taga, S. Kitagawa and M. Banbara, "Compiling finite linear CSP into SAT",
//!   Constraints 14(2) (2009), pp. 254-272.

use super::{ColumnEncoder, ConstraintEncoding, ConstraintGroup, DomainEncoding};
use crate::board::{Geometry, LineKind};
use crate::cnf::{ClauseSink, Lit, Var};
use crate::encode::card::{seqcounter, Kind};
use crate::encode::{Rule, VarAlloc};
use std::io;

/// The Hall-interval decomposition in the catalogue ([`super::CONSTRAINTS`]).
pub struct Hall;

/// The line kinds of the groups `C1`, `C2`, `C3` (after `H`), their tags and meanings.
const GROUPS: [(LineKind, &str, &str); 3] = [
    (
        LineKind::Column,
        "C1",
        "Hall intervals of the columns: at most k rows have x(r) in any k consecutive columns",
    ),
    (
        LineKind::Diagonal,
        "C2",
        "Hall intervals of the / diagonals: at most k rows have x(r) + r in any k consecutive values",
    ),
    (
        LineKind::AntiDiagonal,
        "C3",
        "Hall intervals of the \\ diagonals: at most k rows have x(r) - r in any k consecutive values",
    ),
];

/// The inner intervals `1 <= a <= b <= n-2` of one row: `(n-1)(n-2)/2`.
fn inner_per_row(n: usize) -> usize {
    if n < 3 {
        0
    } else {
        (n - 1) * (n - 2) / 2
    }
}

/// The position of the inner interval `[a, b]` among its row's, in the order `a`, then `b`.
fn inner_index(n: usize, a: usize, b: usize) -> usize {
    debug_assert!(1 <= a && a <= b && b + 2 <= n);
    // The intervals starting at 1..a-1: (n-2) + (n-3) + ... + (n-a).
    (a - 1) * (n - 1) - (a - 1) * a / 2 + (b - a)
}

/// The number of values of the constraint on lines of `kind`: `n` columns, `2n - 1` diagonals
/// of the square, `n` residues on the torus.
fn values(kind: LineKind, geometry: Geometry, n: usize) -> usize {
    match (kind, geometry) {
        (LineKind::Column, _) | (_, Geometry::Toroidal) => n,
        _ => 2 * n - 1,
    }
}

/// The rows (first, last) whose values can fall in `[l, l+k-1]`, or `None`.
fn rows(
    kind: LineKind,
    geometry: Geometry,
    n: usize,
    l: usize,
    k: usize,
) -> Option<(usize, usize)> {
    let u = l + k - 1;
    match (kind, geometry) {
        (LineKind::Column, _) | (_, Geometry::Toroidal) => Some((0, n - 1)),
        // x + r in [l, u] for some x in 0..n: r in [l - (n-1), u].
        (LineKind::Diagonal, _) => Some((l.saturating_sub(n - 1), u.min(n - 1))),
        // x - r + n - 1 in [l, u]: r in [n - 1 - u, 2n - 2 - l].
        _ => Some(((n - 1).saturating_sub(u), (2 * n - 2 - l).min(n - 1))),
    }
    .filter(|(lo, hi)| lo <= hi)
}

/// Row `r`'s columns whose value falls in `[l, l+k-1]` (`k < n`): `(true, a, b)` for the
/// columns `a..=b`, `(false, a, b)` for all columns but `a..=b` (a cyclic interval on the
/// torus that wraps around).
fn columns(
    kind: LineKind,
    geometry: Geometry,
    n: usize,
    r: usize,
    l: usize,
    k: usize,
) -> (bool, usize, usize) {
    let (n_, r_, l_, k_) = (n as i64, r as i64, l as i64, k as i64);
    match geometry {
        Geometry::Toroidal if kind != LineKind::Column => {
            let s = match kind {
                LineKind::Diagonal => (l_ - r_).rem_euclid(n_),
                _ => (l_ + r_).rem_euclid(n_),
            };
            if s + k_ <= n_ {
                (true, s as usize, (s + k_ - 1) as usize)
            } else {
                (false, (s + k_ - n_) as usize, (s - 1) as usize)
            }
        }
        _ => {
            let start = match kind {
                LineKind::Column => l_,
                LineKind::Diagonal => l_ - r_,
                _ => l_ + r_ - (n_ - 1),
            };
            let a = start.max(0);
            let b = (start + k_ - 1).min(n_ - 1);
            debug_assert!(a <= b && (a > 0 || b < n_ - 1));
            (true, a as usize, b as usize)
        }
    }
}

/// The literal "row `r`'s column is in `a..=b`" (not the whole board): a bound of the domain,
/// or the interval variable of group `H` (numbered from `first_h`).
fn in_lit(enc: &ColumnEncoder, first_h: usize, r: usize, a: usize, b: usize) -> Lit {
    let n = enc.n();
    let domain = enc.options().domain.encoding();
    let bound = |c: usize| {
        domain
            .bound_lit(n, enc.row(r), c)
            .expect("the Hall decomposition runs on a domain with bounds")
    };
    if a == 0 {
        !bound(b + 1)
    } else if b == n - 1 {
        bound(a)
    } else {
        Var::from_index(first_h + r * inner_per_row(n) + inner_index(n, a, b)).positive()
    }
}

/// `None` when a count overflows.
fn add(total: &mut (u64, u64, u64), vars: u64, clauses: u64, literals: u64) -> Option<()> {
    total.0 = total.0.checked_add(vars)?;
    total.1 = total.1.checked_add(clauses)?;
    total.2 = total.2.checked_add(literals)?;
    Some(())
}

impl ConstraintEncoding for Hall {
    fn name(&self) -> &'static str {
        "hall"
    }
    fn summary(&self) -> &'static str {
        "Hall intervals: at most k rows take values in any k consecutive values (bound consistency by unit propagation)"
    }
    fn domains(&self) -> Option<&'static [&'static str]> {
        Some(&["order", "coupled"])
    }
    fn groups(
        &self,
        n: usize,
        geometry: Geometry,
        _: &dyn DomainEncoding,
    ) -> Option<Vec<ConstraintGroup>> {
        let t = (n as u64).checked_mul(inner_per_row(n) as u64)?;
        let mut out = vec![ConstraintGroup {
            tag: "H",
            meaning: "interval variables: h(r, a, b) <-> a <= x(r) <= b, for 1 < a <= b < n".into(),
            rule: Rule::Domain,
            vars: t,
            clauses: t.checked_mul(3)?,
            literals: t.checked_mul(7)?,
        }];
        for &(kind, tag, meaning) in &GROUPS {
            let mut total = (0, 0, 0);
            for k in 1..n {
                for l in 0..=values(kind, geometry, n) - k {
                    let Some((lo, hi)) = rows(kind, geometry, n, l, k) else {
                        continue;
                    };
                    let m = hi - lo + 1;
                    if m > k {
                        let s = seqcounter::size(m, k, Kind::AtMost).ok()?;
                        add(&mut total, s.vars, s.clauses, s.literals)?;
                    }
                }
            }
            out.push(ConstraintGroup {
                tag,
                meaning: format!("{meaning} (sequential counter)"),
                rule: Rule::AtMostOne(kind),
                vars: total.0,
                clauses: total.1,
                literals: total.2,
            });
        }
        Some(out)
    }
    fn encode(
        &self,
        enc: &ColumnEncoder,
        group: usize,
        alloc: &mut VarAlloc,
        sink: &mut dyn ClauseSink,
    ) -> io::Result<()> {
        let n = enc.n();
        let first_h = enc.constraint_aux_start();
        if group == 0 {
            let domain = enc.options().domain.encoding();
            for r in 0..n {
                let bound = |c: usize| {
                    domain
                        .bound_lit(n, enc.row(r), c)
                        .expect("the Hall decomposition runs on a domain with bounds")
                };
                for a in 1..n.saturating_sub(1) {
                    for b in a..n - 1 {
                        let h = alloc.fresh().positive();
                        debug_assert_eq!(h, in_lit(enc, first_h, r, a, b));
                        let (lower, upper) = (bound(a), bound(b + 1));
                        sink.add_clause(&[!h, lower])?;
                        sink.add_clause(&[!h, !upper])?;
                        sink.add_clause(&[!lower, upper, h])?;
                    }
                }
            }
            return Ok(());
        }
        let kind = GROUPS[group - 1].0;
        let geometry = enc.geometry();
        let mut lits = Vec::with_capacity(n);
        for k in 1..n {
            for l in 0..=values(kind, geometry, n) - k {
                let Some((lo, hi)) = rows(kind, geometry, n, l, k) else {
                    continue;
                };
                if hi - lo < k {
                    continue;
                }
                lits.clear();
                for r in lo..=hi {
                    let (inside, a, b) = columns(kind, geometry, n, r, l, k);
                    let lit = in_lit(enc, first_h, r, a, b);
                    lits.push(if inside { lit } else { !lit });
                }
                seqcounter::encode(&lits, k, Kind::AtMost, alloc, sink)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::columns::{ColumnOptions, Constraints, Domain};

    #[test]
    fn inner_intervals_are_numbered_one_to_one() {
        for n in 0..30 {
            let mut seen = vec![false; inner_per_row(n)];
            for a in 1..n.saturating_sub(1) {
                for b in a..n - 1 {
                    let i = inner_index(n, a, b);
                    assert!(!seen[i], "n={n} [{a}, {b}]");
                    seen[i] = true;
                }
            }
            assert!(seen.iter().all(|&s| s), "n={n}");
        }
    }

    /// The closed forms of the module documentation: `H` and, on the square and the torus,
    /// `C1`; on the torus `C2` and `C3` equal `C1`; on the square `C2` equals `C3`.
    #[test]
    fn sizes_match_the_closed_forms() {
        for geometry in [Geometry::Square, Geometry::Toroidal] {
            for n in 1..=40u64 {
                let o = ColumnOptions {
                    domain: Domain::ORDER,
                    constraints: Constraints::HALL,
                    ..Default::default()
                };
                let e = ColumnEncoder::new_on(n as usize, o, geometry).unwrap();
                let g = Hall
                    .groups(n as usize, geometry, o.domain.encoding())
                    .unwrap();
                let t = if n >= 3 { n * (n - 1) * (n - 2) / 2 } else { 0 };
                assert_eq!((g[0].vars, g[0].clauses, g[0].literals), (t, 3 * t, 7 * t));
                let vars: u64 = (1..n).map(|k| (n - k + 1) * (n - 1) * k).sum();
                let clauses: u64 = (1..n)
                    .map(|k| (n - k + 1) * (2 * n * k + n - 3 * k - 1))
                    .sum();
                assert_eq!((g[1].vars, g[1].clauses), (vars, clauses), "n={n}");
                let (c2, c3) = (&g[2], &g[3]);
                assert_eq!(
                    (c2.vars, c2.clauses, c2.literals),
                    (c3.vars, c3.clauses, c3.literals)
                );
                if geometry == Geometry::Toroidal {
                    assert_eq!((c2.vars, c2.clauses), (vars, clauses), "n={n}");
                }
                assert_eq!(
                    e.size().vars,
                    e.primary_vars() + t + vars + c2.vars + c3.vars
                );
            }
        }
        // n = 4 by hand: C1 has widths 1, 2, 3 with 4, 3, 2 intervals over 4 rows,
        // 3k registers and 8k + 4 - 3k - 1 = 5k + 3 clauses each: 4*8 + 3*13 + 2*18 = 107.
        let g = Hall
            .groups(4, Geometry::Square, Domain::ORDER.encoding())
            .unwrap();
        assert_eq!(g[1].clauses, 107);
        assert_eq!(g[1].vars, 4 * 3 + 3 * 6 + 2 * 9);
    }

    /// Every row's literal of an interval of values holds exactly when the row's value lies in
    /// it: checked on every placement of the values, n <= 6, through the pieces' arithmetic.
    #[test]
    fn the_columns_of_an_interval_are_the_right_ones() {
        for geometry in [Geometry::Square, Geometry::Toroidal] {
            for n in 1..=7usize {
                for (kind, _, _) in GROUPS {
                    for k in 1..n {
                        for l in 0..=values(kind, geometry, n) - k {
                            let range = rows(kind, geometry, n, l, k);
                            for r in 0..n {
                                let value = |x: usize| -> usize {
                                    match (kind, geometry) {
                                        (LineKind::Column, _) => x,
                                        (LineKind::Diagonal, Geometry::Square) => x + r,
                                        (_, Geometry::Square) => x + n - 1 - r,
                                        (LineKind::Diagonal, _) => (x + r) % n,
                                        _ => (x + n - r) % n,
                                    }
                                };
                                let hits: Vec<bool> =
                                    (0..n).map(|x| (l..l + k).contains(&value(x))).collect();
                                let inside_range = range.is_some_and(|(lo, hi)| lo <= r && r <= hi);
                                assert_eq!(inside_range, hits.iter().any(|&h| h));
                                if !inside_range {
                                    continue;
                                }
                                let (inside, a, b) = columns(kind, geometry, n, r, l, k);
                                for (x, &hit) in hits.iter().enumerate() {
                                    assert_eq!((a..=b).contains(&x) == inside, hit);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
