//! The generators' pseudo-random numbers: SplitMix64 with unbiased bounded integers.
//!
//! The stream is part of the instance-file contract: the same family, parameters and seed must
//! give the same file on every machine and in every later version that keeps the generator
//! version. A fixed, fully specified algorithm written out here (integer arithmetic only, no
//! platform or crate-version dependence) guarantees that; a test pins generated files.

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by a constant, then mixed.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..bound` (`bound > 0`), without modulo bias (Lemire's
    /// multiply-and-reject method).
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "below(0)");
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let m = (self.next_u64() as u128) * (bound as u128);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// A uniform index in `0..len` (`len > 0`).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// `true` with probability `p` (0 <= p <= 1), from the top 53 bits.
    pub fn chance(&mut self, p: f64) -> bool {
        let u = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        u < p
    }

    /// Shuffles `items` in place (Fisher-Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// `k` distinct indices of `0..len`, in the order drawn (partial Fisher-Yates). The pool
    /// `0..len` is virtual (only the swapped places are stored), so memory is O(k) however
    /// large `len` is.
    pub fn sample(&mut self, len: usize, k: usize) -> Vec<usize> {
        let mut moved: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
        let k = k.min(len);
        let mut out = Vec::with_capacity(k);
        for i in 0..k {
            let j = i + self.index(len - i);
            let at_i = moved.get(&i).copied().unwrap_or(i);
            let at_j = moved.get(&j).copied().unwrap_or(j);
            moved.insert(j, at_i);
            out.push(at_j);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_reference_stream() {
        // Seeded with 1234567, SplitMix64 starts with these outputs (the published reference
        // values, Rosetta Code "Pseudo-random numbers/Splitmix64").
        let mut r = SplitMix64::new(1234567);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(
            first,
            [
                6457827717110365317,
                3203168211198807973,
                9817491932198370423
            ]
        );
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = SplitMix64::new(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.index(7)] += 1;
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
    }

    #[test]
    fn sample_is_the_partial_fisher_yates_of_the_whole_pool() {
        // The same draws on a real pool, as the independent reference.
        for (len, k, seed) in [(10, 10, 1), (100, 7, 2), (1000, 999, 3), (5, 0, 4)] {
            let mut a = SplitMix64::new(seed);
            let mut b = SplitMix64::new(seed);
            let mut pool: Vec<usize> = (0..len).collect();
            for i in 0..k {
                let j = i + b.index(len - i);
                pool.swap(i, j);
            }
            assert_eq!(a.sample(len, k), pool[..k]);
        }
    }

    #[test]
    fn sample_is_distinct() {
        let mut r = SplitMix64::new(3);
        let mut s = r.sample(100, 40);
        assert_eq!(s.len(), 40);
        s.sort();
        s.dedup();
        assert_eq!(s.len(), 40);
    }
}
