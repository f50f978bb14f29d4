//! `queens-sat verify N FILE`: is an external solver's answer (or a one-line placement) a valid
//! n-queens solution, and does it satisfy the exported CNF?

use super::solve::FormulaArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use queens_sat::instance::Instance;
use queens_sat::solve::process::escape;
use queens_sat::solve::{
    parse_solver_answer, refute_unsat, verify_assignment, verify_placement, Assignment, CnfProblem,
    ModelMismatch, SolverAnswer, VerifyReport,
};
use queens_sat::Placement;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code when the answer is read but wrong.
const EXIT_WRONG: u8 = 1;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Board size (n x n, n >= 1); with --instance, the instance file's n.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// The answer: SAT-competition output (s/v lines), a MiniSat result file, or a one-line
    /// placement (1-based columns row by row). `-` reads stdin.
    file: PathBuf,
    /// The formula the answer is for: the same options as `encode` / `solve`.
    #[command(flatten)]
    formula: FormulaArgs,
    /// Also say for each clause group whether it holds under the answer.
    #[arg(long)]
    explain: bool,
    /// Check even a formula estimated too large to stream (or, for encodings with auxiliary
    /// variables, to hold in memory).
    #[arg(long)]
    force: bool,
}

/// The most an answer file may hold: 64 MiB plus 24 bytes per variable (a `v` line writes
/// each literal in at most 12 bytes).
fn answer_cap(vars: u64) -> u64 {
    (64u64 << 20).saturating_add(vars.saturating_mul(24))
}

/// Reads at most `cap` bytes of `r`; more is an input error.
fn read_bounded(r: impl Read, cap: u64, name: &str) -> Result<String> {
    let mut bytes = Vec::new();
    r.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > cap {
        bail!(
            "{name} is larger than {} bytes, more than an answer for this formula can need",
            cap
        );
    }
    String::from_utf8(bytes).with_context(|| format!("{name} is not text (UTF-8)"))
}

/// `true` when the text's first meaningful line starts with a number: a one-line placement.
fn looks_like_one_line(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with(|ch: char| ch.is_ascii_digit()))
}

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let n = args.n;
    let inst = args.formula.instance(Some(n))?;
    let name = args.file.display().to_string();
    // Checking clauses has size limits; an UNSAT claim about an empty board does not (it is
    // refuted by the construction).
    let size_guard = || -> Result<()> {
        if !args.force {
            // Without auxiliaries the clauses are evaluated streaming; with them, a board
            // needs the solver and the formula in memory.
            let limits = if inst.has_auxiliaries() {
                queens_sat::instance::Limits::IN_MEMORY
            } else {
                queens_sat::instance::Limits::STREAM
            };
            if let Err(e) = inst.check_size(limits) {
                bail!("{e}; use a smaller n, another --amo, or --force");
            }
        }
        Ok(())
    };
    let cap = answer_cap(inst.size().vars);
    let text = if args.file.as_os_str() == "-" {
        read_bounded(std::io::stdin().lock(), cap, "stdin")?
    } else {
        let f = std::fs::File::open(&args.file).with_context(|| format!("cannot read {name}"))?;
        read_bounded(f, cap, &name)?
    };
    let out = &mut std::io::stdout().lock();
    if looks_like_one_line(&text) {
        size_guard()?;
        let p = Placement::parse_one_line(&text, Some(n))
            .map_err(|e| anyhow::anyhow!("{name}: not a one-line placement for n = {n}: {e}"))?;
        writeln!(out, "answer: one-line placement {}", p.to_one_line())?;
        let report = verify_placement(&inst, &p)?;
        let mut a = Assignment::default();
        for (i, v) in p.to_assignment().into_iter().enumerate() {
            a.set(queens_sat::Var::from_index(i), v);
        }
        let complete = !inst.has_auxiliaries();
        if args.explain && !complete {
            writeln!(
                out,
                "(no group-by-group check: a board gives no values to the encoding's auxiliary variables)"
            )?;
        }
        let groups = (args.explain && complete).then_some(&a);
        return print_report(out, &inst, &report, groups);
    }
    let (answer, format) = match parse_solver_answer(&text) {
        Ok(a) => a,
        Err(e) => bail!("{name}: {}", escape(&e.to_string(), 300)),
    };
    match answer {
        SolverAnswer::Sat(a) => {
            size_guard()?;
            let report = verify_assignment(&inst, &a)?;
            // A model without values for some variables is incomplete (truncated output, or
            // an answer for a smaller formula): an input error, not a wrong answer.
            if let Err(CnfProblem::Mismatch(m @ ModelMismatch::MissingVars { .. })) = &report.cnf {
                bail!("{name}: incomplete model: {m}");
            }
            writeln!(out, "answer: SATISFIABLE ({format})")?;
            let complete = report.vars >= a.max_var() && a.missing(report.vars).is_empty();
            let groups = (args.explain && complete).then_some(&a);
            print_report(out, &inst, &report, groups)
        }
        SolverAnswer::Unsat => {
            writeln!(out, "answer: UNSATISFIABLE ({format})")?;
            // An empty board of size 1 or >= 4 has a solution by construction: no search.
            match refute_unsat(&inst)? {
                None => {
                    writeln!(out, "correct: no solution exists for n = {n}")?;
                    Ok(ExitCode::SUCCESS)
                }
                Some(p) => {
                    writeln!(
                        out,
                        "WRONG: the formula is satisfiable, e.g. by the solution {}",
                        p.to_one_line()
                    )?;
                    Ok(ExitCode::from(EXIT_WRONG))
                }
            }
        }
        SolverAnswer::Unknown => {
            writeln!(out, "answer: UNKNOWN ({format}): the solver gave no answer")?;
            Ok(ExitCode::from(EXIT_WRONG))
        }
    }
}

fn print_report(
    out: &mut impl Write,
    inst: &Instance,
    r: &VerifyReport,
    groups: Option<&Assignment>,
) -> Result<ExitCode> {
    let n = inst.n();
    match (&r.board, &r.placement) {
        (Ok(()), Some(p)) => writeln!(
            out,
            "board: valid n-queens solution for n = {n}: {}",
            p.to_one_line()
        )?,
        (Ok(()), None) => writeln!(out, "board: valid")?,
        (Err(e), _) => writeln!(out, "board: NOT a solution: {e}")?,
    }
    match &r.cnf {
        Ok(()) => writeln!(
            out,
            "CNF: satisfies all {} clauses over {} variables",
            r.clauses, r.vars
        )?,
        Err(e) => {
            writeln!(out, "CNF: NOT satisfied: {e}")?;
            // Naming the clause in words builds the formula in memory: only when it fits.
            let fits = inst
                .check_size(queens_sat::instance::Limits::IN_MEMORY)
                .is_ok();
            if let (CnfProblem::Falsified(v), true) = (e, fits) {
                let words = super::teach::clause_in_words(inst, v.number)?;
                writeln!(out, "in words: {words}")?;
            }
        }
    }
    if let Some(a) = groups {
        if inst
            .check_size(queens_sat::instance::Limits::IN_MEMORY)
            .is_ok()
        {
            super::teach::write_groups(out, inst, a)?;
        } else {
            writeln!(
                out,
                "(no group-by-group check: the formula is too large to hold in memory)"
            )?;
        }
    }
    if r.is_ok() {
        writeln!(out, "verdict: valid")?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "verdict: INVALID")?;
        Ok(ExitCode::from(EXIT_WRONG))
    }
}
