//! The 8 symmetries of the square (the dihedral group D4): [`Symmetry`] acting on the cells of
//! an n x n board and on placements.
//!
//! This is the one copy of the group's maths in the crate: the images of a [`Placement`]
//! ([`Placement::rotate90`], [`Placement::mirror`], [`Placement::images`],
//! [`Placement::canonical`] ...) are [`Symmetry::apply_to`], which maps every queen with
//! [`Symmetry::apply`]. Every symmetry maps the lines of both geometries onto lines of the same
//! geometry, so it maps the solutions of n-queens (and of an instance whose fixed cells it
//! keeps) onto solutions.

use super::Placement;

/// One of the 8 symmetries of the square (the dihedral group D4), acting on cells `(r, c)` of
/// an n x n board (0-based). Every one of them maps the lines of both geometries onto lines of
/// the same geometry, so it maps the solutions of an instance onto the solutions of the image
/// instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// `(r, c) -> (r, c)`.
    Identity,
    /// A quarter turn clockwise: `(r, c) -> (c, n-1-r)`.
    Rotate90,
    /// A half turn: `(r, c) -> (n-1-r, n-1-c)`.
    Rotate180,
    /// A quarter turn counter-clockwise: `(r, c) -> (n-1-c, r)`.
    Rotate270,
    /// Left and right swapped: `(r, c) -> (r, n-1-c)`.
    Mirror,
    /// Top and bottom swapped: `(r, c) -> (n-1-r, c)`.
    Flip,
    /// Rows and columns swapped: `(r, c) -> (c, r)`.
    Transpose,
    /// The reflection in the other diagonal: `(r, c) -> (n-1-c, n-1-r)`.
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// All 8 symmetries in the order of [`Placement::images`]: the rotations by 0, 90, 180 and
    /// 270 degrees clockwise, then the [`Symmetry::Mirror`] image of each of them (mirror after
    /// the quarter turn is the transpose, after the half turn the flip, after the three-quarter
    /// turn the anti-transpose).
    pub const IMAGE_ORDER: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::Mirror,
        Symmetry::Transpose,
        Symmetry::Flip,
        Symmetry::AntiTranspose,
    ];

    /// The inverse symmetry: the quarter turns swap, every other one is its own inverse.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }

    /// A short name for variable names and reports: `id`, `rot90`, `rot180`, `rot270`,
    /// `mirror`, `flip`, `transpose`, `antitranspose`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "id",
            Symmetry::Rotate90 => "rot90",
            Symmetry::Rotate180 => "rot180",
            Symmetry::Rotate270 => "rot270",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "antitranspose",
        }
    }

    /// The image of cell `(r, c)` of an n x n board (`r, c < n`).
    #[inline]
    pub fn apply(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, n - 1 - r),
            Symmetry::Rotate180 => (n - 1 - r, n - 1 - c),
            Symmetry::Rotate270 => (n - 1 - c, r),
            Symmetry::Mirror => (r, n - 1 - c),
            Symmetry::Flip => (n - 1 - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (n - 1 - c, n - 1 - r),
        }
    }

    /// `true` when the symmetry maps rows onto rows (the identity, the half turn, the mirror
    /// and the flip); the other four map rows onto columns.
    pub fn keeps_rows(self) -> bool {
        matches!(
            self,
            Symmetry::Identity | Symmetry::Rotate180 | Symmetry::Mirror | Symmetry::Flip
        )
    }

    /// The image of a placement: every queen moved by [`Symmetry::apply`].
    ///
    /// The symmetries that keep rows ([`Symmetry::keeps_rows`]) map every placement onto a
    /// placement; the others only permutations ([`Placement::is_permutation`]), since the
    /// image of any other placement does not have one queen per row: `None` then.
    pub fn apply_to(self, p: &Placement) -> Option<Placement> {
        (self.keeps_rows() || p.is_permutation()).then(|| self.image_unchecked(p))
    }

    /// [`Symmetry::apply_to`] for a placement whose image is known to be one.
    fn image_unchecked(self, p: &Placement) -> Placement {
        let n = p.n();
        let mut cols = vec![0u32; n];
        for (r, &c) in p.cols().iter().enumerate() {
            let (r2, c2) = self.apply(n, r, c as usize);
            cols[r2] = c2 as u32;
        }
        Placement::new(cols)
    }
}

/// The 8 symmetries of the square acting on placements, through [`Symmetry::apply_to`].
///
/// Mirror images are defined for every placement; rotations only for permutations (one queen
/// per column as well as per row), since a rotated board of any other placement does not have
/// one queen per row. Every solution of n-queens is a permutation.
impl Placement {
    /// `true` when every column holds exactly one queen (the placement is a permutation).
    pub fn is_permutation(&self) -> bool {
        let n = self.n();
        let mut seen = vec![false; n];
        for &c in self.cols() {
            let c = c as usize;
            if c >= n || seen[c] {
                return false;
            }
            seen[c] = true;
        }
        true
    }

    /// The board turned a quarter clockwise: the queen at (row r, column c) moves to
    /// (row c, column n-1-r). `None` if the placement is not a permutation.
    pub fn rotate90(&self) -> Option<Placement> {
        Symmetry::Rotate90.apply_to(self)
    }

    /// The board turned half a turn: (r, c) moves to (n-1-r, n-1-c).
    pub fn rotate180(&self) -> Placement {
        Symmetry::Rotate180.image_unchecked(self)
    }

    /// The board turned a quarter counter-clockwise: (r, c) moves to (n-1-c, r).
    /// `None` if the placement is not a permutation.
    pub fn rotate270(&self) -> Option<Placement> {
        Symmetry::Rotate270.apply_to(self)
    }

    /// The mirror image in the vertical axis (left and right swapped): (r, c) moves to
    /// (r, n-1-c).
    pub fn mirror(&self) -> Placement {
        Symmetry::Mirror.image_unchecked(self)
    }

    /// The mirror image in the horizontal axis (top and bottom swapped): (r, c) moves to
    /// (n-1-r, c).
    pub fn flip(&self) -> Placement {
        Symmetry::Flip.image_unchecked(self)
    }

    /// The mirror image in the main diagonal (rows and columns swapped): (r, c) moves to
    /// (c, r). `None` if the placement is not a permutation.
    pub fn transpose(&self) -> Option<Placement> {
        Symmetry::Transpose.apply_to(self)
    }

    /// The 8 images under D4, in the order: identity, rotations by 90, 180 and 270 degrees
    /// clockwise, then the mirror image ([`Placement::mirror`]) of each of those four
    /// ([`Symmetry::IMAGE_ORDER`]). Images may coincide when the placement is symmetric. `None`
    /// if the placement is not a permutation.
    pub fn images(&self) -> Option<[Placement; 8]> {
        self.is_permutation()
            .then(|| Symmetry::IMAGE_ORDER.map(|s| s.image_unchecked(self)))
    }

    /// The canonical representative of the placement's symmetry class: the lexicographically
    /// smallest of its 8 images (comparing the columns row by row). Two solutions are
    /// equivalent exactly when their canonical representatives are equal. `None` if the
    /// placement is not a permutation.
    pub fn canonical(&self) -> Option<Placement> {
        self.images()?.into_iter().min()
    }

    /// The number of distinct images under D4 (8, 4, 2, or 1 for the 1 x 1 board): the size of
    /// the placement's symmetry class. `None` if the placement is not a permutation.
    pub fn class_size(&self) -> Option<usize> {
        let mut imgs = self.images()?.to_vec();
        imgs.sort();
        imgs.dedup();
        Some(imgs.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Placement {
        Placement::parse_one_line(s, None).unwrap()
    }

    #[test]
    fn rotation_moves_cells_as_documented() {
        // 2 4 1 3: queens at (0,1), (1,3), (2,0), (3,2); a quarter turn clockwise sends
        // (r, c) to (c, 3 - r): (1,3), (3,2), (0,1), (2,0) -> the same board.
        assert_eq!(p("2 4 1 3").rotate90().unwrap(), p("2 4 1 3"));
        // 1 3 2: (0,0),(1,2),(2,1) -> (0,2),(2,1),(1,0) -> cols by row: 3 1 2.
        assert_eq!(p("1 3 2").rotate90().unwrap(), p("3 1 2"));
        assert!(p("1 1 2").rotate90().is_none());
    }

    #[test]
    fn group_laws() {
        let s = p("5 3 1 6 8 2 4 7");
        let r = s.rotate90().unwrap();
        assert_eq!(r.rotate270().unwrap(), s);
        assert_eq!(r.rotate90().unwrap(), s.rotate180());
        assert_eq!(s.mirror().mirror(), s);
        assert_eq!(s.flip(), s.mirror().rotate180());
        assert_eq!(s.transpose().unwrap(), s.rotate90().unwrap().mirror());
        let imgs = s.images().unwrap();
        for img in &imgs {
            assert_eq!(img.canonical(), s.canonical());
        }
        assert_eq!(s.class_size(), Some(8));
        assert_eq!(p("2 4 1 3").class_size(), Some(2));
        assert_eq!(p("1").class_size(), Some(1));
    }

    #[test]
    fn placements_and_cells_move_alike() {
        // Every symmetry moves each queen of a placement as it moves the cell, its inverse
        // undoes it, and the images follow IMAGE_ORDER.
        let s = p("5 3 1 6 8 2 4 7");
        let n = s.n();
        for g in Symmetry::ALL {
            let img = g.apply_to(&s).unwrap();
            for (r, &c) in s.cols().iter().enumerate() {
                let (r2, c2) = g.apply(n, r, c as usize);
                assert_eq!(img.col(r2), c2, "{g:?}");
            }
            assert_eq!(g.inverse().apply_to(&img).unwrap(), s, "{g:?}");
        }
        let imgs = s.images().unwrap();
        for (g, img) in Symmetry::IMAGE_ORDER.into_iter().zip(&imgs) {
            assert_eq!(g.apply_to(&s).as_ref(), Some(img), "{g:?}");
        }
        assert_eq!(imgs[4], s.mirror());
        assert_eq!(imgs[6], s.flip());
        // Rows kept: any placement has an image; rows to columns: permutations only.
        let q = p("1 1 2");
        for g in Symmetry::ALL {
            assert_eq!(g.apply_to(&q).is_some(), g.keeps_rows(), "{g:?}");
        }
    }
}
