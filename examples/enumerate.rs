//! Lists every solution of the 8-queens problem found by the SAT solver, and their number.
//!
//! ```sh
//! cargo run --release --example enumerate
//! ```
//!
//! Each model found is blocked (on its queens) and the solver asked again, until no model is
//! left. The count must be 92, the number in every table of the problem (OEIS A000170).

use queens_sat::board::is_solution;
use queens_sat::instance::{Instance, Model};
use queens_sat::solve::solutions;
use std::collections::HashSet;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = 8;
    let mut seen = HashSet::new();
    for p in solutions(&Instance::new(n, Model::default())?) {
        let p = p?;
        assert!(is_solution(&p));
        println!("{}", p.to_one_line());
        assert!(seen.insert(p), "a solution came twice");
    }
    println!("{} solutions for n = {n}", seen.len());
    assert_eq!(seen.len(), 92);
    Ok(())
}
