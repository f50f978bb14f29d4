//! Totalizer (Bailleux & Boufkhad 2003): a binary tree of unary counters.
//!
//! The literals are the leaves of a balanced binary tree (a list of `s >= 2` literals is split
//! into its first `ceil(s/2)` and its last `floor(s/2)`). Every inner node over `s` literals
//! has outputs `r_1 .. r_c`, where `r_j` stands for "at least `j` of the node's literals are
//! true"; a leaf's only output is its literal. The tree counts only as far as the bound needs:
//! `c = min(s, cap)` with `cap = k + 1` for at most and exactly `k`, `cap = k` for at least `k`
//! (a node whose count passes `cap` has all its outputs true, which is all its parent needs).
//!
//! For a node with children outputs `a_1 .. a_A` and `b_1 .. b_B` (`a_0 = b_0` = true,
//! `a_{A+1}`, `b_{B+1}` false when the child is not truncated, i.e. absent from the clause):
//!
//! ```text
//! up   (C1):  -a_i v -b_j v r_{i+j}          0 <= i <= A, 0 <= j <= B, 1 <= i + j <= c
//! down (C2):  -r_{i+j+1} v a_{i+1} v b_{j+1}  0 <= i <= A, 0 <= j <= B, i + j + 1 <= c
//! ```
//!
//! C1 makes `r_j` true when `j` of the node's literals are; C2 makes it false when fewer are.
//! At the root: at most `k` is the unit `-r_{k+1}` over the C1 clauses, at least `k` the unit
//! `r_k` over the C2 clauses, exactly `k` both units over both sets.
//!
//! Bailleux and Boufkhad's totalizer has both C1 and C2 and all `s` outputs at every node (and
//! they show that unit propagation on it keeps arc consistency); the two simplifications here
//! are the usual ones in later work: keep only the direction the bound needs (a *half*
//! encoding for at most and at least), and cut each node at `cap` outputs.
//!
//! ## Size
//!
//! With `N(a, b, t) = #{(i, j) : 0 <= i <= a, 0 <= j <= b, i + j <= t}` (closed form in
//! the code), a node whose children have `sa` and `sb` literals has `A = min(sa, cap)`,
//! `B = min(sb, cap)`, `c = min(sa + sb, cap)`, and costs `c` auxiliary variables,
//!
//! - C1: `N(A, B, c) - 1` clauses, `3 (N(A, B, c) - 1) - A - B` literals;
//! - C2: `N(A, B, c - 1)` clauses, `3 N(A, B, c - 1) - |{i = A}| - |{j = B}|` literals (the
//!   pairs with `i = A`, resp. `j = B`, lose their absent literal).
//!
//! The tree over `m` literals has `m - 1` inner nodes, but only O(log m) distinct shapes (at
//! each depth the sizes differ by at most one), so [`size`] sums the nodes over the shapes in
//! O(log m) steps, plus the root's one or two unit clauses. For `k = 1` (at most one) every
//! node has at most 2 outputs: `2(m - 1)` auxiliaries and about `4m` clauses.
//!
//! ## Model counts
//!
//! With both C1 and C2 (exactly `k`) every output is a function of the literals below it: the
//! count is preserved. The half encodings leave outputs free (at most `k`: the root's `r_1`
//! when no literal is true; at least `k`: the root's `r_1 .. r_{k-1}` when all are, and the
//! children's outputs below a satisfied C2 clause), so they do not preserve it in general
//! (they happen to for at least 1 of 2 literals, whose only auxiliary is the root's `r_1`,
//! fixed by its unit).
//!
//! ## References
//! - O. Bailleux and Y. Boufkhad, "Efficient CNF Encoding of Boolean Cardinality
//!   Constraints", Principles and Practice of Constraint Programming (CP 2003), LNCS 2833,
//!   pp. 108-122.
//! - R. Martins, S. Joshi, V. Manquinho and I. Lynce, "Incremental Cardinality Constraints for
//!   MaxSAT", CP 2014, LNCS 8656, pp. 531-548 (a totalizer whose nodes count only up to the
//!   bound, extended when the bound grows).

use super::{directions, pairs_upto, sz, Job, Kind, Size};
use crate::cnf::{ClauseSink, Lit};
use crate::encode::VarAlloc;
use std::collections::HashMap;
use std::io;

/// The number of outputs a node keeps for this bound.
fn cap(k: usize, kind: Kind) -> usize {
    match kind {
        Kind::AtLeast => k,
        Kind::AtMost | Kind::Exactly => k + 1,
    }
}

/// Size of one inner node whose children cover `sa` and `sb` literals.
fn node_size(sa: usize, sb: usize, cap: usize, up: bool, down: bool) -> Size {
    let a = sa.min(cap) as u64;
    let b = sb.min(cap) as u64;
    let c = (sa + sb).min(cap) as u64;
    let mut size = sz(c, 0, 0);
    if up {
        let n = pairs_upto(a, b, c) - 1;
        size = size + sz(0, n, n.saturating_mul(3) - a - b);
    }
    if down {
        let n = pairs_upto(a, b, c - 1);
        // Pairs (A, j) with A + j + 1 <= c, and (i, B) likewise.
        let at_a = if c > a { (c - 1 - a).min(b) + 1 } else { 0 };
        let at_b = if c > b { (c - 1 - b).min(a) + 1 } else { 0 };
        size = size + sz(0, n, n.saturating_mul(3) - at_a - at_b);
    }
    size
}

/// Size of the tree over `s` literals (without the root's unit clauses).
fn tree_size(s: usize, cap: usize, up: bool, down: bool, memo: &mut HashMap<usize, Size>) -> Size {
    if s <= 1 {
        return Size::default();
    }
    if let Some(&v) = memo.get(&s) {
        return v;
    }
    let (l, r) = (s - s / 2, s / 2);
    let v = tree_size(l, cap, up, down, memo)
        + tree_size(r, cap, up, down, memo)
        + node_size(l, r, cap, up, down);
    memo.insert(s, v);
    v
}

/// Size of the totalizer for "`kind` `k` of `m` literals", `1 <= k < m`.
fn size_proper(m: usize, k: usize, kind: Kind) -> Size {
    let (up, down) = directions(kind);
    let units = if kind == Kind::Exactly { 2 } else { 1 };
    tree_size(m, cap(k, kind), up, down, &mut HashMap::new()) + sz(0, units, units)
}

/// Emits the tree over `lits` (children before parents, each node's outputs taken from
/// `alloc` before its clauses, C1 then C2) and returns the root's outputs.
fn tree<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    cap: usize,
    up: bool,
    down: bool,
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<Vec<Lit>> {
    if lits.len() == 1 {
        return Ok(lits.to_vec());
    }
    let (left, right) = lits.split_at(lits.len() - lits.len() / 2);
    let a = tree(left, cap, up, down, alloc, sink)?;
    let b = tree(right, cap, up, down, alloc, sink)?;
    let c = lits.len().min(cap);
    let r = alloc.fresh_lits(c);
    let mut clause = Vec::with_capacity(3);
    if up {
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                if i + j == 0 || i + j > c {
                    continue;
                }
                clause.clear();
                clause.extend((i > 0).then(|| !a[i - 1]));
                clause.extend((j > 0).then(|| !b[j - 1]));
                clause.push(r[i + j - 1]);
                sink.add_clause(&clause)?;
            }
        }
    }
    if down {
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                if i + j + 1 > c {
                    continue;
                }
                clause.clear();
                clause.push(!r[i + j]);
                clause.extend(a.get(i).copied());
                clause.extend(b.get(j).copied());
                sink.add_clause(&clause)?;
            }
        }
    }
    Ok(r)
}

/// Emits the totalizer for "`kind` `k` of `lits`", `1 <= k < m`: the tree, then the root's
/// unit clauses (`r_k` before `-r_{k+1}` for exactly `k`).
fn encode_proper<S: ClauseSink + ?Sized>(job: Job<'_, S>) -> io::Result<()> {
    let (k, kind) = (job.k, job.kind);
    let r = tree(
        job.lits,
        cap(k, kind),
        job.up,
        job.down,
        job.alloc,
        job.sink,
    )?;
    super::bound_count(job.sink, kind, k, &r)
}

cardinality_entry!(
    /// The totalizer in the catalogue ([`super::CATALOGUE`]).
    Totalizer,
    "totalizer",
    "a binary tree of unary counters, cut at k + 1 (Bailleux & Boufkhad 2003)",
    |kind| kind == Kind::Exactly
);
