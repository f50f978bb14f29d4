//! Test oracles for the toroidal board, independent of the encoders: brute force over
//! permutations (also the other tests' enumeration of permutations), and model enumeration of any encoding with a blocking clause per board.

use crate::board::{check_placement_on, Geometry, Placement};
use crate::cnf::{Lit, Var};
use std::collections::BTreeSet;
use varisat::{ExtendFormula, Solver};

/// A051906 (oeis.org/A051906), n = 1..9: placements of n nonattacking queens on the n x n
/// toroidal board.
pub const A051906: [usize; 9] = [1, 0, 0, 0, 10, 0, 28, 0, 0];

/// Every permutation of `0..n`, in lexicographic order.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn go(n: usize, used: &mut Vec<bool>, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == n {
            out.push(cur.clone());
            return;
        }
        for c in 0..n {
            if !used[c] {
                used[c] = true;
                cur.push(c);
                go(n, used, cur, out);
                cur.pop();
                used[c] = false;
            }
        }
    }
    let mut out = Vec::new();
    go(n, &mut vec![false; n], &mut Vec::new(), &mut out);
    out
}

/// The solutions on the torus, by brute force over the permutations filtered with
/// [`check_placement_on`]; each is also checked pair by pair against the modular definition.
pub fn brute_force_torus(n: usize) -> BTreeSet<Vec<usize>> {
    let mut out = BTreeSet::new();
    for cols in permutations(n) {
        let ok = check_placement_on(&Placement::from_cols(&cols), Geometry::Toroidal).is_ok();
        let by_pairs = (0..n).all(|r| {
            (r + 1..n).all(|s| {
                let (a, b) = (cols[r], cols[s]);
                (r + a) % n != (s + b) % n && (r + n - a) % n != (s + n - b) % n
            })
        });
        assert_eq!(ok, by_pairs, "n = {n}, {cols:?}");
        if ok {
            out.insert(cols);
        }
    }
    out
}

/// Every board of a formula: solve, decode the board from the assignment, block the
/// projection's values, repeat. `decode` reads the assignment (indexed by 0-based variable,
/// `vars` long). Each board found must be a toroidal solution; returns them as column lists,
/// panicking on a board found twice.
pub fn enumerate_boards(
    mut solver: Solver<'static>,
    vars: u64,
    projection: &[Var],
    decode: impl Fn(&[bool]) -> Placement,
) -> BTreeSet<Vec<usize>> {
    let mut found = BTreeSet::new();
    while solver.solve().unwrap() {
        let mut a = vec![false; vars as usize];
        for l in solver.model().unwrap() {
            if l.index() < a.len() {
                a[l.index()] = l.is_positive();
            }
        }
        let p = decode(&a);
        check_placement_on(&p, Geometry::Toroidal)
            .unwrap_or_else(|v| panic!("{}: {v}", p.to_one_line()));
        let cols: Vec<usize> = (0..p.n()).map(|r| p.col(r)).collect();
        assert!(found.insert(cols.clone()), "{cols:?} found twice");
        let block: Vec<Lit> = projection.iter().map(|&v| v.lit(!a[v.index()])).collect();
        if block.is_empty() {
            break; // nothing to project on: one model
        }
        solver.add_clause(&block);
    }
    found
}
