//! The propagator engine's refutations as VeriPB certificates: CaDiCaL with the queens
//! propagator and its arguments (the counts of live diagonals, the bounds on their sums and
//! second moments, the colour classes) solves the pairwise cell model, and its proof events
//! become a pseudo-Boolean proof in the format of the VeriPB checker (version 3.0) against the
//! instance's OPB form with the counts, sums and moments
//! ([`crate::instance::certificate_form`]), the form the search's certificates and Exact's
//! translated logs refer to.
//!
//! Every clause CaDiCaL holds follows from that form, and the certificate says how:
//!
//! * The formula's clauses (a row's at-least-one, the units of placed and forbidden cells) and
//!   the at-most-one pairs the propagator gives as reasons need no line: unit propagation on
//!   the form's own constraints (a row `= 1`, a line's at most one) propagates whatever they
//!   do, so every step that uses them checks without them.
//! * A clause of the counting argument, or a clause added on a complete model, is a `rup`
//!   step: unit propagation on the counts of occupied diagonals (`sum o = n` over the
//!   occupancies `o`, each the number of queens on its diagonal) refutes its negation; a
//!   counting clause names its direction's count as its hint.
//! * A clause of the bounds on the sums or the moments is a `rup` step after the
//!   cutting-planes step (`pol`) that makes its bound propagate
//!   ([`crate::proof::OpbAnchors::combination`]: the sum's or the moments' equality plus the
//!   thresholds times the counts), written at the bound's first use and kept (a forgotten
//!   clause may be given again); every clause of the bound names that step as its hint.
//! * A clause of the colour classes is a `rup` step after the case split on the number of
//!   queens on colour 0 ([`crate::proof::ClassProof`]): its order variables and the classes'
//!   counts at the first such clause, then one cutting-planes step per case, each written once
//!   and named as a hint by every clause that needs it.
//! * Each clause CaDiCaL learns or derives is a `rup` step (it is RUP with respect to the
//!   clauses before it, and the form propagates at least as much as those clauses do), with
//!   CaDiCaL's antecedents as hints, each named by what stands for it: its step, or for a
//!   formula clause or an at-most-one reason the form's constraint that propagates what it
//!   does (a row's `>=` half, a line's at most one, a cell's unit), so that VeriPB propagates
//!   over those alone; its deletion is a deletion (`del id`).
//! * The empty clause concludes: `conclusion UNSAT`.
//!
//! The checker trusts none of this: a clause that does not follow is rejected at its step.

use super::cadical::SharedTracer;
use super::proof::{checked_model, Counting, ProofError, ProofOutcome};
use super::propagator::{check_model, occupancy_variables, split_options, PropagatorSolver};
use super::{SolveError, SolverOption};
use crate::instance::{certificate_form, Formula, Instance};
use crate::proof::{Bound, ClassProof, ClassStep, OpbAnchors};
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// What a propagator's certificate holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CertificateStats {
    /// Its rules (`pol` and `rup`; deletions not counted).
    pub rules: u64,
    /// Of them, the cutting-planes steps of the bounds on the sums.
    pub bounds: u64,
    /// The propagator's clauses written as `rup` steps (counting, sums, complete models).
    pub propagator_clauses: u64,
    /// The clauses CaDiCaL derived, written as `rup` steps.
    pub derived: u64,
    /// Of them, those with hints (CaDiCaL's antecedents, each named by the constraint that
    /// stands for it).
    pub hinted: u64,
    /// Its bytes.
    pub bytes: u64,
}

/// A certificate written by [`certify_with_propagator`].
#[derive(Debug)]
pub struct Certificate<W> {
    /// No solution (the certificate is complete), or the solution found.
    pub outcome: ProofOutcome,
    /// The writer the certificate went to.
    pub proof: W,
    /// What it holds.
    pub stats: CertificateStats,
    /// What the propagator did.
    pub propagator: super::propagator::PropagatorStats,
}

/// Solves the pairwise cell model of `inst` with the queens propagator and its arguments (as
/// `options` set them, with CaDiCaL's options), writing a VeriPB certificate against
/// [`certificate_form`] of `inst` to `proof` (see the module documentation). What was written
/// is a certificate only when the outcome is [`ProofOutcome::Unsat`].
pub fn certify_with_propagator<W: Write + Send + 'static>(
    inst: &Instance,
    options: &[SolverOption],
    proof: W,
) -> Result<Certificate<W>, ProofError> {
    check_model(inst).map_err(|e| SolveError::Solver(e.to_string()))?;
    let unmade = |e: &dyn std::fmt::Display| ProofError::Write(e.to_string());
    let form = certificate_form(inst).map_err(|e| unmade(&e))?;
    let (_, _, anchors) = form.opb_form().map_err(|e| unmade(&e))?;
    let square = inst.geometry() == crate::board::Geometry::Square;
    if let Some(missing) = anchors.bounds_missing(square && inst.n() > 1) {
        return Err(ProofError::Write(format!("the OPB form has no {missing}")));
    }
    if anchors.occupancy != occupancy_variables(inst.n(), inst.geometry()) {
        return Err(ProofError::Write(
            "the OPB form numbers the diagonals' occupancies otherwise than the propagator".into(),
        ));
    }
    let (arguments, cadical_options) = split_options(options).map_err(SolveError::Option)?;
    let bounds = Arc::new(Mutex::new(Vec::new()));
    let loading = Arc::new(AtomicBool::new(true));
    let mut trace = PbTrace {
        out: io::BufWriter::with_capacity(
            1 << 16,
            Counting {
                inner: proof,
                bytes: 0,
            },
        ),
        n: inst.n(),
        geometry: inst.geometry(),
        last: anchors.ids,
        anchors,
        ids: HashMap::new(),
        loading: Arc::clone(&loading),
        bounds: Arc::clone(&bounds),
        written: HashMap::new(),
        classes: None,
        cases: HashMap::new(),
        empty: None,
        error: None,
        stats: CertificateStats::default(),
    };
    let ids = trace.anchors.ids;
    trace.write(|w| {
        writeln!(w, "pseudo-Boolean proof version 3.0")?;
        writeln!(w, "f {ids} ;")
    });
    let shared = Arc::new(Mutex::new(trace));
    let mut cadical = super::backend::CadicalSolver::with_own_defaults(&cadical_options)?;
    cadical
        .inner()
        .connect_proof_tracer(Box::new(SharedTracer(Arc::clone(&shared))), true)
        .map_err(SolveError::from)?;
    let mut solver = PropagatorSolver::on(inst, cadical, arguments, Some(bounds))?;
    {
        // A solver takes clauses as any clause sink does; adding them cannot fail.
        let mut sink: &mut dyn super::Solver = &mut solver;
        let _ = crate::instance::encode(inst, &mut sink);
    }
    loading.store(false, Ordering::Relaxed);
    let sat = super::Solver::solve(&mut solver, &[], &super::Budget::unlimited())?;
    let vars = inst.num_vars() as usize;
    let model = if sat {
        Some(super::Solver::model(&mut solver, vars)?)
    } else {
        None
    };
    drop(
        solver
            .cadical()
            .disconnect_proof_tracer()
            .ok_or_else(|| ProofError::Write("the proof tracer was lost".into()))?,
    );
    let propagator = solver.stats();
    drop(solver);
    let mut trace = Arc::try_unwrap(shared)
        .map_err(|_| ProofError::Write("the proof tracer is still held".into()))?
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let outcome = match model {
        Some(lits) => checked_model(inst, &lits)?,
        None => {
            // CaDiCaL may stop on a propagator's clause falsified at the root without
            // deriving the empty clause: then the empty clause is left to VeriPB's unit
            // propagation over the certificate.
            let empty = match trace.empty {
                Some(empty) => empty,
                None => trace.rup(&[], &[]),
            };
            trace.write(|w| {
                writeln!(w, "output NONE ;")?;
                writeln!(w, "conclusion UNSAT : {empty} ;")?;
                writeln!(w, "end pseudo-Boolean proof ;")
            });
            ProofOutcome::Unsat { bytes: 0 }
        }
    };
    if let Some(e) = trace.error.take() {
        return Err(ProofError::Write(e));
    }
    let mut stats = trace.stats;
    let counted = trace
        .out
        .into_inner()
        .map_err(|e| ProofError::Write(e.error().to_string()))?;
    stats.bytes = counted.bytes;
    let mut proof = counted.inner;
    proof
        .flush()
        .map_err(|e| ProofError::Write(e.to_string()))?;
    let outcome = match outcome {
        ProofOutcome::Unsat { .. } => ProofOutcome::Unsat { bytes: stats.bytes },
        sat => sat,
    };
    Ok(Certificate {
        outcome,
        proof,
        stats,
        propagator,
    })
}

/// What stands for one of CaDiCaL's clauses in the certificate, to name it as a hint.
#[derive(Clone, Copy)]
enum Stands {
    /// A step of the certificate (deleted when CaDiCaL deletes the clause).
    Step(u64),
    /// A constraint of the form that propagates whatever the clause does (a row's `>= 1`, a
    /// line's at most one, a cell's unit): never deleted.
    Form(u64),
}

impl Stands {
    fn id(self) -> u64 {
        match self {
            Stands::Step(k) | Stands::Form(k) => k,
        }
    }
}

/// CaDiCaL's proof events written as VeriPB steps (see the module documentation).
struct PbTrace<W: Write> {
    out: io::BufWriter<Counting<W>>,
    n: usize,
    geometry: crate::board::Geometry,
    anchors: OpbAnchors,
    /// The last constraint id given.
    last: u64,
    /// CaDiCaL's ids of its clauses to the certificate's constraints that stand for them.
    ids: HashMap<i64, Stands>,
    /// The formula is being loaded: its clauses need no line.
    loading: Arc<AtomicBool>,
    /// The bounds of the propagator's next clause, put there just before it.
    bounds: Arc<Mutex<Vec<Bound>>>,
    /// The step of each bound on the sums and moments written (kept to the end), `None` for
    /// a bound that needs none (the form's constraint propagates it alone).
    written: HashMap<Bound, Option<u64>>,
    /// The colour classes' definitions, once a case is written.
    classes: Option<ClassProof>,
    /// The step of each case of the colour classes written (kept to the end).
    cases: HashMap<ClassStep, u64>,
    /// The id of the empty clause, once derived.
    empty: Option<u64>,
    /// What went wrong first: an I/O error.
    error: Option<String>,
    stats: CertificateStats,
}

impl<W: Write> PbTrace<W> {
    fn write(&mut self, f: impl FnOnce(&mut io::BufWriter<Counting<W>>) -> io::Result<()>) {
        if self.error.is_none() {
            if let Err(e) = f(&mut self.out) {
                self.error = Some(e.to_string());
            }
        }
    }

    /// Writes a rule (`pol ...` or `rup ...`, without ` ;`) and gives it the next id.
    fn rule(&mut self, line: &str) -> u64 {
        self.write(|w| {
            w.write_all(line.as_bytes())?;
            w.write_all(b" ;\n")
        });
        self.last += 1;
        self.stats.rules += 1;
        self.last
    }

    /// The `rup` step of a clause (the empty clause is `rup >= 1`), with the constraints it
    /// follows from as hints (none: VeriPB propagates over everything).
    fn rup(&mut self, clause: &[i32], hints: &[u64]) -> u64 {
        let mut line = String::with_capacity(8 + 8 * clause.len() + 8 * hints.len());
        line.push_str("rup");
        for &lit in clause {
            let neg = if lit < 0 { "~" } else { "" };
            line.push_str(&format!(" 1 {neg}x{}", lit.unsigned_abs()));
        }
        line.push_str(" >= 1");
        if !hints.is_empty() {
            line.push_str(" :");
            for h in hints {
                line.push_str(&format!(" {h}"));
            }
        }
        self.rule(&line)
    }

    /// The id of the cutting-planes step of a case of the colour classes, written at its first
    /// use, after the classes' definitions (written at the first case); `None` for a case
    /// beyond the number of diagonals of class 0 (unit propagation never reaches it), or when
    /// the form lacks what the steps name (an error then).
    fn case(&mut self, step: ClassStep) -> Option<u64> {
        if let Some(&id) = self.cases.get(&step) {
            return Some(id);
        }
        if self.classes.is_none() {
            let Some((proof, lines)) = ClassProof::define(&self.anchors, self.n, self.last + 1)
            else {
                self.error.get_or_insert_with(|| {
                    "the OPB form lacks the colour classes' occupancies".into()
                });
                return None;
            };
            for line in lines {
                self.rule(&line);
            }
            self.classes = Some(proof);
        }
        let classes = self.classes.as_ref()?;
        if classes.beyond(step) {
            return None;
        }
        let Some(line) = classes.step(&self.anchors, step) else {
            self.error.get_or_insert_with(|| {
                "the OPB form lacks the sums the colour classes name".into()
            });
            return None;
        };
        let id = self.rule(&line);
        self.stats.bounds += 1;
        self.cases.insert(step, id);
        Some(id)
    }

    /// The cell (row, column) of a literal of the cells, if it is one.
    fn cell(&self, lit: i32) -> Option<(usize, usize)> {
        let k = lit.unsigned_abs() as usize;
        (k >= 1 && k <= self.n * self.n).then(|| ((k - 1) / self.n, (k - 1) % self.n))
    }

    /// The `<=` halves of the definitions of the occupancies of the two diagonals through the
    /// cell of `lit` (none for a literal of no cell, or a diagonal of that one cell, whose
    /// occupancy is the cell itself).
    fn cell_definitions(&self, lit: i32) -> Vec<u64> {
        let Some((r, c)) = self.cell(lit) else {
            return Vec::new();
        };
        let (n, g) = (self.n, self.geometry);
        [g.diagonal(n, r, c), g.anti_diagonal(n, r, c)]
            .into_iter()
            .enumerate()
            .filter_map(|(d, i)| {
                let o = (*self.anchors.occupancy[d].get(i)?)?;
                Some(self.anchors.definitions.get(&o)? + 1)
            })
            .collect()
    }

    /// Whether a cell (row, column) lies on the diagonal whose occupancy is the variable of
    /// `o`; `None` when `o` is no diagonal's occupancy.
    fn on_occupied(&self, o: i32) -> Option<impl Fn((usize, usize)) -> bool> {
        let o = u64::from(o.unsigned_abs());
        let (d, i) = (0..2).find_map(|d| {
            let i = self.anchors.occupancy[d]
                .iter()
                .position(|&v| v == Some(o))?;
            Some((d, i))
        })?;
        let (n, g) = (self.n, self.geometry);
        Some(move |(r, c): (usize, usize)| {
            i == if d == 0 {
                g.diagonal(n, r, c)
            } else {
                g.anti_diagonal(n, r, c)
            }
        })
    }

    /// The form's constraint that propagates whatever `clause` does, for a clause of the
    /// formula, of the propagator's at-most-one reasons or of the occupancies' definitions: a
    /// row's at-least-one (`>=` half of its `= 1`), a pair `-a -b` on one line (that line's at
    /// most one), a pre-placed or forbidden cell's unit, `-cell o` or `-o cells...` (a half of
    /// the definition of `o`, the occupancy of the cells' diagonal). `None` for any other
    /// clause.
    fn in_form(&self, clause: &[i32]) -> Option<u64> {
        use crate::board::LineKind;
        let a = &self.anchors;
        match *clause {
            [lit] => {
                let (r, c) = self.cell(lit)?;
                a.cells.get(&(r * self.n + c)).copied()
            }
            // A cell implies its diagonal's occupancy: the `<=` half of the occupancy's
            // definition.
            [x, o] | [o, x] if x < 0 && o > 0 => {
                let id = *a.definitions.get(&u64::from(o.unsigned_abs()))?;
                let on = self.on_occupied(o)?;
                on(self.cell(x)?).then_some(id + 1)
            }
            [x, y] if x < 0 && y < 0 && x != y => {
                let (p, q) = (self.cell(x)?, self.cell(y)?);
                let (n, g) = (self.n, self.geometry);
                match g.shared_line(n, p, q)? {
                    LineKind::Row => Some(a.rows.get(p.0)? + 1),
                    LineKind::Column => {
                        let id = (*a.columns.get(p.1)?)?;
                        Some(if a.columns_exact { id + 1 } else { id })
                    }
                    LineKind::Diagonal => *a.diagonals[0].get(g.diagonal(n, p.0, p.1))?,
                    LineKind::AntiDiagonal => *a.diagonals[1].get(g.anti_diagonal(n, p.0, p.1))?,
                }
            }
            _ if clause.iter().filter(|&&l| l < 0).count() == 1 => {
                // An occupancy implies one of its diagonal's cells: the `>=` half of its
                // definition.
                let o = *clause.iter().find(|&&l| l < 0)?;
                let id = *a.definitions.get(&u64::from(o.unsigned_abs()))?;
                // The clause holds the cells of `o`'s diagonal, all.
                let on = self.on_occupied(o)?;
                let n = self.n;
                let cells = clause.iter().filter(|&&l| l > 0);
                let all = cells.clone().all(|&l| self.cell(l).is_some_and(&on))
                    && cells.count() == (0..n * n).filter(|&k| on((k / n, k % n))).count();
                all.then_some(id)
            }
            _ => {
                // A row's at-least-one: every cell of one row, positive.
                let r = self.cell(*clause.first()?)?.0;
                let row = clause.len() == self.n
                    && clause
                        .iter()
                        .all(|&l| l > 0 && self.cell(l).is_some_and(|(r2, _)| r2 == r));
                row.then(|| a.rows.get(r).copied()).flatten()
            }
        }
    }
}

impl<W: Write + Send> super::cadical::ProofTracer for PbTrace<W> {
    fn add_original_clause(&mut self, id: i64, clause: &[i32]) {
        // A formula clause or an at-most-one reason: no line, the form propagates it; a hint
        // names the form's constraint.
        let form = self.in_form(clause);
        if self.loading.load(Ordering::Relaxed) || form.is_some() {
            if let Some(k) = form {
                self.ids.insert(id, Stands::Form(k));
            }
            return;
        }
        // A clause of the propagator: the steps of the bounds handed just before it, each
        // written at its first use, are its hints.
        let new: Vec<Bound> =
            std::mem::take(&mut *self.bounds.lock().unwrap_or_else(PoisonError::into_inner));
        let mut hints = Vec::new();
        for b in new {
            let step = match b {
                Bound::Class(step) => self.case(step),
                // The count's `>=` half: fewer than n can no longer be occupied.
                Bound::Count { dir } => self.anchors.counts[dir],
                _ => match self.written.get(&b) {
                    Some(&step) => step,
                    None => {
                        let line = self.anchors.combination(b);
                        let step = line.map(|line| self.rule(&line));
                        self.stats.bounds += u64::from(step.is_some());
                        self.written.insert(b, step);
                        step
                    }
                },
            };
            hints.extend(step.filter(|s| !hints.contains(s)));
        }
        if !hints.is_empty() {
            // A cell a bound made false (its two diagonals together would break it): under
            // the clause's negation the cell is true, and the definitions' `<=` halves make
            // its diagonals occupied for the bound's step.
            for &lit in clause.iter().filter(|&&l| l < 0) {
                hints.extend(self.cell_definitions(lit));
            }
        }
        let k = self.rup(clause, &hints);
        self.stats.propagator_clauses += 1;
        self.ids.insert(id, Stands::Step(k));
    }

    fn add_derived_clause(&mut self, id: i64, clause: &[i32], antecedents: &[i64]) {
        // CaDiCaL's antecedents as hints, when each has a constraint standing for it.
        let hints: Option<Vec<u64>> = antecedents
            .iter()
            .map(|a| self.ids.get(a).map(|s| s.id()))
            .collect();
        let hints = hints.unwrap_or_default();
        self.stats.hinted += u64::from(!hints.is_empty());
        let k = self.rup(clause, &hints);
        self.stats.derived += 1;
        if clause.is_empty() && self.empty.is_none() {
            self.empty = Some(k);
        }
        self.ids.insert(id, Stands::Step(k));
    }

    fn delete_clause(&mut self, id: i64, _clause: &[i32]) {
        if let Some(Stands::Step(k)) = self.ids.remove(&id) {
            self.write(|w| writeln!(w, "del id {k} ;"));
        }
    }
}

#[cfg(all(test, feature = "veripb"))]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use crate::instance::Model;
    use crate::solve::propagator::PropagatorStats;

    /// The certificate of `inst` (`None` when it has a solution) and VeriPB's judgement of it
    /// against the certificate form.
    fn certified(inst: &Instance) -> Option<crate::proof::OpbJudgement> {
        let made = certify_with_propagator(inst, &[], Vec::new()).unwrap();
        if let ProofOutcome::Sat(_) = &made.outcome {
            // The solution was checked as the board's by the prover.
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let (formula, proof) = (dir.path().join("f.opb"), dir.path().join("p.pbp"));
        let form = certificate_form(inst).unwrap();
        form.write_opb(std::fs::File::create(&formula).unwrap(), None)
            .unwrap();
        std::fs::write(&proof, &made.proof).unwrap();
        Some(crate::proof::check_opb(&formula, &proof))
    }

    /// The empty boards without solutions (n = 2, 3 square; n = 4, 6 on the torus, where the
    /// sums are not bounded) are refuted and their certificates accepted; those with
    /// solutions (n = 1, 4, 5 square, 5 on the torus) write none.
    #[test]
    fn empty_boards_are_certified_or_solved() {
        for (n, geometry, unsat) in [
            (1, Geometry::Square, false),
            (2, Geometry::Square, true),
            (3, Geometry::Square, true),
            (4, Geometry::Square, false),
            (5, Geometry::Square, false),
            (4, Geometry::Toroidal, true),
            (5, Geometry::Toroidal, false),
            (6, Geometry::Toroidal, true),
        ] {
            let inst = Instance::new_on(n, Model::default(), geometry).unwrap();
            match certified(&inst) {
                None => assert!(!unsat, "n = {n} {geometry:?}: a solution"),
                Some(j) => {
                    assert!(unsat, "n = {n} {geometry:?}: refuted");
                    assert_eq!(j, crate::proof::OpbJudgement::Accepted, "n = {n}");
                }
            }
        }
    }

    /// Solves 100 random boards of n = 6..9 with cells forbidden, the propagator's arguments
    /// set by `options`, and has VeriPB check every refutation's certificate (each must be
    /// accepted): the number of refutations and the propagator's statistics summed over them.
    fn certified_on_random_boards(options: &[&str]) -> (usize, PropagatorStats) {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |k: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k as u64) as usize
        };
        let options: Vec<SolverOption> = options.iter().map(|o| o.parse().unwrap()).collect();
        let (mut refuted, mut stats) = (0, PropagatorStats::default());
        for trial in 0..100 {
            let n = 6 + trial % 4;
            let mut forbid: Vec<(usize, usize)> = (0..n * n * (2 + trial % 2) / 6)
                .map(|_| (next(n), next(n)))
                .collect();
            forbid.sort_unstable();
            forbid.dedup();
            let inst = Instance::new(n, Model::default())
                .unwrap()
                .with_cells(&[], &forbid)
                .unwrap();
            let made = certify_with_propagator(&inst, &options, Vec::new()).unwrap();
            if let ProofOutcome::Sat(_) = &made.outcome {
                continue;
            }
            let dir = tempfile::tempdir().unwrap();
            let (formula, proof) = (dir.path().join("f.opb"), dir.path().join("p.pbp"));
            let form = certificate_form(&inst).unwrap();
            form.write_opb(std::fs::File::create(&formula).unwrap(), None)
                .unwrap();
            std::fs::write(&proof, &made.proof).unwrap();
            let judged = crate::proof::check_opb(&formula, &proof);
            assert_eq!(
                judged,
                crate::proof::OpbJudgement::Accepted,
                "trial {trial}"
            );
            refuted += 1;
            let p = made.propagator;
            stats.class_clauses += p.class_clauses;
            stats.sum_clauses += p.sum_clauses;
            stats.moment_clauses += p.moment_clauses;
            stats.bound_propagations += p.bound_propagations;
        }
        (refuted, stats)
    }

    /// The colour classes as the only bound (the counts on): every refutation's certificate,
    /// the classes' cases with it, is accepted by VeriPB, and some refutations need the
    /// classes.
    #[test]
    fn the_colour_classes_alone_are_certified_on_random_boards() {
        let (refuted, stats) = certified_on_random_boards(&["sums=0", "moments=0", "propagate=0"]);
        let classes = stats.class_clauses;
        assert!(
            refuted >= 10 && classes > 0,
            "{refuted} refuted, {classes} class clauses"
        );
    }

    /// The sums and moments without the classes, propagating: every clause of a bound (a
    /// conflict, or the reason of a diagonal or a cell it made unoccupied) names the bound's
    /// step as its hint, and VeriPB accepts every certificate.
    #[test]
    fn the_bounds_propagations_are_certified_on_random_boards() {
        let (refuted, stats) = certified_on_random_boards(&["classes=0"]);
        assert!(
            refuted >= 10 && stats.bound_propagations > 0,
            "{refuted} refuted, {} bound propagations",
            stats.bound_propagations
        );
    }

    /// The propagator refuses what is not the pairwise cell model.
    #[test]
    fn other_models_are_refused() {
        let set = "diagonals".parse().unwrap();
        let inst = Instance::new(6, Model::default().with_redundant(set)).unwrap();
        assert!(certify_with_propagator(&inst, &[], Vec::new()).is_err());
    }
}
