//! Encodes n-queens as DIMACS CNF into a file.
//!
//! ```sh
//! cargo run --example encode_to_file -- 8 queens8.cnf
//! ```
//!
//! Without arguments it writes n = 8 to `queens8.cnf` in the system's temporary folder. It then
//! reads the file back and checks the `p cnf` line against the clause count of the reference
//! model, n + 2 n C(n,2) + 2 (2 C(n+1,3) - C(n,2)).

use queens_sat::encode::{EncodeOptions, QueensEncoder};
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(8), |s| s.parse())?;
    let path = args.next().map_or_else(
        || std::env::temp_dir().join(format!("queens{n}.cnf")),
        PathBuf::from,
    );

    let enc = QueensEncoder::new(n, EncodeOptions::default())?;
    let file = BufWriter::new(File::create(&path)?);
    // The second argument is the command line recorded in a `c` comment (none here).
    let mut file = enc.write_dimacs(file, None)?;
    std::io::Write::flush(&mut file)?;

    let text = std::fs::read_to_string(&path)?;
    let header = text
        .lines()
        .find(|l| l.starts_with("p cnf"))
        .ok_or("no header")?;
    let choose = |a: usize, b: usize| (0..b).fold(1, |acc, i| acc * (a - i) / (i + 1));
    let clauses = n + 2 * n * choose(n, 2) + 2 * (2 * choose(n + 1, 3) - choose(n, 2));
    assert_eq!(header, format!("p cnf {} {clauses}", n * n));
    println!("{}: {header}", path.display());
    Ok(())
}
