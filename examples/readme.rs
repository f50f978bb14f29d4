//! The README's library example: a partial board, one solution, the number of solutions.
//!
//! ```sh
//! cargo run --release --example readme
//! ```
//!
//! A queen on the corner (1,1) of the 8 x 8 board has 4 completions, the 92 solutions counted
//! by where their first-row queen stands.

use queens_sat::instance::{Instance, Model};
use queens_sat::solve::{count_solutions, solve};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let inst = Instance::new(8, Model::default())?.with_cells(&[(0, 0)], &[])?;
    let board = solve(&inst)?.expect("a queen in the corner has completions");
    println!("{}", board.to_one_line());
    let count = count_solutions(&inst)?;
    println!("{count} solutions with a queen on (1,1)");
    Ok(())
}
