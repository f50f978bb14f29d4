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

use super::search::{self, Job, WORD_BITS};

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

/// The image of row `r`, column `c` under symmetry `g` (0..8) on an n x n board.
#[inline]
fn apply(g: usize, n: usize, r: usize, c: usize) -> (usize, usize) {
    let m = n - 1;
    match g {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (c, r),
        6 => (m - r, c),
        _ => (m - c, m - r),
    }
}

/// Solves one sub-problem: the classes it is responsible for, by size.
pub fn solve(n: usize, sp: &SubProblem) -> ClassCounts {
    let job = job_of(n, sp);
    let t = sp.cols[0];
    let mut counts = ClassCounts::default();
    let mut img = [0u32; WORD_BITS];
    let mut check = |s: &[u32]| {
        // Among the images that the search also finds (top queen at column t), count the
        // smallest only; the class size is the number of distinct images.
        let mut fixed = 0;
        for g in 0..8 {
            for (r, &c) in s.iter().enumerate() {
                let (r2, c2) = apply(g, n, r, c as usize);
                img[r2] = c2 as u32;
            }
            let img = &img[..n];
            if img == s {
                fixed += 1;
            } else if img[0] == t as u32 && img < s {
                return;
            }
        }
        match 8 / fixed {
            8 => counts.of8 += 1,
            4 => counts.of4 += 1,
            _ => counts.of2 += 1,
        }
    };
    let plain = search::run(&job, &mut check);
    counts.of8 += plain;
    counts
}
