//! Tracing a DIMACS file: where its board comes from ([`CnfBoard`]): an instance (the file's
//! queens-sat header), a map of cells to variables (`--map FILE`, as `grade` reads it), or
//! none (the variables' view).

use crate::cnf::Dimacs;
use crate::grade::{CellMap, MapError};
use crate::instance::Instance;

/// The board of a traced DIMACS file.
#[derive(Clone, Debug)]
pub enum CnfBoard {
    /// No board: the steps say the variables' values.
    None,
    /// The cells are these variables (a map file, or the reference numbering of a queens-sat
    /// header); the other variables are named `x7`.
    Cells(CellMap),
    /// The file is this instance's formula, clause for clause (its queens-sat header's
    /// command line): the trace speaks its words.
    Instance(Box<Instance>),
}

/// Why a DIMACS file's board could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CnfTraceError {
    /// The map file is wrong.
    #[error("{name}: {source}")]
    Map {
        /// The map file.
        name: String,
        /// What is wrong.
        source: MapError,
    },
    /// The map file maps no cell.
    #[error("{name}: no line 'ROW COLUMN VARIABLE', so no board")]
    EmptyMap {
        /// The map file.
        name: String,
    },
}

/// Reads a map file (`ROW COLUMN VARIABLE` per line, [`CellMap::parse`]) for a formula of
/// `vars` variables. The board size is the largest row or column the file names; every cell
/// of that board must be mapped, and every variable must be the formula's.
pub fn read_map(text: &str, name: &str, vars: usize) -> Result<CellMap, CnfTraceError> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.starts_with('c') && !t.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return Err(CnfTraceError::EmptyMap { name: name.into() });
    }
    // n * n distinct variables of the formula: n is at most the square root of their number;
    // a larger row or column is then off the board, and the parse says so.
    let mut cap = 0;
    while (cap + 1) * (cap + 1) <= vars {
        cap += 1;
    }
    let n = lines
        .iter()
        .filter_map(|t| {
            let parts: Vec<&str> = t.split_whitespace().collect();
            let r = parts.first()?.parse::<usize>().ok()?;
            let c = parts.get(1)?.parse::<usize>().ok()?;
            Some(r.max(c))
        })
        .max()
        .unwrap_or(1)
        .clamp(1, cap.max(1));
    let err = |source| CnfTraceError::Map {
        name: name.into(),
        source,
    };
    let map = CellMap::parse(text, n).map_err(err)?;
    map.check_vars(vars).map_err(err)?;
    Ok(map)
}

/// `true` when `inst`'s formula is `cnf`, clause for clause.
pub fn same_formula(inst: &Instance, cnf: &Dimacs) -> bool {
    let labelled = crate::instance::to_labelled_cnf(inst);
    inst.size().vars as usize == cnf.vars
        && labelled.len() == cnf.clauses.len()
        && labelled.iter().zip(&cnf.clauses).all(|(a, b)| a == &b[..])
}
