//! What the text of a trace shows (`trace --show`): each kind of step, and the details written
//! under the steps, so that a course can show only what a lesson is about (decisions and
//! conflicts first, the resolution steps of learning later).

use std::fmt;
use std::str::FromStr;

/// One part of the text that can be shown or left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Decision steps.
    Decide,
    /// Propagation steps (a literal forced by its clause).
    Propagate,
    /// Conflict steps (a clause with every literal false).
    Conflict,
    /// Learn steps of CDCL (the clause learned).
    Learn,
    /// Backjump steps of CDCL.
    Backjump,
    /// Backtrack steps of backtracking and DPLL.
    Backtrack,
    /// Flip steps (a decision's other value).
    Flip,
    /// Restart steps.
    Restart,
    /// Under a learn step: each resolution step from the conflict clause to the learned one.
    Resolution,
    /// Under a step: the watched literals it moved and the clauses it made unit (`--watches`).
    Watches,
    /// The board (or the variables' values) before each decision, at conflicts and at the end.
    Boards,
    /// Under a learn step: its clause drawn as a pattern of queens and empty cells.
    Patterns,
}

impl Part {
    /// Every part, in the order `--show` lists them.
    pub const ALL: [Part; 12] = [
        Part::Decide,
        Part::Propagate,
        Part::Conflict,
        Part::Learn,
        Part::Backjump,
        Part::Backtrack,
        Part::Flip,
        Part::Restart,
        Part::Resolution,
        Part::Watches,
        Part::Boards,
        Part::Patterns,
    ];

    /// The part's name on the command line: `decide`, `propagate`, ..., `patterns`.
    pub fn name(self) -> &'static str {
        match self {
            Part::Decide => "decide",
            Part::Propagate => "propagate",
            Part::Conflict => "conflict",
            Part::Learn => "learn",
            Part::Backjump => "backjump",
            Part::Backtrack => "backtrack",
            Part::Flip => "flip",
            Part::Restart => "restart",
            Part::Resolution => "resolution",
            Part::Watches => "watches",
            Part::Boards => "boards",
            Part::Patterns => "patterns",
        }
    }

    fn bit(self) -> u16 {
        1 << Part::ALL.iter().position(|&p| p == self).unwrap_or(0)
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`Part`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown part '{0}' of a trace to show (the parts: decide, propagate, conflict, learn, backjump, backtrack, flip, restart, resolution, watches, boards, patterns, or all)")]
pub struct UnknownPart(pub String);

impl FromStr for Part {
    type Err = UnknownPart;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Part::ALL
            .into_iter()
            .find(|p| p.name() == s.trim())
            .ok_or_else(|| UnknownPart(s.trim().to_string()))
    }
}

/// The parts a trace's text shows; the result and the totals are always shown, and a hidden
/// step keeps its number, so the gaps say where steps were left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown(u16);

impl Default for Shown {
    /// Everything.
    fn default() -> Self {
        Shown::ALL
    }
}

impl Shown {
    /// Every part.
    pub const ALL: Shown = Shown((1 << Part::ALL.len()) - 1);

    /// Only `parts`.
    pub fn only(parts: &[Part]) -> Shown {
        Shown(parts.iter().fold(0, |bits, p| bits | p.bit()))
    }

    /// Whether `part` is shown.
    pub fn shows(self, part: Part) -> bool {
        self.0 & part.bit() != 0
    }

    /// Reads `decide,conflict,boards` (or `all`).
    pub fn parse(list: &str) -> Result<Shown, UnknownPart> {
        if list.trim() == "all" {
            return Ok(Shown::ALL);
        }
        let parts = list
            .split(',')
            .map(str::parse)
            .collect::<Result<Vec<Part>, _>>()?;
        Ok(Shown::only(&parts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_read_by_name() {
        for p in Part::ALL {
            assert_eq!(p.name().parse::<Part>(), Ok(p));
            assert!(Shown::ALL.shows(p));
            assert!(Shown::only(&[p]).shows(p));
            assert_eq!(
                Part::ALL
                    .iter()
                    .filter(|&&q| Shown::only(&[p]).shows(q))
                    .count(),
                1
            );
        }
        let s = Shown::parse("decide, conflict,boards").unwrap();
        assert!(s.shows(Part::Decide) && s.shows(Part::Conflict) && s.shows(Part::Boards));
        assert!(!s.shows(Part::Propagate));
        assert_eq!(Shown::parse("all"), Ok(Shown::ALL));
        assert_eq!(
            Shown::parse("decide,learnt"),
            Err(UnknownPart("learnt".into()))
        );
    }
}
