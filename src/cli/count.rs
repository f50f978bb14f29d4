//! `queens-sat count N`: the number of solutions and of fundamental solutions, or the solutions
//! themselves with `--list`.

use super::output::write_output;
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens_sat::count::{self, Counter, Outcome, Progress};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Readable text.
    Text,
    /// One JSON object.
    Json,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size (n x n, 1 <= n <= 32).
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true)]
    n: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// List the solutions (one-line form, 1-based columns) instead of counting them.
    #[arg(long)]
    list: bool,
    /// With --list: one representative per symmetry class (the smallest of its 8 images).
    #[arg(long)]
    fundamental: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Record finished sub-problems in FILE and resume from it if it exists.
    #[arg(long, value_name = "FILE", conflicts_with = "list")]
    checkpoint: Option<PathBuf>,
    /// Output file (default: stdout).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: CountArgs) -> Result<ExitCode> {
    count::check_n(args.n)?;
    if args.fundamental && !args.list {
        bail!(
            "--fundamental goes with --list (the count always reports the fundamental solutions)"
        );
    }
    if args.list {
        return list(&args);
    }
    let bar = Bar::new();
    let mut counter = Counter::new(args.n)?;
    if let Some(k) = args.threads {
        counter = counter.threads(k as usize);
    }
    if let Some(p) = &args.checkpoint {
        counter = counter.checkpoint(p);
    }
    counter = counter.on_progress(|p| bar.update(p));
    let outcome = counter.run();
    bar.finish();
    let c = match outcome? {
        Outcome::Complete(c) => c,
        Outcome::Stopped(p) => bail!(
            "the count stopped after {} of {} sub-problems",
            p.done,
            p.total
        ),
    };
    write_output(args.output.as_deref(), |w| match args.format {
        Format::Json => {
            serde_json::to_writer(&mut *w, &c).map_err(std::io::Error::other)?;
            writeln!(w)
        }
        Format::Text => {
            writeln!(w, "n = {}", c.n)?;
            writeln!(w, "solutions: {}", c.total)?;
            writeln!(w, "fundamental solutions: {}", c.fundamental)?;
            let k = c.classes;
            write!(
                w,
                "classes by size: {} of 8, {} of 4, {} of 2",
                k.of8, k.of4, k.of2
            )?;
            if k.of1 > 0 {
                write!(w, ", {} of 1", k.of1)?;
            }
            writeln!(w)
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

fn list(args: &CountArgs) -> Result<ExitCode> {
    let n = args.n;
    let fundamental = args.fundamental;
    let sols: Box<dyn Iterator<Item = queens_sat::Placement>> = if fundamental {
        Box::new(count::fundamental_solutions(n))
    } else {
        Box::new(count::solutions(n))
    };
    write_output(args.output.as_deref(), |w| match args.format {
        Format::Text => {
            for s in sols {
                writeln!(w, "{s}")?;
            }
            Ok(())
        }
        Format::Json => {
            write!(
                w,
                "{{\"n\":{n},\"fundamental\":{fundamental},\"solutions\":["
            )?;
            for (i, s) in sols.enumerate() {
                let cols: Vec<u32> = s.cols().iter().map(|c| c + 1).collect();
                if i > 0 {
                    write!(w, ",")?;
                }
                serde_json::to_writer(&mut *w, &cols).map_err(std::io::Error::other)?;
            }
            writeln!(w, "]}}")
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A progress bar on stderr, shown only on a terminal and only once a run has lasted a second.
struct Bar {
    start: Instant,
    bar: Option<Mutex<ProgressBar>>,
}

impl Bar {
    fn new() -> Bar {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
            b.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {pos}/{len} sub-problems, about {eta} left",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            Mutex::new(b)
        });
        Bar {
            start: Instant::now(),
            bar,
        }
    }

    fn update(&self, p: Progress) {
        let Some(bar) = &self.bar else { return };
        let Ok(b) = bar.lock() else { return };
        if b.length() != Some(p.total as u64) {
            b.set_length(p.total as u64);
        }
        if b.is_hidden() && self.start.elapsed() > Duration::from_secs(1) {
            b.set_draw_target(ProgressDrawTarget::stderr());
        }
        b.set_position(p.done as u64);
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            if let Ok(b) = bar.lock() {
                b.finish_and_clear();
            }
        }
    }
}
