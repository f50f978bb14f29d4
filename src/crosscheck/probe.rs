//! The formula in memory with a solver, asked about boards ([`Probe`]), and check 4, the
//! soundness of the formula on boards one change away from a solution ([`soundness`]).

use super::{corruptions, rule_check_instance, Check, Formula, RowReport};
use crate::board::Placement;
use crate::encode::LabelledCnf;
use crate::instance::check_board;
use crate::solve::reduce::Propagator;
use crate::solve::{clause_violation, describe_lit, describe_model};
use std::cell::OnceCell;

/// How many discrepancies of one kind a row lists before summarising the rest.
pub(super) const MAX_LISTED: usize = 3;

/// The formula in memory with a solver loaded with it, for asking about boards.
pub(super) struct Probe<'a> {
    pub(super) f: &'a dyn Formula,
    formula: &'a LabelledCnf,
    pub(super) solver: varisat::Solver<'static>,
    /// The same clauses indexed for unit propagation, the first way a rejection is proved;
    /// built on the first rejection that needs the solver (never for formulas of cell
    /// variables only, whose clauses are evaluated).
    units: OnceCell<Propagator>,
}

/// The CNF's answer about a board.
pub(super) enum Verdict {
    Accepts,
    Rejects(String),
    /// The model cannot express the board (several queens in a row for a model with one integer
    /// per row): nothing to compare.
    Unrepresentable,
}

impl<'a> Probe<'a> {
    pub(super) fn new(f: &'a dyn Formula, formula: &'a LabelledCnf) -> Self {
        let mut solver = varisat::Solver::new();
        solver.add_formula(&formula.cnf.to_varisat());
        Probe {
            f,
            formula,
            solver,
            units: OnceCell::new(),
        }
    }

    /// Does the CNF accept the board with these cell values? Without auxiliary variables every
    /// clause is evaluated; with them the solver looks for values of the auxiliaries.
    pub(super) fn verdict(&mut self, cells: &[bool]) -> Result<Verdict, String> {
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

impl Probe<'_> {
    /// Proves that the CNF rejects the board (cell values `cells`) when the solver said so
    /// under assumptions: the formula's clauses and one unit clause per board literal are
    /// unsatisfiable. When unit propagation from the board's literals falsifies a clause, that
    /// propagation is the refutation (the empty clause by reverse unit propagation, a one-step
    /// proof), found apart from the solver; otherwise the formula is proved unsatisfiable by
    /// [`crate::solve::Prover::strongest`] (CaDiCaL's LRAT, checked by the library's LRAT
    /// checker). `Ok(())` when the rejection needs no solver (every clause evaluated) or is
    /// proved; else why not.
    fn prove_rejection(&self, cells: &[bool]) -> Result<(), String> {
        let Some(lits) = self.f.pattern_lits(cells) else {
            return Ok(());
        };
        let vars = self.f.num_vars() as usize;
        if lits.len() == vars {
            return Ok(());
        }
        let units = self
            .units
            .get_or_init(|| Propagator::from_cnf(self.formula.cnf.clone(), vars));
        if units.refutes(&lits) {
            return Ok(());
        }
        let mut clauses = self.formula.cnf.clone();
        for &l in &lits {
            // Adding to memory cannot fail.
            let _ = crate::cnf::ClauseSink::add_clause(&mut clauses, &[l]);
        }

        let vars = vars.max(self.formula.cnf.max_var());
        match crate::solve::Prover::strongest().prove_clauses_and_check(&clauses, vars) {
            Ok(Some(v)) if v.verified() => Ok(()),
            Ok(Some(v)) => Err(format!("the proof of the rejection does not check: {v}")),
            Ok(None) => Err("proving the rejection found values that satisfy it".into()),
            Err(e) => Err(format!("the rejection cannot be proved: {e}")),
        }
    }
}

/// Clause `i` in words: number, group, board line, literals.
pub(super) fn describe_clause(f: &dyn Formula, formula: &LabelledCnf, i: usize) -> String {
    let v = clause_violation(f, &formula.cnf, i);
    match formula.line_of(i) {
        Some(line) => format!("{v} (on {})", line.describe_on(f.n(), f.geometry())),
        None => v.to_string(),
    }
}

/// The board of a model, checked, or what is wrong with it and the model's queens.
pub(super) fn board_of_model(f: &dyn Formula, values: &[bool]) -> Result<Placement, String> {
    let p = f
        .decode(values)
        .map_err(|e| format!("{e} ({})", describe_model(f, values)))?;
    check_board(f, &p).map_err(|e| format!("{e} ({})", describe_model(f, values)))?;
    Ok(p)
}

/// Check 4: every neighbour of every base solution, CNF against the rules.
pub(super) fn soundness(probe: &mut Probe<'_>, bases: &[Placement], row: &mut RowReport) {
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
                // The rejection is relied on: the solver's UNSAT answer is proved.
                (Ok(Verdict::Rejects(_)), Err(_)) => probe
                    .prove_rejection(&cells)
                    .err()
                    .map(|why| format!("the CNF rejects {}: {why}", board.describe())),
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
