//! The models of the Excluded Diagonals frontier beside the search: `compare`'s incomplete
//! solver `lp` (the linear relaxation of the OPB form) against the relaxation recorded by a
//! program written apart, and the search's answers against CP-SAT on a board model of its own
//! (tests/python/cpsat_board.py).

use crate::common::{python, require, run, stderr, stdout, CsvTable};
use std::collections::HashMap;
use std::path::Path;

/// The feasibility of the n = 30 band's LP relaxations as recorded on 2026-11-28 by a program
/// written apart (its own OPB reader, HiGHS through SciPy): `(D, seed) -> infeasible`.
fn recorded_relaxations() -> HashMap<(u32, u64), bool> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/results/frontier/n30-lp-root.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                (f[1].parse().unwrap(), f[2].parse().unwrap()),
                f[3] == "infeasible",
            )
        })
        .collect()
}

/// Runs `compare` with `args` and one run each into `dir/csv`: the command must succeed.
fn sweep(dir: &Path, csv: &str, args: &[&str]) -> CsvTable {
    let path = dir.join(csv);
    let mut all = vec!["compare", "--repeat", "1", "--amo", "pairwise"];
    all.extend_from_slice(args);
    all.extend(["--csv", path.to_str().unwrap()]);
    let o = run(&all);
    assert_eq!(o.status.code(), Some(0), "{all:?}: {}", stderr(&o));
    CsvTable::read(&path)
}

/// `lp` refutes an instance exactly when its relaxation is infeasible, as the program written
/// apart found for the n = 30 band (D = 28, seeds 1 to 4: two infeasible, two not), and each
/// of its refutations is confirmed by the search; where the relaxation is feasible it answers
/// `UNKNOWN`, which is no failure (exit 0). It never refutes a board that has solutions (the
/// empty boards n = 4..8, by the published table), and in a chain (`lp+search`) the search
/// decides what it leaves.
#[test]
fn lp_refutes_exactly_the_infeasible_relaxations() {
    if !require("scipy") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let recorded = recorded_relaxations();
    let band = sweep(
        dir.path(),
        "band.csv",
        &[
            "--family",
            "excluded-diagonals",
            "--n",
            "30",
            "--param",
            "d=28",
            "--param",
            "min-free=4",
            "--param",
            "compatible=jair",
            "--seeds",
            "1..4",
            "--solver",
            "lp",
        ],
    );
    assert_eq!(band.rows.len(), 4);
    let mut refuted = 0;
    for row in &band.rows {
        let seed: u64 = row[band.col("seed")].parse().unwrap();
        let infeasible = recorded[&(28, seed)];
        let want = if infeasible { "UNSAT" } else { "UNKNOWN" };
        assert_eq!(&row[band.col("status")], want, "seed {seed}: {row:?}");
        assert!(!row[band.col("cpu_s")].is_empty(), "{row:?}");
        if infeasible {
            refuted += 1;
            let file = crate::common::jair_instance(dir.path(), 30, 28, seed);
            let f = file.to_str().unwrap();
            let o = run(&["solve", "--instance", f, "--engine", "search"]);
            assert!(
                stdout(&o).starts_with("no solution"),
                "the search on seed {seed}: {}{}",
                stdout(&o),
                stderr(&o)
            );
        }
    }
    assert!(
        refuted > 0 && refuted < 4,
        "the sample must hold both kinds"
    );

    let boards = sweep(
        dir.path(),
        "boards.csv",
        &["--n", "4,6,8", "--solver", "lp,lp+search"],
    );
    assert_eq!(boards.rows.len(), 6);
    for row in &boards.rows {
        assert!(crate::common::published_total(row[boards.col("n")].parse().unwrap()) > 0);
        match &row[boards.col("solver")] {
            "lp" => assert_eq!(&row[boards.col("status")], "UNKNOWN", "{row:?}"),
            _ => {
                assert_eq!(&row[boards.col("status")], "SAT", "{row:?}");
                assert_eq!(&row[boards.col("decided_by")], "search", "{row:?}");
            }
        }
    }
}

/// The search's answers on Excluded Diagonals instances of the paper's generator (n = 16,
/// D = 12..14, seeds 1..4: both answers occur) are those of CP-SAT on a board model written
/// apart from queens-sat's encoders (tests/python/cpsat_board.py, which reads the instance
/// files' board drawings itself and checks its own solutions).
#[test]
fn the_search_agrees_with_cp_sat_on_a_board_model_written_apart() {
    if !require("ortools") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for d in 12..=14 {
        for seed in 1..=4 {
            files.push(crate::common::jair_instance(dir.path(), 16, d, seed));
        }
    }
    let table = sweep(
        dir.path(),
        "search.csv",
        &[
            "--instance",
            dir.path().to_str().unwrap(),
            "--solver",
            "search",
        ],
    );
    let ours: HashMap<String, String> = table
        .rows
        .iter()
        .map(|r| {
            (
                r[table.col("value")].to_string(),
                r[table.col("status")].to_string(),
            )
        })
        .collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/cpsat_board.py");
    let mut cmd = std::process::Command::new(python());
    cmd.arg(script).args(["--limit", "60"]).args(&files);
    let o = crate::common::output(&mut cmd);
    assert!(o.status.success(), "{}", stderr(&o));
    let theirs = stdout(&o);
    let mut answers = HashMap::new();
    for line in theirs.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let name = Path::new(f[0]).file_name().unwrap().to_string_lossy();
        assert_eq!(ours.get(name.as_ref()), Some(&f[1].to_string()), "{line}");
        *answers.entry(f[1].to_string()).or_insert(0) += 1;
    }
    assert_eq!(answers.values().sum::<usize>(), files.len(), "{theirs}");
    assert!(
        answers.contains_key("SAT") && answers.contains_key("UNSAT"),
        "{answers:?}"
    );
}
