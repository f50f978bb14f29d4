//! The command line: argument parsing with clap, one module per subcommand, and the mapping of
//! errors to exit codes (0 ok, 1 a check found a discrepancy, 2 usage or input error,
//! 10/20 SAT/UNSAT where the SAT-competition convention is asked for).

mod check;
mod compare;
mod construct;
mod count;
mod encode;
mod explain;
mod generate;
mod grade;
mod output;
mod sat;
mod solve;
mod teach;
mod trace;
mod verify;

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
    /// Print the formula readably (groups Q1..Q6, named variables), as LaTeX, or as commented DIMACS.
    Explain(explain::ExplainArgs),
    /// Solve with the embedded SAT solver (or an external one): one solution, all, or a count.
    Solve(solve::SolveArgs),
    /// Check an external solver's answer or a one-line placement against the board and the CNF.
    Verify(verify::VerifyArgs),
    /// A solution for any n by a closed-form construction (no search), streamed.
    Construct(construct::ConstructArgs),
    /// Count the solutions and fundamental solutions by backtracking, or list them.
    Count(count::CountArgs),
    /// Cross-check SAT answers, SAT counts, the counter, the published table, the constructor
    /// and external solvers for a range of n and every encoding; exit 1 on any discrepancy.
    Check(check::CheckArgs),
    /// Compare encodings: sizes and solve times per n, encoding and solver (table, CSV, JSON, SVG).
    Compare(compare::CompareArgs),
    /// Grade a DIMACS file meant to encode n-queens: sound (every model a solution), complete
    /// (every solution a model), projected count against the counter's; exit 1 when wrong.
    Grade(grade::GradeArgs),
    /// Draw an instance of a family (completion, blocked, excluded-diagonals, toroidal) and write
    /// its instance file, for --instance.
    Generate(generate::GenerateArgs),
    /// Watch a small DPLL or CDCL solver work on an instance, step by step: text, JSON, or an
    /// HTML page with the board.
    Trace(trace::TraceArgs),
    /// Solve a DIMACS file with the embedded solver, SAT-competition output.
    #[command(hide = true)]
    Sat(sat::SatArgs),
}

/// The options that choose the formula: shared by every command that encodes.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// At-most-one encoding: pairwise, sequential, ladder, commander[:G] (group size, default
    /// 3), product, binary, bimander[:K] (group count, default ceil(sqrt(line length))),
    /// totalizer, mtotalizer, sortnet, cardnet; one name for every line, or per line kind,
    /// e.g. `rows=sequential,diagonals=product` (kinds: all, rows, columns, diagonals, slash,
    /// backslash).
    #[arg(
        long,
        alias = "encoding",
        default_value = "pairwise",
        value_name = "ENCODING"
    )]
    pub amo: queens_sat::encode::LineEncodings,
    /// Add the redundant column at-least-one clauses (cell model).
    #[arg(long)]
    pub column_alo: bool,
    /// The model: `cells` (one Boolean per cell, the reference) or `columns` (one integer per
    /// row, the column of its queen).
    #[arg(long, default_value = "cells", value_name = "MODEL", value_parser = model_names())]
    pub model: String,
    /// Column model: how each row's integer is encoded: direct, order or log (default direct).
    #[arg(long, value_name = "DOMAIN")]
    pub domain: Option<queens_sat::encode::Domain>,
    /// Column model: conflict (clauses forbidding each attacking pair of values, default) or
    /// support (direct domain only).
    #[arg(long, value_name = "CONSTRAINTS")]
    pub constraints: Option<queens_sat::encode::Constraints>,
}

/// `text` with its first letter in upper case, as clap's help shows value descriptions.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The parser of `--model`: the names of the catalogue's models, with their summaries.
fn model_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        queens_sat::encode::MODELS
            .iter()
            .map(|m| clap::builder::PossibleValue::new(m.name).help(capitalized(m.summary))),
    )
}

impl ModelArgs {
    /// The model these arguments select, with `amo` as the at-most-one encoding (the cell
    /// model's lines, the direct domain's rows). Options of the other model are refused.
    pub fn model_with(
        &self,
        amo: queens_sat::encode::LineEncodings,
    ) -> anyhow::Result<queens_sat::instance::Model> {
        use queens_sat::encode::catalogue::{self, ModelOption, ModelOptions};
        let entry = catalogue::entry(&self.model).map_err(anyhow::Error::msg)?;
        let given = [
            (self.column_alo, ModelOption::ColumnAlo),
            (self.domain.is_some(), ModelOption::Domain),
            (self.constraints.is_some(), ModelOption::Constraints),
        ];
        let given: Vec<ModelOption> = given.iter().filter(|g| g.0).map(|g| g.1).collect();
        catalogue::refuse_foreign_options(entry, &given).map_err(anyhow::Error::msg)?;
        let options = ModelOptions {
            amo,
            column_alo: self.column_alo,
            domain: self.domain.unwrap_or_default(),
            constraints: self.constraints.unwrap_or_default(),
        };
        queens_sat::instance::Model::new(entry, &options).map_err(anyhow::Error::msg)
    }

    /// The model these arguments select.
    pub fn model(&self) -> anyhow::Result<queens_sat::instance::Model> {
        self.model_with(self.amo)
    }

    /// The encoder options these arguments select.
    pub fn options(&self) -> queens_sat::encode::EncodeOptions {
        queens_sat::encode::EncodeOptions {
            amo: self.amo,
            column_alo: self.column_alo,
        }
    }
}

/// Refuses (even with `--force`, which lifts only a command's own rule) a formula past
/// [`queens_sat::instance::Limits::STREAM`]: for the commands that stream every clause.
pub fn guard_stream(instance: &queens_sat::instance::Instance) -> anyhow::Result<()> {
    instance
        .check_size(queens_sat::instance::Limits::STREAM)
        .map_err(|e| anyhow::anyhow!("{e}; use a smaller n or --amo sequential"))
}

/// The `--models` option of `check` and `compare`.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelsArg {
    /// Models, separated by commas: `cells` (with every --amo encoding), the column model's
    /// `direct` (with every --amo encoding), `order`, `log`, `support`; `all` for every one
    /// of them.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "cells",
        value_name = "MODELS"
    )]
    pub models: Vec<String>,
}

/// Exit code for usage and input errors.
pub const EXIT_USAGE: u8 = 2;

/// Parses a board size: a positive integer ([`queens_sat::input::parse_n`]).
pub fn parse_n(s: &str) -> Result<usize, String> {
    queens_sat::input::parse_n(s)
}

/// A list of board sizes, sorted, without duplicates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NList(pub Vec<usize>);

/// Parses board sizes: ranges `a..b` (both ends included; `a..=b` too) and single numbers,
/// separated by commas, e.g. `1..10`, `4,6,8`, `1..5,12`. Sorted, duplicates dropped. An n
/// above `max` is refused with the message `too_large(n)` (before any range is expanded).
pub fn parse_n_list_up_to(
    s: &str,
    max: usize,
    too_large: impl Fn(usize) -> String,
) -> Result<NList, String> {
    queens_sat::input::parse_n_list(s, max, too_large).map(NList)
}

/// The most an instance file may hold: 64 MiB (a 2,000 x 2,000 board with every cell listed
/// takes about 40 MiB).
const INSTANCE_FILE_CAP: u64 = 64 << 20;

/// Reads and parses an instance file (`-` reads stdin), bounded in size; errors name the file
/// and the line.
pub fn read_instance_file(
    path: &std::path::Path,
) -> anyhow::Result<queens_sat::family::InstanceSpec> {
    let text = read_text_file(path, INSTANCE_FILE_CAP, "instance file")?;
    queens_sat::family::InstanceSpec::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// Reads a text file (`-` for stdin, a pipe such as `<(...)` too) of at most `cap` bytes,
/// UTF-8; a directory is refused before it is opened. `what` names the
/// file in messages ("instance file", "shard file").
pub fn read_text_file(path: &std::path::Path, cap: u64, what: &str) -> anyhow::Result<String> {
    use anyhow::Context;
    use std::io::Read;
    let name = path.display();
    let mut bytes = Vec::new();
    let reader: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        let meta = std::fs::metadata(path).with_context(|| format!("cannot open {what} {name}"))?;
        if meta.is_dir() {
            anyhow::bail!("{what} {name} is a directory");
        }
        Box::new(std::fs::File::open(path).with_context(|| format!("cannot open {what} {name}"))?)
    };
    reader
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {what} {name}"))?;
    if bytes.len() as u64 > cap {
        anyhow::bail!("{name}: larger than {cap} bytes, more than a {what} can need");
    }
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name}: not a text file (UTF-8)"))
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
            // One line: clap's first line (with the next one when it ends in a colon, as for
            // missing arguments), plus a pointer to --help.
            let rendered = e.render().to_string();
            let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut first = lines
                .next()
                .unwrap_or("error: invalid arguments")
                .to_string();
            if first.ends_with(':') {
                if let Some(next) = lines.next().filter(|l| !l.starts_with("Usage")) {
                    first = format!("{first} {next}");
                }
            }
            // Keep clap's hints ("tip: a similar subcommand exists: 'solve'", the possible
            // values) on the same line.
            let tips: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with("tip:") || l.starts_with("[possible values:"))
                .collect();
            for tip in tips {
                if !first.contains(tip) {
                    first = format!("{first}; {tip}");
                }
            }
            eprintln!("{first} (see 'queens-sat --help')");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let result = match cli.command {
        Command::Encode(args) => encode::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Compare(args) => {
            // Its solvers run in their own process groups: an interruption must stop them.
            output::install_interrupt_handler();
            compare::run(args)
        }
        Command::Sat(args) => sat::run(args),
        Command::Construct(args) => construct::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Count(args) => count::run(args),
        Command::Check(args) => check::run(args),
        Command::Trace(args) => trace::run(args),
        Command::Grade(args) => grade::run(args),
    };
    if queens_sat::solve::interrupted() {
        // The interrupt handler killed the running solvers and is cleaning up: their deaths
        // are not this command's result. It exits with status 130 when done.
        std::thread::sleep(std::time::Duration::from_secs(10));
        return ExitCode::from(130);
    }
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_line(&e));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The error and its causes on one line, leaving out a cause that the message before it
/// already says (library errors often name their cause in their own message).
fn error_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// The parser of `--backend`: `varisat` or `cadical` (clap lists them on a typo). A backend
/// this build lacks is refused when it is used, naming the missing feature.
pub fn parse_backend() -> impl clap::builder::TypedValueParser<Value = queens_sat::solve::Backend> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(queens_sat::solve::Backend::NAMES)
        .map(|s| s.parse::<queens_sat::solve::Backend>().unwrap_or_default())
}

/// The models that `--models` names (as `check` and `compare` take them):
/// [`queens_sat::encode::catalogue::models`].
pub fn models(
    names: &[String],
    encs: &[queens_sat::encode::LineEncodings],
    column_alo: bool,
) -> anyhow::Result<Vec<queens_sat::instance::Model>> {
    queens_sat::encode::catalogue::models(names, encs, column_alo).map_err(anyhow::Error::msg)
}
