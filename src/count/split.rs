//! The split of the search into independent sub-problems, reduced by the board's symmetries.
//!
//! Every solution (n >= 4) has exactly one queen in the top row, the bottom row, the left
//! column and the right column (a corner queen serves two of them). These four queens, the
//! *border*, are written `(top, bottom, left, right)`: the columns of the top and bottom queens
//! and the rows of the left and right ones, 0-based. The 8 symmetries of the square map the
//! border of a solution to the border of its image, so a symmetry class of solutions has its
//! borders in one orbit of borders.
//!
//! A sub-problem is one *canonical* border: the lexicographically smallest of its 8 images.
//! Searching the interior rows of canonical borders only covers every class:
//! * a border moved by every non-identity symmetry (the usual case) is carried by exactly one
//!   member of each class that has it as canonical border, and those classes have 8 members;
//!   so the number of completions *is* the number of such classes, with no per-solution test;
//! * a border fixed by some symmetry (rare: its stabilizer has 2, 4 or 8 elements) is searched
//!   with each completion compared with its images under the stabilizer: it is counted once,
//!   by the smallest of them, with its class size 8 / (number of symmetries fixing it).

use super::search::{count_interior, visit_interior, RowMasks, WORD_BITS};

/// The queens on the border of a board: columns of the top-row and bottom-row queens, rows of
/// the left-column and right-column queens, all 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Border {
    /// Column of the queen in row 0.
    pub top: u8,
    /// Column of the queen in row n-1.
    pub bottom: u8,
    /// Row of the queen in column 0.
    pub left: u8,
    /// Row of the queen in column n-1.
    pub right: u8,
}

/// One sub-problem of the split: a canonical border and how many symmetries fix it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubProblem {
    /// The canonical border.
    pub border: Border,
    /// Number of the 8 symmetries that map the border onto itself (1, 2, 4 or 8).
    pub stabilizer: u8,
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

/// The cell map of symmetry `g` (0..8) on an n x n board: rotations by 0, 90, 180, 270 degrees
/// clockwise, then the same followed by the left-right mirror.
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

fn attacks(a: (usize, usize), b: (usize, usize)) -> bool {
    a != b
        && (a.0 == b.0
            || a.1 == b.1
            || a.0 + b.1 == b.0 + a.1
            || a.0 + a.1 == b.0 + b.1)
}

impl Border {
    /// The distinct border cells (row, column).
    fn cells(&self, n: usize) -> Vec<(usize, usize)> {
        let mut v = vec![
            (0, self.top as usize),
            (n - 1, self.bottom as usize),
            (self.left as usize, 0),
            (self.right as usize, n - 1),
        ];
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The border read off a set of cells, if each edge has exactly one of them.
    fn from_cells(n: usize, cells: &[(usize, usize)]) -> Option<Border> {
        let one = |pred: &dyn Fn(&(usize, usize)) -> bool| -> Option<(usize, usize)> {
            let mut it = cells.iter().filter(|c| pred(c));
            let first = *it.next()?;
            if it.next().is_some() {
                return None;
            }
            Some(first)
        };
        Some(Border {
            top: one(&|c| c.0 == 0)?.1 as u8,
            bottom: one(&|c| c.0 == n - 1)?.1 as u8,
            left: one(&|c| c.1 == 0)?.0 as u8,
            right: one(&|c| c.1 == n - 1)?.0 as u8,
        })
    }

    /// `true` when the border queens attack no one another and the tuple describes them
    /// consistently (a corner queen counted on both its edges).
    fn is_valid(&self, n: usize) -> bool {
        let cells = self.cells(n);
        for i in 0..cells.len() {
            for j in i + 1..cells.len() {
                if attacks(cells[i], cells[j]) {
                    return false;
                }
            }
        }
        Border::from_cells(n, &cells) == Some(*self)
    }

    /// The image of the border under symmetry `g`.
    fn image(&self, n: usize, g: usize) -> Border {
        let cells: Vec<_> = self
            .cells(n)
            .into_iter()
            .map(|(r, c)| apply(g, n, r, c))
            .collect();
        // The image of a valid border is a valid border.
        Border::from_cells(n, &cells).unwrap_or(*self)
    }
}

/// The sub-problems for board size `n` (4 <= n <= 32), in increasing order of border.
pub fn sub_problems(n: usize) -> Vec<SubProblem> {
    assert!((4..=WORD_BITS).contains(&n));
    let mut out = Vec::new();
    for top in 0..n as u8 {
        for bottom in 0..n as u8 {
            for left in 0..n as u8 {
                for right in 0..n as u8 {
                    let b = Border {
                        top,
                        bottom,
                        left,
                        right,
                    };
                    if !b.is_valid(n) {
                        continue;
                    }
                    let mut stabilizer = 0u8;
                    let mut canonical = true;
                    for g in 0..8 {
                        let img = b.image(n, g);
                        if img < b {
                            canonical = false;
                            break;
                        }
                        if img == b {
                            stabilizer += 1;
                        }
                    }
                    if canonical {
                        out.push(SubProblem {
                            border: b,
                            stabilizer,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The allowed columns of every interior row of a border.
fn row_masks(n: usize, b: &Border) -> RowMasks {
    let cells = b.cells(n);
    let mut mask = [0u32; WORD_BITS];
    for (r, m) in mask.iter_mut().enumerate().take(n - 1).skip(1) {
        for c in 0..n {
            let forced_left = c == 0 && r == b.left as usize;
            let forced_right = c == n - 1 && r == b.right as usize;
            let side = c == 0 || c == n - 1;
            if side && !(forced_left || forced_right) {
                continue;
            }
            if !side && (r == b.left as usize || r == b.right as usize) {
                continue;
            }
            if cells.iter().any(|&q| attacks(q, (r, c))) {
                continue;
            }
            *m |= 1 << c;
        }
    }
    RowMasks { n, mask }
}

/// Solves one sub-problem: the classes whose canonical border is `sp.border`, by size.
pub fn solve(n: usize, sp: &SubProblem) -> ClassCounts {
    let rm = row_masks(n, &sp.border);
    if sp.stabilizer == 1 {
        return ClassCounts {
            of8: count_interior(&rm),
            ..ClassCounts::default()
        };
    }
    let b = sp.border;
    let stab: Vec<usize> = (0..8).filter(|&g| b.image(n, g) == b).collect();
    let mut counts = ClassCounts::default();
    let mut cols = vec![0u32; n];
    cols[0] = b.top as u32;
    cols[n - 1] = b.bottom as u32;
    let mut img = vec![0u32; n];
    visit_interior(&rm, &mut cols, &mut |s: &[u32]| {
        let mut fixed = 0;
        for &g in &stab {
            for (r, &c) in s.iter().enumerate() {
                let (r2, c2) = apply(g, n, r, c as usize);
                img[r2] = c2 as u32;
            }
            match img.as_slice().cmp(s) {
                std::cmp::Ordering::Less => return,
                std::cmp::Ordering::Equal => fixed += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        match 8 / fixed {
            8 => counts.of8 += 1,
            4 => counts.of4 += 1,
            _ => counts.of2 += 1,
        }
    });
    counts
}
