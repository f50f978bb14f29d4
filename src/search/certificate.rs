//! Certificates of the search's refutations: the search walks the board once more, on one
//! thread, and writes a pseudo-Boolean proof of what it finds impossible in the format of the
//! VeriPB checker (version 3.0), against the instance's OPB form with the counts and the sums
//! (`encode --format opb --redundant diagonals,sums,moments`; the instance's `opb_form` says
//! where its constraints stand, [`OpbAnchors`]). The checker (the `veripb` crate,
//! `proof::check_opb`) accepts it only if every step follows from the form.
//!
//! The proof follows the tree. Its literals are the cells (`x(r*n+c+1)`), and each node's
//! *decisions* are the choices on its path: a queen on a cell, or, for a diagonal left empty,
//! each of its free cells empty.
//!
//! * First, for each column, the cutting-planes step (`pol`) "at least one queen", the sum of
//!   every row's `= 1` and of the other columns' at-most-one: the search forces a column's
//!   last free cell, which the form (columns at most one) does not propagate.
//! * A node that fails as the search settles it (a row, a column or too few diagonals left,
//!   a queen forced onto an attacked cell) ends with the clause "not all of its decisions"
//!   (`rup`): unit propagation on the form's constraints, the counts of occupied diagonals
//!   among them, finds the same failure.
//! * A node whose bound on the sums of the diagonal indices, or on their second moments, fails
//!   is first given the constraint that propagates that failure, a linear combination of the
//!   form's sum (or moment) equality and its counts: with `t` the index of the `m`-th smallest
//!   free diagonal and `m` queens left, `sum v o <= T` plus `t` times `sum o >= n` is
//!   `sum (t - v) o >= t n - T`, which the free diagonals can no longer satisfy when their `m`
//!   smallest indices add up to more than what is left of `T` (the largest alike, and the two
//!   directions at once for the moments). Then the clause, then the combination is deleted.
//! * A probed cell that fails gets the clause "not the decisions, or not this queen".
//! * A node whose children all failed ends with its clause, which follows by unit
//!   propagation from its children's (their decisions cover the line it branched on: a row's
//!   `= 1`, a column's "at least one", a diagonal the counts make occupied, or "this
//!   diagonal's cells, or none of them"); the children's clauses are then deleted.
//! * The root's clause is the empty one: `conclusion UNSAT`.
//!
//! The walk reasons as the search does (the counts of free diagonals, forced and must-use
//! diagonals, branching on the sparsest diagonals, probing at the first levels) except for
//! the second moments' parity classes, which no single linear combination expresses: its
//! bound on the moments takes the free diagonals of each direction as one list. It has no
//! mirror symmetry either (a solution and its mirror image are both refuted), so it may walk
//! more nodes than the search.

use super::bounds::Open;
use super::geometry::{Geo, MAX};
use super::node::{Line, Node, Queen, Reasoning, Settled};
use crate::board::{MaskedBoard, Placement};
use crate::proof::{Bound, OpbAnchors};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Instant;

/// What the certified walk settles with; the sums and the moments are checked after settling,
/// by the walk itself, since each failure of theirs needs its cutting-planes step.
const WHY: Reasoning = Reasoning {
    diagonals: true,
    sums: false,
    matching: false,
    moments: false,
    branch_diagonals: true,
    probe: 0,
};

/// The branching levels whose free cells the certified walk probes.
pub const CERTIFIED_PROBE_LEVELS: usize = super::PORTFOLIO_PROBE_LEVELS;

/// The nodes between two looks at the time limit and the stop condition.
const LOOK: u64 = 1024;

/// How a certified walk ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certified {
    /// A solution (checked against the board): no proof is written.
    Sat(Placement),
    /// No solution: the proof is written to its end.
    Unsat(CertificateStats),
    /// The time limit passed or the stop condition held: the proof is incomplete.
    Stopped,
}

/// What a certificate holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CertificateStats {
    /// The nodes walked (probes not counted).
    pub nodes: u64,
    /// The proof's rules (`pol`, `rup`; deletions not counted).
    pub rules: u64,
    /// Of them, the cutting-planes steps of the bounds on the sums and moments.
    pub bounds: u64,
}

/// Why no certificate could be written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The form lacks a constraint the proof names.
    #[error("the OPB form has no {0}: certificates are written against `--redundant diagonals,sums,moments`")]
    Form(&'static str),
    /// The board is too large for the search.
    #[error("the search takes boards up to n = {MAX}")]
    TooLarge,
    /// The walk's solution is not one (a defect of the walk).
    #[error("the certified walk's solution is wrong: {0}")]
    Wrong(String),
    /// The proof could not be written.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// When the certified walk gives up.
#[derive(Clone, Copy, Default)]
pub struct CertifyLimits<'a> {
    /// The time limit.
    pub deadline: Option<Instant>,
    /// A condition that stops the walk (an interruption).
    pub stop: Option<&'a (dyn Fn() -> bool + Sync)>,
}

/// A choice on a node's path.
#[derive(Clone, Copy, Debug)]
enum Decision {
    /// A queen on (row, column).
    Queen(u8, u8),
    /// The cell (row, column) left empty.
    Empty(u8, u8),
}

/// The result of walking a node.
enum Walked {
    /// Refuted: the id of its clause.
    Refuted(u64),
    /// A solution: the queens of the path.
    Sat,
}

/// Writes a certificate of the board's unsatisfiability to `out` (or finds a solution), the
/// form's constraints standing where `anchors` says.
pub fn certify(
    board: &MaskedBoard,
    anchors: &OpbAnchors,
    out: &mut dyn Write,
    limits: CertifyLimits<'_>,
) -> Result<Certified, CertifyError> {
    let n = board.n();
    if n > MAX {
        return Err(CertifyError::TooLarge);
    }
    if anchors.rows.len() != n || anchors.columns.len() != n {
        return Err(CertifyError::Form(
            "row and column constraints of this board",
        ));
    }
    let g = Geo::new(n, board.geometry());
    if let Some(missing) = anchors.bounds_missing(!g.torus && n > 1) {
        return Err(CertifyError::Form(missing));
    }
    let mut w = Writer {
        out,
        n,
        last_id: anchors.ids,
        anchors,
        stats: CertificateStats::default(),
        line: String::new(),
        limits,
    };
    writeln!(w.out, "pseudo-Boolean proof version 3.0")?;
    writeln!(w.out, "f {} ;", anchors.ids)?;
    w.columns()?;
    let allowed: Vec<u64> = (0..n).map(|r| board.allowed(r)).collect();
    let mut root = Node::root(g, &allowed);
    let mut path = Vec::with_capacity(MAX);
    let mut decisions = Vec::new();
    match w.walk(g, &mut root, &mut decisions, &mut path, 0)? {
        None => Ok(Certified::Stopped),
        Some(Walked::Sat) => {
            let p = super::portfolio::placement(n, &path);
            super::verify(board, &p).map_err(CertifyError::Wrong)?;
            Ok(Certified::Sat(p))
        }
        Some(Walked::Refuted(id)) => {
            writeln!(w.out, "output NONE ;")?;
            writeln!(w.out, "conclusion UNSAT : {id} ;")?;
            writeln!(w.out, "end pseudo-Boolean proof ;")?;
            w.out.flush()?;
            Ok(Certified::Unsat(w.stats))
        }
    }
}

/// The proof being written.
struct Writer<'o, 'a> {
    out: &'o mut dyn Write,
    n: usize,
    anchors: &'a OpbAnchors,
    /// The last constraint id given.
    last_id: u64,
    stats: CertificateStats,
    line: String,
    limits: CertifyLimits<'a>,
}

impl Writer<'_, '_> {
    /// The literal of cell (r, c), true or negated.
    fn lit(&mut self, r: u8, c: u8, negated: bool) {
        let x = usize::from(r) * self.n + usize::from(c) + 1;
        let _ = write!(self.line, "1 {}x{x} ", if negated { "~" } else { "" });
    }

    /// Writes the rule in `line` and gives it the next id.
    fn emit(&mut self) -> io::Result<u64> {
        self.out.write_all(self.line.as_bytes())?;
        self.out.write_all(b" ;\n")?;
        self.last_id += 1;
        self.stats.rules += 1;
        Ok(self.last_id)
    }

    /// "At least one queen" for every column the form states as at most one: every row's
    /// `>=` half plus the other columns' at-most-one.
    fn columns(&mut self) -> io::Result<()> {
        if self.anchors.columns_exact || self.n < 2 {
            return Ok(());
        }
        let a = self.anchors;
        for c in 0..self.n {
            self.line.clear();
            self.line.push_str("pol");
            for (k, id) in a.rows.iter().enumerate() {
                let _ = write!(self.line, " {id}");
                if k > 0 {
                    self.line.push_str(" +");
                }
            }
            for (c2, id) in a.columns.iter().enumerate() {
                if let Some(id) = id.filter(|_| c2 != c) {
                    let _ = write!(self.line, " {id} +");
                }
            }
            self.emit()?;
        }
        Ok(())
    }

    /// The clause "not all of `decisions` (and not `extra`)", after the cutting-planes step of
    /// `bound` if one failed (deleted after the clause). Returns the clause's id.
    fn refute(
        &mut self,
        decisions: &[Decision],
        extra: Option<Decision>,
        bound: Option<Bound>,
    ) -> io::Result<u64> {
        let combination = match bound {
            Some(b) => self.combination(b)?,
            None => None,
        };
        self.line.clear();
        self.line.push_str("rup ");
        for &d in decisions.iter().chain(extra.iter()) {
            match d {
                Decision::Queen(r, c) => self.lit(r, c, true),
                Decision::Empty(r, c) => self.lit(r, c, false),
            }
        }
        self.line.push_str(">= 1");
        let id = self.emit()?;
        if let Some(k) = combination {
            writeln!(self.out, "del id {k} ;")?;
        }
        Ok(id)
    }

    /// The cutting-planes step that propagates the failure of `bound`
    /// ([`OpbAnchors::combination`]); `None` when the form's constraint propagates it alone.
    fn combination(&mut self, bound: Bound) -> io::Result<Option<u64>> {
        let Some(line) = self.anchors.combination(bound) else {
            return Ok(None);
        };
        self.line = line;
        self.stats.bounds += 1;
        self.emit().map(Some)
    }

    /// Whether to give up: every [`LOOK`] nodes, the time limit and the stop condition.
    fn give_up(&self) -> bool {
        self.stats.nodes.is_multiple_of(LOOK)
            && (self.limits.deadline.is_some_and(|d| Instant::now() >= d)
                || self.limits.stop.is_some_and(|s| s()))
    }

    /// Walks `node` (its decisions on `decisions`, its queens on `path`): `None` when the walk
    /// gave up.
    fn walk(
        &mut self,
        g: Geo,
        node: &mut Node,
        decisions: &mut Vec<Decision>,
        path: &mut Vec<Queen>,
        depth: usize,
    ) -> io::Result<Option<Walked>> {
        self.stats.nodes += 1;
        if self.give_up() {
            return Ok(None);
        }
        let base = path.len();
        let walked = self.walk_settled(g, node, decisions, path, depth);
        if !matches!(walked, Ok(Some(Walked::Sat))) {
            path.truncate(base);
        }
        walked
    }

    fn walk_settled(
        &mut self,
        g: Geo,
        node: &mut Node,
        decisions: &mut Vec<Decision>,
        path: &mut Vec<Queen>,
        depth: usize,
    ) -> io::Result<Option<Walked>> {
        // The clauses of the cells probing took away, deleted once the node's own is written.
        let mut probed = Vec::new();
        let line = loop {
            let failed = match node.settle(g, WHY, path) {
                Settled::Solved => return Ok(Some(Walked::Sat)),
                Settled::Fail => Some(None),
                Settled::Branch(line) => match bound_failure(g, &node.open()) {
                    Some(b) => Some(Some(b)),
                    None if depth >= CERTIFIED_PROBE_LEVELS => break line,
                    None if !self.probe(g, node, decisions, &mut probed)? => break line,
                    None => None,
                },
            };
            if let Some(bound) = failed {
                let id = self.refute(decisions, None, bound)?;
                self.delete(&probed)?;
                return Ok(refuted(id));
            }
        };
        let mut choices = Vec::with_capacity(MAX);
        node.choices(g, line, |i, c| choices.push((node.rows[i], i, c as u8)));
        let mut children = Vec::with_capacity(choices.len() + 1);
        let mut child = Node::blank();
        for &(r, i, c) in &choices {
            let queen = Decision::Queen(r, c);
            let id = if node.place_into(g, i, usize::from(c), &mut child) {
                decisions.push(queen);
                path.push((r, c));
                let walked = self.walk(g, &mut child, decisions, path, depth + 1)?;
                decisions.pop();
                match walked {
                    None => return Ok(None),
                    Some(Walked::Sat) => return Ok(Some(Walked::Sat)),
                    Some(Walked::Refuted(id)) => {
                        path.pop();
                        id
                    }
                }
            } else {
                self.refute(decisions, Some(queen), None)?
            };
            children.push(id);
        }
        if matches!(line, Line::SumOrNone(_) | Line::DiffOrNone(_)) {
            let k = decisions.len();
            decisions.extend(choices.iter().map(|&(r, _, c)| Decision::Empty(r, c)));
            let walked = if node.without(g, line, &mut child) {
                self.walk(g, &mut child, decisions, path, depth + 1)?
            } else {
                self.refute(decisions, None, None).map(refuted)?
            };
            decisions.truncate(k);
            match walked {
                None => return Ok(None),
                Some(Walked::Sat) => return Ok(Some(Walked::Sat)),
                Some(Walked::Refuted(id)) => children.push(id),
            }
        }
        let id = self.refute(decisions, None, None)?;
        children.extend(probed);
        self.delete(&children)?;
        Ok(Some(Walked::Refuted(id)))
    }

    /// Deletes the clauses `ids`, which a later clause made redundant.
    fn delete(&mut self, ids: &[u64]) -> io::Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        self.line.clear();
        self.line.push_str("del id");
        for id in ids {
            let _ = write!(self.line, " {id}");
        }
        self.out.write_all(self.line.as_bytes())?;
        self.out.write_all(b" ;\n")
    }

    /// Failed-cell probing with the clause of each cell taken away: every free cell whose
    /// queen fails as its node settles, or on its bounds, its clause's id put on `probed`.
    /// Whether any was taken.
    fn probe(
        &mut self,
        g: Geo,
        node: &mut Node,
        decisions: &[Decision],
        probed: &mut Vec<u64>,
    ) -> io::Result<bool> {
        let mut taken = false;
        let mut child = Node::blank();
        let mut scratch = Vec::with_capacity(MAX);
        let cells: Vec<(usize, u8, u64)> = {
            let open = node.open();
            (0..open.rows.len())
                .map(|i| (i, open.rows[i], open.free[i]))
                .collect()
        };
        for (i, r, mut free) in cells {
            while free != 0 {
                let c = free.trailing_zeros() as usize;
                free &= free - 1;
                let queen = Decision::Queen(r, c as u8);
                let fails = if !node.place_into(g, i, c, &mut child) {
                    Some(None)
                } else {
                    scratch.clear();
                    match child.settle(g, WHY, &mut scratch) {
                        Settled::Fail => Some(None),
                        Settled::Solved => None,
                        Settled::Branch(_) => bound_failure(g, &child.open()).map(Some),
                    }
                };
                if let Some(bound) = fails {
                    probed.push(self.refute(decisions, Some(queen), bound)?);
                    node.take(i, c);
                    taken = true;
                }
            }
        }
        Ok(taken)
    }
}

/// A refuted node from its clause's id.
fn refuted(id: u64) -> Option<Walked> {
    Some(Walked::Refuted(id))
}

/// The first bound that fails at a settled node (square board), in the form's units.
fn bound_failure(g: Geo, open: &Open<'_>) -> Option<Bound> {
    if g.torus || g.n < 2 {
        return None;
    }
    let n = g.n as i64;
    let m = open.rows.len();
    let (s0, d0) = open.free_diagonals(g);
    let bits = |x: u128| (0..2 * n - 1).filter(move |&b| x >> b & 1 == 1);
    // The free lines in the form's units, in increasing order: `/` diagonal s is v = s + 2,
    // `\` diagonal d is v = r - c = n - 1 - d.
    let v: [Vec<i64>; 2] = [
        bits(s0).map(|s| s + 2).collect(),
        bits(d0).rev().map(|d| n - 1 - d).collect(),
    ];
    if v.iter().any(|l| l.len() < m) {
        return None;
    }
    let (rows, cols): (i64, i64) = (i64::from(open.row_sum), i64::from(open.col_sum));
    let want = [rows + cols + 2 * m as i64, rows - cols];
    for (dir, l) in v.iter().enumerate() {
        let low: i64 = l[..m].iter().sum();
        let high: i64 = l[l.len() - m..].iter().sum();
        if low > want[dir] {
            return Some(Bound::SumLow { dir, t: l[m - 1] });
        }
        if high < want[dir] {
            return Some(Bound::SumHigh {
                dir,
                t: l[l.len() - m],
            });
        }
    }
    // The moments: a queen's two squared distances add up to half those of its row and
    // column from the middle.
    let sq = |x: i64| (2 * x - (n - 1)).pow(2);
    let mut want = open.rows.iter().map(|&r| sq(i64::from(r))).sum::<i64>();
    let mut cols = open.cols;
    while cols != 0 {
        want += sq(i64::from(cols.trailing_zeros() as u8));
        cols &= cols - 1;
    }
    let want = want / 2;
    let w: [Vec<i64>; 2] = [
        sorted(v[0].iter().map(|&v| (v - n - 1).pow(2))),
        sorted(v[1].iter().map(|&v| v * v)),
    ];
    let low: i64 = w.iter().map(|l| l[..m].iter().sum::<i64>()).sum();
    let high: i64 = w.iter().map(|l| l[l.len() - m..].iter().sum::<i64>()).sum();
    if low > want {
        return Some(Bound::MomentLow {
            t: [w[0][m - 1], w[1][m - 1]],
        });
    }
    if high < want {
        return Some(Bound::MomentHigh {
            t: [w[0][w[0].len() - m], w[1][w[1].len() - m]],
        });
    }
    None
}

/// The values, sorted.
fn sorted(values: impl Iterator<Item = i64>) -> Vec<i64> {
    let mut v: Vec<i64> = values.collect();
    v.sort_unstable();
    v
}
