//! The column model of n-queens: one integer variable per row, the column of its queen, and
//! three all-different constraints, translated to CNF through a choice of domain encoding and
//! constraint encoding.
//!
//! The classic CSP model has one variable `x_r` per row `r` (0-based here, 1-based in every
//! name and message), with domain `{0, ..., n-1}` (the columns), and the constraints
//!
//! * all `x_r` different (columns),
//! * all `x_r + r` different (`/` diagonals),
//! * all `x_r - r` different (`\` diagonals).
//!
//! Rows hold one queen each by construction, so unlike the cell model
//! ([`super::QueensEncoder`]) there is no row constraint.
//!
//! # Domain encodings ([`Domain`])
//!
//! * **direct** (Walsh 2000): one variable `x(r)=c` per row and column (`n*n`), at least one
//!   value per row (group `D1`), at most one value per row with the chosen [`Amo`] (group
//!   `D2`). DIMACS variable `r*n + c + 1`: the same numbers as the cell model's `q(r,c)`.
//! * **order** (Tamura, Taga, Kitagawa, Banbara 2009): one variable `[x(r) >= c]` per row and
//!   column `c = 1..n-1` (0-based; `[x(r) >= 0]` is always true and has no variable), `n(n-1)`
//!   in all, with the ladder `[x(r) >= c+1] -> [x(r) >= c]` (group `D1`, `n(n-2)` binary clauses
//!   for `n >= 2`). DIMACS variable `r*(n-1) + c`.
//! * **log** (Iwama & Miyazaki 1994; Walsh 2000): `k = ceil(log2 n)` bits per row (`k = 0`
//!   for `n = 1`), bit 0 least significant, spelling the 0-based column; the `2^k - n` patterns
//!   of columns `n..2^k-1` are excluded by one `k`-literal clause each (group `D1`). DIMACS
//!   variable `r*k + b + 1`.
//!
//! The auxiliary variables of the direct domain's at-most-one come after the domain variables,
//! one block per row, in row order.
//!
//! # Constraint encodings ([`Constraints`])
//!
//! * **conflict** (any domain; Walsh 2000): for rows `r1 < r2` and every pair of values that
//!   conflict, the clause that forbids both: the negation of
//!   [`ColumnEncoder::value_lits`]`(r1, a)` and `value_lits(r2, b)`. For row distance
//!   `d = r2 - r1` there are `n` column conflicts (`a = b`, group `C1`), `n - d` `/`
//!   conflicts (`b = a - d`, group `C2`) and `n - d` `\` conflicts (`b = a + d`, group `C3`).
//!   Summed: `C1` has `n C(n,2)` clauses, `C2` and `C3` each `S2 = sum_{j=1}^{n-1} j^2 =
//!   (n-1)n(2n-1)/6`.
//! * **support** (direct domain only; Gent 2002): for every ordered pair of distinct rows
//!   `(r, s)` and value `a`, `(-x(r)=a v OR_{b compatible with a} x(s)=b)`, group `S`:
//!   `n^2 (n-1)` clauses. Value `b` of row `s` is compatible with value `a` of row `r` unless
//!   `b = a` or `b = a -+ d`, so `a` has `n - 1 - [a >= d] - [a + d < n]` supports; without
//!   any (only for `n = 2`) the clause is the unit `-x(r)=a`. The clauses are correct only
//!   together with the at-least-one and at-most-one clauses of the direct domain, which the
//!   direct domain always has.
//!
//! # The torus
//!
//! With [`ColumnEncoder::new_on`] and [`Geometry::Toroidal`] the diagonals wrap around the
//! edges (modular n-queens): all `x_r + r` and all `x_r - r` different mod `n`. Values `a` of
//! row `r1` and `b` of row `r2 = r1 + d` then conflict on a diagonal when `b = a -+ d (mod n)`,
//! so every value has exactly one conflict per diagonal and row: `C2` and `C3` each have
//! `n C(n,2)` clauses, like `C1`. With supports, value `a` keeps `n - 3` supports (`n - 2` when
//! `2d = n`, where `a - d = a + d`). The variables are those of the square board.
//!
//! Exact sizes of every group are in [`ColumnEncoder::groups`], and of the formula in
//! [`ColumnEncoder::size`], computed in closed form with checked arithmetic; the derivations
//! are in `docs/encodings.md` ("The column model").
//!
//! # Projection
//!
//! The domain variables (DIMACS `1..=primary_vars`) determine the placement and are determined
//! by it, so the models of the formula projected onto them ([`ColumnEncoder::projection`]) are
//! one-to-one with the n-queens solutions; the auxiliaries of some at-most-one encodings (e.g.
//! the sequential counter) are not determined by the domain variables, so unprojected model
//! counts can be larger.
//!
//! ## References
//!
//! - T. Walsh, "SAT v CSP", Principles and Practice of Constraint Programming (CP 2000),
//!   LNCS 1894, pp. 441-456: direct and log encodings, conflict clauses, and their
//!   consistency properties.
//! - I. P. Gent, "Arc Consistency in SAT", ECAI 2002, pp. 121-125: the support encoding.
//! - N. Tamura, A. Taga, S. Kitagawa and M. Banbara, "Compiling finite linear CSP into SAT",
//!   Constraints 14(2) (2009), pp. 254-272: the order encoding.
//! - K. Iwama and S. Miyazaki, "SAT-Variable Complexity of Hard Combinatorial Problems",
//!   IFIP World Computer Congress 1994, pp. 253-258: the log (binary) encoding.

pub mod conflict;
pub mod coupled;
mod decode;
pub mod direct;
pub mod hall;
pub mod log;
pub mod order;
pub mod support;
mod words;

pub use decode::ColumnDecodeError;

pub use words::ColumnWords;

use super::{
    Amo, DecodeError, EncodeError, Encoding, Label, LabelSink, Line, Rule, Size, VarAlloc,
};
use crate::board::Placement;
use crate::board::{Geometry, LineKind};
use crate::cnf::{ClauseSink, GroupInfo, Lit, Var};
use std::fmt;
use std::io;

/// One row's clauses of one domain group, and where they go ([`DomainEncoding::encode_row`]).
pub struct RowClauses<'a> {
    /// Board size.
    pub n: usize,
    /// The group: an index into [`DomainEncoding::groups`].
    pub group: usize,
    /// The row.
    pub row: Row,
    /// The model's at-most-one encoding.
    pub amo: Amo,
    /// The allocator of auxiliary variables.
    pub alloc: &'a mut VarAlloc,
    /// Where the clauses go.
    pub sink: &'a mut dyn ClauseSink,
}

/// How the integer of each row is represented by Boolean variables: one file per encoding
/// (`direct.rs`, `order.rs`, `log.rs`) and an entry in [`DOMAINS`].
///
/// The variables of row `r` are the block of [`DomainEncoding::vars_per_row`] variables
/// starting at 0-based index `r * vars_per_row` ([`Row`]); auxiliary variables of the domain's
/// own clauses (an at-most-one) follow all the rows' blocks, taken from a [`VarAlloc`].
pub trait DomainEncoding: Sync + Send + 'static {
    /// The command-line name (`--domain NAME`).
    fn name(&self) -> &'static str;
    /// One line on the encoding, for help texts and listings.
    fn summary(&self) -> &'static str;
    /// `true` when the domain's clauses use the at-most-one encoding of `--amo`.
    fn uses_amo(&self) -> bool {
        false
    }
    /// Boolean variables per row.
    fn vars_per_row(&self, n: usize) -> usize;
    /// How many of a row's variables, from the first, determine its value and are determined
    /// by it (the row's part of the projection); all of them by default. A domain that
    /// channels two representations puts the one that determines the other first.
    fn projected_per_row(&self, n: usize) -> usize {
        self.vars_per_row(n)
    }
    /// `true` when the row's variable `c` is true exactly when the row's value is `c`, so that
    /// (with rows of `n` variables) DIMACS variable `r * n + c + 1` means a queen on cell
    /// (`r`, `c`), as in the cell model.
    fn cell_variables(&self) -> bool {
        false
    }
    /// The domain's clause groups in emission order, each with its size for one row (`vars`
    /// counts the auxiliary variables it takes per row); `None` when a count overflows.
    fn groups(&self, n: usize, amo: Amo) -> Option<Vec<DomainGroup>>;
    /// Emits the clauses of one group for one row ([`RowClauses`]).
    fn encode_row(&self, at: RowClauses<'_>) -> io::Result<()>;
    /// Appends the literals whose conjunction holds exactly when the row's value is `c`
    /// (given the domain's clauses).
    fn push_value_lits(&self, n: usize, row: Row, c: usize, out: &mut Vec<Lit>);
    /// The literal that is true exactly when the row's value is at least `c`, for
    /// `1 <= c <= n - 1`, in the domains that have one variable per bound (order, coupled);
    /// `None` in the others (the default). Constraint encodings that reason on intervals of
    /// values ([`hall`]) need it.
    fn bound_lit(&self, n: usize, row: Row, c: usize) -> Option<Lit> {
        let _ = (n, row, c);
        None
    }
    /// The number of literals [`DomainEncoding::push_value_lits`] appends for value `c`.
    fn value_lits_len(&self, n: usize, c: usize) -> u64;
    /// The row's value under an assignment (`val` gives a variable's value), or why the
    /// variables stand for no single column.
    fn decode_row(
        &self,
        n: usize,
        row: Row,
        val: &dyn Fn(Var) -> bool,
    ) -> Result<usize, ColumnDecodeError>;
    /// The name of the row's variable `p` (0-based within the row's block), 1-based inside:
    /// `x(2)=3`, `[x(2) >= 3]`, `x(2).bit1`.
    fn var_name(&self, n: usize, row: usize, p: usize) -> String;
    /// The meaning of the row's variable `p` in words.
    fn var_meaning(&self, n: usize, row: usize, p: usize) -> String;
    /// The DIMACS comment line that states the variable numbering (without `c `).
    fn numbering(&self, n: usize) -> String;
}

/// How the three all-different constraints (columns and both diagonals) are written: one
/// file per encoding (`conflict.rs`, `support.rs`) and an entry in [`CONSTRAINTS`].
pub trait ConstraintEncoding: Sync + Send + 'static {
    /// The command-line name (`--constraints NAME`).
    fn name(&self) -> &'static str;
    /// One line on the encoding, for help texts and listings.
    fn summary(&self) -> &'static str;
    /// The domains it works with (their names), or `None` for every domain.
    fn domains(&self) -> Option<&'static [&'static str]> {
        None
    }
    /// Its clause groups in emission order with their exact sizes; `None` when a count
    /// overflows.
    fn groups(
        &self,
        n: usize,
        geometry: Geometry,
        domain: &dyn DomainEncoding,
    ) -> Option<Vec<ConstraintGroup>>;
    /// Emits the clauses of group `group` (an index into [`ConstraintEncoding::groups`]),
    /// reading the rows' values through [`ColumnEncoder::push_value_lits`] (or their bounds
    /// through [`DomainEncoding::bound_lit`]); the group's auxiliary variables
    /// ([`ConstraintGroup::vars`]) are taken from `alloc`, in order.
    fn encode(
        &self,
        enc: &ColumnEncoder,
        group: usize,
        alloc: &mut VarAlloc,
        sink: &mut dyn ClauseSink,
    ) -> io::Result<()>;
}

/// The sums the constraints' sizes are made of, for `n >= 1` rows: the pairs of rows `C(n, 2)`,
/// and `S2 = (n-1) n (2n-1) / 6`, the sum of `d^2` over the distances `d` of `1..n`; `None`
/// when one overflows.
fn row_pairs(n: u64) -> Option<(u64, u64)> {
    let pairs = n.checked_mul(n - 1)? / 2;
    let s2 = (n - 1).checked_mul(n)?.checked_mul(2 * n - 1)? / 6;
    Some((pairs, s2))
}

/// The variables of one row's integer: a block of consecutive variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The row (0-based).
    pub index: usize,
    /// The 0-based index of its first variable.
    pub first: usize,
}

impl Row {
    /// The row's variable `i` (0-based within its block).
    pub fn var(&self, i: usize) -> Var {
        Var::from_index(self.first + i)
    }
}

/// A group of a domain's clauses, with its size for one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainGroup {
    /// Tag (`D1`, `D2`).
    pub tag: &'static str,
    /// What the clauses say, in words.
    pub meaning: String,
    /// The rule they enforce.
    pub rule: Rule,
    /// `true` when each row's clauses are labelled with the row ([`Label::line`]).
    pub label_rows: bool,
    /// Auxiliary variables, clauses and literals of one row.
    pub per_row: Size,
}

impl DomainGroup {
    /// A group of [`Rule::Domain`] clauses, the same in every row and not labelled with it,
    /// without auxiliary variables: `clauses` clauses of `literals` literals in all per row.
    pub fn domain(
        tag: &'static str,
        meaning: impl Into<String>,
        clauses: u64,
        literals: u64,
    ) -> DomainGroup {
        DomainGroup {
            tag,
            meaning: meaning.into(),
            rule: Rule::Domain,
            label_rows: false,
            per_row: Size {
                vars: 0,
                clauses,
                literals,
            },
        }
    }
}

/// A group of a constraint encoding's clauses, with its exact size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstraintGroup {
    /// Tag (`C1`, `C2`, `C3`, `S`).
    pub tag: &'static str,
    /// What the clauses say, in words.
    pub meaning: String,
    /// The rule they enforce.
    pub rule: Rule,
    /// Auxiliary variables (numbered after the domain's, group after group).
    pub vars: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences.
    pub literals: u64,
}

/// Every domain encoding, in the order `--domain` lists them.
pub static DOMAINS: &[&dyn DomainEncoding] =
    &[&direct::Direct, &order::Order, &log::Log, &coupled::Coupled];

/// Every constraint encoding, in the order `--constraints` lists them.
pub static CONSTRAINTS: &[&dyn ConstraintEncoding] =
    &[&conflict::Conflict, &support::Support, &hall::Hall];

super::catalogue_handle!(
    /// A domain encoding of the [`DOMAINS`] catalogue (`--domain`).
    Domain,
    DomainEncoding,
    DOMAINS,
    EncodeError::UnknownDomain
);

super::catalogue_handle!(
    /// A constraint encoding of the [`CONSTRAINTS`] catalogue (`--constraints`).
    Constraints,
    ConstraintEncoding,
    CONSTRAINTS,
    EncodeError::UnknownConstraints
);

impl Default for Domain {
    fn default() -> Self {
        Domain::DIRECT
    }
}

impl Default for Constraints {
    fn default() -> Self {
        Constraints::CONFLICT
    }
}

impl Domain {
    /// One variable per value: `x(r)=c`.
    pub const DIRECT: Domain = Domain(&direct::Direct);
    /// One variable per value bound: `[x(r) >= c]`.
    pub const ORDER: Domain = Domain(&order::Order);
    /// The 0-based value in binary.
    pub const LOG: Domain = Domain(&log::Log);
    /// The direct and the order encodings, channelled.
    pub const COUPLED: Domain = Domain(&coupled::Coupled);
}

impl Constraints {
    /// One clause per pair of conflicting values of two rows.
    pub const CONFLICT: Constraints = Constraints(&conflict::Conflict);
    /// One clause per value of a row and other row: its supports there (direct only).
    pub const SUPPORT: Constraints = Constraints(&support::Support);
    /// The Hall-interval decomposition of each all-different (order or coupled domain).
    pub const HALL: Constraints = Constraints(&hall::Hall);

    /// `true` when this constraint encoding works with `domain`.
    pub fn accepts(self, domain: Domain) -> bool {
        self.0
            .domains()
            .is_none_or(|names| names.contains(&domain.name()))
    }
}

/// `a, b or c`.
pub fn or_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The valid pairs of constraint and domain encodings, for messages: `support with direct;
/// conflict with direct, order or log`, in the order of the [`CONSTRAINTS`] catalogue, the
/// encodings limited to a single domain first.
pub fn valid_combinations() -> String {
    let mut parts: Vec<(bool, String)> = CONSTRAINTS
        .iter()
        .map(|c| {
            let domains: Vec<&str> = match c.domains() {
                Some(d) => d.to_vec(),
                None => DOMAINS.iter().map(|d| d.name()).collect(),
            };
            (
                c.domains().is_none_or(|d| d.len() != 1),
                format!("{} with {}", c.name(), or_list(&domains)),
            )
        })
        .collect();
    parts.sort_by_key(|p| p.0);
    parts
        .into_iter()
        .map(|p| p.1)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Options of the column model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColumnOptions {
    /// The domain encoding (default direct).
    pub domain: Domain,
    /// The constraint encoding (default conflict).
    pub constraints: Constraints,
    /// The at-most-one encoding of each row's values, for the domains that use one
    /// ([`DomainEncoding::uses_amo`]; default pairwise).
    pub amo: Amo,
}

impl Default for ColumnOptions {
    fn default() -> Self {
        ColumnOptions {
            domain: Domain::DIRECT,
            constraints: Constraints::CONFLICT,
            amo: Amo::PAIRWISE,
        }
    }
}

impl fmt::Display for ColumnOptions {
    /// `domain=direct, constraints=conflict, amo=pairwise` (the at-most-one only for domains
    /// that use one).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "domain={}, constraints={}",
            self.domain, self.constraints
        )?;
        if self.domain.encoding().uses_amo() {
            write!(f, ", amo={}", self.amo)?;
        }
        Ok(())
    }
}

impl ColumnOptions {
    /// The short name used in reports and file names: `columns-direct-pairwise`,
    /// `columns-order`, `columns-direct-support-pairwise`, `columns-order-support`, ...: the
    /// domain, the constraint encoding unless it is conflict (the default), and the
    /// at-most-one where the domain uses one.
    pub fn label(&self) -> String {
        let mut s = format!("columns-{}", self.domain);
        if self.constraints != Constraints::CONFLICT {
            s = format!("{s}-{}", self.constraints);
        }
        if self.domain.encoding().uses_amo() {
            s = format!("{s}-{}", self.amo);
        }
        s
    }
}

/// One group of clauses of the column model, with its exact size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnGroup {
    /// Tag: `D1`, `D2` (domain), `C1`, `C2`, `C3` (conflicts) or `S` (supports).
    pub tag: &'static str,
    /// What the clauses say, in words.
    pub meaning: String,
    /// Number of clauses.
    pub clauses: u64,
    /// Number of literal occurrences.
    pub literals: u64,
}

/// Who emits a group: the domain (its group index, and whether rows are labelled) or the
/// constraint encoding (its group index).
#[derive(Clone, Copy, Debug)]
enum Part {
    Domain(usize, bool),
    Constraint(usize),
}

/// The column-model encoder: a board size and the encoding options.
///
/// Groups, in order: the domain's (`D1`, and `D2` for direct), then the constraint
/// encoding's (`C1`, `C2`, `C3` for conflict, `S` for support). With the default options
/// (direct, conflict, pairwise) the clauses are those of the cell model's reference formula,
/// in another order.
#[derive(Clone, Debug)]
pub struct ColumnEncoder {
    n: usize,
    options: ColumnOptions,
    geometry: Geometry,
    per_row: usize,
    primary: u64,
    aux_per_row: u64,
    /// The constraint groups that take auxiliary variables: tag, meaning, 0-based index of
    /// the first, how many.
    constraint_aux: Vec<(&'static str, String, u64, u64)>,
    parts: Vec<(Part, Rule)>,
    groups: Vec<ColumnGroup>,
    size: Size,
}

impl ColumnEncoder {
    /// An encoder for the `n` x `n` board. Fails for `n = 0`, for a constraint encoding with
    /// a domain it does not work with (support needs direct), and when the formula would have
    /// more variables than the cell model's limit (the smaller of `i32::MAX` and varisat's
    /// `Var::max_count()`) or counts beyond 64 bits.
    pub fn new(n: usize, options: ColumnOptions) -> Result<Self, EncodeError> {
        ColumnEncoder::new_on(n, options, Geometry::Square)
    }

    /// An encoder for the `n` x `n` board of the given geometry. On the torus
    /// ([`Geometry::Toroidal`]) the diagonal constraints are modular: values `a` of row `r`
    /// and `b` of row `s > r` conflict when `b = a -+ (s - r) (mod n)`. The variables are the
    /// same as on the square board. Fails as [`ColumnEncoder::new`].
    pub fn new_on(
        n: usize,
        options: ColumnOptions,
        geometry: Geometry,
    ) -> Result<Self, EncodeError> {
        if n == 0 {
            return Err(EncodeError::Zero);
        }
        if !options.constraints.accepts(options.domain) {
            return Err(EncodeError::DomainNotAccepted {
                constraints: options.constraints.name(),
                needs: or_list(options.constraints.encoding().domains().unwrap_or(&[])),
                domain: options.domain.name(),
                valid: valid_combinations(),
            });
        }
        let max = super::max_vars();
        let too_many = |vars: u64| EncodeError::TooManyVars { n, vars, max };
        let overflow = || EncodeError::SizeOverflow {
            n,
            model: format!("{}/{} column model", options.domain, options.constraints),
        };
        let domain = options.domain.encoding();
        let per_row = domain.vars_per_row(n);
        let nn = n as u64;
        let primary = nn.checked_mul(per_row as u64).ok_or_else(overflow)?;
        // Checked before the at-most-one sizes, which are not computed with checked arithmetic.
        if primary > max {
            return Err(too_many(primary));
        }
        let mut parts = Vec::new();
        let mut groups = Vec::new();
        let mut size = Size::default();
        let mut aux_per_row = 0u64;
        let mut constraint_vars = Vec::new();
        for (i, g) in domain
            .groups(n, options.amo)
            .ok_or_else(overflow)?
            .into_iter()
            .enumerate()
        {
            aux_per_row = aux_per_row
                .checked_add(g.per_row.vars)
                .ok_or_else(overflow)?;
            parts.push((Part::Domain(i, g.label_rows), g.rule));
            groups.push(ColumnGroup {
                tag: g.tag,
                meaning: g.meaning,
                clauses: nn.checked_mul(g.per_row.clauses).ok_or_else(overflow)?,
                literals: nn.checked_mul(g.per_row.literals).ok_or_else(overflow)?,
            });
        }
        for (i, g) in options
            .constraints
            .encoding()
            .groups(n, geometry, domain)
            .ok_or_else(overflow)?
            .into_iter()
            .enumerate()
        {
            parts.push((Part::Constraint(i), g.rule));
            if g.vars > 0 {
                constraint_vars.push((g.tag, g.meaning.clone(), g.vars));
            }
            groups.push(ColumnGroup {
                tag: g.tag,
                meaning: g.meaning,
                clauses: g.clauses,
                literals: g.literals,
            });
        }
        for g in &groups {
            size.clauses = size.clauses.checked_add(g.clauses).ok_or_else(overflow)?;
            size.literals = size.literals.checked_add(g.literals).ok_or_else(overflow)?;
        }
        let aux = nn.checked_mul(aux_per_row).ok_or_else(overflow)?;
        size.vars = primary.checked_add(aux).ok_or_else(overflow)?;
        let mut constraint_aux = Vec::new();
        for (tag, meaning, vars) in constraint_vars {
            constraint_aux.push((tag, meaning, size.vars, vars));
            size.vars = size.vars.checked_add(vars).ok_or_else(overflow)?;
        }
        if size.vars > max {
            return Err(too_many(size.vars));
        }
        Ok(ColumnEncoder {
            n,
            options,
            geometry,
            per_row,
            primary,
            aux_per_row,
            constraint_aux,
            parts,
            groups,
            size,
        })
    }

    /// The same encoder on a board of the given geometry. Fails when a count no longer fits
    /// in 64 bits (the torus has more diagonal conflicts than the square).
    pub fn with_geometry(self, geometry: Geometry) -> Result<Self, EncodeError> {
        ColumnEncoder::new_on(self.n, self.options, geometry)
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The options.
    pub fn options(&self) -> &ColumnOptions {
        &self.options
    }

    /// The board's geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Exact variables (domain plus auxiliaries), clauses and literals of the formula, known
    /// without emitting it.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The number of domain variables: direct `n*n`, order `n(n-1)`, log `n ceil(log2 n)`.
    pub fn primary_vars(&self) -> u64 {
        self.primary
    }

    /// The 0-based index of the first auxiliary variable of the constraint encoding's groups
    /// (after the domain's variables and its at-most-one auxiliaries).
    pub fn constraint_aux_start(&self) -> usize {
        (self.primary + self.n as u64 * self.aux_per_row) as usize
    }

    /// The clause groups, in the order they are emitted, with their exact sizes.
    pub fn groups(&self) -> Vec<ColumnGroup> {
        self.groups.clone()
    }

    /// The domain variables that determine the rows' values (for most domains all of them,
    /// DIMACS `1..=primary_vars()`; [`DomainEncoding::projected_per_row`]): the models of the
    /// formula projected onto them are one-to-one with the solutions.
    pub fn projection(&self) -> Vec<Var> {
        let projected = self.options.domain.encoding().projected_per_row(self.n);
        (0..self.n)
            .flat_map(|r| (0..projected).map(move |i| (r, i)))
            .map(|(r, i)| self.row(r).var(i))
            .collect()
    }

    /// The variables of row `r`'s integer.
    pub fn row(&self, r: usize) -> Row {
        Row {
            index: r,
            first: r * self.per_row,
        }
    }

    /// Appends the literals of [`ColumnEncoder::value_lits`] to `out`.
    pub fn push_value_lits(&self, r: usize, c: usize, out: &mut Vec<Lit>) {
        self.options
            .domain
            .encoding()
            .push_value_lits(self.n, self.row(r), c, out);
    }

    /// A conjunction of literals that holds exactly when `x_r = c` (0-based), given the domain
    /// clauses: direct `[x(r)=c]`; order `[x(r) >= c]` (if `c > 0`) and `-[x(r) >= c+1]` (if
    /// `c < n-1`); log the `ceil(log2 n)` bits of `c`. Empty for `n = 1` with order and log.
    ///
    /// # Panics
    /// If `r` or `c` is not below `n`.
    pub fn value_lits(&self, r: usize, c: usize) -> Vec<Lit> {
        assert!(r < self.n && c < self.n, "row and column must be below n");
        let mut v = Vec::with_capacity(self.per_row.clamp(2, 64));
        self.push_value_lits(r, c, &mut v);
        v
    }

    /// Streams every clause into `sink`, group by group (each announced with
    /// [`ClauseSink::begin_group`]). Emits exactly [`ColumnEncoder::size`].
    pub fn encode<S: ClauseSink + ?Sized>(&self, sink: &mut S) -> io::Result<()> {
        self.encode_labelled(&mut super::Unlabelled(sink))
    }

    /// Like [`ColumnEncoder::encode`], also announcing each group's [`Label`] (and, for the
    /// groups that label rows, each row).
    pub fn encode_labelled<S: LabelSink + ?Sized>(&self, sink: &mut S) -> io::Result<()> {
        let n = self.n;
        let domain = self.options.domain.encoding();
        let mut alloc = VarAlloc::starting_at(self.primary as usize);
        for (&(part, rule), g) in self.parts.iter().zip(&self.groups) {
            sink.begin_group(&GroupInfo {
                tag: g.tag.to_string(),
                meaning: g.meaning.clone(),
            })?;
            sink.begin_label(&Label { rule, line: None })?;
            match part {
                Part::Domain(i, label_rows) => {
                    for r in 0..n {
                        if label_rows {
                            sink.begin_label(&Label {
                                rule,
                                line: Some(Line {
                                    kind: LineKind::Row,
                                    index: r,
                                }),
                            })?;
                        }
                        let mut s = &mut *sink;
                        domain.encode_row(RowClauses {
                            n,
                            group: i,
                            row: self.row(r),
                            amo: self.options.amo,
                            alloc: &mut alloc,
                            sink: &mut s,
                        })?;
                    }
                }
                Part::Constraint(i) => {
                    let mut s = &mut *sink;
                    self.options
                        .constraints
                        .encoding()
                        .encode(self, i, &mut alloc, &mut s)?;
                }
            }
        }
        debug_assert_eq!(alloc.used() as u64, self.size.vars);
        Ok(())
    }

    /// Reads the placement from the domain variables of `assignment` (`assignment[i]` is the
    /// value of the 0-based variable `i`; missing entries are false). Only the domain is
    /// checked (one value per row); whether queens attack each other is left to
    /// [`crate::board::check_placement`].
    pub fn decode(&self, assignment: &[bool]) -> Result<Placement, ColumnDecodeError> {
        let val = |v: Var| assignment.get(v.index()).copied().unwrap_or(false);
        let domain = self.options.domain.encoding();
        let cols = (0..self.n)
            .map(|r| domain.decode_row(self.n, self.row(r), &val))
            .collect::<Result<Vec<usize>, _>>()?;
        Ok(Placement::from_cols(&cols))
    }

    /// The row (0-based) and its 0-based position within the row's block of a domain variable
    /// (the column, the bound minus one, or the bit), or `None` for an auxiliary.
    fn domain_slot(&self, var: Var) -> Option<(usize, usize)> {
        let i = var.index();
        if (i as u64) >= self.primary {
            return None;
        }
        Some((i / self.per_row, i % self.per_row))
    }

    /// The row (0-based) and 1-based index within the row's block of a domain's auxiliary,
    /// or `None`.
    fn aux_slot(&self, var: Var) -> Option<(usize, u64)> {
        let i = var.index() as u64;
        if i < self.primary || i >= self.primary + self.n as u64 * self.aux_per_row {
            return None;
        }
        let j = i - self.primary;
        Some(((j / self.aux_per_row) as usize, j % self.aux_per_row + 1))
    }

    /// The constraint group (tag, meaning) and 1-based index within the group of a
    /// constraint encoding's auxiliary, or `None`.
    fn constraint_slot(&self, var: Var) -> Option<(&'static str, &str, u64)> {
        let i = var.index() as u64;
        self.constraint_aux
            .iter()
            .find(|(_, _, first, count)| (*first..first + count).contains(&i))
            .map(|(tag, meaning, first, _)| (*tag, meaning.as_str(), i - first + 1))
    }

    /// The name of a variable, 1-based: `x(2)=3` (direct), `[x(2) >= 3]` (order), `x(2).bit1`
    /// (log, bit 0 least significant), `s(x(2), 3)` (the third auxiliary of row 2's
    /// at-most-one, with the encoding's [`Amo::aux_symbol`]); `v17?` for a variable outside
    /// the formula.
    pub fn var_name(&self, var: Var) -> String {
        if let Some((r, p)) = self.domain_slot(var) {
            return self.options.domain.encoding().var_name(self.n, r, p);
        }
        if let Some((r, j)) = self.aux_slot(var) {
            return format!("{}(x({}), {})", self.options.amo.aux_symbol(), r + 1, j);
        }
        if let Some((tag, _, j)) = self.constraint_slot(var) {
            return format!("aux({tag}, {j})");
        }
        format!("v{}?", var.to_dimacs())
    }

    /// The meaning of a variable in words: "the queen of row 2 is in column 3", "the queen of
    /// row 2 is in column 3 or further right", "bit 1 (weight 2) of the 0-based column of row
    /// 2's queen", or the at-most-one auxiliary it is.
    pub fn var_meaning(&self, var: Var) -> String {
        if let Some((r, p)) = self.domain_slot(var) {
            return self.options.domain.encoding().var_meaning(self.n, r, p);
        }
        if let Some((r, j)) = self.aux_slot(var) {
            return format!(
                "auxiliary {j} of the {} at-most-one of row {}'s columns",
                self.options.amo,
                r + 1
            );
        }
        if let Some((tag, meaning, j)) = self.constraint_slot(var) {
            return format!("auxiliary {j} of group {tag} ({meaning})");
        }
        format!("variable {} is not part of this formula", var.to_dimacs())
    }

    /// Comment lines for a DIMACS header (without the leading `c `): the model, the options,
    /// the numbering rule, one `var K = NAME` line per domain variable when `n <= 10`, the
    /// auxiliary blocks, the projection and one `group TAG: meaning (K clauses)` per group.
    pub fn comment_lines(&self) -> Vec<String> {
        let n = self.n;
        let mut c = vec![
            format!(
                "column model of {n}-queens: x(r) = column of row r's queen; all x(r), all x(r)+r, all x(r)-r different"
            ),
            format!("encoding: {}", self.options),
        ];
        if self.geometry == Geometry::Toroidal {
            c.push(format!(
                "board: toroidal, diagonals wrap around the edges: all x(r)+r and all x(r)-r different mod {n}"
            ));
        }
        let rule = self.options.domain.encoding().numbering(n);
        c.push(if self.primary == 0 {
            format!("{rule}; none for n = 1")
        } else {
            format!("{rule}, for vars 1..{}", self.primary)
        });
        if n <= 10 {
            for v in (0..self.primary as usize).map(Var::from_index) {
                c.push(format!("var {} = {}", v.to_dimacs(), self.var_name(v)));
            }
        }
        if self.aux_per_row > 0 {
            for r in 0..n {
                let first = self.primary + r as u64 * self.aux_per_row + 1;
                c.push(format!(
                    "aux {}..{} = {} at-most-one of row {}'s columns; named {}(x({}), 1..{})",
                    first,
                    first + self.aux_per_row - 1,
                    self.options.amo,
                    r + 1,
                    self.options.amo.aux_symbol(),
                    r + 1,
                    self.aux_per_row
                ));
            }
        }
        for (tag, meaning, first, count) in &self.constraint_aux {
            c.push(format!(
                "aux {}..{} = auxiliaries of group {tag} ({meaning}); named aux({tag}, 1..{count})",
                first + 1,
                first + count
            ));
        }
        let projection = self.projection();
        if projection.len() as u64 == self.primary {
            c.push(format!(
                "projection: vars 1..{} (models projected on them are one-to-one with solutions)",
                self.primary
            ));
        } else {
            c.push(format!(
                "projection: the first {} vars of each row's {} (models projected on them are one-to-one with solutions)",
                self.options.domain.encoding().projected_per_row(self.n),
                self.per_row
            ));
        }
        for g in &self.groups {
            c.push(format!(
                "group {}: {} ({} clauses)",
                g.tag, g.meaning, g.clauses
            ));
        }
        c
    }
}

impl Encoding for ColumnEncoder {
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
        format!(
            "column model: one integer per row (the column of its queen), {}",
            self.options
        )
    }
    fn size(&self) -> Size {
        self.size
    }
    fn encode_labelled(&self, sink: &mut dyn LabelSink) -> io::Result<()> {
        ColumnEncoder::encode_labelled(self, sink)
    }
    fn push_value_lits(&self, r: usize, c: usize, out: &mut Vec<Lit>) {
        ColumnEncoder::push_value_lits(self, r, c, out)
    }
    fn decode(&self, assignment: &[bool]) -> Result<Placement, DecodeError> {
        Ok(ColumnEncoder::decode(self, assignment)?)
    }
    fn projection(&self) -> Vec<Var> {
        ColumnEncoder::projection(self)
    }
    fn var_name(&self, var: Var) -> String {
        ColumnEncoder::var_name(self, var)
    }
    fn var_meaning(&self, var: Var) -> String {
        ColumnEncoder::var_meaning(self, var)
    }
    fn header_comments(&self, command: Option<&str>) -> Vec<String> {
        let mut comments = super::header_start(self.n);
        if let Some(cmd) = command {
            comments.push(format!("command: {cmd}"));
        }
        comments.extend(self.comment_lines());
        comments
    }
    fn cell_variables(&self) -> bool {
        self.options.domain.encoding().cell_variables()
    }
    /// [`ColumnWords`]: every variable named and explained, the groups with their counts.
    fn words(&self) -> Box<dyn super::Words + '_> {
        Box::new(ColumnWords::new(self))
    }
}

#[cfg(test)]
mod tests;
