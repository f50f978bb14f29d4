//! `queens-sat verify N FILE`: is an external solver's answer (or a one-line placement) a
//! valid n-queens solution, and does it satisfy the formula? ([`verify`], and the report of one
//! answer, [`write_report`]).
//!
//! The formula is the one that `encode` writes with the same options, or a DIMACS file
//! (`verify --cnf FILE`, [`cnf_formula`]): its clauses are checked as they are read, and the
//! board's size and cell variables come from the file's header comments (`c n = N`, and the
//! options from its `c command:` line), or are the reference numbering (cells `1..n*n`, row
//! by row) for a file without such a header.

use super::Ending;
use crate::board::Placement;
use crate::cnf::{
    read_dimacs_into, read_header, ClauseSink, Cnf, DimacsError, Lit, ReadLimits, MAX_FORMULA_BYTES,
};
use crate::explain::{clause_number_in_words, write_groups};
use crate::instance::{to_labelled_cnf, BoardProblem, Formula, Instance, InstanceError, Limits};
use crate::solve::process::escape;
use crate::solve::{
    clause_violation, parse_solver_answer, refute_unsat, verify_assignment, verify_placement,
    Assignment, Backend, Budget, ClauseViolation, CnfProblem, ModelMismatch, SolveError,
    SolverAnswer, VerifyReport,
};
use crate::vocabulary::Param;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// An answer checked as `queens-sat verify` asks for it.
#[derive(Clone, Debug)]
pub struct VerifyRequest {
    /// The formula the answer is for.
    pub instance: Instance,
    /// The answer: SAT-competition output, a MiniSat result file or a one-line placement;
    /// `-` reads stdin.
    pub answer: PathBuf,
    /// Also say for each clause group whether it holds under the answer.
    pub explain: bool,
    /// Check even a formula past the size limits.
    pub force: bool,
    /// Check against this DIMACS file instead of the formula of `instance`, which then gives
    /// only the board's size and cell variables ([`cnf_formula`] makes both).
    pub cnf: Option<CnfFile>,
}

/// A DIMACS file that answers are checked against (`verify --cnf FILE`): its counts, and
/// where the board's size and cell variables come from. Made by [`cnf_formula`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfFile {
    /// The file.
    pub path: PathBuf,
    /// The variables of its `p cnf` line.
    pub vars: usize,
    /// The clauses of its `p cnf` line.
    pub clauses: u64,
    /// Where its board comes from.
    pub cells: CellSource,
}

/// Where the board of a DIMACS file comes from: its size and which variables are its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellSource {
    /// The file's queens-sat header: `c n = N`, and this command line (its `c command:`
    /// line), whose options give the formula and the meaning of every variable.
    Command(String),
    /// A queens-sat header without a command line, whose `c variables:` line says that the
    /// cells are variables `1..n*n`, row by row.
    HeaderCells,
    /// No queens-sat header: the cells are taken to be variables `1..n*n`, row by row (the
    /// reference numbering), for the N given.
    Reference,
}

/// What the comment lines at the top of a DIMACS file say about the formula, when queens-sat
/// wrote them ([`read_cnf_header`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CnfHeader {
    /// The first line of the header: `queens-sat VERSION` (from `c queens-sat VERSION: n-queens
    /// CNF`); without it the other lines are not read.
    pub tool: Option<String>,
    /// The board size, as written after `c n = `.
    pub n: Option<String>,
    /// The command line that wrote the file (`c command: ...`).
    pub command: Option<String>,
    /// The numbering of the variables (`c variables: ...`).
    pub variables: Option<String>,
}

/// The most comment lines [`read_cnf_header`] looks at: the header's first lines (tool, n,
/// model, command, variables) come long before the names of the variables.
const HEADER_LINES: usize = 64;

/// The longest header line [`read_cnf_header`] reads (a command line with many cells).
const HEADER_LINE_BYTES: u64 = 1 << 20;

/// Reads the queens-sat header of a DIMACS file from its first comment lines (at most 64, of
/// at most 1 MiB each; the reading stops at the first line that is not a comment). A file
/// without one gives a header without `tool`.
pub fn read_cnf_header(mut input: impl BufRead) -> CnfHeader {
    let mut h = CnfHeader::default();
    let mut buf = Vec::new();
    for _ in 0..HEADER_LINES {
        buf.clear();
        match (&mut input)
            .take(HEADER_LINE_BYTES)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !buf.ends_with(b"\n") && buf.len() as u64 >= HEADER_LINE_BYTES {
            break;
        }
        let Ok(line) = std::str::from_utf8(&buf) else {
            break;
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(text) = line.strip_prefix('c') else {
            break;
        };
        let text = text.trim();
        if h.tool.is_none() {
            h.tool = text
                .strip_suffix(": n-queens CNF")
                .filter(|t| t.starts_with("queens-sat "))
                .map(str::to_string);
            continue;
        }
        let field = |prefix: &str| text.strip_prefix(prefix).map(|v| v.trim().to_string());
        if let (None, Some(v)) = (&h.n, field("n = ")) {
            h.n = Some(v);
        } else if let (None, Some(v)) = (&h.command, field("command: ")) {
            h.command = Some(v);
        } else if let (None, Some(v)) = (&h.variables, field("variables: ")) {
            h.variables = Some(v);
        }
    }
    h
}

/// Why an answer could not be checked (a wrong answer is not an error: see [`verify`]).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The formula is past the size limits for checking clauses.
    #[error("{0}; use a smaller n, another {amo}, or {force}", amo = Param::Amo, force = Param::Force)]
    TooLarge(InstanceError),
    /// The answer cannot be read.
    #[error("cannot read {name}")]
    Read {
        /// The file (`stdin`).
        name: String,
        /// Why.
        source: io::Error,
    },
    /// The answer is larger than an answer for the formula can be.
    #[error("{name} is larger than {cap} bytes, more than an answer for this formula can need")]
    TooLong {
        /// The file.
        name: String,
        /// The most it may hold.
        cap: u64,
    },
    /// The answer is not text.
    #[error("{name} is not text (UTF-8)")]
    NotText {
        /// The file.
        name: String,
        /// Why.
        source: std::string::FromUtf8Error,
    },
    /// The answer cannot be understood (the message names the file and what is wrong).
    #[error("{0}")]
    Unreadable(String),
    /// The DIMACS file of `--cnf` is not DIMACS.
    #[error("{name} is not valid DIMACS")]
    NotDimacs {
        /// The file.
        name: String,
        /// What is wrong, and on which line.
        source: DimacsError,
    },
    /// The DIMACS file has no queens-sat header, and no board size was given.
    #[error("{0} has no queens-sat header ('c n = N'): give the board size N before the answer (the cells are then variables 1..n*n, row by row)")]
    NoHeader(String),
    /// The board size given disagrees with the file's header.
    #[error("n = {n} disagrees with the header of {name} (n = {header}); leave N out")]
    SizeDisagrees {
        /// The size given.
        n: usize,
        /// The file.
        name: String,
        /// The header's.
        header: usize,
    },
    /// The file's header cannot be read as a formula (its board size or command line).
    #[error("the header of {name}: {why}")]
    BadHeader {
        /// The file.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// The formula of the file's header is not the file's: another number of variables.
    #[error("{name} has {vars} variables, the formula of its header ({what}) has {expected}: the file is not what its header says")]
    HeaderMismatch {
        /// The file.
        name: String,
        /// The variables of its `p cnf` line.
        vars: usize,
        /// The header's formula, as the header says it.
        what: String,
        /// The header's formula's variables.
        expected: u64,
    },
    /// The file has fewer variables than the board has cells.
    #[error("{name} has {vars} variables, fewer than the {cells} cells of n = {n}")]
    TooFewVars {
        /// The file.
        name: String,
        /// The variables of its `p cnf` line.
        vars: usize,
        /// Cells of the board.
        cells: u128,
        /// The board size.
        n: usize,
    },
    /// The board size cannot make an instance, the embedded solver failed, or the report
    /// cannot be written.
    #[error(transparent)]
    Failure(#[from] super::Failure),
}

failures_into!(VerifyError: InstanceError, SolveError, io::Error);

/// The most an answer file may hold: 64 MiB plus 24 bytes per variable (a `v` line writes
/// each literal in at most 12 bytes).
fn answer_cap(vars: u64) -> u64 {
    (64u64 << 20).saturating_add(vars.saturating_mul(24))
}

/// Reads at most `cap` bytes of `r`; more is an input error.
fn read_bounded(r: impl Read, cap: u64, name: &str) -> Result<String, VerifyError> {
    let mut bytes = Vec::new();
    r.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| VerifyError::Read {
            name: name.to_string(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(VerifyError::TooLong {
            name: name.to_string(),
            cap,
        });
    }
    String::from_utf8(bytes).map_err(|source| VerifyError::NotText {
        name: name.to_string(),
        source,
    })
}

/// Reads the answer file `answer` (`-`: stdin), at most `cap` bytes.
fn read_answer(answer: &Path, cap: u64) -> Result<String, VerifyError> {
    if answer.as_os_str() == "-" {
        return read_bounded(io::stdin().lock(), cap, "stdin");
    }
    let name = answer.display().to_string();
    let f = std::fs::File::open(answer).map_err(|source| VerifyError::Read {
        name: name.clone(),
        source,
    })?;
    read_bounded(f, cap, &name)
}

/// `true` when the text's first meaningful line starts with a number: a one-line placement.
fn looks_like_one_line(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with(|ch: char| ch.is_ascii_digit()))
}

/// Reads the answer of `req` and checks it: a model or a placement as a board and against
/// every clause, an UNSAT claim refuted (by construction or the embedded solver) or
/// confirmed. The report goes to `out`; a wrong answer (or UNKNOWN) ends in
/// [`Ending::Failure`].
pub fn verify(req: &VerifyRequest, out: &mut dyn Write) -> Result<Ending, VerifyError> {
    if let Some(file) = &req.cnf {
        return verify_against_file(req, file, out);
    }
    let inst = &req.instance;
    let n = inst.n();
    let name = req.answer.display().to_string();
    // Checking clauses has size limits; an UNSAT claim about an empty board does not (it is
    // refuted by the construction).
    let size_guard = || -> Result<(), VerifyError> {
        if !req.force {
            // Without auxiliaries the clauses are evaluated streaming; with them, a board
            // needs the solver and the formula in memory.
            let limits = if inst.has_auxiliaries() {
                Limits::IN_MEMORY
            } else {
                Limits::STREAM
            };
            inst.check_size(limits).map_err(VerifyError::TooLarge)?;
        }
        Ok(())
    };
    let text = read_answer(&req.answer, answer_cap(inst.size().vars))?;
    if looks_like_one_line(&text) {
        size_guard()?;
        let p = Placement::parse_one_line(&text, Some(n)).map_err(|e| {
            VerifyError::Unreadable(format!("{name}: not a one-line placement for n = {n}: {e}"))
        })?;
        writeln!(out, "answer: one-line placement {}", p.to_one_line())?;
        let report = verify_placement(inst, &p)?;
        let mut a = Assignment::default();
        for (i, v) in p.to_assignment().into_iter().enumerate() {
            a.set(crate::Var::from_index(i), v);
        }
        let complete = !inst.has_auxiliaries();
        if req.explain && !complete {
            writeln!(
                out,
                "(no group-by-group check: a board gives no values to the encoding's auxiliary variables)"
            )?;
        }
        let groups = (req.explain && complete).then_some(&a);
        return Ok(write_report(out, inst, &report, groups)?);
    }
    let (answer, format) = parse_solver_answer(&text)
        .map_err(|e| VerifyError::Unreadable(format!("{name}: {}", escape(&e.to_string(), 300))))?;
    match answer {
        SolverAnswer::Sat(a) => {
            size_guard()?;
            let report = verify_assignment(inst, &a)?;
            // A model without values for some variables is incomplete (truncated output, or
            // an answer for a smaller formula): an input error, not a wrong answer.
            if let Err(CnfProblem::Mismatch(m @ ModelMismatch::MissingVars { .. })) = &report.cnf {
                return Err(VerifyError::Unreadable(format!(
                    "{name}: incomplete model: {m}"
                )));
            }
            writeln!(out, "answer: SATISFIABLE ({format})")?;
            let complete = report.vars >= a.max_var() && a.missing(report.vars).is_empty();
            let groups = (req.explain && complete).then_some(&a);
            Ok(write_report(out, inst, &report, groups)?)
        }
        SolverAnswer::Unsat => {
            writeln!(out, "answer: UNSATISFIABLE ({format})")?;
            // An empty board of size 1 or >= 4 has a solution by construction: no search.
            match refute_unsat(inst)? {
                None => {
                    writeln!(out, "correct: no solution exists for n = {n}")?;
                    Ok(Ending::Success)
                }
                Some(p) => {
                    writeln!(
                        out,
                        "WRONG: the formula is satisfiable, e.g. by the solution {}",
                        p.to_one_line()
                    )?;
                    Ok(Ending::Failure)
                }
            }
        }
        SolverAnswer::Unknown => {
            writeln!(out, "answer: UNKNOWN ({format}): the solver gave no answer")?;
            Ok(Ending::Failure)
        }
    }
}

/// Writes the report of one checked answer: the board, the clauses (the first false one in
/// words when the formula fits in memory), each clause group under `groups` if given, and the
/// verdict; a wrong answer ends in [`Ending::Failure`].
pub fn write_report(
    out: &mut dyn Write,
    inst: &Instance,
    r: &VerifyReport,
    groups: Option<&Assignment>,
) -> io::Result<Ending> {
    write_report_against(out, inst, r, groups, &Against::Formula)
}

/// What the clauses of a report are.
enum Against<'a> {
    /// The formula of the instance.
    Formula,
    /// The clauses of a DIMACS file; `named` when the false clause, if any, is the one of the
    /// instance's formula at its place, so that its group and words are the instance's.
    File { name: &'a str, named: bool },
}

/// [`write_report`], for the clauses of `against`.
fn write_report_against(
    out: &mut dyn Write,
    inst: &Instance,
    r: &VerifyReport,
    groups: Option<&Assignment>,
    against: &Against,
) -> io::Result<Ending> {
    let n = inst.n();
    // Naming the clause in words, or each group, builds the formula in memory: only when it
    // fits.
    let fits = || inst.check_size(Limits::IN_MEMORY).is_ok();
    match (&r.board, &r.placement) {
        (Ok(()), Some(p)) => writeln!(
            out,
            "board: valid n-queens solution for n = {n}: {}",
            p.to_one_line()
        )?,
        (Ok(()), None) => writeln!(out, "board: valid")?,
        (Err(e), _) => writeln!(out, "board: NOT a solution: {e}")?,
    }
    let of_file = match against {
        Against::Formula => String::new(),
        Against::File { name, .. } => format!(" of {name}"),
    };
    match &r.cnf {
        Ok(()) => writeln!(
            out,
            "CNF: satisfies all {} clauses{of_file} over {} variables",
            r.clauses, r.vars
        )?,
        Err(CnfProblem::Falsified(v)) if matches!(against, Against::File { named: false, .. }) => {
            let lits = if v.literals.is_empty() {
                "(empty clause)".to_string()
            } else {
                v.literals.join(" ")
            };
            writeln!(
                out,
                "CNF: NOT satisfied: clause {}{of_file} is false: {lits}",
                v.number
            )?;
        }
        Err(e) => {
            writeln!(out, "CNF: NOT satisfied: {e}")?;
            if let (CnfProblem::Falsified(v), true) = (e, fits()) {
                let words = clause_number_in_words(inst, v.number);
                writeln!(out, "in words: {words}")?;
            }
        }
    }
    if let Some(a) = groups {
        if fits() {
            write_groups(out, inst, a)?;
        } else {
            writeln!(
                out,
                "(no group-by-group check: the formula is too large to hold in memory)"
            )?;
        }
    }
    if r.is_ok() {
        writeln!(out, "verdict: valid")?;
        Ok(Ending::Success)
    } else {
        writeln!(out, "verdict: INVALID")?;
        Ok(Ending::Failure)
    }
}

/// The instance and the DIMACS file of `verify --cnf FILE`, from the file's header and its
/// `p cnf` line. With a queens-sat header the board size is the header's (`n`, if given, must
/// agree with it), and the formula is that of the header's command line (`c command:`), its
/// words turned into an instance by `parse_command` (`queens-sat` first; the command line's
/// own parser, so that the options mean what they meant when the file was written); that
/// formula must have the file's variables. Without a header, `n` must be given, and the cells
/// are variables `1..n*n`, row by row. Every refusal is an input error.
pub fn cnf_formula(
    path: &Path,
    n: Option<usize>,
    parse_command: &dyn Fn(&[String]) -> Result<Instance, String>,
) -> Result<(Instance, CnfFile), VerifyError> {
    let name = path.display().to_string();
    let open = || {
        std::fs::File::open(path)
            .map(|f| BufReader::with_capacity(1 << 16, f))
            .map_err(|source| VerifyError::Read {
                name: name.clone(),
                source,
            })
    };
    let header = read_cnf_header(open()?);
    let counts = read_header(open()?, MAX_FORMULA_BYTES).map_err(|e| dimacs_error(&name, e))?;
    let file = |cells| CnfFile {
        path: path.to_path_buf(),
        vars: counts.vars,
        clauses: counts.clauses,
        cells,
    };
    let bad = |why: String| VerifyError::BadHeader {
        name: name.clone(),
        why,
    };
    let header_n = match (&header.tool, &header.n) {
        (Some(_), Some(v)) => Some(
            crate::input::parse_n(v).map_err(|e| bad(format!("'c n = {}': {e}", escape(v, 40))))?,
        ),
        _ => None,
    };
    let Some(hn) = header_n else {
        let n = n.ok_or_else(|| VerifyError::NoHeader(name.clone()))?;
        let inst = reference_instance(&name, n, counts.vars)?;
        return Ok((inst, file(CellSource::Reference)));
    };
    if let Some(n) = n.filter(|&n| n != hn) {
        return Err(VerifyError::SizeDisagrees {
            n,
            name,
            header: hn,
        });
    }
    let Some(command) = header.command else {
        let reference = format!("var (r-1)*{hn} + c = q(r,c)");
        if header.variables.is_some_and(|v| v.starts_with(&reference)) {
            let inst = reference_instance(&name, hn, counts.vars)?;
            return Ok((inst, file(CellSource::HeaderCells)));
        }
        return Err(bad(format!(
            "no 'c command:' line says the options it was written with, and its cells are not variables 1..n*n; check the answer without {}, with those options", Param::Cnf),
        ));
    };
    let shown = escape(&command, 200);
    let words = crate::input::split_command_line(&command)
        .map_err(|e| bad(format!("'c command: {shown}': {e}")))?;
    if words.first().map(String::as_str) != Some("queens-sat") {
        return Err(bad(format!(
            "'c command: {shown}' is not a queens-sat command line"
        )));
    }
    let words = instance_beside(words, path);
    let inst = parse_command(&words).map_err(|e| bad(format!("'c command: {shown}': {e}")))?;
    if inst.n() != hn {
        return Err(bad(format!(
            "'c n = {hn}', and its command line '{shown}' says n = {}",
            inst.n()
        )));
    }
    let expected = inst.size().vars;
    if expected != counts.vars as u64 {
        return Err(VerifyError::HeaderMismatch {
            name,
            vars: counts.vars,
            what: shown,
            expected,
        });
    }
    Ok((inst, file(CellSource::Command(command))))
}

/// The words of a command line read from the header of the file `cnf`, with the file of
/// `--instance FILE` taken from the folder of `cnf` when FILE is a relative path that is not
/// found from the current folder but is found there (the command ran in that folder).
fn instance_beside(mut words: Vec<String>, cnf: &Path) -> Vec<String> {
    let folder = cnf.parent().unwrap_or(Path::new(""));
    let beside = |file: &str| {
        let p = Path::new(file);
        (p.is_relative() && !p.exists() && folder.join(p).exists())
            .then(|| folder.join(p).display().to_string())
    };
    let mut i = 0;
    while i < words.len() {
        if words[i] == "--instance" && i + 1 < words.len() {
            if let Some(b) = beside(&words[i + 1]) {
                words[i + 1] = b;
            }
            i += 1;
        } else if let Some(b) = words[i].strip_prefix("--instance=").and_then(beside) {
            words[i] = format!("--instance={b}");
        }
        i += 1;
    }
    words
}

/// The reference instance of size `n`, whose cells are variables `1..n*n`, row by row, for a
/// file `name` of `vars` variables.
fn reference_instance(name: &str, n: usize, vars: usize) -> Result<Instance, VerifyError> {
    let cells = (n as u128) * (n as u128);
    if cells > vars as u128 {
        return Err(VerifyError::TooFewVars {
            name: name.to_string(),
            vars,
            cells,
            n,
        });
    }
    Instance::new(n, crate::instance::Model::default()).map_err(VerifyError::from)
}

/// A reading error of the DIMACS file `name` as a [`VerifyError`].
fn dimacs_error(name: &str, e: DimacsError) -> VerifyError {
    match &e.kind {
        crate::cnf::DimacsErrorKind::Io(why) => {
            VerifyError::Unreadable(format!("cannot read {name}: {why}"))
        }
        _ => VerifyError::NotDimacs {
            name: name.to_string(),
            source: e,
        },
    }
}

/// Reads the clauses of `file` into `sink`, within [`MAX_FORMULA_BYTES`].
fn read_file_into<S: ClauseSink + ?Sized>(file: &CnfFile, sink: &mut S) -> Result<(), VerifyError> {
    let name = file.path.display().to_string();
    let f = std::fs::File::open(&file.path).map_err(|source| VerifyError::Read {
        name: name.clone(),
        source,
    })?;
    let limits = ReadLimits {
        max_bytes: MAX_FORMULA_BYTES,
        ..ReadLimits::default()
    };
    let counts = read_dimacs_into(BufReader::with_capacity(1 << 16, f), &limits, sink)
        .map_err(|e| dimacs_error(&name, e))?;
    if counts.vars != file.vars {
        return Err(VerifyError::Unreadable(format!(
            "{name} changed while it was read"
        )));
    }
    Ok(())
}

/// Evaluates a file's clauses as they are read: counts them, keeps the first false one, and
/// tells whether they are, clause for clause, those of a formula in memory.
struct FileClauses<'a> {
    values: &'a [bool],
    formula: Option<&'a Cnf>,
    clauses: usize,
    same: bool,
    first_false: Option<(usize, Vec<Lit>)>,
}

impl<'a> FileClauses<'a> {
    fn new(values: &'a [bool], formula: Option<&'a Cnf>) -> Self {
        FileClauses {
            values,
            formula,
            clauses: 0,
            same: formula.is_some(),
            first_false: None,
        }
    }

    /// `true` when the clauses read are exactly those of the formula in memory.
    fn is_formula(&self) -> bool {
        self.same && self.formula.is_some_and(|f| f.len() == self.clauses)
    }
}

impl ClauseSink for FileClauses<'_> {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        if self.first_false.is_none()
            && !clause
                .iter()
                .any(|l| self.values.get(l.index()).copied().unwrap_or(false) == l.is_positive())
        {
            self.first_false = Some((self.clauses, clause.to_vec()));
        }
        if let Some(f) = self.formula {
            self.same = self.same && self.clauses < f.len() && f.clause(self.clauses) == clause;
        }
        self.clauses += 1;
        Ok(())
    }
}

/// Checks `values` against every clause of `file`: the clause count, the first false clause
/// (in the instance's words when it is the instance's clause at its place, `named`), and
/// whether the file is, clause for clause, `formula` (the instance's, when in memory).
fn check_file(
    inst: &Instance,
    file: &CnfFile,
    values: &[bool],
    formula: Option<&Cnf>,
) -> Result<(usize, Result<(), CnfProblem>, bool, bool), VerifyError> {
    let mut sink = FileClauses::new(values, formula);
    read_file_into(file, &mut sink)?;
    let same = sink.is_formula();
    let Some((i, lits)) = sink.first_false else {
        return Ok((sink.clauses, Ok(()), true, same));
    };
    let (violation, named) = file_violation(inst, file, i, &lits, formula);
    Ok((
        sink.clauses,
        Err(CnfProblem::Falsified(violation)),
        named,
        same,
    ))
}

/// Clause `i` (0-based) of `file`, `lits`, false: with its group and names when the file's
/// header gives the formula and it is that formula's clause `i` (`true`), else as written.
fn file_violation(
    inst: &Instance,
    file: &CnfFile,
    i: usize,
    lits: &[Lit],
    formula: Option<&Cnf>,
) -> (ClauseViolation, bool) {
    if matches!(file.cells, CellSource::Command(_)) {
        let built;
        let cnf = match formula {
            Some(c) => Some(c),
            None if inst.check_size(Limits::IN_MEMORY).is_ok() => {
                built = to_labelled_cnf(inst).cnf;
                Some(&built)
            }
            None => None,
        };
        if let Some(cnf) = cnf.filter(|c| i < c.len() && c.clause(i) == lits) {
            return (clause_violation(inst, cnf, i), true);
        }
    }
    let violation = ClauseViolation {
        number: i + 1,
        tag: String::new(),
        meaning: String::new(),
        literals: lits.iter().map(|l| l.to_dimacs().to_string()).collect(),
    };
    (violation, false)
}

/// The board of `values` (the file's variables): decoded by the instance from its variables,
/// and checked.
fn board_of(inst: &Instance, values: &[bool]) -> (Option<Placement>, Result<(), BoardProblem>) {
    let k = (inst.num_vars() as usize).min(values.len());
    match inst.decode(&values[..k]) {
        Ok(p) => {
            let b = inst.check_board(&p);
            (Some(p), b)
        }
        Err(e) => (None, Err(e.into())),
    }
}

/// The values of the `vars` variables of a model given as literals.
fn values_of_lits(lits: &[Lit], vars: usize) -> Vec<bool> {
    let mut values = vec![false; vars];
    for l in lits {
        if let Some(v) = values.get_mut(l.index()) {
            *v = l.is_positive();
        }
    }
    values
}

/// Writes the first line of a report against a file: its counts, and where its board comes
/// from.
fn write_file_line(out: &mut dyn Write, inst: &Instance, file: &CnfFile) -> io::Result<()> {
    let name = file.path.display();
    let n = inst.n();
    let counts = format!("{} variables, {} clauses", file.vars, file.clauses);
    match &file.cells {
        CellSource::Command(command) => writeln!(
            out,
            "file: {name} ({counts}), written by: {}",
            escape(command, 300)
        ),
        CellSource::HeaderCells => writeln!(
            out,
            "file: {name} ({counts}); n = {n} and the cells q(r,c) = (r-1)*{n} + c from its header"
        ),
        CellSource::Reference => writeln!(
            out,
            "file: {name} ({counts}), without a queens-sat header: the cells are taken to be q(r,c) = (r-1)*{n} + c, variables 1..{} (the reference numbering)",
            n * n
        ),
    }
}

/// [`verify`] against the clauses of a DIMACS file: the model checked clause by clause as the
/// file is read, the board read by the instance; a one-line placement completed by the
/// embedded solver when the file has variables the board does not fix; an UNSAT claim checked
/// by the embedded solver on the file.
fn verify_against_file(
    req: &VerifyRequest,
    file: &CnfFile,
    out: &mut dyn Write,
) -> Result<Ending, VerifyError> {
    let inst = &req.instance;
    let n = inst.n();
    let name = req.answer.display().to_string();
    let file_name = file.path.display().to_string();
    let text = read_answer(&req.answer, answer_cap(file.vars as u64))?;
    let vars = file.vars;
    let budget = Budget::unlimited();
    if looks_like_one_line(&text) {
        let p = Placement::parse_one_line(&text, Some(n)).map_err(|e| {
            VerifyError::Unreadable(format!("{name}: not a one-line placement for n = {n}: {e}"))
        })?;
        write_file_line(out, inst, file)?;
        writeln!(out, "answer: one-line placement {}", p.to_one_line())?;
        let board = inst.check_board(&p);
        let fixed: Vec<Lit> = (0..n).flat_map(|r| inst.value_lits(r, p.col(r))).collect();
        let values = if inst.projection().len() == vars {
            // The board fixes every variable of the file.
            Some(values_of_lits(&fixed, vars))
        } else {
            let mut solver = Backend::default().solver(&budget)?;
            read_file_into(file, solver.as_mut())?;
            if solver.solve(&fixed, &budget)? {
                Some(values_of_lits(&solver.model(vars)?, vars))
            } else {
                None
            }
        };
        let (clauses, cnf, named) = match values {
            Some(values) => {
                let (clauses, cnf, named, _) = check_file(inst, file, &values, None)?;
                (clauses, cnf, named)
            }
            None => (file.clauses as usize, Err(CnfProblem::NoExtension), true),
        };
        if req.explain {
            writeln!(
                out,
                "(no group-by-group check of a one-line placement against a file)"
            )?;
        }
        let report = VerifyReport {
            placement: Some(p),
            board,
            cnf,
            clauses,
            vars,
        };
        let against = Against::File {
            name: &file_name,
            named,
        };
        return Ok(write_report_against(out, inst, &report, None, &against)?);
    }
    let (answer, format) = parse_solver_answer(&text)
        .map_err(|e| VerifyError::Unreadable(format!("{name}: {}", escape(&e.to_string(), 300))))?;
    match answer {
        SolverAnswer::Sat(a) => {
            let max_var = a.max_var();
            if max_var <= vars {
                let missing = a.missing(vars);
                if let Some(&first) = missing.first() {
                    let m = ModelMismatch::MissingVars {
                        count: missing.len(),
                        first: format!("{} = {}", first.to_dimacs(), inst.var_name(first)),
                        max_var,
                        formula_vars: vars,
                        n,
                    };
                    return Err(VerifyError::Unreadable(format!(
                        "{name}: incomplete model: {m}"
                    )));
                }
            }
            write_file_line(out, inst, file)?;
            writeln!(out, "answer: SATISFIABLE ({format})")?;
            let values = a.to_bools(vars);
            let (placement, board) = board_of(inst, &values);
            // The formula in memory, to tell whether the file is it (for the groups).
            let formula = (req.explain
                && matches!(file.cells, CellSource::Command(_))
                && inst.check_size(Limits::IN_MEMORY).is_ok())
            .then(|| to_labelled_cnf(inst).cnf);
            let (clauses, checked, named, same) =
                check_file(inst, file, &values, formula.as_ref())?;
            let cnf = if max_var > vars {
                Err(CnfProblem::Mismatch(ModelMismatch::ExtraVars {
                    max_var,
                    formula_vars: vars,
                    n,
                }))
            } else {
                checked
            };
            let groups = (req.explain && same && max_var <= vars).then_some(&a);
            if req.explain && groups.is_none() {
                let why = match (&file.cells, &formula) {
                    (CellSource::Command(_), None) => {
                        "the formula is too large to hold in memory".to_string()
                    }
                    (CellSource::Command(_), Some(_)) if max_var > vars => {
                        "the model does not fit the file".to_string()
                    }
                    (CellSource::Command(_), Some(_)) => {
                        format!("the clauses of {file_name} are not those of the formula its header names")
                    }
                    _ => format!("{file_name} names no formula whose groups its clauses are"),
                };
                writeln!(out, "(no group-by-group check: {why})")?;
            }
            let report = VerifyReport {
                placement,
                board,
                cnf,
                clauses,
                vars,
            };
            let against = Against::File {
                name: &file_name,
                named,
            };
            Ok(write_report_against(out, inst, &report, groups, &against)?)
        }
        SolverAnswer::Unsat => {
            write_file_line(out, inst, file)?;
            writeln!(out, "answer: UNSATISFIABLE ({format})")?;
            let mut solver = Backend::default().solver(&budget)?;
            read_file_into(file, solver.as_mut())?;
            if !solver.solve(&[], &budget)? {
                writeln!(
                    out,
                    "correct: {file_name} has no model (the embedded solver finds none)"
                )?;
                return Ok(Ending::Success);
            }
            let values = values_of_lits(&solver.model(vars)?, vars);
            match board_of(inst, &values) {
                (Some(p), Ok(())) => writeln!(
                    out,
                    "WRONG: {file_name} is satisfiable, e.g. by the solution {}",
                    p.to_one_line()
                )?,
                (_, board) => writeln!(
                    out,
                    "WRONG: {file_name} is satisfiable: the embedded solver finds a model{}",
                    board
                        .err()
                        .map(|e| format!(" (its board is not a solution: {e})"))
                        .unwrap_or_default()
                )?,
            }
            Ok(Ending::Failure)
        }
        SolverAnswer::Unknown => {
            write_file_line(out, inst, file)?;
            writeln!(out, "answer: UNKNOWN ({format}): the solver gave no answer")?;
            Ok(Ending::Failure)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_from_the_first_comments_only() {
        let h = read_cnf_header(
            &b"c t pmc\nc queens-sat 9.9.9: n-queens CNF\nc n = 5\nc model: x\nc command: queens-sat encode 5 --amo sequential\nc variables: var (r-1)*5 + c = q(r,c), ...\np cnf 1 0\nc n = 6\n"[..],
        );
        assert_eq!(h.tool.as_deref(), Some("queens-sat 9.9.9"));
        assert_eq!(h.n.as_deref(), Some("5"));
        assert_eq!(
            h.command.as_deref(),
            Some("queens-sat encode 5 --amo sequential")
        );
        assert!(h.variables.unwrap().starts_with("var (r-1)*5 + c"));
        // Another tool's comments, or ours after the 'p' line, are no header.
        let h = read_cnf_header(&b"c n = 5\nc command: queens-sat encode 5\np cnf 1 0\n"[..]);
        assert_eq!(h, CnfHeader::default());
        let h = read_cnf_header(&b"p cnf 1 0\nc queens-sat 0.1.0: n-queens CNF\nc n = 5\n"[..]);
        assert_eq!(h, CnfHeader::default());
        // A line without its end past the bound stops the reading.
        let mut long = b"c queens-sat 0.1.0: n-queens CNF\nc ".to_vec();
        long.resize(long.len() + (2 << 20), b'x');
        long.extend_from_slice(b"\nc n = 5\n");
        assert_eq!(read_cnf_header(&long[..]).n, None);
    }
}
