//! docs/architecture.md is kept true to the code. Two rules:
//!
//! 1. **Every path the page names exists.** A path is a word (the text between white space) of
//!    a backticked span outside the fenced code blocks that starts with one of [`ROOTS`]
//!    (`src/`, `tests/`, `benches/`, `fuzz/`, `docs/`, `examples/`, `python/`), a trailing
//!    `.`, `,`, `;`, `:` or `)` dropped; one that ends in `/` must be a folder. In a row of a
//!    table whose first cell is one backticked folder (`src/solve/`), a word of the row's
//!    other spans that looks like a file or folder name ([`looks_like_a_file`]: lower case
//!    letters, digits, `_`, `-`, `.` and `/`, ending in `/` or in one of [`EXTENSIONS`]) is a
//!    path relative to that folder: `runner/mod.rs` in the row of `src/solve/` is
//!    `src/solve/runner/mod.rs`.
//!
//!    A path with a wildcard (`*`, `?`, `[`, `]`, `{`, `}`, `<`, `>`) or `...`, or with a
//!    placeholder (a word of two or more capital letters: `NAME`, `YYYY`), is a pattern, not a
//!    path, and is not checked: `src/encode/amo/NAME.rs`. A file whose name is in capitals
//!    (a README) is therefore linked from the page rather than named in backticks.
//! 2. **Every top-level module is named.** Each `mod NAME;` line at the top level of
//!    `src/lib.rs`, and of `src/main.rs` (the binary's `cli`), must be named on the page as
//!    `src/NAME/` when the module is a folder, `src/NAME.rs` when it is a file, so that a
//!    module added, moved or renamed shows up here until the page says what it is for.

use std::path::{Path, PathBuf};

/// The folders of the repository whose paths the page is held to.
const ROOTS: [&str; 7] = [
    "src/",
    "tests/",
    "benches/",
    "fuzz/",
    "docs/",
    "examples/",
    "python/",
];

/// The extensions of a file named relative to a table row's folder.
const EXTENSIONS: [&str; 9] = ["rs", "py", "sh", "css", "js", "md", "c", "toml", "txt"];

/// Whether a path starts with one of [`ROOTS`].
fn under_a_root(path: &str) -> bool {
    ROOTS.iter().any(|r| path.starts_with(r))
}

/// The repository's top folder.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path the page names, with the line that names it.
#[derive(Debug, Clone, PartialEq)]
struct Named {
    line: usize,
    path: String,
}

/// The texts between backticks of a line.
fn spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// Whether a word is a file or folder name (rule 1), to be read relative to a row's folder.
fn looks_like_a_file(word: &str) -> bool {
    let plain = word
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_-./".contains(c));
    let named = word.ends_with('/')
        || word
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext));
    plain && named && !word.starts_with(['-', '.', '/'])
}

/// Whether a path is a pattern (a wildcard, `...`, or a placeholder in capitals), not checked.
fn is_pattern(path: &str) -> bool {
    path.contains(['*', '?', '[', ']', '{', '}', '<', '>'])
        || path.contains("...")
        || path
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase()))
}

/// The folder a table row's paths are relative to: its first cell, when that is one backticked
/// folder under one of the roots.
fn row_folder(line: &str) -> Option<&str> {
    let first = line.trim().strip_prefix('|')?.split('|').next()?.trim();
    let folder = first.strip_prefix('`')?.strip_suffix('`')?;
    (folder.ends_with('/') && !folder.contains([' ', '`']) && under_a_root(folder))
        .then_some(folder)
}

/// Every path a page names (rule 1), in the order of the page, patterns included.
fn named_paths(page: &str) -> Vec<Named> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in page.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let folder = row_folder(line);
        for span in spans(line) {
            for word in span.split_whitespace() {
                let word = word.trim_end_matches(['.', ',', ';', ':', ')']);
                let path = if under_a_root(word) {
                    word.to_string()
                } else if let Some(folder) = folder.filter(|_| looks_like_a_file(word)) {
                    format!("{folder}{word}")
                } else {
                    continue;
                };
                out.push(Named { line: i + 1, path });
            }
        }
    }
    out
}

/// The named paths (not patterns) that do not exist under `root`, as `line L: PATH`.
fn missing(root: &Path, named: &[Named]) -> Vec<String> {
    named
        .iter()
        .filter(|n| !is_pattern(&n.path))
        .filter(|n| {
            let full = root.join(&n.path);
            if n.path.ends_with('/') {
                !full.is_dir()
            } else {
                !full.exists()
            }
        })
        .map(|n| format!("line {}: {}", n.line, n.path))
        .collect()
}

/// The modules declared at the top level of a source file (`mod NAME;`, `pub mod NAME;`,
/// `pub(crate) mod NAME;`, without indentation).
fn modules(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|l| {
            let rest = l
                .strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("pub(crate) mod "))
                .or_else(|| l.strip_prefix("mod "))?;
            let name = rest.trim_end().strip_suffix(';')?;
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
                .then(|| name.to_string())
        })
        .collect()
}

/// The modules (rule 2) that the page does not name as `src/NAME/` or `src/NAME.rs`,
/// whichever the module is under `root`; each as the path the page should name.
fn unnamed(root: &Path, modules: &[String], named: &[Named]) -> Vec<String> {
    modules
        .iter()
        .map(|m| {
            if root.join("src").join(m).is_dir() {
                format!("src/{m}/")
            } else {
                format!("src/{m}.rs")
            }
        })
        .filter(|want| !named.iter().any(|n| &n.path == want))
        .collect()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn the_architecture_page_names_only_paths_that_exist() {
    let named = named_paths(&read("docs/architecture.md"));
    assert!(
        named.len() > 50,
        "docs/architecture.md names only {} paths: is the page (or the rule) broken?",
        named.len()
    );
    let missing = missing(&root(), &named);
    assert!(
        missing.is_empty(),
        "docs/architecture.md names paths that do not exist (fix the page, or write a pattern \
         as one: see the rules at the top of tests/it/architecture.rs):\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_architecture_page_names_every_top_level_module() {
    let named = named_paths(&read("docs/architecture.md"));
    let mut mods = modules(&read("src/lib.rs"));
    mods.extend(modules(&read("src/main.rs")));
    assert!(
        mods.len() > 10 && mods.iter().any(|m| m == "cli"),
        "too few modules read from src/lib.rs and src/main.rs: {mods:?}"
    );
    let unnamed = unnamed(&root(), &mods, &named);
    assert!(
        unnamed.is_empty(),
        "docs/architecture.md does not name these top-level modules (say what each is for): {}",
        unnamed.join(", ")
    );
}

#[test]
fn the_rules_on_a_page_of_our_own() {
    let page = "\
Text `src/lib.rs` and `src/nowhere.rs`, a pattern `src/encode/amo/NAME.rs`, `docs/lab/*.md`.
```
`src/in_a_code_block.rs`
```
| where | what |
|---|---|
| `src/solve/` | `backend.rs`, `runner/mod.rs`, `gone.rs`, `gone/`, `--backend`, `Backend::check_options` |
| `src/lib.rs` | `mod.rs` is not relative to a file |
See `cargo test` and `src/cnf/` (a folder), `src/lib.rs/` (not one).
";
    let named = named_paths(page);
    let paths: Vec<&str> = named.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "src/lib.rs",
            "src/nowhere.rs",
            "src/encode/amo/NAME.rs",
            "docs/lab/*.md",
            "src/solve/",
            "src/solve/backend.rs",
            "src/solve/runner/mod.rs",
            "src/solve/gone.rs",
            "src/solve/gone/",
            "src/lib.rs",
            "src/cnf/",
            "src/lib.rs/",
        ]
    );
    assert_eq!(
        missing(&root(), &named),
        [
            "line 1: src/nowhere.rs",
            "line 7: src/solve/gone.rs",
            "line 7: src/solve/gone/",
            "line 9: src/lib.rs/",
        ]
    );
    assert!(is_pattern("docs/lab/YYYY-MM-DD-topic.md") && is_pattern("src/..."));
    assert!(!is_pattern("src/count/core.rs") && !is_pattern("tests/data/csplib-prob079/"));
    assert!(looks_like_a_file("dimacs/read.rs") && looks_like_a_file("runner/"));
    assert!(
        !looks_like_a_file("--proof") && !looks_like_a_file("Verdict") && !looks_like_a_file("rs")
    );

    let lib = "//! mod docs;\npub mod board;\npub(crate) mod cnf;\nmod hidden;\n    mod nested;\nmod inline {\n}\n";
    assert_eq!(modules(lib), ["board", "cnf", "hidden"]);
    let mods = [
        "board".to_string(),
        "solve".to_string(),
        "symmetry".to_string(),
    ];
    assert_eq!(
        unnamed(&root(), &mods, &named),
        ["src/board/", "src/symmetry.rs"]
    );
}
