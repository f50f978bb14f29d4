//! The generators of Gent, Jefferson and Nightingale, "Complexity of n-Queens Completion"
//! (JAIR 59, 2017), published with CSPLib problem 079, reproduced draw for draw: the same n,
//! parameter and seed give the instance the Python script prints, at any n.
//!
//! * [`excluded_diagonals`] is `queens-diag-gen.py n mininfile seed`: both directions' 2n - 1
//!   diagonals shuffled (sum diagonals first); then, until both lists are empty, a direction
//!   drawn with `randrange(-1, 2, 2)` (+1 the sum diagonals) when both have diagonals left, the
//!   last diagonal of its list taken, and kept unless one of the cells it would newly exclude
//!   lies in a row or column that has at most `mininfile` free cells left. The result is the
//!   maximal list; an instance is a prefix of it.
//! * [`completion`] is `queens-gen-fast.py n m seed`: n^2 attempts, each drawing a row index
//!   and a column index with `randrange(left)` among the rows and columns still free, keeping
//!   the queen when both its diagonals are free (the last free row and column then take the
//!   used places); it stops at `m` queens, or gives up.
//!
//! The random numbers are CPython's ([`super::pyrandom`]). The tests compare the output with
//! the published files of CSPLib byte for byte.

use super::edp::{EdpDiagonal, EdpFile};
use super::essence::EssenceCompletion;
use super::pyrandom::PyRandom;
use super::{GenerateError, InstanceSpec, MAX_N};

/// The Excluded Diagonals generator's file name, as the literature names it.
pub const DIAGONALS_SCRIPT: &str = "queens-diag-gen.py";

/// The n-Queens Completion generator's file name.
pub const COMPLETION_SCRIPT: &str = "queens-gen-fast.py";

fn check_n(n: usize) -> Result<(), GenerateError> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(GenerateError::OutOfRange(format!(
            "n = {n} is outside 1..={MAX_N}"
        )))
    }
}

/// What `queens-diag-gen.py n min_free seed` prints, as a parameter file: every diagonal it
/// keeps, in order. `min_free` must be in `0..=n` (at `n` no diagonal is kept).
pub fn excluded_diagonals(n: usize, min_free: usize, seed: u64) -> Result<EdpFile, GenerateError> {
    check_n(n)?;
    if min_free > n {
        return Err(GenerateError::OutOfRange(format!(
            "min-free = {min_free} must be in 0..={n}"
        )));
    }
    let mut rng = PyRandom::new(seed);
    let mut sums: Vec<usize> = (0..2 * n - 1).collect();
    let mut diffs: Vec<usize> = (0..2 * n - 1).collect();
    rng.shuffle(&mut sums);
    rng.shuffle(&mut diffs);
    let mut sum_used = vec![false; 2 * n - 1];
    let mut diff_used = vec![false; 2 * n - 1];
    let mut free_in_row = vec![n; n];
    let mut free_in_col = vec![n; n];
    let mut kept = Vec::new();
    let mut cells = Vec::with_capacity(n);
    loop {
        let sum = match (sums.is_empty(), diffs.is_empty()) {
            (true, true) => break,
            (true, false) => false,
            (false, true) => true,
            (false, false) => rng.randrange(-1, 2, 2).expect("a range of two values") == 1,
        };
        let index = if sum { sums.pop() } else { diffs.pop() }.expect("not empty");
        // The cells of the diagonal still free: neither of their diagonals excluded yet.
        cells.clear();
        for r in 0..n {
            let c = if sum {
                index.checked_sub(r)
            } else {
                (r + n - 1).checked_sub(index)
            };
            let Some(c) = c.filter(|&c| c < n) else {
                continue;
            };
            if !sum_used[r + c] && !diff_used[r + n - 1 - c] {
                cells.push((r, c));
            }
        }
        if cells
            .iter()
            .any(|&(r, c)| free_in_row[r] <= min_free || free_in_col[c] <= min_free)
        {
            continue;
        }
        for &(r, c) in &cells {
            free_in_row[r] -= 1;
            free_in_col[c] -= 1;
        }
        if sum {
            sum_used[index] = true;
        } else {
            diff_used[index] = true;
        }
        kept.push(EdpDiagonal { index, sum });
    }
    Ok(EdpFile { n, diagonals: kept })
}

/// What `queens-gen-fast.py n k seed` prints, as a parameter file: `k` queens (1 <= k <= n)
/// in the order placed, or [`GenerateError::GaveUp`] where the script gives up.
pub fn completion(n: usize, k: usize, seed: u64) -> Result<EssenceCompletion, GenerateError> {
    check_n(n)?;
    if !(1..=n).contains(&k) {
        return Err(GenerateError::OutOfRange(format!(
            "k = {k}: {COMPLETION_SCRIPT} places 1 to n queens, k must be in 1..={n}"
        )));
    }
    let mut rng = PyRandom::new(seed);
    let mut sum_used = vec![false; 2 * n - 1];
    let mut diff_used = vec![false; 2 * n - 1];
    let mut rows: Vec<usize> = (0..n).collect();
    let mut cols: Vec<usize> = (0..n).collect();
    let mut left = n;
    let mut init = Vec::with_capacity(k);
    for _ in 0..n * n {
        let i = rng.randbelow(left as u64) as usize;
        let j = rng.randbelow(left as u64) as usize;
        let (r, c) = (rows[i], cols[j]);
        if sum_used[r + c] || diff_used[r + n - 1 - c] {
            continue;
        }
        init.push((r, c));
        sum_used[r + c] = true;
        diff_used[r + n - 1 - c] = true;
        rows[i] = rows[left - 1];
        cols[j] = cols[left - 1];
        left -= 1;
        if init.len() == k {
            return Ok(EssenceCompletion { n, init });
        }
    }
    Err(GenerateError::GaveUp(format!(
        "{COMPLETION_SCRIPT} gives up with seed {seed}: only {} of {k} queens placed without attacks in n^2 = {} attempts; try another seed or a smaller k",
        init.len(),
        n * n
    )))
}

/// The generator line of an instance drawn by a reproduced script.
fn generator(script: &str) -> String {
    format!(
        "{} {}, {script} of CSPLib prob079 reproduced",
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION")
    )
}

/// The instance of the first `d` diagonals (all for `None`) that `queens-diag-gen.py n
/// min_free seed` draws, as an instance file holds it: parameters `d`, `min-free`, `numdiags`
/// and `compatible=jair`, and the seed.
pub fn excluded_diagonals_spec(
    n: usize,
    min_free: usize,
    seed: u64,
    d: Option<usize>,
) -> Result<InstanceSpec, GenerateError> {
    let file = excluded_diagonals(n, min_free, seed)?;
    let k = file.diagonals.len();
    let mut spec = file.spec(d).ok_or_else(|| {
        GenerateError::GaveUp(format!(
            "{DIAGONALS_SCRIPT} keeps {k} diagonals with min-free = {min_free} and seed {seed}; ask for d <= {k}"
        ))
    })?;
    let d = d.unwrap_or(k);
    spec.parameters = vec![
        ("d".to_string(), d.to_string()),
        ("min-free".to_string(), min_free.to_string()),
        ("numdiags".to_string(), k.to_string()),
        ("compatible".to_string(), "jair".to_string()),
    ];
    spec.seed = Some(seed);
    spec.generator = Some(generator(DIAGONALS_SCRIPT));
    Ok(spec)
}

/// The instance that `queens-gen-fast.py n k seed` draws, as an instance file holds it:
/// parameters `k`, `mode=random` and `compatible=jair`, the seed, the queens in the order placed.
pub fn completion_spec(n: usize, k: usize, seed: u64) -> Result<InstanceSpec, GenerateError> {
    let mut spec = completion(n, k, seed)?.spec();
    spec.parameters = vec![
        ("k".to_string(), k.to_string()),
        ("mode".to_string(), "random".to_string()),
        ("compatible".to_string(), "jair".to_string()),
    ];
    spec.seed = Some(seed);
    spec.generator = Some(generator(COMPLETION_SCRIPT));
    Ok(spec)
}

/// The instance of `recipe` as the paper's generators draw it (`compatible=jair`): excluded
/// diagonals by `queens-diag-gen.py` ([`excluded_diagonals_spec`]), completion by
/// `queens-gen-fast.py` ([`completion_spec`], queens placed at random). The other families,
/// and completion with queens taken from a solution, have no such generator.
pub fn spec_of(n: usize, recipe: &super::Recipe, seed: u64) -> Result<InstanceSpec, GenerateError> {
    use super::{CompletionMode, Recipe};
    match recipe {
        Recipe::ExcludedDiagonals { d, min_free } => {
            excluded_diagonals_spec(n, *min_free, seed, Some(*d))
        }
        Recipe::Completion {
            k,
            mode: CompletionMode::Random,
        } => completion_spec(n, *k, seed),
        Recipe::Completion { .. } => Err(GenerateError::OutOfRange(
            "compatible=jair draws completion instances as queens-gen-fast.py does: mode=random"
                .into(),
        )),
        _ => Err(GenerateError::OutOfRange(format!(
            "compatible=jair: the paper's generators draw completion and excluded-diagonals instances, not {}",
            recipe.family()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_info_files_example() {
        // CSPLib prob079, data/AA-Excluded-Diagonals-Info.md: "./queens-diag-gen.py 10 4 1
        // produces" this list (the published diag-10-4-1.param holds it too).
        let f = excluded_diagonals(10, 4, 1).unwrap();
        assert_eq!(
            f.to_text(),
            "n =  10\nnumdiags =  14\ndiags =  [[4, 1], [2, 1], [14, 0], [8, 1], [8, 0], [7, 0], [3, 1], [12, 1], [18, 0], [5, 0], [14, 1], [0, 0], [15, 1], [17, 1]]\n"
        );
    }

    #[test]
    fn completion_prints_what_the_script_prints() {
        // The outputs of `python3 queens-gen-fast.py N M S` (CSPLib prob079, data/) under
        // CPython 3.11.7, for the arguments given with each.
        let cases: [(usize, usize, u64, &str); 4] = [
            (8, 3, 1, "letting n =  8\nletting init =  [[2, 1], [7, 0], [3, 3]]\n"),
            (8, 2, 5, "letting n =  8\nletting init =  [[4, 5], [0, 6]]\n"),
            (
                12,
                6,
                3,
                "letting n =  12\nletting init =  [[3, 9], [8, 2], [7, 11], [1, 0], [9, 4], [4, 1]]\n",
            ),
            (
                30,
                25,
                11,
                "letting n =  30\nletting init =  [[14, 27], [17, 29], [24, 14], [29, 16], [18, 6], [5, 26], [15, 20], [9, 4], [2, 17], [20, 1], [21, 23], [1, 25], [7, 0], [26, 10], [19, 28], [16, 13], [4, 5], [12, 3], [8, 22], [27, 21], [25, 24], [22, 18], [6, 12], [28, 11], [0, 8]]\n",
            ),
        ];
        for (n, k, seed, text) in cases {
            assert_eq!(
                completion(n, k, seed).unwrap().to_text(),
                text,
                "{n} {k} {seed}"
            );
        }
        // `queens-gen-fast.py 8 8 1` and `4 4 2` print "given up trying to generate problem".
        for (n, k, seed) in [(8, 8, 1), (4, 4, 2)] {
            assert!(matches!(
                completion(n, k, seed),
                Err(GenerateError::GaveUp(_))
            ));
        }
    }

    #[test]
    fn kept_diagonals_leave_min_free_cells_in_every_line() {
        for seed in 0..20 {
            let f = excluded_diagonals(15, 4, seed).unwrap();
            let spec = f.spec(None).unwrap();
            let forbidden = spec.forbidden_cells();
            for i in 0..15 {
                assert!(forbidden.iter().filter(|c| c.0 == i).count() <= 15 - 4);
                assert!(forbidden.iter().filter(|c| c.1 == i).count() <= 15 - 4);
            }
        }
    }

    #[test]
    fn completion_queens_do_not_attack_and_ranges_are_checked() {
        for seed in 0..20 {
            let f = completion(12, 6, seed).unwrap();
            assert_eq!(f.init.len(), 6);
            // The parser refuses attacking queens.
            assert_eq!(EssenceCompletion::parse(&f.to_text()).unwrap(), f);
        }
        assert!(matches!(
            completion(8, 0, 1),
            Err(GenerateError::OutOfRange(_))
        ));
        assert!(matches!(completion(3, 3, 1), Err(GenerateError::GaveUp(_))));
        assert!(matches!(
            excluded_diagonals(8, 9, 1),
            Err(GenerateError::OutOfRange(_))
        ));
    }
}
