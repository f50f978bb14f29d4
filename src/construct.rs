//! Direct constructions: an n-queens solution for any n >= 4 in O(n) time, without search.
//!
//! Two closed forms are implemented, both as a short list of arithmetic progressions of
//! columns (step 2), which the rows take in order:
//!
//! * [`Method::Hlm`], the construction of Hoffman, Loessi and Moore (1969). With `h = n / 2`
//!   (rounded down) and columns written 1-based:
//!   * n mod 6 not in {2, 3}: **A1** (n even) `2, 4, ..., n, 1, 3, ..., n-1`;
//!     **A2** (n odd) `2, 4, ..., n-1, 1, 3, ..., n-2, n`.
//!   * n mod 6 in {2, 3}:
//!     **B1** (n even, h even) `h, h+2, ..., n | 2, 4, ..., h-2 | h+3, h+5, ..., n-1 | 1, 3, ..., h+1`;
//!     **B2** (n even, h odd) `h, h+2, ..., n-1 | 1, 3, ..., h-2 | h+3, h+5, ..., n | 2, 4, ..., h+1`;
//!     **B3** (n odd, h even) and **B4** (n odd, h odd) are B1 and B2 for `n - 1` followed by
//!     a queen on (n, n) (their "construction C": neither A nor B uses the main diagonal).
//! * [`Method::Staircase`], the "staircase" formula: the even columns, then the odd ones;
//!   if n mod 6 = 2, swap 1 and 3 in the odd list and move 5 to its end
//!   (`8: 2 4 6 8 3 1 7 5`); if n mod 6 = 3, move 2 to the end of the even list and 1, 3 to
//!   the end of the odd list (`9: 4 6 8 2 5 7 9 1 3`). For n mod 6 not in {2, 3} it is the
//!   same placement as A1/A2.
//!
//! n = 1 has the single solution `1`; n = 2 and n = 3 have none, which [`construct`] reports as
//! `Ok(None)` (not an error: the question has an answer). n = 0 and n too large for a
//! [`Placement`] are errors ([`ConstructError`]).
//!
//! A [`Construction`] describes the answer without storing it: [`Construction::columns`]
//! streams the columns and [`write_one_line`] prints them in constant memory, so huge boards
//! can be written without a vector or a string of the whole answer;
//! [`Construction::placement`] materialises the [`Placement`] the rest of the toolkit uses
//! (checks, rendering, [`Placement::to_assignment`] for the CNF).
//!
//! ```
//! use queens_sat::construct::{construct, Case, Construction, Method};
//!
//! let p = construct(8, Method::Hlm).unwrap().expect("n = 8 has solutions");
//! assert_eq!(p.to_one_line(), "4 6 8 2 7 1 3 5");
//! assert!(queens_sat::board::is_solution(&p));
//!
//! let c = Construction::new(9, Method::Staircase).unwrap().unwrap();
//! assert_eq!(c.case(), Case::StaircaseMod3);
//! assert!(construct(3, Method::Hlm).unwrap().is_none()); // no solution exists for n = 3
//! ```
//!
//! ## References
//! * E. J. Hoffman, J. C. Loessi, R. C. Moore, "Constructions for the Solution of the m Queens
//!   Problem", Mathematics Magazine 42(2), 1969, pp. 66-72.
//! * The staircase formula: the encyclopedia article on the eight queens puzzle (its
//!   "explicit solutions" section), after Bernhardsson (1991) and Hoffman et al.

use crate::board::{Geometry, Placement};
use std::io::{self, Write};

/// The largest board size the constructor accepts: columns are stored as `u32`.
pub const MAX_N: usize = u32::MAX as usize;

/// Which closed form to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// Hoffman, Loessi and Moore (cases A1, A2, B1..B4).
    #[default]
    Hlm,
    /// The staircase formula (even columns, then odd ones, with fixes for n mod 6 in {2, 3}).
    Staircase,
}

impl Method {
    /// Both methods.
    pub const ALL: [Method; 2] = [Method::Hlm, Method::Staircase];

    /// The name used on the command line: `hlm` or `staircase`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Hlm => "hlm",
            Method::Staircase => "staircase",
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hlm" | "hoffman" => Ok(Method::Hlm),
            "staircase" | "stair" => Ok(Method::Staircase),
            _ => Err(format!(
                "unknown construction method '{s}' (expected hlm or staircase)"
            )),
        }
    }
}

/// Which branch of a construction produced a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Case {
    /// n = 1: the single queen.
    Single,
    /// Hoffman-Loessi-Moore, n even, n mod 6 != 2.
    A1,
    /// Hoffman-Loessi-Moore, n odd, n mod 6 != 3.
    A2,
    /// Hoffman-Loessi-Moore, n even, n mod 6 = 2, n/2 even.
    B1,
    /// Hoffman-Loessi-Moore, n even, n mod 6 = 2, n/2 odd.
    B2,
    /// Hoffman-Loessi-Moore, n odd, n mod 6 = 3, (n-1)/2 even.
    B3,
    /// Hoffman-Loessi-Moore, n odd, n mod 6 = 3, (n-1)/2 odd.
    B4,
    /// Staircase, n mod 6 not in {2, 3}: even columns, then odd ones.
    StaircasePlain,
    /// Staircase, n mod 6 = 2: odd list with 1 and 3 swapped and 5 moved to its end.
    StaircaseMod2,
    /// Staircase, n mod 6 = 3: 2 moved to the end of the even list, 1 and 3 to the end of the
    /// odd list.
    StaircaseMod3,
}

impl Case {
    /// The case's short label: `A1` .. `B4` as in the 1969 paper, `S`, `S2`, `S3` for the
    /// staircase (plain, n mod 6 = 2, n mod 6 = 3), `single` for n = 1.
    pub fn label(self) -> &'static str {
        match self {
            Case::Single => "single",
            Case::A1 => "A1",
            Case::A2 => "A2",
            Case::B1 => "B1",
            Case::B2 => "B2",
            Case::B3 => "B3",
            Case::B4 => "B4",
            Case::StaircasePlain => "S",
            Case::StaircaseMod2 => "S2",
            Case::StaircaseMod3 => "S3",
        }
    }

    /// When the case applies and what it writes (1-based columns, `h = n/2` rounded down).
    pub fn description(self) -> &'static str {
        match self {
            Case::Single => "n = 1: one queen",
            Case::A1 => "n even, n mod 6 != 2: 2, 4, ..., n, 1, 3, ..., n-1",
            Case::A2 => "n odd, n mod 6 != 3: 2, 4, ..., n-1, 1, 3, ..., n-2, n",
            Case::B1 => {
                "n mod 6 = 2, h = n/2 even: h, h+2, ..., n | 2, ..., h-2 | h+3, ..., n-1 | 1, ..., h+1"
            }
            Case::B2 => {
                "n mod 6 = 2, h = n/2 odd: h, h+2, ..., n-1 | 1, ..., h-2 | h+3, ..., n | 2, ..., h+1"
            }
            Case::B3 => "n mod 6 = 3, h = (n-1)/2 even: B1 for n-1, then n",
            Case::B4 => "n mod 6 = 3, h = (n-1)/2 odd: B2 for n-1, then n",
            Case::StaircasePlain => "n mod 6 not in {2, 3}: even columns, then odd columns",
            Case::StaircaseMod2 => {
                "n mod 6 = 2: even columns, then 3, 1, 7, 9, ..., n-1, 5"
            }
            Case::StaircaseMod3 => {
                "n mod 6 = 3: 4, 6, ..., n-1, 2, then 5, 7, ..., n, 1, 3"
            }
        }
    }

    /// The case `method` uses for board size `n`, or `None` when no solution exists
    /// (n = 0, 2, 3).
    pub fn of(n: usize, method: Method) -> Option<Case> {
        match n {
            0 | 2 | 3 => return None,
            1 => return Some(Case::Single),
            _ => {}
        }
        let r = n % 6;
        let even = n.is_multiple_of(2);
        Some(match method {
            Method::Hlm => match (r, even) {
                (2, _) if (n / 2).is_multiple_of(2) => Case::B1,
                (2, _) => Case::B2,
                (3, _) if (n / 2).is_multiple_of(2) => Case::B3,
                (3, _) => Case::B4,
                (_, true) => Case::A1,
                (_, false) => Case::A2,
            },
            Method::Staircase => match r {
                2 => Case::StaircaseMod2,
                3 => Case::StaircaseMod3,
                _ => Case::StaircasePlain,
            },
        })
    }
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Why no construction could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConstructError {
    /// n = 0 is not a board.
    #[error("n must be at least 1")]
    Zero,
    /// n is larger than [`MAX_N`].
    #[error("n = {n} is too large: the constructor handles boards up to n = {max}")]
    TooLarge {
        /// The size asked for.
        n: usize,
        /// [`MAX_N`].
        max: usize,
    },
    /// The placement's memory could not be allocated.
    #[error("not enough memory for a placement of n = {n} ({bytes} bytes)")]
    OutOfMemory {
        /// The size asked for.
        n: usize,
        /// Bytes requested.
        bytes: usize,
    },
}

/// A run of columns in arithmetic progression with step 2: the 0-based columns
/// `first, first + 2, ..., first + 2 * (len - 1)`, taken by consecutive rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// 0-based first column.
    pub first: u32,
    /// Number of rows (queens) in the run.
    pub len: u32,
}

impl Run {
    /// The run of 1-based columns `from, from + 2, ..., to` (empty when `to < from`).
    fn one_based(from: u64, to: u64) -> Run {
        if to < from || from == 0 {
            Run::default()
        } else {
            Run {
                first: (from - 1) as u32,
                len: ((to - from) / 2 + 1) as u32,
            }
        }
    }

    /// The run's 0-based columns.
    pub fn columns(self) -> impl Iterator<Item = u32> + Clone {
        (0..self.len).map(move |k| self.first + 2 * k)
    }
}

/// Most runs any case needs (B3/B4: four runs plus the corner queen).
const MAX_RUNS: usize = 6;

/// A construction for one board size: which case applies and the runs of columns it writes.
///
/// It takes O(1) memory; [`Construction::columns`] streams the placement and
/// [`Construction::placement`] stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Construction {
    n: usize,
    method: Method,
    case: Case,
    runs: [Run; MAX_RUNS],
    nruns: usize,
}

impl Construction {
    /// The construction of `method` for board size `n`.
    ///
    /// `Ok(None)` when no solution exists (n = 2, 3); an error for n = 0 or n > [`MAX_N`].
    pub fn new(n: usize, method: Method) -> Result<Option<Construction>, ConstructError> {
        if n == 0 {
            return Err(ConstructError::Zero);
        }
        if n > MAX_N {
            return Err(ConstructError::TooLarge { n, max: MAX_N });
        }
        let Some(case) = Case::of(n, method) else {
            return Ok(None);
        };
        let m = n as u64;
        let r = Run::one_based;
        let list: Vec<Run> = match case {
            Case::Single => vec![r(1, 1)],
            // A1 / A2 (the staircase is the same when n mod 6 is not 2 or 3): evens, odds.
            Case::A1 | Case::A2 | Case::StaircasePlain if m.is_multiple_of(2) => {
                vec![r(2, m), r(1, m - 1)]
            }
            Case::A1 | Case::A2 | Case::StaircasePlain => {
                vec![r(2, m - 1), r(1, m - 2), r(m, m)]
            }
            Case::B1 | Case::B2 | Case::B3 | Case::B4 => {
                // B3/B4 are B1/B2 on the even board m' = m - 1, plus the queen on (m, m).
                let e = m - m % 2;
                let h = e / 2;
                let mut v = if h.is_multiple_of(2) {
                    // B1: h..e | 2..h-2 | h+3..e-1 | 1..h+1
                    vec![r(h, e), r(2, h - 2), r(h + 3, e - 1), r(1, h + 1)]
                } else {
                    // B2: h..e-1 | 1..h-2 | h+3..e | 2..h+1
                    vec![r(h, e - 1), r(1, h - 2), r(h + 3, e), r(2, h + 1)]
                };
                if m % 2 == 1 {
                    v.push(r(m, m));
                }
                v
            }
            Case::StaircaseMod2 => {
                // evens | 3 | 1 | 7, 9, ..., n-1 | 5
                vec![r(2, m), r(3, 3), r(1, 1), r(7, m - 1), r(5, 5)]
            }
            Case::StaircaseMod3 => {
                // 4, 6, ..., n-1 | 2 | 5, 7, ..., n | 1 | 3
                vec![r(4, m - 1), r(2, 2), r(5, m), r(1, 1), r(3, 3)]
            }
        };
        let mut runs = [Run::default(); MAX_RUNS];
        let mut nruns = 0;
        for run in list.into_iter().filter(|run| run.len > 0) {
            runs[nruns] = run;
            nruns += 1;
        }
        debug_assert_eq!(
            runs[..nruns].iter().map(|r| r.len as u64).sum::<u64>(),
            m,
            "runs of {case} must cover every row"
        );
        Ok(Some(Construction {
            n,
            method,
            case,
            runs,
            nruns,
        }))
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The method asked for.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The case that applies.
    pub fn case(&self) -> Case {
        self.case
    }

    /// The runs of columns, in row order (non-empty ones only).
    pub fn runs(&self) -> &[Run] {
        &self.runs[..self.nruns]
    }

    /// The 0-based column of each row, in row order, computed on the fly.
    pub fn columns(&self) -> impl Iterator<Item = u32> + Clone + '_ {
        self.runs().iter().flat_map(|run| run.columns())
    }

    /// Stores the placement: one `u32` per row. Fails cleanly if the memory cannot be had.
    pub fn placement(&self) -> Result<Placement, ConstructError> {
        let mut cols: Vec<u32> = Vec::new();
        cols.try_reserve_exact(self.n)
            .map_err(|_| ConstructError::OutOfMemory {
                n: self.n,
                bytes: self.n.saturating_mul(std::mem::size_of::<u32>()),
            })?;
        for run in self.runs() {
            cols.extend((0..run.len).map(|k| run.first + 2 * k));
        }
        Ok(Placement::new(cols))
    }

    /// Writes the one-line form (1-based columns separated by spaces, then a newline) without
    /// storing the placement.
    pub fn write_one_line<W: Write + ?Sized>(&self, out: &mut W) -> io::Result<()> {
        write_one_line(self.columns(), out)
    }
}

/// The placement `method` constructs for board size `n`.
///
/// `Ok(None)` when no solution exists (n = 2, 3); errors for n = 0, n > [`MAX_N`], or when
/// the memory for the placement cannot be allocated.
pub fn construct(n: usize, method: Method) -> Result<Option<Placement>, ConstructError> {
    match Construction::new(n, method)? {
        Some(c) => c.placement().map(Some),
        None => Ok(None),
    }
}

/// Checks that `p` is a solution in O(n) time with bit sets: `5n` bits of memory (columns and
/// both diagonal directions) instead of the `5n` words of [`check_placement`], which it calls
/// only when something is wrong, to name the attacking pair.
///
/// [`check_placement`]: crate::board::check_placement
pub fn verify(p: &Placement) -> Result<(), crate::board::Violation> {
    let n = p.n();
    if n == 0 {
        return Ok(());
    }
    let words = |bits: usize| vec![0u64; bits.div_ceil(64)];
    let mut cols = words(n);
    let mut slash = words(2 * n - 1);
    let mut backslash = words(2 * n - 1);
    let g = Geometry::Square;
    let mut ok = true;
    for (r, &c) in p.cols().iter().enumerate() {
        let c = c as usize;
        if c >= n {
            ok = false;
            break;
        }
        let mut seen = 0u64;
        for (set, i) in [
            (&mut cols, c),
            (&mut slash, g.diagonal(n, r, c)),
            (&mut backslash, g.anti_diagonal(n, r, c)),
        ] {
            let (w, b) = (i / 64, 1u64 << (i % 64));
            seen |= set[w] & b;
            set[w] |= b;
        }
        if seen != 0 {
            ok = false;
            break;
        }
    }
    if ok {
        Ok(())
    } else {
        crate::board::check_placement(p)
    }
}

/// `true` when an n x n board has a solution: n = 1 or n >= 4.
pub fn solution_exists(n: usize) -> bool {
    n == 1 || n >= 4
}

/// Writes 0-based `columns` in the one-line form: 1-based, separated by single spaces,
/// followed by a newline. Formats into a fixed 64 KiB buffer, so memory stays constant
/// whatever the length.
pub fn write_one_line<W, I>(columns: I, out: &mut W) -> io::Result<()>
where
    W: Write + ?Sized,
    I: IntoIterator<Item = u32>,
{
    const CHUNK: usize = 1 << 16;
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK + 16);
    let mut first = true;
    for c in columns {
        if !first {
            buf.push(b' ');
        }
        first = false;
        push_decimal(&mut buf, c as u64 + 1);
        if buf.len() >= CHUNK {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    buf.push(b'\n');
    out.write_all(&buf)
}

/// Appends the decimal digits of `v`.
#[inline]
fn push_decimal(buf: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_line(n: usize, m: Method) -> String {
        construct(n, m).unwrap().unwrap().to_one_line()
    }

    #[test]
    fn reference_examples() {
        assert_eq!(one_line(8, Method::Hlm), "4 6 8 2 7 1 3 5");
        assert_eq!(one_line(9, Method::Hlm), "4 6 8 2 7 1 3 5 9");
        assert_eq!(
            one_line(14, Method::Hlm),
            "7 9 11 13 1 3 5 10 12 14 2 4 6 8"
        );
        assert_eq!(one_line(8, Method::Staircase), "2 4 6 8 3 1 7 5");
        assert_eq!(one_line(9, Method::Staircase), "4 6 8 2 5 7 9 1 3");
        assert_eq!(one_line(1, Method::Hlm), "1");
    }

    #[test]
    fn cases() {
        assert_eq!(Case::of(8, Method::Hlm), Some(Case::B1));
        assert_eq!(Case::of(9, Method::Hlm), Some(Case::B3));
        assert_eq!(Case::of(14, Method::Hlm), Some(Case::B2));
        assert_eq!(Case::of(15, Method::Hlm), Some(Case::B4));
        assert_eq!(Case::of(6, Method::Hlm), Some(Case::A1));
        assert_eq!(Case::of(7, Method::Hlm), Some(Case::A2));
        assert_eq!(Case::of(3, Method::Hlm), None);
        assert_eq!(Case::of(2, Method::Staircase), None);
    }

    #[test]
    fn no_solution_and_errors() {
        assert_eq!(construct(2, Method::Hlm), Ok(None));
        assert_eq!(construct(3, Method::Staircase), Ok(None));
        assert_eq!(construct(0, Method::Hlm), Err(ConstructError::Zero));
        assert!(matches!(
            Construction::new(MAX_N + 1, Method::Hlm),
            Err(ConstructError::TooLarge { .. })
        ));
    }

    #[test]
    fn streamed_equals_stored() {
        for n in [1, 4, 5, 8, 9, 14, 15, 100, 1001] {
            for m in Method::ALL {
                let c = Construction::new(n, m).unwrap().unwrap();
                let mut out = Vec::new();
                c.write_one_line(&mut out).unwrap();
                let text = String::from_utf8(out).unwrap();
                assert_eq!(text, format!("{}\n", c.placement().unwrap().to_one_line()));
            }
        }
    }

    #[test]
    fn verify_agrees_with_check_placement() {
        use crate::board::check_placement;
        // Every placement with columns in 0..=n (so some are off the board) for n <= 5.
        for n in 0..=5usize {
            let total = (n + 1).pow(n as u32);
            for code in 0..total {
                let mut x = code;
                let cols: Vec<u32> = (0..n)
                    .map(|_| {
                        let c = x % (n + 1);
                        x /= n + 1;
                        c as u32
                    })
                    .collect();
                let p = Placement::new(cols);
                assert_eq!(verify(&p), check_placement(&p), "{p:?}");
            }
        }
    }

    #[test]
    fn method_names() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>(), Ok(m));
        }
        assert!("queens".parse::<Method>().is_err());
    }
}
