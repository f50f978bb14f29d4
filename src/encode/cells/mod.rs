//! The cell model of n-queens, the reference propositional model: one Boolean per cell,
//! "a queen stands here", and which line of the board gets which constraint (rows at least
//! one; rows, columns and diagonals at most one, with an at-most-one encoding per kind of
//! line; optionally the redundant columns at least one). Its words for people, the
//! coursework's names and every clause said in words, are [`CellWords`].

mod words;

pub use words::{aux_forcing, AuxForcing, CellWords, Namer};

use super::{
    cell_lit, cell_of_var, max_vars, Amo, DecodeError, EncodeError, Encoding, Label, LabelSink,
    Rule, Size, Unlabelled, VarAlloc, Words,
};
use crate::board::Placement;
use crate::board::{Geometry, Line, LineKind};
use crate::cnf::{ClauseSink, GroupInfo, Lit, Var};
use std::io;

/// The at-most-one encoding used on each kind of line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineEncodings {
    /// Rows.
    pub rows: Amo,
    /// Columns.
    pub columns: Amo,
    /// `/` diagonals (equal `r + c`).
    pub diagonals: Amo,
    /// `\` diagonals (equal `r - c`).
    pub anti_diagonals: Amo,
}

impl LineEncodings {
    /// The same encoding on every line.
    pub fn uniform(amo: Amo) -> Self {
        LineEncodings {
            rows: amo,
            columns: amo,
            diagonals: amo,
            anti_diagonals: amo,
        }
    }

    /// The encoding used on lines of `kind`.
    pub fn for_kind(&self, kind: LineKind) -> Amo {
        match kind {
            LineKind::Row => self.rows,
            LineKind::Column => self.columns,
            LineKind::Diagonal => self.diagonals,
            LineKind::AntiDiagonal => self.anti_diagonals,
        }
    }

    /// `true` when every line uses `amo`.
    pub fn is_uniform(&self) -> bool {
        self.rows == self.columns && self.rows == self.diagonals && self.rows == self.anti_diagonals
    }
}

impl LineEncodings {
    /// The encodings a list of `--amo` values names, in order, without repeats: a value with
    /// `=` is one per-line setting (`rows=sequential,diagonals=product`), any other value a
    /// comma-separated list of encodings (`pairwise,sequential,commander:4`), each for every
    /// line.
    pub fn parse_list(values: &[String]) -> Result<Vec<LineEncodings>, String> {
        let mut out: Vec<LineEncodings> = Vec::new();
        for v in values {
            let items: Vec<&str> = if v.contains('=') {
                vec![v.as_str()]
            } else {
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect()
            };
            for item in items {
                let e: LineEncodings = item.parse()?;
                if !out.contains(&e) {
                    out.push(e);
                }
            }
        }
        Ok(out)
    }
}

impl std::str::FromStr for LineEncodings {
    type Err = String;

    /// Either one encoding name for every line (`sequential`), or a comma-separated list of
    /// `lines=name` settings applied left to right, where `lines` is `all`, `rows`, `columns`,
    /// `diagonals` (both directions), `slash` (`/` diagonals) or `backslash` (`\` diagonals);
    /// lines not named keep pairwise. Example: `rows=sequential,diagonals=product`.
    fn from_str(s: &str) -> Result<Self, String> {
        if !s.contains('=') {
            return Ok(LineEncodings::uniform(s.parse()?));
        }
        let mut enc = LineEncodings::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not of the form lines=encoding"))?;
            let amo: Amo = value.parse()?;
            match key.trim() {
                "all" => enc = LineEncodings::uniform(amo),
                "rows" => enc.rows = amo,
                "columns" | "cols" => enc.columns = amo,
                "diagonals" | "diags" => {
                    enc.diagonals = amo;
                    enc.anti_diagonals = amo;
                }
                "slash" => enc.diagonals = amo,
                "backslash" => enc.anti_diagonals = amo,
                other => {
                    return Err(format!(
                        "unknown line kind '{other}' (known: all, rows, columns, diagonals, slash, backslash)"
                    ))
                }
            }
        }
        Ok(enc)
    }
}

impl Default for LineEncodings {
    fn default() -> Self {
        LineEncodings::uniform(Amo::PAIRWISE)
    }
}

impl std::fmt::Display for LineEncodings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_uniform() {
            write!(f, "{}", self.rows)
        } else {
            // The keys of `FromStr`, so that the text parses back to the same settings.
            write!(
                f,
                "rows={},columns={},slash={},backslash={}",
                self.rows, self.columns, self.diagonals, self.anti_diagonals
            )
        }
    }
}

/// Options of the n-queens encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EncodeOptions {
    /// At-most-one encoding per kind of line (default: pairwise everywhere, the reference model).
    pub amo: LineEncodings,
    /// Add the redundant "every column has at least one queen" clauses.
    pub column_alo: bool,
}

impl EncodeOptions {
    /// The short name used in reports and file names: the at-most-one encodings
    /// ([`LineEncodings`]'s text), with `+column-alo` for the redundant column clauses.
    pub fn label(&self) -> String {
        if self.column_alo {
            format!("{}+column-alo", self.amo)
        } else {
            self.amo.to_string()
        }
    }
}

/// A group of clauses of the model, in the textbook's labelling (Q1 ... Q5, Q6 redundant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Tag: `Q1` ... `Q6`.
    pub tag: &'static str,
    /// The kind of line it constrains.
    pub line: LineKind,
    /// `true` for "at least one queen per line", `false` for "at most one".
    pub at_least_one: bool,
    /// Its meaning in words.
    pub meaning: &'static str,
}

impl Group {
    /// The rule the group enforces.
    pub fn rule(&self) -> Rule {
        if self.at_least_one {
            Rule::AtLeastOne(self.line)
        } else {
            Rule::AtMostOne(self.line)
        }
    }
}

/// A block of auxiliary variables and the line whose encoding introduced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuxBlock {
    /// The line.
    pub line: Line,
    /// The encoding.
    pub amo: Amo,
    /// First variable (DIMACS number).
    pub first: u64,
    /// Number of variables.
    pub count: u64,
}

/// The n-queens encoder: a board size, per-line encodings, and whether to add the redundant
/// column clauses.
///
/// Clause groups, in order: Q1 rows at-least-one, Q2 rows at-most-one, Q3 columns
/// at-most-one, Q4 `/` diagonals at-most-one, Q5 `\` diagonals at-most-one, and with
/// [`EncodeOptions::column_alo`] Q6 columns at-least-one. With the default options this is the
/// reference model: `n + 2 n C(n,2) + 2 (2 C(n+1,3) - C(n,2))` clauses over `n * n` variables.
///
/// On the torus ([`QueensEncoder::new_on`] with [`Geometry::Toroidal`]) the diagonals wrap
/// around: `n` lines of `n` cells per direction, so the pairwise model has
/// `n + 4 n C(n,2)` clauses.
#[derive(Clone, Debug)]
pub struct QueensEncoder {
    n: usize,
    options: EncodeOptions,
    geometry: Geometry,
}

/// The groups of the model: `NAME = tag, line kind, at least one (else at most one), meaning`.
macro_rules! groups {
    ($($name:ident = $tag:literal, $line:ident, $alo:literal, $meaning:literal;)*) => {
        $(const $name: Group = Group {
            tag: $tag,
            line: LineKind::$line,
            at_least_one: $alo,
            meaning: $meaning,
        };)*
    };
}

groups! {
    Q1 = "Q1", Row, true, "every row has at least one queen";
    Q2 = "Q2", Row, false, "every row has at most one queen";
    Q3 = "Q3", Column, false, "every column has at most one queen";
    Q4 = "Q4", Diagonal, false, "every / diagonal (equal r+c) has at most one queen";
    Q5 = "Q5", AntiDiagonal, false, "every \\ diagonal (equal r-c) has at most one queen";
    Q4_TORUS = "Q4", Diagonal, false, "every / diagonal (equal r+c mod n, wrapping around) has at most one queen";
    Q5_TORUS = "Q5", AntiDiagonal, false, "every \\ diagonal (equal r-c mod n, wrapping around) has at most one queen";
    Q6 = "Q6", Column, true, "every column has at least one queen (redundant)";
}

impl QueensEncoder {
    /// An encoder for the `n` x `n` square board.
    pub fn new(n: usize, options: EncodeOptions) -> Result<Self, EncodeError> {
        QueensEncoder::new_on(n, options, Geometry::Square)
    }

    /// An encoder for the `n` x `n` board of the given geometry. On the torus
    /// ([`Geometry::Toroidal`]) the diagonals wrap around the edges: `n` lines of `n` cells
    /// per direction.
    pub fn new_on(
        n: usize,
        options: EncodeOptions,
        geometry: Geometry,
    ) -> Result<Self, EncodeError> {
        if n == 0 {
            return Err(EncodeError::Zero);
        }
        // Refuse at once when the cells alone are too many: the size below sums over the
        // lines (O(n)) and its products would overflow for n around 2^32.
        if (n as u64)
            .checked_mul(n as u64)
            .is_none_or(|c| c > max_vars())
        {
            return Err(EncodeError::TooManyVars {
                n,
                vars: (n as u64).saturating_mul(n as u64),
                max: max_vars(),
            });
        }
        let enc = QueensEncoder {
            n,
            options,
            geometry,
        };
        let vars = enc.size().vars;
        if vars > max_vars() {
            return Err(EncodeError::TooManyVars {
                n,
                vars,
                max: max_vars(),
            });
        }
        Ok(enc)
    }

    /// The same encoder on a board of the given geometry. Fails when that board needs more
    /// variables than can be numbered (the torus's diagonals are longer than the square's).
    pub fn with_geometry(self, geometry: Geometry) -> Result<Self, EncodeError> {
        QueensEncoder::new_on(self.n, self.options, geometry)
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The options.
    pub fn options(&self) -> &EncodeOptions {
        &self.options
    }

    /// The board's geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The clause groups in the order they are emitted.
    pub fn groups(&self) -> Vec<Group> {
        let mut g = match self.geometry {
            Geometry::Square => vec![Q1, Q2, Q3, Q4, Q5],
            Geometry::Toroidal => vec![Q1, Q2, Q3, Q4_TORUS, Q5_TORUS],
        };
        if self.options.column_alo {
            g.push(Q6);
        }
        g
    }

    /// Every line of `kind`, in encoding order.
    pub fn lines(&self, kind: LineKind) -> impl Iterator<Item = Line> {
        (0..Line::count_on(kind, self.n, self.geometry)).map(move |index| Line { kind, index })
    }

    /// The size of one group (vars counts its auxiliary variables only).
    pub fn group_size(&self, group: &Group) -> Size {
        let n = self.n as u64;
        if group.at_least_one {
            return Size {
                vars: 0,
                clauses: n,
                literals: n.saturating_mul(n),
            };
        }
        let amo = self.options.amo.for_kind(group.line);
        self.lines(group.line)
            .map(|l| amo.size(l.len_on(self.n, self.geometry)))
            .fold(Size::default(), |a, b| a + b)
    }

    /// Variables, clauses and literals of the whole formula, in closed form, before encoding.
    pub fn size(&self) -> Size {
        let cells = (self.n as u64).saturating_mul(self.n as u64);
        self.groups().iter().map(|g| self.group_size(g)).fold(
            Size {
                vars: cells,
                clauses: 0,
                literals: 0,
            },
            |a, b| a + b,
        )
    }

    /// The blocks of auxiliary variables, each with the line that owns it, in numbering order.
    pub fn aux_blocks(&self) -> Vec<AuxBlock> {
        let mut next = (self.n * self.n) as u64 + 1;
        let mut blocks = Vec::new();
        for g in self.groups().iter().filter(|g| !g.at_least_one) {
            let amo = self.options.amo.for_kind(g.line);
            for line in self.lines(g.line) {
                let count = amo.size(line.len_on(self.n, self.geometry)).vars;
                if count > 0 {
                    blocks.push(AuxBlock {
                        line,
                        amo,
                        first: next,
                        count,
                    });
                    next += count;
                }
            }
        }
        blocks
    }

    /// A one-line description of the model, for comments and reports.
    pub fn describe(&self) -> String {
        let mut s = if self.options.amo == LineEncodings::default() {
            "reference propositional model (rows at-least-one; rows, columns, diagonals at-most-one, pairwise)".to_string()
        } else {
            format!("rows at-least-one; at-most-one: {}", self.options.amo)
        };
        if self.options.column_alo {
            s.push_str("; redundant columns at-least-one");
        }
        if self.geometry == Geometry::Toroidal {
            s.push_str("; toroidal board");
        }
        s
    }

    /// The DIMACS header for this formula: comment lines (tool, n, model, `command` if given,
    /// the variable map, the auxiliary blocks, the groups) and the exact counts.
    pub fn dimacs_header(&self, command: Option<&str>) -> crate::cnf::DimacsHeader {
        let n = self.n;
        let size = self.size();
        let mut c = super::header_start(n);
        c.push(format!("model: {}", self.describe()));
        if self.geometry == Geometry::Toroidal {
            c.push(format!(
                "board: toroidal, diagonals wrap around the edges ({n} / diagonals r+c mod {n}, {n} \\ diagonals r-c mod {n}, each of {n} cells)"
            ));
        }
        if let Some(cmd) = command {
            c.push(format!("command: {cmd}"));
        }
        c.push(format!(
            "variables: var (r-1)*{n} + c = q(r,c), queen on row r, column c (1-based), for vars 1..{}",
            n * n
        ));
        if n <= 10 {
            for r in 0..n {
                for col in 0..n {
                    c.push(format!(
                        "var {} = q({},{})",
                        r * n + col + 1,
                        r + 1,
                        col + 1
                    ));
                }
            }
        }
        for b in self.aux_blocks() {
            c.push(format!(
                "aux {}..{} = {} at-most-one of {}; named {}({}, 1..{})",
                b.first,
                b.first + b.count - 1,
                b.amo,
                b.line.describe_on(n, self.geometry),
                b.amo.aux_symbol(),
                b.line.describe_on(n, self.geometry),
                b.count
            ));
        }
        for g in self.groups() {
            c.push(format!(
                "group {}: {} ({} clauses)",
                g.tag,
                g.meaning,
                self.group_size(&g).clauses
            ));
        }
        // The cell variables are the projection; past them are the encodings' auxiliaries.
        let cells = (n * n) as u64;
        let counting = if size.vars > cells {
            crate::cnf::Counting::Pmc((0..n * n).map(Var::from_index).collect())
        } else {
            crate::cnf::Counting::Mc
        };
        crate::cnf::DimacsHeader {
            comments: c,
            vars: size.vars,
            clauses: size.clauses,
            counting: Some(counting),
        }
    }

    /// Writes the formula as DIMACS to `out`, streaming, and returns `out` flushed.
    pub fn write_dimacs<W: io::Write>(&self, out: W, command: Option<&str>) -> io::Result<W> {
        let mut w = crate::cnf::DimacsWriter::new(out, &self.dimacs_header(command))?;
        self.encode(&mut w)?;
        w.finish()
    }

    /// Streams every clause into `sink`, group by group (announced with
    /// [`ClauseSink::begin_group`]).
    pub fn encode<S: ClauseSink + ?Sized>(&self, sink: &mut S) -> io::Result<()> {
        self.encode_labelled(&mut Unlabelled(sink))
    }

    /// Like [`QueensEncoder::encode`], also announcing each group's [`Label`] and each line's.
    pub fn encode_labelled<S: LabelSink + ?Sized>(&self, sink: &mut S) -> io::Result<()> {
        let n = self.n;
        let mut alloc = VarAlloc::starting_at(n * n);
        let mut buf: Vec<Lit> = Vec::with_capacity(n);
        for g in self.groups() {
            sink.begin_group(&GroupInfo {
                tag: g.tag.to_string(),
                meaning: g.meaning.to_string(),
            })?;
            let rule = g.rule();
            sink.begin_label(&Label { rule, line: None })?;
            let amo = self.options.amo.for_kind(g.line);
            for line in self.lines(g.line) {
                sink.begin_label(&Label {
                    rule,
                    line: Some(line),
                })?;
                buf.clear();
                buf.extend(
                    line.cells_on(n, self.geometry)
                        .map(|(r, c)| cell_lit(n, r, c)),
                );
                if g.at_least_one {
                    sink.add_clause(&buf)?;
                } else {
                    amo.encode(&buf, &mut alloc, sink)?;
                }
            }
        }
        debug_assert_eq!(alloc.used() as u64, self.size().vars);
        Ok(())
    }
}

impl Encoding for QueensEncoder {
    fn n(&self) -> usize {
        self.n
    }
    fn geometry(&self) -> Geometry {
        self.geometry
    }
    fn name(&self) -> String {
        self.options.label()
    }
    fn describe(&self) -> String {
        QueensEncoder::describe(self)
    }
    fn size(&self) -> Size {
        QueensEncoder::size(self)
    }
    fn encode_labelled(&self, sink: &mut dyn LabelSink) -> io::Result<()> {
        QueensEncoder::encode_labelled(self, sink)
    }
    fn push_value_lits(&self, r: usize, c: usize, out: &mut Vec<Lit>) {
        out.push(cell_lit(self.n, r, c));
    }
    fn decode(&self, assignment: &[bool]) -> Result<Placement, DecodeError> {
        let n = self.n;
        let mut cols = Vec::with_capacity(n);
        for r in 0..n {
            let row: Vec<usize> = (0..n)
                .filter(|&c| assignment.get(r * n + c).copied().unwrap_or(false))
                .collect();
            if row.len() != 1 {
                return Err(DecodeError::RowCount { row: r, cols: row });
            }
            cols.push(row[0] as u32);
        }
        Ok(Placement::new(cols))
    }
    fn projection(&self) -> Vec<Var> {
        (0..self.n * self.n).map(Var::from_index).collect()
    }
    fn var_name(&self, var: Var) -> String {
        match cell_of_var(self.n, var) {
            Some((r, c)) => format!("q({},{})", r + 1, c + 1),
            None => format!("x{}", var.to_dimacs()),
        }
    }
    fn header_comments(&self, command: Option<&str>) -> Vec<String> {
        self.dimacs_header(command).comments
    }
    fn cell_variables(&self) -> bool {
        true
    }
    /// [`CellWords`]: the coursework's names, closed forms, every clause in words.
    fn words(&self) -> Box<dyn Words + '_> {
        Box::new(CellWords::new(self))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cnf::CountingSink;

    /// `C(n, k)`.
    pub(crate) fn binom(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    /// The cell model's clause count, the closed form of the reference document (rows at least
    /// one; rows, columns and diagonals pairwise).
    pub(crate) fn reference_clauses(n: u64) -> u64 {
        n + 2 * n * binom(n, 2) + 2 * (2 * binom(n + 1, 3) - binom(n, 2))
    }

    #[test]
    fn reference_counts_from_the_document() {
        for (n, c) in [
            (1, 1),
            (2, 8),
            (3, 31),
            (4, 80),
            (8, 736),
            (10, 1480),
            (12, 2608),
        ] {
            assert_eq!(reference_clauses(n), c);
        }
    }

    #[test]
    fn counts_equal_closed_form() {
        for n in 1..=60usize {
            for column_alo in [false, true] {
                let enc = QueensEncoder::new(
                    n,
                    EncodeOptions {
                        column_alo,
                        ..Default::default()
                    },
                )
                .unwrap();
                let mut count = CountingSink::default();
                enc.encode(&mut count).unwrap();
                let extra = if column_alo { n as u64 } else { 0 };
                let expected = reference_clauses(n as u64) + extra;
                assert_eq!(count.clauses, expected, "n={n}");
                assert_eq!(enc.size().clauses, expected, "n={n}");
                let binary = reference_clauses(n as u64) - n as u64;
                let lits = (n * n) as u64 * (1 + column_alo as u64) + 2 * binary;
                assert_eq!(count.literals, lits, "n={n}");
                assert_eq!(enc.size().literals, lits);
                assert_eq!(enc.size().vars, (n * n) as u64);
                assert_eq!(count.max_var, (n * n) as u64);
            }
        }
    }

    #[test]
    fn lines_cover_the_board_once_per_kind() {
        for n in 1..=9usize {
            let enc = QueensEncoder::new(n, EncodeOptions::default()).unwrap();
            for kind in LineKind::ALL {
                let mut seen = vec![0; n * n];
                for line in enc.lines(kind) {
                    let cells: Vec<_> = line.cells(n).collect();
                    assert_eq!(cells.len(), line.len(n));
                    for &(r, c) in &cells {
                        assert!(r < n && c < n);
                        seen[r * n + c] += 1;
                        let (r0, c0) = cells[0];
                        let same = match kind {
                            LineKind::Row => r == r0,
                            LineKind::Column => c == c0,
                            LineKind::Diagonal => r + c == r0 + c0,
                            LineKind::AntiDiagonal => r + c0 == r0 + c,
                        };
                        assert!(same, "{kind:?} {line:?}");
                    }
                }
                assert!(seen.iter().all(|&s| s == 1), "{kind:?} n={n}");
            }
        }
    }

    #[test]
    fn line_encodings_display_parses_back() {
        let mut settings = vec![LineEncodings::default()];
        for (i, a) in Amo::all().into_iter().enumerate() {
            let all = Amo::all();
            settings.push(LineEncodings::uniform(a));
            settings.push(LineEncodings {
                rows: a,
                columns: all[(i + 1) % all.len()],
                diagonals: all[(i + 2) % all.len()],
                anti_diagonals: all[(i + 3) % all.len()],
            });
        }
        settings.push("rows=commander:4,backslash=bimander:2".parse().unwrap());
        for s in settings {
            assert_eq!(s.to_string().parse::<LineEncodings>(), Ok(s), "{s}");
        }
        let slash: LineEncodings = "slash=ladder".parse().unwrap();
        assert_eq!(slash.diagonals, Amo::LADDER);
        assert_eq!(slash.anti_diagonals, Amo::PAIRWISE);
        assert_eq!(slash.for_kind(LineKind::Diagonal), Amo::LADDER);
    }

    fn torus(n: usize, options: EncodeOptions) -> QueensEncoder {
        let e = QueensEncoder::new_on(n, options, Geometry::Toroidal).unwrap();
        assert_eq!(e.geometry(), Geometry::Toroidal);
        e
    }

    /// The settings the torus tests run: every at-most-one on every line, one mixed setting,
    /// and the redundant column clauses.
    fn torus_settings() -> Vec<EncodeOptions> {
        let mut v: Vec<EncodeOptions> = Amo::all()
            .into_iter()
            .map(|a| EncodeOptions {
                amo: LineEncodings::uniform(a),
                column_alo: false,
            })
            .collect();
        v.push(EncodeOptions {
            amo: "rows=sequential,columns=ladder,slash=product,backslash=commander:3"
                .parse()
                .unwrap(),
            column_alo: true,
        });
        v.push(EncodeOptions {
            amo: LineEncodings::uniform(Amo::BINARY),
            column_alo: true,
        });
        v
    }

    /// Every model's board, enumerated with blocking clauses on the cells.
    fn torus_boards(e: &QueensEncoder) -> std::collections::BTreeSet<Vec<usize>> {
        use crate::encode::torus_oracle::enumerate_boards;
        let n = e.n();
        let mut solver = varisat::Solver::new();
        e.encode(&mut solver).unwrap();
        let cells: Vec<crate::cnf::Var> = (0..n * n).map(crate::cnf::Var::from_index).collect();
        enumerate_boards(solver, e.size().vars, &cells, |a| {
            let cols: Vec<usize> = (0..n)
                .map(|r| {
                    let row: Vec<usize> = (0..n).filter(|&c| a[r * n + c]).collect();
                    assert_eq!(row.len(), 1, "row {r}: {row:?}");
                    row[0]
                })
                .collect();
            crate::board::Placement::from_cols(&cols)
        })
    }

    #[test]
    fn torus_models_are_the_brute_force_solutions() {
        use crate::encode::torus_oracle::{brute_force_torus, A051906};
        for n in 1..=9usize {
            let expected = brute_force_torus(n);
            assert_eq!(expected.len(), A051906[n - 1], "brute force, n={n}");
            for o in torus_settings() {
                let found = torus_boards(&torus(n, o));
                assert_eq!(found, expected, "{} n={n}", o.amo);
            }
        }
    }

    #[test]
    fn torus_counts_are_a051906() {
        use crate::encode::torus_oracle::A051906;
        for n in 1..=9usize {
            let e = torus(n, EncodeOptions::default());
            assert_eq!(torus_boards(&e).len(), A051906[n - 1], "n={n}");
        }
    }

    /// The torus's exact size is what the encoder emits, for every setting; the pairwise
    /// model has n + 4 n C(n,2) clauses (every line n cells long).
    #[test]
    fn torus_size_equals_emitted() {
        for n in 1..=40usize {
            for o in torus_settings() {
                let e = torus(n, o);
                let mut count = CountingSink::default();
                e.encode(&mut count).unwrap();
                let size = e.size();
                assert_eq!(count.clauses, size.clauses, "{} n={n}", o.amo);
                assert_eq!(count.literals, size.literals, "{} n={n}", o.amo);
                assert_eq!(count.max_var, size.vars, "{} n={n}", o.amo);
                let groups: u64 = e.groups().iter().map(|g| e.group_size(g).clauses).sum();
                assert_eq!(groups, size.clauses);
                let aux: u64 = e.aux_blocks().iter().map(|b| b.count).sum();
                assert_eq!(aux + (n * n) as u64, size.vars, "{} n={n}", o.amo);
            }
            let nn = n as u64;
            let pairwise = torus(n, EncodeOptions::default()).size();
            assert_eq!(pairwise.clauses, nn + 4 * nn * binom(nn, 2), "n={n}");
            assert_eq!(pairwise.literals, nn * nn + 8 * nn * binom(nn, 2), "n={n}");
            assert_eq!(pairwise.vars, nn * nn);
        }
    }

    #[test]
    fn torus_lines_cover_the_board_once_per_kind() {
        for n in 1..=9usize {
            let e = torus(n, EncodeOptions::default());
            for kind in LineKind::ALL {
                assert_eq!(e.lines(kind).count(), n);
                let mut seen = vec![0; n * n];
                for line in e.lines(kind) {
                    let cells: Vec<_> = line.cells_on(n, Geometry::Toroidal).collect();
                    assert_eq!(cells.len(), n, "every torus line has n cells");
                    assert_eq!(line.len_on(n, Geometry::Toroidal), n);
                    for (t, &(r, c)) in cells.iter().enumerate() {
                        assert!(r < n && c < n);
                        seen[r * n + c] += 1;
                        let i = line.index;
                        let on = match kind {
                            LineKind::Row => r == i && c == t,
                            LineKind::Column => c == i && r == t,
                            LineKind::Diagonal => (r + c) % n == i && r == t,
                            LineKind::AntiDiagonal => (n + r - c) % n == i && r == t,
                        };
                        assert!(on, "{kind:?} {line:?} ({r},{c})");
                    }
                }
                assert!(seen.iter().all(|&s| s == 1), "{kind:?} n={n}");
            }
        }
    }

    #[test]
    fn torus_names_and_header() {
        let t = Geometry::Toroidal;
        let d = |kind, index| Line { kind, index }.describe_on(8, t);
        // 0-based r + c = 3 is 1-based r + c = 5; 0-based (r - c) mod 8 = 7 is 1-based too.
        assert_eq!(d(LineKind::Diagonal, 3), "/ diagonal r+c≡5 (mod 8)");
        assert_eq!(d(LineKind::Diagonal, 7), "/ diagonal r+c≡1 (mod 8)");
        assert_eq!(d(LineKind::AntiDiagonal, 7), "\\ diagonal r-c≡7 (mod 8)");
        assert_eq!(d(LineKind::Row, 2), "row 3");
        assert_eq!(d(LineKind::Column, 0), "column 1");
        for kind in LineKind::ALL {
            assert_eq!(Line::count_on(kind, 8, t), 8);
            assert_eq!(
                Line::count_on(kind, 8, Geometry::Square),
                Line::count(kind, 8)
            );
        }
        assert_eq!(Line::count_on(LineKind::Diagonal, 8, Geometry::Square), 15);

        let o = EncodeOptions {
            amo: LineEncodings::uniform(Amo::SEQUENTIAL),
            column_alo: false,
        };
        let e = torus(5, o);
        let h = e.dimacs_header(None);
        assert_eq!(h.vars, e.size().vars);
        assert_eq!(h.clauses, e.size().clauses);
        assert!(
            h.comments.iter().any(|l| l.starts_with("board: toroidal")),
            "{:#?}",
            h.comments
        );
        assert!(e.describe().ends_with("; toroidal board"));
        assert!(h
            .comments
            .iter()
            .any(|l| l.starts_with("group Q4: every / diagonal (equal r+c mod n")));
        // Sequential over 5 cells: 4 auxiliaries per line; rows 26..45, columns 46..65, then
        // the / diagonals from 66: the second, r+c ≡ 1 (0-based), is 1-based r+c ≡ 3.
        assert!(
            h.comments.iter().any(|l| l
                == "aux 70..73 = sequential at-most-one of / diagonal r+c≡3 (mod 5); named s(/ diagonal r+c≡3 (mod 5), 1..4)"),
            "{:#?}",
            h.comments
        );
        // Labels carry the torus lines.
        let mut f = crate::encode::LabelledCnf::default();
        e.encode_labelled(&mut f).unwrap();
        let lines: std::collections::HashSet<Line> =
            (0..f.len()).filter_map(|i| f.line_of(i)).collect();
        assert_eq!(lines.len(), 4 * 5);
        // The square board is untouched by the geometry's existence.
        let sq = QueensEncoder::new(5, o).unwrap();
        assert_eq!(sq.geometry(), Geometry::Square);
        let back = e.clone().with_geometry(Geometry::Square).unwrap();
        assert_eq!(back.dimacs_header(None), sq.dimacs_header(None));
        assert!(!sq
            .dimacs_header(None)
            .comments
            .iter()
            .any(|l| l.contains("toroidal")));
        assert_eq!(sq.with_geometry(t).unwrap().size(), e.size());
    }

    #[test]
    fn zero_is_refused() {
        assert_eq!(
            QueensEncoder::new(0, EncodeOptions::default()).unwrap_err(),
            EncodeError::Zero
        );
    }
}
