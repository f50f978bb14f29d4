//! What the checks report: a [`RowReport`] per formula with its [`Discrepancy`]s, the
//! [`Summary`] of a run, and the table the command line prints ([`Table`]).

use serde::Serialize;

/// The five checks (and the formula's own consistency), for naming discrepancies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// The formula itself: it could be made and uses only the variables it declares.
    Formula,
    /// 1: the embedded solver's answer and model.
    Sat,
    /// 2: SAT enumeration, the counter and the published table.
    Counts,
    /// 3: the constructed placements against the CNF.
    Construct,
    /// 4: corrupted boards against the CNF.
    Soundness,
    /// 5: external solvers on the DIMACS file.
    External,
    /// 6: the model count with lex-leader symmetry breaking against the number of classes.
    Symmetry,
}

impl Check {
    /// The check's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Check::Formula => "formula",
            Check::Sat => "sat",
            Check::Counts => "counts",
            Check::Construct => "construct",
            Check::Soundness => "soundness",
            Check::External => "external",
            Check::Symmetry => "symmetry",
        }
    }
}

/// A disagreement between two parts, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Discrepancy {
    /// Which check found it.
    pub check: Check,
    /// What disagreed, with the board, clause or count involved (1-based).
    pub message: String,
}

impl std::fmt::Display for Discrepancy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.check.name(), self.message)
    }
}

/// What one external solver said about one formula.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExternalResult {
    /// The solver command.
    pub solver: String,
    /// `SAT` (model verified), `UNSAT`, `timeout`, `not on PATH`, or what went wrong.
    pub status: String,
    /// `false` when its answer disagrees with the other parts.
    pub agrees: bool,
}

/// The outcome of the checks for one n and one formula.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowReport {
    /// Board size.
    pub n: usize,
    /// The formula's name.
    pub encoding: String,
    /// Variables declared.
    pub vars: usize,
    /// Clauses emitted.
    pub clauses: usize,
    /// The embedded solver's answer (`None` if it failed).
    pub sat: Option<bool>,
    /// Models enumerated by SAT (`None`: enumeration skipped for this n, or stopped early).
    pub models: Option<u64>,
    /// The backtracking counter's total (`None` beyond its range).
    pub counter: Option<u64>,
    /// The published total (`None` beyond n = 27).
    pub reference: Option<u64>,
    /// Distinct constructed placements checked against the CNF.
    pub constructed: usize,
    /// Corrupted boards checked against the CNF.
    pub corruptions: usize,
    /// Models enumerated by SAT with lex-leader symmetry breaking (`None`: not checked): the
    /// classes of solutions under the symmetries of the square that map the board onto itself.
    pub classes: Option<u64>,
    /// External solvers' answers.
    pub external: Vec<ExternalResult>,
    /// When the embedded solver answered UNSAT: the lemmas of its DRAT proof, which the
    /// library's checker and VeriPB accepted (`None` otherwise, or when the proof failed:
    /// then a discrepancy says why).
    pub proof_lemmas: Option<u64>,
    /// Everything that disagreed.
    pub discrepancies: Vec<Discrepancy>,
    /// Wall time of the row, seconds.
    pub seconds: f64,
}

impl RowReport {
    /// `true` when every check agreed.
    pub fn ok(&self) -> bool {
        self.discrepancies.is_empty()
    }

    pub(super) fn fail(&mut self, check: Check, message: impl Into<String>) {
        self.discrepancies.push(Discrepancy {
            check,
            message: message.into(),
        });
    }
}

/// All rows of a run and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The rows, in the order of the formulas given.
    pub rows: Vec<RowReport>,
    /// Number of discrepancies over all rows.
    pub discrepancies: usize,
    /// `true` when every check of every row agreed.
    pub ok: bool,
}

/// The table of a run as the command line prints it, a line per row as it comes: the widths of
/// its columns fit the formulas' names and the largest count the rows can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// The width of the encoding column.
    width: usize,
    /// The width of the count columns.
    numw: usize,
}

impl Table {
    /// The table of the formulas named `names` over the board sizes `ns` (their published
    /// counts set the width of the count columns).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>, ns: &[usize]) -> Table {
        let width = names.into_iter().map(str::len).max().unwrap_or(8).max(8);
        // Wide enough for the largest count the rows can show.
        let numw = ns
            .iter()
            .filter_map(|&n| super::reference_total(n))
            .map(|d| d.to_string().len())
            .max()
            .unwrap_or(0)
            .max(7);
        Table { width, numw }
    }

    /// The header line.
    pub fn header(&self) -> String {
        let (width, numw) = (self.width, self.numw);
        format!(
            "{:>3}  {:<width$}  {:>6}  {:>8}  {:<5}  {:>numw$}  {:>numw$}  {:>numw$}  {:>9}  {:>7}  {:<6}  external\n",
            "n", "encoding", "vars", "clauses", "sat", "models", "counter", "table", "construct", "corrupt", "result"
        )
    }

    /// One row, with the proof of an UNSAT answer and the discrepancies on the lines below.
    pub fn row(&self, r: &RowReport) -> String {
        let (width, numw) = (self.width, self.numw);
        let opt = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |x| x.to_string());
        let sat = match r.sat {
            Some(true) => "SAT",
            Some(false) => "UNSAT",
            None => "?",
        };
        let construct = if r.constructed == 0 {
            "-".to_string()
        } else {
            r.constructed.to_string()
        };
        let external = if r.external.is_empty() {
            "-".to_string()
        } else {
            r.external
                .iter()
                .map(|e| format!("{} {}", e.solver, e.status))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut s = format!(
            "{:>3}  {:<width$}  {:>6}  {:>8}  {:<5}  {:>numw$}  {:>numw$}  {:>numw$}  {:>9}  {:>7}  {:<6}  {}\n",
            r.n,
            r.encoding,
            r.vars,
            r.clauses,
            sat,
            opt(r.models),
            opt(r.counter),
            opt(r.reference),
            construct,
            r.corruptions,
            if r.ok() { "ok" } else { "FAIL" },
            external
        );
        if let Some(lemmas) = r.proof_lemmas {
            let how = if lemmas == 0 {
                "unit propagation alone refutes the formula".to_string()
            } else {
                format!("DRAT, {lemmas} lemma{}", if lemmas == 1 { "" } else { "s" })
            };
            s.push_str(&format!(
                "       n = {}, {}: UNSAT proved ({how}, checked by the DRAT checker of queens-sat and VeriPB)\n",
                r.n, r.encoding
            ));
        }
        for d in &r.discrepancies {
            s.push_str(&format!("     ! n = {}, {}: {d}\n", r.n, r.encoding));
        }
        s
    }
}

/// `1 row`, `70 rows`.
pub fn plural(k: usize, what: &str) -> String {
    if k == 1 {
        format!("1 {what}")
    } else {
        format!("{k} {what}s")
    }
}

impl Summary {
    /// The verdict line: all checks agree over `checked` (`10 board sizes x 2 models`), or
    /// the number of discrepancies and of the rows they are in.
    pub fn verdict(&self, checked: &str) -> String {
        if self.ok {
            return format!(
                "verdict: all checks agree ({}: {checked})\n",
                plural(self.rows.len(), "row")
            );
        }
        let bad = self.rows.iter().filter(|r| !r.ok()).count();
        format!(
            "verdict: {} in {bad} of {}\n",
            if self.discrepancies == 1 {
                "1 discrepancy".to_string()
            } else {
                format!("{} discrepancies", self.discrepancies)
            },
            plural(self.rows.len(), "row")
        )
    }
}

/// `there is 1 solution`, `there are 92 solutions`.
pub(super) fn there_are(k: u64) -> String {
    if k == 1 {
        "there is 1 solution".to_string()
    } else {
        format!("there are {k} solutions")
    }
}
