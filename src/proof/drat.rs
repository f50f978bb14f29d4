//! Reading DRAT proofs, text and binary, one step at a time ([`ProofReader`]), with the line
//! (text) or byte offset (binary) where each step starts, at most a given number of bytes
//! and variables.
//!
//! * Text: `1 -2 0` adds a lemma, `d 1 -2 0` deletes a clause; lines starting with `c` are
//!   comments; a step may span lines.
//! * Binary: `a` or `d`, then each literal `x` as the variable-length number `2|x| + (x < 0)`
//!   (7-bit groups, low group first, the high bit set on all but the last byte), then 0.

use super::{sniffed, ProofError, ProofPos, ProofSyntax, Sniffed, MAX_EXTRA_VARS};
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

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

/// A streaming DRAT parser: text or binary, recognised from the first 64 KiB by
/// [`sniff_proof`](super::sniff_proof).
pub struct ProofReader<R: Read> {
    input: BufReader<Limited<Sniffed<R>>>,
    format: ProofSyntax,
    max_var: u64,
    limit: u64,
    /// Bytes consumed (binary) or lines read (text).
    pos: u64,
    /// Text: tokens of the current line not yet used, and the line they came from.
    pending: std::collections::VecDeque<(u64, String)>,
}

impl<R: Read> ProofReader<R> {
    /// A reader of at most `limit` bytes of proof with variables up to `max_var`; text or
    /// binary as [`sniff_proof`](super::sniff_proof) tells from the first bytes.
    pub fn new(input: R, max_var: u64, limit: u64) -> Result<Self, ProofError> {
        let (kind, input) = sniffed(input)?;
        let format = kind.format();
        let input = Limited {
            inner: input,
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
    pub fn format(&self) -> ProofSyntax {
        self.format
    }

    /// The next step, `None` at the end.
    pub fn next_step(&mut self) -> Result<Option<ProofStep>, ProofError> {
        match self.format {
            ProofSyntax::Text => self.next_text(),
            ProofSyntax::Binary => self.next_binary(),
        }
    }

    fn parse_error(at: ProofPos, message: impl Into<String>) -> ProofError {
        ProofError::Parse {
            kind: "DRAT",
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
                    format!("'{}' is not a literal", crate::input::escape(&tok, 40)),
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // Text and binary alike: the reading stops past 50 bytes.
        for proof in [b"1 2 0\n".repeat(100), [b'a', 2, 4, 0].repeat(100)] {
            let e = ProofReader::new(&proof[..], 10, 50).and_then(|mut r| {
                while r.next_step()?.is_some() {}
                Ok(())
            });
            assert!(
                matches!(e, Err(ProofError::TooLarge { limit: 50 })),
                "{e:?}"
            );
        }
    }
}
