//! `queens-sat grade N FILE`: is a DIMACS file a correct encoding of n-queens? Sound (every
//! model's board a solution), complete (every solution a model's board), and the projected
//! count against the counter's. `--n A..B PATTERN` grades one file per n.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use queens_sat::grade::{grade, read_dimacs, CellMap, Grade, GradeError, MAX_GRADE_N};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// The largest DIMACS file read: 1 GiB (a correct encoding of n <= 10 takes kilobytes).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The largest map file read: 1 MiB (100 lines for n = 10).
const MAX_MAP_BYTES: u64 = 1 << 20;

#[derive(Args, Debug)]
#[command(
    override_usage = "queens-sat grade [OPTIONS] N FILE\n       queens-sat grade [OPTIONS] --n A..B PATTERN"
)]
pub struct GradeArgs {
    /// N and FILE: the board size and the DIMACS file. With --n, only PATTERN: a file name
    /// in which `%d` stands for n (e.g. 'student-%d.cnf').
    #[arg(value_name = "N FILE", num_args = 1..=2, required = true)]
    args: Vec<String>,
    /// Grade one file per n: a range `4..8` (ends included), a list `4,6,8`, or both, n <= 10.
    #[arg(long = "n", value_name = "NS", value_parser = parse_ns)]
    ns: Option<super::NList>,
    /// Where the cells are: one line `ROW COLUMN VARIABLE` per cell (1-based row and column;
    /// comment lines start with `c` or `#`). Default: cell (r,c) is variable (r-1)*n + c, as
    /// `encode` numbers them. With --n, `%d` in the name stands for n.
    #[arg(long, value_name = "MAP")]
    map: Option<String>,
}

fn parse_ns(s: &str) -> Result<super::NList, String> {
    super::parse_n_list_up_to(s, MAX_GRADE_N, |n| {
        format!("n = {n}: grade enumerates every model, n <= {MAX_GRADE_N}")
    })
}

/// Runs `grade`: exit 0 when every file is a correct encoding, 1 when one is not, 2 for bad
/// input (the first one stops the run).
pub fn run(args: GradeArgs) -> Result<ExitCode> {
    let jobs: Vec<(usize, String, Option<String>)> = match &args.ns {
        Some(ns) => {
            let [pattern] = &args.args[..] else {
                bail!("with --n give one file name PATTERN (with %d for n), not N FILE");
            };
            if !pattern.contains("%d") && ns.0.len() > 1 {
                bail!("the file name '{pattern}' needs %d, replaced by each n of --n");
            }
            ns.0.iter()
                .map(|&n| {
                    let put = |p: &str| p.replace("%d", &n.to_string());
                    (n, put(pattern), args.map.as_deref().map(put))
                })
                .collect()
        }
        None => {
            let [n, file] = &args.args[..] else {
                bail!("give N and FILE (or --n A..B and a file name PATTERN)");
            };
            let n = super::parse_n(n).map_err(|e| anyhow!("N: {e}"))?;
            if n > MAX_GRADE_N {
                bail!("{}", GradeError::Size(n));
            }
            vec![(n, file.clone(), args.map.clone())]
        }
    };
    super::output::install_interrupt_handler();
    let mut out = std::io::stdout().lock();
    let mut wrong = Vec::new();
    for (i, (n, file, map)) in jobs.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let g = grade_file(&mut out, *n, Path::new(file), map.as_deref().map(Path::new))?;
        if !g.is_right() {
            wrong.push(*n);
        }
    }
    if jobs.len() > 1 {
        writeln!(out)?;
        let list = |v: &[usize]| {
            v.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if wrong.is_empty() {
            writeln!(out, "summary: all {} files right", jobs.len())?;
        } else {
            writeln!(
                out,
                "summary: {} of {} files right; wrong for n = {}",
                jobs.len() - wrong.len(),
                jobs.len(),
                list(&wrong)
            )?;
        }
    }
    out.flush()?;
    Ok(if wrong.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Reads, grades and reports one file.
fn grade_file(out: &mut impl Write, n: usize, file: &Path, map: Option<&Path>) -> Result<Grade> {
    let name = file.display();
    let meta = std::fs::metadata(file).with_context(|| format!("cannot open {name}"))?;
    if meta.is_dir() {
        bail!("{name} is a directory");
    }
    let reader = std::fs::File::open(file).with_context(|| format!("cannot open {name}"))?;
    let reader = std::io::BufReader::new(std::io::Read::take(reader, MAX_FILE_BYTES + 1));
    if meta.is_file() && meta.len() > MAX_FILE_BYTES {
        bail!("{name}: larger than {MAX_FILE_BYTES} bytes");
    }
    let cnf = read_dimacs(reader).map_err(|e| anyhow!("{name}: {e}"))?;
    let (cell_map, numbering) = match map {
        Some(m) => {
            let text = queens_sat::input::read_text_file(m, MAX_MAP_BYTES, "map file")?;
            let parsed = CellMap::parse(&text, n).map_err(|e| anyhow!("{}: {e}", m.display()))?;
            (parsed, format!("as {} maps them", m.display()))
        }
        None => (CellMap::standard(n), format!("q(r,c) = (r-1)*{n} + c")),
    };
    let g = match grade(n, &cnf, &cell_map) {
        Ok(g) => g,
        Err(GradeError::Map(e)) => bail!(
            "{}: {e}",
            map.map_or_else(|| "the map".into(), |m| m.display().to_string())
        ),
        Err(GradeError::Solve(e)) => return Err(e.into()),
        Err(e) => bail!("{name}: {e}"),
    };
    writeln!(
        out,
        "grading {name} as {n}-queens: {} cell variables ({numbering}), {} variables, {} clauses",
        n * n,
        cnf.vars,
        cnf.clauses.len()
    )?;
    write_report(out, &g)?;
    Ok(g)
}

/// Indents a drawn board by two spaces.
fn indent(board: &str) -> String {
    board.lines().map(|l| format!("  {l}\n")).collect()
}

/// The report of one grade: soundness, completeness, counts and the verdict.
fn write_report(out: &mut impl Write, g: &Grade) -> std::io::Result<()> {
    let n = g.n;
    let plural = |k: u64, one: &str, many: &str| {
        if k == 1 {
            format!("{k} {one}")
        } else {
            format!("{k} {many}")
        }
    };
    match &g.counterexample {
        None => writeln!(
            out,
            "sound: yes, every model's board is a solution ({})",
            plural(g.projected, "board", "distinct boards")
        )?,
        Some(c) => {
            let first = if g.projected_exact { "" } else { "first " };
            writeln!(
                out,
                "sound: NO, {} of the {first}{} of the models {}; the first ({} queens):",
                g.invalid,
                plural(g.projected, "board", "boards"),
                if g.invalid == 1 {
                    "is not a solution"
                } else {
                    "are not solutions"
                },
                c.queens()
            )?;
            write!(out, "{}", indent(&c.render(n)))?;
            writeln!(out, "  {}", c.rule)?;
        }
    }
    match &g.missing {
        None => writeln!(
            out,
            "complete: yes, each of the {} extends to a model",
            plural(g.expected, "solution", "solutions")
        )?,
        Some(p) => {
            writeln!(
                out,
                "complete: NO, {} of the {} {} no model; the first:",
                g.missing_count,
                plural(g.expected, "solution", "solutions"),
                if g.missing_count == 1 { "has" } else { "have" }
            )?;
            write!(out, "{}", indent(&p.render_board()))?;
            writeln!(out, "  one-line: {}", p.to_one_line())?;
        }
    }
    if g.projected_exact {
        writeln!(
            out,
            "projected count: {} (models projected onto the cells), the counter's: {}",
            g.projected, g.expected
        )?;
    } else {
        writeln!(
            out,
            "projected count: more than {} (stopped after {} boards), the counter's: {}",
            g.expected, g.projected, g.expected
        )?;
    }
    if g.is_right() {
        writeln!(
            out,
            "verdict: RIGHT, the models are exactly the {} solutions of n = {n}",
            g.expected
        )
    } else {
        let mut what = Vec::new();
        if !g.is_sound() {
            what.push("it allows boards that are not solutions");
        }
        if !g.is_complete() {
            what.push("it excludes solutions");
        }
        writeln!(out, "verdict: WRONG for n = {n}: {}", what.join(" and "))
    }
}
