//! The encodings that reason globally, through the real binary: the Hall-interval
//! decomposition of the column model's all-different constraints (`--alldiff hall`) and the
//! redundant constraints (`--redundant`) on every model. Counts against the published table,
//! exports solved by external solvers and verified, bad input refused.

use crate::common::{
    counts_are_published, external_answers_verified, published_total, require, run, stderr, stdout,
    CsvTable,
};

/// Every combination the tests run, as command-line options.
const COMBOS: [&[&str]; 13] = [
    &["--model", "columns", "--alldiff", "hall"],
    &[
        "--model",
        "columns",
        "--alldiff",
        "hall",
        "--domain",
        "coupled",
    ],
    &[
        "--model",
        "columns",
        "--constraints",
        "hall",
        "--domain",
        "order",
    ],
    &["--redundant", "permutation"],
    &[
        "--redundant",
        "permutation,diagonals",
        "--amo",
        "sequential",
    ],
    &[
        "--model",
        "columns",
        "--domain",
        "log",
        "--redundant",
        "diagonals",
    ],
    &[
        "--model",
        "columns",
        "--domain",
        "order",
        "--redundant",
        "permutation,diagonals",
    ],
    &[
        "--model",
        "columns",
        "--alldiff",
        "hall",
        "--redundant",
        "permutation,diagonals",
    ],
    &["--redundant", "sums"],
    &["--redundant", "permutation,diagonals,sums"],
    &[
        "--model",
        "columns",
        "--domain",
        "order",
        "--redundant",
        "sums",
    ],
    &["--redundant", "moments"],
    &[
        "--model",
        "columns",
        "--domain",
        "log",
        "--redundant",
        "diagonals,sums,moments",
    ],
];

#[test]
fn counts_equal_the_published_table() {
    counts_are_published(&COMBOS, 10);
}

#[test]
fn the_header_names_the_new_groups() {
    let o = run(&["encode", "6", "--model", "columns", "--alldiff", "hall"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    for tag in ["H", "C1", "C2", "C3"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("c group {tag}: "))),
            "{tag}: {text}"
        );
    }
    assert!(
        text.contains("encoding: domain=order, constraints=hall"),
        "{text}"
    );
    let o = run(&["encode", "6", "--redundant", "diagonals,permutation"]);
    let text = stdout(&o);
    assert!(
        text.contains("c redundant constraints: permutation,diagonals"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("c group RP: ")),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("c group RD: ")),
        "{text}"
    );
}

#[test]
fn exports_solved_by_external_solvers_and_verified() {
    external_answers_verified(&COMBOS, &[4, 9, 17]);
}

/// A published instance of the hard band, decided by CaDiCaL on the Hall decomposition with
/// the redundant constraints, agrees with the counter.
#[test]
fn literature_instance_agrees_with_the_counter() {
    if !require("cadical") {
        return;
    }
    let file = format!(
        "{}/tests/data/csplib-prob079/params/diag-10-4-1.param",
        env!("CARGO_MANIFEST_DIR")
    );
    let counted = run(&["count", "--instance", &file, "--diagonals", "9"]);
    assert_eq!(counted.status.code(), Some(0), "{}", stderr(&counted));
    let count: u64 = stdout(&counted)
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap();
    let o = run(&[
        "solve",
        "--instance",
        &file,
        "--diagonals",
        "9",
        "--count",
        "--model",
        "columns",
        "--alldiff",
        "hall",
        "--redundant",
        "permutation,diagonals",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim().parse::<u64>().unwrap(), count);
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let cases: [(&[&str], &str); 12] = [
        (
            &[
                "encode",
                "8",
                "--model",
                "columns",
                "--alldiff",
                "hall",
                "--domain",
                "direct",
            ],
            "order",
        ),
        (
            &[
                "encode",
                "8",
                "--model",
                "columns",
                "--alldiff",
                "hall",
                "--constraints",
                "support",
            ],
            "--constraints hall",
        ),
        (
            &["encode", "8", "--model", "columns", "--alldiff", "hal"],
            "hall",
        ),
        (&["encode", "8", "--alldiff", "hall"], "--model columns"),
        (
            &["encode", "8", "--redundant", "permutations"],
            "valid: permutation, diagonals, sums",
        ),
        (
            &["encode", "8", "--model", "columns", "--constraints", "hall"],
            "hall with order or coupled",
        ),
        // An encoding name unknown to the model or its domain.
        (
            &[
                "encode",
                "8",
                "--model",
                "columns",
                "--domain",
                "log",
                "--amo",
                "sequential",
            ],
            "valid: --amo with --domain direct",
        ),
        (
            &[
                "solve",
                "8",
                "--model",
                "columns",
                "--alldiff",
                "hall",
                "--amo",
                "totalizer",
            ],
            "valid: --amo with --domain direct",
        ),
        (&["encode", "8", "--amo", "totalizr"], "known: pairwise"),
        (
            &[
                "encode",
                "8",
                "--model",
                "columns",
                "--domain",
                "logarithmic",
            ],
            "valid: direct, order, log, coupled",
        ),
        (
            &["compare", "--n", "4", "--models", "orders"],
            "known: cells",
        ),
        (
            &["encode", "8", "--redundant", "sum", "--format", "opb"],
            "valid: permutation, diagonals, sums",
        ),
    ];
    for (args, needle) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// The pseudo-Boolean solvers on the OPB form: their answers read back as boards over the
/// cell variables (`x5` is DIMACS variable 5) and checked, SAT and UNSAT as the counter says.
#[test]
fn opb_answers_of_pb_solvers_verify() {
    let dir = tempfile::tempdir().unwrap();
    let file = format!(
        "{}/tests/data/csplib-prob079/params/diag-10-4-1.param",
        env!("CARGO_MANIFEST_DIR")
    );
    let solvers: Vec<(&str, Vec<String>)> = [
        ("minisat+", vec!["minisat+".to_string()]),
        (
            "sat4j",
            vec![
                "java".into(),
                "-jar".into(),
                "/usr/share/java/org.sat4j.pb.jar".into(),
            ],
        ),
    ]
    .into_iter()
    .filter(|(name, _)| require(name))
    .collect();
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_string).collect() };
    let torus = dir.path().join("t7.txt").to_str().unwrap().to_string();
    let o = run(&[
        "generate", "toroidal", "7", "--p", "0.1", "--seed", "1", "-o", &torus,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let cases: Vec<(Vec<String>, usize)> = vec![
        (words("2"), 2),
        (words("3"), 3),
        (words("8"), 8),
        (words("9 --redundant permutation,diagonals"), 9),
        (words("8 --redundant sums"), 8),
        (words("3 --redundant sums"), 3),
        (words("9 --redundant permutation,diagonals,sums"), 9),
        (words("3 --redundant moments"), 3),
        (words("8 --redundant moments"), 8),
        (words("9 --redundant permutation,diagonals,sums,moments"), 9),
        (words("6 --model columns"), 6),
        (words("7 --place 1,1 --forbid 2,3"), 7),
        (words(&format!("--instance {file} --diagonals 9")), 10),
        (words(&format!("--instance {file} --diagonals 12")), 10),
        (
            words(&format!(
                "--instance {file} --diagonals 9 --redundant diagonals"
            )),
            10,
        ),
        (
            words(&format!(
                "--instance {file} --diagonals 12 --redundant sums"
            )),
            10,
        ),
        (
            words(&format!(
                "--instance {file} --diagonals 12 --redundant diagonals,sums,moments"
            )),
            10,
        ),
        (
            words(&format!(
                "--instance {file} --diagonals 9 --redundant moments"
            )),
            10,
        ),
        // The torus: the sums and moments over the parts of the wrapped diagonals.
        (
            words(&format!(
                "--instance {torus} --redundant diagonals,sums,moments"
            )),
            7,
        ),
    ];
    for (args, n) in cases {
        let opb = dir.path().join("f.opb");
        let mut full = vec!["encode".to_string(), "--format".into(), "opb".into()];
        full.extend(args.iter().cloned());
        full.extend(["-o".to_string(), opb.to_str().unwrap().to_string()]);
        let o = run(&full);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let text = std::fs::read_to_string(&opb).unwrap();
        let header = text.lines().next().unwrap();
        let constraints = text.lines().filter(|l| !l.starts_with('*')).count();
        assert!(
            header.starts_with("* #variable= ")
                && header.ends_with(&format!(" #constraint= {constraints}")),
            "{header}"
        );
        // The expected answer: the embedded solver's count on the same formula as CNF.
        let mut count = vec!["solve".to_string()];
        count.extend(args.iter().cloned());
        count.push("--count".into());
        let counted = run(&count);
        assert_eq!(counted.status.code(), Some(0), "{}", stderr(&counted));
        let satisfiable = stdout(&counted).trim().parse::<u64>().unwrap() > 0;
        // The board's options alone, for verify (the OPB's variables are the cells).
        let mut board: Vec<String> = Vec::new();
        let mut i = 0;
        while i < args.len() {
            match args[i].as_str() {
                "--redundant" | "--model" => i += 2,
                a if a.parse::<usize>().is_ok() && i == 0 => i += 1,
                _ => {
                    board.push(args[i].clone());
                    i += 1;
                }
            }
        }
        for (name, cmd) in &solvers {
            let out = std::process::Command::new(&cmd[0])
                .args(&cmd[1..])
                .arg(&opb)
                .output()
                .unwrap();
            let answer = String::from_utf8_lossy(&out.stdout).to_string();
            let status = answer.lines().find(|l| l.starts_with("s ")).unwrap_or("");
            if !satisfiable {
                assert_eq!(status, "s UNSATISFIABLE", "{name} {args:?}: {answer}");
                continue;
            }
            assert_eq!(status, "s SATISFIABLE", "{name} {args:?}: {answer}");
            let model: Vec<i64> = answer
                .lines()
                .filter(|l| l.starts_with("v "))
                .flat_map(|l| {
                    l[2..]
                        .split_whitespace()
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .map(|t| match t.strip_prefix('-') {
                    Some(v) => -v.trim_start_matches('x').parse::<i64>().unwrap(),
                    None => t.trim_start_matches('x').parse::<i64>().unwrap(),
                })
                .filter(|&v| v.unsigned_abs() as usize <= n * n)
                .collect();
            // Verified by the toolkit as a SAT answer of the cell model.
            let answer_file = dir.path().join("answer.txt");
            let lits: Vec<String> = model.iter().map(i64::to_string).collect();
            std::fs::write(
                &answer_file,
                format!("s SATISFIABLE\nv {} 0\n", lits.join(" ")),
            )
            .unwrap();
            let mut verify = vec![
                "verify".to_string(),
                n.to_string(),
                answer_file.to_str().unwrap().to_string(),
            ];
            verify.extend(board.iter().cloned());
            let o = run(&verify);
            assert_eq!(o.status.code(), Some(0), "{name} {args:?}: {}", stdout(&o));
        }
    }
}

#[test]
fn opb_is_refused_for_models_without_cell_variables() {
    for args in [
        &[
            "encode", "8", "--format", "opb", "--model", "columns", "--domain", "order",
        ][..],
        &[
            "encode",
            "8",
            "--format",
            "opb",
            "--model",
            "columns",
            "--alldiff",
            "hall",
        ],
        &[
            "encode",
            "8",
            "--format",
            "opb",
            "--symmetry-breaking",
            "lex-leader",
        ],
        &["encode", "8", "--format", "opb", "--cubes", "2"],
        &["encode", "8", "--format", "pbo"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("valid") || err.contains("possible values"),
            "{args:?}: {err}"
        );
    }
}

/// `(n, satisfiable)` of each row a compare run makes.
type Expected = Vec<(usize, bool)>;

/// The pseudo-Boolean solvers as `compare` solvers: on empty boards (n = 2 and 3 have no
/// solution, the others do, by the published table) and on a published instance (its answer
/// by the counter), every row's answer is the expected one (a model that fails its check
/// would be a WRONG row, an unreadable answer an ERROR row), with the solver's version.
#[test]
fn compare_runs_the_pb_solvers() {
    let mut solvers = Vec::new();
    for (name, needs) in [
        ("minisat+", "minisat+"),
        ("sat4j-pb", "sat4j"),
        ("exact", "exact"),
        ("cp-sat", "ortools"),
    ] {
        if require(needs) {
            solvers.push(name);
        }
    }
    if solvers.is_empty() {
        return;
    }
    let count = solvers.len();
    let solvers = solvers.join(",");
    let dir = tempfile::tempdir().unwrap();
    let file = format!(
        "{}/tests/data/csplib-prob079/params/diag-10-4-1.param",
        env!("CARGO_MANIFEST_DIR")
    );
    let counted = |d: &str| -> u64 {
        let o = run(&["count", "--instance", &file, "--diagonals", d]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .find_map(|l| l.strip_prefix("solutions:"))
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{}", stdout(&o)))
    };
    let mut runs: Vec<(Vec<String>, Expected)> = vec![(
        ["--n", "2,3,6,8"].map(String::from).to_vec(),
        [2, 3, 6, 8]
            .iter()
            .map(|&n| (n, published_total(n) > 0))
            .collect(),
    )];
    for d in ["9", "12"] {
        runs.push((
            ["--instance", &file, "--diagonals", d]
                .map(String::from)
                .to_vec(),
            vec![(10, counted(d) > 0)],
        ));
    }
    // With the redundant constraints (the OPB writes them natively, the CNF encodes them),
    // beside the embedded solver on the CNF.
    runs.push((
        [
            "--instance",
            &file,
            "--diagonals",
            "12",
            "--redundant",
            "permutation,diagonals,sums,moments",
        ]
        .map(String::from)
        .to_vec(),
        vec![(10, counted("12") > 0)],
    ));
    for (i, (args, expected)) in runs.into_iter().enumerate() {
        let csv_path = dir.path().join(format!("r{i}.csv"));
        let redundant = args.iter().any(|a| a == "--redundant");
        let solvers = if redundant {
            format!("{solvers},varisat")
        } else {
            solvers.clone()
        };
        let mut cmd = crate::common::bin();
        cmd.env("QUEENS_SAT_PYTHON", crate::common::python())
            .args([
                "compare",
                "--solver",
                &solvers,
                "--repeat",
                "1",
                "--timeout",
                "60",
            ])
            .args(["--amo", "pairwise", "--csv", csv_path.to_str().unwrap()])
            .args(&args);
        let o = crate::common::output(&mut cmd);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let table = CsvTable::read(&csv_path);
        let (col, rows) = (|name: &str| table.col(name), table.rows.as_slice());
        assert_eq!(
            rows.len(),
            expected.len() * (count + redundant as usize),
            "{args:?}"
        );
        for row in rows {
            let n: usize = row[col("n")].parse().unwrap();
            let sat = expected.iter().find(|e| e.0 == n).unwrap().1;
            let want = if sat { "SAT" } else { "UNSAT" };
            assert_eq!(&row[col("status")], want, "{args:?}: {row:?}");
            assert!(!row[col("solver_version")].is_empty(), "{row:?}");
            assert_eq!(
                row[col("encoding")].ends_with("+permutation+diagonals+sums+moments"),
                redundant,
                "{row:?}"
            );
        }
    }
}

/// A pseudo-Boolean solver on a model without an OPB form, or with symmetry breaking, is
/// refused before any run, in one line that names the valid models.
#[test]
fn compare_refuses_pb_solvers_on_models_without_opb() {
    if !require("minisat+") {
        return;
    }
    for extra in [
        &["--models", "order"][..],
        &["--symmetry-breaking", "lex-leader"],
    ] {
        let mut args = vec![
            "compare", "--n", "4", "--solver", "minisat+", "--repeat", "1",
        ];
        args.extend(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("valid"), "{args:?}: {err}");
    }
}
