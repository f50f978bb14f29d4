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

use super::{Amo, Size, VarAlloc};
use crate::board::{Geometry, Placement};
use crate::cnf::{ClauseSink, GroupInfo, Lit, Var};
use std::fmt;
use std::io;

/// How the value of each row variable is represented by Boolean variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// One variable per value: `x(r)=c`.
    Direct,
    /// One variable per value bound: `[x(r) >= c]`, `c = 1..n-1`.
    Order,
    /// The 0-based value in binary, `ceil(log2 n)` bits.
    Log,
}

impl Domain {
    /// Every domain encoding, in the order of [`Domain::names`].
    pub const ALL: [Domain; 3] = [Domain::Direct, Domain::Order, Domain::Log];

    /// The names accepted by `FromStr` and shown by `Display`.
    pub fn names() -> [&'static str; 3] {
        ["direct", "order", "log"]
    }

    /// This encoding's name.
    pub fn name(self) -> &'static str {
        match self {
            Domain::Direct => "direct",
            Domain::Order => "order",
            Domain::Log => "log",
        }
    }
}

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Domain {
    type Err = ColumnError;

    /// `direct`, `order` or `log` (surrounding white space ignored).
    fn from_str(s: &str) -> Result<Self, ColumnError> {
        match s.trim() {
            "direct" => Ok(Domain::Direct),
            "order" => Ok(Domain::Order),
            "log" => Ok(Domain::Log),
            other => Err(ColumnError::UnknownDomain(other.to_string())),
        }
    }
}

/// How the three all-different constraints are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Constraints {
    /// One clause per pair of conflicting values of two rows.
    Conflict,
    /// One clause per value of a row and other row: the value's supports there (direct only).
    Support,
}

impl Constraints {
    /// Both constraint encodings, in the order of [`Constraints::names`].
    pub const ALL: [Constraints; 2] = [Constraints::Conflict, Constraints::Support];

    /// The names accepted by `FromStr` and shown by `Display`.
    pub fn names() -> [&'static str; 2] {
        ["conflict", "support"]
    }

    /// This encoding's name.
    pub fn name(self) -> &'static str {
        match self {
            Constraints::Conflict => "conflict",
            Constraints::Support => "support",
        }
    }
}

impl fmt::Display for Constraints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Constraints {
    type Err = ColumnError;

    /// `conflict` or `support` (surrounding white space ignored).
    fn from_str(s: &str) -> Result<Self, ColumnError> {
        match s.trim() {
            "conflict" => Ok(Constraints::Conflict),
            "support" => Ok(Constraints::Support),
            other => Err(ColumnError::UnknownConstraints(other.to_string())),
        }
    }
}

/// Options of the column model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColumnOptions {
    /// The domain encoding (default direct).
    pub domain: Domain,
    /// The constraint encoding (default conflict).
    pub constraints: Constraints,
    /// The at-most-one encoding of each row's values; used by the direct domain only
    /// (default pairwise).
    pub amo: Amo,
}

impl Default for ColumnOptions {
    fn default() -> Self {
        ColumnOptions {
            domain: Domain::Direct,
            constraints: Constraints::Conflict,
            amo: Amo::Pairwise,
        }
    }
}

impl fmt::Display for ColumnOptions {
    /// `domain=direct, constraints=conflict, amo=pairwise` (the at-most-one only for direct).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "domain={}, constraints={}",
            self.domain, self.constraints
        )?;
        if self.domain == Domain::Direct {
            write!(f, ", amo={}", self.amo)?;
        }
        Ok(())
    }
}

/// Why a column-model encoder could not be made, or an option not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColumnError {
    /// n = 0.
    #[error("n must be at least 1")]
    Zero,
    /// The support encoding was asked for with a domain other than direct.
    #[error(
        "the support encoding needs the direct domain, not {domain} \
         (valid: support with direct; conflict with direct, order or log)"
    )]
    SupportNeedsDirect {
        /// The domain that was asked for.
        domain: Domain,
    },
    /// More variables than DIMACS (32-bit signed literals) or the solver can number.
    #[error("n = {n} needs {vars} variables, more than the {max} a DIMACS file or the solver can number")]
    TooManyVars {
        /// Board size.
        n: usize,
        /// Variables needed.
        vars: u64,
        /// The limit: the smaller of `i32::MAX` and varisat's `Var::max_count()`.
        max: u64,
    },
    /// A clause or literal count does not fit in 64 bits.
    #[error("n = {n}: the number of clauses or literals of the {domain}/{constraints} column model does not fit in 64 bits")]
    SizeOverflow {
        /// Board size.
        n: usize,
        /// The domain encoding.
        domain: Domain,
        /// The constraint encoding.
        constraints: Constraints,
    },
    /// A domain name that is not one of [`Domain::names`].
    #[error("unknown domain encoding '{0}' (valid: direct, order, log)")]
    UnknownDomain(String),
    /// A constraint name that is not one of [`Constraints::names`].
    #[error("unknown constraint encoding '{0}' (valid: conflict, support)")]
    UnknownConstraints(String),
}

/// Why an assignment could not be read as a placement. Rows and columns are 0-based;
/// `Display` shows them 1-based.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColumnDecodeError {
    /// Direct domain: no value variable of the row is true.
    #[error("row {}: no column variable x({})=c is true", .row + 1, .row + 1)]
    NoValue {
        /// The row.
        row: usize,
    },
    /// Direct domain: two value variables of the row are true.
    #[error("row {}: two columns, {} and {}", .row + 1, .first + 1, .second + 1)]
    TwoValues {
        /// The row.
        row: usize,
        /// The smaller column.
        first: usize,
        /// The next true column.
        second: usize,
    },
    /// Order domain: `[x(row) >= value + 1]` is true but `[x(row) >= value]` is false.
    #[error(
        "row {}: inconsistent ladder, [x({}) >= {}] is true but [x({}) >= {}] is false",
        .row + 1, .row + 1, .value + 2, .row + 1, .value + 1
    )]
    BrokenLadder {
        /// The row.
        row: usize,
        /// The 0-based bound whose variable is false although the next one is true.
        value: usize,
    },
    /// Log domain: the bits spell a column outside the board.
    #[error("row {}: the bits spell column {}, outside 1..{n}", .row + 1, .value + 1)]
    OutOfRange {
        /// The row.
        row: usize,
        /// The 0-based value the bits spell.
        value: usize,
        /// Board size.
        n: usize,
    },
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

/// What a group's clauses are made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    DirectAlo,
    DirectAmo,
    OrderLadder,
    LogExcluded,
    Columns,
    Slash,
    Backslash,
    Support,
}

/// The column-model encoder: a board size and the encoding options.
///
/// Groups, in order: the domain's (`D1`, and `D2` for direct), then `C1`, `C2`, `C3`
/// (conflict) or `S` (support). With the default options (direct, conflict, pairwise) the
/// clauses are those of the cell model's reference formula, in another order.
#[derive(Clone, Debug)]
pub struct ColumnEncoder {
    n: usize,
    options: ColumnOptions,
    geometry: Geometry,
    /// `ceil(log2 n)`, the bits of the log domain.
    bits: usize,
    primary: u64,
    aux_per_row: u64,
    kinds: Vec<Kind>,
    groups: Vec<ColumnGroup>,
    size: Size,
}

/// `ceil(log2 n)` (0 for `n <= 1`).
fn ceil_log2(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

/// Exact group sizes with checked arithmetic; `None` on overflow.
struct Plan {
    kinds: Vec<Kind>,
    groups: Vec<ColumnGroup>,
    aux_per_row: u64,
}

fn plan(n: usize, options: &ColumnOptions, bits: usize, geometry: Geometry) -> Option<Plan> {
    let torus = geometry == Geometry::Toroidal;
    let nn = n as u64;
    let k = bits as u64;
    // Row pairs: C(n,2) = sum_{d=1}^{n-1} (n-d); S2 = sum_{d=1}^{n-1} (n-d)^2.
    let pairs = nn.checked_mul(nn - 1)? / 2;
    let s2 = (nn - 1).checked_mul(nn)?.checked_mul(2 * nn - 1)? / 6;
    let mut kinds = Vec::new();
    let mut groups = Vec::new();
    let mut aux_per_row = 0;
    let mut push = |kind: Kind, tag: &'static str, meaning: String, clauses: u64, literals: u64| {
        kinds.push(kind);
        groups.push(ColumnGroup {
            tag,
            meaning,
            clauses,
            literals,
        });
    };
    match options.domain {
        Domain::Direct => {
            push(
                Kind::DirectAlo,
                "D1",
                "every row's queen is in at least one column".into(),
                nn,
                nn.checked_mul(nn)?,
            );
            let amo = options.amo.size(n);
            aux_per_row = amo.vars;
            push(
                Kind::DirectAmo,
                "D2",
                format!(
                    "every row's queen is in at most one column ({} at-most-one)",
                    options.amo
                ),
                nn.checked_mul(amo.clauses)?,
                nn.checked_mul(amo.literals)?,
            );
        }
        Domain::Order => {
            let per_row = nn.saturating_sub(2);
            let clauses = nn.checked_mul(per_row)?;
            push(
                Kind::OrderLadder,
                "D1",
                "ladder: [x(r) >= c+1] implies [x(r) >= c]".into(),
                clauses,
                clauses.checked_mul(2)?,
            );
        }
        Domain::Log => {
            let excluded = 1u64.checked_shl(bits as u32)? - nn;
            let clauses = nn.checked_mul(excluded)?;
            push(
                Kind::LogExcluded,
                "D1",
                "the bit patterns of columns beyond n are excluded".into(),
                clauses,
                clauses.checked_mul(k)?,
            );
        }
    }
    match options.constraints {
        Constraints::Conflict => {
            let c1 = nn.checked_mul(pairs)?;
            // Literals of the value conjunctions: direct 1 each, log k each; order 2 for
            // inner values and 1 for the first and last (so 2(n-1) over a row's n values,
            // and 2(n-d) - 1 over the n-d values on either side of a diagonal conflict).
            let (l1, ld) = match options.domain {
                Domain::Direct => (c1.checked_mul(2)?, s2.checked_mul(2)?),
                Domain::Log => (
                    c1.checked_mul(2)?.checked_mul(k)?,
                    s2.checked_mul(2)?.checked_mul(k)?,
                ),
                Domain::Order => (
                    pairs.checked_mul(4)?.checked_mul(nn - 1)?,
                    s2.checked_mul(4)? - 2 * pairs,
                ),
            };
            push(
                Kind::Columns,
                "C1",
                "the queens of two rows are in different columns: x(r) != x(s)".into(),
                c1,
                l1,
            );
            if torus {
                // Every value a of row r conflicts with exactly one value (a -+ d mod n) of
                // row s on each diagonal, as with the columns: C2 and C3 are the size of C1
                // (the literals of the second value run over all n values as well).
                push(
                    Kind::Slash,
                    "C2",
                    "the queens of two rows are on different / diagonals: x(r) + r != x(s) + s (mod n)".into(),
                    c1,
                    l1,
                );
                push(
                    Kind::Backslash,
                    "C3",
                    "the queens of two rows are on different \\ diagonals: x(r) - r != x(s) - s (mod n)".into(),
                    c1,
                    l1,
                );
            } else {
                push(
                    Kind::Slash,
                    "C2",
                    "the queens of two rows are on different / diagonals: x(r) + r != x(s) + s"
                        .into(),
                    s2,
                    ld,
                );
                push(
                    Kind::Backslash,
                    "C3",
                    "the queens of two rows are on different \\ diagonals: x(r) - r != x(s) - s"
                        .into(),
                    s2,
                    ld,
                );
            }
        }
        Constraints::Support => {
            // Per ordered row pair at distance d: n clauses with n^2 - 2(n-d) literals.
            let clauses = nn.checked_mul(nn)?.checked_mul(nn - 1)?;
            let literals = if torus {
                // On the torus the values a, a - d, a + d (mod n) excluded for a are three
                // distinct ones, except at d = n/2 (n even) where a - d = a + d: so n - 2
                // supports (one literal more with the clause's head) per value and ordered
                // pair, plus one for each of the n * n clauses of distance n/2.
                let even = if nn.is_multiple_of(2) {
                    nn.checked_mul(nn)?
                } else {
                    0
                };
                nn.checked_mul(pairs)?
                    .checked_mul(2)?
                    .checked_mul(nn.saturating_sub(2))?
                    .checked_add(even)?
            } else {
                nn.checked_mul(nn)?
                    .checked_mul(pairs)?
                    .checked_sub(s2.checked_mul(2)?)?
                    .checked_mul(2)?
            };
            push(
                Kind::Support,
                "S",
                "every column of a row has a compatible column in every other row".into(),
                clauses,
                literals,
            );
        }
    }
    Some(Plan {
        kinds,
        groups,
        aux_per_row,
    })
}

impl ColumnEncoder {
    /// An encoder for the `n` x `n` board. Fails for `n = 0`, for the support encoding with a
    /// domain other than direct, and when the formula would have more variables than
    /// the cell model's limit (the smaller of `i32::MAX` and varisat's `Var::max_count()`) or
    /// counts beyond 64 bits.
    pub fn new(n: usize, options: ColumnOptions) -> Result<Self, ColumnError> {
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
    ) -> Result<Self, ColumnError> {
        if n == 0 {
            return Err(ColumnError::Zero);
        }
        if options.constraints == Constraints::Support && options.domain != Domain::Direct {
            return Err(ColumnError::SupportNeedsDirect {
                domain: options.domain,
            });
        }
        let max = super::queens::max_vars();
        let too_many = |vars: u64| ColumnError::TooManyVars { n, vars, max };
        let overflow = ColumnError::SizeOverflow {
            n,
            domain: options.domain,
            constraints: options.constraints,
        };
        let bits = ceil_log2(n);
        let nn = n as u64;
        let per_row = match options.domain {
            Domain::Direct => nn,
            Domain::Order => nn - 1,
            Domain::Log => bits as u64,
        };
        let primary = nn.checked_mul(per_row).ok_or(overflow.clone())?;
        // Checked before the at-most-one sizes, which are not computed with checked arithmetic.
        if primary > max {
            return Err(too_many(primary));
        }
        let p = plan(n, &options, bits, geometry).ok_or(overflow.clone())?;
        let aux = nn.checked_mul(p.aux_per_row).ok_or(overflow.clone())?;
        let vars = primary.checked_add(aux).ok_or(overflow.clone())?;
        if vars > max {
            return Err(too_many(vars));
        }
        let mut size = Size {
            vars,
            clauses: 0,
            literals: 0,
        };
        for g in &p.groups {
            size.clauses = size
                .clauses
                .checked_add(g.clauses)
                .ok_or(overflow.clone())?;
            size.literals = size
                .literals
                .checked_add(g.literals)
                .ok_or(overflow.clone())?;
        }
        Ok(ColumnEncoder {
            n,
            options,
            geometry,
            bits,
            primary,
            aux_per_row: p.aux_per_row,
            kinds: p.kinds,
            groups: p.groups,
            size,
        })
    }

    /// The same encoder on a board of the given geometry. Fails when a count no longer fits
    /// in 64 bits (the torus has more diagonal conflicts than the square).
    pub fn with_geometry(self, geometry: Geometry) -> Result<Self, ColumnError> {
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

    /// The clause groups, in the order they are emitted, with their exact sizes.
    pub fn groups(&self) -> Vec<ColumnGroup> {
        self.groups.clone()
    }

    /// The domain variables, DIMACS `1..=primary_vars()`: the models of the formula projected
    /// onto them are one-to-one with the solutions.
    pub fn projection(&self) -> Vec<Var> {
        (0..self.primary as usize).map(Var::from_index).collect()
    }

    fn direct_var(&self, r: usize, c: usize) -> Var {
        Var::from_index(r * self.n + c)
    }

    /// `[x(r) >= c]` for `c` in `1..n`.
    fn order_var(&self, r: usize, c: usize) -> Var {
        debug_assert!(c >= 1 && c < self.n);
        Var::from_index(r * (self.n - 1) + c - 1)
    }

    fn bit_var(&self, r: usize, b: usize) -> Var {
        Var::from_index(r * self.bits + b)
    }

    /// Appends the literals of [`ColumnEncoder::value_lits`] to `out`.
    fn push_value_lits(&self, r: usize, c: usize, out: &mut Vec<Lit>) {
        let n = self.n;
        match self.options.domain {
            Domain::Direct => out.push(self.direct_var(r, c).positive()),
            Domain::Order => {
                if c > 0 {
                    out.push(self.order_var(r, c).positive());
                }
                if c + 1 < n {
                    out.push(self.order_var(r, c + 1).negative());
                }
            }
            Domain::Log => {
                out.extend((0..self.bits).map(|b| self.bit_var(r, b).lit(c >> b & 1 == 1)));
            }
        }
    }

    /// A conjunction of literals that holds exactly when `x_r = c` (0-based), given the domain
    /// clauses: direct `[x(r)=c]`; order `[x(r) >= c]` (if `c > 0`) and `-[x(r) >= c+1]` (if
    /// `c < n-1`); log the `ceil(log2 n)` bits of `c`. Empty for `n = 1` with order and log.
    ///
    /// # Panics
    /// If `r` or `c` is not below `n`.
    pub fn value_lits(&self, r: usize, c: usize) -> Vec<Lit> {
        assert!(r < self.n && c < self.n, "row and column must be below n");
        let mut v = Vec::with_capacity(self.bits.max(2));
        self.push_value_lits(r, c, &mut v);
        v
    }

    /// Streams every clause into `sink`, group by group (each announced with
    /// [`ClauseSink::begin_group`]). Emits exactly [`ColumnEncoder::size`].
    pub fn encode<S: ClauseSink + ?Sized>(&self, sink: &mut S) -> io::Result<()> {
        self.encode_labelled(&mut super::Unlabelled(sink))
    }

    /// Like [`ColumnEncoder::encode`], also announcing each group's [`super::Label`] (and for the
    /// direct domain's clauses, each row).
    pub fn encode_labelled<S: super::LabelSink + ?Sized>(&self, sink: &mut S) -> io::Result<()> {
        use super::{Label, Rule};
        use crate::board::{Line, LineKind};
        let n = self.n;
        let mut alloc = VarAlloc::starting_at(self.primary as usize);
        let mut buf: Vec<Lit> = Vec::with_capacity(n + 1);
        for (kind, g) in self.kinds.iter().zip(&self.groups) {
            sink.begin_group(&GroupInfo {
                tag: g.tag.to_string(),
                meaning: g.meaning.clone(),
            })?;
            let rule = match kind {
                Kind::DirectAlo => Rule::AtLeastOne(LineKind::Row),
                Kind::DirectAmo => Rule::AtMostOne(LineKind::Row),
                Kind::OrderLadder | Kind::LogExcluded => Rule::Domain,
                Kind::Columns => Rule::AtMostOne(LineKind::Column),
                Kind::Slash => Rule::AtMostOne(LineKind::Diagonal),
                Kind::Backslash => Rule::AtMostOne(LineKind::AntiDiagonal),
                Kind::Support => Rule::Support,
            };
            sink.begin_label(&Label { rule, line: None })?;
            match kind {
                Kind::DirectAlo | Kind::DirectAmo => {
                    for r in 0..n {
                        sink.begin_label(&Label {
                            rule,
                            line: Some(Line {
                                kind: LineKind::Row,
                                index: r,
                            }),
                        })?;
                        buf.clear();
                        buf.extend((0..n).map(|c| self.direct_var(r, c).positive()));
                        if *kind == Kind::DirectAlo {
                            sink.add_clause(&buf)?;
                        } else {
                            self.options.amo.encode(&buf, &mut alloc, sink)?;
                        }
                    }
                }
                Kind::OrderLadder => {
                    for r in 0..n {
                        for c in 1..n.saturating_sub(1) {
                            sink.add_clause(&[
                                self.order_var(r, c + 1).negative(),
                                self.order_var(r, c).positive(),
                            ])?;
                        }
                    }
                }
                Kind::LogExcluded => {
                    for r in 0..n {
                        for v in n..(1usize << self.bits) {
                            buf.clear();
                            buf.extend(
                                (0..self.bits).map(|b| self.bit_var(r, b).lit(v >> b & 1 == 0)),
                            );
                            sink.add_clause(&buf)?;
                        }
                    }
                }
                Kind::Columns | Kind::Slash | Kind::Backslash => {
                    for r1 in 0..n {
                        for r2 in r1 + 1..n {
                            let d = r2 - r1;
                            for a in 0..n {
                                let b = match (kind, self.geometry) {
                                    (Kind::Columns, _) => Some(a),
                                    (Kind::Slash, Geometry::Square) => a.checked_sub(d),
                                    (_, Geometry::Square) => Some(a + d).filter(|&b| b < n),
                                    (Kind::Slash, Geometry::Toroidal) => Some((a + n - d) % n),
                                    (_, Geometry::Toroidal) => Some((a + d) % n),
                                };
                                let Some(b) = b else { continue };
                                buf.clear();
                                self.push_value_lits(r1, a, &mut buf);
                                self.push_value_lits(r2, b, &mut buf);
                                for l in buf.iter_mut() {
                                    *l = !*l;
                                }
                                sink.add_clause(&buf)?;
                            }
                        }
                    }
                }
                Kind::Support => {
                    for r in 0..n {
                        for s in (0..n).filter(|&s| s != r) {
                            let d = r.abs_diff(s);
                            let torus = self.geometry == Geometry::Toroidal;
                            for a in 0..n {
                                buf.clear();
                                buf.push(self.direct_var(r, a).negative());
                                buf.extend(
                                    (0..n)
                                        .filter(|&b| {
                                            if torus {
                                                b != a && b != (a + n - d) % n && b != (a + d) % n
                                            } else {
                                                b != a && b + d != a && a + d != b
                                            }
                                        })
                                        .map(|b| self.direct_var(s, b).positive()),
                                );
                                sink.add_clause(&buf)?;
                            }
                        }
                    }
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
        let n = self.n;
        let val = |v: Var| assignment.get(v.index()).copied().unwrap_or(false);
        let mut cols = Vec::with_capacity(n);
        for r in 0..n {
            let c = match self.options.domain {
                Domain::Direct => {
                    let mut true_cols = (0..n).filter(|&c| val(self.direct_var(r, c)));
                    let first = true_cols
                        .next()
                        .ok_or(ColumnDecodeError::NoValue { row: r })?;
                    if let Some(second) = true_cols.next() {
                        return Err(ColumnDecodeError::TwoValues {
                            row: r,
                            first,
                            second,
                        });
                    }
                    first
                }
                Domain::Order => {
                    // The value is the number of true bounds when they form a prefix.
                    let mut value = 0;
                    for c in 1..n {
                        if val(self.order_var(r, c)) {
                            if value + 1 != c {
                                return Err(ColumnDecodeError::BrokenLadder {
                                    row: r,
                                    value: c - 1,
                                });
                            }
                            value = c;
                        }
                    }
                    value
                }
                Domain::Log => {
                    let value = (0..self.bits)
                        .filter(|&b| val(self.bit_var(r, b)))
                        .map(|b| 1usize << b)
                        .sum();
                    if value >= n {
                        return Err(ColumnDecodeError::OutOfRange { row: r, value, n });
                    }
                    value
                }
            };
            cols.push(c);
        }
        Ok(Placement::from_cols(&cols))
    }

    /// The row (0-based) and its 0-based position within the row's block of a domain variable
    /// (the column, the bound minus one, or the bit), or `None` for an auxiliary.
    fn domain_slot(&self, var: Var) -> Option<(usize, usize)> {
        let i = var.index();
        if (i as u64) >= self.primary {
            return None;
        }
        let per_row = (self.primary / self.n as u64) as usize;
        Some((i / per_row, i % per_row))
    }

    /// The row (0-based) and 1-based index within the row's block of a direct-domain
    /// auxiliary, or `None`.
    fn aux_slot(&self, var: Var) -> Option<(usize, u64)> {
        let i = var.index() as u64;
        if i < self.primary || i >= self.size.vars || self.aux_per_row == 0 {
            return None;
        }
        let j = i - self.primary;
        Some(((j / self.aux_per_row) as usize, j % self.aux_per_row + 1))
    }

    /// The name of a variable, 1-based: `x(2)=3` (direct), `[x(2) >= 3]` (order), `x(2).bit1`
    /// (log, bit 0 least significant), `s(x(2), 3)` (the third auxiliary of row 2's
    /// at-most-one, with the encoding's [`Amo::aux_symbol`]); `v17?` for a variable outside
    /// the formula.
    pub fn var_name(&self, var: Var) -> String {
        if let Some((r, p)) = self.domain_slot(var) {
            return match self.options.domain {
                Domain::Direct => format!("x({})={}", r + 1, p + 1),
                // 0-based bound p + 1 is column p + 2.
                Domain::Order => format!("[x({}) >= {}]", r + 1, p + 2),
                Domain::Log => format!("x({}).bit{}", r + 1, p),
            };
        }
        if let Some((r, j)) = self.aux_slot(var) {
            return format!("{}(x({}), {})", self.options.amo.aux_symbol(), r + 1, j);
        }
        format!("v{}?", var.to_dimacs())
    }

    /// The meaning of a variable in words: "the queen of row 2 is in column 3", "the queen of
    /// row 2 is in column 3 or further right", "bit 1 (weight 2) of the 0-based column of row
    /// 2's queen", or the at-most-one auxiliary it is.
    pub fn var_meaning(&self, var: Var) -> String {
        if let Some((r, p)) = self.domain_slot(var) {
            return match self.options.domain {
                Domain::Direct => format!("the queen of row {} is in column {}", r + 1, p + 1),
                Domain::Order => format!(
                    "the queen of row {} is in column {} or further right",
                    r + 1,
                    p + 2
                ),
                Domain::Log => format!(
                    "bit {p} (weight {}) of the 0-based column of row {}'s queen",
                    1u64 << p,
                    r + 1
                ),
            };
        }
        if let Some((r, j)) = self.aux_slot(var) {
            return format!(
                "auxiliary {j} of the {} at-most-one of row {}'s columns",
                self.options.amo,
                r + 1
            );
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
        let rule = match self.options.domain {
            Domain::Direct => format!(
                "variables: var (r-1)*{n} + c = x(r)=c, the queen of row r is in column c (1-based)"
            ),
            Domain::Order => format!(
                "variables: var (r-1)*{} + c - 1 = [x(r) >= c], the queen of row r is in column c or further right (c = 2..{n}, 1-based)",
                n - 1
            ),
            Domain::Log => format!(
                "variables: var (r-1)*{k} + b + 1 = x(r).bitb, bit b (weight 2^b, b = 0..{}) of the 0-based column of row r's queen",
                self.bits.saturating_sub(1),
                k = self.bits
            ),
        };
        c.push(if self.primary == 0 {
            format!("{rule}; none for n = 1")
        } else {
            format!("{rule}, for vars 1..{}", self.primary)
        });
        if n <= 10 {
            for v in self.projection() {
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
        c.push(format!(
            "projection: vars 1..{} (models projected on them are one-to-one with solutions)",
            self.primary
        ));
        for g in &self.groups {
            c.push(format!(
                "group {}: {} ({} clauses)",
                g.tag, g.meaning, g.clauses
            ));
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{check_placement, is_solution};
    use crate::cnf::CountingSink;
    use std::collections::HashSet;
    use varisat::{ExtendFormula, Solver};

    /// The published numbers of solutions for n = 1..10.
    const COUNTS: [usize; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

    fn opts(domain: Domain, constraints: Constraints, amo: Amo) -> ColumnOptions {
        ColumnOptions {
            domain,
            constraints,
            amo,
        }
    }

    /// Every valid combination: direct with every at-most-one and both constraint encodings,
    /// order and log with conflicts.
    fn combos() -> Vec<ColumnOptions> {
        let mut v = Vec::new();
        for constraints in Constraints::ALL {
            for amo in Amo::all() {
                v.push(opts(Domain::Direct, constraints, amo));
            }
        }
        v.push(opts(Domain::Order, Constraints::Conflict, Amo::Pairwise));
        v.push(opts(Domain::Log, Constraints::Conflict, Amo::Pairwise));
        v
    }

    fn enc(n: usize, o: ColumnOptions) -> ColumnEncoder {
        ColumnEncoder::new(n, o).unwrap()
    }

    /// Counts per announced group, and in total.
    #[derive(Default)]
    struct GroupCounter {
        total: CountingSink,
        groups: Vec<(String, u64, u64)>,
    }

    impl ClauseSink for GroupCounter {
        fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
            let g = self.groups.last_mut().expect("clause before any group");
            g.1 += 1;
            g.2 += clause.len() as u64;
            self.total.add_clause(clause)
        }
        fn begin_group(&mut self, group: &GroupInfo) -> io::Result<()> {
            self.groups.push((group.tag.clone(), 0, 0));
            Ok(())
        }
    }

    fn binom(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    /// The cell model's reference clause count (rows ALO, rows/columns/diagonals pairwise).
    fn reference_clauses(n: u64) -> u64 {
        n + 2 * n * binom(n, 2) + 2 * (2 * binom(n + 1, 3) - binom(n, 2))
    }

    #[test]
    fn emitted_sizes_equal_size_and_groups() {
        let cases = [(Geometry::Square, 60), (Geometry::Toroidal, 40)];
        for (o, (geometry, max)) in combos().into_iter().flat_map(|o| cases.map(|c| (o, c))) {
            for n in 1..=max {
                let e = ColumnEncoder::new_on(n, o, geometry).unwrap();
                assert_eq!(e.geometry(), geometry);
                let mut count = GroupCounter::default();
                e.encode(&mut count).unwrap();
                let size = e.size();
                assert_eq!(count.total.clauses, size.clauses, "{o} n={n}");
                assert_eq!(count.total.literals, size.literals, "{o} n={n}");
                assert_eq!(count.total.max_var, size.vars, "{o} n={n}");
                let groups: Vec<(String, u64, u64)> = e
                    .groups()
                    .into_iter()
                    .map(|g| (g.tag.to_string(), g.clauses, g.literals))
                    .collect();
                assert_eq!(count.groups, groups, "{o} n={n}");
                let tags: Vec<&str> = groups.iter().map(|g| g.0.as_str()).collect();
                let expected_tags: &[&str] = match (o.domain, o.constraints) {
                    (Domain::Direct, Constraints::Conflict) => &["D1", "D2", "C1", "C2", "C3"],
                    (Domain::Direct, Constraints::Support) => &["D1", "D2", "S"],
                    _ => &["D1", "C1", "C2", "C3"],
                };
                assert_eq!(tags, expected_tags);
                let per_row = match o.domain {
                    Domain::Direct => n,
                    Domain::Order => n - 1,
                    Domain::Log => ceil_log2(n),
                };
                assert_eq!(e.primary_vars(), (n * per_row) as u64);
                let aux = if o.domain == Domain::Direct {
                    n as u64 * o.amo.size(n).vars
                } else {
                    0
                };
                assert_eq!(size.vars, e.primary_vars() + aux, "{o} n={n}");
            }
        }
    }

    /// Direct + conflict + pairwise is the cell model's reference formula, clause for clause
    /// in number: the conflicts of C1, C2, C3 are the pairwise at-most-one of the columns and
    /// diagonals, D1 and D2 the rows.
    #[test]
    fn direct_pairwise_conflict_is_the_reference_size() {
        for n in 1..=60u64 {
            let e = enc(n as usize, ColumnOptions::default());
            let s = e.size();
            let clauses = reference_clauses(n);
            assert_eq!(s.clauses, clauses, "n={n}");
            assert_eq!(s.literals, n * n + 2 * (clauses - n), "n={n}");
            assert_eq!(s.vars, n * n);
        }
        assert_eq!(enc(8, ColumnOptions::default()).size().clauses, 736);
    }

    /// Direct + conflict + pairwise emits the very clauses of the cell model's reference
    /// formula (same variable numbers), as sets of literals.
    #[test]
    fn direct_pairwise_conflict_has_the_reference_clauses() {
        use crate::cnf::Cnf;
        use crate::encode::{EncodeOptions, QueensEncoder};
        let sorted = |f: &Cnf| {
            let mut v: Vec<Vec<Lit>> = f
                .iter()
                .map(|c| {
                    let mut c = c.to_vec();
                    c.sort();
                    c
                })
                .collect();
            v.sort();
            v
        };
        for n in 1..=12 {
            let mut ours = Cnf::new();
            enc(n, ColumnOptions::default()).encode(&mut ours).unwrap();
            let mut cells = Cnf::new();
            QueensEncoder::new(n, EncodeOptions::default())
                .unwrap()
                .encode(&mut cells)
                .unwrap();
            assert_eq!(sorted(&ours), sorted(&cells), "n={n}");
        }
    }

    /// Order: hand-expanded polynomials. Clauses: n(n-2) ladder + n C(n,2) + 2 S2 with
    /// S2 = (n-1)n(2n-1)/6, i.e. (7n^3 - 3n^2 - 10n)/6; literals: a value costs one literal at
    /// either end of the board and two inside, giving (14n^3 - 24n^2 + 4n)/3 (n >= 2).
    #[test]
    fn order_conflict_closed_form() {
        let o = opts(Domain::Order, Constraints::Conflict, Amo::Pairwise);
        assert_eq!(
            enc(1, o).size(),
            Size {
                vars: 0,
                clauses: 0,
                literals: 0
            }
        );
        for n in 2..=200u64 {
            let s = enc(n as usize, o).size();
            assert_eq!(s.vars, n * (n - 1), "n={n}");
            assert_eq!(s.clauses, (7 * n * n * n - 3 * n * n - 10 * n) / 6, "n={n}");
            assert_eq!(
                s.literals,
                (14 * n * n * n - 24 * n * n + 4 * n) / 3,
                "n={n}"
            );
        }
        // n = 4 by hand: ladder 4 * 2 = 8; C1 6 row pairs * 4 = 24; C2 = C3 = 1 + 4 + 9 = 14.
        // Literals: ladder 16; C1: per row pair values 1,2,2,1 twice = 12, * 6 = 72;
        // C2 and C3: distance 1 (3 pairs) 10, distance 2 (2 pairs) 6, distance 3 (1 pair) 2,
        // so 3*10 + 2*6 + 2 = 44 each.
        let s = enc(4, o).size();
        assert_eq!((s.vars, s.clauses, s.literals), (12, 60, 16 + 72 + 88));
    }

    /// Log: the conflicts are the reference formula without its row clauses, 2k literals each,
    /// plus n (2^k - n) excluded patterns of k literals.
    #[test]
    fn log_conflict_closed_form() {
        let o = opts(Domain::Log, Constraints::Conflict, Amo::Pairwise);
        for n in 1..=200u64 {
            let k = (0..).find(|&k| 1u64 << k >= n).unwrap();
            let conflicts = reference_clauses(n) - n - n * binom(n, 2);
            let excluded = n * ((1 << k) - n);
            let s = enc(n as usize, o).size();
            assert_eq!(s.vars, n * k, "n={n}");
            assert_eq!(s.clauses, excluded + conflicts, "n={n}");
            assert_eq!(s.literals, k * excluded + 2 * k * conflicts, "n={n}");
        }
        // n = 5 by hand: k = 3, 3 excluded patterns per row; C1 5*10 = 50, C2 = C3 = 30.
        let s = enc(5, o).size();
        assert_eq!((s.vars, s.clauses, s.literals), (15, 125, 45 + 110 * 6));
    }

    /// Support with pairwise rows: n + n C(n,2) domain clauses, n^2 (n-1) support clauses;
    /// value a at row distance d has n - 1 - [a >= d] - [a + d < n] supports, which sums to
    /// n^3 (n-1) - 2n(n-1)(2n-1)/3 support literals.
    #[test]
    fn support_closed_form() {
        let o = opts(Domain::Direct, Constraints::Support, Amo::Pairwise);
        for n in 1..=200u64 {
            let s = enc(n as usize, o).size();
            let support_lits = n * n * n * (n - 1) - 2 * n * (n - 1) * (2 * n - 1) / 3;
            assert_eq!(s.vars, n * n);
            assert_eq!(s.clauses, n + n * binom(n, 2) + n * n * (n - 1), "n={n}");
            assert_eq!(s.literals, n * n + n * n * (n - 1) + support_lits, "n={n}");
        }
        // n = 4, distance 1: supports 2, 1, 1, 2 -> 10 literals per ordered pair (4 clauses);
        // distance 2: 2, 2, 2, 2 -> 12; distance 3: 3, 2, 2, 3 -> 14.
        // Ordered pairs: 6, 4, 2 -> 60 + 48 + 28 = 136.
        let s = enc(4, o).size();
        assert_eq!(s.literals - 16 - 48, 136);
    }

    fn torus(n: usize, o: ColumnOptions) -> ColumnEncoder {
        ColumnEncoder::new_on(n, o, Geometry::Toroidal).unwrap()
    }

    /// On the torus every value has one conflict per row and diagonal direction: C2 and C3
    /// are the size of C1; supports by hand for n = 4 and 5.
    #[test]
    fn torus_closed_forms() {
        for o in combos() {
            for n in 1..=40 {
                let g = torus(n, o).groups();
                let sq = enc(n, o).groups();
                if o.constraints == Constraints::Conflict {
                    let c1 = g.iter().find(|g| g.tag == "C1").unwrap();
                    assert_eq!(c1, sq.iter().find(|g| g.tag == "C1").unwrap());
                    for tag in ["C2", "C3"] {
                        let c = g.iter().find(|g| g.tag == tag).unwrap();
                        assert_eq!(
                            (c.clauses, c.literals),
                            (c1.clauses, c1.literals),
                            "{o} n={n}"
                        );
                    }
                }
                // The domain's groups do not depend on the geometry.
                assert_eq!(g[0], sq[0]);
                assert_eq!(torus(n, o).size().vars, enc(n, o).size().vars);
            }
        }
        let o = opts(Domain::Direct, Constraints::Support, Amo::Pairwise);
        let support = |n| {
            let e = torus(n, o);
            e.groups().into_iter().find(|g| g.tag == "S").unwrap()
        };
        // n = 4: distance 1 and 3 exclude 3 values (1 support), distance 2 excludes 2
        // (a - 2 = a + 2 mod 4; 2 supports). Ordered pairs 6, 4, 2 of 4 clauses each:
        // 4 (6 * 2 + 4 * 3 + 2 * 2) = 112 literals.
        assert_eq!((support(4).clauses, support(4).literals), (48, 112));
        // n = 5: 2 supports everywhere: 5 * 20 clauses of 3 literals.
        assert_eq!((support(5).clauses, support(5).literals), (100, 300));
        // n = 2: no supports, unit clauses.
        assert_eq!((support(2).clauses, support(2).literals), (4, 4));
    }

    #[test]
    fn torus_projected_models_are_the_brute_force_solutions() {
        use crate::encode::torus_oracle::{brute_force_torus, enumerate_boards, A051906};
        for n in 1..=9 {
            let expected = brute_force_torus(n);
            assert_eq!(expected.len(), A051906[n - 1], "brute force, n={n}");
            for o in combos() {
                let e = torus(n, o);
                let found = enumerate_boards(solver_for(&e), e.size().vars, &e.projection(), |a| {
                    e.decode(a).unwrap()
                });
                assert_eq!(found, expected, "{o} n={n}");
            }
        }
    }

    #[test]
    fn torus_counts_are_a051906() {
        use crate::encode::torus_oracle::{enumerate_boards, A051906};
        for n in 1..=9 {
            let e = torus(n, ColumnOptions::default());
            let found = enumerate_boards(solver_for(&e), e.size().vars, &e.projection(), |a| {
                e.decode(a).unwrap()
            });
            assert_eq!(found.len(), A051906[n - 1], "n={n}");
        }
    }

    /// Every placement of n <= 5 on the torus, fixed through `value_lits` as assumptions:
    /// satisfiable exactly when it is a toroidal solution.
    #[test]
    fn torus_every_placement_sat_iff_solution() {
        use crate::board::check_placement_on;
        for o in combos() {
            for n in 1..=5usize {
                let e = torus(n, o);
                let mut solver = solver_for(&e);
                for code in 0..n.pow(n as u32) {
                    let cols: Vec<usize> = (0..n).map(|r| code / n.pow(r as u32) % n).collect();
                    let p = Placement::from_cols(&cols);
                    let assumptions: Vec<Lit> =
                        (0..n).flat_map(|r| e.value_lits(r, cols[r])).collect();
                    solver.assume(&assumptions);
                    let ok = check_placement_on(&p, Geometry::Toroidal).is_ok();
                    assert_eq!(solver.solve().unwrap(), ok, "{o} {}", p.to_one_line());
                }
            }
        }
    }

    #[test]
    fn torus_comment_lines() {
        let o = opts(Domain::Order, Constraints::Conflict, Amo::Pairwise);
        let c = torus(5, o).comment_lines();
        assert!(c.iter().any(|l| l.starts_with("board: toroidal")), "{c:#?}");
        // C2 = C3 = C1 = 5 * 10.
        assert!(c.iter().any(|l| l.starts_with("group C2:")
            && l.contains("(mod n)")
            && l.ends_with("(50 clauses)")));
        let square = enc(5, o);
        assert!(!square
            .comment_lines()
            .iter()
            .any(|l| l.contains("toroidal")));
        let back = torus(5, o).with_geometry(Geometry::Square).unwrap();
        assert_eq!(back.comment_lines(), square.comment_lines());
        let t = square.with_geometry(Geometry::Toroidal).unwrap();
        assert_eq!(t.geometry(), Geometry::Toroidal);
        // Variable names do not depend on the geometry.
        for i in 0..t.size().vars as usize {
            assert_eq!(
                t.var_name(Var::from_index(i)),
                back.var_name(Var::from_index(i))
            );
        }
    }

    /// A solver holding the formula and the variables of the projection.
    fn solver_for(e: &ColumnEncoder) -> Solver<'static> {
        let mut solver = Solver::new();
        e.encode(&mut solver).unwrap();
        solver
    }

    fn assignment_of(model: &[Lit], vars: u64) -> Vec<bool> {
        let mut a = vec![false; vars as usize];
        for l in model {
            if l.index() < a.len() {
                a[l.index()] = l.is_positive();
            }
        }
        a
    }

    /// All solutions by enumerating the models projected onto `projection()`.
    fn enumerate(e: &ColumnEncoder) -> Vec<Placement> {
        let mut solver = solver_for(e);
        let proj = e.projection();
        let mut found = Vec::new();
        while solver.solve().unwrap() {
            let a = assignment_of(&solver.model().unwrap(), e.size().vars);
            let p = e.decode(&a).unwrap();
            check_placement(&p).unwrap_or_else(|v| panic!("{}: {v}", e.options()));
            found.push(p);
            let block: Vec<Lit> = proj.iter().map(|&v| v.lit(!a[v.index()])).collect();
            if block.is_empty() {
                break; // nothing to project on (n = 1, order or log): one model
            }
            ExtendFormula::add_clause(&mut solver, &block);
        }
        found
    }

    #[test]
    fn projected_models_are_the_solutions() {
        for o in combos() {
            for n in 1..=8 {
                let e = enc(n, o);
                let found = enumerate(&e);
                assert_eq!(found.len(), COUNTS[n - 1], "{o} n={n}");
                let distinct: HashSet<_> = found.iter().cloned().collect();
                assert_eq!(distinct.len(), found.len(), "{o} n={n}");
            }
        }
    }

    #[test]
    fn projected_models_n9_n10() {
        for o in [
            ColumnOptions::default(),
            opts(Domain::Order, Constraints::Conflict, Amo::Pairwise),
            opts(Domain::Log, Constraints::Conflict, Amo::Pairwise),
            opts(Domain::Direct, Constraints::Support, Amo::Sequential),
        ] {
            for n in [9, 10] {
                assert_eq!(enumerate(&enc(n, o)).len(), COUNTS[n - 1], "{o} n={n}");
            }
        }
    }

    /// Fixing a solution's values as unit clauses leaves a satisfiable formula that decodes to
    /// that solution.
    #[test]
    fn value_lits_round_trip() {
        for o in combos() {
            for n in 1..=8 {
                let e = enc(n, o);
                let mut seen = 0;
                for sol in crate::board::solutions(n) {
                    let mut solver = solver_for(&e);
                    for r in 0..n {
                        for l in e.value_lits(r, sol.col(r)) {
                            ExtendFormula::add_clause(&mut solver, &[l]);
                        }
                    }
                    assert!(solver.solve().unwrap(), "{o} {}", sol.to_one_line());
                    let a = assignment_of(&solver.model().unwrap(), e.size().vars);
                    assert_eq!(e.decode(&a).unwrap(), sol, "{o}");
                    seen += 1;
                }
                assert_eq!(seen, COUNTS[n - 1]);
            }
        }
    }

    /// Every placement of n <= 5, fixed through `value_lits` as assumptions: satisfiable
    /// exactly when it is a solution.
    #[test]
    fn every_placement_sat_iff_solution() {
        for o in combos() {
            for n in 1..=5usize {
                let e = enc(n, o);
                let mut solver = solver_for(&e);
                let mut sat = 0;
                for code in 0..n.pow(n as u32) {
                    let cols: Vec<usize> = (0..n).map(|r| code / n.pow(r as u32) % n).collect();
                    let p = Placement::from_cols(&cols);
                    let assumptions: Vec<Lit> =
                        (0..n).flat_map(|r| e.value_lits(r, cols[r])).collect();
                    solver.assume(&assumptions);
                    let s = solver.solve().unwrap();
                    assert_eq!(s, is_solution(&p), "{o} {}", p.to_one_line());
                    sat += s as usize;
                }
                assert_eq!(sat, COUNTS[n - 1], "{o} n={n}");
            }
        }
    }

    /// The assignment that sets exactly the given DIMACS variables.
    fn set(vars: &[usize]) -> Vec<bool> {
        let mut a = vec![false; 64];
        for &v in vars {
            a[v - 1] = true;
        }
        a
    }

    #[test]
    fn decode_errors_name_the_row() {
        // Direct, n = 4: x(r,c) = 4(r-1) + c. Solution 2 4 1 3 = vars 2, 8, 9, 15.
        let d = enc(4, ColumnOptions::default());
        assert_eq!(
            d.decode(&set(&[2, 8, 9, 15])).unwrap().to_one_line(),
            "2 4 1 3"
        );
        let err = d.decode(&set(&[2, 9, 15])).unwrap_err();
        assert_eq!(err, ColumnDecodeError::NoValue { row: 1 });
        assert!(err.to_string().starts_with("row 2:"), "{err}");
        let err = d.decode(&set(&[2, 8, 9, 10, 12, 15])).unwrap_err();
        assert_eq!(
            err,
            ColumnDecodeError::TwoValues {
                row: 2,
                first: 0,
                second: 1
            }
        );
        assert_eq!(err.to_string(), "row 3: two columns, 1 and 2");
        // A shorter assignment reads as false.
        assert_eq!(
            d.decode(&[false, true]).unwrap_err(),
            ColumnDecodeError::NoValue { row: 1 }
        );

        // Order, n = 4: [x(r) >= c] = 3(r-1) + c - 1 for c = 2..4 (1-based columns).
        let o = enc(4, opts(Domain::Order, Constraints::Conflict, Amo::Pairwise));
        // 2 4 1 3: row 1 {1}, row 2 {4,5,6}, row 3 {}, row 4 {10,11}.
        assert_eq!(
            o.decode(&set(&[1, 4, 5, 6, 10, 11])).unwrap().to_one_line(),
            "2 4 1 3"
        );
        // Row 4 with [x(4) >= 3] but not [x(4) >= 2].
        let err = o.decode(&set(&[1, 4, 5, 6, 11])).unwrap_err();
        assert_eq!(err, ColumnDecodeError::BrokenLadder { row: 3, value: 1 });
        assert_eq!(
            err.to_string(),
            "row 4: inconsistent ladder, [x(4) >= 3] is true but [x(4) >= 2] is false"
        );

        // Log, n = 5: k = 3, bit b of row r = 3(r-1) + b + 1. Row 2 = 0b111 = 7 >= 5.
        let l = enc(5, opts(Domain::Log, Constraints::Conflict, Amo::Pairwise));
        let err = l.decode(&set(&[4, 5, 6])).unwrap_err();
        assert_eq!(
            err,
            ColumnDecodeError::OutOfRange {
                row: 1,
                value: 7,
                n: 5
            }
        );
        assert_eq!(
            err.to_string(),
            "row 2: the bits spell column 8, outside 1..5"
        );
        // 1 3 5 2 4 = 0-based 0 2 4 1 3: bits row 2 {2nd bit} = var 5, row 3 {3rd} = 9,
        // row 4 {1st} = 10, row 5 {1st, 2nd} = 13, 14.
        assert_eq!(
            l.decode(&set(&[5, 9, 10, 13, 14])).unwrap().to_one_line(),
            "1 3 5 2 4"
        );
    }

    /// Names and meanings by hand from the numbering rules.
    #[test]
    fn var_names_by_hand() {
        let v = |k: usize| Var::from_dimacs(k as isize);
        let d = enc(4, ColumnOptions::default());
        assert_eq!(d.var_name(v(7)), "x(2)=3");
        assert_eq!(d.var_meaning(v(7)), "the queen of row 2 is in column 3");
        assert_eq!(d.var_name(v(16)), "x(4)=4");
        assert_eq!(d.var_name(v(17)), "v17?");

        // Sequential at-most-one over 4 values: 3 auxiliaries per row, 17..28.
        let s = enc(
            4,
            opts(Domain::Direct, Constraints::Conflict, Amo::Sequential),
        );
        assert_eq!(s.var_name(v(17)), "s(x(1), 1)");
        assert_eq!(s.var_name(v(22)), "s(x(2), 3)");
        assert_eq!(s.var_name(v(28)), "s(x(4), 3)");
        assert_eq!(
            s.var_meaning(v(22)),
            "auxiliary 3 of the sequential at-most-one of row 2's columns"
        );
        assert_eq!(s.var_name(v(29)), "v29?");

        let o = enc(4, opts(Domain::Order, Constraints::Conflict, Amo::Pairwise));
        assert_eq!(o.var_name(v(1)), "[x(1) >= 2]");
        assert_eq!(o.var_name(v(3)), "[x(1) >= 4]");
        assert_eq!(o.var_name(v(4)), "[x(2) >= 2]");
        assert_eq!(
            o.var_meaning(v(4)),
            "the queen of row 2 is in column 2 or further right"
        );
        assert_eq!(o.var_name(v(13)), "v13?");
        let o6 = enc(6, opts(Domain::Order, Constraints::Conflict, Amo::Pairwise));
        assert_eq!(o6.var_name(v(7)), "[x(2) >= 3]");

        let l = enc(5, opts(Domain::Log, Constraints::Conflict, Amo::Pairwise));
        assert_eq!(l.var_name(v(1)), "x(1).bit0");
        assert_eq!(l.var_name(v(5)), "x(2).bit1");
        assert_eq!(
            l.var_meaning(v(5)),
            "bit 1 (weight 2) of the 0-based column of row 2's queen"
        );
        assert_eq!(l.var_name(v(15)), "x(5).bit2");
        assert_eq!(l.var_name(v(16)), "v16?");
    }

    #[test]
    fn every_variable_has_a_distinct_name() {
        for o in combos() {
            for n in 1..=9 {
                let e = enc(n, o);
                let names: HashSet<String> = (0..e.size().vars as usize)
                    .map(|i| e.var_name(Var::from_index(i)))
                    .collect();
                assert_eq!(names.len() as u64, e.size().vars, "{o} n={n}");
                assert!(names.iter().all(|s| !s.ends_with('?')), "{o} n={n}");
            }
        }
    }

    #[test]
    fn value_lits_by_hand() {
        let p = |k: isize| Lit::from_dimacs(k);
        let o = enc(4, opts(Domain::Order, Constraints::Conflict, Amo::Pairwise));
        // Row 2: vars 4, 5, 6 = [x >= 2], [x >= 3], [x >= 4].
        assert_eq!(o.value_lits(1, 0), [p(-4)]);
        assert_eq!(o.value_lits(1, 1), [p(4), p(-5)]);
        assert_eq!(o.value_lits(1, 3), [p(6)]);
        let l = enc(5, opts(Domain::Log, Constraints::Conflict, Amo::Pairwise));
        assert_eq!(l.value_lits(1, 3), [p(4), p(5), p(-6)]);
        assert_eq!(enc(4, ColumnOptions::default()).value_lits(2, 1), [p(10)]);
        assert!(
            enc(1, opts(Domain::Log, Constraints::Conflict, Amo::Pairwise))
                .value_lits(0, 0)
                .is_empty()
        );
    }

    #[test]
    fn comment_lines_list_variables_and_groups() {
        let e = enc(6, opts(Domain::Order, Constraints::Conflict, Amo::Pairwise));
        let c = e.comment_lines();
        assert!(c.iter().any(|l| l == "var 7 = [x(2) >= 3]"), "{c:#?}");
        assert_eq!(c.iter().filter(|l| l.starts_with("var ")).count(), 30);
        // Ladder 6 * 4 = 24; C1 6 * 15 = 90; C2 = C3 = 1 + 4 + 9 + 16 + 25 = 55.
        for g in [
            "group D1: ladder: [x(r) >= c+1] implies [x(r) >= c] (24 clauses)",
            "group C1: the queens of two rows are in different columns: x(r) != x(s) (90 clauses)",
        ] {
            assert!(c.iter().any(|l| l == g), "{g} in {c:#?}");
        }
        assert!(c
            .iter()
            .any(|l| l.starts_with("group C3:") && l.ends_with("(55 clauses)")));
        let s = enc(
            4,
            opts(Domain::Direct, Constraints::Support, Amo::Sequential),
        );
        let c = s.comment_lines();
        assert!(c.iter().any(|l| l == "var 6 = x(2)=2"));
        assert!(c
            .iter()
            .any(|l| l
                == "aux 20..22 = sequential at-most-one of row 2's columns; named s(x(2), 1..3)"));
        assert!(c
            .iter()
            .any(|l| l.starts_with("group S:") && l.ends_with("(48 clauses)")));
        let big = enc(11, ColumnOptions::default()).comment_lines();
        assert!(!big.iter().any(|l| l.starts_with("var ")));
    }

    #[test]
    fn options_parse_display_and_errors() {
        for d in Domain::ALL {
            assert_eq!(d.to_string().parse::<Domain>(), Ok(d));
        }
        for c in Constraints::ALL {
            assert_eq!(c.to_string().parse::<Constraints>(), Ok(c));
        }
        assert_eq!(Domain::names(), ["direct", "order", "log"]);
        let err = "binary".parse::<Domain>().unwrap_err();
        assert!(err.to_string().contains("direct, order, log"), "{err}");
        let err = "clauses".parse::<Constraints>().unwrap_err();
        assert!(err.to_string().contains("conflict, support"), "{err}");
        assert_eq!(
            ColumnOptions::default(),
            opts(Domain::Direct, Constraints::Conflict, Amo::Pairwise)
        );

        assert_eq!(
            ColumnEncoder::new(0, ColumnOptions::default()).unwrap_err(),
            ColumnError::Zero
        );
        for domain in [Domain::Order, Domain::Log] {
            let err = ColumnEncoder::new(5, opts(domain, Constraints::Support, Amo::Pairwise))
                .unwrap_err();
            assert_eq!(err, ColumnError::SupportNeedsDirect { domain });
            assert!(err.to_string().contains("direct"), "{err}");
        }
        // varisat numbers at most 2^28 variables: order with n = 16384 has 16384 * 16383 of
        // them (fits), n = 16385 one row's worth more (does not).
        let order = opts(Domain::Order, Constraints::Conflict, Amo::Pairwise);
        assert!(ColumnEncoder::new(16384, order).is_ok());
        assert!(matches!(
            ColumnEncoder::new(16385, order),
            Err(ColumnError::TooManyVars {
                vars: 268_451_840,
                ..
            })
        ));
        assert!(matches!(
            ColumnEncoder::new(1 << 20, ColumnOptions::default()),
            Err(ColumnError::TooManyVars { .. })
        ));
        // Log with n = 2^22: 22 * 2^22 variables fit, but C1 alone has n C(n,2) > 2^64 clauses.
        let log = opts(Domain::Log, Constraints::Conflict, Amo::Pairwise);
        assert_eq!(
            ColumnEncoder::new(1 << 22, log).unwrap_err(),
            ColumnError::SizeOverflow {
                n: 1 << 22,
                domain: Domain::Log,
                constraints: Constraints::Conflict
            }
        );
    }
}
