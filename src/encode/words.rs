//! How an encoding's formula is said to people: the names of its variables in text and LaTeX,
//! their meanings, the headings of a listing, the note under each group of clauses, the heading
//! of a board line's clauses, what a clause says and what a false clause means.
//!
//! An [`Encoding`] hands out its [`Words`] ([`Encoding::words`]); the listings of the module
//! `explain` (readable text, commented DIMACS, LaTeX), the traced search of the module `trace`
//! and the explanations of an assignment read them, and know nothing of the model. An encoding
//! that says nothing of its own gets [`PlainWords`]: the names of [`Encoding::var_name`], the
//! groups' tags and meanings as it announces them, and their clauses counted.

use super::{Encoding, Label};
use crate::cnf::{ClauseSink, GroupInfo, Lit, Var};
use std::cell::OnceCell;

/// How connectives are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// `¬`, `∨`, `⊥`.
    #[default]
    Unicode,
    /// `-`, `v`, `FALSE` (plain ASCII).
    Ascii,
}

impl Notation {
    /// The negation sign.
    pub fn negation(self) -> &'static str {
        match self {
            Notation::Unicode => "¬",
            Notation::Ascii => "-",
        }
    }
    /// The disjunction, with spaces.
    pub fn disjunction(self) -> &'static str {
        match self {
            Notation::Unicode => " ∨ ",
            Notation::Ascii => " v ",
        }
    }
    /// The empty clause.
    pub fn falsum(self) -> &'static str {
        match self {
            Notation::Unicode => "⊥",
            Notation::Ascii => "FALSE",
        }
    }
}

/// Escapes text for LaTeX's text mode.
pub fn escape_latex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(ch);
            }
            '^' => out.push_str("\\^{}"),
            '~' => out.push_str("\\~{}"),
            _ => out.push(ch),
        }
    }
    out
}

/// The heading of a board line's clauses in a readable listing: the line's name (`row 2`) and
/// notes on it, such as what the auxiliary variables of its encoding stand for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineHeading {
    /// The line's name.
    pub line: String,
    /// One note a line (`where s(row 2, 1): ...`).
    pub notes: Vec<String>,
}

/// How an encoding's formula is said to people (see the module's documentation).
///
/// Only [`Words::var_name`], [`Words::readable_heading`], [`Words::latex_heading`] and
/// [`Words::group_clauses`] must be given; the rest have plain defaults.
pub trait Words {
    /// A variable's name in listings: `q(2,3)`, `s(row 1, 2)`, `[x(1) >= 2]`.
    fn var_name(&self, var: Var) -> String;

    /// A variable's name in LaTeX math mode: by default the listing's name as text.
    fn var_latex(&self, var: Var) -> String {
        format!(r"\text{{{}}}", escape_latex(&self.var_name(var)))
    }

    /// What a variable stands for, in words, or `None` when its name says it all.
    fn var_meaning(&self, var: Var) -> Option<String> {
        let _ = var;
        None
    }

    /// A literal in the chosen notation: `q(1,2)`, `¬q(1,2)` or `-q(1,2)`.
    fn lit(&self, lit: Lit, notation: Notation) -> String {
        let name = self.var_name(lit.var());
        if lit.is_negative() {
            format!("{}{name}", notation.negation())
        } else {
            name
        }
    }

    /// A clause in the chosen notation: `¬q(1,1) ∨ ¬q(1,2)`; the empty clause is `⊥`.
    fn clause(&self, clause: &[Lit], notation: Notation) -> String {
        if clause.is_empty() {
            return notation.falsum().to_string();
        }
        clause
            .iter()
            .map(|&l| self.lit(l, notation))
            .collect::<Vec<_>>()
            .join(notation.disjunction())
    }

    /// The lines of a readable listing between its first line (the board size and the
    /// formula's counts) and its last (the formula is the conjunction of the clauses): the
    /// model and its variables.
    fn readable_heading(&self) -> Vec<String>;

    /// The lines of a LaTeX document between its preamble and its first group: a section
    /// title and the model and its variables.
    fn latex_heading(&self) -> Vec<String>;

    /// The number of clauses of a group the encoding announces.
    fn group_clauses(&self, group: &GroupInfo) -> u64;

    /// The note under a group's heading in a readable listing: its clause count and, when
    /// known, the count in closed form in n.
    fn group_note(&self, group: &GroupInfo) -> String {
        format!("{} clauses", self.group_clauses(group))
    }

    /// The LaTeX under a group's heading (its clause count, and a formula for the group),
    /// one or more lines.
    fn group_note_latex(&self, group: &GroupInfo) -> String {
        format!("{} clauses.", self.group_clauses(group))
    }

    /// The heading of the clauses of a board line (`label.line`) in a readable listing, or
    /// `None` to list them without one.
    fn line_heading(&self, label: &Label) -> Option<LineHeading> {
        let _ = label;
        None
    }

    /// What a clause emitted under `label` says, in words (`row 1 has at least one queen`),
    /// or `None` when its group's meaning says it all.
    fn clause_meaning(&self, label: &Label, clause: &[Lit]) -> Option<String> {
        let _ = (label, clause);
        None
    }

    /// What it means that a clause emitted under `label` is false, in a sentence that starts
    /// with its group's tag (`Q4: queens at (1,2) and (2,3) share a diagonal`), or `None` when
    /// the encoding has no more to say than the clause itself. The instance's own clauses
    /// (`Rule::Placed`, `Rule::Forbidden`) may be asked too.
    fn falsified(&self, label: &Label, clause: &[Lit]) -> Option<String> {
        let _ = (label, clause);
        None
    }
}

/// The lines that list variables `1..=vars` with their names and meanings, after a title line
/// (`Variables (DIMACS number: name, meaning):`).
pub fn variable_lines(words: &dyn Words, vars: u64) -> Vec<String> {
    let mut lines = vec!["Variables (DIMACS number: name, meaning):".to_string()];
    for i in 0..vars as usize {
        let v = Var::from_index(i);
        let name = words.var_name(v);
        lines.push(match words.var_meaning(v) {
            Some(m) => format!("  {}: {name}, {m}", v.to_dimacs()),
            None => format!("  {}: {name}", v.to_dimacs()),
        });
    }
    lines
}

/// The LaTeX list of variables `1..=vars` with their names and meanings.
pub fn variable_items_latex(words: &dyn Words, vars: u64) -> Vec<String> {
    let mut lines = vec![r"\begin{itemize}".to_string()];
    for i in 0..vars as usize {
        let v = Var::from_index(i);
        let meaning = words.var_meaning(v).unwrap_or_else(|| words.var_name(v));
        lines.push(format!(
            "\\item ${}$ (variable {}): {}",
            words.var_latex(v),
            v.to_dimacs(),
            escape_latex(&meaning)
        ));
    }
    lines.push(r"\end{itemize}".to_string());
    lines
}

/// The lines that list groups (tag, meaning, clauses) after a title line (`Groups:`).
pub fn group_lines<'a>(groups: impl IntoIterator<Item = (&'a str, &'a str, u64)>) -> Vec<String> {
    let mut lines = vec!["Groups:".to_string()];
    for (tag, meaning, clauses) in groups {
        lines.push(format!("  {tag}  {meaning} ({clauses} clauses)"));
    }
    lines
}

/// The words of any encoding, from what its trait says: names from [`Encoding::var_name`],
/// meanings from [`Encoding::var_meaning`] where they differ from the names, the groups as
/// the encoding announces them with their clauses counted (on first use, by encoding the
/// formula once), and each board line's clauses headed by the line's name.
pub struct PlainWords<'a, E: Encoding + ?Sized> {
    enc: &'a E,
    groups: OnceCell<Vec<(GroupInfo, u64)>>,
}

impl<'a, E: Encoding + ?Sized> PlainWords<'a, E> {
    /// The plain words of `enc`.
    pub fn new(enc: &'a E) -> Self {
        PlainWords {
            enc,
            groups: OnceCell::new(),
        }
    }

    /// The encoding's groups in order, each with its number of clauses.
    pub fn groups(&self) -> &[(GroupInfo, u64)] {
        self.groups.get_or_init(|| {
            let mut counter = GroupCounter::default();
            // Counting cannot fail.
            let _ = self.enc.encode_labelled(&mut counter);
            counter.groups
        })
    }
}

impl<E: Encoding + ?Sized> std::fmt::Debug for PlainWords<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlainWords")
            .field("encoding", &self.enc.name())
            .finish()
    }
}

/// Counts the clauses of each group.
#[derive(Default)]
struct GroupCounter {
    groups: Vec<(GroupInfo, u64)>,
}

impl ClauseSink for GroupCounter {
    fn add_clause(&mut self, _: &[Lit]) -> std::io::Result<()> {
        if let Some(g) = self.groups.last_mut() {
            g.1 += 1;
        }
        Ok(())
    }
    fn begin_group(&mut self, group: &GroupInfo) -> std::io::Result<()> {
        self.groups.push((group.clone(), 0));
        Ok(())
    }
}

impl super::LabelSink for GroupCounter {
    fn begin_label(&mut self, _: &Label) -> std::io::Result<()> {
        Ok(())
    }
}

impl<E: Encoding + ?Sized> Words for PlainWords<'_, E> {
    fn var_name(&self, var: Var) -> String {
        self.enc.var_name(var)
    }

    fn var_meaning(&self, var: Var) -> Option<String> {
        let meaning = self.enc.var_meaning(var);
        (meaning != self.enc.var_name(var)).then_some(meaning)
    }

    fn readable_heading(&self) -> Vec<String> {
        let mut lines = vec![format!("Model: {}", self.enc.describe())];
        lines.extend(variable_lines(self, self.enc.size().vars));
        lines.extend(group_lines(
            self.groups()
                .iter()
                .map(|(g, k)| (g.tag.as_str(), g.meaning.as_str(), *k)),
        ));
        lines
    }

    fn latex_heading(&self) -> Vec<String> {
        let size = self.enc.size();
        let mut lines = vec![
            format!(r"\section*{{The {}-queens formula}}", self.enc.n()),
            format!(
                "Model: {}. {} variables, {} clauses.",
                escape_latex(&self.enc.describe()),
                size.vars,
                size.clauses
            ),
        ];
        lines.extend(variable_items_latex(self, size.vars));
        lines
    }

    fn group_clauses(&self, group: &GroupInfo) -> u64 {
        self.groups()
            .iter()
            .filter(|(g, _)| g.tag == group.tag)
            .map(|(_, k)| k)
            .sum()
    }

    fn line_heading(&self, label: &Label) -> Option<LineHeading> {
        let line = label.line?;
        Some(LineHeading {
            line: line.describe_on(self.enc.n(), self.enc.geometry()),
            notes: Vec::new(),
        })
    }
}
