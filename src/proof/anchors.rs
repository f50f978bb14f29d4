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
    /// Each diagonal's at-most-one (`-1 ... >= -1`), `/` then `\`, by the diagonal's index
    /// (`Geometry::diagonal`, `Geometry::anti_diagonal`; `None`: a diagonal of one cell).
    pub diagonals: [Vec<Option<u64>>; 2],
    /// The constraint that fixes a pre-placed or forbidden cell (0-based `r * n + c`): the
    /// `>=` half of a placed cell's `= 1`, the `<=` half of a forbidden cell's `= 0`.
    pub cells: std::collections::HashMap<usize, u64>,
    /// The variable of each diagonal's occupancy, `/` then `\`, by the diagonal's index (the
    /// cell's own for a diagonal of one cell; `None`: no diagonal there, or no counts in the
    /// form).
    pub occupancy: [Vec<Option<u64>>; 2],
    /// Each occupancy variable's definition (`+1 cells... -1 o = 0`): the id of its `>=` half
    /// (`o` implies a cell; the `<=` half, each cell implies `o`, is the next id).
    pub definitions: std::collections::HashMap<u64, u64>,
}

/// A bound on the diagonals that failed at a partial placement, with the threshold of the
/// cutting-planes step that propagates its failure (in the form's units: `v` is `r + c` or
/// `r - c`, 1-based; the moments' weights are squared distances from the middle). The search's
/// certified walk and the propagator's certificates name their bounds' failures this way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The `m` smallest free indices of direction `dir` (0: `r + c`, 1: `r - c`) exceed what is
    /// left of the sum: `t` the `m`-th.
    SumLow {
        /// The direction.
        dir: usize,
        /// The threshold.
        t: i64,
    },
    /// The `m` largest fall short: `t` the `m`-th largest.
    SumHigh {
        /// The direction.
        dir: usize,
        /// The threshold.
        t: i64,
    },
    /// The `m` nearest the middle of each direction exceed what is left of the moments: `t`
    /// the `m`-th weight of each direction.
    MomentLow {
        /// The thresholds, `/` then `\`.
        t: [i64; 2],
    },
    /// The `m` farthest fall short.
    MomentHigh {
        /// The thresholds, `/` then `\`.
        t: [i64; 2],
    },
    /// One case of the colour classes' split ([`super::ClassProof::step`]; no
    /// [`OpbAnchors::combination`]).
    Class(super::ClassStep),
    /// The counting argument on direction `dir`: fewer than n diagonals left that can hold a
    /// queen, or exactly n (each must). No step: the form's count of occupied diagonals
    /// propagates it alone ([`OpbAnchors::counts`]).
    Count {
        /// The direction.
        dir: usize,
    },
}

impl OpbAnchors {
    /// The cutting-planes step (`pol ...`, without its closing ` ;`) that makes the failure of
    /// `bound` propagate: the form's sum (or moment) equality plus `t` times its counts. With
    /// `t` the threshold and `m` queens left, `sum v o <= T` plus `t` times `sum o >= n` is
    /// `sum (t - v) o >= t n - T`, which the free diagonals can no longer satisfy when their
    /// `m` smallest indices add up to more than what is left of `T` (the largest alike, and
    /// both directions at once for the moments). `None` when the form's constraint propagates
    /// the failure alone (thresholds of 0) or the form lacks the constraints the step names
    /// (see [`OpbAnchors::bounds_missing`]).
    pub fn combination(&self, bound: Bound) -> Option<String> {
        // The `>=` half of a constraint; its `<=` half is the next id.
        let count = |dir: usize| self.counts[dir];
        let (base, terms): (u64, Vec<(u64, i64)>) = match bound {
            Bound::SumLow { dir, t } => {
                let s = self.sums[dir]?;
                // sum v o <= T, plus t (sum o >= n) for t > 0, |t| (sum o <= n) for t < 0.
                let c = if t > 0 { count(dir)? } else { count(dir)? + 1 };
                (s + 1, vec![(c, t.abs())])
            }
            Bound::SumHigh { dir, t } => {
                let s = self.sums[dir]?;
                let c = if t > 0 { count(dir)? + 1 } else { count(dir)? };
                (s, vec![(c, t.abs())])
            }
            Bound::MomentLow { t } => (
                self.moments? + 1,
                vec![(count(0)?, t[0]), (count(1)?, t[1])],
            ),
            Bound::MomentHigh { t } => (
                self.moments?,
                vec![(count(0)? + 1, t[0]), (count(1)? + 1, t[1])],
            ),
            Bound::Class(_) | Bound::Count { .. } => return None,
        };
        if terms.iter().all(|&(_, f)| f == 0) {
            return None;
        }
        let mut line = format!("pol {base}");
        for (id, f) in terms.into_iter().filter(|&(_, f)| f != 0) {
            line.push_str(&format!(" {id} {f} * +"));
        }
        Some(line)
    }

    /// What the form lacks of the constraints the bounds' steps name (the counts, and on the
    /// square the sums and moments), in words; `None` when it has them all.
    pub fn bounds_missing(&self, square: bool) -> Option<&'static str> {
        if self.counts.iter().any(Option::is_none) {
            return Some("counts of occupied diagonals");
        }
        if square && (self.sums.iter().any(Option::is_none) || self.moments.is_none()) {
            return Some("sums and moments of the diagonals");
        }
        None
    }
}
