//! The second checker: VeriPB, the pseudo-Boolean proof checker of the VeriPB project (the
//! `veripb` crate), written apart from this library, run on a proof translated to its
//! format.
//!
//! A clause is the pseudo-Boolean constraint "at least one of its literals": `1 2 -3` is
//! `1 x1 1 x2 1 ~x3 >= 1`. The formula is handed to VeriPB as a DIMACS file (its clauses in
//! the order of the check, so that VeriPB's constraint ids are the clause ids of
//! [`super::checker`] and of LRAT), and each step of the proof becomes a rule of VeriPB's
//! proof format (version 3.0):
//!
//! * a lemma that follows by unit propagation: `rup C >= 1 : hints;` with the clauses it
//!   follows from, which VeriPB propagates itself (a hint naming a deleted clause, or one that
//!   does not propagate, fails the step); without hints (a step the library's checker did not
//!   accept), VeriPB propagates over all its constraints;
//! * a RAT lemma on its first literal `p`: `red C >= 1 : p -> 1;` (redundance-based
//!   strengthening with the witness that makes `p` true: VeriPB derives every resolvent
//!   itself);
//! * a deletion: `del id K;` (deletions the DRAT checker ignores are not written);
//! * the end: `rup >= 1` (the empty clause), then `conclusion UNSAT` on it.
//!
//! VeriPB accepts the translation only if every rule checks and the conclusion holds, so its
//! "accepted" is an independent proof that the formula is unsatisfiable: the library's
//! checker only chose the rules and their hints, which VeriPB checks against its own database.
//! Deletions are checked as VeriPB's unchecked deletion (sound for a refutation).

use super::ProofPos;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

/// The version of the `veripb` crate built in.
pub const VERSION: &str = "3.0.2";

/// What a rule of the translation came from: the proof's step (1-based, deletions counted)
/// and where it starts.
type Origin = (u64, Option<ProofPos>);

/// A proof being translated to VeriPB's format, in a temporary folder with the formula.
pub struct Translation {
    dir: tempfile::TempDir,
    out: BufWriter<std::fs::File>,
    /// The origin of each rule, from the proof file's third line on.
    origins: Vec<Origin>,
    /// Constraint ids given so far.
    last_id: u64,
    line: String,
}

/// How VeriPB judged a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Every rule checked and the conclusion (unsatisfiable) holds.
    Accepted,
    /// A rule failed (or the translation could not be read).
    Rejected {
        /// The step of the original proof the failing rule came from (`None`: the final
        /// refutation, or no step).
        step: Option<u64>,
        /// Where that step starts.
        at: Option<ProofPos>,
        /// VeriPB's reason.
        reason: String,
    },
}

impl Translation {
    /// A translation against `clauses` (DIMACS literals) over `vars` variables: the formula
    /// written for VeriPB, the proof's header started.
    pub fn new<C: AsRef<[i32]>>(clauses: &[C], vars: usize) -> io::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("queens-sat-veripb")
            .tempdir()?;
        let vars = clauses
            .iter()
            .flat_map(|c| c.as_ref().iter())
            .map(|l| l.unsigned_abs() as usize)
            .max()
            .unwrap_or(0)
            .max(vars);
        {
            let mut f = BufWriter::new(std::fs::File::create(dir.path().join("formula.cnf"))?);
            writeln!(f, "p cnf {vars} {}", clauses.len())?;
            let mut b = itoa::Buffer::new();
            for c in clauses {
                for &l in c.as_ref() {
                    f.write_all(b.format(l).as_bytes())?;
                    f.write_all(b" ")?;
                }
                f.write_all(b"0\n")?;
            }
            f.flush()?;
        }
        let mut out = BufWriter::with_capacity(
            1 << 16,
            std::fs::File::create(dir.path().join("proof.pbp"))?,
        );
        writeln!(out, "pseudo-Boolean proof version 3.0")?;
        writeln!(out, "f {};", clauses.len())?;
        Ok(Translation {
            dir,
            out,
            origins: Vec::new(),
            last_id: clauses.len() as u64,
            line: String::new(),
        })
    }

    /// The id the next constraint gets.
    pub fn next_id(&self) -> u64 {
        self.last_id + 1
    }

    fn constraint(&mut self, lits: &[i64]) {
        self.line.clear();
        for &l in lits {
            let _ = write!(
                self.line,
                "1 {}x{} ",
                if l < 0 { "~" } else { "" },
                l.unsigned_abs()
            );
        }
        self.line.push_str(">= 1");
    }

    fn emit(&mut self, rule: &str, tail: &str, origin: Origin) -> io::Result<()> {
        self.out.write_all(rule.as_bytes())?;
        self.out.write_all(b" ")?;
        self.out.write_all(self.line.as_bytes())?;
        self.out.write_all(tail.as_bytes())?;
        self.out.write_all(b";\n")?;
        self.origins.push(origin);
        Ok(())
    }

    /// A lemma that follows by unit propagation, with its hints (constraint ids; none: VeriPB
    /// propagates over everything). Returns its id.
    pub fn rup(&mut self, lits: &[i64], hints: &[u64], origin: Origin) -> io::Result<u64> {
        self.constraint(lits);
        let mut tail = String::new();
        if !hints.is_empty() {
            tail.push_str(" :");
            for h in hints {
                let _ = write!(tail, " {h}");
            }
        }
        self.emit("rup", &tail, origin)?;
        self.last_id += 1;
        Ok(self.last_id)
    }

    /// A RAT lemma on its first literal. Returns its id.
    pub fn rat(&mut self, lits: &[i64], origin: Origin) -> io::Result<u64> {
        let Some(&p) = lits.first() else {
            return self.rup(lits, &[], origin);
        };
        self.constraint(lits);
        let tail = format!(" : x{} -> {}", p.unsigned_abs(), if p < 0 { 0 } else { 1 });
        self.emit("red", &tail, origin)?;
        self.last_id += 1;
        Ok(self.last_id)
    }

    /// The deletion of the constraint with this id.
    pub fn delete(&mut self, id: u64, origin: Origin) -> io::Result<()> {
        writeln!(self.out, "del id {id};")?;
        self.origins.push(origin);
        Ok(())
    }

    /// Ends the proof with the conclusion that the constraint `refutation` (an empty
    /// clause written with [`Translation::rup`]) is a contradiction, or, without one, with a
    /// last attempt `rup >= 1` over everything; then runs VeriPB.
    pub fn judge(mut self, refutation: Option<u64>) -> Result<Judgement, io::Error> {
        let id = match refutation {
            Some(id) => id,
            None => self.rup(&[], &[], (0, None))?,
        };
        writeln!(self.out, "output NONE;")?;
        writeln!(self.out, "conclusion UNSAT : {id};")?;
        writeln!(self.out, "end pseudo-Boolean proof;")?;
        self.out.flush()?;
        let formula = self.dir.path().join("formula.cnf");
        let proof = self.dir.path().join("proof.pbp");
        Ok(self.run(formula, proof))
    }

    fn run(&self, formula: PathBuf, proof: PathBuf) -> Judgement {
        match run_veripb(&formula, &proof, true) {
            Ok(()) => Judgement::Accepted,
            Err((line, reason)) => {
                let (step, at) = line
                    .and_then(|l| l.checked_sub(3))
                    .and_then(|k| self.origins.get(k as usize))
                    .map_or((None, None), |&(s, at)| ((s > 0).then_some(s), at));
                Judgement::Rejected { step, at, reason }
            }
        }
    }
}

/// How VeriPB judged a pseudo-Boolean proof of unsatisfiability against an OPB formula
/// ([`check_opb`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpbJudgement {
    /// Every rule checked and the conclusion (unsatisfiable) holds.
    Accepted,
    /// A rule failed, or the files could not be read.
    Rejected {
        /// The line of the proof file that failed, when VeriPB names one.
        line: Option<u64>,
        /// VeriPB's reason.
        reason: String,
    },
}

/// Runs VeriPB on `proof` (its format, version 3.0) against the OPB file `formula`: accepted
/// only if every rule checks and the proof concludes that the formula is unsatisfiable. VeriPB
/// accepts a proof whose every rule checks whatever its conclusion (`NONE` says nothing, `SAT`
/// only that a solution was logged), so the conclusion is read here: one `conclusion UNSAT`.
pub fn check_opb(formula: &std::path::Path, proof: &std::path::Path) -> OpbJudgement {
    match run_veripb(formula, proof, false) {
        Ok(()) => match conclusion_of(proof) {
            Ok(Some(c)) if c == "UNSAT" => OpbJudgement::Accepted,
            Ok(found) => OpbJudgement::Rejected {
                line: None,
                reason: match found {
                    Some(c) => format!(
                        "the proof concludes {c}, not that the formula is unsatisfiable \
                         (conclusion UNSAT)"
                    ),
                    None => "the proof has no single conclusion (conclusion UNSAT)".to_string(),
                },
            },
            Err(e) => OpbJudgement::Rejected {
                line: None,
                reason: format!("the proof could not be read again: {e}"),
            },
        },
        Err((line, reason)) => OpbJudgement::Rejected { line, reason },
    }
}

/// The kind of the one `conclusion` rule of a pseudo-Boolean proof (`UNSAT`, `SAT`, `NONE`,
/// `BOUNDS`), read from the start of each rule (rules end with `;`; comment lines start with
/// `*`); `None` when it has none or more than one.
fn conclusion_of(proof: &std::path::Path) -> io::Result<Option<String>> {
    use std::io::BufRead;
    let reader = io::BufReader::with_capacity(1 << 16, std::fs::File::open(proof)?);
    let (mut at_start, mut found) = (true, Vec::new());
    for line in reader.split(b'\n') {
        let line = line?;
        let line = String::from_utf8_lossy(&line);
        if at_start && line.trim_start().starts_with('*') {
            continue;
        }
        for (i, rule) in line.split(';').enumerate() {
            at_start |= i > 0;
            let mut words = rule.split_whitespace();
            if let (true, Some(first)) = (at_start, words.next()) {
                at_start = false;
                if first == "conclusion" {
                    found.push(words.next().unwrap_or_default().to_string());
                }
            }
        }
    }
    Ok(if found.len() == 1 { found.pop() } else { None })
}

/// Runs VeriPB: `Err` with the line of the proof that failed, if it names one, and the reason.
fn run_veripb(
    formula: &std::path::Path,
    proof: &std::path::Path,
    cnf: bool,
) -> Result<(), (Option<u64>, String)> {
    let args = veripb::args::Args {
        formula: formula.to_path_buf(),
        derivation: proof.to_path_buf(),
        cnf,
        // Deletions as in DRAT and LRAT: unchecked (sound for a refutation).
        checked_deletion: false,
        print_verification_result: false,
        show_warnings: false,
        ignore_file_path_check: true,
        ..Default::default()
    };
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| veripb::run_checker(args)));
    match run {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err((line_of(&format!("{e:#}"), proof), reason_of(&e))),
        // The panic's message went to standard error through the panic hook.
        Err(_) => Err((
            None,
            "VeriPB stopped on an internal error (its message is on standard error)".to_string(),
        )),
    }
}

/// The line of the proof file that an error names (`PATH:LINE`).
fn line_of(message: &str, proof: &std::path::Path) -> Option<u64> {
    let path = proof.display().to_string();
    let at = message.find(&path)? + path.len();
    let digits: String = message[at..]
        .strip_prefix(':')?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The innermost cause of a VeriPB error, without its place in VeriPB's files (the step says
/// where) or its advice on VeriPB's own options and proof syntax.
fn reason_of(e: &anyhow::Error) -> String {
    let text = e.root_cause().to_string();
    let text = match text.rfind("Caused by:") {
        Some(k) => &text[k + "Caused by:".len()..],
        None => &text,
    };
    // Advice on VeriPB's own options and proof syntax does not apply to a translation.
    let text = [" Rerun with", " Please add"]
        .iter()
        .filter_map(|a| text.find(a))
        .min()
        .map_or(text, |k| &text[..k]);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clauses() -> Vec<Vec<i32>> {
        vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]]
    }

    #[test]
    fn accepts_a_refutation_with_hints() {
        let mut t = Translation::new(&clauses(), 2).unwrap();
        let id = t.rup(&[2], &[1, 2], (1, Some(ProofPos::Line(1)))).unwrap();
        assert_eq!(id, 5);
        let e = t.rup(&[], &[5, 3, 4], (2, None)).unwrap();
        assert_eq!(t.judge(Some(e)).unwrap(), Judgement::Accepted);
    }

    #[test]
    fn rejects_a_wrong_hint_and_names_its_step() {
        let mut t = Translation::new(&clauses(), 2).unwrap();
        t.rup(&[2], &[1], (1, Some(ProofPos::Line(4)))).unwrap();
        let e = t.rup(&[], &[], (2, None)).unwrap();
        match t.judge(Some(e)).unwrap() {
            Judgement::Rejected { step, at, reason } => {
                assert_eq!((step, at), (Some(1), Some(ProofPos::Line(4))));
                assert!(reason.contains("not implied"), "{reason}");
            }
            j => panic!("{j:?}"),
        }
    }

    #[test]
    fn rejects_a_missing_refutation() {
        let t = Translation::new(&clauses(), 2).unwrap();
        assert!(matches!(
            t.judge(None).unwrap(),
            Judgement::Rejected { step: None, .. }
        ));
    }

    #[test]
    fn rejects_the_use_of_a_deleted_clause() {
        let mut t = Translation::new(&clauses(), 2).unwrap();
        t.delete(2, (1, None)).unwrap();
        t.rup(&[2], &[1, 2], (2, None)).unwrap();
        assert!(matches!(
            t.judge(None).unwrap(),
            Judgement::Rejected { step: Some(2), .. }
        ));
    }

    /// A proof whose every rule checks but which does not conclude UNSAT is rejected: VeriPB
    /// alone accepts it. The formula (x1 + x2 >= 1) has solutions.
    #[test]
    fn a_proof_without_conclusion_unsat_is_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let formula = dir.path().join("f.opb");
        std::fs::write(
            &formula,
            "* #variable= 2 #constraint= 1\n+1 x1 +1 x2 >= 1 ;\n",
        )
        .unwrap();
        let proof = dir.path().join("p.pbp");
        let head = "pseudo-Boolean proof version 3.0\nf 1 ;\n";
        for (ending, accepted) in [
            ("output NONE ;\nconclusion NONE ;\n", false),
            (
                "* conclusion UNSAT ;\noutput NONE ;\nconclusion NONE ;\n",
                false,
            ),
            ("output NONE ;\nconclusion SAT : x1 ;\n", false),
            (
                "rup 1 x1 >= 1 ;\noutput NONE ;\nconclusion UNSAT ;\n",
                false,
            ),
        ] {
            std::fs::write(
                &proof,
                format!("{head}{ending}end pseudo-Boolean proof ;\n"),
            )
            .unwrap();
            let j = check_opb(&formula, &proof);
            assert_eq!(j == OpbJudgement::Accepted, accepted, "{ending}: {j:?}");
        }
        // The same reading accepts a refutation of a formula without solutions.
        std::fs::write(&formula, "+1 x1 >= 1 ;\n+1 ~x1 >= 1 ;\n").unwrap();
        let ending = "rup >= 1 ;\noutput NONE ;\nconclusion UNSAT : 3 ;\n";
        std::fs::write(
            &proof,
            format!("{head}{ending}end pseudo-Boolean proof ;\n").replace("f 1", "f 2"),
        )
        .unwrap();
        assert_eq!(check_opb(&formula, &proof), OpbJudgement::Accepted);
    }

    #[test]
    fn the_version_is_that_of_the_lock_file() {
        let lock = include_str!("../../Cargo.lock");
        let at = lock.find("name = \"veripb\"\nversion = \"").unwrap();
        let rest = &lock[at + "name = \"veripb\"\nversion = \"".len()..];
        assert_eq!(&rest[..rest.find('"').unwrap()], VERSION);
    }
}
