//! `queens-sat solve N`: one solution, all solutions or their number, from the embedded solver
//! or an external one; with pre-placed queens and forbidden cells
//! ([`queens_sat::command::solve`]). Also the options that choose the formula, shared by the
//! commands that take one ([`FormulaArgs`]).

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::command::solve::{
    ChainSolve, EnumerateSolve, ExternalSolver, InProcess, ListFormat, NotWithChain, NotWithSearch,
    OneSolve, ProofKept, ProofSolve, ProofSolver, SatSolver, SatTask, SearchSolve, SolveMode,
    SolveProgress, Written,
};
use queens_sat::family::InstanceSpec;
use queens_sat::instance::Instance;
use queens_sat::search::SearchProgress;
use queens_sat::solve::{Backend, Progress};
use queens_sat::symmetry_breaking::SymmetryBreaking;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

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

/// What solves (`--engine`; the option's help says what each does): a SAT solver on the
/// formula, the search on the board, CaDiCaL with the at-most-one of every line propagated,
/// or a chain of solvers joined by `+`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    Sat,
    Search,
    Propagator,
    /// The chain as written (`search@60+exact`).
    Chain(String),
}

/// The parser of `--engine`: `sat`, `search`, `propagator` or a chain (`A+B`, each a solver as
/// `compare --solver` names it).
fn parse_engine(s: &str) -> Result<Engine, String> {
    match s.trim() {
        "sat" => Ok(Engine::Sat),
        "search" => Ok(Engine::Search),
        "propagator" => Ok(Engine::Propagator),
        t if queens_sat::experiment::solvers::split(t).is_some() => Ok(Engine::Chain(t.into())),
        t => Err(format!(
            "'{t}' is not an engine: sat, search, propagator, or a chain of solvers joined by + (search@60+exact)"
        )),
    }
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
        let spec = queens_sat::family::read_instance_file(path, self.diagonals.diagonals)?;
        if let Some(n) = n.filter(|&n| n != spec.n) {
            bail!(
                "n = {n} disagrees with the instance file {} (n = {}); leave N out",
                path.display(),
                spec.n
            );
        }
        Ok(Some(spec))
    }

    /// Refuses, before anything is written, an output that is the instance file itself
    /// ([`queens_sat::output::refuse_input_as_output`]).
    pub fn refuse_as_output(&self, outputs: &[Option<&std::path::Path>]) -> Result<()> {
        if let Some(input) = &self.instance {
            queens_sat::output::refuse_input_as_output(&[input], outputs)?;
        }
        Ok(())
    }

    /// Whether `--instance` was given.
    pub fn has_instance(&self) -> bool {
        self.instance.is_some()
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
    pub(super) n: Option<usize>,
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
    pub(super) formula: FormulaArgs,
    /// Solve with an external solver: a command on PATH that reads a DIMACS file (with
    /// arguments, e.g. "cadical -q"); its answer is parsed and verified. MiniSat is given a
    /// result file as its second argument.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["all", "count", "limit"])]
    solver: Option<String>,
    /// Stop after SECONDS and exit 1 (default: no limit): the embedded solver (one solution,
    /// --all, --count; it stops within moments) or, with --solver, the solver and every
    /// process it started. Not with --why or a proof of the SAT engine; with --engine search
    /// and --proof or --check-proof it bounds the certified walk (VeriPB's check then runs to
    /// its end).
    #[arg(long, value_name = "SECONDS", value_parser = queens_sat::input::parse_timeout, allow_negative_numbers = true)]
    timeout: Option<Duration>,
    /// The embedded solver: cadical (CaDiCaL in-process), kissat (Kissat in-process; it solves
    /// each step of --all and --count afresh) or varisat. Default: cadical for one solution of
    /// an instance with placed or forbidden cells or of a toroidal board (when built in), and
    /// whenever --solver-option is given; varisat for the empty board (easy, and a large
    /// formula, which varisat loads faster) and for --all and --count (many small
    /// sub-problems, where it is faster). --why always uses varisat; proofs (--proof,
    /// --check-proof) use varisat unless --backend or --proof-format lrat says otherwise.
    #[arg(long, value_name = "NAME", value_parser = super::parse_backend(), conflicts_with = "solver")]
    backend: Option<Backend>,
    /// Enumeration: split into sub-problems on the first K rows (0: a single solver; default
    /// from 0 for n <= 5 up to 5 for n = 13..15).
    #[arg(long, value_name = "K")]
    split_rows: Option<usize>,
    /// Enumeration and --engine search: worker threads, 1 to 1024 (default: one per core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// What solves: sat (a SAT solver on the formula, as --backend or --solver say), search
    /// (the backtracking search of `count --instance` on the board, n <= 64, without a
    /// formula: the first solution, checked, or the proof that there is none; with --timeout
    /// and --threads; on two threads or more a complete search that also branches on diagonals
    /// races random restarts) or propagator (CaDiCaL with the rows' at-least-one clauses, the
    /// at-most-one of every line propagated through its external propagator interface; the
    /// pairwise cell model; its proofs refer to the pairwise formula of `encode`), or a chain of
    /// solvers joined by + (search@60+exact: each stage a solver as `compare --solver` names
    /// it, with an optional budget @SECONDS of CPU time, 10 s when left out, the last stage
    /// what is left; each stage a process of its own, run in turn until one decides; with
    /// --timeout for the whole chain, --threads for the search's stage and --solver-option for
    /// the embedded solvers).
    #[arg(long, value_name = "ENGINE", value_parser = parse_engine, default_value = "sat")]
    engine: Engine,
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
    /// solver; with --solver, the solver's own proof: cadical and kissat can write one; with
    /// --engine search or propagator, a VeriPB certificate against the OPB form, --proof-format
    /// veripb; with a chain of the search, the propagator and exact, the certificate of the
    /// stage that refutes). The
    /// file appears only once the proof is complete; with a solution, none is written and the
    /// exit code is 1.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "count", "limit", "explain", "why"])]
    proof: Option<PathBuf>,
    /// Check the proof of unsatisfiability before reporting (and before writing --proof FILE):
    /// a DRAT proof by the DRAT checker of queens-sat and by VeriPB, written apart (both must
    /// accept it); an LRAT proof by the LRAT checker of queens-sat; a VeriPB certificate (the
    /// search's, the propagator's, a chain's) by VeriPB. Without --proof the proof is made and checked in a temporary place.
    #[arg(long, conflicts_with_all = ["all", "count", "limit", "explain", "why"])]
    check_proof: bool,
    /// The proof format: drat (the default of the SAT engine; every backend), lrat (CaDiCaL,
    /// which --proof-format lrat selects when --backend is not given), text, numbering the
    /// clauses as `queens-sat encode` writes them with the same options; or veripb (the only
    /// one of the search and of chains of the search, the propagator and exact, whose proof log
    /// is put in VeriPB's current format; the propagator writes it with its arguments on): a
    /// pseudo-Boolean proof against `queens-sat encode --format opb
    /// --redundant diagonals,sums,moments` of the instance, checked by VeriPB.
    #[arg(long, value_name = "FORMAT", value_parser = ["drat", "lrat", "veripb"], conflicts_with = "solver")]
    proof_format: Option<String>,
    #[command(flatten)]
    solver_options: super::backends::SolverOptionArgs,
}

pub fn run(args: SolveArgs) -> Result<ExitCode> {
    use queens_sat::command::solve::{solve, SolveRequest};
    args.formula
        .refuse_as_output(&[args.output.as_deref(), args.proof.as_deref()])?;
    // Rejects bad sizes and partial boards before any work.
    let instance = args.formula.instance(args.n)?;
    let mode = args.mode()?;
    let req = SolveRequest { instance, mode };
    let mut progress = ProgressReport::new();
    let ending = solve(
        &req,
        &mut queens_sat::output::stdout(),
        &mut io::stderr(),
        &mut progress,
    )?;
    Ok(ExitCode::from(ending.exit_code()))
}

impl SolveArgs {
    /// The solve these options ask for; options that do not go together are refused, naming
    /// them.
    fn mode(&self) -> Result<SolveMode> {
        let threads = self.threads.map(|t| t as usize);
        if let Engine::Chain(text) = &self.engine {
            return self.chain(text, threads);
        }
        if self.engine == Engine::Search {
            if let Some(flag) = self.first_set(&["--proof", "--check-proof", "--proof-format"]) {
                bail!("{flag} {NotWithSearch}");
            }
            let proof = self.veripb_proof(
                threads,
                "--engine search writes its proofs in the VeriPB format (--proof-format veripb)",
            )?;
            return Ok(SolveMode::Search(SearchSolve {
                written: self.written()?,
                threads,
                timeout: self.timeout,
                proof: proof.then(|| self.kept()),
            }));
        }
        let certificate = self.proof_format.as_deref() == Some("veripb");
        if certificate && self.engine != Engine::Propagator {
            bail!("--proof-format veripb: VeriPB certificates are written by --engine search, --engine propagator and chains of search, propagator and exact (the SAT solvers write drat or lrat)");
        }
        if certificate && self.proof.is_none() && !self.check_proof {
            bail!("--proof-format goes with --proof FILE or --check-proof");
        }
        if self.limit == Some(0) {
            bail!("--limit must be at least 1");
        }
        let enumerate = self.all || self.count || self.limit.is_some();
        let proof = self.proof.is_some() || self.check_proof;
        if self.timeout.is_some() && self.solver.is_none() && (self.why || proof) {
            bail!("--timeout applies to solving and enumeration, not to --why or proofs");
        }
        let options = self.solver_options.solver_option.clone();
        if self.solver.is_some() && !options.is_empty() {
            bail!("--solver-option sets options of the embedded solver, not of --solver");
        }
        let in_process = match self.engine {
            Engine::Propagator => {
                if self.solver.is_some() {
                    bail!("--engine propagator runs the embedded CaDiCaL; it does not go with --solver");
                }
                if self.backend.is_some_and(|b| b != Backend::Cadical) {
                    bail!("--engine propagator runs CaDiCaL (IPASIR-UP); --backend can only be cadical");
                }
                if self.why {
                    bail!("--why explains the formula's clauses; it does not go with --engine propagator");
                }
                InProcess::Propagator { options }
            }
            Engine::Sat | Engine::Search | Engine::Chain(_) => InProcess::Embedded {
                backend: self.backend,
                options,
            },
        };
        let task = if enumerate {
            let format = match self.format {
                Format::Board => ListFormat::Board,
                Format::Line => ListFormat::Line,
                Format::Json => ListFormat::Json,
                Format::Competition => bail!("--format competition shows one model; use --all or --count with --format board, line or json"),
                Format::Svg => bail!("--format svg draws one solution; `count N --list --format svg` draws many"),
            };
            if self.output.is_some() {
                bail!("-o FILE goes with --format svg (the other formats go to stdout)");
            }
            SatTask::Enumerate(EnumerateSolve {
                format,
                count_only: self.count,
                limit: self.limit.and_then(std::num::NonZeroU64::new),
                split_rows: self.split_rows,
                threads,
                solver: in_process,
                timeout: self.timeout,
            })
        } else if self.why {
            if !self.solver_options.solver_option.is_empty() {
                bail!("--solver-option does not go with --why, which runs varisat (it takes no options)");
            }
            SatTask::Why
        } else if proof {
            let kept = self.kept();
            let prover = match &self.solver {
                Some(command) => ProofSolver::External {
                    solver: self.external(command),
                    timeout: self.timeout,
                },
                None if certificate => ProofSolver::PropagatorCertificate {
                    options: self.solver_options.solver_option.clone(),
                },
                None => ProofSolver::InProcess {
                    solver: in_process,
                    format: match self.proof_format.as_deref() {
                        Some("lrat") => queens_sat::solve::ProofFormat::Lrat,
                        _ => queens_sat::solve::ProofFormat::Drat,
                    },
                },
            };
            SatTask::Proof(ProofSolve {
                written: self.written()?,
                kept,
                prover,
            })
        } else {
            SatTask::One(OneSolve {
                written: self.written()?,
                explain: self.explain,
                solver: match &self.solver {
                    Some(command) => SatSolver::External(self.external(command)),
                    None => SatSolver::InProcess(in_process),
                },
                timeout: self.timeout,
            })
        };
        Ok(SolveMode::Sat {
            task,
            force: self.force,
        })
    }

    /// The first of the options that only the SAT engine takes that is given, leaving out
    /// `allowed` (the search takes none of them, a chain `--solver-option`).
    fn first_set(&self, allowed: &[&str]) -> Option<&'static str> {
        [
            (self.all, "--all"),
            (self.count, "--count"),
            (self.limit.is_some(), "--limit"),
            (self.solver.is_some(), "--solver"),
            (self.backend.is_some(), "--backend"),
            (self.split_rows.is_some(), "--split-rows"),
            (self.explain, "--explain"),
            (self.why, "--why"),
            (self.proof.is_some(), "--proof"),
            (self.check_proof, "--check-proof"),
            (
                !self.solver_options.solver_option.is_empty(),
                "--solver-option",
            ),
            (self.proof_format.is_some(), "--proof-format"),
            (self.force, "--force"),
        ]
        .into_iter()
        .find(|(on, flag)| *on && !allowed.contains(flag))
        .map(|(_, flag)| flag)
    }

    /// Whether a VeriPB certificate is asked for (`--proof` or `--check-proof`) of the search or
    /// a chain: `--proof-format` must be veripb (`only_veripb` says why) and go with one, and
    /// the search certifies on one thread.
    fn veripb_proof(&self, threads: Option<usize>, only_veripb: &str) -> Result<bool> {
        let proof = self.proof.is_some() || self.check_proof;
        match self.proof_format.as_deref() {
            Some("veripb") if !proof => {
                bail!("--proof-format goes with --proof FILE or --check-proof")
            }
            Some(f) if f != "veripb" => bail!("{only_veripb}, not {f}"),
            _ => {}
        }
        if proof && threads.is_some_and(|t| t > 1) {
            bail!("the search writes its proof on one thread: --threads does not go with --proof or --check-proof");
        }
        Ok(proof)
    }

    /// The solve by the chain `text`; the options a chain does not take are refused.
    fn chain(&self, text: &str, threads: Option<usize>) -> Result<SolveMode> {
        let proofs = ["--proof", "--check-proof", "--proof-format"];
        if let Some(flag) = self.first_set(&["--solver-option", proofs[0], proofs[1], proofs[2]]) {
            bail!("{flag} {NotWithChain}");
        }
        let proof = self.veripb_proof(
            threads,
            "a chain's proofs are VeriPB certificates written by the search, the propagator and Exact (--proof-format veripb)",
        )?;
        let options = &self.solver_options.solver_option;
        let stages = match queens_sat::experiment::solvers::parse_chain(text, None, options) {
            Some(stages) => stages.map_err(|e| anyhow::anyhow!("--engine: {e}"))?,
            None => bail!("--engine {text}: not a chain of solvers"),
        };
        // Every stage must run: one that cannot is refused before any work.
        for stage in &stages {
            let s = &stage.solver;
            if proof && !s.certifies() {
                bail!(
                    "--engine: {} writes no proof of a refutation: with --proof or --check-proof, every stage of a chain is search, propagator or exact",
                    s.name
                );
            }
            if queens_sat::experiment::solver_version(&stage.solver).is_none() {
                bail!(
                    "--engine: {}",
                    queens_sat::experiment::solvers::missing(&stage.solver)
                );
            }
        }
        Ok(SolveMode::Chain(ChainSolve {
            stages,
            written: self.written()?,
            threads,
            timeout: self.timeout,
            proof: proof.then(|| self.kept()),
        }))
    }

    /// How one solution is written: `-o FILE` goes with `--format svg` only.
    fn written(&self) -> Result<Written> {
        use queens_sat::command::solution::Format as Out;
        Ok(match (self.format, &self.output) {
            (Format::Svg, Some(path)) => Written::SvgFile(path.clone()),
            (_, Some(_)) => {
                bail!("-o FILE goes with --format svg (the other formats go to stdout)")
            }
            (Format::Board, None) => Written::Out(Out::Board),
            (Format::Line, None) => Written::Out(Out::Line),
            (Format::Json, None) => Written::Out(Out::Json),
            (Format::Competition, None) => Written::Out(Out::Competition),
            (Format::Svg, None) => Written::Out(Out::Svg),
        })
    }

    /// Where the proof goes and whether it is checked.
    fn kept(&self) -> ProofKept {
        match (&self.proof, self.check_proof) {
            (Some(path), false) => ProofKept::File(path.clone()),
            (Some(path), true) => ProofKept::CheckedFile(path.clone()),
            (None, _) => ProofKept::Checked,
        }
    }

    /// The external solver `--solver COMMAND`.
    fn external(&self, command: &str) -> ExternalSolver {
        ExternalSolver {
            command: command.to_string(),
            command_line: Some(super::command_line()),
        }
    }
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
}

impl SolveProgress for ProgressReport {
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

    fn search(&mut self, p: SearchProgress) {
        if !self.enabled || self.start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new_spinner();
            if let Ok(style) = indicatif::ProgressStyle::with_template("{elapsed_precise} {msg}") {
                b.set_style(style);
            }
            b
        });
        bar.set_message(format!("search: {} nodes", p.nodes));
    }

    fn finish(&mut self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
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
