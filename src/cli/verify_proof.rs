//! `queens-sat verify-proof --cnf FILE.cnf PROOF`: checks a proof of unsatisfiability (DRAT
//! or LRAT, text or binary, recognised from its content) against any DIMACS file
//! ([`queens_sat::command::verify_proof`]). Exit 0 verified, 1 rejected (the first failing
//! step), 2 bad input.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct VerifyProofArgs {
    /// The formula, a DIMACS CNF file (the clauses of an LRAT proof are numbered in its order).
    #[arg(long, value_name = "FILE")]
    cnf: PathBuf,
    /// The proof: DRAT or LRAT, text or binary.
    proof: PathBuf,
}

pub fn run(args: VerifyProofArgs) -> Result<ExitCode> {
    let ending = queens_sat::command::verify_proof::verify_proof(
        &args.cnf,
        &args.proof,
        &mut std::io::stdout().lock(),
    )?;
    Ok(ExitCode::from(ending.exit_code()))
}
