//! Scores of a sweep as the SAT community reads them: per encoding and solver, over all the
//! sweep's instances, the number solved, the PAR-2 score, the median and 90th percentile solve
//! time; and the data of a cactus plot (instances solved against time) and of a scatter plot
//! of two configurations instance by instance ([`super::plot`] draws both).
//!
//! A run is *solved* when it answered SAT or UNSAT (checked). PAR-2 is the mean over the
//! instances of the solve time of a solved run and twice the time limit for any other (a
//! timeout, a skipped run, a wrong answer or none), in seconds. Medians and percentiles count
//! an unsolved run as the time limit.

use super::transition::nearest_rank;
use super::{median, Row};
use serde::Serialize;

/// The score of one (encoding, solver) over the sweep's instances.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// The encoding.
    pub encoding: String,
    /// The solver.
    pub solver: String,
    /// Instances (rows).
    pub instances: usize,
    /// Solved (SAT or UNSAT).
    pub solved: usize,
    /// PAR-2, in seconds.
    pub par2_s: f64,
    /// Median solve time in milliseconds, an unsolved run counting as the time limit.
    pub median_ms: f64,
    /// 90th percentile (nearest rank) of the same times.
    pub p90_ms: f64,
}

/// `true` for a solved run.
pub fn solved(r: &Row) -> bool {
    matches!(r.status.as_str(), "SAT" | "UNSAT") && r.solve_ms.is_some()
}

/// A run's time in seconds for the scores: its solve time when solved, else the time limit.
fn capped_s(r: &Row) -> f64 {
    match r.solve_ms {
        Some(t) if solved(r) => t / 1e3,
        _ => r.timeout_s,
    }
}

/// The scores of every (encoding, solver) of `rows`, most solved first, then lowest PAR-2.
pub fn scores(rows: &[Row]) -> Vec<Score> {
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.encoding.as_str(), r.solver.as_str())) {
            keys.push((&r.encoding, &r.solver));
        }
    }
    let mut out: Vec<Score> = keys
        .into_iter()
        .map(|(e, s)| {
            let group: Vec<&Row> = rows
                .iter()
                .filter(|r| r.encoding == e && r.solver == s)
                .collect();
            let par2: f64 = group
                .iter()
                .map(|r| {
                    if solved(r) {
                        capped_s(r)
                    } else {
                        2.0 * r.timeout_s
                    }
                })
                .sum::<f64>()
                / group.len() as f64;
            let times: Vec<f64> = group.iter().map(|r| capped_s(r) * 1e3).collect();
            Score {
                encoding: e.to_string(),
                solver: s.to_string(),
                instances: group.len(),
                solved: group.iter().filter(|r| solved(r)).count(),
                par2_s: par2,
                median_ms: median(&times),
                p90_ms: nearest_rank(&times, 0.9),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.solved
            .cmp(&a.solved)
            .then_with(|| a.par2_s.total_cmp(&b.par2_s))
    });
    out
}

/// The scores as a Markdown table with a caption.
pub fn markdown(scores: &[Score]) -> String {
    let mut s = String::from(
        "| encoding | solver | instances | solved | PAR-2 (s) | median ms | p90 ms |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    for r in scores {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {:.3} | {:.1} | {:.1} |\n",
            r.encoding, r.solver, r.instances, r.solved, r.par2_s, r.median_ms, r.p90_ms
        ));
    }
    s.push_str(
        "\nSolved = answered SAT or UNSAT (checked). PAR-2 = mean time, an unsolved run (timeout, \
         skipped, failed) counting twice the time limit. Median and p90 count an unsolved run as \
         the time limit.\n",
    );
    s
}

/// The cactus plot's series: for each (encoding, solver), label `encoding / solver`, the solve
/// times of its solved runs in milliseconds, sorted (the k-th point: k instances solved within
/// that time).
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
            out[i].1.extend(r.solve_ms);
        }
    }
    for (_, v) in &mut out {
        v.sort_by(f64::total_cmp);
    }
    out
}

/// The scatter plot's points for configurations `a` and `b` (each `encoding / solver`): for
/// every instance both ran, their times in milliseconds, an unsolved run at the time limit,
/// with whether each was solved. Instances are matched by n, family, value, seed and file.
pub fn scatter(rows: &[Row], a: &str, b: &str) -> Vec<(f64, f64, bool, bool)> {
    let label = |r: &Row| format!("{} / {}", r.encoding, r.solver);
    let key = |r: &Row| (r.n, r.family.clone(), r.value.clone(), r.seed);
    let mut out = Vec::new();
    for ra in rows.iter().filter(|r| label(r) == a) {
        if let Some(rb) = rows.iter().find(|r| label(r) == b && key(r) == key(ra)) {
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
mod tests {
    use super::*;

    fn row(enc: &str, seed: u64, status: &str, ms: Option<f64>) -> Row {
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

    #[test]
    fn par2_by_hand() {
        // a: 1 s, 3 s, a timeout (2 x 10 s) -> (1 + 3 + 20) / 3 = 8 s; b: all solved.
        let rows = vec![
            row("a", 1, "SAT", Some(1000.0)),
            row("a", 2, "UNSAT", Some(3000.0)),
            row("a", 3, "TIMEOUT", None),
            row("b", 1, "SAT", Some(500.0)),
            row("b", 2, "SAT", Some(500.0)),
            row("b", 3, "WRONG", Some(1.0)),
        ];
        let s = scores(&rows);
        // b: 0.5 s, 0.5 s and a wrong answer at 2 x 10 s -> 7 s. Both solved 2 of 3, so the
        // lower PAR-2 comes first.
        assert_eq!((s[0].encoding.as_str(), s[1].encoding.as_str()), ("b", "a"));
        assert_eq!((s[1].solved, s[1].instances), (2, 3));
        assert!((s[1].par2_s - 8.0).abs() < 1e-9);
        assert!((s[0].par2_s - 7.0).abs() < 1e-9);
        // Median of a: 1 s, 3 s, 10 s (the limit) -> 3 s; p90 -> 10 s.
        let a = s.iter().find(|x| x.encoding == "a").unwrap();
        assert_eq!((a.median_ms, a.p90_ms), (3000.0, 10000.0));
        // Cactus: solved times sorted.
        let c = cactus(&rows);
        assert_eq!(c[0], ("a / s".to_string(), vec![1000.0, 3000.0]));
        // Scatter: instances matched by seed, unsolved at the limit.
        let p = scatter(&rows, "a / s", "b / s");
        assert_eq!(p.len(), 3);
        assert_eq!(p[2], (10000.0, 10000.0, false, false));
        assert_eq!(p[0], (1000.0, 500.0, true, true));
    }
}
