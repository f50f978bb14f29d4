//! Benchmark of the backtracking counter against a baseline built side by side in the same run.
//!
//! Baseline: the classic single-thread bitboard counter that searches the left half of the first
//! row and doubles (plus the middle column for odd n), as published by Jeff Somers in 2002; it
//! gives the total only. Ours (the default counter, constellation kernel) gives the total and the
//! fundamental count; the previous kernel (prefix split) runs beside them, checked to agree.
//!
//! Runs are interleaved (baseline, ours, baseline, ours, ...) so that load from other users of the
//! machine hits both alike; medians and the ratio of medians are printed, of the wall time and of
//! the process CPU time (on Linux), which on a loaded machine is the steadier of the two.
//!
//! ```sh
//! cargo bench --bench count                          # n = 16 17, 5 rounds, then thread scaling
//! cargo bench --bench count -- --n 16 --rounds 3     # other sizes / rounds
//! cargo bench --bench count -- --no-scaling
//! ```

use queens_sat::count::{Counter, Outcome};
use std::time::Instant;

/// Jeff Somers' method: one bitboard word per constraint, explicit stack, half the first row
/// searched and the count doubled; for odd n the middle column of the first row is searched with
/// the second row restricted to its left half.
fn somers(n: usize) -> u64 {
    if n == 0 {
        return 0;
    }
    if n == 1 {
        return 1;
    }
    let mask: u32 = u32::MAX >> (32 - n);
    let mut stack = [0u32; 64];
    let mut left = [0u32; 64];
    let mut down = [0u32; 64];
    let mut right = [0u32; 64];
    let mut num = 0u64;
    let half = n / 2;
    let odd = n & 1;
    for pass in 0..(1 + odd) {
        let mut sp = 0usize;
        // Row 0 choices: the left half (pass 0) or the middle column (pass 1).
        let first: u32 = if pass == 0 {
            (1u32 << half) - 1
        } else {
            1u32 << half
        };
        let mut row = 0usize;
        stack[0] = first;
        left[0] = 0;
        down[0] = 0;
        right[0] = 0;
        let mut pass_count = 0u64;
        loop {
            let free = stack[sp];
            if free == 0 {
                if sp == 0 {
                    break;
                }
                sp -= 1;
                row -= 1;
                continue;
            }
            let bit = free & free.wrapping_neg();
            stack[sp] = free ^ bit;
            let l = (left[sp] | bit) << 1;
            let d = down[sp] | bit;
            let r = (right[sp] | bit) >> 1;
            if row + 1 == n {
                pass_count += 1;
                continue;
            }
            let mut next = mask & !(l | d | r);
            if pass == 1 && row == 0 {
                // Middle queen in row 0: the second row only on the left half.
                next &= (1u32 << half) - 1;
            }
            sp += 1;
            row += 1;
            stack[sp] = next;
            left[sp] = l;
            down[sp] = d;
            right[sp] = r;
        }
        num += 2 * pass_count;
    }
    num
}

fn ours(n: usize, threads: usize) -> (u64, u64) {
    match Counter::new(n).and_then(|c| c.threads(threads).run()) {
        Ok(Outcome::Complete(c)) => (c.total, c.fundamental),
        other => panic!("count {n} failed: {other:?}"),
    }
}

fn previous(n: usize) -> (u64, u64) {
    match queens_sat::count::count_by_prefix_split(n) {
        Ok(c) => (c.total, c.fundamental),
        Err(e) => panic!("count {n} failed: {e}"),
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// CPU time (user + system) of this process and all its threads so far, in seconds, from
/// `/proc/self/stat` (Linux, 100 ticks per second); `None` elsewhere.
fn cpu_time() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces): state is
    // field 3, utime field 14, stime field 15.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Runs `f`, returning its result, wall time and CPU time (NaN if unknown) in seconds.
fn time<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let c = cpu_time();
    let t = Instant::now();
    let r = f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (c, cpu_time()) {
        (Some(a), Some(b)) => b - a,
        _ => f64::NAN,
    };
    (r, wall, cpu)
}

fn main() {
    let mut sizes: Vec<usize> = Vec::new();
    let mut rounds = 5usize;
    let mut scaling = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--n" => {
                while let Some(v) = args.next() {
                    match v.parse() {
                        Ok(n) => sizes.push(n),
                        Err(_) => {
                            if v == "--rounds" {
                                rounds = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
                            } else if v == "--no-scaling" {
                                scaling = false;
                            }
                            break;
                        }
                    }
                }
            }
            "--rounds" => rounds = args.next().and_then(|r| r.parse().ok()).unwrap_or(5),
            "--no-scaling" => scaling = false,
            _ => {} // cargo bench passes --bench
        }
    }
    if sizes.is_empty() {
        sizes = vec![16, 17];
    }
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    println!("# cores available: {cores}; rounds: {rounds}; baseline and ours interleaved");
    println!("# wall = elapsed time; cpu = CPU time of the process (less sensitive to other load)");
    println!(
        "n\tbaseline_wall_s\tours_1thread_wall_s\tspeedup_wall\tbaseline_cpu_s\tours_1thread_cpu_s\tspeedup_cpu\ttotal\tfundamental\tprevious_kernel_wall_s\tprevious_speedup_wall\tprevious_kernel_cpu_s\tprevious_speedup_cpu"
    );
    for &n in &sizes {
        let (mut base, mut mine, mut base_cpu, mut mine_cpu) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut cons, mut cons_cpu) = (Vec::new(), Vec::new());
        let mut result = (0, 0);
        for _ in 0..rounds {
            let (d, tb, cb) = time(|| somers(n));
            let ((total, unique), to, co) = time(|| ours(n, 1));
            assert_eq!(d, total, "baseline and counter disagree on n = {n}");
            let (cc, tc, ccpu) = time(|| previous(n));
            assert_eq!(cc, (total, unique), "kernels disagree on n = {n}");
            cons.push(tc);
            cons_cpu.push(ccpu);
            result = (total, unique);
            base.push(tb);
            mine.push(to);
            base_cpu.push(cb);
            mine_cpu.push(co);
        }
        let (mb, mo) = (median(&mut base), median(&mut mine));
        let (cb, co) = (median(&mut base_cpu), median(&mut mine_cpu));
        let (mc, cc) = (median(&mut cons), median(&mut cons_cpu));
        println!(
            "{n}\t{mb:.3}\t{mo:.3}\t{:.2}\t{cb:.2}\t{co:.2}\t{:.2}\t{}\t{}\t{mc:.3}\t{:.2}\t{cc:.2}\t{:.2}",
            mb / mo,
            cb / co,
            result.0,
            result.1,
            mb / mc,
            cb / cc
        );
    }
    if scaling {
        println!("# thread scaling (ours), interleaved rounds");
        println!("n\tthreads\twall_median_s\tspeedup_vs_1_thread\tcpu_median_s");
        for &n in &sizes {
            let ks: Vec<usize> = (1..=cores.max(2)).collect();
            let mut times: Vec<Vec<f64>> = vec![Vec::new(); ks.len()];
            let mut cpus: Vec<Vec<f64>> = vec![Vec::new(); ks.len()];
            for _ in 0..rounds {
                for (i, &k) in ks.iter().enumerate() {
                    let (_, w, c) = time(|| ours(n, k));
                    times[i].push(w);
                    cpus[i].push(c);
                }
            }
            let one = median(&mut times[0].clone());
            for (i, &k) in ks.iter().enumerate() {
                let m = median(&mut times[i]);
                let c = median(&mut cpus[i]);
                println!("{n}\t{k}\t{m:.3}\t{:.2}\t{c:.2}", one / m);
            }
        }
    }
}
