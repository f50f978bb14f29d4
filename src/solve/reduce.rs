//! Unit propagation over a formula kept in memory, so that each part of a split enumeration
//! loads into its solver only what the part's fixed queens leave of the formula.
//!
//! A part fixes the queens of its first rows. Propagating those unit literals through the
//! formula (for the cell model: every cell they attack becomes false) satisfies most clauses
//! and shortens others; the part's solver then gets the assigned literals as unit clauses and
//! the remaining clauses without their false literals. The reduced formula has the same models
//! as the formula with the units added, so enumeration and counting are unchanged; loading it
//! costs a fraction of loading the whole formula, which is what dominates a part when there are
//! thousands of parts with a few solutions each (docs/benchmarks.md).

use super::backend::Solver;
use crate::cnf::{lit_value, Cnf, Lit};
use crate::instance::Formula;

/// A formula's clauses with, for each literal, the clauses it occurs in.
pub(crate) struct Propagator {
    cnf: Cnf,
    /// Clause indices by literal code (`Lit::code`).
    occurs: Vec<Vec<u32>>,
    /// The formula's own unit clauses.
    units: Vec<Lit>,
    num_vars: usize,
}

impl Propagator {
    /// Encodes `f` once into memory and indexes its literals.
    pub(crate) fn new(f: &dyn Formula) -> Self {
        let mut cnf = Cnf::new();
        // Encoding into memory cannot fail.
        let _ = crate::instance::encode(f, &mut cnf);
        Self::from_cnf(cnf, f.num_vars() as usize)
    }

    /// Indexes the literals of a formula already in memory with at least `num_vars` variables.
    pub(crate) fn from_cnf(cnf: Cnf, num_vars: usize) -> Self {
        let num_vars = num_vars.max(cnf.max_var());
        let mut occurs = vec![Vec::new(); 2 * num_vars];
        let mut units = Vec::new();
        for (i, clause) in cnf.iter().enumerate() {
            if clause.len() == 1 {
                units.push(clause[0]);
            }
            for l in clause {
                occurs[l.code()].push(i as u32);
            }
        }
        Propagator {
            cnf,
            occurs,
            units,
            num_vars,
        }
    }

    /// Loads into `solver` the formula simplified under the literals `fixed`: every literal
    /// that unit propagation assigns as a unit clause, then each clause not yet satisfied
    /// without its false literals. A variable that ends up in no clause is still declared
    /// (with a tautology) so the solver's models cover it. Returns `false`, loading nothing,
    /// when propagation alone finds a clause false: then the part has no model.
    pub(crate) fn load(&self, fixed: &[Lit], solver: &mut dyn Solver) -> bool {
        let Some(values) = self.propagate(fixed) else {
            return false;
        };
        let value = |l: Lit| lit_value(&values, l);
        let mut mentioned = vec![false; self.num_vars];
        for (i, v) in values.iter().enumerate() {
            let var = crate::cnf::Var::from_index(i);
            match v {
                Some(true) => solver.add_clause(&[var.positive()]),
                Some(false) => solver.add_clause(&[var.negative()]),
                None => continue,
            }
            mentioned[i] = true;
        }
        let mut rest = Vec::new();
        for clause in self.cnf.iter() {
            if clause.iter().any(|&l| value(l) == Some(true)) {
                continue;
            }
            rest.clear();
            rest.extend(clause.iter().copied().filter(|&l| value(l).is_none()));
            for l in &rest {
                mentioned[l.var().index()] = true;
            }
            solver.add_clause(&rest);
        }
        for (i, seen) in mentioned.iter().enumerate() {
            if !seen {
                let var = crate::cnf::Var::from_index(i);
                solver.add_clause(&[var.positive(), var.negative()]);
            }
        }
        true
    }

    /// Whether unit propagation from the formula's unit clauses and `fixed` falsifies a
    /// clause: then the formula with `fixed` as unit clauses is unsatisfiable, and the
    /// propagation is its refutation (the empty clause by reverse unit propagation, a one-step
    /// DRAT proof).
    pub(crate) fn refutes(&self, fixed: &[Lit]) -> bool {
        self.propagate(fixed).is_none()
    }

    /// The values unit propagation gives from the formula's unit clauses and `fixed`, or
    /// `None` on a conflict.
    fn propagate(&self, fixed: &[Lit]) -> Option<Vec<Option<bool>>> {
        let mut values = vec![None; self.num_vars];
        let mut queue: Vec<Lit> = Vec::new();
        let assign = |l: Lit, values: &mut Vec<Option<bool>>, queue: &mut Vec<Lit>| -> bool {
            match lit_value(values, l) {
                None => {
                    values[l.var().index()] = Some(l.is_positive());
                    queue.push(l);
                    true
                }
                Some(v) => v,
            }
        };
        for &l in self.units.iter().chain(fixed) {
            if !assign(l, &mut values, &mut queue) {
                return None;
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let l = queue[head];
            head += 1;
            // Clauses with the literal's negation may have become unit or false.
            for &ci in &self.occurs[(!l).code()] {
                let clause = self.cnf.clause(ci as usize);
                let mut unset = None;
                let mut unset_count = 0;
                let mut satisfied = false;
                for &m in clause {
                    match lit_value(&values, m) {
                        None => {
                            unset_count += 1;
                            unset = Some(m);
                        }
                        Some(true) => satisfied = true,
                        Some(false) => {}
                    }
                    if satisfied || unset_count > 1 {
                        break;
                    }
                }
                if satisfied || unset_count > 1 {
                    continue;
                }
                match unset {
                    None => return None,
                    Some(m) => {
                        if !assign(m, &mut values, &mut queue) {
                            return None;
                        }
                    }
                }
            }
        }
        Some(values)
    }
}

#[cfg(test)]
mod tests {
    use super::Propagator;
    use crate::cnf::{ClauseSink, Cnf, Var};

    /// Two pigeons, one hole: unit propagation refutes it only once a pigeon is placed.
    #[test]
    fn refutes_what_propagation_alone_falsifies() {
        let (p, q) = (Var::from_index(0), Var::from_index(1));
        let mut cnf = Cnf::new();
        cnf.add_clause(&[p.positive()]).unwrap();
        cnf.add_clause(&[q.positive()]).unwrap();
        cnf.add_clause(&[p.negative(), q.negative()]).unwrap();
        assert!(Propagator::from_cnf(cnf, 2).refutes(&[]));
        let mut cnf = Cnf::new();
        cnf.add_clause(&[p.positive(), q.positive()]).unwrap();
        cnf.add_clause(&[p.negative(), q.negative()]).unwrap();
        let up = Propagator::from_cnf(cnf, 2);
        assert!(!up.refutes(&[]));
        assert!(!up.refutes(&[p.positive()]));
        assert!(up.refutes(&[p.positive(), q.positive()]));
        assert!(up.refutes(&[p.negative(), q.negative()]));
    }
}
