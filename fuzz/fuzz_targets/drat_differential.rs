//! The two DRAT checkers against each other and against the plain checker of the tests
//! (tests/it/oracle.rs), on small formulas and proofs decoded from the input: a formula of at
//! most 8 variables (so that every assignment can be tried) and a proof of lemmas and
//! deletions over 10 variables (two of them fresh), written as text DRAT. What must hold:
//!
//! * the library's DRAT checker gives the oracle's verdict (the same semantics, drat-trim's);
//! * nothing is accepted, by either checker, on a formula that has a model;
//! * a proof the library's checker accepts is accepted by VeriPB on the translation with the
//!   checker's hints, and also by VeriPB alone (without hints);
//! * a proof the library's checker rejects is rejected by VeriPB alone, unless the proof
//!   deletes a clause that is unit at the top level (which drat-trim and the library ignore
//!   and VeriPB applies, once the first checker has stopped following the proof).
//!
//! And the binary form of the proof gets the verdict of the text form.
#![no_main]

#[path = "../../tests/it/oracle.rs"]
#[allow(dead_code)]
mod oracle;

use libfuzzer_sys::fuzz_target;
use oracle::Step;
use queens_sat::cnf::{Cnf, Lit};
use queens_sat::proof::{check, CheckOptions, Opinion};

/// Bytes taken one at a time, zero past the end.
struct Bytes<'a>(&'a [u8], usize);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        b
    }
    fn done(&self) -> bool {
        self.1 >= self.0.len()
    }
    fn lit(&mut self, vars: u8) -> i64 {
        let b = self.next();
        let v = i64::from((b & 0x7f) % vars) + 1;
        if b & 0x80 != 0 {
            -v
        } else {
            v
        }
    }
    fn clause(&mut self, vars: u8) -> Vec<i64> {
        let len = self.next() % 4;
        (0..len).map(|_| self.lit(vars)).collect()
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data, 0);
    let vars = 1 + b.next() % 8;
    let nclauses = b.next() % 16;
    let formula: Vec<Vec<i64>> = (0..nclauses).map(|_| b.clause(vars)).collect();
    let mut steps = Vec::new();
    while !b.done() && steps.len() < 40 {
        let kind = b.next();
        let c = b.clause(vars + 2);
        steps.push(if kind % 4 == 0 {
            Step::Delete(c)
        } else {
            Step::Lemma(c)
        });
    }
    let text = oracle::text(&steps);
    let clauses: Cnf = formula
        .iter()
        .map(|c| c.iter().map(|&l| Lit::from_dimacs(l as isize)).collect::<Vec<_>>())
        .collect();
    let hinted = check(
        &clauses,
        vars as usize,
        text.as_bytes(),
        &CheckOptions::default(),
    )
    .expect("a well-formed proof");
    let alone = CheckOptions {
        veripb_alone: true,
        ..CheckOptions::default()
    };
    let plain = check(&clauses, vars as usize, text.as_bytes(), &alone).expect("well formed");
    let expected = oracle::check(&formula, &steps);
    let sat = oracle::brute_force_sat(&formula);
    let ours = hinted.own.verified();
    assert_eq!(ours, expected.verified(), "{hinted} / {expected:?}\n{text}");
    assert_eq!(plain.own, hinted.own);
    if sat {
        assert!(!ours, "accepted on a satisfiable formula\n{text}");
        assert_ne!(hinted.veripb, Opinion::Accepted, "{text}");
        assert_ne!(plain.veripb, Opinion::Accepted, "{text}");
    }
    if ours {
        assert_eq!(hinted.veripb, Opinion::Accepted, "{hinted}\n{text}");
        assert_eq!(plain.veripb, Opinion::Accepted, "{plain}\n{text}");
    } else if plain.veripb == Opinion::Accepted {
        let deletes = steps.iter().any(|s| matches!(s, Step::Delete(_)));
        assert!(
            deletes,
            "VeriPB alone accepts what the checker rejects: {plain}\n{text}"
        );
    }
    let bin = check(
        &clauses,
        vars as usize,
        &oracle::binary(&steps)[..],
        &CheckOptions::default(),
    )
    .expect("well formed");
    assert_eq!(bin.own.verified(), ours, "{text}");
});
