//! One engine for the command and the page: `src/trace/engine.js` (the solver the HTML page
//! runs, in JavaScript) against `queens-sat trace --format json`, step for step, on many
//! formulas: n = 1..7 in several encodings, partial boards, random 3-CNFs drawn here, DIMACS
//! files with a map, every algorithm, heuristic, restarts on and off, watches on and off, with
//! decisions taken by hand ("what if", `--decide` on the command line, `control.decisions` in
//! JavaScript) and breakpoints (`control.stop`, whose steps must be the start of the full
//! run's). Every step field but `text` must agree. node runs the JavaScript.

use crate::common::{require, run, stderr};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const ENGINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/trace/engine.js");

/// Runs every job (`{problem: FILE, control}`) through the engine with the problem's own
/// options, in one node process; one result object per job (`{error}` when it threw).
const HARNESS: &str = r#"
const E = require(process.argv[2]);
const fs = require("fs");
const jobs = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const out = jobs.map(function (j) {
  const p = JSON.parse(fs.readFileSync(j.problem, "utf8"));
  const control = Object.assign({decisions: p.options.decisions}, j.control || {});
  try {
    const r = E.run(p, j.options || p.options, control);
    r.steps.forEach(function (s) { delete s.text; });
    return r;
  } catch (e) {
    return {error: String(e.message)};
  }
});
fs.writeFileSync(process.argv[4], JSON.stringify(out));
"#;

/// The configurations: every algorithm x heuristic x watches, and CDCL with restarts.
fn configs() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for algorithm in ["backtracking", "dpll", "cdcl"] {
        for heuristic in ["fixed", "vsids", "random"] {
            for watches in [false, true] {
                for restarts in [false, true] {
                    if restarts && algorithm != "cdcl" {
                        continue;
                    }
                    let mut a = vec![
                        "--algorithm".to_string(),
                        algorithm.into(),
                        "--heuristic".into(),
                        heuristic.into(),
                    ];
                    if heuristic == "random" {
                        a.extend(["--seed".into(), (out.len() * 7919 + 3).to_string()]);
                    }
                    if watches {
                        a.push("--watches".into());
                    }
                    if restarts {
                        a.push("--restarts".into());
                    }
                    out.push(a);
                }
            }
        }
    }
    out
}

/// A traced run: its arguments and its JSON (`None` when it took more than the step limit:
/// such runs are left out of the comparison; the last test checks the engine's limit).
struct Traced {
    args: Vec<String>,
    file: PathBuf,
    json: Option<Value>,
}

/// The step limit of every run here.
const MAX_STEPS: &str = "3000";

fn trace(dir: &Path, k: usize, args: &[String]) -> Traced {
    let file = dir.join(format!("t{k}.json"));
    let mut all: Vec<String> = vec!["trace".into(), "--format".into(), "json".into()];
    all.extend(args.iter().cloned());
    all.extend(["--max-steps".into(), MAX_STEPS.into()]);
    all.extend(["-o".into(), file.to_str().unwrap().into()]);
    let out = run(&all);
    let err = stderr(&out);
    if out.status.code() == Some(2) && err.contains("more than") {
        return Traced {
            args: args.to_vec(),
            file,
            json: None,
        };
    }
    assert_eq!(out.status.code(), Some(0), "{all:?}: {err}");
    let json: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    Traced {
        args: args.to_vec(),
        file,
        json: Some(json),
    }
}

/// The engine's results for `jobs` (problem file, control).
fn engine(dir: &Path, jobs: &[(PathBuf, Value)]) -> Vec<Value> {
    let list: Vec<Value> = jobs
        .iter()
        .map(|(p, c)| json!({"problem": p, "control": c}))
        .collect();
    let jobs_file = dir.join("jobs.json");
    let out_file = dir.join("results.json");
    let harness = dir.join("harness.js");
    std::fs::write(&jobs_file, serde_json::to_vec(&list).unwrap()).unwrap();
    std::fs::write(&harness, HARNESS).unwrap();
    let status = Command::new("node")
        .args([
            harness.to_str().unwrap(),
            ENGINE,
            jobs_file.to_str().unwrap(),
            out_file.to_str().unwrap(),
        ])
        .status()
        .expect("node runs");
    assert!(status.success(), "node failed: {status}");
    serde_json::from_slice(&std::fs::read(&out_file).unwrap()).unwrap()
}

/// The step without its words.
fn bare(step: &Value) -> Value {
    let mut s = step.clone();
    s.as_object_mut().unwrap().remove("text");
    s
}

/// Every step of the engine's result is the command's, field by field (but `text`), and so
/// are the verdict, the board, the model and the totals.
fn same(what: &str, rust: &Value, js: &Value) {
    assert!(js.get("error").is_none(), "{what}: the engine threw {js}");
    let rs = rust["steps"].as_array().unwrap();
    let jsteps = js["steps"].as_array().unwrap();
    for (k, (a, b)) in rs.iter().zip(jsteps).enumerate() {
        assert_eq!(bare(a), bare(b), "{what}: step {} differs", k + 1);
    }
    assert_eq!(rs.len(), jsteps.len(), "{what}: number of steps");
    for field in ["satisfiable", "solution", "assignment", "stats"] {
        assert_eq!(rust[field], js[field], "{what}: {field}");
    }
    assert_eq!(js["stopped"], json!(false), "{what}");
}

/// Runs every formula of `formulas` (arguments before the options) under every configuration
/// and compares; returns how many runs were compared step for step.
fn compare_all(dir: &Path, formulas: &[Vec<String>], configs: &[Vec<String>]) -> usize {
    let mut traced = Vec::new();
    for f in formulas {
        for c in configs {
            let mut args = f.clone();
            args.extend(c.iter().cloned());
            traced.push(trace(dir, traced.len(), &args));
        }
    }
    let jobs: Vec<(PathBuf, Value)> = traced
        .iter()
        .map(|t| (t.file.clone(), json!({})))
        .filter(|(p, _)| p.exists())
        .collect();
    let results = engine(dir, &jobs);
    let mut compared = 0;
    let mut r = results.iter();
    for t in &traced {
        let Some(rust) = &t.json else { continue };
        let js = r.next().unwrap();
        same(&format!("{:?}", t.args), rust, js);
        compared += 1;
    }
    compared
}

#[test]
fn boards_of_every_encoding_agree_step_for_step() {
    if !require("node") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let encodings: [&[&str]; 6] = [
        &[],
        &["--amo", "sequential"],
        &["--amo", "commander"],
        &["--model", "columns"],
        &["--model", "columns", "--domain", "order"],
        &["--model", "columns", "--domain", "log"],
    ];
    let configs = configs();
    let mut formulas = Vec::new();
    for n in 1..=7usize {
        for (e, enc) in encodings.iter().enumerate() {
            // Every encoding at n = 4 and 5, the pairwise one at every n, the others at a
            // rotating n.
            if !(e == 0 || n == 4 || n == 5 || n % 3 == e % 3) {
                continue;
            }
            let mut f = vec![n.to_string()];
            f.extend(enc.iter().map(|s| s.to_string()));
            formulas.push(f);
        }
    }
    // Partial boards.
    formulas.push(vec!["6".into(), "--place".into(), "1,2".into()]);
    formulas.push(vec![
        "7".into(),
        "--forbid".into(),
        "1,1".into(),
        "--forbid".into(),
        "4,4".into(),
    ]);
    formulas.push(vec![
        "5".into(),
        "--place".into(),
        "3,3".into(),
        "--amo".into(),
        "sequential".into(),
    ]);
    let compared = compare_all(dir.path(), &formulas, &configs);
    assert!(
        compared >= formulas.len() * configs.len() * 3 / 4,
        "{compared}"
    );
}

/// A small deterministic generator (xorshift64), so that the formulas are the same every run.
struct Rng(u64);
impl Rng {
    fn below(&mut self, k: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % k
    }
}

#[test]
fn random_3_cnfs_and_mapped_files_agree_step_for_step() {
    if !require("node") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut formulas = Vec::new();
    for k in 0..24 {
        let vars = 4 + rng.below(10);
        let clauses = vars * 43 / 10 + rng.below(4);
        let mut text = format!("c random 3-CNF {k}\np cnf {vars} {clauses}\n");
        for _ in 0..clauses {
            // Three literals, repeats and complements allowed (a student's file may have them).
            for _ in 0..3 {
                let v = 1 + rng.below(vars) as i64;
                let l = if rng.below(2) == 0 { v } else { -v };
                text.push_str(&format!("{l} "));
            }
            text.push_str("0\n");
        }
        if k == 5 {
            // An empty clause: unsatisfiable at once.
            text = text.replacen(
                &format!("p cnf {vars} {clauses}"),
                &format!("p cnf {vars} {}", clauses + 1),
                1,
            );
            text.push_str("0\n");
        }
        let file = dir.path().join(format!("r{k}.cnf"));
        std::fs::write(&file, text).unwrap();
        formulas.push(vec![file.to_str().unwrap().to_string()]);
    }
    // A queens-sat file read through its header, and one read through a map that names its
    // cells in another order (the board is then the map's).
    let e5 = dir.path().join("e5.cnf");
    assert!(run(&[
        "encode",
        "5",
        "--amo",
        "sequential",
        "-o",
        e5.to_str().unwrap()
    ])
    .status
    .success());
    formulas.push(vec![e5.to_str().unwrap().to_string()]);
    let map = dir.path().join("map.txt");
    let mut m = String::new();
    for r in 1..=5 {
        for c in 1..=5 {
            // The transpose: cell (r, c) is the variable of (c, r).
            m.push_str(&format!("{r} {c} {}\n", (c - 1) * 5 + r));
        }
    }
    std::fs::write(&map, m).unwrap();
    formulas.push(vec![
        e5.to_str().unwrap().to_string(),
        "--map".into(),
        map.to_str().unwrap().to_string(),
    ]);
    let configs = configs();
    let compared = compare_all(dir.path(), &formulas, &configs);
    assert!(
        compared >= formulas.len() * configs.len() * 9 / 10,
        "{compared}"
    );
}

/// The literal of the `k`-th decide step of a trace.
fn kth_decision(t: &Value, k: usize) -> Option<i64> {
    t["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "decide")
        .nth(k - 1)
        .map(|s| s["literal"].as_i64().unwrap())
}

#[test]
fn what_if_decisions_agree_and_take_the_literal_given() {
    if !require("node") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut traced = Vec::new();
    let bases: Vec<Vec<String>> = vec![
        vec!["6".into()],
        vec!["6".into(), "--algorithm".into(), "cdcl".into()],
        vec!["5".into(), "--algorithm".into(), "backtracking".into()],
        vec![
            "7".into(),
            "--algorithm".into(),
            "cdcl".into(),
            "--watches".into(),
            "--heuristic".into(),
            "vsids".into(),
        ],
        vec![
            "5".into(),
            "--amo".into(),
            "sequential".into(),
            "--heuristic".into(),
            "random".into(),
            "--seed".into(),
            "5".into(),
            "--watches".into(),
        ],
        vec![
            "8".into(),
            "--algorithm".into(),
            "cdcl".into(),
            "--restarts".into(),
        ],
    ];
    for base in &bases {
        // Take the other value of the first decision, then of the third of the new run.
        let mut args = base.clone();
        let Some(mut last) = trace(dir.path(), traced.len() + 1000, &args).json else {
            panic!("{args:?} takes more than {MAX_STEPS} steps");
        };
        for k in [1, 3] {
            let Some(l) = kth_decision(&last, k) else {
                break;
            };
            args.extend(["--decide".into(), format!("{k}={}", -l)]);
            let t = trace(dir.path(), traced.len(), &args);
            // A run past the step limit is left out.
            let Some(json) = t.json.clone() else { break };
            assert_eq!(kth_decision(&json, k), Some(-l), "{args:?}");
            assert_eq!(
                json["options"]["decisions"][k.to_string()],
                json!(-l),
                "{args:?}"
            );
            last = json;
            traced.push(t);
        }
    }
    let jobs: Vec<(PathBuf, Value)> = traced.iter().map(|t| (t.file.clone(), json!({}))).collect();
    let results = engine(dir.path(), &jobs);
    for (t, js) in traced.iter().zip(&results) {
        same(&format!("{:?}", t.args), t.json.as_ref().unwrap(), js);
    }
    assert!(traced.len() >= 10);
}

#[test]
fn breakpoints_stop_where_the_full_run_passes() {
    if !require("node") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let t = trace(
        dir.path(),
        0,
        &["6".into(), "--algorithm".into(), "cdcl".into()],
    );
    let full = t.json.unwrap();
    let steps = full["steps"].as_array().unwrap();
    // Stops: at a literal assigned late in the run, at the first conflict, at the first
    // conflict after step 40, at a literal never assigned past step 40 ... (none: runs to the
    // end).
    let late = steps
        .iter()
        .rev()
        .find(|s| s["kind"] == "propagate")
        .unwrap()["literal"]
        .clone();
    let controls = [
        json!({"stop": {"literal": late}}),
        json!({"stop": {"conflict": true}}),
        json!({"stop": {"conflict": true, "after": 40}}),
        json!({"stop": {"literal": 1, "after": 0}}),
    ];
    let jobs: Vec<(PathBuf, Value)> = controls
        .iter()
        .map(|c| (t.file.clone(), c.clone()))
        .collect();
    let results = engine(dir.path(), &jobs);
    for (c, js) in controls.iter().zip(&results) {
        let stop = &c["stop"];
        let after = stop["after"].as_u64().unwrap_or(0) as usize;
        // The first step past `after` that the breakpoint names, in the full run.
        let at = steps
            .iter()
            .position(|s| {
                s["step"].as_u64().unwrap() as usize > after
                    && ((stop["conflict"] == json!(true) && s["kind"] == "conflict")
                        || (!stop["literal"].is_null() && s["literal"] == stop["literal"]))
            })
            .expect("the breakpoint is reached");
        assert_eq!(js["stopped"], json!(true), "{c}");
        let why = if stop["conflict"] == json!(true) {
            "conflict"
        } else {
            "literal"
        };
        assert_eq!(js["why"], json!(why), "{c}");
        let jsteps = js["steps"].as_array().unwrap();
        assert_eq!(jsteps.len(), at + 1, "{c}");
        for (a, b) in steps.iter().zip(jsteps) {
            assert_eq!(bare(a), bare(b), "{c}");
        }
    }
}

#[test]
fn the_engine_stops_at_the_step_limit_and_refuses_what_the_command_refuses() {
    if !require("node") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let t = trace(dir.path(), 0, &["5".into()]);
    let jobs = vec![
        (t.file.clone(), json!({})),
        (t.file.clone(), json!({"decisions": {"2": 1}})),
    ];
    let mut results = engine(dir.path(), &jobs);
    same("n = 5", t.json.as_ref().unwrap(), &results[0]);
    // Variable 1 has a value at the second decision: the command says the same.
    let err = results.remove(1)["error"].as_str().unwrap().to_string();
    let out = run(&["trace", "5", "--decide", "2=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(&err), "{err} / {}", stderr(&out));
    // Past the limit.
    let limited = dir.path().join("limited.json");
    let mut p: Value = serde_json::from_slice(&std::fs::read(&t.file).unwrap()).unwrap();
    p["options"]["max_steps"] = json!(10);
    std::fs::write(&limited, serde_json::to_vec(&p).unwrap()).unwrap();
    let r = engine(dir.path(), &[(limited, json!({}))]);
    assert_eq!(r[0]["why"], json!("max_steps"));
    assert_eq!(r[0]["steps"].as_array().unwrap().len(), 10);
}
