//! The search engine's complete walk on instance files, one thread (unless `--threads`), with
//! the diagonal branching and the probing of the portfolio's complete search (`solve --engine search` on two threads or
//! more): its answer, its time and the nodes it visited, so that a change to the reasoning or
//! the branching is measured by its tree as well as by its time (the node count of one
//! thread is the same on every run).
//!
//! ```text
//! cargo bench --bench refute -- [--limit SECONDS] [--rounds K] [--plain] [--probe L]
//!     [--threads K] FILE...
//! ```
//!
//! Each FILE is an instance file (`queens-sat generate ...`, docs/formats.md); `--plain` runs
//! the plain branching alone instead (no diagonals: the walk that `solve --engine search
//! --threads 1` starts with, here to the end); `--probe L` probes the free cells in the first
//! L branching levels (by default 10 in the portfolio's complete search and none with
//! `--plain`; 0 for none); `--threads K` (default 1) runs the search as `solve --engine search
//! --threads K` does (from two threads, the portfolio: the complete search beside restarts,
//! the first answer ending both; `--plain` is then ignored); `--rounds K` decides each file K
//! times (default 1) and reports the median times. Prints one tab-separated line per file on
//! stdout:
//!
//! ```text
//! file  answer  nodes  wall_s  cpu_s
//! ```
//!
//! (medians over the rounds; `answer` is SAT, UNSAT or `-` when the limit, default 600 s,
//! passed first). docs/experiments.md has the measurements.

use queens_sat::board::MaskedBoard;
use queens_sat::family::read_instance_file;
use queens_sat::search::{Answer, Decision, PORTFOLIO_PROBE_LEVELS};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod common;
use common::{cpu_seconds, median};

fn main() -> ExitCode {
    let usage =
        "usage: refute [--limit SECONDS] [--rounds K] [--plain] [--probe L] [--threads K] FILE...";
    let (mut limit, mut rounds, mut plain, mut files) = (600.0f64, 1usize, false, Vec::new());
    let (mut probe, mut threads) = (None, 1usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        let bad = |what: &str, value: &str| {
            eprintln!("refute: {a} takes {what}, not '{value}'\n{usage}");
            ExitCode::from(2)
        };
        match a.as_str() {
            "--limit" => {
                let v = value();
                match v.parse::<f64>() {
                    Ok(s) if s > 0.0 && s.is_finite() => limit = s,
                    _ => return bad("a positive number of seconds", &v),
                }
            }
            "--rounds" | "--threads" => {
                let v = value();
                match v.parse::<usize>() {
                    Ok(k) if k > 0 && a == "--rounds" => rounds = k,
                    Ok(k) if k > 0 => threads = k,
                    _ => return bad("a positive whole number", &v),
                }
            }
            "--probe" => {
                let v = value();
                match v.parse::<usize>() {
                    Ok(l) => probe = Some(l),
                    _ => return bad("a whole number of levels", &v),
                }
            }
            "--plain" => plain = true,
            // cargo bench passes --bench to every bench program.
            "--bench" => {}
            _ if a.starts_with("--") => {
                eprintln!("refute: unknown option {a}\n{usage}");
                return ExitCode::from(2);
            }
            _ => files.push(PathBuf::from(a)),
        }
    }
    if files.is_empty() {
        eprintln!("{usage}");
        return ExitCode::from(2);
    }
    for path in &files {
        let spec = match read_instance_file(path, None) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("refute: {e}");
                return ExitCode::from(2);
            }
        };
        let board = match MaskedBoard::with_cells(
            spec.n,
            spec.geometry,
            &spec.placed,
            &spec.forbidden_cells(),
        ) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("refute: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let (mut walls, mut cpus, mut last) = (Vec::new(), Vec::new(), ("-", 0));
        for _ in 0..rounds {
            let (t0, c0) = (Instant::now(), cpu_seconds());
            let mut decision = Decision::new(&board);
            // One thread without --plain: the portfolio's complete search, probing included;
            // with --plain the plain walk alone (none of the default's switch to the former).
            let probe =
                probe.or((threads == 1).then_some(if plain { 0 } else { PORTFOLIO_PROBE_LEVELS }));
            if let Some(l) = probe {
                decision = decision.probe(l);
            }
            let done = decision
                .threads(threads)
                .time_limit(Duration::from_secs_f64(limit))
                .branch_diagonals(!plain && threads == 1)
                .run();
            let done = match done {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("refute: {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
            };
            walls.push(t0.elapsed().as_secs_f64());
            cpus.push(cpu_seconds() - c0);
            let answer = match done.answer {
                Answer::Sat(_) => "SAT",
                Answer::Unsat => "UNSAT",
                Answer::Stopped(_) => "-",
            };
            last = (answer, done.nodes);
        }
        println!(
            "{}\t{}\t{}\t{:.2}\t{:.2}",
            path.display(),
            last.0,
            last.1,
            median(&mut walls),
            median(&mut cpus)
        );
    }
    ExitCode::SUCCESS
}
