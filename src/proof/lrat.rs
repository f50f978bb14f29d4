//! An LRAT proof checker: text and binary LRAT, read as a stream and checked step by step
//! without search.
//!
//! An LRAT proof numbers the formula's clauses 1, 2, ... in the order of the CNF file and
//! gives every added clause (lemma) a new number and its *hints*: the clauses that make it
//! follow by unit propagation. Checking a lemma `C` assigns the negation of `C`, then goes
//! through the hints in order: each must become unit (one literal left, which is then
//! assigned) or falsified (a conflict: the lemma holds, reverse unit propagation, RUP). A
//! negative hint `-j` starts a RAT group: the lemma's first literal `p` is the pivot, and
//! for every clause `D` containing `-p` there must be a group `-id(D) hints...` that
//! derives a conflict from `C` and `D` without `-p` (a group may be left out when `D`
//! without `-p` is already satisfied). Deletions (`id d ids 0`) remove clauses. The proof is
//! verified once the empty clause is added; the check costs the proof's length (plus, for a
//! RAT lemma, one pass over the clauses), never a search.
//!
//! * Text: `id lits 0 hints 0` and `id d ids 0`, one step a line; lines starting with `c`
//!   are comments.
//! * Binary (as CaDiCaL and lrat-trim write it): `a`, the id, the literals, 0, the hints,
//!   0; or `d`, the ids, 0. Every number is a variable-length integer of 7-bit groups, low
//!   group first, with the high bit set on all but the last byte: literal or hint `x`
//!   as `2|x| + (x < 0)`, an id `i` as `2i`.
//!
//! The format is recognised from the proof's first bytes ([`sniff_proof`](super::sniff_proof), which also tells
//! DRAT from LRAT). A failing step is reported with its number, its place (line or byte)
//! and its clause id ([`LratFailure`]); a malformed proof is a [`ProofError`].
//!
//! ```
//! use queens_sat::cnf::{Cnf, Lit};
//! use queens_sat::proof::check_lrat;
//! // (1 or 2), (-1 or 2), (1 or -2), (-1 or -2): unsatisfiable.
//! let cnf: Cnf = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
//!     .iter()
//!     .map(|c| c.map(Lit::from_dimacs))
//!     .collect();
//! let proof = "5 2 0 1 2 0\n6 0 5 3 4 0\n";
//! let check = check_lrat(&cnf, 2, proof.as_bytes(), u64::MAX).unwrap();
//! assert!(check.verified, "{check}");
//! let wrong = "5 2 0 1 0\n";
//! let check = check_lrat(&cnf, 2, wrong.as_bytes(), u64::MAX).unwrap();
//! assert_eq!(check.failure.unwrap().id, 5);
//! ```

use super::{sniffed, ProofError, ProofPos, ProofSyntax, Sniffed, MAX_EXTRA_VARS};
use crate::cnf::{Lit, Var};
use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

/// One step of an LRAT proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LratStep {
    /// A lemma: its id, its literals (DIMACS) and its hints (negative: a RAT group's clause).
    Add {
        /// The new clause's id.
        id: u64,
        /// Its literals.
        clause: Vec<Lit>,
        /// Its hints.
        hints: Vec<i64>,
    },
    /// Clauses deleted.
    Delete {
        /// The step's own id (text proofs; 0 in binary ones).
        id: u64,
        /// The ids deleted.
        ids: Vec<u64>,
    },
}

/// A streaming LRAT parser (text or binary, recognised by [`sniff_proof`](super::sniff_proof): a proof that
/// looks like DRAT is read as text or binary LRAT all the same, and fails where it is not).
pub struct LratReader<R: Read> {
    input: BufReader<io::Take<Sniffed<R>>>,
    format: ProofSyntax,
    max_var: u64,
    limit: u64,
    /// Bytes consumed (binary) or lines read (text).
    pos: u64,
    /// Bytes read (text).
    bytes: u64,
    line: Vec<u8>,
}

impl<R: Read> LratReader<R> {
    /// A reader of at most `limit` bytes of proof with variables up to `max_var`.
    pub fn new(input: R, max_var: u64, limit: u64) -> Result<Self, ProofError> {
        let (kind, input) = sniffed(input)?;
        let format = kind.format();
        let input = input.take(limit.saturating_add(1));
        Ok(LratReader {
            input: BufReader::with_capacity(1 << 16, input),
            format,
            max_var,
            limit,
            pos: 0,
            bytes: 0,
            line: Vec::new(),
        })
    }

    /// The proof's format.
    pub fn format(&self) -> ProofSyntax {
        self.format
    }

    /// Where the next step starts.
    pub fn position(&self) -> ProofPos {
        match self.format {
            ProofSyntax::Text => ProofPos::Line(self.pos + 1),
            ProofSyntax::Binary => ProofPos::Byte(self.pos),
        }
    }

    fn error(at: ProofPos, message: impl Into<String>) -> ProofError {
        ProofError::Parse {
            kind: "LRAT",
            at,
            message: message.into(),
        }
    }

    /// The next step and where it starts, `None` at the end.
    pub fn next_step(&mut self) -> Result<Option<(LratStep, ProofPos)>, ProofError> {
        match self.format {
            ProofSyntax::Text => self.next_text(),
            ProofSyntax::Binary => self.next_binary(),
        }
    }

    fn past_limit(&self, consumed: u64) -> Result<(), ProofError> {
        if consumed > self.limit {
            return Err(ProofError::TooLarge { limit: self.limit });
        }
        Ok(())
    }

    fn next_text(&mut self) -> Result<Option<(LratStep, ProofPos)>, ProofError> {
        loop {
            self.line.clear();
            let n = self
                .input
                .read_until(b'\n', &mut self.line)
                .map_err(ProofError::Read)?;
            if n == 0 {
                return Ok(None);
            }
            self.bytes += n as u64;
            self.past_limit(self.bytes)?;
            self.pos += 1;
            let at = ProofPos::Line(self.pos);
            let line = String::from_utf8_lossy(&self.line);
            let t = line.trim();
            if t.is_empty() || t.starts_with('c') {
                continue;
            }
            let mut tokens = t.split_whitespace();
            let num = |tok: Option<&str>| -> Result<i64, ProofError> {
                let tok = tok.ok_or_else(|| {
                    Self::error(at, "the line ends before its terminating 0 (truncated?)")
                })?;
                tok.parse::<i64>().map_err(|_| {
                    Self::error(
                        at,
                        format!("'{}' is not a number", crate::input::escape(tok, 40)),
                    )
                })
            };
            let id = num(tokens.next())?;
            if id <= 0 {
                return Err(Self::error(at, format!("clause id {id} (ids start at 1)")));
            }
            let id = id as u64;
            let mut rest = tokens.clone().peekable();
            if rest.peek() == Some(&"d") {
                tokens.next();
                let mut ids = Vec::new();
                loop {
                    let x = num(tokens.next())?;
                    if x == 0 {
                        break;
                    }
                    if x < 0 {
                        return Err(Self::error(at, format!("deletion of clause id {x}")));
                    }
                    ids.push(x as u64);
                }
                self.trailing(at, tokens.next())?;
                return Ok(Some((LratStep::Delete { id, ids }, at)));
            }
            let mut clause = Vec::new();
            loop {
                let x = num(tokens.next())?;
                if x == 0 {
                    break;
                }
                self.check_lit(at, x)?;
                clause.push(Lit::from_dimacs(x as isize));
            }
            let mut hints = Vec::new();
            loop {
                let x = num(tokens.next())?;
                if x == 0 {
                    break;
                }
                hints.push(x);
            }
            self.trailing(at, tokens.next())?;
            return Ok(Some((LratStep::Add { id, clause, hints }, at)));
        }
    }

    fn trailing(&self, at: ProofPos, extra: Option<&str>) -> Result<(), ProofError> {
        match extra {
            None => Ok(()),
            Some(t) => Err(Self::error(
                at,
                format!(
                    "'{}' after the step's terminating 0 (one step a line)",
                    crate::input::escape(t, 40)
                ),
            )),
        }
    }

    fn check_lit(&self, at: ProofPos, x: i64) -> Result<(), ProofError> {
        if x.unsigned_abs() > self.max_var || x.unsigned_abs() > Var::max_count() as u64 {
            return Err(Self::error(
                at,
                format!(
                    "variable {} is beyond the {} the formula and {MAX_EXTRA_VARS} extension variables allow",
                    x.unsigned_abs(),
                    self.max_var
                ),
            ));
        }
        Ok(())
    }

    fn byte(&mut self, start: u64) -> Result<u8, ProofError> {
        let buf = self.input.fill_buf().map_err(ProofError::Read)?;
        let Some(&b) = buf.first() else {
            self.past_limit(self.pos)?;
            return Err(Self::error(
                ProofPos::Byte(self.pos),
                format!("the proof ends inside the step that starts at byte {start} (truncated?)"),
            ));
        };
        self.input.consume(1);
        self.pos += 1;
        self.past_limit(self.pos)?;
        Ok(b)
    }

    fn number(&mut self, start: u64) -> Result<u64, ProofError> {
        let at = self.pos;
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte(start)?;
            if shift > 56 {
                return Err(Self::error(
                    ProofPos::Byte(at),
                    "a number longer than 9 bytes",
                ));
            }
            value |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
    }

    fn next_binary(&mut self) -> Result<Option<(LratStep, ProofPos)>, ProofError> {
        let start = self.pos;
        let at = ProofPos::Byte(start);
        let buf = self.input.fill_buf().map_err(ProofError::Read)?;
        if buf.is_empty() {
            return Ok(None);
        }
        let kind = self.byte(start)?;
        let signed = |code: u64| -> i64 {
            let v = (code >> 1) as i64;
            if code & 1 == 1 {
                -v
            } else {
                v
            }
        };
        match kind {
            b'a' => {
                let code = self.number(start)?;
                if code == 0 || code & 1 == 1 {
                    return Err(Self::error(
                        at,
                        format!("clause id code {code} (ids are 2i, i >= 1)"),
                    ));
                }
                let id = code >> 1;
                let mut clause = Vec::new();
                loop {
                    let lit_at = ProofPos::Byte(self.pos);
                    let code = self.number(start)?;
                    if code == 0 {
                        break;
                    }
                    if code == 1 {
                        return Err(Self::error(lit_at, "literal code 1"));
                    }
                    let x = signed(code);
                    self.check_lit(lit_at, x)?;
                    clause.push(Lit::from_dimacs(x as isize));
                }
                let mut hints = Vec::new();
                loop {
                    let code = self.number(start)?;
                    if code == 0 {
                        break;
                    }
                    hints.push(signed(code));
                }
                Ok(Some((LratStep::Add { id, clause, hints }, at)))
            }
            b'd' => {
                let mut ids = Vec::new();
                loop {
                    let code = self.number(start)?;
                    if code == 0 {
                        break;
                    }
                    if code & 1 == 1 {
                        return Err(Self::error(
                            at,
                            format!("deletion of a negative id (code {code})"),
                        ));
                    }
                    ids.push(code >> 1);
                }
                Ok(Some((LratStep::Delete { id: 0, ids }, at)))
            }
            b => Err(Self::error(
                at,
                format!("a step starts with 'a' or 'd', not 0x{b:02x}"),
            )),
        }
    }
}

/// What is wrong with a step.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LratFailureKind {
    /// The id is already in use, or 0.
    #[error("clause id {0} is already in use")]
    DuplicateId(u64),
    /// A hint names no clause (never added, or deleted).
    #[error("hint {0} names no clause (never added, or deleted)")]
    UnknownHint(i64),
    /// A hint clause has two or more unassigned literals.
    #[error("hint {0} is not unit: two or more of its literals are unassigned")]
    NotUnit(i64),
    /// A hint clause is satisfied.
    #[error("hint {0} is satisfied, not unit")]
    Satisfied(i64),
    /// The hints end without a conflict.
    #[error("the hints end without a conflict")]
    NoConflict,
    /// A RAT group's hints end without a conflict.
    #[error("the RAT group of clause {0} ends without a conflict")]
    RatNoConflict(u64),
    /// A clause with the negated pivot has no RAT group.
    #[error("no RAT group for clause {clause}, which contains {negated_pivot}, the negated pivot")]
    MissingRatGroup {
        /// The clause.
        clause: u64,
        /// The negated pivot.
        negated_pivot: Lit,
    },
    /// A RAT group names a clause without the negated pivot.
    #[error(
        "the RAT group of clause {clause} does not contain {negated_pivot}, the negated pivot"
    )]
    NotResolvable {
        /// The clause.
        clause: u64,
        /// The negated pivot.
        negated_pivot: Lit,
    },
    /// The empty clause has no pivot for a RAT check.
    #[error("the empty clause cannot be a RAT lemma")]
    EmptyRat,
    /// A deletion names no clause.
    #[error("deletes clause {0}, which is not present")]
    DeleteUnknown(u64),
}

/// The first failing step of a proof.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("step {step} ({at}), clause {id}: {kind}")]
pub struct LratFailure {
    /// 1-based number of the step (deletions counted).
    pub step: u64,
    /// Where it starts.
    pub at: ProofPos,
    /// The step's clause id (of a deletion: the clause it names).
    pub id: u64,
    /// Its literals (empty for a deletion).
    pub clause: Vec<Lit>,
    /// What is wrong.
    pub kind: LratFailureKind,
}

/// The result of an LRAT check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LratCheck {
    /// The empty clause was added and every step before it checked.
    pub verified: bool,
    /// The proof's format.
    pub format: ProofSyntax,
    /// Steps read, deletions included.
    pub steps: u64,
    /// Lemmas checked (the empty clause included).
    pub lemmas: u64,
    /// Lemmas that needed RAT groups.
    pub rat_lemmas: u64,
    /// Clauses deleted.
    pub deletions: u64,
    /// The first failing step, when one fails.
    pub failure: Option<LratFailure>,
}

impl fmt::Display for LratCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.verified {
            return write!(
                f,
                "{} lemmas ({} RAT), {} deletions, the empty clause derived",
                self.lemmas, self.rat_lemmas, self.deletions
            );
        }
        match &self.failure {
            Some(x) => {
                let lits: Vec<String> = x.clause.iter().map(Lit::to_string).collect();
                write!(
                    f,
                    "step {} ({}), clause {} [{}]: {}",
                    x.step,
                    x.at,
                    x.id,
                    lits.join(" "),
                    x.kind
                )
            }
            None => write!(
                f,
                "the proof ends after {} steps without the empty clause",
                self.steps
            ),
        }
    }
}

/// The clause database and assignment of an LRAT check.
pub(crate) struct LratChecker {
    /// Clauses by id, for ids below the table's length.
    dense: Vec<Option<Box<[i32]>>>,
    /// Clauses with ids past the table.
    sparse: HashMap<u64, Box<[i32]>>,
    /// Clauses added so far (the table grows to twice this at most).
    added: u64,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    vals: Vec<i8>,
    trail: Vec<u32>,
    max_var: usize,
}

/// Clauses a table grows to at least, whatever the proof.
const DENSE_MIN: u64 = 1 << 16;

impl LratChecker {
    /// A checker for the formula's clauses (ids 1, 2, ... in order), with variables up to
    /// `max_var` (more may appear in lemmas: the table grows).
    pub(crate) fn new<'a>(clauses: impl IntoIterator<Item = &'a [i32]>, max_var: usize) -> Self {
        let mut c = LratChecker {
            dense: vec![None],
            sparse: HashMap::new(),
            added: 0,
            vals: vec![0; max_var + 1],
            trail: Vec::new(),
            max_var,
        };
        for (i, cl) in clauses.into_iter().enumerate() {
            c.insert(i as u64 + 1, cl.into());
        }
        c
    }

    fn insert(&mut self, id: u64, clause: Box<[i32]>) {
        self.added += 1;
        for &l in clause.iter() {
            self.ensure_var(l.unsigned_abs() as usize);
        }
        if id < (self.dense.len() as u64).max(2 * self.added).max(DENSE_MIN) {
            if id >= self.dense.len() as u64 {
                let want = (id + 1).max(self.dense.len() as u64 * 3 / 2) as usize;
                self.dense.resize(want, None);
            }
            self.dense[id as usize] = Some(clause);
        } else {
            self.sparse.insert(id, clause);
        }
    }

    fn ensure_var(&mut self, v: usize) {
        if v > self.max_var {
            self.max_var = v;
            self.vals.resize(v + 1, 0);
        }
    }

    fn contains(&self, id: u64) -> bool {
        self.get(id).is_some()
    }

    fn get(&self, id: u64) -> Option<&[i32]> {
        if let Some(Some(c)) = self.dense.get(id as usize) {
            return Some(c);
        }
        if self.sparse.is_empty() {
            return None;
        }
        self.sparse.get(&id).map(|c| &c[..])
    }

    fn remove(&mut self, id: u64) -> bool {
        if let Some(slot) = self.dense.get_mut(id as usize) {
            if slot.take().is_some() {
                return true;
            }
        }
        self.sparse.remove(&id).is_some()
    }

    fn value(&self, l: i32) -> i8 {
        let v = self.vals[l.unsigned_abs() as usize];
        if l < 0 {
            -v
        } else {
            v
        }
    }

    /// Makes `l` true.
    fn assign(&mut self, l: i32) {
        let v = l.unsigned_abs();
        self.vals[v as usize] = if l < 0 { -1 } else { 1 };
        self.trail.push(v);
    }

    fn undo_to(&mut self, len: usize) {
        for v in self.trail.drain(len..) {
            self.vals[v as usize] = 0;
        }
    }

    /// Assigns the negation of `lits`; `true` when one of them is already true (the clause
    /// is satisfied: a tautology with what is assigned).
    fn assume_negation(&mut self, lits: &[i32]) -> bool {
        for &l in lits {
            match self.value(l) {
                1 => return true,
                -1 => {}
                _ => self.assign(-l),
            }
        }
        false
    }

    /// Propagates the positive hints in order: `Ok(true)` at a conflict, `Ok(false)` when
    /// they end without one.
    fn propagate(&mut self, hints: &[i64]) -> Result<bool, LratFailureKind> {
        for &h in hints {
            let Some(c) = self.get(h as u64) else {
                return Err(LratFailureKind::UnknownHint(h));
            };
            let mut unit = 0;
            for &l in c {
                match self.value(l) {
                    1 => return Err(LratFailureKind::Satisfied(h)),
                    -1 => {}
                    _ if unit == 0 || unit == l => unit = l,
                    _ => return Err(LratFailureKind::NotUnit(h)),
                }
            }
            if unit == 0 {
                return Ok(true);
            }
            self.assign(unit);
        }
        Ok(false)
    }

    /// Checks and adds a lemma: `Ok(rat)` when it holds (`rat`: it needed RAT groups).
    pub(crate) fn add(
        &mut self,
        id: u64,
        clause: &[i32],
        hints: &[i64],
    ) -> Result<bool, LratFailureKind> {
        if id == 0 || self.contains(id) {
            return Err(LratFailureKind::DuplicateId(id));
        }
        for &l in clause {
            self.ensure_var(l.unsigned_abs() as usize);
        }
        let r = self.check(clause, hints);
        self.undo_to(0);
        let rat = r?;
        self.insert(id, clause.into());
        Ok(rat)
    }

    fn check(&mut self, clause: &[i32], hints: &[i64]) -> Result<bool, LratFailureKind> {
        if self.assume_negation(clause) {
            // A tautology.
            return Ok(false);
        }
        let split = hints.iter().position(|&h| h < 0).unwrap_or(hints.len());
        if self.propagate(&hints[..split])? {
            return Ok(false);
        }
        if split == hints.len() {
            return Err(LratFailureKind::NoConflict);
        }
        let Some(&pivot) = clause.first() else {
            return Err(LratFailureKind::EmptyRat);
        };
        // The groups: -id followed by its positive hints.
        let mut groups: HashMap<u64, &[i64]> = HashMap::new();
        let rest = &hints[split..];
        let mut i = 0;
        while i < rest.len() {
            let d = rest[i].unsigned_abs();
            let end = rest[i + 1..]
                .iter()
                .position(|&h| h < 0)
                .map_or(rest.len(), |k| i + 1 + k);
            groups.insert(d, &rest[i + 1..end]);
            i = end;
        }
        for &d in groups.keys() {
            match self.get(d) {
                None => return Err(LratFailureKind::UnknownHint(-(d as i64))),
                Some(c) if !c.contains(&-pivot) => {
                    return Err(LratFailureKind::NotResolvable {
                        clause: d,
                        negated_pivot: Lit::from_dimacs(-pivot as isize),
                    })
                }
                Some(_) => {}
            }
        }
        // Every clause with -pivot, in id order.
        let mut with: Vec<u64> = self
            .dense
            .iter()
            .enumerate()
            .filter(|(_, c)| c.as_ref().is_some_and(|c| c.contains(&-pivot)))
            .map(|(i, _)| i as u64)
            .collect();
        with.extend(
            self.sparse
                .iter()
                .filter(|(_, c)| c.contains(&-pivot))
                .map(|(&i, _)| i),
        );
        with.sort_unstable();
        let base = self.trail.len();
        for d in with {
            let lits: Vec<i32> = self
                .get(d)
                .map(|c| c.iter().copied().filter(|&l| l != -pivot).collect())
                .unwrap_or_default();
            let satisfied = self.assume_negation(&lits);
            let ok = if satisfied {
                true
            } else {
                match groups.get(&d) {
                    None => {
                        self.undo_to(base);
                        return Err(LratFailureKind::MissingRatGroup {
                            clause: d,
                            negated_pivot: Lit::from_dimacs(-pivot as isize),
                        });
                    }
                    Some(g) => {
                        let r = self.propagate(g);
                        match r {
                            Err(e) => {
                                self.undo_to(base);
                                return Err(e);
                            }
                            Ok(c) => c,
                        }
                    }
                }
            };
            self.undo_to(base);
            if !ok {
                return Err(LratFailureKind::RatNoConflict(d));
            }
        }
        Ok(true)
    }

    /// Deletes clauses.
    pub(crate) fn delete(&mut self, ids: &[u64]) -> Result<(), (u64, LratFailureKind)> {
        for &d in ids {
            if !self.remove(d) {
                return Err((d, LratFailureKind::DeleteUnknown(d)));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Cnf;
    use crate::proof::{check_lrat, sniff_proof, ProofKind, ProofSyntax};

    fn cnf<C: AsRef<[i32]>>(clauses: &[C]) -> Cnf {
        let lits = |c: &C| -> Vec<Lit> {
            c.as_ref()
                .iter()
                .map(|&l| Lit::from_dimacs(l as isize))
                .collect()
        };
        clauses.iter().map(lits).collect()
    }

    fn xor2() -> Vec<Vec<i32>> {
        vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]]
    }

    fn check(proof: &[u8]) -> LratCheck {
        check_lrat(&cnf(&xor2()), 2, proof, 1 << 20).unwrap()
    }

    #[test]
    fn text_rup() {
        let c = check(b"c a comment\n5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n");
        assert!(c.verified, "{c}");
        assert_eq!((c.steps, c.lemmas, c.deletions), (3, 2, 2));
    }

    #[test]
    fn binary_rup() {
        // a 5: 2 0 1 2 0; d 1 2 0; a 6: 0 5 3 4 0.
        let p = [
            b'a', 10, 4, 0, 2, 4, 0, b'd', 2, 4, 0, b'a', 12, 0, 10, 6, 8, 0,
        ];
        assert_eq!(sniff_proof(&p), ProofKind::Lrat(ProofSyntax::Binary));
        let c = check(&p);
        assert!(c.verified, "{c}");
        assert_eq!(c.format, ProofSyntax::Binary);
    }

    #[test]
    fn failures_name_the_step() {
        let f = check(b"5 2 0 1 0\n").failure.unwrap();
        assert_eq!((f.step, f.id, f.at), (1, 5, ProofPos::Line(1)));
        assert_eq!(f.kind, LratFailureKind::NoConflict);
        let f = check(b"5 2 0 1 2 0\n6 0 7 3 4 0\n").failure.unwrap();
        assert_eq!(
            (f.step, f.kind.clone()),
            (2, LratFailureKind::UnknownHint(7))
        );
        let f = check(b"5 2 0 3 0\n").failure.unwrap();
        assert_eq!(f.kind, LratFailureKind::Satisfied(3), "{f}");
        // (3) is not implied; with 3 false, clause 1 (1 2) has two free literals.
        let f = check(b"5 3 0 1 0\n").failure.unwrap();
        assert_eq!(f.kind, LratFailureKind::NotUnit(1), "{f}");
        let f = check(b"5 2 0 1 2 0\n4 1 0 3 0\n").failure.unwrap();
        assert_eq!(f.kind, LratFailureKind::DuplicateId(4));
        let f = check(b"5 d 9 0\n").failure.unwrap();
        assert_eq!(f.kind, LratFailureKind::DeleteUnknown(9));
        let c = check(b"5 2 0 1 2 0\n");
        assert!(!c.verified && c.failure.is_none(), "{c}");
    }

    #[test]
    fn rat_groups() {
        // F = (1 2) (-1 2): lemma (3 1)? Use extension: x3 <-> not 1... Simpler: the clause
        // (3) with a fresh variable 3 is RAT on 3 (no clause contains -3).
        let f = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
        let c = check_lrat(&cnf(&f), 3, &b"5 3 0 -1 0\n"[..], 1 << 20).unwrap();
        // -1 names a clause without -3: not resolvable.
        assert!(matches!(
            c.failure.unwrap().kind,
            LratFailureKind::NotResolvable { .. }
        ));
        // (3) with an empty group list is fine when no clause has -3... but the lemma needs a
        // negative hint to be RAT at all.
        let c = check_lrat(&cnf(&f), 3, &b"5 3 0 0\n"[..], 1 << 20).unwrap();
        assert_eq!(c.failure.unwrap().kind, LratFailureKind::NoConflict);
        // Add (-3 1), then (3 -1) by RAT on 3: resolvent with (-3 1) is (-1 1): tautology.
        let p = b"5 -3 1 0 -1 0\n";
        let c = check_lrat(&cnf(&f), 3, &p[..], 1 << 20).unwrap();
        assert!(matches!(
            c.failure.unwrap().kind,
            LratFailureKind::NotResolvable { .. }
        ));
        let f2 = vec![vec![1, 2], vec![-3, 1]];
        // Lemma (3 -1) by RAT on 3: the only clause with -3 is 2 = (-3 1); the resolvent
        // (-1 1) is a tautology, so the group may be empty: "-2".
        let c = check_lrat(&cnf(&f2), 3, &b"3 3 -1 0 -2 0\n"[..], 1 << 20).unwrap();
        assert!(c.failure.is_none(), "{c}");
        assert_eq!(c.rat_lemmas, 1);
        // Lemma (3 2) by RAT on 3: resolvent with (-3 1) is (2 1) = clause 1: the group
        // -2 1 must falsify clause 1 under -2, -1... -3? Assigned: -3, -2; group: -1 (from
        // D without -3 = (1): assign -1), then hint 1 = (1 2) is falsified: conflict.
        let c = check_lrat(&cnf(&f2), 3, &b"3 3 2 0 -2 1 0\n"[..], 1 << 20).unwrap();
        assert!(c.failure.is_none(), "{c}");
        // Without the group's hint: no conflict.
        let c = check_lrat(&cnf(&f2), 3, &b"3 3 2 0 -2 0\n"[..], 1 << 20).unwrap();
        assert_eq!(c.failure.unwrap().kind, LratFailureKind::RatNoConflict(2));
        // A clause with -3 without a group.
        let f3 = vec![vec![1, 2], vec![-3, 1], vec![-3, 2]];
        let c = check_lrat(&cnf(&f3), 3, &b"4 3 2 0 -2 1 0\n"[..], 1 << 20).unwrap();
        assert!(matches!(
            c.failure.unwrap().kind,
            LratFailureKind::MissingRatGroup { clause: 3, .. }
        ));
        let c = check_lrat(&cnf(&f3), 3, &b"4 3 0 -2 1 0\n"[..], 1 << 20).unwrap();
        assert_eq!(c.failure.unwrap().kind, LratFailureKind::RatNoConflict(2));
    }

    #[test]
    fn parse_errors() {
        let e = check_lrat(&cnf(&xor2()), 2, &b"5 2 0 1 x 0\n"[..], 1 << 20).unwrap_err();
        assert!(
            e.to_string().contains("line 1") && e.to_string().contains("'x'"),
            "{e}"
        );
        let e = check_lrat(&cnf(&xor2()), 2, &b"5 2 0 1 2\n"[..], 1 << 20).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
        let e = check_lrat(&cnf(&xor2()), 2, &b"5 9999999 0 1 0\n"[..], 10).unwrap_err();
        assert!(
            matches!(e, ProofError::TooLarge { .. }) || e.to_string().contains("variable"),
            "{e}"
        );
        let e = check_lrat(&cnf(&xor2()), 2, &[b'a', 10, 4, 0, 2][..], 1 << 20).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
    }

    #[test]
    fn sniffs_formats() {
        assert_eq!(sniff_proof(b"1 2 0\n"), ProofKind::Drat(ProofSyntax::Text));
        assert_eq!(
            sniff_proof(b"d 1 2 0\n"),
            ProofKind::Drat(ProofSyntax::Text)
        );
        assert_eq!(sniff_proof(b"0\n"), ProofKind::Drat(ProofSyntax::Text));
        assert_eq!(
            sniff_proof(b"c x\n5 1 0 1 2 0\n"),
            ProofKind::Lrat(ProofSyntax::Text)
        );
        assert_eq!(
            sniff_proof(b"5 d 1 0\n"),
            ProofKind::Lrat(ProofSyntax::Text)
        );
        assert_eq!(
            sniff_proof(b"6 0 1 2 0\n"),
            ProofKind::Lrat(ProofSyntax::Text)
        );
        assert_eq!(
            sniff_proof(&[b'a', 2, 5, 0, b'd', 2, 5, 0, b'a', 0]),
            ProofKind::Drat(ProofSyntax::Binary)
        );
    }
}
