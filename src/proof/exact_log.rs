//! The proofs that the Exact PB solver logs (its option `proof-log`), made checkable by
//! VeriPB 3.0 against the OPB file Exact was given.
//!
//! Exact writes VeriPB's format 1.1: it loads each constraint of the formula it was given
//! with `l I` (the I-th constraint, an equality counting as two: its `>=` half, then its
//! `<=` half, as VeriPB numbers the constraints of an OPB file), derives with `rup` and `pol`
//! (reverse Polish: constraint ids, literals, `+`, `*` and `d` after a factor or divisor, `s`),
//! and ends with `c ID`, the contradiction. In that format every step, the first `rup >= 0`
//! and the loads included, takes the next id from 1. VeriPB 3.0 reads 2.0 and 3.0 only, where
//! the formula's M constraints are the ids 1 to M and a proof's steps follow. The translation
//! ([`exact_to_veripb`]) keeps every step at its place: a load becomes `pol I` (a copy of the
//! formula's constraint I, the formula id as it is), every other id J of the log becomes
//! J + M, and `c ID` becomes the conclusion `UNSAT` at ID + M. Nothing is trusted to the
//! translation: VeriPB checks every step against the formula, so a log that refers to other
//! constraints than those of the file, a wrong M, or a forged step is rejected, not accepted.

use std::io::{BufRead, Write};

/// Why a proof log of Exact cannot be translated.
#[derive(Debug, thiserror::Error)]
pub enum ExactLogError {
    /// Reading the log or writing the translation failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The first line is not the header of VeriPB's format 1.1.
    #[error("not a proof log of Exact: the first line is not 'pseudo-Boolean proof version 1.1'")]
    Header,
    /// A rule the translation does not know (Exact's refutations use `l`, `rup`, `pol`, `c`).
    #[error("line {line}: rule '{rule}' is not one of those Exact writes (l, rup, pol, c)")]
    Rule {
        /// The line, from 1.
        line: u64,
        /// The rule's word.
        rule: String,
    },
    /// A load or a conclusion without a constraint id (a positive number).
    #[error("line {line}: '{text}' does not name a constraint by its number")]
    Id {
        /// The line, from 1.
        line: u64,
        /// The line's text.
        text: String,
    },
    /// The log ends without the contradiction `c ID`: no refutation.
    #[error(
        "the proof log ends without a contradiction ('c ID'): Exact did not refute the formula"
    )]
    NoContradiction,
}

/// What a translation wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExactLogStats {
    /// The formula's constraints loaded.
    pub loads: u64,
    /// The `rup` steps.
    pub rup: u64,
    /// The `pol` steps (cutting planes).
    pub pol: u64,
}

/// Translates Exact's proof log `log` (VeriPB 1.1) into a VeriPB 3.0 proof on `out`, against
/// the OPB file Exact read, whose constraints VeriPB numbers 1 to `formula_ids` (an equality
/// counting twice: [`opb_constraint_ids`]). See the module's documentation.
pub fn exact_to_veripb<R: BufRead, W: Write>(
    log: R,
    mut out: W,
    formula_ids: u64,
) -> Result<ExactLogStats, ExactLogError> {
    let mut stats = ExactLogStats::default();
    let mut lines = log.lines();
    match lines.next().transpose()? {
        Some(h) if h.trim() == "pseudo-Boolean proof version 1.1" => {}
        _ => return Err(ExactLogError::Header),
    }
    writeln!(out, "pseudo-Boolean proof version 3.0")?;
    let shifted = |t: &str, line: u64| -> Result<u64, ExactLogError> {
        t.parse::<u64>()
            .ok()
            .filter(|&i| i > 0)
            .ok_or_else(|| ExactLogError::Id {
                line,
                text: t.to_string(),
            })
    };
    for (i, text) in lines.enumerate() {
        let text = text?;
        let line = i as u64 + 2;
        let mut words = text.split_whitespace();
        let Some(rule) = words.next() else { continue };
        match rule {
            "*" => {}
            "l" => {
                let id = words.next().unwrap_or("");
                let id = shifted(id, line)?;
                if id > formula_ids || words.next().is_some() {
                    return Err(ExactLogError::Id { line, text });
                }
                writeln!(out, "pol {id} ;")?;
                stats.loads += 1;
            }
            "rup" => {
                // A constraint over literals: nothing to renumber.
                writeln!(out, "{}", text.trim())?;
                stats.rup += 1;
            }
            "pol" => {
                let toks: Vec<&str> = words.filter(|&w| w != ";").collect();
                write!(out, "pol")?;
                for (k, t) in toks.iter().enumerate() {
                    let factor = matches!(toks.get(k + 1), Some(&"*") | Some(&"d"));
                    match t.parse::<u64>() {
                        Ok(0) if !factor => return Err(ExactLogError::Id { line, text }),
                        Ok(id) if !factor => write!(out, " {}", id + formula_ids)?,
                        _ => write!(out, " {t}")?,
                    }
                }
                writeln!(out, " ;")?;
                stats.pol += 1;
            }
            "c" => {
                let id = shifted(words.next().unwrap_or(""), line)?;
                writeln!(out, "output NONE ;")?;
                writeln!(out, "conclusion UNSAT : {} ;", id + formula_ids)?;
                writeln!(out, "end pseudo-Boolean proof ;")?;
                out.flush()?;
                return Ok(stats);
            }
            other => {
                return Err(ExactLogError::Rule {
                    line,
                    rule: other.to_string(),
                })
            }
        }
    }
    Err(ExactLogError::NoContradiction)
}

/// The number of constraints VeriPB reads from the OPB text `opb`: one per constraint, two
/// for an equality (comment lines, `*`, and the objective, `min:`, take none).
pub fn opb_constraint_ids<R: BufRead>(opb: R) -> std::io::Result<u64> {
    let mut ids = 0;
    for line in opb.lines() {
        let line = line?;
        let t = line.trim();
        if t.is_empty() || t.starts_with('*') || t.starts_with("min:") || t.starts_with("max:") {
            continue;
        }
        let equality = t.split_whitespace().any(|w| w == "=");
        ids += if equality { 2 } else { 1 };
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "pseudo-Boolean proof version 1.1\nrup >= 0 ;\nl 1\nl 3\nl 2\n\
        pol 2 3 2 * + 4 + s\nrup +1 ~x1 >= 1 ;\npol 6 2 d 7 +\nc 8\n";

    #[test]
    fn loads_keep_their_place_and_ids_move_past_the_formula() {
        let mut out = Vec::new();
        let stats = exact_to_veripb(LOG.as_bytes(), &mut out, 10).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out,
            "pseudo-Boolean proof version 3.0\nrup >= 0 ;\npol 1 ;\npol 3 ;\npol 2 ;\n\
             pol 12 13 2 * + 14 + s ;\nrup +1 ~x1 >= 1 ;\npol 16 2 d 17 + ;\noutput NONE ;\n\
             conclusion UNSAT : 18 ;\nend pseudo-Boolean proof ;\n"
        );
        assert_eq!(
            stats,
            ExactLogStats {
                loads: 3,
                rup: 2,
                pol: 2
            }
        );
    }

    #[test]
    fn what_is_not_a_refutation_by_exact_is_refused() {
        let t = |log: &str, m| exact_to_veripb(log.as_bytes(), Vec::new(), m);
        let h = "pseudo-Boolean proof version 1.1\n";
        assert!(matches!(t("", 3), Err(ExactLogError::Header)));
        assert!(matches!(
            t("pseudo-Boolean proof version 2.0\nc 1\n", 3),
            Err(ExactLogError::Header)
        ));
        assert!(matches!(
            t(&format!("{h}rup >= 0 ;\n"), 3),
            Err(ExactLogError::NoContradiction)
        ));
        assert!(matches!(
            t(&format!("{h}red 1 x1 >= 1 ;\n"), 3),
            Err(ExactLogError::Rule { line: 2, .. })
        ));
        for bad in [
            "l 4",
            "l 0",
            "l x",
            "l",
            "c",
            "c -1",
            "pol 0 1 +",
            "pol 1 0 +",
        ] {
            assert!(
                matches!(
                    t(&format!("{h}{bad}\n"), 3),
                    Err(ExactLogError::Id { line: 2, .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn equalities_count_twice() {
        let opb = "* #variable= 3 #constraint= 3\nmin: ;\n+1 x1 +1 x2 = 1 ;\n\
                   -1 x1 -1 x3 >= -1 ;\n\n+1 x3 = 0 ;\n";
        assert_eq!(opb_constraint_ids(opb.as_bytes()).unwrap(), 5);
    }
}
