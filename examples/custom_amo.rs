//! A new at-most-one encoding written outside the library, through the public
//! [`AtMostOne`] trait, and used in the cell model like the built-in ones: the "halves"
//! encoding, pairwise inside each half of a line and one auxiliary variable `y` that says "a
//! queen stands in the first half", so no queen may stand in the second half when it is true.
//!
//! The program checks what every encoding in the catalogue is checked for: the closed-form
//! size equals the clauses streamed, and the number of solutions equals the published counts
//! (`y` is defined exactly by its clauses, so counts are not inflated).
//!
//! ```sh
//! cargo run --release --example custom_amo
//! ```

use queens_sat::cnf::{ClauseSink, CountingSink, Lit};
use queens_sat::encode::amo::{Amo, AtMostOne};
use queens_sat::encode::{EncodeOptions, LineEncodings, Size, VarAlloc};
use queens_sat::instance::{encode, Instance, Model};
use queens_sat::solve::count_solutions;
use std::io;

/// Pairwise in each half, and `y <-> (some literal of the first half)`.
struct Halves;

fn pairs(m: u64) -> u64 {
    m * m.saturating_sub(1) / 2
}

impl AtMostOne for Halves {
    fn name(&self) -> &'static str {
        "halves"
    }
    fn summary(&self) -> &'static str {
        "pairwise in each half of the line, one auxiliary for the first half"
    }
    fn aux_symbol(&self) -> &'static str {
        "y"
    }
    fn size(&self, m: usize, _: Option<usize>) -> Size {
        let (a, b) = ((m / 2) as u64, (m - m / 2) as u64);
        if m < 2 {
            return Size::default();
        }
        // Pairs inside each half, (-a v y) for each a, (-b v -y) for each b, and
        // (-y v a1 v ... v ak).
        Size {
            vars: 1,
            clauses: pairs(a) + pairs(b) + a + b + 1,
            literals: 2 * (pairs(a) + pairs(b)) + 2 * (a + b) + (a + 1),
        }
    }
    fn encode(
        &self,
        lits: &[Lit],
        _: Option<usize>,
        alloc: &mut VarAlloc,
        sink: &mut dyn ClauseSink,
    ) -> io::Result<()> {
        if lits.len() < 2 {
            return Ok(());
        }
        let (first, second) = lits.split_at(lits.len() / 2);
        for half in [first, second] {
            for (i, &x) in half.iter().enumerate() {
                for &z in &half[i + 1..] {
                    sink.add_clause(&[!x, !z])?;
                }
            }
        }
        let y = Lit::from_var(alloc.fresh(), true);
        for &x in first {
            sink.add_clause(&[!x, y])?;
        }
        for &x in second {
            sink.add_clause(&[!x, !y])?;
        }
        let mut define = vec![!y];
        define.extend_from_slice(first);
        sink.add_clause(&define)
    }
}

static HALVES: Halves = Halves;

/// The number of solutions of n-queens, n = 1..8 (OEIS A000170).
const PUBLISHED: [u64; 8] = [1, 0, 0, 2, 10, 4, 40, 92];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let options = EncodeOptions {
        amo: LineEncodings::uniform(Amo::of(&HALVES)),
        column_alo: false,
    };
    for (n, &published) in (1..=8).zip(&PUBLISHED) {
        let inst = Instance::new(n, Model::cells(options))?;
        let mut counted = CountingSink::default();
        encode(&inst, &mut counted)?;
        let size = inst.size();
        assert_eq!(counted.clauses, size.clauses, "n = {n}: clauses");
        assert_eq!(counted.literals, size.literals, "n = {n}: literals");
        let solutions = count_solutions(&inst)?;
        assert_eq!(solutions, published, "n = {n}: solutions");
        println!(
            "n = {n}: {} variables, {} clauses, {solutions} solutions",
            size.vars, size.clauses
        );
    }
    Ok(())
}
