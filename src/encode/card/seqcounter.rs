//! Sequential counter (Sinz 2005, `LTseq` for general k), with the reverse implications for
//! lower bounds.
//!
//! For literals `x_1 .. x_m` and `1 <= k < m`, the registers `s_{i,j}` (`1 <= i <= m - 1`,
//! `1 <= j <= k`) stand for "at least `j` of `x_1 .. x_i` are true". Sinz's clauses for at
//! most `k` force a register true when its fact holds, and forbid a `k + 1`-th true literal:
//!
//! ```text
//! -x_1 v s_{1,1}
//! -s_{1,j}                                   1 < j <= k        (shared)
//! -x_i v s_{i,1},  -s_{i-1,1} v s_{i,1}       1 < i < m
//! -x_i v -s_{i-1,j-1} v s_{i,j}              1 < i < m, 1 < j <= k
//! -s_{i-1,j} v s_{i,j}                       1 < i < m, 1 < j <= k
//! -x_i v -s_{i-1,k}                          1 < i <= m
//! ```
//!
//! At least `k` uses the same registers with the converse implications ("`s_{i,j}` only if
//! at least `j` of `x_1 .. x_i` are"), and asks for a `k`-th true literal:
//!
//! ```text
//! -s_{1,1} v x_1
//! -s_{1,j}                                   1 < j <= k        (shared)
//! -s_{i,1} v s_{i-1,1} v x_i                 1 < i < m
//! -s_{i,j} v s_{i-1,j} v x_i                 1 < i < m, 1 < j <= k
//! -s_{i,j} v s_{i-1,j-1}                     1 < i < m, 1 < j <= k
//! s_{m-1,k} v x_m,  s_{m-1,k} v s_{m-1,k-1}   (the second for k > 1)
//! ```
//!
//! Exactly `k` is both sets (the shared units once). Every register is then a function of the
//! literals. Emitted by `i`: the up clauses of step `i` (if any), then its down clauses; the
//! shared units after step 1's clauses.
//!
//! ## Size
//!
//! `(m - 1) k` auxiliary variables for every kind, plus, for `1 <= k < m`:
//!
//! | kind | clauses | literals |
//! |---|---|---|
//! | at most | `2mk + m - 3k - 1` (Sinz's count) | `(m-2)(5k+1) + 4 + (k-1)` |
//! | at least | `(m-2)(2k-1) + 2 + [k > 1] + (k-1)` | `(m-2)(5k-2) + 4 + 2[k > 1] + (k-1)` |
//! | exactly | the sum of the two, less the `k - 1` shared units | likewise |
//!
//! For `k = 1` the at-most clauses are those of the [`crate::encode::amo::sequential`]
//! at-most-one encoding, in the same order.
//!
//! ## Model counts
//!
//! Preserved for exactly `k`. At most `k` leaves a register free when its fact is false and
//! nothing after it needs it false (`s_{m-1,1}` when no literal is true); at least `k` leaves
//! one free when its fact is true and nothing needs it true (`s_{1,1}` when all are): not
//! preserved.
//!
//! ## References
//! - C. Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality Constraints", Principles
//!   and Practice of Constraint Programming (CP 2005), LNCS 3709, pp. 827-831.

use super::{directions, sz, Job, Kind, Size};
use crate::cnf::ClauseSink;
use std::io;

/// Size of the sequential counter for "`kind` `k` of `m` literals", `1 <= k < m`.
fn size_proper(m: usize, k: usize, kind: Kind) -> Size {
    let (up, down) = directions(kind);
    // In 128 bits, saturated: a size query may name an absurdly long list.
    let (m, k) = (m as u128, k as u128);
    let more = u128::from(k > 1);
    // (m - 2)(a k - b) + c, with a k - b >= 1.
    let steps = |a: u128, b: u128, c: u128| (m - 2).saturating_mul(a * k - b).saturating_add(c);
    let (mut clauses, mut literals) = (k - 1, k - 1);
    if up {
        clauses = clauses.saturating_add(steps(2, 0, 2).saturating_add(m - 2));
        literals = literals.saturating_add(steps(5, 0, 4).saturating_add(m - 2));
    }
    if down {
        clauses = clauses.saturating_add(steps(2, 1, 2 + more));
        literals = literals.saturating_add(steps(5, 2, 4 + 2 * more));
    }
    let sat = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
    sz(sat((m - 1).saturating_mul(k)), sat(clauses), sat(literals))
}

/// Emits the sequential counter for "`kind` `k` of `lits`", `1 <= k < m` (registers taken row
/// by row, `s_{1,1} .. s_{1,k}, s_{2,1} ..`).
fn encode_proper<S: ClauseSink + ?Sized>(job: Job<'_, S>) -> io::Result<()> {
    let (lits, k, up, down, sink) = (job.lits, job.k, job.up, job.down, job.sink);
    let m = lits.len();
    let x = |i: usize| lits[i - 1];
    let regs = job.alloc.fresh_lits((m - 1) * k);
    let s = |i: usize, j: usize| regs[(i - 1) * k + (j - 1)];
    if up {
        sink.add_clause(&[!x(1), s(1, 1)])?;
    }
    if down {
        sink.add_clause(&[!s(1, 1), x(1)])?;
    }
    for j in 2..=k {
        sink.add_clause(&[!s(1, j)])?;
    }
    for i in 2..m {
        if up {
            sink.add_clause(&[!x(i), s(i, 1)])?;
            sink.add_clause(&[!s(i - 1, 1), s(i, 1)])?;
            for j in 2..=k {
                sink.add_clause(&[!x(i), !s(i - 1, j - 1), s(i, j)])?;
                sink.add_clause(&[!s(i - 1, j), s(i, j)])?;
            }
            sink.add_clause(&[!x(i), !s(i - 1, k)])?;
        }
        if down {
            sink.add_clause(&[!s(i, 1), s(i - 1, 1), x(i)])?;
            for j in 2..=k {
                sink.add_clause(&[!s(i, j), s(i - 1, j), x(i)])?;
                sink.add_clause(&[!s(i, j), s(i - 1, j - 1)])?;
            }
        }
    }
    if up {
        sink.add_clause(&[!x(m), !s(m - 1, k)])?;
    }
    if down {
        sink.add_clause(&[s(m - 1, k), x(m)])?;
        if k > 1 {
            sink.add_clause(&[s(m - 1, k), s(m - 1, k - 1)])?;
        }
    }
    Ok(())
}

cardinality_entry!(
    /// The sequential counter in the catalogue ([`super::CATALOGUE`]).
    SeqCounter,
    "seqcounter",
    "registers \"at least j of the first i literals\", i < m, j <= k (Sinz 2005)",
    |kind| kind == Kind::Exactly
);
