//! The commands of the `queens-sat` program as library functions, so that the command line
//! only parses its arguments into a typed request and other front ends (Python, a web page)
//! get the same work, checks, messages and reports: each function takes its request, writes
//! its report to any [`std::io::Write`] (notes to a second one, the log), returns how it
//! [`Ending`]ed, and fails with a typed error that says what to fix.

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
