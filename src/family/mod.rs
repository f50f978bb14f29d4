//! Instance families with known answers, and the instance file that carries them.
//!
//! The empty board is easy for every SAT solver. The n-queens literature has families where
//! solving is hard and the exact answer is still known (Gent, Jefferson and Nightingale,
//! "Complexity of n-Queens Completion", JAIR 59, 2017; CSPLib problems 079 and 080):
//!
//! * [`Recipe::Completion`]: k queens pre-placed, taken from a random solution (always
//!   completable) or placed at random without attacks (may be impossible);
//! * [`Recipe::Blocked`]: cells blocked with probability p, or exactly b blocked cells;
//! * [`Recipe::ExcludedDiagonals`]: the Excluded Diagonals Problem, whole diagonals excluded;
//! * [`Recipe::Toroidal`]: diagonals wrap around the board (modular n-queens), optionally with
//!   blocked cells.
//!
//! [`generate`] draws an instance from a recipe and a seed, deterministically on every machine
//! ([`rng`]). An [`InstanceSpec`] is what an instance file holds; it prints as the versioned
//! text format of docs/formats.md ([`InstanceSpec::to_text`]) and parses back
//! ([`InstanceSpec::parse`]), and [`InstanceSpec::instance`] turns it into the
//! [`crate::instance::Instance`] every command runs on.
//!
//! The literature's own files are read too ([`read_instance_text`] tells the format): the
//! Excluded Diagonals parameter files of CSPLib problem 079 ([`edp`]) and the Essence'
//! parameter files of n-Queens Completion ([`essence`]). The paper's two Python generators are
//! reproduced exactly ([`jair`]), with CPython's random numbers ([`pyrandom`]).
//!
//! ```
//! use queens_sat::family::{generate, InstanceSpec, Recipe, Density};
//!
//! let spec = generate(12, &Recipe::Blocked { density: Density::Exactly(20) }, 7).unwrap();
//! assert_eq!(spec.blocked.len(), 20);
//! let text = spec.to_text();
//! assert_eq!(InstanceSpec::parse(&text).unwrap(), spec);
//! ```

pub mod edp;
pub mod essence;
mod generate;
pub mod jair;
mod lists;
mod literature;
mod parse;
pub mod pyrandom;
pub mod rng;

pub use generate::{
    generate, random_solution, CompletionMode, Density, GenerateError, Recipe, MAX_N_FROM_SOLUTION,
};
pub use literature::{read_instance_text, SourceFormat};
pub use parse::ParseError;

use crate::board::{Cell, Geometry, Line, LineKind};
use std::fmt::Write as _;

/// The version of the instance file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The version of the generators: the same recipe and seed give the same instance under the
/// same generator version.
pub const GENERATOR_VERSION: u32 = 1;

/// The largest board an instance file may describe: the instance core numbers at most 2^28
/// cell variables (n^2 <= 2^28).
pub const MAX_N: usize = 16_384;

/// The most cells a generator lists (blocked or pre-placed): about 50 MB of instance file,
/// within what `--instance` reads (64 MiB).
pub const MAX_LISTED_CELLS: usize = 4_000_000;

/// The family an instance was drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Written by hand or by another tool: only the cells say what the instance is.
    Custom,
    /// n-Queens Completion: pre-placed queens.
    Completion,
    /// Blocked cells.
    Blocked,
    /// The Excluded Diagonals Problem.
    ExcludedDiagonals,
    /// The toroidal board.
    Toroidal,
}

impl Family {
    /// Every family, in the order the documentation lists them.
    pub const ALL: [Family; 5] = [
        Family::Completion,
        Family::Blocked,
        Family::ExcludedDiagonals,
        Family::Toroidal,
        Family::Custom,
    ];

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Family::Custom => "custom",
            Family::Completion => "completion",
            Family::Blocked => "blocked",
            Family::ExcludedDiagonals => "excluded-diagonals",
            Family::Toroidal => "toroidal",
        }
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Family {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Family::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown family '{s}' (valid: {})",
                    Family::ALL.map(Family::name).join(", ")
                )
            })
    }
}

/// A whole diagonal of the square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Diagonal {
    /// The `/` diagonal of the cells with 0-based `r + c` equal to this (0 ..= 2n - 2).
    Sum(usize),
    /// The `\` diagonal of the cells with `r - c` equal to this (-(n-1) ..= n-1).
    Difference(i64),
}

impl Diagonal {
    /// The cells of the diagonal on an `n` x `n` board, 0-based, in increasing row (none when
    /// the diagonal is not on the board).
    pub fn cells(self, n: usize) -> Vec<Cell> {
        match self.line(n) {
            Some(line) => line.cells(n).collect(),
            None => Vec::new(),
        }
    }

    /// The diagonal as a line of the square `n` x `n` board, if it is on the board.
    fn line(self, n: usize) -> Option<Line> {
        if !self.on_board(n) {
            return None;
        }
        Some(match self {
            Diagonal::Sum(s) => Line {
                kind: LineKind::Diagonal,
                index: s,
            },
            // r - c = d is the `\` diagonal r - c + n - 1.
            Diagonal::Difference(d) => Line {
                kind: LineKind::AntiDiagonal,
                index: (d + n as i64 - 1) as usize,
            },
        })
    }

    /// `true` when the diagonal exists on an `n` x `n` board.
    pub fn on_board(self, n: usize) -> bool {
        match self {
            Diagonal::Sum(s) => s + 2 <= 2 * n,
            Diagonal::Difference(d) => d.unsigned_abs() < n as u64,
        }
    }

    /// The diagonal of a cell, of the given direction (`true`: `/`).
    pub fn of(cell: Cell, sum: bool) -> Diagonal {
        if sum {
            Diagonal::Sum(cell.0 + cell.1)
        } else {
            Diagonal::Difference(cell.0 as i64 - cell.1 as i64)
        }
    }
}

impl std::fmt::Display for Diagonal {
    /// 1-based, as in the files: `r+c=5` (rows and columns counted from 1), `r-c=-2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Diagonal::Sum(s) => write!(f, "r+c={}", s + 2),
            Diagonal::Difference(d) => write!(f, "r-c={d}"),
        }
    }
}

/// An instance as an instance file holds it: board, family, how it was drawn, and its cells.
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceSpec {
    /// Board size.
    pub n: usize,
    /// Square or toroidal.
    pub geometry: Geometry,
    /// The family it belongs to.
    pub family: Family,
    /// The generator's parameters, as `name=value` pairs (`p=0.85`, `k=10 mode=solution`).
    pub parameters: Vec<(String, String)>,
    /// The seed it was drawn with, if drawn.
    pub seed: Option<u64>,
    /// The generator that drew it (`queens-sat 0.1.0, generator 1`), if drawn.
    pub generator: Option<String>,
    /// Pre-placed queens (0-based).
    pub placed: Vec<Cell>,
    /// Blocked cells (0-based).
    pub blocked: Vec<Cell>,
    /// Excluded diagonals (square board only).
    pub excluded: Vec<Diagonal>,
}

impl InstanceSpec {
    /// The empty board of the given geometry, as a custom instance.
    pub fn empty(n: usize, geometry: Geometry) -> Self {
        InstanceSpec {
            n,
            geometry,
            family: Family::Custom,
            parameters: Vec::new(),
            seed: None,
            generator: None,
            placed: Vec::new(),
            blocked: Vec::new(),
            excluded: Vec::new(),
        }
    }

    /// `Some(true)` when the instance is known to have a solution without search: a
    /// completion instance on the square board whose queens were taken from a solution
    /// (`mode=solution`). `None` otherwise: the description alone does not tell.
    pub fn known_satisfiable(&self) -> Option<bool> {
        (self.family == Family::Completion
            && self.geometry == Geometry::Square
            && self.parameter("mode") == Some("solution"))
        .then_some(true)
    }

    /// The parameters as one line: `k=10 mode=solution`.
    pub fn parameters_text(&self) -> String {
        self.parameters
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The value of a parameter.
    pub fn parameter(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every cell where no queen may stand: the blocked cells and the cells of the excluded
    /// diagonals, sorted, each once.
    pub fn forbidden_cells(&self) -> Vec<Cell> {
        let mut cells = self.blocked.clone();
        for d in &self.excluded {
            cells.extend(d.cells(self.n));
        }
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// One line naming the instance, for reports: `blocked n=20 p=0.85 seed=7`.
    pub fn describe(&self) -> String {
        let mut s = format!("{} n={}", self.family, self.n);
        if self.geometry != Geometry::Square && self.family != Family::Toroidal {
            let _ = write!(s, " board={}", self.geometry.name());
        }
        if !self.parameters.is_empty() {
            let _ = write!(s, " {}", self.parameters_text());
        }
        if let Some(seed) = self.seed {
            let _ = write!(s, " seed={seed}");
        }
        s
    }

    /// `c` lines for a DIMACS export: the family, parameters, seed and generator.
    pub fn comment_lines(&self) -> Vec<String> {
        let mut v = vec![format!(
            "instance: family {}, {} board",
            self.family,
            self.geometry.name()
        )];
        if !self.parameters.is_empty() {
            v.push(format!("instance parameters: {}", self.parameters_text()));
        }
        if let Some(seed) = self.seed {
            v.push(format!("instance seed: {seed}"));
        }
        if let Some(g) = &self.generator {
            v.push(format!("instance generator: {g}"));
        }
        if !self.excluded.is_empty() {
            let names: Vec<String> = self.excluded.iter().map(|d| d.to_string()).collect();
            v.push(format!("excluded diagonals: {}", names.join(" ")));
        }
        v
    }

    /// The instance under `model`: the board's geometry, the pre-placed queens and every
    /// forbidden cell (blocked, or on an excluded diagonal).
    pub fn instance(
        &self,
        model: crate::instance::Model,
    ) -> Result<crate::instance::Instance, crate::instance::InstanceError> {
        self.instance_with(model, &[], &[])
    }

    /// [`InstanceSpec::instance`] with more pre-placed queens and forbidden cells (0-based;
    /// those already in the file are not repeated).
    pub fn instance_with(
        &self,
        model: crate::instance::Model,
        place: &[Cell],
        forbid: &[Cell],
    ) -> Result<crate::instance::Instance, crate::instance::InstanceError> {
        // The excluded diagonals' cells are listed one by one: bound them first.
        let cells = (self.blocked.len() + self.placed.len() + place.len() + forbid.len()) as u64
            + self.excluded.len() as u64 * self.n as u64;
        if cells > crate::instance::MAX_FIXED_CELLS {
            return Err(crate::instance::InstanceError::TooManyFixedCells {
                cells,
                max: crate::instance::MAX_FIXED_CELLS,
            });
        }
        let mut placed = self.placed.clone();
        let seen: std::collections::HashSet<Cell> = placed.iter().copied().collect();
        placed.extend(place.iter().filter(|c| !seen.contains(c)));
        let mut forbidden = self.forbidden_cells();
        let seen: std::collections::HashSet<Cell> = forbidden.iter().copied().collect();
        forbidden.extend(forbid.iter().filter(|c| !seen.contains(c)));
        crate::instance::Instance::new_on(self.n, model, self.geometry)?
            .with_cells(&placed, &forbidden)
            .map(|i| i.with_comments(self.comment_lines()))
    }

    /// The board as text for a person: `Q` pre-placed queen, `#` blocked or excluded, `.` free.
    pub fn picture(&self) -> String {
        let n = self.n;
        let mut grid = vec![b'.'; n * n];
        for (r, c) in self.forbidden_cells() {
            grid[r * n + c] = b'#';
        }
        for &(r, c) in &self.placed {
            grid[r * n + c] = b'Q';
        }
        let mut s = String::with_capacity(n * (2 * n + 1));
        for row in grid.chunks(n) {
            for (i, &b) in row.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                s.push(b as char);
            }
            s.push('\n');
        }
        s
    }

    /// The instance file's text (docs/formats.md): versioned, one fact per line, cells
    /// 1-based, with the board drawn in `#` comments for n <= 40.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "queens-sat instance {FORMAT_VERSION}");
        let _ = writeln!(s, "n {}", self.n);
        let _ = writeln!(s, "board {}", self.geometry.name());
        let _ = writeln!(s, "family {}", self.family);
        if !self.parameters.is_empty() {
            let _ = writeln!(s, "parameters {}", self.parameters_text());
        }
        if let Some(seed) = self.seed {
            let _ = writeln!(s, "seed {seed}");
        }
        if let Some(g) = &self.generator {
            let _ = writeln!(s, "generator {g}");
        }
        let cell = |&(r, c): &Cell| format!("{},{}", r + 1, c + 1);
        write_list(&mut s, "placed", self.placed.iter().map(cell));
        write_list(&mut s, "blocked", self.blocked.iter().map(cell));
        write_list(
            &mut s,
            "excluded",
            self.excluded.iter().map(|d| d.to_string()),
        );
        if self.n <= 40 {
            let _ = writeln!(s, "# Q pre-placed queen, # no queen allowed, . free");
            for line in self.picture().lines() {
                let _ = writeln!(s, "#   {line}");
            }
        }
        let _ = writeln!(s, "end");
        s
    }
}

/// Writes `key item item ...`, at most 16 items per line.
fn write_list(s: &mut String, key: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    for chunk in items.chunks(16) {
        let _ = writeln!(s, "{key} {}", chunk.join(" "));
    }
}

/// Why an instance file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InstanceFileError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] crate::input::ReadError),
    /// It does not parse (the error names the line).
    #[error("{}: {error}", .path.display())]
    Parse {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong.
        error: ParseError,
    },
    /// Its board does not make an instance of the model asked for.
    #[error("{}: {error}", .path.display())]
    Model {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        error: crate::instance::InstanceError,
    },
}

/// The most an instance file may hold: 64 MiB (a 2,000 x 2,000 board with every cell listed
/// takes about 40 MiB).
pub const INSTANCE_FILE_CAP: u64 = 64 << 20;

/// Reads and parses an instance file (`-` reads stdin), bounded in size
/// ([`INSTANCE_FILE_CAP`]), in any of the formats [`read_instance_text`] tells apart (our
/// instance file, the literature's Excluded Diagonals and Essence' parameter files), the first
/// `diagonals` diagonals of an Excluded Diagonals file (`--diagonals D`; all without it);
/// errors name the file and the line.
pub fn read_instance_file(
    path: &std::path::Path,
    diagonals: Option<usize>,
) -> Result<InstanceSpec, InstanceFileError> {
    let text = crate::input::read_text_file(path, INSTANCE_FILE_CAP, "instance file")?;
    read_instance_text(&text, &source_name(path), diagonals).map_err(|error| {
        InstanceFileError::Parse {
            path: path.to_path_buf(),
            error,
        }
    })
}

/// The name a file is recorded under in an instance read from it: its file name (`-` is
/// standard input).
fn source_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        return "standard input".to_string();
    }
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}
