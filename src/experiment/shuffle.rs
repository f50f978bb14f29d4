//! Shuffled copies of a formula, as cnfshuffle makes them: the variables renumbered by a
//! random permutation, each variable's polarity flipped or not, the literals of each clause and
//! the clauses themselves put in random order, all from a seed. A copy has exactly the models of
//! the original, renamed ([`Shuffle::restore`] maps a model back), so solve times over several
//! copies measure a solver on the formula rather than on one arbitrary order of it.

use crate::cnf::{Lit, Var};
use crate::family::rng::SplitMix64;
use crate::solve::Assignment;

/// A renaming of `vars` variables: a permutation and a polarity flip per variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shuffle {
    /// `to[v]`: the new index of variable `v` (0-based).
    to: Vec<usize>,
    /// `flip[v]`: variable `v`'s literals change sign.
    flip: Vec<bool>,
    /// The seed of the clause and literal order.
    order_seed: u64,
}

impl Shuffle {
    /// The renaming of `vars` variables drawn from `seed`.
    pub fn new(vars: usize, seed: u64) -> Shuffle {
        let mut rng = SplitMix64::new(seed);
        let mut to: Vec<usize> = (0..vars).collect();
        rng.shuffle(&mut to);
        let flip = (0..vars).map(|_| rng.chance(0.5)).collect();
        let order_seed = rng.next_u64();
        Shuffle {
            to,
            flip,
            order_seed,
        }
    }

    /// The image of a literal.
    pub fn lit(&self, l: Lit) -> Lit {
        let v = l.index();
        Lit::from_var(Var::from_index(self.to[v]), l.is_positive() != self.flip[v])
    }

    /// The shuffled copy of `clauses`: literals renamed, each clause's literals and the clauses
    /// in an order drawn from the seed.
    pub fn apply(&self, clauses: &[Vec<Lit>]) -> Vec<Vec<Lit>> {
        let mut rng = SplitMix64::new(self.order_seed);
        let mut out: Vec<Vec<Lit>> = clauses
            .iter()
            .map(|c| {
                let mut c: Vec<Lit> = c.iter().map(|&l| self.lit(l)).collect();
                rng.shuffle(&mut c);
                c
            })
            .collect();
        rng.shuffle(&mut out);
        out
    }

    /// A model of the copy as a model of the original formula.
    pub fn restore(&self, model: &Assignment) -> Assignment {
        let lits: Vec<Lit> = (0..self.to.len())
            .filter_map(|v| {
                let value = model.value(Var::from_index(self.to[v]))?;
                Some(Lit::from_var(Var::from_index(v), value != self.flip[v]))
            })
            .collect();
        Assignment::from_lits(&lits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bijection_on_literals_and_models() {
        let s = Shuffle::new(50, 7);
        let mut seen = std::collections::HashSet::new();
        for v in 0..50 {
            for pos in [true, false] {
                let l = Lit::from_var(Var::from_index(v), pos);
                let m = s.lit(l);
                assert!(m.index() < 50);
                assert_eq!(s.lit(!l), !m);
                assert!(seen.insert(m));
            }
        }
        // A model of the copy maps back literal by literal.
        let original: Vec<Lit> = (0..50)
            .map(|v| Lit::from_var(Var::from_index(v), v % 3 == 0))
            .collect();
        let copy: Vec<Lit> = original.iter().map(|&l| s.lit(l)).collect();
        let back = s.restore(&Assignment::from_lits(&copy));
        for l in original {
            assert_eq!(back.value(l.var()), Some(l.is_positive()));
        }
        // The same seed, the same copy; another seed, another one.
        assert_eq!(Shuffle::new(50, 7), s);
        assert_ne!(Shuffle::new(50, 8), s);
    }
}
