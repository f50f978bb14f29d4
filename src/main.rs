//! The `queens-sat` command: parses arguments and runs the subcommand (see `cli`).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
