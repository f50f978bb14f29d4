//! Proofs of unsatisfiability and their checks: DRAT and LRAT, text and binary, from any
//! solver, each checked by two checkers written apart.
//!
//! An UNSAT answer is a claim about every assignment; a proof turns it into a list of
//! clauses (lemmas) that can be checked one by one against the formula. A DRAT proof gives
//! the lemmas (and deletions) alone, and the checker finds why each holds; an LRAT proof also
//! names, for each lemma, the clauses it follows from (its hints).
//!
//! * [`check`] reads a proof of either kind (recognised from its content by [`sniff_proof`])
//!   and checks it twice: DRAT with the library's own checker (`checker.rs`, driven by the
//!   reader of `drat.rs`) and with VeriPB, the pseudo-Boolean proof checker of the VeriPB
//!   project (the `veripb` crate, on the proof translated to its format: `veripb.rs`); LRAT
//!   with the library's LRAT checker ([`lrat`]) and, when asked, VeriPB. The [`Verdict`]
//!   says what each checker concluded; the proof is verified only when every checker that
//!   ran accepts it.
//! * [`check_opb`] runs VeriPB on a pseudo-Boolean proof against an OPB file: the search's
//!   certificates, and the proof logs of the Exact PB solver once [`exact_to_veripb`] has
//!   put them in VeriPB's current format.
//! * The DRAT checker follows the DRAT definition as drat-trim checks it: each lemma is RUP,
//!   or RAT on its first literal; deletions remove clauses, except that of a clause that is
//!   unit at the top level, which drat-trim ignores and so does this checker; the proof is
//!   complete once unit propagation refutes the clauses (the empty clause is then RUP), and
//!   what follows is read (a proof cut short is refused) but not checked.
//!
//! ```
//! use queens_sat::cnf::{Cnf, Lit};
//! use queens_sat::proof::{check, CheckOptions};
//!
//! // (1 or 2), (-1 or 2), (1 or -2), (-1 or -2): unsatisfiable.
//! let cnf: Cnf = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
//!     .iter()
//!     .map(|c| c.map(Lit::from_dimacs))
//!     .collect();
//! let verdict = check(&cnf, 2, &b"2 0\n0\n"[..], &CheckOptions::default()).unwrap();
//! assert!(verdict.verified(), "{}", verdict.summary());
//!
//! // A satisfiable formula: no proof may check.
//! let sat: Cnf = [[Lit::from_dimacs(1)]].into_iter().collect();
//! let forged = "-2 -1 0\nd -2 -1 0\n2 0\n0\n";
//! let verdict = check(&sat, 1, forged.as_bytes(), &CheckOptions::default()).unwrap();
//! assert!(!verdict.verified());
//! ```

mod anchors;
mod check;
mod checker;
mod classes;
mod drat;
mod exact_log;
pub mod lrat;
#[cfg(feature = "veripb")]
mod veripb;

pub use anchors::{Bound, OpbAnchors};
pub use check::{
    check, check_lrat, CheckOptions, DratCheck, DratEnd, Failure, Opinion, OwnCheck, Verdict,
};
pub use classes::{class_of, ClassProof, ClassStep};
pub(crate) use drat::ProofReader;
pub use exact_log::{exact_to_veripb, opb_constraint_ids, ExactLogError, ExactLogStats};
pub use lrat::{LratCheck, LratFailure, LratFailureKind, LratReader, LratStep};
#[cfg(feature = "veripb")]
pub use veripb::{check_opb, OpbJudgement, VERSION as VERIPB_VERSION};

use std::fmt;
use std::io::{self, Read};

/// The longest proof a check reads by default: 1 GiB.
pub const MAX_PROOF_BYTES: u64 = 1 << 30;

/// How many variables a proof may use beyond the formula's own (extension variables of RAT
/// steps). A larger variable is a parse error: the checkers size their tables by the largest
/// variable they see.
pub const MAX_EXTRA_VARS: u64 = 1 << 20;

/// Why a proof could not be read or checked. A proof that is read in full but does not check
/// is not an error: see [`Verdict`].
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// Reading the proof failed.
    #[error("reading the proof: {0}")]
    Read(#[source] io::Error),
    /// The proof is longer than the bound.
    #[error("the proof is longer than {limit} bytes, the most this check reads")]
    TooLarge {
        /// The bound, bytes.
        limit: u64,
    },
    /// The proof is malformed.
    #[error("not a{} {kind} proof: {at}: {message}", if kind.starts_with(['A', 'E', 'I', 'L', 'O', 'U']) { "n" } else { "" })]
    Parse {
        /// `DRAT` or `LRAT`.
        kind: &'static str,
        /// Where.
        at: ProofPos,
        /// What is wrong.
        message: String,
    },
    /// The second checker could not be run (its files could not be written).
    #[error("the second checker (VeriPB) could not run: {0}")]
    SecondChecker(String),
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

/// How a proof, DRAT or LRAT, is written: text or binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofSyntax {
    /// Text: DRAT's `1 -2 0`, `d 1 2 0` and `c` comment lines; LRAT's `id lits 0 hints 0` and
    /// `id d ids 0`.
    Text,
    /// Binary: `a` or `d`, then variable-length integers (DRAT's literals `2v + sign`, then 0).
    Binary,
}

impl fmt::Display for ProofSyntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProofSyntax::Text => "text",
            ProofSyntax::Binary => "binary",
        })
    }
}

/// A proof format as recognised from a proof's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofKind {
    /// DRAT (lemmas without hints).
    Drat(ProofSyntax),
    /// LRAT (lemmas with hints).
    Lrat(ProofSyntax),
}

impl fmt::Display for ProofKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofKind::Drat(x) => write!(f, "{x} DRAT"),
            ProofKind::Lrat(x) => write!(f, "{x} LRAT"),
        }
    }
}

/// Bytes looked at to recognise a proof's format.
pub const SNIFF_BYTES: usize = 1 << 16;

impl ProofKind {
    /// Binary (DRAT or LRAT).
    pub fn is_binary(self) -> bool {
        self.format() == ProofSyntax::Binary
    }

    /// Text or binary.
    pub fn format(self) -> ProofSyntax {
        match self {
            ProofKind::Drat(format) | ProofKind::Lrat(format) => format,
        }
    }
}

/// The input read with its kind recognised: its first [`SNIFF_BYTES`] looked at by
/// [`sniff_proof`], then the whole input again, those bytes first.
pub(crate) type Sniffed<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// Recognises the kind of the proof `input` holds ([`sniff_proof`]) and gives the input back
/// whole.
pub(crate) fn sniffed<R: Read>(mut input: R) -> Result<(ProofKind, Sniffed<R>), ProofError> {
    let mut head = Vec::new();
    Read::by_ref(&mut input)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(ProofError::Read)?;
    let kind = sniff_proof(&head);
    Ok((kind, io::Cursor::new(head).chain(input)))
}

/// Recognises the format of a proof from its first bytes (up to [`SNIFF_BYTES`]).
///
/// Binary when the proof starts with `a` or `d` followed by a byte no text proof has there, or
/// has a NUL byte. Text LRAT when the first step line is `id d ...` or has two terminating
/// zeros (`id lits 0 hints 0`); text DRAT otherwise. Binary LRAT when the bytes do not read as
/// binary DRAT steps (in LRAT the hints follow the first 0, where DRAT starts its next step
/// with `a` or `d`) but read as LRAT steps with increasing ids.
pub fn sniff_proof(head: &[u8]) -> ProofKind {
    let binary = head.contains(&0)
        || (matches!(head.first(), Some(b'a' | b'd'))
            && head
                .get(1)
                .is_some_and(|b| !(b.is_ascii_graphic() || b" \t\r\n".contains(b))))
        || head.split(|&b| b == b'\n').any(|line| {
            let t = line.trim_ascii_start();
            !t.starts_with(b"c")
                && !t
                    .iter()
                    .all(|b| b.is_ascii_graphic() || b" \t\r".contains(b))
        });
    if binary {
        if walks_as_binary_drat(head) || !walks_as_binary_lrat(head) {
            ProofKind::Drat(ProofSyntax::Binary)
        } else {
            ProofKind::Lrat(ProofSyntax::Binary)
        }
    } else {
        let text = String::from_utf8_lossy(head);
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('c'));
        let Some(line) = first else {
            return ProofKind::Drat(ProofSyntax::Text);
        };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let lrat = (tokens.len() >= 2 && tokens[1] == "d" && tokens[0].parse::<u64>().is_ok())
            || tokens.iter().filter(|t| **t == "0").count() >= 2;
        if lrat {
            ProofKind::Lrat(ProofSyntax::Text)
        } else {
            ProofKind::Drat(ProofSyntax::Text)
        }
    }
}

/// Reads one variable-length number at `*i`; `None` at the end of `b` or past 64 bits.
fn varint(b: &[u8], i: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let byte = *b.get(*i)?;
        *i += 1;
        if shift > 63 {
            return None;
        }
        value |= u64::from(byte & 0x7f) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
}

/// `true` when `head` reads as binary DRAT steps up to its end (the last may be cut short).
fn walks_as_binary_drat(head: &[u8]) -> bool {
    let mut i = 0;
    while i < head.len() {
        if !matches!(head[i], b'a' | b'd') {
            return false;
        }
        i += 1;
        loop {
            match varint(head, &mut i) {
                None => return true,
                Some(0) => break,
                Some(1) => return false,
                Some(_) => {}
            }
        }
    }
    true
}

/// `true` when `head` reads as binary LRAT steps with increasing ids and hints below the id.
fn walks_as_binary_lrat(head: &[u8]) -> bool {
    let mut i = 0;
    let mut last = 0u64;
    let mut steps = 0;
    while i < head.len() {
        match head[i] {
            b'a' => {
                i += 1;
                let Some(code) = varint(head, &mut i) else {
                    return steps > 0;
                };
                if code == 0 || code & 1 == 1 || code / 2 <= last {
                    return false;
                }
                let id = code / 2;
                last = id;
                loop {
                    match varint(head, &mut i) {
                        None => return steps > 0,
                        Some(0) => break,
                        Some(1) => return false,
                        Some(_) => {}
                    }
                }
                loop {
                    match varint(head, &mut i) {
                        None => return steps > 0,
                        Some(0) => break,
                        Some(h) if h / 2 >= id || h / 2 == 0 => return false,
                        Some(_) => {}
                    }
                }
            }
            b'd' => {
                i += 1;
                loop {
                    match varint(head, &mut i) {
                        None => return steps > 0,
                        Some(0) => break,
                        Some(h) if h & 1 == 1 => return false,
                        Some(_) => {}
                    }
                }
            }
            _ => return false,
        }
        steps += 1;
    }
    steps > 0
}
