//! Symmetry breaking: clauses that keep one solution of each symmetry class.
//!
//! The 8 symmetries of the square ([`Symmetry`]) map the solutions of n-queens onto solutions.
//! [`SymmetryBreaking::LexLeader`] adds, for every symmetry σ of the group used, a
//! *lex-leader* constraint `x >=lex σ(x)` over the cell bits `x` (row-major, a queen is 1), so
//! that of each class exactly one solution remains: the one whose bit vector is the
//! lexicographically largest, which is the one whose column vector (row by row) is the
//! smallest, [`crate::board::Placement::canonical`]. [`SymmetryBreaking::Rotations`] does the
//! same for the four rotations only.
//!
//! The group used is the chosen one intersected with the instance's *stabilizer*: only the
//! symmetries that map the set of pre-placed queens onto itself and the set of forbidden cells
//! onto itself map the instance's solutions onto its solutions ([`stabilizer`]). The 8
//! symmetries of the square also map the lines of the toroidal board onto lines, so they apply
//! to toroidal boards too; the torus's translations (shifting every queen by the same number
//! of rows or columns) are not broken.
//!
//! The constraint `x >=lex y` is the chain encoding of Aloul, Markov and Sakallah (2003) with
//! auxiliary variables `e_k`, "equal on the first k compared positions", made fully defined
//! (`e_k <-> e_{k-1} AND (a_k <-> b_k)`), so that the auxiliaries are a function of the board
//! and even the model count over all variables equals the number of classes. For position k
//! with `a = x_i`, `b = y_i = x_{σ^-1(i)}`:
//!
//! * `(¬e_{k-1} ∨ a ∨ ¬b)`: while equal, `a >= b`;
//! * `(¬e_k ∨ e_{k-1})`, `(¬e_k ∨ ¬a ∨ b)`: `e_k` only if still equal;
//! * `(¬e_{k-1} ∨ a ∨ b ∨ e_k)`, `(¬e_{k-1} ∨ ¬a ∨ ¬b ∨ e_k)`: equal so far and here gives
//!   `e_k`;
//!
//! with `e_0` true (its literal dropped) and no `e` after the last position. Positions that
//! cannot decide the comparison are skipped: the cells σ fixes (`a` is `b`), and the second
//! cell `j` of a 2-cycle `i <-> j` of σ with `i < j` (equal at `i` means equal at `j`).
//!
//! In the cell model and the column model's direct domain a cell is one literal. In the order
//! and log domains a cell is a conjunction of literals; each such cell gets one auxiliary
//! `cell(r,c)` defined as that conjunction.

use crate::board::Symmetry;
use crate::cnf::{CountingSink, GroupInfo, Lit, Var};
use crate::encode::{Label, LabelSink, Rule, Size};
use std::collections::HashSet;
use std::fmt;
use std::io;
use std::str::FromStr;

/// Which symmetries of the square an instance's clauses break.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SymmetryBreaking {
    /// No symmetry breaking: every solution is a model.
    #[default]
    None,
    /// Lex-leader constraints for all 8 symmetries of the square: one solution per class
    /// (the fundamental solutions, OEIS A002562, on the empty board).
    LexLeader,
    /// Lex-leader constraints for the rotations by 90, 180 and 270 degrees only: one solution
    /// per orbit under rotation.
    Rotations,
}

/// An unknown name for [`SymmetryBreaking`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown symmetry breaking '{0}' (expected one of: none, lex-leader, rotations)")]
pub struct UnknownSymmetryBreaking(pub String);

impl SymmetryBreaking {
    /// Every mode, in the order of their names.
    pub const ALL: [SymmetryBreaking; 3] = [
        SymmetryBreaking::None,
        SymmetryBreaking::LexLeader,
        SymmetryBreaking::Rotations,
    ];

    /// The name on the command line: `none`, `lex-leader`, `rotations`.
    pub fn name(self) -> &'static str {
        match self {
            SymmetryBreaking::None => "none",
            SymmetryBreaking::LexLeader => "lex-leader",
            SymmetryBreaking::Rotations => "rotations",
        }
    }

    /// The names of every mode.
    pub fn names() -> [&'static str; 3] {
        Self::ALL.map(Self::name)
    }

    /// `true` unless [`SymmetryBreaking::None`].
    pub fn is_on(self) -> bool {
        self != SymmetryBreaking::None
    }

    /// The non-identity symmetries of the group the mode breaks, before the instance's
    /// stabilizer is taken into account.
    pub fn group(self) -> &'static [Symmetry] {
        match self {
            SymmetryBreaking::None => &[],
            SymmetryBreaking::LexLeader => &Symmetry::ALL[1..],
            SymmetryBreaking::Rotations => &Symmetry::ALL[1..4],
        }
    }

    /// What a model count means under the mode, on the empty board.
    pub fn count_meaning(self) -> &'static str {
        match self {
            SymmetryBreaking::None => "solutions",
            SymmetryBreaking::LexLeader => {
                "fundamental solutions (classes under the 8 symmetries of the square)"
            }
            SymmetryBreaking::Rotations => "classes of solutions under the rotations",
        }
    }
}

impl fmt::Display for SymmetryBreaking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SymmetryBreaking {
    type Err = UnknownSymmetryBreaking;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == s.trim())
            .ok_or_else(|| UnknownSymmetryBreaking(s.to_string()))
    }
}

/// The symmetries among `candidates` that map the set of `placed` cells onto itself and the
/// set of `forbidden` cells onto itself on an n x n board, in the order given.
pub fn stabilizer(
    n: usize,
    candidates: &[Symmetry],
    placed: &[(usize, usize)],
    forbidden: &[(usize, usize)],
) -> Vec<Symmetry> {
    let sets = [placed, forbidden].map(|cells| cells.iter().copied().collect::<HashSet<_>>());
    candidates
        .iter()
        .copied()
        .filter(|&s| {
            sets.iter()
                .all(|set| set.iter().all(|&(r, c)| set.contains(&s.apply(n, r, c))))
        })
        .collect()
}

/// The lex-leader chain of one symmetry: the compared cells and the first `e` variable.
#[derive(Clone, Debug)]
struct Chain {
    sym: Symmetry,
    /// Cell indexes `r * n + c` compared, in order.
    positions: Vec<usize>,
    /// The variable index of `e_1` (the chain has `positions.len() - 1` of them).
    first_e: usize,
}

/// The symmetry-breaking part of an instance's formula: its variables (after the model's),
/// clauses and names.
#[derive(Clone, Debug)]
pub(crate) struct SymmetryClauses {
    mode: SymmetryBreaking,
    n: usize,
    first_var: usize,
    /// The literal that stands for each cell (row-major).
    cell_lit: Vec<Lit>,
    /// The cells with a defining auxiliary, their variable and the literals it is the
    /// conjunction of.
    cell_aux: Vec<(usize, Var, Vec<Lit>)>,
    chains: Vec<Chain>,
    size: Size,
}

impl SymmetryClauses {
    /// The clauses for `mode` on an n x n board whose model has `model_vars` variables and
    /// whose cells are `value_lits(r, c)`; `broken` is the group used (non-identity elements).
    pub(crate) fn new(
        mode: SymmetryBreaking,
        n: usize,
        model_vars: usize,
        broken: &[Symmetry],
        value_lits: impl Fn(usize, usize) -> Vec<Lit>,
    ) -> Self {
        let mut next = model_vars;
        let mut cell_lit = Vec::with_capacity(n * n);
        let mut cell_aux = Vec::new();
        if !broken.is_empty() {
            for i in 0..n * n {
                let lits = value_lits(i / n, i % n);
                if let [l] = lits[..] {
                    cell_lit.push(l);
                } else {
                    let z = Var::from_index(next);
                    next += 1;
                    cell_lit.push(z.positive());
                    cell_aux.push((i, z, lits));
                }
            }
        }
        let mut chains = Vec::with_capacity(broken.len());
        for &sym in broken {
            let inv = sym.inverse();
            let index = |(r, c): (usize, usize)| r * n + c;
            let positions: Vec<usize> = (0..n * n)
                .filter(|&i| {
                    let (r, c) = (i / n, i % n);
                    let j = index(inv.apply(n, r, c));
                    // Fixed cells never differ; the second cell of a 2-cycle is equal once
                    // the first is.
                    j != i && !(j < i && index(sym.apply(n, r, c)) == j)
                })
                .collect();
            let es = positions.len().saturating_sub(1);
            chains.push(Chain {
                sym,
                positions,
                first_e: next,
            });
            next += es;
        }
        let mut s = SymmetryClauses {
            mode,
            n,
            first_var: model_vars,
            cell_lit,
            cell_aux,
            chains,
            size: Size::default(),
        };
        let mut count = CountingSink::default();
        // Counting cannot fail.
        let _ = s.emit(&mut crate::encode::Unlabelled(&mut count));
        s.size = Size {
            vars: (next - model_vars) as u64,
            clauses: count.clauses,
            literals: count.literals,
        };
        s
    }

    /// Variables, clauses and literals added.
    pub(crate) fn size(&self) -> Size {
        self.size
    }

    /// The symmetries broken (non-identity).
    pub(crate) fn broken(&self) -> Vec<Symmetry> {
        self.chains.iter().map(|c| c.sym).collect()
    }

    /// The name of one of the added variables, `None` for a model's variable.
    pub(crate) fn var_name(&self, var: Var) -> Option<String> {
        let i = var.index();
        if i < self.first_var {
            return None;
        }
        if let Some((cell, _, _)) = self.cell_aux.iter().find(|(_, z, _)| *z == var) {
            return Some(format!("cell({},{})", cell / self.n + 1, cell % self.n + 1));
        }
        for ch in &self.chains {
            let k = ch.positions.len().saturating_sub(1);
            if (ch.first_e..ch.first_e + k).contains(&i) {
                let p = ch.positions[i - ch.first_e];
                return Some(format!(
                    "lex({},{},{})",
                    ch.sym.name(),
                    p / self.n + 1,
                    p % self.n + 1
                ));
            }
        }
        None
    }

    /// The DIMACS comment lines that describe the clauses.
    pub(crate) fn comment_lines(&self) -> Vec<String> {
        let broken = self.broken();
        let list = if broken.is_empty() {
            "none (the instance has no symmetry of the group)".to_string()
        } else {
            broken
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut lines = vec![format!(
            "symmetry breaking: {} (the smallest column vector of each class is kept); symmetries broken: {list}",
            self.mode
        )];
        if !broken.is_empty() {
            lines.push(format!(
                "group S: symmetry breaking ({}), variables {}..{}",
                self.mode,
                self.first_var + 1,
                self.first_var as u64 + self.size.vars
            ));
        }
        lines
    }

    /// Streams the clauses, as group `S`.
    pub(crate) fn emit(&self, sink: &mut dyn LabelSink) -> io::Result<()> {
        if self.chains.is_empty() {
            return Ok(());
        }
        sink.begin_group(&GroupInfo {
            tag: "S".into(),
            meaning: format!("symmetry breaking ({})", self.mode),
        })?;
        sink.begin_label(&Label {
            rule: Rule::Symmetry,
            line: None,
        })?;
        let mut clause = Vec::new();
        for (_, z, lits) in &self.cell_aux {
            for &l in lits {
                sink.add_clause(&[!z.positive(), l])?;
            }
            clause.clear();
            clause.extend(lits.iter().map(|&l| !l));
            clause.push(z.positive());
            sink.add_clause(&clause)?;
        }
        let n = self.n;
        for ch in &self.chains {
            let inv = ch.sym.inverse();
            let m = ch.positions.len();
            let mut prev: Option<Lit> = None;
            for (k, &i) in ch.positions.iter().enumerate() {
                let a = self.cell_lit[i];
                let (r, c) = inv.apply(n, i / n, i % n);
                let b = self.cell_lit[r * n + c];
                let mut add = |lits: &[Lit]| -> io::Result<()> {
                    clause.clear();
                    clause.extend(prev.map(|e| !e));
                    clause.extend_from_slice(lits);
                    sink.add_clause(&clause)
                };
                add(&[a, !b])?;
                if k + 1 == m {
                    break;
                }
                let e = Var::from_index(ch.first_e + k).positive();
                add(&[a, b, e])?;
                add(&[!a, !b, e])?;
                if let Some(p) = prev {
                    sink.add_clause(&[!e, p])?;
                }
                sink.add_clause(&[!e, !a, b])?;
                prev = Some(e);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in SymmetryBreaking::ALL {
            assert_eq!(m.to_string().parse::<SymmetryBreaking>(), Ok(m));
        }
        assert!("lex".parse::<SymmetryBreaking>().is_err());
    }

    #[test]
    fn inverses_undo() {
        for s in Symmetry::ALL {
            for (r, c) in [(0, 1), (2, 3), (4, 0)] {
                let (r2, c2) = s.apply(5, r, c);
                assert_eq!(s.inverse().apply(5, r2, c2), (r, c));
            }
        }
    }

    #[test]
    fn stabilizer_of_a_centre_queen_is_everything() {
        let all = &Symmetry::ALL[1..];
        assert_eq!(stabilizer(5, all, &[(2, 2)], &[]).len(), 7);
        assert_eq!(
            stabilizer(5, all, &[], &[(0, 0), (4, 4)]),
            vec![
                Symmetry::Rotate180,
                Symmetry::Transpose,
                Symmetry::AntiTranspose
            ]
        );
        assert!(stabilizer(5, all, &[(0, 1)], &[]).is_empty());
    }
}
