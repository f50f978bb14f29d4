//! CNF plumbing: the [`ClauseSink`] trait that encoders stream clauses into, and its sinks.
//!
//! * [`CountingSink`]: counts variables, clauses and literals (a dry run).
//! * [`Cnf`]: keeps the formula in memory (tests, evaluation, small n).
//! * [`DimacsWriter`]: streams DIMACS text to any [`std::io::Write`] without holding the formula.
//!   [`read_dimacs`] and [`read_dimacs_into`] read DIMACS back (the crate's one reader, with
//!   line-numbered errors and bounds on its input).
//! * `varisat::Solver`: the embedded solver takes clauses directly.
//!
//! [`write_v_lines`] writes a model in the `v` lines of the SAT-competition output format.
//!
//! Literals and variables are varisat's [`Lit`] and [`Var`]; their DIMACS form is 1-based.

mod dimacs;
pub(crate) use dimacs::shorten;

mod gbd;
pub use dimacs::{
    read_dimacs, read_dimacs_into, read_dimacs_limited, read_header, write_v_lines, Counting,
    Dimacs, DimacsCounts, DimacsError, DimacsErrorKind, DimacsHeader, DimacsWriter, ReadLimits,
    MAX_FORMULA_BYTES, MAX_LINE_BYTES, V_LINE_MAX,
};
pub use gbd::GbdHasher;

use std::io;
pub use varisat::{Lit, Var};

/// Literals written as DIMACS numbers in serialized views (JSON): `#[serde(serialize_with =
/// "crate::cnf::dimacs_serde::...")]` on a field of [`Lit`]s.
pub(crate) mod dimacs_serde {
    use super::Lit;
    use serde::ser::{SerializeSeq, Serializer};

    /// A clause: an array of numbers.
    pub fn clause<S: Serializer>(lits: &[Lit], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(lits.len()))?;
        for l in lits {
            seq.serialize_element(&(l.to_dimacs() as i64))?;
        }
        seq.end()
    }

    /// A clause or nothing: an array of numbers or `null`.
    pub fn clause_opt<S: Serializer>(lits: &Option<Vec<Lit>>, s: S) -> Result<S::Ok, S::Error> {
        match lits {
            Some(l) => clause(l, s),
            None => s.serialize_none(),
        }
    }

    /// A literal or nothing: a number or `null`.
    pub fn lit_opt<S: Serializer>(lit: &Option<Lit>, s: S) -> Result<S::Ok, S::Error> {
        match lit {
            Some(l) => s.serialize_i64(l.to_dimacs() as i64),
            None => s.serialize_none(),
        }
    }
}

/// A labelled block of clauses, announced to the sink before its clauses.
///
/// Sinks that do not care (counters, solvers) ignore it; a DIMACS writer may turn it into a
/// `c` comment line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupInfo {
    /// Short tag, e.g. `Q1` (rows at least one).
    pub tag: String,
    /// What the block says, in words.
    pub meaning: String,
}

/// Where an encoder's clauses go.
///
/// An encoder never knows which sink it feeds, so the same code exports DIMACS, fills the
/// solver and counts clauses: what is exported is exactly what is solved.
pub trait ClauseSink {
    /// Takes one clause. A clause is a disjunction of literals; the slice is only borrowed.
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()>;

    /// Announces that the clauses that follow belong to `group`. The default ignores it.
    fn begin_group(&mut self, group: &GroupInfo) -> io::Result<()> {
        let _ = group;
        Ok(())
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for &mut S {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        (**self).add_clause(clause)
    }
    fn begin_group(&mut self, group: &GroupInfo) -> io::Result<()> {
        (**self).begin_group(group)
    }
}

/// Counts what passes through: clauses, literals and the highest variable seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountingSink {
    /// Number of clauses.
    pub clauses: u64,
    /// Number of literal occurrences.
    pub literals: u64,
    /// Highest variable index seen (DIMACS numbering), 0 if none.
    pub max_var: u64,
}

impl ClauseSink for CountingSink {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        self.clauses += 1;
        self.literals += clause.len() as u64;
        for l in clause {
            self.max_var = self.max_var.max(l.var().to_dimacs() as u64);
        }
        Ok(())
    }
}

/// A formula from its clauses, in order (no groups):
///
/// ```
/// use queens_sat::cnf::{Cnf, Lit};
///
/// let f: Cnf = [[1, 2], [-1, -2]].iter().map(|c| c.map(Lit::from_dimacs)).collect();
/// assert_eq!(f.len(), 2);
/// assert_eq!(f.clause(1)[0], Lit::from_dimacs(-1));
/// ```
impl<C: AsRef<[Lit]>> FromIterator<C> for Cnf {
    fn from_iter<I: IntoIterator<Item = C>>(clauses: I) -> Self {
        let mut f = Cnf::new();
        for c in clauses {
            f.lits.extend_from_slice(c.as_ref());
            f.ends.push(f.lits.len());
        }
        f
    }
}

/// A formula kept in memory: a flat literal array with clause boundaries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    lits: Vec<Lit>,
    ends: Vec<usize>,
    groups: Vec<(usize, GroupInfo)>,
}

impl Cnf {
    /// An empty formula.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// `true` when there is no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`-th clause.
    pub fn clause(&self, i: usize) -> &[Lit] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.lits[start..self.ends[i]]
    }

    /// All clauses in order.
    pub fn iter(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        (0..self.len()).map(move |i| self.clause(i))
    }

    /// The groups announced, each with the index of its first clause.
    pub fn groups(&self) -> &[(usize, GroupInfo)] {
        &self.groups
    }

    /// The group the `i`-th clause belongs to, if any group was announced before it.
    pub fn group_of(&self, i: usize) -> Option<&GroupInfo> {
        self.groups
            .iter()
            .rev()
            .find(|(start, _)| *start <= i)
            .map(|(_, g)| g)
    }

    /// Highest variable index used (DIMACS numbering), 0 if none.
    pub fn max_var(&self) -> usize {
        self.lits
            .iter()
            .map(|l| l.var().to_dimacs() as usize)
            .max()
            .unwrap_or(0)
    }

    /// The index of the first clause that `assignment` falsifies, or `None` if all hold.
    ///
    /// `assignment[v]` is the value of the variable with 0-based index `v`; variables past the
    /// end of the slice count as false.
    pub fn first_falsified(&self, assignment: &[bool]) -> Option<usize> {
        (0..self.len()).find(|&i| !clause_satisfied(self.clause(i), assignment))
    }

    /// Converts to varisat's formula type.
    pub fn to_varisat(&self) -> varisat::CnfFormula {
        let mut f = varisat::CnfFormula::new();
        for c in self.iter() {
            varisat::ExtendFormula::add_clause(&mut f, c);
        }
        f
    }
}

/// The value of literal `l` under a partial assignment of its variables (`value[i]` for the
/// variable of 0-based index `i`; `None` while unassigned).
pub(crate) fn lit_value(value: &[Option<bool>], l: Lit) -> Option<bool> {
    value[l.index()].map(|v| v != l.is_negative())
}

/// `true` when some literal of `clause` is true under `assignment` (0-based variable index;
/// missing variables are false).
pub fn clause_satisfied(clause: &[Lit], assignment: &[bool]) -> bool {
    clause.iter().any(|l| {
        let v = assignment.get(l.index()).copied().unwrap_or(false);
        v != l.is_negative()
    })
}

impl ClauseSink for Cnf {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len());
        Ok(())
    }
    fn begin_group(&mut self, group: &GroupInfo) -> io::Result<()> {
        self.groups.push((self.len(), group.clone()));
        Ok(())
    }
}

impl ClauseSink for varisat::Solver<'_> {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        varisat::ExtendFormula::add_clause(self, clause);
        Ok(())
    }
}

impl ClauseSink for varisat::CnfFormula {
    fn add_clause(&mut self, clause: &[Lit]) -> io::Result<()> {
        varisat::ExtendFormula::add_clause(self, clause);
        Ok(())
    }
}

/// The positive literal of a DIMACS variable number (1-based).
pub fn pos(var: usize) -> Lit {
    Lit::from_dimacs(var as isize)
}

/// The negative literal of a DIMACS variable number (1-based).
pub fn neg(var: usize) -> Lit {
    Lit::from_dimacs(-(var as isize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cnf_stores_and_evaluates() {
        let mut f = Cnf::new();
        f.add_clause(&[pos(1), pos(2)]).unwrap();
        f.begin_group(&GroupInfo {
            tag: "G".into(),
            meaning: "m".into(),
        })
        .unwrap();
        f.add_clause(&[neg(1), neg(2)]).unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(f.clause(1), &[neg(1), neg(2)]);
        assert_eq!(f.max_var(), 2);
        assert_eq!(f.first_falsified(&[true, false]), None);
        assert_eq!(f.first_falsified(&[true, true]), Some(1));
        assert_eq!(f.first_falsified(&[false, false]), Some(0));
        assert!(f.group_of(0).is_none());
        assert_eq!(f.group_of(1).unwrap().tag, "G");
    }

    #[test]
    fn counting_sink_counts() {
        let mut c = CountingSink::default();
        c.add_clause(&[pos(3), neg(7)]).unwrap();
        c.add_clause(&[pos(1)]).unwrap();
        assert_eq!(
            c,
            CountingSink {
                clauses: 2,
                literals: 3,
                max_var: 7
            }
        );
    }
}
