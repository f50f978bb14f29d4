//! The solvers of a sweep (each run through [`crate::solve::runner`]): the embedded ones by
//! name ([`EMBEDDED`]) or any command ([`SolverSpec::named`]), and the facts recorded with its
//! results: solver versions and the machine.

use crate::solve::{Backend, SolveError, SolverCommand, SolverOption};
use std::path::{Path, PathBuf};

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
    #[error("--solver {name}: {}", SolveError::Unavailable(*.backend))]
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
    #[error("--solver: empty solver name")]
    Empty,
    /// An option of an embedded solver is malformed, unknown or out of range.
    #[error("--solver {name}: {source}")]
    Option {
        /// The solver as given.
        name: String,
        /// What is wrong ([`SolveError::Option`], or a backend without options).
        source: SolveError,
    },
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
    /// Not a program: the decision engine of the library ([`crate::count::Decision`]), run in
    /// this process on the instance's board, on one thread, within the sweep's time limit.
    pub search: bool,
    /// Not a program: the propagator engine of `solve --engine propagator` (the embedded
    /// CaDiCaL with the at-most-one of every line as an IPASIR-UP propagator), run in this
    /// process on the pairwise cell model of the instance, within the sweep's time limit.
    pub propagator: bool,
    /// The propagator's CaDiCaL options (the solver's name carries them too).
    pub options: Vec<SolverOption>,
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
            propagator: false,
            options: Vec::new(),
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
        if name.trim() == SEARCH {
            return Ok(SolverSpec::search());
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
        backend.check_options(&opts).map_err(option_error)?;
        if lib == PROPAGATOR {
            return Ok(SolverSpec::propagator(opts));
        }
        let program = match program {
            Some(p) => p.to_path_buf(),
            None => std::env::current_exe().map_err(SolverError::Executable)?,
        };
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
            version: Some(format!(
                "{} {}, embedded in {}",
                backend.name(),
                backend.version().unwrap_or_default(),
                super::tool_version()
            )),
            search: false,
            propagator: false,
            options: Vec::new(),
        })
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
            propagator: false,
            options: Vec::new(),
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
            propagator: true,
            options,
        }
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

/// The solver's version as it reports it (`--version`, first line), `Some("unknown")` when it
/// runs but says nothing (within [`crate::solve::VERSION_TIMEOUT`]), `None` when it cannot be
/// run at all.
pub fn solver_version(solver: &SolverSpec) -> Option<String> {
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
