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
        let expected = match (i as usize).checked_sub(1).and_then(|i| clauses.get(i)) {
            Some(c) => match c["meaning"].as_str().unwrap() {
                "" => c["text"].as_str().unwrap().to_string(),
                meaning => format!("{}  ({meaning})", c["text"].as_str().unwrap()),
            },
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
            > t6["clauses"].as_array().unwrap().len()
    );
}

// ---- A page driven through Chromium's DevTools protocol ----

/// A page open in headless Chromium, driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: commands in on file descriptor 3, answers out on 4, each
/// message JSON ended by a NUL byte). Clicks and keys are real input events at the element's
/// place on the screen, as a user's would be.
struct Browser {
    child: std::process::Child,
    to: std::fs::File,
    from: std::sync::mpsc::Receiver<Value>,
    next_id: u64,
    session: String,
    _profile: tempfile::TempDir,
}

/// A pipe whose two ends close on exec.
fn cloexec_pipe() -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd) {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into `fds`, which we then own.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors are fresh and owned by nobody else.
    unsafe {
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    }
}

impl Browser {
    /// Opens `page` at `#fragment` and waits until its script has run.
    fn open(page: &Path, fragment: &str, scratch: &Path) -> Browser {
        use std::io::BufRead;
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        let profile = tempfile::tempdir_in(scratch).unwrap();
        let (commands_in, commands_out) = cloexec_pipe();
        let (answers_in, answers_out) = cloexec_pipe();
        let mut cmd = Command::new("chromium");
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--no-default-browser-check",
            "--remote-debugging-pipe",
            "--window-size=1600,1200",
        ])
        .arg(format!(
            "--user-data-dir={}",
            profile.path().join("p").display()
        ))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        let (r, w) = (commands_in.as_raw_fd(), answers_out.as_raw_fd());
        // SAFETY: fcntl and dup2 are async-signal-safe. Both ends are first copied above 10, so
        // that placing one on 3 cannot overwrite the other; dup2's copies stay open on exec.
        unsafe {
            cmd.pre_exec(move || {
                let r = libc::fcntl(r, libc::F_DUPFD, 10);
                let w = libc::fcntl(w, libc::F_DUPFD, 10);
                if r < 0 || w < 0 || libc::dup2(r, 3) < 0 || libc::dup2(w, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = spawn(&mut cmd);
        drop(commands_in);
        drop(answers_out);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut r = std::io::BufReader::new(std::fs::File::from(answers_in));
            loop {
                let mut buf = Vec::new();
                match r.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf) {
                            if tx.send(v).is_err() {
                                break;
                            }
                        }
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            to: std::fs::File::from(commands_out),
            from: rx,
            next_id: 0,
            session: String::new(),
            _profile: profile,
        };
        let url = format!("file://{}#{fragment}", page.display());
        let target = b.call(
            None,
            "Target.createTarget",
            serde_json::json!({ "url": url }),
        );
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            None,
            "Target.attachToTarget",
            serde_json::json!({ "targetId": target, "flatten": true }),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        let start = std::time::Instant::now();
        while b.eval("document.readyState === 'complete' && !!document.getElementById('trace') && document.getElementById('counter').textContent !== ''")
            != Value::Bool(true)
        {
            assert!(start.elapsed() < Duration::from_secs(30), "the page did not load");
            std::thread::sleep(Duration::from_millis(50));
        }
        b
    }

    /// Sends one command (to the page's session, or to the browser) and returns its result.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        use std::io::Write;
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = serde_json::json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = Value::String(s.to_string());
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        loop {
            let answer = self
                .from
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|e| panic!("no answer from chromium to {method}: {e}"));
            if answer["id"] == id {
                assert!(
                    answer.get("error").is_none(),
                    "{method}: {}",
                    answer["error"]
                );
                return answer["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page (a thrown error fails the test).
    fn eval(&mut self, expression: &str) -> Value {
        let session = self.session.clone();
        let r = self.call(
            Some(&session),
            "Runtime.evaluate",
            serde_json::json!({ "expression": expression, "returnByValue": true }),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "{expression}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// An attribute of the element `selector` (a CSS selector), `None` when there is no such
    /// element or attribute.
    fn attr(&mut self, selector: &str, name: &str) -> Option<String> {
        let v = self.eval(&format!(
            "(function () {{ var e = document.querySelector({}); return e ? e.getAttribute({}) : null; }})()",
            serde_json::to_string(selector).unwrap(),
            serde_json::to_string(name).unwrap()
        ));
        v.as_str().map(str::to_string)
    }

    /// A left click in the middle of the element `selector`, with shift held when `shift`.
    fn click(&mut self, selector: &str, shift: bool) {
        let at = self.eval(&format!(
            "(function () {{ var e = document.querySelector({}); if (!e) return null; e.scrollIntoView({{block: 'center', inline: 'center'}}); var r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }})()",
            serde_json::to_string(selector).unwrap()
        ));
        let at = at
            .as_array()
            .unwrap_or_else(|| panic!("no element {selector} to click"));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let session = self.session.clone();
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                Some(&session),
                "Input.dispatchMouseEvent",
                serde_json::json!({
                    "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1,
                    "modifiers": if shift { 8 } else { 0 }
                }),
            );
        }
    }

    /// A key pressed and released (`ArrowRight`, `ArrowLeft`, `Home`, `End`).
    fn key(&mut self, key: &str) {
        let code = match key {
            "ArrowLeft" => 37,
            "ArrowRight" => 39,
            "Home" => 36,
            "End" => 35,
            _ => panic!("no key code for {key}"),
        };
        let session = self.session.clone();
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                Some(&session),
                "Input.dispatchKeyEvent",
                serde_json::json!({
                    "type": kind, "key": key, "code": key,
                    "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code
                }),
            );
        }
    }

    /// The step the page shows.
    fn step(&mut self) -> usize {
        self.attr("#trace", "data-step").unwrap().parse().unwrap()
    }

    /// Opens step `k` of the branch shown, by the page's own first and forward buttons.
    fn go(&mut self, k: usize) {
        self.eval(&format!(
            "(function () {{ document.getElementById('first').click(); for (var i = 0; i < {k}; i++) document.getElementById('next').click(); }})()"
        ));
        assert_eq!(self.step(), k);
    }

    /// The text the page wrote into `pre#errors` (empty when no script failed).
    fn errors(&mut self) -> String {
        self.eval("document.getElementById('errors').textContent")
            .as_str()
            .unwrap()
            .to_string()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        use std::io::Write;
        use wait_timeout::ChildExt;
        let _ = self
            .to
            .write_all(b"{\"id\":999999,\"method\":\"Browser.close\"}\0");
        if !matches!(
            self.child.wait_timeout(Duration::from_secs(10)),
            Ok(Some(_))
        ) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The number of the formula's first clause in the trace JSON.
const FIRST_CLAUSE: u64 = 1;

/// The literals of clause number `k` of `trace`: the formula's, then the learned clauses in
/// the order of their learn steps.
fn clause_lits(trace: &Value, k: u64) -> Vec<i64> {
    let clauses = trace["clauses"].as_array().unwrap();
    let lits = match k
        .checked_sub(FIRST_CLAUSE)
        .and_then(|i| clauses.get(i as usize))
    {
        Some(c) => &c["lits"],
        None => &trace["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["kind"] == "learn" && s["clause"] == k)
            .unwrap_or_else(|| panic!("no clause {k}"))["learned"],
    };
    lits.as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_i64().unwrap())
        .collect()
}

/// The ids of the elements that `selector` finds, sorted.
fn ids(b: &mut Browser, selector: &str) -> Vec<String> {
    let v = b.eval(&format!(
        "Array.prototype.map.call(document.querySelectorAll({}), function (e) {{ return e.id; }})",
        serde_json::to_string(selector).unwrap()
    ));
    let mut ids: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

/// The decision of each level after step `k` (1-based), replayed from the JSON steps: a
/// decision or a flip on level l replaces the levels from l on, a jump back to level l drops
/// the levels above it.
fn decisions_after(trace: &Value, k: usize) -> Vec<i64> {
    let mut stack: Vec<i64> = Vec::new();
    for s in &trace["steps"].as_array().unwrap()[..k] {
        let level = s["level"].as_u64().unwrap() as usize;
        match s["kind"].as_str().unwrap() {
            "decide" | "flip" => {
                stack.truncate(level - 1);
                stack.push(s["literal"].as_i64().unwrap());
            }
            "backjump" | "backtrack" | "restart" => stack.truncate(level),
            _ => {}
        }
    }
    stack
}

/// The conflicts of CDCL on n = 6 on the page: the false clause's cells on the board, the
/// implication graph's first UIP (the negation of the asserting literal the solver learned
/// next), the search tree's current decision and conflict leaves; the breakpoints stop where
/// the JSON trace first has the conflict or the literal.
#[test]
fn the_page_marks_conflicts_draws_the_graph_and_the_tree_and_stops_at_breakpoints() {
    if !require("chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (page, t) = make(dir.path(), "n6", &["6", "--learning"]);
    let steps = t["steps"].as_array().unwrap();
    let n = 6;
    let mut b = Browser::open(&page, "step=0", dir.path());
    assert_eq!(b.attr("#trace", "data-branch").as_deref(), Some("recorded"));
    let conflicts: Vec<usize> = (1..=steps.len())
        .filter(|&k| steps[k - 1]["kind"] == "conflict")
        .collect();
    assert!(conflicts.len() >= 3, "n = 6 has few conflicts");
    for &c in &conflicts {
        b.go(c);
        let s = &steps[c - 1];
        let clause = s["clause"].as_u64().unwrap();
        // The cells of the false clause's literals, and no other.
        let mut expected: Vec<String> = clause_lits(&t, clause)
            .iter()
            .filter_map(|l| t["cells"][(l.unsigned_abs() - 1) as usize].as_array())
            .map(|rc| format!("cell-{}-{}", rc[0], rc[1]))
            .collect();
        expected.sort();
        expected.dedup();
        assert!(!expected.is_empty());
        assert_eq!(
            ids(&mut b, "rect[data-conflict=\"true\"]"),
            expected,
            "step {c}"
        );
        // The graph's first UIP is what the solver's own analysis found: the learned
        // clause's first literal is its negation.
        assert_eq!(steps[c]["kind"], "learn");
        let asserting = steps[c]["learned"][0].as_i64().unwrap();
        assert_eq!(
            b.attr("#graph", "data-conflict"),
            Some(clause.to_string()),
            "step {c}"
        );
        assert_eq!(
            b.attr("#graph", "data-uip"),
            Some((-asserting).to_string()),
            "step {c}"
        );
        assert_eq!(
            b.attr("#graph .node[data-uip=\"true\"]", "data-lit"),
            Some((-asserting).to_string())
        );
        // The tree: the current node is the decision of the conflict's level; one leaf per
        // conflict so far.
        let path = decisions_after(&t, c);
        assert_eq!(path.len() as u64, s["level"].as_u64().unwrap());
        assert_eq!(
            b.attr("#tree li[data-current=\"true\"]", "data-lit"),
            path.last().map(|l| l.to_string()),
            "step {c}"
        );
        let leaves = conflicts.iter().filter(|&&k| k <= c).count();
        assert_eq!(
            b.eval("document.querySelectorAll('#tree li.t-conflict').length"),
            serde_json::json!(leaves)
        );
        // The learn step keeps the graph; its pattern is not the conflict's mark.
        b.key("ArrowRight");
        assert_eq!(b.step(), c + 1);
        assert_eq!(b.attr("#graph", "data-uip"), Some((-asserting).to_string()));
        assert!(ids(&mut b, "rect[data-conflict=\"true\"]").is_empty());
    }
    // No conflict: no graph.
    b.go(1);
    assert_eq!(b.attr("#graph", "data-uip").as_deref(), Some(""));

    // Breakpoints: the next conflict, twice, with the button.
    b.go(0);
    b.click("#run-conflict", false);
    assert_eq!(b.step(), conflicts[0]);
    assert_eq!(
        b.attr("#break-status", "data-stopped").as_deref(),
        Some("break")
    );
    b.click("#run-conflict", false);
    assert_eq!(b.step(), conflicts[1]);
    // Until a literal is assigned: a click on its cell in breakpoint mode (shift for the
    // negative literal). The literal: a cell's, forced some steps after the first conflict.
    b.click("#mode-break", false);
    let from = b.step();
    let assigning = |s: &Value| matches!(s["kind"].as_str(), Some("decide" | "flip" | "propagate"));
    for negative in [true, false] {
        let from = b.step();
        let (j, lit) = (from + 3..steps.len())
            .map(|j| (j, &steps[j - 1]))
            .find(|(_, s)| {
                assigning(s)
                    && (s["literal"].as_i64().unwrap() < 0) == negative
                    && t["cells"][(s["literal"].as_i64().unwrap().unsigned_abs() - 1) as usize]
                        .is_array()
            })
            .map(|(j, s)| (j, s["literal"].as_i64().unwrap()))
            .expect("a literal assigned later");
        let first = (from + 1..=steps.len())
            .find(|&k| assigning(&steps[k - 1]) && steps[k - 1]["literal"] == lit)
            .unwrap();
        assert!(first <= j);
        let rc = &t["cells"][(lit.unsigned_abs() - 1) as usize];
        b.click(&format!("#cell-{}-{}", rc[0], rc[1]), negative);
        assert_eq!(b.step(), first, "run until {lit} from step {from}");
        assert_eq!(b.attr("#trace", "data-literal"), Some(lit.to_string()));
        assert_eq!(b.attr("#trace", "data-branch").as_deref(), Some("recorded"));
    }
    assert!(b.step() > from);
    // A literal never assigned again: the run ends at the last step and says so.
    let last_var = (1..=n * n).find(|&v| {
        !steps[b.step()..]
            .iter()
            .any(|s| assigning(s) && s["literal"] == serde_json::json!(v))
    });
    if let Some(v) = last_var {
        b.eval(&format!(
            "document.getElementById('break-literal').value = '{v}'"
        ));
        b.click("#run-literal", false);
        assert_eq!(b.step(), steps.len());
        assert_eq!(
            b.attr("#break-status", "data-stopped").as_deref(),
            Some("end")
        );
    }
    assert_eq!(b.errors(), "");
}

/// The steps of the branch the page shows, read off the page through its forward button:
/// the kind, literal, level, clause and board of each (the page is left at its last step).
fn page_steps(b: &mut Browser, n: usize) -> Vec<Value> {
    let v = b.eval(&format!(
        "(function () {{
          var m = document.getElementById('trace'); var out = [];
          document.getElementById('first').click();
          while (+m.getAttribute('data-step') < +m.getAttribute('data-steps')) {{
            document.getElementById('next').click();
            var board = [];
            for (var r = 1; r <= {n}; r++) {{
              var row = '';
              for (var c = 1; c <= {n}; c++) {{
                var st = document.getElementById('cell-' + r + '-' + c).getAttribute('data-state');
                row += st === 'queen' ? 'Q' : st === 'excluded' ? 'x' : '.';
              }}
              board.push(row);
            }}
            out.push({{ kind: m.getAttribute('data-kind'), literal: m.getAttribute('data-literal'),
              level: m.getAttribute('data-level'),
              clause: document.getElementById('reason').getAttribute('data-clause'), board: board }});
          }}
          return out;
        }})()"
    ));
    v.as_array().unwrap().clone()
}

/// The same fields of the JSON trace's steps, as the page writes them.
fn json_steps(trace: &Value) -> Vec<Value> {
    let text = |v: &Value| match v {
        Value::Null => String::new(),
        v => v.to_string(),
    };
    trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            serde_json::json!({
                "kind": s["kind"], "literal": text(&s["literal"]), "level": text(&s["level"]),
                "clause": text(&s["clause"]), "board": s["board"]
            })
        })
        .collect()
}

/// The 1-based number of the `k`-th decide step of `trace`.
fn kth_decision(trace: &Value, k: usize) -> usize {
    trace["steps"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, s)| s["kind"] == "decide")
        .nth(k - 1)
        .map(|(i, _)| i + 1)
        .unwrap_or_else(|| panic!("no decision {k}"))
}

/// The variable that stands for cell `(r, c)` of `trace`.
fn cell_var(trace: &Value, r: usize, c: usize) -> i64 {
    let at = trace["cells"]
        .as_array()
        .unwrap()
        .iter()
        .position(|rc| *rc == serde_json::json!([r, c]))
        .unwrap_or_else(|| panic!("no variable for cell ({r},{c})"));
    at as i64 + 1
}

/// What-if by clicking a cell: the page's engine goes on from the new decision exactly as
/// `queens-sat trace --decide K=LIT` does (every step's kind, literal, level, clause and
/// board), says that it shows a what-if branch, stops at a breakpoint in it, and returns to the
/// recorded trace.
#[test]
fn a_click_on_a_cell_takes_another_decision_as_the_command_does() {
    if !require("chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();

    // DPLL on n = 4, at the start: a queen on (1,2) instead of (1,1).
    let (page, t) = make(dir.path(), "n4", &["4"]);
    let recorded = t["steps"].as_array().unwrap().len();
    let mut b = Browser::open(&page, "step=0", dir.path());
    let v = cell_var(&t, 1, 2);
    b.click("#cell-1-2", false);
    let out = run(&[
        "trace",
        "4",
        "--decide",
        &format!("1={v}"),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let w: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(b.attr("#trace", "data-branch").as_deref(), Some("what-if"));
    assert_eq!(
        b.attr("#whatif-note", "data-state").as_deref(),
        Some("taken")
    );
    assert_eq!(b.step(), kth_decision(&w, 1));
    assert_eq!(b.attr("#trace", "data-literal"), Some(v.to_string()));
    assert_eq!(
        b.attr("#trace", "data-steps"),
        Some(w["steps"].as_array().unwrap().len().to_string())
    );
    assert_eq!(b.attr("#return", "hidden"), None);
    assert_eq!(page_steps(&mut b, 4), json_steps(&w), "n = 4, 1={v}");
    // Back to the recorded trace, where the branch began.
    b.click("#return", false);
    assert_eq!(b.attr("#trace", "data-branch").as_deref(), Some("recorded"));
    assert_eq!(b.step(), 0);
    assert_eq!(b.attr("#trace", "data-steps"), Some(recorded.to_string()));
    assert_eq!(b.errors(), "");
    drop(b);

    // CDCL on n = 6, before the second decision: no queen on an open cell of row 2 (a
    // shift-click), then a breakpoint in the branch.
    let (page, t) = make(dir.path(), "n6", &["6", "--algorithm", "cdcl"]);
    let second = kth_decision(&t, 2);
    let first_lit = t["steps"][kth_decision(&t, 1) - 1]["literal"]
        .as_i64()
        .unwrap();
    let board = t["steps"][second - 2]["board"][1]
        .as_str()
        .unwrap()
        .to_string();
    let c = board.rfind('.').expect("an open cell on row 2") + 1;
    let v = cell_var(&t, 2, c);
    assert_ne!(t["steps"][second - 1]["literal"], serde_json::json!(-v));
    let mut b = Browser::open(&page, &format!("step={}", second - 1), dir.path());
    assert_eq!(b.step(), second - 1);
    b.click(&format!("#cell-2-{c}"), true);
    let out = run(&[
        "trace",
        "6",
        "--algorithm",
        "cdcl",
        "--decide",
        &format!("1={first_lit}"),
        "--decide",
        &format!("2=-{v}"),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let w: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(b.attr("#trace", "data-branch").as_deref(), Some("what-if"));
    let at = kth_decision(&w, 2);
    assert_eq!(b.step(), at);
    assert_eq!(b.attr("#trace", "data-literal"), Some((-v).to_string()));
    let conflict = (at + 1..=w["steps"].as_array().unwrap().len())
        .find(|&k| w["steps"][k - 1]["kind"] == "conflict");
    b.click("#run-conflict", false);
    match conflict {
        Some(k) => {
            assert_eq!(b.step(), k);
            assert_eq!(
                b.attr("#break-status", "data-stopped").as_deref(),
                Some("break")
            );
            let clause = w["steps"][k - 1]["clause"].as_u64().unwrap();
            assert_eq!(b.attr("#graph", "data-conflict"), Some(clause.to_string()));
        }
        None => assert_eq!(
            b.attr("#break-status", "data-stopped").as_deref(),
            Some("end")
        ),
    }
    assert_eq!(page_steps(&mut b, 6), json_steps(&w), "n = 6, 2=-{v}");
    assert_eq!(b.errors(), "");
}

/// The play button steps through the trace by itself until the end (or a click stops it), and
/// the details under a learn step are its resolutions, as the JSON records them.
#[test]
fn play_runs_the_steps_and_a_learn_step_lists_its_resolutions() {
    if !require("chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (page, t) = make(dir.path(), "n4w", &["4", "--learning", "--watches"]);
    let steps = t["steps"].as_array().unwrap();
    let mut b = Browser::open(&page, "step=0", dir.path());
    // Each learn step: one line per resolution, in order, naming its clause.
    for (k, s) in steps.iter().enumerate() {
        if s["kind"] != "learn" {
            continue;
        }
        b.go(k + 1);
        let lines = b.eval(
            "Array.from(document.querySelectorAll('#details li.resolution')).map(function (li) { return li.textContent; })",
        );
        let lines: Vec<&str> = lines
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|l| l.as_str())
            .collect();
        let resolution = s["resolution"].as_array().unwrap();
        assert_eq!(lines.len(), resolution.len(), "step {}", k + 1);
        for (line, r) in lines.iter().zip(resolution) {
            assert!(
                line.contains(&format!("clause {}:", r["clause"])),
                "step {}: {line}",
                k + 1
            );
        }
    }
    // A step whose assignment moved watches lists the moves.
    let moved = steps
        .iter()
        .position(|s| {
            s["watches"]["moved"]
                .as_array()
                .is_some_and(|m| !m.is_empty())
        })
        .expect("some step moves a watch");
    b.go(moved + 1);
    let watch_lines = b.eval("document.querySelectorAll('#details li.watch').length");
    assert!(watch_lines.as_u64().unwrap() >= 1);
    // Play from the start: the page reaches the end by itself and says it stopped.
    b.go(0);
    b.click("#play", false);
    assert_eq!(b.attr("#play", "data-playing").as_deref(), Some("true"));
    let end = steps.len().to_string();
    let mut reached = false;
    for _ in 0..200 {
        std::thread::sleep(std::time::Duration::from_millis(200));
        if b.attr("#trace", "data-step").as_deref() == Some(end.as_str()) {
            reached = true;
            break;
        }
    }
    assert!(reached, "play did not reach step {end}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(b.attr("#play", "data-playing").as_deref(), Some("false"));
    // A click on forward stops a run at once.
    b.go(0);
    b.click("#play", false);
    b.click("#next", false);
    assert_eq!(b.attr("#play", "data-playing").as_deref(), Some("false"));
}
