//! The solver the trace watches: DPLL with unit propagation, or CDCL with first-UIP learning
//! and backjumping, written to be read next to its trace rather than to be fast.
//!
//! Every assignment, conflict, learned clause and jump is handed to a callback as an
//! [`Event`] together with the assignment right after it, so the caller can record it.

use crate::cnf::{lit_value, Lit, Var};

/// What the solver does, one event at a time. Levels are decision levels: 0 holds what the
/// formula forces before any decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// A decision: `lit` is assumed true on a new level.
    Decide { lit: Lit, level: usize },
    /// DPLL: the decision of `level` failed; its other value is tried on the same level.
    Flip { lit: Lit, level: usize },
    /// `lit` is forced by clause `reason`, all of whose other literals are false.
    Propagate {
        lit: Lit,
        level: usize,
        reason: usize,
    },
    /// Every literal of clause `clause` is false.
    Conflict { clause: usize, level: usize },
    /// CDCL: a clause learned from the conflict (first UIP), stored as clause `clause`; its
    /// first literal is the one it asserts after the backjump.
    Learn { clause: usize, lits: Vec<Lit> },
    /// CDCL: every assignment above `level` is undone.
    Backjump { level: usize },
    /// DPLL: every assignment above `level` is undone, before a flip.
    Backtrack { level: usize },
    /// Every clause has a true literal: a model.
    Sat,
    /// A conflict that depends on no decision: no model exists.
    Unsat,
}

/// One decision level: where it starts on the trail, its decision, and (DPLL) whether the
/// decision is already the second value tried.
struct Level {
    start: usize,
    decision: Lit,
    flipped: bool,
}

/// The state of the solver over `clauses` (the formula, then the learned clauses).
pub(crate) struct Solver {
    clauses: Vec<Vec<Lit>>,
    /// For each literal code, the clauses that contain the literal.
    occurs: Vec<Vec<usize>>,
    value: Vec<Option<bool>>,
    level_of: Vec<usize>,
    reason: Vec<Option<usize>>,
    trail: Vec<Lit>,
    /// Trail position up to which propagation is done.
    head: usize,
    levels: Vec<Level>,
    /// The decision order: the first unassigned variable of it is decided, true first.
    order: Vec<Var>,
    learning: bool,
}

/// How a clause stands under the current assignment.
enum Status {
    True,
    False,
    Unit(Lit),
    Open,
}

impl Solver {
    /// A solver over `clauses` on `num_vars` variables, deciding in `order` (which must hold
    /// every variable), with first-UIP learning when `learning`.
    pub(crate) fn new(
        clauses: Vec<Vec<Lit>>,
        num_vars: usize,
        order: Vec<Var>,
        learning: bool,
    ) -> Self {
        let mut s = Solver {
            clauses: Vec::new(),
            occurs: vec![Vec::new(); 2 * num_vars],
            value: vec![None; num_vars],
            level_of: vec![0; num_vars],
            reason: vec![None; num_vars],
            trail: Vec::new(),
            head: 0,
            levels: Vec::new(),
            order,
            learning,
        };
        for c in clauses {
            s.add_clause(c);
        }
        s
    }

    fn add_clause(&mut self, c: Vec<Lit>) -> usize {
        let i = self.clauses.len();
        for l in &c {
            self.occurs[l.code()].push(i);
        }
        self.clauses.push(c);
        i
    }

    fn level(&self) -> usize {
        self.levels.len()
    }

    fn status(&self, i: usize) -> Status {
        let mut open = None;
        let mut count = 0;
        for &l in &self.clauses[i] {
            match lit_value(&self.value, l) {
                Some(true) => return Status::True,
                Some(false) => {}
                None => {
                    count += 1;
                    open = Some(l);
                }
            }
        }
        match (count, open) {
            (0, _) => Status::False,
            (1, Some(l)) => Status::Unit(l),
            _ => Status::Open,
        }
    }

    fn assign(&mut self, l: Lit, reason: Option<usize>) {
        self.value[l.index()] = Some(l.is_positive());
        self.level_of[l.index()] = self.level();
        self.reason[l.index()] = reason;
        self.trail.push(l);
    }

    /// Undoes every assignment above `level`.
    fn undo_to(&mut self, level: usize) {
        let start = self.levels.get(level).map_or(self.trail.len(), |l| l.start);
        for l in self.trail.drain(start..) {
            self.value[l.index()] = None;
            self.reason[l.index()] = None;
        }
        self.levels.truncate(level);
        self.head = self.trail.len();
    }

    /// Unit propagation: each literal of the trail not yet processed makes the clauses that
    /// contain its negation shorter; a clause left with one open literal forces it, a clause
    /// left with none is a conflict (returned).
    fn propagate<E>(
        &mut self,
        emit: &mut impl FnMut(Event, &[Option<bool>]) -> Result<(), E>,
    ) -> Result<Option<usize>, E> {
        while self.head < self.trail.len() {
            let falsified = !self.trail[self.head];
            self.head += 1;
            for k in 0..self.occurs[falsified.code()].len() {
                let i = self.occurs[falsified.code()][k];
                match self.status(i) {
                    Status::False => return Ok(Some(i)),
                    Status::Unit(l) => {
                        self.assign(l, Some(i));
                        let level = self.level();
                        emit(
                            Event::Propagate {
                                lit: l,
                                level,
                                reason: i,
                            },
                            &self.value,
                        )?;
                    }
                    Status::True | Status::Open => {}
                }
            }
        }
        Ok(None)
    }

    /// First-UIP conflict analysis: resolves the conflict clause with the reasons of the
    /// literals of the current level, latest first, until one literal of that level is left
    /// (the first unique implication point). Returns the learned clause, its asserting literal
    /// first, and the level to jump back to (the highest level among the other literals).
    fn analyze(&self, conflict: usize) -> (Vec<Lit>, usize) {
        let current = self.level();
        let mut seen = vec![false; self.value.len()];
        let mut learned = Vec::new();
        let mut pending = 0;
        let mut index = self.trail.len();
        let mut clause = conflict;
        let mut resolved: Option<Lit> = None;
        loop {
            for &q in &self.clauses[clause] {
                let v = q.index();
                if Some(q.var()) == resolved.map(|p| p.var()) || seen[v] || self.level_of[v] == 0 {
                    continue;
                }
                seen[v] = true;
                if self.level_of[v] == current {
                    pending += 1;
                } else {
                    learned.push(q);
                }
            }
            // The latest literal of the trail that takes part.
            loop {
                index -= 1;
                if seen[self.trail[index].index()] {
                    break;
                }
            }
            let p = self.trail[index];
            seen[p.index()] = false;
            pending -= 1;
            resolved = Some(p);
            if pending == 0 {
                learned.insert(0, !p);
                break;
            }
            clause = self.reason[p.index()]
                .expect("a literal of the conflict level other than its decision has a reason");
        }
        let back = learned[1..]
            .iter()
            .map(|l| self.level_of[l.index()])
            .max()
            .unwrap_or(0);
        (learned, back)
    }

    /// DPLL: after a conflict, undoes back to the latest decision not yet flipped and tries
    /// its other value. `false` when every decision has been tried both ways.
    fn backtrack<E>(
        &mut self,
        emit: &mut impl FnMut(Event, &[Option<bool>]) -> Result<(), E>,
    ) -> Result<bool, E> {
        let Some(k) = self.levels.iter().rposition(|l| !l.flipped) else {
            return Ok(false);
        };
        let decision = self.levels[k].decision;
        self.undo_to(k);
        emit(Event::Backtrack { level: k }, &self.value)?;
        self.levels.push(Level {
            start: self.trail.len(),
            decision: !decision,
            flipped: true,
        });
        self.assign(!decision, None);
        emit(
            Event::Flip {
                lit: !decision,
                level: k + 1,
            },
            &self.value,
        )?;
        Ok(true)
    }

    /// The first variable of the decision order without a value.
    fn next_decision(&self) -> Option<Var> {
        self.order
            .iter()
            .copied()
            .find(|v| self.value[v.index()].is_none())
    }

    /// Runs the solver to the end, handing every event to `emit` (which may stop it with an
    /// error). Returns the final assignment (unassigned variables `None`) when a model was
    /// found, `None` when there is none.
    pub(crate) fn run<E>(
        &mut self,
        mut emit: impl FnMut(Event, &[Option<bool>]) -> Result<(), E>,
    ) -> Result<Option<Vec<Option<bool>>>, E> {
        // Level 0: the unit clauses of the formula, then what they force.
        for i in 0..self.clauses.len() {
            match self.status(i) {
                Status::Unit(l) => {
                    self.assign(l, Some(i));
                    emit(
                        Event::Propagate {
                            lit: l,
                            level: 0,
                            reason: i,
                        },
                        &self.value,
                    )?;
                }
                Status::False => {
                    emit(
                        Event::Conflict {
                            clause: i,
                            level: 0,
                        },
                        &self.value,
                    )?;
                    emit(Event::Unsat, &self.value)?;
                    return Ok(None);
                }
                Status::True | Status::Open => {}
            }
        }
        loop {
            if let Some(conflict) = self.propagate(&mut emit)? {
                let level = self.level();
                emit(
                    Event::Conflict {
                        clause: conflict,
                        level,
                    },
                    &self.value,
                )?;
                if level == 0 {
                    emit(Event::Unsat, &self.value)?;
                    return Ok(None);
                }
                if self.learning {
                    let (lits, back) = self.analyze(conflict);
                    let clause = self.add_clause(lits.clone());
                    emit(
                        Event::Learn {
                            clause,
                            lits: lits.clone(),
                        },
                        &self.value,
                    )?;
                    self.undo_to(back);
                    emit(Event::Backjump { level: back }, &self.value)?;
                    self.assign(lits[0], Some(clause));
                    emit(
                        Event::Propagate {
                            lit: lits[0],
                            level: back,
                            reason: clause,
                        },
                        &self.value,
                    )?;
                } else if !self.backtrack(&mut emit)? {
                    emit(Event::Unsat, &self.value)?;
                    return Ok(None);
                }
                continue;
            }
            if (0..self.clauses.len()).all(|i| matches!(self.status(i), Status::True)) {
                emit(Event::Sat, &self.value)?;
                return Ok(Some(self.value.clone()));
            }
            let Some(v) = self.next_decision() else {
                // Every variable has a value and no clause is false: unreachable, as every
                // clause is then true; kept as a model all the same.
                emit(Event::Sat, &self.value)?;
                return Ok(Some(self.value.clone()));
            };
            self.levels.push(Level {
                start: self.trail.len(),
                decision: v.positive(),
                flipped: false,
            });
            self.assign(v.positive(), None);
            emit(
                Event::Decide {
                    lit: v.positive(),
                    level: self.level(),
                },
                &self.value,
            )?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(ds: &[isize]) -> Vec<Lit> {
        ds.iter().map(|&d| Lit::from_dimacs(d)).collect()
    }

    fn run(
        clauses: &[&[isize]],
        vars: usize,
        learning: bool,
    ) -> (Option<Vec<Option<bool>>>, Vec<Event>) {
        let cs = clauses.iter().map(|c| lits(c)).collect();
        let order = (0..vars).map(Var::from_index).collect();
        let mut s = Solver::new(cs, vars, order, learning);
        let mut events = Vec::new();
        let r = s
            .run(|e, _| {
                events.push(e);
                Ok::<(), ()>(())
            })
            .unwrap();
        (r, events)
    }

    #[test]
    fn finds_a_model_and_proves_unsat_both_ways() {
        for learning in [false, true] {
            let (m, _) = run(&[&[1, 2], &[-1, 2], &[-2, 3]], 3, learning);
            let m = m.unwrap();
            assert_eq!((m[1], m[2]), (Some(true), Some(true)));
            let (m, ev) = run(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]], 2, learning);
            assert!(m.is_none());
            assert_eq!(ev.last(), Some(&Event::Unsat));
        }
    }

    #[test]
    fn learns_the_first_uip() {
        // x1 decided: x2 by (-1 2), x3 by (-1 3), conflict on (-2 -3): the first UIP is x1,
        // so the learned clause is (-1), asserted at level 0.
        let (_, ev) = run(&[&[-1, 2], &[-1, 3], &[-2, -3]], 3, true);
        assert!(ev.contains(&Event::Learn {
            clause: 3,
            lits: lits(&[-1])
        }));
        assert!(ev.contains(&Event::Backjump { level: 0 }));
    }
}
