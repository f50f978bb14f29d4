//! The generators: a recipe, a board size and a seed give one instance, the same everywhere.

use super::rng::SplitMix64;
use super::{Diagonal, Family, InstanceSpec, GENERATOR_VERSION, MAX_LISTED_CELLS, MAX_N};
use crate::board::{Cell, Geometry};

/// Largest board [`Recipe::Completion`] with [`CompletionMode::FromSolution`] draws a solution
/// for (the local search takes O(n^2) per restart).
pub const MAX_N_FROM_SOLUTION: usize = 5_000;

/// How many cells to block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Density {
    /// Each cell independently with this probability (0 <= p <= 1).
    Probability(f64),
    /// Exactly this many distinct cells (0 <= b <= n*n).
    Exactly(usize),
}

/// Where the pre-placed queens of a completion instance come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionMode {
    /// k queens of a random solution: the instance is always completable.
    FromSolution,
    /// k queens placed one by one at random on free rows, columns and diagonals (as the JAIR
    /// paper's generator does): the instance may have no completion.
    Random,
}

impl CompletionMode {
    /// `solution` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            CompletionMode::FromSolution => "solution",
            CompletionMode::Random => "random",
        }
    }
}

impl std::str::FromStr for CompletionMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "solution" => Ok(CompletionMode::FromSolution),
            "random" => Ok(CompletionMode::Random),
            other => Err(format!(
                "unknown completion mode '{other}' (valid: solution, random)"
            )),
        }
    }
}

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Recipe {
    /// n-Queens Completion: `k` pre-placed queens.
    Completion {
        /// Number of pre-placed queens, 0 ..= n.
        k: usize,
        /// Where they come from.
        mode: CompletionMode,
    },
    /// Blocked cells on the square board.
    Blocked {
        /// How many.
        density: Density,
    },
    /// The Excluded Diagonals Problem: `d` whole diagonals excluded, drawn in random order of
    /// both directions, skipping a diagonal that would leave a row or column with fewer than
    /// `min_free` free cells (the paper's generator). The instance with `d` is the first `d`
    /// diagonals of the instance with `d + 1`, for the same seed.
    ExcludedDiagonals {
        /// Diagonals to exclude.
        d: usize,
        /// Free cells every row and column keeps.
        min_free: usize,
    },
    /// The toroidal board, optionally with blocked cells.
    Toroidal {
        /// Cells to block, if any.
        blocked: Option<Density>,
    },
}

impl Recipe {
    /// The family the recipe draws from.
    pub fn family(&self) -> Family {
        match self {
            Recipe::Completion { .. } => Family::Completion,
            Recipe::Blocked { .. } => Family::Blocked,
            Recipe::ExcludedDiagonals { .. } => Family::ExcludedDiagonals,
            Recipe::Toroidal { .. } => Family::Toroidal,
        }
    }

    /// The recipe of `family` from `name=value` parameters (as an instance file or `compare
    /// --param` gives them): `k` and `mode` (completion, mode `solution` by default), `p` or
    /// `b` (blocked; optional for toroidal), `d` and `min-free` (excluded diagonals, min-free 1
    /// by default). Ranges are checked when the instance is drawn ([`generate`]).
    pub fn from_parameters(family: Family, params: &[(String, String)]) -> Result<Recipe, String> {
        let get = |name: &str| {
            params
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let known: &[&str] = match family {
            Family::Completion => &["k", "mode"],
            Family::Blocked | Family::Toroidal => &["p", "b"],
            Family::ExcludedDiagonals => &["d", "min-free"],
            Family::Custom => &[],
        };
        if let Some((k, _)) = params.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            return Err(format!(
                "{family} has no parameter '{k}' (its parameters: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        }
        fn number<T: std::str::FromStr>(name: &str, v: Option<&str>) -> Result<Option<T>, String> {
            v.map(|v| {
                v.parse().map_err(|_| {
                    format!("parameter {name} = '{v}' is not a number of the right kind")
                })
            })
            .transpose()
        }
        let density = || -> Result<Option<Density>, String> {
            match (
                number::<f64>("p", get("p"))?,
                number::<usize>("b", get("b"))?,
            ) {
                (Some(_), Some(_)) => Err("give p or b, not both".to_string()),
                (Some(p), None) => Ok(Some(Density::Probability(p))),
                (None, Some(b)) => Ok(Some(Density::Exactly(b))),
                (None, None) => Ok(None),
            }
        };
        let required = |name: &str| -> Result<usize, String> {
            number::<usize>(name, get(name))?
                .ok_or_else(|| format!("{family} needs the parameter {name}"))
        };
        match family {
            Family::Completion => Ok(Recipe::Completion {
                k: required("k")?,
                mode: get("mode").map_or(Ok(CompletionMode::FromSolution), str::parse)?,
            }),
            Family::Blocked => Ok(Recipe::Blocked {
                density: density()?.ok_or("blocked needs the parameter p or b")?,
            }),
            Family::Toroidal => Ok(Recipe::Toroidal {
                blocked: density()?,
            }),
            Family::ExcludedDiagonals => Ok(Recipe::ExcludedDiagonals {
                d: required("d")?,
                min_free: number::<usize>("min-free", get("min-free"))?.unwrap_or(1),
            }),
            Family::Custom => Err("custom instances are written, not drawn".to_string()),
        }
    }

    /// The parameters as `name=value` pairs, as the instance file records them.
    pub fn parameters(&self) -> Vec<(String, String)> {
        let pair = |k: &str, v: String| (k.to_string(), v);
        let density = |d: &Density| match d {
            Density::Probability(p) => pair("p", p.to_string()),
            Density::Exactly(b) => pair("b", b.to_string()),
        };
        match self {
            Recipe::Completion { k, mode } => {
                vec![pair("k", k.to_string()), pair("mode", mode.name().into())]
            }
            Recipe::Blocked { density: d } => vec![density(d)],
            Recipe::ExcludedDiagonals { d, min_free } => vec![
                pair("d", d.to_string()),
                pair("min-free", min_free.to_string()),
            ],
            Recipe::Toroidal { blocked } => blocked.iter().map(density).collect(),
        }
    }
}

/// Why an instance could not be drawn.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// A parameter outside its range; the message names the valid range.
    #[error("{0}")]
    OutOfRange(String),
    /// The board has no solution to take queens from.
    #[error("the {n} x {n} board has no solution to take queens from (n = 2 and 3 have none)")]
    NoSolution {
        /// Board size.
        n: usize,
    },
    /// Random placement or exclusion could not reach the target with this seed.
    #[error("{0}")]
    GaveUp(String),
}

fn out_of_range<T>(msg: String) -> Result<T, GenerateError> {
    Err(GenerateError::OutOfRange(msg))
}

/// Draws an instance of an `n` x `n` board from `recipe` with `seed`. The same arguments give
/// the same instance on every machine.
pub fn generate(n: usize, recipe: &Recipe, seed: u64) -> Result<InstanceSpec, GenerateError> {
    if !(1..=MAX_N).contains(&n) {
        return out_of_range(format!("n = {n} is outside 1..={MAX_N}"));
    }
    let mut rng = SplitMix64::new(seed);
    let geometry = match recipe {
        Recipe::Toroidal { .. } => Geometry::Toroidal,
        _ => Geometry::Square,
    };
    let mut spec = InstanceSpec::empty(n, geometry);
    spec.family = recipe.family();
    spec.parameters = recipe.parameters();
    spec.seed = Some(seed);
    spec.generator = Some(format!(
        "{} {}, generator {GENERATOR_VERSION}",
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION")
    ));
    match *recipe {
        Recipe::Completion { k, mode } => {
            if k > n {
                return out_of_range(format!(
                    "k = {k} pre-placed queens do not fit: k must be in 0..={n}"
                ));
            }
            spec.placed = match mode {
                CompletionMode::FromSolution => {
                    if n > MAX_N_FROM_SOLUTION {
                        return out_of_range(format!(
                            "n = {n} is too large to draw a solution from: at most {MAX_N_FROM_SOLUTION}"
                        ));
                    }
                    let sol =
                        random_solution(n, &mut rng).ok_or(GenerateError::NoSolution { n })?;
                    let mut rows = rng.sample(n, k);
                    rows.sort_unstable();
                    rows.into_iter().map(|r| (r, sol[r])).collect()
                }
                CompletionMode::Random => random_queens(n, k, &mut rng)?,
            };
        }
        Recipe::Blocked { density } => spec.blocked = blocked_cells(n, density, &mut rng)?,
        Recipe::Toroidal { blocked } => {
            if let Some(density) = blocked {
                spec.blocked = blocked_cells(n, density, &mut rng)?;
            }
        }
        Recipe::ExcludedDiagonals { d, min_free } => {
            if d > 4 * n - 2 {
                return out_of_range(format!(
                    "d = {d} diagonals: the {n} x {n} board has {} (d must be in 0..={})",
                    4 * n - 2,
                    4 * n - 2
                ));
            }
            if min_free > n {
                return out_of_range(format!("min-free = {min_free} must be in 0..={n}"));
            }
            spec.excluded = excluded_diagonals(n, d, min_free, &mut rng)?;
        }
    }
    Ok(spec)
}

/// The blocked cells for a density, sorted.
fn blocked_cells(
    n: usize,
    density: Density,
    rng: &mut SplitMix64,
) -> Result<Vec<Cell>, GenerateError> {
    let mut cells: Vec<Cell> = match density {
        Density::Probability(p) => {
            if !(0.0..=1.0).contains(&p) {
                return out_of_range(format!("p = {p} must be a probability in [0, 1]"));
            }
            let mut cells = Vec::new();
            for i in 0..n * n {
                if rng.chance(p) {
                    if cells.len() == MAX_LISTED_CELLS {
                        return out_of_range(too_many_cells(n, "p", &p.to_string()));
                    }
                    cells.push((i / n, i % n));
                }
            }
            cells
        }
        Density::Exactly(b) => {
            if b > n * n {
                return out_of_range(format!(
                    "b = {b} blocked cells do not fit: b must be in 0..={}",
                    n * n
                ));
            }
            if b > MAX_LISTED_CELLS {
                return out_of_range(too_many_cells(n, "b", &b.to_string()));
            }
            rng.sample(n * n, b)
                .into_iter()
                .map(|i| (i / n, i % n))
                .collect()
        }
    };
    cells.sort_unstable();
    Ok(cells)
}

/// The message for a density that lists more cells than an instance file takes.
fn too_many_cells(n: usize, name: &str, value: &str) -> String {
    format!(
        "{name} = {value} on the {n} x {n} board blocks more than {MAX_LISTED_CELLS} cells, more than an instance file lists; take a smaller n or density"
    )
}

/// `k` queens placed one at a time on a random free row and a random free column, kept when
/// both diagonals are free; gives up after n^2 attempts. Returned sorted by row.
fn random_queens(n: usize, k: usize, rng: &mut SplitMix64) -> Result<Vec<Cell>, GenerateError> {
    let mut rows: Vec<usize> = (0..n).collect();
    let mut cols: Vec<usize> = (0..n).collect();
    let g = Geometry::Square;
    let mut sum = vec![false; 2 * n - 1];
    let mut diff = vec![false; 2 * n - 1];
    let mut placed = Vec::with_capacity(k);
    let mut left = n;
    let mut attempts = 0usize;
    while placed.len() < k {
        if attempts >= n * n {
            return Err(GenerateError::GaveUp(format!(
                "placed only {} of {k} queens without attacks in {} attempts; try another seed or a smaller k",
                placed.len(),
                n * n
            )));
        }
        attempts += 1;
        let (i, j) = (rng.index(left), rng.index(left));
        let (r, c) = (rows[i], cols[j]);
        let (d, a) = (g.diagonal(n, r, c), g.anti_diagonal(n, r, c));
        if sum[d] || diff[a] {
            continue;
        }
        sum[d] = true;
        diff[a] = true;
        placed.push((r, c));
        rows.swap(i, left - 1);
        cols.swap(j, left - 1);
        left -= 1;
    }
    placed.sort_unstable();
    Ok(placed)
}

/// Whole diagonals, drawn as the Excluded Diagonals generator of the JAIR paper does: both
/// directions shuffled, a direction chosen at random each time, a diagonal skipped when it
/// would leave a row or a column with fewer than `min_free` free cells.
fn excluded_diagonals(
    n: usize,
    d: usize,
    min_free: usize,
    rng: &mut SplitMix64,
) -> Result<Vec<Diagonal>, GenerateError> {
    let mut sums: Vec<Diagonal> = (0..2 * n - 1).map(Diagonal::Sum).collect();
    let mut diffs: Vec<Diagonal> = (-(n as i64 - 1)..n as i64)
        .map(Diagonal::Difference)
        .collect();
    rng.shuffle(&mut sums);
    rng.shuffle(&mut diffs);
    let mut blocked = vec![false; n * n];
    let mut free_in_row = vec![n; n];
    let mut free_in_col = vec![n; n];
    let mut chosen = Vec::with_capacity(d);
    while chosen.len() < d && !(sums.is_empty() && diffs.is_empty()) {
        let take_sum = if sums.is_empty() {
            false
        } else if diffs.is_empty() {
            true
        } else {
            rng.below(2) == 0
        };
        let diag = if take_sum { sums.pop() } else { diffs.pop() }.expect("non-empty");
        let new: Vec<Cell> = diag
            .cells(n)
            .into_iter()
            .filter(|&(r, c)| !blocked[r * n + c])
            .collect();
        // Each diagonal meets a row and a column at most once.
        if new
            .iter()
            .any(|&(r, c)| free_in_row[r] <= min_free || free_in_col[c] <= min_free)
        {
            continue;
        }
        for (r, c) in new {
            blocked[r * n + c] = true;
            free_in_row[r] -= 1;
            free_in_col[c] -= 1;
        }
        chosen.push(diag);
    }
    if chosen.len() < d {
        return Err(GenerateError::GaveUp(format!(
            "only {} diagonals can be excluded with every row and column keeping {min_free} free cells; ask for d <= {} or a smaller min-free",
            chosen.len(),
            chosen.len()
        )));
    }
    Ok(chosen)
}

/// A random solution of the `n` x `n` square board (0-based column per row), by min-conflicts
/// local search from random permutations, or `None` when none exists (n = 2, 3).
pub fn random_solution(n: usize, rng: &mut SplitMix64) -> Option<Vec<usize>> {
    if !crate::construct::solution_exists(n) {
        return None;
    }
    if n == 1 {
        return Some(vec![0]);
    }
    // The / and \ diagonals of a cell.
    let d = |r, c| Geometry::Square.diagonal(n, r, c);
    let a = |r, c| Geometry::Square.anti_diagonal(n, r, c);
    loop {
        let mut cols: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut cols);
        let mut col_count = vec![0u32; n];
        let mut sum = vec![0u32; 2 * n - 1];
        let mut diff = vec![0u32; 2 * n - 1];
        for (r, &c) in cols.iter().enumerate() {
            col_count[c] += 1;
            sum[d(r, c)] += 1;
            diff[a(r, c)] += 1;
        }
        let conflicts = |col_count: &[u32], sum: &[u32], diff: &[u32], r: usize, c: usize| {
            col_count[c] + sum[d(r, c)] + diff[a(r, c)]
        };
        for _ in 0..(50 * n + 100) {
            // Rows whose queen is attacked (its own queen counts 3 times).
            let attacked: Vec<usize> = (0..n)
                .filter(|&r| conflicts(&col_count, &sum, &diff, r, cols[r]) > 3)
                .collect();
            if attacked.is_empty() {
                return Some(cols);
            }
            let r = attacked[rng.index(attacked.len())];
            let old = cols[r];
            col_count[old] -= 1;
            sum[d(r, old)] -= 1;
            diff[a(r, old)] -= 1;
            let mut best = Vec::new();
            let mut best_score = u32::MAX;
            for c in 0..n {
                let s = conflicts(&col_count, &sum, &diff, r, c);
                if s < best_score {
                    best_score = s;
                    best.clear();
                }
                if s == best_score {
                    best.push(c);
                }
            }
            let c = best[rng.index(best.len())];
            cols[r] = c;
            col_count[c] += 1;
            sum[d(r, c)] += 1;
            diff[a(r, c)] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{check_placement, Placement};

    #[test]
    fn random_solutions_are_solutions() {
        for n in [1, 4, 5, 6, 7, 8, 10, 31, 100, 257] {
            for seed in 0..3 {
                let sol = random_solution(n, &mut SplitMix64::new(seed)).unwrap();
                check_placement(&Placement::from_cols(&sol)).unwrap();
            }
        }
        assert_eq!(random_solution(3, &mut SplitMix64::new(0)), None);
    }

    #[test]
    fn parameters_out_of_range_name_the_range() {
        let msg = |n, r: Recipe| generate(n, &r, 1).unwrap_err().to_string();
        assert_eq!(
            msg(
                8,
                Recipe::Completion {
                    k: 9,
                    mode: CompletionMode::Random
                }
            ),
            "k = 9 pre-placed queens do not fit: k must be in 0..=8"
        );
        assert_eq!(
            msg(
                8,
                Recipe::Blocked {
                    density: Density::Probability(1.5)
                }
            ),
            "p = 1.5 must be a probability in [0, 1]"
        );
        assert_eq!(
            msg(
                8,
                Recipe::Blocked {
                    density: Density::Exactly(65)
                }
            ),
            "b = 65 blocked cells do not fit: b must be in 0..=64"
        );
        assert!(msg(
            3,
            Recipe::Completion {
                k: 1,
                mode: CompletionMode::FromSolution
            }
        )
        .contains("no solution"));
    }

    #[test]
    fn excluded_diagonals_are_prefixes_and_keep_rows_free() {
        let draw = |d| {
            generate(12, &Recipe::ExcludedDiagonals { d, min_free: 3 }, 5)
                .unwrap()
                .excluded
        };
        let all = draw(12);
        assert_eq!(draw(7), all[..7]);
        let spec = generate(12, &Recipe::ExcludedDiagonals { d: 12, min_free: 3 }, 5).unwrap();
        let forbidden = spec.forbidden_cells();
        for i in 0..12 {
            assert!(forbidden.iter().filter(|c| c.0 == i).count() <= 12 - 3);
            assert!(forbidden.iter().filter(|c| c.1 == i).count() <= 12 - 3);
        }
    }

    #[test]
    fn random_completion_queens_do_not_attack() {
        for seed in 0..20 {
            let spec = generate(
                20,
                &Recipe::Completion {
                    k: 8,
                    mode: CompletionMode::Random,
                },
                seed,
            )
            .unwrap();
            assert_eq!(spec.placed.len(), 8);
            for (i, &a) in spec.placed.iter().enumerate() {
                for &b in &spec.placed[i + 1..] {
                    assert_eq!(Geometry::Square.shared_line(20, a, b), None);
                }
            }
        }
    }

    #[test]
    fn only_completions_of_a_solution_are_known_satisfiable() {
        let draw = |r: Recipe| generate(8, &r, 3).unwrap().known_satisfiable();
        assert_eq!(
            draw(Recipe::Completion {
                k: 5,
                mode: CompletionMode::FromSolution
            }),
            Some(true)
        );
        assert_eq!(
            draw(Recipe::Completion {
                k: 5,
                mode: CompletionMode::Random
            }),
            None
        );
        assert_eq!(
            draw(Recipe::Blocked {
                density: Density::Probability(0.1)
            }),
            None
        );
    }
}
