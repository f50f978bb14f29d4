//! `compare` from Python ([`compare_rows`]): the command's sweep with its arguments read as
//! the command line's are, the rows read back from its CSV file.

use super::{
    int_text, interruptible, opt_count, parse_time_limit, shortened, size_arg, value_error,
};
use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use queens_sat::symmetry_breaking::SymmetryBreaking;
use std::path::PathBuf;
use std::time::Duration;

/// Runs `compare` (the command's sweep) and returns (columns, rows, report, notes): the CSV's
/// column names, each row's values in that order, the table and the notes the command
/// prints. The Python `compare` turns them into dicts or a data frame.
#[pyfunction]
#[pyo3(signature = (ns, models, amo, column_alo, symmetry_breaking, solvers, repeats, timeout, family, params, seeds, instances, diagonals, shuffle, program, cpu_limit=None, memory_limit=None))]
#[allow(clippy::too_many_arguments)]
pub fn compare_rows<'py>(
    py: Python<'py>,
    ns: Vec<Bound<'py, PyAny>>,
    models: Vec<String>,
    amo: Vec<String>,
    column_alo: bool,
    symmetry_breaking: Vec<String>,
    solvers: Vec<String>,
    repeats: &Bound<'py, PyAny>,
    timeout: f64,
    family: Option<String>,
    params: Vec<String>,
    seeds: Option<String>,
    instances: Vec<PathBuf>,
    diagonals: Option<&Bound<'py, PyAny>>,
    shuffle: &Bound<'py, PyAny>,
    program: Option<PathBuf>,
    cpu_limit: Option<f64>,
    memory_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Vec<String>, Bound<'py, PyList>, String, String)> {
    use queens_sat::command::compare::{
        compare, CompareError, CompareRequest, CsvFile, FamilyRequest, Grid, Instances, Mode, Runs,
        Solvers,
    };
    use queens_sat::command::Failure;
    use queens_sat::experiment::sources::InstanceSource;
    let ns = ns.iter().map(size_arg).collect::<PyResult<Vec<usize>>>()?;
    let repeats = opt_count(Some(repeats), "repeats")?.unwrap_or_default();
    let shuffle = opt_count(Some(shuffle), "shuffle")?.unwrap_or_default();
    let diagonals = opt_count(diagonals, "diagonals")?;
    if repeats == 0 {
        return Err(value_error("repeats must be at least 1"));
    }
    let timeout = parse_time_limit(Some(timeout))?.unwrap_or_default();
    let cpu_limit = parse_cpu_limit(cpu_limit)?;
    let memory_limit = memory_limit.map(parse_memory_limit).transpose()?;
    let modes = symmetry_breaking
        .iter()
        .map(|s| s.parse::<SymmetryBreaking>().map_err(value_error))
        .collect::<PyResult<Vec<_>>>()?;
    let instances = match (family, instances.is_empty()) {
        (Some(_), false) => {
            return Err(value_error(
                "family and instances are two sources of instances: give one",
            ))
        }
        (Some(family), true) => Instances::Family {
            ns,
            sweep: FamilyRequest {
                family,
                params,
                seeds,
            },
        },
        (None, false) => Instances::Files {
            sources: instances.into_iter().map(InstanceSource::Path).collect(),
            diagonals: diagonals.into_iter().collect(),
            sample: None,
        },
        (None, true) if !params.is_empty() || seeds.is_some() => {
            return Err(value_error(
                "params and seeds describe a family sweep: give family too",
            ))
        }
        (None, true) => Instances::Boards(ns),
    };
    let dir = tempfile::tempdir().map_err(|e| PyOSError::new_err(e.to_string()))?;
    let csv = dir.path().join("compare.csv");
    let req = CompareRequest {
        mode: Mode::Run {
            grid: Grid {
                instances,
                models,
                amo,
                column_alo,
                redundant: Default::default(),
                symmetry_breaking: modes,
                solvers: Solvers {
                    names: solvers,
                    options: Vec::new(),
                    program,
                },
                runs: Runs {
                    repeats,
                    timeout,
                    cpu_limit,
                    memory_limit,
                    shuffle,
                    certify: false,
                },
                expected: None,
            },
            csv: Some(CsvFile {
                path: csv.clone(),
                fresh: true,
            }),
        },
        reports: Default::default(),
    };
    let r = interruptible(py, || {
        let (mut out, mut log) = (Vec::new(), Vec::new());
        compare(&req, &mut out, &mut log, &mut ()).map(|_| (out, log))
    })?;
    let (out, log) = r.map_err(|e| match e {
        CompareError::Failure(Failure::Output(_)) => PyOSError::new_err(e.to_string()),
        e => value_error(e),
    })?;
    let header = queens_sat::experiment::report::csv_header();
    let columns: Vec<String> = header.split(',').map(str::to_string).collect();
    let file = queens_sat::experiment::report::read_for_resume(&csv, false)
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    let rows = PyList::empty(py);
    for (_, row) in file.rows {
        let value =
            serde_json::to_value(&row).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let values = PyList::empty(py);
        for c in &columns {
            values.append(json_to_py(
                py,
                value.get(c).unwrap_or(&serde_json::Value::Null),
            )?)?;
        }
        rows.append(values)?;
    }
    Ok((
        columns,
        rows,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&log).into_owned(),
    ))
}

fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    match v {
        serde_json::Value::Null => Ok(py.None().into_bound(py)),
        serde_json::Value::Bool(b) => b.into_bound_py_any(py),
        serde_json::Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py),
            (None, Some(i)) => i.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        serde_json::Value::String(s) => s.into_bound_py_any(py),
        other => other.to_string().into_bound_py_any(py),
    }
}

/// `compare`'s `cpu_limit`: seconds of CPU time, from [`queens_sat::input::MIN_TIMEOUT_SECS`]
/// to a week, as `--cpu-limit` takes them.
fn parse_cpu_limit(t: Option<f64>) -> PyResult<Option<Duration>> {
    use queens_sat::input::{MAX_TIMEOUT_SECS, MIN_TIMEOUT_SECS};
    match t {
        None => Ok(None),
        Some(t) if (MIN_TIMEOUT_SECS..=MAX_TIMEOUT_SECS).contains(&t) => {
            Ok(Some(Duration::from_secs_f64(t)))
        }
        Some(t) => Err(value_error(format!(
            "cpu_limit = {t}: give a number of seconds of CPU time from {MIN_TIMEOUT_SECS} \
             to {MAX_TIMEOUT_SECS} (a week)"
        ))),
    }
}

/// `compare`'s `memory_limit`, in bytes: a size as `--memory-limit` takes it ("512M", "2G",
/// "1.5GiB"; [`MemorySize`](queens_sat::solve::measure::MemorySize)) or an integer number of
/// bytes, at least 1 MiB either way. What is neither a string nor an integer raises TypeError.
fn parse_memory_limit(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    use queens_sat::solve::measure::MemorySize;
    const MIB: u64 = 1 << 20;
    if let Ok(text) = v.extract::<String>() {
        let size: MemorySize = text
            .parse()
            .map_err(|e| value_error(format!("memory_limit: {e}")))?;
        return Ok(size.bytes());
    }
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "memory_limit: give a size such as \"512M\" or \"2G\", or a number of bytes, not a bool",
        ));
    }
    let text = int_text(v)?;
    match text.parse::<u64>() {
        Ok(b) if (MIB..=u64::MAX / 2).contains(&b) => Ok(b),
        Ok(b) if b >= MIB => Err(value_error(format!("memory_limit = {b} bytes is too large"))),
        Err(_) if !text.starts_with('-') => Err(value_error(format!(
            "memory_limit = {} bytes is too large",
            shortened(&text)
        ))),
        _ => Err(value_error(format!(
            "memory_limit = {}: give at least 1 MiB ({MIB} bytes), or a size such as \"512M\" or \"2G\"",
            shortened(&text)
        ))),
    }
}
