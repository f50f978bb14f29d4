//! Tests of the column model: sizes against closed forms worked out by hand, projected models
//! against the published counts, the torus, decoding and names.

use super::*;
use crate::board::{check_placement, is_solution};
use crate::cnf::CountingSink;
use crate::encode::cells::tests::{binom, reference_clauses};
use std::collections::HashSet;
use varisat::{ExtendFormula, Solver};

/// The published numbers of solutions for n = 1..10.
const COUNTS: [usize; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

fn opts(domain: Domain, constraints: Constraints, amo: Amo) -> ColumnOptions {
    ColumnOptions {
        domain,
        constraints,
        amo,
    }
}

/// Every valid combination of the catalogues: each domain with each constraint encoding that
/// accepts it, and with every at-most-one where the domain uses one.
fn combos() -> Vec<ColumnOptions> {
    let mut v = Vec::new();
    for constraints in Constraints::all() {
        for domain in Domain::all() {
            if !constraints.accepts(domain) {
                continue;
            }
            if domain.encoding().uses_amo() {
                v.extend(
                    Amo::all()
                        .into_iter()
                        .map(|amo| opts(domain, constraints, amo)),
                );
            } else {
                v.push(opts(domain, constraints, Amo::PAIRWISE));
            }
        }
    }
    v
}

fn enc(n: usize, o: ColumnOptions) -> ColumnEncoder {
    ColumnEncoder::new(n, o).unwrap()
}

/// Counts per announced group, and in total.
#[derive(Default)]
struct GroupCounter {
    total: CountingSink,
    groups: Vec<(String, u64, u64)>,
}

impl ClauseSink for GroupCounter {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        let g = self.groups.last_mut().expect("clause before any group");
        g.1 += 1;
        g.2 += clause.len() as u64;
        self.total.add_clause(clause)
    }
    fn begin_group(&mut self, group: &GroupInfo) -> io::Result<()> {
        self.groups.push((group.tag.clone(), 0, 0));
        Ok(())
    }
}

#[test]
fn emitted_sizes_equal_size_and_groups() {
    let cases = [(Geometry::Square, 60), (Geometry::Toroidal, 40)];
    for (o, (geometry, max)) in combos().into_iter().flat_map(|o| cases.map(|c| (o, c))) {
        for n in 1..=max {
            let e = ColumnEncoder::new_on(n, o, geometry).unwrap();
            assert_eq!(e.geometry(), geometry);
            let mut count = GroupCounter::default();
            e.encode(&mut count).unwrap();
            let size = e.size();
            assert_eq!(count.total.clauses, size.clauses, "{o} n={n}");
            assert_eq!(count.total.literals, size.literals, "{o} n={n}");
            assert_eq!(count.total.max_var, size.vars, "{o} n={n}");
            let groups: Vec<(String, u64, u64)> = e
                .groups()
                .into_iter()
                .map(|g| (g.tag.to_string(), g.clauses, g.literals))
                .collect();
            assert_eq!(count.groups, groups, "{o} n={n}");
            let tags: Vec<&str> = groups.iter().map(|g| g.0.as_str()).collect();
            // The tags and variables worked out by hand for the first domains of the
            // catalogue; every domain's auxiliaries are its at-most-one's, if it uses one.
            let expected = match (o.domain.name(), o.constraints.name()) {
                ("direct", "conflict") => Some((&["D1", "D2", "C1", "C2", "C3"][..], n)),
                ("direct", "support") => Some((&["D1", "D2", "S"][..], n)),
                ("order", "conflict") => Some((&["D1", "C1", "C2", "C3"][..], n - 1)),
                ("log", "conflict") => Some((
                    &["D1", "C1", "C2", "C3"][..],
                    crate::encode::amo::bits_for(n),
                )),
                _ => None,
            };
            if let Some((expected_tags, per_row)) = expected {
                assert_eq!(tags, expected_tags);
                assert_eq!(e.primary_vars(), (n * per_row) as u64);
            }
            let mut aux = if o.domain.encoding().uses_amo() {
                n as u64 * o.amo.size(n).vars
            } else {
                0
            };
            // The constraint encodings that take auxiliaries (hall) declare them per group.
            aux += o
                .constraints
                .encoding()
                .groups(n, geometry, o.domain.encoding())
                .unwrap()
                .iter()
                .map(|g| g.vars)
                .sum::<u64>();
            assert_eq!(size.vars, e.primary_vars() + aux, "{o} n={n}");
        }
    }
}

/// Direct + conflict + pairwise is the cell model's reference formula, clause for clause
/// in number: the conflicts of C1, C2, C3 are the pairwise at-most-one of the columns and
/// diagonals, D1 and D2 the rows.
#[test]
fn direct_pairwise_conflict_is_the_reference_size() {
    for n in 1..=60u64 {
        let e = enc(n as usize, ColumnOptions::default());
        let s = e.size();
        let clauses = reference_clauses(n);
        assert_eq!(s.clauses, clauses, "n={n}");
        assert_eq!(s.literals, n * n + 2 * (clauses - n), "n={n}");
        assert_eq!(s.vars, n * n);
    }
    assert_eq!(enc(8, ColumnOptions::default()).size().clauses, 736);
}

/// Direct + conflict + pairwise emits the very clauses of the cell model's reference
/// formula (same variable numbers), as sets of literals.
#[test]
fn direct_pairwise_conflict_has_the_reference_clauses() {
    use crate::cnf::Cnf;
    use crate::encode::{EncodeOptions, QueensEncoder};
    let sorted = |f: &Cnf| {
        let mut v: Vec<Vec<Lit>> = f
            .iter()
            .map(|c| {
                let mut c = c.to_vec();
                c.sort();
                c
            })
            .collect();
        v.sort();
        v
    };
    for n in 1..=12 {
        let mut ours = Cnf::new();
        enc(n, ColumnOptions::default()).encode(&mut ours).unwrap();
        let mut cells = Cnf::new();
        QueensEncoder::new(n, EncodeOptions::default())
            .unwrap()
            .encode(&mut cells)
            .unwrap();
        assert_eq!(sorted(&ours), sorted(&cells), "n={n}");
    }
}

/// Order: hand-expanded polynomials. Clauses: n(n-2) ladder + n C(n,2) + 2 S2 with
/// S2 = (n-1)n(2n-1)/6, i.e. (7n^3 - 3n^2 - 10n)/6; literals: a value costs one literal at
/// either end of the board and two inside, giving (14n^3 - 24n^2 + 4n)/3 (n >= 2).
#[test]
fn order_conflict_closed_form() {
    let o = opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE);
    assert_eq!(
        enc(1, o).size(),
        Size {
            vars: 0,
            clauses: 0,
            literals: 0
        }
    );
    for n in 2..=200u64 {
        let s = enc(n as usize, o).size();
        assert_eq!(s.vars, n * (n - 1), "n={n}");
        assert_eq!(s.clauses, (7 * n * n * n - 3 * n * n - 10 * n) / 6, "n={n}");
        assert_eq!(
            s.literals,
            (14 * n * n * n - 24 * n * n + 4 * n) / 3,
            "n={n}"
        );
    }
    // n = 4 by hand: ladder 4 * 2 = 8; C1 6 row pairs * 4 = 24; C2 = C3 = 1 + 4 + 9 = 14.
    // Literals: ladder 16; C1: per row pair values 1,2,2,1 twice = 12, * 6 = 72;
    // C2 and C3: distance 1 (3 pairs) 10, distance 2 (2 pairs) 6, distance 3 (1 pair) 2,
    // so 3*10 + 2*6 + 2 = 44 each.
    let s = enc(4, o).size();
    assert_eq!((s.vars, s.clauses, s.literals), (12, 60, 16 + 72 + 88));
}

/// Log: the conflicts are the reference formula without its row clauses, 2k literals each,
/// plus n (2^k - n) excluded patterns of k literals.
#[test]
fn log_conflict_closed_form() {
    let o = opts(Domain::LOG, Constraints::CONFLICT, Amo::PAIRWISE);
    for n in 1..=200u64 {
        let k = (0..).find(|&k| 1u64 << k >= n).unwrap();
        let conflicts = reference_clauses(n) - n - n * binom(n, 2);
        let excluded = n * ((1 << k) - n);
        let s = enc(n as usize, o).size();
        assert_eq!(s.vars, n * k, "n={n}");
        assert_eq!(s.clauses, excluded + conflicts, "n={n}");
        assert_eq!(s.literals, k * excluded + 2 * k * conflicts, "n={n}");
    }
    // n = 5 by hand: k = 3, 3 excluded patterns per row; C1 5*10 = 50, C2 = C3 = 30.
    let s = enc(5, o).size();
    assert_eq!((s.vars, s.clauses, s.literals), (15, 125, 45 + 110 * 6));
}

/// Support with pairwise rows: n + n C(n,2) domain clauses, n^2 (n-1) support clauses;
/// value a at row distance d has n - 1 - [a >= d] - [a + d < n] supports, which sums to
/// n^3 (n-1) - 2n(n-1)(2n-1)/3 support literals.
#[test]
fn support_closed_form() {
    let o = opts(Domain::DIRECT, Constraints::SUPPORT, Amo::PAIRWISE);
    for n in 1..=200u64 {
        let s = enc(n as usize, o).size();
        let support_lits = n * n * n * (n - 1) - 2 * n * (n - 1) * (2 * n - 1) / 3;
        assert_eq!(s.vars, n * n);
        assert_eq!(s.clauses, n + n * binom(n, 2) + n * n * (n - 1), "n={n}");
        assert_eq!(s.literals, n * n + n * n * (n - 1) + support_lits, "n={n}");
    }
    // n = 4, distance 1: supports 2, 1, 1, 2 -> 10 literals per ordered pair (4 clauses);
    // distance 2: 2, 2, 2, 2 -> 12; distance 3: 3, 2, 2, 3 -> 14.
    // Ordered pairs: 6, 4, 2 -> 60 + 48 + 28 = 136.
    let s = enc(4, o).size();
    assert_eq!(s.literals - 16 - 48, 136);
}

fn torus(n: usize, o: ColumnOptions) -> ColumnEncoder {
    ColumnEncoder::new_on(n, o, Geometry::Toroidal).unwrap()
}

/// On the torus every value has one conflict per row and diagonal direction: C2 and C3
/// are the size of C1; supports by hand for n = 4 and 5.
#[test]
fn torus_closed_forms() {
    for o in combos() {
        for n in 1..=40 {
            let g = torus(n, o).groups();
            let sq = enc(n, o).groups();
            if o.constraints == Constraints::CONFLICT {
                let c1 = g.iter().find(|g| g.tag == "C1").unwrap();
                assert_eq!(c1, sq.iter().find(|g| g.tag == "C1").unwrap());
                for tag in ["C2", "C3"] {
                    let c = g.iter().find(|g| g.tag == tag).unwrap();
                    assert_eq!(
                        (c.clauses, c.literals),
                        (c1.clauses, c1.literals),
                        "{o} n={n}"
                    );
                }
            }
            // The domain's groups do not depend on the geometry; nor do the variables, but for
            // the auxiliaries of a constraint encoding's groups (hall), which count the
            // torus's intervals.
            assert_eq!(g[0], sq[0]);
            let constraint_aux = |geometry| -> u64 {
                o.constraints
                    .encoding()
                    .groups(n, geometry, o.domain.encoding())
                    .unwrap()
                    .iter()
                    .map(|g| g.vars)
                    .sum()
            };
            assert_eq!(
                torus(n, o).size().vars - constraint_aux(Geometry::Toroidal),
                enc(n, o).size().vars - constraint_aux(Geometry::Square)
            );
        }
    }
    let o = opts(Domain::DIRECT, Constraints::SUPPORT, Amo::PAIRWISE);
    let support = |n| {
        let e = torus(n, o);
        e.groups().into_iter().find(|g| g.tag == "S").unwrap()
    };
    // n = 4: distance 1 and 3 exclude 3 values (1 support), distance 2 excludes 2
    // (a - 2 = a + 2 mod 4; 2 supports). Ordered pairs 6, 4, 2 of 4 clauses each:
    // 4 (6 * 2 + 4 * 3 + 2 * 2) = 112 literals.
    assert_eq!((support(4).clauses, support(4).literals), (48, 112));
    // n = 5: 2 supports everywhere: 5 * 20 clauses of 3 literals.
    assert_eq!((support(5).clauses, support(5).literals), (100, 300));
    // n = 2: no supports, unit clauses.
    assert_eq!((support(2).clauses, support(2).literals), (4, 4));
}

#[test]
fn torus_projected_models_are_the_brute_force_solutions() {
    use crate::encode::torus_oracle::{brute_force_torus, enumerate_boards, A051906};
    for n in 1..=9 {
        let expected = brute_force_torus(n);
        assert_eq!(expected.len(), A051906[n - 1], "brute force, n={n}");
        for o in combos() {
            let e = torus(n, o);
            let found = enumerate_boards(solver_for(&e), e.size().vars, &e.projection(), |a| {
                e.decode(a).unwrap()
            });
            assert_eq!(found, expected, "{o} n={n}");
        }
    }
}

#[test]
fn torus_counts_are_a051906() {
    use crate::encode::torus_oracle::{enumerate_boards, A051906};
    for n in 1..=9 {
        let e = torus(n, ColumnOptions::default());
        let found = enumerate_boards(solver_for(&e), e.size().vars, &e.projection(), |a| {
            e.decode(a).unwrap()
        });
        assert_eq!(found.len(), A051906[n - 1], "n={n}");
    }
}

/// Every placement of n <= 5 on the torus, fixed through `value_lits` as assumptions:
/// satisfiable exactly when it is a toroidal solution.
#[test]
fn torus_every_placement_sat_iff_solution() {
    use crate::board::check_placement_on;
    for o in combos() {
        for n in 1..=5usize {
            let e = torus(n, o);
            let mut solver = solver_for(&e);
            for code in 0..n.pow(n as u32) {
                let cols: Vec<usize> = (0..n).map(|r| code / n.pow(r as u32) % n).collect();
                let p = Placement::from_cols(&cols);
                let assumptions: Vec<Lit> = (0..n).flat_map(|r| e.value_lits(r, cols[r])).collect();
                solver.assume(&assumptions);
                let ok = check_placement_on(&p, Geometry::Toroidal).is_ok();
                assert_eq!(solver.solve().unwrap(), ok, "{o} {}", p.to_one_line());
            }
        }
    }
}

#[test]
fn torus_comment_lines() {
    let o = opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE);
    let c = torus(5, o).comment_lines();
    assert!(c.iter().any(|l| l.starts_with("board: toroidal")), "{c:#?}");
    // C2 = C3 = C1 = 5 * 10.
    assert!(c.iter().any(|l| l.starts_with("group C2:")
        && l.contains("(mod n)")
        && l.ends_with("(50 clauses)")));
    let square = enc(5, o);
    assert!(!square
        .comment_lines()
        .iter()
        .any(|l| l.contains("toroidal")));
    let back = torus(5, o).with_geometry(Geometry::Square).unwrap();
    assert_eq!(back.comment_lines(), square.comment_lines());
    let t = square.with_geometry(Geometry::Toroidal).unwrap();
    assert_eq!(t.geometry(), Geometry::Toroidal);
    // Variable names do not depend on the geometry.
    for i in 0..t.size().vars as usize {
        assert_eq!(
            t.var_name(Var::from_index(i)),
            back.var_name(Var::from_index(i))
        );
    }
}

/// A solver holding the formula and the variables of the projection.
fn solver_for(e: &ColumnEncoder) -> Solver<'static> {
    let mut solver = Solver::new();
    e.encode(&mut solver).unwrap();
    solver
}

fn assignment_of(model: &[Lit], vars: u64) -> Vec<bool> {
    let mut a = vec![false; vars as usize];
    for l in model {
        if l.index() < a.len() {
            a[l.index()] = l.is_positive();
        }
    }
    a
}

/// All solutions by enumerating the models projected onto `projection()`.
fn enumerate(e: &ColumnEncoder) -> Vec<Placement> {
    let mut solver = solver_for(e);
    let proj = e.projection();
    let mut found = Vec::new();
    while solver.solve().unwrap() {
        let a = assignment_of(&solver.model().unwrap(), e.size().vars);
        let p = e.decode(&a).unwrap();
        check_placement(&p).unwrap_or_else(|v| panic!("{}: {v}", e.options()));
        found.push(p);
        let block: Vec<Lit> = proj.iter().map(|&v| v.lit(!a[v.index()])).collect();
        if block.is_empty() {
            break; // nothing to project on (n = 1, order or log): one model
        }
        ExtendFormula::add_clause(&mut solver, &block);
    }
    found
}

#[test]
fn projected_models_are_the_solutions() {
    for o in combos() {
        for n in 1..=8 {
            let e = enc(n, o);
            let found = enumerate(&e);
            assert_eq!(found.len(), COUNTS[n - 1], "{o} n={n}");
            let distinct: HashSet<_> = found.iter().cloned().collect();
            assert_eq!(distinct.len(), found.len(), "{o} n={n}");
        }
    }
}

#[test]
fn projected_models_n9_n10() {
    for o in [
        ColumnOptions::default(),
        opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE),
        opts(Domain::LOG, Constraints::CONFLICT, Amo::PAIRWISE),
        opts(Domain::DIRECT, Constraints::SUPPORT, Amo::SEQUENTIAL),
    ] {
        for n in [9, 10] {
            assert_eq!(enumerate(&enc(n, o)).len(), COUNTS[n - 1], "{o} n={n}");
        }
    }
}

/// Fixing a solution's values as unit clauses leaves a satisfiable formula that decodes to
/// that solution.
#[test]
fn value_lits_round_trip() {
    for o in combos() {
        for n in 1..=8 {
            let e = enc(n, o);
            let mut seen = 0;
            for sol in crate::board::solutions(n) {
                let mut solver = solver_for(&e);
                for r in 0..n {
                    for l in e.value_lits(r, sol.col(r)) {
                        ExtendFormula::add_clause(&mut solver, &[l]);
                    }
                }
                assert!(solver.solve().unwrap(), "{o} {}", sol.to_one_line());
                let a = assignment_of(&solver.model().unwrap(), e.size().vars);
                assert_eq!(e.decode(&a).unwrap(), sol, "{o}");
                seen += 1;
            }
            assert_eq!(seen, COUNTS[n - 1]);
        }
    }
}

/// Every placement of n <= 5, fixed through `value_lits` as assumptions: satisfiable
/// exactly when it is a solution.
#[test]
fn every_placement_sat_iff_solution() {
    for o in combos() {
        for n in 1..=5usize {
            let e = enc(n, o);
            let mut solver = solver_for(&e);
            let mut sat = 0;
            for code in 0..n.pow(n as u32) {
                let cols: Vec<usize> = (0..n).map(|r| code / n.pow(r as u32) % n).collect();
                let p = Placement::from_cols(&cols);
                let assumptions: Vec<Lit> = (0..n).flat_map(|r| e.value_lits(r, cols[r])).collect();
                solver.assume(&assumptions);
                let s = solver.solve().unwrap();
                assert_eq!(s, is_solution(&p), "{o} {}", p.to_one_line());
                sat += s as usize;
            }
            assert_eq!(sat, COUNTS[n - 1], "{o} n={n}");
        }
    }
}

/// The assignment that sets exactly the given DIMACS variables.
fn set(vars: &[usize]) -> Vec<bool> {
    let mut a = vec![false; 64];
    for &v in vars {
        a[v - 1] = true;
    }
    a
}

#[test]
fn decode_errors_name_the_row() {
    // Direct, n = 4: x(r,c) = 4(r-1) + c. Solution 2 4 1 3 = vars 2, 8, 9, 15.
    let d = enc(4, ColumnOptions::default());
    assert_eq!(
        d.decode(&set(&[2, 8, 9, 15])).unwrap().to_one_line(),
        "2 4 1 3"
    );
    let err = d.decode(&set(&[2, 9, 15])).unwrap_err();
    assert_eq!(err, ColumnDecodeError::NoValue { row: 1 });
    assert!(err.to_string().starts_with("row 2:"), "{err}");
    let err = d.decode(&set(&[2, 8, 9, 10, 12, 15])).unwrap_err();
    assert_eq!(
        err,
        ColumnDecodeError::TwoValues {
            row: 2,
            first: 0,
            second: 1
        }
    );
    assert_eq!(err.to_string(), "row 3: two columns, 1 and 2");
    // A shorter assignment reads as false.
    assert_eq!(
        d.decode(&[false, true]).unwrap_err(),
        ColumnDecodeError::NoValue { row: 1 }
    );

    // Order, n = 4: [x(r) >= c] = 3(r-1) + c - 1 for c = 2..4 (1-based columns).
    let o = enc(4, opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE));
    // 2 4 1 3: row 1 {1}, row 2 {4,5,6}, row 3 {}, row 4 {10,11}.
    assert_eq!(
        o.decode(&set(&[1, 4, 5, 6, 10, 11])).unwrap().to_one_line(),
        "2 4 1 3"
    );
    // Row 4 with [x(4) >= 3] but not [x(4) >= 2].
    let err = o.decode(&set(&[1, 4, 5, 6, 11])).unwrap_err();
    assert_eq!(err, ColumnDecodeError::BrokenLadder { row: 3, value: 1 });
    assert_eq!(
        err.to_string(),
        "row 4: inconsistent ladder, [x(4) >= 3] is true but [x(4) >= 2] is false"
    );

    // Log, n = 5: k = 3, bit b of row r = 3(r-1) + b + 1. Row 2 = 0b111 = 7 >= 5.
    let l = enc(5, opts(Domain::LOG, Constraints::CONFLICT, Amo::PAIRWISE));
    let err = l.decode(&set(&[4, 5, 6])).unwrap_err();
    assert_eq!(
        err,
        ColumnDecodeError::OutOfRange {
            row: 1,
            value: 7,
            n: 5
        }
    );
    assert_eq!(
        err.to_string(),
        "row 2: the bits spell column 8, outside 1..5"
    );
    // 1 3 5 2 4 = 0-based 0 2 4 1 3: bits row 2 {2nd bit} = var 5, row 3 {3rd} = 9,
    // row 4 {1st} = 10, row 5 {1st, 2nd} = 13, 14.
    assert_eq!(
        l.decode(&set(&[5, 9, 10, 13, 14])).unwrap().to_one_line(),
        "1 3 5 2 4"
    );
}

/// Names and meanings by hand from the numbering rules.
#[test]
fn var_names_by_hand() {
    let v = |k: usize| Var::from_dimacs(k as isize);
    let d = enc(4, ColumnOptions::default());
    assert_eq!(d.var_name(v(7)), "x(2)=3");
    assert_eq!(d.var_meaning(v(7)), "the queen of row 2 is in column 3");
    assert_eq!(d.var_name(v(16)), "x(4)=4");
    assert_eq!(d.var_name(v(17)), "v17?");

    // Sequential at-most-one over 4 values: 3 auxiliaries per row, 17..28.
    let s = enc(
        4,
        opts(Domain::DIRECT, Constraints::CONFLICT, Amo::SEQUENTIAL),
    );
    assert_eq!(s.var_name(v(17)), "s(x(1), 1)");
    assert_eq!(s.var_name(v(22)), "s(x(2), 3)");
    assert_eq!(s.var_name(v(28)), "s(x(4), 3)");
    assert_eq!(
        s.var_meaning(v(22)),
        "auxiliary 3 of the sequential at-most-one of row 2's columns"
    );
    assert_eq!(s.var_name(v(29)), "v29?");

    let o = enc(4, opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE));
    assert_eq!(o.var_name(v(1)), "[x(1) >= 2]");
    assert_eq!(o.var_name(v(3)), "[x(1) >= 4]");
    assert_eq!(o.var_name(v(4)), "[x(2) >= 2]");
    assert_eq!(
        o.var_meaning(v(4)),
        "the queen of row 2 is in column 2 or further right"
    );
    assert_eq!(o.var_name(v(13)), "v13?");
    let o6 = enc(6, opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE));
    assert_eq!(o6.var_name(v(7)), "[x(2) >= 3]");

    let l = enc(5, opts(Domain::LOG, Constraints::CONFLICT, Amo::PAIRWISE));
    assert_eq!(l.var_name(v(1)), "x(1).bit0");
    assert_eq!(l.var_name(v(5)), "x(2).bit1");
    assert_eq!(
        l.var_meaning(v(5)),
        "bit 1 (weight 2) of the 0-based column of row 2's queen"
    );
    assert_eq!(l.var_name(v(15)), "x(5).bit2");
    assert_eq!(l.var_name(v(16)), "v16?");
}

#[test]
fn every_variable_has_a_distinct_name() {
    for o in combos() {
        for n in 1..=9 {
            let e = enc(n, o);
            let names: HashSet<String> = (0..e.size().vars as usize)
                .map(|i| e.var_name(Var::from_index(i)))
                .collect();
            assert_eq!(names.len() as u64, e.size().vars, "{o} n={n}");
            assert!(names.iter().all(|s| !s.ends_with('?')), "{o} n={n}");
        }
    }
}

#[test]
fn value_lits_by_hand() {
    let p = |k: isize| Lit::from_dimacs(k);
    let o = enc(4, opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE));
    // Row 2: vars 4, 5, 6 = [x >= 2], [x >= 3], [x >= 4].
    assert_eq!(o.value_lits(1, 0), [p(-4)]);
    assert_eq!(o.value_lits(1, 1), [p(4), p(-5)]);
    assert_eq!(o.value_lits(1, 3), [p(6)]);
    let l = enc(5, opts(Domain::LOG, Constraints::CONFLICT, Amo::PAIRWISE));
    assert_eq!(l.value_lits(1, 3), [p(4), p(5), p(-6)]);
    assert_eq!(enc(4, ColumnOptions::default()).value_lits(2, 1), [p(10)]);
    assert!(
        enc(1, opts(Domain::LOG, Constraints::CONFLICT, Amo::PAIRWISE))
            .value_lits(0, 0)
            .is_empty()
    );
}

#[test]
fn comment_lines_list_variables_and_groups() {
    let e = enc(6, opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE));
    let c = e.comment_lines();
    assert!(c.iter().any(|l| l == "var 7 = [x(2) >= 3]"), "{c:#?}");
    assert_eq!(c.iter().filter(|l| l.starts_with("var ")).count(), 30);
    // Ladder 6 * 4 = 24; C1 6 * 15 = 90; C2 = C3 = 1 + 4 + 9 + 16 + 25 = 55.
    for g in [
        "group D1: ladder: [x(r) >= c+1] implies [x(r) >= c] (24 clauses)",
        "group C1: the queens of two rows are in different columns: x(r) != x(s) (90 clauses)",
    ] {
        assert!(c.iter().any(|l| l == g), "{g} in {c:#?}");
    }
    assert!(c
        .iter()
        .any(|l| l.starts_with("group C3:") && l.ends_with("(55 clauses)")));
    let s = enc(
        4,
        opts(Domain::DIRECT, Constraints::SUPPORT, Amo::SEQUENTIAL),
    );
    let c = s.comment_lines();
    assert!(c.iter().any(|l| l == "var 6 = x(2)=2"));
    assert!(c.iter().any(
        |l| l == "aux 20..22 = sequential at-most-one of row 2's columns; named s(x(2), 1..3)"
    ));
    assert!(c
        .iter()
        .any(|l| l.starts_with("group S:") && l.ends_with("(48 clauses)")));
    let big = enc(11, ColumnOptions::default()).comment_lines();
    assert!(!big.iter().any(|l| l.starts_with("var ")));
}

#[test]
fn options_parse_display_and_errors() {
    for d in Domain::all() {
        assert_eq!(d.to_string().parse::<Domain>(), Ok(d));
    }
    for c in Constraints::all() {
        assert_eq!(c.to_string().parse::<Constraints>(), Ok(c));
    }
    assert_eq!(Domain::names()[..3], ["direct", "order", "log"]);
    let err = "binary".parse::<Domain>().unwrap_err();
    assert!(err.to_string().contains("direct, order, log"), "{err}");
    let err = "clauses".parse::<Constraints>().unwrap_err();
    assert!(err.to_string().contains("conflict, support"), "{err}");
    assert_eq!(
        ColumnOptions::default(),
        opts(Domain::DIRECT, Constraints::CONFLICT, Amo::PAIRWISE)
    );

    assert_eq!(
        ColumnEncoder::new(0, ColumnOptions::default()).unwrap_err(),
        EncodeError::Zero
    );
    for domain in [Domain::ORDER, Domain::LOG] {
        let err =
            ColumnEncoder::new(5, opts(domain, Constraints::SUPPORT, Amo::PAIRWISE)).unwrap_err();
        assert!(
            err.to_string().starts_with(&format!("the support encoding needs the direct domain, not {domain} (valid: support with direct; conflict with direct, order")),
            "{err}"
        );
    }
    // varisat numbers at most 2^28 variables: order with n = 16384 has 16384 * 16383 of
    // them (fits), n = 16385 one row's worth more (does not).
    let order = opts(Domain::ORDER, Constraints::CONFLICT, Amo::PAIRWISE);
    assert!(ColumnEncoder::new(16384, order).is_ok());
    assert!(matches!(
        ColumnEncoder::new(16385, order),
        Err(EncodeError::TooManyVars {
            vars: 268_451_840,
            ..
        })
    ));
    assert!(matches!(
        ColumnEncoder::new(1 << 20, ColumnOptions::default()),
        Err(EncodeError::TooManyVars { .. })
    ));
    // Log with n = 2^22: 22 * 2^22 variables fit, but C1 alone has n C(n,2) > 2^64 clauses.
    let log = opts(Domain::LOG, Constraints::CONFLICT, Amo::PAIRWISE);
    assert_eq!(
        ColumnEncoder::new(1 << 22, log).unwrap_err(),
        EncodeError::SizeOverflow {
            n: 1 << 22,
            model: "log/conflict column model".into()
        }
    );
}
