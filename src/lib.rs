//! # queens-sat
//!
//! SAT encodings of the n-queens problem for research and teaching.
//!
//! The crate is built from parts that check one another:
//!
//! * [`board`] is the ground layer and knows nothing of SAT: a [`board::Placement`] (one
//!   column per row) and its one-line form, the board's geometry (cells, lines, square or
//!   toroidal), the 8 symmetries of the square ([`board::Symmetry`]), the check that tells
//!   whether a placement is a solution and names the attacking pair if not
//!   ([`board::check_placement`]), the plain enumeration of all solutions, and
//!   [`board::picture`], which draws boards, grids of solutions and per-cell heatmaps as SVG.
//! * [`instance`] is the core every command uses: an [`instance::Instance`] (board size,
//!   model, pre-placed and forbidden cells) knows its size, emits its clauses, names its
//!   variables, decodes models into boards and declares its projection.
//! * [`encode`] turns n-queens into CNF. The reference model is the propositional one: every
//!   row has at least one queen, and every row, column and diagonal at most one, pairwise.
//!   Clauses stream into a [`cnf::ClauseSink`]: a DIMACS writer, an in-memory formula, a
//!   clause counter or the embedded solver. [`cubes`] splits a formula into cubes on its first
//!   rows and writes iCNF for cube-and-conquer solvers.
//! * [`family`] draws instances with known answers (n-Queens Completion, blocked cells,
//!   excluded diagonals, toroidal boards) from a seed, deterministically, and reads and writes
//!   them as instance files; [`count::masked`] counts their solutions without a SAT solver.
//! * [`search`] decides an instance on its board, without a SAT solver (`solve --engine
//!   search`): one solution, checked, or the proof by exhaustive search that there is none.
//! * [`symmetry_breaking`] adds symmetry-breaking clauses to an instance (lex-leader
//!   constraints for the symmetries of the square that map the instance onto itself), so that
//!   one solution of each symmetry class remains
//!   ([`instance::Instance::with_symmetry_breaking`]).
//! * [`trace`] runs a small DPLL or CDCL search on an instance and records every decision,
//!   propagation, conflict and learned clause in words, for teaching (text, JSON, HTML).
//! * [`grade`] checks any DIMACS file meant to encode n-queens: sound, complete, and its
//!   projected count against the counter's.
//! * [`proof`] checks proofs of unsatisfiability (DRAT and LRAT, from any solver) with the
//!   library's own checkers and, written apart, VeriPB.
//!
//! Rows and columns are 0-based in the library and 1-based in every user-facing output and in
//! DIMACS. The cell variable of row `r`, column `c` (0-based) is `r * n + c + 1` in DIMACS
//! numbering ([`encode::cell_var`]); auxiliary variables of an encoding come after the `n * n`
//! cell variables.
//!
//! ```
//! use queens_sat::cnf::{ClauseSink, CountingSink};
//! use queens_sat::encode::{EncodeOptions, QueensEncoder};
//!
//! let encoder = QueensEncoder::new(8, EncodeOptions::default()).unwrap();
//! let mut counter = CountingSink::default();
//! encoder.encode(&mut counter).unwrap();
//! assert_eq!(counter.clauses, 736);
//! assert_eq!(encoder.size().clauses, 736);
//! assert_eq!(encoder.size().vars, 64);
//!
//! use queens_sat::instance::{Instance, Model};
//! let corner = Instance::new(8, Model::default()).unwrap().with_cells(&[(0, 0)], &[]).unwrap();
//! assert_eq!(queens_sat::solve::count_solutions(&corner).unwrap(), 4);
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod cnf;
pub mod command;
pub mod construct;
pub mod count;
pub mod crosscheck;
pub mod cubes;
pub mod encode;
pub mod experiment;
pub mod explain;
pub mod family;
pub mod grade;
pub mod input;
pub mod instance;
pub mod interrupt;
pub mod output;
pub mod proof;
pub mod search;
pub mod solve;
pub mod symmetry_breaking;
pub mod trace;
pub mod vocabulary;

pub use board::Placement;
pub use encode::{EncodeOptions, QueensEncoder};
pub use varisat::{Lit, Var};
