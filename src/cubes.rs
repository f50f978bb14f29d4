//! Cubes for cube-and-conquer: the formula split by the placements of its first rows, written
//! as iCNF (`p inccnf`, the clauses, then one `a <lits> 0` line per cube).
//!
//! A cube is the conjunction of the literals that put the queens of rows `0..k` in given
//! columns ([`Formula::value_lits`]). The cubes are every placement of those rows in which no
//! two queens attack each other (in the instance's geometry), no queen stands on a forbidden
//! cell or attacks a pre-placed queen, and every pre-placed queen of those rows is kept. Two
//! cubes differ in the column of some row, so no model satisfies both (each row holds one
//! queen); every solution's first `k` rows form one of them, so together they cover every
//! solution. A cube-and-conquer solver (CaDiCaL reads iCNF) solves each cube on its own.
//!
//! ```
//! use queens_sat::instance::{Instance, Model};
//! let inst = Instance::new(6, Model::default()).unwrap();
//! let cubes = queens_sat::cubes::cubes(&inst, 1, 100).unwrap();
//! assert_eq!(cubes.len(), 6); // a queen in any column of the first row
//! ```

use crate::cnf::{DimacsWriter, Lit};
use crate::instance::{encode, Formula, Instance};
use std::io::{self, Write};

/// The most cubes [`cubes`] is asked to make by the command line: a million (cube-and-conquer
/// works with thousands to hundreds of thousands).
pub const MAX_CUBES: usize = 1_000_000;

/// Why cubes could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CubeError {
    /// More rows than the board has, or none.
    #[error(
        "{} {k}: the rows to split on must be 1 to n = {n}",
        crate::vocabulary::Param::Cubes
    )]
    Rows {
        /// Rows asked for.
        k: usize,
        /// The board size.
        n: usize,
    },
    /// More cubes than allowed.
    #[error("splitting on the first {k} rows gives more than {max} cubes; use fewer rows")]
    TooMany {
        /// Rows asked for.
        k: usize,
        /// The limit.
        max: usize,
    },
}

/// The cubes of the placements of the first `k` rows of `f` (1 <= k <= n), in lexicographic
/// order of the columns, at most `max` of them.
pub fn cubes(f: &dyn Formula, k: usize, max: usize) -> Result<Vec<Vec<Lit>>, CubeError> {
    let n = f.n();
    if k == 0 || k > n {
        return Err(CubeError::Rows { k, n });
    }
    let geometry = f.geometry();
    let (placed, forbidden) = f.fixed();
    let mut allowed = vec![true; n * n];
    for &(r, c) in forbidden {
        allowed[r * n + c] = false;
    }
    for &(pr, pc) in placed {
        for r in 0..n {
            for c in 0..n {
                let other = (r, c) != (pr, pc);
                if other && (r == pr || geometry.shared_line(n, (r, c), (pr, pc)).is_some()) {
                    allowed[r * n + c] = false;
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut cols = Vec::with_capacity(k);
    let mut full = false;
    extend(f, k, &allowed, &mut cols, &mut out, max, &mut full);
    if full {
        return Err(CubeError::TooMany { k, max });
    }
    Ok(out)
}

/// Depth-first: every column of row `cols.len()` compatible with the queens of `cols`.
fn extend(
    f: &dyn Formula,
    k: usize,
    allowed: &[bool],
    cols: &mut Vec<usize>,
    out: &mut Vec<Vec<Lit>>,
    max: usize,
    full: &mut bool,
) {
    let n = f.n();
    let r = cols.len();
    if r == k {
        if out.len() == max {
            *full = true;
            return;
        }
        out.push(
            cols.iter()
                .enumerate()
                .flat_map(|(r, &c)| f.value_lits(r, c))
                .collect(),
        );
        return;
    }
    for c in 0..n {
        if *full {
            return;
        }
        if !allowed[r * n + c] {
            continue;
        }
        let free = cols
            .iter()
            .enumerate()
            .all(|(pr, &pc)| pc != c && f.geometry().shared_line(n, (pr, pc), (r, c)).is_none());
        if free {
            cols.push(c);
            extend(f, k, allowed, cols, out, max, full);
            cols.pop();
        }
    }
}

/// Writes the instance as iCNF: its header comments (with a line on the cubes), `p inccnf`,
/// every clause, then one `a <lits> 0` line per cube. Returns `out` flushed.
pub fn write_icnf<W: Write>(
    inst: &Instance,
    cubes: &[Vec<Lit>],
    k: usize,
    out: W,
    command: Option<&str>,
) -> io::Result<W> {
    let mut header = inst.dimacs_header(command);
    header.comments.push(format!(
        "cubes: {} placements of the first {k} rows (a lines after the clauses), disjoint, covering every solution",
        cubes.len()
    ));
    // Model counters do not read iCNF: no counting type is declared.
    header.counting = None;
    let mut w = DimacsWriter::new_inccnf(out, &header)?;
    encode(inst, &mut w)?;
    for cube in cubes {
        w.cube(cube)?;
    }
    w.finish()
}
