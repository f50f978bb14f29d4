//! Scores of a sweep as SAT-competition papers report them, and the data of a cactus plot
//! (instances solved against time) and of a scatter plot of two configurations instance by
//! instance ([`super::plot`] draws both).
//!
//! A *configuration* is an (encoding, solver); an *instance* is a point of the sweep: n,
//! family, parameter, value, seed and shuffled copy ([`instance_key`]). Per configuration, over
//! its rows: the instances, the number solved, SAT and UNSAT apart, the PAR-2 score, the median
//! and 90th percentile time, the median and total time of the solved runs, the instances it
//! alone solved (*unique*) and those on which it is the fastest (its *contributions* to the
//! virtual best solver). The *virtual best solver* (VBS) takes, for every instance, the best
//! time of any configuration; it is scored like a configuration.
//!
//! A run is *solved* when it answered SAT or UNSAT (checked) and has a time. PAR-2 is the mean
//! over the instances of the time of a solved run and twice the time limit for any other (a
//! timeout, a skipped run, a wrong answer or none), in seconds. Medians and percentiles count
//! an unsolved run as the time limit. Every time is a run's [`time_s`], the scores' one time
//! basis ([`TIME_BASIS`]).

use super::transition::nearest_rank;
use super::{median, Row};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The name of the time basis of [`time_s`], as [`Scores::time_basis`] records it: `CPU`, the
/// CPU time of the solver's processes, as the SAT competition scores.
pub const TIME_BASIS: &str = "CPU";

/// The time basis of rows of files written before CPU time was measured: the wall-clock
/// `solve_ms` ([`time_s`]).
pub const WALL_BASIS: &str = "wall";

/// The time basis of rows of both kinds.
pub const MIXED_BASIS: &str = "CPU, wall where no CPU time was measured";

/// The time basis of the scores of `rows` ([`time_s`]): [`TIME_BASIS`] when every row with a
/// time has a CPU time, [`WALL_BASIS`] when none has, [`MIXED_BASIS`] otherwise.
pub fn time_basis(rows: &[Row]) -> &'static str {
    let timed = || rows.iter().filter(|r| time_s(r).is_some());
    match (
        timed().any(|r| r.cpu_s.is_some()),
        timed().any(|r| r.cpu_s.is_none()),
    ) {
        (false, true) => WALL_BASIS,
        (true, true) => MIXED_BASIS,
        _ => TIME_BASIS,
    }
}

/// A run's time in seconds for the scores, none when the row has none.
///
/// This is the time basis of every summary here (solved, PAR-2, medians, totals, the virtual
/// best solver, the cactus and scatter plots): the CPU time (user + system) of the solver and
/// its processes, `cpu_s` (the median of the repeats); for a row of a file written before CPU
/// time was measured, its wall-clock `solve_ms`. To score another time, change this function,
/// [`limit_s`] and [`TIME_BASIS`] together.
pub fn time_s(r: &Row) -> Option<f64> {
    r.cpu_s.or_else(|| r.solve_ms.map(|ms| ms / 1e3))
}

/// A run's time limit on the scores' time basis, in seconds: the CPU limit, or the wall-clock
/// limit when it is smaller or there is none (a run stops at the first it reaches).
pub fn limit_s(r: &Row) -> f64 {
    r.cpu_limit_s.map_or(r.timeout_s, |c| c.min(r.timeout_s))
}

/// What identifies an instance across configurations: n, family, parameter, value (a number
/// as [`same_value`] writes it), seed and shuffled copy (a row's key without its encoding and
/// solver).
pub type InstanceKey = (usize, String, String, String, Option<u64>, Option<u64>);

/// The instance `r` measured.
pub fn instance_key(r: &Row) -> InstanceKey {
    (
        r.n,
        r.family.clone(),
        r.parameter.clone(),
        same_value(&r.value),
        r.seed,
        r.shuffle,
    )
}

/// A parameter's value as instances are matched by it: a number in its shortest form (`0.850`
/// and `0.85` are the same value, as the generator reads them), any other text as it is.
pub fn same_value(value: &str) -> String {
    match value.parse::<f64>() {
        Ok(x) if x.is_finite() => x.to_string(),
        _ => value.to_string(),
    }
}

/// `true` for a solved run: it answered SAT or UNSAT and has a time ([`time_s`]).
pub fn solved(r: &Row) -> bool {
    matches!(r.status.as_str(), "SAT" | "UNSAT") && time_s(r).is_some()
}

/// A run's time in seconds for the scores: its time when solved, else the time limit.
fn capped_s(r: &Row) -> f64 {
    match time_s(r) {
        Some(t) if solved(r) => t,
        _ => limit_s(r),
    }
}

/// One run as the scores count it: its answer and time when solved, its time limit, and
/// whether it was stopped at the limit.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// `Some((sat, seconds))` when solved.
    solved: Option<(bool, f64)>,
    /// The time limit, in seconds.
    limit_s: f64,
    /// Stopped at the time limit (`TIMEOUT`).
    timed_out: bool,
}

impl Run {
    fn of(r: &Row) -> Run {
        Run {
            solved: solved(r).then(|| (r.status == "SAT", capped_s(r))),
            limit_s: limit_s(r),
            timed_out: timed_out(r),
        }
    }
}

/// `true` for a run stopped at the time limit (`TIMEOUT`: the wall-clock or the CPU limit).
pub fn timed_out(r: &Row) -> bool {
    r.status == "TIMEOUT"
}

/// The totals of a list of runs, one per instance: a configuration's or the virtual best
/// solver's. Times in seconds on the scores' time basis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tally {
    /// Instances (runs).
    pub instances: usize,
    /// Solved (SAT or UNSAT).
    pub solved: usize,
    /// Solved with the answer SAT.
    pub solved_sat: usize,
    /// Solved with the answer UNSAT.
    pub solved_unsat: usize,
    /// Stopped at the time limit (for the virtual best solver: instances no configuration
    /// solved and some stopped at the limit).
    pub timeouts: usize,
    /// PAR-2: the mean time, an unsolved run counting twice the time limit.
    pub par2_s: f64,
    /// Total time, an unsolved run counting as the time limit: what running every instance
    /// took, up to the limit.
    pub total_s: f64,
    /// Median time, an unsolved run counting as the time limit.
    pub median_s: f64,
    /// 90th percentile (nearest rank) of the same times.
    pub p90_s: f64,
    /// Median time of the solved runs; none when none is solved.
    pub solved_median_s: Option<f64>,
    /// Total time of the solved runs (0 when none is solved).
    pub solved_total_s: f64,
}

/// The tally of `runs`; none for no runs.
fn tally(runs: &[Run]) -> Option<Tally> {
    if runs.is_empty() {
        return None;
    }
    let solved: Vec<f64> = runs.iter().filter_map(|r| r.solved).map(|s| s.1).collect();
    let capped: Vec<f64> = runs
        .iter()
        .map(|r| r.solved.map_or(r.limit_s, |s| s.1))
        .collect();
    let par2 = runs
        .iter()
        .map(|r| r.solved.map_or(2.0 * r.limit_s, |s| s.1))
        .sum::<f64>()
        / runs.len() as f64;
    let sat = runs.iter().filter(|r| matches!(r.solved, Some((true, _))));
    let solved_sat = sat.count();
    Some(Tally {
        instances: runs.len(),
        solved: solved.len(),
        solved_sat,
        solved_unsat: solved.len() - solved_sat,
        timeouts: runs.iter().filter(|r| r.timed_out).count(),
        par2_s: par2,
        total_s: capped.iter().fold(0.0, |a, b| a + b),
        median_s: median(&capped),
        p90_s: nearest_rank(&capped, 0.9),
        solved_median_s: (!solved.is_empty()).then(|| median(&solved)),
        // Folded from +0 (an empty `sum` of floats is -0).
        solved_total_s: solved.iter().fold(0.0, |a, b| a + b),
    })
}

/// The score of one configuration (encoding, solver) over its rows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// The encoding.
    pub encoding: String,
    /// The solver.
    pub solver: String,
    /// Its totals.
    #[serde(flatten)]
    pub tally: Tally,
    /// Instances this configuration solved and no other configuration of the sweep did.
    pub unique: usize,
    /// Instances solved on which this configuration has the virtual best solver's time (the
    /// fastest; on a tie, every configuration tied counts it).
    pub vbs_contributions: usize,
}

/// The scores of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scores {
    /// The time basis of every time here ([`time_basis`]: [`TIME_BASIS`], or [`WALL_BASIS`]
    /// for the rows of older files).
    pub time_basis: &'static str,
    /// Per configuration, most solved first, then lowest PAR-2.
    pub configurations: Vec<Score>,
    /// The virtual best solver: per instance, the best time of any configuration (a solved
    /// run's; the instance unsolved when no configuration solved it, at the longest time limit
    /// of its runs), with the answer of that run. None for a sweep without rows.
    pub vbs: Option<Tally>,
}

/// The rows of the instances that every configuration ran ([`instance_key`]), so that
/// configurations of different sweeps are scored on the same instances; with the number of
/// instances left out (run by some configurations only).
pub fn on_common_instances(rows: Vec<Row>) -> (Vec<Row>, usize) {
    let mut ran: BTreeMap<InstanceKey, BTreeSet<(&str, &str)>> = BTreeMap::new();
    let configs: BTreeSet<(&str, &str)> = rows
        .iter()
        .map(|r| (r.encoding.as_str(), r.solver.as_str()))
        .collect();
    for r in &rows {
        ran.entry(instance_key(r))
            .or_default()
            .insert((&r.encoding, &r.solver));
    }
    let common: BTreeSet<InstanceKey> = ran
        .iter()
        .filter(|(_, c)| c.len() == configs.len())
        .map(|(k, _)| k.clone())
        .collect();
    let left_out = ran.len() - common.len();
    let kept = rows
        .into_iter()
        .filter(|r| common.contains(&instance_key(r)))
        .collect();
    (kept, left_out)
}

/// The scores of `rows` ([`Scores`]).
pub fn scores(rows: &[Row]) -> Scores {
    let mut configs: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        if !configs.contains(&(r.encoding.as_str(), r.solver.as_str())) {
            configs.push((&r.encoding, &r.solver));
        }
    }
    let index = |r: &Row| {
        configs
            .iter()
            .position(|&(e, s)| e == r.encoding && s == r.solver)
            .expect("every row's configuration is listed")
    };
    let mut instances: BTreeMap<InstanceKey, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        instances.entry(instance_key(r)).or_default().push(r);
    }
    let (mut unique, mut contributions) = (vec![0; configs.len()], vec![0; configs.len()]);
    let mut vbs = Vec::new();
    for runs in instances.values() {
        let limit = runs.iter().map(|r| limit_s(r)).fold(0.0, f64::max);
        let best = runs
            .iter()
            .filter(|r| solved(r))
            .min_by(|a, b| capped_s(a).total_cmp(&capped_s(b)));
        vbs.push(Run {
            solved: best.map(|r| Run::of(r).solved.expect("solved")),
            limit_s: limit,
            timed_out: best.is_none() && runs.iter().any(|r| timed_out(r)),
        });
        let Some(best) = best else { continue };
        let solvers: BTreeSet<usize> = runs
            .iter()
            .filter(|r| solved(r))
            .map(|r| index(r))
            .collect();
        if let [only] = solvers.iter().copied().collect::<Vec<_>>()[..] {
            unique[only] += 1;
        }
        let fastest: BTreeSet<usize> = runs
            .iter()
            .filter(|r| solved(r) && capped_s(r) == capped_s(best))
            .map(|r| index(r))
            .collect();
        for c in fastest {
            contributions[c] += 1;
        }
    }
    let mut out: Vec<Score> = configs
        .iter()
        .enumerate()
        .map(|(i, &(e, s))| {
            let runs: Vec<Run> = rows
                .iter()
                .filter(|r| r.encoding == e && r.solver == s)
                .map(Run::of)
                .collect();
            Score {
                encoding: e.to_string(),
                solver: s.to_string(),
                tally: tally(&runs).expect("a configuration has rows"),
                unique: unique[i],
                vbs_contributions: contributions[i],
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.tally
            .solved
            .cmp(&a.tally.solved)
            .then_with(|| a.tally.par2_s.total_cmp(&b.tally.par2_s))
    });
    Scores {
        time_basis: time_basis(rows),
        configurations: out,
        vbs: tally(&vbs),
    }
}

/// The scores as a Markdown table with a caption: [`table`], then what its columns mean.
pub fn markdown(scores: &Scores) -> String {
    format!(
        "{}\nTime basis: {}. Solved = answered SAT or UNSAT (checked). Timeouts = stopped at \
         the time limit. Unique = solved by this configuration only. VBS (virtual best solver) \
         = the best time of any configuration per instance; a configuration's VBS \
         contributions = the instances on which it has that time (ties count for each). PAR-2 \
         = mean time, an unsolved run (timeout, skipped, failed) counting twice the time \
         limit; total = the sum of the times, an unsolved run counting as the limit. Median \
         and p90 count an unsolved run as the time limit; solved median and total are over \
         the solved runs.\n",
        table(scores),
        basis_words(scores.time_basis)
    )
}

/// The scores as a Markdown table alone: a line per configuration, then the virtual best
/// solver's.
pub fn table(scores: &Scores) -> String {
    let mut s = String::from(
        "| encoding | solver | instances | solved | SAT | UNSAT | timeouts | unique | \
         VBS contributions | PAR-2 (s) | total (s) | median ms | p90 ms | solved median ms | \
         solved total ms |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let line = |s: &mut String, enc: &str, solver: &str, t: &Tally, extra: [String; 2]| {
        let solved_median = t
            .solved_median_s
            .map_or_else(|| "-".to_string(), |m| format!("{:.1}", m * 1e3));
        s.push_str(&format!(
            "| {enc} | {solver} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.1} | {:.1} | \
             {:.1} | {solved_median} | {:.1} |\n",
            t.instances,
            t.solved,
            t.solved_sat,
            t.solved_unsat,
            t.timeouts,
            extra[0],
            extra[1],
            t.par2_s,
            t.total_s,
            t.median_s * 1e3,
            t.p90_s * 1e3,
            t.solved_total_s * 1e3
        ));
    };
    for r in &scores.configurations {
        let extra = [r.unique.to_string(), r.vbs_contributions.to_string()];
        line(&mut s, &r.encoding, &r.solver, &r.tally, extra);
    }
    if let Some(vbs) = &scores.vbs {
        line(&mut s, "VBS", "best of all", vbs, ["".into(), "".into()]);
    }
    s
}

/// The time basis as the caption says it.
fn basis_words(basis: &str) -> String {
    match basis {
        TIME_BASIS => "CPU time of the solver's processes (the median of the repeats)".to_string(),
        WALL_BASIS => "wall-clock time of the solver's process, solve_ms (the rows have no CPU \
                       time: written before it was measured)"
            .to_string(),
        other => other.to_string(),
    }
}

/// The cactus plot's series: for each (encoding, solver), label `encoding / solver`, the times
/// of its solved runs in milliseconds, sorted (the k-th point: k instances solved within that
/// time).
pub fn cactus(rows: &[Row]) -> Vec<(String, Vec<f64>)> {
    let mut out: Vec<(String, Vec<f64>)> = Vec::new();
    for r in rows {
        let label = format!("{} / {}", r.encoding, r.solver);
        let i = match out.iter().position(|(l, _)| *l == label) {
            Some(i) => i,
            None => {
                out.push((label, Vec::new()));
                out.len() - 1
            }
        };
        if solved(r) {
            out[i].1.push(capped_s(r) * 1e3);
        }
    }
    for (_, v) in &mut out {
        v.sort_by(f64::total_cmp);
    }
    out
}

/// The scatter plot's points for configurations `a` and `b` (each `encoding / solver`): for
/// every instance both ran ([`instance_key`]), their times in milliseconds, an unsolved run at
/// the time limit, with whether each was solved.
pub fn scatter(rows: &[Row], a: &str, b: &str) -> Vec<(f64, f64, bool, bool)> {
    let label = |r: &Row| format!("{} / {}", r.encoding, r.solver);
    let mut out = Vec::new();
    for ra in rows.iter().filter(|r| label(r) == a) {
        let key = instance_key(ra);
        if let Some(rb) = rows
            .iter()
            .find(|r| label(r) == b && instance_key(r) == key)
        {
            out.push((
                capped_s(ra) * 1e3,
                capped_s(rb) * 1e3,
                solved(ra),
                solved(rb),
            ));
        }
    }
    out
}
#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A run of configuration `enc` (solver `s`) on seed `seed` of blocked n = 10, p = 0.5, with
    /// the 10 s limit.
    pub(in crate::experiment) fn row(enc: &str, seed: u64, status: &str, ms: Option<f64>) -> Row {
        Row {
            n: 10,
            encoding: enc.into(),
            solver: "s".into(),
            timeout_s: 10.0,
            status: status.into(),
            solve_ms: ms,
            family: "blocked".into(),
            value: "0.5".into(),
            seed: Some(seed),
            ..Row::default()
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn par2_by_hand() {
        // a: 1 s, 3 s, a timeout (2 x 10 s) -> (1 + 3 + 20) / 3 = 8 s; b: all solved.
        // (encoding, seed, status, milliseconds; negative: none)
        let rows: Vec<Row> = [
            ("a", 1, "SAT", 1000.0),
            ("a", 2, "UNSAT", 3000.0),
            ("a", 3, "TIMEOUT", -1.0),
            ("b", 1, "SAT", 500.0),
            ("b", 2, "SAT", 500.0),
            ("b", 3, "WRONG", 1.0),
        ]
        .iter()
        .map(|&(e, seed, st, ms)| row(e, seed, st, (ms >= 0.0).then_some(ms)))
        .collect();
        let s = scores(&rows).configurations;
        // b: 0.5 s, 0.5 s and a wrong answer at 2 x 10 s -> 7 s. Both solved 2 of 3, so the
        // lower PAR-2 comes first.
        assert_eq!((s[0].encoding.as_str(), s[1].encoding.as_str()), ("b", "a"));
        assert_eq!((s[1].tally.solved, s[1].tally.instances), (2, 3));
        assert!(close(s[1].tally.par2_s, 8.0));
        assert!(close(s[0].tally.par2_s, 7.0));
        // Median of a: 1 s, 3 s, 10 s (the limit) -> 3 s; p90 -> 10 s.
        let a = s.iter().find(|x| x.encoding == "a").unwrap();
        assert_eq!((a.tally.median_s, a.tally.p90_s), (3.0, 10.0));
        // Cactus: solved times sorted.
        let c = cactus(&rows);
        assert_eq!(c[0], ("a / s".to_string(), vec![1000.0, 3000.0]));
        // Scatter: instances matched by seed, unsolved at the limit.
        let p = scatter(&rows, "a / s", "b / s");
        assert_eq!(p.len(), 3);
        assert_eq!(p[2], (10000.0, 10000.0, false, false));
        assert_eq!(p[0], (1000.0, 500.0, true, true));
    }

    /// A row of configuration `config` (`a`, `b` on solver `s`; `c` on solver `t`) on
    /// instance `inst` (1..=5, of two families, two seeds and two sizes).
    fn on(config: &str, inst: u32, status: &str, ms: Option<f64>) -> Row {
        let (family, parameter, value, seed, n) = match inst {
            1 => ("blocked", "p", "0.5", 1, 10),
            2 => ("blocked", "p", "0.5", 2, 10),
            3 => ("completion", "k", "3", 1, 10),
            4 => ("completion", "k", "3", 2, 10),
            _ => ("blocked", "p", "0.5", 1, 12),
        };
        Row {
            n,
            encoding: config.into(),
            solver: if config == "c" { "t" } else { "s" }.into(),
            timeout_s: 10.0,
            status: status.into(),
            solve_ms: ms,
            family: family.into(),
            parameter: parameter.into(),
            value: value.into(),
            seed: Some(seed),
            ..Row::default()
        }
    }

    /// The instances by configuration (times in ms; 10 s limit):
    ///
    /// | instance | a | b | c |
    /// |---|---|---|---|
    /// | 1 | SAT 1000 | SAT 2000 | SAT 1000 (tie with a) |
    /// | 2 | UNSAT 4000 | TIMEOUT | WRONG 100 |
    /// | 3 | SAT 500 | SAT 300 | TIMEOUT |
    /// | 4 | TIMEOUT | TIMEOUT | ERROR |
    /// | 5 | SKIPPED | UNSAT 6000 | UNSAT 7000 |
    fn sweep() -> Vec<Row> {
        let t = |ms: f64| Some(ms);
        vec![
            on("c", 5, "UNSAT", t(7000.0)),
            on("a", 1, "SAT", t(1000.0)),
            on("b", 1, "SAT", t(2000.0)),
            on("c", 1, "SAT", t(1000.0)),
            on("a", 2, "UNSAT", t(4000.0)),
            on("b", 2, "TIMEOUT", None),
            on("c", 2, "WRONG: UNSAT where solutions exist", t(100.0)),
            on("a", 3, "SAT", t(500.0)),
            on("b", 3, "SAT", t(300.0)),
            on("c", 3, "TIMEOUT", None),
            on("a", 4, "TIMEOUT", None),
            on("b", 4, "TIMEOUT", None),
            on("c", 4, "ERROR: no answer", None),
            on("a", 5, "SKIPPED", None),
            on("b", 5, "UNSAT", t(6000.0)),
        ]
    }

    #[test]
    fn configurations_unique_and_virtual_best_by_hand() {
        let s = scores(&sweep());
        // The rows have wall-clock times only, as those of older files.
        assert_eq!(s.time_basis, WALL_BASIS);
        let names: Vec<(&str, &str)> = s
            .configurations
            .iter()
            .map(|c| (c.encoding.as_str(), c.solver.as_str()))
            .collect();
        // a and b both solve 3 (a with the lower PAR-2), c 2.
        assert_eq!(names, [("a", "s"), ("b", "s"), ("c", "t")]);
        // Per configuration: solved, SAT, UNSAT, unique, VBS contributions, PAR-2, median,
        // p90, solved median, solved total (seconds), worked out by hand:
        // a: solved 1, 2, 3 (1 + 4 + 0.5 = 5.5 s, median 1); PAR-2 (5.5 + 20 + 20) / 5 = 9.1;
        //    times 0.5 1 4 10 10 -> median 4, p90 10; alone on 2; fastest on 1 (tie) and 2.
        // b: solved 1, 3, 5 (2 + 0.3 + 6 = 8.3 s, median 2); PAR-2 (8.3 + 40) / 5 = 9.66;
        //    times 0.3 2 6 10 10 -> median 6; alone on none; fastest on 3 and 5.
        // c: solved 1, 5 (1 + 7 = 8 s, median 4; 2 is WRONG); PAR-2 (8 + 60) / 5 = 13.6;
        //    times 1 7 10 10 10 -> median 10; alone on none; fastest on 1 (tie).
        // Timeouts and the total (an unsolved run at the limit): a 1 (4; 5 is SKIPPED),
        // 5.5 + 20 = 25.5; b 2, 8.3 + 20 = 28.3; c 1 (3; 2 is WRONG, 4 ERROR), 8 + 30 = 38.
        type Expected = (usize, usize, usize, usize, usize, f64, f64, f64, f64, f64);
        let expected: [(Expected, usize, f64); 3] = [
            ((3, 2, 1, 1, 2, 9.1, 4.0, 10.0, 1.0, 5.5), 1, 25.5),
            ((3, 2, 1, 0, 2, 9.66, 6.0, 10.0, 2.0, 8.3), 2, 28.3),
            ((2, 1, 1, 0, 1, 13.6, 10.0, 10.0, 4.0, 8.0), 1, 38.0),
        ];
        for (c, (e, timeouts, total)) in s.configurations.iter().zip(expected) {
            let t = &c.tally;
            assert_eq!(t.instances, 5, "{}", c.encoding);
            assert_eq!(t.timeouts, timeouts, "{}", c.encoding);
            assert!(close(t.total_s, total), "{}: {}", c.encoding, t.total_s);
            assert_eq!(
                (t.solved, t.solved_sat, t.solved_unsat),
                (e.0, e.1, e.2),
                "{}",
                c.encoding
            );
            assert_eq!(
                (c.unique, c.vbs_contributions),
                (e.3, e.4),
                "{}",
                c.encoding
            );
            for (got, want) in [
                (t.par2_s, e.5),
                (t.median_s, e.6),
                (t.p90_s, e.7),
                (t.solved_median_s.unwrap(), e.8),
                (t.solved_total_s, e.9),
            ] {
                assert!(close(got, want), "{}: {got} != {want}", c.encoding);
            }
        }
        // The VBS: 1 s SAT, 4 s UNSAT, 0.3 s SAT, unsolved, 6 s UNSAT: 4 solved (2 SAT,
        // 2 UNSAT), total 11.3 s, solved median (1 + 4) / 2 = 2.5; PAR-2 (11.3 + 20) / 5 =
        // 6.26; times 0.3 1 4 6 10 -> median 4, p90 10, total 21.3; instance 4 (timeouts and
        // an error) is its one timeout.
        let v = s.vbs.clone().unwrap();
        assert_eq!(
            (
                v.instances,
                v.solved,
                v.solved_sat,
                v.solved_unsat,
                v.timeouts
            ),
            (5, 4, 2, 2, 1)
        );
        assert!(close(v.total_s, 21.3), "{}", v.total_s);
        for (got, want) in [
            (v.par2_s, 6.26),
            (v.median_s, 4.0),
            (v.p90_s, 10.0),
            (v.solved_median_s.unwrap(), 2.5),
            (v.solved_total_s, 11.3),
        ] {
            assert!(close(got, want), "VBS: {got} != {want}");
        }
        // The table: a line per configuration and the VBS's.
        let md = markdown(&s);
        assert!(
            md.contains(
                "| a | s | 5 | 3 | 2 | 1 | 1 | 1 | 2 | 9.100 | 25.5 | 4000.0 | 10000.0 | 1000.0 | 5500.0 |"
            ),
            "{md}"
        );
        assert!(
            md.contains("| VBS | best of all | 5 | 4 | 2 | 2 | 1 |  |  | 6.260 | 21.3 | 4000.0 | 10000.0 | 2500.0 | 11300.0 |"),
            "{md}"
        );
        assert!(md.contains("Time basis: wall-clock time"), "{md}");
        // A CPU time on every timed row, on some.
        let mut rows = sweep();
        for r in rows.iter_mut() {
            r.cpu_s = r.solve_ms.map(|ms| ms / 1e3);
        }
        assert_eq!(time_basis(&rows), TIME_BASIS);
        assert!(markdown(&scores(&rows)).contains("Time basis: CPU time"));
        rows[0].cpu_s = None;
        assert_eq!(time_basis(&rows), MIXED_BASIS);
    }

    #[test]
    fn shuffled_copies_are_instances_of_their_own() {
        // Copy 1 of the formula: a fast; copy 2: b fast. Matched by copy, each is fastest once
        // and neither is unique.
        let copy = |enc: &str, k: u64, ms: f64| Row {
            shuffle: Some(k),
            ..row(enc, 1, "SAT", Some(ms))
        };
        let rows = vec![
            copy("a", 1, 100.0),
            copy("a", 2, 900.0),
            copy("b", 1, 800.0),
            copy("b", 2, 200.0),
        ];
        let s = scores(&rows);
        for c in &s.configurations {
            assert_eq!((c.unique, c.vbs_contributions), (0, 1), "{}", c.encoding);
        }
        let v = s.vbs.unwrap();
        assert_eq!((v.instances, v.solved), (2, 2));
        assert!(close(v.solved_total_s, 0.3));
        assert_eq!(
            scatter(&rows, "a / s", "b / s"),
            [(100.0, 800.0, true, true), (900.0, 200.0, true, true)]
        );
    }

    #[test]
    fn instances_match_by_value_as_a_number_and_common_ones_are_kept() {
        // 0.850 and 0.85 are one value; b ran instance 1 only, on the value written 0.85.
        let at = |enc: &str, value: &str, seed: u64| Row {
            value: value.into(),
            ..row(enc, seed, "SAT", Some(100.0))
        };
        assert_eq!(same_value("0.850"), same_value("0.85"));
        assert_eq!(same_value("board.txt"), "board.txt");
        let rows = vec![at("a", "0.850", 1), at("a", "0.850", 2), at("b", "0.85", 1)];
        assert_eq!(scores(&rows).vbs.unwrap().instances, 2);
        let (kept, left_out) = on_common_instances(rows);
        assert_eq!(left_out, 1);
        let seeds: Vec<(&str, Option<u64>)> =
            kept.iter().map(|r| (r.encoding.as_str(), r.seed)).collect();
        assert_eq!(seeds, [("a", Some(1)), ("b", Some(1))]);
    }

    #[test]
    fn nothing_solved_and_no_rows() {
        let rows = vec![row("a", 1, "TIMEOUT", None), row("a", 2, "SKIPPED", None)];
        let s = scores(&rows);
        let a = &s.configurations[0];
        assert_eq!((a.tally.solved, a.unique, a.vbs_contributions), (0, 0, 0));
        assert_eq!(a.tally.solved_median_s, None);
        assert_eq!(a.tally.solved_total_s.to_bits(), 0.0f64.to_bits());
        assert!(close(a.tally.par2_s, 20.0));
        assert_eq!(s.vbs.as_ref().map(|v| v.solved), Some(0));
        let md = markdown(&s);
        assert!(md.contains("| 10000.0 | - | 0.0 |"), "{md}");
        let none = scores(&[]);
        assert!(none.configurations.is_empty() && none.vbs.is_none());
    }
}
