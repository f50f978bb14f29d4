//! Check 6: the model count with lex-leader symmetry breaking against the number of classes
//! of solutions ([`classes_of_instance`]).

use super::{Check, Expectation, Formula, RowReport};
use crate::board::Placement;
use crate::board::Symmetry;
use crate::count;
use crate::solve::Enumeration;
use crate::symmetry_breaking::SymmetryBreaking;

/// The largest n whose lex-leader count the checks compare with the number of classes.
pub const SYMMETRY_CHECK_MAX_N: usize = 10;

/// The number of classes of the solutions of `f`'s board under the symmetries of `group` that
/// map its pre-placed queens and forbidden cells onto themselves, from the bitboard counter's
/// list of solutions (n <= 64). `None` when the board cannot be made.
pub fn classes_of_instance(f: &dyn Formula, group: &[Symmetry]) -> Option<u64> {
    let (placed, forbidden) = f.fixed();
    let n = f.n();
    let stab = crate::symmetry_breaking::stabilizer(n, group, placed, forbidden);
    let board = crate::instance::masked_board(f).ok()?;
    let mut classes = std::collections::HashSet::new();
    count::for_each_solution_masked(&board, |p| {
        let smallest = stab
            .iter()
            .map(|s| {
                let mut cols = vec![0usize; n];
                for (r, &c) in p.cols().iter().enumerate() {
                    let (r2, c2) = s.apply(n, r, c as usize);
                    cols[r2] = c2;
                }
                Placement::from_cols(&cols)
            })
            .fold(p.clone(), std::cmp::min);
        classes.insert(smallest);
        std::ops::ControlFlow::Continue(())
    });
    Some(classes.len() as u64)
}

/// Check 6: the formula with lex-leader symmetry breaking has one model per class: the
/// counter's fundamental count on the empty square board, the classes of the instance's
/// solutions under its stabilizer otherwise ([`classes_of_instance`]).
pub(super) fn check_symmetry_breaking(
    f: &dyn Formula,
    exp: &Expectation,
    cfg: &super::CheckConfig,
    row: &mut RowReport,
) {
    let Some(sb) = f.with_symmetry_breaking_dyn(SymmetryBreaking::LexLeader) else {
        return;
    };
    let expected = if exp.is_instance() {
        classes_of_instance(f, SymmetryBreaking::LexLeader.group())
    } else {
        exp.counter
            .map(|c| c.fundamental)
            .or(exp.reference_fundamental)
    };
    match Enumeration::shared(sb)
        .backend_with_options(cfg.backend, &cfg.solver_options)
        .count(|_| {})
    {
        Err(e) => row.fail(Check::Symmetry, e.to_string()),
        Ok(models) => {
            row.classes = Some(models);
            if let Some(classes) = expected.filter(|&c| c != models) {
                row.fail(
                    Check::Symmetry,
                    format!(
                        "with lex-leader symmetry breaking the SAT enumeration finds {models} models, but there are {classes} classes of solutions"
                    ),
                );
            }
        }
    }
}
