//! The instance core: one description of an n-queens SAT instance that every command uses.
//!
//! An [`Instance`] is a board size, a [`Model`] of the problem with its encodings, and the
//! cells that are fixed (pre-placed queens) or excluded (forbidden cells). It
//!
//! * knows its exact [`Size`] before emitting a clause ([`Instance::size`]);
//! * emits its clauses into any [`ClauseSink`] ([`Formula::encode_labelled`], [`encode`]),
//!   so the DIMACS export, the embedded solver, the enumerator and the checks all see the same
//!   formula;
//! * names every variable ([`Formula::var_name`]);
//! * decodes a model into a board ([`Formula::decode`]);
//! * declares its *projection* ([`Formula::projection`]): the variables whose values determine
//!   the board, so that models projected on them are one-to-one with the solutions.
//!
//! The [`Formula`] trait is what the solving, enumeration and checking code consumes; an
//! [`Instance`] implements it, and the cross-checks wrap an instance in deliberately broken
//! formulas to show that the checks catch them.
//!
//! ```
//! use queens_sat::instance::{Formula, Instance, Model};
//! use queens_sat::cnf::CountingSink;
//!
//! let inst = Instance::new(8, Model::default()).unwrap().with_cells(&[(0, 0)], &[]).unwrap();
//! let mut count = CountingSink::default();
//! queens_sat::instance::encode(&inst, &mut count).unwrap();
//! assert_eq!(count.clauses, inst.size().clauses);
//! assert_eq!(inst.size().clauses, 736 + 1);
//! ```

use crate::board::{Cell, Geometry, LineKind, MaskedBoard, MaskedError, Placement, Symmetry};
use crate::cnf::{ClauseSink, DimacsHeader, GroupInfo, Lit, Var};
pub use crate::encode::{DecodeError, Model};
use crate::encode::{EncodeError, Encoding, Label, LabelSink, LabelledCnf, Rule, Size, Unlabelled};
use crate::symmetry_breaking::{stabilizer, SymmetryBreaking, SymmetryClauses};
use std::io;
use std::sync::Arc;

mod opb;
pub use opb::{certificate_form, OpbError, OpbModels, CERTIFICATE_FORM};

/// Why an instance could not be made. Cells are stored 0-based and shown 1-based.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstanceError {
    /// The encoder refused the size or its options.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// A pre-placed or forbidden cell is off the board.
    #[error("{what} cell ({},{}) is outside the {n} x {n} board", .cell.0 + 1, .cell.1 + 1)]
    CellOutOfRange {
        /// `"placed"` or `"forbidden"`.
        what: &'static str,
        /// The cell.
        cell: Cell,
        /// Board size.
        n: usize,
    },
    /// A cell is both pre-placed and forbidden.
    #[error("cell ({},{}) is both placed and forbidden", .0 .0 + 1, .0 .1 + 1)]
    PlacedAndForbidden(Cell),
    /// The formula is past a size limit ([`Limits`]).
    #[error("n = {n} with {model} would {what} {clauses} clauses (about {}), more than the limit of {max_clauses} clauses or {}", human_bytes(*.bytes), human_bytes(*.max_bytes))]
    TooLarge {
        /// Board size.
        n: usize,
        /// The model's short name.
        model: String,
        /// `"write"` (DIMACS) or `"hold in memory"` (the embedded solver).
        what: &'static str,
        /// Estimated clauses.
        clauses: u64,
        /// Estimated DIMACS bytes (or memory bytes).
        bytes: u64,
        /// The clause limit.
        max_clauses: u64,
        /// The byte limit.
        max_bytes: u64,
    },
    /// More pre-placed and forbidden cells than an instance holds ([`MAX_FIXED_CELLS`]).
    #[error("the instance fixes {cells} cells, more than the {max} an instance may fix")]
    TooManyFixedCells {
        /// Cells fixed (an upper bound for excluded diagonals).
        cells: u64,
        /// The limit.
        max: u64,
    },
    /// Two pre-placed queens attack each other.
    #[error("placed queens at ({},{}) and ({},{}) share a {}", .a.0 + 1, .a.1 + 1, .b.0 + 1, .b.1 + 1, .line.name())]
    PlacedQueensAttack {
        /// The line they share.
        line: LineKind,
        /// One queen.
        a: Cell,
        /// The other.
        b: Cell,
    },
}

/// What the solving, enumeration and checking code needs to know about a formula of n-queens.
///
/// [`Instance`] is the implementation every command uses; the cross-checks also run broken
/// variants through the same code.
pub trait Formula: Send + Sync {
    /// The board size.
    fn n(&self) -> usize;
    /// A short name for reports (`pairwise`, `sequential+column-alo`, ...).
    fn name(&self) -> String;
    /// The number of variables the formula declares.
    fn num_vars(&self) -> u64;
    /// Streams the clauses into `sink`, announcing groups and labels.
    fn encode_labelled(&self, sink: &mut dyn LabelSink) -> io::Result<()>;
    /// A conjunction of literals that holds exactly when the queen of row `r` stands in column
    /// `c` (given the model's own clauses hold): what a pre-placed queen, a split of the search
    /// or a blocking clause is made of.
    fn value_lits(&self, r: usize, c: usize) -> Vec<Lit>;
    /// The board of a model (`assignment[i]` is the value of the variable with 0-based index
    /// `i`; missing variables are false), read from the projection variables only. Attacks are
    /// not checked here.
    fn decode(&self, assignment: &[bool]) -> Result<Placement, DecodeError>;
    /// The variables whose values determine the board.
    fn projection(&self) -> Vec<Var>;
    /// A variable's name: `q(2,3)` for a cell, an encoding's name for an auxiliary.
    fn var_name(&self, var: Var) -> String;
    /// Literals that fix the projection to the queens of `cells` (`cells[r * n + c]`), or
    /// `None` when the model cannot represent that pattern (several queens in a row, say).
    fn pattern_lits(&self, cells: &[bool]) -> Option<Vec<Lit>>;
    /// The pre-placed queens and the forbidden cells.
    fn fixed(&self) -> (&[Cell], &[Cell]) {
        (&[], &[])
    }
    /// The board's geometry: square, or toroidal with wrapped diagonals.
    fn geometry(&self) -> Geometry {
        Geometry::Square
    }
    /// The catalogue's model the formula is built from, when it is one (see
    /// [`Instance::model`]).
    fn model(&self) -> Option<&Model> {
        None
    }
    /// The symmetry breaking added to the model's clauses.
    fn symmetry_breaking(&self) -> SymmetryBreaking {
        SymmetryBreaking::None
    }
    /// The same formula with symmetry-breaking clauses of `mode` in place of its own, or
    /// `None` when the formula cannot add them (the checks then skip their symmetry check).
    fn with_symmetry_breaking_dyn(&self, mode: SymmetryBreaking) -> Option<Arc<dyn Formula>> {
        let _ = mode;
        None
    }
}

/// The most pre-placed and forbidden cells an instance may fix: 16 million (each is a clause
/// and 16 bytes of the instance).
pub const MAX_FIXED_CELLS: u64 = 16_000_000;

/// Size limits past which a command refuses a formula (unless forced, where it has `--force`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// At most this many clauses.
    pub max_clauses: u64,
    /// At most this many bytes (estimated DIMACS text, or memory for an in-memory formula).
    pub max_bytes: u64,
    /// What the command does with the formula, for the message.
    pub what: &'static str,
}

impl Limits {
    /// A streamed DIMACS file (`encode`, `explain`): 500 million clauses, 10 GB of text.
    pub const STREAM: Limits = Limits {
        max_clauses: 500_000_000,
        max_bytes: 10_000_000_000,
        what: "write",
    };
    /// A formula built in memory for the embedded solver (`solve`, `verify` of a model with
    /// auxiliaries): 50 million clauses, about 2 GB (40 bytes per clause).
    pub const IN_MEMORY: Limits = Limits {
        max_clauses: 50_000_000,
        max_bytes: 2_000_000_000,
        what: "hold in memory",
    };

    /// The bytes `size` is estimated to take under these limits.
    pub fn bytes_of(&self, size: &Size) -> u64 {
        if self.what == Limits::IN_MEMORY.what {
            // Clause headers plus 4 bytes per literal, about what the solver stores.
            size.clauses
                .saturating_mul(16)
                .saturating_add(size.literals.saturating_mul(4))
        } else {
            size.estimated_dimacs_bytes()
        }
    }

    /// `true` when `size` is within these limits.
    pub fn allows(&self, size: &Size) -> bool {
        size.clauses <= self.max_clauses && self.bytes_of(size) <= self.max_bytes
    }
}

/// `12345678` -> `11.8 MiB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < UNITS.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[i])
    }
}

/// Streams the clauses of `f` into any clause sink (labels dropped).
pub fn encode<S: ClauseSink + ?Sized>(f: &dyn Formula, sink: &mut S) -> io::Result<()> {
    f.encode_labelled(&mut Unlabelled(sink))
}

/// The formula of `f` in memory, with the label of every clause.
pub fn to_labelled_cnf(f: &dyn Formula) -> LabelledCnf {
    let mut cnf = LabelledCnf::default();
    // Writing to memory cannot fail.
    let _ = f.encode_labelled(&mut cnf);
    cnf
}

/// The clause that excludes board `p` and nothing else among the boards: for each row the
/// negation of the literals that put its queen in its column.
pub fn blocking_clause(f: &dyn Formula, p: &Placement) -> Vec<Lit> {
    let mut clause = Vec::with_capacity(p.n());
    for (r, &c) in p.cols().iter().enumerate() {
        clause.extend(f.value_lits(r, c as usize).into_iter().map(|l| !l));
    }
    clause
}

/// The board of an instance as the exact counter ([`crate::count::masked`]) and the decision
/// engine ([`crate::search`]) read it: its size, geometry, pre-placed queens and forbidden
/// cells.
pub fn masked_board(f: &dyn Formula) -> Result<MaskedBoard, MaskedError> {
    let (placed, forbidden) = f.fixed();
    MaskedBoard::with_cells(f.n(), f.geometry(), placed, forbidden)
}

/// One n-queens SAT instance: board size, model, pre-placed queens and forbidden cells.
#[derive(Clone, Debug)]
pub struct Instance {
    n: usize,
    geometry: Geometry,
    encoder: Arc<dyn Encoding>,
    /// The catalogue's model the encoding was built from (`None`: a library user's own).
    model: Option<Model>,
    place: Vec<Cell>,
    forbid: Vec<Cell>,
    comments: Vec<String>,
    symmetry_breaking: SymmetryBreaking,
    /// The symmetry-breaking clauses, when [`Instance::symmetry_breaking`] is on.
    symmetry: Option<Arc<SymmetryClauses>>,
}

impl Instance {
    /// The empty `n` x `n` board under `model`.
    pub fn new(n: usize, model: Model) -> Result<Self, InstanceError> {
        Instance::new_on(n, model, Geometry::Square)
    }

    /// The empty `n` x `n` board of the given geometry under `model`.
    pub fn new_on(n: usize, model: Model, geometry: Geometry) -> Result<Self, InstanceError> {
        let mut inst = Instance::from_encoding(model.encoder_on(n, geometry)?);
        inst.model = Some(model);
        Ok(inst)
    }

    /// The empty board of any [`Encoding`], a library user's own included: its board size and
    /// geometry are the encoding's.
    pub fn from_encoding(encoder: Arc<dyn Encoding>) -> Self {
        Instance {
            n: encoder.n(),
            geometry: encoder.geometry(),
            encoder,
            model: None,
            place: Vec::new(),
            forbid: Vec::new(),
            comments: Vec::new(),
            symmetry_breaking: SymmetryBreaking::None,
            symmetry: None,
        }
    }

    /// The same instance with symmetry-breaking clauses ([`crate::symmetry_breaking`]): of the
    /// symmetries of `mode` that map the pre-placed queens and the forbidden cells onto
    /// themselves ([`Instance::symmetries_broken`]), one solution of each class is kept, the
    /// one whose column vector is the smallest. Cells set later with [`Instance::with_cells`]
    /// are taken into account.
    ///
    /// ```
    /// use queens_sat::instance::{Instance, Model};
    /// use queens_sat::symmetry_breaking::SymmetryBreaking;
    /// let inst = Instance::new(8, Model::default())
    ///     .unwrap()
    ///     .with_symmetry_breaking(SymmetryBreaking::LexLeader);
    /// assert_eq!(queens_sat::solve::count_solutions(&inst).unwrap(), 12);
    /// ```
    pub fn with_symmetry_breaking(mut self, mode: SymmetryBreaking) -> Self {
        self.symmetry_breaking = mode;
        self.rebuild_symmetry();
        self
    }

    /// The symmetry breaking asked for.
    pub fn symmetry_breaking(&self) -> SymmetryBreaking {
        self.symmetry_breaking
    }

    /// The symmetries (never the identity) whose lex-leader constraints the formula holds: those
    /// of the mode's group that map the set of pre-placed queens onto itself and the set of
    /// forbidden cells onto itself. Empty when symmetry breaking is off.
    pub fn symmetries_broken(&self) -> Vec<Symmetry> {
        self.symmetry
            .as_ref()
            .map(|s| s.broken())
            .unwrap_or_default()
    }

    fn rebuild_symmetry(&mut self) {
        self.symmetry = None;
        if !self.symmetry_breaking.is_on() {
            return;
        }
        let broken = stabilizer(
            self.n,
            self.symmetry_breaking.group(),
            &self.place,
            &self.forbid,
        );
        let clauses = SymmetryClauses::new(
            self.symmetry_breaking,
            self.n,
            self.model_size().vars as usize,
            &broken,
            |r, c| self.value_lits(r, c),
        );
        self.symmetry = Some(Arc::new(clauses));
    }

    /// The same instance with extra `c` lines for its DIMACS header (where it came from: an
    /// instance file's family, parameters and seed).
    pub fn with_comments(mut self, comments: Vec<String>) -> Self {
        self.comments = comments;
        self
    }

    /// The board's geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The same instance with pre-placed queens and forbidden cells (0-based), checked: on the
    /// board, no cell both placed and forbidden, no two placed queens attacking each other. An
    /// instance that passes may still have no solution; the solver decides that.
    pub fn with_cells(mut self, place: &[Cell], forbid: &[Cell]) -> Result<Self, InstanceError> {
        let n = self.n;
        let cells = (place.len() + forbid.len()) as u64;
        if cells > MAX_FIXED_CELLS {
            return Err(InstanceError::TooManyFixedCells {
                cells,
                max: MAX_FIXED_CELLS,
            });
        }
        for (what, cells) in [("placed", place), ("forbidden", forbid)] {
            if let Some(&cell) = cells.iter().find(|&&(r, c)| r >= n || c >= n) {
                return Err(InstanceError::CellOutOfRange { what, cell, n });
            }
        }
        let forbidden: std::collections::HashSet<Cell> = forbid.iter().copied().collect();
        if let Some(&cell) = place.iter().find(|c| forbidden.contains(c)) {
            return Err(InstanceError::PlacedAndForbidden(cell));
        }
        for (i, &a) in place.iter().enumerate() {
            for &b in &place[i + 1..] {
                if a == b {
                    continue;
                }
                if let Some(line) = self.geometry.shared_line(n, a, b) {
                    return Err(InstanceError::PlacedQueensAttack { line, a, b });
                }
            }
        }
        self.place = place.to_vec();
        self.forbid = forbid.to_vec();
        self.rebuild_symmetry();
        Ok(self)
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The model's encoding.
    pub fn encoding(&self) -> &dyn Encoding {
        &*self.encoder
    }

    /// The catalogue's model the instance was built from, with its options (`None` for an
    /// encoding of a library user's own, [`Instance::from_encoding`]).
    pub fn model(&self) -> Option<&Model> {
        self.model.as_ref()
    }

    /// The size of the model's own clauses, without the placed and forbidden cells.
    fn model_size(&self) -> Size {
        self.encoder.size()
    }

    /// The pre-placed queens (0-based).
    pub fn placed(&self) -> &[Cell] {
        &self.place
    }

    /// The forbidden cells (0-based).
    pub fn forbidden(&self) -> &[Cell] {
        &self.forbid
    }

    /// `true` when no cell is placed or forbidden.
    pub fn is_empty_board(&self) -> bool {
        self.place.is_empty() && self.forbid.is_empty()
    }

    /// `true` when the formula has variables besides those of its projection.
    pub fn has_auxiliaries(&self) -> bool {
        self.size().vars > self.projection().len() as u64
    }

    /// Variables, clauses and literals of the whole formula, exact, before encoding.
    pub fn size(&self) -> Size {
        let mut s = self.model_size();
        for &(r, c) in &self.place {
            let k = self.value_lits(r, c).len() as u64;
            s.clauses += k;
            s.literals += k;
        }
        for &(r, c) in &self.forbid {
            s.clauses += 1;
            s.literals += self.value_lits(r, c).len() as u64;
        }
        if let Some(sym) = &self.symmetry {
            s = s + sym.size();
        }
        s
    }

    /// Refuses the instance when its size is past `limits`, with the estimated size in the
    /// message. O(1) after [`Instance::new`] (which already refused too many variables).
    pub fn check_size(&self, limits: Limits) -> Result<(), InstanceError> {
        let size = self.size();
        if limits.allows(&size) {
            return Ok(());
        }
        Err(InstanceError::TooLarge {
            n: self.n,
            model: self.encoder.name(),
            what: limits.what,
            clauses: size.clauses,
            bytes: limits.bytes_of(&size),
            max_clauses: limits.max_clauses,
            max_bytes: limits.max_bytes,
        })
    }

    /// A one-line description of the model, for comments and reports.
    pub fn describe(&self) -> String {
        self.encoder.describe()
    }

    /// The DIMACS header of the whole formula: comment lines (tool, n, model, `command` if
    /// given, the variable map, the groups, the placed and forbidden cells) and exact counts.
    pub fn dimacs_header(&self, command: Option<&str>) -> DimacsHeader {
        let mut h = DimacsHeader {
            comments: self.encoder.header_comments(command),
            ..DimacsHeader::default()
        };
        let size = self.size();
        h.vars = size.vars;
        h.clauses = size.clauses;
        // Model counters count the boards when told to project on the board's variables.
        let projection = self.projection();
        h.counting = Some(if size.vars > projection.len() as u64 {
            crate::cnf::Counting::Pmc(projection)
        } else {
            crate::cnf::Counting::Mc
        });
        h.comments.extend(self.comments.iter().cloned());
        if let Some(sym) = &self.symmetry {
            h.comments.extend(sym.comment_lines());
        }
        for &(r, c) in &self.place {
            h.comments.push(format!(
                "group P: pre-placed queen q({},{}) (unit clause)",
                r + 1,
                c + 1
            ));
        }
        for &(r, c) in &self.forbid {
            h.comments.push(format!(
                "group F: forbidden cell q({},{}) (unit clause)",
                r + 1,
                c + 1
            ));
        }
        h
    }

    /// Writes the whole formula as DIMACS to `out`, streaming, and returns `out` flushed.
    pub fn write_dimacs<W: io::Write>(&self, out: W, command: Option<&str>) -> io::Result<W> {
        let mut w = crate::cnf::DimacsWriter::new(out, &self.dimacs_header(command))?;
        encode(self, &mut w)?;
        w.finish()
    }

    /// Checks a board against the instance: a solution, with every pre-placed queen and no
    /// forbidden cell.
    pub fn check_board(&self, p: &Placement) -> Result<(), BoardProblem> {
        check_board(self, p)
    }

    /// `Some(false)` when the instance is known to have no solution without search (n = 2 or
    /// 3 on the empty board), `Some(true)` when one is known to exist (every other empty
    /// board, by the direct construction), `None` when only a search can tell.
    pub fn known_satisfiable(&self) -> Option<bool> {
        self.is_empty_board().then(|| match self.geometry {
            Geometry::Square => crate::construct::solution_exists(self.n),
            // Modular n-queens has solutions exactly when gcd(n, 6) = 1 (Polya, 1918).
            Geometry::Toroidal => !self.n.is_multiple_of(2) && !self.n.is_multiple_of(3),
        })
    }
}

/// Checks a board against a formula's instance: the right size, a solution, with every
/// pre-placed queen and no forbidden cell.
pub fn check_board(f: &dyn Formula, p: &Placement) -> Result<(), BoardProblem> {
    if p.n() != f.n() {
        return Err(BoardProblem::WrongSize {
            expected: f.n(),
            found: p.n(),
        });
    }
    crate::board::check_placement_on(p, f.geometry()).map_err(BoardProblem::Attack)?;
    let (place, forbid) = f.fixed();
    if let Some(&cell) = place.iter().find(|&&(r, c)| p.col(r) != c) {
        return Err(BoardProblem::PlacedMissing(cell));
    }
    if let Some(&cell) = forbid.iter().find(|&&(r, c)| p.col(r) == c) {
        return Err(BoardProblem::ForbiddenUsed(cell));
    }
    Ok(())
}

/// What is wrong with a board, against an instance. Cells 0-based inside, 1-based shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardProblem {
    /// A placement for another board size.
    #[error("the placement has {found} rows, the board {expected}")]
    WrongSize {
        /// Expected n.
        expected: usize,
        /// Rows given.
        found: usize,
    },
    /// The model does not describe a board (a row without a queen or with several).
    #[error("{0}")]
    Decode(#[from] DecodeError),
    /// Two queens attack each other (or a queen is off the board).
    #[error("{0}")]
    Attack(crate::board::Violation),
    /// A pre-placed queen is not on the board.
    #[error("the pre-placed queen ({},{}) is missing", .0 .0 + 1, .0 .1 + 1)]
    PlacedMissing(Cell),
    /// A forbidden cell holds a queen.
    #[error("the forbidden cell ({},{}) holds a queen", .0 .0 + 1, .0 .1 + 1)]
    ForbiddenUsed(Cell),
}

impl Formula for Instance {
    fn n(&self) -> usize {
        self.n
    }

    fn name(&self) -> String {
        if self.symmetry_breaking.is_on() {
            format!("{}+{}", self.encoder.name(), self.symmetry_breaking)
        } else {
            self.encoder.name()
        }
    }

    fn num_vars(&self) -> u64 {
        self.size().vars
    }

    fn encode_labelled(&self, sink: &mut dyn LabelSink) -> io::Result<()> {
        self.encoder.encode_labelled(sink)?;
        if !self.place.is_empty() {
            sink.begin_group(&GroupInfo {
                tag: "P".into(),
                meaning: "pre-placed queen".into(),
            })?;
            sink.begin_label(&Label {
                rule: Rule::Placed,
                line: None,
            })?;
            for &(r, c) in &self.place {
                for l in self.value_lits(r, c) {
                    sink.add_clause(&[l])?;
                }
            }
        }
        if !self.forbid.is_empty() {
            sink.begin_group(&GroupInfo {
                tag: "F".into(),
                meaning: "forbidden cell".into(),
            })?;
            sink.begin_label(&Label {
                rule: Rule::Forbidden,
                line: None,
            })?;
            let mut clause = Vec::new();
            for &(r, c) in &self.forbid {
                clause.clear();
                clause.extend(self.value_lits(r, c).into_iter().map(|l| !l));
                sink.add_clause(&clause)?;
            }
        }
        if let Some(sym) = &self.symmetry {
            sym.emit(sink)?;
        }
        Ok(())
    }

    fn value_lits(&self, r: usize, c: usize) -> Vec<Lit> {
        let mut lits = Vec::with_capacity(2);
        self.encoder.push_value_lits(r, c, &mut lits);
        lits
    }

    fn decode(&self, assignment: &[bool]) -> Result<Placement, DecodeError> {
        self.encoder.decode(assignment)
    }

    fn projection(&self) -> Vec<Var> {
        self.encoder.projection()
    }

    fn var_name(&self, var: Var) -> String {
        if let Some(name) = self.symmetry.as_ref().and_then(|s| s.var_name(var)) {
            return name;
        }
        self.encoder.var_name(var)
    }

    fn pattern_lits(&self, cells: &[bool]) -> Option<Vec<Lit>> {
        let n = self.n;
        if !self.encoder.cell_variables() {
            // One value per row, or the model cannot say it.
            let mut lits = Vec::new();
            for r in 0..n {
                let row: Vec<usize> = (0..n)
                    .filter(|&c| cells.get(r * n + c).copied().unwrap_or(false))
                    .collect();
                let [c] = row[..] else { return None };
                lits.extend(self.value_lits(r, c));
            }
            return Some(lits);
        }
        Some(
            (0..self.n * self.n)
                .map(|i| Lit::from_var(Var::from_index(i), cells.get(i).copied().unwrap_or(false)))
                .collect(),
        )
    }

    fn fixed(&self) -> (&[Cell], &[Cell]) {
        (&self.place, &self.forbid)
    }

    fn geometry(&self) -> Geometry {
        self.geometry
    }

    fn model(&self) -> Option<&Model> {
        Instance::model(self)
    }
    fn symmetry_breaking(&self) -> SymmetryBreaking {
        Instance::symmetry_breaking(self)
    }
    fn with_symmetry_breaking_dyn(&self, mode: SymmetryBreaking) -> Option<Arc<dyn Formula>> {
        Some(Arc::new(self.clone().with_symmetry_breaking(mode)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::CountingSink;

    #[test]
    fn validation_names_cells() {
        let inst = || Instance::new(8, Model::default()).unwrap();
        let e = inst()
            .with_cells(&[(0, 0), (1, 2), (3, 3)], &[])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "placed queens at (1,1) and (4,4) share a \\ diagonal"
        );
        assert_eq!(
            inst().with_cells(&[], &[(8, 0)]).unwrap_err().to_string(),
            "forbidden cell (9,1) is outside the 8 x 8 board"
        );
        assert!(matches!(
            inst().with_cells(&[(2, 3)], &[(2, 3)]),
            Err(InstanceError::PlacedAndForbidden((2, 3)))
        ));
    }

    #[test]
    fn size_counts_what_is_emitted() {
        let inst = Instance::new(7, Model::default())
            .unwrap()
            .with_cells(&[(0, 1), (2, 2)], &[(3, 3), (4, 0), (6, 6)])
            .unwrap();
        let mut c = CountingSink::default();
        encode(&inst, &mut c).unwrap();
        assert_eq!(c.clauses, inst.size().clauses);
        assert_eq!(c.literals, inst.size().literals);
    }

    #[test]
    fn labels_follow_the_groups() {
        let inst = Instance::new(4, Model::default())
            .unwrap()
            .with_cells(&[(0, 1)], &[(3, 3)])
            .unwrap();
        let cnf = to_labelled_cnf(&inst);
        assert_eq!(cnf.rule_of(0), Some(Rule::AtLeastOne(LineKind::Row)));
        assert_eq!(cnf.line_of(0).map(|l| l.index), Some(0));
        let last = cnf.cnf.len() - 1;
        assert_eq!(cnf.rule_of(last), Some(Rule::Forbidden));
        assert_eq!(cnf.line_of(last), None);
        assert_eq!(cnf.rule_of(last - 1), Some(Rule::Placed));
    }

    #[test]
    fn decode_reads_rows() {
        let inst = Instance::new(4, Model::default()).unwrap();
        let p = Placement::from_cols(&[1, 3, 0, 2]);
        assert_eq!(inst.decode(&p.to_assignment()).unwrap(), p);
        let mut a = p.to_assignment();
        a[2 * 4] = false;
        assert_eq!(
            inst.decode(&a).unwrap_err().to_string(),
            "row 3 has no queen"
        );
    }
}
