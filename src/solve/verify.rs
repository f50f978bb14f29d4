//! Checking an answer twice, by independent paths: as a board (one queen per row, then
//! [`crate::board::check_placement`] for attacking pairs) and clause by clause against the
//! exported CNF ([`crate::cnf::Cnf::first_falsified`]), naming what fails.

use super::{Assignment, SolveError};
use crate::board::Placement;
use crate::cnf::{ClauseSink, Cnf, GroupInfo, Lit};
use crate::instance::{check_board, to_labelled_cnf, BoardProblem, Formula};
use std::fmt;
use std::io;

/// A clause sink that evaluates each clause against an assignment as the formula emits it,
/// remembering the first false clause (number, group, literals) and counting clauses: a
/// formula checked this way is never held in memory.
pub struct EvalSink<'a> {
    values: &'a [bool],
    group: Option<GroupInfo>,
    clauses: usize,
    first_false: Option<(usize, Option<GroupInfo>, Vec<Lit>)>,
}

impl<'a> EvalSink<'a> {
    /// Evaluates under `values` (`values[i]` for the variable of index `i`; missing ones
    /// false).
    pub fn new(values: &'a [bool]) -> Self {
        EvalSink {
            values,
            group: None,
            clauses: 0,
            first_false: None,
        }
    }

    /// Clauses seen.
    pub fn clauses(&self) -> usize {
        self.clauses
    }

    /// The first false clause, in words, if any.
    pub fn violation(&self, f: &dyn Formula) -> Option<ClauseViolation> {
        self.first_false
            .as_ref()
            .map(|(i, g, lits)| ClauseViolation::of(f, *i, g.as_ref(), lits))
    }
}

impl ClauseSink for EvalSink<'_> {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        if self.first_false.is_none()
            && !clause
                .iter()
                .any(|l| self.values.get(l.index()).copied().unwrap_or(false) == l.is_positive())
        {
            self.first_false = Some((self.clauses, self.group.clone(), clause.to_vec()));
        }
        self.clauses += 1;
        Ok(())
    }

    fn begin_group(&mut self, group: &GroupInfo) -> io::Result<()> {
        self.group = Some(group.clone());
        Ok(())
    }
}

/// Evaluates the formula of `f` streaming under `values`: the clause count, and the first
/// false clause if any.
fn evaluate_streaming(f: &dyn Formula, values: &[bool]) -> (usize, Result<(), CnfProblem>) {
    let mut sink = EvalSink::new(values);
    // The sink never fails.
    let _ = crate::instance::encode(f, &mut sink);
    let result = match sink.violation(f) {
        None => Ok(()),
        Some(v) => Err(CnfProblem::Falsified(v)),
    };
    (sink.clauses(), result)
}

/// A literal in words: `q(3,5)` / `-q(3,5)` for cells (1-based), the model's names for other
/// variables ([`Formula::var_name`]).
pub fn describe_lit(f: &dyn Formula, lit: Lit) -> String {
    let sign = if lit.is_negative() { "-" } else { "" };
    format!("{sign}{}", f.var_name(lit.var()))
}

/// A clause of the formula that an assignment falsifies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClauseViolation {
    /// 1-based clause number in the DIMACS file (comments and header not counted).
    pub number: usize,
    /// Its group's tag (`Q1`...`Q6`, `P`, `F`).
    pub tag: String,
    /// What the group says.
    pub meaning: String,
    /// The clause's literals in words ([`describe_lit`]).
    pub literals: Vec<String>,
}

impl ClauseViolation {
    /// Clause `i` (0-based) of `f`'s formula, in `group`, with literals `lits`.
    fn of(
        f: &dyn Formula,
        i: usize,
        group: Option<&crate::cnf::GroupInfo>,
        lits: &[Lit],
    ) -> ClauseViolation {
        let (tag, meaning) = group.map_or(("?".to_string(), "ungrouped".to_string()), |g| {
            (g.tag.clone(), g.meaning.clone())
        });
        ClauseViolation {
            number: i + 1,
            tag,
            meaning,
            literals: lits.iter().map(|&l| describe_lit(f, l)).collect(),
        }
    }
}

impl fmt::Display for ClauseViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clause {} ({}: {}) is false: {}",
            self.number,
            self.tag,
            self.meaning,
            if self.literals.is_empty() {
                "(empty clause)".to_string()
            } else {
                self.literals.join(" ")
            }
        )
    }
}

/// A model that does not fit the formula: it names variables the formula does not have, or
/// leaves some without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelMismatch {
    /// Variables beyond the formula's.
    ExtraVars {
        /// Highest variable named.
        max_var: usize,
        /// Variables of the formula.
        formula_vars: usize,
        /// Board size.
        n: usize,
    },
    /// Variables without a value.
    MissingVars {
        /// How many.
        count: usize,
        /// The first one, described.
        first: String,
        /// Highest variable named by the model.
        max_var: usize,
        /// Variables of the formula.
        formula_vars: usize,
        /// Board size.
        n: usize,
    },
}

/// The side length k of a board with `v` cell variables, if `v` is a square.
fn square_side(v: usize) -> Option<usize> {
    let k = (v as f64).sqrt().round() as usize;
    (k * k == v).then_some(k)
}

impl fmt::Display for ModelMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelMismatch::ExtraVars {
                max_var,
                formula_vars,
                n,
            } => {
                write!(
                    f,
                    "the model names variable {max_var}, but the formula for n = {n} has {formula_vars} variables"
                )?;
                match square_side(*max_var) {
                    Some(k) if k != *n => write!(f, " (is it a model for n = {k}?)"),
                    _ => write!(f, " (a model of another formula?)"),
                }
            }
            ModelMismatch::MissingVars {
                count,
                first,
                max_var,
                formula_vars,
                n,
            } => {
                write!(
                    f,
                    "the model gives no value to {count} of the formula's {formula_vars} variables (first: {first})"
                )?;
                match square_side(*max_var) {
                    Some(k) if k < *n && *max_var > 0 => {
                        write!(f, "; is it a model for n = {k}?")
                    }
                    _ => write!(f, "; the output may be truncated"),
                }
            }
        }
    }
}

/// What is wrong with an answer as a model of the CNF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CnfProblem {
    /// The model does not fit the formula's variables.
    Mismatch(ModelMismatch),
    /// A clause is false.
    Falsified(ClauseViolation),
    /// (Placements only.) No values of the auxiliary variables make the formula true with
    /// this board.
    NoExtension,
}

impl fmt::Display for CnfProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CnfProblem::Mismatch(m) => write!(f, "{m}"),
            CnfProblem::Falsified(c) => write!(f, "{c}"),
            CnfProblem::NoExtension => write!(
                f,
                "no values of the auxiliary variables satisfy the formula with this board"
            ),
        }
    }
}

/// The outcome of checking an answer both ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// The board read from the cell variables, when every row has exactly one queen.
    pub placement: Option<Placement>,
    /// The board check.
    pub board: Result<(), BoardProblem>,
    /// The clause-by-clause check.
    pub cnf: Result<(), CnfProblem>,
    /// Clauses in the formula.
    pub clauses: usize,
    /// Variables in the formula.
    pub vars: usize,
}

impl VerifyReport {
    /// `true` when both checks pass.
    pub fn is_ok(&self) -> bool {
        self.board.is_ok() && self.cnf.is_ok()
    }
}

fn evaluate(f: &dyn Formula, cnf: &Cnf, values: &[bool]) -> Result<(), CnfProblem> {
    match cnf.first_falsified(values) {
        None => Ok(()),
        Some(i) => Err(CnfProblem::Falsified(clause_violation(f, cnf, i))),
    }
}

/// Clause `i` (0-based) of `cnf` as a [`ClauseViolation`]: number, group, literals in words.
pub fn clause_violation(f: &dyn Formula, cnf: &Cnf, i: usize) -> ClauseViolation {
    ClauseViolation::of(f, i, cnf.group_of(i), cnf.clause(i))
}

/// Checks a full assignment (an external solver's model) against the instance: the board it
/// describes, and every clause of the formula.
pub fn verify_assignment(f: &dyn Formula, a: &Assignment) -> Result<VerifyReport, SolveError> {
    let n = f.n();
    let vars = f.num_vars() as usize;
    let values = a.to_bools(vars);
    let (placement, board) = match f.decode(&values) {
        Ok(p) => {
            let b = check_board(f, &p);
            (Some(p), b)
        }
        Err(e) => (None, Err(e.into())),
    };
    let max_var = a.max_var();
    let missing = a.missing(vars);
    // The assignment is complete: evaluate the clauses as they are emitted.
    let (clauses, streamed) = evaluate_streaming(f, &values);
    let cnf_result = if max_var > vars {
        Err(CnfProblem::Mismatch(ModelMismatch::ExtraVars {
            max_var,
            formula_vars: vars,
            n,
        }))
    } else if let Some(&first) = missing.first() {
        Err(CnfProblem::Mismatch(ModelMismatch::MissingVars {
            count: missing.len(),
            first: format!("{} = {}", first.to_dimacs(), f.var_name(first)),
            max_var,
            formula_vars: vars,
            n,
        }))
    } else {
        streamed
    };
    Ok(VerifyReport {
        placement,
        board,
        cnf: cnf_result,
        clauses,
        vars,
    })
}

/// Checks a placement (a one-line answer) against the instance: as a board, and against the
/// CNF with the projection set from the board. When the encoding has auxiliary variables, the
/// embedded solver looks for values of them that satisfy the formula with this board.
pub fn verify_placement(f: &dyn Formula, p: &Placement) -> Result<VerifyReport, SolveError> {
    let n = f.n();
    let vars = f.num_vars() as usize;
    let board = check_board(f, p);
    if matches!(board, Err(BoardProblem::WrongSize { .. })) {
        return Ok(VerifyReport {
            placement: None,
            board,
            cnf: Err(CnfProblem::NoExtension),
            clauses: 0,
            vars,
        });
    }
    let fixed: Vec<Lit> = (0..n).flat_map(|r| f.value_lits(r, p.col(r))).collect();
    if f.projection().len() == vars {
        // No auxiliaries: the board fixes every variable, so the clauses are evaluated as
        // they are emitted, without building the formula.
        let mut values = vec![false; vars];
        for l in &fixed {
            values[l.index()] = l.is_positive();
        }
        let (clauses, cnf) = evaluate_streaming(f, &values);
        return Ok(VerifyReport {
            placement: Some(p.clone()),
            board,
            cnf,
            clauses,
            vars,
        });
    }
    let cnf = to_labelled_cnf(f).cnf;
    let mut solver = varisat::Solver::new();
    solver.add_formula(&cnf.to_varisat());
    solver.assume(&fixed);
    let sat = solver
        .solve()
        .map_err(|e| SolveError::Solver(e.to_string()))?;
    let cnf_result = match solver.model() {
        Some(model) if sat => evaluate(f, &cnf, &super::values_of(&model, vars)),
        _ => {
            // Without auxiliaries the clause that the board falsifies can be named.
            let mut values = vec![false; vars];
            for l in &fixed {
                values[l.index()] = l.is_positive();
            }
            match (f.projection().len() == vars).then(|| evaluate(f, &cnf, &values)) {
                Some(Err(e)) => Err(e),
                _ => Err(CnfProblem::NoExtension),
            }
        }
    };
    Ok(VerifyReport {
        placement: Some(p.clone()),
        board,
        cnf: cnf_result,
        clauses: cnf.len(),
        vars,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Var;
    use crate::encode::cell_lit;
    use crate::instance::{Instance, Model};

    fn model_of(n: usize, p: &Placement) -> Assignment {
        let mut a = Assignment::default();
        for r in 0..n {
            for c in 0..n {
                a.set(cell_lit(n, r, c).var(), p.col(r) == c);
            }
        }
        a
    }

    #[test]
    fn good_and_bad_models() {
        let cfg = Instance::new(4, Model::default()).unwrap();
        let good = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
        let rep = verify_assignment(&cfg, &model_of(4, &good)).unwrap();
        assert!(rep.is_ok(), "{rep:?}");
        let bad = Placement::parse_one_line("1 2 4 3", Some(4)).unwrap();
        let rep = verify_assignment(&cfg, &model_of(4, &bad)).unwrap();
        let Err(CnfProblem::Falsified(v)) = &rep.cnf else {
            panic!("{rep:?}")
        };
        // (3,4) and (4,3) share a / diagonal; Q4 comes before Q5 in the formula.
        assert_eq!(v.tag, "Q4");
        assert_eq!(v.literals, vec!["-q(3,4)", "-q(4,3)"]);
        assert!(matches!(rep.board, Err(BoardProblem::Attack(_))));
        // A model of n = 3 for n = 4.
        let mut small = Assignment::default();
        small.set(Var::from_index(8), true);
        let rep = verify_assignment(&cfg, &small).unwrap();
        let msg = rep.cnf.unwrap_err().to_string();
        assert!(msg.contains("n = 3"), "{msg}");
    }

    #[test]
    fn placement_with_partial_board() {
        let cfg = Instance::new(4, Model::default())
            .unwrap()
            .with_cells(&[(0, 0)], &[])
            .unwrap();
        let p = Placement::parse_one_line("2 4 1 3", Some(4)).unwrap();
        let rep = verify_placement(&cfg, &p).unwrap();
        assert_eq!(rep.board, Err(BoardProblem::PlacedMissing((0, 0))));
        let Err(CnfProblem::Falsified(v)) = rep.cnf else {
            panic!()
        };
        assert_eq!(v.tag, "P");
        assert_eq!(v.literals, vec!["q(1,1)"]);
    }
}
