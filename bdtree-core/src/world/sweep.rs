//! Broad phase for many bodies: sweep-and-prune over the bodies' root spheres, and a pair filter.
//!
//! [`SweepAndPrune`] keeps the bodies sorted by the lower end of their root sphere's x interval
//! in the caller's storage. Each step it re-sorts by insertion sort — `O(n + swaps)`, and with
//! frame coherence few bodies swap — then sweeps once, and reports every pair whose x intervals
//! overlap and whose spheres pass [`spheres_overlap`]: exactly the all-pairs answer (the sweep
//! only skips pairs whose x intervals are disjoint, which `spheres_overlap` would reject too,
//! since the intervals are the spheres' own extents widened by more than that test's slack).
//!
//! [`PairFilter`] says which pairs may collide at all: an allowed-collision matrix
//! ([`BitMatrix`], one bit per pair in caller storage — adjacent links of a robot arm are the
//! classic entry), or any closure. A body's diagonal bit turns its self-collision on or off.

use crate::bounds::sphere::spheres_overlap;
use crate::scalar::Scalar;

/// Which body pairs may collide.
pub trait PairFilter {
    /// Whether bodies `i` and `j` (`i <= j`; `i == j` asks about self-collision) may collide.
    fn allows(&self, i: usize, j: usize) -> bool;
}

/// Every pair allowed; no self-collision.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllPairs;

impl PairFilter for AllPairs {
    fn allows(&self, i: usize, j: usize) -> bool {
        i != j
    }
}

impl<F: Fn(usize, usize) -> bool> PairFilter for F {
    fn allows(&self, i: usize, j: usize) -> bool {
        self(i, j)
    }
}

/// A symmetric allowed-collision matrix of `n` bodies, one bit per unordered pair (diagonal
/// included) in the caller's words: `n (n + 1) / 2` bits, see [`BitMatrix::words_needed`].
/// Starts with every distinct pair allowed and self-collision off.
///
/// The bit count is computed with checked arithmetic: where `n (n + 1) / 2` does not fit a
/// `usize` (n ≥ 92,682 on 32-bit targets) no matrix can be made and [`BitMatrix::new`] refuses,
/// instead of accepting storage sized by a wrapped product.
#[derive(Debug)]
pub struct BitMatrix<'w> {
    bits: &'w mut [u32],
    n: usize,
}

impl<'w> BitMatrix<'w> {
    /// Words a matrix of `n` bodies needs; `usize::MAX` (more than any storage holds) when
    /// `n (n + 1) / 2` does not fit a `usize`. See [`BitMatrix::checked_words_needed`].
    pub const fn words_needed(n: usize) -> usize {
        match Self::checked_words_needed(n) {
            Some(w) => w,
            None => usize::MAX,
        }
    }

    /// Words a matrix of `n` bodies needs, or `None` when its bit count `n (n + 1) / 2` does
    /// not fit a `usize`.
    pub const fn checked_words_needed(n: usize) -> Option<usize> {
        match triangular(n as u64, usize::MAX as u64) {
            Some(bits) => Some((bits as usize).div_ceil(32)),
            None => None,
        }
    }

    /// A matrix over the caller's words; `None` when they are too few, or when `n` is so large
    /// that the matrix's bit count does not fit a `usize`.
    pub fn new(words: &'w mut [u32], n: usize) -> Option<Self> {
        if words.len() < Self::checked_words_needed(n)? {
            return None;
        }
        let mut m = Self { bits: words, n };
        for w in m.bits.iter_mut() {
            *w = 0;
        }
        for i in 0..n {
            for j in i + 1..n {
                m.set(i, j, true);
            }
        }
        Some(m)
    }

    /// A matrix over words that already hold one, kept as they are (not reset): words `new`
    /// and [`BitMatrix::set`] wrote earlier, or a table computed offline. Pair `(i, j)`,
    /// `i <= j < n` (`i == j`: self-collision), is bit `b % 32` of word `b / 32` with
    /// `b = j (j + 1) / 2 + i`; a set bit allows it. `None` as for [`BitMatrix::new`].
    pub fn from_words(words: &'w mut [u32], n: usize) -> Option<Self> {
        if words.len() < Self::checked_words_needed(n)? {
            return None;
        }
        Some(Self { bits: words, n })
    }

    /// The matrix, read-only.
    pub fn view(&self) -> BitMatrixView<'_> {
        BitMatrixView {
            bits: self.bits,
            n: self.n,
        }
    }

    fn bit(&self, i: usize, j: usize) -> Option<usize> {
        bit_index(self.n, i, j)
    }

    /// Allows or forbids the pair (or, with `i == j`, the body's self-collision). Indices out
    /// of range are ignored.
    pub fn set(&mut self, i: usize, j: usize, allowed: bool) {
        if let Some(b) = self.bit(i, j) {
            if let Some(w) = self.bits.get_mut(b / 32) {
                let mask = 1u32 << (b % 32);
                *w = if allowed { *w | mask } else { *w & !mask };
            }
        }
    }
}

impl PairFilter for BitMatrix<'_> {
    fn allows(&self, i: usize, j: usize) -> bool {
        allowed(self.bits, self.n, i, j)
    }
}

/// A read-only allowed-collision matrix over words a [`BitMatrix`] wrote, for queries whose
/// filter lives in read-only memory (a table in flash, a C client's `const` array). The layout
/// is [`BitMatrix::from_words`]'s.
#[derive(Debug, Clone, Copy)]
pub struct BitMatrixView<'w> {
    bits: &'w [u32],
    n: usize,
}

impl<'w> BitMatrixView<'w> {
    /// A view of the matrix of `n` bodies in `words`; `None` when they are too few (fewer than
    /// [`BitMatrix::words_needed`]`(n)`).
    pub fn new(words: &'w [u32], n: usize) -> Option<Self> {
        if words.len() < BitMatrix::checked_words_needed(n)? {
            return None;
        }
        Some(Self { bits: words, n })
    }
}

impl PairFilter for BitMatrixView<'_> {
    fn allows(&self, i: usize, j: usize) -> bool {
        allowed(self.bits, self.n, i, j)
    }
}

/// Bit `j (j + 1) / 2 + i` (`i <= j < n`, the pair in either order) of `bits`, bit `b % 32` of
/// word `b / 32`; `false` out of range.
fn allowed(bits: &[u32], n: usize, i: usize, j: usize) -> bool {
    bit_index(n, i, j)
        .and_then(|b| bits.get(b / 32).map(|w| w >> (b % 32) & 1 == 1))
        .unwrap_or(false)
}

/// The bit of pair `(i, j)` in a matrix of `n` bodies (see [`allowed`]).
fn bit_index(n: usize, i: usize, j: usize) -> Option<usize> {
    let (i, j) = if i <= j { (i, j) } else { (j, i) };
    if j >= n {
        return None;
    }
    // `j < n`, and `n (n + 1) / 2` fits (checked by the constructors): so does
    // `j (j + 1) / 2 + i`.
    let row = triangular(j as u64, usize::MAX as u64)? as usize;
    row.checked_add(i)
}

/// `n (n + 1) / 2` when it is at most `max` (the platform's `usize::MAX`), else `None`. The
/// halving comes first (on whichever factor is even), so the result is exact wherever it fits.
const fn triangular(n: u64, max: u64) -> Option<u64> {
    let Some(next) = n.checked_add(1) else {
        return None;
    };
    let (a, b) = if n % 2 == 0 {
        (n / 2, next)
    } else {
        (n, next / 2)
    };
    match a.checked_mul(b) {
        Some(t) if t <= max => Some(t),
        _ => None,
    }
}

/// Sweep-and-prune over root spheres, in caller storage (one `u32` per body).
#[derive(Debug)]
pub struct SweepAndPrune<'s> {
    order: &'s mut [u32],
}

/// How a broad-phase sweep ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SweepStatus {
    /// Every overlapping allowed pair was delivered.
    Complete,
    /// The sink refused pair `(i, j)`: pairs after it were not delivered; treat the rest of the
    /// world as possibly colliding.
    SinkFull {
        /// First body of the refused pair.
        i: u32,
        /// Second body.
        j: u32,
    },
    /// `spheres` is longer than the order storage or the body count does not fit `u32`.
    TooManyBodies,
}

impl<'s> SweepAndPrune<'s> {
    /// A sweep over the caller's order storage (at least one entry per body), initially in
    /// body order.
    pub fn new(order: &'s mut [u32]) -> Self {
        for (k, o) in order.iter_mut().enumerate() {
            *o = u32::try_from(k).unwrap_or(u32::MAX);
        }
        Self { order }
    }

    /// Every pair `(i, j)`, `i < j`, of bodies whose world root spheres (`spheres[i]`, as
    /// [`crate::Body::sphere`]`(0)` returns them) overlap and that `filter` allows, to `sink`
    /// in sweep order. Re-sorts the order storage first (cheap when bodies moved little).
    /// Returns the status and the number of sphere tests made.
    pub fn pairs<S: Scalar>(
        &mut self,
        spheres: &[[S; 4]],
        filter: &impl PairFilter,
        sink: &mut impl FnMut(u32, u32) -> bool,
    ) -> (SweepStatus, u32) {
        let n = spheres.len();
        if n > self.order.len() || u32::try_from(n).is_err() {
            return (SweepStatus::TooManyBodies, 0);
        }
        let order = &mut *self.order;
        // `order` is always a permutation of 0..capacity; bodies at or beyond `n` sort last.
        let lower = |b: u32| -> Option<S> { spheres.get(b as usize).map(lower_x) };
        let in_order = |p: u32, c: u32| match (lower(p), lower(c)) {
            (Some(lp), Some(lc)) => lp <= lc,
            (Some(_), None) | (None, None) => true,
            (None, Some(_)) => false,
        };
        // Insertion sort by the lower end of the x interval.
        for k in 1..order.len() {
            let mut m = k;
            while m > 0 {
                let (Some(&prev), Some(&cur)) = (order.get(m - 1), order.get(m)) else {
                    break;
                };
                if in_order(prev, cur) {
                    break;
                }
                order.swap(m - 1, m);
                m -= 1;
            }
        }
        let order = order.get(..n).unwrap_or(&[]);
        let mut tests = 0u32;
        for (k, &a) in order.iter().enumerate() {
            let Some(sa) = spheres.get(a as usize) else {
                continue;
            };
            let upper_a = upper_x(sa);
            for &b in order.iter().skip(k + 1) {
                let Some(sb) = spheres.get(b as usize) else {
                    continue;
                };
                if lower_x(sb) > upper_a {
                    break;
                }
                let (i, j) = if a < b { (a, b) } else { (b, a) };
                if !filter.allows(i as usize, j as usize) {
                    continue;
                }
                tests += 1;
                if spheres_overlap(*sa, *sb) && !sink(i, j) {
                    return (SweepStatus::SinkFull { i, j }, tests);
                }
            }
        }
        (SweepStatus::Complete, tests)
    }
}

/// Lower end of a sphere's x extent, moved down by `16u (|x| + r)`: more than the rounding of
/// the subtraction plus the `16u` relative slack of [`spheres_overlap`] on `r²` (8u on the
/// distance), so no pair that test accepts has disjoint intervals.
fn lower_x<S: Scalar>(s: &[S; 4]) -> S {
    let v = s[0] - s[3];
    v - (s[0].abs() + s[3]) * S::from_u32(16) * S::UNIT_ROUNDOFF
}

/// Upper end of a sphere's x extent, rounded up.
fn upper_x<S: Scalar>(s: &[S; 4]) -> S {
    let v = s[0] + s[3];
    v + (s[0].abs() + s[3]) * S::from_u32(16) * S::UNIT_ROUNDOFF
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit count of a 32-bit target (`usize` = `u32`): exact up to the largest `n` whose
    /// `n (n + 1) / 2` fits, refused beyond — where the old `usize` product wrapped (from
    /// n = 65,536 on) and accepted undersized storage.
    #[test]
    fn bit_count_is_checked_at_32_bit_width() {
        let max = u64::from(u32::MAX);
        assert_eq!(triangular(0, max), Some(0));
        assert_eq!(triangular(3, max), Some(6));
        // The old computation on 32 bits: (n (n + 1)) mod 2³² / 2.
        let wrapped = |n: u32| n.wrapping_mul(n.wrapping_add(1)) / 2;
        assert_eq!(
            wrapped(65_536),
            32_768,
            "the defect: a tiny count for 65,536 bodies"
        );
        assert_eq!(triangular(65_536, max), Some(2_147_516_416));
        // Largest n that fits 32 bits, and the first that does not.
        assert_eq!(triangular(92_681, max), Some(4_294_930_221));
        assert_eq!(triangular(92_682, max), None);
        assert_eq!(triangular(u64::from(u32::MAX), max), None);
        // Every n on 32 bits either is exact (checked against u128) or refused.
        for n in (0..200_000u64)
            .step_by(7)
            .chain(65_530..65_545)
            .chain(92_670..92_700)
        {
            let exact = u128::from(n) * u128::from(n + 1) / 2;
            match triangular(n, max) {
                Some(t) => assert_eq!(u128::from(t), exact, "n = {n}"),
                None => assert!(exact > u128::from(max), "n = {n} refused but fits"),
            }
        }
        // On a 64-bit usize the same n are all exact.
        assert_eq!(triangular(92_682, u64::MAX), Some(4_295_022_903));
        assert_eq!(triangular(u64::MAX, u64::MAX), None);
    }

    #[test]
    fn an_oversized_matrix_is_refused() {
        assert_eq!(BitMatrix::checked_words_needed(usize::MAX), None);
        assert_eq!(BitMatrix::words_needed(usize::MAX), usize::MAX);
        assert!(BitMatrix::new(&mut [0u32; 4], usize::MAX).is_none());
        // A matrix of 10 bodies needs 55 bits: 2 words.
        assert_eq!(BitMatrix::words_needed(10), 2);
        assert!(BitMatrix::new(&mut [0u32; 1], 10).is_none());
        let mut words = [0u32; 2];
        let m = BitMatrix::new(&mut words, 10).expect("fits");
        assert!(m.allows(0, 9) && !m.allows(9, 9) && !m.allows(3, 10));
    }

    /// Words kept by `from_words` and read by a view answer as the matrix that wrote them, at
    /// the documented bit `j (j + 1) / 2 + i`.
    #[test]
    fn words_are_kept_and_viewed() {
        let n = 9;
        let mut words = [0u32; 2];
        let mut m = BitMatrix::new(&mut words, n).expect("fits");
        m.set(2, 5, false);
        m.set(7, 7, true);
        let before: [[bool; 9]; 9] =
            core::array::from_fn(|i| core::array::from_fn(|j| m.allows(i, j)));
        let mut kept = BitMatrix::from_words(&mut words, n).expect("fits");
        for (i, row) in before.iter().enumerate() {
            for (j, &a) in row.iter().enumerate() {
                assert_eq!(kept.allows(i, j), a, "({i}, {j})");
                assert_eq!(kept.view().allows(i, j), a, "({i}, {j})");
            }
        }
        kept.set(0, 1, false);
        assert!(!kept.allows(1, 0));
        let view = BitMatrixView::new(&words, n).expect("fits");
        assert!(!view.allows(0, 1) && !view.allows(5, 2) && view.allows(7, 7));
        assert!(!view.allows(3, 9), "out of range");
        for (i, j) in [(2, 5), (7, 7), (0, 1), (3, 8)] {
            let b = j * (j + 1) / 2 + i;
            assert_eq!(words[b / 32] >> (b % 32) & 1 == 1, view.allows(i, j));
        }
        assert!(BitMatrixView::new(&words[..1], n).is_none());
        assert!(BitMatrix::from_words(&mut [0u32; 1], n).is_none());
        assert!(BitMatrixView::new(&words, usize::MAX).is_none());
    }
}
