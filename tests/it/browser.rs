//! The HTML trace in a real browser: Debian's `chromium`, headless, loads the page at
//! `#step=K` and dumps the DOM after its script ran; the board, the step and the highlighted
//! clause it shows are compared with the JSON trace of the same run, and the page must have
//! logged no script error. Without chromium the test is skipped with a message (a failure
//! under CI, which installs it).

use crate::common::{require, run, spawn, stderr, wait_bounded};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The DOM of `page` opened at `fragment`, after its scripts ran.
fn dump_dom(page: &Path, fragment: &str, scratch: &Path) -> String {
    let profile = tempfile::tempdir_in(scratch).unwrap();
    let out_path = profile.path().join("dom.html");
    let out = std::fs::File::create(&out_path).unwrap();
    let child = spawn(
        Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
            ])
            .arg(format!(
                "--user-data-dir={}",
                profile.path().join("p").display()
            ))
            .arg("--dump-dom")
            .arg(format!("file://{}#{fragment}", page.display()))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(Stdio::null()),
    );
    let status = wait_bounded(child, Duration::from_secs(30)).status;
    assert!(status.success(), "chromium failed: {status}");
    std::fs::read_to_string(&out_path).unwrap()
}

/// The start tag of the element with id `id`.
fn tag<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element #{id}"));
    let start = dom[..at].rfind('<').unwrap();
    let end = at + dom[at..].find('>').unwrap();
    &dom[start..=end]
}

/// An attribute of the element with id `id`.
fn attr(dom: &str, id: &str, name: &str) -> String {
    let t = tag(dom, id);
    let key = format!(" {name}=\"");
    let at = t
        .find(&key)
        .unwrap_or_else(|| panic!("#{id} has no {name}: {t}"))
        + key.len();
    t[at..at + t[at..].find('"').unwrap()].to_string()
}

/// The text inside the element with id `id` (no nested elements expected).
fn text(dom: &str, id: &str) -> String {
    let t = tag(dom, id);
    let at = dom.find(t).unwrap() + t.len();
    let end = at + dom[at..].find('<').unwrap();
    dom[at..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// Checks that the page shows step `k` of `trace` (0: the start).
fn shows_step(dom: &str, trace: &Value, k: usize, what: &str) {
    assert_eq!(text(dom, "errors"), "", "{what}: script errors");
    assert_eq!(attr(dom, "trace", "data-step"), k.to_string(), "{what}");
    let n = trace["n"].as_u64().unwrap() as usize;
    let steps = trace["steps"].as_array().unwrap();
    let step = k.checked_sub(1).map(|i| &steps[i]);
    for r in 0..n {
        for c in 0..n {
            let expected = match step {
                None => '.',
                Some(s) => s["board"][r].as_str().unwrap().as_bytes()[c] as char,
            };
            let expected = match expected {
                'Q' => "queen",
                'x' => "excluded",
                _ => "unknown",
            };
            let id = format!("cell-{}-{}", r + 1, c + 1);
            assert_eq!(attr(dom, &id, "data-state"), expected, "{what}: {id}");
            let changed = step.is_some_and(|s| {
                s["changed"]
                    .as_array()
                    .unwrap()
                    .contains(&serde_json::json!([r + 1, c + 1]))
            });
            assert_eq!(
                attr(dom, &id, "data-changed"),
                changed.to_string(),
                "{what}: {id}"
            );
        }
    }
    let clause = step.and_then(|s| s["clause"].as_u64());
    assert_eq!(
        attr(dom, "reason", "data-clause"),
        clause.map_or(String::new(), |c| c.to_string()),
        "{what}"
    );
    if let Some(i) = clause {
        assert_eq!(
            attr(dom, &format!("clause-{i}"), "data-highlight"),
            "true",
            "{what}"
        );
        let reason = text(dom, "reason");
        let clauses = trace["clauses"].as_array().unwrap();
        let expected = match clauses.get(i as usize) {
            Some(c) => format!(
                "{}  ({})",
                c["text"].as_str().unwrap(),
                c["meaning"].as_str().unwrap()
            ),
            None => steps
                .iter()
                .find(|s| s["kind"] == "learn" && s["clause"] == i)
                .map(|s| format!("learned {}", s["text"].as_str().unwrap()))
                .unwrap(),
        };
        assert_eq!(reason, format!("clause {i}: {expected}"), "{what}");
    }
    // Exactly one clause is highlighted, or none.
    assert_eq!(
        dom.matches(" data-highlight=\"true\"").count(),
        clause.is_some() as usize,
        "{what}"
    );
}

/// The HTML and the JSON trace of the same run.
fn make(dir: &Path, name: &str, args: &[&str]) -> (std::path::PathBuf, Value) {
    let page = dir.join(format!("{name}.html"));
    let mut a = vec!["trace", "--format", "html", "-o", page.to_str().unwrap()];
    a.extend_from_slice(args);
    let out = run(&a);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut a = vec!["trace", "--format", "json"];
    a.extend_from_slice(args);
    let out = run(&a);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (page, serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn the_html_trace_shows_the_steps_of_the_json_trace() {
    if !require("chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let html = std::fs::read_to_string(make(dir.path(), "probe", &["4"]).0).unwrap();
    // Self-contained: nothing is fetched.
    for outside in ["src=", "href=", "http://", "https://", "@import", "url("] {
        let found = html.replace("http://www.w3.org/2000/svg", "");
        assert!(!found.contains(outside), "the page refers to {outside}");
    }

    let (page4, t4) = make(dir.path(), "n4", &["4"]);
    let total4 = t4["steps"].as_array().unwrap().len();
    let conflict = t4["steps"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["kind"] == "conflict")
        .unwrap()
        + 1;
    for k in [0, 5, conflict] {
        let dom = dump_dom(&page4, &format!("step={k}"), dir.path());
        shows_step(&dom, &t4, k, &format!("n = 4 at step {k}"));
    }
    // The keys: two forward, one back; End; and a step past the end shows the last.
    let dom = dump_dom(
        &page4,
        "step=10&keys=ArrowRight,ArrowRight,ArrowLeft",
        dir.path(),
    );
    shows_step(&dom, &t4, 11, "n = 4, step 10 and the arrow keys");
    let dom = dump_dom(&page4, "step=3&keys=End", dir.path());
    shows_step(&dom, &t4, total4, "n = 4, End");
    assert!(text(&dom, "step-text").contains("2 4 1 3"));
    let dom = dump_dom(&page4, "step=999&keys=Home,ArrowRight", dir.path());
    shows_step(&dom, &t4, 1, "n = 4, Home");

    // CDCL on n = 6: a learned clause, its pattern on the board, and the step that uses it.
    let (page6, t6) = make(dir.path(), "n6", &["6", "--learning"]);
    let steps6 = t6["steps"].as_array().unwrap();
    let learn = steps6.iter().position(|s| s["kind"] == "learn").unwrap() + 1;
    let dom = dump_dom(&page6, &format!("step={learn}"), dir.path());
    shows_step(&dom, &t6, learn, "n = 6 at its first learn step");
    let mut pattern = 0;
    for l in steps6[learn - 1]["learned"].as_array().unwrap() {
        let l = l.as_i64().unwrap();
        let v = l.unsigned_abs() as usize;
        let (r, c) = ((v - 1) / 6 + 1, (v - 1) % 6 + 1);
        let expected = if l < 0 { "queen" } else { "empty" };
        assert_eq!(
            attr(&dom, &format!("cell-{r}-{c}"), "data-pattern"),
            expected
        );
        pattern += 1;
    }
    assert_eq!(
        dom.matches(" data-pattern=\"queen\"").count()
            + dom.matches(" data-pattern=\"empty\"").count(),
        pattern
    );
    // Two steps on: the asserting literal, propagated by the learned clause.
    let dom = dump_dom(&page6, &format!("step={}", learn + 2), dir.path());
    shows_step(&dom, &t6, learn + 2, "n = 6 after the backjump");
    assert_eq!(steps6[learn + 1]["kind"], "propagate");
    assert!(
        attr(&dom, "reason", "data-clause")
            .parse::<usize>()
            .unwrap()
            >= t6["clauses"].as_array().unwrap().len()
    );
}
