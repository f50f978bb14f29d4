//! All solutions: enumeration with blocking clauses, split into independent sub-problems.
//!
//! Every solution has exactly one queen in each of the first `k` rows, so fixing those queens
//! (unit clauses on the cell variables) splits the solution set into disjoint parts, one per
//! non-attacking choice of the first `k` columns. Each part gets its own solver; the parts run
//! in parallel (rayon) and each solver only ever sees the blocking clauses of its own part.
//! A part's solver is loaded with the formula reduced by unit propagation from the part's
//! queens (the module `reduce`): most clauses are satisfied by them, and a part that
//! propagation alone refutes costs no search.
//!
//! After each model the solver gets the blocking clause "not this board": for each row the
//! negation of the literals that put its queen in its column ([`blocking_clause`]; for the
//! cell model the negation of the n true cell literals). One queen per row makes this enough to
//! exclude exactly that board, and because it mentions projection variables only, the
//! auxiliary variables of an encoding can never make the same board count twice.
//!
//! Every model is decoded and checked as a board of the instance; a model that is not a
//! solution ends the enumeration with [`SolveError::BadModel`] (the cross-checks rely on this to
//! catch broken encodings with the same code that `solve --all` runs).
//!
//! The parts' solvers are of one [`Backend`] ([`Enumeration::backend`]) or a user's own
//! ([`Enumeration::solver`]); the code above drives them through the [`Solver`] trait, so
//! enumeration and counting are the same whatever the solver. A time limit ([`Enumeration::time_limit`]) or an interruption ends the
//! enumeration with [`SolveError::Stopped`].

use super::backend::{Backend, Budget, Solver, SolverSource};
use super::reduce::Propagator;
use super::{decode_model, SolveError};
use crate::board::Placement;
use crate::instance::{blocking_clause, Formula};
use rayon::prelude::*;
use std::sync::Arc;

/// How many leading rows to split on by default: none for tiny boards (the whole search is
/// instant); three to five where full enumeration is feasible, so that each part has a few
/// solutions at most (with parts reduced by unit propagation, n = 13 and 14 count in 0.8x and
/// 0.55x the CPU time with 5 rows than with 4; n = 12 is faster with 4); fewer for large
/// boards, where only a few solutions are ever asked for (`--limit`) and the list of parts must
/// stay short.
pub fn default_split_rows(n: usize) -> usize {
    match n {
        0..=5 => 0,
        6..=7 => 1,
        8..=9 => 2,
        10..=11 => 3,
        12 => 4,
        13..=15 => 5,
        16..=20 => 4,
        21..=40 => 2,
        _ => 1,
    }
}

/// The most sub-problems a split may make: the prefixes are listed in memory.
pub const MAX_PARTS: u64 = 1_000_000;

/// The deepest split on `n` rows that keeps at most [`MAX_PARTS`] prefixes (`n^k` bounds
/// their number).
pub fn max_split_rows(n: usize) -> usize {
    let mut k = 0;
    let mut parts: u64 = 1;
    while k < n {
        parts = parts.saturating_mul(n as u64);
        if parts > MAX_PARTS {
            break;
        }
        k += 1;
    }
    k
}

/// The prefixes (columns of the first `k` rows) that can start a solution of `f`: the queens
/// of the prefix do not attack each other, sit on no forbidden cell, and agree with the placed
/// queens of those rows. Listed in lexicographic order.
fn prefixes(f: &dyn Formula, k: usize) -> Vec<Vec<usize>> {
    let n = f.n();
    let (place, forbid) = f.fixed();
    let geometry = f.geometry();
    let forbid: std::collections::HashSet<(usize, usize)> = forbid.iter().copied().collect();
    let k = k.min(n);
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(k);
    let allowed = |r: usize, c: usize, cur: &[usize]| {
        !forbid.contains(&(r, c))
            && !place.iter().any(|&(pr, pc)| pr == r && pc != c)
            && !cur
                .iter()
                .enumerate()
                .any(|(r0, &c0)| geometry.shared_line(n, (r0, c0), (r, c)).is_some())
    };
    fn rec(
        n: usize,
        k: usize,
        allowed: &dyn Fn(usize, usize, &[usize]) -> bool,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        let r = cur.len();
        if r == k {
            out.push(cur.clone());
            return;
        }
        for c in 0..n {
            if allowed(r, c, cur) {
                cur.push(c);
                rec(n, k, allowed, cur, out);
                cur.pop();
            }
        }
    }
    rec(n, k, &allowed, &mut cur, &mut out);
    out
}

/// One sub-problem: a solver with the formula, the partial board and the prefix fixed.
struct Part {
    formula: Arc<dyn Formula>,
    solver: Box<dyn Solver>,
    budget: Budget,
    done: bool,
}

impl Part {
    /// The part of `prefix`: with a propagator, its solver gets the formula reduced by the
    /// prefix's literals (and a part that propagation refutes gets no solver work at all);
    /// without one, the whole formula and the literals as unit clauses.
    fn new(
        formula: &Arc<dyn Formula>,
        propagator: Option<&Propagator>,
        prefix: &[usize],
        source: &SolverSource,
        budget: Budget,
    ) -> Result<Part, SolveError> {
        let fixed: Vec<_> = prefix
            .iter()
            .enumerate()
            .flat_map(|(r, &c)| formula.value_lits(r, c))
            .collect();
        let (solver, done) = match propagator {
            Some(p) => {
                let mut solver = source.make(&budget)?;
                let consistent = p.load(&fixed, solver.as_mut());
                (solver, !consistent)
            }
            None => {
                let mut solver = source.loaded(formula.as_ref(), &budget)?;
                for &l in &fixed {
                    solver.add_clause(&[l]);
                }
                (solver, false)
            }
        };
        Ok(Part {
            formula: Arc::clone(formula),
            solver,
            budget,
            done,
        })
    }

    fn next_solution(&mut self) -> Result<Option<Placement>, SolveError> {
        if self.done {
            return Ok(None);
        }
        let sat = self.solver.solve(&[], &self.budget)?;
        if !sat {
            self.done = true;
            return Ok(None);
        }
        let lits = self.solver.model(self.formula.num_vars() as usize)?;
        let p = match decode_model(self.formula.as_ref(), &lits) {
            Ok(p) => p,
            Err(e) => {
                self.done = true;
                return Err(e);
            }
        };
        let blocking = blocking_clause(self.formula.as_ref(), &p);
        self.solver.block(&blocking);
        Ok(Some(p))
    }

    /// Up to `cap` solutions of this part, in the order the solver finds them.
    fn collect(mut self, cap: u64) -> Result<Vec<Placement>, SolveError> {
        let mut v = Vec::new();
        while (v.len() as u64) < cap {
            match self.next_solution()? {
                Some(p) => v.push(p),
                None => break,
            }
        }
        Ok(v)
    }
}

/// An iterator over all solutions, one sub-problem after the other (see the module doc).
///
/// Made by [`solutions`] or [`Enumeration::iter`]. Items are `Err` if the embedded solver
/// fails, which it is not expected to do, or stops at the time limit or on an interruption
/// ([`SolveError::Stopped`]); the iterator ends after an error.
pub struct Solutions {
    formula: Arc<dyn Formula>,
    propagator: Option<Arc<Propagator>>,
    source: SolverSource,
    budget: Budget,
    prefixes: std::vec::IntoIter<Vec<usize>>,
    current: Option<Part>,
    failed: bool,
}

impl Iterator for Solutions {
    type Item = Result<Placement, SolveError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            if let Some(part) = self.current.as_mut() {
                match part.next_solution() {
                    Ok(Some(p)) => return Some(Ok(p)),
                    Ok(None) => self.current = None,
                    Err(e) => {
                        self.failed = true;
                        return Some(Err(e));
                    }
                }
            }
            let prefix = self.prefixes.next()?;
            match Part::new(
                &self.formula,
                self.propagator.as_deref(),
                &prefix,
                &self.source,
                self.budget,
            ) {
                Ok(p) => self.current = Some(p),
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// Every solution of the instance, lazily, in a deterministic order (for a given backend:
/// [`Backend::for_enumeration`] here).
///
/// ```
/// use queens_sat::instance::{Instance, Model};
/// use queens_sat::solve::solutions;
/// let all: Vec<_> = solutions(&Instance::new(4, Model::default()).unwrap())
///     .collect::<Result<_, _>>().unwrap();
/// assert_eq!(all.len(), 2);
/// ```
pub fn solutions<F: Formula + Clone + 'static>(f: &F) -> Solutions {
    Enumeration::new(f.clone()).iter()
}

/// The number of solutions of the instance, counted in parallel with [`Backend::for_enumeration`].
pub fn count_solutions<F: Formula + Clone + 'static>(f: &F) -> Result<u64, SolveError> {
    Enumeration::new(f.clone()).count(|_| {})
}

/// How far an enumeration has got, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Sub-problems finished.
    pub parts_done: usize,
    /// Sub-problems in all.
    pub parts_total: usize,
    /// Solutions found so far.
    pub solutions: u64,
}

/// An enumeration with its settings: how many leading rows to split on, how many threads, an
/// optional limit on the number of solutions, the backend and an optional time limit.
#[derive(Clone)]
pub struct Enumeration {
    formula: Arc<dyn Formula>,
    split_rows: usize,
    threads: Option<usize>,
    limit: Option<u64>,
    source: SolverSource,
    time_limit: Option<std::time::Duration>,
    propagate: bool,
}

/// The largest n whose parts get a formula reduced by unit propagation: the reduction keeps a
/// copy of the formula in memory, and beyond this the default split is a single row (few parts,
/// where the copy would cost more than it saves).
pub const PROPAGATE_MAX_N: usize = 40;

impl Enumeration {
    /// An enumeration of the solutions of `formula` with default settings (split on
    /// [`default_split_rows`] rows, all cores, no limit, [`Backend::for_enumeration`], no time limit).
    pub fn new(formula: impl Formula + 'static) -> Self {
        Self::shared(Arc::new(formula))
    }

    /// Like [`Enumeration::new`], for a formula already shared.
    pub fn shared(formula: Arc<dyn Formula>) -> Self {
        let split_rows = default_split_rows(formula.n());
        Enumeration {
            formula,
            split_rows,
            threads: None,
            limit: None,
            source: SolverSource::Builtin(Backend::for_enumeration()),
            time_limit: None,
            propagate: true,
        }
    }

    /// Whether each part's solver gets the formula reduced by unit propagation from the part's
    /// fixed queens (default) or the whole formula with the queens as unit clauses. The answers
    /// are the same; the reduction is what makes thousands of small parts cheap. It applies
    /// when the enumeration is split and n is at most [`PROPAGATE_MAX_N`].
    pub fn propagate(mut self, on: bool) -> Self {
        self.propagate = on;
        self
    }

    /// The propagator for the parts, when they get reduced formulas.
    fn propagator(&self) -> Option<Arc<Propagator>> {
        (self.propagate && self.split_rows > 0 && self.formula.n() <= PROPAGATE_MAX_N)
            .then(|| Arc::new(Propagator::new(self.formula.as_ref())))
    }

    /// Solves the parts with the given backend.
    pub fn backend(mut self, backend: Backend) -> Self {
        self.source = SolverSource::Builtin(backend);
        self
    }

    /// Solves the parts with the given backend and options (see [`Backend::solver_with`]).
    pub fn backend_with_options(
        mut self,
        backend: Backend,
        options: &[super::SolverOption],
    ) -> Self {
        self.source = if options.is_empty() {
            SolverSource::Builtin(backend)
        } else {
            SolverSource::BuiltinWith(backend, options.into())
        };
        self
    }

    /// Solves the parts with solvers of the user's own: `make` is called for each part (from
    /// several threads at once), and each solver gets that part's clauses, solve calls and
    /// blocking clauses (see [`Solver`] and the example in [`crate::solve`]).
    pub fn solver<S: Solver + 'static>(
        mut self,
        make: impl Fn() -> S + Send + Sync + 'static,
    ) -> Self {
        self.source = SolverSource::Custom(Arc::new(move || Box::new(make()) as Box<dyn Solver>));
        self
    }

    /// Stops with [`SolveError::Stopped`] once `limit` has passed (counted from the start of
    /// [`Enumeration::count`], [`Enumeration::for_each_batch`] or [`Enumeration::iter`]).
    /// Both backends stop inside a search (see [`Budget`]).
    pub fn time_limit(mut self, limit: Option<std::time::Duration>) -> Self {
        self.time_limit = limit;
        self
    }

    /// Splits on the first `k` rows (0: one solver for everything, the plain method), at most
    /// [`max_split_rows`] (a deeper split is clamped, so the list of parts stays bounded).
    pub fn split_rows(mut self, k: usize) -> Self {
        self.split_rows = k.min(max_split_rows(self.formula.n()));
        self
    }

    /// Uses `t` worker threads (default: rayon's global pool, one per core).
    pub fn threads(mut self, t: usize) -> Self {
        self.threads = Some(t.max(1));
        self
    }

    /// Stops after `k` solutions.
    pub fn limit(mut self, k: Option<u64>) -> Self {
        self.limit = k;
        self
    }

    /// Number of sub-problems.
    pub fn parts(&self) -> usize {
        prefixes(self.formula.as_ref(), self.split_rows).len()
    }

    /// The solutions one by one, sequentially (the limit is not applied; use `take`).
    pub fn iter(&self) -> Solutions {
        Solutions {
            formula: Arc::clone(&self.formula),
            propagator: self.propagator(),
            source: self.source.clone(),
            budget: Budget::from_limit(self.time_limit),
            prefixes: prefixes(self.formula.as_ref(), self.split_rows).into_iter(),
            current: None,
            failed: false,
        }
    }

    /// Counts the solutions (up to the limit), reporting progress after each batch.
    pub fn count(&self, mut progress: impl FnMut(Progress)) -> Result<u64, SolveError> {
        let mut total = 0u64;
        self.run::<SolveError>(
            |batch| {
                total += batch.len() as u64;
                Ok(true)
            },
            &mut progress,
        )?;
        Ok(total)
    }

    /// Runs the enumeration in parallel and hands the solutions to `sink` in batches, in the
    /// same order as [`Enumeration::iter`] (deterministic, whatever the number of threads).
    /// Stops at the limit or when `sink` returns `Ok(false)`; an error from `sink` is returned.
    pub fn for_each_batch<E: From<SolveError>>(
        &self,
        mut sink: impl FnMut(Vec<Placement>) -> Result<bool, E>,
        mut progress: impl FnMut(Progress),
    ) -> Result<(), E> {
        self.run(&mut sink, &mut progress)
    }

    fn run<E: From<SolveError>>(
        &self,
        mut sink: impl FnMut(Vec<Placement>) -> Result<bool, E>,
        progress: &mut impl FnMut(Progress),
    ) -> Result<(), E> {
        let pool = match self.threads {
            Some(t) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| SolveError::Threads(e.to_string()))?,
            ),
            None => None,
        };
        let threads = pool
            .as_ref()
            .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
        let budget = Budget::from_limit(self.time_limit);
        let all = prefixes(self.formula.as_ref(), self.split_rows);
        let propagator = self.propagator();
        // Batches keep the output in order and let the limit stop the work early; without a
        // limit they are larger so the threads stay busy.
        let batch = if self.limit.is_some() {
            threads * 2
        } else {
            (threads * 64).max(256)
        };
        let mut found = 0u64;
        let mut done = 0usize;
        for chunk in all.chunks(batch) {
            let cap = self.limit.map_or(u64::MAX, |l| l - found);
            if cap == 0 {
                break;
            }
            let work = || -> Result<Vec<Vec<Placement>>, SolveError> {
                chunk
                    .par_iter()
                    .map(|prefix| {
                        Part::new(
                            &self.formula,
                            propagator.as_deref(),
                            prefix,
                            &self.source,
                            budget,
                        )?
                        .collect(cap)
                    })
                    .collect()
            };
            let results = match &pool {
                Some(p) => p.install(work),
                None => work(),
            }?;
            done += chunk.len();
            let mut keep_going = true;
            for mut sols in results {
                let room = self.limit.map_or(u64::MAX, |l| l - found);
                if (sols.len() as u64) > room {
                    sols.truncate(room as usize);
                }
                found += sols.len() as u64;
                if !sols.is_empty() && !sink(sols)? {
                    keep_going = false;
                    break;
                }
                if self.limit.is_some_and(|l| found >= l) {
                    keep_going = false;
                    break;
                }
            }
            progress(Progress {
                parts_done: done,
                parts_total: all.len(),
                solutions: found,
            });
            if !keep_going {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{Instance, Model};

    fn board(n: usize) -> Instance {
        Instance::new(n, Model::default()).unwrap()
    }

    #[test]
    fn prefixes_are_non_attacking_and_respect_the_partial_board() {
        let p = prefixes(&board(5), 2);
        // 5 * 5 pairs minus same column (5) minus diagonal neighbours (2 * 4).
        assert_eq!(p.len(), 25 - 5 - 8);
        let inst = board(5).with_cells(&[(1, 3)], &[(0, 0)]).unwrap();
        let p = prefixes(&inst, 2);
        assert!(p.iter().all(|q| q[1] == 3 && q[0] != 0));
        // Row 0: column 0 is forbidden, 3 shares the column of (2,4), 2 and 4 its diagonals.
        assert_eq!(p, vec![vec![1, 3]]);
        assert_eq!(prefixes(&board(1), 2), vec![vec![0]]);
    }

    #[test]
    fn split_depths_agree() {
        for n in 1..=8 {
            let counts: Vec<u64> = (0..=3)
                .map(|k| {
                    Enumeration::new(board(n))
                        .split_rows(k)
                        .count(|_| {})
                        .unwrap()
                })
                .collect();
            assert!(counts.iter().all(|&c| c == counts[0]), "n={n}: {counts:?}");
        }
    }

    #[test]
    fn limit_and_order_are_deterministic() {
        let e = Enumeration::new(board(8));
        let seq: Vec<Placement> = e.iter().map(|r| r.unwrap()).collect();
        for threads in [1, 2, 3] {
            let mut par = Vec::new();
            e.clone()
                .threads(threads)
                .limit(Some(17))
                .for_each_batch::<SolveError>(
                    |b| {
                        par.extend(b);
                        Ok(true)
                    },
                    |_| {},
                )
                .unwrap();
            assert_eq!(par, seq[..17]);
        }
    }

    #[test]
    fn reduced_parts_give_the_same_solutions() {
        use crate::board::Geometry;
        use crate::encode::{Amo, ColumnOptions, Domain, EncodeOptions, LineEncodings};
        let cells = |amo| {
            Model::cells(EncodeOptions {
                amo: LineEncodings::uniform(amo),
                column_alo: false,
            })
        };
        let columns = |domain| {
            Model::columns(ColumnOptions {
                domain,
                ..ColumnOptions::default()
            })
        };
        let models = [
            cells(Amo::PAIRWISE),
            cells(Amo::SEQUENTIAL),
            cells(Amo::BINARY),
            columns(Domain::DIRECT),
            columns(Domain::ORDER),
            columns(Domain::LOG),
        ];
        let sorted = |e: Enumeration| {
            let mut v: Vec<Placement> = e.iter().map(|r| r.unwrap()).collect();
            v.sort();
            v
        };
        for model in models {
            for n in 1..=9 {
                let mut instances = vec![Instance::new(n, model).unwrap()];
                if n >= 5 {
                    instances.push(
                        Instance::new(n, model)
                            .unwrap()
                            .with_cells(&[(n - 1, 1)], &[(0, 0), (2, n - 2)])
                            .unwrap(),
                    );
                    instances.push(Instance::new_on(n, model, Geometry::Toroidal).unwrap());
                }
                for inst in instances {
                    for k in [1, 2, 3] {
                        let e = Enumeration::new(inst.clone()).split_rows(k);
                        let with = sorted(e.clone());
                        let without = sorted(e.clone().propagate(false));
                        assert_eq!(with, without, "{model} n={n} k={k}");
                        assert_eq!(e.count(|_| {}).unwrap(), with.len() as u64);
                    }
                }
            }
        }
    }
}
