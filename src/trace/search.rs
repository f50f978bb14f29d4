//! The solver the trace watches: backtracking, DPLL with unit propagation, or CDCL with
//! first-UIP learning and backjumping, written to be read next to its trace rather than to be
//! fast. `src/trace/engine.js` is the same solver in JavaScript, line for line (the HTML page
//! runs it); `tests/it/engine.rs` compares the two step for step.
//!
//! Every assignment, conflict, learned clause and jump is handed to a callback as an
//! [`Event`] together with the assignment right after it and, with two watched literals, the
//! watch moves it made ([`WatchNote`]), so the caller can record it.
//!
//! Clauses are numbered from 0 here (the formula's in file order, then the learned ones); the
//! trace says them 1-based.

use super::options::{Algorithm, Heuristic, TraceOptions};
use super::TraceError;
use crate::cnf::{lit_value, Lit, Var};
use std::collections::VecDeque;

/// What the solver does, one event at a time. Levels are decision levels: 0 holds what the
/// formula forces before any decision.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Event {
    /// A decision: `lit` is assumed on a new level; `forced` when a `--decide` chose it.
    Decide {
        lit: Lit,
        level: usize,
        forced: bool,
        activity: Option<f64>,
    },
    /// Backtracking, DPLL: the decision of `level` failed; its other value is tried on the
    /// same level.
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
    /// first literal is the one it asserts after the backjump. `resolution` is the sequence of
    /// resolvents that led to it.
    Learn {
        clause: usize,
        lits: Vec<Lit>,
        resolution: Vec<Resolvent>,
    },
    /// CDCL: every assignment above `level` is undone.
    Backjump { level: usize },
    /// Backtracking, DPLL: every assignment above `level` is undone, before a flip.
    Backtrack { level: usize },
    /// CDCL with restarts: every assignment above level 0 is undone; learned clauses stay.
    Restart { conflicts: usize },
    /// Every clause has a true literal: a model.
    Sat,
    /// A conflict that depends on no decision, or every decision tried both ways: no model.
    Unsat,
}

/// One resolvent of a conflict's learning: the conflict clause itself (`variable` `None`),
/// then the resolvent of the previous one and the reason `clause` of `variable`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Resolvent {
    /// The variable resolved on (`None` for the conflict clause).
    pub variable: Option<Var>,
    /// The clause resolved with (the conflict clause first).
    pub clause: usize,
    /// The resolvent, literals false at level 0 left out.
    pub lits: Vec<Lit>,
}

/// What a step did to the two watched literals (with [`TraceOptions::watches`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WatchNote {
    /// `(clause, from, to)`: the clause's watch moved from the literal just made false to
    /// another literal that is not false.
    pub moved: Vec<(usize, Lit, Lit)>,
    /// Clauses left with one watch false, no literal to move it to and the other watch open:
    /// unit (their other watch is then forced, unless the search does not propagate).
    pub unit: Vec<usize>,
    /// A learn step: the two literals the new clause watches (one for a unit clause).
    pub watched: Vec<Lit>,
}

/// One decision level: where it starts on the trail, its decision, and (backtracking, DPLL)
/// whether the decision is already the second value tried.
struct Level {
    start: usize,
    decision: Lit,
    flipped: bool,
}

/// How a clause stands under the current assignment.
enum Status {
    True,
    False,
    Unit(Lit),
    Open,
}

/// Restarts (CDCL): after `RESTART_UNIT * luby(i)` conflicts since the last one.
pub const RESTART_UNIT: usize = 4;

/// VSIDS: activities are divided by this after each conflict (the bump grows by its
/// inverse).
pub const VSIDS_DECAY: f64 = 0.95;

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (`i` from 1).
pub fn luby(i: usize) -> usize {
    let mut i = i;
    loop {
        // The smallest k with 2^k - 1 >= i.
        let mut k = 1;
        while (1usize << k) - 1 < i {
            k += 1;
        }
        if (1usize << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// The 32-bit xorshift generator of the random heuristic, seeded through one multiply-add so
/// that small seeds give different streams (a zero state becomes 1).
#[derive(Clone, Debug)]
pub struct Xorshift32(u32);

impl Xorshift32 {
    /// The generator of `seed`.
    pub fn new(seed: u32) -> Self {
        let s = seed.wrapping_mul(0x9E37_79B1).wrapping_add(0x7F4A_7C15);
        Xorshift32(if s == 0 { 1 } else { s })
    }

    /// The next number.
    pub fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
}

/// The state of the solver over `clauses` (the formula, then the learned clauses).
pub(crate) struct Solver {
    /// The clauses as the solver uses them: each literal once.
    clauses: Vec<Vec<Lit>>,
    /// For each literal code, the clauses that contain the literal (without watches).
    occurs: Vec<Vec<usize>>,
    /// With watches: the two watched literals of each clause (the same literal twice for a
    /// clause of one literal).
    watch: Vec<[Lit; 2]>,
    /// With watches: for each literal code, the clauses watching it.
    watchers: Vec<Vec<usize>>,
    /// With watches: literals found forced, with their reasons, not yet assigned.
    queue: VecDeque<(Lit, usize)>,
    value: Vec<Option<bool>>,
    level_of: Vec<usize>,
    reason: Vec<Option<usize>>,
    trail: Vec<Lit>,
    /// Trail position up to which propagation is done (without watches).
    head: usize,
    levels: Vec<Level>,
    /// The fixed decision order.
    order: Vec<Var>,
    opts: TraceOptions,
    activity: Vec<f64>,
    bump: f64,
    rng: Xorshift32,
    decisions: usize,
    conflicts_since_restart: usize,
    luby_index: usize,
}

/// The literals of `c`, each once, in their first places.
fn distinct(c: &[Lit]) -> Vec<Lit> {
    let mut out: Vec<Lit> = Vec::with_capacity(c.len());
    for &l in c {
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

impl Solver {
    /// A solver over `clauses` on `num_vars` variables, deciding in `order` (which must hold
    /// every variable), as `opts` say.
    pub(crate) fn new(
        clauses: &[Vec<Lit>],
        num_vars: usize,
        order: Vec<Var>,
        opts: &TraceOptions,
    ) -> Self {
        let mut s = Solver {
            clauses: Vec::new(),
            occurs: vec![Vec::new(); 2 * num_vars],
            watch: Vec::new(),
            watchers: vec![Vec::new(); 2 * num_vars],
            queue: VecDeque::new(),
            value: vec![None; num_vars],
            level_of: vec![0; num_vars],
            reason: vec![None; num_vars],
            trail: Vec::new(),
            head: 0,
            levels: Vec::new(),
            order,
            opts: opts.clone(),
            activity: vec![0.0; num_vars],
            bump: 1.0,
            rng: Xorshift32::new(opts.seed),
            decisions: 0,
            conflicts_since_restart: 0,
            luby_index: 1,
        };
        for c in clauses {
            let c = distinct(c);
            let w = match c.len() {
                0 => None,
                1 => Some([c[0], c[0]]),
                _ => Some([c[0], c[1]]),
            };
            s.add_clause(c, w);
        }
        s
    }

    /// Adds a clause watching `w` (its first two literals for the formula's).
    fn add_clause(&mut self, c: Vec<Lit>, w: Option<[Lit; 2]>) -> usize {
        let i = self.clauses.len();
        for l in &c {
            self.occurs[l.code()].push(i);
        }
        let w = w.unwrap_or([Lit::from_index(0, true); 2]);
        if !c.is_empty() {
            self.watchers[w[0].code()].push(i);
            if w[1] != w[0] {
                self.watchers[w[1].code()].push(i);
            }
        }
        self.watch.push(w);
        self.clauses.push(c);
        i
    }

    fn level(&self) -> usize {
        self.levels.len()
    }

    fn propagating(&self) -> bool {
        self.opts.algorithm != Algorithm::Backtracking
    }

    fn val(&self, l: Lit) -> Option<bool> {
        lit_value(&self.value, l)
    }

    fn status(&self, i: usize) -> Status {
        let mut open = None;
        let mut count = 0;
        for &l in &self.clauses[i] {
            match self.val(l) {
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

    fn set(&mut self, l: Lit, reason: Option<usize>) {
        self.value[l.index()] = Some(l.is_positive());
        self.level_of[l.index()] = self.level();
        self.reason[l.index()] = reason;
        self.trail.push(l);
    }

    /// Assigns `l` and hands `event` on. With watches, first visits the clauses watching
    /// `¬l` (the moves go with the event); backtracking without watches looks for a clause
    /// of `¬l` made false. Returns the false clause found, if any.
    fn assign<E>(
        &mut self,
        l: Lit,
        reason: Option<usize>,
        event: Event,
        emit: &mut impl FnMut(Event, &[Option<bool>], Option<&WatchNote>) -> Result<(), E>,
    ) -> Result<Option<usize>, E> {
        self.set(l, reason);
        if self.opts.watches {
            let mut note = WatchNote::default();
            let conflict = self.visit_watchers(!l, &mut note);
            emit(event, &self.value, Some(&note))?;
            return Ok(conflict);
        }
        emit(event, &self.value, None)?;
        if self.propagating() {
            return Ok(None);
        }
        let falsified = !l;
        Ok(self.occurs[falsified.code()]
            .iter()
            .copied()
            .find(|&i| matches!(self.status(i), Status::False)))
    }

    /// Two watched literals: `f` has just become false; each clause watching it moves that
    /// watch to a literal that is not false, or else is unit (its other watch open; queued
    /// when propagating), satisfied (its other watch true) or false (returned; the visit stops
    /// there).
    fn visit_watchers(&mut self, f: Lit, note: &mut WatchNote) -> Option<usize> {
        let list = std::mem::take(&mut self.watchers[f.code()]);
        let mut keep = Vec::with_capacity(list.len());
        let mut conflict = None;
        for &c in &list {
            if conflict.is_some() {
                keep.push(c);
                continue;
            }
            let w = self.watch[c];
            let slot = if w[0] == f { 0 } else { 1 };
            let other = w[1 - slot];
            if self.val(other) == Some(true) {
                keep.push(c);
                continue;
            }
            let replacement = self.clauses[c]
                .iter()
                .copied()
                .find(|&q| q != w[0] && q != w[1] && self.val(q) != Some(false));
            if let Some(q) = replacement {
                self.watch[c][slot] = q;
                self.watchers[q.code()].push(c);
                note.moved.push((c, f, q));
                continue;
            }
            keep.push(c);
            if self.val(other).is_none() {
                note.unit.push(c);
                if self.propagating() {
                    self.queue.push_back((other, c));
                }
            } else {
                conflict = Some(c);
            }
        }
        self.watchers[f.code()] = keep;
        conflict
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
        self.queue.clear();
    }

    /// Unit propagation to the end or to a false clause (returned). Without watches: each
    /// literal of the trail not yet processed makes the clauses that contain its negation
    /// shorter; a clause left with one open literal forces it, a clause left with none is a
    /// conflict. With watches: the queued literals are assigned in turn. Backtracking does
    /// not propagate.
    fn propagate<E>(
        &mut self,
        emit: &mut impl FnMut(Event, &[Option<bool>], Option<&WatchNote>) -> Result<(), E>,
    ) -> Result<Option<usize>, E> {
        if !self.propagating() {
            return Ok(None);
        }
        if self.opts.watches {
            while let Some((l, c)) = self.queue.pop_front() {
                match self.val(l) {
                    Some(true) => continue,
                    Some(false) => return Ok(Some(c)),
                    None => {}
                }
                let level = self.level();
                let event = Event::Propagate {
                    lit: l,
                    level,
                    reason: c,
                };
                if let Some(conflict) = self.assign(l, Some(c), event, emit)? {
                    return Ok(Some(conflict));
                }
            }
            return Ok(None);
        }
        while self.head < self.trail.len() {
            let falsified = !self.trail[self.head];
            self.head += 1;
            for k in 0..self.occurs[falsified.code()].len() {
                let i = self.occurs[falsified.code()][k];
                match self.status(i) {
                    Status::False => return Ok(Some(i)),
                    Status::Unit(l) => {
                        let level = self.level();
                        let event = Event::Propagate {
                            lit: l,
                            level,
                            reason: i,
                        };
                        self.assign(l, Some(i), event, emit)?;
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
    /// first, the level to jump back to (the highest level among the other literals) and the
    /// resolvents on the way. Literals false at level 0 are left out throughout.
    fn analyze(&self, conflict: usize) -> (Vec<Lit>, usize, Vec<Resolvent>) {
        let current = self.level();
        let mut seen = vec![false; self.value.len()];
        let mut learned = Vec::new();
        let mut pending = 0;
        let mut index = self.trail.len();
        let mut clause = conflict;
        let mut resolved: Option<Lit> = None;
        let mut resolvent: Vec<Lit> = Vec::new();
        let mut resolution = Vec::new();
        loop {
            if let Some(p) = resolved {
                resolvent.retain(|&q| q != !p);
            }
            for &q in &self.clauses[clause] {
                let v = q.index();
                if Some(q.var()) == resolved.map(|p| p.var()) || self.level_of[v] == 0 {
                    continue;
                }
                if !resolvent.contains(&q) {
                    resolvent.push(q);
                }
                if seen[v] {
                    continue;
                }
                seen[v] = true;
                if self.level_of[v] == current {
                    pending += 1;
                } else {
                    learned.push(q);
                }
            }
            resolution.push(Resolvent {
                variable: resolved.map(|p| p.var()),
                clause,
                lits: resolvent.clone(),
            });
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
        (learned, back, resolution)
    }

    /// VSIDS: adds the bump to the activity of `v` (rescaling every activity when it grows
    /// past 1e100).
    fn bump_var(&mut self, v: Var) {
        self.activity[v.index()] += self.bump;
        if self.activity[v.index()] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
    }

    /// VSIDS after a conflict: bumps each of `vars` once, in order, then decays.
    fn bump_and_decay(&mut self, lits: impl IntoIterator<Item = Lit>) {
        if self.opts.heuristic != Heuristic::Vsids {
            return;
        }
        let mut done = vec![false; self.value.len()];
        for l in lits {
            if !done[l.index()] {
                done[l.index()] = true;
                self.bump_var(l.var());
            }
        }
        self.bump /= VSIDS_DECAY;
    }

    /// The next decision: the literal `--decide` gives for it, or the heuristic's choice (set
    /// true); `None` when every variable has a value.
    fn next_decision(&mut self) -> Result<Option<(Lit, bool)>, TraceError> {
        let k = self.decisions + 1;
        if let Some(&l) = self.opts.decisions.get(&k) {
            if l.index() >= self.value.len() {
                return Err(TraceError::BadDecision {
                    k,
                    lit: l.to_dimacs(),
                    why: format!("the formula has {} variables", self.value.len()),
                });
            }
            if self.value[l.index()].is_some() {
                return Err(TraceError::BadDecision {
                    k,
                    lit: l.to_dimacs(),
                    why: format!("variable {} already has a value then", l.var().to_dimacs()),
                });
            }
            return Ok(Some((l, true)));
        }
        let v = match self.opts.heuristic {
            Heuristic::Fixed => self
                .order
                .iter()
                .copied()
                .find(|v| self.value[v.index()].is_none()),
            Heuristic::Random => {
                let open: Vec<Var> = self
                    .order
                    .iter()
                    .copied()
                    .filter(|v| self.value[v.index()].is_none())
                    .collect();
                if open.is_empty() {
                    None
                } else {
                    let r = self.rng.next_u32() as usize % open.len();
                    Some(open[r])
                }
            }
            Heuristic::Vsids => {
                let mut best: Option<Var> = None;
                for &v in &self.order {
                    if self.value[v.index()].is_some() {
                        continue;
                    }
                    if best.is_none_or(|b| self.activity[v.index()] > self.activity[b.index()]) {
                        best = Some(v);
                    }
                }
                best
            }
        };
        Ok(v.map(|v| (v.positive(), false)))
    }

    /// Level 0: an empty clause is a conflict at once. Without watches, the unit clauses of
    /// the formula are assigned in file order (a clause made unit or false by the earlier
    /// ones too); with watches each unit clause in file order is assigned and propagated. A
    /// search without propagation only looks for empty clauses. Returns the false clause
    /// found, if any.
    fn start<E>(
        &mut self,
        emit: &mut impl FnMut(Event, &[Option<bool>], Option<&WatchNote>) -> Result<(), E>,
    ) -> Result<Option<usize>, E> {
        for i in 0..self.clauses.len() {
            if !self.propagating() || self.opts.watches {
                match self.clauses[i].len() {
                    0 => return Ok(Some(i)),
                    1 if self.propagating() => {
                        let l = self.clauses[i][0];
                        match self.val(l) {
                            Some(true) => continue,
                            Some(false) => return Ok(Some(i)),
                            None => {}
                        }
                        let event = Event::Propagate {
                            lit: l,
                            level: 0,
                            reason: i,
                        };
                        if let Some(c) = self.assign(l, Some(i), event, emit)? {
                            return Ok(Some(c));
                        }
                        if let Some(c) = self.propagate(emit)? {
                            return Ok(Some(c));
                        }
                    }
                    _ => {}
                }
                continue;
            }
            match self.status(i) {
                Status::Unit(l) => {
                    let event = Event::Propagate {
                        lit: l,
                        level: 0,
                        reason: i,
                    };
                    self.assign(l, Some(i), event, emit)?;
                }
                Status::False => return Ok(Some(i)),
                Status::True | Status::Open => {}
            }
        }
        self.propagate(emit)
    }

    /// After the conflict on `conflict` (already handed on): learns and jumps back (CDCL) or
    /// goes back to the latest decision not yet flipped (backtracking, DPLL). `Ok(None)` when
    /// the search is over (no model), else the false clause the new assignment runs into, if
    /// any (`Some(None)` for none).
    fn resolve<E>(
        &mut self,
        conflict: usize,
        emit: &mut impl FnMut(Event, &[Option<bool>], Option<&WatchNote>) -> Result<(), E>,
    ) -> Result<Option<Option<usize>>, E> {
        self.conflicts_since_restart += 1;
        if self.level() == 0 {
            return Ok(None);
        }
        if self.opts.algorithm == Algorithm::Cdcl {
            let (lits, back, resolution) = self.analyze(conflict);
            let bumped: Vec<Lit> = resolution
                .iter()
                .flat_map(|r| r.lits.iter().copied())
                .collect();
            self.bump_and_decay(bumped);
            // The learned clause watches its asserting literal and a literal of the level it
            // jumps back to.
            let second = lits[1..]
                .iter()
                .copied()
                .find(|l| self.level_of[l.index()] == back);
            let w = [lits[0], second.unwrap_or(lits[0])];
            let clause = self.add_clause(lits.clone(), Some(w));
            let note = WatchNote {
                watched: distinct(&w),
                ..WatchNote::default()
            };
            emit(
                Event::Learn {
                    clause,
                    lits: lits.clone(),
                    resolution,
                },
                &self.value,
                self.opts.watches.then_some(&note),
            )?;
            self.undo_to(back);
            emit(
                Event::Backjump { level: back },
                &self.value,
                self.opts.watches.then(WatchNote::default).as_ref(),
            )?;
            let event = Event::Propagate {
                lit: lits[0],
                level: back,
                reason: clause,
            };
            return Ok(Some(self.assign(lits[0], Some(clause), event, emit)?));
        }
        let lits = self.clauses[conflict].clone();
        self.bump_and_decay(lits);
        let Some(k) = self.levels.iter().rposition(|l| !l.flipped) else {
            return Ok(None);
        };
        let decision = self.levels[k].decision;
        self.undo_to(k);
        emit(
            Event::Backtrack { level: k },
            &self.value,
            self.opts.watches.then(WatchNote::default).as_ref(),
        )?;
        self.levels.push(Level {
            start: self.trail.len(),
            decision: !decision,
            flipped: true,
        });
        let event = Event::Flip {
            lit: !decision,
            level: k + 1,
        };
        Ok(Some(self.assign(!decision, None, event, emit)?))
    }

    /// Runs the solver to the end, handing every event to `emit` (which may stop it with an
    /// error). Returns the final assignment (unassigned variables `None`) when a model was
    /// found, `None` when there is none.
    pub(crate) fn run(
        &mut self,
        mut emit: impl FnMut(Event, &[Option<bool>], Option<&WatchNote>) -> Result<(), TraceError>,
    ) -> Result<Option<Vec<Option<bool>>>, TraceError> {
        let none = WatchNote::default();
        let note = self.opts.watches.then_some(&none);
        let mut conflict = self.start(&mut emit)?;
        loop {
            if conflict.is_none() {
                conflict = self.propagate(&mut emit)?;
            }
            if let Some(c) = conflict {
                let level = self.level();
                emit(Event::Conflict { clause: c, level }, &self.value, note)?;
                match self.resolve(c, &mut emit)? {
                    None => {
                        emit(Event::Unsat, &self.value, note)?;
                        return Ok(None);
                    }
                    Some(next) => {
                        conflict = next;
                        continue;
                    }
                }
            }
            if (0..self.clauses.len()).all(|i| matches!(self.status(i), Status::True)) {
                emit(Event::Sat, &self.value, note)?;
                return Ok(Some(self.value.clone()));
            }
            if self.opts.restarts
                && self.opts.algorithm == Algorithm::Cdcl
                && self.conflicts_since_restart >= RESTART_UNIT * luby(self.luby_index)
            {
                let conflicts = self.conflicts_since_restart;
                self.luby_index += 1;
                self.conflicts_since_restart = 0;
                if self.level() > 0 {
                    self.undo_to(0);
                    emit(Event::Restart { conflicts }, &self.value, note)?;
                }
            }
            let Some((lit, forced)) = self.next_decision()? else {
                // Every variable has a value and no clause is false: unreachable, as every
                // clause is then true; kept as a model all the same.
                emit(Event::Sat, &self.value, note)?;
                return Ok(Some(self.value.clone()));
            };
            self.decisions += 1;
            self.levels.push(Level {
                start: self.trail.len(),
                decision: lit,
                flipped: false,
            });
            let activity =
                (self.opts.heuristic == Heuristic::Vsids).then(|| self.activity[lit.index()]);
            let level = self.level();
            let event = Event::Decide {
                lit,
                level,
                forced,
                activity,
            };
            conflict = self.assign(lit, None, event, &mut emit)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(ds: &[isize]) -> Vec<Lit> {
        ds.iter().map(|&d| Lit::from_dimacs(d)).collect()
    }

    fn run(clauses: &[&[isize]], vars: usize, opts: &TraceOptions) -> (bool, Vec<Event>) {
        let cs: Vec<Vec<Lit>> = clauses.iter().map(|c| lits(c)).collect();
        let order = (0..vars).map(Var::from_index).collect();
        let mut s = Solver::new(&cs, vars, order, opts);
        let mut events = Vec::new();
        let r = s
            .run(|e, _, _| {
                events.push(e);
                Ok(())
            })
            .unwrap();
        (r.is_some(), events)
    }

    #[test]
    fn every_algorithm_finds_models_and_proves_unsat() {
        for algorithm in [Algorithm::Backtracking, Algorithm::Dpll, Algorithm::Cdcl] {
            for watches in [false, true] {
                for heuristic in [Heuristic::Fixed, Heuristic::Vsids, Heuristic::Random] {
                    let opts = TraceOptions {
                        algorithm,
                        watches,
                        heuristic,
                        ..TraceOptions::default()
                    };
                    let (sat, _) = run(&[&[1, 2], &[-1, 2], &[-2, 3]], 3, &opts);
                    assert!(sat, "{opts:?}");
                    let (sat, ev) = run(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]], 2, &opts);
                    assert!(!sat, "{opts:?}");
                    assert_eq!(ev.last(), Some(&Event::Unsat));
                    let (sat, _) = run(&[&[1], &[]], 1, &opts);
                    assert!(!sat, "{opts:?}");
                }
            }
        }
    }

    #[test]
    fn learns_the_first_uip_with_its_resolvents() {
        // x1 decided: x2 by (-1 2), x3 by (-1 3), conflict on (-2 -3): resolving on x3 with
        // clause 1 gives (-2 -1), on x2 with clause 0 gives (-1): the first UIP is x1.
        let opts = TraceOptions {
            algorithm: Algorithm::Cdcl,
            ..TraceOptions::default()
        };
        let (_, ev) = run(&[&[-1, 2], &[-1, 3], &[-2, -3]], 3, &opts);
        let learn = ev
            .iter()
            .find(|e| matches!(e, Event::Learn { .. }))
            .unwrap();
        let Event::Learn {
            clause,
            lits: l,
            resolution,
        } = learn
        else {
            unreachable!()
        };
        assert_eq!((*clause, l.clone()), (3, lits(&[-1])));
        let steps: Vec<(Option<isize>, usize, Vec<Lit>)> = resolution
            .iter()
            .map(|r| (r.variable.map(|v| v.to_dimacs()), r.clause, r.lits.clone()))
            .collect();
        assert_eq!(
            steps,
            vec![
                (None, 2, lits(&[-2, -3])),
                (Some(3), 1, lits(&[-2, -1])),
                (Some(2), 0, lits(&[-1])),
            ]
        );
        assert!(ev.contains(&Event::Backjump { level: 0 }));
    }

    #[test]
    fn luby_and_xorshift() {
        let l: Vec<usize> = (1..=15).map(luby).collect();
        assert_eq!(l, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        // Marsaglia's xorshift32 (13, 17, 5) from state 1: 270369, 67634689, ...
        let mut r = Xorshift32(1);
        assert_eq!(r.next_u32(), 270_369);
        assert_eq!(r.next_u32(), 67_634_689);
    }
}
