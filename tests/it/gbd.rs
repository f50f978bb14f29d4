//! The Global Benchmark Database identifier of our formulas, computed while encoding
//! (`queens_sat::cnf::GbdHasher`), equals the one gbd-tools (from PyPI) computes from the
//! exported files.

use crate::common::{output, python, require, run, stderr};
use queens_sat::cnf::GbdHasher;
use queens_sat::encode::{Amo, ColumnOptions, Constraints, Domain, EncodeOptions, LineEncodings};
use queens_sat::instance::{encode, Instance, Model};
use std::process::Command;

#[test]
fn gbd_hash_equals_gbd_tools() {
    if !require("gbd-tools") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cells = |amo| {
        Model::cells(EncodeOptions {
            amo: LineEncodings::uniform(amo),
            column_alo: false,
        })
    };
    let log = Model::columns(ColumnOptions {
        domain: Domain::LOG,
        constraints: Constraints::CONFLICT,
        amo: Amo::PAIRWISE,
    });
    let cases: Vec<(Instance, Vec<&str>)> = vec![
        (Instance::new(8, cells(Amo::PAIRWISE)).unwrap(), vec!["8"]),
        (
            Instance::new(10, cells(Amo::SEQUENTIAL)).unwrap(),
            vec!["10", "--amo", "sequential"],
        ),
        (
            Instance::new(7, log)
                .unwrap()
                .with_cells(&[(0, 1)], &[(2, 2)])
                .unwrap(),
            vec![
                "7", "--model", "columns", "--domain", "log", "--place", "1,2", "--forbid", "3,3",
            ],
        ),
        (Instance::new(1, cells(Amo::PAIRWISE)).unwrap(), vec!["1"]),
    ];
    let mut files = Vec::new();
    let mut ours = Vec::new();
    for (i, (inst, args)) in cases.iter().enumerate() {
        let f = dir.path().join(format!("f{i}.cnf"));
        let mut a = vec!["encode"];
        a.extend(args);
        a.extend(["-o", f.to_str().unwrap()]);
        let o = run(&a);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut h = GbdHasher::default();
        encode(inst, &mut h).unwrap();
        ours.push(h.finish());
        files.push(f);
    }
    let out = output(
        Command::new(python())
            .args([
                "-c",
                "import sys\nfrom gbd_core.contexts import identify\nfor p in sys.argv[1:]: print(identify(p))",
            ])
            .args(&files),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(ours, theirs);
    // Different formulas, different identifiers.
    let mut distinct = ours.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), ours.len());
}
