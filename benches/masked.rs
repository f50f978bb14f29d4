//! Timings of the instance counter ([`queens_sat::count::count_masked`]):
//! `cargo bench --bench masked [-- ROUNDS]` (default 1 round).
//!
//! Measures, each case on its own and with its count printed beside the time:
//! 1. the empty 14 x 14 square board and the empty 13 x 13 toroidal board;
//! 2. blocked boards of n = 40, 48 and 52 with 85 % of the cells blocked (splitmix64 from
//!    seed 1, so every run counts the same boards), on the square and on the toroidal board.
//!
//! With more than one round the cases are run round by round and the median of each is
//! printed.

use queens_sat::board::{Geometry, MaskedBoard};
use queens_sat::count::count_masked;
use std::time::{Duration, Instant};

/// splitmix64, for reproducible random boards.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The n x n board with each cell blocked with probability `pct` %, drawn from `seed`.
fn blocked(n: usize, g: Geometry, pct: u64, seed: u64) -> MaskedBoard {
    let mut s = seed;
    let mut b = MaskedBoard::new(n, g).unwrap();
    for r in 0..n {
        for c in 0..n {
            if splitmix(&mut s) % 100 < pct {
                b.block(r, c);
            }
        }
    }
    b
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; the first other argument is the number of rounds.
    let rounds: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .and_then(|a| a.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut cases: Vec<(String, MaskedBoard)> = vec![
        (
            "empty 14 square".to_string(),
            MaskedBoard::new(14, Geometry::Square).unwrap(),
        ),
        (
            "empty 13 toroidal".to_string(),
            MaskedBoard::new(13, Geometry::Toroidal).unwrap(),
        ),
    ];
    for (n, pct, seed) in [(40, 85, 1u64), (48, 85, 1), (52, 85, 1)] {
        for g in [Geometry::Square, Geometry::Toroidal] {
            cases.push((
                format!("{n}x{n} {g:?} {pct}% blocked (seed {seed})"),
                blocked(n, g, pct, seed),
            ));
        }
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); cases.len()];
    let mut counts = vec![0u64; cases.len()];
    for _ in 0..rounds {
        for (i, (_, board)) in cases.iter().enumerate() {
            let t = Instant::now();
            counts[i] = count_masked(board);
            times[i].push(t.elapsed());
        }
    }
    for (i, (name, _)) in cases.iter().enumerate() {
        let what = if rounds > 1 { "median " } else { "" };
        println!(
            "{name}: {} in {what}{:?}",
            counts[i],
            median(times[i].clone())
        );
    }
}
