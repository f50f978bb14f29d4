//! DIMACS export throughput: `cargo bench --bench encode [-- N REPEATS]`.
//!
//! Measures, in one run and interleaved round by round:
//! 1. queens-sat's streaming writer: encode n straight into DIMACS (to /dev/null);
//! 2. baseline: varisat-dimacs writing the same formula, already built in memory (the formula's
//!    construction is not timed);
//! 3. the memory-speed limit: reading the finished DIMACS file (in the page cache) and writing
//!    it to /dev/null, as `cat FILE > /dev/null` does.
//!
//! Prints medians and MB/s (10^6 bytes per second).

use queens_sat::encode::{EncodeOptions, QueensEncoder};
use std::fs::OpenOptions;
use std::io::{BufWriter, Read, Write};
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(200);
    let repeats: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let enc = QueensEncoder::new(n, EncodeOptions::default()).unwrap();
    let devnull = || OpenOptions::new().write(true).open("/dev/null").unwrap();

    let text = enc.write_dimacs(Vec::new(), None).unwrap();
    let bytes = text.len() as f64;
    // The same text as a file (in the page cache after this write), for the `cat` baseline.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.cnf");
    std::fs::write(&file, &text).unwrap();
    drop(text);
    let mut formula = varisat::CnfFormula::new();
    enc.encode(&mut formula).unwrap();

    let (mut ours, mut base, mut copy) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeats {
        let t = Instant::now();
        let w = enc.write_dimacs(devnull(), None).unwrap();
        drop(w);
        ours.push(t.elapsed());

        let t = Instant::now();
        let mut w = BufWriter::with_capacity(1 << 16, devnull());
        varisat_dimacs::write_dimacs(&mut w, &formula).unwrap();
        w.flush().unwrap();
        base.push(t.elapsed());

        let t = Instant::now();
        let mut f = std::fs::File::open(&file).unwrap();
        let mut chunk = vec![0u8; 1 << 17];
        let mut w = devnull();
        loop {
            let k = f.read(&mut chunk).unwrap();
            if k == 0 {
                break;
            }
            w.write_all(&chunk[..k]).unwrap();
        }
        copy.push(t.elapsed());
    }
    println!(
        "n = {n}: {} clauses, {:.1} MB of DIMACS, {repeats} rounds",
        enc.size().clauses,
        bytes / 1e6
    );
    let ours = median(ours);
    for (name, d) in [
        ("queens-sat streaming encode+write", ours),
        ("varisat-dimacs write from memory", median(base)),
        ("copy of the finished text (cat)", median(copy)),
    ] {
        println!(
            "{name:36} median {:8.1} ms  {:7.0} MB/s  ratio to queens-sat {:.2}",
            d.as_secs_f64() * 1e3,
            bytes / d.as_secs_f64() / 1e6,
            d.as_secs_f64() / ours.as_secs_f64()
        );
    }
}
