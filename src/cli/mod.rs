//! The command line: argument parsing with clap, one module per subcommand, and the mapping of
//! errors to exit codes (0 ok, 1 a check found a discrepancy, 2 usage or input error,
//! 10/20 SAT/UNSAT where the SAT-competition convention is asked for).

mod count;
mod encode;
mod output;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// SAT encodings of the n-queens problem: export, solve, construct, count and cross-check.
#[derive(Parser, Debug)]
#[command(name = "queens-sat", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write the CNF of n-queens in DIMACS (stdout or -o FILE).
    Encode(encode::EncodeArgs),
    /// Count the solutions and fundamental solutions by backtracking, or list them.
    Count(count::CountArgs),
}

/// Exit code for usage and input errors.
pub const EXIT_USAGE: u8 = 2;

/// Parses a board size: a positive integer.
pub fn parse_n(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if t.starts_with('-') {
        return Err(format!("n must be a positive integer, got '{s}'"));
    }
    match t.parse::<u64>() {
        Ok(0) => Err("n must be at least 1".to_string()),
        Ok(v) if v > usize::MAX as u64 => Err(format!("n = {v} is too large")),
        Ok(v) => Ok(v as usize),
        Err(_) => Err(format!("n must be a positive integer, got '{s}'")),
    }
}

/// The command line as typed, for comments in outputs.
pub fn command_line() -> String {
    let mut args = std::env::args();
    let mut parts = vec!["queens-sat".to_string()];
    args.next();
    for a in args {
        if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"\\$`".contains(c)) {
            parts.push(format!("'{}'", a.replace('\'', "'\\''")));
        } else {
            parts.push(a);
        }
    }
    parts.join(" ")
}

/// `true` when the error (or its cause) is a broken pipe: the reader went away, which is not
/// a failure (`queens-sat encode 300 | head`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(EXIT_USAGE)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // One line: clap's first line, plus a pointer to --help.
            let rendered = e.render().to_string();
            let first = rendered
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("error: invalid arguments");
            eprintln!("{first} (see 'queens-sat --help')");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let result = match cli.command {
        Command::Encode(args) => encode::run(args),
        Command::Count(args) => count::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
