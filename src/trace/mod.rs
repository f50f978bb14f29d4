//! Watching a SAT solver think: a small backtracking, DPLL or CDCL search over an instance's
//! formula or any DIMACS file, with every step recorded and said in words, for teaching.
//!
//! [`trace`] runs the search on any [`Instance`] (any model, encoding and partial board),
//! [`trace_cnf`] on a DIMACS file (with a board when a [`CnfBoard`] gives one); both return a
//! [`Trace`]: the formula's clauses with their meaning, numbered from 1 in the order `encode`
//! writes them (learned clauses after them), then one [`Step`] per event. [`TraceOptions`]
//! chooses the algorithm, the decision heuristic (fixed order, VSIDS, random), restarts, two
//! watched literals and decisions taken by hand; `engine.js` is the same solver in
//! JavaScript, for the HTML page.
//!
//! * a **decision** (`decide`): by default the first variable without a value, in a fixed
//!   order, is set true. The order is the board's variables row by row (the cells `q(1,1)`,
//!   `q(1,2)`, ... of the cell model; the column model's variables of row 1, then row 2, ...),
//!   then the encoding's auxiliary variables in their numbering. True is always tried first,
//!   so the search places queens row by row, leftmost first, as one would by hand;
//! * a **propagation** (`propagate`): a clause all of whose literals but one are false forces
//!   the last one ("Q3 column 2 has at most one queen (clause 42): q(1,2) forces ¬q(4,2)");
//! * a **conflict** (`conflict`): a clause whose literals are all false;
//! * without learning (backtracking, DPLL), a **backtrack** to the latest decision that has not
//!   been tried both ways and a **flip** to its other value;
//! * with learning (CDCL), the **learned** clause (`learn`, first unique implication point,
//!   with its resolution steps), drawn as the pattern of queens that cannot stand together,
//!   the **backjump** to the level where it forces a literal, and with restarts a `restart`;
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

mod file;
mod html;
mod options;
mod render;
mod search;

use crate::cnf::lit_value;
use crate::cnf::{Lit, Var};
use crate::encode::{LabelledCnf, Rule, Words};
use crate::instance::{to_labelled_cnf, Formula, Instance};
use search::{Event, Solver, WatchNote};
use serde::Serialize;

pub use file::{read_map, same_formula, CnfBoard, CnfTraceError};
pub use html::MAX_HTML_N;
pub use options::{parse_decision, Algorithm, Heuristic, TraceOptions, DEFAULT_SEED};
pub use search::{luby, Xorshift32, RESTART_UNIT, VSIDS_DECAY};

/// The default limit on the number of steps ([`TraceOptions::max_steps`]).
pub const DEFAULT_MAX_STEPS: usize = 100_000;

/// The largest formula the trace takes, in clauses: its clause list is printed whole.
pub const MAX_CLAUSES: usize = 200_000;

/// The most variables a traced formula may have.
pub const MAX_VARIABLES: usize = 100_000;

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
    /// The formula has too many variables.
    #[error("the formula has {vars} variables, more than the {max} a trace takes")]
    TooManyVariables {
        /// Variables of the formula.
        vars: usize,
        /// The limit ([`MAX_VARIABLES`]).
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
    /// A decision given by hand cannot be taken.
    #[error("--decide {k}={lit}: {why}")]
    BadDecision {
        /// The decision (1-based).
        k: usize,
        /// The literal (DIMACS).
        lit: isize,
        /// Why not.
        why: String,
    },
    /// Options that do not go together.
    #[error("{0}")]
    Options(String),
}

/// What a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    /// A variable set by choice, on a new level.
    Decide,
    /// A literal forced by a clause (its reason).
    Propagate,
    /// A clause with every literal false.
    Conflict,
    /// CDCL: a clause learned from a conflict.
    Learn,
    /// CDCL: assignments above a level undone.
    Backjump,
    /// Backtracking, DPLL: assignments above a level undone, before a flip.
    Backtrack,
    /// Backtracking, DPLL: a decision's other value.
    Flip,
    /// CDCL with restarts: every decision undone, the learned clauses kept.
    Restart,
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
    /// Its group's tag (`Q1`, ..., `P`, `F`; empty for a DIMACS file's clause).
    pub group: String,
    /// The clause with named variables: `¬q(1,2) ∨ ¬q(4,2)`.
    pub text: String,
    /// What it says: `Q3 column 2 has at most one queen` (empty when unknown).
    pub meaning: String,
}

/// One resolvent of a learn step: the conflict clause, then each resolution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResolutionStep {
    /// The variable resolved on (DIMACS number); `None` for the conflict clause.
    pub variable: Option<usize>,
    /// The clause resolved with (1-based number): the conflict clause, then the reason of
    /// `variable`.
    pub clause: usize,
    /// The resolvent, literals false at level 0 left out (DIMACS numbers in the JSON).
    #[serde(serialize_with = "crate::cnf::dimacs_serde::clause")]
    pub resolvent: Vec<Lit>,
}

/// A watch that moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WatchMove {
    /// The clause (1-based).
    pub clause: usize,
    /// The watched literal that became false.
    #[serde(serialize_with = "lit_json")]
    pub from: Lit,
    /// The literal watched instead (not false).
    #[serde(serialize_with = "lit_json")]
    pub to: Lit,
}

fn lit_json<S: serde::Serializer>(l: &Lit, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i64(l.to_dimacs() as i64)
}

/// What a step did to the two watched literals ([`TraceOptions::watches`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StepWatches {
    /// The watches the step's assignment moved, in the order they were visited.
    pub moved: Vec<WatchMove>,
    /// The clauses the step made unit (1-based): one watch false with nowhere to move, the
    /// other open.
    pub unit: Vec<usize>,
    /// A learn step: the literals the new clause watches.
    #[serde(serialize_with = "crate::cnf::dimacs_serde::clause")]
    pub watched: Vec<Lit>,
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
    /// The clause of the step, by its 1-based number: the reason of a propagation, the false
    /// clause of a conflict, the new clause of a learn step. Clause `k` of the formula is
    /// [`Trace::clauses`]`[k - 1]` (the order `encode` writes them, the DIMACS file's order);
    /// the learned clauses follow, numbered from `clauses.len() + 1` in the order of their
    /// learn steps.
    pub clause: Option<usize>,
    /// A learn step's clause, the asserted literal first (DIMACS numbers in the JSON).
    #[serde(serialize_with = "crate::cnf::dimacs_serde::clause_opt")]
    pub learned: Option<Vec<Lit>>,
    /// A learn step's resolvents, from the conflict clause to the learned clause.
    pub resolution: Option<Vec<ResolutionStep>>,
    /// With [`TraceOptions::watches`]: the watch moves of the step.
    pub watches: Option<StepWatches>,
    /// The step in words.
    pub text: String,
    /// The board after the step, one string per row: `Q` queen, `x` excluded, `.` open (no
    /// rows without a board).
    pub board: Vec<String>,
    /// The cells whose state the step changed, 1-based `[row, column]`.
    pub changed: Vec<[usize; 2]>,
    /// Without a board: the value of every variable after the step, one character each
    /// (`1` true, `0` false, `.` open).
    pub values: Option<String>,
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
    /// Restarts.
    pub restarts: usize,
}

/// A whole trace: the formula and every step of the search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// Board size (0 without a board: a DIMACS file that does not map cells to variables).
    pub n: usize,
    /// The model's short name (`pairwise`, `columns-order`, ...), or the DIMACS file's name.
    pub model: String,
    /// The DIMACS file traced (`None` for an instance).
    pub file: Option<String>,
    /// `board` (the steps' boards) or `variables` (the steps' values of the variables).
    pub view: &'static str,
    /// The algorithm: `backtracking`, `dpll` or `cdcl`.
    pub solver: &'static str,
    /// The decision rule, in words.
    pub heuristic: &'static str,
    /// The options the trace was made with (the command line's names): the search can be run
    /// again from this object alone.
    pub options: TraceOptions,
    /// Variables of the formula.
    pub variables: usize,
    /// The variables' names, `names[i]` for DIMACS variable `i + 1`.
    pub names: Vec<String>,
    /// For each variable (`cells[i]` for DIMACS variable `i + 1`), the 1-based cell
    /// `[row, column]` it stands for alone (true exactly when a queen is there: the cell
    /// model's variables, the direct column model's), or `None`.
    pub cells: Vec<Option<[usize; 2]>>,
    /// For each cell, row by row, the literals that together say "a queen here" (empty
    /// without a board).
    #[serde(serialize_with = "cell_lits_json")]
    pub cell_lits: Vec<Vec<Lit>>,
    /// The fixed decision order, DIMACS variable numbers: the board's variables row by row,
    /// then the others.
    pub order: Vec<usize>,
    /// The formula's clauses, in the order `encode` writes them (a DIMACS file's order):
    /// clause `k` is `clauses[k - 1]`.
    pub clauses: Vec<TraceClause>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// `true` when the search found a model.
    pub satisfiable: bool,
    /// The board found: 1-based column of each row's queen (`None` without a model, without
    /// a board, or when the model's board is not one queen per row).
    pub solution: Option<Vec<usize>>,
    /// The model found, as DIMACS literals (the variables it leaves open left out).
    pub assignment: Option<Vec<i64>>,
    /// Totals.
    pub stats: TraceStats,
}

fn cell_lits_json<S: serde::Serializer>(cells: &[Vec<Lit>], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(cells.len()))?;
    for c in cells {
        let d: Vec<i64> = c.iter().map(|l| l.to_dimacs() as i64).collect();
        seq.serialize_element(&d)?;
    }
    seq.end()
}

/// The fixed decision rule, as documented in [`Trace::heuristic`].
pub const HEURISTIC: &str = "the first variable without a value, board variables row by row (left to right) before auxiliaries, set true first";

/// The decision rule of `opts` in words.
fn heuristic_words(opts: &TraceOptions) -> &'static str {
    match opts.heuristic {
        Heuristic::Fixed => HEURISTIC,
        Heuristic::Vsids => "VSIDS: the open variable of highest activity, ties to the fixed order (board variables row by row before auxiliaries); each conflict bumps the variables of the clauses it resolves, activities decay by 0.95; set true first",
        Heuristic::Random => "an open variable drawn at random (xorshift32 seeded with the options' seed), set true first",
    }
}

/// The words of an instance: what its clauses and variables mean.
struct InstanceWords<'a> {
    inst: &'a Instance,
    cnf: LabelledCnf,
    words: Box<dyn Words + 'a>,
    /// The model's variables: `0..model_vars`.
    model_vars: usize,
}

/// Names, meanings and boards of one formula: what turns search events into steps. For an
/// instance, the variables of the model and the clauses are said in the encoding's words
/// ([`Words`]); for a DIMACS file, the clauses are said by number and the variables by name
/// (`q(r,c)` for a cell, `x7` otherwise).
struct Narrator<'a> {
    /// The instance, when the formula is an instance's.
    words: Option<InstanceWords<'a>>,
    n: usize,
    formula: Vec<Vec<Lit>>,
    names: Vec<String>,
    /// For each cell, the literals that say "a queen here" (empty without a board).
    cell_lits: Vec<Vec<Lit>>,
}

impl<'a> Narrator<'a> {
    fn of_instance(inst: &'a Instance) -> Self {
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
        let formula = cnf.iter().map(|c| c.to_vec()).collect();
        Narrator {
            words: Some(InstanceWords {
                inst,
                cnf,
                words,
                model_vars,
            }),
            n,
            formula,
            names,
            cell_lits,
        }
    }

    /// A DIMACS file's formula on `vars` variables, with the board of `cells` (`cells[r * n +
    /// c]` the variable of cell (r, c)) when given.
    fn of_file(formula: Vec<Vec<Lit>>, vars: usize, n: usize, cells: Option<&[Var]>) -> Self {
        let mut names: Vec<String> = (1..=vars).map(|v| format!("x{v}")).collect();
        let mut cell_lits = Vec::new();
        if let Some(cells) = cells {
            for (i, v) in cells.iter().enumerate() {
                names[v.index()] = format!("q({},{})", i / n + 1, i % n + 1);
                cell_lits.push(vec![v.positive()]);
            }
        }
        Narrator {
            words: None,
            n: if cells.is_some() { n } else { 0 },
            formula,
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

    /// `Q3 column 2 has at most one queen`: the group's tag and the rule on the clause's line
    /// (formula clause `i`, 0-based); `None` for a DIMACS file.
    fn rule(&self, i: usize) -> Option<String> {
        let w = self.words.as_ref()?;
        let tag = w.cnf.group_of(i).map_or("?", |g| g.tag.as_str());
        let meaning = w.cnf.group_of(i).map_or("", |g| g.meaning.as_str());
        let line = w
            .cnf
            .line_of(i)
            .map(|l| l.describe_on(w.inst.n(), w.inst.geometry()));
        Some(match (w.cnf.rule_of(i), line) {
            (Some(Rule::AtLeastOne(_)), Some(line)) => {
                format!("{tag} {line} has at least one queen")
            }
            (Some(Rule::AtMostOne(_)), Some(line)) => format!("{tag} {line} has at most one queen"),
            (Some(Rule::Placed), _) => format!("{tag} pre-placed queen"),
            (Some(Rule::Forbidden), _) => format!("{tag} forbidden cell"),
            // The column model's pairs and domain clauses, symmetry breaking: the group's
            // meaning.
            _ => format!("{tag} {meaning}"),
        })
    }

    /// The clause's meaning for the clause list: the encoding's words where they say one
    /// ([`Words::clause_meaning`]), the group rule otherwise; empty for a DIMACS file.
    fn meaning(&self, i: usize) -> String {
        let Some(w) = &self.words else {
            return String::new();
        };
        let said = w
            .cnf
            .label_of(i)
            .and_then(|label| w.words.clause_meaning(&label, w.cnf.clause(i)));
        match said {
            Some(m) => {
                let tag = w.cnf.group_of(i).map_or("?", |g| g.tag.as_str());
                format!("{tag} {m}")
            }
            None => self.rule(i).unwrap_or_default(),
        }
    }

    fn group(&self, i: usize) -> String {
        self.words
            .as_ref()
            .and_then(|w| w.cnf.group_of(i))
            .map_or_else(String::new, |g| g.tag.clone())
    }

    /// What it means that clause `i` of the formula is false, when the encoding's words say
    /// it ([`Words::falsified`]).
    fn falsified(&self, i: usize) -> Option<String> {
        let w = self.words.as_ref()?;
        let label = w.cnf.label_of(i)?;
        w.words.falsified(&label, w.cnf.clause(i))
    }

    /// How a step names clause `i` (0-based; learned from the formula's length on): `Q2 row
    /// 1 has at most one queen (clause 5)`, `clause 5`, `clause 81 (learned)`.
    fn clause_ref(&self, i: usize) -> String {
        if i >= self.formula.len() {
            return format!("clause {} (learned)", i + 1);
        }
        match self.rule(i) {
            Some(rule) => format!("{rule} (clause {})", i + 1),
            None => format!("clause {}", i + 1),
        }
    }

    /// The board under `value`, one string per row.
    fn board(&self, value: &[Option<bool>]) -> Vec<String> {
        let n = self.n;
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
        let model = if self.n > 0 { "solution" } else { "model" };
        match (parts.len(), lits.len()) {
            (0, _) => "nothing at all: the formula has no model".into(),
            (_, 1) => format!("no {model} has {}", parts[0]),
            _ => format!("{} cannot all hold together", parts.join("; ")),
        }
    }

    /// The cell whose queen the variable alone stands for (cells, the direct column model).
    fn cell_of_lit(&self, v: Var) -> Option<(usize, usize)> {
        let n = self.n;
        self.cell_lits
            .iter()
            .position(|ls| ls.len() == 1 && ls[0] == v.positive())
            .map(|i| (i / n, i % n))
    }

    /// What a decision variable of the model stands for, when its name does not say it all
    /// ([`Words::var_meaning`]: the cell model's auxiliaries, the column model's variables).
    fn var_meaning(&self, v: Var) -> Option<String> {
        let w = self.words.as_ref()?;
        if v.index() < w.model_vars {
            w.words.var_meaning(v)
        } else {
            None
        }
    }

    /// The fixed decision order: the board's variables row by row (an instance's projection,
    /// a map's cells), then every other variable by number.
    fn order(&self) -> Vec<Var> {
        let vars = self.names.len();
        let mut order: Vec<Var> = match &self.words {
            Some(w) => w.inst.projection(),
            None => self
                .cell_lits
                .iter()
                .flat_map(|ls| ls.iter().map(|l| l.var()))
                .collect(),
        };
        let mut in_order = vec![false; vars];
        order.retain(|v| !std::mem::replace(&mut in_order[v.index()], true));
        order.extend((0..vars).filter(|&i| !in_order[i]).map(Var::from_index));
        order
    }
}

/// `true` values, `false` values and open variables of `value`, one character each.
fn values_string(value: &[Option<bool>]) -> String {
    value
        .iter()
        .map(|v| match v {
            Some(true) => '1',
            Some(false) => '0',
            None => '.',
        })
        .collect()
}

/// Checks that the options go together: restarts need CDCL.
fn check_options(opts: &TraceOptions) -> Result<(), TraceError> {
    if opts.restarts && opts.algorithm != Algorithm::Cdcl {
        return Err(TraceError::Options(format!(
            "--restarts needs --algorithm cdcl (without learning a restart would only repeat the search; this is {})",
            opts.algorithm.name()
        )));
    }
    Ok(())
}

/// Runs the search on `inst` and records every step ([`TraceOptions`] chooses the algorithm,
/// the heuristic and the step limit).
pub fn trace(inst: &Instance, opts: &TraceOptions) -> Result<Trace, TraceError> {
    let clauses_count = inst.size().clauses;
    if clauses_count > MAX_CLAUSES as u64 {
        return Err(TraceError::TooManyClauses {
            clauses: clauses_count,
            max: MAX_CLAUSES,
        });
    }
    let narrator = Narrator::of_instance(inst);
    run(&narrator, inst.name(), None, opts)
}

/// Runs the search on a DIMACS file's formula (`cnf`, named `name`) and records every step,
/// with the board of `board` when it has one.
pub fn trace_cnf(
    cnf: &crate::cnf::Dimacs,
    name: &str,
    board: &CnfBoard,
    opts: &TraceOptions,
) -> Result<Trace, TraceError> {
    if cnf.clauses.len() > MAX_CLAUSES {
        return Err(TraceError::TooManyClauses {
            clauses: cnf.clauses.len() as u64,
            max: MAX_CLAUSES,
        });
    }
    if cnf.vars > MAX_VARIABLES {
        return Err(TraceError::TooManyVariables {
            vars: cnf.vars,
            max: MAX_VARIABLES,
        });
    }
    match board {
        CnfBoard::Instance(inst) => {
            let narrator = Narrator::of_instance(inst);
            run(
                &narrator,
                format!("{name}: {}", inst.name()),
                Some(name),
                opts,
            )
        }
        CnfBoard::Cells(map) => {
            let narrator =
                Narrator::of_file(cnf.clauses.clone(), cnf.vars, map.n(), Some(map.vars()));
            run(&narrator, name.to_string(), Some(name), opts)
        }
        CnfBoard::None => {
            let narrator = Narrator::of_file(cnf.clauses.clone(), cnf.vars, 0, None);
            run(&narrator, name.to_string(), Some(name), opts)
        }
    }
}

/// The search on the narrator's formula, every step recorded.
fn run(
    narrator: &Narrator,
    model: String,
    file: Option<&str>,
    opts: &TraceOptions,
) -> Result<Trace, TraceError> {
    check_options(opts)?;
    let n = narrator.n;
    let num_vars = narrator.names.len();
    let formula = &narrator.formula;
    let m = formula.len();
    let clauses: Vec<TraceClause> = (0..m)
        .map(|i| TraceClause {
            lits: formula[i].to_vec(),
            group: narrator.group(i),
            text: narrator.clause(&formula[i]),
            meaning: narrator.meaning(i),
        })
        .collect();
    let order = narrator.order();
    let mut solver = Solver::new(formula, num_vars, order.clone(), opts);
    let board_view = n > 0;

    let mut steps: Vec<Step> = Vec::new();
    let mut stats = TraceStats::default();
    let mut learned: Vec<Vec<Lit>> = Vec::new();
    let mut board = narrator.board(&vec![None; num_vars]);
    let mut level = 0;
    let clause_lits = |i: usize, learned: &[Vec<Lit>]| -> Vec<Lit> {
        formula
            .get(i)
            .cloned()
            .unwrap_or_else(|| learned[i - m].clone())
    };
    let result = solver.run(|event, value, note| {
        if steps.len() >= opts.max_steps {
            return Err(TraceError::TooManySteps {
                limit: opts.max_steps,
            });
        }
        let mut resolution = None;
        let (kind, lit, clause, text) = match &event {
            Event::Decide {
                lit,
                level: l,
                forced,
                activity,
            } => {
                stats.decisions += 1;
                level = *l;
                let value = if lit.is_positive() { "true" } else { "false" };
                let how = if *forced {
                    ", by --decide".to_string()
                } else {
                    match (opts.heuristic, activity) {
                        (Heuristic::Vsids, Some(a)) => format!(", activity {a:.2}"),
                        (Heuristic::Random, _) => ", drawn at random".to_string(),
                        _ => String::new(),
                    }
                };
                let mut text = format!("{} = {value} (level {l}{how})", narrator.names[lit.index()]);
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
                let text = format!(
                    "{}: {}",
                    narrator.clause_ref(*reason),
                    narrator.forcing(&c, *lit)
                );
                (StepKind::Propagate, Some(*lit), Some(*reason), text)
            }
            Event::Conflict { clause, level: l } => {
                stats.conflicts += 1;
                level = *l;
                let lits = narrator.clause(&clause_lits(*clause, &learned));
                let text = match (*clause < m).then(|| narrator.falsified(*clause)).flatten() {
                    Some(sentence) => format!(
                        "{sentence} (clause {}: every literal of {lits} is false)",
                        clause + 1
                    ),
                    None => format!(
                        "{}: every literal of {lits} is false",
                        narrator.clause_ref(*clause)
                    ),
                };
                (StepKind::Conflict, None, Some(*clause), text)
            }
            Event::Learn {
                clause,
                lits,
                resolution: r,
            } => {
                stats.learned += 1;
                learned.push(lits.clone());
                resolution = Some(
                    r.iter()
                        .map(|s| ResolutionStep {
                            variable: s.variable.map(|v| v.index() + 1),
                            clause: s.clause + 1,
                            resolvent: s.lits.clone(),
                        })
                        .collect(),
                );
                let text = format!(
                    "clause {} (learned): {} ({})",
                    clause + 1,
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
            Event::Restart { conflicts } => {
                stats.restarts += 1;
                level = 0;
                let text = format!(
                    "restart after {conflicts} conflicts: every decision undone, the {} learned clauses kept",
                    learned.len()
                );
                (StepKind::Restart, None, None, text)
            }
            Event::Sat => {
                let what = if board_view { "a solution" } else { "a model" };
                let text = format!("every clause has a true literal: {what}");
                (StepKind::Sat, None, None, text)
            }
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
        let watches = note.map(|w: &WatchNote| StepWatches {
            moved: w
                .moved
                .iter()
                .map(|&(c, from, to)| WatchMove {
                    clause: c + 1,
                    from,
                    to,
                })
                .collect(),
            unit: w.unit.iter().map(|c| c + 1).collect(),
            watched: w.watched.clone(),
        });
        steps.push(Step {
            step: steps.len() + 1,
            kind,
            literal: lit,
            name: lit.map(|l| narrator.lit(l)),
            level,
            clause: clause.map(|c| c + 1),
            learned: learned_lits,
            resolution,
            watches,
            text,
            board: board.clone(),
            changed,
            values: (!board_view).then(|| values_string(value)),
        });
        Ok(())
    })?;
    let solution = result
        .as_ref()
        .and_then(|value| solution_of(narrator, value));
    let assignment = result.as_ref().map(|value| {
        value
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|b| if b { i as i64 + 1 } else { -(i as i64 + 1) }))
            .collect::<Vec<i64>>()
    });
    if let (Some(cols), Some(last)) = (&solution, steps.last_mut()) {
        let line: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
        last.text.push_str(&format!(": {}", line.join(" ")));
    }
    Ok(Trace {
        n,
        model,
        file: file.map(str::to_string),
        view: if board_view { "board" } else { "variables" },
        solver: opts.algorithm.name(),
        heuristic: heuristic_words(opts),
        options: opts.clone(),
        variables: num_vars,
        names: narrator.names.clone(),
        cells: (0..num_vars)
            .map(|i| {
                narrator
                    .cell_of_lit(Var::from_index(i))
                    .map(|(r, c)| [r + 1, c + 1])
            })
            .collect(),
        cell_lits: narrator.cell_lits.clone(),
        order: order.iter().map(|v| v.index() + 1).collect(),
        clauses,
        satisfiable: result.is_some(),
        solution,
        assignment,
        steps,
        stats,
    })
}

/// The board of a model (open variables taken as false): a queen on each cell whose literals
/// are all true; the 1-based column of each row's queen when every row has exactly one.
fn solution_of(narrator: &Narrator, value: &[Option<bool>]) -> Option<Vec<usize>> {
    let n = narrator.n;
    if n == 0 {
        return None;
    }
    let full: Vec<Option<bool>> = value.iter().map(|v| Some(v.unwrap_or(false))).collect();
    let board = narrator.board(&full);
    board
        .iter()
        .map(|row| {
            let queens: Vec<usize> = row
                .char_indices()
                .filter(|&(_, ch)| ch == 'Q')
                .map(|(c, _)| c + 1)
                .collect();
            (queens.len() == 1).then(|| queens[0])
        })
        .collect()
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
        // Clause 5 of `encode 4`, the fifth line of its DIMACS: clauses[4].
        assert_eq!(p.clause, Some(5));
        assert_eq!(
            p.text,
            "Q2 row 1 has at most one queen (clause 5): q(1,1) forces ¬q(1,2)"
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
            algorithm: Algorithm::Cdcl,
            max_steps: 5,
            ..TraceOptions::default()
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
