//! `queens-sat verify-proof CNF PROOF` (drat-trim's order; `--cnf CNF PROOF` too): checks a
//! proof of unsatisfiability (DRAT or LRAT, text or binary, recognised from its content)
//! against any DIMACS file with two checkers ([`queens_sat::command::verify_proof`]). Exit 0
//! verified, 1 rejected (the first failing step), 2 bad input.

use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct VerifyProofArgs {
    /// The formula, a DIMACS CNF file, before the proof (the clauses of an LRAT proof are
    /// numbered in its order); `-` reads standard input.
    #[arg(long, value_name = "FILE", conflicts_with = "opb")]
    cnf: Option<PathBuf>,
    /// The formula, an OPB file (`encode --format opb`), before a pseudo-Boolean proof in
    /// VeriPB's format (`solve --engine search --proof-format veripb`), which VeriPB checks.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["veripb", "veripb_alone"])]
    opb: Option<PathBuf>,
    /// Also have VeriPB check an LRAT proof (a DRAT proof is always checked by both the
    /// library's checker and VeriPB).
    #[arg(long)]
    veripb: bool,
    /// VeriPB finds why each DRAT lemma holds on its own, without the hints of the library's
    /// checker (slower: every lemma propagated over all of its constraints).
    #[arg(long)]
    veripb_alone: bool,
    /// `CNF PROOF`, or `PROOF` after --cnf or --opb: the proof is DRAT or LRAT, text or
    /// binary (VeriPB's format after --opb); `-` reads standard input (not after --opb).
    #[arg(value_name = "CNF PROOF", num_args = 1..=2, required = true)]
    files: Vec<PathBuf>,
}

pub fn run(args: VerifyProofArgs) -> Result<ExitCode> {
    if let Some(opb) = &args.opb {
        let [proof] = &args.files[..] else {
            bail!("with --opb, give the proof alone: verify-proof --opb FORMULA PROOF");
        };
        #[cfg(feature = "veripb")]
        {
            let ending = queens_sat::command::verify_proof::verify_pb_proof(
                opb,
                proof,
                &mut queens_sat::output::stdout(),
            )?;
            return Ok(ExitCode::from(ending.exit_code()));
        }
        #[cfg(not(feature = "veripb"))]
        bail!(
            "--opb: VeriPB is not built in (the veripb feature), and it alone checks {} against {}",
            proof.display(),
            opb.display()
        );
    }
    let (cnf, proof) = match (args.cnf, &args.files[..]) {
        (Some(cnf), [proof]) => (cnf, proof.clone()),
        (None, [cnf, proof]) => (cnf.clone(), proof.clone()),
        (Some(_), _) => bail!("with --cnf, give the proof alone: verify-proof --cnf CNF PROOF"),
        (None, _) => bail!("give the formula and the proof: verify-proof CNF PROOF"),
    };
    let req = queens_sat::command::verify_proof::VerifyProofRequest {
        cnf,
        proof,
        veripb_on_lrat: args.veripb,
        veripb_alone: args.veripb_alone,
    };
    let ending =
        queens_sat::command::verify_proof::verify_proof(&req, &mut queens_sat::output::stdout())?;
    Ok(ExitCode::from(ending.exit_code()))
}
