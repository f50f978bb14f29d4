//! The trace as text (step by step, with small boards) and as JSON.

use super::{StepKind, Trace};
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
        writeln!(
            out,
            "trace of n = {} ({}), {}: {} variables, {} clauses",
            self.n,
            self.model,
            match self.solver {
                "cdcl" => "CDCL (first-UIP learning, backjumping)",
                _ => "DPLL with unit propagation",
            },
            self.variables,
            self.clauses.len()
        )?;
        writeln!(out, "decisions: {}", self.heuristic)?;
        writeln!(
            out,
            "boards: Q queen, x no queen possible, . open; learned patterns: Q queen, _ empty"
        )?;
        writeln!(out)?;
        let width = self.steps.len().to_string().len();
        for (k, s) in self.steps.iter().enumerate() {
            writeln!(
                out,
                "{:>width$}  {:<9} {}",
                s.step,
                kind_name(s.kind),
                s.text
            )?;
            let next = self.steps.get(k + 1).map(|t| t.kind);
            let show = matches!(s.kind, StepKind::Conflict | StepKind::Sat)
                || next == Some(StepKind::Decide);
            let pad = " ".repeat(width + 2);
            if show {
                for row in &s.board {
                    writeln!(out, "{pad}  {}", spaced(row))?;
                }
            }
            if let Some(l) = &s.learned {
                for row in self.pattern_board(l) {
                    writeln!(out, "{pad}  {}", spaced(&row))?;
                }
            }
        }
        writeln!(out)?;
        match &self.solution {
            Some(cols) => {
                let line: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
                writeln!(out, "result: a solution, one-line: {}", line.join(" "))?;
            }
            None => writeln!(
                out,
                "result: no solution exists for this instance (proved by the search)"
            )?,
        }
        writeln!(
            out,
            "{} steps: {} decisions, {} propagations, {} conflicts, {} learned clauses",
            self.steps.len(),
            self.stats.decisions,
            self.stats.propagations,
            self.stats.conflicts,
            self.stats.learned
        )
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
        StepKind::Sat => "sat",
        StepKind::Unsat => "unsat",
    }
}

/// `Q.x.` as `Q . x .`.
fn spaced(row: &str) -> String {
    row.chars().map(String::from).collect::<Vec<_>>().join(" ")
}
