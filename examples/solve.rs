//! Finds one solution with the embedded SAT solver and prints the board.
//!
//! ```sh
//! cargo run --example solve -- 8
//! ```

use queens_sat::board::is_solution;
use queens_sat::instance::{Instance, Model};
use queens_sat::solve::solve;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(8), |s| s.parse())?;
    // The reference (pairwise) model on the empty board.
    match solve(&Instance::new(n, Model::default())?)? {
        Some(p) => {
            // An independent check: no two queens attack each other.
            assert!(is_solution(&p));
            print!("{}", p.render_board());
            println!("one-line: {}", p.to_one_line());
        }
        None => {
            assert!(n == 2 || n == 3, "only n = 2 and 3 have no solution");
            println!("no solution exists for n = {n}");
        }
    }
    Ok(())
}
