//! Cross-checks: every part of the toolkit checked against the others, for each board size and
//! encoding.
//!
//! For one formula (a [`Formula`]: the real encoder, or in tests a deliberately broken one) and
//! one n, [`check_formula`] runs five checks and names every disagreement it finds:
//!
//! 1. **SAT** ([`Check::Sat`]): the embedded solver's answer (SAT/UNSAT) agrees with the
//!    backtracking counter (UNSAT exactly when the count is 0), and its model is a solution;
//!    an UNSAT answer is proved: a DRAT proof written by the solver and accepted by an
//!    independent checker ([`crate::solve::Prover::prove_and_check`]).
//! 2. **Counts** ([`Check::Counts`]): the models enumerated by SAT, blocked on the cell
//!    variables, are all solutions and as many as the counter's total, which equals the published
//!    table ([`REFERENCE_COUNTS`], OEIS A000170/A002562) where it has the value.
//! 3. **Construct** ([`Check::Construct`]): the placements of the direct constructor satisfy the
//!    CNF (evaluated clause by clause when the formula has no auxiliary variables, otherwise with
//!    the cells fixed as solver assumptions and the auxiliary variables free).
//! 4. **Soundness** ([`Check::Soundness`]): boards one change away from a solution (a queen
//!    removed, added, moved or two swapped, see [`corruptions`]) are accepted by the CNF exactly
//!    when the rules accept them.
//! 5. **External** ([`Check::External`]): external solvers on the exported DIMACS agree on
//!    SAT/UNSAT and their models satisfy every clause and describe a solution.
//!
//! [`run`] runs the checks for many formulas on worker threads and reports the rows in order,
//! each as soon as it and all rows before it are done; the `check` command (in the module
//! `command`) does it as `queens-sat check` asks, printing the [`Table`] and the verdict.
//!
//! ```
//! use queens_sat::crosscheck::{check_formula, CheckConfig, Expectation};
//! use queens_sat::instance::{Instance, Model};
//! use std::sync::Arc;
//!
//! let inst = Instance::new(6, Model::default()).unwrap();
//! let row = check_formula(Arc::new(inst), &Expectation::for_n(6), &CheckConfig::default());
//! assert!(row.ok(), "{:?}", row.discrepancies);
//! assert_eq!(row.models, Some(4));
//! ```

mod corrupt;
mod expect;
mod external;
mod formula;
mod probe;
mod report;
mod run;
mod symmetry;
mod table;

pub use crate::instance::Formula;
pub use corrupt::{corruptions, rule_check, rule_check_instance, CorruptBoard, Corruption};
pub use expect::Expectation;
pub use external::on_path;
pub use formula::check_formula;
pub use report::{plural, Check, Discrepancy, ExternalResult, RowReport, Summary, Table};
pub use run::{run, CheckConfig};
pub use symmetry::{classes_of_instance, SYMMETRY_CHECK_MAX_N};
pub use table::{reference_fundamental, reference_total, REFERENCE_COUNTS};
