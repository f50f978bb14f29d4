//! The commands of the `queens-sat` program as library functions, so that the command line
//! only parses its arguments into a typed request and other front ends (Python, a web page)
//! get the same work, checks, messages and reports: each function takes its request, writes
//! its report to any [`std::io::Write`] (notes to a second one, the log), returns how it
//! [`Ending`]ed, and fails with a typed error that says what to fix.

/// Implements `From` each failure type named for a command's error, through its
/// [`Failure`] variant, so that `?` turns any of them into the command's error:
/// `failures_into!(CountCommandError: OutputError, io::Error);`.
macro_rules! failures_into {
    ($error:ty: $($from:ty),+ $(,)?) => {
        $(
            impl From<$from> for $error {
                fn from(e: $from) -> Self {
                    Self::Failure($crate::command::Failure::from(e))
                }
            }
        )+
    };
}

pub mod check;
pub mod compare;
pub mod construct;
pub mod count;
pub mod encode;
pub mod explain;
pub mod grade;
pub mod sat;
pub mod solution;
pub mod solve;
pub mod trace;
pub mod verify;
pub mod verify_proof;

use crate::family::InstanceFileError;
use crate::input::ReadError;
use crate::instance::InstanceError;
use crate::output::OutputError;
use crate::solve::SolveError;
use std::io;

/// What any command may meet besides what is its own: a report, output file or input file that
/// cannot be written or read, an instance that cannot be made, the embedded solver's failure.
/// Each command's error holds it as one variant, its message the failure's own.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// An output file cannot be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// Standard output (the report) cannot be written.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A file cannot be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// An instance file cannot be read or parsed.
    #[error(transparent)]
    ReadInstance(#[from] InstanceFileError),
    /// An instance cannot be made.
    #[error(transparent)]
    Instance(#[from] InstanceError),
    /// The embedded solver failed or was interrupted.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// How a command ended, when it ran: the command line's exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Done, and every check agreed (exit 0).
    Success,
    /// A check found a discrepancy, an answer was wrong or none came (exit 1).
    Failure,
    /// SAT, where the SAT-competition convention is asked for (exit 10).
    Satisfiable,
    /// UNSAT, where the SAT-competition convention is asked for (exit 20).
    Unsatisfiable,
    /// Interrupted (exit 130, as shells report Ctrl-C).
    Interrupted,
}

impl Ending {
    /// The exit status of the command line.
    pub fn exit_code(self) -> u8 {
        match self {
            Ending::Success => 0,
            Ending::Failure => 1,
            Ending::Satisfiable => 10,
            Ending::Unsatisfiable => 20,
            Ending::Interrupted => 130,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::compare::CompareError;
    use super::count::CountCommandError;
    use super::solve::SolveCommandError;
    use super::Failure;
    use crate::output::OutputError;
    use std::error::Error;
    use std::io;
    use std::path::PathBuf;

    #[test]
    fn a_failure_converts_into_the_command_error_with_its_own_message() {
        let e: CountCommandError = io::Error::other("disk full").into();
        assert!(matches!(e, CountCommandError::Failure(Failure::Io(_))));
        assert_eq!(e.to_string(), "disk full");
        let e: SolveCommandError = crate::solve::SolveError::Solver("no model".into()).into();
        assert!(matches!(e, SolveCommandError::Failure(Failure::Solve(_))));
    }

    #[test]
    fn an_output_failure_stays_an_output_failure() {
        // Front ends (the Python bindings) tell an output file that cannot be written from bad
        // input by this variant.
        let output = OutputError::Target {
            path: PathBuf::from("/no/such/folder/out.csv"),
            why: "no such folder".into(),
        };
        let text = output.to_string();
        let e: CompareError = output.into();
        assert!(matches!(e, CompareError::Failure(Failure::Output(_))));
        assert_eq!(e.to_string(), text);
        // Transparent: the chain goes on with the failure's own source, not with itself again.
        assert!(e.source().is_none());
    }
}
