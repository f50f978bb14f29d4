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
//!
//! (exact formulas in each module; all of them emit nothing for m <= 1.)
//!
//! [`Amo`] names them and dispatches to them; every encoding states its size exactly
//! ([`Amo::size`], a closed form or, for the recursive commander and product encodings, a
//! computation over the O(log m) levels of the recursion), which the tests compare with what it
//! emits. The size is known before the first clause is made, so a DIMACS header can be written
//! up front.
//!
//! Auxiliary variables are taken from a [`VarAlloc`] in increasing order, so the auxiliaries of
//! one call form one contiguous block.

pub mod bimander;
pub mod binary;
pub mod commander;
pub mod ladder;
pub mod pairwise;
pub mod product;
pub mod sequential;

use super::{Size, VarAlloc};
use crate::cnf::{ClauseSink, Lit};
use std::io;

/// An at-most-one encoding, with its parameter where it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amo {
    /// Pairwise (binomial): one binary clause per pair, no auxiliary variables.
    Pairwise,
    /// Sequential counter (Sinz 2005): a chain of m - 1 "some literal so far" variables.
    Sequential,
    /// Ladder / regular encoding (Gent & Nightingale 2004; Ansotegui & Manya 2004): a ladder
    /// of m variables with full channelling to the literals.
    Ladder,
    /// Commander (Klieber & Kwon 2007): groups of `group` literals, one commander variable per
    /// group, applied recursively to the commanders.
    Commander {
        /// Group size, at least 2 (default [`commander::DEFAULT_GROUP`]).
        group: usize,
    },
    /// Product (Chen 2010): the literals on a p x q grid, at most one row and at most one
    /// column, recursively.
    Product,
    /// Binary / bitwise (Frisch et al. 2005; Prestwich): each literal forces its index in
    /// binary onto ceil(log2 m) bit variables.
    Binary,
    /// Bimander (Hoelldobler & Nguyen 2013): pairwise inside groups, the group index in binary.
    Bimander {
        /// The number of groups, at least 1; `None` means ceil(sqrt(m)) for a list of m
        /// literals (the default).
        groups: Option<usize>,
    },
}

impl Amo {
    /// Every encoding, with default parameters, in the order of the table above.
    pub fn all() -> Vec<Amo> {
        vec![
            Amo::Pairwise,
            Amo::Sequential,
            Amo::Ladder,
            Amo::Commander {
                group: commander::DEFAULT_GROUP,
            },
            Amo::Product,
            Amo::Binary,
            Amo::Bimander { groups: None },
        ]
    }

    /// The letter that names this encoding's auxiliary variables in listings: `s` (sequential
    /// counter), `y` (ladder), `c` (commanders), `p` (product row and column variables), `b`
    /// (bits of binary and bimander); pairwise has none and gets `x`.
    pub fn aux_symbol(&self) -> &'static str {
        match self {
            Amo::Pairwise => "x",
            Amo::Sequential => "s",
            Amo::Ladder => "y",
            Amo::Commander { .. } => "c",
            Amo::Product => "p",
            Amo::Binary | Amo::Bimander { .. } => "b",
        }
    }

    /// The command-line names (without parameters), in the order of [`Amo::all`].
    pub fn names() -> Vec<&'static str> {
        vec![
            "pairwise",
            "sequential",
            "ladder",
            "commander",
            "product",
            "binary",
            "bimander",
        ]
    }

    /// The encoding's command-line name; a parameter is shown only when it differs from the
    /// default (`commander`, `commander:4`, `bimander`, `bimander:8`), so that
    /// `name().parse()` gives the same encoding back.
    pub fn name(&self) -> String {
        match self {
            Amo::Pairwise => "pairwise".to_string(),
            Amo::Sequential => "sequential".to_string(),
            Amo::Ladder => "ladder".to_string(),
            Amo::Commander { group } if *group == commander::DEFAULT_GROUP => {
                "commander".to_string()
            }
            Amo::Commander { group } => format!("commander:{group}"),
            Amo::Product => "product".to_string(),
            Amo::Binary => "binary".to_string(),
            Amo::Bimander { groups: None } => "bimander".to_string(),
            Amo::Bimander { groups: Some(k) } => format!("bimander:{k}"),
        }
    }

    /// Auxiliary variables, clauses and literals for a list of `m` literals
    /// (`vars` counts auxiliary variables only). Exact, and computed without emitting.
    pub fn size(&self, m: usize) -> Size {
        match *self {
            Amo::Pairwise => pairwise::size(m),
            Amo::Sequential => sequential::size(m),
            Amo::Ladder => ladder::size(m),
            Amo::Commander { group } => commander::size(m, group),
            Amo::Product => product::size(m),
            Amo::Binary => binary::size(m),
            Amo::Bimander { groups } => bimander::size(m, bimander::group_count(m, groups)),
        }
    }

    /// Emits the clauses for "at most one of `lits`" into `sink`, taking auxiliary variables
    /// from `alloc` (exactly `self.size(lits.len()).vars` of them, in one block).
    pub fn encode<S: ClauseSink + ?Sized>(
        &self,
        lits: &[Lit],
        alloc: &mut VarAlloc,
        sink: &mut S,
    ) -> io::Result<()> {
        match *self {
            Amo::Pairwise => pairwise::encode(lits, sink),
            Amo::Sequential => sequential::encode(lits, alloc, sink),
            Amo::Ladder => ladder::encode(lits, alloc, sink),
            Amo::Commander { group } => commander::encode(lits, group, alloc, sink),
            Amo::Product => product::encode(lits, alloc, sink),
            Amo::Binary => binary::encode(lits, alloc, sink),
            Amo::Bimander { groups } => {
                bimander::encode(lits, bimander::group_count(lits.len(), groups), alloc, sink)
            }
        }
    }
}

impl std::fmt::Display for Amo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Amo {
    type Err = String;

    /// A name from [`Amo::names`] (also `binomial` for pairwise, `regular` for ladder,
    /// `bitwise` for binary), with an optional `:parameter` for `commander:G` (group size
    /// G >= 2, default 3) and `bimander:K` (K >= 1 groups; default ceil(sqrt(m))).
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let (name, param) = match s.split_once(':') {
            Some((a, b)) => (a.trim(), Some(b.trim())),
            None => (s, None),
        };
        let number = |p: &str, what: &str, min: usize| -> Result<usize, String> {
            match p.parse::<usize>() {
                Ok(v) if v >= min => Ok(v),
                _ => Err(format!(
                    "{name}: the {what} must be an integer >= {min}, got '{p}'"
                )),
            }
        };
        let amo = match name {
            "pairwise" | "binomial" => Amo::Pairwise,
            "sequential" | "seq" => Amo::Sequential,
            "ladder" | "regular" => Amo::Ladder,
            "commander" => Amo::Commander {
                group: match param {
                    Some(p) => number(p, "group size", 2)?,
                    None => commander::DEFAULT_GROUP,
                },
            },
            "product" => Amo::Product,
            "binary" | "bitwise" => Amo::Binary,
            "bimander" => Amo::Bimander {
                groups: match param {
                    Some("sqrt") | None => None,
                    Some(p) => Some(number(p, "group count", 1)?),
                },
            },
            other => {
                return Err(format!(
                    "unknown at-most-one encoding '{other}' (known: {}; parameters: commander:G, bimander:K)",
                    Amo::names().join(", ")
                ))
            }
        };
        let takes_param = matches!(amo, Amo::Commander { .. } | Amo::Bimander { .. });
        if param.is_some() && !takes_param {
            return Err(format!("the {name} encoding takes no parameter, got '{s}'"));
        }
        Ok(amo)
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

    /// Every encoding with its default parameters, plus parameter variants.
    fn with_variants() -> Vec<Amo> {
        let mut v = Amo::all();
        for group in [2, 4, 5, 8] {
            v.push(Amo::Commander { group });
        }
        for k in [1, 2, 3, 5, 8, 1000] {
            v.push(Amo::Bimander { groups: Some(k) });
        }
        v
    }

    /// For every encoding and m = 0..8: for every assignment of the m literals, the clauses
    /// are satisfiable with the auxiliaries free exactly when at most one literal is true.
    /// Auxiliaries are searched exhaustively (m + aux stays small here).
    #[test]
    fn semantics_by_exhaustive_search() {
        for amo in with_variants() {
            for m in 0..=8usize {
                let lits: Vec<Lit> = (0..m).map(|i| Lit::from_index(i, true)).collect();
                let mut alloc = VarAlloc::starting_at(m);
                let mut f = Cnf::new();
                amo.encode(&lits, &mut alloc, &mut f).unwrap();
                let aux = alloc.used() - m;
                assert!(aux <= 16, "{amo}: too many auxiliaries for exhaustive test");
                for bits in 0u32..(1 << m) {
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
                let lits: Vec<Lit> = (0..m).map(|i| Lit::from_index(i, false)).collect();
                let mut alloc = VarAlloc::starting_at(m);
                let mut count = CountingSink::default();
                amo.encode(&lits, &mut alloc, &mut count).unwrap();
                let size = amo.size(m);
                assert_eq!(size.clauses, count.clauses, "{amo} m={m}");
                assert_eq!(size.literals, count.literals, "{amo} m={m}");
                assert_eq!(size.vars, (alloc.used() - m) as u64, "{amo} m={m}");
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
        assert_eq!(
            "commander:3".parse::<Amo>(),
            Ok(Amo::Commander { group: 3 })
        );
        assert_eq!("commander".parse::<Amo>(), Ok(Amo::Commander { group: 3 }));
        assert_eq!(
            "bimander:4".parse::<Amo>(),
            Ok(Amo::Bimander { groups: Some(4) })
        );
        assert_eq!("regular".parse::<Amo>(), Ok(Amo::Ladder));
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
