//! Cardinality constraints: clauses that say "at most k", "at least k" or "exactly k" of a
//! list of literals are true.
//!
//! Each encoding lives in a file of its own and documents its clauses, its exact size and its
//! source. For `m` literals and a bound `1 <= k < m` (the bounds that need an encoding at all):
//!
//! | name | module | auxiliary variables | clauses (at most k) | counts kept |
//! |---|---|---|---|---|
//! | `totalizer` | [`totalizer`] | O(m (1 + log k)) | O(m k) | exactly k |
//! | `mtotalizer` | [`mtotalizer`] | O(m (1 + log k)) | O(m sqrt(k)) | never |
//! | `seqcounter` | [`seqcounter`] | (m - 1) k | 2mk + m - 3k - 1 | exactly k |
//! | `sortnet` | [`sortnet`] | 2 C(m), C(m) = O(m log^2 m) comparators, whatever k | 3 C(m) + 1 | exactly k |
//! | `cardnet` | [`cardnet`] | O(m (1 + log^2 k)) | O(m (1 + log^2 k)) | exactly k |
//!
//! (exact formulas, or the O(log^2 m) computations that give them, in each module; at least k
//! costs about what at most k does, except for the modulo totalizer, which encodes it as at
//! most m - k of the negated literals. "Counts kept": the kinds for which the count over all
//! variables equals the count over the literals, see below.)
//!
//! [`Cardinality`] is the trait every encoding implements and [`CATALOGUE`] lists them; the
//! generic tests run every entry of the catalogue. Each encoding states its size exactly
//! ([`Cardinality::size`]) before any clause is made, and the tests compare it with what is
//! emitted.
//!
//! ```
//! use queens_sat::cnf::{Cnf, Lit};
//! use queens_sat::encode::card::{totalizer::Totalizer, Cardinality, Kind};
//! use queens_sat::encode::VarAlloc;
//!
//! // At most 3 of 10 literals, the auxiliaries numbered after them.
//! let lits: Vec<Lit> = (0..10).map(|i| Lit::from_index(i, true)).collect();
//! let mut alloc = VarAlloc::starting_at(10);
//! let mut cnf = Cnf::new();
//! Totalizer.encode(&lits, 3, Kind::AtMost, &mut alloc, &mut cnf).unwrap();
//! let size = Totalizer.size(10, 3, Kind::AtMost).unwrap();
//! assert_eq!(size.clauses, cnf.len() as u64);
//! assert_eq!(size.vars, (alloc.used() - 10) as u64);
//! assert!(Totalizer.encode(&lits, 11, Kind::AtLeast, &mut alloc, &mut cnf).is_err());
//! ```
//!
//! ## Bounds
//!
//! A bound is a `usize`: a negative bound cannot be passed ([`bound_from_signed`] turns a signed
//! number into one, with a typed error). Bounds that need no encoding are handled the same way
//! by every encoding, without auxiliary variables:
//!
//! - at most `k >= m`, at least `0`: no clause;
//! - at most `0`, exactly `0`: the unit clause `-x` for every literal;
//! - at least `m`, exactly `m`: the unit clause `x` for every literal;
//! - at least or exactly `k > m` cannot hold: a [`BoundError`], nothing emitted (an unsatisfiable
//!   constraint is a caller's mistake more often than an intention; a caller who means it adds
//!   the empty clause).
//!
//! ## Half encodings and model counts
//!
//! The encodings introduce auxiliary variables that stand for facts about the inputs ("at
//! least j of the first i literals are true"). Clauses that force such a variable true when the
//! fact holds are all that an upper bound needs; clauses that force it false when the fact
//! does not hold are all that a lower bound needs. An encoding that emits only the direction
//! its bound needs is a *half* encoding (Een & Sorensson encode their networks this way, by
//! the polarity in which each part is used): it is equivalent to the constraint once the
//! auxiliaries are projected away, but under a model of the inputs the auxiliaries are not
//! always fixed, so the number of models over all variables can exceed the number of models
//! of the inputs. [`Cardinality::preserves_count`]
//! says, for each encoding and kind, whether the two counts are equal for every list and bound
//! (every model of the inputs extends to exactly one model of the clauses); the tests count
//! both, for every bound and kind on up to 8 literals, and check that an encoding that claims
//! it never fails it and one that does not fails it somewhere.
//!
//! Auxiliary variables are taken from a [`VarAlloc`] in increasing order, so the auxiliaries of
//! one call form one contiguous block.

/// Declares an encoding's unit struct (with the doc comment given), its module's public
/// `size` and `encode`, and the [`Cardinality`] implementation by them, so that a module states
/// only what differs: its name, its summary, when it keeps model counts, and the encoding
/// proper, as two module functions with these signatures:
///
/// ```text
/// fn size_proper(m: usize, k: usize, kind: Kind) -> Size
/// fn encode_proper<S: ClauseSink + ?Sized>(job: Job<'_, S>) -> io::Result<()>
/// ```
///
/// for a bound that needs the encoding (`1 <= k < m`); the bounds that need none, and bounds
/// out of range, are handled here the same way for every encoding ([`size_with`],
/// [`encode_with`]).
macro_rules! cardinality_entry {
    (
        $(#[$doc:meta])*
        $ty:ident, $name:literal, $summary:literal, |$kind:pat_param| $preserves:expr
    ) => {
        $(#[$doc])*
        pub struct $ty;

        /// Auxiliary variables, clauses and literals of this module's encoding for "`kind` `k`
        /// of `m` literals", exact, without emitting; the bound's error when it is out of range
        /// (as [`Cardinality::size`](crate::encode::card::Cardinality::size)).
        pub fn size(
            m: usize,
            k: usize,
            kind: $crate::encode::card::Kind,
        ) -> Result<$crate::encode::Size, $crate::encode::card::BoundError> {
            $crate::encode::card::size_with(m, k, kind, || size_proper(m, k, kind))
        }

        /// Emits this module's encoding for "`kind` `k` of `lits`" into `sink`, its auxiliary
        /// variables from `alloc` (as
        /// [`Cardinality::encode`](crate::encode::card::Cardinality::encode)).
        pub fn encode<S: $crate::cnf::ClauseSink + ?Sized>(
            lits: &[$crate::cnf::Lit],
            k: usize,
            kind: $crate::encode::card::Kind,
            alloc: &mut $crate::encode::VarAlloc,
            sink: &mut S,
        ) -> Result<(), $crate::encode::card::CardError> {
            $crate::encode::card::encode_with(lits, k, kind, alloc, sink, encode_proper)
        }

        impl $crate::encode::card::Cardinality for $ty {
            fn name(&self) -> &'static str {
                $name
            }
            fn summary(&self) -> &'static str {
                $summary
            }
            fn preserves_count(&self, $kind: $crate::encode::card::Kind) -> bool {
                $preserves
            }
            fn size(
                &self,
                m: usize,
                k: usize,
                kind: $crate::encode::card::Kind,
            ) -> Result<$crate::encode::Size, $crate::encode::card::BoundError> {
                size(m, k, kind)
            }
            fn encode(
                &self,
                lits: &[$crate::cnf::Lit],
                k: usize,
                kind: $crate::encode::card::Kind,
                alloc: &mut $crate::encode::VarAlloc,
                sink: &mut dyn $crate::cnf::ClauseSink,
            ) -> Result<(), $crate::encode::card::CardError> {
                encode(lits, k, kind, alloc, sink)
            }
        }
    };
}

pub mod cardnet;
pub mod mtotalizer;
mod network;
pub mod seqcounter;
pub mod sortnet;
pub mod totalizer;

#[cfg(test)]
pub(crate) mod extensions;
#[cfg(test)]
mod tests;

use super::{Size, VarAlloc};
use crate::cnf::{ClauseSink, Lit};
use std::io;

/// Which way a cardinality constraint bounds the number of true literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// At most `k` of the literals are true.
    AtMost,
    /// At least `k` of the literals are true.
    AtLeast,
    /// Exactly `k` of the literals are true.
    Exactly,
}

impl Kind {
    /// The three kinds.
    pub const ALL: [Kind; 3] = [Kind::AtMost, Kind::AtLeast, Kind::Exactly];

    /// `true` when `count` true literals satisfy the bound `k` of this kind: the definition
    /// every encoding implements.
    pub fn holds(self, count: usize, k: usize) -> bool {
        match self {
            Kind::AtMost => count <= k,
            Kind::AtLeast => count >= k,
            Kind::Exactly => count == k,
        }
    }

    /// The kind in words: `at most`, `at least`, `exactly`.
    pub fn words(self) -> &'static str {
        match self {
            Kind::AtMost => "at most",
            Kind::AtLeast => "at least",
            Kind::Exactly => "exactly",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.words())
    }
}

/// A bound that no encoding can take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoundError {
    /// At least or exactly more literals than the list has: the constraint cannot hold.
    #[error(
        "{kind} {k} of {m} literals cannot hold: the bound is larger than the number of literals"
    )]
    AboveLength {
        /// The kind of constraint.
        kind: Kind,
        /// The bound.
        k: usize,
        /// The number of literals.
        m: usize,
    },
    /// A negative bound ([`bound_from_signed`]).
    #[error("a cardinality bound must be at least 0, got {0}")]
    Negative(i64),
}

/// Why a cardinality constraint was not encoded: a bound out of range (nothing emitted), or
/// the sink's error.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    /// The bound is out of range; nothing was emitted and no variable taken.
    #[error(transparent)]
    Bound(#[from] BoundError),
    /// The sink failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// The sink's error as it was; a bound error as [`io::ErrorKind::InvalidInput`].
impl From<CardError> for io::Error {
    fn from(e: CardError) -> io::Error {
        match e {
            CardError::Io(e) => e,
            CardError::Bound(b) => io::Error::new(io::ErrorKind::InvalidInput, b),
        }
    }
}

/// A bound read as a signed number (from a file, a user), as the `usize` the encodings take.
pub fn bound_from_signed(k: i64) -> Result<usize, BoundError> {
    usize::try_from(k).map_err(|_| BoundError::Negative(k))
}

/// `Ok` when "`kind` `k` of `m` literals" can hold, the [`BoundError`] otherwise.
pub fn check(m: usize, k: usize, kind: Kind) -> Result<(), BoundError> {
    plan(m, k, kind).map(|_| ())
}

/// A cardinality encoding: how to say "at most / at least / exactly `k` of these literals are
/// true" in clauses.
///
/// Implement it (one file, one unit struct) and add the struct to [`CATALOGUE`]: the generic
/// tests then check it for every bound and kind. Bounds that need no encoding (see the
/// [module documentation](self)) are handled by the helpers every implementation calls, so
/// that all encodings agree on them.
pub trait Cardinality: Sync + Send + 'static {
    /// The name (`totalizer`, `seqcounter`, ...).
    fn name(&self) -> &'static str;
    /// One line on what the encoding does, for help texts and listings.
    fn summary(&self) -> &'static str;
    /// `true` when, for every number of literals and every bound of this kind, each
    /// assignment of the literals that satisfies the constraint extends to exactly one model
    /// of the clauses (the auxiliaries are functions of the literals), so that the number of
    /// models over all variables equals the number over the literals. `false` when some list
    /// and bound have a satisfying assignment with two or more extensions (a half encoding);
    /// the counts may still coincide for particular sizes, which each module notes. Trivial
    /// bounds use no auxiliary variable and keep the count whatever this says.
    fn preserves_count(&self, kind: Kind) -> bool;
    /// Auxiliary variables (`vars` counts only those), clauses and literals for a list of `m`
    /// literals, exact, without emitting; the [`BoundError`] for a bound out of range.
    fn size(&self, m: usize, k: usize, kind: Kind) -> Result<Size, BoundError>;
    /// Emits the clauses for "`kind` `k` of `lits`" into `sink`, taking exactly
    /// `self.size(lits.len(), k, kind)?.vars` auxiliary variables from `alloc`, in one block.
    /// A bound out of range emits nothing and takes no variable.
    fn encode(
        &self,
        lits: &[Lit],
        k: usize,
        kind: Kind,
        alloc: &mut VarAlloc,
        sink: &mut dyn ClauseSink,
    ) -> Result<(), CardError>;
}

/// Every cardinality encoding, in the order of the table above.
pub static CATALOGUE: &[&dyn Cardinality] = &[
    &totalizer::Totalizer,
    &mtotalizer::ModuloTotalizer,
    &seqcounter::SeqCounter,
    &sortnet::SortNet,
    &cardnet::CardNet,
];

/// The encoding of the [`CATALOGUE`] with this name.
pub fn by_name(name: &str) -> Option<&'static dyn Cardinality> {
    CATALOGUE.iter().copied().find(|e| e.name() == name)
}

/// What a bound asks of an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// No clause at all.
    Nothing,
    /// Every literal fixed to this value by a unit clause.
    Fix(bool),
    /// The encoding proper: `1 <= k < m`.
    Encode,
}

/// The [`Plan`] for "`kind` `k` of `m` literals", or why there is none.
pub(crate) fn plan(m: usize, k: usize, kind: Kind) -> Result<Plan, BoundError> {
    let above = || BoundError::AboveLength { kind, k, m };
    Ok(match kind {
        Kind::AtMost if k >= m => Plan::Nothing,
        Kind::AtMost if k == 0 => Plan::Fix(false),
        Kind::AtLeast | Kind::Exactly if k > m => return Err(above()),
        Kind::AtLeast if k == 0 => Plan::Nothing,
        Kind::Exactly if k == 0 => Plan::Fix(false),
        Kind::AtLeast | Kind::Exactly if k == m => Plan::Fix(true),
        _ => Plan::Encode,
    })
}

/// The size for a bound: nothing, `m` unit clauses, or `encoding()` for the encoding proper.
pub(crate) fn size_with(
    m: usize,
    k: usize,
    kind: Kind,
    encoding: impl FnOnce() -> Size,
) -> Result<Size, BoundError> {
    Ok(match plan(m, k, kind)? {
        Plan::Nothing => Size::default(),
        Plan::Fix(_) => Size {
            vars: 0,
            clauses: m as u64,
            literals: m as u64,
        },
        Plan::Encode => encoding(),
    })
}

/// A bound that needs the encoding proper (`1 <= k < m`, [`Plan::Encode`]) with the
/// directions it needs ([`directions`]) and where the encoding takes its auxiliaries from and
/// emits its clauses to: what every module's `encode_proper` is given.
pub(crate) struct Job<'a, S: ?Sized> {
    /// The literals.
    pub lits: &'a [Lit],
    /// The bound.
    pub k: usize,
    /// The kind of bound.
    pub kind: Kind,
    /// Whether counting variables are forced true when their fact holds.
    pub up: bool,
    /// Whether counting variables are forced false when their fact does not hold.
    pub down: bool,
    /// Where the auxiliary variables come from.
    pub alloc: &'a mut VarAlloc,
    /// Where the clauses go.
    pub sink: &'a mut S,
}

/// Emits a bound: nothing, the unit clauses, or `encoding` on the [`Job`] of the encoding
/// proper.
pub(crate) fn encode_with<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    k: usize,
    kind: Kind,
    alloc: &mut VarAlloc,
    sink: &mut S,
    encoding: impl FnOnce(Job<'_, S>) -> io::Result<()>,
) -> Result<(), CardError> {
    match plan(lits.len(), k, kind)? {
        Plan::Nothing => {}
        Plan::Fix(value) => {
            for &x in lits {
                sink.add_clause(&[if value { x } else { !x }])?;
            }
        }
        Plan::Encode => {
            let (up, down) = directions(kind);
            encoding(Job {
                lits,
                k,
                kind,
                up,
                down,
                alloc,
                sink,
            })?
        }
    }
    Ok(())
}

/// The unit clauses that bound a unary count `r` (`r[j]` true when at least `j + 1` inputs
/// are): `r[k - 1]` for a lower bound, `-r[k]` for an upper one, in that order for exactly `k`.
pub(crate) fn bound_count<S: ClauseSink + ?Sized>(
    sink: &mut S,
    kind: Kind,
    k: usize,
    r: &[Lit],
) -> io::Result<()> {
    if kind != Kind::AtMost {
        sink.add_clause(&[r[k - 1]])?;
    }
    if kind != Kind::AtLeast {
        sink.add_clause(&[!r[k]])?;
    }
    Ok(())
}

/// Which implications an encoding emits for a kind: `(up, down)`, where `up` forces a counting
/// variable true when its fact holds (what an upper bound needs) and `down` forces it false
/// when the fact does not hold (what a lower bound needs).
pub(crate) fn directions(kind: Kind) -> (bool, bool) {
    match kind {
        Kind::AtMost => (true, false),
        Kind::AtLeast => (false, true),
        Kind::Exactly => (true, true),
    }
}

/// `#{(i, j) : 0 <= i <= a, 0 <= j <= b, i + j <= t}`, in closed form.
pub(crate) fn pairs_upto(a: u64, b: u64, t: u64) -> u64 {
    let (a, b, t) = (a as u128, b as u128, t as u128);
    let imax = a.min(t);
    // For i <= t - b every j in 0..=b counts; above that, j in 0..=t-i.
    let full = if t >= b { (t - b).min(imax) + 1 } else { 0 };
    let mut total = full * (b + 1);
    if full <= imax {
        let (lo, hi) = (full, imax);
        let (first, last) = (t - hi + 1, t - lo + 1);
        total += (hi - lo + 1) * (first + last) / 2;
    }
    u64::try_from(total).unwrap_or(u64::MAX)
}

/// A size of `vars` auxiliaries, `clauses` clauses and `literals` literals.
pub(crate) fn sz(vars: u64, clauses: u64, literals: u64) -> Size {
    Size {
        vars,
        clauses,
        literals,
    }
}
