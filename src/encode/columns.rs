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
use crate::board::Placement;
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
        /// The limit ([`super::queens::max_vars`]).
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

fn plan(n: usize, options: &ColumnOptions, bits: usize) -> Option<Plan> {
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
            push(
                Kind::Slash,
                "C2",
                "the queens of two rows are on different / diagonals: x(r) + r != x(s) + s".into(),
                s2,
                ld,
            );
            push(
                Kind::Backslash,
                "C3",
                "the queens of two rows are on different \\ diagonals: x(r) - r != x(s) - s".into(),
                s2,
                ld,
            );
        }
        Constraints::Support => {
            // Per ordered row pair at distance d: n clauses with n^2 - 2(n-d) literals.
            let clauses = nn.checked_mul(nn)?.checked_mul(nn - 1)?;
            let literals = nn
                .checked_mul(nn)?
                .checked_mul(pairs)?
                .checked_sub(s2.checked_mul(2)?)?
                .checked_mul(2)?;
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
    /// [`super::queens::max_vars`] or counts beyond 64 bits.
    pub fn new(n: usize, options: ColumnOptions) -> Result<Self, ColumnError> {
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
        let p = plan(n, &options, bits).ok_or(overflow.clone())?;
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
            bits,
            primary,
            aux_per_row: p.aux_per_row,
            kinds: p.kinds,
            groups: p.groups,
            size,
        })
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The options.
    pub fn options(&self) -> &ColumnOptions {
        &self.options
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
        let n = self.n;
        let mut alloc = VarAlloc::starting_at(self.primary as usize);
        let mut buf: Vec<Lit> = Vec::with_capacity(n + 1);
        for (kind, g) in self.kinds.iter().zip(&self.groups) {
            sink.begin_group(&GroupInfo {
                tag: g.tag.to_string(),
                meaning: g.meaning.clone(),
            })?;
            match kind {
                Kind::DirectAlo | Kind::DirectAmo => {
                    for r in 0..n {
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
                                let b = match kind {
                                    Kind::Columns => Some(a),
                                    Kind::Slash => a.checked_sub(d),
                                    _ => Some(a + d).filter(|&b| b < n),
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
                            for a in 0..n {
                                buf.clear();
                                buf.push(self.direct_var(r, a).negative());
                                buf.extend(
                                    (0..n)
                                        .filter(|&b| b != a && b + d != a && a + d != b)
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
    /// [`crate::check::check_placement`].
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
