//! The command line: argument parsing with clap, one module per subcommand, and the mapping of
//! errors to exit codes (0 ok, 1 a check found a discrepancy, 2 usage or input error,
//! 10/20 SAT/UNSAT where the SAT-competition convention is asked for).

mod backends;
mod check;
mod compare;
mod construct;
mod count;
mod encode;
mod explain;
mod generate;
mod grade;
mod import;
mod jair;
mod output;
mod sat;
mod solve;
mod trace;
mod verify;
mod verify_proof;

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
    /// Read a parameter file of the literature (CSPLib problem 079: Excluded Diagonals, Essence'
    /// n-Queens Completion) and write it as an instance file, its source recorded.
    Import(import::ImportArgs),
    /// Watch a small DPLL or CDCL solver work on an instance, step by step: text, JSON, or an
    /// HTML page with the board.
    Trace(trace::TraceArgs),
    /// Check a proof of unsatisfiability (DRAT or LRAT, text or binary) against a DIMACS file,
    /// by the library's checker and VeriPB, or a VeriPB proof against an OPB file (--opb); exit
    /// 0 verified, 1 rejected, 2 bad input.
    VerifyProof(verify_proof::VerifyProofArgs),
    /// Solve any DIMACS file with an embedded solver (varisat, cadical or kissat), SAT-competition
    /// output: exit 10 SAT, 20 UNSAT.
    Sat(sat::SatArgs),
}

/// The options that choose the formula: shared by every command that encodes.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    #[arg(
        long,
        alias = "encoding",
        default_value = "pairwise",
        value_name = "ENCODING",
        help = amo_help()
    )]
    pub amo: queens_sat::encode::LineEncodings,
    /// Add the redundant column at-least-one clauses (cell model).
    #[arg(long)]
    pub column_alo: bool,
    /// The model: `cells` (one Boolean per cell, the reference) or `columns` (one integer per
    /// row, the column of its queen).
    #[arg(long, default_value = "cells", value_name = "MODEL", value_parser = model_names())]
    pub model: String,
    #[arg(long, value_name = "DOMAIN", help = domain_help())]
    pub domain: Option<queens_sat::encode::Domain>,
    #[arg(long, value_name = "CONSTRAINTS", help = constraints_help())]
    pub constraints: Option<queens_sat::encode::Constraints>,
    /// Column model: how the three all-different constraints are decomposed: `pairwise` (a
    /// clause per conflicting pair of values, as --constraints chooses) or `hall` (the
    /// Hall-interval decomposition, --constraints hall; on the order domain unless --domain
    /// coupled is given).
    #[arg(long, value_name = "ALLDIFF", value_parser = ["pairwise", "hall"])]
    pub alldiff: Option<String>,
    /// Redundant global constraints added to the model (any model); the help lists them from
    /// the catalogue.
    #[arg(long, value_name = "LIST", default_value = "none", help = redundant_help())]
    pub redundant: queens_sat::encode::redundant::RedundantSet,
}

/// The help of `--amo`, from the catalogue of at-most-one encodings.
fn amo_help() -> String {
    format!(
        "At-most-one encoding: {}; one name for every line, or per line kind, e.g. `rows=sequential,diagonals=product` (kinds: all, rows, columns, diagonals, slash, backslash)",
        queens_sat::encode::amo::listing()
    )
}

/// The help of `--redundant`, from the list of redundant constraints.
fn redundant_help() -> String {
    use queens_sat::encode::redundant::Redundant;
    let each: Vec<String> = Redundant::ALL
        .iter()
        .map(|r| format!("`{}` ({})", r.name(), r.summary()))
        .collect();
    format!(
        "Redundant global constraints added to the model (any model), separated by commas: {}, or `none`",
        each.join(", ")
    )
}

/// The help of `--domain`, from the catalogue of domain encodings.
fn domain_help() -> String {
    let names = queens_sat::encode::Domain::names();
    format!(
        "Column model: how each row's integer is encoded: {} (default {})",
        queens_sat::encode::columns::or_list(&names),
        queens_sat::encode::Domain::default()
    )
}

/// The help of `--constraints`, from the catalogue of constraint encodings.
fn constraints_help() -> String {
    use queens_sat::encode::columns::{or_list, CONSTRAINTS};
    let names: Vec<String> = CONSTRAINTS
        .iter()
        .map(|c| match c.domains() {
            Some(d) => format!("{} ({} domain only)", c.name(), or_list(d)),
            None => c.name().to_string(),
        })
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    format!(
        "Column model: how the all-different constraints are written: {} (default {})",
        or_list(&names),
        queens_sat::encode::Constraints::default()
    )
}

/// The help of `--models`, from the catalogue's variants.
fn models_help() -> String {
    let names: Vec<String> = queens_sat::encode::catalogue::variants()
        .iter()
        .map(|v| format!("`{}` ({})", v.name, v.summary))
        .collect();
    format!(
        "Models, separated by commas: {}; `all` for every one of them. Those with an at-most-one encoding come with every --amo encoding",
        names.join(", ")
    )
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
            (self.alldiff.is_some(), ModelOption::Alldiff),
        ];
        let given: Vec<ModelOption> = given.iter().filter(|g| g.0).map(|g| g.1).collect();
        catalogue::refuse_foreign_options(entry, &given).map_err(anyhow::Error::msg)?;
        let (domain, constraints) = self.alldiff_choice()?;
        let options = ModelOptions {
            amo,
            column_alo: self.column_alo,
            domain,
            constraints,
            redundant: self.redundant,
        };
        queens_sat::instance::Model::new(entry, &options).map_err(anyhow::Error::msg)
    }

    /// The domain and constraint encodings that `--domain`, `--constraints` and `--alldiff`
    /// choose: `--alldiff hall` is `--constraints hall` (on the order domain unless a domain
    /// is given), `--alldiff pairwise` any other constraint encoding.
    fn alldiff_choice(
        &self,
    ) -> anyhow::Result<(queens_sat::encode::Domain, queens_sat::encode::Constraints)> {
        use queens_sat::encode::{Constraints, Domain};
        let hall = match self.alldiff.as_deref() {
            None => {
                return Ok((
                    self.domain.unwrap_or_default(),
                    self.constraints.unwrap_or_default(),
                ))
            }
            Some(a) => a == "hall",
        };
        if let Some(c) = self.constraints {
            if (c == Constraints::HALL) != hall {
                anyhow::bail!(
                    "--alldiff {} and --constraints {c} disagree: --alldiff hall is --constraints hall, --alldiff pairwise is conflict or support",
                    self.alldiff.as_deref().unwrap_or_default()
                );
            }
        }
        Ok(if hall {
            (self.domain.unwrap_or(Domain::ORDER), Constraints::HALL)
        } else {
            (
                self.domain.unwrap_or_default(),
                self.constraints.unwrap_or_default(),
            )
        })
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

/// The `--models` option of `check` and `compare`.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelsArg {
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "cells",
        value_name = "MODELS",
        help = models_help()
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

/// Parses board sizes: ranges `a..b` (both ends included; `a..=b` too), ranges with a step
/// `a..b:k`, and single numbers, separated by commas, e.g. `1..10`, `8..32:8`, `4,6,8`,
/// `1..5,12`. Sorted, duplicates dropped. An n
/// above `max` is refused with the message `too_large(n)` (before any range is expanded).
pub fn parse_n_list_up_to(
    s: &str,
    max: usize,
    too_large: impl Fn(usize) -> String,
) -> Result<NList, String> {
    queens_sat::input::parse_n_list(s, max, too_large).map(NList)
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

/// The command line's flag for an option the library's messages name.
fn flag(param: queens_sat::vocabulary::Param) -> &'static str {
    use queens_sat::vocabulary::Param;
    match param {
        Param::Model => "--model",
        Param::Amo => "--amo",
        Param::Domain => "--domain",
        Param::Constraints => "--constraints",
        Param::Alldiff => "--alldiff",
        Param::ColumnAlo => "--column-alo",
        Param::SymmetryBreaking => "--symmetry-breaking",
        Param::Redundant => "--redundant",
        Param::Format => "--format",
        Param::Force => "--force",
        Param::Limit => "--limit",
        Param::Cubes => "--cubes",
        Param::MaxSteps => "--max-steps",
        Param::Check => "--check",
        Param::Cnf => "--cnf",
        Param::Models => "--models",
        Param::Sizes => "--n",
        Param::Threads => "--threads",
        Param::Why => "--why",
        Param::CheckProof => "--check-proof",
        Param::BoardSize => "N",
        Param::Heatmap => "--heatmap",
        Param::Fundamental => "--fundamental",
        Param::Shard => "--shard",
        Param::Engine => "--engine",
        Param::Backend => "--backend",
        Param::SolverOption => "--solver-option",
        Param::SplitRows => "--split-rows",
    }
}

/// Parses the command line; `--version` also lists the embedded solvers' versions.
fn parse_with_versions() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command()
        .long_version(backends::long_version())
        .try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match parse_with_versions() {
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
    queens_sat::vocabulary::set_spelling(flag);
    // The handler of Ctrl-C is installed when there is something to clean up.
    queens_sat::interrupt::set_hook(output::install_interrupt_handler);
    let result = match cli.command {
        Command::Encode(args) => encode::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Import(args) => import::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Sat(args) => sat::run(args),
        Command::Construct(args) => construct::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Count(args) => count::run(args),
        Command::Check(args) => check::run(args),
        Command::Trace(args) => trace::run(args),
        Command::Grade(args) => grade::run(args),
        Command::VerifyProof(args) => verify_proof::run(args),
    };
    if queens_sat::solve::interrupted() {
        // The interrupt handler killed the running solvers and is cleaning up: their deaths
        // are not this command's result. It exits with status 130 when done.
        std::thread::sleep(std::time::Duration::from_secs(10));
        return ExitCode::from(130);
    }
    match result {
        Ok(code) => code,
        // The reader of standard output went away (`queens-sat encode 300 | head`): not a failure.
        Err(_) if queens_sat::output::stdout_reader_gone() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_line(&e));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The instance of a command line read from a file's header (`queens-sat encode ...`, or
/// `explain` or `solve`, which write the same formula), parsed as that command parses it.
pub(crate) fn instance_of_command(
    words: &[String],
) -> std::result::Result<queens_sat::instance::Instance, String> {
    use clap::Parser;
    let cli = Cli::try_parse_from(words).map_err(|e| {
        let rendered = e.render().to_string();
        let first = rendered
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        first.trim().trim_start_matches("error: ").to_string()
    })?;
    let instance = match cli.command {
        Command::Encode(a) => a.formula.instance(a.n),
        Command::Explain(a) => a.formula.instance(a.n),
        Command::Solve(a) => a.formula.instance(a.n),
        _ => return Err("not a command that writes a formula (encode)".to_string()),
    };
    instance.map_err(|e| error_line(&e))
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

/// The parser of `--backend`: `varisat`, `cadical` or `kissat` (clap lists them on a typo). A backend
/// this build lacks is refused when it is used, naming the missing feature.
pub fn parse_backend() -> impl clap::builder::TypedValueParser<Value = queens_sat::solve::Backend> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(queens_sat::solve::Backend::NAMES)
        .map(|s| s.parse::<queens_sat::solve::Backend>().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option the library's messages name is spelled as a flag (or the positional N) that
    /// the command line has: a renamed flag fails here before a message names the old one.
    #[test]
    fn every_spelled_option_is_a_flag_of_the_command_line() {
        use clap::CommandFactory;
        let cli = Cli::command();
        let mut longs = std::collections::HashSet::new();
        let mut positionals = std::collections::HashSet::new();
        for sub in cli.get_subcommands() {
            for arg in sub.get_arguments() {
                if let Some(long) = arg.get_long() {
                    longs.insert(format!("--{long}"));
                }
                if arg.is_positional() {
                    if let Some(names) = arg.get_value_names() {
                        positionals.extend(names.iter().map(|n| n.to_string()));
                    }
                }
            }
        }
        for param in queens_sat::vocabulary::Param::ALL {
            let spelled = flag(param);
            assert!(
                longs.contains(spelled) || positionals.contains(spelled),
                "{param:?} is spelled {spelled}, which no command takes"
            );
        }
    }
}
