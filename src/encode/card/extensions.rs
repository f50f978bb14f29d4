//! A small model counter for tests: how many ways the free variables of a formula extend a
//! fixed assignment of its first variables. Backtracking with unit propagation, written
//! apart from every solver the crate uses, so that the tests of the encodings do not depend
//! on one.

use crate::cnf::{lit_value, Cnf, Lit};

/// The number of assignments of the variables `fixed.len() .. nvars` that, together with
/// `fixed` (the values of variables `0 .. fixed.len()`), satisfy every clause of `cnf`;
/// counting stops at `limit` (the result is then `limit`). `nvars` must cover every variable
/// of `cnf`.
pub(crate) fn count_extensions(cnf: &Cnf, nvars: usize, fixed: &[bool], limit: u64) -> u64 {
    let clauses: Vec<&[Lit]> = cnf.iter().collect();
    let mut value: Vec<Option<bool>> = vec![None; nvars];
    for (v, &b) in fixed.iter().enumerate() {
        value[v] = Some(b);
    }
    count(&clauses, &mut value, limit)
}

/// `true` when `fixed` extends to a model of `cnf`.
pub(crate) fn extends(cnf: &Cnf, nvars: usize, fixed: &[bool]) -> bool {
    count_extensions(cnf, nvars, fixed, 1) > 0
}

fn count(clauses: &[&[Lit]], value: &mut Vec<Option<bool>>, limit: u64) -> u64 {
    let mut trail = Vec::new();
    let result = propagate_and_count(clauses, value, limit, &mut trail);
    for v in trail {
        value[v] = None;
    }
    result
}

fn propagate_and_count(
    clauses: &[&[Lit]],
    value: &mut Vec<Option<bool>>,
    limit: u64,
    trail: &mut Vec<usize>,
) -> u64 {
    // Unit propagation to a fixed point; 0 on a falsified clause.
    loop {
        let mut changed = false;
        for c in clauses {
            let mut open = None;
            let mut n_open = 0;
            let mut satisfied = false;
            for &l in c.iter() {
                match lit_value(value, l) {
                    Some(true) => {
                        satisfied = true;
                        break;
                    }
                    Some(false) => {}
                    None => {
                        n_open += 1;
                        open = Some(l);
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (n_open, open) {
                (0, _) => return 0,
                (1, Some(l)) => {
                    value[l.index()] = Some(l.is_positive());
                    trail.push(l.index());
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
    // Branch on a variable of a clause not yet satisfied; if every clause is, each
    // unassigned variable is free.
    let open_clause = clauses
        .iter()
        .find(|c| !c.iter().any(|&l| lit_value(value, l) == Some(true)));
    let Some(c) = open_clause else {
        let free = value.iter().filter(|v| v.is_none()).count() as u32;
        return 1u64.checked_shl(free).unwrap_or(u64::MAX).min(limit);
    };
    let Some(v) = c.iter().map(|l| l.index()).find(|&v| value[v].is_none()) else {
        return 0;
    };
    let mut total = 0u64;
    for b in [false, true] {
        value[v] = Some(b);
        total = total.saturating_add(count(clauses, value, limit - total));
        value[v] = None;
        if total >= limit {
            return limit;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{neg, pos, ClauseSink};

    #[test]
    fn counts_small_formulas() {
        // (x1 v x2) & (-x1 v x3): over x1..x3, 4 models.
        let mut f = Cnf::new();
        f.add_clause(&[pos(1), pos(2)]).unwrap();
        f.add_clause(&[neg(1), pos(3)]).unwrap();
        assert_eq!(count_extensions(&f, 3, &[], u64::MAX), 4);
        assert_eq!(count_extensions(&f, 3, &[], 3), 3);
        assert_eq!(count_extensions(&f, 3, &[true], u64::MAX), 2);
        assert_eq!(count_extensions(&f, 3, &[true, false], u64::MAX), 1);
        assert_eq!(count_extensions(&f, 3, &[false], u64::MAX), 2);
        assert_eq!(count_extensions(&f, 3, &[false, false], u64::MAX), 0);
        // A free variable outside every clause doubles the count.
        assert_eq!(count_extensions(&f, 4, &[], u64::MAX), 8);
        assert!(extends(&f, 3, &[false, true, false]));
        assert!(!extends(&f, 3, &[true, true, false]));
        // The empty clause has no model.
        f.add_clause(&[]).unwrap();
        assert_eq!(count_extensions(&f, 3, &[], u64::MAX), 0);
    }
}
