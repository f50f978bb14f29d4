//! Many formulas checked on worker threads ([`run`]), with the settings of the checks
//! ([`CheckConfig`]).

use super::{check_formula, Expectation, Formula, RowReport, Summary};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::Duration;

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
    /// [`crate::solve::Backend::for_enumeration`]). The single solve and the soundness probes
    /// use varisat, and so do the proofs of the single solve's UNSAT answers (DRAT, checked by
    /// the library's checker and VeriPB); the soundness probes' rejections that the check relies on are proved by unit
    /// propagation or with [`crate::solve::Prover::strongest`], and checked.
    pub backend: crate::solve::Backend,
    /// Options of the enumeration's solver, by name (checked by
    /// [`crate::solve::Backend::check_options`]).
    pub solver_options: Vec<crate::solve::SolverOption>,
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
            solver_options: Vec::new(),
        }
    }
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
