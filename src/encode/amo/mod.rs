//! At-most-one encodings: clauses that allow at most one of a list of literals to be true.
//!
//! Each encoding lives in a file of its own and documents its size formula and its source:
//!
//! | name | module | auxiliary variables | clauses |
//! |---|---|---|---|
//! | `pairwise` | [`pairwise`] | 0 | m(m-1)/2 |
//! | `sequential` | [`sequential`] | m - 1 | 3m - 4 |
//! | `ladder` | [`ladder`] | m | 4m - 2 |
//! | `commander[:g]` | [`commander`] | about m/(g-1) | about (g(g-1)/2 + g + 1) m/(g-1) |
//! | `product` | [`product`] | about 2 sqrt(m) | about 2m + 4 sqrt(m) |
//! | `binary` | [`binary`] | ceil(log2 m) | m ceil(log2 m) |
//! | `bimander[:k]` | [`bimander`] | ceil(log2 k) | about m^2/(2k) + m ceil(log2 k) |
//! | `totalizer` | [`totalizer`] | 2(m - 1) | about 4m |
//! | `mtotalizer` | [`mtotalizer`] | 3(m - 1) | about 5.3m |
//! | `sortnet` | [`sortnet`] | 2 C(m), C(m) = O(m log^2 m) comparators | 3 C(m) + 1 |
//! | `cardnet` | [`cardnet`] | 4m - 6 | 6m - 8 |
//!
//! (exact formulas in each module; all of them emit nothing for m <= 1.) The last four are
//! cardinality encodings of [`crate::encode::card`] with k = 1.
//!
//! [`Amo`] names them and dispatches to them; every encoding states its size exactly
//! ([`Amo::size`], a closed form or, for the recursive commander and product encodings, a
//! computation over the O(log m) levels of the recursion), which the tests compare with what it
//! emits. The size is known before the first clause is made, so a DIMACS header can be written
//! up front.
//!
//! Auxiliary variables are taken from a [`VarAlloc`] in increasing order, so the auxiliaries of
//! one call form one contiguous block.

/// Declares an encoding's unit struct (with the doc comment given) and implements
/// [`AtMostOne`] for it, so that a module registers its encoding in a few lines of data: the
/// struct, the name and its aliases, the letter of its auxiliaries, the summary, the
/// [`Parameter`] where there is one, and the module's own functions that size and emit it,
/// written as closures over the trait's arguments (`m` and the parameter; the literals, the
/// parameter, the allocator and the sink).
///
/// ```text
/// at_most_one_entry! {
///     /// The doc comment of the struct.
///     Name, "name" or "alias", aux "a": "the summary",
///     parameter Parameter::new(..),            (optional)
///     size |m, param| ..., encode |lits, param, alloc, sink| ...
/// }
/// ```
macro_rules! at_most_one_entry {
    (
        $(#[$doc:meta])*
        $ty:ident, $name:literal $(or $($alias:literal),+)?, aux $aux:literal: $summary:literal,
        $(parameter $parameter:expr,)?
        size |$m:ident, $sp:pat_param| $size:expr,
        encode |$lits:ident, $ep:pat_param, $alloc:pat_param, $sink:ident| $encode:expr
    ) => {
        $(#[$doc])*
        pub struct $ty;

        impl $crate::encode::amo::AtMostOne for $ty {
            fn name(&self) -> &'static str {
                $name
            }
            fn aliases(&self) -> &'static [&'static str] {
                &[$($($alias),+)?]
            }
            fn summary(&self) -> &'static str {
                $summary
            }
            fn aux_symbol(&self) -> &'static str {
                $aux
            }
            fn parameter(&self) -> Option<$crate::encode::amo::Parameter> {
                at_most_one_entry!(@parameter $($parameter)?)
            }
            fn size(&self, $m: usize, $sp: Option<usize>) -> $crate::encode::Size {
                $size
            }
            fn encode(
                &self,
                $lits: &[$crate::cnf::Lit],
                $ep: Option<usize>,
                $alloc: &mut $crate::encode::VarAlloc,
                $sink: &mut dyn $crate::cnf::ClauseSink,
            ) -> std::io::Result<()> {
                $encode
            }
        }
    };
    (@parameter) => {
        None
    };
    (@parameter $parameter:expr) => {
        Some($parameter)
    };
}

pub mod bimander;
pub mod binary;
pub mod cardnet;
pub mod commander;
pub mod ladder;
pub mod mtotalizer;
pub mod pairwise;
pub mod product;
pub mod sequential;
pub mod sortnet;
pub mod totalizer;

use super::card::{Cardinality, Kind};
use super::{Size, VarAlloc};
use crate::cnf::{ClauseSink, Lit};
use std::io;

/// An at-most-one encoding: how to say "at most one of these literals is true" in clauses.
///
/// Implement it (one file, one unit struct) and add the struct to [`CATALOGUE`]: the command
/// line (`--amo NAME`), the experiments and the generic tests then pick it up. The built-in
/// encodings implement it by the module-private macro `at_most_one_entry!`, or, for those
/// taken from a cardinality encoding, through [`AtMostOneOf`]. A parameter,
/// where the encoding has one, is given as `NAME:VALUE` on the command line and passed to
/// [`AtMostOne::size`] and [`AtMostOne::encode`] (`None` for the default).
pub trait AtMostOne: Sync + Send + 'static {
    /// The command-line name (`pairwise`, `sequential`, ...).
    fn name(&self) -> &'static str;
    /// Other names the command line accepts (`binomial` for pairwise, ...).
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }
    /// One line on what the encoding does, for help texts and listings.
    fn summary(&self) -> &'static str;
    /// The letter that names the encoding's auxiliary variables in listings (`s` for the
    /// sequential counter's, ...; `x` for an encoding without auxiliaries).
    fn aux_symbol(&self) -> &'static str;
    /// The encoding's parameter, if it has one.
    fn parameter(&self) -> Option<Parameter> {
        None
    }
    /// Auxiliary variables (`vars` counts only those), clauses and literals for a list of `m`
    /// literals, exact, without emitting.
    fn size(&self, m: usize, param: Option<usize>) -> Size;
    /// Emits the clauses for "at most one of `lits`" into `sink`, taking exactly
    /// `self.size(lits.len(), param).vars` auxiliary variables from `alloc`, in one block.
    fn encode(
        &self,
        lits: &[Lit],
        param: Option<usize>,
        alloc: &mut VarAlloc,
        sink: &mut dyn ClauseSink,
    ) -> io::Result<()>;
}

/// The parameter of an at-most-one encoding (`commander:G`, `bimander:K`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// The letter shown in `NAME:LETTER` (`G`).
    pub letter: &'static str,
    /// What it is, for messages (`group size`).
    pub meaning: &'static str,
    /// The smallest value allowed.
    pub min: usize,
    /// The value that stands for the default, if the default is a number (commander's 3):
    /// `NAME:DEFAULT` is then the same encoding as `NAME`.
    pub default: Option<usize>,
    /// A word that also means the default (`sqrt` for bimander), if any.
    pub default_word: Option<&'static str>,
    /// The default in words, for help texts (`3`, `ceil(sqrt(line length))`).
    pub default_text: &'static str,
}

/// A cardinality encoding of [`crate::encode::card`] as an at-most-one encoding: the bound
/// "at most 1". The catalogue's `totalizer`, `mtotalizer`, `sortnet` and `cardnet` are this
/// adapter over the cardinality encodings of the same names, each with its own summary (what
/// the encoding amounts to for k = 1) and letter for its auxiliaries.
pub struct AtMostOneOf<C> {
    /// The cardinality encoding, whose name the entry takes.
    pub card: C,
    /// [`AtMostOne::summary`].
    pub summary: &'static str,
    /// [`AtMostOne::aux_symbol`].
    pub aux_symbol: &'static str,
    /// [`AtMostOne::aliases`]: other names it is known by (PySAT's, for one).
    pub aliases: &'static [&'static str],
}

impl<C: Cardinality> AtMostOne for AtMostOneOf<C> {
    fn name(&self) -> &'static str {
        self.card.name()
    }
    fn aliases(&self) -> &'static [&'static str] {
        self.aliases
    }
    fn summary(&self) -> &'static str {
        self.summary
    }
    fn aux_symbol(&self) -> &'static str {
        self.aux_symbol
    }
    fn size(&self, m: usize, _: Option<usize>) -> Size {
        // At most 1 is a valid bound for every m: never the default.
        self.card.size(m, 1, Kind::AtMost).unwrap_or_default()
    }
    fn encode(
        &self,
        lits: &[Lit],
        _: Option<usize>,
        alloc: &mut VarAlloc,
        sink: &mut dyn ClauseSink,
    ) -> io::Result<()> {
        self.card
            .encode(lits, 1, Kind::AtMost, alloc, sink)
            .map_err(io::Error::from)
    }
}

/// The encodings of the [`CATALOGUE`] as a help text lists them: `pairwise, sequential, ...,
/// commander[:G] (group size, default 3), ...`.
pub fn listing() -> String {
    CATALOGUE
        .iter()
        .map(|e| match e.parameter() {
            None => e.name().to_string(),
            Some(p) => format!(
                "{}[:{}] ({}, default {})",
                e.name(),
                p.letter,
                p.meaning,
                p.default_text
            ),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every at-most-one encoding, in the order of the table above: what `--amo` accepts.
pub static CATALOGUE: &[&dyn AtMostOne] = &[
    &pairwise::Pairwise,
    &sequential::Sequential,
    &ladder::Ladder,
    &commander::Commander,
    &product::Product,
    &binary::Binary,
    &bimander::Bimander,
    &totalizer::TOTALIZER,
    &mtotalizer::MTOTALIZER,
    &sortnet::SORTNET,
    &cardnet::CARDNET,
];

/// An at-most-one encoding from the [`CATALOGUE`], with its parameter where it has one
/// (`None` for the default).
#[derive(Clone, Copy)]
pub struct Amo {
    encoding: &'static dyn AtMostOne,
    param: Option<usize>,
}

impl Amo {
    /// Pairwise (binomial): one binary clause per pair, no auxiliary variables.
    pub const PAIRWISE: Amo = Amo::of(&pairwise::Pairwise);
    /// Sequential counter (Sinz 2005).
    pub const SEQUENTIAL: Amo = Amo::of(&sequential::Sequential);
    /// Ladder / regular encoding.
    pub const LADDER: Amo = Amo::of(&ladder::Ladder);
    /// Commander (Klieber & Kwon 2007), groups of [`commander::DEFAULT_GROUP`].
    pub const COMMANDER: Amo = Amo::of(&commander::Commander);
    /// Product (Chen 2010).
    pub const PRODUCT: Amo = Amo::of(&product::Product);
    /// Binary / bitwise.
    pub const BINARY: Amo = Amo::of(&binary::Binary);
    /// Bimander (Hoelldobler & Nguyen 2013), ceil(sqrt(m)) groups.
    pub const BIMANDER: Amo = Amo::of(&bimander::Bimander);

    /// `encoding` with its default parameter.
    pub const fn of(encoding: &'static dyn AtMostOne) -> Amo {
        Amo {
            encoding,
            param: None,
        }
    }

    /// `encoding` with parameter `param`, checked against the encoding's [`Parameter`]; a
    /// value equal to the default is the default.
    pub fn with_param(encoding: &'static dyn AtMostOne, param: usize) -> Result<Amo, String> {
        let name = encoding.name();
        let Some(p) = encoding.parameter() else {
            return Err(format!(
                "the {name} encoding takes no parameter, got '{name}:{param}'"
            ));
        };
        if param < p.min {
            return Err(format!(
                "{name}: the {} must be an integer >= {}, got '{param}'",
                p.meaning, p.min
            ));
        }
        Ok(Amo {
            encoding,
            param: (p.default != Some(param)).then_some(param),
        })
    }

    /// Every encoding of the catalogue, with default parameters.
    pub fn all() -> Vec<Amo> {
        CATALOGUE.iter().map(|&e| Amo::of(e)).collect()
    }

    /// The command-line names (without parameters), in catalogue order.
    pub fn names() -> Vec<&'static str> {
        CATALOGUE.iter().map(|e| e.name()).collect()
    }

    /// The encoding.
    pub fn encoding(&self) -> &'static dyn AtMostOne {
        self.encoding
    }

    /// The parameter, `None` for the default.
    pub fn param(&self) -> Option<usize> {
        self.param
    }

    /// The letter that names this encoding's auxiliary variables ([`AtMostOne::aux_symbol`]).
    pub fn aux_symbol(&self) -> &'static str {
        self.encoding.aux_symbol()
    }

    /// The encoding's command-line name; a parameter is shown only when it differs from the
    /// default (`commander`, `commander:4`, `bimander`, `bimander:8`), so that
    /// `name().parse()` gives the same encoding back.
    pub fn name(&self) -> String {
        match self.param {
            None => self.encoding.name().to_string(),
            Some(p) => format!("{}:{p}", self.encoding.name()),
        }
    }

    /// Auxiliary variables, clauses and literals for a list of `m` literals
    /// (`vars` counts auxiliary variables only). Exact, and computed without emitting.
    pub fn size(&self, m: usize) -> Size {
        self.encoding.size(m, self.param)
    }

    /// Emits the clauses for "at most one of `lits`" into `sink`, taking auxiliary variables
    /// from `alloc` (exactly `self.size(lits.len()).vars` of them, in one block).
    pub fn encode<S: ClauseSink + ?Sized>(
        &self,
        lits: &[Lit],
        alloc: &mut VarAlloc,
        sink: &mut S,
    ) -> io::Result<()> {
        let mut sink = sink;
        self.encoding.encode(lits, self.param, alloc, &mut sink)
    }
}

impl Default for Amo {
    fn default() -> Self {
        Amo::PAIRWISE
    }
}

impl PartialEq for Amo {
    fn eq(&self, other: &Amo) -> bool {
        self.encoding.name() == other.encoding.name() && self.param == other.param
    }
}

impl Eq for Amo {}

impl std::hash::Hash for Amo {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.encoding.name().hash(state);
        self.param.hash(state);
    }
}

impl std::fmt::Debug for Amo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Amo({})", self.name())
    }
}

impl std::fmt::Display for Amo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Amo {
    type Err = String;

    /// A name from [`Amo::names`] or an alias ([`AtMostOne::aliases`]), with an optional
    /// `:parameter` for the encodings that take one ([`AtMostOne::parameter`]).
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let (name, param) = match s.split_once(':') {
            Some((a, b)) => (a.trim(), Some(b.trim())),
            None => (s, None),
        };
        let Some(&encoding) = CATALOGUE
            .iter()
            .find(|e| e.name() == name || e.aliases().contains(&name))
        else {
            let params: Vec<String> = CATALOGUE
                .iter()
                .filter_map(|e| e.parameter().map(|p| format!("{}:{}", e.name(), p.letter)))
                .collect();
            return Err(format!(
                "unknown at-most-one encoding '{name}' (known: {}; parameters: {})",
                Amo::names().join(", "),
                params.join(", ")
            ));
        };
        let Some(param) = param else {
            return Ok(Amo::of(encoding));
        };
        let Some(p) = encoding.parameter() else {
            return Err(format!("the {name} encoding takes no parameter, got '{s}'"));
        };
        if p.default_word == Some(param) {
            return Ok(Amo::of(encoding));
        }
        match param.parse::<usize>() {
            Ok(v) if v >= p.min => Amo::with_param(encoding, v),
            _ => Err(format!(
                "{name}: the {} must be an integer >= {}, got '{param}'",
                p.meaning, p.min
            )),
        }
    }
}

/// `ceil(log2 k)`: the number of bits that number `k` values (0 for `k <= 1`).
pub(crate) fn bits_for(k: usize) -> usize {
    if k <= 1 {
        0
    } else {
        (usize::BITS - (k - 1).leading_zeros()) as usize
    }
}

/// `ceil(sqrt(m))`.
pub(crate) fn ceil_sqrt(m: usize) -> usize {
    let mut r = (m as f64).sqrt() as usize;
    while r * r > m {
        r -= 1;
    }
    while r * r < m {
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{clause_satisfied, Cnf, CountingSink};

    /// The sequential counter of the cardinality encodings for k = 1 is the sequential
    /// at-most-one, clause for clause (kept here: `amo` builds on `card`, not the reverse).
    #[test]
    fn sequential_is_the_sequential_counter_at_one() {
        use crate::encode::card::{seqcounter::SeqCounter, Cardinality, Kind};
        for m in 2..40usize {
            let lits: Vec<Lit> = (0..m).map(|i| Lit::from_index(i, true)).collect();
            let (mut f, mut g) = (Cnf::new(), Cnf::new());
            let mut alloc = VarAlloc::starting_at(m);
            SeqCounter
                .encode(&lits, 1, Kind::AtMost, &mut alloc, &mut f)
                .unwrap();
            let mut alloc = VarAlloc::starting_at(m);
            sequential::encode(&lits, &mut alloc, &mut g).unwrap();
            assert_eq!(f, g, "m={m}");
        }
    }

    /// Every encoding with its default parameters, plus parameter variants.
    fn with_variants() -> Vec<Amo> {
        let mut v = Amo::all();
        for group in [2, 4, 5, 8] {
            v.push(Amo::with_param(&commander::Commander, group).unwrap());
        }
        for k in [1, 2, 3, 5, 8, 1000] {
            v.push(Amo::with_param(&bimander::Bimander, k).unwrap());
        }
        v
    }

    /// Emits `amo` on the literals of the variables `0..m` (positive when `positive`) into
    /// `sink`, its auxiliaries numbered after them: the number of auxiliaries taken.
    fn emit<S: ClauseSink>(amo: Amo, m: usize, positive: bool, sink: &mut S) -> usize {
        let lits: Vec<Lit> = (0..m).map(|i| Lit::from_index(i, positive)).collect();
        let mut alloc = VarAlloc::starting_at(m);
        amo.encode(&lits, &mut alloc, sink).unwrap();
        alloc.used() - m
    }

    /// For every encoding and m = 0..8: for every assignment of the m literals, the clauses
    /// are satisfiable with the auxiliaries free exactly when at most one literal is true.
    /// Auxiliaries are searched exhaustively: every assignment of them when there are at most
    /// 16, otherwise by backtracking with unit propagation (the small model counter of
    /// [`crate::encode::card::extensions`], complete as well).
    #[test]
    fn semantics_by_exhaustive_search() {
        for amo in with_variants() {
            for m in 0..=8usize {
                let mut f = Cnf::new();
                let aux = emit(amo, m, true, &mut f);
                for bits in 0u32..(1 << m) {
                    if aux > 16 {
                        let fixed: Vec<bool> = (0..m).map(|i| bits >> i & 1 == 1).collect();
                        let sat = crate::encode::card::extensions::extends(&f, m + aux, &fixed);
                        assert_eq!(sat, bits.count_ones() <= 1, "{amo}, m={m}, bits={bits:b}");
                        continue;
                    }
                    let mut sat = false;
                    for aux_bits in 0u32..(1 << aux) {
                        let a: Vec<bool> = (0..m)
                            .map(|i| bits >> i & 1 == 1)
                            .chain((0..aux).map(|i| aux_bits >> i & 1 == 1))
                            .collect();
                        if f.iter().all(|c| clause_satisfied(c, &a)) {
                            sat = true;
                            break;
                        }
                    }
                    assert_eq!(sat, bits.count_ones() <= 1, "{amo}, m={m}, bits={bits:b}");
                }
            }
        }
    }

    #[test]
    fn size_formula_matches_emitted() {
        for amo in with_variants() {
            for m in 0..=300usize {
                let mut count = CountingSink::default();
                let aux = emit(amo, m, false, &mut count);
                let size = amo.size(m);
                assert_eq!(size.clauses, count.clauses, "{amo} m={m}");
                assert_eq!(size.literals, count.literals, "{amo} m={m}");
                assert_eq!(size.vars, aux as u64, "{amo} m={m}");
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for amo in with_variants() {
            assert_eq!(amo.name().parse::<Amo>(), Ok(amo), "{amo}");
        }
        assert_eq!(Amo::all().len(), Amo::names().len());
        for (amo, name) in Amo::all().iter().zip(Amo::names()) {
            assert_eq!(amo.name(), name);
        }
        assert_eq!("commander:3".parse::<Amo>(), Ok(Amo::COMMANDER));
        assert_eq!("commander".parse::<Amo>(), Ok(Amo::COMMANDER));
        assert_eq!("commander:3".parse::<Amo>().unwrap().name(), "commander");
        assert_eq!(
            "bimander:4".parse::<Amo>(),
            Amo::with_param(&bimander::Bimander, 4)
        );
        assert_eq!("bimander:4".parse::<Amo>().unwrap().param(), Some(4));
        assert_eq!("bimander:sqrt".parse::<Amo>(), Ok(Amo::BIMANDER));
        assert_eq!("regular".parse::<Amo>(), Ok(Amo::LADDER));
        assert_eq!("binomial".parse::<Amo>(), Ok(Amo::PAIRWISE));
        assert_eq!("seq".parse::<Amo>(), Ok(Amo::SEQUENTIAL));
        assert_eq!("bitwise".parse::<Amo>(), Ok(Amo::BINARY));
        // PySAT's names (pysat.card.EncType) for the same encodings.
        for (pysat, ours) in [
            ("seqcounter", "sequential"),
            ("sortnetwrk", "sortnet"),
            ("cardnetwrk", "cardnet"),
            ("bitwise", "binary"),
            ("ladder", "ladder"),
            ("totalizer", "totalizer"),
            ("mtotalizer", "mtotalizer"),
            ("pairwise", "pairwise"),
        ] {
            assert_eq!(pysat.parse::<Amo>(), ours.parse::<Amo>(), "{pysat}");
            assert!(pysat.parse::<Amo>().is_ok(), "{pysat}");
        }
        // The message names the whole catalogue, which starts with these seven.
        assert_eq!(
            Amo::names()[..7],
            [
                "pairwise",
                "sequential",
                "ladder",
                "commander",
                "product",
                "binary",
                "bimander"
            ]
        );
        assert_eq!(
            "nope".parse::<Amo>().unwrap_err(),
            format!(
                "unknown at-most-one encoding 'nope' (known: {}; parameters: commander:G, bimander:K)",
                Amo::names().join(", ")
            )
        );
        for bad in [
            "commander:1",
            "commander:x",
            "commander:",
            "bimander:0",
            "binary:3",
            "sequential:2",
            "nope",
            "",
        ] {
            assert!(bad.parse::<Amo>().is_err(), "{bad}");
        }
    }

    #[test]
    fn helpers() {
        let expected_bits = [0, 0, 1, 2, 2, 3, 3, 3, 3, 4];
        for (k, &b) in expected_bits.iter().enumerate() {
            assert_eq!(bits_for(k), b, "k={k}");
            if k >= 1 {
                assert!(1usize << b >= k && (b == 0 || 1usize << (b - 1) < k));
            }
        }
        for m in 0..10_000usize {
            let r = ceil_sqrt(m);
            assert!(r * r >= m && (r == 0 || (r - 1) * (r - 1) < m), "m={m}");
        }
    }
}
