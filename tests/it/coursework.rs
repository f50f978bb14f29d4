//! docs/coursework.md and its answers (docs/coursework-answers.md) cover the course's exercises
//! (their commands run with the rest of the documentation, in [`crate::docs`]), and the examples/ programs, when built (plain
//! `cargo test` builds them), run and pass their own checks.

use crate::common::{output, BIN};
use std::path::Path;
use std::process::Command;

const DOC: &str = include_str!("../../docs/coursework.md");
/// The answers to its exercises, with the commands that check them.
const ANSWERS: &str = include_str!("../../docs/coursework-answers.md");

#[test]
fn the_coursework_covers_the_exercises() {
    let commands: Vec<String> = [DOC, ANSWERS]
        .iter()
        .flat_map(|page| crate::docs::blocks(page))
        .filter(|b| b.runs())
        .flat_map(|b| b.cases())
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

/// Runs the example programs if this build made them (`cargo test` without a filter builds
/// every example into target/<profile>/examples).
#[test]
fn examples_run_and_pass_their_own_checks() {
    let dir = Path::new(BIN).parent().unwrap().join("examples");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("q6.cnf");
    let runs: [(&str, Vec<&std::ffi::OsStr>); 6] = [
        ("encode_to_file", vec!["6".as_ref(), file.as_os_str()]),
        ("solve", vec!["10".as_ref()]),
        ("enumerate", vec![]),
        ("explain", vec![]),
        ("readme", vec![]),
        ("custom_amo", vec![]),
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

/// The course can be handed out: every exercise has a difficulty mark and a link to its answer
/// on the answers page, whose heading exists there, and the course itself shows no answer.
#[test]
fn every_exercise_links_to_its_answer_on_a_page_of_its_own() {
    let anchors: Vec<String> = ANSWERS
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|h| {
            h.to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect();
    let lines: Vec<&str> = DOC.lines().collect();
    let exercises: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("### Exercise"))
        .collect();
    assert!(exercises.len() >= 10, "{} exercises", exercises.len());
    for &i in &exercises {
        let heading = lines[i];
        assert!(heading.contains('★'), "no difficulty mark: {heading}");
        let end = lines[i + 1..]
            .iter()
            .position(|l| l.starts_with('#'))
            .map_or(lines.len(), |k| i + 1 + k);
        let body = lines[i..end].join("\n");
        let link = body
            .split("(coursework-answers.md#")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .unwrap_or_else(|| panic!("no link to an answer: {heading}"));
        assert!(
            anchors.iter().any(|a| a == link),
            "{heading}: no heading of the answers page for #{link}"
        );
        assert!(
            !body.contains("```console"),
            "{heading} shows its answer's commands"
        );
        assert!(
            !body.contains("(Answer:"),
            "{heading} gives its answer inline"
        );
    }
}
