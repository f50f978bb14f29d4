//! The Python module `queens_sat._queens_sat`: the queens-sat library as Python objects.
//!
//! A thin layer: every function here converts its arguments, calls one library function and
//! converts the answer back. Cells and columns are 1-based on the Python side, 0-based in the
//! library. Long calls run on a worker thread with the GIL released while the calling thread
//! watches for signals, so that Ctrl-C stops them with `KeyboardInterrupt`
//! ([`interruptible`]). The Python package (`queens_sat/__init__.py`) adds what needs Python
//! libraries: PySAT's `CNF`, NumPy arrays, pandas data frames. `compare` is in the module
//! `compare`; the commands of the `queens-sat-python` script, which `compare` runs as its
//! solvers' processes, in the module `cli`.

mod cli;
mod compare;

use pyo3::exceptions::{
    PyBufferError, PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyTimeoutError, PyValueError,
};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use queens_sat::board::{Cell, Geometry, Placement};
use queens_sat::cnf::{ClauseSink, Lit, Var};
use queens_sat::count::{Counter, Outcome};
use queens_sat::encode::catalogue::{self, ModelOption, ModelOptions};
use queens_sat::family::{self, Family, InstanceFileError, InstanceSpec};
use queens_sat::instance::{Formula, Instance as Core, Limits, Model};
use queens_sat::solve::{self, Backend, Budget, Enumeration, SolveError, Stop};
use queens_sat::symmetry_breaking::SymmetryBreaking;
use std::collections::VecDeque;
use std::os::raw::{c_int, c_void};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Duration;

/// How often a waiting call looks for signals (Ctrl-C).
const POLL: Duration = Duration::from_millis(50);

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The Python integer `v` (an int, or what `operator.index` takes, such as NumPy's integers)
/// as decimal text, of any size: the integer arguments are taken as Python objects and read
/// here, so that a negative or huge one raises ValueError with a message, not pyo3's
/// OverflowError. What is not an integer raises TypeError, as in Python's own functions.
fn int_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    let index = v.py().import("operator")?.getattr("index")?;
    Ok(index.call1((v,))?.str()?.to_string())
}

/// `text` cut to 40 characters, for messages about huge integers.
fn shortened(text: &str) -> String {
    if text.len() > 40 {
        format!("{}...", &text[..40])
    } else {
        text.to_string()
    }
}

/// A board size from Python, read by the library's parser of sizes: its messages (`n must be
/// at least 1`, `n must be a positive integer, got '-3'`, `n = ... is too large`) as ValueError.
fn size_arg(v: &Bound<'_, PyAny>) -> PyResult<usize> {
    queens_sat::input::parse_n(&int_text(v)?).map_err(value_error)
}

/// A count (0 or more) from Python, named `what` in the ValueError of a negative or too large
/// one.
fn count_arg(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let text = int_text(v)?;
    text.parse::<u64>().map_err(|_| {
        if text.starts_with('-') {
            value_error(format!("{what} = {text}: it counts, give 0 or more"))
        } else {
            value_error(format!("{what} = {} is too large", shortened(&text)))
        }
    })
}

/// [`count_arg`] as a `usize`, for an optional argument.
fn opt_count(v: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<usize>> {
    v.map(|v| {
        let c = count_arg(v, what)?;
        usize::try_from(c).map_err(|_| value_error(format!("{what} = {c} is too large")))
    })
    .transpose()
}

/// A whole number from Python that must fit 64 bits (a variable, a literal, a column): `None`
/// when it does not (the caller says what is wrong with it).
fn int_arg(v: &Bound<'_, PyAny>) -> PyResult<(Option<i64>, String)> {
    // The common case without a call into Python.
    if let Ok(i) = v.extract::<i64>() {
        return Ok((Some(i), i.to_string()));
    }
    let text = int_text(v)?;
    Ok((text.parse::<i64>().ok(), shortened(&text)))
}

/// A solve error as a Python exception: `TimeoutError` for a time limit, `KeyboardInterrupt`
/// for an interruption, `ValueError` for a bad instance, `RuntimeError` otherwise.
fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::Stopped(Stop::Timeout(_)) => PyTimeoutError::new_err(e.to_string()),
        SolveError::Stopped(Stop::Interrupted) => PyKeyboardInterrupt::new_err(e.to_string()),
        SolveError::Instance(_) | SolveError::Unavailable(_) => value_error(e),
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

/// An instance file error: `OSError` when the file cannot be read, `ValueError` when it does
/// not parse.
fn file_error(e: InstanceFileError) -> PyErr {
    match e {
        InstanceFileError::Read(r) => PyOSError::new_err(r.to_string()),
        e => value_error(e),
    }
}

/// Runs `work` on a worker thread with the GIL released; the calling thread checks for
/// signals meanwhile. On Ctrl-C (or any exception a signal handler raises) the library's
/// interrupt flag stops the work ([`solve::kill_running`]: solvers and the counter look at
/// it), the worker is waited for, the flag is cleared and the exception is raised.
fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        s.spawn(move || {
            let _ = tx.send(work());
        });
        let mut rx = Some(rx);
        loop {
            let r = rx.take().expect("receiver present");
            let (r, got) = py.detach(move || {
                let got = r.recv_timeout(POLL);
                (r, got)
            });
            match got {
                Ok(v) => return Ok(v),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the worker thread panicked"))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = py.check_signals() {
                solve::kill_running();
                let _ = py.detach(move || r.recv());
                solve::clear_interrupted();
                return Err(e);
            }
            rx = Some(r);
        }
    })
}

/// A list of cells from Python: (row, column) pairs of integers of any size.
type PyCells<'py> = Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;

/// 1-based cells from Python to 0-based ones: a row or column below 1 is refused, and one
/// beyond any board (the board's own bound is checked by the library).
fn cells(v: Option<PyCells<'_>>, what: &str) -> PyResult<Vec<Cell>> {
    v.unwrap_or_default()
        .iter()
        .map(|(r, c)| {
            let ((r, rt), (c, ct)) = (int_arg(r)?, int_arg(c)?);
            // Below 1, however large a negative number.
            let below_one = |v: Option<i64>, text: &str| v.map_or(text.starts_with('-'), |v| v < 1);
            if below_one(r, &rt) || below_one(c, &ct) {
                return Err(value_error(format!(
                    "{what} cell ({rt},{ct}): rows and columns are 1-based"
                )));
            }
            match (r, c) {
                (Some(r), Some(c)) => Ok(((r - 1) as usize, (c - 1) as usize)),
                _ => Err(value_error(format!(
                    "{what} cell ({rt},{ct}) is outside every board"
                ))),
            }
        })
        .collect()
}

/// A board from Python (1-based columns, row by row, integers of any size).
fn placement(board: Vec<Bound<'_, PyAny>>) -> PyResult<Placement> {
    let cols = board
        .iter()
        .enumerate()
        .map(|(r, c)| {
            let (c, text) = int_arg(c)?;
            match c {
                Some(c) if (1..=u32::MAX as i64).contains(&c) => Ok((c - 1) as u32),
                _ => Err(value_error(format!(
                    "row {}: column {text} is not a 1-based column",
                    r + 1
                ))),
            }
        })
        .collect::<PyResult<Vec<u32>>>()?;
    Ok(Placement::new(cols))
}

fn columns(p: &Placement) -> Vec<u32> {
    p.cols().iter().map(|c| c + 1).collect()
}

fn parse_time_limit(t: Option<f64>) -> PyResult<Option<Duration>> {
    match t {
        None => Ok(None),
        Some(t) if t.is_finite() && t >= 0.0 => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(value_error(format!(
            "time_limit = {t}: give a number of seconds, at least 0"
        ))),
    }
}

fn parse_backend(b: Option<&str>) -> PyResult<Option<Backend>> {
    b.map(|b| {
        b.parse::<Backend>().map_err(|_| {
            value_error(format!(
                "unknown backend '{b}' (backends: {})",
                Backend::NAMES.join(", ")
            ))
        })
    })
    .transpose()
}

/// The options that choose the model, as `Instance(...)` takes them.
struct ModelArgs<'a> {
    model: &'a str,
    amo: Option<&'a str>,
    column_alo: bool,
    domain: Option<&'a str>,
    constraints: Option<&'a str>,
    redundant: Option<&'a str>,
}

impl ModelArgs<'_> {
    /// The model, as the command line's `--model`, `--amo`, `--column-alo`, `--domain` and
    /// `--constraints` choose it: options of the other model are refused.
    fn model(&self) -> PyResult<Model> {
        let entry = catalogue::entry(self.model).map_err(value_error)?;
        let given: Vec<ModelOption> = [
            (self.column_alo, ModelOption::ColumnAlo),
            (self.domain.is_some(), ModelOption::Domain),
            (self.constraints.is_some(), ModelOption::Constraints),
        ]
        .iter()
        .filter(|g| g.0)
        .map(|g| g.1)
        .collect();
        catalogue::refuse_foreign_options(entry, &given).map_err(value_error)?;
        let options = ModelOptions {
            amo: self
                .amo
                .unwrap_or("pairwise")
                .parse()
                .map_err(value_error)?,
            column_alo: self.column_alo,
            domain: self
                .domain
                .map(str::parse)
                .transpose()
                .map_err(value_error)?
                .unwrap_or_default(),
            constraints: self
                .constraints
                .map(str::parse)
                .transpose()
                .map_err(value_error)?
                .unwrap_or_default(),
            redundant: self
                .redundant
                .map(str::parse)
                .transpose()
                .map_err(value_error)?
                .unwrap_or_default(),
        };
        Model::new(entry, &options).map_err(value_error)
    }
}

fn parse_symmetry(s: Option<&str>) -> PyResult<SymmetryBreaking> {
    s.map_or(Ok(SymmetryBreaking::None), |s| {
        s.parse().map_err(value_error)
    })
}

/// Collects the clauses flat, DIMACS style: the literals of each clause, then 0.
#[derive(Default)]
struct Flat {
    lits: Vec<i32>,
    clauses: usize,
}

impl ClauseSink for Flat {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        self.lits.reserve(clause.len() + 1);
        for l in clause {
            self.lits.push(l.to_dimacs() as i32);
        }
        self.lits.push(0);
        self.clauses += 1;
        Ok(())
    }
}

/// Builds the clauses as a Python list of lists while the instance encodes them: the outer
/// list made at its exact size, each literal's int object made once and shared by every
/// clause that holds it (a formula has 2 nv distinct literals and many more occurrences).
struct ListSink<'py> {
    py: Python<'py>,
    outer: Bound<'py, PyAny>,
    len: usize,
    next: usize,
    ints: Vec<Option<Bound<'py, PyAny>>>,
    error: Option<PyErr>,
}

impl<'py> ListSink<'py> {
    fn new(py: Python<'py>, len: usize, vars: usize) -> PyResult<Self> {
        // SAFETY: PyList_New returns a new reference or NULL with an exception set; its
        // slots are filled by `add_clause` and those left over removed by `finish`.
        let outer =
            unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyList_New(len as ffi::Py_ssize_t))? };
        Ok(ListSink {
            py,
            outer,
            len,
            next: 0,
            ints: vec![None; 2 * vars],
            error: None,
        })
    }

    fn int(&mut self, l: Lit) -> PyResult<Bound<'py, PyAny>> {
        use pyo3::IntoPyObjectExt;
        let code = l.code();
        if code >= self.ints.len() {
            self.ints.resize(code + 1, None);
        }
        match &self.ints[code] {
            Some(i) => Ok(i.clone()),
            None => {
                let i = (l.to_dimacs() as i64).into_bound_py_any(self.py)?;
                self.ints[code] = Some(i.clone());
                Ok(i)
            }
        }
    }

    fn finish(self) -> PyResult<Bound<'py, PyAny>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.next < self.len {
            // SAFETY: deletes the slots never filled (NULL), which the list must not keep.
            let r = unsafe {
                ffi::PyList_SetSlice(
                    self.outer.as_ptr(),
                    self.next as ffi::Py_ssize_t,
                    self.len as ffi::Py_ssize_t,
                    std::ptr::null_mut(),
                )
            };
            if r != 0 {
                return Err(PyErr::fetch(self.py));
            }
        }
        Ok(self.outer)
    }
}

impl ClauseSink for ListSink<'_> {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        if self.error.is_some() {
            return Ok(());
        }
        if self.next >= self.len {
            self.error = Some(PyRuntimeError::new_err(
                "the instance emitted more clauses than its size says",
            ));
            return Ok(());
        }
        let items = match clause
            .iter()
            .map(|&l| self.int(l))
            .collect::<PyResult<Vec<_>>>()
            .and_then(|items| PyList::new(self.py, items))
        {
            Ok(list) => list,
            Err(e) => {
                self.error = Some(e);
                return Ok(());
            }
        };
        // SAFETY: `next` is within the list's length; PyList_SetItem steals the reference
        // `into_ptr` gives up and fills an empty slot.
        let r = unsafe {
            ffi::PyList_SetItem(
                self.outer.as_ptr(),
                self.next as ffi::Py_ssize_t,
                items.into_ptr(),
            )
        };
        if r != 0 {
            self.error = Some(PyErr::fetch(self.py));
        }
        self.next += 1;
        Ok(())
    }
}

/// An n-queens SAT instance: board size, model and encoding, pre-placed queens and forbidden
/// cells, symmetry breaking. Cells and columns are 1-based; variables are DIMACS numbers (the
/// cell of row r, column c is (r - 1) * n + c; auxiliary variables follow).
#[pyclass(module = "queens_sat", name = "Instance", frozen)]
struct Instance {
    core: Core,
    spec: Option<InstanceSpec>,
}

impl Instance {
    fn build(
        spec: Option<InstanceSpec>,
        n: usize,
        args: &ModelArgs,
        board: Option<&str>,
        place: Option<PyCells<'_>>,
        forbid: Option<PyCells<'_>>,
        symmetry_breaking: Option<&str>,
    ) -> PyResult<Instance> {
        let model = args.model()?;
        let place = cells(place, "placed")?;
        let forbid = cells(forbid, "forbidden")?;
        let mode = parse_symmetry(symmetry_breaking)?;
        let core = match &spec {
            Some(spec) => {
                if board.is_some() {
                    return Err(value_error(
                        "the board of an instance file is the file's: leave out board",
                    ));
                }
                spec.instance_with(model, &place, &forbid)
            }
            None => {
                let geometry: Geometry = board
                    .unwrap_or("square")
                    .parse()
                    .map_err(|e: String| value_error(e))?;
                if n == 0 {
                    return Err(value_error("n must be at least 1"));
                }
                Core::new_on(n, model, geometry).and_then(|i| i.with_cells(&place, &forbid))
            }
        }
        .map_err(value_error)?;
        Ok(Instance {
            core: core.with_symmetry_breaking(mode),
            spec,
        })
    }

    fn flat(&self, py: Python<'_>) -> PyResult<Flat> {
        self.core
            .check_size(Limits::IN_MEMORY)
            .map_err(value_error)?;
        let core = &self.core;
        let mut flat = Flat::default();
        let size = core.size();
        flat.lits
            .reserve((size.literals + size.clauses).min(1 << 32) as usize);
        py.detach(|| queens_sat::instance::encode(core, &mut flat))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(flat)
    }

    fn enumeration(
        &self,
        time_limit: Option<f64>,
        backend: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Enumeration> {
        let threads = opt_count(threads, "threads")?;
        self.core
            .check_size(Limits::IN_MEMORY)
            .map_err(value_error)?;
        let mut e = Enumeration::new(self.core.clone()).time_limit(parse_time_limit(time_limit)?);
        if let Some(b) = parse_backend(backend)? {
            e = e.backend(b);
        }
        if let Some(t) = threads {
            e = e.threads(t);
        }
        Ok(e)
    }
}

#[pymethods]
impl Instance {
    /// Instance(n, model="cells", *, amo="pairwise", column_alo=False, domain=None,
    /// constraints=None, redundant=None, place=None, forbid=None, board="square",
    /// symmetry_breaking=None)
    ///
    /// The n x n board under `model` ("cells" or "columns") with its encoding: `amo` the
    /// at-most-one encoding (one name, or per line kind as "rows=sequential,diagonals=product"),
    /// `column_alo` the redundant column clauses (cells), `domain` and `constraints` the column
    /// model's encodings, `redundant` the redundant global constraints added to either model
    /// ("permutation,diagonals,sums,moments" or part of it, as `encode --redundant`). `place`
    /// and `forbid` are 1-based (row, column) cells, `board` is
    /// "square" or "toroidal", `symmetry_breaking` "none", "lex-leader" or "rotations".
    /// Raises ValueError for anything the command line would refuse.
    #[new]
    #[pyo3(signature = (n, model="cells", *, amo=None, column_alo=false, domain=None, constraints=None, redundant=None, place=None, forbid=None, board=None, symmetry_breaking=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        n: &Bound<'_, PyAny>,
        model: &str,
        amo: Option<&str>,
        column_alo: bool,
        domain: Option<&str>,
        constraints: Option<&str>,
        redundant: Option<&str>,
        place: Option<PyCells<'_>>,
        forbid: Option<PyCells<'_>>,
        board: Option<&str>,
        symmetry_breaking: Option<&str>,
    ) -> PyResult<Instance> {
        let n = size_arg(n)?;
        let args = ModelArgs {
            model,
            amo,
            column_alo,
            domain,
            constraints,
            redundant,
        };
        Instance::build(None, n, &args, board, place, forbid, symmetry_breaking)
    }

    /// Instance.from_file(path, model="cells", *, ..., diagonals=None)
    ///
    /// The instance of an instance file, or of one of the literature's parameter files (the
    /// Excluded Diagonals Problem's, Essence' n-Queens Completion), under `model` (the same
    /// options as `Instance`). `diagonals` takes the first D diagonals of an Excluded
    /// Diagonals file. Raises OSError when the file cannot be read, ValueError when it does
    /// not parse.
    #[staticmethod]
    #[pyo3(signature = (path, model="cells", *, amo=None, column_alo=false, domain=None, constraints=None, redundant=None, place=None, forbid=None, symmetry_breaking=None, diagonals=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_file(
        py: Python<'_>,
        path: PathBuf,
        model: &str,
        amo: Option<&str>,
        column_alo: bool,
        domain: Option<&str>,
        constraints: Option<&str>,
        redundant: Option<&str>,
        place: Option<PyCells<'_>>,
        forbid: Option<PyCells<'_>>,
        symmetry_breaking: Option<&str>,
        diagonals: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instance> {
        let diagonals = opt_count(diagonals, "diagonals")?;
        let spec = py
            .detach(|| family::read_instance_file(&path, diagonals))
            .map_err(file_error)?;
        let args = ModelArgs {
            model,
            amo,
            column_alo,
            domain,
            constraints,
            redundant,
        };
        let n = spec.n;
        Instance::build(Some(spec), n, &args, None, place, forbid, symmetry_breaking)
    }

    /// Instance.generate(family, n, seed=1, params=None, model="cells", *, ...)
    ///
    /// An instance drawn from a family ("completion", "blocked", "excluded-diagonals",
    /// "toroidal") with `seed`: the same family, parameters and seed give the same instance
    /// everywhere. `params` is a dict of the family's parameters, as the instance file format
    /// and `compare --param` name them: completion k (and mode "solution" or "random"), blocked
    /// p or b, excluded-diagonals d (and min-free), toroidal p or b (optional).
    #[staticmethod]
    #[pyo3(signature = (family, n, seed=None, params=None, model="cells", *, amo=None, column_alo=false, domain=None, constraints=None, redundant=None, symmetry_breaking=None))]
    #[allow(clippy::too_many_arguments)]
    fn generate(
        family: &str,
        n: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
        model: &str,
        amo: Option<&str>,
        column_alo: bool,
        domain: Option<&str>,
        constraints: Option<&str>,
        redundant: Option<&str>,
        symmetry_breaking: Option<&str>,
    ) -> PyResult<Instance> {
        let fam: Family = family.parse().map_err(value_error)?;
        let n = size_arg(n)?;
        let seed = seed.map_or(Ok(1), |s| count_arg(s, "seed"))?;
        let mut pairs = Vec::new();
        if let Some(d) = params {
            for (k, v) in d.iter() {
                let v = if v.is_instance_of::<pyo3::types::PyBool>() {
                    return Err(value_error(format!(
                        "parameter {k}: give a number or a name"
                    )));
                } else {
                    v.str()?.to_string()
                };
                pairs.push((k.str()?.to_string(), v));
            }
        }
        let recipe = family::Recipe::from_parameters(fam, &pairs).map_err(value_error)?;
        let spec = family::generate(n, &recipe, seed).map_err(value_error)?;
        let args = ModelArgs {
            model,
            amo,
            column_alo,
            domain,
            constraints,
            redundant,
        };
        Instance::build(Some(spec), n, &args, None, None, None, symmetry_breaking)
    }

    /// The board size.
    #[getter]
    fn n(&self) -> usize {
        self.core.n()
    }

    /// The number of variables (DIMACS `p cnf` count).
    #[getter]
    fn nv(&self) -> u64 {
        self.core.size().vars
    }

    /// The number of clauses.
    #[getter]
    fn num_clauses(&self) -> u64 {
        self.core.size().clauses
    }

    /// Variables, clauses and literal occurrences, exact, known before encoding.
    #[getter]
    fn size<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.core.size();
        let d = PyDict::new(py);
        d.set_item("vars", s.vars)?;
        d.set_item("clauses", s.clauses)?;
        d.set_item("literals", s.literals)?;
        Ok(d)
    }

    /// The model's short name, as reports and the CSV of `compare` give it ("pairwise",
    /// "sequential+column-alo", "columns-order", ...).
    #[getter]
    fn model(&self) -> String {
        self.core.name()
    }

    /// A one-line description of the model and its encodings.
    fn describe(&self) -> String {
        self.core.describe()
    }

    /// The board's geometry: "square" or "toroidal".
    #[getter]
    fn board(&self) -> &'static str {
        self.core.geometry().name()
    }

    /// Where the instance comes from, for a generated or read instance ("blocked n=20
    /// p=0.85 seed=7"), else None.
    #[getter]
    fn source(&self) -> Option<String> {
        self.spec.as_ref().map(|s| s.describe())
    }

    /// The pre-placed queens, 1-based (row, column).
    #[getter]
    fn placed(&self) -> Vec<(usize, usize)> {
        self.core
            .placed()
            .iter()
            .map(|&(r, c)| (r + 1, c + 1))
            .collect()
    }

    /// The forbidden cells, 1-based (row, column).
    #[getter]
    fn forbidden(&self) -> Vec<(usize, usize)> {
        self.core
            .forbidden()
            .iter()
            .map(|&(r, c)| (r + 1, c + 1))
            .collect()
    }

    /// The clauses, a list of lists of DIMACS literals (the GIL is released while encoding).
    #[getter]
    fn clauses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.core
            .check_size(Limits::IN_MEMORY)
            .map_err(value_error)?;
        let size = self.core.size();
        // Millions of new lists would start the cyclic garbage collector again and again,
        // each pass over every list made so far; none of them can be in a cycle.
        let gc = py.import("gc")?;
        let enabled = gc.call_method0("isenabled")?.is_truthy()?;
        if enabled {
            gc.call_method0("disable")?;
        }
        let built =
            ListSink::new(py, size.clauses as usize, size.vars as usize).and_then(|mut sink| {
                queens_sat::instance::encode(&self.core, &mut sink)
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
                sink.finish()
            });
        if enabled {
            gc.call_method0("enable")?;
        }
        built
    }

    /// The clauses as one flat buffer of 32-bit DIMACS literals, each clause ended by 0, read
    /// without copying through the buffer protocol (`memoryview`, `numpy.frombuffer`).
    fn clause_buffer(&self, py: Python<'_>) -> PyResult<ClauseBuffer> {
        let flat = self.flat(py)?;
        Ok(ClauseBuffer::new(flat.lits, flat.clauses))
    }

    /// The clauses as a flat NumPy int32 array of DIMACS literals, each clause ended by 0,
    /// sharing the memory of `clause_buffer()` (no copy). Needs NumPy.
    fn clauses_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let numpy = py.import("numpy").map_err(|e| {
            pyo3::exceptions::PyImportError::new_err(format!(
                "clauses_array() needs NumPy (pip install numpy): {e}"
            ))
        })?;
        let buf = Bound::new(py, self.clause_buffer(py)?)?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", "int32")?;
        numpy.getattr("frombuffer")?.call((buf,), Some(&kwargs))
    }

    /// The formula as a `pysat.formula.CNF` (needs python-sat: `pip install python-sat`),
    /// its `nv` the instance's variables (auxiliaries included). The clause lists are handed
    /// to the CNF object as they are, not copied again.
    fn to_pysat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let formula = py.import("pysat.formula").map_err(|e| {
            pyo3::exceptions::PyImportError::new_err(format!(
                "to_pysat() needs PySAT (pip install python-sat): {e}"
            ))
        })?;
        let cnf = formula.getattr("CNF")?.call0()?;
        cnf.setattr("clauses", self.clauses(py)?)?;
        cnf.setattr("nv", self.core.size().vars)?;
        Ok(cnf)
    }

    /// The projection: the variables whose values determine the board (DIMACS numbers), so
    /// that models projected on them are one-to-one with the solutions.
    #[getter]
    fn projection(&self) -> Vec<usize> {
        self.core
            .projection()
            .iter()
            .map(|v| v.index() + 1)
            .collect()
    }

    /// The name of a variable (DIMACS number): "q(2,3)" for a cell, an encoding's name for an
    /// auxiliary.
    fn name(&self, var: &Bound<'_, PyAny>) -> PyResult<String> {
        let nv = self.core.size().vars as i64;
        let (var, text) = int_arg(var)?;
        match var {
            Some(var) if (1..=nv).contains(&var) => {
                Ok(self.core.var_name(Var::from_index(var as usize - 1)))
            }
            _ => Err(value_error(format!("variable {text} is outside 1..={nv}"))),
        }
    }

    /// The board of a model: `model` is a list of DIMACS literals (as PySAT's `get_model()`
    /// gives it; variables not listed are false). Returns the 1-based column of each row's
    /// queen, as `--format line` prints it. Raises ValueError when the model is not a board
    /// of the model's (no queen in a row, say); attacks are not checked here: see `check`.
    fn decode(&self, model: Vec<Bound<'_, PyAny>>) -> PyResult<Vec<u32>> {
        let nv = self.core.size().vars as usize;
        let mut values = vec![false; nv];
        for l in &model {
            let (l, text) = int_arg(l)?;
            let l = l.ok_or_else(|| {
                value_error(format!("literal {text} is not a literal of {nv} variables"))
            })?;
            if l == 0 {
                continue;
            }
            let i = (l.unsigned_abs() - 1) as usize;
            if let Some(v) = values.get_mut(i) {
                *v = l > 0;
            }
        }
        let p = self.core.decode(&values).map_err(value_error)?;
        Ok(columns(&p))
    }

    /// None when `board` (1-based columns, row by row) is a solution of the instance (with
    /// every pre-placed queen and no forbidden cell), else what is wrong.
    fn check(&self, board: Vec<Bound<'_, PyAny>>) -> PyResult<Option<String>> {
        let p = placement(board)?;
        Ok(self.core.check_board(&p).err().map(|e| e.to_string()))
    }

    /// Writes the DIMACS file (with the header's comments: the variable map, the projection
    /// as `c p show`) to `path`, whole or not at all. Raises OSError when it cannot be written.
    fn to_dimacs(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        self.core.check_size(Limits::STREAM).map_err(value_error)?;
        let core = &self.core;
        py.detach(|| {
            queens_sat::output::write_output(Some(&path), |w| {
                core.write_dimacs(w, Some("python")).map(|_| ())
            })
        })
        .map_err(|e| PyOSError::new_err(e.to_string()))
    }

    /// The DIMACS text of the formula.
    fn dimacs(&self, py: Python<'_>) -> PyResult<String> {
        self.core
            .check_size(Limits::IN_MEMORY)
            .map_err(value_error)?;
        let core = &self.core;
        let bytes = py
            .detach(|| core.write_dimacs(Vec::new(), Some("python")))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// solve(time_limit=None, backend=None) -> list[int] | None
    ///
    /// One solution (1-based columns, checked against the instance), or None when there is
    /// none, by the embedded solver ("cadical" or "varisat"; the library's default when None).
    /// Raises TimeoutError when `time_limit` seconds pass first; Ctrl-C raises
    /// KeyboardInterrupt. The GIL is released meanwhile.
    #[pyo3(signature = (time_limit=None, backend=None))]
    fn solve(
        &self,
        py: Python<'_>,
        time_limit: Option<f64>,
        backend: Option<&str>,
    ) -> PyResult<Option<Vec<u32>>> {
        self.core
            .check_size(Limits::IN_MEMORY)
            .map_err(value_error)?;
        let limit = parse_time_limit(time_limit)?;
        let backend = parse_backend(backend)?.unwrap_or_else(|| Backend::for_formula(&self.core));
        // varisat sees the interrupt flag only under a time limit (through the proof it then
        // writes): without one, a limit of a year lets Ctrl-C stop it.
        let limit = match (limit, backend) {
            (None, Backend::Varisat) => Some(Duration::from_secs(365 * 24 * 3600)),
            (l, _) => l,
        };
        let core = &self.core;
        let r = interruptible(py, || {
            solve::solve_model_within(core, backend, Budget::from_limit(limit))
        })?
        .map_err(solve_error)?;
        Ok(r.map(|m| columns(&m.placement)))
    }

    /// solutions(time_limit=None, backend=None, threads=None, limit=None) -> iterator
    ///
    /// Every solution (1-based columns), in the library's deterministic order, found in
    /// parallel ahead of the iteration. `limit` stops after that many; `time_limit` (seconds,
    /// for the whole enumeration) raises TimeoutError from the iteration once passed.
    #[pyo3(signature = (time_limit=None, backend=None, threads=None, limit=None))]
    fn solutions(
        &self,
        time_limit: Option<f64>,
        backend: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Solutions> {
        let limit = limit.map(|l| count_arg(l, "limit")).transpose()?;
        // A limit makes the enumeration hand over small batches (a few parts each), so the
        // first solutions come at once and a dropped iterator stops soon.
        let e = self
            .enumeration(time_limit, backend, threads)?
            .limit(Some(limit.unwrap_or(u64::MAX)));
        Ok(Solutions::start(e))
    }

    /// count(time_limit=None, backend=None, threads=None) -> int
    ///
    /// The number of solutions, by enumeration with the embedded solver (in parallel). With
    /// symmetry breaking, the number of classes. Raises TimeoutError once `time_limit` seconds
    /// pass; Ctrl-C raises KeyboardInterrupt. The GIL is released meanwhile.
    #[pyo3(signature = (time_limit=None, backend=None, threads=None))]
    fn count(
        &self,
        py: Python<'_>,
        time_limit: Option<f64>,
        backend: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let e = self.enumeration(time_limit, backend, threads)?;
        interruptible(py, move || e.count(|_| {}))?.map_err(solve_error)
    }

    /// The number of solutions by the counter (a bitboard search, no SAT solver): the
    /// cross-check of `count()`. Ignores symmetry breaking. n at most 64.
    fn count_exact(&self, py: Python<'_>) -> PyResult<u64> {
        let b = queens_sat::instance::masked_board(&self.core).map_err(value_error)?;
        interruptible(py, move || queens_sat::count::count_masked(&b))
    }

    fn __repr__(&self) -> String {
        let mut s = format!("Instance(n={}, model='{}'", self.core.n(), self.core.name());
        if self.core.geometry() != Geometry::Square {
            s += &format!(", board='{}'", self.core.geometry().name());
        }
        if let Some(spec) = &self.spec {
            s += &format!(", source='{}'", spec.describe());
        }
        let (p, f) = (self.core.placed().len(), self.core.forbidden().len());
        if p > 0 {
            s += &format!(", placed={p}");
        }
        if f > 0 {
            s += &format!(", forbidden={f}");
        }
        if self.core.symmetry_breaking() != SymmetryBreaking::None {
            s += &format!(
                ", symmetry_breaking='{}'",
                self.core.symmetry_breaking().name()
            );
        }
        s + ")"
    }
}

/// The clauses of an instance as a read-only buffer of 32-bit integers: the literals of each
/// clause, then 0 (DIMACS order). `numpy.frombuffer(buf, dtype=numpy.int32)` reads it
/// without copying.
#[pyclass(module = "queens_sat", name = "ClauseBuffer", frozen)]
struct ClauseBuffer {
    data: Vec<i32>,
    clauses: usize,
    shape: [ffi::Py_ssize_t; 1],
    strides: [ffi::Py_ssize_t; 1],
}

impl ClauseBuffer {
    fn new(data: Vec<i32>, clauses: usize) -> Self {
        let len = data.len() as ffi::Py_ssize_t;
        ClauseBuffer {
            data,
            clauses,
            shape: [len],
            strides: [4],
        }
    }
}

#[pymethods]
impl ClauseBuffer {
    /// The number of clauses.
    #[getter]
    fn num_clauses(&self) -> usize {
        self.clauses
    }

    /// The number of integers (literals and the zeros that end the clauses).
    fn __len__(&self) -> usize {
        self.data.len()
    }

    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        if view.is_null() {
            return Err(PyBufferError::new_err("no view to fill"));
        }
        if flags & ffi::PyBUF_WRITABLE == ffi::PyBUF_WRITABLE {
            return Err(PyBufferError::new_err("the clause buffer is read-only"));
        }
        let this = slf.get();
        // SAFETY: `view` is a valid Py_buffer to fill (checked not null); the data, shape and
        // strides live as long as the object, which the view holds a reference to.
        unsafe {
            (*view).buf = this.data.as_ptr() as *mut c_void;
            (*view).len = (this.data.len() * 4) as ffi::Py_ssize_t;
            (*view).readonly = 1;
            (*view).itemsize = 4;
            (*view).format = if flags & ffi::PyBUF_FORMAT == ffi::PyBUF_FORMAT {
                c"i".as_ptr() as *mut _
            } else {
                std::ptr::null_mut()
            };
            (*view).ndim = 1;
            (*view).shape = if flags & ffi::PyBUF_ND == ffi::PyBUF_ND {
                this.shape.as_ptr() as *mut _
            } else {
                std::ptr::null_mut()
            };
            (*view).strides = if flags & ffi::PyBUF_STRIDES == ffi::PyBUF_STRIDES {
                this.strides.as_ptr() as *mut _
            } else {
                std::ptr::null_mut()
            };
            (*view).suboffsets = std::ptr::null_mut();
            (*view).internal = std::ptr::null_mut();
            (*view).obj = slf.into_any().into_ptr();
        }
        Ok(())
    }

    unsafe fn __releasebuffer__(&self, _view: *mut ffi::Py_buffer) {}
}

/// What the enumeration thread hands to the iterator.
enum Batch {
    Solutions(Vec<Placement>),
    Failed(SolveError),
}

struct SolutionsState {
    rx: Option<mpsc::Receiver<Batch>>,
    buffer: VecDeque<Placement>,
}

/// An iterator over the solutions of an instance (1-based columns). The enumeration runs on
/// its own threads, a few batches ahead of the iteration; dropping the iterator stops it.
#[pyclass(module = "queens_sat", name = "Solutions")]
struct Solutions {
    state: Mutex<SolutionsState>,
}

impl Solutions {
    fn start(e: Enumeration) -> Solutions {
        let (tx, rx) = mpsc::sync_channel::<Batch>(4);
        std::thread::spawn(move || {
            let r = e.for_each_batch::<SolveError>(
                |batch| Ok(tx.send(Batch::Solutions(batch)).is_ok()),
                |_| {},
            );
            if let Err(err) = r {
                let _ = tx.send(Batch::Failed(err));
            }
        });
        Solutions {
            state: Mutex::new(SolutionsState {
                rx: Some(rx),
                buffer: VecDeque::new(),
            }),
        }
    }
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<u32>>> {
        loop {
            let rx = {
                let mut st = self
                    .state
                    .lock()
                    .map_err(|_| PyRuntimeError::new_err("iterator poisoned"))?;
                if let Some(p) = st.buffer.pop_front() {
                    return Ok(Some(columns(&p)));
                }
                match st.rx.take() {
                    Some(rx) => rx,
                    None => return Ok(None),
                }
            };
            let (rx, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            let mut st = self
                .state
                .lock()
                .map_err(|_| PyRuntimeError::new_err("iterator poisoned"))?;
            match got {
                Ok(Batch::Solutions(b)) => {
                    st.buffer.extend(b);
                    st.rx = Some(rx);
                }
                Ok(Batch::Failed(e)) => return Err(solve_error(e)),
                Err(mpsc::RecvTimeoutError::Disconnected) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        // Stop the enumeration, wait for its thread to end, then let later
                        // solves run.
                        drop(st);
                        solve::kill_running();
                        py.detach(move || while rx.recv().is_ok() {});
                        solve::clear_interrupted();
                        return Err(e);
                    }
                    st.rx = Some(rx);
                }
            }
        }
    }
}

/// count(n, threads=None) -> dict
///
/// The counter (a bitboard search over the board's symmetry classes, no SAT solver): the
/// number of solutions of n-queens ("total"), of fundamental solutions ("fundamental", the
/// classes under the 8 symmetries of the square) and the classes by size ("classes": {8: ...,
/// 4: ..., 2: ..., 1: ...}). n is 1 to 32. Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (n, threads=None))]
fn counts<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = opt_count(threads, "threads")?;
    let mut counter = Counter::new(size_arg(n)?)
        .map_err(value_error)?
        .stop_when(solve::interrupted);
    if let Some(t) = threads {
        counter = counter.threads(t);
    }
    let out = interruptible(py, move || counter.run())?.map_err(value_error)?;
    let c = match out {
        Outcome::Complete(c) => c,
        Outcome::Stopped(_) => return Err(PyKeyboardInterrupt::new_err("interrupted")),
    };
    let d = PyDict::new(py);
    d.set_item("n", c.n)?;
    d.set_item("total", c.total)?;
    d.set_item("fundamental", c.fundamental)?;
    let classes = PyDict::new(py);
    classes.set_item(8, c.classes.of8)?;
    classes.set_item(4, c.classes.of4)?;
    classes.set_item(2, c.classes.of2)?;
    classes.set_item(1, c.classes.of1)?;
    d.set_item("classes", classes)?;
    Ok(d)
}

/// construct(n, method="hlm") -> list[int] | None
///
/// A solution built directly, without search, in O(n) ("hlm": Hoffman, Loessi and Moore's
/// construction; "staircase": the explicit staircase families), as 1-based columns; None
/// for n = 2 and 3, which have no solution.
#[pyfunction]
#[pyo3(signature = (n, method="hlm"))]
fn construct(py: Python<'_>, n: &Bound<'_, PyAny>, method: &str) -> PyResult<Option<Vec<u32>>> {
    let n = size_arg(n)?;
    let method: queens_sat::construct::Method = method.parse().map_err(value_error)?;
    let p = py
        .detach(|| queens_sat::construct::construct(n, method))
        .map_err(value_error)?;
    Ok(p.map(|p| columns(&p)))
}

/// check(board, board_geometry="square") -> str | None
///
/// None when `board` (1-based columns, row by row) is an n-queens solution, else the first
/// attack found ("queens at (1,1) and (2,2) share a diagonal"). `board_geometry` is
/// "square" or "toroidal" (diagonals wrap around).
#[pyfunction]
#[pyo3(signature = (board, board_geometry="square"))]
fn check(board: Vec<Bound<'_, PyAny>>, board_geometry: &str) -> PyResult<Option<String>> {
    let g: Geometry = board_geometry.parse().map_err(|e: String| value_error(e))?;
    let p = placement(board)?;
    Ok(queens_sat::board::check_placement_on(&p, g)
        .err()
        .map(|v| v.to_string()))
}

/// grade(path, n, cells=None) -> dict
///
/// Grades a DIMACS file meant to encode n-queens (n at most 10): sound (every model's board
/// is a solution), complete (every solution extends to a model), and its projected count
/// against the counter's. `cells` is a map of the cell variables in the format of `grade
/// --map` (the standard numbering, (r - 1) * n + c, when None). Raises OSError when a file
/// cannot be read, ValueError when it is not DIMACS.
#[pyfunction]
#[pyo3(signature = (path, n, cells=None))]
fn grade<'py>(
    py: Python<'py>,
    path: PathBuf,
    n: &Bound<'py, PyAny>,
    cells: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    use queens_sat::grade as g;
    let n = size_arg(n)?;
    let file = std::fs::File::open(&path)
        .map_err(|e| PyOSError::new_err(format!("cannot open {}: {e}", path.display())))?;
    let cnf = py
        .detach(|| g::read_dimacs(std::io::BufReader::new(file)))
        .map_err(|e| value_error(format!("{} is not valid DIMACS: {e}", path.display())))?;
    let map = match cells {
        Some(text) => g::CellMap::parse(text, n).map_err(value_error)?,
        None => g::CellMap::standard(n),
    };
    let r = interruptible(py, || g::grade(n, &cnf, &map))?.map_err(|e| match e {
        g::GradeError::Solve(s) => solve_error(s),
        e => value_error(e),
    })?;
    let d = PyDict::new(py);
    d.set_item("n", r.n)?;
    d.set_item("sound", r.is_sound())?;
    d.set_item("complete", r.is_complete())?;
    d.set_item("right", r.is_right())?;
    d.set_item("expected", r.expected)?;
    d.set_item("projected", r.projected)?;
    d.set_item("projected_exact", r.projected_exact)?;
    d.set_item("counterexample", r.counterexample.map(|c| c.render(n)))?;
    d.set_item("invalid", r.invalid)?;
    d.set_item("missing", r.missing.map(|p| columns(&p)))?;
    d.set_item("missing_count", r.missing_count)?;
    Ok(d)
}

/// The models of the catalogue, as `check --models all` runs them with every uniform
/// at-most-one encoding: a list of dicts of `Instance` keyword arguments (model, amo, domain,
/// constraints) with the report name ("label").
#[pyfunction]
fn catalogue_models<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let encs: Vec<queens_sat::encode::LineEncodings> = queens_sat::encode::Amo::all()
        .into_iter()
        .map(queens_sat::encode::LineEncodings::uniform)
        .collect();
    let models = catalogue::models(&["all".to_string()], &encs, false).map_err(value_error)?;
    let out = PyList::empty(py);
    for m in models {
        let d = PyDict::new(py);
        let entry = m.entry();
        d.set_item("label", m.to_string())?;
        d.set_item("model", entry.name)?;
        let o = m.options();
        if entry.options.contains(&ModelOption::AmoPerLine)
            || entry.options.contains(&ModelOption::Amo)
        {
            d.set_item("amo", o.amo.to_string())?;
        }
        if entry.options.contains(&ModelOption::Domain) {
            d.set_item("domain", o.domain.to_string())?;
        }
        if entry.options.contains(&ModelOption::Constraints) {
            d.set_item("constraints", o.constraints.to_string())?;
        }
        out.append(d)?;
    }
    Ok(out)
}

/// The names of the at-most-one encodings (`amo=`).
#[pyfunction]
fn amo_encodings() -> Vec<&'static str> {
    queens_sat::encode::Amo::names()
}

/// The embedded backends this build has.
#[pyfunction]
fn backends() -> Vec<&'static str> {
    Backend::available()
        .into_iter()
        .map(Backend::name)
        .collect()
}

/// The library's version.
#[pyfunction]
fn library_version() -> &'static str {
    queens_sat::experiment::tool_version().leak()
}

/// The native part of the `queens_sat` package.
#[pymodule]
fn _queens_sat(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Instance>()?;
    m.add_class::<ClauseBuffer>()?;
    m.add_class::<Solutions>()?;
    m.add_function(wrap_pyfunction!(counts, m)?)?;
    m.add_function(wrap_pyfunction!(construct, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(grade, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue_models, m)?)?;
    m.add_function(wrap_pyfunction!(amo_encodings, m)?)?;
    m.add_function(wrap_pyfunction!(backends, m)?)?;
    m.add_function(wrap_pyfunction!(library_version, m)?)?;
    m.add_function(wrap_pyfunction!(compare::compare_rows, m)?)?;
    m.add_function(wrap_pyfunction!(cli::sat_main, m)?)?;
    m.add_function(wrap_pyfunction!(cli::solve_main, m)?)?;
    Ok(())
}
