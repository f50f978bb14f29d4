//! `queens-sat trace N` or `trace FILE.cnf`: a small backtracking, DPLL or CDCL search on the
//! instance or the DIMACS file, every step recorded and said in words: as text, JSON, or one
//! self-contained HTML page ([`queens_sat::command::trace`]).

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use queens_sat::cnf::Lit;
use queens_sat::instance::{Formula, Instance, Model};
use queens_sat::trace::{
    Algorithm, Heuristic, Shown, TraceOptions, DEFAULT_MAX_STEPS, DEFAULT_SEED,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// Step by step in words, with small boards (Q queen, x excluded, . open).
    Text,
    /// One JSON object: the clauses and every step with its board (docs/formats.md).
    Json,
    /// One self-contained page: the board as SVG, the clause list, forward and back buttons
    /// and arrow keys, #step=K in the address (n <= 16).
    Html,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    /// Decisions only: no unit propagation; a conflict when a clause is all false;
    /// chronological backtracking.
    Backtracking,
    /// Decisions and unit propagation, chronological backtracking.
    Dpll,
    /// Unit propagation, first-UIP clause learning (each resolution step shown), backjumping.
    Cdcl,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HeuristicArg {
    /// The first open variable: the board's cells row by row, then the other variables.
    Fixed,
    /// VSIDS-style activity: conflicts bump the variables they involve, old bumps decay;
    /// ties to the fixed order.
    Vsids,
    /// An open variable drawn at random (xorshift32 seeded with --seed).
    Random,
}

#[derive(Args, Debug)]
pub struct TraceArgs {
    /// Board size (n x n, n >= 1), or a DIMACS file (any CNF: a path that exists or ends in
    /// .cnf); may be left out with --instance.
    #[arg(
        value_name = "N|FILE",
        allow_negative_numbers = true,
        required_unless_present = "instance"
    )]
    target: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The search: backtracking (no unit propagation), dpll or cdcl.
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    algorithm: Option<AlgorithmArg>,
    /// The same as --algorithm cdcl.
    #[arg(long)]
    learning: bool,
    /// The decision heuristic: fixed (the first open variable), vsids or random; every
    /// heuristic sets its variable true first.
    #[arg(long, value_enum, default_value = "fixed")]
    heuristic: HeuristicArg,
    /// The seed of --heuristic random (0 to 4294967295; default 1).
    #[arg(long, value_name = "S")]
    seed: Option<u32>,
    /// CDCL: restart after 4, 4, 8, 4, 4, 8, 16, ... conflicts (the Luby sequence times 4),
    /// keeping the learned clauses.
    #[arg(long)]
    restarts: bool,
    /// Propagate through two watched literals per clause, and show each step's watch moves
    /// and the clauses it makes unit.
    #[arg(long)]
    watches: bool,
    /// With --format text: only these parts, comma-separated (decide, propagate, conflict,
    /// learn, backjump, backtrack, flip, restart, resolution, watches, boards, patterns; or
    /// all). Hidden steps keep their numbers; the result and the totals are always shown
    #[arg(long, value_name = "PARTS", value_parser = parse_shown)]
    show: Option<Shown>,
    /// What if: at the K-th decision (1-based) take the DIMACS literal LIT instead (e.g.
    /// 2=-7); repeatable.
    #[arg(long, value_name = "K=LIT", value_parser = queens_sat::trace::parse_decision)]
    decide: Vec<(usize, Lit)>,
    /// With a DIMACS file: the board's cells, one line `ROW COLUMN VARIABLE` per cell (as
    /// `grade --map` takes it).
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// Stop with an error (exit 2, nothing written) past this many steps.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_MAX_STEPS)]
    max_steps: usize,
    /// The formula: model, encodings and the partial board (--place, --forbid, --instance),
    /// as for `solve`.
    #[command(flatten)]
    formula: super::solve::FormulaArgs,
    /// Output file (default: stdout), written whole or not at all.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// What the positional argument is.
enum Target {
    N(usize),
    File(PathBuf),
}

/// N when it reads as a number, else a DIMACS file: a path that exists or ends in `.cnf`.
fn target(s: &str) -> Result<Target> {
    let t = s.trim();
    if !t.ends_with(".cnf") && (t.parse::<i64>().is_ok() || t.starts_with('-')) {
        return Ok(Target::N(super::parse_n(t).map_err(anyhow::Error::msg)?));
    }
    let path = PathBuf::from(s);
    if path.exists() || s.ends_with(".cnf") {
        return Ok(Target::File(path));
    }
    bail!("'{s}' is neither a board size N nor a DIMACS file (no such file; a DIMACS file's name ends in .cnf)")
}

fn parse_shown(list: &str) -> Result<Shown, String> {
    Shown::parse(list).map_err(|e| e.to_string())
}

pub fn run(args: TraceArgs) -> Result<ExitCode> {
    use queens_sat::command::trace::{trace, Format as Out, TraceInput, TraceRequest};
    args.formula.refuse_as_output(&[args.output.as_deref()])?;
    let algorithm = match (args.algorithm, args.learning) {
        (None | Some(AlgorithmArg::Cdcl), true) => Algorithm::Cdcl,
        (Some(a), true) => bail!(
            "--learning means --algorithm cdcl, not {}",
            a.to_possible_value()
                .map_or_else(String::new, |v| v.get_name().to_string())
        ),
        (None, false) => Algorithm::Dpll,
        (Some(AlgorithmArg::Backtracking), false) => Algorithm::Backtracking,
        (Some(AlgorithmArg::Dpll), false) => Algorithm::Dpll,
        (Some(AlgorithmArg::Cdcl), false) => Algorithm::Cdcl,
    };
    let heuristic = match args.heuristic {
        HeuristicArg::Fixed => Heuristic::Fixed,
        HeuristicArg::Vsids => Heuristic::Vsids,
        HeuristicArg::Random => Heuristic::Random,
    };
    if args.seed.is_some() && heuristic != Heuristic::Random {
        bail!("--seed is the seed of --heuristic random; add it or leave --seed out");
    }
    let mut decisions = BTreeMap::new();
    for (k, l) in &args.decide {
        if decisions.insert(*k, *l).is_some() {
            bail!("--decide {k}=... is given twice");
        }
    }
    let target = args.target.as_deref().map(target).transpose()?;
    let input = match target {
        Some(Target::File(path)) => {
            let plain = Instance::new(8, Model::default())?;
            let same = args
                .formula
                .instance(Some(8))
                .is_ok_and(|i| i.name() == plain.name() && i.fixed() == plain.fixed());
            if args.formula.has_instance() || !same {
                bail!("a DIMACS file is traced as it is: the formula's options (--amo, --model, --place, --forbid, --instance, ...) are for a board size N");
            }
            let inputs: Vec<&std::path::Path> = std::iter::once(path.as_path())
                .chain(args.map.as_deref())
                .collect();
            queens_sat::output::refuse_input_as_output(&inputs, &[args.output.as_deref()])?;
            TraceInput::Cnf {
                path,
                map: args.map.clone(),
            }
        }
        n => {
            if args.map.is_some() {
                bail!("--map gives the board of a DIMACS file: trace FILE.cnf --map MAP");
            }
            let n = match n {
                Some(Target::N(n)) => Some(n),
                _ => None,
            };
            TraceInput::Instance(Box::new(args.formula.instance(n)?))
        }
    };
    let req = TraceRequest {
        input,
        format: match args.format {
            Format::Text => Out::Text(args.show.unwrap_or_default()),
            Format::Json | Format::Html if args.show.is_some() => {
                bail!("--show chooses what the text shows: the JSON and the page hold every step (use --format text)")
            }
            Format::Json => Out::Json,
            Format::Html => Out::Html,
        },
        options: TraceOptions {
            algorithm,
            heuristic,
            seed: args.seed.unwrap_or(DEFAULT_SEED),
            restarts: args.restarts,
            watches: args.watches,
            max_steps: args.max_steps,
            decisions,
        },
        output: args.output,
    };
    Ok(ExitCode::from(
        trace(&req, &super::instance_of_command)?.exit_code(),
    ))
}
