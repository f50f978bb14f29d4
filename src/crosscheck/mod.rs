//! Cross-checks: every part of the toolkit checked against the others, for each board size and
//! encoding.
//!
//! For one formula (a [`Formula`]: the real encoder, or in tests a deliberately broken one) and
//! one n, [`check_formula`] runs five checks and names every disagreement it finds:
//!
//! 1. **SAT** ([`Check::Sat`]): the embedded solver's answer (SAT/UNSAT) agrees with the
//!    backtracking counter (UNSAT exactly when the count is 0), and its model is a solution;
//!    an UNSAT answer is proved: a DRAT proof written by the solver and accepted by an
//!    independent checker ([`crate::solve::prove_and_check`]).
//! 2. **Counts** ([`Check::Counts`]): the models enumerated by SAT, blocked on the cell
//!    variables, are all solutions and as many as the counter's total, which equals the published
//!    table ([`REFERENCE_COUNTS`], OEIS A000170/A002562) where it has the value.
//! 3. **Construct** ([`Check::Construct`]): the placements of the direct constructor satisfy the
//!    CNF (evaluated clause by clause when the formula has no auxiliary variables, otherwise with
//!    the cells fixed as solver assumptions and the auxiliary variables free).
//! 4. **Soundness** ([`Check::Soundness`]): boards one change away from a solution (a queen
//!    removed, added, moved or two swapped, see [`corruptions`]) are accepted by the CNF exactly
//!    when the rules accept them.
//! 5. **External** ([`Check::External`]): external solvers on the exported DIMACS agree on
//!    SAT/UNSAT and their models satisfy every clause and describe a solution.
//!
//! [`run`] runs the checks for many formulas on worker threads and reports the rows in order,
//! each as soon as it and all rows before it are done.
//!
//! ```
//! use queens_sat::crosscheck::{check_formula, CheckConfig, Expectation};
//! use queens_sat::instance::{Instance, Model};
//! use std::sync::Arc;
//!
//! let inst = Instance::new(6, Model::default()).unwrap();
//! let row = check_formula(Arc::new(inst), &Expectation::for_n(6), &CheckConfig::default());
//! assert!(row.ok(), "{:?}", row.discrepancies);
//! assert_eq!(row.models, Some(4));
//! ```

mod corrupt;
mod table;

pub use corrupt::{corruptions, rule_check, rule_check_instance, CorruptBoard, Corruption};
pub use table::{reference_fundamental, reference_total, REFERENCE_COUNTS};

use crate::board::{Placement, Symmetry};
use crate::construct::{construct, Method};
use crate::count::{self, Counts};
use crate::encode::LabelledCnf;
pub use crate::instance::Formula;
use crate::instance::{check_board, masked_board, to_labelled_cnf};
use crate::solve::runner::{self, CnfInput, Outcome, RunError, RunRequest};
use crate::solve::{
    clause_violation, describe_lit, describe_model, Enumeration, SolveError, SolverCommand,
};
use crate::symmetry::SymmetryBreaking;
use serde::Serialize;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};

/// The five checks (and the formula's own consistency), for naming discrepancies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// The formula itself: it could be made and uses only the variables it declares.
    Formula,
    /// 1: the embedded solver's answer and model.
    Sat,
    /// 2: SAT enumeration, the counter and the published table.
    Counts,
    /// 3: the constructed placements against the CNF.
    Construct,
    /// 4: corrupted boards against the CNF.
    Soundness,
    /// 5: external solvers on the DIMACS file.
    External,
    /// 6: the model count with lex-leader symmetry breaking against the number of classes.
    Symmetry,
}

impl Check {
    /// The check's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Check::Formula => "formula",
            Check::Sat => "sat",
            Check::Counts => "counts",
            Check::Construct => "construct",
            Check::Soundness => "soundness",
            Check::External => "external",
            Check::Symmetry => "symmetry",
        }
    }
}

/// A disagreement between two parts, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Discrepancy {
    /// Which check found it.
    pub check: Check,
    /// What disagreed, with the board, clause or count involved (1-based).
    pub message: String,
}

impl std::fmt::Display for Discrepancy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.check.name(), self.message)
    }
}

/// What one external solver said about one formula.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExternalResult {
    /// The solver command.
    pub solver: String,
    /// `SAT` (model verified), `UNSAT`, `timeout`, `not on PATH`, or what went wrong.
    pub status: String,
    /// `false` when its answer disagrees with the other parts.
    pub agrees: bool,
}

/// The outcome of the checks for one n and one formula.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowReport {
    /// Board size.
    pub n: usize,
    /// The formula's name.
    pub encoding: String,
    /// Variables declared.
    pub vars: usize,
    /// Clauses emitted.
    pub clauses: usize,
    /// The embedded solver's answer (`None` if it failed).
    pub sat: Option<bool>,
    /// Models enumerated by SAT (`None`: enumeration skipped for this n, or stopped early).
    pub models: Option<u64>,
    /// The backtracking counter's total (`None` beyond its range).
    pub counter: Option<u64>,
    /// The published total (`None` beyond n = 27).
    pub reference: Option<u64>,
    /// Distinct constructed placements checked against the CNF.
    pub constructed: usize,
    /// Corrupted boards checked against the CNF.
    pub corruptions: usize,
    /// Models enumerated by SAT with lex-leader symmetry breaking (`None`: not checked): the
    /// classes of solutions under the symmetries of the square that map the board onto itself.
    pub classes: Option<u64>,
    /// External solvers' answers.
    pub external: Vec<ExternalResult>,
    /// When the embedded solver answered UNSAT: the lemmas of its DRAT proof, which the
    /// independent checker (dratify) accepted (`None` otherwise, or when the proof failed:
    /// then a discrepancy says why).
    pub proof_lemmas: Option<u64>,
    /// Everything that disagreed.
    pub discrepancies: Vec<Discrepancy>,
    /// Wall time of the row, seconds.
    pub seconds: f64,
}

impl RowReport {
    /// `true` when every check agreed.
    pub fn ok(&self) -> bool {
        self.discrepancies.is_empty()
    }

    fn fail(&mut self, check: Check, message: impl Into<String>) {
        self.discrepancies.push(Discrepancy {
            check,
            message: message.into(),
        });
    }
}

/// Settings of the checks.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Enumerate all models by SAT only for n up to this (enumeration grows like the count).
    pub enumerate_up_to: usize,
    /// Run the backtracking counter only for n up to this (its time grows about 6x per n);
    /// beyond, the published table alone gives the expected counts.
    pub count_up_to: usize,
    /// How many enumerated solutions to corrupt for the soundness check, besides the
    /// constructed placements (or the solver's single model when enumeration is skipped).
    pub corrupted_solutions: usize,
    /// External solver commands (`cadical`, `minisat`, `kissat -q`); those not on PATH are
    /// reported as skipped.
    pub external: Vec<String>,
    /// Time limit per external solver run.
    pub timeout: Duration,
    /// Worker threads for [`run`] (default: one per core).
    pub threads: Option<usize>,
    /// The embedded solver of the enumeration and the symmetry-breaking count (default:
    /// [`crate::solve::Backend::default`]). The single solve, the soundness probes and the
    /// proofs of UNSAT answers use varisat, which writes the proofs.
    pub backend: crate::solve::Backend,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            enumerate_up_to: 10,
            count_up_to: 16,
            corrupted_solutions: 3,
            external: Vec::new(),
            timeout: Duration::from_secs(60),
            threads: None,
            backend: crate::solve::Backend::for_enumeration(),
        }
    }
}

/// What is known about n independently of any formula: the counter's result and the table's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// Board size.
    pub n: usize,
    /// The backtracking counter's counts, for n up to [`count::MAX_N`].
    pub counter: Option<Counts>,
    /// The published total D(n) (OEIS A000170), for n up to 27.
    pub reference: Option<u64>,
    /// The published fundamental count U(n) (OEIS A002562), for n up to 27.
    pub reference_fundamental: Option<u64>,
    /// For an instance (pre-placed queens, forbidden cells, a toroidal board): its number of
    /// solutions by the bitboard counter ([`count::count_masked`]). The empty square board's
    /// counter, table and constructions do not apply to it.
    pub instance_total: Option<u64>,
    /// The board is an instance (fixed cells or a toroidal board), not the empty square board.
    pub instance: bool,
}

impl Expectation {
    /// Runs the counter for `n` (when in its range) and looks the table up.
    pub fn for_n(n: usize) -> Self {
        Expectation {
            counter: count::count(n).ok(),
            ..Expectation::table_only(n)
        }
    }

    /// The published counts only, without running the counter.
    pub fn table_only(n: usize) -> Self {
        Expectation {
            n,
            counter: None,
            reference: reference_total(n),
            reference_fundamental: reference_fundamental(n),
            instance_total: None,
            instance: false,
        }
    }

    /// What is known about an instance that is not the empty square board: its count by the
    /// bitboard counter (n <= 64; `None` beyond). For the empty square board, the table only
    /// ([`Expectation::table_only`]; [`Expectation::for_n`] adds the counter).
    pub fn for_instance(f: &dyn Formula) -> Self {
        if f.fixed() == (&[][..], &[][..]) && f.geometry() == crate::board::Geometry::Square {
            return Expectation::table_only(f.n());
        }
        Expectation {
            n: f.n(),
            counter: None,
            reference: None,
            reference_fundamental: None,
            instance_total: masked_board(f).ok().map(|b| count::count_masked(&b)),
            instance: true,
        }
    }

    /// The number of solutions: the instance's count, else the counter's, else the table's.
    pub fn total(&self) -> Option<u64> {
        self.instance_total
            .or(self.counter.map(|c| c.total))
            .or(self.reference)
    }

    /// `true` for an instance other than the empty square board.
    pub fn is_instance(&self) -> bool {
        self.instance
    }
}

/// How many discrepancies of one kind a row lists before summarising the rest.
const MAX_LISTED: usize = 3;

/// The formula in memory with a solver loaded with it, for asking about boards.
struct Probe<'a> {
    f: &'a dyn Formula,
    formula: &'a LabelledCnf,
    solver: varisat::Solver<'static>,
}

/// The CNF's answer about a board.
enum Verdict {
    Accepts,
    Rejects(String),
    /// The model cannot express the board (several queens in a row for a model with one integer
    /// per row): nothing to compare.
    Unrepresentable,
}

impl<'a> Probe<'a> {
    fn new(f: &'a dyn Formula, formula: &'a LabelledCnf) -> Self {
        let mut solver = varisat::Solver::new();
        solver.add_formula(&formula.cnf.to_varisat());
        Probe { f, formula, solver }
    }

    /// Does the CNF accept the board with these cell values? Without auxiliary variables every
    /// clause is evaluated; with them the solver looks for values of the auxiliaries.
    fn verdict(&mut self, cells: &[bool]) -> Result<Verdict, String> {
        let Some(lits) = self.f.pattern_lits(cells) else {
            return Ok(Verdict::Unrepresentable);
        };
        let vars = self.f.num_vars() as usize;
        if lits.len() == vars {
            let mut values = vec![false; vars];
            for l in &lits {
                values[l.index()] = l.is_positive();
            }
            return Ok(match self.formula.cnf.first_falsified(&values) {
                None => Verdict::Accepts,
                Some(i) => Verdict::Rejects(describe_clause(self.f, self.formula, i)),
            });
        }
        self.solver.assume(&lits);
        let sat = self.solver.solve().map_err(|e| e.to_string())?;
        if sat {
            return Ok(Verdict::Accepts);
        }
        let core: Vec<String> = self
            .solver
            .failed_core()
            .unwrap_or(&[])
            .iter()
            .map(|&l| describe_lit(self.f, l))
            .collect();
        Ok(Verdict::Rejects(format!(
            "no values of the auxiliary variables satisfy it; the conflict involves {}",
            if core.is_empty() {
                "no variable of the board".to_string()
            } else {
                core.join(" ")
            }
        )))
    }
}

/// Clause `i` in words: number, group, board line, literals.
fn describe_clause(f: &dyn Formula, formula: &LabelledCnf, i: usize) -> String {
    let v = clause_violation(f, &formula.cnf, i);
    match formula.line_of(i) {
        Some(line) => format!("{v} (on {})", line.describe_on(f.n(), f.geometry())),
        None => v.to_string(),
    }
}

/// The board of a model, checked, or what is wrong with it and the model's queens.
fn board_of_model(f: &dyn Formula, values: &[bool]) -> Result<Placement, String> {
    let p = f
        .decode(values)
        .map_err(|e| format!("{e} ({})", describe_model(f, values)))?;
    check_board(f, &p).map_err(|e| format!("{e} ({})", describe_model(f, values)))?;
    Ok(p)
}

/// Runs the checks 1-5 on formula `f`, with `exp` the counter's and the table's counts for
/// `f.n()`. Never panics on a wrong formula: everything that disagrees becomes a
/// [`Discrepancy`] of the returned row.
pub fn check_formula(f: Arc<dyn Formula>, exp: &Expectation, cfg: &CheckConfig) -> RowReport {
    let shared = Arc::clone(&f);
    let f = f.as_ref();
    let start = Instant::now();
    let n = f.n();
    let mut row = RowReport {
        n,
        encoding: f.name(),
        vars: f.num_vars() as usize,
        clauses: 0,
        sat: None,
        models: None,
        counter: exp.counter.map(|c| c.total).or(exp.instance_total),
        reference: exp.reference,
        constructed: 0,
        corruptions: 0,
        classes: None,
        external: Vec::new(),
        proof_lemmas: None,
        discrepancies: Vec::new(),
        seconds: 0.0,
    };
    let formula = to_labelled_cnf(f);
    let cnf = &formula.cnf;
    row.clauses = cnf.len();
    if cnf.max_var() > row.vars {
        row.fail(
            Check::Formula,
            format!(
                "a clause uses variable {} but the formula declares {}",
                cnf.max_var(),
                row.vars
            ),
        );
        row.vars = cnf.max_var();
    }
    let projection = f.projection().len();
    if row.vars < projection {
        row.fail(
            Check::Formula,
            format!(
                "the formula declares {} variables, fewer than the {projection} of its projection",
                row.vars,
            ),
        );
        row.vars = projection;
    }
    check_counter_against_table(exp, &mut row);
    let mut probe = Probe::new(f, &formula);
    let expected = exp.total();
    // Solutions whose neighbours the soundness check tries.
    let mut bases: Vec<Placement> = Vec::new();

    // 1. One solve.
    match probe.solver.solve() {
        Err(e) => row.fail(Check::Sat, format!("the embedded solver failed: {e}")),
        Ok(sat) => {
            row.sat = Some(sat);
            if let Some(total) = expected {
                if sat != (total > 0) {
                    row.fail(
                        Check::Sat,
                        format!(
                            "the solver says {}, but {} ({})",
                            if sat { "SAT" } else { "UNSAT" },
                            there_are(total),
                            if exp.counter.is_some() {
                                "counter"
                            } else {
                                "table"
                            }
                        ),
                    );
                }
            }
            if !sat {
                // An UNSAT answer is relied on only once proved: a DRAT proof, checked.
                match crate::solve::prove_and_check(f) {
                    Ok(Some(c)) if c.verified => row.proof_lemmas = Some(c.lemmas),
                    Ok(Some(c)) => row.fail(Check::Sat, format!("the UNSAT answer's {c}")),
                    Ok(None) => row.fail(
                        Check::Sat,
                        "the solver says UNSAT, but proving it found a solution",
                    ),
                    Err(e) => row.fail(Check::Sat, format!("the UNSAT answer's proof: {e}")),
                }
            }
            if sat {
                let model = probe.solver.model().unwrap_or_default();
                let values = crate::solve::values_of(&model, row.vars);
                match board_of_model(f, &values) {
                    Ok(p) => bases.push(p),
                    Err(problem) => row.fail(
                        Check::Sat,
                        format!("the solver's model is not a solution: {problem}"),
                    ),
                }
            }
        }
    }

    // 2. Enumeration.
    // Instances with few solutions are enumerated at any size the counter takes.
    let few = exp.is_instance() && expected.is_some_and(|t| t <= 10_000);
    if n <= cfg.enumerate_up_to || few {
        let kept = enumerate(
            Arc::clone(&shared),
            cfg.backend,
            expected,
            cfg.corrupted_solutions,
            &mut row,
        );
        if !kept.is_empty() {
            bases = kept;
        }
    }

    // 6. Symmetry breaking: the lex-leader count against the classes, for small boards.
    if n <= cfg.enumerate_up_to.min(SYMMETRY_CHECK_MAX_N) && (!exp.is_instance() || few) {
        check_symmetry_breaking(f, exp, cfg.backend, &mut row);
    }

    // 3. The constructor (the empty square board only: a construction knows no fixed cells).
    let mut constructed: Vec<(Method, Placement)> = Vec::new();
    let methods: &[Method] = if exp.is_instance() { &[] } else { &Method::ALL };
    for &method in methods {
        match construct(n, method) {
            Err(e) => row.fail(
                Check::Construct,
                format!("the {} constructor failed: {e}", method_label(method)),
            ),
            Ok(None) => {
                if expected.is_some_and(|t| t > 0) {
                    row.fail(
                        Check::Construct,
                        format!(
                            "the {} constructor says no solution exists, but {}",
                            method_label(method),
                            there_are(expected.unwrap_or(0))
                        ),
                    );
                }
            }
            Ok(Some(p)) => {
                if !constructed.iter().any(|(_, q)| *q == p) {
                    constructed.push((method, p));
                }
            }
        }
    }
    for (method, p) in &constructed {
        row.constructed += 1;
        if let Err(v) = crate::board::check_placement(p) {
            row.fail(
                Check::Construct,
                format!(
                    "the {} construction {p} is not a solution: {v}",
                    method_label(*method)
                ),
            );
            continue;
        }
        match probe.verdict(&p.to_assignment()) {
            Err(e) => row.fail(Check::Construct, format!("the embedded solver failed: {e}")),
            Ok(Verdict::Accepts | Verdict::Unrepresentable) => bases.insert(0, p.clone()),
            Ok(Verdict::Rejects(why)) => row.fail(
                Check::Construct,
                format!(
                    "the CNF rejects the {} construction {p}, a solution: {why}",
                    method_label(*method)
                ),
            ),
        }
    }

    // 4. Soundness on the neighbours of the solutions seen.
    // The 8 images under the symmetries of the square are solutions too: more neighbours,
    // more lines with a single attacking pair.
    let mut unique: Vec<Placement> = Vec::new();
    for p in bases {
        for q in p.images().map_or_else(|| vec![p.clone()], Vec::from) {
            if !unique.contains(&q) {
                unique.push(q);
            }
        }
    }
    soundness(&mut probe, &unique, &mut row);

    // 5. External solvers.
    if !cfg.external.is_empty() {
        external(f, &formula, expected, cfg, &mut row);
    }
    row.seconds = start.elapsed().as_secs_f64();
    row
}

/// `there is 1 solution`, `there are 92 solutions`.
fn there_are(k: u64) -> String {
    if k == 1 {
        "there is 1 solution".to_string()
    } else {
        format!("there are {k} solutions")
    }
}

/// A construction method as reports name it: `HLM` (Hoffman, Loessi and Moore) or `staircase`.
fn method_label(m: Method) -> &'static str {
    match m {
        Method::Hlm => "HLM",
        Method::Staircase => "staircase",
    }
}

/// The counter against the published table, where both exist.
fn check_counter_against_table(exp: &Expectation, row: &mut RowReport) {
    let Some(c) = exp.counter else { return };
    let pairs = [
        ("solutions", c.total, exp.reference, "A000170"),
        (
            "fundamental solutions",
            c.fundamental,
            exp.reference_fundamental,
            "A002562",
        ),
    ];
    for (what, counted, published, oeis) in pairs {
        if let Some(p) = published.filter(|&p| p != counted) {
            row.fail(
                Check::Counts,
                format!("the counter finds {counted} {what}, the table (OEIS {oeis}) {p}"),
            );
        }
    }
}

/// The largest n whose lex-leader count the checks compare with the number of classes.
pub const SYMMETRY_CHECK_MAX_N: usize = 10;

/// The number of classes of the solutions of `f`'s board under the symmetries of `group` that
/// map its pre-placed queens and forbidden cells onto themselves, from the bitboard counter's
/// list of solutions (n <= 64). `None` when the board cannot be made.
pub fn classes_of_instance(f: &dyn Formula, group: &[Symmetry]) -> Option<u64> {
    let (placed, forbidden) = f.fixed();
    let n = f.n();
    let stab = crate::symmetry::stabilizer(n, group, placed, forbidden);
    let board = masked_board(f).ok()?;
    let mut classes = std::collections::HashSet::new();
    count::for_each_solution_masked(&board, |p| {
        let smallest = stab
            .iter()
            .map(|s| {
                let mut cols = vec![0usize; n];
                for (r, &c) in p.cols().iter().enumerate() {
                    let (r2, c2) = s.apply(n, r, c as usize);
                    cols[r2] = c2;
                }
                Placement::from_cols(&cols)
            })
            .fold(p.clone(), std::cmp::min);
        classes.insert(smallest);
        std::ops::ControlFlow::Continue(())
    });
    Some(classes.len() as u64)
}

/// Check 6: the formula with lex-leader symmetry breaking has one model per class: the
/// counter's fundamental count on the empty square board, the classes of the instance's
/// solutions under its stabilizer otherwise ([`classes_of_instance`]).
fn check_symmetry_breaking(
    f: &dyn Formula,
    exp: &Expectation,
    backend: crate::solve::Backend,
    row: &mut RowReport,
) {
    let Some(sb) = f.with_symmetry_breaking_dyn(SymmetryBreaking::LexLeader) else {
        return;
    };
    let expected = if exp.is_instance() {
        classes_of_instance(f, SymmetryBreaking::LexLeader.group())
    } else {
        exp.counter
            .map(|c| c.fundamental)
            .or(exp.reference_fundamental)
    };
    match Enumeration::shared(sb).backend(backend).count(|_| {}) {
        Err(e) => row.fail(Check::Symmetry, e.to_string()),
        Ok(models) => {
            row.classes = Some(models);
            if let Some(classes) = expected.filter(|&c| c != models) {
                row.fail(
                    Check::Symmetry,
                    format!(
                        "with lex-leader symmetry breaking the SAT enumeration finds {models} models, but there are {classes} classes of solutions"
                    ),
                );
            }
        }
    }
}

/// Check 2: all models, by the enumeration that `solve --all` runs (one part, so that models
/// outside any split are found too). Stops at the first model that is not a solution and as
/// soon as there are more models than `expected`. Returns the first `keep` solutions found.
fn enumerate(
    f: Arc<dyn Formula>,
    backend: crate::solve::Backend,
    expected: Option<u64>,
    keep: usize,
    row: &mut RowReport,
) -> Vec<Placement> {
    let mut kept = Vec::new();
    let mut models = 0u64;
    for item in Enumeration::shared(f).backend(backend).split_rows(0).iter() {
        match item {
            Err(SolveError::BadModel { problem, model }) => {
                row.fail(
                    Check::Counts,
                    format!(
                        "model {} of the SAT enumeration is not a solution: {problem} ({model})",
                        models + 1
                    ),
                );
                return kept;
            }
            Err(e) => {
                row.fail(Check::Counts, e.to_string());
                return kept;
            }
            Ok(p) => {
                models += 1;
                if kept.len() < keep {
                    kept.push(p);
                }
            }
        }
        if let Some(total) = expected {
            if models > total {
                row.fail(
                    Check::Counts,
                    format!("the SAT enumeration finds more than {total} models, the number of solutions"),
                );
                return kept;
            }
        }
    }
    row.models = Some(models);
    if let Some(total) = expected {
        if models != total {
            row.fail(
                Check::Counts,
                format!(
                    "the SAT enumeration finds {models} models, the counter {}",
                    row.counter
                        .map_or_else(|| format!("(none; table {total})"), |c| c.to_string())
                ),
            );
        }
    }
    kept
}

/// Check 4: every neighbour of every base solution, CNF against the rules.
fn soundness(probe: &mut Probe<'_>, bases: &[Placement], row: &mut RowReport) {
    let mut failures = 0usize;
    for base in bases {
        for board in corruptions(base) {
            let cells = board.cells();
            row.corruptions += 1;
            let rules = rule_check_instance(probe.f, &cells);
            let message = match (probe.verdict(&cells), rules) {
                (Err(e), _) => Some(format!("the embedded solver failed: {e}")),
                (Ok(Verdict::Accepts), Err(problem)) => Some(format!(
                    "the CNF accepts {}, which breaks the rules: {problem}",
                    board.describe()
                )),
                (Ok(Verdict::Unrepresentable), _) => {
                    row.corruptions -= 1;
                    None
                }
                (Ok(Verdict::Rejects(why)), Ok(_)) => Some(format!(
                    "the CNF rejects {}, a solution: {why}",
                    board.describe()
                )),
                _ => None,
            };
            if let Some(m) = message {
                failures += 1;
                if failures <= MAX_LISTED {
                    row.fail(Check::Soundness, m);
                }
            }
        }
    }
    if failures > MAX_LISTED {
        row.fail(
            Check::Soundness,
            format!(
                "and {} more corrupted board{} on which the CNF and the rules disagree",
                failures - MAX_LISTED,
                if failures - MAX_LISTED == 1 { "" } else { "s" }
            ),
        );
    }
}

/// `true` when `program` can be run: a path that exists, or a name found on PATH.
pub fn on_path(program: &str) -> bool {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// Check 5: each external solver on the DIMACS file of the formula's clauses (as they are,
/// with the variable count the row settled on).
fn external(
    f: &dyn Formula,
    formula: &LabelledCnf,
    expected: Option<u64>,
    cfg: &CheckConfig,
    row: &mut RowReport,
) {
    for command in &cfg.external {
        let (status, problem) = match external_one(command, f, formula, expected, cfg, row) {
            Ok(r) => r,
            Err(e) => {
                row.fail(
                    Check::External,
                    format!("cannot write the DIMACS file: {e}"),
                );
                return;
            }
        };
        if let Some(p) = &problem {
            row.fail(Check::External, format!("{command}: {p}"));
        }
        row.external.push(ExternalResult {
            solver: command.clone(),
            status,
            agrees: problem.is_none(),
        });
    }
}

/// One external run: its status for the table, and a discrepancy if any; `Err` when the
/// DIMACS file cannot be written.
fn external_one(
    command: &str,
    f: &dyn Formula,
    formula: &LabelledCnf,
    expected: Option<u64>,
    cfg: &CheckConfig,
    row: &RowReport,
) -> Result<(String, Option<String>), io::Error> {
    let Ok(solver) = SolverCommand::parse(command) else {
        return Ok(("empty command".into(), None));
    };
    if !on_path(&solver.program.to_string_lossy()) {
        return Ok(("not on PATH".into(), None));
    }
    let vars = row.vars;
    let input = CnfInput::Clauses {
        cnf: &formula.cnf,
        vars,
        comments: vec![format!("queens-sat check: n = {}, {}", row.n, f.name())],
    };
    // The model is checked here, against the clauses as written (a broken formula's own),
    // and the UNSAT answer against the counts and the embedded solver's answer.
    let report = match runner::run(&RunRequest::new(&solver, input).timeout(Some(cfg.timeout))) {
        Ok(r) => r,
        Err(RunError::Input { source, .. }) => return Err(source),
        Err(e) => {
            let why = crate::solve::process::error_chain(&e);
            return Ok((format!("cannot run: {why}"), None));
        }
    };
    let no_answer = |why: String| {
        (
            "no answer".to_string(),
            Some(format!("no usable answer: {why}")),
        )
    };
    Ok(match report.outcome {
        Outcome::Timeout { .. } => ("timeout".into(), None),
        Outcome::Failed(failure) => no_answer(failure.reason()),
        Outcome::Unknown => no_answer("the solver answered UNKNOWN".into()),
        Outcome::Unsat { .. } => {
            // An UNSAT answer is checked against the count when known, and always against
            // the embedded solver's answer on the same formula (check 1).
            let problem = match (expected, row.sat) {
                (Some(t), _) if t > 0 => Some(format!("says UNSAT, but {}", there_are(t))),
                (_, Some(true)) => {
                    Some("says UNSATISFIABLE but the embedded solver finds a solution".to_string())
                }
                _ => None,
            };
            ("UNSAT".into(), problem)
        }
        Outcome::Sat { model, .. } | Outcome::WrongModel { model, .. } => {
            if expected == Some(0) {
                return Ok((
                    "SAT".into(),
                    Some("says SAT, but no solution exists".into()),
                ));
            }
            // Variables the solver leaves out count as false.
            let values = model.to_bools(vars);
            if let Some(i) = formula.cnf.first_falsified(&values) {
                return Ok((
                    "SAT, bad model".into(),
                    Some(format!(
                        "its model falsifies {}",
                        describe_clause(f, formula, i)
                    )),
                ));
            }
            match board_of_model(f, &values) {
                Ok(_) => ("SAT".into(), None),
                Err(problem) => (
                    "SAT, not a solution".into(),
                    Some(format!("its model is not a solution: {problem}")),
                ),
            }
        }
    })
}

/// All rows of a run and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The rows, in the order of the formulas given.
    pub rows: Vec<RowReport>,
    /// Number of discrepancies over all rows.
    pub discrepancies: usize,
    /// `true` when every check of every row agreed.
    pub ok: bool,
}

/// Runs [`check_formula`] on every formula, on `cfg.threads` worker threads (default: one per
/// core), taking formulas in order. `on_row` gets each row as soon as it and every row before it
/// are finished, so rows come out in the order of `formulas` and can be printed as they come.
///
/// The counter runs once per distinct n, up to `cfg.count_up_to`.
pub fn run(
    formulas: &[Arc<dyn Formula>],
    cfg: &CheckConfig,
    mut on_row: impl FnMut(&RowReport),
) -> Summary {
    // One expectation per board: the empty square board of each n, and each instance (the
    // same instance under several models is counted once).
    let board_key = |f: &dyn Formula| {
        let (placed, forbidden) = f.fixed();
        format!("{} {:?} {placed:?} {forbidden:?}", f.n(), f.geometry())
    };
    let mut keys: Vec<String> = formulas.iter().map(|f| board_key(f.as_ref())).collect();
    keys.sort_unstable();
    keys.dedup();
    let expectations: Vec<OnceLock<Expectation>> = keys.iter().map(|_| OnceLock::new()).collect();
    let expectation = |f: &dyn Formula| -> &Expectation {
        let i = keys.binary_search(&board_key(f)).unwrap_or(0);
        expectations[i].get_or_init(|| {
            let n = f.n();
            let instance = Expectation::for_instance(f);
            if instance.is_instance() {
                instance
            } else if n <= cfg.count_up_to {
                Expectation::for_n(n)
            } else {
                Expectation::table_only(n)
            }
        })
    };
    let threads = cfg
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
        .clamp(1, formulas.len().max(1));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, RowReport)>();
    let mut rows: Vec<Option<RowReport>> = formulas.iter().map(|_| None).collect();
    let mut emitted = 0usize;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            let expectation = &expectation;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(f) = formulas.get(i) else { break };
                let report = check_formula(Arc::clone(f), expectation(f.as_ref()), cfg);
                if tx.send((i, report)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, report) in rx {
            rows[i] = Some(report);
            while let Some(Some(r)) = rows.get(emitted) {
                on_row(r);
                emitted += 1;
            }
        }
    });
    let rows: Vec<RowReport> = rows.into_iter().flatten().collect();
    let discrepancies = rows.iter().map(|r| r.discrepancies.len()).sum();
    Summary {
        ok: discrepancies == 0 && rows.len() == formulas.len(),
        discrepancies,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Amo, EncodeOptions, LineEncodings};
    use crate::instance::{Instance, Model};

    #[test]
    fn every_encoding_passes_for_small_n() {
        for amo in Amo::all() {
            for n in 1..=6 {
                let inst = Instance::new(
                    n,
                    Model::cells(EncodeOptions {
                        amo: LineEncodings::uniform(amo),
                        column_alo: false,
                    }),
                )
                .unwrap();
                let row = check_formula(
                    Arc::new(inst),
                    &Expectation::for_n(n),
                    &CheckConfig::default(),
                );
                assert!(row.ok(), "{amo} n={n}: {:?}", row.discrepancies);
                assert_eq!(row.models, reference_total(n));
            }
        }
    }
}
