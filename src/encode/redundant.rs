//! Redundant global constraints added to any model (`--redundant LIST`): facts that every
//! solution satisfies and that the model implies, stated over the whole board so that a
//! solver can use them where the model's local constraints only imply them through long
//! chains of reasoning.
//!
//! - **permutation**: every column holds exactly one queen. The cell model only says "at most
//!   one" of a column and the column model "all different"; with `n` rows holding one queen
//!   each, that every column holds one is a pigeonhole argument, hard for resolution.
//! - **diagonals**: exactly `n` diagonals of each direction are occupied. A diagonal's
//!   occupancy `o` is defined as the disjunction of its cells (`o -> OR cells`,
//!   `cell -> o`; the cell itself for a line of one cell), and "exactly `n` of the
//!   occupancies" is a cardinality constraint. On the torus there are `n` diagonals per
//!   direction, so every one is occupied (unit clauses).
//! - **sums**: over the queens, the sum of `r + c` is `n(n + 1)` and the sum of `r - c` is
//!   0 (rows and columns numbered 1..n): linear equalities that hold because every row and
//!   every column holds one queen, on the square and on the torus. Every model implies that
//!   each diagonal of the square (a line `r + c = v` or `r - c = v`; on the torus a part of a
//!   wrapped diagonal) holds at most one queen, so over the models the sum of `r + c` over
//!   the queens equals `sum over v of v * o(v)`, `o(v)` the occupancy of the line `r + c = v`
//!   (defined as for `diagonals`), and likewise for `r - c`. The encoding states the sums in
//!   that form: `sum over v = 2..2n of v o(v) = n(n + 1)` by a binary adder network
//!   ([`super::pb`]) whose output bits are fixed by unit clauses, and `sum over v > 0 of
//!   v o'(v) = sum over v > 0 of v o'(-v)` (the sum of `r - c` with its negative terms moved
//!   to the other side) by two networks whose output bits are tied pairwise. The formula's
//!   models are therefore exactly the model's (each satisfies the sums), and the
//!   occupancies and adder outputs, defined both ways, are functions of the cells: the count
//!   is kept. With `diagonals` on the square the two share the occupancies.
//! - **moments**: over the queens, `sum (r + c - n - 1)^2 + (r - c)^2 = n(n^2 - 1)/3` (1-based):
//!   a queen's two squared distances from the middle add up to twice those of its row and its
//!   column, which run through `1..n` once each ([`moments_total`]). Stated, as the sums, over
//!   the occupancies of the square's lines (each weighted by its squared distance, the two
//!   middle lines by 0) by one adder network whose output bits are fixed by unit clauses;
//!   the occupancies are those of `sums` or, on the square, of `diagonals` when either is
//!   there. This is the search's second-moment argument (docs/experiments.md) as a
//!   constraint for a solver.
//!
//! Both cardinality constraints use the totalizer ([`card::totalizer`], exactly `k`: both
//! directions of every node), whose auxiliaries are functions of its inputs, so the count is
//! kept: the models of the formula projected onto the model's projection are one-to-one with
//! the solutions, and, where the model alone keeps its count over all variables, so does the
//! model with these constraints.
//!
//! A cell is a literal of the model when [`Encoding::push_value_lits`] gives one literal
//! (the cell model, the direct and coupled domains); otherwise (order and log domains) it
//! gets an auxiliary `cell(r,c)` defined as the conjunction of its literals (group `R0`,
//! `L + 1` clauses and `3L + 1` literals for `L` literals; the unit `cell(1,1)` when `L = 0`,
//! n = 1).
//!
//! Sizes, with `T(m, k)` the totalizer's size for exactly `k` of `m` literals
//! ([`card::totalizer::size`]): permutation (group `RP`) `n T(n, 1)`; diagonals (group `RD`)
//! per direction, over lines of `L_i` cells, the occupancies of the lines with `L_i >= 2`
//! (one variable, `L_i + 1` clauses, `3 L_i + 1` literals each) and `T(lines, n)`: on the
//! square `2n - 3` occupancy variables, `n^2 + 2n - 5` clauses and `3n^2 + 2n - 9` literals
//! per direction (n >= 2; the two corners are lines of one cell), plus `T(2n - 1, n)`.
//!
//! Moments (group `RM`): [`moments_size`], the occupancies (unless shared) and one adder
//! network over the `4n - 4` lines of non-zero weight.
//!
//! Sums (group `RS`): [`sums_size`], the occupancies (as for `diagonals`, unless shared)
//! and adder networks over `2n - 1` terms per direction, `O(n log n)`: at n = 60, 100, 200,
//! 1,692, 3,084 and 7,000 auxiliaries (the occupancies included); a test compares it with
//! what is emitted for n = 1..40.
//!
//! The variables are numbered after the model's: the cell variables first, then each group's
//! in order.

use super::card::{self, Cardinality, Kind};
use super::pb;
use super::{DecodeError, Encoding, Label, LabelSink, Rule, Size, VarAlloc};
use crate::board::{Geometry, LineKind, Placement};
use crate::cnf::{GroupInfo, Lit, Var};
use std::fmt;
use std::io;
use std::str::FromStr;
use std::sync::Arc;

/// One redundant constraint of `--redundant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Redundant {
    /// Every column holds exactly one queen.
    Permutation,
    /// Exactly `n` diagonals of each direction are occupied.
    Diagonals,
    /// The sums of `r + c` and of `r - c` over the queens are `n(n + 1)` and 0.
    Sums,
    /// The squared distances of the queens' diagonals from the middle add up to
    /// `n(n^2 - 1)/3`: over the queens, `sum (r + c - n - 1)^2 + (r - c)^2` (1-based).
    Moments,
}

impl Redundant {
    /// Every redundant constraint, in the order they are emitted.
    pub const ALL: [Redundant; 4] = [
        Redundant::Permutation,
        Redundant::Diagonals,
        Redundant::Sums,
        Redundant::Moments,
    ];

    /// The name in `--redundant`.
    pub fn name(self) -> &'static str {
        match self {
            Redundant::Permutation => "permutation",
            Redundant::Diagonals => "diagonals",
            Redundant::Sums => "sums",
            Redundant::Moments => "moments",
        }
    }

    /// What it says, in words.
    pub fn summary(self) -> &'static str {
        match self {
            Redundant::Permutation => "every column holds exactly one queen",
            Redundant::Diagonals => "exactly n diagonals of each direction are occupied",
            Redundant::Sums => {
                "over the queens, the sum of r + c is n(n + 1) and the sum of r - c is 0 (1-based)"
            }
            Redundant::Moments => {
                "over the queens, the sum of (r + c - n - 1)^2 + (r - c)^2 is n(n^2 - 1)/3 (1-based)"
            }
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of redundant constraints (empty by default): `permutation,diagonals,sums`, `none`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RedundantSet(u8);

impl RedundantSet {
    /// No redundant constraint.
    pub const NONE: RedundantSet = RedundantSet(0);

    /// `true` when no constraint is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` when `r` is in the set.
    pub fn contains(self, r: Redundant) -> bool {
        self.0 & r.bit() != 0
    }

    /// The set with `r` added.
    pub fn with(self, r: Redundant) -> RedundantSet {
        RedundantSet(self.0 | r.bit())
    }

    /// The constraints of the set, in the order of [`Redundant::ALL`].
    pub fn iter(self) -> impl Iterator<Item = Redundant> {
        Redundant::ALL
            .into_iter()
            .filter(move |&r| self.contains(r))
    }
}

/// A name in `--redundant` that is not a redundant constraint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown redundant constraint '{0}' (valid: permutation, diagonals, sums, moments, none)")]
pub struct UnknownRedundant(pub String);

impl FromStr for RedundantSet {
    type Err = UnknownRedundant;
    /// Names separated by commas; `none` (or nothing) for the empty set.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut set = RedundantSet::NONE;
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name == "none" {
                continue;
            }
            let r = Redundant::ALL
                .into_iter()
                .find(|r| r.name() == name)
                .ok_or_else(|| UnknownRedundant(name.to_string()))?;
            set = set.with(r);
        }
        Ok(set)
    }
}

impl fmt::Display for RedundantSet {
    /// `permutation,diagonals,sums`, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.iter().map(Redundant::name).collect();
        f.write_str(&names.join(","))
    }
}

/// The cardinality encoding of the redundant constraints.
const CARD: card::totalizer::Totalizer = card::totalizer::Totalizer;

/// A group of the added clauses, with its exact size and its auxiliaries' block.
#[derive(Clone, Debug)]
struct Group {
    tag: &'static str,
    meaning: String,
    rule: Rule,
    size: Size,
    first: u64,
}

/// A model with redundant constraints added: the model's clauses, then the groups `R0`
/// (cell variables, when needed), `RP` (permutation), `RD` (diagonals), `RS` (sums) and `RM`
/// (moments). Everything else
/// (the cells' literals, decoding, the projection) is the model's.
#[derive(Debug)]
pub struct WithRedundant {
    inner: Arc<dyn Encoding>,
    set: RedundantSet,
    /// Each cell's literals in the model (row-major).
    cells: Vec<Vec<Lit>>,
    groups: Vec<Group>,
    size: Size,
}

/// `None` when a count overflows.
fn grow(total: &mut Size, add: Size) -> Option<()> {
    total.vars = total.vars.checked_add(add.vars)?;
    total.clauses = total.clauses.checked_add(add.clauses)?;
    total.literals = total.literals.checked_add(add.literals)?;
    Some(())
}

/// The cells of every diagonal of one direction, by the geometry's index.
fn diagonals(n: usize, geometry: Geometry, kind: LineKind) -> Vec<Vec<usize>> {
    let mut lines = vec![Vec::new(); crate::board::Line::count_on(kind, n, geometry)];
    for r in 0..n {
        for c in 0..n {
            let i = match kind {
                LineKind::Diagonal => geometry.diagonal(n, r, c),
                _ => geometry.anti_diagonal(n, r, c),
            };
            lines[i].push(r * n + c);
        }
    }
    lines
}

/// The square's diagonals of one direction, as the sums read them: for `plus`, the lines
/// `r + c = v` (`v = 2..=2n`, 1-based), else the lines `r - c = v` (`v = -(n - 1)..=n - 1`),
/// each with its cells (row-major indices).
pub(crate) fn sum_lines(n: usize, plus: bool) -> Vec<(i64, Vec<usize>)> {
    let mut lines: Vec<(i64, Vec<usize>)> = (0..2 * n as i64 - 1)
        .map(|i| (if plus { i + 2 } else { i - (n as i64 - 1) }, Vec::new()))
        .collect();
    for r in 0..n {
        for c in 0..n {
            let i = if plus { r + c } else { r + n - 1 - c };
            lines[i].1.push(r * n + c);
        }
    }
    lines
}

/// The size of `--redundant sums` on the `n` x `n` board (group `RS`, the cell variables
/// aside): per direction, the occupancies of the square's diagonals of two or more cells (as
/// for `diagonals`: `2n - 3` variables, `n^2 + 2n - 5` clauses, `3n^2 + 2n - 9` literals for
/// n >= 2; left out when `shared`, where `--redundant diagonals` has defined them on the
/// square), then the adder network of `sum (r + c) o = n(n + 1)` ([`pb::equal_to_size`] for
/// the coefficients `2..=2n`) and the two of `sum over r > c (r - c) o = sum over c > r
/// (c - r) o` ([`pb::equal_sums_size`], coefficients `1..n` on both sides).
pub fn sums_size(n: usize, shared: bool) -> Size {
    let mut size = Size::default();
    let mut add = |s: Size| {
        size.vars += s.vars;
        size.clauses += s.clauses;
        size.literals += s.literals;
    };
    for plus in [true, false] {
        let lines = sum_lines(n, plus);
        if !shared {
            for (_, line) in lines.iter().filter(|l| l.1.len() >= 2) {
                add(definition(line.len() as u64));
            }
        }
        if plus {
            let k = (n as u64) * (n as u64 + 1);
            add(
                pb::equal_to_size(lines.iter().map(|l| l.0 as u64), k).expect(
                    "n(n + 1) is the sum of r + c over a permutation, within the network's bits",
                ),
            );
        } else {
            let left = lines.iter().filter(|l| l.0 > 0).map(|l| l.0 as u64);
            let right = lines.iter().filter(|l| l.0 < 0).map(|l| (-l.0) as u64);
            add(pb::equal_sums_size(left, right));
        }
    }
    size
}

/// The square's lines of both directions with the weights of `--redundant moments`: the
/// squared distance from the middle, `(v - n - 1)^2` for the line `r + c = v` and `v^2` for
/// the line `r - c = v` (1-based), with the line's cells ([`sum_lines`]).
pub(crate) fn moment_lines(n: usize) -> Vec<(u64, Vec<usize>)> {
    let mut out = Vec::new();
    for plus in [true, false] {
        for (v, line) in sum_lines(n, plus) {
            let d = if plus { v - (n as i64 + 1) } else { v };
            out.push(((d * d) as u64, line));
        }
    }
    out
}

/// The sum of `--redundant moments` over the queens, `n(n^2 - 1)/3`: with `x = r - (n + 1)/2`
/// and `y = c - (n + 1)/2`, a queen's `(r + c - n - 1)^2 + (r - c)^2` is `2x^2 + 2y^2`, and
/// the rows and the columns each run through `1..n` once.
pub fn moments_total(n: usize) -> u64 {
    let n = n as u64;
    n * (n * n - 1) / 3
}

/// The size of `--redundant moments` on the `n` x `n` board (group `RM`, the cell variables
/// aside): the occupancies of the square's lines of two or more cells, both directions (left
/// out when `shared`, where `sums` or `diagonals` on the square has defined them), then the
/// adder network of `sum w o = n(n^2 - 1)/3` over the lines of non-zero weight
/// ([`pb::equal_to_size`]).
pub fn moments_size(n: usize, shared: bool) -> Size {
    let mut size = Size::default();
    let lines = moment_lines(n);
    if !shared {
        for (_, line) in lines.iter().filter(|l| l.1.len() >= 2) {
            grow(&mut size, definition(line.len() as u64)).expect("a few lines of n cells");
        }
    }
    let network = pb::equal_to_size(
        lines.iter().map(|l| l.0).filter(|&w| w > 0),
        moments_total(n),
    )
    .expect("n(n^2 - 1)/3 is the sum of the weights over a permutation, within the network's bits");
    grow(&mut size, network).expect("a network of O(n log n) gates");
    size
}

/// The occupancy of a line of the square with the literals `lits` (its cells): the one
/// literal of a line of one cell, the variable already defined for the same cells, or a new
/// variable `o` with `o -> OR lits` and `lit -> o` (remembered in `defined`).
fn occupancy_of(
    line: &[usize],
    lits: &[Lit],
    defined: &mut std::collections::HashMap<Vec<usize>, Lit>,
    alloc: &mut VarAlloc,
    sink: &mut dyn LabelSink,
) -> io::Result<Lit> {
    if lits.len() == 1 {
        return Ok(lits[0]);
    }
    if let Some(&o) = defined.get(line) {
        return Ok(o);
    }
    let o = alloc.fresh().positive();
    let mut some = vec![!o];
    some.extend(lits);
    sink.add_clause(&some)?;
    for &l in lits {
        sink.add_clause(&[!l, o])?;
    }
    defined.insert(line.to_vec(), o);
    Ok(o)
}

/// The size of a disjunction or conjunction of `l` literals defined by a new variable.
fn definition(l: u64) -> Size {
    Size {
        vars: 1,
        clauses: l + 1,
        literals: 3 * l + 1,
    }
}

impl WithRedundant {
    /// `inner` with the constraints of `set` added. Fails when a count overflows or the
    /// formula gets more variables than a DIMACS file can number.
    pub fn new(inner: Arc<dyn Encoding>, set: RedundantSet) -> Result<Self, super::EncodeError> {
        let n = inner.n();
        let overflow = || super::EncodeError::SizeOverflow {
            n,
            model: format!("{} with redundant {set}", inner.name()),
        };
        let mut cells = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                let mut v = Vec::new();
                inner.push_value_lits(r, c, &mut v);
                cells.push(v);
            }
        }
        let mut size = inner.size();
        let mut groups = Vec::new();
        let mut push = |tag, meaning: String, rule, add: Size, size: &mut Size| {
            let first = size.vars;
            grow(size, add)?;
            groups.push(Group {
                tag,
                meaning,
                rule,
                size: add,
                first,
            });
            Some(())
        };
        if !set.is_empty() {
            let mut defs = Size::default();
            for lits in cells.iter().filter(|l| l.len() != 1) {
                grow(&mut defs, definition(lits.len() as u64)).ok_or_else(overflow)?;
            }
            if defs.vars > 0 {
                push(
                    "R0",
                    "cell variables: cell(r,c) <-> the conjunction of the cell's literals".into(),
                    Rule::Domain,
                    defs,
                    &mut size,
                )
                .ok_or_else(overflow)?;
            }
        }
        if set.contains(Redundant::Permutation) {
            let one = CARD.size(n, 1, Kind::Exactly).map_err(|_| overflow())?;
            let mut add = Size::default();
            for _ in 0..n {
                grow(&mut add, one).ok_or_else(overflow)?;
            }
            push(
                "RP",
                "redundant: every column holds exactly one queen (totalizer)".into(),
                Rule::AtLeastOne(LineKind::Column),
                add,
                &mut size,
            )
            .ok_or_else(overflow)?;
        }
        if set.contains(Redundant::Diagonals) {
            let mut add = Size::default();
            for kind in [LineKind::Diagonal, LineKind::AntiDiagonal] {
                let lines = diagonals(n, inner.geometry(), kind);
                for line in lines.iter().filter(|l| l.len() >= 2) {
                    grow(&mut add, definition(line.len() as u64)).ok_or_else(overflow)?;
                }
                let count = CARD
                    .size(lines.len(), n, Kind::Exactly)
                    .map_err(|_| overflow())?;
                grow(&mut add, count).ok_or_else(overflow)?;
            }
            push(
                "RD",
                "redundant: exactly n diagonals of each direction are occupied (totalizer)".into(),
                Rule::AtLeastOne(LineKind::Diagonal),
                add,
                &mut size,
            )
            .ok_or_else(overflow)?;
        }
        if set.contains(Redundant::Sums) {
            push(
                "RS",
                "redundant: sum of r + c is n(n + 1), sum of r - c is 0 over the queens (adder networks)"
                    .into(),
                Rule::Sums,
                sums_size(
                    n,
                    set.contains(Redundant::Diagonals) && inner.geometry() == Geometry::Square,
                ),
                &mut size,
            )
            .ok_or_else(overflow)?;
        }
        if set.contains(Redundant::Moments) {
            let square = inner.geometry() == Geometry::Square;
            push(
                "RM",
                "redundant: sum of (r + c - n - 1)^2 + (r - c)^2 is n(n^2 - 1)/3 over the queens (adder network)"
                    .into(),
                Rule::Sums,
                moments_size(
                    n,
                    set.contains(Redundant::Sums)
                        || (set.contains(Redundant::Diagonals) && square),
                ),
                &mut size,
            )
            .ok_or_else(overflow)?;
        }
        let max = super::max_vars();
        if size.vars > max {
            return Err(super::EncodeError::TooManyVars {
                n,
                vars: size.vars,
                max,
            });
        }
        Ok(WithRedundant {
            inner,
            set,
            cells,
            groups,
            size,
        })
    }

    /// The redundant constraints added.
    pub fn set(&self) -> RedundantSet {
        self.set
    }

    /// The model the constraints are added to.
    pub fn inner(&self) -> &Arc<dyn Encoding> {
        &self.inner
    }

    /// The group of an added auxiliary variable, and its 1-based index in the group.
    fn slot(&self, var: Var) -> Option<(&Group, u64)> {
        let i = var.index() as u64;
        self.groups
            .iter()
            .find(|g| (g.first..g.first + g.size.vars).contains(&i))
            .map(|g| (g, i - g.first + 1))
    }
}

impl Encoding for WithRedundant {
    fn n(&self) -> usize {
        self.inner.n()
    }
    fn redundant(&self) -> RedundantSet {
        self.set
    }
    fn geometry(&self) -> Geometry {
        self.inner.geometry()
    }
    fn name(&self) -> String {
        format!(
            "{}+{}",
            self.inner.name(),
            self.set
                .iter()
                .map(Redundant::name)
                .collect::<Vec<_>>()
                .join("+")
        )
    }
    fn describe(&self) -> String {
        format!("{}, with redundant {}", self.inner.describe(), self.set)
    }
    fn size(&self) -> Size {
        self.size
    }
    fn encode_labelled(&self, sink: &mut dyn LabelSink) -> io::Result<()> {
        self.inner.encode_labelled(sink)?;
        let n = self.n();
        let mut alloc = VarAlloc::starting_at(self.inner.size().vars as usize);
        let mut cell = self
            .cells
            .iter()
            .map(|l| (l.len() == 1).then(|| l[0]))
            .collect::<Vec<_>>();
        // The occupancies of the square's lines, by their cells: those `diagonals` defines on
        // the square, which `sums` shares, and those `sums` defines, which `moments` shares.
        let mut occupancy: std::collections::HashMap<Vec<usize>, Lit> =
            std::collections::HashMap::new();
        for g in &self.groups {
            sink.begin_group(&GroupInfo {
                tag: g.tag.to_string(),
                meaning: g.meaning.clone(),
            })?;
            sink.begin_label(&Label {
                rule: g.rule,
                line: None,
            })?;
            match g.tag {
                "R0" => {
                    for (i, lits) in self.cells.iter().enumerate() {
                        if lits.len() == 1 {
                            continue;
                        }
                        let z = alloc.fresh().positive();
                        cell[i] = Some(z);
                        for &l in lits {
                            sink.add_clause(&[!z, l])?;
                        }
                        let mut back: Vec<Lit> = lits.iter().map(|&l| !l).collect();
                        back.push(z);
                        sink.add_clause(&back)?;
                    }
                }
                "RP" => {
                    for c in 0..n {
                        let col: Vec<Lit> = (0..n).map(|r| cell[r * n + c].unwrap()).collect();
                        CARD.encode(&col, 1, Kind::Exactly, &mut alloc, &mut &mut *sink)?;
                    }
                }
                "RS" => {
                    for plus in [true, false] {
                        let mut terms: Vec<(i64, Lit)> = Vec::new();
                        for (v, line) in sum_lines(n, plus) {
                            let lits: Vec<Lit> = line.iter().map(|&i| cell[i].unwrap()).collect();
                            let o = occupancy_of(&line, &lits, &mut occupancy, &mut alloc, sink)?;
                            terms.push((v, o));
                        }
                        if plus {
                            let k = (n as u64) * (n as u64 + 1);
                            let t: Vec<(u64, Lit)> =
                                terms.iter().map(|&(v, o)| (v as u64, o)).collect();
                            pb::encode_equal_to(&t, k, &mut alloc, &mut *sink)?;
                        } else {
                            let side = |sign: i64| -> Vec<(u64, Lit)> {
                                terms
                                    .iter()
                                    .filter(|t| t.0 * sign > 0)
                                    .map(|&(v, o)| ((v * sign) as u64, o))
                                    .collect()
                            };
                            pb::encode_equal_sums(&side(1), &side(-1), &mut alloc, &mut *sink)?;
                        }
                    }
                }
                "RM" => {
                    let mut terms: Vec<(u64, Lit)> = Vec::new();
                    for (w, line) in moment_lines(n) {
                        let lits: Vec<Lit> = line.iter().map(|&i| cell[i].unwrap()).collect();
                        let o = occupancy_of(&line, &lits, &mut occupancy, &mut alloc, sink)?;
                        if w > 0 {
                            terms.push((w, o));
                        }
                    }
                    pb::encode_equal_to(&terms, moments_total(n), &mut alloc, &mut *sink)?;
                }
                _ => {
                    for kind in [LineKind::Diagonal, LineKind::AntiDiagonal] {
                        // On the torus the wrapped diagonals are not the square's lines that
                        // the sums and moments read, and each direction's are its own (at
                        // n = 2 the two directions have the same lines): nothing is shared.
                        let mut wrapped = std::collections::HashMap::new();
                        let defined = if self.geometry() == Geometry::Square {
                            &mut occupancy
                        } else {
                            &mut wrapped
                        };
                        let mut occupied = Vec::new();
                        for line in diagonals(n, self.geometry(), kind) {
                            let lits: Vec<Lit> = line.iter().map(|&i| cell[i].unwrap()).collect();
                            occupied.push(occupancy_of(&line, &lits, defined, &mut alloc, sink)?);
                        }
                        CARD.encode(&occupied, n, Kind::Exactly, &mut alloc, &mut &mut *sink)?;
                    }
                }
            }
        }
        debug_assert_eq!(alloc.used() as u64, self.size.vars);
        Ok(())
    }
    fn push_value_lits(&self, r: usize, c: usize, out: &mut Vec<Lit>) {
        self.inner.push_value_lits(r, c, out)
    }
    fn decode(&self, assignment: &[bool]) -> Result<Placement, DecodeError> {
        self.inner.decode(assignment)
    }
    fn projection(&self) -> Vec<Var> {
        self.inner.projection()
    }
    fn var_name(&self, var: Var) -> String {
        match self.slot(var) {
            Some((g, j)) => format!("aux({}, {j})", g.tag),
            None => self.inner.var_name(var),
        }
    }
    fn var_meaning(&self, var: Var) -> String {
        match self.slot(var) {
            Some((g, j)) => format!("auxiliary {j} of group {} ({})", g.tag, g.meaning),
            None => self.inner.var_meaning(var),
        }
    }
    fn header_comments(&self, command: Option<&str>) -> Vec<String> {
        let mut c = self.inner.header_comments(command);
        c.push(format!("redundant constraints: {}", self.set));
        for g in &self.groups {
            if g.size.vars > 0 {
                c.push(format!(
                    "aux {}..{} = group {}; named aux({}, 1..{})",
                    g.first + 1,
                    g.first + g.size.vars,
                    g.tag,
                    g.tag,
                    g.size.vars
                ));
            }
            c.push(format!(
                "group {}: {} ({} clauses)",
                g.tag, g.meaning, g.size.clauses
            ));
        }
        c
    }
    fn cell_variables(&self) -> bool {
        self.inner.cell_variables()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{Cnf, CountingSink};
    use crate::encode::{
        ColumnEncoder, ColumnOptions, Constraints, Domain, EncodeOptions, QueensEncoder, Unlabelled,
    };
    use varisat::{ExtendFormula, Solver};

    const COUNTS: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

    fn sets() -> Vec<RedundantSet> {
        [
            "permutation",
            "diagonals",
            "permutation,diagonals",
            "sums",
            "permutation,diagonals,sums",
            "moments",
            "diagonals,moments",
            "sums,moments",
            "permutation,diagonals,sums,moments",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect()
    }

    /// A model's encoding of the `n` x `n` board of a geometry.
    type Build = Box<dyn Fn(usize, Geometry) -> Arc<dyn Encoding>>;

    fn models() -> Vec<(String, Build)> {
        let mut v: Vec<(String, Build)> = vec![(
            "cells".into(),
            Box::new(|n, g| {
                Arc::new(QueensEncoder::new_on(n, EncodeOptions::default(), g).unwrap())
            }),
        )];
        for (domain, constraints) in [
            (Domain::DIRECT, Constraints::CONFLICT),
            (Domain::ORDER, Constraints::CONFLICT),
            (Domain::LOG, Constraints::CONFLICT),
            (Domain::ORDER, Constraints::HALL),
            (Domain::COUPLED, Constraints::HALL),
        ] {
            let o = ColumnOptions {
                domain,
                constraints,
                ..Default::default()
            };
            v.push((
                o.label(),
                Box::new(move |n, g| Arc::new(ColumnEncoder::new_on(n, o, g).unwrap())),
            ));
        }
        v
    }

    #[test]
    fn names_parse_and_print() {
        let s: RedundantSet = "diagonals, permutation".parse().unwrap();
        assert_eq!(s.to_string(), "permutation,diagonals");
        assert_eq!("none".parse::<RedundantSet>(), Ok(RedundantSet::NONE));
        assert_eq!(RedundantSet::NONE.to_string(), "none");
        let err = "sum".parse::<RedundantSet>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown redundant constraint 'sum' (valid: permutation, diagonals, sums, moments, none)"
        );
    }

    #[test]
    fn emitted_sizes_equal_size() {
        for geometry in [Geometry::Square, Geometry::Toroidal] {
            for (model, build) in models() {
                for set in sets() {
                    for n in 1..=14 {
                        let e = WithRedundant::new(build(n, geometry), set).unwrap();
                        let mut count = CountingSink::default();
                        e.encode_labelled(&mut Unlabelled(&mut count)).unwrap();
                        let size = e.size();
                        assert_eq!(
                            (count.clauses, count.literals, count.max_var),
                            (size.clauses, size.literals, size.vars),
                            "{model} {set} n={n} {geometry:?}"
                        );
                    }
                }
            }
        }
    }

    /// `sums_size` and `moments_size` against what is emitted, on larger boards than the
    /// generic test: each alone, and the moments sharing the occupancies of the sums.
    #[test]
    fn sums_and_moments_sizes_equal_what_is_emitted() {
        for n in (1..=40).chain([60]) {
            let cells = Arc::new(QueensEncoder::new(n, EncodeOptions::default()).unwrap());
            let base = cells.size();
            for (set, extra) in [
                ("sums", sums_size(n, false)),
                ("moments", moments_size(n, false)),
                ("sums,moments", sums_size(n, false) + moments_size(n, true)),
            ] {
                let e = WithRedundant::new(cells.clone(), set.parse().unwrap()).unwrap();
                let mut count = CountingSink::default();
                e.encode_labelled(&mut Unlabelled(&mut count)).unwrap();
                let want = base + extra;
                assert_eq!(
                    (count.clauses, count.literals, count.max_var),
                    (want.clauses, want.literals, want.vars),
                    "{set} n={n}"
                );
            }
        }
    }

    /// The total of `moments` summed over every permutation of small boards, queens or not:
    /// the identity holds for any one queen per row and column.
    #[test]
    fn moments_total_is_the_sum_over_any_permutation() {
        use itertools::Itertools;
        for n in 1..=7usize {
            for p in (1..=n as i64).permutations(n) {
                let sum: i64 = p
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| {
                        let r = i as i64 + 1;
                        (r + c - n as i64 - 1).pow(2) + (r - c).pow(2)
                    })
                    .sum();
                assert_eq!(sum as u64, moments_total(n), "n={n} {p:?}");
            }
        }
    }

    /// The closed form of the module documentation for the occupancies of one direction.
    #[test]
    fn occupancy_sizes_match_the_closed_form() {
        for n in 2..=30u64 {
            let lines = diagonals(n as usize, Geometry::Square, LineKind::Diagonal);
            let mut s = Size::default();
            for l in lines.iter().filter(|l| l.len() >= 2) {
                grow(&mut s, definition(l.len() as u64)).unwrap();
            }
            assert_eq!(
                (s.vars, s.clauses, s.literals),
                (2 * n - 3, n * n + 2 * n - 5, 3 * n * n + 2 * n - 9)
            );
        }
    }

    /// Models over every variable (not only the projection): the totalizer for exactly k
    /// fixes its auxiliaries and the occupancies are defined, so the count is kept where the
    /// model keeps it.
    #[test]
    fn counts_over_all_variables_are_kept() {
        for (n, set) in (1..=7).flat_map(|n| [(n, sets()[4]), (n, sets()[8])]) {
            let cells = Arc::new(QueensEncoder::new(n, EncodeOptions::default()).unwrap());
            let e = WithRedundant::new(cells, set).unwrap();
            let mut cnf = Cnf::new();
            e.encode_labelled(&mut Unlabelled(&mut cnf)).unwrap();
            let mut solver = Solver::new();
            let vars = e.size().vars as usize;
            for clause in cnf.iter() {
                solver.add_clause(clause);
            }
            let mut count = 0;
            while solver.solve().unwrap() {
                count += 1;
                let m = solver.model().unwrap();
                let block: Vec<Lit> = m.iter().take(vars).map(|&l| !l).collect();
                if block.is_empty() {
                    break;
                }
                solver.add_clause(&block);
            }
            assert_eq!(count, COUNTS[n - 1], "n={n} {set}");
        }
    }
}
