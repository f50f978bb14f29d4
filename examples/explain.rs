//! Prints the formula of the 4-queens problem readably: groups Q1..Q5, each clause with named
//! variables q(r,c).
//!
//! ```sh
//! cargo run --example explain
//! ```

use queens_sat::encode::{EncodeOptions, QueensEncoder};
use queens_sat::explain::{write_readable, Notation};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let enc = QueensEncoder::new(4, EncodeOptions::default())?;
    // Into memory first, to check it: then to stdout.
    let text = String::from_utf8(write_readable(&enc, Vec::new(), Notation::Unicode, None)?)?;
    // 80 clauses: 4 at-least-one clauses with four literals, 76 pairs "not both", each line
    // numbered as the DIMACS file orders them: `    60. ¬q(2,3) ∨ ¬q(3,2)`.
    let numbers: Vec<usize> = text
        .lines()
        .filter_map(|l| {
            let (number, clause) = l.trim_start().split_once(". ")?;
            (clause.starts_with("q(") || clause.starts_with("¬q(")).then_some(())?;
            number.parse().ok()
        })
        .collect();
    assert_eq!(numbers, (1..=80).collect::<Vec<_>>());
    print!("{text}");
    Ok(())
}
