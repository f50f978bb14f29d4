//! The queens constraints as an external propagator of CaDiCaL (IPASIR-UP): the engine of
//! `solve --engine propagator`.
//!
//! [`PropagatorSolver`] is a [`Solver`] that takes the clauses of the pairwise cell model
//! ([`crate::instance::encode`]) and keeps as CNF only those that are not an at-most-one pair:
//! the rows' at-least-one clauses and the units of placed and forbidden cells. The at-most-one
//! of every line (rows, columns and both diagonals, square or toroidal) is propagated by the
//! propagator instead: when a cell becomes true, every other cell of its four lines is made
//! false, each with its reason clause `-a -b`, a binary clause of the pairwise formula; two
//! true cells on one line are a conflict with the same clause as reason, and a complete model
//! is checked line by line before it is accepted (a safety net: a missing propagation there
//! adds the clause). Reasons are given lazily, only when CaDiCaL asks for them.
//!
//! **Occupancies.** With any of the search's arguments on, each diagonal of two or more cells
//! gets an occupancy variable, after the cells and numbered as the OPB form numbers it
//! ([`crate::proof::OpbAnchors::occupancy`]), defined by the clauses `-cell o` (each of its
//! cells) and `-o cells...` (a diagonal of one cell has that cell as occupancy). The arguments
//! read the occupancies (occupied: true, dead: false, free: unassigned), and their clauses
//! and reasons speak of them: a dead diagonal is one literal, not all its cells.
//!
//! **Counting.** The propagator also counts, as the search does: the n queens stand on n
//! distinct diagonals of each direction, so the diagonals of a direction not dead must
//! number at least n. When fewer are left, the propagator adds the clause "one of the dead
//! diagonals of that direction is occupied", false under the assignment (a conflict); when
//! exactly n are left, each of them must hold a queen, and each free one is made occupied
//! with the reason "occupied, or one of the dead diagonals is". Each such clause holds in every
//! solution of the board (it is implied by the formula with the occupancies' definitions,
//! though not by unit propagation on it); conflicts are added as forgettable clauses
//! (CaDiCaL may delete them; the propagator gives them again when needed).
//!
//! **Bounds.** On the square board it also bounds the sums and the second moments: the
//! diagonals of the n queens have indices (`r + c`, and `r - c + n - 1`) that sum to
//! `n (n - 1)` in each direction, and weights (squared distances from the middle) that add
//! up to `n (n^2 - 1) / 3` over both, so the occupied diagonals plus the `k` lightest
//! (heaviest) free ones, `k` the queens still missing, must not weigh more (less) than that.
//! When they do, the conflict clause is the bound's reason: with `t` the `k`-th lightest
//! (heaviest) free weight, the occupied diagonals heavier (lighter) than `t` (negated) and
//! the dead ones lighter (heavier) than `t`, the only ones the bound's cutting-planes step
//! needs (the others weigh on the side the bound could still use). When a bound holds, a free
//! diagonal of weight `w` would raise the least by `max(0, w - t)`; a diagonal that would
//! raise it past the target is made unoccupied, and for the moments a cell whose two
//! diagonals together would is made false, each with the same reason plus its own literal
//! (the option `propagate`). Last, the same bounds split by the queens' colour, with the
//! parity of their number (the option `classes`, [`CLASSES_OPTION`]): a conflict when no
//! number of queens on one colour fits, its clause every occupied and every dead diagonal
//! (certified as a case split on that number, [`crate::proof::ClassStep`]). The arguments
//! and the occupancies are left out when a DRAT or LRAT proof is written (`solve --proof`):
//! their clauses are not in the pairwise formula and would not check against it. A VeriPB
//! certificate
//! ([`crate::solve::certify_with_propagator`]) keeps them on: it is written against the OPB
//! form with the counts, sums and moments, from which they follow, and each bound is handed
//! to it ([`crate::proof::Bound`]) just before each clause that follows from it (a conflict
//! as it is added, a propagation when CaDiCaL asks for its reason), for the cutting-planes
//! step that justifies the clause and that the clause names as a hint.
//!
//! The answers go through the same checks as every solver's: [`crate::solve::solve_model_with_solver`]
//! and the enumeration decode each model and check the board.

use super::backend::CadicalSolver;
use super::cadical::ExternalPropagator;
use super::{Budget, SolveError, Solver, SolverOption};
use crate::board::Geometry;
use crate::cnf::Lit;
use crate::instance::Formula;
use crate::proof::{Bound, ClassStep};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The propagator's own option among CaDiCaL's for the counting argument (`counting=0`
/// switches it off; 1, the default, leaves it on): `solve --engine propagator --solver-option
/// counting=0`, `compare --solver "propagator counting=0"`.
pub const COUNTING_OPTION: &str = "counting";

/// The propagator's own option for the bounds on the diagonals' sums (`sums=0` switches them
/// off; 1, the default, leaves them on).
pub const SUMS_OPTION: &str = "sums";

/// The propagator's own option for the bounds on the diagonals' second moments (`moments=0`
/// switches them off; 1, the default, leaves them on).
pub const MOMENTS_OPTION: &str = "moments";

/// The propagator's own option for the bounds' propagation (`propagate=0` leaves the bounds on
/// the sums and moments as conflicts only; 1, the default, also makes unoccupied every
/// diagonal, and false every cell, whose queen would break one).
pub const PROPAGATE_OPTION: &str = "propagate";

/// The propagator's own option for the sums and second moments by colour (`classes=0`
/// switches them off; 1, the default, leaves them on).
pub const CLASSES_OPTION: &str = "classes";

/// Which of the search's arguments the propagator uses (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arguments {
    /// The counts of live diagonals ([`COUNTING_OPTION`]).
    pub counting: bool,
    /// The bounds on the diagonals' sums ([`SUMS_OPTION`]; the square board only).
    pub sums: bool,
    /// The bounds on the diagonals' second moments ([`MOMENTS_OPTION`]; the square board
    /// only).
    pub moments: bool,
    /// The bounds on the sums and moments also propagate ([`PROPAGATE_OPTION`]): a diagonal
    /// (or a cell) whose queen would break one is made unoccupied (false), with the bound's
    /// reason.
    pub propagate: bool,
    /// The sums and second moments by the queens' colour, with the parity of their number
    /// ([`CLASSES_OPTION`]; the square board only); in a VeriPB certificate a case split on
    /// the number of queens on colour 0 ([`crate::proof::ClassProof`]).
    pub classes: bool,
}

impl Arguments {
    /// Every argument on: the default.
    pub const ALL: Arguments = Arguments {
        counting: true,
        sums: true,
        moments: true,
        propagate: true,
        classes: true,
    };
    /// None: what a DRAT or LRAT proof needs.
    pub const NONE: Arguments = Arguments {
        counting: false,
        sums: false,
        moments: false,
        propagate: false,
        classes: false,
    };

    /// Whether any argument is on (the counts, sums or moments; the diagonals' occupancies
    /// are then variables of CaDiCaL's, after the cells).
    pub fn any(&self) -> bool {
        self.counting || self.sums || self.moments || self.classes
    }
}

/// Splits the propagator's options: its arguments ([`COUNTING_OPTION`], [`SUMS_OPTION`],
/// [`MOMENTS_OPTION`], [`PROPAGATE_OPTION`], each 0 or 1, on by default; the last one given
/// wins) and CaDiCaL's options, the rest.
pub fn split_options(
    options: &[SolverOption],
) -> Result<(Arguments, Vec<SolverOption>), super::options::OptionError> {
    let mut arguments = Arguments::ALL;
    let mut rest = Vec::new();
    for o in options {
        let flag = match o.name.as_str() {
            COUNTING_OPTION => &mut arguments.counting,
            SUMS_OPTION => &mut arguments.sums,
            MOMENTS_OPTION => &mut arguments.moments,
            PROPAGATE_OPTION => &mut arguments.propagate,
            CLASSES_OPTION => &mut arguments.classes,
            _ => {
                rest.push(o.clone());
                continue;
            }
        };
        if !(0..=1).contains(&o.value) {
            return Err(super::options::OptionError::OutOfRange {
                name: o.name.clone(),
                value: o.value,
                low: 0,
                high: 1,
            });
        }
        *flag = o.value == 1;
    }
    Ok((arguments, rest))
}

/// What the propagator did, summed over every solve of one [`PropagatorSolver`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PropagatorStats {
    /// Literals the propagator propagated (cells made false, occupancies set).
    pub propagations: u64,
    /// Reason clauses CaDiCaL asked for (a binary clause of the pairwise formula, or a
    /// bound's reason).
    pub reasons: u64,
    /// Conflicts the propagator found: two true cells on one line, at an assignment or in a
    /// complete model.
    pub conflicts: u64,
    /// Clauses added on a complete model that broke a line (the safety net).
    pub model_clauses: u64,
    /// Clauses of the counting argument: conflicts (too few live diagonals) and propagations
    /// (a diagonal made occupied when exactly n are live; of
    /// [`PropagatorStats::propagations`]).
    pub counting_clauses: u64,
    /// Conflict clauses of the bounds on the diagonals' sums.
    pub sum_clauses: u64,
    /// Conflict clauses of the bounds on the diagonals' second moments.
    pub moment_clauses: u64,
    /// Conflict clauses of the sums and moments by the queens' colour ([`CLASSES_OPTION`]).
    pub class_clauses: u64,
    /// Diagonals made unoccupied and cells made false by the bounds on the sums and moments
    /// (of [`PropagatorStats::propagations`]).
    pub bound_propagations: u64,
    /// At-most-one clauses of the formula left out of the CNF (the propagator's).
    pub clauses_replaced: u64,
    /// Clauses given to CaDiCaL as CNF.
    pub clauses_kept: u64,
}

impl std::fmt::Display for PropagatorStats {
    /// The line `solve --engine propagator` writes on stderr after a solve.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "propagator: {} propagations, {} reason clauses, {} conflicts ({} clauses on complete \
             models), {} counting clauses, {} sum clauses, {} moment clauses, {} class clauses, \
             {} bound propagations; CNF: {} clauses, {} at-most-one clauses propagated instead",
            self.propagations,
            self.reasons,
            self.conflicts,
            self.model_clauses,
            self.counting_clauses,
            self.sum_clauses,
            self.moment_clauses,
            self.class_clauses,
            self.bound_propagations,
            self.clauses_kept,
            self.clauses_replaced
        )
    }
}

/// The counters, shared between the solver and its propagator.
#[derive(Default)]
struct Counters {
    propagations: AtomicU64,
    reasons: AtomicU64,
    conflicts: AtomicU64,
    model_clauses: AtomicU64,
    counting_clauses: AtomicU64,
    sum_clauses: AtomicU64,
    moment_clauses: AtomicU64,
    class_clauses: AtomicU64,
    bound_propagations: AtomicU64,
}

/// The board's lines: for each cell, the four lines through it, and for each line its cells
/// and, for a diagonal, the variable of its occupancy.
struct Lines {
    /// The board's size.
    n: usize,
    /// The square board (not the torus): the diagonals' sums are bounded.
    square: bool,
    /// `n * n` cells, each with its four line ids.
    of_cell: Vec<[u32; 4]>,
    /// Each line's cells (0-based cell indices).
    cells: Vec<Vec<u32>>,
    /// Each line's occupancy variable (DIMACS): for a diagonal of two or more cells one of its
    /// own, numbered after the cells in the OPB form's order (`/` then `\`, by index,
    /// [`crate::proof::OpbAnchors::occupancy`]); for a diagonal of one cell that cell's; 0 for
    /// the rows, the columns and the diagonal ids without cells.
    occupancy: Vec<u32>,
    /// By variable (0-based), the diagonals whose occupancy it is (`NONE` for none).
    occupies: Vec<[u32; 2]>,
    /// The variables: the cells, then the occupancies of their own.
    vars: usize,
}

/// No line.
const NONE: u32 = u32::MAX;

impl Lines {
    fn new(n: usize, geometry: Geometry) -> Lines {
        // Rows, columns, `/` and `\` diagonals, each kind numbered apart (2n - 1 diagonals of
        // each direction on the square, n on the torus).
        let diags = 2 * n;
        let base = [0, n, 2 * n, 2 * n + diags];
        let total = 2 * n + 2 * diags;
        let mut cells = vec![Vec::new(); total];
        let mut of_cell = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                let ids = [
                    base[0] + r,
                    base[1] + c,
                    base[2] + geometry.diagonal(n, r, c),
                    base[3] + geometry.anti_diagonal(n, r, c),
                ];
                let cell = (r * n + c) as u32;
                for &l in &ids {
                    cells[l].push(cell);
                }
                of_cell.push(ids.map(|l| l as u32));
            }
        }
        let mut occupancy = vec![0u32; total];
        let mut vars = n * n;
        for (l, o) in occupancy.iter_mut().enumerate().skip(2 * n) {
            *o = match cells[l].len() {
                0 => 0,
                1 => cells[l][0] + 1,
                _ => {
                    vars += 1;
                    vars as u32
                }
            };
        }
        let mut occupies = vec![[NONE; 2]; vars];
        for (l, &o) in occupancy.iter().enumerate().filter(|&(_, &o)| o != 0) {
            let slot = &mut occupies[o as usize - 1];
            slot[usize::from(slot[0] != NONE)] = l as u32;
        }
        Lines {
            n,
            square: geometry == Geometry::Square,
            of_cell,
            cells,
            occupancy,
            occupies,
            vars,
        }
    }

    /// The line ids of the diagonals of one direction (0: `/`, 1: `\`); some may have no
    /// cells (the torus has n of each direction, the square 2n - 1, of 2n ids).
    fn diagonals(&self, direction: usize) -> std::ops::Range<usize> {
        let start = 2 * self.n + direction * 2 * self.n;
        start..start + 2 * self.n
    }

    /// The directions of the diagonals whose occupancy is variable `x` (0-based).
    fn occupied_by(&self, x: usize) -> impl Iterator<Item = usize> + '_ {
        self.occupies[x]
            .iter()
            .filter(|&&l| l != NONE)
            .map(|&l| (l as usize - 2 * self.n) / (2 * self.n))
    }

    /// The clauses that define the occupancies of their own: for a diagonal of two or more
    /// cells with occupancy `o`, `-cell o` for each cell and `-o cells...`.
    fn definitions(&self) -> Vec<Vec<i32>> {
        let mut out = Vec::new();
        for d in 0..2 {
            for l in self.diagonals(d).filter(|&l| self.cells[l].len() >= 2) {
                let o = self.occupancy[l] as i32;
                let cells = &self.cells[l];
                out.extend(cells.iter().map(|&c| vec![-(c as i32 + 1), o]));
                out.push(
                    std::iter::once(-o)
                        .chain(cells.iter().map(|&c| c as i32 + 1))
                        .collect(),
                );
            }
        }
        out
    }

    /// `true` when distinct cells `a` and `b` share a line.
    fn share(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.of_cell[a], &self.of_cell[b]);
        (0..4).any(|k| x[k] == y[k])
    }
}

/// The variable of each diagonal's occupancy as the propagator numbers them, `/` then `\`, by
/// the diagonal's index (as [`crate::proof::OpbAnchors::occupancy`] records the OPB form's):
/// what a certificate checks before it names them.
pub(crate) fn occupancy_variables(n: usize, geometry: Geometry) -> [Vec<Option<u64>>; 2] {
    let lines = Lines::new(n, geometry);
    [0, 1].map(|d| {
        lines
            .diagonals(d)
            .map(|l| Some(u64::from(lines.occupancy[l])).filter(|&o| o != 0))
            .collect()
    })
}

/// Why the diagonals of an `n` x `n` square board, each `(direction, index, value, _)` with
/// value 1 occupied, -1 dead and 0 free, leave the queens no number on colour 0 that fits the
/// sums and second moments by colour: a reason for each number `k` from 0 to `n` (its case of
/// the certificate, [`ClassStep`], thresholds in the OPB form's units), or `None` when some
/// `k` fits. A queen on a cell of colour `(r + c) % 2` has a `/` diagonal whose index has that
/// parity and a `\` diagonal whose index has it plus `n - 1`; if `k` queens stand on colour 0,
/// `k` diagonals of each direction of that class are occupied and `n - k` of the other, and
/// `n - k` is even (the queens' `r + c` add up to `n (n - 1)`, so those on colour 1 are even in
/// number). For such a `k` the occupied diagonals plus the lightest (heaviest) free ones of
/// each class must not weigh more (less) than the target: the indices of each direction sum to
/// `n (n - 1)`, the squared distances from the middle of both to `n (n^2 - 1) / 3`. Taking a
/// diagonal as free never makes a `k` stop fitting.
fn class_failures(n: usize, diagonals: &[(usize, usize, i8, i32)]) -> Option<Vec<ClassStep>> {
    let n64 = n as i64;
    // Per direction and class: the occupied diagonals' count, index sum and moment, and the
    // free ones' indices and moments, each list in increasing order.
    let mut occupied = [[(0usize, 0i64, 0i64); 2]; 2];
    let mut free: [[(Vec<i64>, Vec<i64>); 2]; 2] = Default::default();
    for &(d, i, v, _) in diagonals {
        let class = crate::proof::class_of(n, d, i);
        let (index, moment) = (i as i64, (i as i64 - (n64 - 1)).pow(2));
        match v {
            1 => {
                let o = &mut occupied[d][class];
                *o = (o.0 + 1, o.1 + index, o.2 + moment);
            }
            0 => {
                free[d][class].0.push(index);
                free[d][class].1.push(moment);
            }
            _ => {}
        }
    }
    for (a, b) in free.iter_mut().flatten() {
        a.sort_unstable();
        b.sort_unstable();
    }
    // Prefix sums of each free list.
    let prefix = |v: &[i64]| -> Vec<i64> {
        std::iter::once(0)
            .chain(v.iter().scan(0, |acc, &x| {
                *acc += x;
                Some(*acc)
            }))
            .collect()
    };
    let sums: [[(Vec<i64>, Vec<i64>); 2]; 2] = std::array::from_fn(|d| {
        std::array::from_fn(|c| (prefix(&free[d][c].0), prefix(&free[d][c].1)))
    });
    // What the `m` lightest and heaviest of a prefix list add up to.
    let least = |p: &[i64], m: usize| p[m];
    let most = |p: &[i64], m: usize| p[p.len() - 1] - p[p.len() - 1 - m];
    // The threshold of `m` taken from a sorted list: the last one taken (the first one for
    // none), 0 for an empty list.
    let threshold = |v: &[i64], m: usize, low: bool| match (v.is_empty(), low) {
        (true, _) => None,
        (false, true) => Some(v[m.saturating_sub(1)]),
        (false, false) => Some(v[v.len() - m.max(1)]),
    };
    // The OPB form's index of a diagonal: `r + c` 1-based (`/`, index r + c 0-based), or
    // `r - c` (`\`, index r - c + n - 1).
    let in_form = |d: usize, i: i64| i + if d == 0 { 2 } else { 1 - n64 };
    let sum_target = (n * (n - 1)) as i64;
    let moment_target = n64 * (n64 * n64 - 1) / 3;
    let fails = |k: usize| -> Option<ClassStep> {
        let need = [k, n - k];
        let mut moments = (0i64, 0i64);
        let mut taken = [[0usize; 2]; 2];
        for d in 0..2 {
            let mut index = (0i64, 0i64);
            for c in 0..2 {
                let (count, isum, msum) = occupied[d][c];
                let count_fails = |low| ClassStep::Count {
                    k,
                    dir: d,
                    class: c,
                    low,
                };
                let Some(m) = need[c].checked_sub(count) else {
                    return Some(count_fails(false));
                };
                let (pi, pm) = &sums[d][c];
                if m >= pi.len() {
                    return Some(count_fails(true));
                }
                taken[d][c] = m;
                index.0 += isum + least(pi, m);
                index.1 += isum + most(pi, m);
                moments.0 += msum + least(pm, m);
                moments.1 += msum + most(pm, m);
            }
            for (low, fails) in [(true, index.0 > sum_target), (false, index.1 < sum_target)] {
                if fails {
                    let t = std::array::from_fn(|c| {
                        threshold(&free[d][c].0, taken[d][c], low).map_or(0, |i| in_form(d, i))
                    });
                    return Some(ClassStep::Sum { k, dir: d, low, t });
                }
            }
        }
        for (low, fails) in [
            (true, moments.0 > moment_target),
            (false, moments.1 < moment_target),
        ] {
            if fails {
                let t = std::array::from_fn(|d| {
                    std::array::from_fn(|c| threshold(&free[d][c].1, taken[d][c], low).unwrap_or(0))
                });
                return Some(ClassStep::Moment { k, low, t });
            }
        }
        None
    };
    let mut steps = Vec::with_capacity(n + 1);
    for k in 0..=n {
        if (n - k) % 2 == 1 {
            steps.push(ClassStep::Parity { k });
        } else {
            steps.push(fails(k)?);
        }
    }
    Some(steps)
}

/// Why the propagator set a literal, for its reason clause.
#[derive(Clone, Debug, Default)]
enum Cause {
    /// Not set by the propagator.
    #[default]
    None,
    /// A true cell on one of the cell's lines (0-based): the reason is `-cell -other`.
    Pair(u32),
    /// The counts (a diagonal that must hold a queen: [`Bound::Count`]), or a bound on the
    /// sums or moments (a diagonal or a cell that must not): the reason is the literal and
    /// these, false when it was set; the bound is handed to the certificate when CaDiCaL asks
    /// for the reason.
    Bound(Arc<[i32]>, Bound),
}

/// The diagonals of one direction under the current assignment, each weighed (its index for
/// the sums, its squared distance from the middle for the moments): what the occupied ones
/// weigh, and the weights of the free ones (occupancy unassigned), in increasing order.
struct Spread {
    /// The weight of the occupied diagonals, summed.
    owned: i64,
    /// The queens missing on this direction's diagonals.
    k: usize,
    /// The free diagonals' weights, lightest first.
    free: Vec<i64>,
}

impl Spread {
    /// The least the direction's diagonals can weigh: the occupied and the `k` lightest free.
    fn least(&self) -> i64 {
        self.owned + self.free[..self.k].iter().sum::<i64>()
    }

    /// The most: the occupied and the `k` heaviest free.
    fn most(&self) -> i64 {
        self.owned + self.free[self.free.len() - self.k..].iter().sum::<i64>()
    }

    /// The threshold of a low bound: the `k`-th lightest free weight (`None` when no queen is
    /// missing).
    fn t_low(&self) -> Option<i64> {
        self.k.checked_sub(1).map(|j| self.free[j])
    }

    /// The threshold of a high bound: the `k`-th heaviest free weight.
    fn t_high(&self) -> Option<i64> {
        (self.k > 0).then(|| self.free[self.free.len() - self.k])
    }
}

/// The at-most-one of every line and the search's arguments as an IPASIR-UP propagator over
/// the cell variables `1..=n*n` and the occupancies.
struct QueensPropagator {
    lines: Arc<Lines>,
    cells: usize,
    /// The value of each variable as notified (by variable - 1): 0 unassigned, 1 true, -1
    /// false.
    value: Vec<i8>,
    /// The true cell of each line, if any (+1: 0 is none).
    owner: Vec<u32>,
    /// Variables assigned, in order (0-based, and whether true).
    trail: Vec<(u32, bool)>,
    /// The trail's length at the start of each decision level above 0.
    levels: Vec<usize>,
    /// Propagations to hand out: the literal, and why.
    queue: Vec<(i32, Cause)>,
    /// Why each propagated variable was set.
    reason: Vec<Cause>,
    /// The reason clause being handed out: (propagated literal, position in it).
    giving: Option<(i32, usize)>,
    /// Clauses to add, each with whether it may be forgotten: a conflict in a complete model
    /// (`-a -b`, kept), or a conflict of the arguments (forgettable); with the bounds it
    /// follows from when a certificate is written (a bound on the sums or moments, or the
    /// cases of the colour classes: handed to it as the clause is added, so that its step
    /// names theirs as hints), none for the others.
    pending: Vec<(Vec<i32>, bool, Vec<Bound>)>,
    /// The literals of the clause being added, handed out from the end, and whether it may be
    /// forgotten.
    adding: Vec<i32>,
    adding_forgettable: bool,
    counters: Arc<Counters>,
    /// Which arguments are on (see the module documentation).
    arguments: Arguments,
    /// Per diagonal direction, the diagonals (with cells) whose occupancy is not false.
    live: [usize; 2],
    /// An occupancy changed since the last count.
    dirty: bool,
    /// Where the bounds go, each just before a clause that follows from it, when a VeriPB
    /// certificate is written ([`crate::solve::Certificate`]: the cutting-planes step that
    /// makes the clause follow by unit propagation, written once, named by each such clause
    /// as a hint).
    bounds: Option<Arc<Mutex<Vec<Bound>>>>,
}

impl QueensPropagator {
    fn new(
        lines: Arc<Lines>,
        counters: Arc<Counters>,
        arguments: Arguments,
        bounds: Option<Arc<Mutex<Vec<Bound>>>>,
    ) -> QueensPropagator {
        let cells = lines.of_cell.len();
        let nlines = lines.cells.len();
        let live = [0, 1].map(|d| {
            lines
                .diagonals(d)
                .filter(|&l| lines.occupancy[l] != 0)
                .count()
        });
        let vars = lines.vars;
        QueensPropagator {
            lines,
            cells,
            value: vec![0; vars],
            owner: vec![0; nlines],
            trail: Vec::new(),
            levels: Vec::new(),
            queue: Vec::new(),
            reason: vec![Cause::None; vars],
            giving: None,
            pending: Vec::new(),
            adding: Vec::new(),
            adding_forgettable: false,
            counters,
            arguments,
            live,
            dirty: true,
            bounds,
        }
    }

    /// The value of diagonal `l`'s occupancy (0 unassigned, 1 true, -1 false).
    fn occupied(&self, l: usize) -> i8 {
        self.value[self.lines.occupancy[l] as usize - 1]
    }

    /// The diagonals of direction `d` that have cells.
    fn with_cells(&self, d: usize) -> impl Iterator<Item = usize> + '_ {
        self.lines
            .diagonals(d)
            .filter(|&l| self.lines.occupancy[l] != 0)
    }

    /// The free diagonals of direction `d` (occupancy unassigned).
    fn free(&self, d: usize) -> Vec<usize> {
        self.with_cells(d)
            .filter(|&l| self.occupied(l) == 0)
            .collect()
    }

    /// The occupancies of the dead diagonals of direction `d` (false).
    fn dead(&self, d: usize) -> Vec<i32> {
        self.with_cells(d)
            .filter(|&l| self.occupied(l) == -1)
            .map(|l| self.lines.occupancy[l] as i32)
            .collect()
    }

    /// The counting argument and the bounds on the sums and moments on the current
    /// occupancies: their conflicts go to [`QueensPropagator::pending`], what they propagate
    /// to [`QueensPropagator::queue`] (see the module documentation).
    fn count(&mut self) {
        self.dirty = false;
        let n = self.lines.n;
        let square = self.lines.square;
        for d in 0..2 {
            if self.arguments.counting && self.live[d] < n {
                self.counters
                    .counting_clauses
                    .fetch_add(1, Ordering::Relaxed);
                let dead = self.dead(d);
                let bounds = self.kept([Bound::Count { dir: d }]);
                self.pending.push((dead, true, bounds));
                return;
            }
            if self.arguments.sums && square && self.sum_bounds(d) {
                return;
            }
            if !self.arguments.counting || self.live[d] > n {
                continue;
            }
            // Exactly n live: each must hold a queen.
            let free = self.free(d);
            if free.is_empty() {
                continue;
            }
            let why: Arc<[i32]> = self.dead(d).into();
            for l in free {
                let o = self.lines.occupancy[l] as i32;
                let count = Bound::Count { dir: d };
                self.queue.push((o, Cause::Bound(Arc::clone(&why), count)));
            }
        }
        let before = self.pending.len();
        if self.arguments.moments && square {
            self.moment_bounds();
        }
        if self.arguments.classes && square && self.pending.len() == before {
            self.class_bounds();
        }
    }

    /// The diagonals of direction `d` weighed by `weight` (of the diagonal's index); `None`
    /// when fewer are free than queens are missing (the counting argument's conflict).
    fn spread(&self, d: usize, weight: impl Fn(usize) -> i64) -> Option<Spread> {
        let start = self.lines.diagonals(d).start;
        let (mut owned, mut queens, mut free) = (0, 0, Vec::new());
        for l in self.with_cells(d) {
            match self.occupied(l) {
                1 => {
                    owned += weight(l - start);
                    queens += 1;
                }
                0 => free.push(weight(l - start)),
                _ => {}
            }
        }
        let k = self.lines.n.checked_sub(queens)?;
        if free.len() < k {
            return None;
        }
        free.sort_unstable();
        Some(Spread { owned, k, free })
    }

    /// The reason of a bound with thresholds `t` (per direction it names; `None`: no queen
    /// missing there) that failed low (or high): the occupied diagonals heavier (lighter)
    /// than the threshold (their occupancies negated) and the dead ones lighter (heavier) than
    /// it (their occupancies), the literals whose values the bound's cutting-planes step needs
    /// to propagate its failure (with no threshold, every occupied and every dead diagonal).
    fn explain(
        &self,
        t: &[(usize, Option<i64>)],
        low: bool,
        weight: impl Fn(usize) -> i64,
    ) -> Vec<i32> {
        let mut clause = Vec::new();
        for &(d, t) in t {
            let start = self.lines.diagonals(d).start;
            for l in self.with_cells(d) {
                let w = weight(l - start);
                // An occupied diagonal counts beyond the threshold (heavier for a low bound,
                // lighter for a high one), a dead one short of it; at the threshold neither.
                let (queen, dead) = match t {
                    None => (true, true),
                    Some(t) if low => (w > t, w < t),
                    Some(t) => (w < t, w > t),
                };
                let o = self.lines.occupancy[l] as i32;
                match self.occupied(l) {
                    1 if queen => clause.push(-o),
                    -1 if dead => clause.push(o),
                    _ => {}
                }
            }
        }
        clause.sort_unstable();
        clause.dedup();
        clause
    }

    /// Hands `bounds` to the certificate, if one is written: the bounds of the clause added
    /// next (the certificate writes each bound's step once and names it as a hint of every
    /// clause that follows from it).
    fn hand(&self, bounds: impl IntoIterator<Item = Bound>) {
        if let Some(b) = &self.bounds {
            b.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend(bounds);
        }
    }

    /// The bounds a clause keeps in `pending` to hand to the certificate with it: these when
    /// one is written, none otherwise (nothing gathered then).
    fn kept(&self, bounds: impl IntoIterator<Item = Bound>) -> Vec<Bound> {
        if self.bounds.is_some() {
            bounds.into_iter().collect()
        } else {
            Vec::new()
        }
    }

    /// The conflict `clause` of a bound that failed, added (forgettable) with its bound.
    fn bound_failed(&mut self, clause: Vec<i32>, bound: Bound) {
        let bounds = self.kept([bound]);
        self.pending.push((clause, true, bounds));
    }

    /// Sets `lit` (a diagonal's occupancy or a cell, negated) with `bound`'s reason (`why`,
    /// without the literal); the bound goes to the certificate when CaDiCaL asks for the
    /// reason.
    fn exclude(&mut self, lit: i32, bound: Bound, why: &Arc<[i32]>) {
        self.queue.push((lit, Cause::Bound(Arc::clone(why), bound)));
    }

    /// The reason of a bound's propagations, made once per count (`made`).
    fn reason_of(
        &self,
        made: &mut Option<Arc<[i32]>>,
        t: &[(usize, Option<i64>)],
        low: bool,
        weight: impl Fn(usize) -> i64,
    ) -> Arc<[i32]> {
        Arc::clone(made.get_or_insert_with(|| self.explain(t, low, weight).into()))
    }

    /// The bounds on the sum of the indices of the occupied diagonals of direction `d`, which
    /// must be `n (n - 1)`: `true` on a conflict (no choice of the free diagonals makes it),
    /// its clause added with the bound that failed (in the OPB form's units); otherwise, with
    /// [`Arguments::propagate`], every free diagonal whose queen would break a bound is made
    /// unoccupied. With `t` the `k`-th smallest free index, a free diagonal of index `i`
    /// raises the least sum by `max(0, i - t)`, which must not exceed what is left of the
    /// target (the largest alike).
    fn sum_bounds(&mut self, d: usize) -> bool {
        let n = self.lines.n;
        let index = |i: usize| i as i64;
        let Some(s) = self.spread(d, index) else {
            return false;
        };
        // The OPB form's index of a diagonal: `r + c` 1-based (`/`, index r + c 0-based), or
        // `r - c` (`\`, index r - c + n - 1).
        let v = move |i: i64| i + if d == 0 { 2 } else { 1 - n as i64 };
        let target = (n * (n - 1)) as i64;
        let (least, most) = (s.least(), s.most());
        let (t_low, t_high) = (s.t_low(), s.t_high());
        let low = Bound::SumLow {
            dir: d,
            t: t_low.map_or(0, v),
        };
        let high = Bound::SumHigh {
            dir: d,
            t: t_high.map_or(0, v),
        };
        if least > target || most < target {
            let (bound, is_low, t) = if least > target {
                (low, true, t_low)
            } else {
                (high, false, t_high)
            };
            let clause = self.explain(&[(d, t)], is_low, index);
            self.counters.sum_clauses.fetch_add(1, Ordering::Relaxed);
            self.bound_failed(clause, bound);
            return true;
        }
        let (Some(tl), Some(th), true) = (t_low, t_high, self.arguments.propagate) else {
            return false;
        };
        let start = self.lines.diagonals(d).start;
        let mut why: [Option<Arc<[i32]>>; 2] = [None, None];
        let free = self.free(d);
        for l in free {
            let i = index(l - start);
            let (bound, t, side) = if i - tl > target - least {
                (low, tl, 0)
            } else if th - i > most - target {
                (high, th, 1)
            } else {
                continue;
            };
            let reason = self.reason_of(&mut why[side], &[(d, Some(t))], side == 0, index);
            self.exclude(-(self.lines.occupancy[l] as i32), bound, &reason);
        }
        false
    }

    /// The bounds on the second moments of the occupied diagonals, both directions at once: a
    /// diagonal of index `i` weighs `(i - (n - 1))^2` (its squared distance from the middle,
    /// `(r + c - (n - 1))^2` for `/`, `(r - c)^2` for `\`), and the n queens' weights of both
    /// directions add up to `n (n^2 - 1) / 3` (each queen's two weights are twice its row's
    /// and column's squared distances from the middle). When the weights of the occupied
    /// diagonals plus the `k` lightest (heaviest) free ones of each direction exceed (fall
    /// short of) that, the conflict clause (see [`QueensPropagator::explain`]) is added with
    /// the bound that failed (in the OPB form's units, the same weights); otherwise, with
    /// [`Arguments::propagate`], every free diagonal, and then every unassigned cell on two
    /// free diagonals, whose queen would raise the least (lower the most) past the target is
    /// made unoccupied (false): with `t` the `k`-th lightest free weight of each direction, a
    /// diagonal of weight `w` raises the least by `max(0, w - t)`, a cell by that of its two.
    fn moment_bounds(&mut self) {
        let n = self.lines.n;
        let weight = move |i: usize| (i as i64 - (n as i64 - 1)).pow(2);
        let (Some(s0), Some(s1)) = (self.spread(0, weight), self.spread(1, weight)) else {
            return;
        };
        let s = [s0, s1];
        let least = s[0].least() + s[1].least();
        let most = s[0].most() + s[1].most();
        let n64 = n as i64;
        let target = n64 * (n64 * n64 - 1) / 3;
        let t_low = [s[0].t_low(), s[1].t_low()];
        let t_high = [s[0].t_high(), s[1].t_high()];
        let low = Bound::MomentLow {
            t: t_low.map(|t| t.unwrap_or(0)),
        };
        let high = Bound::MomentHigh {
            t: t_high.map(|t| t.unwrap_or(0)),
        };
        if least > target || most < target {
            let (bound, is_low, t) = if least > target {
                (low, true, t_low)
            } else {
                (high, false, t_high)
            };
            let clause = self.explain(&[(0, t[0]), (1, t[1])], is_low, weight);
            self.counters.moment_clauses.fetch_add(1, Ordering::Relaxed);
            self.bound_failed(clause, bound);
            return;
        }
        let ([Some(l0), Some(l1)], [Some(h0), Some(h1)], true) =
            (t_low, t_high, self.arguments.propagate)
        else {
            return;
        };
        let (tl, th) = ([l0, l1], [h0, h1]);
        let (slack_low, slack_high) = (target - least, most - target);
        let parts = |t: [i64; 2]| [(0, Some(t[0])), (1, Some(t[1]))];
        let mut why: [Option<Arc<[i32]>>; 2] = [None, None];
        // What each free diagonal would raise the least by (lower the most by), 0 for the
        // others.
        let lines = Arc::clone(&self.lines);
        let mut raise = vec![(0i64, 0i64); lines.cells.len()];
        for d in 0..2 {
            let start = lines.diagonals(d).start;
            let free = self.free(d);
            for l in free {
                let w = weight(l - start);
                let (up, down) = ((w - tl[d]).max(0), (th[d] - w).max(0));
                raise[l] = (up, down);
                let (bound, t, side) = if up > slack_low {
                    (low, tl, 0)
                } else if down > slack_high {
                    (high, th, 1)
                } else {
                    continue;
                };
                let reason = self.reason_of(&mut why[side], &parts(t), side == 0, weight);
                self.exclude(-(lines.occupancy[l] as i32), bound, &reason);
                // Excluded already: no cell of it to look at.
                raise[l] = (0, 0);
            }
        }
        for cell in 0..self.cells {
            if self.value[cell] != 0 {
                continue;
            }
            let ids = lines.of_cell[cell];
            let (a, b) = (raise[ids[2] as usize], raise[ids[3] as usize]);
            let (bound, t, side) = if a.0 > 0 && b.0 > 0 && a.0 + b.0 > slack_low {
                (low, tl, 0)
            } else if a.1 > 0 && b.1 > 0 && a.1 + b.1 > slack_high {
                (high, th, 1)
            } else {
                continue;
            };
            let reason = self.reason_of(&mut why[side], &parts(t), side == 0, weight);
            self.exclude(-(cell as i32 + 1), bound, &reason);
        }
    }

    /// The sums and second moments by the queens' colour (square board; see
    /// [`class_failures`]).
    /// When no number of queens on colour 0 fits, the conflict clause names every occupied and
    /// every dead diagonal. (A shorter clause, each diagonal tried as free in
    /// turn and named only when freeing it would let a number fit, cost more than it saved:
    /// 3 to 56 times the time on satisfiable instances of the n = 30 band.)
    fn class_bounds(&mut self) {
        let n = self.lines.n;
        let mut diagonals = Vec::new();
        for d in 0..2 {
            let start = self.lines.diagonals(d).start;
            for l in self.with_cells(d) {
                let o = self.lines.occupancy[l] as i32;
                diagonals.push((d, l - start, self.occupied(l), o));
            }
        }
        let Some(steps) = class_failures(n, &diagonals) else {
            return;
        };
        let mut clause: Vec<i32> = diagonals
            .iter()
            .filter(|x| x.2 != 0)
            .map(|&(_, _, v, o)| if v == 1 { -o } else { o })
            .collect();
        clause.sort_unstable();
        clause.dedup();
        self.counters.class_clauses.fetch_add(1, Ordering::Relaxed);
        let cases = self.kept(steps.into_iter().map(Bound::Class));
        self.pending.push((clause, true, cases));
    }

    /// A cell became true: it owns its free lines; a line owned by another cell is a
    /// conflict, handed to CaDiCaL as the propagation of this cell's negation (already false)
    /// with the other cell as reason; the other cells of its lines are to be made false.
    fn set_true(&mut self, cell: usize) {
        let lines = Arc::clone(&self.lines);
        for &l in &lines.of_cell[cell] {
            let l = l as usize;
            match self.owner[l] {
                0 => {
                    self.owner[l] = cell as u32 + 1;
                    for &other in &lines.cells[l] {
                        if other as usize != cell && self.value[other as usize] == 0 {
                            self.queue
                                .push((-(other as i32 + 1), Cause::Pair(cell as u32)));
                        }
                    }
                }
                o if o as usize - 1 != cell => {
                    self.counters.conflicts.fetch_add(1, Ordering::Relaxed);
                    self.queue.push((-(cell as i32 + 1), Cause::Pair(o - 1)));
                }
                _ => {}
            }
        }
    }

    /// Undoes one assignment of the trail.
    fn undo(&mut self, var: u32, was_true: bool) {
        let x = var as usize;
        self.value[x] = 0;
        if was_true && x < self.cells {
            for &l in &self.lines.of_cell[x] {
                if self.owner[l as usize] == var + 1 {
                    self.owner[l as usize] = 0;
                }
            }
        }
        if !was_true {
            for d in self.lines.occupied_by(x) {
                self.live[d] += 1;
            }
        }
    }
}

impl ExternalPropagator for QueensPropagator {
    fn notify_assignment(&mut self, lits: &[i32]) {
        for &lit in lits {
            let v = lit.unsigned_abs() as usize;
            if v == 0 || v > self.value.len() {
                continue;
            }
            let x = v - 1;
            if self.value[x] != 0 {
                continue;
            }
            let positive = lit > 0;
            self.value[x] = if positive { 1 } else { -1 };
            self.trail.push((x as u32, positive));
            if positive && x < self.cells {
                self.set_true(x);
            }
            for d in self.lines.occupied_by(x) {
                self.dirty = true;
                if !positive {
                    self.live[d] -= 1;
                }
            }
        }
    }

    fn notify_new_decision_level(&mut self) {
        self.levels.push(self.trail.len());
    }

    fn notify_backtrack(&mut self, new_level: usize, _restart: bool) {
        if new_level < self.levels.len() {
            let keep = self.levels[new_level];
            self.levels.truncate(new_level);
            while self.trail.len() > keep {
                if let Some((var, t)) = self.trail.pop() {
                    self.undo(var, t);
                }
            }
        }
        // Propagations whose reason is still true stay; the others go, and the arguments'
        // (their reasons may hold literals no longer false).
        let value = &self.value;
        self.queue
            .retain(|(_, why)| matches!(why, Cause::Pair(r) if value[*r as usize] == 1));
        self.giving = None;
        // Conflicts found on the assignment undone may no longer be false.
        self.pending.retain(|(_, forgettable, _)| !forgettable);
        self.dirty = true;
    }

    fn check_found_model(&mut self, model: &[i32]) -> bool {
        let mut on = vec![false; self.cells];
        for &lit in model {
            let v = lit.unsigned_abs() as usize;
            if lit > 0 && v <= self.cells {
                on[v - 1] = true;
            }
        }
        let mut ok = true;
        for line in &self.lines.cells {
            let mut first: Option<u32> = None;
            for &c in line {
                if on[c as usize] {
                    match first {
                        None => first = Some(c),
                        Some(a) => {
                            self.pending.push((
                                vec![-(a as i32 + 1), -(c as i32 + 1)],
                                false,
                                Vec::new(),
                            ));
                            ok = false;
                            break;
                        }
                    }
                }
            }
        }
        if !ok {
            self.counters.conflicts.fetch_add(1, Ordering::Relaxed);
        }
        ok
    }

    fn propagate(&mut self) -> i32 {
        loop {
            while let Some((lit, why)) = self.queue.pop() {
                let x = lit.unsigned_abs() as usize - 1;
                // Already true: nothing to do (a conflict is a literal already false).
                if self.value[x] == if lit > 0 { 1 } else { -1 } {
                    continue;
                }
                let counter = match why {
                    Cause::Pair(r) if self.value[r as usize] != 1 => continue,
                    Cause::Bound(_, Bound::Count { .. }) => Some(&self.counters.counting_clauses),
                    Cause::Bound(..) => Some(&self.counters.bound_propagations),
                    _ => None,
                };
                if let Some(c) = counter {
                    c.fetch_add(1, Ordering::Relaxed);
                }
                self.reason[x] = why;
                self.counters.propagations.fetch_add(1, Ordering::Relaxed);
                return lit;
            }
            // The arguments propagate on the assignment the propagations above leave.
            if !(self.arguments.any() && self.dirty && self.pending.is_empty()) {
                return 0;
            }
            self.count();
            if self.queue.is_empty() {
                return 0;
            }
        }
    }

    fn add_reason_clause_lit(&mut self, propagated: i32) -> i32 {
        let step = match self.giving {
            Some((lit, k)) if lit == propagated => k,
            _ => 0,
        };
        let x = propagated.unsigned_abs() as usize - 1;
        let out = match (step, &self.reason[x]) {
            (0, why) => {
                self.counters.reasons.fetch_add(1, Ordering::Relaxed);
                if let Cause::Bound(_, bound) = why {
                    self.hand([*bound]);
                }
                propagated
            }
            (1, Cause::Pair(r)) => -(*r as i32 + 1),
            (k, Cause::Bound(why, _)) => why.get(k - 1).copied().unwrap_or(0),
            _ => 0,
        };
        self.giving = if out == 0 {
            None
        } else {
            Some((propagated, step + 1))
        };
        out
    }

    fn has_external_clause(&mut self, forgettable: &mut bool) -> bool {
        if !self.adding.is_empty() {
            *forgettable = self.adding_forgettable;
            return true;
        }
        if self.pending.is_empty() && self.arguments.any() && self.dirty {
            self.count();
        }
        match self.pending.pop() {
            Some((clause, forget, bounds)) => {
                if !forget {
                    self.counters.model_clauses.fetch_add(1, Ordering::Relaxed);
                }
                // The clause's bounds go to the certificate now, just before it.
                self.hand(bounds);
                self.adding = std::iter::once(0).chain(clause.into_iter().rev()).collect();
                self.adding_forgettable = forget;
                *forgettable = forget;
                true
            }
            None => {
                *forgettable = false;
                false
            }
        }
    }

    fn add_external_clause_lit(&mut self) -> i32 {
        self.adding.pop().unwrap_or(0)
    }
}

/// CaDiCaL with the queens propagator attached: a [`Solver`] for the pairwise cell model of
/// an instance (see the module documentation). Build it with [`PropagatorSolver::new`], then
/// hand it to [`crate::solve::solve_model_with_solver`] or an enumeration
/// ([`crate::solve::Enumeration::solver`]).
pub struct PropagatorSolver {
    inner: CadicalSolver,
    lines: Arc<Lines>,
    cells: usize,
    counters: Arc<Counters>,
    kept: u64,
    replaced: u64,
}

/// Why an instance cannot go to the propagator engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PropagatorError {
    /// The instance's model is not the pairwise cell model.
    #[error("the propagator engine takes the cell model with the pairwise at-most-one encoding and no symmetry breaking (the default model); this instance is {0}")]
    Model(String),
}

impl PropagatorSolver {
    /// A solver for instance `f` (its board size and geometry; its clauses come through
    /// [`Solver::add_clause`]), with CaDiCaL's options by name and the propagator's own
    /// ([`COUNTING_OPTION`]). Refuses an instance whose
    /// model is not the pairwise cell model without symmetry breaking, the formula whose
    /// at-most-one clauses the propagator replaces.
    pub fn new(f: &dyn Formula, options: &[SolverOption]) -> Result<PropagatorSolver, SolveError> {
        let (arguments, cadical) = split_options(options).map_err(SolveError::Option)?;
        PropagatorSolver::on(
            f,
            CadicalSolver::with_own_defaults(&cadical)?,
            arguments,
            None,
        )
    }

    /// The propagator attached to `inner`, a CaDiCaL with its options set (and its proof
    /// tracer connected, which CaDiCaL allows only before the propagator's variables), with
    /// the search's `arguments` it is to use (none when a DRAT or LRAT proof is written: see
    /// the module documentation), and where the failed bounds go for a VeriPB certificate.
    pub(crate) fn on(
        f: &dyn Formula,
        mut inner: CadicalSolver,
        arguments: Arguments,
        bounds: Option<Arc<Mutex<Vec<Bound>>>>,
    ) -> Result<PropagatorSolver, SolveError> {
        check_model(f).map_err(|e| SolveError::Solver(e.to_string()))?;
        let n = f.n();
        let lines = Arc::new(Lines::new(n, f.geometry()));
        let counters = Arc::new(Counters::default());
        let solver = inner.inner();
        solver.connect_external_propagator(Box::new(QueensPropagator::new(
            Arc::clone(&lines),
            Arc::clone(&counters),
            arguments,
            bounds,
        )));
        // The occupancies are variables only for the arguments (a DRAT or LRAT proof is
        // checked against the pairwise formula, which has none).
        let (vars, definitions) = if arguments.any() {
            (lines.vars, lines.definitions())
        } else {
            (n * n, Vec::new())
        };
        for v in 1..=vars as i32 {
            solver.add_observed_var(v);
        }
        for clause in &definitions {
            solver.add_clause(clause);
        }
        Ok(PropagatorSolver {
            inner,
            lines,
            cells: n * n,
            counters,
            kept: definitions.len() as u64,
            replaced: 0,
        })
    }

    /// The CaDiCaL underneath, to take its proof tracer back.
    pub(crate) fn cadical(&mut self) -> &mut super::cadical::Cadical {
        self.inner.inner()
    }

    /// What the propagator did so far.
    pub fn stats(&self) -> PropagatorStats {
        PropagatorStats {
            propagations: self.counters.propagations.load(Ordering::Relaxed),
            reasons: self.counters.reasons.load(Ordering::Relaxed),
            conflicts: self.counters.conflicts.load(Ordering::Relaxed),
            model_clauses: self.counters.model_clauses.load(Ordering::Relaxed),
            counting_clauses: self.counters.counting_clauses.load(Ordering::Relaxed),
            sum_clauses: self.counters.sum_clauses.load(Ordering::Relaxed),
            moment_clauses: self.counters.moment_clauses.load(Ordering::Relaxed),
            class_clauses: self.counters.class_clauses.load(Ordering::Relaxed),
            bound_propagations: self.counters.bound_propagations.load(Ordering::Relaxed),
            clauses_replaced: self.replaced,
            clauses_kept: self.kept,
        }
    }

    /// `true` when the clause is an at-most-one pair of the propagator's: `-a -b` for two
    /// cells on one line.
    fn is_pair(&self, clause: &[Lit]) -> bool {
        let [a, b] = clause else { return false };
        if a.is_positive() || b.is_positive() {
            return false;
        }
        let (x, y) = (a.index(), b.index());
        x != y && x < self.cells && y < self.cells && self.lines.share(x, y)
    }
}

/// `Ok` when `inst` is the pairwise cell model of the catalogue (no redundant clauses or
/// constraints) without symmetry breaking.
pub fn check_model(inst: &dyn Formula) -> Result<(), PropagatorError> {
    use crate::encode::{Amo, EncodeOptions, LineEncodings, Model};
    let reference = Model::cells(EncodeOptions {
        amo: LineEncodings::uniform(Amo::PAIRWISE),
        column_alo: false,
    });
    let pairwise = inst.model() == Some(&reference);
    if !pairwise || inst.symmetry_breaking().is_on() {
        return Err(PropagatorError::Model(inst.name()));
    }
    Ok(())
}

impl Solver for PropagatorSolver {
    fn add_clause(&mut self, clause: &[Lit]) {
        if self.is_pair(clause) {
            self.replaced += 1;
            return;
        }
        self.kept += 1;
        self.inner.add_clause(clause);
    }

    fn solve(&mut self, assumptions: &[Lit], budget: &Budget) -> Result<bool, SolveError> {
        self.inner.solve(assumptions, budget)
    }

    fn model(&mut self, vars: usize) -> Result<Vec<Lit>, SolveError> {
        self.inner.model(vars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every solution of the empty `n` x `n` board (square or torus), each as the column of
    /// the queen of every row, by brute force over the permutations.
    fn solutions(n: usize, geometry: Geometry) -> Vec<Vec<usize>> {
        use itertools::Itertools;
        (0..n)
            .permutations(n)
            .filter(|cols| {
                let mut seen = std::collections::HashSet::new();
                cols.iter().enumerate().all(|(r, &c)| {
                    seen.insert((0, geometry.diagonal(n, r, c)))
                        && seen.insert((1, geometry.anti_diagonal(n, r, c)))
                })
            })
            .collect()
    }

    /// Unit propagation of `clauses` on the propagator's assignment, each literal it sets
    /// notified (what CaDiCaL does with the occupancies' definitions).
    fn settle(p: &mut QueensPropagator, clauses: &[Vec<i32>]) {
        loop {
            let mut changed = false;
            for clause in clauses {
                let value = |l: i32| {
                    let v = p.value[l.unsigned_abs() as usize - 1];
                    if l > 0 {
                        v
                    } else {
                        -v
                    }
                };
                if clause.iter().any(|&l| value(l) == 1) {
                    continue;
                }
                let open: Vec<i32> = clause.iter().copied().filter(|&l| value(l) == 0).collect();
                if let [unit] = open[..] {
                    p.notify_assignment(&[unit]);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Each clause of the arguments (counting, sums and moments) and each reason of their
    /// propagations holds in every solution of the board: from partial assignments, half of
    /// them extended by a solution (some of its queens true, some cells off it false) and half
    /// at random, the occupancies settled by their definitions, every clause the propagator
    /// gives is checked against every solution, and its propagations are taken (as CaDiCaL
    /// would) with their reasons checked alike, each reason's other literals false when it is
    /// given. A clause that some solution breaks would cut that solution off.
    #[test]
    fn every_argument_clause_holds_in_every_solution() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |k: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k as u64) as usize
        };
        let mut given = [0u64; 5];
        for (n, geometry) in [
            (5, Geometry::Square),
            (6, Geometry::Square),
            (7, Geometry::Square),
            (8, Geometry::Square),
            (5, Geometry::Toroidal),
            (7, Geometry::Toroidal),
        ] {
            let all = solutions(n, geometry);
            assert!(!all.is_empty());
            let lines = Arc::new(Lines::new(n, geometry));
            let definitions = lines.definitions();
            // A literal's value in a solution: a cell's queen, or a diagonal's occupancy.
            let holds = |clause: &[i32], sol: &[usize]| {
                clause.iter().any(|&lit| {
                    let x = lit.unsigned_abs() as usize - 1;
                    let queen = |cell: usize| sol[cell / n] == cell % n;
                    let on = if x < n * n {
                        queen(x)
                    } else {
                        let l = lines.occupies[x][0] as usize;
                        lines.cells[l].iter().any(|&c| queen(c as usize))
                    };
                    on == (lit > 0)
                })
            };
            let in_every = |clause: &[i32], from: &[i32]| {
                for other in &all {
                    assert!(
                        holds(clause, other),
                        "n = {n} {geometry:?}: {clause:?} breaks {other:?} (from {from:?})"
                    );
                }
            };
            for trial in 0..300 {
                let sol = &all[trial % all.len()];
                let counters = Arc::new(Counters::default());
                // A third of the trials with the colour classes alone (with the others on,
                // the moments' conflicts come first and leave them little to find).
                let arguments = if trial % 3 == 2 {
                    Arguments {
                        classes: true,
                        ..Arguments::NONE
                    }
                } else {
                    Arguments::ALL
                };
                let mut p = QueensPropagator::new(
                    Arc::clone(&lines),
                    Arc::clone(&counters),
                    arguments,
                    None,
                );
                // Half of the trials keep to the solution (true cells of it, false cells off
                // it); the other half are any cells, which no solution need extend.
                let any = trial % 2 == 1;
                let mut lits = Vec::new();
                for (r, &col) in sol.iter().enumerate() {
                    let queen = if any { next(n) } else { col };
                    if next(3) == 0 {
                        lits.push((r * n + queen) as i32 + 1);
                    }
                    for c in 0..n {
                        if c != queen && next(2) == 0 {
                            lits.push(-((r * n + c) as i32 + 1));
                        }
                    }
                }
                p.notify_assignment(&lits);
                settle(&mut p, &definitions);
                let mut forgettable = false;
                loop {
                    let lit = p.propagate();
                    if lit != 0 {
                        let mut reason = Vec::new();
                        loop {
                            match p.add_reason_clause_lit(lit) {
                                0 => break,
                                l => reason.push(l),
                            }
                        }
                        assert_eq!(reason[0], lit);
                        for &other in &reason[1..] {
                            let v = p.value[other.unsigned_abs() as usize - 1];
                            assert_eq!(v, if other > 0 { -1 } else { 1 }, "{reason:?}");
                        }
                        in_every(&reason, &lits);
                        p.notify_assignment(&[lit]);
                        settle(&mut p, &definitions);
                        continue;
                    }
                    if !p.has_external_clause(&mut forgettable) {
                        break;
                    }
                    let mut clause = Vec::new();
                    loop {
                        match p.add_external_clause_lit() {
                            0 => break,
                            lit => clause.push(lit),
                        }
                    }
                    in_every(&clause, &lits);
                    // The assignment stays: a second count would give the same clauses.
                    p.dirty = false;
                }
                given[0] += counters.counting_clauses.load(Ordering::Relaxed);
                given[1] += counters.sum_clauses.load(Ordering::Relaxed);
                given[2] += counters.moment_clauses.load(Ordering::Relaxed);
                given[3] += counters.bound_propagations.load(Ordering::Relaxed);
                given[4] += counters.class_clauses.load(Ordering::Relaxed);
            }
        }
        assert!(given.iter().all(|&g| g > 0), "{given:?}");
    }

    /// The occupancies' definitions are what the OPB form's are: each diagonal of two or more
    /// cells numbered as the form numbers it ([`occupancy_variables`] against the anchors),
    /// on the square and the torus.
    #[test]
    fn occupancies_are_numbered_as_the_opb_form_numbers_them() {
        use crate::instance::{certificate_form, Instance, Model};
        for (n, geometry) in [
            (1, Geometry::Square),
            (5, Geometry::Square),
            (8, Geometry::Square),
            (5, Geometry::Toroidal),
        ] {
            let inst = Instance::new_on(n, Model::default(), geometry).unwrap();
            let (_, _, anchors) = certificate_form(&inst).unwrap().opb_form().unwrap();
            assert_eq!(
                anchors.occupancy,
                occupancy_variables(n, geometry),
                "n = {n} {geometry:?}"
            );
            // Each occupancy of its own is defined in the form (on the torus the form also
            // defines the square's lines for the sums and moments).
            for o in n * n + 1..=Lines::new(n, geometry).vars {
                assert!(
                    anchors.definitions.contains_key(&(o as u64)),
                    "n = {n}: x{o}"
                );
            }
        }
    }

    #[test]
    fn lines_of_the_square_and_the_torus() {
        let sq = Lines::new(4, Geometry::Square);
        // (0,0) and (3,3) share the `\` diagonal; (0,1) and (2,0) share none.
        assert!(sq.share(0, 15));
        assert!(!sq.share(1, 8));
        let torus = Lines::new(4, Geometry::Toroidal);
        // On the torus (0,1) and (3,2) share the `/` diagonal 1 (3 + 2 = 1 mod 4).
        assert!(torus.share(1, 14));
        assert!(!sq.share(1, 14));
    }
}
