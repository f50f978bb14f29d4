//! `queens-sat solve N`: one solution, all solutions or their number, from the embedded solver
//! or an external one; with pre-placed queens and forbidden cells.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::family::InstanceSpec;
use queens_sat::instance::Instance;
use queens_sat::solve::runner::{
    self, CnfInput, Outcome, ProofRequest, RunReport, RunRequest, UnsatCheck, UnsatVerdict,
};
use queens_sat::solve::{
    solve_model_within, Backend, Budget, Enumeration, Progress, SolveError, SolverCommand,
};
use queens_sat::symmetry::SymmetryBreaking;
use queens_sat::Placement;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Exit code of the SAT-competition convention for a satisfiable formula.
const EXIT_SAT: u8 = 10;
/// ... and for an unsatisfiable one.
const EXIT_UNSAT: u8 = 20;

/// How to print solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The board as a text grid (Q for a queen) and the one-line form.
    Board,
    /// The one-line form: 1-based columns row by row.
    Line,
    /// JSON.
    Json,
    /// SAT-competition style: `s SATISFIABLE` and `v` lines; exit 10 (SAT) or 20 (UNSAT).
    Competition,
    /// SVG: the board drawn with its queens (one solution; a dot plot past n = 64).
    Svg,
}

/// The formula: encoding options and the partial board. Shared by `solve` and `verify`.
#[derive(Args, Debug, Clone)]
pub struct FormulaArgs {
    #[command(flatten)]
    model: super::ModelArgs,
    /// A queen that must stand on ROW,COL (1-based); repeatable.
    #[arg(long, value_name = "ROW,COL", value_parser = parse_cell)]
    place: Vec<(usize, usize)>,
    /// A cell ROW,COL (1-based) that must stay empty; repeatable.
    #[arg(long, value_name = "ROW,COL", value_parser = parse_cell)]
    forbid: Vec<(usize, usize)>,
    /// An instance file (docs/formats.md, written by `queens-sat generate`): its board size,
    /// geometry, pre-placed queens and blocked cells. N may then be left out; --place and
    /// --forbid add to its cells.
    #[arg(long, value_name = "FILE")]
    instance: Option<PathBuf>,
    #[command(flatten)]
    diagonals: super::import::DiagonalsArg,
    /// Symmetry breaking: none, lex-leader (one solution of each class under the 8 symmetries
    /// of the square, the smallest column vector) or rotations (one of each class under the
    /// rotations). Only the symmetries that map the placed queens and the forbidden cells onto
    /// themselves are broken; a count then counts classes.
    #[arg(long, value_name = "MODE", default_value = "none", value_parser = parse_symmetry_breaking())]
    symmetry_breaking: SymmetryBreaking,
}

/// The parser of `--symmetry-breaking`: one of the modes' names (clap lists them on a typo).
pub fn parse_symmetry_breaking() -> impl clap::builder::TypedValueParser<Value = SymmetryBreaking> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(SymmetryBreaking::names())
        .map(|s| s.parse::<SymmetryBreaking>().unwrap_or_default())
}

impl FormulaArgs {
    /// The instance: from `--instance` (with `--place`/`--forbid` added) or the empty board
    /// of size `n` with the given cells (0-based).
    pub fn instance(&self, n: Option<usize>) -> Result<Instance> {
        Ok(self.instance_and_spec(n)?.0)
    }

    /// [`FormulaArgs::instance`] and the instance file it was read from, if any (the file is
    /// read once).
    pub fn instance_and_spec(&self, n: Option<usize>) -> Result<(Instance, Option<InstanceSpec>)> {
        let model = self.model.model()?;
        let Some(spec) = self.spec(n)? else {
            let n = n.ok_or_else(|| anyhow::anyhow!("give the board size N or --instance FILE"))?;
            let inst = Instance::new(n, model)?
                .with_cells(&self.place, &self.forbid)?
                .with_symmetry_breaking(self.symmetry_breaking);
            return Ok((inst, None));
        };
        let inst = spec
            .instance_with(model, &self.place, &self.forbid)?
            .with_symmetry_breaking(self.symmetry_breaking);
        Ok((inst, Some(spec)))
    }

    /// The instance file's contents, if `--instance` was given, checked against `n`.
    pub fn spec(&self, n: Option<usize>) -> Result<Option<InstanceSpec>> {
        let Some(path) = &self.instance else {
            return Ok(None);
        };
        let spec = super::read_instance_file_with(path, self.diagonals.diagonals)?;
        if let Some(n) = n.filter(|&n| n != spec.n) {
            bail!(
                "n = {n} disagrees with the instance file {} (n = {}); leave N out",
                path.display(),
                spec.n
            );
        }
        Ok(Some(spec))
    }

    /// The encoder options these arguments select.
    pub fn options(&self) -> queens_sat::encode::EncodeOptions {
        self.model.options()
    }
}

/// Parses `ROW,COL` (1-based) into a 0-based cell ([`queens_sat::input::parse_cell`]).
pub fn parse_cell(s: &str) -> Result<(usize, usize), String> {
    queens_sat::input::parse_cell(s)
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Board size (n x n, n >= 1); may be left out with --instance.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true, required_unless_present = "instance")]
    n: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Board)]
    format: Format,
    /// List every solution.
    #[arg(long)]
    all: bool,
    /// Print only the number of solutions.
    #[arg(long, conflicts_with = "all")]
    count: bool,
    /// With --format svg: write the picture to FILE (a temporary file, then renamed) instead
    /// of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Stop after K solutions (implies --all unless --count is given).
    #[arg(long, value_name = "K")]
    limit: Option<u64>,
    #[command(flatten)]
    formula: FormulaArgs,
    /// Solve with an external solver: a command on PATH that reads a DIMACS file (with
    /// arguments, e.g. "cadical -q"); its answer is parsed and verified. MiniSat is given a
    /// result file as its second argument.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["all", "count", "limit"])]
    solver: Option<String>,
    /// Stop after SECONDS and exit 1 (default: no limit): the embedded solver (one solution,
    /// --all, --count; it stops within moments) or,
    /// with --solver, the solver and every process it started. Not with --why or a proof.
    #[arg(long, value_name = "SECONDS", value_parser = queens_sat::input::parse_timeout, allow_negative_numbers = true)]
    timeout: Option<Duration>,
    /// The embedded solver: cadical (CaDiCaL in-process) or varisat. Default: cadical for one
    /// solution of an instance with placed or forbidden cells or of a toroidal board (when
    /// built in); varisat for the empty board (easy, and a large formula, which varisat loads
    /// faster) and for --all and --count (many small sub-problems, where it is faster). --why
    /// and proofs (--proof, --check-proof) always use varisat.
    #[arg(long, value_name = "NAME", value_parser = super::parse_backend(), conflicts_with = "solver")]
    backend: Option<Backend>,
    /// Enumeration: split into sub-problems on the first K rows (0: a single solver; default
    /// from 0 for n <= 5 up to 5 for n = 13..15).
    #[arg(long, value_name = "K")]
    split_rows: Option<usize>,
    /// Enumeration: worker threads, 1 to 1024 (default: one per core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Solve even a formula estimated too large to hold in memory (or, with --solver, to
    /// write).
    #[arg(long)]
    force: bool,
    /// After the board, say for each clause group whether it holds under the solution.
    #[arg(long, conflicts_with_all = ["all", "count", "limit", "format"])]
    explain: bool,
    /// Without a solution: a minimal set of clauses that contradict each other, and why.
    #[arg(long, conflicts_with_all = ["all", "count", "limit", "format", "solver", "explain"])]
    why: bool,
    /// Without a solution: write a DRAT proof of it to FILE (text DRAT from the embedded
    /// solver; with --solver, the solver's own proof: cadical and kissat can write one). The
    /// file appears only once the proof is complete; with a solution, none is written and the
    /// exit code is 1.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "count", "limit", "explain", "why"])]
    proof: Option<PathBuf>,
    /// Check the proof of unsatisfiability with the independent checker dratify before
    /// reporting (and before writing --proof FILE). Without --proof the proof is made and
    /// checked in a temporary place.
    #[arg(long, conflicts_with_all = ["all", "count", "limit", "explain", "why"])]
    check_proof: bool,
}

pub fn run(args: SolveArgs) -> Result<ExitCode> {
    // Rejects bad sizes and partial boards before any work.
    let inst = args.formula.instance(args.n)?;
    if !args.force {
        check_solve_size(&args, &inst)?;
    }
    if args.limit == Some(0) {
        bail!("--limit must be at least 1");
    }
    let enumerate = args.all || args.count || args.limit.is_some();
    if args.timeout.is_some()
        && args.solver.is_none()
        && (args.why || args.proof.is_some() || args.check_proof)
    {
        bail!("--timeout applies to solving and enumeration, not to --why or proofs");
    }
    if enumerate && args.format == Format::Competition {
        bail!("--format competition shows one model; use --all or --count with --format board, line or json");
    }
    if args.format == Format::Svg {
        if enumerate {
            bail!("--format svg draws one solution; `count N --list --format svg` draws many");
        }
        if args
            .n
            .is_some_and(|n| n > queens_sat::picture::MAX_DOT_PLOT_N)
        {
            bail!(
                "--format svg draws boards up to n = {}",
                queens_sat::picture::MAX_DOT_PLOT_N
            );
        }
    } else if args.output.is_some() {
        bail!("-o FILE goes with --format svg (the other formats go to stdout)");
    }
    if enumerate {
        return run_enumeration(&args, &inst);
    }
    if args.proof.is_some() || args.check_proof {
        return run_with_proof(&args, &inst);
    }
    match &args.solver {
        Some(cmd) => run_external_solver(&args, &inst, cmd),
        None => {
            let backend = if args.why {
                Backend::Varisat
            } else {
                args.backend.unwrap_or_else(|| Backend::for_formula(&inst))
            };
            super::output::install_interrupt_handler();
            let model = match solve_model_within(&inst, backend, Budget::from_limit(args.timeout)) {
                Err(SolveError::Stopped(stop)) => return Ok(stopped(stop)),
                r => r?,
            };
            let out = &mut io::stdout().lock();
            let header = if args.why {
                "a solution exists, so the formula is satisfiable; here is one"
            } else {
                "a solution"
            };
            let code = match &model {
                Some(m) => print_one(
                    out,
                    &args,
                    &inst,
                    &m.placement,
                    &m.assignment.lits(),
                    header,
                )?,
                None => print_unsat(out, &args, &inst, None)?,
            };
            if args.explain {
                match &model {
                    Some(m) => super::teach::write_groups(out, &inst, &m.assignment)?,
                    None => writeln!(out, "(--why shows clauses that contradict each other)")?,
                }
            }
            if args.why && model.is_none() {
                super::teach::write_core(out, &inst)?;
            }
            Ok(code)
        }
    }
}

/// The message and exit code of an embedded solve that stopped without an answer: exit 1 at
/// the time limit (as with --solver), 130 when interrupted.
fn stopped(stop: queens_sat::solve::Stop) -> ExitCode {
    eprintln!("error: the embedded solver stopped without an answer: {stop}");
    match stop {
        queens_sat::solve::Stop::Timeout(_) => ExitCode::from(1),
        queens_sat::solve::Stop::Interrupted => ExitCode::from(130),
    }
}

/// Refuses at once a formula past the size limits: the embedded solver holds the formula in
/// memory ([`Limits::IN_MEMORY`]); an external solver reads a written file ([`Limits::STREAM`]).
fn check_solve_size(args: &SolveArgs, inst: &Instance) -> Result<()> {
    use queens_sat::instance::Limits;
    let limits = if args.solver.is_some() {
        Limits::STREAM
    } else {
        Limits::IN_MEMORY
    };
    if let Err(e) = inst.check_size(limits) {
        use queens_sat::encode::{Amo, EncodeOptions, LineEncodings, QueensEncoder};
        let linear = EncodeOptions {
            amo: LineEncodings::uniform(Amo::SEQUENTIAL),
            ..args.formula.options()
        };
        let amo = if inst.cells_encoder().is_some()
            && args.formula.options().amo != linear.amo
            && QueensEncoder::new(inst.n(), linear).is_ok_and(|e| limits.allows(&e.size()))
        {
            "--amo sequential, "
        } else {
            ""
        };
        bail!(
            "{e}; use `queens-sat construct {}` for one solution, {amo}a smaller n, or --force",
            inst.n()
        );
    }
    Ok(())
}

/// "no solution exists for n = 8 with queens on (1,1), (2,3)" (or the plain form).
fn unsat_message(n: usize, inst: &Instance) -> String {
    let (place, forbid) = (inst.placed(), inst.forbidden());
    let cells = |v: &[(usize, usize)]| {
        v.iter()
            .map(|(r, c)| format!("({},{})", r + 1, c + 1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = format!("no solution exists for n = {n}");
    if !place.is_empty() {
        s.push_str(&format!(" with queens on {}", cells(place)));
    }
    if !forbid.is_empty() {
        s.push_str(if place.is_empty() { " with " } else { " and " });
        s.push_str(&format!("cells {} empty", cells(forbid)));
    }
    s
}

fn print_unsat(
    out: &mut impl Write,
    args: &SolveArgs,
    inst: &Instance,
    note: Option<&str>,
) -> Result<ExitCode> {
    let n = inst.n();
    match args.format {
        Format::Board | Format::Line | Format::Svg => {
            writeln!(out, "{}", unsat_message(n, inst))?;
            if let Some(note) = note {
                writeln!(out, "({note})")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Format::Json => {
            let v = serde_json::json!({"n": n, "satisfiable": false, "solution": null});
            writeln!(out, "{v}")?;
            Ok(ExitCode::SUCCESS)
        }
        Format::Competition => {
            writeln!(out, "c {}", unsat_message(n, inst))?;
            if let Some(note) = note {
                writeln!(out, "c {note}")?;
            }
            writeln!(out, "s UNSATISFIABLE")?;
            Ok(ExitCode::from(EXIT_UNSAT))
        }
    }
}

fn json_cols(p: &Placement) -> Vec<u32> {
    p.cols().iter().map(|c| c + 1).collect()
}

fn print_one(
    out: &mut impl Write,
    args: &SolveArgs,
    inst: &Instance,
    p: &Placement,
    model: &[queens_sat::Lit],
    header: &str,
) -> Result<ExitCode> {
    let n = inst.n();
    match args.format {
        Format::Board => {
            writeln!(out, "n = {n}: {header}")?;
            write!(out, "{}", p.render_board())?;
            writeln!(out, "one-line: {}", p.to_one_line())?;
        }
        Format::Line => writeln!(out, "{}", p.to_one_line())?,
        Format::Svg => {
            let title = format!(
                "n = {n}: {header} ({})",
                queens_sat::instance::Formula::name(inst)
            );
            super::output::write_output(args.output.as_deref(), |w| {
                queens_sat::picture::write_board(w, p, &title)
            })?;
        }
        Format::Json => {
            let v = serde_json::json!({"n": n, "satisfiable": true, "solution": json_cols(p)});
            writeln!(out, "{v}")?;
        }
        Format::Competition => {
            writeln!(
                out,
                "c {} {}: n = {n}, {}",
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION"),
                inst.describe()
            )?;
            writeln!(out, "c {header}")?;
            writeln!(out, "c one-line: {}", p.to_one_line())?;
            writeln!(out, "s SATISFIABLE")?;
            queens_sat::cnf::write_v_lines(out, model)?;
            return Ok(ExitCode::from(EXIT_SAT));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The checked run of `--solver` on the instance (with the proof asked for, if any): the
/// model checked as a board and against every clause, an UNSAT answer refuted or confirmed by
/// the embedded solver.
fn run_solver(
    args: &SolveArgs,
    inst: &Instance,
    solver: &SolverCommand,
    proof: Option<ProofRequest<'_>>,
) -> Result<RunReport> {
    let command = super::command_line();
    super::output::install_interrupt_handler();
    let request = RunRequest::new(solver, CnfInput::instance(inst, Some(&command)))
        .timeout(args.timeout)
        .verify(inst)
        .unsat(UnsatCheck::Refute(inst))
        .proof(proof);
    Ok(runner::run(&request)?)
}

/// The message and exit code of a run without an answer (the time limit, an unreadable
/// answer, too much output): exit 1.
fn no_answer(report: &RunReport) -> Option<ExitCode> {
    let failure = report.failure()?;
    eprintln!("error: {failure}");
    Some(ExitCode::from(1))
}

fn run_external_solver(args: &SolveArgs, inst: &Instance, cmd: &str) -> Result<ExitCode> {
    let n = inst.n();
    let solver = SolverCommand::parse(cmd)?;
    let report = run_solver(args, inst, &solver, None)?;
    if let Some(code) = no_answer(&report) {
        return Ok(code);
    }
    let who = &report.program;
    let out = &mut io::stdout().lock();
    match &report.outcome {
        Outcome::Sat {
            model,
            verified: Some(v),
        } => {
            let header = format!(
                "a solution found by {who}, checked: no two queens attack each other, all {} clauses hold",
                v.clauses
            );
            let code = print_one(out, args, inst, &v.placement, &model.lits(), &header)?;
            if args.explain {
                super::teach::write_groups(out, inst, model)?;
            }
            Ok(code)
        }
        Outcome::WrongModel { report, .. } => {
            eprintln!("{who} answered SATISFIABLE with a wrong model:");
            if let Err(b) = &report.board {
                eprintln!("  board: {b}");
            }
            if let Err(c) = &report.cnf {
                eprintln!("  CNF: {c}");
            }
            Ok(ExitCode::from(1))
        }
        // Never reported as a fact unchecked: a solution refutes it.
        Outcome::Unsat {
            verdict: UnsatVerdict::Refuted(p),
            ..
        } => {
            if inst.is_empty_board() {
                eprintln!(
                    "{who} says UNSATISFIABLE, but n = {n} has solutions (only n = 2 and 3 have none), e.g. {}",
                    p.to_one_line()
                );
            } else {
                eprintln!(
                    "{who} says UNSATISFIABLE but the embedded solver finds a solution: {}",
                    p.to_one_line()
                );
            }
            Ok(ExitCode::from(1))
        }
        Outcome::Unsat { .. } => {
            let note = format!("answer of {who}, confirmed by the embedded solver");
            print_unsat(out, args, inst, Some(&note))
        }
        Outcome::Unknown => {
            eprintln!("{who} gave no answer (UNKNOWN)");
            Ok(ExitCode::from(1))
        }
        other => bail!("unexpected outcome of {who}: {other:?}"),
    }
}

/// A line about the proof: on standard output (a `c` line in competition format), on standard
/// error with JSON output.
fn proof_note(out: &mut impl Write, args: &SolveArgs, text: &str) -> Result<()> {
    match args.format {
        Format::Json => eprintln!("{text}"),
        Format::Competition => writeln!(out, "c {text}")?,
        Format::Board | Format::Line => writeln!(out, "{text}")?,
        Format::Svg => eprintln!("{text}"),
    }
    Ok(())
}

/// The message for a proof asked of a satisfiable instance.
const NO_PROOF_SAT: &str =
    "no proof of unsatisfiability: the instance has a solution (shown above), so none exists";

/// `solve --proof FILE` / `--check-proof`: the proof of an UNSAT answer written (atomically)
/// and checked if asked.
fn run_with_proof(args: &SolveArgs, inst: &Instance) -> Result<ExitCode> {
    use queens_sat::solve::{check_proof, prove_unsat, ProofCheck, ProofOutcome};
    // Before any solving: the target must be writable, the solver able to write a proof.
    let solver = match &args.solver {
        Some(cmd) => {
            let solver = SolverCommand::parse(cmd)?;
            solver.check_proofs()?;
            Some(solver)
        }
        None => None,
    };
    let mut target = super::output::Staged::proof(args.proof.as_deref())?;
    let who;
    let out = &mut io::stdout().lock();
    let check: Option<ProofCheck>;
    match &solver {
        None => {
            who = "the embedded solver".to_string();
            let outcome = prove_unsat(inst, io::BufWriter::new(target.file()))?;
            if let ProofOutcome::Sat(m) = outcome {
                print_one(
                    out,
                    args,
                    inst,
                    &m.placement,
                    &m.assignment.lits(),
                    "a solution",
                )?;
                out.flush()?;
                eprintln!("{NO_PROOF_SAT}");
                return Ok(ExitCode::from(1));
            }
            check =
                if args.check_proof {
                    let file = target.reopen()?;
                    Some(check_proof(inst, io::BufReader::new(file)).map_err(|e| {
                        anyhow::anyhow!("the proof of {who} cannot be checked: {e}")
                    })?)
                } else {
                    None
                };
        }
        Some(solver) => {
            let request = ProofRequest {
                path: target.path(),
                check: args
                    .check_proof
                    .then_some(inst as &dyn queens_sat::instance::Formula),
            };
            let report = match run_solver(args, inst, solver, Some(request)) {
                Err(e) => match e.downcast::<runner::RunError>() {
                    Ok(runner::RunError::Proof(e)) => {
                        bail!("the proof of {} cannot be checked: {e}", solver.label())
                    }
                    Ok(e) => return Err(e.into()),
                    Err(e) => return Err(e),
                },
                Ok(r) => r,
            };
            if let Some(code) = no_answer(&report) {
                return Ok(code);
            }
            who = report.program.clone();
            match report.outcome {
                Outcome::Sat {
                    model,
                    verified: Some(v),
                } => {
                    let header = format!("a solution found by {who}, checked");
                    print_one(out, args, inst, &v.placement, &model.lits(), &header)?;
                    out.flush()?;
                    eprintln!("{NO_PROOF_SAT}");
                    return Ok(ExitCode::from(1));
                }
                Outcome::Sat { .. } | Outcome::WrongModel { .. } => {
                    eprintln!("{who} answered SATISFIABLE with a wrong model; no proof written");
                    return Ok(ExitCode::from(1));
                }
                Outcome::Unknown => {
                    eprintln!("{who} gave no answer (UNKNOWN); no proof written");
                    return Ok(ExitCode::from(1));
                }
                Outcome::Unsat {
                    verdict: UnsatVerdict::Refuted(p),
                    ..
                } => {
                    eprintln!(
                        "{who} says UNSATISFIABLE but the embedded solver finds a solution: {}; no proof written",
                        p.to_one_line()
                    );
                    return Ok(ExitCode::from(1));
                }
                Outcome::Unsat { proof, .. } => check = proof,
                other => bail!("unexpected outcome of {who}: {other:?}"),
            }
        }
    }
    let bytes = target.len();
    let mut notes = Vec::new();
    if let Some(check) = &check {
        if !check.verified {
            eprintln!("error: the proof of {who} does not check: {check}; no proof written");
            return Ok(ExitCode::from(1));
        }
        notes.push(format!(
            "proof checked: {} lemmas, the empty clause derived (dratify; {} DRAT, {} RAT steps, {} deletions)",
            check.lemmas, check.format, check.rat_steps, check.deletions
        ));
    }
    if let Some(path) = target.target() {
        notes.push(format!(
            "proof written to {} (DRAT by {who}, {bytes} bytes){}",
            path.display(),
            if args.check_proof {
                ""
            } else {
                "; not checked here (--check-proof checks it)"
            }
        ));
    }
    target.commit()?;
    let note = format!("answer of {who}");
    print_unsat(out, args, inst, args.solver.as_ref().map(|_| note.as_str()))?;
    for n in &notes {
        proof_note(out, args, n)?;
    }
    Ok(match args.format {
        Format::Competition => ExitCode::from(EXIT_UNSAT),
        _ => ExitCode::SUCCESS,
    })
}

/// A progress bar on stderr, shown only on a terminal and only once the work has run for a
/// second.
struct ProgressReport {
    enabled: bool,
    start: Instant,
    bar: Option<indicatif::ProgressBar>,
}

impl ProgressReport {
    fn new() -> Self {
        use std::io::IsTerminal;
        ProgressReport {
            enabled: io::stderr().is_terminal(),
            start: Instant::now(),
            bar: None,
        }
    }

    fn update(&mut self, p: Progress) {
        if !self.enabled || self.start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new(p.parts_total as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} sub-problems, {msg}",
            ) {
                b.set_style(style.progress_chars("=> "));
            }
            b
        });
        bar.set_position(p.parts_done as u64);
        bar.set_message(format!("{} solutions", p.solutions));
    }

    fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}

fn run_enumeration(args: &SolveArgs, inst: &Instance) -> Result<ExitCode> {
    let n = inst.n();
    let mut e = Enumeration::new(inst.clone())
        .limit(args.limit)
        .backend(args.backend.unwrap_or_else(Backend::for_enumeration))
        .time_limit(args.timeout);
    super::output::install_interrupt_handler();
    if let Some(k) = args.split_rows {
        let max = queens_sat::solve::max_split_rows(n);
        if k > max {
            bail!(
                "--split-rows {k} would make up to {n}^{k} sub-problems; at most {max} for n = {n} (at most {} parts)",
                queens_sat::solve::MAX_PARTS
            );
        }
        e = e.split_rows(k);
    }
    if let Some(t) = args.threads {
        e = e.threads(t as usize);
    }
    let mut progress = ProgressReport::new();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.count {
        let count = e.count(|p| progress.update(p));
        progress.finish();
        let count = match count {
            Err(SolveError::Stopped(stop)) => return Ok(stopped(stop)),
            r => r?,
        };
        let mode = inst.symmetry_breaking();
        if args.format == Format::Json {
            let mut v = serde_json::json!({"n": n, "count": count, "limit": args.limit});
            if mode.is_on() {
                v["symmetry_breaking"] = serde_json::json!(mode.name());
                v["broken"] = serde_json::json!(inst
                    .symmetries_broken()
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>());
            }
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "{count}")?;
            if mode.is_on() {
                // On stderr, so that stdout stays the bare number.
                if inst.is_empty_board() && inst.geometry() == queens_sat::check::Geometry::Square {
                    eprintln!("({count} {})", mode.count_meaning());
                } else {
                    let broken: Vec<_> =
                        inst.symmetries_broken().iter().map(|s| s.name()).collect();
                    eprintln!(
                        "({count} classes of solutions under the symmetries that map the instance onto itself: {})",
                        if broken.is_empty() { "none".to_string() } else { broken.join(", ") }
                    );
                }
            }
        }
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut found = 0u64;
    if args.format == Format::Json {
        write!(out, "{{\"n\":{n},\"solutions\":[")?;
    }
    let format = args.format;
    let result = e.for_each_batch::<anyhow::Error>(
        |batch| {
            for p in batch {
                found += 1;
                match format {
                    Format::Board => {
                        writeln!(out, "solution {found}:")?;
                        write!(out, "{}", p.render_board())?;
                        writeln!(out, "one-line: {}", p.to_one_line())?;
                        writeln!(out)?;
                    }
                    Format::Line => writeln!(out, "{}", p.to_one_line())?,
                    Format::Json => {
                        if found > 1 {
                            write!(out, ",")?;
                        }
                        write!(out, "{}", serde_json::json!(json_cols(&p)))?;
                    }
                    Format::Competition | Format::Svg => {}
                }
            }
            Ok(true)
        },
        |p| progress.update(p),
    );
    progress.finish();
    if let Err(e) = result {
        out.flush()?;
        if let Some(SolveError::Stopped(stop)) = e.downcast_ref::<SolveError>() {
            return Ok(stopped(*stop));
        }
        return Err(e);
    }
    match args.format {
        Format::Json => {
            let limit = serde_json::json!(args.limit);
            writeln!(out, "],\"count\":{found},\"limit\":{limit}}}")?;
        }
        Format::Board if found == 0 => writeln!(out, "{}", unsat_message(n, inst))?,
        Format::Board => {
            let limited = args.limit.is_some_and(|l| found >= l);
            writeln!(
                out,
                "{found} solution{} for n = {n}{}",
                if found == 1 { "" } else { "s" },
                if limited { " (stopped at --limit)" } else { "" }
            )?;
        }
        _ => {}
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_one_based() {
        assert_eq!(parse_cell("2,5"), Ok((1, 4)));
        assert_eq!(parse_cell(" 1 , 1 "), Ok((0, 0)));
        assert!(parse_cell("0,3").is_err());
        assert!(parse_cell("3").is_err());
        assert!(parse_cell("a,b").is_err());
    }
}
