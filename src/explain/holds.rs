//! Why an assignment is (or is not) a solution: the formula's clauses evaluated on it, group by
//! group, and the first false clause said in words.

use super::Notation;
use crate::cnf::{clause_satisfied, Cnf};
use crate::encode::LabelledCnf;
use crate::instance::Instance;
use crate::solve::describe_lit;
use std::fmt;

/// How one clause group fares under an assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupStatus {
    /// The group's tag (`Q1` ... `Q6`, `P` for pre-placed queens, `F` for forbidden cells).
    pub tag: String,
    /// What the group says.
    pub meaning: String,
    /// Clauses in the group.
    pub clauses: usize,
    /// Of those, the clauses the assignment makes true.
    pub satisfied: usize,
    /// The index (from 0, in the formula) of the group's first false clause: its number is one
    /// more.
    pub first_false: Option<usize>,
}

impl GroupStatus {
    /// `true` when every clause of the group is true.
    pub fn holds(&self) -> bool {
        self.first_false.is_none()
    }
}

impl fmt::Display for GroupStatus {
    /// `Q1 every row has at least one queen: holds (4 of 4 clauses true)`; a group that fails
    /// names its first false clause by its number (from 1, as in the DIMACS file).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {} ({} of {} clauses true",
            self.tag,
            self.meaning,
            if self.holds() { "holds" } else { "FAILS" },
            self.satisfied,
            self.clauses
        )?;
        match self.first_false {
            Some(i) => write!(f, "; the first false: clause {})", i + 1),
            None => write!(f, ")"),
        }
    }
}

/// Evaluates every clause of `cnf` under `values` (`values[v]` for the variable with 0-based
/// index v; missing variables are false) and sums up per group, in the formula's order.
/// Clauses before the first group announced are not reported.
pub fn group_status(cnf: &Cnf, values: &[bool]) -> Vec<GroupStatus> {
    let groups = cnf.groups();
    groups
        .iter()
        .enumerate()
        .map(|(k, (start, info))| {
            let end = groups.get(k + 1).map_or(cnf.len(), |g| g.0);
            let first_false = (*start..end).find(|&i| !clause_satisfied(cnf.clause(i), values));
            let satisfied = (*start..end)
                .filter(|&i| clause_satisfied(cnf.clause(i), values))
                .count();
            GroupStatus {
                tag: info.tag.clone(),
                meaning: info.meaning.clone(),
                clauses: end - start,
                satisfied,
                first_false,
            }
        })
        .collect()
}

/// The `i`-th clause of `cnf` (the formula of `inst`, maybe followed by the unit clauses of a
/// partial board in groups `P` and `F`), said in words as a clause that is false: in the
/// encoding's words where they have a sentence for it ([`crate::encode::Words::falsified`]:
/// "Q4: queens at (1,2) and (2,3) share a diagonal", "P: no queen on the pre-placed cell
/// (1,1)"), otherwise its group's tag and its literals named.
pub fn false_clause_in_words(inst: &Instance, cnf: &LabelledCnf, i: usize) -> String {
    let clause = cnf.clause(i);
    if let Some(label) = cnf.label_of(i) {
        if let Some(sentence) = inst.encoding().words().falsified(&label, clause) {
            return sentence;
        }
    }
    let tag = cnf.group_of(i).map_or("?", |g| g.tag.as_str());
    let lits: Vec<String> = clause.iter().map(|&l| describe_lit(inst, l)).collect();
    format!(
        "{tag}: the clause {} is false",
        if lits.is_empty() {
            Notation::Ascii.falsum().to_string()
        } else {
            lits.join(" ")
        }
    )
}

/// Writes, for each clause group of the instance's formula, whether it holds under `a`, and
/// whether all clauses do (`solve --explain`, `verify --explain`).
pub fn write_groups(
    out: &mut dyn std::io::Write,
    inst: &Instance,
    a: &crate::solve::Assignment,
) -> std::io::Result<()> {
    let cnf = crate::instance::to_labelled_cnf(inst);
    let values = a.to_bools(crate::instance::Formula::num_vars(inst) as usize);
    let status = group_status(&cnf, &values);
    writeln!(out, "the formula's clauses on this assignment:")?;
    for s in &status {
        writeln!(out, "  {s}")?;
    }
    let holding = status.iter().filter(|s| s.holds()).count();
    if holding == status.len() {
        writeln!(out, "all {} clauses hold", cnf.len())
    } else {
        writeln!(
            out,
            "{} of {} groups fail",
            status.len() - holding,
            status.len()
        )
    }
}

/// Clause `number` (from 1, as in the DIMACS file) of the instance's formula, false under the
/// answer, said in words.
pub fn clause_number_in_words(inst: &Instance, number: usize) -> String {
    let cnf = crate::instance::to_labelled_cnf(inst);
    false_clause_in_words(inst, &cnf, number - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{to_labelled_cnf, Model};
    use crate::Placement;

    #[test]
    fn a_solution_satisfies_every_group_and_a_broken_board_names_the_pair() {
        let n = 4;
        let inst = Instance::new(n, Model::default())
            .unwrap()
            .with_cells(&[(0, 1)], &[])
            .unwrap();
        let cnf = to_labelled_cnf(&inst);
        let good = Placement::parse_one_line("2 4 1 3", Some(n)).unwrap();
        let st = group_status(&cnf, &good.to_assignment());
        assert_eq!(
            st.iter().map(|s| s.tag.as_str()).collect::<Vec<_>>(),
            ["Q1", "Q2", "Q3", "Q4", "Q5", "P"]
        );
        assert!(st.iter().all(GroupStatus::holds));
        assert_eq!(st.iter().map(|s| s.clauses).sum::<usize>(), cnf.len());
        // (1,1) and (2,2) share a \ diagonal only; (1,1) is not the pre-placed queen.
        let bad = Placement::parse_one_line("1 2 4 3", Some(n)).unwrap();
        let st = group_status(&cnf, &bad.to_assignment());
        let failing: Vec<&str> = st
            .iter()
            .filter(|s| !s.holds())
            .map(|s| s.tag.as_str())
            .collect();
        // (3,4)-(4,3) share a / diagonal, (1,1)-(2,2) a \ diagonal; the P queen (1,2) is absent.
        assert_eq!(failing, ["Q4", "Q5", "P"]);
        let q5 = st.iter().find(|s| s.tag == "Q5").unwrap();
        assert_eq!(
            false_clause_in_words(&inst, &cnf, q5.first_false.unwrap()),
            "Q5: queens at (1,1) and (2,2) share a diagonal"
        );
        let p = st.iter().find(|s| s.tag == "P").unwrap();
        assert_eq!(
            false_clause_in_words(&inst, &cnf, p.first_false.unwrap()),
            "P: no queen on the pre-placed cell (1,2)"
        );
    }
}
