//! Formula files as instances of a sweep (`compare --instance f.cnf`, `f.opb`): a DIMACS CNF
//! or OPB file is not a board but a formula, solved as it is by every solver of the sweep that
//! reads its format (the SAT solvers DIMACS, the pseudo-Boolean solvers OPB), each model
//! checked against every clause or constraint of the file ([`run_formulas`]).
//!
//! A file is a formula by its extension (`.cnf`, `.dimacs`; `.opb`) or by its first lines
//! (`p cnf` after `c` comments; `* #variable=`) ([`FormulaKind::of`]). It is read whole before
//! the sweep ([`FormulaFile::read`]): a malformed file is refused with its line, and the
//! counts of its header, its literal occurrences and (for DIMACS) its GBD identifier go into
//! its rows. Rows name it in `value` (by file name), with `file` as the encoding and the
//! format (`dimacs`, `opb`) as the family; their `n` is 0 (no board).
//!
//! A model is checked by reading the file again: every clause must hold a literal the model
//! makes true, and no variable of the model may lie beyond the header's; every OPB constraint
//! (linear or with products of literals; `>=`, `<=`, `=`, `>`, `<`) must hold, with a value
//! for every variable it names. An UNSAT answer is taken as given (compare's `--expected`
//! checks it against known answers).

use super::attempt::{one_line, run_status, Attempt};
use super::row::{row_key, RowKey};
use super::run::{record_times, runs, Measures};
use super::{in_shard, Metadata, Row, SolverSpec, SweepConfig, SweepError};
use crate::cnf::{ClauseSink, GbdHasher, Lit, ReadLimits, MAX_FORMULA_BYTES};
use crate::solve::runner;
use crate::solve::Assignment;
use std::collections::HashSet;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// The `encoding` of a formula file's rows: the file is solved as it is.
pub const FORMULA_ENCODING: &str = "file";

/// The format of a formula file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormulaKind {
    /// DIMACS CNF, for the SAT solvers.
    Dimacs,
    /// OPB (the Pseudo-Boolean Competition's format), for the pseudo-Boolean solvers.
    Opb,
}

/// How many bytes of a file [`FormulaKind::of`] looks at.
const SNIFF_BYTES: u64 = 1 << 16;

impl FormulaKind {
    /// The format as rows name it in their `family` column: `dimacs` or `opb`.
    pub fn name(self) -> &'static str {
        match self {
            FormulaKind::Dimacs => "dimacs",
            FormulaKind::Opb => "opb",
        }
    }

    /// The format of a formula file: by its extension (`.cnf`, `.dimacs`, `.opb`, without
    /// regard to case), else by its first lines (a `p cnf` line after `c` comments and blank
    /// lines; a first line `* #variable=`); `None` for any other file (an instance file of a
    /// board, or one that cannot be read).
    pub fn of(path: &Path) -> Option<FormulaKind> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("cnf" | "dimacs") => return Some(FormulaKind::Dimacs),
            Some("opb") => return Some(FormulaKind::Opb),
            _ => {}
        }
        let mut head = Vec::new();
        std::fs::File::open(path)
            .ok()?
            .take(SNIFF_BYTES)
            .read_to_end(&mut head)
            .ok()?;
        let text = String::from_utf8_lossy(&head);
        for line in text.lines().map(str::trim) {
            if line.starts_with("* #variable=") {
                return Some(FormulaKind::Opb);
            }
            if line.starts_with("p cnf") {
                return Some(FormulaKind::Dimacs);
            }
            if !(line.is_empty() || line.starts_with('c')) {
                return None;
            }
        }
        None
    }

    /// `true` when `solver` reads this format: the pseudo-Boolean solvers OPB, the SAT solvers
    /// DIMACS (the engines that need a board, and chains, read neither).
    pub fn read_by(self, solver: &SolverSpec) -> bool {
        !solver.solves_boards() && solver.opb == (self == FormulaKind::Opb)
    }
}

/// Why a formula file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum FormulaError {
    /// The file cannot be opened or read.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The DIMACS file is malformed.
    #[error("{}: {error}", .path.display())]
    Dimacs {
        /// The file.
        path: PathBuf,
        /// What is wrong, and on which line.
        error: crate::cnf::DimacsError,
    },
    /// The OPB file is malformed.
    #[error("{}, line {line}: {why}", .path.display())]
    Opb {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
}

/// A formula file of a sweep, read: what its rows record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormulaFile {
    /// The file.
    pub path: PathBuf,
    /// Its name in rows (`value`): its file name.
    pub name: String,
    /// Its format.
    pub kind: FormulaKind,
    /// The variables of its header.
    pub vars: u64,
    /// Its clauses (DIMACS) or constraints (OPB, the objective not counted).
    pub clauses: u64,
    /// Its literal occurrences.
    pub literals: u64,
    /// Its size.
    pub bytes: u64,
    /// The GBD identifier of a DIMACS file's clauses (empty for OPB).
    pub gbd_hash: String,
}

/// Counts the literals of the clauses it is given and hashes them.
#[derive(Default)]
struct Tally {
    literals: u64,
    hasher: GbdHasher,
}

impl ClauseSink for Tally {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        self.literals += clause.len() as u64;
        self.hasher.add_clause(clause)
    }
}

/// The limits of a formula file read: [`MAX_FORMULA_BYTES`], as many variables as a literal
/// can name.
fn limits() -> ReadLimits {
    ReadLimits {
        max_bytes: MAX_FORMULA_BYTES,
        ..ReadLimits::default()
    }
}

/// Streams the DIMACS file at `path` through `sink`.
fn read_dimacs(
    path: &Path,
    sink: &mut dyn ClauseSink,
) -> Result<crate::cnf::DimacsCounts, FormulaError> {
    let file = std::fs::File::open(path).map_err(|source| FormulaError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    crate::cnf::read_dimacs_into(BufReader::with_capacity(1 << 16, file), &limits(), sink).map_err(
        |error| FormulaError::Dimacs {
            path: path.to_path_buf(),
            error,
        },
    )
}

/// The text of the OPB file at `path` (at most [`MAX_FORMULA_BYTES`]).
fn opb_text(path: &Path) -> Result<String, FormulaError> {
    crate::input::read_text_file(path, MAX_FORMULA_BYTES, "OPB file").map_err(|e| {
        FormulaError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(e.to_string()),
        }
    })
}

impl FormulaFile {
    /// Reads the formula file at `path`, of format `kind`, whole (see the module
    /// documentation), named `name` in rows.
    pub fn read(path: &Path, name: String, kind: FormulaKind) -> Result<FormulaFile, FormulaError> {
        let bytes = std::fs::metadata(path)
            .map_err(|source| FormulaError::Io {
                path: path.to_path_buf(),
                source,
            })?
            .len();
        let (vars, clauses, literals, gbd_hash) = match kind {
            FormulaKind::Dimacs => {
                let mut tally = Tally::default();
                let counts = read_dimacs(path, &mut tally)?;
                let hash = tally.hasher.finish();
                (counts.vars as u64, counts.clauses, tally.literals, hash)
            }
            FormulaKind::Opb => {
                let mut literals = 0u64;
                let opb = read_opb(&opb_text(path)?, |c| {
                    literals += c.terms.iter().map(|t| t.1.len() as u64).sum::<u64>();
                    Ok(())
                })
                .map_err(|(line, why)| FormulaError::Opb {
                    path: path.to_path_buf(),
                    line,
                    why,
                })?;
                (opb.vars as u64, opb.constraints, literals, String::new())
            }
        };
        Ok(FormulaFile {
            path: path.to_path_buf(),
            name,
            kind,
            vars,
            clauses,
            literals,
            bytes,
            gbd_hash,
        })
    }

    /// Checks `model` against the file (read again): `Ok(Ok(()))` when it satisfies every
    /// clause or constraint, `Ok(Err(why))` with the first one it breaks, in words; `Err` when
    /// the file cannot be read.
    pub fn check(&self, model: &Assignment) -> Result<Result<(), String>, FormulaError> {
        if model.max_var() as u64 > self.vars {
            return Ok(Err(format!(
                "the model names variable {}, beyond the {} variables of the file",
                model.max_var(),
                self.vars
            )));
        }
        let mut values = vec![None; self.vars as usize];
        for l in model.lits() {
            values[l.index()] = Some(l.is_positive());
        }
        match self.kind {
            FormulaKind::Dimacs => {
                let mut check = ClauseCheck {
                    values: &values,
                    clauses: 0,
                    first_false: None,
                };
                read_dimacs(&self.path, &mut check)?;
                Ok(match check.first_false {
                    None => Ok(()),
                    Some((number, clause)) => Err(format!(
                        "clause {number} of the file is false: {}",
                        dimacs_text(&clause)
                    )),
                })
            }
            FormulaKind::Opb => {
                let mut number = 0;
                let checked = read_opb(&opb_text(&self.path)?, |c| {
                    number += 1;
                    c.holds(&values).map_err(|why| {
                        (
                            c.line,
                            format!("constraint {number} (line {}) {why}", c.line),
                        )
                    })
                });
                Ok(checked.map(|_| ()).map_err(|(_, why)| why))
            }
        }
    }
}

/// A clause as DIMACS literals, at most 10 of them shown.
fn dimacs_text(clause: &[Lit]) -> String {
    const SHOWN: usize = 10;
    let mut text: Vec<String> = clause
        .iter()
        .take(SHOWN)
        .map(|l| l.to_dimacs().to_string())
        .collect();
    if clause.len() > SHOWN {
        text.push(format!("... ({} literals)", clause.len()));
    }
    if text.is_empty() {
        "the empty clause".into()
    } else {
        text.join(" ")
    }
}

/// Evaluates each clause under a model (`values`, `None` for a variable without a value),
/// keeping the first without a true literal.
struct ClauseCheck<'a> {
    values: &'a [Option<bool>],
    clauses: u64,
    first_false: Option<(u64, Vec<Lit>)>,
}

impl ClauseSink for ClauseCheck<'_> {
    fn add_clause(&mut self, clause: &[Lit]) -> std::io::Result<()> {
        self.clauses += 1;
        if self.first_false.is_none()
            && !clause
                .iter()
                .any(|l| self.values[l.index()] == Some(l.is_positive()))
        {
            self.first_false = Some((self.clauses, clause.to_vec()));
        }
        Ok(())
    }
}

/// The relation of an OPB constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relation {
    AtLeast,
    AtMost,
    Equal,
    Greater,
    Less,
}

impl Relation {
    fn parse(token: &str) -> Option<Relation> {
        Some(match token {
            ">=" => Relation::AtLeast,
            "<=" => Relation::AtMost,
            "=" => Relation::Equal,
            ">" => Relation::Greater,
            "<" => Relation::Less,
            _ => return None,
        })
    }

    fn text(self) -> &'static str {
        match self {
            Relation::AtLeast => ">=",
            Relation::AtMost => "<=",
            Relation::Equal => "=",
            Relation::Greater => ">",
            Relation::Less => "<",
        }
    }
}

/// One constraint of an OPB file: terms (a coefficient and a product of literals, each a
/// 0-based variable and whether it is negated `~x`), the relation and the right side.
#[derive(Debug)]
struct Constraint {
    /// The line it starts on.
    line: usize,
    terms: Vec<(i128, Vec<(usize, bool)>)>,
    relation: Relation,
    rhs: i128,
}

impl Constraint {
    /// Whether the constraint holds under `values`: `Err` with why not (its left side, or a
    /// variable without a value).
    fn holds(&self, values: &[Option<bool>]) -> Result<(), String> {
        let mut lhs: i128 = 0;
        for (coefficient, product) in &self.terms {
            let mut all = true;
            for &(var, negated) in product {
                let Some(value) = values.get(var).copied().flatten() else {
                    return Err(format!(
                        "names x{}, which the model gives no value",
                        var + 1
                    ));
                };
                all &= value != negated;
            }
            if all {
                lhs = lhs.saturating_add(*coefficient);
            }
        }
        let holds = match self.relation {
            Relation::AtLeast => lhs >= self.rhs,
            Relation::AtMost => lhs <= self.rhs,
            Relation::Equal => lhs == self.rhs,
            Relation::Greater => lhs > self.rhs,
            Relation::Less => lhs < self.rhs,
        };
        if holds {
            Ok(())
        } else {
            Err(format!(
                "is false: its left side is {lhs}, not {} {}",
                self.relation.text(),
                self.rhs
            ))
        }
    }
}

/// The counts of an OPB file's header.
struct OpbCounts {
    vars: usize,
    constraints: u64,
}

/// Reads OPB text: the header `* #variable= V #constraint= C` on the first line, `*` comment
/// lines, an optional objective (`min:` or `max:`, skipped), then constraints ending in `;`,
/// each handed to `each` (whose error stops the reading). Every variable must be within
/// `x1..xV`, and there must be C constraints. Errors: the line and what is wrong.
fn read_opb(
    text: &str,
    mut each: impl FnMut(&Constraint) -> Result<(), (usize, String)>,
) -> Result<OpbCounts, (usize, String)> {
    let first = text.lines().next().unwrap_or("");
    let field = |name: &str| -> Option<u64> {
        let mut words = first.split_whitespace();
        words.find(|w| *w == name)?;
        words.next()?.parse().ok()
    };
    let (Some(vars), Some(declared)) = (field("#variable="), field("#constraint=")) else {
        return Err((
            1,
            "the first line is not '* #variable= V #constraint= C'".into(),
        ));
    };
    let vars = usize::try_from(vars)
        .ok()
        .filter(|&v| v <= crate::cnf::Var::max_count())
        .ok_or_else(|| (1, format!("{vars} variables, more than a literal can name")))?;
    let mut constraints = 0u64;
    let mut tokens: Vec<(usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim_start().starts_with('*') {
            continue;
        }
        for piece in line.split_inclusive(';') {
            let (body, end) = match piece.strip_suffix(';') {
                Some(b) => (b, true),
                None => (piece, false),
            };
            tokens.extend(body.split_whitespace().map(|t| (line_no, t)));
            if end {
                let start = tokens.first().map_or(line_no, |t| t.0);
                if let Some(c) = statement(&tokens, vars).map_err(|why| (start, why))? {
                    constraints += 1;
                    each(&c)?;
                }
                tokens.clear();
            }
        }
    }
    if let Some(&(line, _)) = tokens.first() {
        return Err((line, "a constraint without its ending ';'".into()));
    }
    if constraints != declared {
        return Err((
            1,
            format!("the header says {declared} constraints, the file has {constraints}"),
        ));
    }
    Ok(OpbCounts { vars, constraints })
}

/// One statement of an OPB file (its tokens, `;` left out): a constraint, or `None` for the
/// objective.
fn statement(tokens: &[(usize, &str)], vars: usize) -> Result<Option<Constraint>, String> {
    let Some(&(line, first)) = tokens.first() else {
        return Err("an empty statement (';' alone)".into());
    };
    if first == "min:" || first == "max:" {
        return Ok(None);
    }
    let mut terms: Vec<(i128, Vec<(usize, bool)>)> = Vec::new();
    let mut rest = tokens.iter().map(|t| t.1);
    let relation = loop {
        let Some(token) = rest.next() else {
            return Err("a constraint without a relation (>=, <=, =, >, <)".into());
        };
        if let Some(r) = Relation::parse(token) {
            break r;
        }
        if let Ok(c) = token.parse::<i128>() {
            terms.push((c, Vec::new()));
            continue;
        }
        let (negated, name) = match token.strip_prefix('~') {
            Some(n) => (true, n),
            None => (false, token),
        };
        let var = name
            .strip_prefix('x')
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&v| v >= 1)
            .ok_or_else(|| format!("'{token}' is neither a coefficient nor a variable xN"))?;
        if var > vars {
            return Err(format!(
                "{name} is beyond the {vars} variables of the header"
            ));
        }
        match terms.last_mut() {
            Some(term) => term.1.push((var - 1, negated)),
            None => return Err(format!("the variable {token} has no coefficient")),
        }
    };
    if let Some((c, _)) = terms.iter().find(|t| t.1.is_empty()) {
        return Err(format!("the coefficient {c} has no variable"));
    }
    let rhs = match (rest.next(), rest.next()) {
        (Some(v), None) => v
            .parse::<i128>()
            .map_err(|_| format!("the right side '{v}' is not an integer"))?,
        _ => return Err("a constraint must end in RELATION INTEGER ;".into()),
    };
    Ok(Some(Constraint {
        line,
        terms,
        relation,
        rhs,
    }))
}

/// Runs every formula file of `formulas` with every solver of the sweep `cfg` that reads its
/// format ([`FormulaKind::read_by`]; with the versions `meta` found), as [`super::run_sweep`]
/// runs a formula of a board: the same limits and repeats, skipping the rows already in
/// `previous`, a shard's share only (the files' runs numbered from `first_unit`, one a file
/// and solver of the sweep), calling `on_step` before each run and `on_row` as each row is
/// finished. A model that breaks a clause or constraint of the file gives a `WRONG` row.
pub fn run_formulas<E: From<SweepError>>(
    cfg: &SweepConfig,
    formulas: &[FormulaFile],
    first_unit: usize,
    meta: &Metadata,
    previous: &[Row],
    mut on_step: impl FnMut(&str),
    mut on_row: impl FnMut(&Row) -> Result<(), E>,
) -> Result<(), E> {
    let skip: HashSet<RowKey> = previous.iter().map(row_key).collect();
    let repeats = cfg.repeats.max(1);
    for (i, formula) in formulas.iter().enumerate() {
        for (k, solver) in cfg.solvers.iter().enumerate() {
            let unit = first_unit + i * cfg.solvers.len() + k;
            let version = meta.solvers.iter().find(|(n, _)| *n == solver.name);
            let (Some((_, version)), true) = (version, formula.kind.read_by(solver)) else {
                continue;
            };
            if !cfg.shard.is_none_or(|sh| in_shard(unit, sh)) {
                continue;
            }
            let mut row = Row {
                n: 0,
                encoding: FORMULA_ENCODING.into(),
                solver: solver.name.clone(),
                family: formula.kind.name().into(),
                value: formula.name.clone(),
                vars: formula.vars,
                clauses: formula.clauses,
                literals: formula.literals,
                dimacs_bytes: formula.bytes,
                solver_version: version.clone(),
                gbd_hash: formula.gbd_hash.clone(),
                ..cfg.row(meta)
            };
            if skip.contains(&row_key(&row)) {
                continue;
            }
            let measured = run_formula(cfg, formula, solver, &mut row, &mut |rep| {
                on_step(&format!(
                    "{} {} run {}/{repeats}",
                    formula.name,
                    solver.name,
                    rep + 1
                ))
            });
            record_times(&mut row, &measured);
            on_row(&row)?;
        }
    }
    Ok(())
}

/// The repeats of one solver on one formula file: the row's status, conflicts and decisions
/// set, what the runs measured returned.
fn run_formula(
    cfg: &SweepConfig,
    formula: &FormulaFile,
    solver: &SolverSpec,
    row: &mut Row,
    on_step: &mut dyn FnMut(usize),
) -> Measures {
    let command = solver.to_command();
    let input = match formula.kind {
        FormulaKind::Dimacs => runner::CnfInput::File(&formula.path),
        FormulaKind::Opb => runner::CnfInput::Opb {
            path: &formula.path,
            vars: formula.vars as usize,
        },
    };
    let request = runner::RunRequest::new(&command, input)
        .timeout(Some(cfg.timeout))
        .cpu_limit(cfg.cpu_limit)
        .memory_limit(cfg.memory_limit);
    let mut once = || -> Result<Attempt, SweepError> {
        let out = match runner::run(&request) {
            Ok(out) => out,
            Err(e) => return Ok(Attempt::error(&format!("{e:#}"))),
        };
        let status = match &out.outcome {
            runner::Outcome::Sat { model, .. } => match formula.check(model) {
                Ok(Ok(())) => "SAT".into(),
                Ok(Err(why)) => format!("WRONG: {}", one_line(&why)),
                Err(e) => format!(
                    "ERROR: cannot check the model: {}",
                    one_line(&e.to_string())
                ),
            },
            outcome => run_status(outcome, solver),
        };
        Ok(Attempt::of_report(&out, status))
    };
    // A run makes no file: it cannot fail.
    let (last, measured) = runs(cfg.repeats.max(1), on_step, &mut once).unwrap_or_default();
    row.status = last.status;
    row.conflicts = last.conflicts;
    row.decisions = last.decisions;
    measured
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn model(lits: &[isize]) -> Assignment {
        Assignment::from_lits(
            &lits
                .iter()
                .map(|&l| Lit::from_dimacs(l))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn kinds_by_extension_and_content() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let cases = [
            ("a.CNF", "", Some(FormulaKind::Dimacs)),
            ("b.opb", "", Some(FormulaKind::Opb)),
            (
                "c.txt",
                "c hello\n\np cnf 1 1\n1 0\n",
                Some(FormulaKind::Dimacs),
            ),
            (
                "d",
                "* #variable= 1 #constraint= 0\n",
                Some(FormulaKind::Opb),
            ),
            ("e.txt", "queens-sat instance 1\nn 4\n", None),
            ("f.param", "n = 10\n", None),
        ];
        for (name, text, kind) in cases {
            assert_eq!(FormulaKind::of(&file(d, name, text)), kind, "{name}");
        }
        assert_eq!(FormulaKind::of(&d.join("none")), None);
    }

    #[test]
    fn dimacs_models_are_checked_clause_by_clause() {
        let dir = tempfile::tempdir().unwrap();
        let p = file(
            dir.path(),
            "f.cnf",
            "c x\np cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n",
        );
        let f = FormulaFile::read(&p, "f.cnf".into(), FormulaKind::Dimacs).unwrap();
        assert_eq!((f.vars, f.clauses, f.literals), (3, 3, 6));
        // The digest of "1 -2 0 2 3 0 -1 -3 0", as gbd-tools computes it.
        assert_eq!(f.gbd_hash.len(), 32);
        assert_eq!(f.check(&model(&[1, 2, -3])).unwrap(), Ok(()));
        assert_eq!(
            f.check(&model(&[1, 2, 3])).unwrap(),
            Err("clause 3 of the file is false: -1 -3".into())
        );
        // A variable without a value makes no literal true.
        assert_eq!(
            f.check(&model(&[1, -3])).unwrap(),
            Err("clause 2 of the file is false: 2 3".into())
        );
        assert_eq!(
            f.check(&model(&[1, 2, -3, 4])).unwrap(),
            Err("the model names variable 4, beyond the 3 variables of the file".into())
        );
        let bad = file(dir.path(), "g.cnf", "p cnf 2 1\n1 3 0\n");
        let e = FormulaFile::read(&bad, "g.cnf".into(), FormulaKind::Dimacs).unwrap_err();
        assert!(
            e.to_string().ends_with(
                "g.cnf: line 2: literal 3 is beyond the 2 variables of the 'p cnf' line"
            ),
            "{e}"
        );
    }

    #[test]
    fn opb_models_are_checked_constraint_by_constraint() {
        let dir = tempfile::tempdir().unwrap();
        let p = file(
            dir.path(),
            "f.opb",
            "* #variable= 3 #constraint= 3\n* a comment\nmin: +1 x1 ;\n+1 x1 +1 x2 >= 1 ;\n\
             +1 x1 +1 ~x3\n  = 1;\n2 x1 x2 -1 x3 <= 1 ;\n",
        );
        let f = FormulaFile::read(&p, "f.opb".into(), FormulaKind::Opb).unwrap();
        assert_eq!((f.vars, f.clauses, f.literals), (3, 3, 7));
        assert_eq!(f.check(&model(&[1, -2, 3])).unwrap(), Ok(()));
        assert_eq!(
            f.check(&model(&[-1, -2, 3])).unwrap(),
            Err("constraint 1 (line 4) is false: its left side is 0, not >= 1".into())
        );
        assert_eq!(f.check(&model(&[1, 2, 3])).unwrap(), Ok(()));
        assert_eq!(
            f.check(&model(&[1, 2, -3])).unwrap(),
            Err("constraint 2 (line 5) is false: its left side is 2, not = 1".into())
        );
        assert_eq!(
            f.check(&model(&[1, -2])).unwrap(),
            Err("constraint 2 (line 5) names x3, which the model gives no value".into())
        );
        for (text, message) in [
            ("+1 x1 >= 1 ;\n", "line 1: the first line is not"),
            (
                "* #variable= 1 #constraint= 1\n+1 x2 >= 1 ;\n",
                "line 2: x2 is beyond the 1 variables",
            ),
            (
                "* #variable= 1 #constraint= 1\n+1 y1 >= 1 ;\n",
                "line 2: 'y1' is neither",
            ),
            (
                "* #variable= 1 #constraint= 1\n+1 x1 >= 1\n",
                "line 2: a constraint without its ending ';'",
            ),
            (
                "* #variable= 1 #constraint= 2\n+1 x1 >= 1 ;\n",
                "line 1: the header says 2 constraints, the file has 1",
            ),
            (
                "* #variable= 1 #constraint= 1\nx1 >= 1 ;\n",
                "line 2: the variable x1 has no coefficient",
            ),
            (
                "* #variable= 1 #constraint= 1\n+1 x1 >= one ;\n",
                "line 2: the right side 'one'",
            ),
        ] {
            let p = file(dir.path(), "bad.opb", text);
            let e = FormulaFile::read(&p, "bad.opb".into(), FormulaKind::Opb)
                .unwrap_err()
                .to_string();
            assert!(e.contains(message), "{e}");
        }
    }
}
