//! Modulo totalizer (Ogawa, Liu, Hasegawa, Koshimura & Fujita 2013): a totalizer whose nodes
//! count in two unary digits, the count modulo `p` and the count divided by `p`.
//!
//! The tree is the [totalizer](super::totalizer)'s (a list of `s >= 2` literals split into its
//! first `ceil(s/2)` and last `floor(s/2)`). With the modulus `p = max(2, ceil(sqrt(k + 1)))`
//! (a modulus near the square root of the bound balances the two digits), a node over `s`
//! literals whose count is `q p + r` (`0 <= r < p`) has
//!
//! - lower digits `L_1 .. L_l`, `l = min(p - 1, s)`, `L_i` standing for `r >= i`;
//! - upper digits `U_1 .. U_u`, `u = min(floor(s / p), cap)`, `U_j` standing for `q >= j`,
//!   where `cap = ceil((k + 1) / p)` is as far as the root's test reads;
//! - a carry `C` ("the children's lower digits add up to `p` or more") when the children's
//!   lower digits can reach `p` at all (`l_A + l_B >= p`).
//!
//! A leaf has the single lower digit `L_1` = its literal and no upper digit. For a node with
//! children `A` and `B` (`L_0 = U_0` = true, those literals left out of the clauses):
//!
//! ```text
//! -LA_i v -LB_j v LR_{i+j} [v C]       1 <= i + j <= p - 1   (no carry, or C)
//! -LA_i v -LB_j v C                    i + j >= p
//! -LA_i v -LB_j v LR_{i+j-p}           i + j >= p + 1
//! -UA_i v -UB_j v UR_{i+j}             1 <= i + j <= u
//! -UA_i v -UB_j v -C v UR_{i+j+1}      i + j + 1 <= u        (when the node has a carry)
//! -UA_{uA} v -UB_{uB} v -C             uA + uB = floor(s / p) (idem)
//! ```
//!
//! The last clause says that a carry cannot come on top of children whose upper digits are
//! already as high as the node's count allows (the node has no digit to carry into).
//!
//! These are this module's formulation of the paper's digit-wise addition, proved here: every
//! clause holds when each variable has its stated meaning (so the constraint is not
//! strengthened), and in every model the true prefixes of the digits read a value `p Q + R` at
//! least the node's count (a spurious carry only raises `Q`). At the root, "at most `k`",
//! with `k + 1 = q' p + r'`, forbids `p Q + R >= k + 1`: the unit `-U_{q'}` when `r' = 0`;
//! otherwise `-U_{q'+1}` (when the root has it) and `-U_{q'} v -L_{r'}`.
//!
//! The encoding is defined for upper bounds only (it is a *half* encoding: variables are only
//! forced up). At least `k` is at most `m - k` of the negated literals; exactly `k` is both,
//! two trees side by side.
//!
//! ## Size
//!
//! With `N(a, b, t) = #{(i, j) : 0 <= i <= a, 0 <= j <= b, i + j <= t}`, a node with children
//! digit counts `(lA, uA)`, `(lB, uB)` and its own `(l, u)`, carry `c` (0 or 1), has `l + u + c`
//! auxiliaries and
//!
//! - `n5 = N(lA, lB, p - 1) - 1` clauses of the first line, `(3 + c) n5 - min(lA, p-1) - min(lB, p-1)` literals;
//! - `n3 = (lA+1)(lB+1) - N(lA, lB, p - 1)` and `n4 = (lA+1)(lB+1) - N(lA, lB, p)` clauses of
//!   3 literals (lines 2 and 3);
//! - `n1 = N(uA, uB, u) - 1` clauses, `3 n1 - uA - uB` literals (line 4);
//! - with a carry, `n2 = N(uA, uB, u - 1)` clauses, `4 n2 - (min(uB, u-1) + 1) - (min(uA, u-1) + 1)`
//!   literals (line 5), and when `uA + uB = floor(s/p)` one clause of
//!   `1 + [uA > 0] + [uB > 0]` literals (line 6);
//!
//! summed in O(log m) steps over the tree's distinct node shapes, plus the root's clauses.
//! For at most one (`p = 2`, `cap = 1`) an inner node over `s >= 2` literals has 3 auxiliaries
//! (`L_1`, `U_1`, `C`) and 4 to 7 clauses.
//!
//! ## Model counts
//!
//! Not preserved, for any kind: the encoding forces digits up only. With fewer than `k`
//! literals true, digits above the count are free as long as the root's test is not reached
//! (for at most `k`, the root's `L_1` when no literal is true). Exactly `k` makes both trees
//! tight at their roots, which fixes every digit on short lists (every `k` for `m <= 6`) but
//! not on all longer ones (exactly 1 of 7, 2 of 8, ...).
//!
//! ## References
//! - T. Ogawa, Y. Liu, R. Hasegawa, M. Koshimura and H. Fujita, "Modulo Based CNF Encoding of
//!   Cardinality Constraints and Its Application to MaxSAT Solvers", IEEE 25th International
//!   Conference on Tools with Artificial Intelligence (ICTAI 2013), pp. 9-17.

use super::{pairs_upto, sz, Job, Kind, Size};
use crate::cnf::{ClauseSink, Lit};
use crate::encode::VarAlloc;
use std::collections::HashMap;
use std::io;

/// The modulus for at most `k`: `max(2, ceil(sqrt(k + 1)))`.
pub fn modulus(k: usize) -> usize {
    // In 128 bits, so that no `k` overflows.
    let x = k as u128 + 1;
    let mut r = (x as f64).sqrt() as u128;
    while r * r > x {
        r -= 1;
    }
    while r * r < x {
        r += 1;
    }
    (r as usize).max(2)
}

/// The parameters of one tree: modulus, upper-digit cap.
#[derive(Clone, Copy)]
struct Params {
    p: usize,
    cap: usize,
}

impl Params {
    fn new(k: usize) -> Params {
        let p = modulus(k);
        let cap = (k + 1).div_ceil(p);
        Params { p, cap }
    }
    /// `(lower, upper)` digit counts of a node over `s` literals.
    fn digits(self, s: usize) -> (usize, usize) {
        ((self.p - 1).min(s), (s / self.p).min(self.cap))
    }
}

/// Size of one inner node whose children cover `sa` and `sb` literals.
fn node_size(sa: usize, sb: usize, pr: Params) -> Size {
    // In 128 bits, saturated at the end: a size query may name an absurdly long list.
    let n = |a: u128, b: u128, t: u128| pairs_upto(a as u64, b as u64, t as u64) as u128;
    let p = pr.p as u128;
    let (la, ua) = pr.digits(sa);
    let (lb, ub) = pr.digits(sb);
    let (l, u) = pr.digits(sa + sb);
    let (la, ua, lb, ub, l, u) = (
        la as u128, ua as u128, lb as u128, ub as u128, l as u128, u as u128,
    );
    let carry = u128::from(la + lb >= p);
    let all = (la + 1) * (lb + 1);
    let n5 = n(la, lb, p - 1) - 1;
    let n34 = (all - n(la, lb, p - 1)) + (all - n(la, lb, p));
    let n1 = n(ua, ub, u) - 1;
    let (mut vars, mut clauses, mut literals) = (l + u + carry, n5 + n34 + n1, 0u128);
    literals += (3 + carry) * n5 - la.min(p - 1) - lb.min(p - 1);
    literals += 3 * n34 + 3 * n1 - ua - ub;
    if carry == 1 && u >= 1 {
        let n2 = n(ua, ub, u - 1);
        clauses += n2;
        literals += 4 * n2 - (ub.min(u - 1) + 1) - (ua.min(u - 1) + 1);
    }
    if carry == 1 && ua + ub == ((sa + sb) / pr.p) as u128 {
        clauses += 1;
        literals += 1 + u128::from(ua > 0) + u128::from(ub > 0);
    }
    let sat = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
    vars = vars.min(u64::MAX as u128);
    sz(sat(vars), sat(clauses), sat(literals))
}

/// Size of the tree over `s` literals (without the root's clauses).
fn tree_size(s: usize, pr: Params, memo: &mut HashMap<usize, Size>) -> Size {
    if s <= 1 {
        return Size::default();
    }
    if let Some(&v) = memo.get(&s) {
        return v;
    }
    let (l, r) = (s - s / 2, s / 2);
    let v = tree_size(l, pr, memo) + tree_size(r, pr, memo) + node_size(l, r, pr);
    memo.insert(s, v);
    v
}

/// Size of "at most `k` of `m`" for `1 <= k < m`: the tree and the root's test.
fn at_most_size(m: usize, k: usize) -> Size {
    let pr = Params::new(k);
    let (q, r) = ((k + 1) / pr.p, (k + 1) % pr.p);
    let root = if r == 0 {
        sz(0, 1, 1)
    } else {
        let (_, u) = pr.digits(m);
        let over = u64::from(u > q);
        sz(0, 1 + over, 2 + over)
    };
    tree_size(m, pr, &mut HashMap::new()) + root
}

/// Size of the modulo totalizer for "`kind` `k` of `m` literals", `1 <= k < m`.
fn size_proper(m: usize, k: usize, kind: Kind) -> Size {
    match kind {
        Kind::AtMost => at_most_size(m, k),
        Kind::AtLeast => at_most_size(m, m - k),
        Kind::Exactly => at_most_size(m, k) + at_most_size(m, m - k),
    }
}

/// A node's digits: `lower[i - 1]` is `L_i`, `upper[j - 1]` is `U_j`.
struct Digits {
    lower: Vec<Lit>,
    upper: Vec<Lit>,
}

/// Emits the tree over `lits` (children before parents; a node takes its lower digits, upper
/// digits and carry from `alloc`, in that order, then emits the lower-digit clauses by `(i,
/// j)`, then the upper-digit ones) and returns the root's digits.
fn tree<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    pr: Params,
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<Digits> {
    if lits.len() == 1 {
        return Ok(Digits {
            lower: vec![lits[0]],
            upper: Vec::new(),
        });
    }
    let (left, right) = lits.split_at(lits.len() - lits.len() / 2);
    let a = tree(left, pr, alloc, sink)?;
    let b = tree(right, pr, alloc, sink)?;
    let (l, u) = pr.digits(lits.len());
    let lower = alloc.fresh_lits(l);
    let upper = alloc.fresh_lits(u);
    let carry = (a.lower.len() + b.lower.len() >= pr.p).then(|| alloc.fresh().positive());
    let p = pr.p;
    let mut clause = Vec::with_capacity(4);
    // `-A_i v -B_j` with `A_0`, `B_0` true (left out).
    let start = |clause: &mut Vec<Lit>, x: &[Lit], y: &[Lit], i: usize, j: usize| {
        clause.clear();
        clause.extend((i > 0).then(|| !x[i - 1]));
        clause.extend((j > 0).then(|| !y[j - 1]));
    };
    for i in 0..=a.lower.len() {
        for j in 0..=b.lower.len() {
            let t = i + j;
            if t == 0 {
                continue;
            }
            start(&mut clause, &a.lower, &b.lower, i, j);
            if t < p {
                clause.push(lower[t - 1]);
                clause.extend(carry);
                sink.add_clause(&clause)?;
                continue;
            }
            // The lower digits reach `p` only when the node has a carry.
            if let Some(c) = carry {
                clause.push(c);
                sink.add_clause(&clause)?;
            }
            if t > p {
                start(&mut clause, &a.lower, &b.lower, i, j);
                clause.push(lower[t - p - 1]);
                sink.add_clause(&clause)?;
            }
        }
    }
    for i in 0..=a.upper.len() {
        for j in 0..=b.upper.len() {
            let t = i + j;
            if t >= 1 && t <= u {
                start(&mut clause, &a.upper, &b.upper, i, j);
                clause.push(upper[t - 1]);
                sink.add_clause(&clause)?;
            }
            if let Some(c) = carry.filter(|_| t < u) {
                start(&mut clause, &a.upper, &b.upper, i, j);
                clause.push(!c);
                clause.push(upper[t]);
                sink.add_clause(&clause)?;
            }
        }
    }
    if let Some(c) = carry.filter(|_| a.upper.len() + b.upper.len() == lits.len() / p) {
        start(
            &mut clause,
            &a.upper,
            &b.upper,
            a.upper.len(),
            b.upper.len(),
        );
        clause.push(!c);
        sink.add_clause(&clause)?;
    }
    Ok(Digits { lower, upper })
}

/// Emits "at most `k` of `lits`" for `1 <= k < lits.len()`: the tree, then the root's test.
fn at_most<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    k: usize,
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<()> {
    let pr = Params::new(k);
    let root = tree(lits, pr, alloc, sink)?;
    let (q, r) = ((k + 1) / pr.p, (k + 1) % pr.p);
    if r == 0 {
        return sink.add_clause(&[!root.upper[q - 1]]);
    }
    if let Some(&over) = root.upper.get(q) {
        sink.add_clause(&[!over])?;
    }
    sink.add_clause(&[!root.upper[q - 1], !root.lower[r - 1]])
}

/// Emits the modulo totalizer for "`kind` `k` of `lits`", `1 <= k < m`: at most `k` of `lits`;
/// at least `k` as at most `m - k` of the negated literals; exactly `k` as the first, then the
/// second.
fn encode_proper<S: ClauseSink + ?Sized>(job: Job<'_, S>) -> io::Result<()> {
    let (lits, k) = (job.lits, job.k);
    let negated: Vec<Lit> = lits.iter().map(|&x| !x).collect();
    if job.kind != Kind::AtLeast {
        at_most(lits, k, job.alloc, job.sink)?;
    }
    if job.kind != Kind::AtMost {
        at_most(&negated, lits.len() - k, job.alloc, job.sink)?;
    }
    Ok(())
}

cardinality_entry!(
    /// The modulo totalizer in the catalogue ([`super::CATALOGUE`]).
    ModuloTotalizer, "mtotalizer", "a totalizer counting in two unary digits, modulo and quotient by p ~ sqrt(k) (Ogawa et al. 2013)", |_| false);
