//! Where the constraints of an OPB formula stand, as a pseudo-Boolean proof names them: the
//! OPB form of an instance fills it in as it writes its constraints, and a proof against that
//! form (the search's certificates) refers to its rows, columns, counts, sums and moments.

/// Where the OPB form's constraints stand, as the VeriPB checker numbers them (from 1, in the
/// file's order, an equality taking two ids: its `>=` half, then its `<=` half): what a
/// pseudo-Boolean proof against the form names in its cutting-planes steps
/// (the search's certificates). A constraint the form does not hold is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpbAnchors {
    /// The number of ids the form's constraints take.
    pub ids: u64,
    /// The `>=` half of each row's `= 1` (its `<=` half is the next id).
    pub rows: Vec<u64>,
    /// Each column's at-most-one (`-1 ... >= -1`), or the `>=` half of its `= 1` with
    /// `--redundant permutation` (`None`: a column of one cell).
    pub columns: Vec<Option<u64>>,
    /// Whether the columns are equalities (`--redundant permutation`).
    pub columns_exact: bool,
    /// The `>=` half of "exactly n occupied diagonals", `/` then `\` (`--redundant
    /// diagonals`).
    pub counts: [Option<u64>; 2],
    /// The `>=` half of the sum of the lines' indices, over `r + c` then `r - c` (1-based)
    /// (`--redundant sums`, the square).
    pub sums: [Option<u64>; 2],
    /// The `>=` half of the second moments (`--redundant moments`, the square).
    pub moments: Option<u64>,
}
