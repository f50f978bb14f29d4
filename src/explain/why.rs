//! Why a formula has no model: a minimal unsatisfiable core (MUS) found with the solver, and a
//! short case-split argument over the core that a student can check by hand.
//!
//! * [`minimal_unsat_core`] hands every clause to varisat behind a selector literal, asks for
//!   the failed assumptions (`failed_core`), then removes clauses one by one as long as the rest
//!   stays unsatisfiable (deletion-based minimisation with clause-set refinement). The result is
//!   minimal: dropping any one of its clauses makes it satisfiable.
//! * [`case_split`] turns a core into an argument: pick a clause that must hold (for n = 3,
//!   "row 1 needs a queen"), try each of its literals, and follow unit propagation through the
//!   core's clauses to a clause that is false. Only the steps that the contradiction uses are
//!   kept.
//! * [`write_why`] prints both with named variables, grouped by clause group.

use super::Notation;
use crate::cnf::{Cnf, Lit, Var};
use crate::encode::{Encoding, LabelledCnf, Rule, Words};
use crate::solve::SolveError;
use std::collections::HashSet;
use std::io::{self, Write};

fn solver_err(e: impl std::fmt::Display) -> SolveError {
    SolveError::Solver(e.to_string())
}

/// The indices of a minimal unsatisfiable subset of `cnf`'s clauses, in increasing order, or
/// `None` when `cnf` is satisfiable.
///
/// Minimal means: the clauses returned have no model together, and removing any single one
/// of them leaves a satisfiable set. (It is not necessarily the smallest such set.)
pub fn minimal_unsat_core(cnf: &Cnf) -> Result<Option<Vec<usize>>, SolveError> {
    let mut solver = varisat::Solver::new();
    let first_selector = cnf.max_var();
    let selector = |i: usize| Var::from_index(first_selector + i).positive();
    let mut buf = Vec::new();
    for (i, c) in cnf.iter().enumerate() {
        // Clause i is active exactly when its selector is assumed true.
        buf.clear();
        buf.extend_from_slice(c);
        buf.push(!selector(i));
        varisat::ExtendFormula::add_clause(&mut solver, &buf);
    }
    let index_of = |l: &Lit| l.index() - first_selector;
    // Returns the failed core (as clause indices) when `active` is unsatisfiable.
    let mut refute = |active: &[usize]| -> Result<Option<Vec<usize>>, SolveError> {
        let assumptions: Vec<Lit> = active.iter().map(|&i| selector(i)).collect();
        solver.assume(&assumptions);
        if solver.solve().map_err(solver_err)? {
            return Ok(None);
        }
        let mut core: Vec<usize> = solver
            .failed_core()
            .ok_or_else(|| solver_err("no failed core after UNSAT"))?
            .iter()
            .map(index_of)
            .collect();
        core.sort_unstable();
        Ok(Some(core))
    };
    let all: Vec<usize> = (0..cnf.len()).collect();
    let Some(mut core) = refute(&all)? else {
        return Ok(None);
    };
    // Deletion: try each clause in turn; a clause that can go, goes (with every other clause
    // the solver did not need); a clause that cannot is necessary in every subset of the
    // current core, so it is in the final one.
    let mut k = 0;
    while k < core.len() {
        let candidate = core[k];
        let rest: Vec<usize> = core.iter().copied().filter(|&i| i != candidate).collect();
        match refute(&rest)? {
            Some(smaller) => {
                // `smaller` is a subset of `rest`; clauses before position k were all found
                // necessary and stay, so the scan continues at the same position.
                core = smaller;
                k = core.partition_point(|&i| i < candidate);
            }
            None => k += 1,
        }
    }
    Ok(Some(core))
}

/// One step of an argument: `lit` must be true because `clause` (an index into the formula)
/// would otherwise be false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The literal forced.
    pub lit: Lit,
    /// The clause that forces it.
    pub clause: usize,
}

/// How a branch of a [`case_split`] argument ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BranchEnd {
    /// The clause (an index) is false: every literal of it has been made false.
    Conflict(usize),
    /// The clause (an index) must hold, so one of its literals is true: each case fails.
    Split {
        /// The clause split on.
        clause: usize,
        /// One case per literal of the clause that was still open.
        cases: Vec<Case>,
    },
}

/// A case of a split: the literal assumed true, what follows, and how it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The literal assumed.
    pub assume: Lit,
    /// The forced literals the contradiction uses, in order.
    pub steps: Vec<Step>,
    /// The contradiction, or a further split.
    pub outcome: BranchEnd,
}

/// An argument that a set of clauses has no model: steps forced from the start, then an
/// [`BranchEnd`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// Literals forced before any case split (by unit clauses), as used.
    pub steps: Vec<Step>,
    /// The contradiction or the first split.
    pub outcome: BranchEnd,
}

impl Refutation {
    /// The number of steps, cases and contradictions, a measure of how long it is to read.
    pub fn size(&self) -> usize {
        self.steps.len() + outcome_size(&self.outcome)
    }
}

/// Lines of an outcome: one per case, step and contradiction.
fn outcome_size(o: &BranchEnd) -> usize {
    match o {
        BranchEnd::Conflict(_) => 1,
        BranchEnd::Split { cases, .. } => cases
            .iter()
            .map(|c| 1 + c.steps.len() + outcome_size(&c.outcome))
            .sum(),
    }
}

/// Unit propagation over a subset of clauses with a trail, for [`case_split`].
struct State<'a> {
    cnf: &'a Cnf,
    clauses: &'a [usize],
    value: Vec<Option<bool>>,
    /// Assigned literals with the clause that forced them (`None` for an assumption).
    trail: Vec<(Lit, Option<usize>)>,
}

impl State<'_> {
    fn lit_value(&self, l: Lit) -> Option<bool> {
        crate::cnf::lit_value(&self.value, l)
    }

    fn assign(&mut self, l: Lit, reason: Option<usize>) {
        self.value[l.index()] = Some(l.is_positive());
        self.trail.push((l, reason));
    }

    fn undo(&mut self, len: usize) {
        for (l, _) in self.trail.drain(len..) {
            self.value[l.index()] = None;
        }
    }

    /// The open literals of a clause that is not yet true, or `None` when it is true.
    fn open(&self, i: usize) -> Option<Vec<Lit>> {
        let c = self.cnf.clause(i);
        if c.iter().any(|&l| self.lit_value(l) == Some(true)) {
            return None;
        }
        Some(
            c.iter()
                .copied()
                .filter(|&l| self.lit_value(l).is_none())
                .collect(),
        )
    }

    /// Propagates to a fixpoint; `Err(clause)` on a false clause.
    fn propagate(&mut self) -> Result<(), usize> {
        loop {
            let mut changed = false;
            for k in 0..self.clauses.len() {
                let i = self.clauses[k];
                match self.open(i).as_deref() {
                    Some([]) => return Err(i),
                    Some(&[l]) => {
                        self.assign(l, Some(i));
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Propagates, then splits (up to `depth` more levels). Returns the steps of this level
    /// that the outcome uses, the outcome, and the variables it relies on.
    fn refute(
        &mut self,
        depth: usize,
        top: bool,
        budget: &mut usize,
    ) -> Option<(Vec<Step>, BranchEnd, HashSet<Var>)> {
        let start = self.trail.len();
        let result = self.refute_here(depth, top, budget);
        let out = result.map(|(outcome, mut used)| {
            let mut steps = Vec::new();
            for &(lit, reason) in self.trail[start..].iter().rev() {
                if let (true, Some(r)) = (used.contains(&lit.var()), reason) {
                    steps.push(Step { lit, clause: r });
                    used.extend(self.cnf.clause(r).iter().map(|l| l.var()));
                }
            }
            steps.reverse();
            (steps, outcome, used)
        });
        self.undo(start);
        out
    }

    fn refute_here(
        &mut self,
        depth: usize,
        top: bool,
        budget: &mut usize,
    ) -> Option<(BranchEnd, HashSet<Var>)> {
        if let Err(i) = self.propagate() {
            let used = self.cnf.clause(i).iter().map(|l| l.var()).collect();
            return Some((BranchEnd::Conflict(i), used));
        }
        if depth == 0 || *budget == 0 {
            return None;
        }
        // Split on a clause that must hold, preferring "this line needs a queen" (no negative
        // literal) and few open literals. Every clause open has two or more; none open would
        // mean the assignment is a model, which a core cannot have. At the top, every
        // candidate is tried and the shortest argument kept.
        let mut candidates: Vec<(usize, Vec<Lit>)> = self
            .clauses
            .iter()
            .filter_map(|&i| self.open(i).map(|o| (i, o)))
            .collect();
        candidates.sort_by_key(|(i, o)| {
            let negative = self.cnf.clause(*i).iter().any(|l| l.is_negative());
            (negative, o.len())
        });
        let tries = if top { candidates.len() } else { 1 };
        let mut best: Option<(BranchEnd, HashSet<Var>, usize)> = None;
        for (clause, open) in candidates.into_iter().take(tries) {
            let mut b = *budget;
            if let Some((outcome, used)) = self.split_on(clause, open, depth, &mut b) {
                let size = outcome_size(&outcome);
                if best.as_ref().is_none_or(|x| size < x.2) {
                    best = Some((outcome, used, size));
                }
            }
        }
        let (outcome, used, size) = best?;
        *budget = budget.saturating_sub(size);
        Some((outcome, used))
    }

    fn split_on(
        &mut self,
        clause: usize,
        open: Vec<Lit>,
        depth: usize,
        budget: &mut usize,
    ) -> Option<(BranchEnd, HashSet<Var>)> {
        let mut used: HashSet<Var> = self.cnf.clause(clause).iter().map(|l| l.var()).collect();
        let mut cases = Vec::new();
        for l in open {
            *budget = budget.checked_sub(1)?;
            let mark = self.trail.len();
            self.assign(l, None);
            let child = self.refute(depth - 1, false, budget);
            self.undo(mark);
            let (steps, outcome, child_used) = child?;
            *budget = budget.checked_sub(steps.len())?;
            used.extend(child_used);
            cases.push(Case {
                assume: l,
                steps,
                outcome,
            });
        }
        Some((BranchEnd::Split { clause, cases }, used))
    }
}

/// A case-split argument that the clauses `core` (indices into `cnf`) have no model, using
/// unit propagation and at most `max_depth` nested splits, or `None` when no such argument of
/// at most about `max_steps` lines exists (the core alone must then do).
pub fn case_split(
    cnf: &Cnf,
    core: &[usize],
    max_depth: usize,
    max_steps: usize,
) -> Option<Refutation> {
    let mut st = State {
        cnf,
        clauses: core,
        value: vec![None; cnf.max_var()],
        trail: Vec::new(),
    };
    let mut budget = max_steps;
    let (steps, outcome, _) = st.refute(max_depth, true, &mut budget)?;
    Some(Refutation { steps, outcome })
}

/// How a core is said: the encoding's words, and its board for the lines' names.
struct Say<'a> {
    enc: &'a dyn Encoding,
    words: Box<dyn Words + 'a>,
}

impl Say<'_> {
    fn clause(&self, clause: &[Lit]) -> String {
        self.words.clause(clause, Notation::Unicode)
    }

    fn lit(&self, lit: Lit) -> String {
        self.words.lit(lit, Notation::Unicode)
    }
}

/// Where a clause comes from, for the listing: its line ("row 2"), or its group's meaning.
fn clause_place(say: &Say, cnf: &LabelledCnf, i: usize) -> String {
    match cnf.line_of(i) {
        Some(line) if !matches!(cnf.rule_of(i), Some(Rule::Placed | Rule::Forbidden)) => {
            line.describe_on(say.enc.n(), say.enc.geometry())
        }
        _ => cnf
            .group_of(i)
            .map_or_else(String::new, |g| g.meaning.clone()),
    }
}

/// `clause 5: ¬q(1,1) ∨ ¬q(2,1)  [Q3, column 1]`: the clause with index `i`, named by its
/// number (from 1, as in the DIMACS file).
fn clause_text(say: &Say, cnf: &LabelledCnf, i: usize) -> String {
    let tag = cnf.group_of(i).map_or("?", |g| g.tag.as_str());
    format!(
        "clause {}: {}  [{tag}, {}]",
        i + 1,
        say.clause(cnf.clause(i)),
        clause_place(say, cnf, i)
    )
}

fn write_outcome(
    out: &mut impl Write,
    say: &Say,
    cnf: &LabelledCnf,
    o: &BranchEnd,
    indent: usize,
) -> io::Result<()> {
    let pad = " ".repeat(indent);
    match o {
        BranchEnd::Conflict(i) => writeln!(
            out,
            "{pad}contradiction: every literal of {} is false",
            clause_text(say, cnf, *i)
        ),
        BranchEnd::Split { clause, cases } => {
            writeln!(
                out,
                "{pad}{} must hold; try each of its open literals:",
                clause_text(say, cnf, *clause)
            )?;
            for case in cases {
                writeln!(out, "{pad}case {}:", say.lit(case.assume))?;
                write_steps(out, say, cnf, &case.steps, indent + 2)?;
                write_outcome(out, say, cnf, &case.outcome, indent + 2)?;
            }
            Ok(())
        }
    }
}

fn write_steps(
    out: &mut impl Write,
    say: &Say,
    cnf: &LabelledCnf,
    steps: &[Step],
    indent: usize,
) -> io::Result<()> {
    let pad = " ".repeat(indent);
    for s in steps {
        writeln!(
            out,
            "{pad}{}  by {}",
            say.lit(s.lit),
            clause_text(say, cnf, s.clause)
        )?;
    }
    Ok(())
}

/// Prints a core grouped by clause group (with named variables and each clause's line), then,
/// when one of at most `max_steps` lines exists, the case-split argument. `cnf` is the whole
/// formula of `enc` (its clause indices are those of `core`).
pub fn write_why(
    out: &mut impl Write,
    enc: &dyn Encoding,
    cnf: &LabelledCnf,
    core: &[usize],
    max_steps: usize,
) -> io::Result<()> {
    let say = Say {
        enc,
        words: enc.words(),
    };
    writeln!(
        out,
        "{} of the {} clauses already contradict each other; without any one of them the rest could all be true:",
        core.len(),
        cnf.len()
    )?;
    // Each clause with its number (from 1, as in the DIMACS file).
    let width = core.iter().max().map_or(1, |&i| (i + 1).to_string().len());
    let mut current: Option<&str> = None;
    for &i in core {
        let g = cnf.group_of(i);
        let tag = g.map(|g| g.tag.as_str());
        if tag != current {
            current = tag;
            let total = (i..cnf.len())
                .chain((0..i).rev())
                .filter(|&j| cnf.group_of(j).map(|g| g.tag.as_str()) == tag)
                .count();
            let used = core
                .iter()
                .filter(|&&j| cnf.group_of(j).map(|g| g.tag.as_str()) == tag)
                .count();
            writeln!(
                out,
                "{}  {} ({used} of its {total} clauses)",
                tag.unwrap_or("?"),
                g.map_or("", |g| g.meaning.as_str())
            )?;
        }
        writeln!(
            out,
            "    {:>w$}. {:<40} {}",
            i + 1,
            say.clause(cnf.clause(i)),
            clause_place(&say, cnf, i),
            w = width
        )?;
    }
    match case_split(cnf, core, 4, max_steps) {
        Some(r) => {
            writeln!(
                out,
                "Why they contradict each other (each line follows from the clause after \"by\"):"
            )?;
            write_steps(out, &say, cnf, &r.steps, 2)?;
            write_outcome(out, &say, cnf, &r.outcome, 2)?;
        }
        None => writeln!(
            out,
            "(no case split of at most {max_steps} lines found: check the core with a solver)"
        )?,
    }
    Ok(())
}

/// The most lines of a case-split argument that [`write_core`] prints.
pub const MAX_ARGUMENT_LINES: usize = 120;

/// Why [`write_core`] could not explain a formula.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// The search for a core failed.
    #[error("{0}")]
    Solve(#[from] SolveError),
    /// The explanation cannot be written.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Writes a minimal unsatisfiable core of the instance's formula ([`minimal_unsat_core`]) and,
/// when at most [`MAX_ARGUMENT_LINES`] long, a case-split argument over it ([`write_why`]), or
/// that the formula is satisfiable (`solve --why`).
pub fn write_core(out: &mut dyn Write, inst: &crate::instance::Instance) -> Result<(), CoreError> {
    let cnf = crate::instance::to_labelled_cnf(inst);
    match minimal_unsat_core(&cnf)? {
        Some(core) => write_why(
            &mut &mut *out,
            inst.encoding(),
            &cnf,
            &core,
            MAX_ARGUMENT_LINES,
        )?,
        None => writeln!(out, "(the formula is satisfiable)")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{is_solution, Placement};
    use crate::cnf::clause_satisfied;
    use crate::encode::{Amo, EncodeOptions, LineEncodings};
    use crate::instance::{to_labelled_cnf, Instance, Model};

    /// Brute force over every assignment of the first `vars` variables (the oracle for small
    /// formulas): does some assignment satisfy the clauses `subset`?
    fn brute_sat(cnf: &Cnf, subset: &[usize], vars: usize) -> bool {
        (0u64..1 << vars).any(|bits| {
            let values: Vec<bool> = (0..vars).map(|v| bits >> v & 1 == 1).collect();
            subset
                .iter()
                .all(|&i| clause_satisfied(cnf.clause(i), &values))
        })
    }

    /// A fresh solver on the sub-formula alone (no selectors, no assumptions).
    fn solver_sat(cnf: &Cnf, subset: &[usize]) -> bool {
        let mut solver = varisat::Solver::new();
        for &i in subset {
            varisat::ExtendFormula::add_clause(&mut solver, cnf.clause(i));
        }
        solver.solve().unwrap()
    }

    fn check_mus(cnf: &Cnf, core: &[usize], sat: impl Fn(&[usize]) -> bool) {
        assert!(!core.is_empty() && core.windows(2).all(|w| w[0] < w[1]));
        assert!(!sat(core), "the core must be unsatisfiable");
        for k in 0..core.len() {
            let mut rest = core.to_vec();
            let dropped = rest.remove(k);
            assert!(sat(&rest), "not minimal: clause {dropped} can go");
        }
        assert!(core.len() < cnf.len());
    }

    /// An independent check of a case-split argument: every step is forced by its clause, in
    /// the core, under what is assumed and derived before it; every conflict clause is false;
    /// every split covers each literal of its clause that is not already false.
    fn check_refutation(cnf: &Cnf, core: &[usize], r: &Refutation) {
        fn value(known: &[Lit], l: Lit) -> Option<bool> {
            if known.contains(&l) {
                Some(true)
            } else if known.contains(&!l) {
                Some(false)
            } else {
                None
            }
        }
        fn steps(cnf: &Cnf, core: &[usize], known: &mut Vec<Lit>, steps: &[Step]) {
            for s in steps {
                assert!(core.contains(&s.clause));
                let c = cnf.clause(s.clause);
                assert!(c.contains(&s.lit));
                assert!(c
                    .iter()
                    .all(|&l| l == s.lit || value(known, l) == Some(false)));
                known.push(s.lit);
            }
        }
        fn outcome(cnf: &Cnf, core: &[usize], known: &mut Vec<Lit>, o: &BranchEnd) {
            match o {
                BranchEnd::Conflict(i) => {
                    assert!(core.contains(i));
                    assert!(cnf
                        .clause(*i)
                        .iter()
                        .all(|&l| value(known, l) == Some(false)));
                }
                BranchEnd::Split { clause, cases } => {
                    assert!(core.contains(clause));
                    for &l in cnf.clause(*clause) {
                        if value(known, l) != Some(false) {
                            let case = cases.iter().find(|c| c.assume == l).expect("case");
                            let mark = known.len();
                            known.push(l);
                            steps(cnf, core, known, &case.steps);
                            outcome(cnf, core, known, &case.outcome);
                            known.truncate(mark);
                        }
                    }
                }
            }
        }
        let mut known = Vec::new();
        steps(cnf, core, &mut known, &r.steps);
        outcome(cnf, core, &mut known, &r.outcome);
    }

    fn inst(n: usize) -> Instance {
        Instance::new(n, Model::default()).unwrap()
    }

    fn core_of(cfg: &Instance) -> (Cnf, Vec<usize>) {
        let cnf = to_labelled_cnf(cfg).cnf;
        let core = minimal_unsat_core(&cnf).unwrap().expect("unsatisfiable");
        (cnf, core)
    }

    #[test]
    fn n2_and_n3_cores_are_minimal_by_brute_force() {
        for n in [2, 3] {
            let (cnf, core) = core_of(&inst(n));
            check_mus(&cnf, &core, |s| brute_sat(&cnf, s, n * n));
            let r = case_split(&cnf, &core, 4, 200).expect("an argument");
            check_refutation(&cnf, &core, &r);
        }
    }

    #[test]
    fn satisfiable_formulas_have_no_core() {
        let cnf = to_labelled_cnf(&inst(4)).cnf;
        assert_eq!(minimal_unsat_core(&cnf).unwrap(), None);
    }

    #[test]
    fn partial_board_without_completion() {
        // n = 4 with a queen in a corner: first, by enumeration of all placements, no
        // solution has a queen on (1,1).
        let n: usize = 4;
        let mut completions = 0;
        for code in 0..n.pow(n as u32) {
            let cols: Vec<usize> = (0..n).map(|r| code / n.pow(r as u32) % n).collect();
            let ok = is_solution(&Placement::from_cols(&cols));
            if ok && cols[0] == 0 {
                completions += 1;
            }
        }
        assert_eq!(completions, 0);
        let cfg = inst(n).with_cells(&[(0, 0)], &[]).unwrap();
        let (cnf, core) = core_of(&cfg);
        check_mus(&cnf, &core, |s| brute_sat(&cnf, s, n * n));
        // The placed queen is part of every argument: without it n = 4 has solutions.
        assert!(core.contains(&(cnf.len() - 1)));
        let r = case_split(&cnf, &core, 4, 400).expect("an argument");
        check_refutation(&cnf, &core, &r);
    }

    #[test]
    fn sequential_encoding_core_with_auxiliaries() {
        let cfg = Instance::new(
            3,
            Model::cells(EncodeOptions {
                amo: LineEncodings::uniform(Amo::SEQUENTIAL),
                column_alo: false,
            }),
        )
        .unwrap();
        let (cnf, core) = core_of(&cfg);
        check_mus(&cnf, &core, |s| solver_sat(&cnf, s));
        // The core has clauses over auxiliary variables (past the 9 cells).
        assert!(core
            .iter()
            .any(|&i| cnf.clause(i).iter().any(|l| l.index() >= 9)));
        let r = case_split(&cnf, &core, 4, 400).expect("an argument");
        check_refutation(&cnf, &core, &r);
    }
}
