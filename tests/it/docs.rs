//! The documentation is a tested interface: every command shown in README.md and in docs/ runs
//! here with the real binary, and the output shown under it is compared with what it prints, so
//! that a renamed flag or a changed message fails the tests before it misleads a reader.
//!
//! The conventions (also in docs/contributing.md, which readers of the docs see):
//! - A fenced block marked `console` is run. Each line starting with `$ ` is a command, run with
//!   `sh -c` (pipes and redirections work) in a temporary folder of its own page, in the order
//!   of the page, so files one command writes are there for the next. The folder of the
//!   `queens-sat` under test is first on PATH, and `tests` and `examples` are links to the
//!   repository's, so a page can read the published instances of tests/data.
//! - Every command must exit with status 0; one that is meant to fail shows its status with
//!   `; echo "exit code: $?"`.
//! - The lines after a command, up to the next `$ ` line or the end of the block, are its
//!   expected standard output, compared by snapbox: a line that is exactly `...` stands for any
//!   number of lines, `[..]` inside a line for any text (timings, paths).
//! - A block marked `sh` is shown and not run. Only the pages of [`SHOWN_ONLY`] (pages, or
//!   folders such as the lab log's) may hold `queens-sat` commands in such blocks (runs that
//!   take minutes to hours, or a Slurm cluster); the tests count them apart.
//!
//! The test prints how many commands it ran; README.md records that count, and a test keeps
//! the two equal.

use crate::common::{require, BIN, PROGRAMS};
use rayon::prelude::*;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// The pages whose `sh` blocks may show `queens-sat` commands that are not run, with why. An
/// entry that ends in `/` is a folder: every page under it.
const SHOWN_ONLY: [(&str, &str); 4] = [
    (
        "docs/benchmarks.md",
        "measurements that take minutes to hours",
    ),
    ("docs/cluster.md", "a Slurm cluster"),
    (
        "docs/experiments.md",
        "experiments that take minutes to hours",
    ),
    (
        "docs/lab/",
        "the lab log: dated rounds of experiments and benchmarks, kept as they ran",
    ),
];

/// Whether [`SHOWN_ONLY`] lets a page (relative to the root) show commands that are not run.
fn shown_only_allows(page: &Path) -> bool {
    SHOWN_ONLY.iter().any(|(p, _)| match p.strip_suffix('/') {
        Some(folder) => page.starts_with(folder),
        None => Path::new(p) == page,
    })
}

/// The subcommands of `queens-sat` (a test checks the list against `queens-sat --help`).
const SUBCOMMANDS: [&str; 15] = [
    "encode",
    "explain",
    "generate",
    "import",
    "solve",
    "verify",
    "construct",
    "count",
    "grade",
    "check",
    "compare",
    "trace",
    "sat",
    "help",
    "verify-proof",
];

/// The limit for one documented command.
const LIMIT: Duration = Duration::from_secs(120);

/// The repository's top folder.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every page under docs/ (not the built book), as paths relative to the root.
pub fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap();
            if path.is_dir() {
                // The built book, and result tables that are data rather than pages.
                if name != "book" && name != "results" {
                    walk(&path, &rel.join(name), out);
                }
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(rel.join(name));
            }
        }
    }
    let mut out = vec![PathBuf::from("README.md")];
    walk(&root().join("docs"), Path::new("docs"), &mut out);
    out
}

/// One command of a page with the output shown under it.
#[derive(Debug, Clone)]
pub struct Case {
    /// 1-based line of the command in its page.
    pub line: usize,
    /// The command, without the `$ `.
    pub command: String,
    /// The output lines shown under it.
    pub expected: Vec<String>,
}

/// A fenced block of a page.
#[derive(Debug, Clone)]
pub struct Block {
    /// The fence's info string (`console`, `sh`, ...).
    pub info: String,
    /// 1-based line of the opening fence.
    pub line: usize,
    /// The block's lines.
    pub lines: Vec<String>,
}

impl Block {
    /// Whether the block is run (`console`).
    pub fn runs(&self) -> bool {
        self.info.split(',').next().map(str::trim) == Some("console")
    }

    /// The commands of a `console` block with their shown output.
    pub fn cases(&self) -> Vec<Case> {
        let mut cases: Vec<Case> = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            if let Some(command) = line.strip_prefix("$ ") {
                cases.push(Case {
                    line: self.line + 1 + i,
                    command: command.to_string(),
                    expected: Vec::new(),
                });
            } else if let Some(last) = cases.last_mut() {
                last.expected.push(line.clone());
            } else {
                assert!(
                    line.trim().is_empty(),
                    "line {}: output before the first `$ ` command",
                    self.line + 1 + i
                );
            }
        }
        cases
    }

    /// Whether a shown-only block holds a `queens-sat` command (a line that starts with
    /// `queens-sat` and a subcommand or option, not a file's `queens-sat instance 1` line).
    pub fn shows_a_command(&self) -> bool {
        self.lines.iter().any(|l| {
            let mut words = l.trim_start().trim_start_matches("$ ").split_whitespace();
            words.next() == Some("queens-sat")
                && words
                    .next()
                    .is_some_and(|w| w.starts_with('-') || SUBCOMMANDS.contains(&w))
        })
    }
}

/// The fenced blocks of a page (``` fences; an unclosed one is an error).
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match open.take() {
                None => {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        line: i + 1,
                        lines: Vec::new(),
                    })
                }
                Some(block) => out.push(block),
            }
        } else if let Some(block) = open.as_mut() {
            block.lines.push(line.to_string());
        }
    }
    assert!(open.is_none(), "an unclosed code block");
    out
}

fn read(page: &Path) -> String {
    std::fs::read_to_string(root().join(page)).unwrap()
}

/// The folder of the binary under test: first on PATH, so `queens-sat` in a command is it.
fn bin_dir() -> PathBuf {
    Path::new(BIN).parent().unwrap().to_path_buf()
}

fn uses(command: &str, program: &str) -> bool {
    command
        .split(|c: char| c.is_whitespace() || c == '|' || c == ';' || c == '(')
        .any(|w| w == program)
}

/// Runs the console blocks of one page in a folder of its own; returns the number of commands
/// run and the failures.
fn run_page(page: &Path) -> (usize, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    for link in ["tests", "examples"] {
        std::os::unix::fs::symlink(root().join(link), dir.path().join(link)).unwrap();
    }
    let path = std::env::join_paths(std::iter::once(bin_dir()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let mut redactions = snapbox::Redactions::new();
    redactions
        .insert("[CWD]", dir.path().to_path_buf())
        .unwrap();
    // Backslashes are the `\` diagonals here, not path separators: no path normalization.
    let assert = snapbox::Assert::new()
        .action_env("SNAPSHOTS")
        .normalize_paths(false)
        .palette(snapbox::report::Palette::plain())
        .redact_with(redactions);
    let (mut ran, mut failures) = (0, Vec::new());
    for block in blocks(&read(page)).iter().filter(|b| b.runs()) {
        let cases = block.cases();
        // A program the tests know how to install (common::PROGRAMS) that the block uses.
        let missing = PROGRAMS
            .iter()
            .map(|p| p.0)
            .find(|p| cases.iter().any(|c| uses(&c.command, p)) && !require(p));
        if let Some(p) = missing {
            eprintln!(
                "{}: skipped the block at line {}: no {p}",
                page.display(),
                block.line
            );
            continue;
        }
        for case in cases {
            // Output to files, not pipes, so that a command past the limit is named and
            // killed, not waited on.
            // Files of their own per command, and a process group of their own, so that a
            // command killed at the limit takes its children with it and writes nothing into
            // the next one's output.
            let (out_path, err_path) = (
                dir.path().join(format!(".stdout-{ran}")),
                dir.path().join(format!(".stderr-{ran}")),
            );
            let mut child = Command::new("sh")
                .arg("-c")
                .arg(&case.command)
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("QUEENS_SAT_PYTHON", crate::common::python())
                .env("COLUMNS", "100")
                .env_remove("CI")
                .stdin(Stdio::null())
                .stdout(std::fs::File::create(&out_path).unwrap())
                .stderr(std::fs::File::create(&err_path).unwrap())
                .process_group(0)
                .spawn()
                .unwrap();
            ran += 1;
            let status = match child.wait_timeout(LIMIT).unwrap() {
                Some(status) => status,
                None => {
                    // SAFETY: signals the command's own process group.
                    unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                    let _ = child.wait();
                    failures.push(format!(
                        "{} line {}: $ {}\n--- still running after {LIMIT:?}: killed",
                        page.display(),
                        case.line,
                        case.command
                    ));
                    continue;
                }
            };
            let out = std::process::Output {
                status,
                stdout: std::fs::read(&out_path).unwrap(),
                stderr: std::fs::read(&err_path).unwrap(),
            };
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            let expected = case.expected.join("\n");
            let name = format!("{} line {}", page.display(), case.line);
            let compared = assert.try_eq(
                Some(&name),
                snapbox::Data::text(stdout.trim_end().to_string()),
                snapbox::Data::text(expected.trim_end().to_string()),
            );
            if !out.status.success() || compared.is_err() {
                failures.push(format!(
                    "{name}: $ {}\n--- status {:?}, stderr:\n{}--- {}",
                    case.command,
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr),
                    compared
                        .err()
                        .map_or("output as shown".into(), |e| e.to_string()),
                ));
            }
        }
    }
    (ran, failures)
}

/// The number of commands the console blocks of README.md and docs/ hold.
fn command_count() -> usize {
    pages()
        .iter()
        .flat_map(|p| blocks(&read(p)))
        .filter(Block::runs)
        .map(|b| b.cases().len())
        .sum()
}

#[test]
fn every_documented_command_runs_as_shown() {
    let results: Vec<(PathBuf, usize, Vec<String>)> = pages()
        .par_iter()
        .map(|p| {
            let (ran, failures) = run_page(p);
            (p.clone(), ran, failures)
        })
        .collect();
    let ran: usize = results.iter().map(|r| r.1).sum();
    let shown_only: usize = pages()
        .iter()
        .flat_map(|p| blocks(&read(p)))
        .filter(|b| !b.runs() && b.shows_a_command())
        .count();
    eprintln!(
        "docs: {ran} documented commands run in {} pages; {shown_only} blocks shown, not run ({})",
        results.len(),
        SHOWN_ONLY.map(|(p, why)| format!("{p}: {why}")).join("; ")
    );
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.2).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn commands_are_shown_in_run_blocks_except_in_the_long_running_pages() {
    let mut offenders = Vec::new();
    for page in pages() {
        let allowed = shown_only_allows(&page);
        for block in blocks(&read(&page)) {
            if !block.runs() && block.shows_a_command() && !allowed {
                offenders.push(format!("{} line {}", page.display(), block.line));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "blocks with queens-sat commands that are not run (mark them `console` with their output): {}",
        offenders.join(", ")
    );
}

#[test]
fn the_readme_records_how_many_commands_the_docs_tests_run() {
    let count = command_count();
    let readme = read(Path::new("README.md"));
    let needle = format!("run {count} documented commands");
    assert!(
        readme.contains(&needle),
        "README.md should say \"{needle}\" (the count of `$ ` lines in console blocks)"
    );
}

#[test]
fn relative_links_and_anchors_resolve() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = read(&page);
        let base = page.parent().unwrap_or(Path::new(""));
        for (line, target) in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if file.is_empty() {
                page.clone()
            } else {
                base.join(file)
            };
            let full = root().join(&resolved);
            if !full.exists() {
                broken.push(format!(
                    "{} line {line}: {target} (no such file)",
                    page.display()
                ));
                continue;
            }
            if let Some(anchor) = anchor {
                if full.extension().is_some_and(|e| e == "md")
                    && !anchors(&std::fs::read_to_string(&full).unwrap())
                        .iter()
                        .any(|a| a == anchor)
                {
                    broken.push(format!(
                        "{} line {line}: {target} (no such heading)",
                        page.display()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_guide_lists_every_page() {
    let summary = read(Path::new("docs/SUMMARY.md"));
    let listed: Vec<String> = links(&summary).into_iter().map(|l| l.1).collect();
    for page in pages() {
        let Ok(rel) = page.strip_prefix("docs") else {
            continue;
        };
        let rel = rel.to_string_lossy().into_owned();
        if rel != "SUMMARY.md" {
            assert!(listed.contains(&rel), "docs/SUMMARY.md does not list {rel}");
        }
    }
}

/// The targets of the Markdown links `[text](target)` outside code, with their lines.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        // Drop inline code spans, then find "](".
        let mut plain = String::new();
        let mut in_span = false;
        for c in line.chars() {
            if c == '`' {
                in_span = !in_span;
            } else if !in_span {
                plain.push(c);
            }
        }
        let mut rest = plain.as_str();
        while let Some(k) = rest.find("](") {
            rest = &rest[k + 2..];
            if let Some(end) = rest.find(')') {
                let target = rest[..end].trim();
                if !target.is_empty() && !target.contains(' ') {
                    out.push((i + 1, target.to_string()));
                }
                rest = &rest[end..];
            }
        }
    }
    out
}

/// The anchors of a page's headings, as GitHub and mdBook make them: lower case, punctuation
/// dropped but `-` and `_`, spaces to `-`.
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        out.push(slug);
    }
    out
}

#[test]
fn the_parser_and_the_slugs() {
    let page = "text\n```console\n$ a\nx\n...\n$ b\n```\n```sh\nqueens-sat solve 8\n```\n```\nqueens-sat instance 1\n```\n";
    let b = blocks(page);
    assert_eq!(b.len(), 3);
    assert!(b[0].runs() && !b[1].runs() && b[1].shows_a_command());
    assert!(!b[2].runs() && !b[2].shows_a_command());
    let cases = b[0].cases();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].line, 3);
    assert_eq!(cases[0].expected, ["x", "..."]);
    assert_eq!(
        anchors("## Encoding: `queens-sat encode N`\n"),
        ["encoding-queens-sat-encode-n"]
    );
    assert_eq!(
        links("see [a](b.md#c) and `[x](y)`"),
        [(1, "b.md#c".to_string())]
    );
}

#[test]
fn shown_only_takes_pages_and_folders() {
    assert!(shown_only_allows(Path::new("docs/benchmarks.md")));
    assert!(shown_only_allows(Path::new("docs/lab/2026-11-25-x.md")));
    assert!(shown_only_allows(Path::new("docs/lab/README.md")));
    assert!(!shown_only_allows(Path::new("docs/labx.md")));
    assert!(!shown_only_allows(Path::new("docs/commands.md")));
    assert!(!shown_only_allows(Path::new("README.md")));
}

#[test]
fn rust_excerpts_are_in_their_examples() {
    let mut wrong = Vec::new();
    for page in pages() {
        for block in blocks(&read(&page)) {
            if block.info != "rust" {
                continue;
            }
            let Some(example) = block
                .lines
                .first()
                .and_then(|l| l.strip_prefix("// "))
                .filter(|f| f.starts_with("examples/"))
            else {
                continue;
            };
            let Ok(source) = std::fs::read_to_string(root().join(example)) else {
                wrong.push(format!(
                    "{} line {}: no {example}",
                    page.display(),
                    block.line
                ));
                continue;
            };
            let excerpt = block.lines[1..].join("\n");
            if !source.contains(&excerpt) {
                wrong.push(format!(
                    "{} line {}: the excerpt is not in {example}",
                    page.display(),
                    block.line
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_subcommand_list_is_the_programs() {
    let help = crate::common::run_ok(&["--help"]);
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(!listed.is_empty(), "no Commands: section in\n{help}");
    for c in &listed {
        assert!(SUBCOMMANDS.contains(c), "{c} is missing from SUBCOMMANDS");
    }
}
