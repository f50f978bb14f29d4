//! A family sweep as people write it (a family, its parameters `NAME=VALUES` and its seeds, as
//! `compare --family F --param NAME=VALUES --seeds S` takes them): the values of a parameter as
//! a list or a range with a step, the seeds as ranges and single seeds ([`family_sweep`]).

use super::{FamilySweep, MAX_POINTS};
use crate::family::Family;

/// The families a sweep can draw, for messages.
const DRAWN: &str = "completion, blocked, excluded-diagonals or toroidal";

/// Why a family sweep's family, parameters or seeds cannot be read. The messages name the
/// parameter, not an option; [`ParamError::subject`] says which part of the sweep is at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// The family of instance files, which are written, not drawn.
    #[error("custom instances are written, not drawn (choose {DRAWN})")]
    Custom,
    /// No family of that name.
    #[error("unknown family '{0}' (choose {DRAWN})")]
    UnknownFamily(String),
    /// One parameter cannot be read: the parameter (or its text) and why.
    #[error("parameter {0}: {1}")]
    Value(String, String),
    /// The parameters do not fit together.
    #[error("{0}")]
    Params(String),
    /// The seeds cannot be read.
    #[error("seeds: {0}")]
    Seeds(String),
}

/// The part of a family sweep that a [`ParamError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// The family's name.
    Family,
    /// The parameters.
    Params,
    /// The seeds.
    Seeds,
}

impl ParamError {
    /// The part of the sweep at fault.
    pub fn subject(&self) -> Subject {
        match self {
            ParamError::Custom | ParamError::UnknownFamily(_) => Subject::Family,
            ParamError::Value(..) | ParamError::Params(_) => Subject::Params,
            ParamError::Seeds(_) => Subject::Seeds,
        }
    }
}

/// The number of decimals written in a number (`0.05` -> 2, `3` -> 0).
fn decimals(s: &str) -> usize {
    s.split_once('.').map_or(0, |(_, f)| {
        f.chars().take_while(char::is_ascii_digit).count()
    })
}

/// The values of a parameter `NAME=VALUES`: a comma list, or a range `a..b[:step]` (ends included,
/// step 1 when left out), written with as many decimals as its start or step.
pub fn parse_values(name: &str, text: &str) -> Result<Vec<String>, ParamError> {
    let bad = |why: String| ParamError::Value(name.to_string(), why);
    let text = text.trim();
    if let Some((start, rest)) = text.split_once("..") {
        let (end, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let (start, end, step) = (start.trim(), end.trim(), step.trim());
        let number = |what: &str, v: &str| match v.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(bad(format!("the range's {what} '{v}' is not a number"))),
        };
        let (a, b, d) = (
            number("start", start)?,
            number("end", end)?,
            number("step", step)?,
        );
        if d <= 0.0 {
            return Err(bad(format!("the step {step} must be greater than 0")));
        }
        if b < a {
            return Err(bad(format!(
                "the range {text} is empty (its end is below its start)"
            )));
        }
        let count = ((b - a) / d + 1e-9).floor() + 1.0;
        if count > MAX_POINTS as f64 {
            return Err(bad(format!(
                "the range {text} has {count} values, more than the {MAX_POINTS} a sweep may draw"
            )));
        }
        let places = decimals(start).max(decimals(step));
        return Ok((0..count as usize)
            .map(|i| format!("{:.places$}", a + i as f64 * d))
            .collect());
    }
    let mut values: Vec<String> = Vec::new();
    for v in text.split(',').map(str::trim) {
        if v.is_empty() {
            return Err(bad(format!("an empty value in '{text}'")));
        }
        if values.iter().any(|w| w == v) {
            return Err(bad(format!("the value {v} is given twice")));
        }
        values.push(v.to_string());
    }
    Ok(values)
}

/// Seeds: ranges `a..b` (ends included) and single seeds, comma-separated; sorted, each once.
pub fn parse_seeds(text: &str) -> Result<Vec<u64>, ParamError> {
    let mut seeds = Vec::new();
    for part in text.split(',').map(str::trim) {
        let seed = |v: &str| -> Result<u64, ParamError> {
            v.trim().parse().map_err(|_| {
                ParamError::Seeds(format!(
                    "'{v}' is not a seed (a whole number from 0 to {})",
                    u64::MAX
                ))
            })
        };
        let (a, b) = crate::input::range_ends(part, seed)?;
        if b < a {
            return Err(ParamError::Seeds(format!(
                "the range {part} is empty (its end is below its start)"
            )));
        }
        if (b - a) as u128 + 1 + seeds.len() as u128 > MAX_POINTS {
            return Err(ParamError::Seeds(format!(
                "more than the {MAX_POINTS} seeds a sweep may draw"
            )));
        }
        seeds.extend(a..=b);
    }
    seeds.sort_unstable();
    seeds.dedup();
    Ok(seeds)
}

/// The family sweep of a family name, its `NAME=VALUES` parameters and its seeds (`1..10`
/// when `None`). At most one parameter takes several values, the swept one; with every
/// parameter fixed, the first one given names the sweep's single value.
pub fn family_sweep(
    name: &str,
    params: &[String],
    seeds: Option<&str>,
) -> Result<FamilySweep, ParamError> {
    let family = match name.parse::<Family>() {
        Ok(Family::Custom) => return Err(ParamError::Custom),
        Ok(f) => f,
        Err(_) => return Err(ParamError::UnknownFamily(name.to_string())),
    };
    let mut swept: Option<(String, Vec<String>)> = None;
    let mut single: Vec<(String, String)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for p in params {
        let bad = |why: &str| ParamError::Value(p.clone(), why.to_string());
        let Some((name, values)) = p.split_once('=') else {
            return Err(bad("expected NAME=VALUES, e.g. p=0.6..0.9:0.05"));
        };
        let name = name.trim().to_string();
        if name.is_empty() {
            return Err(bad("the parameter has no name"));
        }
        if names.contains(&name) {
            return Err(ParamError::Params(format!(
                "the parameter {name} is given twice"
            )));
        }
        names.push(name.clone());
        let values = parse_values(&name, values)?;
        if values.len() == 1 {
            single.push((name, values[0].clone()));
        } else if let Some((other, _)) = &swept {
            return Err(ParamError::Params(format!(
                "only one parameter may take several values, and {other} and {name} both do"
            )));
        } else {
            swept = Some((name, values));
        }
    }
    let (parameter, values) = match swept {
        Some(s) => s,
        None if !single.is_empty() => {
            let (k, v) = single.remove(0);
            (k, vec![v])
        }
        None => (String::new(), vec![String::new()]),
    };
    let seeds = parse_seeds(seeds.unwrap_or("1..10"))?;
    Ok(FamilySweep {
        family,
        parameter,
        values,
        fixed: single,
        seeds,
    })
}
