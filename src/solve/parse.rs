//! Reading what an external SAT solver answered.
//!
//! Two formats are recognised:
//!
//! * SAT-competition output (CaDiCaL, Kissat, Glucose, varisat, ...): `c` comment lines, one
//!   status line `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, and for SAT the model in
//!   `v` lines (signed DIMACS literals) ending with the literal `0`.
//! * A MiniSat result file (`minisat in.cnf out.txt`): a first line `SAT`, `UNSAT` or `INDET`,
//!   and for SAT one line of signed literals ending with `0`.
//!
//! Malformed answers are rejected with the line number and what is wrong: a token that is not
//! a literal, a model without its final `0` (a truncated output), literals after the `0`, a
//! variable given both values, a model under an UNSAT status, a SAT status without a model.

use crate::cnf::{Lit, Var};

/// Values of variables by 0-based variable index; a variable not given has no value.
///
/// Kept sparse, so memory grows with the number of literals given, not with the highest
/// variable named (one literal `-78708111` costs one entry).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    values: std::collections::BTreeMap<usize, bool>,
}

impl Assignment {
    /// An assignment making every literal of `lits` true (later literals win on conflicts).
    pub fn from_lits(lits: &[Lit]) -> Self {
        let mut a = Assignment::default();
        for &l in lits {
            a.set(l.var(), l.is_positive());
        }
        a
    }

    /// Sets the value of `var`.
    pub fn set(&mut self, var: Var, value: bool) {
        self.values.insert(var.index(), value);
    }

    /// The value of `var`, if given.
    pub fn value(&self, var: Var) -> Option<bool> {
        self.values.get(&var.index()).copied()
    }

    /// One past the highest variable index with a value (the highest DIMACS variable named).
    pub fn max_var(&self) -> usize {
        self.values.keys().next_back().map_or(0, |i| i + 1)
    }

    /// The variables (0-based indexes below `num_vars`) without a value.
    pub fn missing(&self, num_vars: usize) -> Vec<Var> {
        (0..num_vars)
            .filter(|i| !self.values.contains_key(i))
            .map(Var::from_index)
            .collect()
    }

    /// The values of the first `num_vars` variables, missing ones false.
    pub fn to_bools(&self, num_vars: usize) -> Vec<bool> {
        let mut v = vec![false; num_vars];
        for (&i, &b) in self.values.range(..num_vars) {
            v[i] = b;
        }
        v
    }

    /// The literals true under the assignment, in variable order.
    pub fn lits(&self) -> Vec<Lit> {
        self.values
            .iter()
            .map(|(&i, &b)| Lit::from_index(i, b))
            .collect()
    }
}

#[cfg(test)]
mod pb_tests {
    use super::*;

    #[test]
    fn pb_answers_read() {
        let sat = parse_pb_answer("c hello\ns SATISFIABLE\nv x1 -x2\nv x3\n").unwrap();
        let SolverAnswer::Sat(a) = sat else {
            panic!("{sat:?}")
        };
        assert_eq!(a.to_bools(3), [true, false, true]);
        assert_eq!(
            parse_pb_answer("s UNSATISFIABLE\n").unwrap(),
            SolverAnswer::Unsat
        );
        assert!(parse_pb_answer("s SATISFIABLE\nv 1 -2 0\n").is_err());
        assert!(parse_pb_answer("s SATISFIABLE\nv x1 -x1\n").is_err());
        assert!(parse_pb_answer("s SATISFIABLE\n").is_err());
        assert!(parse_pb_answer("v x1\n").is_err());
    }
}

#[cfg(test)]
mod sparse_tests {
    use super::*;

    #[test]
    fn a_huge_variable_costs_one_entry() {
        let (answer, _) = parse_solver_answer("SAT\n-1111 78708111 7\n-0").unwrap_or_else(|e| {
            panic!("{e}");
        });
        let SolverAnswer::Sat(a) = answer else {
            panic!("not SAT")
        };
        assert_eq!(a.max_var(), 78708111);
        assert_eq!(a.lits().len(), 3);
        assert_eq!(a.value(Var::from_index(78708110)), Some(true));
        assert!(a.to_bools(8)[6]);
    }
}

/// What a solver said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// Satisfiable, with the model given.
    Sat(Assignment),
    /// Unsatisfiable.
    Unsat,
    /// No answer (`s UNKNOWN`, MiniSat's `INDET`): a time-out or an interrupted run.
    Unknown,
}

/// The format an answer was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerFormat {
    /// `s`/`v` lines.
    Competition,
    /// MiniSat's result file.
    MiniSat,
}

impl std::fmt::Display for AnswerFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AnswerFormat::Competition => "SAT-competition output",
            AnswerFormat::MiniSat => "MiniSat result file",
        })
    }
}

/// Why an answer could not be read. Line numbers are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseAnswerError {
    /// Neither an `s` line nor a MiniSat status line.
    #[error("no solver answer found: expected an 's SATISFIABLE' / 's UNSATISFIABLE' line (SAT-competition output) or a first line SAT / UNSAT (MiniSat result file)")]
    NoStatus,
    /// An `s` line with an unknown status.
    #[error(
        "line {line}: unknown status '{status}' (expected SATISFIABLE, UNSATISFIABLE or UNKNOWN)"
    )]
    BadStatus {
        /// Line number.
        line: usize,
        /// The status as written.
        status: String,
    },
    /// Two status lines.
    #[error("line {line}: a second status line (the first is on line {first})")]
    TwoStatus {
        /// Line number of the second.
        line: usize,
        /// Line number of the first.
        first: usize,
    },
    /// A line that is none of `c`, `s`, `v` in competition output.
    #[error(
        "line {line}: unexpected line '{text}' (SAT-competition output has only c, s and v lines)"
    )]
    UnexpectedLine {
        /// Line number.
        line: usize,
        /// The line, shortened.
        text: String,
    },
    /// A token in a model that is not a signed integer.
    #[error("line {line}: '{token}' is not a literal")]
    NotALiteral {
        /// Line number.
        line: usize,
        /// The token.
        token: String,
    },
    /// The model does not end with `0`.
    #[error("the model does not end with 0 (last model line: {line}): the output is truncated or incomplete")]
    MissingTerminator {
        /// The last line of the model.
        line: usize,
    },
    /// Something after the terminating `0`.
    #[error("line {line}: literal {lit} after the model's terminating 0")]
    AfterTerminator {
        /// Line number.
        line: usize,
        /// The literal.
        lit: String,
    },
    /// A variable given both values.
    #[error("line {line}: variable {var} is given both values")]
    Contradiction {
        /// Line number.
        line: usize,
        /// DIMACS variable number.
        var: usize,
    },
    /// A literal too large to be a variable.
    #[error("line {line}: literal {lit} is out of range")]
    OutOfRange {
        /// Line number.
        line: usize,
        /// The literal.
        lit: String,
    },
    /// A model although the status is not SATISFIABLE.
    #[error("line {line}: a model, but the status is {status}")]
    ModelWithoutSat {
        /// Line of the first model literal.
        line: usize,
        /// The status given.
        status: &'static str,
    },
    /// SATISFIABLE without a model.
    #[error("the status is SATISFIABLE but no model (v lines) follows")]
    SatWithoutModel,
}

/// Reads a solver's answer: SAT-competition `s`/`v` output, or a MiniSat result file.
///
/// ```
/// use queens_sat::solve::{parse_solver_answer, AnswerFormat, SolverAnswer};
/// let (a, f) = parse_solver_answer("c hi\ns SATISFIABLE\nv 1 -2\nv 0\n").unwrap();
/// assert_eq!(f, AnswerFormat::Competition);
/// let SolverAnswer::Sat(model) = a else { panic!() };
/// assert_eq!(model.max_var(), 2);
/// assert!(parse_solver_answer("s SATISFIABLE\nv 1 -2\n").is_err()); // no final 0
/// assert_eq!(parse_solver_answer("UNSAT\n").unwrap().0, SolverAnswer::Unsat);
/// ```
pub fn parse_solver_answer(text: &str) -> Result<(SolverAnswer, AnswerFormat), ParseAnswerError> {
    let first = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('c'));
    match first {
        Some((_, l)) if matches!(l.trim(), "SAT" | "UNSAT" | "INDET") => {
            parse_minisat(text).map(|a| (a, AnswerFormat::MiniSat))
        }
        _ => parse_competition(text).map(|a| (a, AnswerFormat::Competition)),
    }
}

/// The largest variable number a model may name: DIMACS literals are 32-bit signed and
/// varisat numbers fewer still.
fn max_dimacs_var() -> u64 {
    (i32::MAX as u64).min(Var::max_count() as u64)
}

/// Collects signed literals into an assignment until the terminating `0`.
#[derive(Default)]
struct ModelReader {
    assignment: Assignment,
    terminated: bool,
    first_line: Option<usize>,
    last_line: usize,
}

impl ModelReader {
    fn read_tokens<'a>(
        &mut self,
        line: usize,
        tokens: impl Iterator<Item = &'a str>,
    ) -> Result<(), ParseAnswerError> {
        self.first_line.get_or_insert(line);
        self.last_line = line;
        for tok in tokens {
            let v: i64 = tok.parse().map_err(|_| ParseAnswerError::NotALiteral {
                line,
                token: tok.to_string(),
            })?;
            if self.terminated {
                return Err(ParseAnswerError::AfterTerminator {
                    line,
                    lit: tok.to_string(),
                });
            }
            if v == 0 {
                self.terminated = true;
                continue;
            }
            let var = v.unsigned_abs();
            if var > max_dimacs_var() {
                return Err(ParseAnswerError::OutOfRange {
                    line,
                    lit: tok.to_string(),
                });
            }
            let var_ = Var::from_dimacs(var as isize);
            let value = v > 0;
            if self.assignment.value(var_) == Some(!value) {
                return Err(ParseAnswerError::Contradiction {
                    line,
                    var: var as usize,
                });
            }
            self.assignment.set(var_, value);
        }
        Ok(())
    }

    fn finish(self) -> Result<Option<Assignment>, ParseAnswerError> {
        match self.first_line {
            None => Ok(None),
            Some(_) if !self.terminated => Err(ParseAnswerError::MissingTerminator {
                line: self.last_line,
            }),
            Some(_) => Ok(Some(self.assignment)),
        }
    }
}

fn parse_competition(text: &str) -> Result<SolverAnswer, ParseAnswerError> {
    read_status_and_model(text, |line, tokens, model| model.read_tokens(line, tokens))
}

/// Reads the answer of a pseudo-Boolean solver in the output format of the Pseudo-Boolean
/// Competition (minisat+, sat4j's PB solver, Exact): comment lines `c ...`, one status line
/// `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN`, and for SAT the model in `v` lines of
/// literals `x5` / `-x5` (OPB variable 5 is DIMACS variable 5), without a terminating `0`.
/// The model is read as a SAT model would be: a variable named twice with two values, or a
/// token that is not a literal, is an error.
pub fn parse_pb_answer(text: &str) -> Result<SolverAnswer, ParseAnswerError> {
    let (status, mut model) = read_model_lines(text, |line, tokens, model| {
        let mut lits = Vec::new();
        for tok in tokens {
            let (sign, rest) = match tok.strip_prefix('-') {
                Some(r) => ("-", r),
                None => ("", tok),
            };
            match rest.strip_prefix('x') {
                Some(v)
                    if !v.is_empty()
                        && v.bytes().all(|b| b.is_ascii_digit())
                        && !v.starts_with('0') =>
                {
                    lits.push(format!("{sign}{v}"))
                }
                _ => {
                    return Err(ParseAnswerError::NotALiteral {
                        line,
                        token: tok.to_string(),
                    })
                }
            }
        }
        model.read_tokens(line, lits.iter().map(String::as_str))
    })?;
    // PB models carry no terminating 0: the last model line ends the model.
    if model.first_line.is_some() {
        let last = model.last_line;
        model.read_tokens(last, std::iter::once("0"))?;
    }
    conclude(status, model)
}

type StatusLine = Option<(usize, &'static str)>;

/// Reads the lines of the competitions' output format (comments `c ...`, one status line
/// `s ...`, model lines `v ...` read by `v_line`) and concludes the answer.
fn read_status_and_model(
    text: &str,
    v_line: impl FnMut(
        usize,
        std::str::SplitWhitespace<'_>,
        &mut ModelReader,
    ) -> Result<(), ParseAnswerError>,
) -> Result<SolverAnswer, ParseAnswerError> {
    let (status, model) = read_model_lines(text, v_line)?;
    conclude(status, model)
}

/// The status line and the model of the competitions' output format, not yet concluded.
fn read_model_lines(
    text: &str,
    mut v_line: impl FnMut(
        usize,
        std::str::SplitWhitespace<'_>,
        &mut ModelReader,
    ) -> Result<(), ParseAnswerError>,
) -> Result<(StatusLine, ModelReader), ParseAnswerError> {
    let mut status: StatusLine = None;
    let mut model = ModelReader::default();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l == "c" || l.starts_with("c ") || l.starts_with("c\t") {
            continue;
        }
        let mut tokens = l.split_whitespace();
        match tokens.next() {
            Some("s") => {
                let st = tokens.collect::<Vec<&str>>().join(" ");
                let s = match st.as_str() {
                    "SATISFIABLE" => "SATISFIABLE",
                    "UNSATISFIABLE" => "UNSATISFIABLE",
                    "UNKNOWN" => "UNKNOWN",
                    _ => return Err(ParseAnswerError::BadStatus { line, status: st }),
                };
                if let Some((first, _)) = status {
                    return Err(ParseAnswerError::TwoStatus { line, first });
                }
                status = Some((line, s));
            }
            Some("v") => v_line(line, tokens, &mut model)?,
            _ => {
                let text: String = l.chars().take(40).collect();
                return Err(ParseAnswerError::UnexpectedLine { line, text });
            }
        }
    }
    Ok((status, model))
}

/// The answer from the status line read (line, `SATISFIABLE` / `UNSATISFIABLE` / `UNKNOWN`) and
/// the model lines, whichever format they came in.
fn conclude(
    status: Option<(usize, &'static str)>,
    model: ModelReader,
) -> Result<SolverAnswer, ParseAnswerError> {
    let first_model_line = model.first_line;
    let assignment = model.finish()?;
    match (status, assignment) {
        (None, _) => Err(ParseAnswerError::NoStatus),
        (Some((_, "SATISFIABLE")), Some(a)) => Ok(SolverAnswer::Sat(a)),
        (Some((_, "SATISFIABLE")), None) => Err(ParseAnswerError::SatWithoutModel),
        (Some((_, s)), Some(_)) => Err(ParseAnswerError::ModelWithoutSat {
            line: first_model_line.unwrap_or(0),
            status: s,
        }),
        (Some((_, "UNSATISFIABLE")), None) => Ok(SolverAnswer::Unsat),
        (Some(_), None) => Ok(SolverAnswer::Unknown),
    }
}

fn parse_minisat(text: &str) -> Result<SolverAnswer, ParseAnswerError> {
    let mut status: Option<(usize, &'static str)> = None;
    let mut model = ModelReader::default();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || (status.is_none() && l.starts_with('c')) {
            continue;
        }
        match (status, l) {
            (None, "SAT") => status = Some((line, "SATISFIABLE")),
            (None, "UNSAT") => status = Some((line, "UNSATISFIABLE")),
            (None, "INDET") => status = Some((line, "UNKNOWN")),
            (Some((first, _)), "SAT" | "UNSAT" | "INDET") => {
                return Err(ParseAnswerError::TwoStatus { line, first })
            }
            (None, _) => return Err(ParseAnswerError::NoStatus),
            (Some(_), _) => model.read_tokens(line, l.split_whitespace())?,
        }
    }
    conclude(status, model)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer read from a solver's output `text`.
    fn answer(text: &str) -> SolverAnswer {
        parse_solver_answer(text).unwrap().0
    }

    fn sat(text: &str) -> Assignment {
        match answer(text) {
            SolverAnswer::Sat(a) => a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn competition_output() {
        let a = sat("c comment\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n");
        assert_eq!(a.value(Var::from_dimacs(1)), Some(true));
        assert_eq!(a.value(Var::from_dimacs(2)), Some(false));
        assert_eq!(a.value(Var::from_dimacs(4)), Some(false));
        assert_eq!(a.max_var(), 4);
        assert!(a.missing(4).is_empty());
        assert_eq!(a.missing(6).len(), 2);
        assert_eq!(answer("s UNSATISFIABLE\n"), SolverAnswer::Unsat);
        assert_eq!(answer("s UNKNOWN\n"), SolverAnswer::Unknown);
    }

    #[test]
    fn minisat_output() {
        let (a, f) = parse_solver_answer("SAT\n-1 2 -3 0\n").unwrap();
        assert_eq!(f, AnswerFormat::MiniSat);
        assert!(matches!(a, SolverAnswer::Sat(_)));
        assert_eq!(answer("UNSAT\n"), SolverAnswer::Unsat);
        assert_eq!(answer("INDET\n"), SolverAnswer::Unknown);
    }

    #[test]
    fn malformed_outputs() {
        use ParseAnswerError::*;
        let err = |t: &str| parse_solver_answer(t).unwrap_err();
        assert_eq!(err(""), NoStatus);
        assert_eq!(err("v 1 0\n"), NoStatus);
        assert!(matches!(
            err("s SATISFIABLE\nv 1 -2\n"),
            MissingTerminator { line: 2 }
        ));
        assert!(matches!(
            err("s SATISFIABLE\nv 1 -\n"),
            NotALiteral { line: 2, .. }
        ));
        assert!(matches!(
            err("s SATISFIABLE\nv 1 0 2\n"),
            AfterTerminator { .. }
        ));
        assert!(matches!(
            err("s SATISFIABLE\nv 1 -1 0\n"),
            Contradiction { var: 1, .. }
        ));
        assert!(matches!(
            err("s UNSATISFIABLE\nv 1 0\n"),
            ModelWithoutSat { .. }
        ));
        assert_eq!(err("s SATISFIABLE\n"), SatWithoutModel);
        assert!(matches!(err("s SAT\n"), BadStatus { .. }));
        assert!(matches!(
            err("s SATISFIABLE\ns SATISFIABLE\nv 0\n"),
            TwoStatus { .. }
        ));
        assert!(matches!(
            err("s SATISFIABLE\nhello\n"),
            UnexpectedLine { line: 2, .. }
        ));
        assert!(matches!(err("SAT\n1 2\n"), MissingTerminator { .. }));
        assert!(matches!(err("SAT\n"), SatWithoutModel));
        assert!(matches!(
            err("s SATISFIABLE\nv 99999999999 0\n"),
            OutOfRange { .. }
        ));
    }
}
