//! What measuring and bounding a run costs (`compare`'s runs, [`queens_sat::solve::process`]):
//! the same solver command run bare (spawned, its output read, waited for: what any harness
//! does) and run measured (its process group sampled from /proc, the kernel's account at the
//! end, CPU and memory limits set), in alternation, each `--rounds` times.
//!
//! ```text
//! cargo bench --bench measure -- [--rounds K] -- PROGRAM [ARGS...]
//! ```
//!
//! Prints the median wall-clock time of a run each way, the difference, and the ratio, and the
//! CPU time and peak memory the measured runs recorded. docs/benchmarks.md has the results.

use queens_sat::experiment::median;
use queens_sat::solve::process::{run_bounded, Limits};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    // `cargo bench` adds `--bench` to the arguments.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut rounds = 20usize;
    let mut i = 0;
    while i < args.len() && args[i] != "--" {
        match args[i].as_str() {
            "--rounds" => {
                rounds = args
                    .get(i + 1)
                    .and_then(|s| s.parse().ok())
                    .expect("--rounds K");
                i += 1;
            }
            other => panic!("unknown option {other}"),
        }
        i += 1;
    }
    let command = &args[(i + 1).min(args.len())..];
    assert!(
        !command.is_empty(),
        "usage: -- [--rounds K] -- PROGRAM [ARGS...]"
    );
    let make = || {
        let mut c = Command::new(&command[0]);
        c.args(&command[1..]);
        c
    };
    let limits = Limits {
        timeout: Some(Duration::from_secs(600)),
        cpu: Some(Duration::from_secs(600)),
        memory: Some(16 << 30),
        ..Limits::default()
    };
    let (mut bare, mut measured, mut cpu, mut rss) = (vec![], vec![], vec![], vec![]);
    for _ in 0..rounds {
        let t = Instant::now();
        let out = make()
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .expect("the command runs");
        bare.push(t.elapsed().as_secs_f64());
        assert!(
            out.status
                .code()
                .is_some_and(|c| c == 0 || c == 10 || c == 20),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let t = Instant::now();
        let fin = run_bounded(make(), &command[0], &limits).expect("the command runs");
        measured.push(t.elapsed().as_secs_f64());
        assert!(fin.hit.is_none(), "{fin:?}");
        cpu.push(fin.usage.cpu.as_secs_f64());
        rss.push(fin.usage.max_rss as f64 / f64::from(1u32 << 20));
    }
    let (b, m) = (median(&bare), median(&measured));
    println!("command\t{}", command.join(" "));
    println!("rounds\t{rounds}");
    println!("bare_wall_s\t{b:.4}");
    println!("measured_wall_s\t{m:.4}");
    println!("overhead_ms\t{:.2}", (m - b) * 1e3);
    println!("ratio\t{:.3}", m / b);
    println!("measured_cpu_s\t{:.4}", median(&cpu));
    println!("measured_max_rss_mib\t{:.1}", median(&rss));
}
