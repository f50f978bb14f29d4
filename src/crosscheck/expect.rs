//! What is known about a board independently of any formula: the counter's counts, the
//! published table's, an instance's count ([`Expectation`]).

use super::{reference_fundamental, reference_total, Check, Formula, RowReport};
use crate::count::{self, Counts};

/// What is known about n independently of any formula: the counter's result and the table's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// Board size.
    pub n: usize,
    /// The backtracking counter's counts, for n up to [`count::MAX_N`].
    pub counter: Option<Counts>,
    /// The published total D(n) (OEIS A000170), for n up to 27.
    pub reference: Option<u64>,
    /// The published fundamental count U(n) (OEIS A002562), for n up to 27.
    pub reference_fundamental: Option<u64>,
    /// For an instance (pre-placed queens, forbidden cells, a toroidal board): its number of
    /// solutions by the bitboard counter ([`count::count_masked`]). The empty square board's
    /// counter, table and constructions do not apply to it.
    pub instance_total: Option<u64>,
    /// The board is an instance (fixed cells or a toroidal board), not the empty square board.
    pub instance: bool,
}

impl Expectation {
    /// Runs the counter for `n` (when in its range) and looks the table up.
    pub fn for_n(n: usize) -> Self {
        Expectation {
            counter: count::count(n).ok(),
            ..Expectation::table_only(n)
        }
    }

    /// The published counts only, without running the counter.
    pub fn table_only(n: usize) -> Self {
        Expectation {
            n,
            counter: None,
            reference: reference_total(n),
            reference_fundamental: reference_fundamental(n),
            instance_total: None,
            instance: false,
        }
    }

    /// What is known about an instance that is not the empty square board: its count by the
    /// bitboard counter (n <= 64; `None` beyond). For the empty square board, the table only
    /// ([`Expectation::table_only`]; [`Expectation::for_n`] adds the counter).
    pub fn for_instance(f: &dyn Formula) -> Self {
        if f.fixed() == (&[][..], &[][..]) && f.geometry() == crate::board::Geometry::Square {
            return Expectation::table_only(f.n());
        }
        Expectation {
            n: f.n(),
            counter: None,
            reference: None,
            reference_fundamental: None,
            instance_total: crate::instance::masked_board(f)
                .ok()
                .map(|b| count::count_masked(&b)),
            instance: true,
        }
    }

    /// The number of solutions: the instance's count, else the counter's, else the table's.
    pub fn total(&self) -> Option<u64> {
        self.instance_total
            .or(self.counter.map(|c| c.total))
            .or(self.reference)
    }

    /// `true` for an instance other than the empty square board.
    pub fn is_instance(&self) -> bool {
        self.instance
    }
}

/// The counter against the published table, where both exist.
pub(super) fn check_counter_against_table(exp: &Expectation, row: &mut RowReport) {
    let Some(c) = exp.counter else { return };
    let pairs = [
        ("solutions", c.total, exp.reference, "A000170"),
        (
            "fundamental solutions",
            c.fundamental,
            exp.reference_fundamental,
            "A002562",
        ),
    ];
    for (what, counted, published, oeis) in pairs {
        if let Some(p) = published.filter(|&p| p != counted) {
            row.fail(
                Check::Counts,
                format!("the counter finds {counted} {what}, the table (OEIS {oeis}) {p}"),
            );
        }
    }
}
