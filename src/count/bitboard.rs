//! The bitboard kernel of the prefix split ([`super::split`]): backtracking over the rows
//! below a fixed prefix; and the width of the counter's bitboard word ([`WORD_BITS`], the
//! largest board the counter of the empty board takes).
//!
//! A [`Job`] holds everything the kernel needs: for each row the columns the symmetry rules
//! allow, the rows where a queen may create a tie that needs a per-solution check, the row by
//! which both side columns must be taken, and the state after the prefix rows. The kernel walks
//! the rows with the classic three words (columns and the two diagonal directions, shifted by one
//! per row), one recursion level per row so that the words stay in registers. A child is entered
//! only if the row after it and the last row still have a free column (a cheap look-ahead that
//! cuts dead branches one level early). The last two rows are never entered: exactly two columns
//! are free there, and the number of completions (0, 1 or 2) is computed directly from them.

/// Largest board the bitboard word (`u32`) holds.
pub const WORD_BITS: usize = 32;

/// One sub-problem ready for the kernel.
#[derive(Clone)]
pub(crate) struct Job {
    /// Board size (at least 4).
    pub n: usize,
    /// `mask[r]`: columns row `r` may use under the symmetry rules.
    pub mask: [u32; WORD_BITS],
    /// `tie[r]`: columns of row `r` whose queen makes the solution need a symmetry check.
    pub tie: [u32; WORD_BITS],
    /// The row on entering which at least one side column must be taken, and on leaving which
    /// both (no side queen below it); `usize::MAX` for none.
    pub side_row: usize,
    /// Both side columns.
    pub side: u32,
    /// First row searched by the kernel (the rows above are the prefix); at most n-2.
    pub start: usize,
    /// Columns of the prefix rows (0-based), entries `0..start`.
    pub prefix: [u32; WORD_BITS],
    /// State after the prefix: "\" word, column word, "/" word, and whether a tie occurred.
    pub ld: u32,
    /// Column word.
    pub dn: u32,
    /// "/" word.
    pub rd: u32,
    /// Tie bits met in the prefix.
    pub tied: u32,
}

/// The kernel's state for one sub-problem: the job and what the last two rows need.
struct Kernel<'a, 'c> {
    job: &'a Job,
    /// All n columns.
    full: u32,
    /// The second-to-last row, `n - 2`: the recursion stops on entering it.
    pre: usize,
    /// `mask`, `tie` of row `pre`, and whether it is the side row.
    pre_mask: u32,
    pre_tie: u32,
    pre_side: bool,
    /// `mask` and `tie` of the last row.
    last_mask: u32,
    last_tie: u32,
    /// Bit of the queen of each row on the current path (for tied solutions).
    sel: [u32; WORD_BITS],
    check: &'c mut dyn FnMut(&[u32]),
}

/// The free columns on entering the side row: none if no side column is taken yet, only the
/// missing side column if one is, all if both are.
#[inline(always)]
fn side_rule(free: u32, dn: u32, side: u32) -> u32 {
    let taken = dn & side;
    if taken == 0 {
        0
    } else if taken != side {
        free & side
    } else {
        free
    }
}

impl Kernel<'_, '_> {
    /// The completions of the last two rows, counted directly: two columns are free, `lo` and
    /// `hi`; each of the two orders is a solution if both cells are free and the two queens are
    /// not diagonal neighbours. Tied solutions go to the slow path.
    #[inline(always)]
    fn last_two(&mut self, l: u32, d: u32, r: u32, tied: u32) -> u64 {
        let mut f = self.pre_mask & !(l | d | r);
        if self.pre_side {
            f = side_rule(f, d, self.job.side);
        }
        let g = self.last_mask & !((l << 1) | d | (r >> 1));
        let c = self.full & !d;
        let lo = c & c.wrapping_neg();
        let hi = c ^ lo;
        if hi == lo << 1 {
            return 0;
        }
        let a = (lo & f != 0) & (hi & g != 0);
        let b = (hi & f != 0) & (lo & g != 0);
        if tied | (f & self.pre_tie) | (g & self.last_tie) == 0 {
            return a as u64 + b as u64;
        }
        self.last_two_tied([(a, lo, hi), (b, hi, lo)], tied)
    }

    /// The last two rows when a tie is possible: each completion is counted if it has no tie,
    /// and passed to `check` with its columns if it has.
    #[cold]
    #[inline(never)]
    fn last_two_tied(&mut self, options: [(bool, u32, u32); 2], tied: u32) -> u64 {
        let mut count = 0;
        for (ok, x, y) in options {
            if !ok {
                continue;
            }
            if tied | (x & self.pre_tie) | (y & self.last_tie) == 0 {
                count += 1;
                continue;
            }
            let n = self.job.n;
            let s = self.job.start;
            let mut cols = [0u32; WORD_BITS];
            cols[..s].copy_from_slice(&self.job.prefix[..s]);
            for (c, b) in cols[s..self.pre].iter_mut().zip(&self.sel[s..self.pre]) {
                *c = b.trailing_zeros();
            }
            cols[self.pre] = x.trailing_zeros();
            cols[n - 1] = y.trailing_zeros();
            (self.check)(&cols[..n]);
        }
        count
    }

    /// Tries every free column `f` of `row` (above `pre`). A child is entered only if its own
    /// row, the row after it and the last row still have a free column.
    fn rows(&mut self, row: usize, mut f: u32, l: u32, d: u32, r: u32, tied: u32) -> u64 {
        let job = self.job;
        let next = row + 1;
        let tie = job.tie[row];
        let next_mask = job.mask[next];
        let at_side = next == job.side_row;
        // Rows from `next` to the last row.
        let to_last = (self.pre + 1 - next) as u32;
        let mut count = 0;
        while f != 0 {
            let b = f & f.wrapping_neg();
            f ^= b;
            self.sel[row] = b;
            let nl = (l | b) << 1;
            let nd = d | b;
            let nr = (r | b) >> 1;
            let nt = tied | (b & tie);
            if next == self.pre {
                count += self.last_two(nl, nd, nr, nt);
                continue;
            }
            let mut nf = next_mask & !(nl | nd | nr);
            if at_side {
                nf = side_rule(nf, nd, job.side);
            }
            // Look-ahead: the row after `next` (ignoring `next`'s queen) and the last row.
            let after = job.mask[next + 1] & !((nl << 1) | nd | (nr >> 1));
            let last = self.last_mask & !((nl << to_last) | nd | (nr >> to_last));
            if (nf != 0) & (after != 0) & (last != 0) {
                count += self.rows(next, nf, nl, nd, nr, nt);
            }
        }
        count
    }
}

/// Counts the solutions below the prefix that need no check, and calls `check` with the columns
/// of every solution that does (a tie under the symmetry rules).
///
/// Rows `start .. n-2` are searched depth first (one recursion level per row, the state in
/// registers); the last two rows are counted directly from their free columns.
pub(crate) fn run(job: &Job, check: &mut dyn FnMut(&[u32])) -> u64 {
    let n = job.n;
    debug_assert!((4..=WORD_BITS).contains(&n) && job.start < n - 1);
    let last = n - 1;
    let pre = last - 1;
    let mut k = Kernel {
        job,
        full: u32::MAX >> (WORD_BITS - n),
        pre,
        pre_mask: job.mask[pre],
        pre_tie: job.tie[pre],
        pre_side: job.side_row == pre,
        last_mask: job.mask[last],
        last_tie: job.tie[last],
        sel: [0; WORD_BITS],
        check,
    };
    let s = job.start;
    if s == pre {
        return k.last_two(job.ld, job.dn, job.rd, job.tied);
    }
    let mut f = job.mask[s] & !(job.ld | job.dn | job.rd);
    if s == job.side_row {
        f = side_rule(f, job.dn, job.side);
    }
    k.rows(s, f, job.ld, job.dn, job.rd, job.tied)
}
