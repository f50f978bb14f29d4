//! Proofs of unsatisfiability written by the embedded solvers: varisat (DRAT), CaDiCaL (DRAT
//! or LRAT, from its proof tracer), Kissat (DRAT), and the queens propagator (CaDiCaL with
//! the propagator's clauses named in the formula).
//!
//! One way to prove, one way to check:
//!
//! * a [`Prover`] (the solver, the proof's format, the solver's options, the engine) writes
//!   the proof of a formula ([`Prover::prove`]) or of DIMACS clauses
//!   ([`Prover::prove_clauses`]), or returns the solution when there is one;
//! * [`check_proof`] checks a proof of either kind against a formula, with the library's
//!   checker and VeriPB ([`crate::proof::check`] on the formula's clauses, which takes any
//!   DIMACS clauses).
//!
//! ```
//! use queens_sat::instance::{Instance, Model};
//! use queens_sat::proof::CheckOptions;
//! use queens_sat::solve::{check_proof, ProofOutcome, Prover};
//!
//! let inst = Instance::new(3, Model::default()).unwrap();
//! let proved = Prover::default().prove(&inst, Vec::new()).unwrap();
//! assert!(matches!(proved.outcome, ProofOutcome::Unsat { .. }));
//! let verdict = check_proof(&inst, &proved.proof[..], &CheckOptions::default()).unwrap();
//! assert!(verdict.verified(), "{verdict}");
//! ```

use super::{decode_model, Assignment, Backend, Solution, SolveError, SolverOption};
use crate::cnf::{ClauseSink, Cnf};
use crate::instance::Formula;
use crate::proof::{CheckOptions, Verdict};
use std::fmt;
use std::io::{self, Read, Write};

/// What [`Prover::prove`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofOutcome {
    /// No solution: the proof was written in full.
    Unsat {
        /// Bytes of the proof.
        bytes: u64,
    },
    /// A solution exists (no proof of unsatisfiability can exist); the proof target received
    /// only the solver's steps up to the solution and should be discarded.
    Sat(Box<Solution>),
}

/// Why a proof could not be written or checked. A proof that is read in full but does not
/// check is not an error: see [`Verdict::verified`].
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The formula could not be made or solved.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The embedded solver failed while writing the proof (typically an I/O error on the
    /// proof target).
    #[error("writing the proof failed: {0}")]
    Write(String),
    /// The backend does not write proofs in this format.
    #[error(
        "{backend} does not write {format} proofs (CaDiCaL writes LRAT; every backend writes DRAT)"
    )]
    Unsupported {
        /// The backend.
        backend: Backend,
        /// The format asked for.
        format: ProofFormat,
    },
    /// The queens propagator runs in CaDiCaL only.
    #[error("the queens propagator runs in CaDiCaL, not in {0}")]
    Propagator(Backend),
    /// The queens propagator proves formulas of n-queens, not any clauses.
    #[error("the queens propagator proves formulas of n-queens, not any clauses")]
    PropagatorOnClauses,
    /// The proof could not be read or checked.
    #[error(transparent)]
    Check(#[from] crate::proof::ProofError),
}

/// A writer that counts the bytes written.
pub(super) struct Counting<W> {
    pub(super) inner: W,
    pub(super) bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let k = self.inner.write(buf)?;
        self.bytes += k as u64;
        Ok(k)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{Instance, Model as M};
    use crate::proof::{OwnCheck, ProofKind, ProofPos, ProofSyntax};

    fn board(n: usize) -> Instance {
        Instance::new(n, M::default()).unwrap()
    }

    #[test]
    fn proves_and_checks_small_boards() {
        for n in [2, 3] {
            let c = Prover::default()
                .prove_and_check(&board(n))
                .unwrap()
                .unwrap();
            assert!(c.verified(), "n = {n}: {c}");
            assert_eq!(c.kind, ProofKind::Drat(ProofSyntax::Text));
        }
        let dead = board(4).with_cells(&[(0, 0), (1, 2)], &[]).unwrap();
        assert!(Prover::default()
            .prove_and_check(&dead)
            .unwrap()
            .unwrap()
            .verified());
        assert!(Prover::default()
            .prove_and_check(&board(5))
            .unwrap()
            .is_none());
    }

    #[test]
    fn rejects_a_wrong_proof() {
        // The empty clause alone does not follow from n = 4's clauses.
        let c = check_proof(&board(4), &b"0\n"[..], &CheckOptions::default()).unwrap();
        assert!(!c.verified());
        let OwnCheck::Drat(d) = &c.own else {
            panic!("{c:?}")
        };
        let x = d.failure.as_ref().unwrap();
        assert_eq!((x.step, x.at), (1, Some(ProofPos::Line(1))));
        // No empty clause at all.
        let c = check_proof(&board(3), &b""[..], &CheckOptions::default()).unwrap();
        assert!(!c.verified(), "{c}");
        let OwnCheck::Drat(d) = &c.own else {
            panic!("{c:?}")
        };
        assert_eq!((d.end, d.steps), (crate::proof::DratEnd::Unfinished, 0));
        assert!(d.failure.is_none());
    }
}

/// The proof formats the embedded solvers write (text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ProofFormat {
    /// DRAT: lemmas and deletions by their literals (every backend).
    #[default]
    Drat,
    /// LRAT: lemmas with their ids and hints (CaDiCaL).
    Lrat,
}

impl ProofFormat {
    /// Its name, as `--proof-format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            ProofFormat::Drat => "drat",
            ProofFormat::Lrat => "lrat",
        }
    }

    /// `true` when `backend` writes proofs in this format (varisat and Kissat: DRAT;
    /// CaDiCaL: both).
    pub fn written_by(self, backend: Backend) -> bool {
        match self {
            ProofFormat::Drat => true,
            ProofFormat::Lrat => backend == Backend::Cadical,
        }
    }
}

impl fmt::Display for ProofFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ProofFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "drat" => Ok(ProofFormat::Drat),
            "lrat" => Ok(ProofFormat::Lrat),
            _ => Err(format!(
                "unknown proof format '{s}' (expected drat or lrat)"
            )),
        }
    }
}

/// The formula's clauses, in the order [`crate::instance::encode`] writes them, and the
/// number of variables.
pub(crate) fn formula_clauses(f: &dyn Formula) -> (Cnf, usize) {
    let mut cnf = Cnf::new();
    // Writing to memory cannot fail.
    let _ = crate::instance::encode(f, &mut cnf);
    let vars = (f.num_vars() as usize).max(cnf.max_var());
    (cnf, vars)
}

/// Which engine writes the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ProofEngine {
    /// The solver alone on the formula's clauses.
    #[default]
    Clauses,
    /// CaDiCaL with the queens propagator in place of the at-most-one pairs of the pairwise
    /// cell model ([`super::propagator`]); the proof still refers to the formula's clauses.
    Propagator,
}

/// How a proof of unsatisfiability is written: the solver, the proof's format, the solver's
/// options and the engine. Built only in combinations that write a proof: LRAT from CaDiCaL,
/// options for CaDiCaL and Kissat, the propagator on CaDiCaL.
///
/// [`Prover::default`] is varisat's DRAT (always built in); [`Prover::strongest`] the one that
/// `queens-sat check` uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prover {
    backend: Backend,
    format: ProofFormat,
    options: Vec<SolverOption>,
    engine: ProofEngine,
}

impl Default for Prover {
    /// varisat's DRAT, always built in.
    fn default() -> Prover {
        Prover {
            backend: Backend::Varisat,
            format: ProofFormat::Drat,
            options: Vec::new(),
            engine: ProofEngine::Clauses,
        }
    }
}

/// A proof written by [`Prover::prove`].
#[derive(Debug)]
pub struct Proved<W> {
    /// No solution (the proof is complete), or the solution found.
    pub outcome: ProofOutcome,
    /// The writer the proof went to.
    pub proof: W,
    /// What the propagator did, with [`ProofEngine::Propagator`].
    #[cfg(feature = "cadical")]
    pub propagator: Option<super::propagator::PropagatorStats>,
}

impl Prover {
    /// A prover with `backend` writing `format`: refused when the backend is not built in or
    /// does not write that format ([`ProofFormat::written_by`]).
    pub fn new(backend: Backend, format: ProofFormat) -> Result<Prover, ProofError> {
        if !backend.is_available() {
            return Err(SolveError::Unavailable(backend).into());
        }
        if !format.written_by(backend) {
            return Err(ProofError::Unsupported { backend, format });
        }
        Ok(Prover {
            backend,
            format,
            options: Vec::new(),
            engine: ProofEngine::Clauses,
        })
    }

    /// CaDiCaL's LRAT (checked in time linear in the proof) when CaDiCaL is built in, else
    /// varisat's DRAT: how `queens-sat check` proves UNSAT answers.
    pub fn strongest() -> Prover {
        Prover::new(Backend::Cadical, ProofFormat::Lrat).unwrap_or_default()
    }

    /// The solver's options by name (CaDiCaL and Kissat; varisat takes none).
    pub fn with_options(mut self, options: &[SolverOption]) -> Result<Prover, ProofError> {
        if !options.is_empty() && self.backend == Backend::Varisat {
            return Err(SolveError::from(super::OptionError::NoOptions("varisat")).into());
        }
        self.options = options.to_vec();
        Ok(self)
    }

    /// The engine: [`ProofEngine::Propagator`] needs CaDiCaL.
    pub fn with_engine(mut self, engine: ProofEngine) -> Result<Prover, ProofError> {
        if engine == ProofEngine::Propagator && self.backend != Backend::Cadical {
            return Err(ProofError::Propagator(self.backend));
        }
        self.engine = engine;
        Ok(self)
    }

    /// The solver.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The proof's format.
    pub fn format(&self) -> ProofFormat {
        self.format
    }

    /// Solves `f`, writing the proof to `proof` as it goes (through a buffer, flushed at the
    /// end; an I/O error on it is [`ProofError::Write`]): [`ProofOutcome::Unsat`] once the
    /// proof is complete (it ends with the empty clause), or the solution, checked, when
    /// there is one (what was written is then no proof). The proof numbers the formula's
    /// clauses as [`crate::instance::encode`] writes them (the order of `queens-sat encode`).
    /// varisat writes DRAT; CaDiCaL writes DRAT or LRAT from its proof tracer (in LRAT its
    /// lemmas carry CaDiCaL's own antecedents); Kissat writes DRAT with its own tracer.
    pub fn prove<W: Write + Send + 'static>(
        &self,
        f: &dyn Formula,
        proof: W,
    ) -> Result<Proved<W>, ProofError> {
        match self.engine {
            ProofEngine::Clauses => {
                let (outcome, proof) =
                    prove_formula(f, self.backend, self.format, &self.options, proof)?;
                Ok(Proved {
                    outcome,
                    proof,
                    #[cfg(feature = "cadical")]
                    propagator: None,
                })
            }
            #[cfg(feature = "cadical")]
            ProofEngine::Propagator => {
                let (outcome, proof, stats) =
                    prove_with_propagator(f, self.format, &self.options, proof)?;
                Ok(Proved {
                    outcome,
                    proof,
                    propagator: Some(stats),
                })
            }
            #[cfg(not(feature = "cadical"))]
            ProofEngine::Propagator => Err(SolveError::Unavailable(Backend::Cadical).into()),
        }
    }

    /// Solves the clauses of `clauses` over `vars` variables, writing the proof to
    /// `proof` as it goes: `Some(writer)` with the complete proof of unsatisfiability, or
    /// `None` when the clauses are satisfiable. The propagator engine takes a formula of
    /// n-queens, not clauses: refused.
    pub fn prove_clauses<W: Write + Send + 'static>(
        &self,
        clauses: &Cnf,
        vars: usize,
        proof: W,
    ) -> Result<Option<W>, ProofError> {
        if self.engine == ProofEngine::Propagator {
            return Err(ProofError::PropagatorOnClauses);
        }
        prove_cnf(
            clauses,
            vars,
            self.backend,
            self.format,
            &self.options,
            proof,
        )
    }

    /// Proves `f` unsatisfiable in memory and checks the proof ([`check_proof`], default
    /// options): the verdict, or `None` when `f` has a solution.
    pub fn prove_and_check(&self, f: &dyn Formula) -> Result<Option<Verdict>, ProofError> {
        let proved = self.prove(f, Vec::new())?;
        match proved.outcome {
            ProofOutcome::Sat(_) => Ok(None),
            ProofOutcome::Unsat { .. } => {
                check_proof(f, &proved.proof[..], &CheckOptions::default()).map(Some)
            }
        }
    }

    /// [`Prover::prove_clauses`] in memory, and the proof checked against the clauses
    /// ([`crate::proof::check`]): the verdict, or `None` when the clauses are satisfiable.
    pub fn prove_clauses_and_check(
        &self,
        clauses: &Cnf,
        vars: usize,
    ) -> Result<Option<Verdict>, ProofError> {
        let Some(proof) = self.prove_clauses(clauses, vars, Vec::new())? else {
            return Ok(None);
        };
        Ok(Some(crate::proof::check(
            clauses,
            vars,
            &proof[..],
            &CheckOptions::default(),
        )?))
    }
}

/// Checks a proof (DRAT or LRAT, text or binary, recognised from its content) of the
/// unsatisfiability of `f` against its clauses in the order of [`crate::instance::encode`]:
/// DRAT by the library's checker and VeriPB, LRAT by the library's LRAT checker (and VeriPB
/// when `options` ask for it), within the options' bound on the proof's size
/// ([`crate::proof::check`]).
pub fn check_proof(
    f: &dyn Formula,
    proof: impl Read,
    options: &CheckOptions,
) -> Result<Verdict, ProofError> {
    let (clauses, vars) = formula_clauses(f);
    Ok(crate::proof::check(&clauses, vars, proof, options)?)
}

/// Solves `f` with the backend, writing the proof: the outcome and the writer.
fn prove_formula<W: Write + Send + 'static>(
    f: &dyn Formula,
    backend: Backend,
    format: ProofFormat,
    options: &[SolverOption],
    proof: W,
) -> Result<(ProofOutcome, W), ProofError> {
    let mut load = |s: &mut dyn ClauseSink| {
        // Adding clauses to a solver cannot fail.
        let _ = crate::instance::encode(f, s);
    };
    let (model, bytes, proof) = prove_clauses_with(
        &mut load,
        f.num_vars() as usize,
        backend,
        format,
        options,
        proof,
    )?;
    let outcome = match model {
        Some(lits) => checked_model(f, &lits)?,
        None => ProofOutcome::Unsat { bytes },
    };
    Ok((outcome, proof))
}

/// The model (`None`: unsatisfiable, the proof complete), the proof's bytes and the writer.
type Raw<W> = (Option<Vec<crate::cnf::Lit>>, u64, W);

/// What puts the formula's clauses, in order, into a solver (or anything else that takes
/// clauses: the counter of clauses, the numbering of the proof's tracer).
type Loader<'a> = dyn FnMut(&mut dyn ClauseSink) + 'a;

/// Solves the clauses that `load` adds with the backend, writing the proof.
#[allow(unused_variables, unused_mut)]
fn prove_clauses_with<W: Write + Send + 'static>(
    load: &mut Loader<'_>,
    vars: usize,
    backend: Backend,
    format: ProofFormat,
    options: &[SolverOption],
    mut proof: W,
) -> Result<Raw<W>, ProofError> {
    match backend {
        #[cfg(feature = "cadical")]
        Backend::Cadical => prove_with_cadical(load, vars, format, options, proof),
        #[cfg(feature = "kissat")]
        Backend::Kissat => {
            let (model, bytes) = prove_with_kissat(load, vars, options, &mut proof)?;
            Ok((model, bytes, proof))
        }
        Backend::Varisat => {
            let (model, bytes) = prove_with_varisat(load, &mut proof)?;
            Ok((model, bytes, proof))
        }
        #[allow(unreachable_patterns)]
        _ => Err(SolveError::Unavailable(backend).into()),
    }
}

/// Solves the clauses that `load` adds with varisat, writing its text DRAT proof to `proof`
/// as it goes (through a buffer, flushed at the end): the model, or `None` and the proof's
/// bytes.
fn prove_with_varisat(
    load: &mut Loader<'_>,
    proof: &mut dyn Write,
) -> Result<(Option<Vec<crate::cnf::Lit>>, u64), ProofError> {
    let mut target = Counting {
        inner: proof,
        bytes: 0,
    };
    let model = {
        let mut solver = varisat::Solver::new();
        solver.write_proof(&mut target, varisat::ProofFormat::Drat);
        load(&mut solver);
        let sat = solver
            .solve()
            .map_err(|e| ProofError::Write(e.to_string()))?;
        let model = if sat {
            Some(
                solver
                    .model()
                    .ok_or_else(|| SolveError::Solver("no model after SAT".into()))?,
            )
        } else {
            None
        };
        solver
            .close_proof()
            .map_err(|e| ProofError::Write(e.to_string()))?;
        model
    };
    target
        .flush()
        .map_err(|e| ProofError::Write(e.to_string()))?;
    Ok((model, target.bytes))
}

/// Solves the clauses with the backend, writing the proof: the writer when the clauses are
/// unsatisfiable, `None` when they are satisfiable.
fn prove_cnf<W: Write + Send + 'static>(
    clauses: &Cnf,
    vars: usize,
    backend: Backend,
    format: ProofFormat,
    options: &[SolverOption],
    proof: W,
) -> Result<Option<W>, ProofError> {
    let mut load = |s: &mut dyn ClauseSink| {
        for c in clauses.iter() {
            // Adding clauses to a solver cannot fail.
            let _ = s.add_clause(c);
        }
    };
    let (model, _, proof) = prove_clauses_with(&mut load, vars, backend, format, options, proof)?;
    Ok(model.is_none().then_some(proof))
}

/// The model of a satisfiable solve, checked as a solution of `f`.
pub(super) fn checked_model(
    f: &dyn Formula,
    lits: &[crate::cnf::Lit],
) -> Result<ProofOutcome, ProofError> {
    Ok(ProofOutcome::Sat(Box::new(Solution {
        placement: decode_model(f, lits)?,
        assignment: Assignment::from_lits(lits),
    })))
}

/// Writes CaDiCaL's proof events as text DRAT or LRAT. In LRAT, the original clauses get
/// their positions in the formula as ids (CaDiCaL's own numbering may skip or reorder them:
/// unit clauses, for one) and the derived clauses the ids after the formula's last clause.
#[cfg(feature = "cadical")]
struct TraceWriter<W: Write> {
    out: io::BufWriter<Counting<W>>,
    lrat: bool,
    /// The position (1-based) of the clause being added, set by the loader.
    current: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// The formula's clauses.
    total: u64,
    /// CaDiCaL's ids to the proof's.
    ids: std::collections::HashMap<i64, u64>,
    /// The last id given to a derived clause.
    last: u64,
    /// Deletions not yet written (LRAT writes them as one step before the next lemma).
    deletions: Vec<u64>,
    /// What went wrong: an I/O error, or an id the writer cannot place.
    error: Option<String>,
    /// With the queens propagator: the formula's binary clauses of two negative literals
    /// (the pairwise at-most-one clauses), by their literals in increasing order, each with
    /// its position (the first, if the formula has the clause twice).
    pairs: Option<std::collections::HashMap<(i32, i32), u64>>,
    /// DRAT: CaDiCaL's ids of the propagator's clauses (clauses of the formula, so neither
    /// their addition nor their deletion is written).
    external: std::collections::HashSet<i64>,
}

/// The value of the loader's clause position once loading is over: an original clause that
/// CaDiCaL reports from then on comes from the external propagator.
#[cfg(feature = "cadical")]
const FROM_PROPAGATOR: u64 = u64::MAX;

#[cfg(feature = "cadical")]
impl<W: Write> TraceWriter<W> {
    fn write(&mut self, f: impl FnOnce(&mut io::BufWriter<Counting<W>>) -> io::Result<()>) {
        if self.error.is_none() {
            if let Err(e) = f(&mut self.out) {
                self.error = Some(e.to_string());
            }
        }
    }

    fn fail(&mut self, why: String) {
        if self.error.is_none() {
            self.error = Some(why);
        }
    }

    /// A clause of the external propagator (a reason or a clause it added), which CaDiCaL
    /// reports as an original clause: it must be a clause of the formula. In LRAT it becomes
    /// a lemma whose one hint is that clause of the formula (so CaDiCaL's id has its own
    /// number and can be deleted as any lemma); in DRAT it needs no line.
    fn propagator_clause(&mut self, id: i64, clause: &[i32]) {
        let found = match (clause, &self.pairs) {
            (&[a, b], Some(pairs)) => pairs.get(&(a.min(b), a.max(b))).copied(),
            _ => None,
        };
        let Some(original) = found else {
            self.fail(format!(
                "CaDiCaL added the clause {clause:?} while solving, which is not a clause of the formula"
            ));
            return;
        };
        if !self.lrat {
            self.external.insert(id);
            return;
        }
        self.flush_deletions();
        self.last += 1;
        let out = self.total + self.last;
        self.ids.insert(id, out);
        self.write(|w| write_lrat_lemma(w, out, clause, &[original]));
    }

    fn flush_deletions(&mut self) {
        if self.deletions.is_empty() {
            return;
        }
        let ids = std::mem::take(&mut self.deletions);
        let latest = self.last.max(self.total);
        self.write(|w| {
            let mut b = itoa::Buffer::new();
            w.write_all(b.format(latest).as_bytes())?;
            w.write_all(b" d")?;
            for id in &ids {
                w.write_all(b" ")?;
                w.write_all(b.format(*id).as_bytes())?;
            }
            w.write_all(b" 0\n")
        });
    }
}

#[cfg(feature = "cadical")]
/// One LRAT lemma line: `id lits 0 hints 0` (the literals and their `0` by [`write_lits`]).
fn write_lrat_lemma(w: &mut impl Write, id: u64, lits: &[i32], hints: &[u64]) -> io::Result<()> {
    let mut b = itoa::Buffer::new();
    w.write_all(b.format(id).as_bytes())?;
    w.write_all(b" ")?;
    write_lits(w, lits)?;
    for &h in hints {
        w.write_all(b" ")?;
        w.write_all(b.format(h).as_bytes())?;
    }
    w.write_all(b" 0\n")
}

#[cfg(feature = "cadical")]
fn write_lits(w: &mut impl Write, lits: &[i32]) -> io::Result<()> {
    let mut b = itoa::Buffer::new();
    for &l in lits {
        w.write_all(b.format(l).as_bytes())?;
        w.write_all(b" ")?;
    }
    w.write_all(b"0")
}

#[cfg(feature = "cadical")]
impl<W: Write + Send + 'static> super::cadical::ProofTracer for TraceWriter<W> {
    fn add_original_clause(&mut self, id: i64, clause: &[i32]) {
        let k = self.current.load(std::sync::atomic::Ordering::Relaxed);
        if k == FROM_PROPAGATOR {
            self.propagator_clause(id, clause);
            return;
        }
        if self.lrat {
            if k == 0 || k > self.total {
                self.fail(format!(
                    "CaDiCaL added original clause {id} outside the formula"
                ));
            }
            self.ids.insert(id, k);
        }
    }

    fn add_derived_clause(&mut self, id: i64, clause: &[i32], antecedents: &[i64]) {
        if self.lrat {
            self.flush_deletions();
            self.last += 1;
            let out = self.total + self.last;
            let mut hints = Vec::with_capacity(antecedents.len());
            for a in antecedents {
                match self.ids.get(a) {
                    Some(&h) => hints.push(h),
                    None => {
                        self.fail(format!("CaDiCaL's antecedent {a} names no clause"));
                        return;
                    }
                }
            }
            self.ids.insert(id, out);
            self.write(|w| write_lrat_lemma(w, out, clause, &hints));
        } else {
            self.write(|w| {
                write_lits(w, clause)?;
                w.write_all(b"\n")
            });
        }
    }

    fn delete_clause(&mut self, id: i64, clause: &[i32]) {
        if self.lrat {
            match self.ids.remove(&id) {
                Some(d) => self.deletions.push(d),
                None => self.fail(format!("CaDiCaL deletes clause {id}, which it never added")),
            }
        } else {
            if self.external.remove(&id) {
                return;
            }
            self.write(|w| {
                w.write_all(b"d ")?;
                write_lits(w, clause)?;
                w.write_all(b"\n")
            });
        }
    }
}

/// Adds clauses to a solver, numbering them for the proof's tracer.
#[cfg(feature = "cadical")]
struct Numbered<'a> {
    solver: &'a mut dyn super::Solver,
    current: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

#[cfg(feature = "cadical")]
impl ClauseSink for Numbered<'_> {
    fn add_clause(&mut self, clause: &[crate::cnf::Lit]) -> io::Result<()> {
        self.current
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.solver.add_clause(clause);
        Ok(())
    }
}

#[cfg(feature = "cadical")]
fn prove_with_cadical<W: Write + Send + 'static>(
    load: &mut Loader<'_>,
    vars: usize,
    format: ProofFormat,
    options: &[SolverOption],
    proof: W,
) -> Result<Raw<W>, ProofError> {
    let make = |tracer: Box<dyn super::cadical::ProofTracer>, lrat: bool| {
        let mut solver = super::backend::CadicalSolver::new(options)?;
        solver
            .inner()
            .connect_proof_tracer(tracer, lrat)
            .map_err(SolveError::from)?;
        Ok(solver)
    };
    prove_traced(load, vars, format, None, proof, make).map(|(proved, _)| proved)
}

/// A solver built on CaDiCaL whose proof tracer can be taken back.
#[cfg(feature = "cadical")]
trait Traced: super::Solver {
    fn cadical(&mut self) -> &mut super::cadical::Cadical;
}

#[cfg(feature = "cadical")]
impl Traced for super::backend::CadicalSolver {
    fn cadical(&mut self) -> &mut super::cadical::Cadical {
        self.inner()
    }
}

#[cfg(feature = "cadical")]
impl Traced for super::propagator::PropagatorSolver {
    fn cadical(&mut self) -> &mut super::cadical::Cadical {
        super::propagator::PropagatorSolver::cadical(self)
    }
}

/// Solves the clauses that `load` adds with the solver `make` builds around the proof's
/// tracer (CaDiCaL, with antecedents in LRAT), writing the proof; `pairs` are the formula's
/// clauses that an external propagator may add (see [`TraceWriter`]). Also hands back the
/// solver.
#[cfg(feature = "cadical")]
fn prove_traced<W: Write + Send + 'static, S: Traced>(
    load: &mut Loader<'_>,
    vars: usize,
    format: ProofFormat,
    pairs: Option<std::collections::HashMap<(i32, i32), u64>>,
    proof: W,
    make: impl FnOnce(Box<dyn super::cadical::ProofTracer>, bool) -> Result<S, ProofError>,
) -> Result<(Raw<W>, S), ProofError> {
    let lrat = format == ProofFormat::Lrat;
    // The number of clauses first: derived clauses are numbered after them.
    let mut count = crate::cnf::CountingSink::default();
    load(&mut count);
    let current = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let tracer = TraceWriter {
        out: io::BufWriter::with_capacity(
            1 << 16,
            Counting {
                inner: proof,
                bytes: 0,
            },
        ),
        lrat,
        current: current.clone(),
        total: count.clauses,
        ids: std::collections::HashMap::new(),
        last: 0,
        deletions: Vec::new(),
        error: None,
        pairs,
        external: std::collections::HashSet::new(),
    };
    // The solver owns the tracer while it runs; this side keeps a handle to take the proof's
    // writer back afterwards.
    let shared = std::sync::Arc::new(std::sync::Mutex::new(tracer));
    let mut solver = make(Box::new(super::cadical::SharedTracer(shared.clone())), lrat)?;
    load(&mut Numbered {
        solver: &mut solver as &mut dyn super::Solver,
        current: current.clone(),
    });
    current.store(FROM_PROPAGATOR, std::sync::atomic::Ordering::Relaxed);
    let budget = super::Budget::unlimited();
    let sat = solver.solve(&[], &budget)?;
    let model = if sat { Some(solver.model(vars)?) } else { None };
    drop(
        solver
            .cadical()
            .disconnect_proof_tracer()
            .ok_or_else(|| ProofError::Write("the proof tracer was lost".into()))?,
    );
    let mut tracer = std::sync::Arc::try_unwrap(shared)
        .map_err(|_| ProofError::Write("the proof tracer is still held".into()))?
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    tracer.flush_deletions();
    if let Some(e) = tracer.error.take() {
        return Err(ProofError::Write(e));
    }
    let counting = tracer
        .out
        .into_inner()
        .map_err(|e| ProofError::Write(e.error().to_string()))?;
    let mut w = counting.inner;
    w.flush().map_err(|e| ProofError::Write(e.to_string()))?;
    Ok(((model, counting.bytes, w), solver))
}

/// Solves the pairwise cell model of `f` with the queens propagator
/// ([`super::propagator::PropagatorSolver`]), writing a proof in `format` (DRAT or LRAT) to
/// `proof` as it goes; returns the outcome, the writer and what the propagator did.
///
/// The proof refers to the clauses of `f` as [`crate::instance::encode`] writes them (the
/// order of `queens-sat encode`), at-most-one pairs included, though the solver never holds
/// those as CNF. CaDiCaL reports every clause the propagator gives it (a reason `-a -b` of a
/// propagation or a conflict, or such a clause added on a complete model) as an original
/// clause; each one is a clause of the pairwise formula, found there by its literals. In
/// LRAT it becomes a lemma with that clause of the formula as its one hint; in DRAT it gets
/// no line (nor does its deletion): it is in the formula already. A clause of the propagator
/// that is not in the formula is an error ([`ProofError::Write`]), never a proof that does
/// not check. The propagator's arguments (the counting and the bounds on the sums), whose
/// clauses are not in the formula, are switched off for a proof; the rest reasons no further
/// than two queens on one line.
#[cfg(feature = "cadical")]
fn prove_with_propagator<W: Write + Send + 'static>(
    f: &dyn Formula,
    format: ProofFormat,
    options: &[SolverOption],
    proof: W,
) -> Result<(ProofOutcome, W, super::propagator::PropagatorStats), ProofError> {
    use super::propagator::{check_model, PropagatorSolver};
    check_model(f).map_err(|e| SolveError::Solver(e.to_string()))?;
    let (clauses, _) = formula_clauses(f);
    let mut pairs = std::collections::HashMap::new();
    for (k, c) in clauses.iter().enumerate() {
        if let &[a, b] = c {
            let (a, b) = (a.to_dimacs() as i32, b.to_dimacs() as i32);
            if a < 0 && b < 0 {
                pairs.entry((a.min(b), a.max(b))).or_insert(k as u64 + 1);
            }
        }
    }
    let mut load = |s: &mut dyn ClauseSink| {
        // Adding clauses to a solver cannot fail.
        let _ = crate::instance::encode(f, s);
    };
    // The arguments are off for a proof whatever the options say (see the propagator's module).
    let (_, options) = super::propagator::split_options(options).map_err(SolveError::Option)?;
    let make = |tracer: Box<dyn super::cadical::ProofTracer>, lrat: bool| {
        let mut cadical = super::backend::CadicalSolver::with_own_defaults(&options)?;
        cadical
            .inner()
            .connect_proof_tracer(tracer, lrat)
            .map_err(SolveError::from)?;
        Ok(PropagatorSolver::on(
            f,
            cadical,
            super::propagator::Arguments::NONE,
            None,
        )?)
    };
    let vars = f.num_vars() as usize;
    let ((model, bytes, proof), solver) =
        prove_traced(&mut load, vars, format, Some(pairs), proof, make)?;
    let outcome = match model {
        Some(lits) => checked_model(f, &lits)?,
        None => ProofOutcome::Unsat { bytes },
    };
    Ok((outcome, proof, solver.stats()))
}

#[cfg(feature = "kissat")]
fn prove_with_kissat(
    load: &mut Loader<'_>,
    vars: usize,
    options: &[SolverOption],
    proof: &mut dyn Write,
) -> Result<(Option<Vec<crate::cnf::Lit>>, u64), ProofError> {
    use super::Solver as _;
    // Kissat writes its proof by path, into a folder of its own that an interruption removes
    // ([`super::kill_running`]) while it is registered: the folder and its guard are held
    // together, the folder removed first.
    let folder = super::process::TempDirGuard::create("queens-sat-kissat-")
        .map_err(|e| ProofError::Write(e.to_string()))?;
    let path = folder.0.path().join("kissat.drat");
    let mut solver = super::backend::KissatSolver::new(options)?;
    solver
        .inner()
        .ok_or_else(|| ProofError::Write("the solver was used".into()))?
        .write_proof(&path, false)
        .map_err(|e| ProofError::Write(e.to_string()))?;
    // A solver takes clauses as any clause sink does.
    let mut sink: &mut dyn super::Solver = &mut solver;
    load(&mut sink);
    let sat = solver.solve(&[], &super::Budget::unlimited())?;
    let model = if sat { Some(solver.model(vars)?) } else { None };
    // Dropping the solver closes the proof.
    drop(solver);
    if model.is_some() {
        return Ok((model, 0));
    }
    let mut file = std::fs::File::open(&path).map_err(|e| ProofError::Write(e.to_string()))?;
    let bytes = io::copy(&mut file, proof).map_err(|e| ProofError::Write(e.to_string()))?;
    proof
        .flush()
        .map_err(|e| ProofError::Write(e.to_string()))?;
    Ok((None, bytes))
}
