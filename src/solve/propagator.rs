//! The queens constraints as an external propagator of CaDiCaL (IPASIR-UP): the engine of
//! `solve --engine propagator`.
//!
//! [`PropagatorSolver`] is a [`Solver`] that takes the clauses of the pairwise cell model
//! ([`crate::instance::encode`]) and keeps as CNF only those that are not an at-most-one pair:
//! the rows' at-least-one clauses and the units of placed and forbidden cells. The at-most-one
//! of every line (rows, columns and both diagonals, square or toroidal) is propagated by the
//! propagator instead: when a cell becomes true, every other cell of its four lines is made
//! false, each with its reason clause `-a -b`, a binary clause of the pairwise formula; two
//! true cells on one line are a conflict with the same clause as reason, and a complete model
//! is checked line by line before it is accepted (a safety net: a missing propagation there
//! adds the clause). Reasons are given lazily, only when CaDiCaL asks for them.
//!
//! **Counting.** The propagator also counts, as the search does: the n queens stand on n
//! distinct diagonals of each direction, so the diagonals of a direction that can still hold
//! one (a true cell, or an unassigned one) must number at least n. When fewer are left, the
//! propagator adds the clause "one of the false cells of the dead diagonals of that direction
//! is true", false under the assignment (a conflict); when exactly n are left, each of them
//! must hold a queen, and a live diagonal without a queen and with one cell not false gets
//! the clause "this cell, or one of the other cells of its diagonal, or one of the cells of
//! the dead diagonals", which makes the cell true. Each such clause holds in every solution of
//! the board (it is implied by the formula, though not by unit propagation on it), and is
//! added as a forgettable clause (CaDiCaL may delete it; the propagator gives it again when
//! needed). On the square board it also bounds the sums: the diagonals of the n queens have
//! indices (`r + c`, and `r - c + n - 1`) that sum to `n (n - 1)` in each direction, so the
//! diagonals with a queen plus the `k` smallest (largest) live ones without a queen, `k` the
//! queens still missing, must not sum to more (less) than that; when they do, the clause "one
//! of the false cells of the dead diagonals is true, or one of the queens on the diagonals
//! with a queen is not" is false under the assignment (a conflict). The arguments are switched
//! off when a DRAT or LRAT proof is written (`solve --proof`): their clauses are not in the
//! pairwise formula and would not check against it. A VeriPB certificate
//! ([`crate::solve::certify_with_propagator`]) keeps them on: it is written against the OPB
//! form with the counts and sums, from which they follow, and each sum clause's bound is
//! handed to it ([`crate::proof::Bound`]) for the cutting-planes step that justifies it.
//!
//! The answers go through the same checks as every solver's: [`crate::solve::solve_model_with_solver`]
//! and the enumeration decode each model and check the board.

use super::backend::CadicalSolver;
use super::cadical::ExternalPropagator;
use super::{Budget, SolveError, Solver, SolverOption};
use crate::board::Geometry;
use crate::cnf::Lit;
use crate::instance::Formula;
use crate::proof::Bound;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The propagator's own option among CaDiCaL's for the counting argument (`counting=0`
/// switches it off; 1, the default, leaves it on): `solve --engine propagator --solver-option
/// counting=0`, `compare --solver "propagator counting=0"`.
pub const COUNTING_OPTION: &str = "counting";

/// The propagator's own option for the bounds on the diagonals' sums (`sums=0` switches them
/// off; 1, the default, leaves them on).
pub const SUMS_OPTION: &str = "sums";

/// The propagator's own option for the bounds on the diagonals' second moments (`moments=0`
/// switches them off; 1, the default, leaves them on).
pub const MOMENTS_OPTION: &str = "moments";

/// Which of the search's arguments the propagator uses (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arguments {
    /// The counts of live diagonals ([`COUNTING_OPTION`]).
    pub counting: bool,
    /// The bounds on the diagonals' sums ([`SUMS_OPTION`]; the square board only).
    pub sums: bool,
    /// The bounds on the diagonals' second moments ([`MOMENTS_OPTION`]; the square board
    /// only).
    pub moments: bool,
}

impl Arguments {
    /// Every argument on: the default.
    pub const ALL: Arguments = Arguments {
        counting: true,
        sums: true,
        moments: true,
    };
    /// None: what a proof needs.
    pub const NONE: Arguments = Arguments {
        counting: false,
        sums: false,
        moments: false,
    };
}

/// Splits the propagator's options: its arguments ([`COUNTING_OPTION`], [`SUMS_OPTION`],
/// [`MOMENTS_OPTION`], each 0 or 1, on by default; the last one given wins) and CaDiCaL's
/// options, the rest.
pub fn split_options(
    options: &[SolverOption],
) -> Result<(Arguments, Vec<SolverOption>), super::options::OptionError> {
    let mut arguments = Arguments::ALL;
    let mut rest = Vec::new();
    for o in options {
        let flag = match o.name.as_str() {
            COUNTING_OPTION => &mut arguments.counting,
            SUMS_OPTION => &mut arguments.sums,
            MOMENTS_OPTION => &mut arguments.moments,
            _ => {
                rest.push(o.clone());
                continue;
            }
        };
        if !(0..=1).contains(&o.value) {
            return Err(super::options::OptionError::OutOfRange {
                name: o.name.clone(),
                value: o.value,
                low: 0,
                high: 1,
            });
        }
        *flag = o.value == 1;
    }
    Ok((arguments, rest))
}

/// What the propagator did, summed over every solve of one [`PropagatorSolver`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PropagatorStats {
    /// Literals the propagator propagated (cells made false).
    pub propagations: u64,
    /// Reason clauses CaDiCaL asked for (each a binary clause of the pairwise formula).
    pub reasons: u64,
    /// Conflicts the propagator found: two true cells on one line, at an assignment or in a
    /// complete model.
    pub conflicts: u64,
    /// Clauses added on a complete model that broke a line (the safety net).
    pub model_clauses: u64,
    /// Clauses of the counting argument: conflicts (too few live diagonals) and propagations
    /// (a diagonal that must hold a queen and has one cell left).
    pub counting_clauses: u64,
    /// Conflict clauses of the bounds on the diagonals' sums.
    pub sum_clauses: u64,
    /// Conflict clauses of the bounds on the diagonals' second moments.
    pub moment_clauses: u64,
    /// At-most-one clauses of the formula left out of the CNF (the propagator's).
    pub clauses_replaced: u64,
    /// Clauses given to CaDiCaL as CNF.
    pub clauses_kept: u64,
}

impl std::fmt::Display for PropagatorStats {
    /// The line `solve --engine propagator` writes on stderr after a solve.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "propagator: {} propagations, {} reason clauses, {} conflicts ({} clauses on complete \
             models), {} counting clauses, {} sum clauses, {} moment clauses; CNF: {} clauses, \
             {} at-most-one clauses propagated instead",
            self.propagations,
            self.reasons,
            self.conflicts,
            self.model_clauses,
            self.counting_clauses,
            self.sum_clauses,
            self.moment_clauses,
            self.clauses_kept,
            self.clauses_replaced
        )
    }
}

/// The counters, shared between the solver and its propagator.
#[derive(Default)]
struct Counters {
    propagations: AtomicU64,
    reasons: AtomicU64,
    conflicts: AtomicU64,
    model_clauses: AtomicU64,
    counting_clauses: AtomicU64,
    sum_clauses: AtomicU64,
    moment_clauses: AtomicU64,
}

/// The board's lines: for each cell, the four lines through it, and for each line its cells.
struct Lines {
    /// The board's size.
    n: usize,
    /// The square board (not the torus): the diagonals' sums are bounded.
    square: bool,
    /// `n * n` cells, each with its four line ids.
    of_cell: Vec<[u32; 4]>,
    /// Each line's cells (0-based cell indices).
    cells: Vec<Vec<u32>>,
}

impl Lines {
    fn new(n: usize, geometry: Geometry) -> Lines {
        // Rows, columns, `/` and `\` diagonals, each kind numbered apart (2n - 1 diagonals of
        // each direction on the square, n on the torus).
        let diags = 2 * n;
        let base = [0, n, 2 * n, 2 * n + diags];
        let total = 2 * n + 2 * diags;
        let mut cells = vec![Vec::new(); total];
        let mut of_cell = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                let ids = [
                    base[0] + r,
                    base[1] + c,
                    base[2] + geometry.diagonal(n, r, c),
                    base[3] + geometry.anti_diagonal(n, r, c),
                ];
                let cell = (r * n + c) as u32;
                for &l in &ids {
                    cells[l].push(cell);
                }
                of_cell.push(ids.map(|l| l as u32));
            }
        }
        Lines {
            n,
            square: geometry == Geometry::Square,
            of_cell,
            cells,
        }
    }

    /// The line ids of the diagonals of one direction (0: `/`, 1: `\`); some may have no
    /// cells (the torus has n of each direction, the square 2n - 1, of 2n ids).
    fn diagonals(&self, direction: usize) -> std::ops::Range<usize> {
        let start = 2 * self.n + direction * 2 * self.n;
        start..start + 2 * self.n
    }

    /// `true` when distinct cells `a` and `b` share a line.
    fn share(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.of_cell[a], &self.of_cell[b]);
        (0..4).any(|k| x[k] == y[k])
    }
}

/// The at-most-one of every line as an IPASIR-UP propagator over the cell variables `1..=n*n`.
struct QueensPropagator {
    lines: Arc<Lines>,
    cells: usize,
    /// The value of each cell as notified: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    /// The true cell of each line, if any (+1: 0 is none).
    owner: Vec<u32>,
    /// Cells assigned, in order (0-based cell, and whether it was true).
    trail: Vec<(u32, bool)>,
    /// The trail's length at the start of each decision level above 0.
    levels: Vec<usize>,
    /// Propagations to hand out: (cell to make false, the true cell that is its reason).
    queue: Vec<(u32, u32)>,
    /// The reason of each propagated cell: the true cell (+1: 0 is none).
    reason: Vec<u32>,
    /// The reason clause being handed out: (propagated literal, position in it).
    giving: Option<(i32, u8)>,
    /// Clauses to add, each with whether it may be forgotten: a conflict in a complete model
    /// (`-a -b`, kept), or a clause of the counting argument (forgettable).
    pending: Vec<(Vec<i32>, bool)>,
    /// The literals of the clause being added, handed out from the end, and whether it may be
    /// forgotten.
    adding: Vec<i32>,
    adding_forgettable: bool,
    counters: Arc<Counters>,
    /// Which arguments are on (see the module documentation).
    arguments: Arguments,
    /// Cells of each line that are not false.
    alive: Vec<u32>,
    /// Per diagonal direction, the diagonals (with cells) that have a cell not false.
    live: [usize; 2],
    /// An assignment changed since the last count.
    dirty: bool,
    /// Where the failed bounds on the sums go, each before its clause, when a VeriPB
    /// certificate is written ([`crate::solve::Certificate`]: the cutting-planes step that
    /// makes each clause follow by unit propagation).
    bounds: Option<Arc<Mutex<Vec<Bound>>>>,
}

impl QueensPropagator {
    fn new(
        lines: Arc<Lines>,
        counters: Arc<Counters>,
        arguments: Arguments,
        bounds: Option<Arc<Mutex<Vec<Bound>>>>,
    ) -> QueensPropagator {
        let cells = lines.of_cell.len();
        let nlines = lines.cells.len();
        let alive: Vec<u32> = lines.cells.iter().map(|c| c.len() as u32).collect();
        let live = [0, 1].map(|d| lines.diagonals(d).filter(|&l| alive[l] > 0).count());
        QueensPropagator {
            lines,
            cells,
            value: vec![0; cells],
            owner: vec![0; nlines],
            trail: Vec::new(),
            levels: Vec::new(),
            queue: Vec::new(),
            reason: vec![0; cells],
            giving: None,
            pending: Vec::new(),
            adding: Vec::new(),
            adding_forgettable: false,
            counters,
            arguments,
            alive,
            live,
            dirty: true,
            bounds,
        }
    }

    /// A cell became false: its diagonals lose a live cell.
    fn set_false(&mut self, cell: usize) {
        let ids = self.lines.of_cell[cell];
        for (d, &l) in ids[2..].iter().enumerate() {
            let l = l as usize;
            self.alive[l] -= 1;
            if self.alive[l] == 0 {
                self.live[d] -= 1;
            }
        }
    }

    /// The counting argument and the bounds on the sums on the current assignment: the clauses
    /// they give go to [`QueensPropagator::pending`] (see the module documentation).
    fn count(&mut self) {
        self.dirty = false;
        let n = self.lines.n;
        let lines = Arc::clone(&self.lines);
        for d in 0..2 {
            let dead = || -> Vec<i32> {
                lines
                    .diagonals(d)
                    .filter(|&l| self.alive[l] == 0)
                    .flat_map(|l| lines.cells[l].iter().map(|&c| c as i32 + 1))
                    .collect()
            };
            if self.arguments.counting && self.live[d] < n {
                self.counters
                    .counting_clauses
                    .fetch_add(1, Ordering::Relaxed);
                self.pending.push((dead(), true));
                return;
            }
            if self.arguments.sums && lines.square {
                if let Some((clause, bound)) = self.sum_conflict(d, dead) {
                    self.counters.sum_clauses.fetch_add(1, Ordering::Relaxed);
                    self.bound_failed(clause, bound);
                    return;
                }
            }
            if !self.arguments.counting || self.live[d] > n {
                continue;
            }
            let dead = dead();
            for l in lines.diagonals(d) {
                if self.alive[l] != 1 || self.owner[l] != 0 {
                    continue;
                }
                let cells = &lines.cells[l];
                let Some(&last) = cells.iter().find(|&&c| self.value[c as usize] != -1) else {
                    continue;
                };
                if self.value[last as usize] != 0 {
                    continue;
                }
                let mut clause = vec![last as i32 + 1];
                clause.extend(cells.iter().filter(|&&c| c != last).map(|&c| c as i32 + 1));
                clause.extend_from_slice(&dead);
                self.counters
                    .counting_clauses
                    .fetch_add(1, Ordering::Relaxed);
                self.pending.push((clause, true));
            }
        }
        if self.arguments.moments && lines.square {
            if let Some((clause, bound)) = self.moment_conflict() {
                self.counters.moment_clauses.fetch_add(1, Ordering::Relaxed);
                self.bound_failed(clause, bound);
            }
        }
    }

    /// The conflict `clause` of a bound that failed: handed to the certificate first when one
    /// is written, then added (forgettable).
    fn bound_failed(&mut self, clause: Vec<i32>, bound: Bound) {
        if let Some(b) = &self.bounds {
            b.lock().unwrap_or_else(PoisonError::into_inner).push(bound);
        }
        self.pending.push((clause, true));
    }

    /// The bound on the second moments of the diagonals with a queen, both directions at once:
    /// a diagonal of index `i` weighs `(i - (n - 1))^2` (its squared distance from the middle,
    /// `(r + c - (n - 1))^2` for `/`, `(r - c)^2` for `\`), and the n queens' weights of both
    /// directions add up to `n (n^2 - 1) / 3` (each queen's two weights are twice its row's
    /// and column's squared distances from the middle). When the weights of the diagonals
    /// with a queen plus the `k` lightest (heaviest) live ones without a queen of each
    /// direction exceed (fall short of) that, the conflict clause is the false cells of the
    /// dead diagonals of both directions and the negations of the queens, with the bound that
    /// failed (in the OPB form's units, the same weights).
    fn moment_conflict(&self) -> Option<(Vec<i32>, Bound)> {
        let n = self.lines.n;
        let weight = |i: usize| (i as i64 - (n as i64 - 1)).pow(2);
        let mut owned = 0i64;
        let mut clause = Vec::new();
        let mut free: [Vec<i64>; 2] = [Vec::new(), Vec::new()];
        let mut k = [0usize; 2];
        for (d, free) in free.iter_mut().enumerate() {
            let range = self.lines.diagonals(d);
            let start = range.start;
            let mut queens = 0;
            for l in range {
                if self.owner[l] != 0 {
                    owned += weight(l - start);
                    clause.push(-(self.owner[l] as i32));
                    queens += 1;
                } else if self.alive[l] > 0 {
                    free.push(weight(l - start));
                }
            }
            k[d] = n.checked_sub(queens)?;
            if free.len() < k[d] {
                return None;
            }
            free.sort_unstable();
        }
        let least: i64 = owned
            + (0..2)
                .map(|d| free[d][..k[d]].iter().sum::<i64>())
                .sum::<i64>();
        let most: i64 = owned
            + (0..2)
                .map(|d| free[d][free[d].len() - k[d]..].iter().sum::<i64>())
                .sum::<i64>();
        let n64 = n as i64;
        let target = n64 * (n64 * n64 - 1) / 3;
        if (least..=most).contains(&target) {
            return None;
        }
        // The thresholds: the k-th lightest (heaviest) free weight of each direction, none
        // when no queen is missing.
        let low = least > target;
        let t = |d: usize| match k[d] {
            0 => 0,
            k if low => free[d][k - 1],
            k => free[d][free[d].len() - k],
        };
        let bound = if low {
            Bound::MomentLow { t: [t(0), t(1)] }
        } else {
            Bound::MomentHigh { t: [t(0), t(1)] }
        };
        let lines = &self.lines;
        for d in 0..2 {
            for l in lines.diagonals(d).filter(|&l| self.alive[l] == 0) {
                clause.extend(lines.cells[l].iter().map(|&c| c as i32 + 1));
            }
        }
        // A queen owns a diagonal of each direction, a cell may lie on two dead ones.
        clause.sort_unstable();
        clause.dedup();
        Some((clause, bound))
    }

    /// The bound on the sum of the indices of the diagonals of direction `d` with a queen: the
    /// conflict clause when no choice of the live diagonals can make it `n (n - 1)` (the
    /// false cells of the dead diagonals, `dead`, and the negations of the queens on the
    /// diagonals that have one), with the bound that failed in the OPB form's units.
    fn sum_conflict(&self, d: usize, dead: impl FnOnce() -> Vec<i32>) -> Option<(Vec<i32>, Bound)> {
        let n = self.lines.n;
        let range = self.lines.diagonals(d);
        let start = range.start;
        let mut owned_sum = 0usize;
        let mut owners = Vec::new();
        let mut free = Vec::new();
        for l in range {
            if self.owner[l] != 0 {
                owned_sum += l - start;
                owners.push(-(self.owner[l] as i32));
            } else if self.alive[l] > 0 {
                free.push(l - start);
            }
        }
        let k = n.checked_sub(owners.len())?;
        if free.len() < k {
            return None;
        }
        // `free` is in increasing order of index already.
        let least: usize = owned_sum + free[..k].iter().sum::<usize>();
        let most: usize = owned_sum + free[free.len() - k..].iter().sum::<usize>();
        let target = n * (n - 1);
        if (least..=most).contains(&target) {
            return None;
        }
        // The OPB form's index of a diagonal: `r + c` 1-based (`/`, index r + c 0-based), or
        // `r - c` (`\`, index r - c + n - 1); the threshold is the k-th smallest (largest)
        // free index, none when no queen is missing.
        let v = |i: usize| i as i64 + if d == 0 { 2 } else { 1 - n as i64 };
        let bound = if least > target {
            Bound::SumLow {
                dir: d,
                t: k.checked_sub(1).map_or(0, |j| v(free[j])),
            }
        } else {
            Bound::SumHigh {
                dir: d,
                t: k.checked_sub(1).map_or(0, |_| v(free[free.len() - k])),
            }
        };
        let mut clause = dead();
        clause.extend(owners);
        Some((clause, bound))
    }

    /// A cell became true: it owns its free lines; a line owned by another cell is a
    /// conflict, handed to CaDiCaL as the propagation of this cell's negation (already false)
    /// with the other cell as reason; the other cells of its lines are to be made false.
    fn set_true(&mut self, cell: usize) {
        let lines = Arc::clone(&self.lines);
        for &l in &lines.of_cell[cell] {
            let l = l as usize;
            match self.owner[l] {
                0 => {
                    self.owner[l] = cell as u32 + 1;
                    for &other in &lines.cells[l] {
                        if other as usize != cell && self.value[other as usize] == 0 {
                            self.queue.push((other, cell as u32));
                        }
                    }
                }
                o if o as usize - 1 != cell => {
                    self.counters.conflicts.fetch_add(1, Ordering::Relaxed);
                    self.queue.push((cell as u32, o - 1));
                }
                _ => {}
            }
        }
    }

    /// Undoes one assignment of the trail.
    fn undo(&mut self, cell: u32, was_true: bool) {
        let c = cell as usize;
        self.value[c] = 0;
        if !was_true {
            let ids = self.lines.of_cell[c];
            for (d, &l) in ids[2..].iter().enumerate() {
                let l = l as usize;
                if self.alive[l] == 0 {
                    self.live[d] += 1;
                }
                self.alive[l] += 1;
            }
        }
        if was_true {
            for &l in &self.lines.of_cell[c] {
                if self.owner[l as usize] == cell + 1 {
                    self.owner[l as usize] = 0;
                }
            }
        }
    }
}

impl ExternalPropagator for QueensPropagator {
    fn notify_assignment(&mut self, lits: &[i32]) {
        for &lit in lits {
            let v = lit.unsigned_abs() as usize;
            if v == 0 || v > self.cells {
                continue;
            }
            let cell = v - 1;
            if self.value[cell] != 0 {
                continue;
            }
            let positive = lit > 0;
            self.value[cell] = if positive { 1 } else { -1 };
            self.trail.push((cell as u32, positive));
            self.dirty = true;
            if positive {
                self.set_true(cell);
            } else {
                self.set_false(cell);
            }
        }
    }

    fn notify_new_decision_level(&mut self) {
        self.levels.push(self.trail.len());
    }

    fn notify_backtrack(&mut self, new_level: usize, _restart: bool) {
        if new_level < self.levels.len() {
            let keep = self.levels[new_level];
            self.levels.truncate(new_level);
            while self.trail.len() > keep {
                if let Some((cell, t)) = self.trail.pop() {
                    self.undo(cell, t);
                }
            }
        }
        // Propagations whose reason is still true stay; the others go.
        let value = &self.value;
        self.queue.retain(|&(_, r)| value[r as usize] == 1);
        self.giving = None;
        // Counting clauses found on the assignment undone may no longer be unit or false.
        self.pending.retain(|(_, forgettable)| !forgettable);
        self.dirty = true;
    }

    fn check_found_model(&mut self, model: &[i32]) -> bool {
        let mut on = vec![false; self.cells];
        for &lit in model {
            let v = lit.unsigned_abs() as usize;
            if lit > 0 && v <= self.cells {
                on[v - 1] = true;
            }
        }
        let mut ok = true;
        for line in &self.lines.cells {
            let mut first: Option<u32> = None;
            for &c in line {
                if on[c as usize] {
                    match first {
                        None => first = Some(c),
                        Some(a) => {
                            self.pending
                                .push((vec![-(a as i32 + 1), -(c as i32 + 1)], false));
                            ok = false;
                            break;
                        }
                    }
                }
            }
        }
        if !ok {
            self.counters.conflicts.fetch_add(1, Ordering::Relaxed);
        }
        ok
    }

    fn propagate(&mut self) -> i32 {
        while let Some((cell, reason)) = self.queue.pop() {
            let (c, r) = (cell as usize, reason as usize);
            if self.value[r] != 1 {
                continue;
            }
            // Already false: nothing to do (a conflict is a true cell, propagated false).
            if self.value[c] == -1 {
                continue;
            }
            self.reason[c] = reason + 1;
            self.counters.propagations.fetch_add(1, Ordering::Relaxed);
            return -(cell as i32 + 1);
        }
        0
    }

    fn add_reason_clause_lit(&mut self, propagated: i32) -> i32 {
        let step = match self.giving {
            Some((lit, k)) if lit == propagated => k,
            _ => 0,
        };
        let cell = propagated.unsigned_abs() as usize - 1;
        let out = match step {
            0 => {
                self.counters.reasons.fetch_add(1, Ordering::Relaxed);
                propagated
            }
            1 => -(self.reason[cell] as i32),
            _ => 0,
        };
        self.giving = if out == 0 {
            None
        } else {
            Some((propagated, step + 1))
        };
        out
    }

    fn has_external_clause(&mut self, forgettable: &mut bool) -> bool {
        if !self.adding.is_empty() {
            *forgettable = self.adding_forgettable;
            return true;
        }
        let any = self.arguments.counting || self.arguments.sums || self.arguments.moments;
        if self.pending.is_empty() && any && self.dirty {
            self.count();
        }
        match self.pending.pop() {
            Some((clause, forget)) => {
                if !forget {
                    self.counters.model_clauses.fetch_add(1, Ordering::Relaxed);
                }
                self.adding = std::iter::once(0).chain(clause.into_iter().rev()).collect();
                self.adding_forgettable = forget;
                *forgettable = forget;
                true
            }
            None => {
                *forgettable = false;
                false
            }
        }
    }

    fn add_external_clause_lit(&mut self) -> i32 {
        self.adding.pop().unwrap_or(0)
    }
}

/// CaDiCaL with the queens propagator attached: a [`Solver`] for the pairwise cell model of
/// an instance (see the module documentation). Build it with [`PropagatorSolver::new`], then
/// hand it to [`crate::solve::solve_model_with_solver`] or an enumeration
/// ([`crate::solve::Enumeration::solver`]).
pub struct PropagatorSolver {
    inner: CadicalSolver,
    lines: Arc<Lines>,
    cells: usize,
    counters: Arc<Counters>,
    kept: u64,
    replaced: u64,
}

/// Why an instance cannot go to the propagator engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PropagatorError {
    /// The instance's model is not the pairwise cell model.
    #[error("the propagator engine takes the cell model with the pairwise at-most-one encoding and no symmetry breaking (the default model); this instance is {0}")]
    Model(String),
}

impl PropagatorSolver {
    /// A solver for instance `f` (its board size and geometry; its clauses come through
    /// [`Solver::add_clause`]), with CaDiCaL's options by name and the propagator's own
    /// ([`COUNTING_OPTION`]). Refuses an instance whose
    /// model is not the pairwise cell model without symmetry breaking, the formula whose
    /// at-most-one clauses the propagator replaces.
    pub fn new(f: &dyn Formula, options: &[SolverOption]) -> Result<PropagatorSolver, SolveError> {
        let (arguments, cadical) = split_options(options).map_err(SolveError::Option)?;
        PropagatorSolver::on(
            f,
            CadicalSolver::with_own_defaults(&cadical)?,
            arguments,
            None,
        )
    }

    /// The propagator attached to `inner`, a CaDiCaL with its options set (and its proof
    /// tracer connected, which CaDiCaL allows only before the propagator's variables), with
    /// the search's `arguments` it is to use (none when a DRAT or LRAT proof is written: see
    /// the module documentation), and where the failed bounds go for a VeriPB certificate.
    pub(crate) fn on(
        f: &dyn Formula,
        mut inner: CadicalSolver,
        arguments: Arguments,
        bounds: Option<Arc<Mutex<Vec<Bound>>>>,
    ) -> Result<PropagatorSolver, SolveError> {
        check_model(f).map_err(|e| SolveError::Solver(e.to_string()))?;
        let n = f.n();
        let lines = Arc::new(Lines::new(n, f.geometry()));
        let counters = Arc::new(Counters::default());
        let solver = inner.inner();
        solver.connect_external_propagator(Box::new(QueensPropagator::new(
            Arc::clone(&lines),
            Arc::clone(&counters),
            arguments,
            bounds,
        )));
        for v in 1..=(n * n) as i32 {
            solver.add_observed_var(v);
        }
        Ok(PropagatorSolver {
            inner,
            lines,
            cells: n * n,
            counters,
            kept: 0,
            replaced: 0,
        })
    }

    /// The CaDiCaL underneath, to take its proof tracer back.
    pub(crate) fn cadical(&mut self) -> &mut super::cadical::Cadical {
        self.inner.inner()
    }

    /// What the propagator did so far.
    pub fn stats(&self) -> PropagatorStats {
        PropagatorStats {
            propagations: self.counters.propagations.load(Ordering::Relaxed),
            reasons: self.counters.reasons.load(Ordering::Relaxed),
            conflicts: self.counters.conflicts.load(Ordering::Relaxed),
            model_clauses: self.counters.model_clauses.load(Ordering::Relaxed),
            counting_clauses: self.counters.counting_clauses.load(Ordering::Relaxed),
            sum_clauses: self.counters.sum_clauses.load(Ordering::Relaxed),
            moment_clauses: self.counters.moment_clauses.load(Ordering::Relaxed),
            clauses_replaced: self.replaced,
            clauses_kept: self.kept,
        }
    }

    /// `true` when the clause is an at-most-one pair of the propagator's: `-a -b` for two
    /// cells on one line.
    fn is_pair(&self, clause: &[Lit]) -> bool {
        let [a, b] = clause else { return false };
        if a.is_positive() || b.is_positive() {
            return false;
        }
        let (x, y) = (a.index(), b.index());
        x != y && x < self.cells && y < self.cells && self.lines.share(x, y)
    }
}

/// `Ok` when `inst` is the pairwise cell model of the catalogue (no redundant clauses or
/// constraints) without symmetry breaking.
pub fn check_model(inst: &dyn Formula) -> Result<(), PropagatorError> {
    use crate::encode::{Amo, EncodeOptions, LineEncodings, Model};
    let reference = Model::cells(EncodeOptions {
        amo: LineEncodings::uniform(Amo::PAIRWISE),
        column_alo: false,
    });
    let pairwise = inst.model() == Some(&reference);
    if !pairwise || inst.symmetry_breaking().is_on() {
        return Err(PropagatorError::Model(inst.name()));
    }
    Ok(())
}

impl Solver for PropagatorSolver {
    fn add_clause(&mut self, clause: &[Lit]) {
        if self.is_pair(clause) {
            self.replaced += 1;
            return;
        }
        self.kept += 1;
        self.inner.add_clause(clause);
    }

    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Result<bool, SolveError> {
        self.inner.solve(assumptions, budget)
    }

    fn model(&mut self, vars: usize) -> Result<Vec<Lit>, SolveError> {
        self.inner.model(vars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every solution of the empty `n` x `n` board (square or torus), each as the column of
    /// the queen of every row, by brute force over the permutations.
    fn solutions(n: usize, geometry: Geometry) -> Vec<Vec<usize>> {
        use itertools::Itertools;
        (0..n)
            .permutations(n)
            .filter(|cols| {
                let mut seen = std::collections::HashSet::new();
                cols.iter().enumerate().all(|(r, &c)| {
                    seen.insert((0, geometry.diagonal(n, r, c)))
                        && seen.insert((1, geometry.anti_diagonal(n, r, c)))
                })
            })
            .collect()
    }

    /// Each clause of the arguments (counting and sums) holds in every solution of the board:
    /// from partial assignments, half of them extended by a solution (some of its queens true,
    /// some cells off it false) and half at random, every clause the propagator gives is
    /// checked against every solution. A clause that some solution breaks would cut that
    /// solution off.
    #[test]
    fn every_argument_clause_holds_in_every_solution() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |k: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k as u64) as usize
        };
        let mut given = [0u64; 3];
        for (n, geometry) in [
            (5, Geometry::Square),
            (6, Geometry::Square),
            (7, Geometry::Square),
            (8, Geometry::Square),
            (5, Geometry::Toroidal),
            (7, Geometry::Toroidal),
        ] {
            let all = solutions(n, geometry);
            assert!(!all.is_empty());
            let holds = |clause: &[i32], sol: &[usize]| {
                clause.iter().any(|&lit| {
                    let cell = lit.unsigned_abs() as usize - 1;
                    let on = sol[cell / n] == cell % n;
                    on == (lit > 0)
                })
            };
            for trial in 0..300 {
                let sol = &all[trial % all.len()];
                let lines = Arc::new(Lines::new(n, geometry));
                let counters = Arc::new(Counters::default());
                let mut p =
                    QueensPropagator::new(lines, Arc::clone(&counters), Arguments::ALL, None);
                // Half of the trials keep to the solution (true cells of it, false cells off
                // it); the other half are any cells, which no solution need extend.
                let any = trial % 2 == 1;
                let mut lits = Vec::new();
                for (r, &col) in sol.iter().enumerate() {
                    let queen = if any { next(n) } else { col };
                    if next(3) == 0 {
                        lits.push((r * n + queen) as i32 + 1);
                    }
                    for c in 0..n {
                        if c != queen && next(2) == 0 {
                            lits.push(-((r * n + c) as i32 + 1));
                        }
                    }
                }
                p.notify_assignment(&lits);
                let mut forgettable = false;
                while p.has_external_clause(&mut forgettable) {
                    let mut clause = Vec::new();
                    loop {
                        match p.add_external_clause_lit() {
                            0 => break,
                            lit => clause.push(lit),
                        }
                    }
                    // The clause holds in every solution.
                    for other in &all {
                        assert!(
                            holds(&clause, other),
                            "n = {n} {geometry:?}: {clause:?} breaks {other:?} (from {lits:?})"
                        );
                    }
                    // The assignment stays: a second count would give the same clauses.
                    p.dirty = false;
                }
                given[0] += counters.counting_clauses.load(Ordering::Relaxed);
                given[1] += counters.sum_clauses.load(Ordering::Relaxed);
                given[2] += counters.moment_clauses.load(Ordering::Relaxed);
            }
        }
        assert!(given.iter().all(|&g| g > 0), "{given:?}");
    }

    #[test]
    fn lines_of_the_square_and_the_torus() {
        let sq = Lines::new(4, Geometry::Square);
        // (0,0) and (3,3) share the `\` diagonal; (0,1) and (2,0) share none.
        assert!(sq.share(0, 15));
        assert!(!sq.share(1, 8));
        let torus = Lines::new(4, Geometry::Toroidal);
        // On the torus (0,1) and (3,2) share the `/` diagonal 1 (3 + 2 = 1 mod 4).
        assert!(torus.share(1, 14));
        assert!(!sq.share(1, 14));
    }
}
