//! `queens-sat grade N FILE`: is a DIMACS file a correct encoding of n-queens? Sound (every
//! model's board a solution), complete (every solution a model's board), and the projected
//! count against the counter's ([`grade_files`]: one file, or one file per n; the report of one
//! grade, [`write_report`]).

use super::Ending;
use crate::grade::{grade, read_dimacs, CellMap, Grade, GradeError, MAX_GRADE_N};
use crate::input::ReadError;
use crate::solve::SolveError;
use std::io::{self, Write};
use std::path::Path;

/// The largest DIMACS file read: 1 GiB (a correct encoding of n <= 10 takes kilobytes).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The largest map file read: 1 MiB (100 lines for n = 10).
const MAX_MAP_BYTES: u64 = 1 << 20;

/// Files to grade: one, or one per board size. The map file of the cells, when given, says
/// where each cell is; the standard numbering (cell (r,c) is variable (r-1)*n + c) when `None`.
#[derive(Clone, Debug)]
pub enum GradeRequest {
    /// One DIMACS file of board size `n`.
    One {
        /// Board size.
        n: usize,
        /// The DIMACS file.
        file: String,
        /// The map file of the cells.
        map: Option<String>,
    },
    /// One file per board size: `%d` in the file name (and in the map's) stands for n.
    Each {
        /// The board sizes.
        ns: Vec<usize>,
        /// The file name, with `%d` for n.
        pattern: String,
        /// The map file's name, with `%d` for n.
        map: Option<String>,
    },
}

/// Why files could not be graded (a wrong encoding is not an error: see [`grade_files`]).
#[derive(Debug, thiserror::Error)]
pub enum GradeCommandError {
    /// One file name for several board sizes: it needs `%d`.
    #[error("the file name '{0}' needs %d, replaced by each n")]
    PatternWithoutN(String),
    /// A board too large to grade.
    #[error("{0}")]
    Size(#[from] GradeError),
    /// A file cannot be opened.
    #[error("cannot open {name}")]
    Open {
        /// The file.
        name: String,
        /// Why.
        source: io::Error,
    },
    /// A file is not DIMACS, a map does not fit, or a file is too large; the message names the
    /// file.
    #[error("{0}")]
    Invalid(String),
    /// A map file cannot be read, the embedded solver failed or was interrupted, or the report
    /// cannot be written.
    #[error(transparent)]
    Failure(#[from] super::Failure),
}

failures_into!(GradeCommandError: ReadError, SolveError, io::Error);

/// Grades the files `req` names, each reported on `out` (a summary line after several); the
/// first file that cannot be read stops the run. Ends in [`Ending::Failure`] when a file is not
/// a correct encoding.
pub fn grade_files(req: &GradeRequest, out: &mut dyn Write) -> Result<Ending, GradeCommandError> {
    let jobs: Vec<(usize, String, Option<String>)> = match req {
        GradeRequest::Each { ns, pattern, map } => {
            if !pattern.contains("%d") && ns.len() > 1 {
                return Err(GradeCommandError::PatternWithoutN(pattern.clone()));
            }
            ns.iter()
                .map(|&n| {
                    let put = |p: &str| p.replace("%d", &n.to_string());
                    (n, put(pattern), map.as_deref().map(put))
                })
                .collect()
        }
        GradeRequest::One { n, file, map } => vec![(*n, file.clone(), map.clone())],
    };
    if let Some(&(n, ..)) = jobs.iter().find(|j| j.0 > MAX_GRADE_N) {
        return Err(GradeError::Size(n).into());
    }
    crate::interrupt::cleanup_needed();
    let mut wrong = Vec::new();
    for (i, (n, file, map)) in jobs.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let g = grade_file(out, *n, Path::new(file), map.as_deref().map(Path::new))?;
        if !g.is_right() {
            wrong.push(*n);
        }
    }
    if jobs.len() > 1 {
        writeln!(out)?;
        if wrong.is_empty() {
            writeln!(out, "summary: all {} files right", jobs.len())?;
        } else {
            let list: Vec<String> = wrong.iter().map(|n| n.to_string()).collect();
            writeln!(
                out,
                "summary: {} of {} files right; wrong for n = {}",
                jobs.len() - wrong.len(),
                jobs.len(),
                list.join(", ")
            )?;
        }
    }
    out.flush()?;
    Ok(if wrong.is_empty() {
        Ending::Success
    } else {
        Ending::Failure
    })
}

/// Reads, grades and reports one file.
fn grade_file(
    out: &mut dyn Write,
    n: usize,
    file: &Path,
    map: Option<&Path>,
) -> Result<Grade, GradeCommandError> {
    let name = file.display();
    let open = |source| GradeCommandError::Open {
        name: name.to_string(),
        source,
    };
    let invalid = |message: String| GradeCommandError::Invalid(message);
    let meta = std::fs::metadata(file).map_err(open)?;
    if meta.is_dir() {
        return Err(invalid(format!("{name} is a directory")));
    }
    let reader = std::fs::File::open(file).map_err(open)?;
    let reader = io::BufReader::new(io::Read::take(reader, MAX_FILE_BYTES + 1));
    if meta.is_file() && meta.len() > MAX_FILE_BYTES {
        return Err(invalid(format!(
            "{name}: larger than {MAX_FILE_BYTES} bytes"
        )));
    }
    let cnf = read_dimacs(reader).map_err(|e| invalid(format!("{name}: {e}")))?;
    let (cell_map, numbering) = match map {
        Some(m) => {
            let text = crate::input::read_text_file(m, MAX_MAP_BYTES, "map file")?;
            let parsed =
                CellMap::parse(&text, n).map_err(|e| invalid(format!("{}: {e}", m.display())))?;
            (parsed, format!("as {} maps them", m.display()))
        }
        None => (CellMap::standard(n), format!("q(r,c) = (r-1)*{n} + c")),
    };
    let g = match grade(n, &cnf, &cell_map) {
        Ok(g) => g,
        Err(GradeError::Map(e)) => {
            let map = map.map_or_else(|| "the map".into(), |m| m.display().to_string());
            return Err(invalid(format!("{map}: {e}")));
        }
        Err(GradeError::Solve(e)) => return Err(e.into()),
        Err(e) => return Err(invalid(format!("{name}: {e}"))),
    };
    writeln!(
        out,
        "grading {name} as {n}-queens: {} cell variables ({numbering}), {} variables, {} clauses",
        n * n,
        cnf.vars,
        cnf.clauses.len()
    )?;
    write_report(out, &g)?;
    Ok(g)
}

/// Indents a drawn board by two spaces.
fn indent(board: &str) -> String {
    board.lines().map(|l| format!("  {l}\n")).collect()
}

/// Writes the report of one grade: soundness, completeness, counts and the verdict.
pub fn write_report(out: &mut dyn Write, g: &Grade) -> io::Result<()> {
    let n = g.n;
    let plural = |k: u64, one: &str, many: &str| {
        if k == 1 {
            format!("{k} {one}")
        } else {
            format!("{k} {many}")
        }
    };
    match &g.counterexample {
        None => writeln!(
            out,
            "sound: yes, every model's board is a solution ({})",
            plural(g.projected, "board", "distinct boards")
        )?,
        Some(c) => {
            let first = if g.projected_exact { "" } else { "first " };
            writeln!(
                out,
                "sound: NO, {} of the {first}{} of the models {}; the first ({} queens):",
                g.invalid,
                plural(g.projected, "board", "boards"),
                if g.invalid == 1 {
                    "is not a solution"
                } else {
                    "are not solutions"
                },
                c.queens()
            )?;
            write!(out, "{}", indent(&c.render(n)))?;
            writeln!(out, "  {}", c.rule)?;
        }
    }
    match &g.missing {
        None => writeln!(
            out,
            "complete: yes, each of the {} extends to a model",
            plural(g.expected, "solution", "solutions")
        )?,
        Some(p) => {
            writeln!(
                out,
                "complete: NO, {} of the {} {} no model; the first:",
                g.missing_count,
                plural(g.expected, "solution", "solutions"),
                if g.missing_count == 1 { "has" } else { "have" }
            )?;
            write!(out, "{}", indent(&p.render_board()))?;
            writeln!(out, "  one-line: {}", p.to_one_line())?;
        }
    }
    if g.projected_exact {
        writeln!(
            out,
            "projected count: {} (models projected onto the cells), the counter's: {}",
            g.projected, g.expected
        )?;
    } else {
        writeln!(
            out,
            "projected count: more than {} (stopped after {} boards), the counter's: {}",
            g.expected, g.projected, g.expected
        )?;
    }
    if g.is_right() {
        writeln!(
            out,
            "verdict: RIGHT, the models are exactly the {} solutions of n = {n}",
            g.expected
        )
    } else {
        let mut what = Vec::new();
        if !g.is_sound() {
            what.push("it allows boards that are not solutions");
        }
        if !g.is_complete() {
            what.push("it excludes solutions");
        }
        writeln!(out, "verdict: WRONG for n = {n}: {}", what.join(" and "))
    }
}
