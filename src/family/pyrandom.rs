//! CPython's `random` module, reproduced draw for draw: the Mersenne Twister MT19937 as
//! `random.seed(int)` sets it up, and the integer methods built on it (`getrandbits`,
//! `randrange`, `shuffle`).
//!
//! The generators of the n-Queens Completion literature (Gent, Jefferson and Nightingale,
//! JAIR 59, 2017; CSPLib problem 079) are Python scripts seeded with an integer; their published
//! instances are reproduced exactly only with the same stream of numbers. What is reproduced:
//!
//! * `random.seed(s)` for an integer `s`: MT19937's `init_by_array` over the 32-bit words of
//!   `|s|`, least significant first (one word `0` for `s = 0`);
//! * `getrandbits(k)`: the top `k` bits of one output for `k <= 32`; for larger `k`, 32-bit
//!   outputs filling the result from its least significant word, the last one cut to its top
//!   bits (as CPython does on little-endian machines, where the published files were made);
//! * `_randbelow(n)`: `getrandbits(bit_length(n))` drawn again until below `n`;
//! * `randrange(stop)` and `randrange(start, stop, step)`; `shuffle` (Fisher-Yates from the
//!   back, `j = _randbelow(i + 1)`).
//!
//! Floats (`random()`) are not needed by those generators and are left out.
//!
//! ```
//! use queens_sat::family::pyrandom::PyRandom;
//! // python3 -c "import random; random.seed(1); print(random.getrandbits(32))"
//! assert_eq!(PyRandom::new(1).getrandbits(32), 577090037);
//! ```

/// Words of MT19937's state.
const N: usize = 624;
/// MT19937's middle offset.
const M: usize = 397;

/// The state of CPython's `random.Random`: MT19937 and the position in its block of outputs.
#[derive(Clone)]
pub struct PyRandom {
    state: [u32; N],
    index: usize,
}

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PyRandom {{ index: {} }}", self.index)
    }
}

/// Why `randrange` refused its arguments (Python raises `ValueError`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// The range holds no integer.
    #[error("empty range for randrange()")]
    Empty,
    /// A step of zero.
    #[error("zero step for randrange()")]
    ZeroStep,
}

impl PyRandom {
    /// The generator after `random.seed(seed)`.
    pub fn new(seed: u64) -> Self {
        let key = [seed as u32, (seed >> 32) as u32];
        let used = if seed >> 32 == 0 { 1 } else { 2 };
        Self::from_key(&key[..used])
    }

    /// The generator after `random.seed(seed)` for a negative seed too (Python seeds with the
    /// absolute value).
    pub fn from_signed(seed: i64) -> Self {
        Self::new(seed.unsigned_abs())
    }

    /// MT19937's `init_by_array(key)`: what `random.seed` does with the 32-bit words of the
    /// seed's absolute value, least significant first (`[0]` for zero). `key` must not be
    /// empty.
    pub fn from_key(key: &[u32]) -> Self {
        assert!(!key.is_empty(), "init_by_array needs at least one word");
        let mut mt = Self::from_u32(19_650_218);
        let s = &mut mt.state;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = s[i - 1] ^ (s[i - 1] >> 30);
            s[i] = (s[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                s[0] = s[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = s[i - 1] ^ (s[i - 1] >> 30);
            s[i] = (s[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                s[0] = s[N - 1];
                i = 1;
            }
        }
        s[0] = 0x8000_0000;
        mt.index = N;
        mt
    }

    /// MT19937's `init_genrand(seed)`: the state from one 32-bit word.
    fn from_u32(seed: u32) -> Self {
        let mut state = [0u32; N];
        state[0] = seed;
        for i in 1..N {
            let prev = state[i - 1] ^ (state[i - 1] >> 30);
            state[i] = prev.wrapping_mul(1_812_433_253).wrapping_add(i as u32);
        }
        PyRandom { state, index: N }
    }

    /// Computes the next block of 624 words.
    fn twist(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        let s = &mut self.state;
        for k in 0..N {
            let y = (s[k] & UPPER) | (s[(k + 1) % N] & LOWER);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            s[k] = s[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32-bit output (`genrand_uint32`), tempered.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)`, for `k <= 128`: `k` random bits (0 for `k = 0`, drawing nothing).
    pub fn getrandbits(&mut self, k: u32) -> u128 {
        assert!(k <= 128, "getrandbits({k}): at most 128 bits here");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u128::from(self.next_u32() >> (32 - k));
        }
        let mut value = 0u128;
        let mut left = k;
        let mut shift = 0;
        while left > 0 {
            let mut word = self.next_u32();
            if left < 32 {
                word >>= 32 - left;
            }
            value |= u128::from(word) << shift;
            shift += 32;
            left = left.saturating_sub(32);
        }
        value
    }

    /// `_randbelow(n)`: a uniform integer in `0..n` (`n > 0`), by drawing
    /// `getrandbits(bit_length(n))` until the value is below `n`.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n > 0, "randbelow(0)");
        let k = u64::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k) as u64;
            if r < n {
                return r;
            }
        }
    }

    /// `randrange(stop)`: a uniform integer in `0..stop`.
    pub fn randrange_below(&mut self, stop: i64) -> Result<i64, RangeError> {
        if stop <= 0 {
            return Err(RangeError::Empty);
        }
        Ok(self.randbelow(stop as u64) as i64)
    }

    /// `randrange(start, stop, step)`: `start + step * _randbelow(count)`, `count` being the
    /// number of values of the range.
    pub fn randrange(&mut self, start: i64, stop: i64, step: i64) -> Result<i64, RangeError> {
        let (start, stop, step) = (i128::from(start), i128::from(stop), i128::from(step));
        let width = stop - start;
        // Python's `//` rounds towards minus infinity.
        let floor_div = |a: i128, b: i128| {
            let q = a / b;
            if a % b != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            }
        };
        let count = match step {
            0 => return Err(RangeError::ZeroStep),
            s if s > 0 => floor_div(width + s - 1, s),
            s => floor_div(width + s + 1, s),
        };
        if count <= 0 {
            return Err(RangeError::Empty);
        }
        // The range's values are all i64, so count fits in a u64.
        let k = self.randbelow(count as u64);
        Ok((start + step * i128::from(k)) as i64)
    }

    /// `shuffle(items)`: for i from the last index down to 1, swap item i with item
    /// `_randbelow(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The expected values below were printed by CPython 3.11.7, the commands given with each:
    // an independent oracle for the stream.

    #[test]
    fn seeds_give_cpythons_first_outputs() {
        // python3 -c "import random; random.seed(1); print([random.getrandbits(32) for _ in range(4)])"
        let mut r = PyRandom::new(1);
        let v: Vec<u128> = (0..4).map(|_| r.getrandbits(32)).collect();
        assert_eq!(v, [577090037, 2444712010, 3639700191, 3445702192]);
        // python3 -c "import random; random.seed(0); print([random.getrandbits(32) for _ in range(3)])"
        let mut r = PyRandom::new(0);
        let v: Vec<u128> = (0..3).map(|_| r.getrandbits(32)).collect();
        assert_eq!(v, [3626764237, 1654615998, 3255389356]);
        // python3 -c "import random; random.seed(2**32+5); print([random.getrandbits(32) for _ in range(3)])"
        let mut r = PyRandom::new((1 << 32) + 5);
        let v: Vec<u128> = (0..3).map(|_| r.getrandbits(32)).collect();
        assert_eq!(v, [675479763, 2085189291, 1213270837]);
        // python3 -c "import random; random.seed(2**64-1); print([random.getrandbits(32) for _ in range(3)])"
        let mut r = PyRandom::new(u64::MAX);
        let v: Vec<u128> = (0..3).map(|_| r.getrandbits(32)).collect();
        assert_eq!(v, [93740670, 1068495656, 1452108352]);
        // random.seed(-1) seeds as random.seed(1).
        assert_eq!(PyRandom::from_signed(-1).next_u32(), 577090037);
    }

    #[test]
    fn getrandbits_of_any_width_matches_cpython() {
        // python3 -c "import random; random.seed(7); print([random.getrandbits(k) for k in (0, 1, 31, 33, 64, 65, 100)])"
        let mut r = PyRandom::new(7);
        let v: Vec<u128> = [0, 1, 31, 33, 64, 65, 100]
            .iter()
            .map(|&k| r.getrandbits(k))
            .collect();
        assert_eq!(
            v,
            [
                0,
                0,
                2035525362,
                647892279,
                890727360438182992,
                33596580696230145843,
                46173223350539896994877990929
            ]
        );
    }

    #[test]
    fn randrange_matches_cpython() {
        // python3 -c "import random; random.seed(42); print([random.randrange(-1, 2, 2) for _ in range(12)], [random.randrange(10) for _ in range(8)], [random.randrange(3, 100, 7) for _ in range(5)], [random.randrange(10, -10, -3) for _ in range(5)])"
        let mut r = PyRandom::new(42);
        let a: Vec<i64> = (0..12).map(|_| r.randrange(-1, 2, 2).unwrap()).collect();
        assert_eq!(a, [-1, -1, 1, -1, -1, -1, -1, -1, 1, -1, -1, -1]);
        let b: Vec<i64> = (0..8).map(|_| r.randrange_below(10).unwrap()).collect();
        assert_eq!(b, [3, 3, 8, 9, 0, 8, 3, 8]);
        let c: Vec<i64> = (0..5).map(|_| r.randrange(3, 100, 7).unwrap()).collect();
        assert_eq!(c, [45, 24, 52, 66, 31]);
        let d: Vec<i64> = (0..5).map(|_| r.randrange(10, -10, -3).unwrap()).collect();
        assert_eq!(d, [-8, -8, 10, -8, -8]);
        assert_eq!(r.randrange(5, 5, 1), Err(RangeError::Empty));
        assert_eq!(r.randrange(0, 5, 0), Err(RangeError::ZeroStep));
        assert_eq!(r.randrange_below(0), Err(RangeError::Empty));
    }

    #[test]
    fn shuffle_matches_cpython() {
        // python3 -c "import random; random.seed(2017); x = list(range(12)); random.shuffle(x); print(x)"
        let mut r = PyRandom::new(2017);
        let mut x: Vec<u32> = (0..12).collect();
        r.shuffle(&mut x);
        assert_eq!(x, [1, 6, 2, 10, 4, 0, 8, 11, 9, 5, 7, 3]);
    }
}
