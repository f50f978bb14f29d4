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
    // 80 clauses: 4 at-least-one clauses with four literals, 76 pairs "not both".
    let clause_lines = text
        .lines()
        .filter(|l| l.starts_with("    q(") || l.starts_with("    ¬q("))
        .count();
    assert_eq!(clause_lines, 80);
    print!("{text}");
    Ok(())
}
