//! The tables docs/experiments.md and docs/benchmarks.md publish from recorded sweeps are what
//! the product prints from their CSV files. Each such table follows right after a `sh` block
//! holding one command, `queens-sat compare --merge docs/results/...` (lines may end in `\`);
//! the test runs that command in the repository's top folder and compares what it prints with
//! the table on the page, line by line, so an edited number on the page, a changed report or
//! changed data fails it. Every CSV file of docs/results/families is shown by some such
//! command, and the summary next to each (`X.md`) is the whole report of `compare --merge
//! X.csv`. Runs recorded by earlier scripts in their own columns and converted once to
//! compare's (docs/results/hardset/hard-set-60.csv, and the global-reasoning runs of
//! docs/results/global) are checked against the files they came from.

use crate::common::{output, stderr, BIN};
use crate::docs::blocks;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pages whose tables are checked.
const PAGES: [&str; 2] = ["docs/experiments.md", "docs/benchmarks.md"];

/// The folder of the family sweeps' CSV files and summaries.
const FAMILIES: &str = "docs/results/families";

/// The hard set's runs in compare's columns.
const HARD_SET: &str = "docs/results/hardset/hard-set-60.csv";

/// The start of a command whose output is a published table.
const REPORT: &str = "queens-sat compare --merge docs/results/";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A table of the page with the command shown above it.
#[derive(Debug)]
struct Published {
    /// The 1-based line of the command's block.
    line: usize,
    /// The command, its continued lines joined.
    command: String,
    /// The table's lines.
    table: Vec<String>,
}

/// The published tables of `text`: every `sh` block that is one [`REPORT`] command, with the
/// Markdown table after it (blank lines between them allowed; an empty table when none).
fn published(text: &str) -> Vec<Published> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for block in blocks(text) {
        if block.info != "sh" {
            continue;
        }
        let command = block
            .lines
            .iter()
            .map(|l| l.trim().trim_end_matches('\\').trim())
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if !command.starts_with(REPORT) {
            continue;
        }
        // The line after the closing fence (0-based index): the opening fence's line (1-based),
        // the block's lines, the closing fence.
        let after = block.line + block.lines.len() + 1;
        // A table in a list item is indented as its text is.
        let table: Vec<String> = lines[after.min(lines.len())..]
            .iter()
            .skip_while(|l| l.trim().is_empty())
            .map(|l| l.trim_start())
            .take_while(|l| l.starts_with('|'))
            .map(str::to_string)
            .collect();
        out.push(Published {
            line: block.line,
            command,
            table,
        });
    }
    out
}

/// What `command` (a `queens-sat ...` line) prints when run in the repository's top folder;
/// it must succeed.
fn prints(command: &str) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[0], "queens-sat", "{command}");
    let o = output(Command::new(BIN).args(&words[1..]).current_dir(root()));
    assert!(o.status.success(), "{command}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// The first line where `shown` and `printed` differ, as a message; none when they are equal.
fn first_difference(shown: &[String], printed: &str) -> Option<String> {
    let printed: Vec<&str> = printed.trim_end().lines().collect();
    let k = (0..shown.len().max(printed.len()))
        .find(|&i| shown.get(i).map(String::as_str) != printed.get(i).copied())?;
    Some(format!(
        "table line {}:\n  page:    {}\n  printed: {}",
        k + 1,
        shown.get(k).map_or("(no line)", String::as_str),
        printed.get(k).copied().unwrap_or("(no line)")
    ))
}

#[test]
fn the_published_tables_are_what_the_shown_commands_print() {
    let mut tables = Vec::new();
    let mut wrong = Vec::new();
    for page in PAGES {
        let text = std::fs::read_to_string(root().join(page)).unwrap();
        for t in published(&text) {
            if t.table.is_empty() {
                wrong.push(format!(
                    "{page} line {}: no table after `{}`",
                    t.line, t.command
                ));
            } else if let Some(d) = first_difference(&t.table, &prints(&t.command)) {
                wrong.push(format!("{page} line {}: `{}`\n{d}", t.line, t.command));
            }
            tables.push(t);
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    // Every family sweep's CSV file and every converted file is shown by some command.
    let mut csvs: Vec<PathBuf> = std::fs::read_dir(root().join(FAMILIES))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    csvs.sort();
    assert!(csvs.len() >= 11, "{csvs:?}");
    let converted = GLOBAL_FILES
        .iter()
        .map(|(file, _, _)| *file)
        .chain(["blocked-60-sweep.csv"])
        .map(|file| Path::new(GLOBAL).join(file));
    let names = csvs
        .iter()
        .map(|csv| Path::new(FAMILIES).join(csv.file_name().unwrap()))
        .chain([PathBuf::from(HARD_SET)])
        .chain(converted);
    for name in names {
        let name = name.to_str().unwrap();
        assert!(
            tables
                .iter()
                .any(|t| t.command.split_whitespace().any(|w| w == name)),
            "no published table of {name}"
        );
    }
}

#[test]
fn the_summaries_are_the_reports_of_their_csv_files() {
    let dir = root().join(FAMILIES);
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "csv") {
            continue;
        }
        let summary = path.with_extension("md");
        let shown = std::fs::read_to_string(&summary)
            .unwrap_or_else(|e| panic!("{}: {e}", summary.display()));
        let rel = path.strip_prefix(root()).unwrap().to_str().unwrap();
        let printed = prints(&format!("queens-sat compare --merge {rel}"));
        let shown: Vec<String> = shown.trim_end().lines().map(str::to_string).collect();
        if let Some(d) = first_difference(&shown, &printed) {
            panic!(
                "{} is not `queens-sat compare --merge {rel}`: {d}",
                summary.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 11, "{checked} summaries");
}

#[test]
fn the_parser_finds_tables_after_their_commands() {
    let page = "text\n\n```sh\nqueens-sat compare --merge docs/results/a.csv \\\n  --table values\n```\n\n| a |\n|---|\n| 1 |\n\nmore\n\n```sh\nqueens-sat compare --family blocked\n```\n\n| b |\n\n```sh\nqueens-sat compare --merge docs/results/b.csv\n```\n\nno table\n";
    let p = published(page);
    assert_eq!(p.len(), 2);
    assert_eq!(p[0].line, 3);
    assert_eq!(
        p[0].command,
        "queens-sat compare --merge docs/results/a.csv --table values"
    );
    assert_eq!(p[0].table, ["| a |", "|---|", "| 1 |"]);
    assert!(p[1].table.is_empty());
    let shown: Vec<String> = vec!["| a |".into(), "| 1 |".into()];
    assert_eq!(first_difference(&shown, "| a |\n| 1 |\n"), None);
    let d = first_difference(&shown, "| a |\n| 2 |\n").unwrap();
    assert!(d.starts_with("table line 2:"), "{d}");
    assert!(first_difference(&shown, "| a |\n| 1 |\n| 3 |").is_some());
}

/// A column of a file of the hard set's recorded runs (docs/results/hardset), with the
/// encoding and solver of its runs.
type Column = (&'static str, &'static str, &'static str);

/// The recorded files the hard set's runs come from, later ones replacing an
/// earlier one's run of the same seed, with their columns: `(files, [(column, encoding,
/// solver)])` (docs/results/hardset/README.md).
const HARD_SET_SOURCES: [(&[&str], &[Column]); 7] = [
    (
        &[
            "pairwise-1-10.csv",
            "pairwise-11-20.csv",
            "pairwise-rerun-1.csv",
            "pairwise-rerun-2.csv",
        ],
        &[
            ("lib-cadical", "pairwise", "cadical-lib stabilizeonly=0"),
            ("lib-kissat", "pairwise", "kissat-lib target=1 restartint=1"),
            ("prog-cadical", "pairwise", "cadical"),
        ],
    ),
    (
        &["stabilizeonly.csv"],
        &[("lib-cadical", "pairwise", "cadical-lib stabilizeonly=1")],
    ),
    (
        &["pd-cadical.csv"],
        &[(
            "lib-cadical",
            "pairwise+permutation+diagonals",
            "cadical-lib stabilizeonly=0",
        )],
    ),
    (
        &["pd-kissat.csv"],
        &[(
            "lib-kissat",
            "pairwise+permutation+diagonals",
            "kissat-lib target=1 restartint=1",
        )],
    ),
    (
        &["pds-cadical.csv"],
        &[(
            "lib-cadical",
            "pairwise+permutation+diagonals+sums",
            "cadical-lib stabilizeonly=0",
        )],
    ),
    (
        &["propagator.csv"],
        &[("lib-propagator", "pairwise", "propagator")],
    ),
    (&["search.csv"], &[("lib-search", "pairwise", "search")]),
];

#[test]
fn the_hard_set_in_compares_columns_is_its_recorded_runs() {
    use std::collections::BTreeMap;
    let dir = root().join("docs/results/hardset");
    // (encoding, solver, seed) -> (status, CPU s, wall s), later files replacing earlier ones.
    let mut expected: BTreeMap<(String, String, u64), (String, f64, f64)> = BTreeMap::new();
    for (files, columns) in HARD_SET_SOURCES {
        for file in files {
            for row in crate::compare::csv_maps(&dir.join(file)) {
                let seed: u64 = row["seed"].parse().unwrap();
                for (column, encoding, solver) in columns {
                    // Earlier versions of the script marked the CPU limit's signals so.
                    let status = match row[*column].as_str() {
                        "STOPPED(signal 24)" | "STOPPED(signal 9)" => "TIMEOUT",
                        s => s,
                    };
                    let seconds = |what: &str| row[&format!("{column}_{what}_s")].parse().unwrap();
                    expected.insert(
                        (encoding.to_string(), solver.to_string(), seed),
                        (status.to_string(), seconds("cpu"), seconds("wall")),
                    );
                }
            }
        }
    }
    assert_eq!(expected.len(), 9 * 20);
    let converted = crate::compare::csv_maps(&root().join(HARD_SET));
    assert_eq!(converted.len(), expected.len());
    for r in &converted {
        let key = (
            r["encoding"].clone(),
            r["solver"].clone(),
            r["seed"].parse().unwrap(),
        );
        let (status, cpu, wall) = expected
            .get(&key)
            .unwrap_or_else(|| panic!("{key:?} is in no source file"));
        assert_eq!(&r["status"], status, "{key:?}");
        let field = |name: &str| r[name].parse::<f64>().unwrap();
        assert!((field("cpu_s") - cpu).abs() < 1e-9, "{key:?}");
        assert!((field("wall_s") - wall).abs() < 1e-9, "{key:?}");
        assert_eq!(
            (r["n"].as_str(), r["family"].as_str(), r["value"].as_str()),
            ("60", "blocked", "0.85")
        );
        assert_eq!(field("cpu_limit_s"), 60.0, "{key:?}");
    }
    // The formulas' sizes are those `encode` writes for the boards of `generate`, on seed 1.
    let tmp = tempfile::tempdir().unwrap();
    let board = crate::backend::hard_instance_file(tmp.path(), 1);
    for (encoding, redundant) in [
        ("pairwise", "none"),
        ("pairwise+permutation+diagonals", "permutation,diagonals"),
        (
            "pairwise+permutation+diagonals+sums",
            "permutation,diagonals,sums",
        ),
    ] {
        let cnf = tmp.path().join("f.cnf");
        let o = crate::common::run(&[
            "encode",
            "--instance",
            board.to_str().unwrap(),
            "--redundant",
            redundant,
            "-o",
            cnf.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&cnf).unwrap();
        let header: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("p cnf"))
            .unwrap()
            .split_whitespace()
            .collect();
        for r in converted
            .iter()
            .filter(|r| r["encoding"] == encoding && r["seed"] == "1")
        {
            assert_eq!(
                (r["vars"].as_str(), r["clauses"].as_str()),
                (header[2], header[3]),
                "{encoding} / {}",
                r["solver"]
            );
        }
    }
}

/// The folder of the global-reasoning runs (docs/results/global/README.md).
const GLOBAL: &str = "docs/results/global";

/// The configurations of the files of the global-reasoning runs, each with the encoding and
/// solver `compare` names it by (docs/results/global/README.md).
const GLOBAL_CONFIGS: [(&str, &str, &str); 30] = [
    ("pairwise", "pairwise", "cadical"),
    ("sequential", "sequential", "cadical"),
    ("commander", "commander", "cadical"),
    ("product", "product", "cadical"),
    ("binary", "binary", "cadical"),
    ("bimander", "bimander", "cadical"),
    ("ladder", "ladder", "cadical"),
    ("totalizer", "totalizer", "cadical"),
    ("mtotalizer", "mtotalizer", "cadical"),
    ("sortnet", "sortnet", "cadical"),
    ("cardnet", "cardnet", "cadical"),
    ("columns-direct", "columns-direct-pairwise", "cadical"),
    (
        "columns-direct-support",
        "columns-direct-support-pairwise",
        "cadical",
    ),
    ("columns-order", "columns-order", "cadical"),
    ("columns-log", "columns-log", "cadical"),
    ("columns-coupled", "columns-coupled", "cadical"),
    ("columns-order-hall", "columns-order-hall", "cadical"),
    ("columns-coupled-hall", "columns-coupled-hall", "cadical"),
    (
        "pairwise+perm+diag",
        "pairwise+permutation+diagonals",
        "cadical",
    ),
    (
        "pairwise+perm+diag+sums",
        "pairwise+permutation+diagonals+sums",
        "cadical",
    ),
    ("pairwise+sums", "pairwise+sums", "cadical"),
    ("minisat+ (OPB)", "pairwise", "minisat+"),
    ("sat4j-pb (OPB)", "pairwise", "sat4j-pb"),
    ("exact (OPB)", "pairwise", "exact"),
    ("search", "pairwise", "search"),
    ("propagator", "pairwise", "propagator"),
    ("lib:cadical", "pairwise", "cadical-lib stabilizeonly=0"),
    (
        "lib:cadical:stabilizeonly=1",
        "pairwise",
        "cadical-lib stabilizeonly=1",
    ),
    ("lib:kissat", "pairwise", "kissat-lib target=1 restartint=1"),
    (
        "lib:kissat:target=2:restartint=50",
        "pairwise",
        "kissat-lib target=2 restartint=50",
    ),
];

/// The source files of a converted file, each with the configurations taken from it (all
/// when empty), and whether only the first 10 instances of the band's order are taken.
type Sources = &'static [(&'static str, &'static [&'static str])];

/// The converted files of the global-reasoning runs: (file, its sources, the first 10 only).
const GLOBAL_FILES: [(&str, Sources, bool); 4] = [
    (
        "band-100.csv",
        &[
            ("band-main.csv", &[]),
            ("band-sums.csv", &[]),
            ("band-pairwise.csv", &[]),
            ("band-propagator.csv", &[]),
            ("band-sequential.csv", &[]),
            ("band-totalizer.csv", &[]),
            ("band-product.csv", &[]),
            ("band-ladder.csv", &[]),
            ("band-commander.csv", &[]),
            ("band-sortnet.csv", &[]),
            ("band-mtotalizer.csv", &[]),
            ("band-binary.csv", &[]),
            ("band-bimander.csv", &[]),
            ("band-cardnet.csv", &[]),
            ("band-minisat-opb.csv", &[]),
            ("band-exact-opb.csv", &[]),
            ("band-sat4j-opb.csv", &[]),
            ("band-columns-direct.csv", &[]),
            ("band-columns-direct-support.csv", &[]),
            ("band-columns-order.csv", &[]),
            ("band-columns-log.csv", &[]),
            ("band-columns-coupled.csv", &[]),
            ("band-columns-order-hall.csv", &[]),
            ("band-columns-coupled-hall.csv", &[]),
        ],
        false,
    ),
    (
        "band-10.csv",
        &[
            ("band-main.csv", &[]),
            ("band-sums.csv", &[]),
            ("band-sub.csv", &["pairwise", "sequential", "commander"]),
            ("band-sub3.csv", &[]),
            ("band-sub4.csv", &[]),
            ("band-pb.csv", &[]),
            ("band-prop.csv", &[]),
        ],
        true,
    ),
    (
        "band-defaults.csv",
        &[
            ("band-defaults-cadical.csv", &[]),
            ("band-defaults-kissat.csv", &[]),
        ],
        false,
    ),
    (
        "blocked-60.csv",
        &[
            ("blocked-totalizer.csv", &[]),
            ("blocked-ladder.csv", &[]),
            ("blocked-product.csv", &[]),
            ("blocked-binary.csv", &[]),
            ("blocked-bimander.csv", &[]),
            ("blocked-mtotalizer.csv", &[]),
            ("blocked-sortnet.csv", &[]),
            ("blocked-cardnet.csv", &[]),
            ("blocked-columns-direct.csv", &[]),
            ("blocked-columns-coupled.csv", &[]),
            ("blocked-minisat-opb.csv", &[]),
            ("blocked-exact-opb.csv", &[]),
            ("blocked-sat4j-opb.csv", &[]),
        ],
        false,
    ),
];

/// The published answers of the n = 21 band (CSPLib prob079's results file, read here on a
/// path of its own): `(id, D)` to satisfiable.
fn band_answers() -> std::collections::HashMap<(String, String), bool> {
    use flate2::read::GzDecoder;
    use std::io::{BufRead, BufReader};
    let gz = std::fs::File::open(
        root().join("tests/data/csplib-prob079/run-diags-shiftqueens-processed.txt.gz"),
    )
    .unwrap();
    BufReader::new(GzDecoder::new(gz))
        .lines()
        .map(|l| l.unwrap())
        .filter(|l| l.starts_with("21 "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            ((f[3].to_string(), f[1].to_string()), f[5] != "0")
        })
        .collect()
}

#[test]
fn the_global_runs_in_compares_columns_are_their_recorded_runs() {
    use std::collections::BTreeMap;
    let dir = root().join(GLOBAL);
    let read = |f: &str| crate::compare::csv_maps(&dir.join(f));
    // The band's seeded order: the search ran on its first 120, in that order.
    let order: Vec<String> = read("band-main.csv")
        .into_iter()
        .filter(|r| r["config"] == "search")
        .map(|r| r["instance"].clone())
        .collect();
    assert_eq!(order.len(), 120);
    let answers = band_answers();
    for (converted, sources, first10) in GLOBAL_FILES {
        // (instance as compare names it, encoding, solver) -> (status, CPU s, the recorded
        // variables and clauses, when recorded for the CNF).
        type Run = (String, String, Option<(String, String)>);
        let mut expected: BTreeMap<(String, String, String), Run> = BTreeMap::new();
        for (file, configs) in sources {
            for r in read(file) {
                let config = r["config"].as_str();
                if (!configs.is_empty() && !configs.contains(&config))
                    || (first10 && !order[..10].contains(&r["instance"]))
                {
                    continue;
                }
                let (_, encoding, solver) = GLOBAL_CONFIGS
                    .iter()
                    .find(|(c, _, _)| *c == config)
                    .unwrap_or_else(|| panic!("{file}: configuration {config}"));
                let instance = match r["instance"].split_once(":d=") {
                    Some((name, d)) => format!("{name}.param d={d}"),
                    None => r["instance"].clone(),
                };
                let cnf = !matches!(*solver, "minisat+" | "sat4j-pb" | "exact");
                let sizes = (cnf && !r["vars"].is_empty())
                    .then(|| (r["vars"].clone(), r["clauses"].clone()));
                let old = expected.insert(
                    (instance, encoding.to_string(), solver.to_string()),
                    (r["answer"].clone(), r["cpu_s"].clone(), sizes),
                );
                assert!(old.is_none(), "{file}: {r:?} twice");
            }
        }
        let rows = read(converted);
        assert_eq!(rows.len(), expected.len(), "{converted}");
        for r in &rows {
            let band = r["family"] == "excluded-diagonals";
            let instance = if band {
                r["value"].clone()
            } else {
                assert_eq!(
                    (
                        r["family"].as_str(),
                        r["parameter"].as_str(),
                        r["value"].as_str()
                    ),
                    ("blocked", "p", "0.85")
                );
                format!("blocked-60-0.85-s{}", r["seed"])
            };
            let key = (instance, r["encoding"].clone(), r["solver"].clone());
            let (status, cpu, sizes) = expected
                .get(&key)
                .unwrap_or_else(|| panic!("{converted}: {key:?} is in no source file"));
            assert_eq!(&r["status"], status, "{converted}: {key:?}");
            let field = |name: &str| r[name].parse::<f64>().unwrap();
            assert!(
                (field("cpu_s") - cpu.parse::<f64>().unwrap()).abs() < 1e-9,
                "{converted}: {key:?}"
            );
            assert_eq!(field("cpu_limit_s"), 60.0, "{converted}: {key:?}");
            assert_eq!(r["n"], if band { "21" } else { "60" }, "{key:?}");
            if let Some((vars, clauses)) = sizes {
                assert_eq!((&r["vars"], &r["clauses"]), (vars, clauses), "{key:?}");
            }
            // Every answer is the published one (the blocked boards: all satisfiable).
            if matches!(status.as_str(), "SAT" | "UNSAT") {
                let sat = if band {
                    let (name, d) = key.0.split_once(".param d=").unwrap();
                    let id = name.rsplit('-').next().unwrap().to_string();
                    answers[&(id, d.to_string())]
                } else {
                    true
                };
                assert_eq!(status == "SAT", sat, "{converted}: {key:?}");
            }
        }
    }
    // The sweep's rows of p = 0.85, as they are.
    let family =
        std::fs::read_to_string(root().join(FAMILIES).join("blocked-60-cadical.csv")).unwrap();
    let mut lines = family.lines();
    let header = lines.next().unwrap();
    let value = header.split(',').position(|c| c == "value").unwrap();
    let mut want = vec![header];
    want.extend(lines.filter(|l| {
        // The machine's field is quoted and holds commas: count from the end.
        let f: Vec<&str> = l.split(',').collect();
        f[f.len() - (header.split(',').count() - value)] == "0.85"
    }));
    let sweep = std::fs::read_to_string(dir.join("blocked-60-sweep.csv")).unwrap();
    assert_eq!(sweep.lines().collect::<Vec<_>>(), want);
    assert_eq!(want.len(), 1 + 5 * 20);
}
