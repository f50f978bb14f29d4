//! How the trace searches: the algorithm, the decision heuristic, restarts, two watched
//! literals, decisions taken by hand, and the step limit ([`TraceOptions`]).

use crate::cnf::Lit;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::collections::BTreeMap;

/// The search algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Decisions only: no unit propagation; a conflict when a clause has every literal false;
    /// chronological backtracking (the latest decision not yet tried both ways is flipped).
    Backtracking,
    /// Decisions and unit propagation, chronological backtracking.
    #[default]
    Dpll,
    /// Decisions and unit propagation; each conflict learns a clause (first unique
    /// implication point) and jumps back to where that clause forces a literal.
    Cdcl,
}

impl Algorithm {
    /// The name on the command line and in the JSON: `backtracking`, `dpll`, `cdcl`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Backtracking => "backtracking",
            Algorithm::Dpll => "dpll",
            Algorithm::Cdcl => "cdcl",
        }
    }
}

/// The decision heuristic: which open variable the next decision takes. Every heuristic sets
/// its variable true first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Heuristic {
    /// The first open variable of a fixed order: the board's variables row by row, left to
    /// right, then the others by number.
    #[default]
    Fixed,
    /// VSIDS-style activity: each conflict adds a bump to the activity of the variables of
    /// the clauses its learning resolves (without learning: of the conflict clause), then the
    /// bump grows by 1/0.95 (old activities decay); the open variable of highest activity is
    /// decided, ties to the first in the fixed order.
    Vsids,
    /// An open variable drawn at random (a 32-bit xorshift generator seeded with
    /// [`TraceOptions::seed`]): the `r mod k`-th of the `k` open variables in the fixed
    /// order, `r` the generator's next number.
    Random,
}

impl Heuristic {
    /// The name on the command line and in the JSON: `fixed`, `vsids`, `random`.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Fixed => "fixed",
            Heuristic::Vsids => "vsids",
            Heuristic::Random => "random",
        }
    }
}

/// How to run the search. The JSON trace records these as its `options` (the names of the
/// command line's flags), so that the same search can be run again (the HTML page does).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The decision heuristic.
    pub heuristic: Heuristic,
    /// The seed of [`Heuristic::Random`] (the other heuristics do not use it).
    pub seed: u32,
    /// CDCL: restart after a Luby sequence of conflicts (4, 4, 8, 4, 4, 8, 16, ... since the
    /// previous restart): every decision undone, the learned clauses kept.
    pub restarts: bool,
    /// Propagate through two watched literals per clause and record each step's watch moves.
    /// A clause is then looked at only when one of its watched literals becomes false, so the
    /// propagations may come in another order than without (and another false clause may be
    /// found first).
    pub watches: bool,
    /// Stop with [`super::TraceError::TooManySteps`] past this many steps.
    pub max_steps: usize,
    /// Decisions taken by hand ("what if"): at the K-th decision (1-based, flips not counted)
    /// the literal given instead of the heuristic's choice. Its variable must be open then.
    #[serde(serialize_with = "decisions_json")]
    pub decisions: BTreeMap<usize, Lit>,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            algorithm: Algorithm::Dpll,
            heuristic: Heuristic::Fixed,
            seed: DEFAULT_SEED,
            restarts: false,
            watches: false,
            max_steps: super::DEFAULT_MAX_STEPS,
            decisions: BTreeMap::new(),
        }
    }
}

/// The seed of the random heuristic when none is given.
pub const DEFAULT_SEED: u32 = 1;

fn decisions_json<S: Serializer>(d: &BTreeMap<usize, Lit>, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(d.len()))?;
    for (k, l) in d {
        map.serialize_entry(&k.to_string(), &(l.to_dimacs() as i64))?;
    }
    map.end()
}

/// Reads `K=LIT` (the K-th decision takes the DIMACS literal LIT), as `--decide` takes it.
pub fn parse_decision(s: &str) -> Result<(usize, Lit), String> {
    let bad = || {
        format!("'{}' is not K=LIT (the K-th decision, 1-based, takes the DIMACS literal LIT, e.g. 2=-7)", crate::cnf::shorten(s))
    };
    let (k, l) = s.split_once('=').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let l: isize = l.trim().parse().map_err(|_| bad())?;
    if k == 0 || l == 0 || l.unsigned_abs() > crate::grade::MAX_VARS {
        return Err(bad());
    }
    Ok((k, Lit::from_dimacs(l)))
}
