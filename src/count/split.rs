//! The split of the search into independent sub-problems, reduced by the board's symmetries.
//!
//! Every solution (n >= 4) has one queen on each edge of the board (a corner queen serves two
//! edges). Among the 8 images of a solution we search only those whose top-row queen is an edge
//! queen closest to a corner, at column `t` from the left, and the search enforces this as it
//! goes (the method of Takaken's n-queens program):
//!
//! * **Corner** (`t = 0`): a queen at the top-left corner. No other corner holds a queen, and no
//!   such solution is symmetric, so its class has 8 members, exactly two of which (the solution
//!   and its mirror in the main diagonal) have the corner queen top-left. The one kept has the
//!   queen of row 1 in an earlier column than the row of the queen of column 1: rows above the
//!   row-1 queen's column may not use column 1. Each solution found is one class of 8.
//! * **Edge** (`1 <= t < n-1-t`): no queen in the side columns on rows `< t` or `> n-1-t`, the
//!   bottom queen in columns `t ..= n-1-t`; so on entering row `n-1-t` at least one side column
//!   must be taken, and on leaving it both. A solution where no other edge queen is also at
//!   distance `t` from a corner (no *tie*) is the only member of its class that the search
//!   finds, and its class has 8 members: it is counted with no further test. A solution with a
//!   tie is compared with its images: it is counted only if it is the smallest of the images
//!   that the search also finds (top queen at column `t`), with its class size.
//!
//! A sub-problem is `t` and the columns of the next one or two rows (two for n >= 5).

use super::bitboard::{self, Job, WORD_BITS};

/// One sub-problem: the columns of the first rows (0-based), the first being `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SubProblem {
    /// Columns of rows `0..len`.
    pub cols: [u8; 3],
    /// Number of prefix rows.
    pub len: u8,
}

/// The classes found in one sub-problem (or a sum of them), by class size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassCounts {
    /// Classes of 8 solutions.
    pub of8: u64,
    /// Classes of 4 solutions.
    pub of4: u64,
    /// Classes of 2 solutions.
    pub of2: u64,
}

impl ClassCounts {
    /// Adds `other` to `self`.
    pub fn add(&mut self, other: &ClassCounts) {
        self.of8 += other.of8;
        self.of4 += other.of4;
        self.of2 += other.of2;
    }
}

/// The symmetry rules for top column `t`, before any prefix: masks, tie columns, side row.
fn rules(n: usize, t: usize) -> Job {
    let full: u32 = u32::MAX >> (WORD_BITS - n);
    let side: u32 = 1 | (1 << (n - 1));
    let mut job = Job {
        n,
        mask: [0; WORD_BITS],
        tie: [0; WORD_BITS],
        side_row: usize::MAX,
        side,
        start: 1,
        prefix: [0; WORD_BITS],
        ld: 0,
        dn: 0,
        rd: 0,
        tied: 0,
    };
    job.mask[0] = 1 << t;
    for r in 1..n {
        job.mask[r] = full;
    }
    if t == 0 {
        // Row 1 beyond column 1 (column 1 is attacked anyway); the rows above the row-1 queen's
        // column are restricted per prefix (see `sub_problems`).
        job.mask[1] &= !0b11;
    } else {
        let b2 = n - 1 - t;
        for r in 1..n - 1 {
            if r < t || r > b2 {
                job.mask[r] &= !side;
            }
        }
        job.mask[n - 1] = full & !((1u32 << t) - 1) & !(full << (b2 + 1) & full);
        job.tie[t] = side;
        job.tie[b2] |= side;
        job.tie[n - 1] = (1 << t) | (1 << b2);
        job.side_row = b2;
    }
    job
}

/// Places the queen of row `r` at column `c` in `job`'s state.
fn place(job: &mut Job, r: usize, c: usize) {
    let bit = 1u32 << c;
    job.prefix[r] = c as u32;
    job.tied |= bit & job.tie[r];
    job.ld = (job.ld | bit) << 1;
    job.dn |= bit;
    job.rd = (job.rd | bit) >> 1;
}

/// The rules and prefix state of a sub-problem.
fn job_of(n: usize, sp: &SubProblem) -> Job {
    let t = sp.cols[0] as usize;
    let mut job = rules(n, t);
    if t == 0 {
        let c1 = sp.cols[1] as usize;
        for r in 2..c1.min(n) {
            job.mask[r] &= !0b10;
        }
    }
    for r in 0..sp.len as usize {
        place(&mut job, r, sp.cols[r] as usize);
    }
    job.start = sp.len as usize;
    job
}

fn prefix_len(n: usize) -> usize {
    if n >= 5 {
        3
    } else {
        2
    }
}

/// The sub-problems for board size `n` (4 <= n <= 32), in lexicographic order.
pub fn sub_problems(n: usize) -> Vec<SubProblem> {
    assert!((4..=WORD_BITS).contains(&n));
    let len = prefix_len(n);
    let mut out = Vec::new();
    for t in 0..n {
        if t > 0 && t >= n - 1 - t {
            break;
        }
        let base = rules(n, t);
        let mut job = base;
        place(&mut job, 0, t);
        let mut stack = vec![(job, [t as u8, 0, 0])];
        // Depth-first over rows 1..len, respecting the masks.
        while let Some((j, cols)) = stack.pop() {
            let r = j.start;
            if r == len {
                out.push(SubProblem {
                    cols,
                    len: len as u8,
                });
                continue;
            }
            let mut mask = j.mask[r] & !(j.ld | j.dn | j.rd);
            if t == 0 && r == 2 {
                // Rows above the row-1 queen's column may not use column 1.
                if 2 < cols[1] as usize {
                    mask &= !0b10;
                }
            }
            for c in (0..n).rev() {
                if mask & (1 << c) != 0 {
                    let mut next = j.clone();
                    place(&mut next, r, c);
                    let mut cs = cols;
                    cs[r] = c as u8;
                    next.start = r + 1;
                    stack.push((next, cs));
                }
            }
        }
    }
    out.sort();
    out
}

/// Adds the tied solution `s` (column of each row, 0-based) of a sub-problem with top column
/// `t` to `counts` if it is the smallest of its images that the search also finds (top queen at
/// column `t`), with its class size (8 over the number of symmetries that fix it).
///
/// Row `i` of each image is read off `s` and its inverse (the row of each column) directly, and
/// only images whose first row is `t` are compared, stopping at the first differing row.
fn check_tied(n: usize, t: u32, s: &[u32], counts: &mut ClassCounts) {
    use std::cmp::Ordering;
    let m = n - 1;
    let mw = m as u32;
    let mut inv = [0u32; WORD_BITS];
    for (r, &c) in s.iter().enumerate() {
        inv[c as usize] = r as u32;
    }
    // Row i of image g (g = 1..8; 0 is the identity), the images of (r, c) being
    // (c, m-r), (m-r, m-c), (m-c, r), (r, m-c), (c, r), (m-r, c), (m-c, m-r).
    let row = |g: usize, i: usize| -> u32 {
        match g {
            1 => mw - inv[i],
            2 => mw - s[m - i],
            3 => inv[m - i],
            4 => mw - s[i],
            5 => inv[i],
            6 => s[m - i],
            _ => mw - inv[m - i],
        }
    };
    let mut fixed = 1;
    for g in 1..8 {
        if row(g, 0) != t {
            continue;
        }
        let ord = (1..n)
            .map(|i| row(g, i).cmp(&s[i]))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal);
        match ord {
            Ordering::Less => return,
            Ordering::Equal => fixed += 1,
            Ordering::Greater => {}
        }
    }
    match 8 / fixed {
        8 => counts.of8 += 1,
        4 => counts.of4 += 1,
        _ => counts.of2 += 1,
    }
}

/// Solves one sub-problem: the classes it is responsible for, by size.
pub fn solve(n: usize, sp: &SubProblem) -> ClassCounts {
    let job = job_of(n, sp);
    let t = sp.cols[0] as u32;
    let mut tied = ClassCounts::default();
    let plain = bitboard::run(&job, &mut |s| check_tied(n, t, s, &mut tied));
    let mut counts = tied;
    counts.of8 += plain;
    counts
}
