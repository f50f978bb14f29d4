//! The checks of one formula ([`check_formula`]): its own consistency, the single solve (1),
//! the enumeration (2), the constructions (3), the soundness (4, [`super::probe`]), the
//! external solvers (5, [`super::external`]) and the symmetry breaking (6,
//! [`super::symmetry`]).

use super::expect::check_counter_against_table;
use super::external::external;
use super::probe::{board_of_model, soundness, Probe, Verdict};
use super::report::there_are;
use super::symmetry::{check_symmetry_breaking, SYMMETRY_CHECK_MAX_N};
use super::{Check, CheckConfig, Expectation, Formula, RowReport};
use crate::board::Placement;
use crate::construct::{construct, Method};
use crate::instance::to_labelled_cnf;
use crate::solve::{Enumeration, SolveError};
use std::sync::Arc;
use std::time::Instant;

/// Runs the checks 1-5 on formula `f`, with `exp` the counter's and the table's counts for
/// `f.n()`. Never panics on a wrong formula: everything that disagrees becomes a
/// [`Discrepancy`](super::Discrepancy) of the returned row.
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
                match crate::solve::Prover::default().prove_and_check(f) {
                    Ok(Some(c)) if c.verified() => row.proof_lemmas = Some(c.lemmas()),
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
            cfg,
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
        check_symmetry_breaking(f, exp, cfg, &mut row);
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

/// A construction method as reports name it: `HLM` (Hoffman, Loessi and Moore) or `staircase`.
fn method_label(m: Method) -> &'static str {
    match m {
        Method::Hlm => "HLM",
        Method::Staircase => "staircase",
    }
}

/// Check 2: all models, by the enumeration that `solve --all` runs (one part, so that models
/// outside any split are found too). Stops at the first model that is not a solution and as
/// soon as there are more models than `expected`. Returns the first `keep` solutions found.
fn enumerate(
    f: Arc<dyn Formula>,
    cfg: &super::CheckConfig,
    expected: Option<u64>,
    keep: usize,
    row: &mut RowReport,
) -> Vec<Placement> {
    let mut kept = Vec::new();
    let mut models = 0u64;
    for item in Enumeration::shared(f)
        .backend_with_options(cfg.backend, &cfg.solver_options)
        .split_rows(0)
        .iter()
    {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crosscheck::reference_total;
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
