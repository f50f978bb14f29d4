//! Reading instance files (docs/formats.md): every problem is one line naming the line number.

use super::{Diagonal, Family, InstanceSpec, FORMAT_VERSION, MAX_N};
use crate::board::{Cell, Geometry};
use crate::input::shorten as quote;
use std::collections::HashMap;

/// Why an instance file could not be read: the 1-based line and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// 1-based line number (the last line + 1 for a file that ends too early).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        message: message.into(),
    })
}

impl InstanceSpec {
    /// Reads an instance file. Blank lines and lines starting with `#` are ignored; the first
    /// other line must be `queens-sat instance 1`, the last `end`.
    pub fn parse(text: &str) -> Result<InstanceSpec, ParseError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let last_line = text.lines().count();
        let Some((first, header)) = lines.next() else {
            return err(1, "empty file: expected 'queens-sat instance 1'");
        };
        let version = header
            .strip_prefix("queens-sat instance")
            .map(str::trim)
            .ok_or(ParseError {
                line: first,
                message: format!(
                "not an instance file: expected 'queens-sat instance {FORMAT_VERSION}', found '{}'",
                quote(header)
            ),
            })?;
        if version != FORMAT_VERSION.to_string() {
            return err(
                first,
                format!(
                    "unsupported instance file version '{}' (this queens-sat reads version {FORMAT_VERSION})",
                    quote(version)
                ),
            );
        }

        let mut single: HashMap<&str, (usize, &str)> = HashMap::new();
        let mut lists: Vec<(usize, &str, &str)> = Vec::new();
        let mut ended = false;
        for (no, line) in lines {
            if ended {
                return err(no, "text after 'end'");
            }
            let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match key {
                "end" if rest.is_empty() => ended = true,
                "n" | "board" | "family" | "parameters" | "seed" | "generator" => {
                    if let Some((prev, _)) = single.insert(key, (no, rest)) {
                        return err(no, format!("'{key}' given twice (also on line {prev})"));
                    }
                }
                "placed" | "blocked" | "excluded" => lists.push((no, key, rest)),
                _ => {
                    return err(
                        no,
                        format!(
                            "unknown line '{}' (known: n, board, family, parameters, seed, generator, placed, blocked, excluded, end)",
                            quote(line)
                        ),
                    )
                }
            }
        }
        if !ended {
            return err(
                last_line + 1,
                "the file ends without an 'end' line (truncated?)",
            );
        }
        let required = |key: &str| {
            single.get(key).copied().ok_or(ParseError {
                line: last_line,
                message: format!("no '{key}' line"),
            })
        };

        let (no, text_n) = required("n")?;
        let n: usize = match text_n.parse() {
            Ok(n) if (1..=MAX_N).contains(&n) => n,
            _ => {
                return err(
                    no,
                    format!(
                        "n must be an integer in 1..={MAX_N}, found '{}'",
                        quote(text_n)
                    ),
                )
            }
        };
        let (no, text) = required("board")?;
        let geometry: Geometry = text.parse().or_else(|e: String| err(no, e))?;
        let (no, text) = required("family")?;
        let family: Family = text.parse().or_else(|e: String| err(no, e))?;
        if family == Family::Toroidal && geometry != Geometry::Toroidal {
            return err(no, "family toroidal needs 'board toroidal'");
        }
        let mut spec = InstanceSpec::empty(n, geometry);
        spec.family = family;
        if let Some(&(no, text)) = single.get("parameters") {
            for item in text.split_whitespace() {
                match item.split_once('=') {
                    Some((k, v)) if !k.is_empty() && !v.is_empty() => {
                        spec.parameters.push((k.to_string(), v.to_string()))
                    }
                    _ => return err(no, format!("parameter '{}' is not name=value", quote(item))),
                }
            }
        }
        if let Some(&(no, text)) = single.get("seed") {
            spec.seed = Some(text.parse().or_else(|_| {
                err(
                    no,
                    format!(
                        "seed must be an integer in 0..=2^64-1, found '{}'",
                        quote(text)
                    ),
                )
            })?);
        }
        if let Some(&(_, text)) = single.get("generator") {
            spec.generator = Some(text.to_string());
        }

        let mut seen: HashMap<Cell, (usize, &str)> = HashMap::new();
        let mut seen_diagonals: HashMap<Diagonal, usize> = HashMap::new();
        for &(no, key, rest) in &lists {
            if rest.is_empty() {
                return err(no, format!("'{key}' without anything listed"));
            }
            for item in rest.split_whitespace() {
                if key == "excluded" {
                    if geometry != Geometry::Square {
                        return err(no, "excluded diagonals need 'board square'");
                    }
                    let d = parse_diagonal(item, n).or_else(|m| err(no, m))?;
                    if let Some(prev) = seen_diagonals.insert(d, no) {
                        return err(
                            no,
                            format!("diagonal {d} listed twice (also on line {prev})"),
                        );
                    }
                    spec.excluded.push(d);
                    continue;
                }
                let cell = parse_cell(item, n).or_else(|m| err(no, m))?;
                if let Some((prev, what)) = seen.insert(cell, (no, key)) {
                    let shown = format!("({},{})", cell.0 + 1, cell.1 + 1);
                    return if what == key {
                        err(
                            no,
                            format!("cell {shown} listed twice (also on line {prev})"),
                        )
                    } else {
                        err(
                            no,
                            format!("cell {shown} is both placed and blocked (see line {prev})"),
                        )
                    };
                }
                if key == "placed" {
                    for &other in &spec.placed {
                        if let Some(line) = geometry.shared_line(n, other, cell) {
                            return err(
                                no,
                                format!(
                                    "placed queens at ({},{}) and ({},{}) share a {}",
                                    other.0 + 1,
                                    other.1 + 1,
                                    cell.0 + 1,
                                    cell.1 + 1,
                                    line.name()
                                ),
                            );
                        }
                    }
                    spec.placed.push(cell);
                } else {
                    spec.blocked.push(cell);
                }
            }
        }
        // A pre-placed queen may not stand on an excluded diagonal.
        for &(no, key, _) in lists.iter().filter(|l| l.1 == "excluded") {
            let _ = key;
            for &d in spec.excluded.iter().filter(|d| seen_diagonals[d] == no) {
                if let Some(&q) = spec.placed.iter().find(|q| d.cells(n).contains(q)) {
                    return err(
                        no,
                        format!(
                            "excluded diagonal {d} holds the placed queen ({},{})",
                            q.0 + 1,
                            q.1 + 1
                        ),
                    );
                }
            }
        }
        Ok(spec)
    }
}

/// `r,c` (1-based) -> 0-based cell on the `n` x `n` board.
fn parse_cell(item: &str, n: usize) -> Result<Cell, String> {
    let bad = || format!("'{}' is not a cell 'row,column' (1-based)", quote(item));
    let (r, c) = item.split_once(',').ok_or_else(bad)?;
    let r: usize = r.parse().map_err(|_| bad())?;
    let c: usize = c.parse().map_err(|_| bad())?;
    if !(1..=n).contains(&r) || !(1..=n).contains(&c) {
        return Err(format!("cell ({r},{c}) is outside the {n} x {n} board"));
    }
    Ok((r - 1, c - 1))
}

/// `r+c=K` (K in 2..=2n) or `r-c=K` (K in -(n-1)..=n-1), 1-based rows and columns.
fn parse_diagonal(item: &str, n: usize) -> Result<Diagonal, String> {
    let bad = || {
        format!(
            "'{}' is not a diagonal 'r+c=K' (K in 2..={}) or 'r-c=K' (K in {}..={})",
            quote(item),
            2 * n,
            -(n as i64 - 1),
            n - 1
        )
    };
    if let Some(k) = item.strip_prefix("r+c=") {
        let k: usize = k.parse().map_err(|_| bad())?;
        if !(2..=2 * n).contains(&k) {
            return Err(bad());
        }
        Ok(Diagonal::Sum(k - 2))
    } else if let Some(k) = item.strip_prefix("r-c=") {
        let k: i64 = k.parse().map_err(|_| bad())?;
        if k.unsigned_abs() >= n as u64 {
            return Err(bad());
        }
        Ok(Diagonal::Difference(k))
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_text(body: &str) -> String {
        format!("queens-sat instance 1\nn 8\nboard square\nfamily custom\n{body}end\n")
    }

    fn error(body: &str) -> String {
        InstanceSpec::parse(&spec_text(body))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn bad_files_name_the_line_and_the_problem() {
        assert_eq!(
            error("placed 9,1\n"),
            "line 5: cell (9,1) is outside the 8 x 8 board"
        );
        assert_eq!(
            error("placed 1,1 3,3\n"),
            "line 5: placed queens at (1,1) and (3,3) share a \\ diagonal"
        );
        assert_eq!(
            error("placed 1,1\nblocked 1,1\n"),
            "line 6: cell (1,1) is both placed and blocked (see line 5)"
        );
        assert_eq!(
            error("placed 1,3\nexcluded r+c=4\n"),
            "line 6: excluded diagonal r+c=4 holds the placed queen (1,3)"
        );
        assert!(error("excluded r+c=17\n").starts_with("line 5: 'r+c=17' is not a diagonal"));
        assert!(error("frobnicate 3\n").starts_with("line 5: unknown line 'frobnicate 3'"));
        let truncated = "queens-sat instance 1\nn 8\nboard square\nfamily custom\nplaced 1,1";
        assert_eq!(
            InstanceSpec::parse(truncated).unwrap_err().to_string(),
            "line 6: the file ends without an 'end' line (truncated?)"
        );
        assert_eq!(
            InstanceSpec::parse("queens-sat instance 2\n")
                .unwrap_err()
                .to_string(),
            "line 1: unsupported instance file version '2' (this queens-sat reads version 1)"
        );
        let unknown = "queens-sat instance 1\nn 8\nboard square\nfamily lattice\nend\n";
        assert!(InstanceSpec::parse(unknown)
            .unwrap_err()
            .to_string()
            .starts_with("line 4: unknown family 'lattice' (valid: completion, blocked"));
    }

    #[test]
    fn toroidal_attacks_wrap_around() {
        let text =
            "queens-sat instance 1\nn 5\nboard toroidal\nfamily custom\nplaced 1,1 2,5\nend\n";
        assert_eq!(
            InstanceSpec::parse(text).unwrap_err().to_string(),
            "line 5: placed queens at (1,1) and (2,5) share a / diagonal"
        );
    }

    #[test]
    fn a_hand_written_file_round_trips() {
        let text = spec_text("# a comment\nparameters p=0.5\nseed 3\nplaced 2,4\nblocked 1,1 8,8\nexcluded r-c=0 r+c=16\n");
        let spec = InstanceSpec::parse(&text).unwrap();
        assert_eq!(spec.placed, vec![(1, 3)]);
        assert_eq!(spec.blocked, vec![(0, 0), (7, 7)]);
        assert_eq!(
            spec.excluded,
            vec![Diagonal::Difference(0), Diagonal::Sum(14)]
        );
        assert_eq!(InstanceSpec::parse(&spec.to_text()).unwrap(), spec);
    }
}
