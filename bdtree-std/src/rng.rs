//! One small seeded generator for procedural shapes, tests, examples and benchmarks.
//!
//! [`Rng`] is xorshift64* (Marsaglia's xorshift with shifts 12, 25, 27, then a multiply by
//! `0x2545_F491_4F6C_DD1D`; Vigna, "An experimental exploration of Marsaglia's xorshift
//! generators, scrambled", 2016): 8 bytes of state, a full period of `2⁶⁴ − 1`, and a sequence
//! fixed by this file alone, independent of any crate version — so a seed names the same data
//! forever. Generated fixtures (`cargo xtask fixtures`) depend on that: the procedural shapes
//! seed it with [`Rng::new`] and their committed bytes must not change.
//!
//! Not for cryptography, and not for statistics that need more than "uniform enough".

/// A seeded xorshift64* generator (see the module docs).
///
/// ```
/// use bdtree_std::rng::Rng;
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let x = a.uniform(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng(u64);

/// The multiplier of xorshift64*.
const MULTIPLIER: u64 = 0x2545_F491_4F6C_DD1D;

impl Rng {
    /// A generator whose state is `seed` scrambled by one splitmix64 step, so that nearby seeds
    /// (0, 1, 2, …) start far apart. A state of zero (which xorshift never leaves) is replaced
    /// by the multiplier.
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng::from_state(z)
    }

    /// A generator that starts at `state` as it is (zero is replaced by the multiplier).
    pub fn from_state(state: u64) -> Rng {
        Rng(if state == 0 { MULTIPLIER } else { state })
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(MULTIPLIER)
    }

    /// Uniform in `[0, 1)`: the top 53 bits of [`Rng::next_u64`] over `2⁵³`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`: `lo + (hi − lo) · unit`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// An integer in `0..n` (`next_u64() % n`, with the modulo's slight bias; 0 for `n = 0`).
    pub fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n.max(1)).unwrap_or(u64::MAX);
        usize::try_from(self.next_u64() % n).unwrap_or(0)
    }

    /// A uniformly random unit vector (rejection from the cube, points closer than `10⁻³` to
    /// the center refused).
    pub fn unit_vector(&mut self) -> [f64; 3] {
        loop {
            let p = [0; 3].map(|_| 2.0 * self.unit() - 1.0);
            let n = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
            if n > 1e-3 && n <= 1.0 {
                return p.map(|c| c / n);
            }
        }
    }

    /// A uniformly random unit quaternion `(w, x, y, z)` (rejection from the 4-cube, norms
    /// below 0.1 refused).
    pub fn rotation(&mut self) -> [f64; 4] {
        loop {
            let q = [0; 4].map(|_| self.uniform(-1.0, 1.0));
            let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            if n > 0.1 && n <= 1.0 {
                return q.map(|x| x / n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequence is part of the format of generated fixtures: pin its first values.
    #[test]
    fn sequence_is_pinned() {
        let mut rng = Rng::from_state(1);
        assert_eq!(rng.next_u64(), 0x47e4_ce4b_896c_dd1d);
        let mut seeded = Rng::new(0);
        let first = seeded.next_u64();
        assert_eq!(Rng::new(0).next_u64(), first);
        assert_ne!(Rng::new(1).next_u64(), first);
    }

    #[test]
    fn ranges_hold() {
        let mut rng = Rng::new(42);
        for _ in 0..10_000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            assert!(rng.below(7) < 7);
            let v = rng.unit_vector();
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            assert!((n - 1.0).abs() < 1e-12);
        }
        assert_eq!(Rng::from_state(0), Rng::from_state(MULTIPLIER));
        assert_eq!(rng.below(0), 0);
    }
}
