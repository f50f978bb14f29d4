//! The trace as text (step by step, with small boards) and as JSON.

use super::{StepKind, StepWatches, Trace};
use crate::cnf::Lit;
use std::io::{self, Write};

impl Trace {
    /// The learned clause of a learn step drawn as a board: `Q` for a queen of the pattern,
    /// `_` for a cell the pattern needs empty, `.` elsewhere.
    pub fn pattern_board(&self, learned: &[Lit]) -> Vec<String> {
        let n = self.n;
        let mut rows = vec![vec!['.'; n]; n];
        for &l in learned {
            let cell = self.cells.get(l.index()).copied().flatten();
            if let Some([r, c]) = cell {
                rows[r - 1][c - 1] = if l.is_negative() { 'Q' } else { '_' };
            }
        }
        rows.into_iter().map(|r| r.into_iter().collect()).collect()
    }

    /// Writes the trace step by step: each step in words, the board after every run of
    /// propagations (before a decision, at a conflict and at the end), each learned clause as
    /// a pattern, and the result.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let subject = match &self.file {
            Some(_) if self.n > 0 => format!("{} (board n = {})", self.model, self.n),
            Some(_) => self.model.clone(),
            None => format!("n = {} ({})", self.n, self.model),
        };
        let mut algorithm = match self.solver {
            "cdcl" => "CDCL (first-UIP learning, backjumping)",
            "backtracking" => "backtracking (decisions only, no unit propagation)",
            _ => "DPLL with unit propagation",
        }
        .to_string();
        if self.options.restarts {
            algorithm.push_str(", Luby restarts");
        }
        if self.options.watches {
            algorithm.push_str(", two watched literals");
        }
        writeln!(
            out,
            "trace of {subject}, {algorithm}: {} variables, {} clauses",
            self.variables,
            self.clauses.len()
        )?;
        writeln!(out, "decisions: {}", self.heuristic)?;
        if self.n > 0 {
            writeln!(
                out,
                "boards: Q queen, x no queen possible, . open; learned patterns: Q queen, _ empty"
            )?;
        } else {
            writeln!(out, "no board: the variables' values are shown instead")?;
        }
        writeln!(out)?;
        let width = self.steps.len().to_string().len();
        let pad = " ".repeat(width + 2);
        for (k, s) in self.steps.iter().enumerate() {
            writeln!(
                out,
                "{:>width$}  {:<9} {}",
                s.step,
                kind_name(s.kind),
                s.text
            )?;
            if let Some(w) = &s.watches {
                self.write_watches(out, &pad, w)?;
            }
            if let Some(r) = &s.resolution {
                for (i, step) in r.iter().enumerate() {
                    let lits = self.clause_text(&step.resolvent);
                    match step.variable {
                        None if i == 0 => writeln!(
                            out,
                            "{pad}  resolution: the conflict clause {}: {lits}",
                            step.clause
                        )?,
                        _ => writeln!(
                            out,
                            "{pad}  on {} with clause {}: {lits}",
                            step.variable
                                .map_or_else(String::new, |v| self.names[v - 1].clone()),
                            step.clause
                        )?,
                    }
                }
            }
            let next = self.steps.get(k + 1).map(|t| t.kind);
            let show = matches!(s.kind, StepKind::Conflict | StepKind::Sat)
                || next == Some(StepKind::Decide);
            if show {
                for row in &s.board {
                    writeln!(out, "{pad}  {}", spaced(row))?;
                }
                if let Some(v) = &s.values {
                    writeln!(out, "{pad}  {}", self.values_text(v))?;
                }
            }
            if let (Some(l), true) = (&s.learned, self.n > 0) {
                for row in self.pattern_board(l) {
                    writeln!(out, "{pad}  {}", spaced(&row))?;
                }
            }
        }
        writeln!(out)?;
        match (&self.solution, &self.assignment) {
            (Some(cols), _) => {
                let line: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
                writeln!(out, "result: a solution, one-line: {}", line.join(" "))?;
            }
            (None, Some(a)) => {
                let line: Vec<String> = a.iter().map(|l| l.to_string()).collect();
                let board = if self.n > 0 {
                    ", but its board does not have one queen in each row"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "result: a model{board}: {} (variables without a value left out)",
                    line.join(" ")
                )?;
            }
            (None, None) if self.n > 0 => writeln!(
                out,
                "result: no solution exists for this instance (proved by the search)"
            )?,
            (None, None) => writeln!(
                out,
                "result: the formula has no model (proved by the search)"
            )?,
        }
        let restarts = if self.options.restarts {
            format!(", {} restarts", self.stats.restarts)
        } else {
            String::new()
        };
        writeln!(
            out,
            "{} steps: {} decisions, {} propagations, {} conflicts, {} learned clauses{restarts}",
            self.steps.len(),
            self.stats.decisions,
            self.stats.propagations,
            self.stats.conflicts,
            self.stats.learned
        )
    }

    /// `¬q(1,2) ∨ q(3,4)`.
    fn clause_text(&self, lits: &[Lit]) -> String {
        if lits.is_empty() {
            return "⊥".into();
        }
        lits.iter()
            .map(|l| self.lit_text(*l))
            .collect::<Vec<_>>()
            .join(" ∨ ")
    }

    fn lit_text(&self, l: Lit) -> String {
        let name = &self.names[l.index()];
        if l.is_negative() {
            format!("¬{name}")
        } else {
            name.clone()
        }
    }

    /// `true: x1 x4; false: x2` (open variables left out).
    fn values_text(&self, values: &str) -> String {
        let pick = |ch: char| -> String {
            values
                .chars()
                .enumerate()
                .filter(|&(_, c)| c == ch)
                .map(|(i, _)| self.names[i].clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!("true: {}; false: {}", pick('1'), pick('0'))
    }

    /// `watches: clause 5 ¬q(1,2) → q(1,3); unit: clause 7`.
    fn write_watches(&self, out: &mut dyn Write, pad: &str, w: &StepWatches) -> io::Result<()> {
        let mut parts = Vec::new();
        if !w.moved.is_empty() {
            let moves: Vec<String> = w
                .moved
                .iter()
                .map(|m| {
                    format!(
                        "clause {} {} → {}",
                        m.clause,
                        self.lit_text(m.from),
                        self.lit_text(m.to)
                    )
                })
                .collect();
            parts.push(format!("watch moves: {}", moves.join(", ")));
        }
        if !w.unit.is_empty() {
            let units: Vec<String> = w.unit.iter().map(|c| c.to_string()).collect();
            parts.push(format!("unit: clause {}", units.join(", ")));
        }
        if !w.watched.is_empty() {
            let lits: Vec<String> = w.watched.iter().map(|&l| self.lit_text(l)).collect();
            parts.push(format!("watches {}", lits.join(" and ")));
        }
        if parts.is_empty() {
            return Ok(());
        }
        writeln!(out, "{pad}  {}", parts.join("; "))
    }

    /// Writes the trace as one JSON object (the schema is in `docs/formats.md`).
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        writeln!(out)
    }
}

/// The step kind as the JSON names it.
pub(crate) fn kind_name(k: StepKind) -> &'static str {
    match k {
        StepKind::Decide => "decide",
        StepKind::Propagate => "propagate",
        StepKind::Conflict => "conflict",
        StepKind::Learn => "learn",
        StepKind::Backjump => "backjump",
        StepKind::Backtrack => "backtrack",
        StepKind::Flip => "flip",
        StepKind::Restart => "restart",
        StepKind::Sat => "sat",
        StepKind::Unsat => "unsat",
    }
}

/// `Q.x.` as `Q . x .`.
fn spaced(row: &str) -> String {
    row.chars().map(String::from).collect::<Vec<_>>().join(" ")
}
