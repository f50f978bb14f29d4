//! The search kernel: bitboard backtracking over the rows below a fixed prefix.
//!
//! A [`Job`] holds everything the kernel needs: for each row the columns the symmetry rules
//! allow, the rows where a queen may create a tie that needs a per-solution check, the row by
//! which both side columns must be taken, and the state after the prefix rows. The kernel walks
//! the rows with the classic three words (columns and the two diagonal directions, shifted by one
//! per row) on an explicit stack. The last row is not pushed: at most one column is free there,
//! so a non-empty mask is one solution.

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

/// Counts the solutions below the prefix that need no check, and calls `check` with the columns
/// of every solution that does (a tie under the symmetry rules).
pub(crate) fn run(job: &Job, check: &mut dyn FnMut(&[u32])) -> u64 {
    const M: usize = WORD_BITS - 1;
    let n = job.n;
    let last = n - 1;
    debug_assert!(job.start < last && n <= WORD_BITS);
    let masks = &job.mask;
    let ties = &job.tie;
    let last_mask = masks[last];
    let last_tie = ties[last];
    let side = job.side;
    let side_row = job.side_row;
    let mut free = [0u32; WORD_BITS];
    let mut ld = [0u32; WORD_BITS];
    let mut dn = [0u32; WORD_BITS];
    let mut rd = [0u32; WORD_BITS];
    let mut tied = [0u32; WORD_BITS];
    let mut sel = [0u32; WORD_BITS];
    let s = job.start;
    ld[s] = job.ld;
    dn[s] = job.dn;
    rd[s] = job.rd;
    tied[s] = job.tied;
    free[s] = entry_mask(
        masks[s],
        job.ld | job.dn | job.rd,
        job.dn,
        s == side_row,
        side,
    );
    let mut d = s;
    let mut count = 0u64;
    loop {
        let i = d & M;
        let f = free[i];
        if f == 0 {
            if d == s {
                break;
            }
            d -= 1;
            continue;
        }
        let bit = f & f.wrapping_neg();
        free[i] = f ^ bit;
        let nl = (ld[i] | bit) << 1;
        let nd = dn[i] | bit;
        let nr = (rd[i] | bit) >> 1;
        let nt = tied[i] | (bit & ties[i]);
        let occupied = nl | nd | nr;
        if d + 1 == last {
            let lf = last_mask & !occupied;
            if lf != 0 {
                if nt | (lf & last_tie) == 0 {
                    count += 1;
                } else {
                    sel[i] = bit;
                    let mut cols = [0u32; WORD_BITS];
                    cols[..s].copy_from_slice(&job.prefix[..s]);
                    for r in s..=d {
                        cols[r] = sel[r & M].trailing_zeros();
                    }
                    cols[last] = lf.trailing_zeros();
                    check(&cols[..n]);
                }
            }
        } else {
            sel[i] = bit;
            d += 1;
            let j = d & M;
            ld[j] = nl;
            dn[j] = nd;
            rd[j] = nr;
            tied[j] = nt;
            free[j] = if d == side_row {
                entry_mask(masks[j], occupied, nd, true, side)
            } else {
                masks[j] & !occupied
            };
        }
    }
    count
}

/// The free columns on entering a row; at the side row, what the side columns still need.
#[inline]
fn entry_mask(mask: u32, occupied: u32, dn: u32, at_side_row: bool, side: u32) -> u32 {
    let f = mask & !occupied;
    if !at_side_row {
        return f;
    }
    let taken = dn & side;
    if taken == 0 {
        0
    } else if taken != side {
        f & side
    } else {
        f
    }
}
