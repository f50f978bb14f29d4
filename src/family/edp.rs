//! The Excluded Diagonals parameter file of the literature: what `queens-diag-gen.py` (Gent,
//! Jefferson and Nightingale, JAIR 59, 2017; CSPLib problem 079) prints, and what CSPLib's
//! `diag-N.tar.gz` archives hold:
//!
//! ```text
//! n =  10
//! numdiags =  14
//! diags =  [[4, 1], [2, 1], [14, 0], [8, 1], ...]
//! ```
//!
//! Each pair `[k, t]` is one diagonal of the 0-based board: `t = 1` the sum diagonal
//! `r + c = k`, `t = 0` the difference diagonal `r - c = k - (n - 1)`. The generator lists a
//! maximal set of diagonals in the order it drew them; only a *prefix* of the list, the first D
//! diagonals, is an instance of the paper's distribution ([`EdpFile::spec`]). The list may be
//! spread over several lines.

use super::lists::{self, err, Dialect, Statement, Value};
use super::{Diagonal, Family, Geometry, InstanceSpec, ParseError, MAX_N};
use std::collections::HashMap;
use std::fmt::Write as _;

/// One diagonal as the parameter file lists it: `[index, 1]` or `[index, 0]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdpDiagonal {
    /// `r + c` for a sum diagonal; `r - c + n - 1` for a difference diagonal (0-based).
    pub index: usize,
    /// `true` for a sum (`/`) diagonal (type 1), `false` for a difference (`\`) one (type 0).
    pub sum: bool,
}

impl EdpDiagonal {
    /// The diagonal on the `n` x `n` board.
    pub fn diagonal(self, n: usize) -> Diagonal {
        if self.sum {
            Diagonal::Sum(self.index)
        } else {
            Diagonal::Difference(self.index as i64 - (n as i64 - 1))
        }
    }
}

/// An Excluded Diagonals parameter file: the board size and the diagonals, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdpFile {
    /// Board size.
    pub n: usize,
    /// The diagonals in the order drawn (`numdiags` is their number).
    pub diagonals: Vec<EdpDiagonal>,
}

/// The lines of a parsed file that later checks name.
pub(super) struct EdpLines {
    /// The `numdiags = ...` line.
    pub numdiags: usize,
}

impl EdpFile {
    /// Reads a parameter file: `n = N`, `numdiags = K` and `diags = [[k, t], ...]`, in any
    /// order, each once. Refused with the line: a name other than these three, a missing or
    /// repeated one, n outside 1..=16384, a pair that is not two integers, a type other than 0
    /// or 1, an index outside 0..=2n-2, a diagonal listed twice, `numdiags` other than the
    /// length of the list, an unclosed list.
    pub fn parse(text: &str) -> Result<EdpFile, ParseError> {
        Self::parse_with_lines(text).map(|(f, _)| f)
    }

    pub(super) fn parse_with_lines(text: &str) -> Result<(EdpFile, EdpLines), ParseError> {
        let statements = lists::statements_checked(text, Dialect::Python, &mut Reading::default())?;
        let by_name: HashMap<&str, &Statement<'_>> =
            statements.iter().map(|s| (s.name, s)).collect();
        let required = |name: &str| {
            by_name.get(name).copied().ok_or(ParseError {
                line: lists::last_line(text),
                message: format!("no '{name} = ...' line ({HAS})"),
            })
        };
        let n_stmt = required("n")?;
        let n = lists::board_size(&n_stmt.value)?;
        let num_stmt = required("numdiags")?;
        let numdiags = match num_stmt.value {
            Value::Int { value, .. } if value >= 0 => value as u64,
            ref v => {
                return err(
                    v.line(),
                    format!(
                        "numdiags must be a non-negative integer, found '{}'",
                        v.shown()
                    ),
                )
            }
        };
        let diags_stmt = required("diags")?;
        let Value::List { items, .. } = &diags_stmt.value else {
            return err(
                diags_stmt.line,
                format!(
                    "diags must be a list of pairs [k, t], found '{}'",
                    diags_stmt.value.shown()
                ),
            );
        };
        let mut seen: HashMap<EdpDiagonal, usize> = HashMap::new();
        let mut diagonals = Vec::with_capacity(items.len());
        for item in items {
            let (index, sum) = checked_pair(item, Some(n))?;
            let d = EdpDiagonal { index, sum };
            if let Some(prev) = seen.insert(d, item.line()) {
                return err(item.line(), listed_twice(index, sum, prev));
            }
            diagonals.push(d);
        }
        if numdiags != diagonals.len() as u64 {
            return err(
                num_stmt.line,
                format!(
                    "numdiags = {numdiags}, but diags lists {} diagonals",
                    diagonals.len()
                ),
            );
        }
        Ok((
            EdpFile { n, diagonals },
            EdpLines {
                numdiags: num_stmt.line,
            },
        ))
    }

    /// The file as `queens-diag-gen.py` prints it, byte for byte: Python's `print` of three
    /// name-value pairs (two spaces after `=`) and of the list.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "n =  {}", self.n);
        let _ = writeln!(s, "numdiags =  {}", self.diagonals.len());
        s.push_str("diags =  [");
        for (i, d) in self.diagonals.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "[{}, {}]", d.index, u8::from(d.sum));
        }
        s.push_str("]\n");
        s
    }

    /// The instance of the first `d` diagonals (all of them for `None`), as an instance file
    /// holds it: family `excluded-diagonals`, parameters `d=D numdiags=K`. `None` when `d` is
    /// larger than the list.
    pub fn spec(&self, d: Option<usize>) -> Option<InstanceSpec> {
        let d = d.unwrap_or(self.diagonals.len());
        let prefix = self.diagonals.get(..d)?;
        let mut spec = InstanceSpec::empty(self.n, Geometry::Square);
        spec.family = Family::ExcludedDiagonals;
        spec.parameters = vec![
            ("d".to_string(), d.to_string()),
            ("numdiags".to_string(), self.diagonals.len().to_string()),
        ];
        spec.excluded = prefix.iter().map(|e| e.diagonal(self.n)).collect();
        Some(spec)
    }
}

/// The names of an Excluded Diagonals parameter file.
const NAMES: [&str; 3] = ["n", "numdiags", "diags"];

/// The names, in words for messages.
const HAS: &str = "an Excluded Diagonals parameter file has n, numdiags and diags";

/// The diagonal `[k, t]` of the list (the board of size `n`, when known, bounding its index):
/// its index and whether it is a sum diagonal.
fn checked_pair(item: &Value, n: Option<usize>) -> Result<(usize, bool), ParseError> {
    let (k, t) = item.pair("a diagonal [k, t]")?;
    let line = item.line();
    if t != 0 && t != 1 {
        return err(
            line,
            format!("diagonal [{k}, {t}]: the type {t} is neither 1 (a sum diagonal) nor 0 (a difference diagonal)"),
        );
    }
    let last = 2 * n.unwrap_or(MAX_N) as i64 - 2;
    if !(0..=last).contains(&k) {
        let board = match n {
            Some(n) => format!("the {n} x {n} board"),
            None => format!("the largest board (n = {MAX_N})"),
        };
        return err(
            line,
            format!("diagonal [{k}, {t}]: the index {k} is outside 0..={last}, the diagonals of {board}"),
        );
    }
    Ok((k as usize, t == 1))
}

/// The message for the diagonal `[index, sum]` listed a second time (first on line `prev`).
fn listed_twice(index: usize, sum: bool, prev: usize) -> String {
    format!(
        "diagonal [{index}, {}] listed twice (also on line {prev})",
        u8::from(sum)
    )
}

/// The checks made while an Excluded Diagonals file is read ([`lists::Checks`]): a name other
/// than the three, a name given twice, a list as the value of `n` or `numdiags`, a pair of the
/// list that is not a diagonal (of the board, or of the largest board before `n` is read), a
/// diagonal listed twice. So a list is refused by its item 4n - 1 at the latest (a board has
/// 4n - 2 diagonals), however long it goes on.
#[derive(Default)]
struct Reading {
    /// The diagonals of the list read so far, with their lines.
    seen: HashMap<EdpDiagonal, usize>,
}

impl lists::Checks for Reading {
    fn names(&self) -> &'static [&'static str] {
        &NAMES
    }
    fn has(&self) -> &'static str {
        HAS
    }

    fn item(
        &mut self,
        before: &[Statement<'_>],
        name: &str,
        index: usize,
        item: &Value,
    ) -> Result<(), ParseError> {
        if name == "numdiags" {
            return err(
                item.line(),
                "numdiags must be a non-negative integer, found a list",
            );
        }
        // The board, when its size came first: the indices are then bounded by it, and so is
        // the number of distinct diagonals (4n - 2).
        let n = lists::stated_size(before);
        // Indices within the board (the largest, before n is known) and no diagonal twice: the
        // list is refused by its (4n - 1)-th item at the latest.
        let (k, sum) = checked_pair(item, n)?;
        if let Some(prev) = self.seen.insert(EdpDiagonal { index: k, sum }, item.line()) {
            return err(item.line(), listed_twice(k, sum, prev));
        }
        debug_assert!(index < 4 * n.unwrap_or(MAX_N) - 2);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of CSPLib's AA-Excluded-Diagonals-Info.md, its list wrapped as printed there.
    const WRAPPED: &str = "n =  10\nnumdiags =  14\ndiags =  [[4, 1], [2, 1], [14, 0], [8, 1], [8, 0], [7, 0], [3, 1], \n          [12, 1], [18, 0], [5, 0], [14, 1], [0, 0], [15, 1], [17, 1]]\n";

    #[test]
    fn a_wrapped_list_reads_and_prints_on_one_line() {
        let f = EdpFile::parse(WRAPPED).unwrap();
        assert_eq!(f.n, 10);
        assert_eq!(f.diagonals.len(), 14);
        assert_eq!(
            f.diagonals[2],
            EdpDiagonal {
                index: 14,
                sum: false
            }
        );
        assert_eq!(f.to_text(), WRAPPED.replace(", \n          ", ", "));
        assert_eq!(EdpFile::parse(&f.to_text()).unwrap(), f);
    }

    #[test]
    fn pairs_are_the_diagonals_of_the_info_file() {
        // "the pair [4,1] excludes ... (0,4), (1,3), (2,2), (3,1), (4,0); [5,0] excludes
        // (0,4), (1,5), (2,6), (3,7), (4,8), (5,9)".
        let sum = EdpDiagonal {
            index: 4,
            sum: true,
        };
        assert_eq!(
            sum.diagonal(10).cells(10),
            [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)]
        );
        let diff = EdpDiagonal {
            index: 5,
            sum: false,
        };
        assert_eq!(
            diff.diagonal(10).cells(10),
            [(0, 4), (1, 5), (2, 6), (3, 7), (4, 8), (5, 9)]
        );
    }

    #[test]
    fn prefixes() {
        let f = EdpFile::parse(WRAPPED).unwrap();
        let spec = f.spec(Some(9)).unwrap();
        assert_eq!(spec.excluded.len(), 9);
        assert_eq!(spec.excluded[0], Diagonal::Sum(4));
        assert_eq!(spec.excluded[2], Diagonal::Difference(5));
        assert_eq!(spec.parameters_text(), "d=9 numdiags=14");
        assert_eq!(f.spec(None).unwrap().excluded.len(), 14);
        assert_eq!(f.spec(Some(15)), None);
    }

    #[test]
    fn bad_files_name_the_line() {
        let e = |t: &str| EdpFile::parse(t).unwrap_err().to_string();
        let head = "n =  10\nnumdiags =  2\n";
        assert_eq!(
            e(&format!("{head}diags =  [[4, 1], [2, 2]]\n")),
            "line 3: diagonal [2, 2]: the type 2 is neither 1 (a sum diagonal) nor 0 (a difference diagonal)"
        );
        assert_eq!(
            e(&format!("{head}diags =  [[4, 1],\n [19, 0]]\n")),
            "line 4: diagonal [19, 0]: the index 19 is outside 0..=18, the diagonals of the 10 x 10 board"
        );
        assert_eq!(
            e(&format!("{head}diags =  [[4, 1], [4, 1]]\n")),
            "line 3: diagonal [4, 1] listed twice (also on line 3)"
        );
        assert_eq!(
            e(&format!("{head}diags =  [[4, 1]]\n")),
            "line 2: numdiags = 2, but diags lists 1 diagonals"
        );
        assert_eq!(
            e(&format!("{head}diags =  [[4, 1], [3]]\n")),
            "line 3: expected a diagonal [k, t], found '[3]'"
        );
        assert_eq!(
            e("n =  10\ndiags = []\n"),
            "line 2: no 'numdiags = ...' line (an Excluded Diagonals parameter file has n, numdiags and diags)"
        );
        assert!(e(&format!("{head}diags =  [[4, 1],\n"))
            .starts_with("line 3: the file ends inside the list opened on line 3"));
        assert!(e("n = 0\nnumdiags = 0\ndiags = []\n").starts_with("line 1: n must be"));
        assert!(e("n = 4\nm = 0\n").starts_with("line 2: unknown name 'm'"));
    }

    /// A file is refused at its first impossible item, while it is read: each text below goes
    /// on with a malformed tail, which a reader that read on would report instead.
    #[test]
    fn the_reading_stops_at_the_first_impossible_item() {
        let e = |t: &str| EdpFile::parse(t).unwrap_err().to_string();
        let tail = "\n[0, 1],\n@ a malformed tail, never closed\n";
        // All 38 diagonals of the 10 x 10 board, one a line (lines 4 to 41): the 39th item
        // (line 42), whatever it is, is one of them again or off the board.
        let mut all = String::from("n =  10\nnumdiags =  40\ndiags =  [\n");
        for k in 0..19 {
            for t in [1, 0] {
                all.push_str(&format!("[{k}, {t}],\n"));
            }
        }
        assert_eq!(
            e(&format!("{all}[7, 0],{tail}")),
            "line 42: diagonal [7, 0] listed twice (also on line 19)"
        );
        assert_eq!(
            e(&format!("{all}[19, 1],{tail}")),
            "line 42: diagonal [19, 1]: the index 19 is outside 0..=18, the diagonals of the 10 x 10 board"
        );
        // Before n is read, the largest board bounds the indices.
        assert_eq!(
            e(&format!("diags = [[5, 1], [5, 1],{tail}")),
            "line 1: diagonal [5, 1] listed twice (also on line 1)"
        );
        assert_eq!(
            e(&format!("diags = [[32767, 1],{tail}")),
            "line 1: diagonal [32767, 1]: the index 32767 is outside 0..=32766, the diagonals of the largest board (n = 16384)"
        );
        // Names and values that no file has, at once.
        assert_eq!(
            e(&format!("n = 10\nsize = [1, 2,{tail}")),
            "line 2: unknown name 'size' (an Excluded Diagonals parameter file has n, numdiags and diags)"
        );
        assert_eq!(
            e(&format!("n = 10\ndiags = []\ndiags = [[1, 1],{tail}")),
            "line 3: 'diags' given twice (also on line 2)"
        );
        assert_eq!(
            e(&format!("n = [1, 2,{tail}")),
            "line 1: n must be an integer in 1..=16384, found a list"
        );
        assert_eq!(
            e(&format!("numdiags = [[1, 2],{tail}")),
            "line 1: numdiags must be a non-negative integer, found a list"
        );
    }
}
