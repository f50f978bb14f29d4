//! The phase transition of a family sweep: per board size, parameter value, encoding and
//! solver, how many instances were satisfiable, and how long solving took.
//!
//! Times: a run that timed out counts as the time limit (so the median and the 90th percentile
//! are lower bounds once timeouts are among them), a run that failed (`WRONG`, `ERROR`) is left
//! out. The 90th percentile is the nearest rank: the smallest time at least 90 % of the
//! counted times do not exceed.

use super::{is_failure, median, Row};
use serde::Serialize;
use std::cmp::Ordering;

/// One line of the summary: the rows of one (n, value, encoding, solver).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Board size.
    pub n: usize,
    /// The family.
    pub family: String,
    /// The swept parameter.
    pub parameter: String,
    /// Its value.
    pub value: String,
    /// The encoding.
    pub encoding: String,
    /// The solver.
    pub solver: String,
    /// Rows (instances, one per seed).
    pub instances: usize,
    /// Rows answered SAT (with a verified model).
    pub sat: usize,
    /// Rows answered UNSAT.
    pub unsat: usize,
    /// Rows without an answer that are no failure: stopped at a time or memory limit
    /// (`TIMEOUT`, `MEMOUT`), an incomplete solver's `UNKNOWN`, or `SKIPPED`.
    pub no_answer: usize,
    /// Rows with a wrong answer or none (`WRONG`, `ERROR`).
    pub failures: usize,
    /// SAT / (SAT + UNSAT); none when no instance was decided.
    pub fraction_sat: Option<f64>,
    /// Median solve time in milliseconds, a timeout counting as the time limit; none when no
    /// run counts.
    pub median_ms: Option<f64>,
    /// 90th percentile (nearest rank) of the same times.
    pub p90_ms: Option<f64>,
}

/// The `q`-quantile (0 < q <= 1) of a non-empty list by the nearest-rank method: the
/// `ceil(q * len)`-th smallest value.
pub fn nearest_rank(v: &[f64], q: f64) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
    s[rank - 1]
}

/// Orders parameter values by number when both are numbers (a fraction of n, `0.9n`, by its
/// fraction), numbers first, then as text in natural order ([`natural_cmp`]: `e-26-3.txt`
/// before `e-26-13.txt`).
pub fn compare_values(a: &str, b: &str) -> Ordering {
    // A fraction of n (`0.9n`) orders by its number among the other fractions.
    let number = |v: &str| {
        v.parse::<f64>()
            .or_else(|_| v.strip_suffix('n').unwrap_or("?").parse())
    };
    match (number(a), number(b)) {
        (Ok(x), Ok(y)) => x.total_cmp(&y),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => natural_cmp(a, b),
    }
}

/// Natural order of two texts: runs of ASCII digits compare by their number (`3` before
/// `13`), everything else character by character; texts equal in that order (`07` and `7`)
/// are ordered as plain text.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let digits = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (i, j) = (digits(x), digits(y));
                fn trim(s: &[u8]) -> &[u8] {
                    let z = s.iter().take_while(|&&c| c == b'0').count();
                    &s[z..]
                }
                let (u, v) = (trim(&x[..i]), trim(&y[..j]));
                // Without leading zeros, the longer run is the larger number.
                let by_number = u.len().cmp(&v.len()).then_with(|| u.cmp(v));
                if by_number != Ordering::Equal {
                    return by_number;
                }
                (x, y) = (&x[i..], &y[j..]);
            }
            (Some(p), Some(q)) => {
                if p != q {
                    return p.cmp(q);
                }
                (x, y) = (&x[1..], &y[1..]);
            }
        }
    }
}

/// The summary of `rows`, one line per (n, family, parameter, value, encoding, solver),
/// ordered by n, then value (numerically), encoding and solver.
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    let mut sorted: Vec<&Row> = rows.iter().collect();
    let key_cmp = |a: &Row, b: &Row| {
        a.n.cmp(&b.n)
            .then_with(|| a.family.cmp(&b.family))
            .then_with(|| a.parameter.cmp(&b.parameter))
            .then_with(|| compare_values(&a.value, &b.value))
            .then_with(|| a.value.cmp(&b.value))
            .then_with(|| a.encoding.cmp(&b.encoding))
            .then_with(|| a.solver.cmp(&b.solver))
    };
    sorted.sort_by(|a, b| key_cmp(a, b));
    let mut out = Vec::new();
    for group in sorted.chunk_by(|a, b| key_cmp(a, b) == Ordering::Equal) {
        let first = group[0];
        let count = |s: &str| group.iter().filter(|r| r.status == s).count();
        let (sat, unsat) = (count("SAT"), count("UNSAT"));
        let no_answer = ["TIMEOUT", "MEMOUT", "UNKNOWN", "SKIPPED"]
            .iter()
            .map(|s| count(s))
            .sum();
        let failures = group.iter().filter(|r| is_failure(&r.status)).count();
        let times: Vec<f64> = group
            .iter()
            .filter_map(|r| match r.status.as_str() {
                "SAT" | "UNSAT" => r.solve_ms,
                "TIMEOUT" => Some(r.timeout_s * 1e3),
                _ => None,
            })
            .collect();
        out.push(Summary {
            n: first.n,
            family: first.family.clone(),
            parameter: first.parameter.clone(),
            value: first.value.clone(),
            encoding: first.encoding.clone(),
            solver: first.solver.clone(),
            instances: group.len(),
            sat,
            unsat,
            no_answer,
            failures,
            fraction_sat: (sat + unsat > 0).then(|| sat as f64 / (sat + unsat) as f64),
            median_ms: (!times.is_empty()).then(|| median(&times)),
            p90_ms: (!times.is_empty()).then(|| nearest_rank(&times, 0.9)),
        });
    }
    out
}

/// The summary as a Markdown table with a caption saying how times are counted: [`table`],
/// then the caption.
pub fn markdown(summary: &[Summary]) -> String {
    format!(
        "{}\nFraction SAT = SAT / (SAT + UNSAT). No answer: TIMEOUT, MEMOUT, UNKNOWN (an \
         incomplete solver) or SKIPPED. Median and 90th percentile (nearest rank) of the solve \
         time over the instances: a run that timed out counts as the time limit, a failed run \
         (WRONG, ERROR) is left out.\n",
        table(summary)
    )
}

/// The summary as a Markdown table alone, a line per (n, value, encoding, solver).
pub fn table(summary: &[Summary]) -> String {
    let parameter = summary
        .first()
        .map(|s| s.parameter.as_str())
        .filter(|p| !p.is_empty())
        .unwrap_or("value");
    let mut s = format!(
        "| n | {parameter} | encoding | solver | instances | SAT | UNSAT | no answer | failures | fraction SAT | median ms | p90 ms |\n\
         |---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    let opt =
        |v: Option<f64>, digits: usize| v.map_or_else(String::new, |v| format!("{v:.digits$}"));
    for r in summary {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.n,
            r.value,
            r.encoding,
            r.solver,
            r.instances,
            r.sat,
            r.unsat,
            r.no_answer,
            r.failures,
            opt(r.fraction_sat, 2),
            opt(r.median_ms, 1),
            opt(r.p90_ms, 1),
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(value: &str, seed: u64, status: &str, ms: Option<f64>) -> Row {
        Row {
            n: 8,
            encoding: "pairwise".into(),
            column_alo: false,
            solver: "varisat".into(),
            repeats: 1,
            timeout_s: 2.0,
            vars: 64,
            clauses: 700,
            literals: 1500,
            dimacs_bytes: 5000,
            encode_ms: 0.1,
            status: status.into(),
            solve_ms: ms,
            solve_ms_all: String::new(),
            conflicts: None,
            decisions: None,
            solver_version: "v".into(),
            tool_version: "t".into(),
            machine: "m".into(),
            family: "blocked".into(),
            parameter: "p".into(),
            value: value.into(),
            seed: Some(seed),
            fixed_parameters: String::new(),
            ..Row::default()
        }
    }

    #[test]
    fn nearest_rank_by_hand() {
        // 10 values: the 9th smallest; 3 values: ceil(2.7) = 3rd; 1 value: itself.
        let ten: Vec<f64> = (1..=10).rev().map(f64::from).collect();
        assert_eq!(nearest_rank(&ten, 0.9), 9.0);
        assert_eq!(nearest_rank(&[5.0, 1.0, 3.0], 0.9), 5.0);
        assert_eq!(nearest_rank(&[4.0], 0.9), 4.0);
        assert_eq!(nearest_rank(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.0);
    }

    #[test]
    fn texts_in_natural_order() {
        let mut v = vec![
            "e-26-13.txt",
            "e-26-3.txt",
            "e-3.txt",
            "e-26-03.txt",
            "diag-21-4-154.param d=21",
            "diag-21-4-154.param d=9",
            "e-26-3.txt ",
            "x",
        ];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            [
                "diag-21-4-154.param d=9",
                "diag-21-4-154.param d=21",
                "e-3.txt",
                "e-26-03.txt",
                "e-26-3.txt",
                "e-26-3.txt ",
                "e-26-13.txt",
                "x"
            ]
        );
        assert_eq!(natural_cmp("a", "a"), Ordering::Equal);
        assert_eq!(compare_values("e-2.txt", "e-10.txt"), Ordering::Less);
    }

    #[test]
    fn timeouts_count_as_the_limit_and_failures_are_left_out() {
        // Value 0.3: SAT 10 ms, UNSAT 30 ms, TIMEOUT (limit 2 s = 2000 ms), SAT 20 ms, ERROR.
        // Counted times: 10, 20, 30, 2000 -> median (20 + 30) / 2 = 25, p90 = ceil(3.6) = 4th =
        // 2000. Fraction SAT: 2 SAT of 3 decided.
        let rows = vec![
            row("0.3", 1, "SAT", Some(10.0)),
            row("0.3", 2, "UNSAT", Some(30.0)),
            row("0.3", 3, "TIMEOUT", None),
            row("0.3", 4, "SAT", Some(20.0)),
            row("0.3", 5, "ERROR: crashed", None),
            // Neither answers nor failures: a memory-out and an incomplete solver's UNKNOWN.
            row("0.3", 6, "MEMOUT", None),
            row("0.3", 7, "UNKNOWN", None),
            // Value 0.10 sorts before 0.3 (by number, not text); a wrong answer only.
            row("0.10", 1, "WRONG: UNSAT", None),
            row("0.10", 2, "UNSAT", Some(7.0)),
        ];
        let s = summarize(&rows);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].value, "0.10");
        assert_eq!(
            (s[0].instances, s[0].sat, s[0].unsat, s[0].failures),
            (2, 0, 1, 1)
        );
        assert_eq!(s[0].fraction_sat, Some(0.0));
        assert_eq!((s[0].median_ms, s[0].p90_ms), (Some(7.0), Some(7.0)));
        let t = &s[1];
        assert_eq!(t.value, "0.3");
        assert_eq!(
            (t.instances, t.sat, t.unsat, t.no_answer, t.failures),
            (7, 2, 1, 3, 1)
        );
        assert_eq!(t.fraction_sat, Some(2.0 / 3.0));
        assert_eq!(t.median_ms, Some(25.0));
        assert_eq!(t.p90_ms, Some(2000.0));
    }

    #[test]
    fn nothing_decided_has_no_fraction_and_groups_split_by_encoding() {
        let mut other = row("0.5", 1, "SAT", Some(1.0));
        other.encoding = "sequential".into();
        let rows = vec![
            row("0.5", 1, "TIMEOUT", None),
            row("0.5", 2, "ERROR: x", None),
            other,
        ];
        let s = summarize(&rows);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].encoding, "pairwise");
        assert_eq!(s[0].fraction_sat, None);
        // Only the timeout counts: 2 s.
        assert_eq!(s[0].median_ms, Some(2000.0));
        assert_eq!(s[1].encoding, "sequential");
        assert_eq!(s[1].fraction_sat, Some(1.0));
        let table = markdown(&s);
        assert!(table.starts_with("| n | p | encoding |"));
        assert!(table
            .contains("| 8 | 0.5 | pairwise | varisat | 2 | 0 | 0 | 1 | 1 |  | 2000.0 | 2000.0 |"));
        assert!(table.contains("timed out counts as the time limit"));
    }
}
