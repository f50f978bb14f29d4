//! docs/coursework.md is executable: every `$ ` line of its ```console blocks is run with the
//! real binary and its output compared with the lines that follow (the conventions are in the
//! HTML comment at the top of the document). The examples/ programs, when built (plain
//! `cargo test` builds them), are run too; each checks its own result with assertions.

use crate::common::{output, require, BIN};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const DOC: &str = include_str!("../../docs/coursework.md");

/// One command of the document with the output expected from it.
#[derive(Debug)]
struct Case {
    /// 1-based line of the command in the document.
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The console blocks of the document, each a list of commands.
fn parse(doc: &str) -> Vec<Vec<Case>> {
    let mut blocks = Vec::new();
    let mut fence: Option<(String, Vec<Case>)> = None;
    for (i, line) in doc.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match fence.take() {
                None => fence = Some((info.trim().to_string(), Vec::new())),
                Some((kind, cases)) => {
                    if kind == "console" {
                        blocks.push(cases);
                    }
                }
            }
            continue;
        }
        let Some((kind, cases)) = fence.as_mut() else {
            continue;
        };
        if let Some(cmd) = line.strip_prefix("$ ") {
            assert_eq!(
                kind,
                "console",
                "line {}: a command outside a ```console block would not be tested",
                i + 1
            );
            cases.push(Case {
                line: i + 1,
                command: cmd.to_string(),
                expected: Vec::new(),
            });
        } else if kind == "console" {
            let case = cases
                .last_mut()
                .unwrap_or_else(|| panic!("line {}: output before any command", i + 1));
            case.expected.push(line.to_string());
        }
    }
    assert!(fence.is_none(), "an unclosed code block");
    blocks
}

/// One expected line against one actual line: "..." inside the expected line stands for any
/// text; trailing spaces do not count.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let (pattern, actual) = (pattern.trim_end(), actual.trim_end());
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(k) => rest = &rest[k + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Expected lines against actual lines: a line that is exactly "..." stands for any number of
/// lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e.trim() == "..." => {
            (0..=actual.len()).any(|k| lines_match(rest, &actual[k..]))
        }
        Some((e, rest)) => {
            !actual.is_empty() && line_matches(e, actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

fn trim_trailing_blank<T: AsRef<str>>(v: &[T]) -> &[T] {
    let end = v
        .iter()
        .rposition(|l| !l.as_ref().trim().is_empty())
        .map_or(0, |k| k + 1);
    &v[..end]
}

/// The folder of the binary under test: first on PATH, so `queens-sat` in a command is it.
fn bin_dir() -> PathBuf {
    Path::new(BIN)
        .parent()
        .expect("binary folder")
        .to_path_buf()
}

fn uses(command: &str, program: &str) -> bool {
    command
        .split(|c: char| c.is_whitespace() || c == '|' || c == ';')
        .any(|w| w == program)
}

#[test]
fn every_command_in_the_coursework_runs_as_shown() {
    let blocks = parse(DOC);
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let mut ran = 0;
    let mut failures = Vec::new();
    for block in &blocks {
        // A block that needs an external solver that is missing is skipped whole, since its
        // later commands read the solver's files (under CI a missing solver is a failure).
        let missing = ["cadical", "minisat"]
            .iter()
            .find(|p| block.iter().any(|c| uses(&c.command, p)) && !require(p));
        if let Some(p) = missing {
            eprintln!("skipped the block at line {}: no {p}", block[0].line);
            continue;
        }
        for case in block {
            let out = output(
                Command::new("sh")
                    .arg("-c")
                    .arg(&case.command)
                    .current_dir(dir.path())
                    .env("PATH", &path)
                    .stdin(Stdio::null()),
            );
            ran += 1;
            let stdout = String::from_utf8_lossy(&out.stdout);
            let actual: Vec<&str> = stdout.lines().collect();
            let ok = out.status.success()
                && lines_match(
                    trim_trailing_blank(&case.expected),
                    trim_trailing_blank(&actual),
                );
            if !ok {
                failures.push(format!(
                    "docs/coursework.md line {}: $ {}\n--- status {:?}, stderr:\n{}--- expected:\n{}\n--- got:\n{}",
                    case.line,
                    case.command,
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr),
                    case.expected.join("\n"),
                    stdout
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 20, "only {ran} commands ran");
}

#[test]
fn the_coursework_covers_the_exercises() {
    let commands: Vec<String> = parse(DOC)
        .into_iter()
        .flatten()
        .map(|c| c.command)
        .collect();
    for needle in [
        "queens-sat explain 4",
        "queens-sat encode 4",
        "--column-alo",
        "queens-sat compare --n 8 --amo pairwise,sequential --solver varisat --repeat 1",
        "queens-sat solve 3 --why",
        "queens-sat verify 4 -",
        "cadical q8.cnf",
        "minisat",
    ] {
        assert!(
            commands.iter().any(|c| c.contains(needle)),
            "no command with {needle:?}"
        );
    }
}

#[test]
fn output_patterns() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(line_matches("a ... c", "a bbb c"));
    assert!(line_matches(
        "| 8 | ... | SAT | ... |",
        "| 8 | 0.1 | SAT | 1.7 |"
    ));
    assert!(!line_matches("| 8 | ... | SAT |", "| 8 | 0.1 | UNSAT |"));
    assert!(!line_matches("a", "b"));
    assert!(!line_matches("ab...ba", "aba"));
    assert!(lines_match(&e(&["x", "...", "z"]), &["x", "y", "y", "z"]));
    assert!(lines_match(&e(&["x", "...", "z"]), &["x", "z"]));
    assert!(!lines_match(&e(&["x", "z"]), &["x", "y", "z"]));
    assert!(!lines_match(&e(&["x"]), &["x", "y"]));
}

/// Runs the example programs if this build made them (`cargo test` without a filter builds
/// every example into target/<profile>/examples).
#[test]
fn examples_run_and_pass_their_own_checks() {
    let dir = bin_dir().join("examples");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("q6.cnf");
    let runs: [(&str, Vec<&std::ffi::OsStr>); 4] = [
        ("encode_to_file", vec!["6".as_ref(), file.as_os_str()]),
        ("solve", vec!["10".as_ref()]),
        ("enumerate", vec![]),
        ("explain", vec![]),
    ];
    for (name, args) in runs {
        let exe = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        if !exe.is_file() {
            eprintln!("skipped: example {name} is not built (run plain `cargo test`)");
            continue;
        }
        let out = output(Command::new(&exe).args(&args));
        assert!(out.status.success(), "example {name}: {out:?}");
    }
    if file.exists() {
        let text = std::fs::read_to_string(&file).unwrap();
        // n = 6: 6 + 2*6*15 + 2*(2*35 - 15) = 296 clauses (the reference formula).
        assert!(text.lines().any(|l| l == "p cnf 36 296"));
    }
}
