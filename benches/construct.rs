//! Direct constructor: construct + verify time for n = 10^5, 10^6, 10^7, per queen.
//!
//! `cargo bench --bench construct`. Every size also runs two baselines in the same process:
//! `fill_vec` (allocate and fill a `Vec<u32>` of n entries, the least any stored placement
//! costs) and `check_placement` (the library's general checker, which the constructor's bit-set
//! `verify` replaces on the hot path). Throughput is in queens, so criterion's "elem/s" gives
//! the ns per queen directly.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use queens_sat::board::check_placement;
use queens_sat::construct::{verify, write_one_line, Construction, Method};
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("construct");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in [100_000usize, 1_000_000, 10_000_000] {
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("fill_vec", n), &n, |b, &n| {
            b.iter(|| {
                let v: Vec<u32> = (0..black_box(n) as u32).collect();
                black_box(v)
            })
        });
        for m in Method::ALL {
            g.bench_with_input(
                BenchmarkId::new(format!("construct_{m}"), n),
                &n,
                |b, &n| {
                    b.iter(|| {
                        let c = Construction::new(black_box(n), m).unwrap().unwrap();
                        black_box(c.placement().unwrap())
                    })
                },
            );
            g.bench_with_input(
                BenchmarkId::new(format!("construct_verify_{m}"), n),
                &n,
                |b, &n| {
                    b.iter(|| {
                        let c = Construction::new(black_box(n), m).unwrap().unwrap();
                        let p = c.placement().unwrap();
                        verify(&p).unwrap();
                        black_box(p)
                    })
                },
            );
        }
        let p = Construction::new(n, Method::Hlm)
            .unwrap()
            .unwrap()
            .placement()
            .unwrap();
        g.bench_with_input(BenchmarkId::new("verify", n), &p, |b, p| {
            b.iter(|| verify(black_box(p)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("check_placement", n), &p, |b, p| {
            b.iter(|| check_placement(black_box(p)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("stream_one_line_hlm", n), &n, |b, &n| {
            b.iter(|| {
                let c = Construction::new(black_box(n), Method::Hlm)
                    .unwrap()
                    .unwrap();
                c.write_one_line(&mut std::io::sink()).unwrap()
            })
        });
        g.bench_with_input(BenchmarkId::new("write_stored_one_line", n), &p, |b, p| {
            b.iter(|| write_one_line(p.cols().iter().copied(), &mut std::io::sink()).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
