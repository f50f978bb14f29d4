//! Comparator networks in clauses: what the sorting network ([`super::sortnet`]) and the
//! cardinality network ([`super::cardnet`]) are built from.
//!
//! A signal is a literal or the constant false (`None`), which the cardinality network pads
//! its input with. A comparator on two literals `a`, `b` takes two fresh variables, `hi`
//! (`a or b`) and `lo` (`a and b`), and emits
//!
//! ```text
//! up:    -a v hi,  -b v hi,  -a v -b v lo      (7 literals)
//! down:  -hi v a v b,  -lo v a,  -lo v b       (7 literals)
//! ```
//!
//! the first three when the network must push counts up (upper bounds), the last three when
//! it must pull them down (lower bounds), all six for both. A comparator with a false input is
//! a pair of wires: `(other, false)`, no variable, no clause.
//!
//! Sequences are sorted in decreasing order (true first), so output `j` of a sorted
//! sequence stands for "at least `j` true".

use super::{directions, sz, Job, Kind};
use crate::cnf::{ClauseSink, Lit};
use crate::encode::{Size, VarAlloc};
use std::io;

/// A literal, or `None` for the constant false.
pub(crate) type Sig = Option<Lit>;

/// Variables, clauses and literals of one comparator on two literals, for the directions
/// given: `(vars, clauses, literals)`.
fn comparator_cost(up: bool, down: bool) -> (u64, u64, u64) {
    let dirs = u64::from(up) + u64::from(down);
    (2, 3 * dirs, 7 * dirs)
}

/// Size of a network of `n` comparators on two literals, in the directions a bound of this
/// kind needs, with the bound's unit clauses on its outputs (two for exactly, one otherwise).
pub(crate) fn network_size(n: u64, kind: Kind) -> Size {
    let (up, down) = directions(kind);
    let (v, c, l) = comparator_cost(up, down);
    let units = if kind == Kind::Exactly { 2 } else { 1 };
    sz(
        n.saturating_mul(v),
        n.saturating_mul(c).saturating_add(units),
        n.saturating_mul(l).saturating_add(units),
    )
}

impl<S: ?Sized> Job<'_, S> {
    /// A network that takes its variables and emits its clauses where the job does, in the
    /// job's directions.
    pub fn network(&mut self) -> Network<'_, S> {
        Network {
            alloc: &mut *self.alloc,
            sink: &mut *self.sink,
            up: self.up,
            down: self.down,
        }
    }
}

/// Emits comparators into a sink, with variables from an allocator.
pub(crate) struct Network<'a, S: ?Sized> {
    pub alloc: &'a mut VarAlloc,
    pub sink: &'a mut S,
    pub up: bool,
    pub down: bool,
}

impl<S: ClauseSink + ?Sized> Network<'_, S> {
    /// One comparator: `(hi, lo)` = (`a or b`, `a and b`).
    pub fn comparator(&mut self, a: Sig, b: Sig) -> io::Result<(Sig, Sig)> {
        let (Some(a), Some(b)) = (a, b) else {
            return Ok((a.or(b), None));
        };
        let hi = self.alloc.fresh().positive();
        let lo = self.alloc.fresh().positive();
        if self.up {
            self.sink.add_clause(&[!a, hi])?;
            self.sink.add_clause(&[!b, hi])?;
            self.sink.add_clause(&[!a, !b, lo])?;
        }
        if self.down {
            self.sink.add_clause(&[!hi, a, b])?;
            self.sink.add_clause(&[!lo, a])?;
            self.sink.add_clause(&[!lo, b])?;
        }
        Ok((Some(hi), Some(lo)))
    }

    /// Batcher's odd-even merge of two sorted sequences of any lengths: `v` merges the
    /// elements at odd positions (1st, 3rd, ...) of both, `w` those at even positions; the
    /// result is `v_1`, then `(w_i, v_{i+1})` through a comparator for every `i` that has
    /// both, then the one element left over, if any (`|v| - |w|` is 0, 1 or 2).
    pub fn merge(&mut self, a: &[Sig], b: &[Sig]) -> io::Result<Vec<Sig>> {
        if a.is_empty() || b.is_empty() {
            return Ok([a, b].concat());
        }
        if a.len() == 1 && b.len() == 1 {
            let (hi, lo) = self.comparator(a[0], b[0])?;
            return Ok(vec![hi, lo]);
        }
        let odd = |x: &[Sig]| x.iter().step_by(2).copied().collect::<Vec<_>>();
        let even = |x: &[Sig]| x.iter().skip(1).step_by(2).copied().collect::<Vec<_>>();
        let v = self.merge(&odd(a), &odd(b))?;
        let w = self.merge(&even(a), &even(b))?;
        let pairs = w.len().min(v.len() - 1);
        let mut out = Vec::with_capacity(a.len() + b.len());
        out.push(v[0]);
        for i in 0..pairs {
            let (hi, lo) = self.comparator(w[i], v[i + 1])?;
            out.push(hi);
            out.push(lo);
        }
        out.extend_from_slice(&v[pairs + 1..]);
        out.extend_from_slice(&w[pairs..]);
        Ok(out)
    }

    /// Batcher's odd-even merge sort: the first `ceil(s/2)` and the last `floor(s/2)` sorted
    /// recursively, then merged.
    pub fn sort(&mut self, xs: &[Sig]) -> io::Result<Vec<Sig>> {
        if xs.len() <= 1 {
            return Ok(xs.to_vec());
        }
        let (left, right) = xs.split_at(xs.len() - xs.len() / 2);
        let a = self.sort(left)?;
        let b = self.sort(right)?;
        self.merge(&a, &b)
    }
}
