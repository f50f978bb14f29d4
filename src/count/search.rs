//! The search kernel: bitboard backtracking over the interior rows of one sub-problem.
//!
//! A sub-problem fixes the queens on the border of the board (see [`super::split`]); every
//! interior row `1..=n-2` then has a precomputed mask of the columns still allowed (not attacked
//! by a border queen, not on the side columns unless the row holds the left or right border
//! queen). The search walks the interior rows top to bottom with the classic three words for the
//! columns and the two diagonal directions, shifted by one per row.

/// Largest board the bitboard word (`u32`) holds.
pub const WORD_BITS: usize = 32;

/// The allowed columns of each row; rows 1..=n-2 are searched.
pub(crate) struct RowMasks {
    /// Board size (at least 4).
    pub n: usize,
    /// `mask[r]`: bit `c` set when column `c` may hold row `r`'s queen.
    pub mask: [u32; WORD_BITS],
}

/// Counts the completions of the interior rows. Iterative, with an explicit stack; the last
/// interior row is not pushed: it has at most one free column, so a non-empty mask is one
/// solution.
pub(crate) fn count_interior(rm: &RowMasks) -> u64 {
    let last = rm.n - 2;
    debug_assert!(last >= 2 && rm.n <= WORD_BITS);
    let masks = &rm.mask;
    let last_mask = masks[last];
    // Frames for rows 1..last-1: free bits, "\" word, column word, "/" word.
    let mut free = [0u32; WORD_BITS];
    let mut ld = [0u32; WORD_BITS];
    let mut dn = [0u32; WORD_BITS];
    let mut rd = [0u32; WORD_BITS];
    let mut d = 1usize;
    free[1] = masks[1];
    let mut count = 0u64;
    loop {
        let f = free[d & (WORD_BITS - 1)];
        if f == 0 {
            if d == 1 {
                break;
            }
            d -= 1;
            continue;
        }
        let bit = f & f.wrapping_neg();
        free[d & (WORD_BITS - 1)] = f ^ bit;
        let i = d & (WORD_BITS - 1);
        let nl = (ld[i] | bit) << 1;
        let nd = dn[i] | bit;
        let nr = (rd[i] | bit) >> 1;
        let occupied = nl | nd | nr;
        if d + 1 == last {
            count += (last_mask & !occupied != 0) as u64;
        } else {
            d += 1;
            let j = d & (WORD_BITS - 1);
            ld[j] = nl;
            dn[j] = nd;
            rd[j] = nr;
            free[j] = masks[j] & !occupied;
        }
    }
    count
}

/// Calls `visit` with the column of every interior row (indices 1..=n-2 of `cols`; the caller
/// fills rows 0 and n-1) for each completion. Used only for the rare sub-problems whose border
/// is symmetric, where each solution must be compared with its images.
pub(crate) fn visit_interior(rm: &RowMasks, cols: &mut [u32], visit: &mut dyn FnMut(&[u32])) {
    fn go(
        rm: &RowMasks,
        row: usize,
        ld: u32,
        dn: u32,
        rd: u32,
        cols: &mut [u32],
        visit: &mut dyn FnMut(&[u32]),
    ) {
        if row == rm.n - 1 {
            visit(cols);
            return;
        }
        let mut free = rm.mask[row] & !(ld | dn | rd);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            cols[row] = bit.trailing_zeros();
            go(
                rm,
                row + 1,
                (ld | bit) << 1,
                dn | bit,
                (rd | bit) >> 1,
                cols,
                visit,
            );
        }
    }
    go(rm, 1, 0, 0, 0, cols, visit);
}
