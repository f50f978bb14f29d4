//! A sweep over instances seen per instance and per parameter value, over every
//! configuration: whether the runs that decided an instance agree ([`agreement`]), and, for a
//! family sweep, per value of its parameter how many instances some run decided, how many of
//! those are satisfiable, and which configuration found the value hardest and easiest by its
//! median time ([`by_value`], the medians of [`super::scores`]).
//!
//! An instance is *decided* when some run answered it SAT or UNSAT; two runs *disagree* when
//! one answered SAT and the other UNSAT. Instances are matched as the scores match them
//! ([`scores::instance_key`]).

use super::scores::{self, instance_key, InstanceKey};
use super::transition::compare_values;
use super::Row;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

/// One parameter value of a family sweep, over every configuration that ran it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Value {
    /// Board size.
    pub n: usize,
    /// The family.
    pub family: String,
    /// The swept parameter.
    pub parameter: String,
    /// Its value, as the first of its rows writes it.
    pub value: String,
    /// Instances of this value (seeds, shuffled copies).
    pub instances: usize,
    /// Instances some run answered SAT or UNSAT.
    pub decided: usize,
    /// Decided instances that every run that decided them answered SAT.
    pub sat: usize,
    /// Decided instances that every run that decided them answered UNSAT.
    pub unsat: usize,
    /// Decided instances answered SAT by some runs and UNSAT by others (see [`agreement`]).
    pub disputed: usize,
    /// `sat / (sat + unsat)`; none when neither is there.
    pub fraction_sat: Option<f64>,
    /// The configuration with the highest median time over the value's instances; of those
    /// tied, the one the scores rank last (fewest solved, then highest PAR-2).
    pub hardest: Option<Extreme>,
    /// The configuration with the lowest median time; of those tied, the one the scores rank
    /// first.
    pub easiest: Option<Extreme>,
    /// For chains of solvers: per stage that answered (the rows' `decided_by`), the runs it
    /// decided and how many of them SAT, stages in the order they first answer; empty when no
    /// run names one.
    pub decided_by: Vec<Stage>,
}

/// The runs of one value that one stage of a chain decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stage {
    /// The stage's solver (`search`, `exact`).
    pub solver: String,
    /// Runs it answered SAT or UNSAT.
    pub runs: usize,
    /// Of them, the SAT answers.
    pub sat: usize,
}

/// The stages that decided `rows`, in their order in the chain (where the stage's name first
/// occurs in the row's solver, `search@30+exact`), else in the order they first answer.
fn stages(rows: &[Row]) -> Vec<Stage> {
    // Each stage with where its name first occurs in the chain's name.
    let mut out: Vec<(usize, Stage)> = Vec::new();
    for r in rows {
        let sat = match r.status.as_str() {
            "SAT" => true,
            "UNSAT" => false,
            _ => continue,
        };
        if r.decided_by.is_empty() {
            continue;
        }
        let i = match out.iter().position(|(_, s)| s.solver == r.decided_by) {
            Some(i) => i,
            None => {
                let at = r.solver.find(&r.decided_by).unwrap_or(usize::MAX);
                out.push((
                    at,
                    Stage {
                        solver: r.decided_by.clone(),
                        runs: 0,
                        sat: 0,
                    },
                ));
                out.len() - 1
            }
        };
        out[i].1.runs += 1;
        out[i].1.sat += usize::from(sat);
    }
    // A stable sort: stages at the same place keep the order they first answered in.
    out.sort_by_key(|(at, _)| *at);
    out.into_iter().map(|(_, s)| s).collect()
}

/// A configuration and its median time at one parameter value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Extreme {
    /// The encoding.
    pub encoding: String,
    /// The solver.
    pub solver: String,
    /// The median time in seconds, an unsolved run counting as the time limit
    /// ([`scores::Tally::median_s`]).
    pub median_s: f64,
}

/// An instance that some runs answered SAT and others UNSAT.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Disagreement {
    /// Board size.
    pub n: usize,
    /// The family (empty for the empty board).
    pub family: String,
    /// The swept parameter (empty when none).
    pub parameter: String,
    /// Its value, or the instance file's name.
    pub value: String,
    /// The seed, if the instance was drawn.
    pub seed: Option<u64>,
    /// The shuffled copy, if one.
    pub shuffle: Option<u64>,
    /// The configurations (`encoding / solver`) that answered SAT.
    pub sat: Vec<String>,
    /// Those that answered UNSAT.
    pub unsat: Vec<String>,
}

impl fmt::Display for Disagreement {
    /// `n = 60, blocked p = 0.85, seed 3: SAT by a / s; UNSAT by b / s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n = {}", self.n)?;
        match (self.family.is_empty(), self.parameter.is_empty()) {
            (false, false) => write!(f, ", {} {} = {}", self.family, self.parameter, self.value)?,
            _ if !self.value.is_empty() => write!(f, ", {}", self.value)?,
            _ => {}
        }
        if let Some(seed) = self.seed {
            write!(f, ", seed {seed}")?;
        }
        if let Some(copy) = self.shuffle {
            write!(f, ", shuffled copy {copy}")?;
        }
        write!(
            f,
            ": SAT by {}; UNSAT by {}",
            self.sat.join(", "),
            self.unsat.join(", ")
        )
    }
}

/// Whether the runs of a sweep that decided an instance agree with each other.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agreement {
    /// Instances of the sweep.
    pub instances: usize,
    /// Instances some run answered SAT or UNSAT.
    pub decided: usize,
    /// The instances answered both ways, in the order of their keys.
    pub disagreements: Vec<Disagreement>,
}

impl fmt::Display for Agreement {
    /// One line: that every answer agrees, or how many instances have disagreeing ones.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.disagreements.len() {
            0 => write!(
                f,
                "Answers: every run that decided an instance agrees with every other ({} of {} \
                 instances decided by some run).",
                self.decided, self.instances
            ),
            k => write!(
                f,
                "ANSWERS DISAGREE: {k} of the {} instances decided were answered SAT by some runs \
                 and UNSAT by others.",
                self.decided
            ),
        }
    }
}

/// The answers to one instance: its first row, and the configurations that answered SAT and
/// UNSAT.
struct Answers<'a> {
    first: &'a Row,
    sat: Vec<String>,
    unsat: Vec<String>,
}

impl Answers<'_> {
    fn decided(&self) -> bool {
        !self.sat.is_empty() || !self.unsat.is_empty()
    }

    fn disputed(&self) -> bool {
        !self.sat.is_empty() && !self.unsat.is_empty()
    }
}

/// The answers to every instance of `rows`.
fn answers(rows: &[Row]) -> BTreeMap<InstanceKey, Answers<'_>> {
    let mut out: BTreeMap<InstanceKey, Answers> = BTreeMap::new();
    for r in rows {
        let a = out.entry(instance_key(r)).or_insert_with(|| Answers {
            first: r,
            sat: Vec::new(),
            unsat: Vec::new(),
        });
        let config = format!("{} / {}", r.encoding, r.solver);
        match r.status.as_str() {
            "SAT" => a.sat.push(config),
            "UNSAT" => a.unsat.push(config),
            _ => {}
        }
    }
    out
}

/// Whether the runs of `rows` that decided an instance agree: every instance answered SAT by
/// some run and UNSAT by another is listed.
pub fn agreement(rows: &[Row]) -> Agreement {
    let answers = answers(rows);
    let disagreements = answers
        .values()
        .filter(|a| a.disputed())
        .map(|a| Disagreement {
            n: a.first.n,
            family: a.first.family.clone(),
            parameter: a.first.parameter.clone(),
            value: a.first.value.clone(),
            seed: a.first.seed,
            shuffle: a.first.shuffle,
            sat: a.sat.clone(),
            unsat: a.unsat.clone(),
        })
        .collect();
    Agreement {
        instances: answers.len(),
        decided: answers.values().filter(|a| a.decided()).count(),
        disagreements,
    }
}

/// The values of a family sweep: one [`Value`] per (n, family, parameter, value), ordered by
/// n, family, parameter and value (numerically when numbers). Rows without a parameter (empty
/// boards, instance files) are left out.
pub fn by_value(rows: &[Row]) -> Vec<Value> {
    let key = |r: &Row| {
        (
            r.n,
            r.family.clone(),
            r.parameter.clone(),
            scores::same_value(&r.value),
        )
    };
    let mut groups: Vec<(_, Vec<Row>)> = Vec::new();
    for r in rows.iter().filter(|r| !r.parameter.is_empty()) {
        let k = key(r);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, g)) => g.push(r.clone()),
            None => groups.push((k, vec![r.clone()])),
        }
    }
    groups.sort_by(|(a, _), (b, _)| {
        (a.0, &a.1, &a.2)
            .cmp(&(b.0, &b.1, &b.2))
            .then_with(|| compare_values(&a.3, &b.3))
    });
    groups.iter().map(|(_, g)| value_of(g)).collect()
}

/// The [`Value`] of the rows of one parameter value.
fn value_of(rows: &[Row]) -> Value {
    let first = &rows[0];
    let answers = answers(rows);
    let count = |f: &dyn Fn(&Answers) -> bool| answers.values().filter(|a| f(a)).count();
    let sat = count(&|a| !a.sat.is_empty() && a.unsat.is_empty());
    let unsat = count(&|a| a.sat.is_empty() && !a.unsat.is_empty());
    let scores = scores::scores(rows);
    let extreme = |s: &scores::Score| Extreme {
        encoding: s.encoding.clone(),
        solver: s.solver.clone(),
        median_s: s.tally.median_s,
    };
    let median = |s: &&scores::Score| s.tally.median_s;
    // The configurations in the scores' order: ties go to the last for the hardest, to the
    // first for the easiest.
    let hardest =
        scores
            .configurations
            .iter()
            .reduce(|a, b| match median(&b).total_cmp(&median(&a)) {
                Ordering::Less => a,
                _ => b,
            });
    let easiest =
        scores
            .configurations
            .iter()
            .reduce(|a, b| match median(&b).total_cmp(&median(&a)) {
                Ordering::Less => b,
                _ => a,
            });
    Value {
        n: first.n,
        family: first.family.clone(),
        parameter: first.parameter.clone(),
        value: first.value.clone(),
        instances: answers.len(),
        decided: count(&|a| a.decided()),
        sat,
        unsat,
        disputed: count(&|a| a.disputed()),
        fraction_sat: (sat + unsat > 0).then(|| sat as f64 / (sat + unsat) as f64),
        hardest: hardest.map(extreme),
        easiest: easiest.map(extreme),
        decided_by: stages(rows),
    }
}

/// The values as a Markdown table with a caption: [`table`], then what its columns mean.
pub fn markdown(values: &[Value]) -> String {
    format!(
        "{}\nPer value, over every configuration: decided = the instances some run answered SAT \
         or UNSAT; SAT and UNSAT = the decided instances by their answer; fraction SAT = SAT / \
         (SAT + UNSAT). Hardest and easiest = the configurations (encoding / solver) with the \
         highest and the lowest median time over the value's instances, an unsolved run \
         counting as the time limit (the time basis of the scores).{}\n",
        table(values),
        if values.iter().any(|v| !v.decided_by.is_empty()) {
            " Decided by = for chains of solvers, the runs each stage answered (of them SAT)."
        } else {
            ""
        }
    )
}

/// The values as a Markdown table alone, a line per value: n, the value, instances, decided,
/// SAT, UNSAT, fraction SAT, the hardest and the easiest configuration with its median in
/// milliseconds; for chains of solvers, the runs each stage decided (`search 16 (13 SAT), exact 4
/// (0 SAT)`). The value's column is named after the parameter when every line has the same
/// family and parameter (`p`); otherwise it is `value` and each line names them (`blocked
/// p=0.8`).
pub fn table(values: &[Value]) -> String {
    let one_parameter = values
        .windows(2)
        .all(|w| (&w[0].family, &w[0].parameter) == (&w[1].family, &w[1].parameter));
    let header = match values.first() {
        Some(v) if one_parameter => v.parameter.as_str(),
        _ => "value",
    };
    let chains = values.iter().any(|v| !v.decided_by.is_empty());
    let (stage_header, stage_rule) = if chains {
        (" decided by |", "---|")
    } else {
        ("", "")
    };
    let mut s = format!(
        "| n | {header} | instances | decided | SAT | UNSAT | fraction SAT | \
         hardest (median ms) | easiest (median ms) |{stage_header}\n\
         |---:|---:|---:|---:|---:|---:|---:|---|---|{stage_rule}\n"
    );
    let extreme = |e: &Option<Extreme>| {
        e.as_ref().map_or_else(String::new, |e| {
            format!("{} / {}: {:.1}", e.encoding, e.solver, e.median_s * 1e3)
        })
    };
    for v in values {
        let value = if one_parameter {
            v.value.clone()
        } else {
            format!("{} {}={}", v.family, v.parameter, v.value)
        };
        let stages = if chains {
            let said: Vec<String> = v
                .decided_by
                .iter()
                .map(|st| format!("{} {} ({} SAT)", st.solver, st.runs, st.sat))
                .collect();
            format!(" {} |", said.join(", "))
        } else {
            String::new()
        };
        s.push_str(&format!(
            "| {} | {value} | {} | {} | {} | {} | {} | {} | {} |{stages}\n",
            v.n,
            v.instances,
            v.decided,
            v.sat,
            v.unsat,
            v.fraction_sat
                .map_or_else(String::new, |f| format!("{f:.2}")),
            extreme(&v.hardest),
            extreme(&v.easiest),
        ));
    }
    s
}

/// The runs of a sweep side by side: a line per instance, a column per configuration
/// (`encoding / solver`, in the order of `configurations`), each cell the run's time in
/// seconds on the scores' time basis and its answer (`14.48 s SAT`), or for a run that did not
/// solve its instance its status (`TIMEOUT`, `MEMOUT`, `SKIPPED`, `WRONG`, `ERROR`), `-` where
/// the configuration did not run the instance. An instance's columns: n, then as the rows have
/// them its value (named after the parameter when every row has the same one; `instance` for
/// instance files), seed and shuffled copy; lines in the order of n, value (by number when
/// numbers), seed and copy.
pub fn instances_table(rows: &[Row], configurations: &[(String, String)]) -> String {
    let parameters: std::collections::BTreeSet<(&str, &str)> = rows
        .iter()
        .map(|r| (r.family.as_str(), r.parameter.as_str()))
        .collect();
    let has_value = rows.iter().any(|r| !r.value.is_empty());
    let has_seed = rows.iter().any(|r| r.seed.is_some());
    let has_copy = rows.iter().any(|r| r.shuffle.is_some());
    let value_header = match parameters.iter().next() {
        Some((_, "")) if parameters.len() == 1 => "instance",
        Some((_, p)) if parameters.len() == 1 => p,
        _ => "value",
    };
    let mut header = vec!["n"];
    header.extend(has_value.then_some(value_header));
    header.extend(has_seed.then_some("seed"));
    header.extend(has_copy.then_some("copy"));
    let names: Vec<String> = configurations
        .iter()
        .map(|(e, s)| format!("{e} / {s}"))
        .collect();
    let mut s = format!(
        "| {} | {} |\n|{}{}\n",
        header.join(" | "),
        names.join(" | "),
        "---:|".repeat(header.len()),
        "---|".repeat(names.len())
    );
    let mut firsts: Vec<&Row> = Vec::new();
    let mut by_instance: BTreeMap<InstanceKey, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        let runs = by_instance.entry(instance_key(r)).or_default();
        if runs.is_empty() {
            firsts.push(r);
        }
        runs.push(r);
    }
    firsts.sort_by(|a, b| {
        (a.n, &a.family, &a.parameter)
            .cmp(&(b.n, &b.family, &b.parameter))
            .then_with(|| compare_values(&a.value, &b.value))
            .then_with(|| (a.seed, a.shuffle).cmp(&(b.seed, b.shuffle)))
    });
    for first in firsts {
        let runs = &by_instance[&instance_key(first)];
        let mut cells = vec![first.n.to_string()];
        if has_value {
            cells.push(if parameters.len() == 1 {
                first.value.clone()
            } else {
                format!("{} {}={}", first.family, first.parameter, first.value)
            });
        }
        if has_seed {
            cells.push(first.seed.map_or_else(String::new, |x| x.to_string()));
        }
        if has_copy {
            cells.push(first.shuffle.map_or_else(String::new, |x| x.to_string()));
        }
        for (e, solver) in configurations {
            let run = runs
                .iter()
                .find(|r| r.encoding == *e && r.solver == *solver);
            cells.push(match run {
                None => "-".to_string(),
                Some(r) => match scores::time_s(r) {
                    Some(t) if scores::solved(r) => format!("{t:.2} s {}", r.status),
                    _ => r.status.split(':').next().unwrap_or_default().to_string(),
                },
            });
        }
        s.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of configuration `enc` (solver `s`) at p = `value`, seed `seed`, with the 10 s
    /// limit.
    fn run(enc: &str, value: &str, seed: u64, status: &str, ms: Option<f64>) -> Row {
        Row {
            n: 12,
            parameter: "p".into(),
            value: value.into(),
            ..crate::experiment::scores::tests::row(enc, seed, status, ms)
        }
    }

    /// Two values, three configurations, worked out by hand:
    ///
    /// | p | seed | a | b | c |
    /// |---|---|---|---|---|
    /// | 0.5 | 1 | SAT 100 | SAT 300 | TIMEOUT |
    /// | 0.5 | 2 | UNSAT 200 | TIMEOUT | UNSAT 50 |
    /// | 0.5 | 3 | TIMEOUT | TIMEOUT | ERROR |
    /// | 0.10 | 1 | SAT 10 | SAT 20 | SAT 10 |
    fn sweep() -> Vec<Row> {
        let t = Some;
        vec![
            run("a", "0.5", 1, "SAT", t(100.0)),
            run("b", "0.5", 1, "SAT", t(300.0)),
            run("c", "0.5", 1, "TIMEOUT", None),
            run("a", "0.5", 2, "UNSAT", t(200.0)),
            run("b", "0.5", 2, "TIMEOUT", None),
            run("c", "0.5", 2, "UNSAT", t(50.0)),
            run("a", "0.5", 3, "TIMEOUT", None),
            run("b", "0.5", 3, "TIMEOUT", None),
            run("c", "0.5", 3, "ERROR: no answer", None),
            run("a", "0.10", 1, "SAT", t(10.0)),
            run("b", "0.10", 1, "SAT", t(20.0)),
            run("c", "0.10", 1, "SAT", t(10.0)),
        ]
    }

    #[test]
    fn values_by_hand() {
        let v = by_value(&sweep());
        // 0.10 before 0.5: by number.
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].value, "0.10");
        assert_eq!(
            (v[0].instances, v[0].decided, v[0].sat, v[0].unsat),
            (1, 1, 1, 0)
        );
        assert_eq!(v[0].fraction_sat, Some(1.0));
        // Medians 10, 20, 10 ms: b is the hardest; a and c tie as the easiest (the same PAR-2
        // too), and a, first in the scores' order, is named.
        let name = |e: &Option<Extreme>| {
            let e = e.as_ref().unwrap();
            (e.encoding.clone(), (e.median_s * 1e3).round())
        };
        assert_eq!(name(&v[0].hardest), ("b".into(), 20.0));
        assert_eq!(name(&v[0].easiest), ("a".into(), 10.0));
        // p = 0.5: seed 1 SAT, seed 2 UNSAT, seed 3 undecided.
        let h = &v[1];
        assert_eq!(
            (h.instances, h.decided, h.sat, h.unsat, h.disputed),
            (3, 2, 1, 1, 0)
        );
        assert_eq!(h.fraction_sat, Some(0.5));
        // Times with an unsolved run at the 10 s limit: a 0.1 0.2 10 -> median 0.2 s;
        // b 0.3 10 10 -> 10 s; c 10 0.05 10 -> 10 s. b and c tie as the hardest: c solved 1,
        // b 1, PAR-2 b (0.3 + 40) / 3, c (0.05 + 40) / 3: c ranks first, b last.
        assert_eq!(name(&h.hardest), ("b".into(), 10000.0));
        assert_eq!(name(&h.easiest), ("a".into(), 200.0));
        let table = table(&v);
        assert!(
            table.starts_with("| n | p | instances | decided |"),
            "{table}"
        );
        assert!(
            table.contains("| 12 | 0.5 | 3 | 2 | 1 | 1 | 0.50 | b / s: 10000.0 | a / s: 200.0 |"),
            "{table}"
        );
        assert!(markdown(&v).contains("an unsolved run counting as the time limit"));
    }

    #[test]
    fn a_chain_says_which_stage_decided() {
        // p = 0.5: exact SAT, exact UNSAT, search SAT, search UNSAT, a timeout (no stage);
        // the stages are named in the chain's order, not in the order they first answer.
        let chain = |seed, status: &str, by: &str| Row {
            decided_by: by.into(),
            solver: "search@30+exact".into(),
            ..run("a", "0.5", seed, status, Some(10.0))
        };
        let rows = vec![
            chain(1, "SAT", "exact"),
            chain(2, "UNSAT", "exact"),
            chain(3, "SAT", "search"),
            chain(4, "UNSAT", "search"),
            chain(5, "TIMEOUT", ""),
        ];
        let v = by_value(&rows);
        let t = table(&v);
        assert!(t.lines().next().unwrap().ends_with("| decided by |"), "{t}");
        assert!(
            t.lines()
                .nth(2)
                .unwrap()
                .ends_with("| search 2 (1 SAT), exact 2 (1 SAT) |"),
            "{t}"
        );
        assert!(markdown(&v).contains("Decided by"));
        // Without chains, no such column.
        assert!(!table(&by_value(&sweep())).contains("decided by"));
    }

    #[test]
    fn instances_side_by_side() {
        let rows = sweep();
        let configs: Vec<(String, String)> = ["c", "a"]
            .iter()
            .map(|e| (e.to_string(), "s".to_string()))
            .collect();
        let t = instances_table(&rows, &configs);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "| n | p | seed | c / s | a / s |");
        assert_eq!(lines[1], "|---:|---:|---:|---|---|");
        // 0.10 first (by number), then 0.5 by seed; unsolved runs by their status' first word.
        assert_eq!(lines[2], "| 12 | 0.10 | 1 | 0.01 s SAT | 0.01 s SAT |");
        assert_eq!(lines[3], "| 12 | 0.5 | 1 | TIMEOUT | 0.10 s SAT |");
        assert_eq!(lines[4], "| 12 | 0.5 | 2 | 0.05 s UNSAT | 0.20 s UNSAT |");
        assert_eq!(lines[5], "| 12 | 0.5 | 3 | ERROR | TIMEOUT |");
        assert_eq!(lines.len(), 6);
        // A configuration that did not run an instance: `-`.
        let t = instances_table(&rows[..1], &configs);
        assert!(t.ends_with("| 12 | 0.5 | 1 | - | 0.10 s SAT |\n"), "{t}");
    }

    #[test]
    fn disagreements_are_found_and_named() {
        let rows = sweep();
        let a = agreement(&rows);
        assert_eq!((a.instances, a.decided), (4, 3));
        assert!(a.disagreements.is_empty());
        assert!(a.to_string().starts_with("Answers: every run"), "{a}");
        // c answers seed 1 of p = 0.5 UNSAT: a and b said SAT.
        let mut bad = rows.clone();
        bad[2] = run("c", "0.5", 1, "UNSAT", Some(5.0));
        let a = agreement(&bad);
        assert_eq!(a.disagreements.len(), 1);
        assert_eq!(
            a.disagreements[0].to_string(),
            "n = 12, blocked p = 0.5, seed 1: SAT by a / s, b / s; UNSAT by c / s"
        );
        assert!(
            a.to_string().starts_with("ANSWERS DISAGREE: 1 of the 3"),
            "{a}"
        );
        let v = by_value(&bad);
        assert_eq!((v[1].sat, v[1].unsat, v[1].disputed), (0, 1, 1));
        // Two families in one table: the value's column names them.
        let mut other = run("a", "3", 1, "SAT", Some(1.0));
        other.family = "completion".into();
        other.parameter = "k".into();
        let mut rows = sweep();
        rows.push(other);
        let t = table(&by_value(&rows));
        assert!(t.starts_with("| n | value |"), "{t}");
        assert!(t.contains("| 12 | completion k=3 | 1 |"), "{t}");
    }
}
