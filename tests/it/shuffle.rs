//! Shuffled copies (`compare --shuffle K`, `queens_sat::experiment::shuffle`) are the same
//! formula renamed: Ganak counts the same models in a copy and in the original (projected onto
//! the renamed projection: the published table), every model of a copy maps back to a solution,
//! and the copies a sweep solves are distinct files with the answers of the original.

use crate::common::{ganak_counts, published_total, require, run, stderr, stdout, CsvTable};
use queens_sat::cnf::{ClauseSink, Counting, DimacsHeader, DimacsWriter, Lit};
use queens_sat::encode::{Amo, EncodeOptions, LineEncodings};
use queens_sat::experiment::shuffle::Shuffle;
use queens_sat::instance::{to_labelled_cnf, Formula, Instance, Model};
use queens_sat::solve::{verify_assignment, Assignment};
use std::collections::BTreeSet;

fn model(amo: Amo) -> Model {
    Model::cells(EncodeOptions {
        amo: LineEncodings::uniform(amo),
        column_alo: false,
    })
}

fn clauses(inst: &Instance) -> Vec<Vec<Lit>> {
    to_labelled_cnf(inst)
        .cnf
        .iter()
        .map(<[Lit]>::to_vec)
        .collect()
}

#[test]
fn every_model_of_a_copy_maps_back_to_a_solution() {
    for (n, amo, seed) in [
        (6, Amo::PAIRWISE, 1),
        (8, Amo::PAIRWISE, 2),
        (8, Amo::SEQUENTIAL, 3),
    ] {
        let inst = Instance::new(n, model(amo)).unwrap();
        let vars = inst.num_vars() as usize;
        let sh = Shuffle::new(vars, seed);
        let copy = sh.apply(&clauses(&inst));
        assert_eq!(copy.len(), clauses(&inst).len());
        // Enumerate the copy's models on the renamed projection with the embedded solver.
        let proj: Vec<Lit> = inst
            .projection()
            .iter()
            .map(|&v| sh.lit(Lit::from_var(v, true)))
            .collect();
        let mut solver = varisat::Solver::new();
        for c in &copy {
            solver.add_clause(c).unwrap();
        }
        let mut boards = BTreeSet::new();
        while solver.solve().unwrap() {
            let m = solver.model().unwrap();
            let a = Assignment::from_lits(&m);
            let back = sh.restore(&a);
            let report = verify_assignment(&inst, &back).unwrap();
            assert!(report.board.is_ok() && report.cnf.is_ok(), "n = {n}");
            let values: Vec<bool> = (0..vars)
                .map(|v| {
                    back.value(queens_sat::cnf::Var::from_index(v))
                        .unwrap_or(false)
                })
                .collect();
            boards.insert(inst.decode(&values).unwrap().to_one_line());
            // Block this board on the renamed projection.
            let block: Vec<Lit> = proj
                .iter()
                .map(|&l| {
                    if a.value(l.var()) == Some(l.is_positive()) {
                        !l
                    } else {
                        l
                    }
                })
                .collect();
            solver.add_clause(&block).unwrap();
        }
        assert_eq!(boards.len() as u64, published_total(n), "n = {n}");
    }
}

#[test]
fn ganak_counts_the_same_models_in_a_copy() {
    if !require("pyganak") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    // Ganak takes a second or more per file from n = 7 on: small boards, one of each kind.
    for (n, amo) in [
        (6, Amo::PAIRWISE),
        (6, Amo::SEQUENTIAL),
        (7, Amo::COMMANDER),
    ] {
        let inst = Instance::new(n, model(amo)).unwrap();
        let vars = inst.num_vars();
        let original = clauses(&inst);
        for seed in [0u64, 11, 12] {
            // Seed 0 stands for the original (no renaming).
            let (cnf, show): (Vec<Vec<Lit>>, Vec<_>) = if seed == 0 {
                (original.clone(), inst.projection())
            } else {
                let sh = Shuffle::new(vars as usize, seed);
                let show = inst
                    .projection()
                    .iter()
                    .map(|&v| sh.lit(Lit::from_var(v, true)).var())
                    .collect();
                (sh.apply(&original), show)
            };
            let header = DimacsHeader {
                comments: vec![],
                vars,
                clauses: cnf.len() as u64,
                counting: Some(Counting::Pmc(show)),
            };
            let path = dir.path().join(format!("q{n}-{amo}-{seed}.cnf"));
            let file = std::fs::File::create(&path).unwrap();
            let mut w = DimacsWriter::new(file, &header).unwrap();
            for c in &cnf {
                w.add_clause(c).unwrap();
            }
            w.finish().unwrap();
            files.push((n, path));
        }
    }
    let paths: Vec<std::path::PathBuf> = files.iter().map(|f| f.1.clone()).collect();
    let by_file = ganak_counts(&paths, true);
    let counts: Vec<(u128, u128)> = paths
        .iter()
        .map(|p| (by_file[p].1, by_file[p].2.expect("asked for")))
        .collect();
    assert_eq!(counts.len(), files.len());
    for (i, (n, _)) in files.iter().enumerate() {
        assert_eq!(
            counts[i].0,
            published_total(*n) as u128,
            "{}",
            files[i].1.display()
        );
        // The unprojected count is the original's in every copy of the same formula.
        assert_eq!(counts[i].1, counts[i - i % 3].1, "{}", files[i].1.display());
    }
}

#[test]
fn a_sweep_solves_distinct_copies_with_the_original_answers() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("s.csv");
    let o = run(&[
        "compare",
        "--n",
        "3,8",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "varisat",
        "--repeat",
        "1",
        "--shuffle",
        "3",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = CsvTable::read(&csv_path);
    let (col, rows) = (|name: &str| table.col(name), table.rows.as_slice());
    assert_eq!(rows.len(), 2 * 2 * 3);
    let mut hashes = BTreeSet::new();
    for r in rows {
        let n: usize = r[col("n")].parse().unwrap();
        assert_eq!(
            &r[col("status")],
            if n == 3 { "UNSAT" } else { "SAT" },
            "{r:?}"
        );
        assert!(["1", "2", "3"].contains(&&r[col("shuffle")]), "{r:?}");
        assert!(
            hashes.insert(r[col("gbd_hash")].to_string()),
            "two copies alike: {r:?}"
        );
    }
    // The copies differ from the formula as encoded.
    let plain = dir.path().join("p.csv");
    let o = run(&[
        "compare",
        "--n",
        "3,8",
        "--amo",
        "pairwise,sequential",
        "--solver",
        "varisat",
        "--repeat",
        "1",
        "--csv",
        plain.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&plain).unwrap();
    for hash in &hashes {
        assert!(!text.contains(hash.as_str()));
    }
    // Out of range.
    for k in ["0", "1001", "x"] {
        let o = run(&["compare", "--n", "6", "--shuffle", k]);
        assert_eq!(o.status.code(), Some(2), "{k}: {}", stdout(&o));
    }
}
