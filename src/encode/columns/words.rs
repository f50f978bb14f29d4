//! The column model said to people ([`ColumnWords`], the column model's
//! [`crate::encode::Encoding::words`]): every variable named and explained, then the groups with their
//! clauses.

use super::ColumnEncoder;
use crate::cnf::{GroupInfo, Var};
use crate::encode::words::{
    escape_latex, group_lines, variable_items_latex, variable_lines, Words,
};

/// The column model's words: variables named by [`ColumnEncoder::var_name`] (`x(2)=3`,
/// `[x(1) >= 2]`) and explained by [`ColumnEncoder::var_meaning`], all of them listed in the
/// heading with the groups and their clause counts.
#[derive(Clone, Copy, Debug)]
pub struct ColumnWords<'a> {
    enc: &'a ColumnEncoder,
}

impl<'a> ColumnWords<'a> {
    /// The words of the formula `enc` makes.
    pub fn new(enc: &'a ColumnEncoder) -> Self {
        ColumnWords { enc }
    }
}

impl Words for ColumnWords<'_> {
    fn var_name(&self, var: Var) -> String {
        self.enc.var_name(var)
    }

    /// `\text{[x(1) $\geq$ 2]}`.
    fn var_latex(&self, var: Var) -> String {
        format!(
            r"\text{{{}}}",
            escape_latex(&self.enc.var_name(var)).replace(">=", r"$\geq$")
        )
    }

    fn var_meaning(&self, var: Var) -> Option<String> {
        Some(self.enc.var_meaning(var))
    }

    fn readable_heading(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Model: column model, x(r) = the column of row r's queen (1-based); all x(r), all x(r)+r, all x(r)-r different; {}",
            self.enc.options()
        )];
        lines.extend(variable_lines(self, self.enc.size().vars));
        let groups = self.enc.groups();
        lines.extend(group_lines(
            groups
                .iter()
                .map(|g| (g.tag, g.meaning.as_str(), g.clauses)),
        ));
        lines
    }

    fn latex_heading(&self) -> Vec<String> {
        let n = self.enc.n();
        let size = self.enc.size();
        let mut lines = vec![
            format!(r"\section*{{The {n}-queens formula, column model}}"),
            format!(
                "$x(r)$ is the column of the queen of row $r$ ($1 \\le r \\le n$, here $n = {n}$); all $x(r)$, all $x(r) + r$ and all $x(r) - r$ differ. Encoding: {}. {} variables, {} clauses.",
                escape_latex(&self.enc.options().to_string()),
                size.vars,
                size.clauses
            ),
        ];
        lines.extend(variable_items_latex(self, size.vars));
        lines
    }

    fn group_clauses(&self, group: &GroupInfo) -> u64 {
        self.enc
            .groups()
            .iter()
            .find(|g| g.tag == group.tag)
            .map_or(0, |g| g.clauses)
    }
}
