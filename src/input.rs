//! Parsers of the small values people type on the command line: board sizes, lists and ranges
//! of sizes, cells, time limits and shards. In the library so that they are tested and fuzzed
//! like every other parser of user input; the command line uses them as its value parsers.
//! Also the bounded reading of the small text files people name: instance files, maps, shard
//! files ([`read_text_file`]).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A board size: a positive integer. Errors say what was wrong (`n must be at least 1`,
/// `n = ... is too large`).
pub fn parse_n(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if t.starts_with('-') {
        return Err(format!(
            "n must be a positive integer, got '{}'",
            shorten(s)
        ));
    }
    match t.parse::<u64>() {
        Ok(0) => Err("n must be at least 1".to_string()),
        Ok(v) if v > usize::MAX as u64 => Err(format!("n = {v} is too large")),
        Ok(v) => Ok(v as usize),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("n = {} is too large", shorten(t)))
        }
        Err(_) => Err(format!(
            "n must be a positive integer, got '{}'",
            shorten(s)
        )),
    }
}

/// The ends of a range `A..B` (both included), or `A..A` for a single `A`, each read by
/// `number`; lists of seeds and of D values are made of them.
pub fn range_ends<T: Copy, E>(
    part: &str,
    mut number: impl FnMut(&str) -> Result<T, E>,
) -> Result<(T, T), E> {
    match part.split_once("..") {
        Some((a, b)) => Ok((number(a)?, number(b)?)),
        None => number(part).map(|x| (x, x)),
    }
}

/// Board sizes: ranges `a..b` (both ends included; `a..=b` too), ranges with a step `a..b:k`
/// (a, a+k, a+2k, ... up to b), and single numbers, separated by commas, e.g. `1..10`,
/// `8..32:8`, `4,6,8`, `1..5,12`. Sorted, duplicates dropped. An n above `max` is refused
/// with the message `too_large(n)` before any range is expanded; a step must be a positive
/// integer.
pub fn parse_n_list(
    s: &str,
    max: usize,
    too_large: impl Fn(usize) -> String,
) -> Result<Vec<usize>, String> {
    let mut ns = Vec::new();
    for part in s.split(',').map(str::trim) {
        if part.is_empty() {
            return Err(format!("empty entry in the list of n '{}'", shorten(s)));
        }
        if let Some((a, b)) = part.split_once("..") {
            let b = b.strip_prefix('=').unwrap_or(b);
            let (b, step) = match b.split_once(':') {
                Some((b, k)) => match k.trim().parse::<usize>() {
                    Ok(k) if k > 0 => (b, k),
                    _ => {
                        return Err(format!(
                            "the step of the range {} must be a positive integer",
                            shorten(part)
                        ))
                    }
                },
                None => (b, 1),
            };
            let (a, b) = (parse_n(a)?, parse_n(b)?);
            if a > b {
                return Err(format!(
                    "the range {} is empty (write the smaller n first)",
                    shorten(part)
                ));
            }
            if b > max {
                return Err(too_large(b));
            }
            ns.extend((a..=b).step_by(step));
        } else {
            let n = parse_n(part)?;
            if n > max {
                return Err(too_large(n));
            }
            ns.push(n);
        }
    }
    ns.sort_unstable();
    ns.dedup();
    Ok(ns)
}

/// A sorted list of sizes written back compactly: runs of three or more as ranges
/// (`1..5,8,10..12`), so that [`parse_n_list`] reads it back to the same list.
pub fn format_n_list(ns: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ns.len() {
        let mut j = i;
        while j + 1 < ns.len() && ns[j + 1] == ns[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}..{}", ns[i], ns[j]));
        } else {
            parts.extend(ns[i..=j].iter().map(|n| n.to_string()));
        }
        i = j + 1;
    }
    parts.join(",")
}

/// A cell `ROW,COL`, 1-based as typed, returned 0-based.
pub fn parse_cell(s: &str) -> Result<(usize, usize), String> {
    let bad = || {
        format!(
            "'{}' is not a cell: expected ROW,COL with 1-based numbers, e.g. 2,5",
            shorten(s)
        )
    };
    let (r, c) = s.split_once(',').ok_or_else(bad)?;
    let r: usize = r.trim().parse().map_err(|_| bad())?;
    let c: usize = c.trim().parse().map_err(|_| bad())?;
    if r == 0 || c == 0 {
        return Err(format!(
            "'{}': rows and columns are numbered from 1",
            shorten(s)
        ));
    }
    Ok((r - 1, c - 1))
}

/// The shortest time limit taken: a millisecond.
pub const MIN_TIMEOUT_SECS: f64 = 0.001;

/// The longest time limit taken: a week.
pub const MAX_TIMEOUT_SECS: f64 = 7.0 * 24.0 * 3600.0;

/// A time limit in seconds (fractions allowed), from [`MIN_TIMEOUT_SECS`] to
/// [`MAX_TIMEOUT_SECS`], as typed (`--timeout 2.5`). Errors say what was wrong (not a number,
/// not positive, too short, too long).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !v.is_finite() || v <= 0.0 {
        return Err(format!(
            "'{s}': the time limit must be a positive number of seconds"
        ));
    }
    if v < MIN_TIMEOUT_SECS {
        return Err(format!(
            "'{s}': the time limit must be at least {MIN_TIMEOUT_SECS} seconds"
        ));
    }
    if v > MAX_TIMEOUT_SECS {
        return Err(format!(
            "'{s}': the time limit is at most a week ({MAX_TIMEOUT_SECS} seconds)"
        ));
    }
    Ok(v)
}

/// [`parse_seconds`] as a [`Duration`].
pub fn parse_timeout(s: &str) -> Result<Duration, String> {
    let v = parse_seconds(s)?;
    Duration::try_from_secs_f64(v).map_err(|e| format!("'{s}': {e}"))
}

/// Why a text file named by the user cannot be read. `what` names the file in messages
/// ("instance file", "shard file").
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// It cannot be opened (or does not exist).
    #[error("cannot open {what} {}", .path.display())]
    Open {
        /// What the file is.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It is a directory.
    #[error("{what} {} is a directory", .path.display())]
    Directory {
        /// What the file is.
        what: &'static str,
        /// The file.
        path: PathBuf,
    },
    /// Reading failed.
    #[error("cannot read {what} {}", .path.display())]
    Read {
        /// What the file is.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It is larger than such a file can need.
    #[error("{}: larger than {cap} bytes, more than a {what} can need", .path.display())]
    TooLarge {
        /// What the file is.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The most it may hold.
        cap: u64,
    },
    /// It is not UTF-8 text.
    #[error("{}: not a text file (UTF-8)", .path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
}

/// Reads a text file (`-` for stdin, a pipe such as `<(...)` too) of at most `cap` bytes,
/// UTF-8; a directory is refused before it is opened. `what` names the file in messages
/// ("instance file", "shard file").
pub fn read_text_file(path: &Path, cap: u64, what: &'static str) -> Result<String, ReadError> {
    let file = || path.to_path_buf();
    let mut bytes = Vec::new();
    let reader: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        let open = |source| ReadError::Open {
            what,
            path: file(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(open)?;
        if meta.is_dir() {
            return Err(ReadError::Directory { what, path: file() });
        }
        Box::new(std::fs::File::open(path).map_err(open)?)
    };
    reader
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Read {
            what,
            path: file(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge {
            what,
            path: file(),
            cap,
        });
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotText { path: file() })
}

/// `text` with control characters escaped (`\u{1b}`, `\n`), cut to at most `max` characters.
pub fn escape(text: &str, max: usize) -> String {
    let mut s = String::new();
    for (i, ch) in text.chars().enumerate() {
        if i == max {
            s.push_str("...");
            break;
        }
        if ch.is_control() {
            s.extend(ch.escape_default());
        } else {
            s.push(ch);
        }
    }
    s
}

/// Splits a command line into its words as a POSIX shell splits a simple command: words
/// separated by blanks, `'...'` taken as written (the way queens-sat writes a word with
/// blanks or quotes in the `c command:` line of its files, with `'\''` for a quote inside),
/// `"..."` with `\` before `"`, `\`, `$` and `` ` ``, and `\` before any other character
/// outside quotes. Nothing is expanded. An unterminated quote is an error.
///
/// ```
/// use queens_sat::input::split_command_line;
///
/// let words = split_command_line("queens-sat encode 5 --instance 'my dir/it'\\''s.txt'").unwrap();
/// assert_eq!(words, ["queens-sat", "encode", "5", "--instance", "my dir/it's.txt"]);
/// ```
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(ch) = chars.next() {
        match ch {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a ' quote is not closed".to_string()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a \" quote is not closed".to_string()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a \" quote is not closed".to_string()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err("a backslash ends the line".to_string()),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// At most 40 characters of user text, with control characters escaped, for messages.
pub(crate) fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(char::escape_default).collect();
    if s.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_into_words() {
        let split = |s: &str| split_command_line(s);
        assert_eq!(
            split("  queens-sat   encode 5\t--amo sequential ").unwrap(),
            ["queens-sat", "encode", "5", "--amo", "sequential"]
        );
        // As queens-sat quotes a word: in '...', a quote as '\''.
        assert_eq!(
            split("a 'b c' 'it'\\''s' ''").unwrap(),
            ["a", "b c", "it's", ""]
        );
        assert_eq!(
            split(r#""x \"y\" \$z \w" a\ b"#).unwrap(),
            [r#"x "y" $z \w"#, "a b"]
        );
        assert_eq!(split("").unwrap(), Vec::<String>::new());
        assert!(split("a 'b").is_err());
        assert!(split("a \"b").is_err());
        assert!(split("a \\").is_err());
    }

    #[test]
    fn lists_parse_and_print_back() {
        let too_large = |n| format!("{n} too large");
        assert_eq!(
            parse_n_list("1..5,12", 100, too_large).unwrap(),
            [1, 2, 3, 4, 5, 12]
        );
        assert_eq!(
            parse_n_list("8, 4,4..=5", 100, too_large).unwrap(),
            [4, 5, 8]
        );
        assert_eq!(format_n_list(&[1, 2, 3, 4, 5, 8, 10, 11]), "1..5,8,10,11");
        assert_eq!(
            parse_n_list("1..200", 100, too_large).unwrap_err(),
            "200 too large"
        );
        assert!(parse_n_list("5..1", 100, too_large)
            .unwrap_err()
            .contains("empty"));
        assert!(parse_n_list("", 100, too_large).is_err());
        // Ranges with a step, against the lists written out.
        assert_eq!(
            parse_n_list("8..32:8", 100, too_large).unwrap(),
            [8, 16, 24, 32]
        );
        assert_eq!(
            parse_n_list("4..=11:3,5", 100, too_large).unwrap(),
            [4, 5, 7, 10]
        );
        assert_eq!(parse_n_list("6..6:5", 100, too_large).unwrap(), [6]);
        assert_eq!(
            parse_n_list("1..200:50", 100, too_large).unwrap_err(),
            "200 too large"
        );
        for bad in ["1..9:0", "1..9:-2", "1..9:", "1..9:x", "1..9:1.5"] {
            assert!(
                parse_n_list(bad, 100, too_large)
                    .unwrap_err()
                    .contains("step"),
                "{bad}"
            );
        }
    }

    #[test]
    fn time_limits_and_shards() {
        assert_eq!(parse_timeout(" 2.5 "), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_seconds("0.001"), Ok(0.001));
        assert_eq!(parse_seconds("604800"), Ok(604800.0));
        assert_eq!(
            parse_timeout("x").unwrap_err(),
            "'x' is not a number of seconds"
        );
        for bad in ["0", "-1", "inf", "NaN"] {
            assert!(
                parse_timeout(bad).unwrap_err().contains("positive"),
                "{bad}"
            );
        }
        assert!(parse_timeout("0.0001")
            .unwrap_err()
            .contains("at least 0.001"));
        assert!(parse_timeout("604801")
            .unwrap_err()
            .contains("at most a week"));
    }

    #[test]
    fn cells_and_sizes() {
        assert_eq!(parse_cell("2,5"), Ok((1, 4)));
        assert!(parse_cell("0,5").unwrap_err().contains("from 1"));
        assert!(parse_cell("\\x1b[31m")
            .unwrap_err()
            .contains("is not a cell"));
        assert_eq!(parse_n("0").unwrap_err(), "n must be at least 1");
        assert_eq!(
            parse_n("18446744073709551616").unwrap_err(),
            "n = 18446744073709551616 is too large"
        );
    }
}
