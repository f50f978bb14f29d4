//! The counting kernel in AVX-512 lanes, for x86-64 processors with AVX-512F and boards of at
//! most 18 columns (16 interior columns, one per lane).
//!
//! It searches the same tree as the depth-first kernel of the `kernel` module, with the same
//! checks (the one-row look-ahead in the upper levels, the complete check in the last
//! [`TAIL`] levels, the last rows counted directly), so it visits the same nodes and finds the
//! same count; what differs is the order and how a node is examined.
//!
//! * **A node's children all at once.** Each of the 16 lanes of a 512-bit vector holds one
//!   interior column: the words of the child with a queen there and its checks are computed for
//!   every column in the same instructions, and the free columns of the node select the lanes
//!   that count. No branch depends on the board within a node.
//! * **Breadth-first in batches.** The children that pass their checks are not entered at
//!   once: they are compressed (one AVX-512 instruction per word) into the buffer of the next
//!   level, and a level's buffer is searched when it fills, then once more at the end. So the
//!   loops run over many nodes with counts the processor predicts, where the depth-first search
//!   takes a branch it mostly cannot predict on every child (whether it passes, whether it is
//!   the last), and that is where the depth-first kernel spends most of its time.
//!
//! A level's buffer holds up to [`CAP`] nodes before it is searched, plus the 16 lanes one more
//! node can append; the buffers live in the thread (one set per counting thread, reused by every
//! interior it counts).

use super::interior::Interior;
use super::kernel::TAIL;
use core::arch::x86_64::*;
use std::cell::RefCell;

/// Lanes of a vector: interior columns 1..=16 (column 0 and column n - 1 are the border's).
const LANES: usize = 16;

/// Nodes a level's buffer takes before it is searched.
const CAP: usize = 512;

/// Whether this processor runs the kernel.
pub(super) fn available() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("popcnt")
}

/// Whether the kernel takes this interior: more levels than the complete check's, and every
/// interior column within the lanes.
pub(super) fn fits(it: &Interior) -> bool {
    it.depth > TAIL && it.cols >> (LANES + 1) == 0
}

/// The nodes waiting at one level: the free columns of the level's row and the three words of
/// the diagonals and columns the queens above take there (as in the `kernel` module), one node
/// per index.
#[derive(Default)]
struct Level {
    f: Vec<u32>,
    l: Vec<u32>,
    d: Vec<u32>,
    r: Vec<u32>,
    len: usize,
}

impl Level {
    /// Room for `cap` nodes and one more node's lanes.
    fn reserve(&mut self, cap: usize) {
        for v in [&mut self.f, &mut self.l, &mut self.d, &mut self.r] {
            if v.len() < cap + LANES {
                v.resize(cap + LANES, 0);
            }
        }
        self.len = 0;
    }
}

/// One interior's search: its buffers, how many nodes a buffer takes, and the count so far.
struct Search<'a> {
    it: &'a Interior,
    levels: &'a mut [Level],
    cap: usize,
    count: u64,
}

thread_local! {
    /// The buffers of this thread's searches.
    static LEVELS: RefCell<Vec<Level>> = const { RefCell::new(Vec::new()) };
}

/// The number of completions of the interior `it`. The caller checks [`available`] and
/// [`fits`].
pub(super) fn count(it: &Interior) -> u64 {
    count_with(it, CAP)
}

/// [`count`] with buffers of `cap` nodes (the tests make them small, so that every level's
/// buffer fills and is searched many times over).
fn count_with(it: &Interior, cap: usize) -> u64 {
    assert!(available() && fits(it) && cap >= 1);
    LEVELS.with(|cell| {
        let mut levels = cell.borrow_mut();
        if levels.len() < it.depth {
            levels.resize_with(it.depth, Level::default);
        }
        for level in levels.iter_mut() {
            level.reserve(cap);
        }
        let mut s = Search {
            it,
            levels: &mut levels[..it.depth],
            cap,
            count: 0,
        };
        let root = &mut s.levels[0];
        root.f[0] = it.mask[0];
        root.l[0] = 0;
        root.d[0] = 0;
        root.r[0] = 0;
        root.len = 1;
        // SAFETY: `available` says the processor has AVX-512F and POPCNT.
        unsafe {
            for i in 0..it.depth - 2 {
                s.level(i);
            }
        }
        s.count
    })
}

/// Lane j holds column j + 1.
#[target_feature(enable = "avx512f")]
#[inline]
fn columns() -> __m512i {
    _mm512_sllv_epi32(
        _mm512_set1_epi32(2),
        _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
    )
}

/// The lanes of the free columns `f`.
#[inline]
fn lanes(f: u32) -> __mmask16 {
    (f >> 1) as __mmask16
}

/// In each 32-bit lane, `v << n`.
#[target_feature(enable = "avx512f")]
#[inline]
fn shl(v: __m512i, n: u32) -> __m512i {
    _mm512_sll_epi32(v, _mm_cvtsi32_si128(n as i32))
}

/// In each 32-bit lane, `v >> n`.
#[target_feature(enable = "avx512f")]
#[inline]
fn shr(v: __m512i, n: u32) -> __m512i {
    _mm512_srl_epi32(v, _mm_cvtsi32_si128(n as i32))
}

/// In each lane, the cells of `mask` left free `dist` rows below the row of the words `l`,
/// `d`, `r` (the lanes' version of the `kernel` module's `free`).
#[target_feature(enable = "avx512f")]
#[inline]
fn free(mask: u32, dist: u32, l: __m512i, d: __m512i, r: __m512i) -> __m512i {
    // 0xFE: a | b | c.
    let taken = _mm512_ternarylogic_epi32::<0xFE>(shl(l, dist), d, shr(r, dist));
    _mm512_andnot_si512(taken, _mm512_set1_epi32(mask as i32))
}

/// The words of the next level, `s` rows down, after a queen in each lane's column.
#[target_feature(enable = "avx512f")]
#[inline]
fn children(l: u32, d: u32, r: u32, s: u32) -> (__m512i, __m512i, __m512i) {
    let c = columns();
    let l = shl(_mm512_or_si512(_mm512_set1_epi32(l as i32), c), s);
    let d = _mm512_or_si512(_mm512_set1_epi32(d as i32), c);
    let r = shr(_mm512_or_si512(_mm512_set1_epi32(r as i32), c), s);
    (l, d, r)
}

impl Search<'_> {
    /// Searches the nodes waiting at level `i` (their children go to level `i + 1`, or are
    /// counted at the last levels).
    #[target_feature(enable = "avx512f,popcnt")]
    fn level(&mut self, i: usize) {
        match self.it.depth - i {
            left if left > TAIL => self.upper(i),
            3 => self.last3(),
            4 => self.lower::<4>(),
            5 => self.lower::<5>(),
            6 => self.lower::<6>(),
            7 => self.lower::<7>(),
            _ => self.lower::<8>(),
        }
    }

    /// Appends the children of the lanes `live` to level `i`'s buffer, after searching that
    /// buffer if it is full.
    #[target_feature(enable = "avx512f,popcnt")]
    #[inline]
    fn push(&mut self, i: usize, live: __mmask16, f: __m512i, l: __m512i, d: __m512i, r: __m512i) {
        if self.levels[i].len >= self.cap {
            self.level(i);
        }
        let w = &mut self.levels[i];
        let k = w.len;
        debug_assert!(k + LANES <= w.f.len());
        for (v, x) in [(&mut w.f, f), (&mut w.l, l), (&mut w.d, d), (&mut w.r, r)] {
            // SAFETY: k < cap and the buffers have cap + LANES entries (`Level::reserve`),
            // so the 16 lanes stored from k are in the buffer.
            unsafe {
                _mm512_storeu_si512(
                    v.as_mut_ptr().add(k).cast(),
                    _mm512_maskz_compress_epi32(live, x),
                )
            };
        }
        w.len = k + live.count_ones() as usize;
    }

    /// The nodes of level `i`, an upper level (more than [`TAIL`] levels left): a child is kept
    /// if its row and the row after it keep a free cell.
    #[target_feature(enable = "avx512f,popcnt")]
    fn upper(&mut self, i: usize) {
        let it = self.it;
        let (s, s2) = (it.shift[i], it.shift[i + 1]);
        for j in 0..self.levels[i].len {
            let v = &self.levels[i];
            let (l, d, r) = children(v.l[j], v.d[j], v.r[j], s);
            let next = free(it.mask[i + 1], 0, l, d, r);
            let after = free(it.mask[i + 2], s2, l, d, r);
            let live = _mm512_mask_test_epi32_mask(lanes(v.f[j]), next, next);
            let live = _mm512_mask_test_epi32_mask(live, after, after);
            self.push(i + 1, live, next, l, d, r);
        }
        self.levels[i].len = 0;
    }

    /// The nodes of the first of the last `R` levels (4 <= R <= [`TAIL`]): a child is kept if
    /// every row below it keeps a free cell and every free column a free cell in some row below.
    #[target_feature(enable = "avx512f,popcnt")]
    fn lower<const R: usize>(&mut self) {
        let it = self.it;
        let i = it.depth - R;
        let cols = _mm512_set1_epi32(it.cols as i32);
        for j in 0..self.levels[i].len {
            let v = &self.levels[i];
            let (l, d, r) = children(v.l[j], v.d[j], v.r[j], it.tshift[R]);
            let next = free(it.tmask[R][1], 0, l, d, r);
            let mut live = _mm512_mask_test_epi32_mask(lanes(v.f[j]), next, next);
            let mut reach = next;
            for k in 2..R {
                let a = free(it.tmask[R][k], it.tdist[R][k], l, d, r);
                live = _mm512_mask_test_epi32_mask(live, a, a);
                reach = _mm512_or_si512(reach, a);
            }
            let open = _mm512_andnot_si512(d, cols);
            let live = _mm512_mask_cmpeq_epi32_mask(live, reach, open);
            self.push(i + 1, live, next, l, d, r);
        }
        self.levels[i].len = 0;
    }

    /// The nodes of the third level from the end, counted: each child leaves two rows and two
    /// free columns, and its completions (0, 1 or 2) are read off their cells.
    #[target_feature(enable = "avx512f,popcnt")]
    fn last3(&mut self) {
        let it = self.it;
        let i = it.depth - 3;
        let s2 = it.tdist[3][2];
        let cols = _mm512_set1_epi32(it.cols as i32);
        let zero = _mm512_setzero_si512();
        let v = &self.levels[i];
        let mut count = 0u64;
        for j in 0..v.len {
            let (l, d, r) = children(v.l[j], v.d[j], v.r[j], it.tshift[3]);
            let next = free(it.tmask[3][1], 0, l, d, r);
            let last = free(it.tmask[3][2], s2, l, d, r);
            let open = _mm512_andnot_si512(d, cols);
            let lo = _mm512_and_si512(open, _mm512_sub_epi32(zero, open));
            let hi = _mm512_xor_si512(open, lo);
            // Two free columns s2 apart are on a diagonal whatever the order.
            let apart = _mm512_mask_cmpneq_epi32_mask(lanes(v.f[j]), hi, shl(lo, s2));
            let lo_first = _mm512_mask_test_epi32_mask(apart, lo, next);
            let lo_first = _mm512_mask_test_epi32_mask(lo_first, hi, last);
            let hi_first = _mm512_mask_test_epi32_mask(apart, hi, next);
            let hi_first = _mm512_mask_test_epi32_mask(hi_first, lo, last);
            count += (lo_first.count_ones() + hi_first.count_ones()) as u64;
        }
        self.count += count;
        self.levels[i].len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::constellation::constellations;
    use super::super::kernel;
    use super::*;

    /// With buffers of every size from one node up, the count of every constellation's
    /// interior the kernel takes equals the depth-first kernel's (for any processor): all of
    /// them up to n = 14, and from n = 15 to the kernel's limit of 18 the 40 with the fewest free
    /// cells (the depth-first count of all takes seconds to minutes there).
    #[test]
    fn counts_equal_the_depth_first_kernel() {
        if !available() {
            eprintln!(
                "\n*** SKIPPED: this processor has no AVX-512F; the AVX-512 counting kernel is \
                 not tested here (the depth-first kernels are) ***\n"
            );
            return;
        }
        let mut taken = 0;
        for n in 4..=19 {
            let mut interiors: Vec<_> = constellations(n)
                .iter()
                .map(|c| {
                    (
                        super::super::constellation::estimated_cost(n, c),
                        c.interior(n),
                    )
                })
                .collect();
            if n >= 15 {
                interiors.sort_by_key(|(cost, _)| *cost);
                interiors.truncate(40);
            }
            for (_, it) in &interiors {
                if !fits(it) {
                    assert!(it.depth <= TAIL || n > 18, "n = {n}");
                    continue;
                }
                taken += 1;
                let want = kernel::count_plain(it);
                for cap in [1, 2, 3, 17, 100, CAP] {
                    assert_eq!(count_with(it, cap), want, "n = {n}, buffers of {cap}");
                }
            }
        }
        assert!(taken > 1000, "{taken} interiors");
    }
}
