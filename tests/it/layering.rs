//! The layers of the crate, checked on the source text:
//!
//! * the CNF layer is plain SAT plumbing: nothing under `src/cnf/` may use the board-level
//!   modules (`encode`, `board`, `instance`) or anything above them;
//! * the board layer knows nothing of SAT: nothing under `src/board/` may use another module of
//!   the crate;
//! * the top-level modules of `src/` depend on one another without a cycle (an edge A -> B when
//!   a file of A mentions `crate::B`, in code or in docs);
//! * no two sibling files of one module import each other (the parent `mod.rs` aside; here only
//!   code counts, not a doc comment pointing at a sibling).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `path` (or `path` itself when it is a file), sorted.
fn rs_files(path: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            out.extend(rs_files(&p));
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || ch == '_'
}

/// The first path segments that follow `prefix` in `text`: `crate::a::b` gives `a` for the
/// prefix `crate::`, and `crate::{a::x, b}` gives `a` and `b`. With `after_colons`, the prefix
/// also counts right after `::` (for `super::super::x`); otherwise only at the start of a path.
fn mentioned(text: &str, prefix: &str, after_colons: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(prefix) {
        let start = from + at;
        from = start + prefix.len();
        let before = text[..start].chars().next_back();
        if before.is_some_and(is_ident) || (!after_colons && before == Some(':')) {
            continue;
        }
        let rest = &text[from..];
        if let Some(group) = rest.strip_prefix('{') {
            // A group: the first segment of each item at the top level.
            let mut depth = 0;
            let mut item_start = true;
            let mut word = String::new();
            for ch in group.chars() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && is_ident(c) => word.push(c),
                    _ => {
                        if item_start && !word.is_empty() {
                            out.insert(std::mem::take(&mut word));
                            item_start = false;
                        }
                    }
                }
            }
            if item_start && !word.is_empty() {
                out.insert(word);
            }
        } else {
            let word: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !word.is_empty() {
                out.insert(word);
            }
        }
    }
    out.remove("self");
    out.remove("super");
    out
}

/// The text without its comment lines (`//`, `///`, `//!`): the code.
fn code_only(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules the library declares in `src/lib.rs`.
fn top_level_modules() -> Vec<String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(|m| m.trim().to_string())
        })
        .collect()
}

/// The source files of top-level module `m`: `src/m.rs` or everything under `src/m/`.
fn files_of(m: &str) -> Vec<PathBuf> {
    let dir = src().join(m);
    if dir.is_dir() {
        rs_files(&dir)
    } else {
        vec![src().join(format!("{m}.rs"))]
    }
}

/// The graph of the top-level modules: A -> B when a file of A mentions `crate::B`.
fn top_level_graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = top_level_modules();
    let known: BTreeSet<&str> = modules.iter().map(String::as_str).collect();
    modules
        .iter()
        .map(|m| {
            let mut to = BTreeSet::new();
            for f in files_of(m) {
                let text = std::fs::read_to_string(&f).unwrap();
                to.extend(
                    mentioned(&text, "crate::", false)
                        .into_iter()
                        .filter(|b| b != m && known.contains(b.as_str())),
                );
            }
            (m.clone(), to)
        })
        .collect()
}

/// The graph as text, one module a line.
fn show(graph: &BTreeMap<String, BTreeSet<String>>) -> String {
    graph
        .iter()
        .map(|(a, to)| {
            format!(
                "  {a} -> {}\n",
                to.iter().cloned().collect::<Vec<_>>().join(" ")
            )
        })
        .collect()
}

/// The cycles of the graph: for each strongly connected component of more than one module,
/// a shortest cycle through its first module, as `a -> b -> a`.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<(BTreeSet<String>, String)> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(a) = todo.pop() {
            for b in &graph[&a] {
                if seen.insert(b.clone()) {
                    todo.push(b.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|a| (a, reach(a))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for a in graph.keys() {
        if done.contains(a) || !reaches[a].contains(a) {
            continue;
        }
        let scc: BTreeSet<String> = reaches[a]
            .iter()
            .filter(|b| reaches[b].contains(a))
            .cloned()
            .collect();
        done.extend(scc.iter().cloned());
        // Breadth first from `a` inside the component, back to `a`.
        let mut parent: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = VecDeque::from([a.clone()]);
        'search: while let Some(x) = queue.pop_front() {
            for y in graph[&x].iter().filter(|y| scc.contains(*y)) {
                if y == a {
                    parent.insert(format!("{a}'"), x.clone());
                    break 'search;
                }
                if !parent.contains_key(y) {
                    parent.insert(y.clone(), x.clone());
                    queue.push_back(y.clone());
                }
            }
        }
        let mut path = vec![a.clone()];
        let mut at = parent[&format!("{a}'")].clone();
        while at != *a {
            path.push(at.clone());
            at = parent[&at].clone();
        }
        path.push(a.clone());
        path.reverse();
        out.push((scc, path.join(" -> ")));
    }
    out
}

#[test]
fn cnf_layer_uses_no_board_module() {
    let files = rs_files(&src().join("cnf"));
    assert!(files.len() >= 2, "src/cnf has its files");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        for module in [
            "encode",
            "board",
            "check",
            "instance",
            "solve",
            "explain",
            "crosscheck",
            "count",
        ] {
            let needle = format!("crate::{module}");
            assert!(!text.contains(&needle), "{} uses {needle}", path.display());
        }
    }
}

#[test]
fn board_layer_uses_no_other_module() {
    let files = rs_files(&src().join("board"));
    assert!(files.len() >= 6, "src/board has its files");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let used: Vec<String> = mentioned(&text, "crate::", false)
            .into_iter()
            .filter(|m| m != "board")
            .collect();
        assert!(
            used.is_empty(),
            "{} uses crate::{}: the board layer knows nothing of the rest of the crate",
            path.display(),
            used.join(", crate::")
        );
        // Doc examples name the crate by its name; `super::super` would leave the layer too.
        let named: Vec<String> = mentioned(&text, "queens_sat::", false)
            .into_iter()
            .filter(|m| m != "board" && m != "Placement")
            .collect();
        assert!(
            named.is_empty(),
            "{} uses queens_sat::{}",
            path.display(),
            named.join(", queens_sat::")
        );
        assert!(
            !text.contains("super::super::"),
            "{} reaches past the board layer with super::super",
            path.display()
        );
    }
}

/// The mention finder reads plain paths, groups and nested `super`s.
#[test]
fn mentions_are_read_from_paths_and_groups() {
    let text = "use crate::a::X;\nuse crate::{b::Y, c, self};\n/// [`crate::d`] and xcrate::e\n\
                use super::super::f;\nuse super::{g::Z, h};";
    let crate_paths: Vec<String> = mentioned(text, "crate::", false).into_iter().collect();
    assert_eq!(crate_paths, ["a", "b", "c", "d"]);
    let super_paths: Vec<String> = mentioned(text, "super::", true).into_iter().collect();
    assert_eq!(super_paths, ["f", "g", "h"]);
}

/// The top-level modules form no cycle.
#[test]
fn top_level_modules_form_no_cycle() {
    let graph = top_level_graph();
    let found = cycles(&graph);
    assert!(
        found.is_empty(),
        "the top-level modules form cycles:\n{}\nthe graph:\n{}",
        found
            .iter()
            .map(|(_, c)| format!("  {c}\n"))
            .collect::<String>(),
        show(&graph)
    );
}

/// Within each module, siblings (`a.rs`, `b.rs` or `b/`) never import each other both ways:
/// what two files share belongs in one of them or a third. Only code counts (a doc comment
/// may point at the sibling that uses a file).
#[test]
fn sibling_files_do_not_import_each_other() {
    let mut dirs = vec![];
    let mut todo: Vec<PathBuf> = std::fs::read_dir(src())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    while let Some(d) = todo.pop() {
        todo.extend(
            std::fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_dir()),
        );
        dirs.push(d);
    }
    assert!(dirs.len() >= 10, "the module folders are found");
    let mut pairs = Vec::new();
    for dir in dirs {
        // The module path of the folder, as `crate::count::` or `crate::encode::amo::`.
        let rel = dir.strip_prefix(src()).unwrap();
        let module: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let crate_prefix = format!("crate::{}::", module.join("::"));
        let mut siblings: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                siblings.insert(name, rs_files(&p));
            } else if p.extension().is_some_and(|e| e == "rs") && name != "mod" {
                siblings.insert(name, vec![p]);
            }
        }
        let mut uses: BTreeMap<&String, BTreeSet<String>> = BTreeMap::new();
        for (a, files) in &siblings {
            let mut to = BTreeSet::new();
            for f in files {
                let text = code_only(&std::fs::read_to_string(f).unwrap());
                to.extend(mentioned(&text, "super::", true));
                to.extend(mentioned(&text, &crate_prefix, false));
            }
            to.retain(|b| b != a && siblings.contains_key(b));
            uses.insert(a, to);
        }
        for (a, to) in &uses {
            for b in to {
                if *a < b && uses[b].contains(*a) {
                    pairs.push(format!("{}: {a} <-> {b}", rel.display()));
                }
            }
        }
    }
    assert!(
        pairs.is_empty(),
        "sibling files import each other:\n{}",
        pairs.join("\n")
    );
}
