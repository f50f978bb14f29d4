//! One way to check a proof: [`check`] recognises its kind, runs the library's checker for it
//! and VeriPB beside it (always for DRAT, on request for LRAT), and returns both opinions in
//! a [`Verdict`].

use super::checker::{Accepted, Database, Deleted, Rejected};
use super::lrat::{LratCheck, LratChecker, LratFailure, LratReader, LratStep};
use super::{
    sniffed, ProofError, ProofKind, ProofPos, ProofReader, ProofSyntax, MAX_EXTRA_VARS,
    MAX_PROOF_BYTES,
};
use crate::cnf::{Cnf, Lit};
use std::fmt;
use std::io::{self, Read};

#[cfg(feature = "veripb")]
use super::veripb::{Judgement, Translation};

/// What a check does beyond the library's own checker.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The longest proof read, bytes.
    pub limit: u64,
    /// Also have VeriPB check an LRAT proof (it always checks a DRAT proof).
    pub veripb_on_lrat: bool,
    /// VeriPB finds why each DRAT lemma holds on its own: the translation carries no hints
    /// from the library's checker (each RUP lemma is propagated over all of VeriPB's
    /// constraints), so the two checks share nothing but the proof's reading and its
    /// classification into RUP and RAT steps. Slower (the 14 x 14 torus: docs/benchmarks.md).
    pub veripb_alone: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            limit: MAX_PROOF_BYTES,
            veripb_on_lrat: false,
            veripb_alone: false,
        }
    }
}

/// Why a step of a proof does not check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// 1-based number of the step (deletions counted).
    pub step: u64,
    /// Where it starts in the proof.
    pub at: Option<ProofPos>,
    /// Its clause.
    pub clause: Vec<Lit>,
    /// Why it does not check.
    pub reason: String,
}

/// How a DRAT check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DratEnd {
    /// The formula alone is refuted by unit propagation: the proof's steps (all read, see
    /// [`DratCheck::unread`]) were not needed.
    Formula,
    /// The empty clause, written at this step, follows by unit propagation.
    EmptyClause(u64),
    /// After this step unit propagation refutes the clauses, without an empty clause written
    /// (the rest of the proof is read but not checked).
    Refuted(u64),
    /// A step does not check (see [`DratCheck::failure`]).
    Failed,
    /// The proof ends, every step checked, and the clauses are not refuted.
    Unfinished,
}

/// The library's DRAT checker's account of a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DratCheck {
    /// The proof's format.
    pub format: ProofSyntax,
    /// How the check ended.
    pub end: DratEnd,
    /// Steps checked, deletions included.
    pub steps: u64,
    /// Steps after the refutation (read, to see that the proof is well formed, but not
    /// needed).
    pub unread: u64,
    /// Lemmas accepted (an empty clause included).
    pub lemmas: u64,
    /// Lemmas accepted as RAT (not RUP).
    pub rat: u64,
    /// Clauses deleted.
    pub deletions: u64,
    /// Deletions ignored because the clause was unit at the top level (drat-trim ignores
    /// them too).
    pub kept_units: u64,
    /// Deletions of clauses not present (nothing to do).
    pub absent: u64,
    /// The failing step, when one fails.
    pub failure: Option<Failure>,
}

impl DratCheck {
    /// The proof refutes the formula and every step up to the refutation checked.
    pub fn verified(&self) -> bool {
        matches!(
            self.end,
            DratEnd::Formula | DratEnd::EmptyClause(_) | DratEnd::Refuted(_)
        )
    }
}

impl DratCheck {
    /// ` (N later steps not needed)`, when there are any.
    fn later(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.unread {
            0 => Ok(()),
            1 => f.write_str(" (1 later step not needed)"),
            k => write!(f, " ({k} later steps not needed)"),
        }
    }
}

impl fmt::Display for DratCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural =
            |k: u64, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        let tally = |f: &mut fmt::Formatter<'_>| {
            write!(
                f,
                "{} ({} RAT), {}",
                plural(self.lemmas, "lemma", "lemmas"),
                self.rat,
                plural(self.deletions, "deletion", "deletions")
            )?;
            if self.kept_units > 0 {
                write!(
                    f,
                    " ({} of a clause unit at the top level ignored, as drat-trim does)",
                    self.kept_units
                )?;
            }
            Ok(())
        };
        match self.end {
            DratEnd::Formula => write!(
                f,
                "refuted by unit propagation; the proof's {} were not needed",
                plural(self.unread, "step", "steps")
            ),
            DratEnd::EmptyClause(_) => {
                tally(f)?;
                write!(f, ", the empty clause derived")?;
                self.later(f)
            }
            DratEnd::Refuted(step) => {
                tally(f)?;
                write!(
                    f,
                    ", the empty clause follows by unit propagation after step {step}"
                )?;
                self.later(f)
            }
            DratEnd::Failed => match &self.failure {
                Some(x) => {
                    let clause: Vec<String> = x.clause.iter().map(Lit::to_string).collect();
                    write!(f, "step {}", x.step)?;
                    if let Some(at) = x.at {
                        write!(f, " ({at})")?;
                    }
                    write!(f, ", clause [{}]: {}", clause.join(" "), x.reason)
                }
                None => f.write_str("a step does not check"),
            },
            DratEnd::Unfinished => write!(
                f,
                "the proof ends after {} without deriving the empty clause",
                plural(self.steps, "step", "steps")
            ),
        }
    }
}

/// The account of the library's own checker: DRAT or LRAT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OwnCheck {
    /// A DRAT proof's check.
    Drat(DratCheck),
    /// An LRAT proof's check.
    Lrat(LratCheck),
}

impl OwnCheck {
    /// The checker accepts the proof.
    pub fn verified(&self) -> bool {
        match self {
            OwnCheck::Drat(c) => c.verified(),
            OwnCheck::Lrat(c) => c.verified,
        }
    }

    /// The checker's name.
    pub fn name(&self) -> &'static str {
        match self {
            OwnCheck::Drat(_) => "the DRAT checker of queens-sat",
            OwnCheck::Lrat(_) => "the LRAT checker of queens-sat",
        }
    }
}

impl fmt::Display for OwnCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OwnCheck::Drat(c) => c.fmt(f),
            OwnCheck::Lrat(c) => c.fmt(f),
        }
    }
}

/// VeriPB's opinion of a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opinion {
    /// It accepts the proof (translated to its format).
    Accepted,
    /// It rejects it.
    Rejected {
        /// The proof's step where it failed (`None`: at the final refutation).
        step: Option<u64>,
        /// Where that step starts.
        at: Option<ProofPos>,
        /// Its reason.
        reason: String,
    },
    /// Not asked for (LRAT without [`CheckOptions::veripb_on_lrat`]).
    NotAsked,
    /// The library was built without VeriPB (the `veripb` feature).
    NotBuiltIn,
}

impl Opinion {
    /// The checker's name and version.
    pub fn name() -> String {
        #[cfg(feature = "veripb")]
        {
            format!("VeriPB {}", super::veripb::VERSION)
        }
        #[cfg(not(feature = "veripb"))]
        {
            "VeriPB".to_string()
        }
    }

    /// It ran.
    pub fn ran(&self) -> bool {
        matches!(self, Opinion::Accepted | Opinion::Rejected { .. })
    }
}

impl fmt::Display for Opinion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opinion::Accepted => f.write_str("accepted"),
            Opinion::Rejected { step, at, reason } => {
                f.write_str("rejected")?;
                match (step, at) {
                    (Some(s), Some(at)) => write!(f, " at step {s} ({at})")?,
                    (Some(s), None) => write!(f, " at step {s}")?,
                    _ => f.write_str(" at the final refutation")?,
                }
                write!(f, ": {reason}")
            }
            Opinion::NotAsked => f.write_str("not asked"),
            Opinion::NotBuiltIn => f.write_str("not built in: the veripb feature is off"),
        }
    }
}

/// The result of checking a proof: the library's checker and VeriPB.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The proof's kind and format.
    pub kind: ProofKind,
    /// The library's own checker.
    pub own: OwnCheck,
    /// VeriPB.
    pub veripb: Opinion,
}

impl Verdict {
    /// Every checker that ran accepts the proof. (VeriPB not running is not a rejection: it
    /// is not asked for LRAT by default, and a library built without it has one checker.)
    pub fn verified(&self) -> bool {
        self.own.verified() && !matches!(self.veripb, Opinion::Rejected { .. })
    }

    /// The two checkers ran and came to different conclusions.
    pub fn disagree(&self) -> bool {
        self.veripb.ran() && self.own.verified() != (self.veripb == Opinion::Accepted)
    }

    /// Lemmas the library's checker accepted.
    pub fn lemmas(&self) -> u64 {
        match &self.own {
            OwnCheck::Drat(c) => c.lemmas,
            OwnCheck::Lrat(c) => c.lemmas,
        }
    }

    /// The checkers and what each said: `the DRAT checker of queens-sat (accepted), VeriPB
    /// 3.0.2 (accepted)`.
    pub fn checkers(&self) -> String {
        let own = if self.own.verified() {
            "accepted"
        } else {
            "rejected"
        };
        let second = match &self.veripb {
            Opinion::Accepted => "accepted".to_string(),
            Opinion::Rejected { .. } => "rejected".to_string(),
            other => other.to_string(),
        };
        format!(
            "{} ({own}), {} ({second})",
            self.own.name(),
            Opinion::name()
        )
    }

    /// One line: what the proof establishes, or why it is rejected.
    pub fn summary(&self) -> String {
        if self.verified() {
            format!("{} proof, {}", self.kind, self.own)
        } else if self.disagree() {
            format!(
                "the checkers disagree on this {} proof: {}: {}; {}: {}",
                self.kind,
                self.own.name(),
                if self.own.verified() {
                    format!("accepted ({})", self.own)
                } else {
                    format!("rejected at {}", self.own)
                },
                Opinion::name(),
                self.veripb
            )
        } else if !self.own.verified() {
            format!("{} proof: {}", self.kind, self.own)
        } else {
            format!("{} proof: {}: {}", self.kind, Opinion::name(), self.veripb)
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())
    }
}

/// Checks a proof (DRAT or LRAT, text or binary, recognised from its content) of the
/// unsatisfiability of `formula` (LRAT numbers its clauses 1, 2, ... in this order) over
/// `vars` variables: the library's checker, and VeriPB (always on DRAT, on LRAT when asked).
/// An error is a proof that cannot be read (malformed, too long); one that does not check is
/// a [`Verdict`] that is not verified.
pub fn check(
    formula: &Cnf,
    vars: usize,
    proof: impl Read,
    options: &CheckOptions,
) -> Result<Verdict, ProofError> {
    check_clauses(&dimacs_clauses(formula), vars, proof, options)
}

/// The checkers' own form of the clauses: DIMACS numbers.
fn dimacs_clauses(formula: &Cnf) -> Vec<Vec<i32>> {
    formula
        .iter()
        .map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect())
        .collect()
}

/// The literals of a clause read in DIMACS numbers.
fn lits(clause: &[i64]) -> Vec<Lit> {
    clause
        .iter()
        .map(|&l| Lit::from_dimacs(l as isize))
        .collect()
}

/// [`check`] on the clauses in DIMACS numbers.
fn check_clauses<C: AsRef<[i32]>>(
    clauses: &[C],
    vars: usize,
    proof: impl Read,
    options: &CheckOptions,
) -> Result<Verdict, ProofError> {
    let (kind, input) = sniffed(proof)?;
    let vars = max_var(clauses, vars);
    let second = match kind {
        ProofKind::Drat(_) => true,
        ProofKind::Lrat(_) => options.veripb_on_lrat,
    };
    #[cfg(feature = "veripb")]
    let mut translation = if second {
        Some(
            Translation::new(clauses, vars)
                .map_err(|e| ProofError::SecondChecker(e.to_string()))?,
        )
    } else {
        None
    };
    #[cfg(not(feature = "veripb"))]
    let mut translation: Option<NoTranslation> = None;
    let (own, refutation) = match kind {
        ProofKind::Drat(_) => {
            let (c, r) = drat(
                clauses,
                vars,
                input,
                options.limit,
                translation.as_mut(),
                !options.veripb_alone,
            )?;
            (OwnCheck::Drat(c), r)
        }
        ProofKind::Lrat(_) => {
            let (c, r) = lrat(clauses, vars, input, options.limit, translation.as_mut())?;
            (OwnCheck::Lrat(c), r)
        }
    };
    let veripb = match translation {
        #[cfg(feature = "veripb")]
        Some(t) => match t
            .judge(refutation)
            .map_err(|e| ProofError::SecondChecker(e.to_string()))?
        {
            Judgement::Accepted => Opinion::Accepted,
            Judgement::Rejected { step, at, reason } => Opinion::Rejected { step, at, reason },
        },
        #[cfg(not(feature = "veripb"))]
        Some(_) => {
            let _ = refutation;
            Opinion::NotBuiltIn
        }
        None if second => Opinion::NotBuiltIn,
        None => Opinion::NotAsked,
    };
    Ok(Verdict { kind, own, veripb })
}

/// Without VeriPB, the translation's calls do nothing.
#[cfg(not(feature = "veripb"))]
struct NoTranslation;

#[cfg(not(feature = "veripb"))]
impl NoTranslation {
    fn next_id(&self) -> u64 {
        0
    }
    fn rup(&mut self, _: &[i64], _: &[u64], _: Origin) -> io::Result<u64> {
        Ok(0)
    }
    fn rat(&mut self, _: &[i64], _: Origin) -> io::Result<u64> {
        Ok(0)
    }
    fn delete(&mut self, _: u64, _: Origin) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(feature = "veripb")]
type Sink = Translation;
#[cfg(not(feature = "veripb"))]
type Sink = NoTranslation;

#[cfg(not(feature = "veripb"))]
type Origin = (u64, Option<ProofPos>);

fn second(e: io::Error) -> ProofError {
    ProofError::SecondChecker(e.to_string())
}

/// The DRAT check, and the translation for VeriPB beside it: each accepted step with the
/// rule the checker found and, with `hinted`, the hints; past a failing step, every step as
/// VeriPB must check it alone (the clauses still followed, so that its ids and deletions
/// stay those of the proof). Returns the check and the id of the translation's refutation.
fn drat<C: AsRef<[i32]>>(
    clauses: &[C],
    vars: usize,
    input: impl Read,
    limit: u64,
    mut t: Option<&mut Sink>,
    hinted: bool,
) -> Result<(DratCheck, Option<u64>), ProofError> {
    let mut reader = ProofReader::new(input, vars as u64 + MAX_EXTRA_VARS, limit)?;
    let mut db = Database::new(clauses.iter().map(|c| c.as_ref()), vars);
    let mut check = DratCheck {
        format: reader.format(),
        end: DratEnd::Unfinished,
        steps: 0,
        unread: 0,
        lemmas: 0,
        rat: 0,
        deletions: 0,
        kept_units: 0,
        absent: 0,
        failure: None,
    };
    if db.refuted().is_some() {
        // Refuted by the formula alone: the proof is read (to count its steps, and refused
        // if malformed), not checked.
        check.unread = rest(&mut reader)?;
        check.end = DratEnd::Formula;
        let refutation = refute(&mut db, t, hinted)?;
        return Ok((check, refutation));
    }
    let mut failed = false;
    while let Some(step) = reader.next_step()? {
        check.steps += 1;
        let origin = (check.steps, Some(step.at));
        if step.deletion {
            match db.delete(&step.clause) {
                Deleted::Removed(id) => {
                    if !failed {
                        check.deletions += 1;
                    }
                    if let Some(t) = t.as_mut() {
                        t.delete(id, origin).map_err(second)?;
                    }
                }
                Deleted::Absent => check.absent += u64::from(!failed),
                Deleted::KeptUnit(_) => check.kept_units += u64::from(!failed),
            }
            continue;
        }
        if !failed {
            match db.lemma(&step.clause) {
                Ok(how) => {
                    check.lemmas += 1;
                    let mut written = None;
                    if let Some(t) = t.as_mut() {
                        // The translation's ids follow the database's.
                        debug_assert!(step.clause.is_empty() || t.next_id() == db.last_id());
                        written = Some(
                            match how {
                                Accepted::Rup | Accepted::Tautology => {
                                    let hints = if hinted { db.hints() } else { &[] };
                                    t.rup(&step.clause, hints, origin)
                                }
                                Accepted::Rat => t.rat(&step.clause, origin),
                            }
                            .map_err(second)?,
                        );
                    }
                    if how == Accepted::Rat {
                        check.rat += 1;
                    }
                    if step.clause.is_empty() {
                        check.end = DratEnd::EmptyClause(check.steps);
                        check.unread = rest(&mut reader)?;
                        return Ok((check, written));
                    }
                    if db.refuted().is_some() {
                        check.end = DratEnd::Refuted(check.steps);
                        let refutation = refute(&mut db, t.as_deref_mut(), hinted)?;
                        check.unread = rest(&mut reader)?;
                        return Ok((check, refutation));
                    }
                    continue;
                }
                Err(why) => {
                    check.end = DratEnd::Failed;
                    check.failure = Some(Failure {
                        step: check.steps,
                        at: Some(step.at),
                        clause: lits(&step.clause),
                        reason: match why {
                            Rejected::NotRup => "the empty clause does not follow: unit propagation reaches no conflict".to_string(),
                            Rejected::NotRat { pivot, clause } => format!(
                                "neither RUP nor RAT on its first literal {pivot} (the resolvent with clause {clause} is not RUP)"
                            ),
                        },
                    });
                    failed = true;
                }
            }
        }
        // Past the failing step (and from it on): followed for VeriPB's sake only.
        let Some(t) = t.as_mut() else {
            break;
        };
        if step.clause.is_empty() {
            let id = t.rup(&[], &[], origin).map_err(second)?;
            return Ok((check, Some(id)));
        }
        t.rat(&step.clause, origin).map_err(second)?;
        db.add_unchecked(&step.clause);
    }
    Ok((check, None))
}

/// The refutation in the translation, if there is one: the empty clause with the hints of
/// the database's top-level conflict (`hinted`). Its id.
fn refute(
    db: &mut Database,
    t: Option<&mut Sink>,
    hinted: bool,
) -> Result<Option<u64>, ProofError> {
    let Some(t) = t else {
        return Ok(None);
    };
    db.refutation_hints();
    let hints = if hinted { db.hints() } else { &[] };
    Ok(Some(t.rup(&[], hints, (0, None)).map_err(second)?))
}

/// Reads the rest of a proof, past its refutation, only to see that it is well formed (a
/// proof cut short is refused even when the part before the cut refutes the formula): the
/// steps read.
fn rest(reader: &mut ProofReader<impl Read>) -> Result<u64, ProofError> {
    let mut steps = 0;
    while reader.next_step()?.is_some() {
        steps += 1;
    }
    Ok(steps)
}

/// Checks an LRAT proof (text or binary, at most `limit` bytes) against the formula's clauses
/// (ids 1, 2, ... in order) with `vars` variables, by the library's LRAT checker alone: read
/// up to the empty clause, or to the end, or to the first failing step.
pub fn check_lrat(
    formula: &Cnf,
    vars: usize,
    proof: impl Read,
    limit: u64,
) -> Result<LratCheck, ProofError> {
    let clauses = dimacs_clauses(formula);
    Ok(lrat(&clauses, max_var(&clauses, vars), proof, limit, None)?.0)
}

/// `vars`, or the largest variable of the clauses if that is larger.
fn max_var<C: AsRef<[i32]>>(clauses: &[C], vars: usize) -> usize {
    vars.max(
        clauses
            .iter()
            .flat_map(|c| c.as_ref().iter())
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0),
    )
}

/// The LRAT check, and the translation for VeriPB beside it: every lemma with its own hints
/// (a lemma with RAT groups as redundance-based strengthening, which VeriPB checks alone),
/// past a failing step too. Returns the check and the id of the translation's refutation.
fn lrat<C: AsRef<[i32]>>(
    clauses: &[C],
    vars: usize,
    input: impl Read,
    limit: u64,
    mut t: Option<&mut Sink>,
) -> Result<(LratCheck, Option<u64>), ProofError> {
    let mut reader = LratReader::new(input, vars as u64 + MAX_EXTRA_VARS, limit)?;
    let mut checker = LratChecker::new(clauses.iter().map(|c| c.as_ref()), vars);
    let mut check = LratCheck {
        verified: false,
        format: reader.format(),
        steps: 0,
        lemmas: 0,
        rat_lemmas: 0,
        deletions: 0,
        failure: None,
    };
    // LRAT ids to the translation's (the formula's ids are the same in both).
    let formula = clauses.len() as u64;
    let mut ids: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
    // An id VeriPB has no constraint for.
    let nowhere = u64::MAX >> 2;
    let map = |ids: &std::collections::HashMap<u64, u64>, id: u64| {
        if (1..=formula).contains(&id) {
            id
        } else {
            ids.get(&id).copied().unwrap_or(nowhere)
        }
    };
    let mut failed = false;
    while let Some((step, at)) = reader.next_step()? {
        check.steps += 1;
        let origin = (check.steps, Some(at));
        match step {
            LratStep::Add { id, clause, hints } => {
                let lits: Vec<i64> = clause.iter().map(|l| l.to_dimacs() as i64).collect();
                let rat = hints.iter().any(|&h| h < 0);
                if let Some(t) = t.as_mut() {
                    let new = if rat {
                        t.rat(&lits, origin)
                    } else {
                        let mapped: Vec<u64> = hints.iter().map(|&h| map(&ids, h as u64)).collect();
                        t.rup(&lits, &mapped, origin)
                    }
                    .map_err(second)?;
                    ids.insert(id, new);
                    if clause.is_empty() {
                        if !failed {
                            verify_lemma(&mut checker, &mut check, id, clause, &hints, at);
                        }
                        return Ok((check, Some(new)));
                    }
                }
                if failed {
                    continue;
                }
                let empty = clause.is_empty();
                if verify_lemma(&mut checker, &mut check, id, clause, &hints, at) {
                    if empty {
                        return Ok((check, None));
                    }
                } else {
                    failed = true;
                    if t.is_none() {
                        break;
                    }
                }
            }
            LratStep::Delete { ids: gone, .. } => {
                if let Some(t) = t.as_mut() {
                    for d in &gone {
                        let mapped = map(&ids, *d);
                        t.delete(mapped, origin).map_err(second)?;
                        if mapped > formula {
                            ids.remove(d);
                        }
                    }
                }
                if failed {
                    continue;
                }
                match checker.delete(&gone) {
                    Ok(()) => check.deletions += gone.len() as u64,
                    Err((id, kind)) => {
                        check.failure = Some(LratFailure {
                            step: check.steps,
                            at,
                            id,
                            clause: Vec::new(),
                            kind,
                        });
                        failed = true;
                        if t.is_none() {
                            break;
                        }
                    }
                }
            }
        }
    }
    Ok((check, None))
}

/// Checks one LRAT lemma into `check`: `true` when it holds (the proof verified when it is
/// the empty clause).
fn verify_lemma(
    checker: &mut LratChecker,
    check: &mut LratCheck,
    id: u64,
    clause: Vec<Lit>,
    hints: &[i64],
    at: ProofPos,
) -> bool {
    let dimacs: Vec<i32> = clause.iter().map(|l| l.to_dimacs() as i32).collect();
    match checker.add(id, &dimacs, hints) {
        Ok(rat) => {
            check.lemmas += 1;
            check.rat_lemmas += u64::from(rat);
            if clause.is_empty() {
                check.verified = true;
            }
            true
        }
        Err(kind) => {
            check.failure = Some(LratFailure {
                step: check.steps,
                at,
                id,
                clause,
                kind,
            });
            false
        }
    }
}
