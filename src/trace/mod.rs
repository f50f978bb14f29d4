//! Watching a SAT solver think: a small DPLL or CDCL search over an instance's formula, with
//! every step recorded and said in words, for teaching.
//!
//! [`trace`] runs the search on any [`Instance`] (any model, encoding and partial board) and
//! returns a [`Trace`]: the formula's clauses with their meaning, then one [`Step`] per event:
//!
//! * a **decision** (`decide`): the first variable without a value, in a fixed order, is set
//!   true. The order is the board's variables row by row (the cells `q(1,1)`, `q(1,2)`, ...
//!   of the cell model; the column model's variables of row 1, then row 2, ...), then the
//!   encoding's auxiliary variables in their numbering. True is always tried first, so the
//!   search places queens row by row, leftmost first, as one would by hand;
//! * a **propagation** (`propagate`): a clause all of whose literals but one are false forces
//!   the last one ("Q3 column 2 has at most one queen: q(1,2) forces ¬q(4,2)");
//! * a **conflict** (`conflict`): a clause whose literals are all false;
//! * without learning (DPLL), a **backtrack** to the latest decision that has not been tried
//!   both ways and a **flip** to its other value;
//! * with learning (CDCL), the **learned** clause (`learn`, first unique implication point),
//!   drawn as the pattern of queens that cannot stand together, and the **backjump** to the
//!   level where it forces a literal;
//! * the end: `sat` (every clause has a true literal; the board is read off) or `unsat` (a
//!   conflict that depends on no decision: the search has proved that no board exists).
//!
//! Each step carries the board right after it: `Q` a queen, `x` a cell that cannot hold one,
//! `.` not decided yet. [`Trace::write_text`], [`Trace::write_json`] and [`Trace::write_html`]
//! render it; the JSON schema is in `docs/formats.md`.
//!
//! ```
//! use queens_sat::instance::{Instance, Model};
//! use queens_sat::trace::{trace, TraceOptions};
//!
//! let inst = Instance::new(4, Model::default()).unwrap();
//! let t = trace(&inst, &TraceOptions::default()).unwrap();
//! assert_eq!(t.solution.as_deref(), Some(&[2, 4, 1, 3][..]));
//! let t3 = trace(&Instance::new(3, Model::default()).unwrap(), &TraceOptions::default()).unwrap();
//! assert!(!t3.satisfiable);
//! ```

mod cdcl;
mod html;
mod render;

use crate::cnf::lit_value;
use crate::cnf::{Lit, Var};
use crate::encode::{LabelledCnf, Rule, Words};
use crate::instance::{to_labelled_cnf, Formula, Instance};
use cdcl::{Event, Solver};
use serde::Serialize;

pub use html::MAX_HTML_N;

/// The default limit on the number of steps ([`TraceOptions::max_steps`]).
pub const DEFAULT_MAX_STEPS: usize = 100_000;

/// The largest formula the trace takes, in clauses: its clause list is printed whole.
pub const MAX_CLAUSES: usize = 200_000;

/// How to run the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    /// CDCL: learn a clause from each conflict and jump back (first UIP); otherwise DPLL with
    /// chronological backtracking.
    pub learning: bool,
    /// Stop with [`TraceError::TooManySteps`] past this many steps.
    pub max_steps: usize,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            learning: false,
            max_steps: DEFAULT_MAX_STEPS,
        }
    }
}

/// Why a trace was not made or not drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// The search took more steps than allowed.
    #[error("the trace takes more than {limit} steps (the limit of {}); raise it or trace a smaller instance", crate::vocabulary::Param::MaxSteps)]
    TooManySteps {
        /// The limit.
        limit: usize,
    },
    /// The formula has too many clauses to list.
    #[error(
        "the formula has {clauses} clauses, more than the {max} a trace lists; trace a smaller n"
    )]
    TooManyClauses {
        /// Clauses of the formula.
        clauses: u64,
        /// The limit ([`MAX_CLAUSES`]).
        max: usize,
    },
    /// The HTML page draws boards up to [`MAX_HTML_N`].
    #[error(
        "the HTML trace draws boards up to n = {max}; n = {n} is larger (use {} text or json)",
        crate::vocabulary::Param::Format
    )]
    BoardTooLarge {
        /// Board size.
        n: usize,
        /// The limit.
        max: usize,
    },
}

/// What a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    /// A variable set true by choice, on a new level.
    Decide,
    /// A literal forced by a clause (its reason).
    Propagate,
    /// A clause with every literal false.
    Conflict,
    /// CDCL: a clause learned from a conflict.
    Learn,
    /// CDCL: assignments above a level undone.
    Backjump,
    /// DPLL: assignments above a level undone, before a flip.
    Backtrack,
    /// DPLL: a decision's other value.
    Flip,
    /// A model: every clause has a true literal.
    Sat,
    /// No model: a conflict that depends on no decision.
    Unsat,
}

/// One clause of the formula, with its meaning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceClause {
    /// Its literals (DIMACS numbers in the JSON).
    #[serde(serialize_with = "crate::cnf::dimacs_serde::clause")]
    pub lits: Vec<Lit>,
    /// Its group's tag (`Q1`, ..., `P`, `F`).
    pub group: String,
    /// The clause with named variables: `¬q(1,2) ∨ ¬q(4,2)`.
    pub text: String,
    /// What it says: `Q3 column 2 has at most one queen`.
    pub meaning: String,
}

/// One step of the search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// 1-based number of the step.
    pub step: usize,
    /// What happened.
    pub kind: StepKind,
    /// The literal assigned (decide, flip, propagate); a DIMACS number in the JSON.
    #[serde(serialize_with = "crate::cnf::dimacs_serde::lit_opt")]
    pub literal: Option<Lit>,
    /// That literal with its variable's name: `q(1,2)`, `¬s(row 1, 2)`.
    pub name: Option<String>,
    /// The decision level after the step.
    pub level: usize,
    /// The clause of the step: the reason of a propagation, the false clause of a conflict,
    /// the new clause of a learn step. An index into [`Trace::clauses`]; indices from
    /// `clauses.len()` on are the learned clauses, in the order of their learn steps.
    pub clause: Option<usize>,
    /// A learn step's clause, the asserted literal first (DIMACS numbers in the JSON).
    #[serde(serialize_with = "crate::cnf::dimacs_serde::clause_opt")]
    pub learned: Option<Vec<Lit>>,
    /// The step in words.
    pub text: String,
    /// The board after the step, one string per row: `Q` queen, `x` excluded, `.` open.
    pub board: Vec<String>,
    /// The cells whose state the step changed, 1-based `[row, column]`.
    pub changed: Vec<[usize; 2]>,
}

/// Totals of a trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TraceStats {
    /// Decisions (flips not counted).
    pub decisions: usize,
    /// Literals forced by propagation.
    pub propagations: usize,
    /// Conflicts.
    pub conflicts: usize,
    /// Clauses learned.
    pub learned: usize,
}

/// A whole trace: the formula and every step of the search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// Board size.
    pub n: usize,
    /// The model's short name (`pairwise`, `columns-order`, ...).
    pub model: String,
    /// `dpll` or `cdcl`.
    pub solver: &'static str,
    /// The decision rule, in words.
    pub heuristic: &'static str,
    /// Variables of the formula.
    pub variables: usize,
    /// The variables' names, `names[i]` for DIMACS variable `i + 1`.
    pub names: Vec<String>,
    /// For each variable (`cells[i]` for DIMACS variable `i + 1`), the 1-based cell
    /// `[row, column]` it stands for alone (true exactly when a queen is there: the cell
    /// model's variables, the direct column model's), or `None`.
    pub cells: Vec<Option<[usize; 2]>>,
    /// The formula's clauses, in the order `encode` writes them.
    pub clauses: Vec<TraceClause>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// `true` when the search found a board.
    pub satisfiable: bool,
    /// The board found: 1-based column of each row's queen.
    pub solution: Option<Vec<usize>>,
    /// Totals.
    pub stats: TraceStats,
}

/// The decision rule every trace follows, as documented in [`Trace::heuristic`].
pub const HEURISTIC: &str = "the first variable without a value, board variables row by row (left to right) before auxiliaries, set true first";

/// Names, meanings and boards of one instance: what turns search events into steps. The
/// variables of the model and the clauses are said in the encoding's words ([`Words`]); the
/// instance names the variables it adds (symmetry breaking).
struct Narrator<'a> {
    inst: &'a Instance,
    cnf: LabelledCnf,
    words: Box<dyn Words + 'a>,
    /// The model's variables: `0..model_vars`.
    model_vars: usize,
    names: Vec<String>,
    /// For each cell, the literals that say "a queen here".
    cell_lits: Vec<Vec<Lit>>,
}

impl<'a> Narrator<'a> {
    fn new(inst: &'a Instance) -> Self {
        let n = inst.n();
        let cnf = to_labelled_cnf(inst);
        let words = inst.encoding().words();
        let model_vars = inst.encoding().size().vars as usize;
        let vars = (inst.size().vars as usize).max(cnf.max_var());
        let names = (0..vars)
            .map(|i| {
                let v = Var::from_index(i);
                if i < model_vars {
                    words.var_name(v)
                } else {
                    inst.var_name(v)
                }
            })
            .collect();
        let cell_lits = (0..n * n).map(|i| inst.value_lits(i / n, i % n)).collect();
        Narrator {
            inst,
            cnf,
            words,
            model_vars,
            names,
            cell_lits,
        }
    }

    fn lit(&self, l: Lit) -> String {
        let name = &self.names[l.index()];
        if l.is_negative() {
            format!("¬{name}")
        } else {
            name.clone()
        }
    }

    fn clause(&self, lits: &[Lit]) -> String {
        if lits.is_empty() {
            return "⊥".into();
        }
        lits.iter()
            .map(|&l| self.lit(l))
            .collect::<Vec<_>>()
            .join(" ∨ ")
    }

    /// `Q3 column 2 has at most one queen`: the group's tag and the rule on the clause's line.
    fn rule(&self, i: usize) -> String {
        let tag = self.cnf.group_of(i).map_or("?", |g| g.tag.as_str());
        let meaning = self.cnf.group_of(i).map_or("", |g| g.meaning.as_str());
        let line = self
            .cnf
            .line_of(i)
            .map(|l| l.describe_on(self.inst.n(), self.inst.geometry()));
        match (self.cnf.rule_of(i), line) {
            (Some(Rule::AtLeastOne(_)), Some(line)) => {
                format!("{tag} {line} has at least one queen")
            }
            (Some(Rule::AtMostOne(_)), Some(line)) => format!("{tag} {line} has at most one queen"),
            (Some(Rule::Placed), _) => format!("{tag} pre-placed queen"),
            (Some(Rule::Forbidden), _) => format!("{tag} forbidden cell"),
            // The column model's pairs and domain clauses, symmetry breaking: the group's
            // meaning.
            _ => format!("{tag} {meaning}"),
        }
    }

    /// The clause's meaning for the clause list: the encoding's words where they say one
    /// ([`Words::clause_meaning`]), the group rule otherwise.
    fn meaning(&self, i: usize) -> String {
        let said = self
            .cnf
            .label_of(i)
            .and_then(|label| self.words.clause_meaning(&label, self.cnf.clause(i)));
        match said {
            Some(m) => {
                let tag = self.cnf.group_of(i).map_or("?", |g| g.tag.as_str());
                format!("{tag} {m}")
            }
            None => self.rule(i),
        }
    }

    /// What it means that clause `i` of the formula is false, when the encoding's words say
    /// it ([`Words::falsified`]).
    fn falsified(&self, i: usize) -> Option<String> {
        let label = self.cnf.label_of(i)?;
        self.words.falsified(&label, self.cnf.clause(i))
    }

    /// The board under `value`, one string per row.
    fn board(&self, value: &[Option<bool>]) -> Vec<String> {
        let n = self.inst.n();
        (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let lits = &self.cell_lits[r * n + c];
                        let vals: Vec<Option<bool>> =
                            lits.iter().map(|&l| lit_value(value, l)).collect();
                        if vals.contains(&Some(false)) {
                            'x'
                        } else if vals.iter().all(|v| *v == Some(true)) {
                            'Q'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// "q(1,2) forces ¬q(4,2)": the literals that made clause `clause` unit, then `lit`.
    fn forcing(&self, clause: &[Lit], lit: Lit) -> String {
        let because: Vec<String> = clause
            .iter()
            .filter(|&&l| l != lit)
            .map(|&l| self.lit(!l))
            .collect();
        match because.len() {
            0 => format!("{} holds", self.lit(lit)),
            1 => format!("{} forces {}", because[0], self.lit(lit)),
            _ => format!("{} force {}", because.join(", "), self.lit(lit)),
        }
    }

    /// The learned clause as a pattern: which queens (and empty cells, and other variables)
    /// cannot all be there together.
    fn pattern(&self, lits: &[Lit]) -> String {
        let mut queens = Vec::new();
        let mut empty = Vec::new();
        let mut other = Vec::new();
        for &l in lits {
            match self.cell_of_lit(l.var()) {
                Some((r, c)) if l.is_negative() => queens.push(format!("({},{})", r + 1, c + 1)),
                Some((r, c)) => empty.push(format!("({},{})", r + 1, c + 1)),
                None => other.push(self.lit(!l)),
            }
        }
        let mut parts = Vec::new();
        match queens.len() {
            0 => {}
            1 => parts.push(format!("a queen on {}", queens[0])),
            _ => parts.push(format!("queens on {}", queens.join(", "))),
        }
        if !empty.is_empty() {
            parts.push(format!("no queen on {}", empty.join(", ")));
        }
        if !other.is_empty() {
            parts.push(other.join(", "));
        }
        match (parts.len(), lits.len()) {
            (0, _) => "nothing at all: the formula has no model".into(),
            (_, 1) => format!("no solution has {}", parts[0]),
            _ => format!("{} cannot all hold together", parts.join("; ")),
        }
    }

    /// The cell whose queen the variable alone stands for (cells, the direct column model).
    fn cell_of_lit(&self, v: Var) -> Option<(usize, usize)> {
        let n = self.inst.n();
        self.cell_lits
            .iter()
            .position(|ls| ls.len() == 1 && ls[0] == v.positive())
            .map(|i| (i / n, i % n))
    }

    /// What a decision variable of the model stands for, when its name does not say it all
    /// ([`Words::var_meaning`]: the cell model's auxiliaries, the column model's variables).
    fn var_meaning(&self, v: Var) -> Option<String> {
        if v.index() < self.model_vars {
            self.words.var_meaning(v)
        } else {
            None
        }
    }
}

/// Runs the search on `inst` and records every step ([`TraceOptions`] chooses DPLL or CDCL
/// and the step limit).
pub fn trace(inst: &Instance, opts: &TraceOptions) -> Result<Trace, TraceError> {
    let clauses_count = inst.size().clauses;
    if clauses_count > MAX_CLAUSES as u64 {
        return Err(TraceError::TooManyClauses {
            clauses: clauses_count,
            max: MAX_CLAUSES,
        });
    }
    let narrator = Narrator::new(inst);
    let n = inst.n();
    let num_vars = narrator.names.len();
    let formula: Vec<Vec<Lit>> = narrator.cnf.iter().map(|c| c.to_vec()).collect();
    let clauses: Vec<TraceClause> = (0..formula.len())
        .map(|i| TraceClause {
            lits: formula[i].to_vec(),
            group: narrator
                .cnf
                .group_of(i)
                .map_or_else(String::new, |g| g.tag.clone()),
            text: narrator.clause(&formula[i]),
            meaning: narrator.meaning(i),
        })
        .collect();
    let mut order = inst.projection();
    let mut in_order = vec![false; num_vars];
    for v in &order {
        in_order[v.index()] = true;
    }
    order.extend((0..num_vars).filter(|&i| !in_order[i]).map(Var::from_index));
    let mut solver = Solver::new(formula.clone(), num_vars, order, opts.learning);

    let mut steps: Vec<Step> = Vec::new();
    let mut stats = TraceStats::default();
    let mut learned: Vec<Vec<Lit>> = Vec::new();
    let mut board = narrator.board(&vec![None; num_vars]);
    let mut level = 0;
    let clause_lits = |i: usize, learned: &[Vec<Lit>]| -> Vec<Lit> {
        formula
            .get(i)
            .cloned()
            .unwrap_or_else(|| learned[i - formula.len()].clone())
    };
    let result = solver.run(|event, value| {
        if steps.len() >= opts.max_steps {
            return Err(TraceError::TooManySteps {
                limit: opts.max_steps,
            });
        }
        let (kind, lit, clause, text) = match &event {
            Event::Decide { lit, level: l } => {
                stats.decisions += 1;
                level = *l;
                let mut text = format!("{} = true (level {l})", narrator.names[lit.index()]);
                if let Some(m) = narrator.var_meaning(lit.var()) {
                    text.push_str(&format!("; {m}"));
                }
                (StepKind::Decide, Some(*lit), None, text)
            }
            Event::Flip { lit, level: l } => {
                level = *l;
                let text = format!(
                    "{} failed: try {} (level {l})",
                    narrator.lit(!*lit),
                    narrator.lit(*lit)
                );
                (StepKind::Flip, Some(*lit), None, text)
            }
            Event::Propagate {
                lit,
                level: l,
                reason,
            } => {
                stats.propagations += 1;
                level = *l;
                let c = clause_lits(*reason, &learned);
                let why = if *reason < formula.len() {
                    narrator.rule(*reason)
                } else {
                    format!("learned clause {}", reason - formula.len() + 1)
                };
                let text = format!("{why}: {}", narrator.forcing(&c, *lit));
                (StepKind::Propagate, Some(*lit), Some(*reason), text)
            }
            Event::Conflict { clause, level: l } => {
                stats.conflicts += 1;
                level = *l;
                let text = if *clause < formula.len() {
                    match narrator.falsified(*clause) {
                        Some(sentence) => format!(
                            "{sentence} (every literal of {} is false)",
                            narrator.clause(&formula[*clause])
                        ),
                        None => format!(
                            "{}: every literal of {} is false",
                            narrator.rule(*clause),
                            narrator.clause(&formula[*clause])
                        ),
                    }
                } else {
                    format!(
                        "learned clause {} is false: {}",
                        clause - formula.len() + 1,
                        narrator.clause(&learned[clause - formula.len()])
                    )
                };
                (StepKind::Conflict, None, Some(*clause), text)
            }
            Event::Learn { clause, lits } => {
                stats.learned += 1;
                learned.push(lits.clone());
                let text = format!(
                    "clause {}: {} ({})",
                    learned.len(),
                    narrator.clause(lits),
                    narrator.pattern(lits)
                );
                (StepKind::Learn, None, Some(*clause), text)
            }
            Event::Backjump { level: l } | Event::Backtrack { level: l } => {
                level = *l;
                let (kind, verb) = match event {
                    Event::Backjump { .. } => (StepKind::Backjump, "jump back"),
                    _ => (StepKind::Backtrack, "go back"),
                };
                (kind, None, None, format!("{verb} to level {l}"))
            }
            Event::Sat => (
                StepKind::Sat,
                None,
                None,
                "every clause has a true literal: a solution".to_string(),
            ),
            Event::Unsat => {
                let why = if level == 0 {
                    "a conflict that depends on no decision"
                } else {
                    "every decision has been tried both ways"
                };
                let text = format!("{why}: no solution exists, the search has proved it");
                (StepKind::Unsat, None, None, text)
            }
        };
        let after = narrator.board(value);
        let changed = (0..n * n)
            .filter(|&i| after[i / n].as_bytes()[i % n] != board[i / n].as_bytes()[i % n])
            .map(|i| [i / n + 1, i % n + 1])
            .collect();
        board = after;
        let learned_lits = match &event {
            Event::Learn { lits, .. } => Some(lits.clone()),
            _ => None,
        };
        steps.push(Step {
            step: steps.len() + 1,
            kind,
            literal: lit,
            name: lit.map(|l| narrator.lit(l)),
            level,
            clause,
            learned: learned_lits,
            text,
            board: board.clone(),
            changed,
        });
        Ok(())
    })?;
    let solution = result.and_then(|value| {
        let assignment: Vec<bool> = value.iter().map(|v| v.unwrap_or(false)).collect();
        inst.decode(&assignment).ok().map(|p| {
            p.cols()
                .iter()
                .map(|&c| c as usize + 1)
                .collect::<Vec<usize>>()
        })
    });
    if let (Some(cols), Some(last)) = (&solution, steps.last_mut()) {
        let line: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
        last.text.push_str(&format!(": {}", line.join(" ")));
    }
    Ok(Trace {
        n,
        model: inst.name(),
        solver: if opts.learning { "cdcl" } else { "dpll" },
        heuristic: HEURISTIC,
        variables: num_vars,
        names: narrator.names.clone(),
        cells: (0..num_vars)
            .map(|i| {
                narrator
                    .cell_of_lit(Var::from_index(i))
                    .map(|(r, c)| [r + 1, c + 1])
            })
            .collect(),
        clauses,
        satisfiable: solution.is_some(),
        solution,
        steps,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Model;

    #[test]
    fn steps_say_what_happened_and_boards_follow() {
        let inst = Instance::new(4, Model::default()).unwrap();
        let t = trace(&inst, &TraceOptions::default()).unwrap();
        assert_eq!(t.steps[0].kind, StepKind::Decide);
        assert_eq!(t.steps[0].board[0], "Q...");
        assert_eq!(t.steps[0].changed, vec![[1, 1]]);
        let p = &t.steps[1];
        assert_eq!(p.kind, StepKind::Propagate);
        assert_eq!(p.clause, Some(4));
        assert_eq!(
            p.text,
            "Q2 row 1 has at most one queen: q(1,1) forces ¬q(1,2)"
        );
        assert_eq!(
            t.clauses[4].meaning,
            "Q2 no two queens on row 1: not both (1,1) and (1,2)"
        );
        assert_eq!(t.steps.last().unwrap().kind, StepKind::Sat);
        assert_eq!(t.stats.conflicts, 2);
    }

    #[test]
    fn limits_are_typed_errors() {
        let inst = Instance::new(8, Model::default()).unwrap();
        let opts = TraceOptions {
            learning: true,
            max_steps: 5,
        };
        assert_eq!(
            trace(&inst, &opts).unwrap_err(),
            TraceError::TooManySteps { limit: 5 }
        );
        let big = Instance::new(17, Model::default()).unwrap();
        let t = trace(&big, &TraceOptions::default()).unwrap();
        assert!(t.satisfiable);
        assert_eq!(
            t.check_html().unwrap_err(),
            TraceError::BoardTooLarge { n: 17, max: 16 }
        );
        assert!(t.write_html(&mut Vec::new()).is_err());
    }
}
