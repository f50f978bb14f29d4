//! At-most-one encodings: clauses that allow at most one of a list of literals to be true.
//!
//! Each encoding lives in a file of its own and documents its size formula and its source.
//! [`Amo`] names them and dispatches to them; every encoding states its size in closed form
//! ([`Amo::size`]), which the tests compare with what it emits.

mod pairwise;

use super::{Size, VarAlloc};
use crate::cnf::{ClauseSink, Lit};
use std::io;

/// An at-most-one encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amo {
    /// Pairwise (binomial): one binary clause per pair, no auxiliary variables.
    Pairwise,
}

impl Amo {
    /// Every encoding, with default parameters.
    pub fn all() -> Vec<Amo> {
        vec![Amo::Pairwise]
    }

    /// The encoding's command-line name.
    pub fn name(&self) -> String {
        match self {
            Amo::Pairwise => "pairwise".to_string(),
        }
    }

    /// Auxiliary variables, clauses and literals for a list of `m` literals
    /// (`vars` counts auxiliary variables only).
    pub fn size(&self, m: usize) -> Size {
        match self {
            Amo::Pairwise => pairwise::size(m),
        }
    }

    /// Emits the clauses for "at most one of `lits`" into `sink`, taking auxiliary variables
    /// from `alloc`.
    pub fn encode<S: ClauseSink + ?Sized>(
        &self,
        lits: &[Lit],
        alloc: &mut VarAlloc,
        sink: &mut S,
    ) -> io::Result<()> {
        let _ = &alloc;
        match self {
            Amo::Pairwise => pairwise::encode(lits, sink),
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
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "pairwise" | "binomial" => Ok(Amo::Pairwise),
            other => Err(format!(
                "unknown at-most-one encoding '{other}' (known: {})",
                Amo::all()
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{clause_satisfied, Cnf, CountingSink};

    /// For every encoding and m = 0..8: for every assignment of the m literals, the clauses
    /// are satisfiable with the auxiliaries free exactly when at most one literal is true.
    /// Auxiliaries are searched exhaustively (m + aux stays small here).
    #[test]
    fn semantics_by_exhaustive_search() {
        for amo in Amo::all() {
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
        for amo in Amo::all() {
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
}
