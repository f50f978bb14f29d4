//! Reading an instance from any of the formats `--instance` takes: the toolkit's instance file
//! (docs/formats.md), the literature's Excluded Diagonals parameter file ([`super::edp`]) and
//! its Essence' parameter file of n-Queens Completion ([`super::essence`]). The format is told
//! from the first line that is not blank or a comment; what was read is recorded in the
//! instance (parameters and generator line), so that the instance file printed from it
//! ([`InstanceSpec::to_text`]) reads back to the same instance.

use super::edp::EdpFile;
use super::essence::EssenceCompletion;
use super::{InstanceSpec, ParseError, FORMAT_VERSION};
use crate::input::shorten as quote;

/// The formats an instance is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceFormat {
    /// The toolkit's instance file: `queens-sat instance 1` ... `end`.
    Instance,
    /// An Excluded Diagonals parameter file (`n = `, `numdiags = `, `diags = [...]`).
    ExcludedDiagonals,
    /// An Essence' parameter file of n-Queens Completion (`letting n = `, `letting init = `).
    Essence,
}

impl SourceFormat {
    /// The format's name, for messages and records.
    pub fn name(self) -> &'static str {
        match self {
            SourceFormat::Instance => "queens-sat instance file",
            SourceFormat::ExcludedDiagonals => "Excluded Diagonals parameter file",
            SourceFormat::Essence => "Essence' parameter file of n-Queens Completion",
        }
    }

    /// The format's name after "a" or "an".
    fn with_article(self) -> String {
        match self {
            SourceFormat::Essence => format!("an {}", self.name()),
            _ => format!("a {}", self.name()),
        }
    }

    /// The format of `text`, from its first line that is not blank or a comment (`#`, or `$`
    /// for Essence'): `queens-sat instance ...`, `n = ...` / `numdiags = ...` / `diags = ...`,
    /// or `letting ...` / `language ...`. A file of blanks and `#` comments counts as an
    /// instance file (whose reader then says it is empty).
    pub fn detect(text: &str) -> Result<SourceFormat, ParseError> {
        let mut dollar_comments = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with('$') {
                dollar_comments = true;
                continue;
            }
            let first_word = line
                .split(|c: char| c.is_whitespace() || c == '=')
                .next()
                .unwrap_or("");
            return match first_word {
                "queens-sat" => Ok(SourceFormat::Instance),
                "letting" | "language" => Ok(SourceFormat::Essence),
                "n" | "numdiags" | "diags" if line.contains('=') => {
                    Ok(SourceFormat::ExcludedDiagonals)
                }
                _ => Err(ParseError {
                    line: i + 1,
                    message: format!(
                        "not an instance file: expected 'queens-sat instance {FORMAT_VERSION}', an Excluded Diagonals parameter file ('n = N', 'numdiags = K', 'diags = [[k, t], ...]') or an Essence' parameter file ('letting n = N', 'letting init = [[r, c], ...]'), found '{}'",
                        quote(line)
                    ),
                }),
            };
        }
        Ok(if dollar_comments {
            SourceFormat::Essence
        } else {
            SourceFormat::Instance
        })
    }
}

/// The 1-based number of the first line that is not blank or a comment, for errors about the
/// file as a whole.
fn first_line(text: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim();
            !(l.is_empty() || l.starts_with('#') || l.starts_with('$'))
        })
        .map_or(1, |i| i + 1)
}

/// `name` fit for the one-line generator record: control characters replaced, at most 120
/// characters.
fn clean_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    quote(cleaned.trim())
}

/// Reads an instance in any of the three formats ([`SourceFormat::detect`]). `name` is the
/// file's name, recorded in the generator line of a parameter file's instance. `diagonals`
/// takes the first D diagonals of an Excluded Diagonals parameter file (the paper's
/// instances; all of them when `None`), and is refused for the other formats and for a D
/// larger than the file's list. An Excluded Diagonals file gives family `excluded-diagonals`
/// with parameters `d=D numdiags=K`; an Essence' file family `completion` with parameter `k`.
pub fn read_instance_text(
    text: &str,
    name: &str,
    diagonals: Option<usize>,
) -> Result<InstanceSpec, ParseError> {
    let format = SourceFormat::detect(text)?;
    if format != SourceFormat::ExcludedDiagonals {
        if let Some(d) = diagonals {
            return Err(ParseError {
                line: first_line(text),
                message: format!(
                    "the first {d} diagonals can be taken only from an Excluded Diagonals parameter file, and this is {}",
                    format.with_article()
                ),
            });
        }
    }
    let version = env!("CARGO_PKG_VERSION");
    let name = clean_name(name);
    match format {
        SourceFormat::Instance => InstanceSpec::parse(text),
        SourceFormat::ExcludedDiagonals => {
            let (file, lines) = EdpFile::parse_with_lines(text)?;
            let k = file.diagonals.len();
            let mut spec = file.spec(diagonals).ok_or_else(|| ParseError {
                line: lines.numdiags,
                message: format!(
                    "the first {} diagonals cannot be taken: the file lists numdiags = {k}",
                    diagonals.unwrap_or_default()
                ),
            })?;
            spec.generator = Some(format!(
                "{name}, an Excluded Diagonals parameter file ({} of CSPLib prob079), read by queens-sat {version}",
                super::jair::DIAGONALS_SCRIPT
            ));
            Ok(spec)
        }
        SourceFormat::Essence => {
            let mut spec = EssenceCompletion::parse(text)?.spec();
            spec.generator = Some(format!(
                "{name}, an Essence' parameter file of n-Queens Completion (CSPLib prob079), read by queens-sat {version}"
            ));
            Ok(spec)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Diagonal;

    const EDP: &str = "n =  10\nnumdiags =  3\ndiags =  [[4, 1], [2, 1], [14, 0]]\n";

    #[test]
    fn formats_are_told_apart() {
        let f = |t: &str| SourceFormat::detect(t).unwrap();
        assert_eq!(f("# c\nqueens-sat instance 1\n"), SourceFormat::Instance);
        assert_eq!(f(""), SourceFormat::Instance);
        assert_eq!(f(EDP), SourceFormat::ExcludedDiagonals);
        assert_eq!(f("\nnumdiags=0\n"), SourceFormat::ExcludedDiagonals);
        assert_eq!(f("language ESSENCE' 1.0\n"), SourceFormat::Essence);
        assert_eq!(f("$ comment\nletting n = 3\n"), SourceFormat::Essence);
        assert_eq!(f("$ only a comment\n"), SourceFormat::Essence);
        let e = SourceFormat::detect("\np cnf 3 2\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("line 2: not an instance file: expected 'queens-sat instance 1', an Excluded Diagonals parameter file"),
            "{e}"
        );
    }

    #[test]
    fn every_format_reads_and_round_trips() {
        let spec = read_instance_text(EDP, "diag-10-4-1.param", Some(2)).unwrap();
        assert_eq!(spec.excluded, [Diagonal::Sum(4), Diagonal::Sum(2)]);
        assert_eq!(spec.parameters_text(), "d=2 numdiags=3");
        assert!(spec
            .generator
            .as_deref()
            .unwrap()
            .starts_with("diag-10-4-1.param, an Excluded Diagonals parameter file"));
        assert_eq!(InstanceSpec::parse(&spec.to_text()).unwrap(), spec);
        let all = read_instance_text(EDP, "x", None).unwrap();
        assert_eq!(all.excluded.len(), 3);
        let essence = "letting n =  8\nletting init =  [[2, 1], [7, 0]]\n";
        let spec = read_instance_text(essence, "a\nb.param", None).unwrap();
        assert_eq!(spec.placed, [(2, 1), (7, 0)]);
        assert!(spec
            .generator
            .as_deref()
            .unwrap()
            .starts_with("a?b.param, "));
        assert_eq!(InstanceSpec::parse(&spec.to_text()).unwrap(), spec);
        let ours = spec.to_text();
        assert_eq!(read_instance_text(&ours, "y", None).unwrap(), spec);
    }

    #[test]
    fn prefixes_are_refused_where_they_do_not_apply() {
        let e = |t: &str, d| read_instance_text(t, "f", d).unwrap_err().to_string();
        assert_eq!(
            e(EDP, Some(4)),
            "line 2: the first 4 diagonals cannot be taken: the file lists numdiags = 3"
        );
        assert_eq!(
            e("# x\nqueens-sat instance 1\nn 4\nboard square\nfamily custom\nend\n", Some(1)),
            "line 2: the first 1 diagonals can be taken only from an Excluded Diagonals parameter file, and this is a queens-sat instance file"
        );
        assert!(e("letting n = 4\nletting init = []\n", Some(0))
            .contains("and this is an Essence' parameter file"));
    }
}
