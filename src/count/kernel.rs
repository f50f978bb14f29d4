//! The counting kernel of one constellation's interior: a bitboard backtracking over the
//! interior rows, top down.
//!
//! * In the upper levels a child is entered only if its own row and the row after it still have
//!   a free cell (a look-ahead of one row).
//! * In the last [`TAIL`] levels the check is complete instead: a child is entered only if every
//!   row below it still has a free cell and every free column still has a free cell in some row
//!   below (otherwise that column could never get its queen). These levels are generated once
//!   per number of remaining rows (a const parameter), so the loops over the rows below unroll.
//! * The last two rows are never entered: exactly two columns are free there, and the number of
//!   completions (0, 1 or 2) is read off the two free cells of each row.
//!
//! The same code is compiled twice: plainly and, on x86-64, with the BMI1/BMI2 instructions
//! (variable shifts and lowest-bit operations in one instruction each), chosen at run time when
//! the processor has them. Both give the same counts; only the speed differs. On processors with
//! AVX-512 or AVX2 the `wide` module searches the same tree breadth-first instead, a node's
//! children in the lanes of a vector ([`count`] chooses).

use super::interior::{Interior, TAIL};

/// Removes the lowest set bit of `f` and returns it.
#[inline(always)]
fn pop(f: &mut u32) -> u32 {
    let b = *f & f.wrapping_neg();
    *f ^= b;
    b
}

/// The words of the next level, `s` rows down, after a queen in column bit `b`: diagonals going
/// left, columns, diagonals going right.
#[inline(always)]
fn child(b: u32, l: u32, d: u32, r: u32, s: u32) -> (u32, u32, u32) {
    ((l | b) << s, d | b, (r | b) >> s)
}

/// The cells of `mask` left free, `dist` rows below the level of the words `l`, `d`, `r`.
#[inline(always)]
fn free(mask: u32, dist: u32, l: u32, d: u32, r: u32) -> u32 {
    mask & !((l << dist) | d | (r >> dist))
}

/// Generates the kernel functions, with the given attributes on each.
macro_rules! kernel {
    ($(#[$attr:meta])*) => {
        use super::super::interior::Interior;
        use super::super::kernel::{child, free, pop, TAIL};

        /// The number of completions of the interior.
        $(#[$attr])*
        pub(in super::super) fn count(it: &Interior) -> u64 {
            let f = it.mask[0];
            match it.depth {
                0 => 1,
                1 => f.count_ones() as u64,
                depth if depth > TAIL => top(it, 0, f, 0, 0, 0),
                2 => tail::<2>(it, f, 0, 0, 0),
                3 => tail::<3>(it, f, 0, 0, 0),
                4 => tail::<4>(it, f, 0, 0, 0),
                5 => tail::<5>(it, f, 0, 0, 0),
                6 => tail::<6>(it, f, 0, 0, 0),
                7 => tail::<7>(it, f, 0, 0, 0),
                _ => tail::<8>(it, f, 0, 0, 0),
            }
        }

        /// Completions from level `i` of the upper part (more than [`TAIL`] levels left), `f`
        /// the free columns of level `i` and `l`, `d`, `r` the words of the diagonals and
        /// columns taken by the queens above.
        $(#[$attr])*
        fn top(it: &Interior, i: usize, mut f: u32, l: u32, d: u32, r: u32) -> u64 {
            let s = it.shift[i];
            let s2 = it.shift[i + 1];
            let next = it.mask[i + 1];
            let after = it.mask[i + 2];
            let into_tail = i + 1 + TAIL == it.depth;
            let mut count = 0;
            while f != 0 {
                let (nl, nd, nr) = child(pop(&mut f), l, d, r, s);
                let nf = free(next, 0, nl, nd, nr);
                // Look-ahead: the level after the next one, ignoring the next queen.
                let a = free(after, s2, nl, nd, nr);
                if (nf != 0) & (a != 0) {
                    count += if into_tail {
                        tail::<TAIL>(it, nf, nl, nd, nr)
                    } else {
                        top(it, i + 1, nf, nl, nd, nr)
                    };
                }
            }
            count
        }

        /// Completions of the last `R` levels (2 <= R <= TAIL), `f` the free columns of the
        /// first of them.
        $(#[$attr])*
        #[inline]
        fn tail<const R: usize>(it: &Interior, mut f: u32, l: u32, d: u32, r: u32) -> u64 {
            let s = it.tshift[R];
            let mut count = 0;
            if R == 2 {
                let last = it.tmask[R][1];
                while f != 0 {
                    let (nl, nd, nr) = child(pop(&mut f), l, d, r, s);
                    count += (free(last, 0, nl, nd, nr) != 0) as u64;
                }
                return count;
            }
            if R == 3 {
                // Two rows left after this one, and two free columns: count directly.
                let next = it.tmask[R][1];
                let last = it.tmask[R][2];
                let s2 = it.tdist[R][2];
                while f != 0 {
                    let (nl, nd, nr) = child(pop(&mut f), l, d, r, s);
                    let f1 = free(next, 0, nl, nd, nr);
                    let g = free(last, s2, nl, nd, nr);
                    let c = it.cols & !nd;
                    let lo = c & c.wrapping_neg();
                    let hi = c ^ lo;
                    // Two free columns s2 apart are on a diagonal whatever the order.
                    let apart = (hi != lo << s2) as u64;
                    let ways = ((lo & f1 != 0) & (hi & g != 0)) as u64
                        + ((hi & f1 != 0) & (lo & g != 0)) as u64;
                    count += apart * ways;
                }
                return count;
            }
            while f != 0 {
                let (nl, nd, nr) = child(pop(&mut f), l, d, r, s);
                let nf = free(it.tmask[R][1], 0, nl, nd, nr);
                // Every row below must keep a free cell, and every free column a free cell
                // in some row below.
                let mut live = nf != 0;
                let mut reach = nf;
                for k in 2..R {
                    let a = free(it.tmask[R][k], it.tdist[R][k], nl, nd, nr);
                    live &= a != 0;
                    reach |= a;
                }
                if live & (reach == it.cols & !nd) {
                    count += match R {
                        4 => tail::<3>(it, nf, nl, nd, nr),
                        5 => tail::<4>(it, nf, nl, nd, nr),
                        6 => tail::<5>(it, nf, nl, nd, nr),
                        7 => tail::<6>(it, nf, nl, nd, nr),
                        _ => tail::<7>(it, nf, nl, nd, nr),
                        // R <= TAIL_MAX = 8.
                    };
                }
            }
            count
        }
    };
}

/// The kernel for any processor.
mod plain {
    kernel!();
}

/// The kernel with BMI1 and BMI2 (x86-64 processors since about 2013).
#[cfg(target_arch = "x86_64")]
mod bmi {
    kernel!(#[target_feature(enable = "bmi1,bmi2")]);
}

/// The environment variable that chooses the kernel of the empty-board counter, for
/// measurements: `depth-first` (this module's), `avx2` or `avx512` (the `wide` module's, for the
/// interiors it takes); unset, the fastest this processor runs.
pub const KERNEL_VARIABLE: &str = "QUEENS_SAT_COUNT_KERNEL";

/// A kernel [`KERNEL_VARIABLE`] can choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    /// This module's (BMI or plain, as the processor allows).
    DepthFirst,
    /// The `wide` module's where the interior fits it.
    #[cfg(target_arch = "x86_64")]
    Wide(super::wide::Kernel),
}

/// The value of [`KERNEL_VARIABLE`] (`None` when unset), or the message refusing a value that
/// is not UTF-8 text, as a name that is no kernel is refused.
fn variable() -> Result<Option<String>, String> {
    match std::env::var(KERNEL_VARIABLE) {
        Ok(v) => Ok(Some(v)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => Err(not_a_kernel(v.as_encoded_bytes())),
    }
}

/// The message refusing `value` (its bytes shown escaped, on one line), which names no kernel.
fn not_a_kernel(value: &[u8]) -> String {
    format!(
        "{KERNEL_VARIABLE}={}: not a kernel this build has (depth-first{})",
        value.escape_ascii(),
        if cfg!(target_arch = "x86_64") {
            ", avx2 or avx512"
        } else {
            ""
        }
    )
}

/// The kernel `value` of [`KERNEL_VARIABLE`] chooses (none: the fastest), or why this processor
/// cannot run it.
fn choice(value: Option<&str>) -> Result<Choice, String> {
    #[cfg(target_arch = "x86_64")]
    {
        use super::wide::Kernel;
        let wide = |k: Kernel, needs: &str| match k.available() {
            true => Ok(Choice::Wide(k)),
            false => Err(format!(
                "{KERNEL_VARIABLE}={}: this processor cannot run that kernel (it needs {needs})",
                value.unwrap_or_default()
            )),
        };
        match value {
            None => return Ok(Kernel::fastest().map_or(Choice::DepthFirst, Choice::Wide)),
            Some("avx512") => return wide(Kernel::Avx512, "AVX-512F and POPCNT"),
            Some("avx2") => return wide(Kernel::Avx2, "AVX2 and POPCNT"),
            _ => {}
        }
    }
    match value {
        None | Some("depth-first") => Ok(Choice::DepthFirst),
        Some(v) => Err(not_a_kernel(v.as_bytes())),
    }
}

/// Checks [`KERNEL_VARIABLE`]: an error names a value that is not a kernel (a value that is
/// not UTF-8 text included) or a kernel this processor cannot run (the counter itself then
/// uses the fastest).
pub fn check_variable() -> Result<(), String> {
    choice(variable()?.as_deref()).map(|_| ())
}

/// The number of completions of the interior `it`, with the kernel [`KERNEL_VARIABLE`] chooses,
/// by default the fastest this processor runs: the breadth-first one in vector lanes (the
/// `wide` module: AVX-512 or AVX2) where the processor and the interior allow, else this
/// module's depth-first one.
pub(super) fn count(it: &Interior) -> u64 {
    static CHOICE: std::sync::OnceLock<Choice> = std::sync::OnceLock::new();
    let chosen = *CHOICE.get_or_init(|| {
        variable()
            .and_then(|value| choice(value.as_deref()))
            .or_else(|_| choice(None))
            .unwrap_or(Choice::DepthFirst)
    });
    #[cfg(target_arch = "x86_64")]
    {
        if let Choice::Wide(k) = chosen {
            if super::wide::fits(it) {
                return k.count(it);
            }
        }
        if std::is_x86_feature_detected!("bmi1") && std::is_x86_feature_detected!("bmi2") {
            // SAFETY: the processor has the instructions `bmi::count` was compiled for.
            return unsafe { bmi::count(it) };
        }
    }
    let _ = chosen; // Elsewhere than on x86-64 only the depth-first kernel exists.
    plain::count(it)
}

/// The number of completions with the kernel for any processor (for tests).
#[cfg(test)]
pub(super) fn count_plain(it: &Interior) -> u64 {
    plain::count(it)
}
