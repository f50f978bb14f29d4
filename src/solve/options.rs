//! Solver options by name (`--solver-option NAME=VALUE`): parsed here, checked by each
//! backend against the options its solver has ([`super::Backend::check_options`]).

use std::fmt;
use std::str::FromStr;

/// An option that cannot be set: unknown, out of its range, or set too late.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// The solver has no option of this name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The value is outside the option's range.
    #[error("option '{name}' takes values from {low} to {high}, not {value}")]
    OutOfRange {
        /// The option.
        name: String,
        /// The value given.
        value: i64,
        /// The least value.
        low: i64,
        /// The greatest value.
        high: i64,
    },
    /// Options are set before the first clause.
    #[error("option '{0}' must be set before any clause is added")]
    TooLate(String),
    /// The solver takes no options.
    #[error("{0} takes no options")]
    NoOptions(&'static str),
    /// Not of the form `NAME=VALUE` with an integer value.
    #[error("'{0}' is not NAME=VALUE with an integer VALUE (true and false mean 1 and 0)")]
    Syntax(String),
}

/// One option: a name and an integer value (`elim=0`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SolverOption {
    /// The option's name, without dashes.
    pub name: String,
    /// Its value.
    pub value: i64,
}

impl FromStr for SolverOption {
    type Err = OptionError;

    /// `NAME=VALUE`; VALUE an integer, `true` or `false`; leading dashes on NAME are dropped.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || OptionError::Syntax(s.to_string());
        let (name, value) = s.split_once('=').ok_or_else(bad)?;
        let name = name.trim().trim_start_matches('-');
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(bad());
        }
        let value = match value.trim() {
            "true" => 1,
            "false" => 0,
            v => v.parse::<i64>().map_err(|_| bad())?,
        };
        Ok(SolverOption {
            name: name.to_string(),
            value,
        })
    }
}

impl fmt::Display for SolverOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.value)
    }
}

/// The options as one field of a CSV row: `name=value` joined by spaces (empty for none).
pub fn options_field(options: &[SolverOption]) -> String {
    options
        .iter()
        .map(SolverOption::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_value() {
        let o: SolverOption = "elim=0".parse().unwrap();
        assert_eq!((o.name.as_str(), o.value), ("elim", 0));
        assert_eq!("--seed=-3".parse::<SolverOption>().unwrap().value, -3);
        assert_eq!("walk=true".parse::<SolverOption>().unwrap().value, 1);
        for bad in ["elim", "=1", "elim=x", "a b=1", "elim=1.5"] {
            assert!(bad.parse::<SolverOption>().is_err(), "{bad}");
        }
    }
}
