//! The formula made readable, for teaching: named variables, labelled clause groups, the
//! meaning of every clause in words.
//!
//! Whatever the model, the words are the encoding's own ([`crate::encode::Words`], from
//! [`crate::encode::Encoding::words`]): the cell model's name cells `q(r,c)` and auxiliaries by
//! the line they serve, give each group's count in closed form and every clause in words; the
//! column model's name and explain every variable; any other encoding's are plain.
//!
//! * [`write_readable`], [`write_latex`] and [`write_dimacs_commented`] print a whole formula
//!   of any encoding; [`write_fixed_readable`] an instance's pre-placed and forbidden cells.
//! * [`group_status`] and [`false_clause_in_words`] say why an assignment is, or is not, a
//!   solution; [`minimal_unsat_core`], [`case_split`] and [`write_why`] why there is none.
//!
//! Every printer is a [`crate::cnf::ClauseSink`] fed by the same encoder that exports DIMACS, so
//! the listing shows exactly the clauses that are solved.

mod fixed;
mod holds;
mod latex;
mod text;
mod why;

pub use fixed::{clause_text, fixed_clauses, write_fixed_readable, FixedClause};
pub use holds::{
    clause_number_in_words, false_clause_in_words, group_status, write_groups, GroupStatus,
};
pub use latex::write_latex;
pub use text::{write_dimacs_commented, write_readable, Notation};
pub use why::{
    case_split, minimal_unsat_core, write_core, write_why, BranchEnd, Case, CoreError, Refutation,
    Step, MAX_ARGUMENT_LINES,
};

/// Writes an instance's fixed-cell clauses after a model's, each under a `c` line with its
/// number, group, meaning and named clause (`clause` names the variables).
fn write_tail<W: std::io::Write>(
    w: &mut crate::cnf::DimacsWriter<W>,
    tail: &[FixedClause],
    clause: impl Fn(&[crate::cnf::Lit]) -> String,
) -> std::io::Result<()> {
    use crate::cnf::ClauseSink;
    let mut last_group = None;
    for (meaning, lits) in tail {
        let group = meaning.chars().next();
        if group != last_group {
            w.comment("")?;
            w.comment(match group {
                Some('P') => "P: pre-placed queens",
                _ => "F: forbidden cells",
            })?;
            last_group = group;
        }
        let number = w.clauses_written() + 1;
        w.comment(&format!("clause {number}, {meaning}: {}", clause(lits)))?;
        w.add_clause(lits)?;
    }
    Ok(())
}
