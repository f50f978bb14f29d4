//! The cross-checks: `queens-sat check` on every encoding, and broken encodings (built here,
//! only for the tests) that the checks must catch, naming what disagreed.
//!
//! Oracles: the published counts (OEIS A000170, from the reference table), external solvers
//! when installed, and the rules themselves for the broken formulas.

use crate::common::{published_total, require, run, script, stderr, stdout, REFERENCE};
use queens_sat::board::{Line, LineKind};
use queens_sat::cnf::{ClauseSink, GroupInfo, Lit, Var};
use queens_sat::construct::{construct, Method};
use queens_sat::crosscheck::{check_formula, Check, CheckConfig, Expectation, Formula, RowReport};
use queens_sat::encode::{cell_lit, Amo, EncodeOptions, Label, LabelSink, LineEncodings, Rule};
use queens_sat::instance::{DecodeError, Instance, Model};
use queens_sat::Placement;
use std::io;
use std::sync::Arc;

/// The table rows of `check`'s text output: (n, encoding, the other columns).
fn rows(text: &str) -> Vec<(usize, String, Vec<String>)> {
    text.lines()
        .filter_map(|l| {
            let mut cols = l.split_whitespace();
            let n = cols.next()?.parse().ok()?;
            let enc = cols.next()?.to_string();
            Some((n, enc, cols.map(String::from).collect()))
        })
        .collect()
}

#[test]
fn check_agrees_on_every_encoding_for_n_1_to_10() {
    let out = run(&["check"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    let rows = rows(&text);
    assert_eq!(rows.len(), 10 * Amo::all().len(), "{text}");
    for n in 1..=10 {
        let names: Vec<&str> = rows
            .iter()
            .filter(|r| r.0 == n)
            .map(|r| r.1.as_str())
            .collect();
        assert_eq!(names, Amo::names(), "n = {n}");
    }
    for (n, enc, cols) in &rows {
        // vars clauses sat models counter table construct corrupt result
        let sat = if published_total(*n) > 0 {
            "SAT"
        } else {
            "UNSAT"
        };
        assert_eq!(cols[2], sat, "n = {n}, {enc}");
        for (i, what) in [(3, "models"), (4, "counter"), (5, "table")] {
            assert_eq!(
                cols[i],
                published_total(*n).to_string(),
                "{what}, n = {n}, {enc}"
            );
        }
        assert_eq!(cols[8], "ok", "n = {n}, {enc}");
        if *n >= 4 {
            assert_ne!(cols[6], "-", "constructor checked, n = {n}");
            assert_ne!(cols[7], "0", "corruptions tried, n = {n}");
        }
    }
    // Every at-most-one encoding of the catalogue is one model of the check.
    let models = queens_sat::encode::Amo::all().len();
    assert!(
        text.contains(&format!(
            "verdict: all checks agree ({} rows: 10 board sizes x {models} models)",
            10 * models
        )),
        "{text}"
    );
}

#[test]
fn json_output_and_options() {
    let out = run(&[
        "check",
        "--n",
        "4..6,12",
        "--amo",
        "pairwise,sequential",
        "--amo",
        "rows=ladder,diagonals=product",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["discrepancies"], 0);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4 * 3);
    for r in rows {
        let n = r["n"].as_u64().unwrap() as usize;
        assert_eq!(r["counter"], published_total(n));
        assert_eq!(r["reference"], published_total(n));
        // The default --enumerate-up-to is 10: n = 12 is not enumerated.
        if n <= 10 {
            assert_eq!(r["models"], published_total(n));
        } else {
            assert!(r["models"].is_null());
        }
        assert_eq!(r["sat"], true);
        assert!(r["corruptions"].as_u64().unwrap() > 0);
    }
    assert_eq!(
        rows[2]["encoding"],
        "rows=ladder,columns=pairwise,slash=product,backslash=product"
    );
    let out = run(&[
        "check",
        "--n",
        "11",
        "--amo",
        "binary",
        "--enumerate-up-to",
        "11",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"][0]["models"], published_total(11));
    // Beyond --count-up-to the table alone gives the expected count.
    let out = run(&[
        "check",
        "--n",
        "11,12",
        "--amo",
        "pairwise",
        "--count-up-to",
        "11",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"][0]["counter"], published_total(11));
    assert!(v["rows"][1]["counter"].is_null());
    assert_eq!(v["rows"][1]["reference"], published_total(12));
    assert_eq!(v["rows"][1]["sat"], true);
}

#[test]
fn bad_input_is_a_one_line_error() {
    for args in [
        &["check", "--n", "0"][..],
        &["check", "--n", "6..3"],
        &["check", "--n", "1..x"],
        &["check", "--n", "40"],
        &["check", "--amo", "nope"],
        &["check", "--amo", "rows=nope"],
        &["check", "--timeout", "0"],
        &["check", "--threads", "0"],
        &["check", "--format", "xml"],
    ] {
        let out = run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn external_solvers_agree() {
    let mut solvers = Vec::new();
    for s in ["cadical", "minisat"] {
        if require(s) {
            solvers.push(s);
        }
    }
    if solvers.is_empty() {
        return;
    }
    let list = solvers.join(",");
    let out = run(&[
        "check",
        "--n",
        "1..8",
        "--amo",
        "pairwise,sequential,bimander",
        "--external",
        &list,
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    let rows = rows(&text);
    assert_eq!(rows.len(), 8 * 3);
    for (n, enc, cols) in &rows {
        let external = cols[9..].join(" ");
        for s in &solvers {
            let expect = if published_total(*n) > 0 {
                format!("{s} SAT")
            } else {
                format!("{s} UNSAT")
            };
            assert!(external.contains(&expect), "n = {n}, {enc}: {external}");
        }
    }
}

#[test]
fn missing_external_solver_is_skipped_with_a_note() {
    let out = run(&[
        "check",
        "--n",
        "4",
        "--amo",
        "pairwise",
        "--external",
        "no-such-solver-xyz",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("no-such-solver-xyz is not on PATH"));
    assert!(stdout(&out).contains("no-such-solver-xyz not on PATH"));
}

// ---------------------------------------------------------------------------------------------
// Broken encodings, built only here.

/// What a mutant changes in the real encoder's output.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    /// Nothing: the control, which must pass.
    None,
    /// Drop every clause that group `tag` emits for `line`.
    DropLine { rule: Rule, line: Line },
    /// Add the unit clause "no queen on (r, c)" (0-based), a square some solution uses.
    Forbid { cell: (usize, usize) },
    /// Drop every clause of `rule`, on every line.
    DropRule { rule: Rule },
}

/// The real instance with one mutation.
struct Mutant {
    inner: Instance,
    mutation: Mutation,
}

/// Forwards clauses to `sink`, except those of the line being dropped.
struct Filter<'a> {
    sink: &'a mut dyn LabelSink,
    /// The rule whose clauses are dropped, on one line or (`None`) on all.
    drop: Option<(Rule, Option<Line>)>,
    label: Option<Label>,
}

impl ClauseSink for Filter<'_> {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        let dropped = self.drop.is_some_and(|(rule, line)| {
            self.label
                .is_some_and(|l| l.rule == rule && (line.is_none() || l.line == line))
        });
        if dropped {
            return Ok(());
        }
        self.sink.add_clause(clause)
    }
    fn begin_group(&mut self, group: &GroupInfo) -> io::Result<()> {
        self.sink.begin_group(group)
    }
}

impl LabelSink for Filter<'_> {
    fn begin_label(&mut self, label: &Label) -> io::Result<()> {
        self.label = Some(*label);
        self.sink.begin_label(label)
    }
}

impl Formula for Mutant {
    fn name(&self) -> String {
        format!("{} ({:?})", self.inner.name(), self.mutation)
    }
    fn n(&self) -> usize {
        self.inner.n()
    }
    fn num_vars(&self) -> u64 {
        self.inner.num_vars()
    }
    fn encode_labelled(&self, sink: &mut dyn LabelSink) -> io::Result<()> {
        let drop = match self.mutation {
            Mutation::DropLine { rule, line } => Some((rule, Some(line))),
            Mutation::DropRule { rule } => Some((rule, None)),
            _ => None,
        };
        let mut filter = Filter {
            sink: &mut *sink,
            drop,
            label: None,
        };
        self.inner.encode_labelled(&mut filter)?;
        if let Mutation::Forbid { cell: (r, c) } = self.mutation {
            sink.begin_group(&GroupInfo {
                tag: "M".into(),
                meaning: "mutation: a legal square forbidden".into(),
            })?;
            sink.begin_label(&Label {
                rule: Rule::Forbidden,
                line: None,
            })?;
            sink.add_clause(&[!cell_lit(self.inner.n(), r, c)])?;
        }
        Ok(())
    }
    fn value_lits(&self, r: usize, c: usize) -> Vec<Lit> {
        self.inner.value_lits(r, c)
    }
    fn decode(&self, assignment: &[bool]) -> Result<Placement, DecodeError> {
        self.inner.decode(assignment)
    }
    fn projection(&self) -> Vec<Var> {
        self.inner.projection()
    }
    fn var_name(&self, var: Var) -> String {
        self.inner.var_name(var)
    }
    fn pattern_lits(&self, cells: &[bool]) -> Option<Vec<Lit>> {
        self.inner.pattern_lits(cells)
    }
}

fn mutant(n: usize, amo: Amo, mutation: Mutation) -> Arc<Mutant> {
    Arc::new(Mutant {
        inner: Instance::new(
            n,
            Model::cells(EncodeOptions {
                amo: LineEncodings::uniform(amo),
                column_alo: false,
            }),
        )
        .unwrap(),
        mutation,
    })
}

fn check(m: &Arc<Mutant>, cfg: &CheckConfig) -> RowReport {
    check_formula(m.clone(), &Expectation::for_n(m.n()), cfg)
}

fn messages(r: &RowReport, check: Check) -> Vec<String> {
    r.discrepancies
        .iter()
        .filter(|d| d.check == check)
        .map(|d| d.message.clone())
        .collect()
}

/// The encoder with the clauses of `rule` on one line dropped.
fn dropping(n: usize, amo: Amo, rule: Rule, kind: LineKind, index: usize) -> Arc<Mutant> {
    mutant(
        n,
        amo,
        Mutation::DropLine {
            rule,
            line: Line { kind, index },
        },
    )
}

/// The encoder without the clauses of the main `\` diagonal (r - c = 0), the longest one.
fn without_main_backslash(n: usize, amo: Amo) -> Arc<Mutant> {
    dropping(
        n,
        amo,
        Rule::AtMostOne(LineKind::AntiDiagonal),
        LineKind::AntiDiagonal,
        n - 1,
    )
}

/// The column model's encodings, with and without their `/` diagonal constraints: the
/// checks pass the former and catch the latter.
#[test]
fn column_model_mutations_are_caught() {
    use queens_sat::encode::{ColumnOptions, Constraints, Domain};
    for domain in Domain::all() {
        for n in 4..=7 {
            let model = Model::columns(ColumnOptions {
                domain,
                constraints: Constraints::CONFLICT,
                amo: Amo::PAIRWISE,
            });
            let make = |mutation| {
                Arc::new(Mutant {
                    inner: Instance::new(n, model).unwrap(),
                    mutation,
                })
            };
            let r = check(&make(Mutation::None), &CheckConfig::default());
            assert!(r.ok(), "{domain:?} n = {n}: {:?}", r.discrepancies);
            assert_eq!(r.models, Some(published_total(n)));
            let dropped = Mutation::DropRule {
                rule: Rule::AtMostOne(LineKind::Diagonal),
            };
            let r = check(&make(dropped), &CheckConfig::default());
            assert!(
                !r.ok(),
                "{domain:?} n = {n}: a dropped diagonal constraint not caught"
            );
            assert!(
                r.discrepancies
                    .iter()
                    .any(|d| d.message.contains("/ diagonal")),
                "{domain:?} n = {n}: {:?}",
                r.discrepancies
            );
        }
    }
}

#[test]
fn the_unmutated_wrapper_passes() {
    for amo in Amo::all() {
        for n in 1..=7 {
            let r = check(&mutant(n, amo, Mutation::None), &CheckConfig::default());
            assert!(r.ok(), "{amo} n = {n}: {:?}", r.discrepancies);
            assert_eq!(r.models, Some(published_total(n)));
        }
    }
}

#[test]
fn dropping_one_diagonal_is_caught_and_named() {
    for amo in Amo::all() {
        for n in 2..=8 {
            let m = without_main_backslash(n, amo);
            let r = check(&m, &CheckConfig::default());
            assert!(!r.ok(), "{amo} n = {n}: not caught");
            // The rules name the broken line in whichever check saw it first.
            assert!(
                r.discrepancies
                    .iter()
                    .any(|d| d.message.contains("share a \\ diagonal")),
                "{amo} n = {n}: {:?}",
                r.discrepancies
            );
            if n >= 4 {
                // Enumeration meets a model with two queens on the dropped diagonal.
                let counts = messages(&r, Check::Counts);
                assert!(
                    counts
                        .iter()
                        .any(|m| m.contains("is not a solution") && m.contains("\\ diagonal")),
                    "{amo} n = {n}: {counts:?}"
                );
            } else {
                // n = 2, 3: the solver finds a model where none should exist.
                assert!(
                    !messages(&r, Check::Sat).is_empty(),
                    "{amo} n = {n}: {:?}",
                    r.discrepancies
                );
            }
        }
    }
}

#[test]
fn dropping_one_diagonal_is_caught_without_enumeration() {
    // The soundness check alone: corrupted boards whose only conflict is on the dropped
    // diagonal. Such one-change neighbours of a solution exist from n = 7 on (none for n <= 6:
    // there only the enumeration, which meets every model, catches the mutant), and among the
    // neighbours of the few solutions tried (constructed, the solver's model and their images)
    // from n = 8 on.
    let cfg = CheckConfig {
        enumerate_up_to: 0,
        ..CheckConfig::default()
    };
    let mut missed = Vec::new();
    for amo in Amo::all() {
        for n in 8..=10 {
            let m = without_main_backslash(n, amo);
            let r = check(&m, &cfg);
            assert_eq!(r.models, None);
            let caught = r.discrepancies.iter().any(|d| {
                (d.check == Check::Soundness || d.check == Check::Sat)
                    && d.message.contains("\\ diagonal")
            });
            if !caught {
                missed.push(format!("{amo} n = {n}"));
            }
        }
    }
    assert!(missed.is_empty(), "missed: {missed:?}");
}

#[test]
fn forbidding_a_legal_square_is_caught_and_named() {
    for amo in Amo::all() {
        for n in 4..=9 {
            // A square the constructor uses: the queen of row 1.
            let p = construct(n, Method::Hlm).unwrap().unwrap();
            let cell = (0, p.col(0));
            let r = check(
                &mutant(n, amo, Mutation::Forbid { cell }),
                &CheckConfig::default(),
            );
            let lit = format!("q(1,{})", p.col(0) + 1);
            let construct = messages(&r, Check::Construct);
            assert!(
                construct
                    .iter()
                    .any(|m| m.contains("rejects the HLM construction") && m.contains(&lit)),
                "{amo} n = {n}: {:?}",
                r.discrepancies
            );
            let counts = messages(&r, Check::Counts);
            let expected = format!("the counter {}", published_total(n));
            assert!(
                counts.iter().any(|m| m.contains(&expected)),
                "{amo} n = {n}: {counts:?}"
            );
        }
    }
    // n = 1: the only square; the formula becomes unsatisfiable.
    let r = check(
        &mutant(1, Amo::PAIRWISE, Mutation::Forbid { cell: (0, 0) }),
        &CheckConfig::default(),
    );
    assert!(
        messages(&r, Check::Sat)
            .iter()
            .any(|m| m.contains("the solver says UNSAT, but there is 1 solution")),
        "{:?}",
        r.discrepancies
    );
}

#[test]
fn dropping_a_row_at_least_one_clause_is_caught() {
    for amo in Amo::all() {
        for n in 4..=8 {
            let m = dropping(n, amo, Rule::AtLeastOne(LineKind::Row), LineKind::Row, 2);
            let r = check(
                &m,
                &CheckConfig {
                    enumerate_up_to: 0,
                    ..CheckConfig::default()
                },
            );
            let soundness = messages(&r, Check::Soundness);
            assert!(
                soundness
                    .iter()
                    .any(|m| m.contains("without the queen of row 3")
                        && m.contains("row 3 has no queen")),
                "{amo} n = {n}: {:?}",
                r.discrepancies
            );
        }
    }
}

#[test]
fn enumeration_meets_models_outside_its_split() {
    // The enumeration is split by the queen of row 1; a model without a queen there must
    // still be met (by the last, unsplit solve).
    for amo in Amo::all() {
        for n in 1..=6 {
            let r = check(
                &dropping(n, amo, Rule::AtLeastOne(LineKind::Row), LineKind::Row, 0),
                &CheckConfig::default(),
            );
            let counts = messages(&r, Check::Counts);
            assert!(
                counts
                    .iter()
                    .any(|m| m.contains("is not a solution: row 1 has no queen")),
                "{amo} n = {n}: {:?}",
                r.discrepancies
            );
        }
    }
}

/// An executable script in `dir` that prints `answer` whatever the input.
fn fake_solver(dir: &std::path::Path, name: &str, answer: &str) -> String {
    let path = script(dir, name, &format!("printf '{answer}'"));
    path.to_string_lossy().into_owned()
}

#[test]
fn a_lying_external_solver_fails_the_check_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    // Always UNSAT: wrong for n = 4.
    let unsat = fake_solver(dir.path(), "always-unsat", "s UNSATISFIABLE\\n");
    let out = run(&[
        "check",
        "--n",
        "3,4",
        "--amo",
        "pairwise",
        "--external",
        &unsat,
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("n = 4, pairwise: external: ")
            && text.contains("says UNSAT, but there are 2 solutions"),
        "{text}"
    );
    assert!(
        text.contains("verdict: 1 discrepancy in 1 of 2 rows"),
        "{text}"
    );
    // SAT with every variable true: falsifies a clause, named.
    let all: Vec<String> = (1..=16).map(|v| v.to_string()).collect();
    let sat = fake_solver(
        dir.path(),
        "all-true",
        &format!("s SATISFIABLE\\nv {} 0\\n", all.join(" ")),
    );
    let out = run(&["check", "--n", "4", "--amo", "pairwise", "--external", &sat]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("its model falsifies clause 5 (Q2: every row has at most one queen) is false: -q(1,1) -q(1,2) (on row 1)"),
        "{text}"
    );
}

#[test]
fn crate_table_agrees_with_the_reference() {
    // The crate's copy of the published counts, which `check` compares against, equals the
    // tests' copy taken from the reference document.
    for (ours, theirs) in REFERENCE
        .iter()
        .zip(queens_sat::crosscheck::REFERENCE_COUNTS.iter())
    {
        assert_eq!(ours, theirs);
    }
}
