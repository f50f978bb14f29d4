//! The instance identifier of the Global Benchmark Database (GBD): the MD5 digest of a CNF's
//! clauses in a normal form (comments and the `p` line dropped, every literal and clause end
//! `0` separated by one space), so that two files of the same clauses in the same order have
//! the same identifier whatever their comments and spacing. [`GbdHasher`] computes it from the
//! clauses as they are encoded, without writing the file.
//!
//! ```
//! use queens_sat::cnf::{ClauseSink, GbdHasher, Lit};
//! let mut h = GbdHasher::default();
//! h.add_clause(&[Lit::from_dimacs(1), Lit::from_dimacs(-2)]).unwrap();
//! h.add_clause(&[Lit::from_dimacs(2)]).unwrap();
//! // The MD5 digest of "1 -2 0 2 0".
//! assert_eq!(h.finish(), "177c0b03f0c47b5f973797b2f46c901d");
//! ```

use super::{ClauseSink, Lit};
use md5::{Digest, Md5};
use std::io;

/// A clause sink that computes the GBD identifier of the clauses given to it.
#[derive(Clone, Default)]
pub struct GbdHasher {
    md5: Md5,
    started: bool,
    buf: Vec<u8>,
}

impl GbdHasher {
    /// The identifier: 32 lowercase hexadecimal digits.
    pub fn finish(mut self) -> String {
        self.md5.update(&self.buf);
        hex(&self.md5.finalize())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl ClauseSink for GbdHasher {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        let mut fmt = itoa::Buffer::new();
        for &l in clause {
            if self.started {
                self.buf.push(b' ');
            }
            self.started = true;
            if l.is_negative() {
                self.buf.push(b'-');
            }
            self.buf
                .extend_from_slice(fmt.format(l.index() + 1).as_bytes());
        }
        if self.started {
            self.buf.push(b' ');
        }
        self.started = true;
        self.buf.push(b'0');
        if self.buf.len() >= 1 << 16 {
            self.md5.update(&self.buf);
            self.buf.clear();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md5_of_the_normal_form() {
        // The normal form of "p cnf 2 2 / 1 -2 0 / 2 0" is "1 -2 0 2 0".
        let mut h = GbdHasher::default();
        h.add_clause(&[Lit::from_dimacs(1), Lit::from_dimacs(-2)])
            .unwrap();
        h.add_clause(&[Lit::from_dimacs(2)]).unwrap();
        let want = hex(&Md5::digest(b"1 -2 0 2 0"));
        assert_eq!(h.finish(), want);
        // MD5 of the empty string, for no clauses.
        assert_eq!(
            GbdHasher::default().finish(),
            "d41d8cd98f00b204e9800998ecf8427e"
        );
    }
}
