//! The clause database of the DRAT checker: clauses with two watched literals, the assignment
//! that unit propagation forces at the top level, and the three operations a DRAT proof is
//! made of, each as the DRAT definition and drat-trim check them:
//!
//! * a **lemma** is accepted when it is a reverse unit propagation (RUP) consequence of the
//!   clauses (assigning the negation of its literals and propagating reaches a conflict), or
//!   else a resolution asymmetric tautology (RAT) on its first literal `p`: every resolvent of
//!   the lemma with a clause holding `-p` is RUP. For a RUP lemma the checker also names the
//!   clauses the conflict came from (its *hints*, in the order they became unit, the
//!   conflicting clause last), which an LRAT or VeriPB proof carries;
//! * a **deletion** removes one clause with the same literals; a deletion of a clause that is
//!   not there changes nothing. A deletion of a clause that is *unit at the top level* (one
//!   literal true, all others false: the reason why a literal holds) is ignored, as drat-trim
//!   ignores it: the clause stays, and so does the literal it forces. (Solvers delete clauses
//!   satisfied at the top level, reasons included, without writing the units they forced.)
//!   Keeping a clause never makes a wrong proof check: every clause the checker holds is
//!   either in the formula or a checked lemma, and the literals it assigns always have a
//!   clause of the database as their reason;
//! * the clauses are **refuted** once unit propagation alone reaches a conflict: then the
//!   empty clause is RUP.
//!
//! Literals are DIMACS integers at the interface and `2v + sign` inside. Clause ids are
//! 1-based, the formula's clauses first in their order, then each accepted lemma: the
//! numbering of LRAT and of VeriPB's constraint ids.

use std::collections::HashMap;

/// No clause (the reason of an assumption), or no literal.
const NONE: u32 = u32::MAX;

const TRUE: i8 = 1;
const FALSE: i8 = -1;

/// A DIMACS literal as `2v + sign`.
fn code(x: i64) -> u32 {
    (2 * x.unsigned_abs() + u64::from(x < 0)) as u32
}

/// A `2v + sign` literal as DIMACS.
fn dimacs(l: u32) -> i64 {
    let v = i64::from(l >> 1);
    if l & 1 == 1 {
        -v
    } else {
        v
    }
}

fn var(l: u32) -> usize {
    (l >> 1) as usize
}

/// A literal's contribution to a clause's hash; the hash of a clause is the wrapping sum over
/// its (distinct) literals, so that it does not depend on their order.
fn lit_hash(l: u32) -> u64 {
    let mut z = u64::from(l).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[derive(Clone, Copy, Debug)]
struct Watch {
    clause: u32,
    /// A literal of the clause: when it is true, the clause is not looked at.
    blocker: u32,
}

#[derive(Clone, Debug)]
struct Clause {
    start: usize,
    len: u32,
    deleted: bool,
    /// Has a literal and its negation: true under every assignment, never watched.
    tautology: bool,
    hash: u64,
    /// The next clause with the same hash.
    next: u32,
}

/// How a lemma was accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepted {
    /// By reverse unit propagation; the hints are in the checker's buffer
    /// ([`Database::hints`]).
    Rup,
    /// As a resolution asymmetric tautology on its first literal.
    Rat,
    /// It holds a literal and its negation.
    Tautology,
}

/// Why a lemma was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejected {
    /// Neither RUP nor RAT on its first literal: the resolvent with this clause (its id)
    /// is not RUP.
    NotRat {
        /// The pivot.
        pivot: i64,
        /// The clause holding `-pivot` whose resolvent failed.
        clause: u64,
    },
    /// The empty clause is not RUP: unit propagation reaches no conflict.
    NotRup,
}

/// What a deletion did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deleted {
    /// The clause with this id is gone.
    Removed(u64),
    /// No clause has these literals: nothing changed.
    Absent,
    /// The clause with this id is unit at the top level: kept (drat-trim's rule).
    KeptUnit(u64),
}

/// The clause database and its top-level assignment.
pub struct Database {
    arena: Vec<u32>,
    clauses: Vec<Clause>,
    watches: Vec<Vec<Watch>>,
    /// By literal: [`TRUE`], [`FALSE`] or 0.
    val: Vec<i8>,
    /// By variable: the clause that forced it, [`NONE`] for an assumption.
    reason: Vec<u32>,
    trail: Vec<u32>,
    /// The trail's first literal whose consequences are not yet propagated.
    qhead: usize,
    /// The top-level conflict, once the clauses are refuted by unit propagation.
    conflict: Option<u32>,
    /// Clauses by hash, the first of each chain.
    by_hash: HashMap<u64, u32>,
    /// Clauses of one literal (never watched).
    units: Vec<u32>,
    /// Clauses by literal, built at the first RAT check and kept from then on.
    occurs: Option<Vec<Vec<u32>>>,
    /// Literals of the arena in deleted clauses (compacted when they are most of it).
    dead: usize,
    /// Scratch: marks by literal and by variable.
    lit_mark: Vec<bool>,
    seen: Vec<bool>,
    /// The hints of the last RUP check.
    hints: Vec<u64>,
    /// Scratch: the lemma being checked, normalised.
    lemma: Vec<u32>,
}

impl Database {
    /// The database of `clauses` (DIMACS literals), with room for variables up to `vars`
    /// (more are added as lemmas use them). Propagates at the top level.
    pub fn new<'a>(clauses: impl IntoIterator<Item = &'a [i32]>, vars: usize) -> Self {
        let mut db = Database {
            arena: Vec::new(),
            clauses: Vec::new(),
            watches: Vec::new(),
            val: Vec::new(),
            reason: Vec::new(),
            trail: Vec::new(),
            qhead: 0,
            conflict: None,
            by_hash: HashMap::new(),
            units: Vec::new(),
            occurs: None,
            dead: 0,
            lit_mark: Vec::new(),
            seen: Vec::new(),
            hints: Vec::new(),
            lemma: Vec::new(),
        };
        db.grow(vars);
        let mut buf = Vec::new();
        for c in clauses {
            buf.clear();
            buf.extend(c.iter().map(|&x| i64::from(x)));
            db.normalise(&buf);
            db.insert();
        }
        db.settle();
        db
    }

    /// Room for variables up to `vars`.
    fn grow(&mut self, vars: usize) {
        if vars + 1 > self.reason.len() {
            let n = vars + 1;
            self.reason.resize(n, NONE);
            self.seen.resize(n, false);
            self.val.resize(2 * n, 0);
            self.lit_mark.resize(2 * n, false);
            self.watches.resize_with(2 * n, Vec::new);
            if let Some(occ) = &mut self.occurs {
                occ.resize_with(2 * n, Vec::new);
            }
        }
    }

    /// Clauses in the database, deleted ones included (the last id given).
    pub fn last_id(&self) -> u64 {
        self.clauses.len() as u64
    }

    /// The top-level conflict, when unit propagation refutes the clauses: the id of the
    /// clause it falsifies.
    pub fn refuted(&self) -> Option<u64> {
        self.conflict.map(|c| u64::from(c) + 1)
    }

    /// The hints of the last accepted RUP check, or of the refutation after
    /// [`Database::refutation_hints`].
    pub fn hints(&self) -> &[u64] {
        &self.hints
    }

    /// The literals of clause `id` (DIMACS), if it exists and is not deleted.
    #[cfg(test)]
    pub fn clause(&self, id: u64) -> Option<Vec<i64>> {
        let c = self
            .clauses
            .get(usize::try_from(id).ok()?.checked_sub(1)?)?;
        (!c.deleted).then(|| self.lits(c).iter().map(|&l| dimacs(l)).collect())
    }

    fn lits(&self, c: &Clause) -> &[u32] {
        &self.arena[c.start..c.start + c.len as usize]
    }

    /// `lits` (DIMACS) into [`Self::lemma`], without repeats, the first occurrence of each
    /// literal kept in place. Returns `true` for a tautology.
    fn normalise(&mut self, lits: &[i64]) -> bool {
        let top = lits.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0) as usize;
        self.grow(top);
        self.lemma.clear();
        let mut tautology = false;
        for &x in lits {
            let l = code(x);
            if self.lit_mark[l as usize] {
                continue;
            }
            if self.lit_mark[(l ^ 1) as usize] {
                tautology = true;
            }
            self.lit_mark[l as usize] = true;
            self.lemma.push(l);
        }
        for &l in &self.lemma {
            self.lit_mark[l as usize] = false;
        }
        tautology
    }

    /// Adds the clause in [`Self::lemma`] at the top level (no check-level assignment may be
    /// on the trail) and propagates.
    fn insert(&mut self) -> u32 {
        let id = self.clauses.len() as u32;
        let tautology = {
            // Already normalised: a tautology has a literal whose negation follows it.
            let mut t = false;
            for &l in &self.lemma {
                self.lit_mark[l as usize] = true;
            }
            for &l in &self.lemma {
                t |= self.lit_mark[(l ^ 1) as usize];
            }
            for &l in &self.lemma {
                self.lit_mark[l as usize] = false;
            }
            t
        };
        let hash = self
            .lemma
            .iter()
            .fold(0u64, |h, &l| h.wrapping_add(lit_hash(l)));
        let start = self.arena.len();
        self.arena.extend_from_slice(&self.lemma);
        let next = self.by_hash.insert(hash, id).unwrap_or(NONE);
        self.clauses.push(Clause {
            start,
            len: self.lemma.len() as u32,
            deleted: false,
            tautology,
            hash,
            next,
        });
        if let Some(occ) = &mut self.occurs {
            for &l in &self.lemma {
                occ[l as usize].push(id);
            }
        }
        if tautology {
            return id;
        }
        // Once refuted, clauses are still watched (a deletion may undo the refutation) but
        // assign nothing.
        let live = self.conflict.is_none();
        match self.lemma.len() {
            0 => {
                if live {
                    self.conflict = Some(id);
                }
            }
            1 => {
                self.units.push(id);
                let l = self.lemma[0];
                match self.val[l as usize] {
                    0 if live => self.assign(l, id),
                    FALSE if live => self.conflict = Some(id),
                    _ => {}
                }
            }
            len => {
                // The two best literals to watch: true, then unassigned, then false.
                let rank = |v: i8| match v {
                    TRUE => 0,
                    0 => 1,
                    _ => 2,
                };
                for k in 0..2 {
                    let mut best = k;
                    for j in k + 1..len {
                        let a = self.arena[start + j];
                        let b = self.arena[start + best];
                        if rank(self.val[a as usize]) < rank(self.val[b as usize]) {
                            best = j;
                        }
                    }
                    self.arena.swap(start + k, start + best);
                }
                let (a, b) = (self.arena[start], self.arena[start + 1]);
                self.watches[a as usize].push(Watch {
                    clause: id,
                    blocker: b,
                });
                self.watches[b as usize].push(Watch {
                    clause: id,
                    blocker: a,
                });
                match (self.val[a as usize], self.val[b as usize]) {
                    (FALSE, _) if live => self.conflict = Some(id),
                    (0, FALSE) if live => self.assign(a, id),
                    _ => {}
                }
            }
        }
        id
    }

    /// Propagates at the top level after clauses were added.
    fn settle(&mut self) {
        if self.conflict.is_none() {
            if let Some(c) = self.propagate() {
                self.conflict = Some(c);
            }
        }
    }

    fn assign(&mut self, l: u32, reason: u32) {
        self.val[l as usize] = TRUE;
        self.val[(l ^ 1) as usize] = FALSE;
        self.reason[var(l)] = reason;
        self.trail.push(l);
    }

    fn backtrack(&mut self, to: usize) {
        for &l in &self.trail[to..] {
            self.val[l as usize] = 0;
            self.val[(l ^ 1) as usize] = 0;
        }
        self.trail.truncate(to);
        self.qhead = to;
    }

    /// Unit propagation from the queue: the conflicting clause, if any.
    fn propagate(&mut self) -> Option<u32> {
        while self.qhead < self.trail.len() {
            let falsified = self.trail[self.qhead] ^ 1;
            self.qhead += 1;
            let mut ws = std::mem::take(&mut self.watches[falsified as usize]);
            let (mut i, mut j) = (0, 0);
            let mut conflict = None;
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                if self.val[w.blocker as usize] == TRUE {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                let c = &self.clauses[w.clause as usize];
                if c.deleted {
                    continue;
                }
                let (start, len) = (c.start, c.len as usize);
                if self.arena[start] == falsified {
                    self.arena.swap(start, start + 1);
                }
                let first = self.arena[start];
                if first != w.blocker && self.val[first as usize] == TRUE {
                    ws[j] = Watch {
                        clause: w.clause,
                        blocker: first,
                    };
                    j += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..len {
                    let l = self.arena[start + k];
                    if self.val[l as usize] != FALSE {
                        self.arena[start + 1] = l;
                        self.arena[start + k] = falsified;
                        self.watches[l as usize].push(Watch {
                            clause: w.clause,
                            blocker: first,
                        });
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                ws[j] = Watch {
                    clause: w.clause,
                    blocker: first,
                };
                j += 1;
                if self.val[first as usize] == FALSE {
                    conflict = Some(w.clause);
                    while i < ws.len() {
                        ws[j] = ws[i];
                        j += 1;
                        i += 1;
                    }
                } else {
                    self.assign(first, w.clause);
                }
            }
            ws.truncate(j);
            self.watches[falsified as usize] = ws;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    /// Marks as seen the variables of clause `clause` other than `skip` not seen yet; returns
    /// how many it marked.
    #[inline]
    fn see(&mut self, clause: u32, skip: usize) -> usize {
        let c = &self.clauses[clause as usize];
        let mut marked = 0;
        for k in c.start..c.start + c.len as usize {
            let v = var(self.arena[k]);
            if v != skip && !self.seen[v] {
                self.seen[v] = true;
                marked += 1;
            }
        }
        marked
    }

    /// The hints of a conflict on `conflict` (a clause all of whose literals are false,
    /// except that of variable `skip`, if any): the reasons of the literals the conflict
    /// depends on, in the order they were assigned, then the conflict. Assumptions (no
    /// reason) are left out.
    fn cone(&mut self, conflict: u32, skip: usize) {
        self.hints.clear();
        let mut pending = self.see(conflict, skip);
        let mut i = self.trail.len();
        while pending > 0 && i > 0 {
            i -= 1;
            let v = var(self.trail[i]);
            if !self.seen[v] {
                continue;
            }
            self.seen[v] = false;
            pending -= 1;
            let r = self.reason[v];
            if r == NONE {
                continue;
            }
            self.hints.push(u64::from(r) + 1);
            pending += self.see(r, v);
        }
        self.hints.reverse();
        self.hints.push(u64::from(conflict) + 1);
    }

    /// The hints of the top-level refutation into [`Database::hints`] (nothing when the
    /// clauses are not refuted).
    pub fn refutation_hints(&mut self) {
        self.hints.clear();
        if let Some(c) = self.conflict {
            self.cone(c, usize::MAX);
        }
    }

    /// Assigns the negation of the lemma in [`Self::lemma`] on top of the top-level trail and
    /// propagates: `true` on a conflict (the hints then in [`Self::hints`]; the assignment
    /// taken back), `false` otherwise (the assignment stays, from trail position `mark`).
    fn rup(&mut self, mark: usize) -> bool {
        for k in 0..self.lemma.len() {
            let l = self.lemma[k];
            match self.val[l as usize] {
                // A literal true at the top level: its reason conflicts with the negation.
                TRUE => {
                    self.backtrack(mark);
                    let r = self.reason[var(l)];
                    self.cone(r, var(l));
                    return true;
                }
                FALSE => {}
                _ => self.assign(l ^ 1, NONE),
            }
        }
        if let Some(c) = self.propagate() {
            self.cone(c, usize::MAX);
            self.backtrack(mark);
            return true;
        }
        false
    }

    /// The clauses holding literal `l`, live ones, from the occurrence lists (built on first
    /// use).
    fn occurrences(&mut self, l: u32) -> Vec<u32> {
        if self.occurs.is_none() {
            let mut occ = vec![Vec::new(); self.val.len()];
            for (id, c) in self.clauses.iter().enumerate() {
                if !c.deleted {
                    for &x in &self.arena[c.start..c.start + c.len as usize] {
                        occ[x as usize].push(id as u32);
                    }
                }
            }
            self.occurs = Some(occ);
        }
        let occ = self.occurs.as_mut().expect("built above");
        let list = &mut occ[l as usize];
        let clauses = &self.clauses;
        list.retain(|&id| !clauses[id as usize].deleted);
        list.clone()
    }

    /// Checks a lemma (DIMACS literals; its first literal is the RAT pivot) and adds it when
    /// it is accepted. The empty lemma is accepted when the clauses are refuted by unit
    /// propagation; it is never added.
    pub fn lemma(&mut self, lits: &[i64]) -> Result<Accepted, Rejected> {
        let tautology = self.normalise(lits);
        if let Some(c) = self.conflict {
            self.cone(c, usize::MAX);
            if !self.lemma.is_empty() {
                self.insert();
            }
            return Ok(Accepted::Rup);
        }
        if tautology {
            self.hints.clear();
            self.insert();
            return Ok(Accepted::Tautology);
        }
        if self.lemma.is_empty() {
            return Err(Rejected::NotRup);
        }
        let mark = self.trail.len();
        if self.rup(mark) {
            self.insert();
            self.settle();
            return Ok(Accepted::Rup);
        }
        // RAT on the first literal: the negation of the lemma stays assigned.
        let pivot = self.lemma[0];
        let lemma = self.lemma.clone();
        for d in self.occurrences(pivot ^ 1) {
            let inner = self.trail.len();
            let c = &self.clauses[d as usize];
            // A tautology is true under every assignment: it never stands in the way.
            if c.tautology {
                continue;
            }
            let (start, len) = (c.start, c.len as usize);
            let mut conflict = false;
            for k in start..start + len {
                let l = self.arena[k];
                if l == pivot ^ 1 {
                    continue;
                }
                match self.val[l as usize] {
                    TRUE => {
                        conflict = true;
                        break;
                    }
                    FALSE => {}
                    _ => self.assign(l ^ 1, NONE),
                }
            }
            if !conflict {
                conflict = self.propagate().is_some();
            }
            self.backtrack(inner);
            if !conflict {
                self.backtrack(mark);
                return Err(Rejected::NotRat {
                    pivot: dimacs(pivot),
                    clause: u64::from(d) + 1,
                });
            }
        }
        self.backtrack(mark);
        self.lemma = lemma;
        self.hints.clear();
        self.insert();
        self.settle();
        Ok(Accepted::Rat)
    }

    /// Adds a lemma without checking it (to follow a proof past a failed step, for a second
    /// checker's sake): its id, or `None` for the empty lemma (never added).
    pub fn add_unchecked(&mut self, lits: &[i64]) -> Option<u64> {
        self.normalise(lits);
        if self.lemma.is_empty() {
            return None;
        }
        let id = self.insert();
        self.settle();
        Some(u64::from(id) + 1)
    }

    /// Deletes one clause with the literals `lits` (DIMACS), unless it is unit at the top
    /// level (kept, as drat-trim keeps it) or there is none.
    pub fn delete(&mut self, lits: &[i64]) -> Deleted {
        self.normalise(lits);
        let hash = self
            .lemma
            .iter()
            .fold(0u64, |h, &l| h.wrapping_add(lit_hash(l)));
        let Some(&head) = self.by_hash.get(&hash) else {
            return Deleted::Absent;
        };
        for &l in &self.lemma {
            self.lit_mark[l as usize] = true;
        }
        let mut found = NONE;
        let mut prev = NONE;
        let mut at = head;
        while at != NONE {
            let c = &self.clauses[at as usize];
            if c.hash == hash
                && c.len as usize == self.lemma.len()
                && self.arena[c.start..c.start + c.len as usize]
                    .iter()
                    .all(|&l| self.lit_mark[l as usize])
            {
                found = at;
                break;
            }
            prev = at;
            at = c.next;
        }
        for &l in &self.lemma {
            self.lit_mark[l as usize] = false;
        }
        if found == NONE {
            return Deleted::Absent;
        }
        let id = u64::from(found) + 1;
        if self.conflict.is_none() && self.is_top_unit(found) {
            return Deleted::KeptUnit(id);
        }
        // Out of its hash chain.
        let next = self.clauses[found as usize].next;
        if prev == NONE {
            if next == NONE {
                self.by_hash.remove(&hash);
            } else {
                self.by_hash.insert(hash, next);
            }
        } else {
            self.clauses[prev as usize].next = next;
        }
        let c = &mut self.clauses[found as usize];
        c.deleted = true;
        self.dead += c.len as usize;
        if c.len == 1 {
            self.units.retain(|&u| u != found);
        }
        if self.conflict == Some(found) || self.is_reason(found) {
            // Only after a refutation (when a proof is followed past it; before, a reason is
            // unit at the top level and kept): the assignment is worked out again.
            self.recompute();
        }
        if self.dead > 1 << 20 && 2 * self.dead > self.arena.len() {
            self.compact();
        }
        Deleted::Removed(id)
    }

    /// The clause is the reason of its first literal (where propagation puts the literal it
    /// forces).
    fn is_reason(&self, c: u32) -> bool {
        let cl = &self.clauses[c as usize];
        if cl.len == 0 {
            return false;
        }
        let l = self.arena[cl.start];
        self.val[l as usize] == TRUE && self.reason[var(l)] == c
    }

    /// One literal true and every other false at the top level.
    fn is_top_unit(&self, c: u32) -> bool {
        let c = &self.clauses[c as usize];
        let mut trues = 0;
        for &l in self.lits(c) {
            match self.val[l as usize] {
                TRUE => trues += 1,
                FALSE => {}
                _ => return false,
            }
        }
        trues == 1
    }

    /// The top-level assignment worked out from scratch (after the clause of a conflict was
    /// deleted, which only happens when a proof goes on past its refutation).
    fn recompute(&mut self) {
        self.backtrack(0);
        self.conflict = None;
        for k in 0..self.units.len() {
            let id = self.units[k];
            let l = self.arena[self.clauses[id as usize].start];
            match self.val[l as usize] {
                0 => self.assign(l, id),
                FALSE => {
                    self.conflict = Some(id);
                    return;
                }
                _ => {}
            }
        }
        if let Some(id) = self
            .clauses
            .iter()
            .position(|c| !c.deleted && !c.tautology && c.len == 0)
        {
            self.conflict = Some(id as u32);
            return;
        }
        // Every clause that is unit or falsified has a false watched literal (two watches,
        // at most one literal not false): propagating the whole trail again finds it.
        self.qhead = 0;
        self.settle();
    }

    /// Drops the literals of deleted clauses from the arena.
    fn compact(&mut self) {
        let mut arena = Vec::with_capacity(self.arena.len() - self.dead);
        for c in &mut self.clauses {
            if c.deleted {
                c.len = 0;
                c.start = 0;
                continue;
            }
            let start = arena.len();
            arena.extend_from_slice(&self.arena[c.start..c.start + c.len as usize]);
            c.start = start;
        }
        self.arena = arena;
        self.dead = 0;
        // Watches of deleted clauses go when they are next looked at; drop them now.
        let clauses = &self.clauses;
        for ws in &mut self.watches {
            ws.retain(|w| !clauses[w.clause as usize].deleted);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(clauses: &[&[i32]]) -> Database {
        Database::new(clauses.iter().copied(), 0)
    }

    #[test]
    fn rup_lemmas_with_hints() {
        // (1 2) (-1 2) (1 -2) (-1 -2): 2 is RUP from the first two.
        let mut d = db(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]);
        assert_eq!(d.lemma(&[2]), Ok(Accepted::Rup));
        assert_eq!(d.hints(), &[1, 2]);
        // The unit 2 (id 5) forces 1 by clause 3, then clause 4 conflicts.
        assert_eq!(d.refuted(), Some(4));
        d.refutation_hints();
        assert_eq!(d.hints(), &[5, 3, 4]);
        assert_eq!(d.lemma(&[]), Ok(Accepted::Rup));
    }

    #[test]
    fn a_lemma_that_is_neither_rup_nor_rat() {
        let mut d = db(&[&[1, 2], &[-1, 2]]);
        assert_eq!(
            d.lemma(&[-2]),
            Err(Rejected::NotRat {
                pivot: -2,
                clause: 1
            })
        );
        assert_eq!(d.lemma(&[]), Err(Rejected::NotRup));
        assert_eq!(d.refuted(), None);
    }

    #[test]
    fn rat_on_a_fresh_variable_and_a_tautology() {
        let mut d = db(&[&[1, 2]]);
        assert_eq!(d.lemma(&[3, 1]), Ok(Accepted::Rat));
        // The resolvent with (3 1) is (-2 1): not RUP.
        assert_eq!(
            d.lemma(&[-3, -2]),
            Err(Rejected::NotRat {
                pivot: -3,
                clause: 2
            })
        );
        // The resolvent with (3 1) is (2 1), a clause of the formula.
        assert_eq!(d.lemma(&[-3, 2]), Ok(Accepted::Rat));
        assert_eq!(d.lemma(&[4, -4]), Ok(Accepted::Tautology));
    }

    #[test]
    fn the_deletion_of_a_reason_is_ignored() {
        // The defect's proof: 1; lemma (-2 -1) by RAT forces -2; its deletion must not leave
        // -2 without a reason, nor remove it while the clause is unit.
        let mut d = db(&[&[1]]);
        assert_eq!(d.lemma(&[-2, -1]), Ok(Accepted::Rat));
        assert_eq!(d.delete(&[-2, -1]), Deleted::KeptUnit(2));
        assert_eq!(
            d.lemma(&[2]),
            Err(Rejected::NotRat {
                pivot: 2,
                clause: 2
            })
        );
        assert_eq!(d.lemma(&[]), Err(Rejected::NotRup));
    }

    #[test]
    fn deletions_find_the_clause_by_its_literals() {
        let mut d = db(&[&[1, 2, 3], &[3, 2, 1], &[-1, 4]]);
        let a = d.delete(&[2, 1, 3]);
        let b = d.delete(&[1, 3, 2, 2]);
        let mut both = [a, b];
        both.sort_by_key(|x| format!("{x:?}"));
        assert_eq!(both, [Deleted::Removed(1), Deleted::Removed(2)]);
        assert_eq!(d.delete(&[1, 2, 3]), Deleted::Absent);
        assert_eq!(d.delete(&[4, -1]), Deleted::Removed(3));
        assert_eq!(d.clause(3), None);
    }

    #[test]
    fn refuted_formulas() {
        assert_eq!(db(&[&[1], &[-1]]).refuted(), Some(2));
        assert_eq!(db(&[&[]]).refuted(), Some(1));
        // -1 (clause 2) forces -2 (clause 3), which falsifies clause 1.
        let mut d = db(&[&[1, 2], &[-1], &[-2, 1]]);
        assert_eq!(d.refuted(), Some(1));
        d.refutation_hints();
        assert_eq!(d.hints(), &[2, 3, 1]);
    }

    #[test]
    fn a_deleted_conflict_is_worked_out_again() {
        // A proof that goes on after its refutation and deletes the conflicting clause.
        let mut d = db(&[&[1], &[-1, 2], &[-2]]);
        assert_eq!(d.refuted(), Some(3));
        assert_eq!(d.delete(&[-2]), Deleted::Removed(3));
        assert_eq!(d.refuted(), None);
        assert_eq!(d.lemma(&[2]), Ok(Accepted::Rup));
    }
}
