//! The Essence' parameter file of n-Queens Completion: what `queens-gen-fast.py` (Gent,
//! Jefferson and Nightingale, JAIR 59, 2017; CSPLib problem 079) prints, and what the models
//! of CSPLib's problem 079 (`partialqueens-*.eprime`) take:
//!
//! ```text
//! letting n =  8
//! letting init =  [[2, 1], [7, 0], [3, 3]]
//! ```
//!
//! `n` is the board size and `init` the pre-placed queens, `[row, column]` on the 0-based
//! board. As Essence' has it, `letting name be value` means the same as `letting name = value`,
//! `$` starts a comment and a `language ESSENCE' 1.0` line may come first; lists may be spread
//! over lines.

use super::lists::{self, err, Dialect, Statement, Value};
use super::{Cell, Family, Geometry, InstanceSpec, ParseError, MAX_N};
use std::collections::HashMap;
use std::fmt::Write as _;

/// An n-Queens Completion parameter file: the board size and the pre-placed queens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EssenceCompletion {
    /// Board size.
    pub n: usize,
    /// The pre-placed queens, 0-based `(row, column)`, in the file's order.
    pub init: Vec<Cell>,
}

impl EssenceCompletion {
    /// Reads a parameter file: `letting n = N` and `letting init = [[r, c], ...]`, each once.
    /// Refused with the line: another name, a missing or repeated one, n outside 1..=16384, a
    /// pair that is not two integers, a cell off the board, a cell listed twice, two queens
    /// that attack each other, an unclosed list.
    pub fn parse(text: &str) -> Result<EssenceCompletion, ParseError> {
        let statements =
            lists::statements_checked(text, Dialect::Essence, &mut Reading::default())?;
        let by_name: HashMap<&str, &Statement<'_>> =
            statements.iter().map(|s| (s.name, s)).collect();
        let required = |name: &str| {
            by_name.get(name).copied().ok_or(ParseError {
                line: lists::last_line(text),
                message: format!("no 'letting {name} = ...' ({HAS})"),
            })
        };
        let n = lists::board_size(&required("n")?.value)?;
        let init_stmt = required("init")?;
        let Value::List { items, .. } = &init_stmt.value else {
            return err(
                init_stmt.line,
                format!(
                    "init must be a list of cells [row, column], found '{}'",
                    init_stmt.value.shown()
                ),
            );
        };
        let mut queens = Queens::default();
        let mut init = Vec::with_capacity(items.len());
        for item in items {
            init.push(queens.place(item, Some(n))?);
        }
        Ok(EssenceCompletion { n, init })
    }

    /// The file as `queens-gen-fast.py` prints it, byte for byte: Python's `print` of
    /// `letting n = ` and `letting init = ` with their values (two spaces after `=`).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "letting n =  {}", self.n);
        s.push_str("letting init =  [");
        for (i, (r, c)) in self.init.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "[{r}, {c}]");
        }
        s.push_str("]\n");
        s
    }

    /// The instance as an instance file holds it: family `completion`, parameter `k` (the
    /// number of pre-placed queens), the queens in the file's order.
    pub fn spec(&self) -> InstanceSpec {
        let mut spec = InstanceSpec::empty(self.n, Geometry::Square);
        spec.family = Family::Completion;
        spec.parameters = vec![("k".to_string(), self.init.len().to_string())];
        spec.placed = self.init.clone();
        spec
    }
}

/// The queens of the list read so far: the queen on each line of the board (row, column, `/`
/// and `\\` diagonal), with the file line that placed it.
#[derive(Default)]
struct Queens {
    lines: [HashMap<i64, (Cell, usize)>; 4],
}

impl Queens {
    /// Places the queen of `item`, a cell `[r, c]` of the board of size `n` (of the largest
    /// board before `n` is known), refusing a cell listed twice or a queen that attacks one
    /// placed before.
    fn place(&mut self, item: &Value, n: Option<usize>) -> Result<Cell, ParseError> {
        let (r, c) = item.pair("a cell [row, column]")?;
        let line = item.line();
        let size = n.unwrap_or(MAX_N) as i64;
        if !(0..size).contains(&r) || !(0..size).contains(&c) {
            let board = match n {
                Some(n) => format!("the {n} x {n} board"),
                None => format!("the largest board (n = {MAX_N})"),
            };
            return err(
                line,
                format!(
                    "cell [{r}, {c}] is outside {board} (rows and columns 0..={})",
                    size - 1
                ),
            );
        }
        let cell = (r as usize, c as usize);
        let names = ["row", "column", "/ diagonal", "\\ diagonal"];
        for (k, key) in [r, c, r + c, r - c].into_iter().enumerate() {
            if let Some(&(other, prev)) = self.lines[k].get(&key) {
                return err(
                    line,
                    if other == cell {
                        format!("cell [{r}, {c}] listed twice (also on line {prev})")
                    } else {
                        format!(
                            "placed queens [{}, {}] (line {prev}) and [{r}, {c}] share a {}",
                            other.0, other.1, names[k]
                        )
                    },
                );
            }
        }
        for (k, key) in [r, c, r + c, r - c].into_iter().enumerate() {
            self.lines[k].insert(key, (cell, line));
        }
        Ok(cell)
    }
}

/// The checks made while an n-Queens Completion file is read ([`lists::Checks`]): a name other
/// than `n` and `init`, a name given twice, a list as the value of `n`, a cell of the list off
/// the board (the largest board before `n` is read), listed twice or attacking a queen listed
/// before. So a list is refused by its item n + 1 at the latest (two queens would share a row),
/// however long it goes on.
#[derive(Default)]
struct Reading {
    queens: Queens,
}

/// What an n-Queens Completion parameter file states, in words for messages.
const HAS: &str = "an n-Queens Completion parameter file has n and init";

impl lists::Checks for Reading {
    fn names(&self) -> &'static [&'static str] {
        &["n", "init"]
    }
    fn has(&self) -> &'static str {
        HAS
    }

    fn item(
        &mut self,
        before: &[Statement<'_>],
        _: &str,
        _: usize,
        item: &Value,
    ) -> Result<(), ParseError> {
        let n = lists::stated_size(before);
        self.queens.place(item, n).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generators_output_and_essence_variants_read() {
        let text = "letting n =  8\nletting init =  [[2, 1], [7, 0], [3, 3]]\n";
        let f = EssenceCompletion::parse(text).unwrap();
        assert_eq!(f.n, 8);
        assert_eq!(f.init, [(2, 1), (7, 0), (3, 3)]);
        assert_eq!(f.to_text(), text);
        let variant = "language ESSENCE' 1.0\n$ three queens\nletting n be 8\nletting init be [\n  [2, 1], $ first\n  [7, 0],\n  [3, 3]\n]\n";
        assert_eq!(EssenceCompletion::parse(variant).unwrap(), f);
        let spec = f.spec();
        assert_eq!(spec.family, Family::Completion);
        assert_eq!(spec.parameters_text(), "k=3");
        assert_eq!(spec.placed, f.init);
    }

    #[test]
    fn bad_files_name_the_line() {
        let e = |t: &str| EssenceCompletion::parse(t).unwrap_err().to_string();
        assert_eq!(
            e("letting n = 8\nletting init = [[0, 0],\n [8, 1]]\n"),
            "line 3: cell [8, 1] is outside the 8 x 8 board (rows and columns 0..=7)"
        );
        assert_eq!(
            e("letting n = 8\nletting init = [[0, 0],\n [2, 2]]\n"),
            "line 3: placed queens [0, 0] (line 2) and [2, 2] share a \\ diagonal"
        );
        assert_eq!(
            e("letting n = 8\nletting init = [[0, 3], [0, 3]]\n"),
            "line 2: cell [0, 3] listed twice (also on line 2)"
        );
        assert_eq!(
            e("letting n = 8\nletting init = [[0, 3], [1, 2]]\n"),
            "line 2: placed queens [0, 3] (line 2) and [1, 2] share a / diagonal"
        );
        assert_eq!(
            e("letting n = 8\n"),
            "line 1: no 'letting init = ...' (an n-Queens Completion parameter file has n and init)"
        );
        assert!(e("letting n = 8\nletting init = [[0, 3]\n")
            .starts_with("line 2: the file ends inside the list opened on line 2"));
        assert!(e("letting m = 8\n").starts_with("line 1: unknown name 'm'"));
        assert!(e("letting n = 8\nletting init = [[0, 3, 1]]\n")
            .starts_with("line 2: expected a cell [row, column]"));
    }

    /// A file is refused at its first impossible cell, while it is read: each text below goes
    /// on with a malformed tail, which a reader that read on would report instead.
    #[test]
    fn the_reading_stops_at_the_first_impossible_cell() {
        let e = |t: &str| EssenceCompletion::parse(t).unwrap_err().to_string();
        let tail = "\n[0, 1],\n@ a malformed tail, never closed\n";
        // A solution of n = 4, then a fifth queen: it shares a row with one of them.
        assert_eq!(
            e(&format!(
                "letting n = 4\nletting init = [[0, 1], [1, 3], [2, 0], [3, 2], [3, 3],{tail}"
            )),
            "line 2: placed queens [3, 2] (line 2) and [3, 3] share a row"
        );
        assert_eq!(
            e(&format!("letting init = [[1, 1], [1, 1],{tail}")),
            "line 1: cell [1, 1] listed twice (also on line 1)"
        );
        assert_eq!(
            e(&format!("letting init = [[16384, 0],{tail}")),
            "line 1: cell [16384, 0] is outside the largest board (n = 16384) (rows and columns 0..=16383)"
        );
        assert_eq!(
            e(&format!("letting n = 4\nletting k = [1,{tail}")),
            "line 2: unknown name 'k' (an n-Queens Completion parameter file has n and init)"
        );
        assert_eq!(
            e(&format!("letting n = [1,{tail}")),
            "line 1: n must be an integer in 1..=16384, found a list"
        );
    }
}
