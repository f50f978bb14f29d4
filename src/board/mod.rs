//! The board layer: the ideas of n-queens on a board, independent of any encoding.
//!
//! Everything about the board itself lives here, once, and knows nothing of SAT (no literals,
//! clauses, encoders, instances or solvers); the rest of the crate builds on it:
//!
//! * a [`Placement`] is one queen column per row, read and written in the one-line form
//!   (`2 4 1 3`) and drawn as text ([`Placement::render_board`], [`render_cells`]);
//! * the geometry: a [`Cell`], the four kinds of line ([`LineKind`]), the square or toroidal
//!   board ([`Geometry`], which numbers the diagonals), one [`Line`] with its cells, length and
//!   name, and the line two cells share ([`shared_line`], [`Geometry::shared_line`]);
//! * the 8 symmetries of the square ([`Symmetry`]), acting on cells and on placements
//!   ([`Placement::images`], [`Placement::canonical`]);
//! * whether a placement is a solution, and if not which queens attack each other
//!   ([`check_placement`], [`check_placement_on`], [`Violation`]);
//! * every solution of the n x n board by a plain backtracking ([`solutions`],
//!   [`fundamental_solutions`]);
//! * the board of an instance, the cells its blocked cells and pre-placed queens leave to the
//!   queens ([`MaskedBoard`]), as the exact counter of instances and the decision engine read
//!   it;
//! * [`picture`]: boards, grids of solutions and per-cell heatmaps as SVG.
//!
//! Rows and columns are 0-based here, as everywhere in the library; the one-line form, the
//! messages and the pictures show them 1-based.
//!
//! ```
//! use queens_sat::board::{check_placement, Geometry, Line, LineKind, Placement, Symmetry};
//!
//! let p = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
//! assert!(check_placement(&p).is_ok());
//! assert_eq!(Symmetry::Rotate90.apply_to(&p), Some(p.clone()));
//! let d = Line { kind: LineKind::Diagonal, index: Geometry::Square.diagonal(4, 0, 1) };
//! assert_eq!(d.cells(4).collect::<Vec<_>>(), [(0, 1), (1, 0)]);
//! ```

mod check;
mod geometry;
mod masked;
pub mod picture;
mod placement;
mod solutions;
mod symmetry;

pub use check::{check_placement, check_placement_on, is_solution, Violation};
pub use geometry::{shared_line, Cell, Geometry, Line, LineKind};
pub use masked::{MaskedBoard, MaskedError, MASKED_MAX_N};
pub use placement::{render_cells, ParsePlacementError, Placement};
pub use solutions::{fundamental_solutions, solutions, Solutions};
pub use symmetry::Symmetry;
