//! The solvers of a sweep (each run through [`crate::solve::runner`]): the embedded ones by
//! name ([`EMBEDDED`]) or any command ([`SolverSpec::named`]), chains of solvers joined by `+`
//! (`search@60+exact`: [`Stage`], run by [`super::attempt::run_chain`]), and the facts recorded
//! with its results: solver versions and the machine.
use crate::solve::{Backend, SolveError, SolverCommand, SolverOption};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The embedded solvers as a sweep names them, and their backends. They run as processes of
/// this program, `queens-sat sat --backend ...`, so that every solver is timed the same way;
/// the version recorded is the one the linked library reports ([`Backend::version`]).
pub const EMBEDDED: [(&str, Backend); 3] = [
    ("varisat", Backend::Varisat),
    ("cadical-lib", Backend::Cadical),
    ("kissat-lib", Backend::Kissat),
];

/// Why a solver named for a sweep cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// An embedded solver this build lacks.
    #[error("solver {name}: {}", SolveError::Unavailable(*.backend))]
    Unavailable {
        /// The name given.
        name: String,
        /// Its backend.
        backend: Backend,
    },
    /// The program that runs the embedded solvers cannot be found.
    #[error("cannot find the queens-sat executable")]
    Executable(#[source] std::io::Error),
    /// An empty name.
    #[error("empty solver name")]
    Empty,
    /// A pseudo-Boolean solver whose program (or package) is not installed.
    #[error("solver {name}: {what} cannot be run ({provider})")]
    PbMissing {
        /// The name given.
        name: String,
        /// What was looked for.
        what: String,
        /// Where it comes from.
        provider: &'static str,
    },
    /// A solver program that cannot be run (not on PATH, or it does not start); the message
    /// names the embedded solvers that can take its place ([`missing`]).
    #[error("solver {name}: the program {program} cannot be run (not on PATH?); {instead}")]
    Missing {
        /// The solver as given.
        name: String,
        /// Its program.
        program: String,
        /// What to use instead.
        instead: Instead,
    },
    /// A chain of solvers that cannot be read ([`Stage`]).
    #[error(transparent)]
    Chain(Box<ChainError>),
    /// An option of an embedded solver is malformed, unknown or out of range.
    #[error("solver {name}: {source}")]
    Option {
        /// The solver as given.
        name: String,
        /// What is wrong ([`SolveError::Option`], or a backend without options).
        source: SolveError,
    },
}

/// What can take the place of a solver program that cannot be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Instead {
    /// The embedded solver of the same name.
    Embedded {
        /// Its title (`CaDiCaL`, `Kissat`).
        title: &'static str,
        /// Its name among a sweep's solvers (`cadical-lib`).
        name: &'static str,
    },
    /// The solvers built in, by name.
    BuiltIn(Vec<&'static str>),
}

impl std::fmt::Display for Instead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Instead::Embedded { title, name } => {
                write!(f, "the embedded {title} is the solver {name}")
            }
            Instead::BuiltIn(names) => write!(f, "the solvers built in are {}", names.join(", ")),
        }
    }
}

/// The name of the library's decision engine among a sweep's solvers ([`SolverSpec::search`]).
pub const SEARCH: &str = "search";

/// The name of the propagator engine among a sweep's solvers ([`SolverSpec::propagator`]).
pub const PROPAGATOR: &str = "propagator";

/// A solver: a program (with arguments) that takes a DIMACS file as its last argument, or the
/// library's decision engine ([`SolverSpec::search`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverSpec {
    /// The name used in results (`varisat`, `cadical`, `kissat -q`, ...).
    pub name: String,
    /// The program.
    pub program: PathBuf,
    /// Arguments before the file.
    pub args: Vec<String>,
    /// MiniSat style: the answer goes to a result file given after the input file.
    pub result_file: bool,
    /// The version to record, when the program cannot say it (`None`: ask `--version`).
    pub version: Option<String>,
    /// The decision engine of the library ([`crate::search::Decision`]), run on one thread as
    /// a child process of queens-sat (`program solve ... --engine search`) on the instance's
    /// board.
    pub search: bool,
    /// The search's worker threads (`search threads=2`; `None`: one, or the `--threads` of
    /// `solve`'s chain). Two or more make it the portfolio of a complete search and random
    /// restarts ([`crate::search::Decision::threads`]), which share the cores it is given:
    /// its CPU time is that of all of them.
    pub threads: Option<usize>,
    /// A pseudo-Boolean solver ([`PB_SOLVERS`]): it reads the instance's OPB form
    /// (`encode --format opb`) instead of the DIMACS file, and answers in the output format of
    /// the Pseudo-Boolean Competition.
    pub opb: bool,
    /// The propagator engine of `solve --engine propagator` (the embedded CaDiCaL with the
    /// at-most-one of every line as an IPASIR-UP propagator), run as a child process of
    /// queens-sat (`program solve ... --engine propagator`) on the pairwise cell model of the
    /// instance.
    pub propagator: bool,
    /// The propagator's CaDiCaL options (the solver's name carries them too).
    pub options: Vec<SolverOption>,
    /// A chain ([`Stage`]): its stages, run one after the other until one decides
    /// (empty for a single solver; the other fields then say nothing).
    pub stages: Vec<Stage>,
}

/// The pseudo-Boolean solvers a sweep runs on the OPB form, by name: `minisat+` (Debian's
/// minisat+), `sat4j-pb` (sat4j's PB solver, `java -jar /usr/share/java/org.sat4j.pb.jar`,
/// Debian's sat4j), `exact` (the Exact solver of the PyPI package `exact`) and `cp-sat`
/// (CP-SAT of the PyPI package `ortools`, one worker) and `lp` (the linear relaxation, solved
/// by HiGHS through the PyPI package `scipy`: UNSAT when it is infeasible, else UNKNOWN; see
/// [`SolverSpec::incomplete`]), the last three run by short Python programs with the
/// interpreter of `QUEENS_SAT_PYTHON`, or `python3`.
pub const PB_SOLVERS: [&str; 5] = ["minisat+", "sat4j-pb", "exact", "cp-sat", "lp"];

/// The name of the linear relaxation among the pseudo-Boolean solvers ([`PB_SOLVERS`]).
pub const LP: &str = "lp";

/// sat4j's PB solver, as Debian installs it.
pub const SAT4J_PB_JAR: &str = "/usr/share/java/org.sat4j.pb.jar";

/// The first part of the Python programs that run a PyPI solver on an OPB file: the reader of
/// the OPB that queens-sat writes, and the printing of the answer.
const OPB_READER: &str = include_str!("../solve/opb_read.py");

/// The Python program that runs Exact on an OPB file, after [`OPB_READER`].
const EXACT_PROGRAM: &str = include_str!("../solve/exact_opb.py");

/// The Python program that runs CP-SAT on an OPB file, after [`OPB_READER`].
const CPSAT_PROGRAM: &str = include_str!("../solve/cpsat_opb.py");

/// The Python program that solves the linear relaxation of an OPB file, after [`OPB_READER`].
const LP_PROGRAM: &str = include_str!("../solve/lp_opb.py");

/// A PB solver of a PyPI package, run as `python -c PROGRAM FILE` with the interpreter of
/// `QUEENS_SAT_PYTHON` (or `python3`): its version (`label` and the version of `package`), or
/// `None` when its `module` does not import there.
fn python_pb_solver(
    package: &str,
    module: &str,
    label: &str,
    program: &str,
) -> (String, Option<(Vec<String>, String)>) {
    let python = std::env::var("QUEENS_SAT_PYTHON").unwrap_or_else(|_| "python3".into());
    let check = format!(
        "import {module}, importlib.metadata as m; print('{label}', m.version('{package}'))"
    );
    let text = probe_within(&python, &["-c", &check], PYTHON_PROBE_TIMEOUT);
    let found = text
        .as_deref()
        .and_then(|t| t.lines().find(|l| l.starts_with(&format!("{label} "))))
        .map(|v| {
            (
                vec!["-c".into(), format!("{OPB_READER}\n{program}")],
                format!("{v} (PyPI)"),
            )
        });
    (python, found)
}

/// How long the import of a PyPI solver's module may take when it is probed: OR-Tools and
/// SciPy take seconds to import on a loaded machine, far more than a program's `--version`.
const PYTHON_PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs `program args` (at most [`crate::solve::VERSION_TIMEOUT`]) and returns what it printed
/// on both outputs, or `None` when it cannot be started or fails to finish.
fn probe(program: &str, args: &[&str]) -> Option<String> {
    probe_within(program, args, crate::solve::VERSION_TIMEOUT)
}

/// [`probe`] within `timeout`.
fn probe_within(program: &str, args: &[&str], timeout: std::time::Duration) -> Option<String> {
    let mut cmd = std::process::Command::new(program);
    cmd.args(args);
    let limits = crate::solve::process::Limits {
        timeout: Some(timeout),
        stdout_max: 1 << 16,
        stderr_tail: 4096,
        ..Default::default()
    };
    let fin = crate::solve::process::run_bounded(cmd, program, &limits).ok()?;
    if fin.timed_out() {
        return None;
    }
    let mut text = String::from_utf8_lossy(&fin.stdout).into_owned();
    text.push('\n');
    text.push_str(&String::from_utf8_lossy(&fin.stderr_tail));
    Some(text)
}

/// The pseudo-Boolean solver `name` of [`PB_SOLVERS`] with its version, or why it cannot be
/// run; `None` when `name` is not one of them.
fn pb_solver(name: &str) -> Option<Result<SolverSpec, SolverError>> {
    let spec = |program: &str, args: Vec<String>, version: String| SolverSpec {
        name: name.to_string(),
        program: PathBuf::from(program),
        args,
        result_file: false,
        version: Some(version),
        search: false,
        threads: None,
        opb: true,
        propagator: false,
        options: Vec::new(),
        stages: Vec::new(),
    };
    let missing = |what: &str, provider| SolverError::PbMissing {
        name: name.to_string(),
        what: what.to_string(),
        provider,
    };
    Some(match name {
        "minisat+" => {
            // minisat+ has no --version; the banner of its usage (-h) names it.
            let text = probe("minisat+", &["-h"]);
            match text {
                None => Err(missing(
                    "minisat+",
                    "Debian package minisat+: apt-get install minisat+",
                )),
                Some(t) => {
                    let v = t
                        .lines()
                        .map(str::trim)
                        .find(|l| l.starts_with("MiniSat+"))
                        .map(|l| l.split(',').next().unwrap_or(l).to_string())
                        .unwrap_or_else(|| "minisat+ (version unknown)".into());
                    Ok(spec("minisat+", Vec::new(), v))
                }
            }
        }
        "sat4j-pb" => {
            let jar_there = Path::new(SAT4J_PB_JAR).is_file();
            let java = probe("java", &["-version"]);
            match (java, jar_there) {
                (Some(_), true) => {
                    // sat4j prints its version (`c version 2.3.5...`) when it solves a file.
                    let v = tempfile::tempdir()
                        .ok()
                        .and_then(|dir| {
                            let f = dir.path().join("one.opb");
                            std::fs::write(&f, "* #variable= 1 #constraint= 1\n+1 x1 >= 1 ;\n")
                                .ok()?;
                            let text = probe("java", &["-jar", SAT4J_PB_JAR, f.to_str()?])?;
                            text.lines()
                                .find_map(|l| l.trim().strip_prefix("c version "))
                                .map(|v| v.trim().to_string())
                        })
                        .unwrap_or_else(|| "unknown".into());
                    Ok(spec(
                        "java",
                        vec!["-jar".into(), SAT4J_PB_JAR.into()],
                        format!("sat4j PB {v}"),
                    ))
                }
                _ => Err(missing(
                    &format!("java -jar {SAT4J_PB_JAR}"),
                    "Debian package sat4j: apt-get install sat4j",
                )),
            }
        }
        "exact" | "cp-sat" | LP => {
            let (package, module, label, program, provider) = match name {
                "exact" => (
                    "exact",
                    "exact",
                    "Exact",
                    EXACT_PROGRAM,
                    "PyPI package exact: pip install exact, in the environment of QUEENS_SAT_PYTHON",
                ),
                "cp-sat" => (
                    "ortools",
                    "ortools.sat.python.cp_model",
                    "CP-SAT",
                    CPSAT_PROGRAM,
                    "PyPI package ortools: pip install ortools, in the environment of QUEENS_SAT_PYTHON",
                ),
                _ => (
                    "scipy",
                    "scipy.optimize",
                    "HiGHS LP relaxation, SciPy",
                    LP_PROGRAM,
                    "PyPI package scipy: pip install scipy, in the environment of QUEENS_SAT_PYTHON",
                ),
            };
            match python_pb_solver(package, module, label, program) {
                (python, Some((args, version))) => Ok(spec(&python, args, version)),
                (python, None) => Err(missing(
                    &format!("the Python module {module} under {python}"),
                    provider,
                )),
            }
        }
        _ => return None,
    })
}

impl SolverSpec {
    /// A solver from its command line (`cadical`, `kissat --sat`, `minisat`): MiniSat is
    /// recognised by its program name and given a result file.
    pub fn command(command: &str) -> Option<SolverSpec> {
        let c = SolverCommand::parse(command).ok()?;
        Some(SolverSpec {
            name: command.trim().to_string(),
            program: c.program,
            args: c.args,
            result_file: c.result_file,
            version: None,
            search: false,
            threads: None,
            opb: false,
            propagator: false,
            options: Vec::new(),
            stages: Vec::new(),
        })
    }

    /// A solver as a sweep names it: `search` ([`SolverSpec::search`]), `propagator`
    /// ([`SolverSpec::propagator`], with CaDiCaL's options as `cadical-lib`), `varisat`,
    /// `cadical-lib` or `kissat-lib` ([`EMBEDDED`],
    /// run as `program sat [--backend B] [--solver-option=O]...`, where `program` is
    /// queens-sat: this process's own executable when `None`), or any command
    /// ([`SolverSpec::command`]). An embedded solver takes options after its name
    /// (`cadical-lib elim=0`) and `options` (which go to every embedded solver but varisat),
    /// checked against the solver's own; its name in the results carries them, and its version
    /// is the one its library reports.
    pub fn named(
        name: &str,
        program: Option<&Path>,
        options: &[SolverOption],
    ) -> Result<SolverSpec, SolverError> {
        let exe = || match program {
            Some(p) => Ok(p.to_path_buf()),
            None => std::env::current_exe().map_err(SolverError::Executable),
        };
        if let Some(stages) = parse_chain(name, program, options) {
            let stages = stages.map_err(|e| SolverError::Chain(Box::new(e)))?;
            return Ok(SolverSpec::chain(stages));
        }
        if name.split_whitespace().next() == Some(SEARCH) {
            let threads = search_threads(name).map_err(|source| SolverError::Option {
                name: name.trim().to_string(),
                source: SolveError::Option(source),
            })?;
            return Ok(SolverSpec {
                program: exe()?,
                ..SolverSpec::search().with_threads(threads)
            });
        }
        if let Some(pb) = pb_solver(name.trim()) {
            return pb;
        }
        let mut words = name.split_whitespace();
        let first = words.next().unwrap_or("");
        let (lib, backend) = match EMBEDDED.iter().find(|e| e.0 == first) {
            Some(&e) => e,
            None if first == PROPAGATOR => (PROPAGATOR, Backend::Cadical),
            None => return SolverSpec::command(name).ok_or(SolverError::Empty),
        };
        if !backend.is_available() {
            return Err(SolverError::Unavailable {
                name: lib.into(),
                backend,
            });
        }
        let option_error = |source| SolverError::Option {
            name: name.trim().to_string(),
            source,
        };
        let mut opts = words
            .map(|w| w.parse::<SolverOption>().map_err(SolveError::Option))
            .collect::<Result<Vec<_>, _>>()
            .map_err(option_error)?;
        if backend != Backend::Varisat {
            opts.extend(options.iter().cloned());
        }
        if lib == PROPAGATOR {
            // Without CaDiCaL built in, the propagator was refused above.
            #[cfg(feature = "cadical")]
            {
                let (_, cadical) = crate::solve::propagator::split_options(&opts)
                    .map_err(|e| option_error(SolveError::Option(e)))?;
                backend.check_options(&cadical).map_err(option_error)?;
            }
        } else {
            backend.check_options(&opts).map_err(option_error)?;
        }
        if lib == PROPAGATOR {
            return Ok(SolverSpec {
                program: exe()?,
                ..SolverSpec::propagator(opts)
            });
        }
        let program = exe()?;
        // `sat` defaults to varisat: its command line stays the one of earlier sweeps.
        let mut args = match backend {
            Backend::Varisat => vec!["sat".into()],
            _ => vec!["sat".into(), "--backend".into(), backend.name().into()],
        };
        args.extend(opts.iter().map(|o| format!("--solver-option={o}")));
        let label = if opts.is_empty() {
            lib.to_string()
        } else {
            format!("{lib} {}", crate::solve::options::options_field(&opts))
        };
        Ok(SolverSpec {
            name: label,
            program,
            args,
            result_file: false,
            version: Some({
                let defaults = backend.default_options_field();
                format!(
                    "{} {}{}, embedded in {}",
                    backend.name(),
                    backend.version().unwrap_or_default(),
                    if defaults.is_empty() {
                        String::new()
                    } else {
                        format!(" with {defaults} by default")
                    },
                    super::tool_version()
                )
            }),
            search: false,
            threads: None,
            opb: false,
            propagator: false,
            options: Vec::new(),
            stages: Vec::new(),
        })
    }

    /// An incomplete solver, which may answer UNKNOWN without failing: the linear relaxation
    /// ([`LP`]), which refutes a formula or decides nothing. Its UNKNOWN is a row's status
    /// `UNKNOWN` (no answer, as a time-out), where any other solver's is an error.
    pub fn incomplete(&self) -> bool {
        self.opb && self.name == LP
    }

    /// The decision engine of the library (`solve --engine search`), named [`SEARCH`] in
    /// results.
    pub fn search() -> SolverSpec {
        SolverSpec {
            name: SEARCH.into(),
            program: PathBuf::new(),
            args: Vec::new(),
            result_file: false,
            version: Some(format!("the search engine of {}", super::tool_version())),
            search: true,
            threads: None,
            opb: false,
            propagator: false,
            options: Vec::new(),
            stages: Vec::new(),
        }
    }

    /// The search on `threads` worker threads (`None`: one), named `search threads=K` in
    /// results when K is given.
    pub fn with_threads(self, threads: Option<usize>) -> SolverSpec {
        let name = match threads {
            Some(k) => format!("{SEARCH} threads={k}"),
            None => SEARCH.to_string(),
        };
        SolverSpec {
            name,
            threads,
            ..self
        }
    }

    /// The propagator engine (`solve --engine propagator`) with CaDiCaL's `options`, named
    /// [`PROPAGATOR`] in results (with the options after the name, as the embedded solvers'
    /// are); its version is CaDiCaL's, with the propagator's tool version.
    pub fn propagator(options: Vec<SolverOption>) -> SolverSpec {
        let name = if options.is_empty() {
            PROPAGATOR.to_string()
        } else {
            format!(
                "{PROPAGATOR} {}",
                crate::solve::options::options_field(&options)
            )
        };
        SolverSpec {
            name,
            program: PathBuf::new(),
            args: Vec::new(),
            result_file: false,
            version: Some(format!(
                "cadical {} with the queens propagator, embedded in {}",
                Backend::Cadical.version().unwrap_or_default(),
                super::tool_version()
            )),
            search: false,
            threads: None,
            opb: false,
            propagator: true,
            options,
            stages: Vec::new(),
        }
    }

    /// The chain of `stages` ([`Stage`]), named by them ([`chain_name`]).
    pub fn chain(stages: Vec<Stage>) -> SolverSpec {
        SolverSpec {
            name: chain_name(&stages),
            program: PathBuf::new(),
            args: Vec::new(),
            result_file: false,
            version: None,
            search: false,
            threads: None,
            opb: false,
            propagator: false,
            options: Vec::new(),
            stages,
        }
    }

    /// It writes a proof log of its refutations when asked (Exact: its option `proof-log`,
    /// in VeriPB's format 1.1, [`crate::proof::exact_to_veripb`]).
    pub fn logs_proofs(&self) -> bool {
        self.opb && self.name == "exact"
    }

    /// Its refutations can be certified ([`super::certificate`]): the search, the propagator
    /// and Exact, and a chain whose every stage is one of them.
    pub fn certifies(&self) -> bool {
        if self.stages.is_empty() {
            self.search || self.propagator || self.logs_proofs()
        } else {
            self.stages.iter().all(|s| s.solver.certifies())
        }
    }

    /// It solves boards, not formula files: the engines of queens-sat and chains (whose
    /// stages may be engines, and which write the forms each stage reads from the board).
    pub fn solves_boards(&self) -> bool {
        self.search || self.propagator || !self.stages.is_empty()
    }

    /// The command to run.
    pub fn to_command(&self) -> SolverCommand {
        SolverCommand {
            program: self.program.clone(),
            args: self.args.clone(),
            result_file: self.result_file,
        }
    }
}

/// The error for `solver`, a program that cannot be run ([`solver_version`] says `None`): it
/// names the embedded solver of the same name (`kissat-lib` for `kissat`, `cadical-lib` for
/// `cadical`; they run as processes of this program), or else the solvers built in.
pub fn missing(solver: &SolverSpec) -> SolverError {
    if let Some(stage) = solver
        .stages
        .iter()
        .find(|s| solver_version(&s.solver).is_none())
    {
        return missing(&stage.solver);
    }
    let program = solver.program.display().to_string();
    let base = solver
        .program
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let same = EMBEDDED
        .iter()
        .find(|(lib, backend)| backend.is_available() && lib.strip_suffix("-lib") == Some(&base));
    let instead = match same {
        Some((lib, backend)) => {
            let title = match backend {
                Backend::Cadical => "CaDiCaL",
                Backend::Kissat => "Kissat",
                Backend::Varisat => "varisat",
            };
            Instead::Embedded { title, name: lib }
        }
        None => {
            let built_in: Vec<&str> = EMBEDDED
                .iter()
                .filter(|(_, b)| b.is_available())
                .map(|(lib, _)| *lib)
                .chain([SEARCH])
                .chain(Backend::Cadical.is_available().then_some(PROPAGATOR))
                .collect();
            Instead::BuiltIn(built_in)
        }
    };
    SolverError::Missing {
        name: solver.name.clone(),
        program,
        instead,
    }
}

/// The solver's version as it reports it (`--version`, first line), `Some("unknown")` when it
/// runs but says nothing (within [`crate::solve::VERSION_TIMEOUT`]), `None` when it cannot be
/// run at all.
pub fn solver_version(solver: &SolverSpec) -> Option<String> {
    if !solver.stages.is_empty() {
        let versions: Option<Vec<String>> = solver
            .stages
            .iter()
            .map(|s| solver_version(&s.solver))
            .collect();
        return versions.map(|v| v.join(" + "));
    }
    if let Some(v) = &solver.version {
        return Some(v.clone());
    }
    crate::solve::solver_version(&solver.program)
}

/// CPU model, cores and memory of this machine, e.g. `Intel(R) Xeon(R) Processor, 2 cores, 24 GiB`.
pub fn machine_description() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemTotal"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| format!(", {} GiB", (kb + (1 << 19)) >> 20))
        .unwrap_or_default();
    format!("{cpu}, {cores} cores{mem}, {}", std::env::consts::OS)
}

/// The most stages of a chain.
pub const MAX_STAGES: usize = 8;

/// A stage of a chain: a solver and its budget of CPU time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The solver.
    pub solver: SolverSpec,
    /// Its CPU time (`None`: [`super::attempt::DEFAULT_STAGE_BUDGET`], or for the last stage what is left).
    pub budget: Option<Duration>,
}

/// Why a chain cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// A stage without a solver (a `+` or an `@` at the start).
    #[error("chain {0}: a stage names no solver")]
    EmptyStage(String),
    /// A budget that is not a positive number of seconds.
    #[error("chain {chain}: '{budget}' is not a budget in seconds of CPU time (a positive number, as in search@60)")]
    Budget {
        /// The chain as given.
        chain: String,
        /// The budget as given.
        budget: String,
    },
    /// Too many stages.
    #[error("chain {0}: more than {MAX_STAGES} stages")]
    TooLong(String),
    /// A stage that is no solver that can be run.
    #[error("chain {chain}: {source}")]
    Solver {
        /// The chain as given.
        chain: String,
        /// What is wrong with the stage.
        source: Box<SolverError>,
    },
}

/// The worker threads of `search threads=K` (the only option of the search; `None` when
/// none is given): K from 1 to [`MAX_SEARCH_THREADS`].
fn search_threads(name: &str) -> Result<Option<usize>, crate::solve::OptionError> {
    use crate::solve::OptionError;
    let mut threads = None;
    for word in name.split_whitespace().skip(1) {
        let o = word.parse::<SolverOption>()?;
        if o.name != "threads" {
            return Err(OptionError::Unknown(o.name));
        }
        let high = MAX_SEARCH_THREADS as i64;
        if !(1..=high).contains(&o.value) {
            return Err(OptionError::OutOfRange {
                name: o.name,
                value: o.value,
                low: 1,
                high,
            });
        }
        threads = Some(o.value as usize);
    }
    Ok(threads)
}

/// The most worker threads `search threads=K` takes (as `solve --threads`).
pub const MAX_SEARCH_THREADS: usize = 1024;

/// The stages of `text` when it is a chain (two stages or more, joined by `+`), else `None`.
/// The `+` of a solver's own name (`minisat+`) is kept: a `+` followed by `+`, `@` or the end
/// belongs to the name before it.
pub fn split(text: &str) -> Option<Vec<String>> {
    let mut stages: Vec<String> = Vec::new();
    for piece in text.split('+') {
        match stages.last_mut() {
            Some(last) if piece.is_empty() || piece.starts_with('@') => {
                last.push('+');
                last.push_str(piece);
            }
            _ => stages.push(piece.to_string()),
        }
    }
    // A piece appended to the one before, and then empty at the end of the text, was the
    // `+` of a name followed by nothing: nothing is lost by the joins above.
    (stages.len() > 1).then_some(stages)
}

/// The chain `text` (see [`split`]): each stage a solver as [`SolverSpec::named`] reads it,
/// with an optional budget `@SECONDS`. `None` when `text` is not a chain.
pub fn parse_chain(
    text: &str,
    program: Option<&Path>,
    options: &[SolverOption],
) -> Option<Result<Vec<Stage>, ChainError>> {
    let pieces = split(text)?;
    Some(parse_stages(text, &pieces, program, options))
}

fn parse_stages(
    text: &str,
    pieces: &[String],
    program: Option<&Path>,
    options: &[SolverOption],
) -> Result<Vec<Stage>, ChainError> {
    if pieces.len() > MAX_STAGES {
        return Err(ChainError::TooLong(text.to_string()));
    }
    pieces
        .iter()
        .map(|piece| {
            let (name, budget) = match piece.rsplit_once('@') {
                Some((name, b)) => {
                    let seconds = b
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s > 0.0 && *s <= super::MAX_TIMEOUT_S);
                    let Some(seconds) = seconds else {
                        return Err(ChainError::Budget {
                            chain: text.to_string(),
                            budget: b.to_string(),
                        });
                    };
                    (name, Some(Duration::from_secs_f64(seconds)))
                }
                None => (piece.as_str(), None),
            };
            if name.trim().is_empty() {
                return Err(ChainError::EmptyStage(text.to_string()));
            }
            let solver = SolverSpec::named(name.trim(), program, options).map_err(|source| {
                ChainError::Solver {
                    chain: text.to_string(),
                    source: Box::new(source),
                }
            })?;
            Ok(Stage { solver, budget })
        })
        .collect()
}

/// The name of a chain in results: its stages' names joined by `+`, with their budgets.
pub fn chain_name(stages: &[Stage]) -> String {
    stages
        .iter()
        .map(|s| match s.budget {
            Some(b) => format!("{}@{}", s.solver.name, b.as_secs_f64()),
            None => s.solver.name.clone(),
        })
        .collect::<Vec<_>>()
        .join("+")
}

#[cfg(test)]
mod chain_tests {
    use super::*;

    #[test]
    fn a_plus_of_a_solvers_name_stays_with_it() {
        let s = |t: &str| split(t).map(|v| v.join("|"));
        assert_eq!(s("search+exact"), Some("search|exact".into()));
        assert_eq!(s("search@60+exact@5"), Some("search@60|exact@5".into()));
        assert_eq!(s("minisat++exact"), Some("minisat+|exact".into()));
        assert_eq!(s("search+minisat+"), Some("search|minisat+".into()));
        assert_eq!(
            s("minisat+@30+cadical -q"),
            Some("minisat+@30|cadical -q".into())
        );
        assert_eq!(s("minisat+"), None);
        assert_eq!(s("cadical"), None);
    }

    #[test]
    fn budgets_are_read_and_bad_ones_refused() {
        let exe = Path::new("/bin/true");
        let stages = parse_chain("search@2.5+varisat", Some(exe), &[])
            .unwrap()
            .unwrap();
        assert_eq!(stages.len(), 2);
        assert_eq!(stages[0].budget, Some(Duration::from_millis(2500)));
        assert_eq!(stages[1].budget, None);
        assert_eq!(chain_name(&stages), "search@2.5+varisat");
        for bad in [
            "search@0+varisat",
            "search@x+varisat",
            "search@-1+varisat",
            "@5+varisat",
        ] {
            assert!(parse_chain(bad, Some(exe), &[]).unwrap().is_err(), "{bad}");
        }
        let stages = parse_chain("search threads=2@60+varisat", Some(exe), &[])
            .unwrap()
            .unwrap();
        assert_eq!(stages[0].solver.threads, Some(2));
        assert!(stages[0].solver.search);
        assert_eq!(chain_name(&stages), "search threads=2@60+varisat");
        let long = ["varisat"; MAX_STAGES + 1].join("+");
        assert!(matches!(
            parse_chain(&long, Some(exe), &[]).unwrap(),
            Err(ChainError::TooLong(_))
        ));
    }

    #[test]
    fn the_search_takes_its_threads_and_nothing_else() {
        let exe = Path::new("/bin/true");
        let named = |t: &str| SolverSpec::named(t, Some(exe), &[]);
        let one = named("search").unwrap();
        assert_eq!((one.name.as_str(), one.threads), ("search", None));
        let two = named("search  threads=2").unwrap();
        assert_eq!(
            (two.name.as_str(), two.threads),
            ("search threads=2", Some(2))
        );
        for bad in [
            "search threads=0",
            "search threads=1025",
            "search elim=0",
            "search threads",
        ] {
            let e = named(bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("solver {bad}:")), "{bad}: {e}");
        }
    }
}
