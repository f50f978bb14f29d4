//! Symmetry breaking: lex-leader clauses keep exactly one solution per symmetry class, for
//! every model, on empty boards and on instances; checked against published counts and
//! against orbits computed here from the full solution lists.

use crate::common::{
    is_valid_placement, queens_of_model, require, run, run_external, stderr, stdout, REFERENCE,
};
use queens_sat::cnf::CountingSink;
use queens_sat::encode::{Amo, ColumnOptions, Constraints, Domain, EncodeOptions, LineEncodings};
use queens_sat::instance::{encode, to_labelled_cnf, Formula, Instance, Model};
use queens_sat::solve::{count_solutions, solutions};
use queens_sat::symmetry_breaking::SymmetryBreaking;
use queens_sat::Placement;
use std::collections::BTreeSet;
use std::time::Instant;

fn cells(amo: Amo) -> Model {
    Model::cells(EncodeOptions {
        amo: LineEncodings::uniform(amo),
        ..EncodeOptions::default()
    })
}

fn columns(domain: Domain) -> Model {
    Model::columns(ColumnOptions {
        domain,
        constraints: Constraints::CONFLICT,
        ..ColumnOptions::default()
    })
}

/// Some cell models, and the column model with every domain of the catalogue.
fn models() -> Vec<Model> {
    let mut v = vec![
        cells(Amo::PAIRWISE),
        cells(Amo::SEQUENTIAL),
        cells(Amo::COMMANDER),
        cells(Amo::PRODUCT),
        cells(Amo::BINARY),
    ];
    v.extend(Domain::all().into_iter().map(columns));
    v
}

fn inst(n: usize, model: Model, mode: SymmetryBreaking) -> Instance {
    Instance::new(n, model)
        .unwrap()
        .with_symmetry_breaking(mode)
}

fn all_solutions(i: &Instance) -> Vec<Placement> {
    solutions(i).collect::<Result<_, _>>().unwrap()
}

#[test]
fn lex_leader_counts_the_fundamental_solutions_in_every_model() {
    for model in models() {
        let start = Instant::now();
        for &(n, fundamental, _) in &REFERENCE[..12] {
            let i = inst(n, model, SymmetryBreaking::LexLeader);
            assert_eq!(
                count_solutions(&i).unwrap(),
                fundamental,
                "n = {n}, {model}"
            );
        }
        eprintln!("{model}: n = 1..12 in {:.2?}", start.elapsed());
    }
}

#[test]
fn lex_leader_keeps_the_canonical_solutions() {
    for model in [
        cells(Amo::PAIRWISE),
        columns(Domain::ORDER),
        columns(Domain::LOG),
    ] {
        for n in 1..=9 {
            let all = all_solutions(&inst(n, model, SymmetryBreaking::None));
            let canonical: BTreeSet<Placement> =
                all.iter().map(|p| p.canonical().unwrap()).collect();
            let kept = all_solutions(&inst(n, model, SymmetryBreaking::LexLeader));
            for p in &kept {
                assert_eq!(p.canonical().as_ref(), Some(p), "n = {n}, {model}");
            }
            let kept: BTreeSet<Placement> = kept.into_iter().collect();
            assert_eq!(kept, canonical, "n = {n}, {model}");
        }
    }
}

/// The orbits of `all` under the rotations, from the placements' own rotation methods.
fn rotation_orbits(all: &[Placement]) -> usize {
    all.iter()
        .map(|p| {
            let r1 = p.rotate90().unwrap();
            let r2 = p.rotate180();
            let r3 = p.rotate270().unwrap();
            [p.clone(), r1, r2, r3].into_iter().min().unwrap()
        })
        .collect::<BTreeSet<_>>()
        .len()
}

#[test]
fn rotations_count_the_orbits_under_rotation() {
    for model in [cells(Amo::SEQUENTIAL), columns(Domain::DIRECT)] {
        for n in 1..=10 {
            let all = all_solutions(&inst(n, model, SymmetryBreaking::None));
            let i = inst(n, model, SymmetryBreaking::Rotations);
            assert_eq!(
                count_solutions(&i).unwrap() as usize,
                rotation_orbits(&all),
                "n = {n}, {model}"
            );
        }
    }
}

/// Cell `(r, c)` under the test's own numbering of the 8 symmetries (rotations, then their
/// mirror images).
fn image(k: usize, n: usize, (r, c): (usize, usize)) -> (usize, usize) {
    let mut cell = (r, c);
    for _ in 0..k % 4 {
        cell = (cell.1, n - 1 - cell.0);
    }
    if k >= 4 {
        cell = (cell.0, n - 1 - cell.1);
    }
    cell
}

/// The number of classes of `all` under the symmetries that map the placed cells and the
/// forbidden cells onto themselves, found here.
fn orbits_under_stabilizer(
    n: usize,
    all: &[Placement],
    place: &[(usize, usize)],
    forbid: &[(usize, usize)],
) -> usize {
    let keeps = |k: usize, set: &[(usize, usize)]| {
        let s: BTreeSet<_> = set.iter().copied().collect();
        s.iter().all(|&x| s.contains(&image(k, n, x)))
    };
    let group: Vec<usize> = (0..8)
        .filter(|&k| keeps(k, place) && keeps(k, forbid))
        .collect();
    all.iter()
        .map(|p| {
            group
                .iter()
                .map(|&k| {
                    let mut cols = vec![0; n];
                    for (r, &c) in p.cols().iter().enumerate() {
                        let (r2, c2) = image(k, n, (r, c as usize));
                        cols[r2] = c2;
                    }
                    Placement::from_cols(&cols)
                })
                .min()
                .unwrap()
        })
        .collect::<BTreeSet<_>>()
        .len()
}

#[test]
fn instances_break_their_stabilizer_only() {
    /// n, placed queens, forbidden cells, symmetries broken.
    type Case = (usize, Vec<(usize, usize)>, Vec<(usize, usize)>, usize);
    let cases: Vec<Case> = vec![
        // A queen in the centre of an odd board: all 8 symmetries.
        (7, vec![(3, 3)], vec![], 7),
        (9, vec![(4, 4)], vec![], 7),
        // Two opposite corners forbidden: the half turn and both diagonal reflections.
        (8, vec![], vec![(0, 0), (7, 7)], 3),
        // A pair of cells symmetric under the left-right mirror only.
        (8, vec![], vec![(1, 2), (1, 5)], 1),
        // Four cells in a pinwheel: the rotations only.
        (8, vec![], vec![(0, 1), (1, 7), (7, 6), (6, 0)], 3),
        // No symmetry at all.
        (8, vec![(0, 1)], vec![(3, 3)], 0),
    ];
    for model in [cells(Amo::PAIRWISE), columns(Domain::LOG)] {
        for (n, place, forbid, broken) in &cases {
            let plain = Instance::new(*n, model)
                .unwrap()
                .with_cells(place, forbid)
                .unwrap();
            let all = all_solutions(&plain);
            let sb = plain
                .clone()
                .with_symmetry_breaking(SymmetryBreaking::LexLeader);
            assert_eq!(
                sb.symmetries_broken().len(),
                *broken,
                "{place:?} {forbid:?}"
            );
            let expected = orbits_under_stabilizer(*n, &all, place, forbid);
            assert_eq!(count_solutions(&sb).unwrap() as usize, expected);
            if *broken == 0 {
                assert_eq!(expected, all.len());
                assert_eq!(sb.size(), plain.size(), "no symmetry clauses");
            }
        }
    }
}

#[test]
fn the_auxiliaries_are_determined_by_the_board() {
    use varisat::{ExtendFormula, Solver};
    for model in [
        cells(Amo::PAIRWISE),
        columns(Domain::ORDER),
        columns(Domain::LOG),
    ] {
        for n in [5, 6, 7, 8] {
            let i = inst(n, model, SymmetryBreaking::LexLeader);
            let cnf = to_labelled_cnf(&i);
            for p in all_solutions(&i) {
                let mut s = Solver::new();
                s.add_formula(&cnf.to_varisat());
                let board: Vec<_> = (0..n).flat_map(|r| i.value_lits(r, p.col(r))).collect();
                for l in &board {
                    s.add_clause(&[*l]);
                }
                assert!(s.solve().unwrap());
                let model_lits = s.model().unwrap();
                let block: Vec<_> = model_lits.iter().map(|&l| !l).collect();
                s.add_clause(&block);
                assert!(!s.solve().unwrap(), "n = {n}, {model}: a second model");
            }
        }
    }
}

#[test]
fn sizes_are_exact() {
    for model in models() {
        for n in [1, 4, 7, 8, 12] {
            for mode in SymmetryBreaking::ALL {
                let i = inst(n, model, mode)
                    .with_cells(&[], &[(0, 0), (n - 1, n - 1)])
                    .unwrap();
                let mut c = CountingSink::default();
                encode(&i, &mut c).unwrap();
                let size = i.size();
                assert_eq!(c.clauses, size.clauses, "n = {n}, {model}, {mode}");
                assert_eq!(c.literals, size.literals);
                assert!(c.max_var <= size.vars);
                assert_eq!(i.num_vars(), size.vars);
                if mode.is_on() && n > 1 {
                    assert_eq!(c.max_var, size.vars, "every new variable is used");
                    assert!(i.name().ends_with(&format!("+{mode}")));
                }
            }
        }
    }
}

#[test]
fn variables_are_named() {
    let i = inst(4, cells(Amo::PAIRWISE), SymmetryBreaking::LexLeader);
    let names: Vec<String> = (16..i.num_vars() as usize)
        .map(|k| i.var_name(queens_sat::Var::from_index(k)))
        .collect();
    assert!(names.iter().all(|s| s.starts_with("lex(")), "{names:?}");
    assert!(names.contains(&"lex(rot90,1,1)".to_string()));
    let o = inst(4, columns(Domain::ORDER), SymmetryBreaking::LexLeader);
    let names: Vec<String> = (0..o.num_vars() as usize)
        .map(|k| o.var_name(queens_sat::Var::from_index(k)))
        .collect();
    assert!(names.contains(&"cell(2,3)".to_string()), "{names:?}");
    let header = i.dimacs_header(None).comments.join("\n");
    assert!(header.contains("symmetry breaking: lex-leader"), "{header}");
    assert!(header.contains("rot90"), "{header}");
}

#[test]
fn cli_counts_classes() {
    let o = run(&["solve", "8", "--count", "--symmetry-breaking", "lex-leader"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "12");
    let o = run(&[
        "solve",
        "8",
        "--count",
        "--symmetry-breaking",
        "lex-leader",
        "--split-rows",
        "2",
        "--model",
        "columns",
        "--domain",
        "log",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "12");
    let o = run(&["solve", "8", "--count", "--symmetry-breaking", "rotations"]);
    assert_eq!(stdout(&o).trim(), "24");
}

#[test]
fn cli_rejects_an_unknown_mode() {
    let o = run(&["solve", "8", "--symmetry-breaking", "lexleader"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("lex-leader"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn an_external_solver_finds_a_canonical_board() {
    if !require("cadical") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q8.cnf");
    let o = run(&["encode", "8", "--symmetry-breaking", "lex-leader"]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(&path, &o.stdout).unwrap();
    let model = run_external("cadical", &path).expect("cadical answers");
    let queens = queens_of_model(8, &model);
    assert!(is_valid_placement(8, &queens));
    let mut cols = vec![0; 8];
    for (r, c) in queens {
        cols[r] = c;
    }
    let p = Placement::from_cols(&cols);
    assert_eq!(p.canonical(), Some(p.clone()));
}

#[test]
fn check_compares_lex_leader_with_the_classes() {
    let o = run(&[
        "check", "--n", "8,9", "--amo", "pairwise", "--format", "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let classes: Vec<u64> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["classes"].as_u64().unwrap())
        .collect();
    assert_eq!(classes, vec![12, 46]);
    // An instance: a queen in the centre of the 7 x 7 board, against the classes of its
    // solutions computed by the counter's list.
    let i = Instance::new(7, cells(Amo::PAIRWISE))
        .unwrap()
        .with_cells(&[(3, 3)], &[])
        .unwrap();
    let classes =
        queens_sat::crosscheck::classes_of_instance(&i, SymmetryBreaking::LexLeader.group());
    let sb = i.with_symmetry_breaking(SymmetryBreaking::LexLeader);
    assert_eq!(classes, Some(count_solutions(&sb).unwrap()));
}

#[test]
fn compare_sweeps_with_and_without_symmetry_breaking() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sweep.csv");
    let args = [
        "compare",
        "--n",
        "6,8",
        "--amo",
        "pairwise",
        "--symmetry-breaking",
        "none,lex-leader",
        "--repeat",
        "1",
        "--csv",
        csv.to_str().unwrap(),
    ];
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(text.contains(",pairwise+lex-leader,"), "{text}");
    // Resuming finds every row done.
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
}

#[test]
fn explain_refuses_symmetry_breaking_in_one_line() {
    let o = run(&["explain", "4", "--symmetry-breaking", "lex-leader"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).trim().lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn check_instance_compares_with_the_classes_of_its_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t7.txt");
    let o = run(&["generate", "toroidal", "7", "-o", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[
        "check",
        "--instance",
        file.to_str().unwrap(),
        "--amo",
        "pairwise",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    // The classes of the 28 toroidal solutions under the 8 symmetries of the square (the
    // torus's translations are not broken), computed here.
    let torus = Instance::new_on(
        7,
        cells(Amo::PAIRWISE),
        queens_sat::board::Geometry::Toroidal,
    )
    .unwrap();
    let all = all_solutions(&torus);
    assert_eq!(all.len(), 28);
    let expected = orbits_under_stabilizer(7, &all, &[], &[]) as u64;
    assert_eq!(v["rows"][0]["classes"].as_u64(), Some(expected));
}
