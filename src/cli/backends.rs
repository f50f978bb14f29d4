//! The embedded solvers on the command line: `--solver-option NAME=VALUE` (checked against the
//! chosen backend's options) and the solver versions that `--version` lists.

use anyhow::Result;
use clap::Args;
use queens_sat::solve::{Backend, SolverOption};

/// `--solver-option NAME=VALUE`, repeatable.
#[derive(Args, Debug, Clone, Default)]
pub struct SolverOptionArgs {
    /// An option of the embedded solver, NAME=VALUE as the solver names it without dashes
    /// (CaDiCaL: `elim=0`, `seed=3`; Kissat: `eliminate=0`); repeatable. An unknown name or a
    /// value out of range is an error (exit 2); varisat takes none.
    #[arg(long = "solver-option", value_name = "NAME=VALUE", value_parser = parse_solver_option)]
    pub solver_option: Vec<SolverOption>,
}

fn parse_solver_option(s: &str) -> Result<SolverOption, String> {
    s.parse::<SolverOption>().map_err(|e| e.to_string())
}

impl SolverOptionArgs {
    /// The options, checked against the backend's: `--solver-option: ...` on an error.
    pub fn checked(&self, backend: Backend) -> Result<Vec<SolverOption>> {
        backend
            .check_options(&self.solver_option)
            .map_err(|e| anyhow::anyhow!("--solver-option for {backend}: {e}"))?;
        Ok(self.solver_option.clone())
    }
}

/// What `--version` prints after the program's name: its version, then each embedded solver
/// of this build with the version it reports, one a line.
pub fn long_version() -> &'static str {
    let mut s = env!("CARGO_PKG_VERSION").to_string();
    for b in [Backend::Cadical, Backend::Kissat, Backend::Varisat] {
        if let Some(v) = b.version() {
            s.push_str(&format!("\n{} {v}", b.name()));
        }
    }
    Box::leak(s.into_boxed_str())
}
