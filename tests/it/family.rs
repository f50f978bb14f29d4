//! Instance families and instance files: determinism, round trips, what the instances promise,
//! and every bad file or parameter refused with the line and the problem.

use crate::common::{is_valid_placement, run, stderr, stdout};
use queens_sat::family::{generate, CompletionMode, Density, Family, InstanceSpec, Recipe};
use queens_sat::instance::Model;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/instances")
        .join(name)
}

/// The pinned files with the command that made them (the tool version in the `generator` line
/// is the only part allowed to change).
const PINNED: [(&str, &[&str]); 6] = [
    (
        "completion-12-k5-s11.txt",
        &["completion", "12", "--k", "5", "--seed", "11"],
    ),
    (
        "completion-random-12-k6-s12.txt",
        &[
            "completion",
            "12",
            "--k",
            "6",
            "--mode",
            "random",
            "--seed",
            "12",
        ],
    ),
    (
        "blocked-10-p0.25-s13.txt",
        &["blocked", "10", "--p", "0.25", "--seed", "13"],
    ),
    (
        "blocked-9-b20-s14.txt",
        &["blocked", "9", "--b", "20", "--seed", "14"],
    ),
    (
        "excluded-diagonals-11-d9-s15.txt",
        &[
            "excluded-diagonals",
            "11",
            "--d",
            "9",
            "--min-free",
            "3",
            "--seed",
            "15",
        ],
    ),
    (
        "toroidal-7-b6-s16.txt",
        &["toroidal", "7", "--b", "6", "--seed", "16"],
    ),
];

fn without_version(text: &str) -> String {
    text.replace(
        &format!("queens-sat {}", env!("CARGO_PKG_VERSION")),
        "queens-sat VERSION",
    )
    .replace("queens-sat 0.1.0", "queens-sat VERSION")
}

#[test]
fn generated_files_are_byte_for_byte_the_pinned_ones() {
    for (file, args) in PINNED {
        let mut full = vec!["generate"];
        full.extend_from_slice(args);
        let out = run(&full);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        let pinned = std::fs::read_to_string(data(file)).unwrap();
        assert_eq!(
            without_version(&stdout(&out)),
            without_version(&pinned),
            "{file} changed: a generator's algorithm changed without a new generator version"
        );
    }
}

#[test]
fn the_seed_decides_the_instance() {
    let draw = |seed: u64| {
        generate(
            30,
            &Recipe::Blocked {
                density: Density::Probability(0.3),
            },
            seed,
        )
        .unwrap()
    };
    assert_eq!(draw(5), draw(5));
    assert_ne!(draw(5).blocked, draw(6).blocked);
    // Two runs of the binary with one seed write the same file, to disk.
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = (0..2)
        .map(|i| dir.path().join(format!("{i}.txt")))
        .collect();
    for f in &files {
        let o = run(&[
            "generate",
            "excluded-diagonals",
            "15",
            "--d",
            "10",
            "--seed",
            "99",
            "-o",
            f.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        std::fs::read(&files[1]).unwrap()
    );
}

/// Recipes of every family, with parameters across their ranges.
fn recipes(n: usize) -> Vec<Recipe> {
    let mut v = vec![
        Recipe::Completion {
            k: n / 2,
            mode: CompletionMode::FromSolution,
        },
        Recipe::Completion {
            k: n / 3,
            mode: CompletionMode::Random,
        },
        Recipe::Blocked {
            density: Density::Probability(0.3),
        },
        Recipe::Blocked {
            density: Density::Exactly(n * n / 4),
        },
        Recipe::ExcludedDiagonals {
            d: n / 2,
            min_free: 1,
        },
        Recipe::Toroidal { blocked: None },
        Recipe::Toroidal {
            blocked: Some(Density::Exactly(n)),
        },
    ];
    if n < 4 {
        v.remove(0);
    }
    v
}

#[test]
fn files_round_trip_and_regenerate_from_their_own_parameters() {
    for n in [1, 4, 7, 12, 33] {
        for recipe in recipes(n) {
            for seed in 0..5 {
                let Ok(spec) = generate(n, &recipe, seed) else {
                    continue; // a random completion may give up; tested elsewhere
                };
                let text = spec.to_text();
                let back = InstanceSpec::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(back, spec);
                assert_eq!(back.to_text(), text);
                // The file says enough to draw it again.
                let again = Recipe::from_parameters(back.family, &back.parameters).unwrap();
                assert_eq!(again, recipe);
                let redrawn = generate(back.n, &again, back.seed.unwrap()).unwrap();
                assert_eq!(redrawn.to_text(), text);
            }
        }
    }
}

/// Checks a board against an instance file, independently of the instance core: one queen
/// per row and column, no two on a diagonal of the file's board, every placed queen there, no
/// queen on a blocked cell or an excluded diagonal.
fn board_fits(spec: &InstanceSpec, cols: &[usize]) -> Result<(), String> {
    let n = spec.n;
    let queens: Vec<(usize, usize)> = cols.iter().copied().enumerate().collect();
    let toroidal = spec.geometry == queens_sat::board::Geometry::Toroidal;
    if toroidal {
        for (i, &(r1, c1)) in queens.iter().enumerate() {
            for &(r2, c2) in &queens[i + 1..] {
                let (dr, dc) = ((r2 + n - r1) % n, (c2 + n - c1) % n);
                if c1 == c2 || dr == dc || (dr + dc) % n == 0 {
                    return Err(format!("({r1},{c1}) and ({r2},{c2}) attack on the torus"));
                }
            }
        }
    } else if !is_valid_placement(n, &queens) {
        return Err(format!("not a solution: {cols:?}"));
    }
    for &(r, c) in &spec.placed {
        if cols[r] != c {
            return Err(format!("placed queen ({r},{c}) missing"));
        }
    }
    for &(r, c) in &spec.blocked {
        if cols[r] == c {
            return Err(format!("blocked cell ({r},{c}) used"));
        }
    }
    for d in &spec.excluded {
        let on = |(r, c): (usize, usize)| match *d {
            queens_sat::family::Diagonal::Sum(s) => r + c == s,
            queens_sat::family::Diagonal::Difference(k) => r as i64 - c as i64 == k,
        };
        if let Some(q) = queens.iter().find(|&&q| on(q)) {
            return Err(format!("queen {q:?} on excluded diagonal {d}"));
        }
    }
    Ok(())
}

#[test]
fn completion_from_a_solution_is_always_completable_and_kept() {
    for n in 4..=16 {
        for k in [0, 1, n / 2, n - 1, n] {
            for seed in 0..4 {
                let spec = generate(
                    n,
                    &Recipe::Completion {
                        k,
                        mode: CompletionMode::FromSolution,
                    },
                    seed,
                )
                .unwrap();
                assert_eq!(spec.placed.len(), k);
                let order = Model::columns(queens_sat::encode::ColumnOptions {
                    domain: queens_sat::encode::Domain::ORDER,
                    ..Default::default()
                });
                for model in [Model::default(), order] {
                    let inst = spec.instance(model).unwrap();
                    let sol = queens_sat::solve::solve(&inst)
                        .unwrap()
                        .unwrap_or_else(|| panic!("n={n} k={k} seed={seed}: UNSAT"));
                    let cols: Vec<usize> = sol.cols().iter().map(|&c| c as usize).collect();
                    board_fits(&spec, &cols).unwrap();
                }
            }
        }
    }
}

#[test]
fn models_keep_placed_queens_and_avoid_blocked_cells_and_excluded_diagonals() {
    let mut sat = 0;
    for n in [6, 8, 11] {
        for recipe in recipes(n) {
            for seed in 0..6 {
                let Ok(spec) = generate(n, &recipe, seed) else {
                    continue;
                };
                let inst = spec.instance(Model::default()).unwrap();
                if let Some(sol) = queens_sat::solve::solve(&inst).unwrap() {
                    let cols: Vec<usize> = sol.cols().iter().map(|&c| c as usize).collect();
                    board_fits(&spec, &cols).unwrap_or_else(|e| panic!("{}: {e}", spec.describe()));
                    sat += 1;
                }
            }
        }
    }
    assert!(
        sat > 20,
        "only {sat} satisfiable instances: the test says little"
    );
}

#[test]
fn every_command_reads_an_instance_file() {
    let file = data("completion-12-k5-s11.txt");
    let f = file.to_str().unwrap();
    let spec = InstanceSpec::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // encode: the family and seed in the comments, one unit clause per placed queen.
    let o = run(&["encode", "--instance", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("c instance: family completion, square board"),
        "{text}"
    );
    assert!(text.contains("c instance seed: 11"));
    for &(r, c) in &spec.placed {
        let unit = format!("\n{} 0\n", r * 12 + c + 1);
        assert!(text.contains(&unit), "no unit clause {unit:?}");
    }
    // solve: the board keeps the placed queens.
    let o = run(&["solve", "--instance", f, "--format", "line"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let line = stdout(&o);
    let cols: Vec<usize> = line
        .split_whitespace()
        .filter_map(|t| t.parse::<usize>().ok())
        .map(|c| c - 1)
        .collect();
    assert_eq!(cols.len(), 12, "{line}");
    board_fits(&spec, &cols).unwrap();
    // verify: that board is accepted for the instance; one without a placed queen is not.
    let dir = tempfile::tempdir().unwrap();
    let ans = dir.path().join("a.txt");
    std::fs::write(
        &ans,
        cols.iter()
            .map(|c| (c + 1).to_string())
            .collect::<Vec<_>>()
            .join(" "),
    )
    .unwrap();
    let o = run(&["verify", "12", ans.to_str().unwrap(), "--instance", f]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let other = queens_sat::construct::construct(12, Default::default())
        .unwrap()
        .unwrap();
    // The construction keeps a placed queen only by chance; make sure it misses one.
    assert!(spec.placed.iter().any(|&(r, c)| other.col(r) != c));
    let other: Vec<String> = other.cols().iter().map(|c| (c + 1).to_string()).collect();
    std::fs::write(&ans, other.join(" ")).unwrap();
    let o = run(&["verify", "12", ans.to_str().unwrap(), "--instance", f]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    // explain: the groups of the instance.
    let o = run(&["explain", "--instance", f, "--limit", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("P  every pre-placed queen stands"));
    // A size that disagrees with the file is refused.
    let o = run(&["solve", "9", "--instance", f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("disagrees with the instance file"),
        "{}",
        stderr(&o)
    );
}

/// (file body after the header lines, expected line number, part of the message)
const BAD_FILES: [(&str, usize, &str); 9] = [
    ("placed 1,1\n", 6, "without an 'end' line"),
    (
        "placed 9,1\nend\n",
        5,
        "cell (9,1) is outside the 8 x 8 board",
    ),
    ("placed 1,1 2,2\nend\n", 5, "share a \\ diagonal"),
    (
        "placed 2,2\nblocked 2,2\nend\n",
        6,
        "both placed and blocked",
    ),
    ("blocked 2,2 2,2\nend\n", 5, "listed twice"),
    ("placed 1,x\nend\n", 5, "is not a cell"),
    ("excluded r+c=99\nend\n", 5, "is not a diagonal"),
    ("colour blue\nend\n", 5, "unknown line"),
    ("end\nplaced 1,1\n", 6, "text after 'end'"),
];

#[test]
fn bad_instance_files_are_refused_with_the_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    let p = path.to_str().unwrap();
    let mut cases: Vec<(String, usize, &str)> = BAD_FILES
        .iter()
        .map(|(body, line, msg)| {
            (
                format!("queens-sat instance 1\nn 8\nboard square\nfamily custom\n{body}"),
                *line,
                *msg,
            )
        })
        .collect();
    cases.push((
        "queens-sat instance 7\n".into(),
        1,
        "unsupported instance file version '7'",
    ));
    cases.push((
        "queens-sat instance 1\nn 8\nboard square\nfamily zigzag\nend\n".into(),
        4,
        "unknown family 'zigzag'",
    ));
    cases.push(("p cnf 3 2\n1 2 0\n".into(), 1, "not an instance file"));
    for (text, line, msg) in &cases {
        std::fs::write(&path, text).unwrap();
        for cmd in ["encode", "solve", "explain"] {
            let o = run(&[cmd, "--instance", p]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {text:?}: {err}");
            assert!(
                err.contains(&format!("line {line}: ")) && err.contains(msg),
                "{cmd} {text:?}: {err}"
            );
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(o.stdout.is_empty());
        }
    }
    let o = run(&["solve", "--instance", "/nonexistent/x.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot open instance file"));
}

#[test]
fn generator_parameters_out_of_range_give_the_range_and_exit_2() {
    let cases: [(&[&str], &str); 9] = [
        // Bounded before any memory is spent: the instance core's board, an instance file's size.
        (&["blocked", "100000", "--b", "5"], "outside 1..=16384"),
        (
            &["blocked", "16384", "--p", "0.5"],
            "more than 4000000 cells",
        ),
        (
            &["blocked", "8", "--p", "1.5"],
            "must be a probability in [0, 1]",
        ),
        (
            &["blocked", "8", "--p", "-0.1"],
            "must be a probability in [0, 1]",
        ),
        (&["blocked", "8", "--b", "65"], "b must be in 0..=64"),
        (&["completion", "8", "--k", "9"], "k must be in 0..=8"),
        (&["completion", "3", "--k", "1"], "no solution"),
        (
            &["excluded-diagonals", "8", "--d", "31"],
            "d must be in 0..=30",
        ),
        (&["blocked", "8"], "needs --p P"),
    ];
    for (args, msg) in cases {
        let mut full = vec!["generate"];
        full.extend_from_slice(args);
        let o = run(&full);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(msg), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    // An output that cannot be written leaves nothing behind and exits 2.
    let o = run(&[
        "generate",
        "blocked",
        "8",
        "--p",
        "0.5",
        "-o",
        "/nonexistent/dir/x.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn families_have_names_that_parse_back() {
    for f in Family::ALL {
        assert_eq!(f.name().parse::<Family>(), Ok(f));
    }
}

/// Every model: the cell model with each at-most-one encoding, and each combination of the
/// column model's domain and constraints that it takes.
fn all_models() -> Vec<Model> {
    use queens_sat::encode::{
        Amo, ColumnOptions, Constraints, Domain, EncodeOptions, LineEncodings,
    };
    let mut v: Vec<Model> = Amo::all()
        .into_iter()
        .map(|amo| {
            Model::cells(EncodeOptions {
                amo: LineEncodings::uniform(amo),
                column_alo: false,
            })
        })
        .collect();
    for domain in Domain::all() {
        for constraints in Constraints::all() {
            let m = Model::columns(ColumnOptions {
                domain,
                constraints,
                ..Default::default()
            });
            if queens_sat::instance::Instance::new(4, m).is_ok() {
                v.push(m);
            }
        }
    }
    // The redundant constraints, on the reference model and on the Hall decomposition.
    let both: queens_sat::encode::redundant::RedundantSet =
        "permutation,diagonals".parse().unwrap();
    let all: queens_sat::encode::redundant::RedundantSet =
        "permutation,diagonals,sums".parse().unwrap();
    v.push(Model::default().with_redundant(both));
    v.push(Model::default().with_redundant("sums".parse().unwrap()));
    v.push(
        Model::columns(ColumnOptions {
            domain: Domain::ORDER,
            constraints: Constraints::HALL,
            ..Default::default()
        })
        .with_redundant(all),
    );
    v
}

/// The number of solutions by brute force over every permutation, checked with `board_fits`
/// (which shares no code with the counter or the encoders).
fn brute_force_count(spec: &InstanceSpec) -> u64 {
    fn go(spec: &InstanceSpec, cols: &mut Vec<usize>, used: &mut Vec<bool>, count: &mut u64) {
        let n = spec.n;
        if cols.len() == n {
            *count += board_fits(spec, cols).is_ok() as u64;
            return;
        }
        for c in 0..n {
            if !used[c] {
                used[c] = true;
                cols.push(c);
                go(spec, cols, used, count);
                cols.pop();
                used[c] = false;
            }
        }
    }
    let mut count = 0;
    go(spec, &mut Vec::new(), &mut vec![false; spec.n], &mut count);
    count
}

#[test]
fn the_counter_agrees_with_brute_force_on_every_family() {
    let mut nonzero = 0;
    for n in 1..=8 {
        for recipe in recipes(n) {
            for seed in 0..4 {
                let Ok(spec) = generate(n, &recipe, seed) else {
                    continue;
                };
                let inst = spec.instance(Model::default()).unwrap();
                let board = queens_sat::instance::masked_board(&inst).unwrap();
                let expected = brute_force_count(&spec);
                assert_eq!(
                    queens_sat::count::count_masked(&board),
                    expected,
                    "{}",
                    spec.describe()
                );
                nonzero += (expected > 0) as usize;
            }
        }
    }
    assert!(nonzero > 30, "only {nonzero} instances with solutions");
}

#[test]
fn sat_counts_equal_the_counter_for_every_family_and_model() {
    let models = all_models();
    assert!(models.len() >= 10, "{} models", models.len());
    for n in [4, 6, 8, 10] {
        for recipe in recipes(n) {
            for seed in 0..2 {
                let Ok(spec) = generate(n, &recipe, seed) else {
                    continue;
                };
                let board =
                    queens_sat::instance::masked_board(&spec.instance(Model::default()).unwrap())
                        .unwrap();
                let expected = queens_sat::count::count_masked(&board);
                for &model in &models {
                    let inst = spec.instance(model).unwrap();
                    let counted = queens_sat::solve::count_solutions(&inst).unwrap();
                    assert_eq!(counted, expected, "{} under {model}", spec.describe());
                }
            }
        }
    }
}

#[test]
fn check_takes_instance_files_and_agrees() {
    for (file, _) in PINNED {
        let path = data(file);
        let o = run(&[
            "check",
            "--instance",
            path.to_str().unwrap(),
            "--models",
            "all",
            "--amo",
            "pairwise,sequential",
        ]);
        assert!(o.status.success(), "{file}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stdout(&o).contains("verdict: all checks agree"),
            "{}",
            stdout(&o)
        );
    }
}

/// An instance whose clauses forget its blocked cells, though its rules (`fixed`) know them.
struct ForgetsBlockedCells {
    real: queens_sat::instance::Instance,
    clauses: queens_sat::instance::Instance,
}

impl queens_sat::instance::Formula for ForgetsBlockedCells {
    fn n(&self) -> usize {
        self.real.n()
    }
    fn name(&self) -> String {
        "forgets-blocked-cells".into()
    }
    fn num_vars(&self) -> u64 {
        self.clauses.num_vars()
    }
    fn encode_labelled(&self, sink: &mut dyn queens_sat::encode::LabelSink) -> std::io::Result<()> {
        self.clauses.encode_labelled(sink)
    }
    fn value_lits(&self, r: usize, c: usize) -> Vec<queens_sat::Lit> {
        self.real.value_lits(r, c)
    }
    fn decode(
        &self,
        a: &[bool],
    ) -> Result<queens_sat::Placement, queens_sat::instance::DecodeError> {
        self.real.decode(a)
    }
    fn projection(&self) -> Vec<queens_sat::Var> {
        self.real.projection()
    }
    fn var_name(&self, v: queens_sat::Var) -> String {
        self.real.var_name(v)
    }
    fn pattern_lits(&self, cells: &[bool]) -> Option<Vec<queens_sat::Lit>> {
        self.real.pattern_lits(cells)
    }
    fn fixed(&self) -> (&[(usize, usize)], &[(usize, usize)]) {
        self.real.fixed()
    }
    fn geometry(&self) -> queens_sat::board::Geometry {
        self.real.geometry()
    }
}

#[test]
fn the_instance_check_catches_a_formula_that_forgets_blocked_cells() {
    use queens_sat::crosscheck::{check_formula, CheckConfig, Expectation};
    let spec =
        InstanceSpec::parse(&std::fs::read_to_string(data("blocked-9-b20-s14.txt")).unwrap())
            .unwrap();
    let real = spec.instance(Model::default()).unwrap();
    let clauses = queens_sat::instance::Instance::new(spec.n, Model::default()).unwrap();
    let broken = std::sync::Arc::new(ForgetsBlockedCells { real, clauses });
    let exp = Expectation::for_instance(broken.as_ref());
    assert_eq!(exp.instance_total, Some(brute_force_count(&spec)));
    let row = check_formula(broken, &exp, &CheckConfig::default());
    assert!(!row.ok(), "the broken formula passed: {row:?}");
    // The same check passes the real instance.
    let real = std::sync::Arc::new(spec.instance(Model::default()).unwrap());
    let row = check_formula(real, &exp, &CheckConfig::default());
    assert!(row.ok(), "{:?}", row.discrepancies);
}
