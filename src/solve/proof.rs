//! Proofs of unsatisfiability: DRAT proofs written by the embedded solver, and a checker for
//! DRAT proofs from any solver.
//!
//! An UNSAT answer is a claim about every one of the 2^vars assignments; a DRAT proof turns it
//! into a list of clauses (lemmas) that can be checked one by one. Each lemma must follow from
//! the formula and the lemmas before it by reverse unit propagation (RUP) or be a resolution
//! asymmetric tautology (RAT); deletions (`d ...`) only shrink the clause set. The proof is
//! complete when the empty clause is derived.
//!
//! * [`prove_unsat`] solves with the embedded solver (varisat) and writes its proof as text
//!   DRAT, or returns the solution when there is one.
//! * [`check_proof`] reads a proof, text or binary DRAT (the format is recognised from its
//!   content), and checks it against the formula with the independent checker of the
//!   `dratify` crate, which shares no code with the solver that wrote the proof.
//! * [`ProofReader`] is the streaming parser behind [`check_proof`]: one step at a time, with
//!   the line (text) or byte offset (binary) where each step starts.
//!
//! The formula's clauses are made in memory by [`crate::instance::encode`]. The checker keeps
//! every lemma in memory, so a proof longer than [`MAX_PROOF_BYTES`] is refused before checking
//! ([`check_proof_limited`] sets another bound).
//!
//! ```
//! use queens_sat::instance::{Instance, Model};
//! use queens_sat::solve::{check_proof, prove_unsat, ProofOutcome};
//!
//! let inst = Instance::new(3, Model::default()).unwrap();
//! let mut proof = Vec::new();
//! assert!(matches!(prove_unsat(&inst, &mut proof).unwrap(), ProofOutcome::Unsat { .. }));
//! let check = check_proof(&inst, &proof[..]).unwrap();
//! assert!(check.verified, "{check}");
//! ```

use super::{decode_model, load, Assignment, Backend, Model, SolveError, SolverOption};
use crate::cnf::Cnf;
use crate::instance::Formula;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};

/// The longest proof [`check_proof`] reads: 1 GiB. The checker holds every lemma in memory
/// (several times the proof's size in text), so longer proofs are refused before checking.
pub const MAX_PROOF_BYTES: u64 = 1 << 30;

/// How many variables a proof may use beyond the formula's own (extension variables of RAT
/// steps). A larger variable is a parse error: the checker sizes its tables by the largest
/// variable it sees.
pub const MAX_EXTRA_VARS: u64 = 1 << 20;

/// Steps handed to the checker at a time.
const CHUNK: usize = 4096;

/// Bytes looked at to tell binary from text DRAT.
const SNIFF: u64 = 1 << 16;

/// What [`prove_unsat`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofOutcome {
    /// No solution: the proof was written in full.
    Unsat {
        /// Bytes of the proof.
        bytes: u64,
    },
    /// A solution exists (no proof of unsatisfiability can exist); the proof target received
    /// only the solver's steps up to the solution and should be discarded.
    Sat(Box<Model>),
}

/// Why a proof could not be written or checked. A proof that is read in full but does not
/// check is not an error: see [`ProofCheck::failure`].
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The formula could not be made or solved.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The embedded solver failed while writing the proof (typically an I/O error on the
    /// proof target).
    #[error("writing the proof failed: {0}")]
    Write(String),
    /// Reading the proof failed.
    #[error("reading the proof: {0}")]
    Read(#[source] io::Error),
    /// The proof is longer than the bound.
    #[error("the proof is longer than {limit} bytes, the most this checker reads (it keeps every lemma in memory)")]
    TooLarge {
        /// The bound, bytes.
        limit: u64,
    },
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
    /// An LRAT proof could not be read.
    #[error(transparent)]
    Lrat(#[from] super::lrat::LratError),
    /// The proof is not DRAT.
    #[error("not a DRAT proof: {at}: {message}")]
    Parse {
        /// Where.
        at: ProofPos,
        /// What is wrong.
        message: String,
    },
}

/// A place in a proof: a line of a text proof, a byte offset of a binary one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofPos {
    /// 1-based line of a text proof.
    Line(u64),
    /// 0-based byte offset in a binary proof.
    Byte(u64),
}

impl fmt::Display for ProofPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofPos::Line(l) => write!(f, "line {l}"),
            ProofPos::Byte(b) => write!(f, "byte {b}"),
        }
    }
}

/// The two DRAT formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DratFormat {
    /// Text: `1 -2 0`, `d 1 2 0`, `c` comment lines.
    Text,
    /// Binary: `a` or `d`, then literals `2v + sign` as variable-length integers, then 0.
    Binary,
}

impl fmt::Display for DratFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DratFormat::Text => "text",
            DratFormat::Binary => "binary",
        })
    }
}

/// One step of a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofStep {
    /// `true` for a deletion, `false` for a lemma.
    pub deletion: bool,
    /// The clause, DIMACS literals (1-based, negative for a negated variable).
    pub clause: Vec<i64>,
    /// Where the step starts.
    pub at: ProofPos,
}

/// A streaming DRAT parser: text or binary, recognised from the first 64 KiB (a binary proof
/// starts with `a`, or has a NUL byte or another byte no text proof contains there).
pub struct ProofReader<R: Read> {
    input: BufReader<Limited<io::Chain<io::Cursor<Vec<u8>>, R>>>,
    format: DratFormat,
    max_var: u64,
    limit: u64,
    /// Bytes consumed (binary) or lines read (text).
    pos: u64,
    /// Text: tokens of the current line not yet used, and the line they came from.
    pending: std::collections::VecDeque<(u64, String)>,
}

impl<R: Read> ProofReader<R> {
    /// A reader of at most `limit` bytes of proof with variables up to `max_var`.
    pub fn new(mut input: R, max_var: u64, limit: u64) -> Result<Self, ProofError> {
        let mut head = Vec::new();
        (&mut input)
            .take(SNIFF)
            .read_to_end(&mut head)
            .map_err(ProofError::Read)?;
        let format = sniff(&head);
        let input = Limited {
            inner: io::Cursor::new(head).chain(input),
            read: 0,
            limit,
        };
        Ok(ProofReader {
            input: BufReader::with_capacity(1 << 16, input),
            format,
            max_var,
            limit,
            pos: 0,
            pending: Default::default(),
        })
    }

    /// The format of the proof.
    pub fn format(&self) -> DratFormat {
        self.format
    }

    /// The next step, `None` at the end.
    pub fn next_step(&mut self) -> Result<Option<ProofStep>, ProofError> {
        match self.format {
            DratFormat::Text => self.next_text(),
            DratFormat::Binary => self.next_binary(),
        }
    }

    fn parse_error(at: ProofPos, message: impl Into<String>) -> ProofError {
        ProofError::Parse {
            at,
            message: message.into(),
        }
    }

    fn check_var(&self, at: ProofPos, v: u64) -> Result<(), ProofError> {
        if v > self.max_var {
            return Err(Self::parse_error(
                at,
                format!(
                    "variable {v} is beyond the {} the formula and {MAX_EXTRA_VARS} extension variables allow",
                    self.max_var
                ),
            ));
        }
        Ok(())
    }

    fn read_byte(&mut self) -> Result<Option<u8>, ProofError> {
        let limit = self.limit;
        let buf = self.input.fill_buf().map_err(|e| read_error(e, limit))?;
        let Some(&b) = buf.first() else {
            return Ok(None);
        };
        self.input.consume(1);
        self.pos += 1;
        Ok(Some(b))
    }

    fn next_binary(&mut self) -> Result<Option<ProofStep>, ProofError> {
        let start = self.pos;
        let at = ProofPos::Byte(start);
        let deletion = match self.read_byte()? {
            None => return Ok(None),
            Some(b'a') => false,
            Some(b'd') => true,
            Some(b) => {
                return Err(Self::parse_error(
                    at,
                    format!("a step starts with 'a' or 'd', not 0x{b:02x}"),
                ))
            }
        };
        let mut clause = Vec::new();
        loop {
            let lit_at = self.pos;
            let mut value: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(b) = self.read_byte()? else {
                    return Err(Self::parse_error(
                        ProofPos::Byte(self.pos),
                        format!("the proof ends inside the step that starts at byte {start} (truncated?)"),
                    ));
                };
                if shift > 35 {
                    return Err(Self::parse_error(
                        ProofPos::Byte(lit_at),
                        "a literal longer than 5 bytes",
                    ));
                }
                value |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            if value == 0 {
                break;
            }
            if value == 1 {
                return Err(Self::parse_error(
                    ProofPos::Byte(lit_at),
                    "literal code 1 (codes are 2v or 2v + 1 with v >= 1)",
                ));
            }
            let v = value >> 1;
            self.check_var(ProofPos::Byte(lit_at), v)?;
            clause.push(if value & 1 == 1 {
                -(v as i64)
            } else {
                v as i64
            });
        }
        Ok(Some(ProofStep {
            deletion,
            clause,
            at,
        }))
    }

    /// The next token of a text proof and its line, skipping comment lines.
    fn token(&mut self, in_step: bool) -> Result<Option<(u64, String)>, ProofError> {
        loop {
            if let Some(t) = self.pending.pop_front() {
                return Ok(Some(t));
            }
            let mut line = Vec::new();
            let read = self
                .input
                .read_until(b'\n', &mut line)
                .map_err(|e| read_error(e, self.limit))?;
            if read == 0 {
                return Ok(None);
            }
            self.pos += 1;
            let line_no = self.pos;
            let text = String::from_utf8_lossy(&line);
            let trimmed = text.trim_start();
            if trimmed.starts_with('c') {
                if in_step {
                    return Err(Self::parse_error(
                        ProofPos::Line(line_no),
                        "a comment inside a step (the step before has no terminating 0)",
                    ));
                }
                continue;
            }
            self.pending
                .extend(text.split_whitespace().map(|t| (line_no, t.to_string())));
        }
    }

    fn next_text(&mut self) -> Result<Option<ProofStep>, ProofError> {
        let Some((line, first)) = self.token(false)? else {
            return Ok(None);
        };
        let at = ProofPos::Line(line);
        let deletion = first == "d";
        let mut clause = Vec::new();
        let mut next = if deletion { None } else { Some((line, first)) };
        loop {
            let (l, tok) = match next.take() {
                Some(t) => t,
                None => match self.token(true)? {
                    Some(t) => t,
                    None => {
                        return Err(Self::parse_error(
                            ProofPos::Line(self.pos),
                            format!("the proof ends inside the step that starts on line {line}: no terminating 0 (truncated?)"),
                        ))
                    }
                },
            };
            let x: i64 = tok.parse().map_err(|_| {
                Self::parse_error(
                    ProofPos::Line(l),
                    format!(
                        "'{}' is not a literal",
                        crate::solve::process::escape(&tok, 40)
                    ),
                )
            })?;
            if x == 0 {
                break;
            }
            self.check_var(ProofPos::Line(l), x.unsigned_abs())?;
            clause.push(x);
        }
        Ok(Some(ProofStep {
            deletion,
            clause,
            at,
        }))
    }
}

/// The error a [`Limited`] reader returns past its bound.
#[derive(Debug)]
struct PastLimit;

impl fmt::Display for PastLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("past the size bound")
    }
}

impl std::error::Error for PastLimit {}

/// A reader that fails with [`PastLimit`] once more than `limit` bytes were read.
struct Limited<R> {
    inner: R,
    read: u64,
    limit: u64,
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.read += k as u64;
        if self.read > self.limit {
            return Err(io::Error::other(PastLimit));
        }
        Ok(k)
    }
}

fn read_error(e: io::Error, limit: u64) -> ProofError {
    if e.get_ref().is_some_and(|x| x.is::<PastLimit>()) {
        ProofError::TooLarge { limit }
    } else {
        ProofError::Read(e)
    }
}

/// Binary when the proof starts with `a`, or when its head has a NUL byte (every binary step
/// ends with one), or a line that is not a comment and has a byte that is neither printable
/// ASCII nor white space.
fn sniff(head: &[u8]) -> DratFormat {
    if head.first() == Some(&b'a') || head.contains(&0) {
        return DratFormat::Binary;
    }
    // Letters are judged by the text parser (with a line number); bytes no text has mean
    // binary.
    let text_byte = |b: &u8| b.is_ascii_graphic() || b" \t\r".contains(b);
    let mut lines = head.split(|&b| b == b'\n');
    // The last piece may be cut short by the head's end; it is still judged.
    let binary = lines.any(|line| {
        let t = line.trim_ascii_start();
        !t.starts_with(b"c") && !t.iter().all(text_byte)
    });
    if binary {
        DratFormat::Binary
    } else {
        DratFormat::Text
    }
}

/// Why a proof does not check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofFailure {
    /// 1-based number of the failing step (deletions counted).
    pub step: u64,
    /// Where it starts in the proof.
    pub at: Option<ProofPos>,
    /// Its clause, DIMACS literals.
    pub clause: Vec<i64>,
    /// The checker's reason.
    pub reason: String,
}

/// The result of checking a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofCheck {
    /// `true` when the empty clause was derived and every step before it checked.
    pub verified: bool,
    /// The empty clause was derived (or the formula is refuted by unit propagation alone).
    pub empty_clause: bool,
    /// The proof's format.
    pub format: DratFormat,
    /// Steps checked, deletions included.
    pub steps: u64,
    /// Lemmas checked (RUP and RAT), the empty clause included.
    pub lemmas: u64,
    /// Lemmas that needed the RAT rule.
    pub rat_steps: u64,
    /// Deletions applied.
    pub deletions: u64,
    /// Deletions ignored (unit clauses, or clauses not present).
    pub ignored_deletions: u64,
    /// Why the proof does not check, when it does not.
    pub failure: Option<ProofFailure>,
    /// The checker's summary.
    pub reason: String,
}

impl fmt::Display for ProofCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.verified {
            return write!(
                f,
                "proof checked: {} lemmas ({} RAT), {} deletions, the empty clause derived",
                self.lemmas, self.rat_steps, self.deletions
            );
        }
        match &self.failure {
            Some(x) => {
                let clause: Vec<String> = x.clause.iter().map(i64::to_string).collect();
                write!(f, "proof rejected at step {}", x.step)?;
                if let Some(at) = x.at {
                    write!(f, " ({at})")?;
                }
                write!(f, ", clause [{}]: {}", clause.join(" "), x.reason)
            }
            None => write!(f, "proof rejected: {}", self.reason),
        }
    }
}

/// Checks a DRAT proof (text or binary) of the unsatisfiability of `f`, read to its end or to
/// the empty clause, at most [`MAX_PROOF_BYTES`].
pub fn check_proof(f: &dyn Formula, proof: impl Read) -> Result<ProofCheck, ProofError> {
    check_proof_limited(f, proof, MAX_PROOF_BYTES)
}

/// The formula's clauses in the checker's literals (`2v`, `2v + 1`, 0-based `v`), and the
/// number of variables.
fn checker_formula(f: &dyn Formula) -> (u32, Vec<Vec<dratify::Lit>>) {
    let mut cnf = Cnf::new();
    // Writing to memory cannot fail.
    let _ = crate::instance::encode(f, &mut cnf);
    let nvars = (f.num_vars() as usize).max(cnf.max_var());
    let clauses = cnf
        .iter()
        .map(|c| {
            c.iter()
                .map(|l| 2 * l.index() as u32 + u32::from(l.is_negative()))
                .collect()
        })
        .collect();
    (nvars as u32, clauses)
}

fn to_checker(x: i64) -> dratify::Lit {
    (2 * (x.unsigned_abs() - 1) + u64::from(x < 0)) as dratify::Lit
}

fn from_checker(l: dratify::Lit) -> i64 {
    let v = i64::from(l >> 1) + 1;
    if l & 1 == 1 {
        -v
    } else {
        v
    }
}

/// Like [`check_proof`], reading at most `limit` bytes.
pub fn check_proof_limited(
    f: &dyn Formula,
    proof: impl Read,
    limit: u64,
) -> Result<ProofCheck, ProofError> {
    let (nvars, clauses) = checker_formula(f);
    check_drat(nvars, clauses, proof, limit)
}

/// Checks a DRAT proof against clauses in the checker's literals.
fn check_drat(
    nvars: u32,
    clauses: Vec<Vec<dratify::Lit>>,
    proof: impl Read,
    limit: u64,
) -> Result<ProofCheck, ProofError> {
    let mut reader = ProofReader::new(proof, u64::from(nvars) + MAX_EXTRA_VARS, limit)?;
    let mut checker = dratify::Checker::new(nvars, &clauses, true, true);
    drop(clauses);
    let mut chunk: Vec<(bool, Vec<dratify::Lit>)> = Vec::with_capacity(CHUNK);
    let mut places: Vec<ProofPos> = Vec::with_capacity(CHUNK);
    let mut done: u64 = 0;
    loop {
        chunk.clear();
        places.clear();
        while chunk.len() < CHUNK {
            let Some(step) = reader.next_step()? else {
                break;
            };
            places.push(step.at);
            chunk.push((
                step.deletion,
                step.clause.iter().map(|&x| to_checker(x)).collect(),
            ));
        }
        let last = chunk.len() < CHUNK;
        let r = checker.check(&chunk);
        let failure = (r.failed_step > 0).then(|| {
            let step = r.failed_step as u64;
            ProofFailure {
                step,
                at: places.get((step - done - 1) as usize).copied(),
                clause: r.failed_clause.iter().map(|&l| from_checker(l)).collect(),
                reason: r.reason.clone(),
            }
        });
        done = r.steps;
        if failure.is_some() || r.reached_empty || last {
            return Ok(ProofCheck {
                verified: r.ok && failure.is_none(),
                empty_clause: r.reached_empty,
                format: reader.format(),
                steps: r.steps,
                lemmas: r.rup_steps + r.rat_steps,
                rat_steps: r.rat_steps,
                deletions: r.deletions,
                ignored_deletions: r.ignored_deletions,
                failure,
                reason: r.reason,
            });
        }
    }
}

/// A writer that counts the bytes written.
struct Counting<W> {
    inner: W,
    bytes: u64,
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

/// Solves `f` with the embedded solver, writing a text DRAT proof to `proof` as it goes.
/// Returns [`ProofOutcome::Unsat`] once the proof is complete (it ends with the empty
/// clause), or the solution. The proof is written through a buffer and flushed at the end;
/// an I/O error on `proof` is [`ProofError::Write`].
pub fn prove_unsat(f: &dyn Formula, proof: impl Write) -> Result<ProofOutcome, ProofError> {
    let mut target = Counting {
        inner: proof,
        bytes: 0,
    };
    let outcome = {
        let mut solver = varisat::Solver::new();
        solver.write_proof(&mut target, varisat::ProofFormat::Drat);
        load(f, &mut solver);
        let sat = solver
            .solve()
            .map_err(|e| ProofError::Write(e.to_string()))?;
        let model = if sat {
            let lits = solver
                .model()
                .ok_or_else(|| SolveError::Solver("no model after SAT".into()))?;
            Some(Model {
                placement: decode_model(f, &lits)?,
                assignment: Assignment::from_lits(&lits),
            })
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
    Ok(match outcome {
        Some(m) => ProofOutcome::Sat(Box::new(m)),
        None => ProofOutcome::Unsat {
            bytes: target.bytes,
        },
    })
}

/// Proves `f` unsatisfiable in memory and checks the proof: the check, or `None` when `f` has
/// a solution. What `queens-sat check` does with every UNSAT answer.
pub fn prove_and_check(f: &dyn Formula) -> Result<Option<ProofCheck>, ProofError> {
    let mut proof = Vec::new();
    match prove_unsat(f, &mut proof)? {
        ProofOutcome::Sat(_) => Ok(None),
        ProofOutcome::Unsat { .. } => check_proof(f, &proof[..]).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{Instance, Model as M};

    fn board(n: usize) -> Instance {
        Instance::new(n, M::default()).unwrap()
    }

    fn steps(proof: &[u8]) -> Result<Vec<ProofStep>, ProofError> {
        let mut r = ProofReader::new(proof, 100, 1 << 20)?;
        let mut v = Vec::new();
        while let Some(s) = r.next_step()? {
            v.push(s);
        }
        Ok(v)
    }

    #[test]
    fn reads_text_and_binary() {
        let t = steps(b"c hello\n1 -2 0\nd 1 -2 0\n  0\n").unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].clause, vec![1, -2]);
        assert_eq!(t[0].at, ProofPos::Line(2));
        assert!(t[1].deletion);
        assert!(t[2].clause.is_empty());
        // a 1 -2 0, d 1 -2 0, a 0
        let b = steps(&[b'a', 2, 5, 0, b'd', 2, 5, 0, b'a', 0]).unwrap();
        assert_eq!(b.len(), 3);
        assert_eq!(b[0].clause, vec![1, -2]);
        assert!(b[1].deletion);
        assert_eq!(b[2].at, ProofPos::Byte(8));
        // A deletion first, literal 5 (code 10 = '\n').
        assert_eq!(steps(&[b'd', 10, 12, 0]).unwrap()[0].clause, vec![5, 6]);
        // Two-byte literal: code 200 = 0xc8 0x01.
        assert_eq!(steps(&[b'a', 0xc8, 0x01, 0]).unwrap()[0].clause, vec![100]);
    }

    #[test]
    fn parse_errors_say_where() {
        let e = steps(b"1 2 0\n1 x 0\n").unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("'x'"), "{e}");
        let e = steps(b"1 2 0\n1 2\n").unwrap_err().to_string();
        assert!(e.contains("truncated"), "{e}");
        let e = steps(&[b'a', 2, 5, 0, b'a', 2, 0x85])
            .unwrap_err()
            .to_string();
        assert!(e.contains("byte 7") && e.contains("truncated"), "{e}");
        let e = steps(&[b'a', 2, 0, b'x', 0]).unwrap_err().to_string();
        assert!(e.contains("byte 3"), "{e}");
        let e = steps(b"1 500 0\n").unwrap_err().to_string();
        assert!(e.contains("variable 500"), "{e}");
    }

    #[test]
    fn size_bound() {
        let proof = b"1 2 0\n".repeat(100);
        let e = ProofReader::new(&proof[..], 10, 50).and_then(|mut r| {
            while r.next_step()?.is_some() {}
            Ok(())
        });
        assert!(
            matches!(e, Err(ProofError::TooLarge { limit: 50 })),
            "{e:?}"
        );
        let bin = [b'a', 2, 4, 0].repeat(100);
        let e = ProofReader::new(&bin[..], 10, 50).and_then(|mut r| {
            while r.next_step()?.is_some() {}
            Ok(())
        });
        assert!(
            matches!(e, Err(ProofError::TooLarge { limit: 50 })),
            "{e:?}"
        );
    }

    #[test]
    fn proves_and_checks_small_boards() {
        for n in [2, 3] {
            let c = prove_and_check(&board(n)).unwrap().unwrap();
            assert!(c.verified, "n = {n}: {c}");
            assert!(c.empty_clause);
            assert_eq!(c.format, DratFormat::Text);
        }
        let dead = board(4).with_cells(&[(0, 0), (1, 2)], &[]).unwrap();
        assert!(prove_and_check(&dead).unwrap().unwrap().verified);
        assert!(prove_and_check(&board(5)).unwrap().is_none());
    }

    #[test]
    fn rejects_a_wrong_proof() {
        // The empty clause alone does not follow from n = 4's clauses.
        let c = check_proof(&board(4), &b"0\n"[..]).unwrap();
        assert!(!c.verified);
        let x = c.failure.unwrap();
        assert_eq!((x.step, x.at), (1, Some(ProofPos::Line(1))));
        // No empty clause at all.
        let c = check_proof(&board(3), &b""[..]).unwrap();
        assert!(!c.verified && c.failure.is_none(), "{c}");
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

/// The result of checking a proof of either kind: DRAT (by the dratify checker) or LRAT (by
/// [`super::lrat`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofVerdict {
    /// A DRAT proof's check.
    Drat(ProofCheck),
    /// An LRAT proof's check.
    Lrat(super::lrat::LratCheck),
}

impl ProofVerdict {
    /// `true` when the proof derives the empty clause and every step checks.
    pub fn verified(&self) -> bool {
        match self {
            ProofVerdict::Drat(c) => c.verified,
            ProofVerdict::Lrat(c) => c.verified,
        }
    }

    /// Lemmas checked.
    pub fn lemmas(&self) -> u64 {
        match self {
            ProofVerdict::Drat(c) => c.lemmas,
            ProofVerdict::Lrat(c) => c.lemmas,
        }
    }

    /// The proof's kind and format.
    pub fn kind(&self) -> super::lrat::ProofKind {
        match self {
            ProofVerdict::Drat(c) => super::lrat::ProofKind::Drat(c.format),
            ProofVerdict::Lrat(c) => super::lrat::ProofKind::Lrat(c.format),
        }
    }

    /// The checker that judged it.
    pub fn checker(&self) -> &'static str {
        match self {
            ProofVerdict::Drat(_) => "dratify",
            ProofVerdict::Lrat(_) => "the LRAT checker of queens-sat",
        }
    }

    /// One line on the check: the lemmas, the format, RAT steps and deletions.
    pub fn summary(&self) -> String {
        match self {
            ProofVerdict::Drat(c) => format!(
                "{} lemmas, the empty clause derived (dratify; {} DRAT, {} RAT steps, {} deletions)",
                c.lemmas, c.format, c.rat_steps, c.deletions
            ),
            ProofVerdict::Lrat(c) => format!(
                "{} lemmas, the empty clause derived (LRAT checker; {} LRAT, {} RAT steps, {} deletions)",
                c.lemmas, c.format, c.rat_lemmas, c.deletions
            ),
        }
    }
}

impl fmt::Display for ProofVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofVerdict::Drat(c) => c.fmt(f),
            ProofVerdict::Lrat(c) => c.fmt(f),
        }
    }
}

/// Checks a proof of either kind, recognised from its content ([`super::lrat::sniff_proof`]),
/// against DIMACS clauses (1-based literals, the ids of LRAT in their order) over `vars`
/// variables, reading at most `limit` bytes: DRAT with the dratify checker, LRAT with
/// [`super::lrat`].
pub fn check_proof_clauses<C: AsRef<[i32]>>(
    clauses: &[C],
    vars: usize,
    proof: impl Read,
    limit: u64,
) -> Result<ProofVerdict, ProofError> {
    let mut proof = proof;
    let mut head = Vec::new();
    (&mut proof)
        .take(super::lrat::SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(ProofError::Read)?;
    let kind = super::lrat::sniff_proof(&head);
    let input = io::Cursor::new(head).chain(proof);
    let vars = vars.max(
        clauses
            .iter()
            .flat_map(|c| c.as_ref().iter())
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0),
    );
    match kind {
        super::lrat::ProofKind::Lrat(_) => Ok(ProofVerdict::Lrat(super::lrat::check_lrat(
            clauses, vars, input, limit,
        )?)),
        super::lrat::ProofKind::Drat(_) => {
            let checker_clauses: Vec<Vec<dratify::Lit>> = clauses
                .iter()
                .map(|c| {
                    c.as_ref()
                        .iter()
                        .map(|&x| to_checker(i64::from(x)))
                        .collect()
                })
                .collect();
            Ok(ProofVerdict::Drat(check_drat(
                vars as u32,
                checker_clauses,
                input,
                limit,
            )?))
        }
    }
}

/// The formula's clauses as DIMACS integers, in the order [`crate::instance::encode`] writes
/// them, and the number of variables.
pub fn formula_clauses(f: &dyn Formula) -> (Vec<Vec<i32>>, usize) {
    let mut cnf = Cnf::new();
    // Writing to memory cannot fail.
    let _ = crate::instance::encode(f, &mut cnf);
    let vars = (f.num_vars() as usize).max(cnf.max_var());
    let clauses = cnf
        .iter()
        .map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect())
        .collect();
    (clauses, vars)
}

/// Checks a proof of either kind (recognised from its content) of the unsatisfiability of
/// `f`, at most [`MAX_PROOF_BYTES`].
pub fn check_any_proof(f: &dyn Formula, proof: impl Read) -> Result<ProofVerdict, ProofError> {
    let (clauses, vars) = formula_clauses(f);
    check_proof_clauses(&clauses, vars, proof, MAX_PROOF_BYTES)
}

/// Solves `f` with the backend, writing a proof in `format` to `proof` as it goes; returns
/// the outcome and the writer. varisat writes DRAT ([`prove_unsat`]); CaDiCaL writes DRAT or
/// LRAT from its proof tracer (in LRAT mode its lemmas carry CaDiCaL's own antecedents);
/// Kissat writes DRAT with its own proof tracer. The proof numbers the formula's clauses as
/// [`crate::instance::encode`] writes them (the order of `queens-sat encode`).
pub fn prove_unsat_with<W: Write + Send + 'static>(
    f: &dyn Formula,
    backend: Backend,
    format: ProofFormat,
    options: &[SolverOption],
    mut proof: W,
) -> Result<(ProofOutcome, W), ProofError> {
    if !backend.is_available() {
        return Err(SolveError::Unavailable(backend).into());
    }
    if !format.written_by(backend) {
        return Err(ProofError::Unsupported { backend, format });
    }
    if backend == Backend::Varisat {
        if !options.is_empty() {
            return Err(SolveError::from(super::OptionError::NoOptions("varisat")).into());
        }
        let outcome = prove_unsat(f, &mut proof)?;
        return Ok((outcome, proof));
    }
    let mut load = |s: &mut dyn super::Solver| {
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
type Proved<W> = (Option<Vec<crate::cnf::Lit>>, u64, W);

/// Solves the clauses that `load` adds with CaDiCaL or Kissat, writing the proof.
#[allow(unused_variables, unused_mut)]
fn prove_clauses_with<W: Write + Send + 'static>(
    load: &mut dyn FnMut(&mut dyn super::Solver),
    vars: usize,
    backend: Backend,
    format: ProofFormat,
    options: &[SolverOption],
    mut proof: W,
) -> Result<Proved<W>, ProofError> {
    match backend {
        #[cfg(feature = "cadical")]
        Backend::Cadical => prove_with_cadical(load, vars, format, options, proof),
        #[cfg(feature = "kissat")]
        Backend::Kissat => {
            let (model, bytes) = prove_with_kissat(load, vars, options, &mut proof)?;
            Ok((model, bytes, proof))
        }
        Backend::Varisat => {
            let mut solver = varisat::Solver::new();
            solver.write_proof(&mut proof, varisat::ProofFormat::Drat);
            let mut sink = VarisatSink(&mut solver);
            load(&mut sink);
            let sat = solver
                .solve()
                .map_err(|e| ProofError::Write(e.to_string()))?;
            let model = if sat { solver.model() } else { None };
            solver
                .close_proof()
                .map_err(|e| ProofError::Write(e.to_string()))?;
            drop(solver);
            proof
                .flush()
                .map_err(|e| ProofError::Write(e.to_string()))?;
            Ok((model, 0, proof))
        }
        #[allow(unreachable_patterns)]
        _ => Err(SolveError::Unavailable(backend).into()),
    }
}

/// A varisat solver as a [`super::Solver`] that only takes clauses.
struct VarisatSink<'a, 'b>(&'a mut varisat::Solver<'b>);

impl super::Solver for VarisatSink<'_, '_> {
    fn add_clause(&mut self, clause: &[crate::cnf::Lit]) {
        varisat::ExtendFormula::add_clause(self.0, clause);
    }
    fn solve(&mut self, _: &[crate::cnf::Lit], _: &super::Budget) -> Result<bool, SolveError> {
        Err(SolveError::Solver("a loading sink does not solve".into()))
    }
    fn model(&mut self, _: usize) -> Result<Vec<crate::cnf::Lit>, SolveError> {
        Err(SolveError::Solver("a loading sink has no model".into()))
    }
}

/// Proves DIMACS clauses (1-based literals) over `vars` variables unsatisfiable with the
/// backend in memory and checks the proof against them (LRAT with [`super::lrat`], DRAT with
/// dratify): the check, or `None` when the clauses are satisfiable.
pub fn prove_clauses_and_check(
    clauses: &[Vec<i32>],
    vars: usize,
    backend: Backend,
    format: ProofFormat,
) -> Result<Option<ProofVerdict>, ProofError> {
    if !backend.is_available() {
        return Err(SolveError::Unavailable(backend).into());
    }
    if !format.written_by(backend) {
        return Err(ProofError::Unsupported { backend, format });
    }
    let mut load = |s: &mut dyn super::Solver| {
        let mut buf = Vec::new();
        for c in clauses {
            buf.clear();
            buf.extend(c.iter().map(|&x| crate::cnf::Lit::from_dimacs(x as isize)));
            s.add_clause(&buf);
        }
    };
    let (model, _, proof) = prove_clauses_with(&mut load, vars, backend, format, &[], Vec::new())?;
    if model.is_some() {
        return Ok(None);
    }
    check_proof_clauses(clauses, vars, &proof[..], MAX_PROOF_BYTES).map(Some)
}

/// Proves `f` unsatisfiable in memory with the backend and checks the proof (LRAT with the
/// library's checker when the backend writes it, else DRAT with dratify): the check, or
/// `None` when `f` has a solution.
pub fn prove_and_check_with(
    f: &dyn Formula,
    backend: Backend,
    format: ProofFormat,
) -> Result<Option<ProofVerdict>, ProofError> {
    let (outcome, proof) = prove_unsat_with(f, backend, format, &[], Vec::new())?;
    match outcome {
        ProofOutcome::Sat(_) => Ok(None),
        ProofOutcome::Unsat { .. } => check_any_proof(f, &proof[..]).map(Some),
    }
}

/// The backend and format with which `queens-sat check` proves UNSAT answers: CaDiCaL's LRAT
/// (checked by [`super::lrat`] in time linear in the proof) when CaDiCaL is built in, else
/// varisat's DRAT.
pub fn default_prover() -> (Backend, ProofFormat) {
    if Backend::Cadical.is_available() {
        (Backend::Cadical, ProofFormat::Lrat)
    } else {
        (Backend::Varisat, ProofFormat::Drat)
    }
}

/// The model of a satisfiable solve, checked as a solution of `f`.
fn checked_model(f: &dyn Formula, lits: &[crate::cnf::Lit]) -> Result<ProofOutcome, ProofError> {
    Ok(ProofOutcome::Sat(Box::new(Model {
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
impl super::Solver for Numbered<'_> {
    fn add_clause(&mut self, clause: &[crate::cnf::Lit]) {
        self.current
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.solver.add_clause(clause);
    }
    fn solve(&mut self, a: &[crate::cnf::Lit], b: &super::Budget) -> Result<bool, SolveError> {
        self.solver.solve(a, b)
    }
    fn model(&mut self, vars: usize) -> Result<Vec<crate::cnf::Lit>, SolveError> {
        self.solver.model(vars)
    }
}

#[cfg(feature = "cadical")]
fn prove_with_cadical<W: Write + Send + 'static>(
    load: &mut dyn FnMut(&mut dyn super::Solver),
    vars: usize,
    format: ProofFormat,
    options: &[SolverOption],
    proof: W,
) -> Result<Proved<W>, ProofError> {
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
    load: &mut dyn FnMut(&mut dyn super::Solver),
    vars: usize,
    format: ProofFormat,
    pairs: Option<std::collections::HashMap<(i32, i32), u64>>,
    proof: W,
    make: impl FnOnce(Box<dyn super::cadical::ProofTracer>, bool) -> Result<S, ProofError>,
) -> Result<(Proved<W>, S), ProofError> {
    let lrat = format == ProofFormat::Lrat;
    // The number of clauses first: derived clauses are numbered after them.
    let mut count = crate::cnf::CountingSink::default();
    {
        let mut counter = CountClauses(&mut count);
        load(&mut counter);
    }
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
    let mut solver = make(Box::new(tracer), lrat)?;
    load(&mut Numbered {
        solver: &mut solver,
        current: current.clone(),
    });
    current.store(FROM_PROPAGATOR, std::sync::atomic::Ordering::Relaxed);
    let budget = super::Budget::unlimited();
    let sat = solver.solve(&[], &budget)?;
    let model = if sat { Some(solver.model(vars)?) } else { None };
    let tracer = solver
        .cadical()
        .disconnect_proof_tracer()
        .ok_or_else(|| ProofError::Write("the proof tracer was lost".into()))?;
    let any: Box<dyn std::any::Any> = tracer;
    let mut tracer = any
        .downcast::<TraceWriter<W>>()
        .map_err(|_| ProofError::Write("the proof tracer was replaced".into()))?;
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
/// not check. The propagator reasons no further than two queens on one line, so nothing of
/// it is switched off for a proof.
#[cfg(feature = "cadical")]
pub fn prove_unsat_with_propagator<W: Write + Send + 'static>(
    f: &crate::instance::Instance,
    format: ProofFormat,
    options: &[SolverOption],
    proof: W,
) -> Result<(ProofOutcome, W, super::propagator::PropagatorStats), ProofError> {
    use super::propagator::{check_model, PropagatorSolver};
    check_model(f).map_err(|e| SolveError::Solver(e.to_string()))?;
    let (clauses, _) = formula_clauses(f);
    let mut pairs = std::collections::HashMap::new();
    for (k, c) in clauses.iter().enumerate() {
        if let &[a, b] = &c[..] {
            if a < 0 && b < 0 {
                pairs.entry((a.min(b), a.max(b))).or_insert(k as u64 + 1);
            }
        }
    }
    let mut load = |s: &mut dyn super::Solver| {
        // Adding clauses to a solver cannot fail.
        let _ = crate::instance::encode(f, s);
    };
    let make = |tracer: Box<dyn super::cadical::ProofTracer>, lrat: bool| {
        let mut cadical = super::backend::CadicalSolver::with_own_defaults(options)?;
        cadical
            .inner()
            .connect_proof_tracer(tracer, lrat)
            .map_err(SolveError::from)?;
        Ok(PropagatorSolver::on(f, cadical)?)
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

/// Counts the clauses a loader adds.
#[cfg(feature = "cadical")]
struct CountClauses<'a>(&'a mut crate::cnf::CountingSink);

#[cfg(feature = "cadical")]
impl super::Solver for CountClauses<'_> {
    fn add_clause(&mut self, clause: &[crate::cnf::Lit]) {
        let _ = crate::cnf::ClauseSink::add_clause(self.0, clause);
    }
    fn solve(&mut self, _: &[crate::cnf::Lit], _: &super::Budget) -> Result<bool, SolveError> {
        Err(SolveError::Solver("a counting sink does not solve".into()))
    }
    fn model(&mut self, _: usize) -> Result<Vec<crate::cnf::Lit>, SolveError> {
        Err(SolveError::Solver("a counting sink has no model".into()))
    }
}

#[cfg(feature = "kissat")]
fn prove_with_kissat(
    load: &mut dyn FnMut(&mut dyn super::Solver),
    vars: usize,
    options: &[SolverOption],
    proof: &mut dyn Write,
) -> Result<(Option<Vec<crate::cnf::Lit>>, u64), ProofError> {
    use super::Solver as _;
    let dir = tempfile::tempdir().map_err(|e| ProofError::Write(e.to_string()))?;
    let path = dir.path().join("kissat.drat");
    let mut solver = super::backend::KissatSolver::new(options)?;
    solver
        .inner()
        .ok_or_else(|| ProofError::Write("the solver was used".into()))?
        .write_proof(&path, false)
        .map_err(|e| ProofError::Write(e.to_string()))?;
    load(&mut solver);
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
