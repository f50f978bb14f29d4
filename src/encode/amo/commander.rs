//! Commander at-most-one (Klieber & Kwon 2007), with the group size as parameter.
//!
//! For `m` literals and group size `g >= 2`:
//! - if `m <= g`, the pairwise encoding (base case);
//! - otherwise the literals are split into `k = ceil(m/g)` consecutive groups of `g` (the last
//!   one has `m mod g` if that is not 0), each group `G_j` gets a fresh commander variable
//!   `c_j`, and the clauses are, per group: the pairwise at-most-one of `G_j`; `c_j` implies
//!   some literal of the group, `(-c_j v OR G_j)`; every literal implies its commander,
//!   `(-x v c_j)`. Then, recursively, at most one of `c_1 .. c_k`.
//!
//! A commander is thus true exactly when a literal of its group is (the auxiliaries are
//! determined by the literals), and two true literals are either in one group (pairwise clause)
//! or force two commanders (recursive constraint). Each level divides the length by `g`, so the
//! recursion has about `log_g m` levels.
//!
//! Size: a group of `s` literals costs `C(s,2) + s + 1` clauses and `s(s-1) + 2s + (s+1)`
//! literals. With `S(m)` the size for `m` literals, `k = ceil(m/g)`, `f = floor(m/g)`,
//! `r = m mod g`:
//! `S(m) = pairwise(m)` if `m <= g`, else
//! `S(m) = f * group(g) + [r > 0] group(r) + S(k)` plus `k` auxiliary variables.
//! [`size`] evaluates this level by level without emitting (O(log m) steps). For `g = 3`
//! that is about `m/2` auxiliaries and `3.5 m` clauses.
//!
//! The default group size is [`DEFAULT_GROUP`] = 3, the value Klieber and Kwon use in their
//! experiments. Group sizes below 2 are treated as 2 (a group of one would not shrink the list).
//!
//! ## References
//! - W. Klieber and G. Kwon, "Efficient CNF Encoding for Selecting 1 from N Objects", Fourth
//!   Workshop on Constraints in Formal Verification (CFV 2007).

use super::{pairwise, Size};
use crate::cnf::{ClauseSink, Lit};
use crate::encode::VarAlloc;
use std::io;

/// The default group size.
pub const DEFAULT_GROUP: usize = 3;

/// Clauses and literals of one group of `s` literals (pairwise, `c -> OR group`, `x -> c`).
fn group(s: u64) -> Size {
    let pairs = s.saturating_mul(s.saturating_sub(1)) / 2;
    Size {
        vars: 0,
        clauses: pairs + s + 1,
        literals: 2 * pairs + 2 * s + (s + 1),
    }
}

/// Size of the commander encoding on `m` literals with group size `g`.
pub fn size(m: usize, g: usize) -> Size {
    let g = g.max(2);
    let mut m = m;
    let mut total = Size::default();
    while m > g {
        let (f, r) = ((m / g) as u64, (m % g) as u64);
        let k = m.div_ceil(g);
        let mut level = Size {
            vars: k as u64,
            ..Size::default()
        };
        let full = group(g as u64);
        level.clauses += f * full.clauses;
        level.literals += f * full.literals;
        if r > 0 {
            level = level + group(r);
        }
        total = total + level;
        m = k;
    }
    total + pairwise::size(m)
}

/// Emits the commander encoding of "at most one of `lits`" with group size `g`: the groups in
/// order (pairs, then `c -> OR group`, then `x -> c` for each literal), then the commanders'
/// constraint. The `k` commanders of a level are taken from `alloc` before the next level's.
pub fn encode<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    g: usize,
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<()> {
    let g = g.max(2);
    if lits.len() <= g {
        return pairwise::encode(lits, sink);
    }
    let commanders = alloc.fresh_lits(lits.len().div_ceil(g));
    let mut clause = Vec::with_capacity(g + 1);
    for (chunk, &c) in lits.chunks(g).zip(&commanders) {
        pairwise::encode(chunk, sink)?;
        clause.clear();
        clause.push(!c);
        clause.extend_from_slice(chunk);
        sink.add_clause(&clause)?;
        for &x in chunk {
            sink.add_clause(&[!x, c])?;
        }
    }
    encode(&commanders, g, alloc, sink)
}

at_most_one_entry! {
    /// The commander encoding in the catalogue ([`super::CATALOGUE`]): `commander:G` for groups
    /// of `G`.
    Commander, "commander", aux "c":
        "groups of G literals, one commander variable per group, recursively (Klieber & Kwon 2007)",
    parameter super::Parameter {
        letter: "G",
        meaning: "group size",
        min: 2,
        default: Some(DEFAULT_GROUP),
        default_text: "3",
        default_word: None,
    },
    size |m, group| size(m, group.unwrap_or(DEFAULT_GROUP)),
    encode |lits, group, alloc, sink| encode(lits, group.unwrap_or(DEFAULT_GROUP), alloc, sink)
}
