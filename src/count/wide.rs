//! The counting kernel in vector lanes, for x86-64 processors with AVX-512F or AVX2 and boards
//! of at most 18 columns (16 interior columns, one per lane).
//!
//! It searches the same tree as the depth-first kernel of the `kernel` module, with the same
//! checks (the one-row look-ahead in the upper levels, the complete check in the last
//! [`TAIL`] levels, the last rows counted directly), so it visits the same nodes and finds the
//! same count; what differs is the order and how a node is examined.
//!
//! * **A node's children all at once.** Each of 16 lanes (one 512-bit vector, or two 256-bit
//!   ones) holds one interior column: the words of the child with a queen there and its checks
//!   are computed for every column in the same instructions, and the free columns of the node
//!   select the lanes that count. No branch depends on the board within a node.
//! * **Breadth-first in batches.** The children that pass their checks are not entered at
//!   once: they are compressed (one AVX-512 instruction per word, or a table of permutations in
//!   AVX2) into the buffer of the next level, and a level's buffer is searched when it fills,
//!   then once more at the end. So the loops run over many nodes with counts the processor
//!   predicts, where the depth-first search takes a branch it mostly cannot predict on every
//!   child (whether it passes, whether it is the last), and that is where the depth-first
//!   kernel spends most of its time.
//!
//! The search is written once (the `lanes_kernel` macro) over a handful of lane operations,
//! which the modules `avx512` and `avx2` define with their instructions. A level's buffer holds
//! up to [`CAP`] nodes before it is searched, plus the 16 lanes one more node can append; the
//! buffers live in the thread (one set per counting thread, reused by every interior it
//! counts).

use super::interior::{Interior, TAIL};
use std::cell::RefCell;

/// The lanes: lane j holds interior column j + 1 (column 0 and column n - 1 are the border's).
const LANES: usize = 16;

/// Nodes a level's buffer takes before it is searched.
pub(super) const CAP: usize = 512;

/// The instruction sets the kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kernel {
    /// AVX-512F (16 lanes in one vector, masks in mask registers).
    Avx512,
    /// AVX2 (16 lanes in two vectors).
    Avx2,
}

impl Kernel {
    /// Whether this processor runs the kernel.
    pub(super) fn available(self) -> bool {
        std::is_x86_feature_detected!("popcnt")
            && match self {
                Kernel::Avx512 => std::is_x86_feature_detected!("avx512f"),
                Kernel::Avx2 => std::is_x86_feature_detected!("avx2"),
            }
    }

    /// The fastest kernel this processor runs, if any.
    pub(super) fn fastest() -> Option<Kernel> {
        [Kernel::Avx512, Kernel::Avx2]
            .into_iter()
            .find(|k| k.available())
    }

    /// The number of completions of the interior `it`, which [`fits`].
    pub(super) fn count(self, it: &Interior) -> u64 {
        self.count_with(it, CAP)
    }

    /// [`Kernel::count`] with buffers of `cap` nodes (the tests make them small, so that every
    /// level's buffer fills and is searched many times over).
    pub(super) fn count_with(self, it: &Interior, cap: usize) -> u64 {
        assert!(self.available() && fits(it) && cap >= 1);
        LEVELS.with(|cell| {
            let mut levels = cell.borrow_mut();
            if levels.len() < it.depth {
                levels.resize_with(it.depth, Level::default);
            }
            for level in &mut levels[..it.depth] {
                level.reserve(cap);
            }
            let mut s = Search {
                it,
                levels: &mut levels[..it.depth],
                cap,
                count: 0,
            };
            let root = &mut s.levels[0];
            root.l[0] = 0;
            root.d[0] = 0;
            root.r[0] = 0;
            root.len = 1;
            match self {
                // SAFETY: `available` says the processor has the module's features.
                Kernel::Avx512 => unsafe { avx512::run(&mut s) },
                Kernel::Avx2 => unsafe { avx2::run(&mut s) },
            }
            s.count
        })
    }
}

/// Whether the kernel takes this interior: more levels than the complete check's, and every
/// interior column within the lanes.
pub(super) fn fits(it: &Interior) -> bool {
    it.depth > TAIL && it.cols >> (LANES + 1) == 0
}

/// The nodes waiting at one level: the three words of the diagonals and columns the queens above
/// take in the level's row (as in the `kernel` module), one node per index.
#[derive(Default)]
struct Level {
    l: Vec<u32>,
    d: Vec<u32>,
    r: Vec<u32>,
    len: usize,
}

impl Level {
    /// Node `j`: the free columns of `mask` (the level's row) and the three words.
    #[inline(always)]
    fn node(&self, j: usize, mask: u32) -> (u32, u32, u32, u32) {
        let (l, d, r) = (self.l[j], self.d[j], self.r[j]);
        (mask & !(l | d | r), l, d, r)
    }

    /// Room for `cap` nodes and one more node's lanes.
    fn reserve(&mut self, cap: usize) {
        for v in [&mut self.l, &mut self.d, &mut self.r] {
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

/// The search of the `Search`'s interior, for a module that defines the lane operations: `V`
/// (16 lanes of 32 bits), `splat`, `columns` (lane j holds column j + 1), `or`, `and`, `xor`,
/// `andnot` (`!a & b`), `or3`, `neg`, `shl`, `shr` (every lane by one count), `M` (a set of
/// lanes), `lanes` (the lanes of a word's columns), `bits` (a set of lanes as 16 bits),
/// `filled`, `nonzero`, `equal` and `differ` (the lanes of a set where `a != 0`, `a & b != 0`,
/// `a == b`, `a != b`) and `store` (the lanes of a set, in order, from a pointer on).
macro_rules! lanes_kernel {
    ($features:literal) => {
        use super::{Search, LANES, TAIL};

        /// Counts the interior of `s`.
        ///
        /// # Safety
        /// The processor has the target features of this module.
        #[target_feature(enable = $features)]
        pub(super) unsafe fn run(s: &mut Search) {
            for i in 0..s.it.depth - 2 {
                level(s, i);
            }
        }

        /// In each lane, the cells of `mask` left free `dist` rows below the row of the words
        /// `l`, `d`, `r` (the lanes' version of the `kernel` module's `free`).
        #[target_feature(enable = $features)]
        #[inline]
        fn free(mask: u32, dist: u32, l: V, d: V, r: V) -> V {
            andnot(or3(shl(l, dist), d, shr(r, dist)), splat(mask))
        }

        /// The words of the next level, `s` rows down, after a queen in each lane's column.
        #[target_feature(enable = $features)]
        #[inline]
        fn children(l: u32, d: u32, r: u32, s: u32) -> (V, V, V) {
            let c = columns();
            (
                shl(or(splat(l), c), s),
                or(splat(d), c),
                shr(or(splat(r), c), s),
            )
        }

        /// Searches the nodes waiting at level `i` (their children go to level `i + 1`, or are
        /// counted at the last levels).
        #[target_feature(enable = $features)]
        fn level(s: &mut Search, i: usize) {
            match s.it.depth - i {
                left if left > TAIL => upper(s, i),
                3 => last3(s),
                4 => lower::<4>(s),
                5 => lower::<5>(s),
                6 => lower::<6>(s),
                7 => lower::<7>(s),
                _ => lower::<8>(s),
            }
        }

        /// Appends the children of the lanes `live` to level `i`'s buffer, after searching
        /// that buffer if it is full.
        #[target_feature(enable = $features)]
        #[inline]
        fn push(s: &mut Search, i: usize, live: M, l: V, d: V, r: V) {
            let live = bits(live);
            if s.levels[i].len >= s.cap {
                level(s, i);
            }
            let w = &mut s.levels[i];
            let k = w.len;
            debug_assert!(k + LANES <= w.l.len());
            for (v, x) in [(&mut w.l, l), (&mut w.d, d), (&mut w.r, r)] {
                // SAFETY: k < cap and the buffers have cap + LANES entries
                // (`Level::reserve`), so the 16 lanes stored from k are in the buffer.
                unsafe { store(v.as_mut_ptr().add(k), live, x) };
            }
            w.len = k + live.count_ones() as usize;
        }

        /// The nodes of level `i`, an upper level (more than [`TAIL`] levels left): a child is
        /// kept if its row and the row after it keep a free cell.
        #[target_feature(enable = $features)]
        fn upper(s: &mut Search, i: usize) {
            let it = s.it;
            let (sh, sh2) = (it.shift[i], it.shift[i + 1]);
            for j in 0..s.levels[i].len {
                let (f, l, d, r) = s.levels[i].node(j, it.mask[i]);
                let (l, d, r) = children(l, d, r, sh);
                let next = free(it.mask[i + 1], 0, l, d, r);
                let after = free(it.mask[i + 2], sh2, l, d, r);
                let live = filled(filled(lanes(f), next), after);
                push(s, i + 1, live, l, d, r);
            }
            s.levels[i].len = 0;
        }

        /// The nodes of the first of the last `R` levels (4 <= R <= [`TAIL`]): a child is kept
        /// if every row below it keeps a free cell and every free column a free cell in some
        /// row below.
        #[target_feature(enable = $features)]
        fn lower<const R: usize>(s: &mut Search) {
            let it = s.it;
            let i = it.depth - R;
            let cols = splat(it.cols);
            for j in 0..s.levels[i].len {
                let (f, l, d, r) = s.levels[i].node(j, it.mask[i]);
                let (l, d, r) = children(l, d, r, it.tshift[R]);
                let next = free(it.tmask[R][1], 0, l, d, r);
                let mut live = filled(lanes(f), next);
                let mut reach = next;
                for k in 2..R {
                    let a = free(it.tmask[R][k], it.tdist[R][k], l, d, r);
                    live = filled(live, a);
                    reach = or(reach, a);
                }
                let live = equal(live, reach, andnot(d, cols));
                push(s, i + 1, live, l, d, r);
            }
            s.levels[i].len = 0;
        }

        /// The nodes of the third level from the end, counted: each child leaves two rows and
        /// two free columns, and its completions (0, 1 or 2) are read off their cells.
        #[target_feature(enable = $features)]
        fn last3(s: &mut Search) {
            let it = s.it;
            let i = it.depth - 3;
            let s2 = it.tdist[3][2];
            let cols = splat(it.cols);
            let v = &s.levels[i];
            let mut count = 0u64;
            for j in 0..v.len {
                let (f, l, d, r) = v.node(j, it.mask[i]);
                let (l, d, r) = children(l, d, r, it.tshift[3]);
                let next = free(it.tmask[3][1], 0, l, d, r);
                let last = free(it.tmask[3][2], s2, l, d, r);
                let open = andnot(d, cols);
                let lo = and(open, neg(open));
                let hi = xor(open, lo);
                // Two free columns s2 apart are on a diagonal whatever the order.
                let apart = differ(lanes(f), hi, shl(lo, s2));
                let lo_first = nonzero(nonzero(apart, lo, next), hi, last);
                let hi_first = nonzero(nonzero(apart, hi, next), lo, last);
                count += (bits(lo_first).count_ones() + bits(hi_first).count_ones()) as u64;
            }
            s.count += count;
            s.levels[i].len = 0;
        }
    };
}

/// The lane operations in AVX-512F: a vector of 16 lanes, masks in mask registers.
mod avx512 {
    use core::arch::x86_64::*;

    lanes_kernel!("avx512f,popcnt");

    type V = __m512i;

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn splat(x: u32) -> V {
        _mm512_set1_epi32(x as i32)
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn columns() -> V {
        _mm512_sllv_epi32(
            _mm512_set1_epi32(2),
            _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
        )
    }

    /// The bitwise operations of two vectors.
    macro_rules! bitwise {
        ($($name:ident => $op:ident),*) => {$(
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn $name(a: V, b: V) -> V {
                $op(a, b)
            }
        )*};
    }

    bitwise!(or => _mm512_or_si512, and => _mm512_and_si512, xor => _mm512_xor_si512,
        andnot => _mm512_andnot_si512);

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn or3(a: V, b: V, c: V) -> V {
        // 0xFE: a | b | c.
        _mm512_ternarylogic_epi32::<0xFE>(a, b, c)
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn neg(a: V) -> V {
        _mm512_sub_epi32(_mm512_setzero_si512(), a)
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn shl(v: V, n: u32) -> V {
        _mm512_sll_epi32(v, _mm_cvtsi32_si128(n as i32))
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn shr(v: V, n: u32) -> V {
        _mm512_srl_epi32(v, _mm_cvtsi32_si128(n as i32))
    }

    type M = u16;

    #[inline]
    fn lanes(f: u32) -> M {
        (f >> 1) as u16
    }

    #[inline]
    fn bits(m: M) -> u16 {
        m
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn filled(m: M, a: V) -> M {
        nonzero(m, a, a)
    }

    /// The comparisons of two vectors within a set of lanes, one instruction each.
    macro_rules! within {
        ($($name:ident => $op:ident),*) => {$(
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn $name(m: M, a: V, b: V) -> M {
                $op(m, a, b)
            }
        )*};
    }

    within!(nonzero => _mm512_mask_test_epi32_mask, equal => _mm512_mask_cmpeq_epi32_mask,
        differ => _mm512_mask_cmpneq_epi32_mask);

    /// # Safety
    /// `p` is valid for 16 writes.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn store(p: *mut u32, m: u16, v: V) {
        _mm512_storeu_si512(p.cast(), _mm512_maskz_compress_epi32(m, v))
    }
}

/// The lane operations in AVX2: 16 lanes in two 256-bit vectors, masks taken out of the vectors'
/// sign bits, and the lanes of a mask gathered by a table of permutations.
mod avx2 {
    use core::arch::x86_64::*;

    lanes_kernel!("avx2,popcnt");

    type V = (__m256i, __m256i);

    /// For each 8-bit mask, the indices of its set bits in order (the rest 0).
    static GATHER: [[u32; 8]; 256] = {
        let mut t = [[0u32; 8]; 256];
        let mut m = 0;
        while m < 256 {
            let (mut b, mut k) = (0, 0);
            while b < 8 {
                if m >> b & 1 == 1 {
                    t[m][k] = b as u32;
                    k += 1;
                }
                b += 1;
            }
            m += 1;
        }
        t
    };

    #[target_feature(enable = "avx2")]
    #[inline]
    fn splat(x: u32) -> V {
        let v = _mm256_set1_epi32(x as i32);
        (v, v)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn columns() -> V {
        let two = _mm256_set1_epi32(2);
        (
            _mm256_sllv_epi32(two, _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0)),
            _mm256_sllv_epi32(two, _mm256_set_epi32(15, 14, 13, 12, 11, 10, 9, 8)),
        )
    }

    /// The bitwise operations of two vectors, each instruction on both halves.
    macro_rules! bitwise {
        ($($name:ident => $op:ident),*) => {$(
            #[target_feature(enable = "avx2")]
            #[inline]
            fn $name(a: V, b: V) -> V {
                ($op(a.0, b.0), $op(a.1, b.1))
            }
        )*};
    }

    bitwise!(or => _mm256_or_si256, and => _mm256_and_si256, xor => _mm256_xor_si256,
        andnot => _mm256_andnot_si256);

    #[target_feature(enable = "avx2")]
    #[inline]
    fn or3(a: V, b: V, c: V) -> V {
        or(or(a, b), c)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn neg(a: V) -> V {
        let z = _mm256_setzero_si256();
        (_mm256_sub_epi32(z, a.0), _mm256_sub_epi32(z, a.1))
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn shl(v: V, n: u32) -> V {
        let n = _mm_cvtsi32_si128(n as i32);
        (_mm256_sll_epi32(v.0, n), _mm256_sll_epi32(v.1, n))
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn shr(v: V, n: u32) -> V {
        let n = _mm_cvtsi32_si128(n as i32);
        (_mm256_srl_epi32(v.0, n), _mm256_srl_epi32(v.1, n))
    }

    /// A set of lanes: all ones in a lane of the set, zeros elsewhere.
    type M = V;

    /// In each lane, all ones where `a == b`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn eq(a: V, b: V) -> V {
        (_mm256_cmpeq_epi32(a.0, b.0), _mm256_cmpeq_epi32(a.1, b.1))
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn lanes(f: u32) -> M {
        let c = columns();
        eq(and(splat(f), c), c)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn bits(m: M) -> u16 {
        let lo = _mm256_movemask_ps(_mm256_castsi256_ps(m.0));
        let hi = _mm256_movemask_ps(_mm256_castsi256_ps(m.1));
        (lo | hi << 8) as u16
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn filled(m: M, a: V) -> M {
        andnot(eq(a, splat(0)), m)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn nonzero(m: M, a: V, b: V) -> M {
        filled(m, and(a, b))
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn equal(m: M, a: V, b: V) -> M {
        and(m, eq(a, b))
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn differ(m: M, a: V, b: V) -> M {
        andnot(eq(a, b), m)
    }

    /// # Safety
    /// `p` is valid for 16 writes.
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    unsafe fn store(p: *mut u32, m: u16, v: V) {
        let (lo, hi) = ((m & 0xFF) as usize, (m >> 8) as usize);
        let gather = |k: usize| _mm256_loadu_si256(GATHER[k].as_ptr().cast());
        _mm256_storeu_si256(p.cast(), _mm256_permutevar8x32_epi32(v.0, gather(lo)));
        let p = p.add(lo.count_ones() as usize);
        _mm256_storeu_si256(p.cast(), _mm256_permutevar8x32_epi32(v.1, gather(hi)));
    }
}
