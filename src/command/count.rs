//! `queens-sat count`: the number of solutions and of fundamental solutions of the empty board
//! (with a checkpoint, or one shard of the work, and the merge of the shards), of an instance
//! file's board, or the solutions themselves ([`count()`]); and the rendering of counts and
//! lists ([`write_counts`], [`write_list`]). A [`CountRequest`] says which of these the command
//! does, with only the settings that go with it.

use super::Ending;
use crate::board::picture::{MAX_GRID_BOARDS, MAX_GRID_N, MAX_HEATMAP_N};
use crate::board::{Geometry, MaskedBoard, MaskedError, Placement};
use crate::count::{self, CountError, Counter, Counts, MergeError, Outcome, Progress, Shard};
use crate::input::ReadError;
use crate::output::{write_output, OutputError};
use crate::vocabulary::Param;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to write counts, and listed solutions as lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Readable text.
    Text,
    /// One JSON object.
    Json,
}

/// How to write a list of solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFormat {
    /// One solution a line, or one JSON object ([`write_list`]).
    Lines(Format),
    /// The solutions drawn as a grid of small boards (SVG, at most [`MAX_GRID_BOARDS`]).
    Svg,
}

/// An instance file whose board is counted or listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceFile {
    /// The file (docs/formats.md), or a parameter file of the literature.
    pub path: PathBuf,
    /// Of an Excluded Diagonals parameter file: its first D diagonals (all when `None`).
    pub diagonals: Option<usize>,
}

/// A board whose solutions are listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// The empty n x n board.
    Empty(usize),
    /// An instance file's board.
    Instance(InstanceFile),
}

/// Which solutions a list holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Every solution of the board, in lexicographic order.
    Every(Board),
    /// One representative per symmetry class of the empty n x n board (the smallest of its
    /// images).
    Fundamental(usize),
}

/// What `queens-sat count` does: each variant holds the settings that go with it. Where an
/// `output` is `None` the result goes to the `out` of [`count()`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountRequest {
    /// Count the solutions, fundamental solutions and classes of the empty n x n board.
    Count {
        /// Board size.
        n: usize,
        /// Worker threads (all cores when `None`).
        threads: Option<usize>,
        /// Record finished sub-problems in this file and resume from it.
        checkpoint: Option<PathBuf>,
        /// Also draw the heatmap of solutions per cell to this SVG file (n <= [`HEATMAP_MAX_N`]).
        heatmap: Option<PathBuf>,
        /// How to write the counts.
        format: Format,
        /// The output file.
        output: Option<PathBuf>,
    },
    /// Count the solutions of an instance file's board, by the bitboard counter.
    CountInstance {
        /// The instance file.
        instance: InstanceFile,
        /// Worker threads (all cores when `None`).
        threads: Option<usize>,
        /// Also draw the heatmap of solutions per cell to this SVG file.
        heatmap: Option<PathBuf>,
        /// How to write the count.
        format: Format,
        /// The output file.
        output: Option<PathBuf>,
    },
    /// List solutions instead of counting them.
    List {
        /// Which solutions, of which board.
        listing: Listing,
        /// How to write them.
        format: ListFormat,
        /// The output file.
        output: Option<PathBuf>,
    },
    /// Count one shard of the empty board's sub-problems into a shard file (resumed when the
    /// file exists); a line saying what the shard holds goes to `out`.
    Shard {
        /// Board size.
        n: usize,
        /// The shard.
        shard: Shard,
        /// The shard file.
        file: PathBuf,
        /// Worker threads (all cores when `None`).
        threads: Option<usize>,
    },
    /// Merge shard files and write the counts of the whole board, as [`CountRequest::Count`]
    /// writes them.
    Merge {
        /// The shard files.
        files: Vec<PathBuf>,
        /// The board size the files must have (any when `None`).
        n: Option<usize>,
        /// How to write the counts.
        format: Format,
        /// The output file.
        output: Option<PathBuf>,
    },
}

/// What a count reports as it goes (the command line draws a progress bar), from the
/// counter's threads. Every method does nothing unless implemented.
pub trait CountProgress: Sync {
    /// The sub-problems done, of all.
    fn update(&self, progress: Progress) {
        let _ = progress;
    }
    /// The count is over (the results come next).
    fn finish(&self) {}
}

/// No progress reported.
impl CountProgress for () {}

/// Why a count could not run or be written.
#[derive(Debug, thiserror::Error)]
pub enum CountCommandError {
    /// The heatmap of an empty board past [`HEATMAP_MAX_N`]: too long to count.
    #[error(
        "{} counts the solutions once per cell, about n times the work of one count: \
         n <= {HEATMAP_MAX_N} (n = {HEATMAP_MAX_N} takes seconds, each n more about 6 times longer)",
        Param::Heatmap
    )]
    HeatmapTooCostly,
    /// A heatmap of a board past [`MAX_HEATMAP_N`].
    #[error("{} draws boards up to n = {MAX_HEATMAP_N}", Param::Heatmap)]
    HeatmapTooLarge,
    /// A grid of solutions of boards past [`MAX_GRID_N`].
    #[error("{} svg draws boards up to n = {MAX_GRID_N}", Param::Format)]
    GridTooLarge,
    /// A grid of more than [`MAX_GRID_BOARDS`] solutions.
    #[error(
        "{} svg draws at most {MAX_GRID_BOARDS} boards and this list has more; \
         use {}, or the text list",
        Param::Format,
        Param::Fundamental
    )]
    GridTooMany,
    /// The board size asked for is not the shard files'.
    #[error(
        "n = {n} disagrees with the shard files (n = {files}); leave {} out",
        Param::BoardSize
    )]
    MergedSize {
        /// The size asked for.
        n: usize,
        /// The files' size.
        files: usize,
    },
    /// The counter stopped before the end.
    #[error("the count stopped after {} of {} sub-problems", .0.done, .0.total)]
    Stopped(Progress),
    /// The kernel variable ([`count::KERNEL_VARIABLE`]) names no kernel this processor runs.
    #[error("{0}")]
    Kernel(String),
    /// The counter refused or failed.
    #[error("{0}")]
    Count(#[from] CountError),
    /// The bitboard counter cannot take the board.
    #[error("{0}")]
    Masked(#[from] MaskedError),
    /// The shard files do not merge.
    #[error("{0}")]
    Merge(#[from] MergeError),
    /// A file cannot be read, or the output file or standard output written.
    #[error(transparent)]
    Failure(#[from] super::Failure),
}

failures_into!(CountCommandError: ReadError, crate::family::InstanceFileError, OutputError, io::Error);

/// The largest shard file a merge reads: 1 GB (a shard of n = 32 holds at most some millions
/// of lines of under 100 bytes).
const MERGE_FILE_MAX: u64 = 1 << 30;

/// Largest n of the heatmap of an empty board (one exact count per cell: about n counts in
/// all).
pub const HEATMAP_MAX_N: usize = 14;

/// Does what `req` asks: the counts or the list go to the output file or `out`, notes to
/// `log`, the counter's progress to `progress`.
pub fn count(
    req: &CountRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &dyn CountProgress,
) -> Result<Ending, CountCommandError> {
    // No output replaces a file read: the instance file, the shard files merged.
    let (inputs, outputs): (Vec<&Path>, [Option<&Path>; 2]) = match req {
        CountRequest::CountInstance {
            instance,
            heatmap,
            output,
            ..
        } => (
            vec![&instance.path],
            [output.as_deref(), heatmap.as_deref()],
        ),
        CountRequest::List {
            listing: Listing::Every(Board::Instance(instance)),
            output,
            ..
        } => (vec![&instance.path], [output.as_deref(), None]),
        CountRequest::Merge { files, output, .. } => (
            files.iter().map(PathBuf::as_path).collect(),
            [output.as_deref(), None],
        ),
        _ => (Vec::new(), [None, None]),
    };
    crate::output::refuse_input_as_output(&inputs, &outputs)?;
    match req {
        CountRequest::Count {
            n,
            threads,
            checkpoint,
            heatmap,
            format,
            output,
        } => {
            let n = *n;
            // Before anything is written (the heatmap below).
            let mut counter = counter(n)?;
            if let Some(path) = heatmap {
                if n > HEATMAP_MAX_N {
                    return Err(CountCommandError::HeatmapTooCostly);
                }
                let board = MaskedBoard::new(n, Geometry::Square)?;
                write_heatmap(path, &board, &format!("n = {n}"))?;
            }
            if let Some(p) = checkpoint {
                counter = counter.checkpoint(p);
            }
            let c = run(counter, *threads, progress)?;
            write_output(output.as_deref(), |w| write_counts(w, *format, &c))?;
        }
        CountRequest::Shard {
            n,
            shard,
            file,
            threads,
        } => {
            let c = run(
                counter(*n)?.shard(*shard).checkpoint(file),
                *threads,
                progress,
            )?;
            let k = c.classes;
            writeln!(
                out,
                "n = {}, shard {shard}: {} solutions (classes of 8, 4, 2: {}, {}, {}), in {}",
                c.n,
                c.total,
                k.of8,
                k.of4,
                k.of2,
                file.display()
            )?;
        }
        CountRequest::CountInstance {
            instance,
            threads,
            heatmap,
            format,
            output,
        } => {
            let (spec, board) = read_instance(instance)?;
            if let Some(path) = heatmap {
                write_heatmap(path, &board, &spec.describe())?;
            }
            if let Some(k) = *threads {
                // The counter runs on rayon's global pool.
                let _ = rayon::ThreadPoolBuilder::new()
                    .num_threads(k)
                    .build_global();
            }
            let start = Instant::now();
            let total = count::count_masked(&board);
            let seconds = start.elapsed().as_secs_f64();
            write_output(output.as_deref(), |w| {
                write_instance_count(w, *format, &spec, &board, (total, seconds))
            })?;
        }
        CountRequest::List {
            listing,
            format,
            output,
        } => list(listing, *format, output.as_deref())?,
        CountRequest::Merge {
            files,
            n,
            format,
            output,
        } => merge(files, *n, *format, output.as_deref(), log)?,
    }
    Ok(Ending::Success)
}

/// The counter of the empty n x n board, once n and the kernel variable
/// ([`count::KERNEL_VARIABLE`]) are found good.
fn counter<'a>(n: usize) -> Result<Counter<'a>, CountCommandError> {
    let counter = Counter::new(n)?;
    count::check_kernel_variable().map_err(CountCommandError::Kernel)?;
    Ok(counter)
}

/// Runs `counter` on `threads` threads, reporting to `progress`, to its counts.
fn run(
    mut counter: Counter<'_>,
    threads: Option<usize>,
    progress: &dyn CountProgress,
) -> Result<Counts, CountCommandError> {
    if let Some(k) = threads {
        counter = counter.threads(k);
    }
    let outcome = counter.on_progress(|p| progress.update(p)).run();
    progress.finish();
    match outcome? {
        Outcome::Complete(c) => Ok(c),
        Outcome::Stopped(p) => Err(CountCommandError::Stopped(p)),
    }
}

/// The counts of the whole board from its shard files (of size `n` when given), written as an
/// unsharded count writes them.
fn merge(
    paths: &[PathBuf],
    n: Option<usize>,
    format: Format,
    output: Option<&Path>,
    log: &mut dyn Write,
) -> Result<(), CountCommandError> {
    let mut files = Vec::new();
    for path in paths {
        let text = crate::input::read_text_file(path, MERGE_FILE_MAX, "shard file")?;
        files.push((path.clone(), text));
    }
    let merged = count::merge(&files)?;
    let c = merged.counts;
    if let Some(n) = n.filter(|&n| n != c.n) {
        return Err(CountCommandError::MergedSize { n, files: c.n });
    }
    let _ = writeln!(
        log,
        "merged {} shards of n = {}: {} sub-problems",
        merged.shards.len(),
        c.n,
        merged.shards.iter().map(|s| s.sub_problems).sum::<usize>()
    );
    write_output(output, |w| write_counts(w, format, &c))?;
    Ok(())
}

/// Writes the heatmap of `board`'s per-cell counts to `path`.
fn write_heatmap(path: &Path, board: &MaskedBoard, what: &str) -> Result<(), CountCommandError> {
    let n = board.n();
    if n > MAX_HEATMAP_N {
        return Err(CountCommandError::HeatmapTooLarge);
    }
    let counts = count::cell_counts(board);
    let total: u64 = counts[..n].iter().sum();
    let title = format!("{what}: solutions with a queen on each cell ({total} solutions)");
    write_output(Some(path), |w| {
        crate::board::picture::write_heatmap(w, n, &counts, &title)
    })?;
    Ok(())
}

/// Writes counts as text or JSON.
pub fn write_counts(w: &mut dyn Write, format: Format, c: &Counts) -> io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer(&mut *w, &c).map_err(io::Error::other)?;
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
    }
}

/// What a solution lister calls with each solution; it breaks to stop the listing.
pub type Visit<'a> = &'a mut dyn FnMut(&Placement) -> ControlFlow<()>;

/// The fundamental solutions of the empty board, in order, for [`write_list`].
fn fundamental(n: usize) -> impl FnOnce(Visit<'_>) {
    move |f| {
        for s in crate::board::fundamental_solutions(n) {
            if f(&s).is_break() {
                break;
            }
        }
    }
}

/// Every solution of `board`, by the bitboard search, for [`write_list`].
fn board_solutions(board: &MaskedBoard) -> impl FnOnce(Visit<'_>) + '_ {
    move |f| {
        count::for_each_solution_masked(board, f);
    }
}

/// Lists the solutions `listing` names, as `format` says, to `output` (stdout when `None`).
fn list(
    listing: &Listing,
    format: ListFormat,
    output: Option<&Path>,
) -> Result<(), CountCommandError> {
    // The board searched and the title of its grid, unless the fundamental solutions are
    // listed.
    let (n, searched) = match listing {
        Listing::Fundamental(n) => {
            count::check_n(*n)?;
            (*n, None)
        }
        Listing::Every(Board::Empty(n)) => {
            count::check_n(*n)?;
            let board = MaskedBoard::new(*n, Geometry::Square)?;
            (*n, Some((board, format!("n = {n}: every solution"))))
        }
        Listing::Every(Board::Instance(instance)) => {
            let (spec, board) = read_instance(instance)?;
            let title = format!("{}: every solution", spec.describe());
            (spec.n, Some((board, title)))
        }
    };
    match (format, &searched) {
        (ListFormat::Svg, None) => write_grid(
            output,
            n,
            &format!("n = {n}: one solution of each symmetry class"),
            fundamental(n),
        ),
        (ListFormat::Svg, Some((board, title))) => {
            write_grid(output, n, title, board_solutions(board))
        }
        (ListFormat::Lines(f), None) => Ok(write_output(output, |w| {
            write_list(w, f, n, true, fundamental(n))
        })?),
        // The bitboard search streams the solutions in the same lexicographic order.
        (ListFormat::Lines(f), Some((board, _))) => Ok(write_output(output, |w| {
            write_list(w, f, n, false, board_solutions(board))
        })?),
    }
}

/// The solutions that `each` lists drawn as a grid of boards, refused past
/// [`MAX_GRID_BOARDS`] solutions.
fn write_grid(
    output: Option<&Path>,
    n: usize,
    title: &str,
    each: impl FnOnce(Visit<'_>),
) -> Result<(), CountCommandError> {
    if n > MAX_GRID_N {
        return Err(CountCommandError::GridTooLarge);
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
        return Err(CountCommandError::GridTooMany);
    }
    write_output(output, |w| {
        crate::board::picture::write_solutions(w, n, &sols, title)
    })?;
    Ok(())
}

/// Writes listed solutions (text or JSON) as `each` finds them, flushing every 200 ms and
/// stopping at the first write error. `each` calls its argument with every solution until it
/// breaks.
pub fn write_list(
    w: &mut dyn Write,
    format: Format,
    n: usize,
    fundamental: bool,
    each: impl FnOnce(Visit<'_>),
) -> io::Result<()> {
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
            Format::Text => writeln!(w, "{s}"),
            Format::Json => {
                let cols: Vec<u32> = s.cols().iter().map(|c| c + 1).collect();
                let sep = if first { Ok(()) } else { write!(w, ",") };
                sep.and_then(|_| serde_json::to_writer(&mut *w, &cols).map_err(io::Error::other))
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

/// Reads `instance`: its description and the board of the bitboard counter.
fn read_instance(
    instance: &InstanceFile,
) -> Result<(crate::family::InstanceSpec, MaskedBoard), CountCommandError> {
    let path = &instance.path;
    let spec = crate::family::read_instance_file(path, instance.diagonals)?;
    let inst = spec.instance(Default::default()).map_err(|error| {
        crate::family::InstanceFileError::Model {
            path: path.to_path_buf(),
            error,
        }
    })?;
    let board = crate::instance::masked_board(&inst)?;
    Ok((spec, board))
}

/// Writes the count of an instance's `board` (its solutions and the seconds the count took),
/// with the board's symmetries.
fn write_instance_count(
    w: &mut dyn Write,
    format: Format,
    spec: &crate::family::InstanceSpec,
    board: &MaskedBoard,
    (total, seconds): (u64, f64),
) -> io::Result<()> {
    let symmetries: Vec<String> = board
        .symmetries()
        .iter()
        .map(|s| format!("{s:?}").to_lowercase())
        .collect();
    match format {
        Format::Json => {
            let doc = serde_json::json!({
                "n": spec.n,
                "instance": spec.describe(),
                "board": spec.geometry.name(),
                "total": total,
                "symmetries": symmetries,
                "seconds": seconds,
            });
            serde_json::to_writer(&mut *w, &doc).map_err(io::Error::other)?;
            writeln!(w)
        }
        Format::Text => {
            writeln!(w, "instance: {}", spec.describe())?;
            writeln!(w, "n = {}, {} board", spec.n, spec.geometry.name())?;
            writeln!(w, "solutions: {total}")?;
            writeln!(w, "symmetries of the instance: {}", symmetries.join(", "))
        }
    }
}
