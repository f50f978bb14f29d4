//! `queens-sat count N`: the number of solutions and of fundamental solutions (with a
//! checkpoint, or one shard of the work, and the merge of the shards), of an instance file's
//! board, or the solutions themselves ([`count()`]); and the rendering of counts and lists
//! ([`write_counts`], [`write_list`]).

use super::Ending;
use crate::board::{Geometry, MaskedBoard, MaskedError, Placement};
use crate::count::{self, CountError, Counter, Counts, MergeError, Outcome, Progress, Shard};
use crate::input::ReadError;
use crate::instance::InstanceError;
use crate::output::{write_output, OutputError};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to write counts and lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Readable text.
    Text,
    /// One JSON object.
    Json,
    /// With a list: the solutions drawn as a grid of small boards (SVG).
    Svg,
}

/// A count as `queens-sat count` asks for it.
#[derive(Clone, Debug)]
pub struct CountRequest {
    /// Board size (with `merge`, checked against the shard files'; unused with `instance`).
    pub n: Option<usize>,
    /// Count the solutions of this instance file's board instead.
    pub instance: Option<PathBuf>,
    /// The first D diagonals of an Excluded Diagonals parameter file (`--diagonals D`).
    pub diagonals: Option<usize>,
    /// How to write the counts or the list.
    pub format: Format,
    /// List the solutions instead of counting them.
    pub list: bool,
    /// With `list`: one representative per symmetry class.
    pub fundamental: bool,
    /// Worker threads.
    pub threads: Option<usize>,
    /// Also draw the heatmap of solutions per cell to this SVG file.
    pub heatmap: Option<PathBuf>,
    /// Record finished sub-problems in this file and resume from it.
    pub checkpoint: Option<PathBuf>,
    /// The output file (stdout when `None`); with `shard`, the shard file.
    pub output: Option<PathBuf>,
    /// Count only this shard of the sub-problems, into the shard file `output`.
    pub shard: Option<Shard>,
    /// Merge these shard files and write the counts of the whole board.
    pub merge: Vec<PathBuf>,
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
    /// Options that do not go together, or a board too large for what is asked; the message
    /// says which.
    #[error("{0}")]
    Usage(String),
    /// The counter refused or failed.
    #[error("{0}")]
    Count(#[from] CountError),
    /// The bitboard counter cannot take the board.
    #[error("{0}")]
    Masked(#[from] MaskedError),
    /// The shard files do not merge.
    #[error("{0}")]
    Merge(#[from] MergeError),
    /// A file cannot be read.
    #[error("{0}")]
    Read(#[from] ReadError),
    /// An instance file cannot be read or parsed.
    #[error("{0}")]
    ReadInstance(#[from] crate::family::InstanceFileError),
    /// The instance file does not make an instance.
    #[error("{}: {error}", .path.display())]
    Instance {
        /// The file.
        path: PathBuf,
        /// Why.
        error: InstanceError,
    },
    /// The output cannot be written.
    #[error("{0}")]
    Output(#[from] OutputError),
    /// Standard output cannot be written.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// The largest shard file a merge reads: 1 GB (a shard of n = 32 holds at most some millions
/// of lines of under 100 bytes).
const MERGE_FILE_MAX: u64 = 1 << 30;

/// Largest n of the heatmap of an empty board (one exact count per cell: about n counts in
/// all).
pub const HEATMAP_MAX_N: usize = 14;

/// Counts (or lists) as `req` asks: the counts or the list go to the output file or `out`,
/// notes to `log`, the counter's progress to `progress`.
pub fn count(
    req: &CountRequest,
    out: &mut dyn Write,
    log: &mut dyn Write,
    progress: &dyn CountProgress,
) -> Result<Ending, CountCommandError> {
    let usage = |m: &str| CountCommandError::Usage(m.to_string());
    // No output replaces a file read: the instance file, the shard files merged.
    let inputs: Vec<&std::path::Path> = req
        .instance
        .iter()
        .chain(&req.merge)
        .map(PathBuf::as_path)
        .collect();
    crate::output::refuse_input_as_output(
        &inputs,
        &[req.output.as_deref(), req.heatmap.as_deref()],
    )?;
    if let Some(path) = &req.instance {
        return count_instance(req, path);
    }
    if !req.merge.is_empty() {
        return merge(req, log);
    }
    let n = req.n.unwrap_or_default();
    count::check_n(n)?;
    if req.fundamental && !req.list {
        return Err(usage(
            "--fundamental goes with --list (the count always reports the fundamental solutions)",
        ));
    }
    if req.format == Format::Svg && !req.list {
        return Err(usage("--format svg goes with --list (a grid of the solutions); --heatmap FILE draws the counts per cell"));
    }
    if req.list {
        return list(req, n);
    }
    // Before anything is written (the heatmap below).
    count::check_kernel_variable().map_err(|m| usage(&m))?;
    if let Some(path) = &req.heatmap {
        if n > HEATMAP_MAX_N {
            return Err(usage(&format!(
                "--heatmap counts the solutions once per cell, about n times the work of one count: \
                 n <= {HEATMAP_MAX_N} (n = {HEATMAP_MAX_N} takes seconds, each n more about 6 times longer)"
            )));
        }
        let board = MaskedBoard::new(n, Geometry::Square)?;
        write_heatmap(path, &board, &format!("n = {n}"))?;
    }
    let mut counter = Counter::new(n)?;
    if let Some(k) = req.threads {
        counter = counter.threads(k);
    }
    if let Some(p) = &req.checkpoint {
        counter = counter.checkpoint(p);
    }
    if let (Some(shard), Some(file)) = (req.shard, &req.output) {
        counter = counter.shard(shard).checkpoint(file);
    }
    counter = counter.on_progress(|p| progress.update(p));
    let outcome = counter.run();
    progress.finish();
    let c = match outcome? {
        Outcome::Complete(c) => c,
        Outcome::Stopped(p) => {
            return Err(usage(&format!(
                "the count stopped after {} of {} sub-problems",
                p.done, p.total
            )))
        }
    };
    if let (Some(shard), Some(file)) = (req.shard, &req.output) {
        let k = c.classes;
        writeln!(
            out,
            "n = {n}, shard {shard}: {} solutions (classes of 8, 4, 2: {}, {}, {}), in {}",
            c.total,
            k.of8,
            k.of4,
            k.of2,
            file.display()
        )?;
        return Ok(Ending::Success);
    }
    write_output(req.output.as_deref(), |w| write_counts(w, req.format, &c))?;
    Ok(Ending::Success)
}

/// The counts of the whole board from its shard files, written as an unsharded count writes
/// them.
fn merge(req: &CountRequest, log: &mut dyn Write) -> Result<Ending, CountCommandError> {
    let mut files = Vec::new();
    for path in &req.merge {
        let text = crate::input::read_text_file(path, MERGE_FILE_MAX, "shard file")?;
        files.push((path.clone(), text));
    }
    let merged = count::merge(&files)?;
    let c = merged.counts;
    if let Some(n) = req.n.filter(|&n| n != c.n) {
        return Err(CountCommandError::Usage(format!(
            "n = {n} disagrees with the shard files (n = {}); leave N out",
            c.n
        )));
    }
    let _ = writeln!(
        log,
        "merged {} shards of n = {}: {} sub-problems",
        merged.shards.len(),
        c.n,
        merged.shards.iter().map(|s| s.sub_problems).sum::<usize>()
    );
    write_output(req.output.as_deref(), |w| write_counts(w, req.format, &c))?;
    Ok(Ending::Success)
}

/// Writes the heatmap of `board`'s per-cell counts to `path`.
fn write_heatmap(path: &Path, board: &MaskedBoard, what: &str) -> Result<(), CountCommandError> {
    let n = board.n();
    if n > crate::board::picture::MAX_HEATMAP_N {
        return Err(CountCommandError::Usage(format!(
            "--heatmap draws boards up to n = {}",
            crate::board::picture::MAX_HEATMAP_N
        )));
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

/// `count --list`: the solutions of the empty board (one per class with `fundamental`).
fn list(req: &CountRequest, n: usize) -> Result<Ending, CountCommandError> {
    let output = req.output.as_deref();
    if req.format == Format::Svg {
        let title = format!(
            "n = {n}: {}",
            if req.fundamental {
                "one solution of each symmetry class"
            } else {
                "every solution"
            }
        );
        if req.fundamental {
            return write_grid(output, n, &title, fundamental(n));
        }
        let board = MaskedBoard::new(n, Geometry::Square)?;
        return write_grid(output, n, &title, board_solutions(&board));
    }
    if req.fundamental {
        write_output(output, |w| {
            write_list(w, req.format, n, true, fundamental(n))
        })?;
    } else {
        // The bitboard search streams the solutions in the same lexicographic order.
        let board = MaskedBoard::new(n, Geometry::Square)?;
        write_output(output, |w| {
            write_list(w, req.format, n, false, board_solutions(&board))
        })?;
    }
    Ok(Ending::Success)
}

/// The solutions that `each` lists drawn as a grid of boards, refused past
/// [`crate::board::picture::MAX_GRID_BOARDS`] solutions.
fn write_grid(
    output: Option<&Path>,
    n: usize,
    title: &str,
    each: impl FnOnce(Visit<'_>),
) -> Result<Ending, CountCommandError> {
    use crate::board::picture::{MAX_GRID_BOARDS, MAX_GRID_N};
    if n > MAX_GRID_N {
        return Err(CountCommandError::Usage(format!(
            "--format svg draws boards up to n = {MAX_GRID_N}"
        )));
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
        return Err(CountCommandError::Usage(format!(
            "--format svg draws at most {MAX_GRID_BOARDS} boards and this list has more; \
             use --fundamental, or the text list"
        )));
    }
    write_output(output, |w| {
        crate::board::picture::write_solutions(w, n, &sols, title)
    })?;
    Ok(Ending::Success)
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
            Format::Text | Format::Svg => writeln!(w, "{s}"),
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

/// `count --instance FILE`: the exact number of solutions of the instance by the bitboard
/// counter (or, with a list, the solutions).
fn count_instance(req: &CountRequest, path: &Path) -> Result<Ending, CountCommandError> {
    let spec = crate::family::read_instance_file(path, req.diagonals)?;
    let inst = spec
        .instance(Default::default())
        .map_err(|error| CountCommandError::Instance {
            path: path.to_path_buf(),
            error,
        })?;
    let board = crate::instance::masked_board(&inst)?;
    let output = req.output.as_deref();
    if req.list && req.format == Format::Svg {
        let title = format!("{}: every solution", spec.describe());
        return write_grid(output, spec.n, &title, board_solutions(&board));
    }
    if req.format == Format::Svg {
        return Err(CountCommandError::Usage("--format svg goes with --list (a grid of the solutions); --heatmap FILE draws the counts per cell".into()));
    }
    if let Some(path) = &req.heatmap {
        write_heatmap(path, &board, &spec.describe())?;
    }
    if req.list {
        write_output(output, |w| {
            write_list(w, req.format, spec.n, false, board_solutions(&board))
        })?;
        return Ok(Ending::Success);
    }
    if let Some(k) = req.threads {
        // The counter runs on rayon's global pool.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(k)
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
    write_output(output, |w| match req.format {
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
        Format::Text | Format::Svg => {
            writeln!(w, "instance: {}", spec.describe())?;
            writeln!(w, "n = {}, {} board", spec.n, spec.geometry.name())?;
            writeln!(w, "solutions: {total}")?;
            writeln!(w, "symmetries of the instance: {}", symmetries.join(", "))
        }
    })?;
    Ok(Ending::Success)
}
