//! The cell model said to people: [`Namer`] names its variables the way the coursework does,
//! and [`CellWords`] says its groups, lines and clauses (the cell model's
//! [`crate::encode::Encoding::words`]).

use super::{AuxBlock, Group, QueensEncoder};
use crate::board::{Geometry, Line, LineKind};
use crate::cnf::{Cnf, GroupInfo, Lit, Var};
use crate::encode::words::{escape_latex, LineHeading, Notation, Words};
use crate::encode::{cell_of_var, Amo, Label, Rule, VarAlloc};

/// Names variables the way the coursework does.
///
/// Cells are `q(r,c)`. An auxiliary variable is named by its encoding's letter, its line and
/// its position in the line's block: `s(row 2, 3)` is the third sequential-counter variable of
/// row 2. Its meaning ([`Namer::aux_meaning`]) is read off the clauses themselves: which queens
/// on the line force it true and which force it false, by unit propagation over the
/// encoding's binary clauses.
#[derive(Clone, Debug)]
pub struct Namer {
    n: usize,
    geometry: Geometry,
    blocks: Vec<AuxBlock>,
}

/// What the queens of a line force onto one auxiliary variable of its encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuxForcing {
    /// 0-based positions in the line whose queen forces the variable true.
    pub true_by: Vec<usize>,
    /// 0-based positions whose queen forces it false.
    pub false_by: Vec<usize>,
}

/// For each auxiliary variable of `amo` on a line of `m` cells, the positions whose queen
/// forces it true or false, found by propagating each literal through the binary clauses.
pub fn aux_forcing(amo: Amo, m: usize) -> Vec<AuxForcing> {
    let lits: Vec<Lit> = (0..m).map(|i| Lit::from_index(i, true)).collect();
    let mut alloc = VarAlloc::starting_at(m);
    let mut cnf = Cnf::new();
    // Emitting into memory cannot fail.
    let _ = amo.encode(&lits, &mut alloc, &mut cnf);
    let total = alloc.used();
    // Implication graph over literal codes: (a v b) gives -a -> b and -b -> a.
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); 2 * total];
    for c in cnf.iter().filter(|c| c.len() == 2) {
        next[(!c[0]).code()].push(c[1].code());
        next[(!c[1]).code()].push(c[0].code());
    }
    let mut out = vec![
        AuxForcing {
            true_by: Vec::new(),
            false_by: Vec::new()
        };
        total - m
    ];
    for (i, lit) in lits.iter().enumerate() {
        let mut seen = vec![false; 2 * total];
        let mut stack = vec![lit.code()];
        seen[lit.code()] = true;
        while let Some(x) = stack.pop() {
            for &y in &next[x] {
                if !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        for (k, f) in out.iter_mut().enumerate() {
            let v = Var::from_index(m + k);
            if seen[v.positive().code()] {
                f.true_by.push(i);
            }
            if seen[v.negative().code()] {
                f.false_by.push(i);
            }
        }
    }
    out
}

impl Namer {
    /// A namer for the formula `enc` makes.
    pub fn new(enc: &QueensEncoder) -> Self {
        Namer {
            n: enc.n(),
            geometry: enc.geometry(),
            blocks: enc.aux_blocks(),
        }
    }

    /// A line's name on the formula's board: `row 3`, `/ diagonal r+c=5`, or on the torus
    /// `/ diagonal r+c≡5 (mod 8)`.
    pub fn describe_line(&self, line: &Line) -> String {
        line.describe_on(self.n, self.geometry)
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The auxiliary block a variable belongs to and its 1-based position in it.
    pub fn aux_of(&self, v: Var) -> Option<(&AuxBlock, u64)> {
        let d = v.to_dimacs() as u64;
        let k = self.blocks.partition_point(|b| b.first <= d);
        let b = self.blocks.get(k.checked_sub(1)?)?;
        (d < b.first + b.count).then(|| (b, d - b.first + 1))
    }

    /// `q(2,3)` for a cell; `s(row 1, 2)` for the 2nd auxiliary of row 1's sequential counter;
    /// `x17` for a variable past the formula's.
    pub fn var(&self, v: Var) -> String {
        if let Some((r, c)) = cell_of_var(self.n, v) {
            return format!("q({},{})", r + 1, c + 1);
        }
        match self.aux_of(v) {
            Some((b, k)) => format!(
                "{}({}, {k})",
                b.amo.aux_symbol(),
                self.describe_line(&b.line)
            ),
            None => format!("x{}", v.to_dimacs()),
        }
    }

    /// The auxiliary variables of the block that encodes `line` in a group of at-most-one
    /// clauses (none for pairwise), in order.
    pub fn aux_of_line(&self, line: &Line) -> Vec<Var> {
        self.blocks
            .iter()
            .filter(|b| b.line == *line)
            .flat_map(|b| (b.first..b.first + b.count).map(|d| Var::from_dimacs(d as isize)))
            .collect()
    }

    /// What an auxiliary variable stands for, in words, after its name (e.g. "s(row 2, 3):
    /// must be true when a queen is on the first 3 cells of row 2"), or `None` for a cell
    /// variable.
    pub fn aux_meaning(&self, v: Var) -> Option<String> {
        self.aux_forced(v)
            .map(|forced| format!("{}: {forced}", self.var(v)))
    }

    /// [`Namer::aux_meaning`] without the name: which queens force the variable true or false.
    fn aux_forced(&self, v: Var) -> Option<String> {
        let (b, k) = self.aux_of(v)?;
        let cells: Vec<(usize, usize)> = b.line.cells_on(self.n, self.geometry).collect();
        let f = aux_forcing(b.amo, cells.len()).swap_remove(k as usize - 1);
        let line = self.describe_line(&b.line);
        let set = |pos: &[usize]| -> String {
            if pos.len() > 1 && pos.iter().enumerate().all(|(i, &p)| i == p) {
                return format!("the first {} cells of {line}", pos.len());
            }
            let list: Vec<String> = pos
                .iter()
                .map(|&p| format!("({},{})", cells[p].0 + 1, cells[p].1 + 1))
                .collect();
            format!("{} of {line}", list.join(", "))
        };
        let mut parts = Vec::new();
        if !f.true_by.is_empty() {
            parts.push(format!(
                "must be true when a queen is on {}",
                set(&f.true_by)
            ));
        }
        if !f.false_by.is_empty() {
            parts.push(format!(
                "must be false when a queen is on {}",
                set(&f.false_by)
            ));
        }
        if parts.is_empty() {
            parts.push("not forced by any single queen".to_string());
        }
        Some(parts.join("; "))
    }

    /// The LaTeX form: `q_{2,3}`, or `s_{3}^{\text{row 2}}`.
    pub fn var_latex(&self, v: Var) -> String {
        if let Some((r, c)) = cell_of_var(self.n, v) {
            return format!("q_{{{},{}}}", r + 1, c + 1);
        }
        match self.aux_of(v) {
            Some((b, k)) => format!(
                "{}_{{{k}}}^{{\\text{{{}}}}}",
                b.amo.aux_symbol(),
                escape_latex(&self.describe_line(&b.line))
            ),
            None => format!("x_{{{}}}", v.to_dimacs()),
        }
    }
}

/// The cell model's words: variables named by [`Namer`], each group's clause count with its
/// closed form in n where the group is pairwise, each line's auxiliary variables explained
/// where its clauses start, every clause said in words.
#[derive(Clone, Debug)]
pub struct CellWords<'a> {
    enc: &'a QueensEncoder,
    namer: Namer,
    groups: Vec<Group>,
}

impl<'a> CellWords<'a> {
    /// The words of the formula `enc` makes.
    pub fn new(enc: &'a QueensEncoder) -> Self {
        CellWords {
            enc,
            namer: Namer::new(enc),
            groups: enc.groups(),
        }
    }

    /// The namer of its variables.
    pub fn namer(&self) -> &Namer {
        &self.namer
    }

    /// The group of the formula with this tag.
    fn group_tagged(&self, tag: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.tag == tag)
    }

    /// The group of the formula that enforces `rule`.
    fn group_of_rule(&self, rule: Rule) -> Option<&Group> {
        self.groups.iter().find(|g| g.rule() == rule)
    }

    /// The number of clauses of a group in closed form in n, as (text, LaTeX), for the
    /// at-least-one groups and the pairwise at-most-one groups; `None` where the group's
    /// encoding has no simple closed form here. On the torus every diagonal has n cells, so
    /// the diagonals' count is that of the rows.
    pub fn closed_form(&self, group: &Group) -> Option<(&'static str, &'static str)> {
        if group.at_least_one {
            return Some(("n", "n"));
        }
        if self.enc.options().amo.for_kind(group.line) != Amo::PAIRWISE {
            return None;
        }
        // Rows and columns, and on the torus the diagonals too, are n lines of n cells.
        let n_cells_each = matches!(group.line, LineKind::Row | LineKind::Column)
            || self.enc.geometry() == Geometry::Toroidal;
        Some(if n_cells_each {
            (
                "n·C(n,2) = n²(n−1)/2",
                r"n\binom{n}{2} = \frac{n^2(n-1)}{2}",
            )
        } else {
            (
                "2·C(n+1,3) − C(n,2) = n(n−1)(2n−1)/6",
                r"2\binom{n+1}{3} - \binom{n}{2} = \frac{n(n-1)(2n-1)}{6}",
            )
        })
    }

    /// Where a clause of `group` applies: its line, or the group's kind of line.
    fn place(&self, group: &Group, line: Option<&Line>) -> String {
        line.map(|l| self.namer.describe_line(l))
            .unwrap_or_else(|| group.line.name().to_string())
    }

    /// What a clause of `group` on `line` says, in words.
    fn meaning(&self, group: &Group, line: Option<&Line>, clause: &[Lit]) -> String {
        let n = self.namer.n();
        let where_ = self.place(group, line);
        if group.at_least_one {
            return format!("{where_} has at least one queen");
        }
        let cells: Vec<(usize, usize)> = clause
            .iter()
            .filter_map(|l| cell_of_var(n, l.var()))
            .collect();
        if cells.len() == 2 && clause.len() == 2 && clause.iter().all(|l| l.is_negative()) {
            let (a, b) = (cells[0], cells[1]);
            return format!(
                "no two queens on {where_}: not both ({},{}) and ({},{})",
                a.0 + 1,
                a.1 + 1,
                b.0 + 1,
                b.1 + 1
            );
        }
        format!("at most one queen on {where_} (auxiliary clause of the encoding)")
    }

    /// The sentence for a false clause of `group` on `line`: names the queens that share a
    /// line when the clause forbids them, or the empty line.
    fn falsified_in_group(&self, group: &Group, line: Option<&Line>, clause: &[Lit]) -> String {
        let n = self.namer.n();
        let where_ = self.place(group, line);
        if group.at_least_one {
            return format!("{}: {where_} has no queen", group.tag);
        }
        let cells: Vec<(usize, usize)> = clause
            .iter()
            .filter(|l| l.is_negative())
            .filter_map(|l| cell_of_var(n, l.var()))
            .collect();
        if cells.len() == 2 && clause.len() == 2 {
            let (a, b) = (cells[0], cells[1]);
            let what = match group.line {
                LineKind::Row => "a row",
                LineKind::Column => "a column",
                LineKind::Diagonal | LineKind::AntiDiagonal => "a diagonal",
            };
            return format!(
                "{}: queens at ({},{}) and ({},{}) share {what}",
                group.tag,
                a.0 + 1,
                a.1 + 1,
                b.0 + 1,
                b.1 + 1
            );
        }
        format!(
            "{}: the clause {} of {where_} fails",
            group.tag,
            self.clause(clause, Notation::Ascii)
        )
    }

    /// How a group is encoded: `at least one`, `at most one, sequential encoding`.
    fn how(&self, group: &Group) -> String {
        if group.at_least_one {
            "at least one".to_string()
        } else {
            format!(
                "at most one, {} encoding",
                self.enc.options().amo.for_kind(group.line)
            )
        }
    }
}

/// The group in big-operator form (pairwise model), or an AMO over the lines for the others;
/// on the torus the diagonals are equal sums or differences mod n.
fn big_operator(g: &Group, amo: Amo, geometry: Geometry) -> String {
    if g.at_least_one {
        return match g.line {
            LineKind::Row => r"\bigwedge_{i=1}^{n} \bigvee_{j=1}^{n} q_{i,j}".into(),
            _ => r"\bigwedge_{j=1}^{n} \bigvee_{i=1}^{n} q_{i,j}".into(),
        };
    }
    if amo != Amo::PAIRWISE {
        let lines = match g.line {
            LineKind::Row => r"\text{rows } L",
            LineKind::Column => r"\text{columns } L",
            LineKind::Diagonal => r"\text{/ diagonals } L",
            LineKind::AntiDiagonal => r"\text{\textbackslash{} diagonals } L",
        };
        return format!(
            r"\bigwedge_{{{lines}}} \mathrm{{AMO}}_{{\text{{{}}}}}\bigl(\{{ q_{{i,j}} : (i,j) \in L \}}\bigr)",
            escape_latex(&amo.name())
        );
    }
    let torus = geometry == Geometry::Toroidal;
    match g.line {
        LineKind::Diagonal if torus => r"\bigwedge_{\substack{1 \le i < k \le n,\ 1 \le j, l \le n \\ i + j \equiv k + l \pmod{n}}} (\neg q_{i,j} \lor \neg q_{k,l})".into(),
        LineKind::AntiDiagonal if torus => r"\bigwedge_{\substack{1 \le i < k \le n,\ 1 \le j, l \le n \\ i - j \equiv k - l \pmod{n}}} (\neg q_{i,j} \lor \neg q_{k,l})".into(),
        LineKind::Row => r"\bigwedge_{i=1}^{n} \bigwedge_{1 \le j < k \le n} (\neg q_{i,j} \lor \neg q_{i,k})".into(),
        LineKind::Column => r"\bigwedge_{j=1}^{n} \bigwedge_{1 \le i < k \le n} (\neg q_{i,j} \lor \neg q_{k,j})".into(),
        LineKind::Diagonal => r"\bigwedge_{\substack{1 \le i < k \le n,\ 1 \le j, l \le n \\ i + j = k + l}} (\neg q_{i,j} \lor \neg q_{k,l})".into(),
        LineKind::AntiDiagonal => r"\bigwedge_{\substack{1 \le i < k \le n,\ 1 \le j, l \le n \\ i - j = k - l}} (\neg q_{i,j} \lor \neg q_{k,l})".into(),
    }
}

/// `1 clause`, `2 clauses`.
fn plural(k: u64, word: &str) -> String {
    if k == 1 {
        format!("1 {word}")
    } else {
        format!("{k} {word}s")
    }
}

impl Words for CellWords<'_> {
    fn var_name(&self, var: Var) -> String {
        self.namer.var(var)
    }

    fn var_latex(&self, var: Var) -> String {
        self.namer.var_latex(var)
    }

    /// `None` for a cell (its name says it); for an auxiliary, which queens force it.
    fn var_meaning(&self, var: Var) -> Option<String> {
        self.namer.aux_forced(var)
    }

    fn readable_heading(&self) -> Vec<String> {
        let enc = self.enc;
        let n = enc.n();
        let size = enc.size();
        let mut lines = vec![
            format!("Model: {}", enc.describe()),
            format!("q(r,c) is true when a queen stands on row r, column c (1-based); it is DIMACS variable (r-1)*{n} + c."),
        ];
        if size.vars > (n * n) as u64 {
            // The letters of the encodings on this formula's lines, in the catalogue's order.
            let used: Vec<&str> = crate::encode::amo::CATALOGUE
                .iter()
                .filter(|e| {
                    LineKind::ALL.iter().any(|&k| {
                        let amo = enc.options().amo.for_kind(k);
                        amo.encoding().name() == e.name() && amo.size(n).vars > 0
                    })
                })
                .map(|e| e.aux_symbol())
                .fold(Vec::new(), |mut v, s| {
                    if !v.contains(&s) {
                        v.push(s);
                    }
                    v
                });
            let names: Vec<String> = used
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    if i == 0 {
                        format!("{s}(line, k)")
                    } else {
                        format!("{s}(...)")
                    }
                })
                .collect();
            lines.push(format!(
                "{}: the k-th auxiliary variable of that line's encoding (DIMACS variables {}..{}), explained where the line's clauses start.",
                names.join(", "),
                n * n + 1,
                size.vars
            ));
        }
        lines
    }

    fn latex_heading(&self) -> Vec<String> {
        let n = self.enc.n();
        let size = self.enc.size();
        vec![
            format!(r"\section*{{The {n}-queens formula}}"),
            format!(
                "$q_{{i,j}}$ is true when a queen stands on row $i$, column $j$ ($1 \\le i, j \\le n$, here $n = {n}$). \
                 The formula is the conjunction of the groups below: {} variables, {} clauses.",
                size.vars, size.clauses
            ),
        ]
    }

    fn group_clauses(&self, group: &GroupInfo) -> u64 {
        self.group_tagged(&group.tag)
            .map_or(0, |g| self.enc.group_size(g).clauses)
    }

    fn group_note(&self, group: &GroupInfo) -> String {
        let Some(g) = self.group_tagged(&group.tag) else {
            return format!("{} clauses", self.group_clauses(group));
        };
        let size = self.enc.group_size(g);
        let how = self.how(g);
        match self.closed_form(g) {
            Some((f, _)) => format!("{} clauses ({how}); in general {f}", size.clauses),
            None => format!(
                "{} clauses, {} auxiliary variables ({how})",
                size.clauses, size.vars
            ),
        }
    }

    fn group_note_latex(&self, group: &GroupInfo) -> String {
        let Some(g) = self.group_tagged(&group.tag) else {
            return format!("{}.", plural(self.group_clauses(group), "clause"));
        };
        let size = self.enc.group_size(g);
        let count = match self.closed_form(g) {
            Some((_, f)) => format!("{} (in general ${f}$)", plural(size.clauses, "clause")),
            None => format!(
                "{}, {}",
                plural(size.clauses, "clause"),
                plural(size.vars, "auxiliary variable")
            ),
        };
        format!(
            "{count}.\n\\[ {} \\]",
            big_operator(
                g,
                self.enc.options().amo.for_kind(g.line),
                self.enc.geometry()
            )
        )
    }

    /// The line's name, and for an at-most-one group what each auxiliary variable of the
    /// line's encoding stands for.
    fn line_heading(&self, label: &Label) -> Option<LineHeading> {
        let line = label.line?;
        let mut notes = Vec::new();
        if self
            .group_of_rule(label.rule)
            .is_some_and(|g| !g.at_least_one)
        {
            for v in self.namer.aux_of_line(&line) {
                if let Some(m) = self.namer.aux_meaning(v) {
                    notes.push(format!("where {m}"));
                }
            }
        }
        Some(LineHeading {
            line: self.namer.describe_line(&line),
            notes,
        })
    }

    fn clause_meaning(&self, label: &Label, clause: &[Lit]) -> Option<String> {
        let group = self.group_of_rule(label.rule)?;
        Some(self.meaning(group, label.line.as_ref(), clause))
    }

    fn falsified(&self, label: &Label, clause: &[Lit]) -> Option<String> {
        if let Some(group) = self.group_of_rule(label.rule) {
            return Some(self.falsified_in_group(group, label.line.as_ref(), clause));
        }
        let cell = |l: &Lit| self.namer.var(l.var()).trim_start_matches('q').to_string();
        match (label.rule, clause) {
            (Rule::Placed, [l]) => Some(format!("P: no queen on the pre-placed cell {}", cell(l))),
            (Rule::Forbidden, [l]) => Some(format!("F: a queen on the forbidden cell {}", cell(l))),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{EncodeOptions, Encoding};

    #[test]
    fn names_cells_one_based() {
        let enc = QueensEncoder::new(4, EncodeOptions::default()).unwrap();
        let words = enc.words();
        assert_eq!(words.var_name(Var::from_dimacs(7)), "q(2,3)");
        assert_eq!(
            words.clause(
                &[Lit::from_dimacs(-1), Lit::from_dimacs(-6)],
                Notation::Unicode
            ),
            "¬q(1,1) ∨ ¬q(2,2)"
        );
        assert_eq!(words.var_latex(Var::from_dimacs(16)), "q_{4,4}");
    }

    #[test]
    fn aux_forcing_matches_the_papers_definitions() {
        let m = 6;
        // Sinz: s_k is forced true by any of x_1..x_k.
        for (k, f) in aux_forcing(Amo::SEQUENTIAL, m).iter().enumerate() {
            assert_eq!(f.true_by, (0..=k).collect::<Vec<_>>());
        }
        // Ladder: y_k means "none of x_1..x_k", so any of them forces it false.
        for (k, f) in aux_forcing(Amo::LADDER, m).iter().enumerate() {
            assert_eq!(f.false_by, (0..=k).collect::<Vec<_>>());
        }
        // Binary: bit j is forced to bit j of the index of the true literal.
        for (j, f) in aux_forcing(Amo::BINARY, m).iter().enumerate() {
            let ones: Vec<usize> = (0..m).filter(|i| i >> j & 1 == 1).collect();
            let zeros: Vec<usize> = (0..m).filter(|i| i >> j & 1 == 0).collect();
            assert_eq!((f.true_by.clone(), f.false_by.clone()), (ones, zeros));
        }
        assert!(aux_forcing(Amo::PAIRWISE, m).is_empty());
    }

    #[test]
    fn closed_forms_match_group_sizes() {
        // Evaluate the printed closed forms numerically and compare with the encoder's counts.
        for geometry in [Geometry::Square, Geometry::Toroidal] {
            for n in 1..=30u64 {
                let enc =
                    QueensEncoder::new_on(n as usize, EncodeOptions::default(), geometry).unwrap();
                let words = CellWords::new(&enc);
                for g in enc.groups() {
                    let (f, _) = words.closed_form(&g).unwrap();
                    let value = match f {
                        "n" => n,
                        "n·C(n,2) = n²(n−1)/2" => n * n * (n - 1) / 2,
                        _ => n * (n - 1) * (2 * n - 1) / 6,
                    };
                    let k = enc.group_size(&g).clauses;
                    assert_eq!(value, k, "n={n} {geometry:?} {}", g.tag);
                }
            }
        }
    }

    /// Every auxiliary variable of every encoding is explained, on the square and on the
    /// torus (whose diagonals are longer), and each line's heading lists its auxiliaries.
    #[test]
    fn every_auxiliary_is_explained_on_both_boards() {
        for geometry in [Geometry::Square, Geometry::Toroidal] {
            for amo in Amo::all() {
                let options = EncodeOptions {
                    amo: crate::encode::LineEncodings::uniform(amo),
                    column_alo: false,
                };
                let enc = QueensEncoder::new_on(5, options, geometry).unwrap();
                let words = enc.words();
                let n2 = 25;
                for i in n2..enc.size().vars as usize {
                    let v = Var::from_index(i);
                    let meaning = words.var_meaning(v);
                    assert!(
                        meaning.as_deref().is_some_and(|m| m.contains("queen")),
                        "{amo} {geometry:?} {}: {meaning:?}",
                        words.var_name(v)
                    );
                }
                let mut noted = 0;
                for g in enc.groups().iter().filter(|g| !g.at_least_one) {
                    for line in enc.lines(g.line) {
                        let label = Label {
                            rule: g.rule(),
                            line: Some(line),
                        };
                        noted += words.line_heading(&label).unwrap().notes.len();
                    }
                }
                assert_eq!(
                    noted as u64,
                    enc.size().vars - n2 as u64,
                    "{amo} {geometry:?}"
                );
            }
        }
    }
}
