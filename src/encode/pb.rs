//! Linear pseudo-Boolean equalities in clauses, through binary adder networks: the weighted
//! sum `sum a_i x_i` (non-negative integer coefficients `a_i`, literals `x_i`) is computed bit
//! by bit by full and half adders, and its bits are then fixed to a constant
//! ([`encode_equal_to`]) or tied to the bits of a second sum ([`encode_equal_sums`]).
//!
//! This is the adder encoding of Warners ("A linear-time transformation of linear inequalities
//! into conjunctive normal form", IPL 1998) in the bucket form of Eén and Sörensson
//! ("Translating pseudo-Boolean constraints into SAT", JSAT 2006): every term puts its literal
//! into the bucket of each bit set in its coefficient; bucket `i` is then emptied from the
//! front, three literals at a time into a full adder (the sum bit goes to the back of bucket
//! `i`, the carry to bucket `i + 1`), two into a half adder when two are left; the one literal
//! left is bit `i` of the sum (none: the bit is the constant false). Buckets are queues, so
//! the adders form balanced trees.
//!
//! Every adder output is defined both ways (Tseitin): the sum bit of a full adder by the eight
//! clauses of `s <-> a xor b xor c`, its carry by the six of `co <-> majority(a, b, c)`; a half
//! adder's by the four of `s <-> a xor b` and the three of `co <-> a and b`. The auxiliaries
//! are therefore functions of the inputs: every assignment of the inputs extends to exactly
//! one assignment of the auxiliaries, and a formula keeps its model count, projected or not.
//!
//! Sizes: a full adder is 2 variables, 14 clauses and 50 literals, a half adder 2 variables, 7
//! clauses and 19 literals. How many of each a sum takes depends only on its coefficients, and
//! [`sum_plan`] computes it without making any clause; fixing the sum to `k` adds one unit
//! clause per bit of the sum, tying two sums two clauses of two literals per bit both have and
//! one unit clause per bit only one has. For `m` terms whose coefficients have `B` set bits in
//! all, there are fewer than `B` full adders and at most one half adder per bit position.
//!
//! ```
//! use queens_sat::cnf::{Cnf, Lit};
//! use queens_sat::encode::pb;
//! use queens_sat::encode::VarAlloc;
//!
//! // 1 x1 + 2 x2 + 3 x3 = 3
//! let terms: Vec<(u64, Lit)> = (1..=3).map(|i| (i as u64, Lit::from_index(i - 1, true))).collect();
//! let mut alloc = VarAlloc::starting_at(3);
//! let mut cnf = Cnf::new();
//! pb::encode_equal_to(&terms, 3, &mut alloc, &mut cnf).unwrap();
//! let size = pb::equal_to_size(terms.iter().map(|t| t.0), 3).unwrap();
//! assert_eq!(size.clauses, cnf.len() as u64);
//! assert_eq!(size.vars, (alloc.used() - 3) as u64);
//! assert!(pb::equal_to_size([2, 2], 3).is_err());
//! ```

use super::{Size, VarAlloc};
use crate::cnf::{ClauseSink, Lit};
use std::collections::VecDeque;
use std::io;

/// The size of one full adder: 2 auxiliaries, 14 clauses, 50 literals.
pub const FULL_ADDER: Size = Size {
    vars: 2,
    clauses: 14,
    literals: 50,
};

/// The size of one half adder: 2 auxiliaries, 7 clauses, 19 literals.
pub const HALF_ADDER: Size = Size {
    vars: 2,
    clauses: 7,
    literals: 19,
};

/// A constant that the sum cannot take: nothing is emitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a sum of coefficients totalling {total} (bits {bits} of the sum) cannot equal {k}")]
pub struct Unreachable {
    /// The constant asked for.
    pub k: u64,
    /// The sum of the coefficients (the largest value the sum can take).
    pub total: u128,
    /// The bit positions the sum can have set, as `0,1,3`.
    pub bits: String,
}

/// Why an equality was not encoded.
#[derive(Debug, thiserror::Error)]
pub enum PbError {
    /// The constant cannot be reached; nothing was emitted and no variable taken.
    #[error(transparent)]
    Unreachable(#[from] Unreachable),
    /// The sink failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// The sink's error as it was; an unreachable constant as [`io::ErrorKind::InvalidInput`].
impl From<PbError> for io::Error {
    fn from(e: PbError) -> io::Error {
        match e {
            PbError::Io(e) => e,
            PbError::Unreachable(u) => io::Error::new(io::ErrorKind::InvalidInput, u),
        }
    }
}

/// What the adder network of a sum is made of, computed from the coefficients alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SumPlan {
    /// Full adders.
    pub full: u64,
    /// Half adders.
    pub half: u64,
    /// For each bit position (least significant first), whether the network has an output
    /// literal there (`false`: the bit is always 0).
    pub bits: Vec<bool>,
    /// The sum of the coefficients.
    pub total: u128,
}

impl SumPlan {
    /// The auxiliaries, clauses and literals of the network.
    pub fn size(&self) -> Size {
        Size {
            vars: FULL_ADDER.vars * self.full + HALF_ADDER.vars * self.half,
            clauses: FULL_ADDER.clauses * self.full + HALF_ADDER.clauses * self.half,
            literals: FULL_ADDER.literals * self.full + HALF_ADDER.literals * self.half,
        }
    }
}

/// The adder network of a sum with these coefficients (zero coefficients contribute
/// nothing): the bucket procedure of the module documentation run on the buckets' sizes.
pub fn sum_plan(coefs: impl IntoIterator<Item = u64>) -> SumPlan {
    let mut counts: Vec<u64> = Vec::new();
    let mut total = 0u128;
    for a in coefs {
        total += a as u128;
        for i in 0..64 {
            if a >> i & 1 == 1 {
                if counts.len() <= i {
                    counts.resize(i + 1, 0);
                }
                counts[i] += 1;
            }
        }
    }
    let mut plan = SumPlan {
        total,
        ..SumPlan::default()
    };
    let mut i = 0;
    while i < counts.len() {
        // Three out, one sum back: each full adder shrinks the bucket by two.
        let mut carries = 0;
        while counts[i] >= 3 {
            plan.full += 1;
            counts[i] -= 2;
            carries += 1;
        }
        if counts[i] == 2 {
            plan.half += 1;
            counts[i] = 1;
            carries += 1;
        }
        if carries > 0 {
            if counts.len() <= i + 1 {
                counts.push(0);
            }
            counts[i + 1] += carries;
        }
        plan.bits.push(counts[i] == 1);
        i += 1;
    }
    plan
}

fn bits_list(bits: &[bool]) -> String {
    let set: Vec<String> = bits
        .iter()
        .enumerate()
        .filter(|b| *b.1)
        .map(|b| b.0.to_string())
        .collect();
    if set.is_empty() {
        "none".into()
    } else {
        set.join(",")
    }
}

/// `Ok` when the network of `plan` can be fixed to `k` by unit clauses.
fn reachable(plan: &SumPlan, k: u64) -> Result<(), Unreachable> {
    let fits = (0..64).all(|i| k >> i & 1 == 0 || plan.bits.get(i).copied().unwrap_or(false));
    if fits && k as u128 <= plan.total {
        Ok(())
    } else {
        Err(Unreachable {
            k,
            total: plan.total,
            bits: bits_list(&plan.bits),
        })
    }
}

/// The size of `sum coefs_i x_i = k` ([`encode_equal_to`]): the network and one unit clause per
/// output bit; [`Unreachable`] when `k` exceeds the sum of the coefficients or needs a bit the
/// sum never has.
pub fn equal_to_size(coefs: impl IntoIterator<Item = u64>, k: u64) -> Result<Size, Unreachable> {
    let plan = sum_plan(coefs);
    reachable(&plan, k)?;
    let outputs = plan.bits.iter().filter(|&&b| b).count() as u64;
    let mut size = plan.size();
    size.clauses += outputs;
    size.literals += outputs;
    Ok(size)
}

/// The size of `sum left = sum right` ([`encode_equal_sums`]) for these coefficients.
pub fn equal_sums_size(
    left: impl IntoIterator<Item = u64>,
    right: impl IntoIterator<Item = u64>,
) -> Size {
    let (p, q) = (sum_plan(left), sum_plan(right));
    let (a, b) = (p.size(), q.size());
    let mut size = Size {
        vars: a.vars + b.vars,
        clauses: a.clauses + b.clauses,
        literals: a.literals + b.literals,
    };
    for i in 0..p.bits.len().max(q.bits.len()) {
        let has = |plan: &SumPlan| plan.bits.get(i).copied().unwrap_or(false);
        match (has(&p), has(&q)) {
            (true, true) => {
                size.clauses += 2;
                size.literals += 4;
            }
            (true, false) | (false, true) => {
                size.clauses += 1;
                size.literals += 1;
            }
            (false, false) => {}
        }
    }
    size
}

/// Emits the adder network of `sum a x` and returns its bits, least significant first (`None`:
/// the bit is always 0). Takes exactly `sum_plan(coefficients).size().vars` variables from
/// `alloc`, in one block.
pub fn encode_sum<S: ClauseSink + ?Sized>(
    terms: &[(u64, Lit)],
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<Vec<Option<Lit>>> {
    let mut buckets: Vec<VecDeque<Lit>> = Vec::new();
    for &(a, x) in terms {
        for i in 0..64 {
            if a >> i & 1 == 1 {
                if buckets.len() <= i {
                    buckets.resize(i + 1, VecDeque::new());
                }
                buckets[i].push_back(x);
            }
        }
    }
    let mut bits = Vec::new();
    let mut i = 0;
    while i < buckets.len() {
        let mut carries = Vec::new();
        while buckets[i].len() >= 3 {
            let q = &mut buckets[i];
            let (a, b, c) = (
                q.pop_front().unwrap(),
                q.pop_front().unwrap(),
                q.pop_front().unwrap(),
            );
            let s = alloc.fresh().positive();
            let co = alloc.fresh().positive();
            full_adder(a, b, c, s, co, sink)?;
            buckets[i].push_back(s);
            carries.push(co);
        }
        if buckets[i].len() == 2 {
            let q = &mut buckets[i];
            let (a, b) = (q.pop_front().unwrap(), q.pop_front().unwrap());
            let s = alloc.fresh().positive();
            let co = alloc.fresh().positive();
            half_adder(a, b, s, co, sink)?;
            buckets[i].push_back(s);
            carries.push(co);
        }
        if !carries.is_empty() {
            if buckets.len() <= i + 1 {
                buckets.push(VecDeque::new());
            }
            buckets[i + 1].extend(carries);
        }
        bits.push(buckets[i].front().copied());
        i += 1;
    }
    Ok(bits)
}

/// `s <-> a xor b xor c` (8 clauses) and `co <-> majority(a, b, c)` (6 clauses).
fn full_adder<S: ClauseSink + ?Sized>(
    a: Lit,
    b: Lit,
    c: Lit,
    s: Lit,
    co: Lit,
    sink: &mut S,
) -> io::Result<()> {
    for mask in 0..8u8 {
        // The assignment a = bit 0, b = bit 1, c = bit 2 of the mask forces s to its parity.
        let pick = |l: Lit, bit: u8| if mask >> bit & 1 == 1 { !l } else { l };
        let parity = mask.count_ones() % 2 == 1;
        sink.add_clause(&[
            pick(a, 0),
            pick(b, 1),
            pick(c, 2),
            if parity { s } else { !s },
        ])?;
    }
    for (x, y) in [(a, b), (a, c), (b, c)] {
        sink.add_clause(&[!x, !y, co])?;
        sink.add_clause(&[x, y, !co])?;
    }
    Ok(())
}

/// `s <-> a xor b` (4 clauses) and `co <-> a and b` (3 clauses).
fn half_adder<S: ClauseSink + ?Sized>(
    a: Lit,
    b: Lit,
    s: Lit,
    co: Lit,
    sink: &mut S,
) -> io::Result<()> {
    sink.add_clause(&[!a, !b, !s])?;
    sink.add_clause(&[a, b, !s])?;
    sink.add_clause(&[!a, b, s])?;
    sink.add_clause(&[a, !b, s])?;
    sink.add_clause(&[!co, a])?;
    sink.add_clause(&[!co, b])?;
    sink.add_clause(&[co, !a, !b])?;
    Ok(())
}

/// Emits `sum a x = k`: the adder network of the sum and a unit clause fixing each of its
/// bits to `k`'s. [`Unreachable`] (nothing emitted, no variable taken) when `k` exceeds the
/// sum of the coefficients or needs a bit the sum never has.
pub fn encode_equal_to<S: ClauseSink + ?Sized>(
    terms: &[(u64, Lit)],
    k: u64,
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> Result<(), PbError> {
    reachable(&sum_plan(terms.iter().map(|t| t.0)), k)?;
    let bits = encode_sum(terms, alloc, sink)?;
    for (i, bit) in bits.iter().enumerate() {
        if let Some(b) = *bit {
            let set = i < 64 && k >> i & 1 == 1;
            sink.add_clause(&[if set { b } else { !b }])?;
        }
    }
    Ok(())
}

/// Emits `sum left = sum right`: the two adder networks (the left one's variables first) and,
/// per bit position, `p <-> q` where both sums have a bit, `-p` where only one has.
pub fn encode_equal_sums<S: ClauseSink + ?Sized>(
    left: &[(u64, Lit)],
    right: &[(u64, Lit)],
    alloc: &mut VarAlloc,
    sink: &mut S,
) -> io::Result<()> {
    let p = encode_sum(left, alloc, sink)?;
    let q = encode_sum(right, alloc, sink)?;
    for i in 0..p.len().max(q.len()) {
        let get = |v: &[Option<Lit>]| v.get(i).copied().flatten();
        match (get(&p), get(&q)) {
            (Some(x), Some(y)) => {
                sink.add_clause(&[!x, y])?;
                sink.add_clause(&[x, !y])?;
            }
            (Some(x), None) | (None, Some(x)) => sink.add_clause(&[!x])?,
            (None, None) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{Cnf, CountingSink};

    /// Every model of the clauses over all variables, by enumeration.
    fn models_over_all(cnf: &Cnf, vars: usize) -> Vec<Vec<bool>> {
        let mut out = Vec::new();
        for bits in 0u64..(1 << vars) {
            let a: Vec<bool> = (0..vars).map(|i| bits >> i & 1 == 1).collect();
            if cnf.iter().all(|c| crate::cnf::clause_satisfied(c, &a)) {
                out.push(a);
            }
        }
        out
    }

    /// Small coefficient lists, every constant, counted exactly over all variables: the
    /// models are the input assignments whose weighted sum is k, one each.
    #[test]
    fn equal_to_is_exact_and_sized() {
        let lists: [&[u64]; 7] = [
            &[1],
            &[1, 1],
            &[1, 2, 3],
            &[3, 3, 3],
            &[2, 2],
            &[5, 1, 4, 2],
            &[1, 1, 1, 1, 1],
        ];
        for coefs in lists {
            let m = coefs.len();
            let terms: Vec<(u64, Lit)> = coefs
                .iter()
                .enumerate()
                .map(|(i, &a)| (a, Lit::from_index(i, true)))
                .collect();
            let total: u64 = coefs.iter().sum();
            for k in 0..=total + 1 {
                let expected = (0u64..1 << m)
                    .filter(|b| (0..m).map(|i| (b >> i & 1) * coefs[i]).sum::<u64>() == k)
                    .count();
                let mut alloc = VarAlloc::starting_at(m);
                let mut cnf = Cnf::new();
                match encode_equal_to(&terms, k, &mut alloc, &mut cnf) {
                    Err(PbError::Unreachable(_)) => {
                        assert_eq!(expected, 0, "{coefs:?} k={k}");
                        assert_eq!(alloc.used(), m);
                        assert!(equal_to_size(coefs.iter().copied(), k).is_err());
                        continue;
                    }
                    Err(e) => panic!("{e}"),
                    Ok(()) => {}
                }
                let size = equal_to_size(coefs.iter().copied(), k).unwrap();
                let mut count = CountingSink::default();
                let mut alloc2 = VarAlloc::starting_at(m);
                encode_equal_to(&terms, k, &mut alloc2, &mut count).unwrap();
                assert_eq!(
                    (count.clauses, count.literals, (alloc.used() - m) as u64),
                    (size.clauses, size.literals, size.vars),
                    "{coefs:?} k={k}"
                );
                let models = models_over_all(&cnf, alloc.used());
                assert_eq!(models.len(), expected, "{coefs:?} k={k}");
            }
        }
    }

    #[test]
    fn equal_sums_is_exact_and_sized() {
        let pairs: [(&[u64], &[u64]); 5] = [
            (&[1], &[1]),
            (&[1, 2], &[3]),
            (&[2, 1], &[1, 1, 1]),
            (&[4], &[1, 2]),
            (&[], &[1, 1]),
        ];
        for (l, r) in pairs {
            let m = l.len() + r.len();
            let lit = |i: usize| Lit::from_index(i, true);
            let left: Vec<(u64, Lit)> = l.iter().enumerate().map(|(i, &a)| (a, lit(i))).collect();
            let right: Vec<(u64, Lit)> = r
                .iter()
                .enumerate()
                .map(|(i, &a)| (a, lit(l.len() + i)))
                .collect();
            let mut alloc = VarAlloc::starting_at(m);
            let mut cnf = Cnf::new();
            encode_equal_sums(&left, &right, &mut alloc, &mut cnf).unwrap();
            let size = equal_sums_size(l.iter().copied(), r.iter().copied());
            let lits: u64 = cnf.iter().map(|c| c.len() as u64).sum();
            assert_eq!(
                (cnf.len() as u64, lits, (alloc.used() - m) as u64),
                (size.clauses, size.literals, size.vars),
                "{l:?} {r:?}"
            );
            let weights: Vec<i64> = l
                .iter()
                .map(|&a| a as i64)
                .chain(r.iter().map(|&a| -(a as i64)))
                .collect();
            let expected = (0u64..1 << m)
                .filter(|b| {
                    (0..m)
                        .map(|i| (b >> i & 1) as i64 * weights[i])
                        .sum::<i64>()
                        == 0
                })
                .count();
            assert_eq!(
                models_over_all(&cnf, alloc.used()).len(),
                expected,
                "{l:?} {r:?}"
            );
        }
    }

    /// A network of at most the set bits of its coefficients in full adders, and at most one
    /// half adder per bit position, as the module documentation states.
    #[test]
    fn plan_bounds_hold() {
        for n in [1u64, 5, 17, 60, 200] {
            let coefs: Vec<u64> = (0..n * n).map(|i| i / n + i % n + 2).collect();
            let plan = sum_plan(coefs.iter().copied());
            let set: u64 = coefs.iter().map(|a| a.count_ones() as u64).sum();
            assert!(plan.full < set.max(1), "n={n}");
            assert!(plan.half <= plan.bits.len() as u64, "n={n}");
        }
    }
}
