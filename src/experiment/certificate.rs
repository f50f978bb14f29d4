//! Certificates of the refutations of the stages that write them: the search's VeriPB proof
//! (`solve --engine search --proof`, [`crate::search::certify`]), the propagator's
//! (`solve --engine propagator --proof-format veripb`, [`crate::solve::certify_with_propagator`])
//! and Exact's proof log, translated to VeriPB's current format
//! ([`crate::proof::exact_to_veripb`]); all against the instance's OPB form with the counts,
//! sums and moments ([`certificate_form`]), all checked by VeriPB ([`check`]). `solve` with a
//! chain and `compare --certify` keep and check them through [`keep`] from the folder of
//! [`super::attempt::Target::proofs`].

use super::attempt::{Target, EXACT_PROOF_LOG, PROPAGATOR_PROOF, SEARCH_PROOF};
use super::solvers::SolverSpec;
use super::{Row, SweepError};
use std::path::{Path, PathBuf};

pub use crate::instance::{certificate_form, CERTIFICATE_FORM};

/// A certificate kept by [`keep`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// Who made it, in words (`VeriPB by the search`).
    pub made_by: &'static str,
    /// Its size in bytes.
    pub bytes: u64,
    /// What it holds, for a translated log (`Exact's proof log, 663 loads ...`).
    pub note: Option<String>,
}

/// Writes the certificate of the refutation by `stage` to `into`, from the folder `proofs`
/// where the stage wrote it: the search's as it is, Exact's log translated against the OPB
/// file `formula` that Exact read (its constraints' ids counted from it). `Err` with the
/// reason when there is none (a stage that writes none, a missing file, a log that cannot be
/// read).
pub fn keep(
    stage: &SolverSpec,
    proofs: &Path,
    formula: &Path,
    into: &mut std::fs::File,
) -> Result<Kept, String> {
    let io = |e: std::io::Error| format!("cannot write the certificate: {e}");
    if stage.search || stage.propagator {
        let (file, who, made_by) = if stage.search {
            (SEARCH_PROOF, "the search", "VeriPB by the search")
        } else {
            (
                PROPAGATOR_PROOF,
                "the propagator engine",
                "VeriPB by the propagator engine",
            )
        };
        let Ok(mut from) = std::fs::File::open(proofs.join(file)) else {
            return Err(format!("{who} wrote no certificate"));
        };
        let bytes = std::io::copy(&mut from, into).map_err(io)?;
        return Ok(Kept {
            made_by,
            bytes,
            note: None,
        });
    }
    if !stage.logs_proofs() {
        return Err(format!("{} writes no proof", stage.name));
    }
    let Ok(log) = std::fs::File::open(proofs.join(EXACT_PROOF_LOG)) else {
        return Err("Exact wrote no proof log".into());
    };
    let ids = std::fs::File::open(formula)
        .and_then(|f| crate::proof::opb_constraint_ids(std::io::BufReader::new(f)))
        .map_err(|e| format!("cannot read the OPB form {}: {e}", formula.display()))?;
    let out = std::io::BufWriter::with_capacity(1 << 16, into.try_clone().map_err(io)?);
    let stats = crate::proof::exact_to_veripb(std::io::BufReader::new(log), out, ids)
        .map_err(|e| format!("its proof log cannot be read: {e}"))?;
    let bytes = into.metadata().map_err(io)?.len();
    Ok(Kept {
        made_by: "VeriPB, Exact's proof log translated from its format 1.1",
        bytes,
        note: Some(format!(
            "certificate: Exact's proof log, {} loads of the formula's constraints, {} rup and {} cutting-planes steps",
            stats.loads, stats.rup, stats.pol
        )),
    })
}

/// VeriPB's judgement of the certificate `proof` against the OPB file `formula`: the
/// checker's name and version, or why it rejects it.
#[cfg(feature = "veripb")]
pub fn check(formula: &Path, proof: &Path) -> Result<String, String> {
    match crate::proof::check_opb(formula, proof) {
        crate::proof::OpbJudgement::Accepted => {
            Ok(format!("VeriPB {}", crate::proof::VERIPB_VERSION))
        }
        crate::proof::OpbJudgement::Rejected { line, reason } => Err(match line {
            Some(l) => format!("VeriPB rejects line {l}: {reason}"),
            None => format!("VeriPB rejects it: {reason}"),
        }),
    }
}

/// Without the `veripb` feature no certificate can be checked here.
#[cfg(not(feature = "veripb"))]
pub fn check(_formula: &Path, _proof: &Path) -> Result<String, String> {
    Err("VeriPB is not built in (the veripb feature)".to_string())
}

/// VeriPB's judgement of `proof` against `formula`, made by a child process of this program
/// (`queens-sat verify-proof --opb FORMULA PROOF`), so that the checker's memory stays out of
/// this process, whose size the runs started after it would otherwise inherit in their
/// measured peak memory (a forked child's starts from its parent's). `Ok(Err(why))` when
/// VeriPB rejects it, `Err` when the check cannot be run.
fn check_apart(formula: &Path, proof: &Path) -> Result<Result<(), String>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let out = std::process::Command::new(&exe)
        .arg("verify-proof")
        .arg("--opb")
        .arg(formula)
        .arg(proof)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {} verify-proof: {e}", exe.display()))?;
    let said = String::from_utf8_lossy(&out.stdout);
    let first = said.lines().next().unwrap_or("").trim();
    match out.status.code() {
        Some(0) if first.starts_with("verified") => Ok(Ok(())),
        Some(1) if first.starts_with("rejected") => Ok(Err(first
            .trim_start_matches("rejected:")
            .trim()
            .to_string())),
        code => Err(format!(
            "the check by {} verify-proof ended with {} ({})",
            exe.display(),
            code.map_or_else(|| "a signal".to_string(), |c| format!("exit code {c}")),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )),
    }
}

/// The OPB file the certificate of `stage`'s refutation on `target` refers to: for Exact, the
/// OPB form it read (`None` if it wrote none); for the search and the propagator,
/// [`certificate_form`] of the instance, written to the target's folder (`certificate.opb`).
pub fn formula(stage: &SolverSpec, target: &Target) -> std::io::Result<Option<PathBuf>> {
    if !stage.search && !stage.propagator {
        return Ok(target.opb.borrow().as_ref().map(|(path, _)| path.clone()));
    }
    let other = |e: &dyn std::fmt::Display| std::io::Error::other(e.to_string());
    let path = target.dir.join("certificate.opb");
    let form = certificate_form(target.instance).map_err(|e| other(&e))?;
    let file = std::fs::File::create(&path)?;
    form.write_opb(std::io::BufWriter::with_capacity(1 << 16, file), None)
        .map_err(|e| other(&e))?;
    Ok(Some(path))
}

/// Removes the proofs a stage left in the folder `proofs`, before the next run writes its own.
pub fn forget(proofs: &Path) {
    for f in [SEARCH_PROOF, PROPAGATOR_PROOF, EXACT_PROOF_LOG] {
        let _ = std::fs::remove_file(proofs.join(f));
    }
}

/// Certifies the refutation of `row` by `solver` on `target` (`compare --certify`): the
/// certificate of the stage that refuted ([`keep`]) is checked by VeriPB against the OPB form
/// it refers to, the search's and the propagator's against [`certificate_form`] of the
/// instance, Exact's against the OPB it read, in a child process of this program; the row
/// records the certificate's size, the check's time and the verdict. An error only when a
/// file cannot be written.
pub fn certify_row(row: &mut Row, solver: &SolverSpec, target: &Target) -> Result<(), SweepError> {
    let stage = if solver.stages.is_empty() {
        Some(solver)
    } else {
        solver
            .stages
            .iter()
            .map(|s| &s.solver)
            .find(|s| s.name == row.decided_by)
    };
    let Some(stage) = stage else {
        row.certified = format!("none: no stage named {}", row.decided_by);
        return Ok(());
    };
    let io = |what: &str, source| SweepError::Io {
        what: what.to_string(),
        source,
    };
    let formula = match formula(stage, target) {
        Ok(Some(path)) => path,
        Ok(None) => {
            row.certified = "none: no OPB form was written".into();
            return Ok(());
        }
        Err(e) => return Err(io("cannot write the certificates' OPB form", e)),
    };
    let Some(proofs) = target.proofs else {
        row.certified = "none: no proofs were asked for".into();
        return Ok(());
    };
    let path = target.dir.join("certificate.pbp");
    let mut file = std::fs::File::create(&path).map_err(|e| io("cannot write a certificate", e))?;
    let made = keep(stage, proofs, &formula, &mut file);
    drop(file);
    match made {
        Err(why) => row.certified = format!("none: {why}"),
        Ok(made) => {
            row.certificate_bytes = Some(made.bytes);
            let started = std::time::Instant::now();
            let verdict = check_apart(&formula, &path);
            row.check_s = Some((started.elapsed().as_secs_f64() * 1e4).round() / 1e4);
            row.certified = match verdict {
                Ok(Ok(())) => "accepted".into(),
                Ok(Err(why)) => format!("rejected: {why}"),
                Err(why) => format!("none: {why}"),
            };
        }
    }
    let _ = std::fs::remove_file(&path);
    Ok(())
}

/// The refutations of `rows` that were certified (`compare --certify`) and how, per
/// configuration (encoding and solver) in the rows' order, as a Markdown table without a
/// caption: refutations, certificates accepted, rejected and not made, and the median and
/// largest certificate (MB) and check time (s) of those made. Empty when no row asked.
pub fn table(rows: &[Row]) -> String {
    let mut configs: Vec<(&str, &str)> = Vec::new();
    for r in rows.iter().filter(|r| !r.certified.is_empty()) {
        if !configs.contains(&(&r.encoding, &r.solver)) {
            configs.push((&r.encoding, &r.solver));
        }
    }
    if configs.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "| encoding | solver | refutations | accepted | rejected | not made | median MB | max MB | median check s | max check s |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (enc, solver) in configs {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| r.encoding == enc && r.solver == solver && !r.certified.is_empty())
            .collect();
        let said = |p: &str| of.iter().filter(|r| r.certified.starts_with(p)).count();
        let mb: Vec<f64> = of
            .iter()
            .filter_map(|r| r.certificate_bytes)
            .map(|b| b as f64 / 1e6)
            .collect();
        let s: Vec<f64> = of.iter().filter_map(|r| r.check_s).collect();
        let stat = |v: &[f64], f: fn(&[f64]) -> f64| {
            if v.is_empty() {
                "-".to_string()
            } else {
                format!("{:.3}", f(v))
            }
        };
        let max = |v: &[f64]| v.iter().copied().fold(f64::MIN, f64::max);
        out.push_str(&format!(
            "| {enc} | {solver} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            of.len(),
            said("accepted"),
            said("rejected"),
            said("none"),
            stat(&mb, super::median),
            stat(&mb, max),
            stat(&s, super::median),
            stat(&s, max),
        ));
    }
    out
}

/// The rows whose certificate VeriPB rejected, or that have none (`compare --certify`).
pub fn uncertified(rows: &[Row]) -> Vec<&Row> {
    rows.iter()
        .filter(|r| !r.certified.is_empty() && r.certified != "accepted")
        .collect()
}
