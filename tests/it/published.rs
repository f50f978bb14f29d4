//! The tables docs/experiments.md publishes from recorded sweeps are what the product prints
//! from their CSV files. Each such table follows right after a `sh` block holding one command,
//! `queens-sat compare --merge docs/results/...` (lines may end in `\`); the test runs that
//! command in the repository's top folder and compares what it prints with the table on the
//! page, line by line, so an edited number on the page, a changed report or changed data fails
//! it. Every CSV file of docs/results/families is shown by some such command, and the summary
//! next to each (`X.md`) is the whole report of `compare --merge X.csv`. The hard set's runs,
//! converted once from the files of benches/hard_set.py to compare's columns
//! (docs/results/hardset/hard-set-60.csv), are checked against those files.

use crate::common::{output, stderr, BIN};
use crate::docs::blocks;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The page whose tables are checked.
const PAGE: &str = "docs/experiments.md";

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
        let table: Vec<String> = lines[after.min(lines.len())..]
            .iter()
            .skip_while(|l| l.trim().is_empty())
            .take_while(|l| l.starts_with('|'))
            .map(|l| l.to_string())
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
    let text = std::fs::read_to_string(root().join(PAGE)).unwrap();
    let tables = published(&text);
    let mut wrong = Vec::new();
    for t in &tables {
        if t.table.is_empty() {
            wrong.push(format!(
                "{PAGE} line {}: no table after `{}`",
                t.line, t.command
            ));
            continue;
        }
        if let Some(d) = first_difference(&t.table, &prints(&t.command)) {
            wrong.push(format!("{PAGE} line {}: `{}`\n{d}", t.line, t.command));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    // Every family sweep's CSV file is shown by some command.
    let mut csvs: Vec<PathBuf> = std::fs::read_dir(root().join(FAMILIES))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    csvs.sort();
    assert!(csvs.len() >= 11, "{csvs:?}");
    let names = csvs
        .iter()
        .map(|csv| Path::new(FAMILIES).join(csv.file_name().unwrap()))
        .chain([PathBuf::from(HARD_SET)]);
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

/// A column of a file of benches/hard_set.py, with the encoding and solver of its runs.
type Column = (&'static str, &'static str, &'static str);

/// The files of benches/hard_set.py the hard set's runs come from, later ones replacing an
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
