//! `queens-sat count N`: the number of solutions and of fundamental solutions, or the solutions
//! themselves with `--list`.

use super::output::write_output;
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens_sat::check::Geometry;
use queens_sat::count::{self, Counter, MaskedBoard, Outcome, Progress};
use std::io::IsTerminal;
use std::io::Write;
use std::ops::ControlFlow;
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
    /// With --list: the solutions drawn as a grid of small boards (SVG, at most 1000).
    Svg,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size (n x n, 1 <= n <= 32); left out with --instance.
    #[arg(value_parser = super::parse_n, allow_negative_numbers = true, required_unless_present_any = ["instance", "merge"], conflicts_with = "instance")]
    n: Option<usize>,
    /// Count the solutions of an instance file (docs/formats.md; n <= 64): pre-placed queens,
    /// blocked cells, excluded diagonals, toroidal boards. The board's symmetries are used only
    /// where the instance has them.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["checkpoint", "fundamental"])]
    instance: Option<PathBuf>,
    #[command(flatten)]
    diagonals: super::import::DiagonalsArg,
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
    /// Also draw a heatmap of the board to FILE (SVG): how many solutions put a queen on each
    /// cell, by one exact count per cell (n <= 14; with --instance, boards up to n = 64 as
    /// far as their counts are quick).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["list", "checkpoint", "shard", "merge"])]
    heatmap: Option<PathBuf>,
    /// Record finished sub-problems in FILE and resume from it if it exists.
    #[arg(long, value_name = "FILE", conflicts_with = "list")]
    checkpoint: Option<PathBuf>,
    /// Output file (default: stdout). With --shard, the shard file: written as sub-problems
    /// finish, resumed when the same command runs again on it.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Count only shard I of K (1-based) of the sub-problems, dealt by estimated cost so that
    /// shards take similar time, into the shard file given with -o; `--merge` joins the K
    /// files (docs/cluster.md).
    #[arg(long, value_name = "I/K", value_parser = queens_sat::input::parse_shard, requires = "output", conflicts_with_all = ["list", "checkpoint", "instance", "merge"])]
    shard: Option<count::Shard>,
    /// Merge the shard files of a sharded count (every shard once, all of the same n, split
    /// and version, each complete and intact) and print the counts of the whole board.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["list", "checkpoint", "instance", "threads"])]
    merge: Vec<PathBuf>,
}

pub fn run(args: CountArgs) -> Result<ExitCode> {
    args.diagonals.check(args.instance.is_some())?;
    if let Some(path) = &args.instance {
        return count_instance(&args, path);
    }
    if !args.merge.is_empty() {
        return merge(&args);
    }
    let n = args.n.unwrap_or_default();
    count::check_n(n)?;
    if args.fundamental && !args.list {
        bail!(
            "--fundamental goes with --list (the count always reports the fundamental solutions)"
        );
    }
    if args.format == Format::Svg && !args.list {
        bail!("--format svg goes with --list (a grid of the solutions); --heatmap FILE draws the counts per cell");
    }
    if args.list {
        return list(&args);
    }
    if let Some(path) = &args.heatmap {
        if n > HEATMAP_MAX_N {
            bail!(
                "--heatmap counts the solutions once per cell, about n times the work of one count: \
                 n <= {HEATMAP_MAX_N} (n = {HEATMAP_MAX_N} takes seconds, each n more about 6 times longer)"
            );
        }
        let board = MaskedBoard::new(n, Geometry::Square)?;
        write_heatmap(path, &board, &format!("n = {n}"))?;
    }
    let bar = Bar::new();
    let mut counter = Counter::new(n)?;
    if let Some(k) = args.threads {
        counter = counter.threads(k as usize);
    }
    if let Some(p) = &args.checkpoint {
        counter = counter.checkpoint(p);
    }
    if let (Some(shard), Some(file)) = (args.shard, &args.output) {
        counter = counter.shard(shard).checkpoint(file);
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
    if let (Some(shard), Some(file)) = (args.shard, &args.output) {
        let k = c.classes;
        println!(
            "n = {n}, shard {shard}: {} solutions (classes of 8, 4, 2: {}, {}, {}), in {}",
            c.total,
            k.of8,
            k.of4,
            k.of2,
            file.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    write_counts(args.output.as_deref(), args.format, &c)?;
    Ok(ExitCode::SUCCESS)
}

/// `count --merge FILE...`: the counts of the whole board from its shard files, printed as an
/// unsharded count prints them.
fn merge(args: &CountArgs) -> Result<ExitCode> {
    let mut files = Vec::new();
    for path in &args.merge {
        let text = super::read_text_file(path, MERGE_FILE_MAX, "shard file")?;
        files.push((path.clone(), text));
    }
    let merged = count::merge(&files)?;
    let c = merged.counts;
    if let Some(n) = args.n.filter(|&n| n != c.n) {
        bail!(
            "n = {n} disagrees with the shard files (n = {}); leave N out",
            c.n
        );
    }
    eprintln!(
        "merged {} shards of n = {}: {} sub-problems",
        merged.shards.len(),
        c.n,
        merged.shards.iter().map(|s| s.sub_problems).sum::<usize>()
    );
    write_counts(args.output.as_deref(), args.format, &c)?;
    Ok(ExitCode::SUCCESS)
}

/// The largest shard file `--merge` reads: 1 GB (a shard of n = 32 holds at most some
/// millions of lines of under 100 bytes).
const MERGE_FILE_MAX: u64 = 1 << 30;

/// Largest n of `count N --heatmap` (one exact count per cell: about n counts in all).
const HEATMAP_MAX_N: usize = 14;

/// Writes the heatmap of `board`'s per-cell counts to `path`.
fn write_heatmap(path: &std::path::Path, board: &MaskedBoard, what: &str) -> Result<()> {
    let n = board.n();
    if n > queens_sat::picture::MAX_HEATMAP_N {
        bail!(
            "--heatmap draws boards up to n = {}",
            queens_sat::picture::MAX_HEATMAP_N
        );
    }
    let counts = count::cell_counts(board);
    let total: u64 = counts[..n].iter().sum();
    let title = format!("{what}: solutions with a queen on each cell ({total} solutions)");
    write_output(Some(path), |w| {
        queens_sat::picture::write_heatmap(w, n, &counts, &title)
    })
}

/// Prints counts as text or JSON to the output file or stdout.
fn write_counts(output: Option<&std::path::Path>, format: Format, c: &count::Counts) -> Result<()> {
    write_output(output, |w| match format {
        Format::Json => {
            serde_json::to_writer(&mut *w, &c).map_err(std::io::Error::other)?;
            writeln!(w)
        }
        Format::Text | Format::Svg => {
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
    Ok(())
}

fn list(args: &CountArgs) -> Result<ExitCode> {
    let n = args.n.unwrap_or_default();
    let fundamental = args.fundamental;
    if args.format == Format::Svg {
        let title = format!(
            "n = {n}: {}",
            if fundamental {
                "one solution of each symmetry class"
            } else {
                "every solution"
            }
        );
        let each: Box<dyn FnOnce(Visit<'_>)> = if fundamental {
            Box::new(move |f: Visit<'_>| {
                for s in count::fundamental_solutions(n) {
                    if f(&s).is_break() {
                        break;
                    }
                }
            })
        } else {
            let board = MaskedBoard::new(n, Geometry::Square)?;
            Box::new(move |f: Visit<'_>| {
                count::for_each_solution_masked(&board, f);
            })
        };
        return write_grid(args, n, &title, each);
    }
    if fundamental {
        write_output(args.output.as_deref(), |w| {
            write_list(w, args.format, n, true, |f| {
                for s in count::fundamental_solutions(n) {
                    if f(&s).is_break() {
                        break;
                    }
                }
            })
        })?;
    } else {
        // The bitboard search streams the solutions in the same lexicographic order.
        let board = MaskedBoard::new(n, Geometry::Square)?;
        write_output(args.output.as_deref(), |w| {
            write_list(w, args.format, n, false, board_solutions(&board))
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `count --list --format svg`: the solutions that `each` lists drawn as a grid of boards,
/// refused (exit 2) past [`queens_sat::picture::MAX_GRID_BOARDS`] solutions.
fn write_grid(
    args: &CountArgs,
    n: usize,
    title: &str,
    each: impl FnOnce(Visit<'_>),
) -> Result<ExitCode> {
    use queens_sat::picture::{MAX_GRID_BOARDS, MAX_GRID_N};
    if n > MAX_GRID_N {
        bail!("--format svg draws boards up to n = {MAX_GRID_N}");
    }
    let mut sols = Vec::new();
    each(&mut |p| {
        sols.push(p.clone());
        if sols.len() > MAX_GRID_BOARDS {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if sols.len() > MAX_GRID_BOARDS {
        bail!(
            "--format svg draws at most {MAX_GRID_BOARDS} boards and this list has more; \
             use --fundamental, or the text list"
        );
    }
    write_output(args.output.as_deref(), |w| {
        queens_sat::picture::write_solutions(w, n, &sols, title)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// What a solution lister calls with each solution; it breaks to stop the listing.
type Visit<'a> = &'a mut dyn FnMut(&queens_sat::Placement) -> ControlFlow<()>;

/// Writes listed solutions (text or JSON) as `each` finds them, flushing every 200 ms and
/// stopping at the first write error. `each` calls its argument with every solution until it
/// breaks.
fn write_list(
    w: &mut dyn Write,
    format: Format,
    n: usize,
    fundamental: bool,
    each: impl FnOnce(Visit<'_>),
) -> std::io::Result<()> {
    let mut first = true;
    let mut failed = None;
    // Zero: the first solution is flushed at once.
    let mut last_flush = Instant::now()
        .checked_sub(Duration::from_secs(1))
        .unwrap_or_else(Instant::now);
    if format == Format::Json {
        write!(
            w,
            "{{\"n\":{n},\"fundamental\":{fundamental},\"solutions\":["
        )?;
    }
    each(&mut |s| {
        let r = match format {
            Format::Text | Format::Svg => writeln!(w, "{s}"),
            Format::Json => {
                let cols: Vec<u32> = s.cols().iter().map(|c| c + 1).collect();
                let sep = if first { Ok(()) } else { write!(w, ",") };
                sep.and_then(|_| {
                    serde_json::to_writer(&mut *w, &cols).map_err(std::io::Error::other)
                })
            }
        };
        first = false;
        // Solutions can come slowly (n = 32 takes seconds for the first ones): a reader such
        // as `head -1` gets them at once, not when a buffer fills.
        let r = r.and_then(|_| {
            if last_flush.elapsed() > Duration::from_millis(200) {
                last_flush = Instant::now();
                w.flush()
            } else {
                Ok(())
            }
        });
        match r {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if format == Format::Json {
        writeln!(w, "]}}")?;
    }
    Ok(())
}

/// Every solution of `board`, by the bitboard search, for [`write_list`].
fn board_solutions(board: &MaskedBoard) -> impl FnOnce(Visit<'_>) + '_ {
    move |f| {
        count::for_each_solution_masked(board, f);
    }
}

/// `count --instance FILE`: the exact number of solutions of the instance by the bitboard
/// counter (or, with --list, the solutions).
fn count_instance(args: &CountArgs, path: &std::path::Path) -> Result<ExitCode> {
    let spec = super::read_instance_file_with(path, args.diagonals.diagonals)?;
    let inst = spec
        .instance(Default::default())
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let board = count::board_of(&inst)?;
    if args.list && args.format == Format::Svg {
        let title = format!("{}: every solution", spec.describe());
        return write_grid(args, spec.n, &title, board_solutions(&board));
    }
    if args.format == Format::Svg {
        bail!("--format svg goes with --list (a grid of the solutions); --heatmap FILE draws the counts per cell");
    }
    if let Some(path) = &args.heatmap {
        write_heatmap(path, &board, &spec.describe())?;
    }
    if args.list {
        write_output(args.output.as_deref(), |w| {
            write_list(w, args.format, spec.n, false, board_solutions(&board))
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(k) = args.threads {
        // The counter runs on rayon's global pool.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(k as usize)
            .build_global();
    }
    let start = Instant::now();
    let total = count::count_masked(&board);
    let seconds = start.elapsed().as_secs_f64();
    let symmetries: Vec<String> = board
        .symmetries()
        .iter()
        .map(|s| format!("{s:?}").to_lowercase())
        .collect();
    write_output(args.output.as_deref(), |w| match args.format {
        Format::Json => {
            let doc = serde_json::json!({
                "n": spec.n,
                "instance": spec.describe(),
                "board": spec.geometry.name(),
                "total": total,
                "symmetries": symmetries,
                "seconds": seconds,
            });
            serde_json::to_writer(&mut *w, &doc).map_err(std::io::Error::other)?;
            writeln!(w)
        }
        Format::Text | Format::Svg => {
            writeln!(w, "instance: {}", spec.describe())?;
            writeln!(w, "n = {}, {} board", spec.n, spec.geometry.name())?;
            writeln!(w, "solutions: {total}")?;
            writeln!(w, "symmetries of the instance: {}", symmetries.join(", "))
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
