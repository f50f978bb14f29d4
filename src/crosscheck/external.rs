//! Check 5: external solvers on the exported DIMACS agree on SAT/UNSAT, and their models
//! satisfy every clause and describe a solution ([`external`]).

use super::probe::{board_of_model, describe_clause};
use super::report::there_are;
use super::{Check, CheckConfig, ExternalResult, Formula, RowReport};
use crate::encode::LabelledCnf;
use crate::solve::runner::{self, CnfInput, Outcome, RunError, RunRequest};
use crate::solve::SolverCommand;
use std::io;
use std::path::Path;

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
pub(super) fn external(
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
        Outcome::Memout { .. } => ("memout".into(), None),
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
