//! The commands of the `queens-sat-python` script (`queens_sat/_cli.py`), the program that
//! `compare` runs from Python for what the command line runs as child processes of
//! `queens-sat`: `sat FILE` for the embedded solvers ([`sat_main`]) and `solve ... --engine
//! search|propagator --format line` for the engines ([`solve_main`]). Each prints what
//! `queens-sat` prints for the same arguments; the solving is the library's.

use pyo3::prelude::*;
use queens_sat::command::solution::Format;
use queens_sat::command::solve::{
    solve, InProcess, NotWithSearch, OneSolve, SatSolver, SatTask, SearchSolve, SolveMode,
    SolveRequest, Written,
};
use queens_sat::instance::{Instance, Model};
use queens_sat::solve::SolverOption;
use std::io::Write;
use std::path::PathBuf;

/// The exit code of a bad argument, as `queens-sat`'s.
const EXIT_USAGE: u8 = 2;

/// The form of `solve` the script takes, for messages about its arguments.
const SOLVE_USAGE: &str = "usage: queens-sat-python solve (N | --instance FILE) --engine \
                           search|propagator --format line [--threads K] \
                           [--solver-option=NAME=VALUE]...";

/// The most worker threads `--threads` takes, as `queens-sat solve`'s.
const MAX_THREADS: usize = 1024;

/// `error` and its causes on one line, each cause left out when the message before it says it
/// already (as `queens-sat` prints its errors).
fn error_line(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        cause = c.source();
    }
    line
}

/// Solves the DIMACS file `path` with an embedded backend (with its `options`, `NAME=VALUE`)
/// and prints the answer in SAT-competition style on standard output: what `compare` runs as
/// its embedded solvers. Returns the exit code (10 SAT, 20 UNSAT, 2 for a bad option, 1 on
/// error after printing it on standard error).
#[pyfunction]
#[pyo3(signature = (path, backend, options=Vec::new()))]
pub fn sat_main(py: Python<'_>, path: PathBuf, backend: &str, options: Vec<String>) -> u8 {
    let backend = match super::parse_backend(Some(backend)) {
        Ok(b) => b.unwrap_or_default(),
        Err(e) => {
            eprintln!("error: {}", e.value(py));
            return EXIT_USAGE;
        }
    };
    let options = match options
        .iter()
        .map(|o| o.parse::<SolverOption>())
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: --solver-option: {e}");
            return EXIT_USAGE;
        }
    };
    let r = py.detach(|| {
        let mut out = queens_sat::output::stdout();
        let r = queens_sat::command::sat::sat(&path, backend, &options, &mut out);
        let _ = out.flush();
        r
    });
    match r {
        Ok(ending) => ending.exit_code(),
        Err(e) => {
            eprintln!("error: {}", error_line(&e));
            1
        }
    }
}

/// What solves in `solve`: the two engines `compare` runs as child processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    Search,
    Propagator,
}

/// The arguments of `solve`, as read, before the instance file is.
#[derive(Debug, Default, PartialEq)]
struct SolveArgs {
    n: Option<usize>,
    instance: Option<PathBuf>,
    engine: Option<Engine>,
    line: bool,
    threads: Option<usize>,
    options: Vec<SolverOption>,
}

impl SolveArgs {
    /// Reads `args` (after `solve`): `N`, `--instance FILE`, `--engine E`, `--format line`,
    /// `--threads K`, `--solver-option NAME=VALUE` (each flag also as `--flag=VALUE`). The
    /// message of an error says which argument is wrong.
    fn parse(args: &[String]) -> Result<SolveArgs, String> {
        let mut a = SolveArgs::default();
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            let Some(flag) = arg.strip_prefix("--") else {
                if a.n.is_some() {
                    return Err(format!("unexpected argument '{arg}': N is given once"));
                }
                a.n = Some(queens_sat::input::parse_n(arg)?);
                continue;
            };
            let (flag, value) = match flag.split_once('=') {
                Some((f, v)) => (f, v.to_string()),
                None => {
                    let known = ["instance", "engine", "format", "threads", "solver-option"];
                    if !known.contains(&flag) {
                        return Err(format!("unknown option '{arg}'"));
                    }
                    let v = rest
                        .next()
                        .ok_or_else(|| format!("--{flag} needs a value"))?;
                    (flag, v.clone())
                }
            };
            match flag {
                "instance" => a.instance = Some(PathBuf::from(value)),
                "engine" => {
                    a.engine = Some(match value.as_str() {
                        "search" => Engine::Search,
                        "propagator" => Engine::Propagator,
                        v => {
                            return Err(format!(
                                "--engine {v}: this program runs the engines search and \
                                 propagator (the embedded SAT solvers: `sat FILE`)"
                            ))
                        }
                    })
                }
                "format" => {
                    if value != "line" {
                        return Err(format!(
                            "--format {value}: this program writes the one-line form only \
                             (--format line)"
                        ));
                    }
                    a.line = true;
                }
                "threads" => {
                    let t = value
                        .parse::<usize>()
                        .ok()
                        .filter(|t| (1..=MAX_THREADS).contains(t))
                        .ok_or_else(|| {
                            format!("--threads {value}: give a number from 1 to {MAX_THREADS}")
                        })?;
                    a.threads = Some(t);
                }
                "solver-option" => a.options.push(
                    value
                        .parse::<SolverOption>()
                        .map_err(|e| format!("--solver-option: {e}"))?,
                ),
                _ => return Err(format!("unknown option '--{flag}'")),
            }
        }
        if a.n.is_none() && a.instance.is_none() {
            return Err("give the board size N or --instance FILE".into());
        }
        if a.engine.is_none() {
            return Err("give --engine search or --engine propagator".into());
        }
        if !a.line {
            return Err("give --format line (the only form this program writes)".into());
        }
        if a.engine == Some(Engine::Search) && !a.options.is_empty() {
            return Err(format!("--solver-option {NotWithSearch}"));
        }
        Ok(a)
    }

    /// The request `queens-sat solve` makes of the same arguments: the instance (the empty
    /// board of size N, or the instance file's, of the default model: the pairwise cell
    /// model) and the engine, writing the one-line form.
    fn request(self) -> Result<SolveRequest, String> {
        let instance = match &self.instance {
            None => {
                let n = self.n.expect("N or --instance, checked by parse");
                Instance::new(n, Model::default()).map_err(|e| error_line(&e))?
            }
            Some(path) => {
                let spec = queens_sat::family::read_instance_file(path, None)
                    .map_err(|e| error_line(&e))?;
                if let Some(n) = self.n.filter(|&n| n != spec.n) {
                    return Err(format!(
                        "n = {n} disagrees with the instance file {} (n = {}); leave N out",
                        path.display(),
                        spec.n
                    ));
                }
                spec.instance_with(Model::default(), &[], &[])
                    .map_err(|e| error_line(&e))?
            }
        };
        let written = Written::Out(Format::Line);
        let mode = match self.engine {
            Some(Engine::Search) => SolveMode::Search(SearchSolve {
                written,
                threads: self.threads,
                timeout: None,
                proof: None,
            }),
            // One solution: `queens-sat solve` takes --threads then but has no use for it.
            _ => SolveMode::Sat {
                task: SatTask::One(OneSolve {
                    written,
                    explain: false,
                    solver: SatSolver::InProcess(InProcess::Propagator {
                        options: self.options,
                    }),
                    timeout: None,
                }),
                force: false,
            },
        };
        Ok(SolveRequest { instance, mode })
    }
}

/// `solve (N | --instance FILE) --engine search|propagator --format line [--threads K]
/// [--solver-option=NAME=VALUE]...` (`args` after `solve`): what `compare` runs for its
/// solvers `search` and `propagator`. Prints what `queens-sat solve` prints for the same
/// arguments (the solution's one-line form, or a line starting `no solution`; the engine's
/// notes on standard error) and returns its exit code: 0 when solved, 2 after one line on
/// standard error for a bad argument or a failure. Ctrl-C stops the engine and raises
/// KeyboardInterrupt.
#[pyfunction]
pub fn solve_main(py: Python<'_>, args: Vec<String>) -> PyResult<u8> {
    let req = match SolveArgs::parse(&args).and_then(SolveArgs::request) {
        Ok(req) => req,
        Err(e) => {
            eprintln!("error: {e}; {SOLVE_USAGE}");
            return Ok(EXIT_USAGE);
        }
    };
    let r = super::interruptible(py, || {
        let mut out = queens_sat::output::stdout();
        let r = solve(&req, &mut out, &mut std::io::stderr(), &mut ());
        let _ = out.flush();
        r
    })?;
    Ok(match r {
        Ok(ending) => ending.exit_code(),
        Err(_) if queens_sat::output::stdout_reader_gone() => 0,
        Err(e) => {
            eprintln!("error: {}", error_line(&e));
            EXIT_USAGE
        }
    })
}
