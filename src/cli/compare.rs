//! `queens-sat compare`: the encoding experiment: sizes and solve times per n, encoding and
//! solver, as a Markdown table, CSV, JSON and an SVG plot.

use super::NList;
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use queens_sat::command::compare::{
    self, CompareError, CompareRequest, CsvFile, ExpectedFile, FamilyRequest, Grid, Instances,
    Mode, Output, Reports, Runs, Scatter, Solvers, SweepProgress,
};
use queens_sat::experiment;
use queens_sat::experiment::expected::Columns;
use queens_sat::experiment::sample::{self, Sample};
use queens_sat::experiment::sources::InstanceSource;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The largest n compare takes (the encoder refuses far smaller boards for most encodings).
const MAX_N: usize = 1 << 16;

/// The D values of `--diagonals`.
#[derive(Clone, Debug)]
struct Diagonals(Vec<usize>);

fn parse_diagonals(s: &str) -> Result<Diagonals, String> {
    experiment::expected::parse_diagonals(s)
        .map(Diagonals)
        .map_err(|e| e.to_string())
}

/// `--instance FILE`, `DIR` or `@LIST`.
fn parse_instance(s: &str) -> Result<InstanceSource, String> {
    match s.strip_prefix('@') {
        Some("") => Err("@ is followed by the path of a list of instance files".into()),
        Some(list) => Ok(InstanceSource::List(PathBuf::from(list))),
        None if s.is_empty() => Err("an empty path".into()),
        None => Ok(InstanceSource::Path(PathBuf::from(s))),
    }
}

/// `--expected-columns instance=NAME,d=NAME,answer=NAME`.
fn parse_columns(s: &str) -> Result<Columns, String> {
    s.parse()
        .map_err(|e: experiment::expected::ColumnsError| e.to_string())
}

/// The most runs per combination.
const MAX_REPEAT: u32 = 1000;

fn parse_ns(s: &str) -> Result<NList, String> {
    super::parse_n_list_up_to(s, MAX_N, |n| {
        format!("n = {n} is too large: compare takes n from 1 to {MAX_N}")
    })
}

/// `--timeout SECONDS` ([`queens_sat::input::parse_seconds`]), with one message for every
/// value refused.
fn parse_timeout(s: &str) -> Result<f64, String> {
    queens_sat::input::parse_seconds(s).map_err(|_| {
        format!(
            "'{s}' is not a number of seconds from {} to {} (a week)",
            experiment::MIN_TIMEOUT_S,
            experiment::MAX_TIMEOUT_S
        )
    })
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Board sizes: a list `8,16,32`, a range `a..b` (ends included), a range with a step
    /// `8..32:8`, or both `4..8,16`.
    #[arg(long = "n", value_parser = parse_ns, default_value = "8,16,32", value_name = "NS")]
    ns: NList,
    /// Encodings, comma-separated (pairwise,sequential,...); repeat the option for a per-line
    /// setting such as `--amo rows=sequential,diagonals=product`.
    #[arg(
        long,
        alias = "encoding",
        default_value = "pairwise,sequential,commander,product,binary"
    )]
    amo: Vec<String>,
    /// Add the redundant column at-least-one clauses (to the cell models).
    #[arg(long)]
    column_alo: bool,
    /// Redundant global constraints added to every model, separated by commas: `permutation`,
    /// `diagonals`, `sums`, `moments` or `none` (as for encode); the encoding's name in each
    /// row carries them (`pairwise+permutation+sums`).
    #[arg(long, value_name = "LIST", default_value = "none")]
    redundant: queens_sat::encode::redundant::RedundantSet,
    #[command(flatten)]
    models: super::ModelsArg,
    /// Symmetry breaking modes, comma-separated (none, lex-leader, rotations): each a
    /// configuration with every encoding; a row's encoding carries the mode as a suffix
    /// (`pairwise+lex-leader`).
    #[arg(long, value_delimiter = ',', default_value = "none", value_name = "MODES", value_parser = super::solve::parse_symmetry_breaking())]
    symmetry_breaking: Vec<queens_sat::symmetry_breaking::SymmetryBreaking>,
    /// Solvers, comma-separated: `varisat`, `cadical-lib` or `kissat-lib` (the embedded
    /// solvers, run as `queens-sat sat --backend ...` processes; options after the name, as
    /// `cadical-lib elim=0`), `search` (the search engine of `solve --engine search`, on the
    /// board, one thread; `search threads=2`: the portfolio of a complete search and random
    /// restarts on two threads, its CPU time that of both), `propagator` (the engine of `solve --engine propagator`, CaDiCaL
    /// with the queens propagator, on the pairwise cell model of each instance; options after
    /// the name as cadical-lib's), both run as `queens-sat solve` processes, the
    /// pseudo-Boolean solvers `minisat+`, `sat4j-pb`, `exact` and `cp-sat` (on the instance's
    /// OPB form, `encode --format opb`; models with cell variables only), `lp` (the linear
    /// relaxation of the OPB form, by HiGHS: UNSAT when infeasible, else UNKNOWN), any command on PATH
    /// that reads a DIMACS file (cadical, kissat, minisat, ...), or a chain of these joined
    /// by a plus sign (`search@60+exact`: each stage with an optional budget @SECONDS of CPU
    /// time, 10 s when left out, the last stage what is left; run in turn until one decides).
    #[arg(long, value_delimiter = ',', default_value = "varisat")]
    solver: Vec<String>,
    /// Options of the embedded solvers (cadical-lib, kissat-lib), recorded with the solver's
    /// name in each row.
    #[command(flatten)]
    solver_options: super::backends::SolverOptionArgs,
    /// Runs per combination, 1 to 1000 (the median is reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=MAX_REPEAT as i64))]
    repeat: u32,
    /// Time limit of one run, in seconds of wall-clock time (0.001 to 604800, a week).
    #[arg(long, default_value_t = 60.0, value_parser = parse_timeout)]
    timeout: f64,
    /// CPU time limit of one run, in seconds (user + system time of the solver and every
    /// process it starts; 0.001 to 604800): a run past it is a TIMEOUT row, as at --timeout.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    cpu_limit: Option<f64>,
    /// Memory limit of one run: the solver and its processes together (resident memory), as
    /// 512M, 2G or 1.5GiB (a number alone is MiB): a run past it is a MEMOUT row.
    #[arg(long, value_name = "SIZE")]
    memory_limit: Option<queens_sat::solve::measure::MemorySize>,
    /// Append each row to this CSV file as it is finished; rerunning the same command resumes
    /// it (the rows already there must come from the same settings).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Start the CSV file afresh instead of resuming it (only a sweep's CSV is replaced).
    #[arg(long)]
    fresh: bool,
    /// Write the results and metadata as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw clauses vs n and solve time vs n (n linear, clauses and times on log scales) as
    /// SVG, or PNG or PDF for a FILE ending in .png or .pdf; with --family, the phase
    /// transition: fraction SAT and median solve time against the swept parameter.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Solve K shuffled copies of each formula (variables renamed, polarities flipped, clauses
    /// and literals reordered from a seed, as cnfshuffle does) instead of the formula as
    /// encoded, 1 to 1000; rows carry the copy (`shuffle` column), and models are mapped back
    /// and checked against the original formula.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=experiment::MAX_SHUFFLE as i64))]
    shuffle: Option<u32>,
    /// Certify every refutation: the stage that refutes (the search, the propagator, or Exact
    /// through its proof log) writes a VeriPB certificate against the OPB form with the
    /// counts, sums and moments, which VeriPB checks; rows record its size, the check's time
    /// and the verdict (`certificate_bytes`, `check_s`, `certified`). Every solver must be
    /// `search`, `propagator`, `exact` or a chain of them.
    #[arg(long)]
    certify: bool,
    /// Draw a cactus plot as SVG (PNG, PDF for .png, .pdf): for each encoding and solver, the
    /// instances solved within a time.
    #[arg(long, value_name = "FILE.svg")]
    cactus: Option<PathBuf>,
    /// Draw a scatter plot as SVG (PNG, PDF for .png, .pdf) of two configurations instance by
    /// instance (those of --scatter-of, or the two with the best scores).
    #[arg(long, value_name = "FILE.svg")]
    scatter: Option<PathBuf>,
    /// The two configurations of --scatter, as ENCODING/SOLVER,ENCODING/SOLVER (for example
    /// pairwise/cadical,sequential/cadical).
    #[arg(long, value_name = "A,B", requires = "scatter")]
    scatter_of: Option<String>,
    /// Solve instances drawn from a family instead of empty boards: completion, blocked,
    /// excluded-diagonals or toroidal (as `generate` draws them), for every n, parameter value
    /// and seed. The output is a summary per n, value, encoding and solver: SAT, UNSAT and
    /// TIMEOUT counts, the fraction SAT, the median and 90th percentile solve time.
    #[arg(long, value_name = "FAMILY")]
    family: Option<String>,
    /// A parameter of the family (with --family), repeatable: `NAME=VALUE`, a list
    /// `p=0.7,0.8`, or a range with a step `p=0.6..0.9:0.05`, `k=0..20:2` (ends included, step
    /// 1 when left out). At most one parameter takes several values, the swept one; the others
    /// stay fixed (`--param mode=random`). Parameters: completion k, mode (solution or random);
    /// blocked p or b; excluded-diagonals d (a number, or a fraction of n: d=0.9n), min-free;
    /// toroidal p or b (optional). `compatible=jair` draws completion (mode=random) and
    /// excluded-diagonals instances with the JAIR paper's generators, as `generate --compatible
    /// jair` does.
    #[arg(long = "param", value_name = "NAME=VALUES")]
    params: Vec<String>,
    /// The seeds each parameter value is drawn with (with --family): a range `1..10` (ends
    /// included), a list `1,5,9`, or both; 1..10 when left out.
    #[arg(long, value_name = "SEEDS")]
    seeds: Option<String>,
    /// Solve the instances of these instance files (docs/formats.md; `generate` writes them)
    /// instead of empty boards, repeatable; rows name each file by its file name in the
    /// `value` column. A folder gives every .txt, .param, .cnf and .opb file directly in it,
    /// sorted by name; `@LIST` the files a list names, one path a line relative to the list's
    /// folder (`#` comments and blank lines skipped). DIMACS (.cnf, or `p cnf`) and OPB
    /// (.opb, or `* #variable=`) files are formulas, solved as they are by the SAT solvers
    /// (DIMACS) or the pseudo-Boolean solvers (OPB), each model checked against the file.
    #[arg(long, value_name = "FILE|DIR|@LIST", value_parser = parse_instance, conflicts_with_all = ["family", "params", "seeds"])]
    instance: Vec<InstanceSource>,
    /// With --instance FILE of Excluded Diagonals parameter files (CSPLib problem 079): take
    /// their first D diagonals, as the paper prescribes (default: all of them, numdiags); a
    /// range `17..21` (ends included) or a list `17,19,21` makes one instance per D, named
    /// `FILE d=D` in the `value` column.
    #[arg(long, value_name = "D", requires = "instance", value_parser = parse_diagonals)]
    diagonals: Option<Diagonals>,
    /// With --instance: solve a seeded sample of K of the instances (every file, with every D
    /// of --diagonals), in the sample's order: each instance ranked by the MD5 digest of the
    /// text `SEED NAME` (NAME as rows give it, `diag-21-4-154.param d=21`), smallest first, the
    /// first K taken. A larger K keeps the instances of a smaller one (docs/commands.md).
    #[arg(long, value_name = "K", requires = "instance", value_parser = clap::value_parser!(u64).range(1..))]
    sample: Option<u64>,
    /// The seed of --sample's order (default 1).
    #[arg(long, value_name = "S", requires = "sample")]
    sample_seed: Option<u64>,
    /// The expected answers, to check every row against: the results file of CSPLib problem
    /// 079 (gzip or plain) or a CSV (or tab-separated) file with a header, `instance,D,answer`
    /// or the columns of --expected-columns (a CSV of compare itself works as it is;
    /// docs/formats.md); for a family sweep, a file with the columns `n`, `seed` and `D` (or
    /// the swept parameter's value) and the answer. A row that answers otherwise is `WRONG:
    /// expected SAT` (or UNSAT), and the sweep fails.
    #[arg(long, value_name = "FILE")]
    expected: Option<PathBuf>,
    /// The columns of the --expected CSV that hold the instance, D and the answer, by header
    /// name: `instance=NAME,d=NAME,answer=NAME,n=NAME,seed=NAME`, each part optional (by
    /// default `instance` else `value`, `D`, `answer` else `status`, `n`, `seed`; with a seed
    /// column, rows of family sweeps are matched by n, value and seed). Answers SAT or SATISFIABLE, UNSAT or
    /// UNSATISFIABLE; UNKNOWN, TIMEOUT or empty expect nothing.
    #[arg(long, value_name = "COLUMNS", value_parser = parse_columns, requires = "expected")]
    expected_columns: Option<Columns>,
    /// Run only shard I of K (1-based) of the grid: every K-th (instance, encoding, solver)
    /// combination, into the CSV file of --csv (rows carry the shard); `--merge` joins the K
    /// files (docs/cluster.md). Every combination of the share runs (no skipping after a
    /// timeout at a smaller n).
    #[arg(long, value_name = "I/K", value_parser = queens_sat::count::parse_shard, requires = "csv")]
    shard: Option<queens_sat::count::Shard>,
    /// Report finished sweeps from their CSV files, as one sweep: the table, and --csv,
    /// --json, --plot, --cactus, --scatter. Each file holds a whole sweep (unsharded, or
    /// merged) or shards of one; every shard of a sharded sweep once, the same settings, no run
    /// twice. Nothing is run.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["shard", "fresh", "instance", "family", "params", "seeds"])]
    merge: Vec<PathBuf>,
    /// With --merge: report only the instances every configuration (encoding and solver) ran,
    /// so that sweeps of other instances are compared on the same ones.
    #[arg(long, requires = "merge")]
    common: bool,
    /// Print only one table of the report, its Markdown lines without a caption: `runs` (a
    /// line per run, or per n, value, encoding and solver for a family sweep), `values` (a
    /// family sweep per parameter value), `scores` (per configuration, over instances) or
    /// `instances` (the runs side by side: a line per instance, a column per configuration)
    /// or `certificates` (with --certify: per configuration, the refutations certified, the
    /// certificates' sizes and VeriPB's times).
    #[arg(long, value_name = "TABLE", value_parser = parse_table)]
    table: Option<compare::Table>,
}

fn parse_table(s: &str) -> Result<compare::Table, String> {
    s.parse()
}

pub fn run(args: CompareArgs) -> Result<ExitCode> {
    let req = request(args)?;
    let mut bar = Bar::default();
    let ending = compare::compare(
        &req,
        &mut queens_sat::output::stdout(),
        &mut std::io::stderr(),
        &mut bar,
    )
    .map_err(|e| match flag_wording(&e) {
        Some(message) => anyhow::Error::msg(message),
        None => e.into(),
    })?;
    Ok(ExitCode::from(ending.exit_code()))
}

/// The typed request of the flags; a combination clap lets through but the request cannot
/// hold (`--param` or `--seeds` without `--family`, a malformed `--scatter-of`) is refused
/// here, naming the flags.
fn request(args: CompareArgs) -> Result<CompareRequest> {
    let csv = args.csv.map(|path| CsvFile {
        path,
        fresh: args.fresh,
    });
    let instances = match (args.family, args.instance.is_empty()) {
        (Some(family), _) => Instances::Family {
            ns: args.ns.0,
            sweep: FamilyRequest {
                family,
                params: args.params,
                seeds: args.seeds,
            },
        },
        (None, false) => Instances::Files {
            sources: args.instance,
            diagonals: args.diagonals.map_or_else(Vec::new, |d| d.0),
            sample: args.sample.map(|size| Sample {
                size: usize::try_from(size).unwrap_or(usize::MAX),
                seed: args.sample_seed.unwrap_or(sample::DEFAULT_SEED),
            }),
        },
        (None, true) if !args.params.is_empty() || args.seeds.is_some() => {
            anyhow::bail!("--param and --seeds describe a family sweep: give --family too")
        }
        (None, true) => Instances::Boards(args.ns.0),
    };
    let grid = Grid {
        expected: args.expected.map(|path| ExpectedFile {
            path,
            columns: args.expected_columns.unwrap_or_default(),
        }),
        instances,
        models: args.models.models,
        amo: args.amo,
        column_alo: args.column_alo,
        redundant: args.redundant,
        symmetry_breaking: args.symmetry_breaking,
        solvers: Solvers {
            names: args.solver,
            options: args.solver_options.solver_option,
            program: None,
        },
        runs: Runs {
            repeats: args.repeat as usize,
            timeout: Duration::from_secs_f64(args.timeout),
            cpu_limit: args.cpu_limit.map(Duration::from_secs_f64),
            memory_limit: args.memory_limit.map(|m| m.bytes()),
            shuffle: args.shuffle.unwrap_or(0) as usize,
            certify: args.certify,
        },
    };
    let mode = match (args.merge.is_empty(), args.shard, csv) {
        (false, _, csv) => Mode::Merge {
            files: args.merge,
            csv: csv.map(|c| c.path),
            common: args.common,
        },
        (true, Some(shard), Some(csv)) => Mode::Shard { grid, shard, csv },
        (true, Some(_), None) => anyhow::bail!("--shard needs --csv, the file of its rows"),
        (true, None, csv) => Mode::Run { grid, csv },
    };
    let pair = args
        .scatter_of
        .map(|text| compare::parse_pair(&text))
        .transpose()
        .map_err(|e| anyhow::anyhow!("--scatter-of: {e}"))?;
    let reports = Reports {
        table: args.table,
        json: args.json,
        plot: args.plot,
        cactus: args.cactus,
        scatter: args.scatter.map(|path| Scatter { path, pair }),
    };
    Ok(CompareRequest { mode, reports })
}

/// The flag that names an output.
fn output_flag(output: Output) -> &'static str {
    match output {
        Output::Csv => "--csv",
        Output::Json => "--json",
        Output::Plot => "--plot",
        Output::Cactus => "--cactus",
        Output::Scatter => "--scatter",
    }
}

/// The message of a library error as the command line words it, naming the flag at fault;
/// `None` for the errors whose own message is the command line's.
fn flag_wording(e: &CompareError) -> Option<String> {
    use queens_sat::experiment::expected::ExpectedError;
    use queens_sat::experiment::params::{ParamError, Subject};
    use queens_sat::experiment::report::CsvError;
    use queens_sat::experiment::resume::ResumeError;
    use queens_sat::experiment::solvers::{Instead, SolverError};
    use queens_sat::experiment::{ShardMergeError, SweepError};
    use queens_sat::solve::SolveError;
    /// A file the user can start afresh.
    const FRESH: &str = "use --fresh or another file";
    Some(match e {
        CompareError::Encodings(message) => format!("--amo: {message}"),
        CompareError::Expected(e @ ExpectedError::Column { .. }) => {
            format!("--expected: {e}; --expected-columns names the columns")
        }
        CompareError::Expected(e) => format!("--expected: {e}"),
        CompareError::Sample(e) => format!("--sample: {e}"),
        CompareError::FormulaEngine { solver, .. } => format!("--solver {solver}: {e}"),
        CompareError::Unread { .. } => format!("--solver: {e}"),
        CompareError::FormulaDiagonals(_) => format!("--diagonals: {e}"),
        CompareError::FormulaShuffle(_) => format!("--shuffle: {e}"),
        CompareError::NoOpbForm { .. } => format!("--solver: {e}"),
        CompareError::Uncertified(_) | CompareError::CertifyFormulas => format!("--certify: {e}"),
        CompareError::SameFileName(name) => {
            format!("--instance: two files are named {name}; rows name files by their names")
        }
        CompareError::Unwritable { output, problem } => {
            format!("{}: {problem}", output_flag(*output))
        }
        CompareError::SameFile {
            output,
            other,
            path,
        } => format!(
            "{} and {} name the same file {}",
            output_flag(*output),
            output_flag(*other),
            path.display()
        ),
        CompareError::TooManyShards { shard, units } => format!(
            "--shard {shard}: the sweep has {units} runs, fewer than the {} shards asked for",
            shard.of
        ),
        CompareError::NoScatterPair(_) => format!("--scatter: {e}"),
        CompareError::NoTable { table, why } => format!("--table {table}: {why}"),
        CompareError::NoCommonInstances { .. } => format!("--common: {e}"),
        CompareError::Param(p) => match (p, p.subject()) {
            (ParamError::Value(name, why), _) => format!("--param {name}: {why}"),
            (ParamError::Seeds(why), _) => format!("--seeds: {why}"),
            (_, Subject::Family) => format!("--family: {p}"),
            (_, _) => format!("--param: {p}"),
        },
        CompareError::Sweep(e) if matches!(**e, SweepError::Recipe { .. }) => {
            format!("--param: {e}")
        }
        CompareError::Solver(e) => match e {
            SolverError::Empty => format!("--solver: {e}"),
            SolverError::Missing {
                name,
                program,
                instead,
            } => {
                let instead = match instead {
                    Instead::Embedded { title, name } => {
                        format!("the embedded {title} runs as --solver {name}")
                    }
                    Instead::BuiltIn(_) => instead.to_string(),
                };
                format!(
                    "--solver {name}: the program {program} cannot be run (not on PATH?); {instead}"
                )
            }
            SolverError::Unavailable { name, backend } => {
                format!("--solver {name}: {}", SolveError::Unavailable(*backend))
            }
            SolverError::PbMissing {
                name,
                what,
                provider,
            } => format!("--solver {name}: {what} cannot be run ({provider})"),
            SolverError::Option { name, source } => format!("--solver {name}: {source}"),
            SolverError::Chain(_) => format!("--solver: {e}"),
            SolverError::Executable(_) => return None,
        },
        CompareError::Resume(ResumeError::OtherSweep { path, source }) => format!(
            "{} holds rows of another sweep: {source}; {FRESH}",
            path.display()
        ),
        CompareError::Csv(CsvError::Damaged { path, line, reason })
        | CompareError::Resume(ResumeError::Csv(CsvError::Damaged { path, line, reason })) => {
            format!(
                "{} line {line} is not a row of a queens-sat sweep ({reason}); {FRESH}",
                path.display()
            )
        }
        CompareError::Merge(m) => match m {
            ShardMergeError::NoFile(_) | ShardMergeError::Torn { .. } => format!("--merge: {m}"),
            _ => return None,
        },
        _ => return None,
    })
}

/// The environment variable that sets the seconds between two progress lines when stderr
/// is not a terminal (docs/commands.md).
const PROGRESS_SECONDS: &str = "QUEENS_SAT_PROGRESS_SECONDS";

/// The seconds between two progress lines: [`PROGRESS_SECONDS`] when it is a positive number
/// of seconds, else 5.
fn progress_interval() -> Duration {
    std::env::var(PROGRESS_SECONDS)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
        .map_or(Duration::from_secs(5), |s| {
            Duration::from_secs_f64(s.max(0.05))
        })
}

/// The progress of a sweep on stderr: a bar on a terminal; elsewhere (a log file, a pipe) a
/// plain line every few seconds ([`Lines`]).
#[derive(Default)]
struct Bar {
    bar: Option<ProgressBar>,
    lines: Option<Lines>,
}

/// What the plain progress lines report, shared with the thread that prints them.
#[derive(Default)]
struct Counts {
    total: u64,
    done: u64,
    resumed: u64,
    solved: u64,
    step: String,
}

/// Progress lines printed by a thread every interval, `compare: 12/40 runs, 3 solved, 00:41
/// elapsed (n=8 pairwise varisat run 2/3)`, until the sweep ends.
struct Lines {
    counts: std::sync::Arc<std::sync::Mutex<Counts>>,
    stop: std::sync::mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Lines {
    fn start(total: u64, done: u64, interval: Duration) -> Lines {
        use std::sync::{mpsc, Arc, Mutex};
        let counts = Arc::new(Mutex::new(Counts {
            total,
            done,
            resumed: done,
            ..Counts::default()
        }));
        let (stop, stopped) = mpsc::channel::<()>();
        let shared = Arc::clone(&counts);
        let started = std::time::Instant::now();
        let thread = std::thread::spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(interval) {
                let line = match shared.lock() {
                    Ok(c) => progress_line(&c, started.elapsed()),
                    Err(_) => return,
                };
                eprintln!("{line}");
            }
        });
        Lines {
            counts,
            stop,
            thread: Some(thread),
        }
    }

    fn update(&self, f: impl FnOnce(&mut Counts)) {
        if let Ok(mut c) = self.counts.lock() {
            f(&mut c);
        }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        let _ = self.stop.send(());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// One progress line: runs finished of all (those of a resumed CSV counted, and said), rows
/// answered SAT or UNSAT in this run, the time since the sweep started, and the step under way.
fn progress_line(c: &Counts, elapsed: Duration) -> String {
    let s = elapsed.as_secs();
    let clock = if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    };
    let resumed = if c.resumed > 0 {
        format!(" ({} resumed from the CSV)", c.resumed)
    } else {
        String::new()
    };
    let mut line = format!(
        "compare: {}/{} runs{resumed}, {} solved, {clock} elapsed",
        c.done, c.total, c.solved
    );
    if !c.step.is_empty() && c.done < c.total {
        line.push_str(&format!(" ({})", c.step));
    }
    line
}

impl SweepProgress for Bar {
    fn start(&mut self, total: u64, done: u64) {
        if std::io::stderr().is_terminal() {
            let b = ProgressBar::new(total);
            b.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} [{elapsed} elapsed, ~{eta} left] {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b.set_position(done);
            self.bar = Some(b);
        } else {
            self.lines = Some(Lines::start(total, done, progress_interval()));
        }
    }

    fn step(&mut self, what: &str) {
        if let Some(b) = &self.bar {
            b.set_message(what.to_string());
        }
        if let Some(l) = &self.lines {
            l.update(|c| c.step = what.to_string());
        }
    }

    fn row(&mut self, row: &experiment::Row) {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
        if let Some(l) = &self.lines {
            let solved = matches!(row.status.as_str(), "SAT" | "UNSAT");
            l.update(|c| {
                c.done += 1;
                c.solved += u64::from(solved);
            });
        }
    }

    fn finish(&mut self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        self.lines = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_line() {
        let c = Counts {
            total: 40,
            done: 12,
            resumed: 0,
            solved: 3,
            step: "n=8 pairwise varisat run 2/3".into(),
        };
        assert_eq!(
            progress_line(&c, Duration::from_secs(41)),
            "compare: 12/40 runs, 3 solved, 00:41 elapsed (n=8 pairwise varisat run 2/3)"
        );
        let done = Counts { done: 40, ..c };
        assert_eq!(
            progress_line(&done, Duration::from_secs(3723)),
            "compare: 40/40 runs, 3 solved, 1:02:03 elapsed"
        );
        let resumed = Counts {
            resumed: 10,
            done: 12,
            ..done
        };
        assert_eq!(
            progress_line(&resumed, Duration::from_secs(41)),
            "compare: 12/40 runs (10 resumed from the CSV), 3 solved, 00:41 elapsed (n=8 \
             pairwise varisat run 2/3)"
        );
    }
}
