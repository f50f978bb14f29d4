//! Why an assignment of the column model is not a placement.

/// Why an assignment could not be read as a placement. Rows and columns are 0-based;
/// `Display` shows them 1-based.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColumnDecodeError {
    /// Direct domain: no value variable of the row is true.
    #[error("row {}: no column variable x({})=c is true", .row + 1, .row + 1)]
    NoValue {
        /// The row.
        row: usize,
    },
    /// Direct domain: two value variables of the row are true.
    #[error("row {}: two columns, {} and {}", .row + 1, .first + 1, .second + 1)]
    TwoValues {
        /// The row.
        row: usize,
        /// The smaller column.
        first: usize,
        /// The next true column.
        second: usize,
    },
    /// Order domain: `[x(row) >= value + 1]` is true but `[x(row) >= value]` is false.
    #[error(
        "row {}: inconsistent ladder, [x({}) >= {}] is true but [x({}) >= {}] is false",
        .row + 1, .row + 1, .value + 2, .row + 1, .value + 1
    )]
    BrokenLadder {
        /// The row.
        row: usize,
        /// The 0-based bound whose variable is false although the next one is true.
        value: usize,
    },
    /// Log domain: the bits spell a column outside the board.
    #[error("row {}: the bits spell column {}, outside 1..{n}", .row + 1, .value + 1)]
    OutOfRange {
        /// The row.
        row: usize,
        /// The 0-based value the bits spell.
        value: usize,
        /// Board size.
        n: usize,
    },
}

impl ColumnDecodeError {
    /// The one true column of `row` among `true_columns` (ascending), or why there is not
    /// exactly one.
    pub(super) fn one_value(
        row: usize,
        mut true_columns: impl Iterator<Item = usize>,
    ) -> Result<usize, Self> {
        let first = true_columns
            .next()
            .ok_or(ColumnDecodeError::NoValue { row })?;
        match true_columns.next() {
            Some(second) => Err(ColumnDecodeError::TwoValues { row, first, second }),
            None => Ok(first),
        }
    }
}
