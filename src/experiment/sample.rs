//! A seeded sample of a sweep's instances ([`Sample`], [`draw`]): K instances of a large set
//! (the 5,000 of a CSPLib folder under five values of D, say), the same K for the same seed
//! on every machine.
//!
//! The order is documented so that any program can reproduce it: every instance is ranked by
//! the MD5 digest of the text `SEED NAME` (the seed in decimal, one space, the instance's name
//! as rows give it in the `value` column: `diag-21-4-154.param d=21`, `board.txt`), the
//! digests compared as 32 lowercase hexadecimal digits, smallest first; the sample is the
//! first K of that order, and its instances are run in that order. An instance's place depends
//! on its name and the seed only, so a larger K keeps every instance of a smaller one, and
//! adding files to the set leaves the order of the others as it was.

use md5::{Digest, Md5};

/// The seed of a sample when none is given.
pub const DEFAULT_SEED: u64 = 1;

/// A sample of a sweep's instances: the first `size` in the order of `seed` ([`draw`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// How many instances (K, at least 1).
    pub size: usize,
    /// The seed of the order.
    pub seed: u64,
}

impl Sample {
    /// The first `size` instances in the order of [`DEFAULT_SEED`].
    pub fn new(size: usize) -> Sample {
        Sample {
            size,
            seed: DEFAULT_SEED,
        }
    }
}

/// Why a sample cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// A sample of no instance.
    #[error("a sample of 0 instances: give K of 1 or more")]
    Empty,
    /// More instances asked for than the set holds.
    #[error("a sample of {size} instances, but the set holds {instances}")]
    TooFew {
        /// K.
        size: usize,
        /// The instances of the set.
        instances: usize,
    },
    /// Two instances of the same name: the order would not be determined by the names.
    #[error("two instances are named '{0}'")]
    SameName(String),
}

/// An instance's rank in the order of `seed`: the MD5 digest of `SEED NAME`, as 32 lowercase
/// hexadecimal digits (compared as text, this is the order of [`draw`]).
pub fn rank(seed: u64, name: &str) -> String {
    Md5::digest(format!("{seed} {name}").as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The sample of the instances named `names`: the indices of the first `sample.size` in the
/// order of `sample.seed` ([`rank`]), in that order. Refused: K = 0, K larger than the set, and
/// two instances of the same name.
pub fn draw(names: &[String], sample: Sample) -> Result<Vec<usize>, SampleError> {
    if sample.size == 0 {
        return Err(SampleError::Empty);
    }
    if sample.size > names.len() {
        return Err(SampleError::TooFew {
            size: sample.size,
            instances: names.len(),
        });
    }
    let mut ranked: Vec<(String, usize)> = names
        .iter()
        .enumerate()
        .map(|(i, name)| (rank(sample.seed, name), i))
        .collect();
    ranked.sort();
    if let Some(w) = ranked.windows(2).find(|w| names[w[0].1] == names[w[1].1]) {
        return Err(SampleError::SameName(names[w[0].1].clone()));
    }
    Ok(ranked
        .into_iter()
        .take(sample.size)
        .map(|(_, i)| i)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(k: usize) -> Vec<String> {
        (1..=k)
            .map(|i| format!("diag-21-4-{i}.param d=21"))
            .collect()
    }

    #[test]
    fn the_rank_is_the_md5_digest_of_seed_and_name() {
        // MD5("1 a"), as `printf '1 a' | md5sum` prints it.
        assert_eq!(rank(1, "a"), "75b9dc8e5e3c162edac82adf57acd94f");
        // The seed is part of the text.
        assert_ne!(rank(2, "a"), rank(1, "a"));
    }

    #[test]
    fn a_sample_is_the_first_k_by_rank() {
        let all = names(50);
        let picked = draw(&all, Sample { size: 7, seed: 28 }).unwrap();
        assert_eq!(picked.len(), 7);
        let ranks: Vec<String> = picked.iter().map(|&i| rank(28, &all[i])).collect();
        assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
        // Every instance left out ranks after the last one taken.
        for (i, name) in all.iter().enumerate() {
            if !picked.contains(&i) {
                assert!(rank(28, name) > ranks[6], "{name}");
            }
        }
    }

    #[test]
    fn a_larger_sample_keeps_the_smaller_one_and_the_order_ignores_other_names() {
        let all = names(40);
        let small = draw(&all, Sample { size: 5, seed: 3 }).unwrap();
        let large = draw(&all, Sample { size: 20, seed: 3 }).unwrap();
        assert_eq!(small, large[..5]);
        // More files in the set, in another order: the same instances, by name, come first
        // unless a new one ranks before them.
        let mut more = names(80);
        more.reverse();
        let again: Vec<&String> = draw(&more, Sample { size: 80, seed: 3 })
            .unwrap()
            .into_iter()
            .map(|i| &more[i])
            .filter(|n| all.contains(n))
            .collect();
        let first: Vec<&String> = large.iter().map(|&i| &all[i]).collect();
        assert_eq!(again[..20], first[..]);
        // Another seed, another order.
        assert_ne!(draw(&all, Sample { size: 20, seed: 4 }).unwrap(), large);
    }

    #[test]
    fn bad_samples_are_refused() {
        let all = names(3);
        assert_eq!(draw(&all, Sample::new(0)), Err(SampleError::Empty));
        assert_eq!(
            draw(&all, Sample::new(4)),
            Err(SampleError::TooFew {
                size: 4,
                instances: 3
            })
        );
        assert_eq!(draw(&all, Sample::new(3)).unwrap().len(), 3);
        let twice = vec!["a".to_string(), "b".to_string(), "a".to_string()];
        assert_eq!(
            draw(&twice, Sample::new(1)),
            Err(SampleError::SameName("a".into()))
        );
    }
}
