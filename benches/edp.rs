//! The published Excluded Diagonals benchmark (CSPLib problem 079, Gent, Jefferson and
//! Nightingale, JAIR 2017) decided by the search engine (`solve --engine search`), in this
//! process, against the recorded answers of the paper's solver.
//!
//! Every line of `tests/data/csplib-prob079/run-diags-shiftqueens-processed.txt.gz` (319,000:
//! n = 10..21, instances 1..1000, every prefix D = 1..2n of the diagonal list) is an instance;
//! this program selects some of them, decides each one with [`Decision`] and prints one
//! tab-separated line per instance on stdout:
//!
//! ```text
//! n  d  id  recorded  recorded_s  answer  seconds  cpu_s  nodes
//! ```
//!
//! (`seconds` is the wall time of the decision, `cpu_s` the CPU time of this process over it,
//! every thread: on a loaded machine the second is the measure.)
//!
//! and a summary on stderr (agreement, total and median times, the recorded solver's total on
//! the same instances). It exits 1 when an answer disagrees with the recorded one (or an
//! instance is not decided within `--limit`).
//!
//! ```text
//! cargo bench --bench edp -- [--n 10..21] [--d 1..42] [--ids 1..1000] [--every K]
//!     [--shard I/K] [--threads T] [--limit SECONDS] [--plain] [--probe L]
//! ```
//!
//! Ranges are inclusive (`21`, `18..20`); `--every K` keeps every K-th selected line (a
//! sample of the file's order); `--shard I/K` keeps the selected lines whose index is I modulo
//! K (1-based), so that K processes (GNU parallel, `benches/edp.sh`) share the work; `--threads`
//! is the search's threads per instance (default 1); `--plain` runs the one complete search of
//! before the portfolio (no diagonal branching, no restarts); `--probe L` probes the free cells
//! of the first L branching levels (default: 10 levels in the portfolio's complete search,
//! none in the plain walk of one thread, which past 4 million nodes takes turns with the
//! complete search that probes; 0 for none; set, one thread walks the plain branching alone
//! with those levels). docs/benchmarks.md has the measurements.

use flate2::read::GzDecoder;
use queens_sat::search::{Answer, Decision};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod common;
use common::{cpu_seconds, median};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/csplib-prob079")
        .join(name)
}

/// The parameter files of `diag-N.tar.gz`, by instance id.
fn published(n: usize) -> HashMap<u64, String> {
    let file = std::fs::File::open(data(&format!("diag-{n}.tar.gz"))).expect("diag-N.tar.gz");
    let mut archive = tar::Archive::new(GzDecoder::new(file));
    let mut files = HashMap::new();
    for entry in archive.entries().expect("a tar archive") {
        let mut entry = entry.expect("an archive entry");
        let name = entry.path().expect("a path").to_string_lossy().to_string();
        let Some(id) = name
            .rsplit('/')
            .next()
            .and_then(|f| f.strip_suffix(".param"))
            .and_then(|f| f.rsplit('-').next())
            .and_then(|s| s.parse().ok())
        else {
            continue;
        };
        let mut text = String::new();
        entry.read_to_string(&mut text).expect("a text file");
        files.insert(id, text);
    }
    files
}

/// One recorded answer.
struct Recorded {
    n: usize,
    d: usize,
    id: u64,
    satisfiable: bool,
    seconds: f64,
}

/// A line of the results file (`n numdiags mininrow id file:Solutions: s Nodes: k Timeout: 0
/// Time: t`).
fn recorded(line: &str) -> Option<Recorded> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 12 {
        return None;
    }
    Some(Recorded {
        n: f[0].parse().ok()?,
        d: f[1].parse().ok()?,
        id: f[3].parse().ok()?,
        satisfiable: f[5] == "1",
        seconds: f[11].parse().ok()?,
    })
}

/// An inclusive range `A..B` or a single value `A`.
fn range(s: &str) -> (u64, u64) {
    let bad = || panic!("a range A..B or a number, not '{s}'");
    match s.split_once("..") {
        Some((a, b)) => (
            a.parse().unwrap_or_else(|_| bad()),
            b.parse().unwrap_or_else(|_| bad()),
        ),
        None => {
            let a = s.parse().unwrap_or_else(|_| bad());
            (a, a)
        }
    }
}

fn main() -> ExitCode {
    let mut ns = (10, 21);
    let mut ds = (1, 42);
    let mut ids = (1, 1000);
    let mut every = 1usize;
    let mut shard = (1usize, 1usize);
    let mut threads = 1usize;
    let mut plain = false;
    let mut probe: Option<usize> = None;
    let mut limit = Duration::from_secs(3600);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--n" => ns = range(&value()),
            "--d" => ds = range(&value()),
            "--ids" => ids = range(&value()),
            "--every" => every = value().parse().expect("--every K"),
            "--shard" => {
                let v = value();
                let (i, k) = v.split_once('/').expect("--shard I/K");
                shard = (i.parse().expect("I"), k.parse().expect("K"));
                assert!(
                    shard.0 >= 1 && shard.0 <= shard.1,
                    "--shard I/K, 1 <= I <= K"
                );
            }
            "--threads" => threads = value().parse().expect("--threads T"),
            "--plain" => plain = true,
            "--probe" => probe = Some(value().parse().expect("--probe L")),
            "--limit" => limit = Duration::from_secs_f64(value().parse().expect("--limit S")),
            // `cargo bench` passes --bench.
            "--bench" => {}
            other => panic!("unknown option {other} (see benches/edp.rs)"),
        }
    }
    let gz = std::fs::File::open(data("run-diags-shiftqueens-processed.txt.gz"))
        .expect("the results file");
    let selected: Vec<Recorded> = BufReader::new(GzDecoder::new(gz))
        .lines()
        .map(|l| recorded(&l.expect("a line")).expect("a results line"))
        .filter(|r| {
            (ns.0..=ns.1).contains(&(r.n as u64))
                && (ds.0..=ds.1).contains(&(r.d as u64))
                && (ids.0..=ids.1).contains(&r.id)
        })
        .enumerate()
        .filter(|(i, _)| i % every == 0)
        .map(|(_, r)| r)
        .enumerate()
        .filter(|(i, _)| i % shard.1 == shard.0 - 1)
        .map(|(_, r)| r)
        .collect();
    let mut files: HashMap<usize, HashMap<u64, String>> = HashMap::new();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "n\td\tid\trecorded\trecorded_s\tanswer\tseconds\tcpu_s\tnodes"
    );
    let (mut agree, mut wrong, mut undecided) = (0usize, 0usize, 0usize);
    let (mut ours, mut theirs, mut cpus) = (Vec::new(), Vec::new(), Vec::new());
    let started = Instant::now();
    for r in &selected {
        let text = &files.entry(r.n).or_insert_with(|| published(r.n))[&r.id];
        let name = format!("diag-{}-4-{}.param", r.n, r.id);
        let spec = queens_sat::family::read_instance_text(text, &name, Some(r.d))
            .expect("a published parameter file");
        let mut board = queens_sat::board::MaskedBoard::new(spec.n, spec.geometry).expect("n");
        for (row, col) in spec.forbidden_cells() {
            board.block(row, col);
        }
        let t = Instant::now();
        let cpu = cpu_seconds();
        let mut decision = Decision::new(&board);
        if let Some(l) = probe {
            decision = decision.probe(l);
        }
        let done = decision
            .portfolio(!plain)
            .threads(threads)
            .time_limit(limit)
            .run()
            .expect("the search runs");
        let seconds = t.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu;
        cpus.push(cpu);
        let answer = match done.answer {
            Answer::Sat(_) => Some(true),
            Answer::Unsat => Some(false),
            Answer::Stopped(_) => None,
        };
        match answer {
            Some(a) if a == r.satisfiable => agree += 1,
            Some(_) => wrong += 1,
            None => undecided += 1,
        }
        ours.push(seconds);
        theirs.push(r.seconds);
        let word = |a: Option<bool>| match a {
            Some(true) => "SAT",
            Some(false) => "UNSAT",
            None => "TIMEOUT",
        };
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{seconds:.6}\t{cpu:.6}\t{}",
            r.n,
            r.d,
            r.id,
            word(Some(r.satisfiable)),
            r.seconds,
            word(answer),
            done.nodes
        );
    }
    let wall = started.elapsed().as_secs_f64();
    let total: f64 = ours.iter().sum();
    let recorded_total: f64 = theirs.iter().sum();
    let max = ours.iter().copied().fold(0.0, f64::max);
    let cpu_total: f64 = cpus.iter().sum();
    eprintln!(
        "{} instances (n {}..{}, d {}..{}, ids {}..{}, every {every}, shard {}/{}, {threads} thread(s)): \
         {agree} agree, {wrong} disagree, {undecided} undecided within {:.0} s",
        selected.len(),
        ns.0,
        ns.1,
        ds.0,
        ds.1,
        ids.0,
        ids.1,
        shard.0,
        shard.1,
        limit.as_secs_f64()
    );
    eprintln!(
        "search: {total:.3} s in total, {cpu_total:.3} s CPU (wall {wall:.3} s with reading), \
         median {:.6} s, max {max:.3} s; recorded: {recorded_total:.3} s in total, median {:.6} s",
        median(&mut ours),
        median(&mut theirs)
    );
    if wrong + undecided > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
