//! `queens-sat grade N FILE`: is a DIMACS file a correct encoding of n-queens? Sound (every
//! model's board a solution), complete (every solution a model's board), each rule of the
//! reference model enforced on its own or only with the help of the rest of the board, and the
//! projected count against the counter's ([`grade_files`]: one file with its full report, or a
//! range of n, from one file per n or a generator run per n, one line per n; the report of one
//! grade, [`write_report`]).

use super::Ending;
use crate::grade::{grade, read_dimacs, CellMap, Grade, GradeError, Standing, MAX_GRADE_N};
use crate::input::ReadError;
use crate::solve::SolveError;
use std::io::{self, Write};
use std::path::Path;

/// The largest DIMACS file read: 1 GiB (a correct encoding of n <= 13 takes kilobytes).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The largest map file read: 1 MiB (169 lines for n = 13).
const MAX_MAP_BYTES: u64 = 1 << 20;

/// The most rules that hold only by the rest of the board a report lists one by one.
const MAX_LISTED: usize = 8;

/// Where the DIMACS text of each n comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// One file (for one n).
    File(String),
    /// One file per n: `{n}` (or `%d`) in the name stands for n.
    Pattern(String),
    /// A command run by `sh -c` for each n, `{n}` in it standing for n: its standard output is
    /// the DIMACS text.
    Generator(String),
}

/// What to grade: the board sizes, where each file comes from, the map file of the cells
/// (`{n}` or `%d` in its name standing for n; the standard numbering, cell (r,c) is variable
/// (r-1)*n + c, when `None`), and whether to list every rule of the reference model.
#[derive(Clone, Debug)]
pub struct GradeRequest {
    /// The board sizes.
    pub ns: Vec<usize>,
    /// Where the files come from.
    pub source: Source,
    /// The map file of the cells.
    pub map: Option<String>,
    /// List every rule with how the file stands to it and the number of its clause.
    pub rules: bool,
}

/// Why files could not be graded (a wrong encoding is not an error: see [`grade_files`]).
#[derive(Debug, thiserror::Error)]
pub enum GradeCommandError {
    /// One file name for several board sizes: it needs `{n}`.
    #[error("the file name '{0}' needs {{n}} (or %d), replaced by each n")]
    PatternWithoutN(String),
    /// A generator for several board sizes that does not use n.
    #[error("the generator '{0}' needs {{n}}, replaced by each n")]
    GeneratorWithoutN(String),
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
    /// The generator cannot be run, or it failed.
    #[error("{0}")]
    Generator(String),
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

/// `name` with `{n}` and `%d` replaced by n.
fn put_n(name: &str, n: usize) -> String {
    name.replace("{n}", &n.to_string())
        .replace("%d", &n.to_string())
}

/// Grades what `req` names. One file: its full report. Several n: one line per n, then the
/// verdict naming the smallest n where the encoding is wrong. The first file that cannot be
/// read stops the run. Ends in [`Ending::Failure`] when a file is not a correct encoding.
pub fn grade_files(req: &GradeRequest, out: &mut dyn Write) -> Result<Ending, GradeCommandError> {
    if let Some(&n) = req.ns.iter().find(|&&n| n == 0 || n > MAX_GRADE_N) {
        return Err(GradeError::Size(n).into());
    }
    if req.ns.len() > 1 {
        match &req.source {
            Source::Pattern(p) | Source::File(p) if !p.contains("{n}") && !p.contains("%d") => {
                return Err(GradeCommandError::PatternWithoutN(p.clone()))
            }
            Source::Generator(g) if !g.contains("{n}") => {
                return Err(GradeCommandError::GeneratorWithoutN(g.clone()))
            }
            _ => {}
        }
    }
    crate::interrupt::cleanup_needed();
    if let [n] = req.ns[..] {
        let (name, g, cnf_size) = grade_one(req, n)?;
        let numbering = match &req.map {
            Some(m) => format!("as {} maps them", put_n(m, n)),
            None => format!("q(r,c) = (r-1)*{n} + c"),
        };
        writeln!(
            out,
            "grading {name} as {n}-queens: {} cell variables ({numbering}), {} variables, {} clauses",
            n * n,
            cnf_size.0,
            cnf_size.1
        )?;
        write_report(out, &g)?;
        if req.rules {
            write_rules(out, &g)?;
        }
        out.flush()?;
        return Ok(if g.is_right() {
            Ending::Success
        } else {
            Ending::Failure
        });
    }
    let mut wrong = Vec::new();
    let mut fragile = Vec::new();
    for &n in &req.ns {
        let (_, g, _) = grade_one(req, n)?;
        writeln!(out, "n = {n}: {}", one_line(&g))?;
        out.flush()?;
        if !g.is_right() {
            wrong.push(n);
        } else if g.by_the_rest().next().is_some() {
            fragile.push(n);
        }
    }
    let list = |ns: &[usize]| {
        ns.iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all = req.ns.len();
    match wrong.first() {
        None if fragile.is_empty() => {
            writeln!(out, "verdict: RIGHT for each of the {all} board sizes")?
        }
        None => writeln!(
            out,
            "verdict: RIGHT for each of the {all} board sizes, but some rules hold only because the rest of the board forces them (n = {}): check a larger n",
            list(&fragile)
        )?,
        Some(first) => writeln!(
            out,
            "verdict: WRONG from n = {first} on: wrong for {} of the {all} board sizes (n = {})",
            wrong.len(),
            list(&wrong)
        )?,
    }
    out.flush()?;
    Ok(if wrong.is_empty() {
        Ending::Success
    } else {
        Ending::Failure
    })
}

/// The DIMACS text of n from `req`'s source, graded: the name shown, the grade, and the file's
/// variable and clause counts.
fn grade_one(
    req: &GradeRequest,
    n: usize,
) -> Result<(String, Grade, (usize, usize)), GradeCommandError> {
    let invalid = GradeCommandError::Invalid;
    let (name, cnf) = match &req.source {
        Source::File(f) | Source::Pattern(f) => {
            let file = put_n(f, n);
            let cnf = read_file(Path::new(&file))?;
            (file, cnf)
        }
        Source::Generator(g) => {
            let command = g.replace("{n}", &n.to_string());
            let text = run_generator(&command, n)?;
            let name = format!("the output of '{command}'");
            let cnf = read_dimacs(&text[..]).map_err(|e| invalid(format!("{name}: {e}")))?;
            (name, cnf)
        }
    };
    let map = req.map.as_deref().map(|m| put_n(m, n));
    let cell_map = match &map {
        Some(m) => {
            let text = crate::input::read_text_file(Path::new(m), MAX_MAP_BYTES, "map file")?;
            CellMap::parse(&text, n).map_err(|e| invalid(format!("{m}: {e}")))?
        }
        None => CellMap::standard(n),
    };
    let g = match grade(n, &cnf, &cell_map) {
        Ok(g) => g,
        Err(GradeError::Map(e)) => {
            let map = map.unwrap_or_else(|| "the map".into());
            return Err(invalid(format!("{map}: {e}")));
        }
        Err(GradeError::Solve(e)) => return Err(e.into()),
        Err(e) => return Err(invalid(format!("{name}: {e}"))),
    };
    let size = (cnf.vars, cnf.clauses.len());
    Ok((name, g, size))
}

/// Reads one DIMACS file (at most [`MAX_FILE_BYTES`]).
fn read_file(file: &Path) -> Result<crate::grade::Dimacs, GradeCommandError> {
    let name = file.display();
    let open = |source| GradeCommandError::Open {
        name: name.to_string(),
        source,
    };
    let invalid = GradeCommandError::Invalid;
    let meta = std::fs::metadata(file).map_err(open)?;
    if meta.is_dir() {
        return Err(invalid(format!("{name} is a directory")));
    }
    if meta.is_file() && meta.len() > MAX_FILE_BYTES {
        return Err(invalid(format!(
            "{name}: larger than {MAX_FILE_BYTES} bytes"
        )));
    }
    let reader = std::fs::File::open(file).map_err(open)?;
    let reader = io::BufReader::new(io::Read::take(reader, MAX_FILE_BYTES + 1));
    read_dimacs(reader).map_err(|e| invalid(format!("{name}: {e}")))
}

/// Runs a generator command with `sh -c`: its standard output (at most [`MAX_FILE_BYTES`]);
/// its standard error goes to ours. A failure to start, or an exit status other than 0, is an
/// error naming n.
fn run_generator(command: &str, n: usize) -> Result<Vec<u8>, GradeCommandError> {
    use std::process::{Command, Stdio};
    let fail = |what: String| GradeCommandError::Generator(format!("n = {n}: '{command}' {what}"));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| fail(format!("cannot be run: {e}")))?;
    let mut text = Vec::new();
    let stdout = child.stdout.take().expect("piped");
    let read = io::Read::read_to_end(&mut io::Read::take(stdout, MAX_FILE_BYTES + 1), &mut text);
    if text.len() as u64 > MAX_FILE_BYTES {
        let _ = child.kill();
        let _ = child.wait();
        return Err(fail(format!("writes more than {MAX_FILE_BYTES} bytes")));
    }
    let status = child
        .wait()
        .map_err(|e| fail(format!("cannot be waited for: {e}")))?;
    read.map_err(|e| fail(format!("cannot be read: {e}")))?;
    if !status.success() {
        return Err(fail(match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was killed by a signal".into(),
        }));
    }
    Ok(text)
}

/// One grade in one line, for a range of n.
fn one_line(g: &Grade) -> String {
    let solutions = |k: u64| {
        if k == 1 {
            "1 solution".to_string()
        } else {
            format!("{k} solutions")
        }
    };
    if g.is_right() {
        let rest: Vec<_> = g.by_the_rest().collect();
        match rest.first() {
            None => format!("RIGHT ({})", solutions(g.expected)),
            Some(first) => format!(
                "RIGHT ({}), but {} only because the rest of the board forces {}, e.g. {}",
                solutions(g.expected),
                rules_hold(rest.len()),
                if rest.len() == 1 { "it" } else { "them" },
                first.constraint
            ),
        }
    } else {
        let mut what = Vec::new();
        if let Some(c) = &g.counterexample {
            what.push(format!("allows boards that are not solutions ({})", c.rule));
        }
        if g.missing.is_some() {
            what.push(format!(
                "excludes {} of the {}",
                g.missing_count,
                solutions(g.expected)
            ));
        }
        format!("WRONG: {}", what.join("; "))
    }
}

/// "1 rule holds", "4 rules hold".
fn rules_hold(k: usize) -> String {
    if k == 1 {
        "1 rule holds".into()
    } else {
        format!("{k} rules hold")
    }
}

/// Indents a drawn board by two spaces.
fn indent(board: &str) -> String {
    board.lines().map(|l| format!("  {l}\n")).collect()
}

/// Writes the report of one grade: soundness, completeness, counts, the rules that hold only
/// because of the rest of the board, and the verdict.
pub fn write_report(out: &mut dyn Write, g: &Grade) -> io::Result<()> {
    let n = g.n;
    let plural = |k: u64, one: &str, many: &str| {
        if k == 1 {
            format!("{k} {one}")
        } else {
            format!("{k} {many}")
        }
    };
    let rules = g.constraints.len() as u64;
    match &g.counterexample {
        None => writeln!(
            out,
            "sound: yes, every model's board is a solution (the file implies each of the {rules} rules of the reference model)"
        )?,
        Some(c) => {
            let broken = g.broken().count() as u64;
            writeln!(
                out,
                "sound: NO, the file allows boards that break {} of the {rules} rules of the reference model; one ({}):",
                broken,
                plural(c.queens() as u64, "queen", "queens")
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
            if let Some(k) = g.missing_clause {
                writeln!(out, "  clause {k} of the file is false on it")?;
            }
        }
    }
    if !g.is_sound() && !g.projected_exact {
        writeln!(
            out,
            "projected count: more than {} (stopped after {} boards, {} of them not solutions), the counter's: {}",
            g.expected, g.projected, g.invalid, g.expected
        )?;
    } else {
        writeln!(
            out,
            "projected count: {} (models projected onto the cells), the counter's: {}",
            g.projected, g.expected
        )?;
    }
    let rest: Vec<_> = g.by_the_rest().collect();
    if rest.is_empty() {
        if g.is_sound() {
            writeln!(
                out,
                "on its own: yes, the file enforces each rule without the help of the rest of the board"
            )?;
        }
    } else {
        writeln!(
            out,
            "on its own: NO, {} only because the rest of the board forces {} at n = {n}:",
            rules_hold(rest.len()),
            if rest.len() == 1 { "it" } else { "them" }
        )?;
        for c in rest.iter().take(MAX_LISTED) {
            writeln!(out, "  {}  [{}]", c.constraint, c.constraint.group())?;
        }
        if rest.len() > MAX_LISTED {
            writeln!(out, "  ... and {} more", rest.len() - MAX_LISTED)?;
        }
        writeln!(
            out,
            "  (the file does not forbid these by itself: the other rules happen to at n = {n}, on a larger board they need not; a generator of this file is likely wrong for a larger n: grade a range with --n)"
        )?;
    }
    if g.is_right() {
        if rest.is_empty() {
            writeln!(
                out,
                "verdict: RIGHT, the models are exactly the {} solutions of n = {n}",
                g.expected
            )
        } else {
            writeln!(
                out,
                "verdict: RIGHT for n = {n} (the models are exactly the {} solutions), but not on its own",
                g.expected
            )
        }
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

/// Writes every rule of the reference model with how the file stands to it and the number of
/// the file's clause that is the rule's own, if one is (`--rules`).
pub fn write_rules(out: &mut dyn Write, g: &Grade) -> io::Result<()> {
    writeln!(
        out,
        "the rules of the reference model ({}), each with the file's clause that states it:",
        g.constraints.len()
    )?;
    for c in &g.constraints {
        let standing = match c.standing {
            Standing::OnItsOwn => "on its own",
            Standing::ByTheRest => "only by the rest of the board",
            Standing::Broken(_) => "BROKEN",
        };
        let clause = match c.clause {
            Some(k) => format!("clause {k}"),
            None => "no clause of its own".into(),
        };
        writeln!(
            out,
            "  {} {}: {standing}, {clause}",
            c.constraint.group(),
            c.constraint
        )?;
    }
    Ok(())
}
