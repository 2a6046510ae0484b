//! Broad phase for many bodies: a hashed uniform grid over root spheres, in caller storage.
//!
//! [`UniformGrid`] answers the same question as [`super::sweep::SweepAndPrune`] — every pair
//! `(i, j)`, `i < j`, that the [`PairFilter`] allows and whose spheres pass
//! [`spheres_overlap`] — in `O(n + pairs near each other)` whatever the bodies' layout: a heap
//! of bodies in a column (many bodies in every x slice, where the sweep tests `O(n²)` pairs)
//! and a floor (`√n` per slice, `O(n^1.5)` for the sweep) alike.
//!
//! ```text
//! h = 2 r_max (1 + 2⁻¹⁶), at least the world's extent / 2²⁰     (the cell rule)
//! cell(i) = ⌊(c_i − c_min) / h⌋ per axis (f64)                   every body in one cell
//! counting sort of the bodies by hash(cell) into 2^k ≥ 2n buckets
//! for i in 0..n: for the 27 cells around cell(i): for j in its bucket, j > i, cell(j) = it:
//!     filter.allows(i, j) and spheres_overlap → sink(i, j)
//! ```
//!
//! **The cell rule.** The cell's side is the largest root diameter, grown by `2⁻¹⁶` (more than
//! the `16u` slack of [`spheres_overlap`] on `r²` in f32 or f64, and the f64 rounding of the
//! cell coordinates): two spheres the test accepts have centres less than one cell apart on
//! every axis, so their cells are neighbours (or one cell). The side is at least the extent of
//! the centres divided by 2²⁰, so cell coordinates stay below 2²⁰ (exact in `u32`, and the
//! f64 rounding of `(c − c_min) / h` stays far below the margin). A world of equal bodies (a
//! heap of chairs) gets cells one body across: each body meets the few in the 27 cells around
//! it. A world mixing huge and tiny radii gets cells sized by its largest: still exact, but
//! the tiny bodies share cells (the sweep may then do better; see the book's broad-phase
//! chapter for the measured choice).
//!
//! **Order.** Pairs come by first body ascending; for one first body, by neighbour cell (the
//! 27 offsets in `z, y, x` order from `−1`), then by second body ascending. This is not the
//! sweep's order (which follows the x sort); a caller that needs one order sorts the pairs —
//! the set is the same, all-pairs brute force's.
//!
//! **Storage.** [`UniformGrid::words_needed`]`(n)` words: the sorted bodies, the bucket starts
//! and each body's cell. Fewer words, or a body count beyond `u32`, end with
//! [`GridStatus::TooManyBodies`] naming the words needed, before any pair is delivered (the
//! caller grows its storage or falls back to the sweep). A sphere with a non-finite
//! coordinate or radius, or a negative radius, ends with [`GridStatus::NotFinite`], before
//! any pair is delivered.
//!
//! Cost: one pass over the spheres (bounds), one for the cells, a counting sort (`O(n + 2^k)`),
//! then 27 bucket lookups per body and one sphere test per allowed pair of neighbour cells.

use crate::bounds::sphere::spheres_overlap;
use crate::scalar::Scalar;
use crate::world::sweep::PairFilter;

/// How a grid query ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum GridStatus {
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
    /// The storage holds fewer than `words` (what these bodies need), or the body count does
    /// not fit `u32` (`words` is then `usize::MAX`). No pair was delivered.
    TooManyBodies {
        /// Words these bodies need ([`UniformGrid::words_needed`]).
        words: usize,
    },
    /// Body `body`'s sphere has a non-finite coordinate or radius, or a negative radius. No
    /// pair was delivered.
    NotFinite {
        /// The body.
        body: u32,
    },
}

/// A hashed uniform grid over root spheres, in caller storage (module docs).
#[derive(Debug)]
pub struct UniformGrid<'s> {
    words: &'s mut [u32],
}

/// Cells per axis at most (`2²⁰`): the cell side grows with the world's extent beyond that.
const MAX_CELLS: f64 = 1_048_576.0;
/// The cell side's relative growth over the largest diameter (`2⁻¹⁶`).
const GROWTH: f64 = 1.0 / 65_536.0;

impl<'s> UniformGrid<'s> {
    /// Buckets for `n` bodies: the smallest power of two at least `2n` (at least 1), or `None`
    /// when it does not fit a `usize`.
    const fn buckets(n: usize) -> Option<usize> {
        match n.checked_mul(2) {
            Some(m) => m.checked_next_power_of_two(),
            None => None,
        }
    }

    /// Words a grid over `n` bodies needs: `4n + buckets + 1` (sorted bodies, each body's
    /// cell, the bucket starts; `buckets` the smallest power of two at least `2n`): at most
    /// `8n + 1`. `usize::MAX` when that does not fit a `usize`.
    pub const fn words_needed(n: usize) -> usize {
        let Some(b) = Self::buckets(n) else {
            return usize::MAX;
        };
        let Some(cells) = n.checked_mul(4) else {
            return usize::MAX;
        };
        match cells.checked_add(b) {
            Some(w) => match w.checked_add(1) {
                Some(w) => w,
                None => usize::MAX,
            },
            None => usize::MAX,
        }
    }

    /// A grid over the caller's words (any length; a query says when they are too few).
    pub fn new(words: &'s mut [u32]) -> Self {
        Self { words }
    }

    /// Every pair `(i, j)`, `i < j`, of bodies whose world root spheres (`spheres[i]`, as
    /// [`crate::Body::sphere`]`(0)` returns them) overlap and that `filter` allows, to `sink`
    /// in the order of the module docs. Returns the status and the number of sphere tests made.
    pub fn pairs<S: Scalar>(
        &mut self,
        spheres: &[[S; 4]],
        filter: &impl PairFilter,
        sink: &mut impl FnMut(u32, u32) -> bool,
    ) -> (GridStatus, u32) {
        let n = spheres.len();
        let words = Self::words_needed(n);
        if u32::try_from(n).is_err() || words > self.words.len() {
            return (GridStatus::TooManyBodies { words }, 0);
        }
        if n < 2 {
            return (GridStatus::Complete, 0);
        }
        // Bounds of the centres and the largest radius, in f64 (exact from f32 or f64).
        let mut low = [f64::INFINITY; 3];
        let mut high = [f64::NEG_INFINITY; 3];
        let mut radius = 0.0f64;
        for (k, s) in spheres.iter().enumerate() {
            let v = s.map(S::to_f64);
            if !(v.iter().all(|x| x.is_finite()) && v[3] >= 0.0) {
                // `k < n` fits a u32 (checked above).
                return (GridStatus::NotFinite { body: k as u32 }, 0);
            }
            for a in 0..3 {
                low[a] = low[a].min(v[a]);
                high[a] = high[a].max(v[a]);
            }
            radius = radius.max(v[3]);
        }
        let extent = (0..3).fold(0.0f64, |m, a| m.max(high[a] - low[a]));
        let side = (2.0 * radius * (1.0 + GROWTH)).max(extent / MAX_CELLS);
        // All bodies at one point with zero radius: one cell.
        let side = if side > 0.0 && side.is_finite() {
            side
        } else {
            1.0
        };
        let cell_of = |s: &[S; 4]| -> [u32; 3] {
            // `(c − low) / side` is in [0, 2²⁰] up to rounding; `as` saturates.
            let at = |c: S, low: f64| ((c.to_f64() - low) / side) as u32;
            [at(s[0], low[0]), at(s[1], low[1]), at(s[2], low[2])]
        };
        // Both fit (words_needed did not overflow).
        let buckets = Self::buckets(n).unwrap_or(1);
        let mask = buckets - 1;
        let too_few = (GridStatus::TooManyBodies { words }, 0);
        let Some((sorted, rest)) = self.words.split_at_mut_checked(n) else {
            return too_few;
        };
        let Some((cells, rest)) = rest.split_at_mut_checked(3 * n) else {
            return too_few;
        };
        let Some(start) = rest.get_mut(..buckets + 1) else {
            return too_few;
        };
        // Counting sort by bucket: counts, prefix sums, placement (stable: ascending body).
        for s in start.iter_mut() {
            *s = 0;
        }
        for (k, s) in spheres.iter().enumerate() {
            let c = cell_of(s);
            if let Some([x, y, z]) = cells.get_mut(3 * k..3 * k + 3) {
                (*x, *y, *z) = (c[0], c[1], c[2]);
            }
            if let Some(count) = start.get_mut(hash(c) & mask) {
                *count = count.wrapping_add(1);
            }
        }
        let mut sum = 0u32;
        for s in start.iter_mut() {
            let count = *s;
            *s = sum;
            sum = sum.wrapping_add(count);
        }
        // `start[b]` is now the first slot of bucket b; advance a copy while placing. The
        // last entry (`buckets`) stays `n` and serves as the end of the last bucket.
        for k in 0..n {
            let Some(&[x, y, z]) = cells.get(3 * k..3 * k + 3) else {
                continue;
            };
            let b = hash([x, y, z]) & mask;
            if let Some(next) = start.get_mut(b) {
                if let Some(slot) = sorted.get_mut(*next as usize) {
                    *slot = k as u32;
                }
                *next = next.wrapping_add(1);
            }
        }
        // After placement `start[b]` is the end of bucket b = the start of bucket b + 1:
        // bucket b spans `start[b - 1]..start[b]` (from 0 for b = 0).
        let bucket = |b: usize| -> &[u32] {
            let from = if b == 0 {
                0
            } else {
                start.get(b - 1).copied().unwrap_or(0) as usize
            };
            let to = start.get(b).copied().unwrap_or(0) as usize;
            sorted.get(from..to).unwrap_or(&[])
        };
        let mut tests = 0u32;
        for (i, si) in spheres.iter().enumerate() {
            let Some(&[x, y, z]) = cells.get(3 * i..3 * i + 3) else {
                continue;
            };
            let ci = [x, y, z];
            for offset in 0..27u32 {
                let d = [offset % 3, offset / 3 % 3, offset / 9];
                // The neighbour cell; a coordinate below 0 has no bodies.
                let mut near = [0u32; 3];
                let mut outside = false;
                for a in 0..3 {
                    match ci[a].saturating_add(d[a]).checked_sub(1) {
                        Some(v) => near[a] = v,
                        None => outside = true,
                    }
                }
                if outside {
                    continue;
                }
                for &j in bucket(hash(near) & mask) {
                    if j as usize <= i {
                        continue;
                    }
                    let j_cell = cells.get(3 * j as usize..3 * j as usize + 3);
                    if j_cell != Some(&near[..]) {
                        continue;
                    }
                    if !filter.allows(i, j as usize) {
                        continue;
                    }
                    let Some(sj) = spheres.get(j as usize) else {
                        continue;
                    };
                    tests = tests.saturating_add(1);
                    if spheres_overlap(*si, *sj) && !sink(i as u32, j) {
                        return (GridStatus::SinkFull { i: i as u32, j }, tests);
                    }
                }
            }
        }
        (GridStatus::Complete, tests)
    }
}

/// A cell's bucket before masking (a multiplicative hash of its three coordinates).
fn hash(c: [u32; 3]) -> usize {
    let h = c[0].wrapping_mul(0x9E37_79B1)
        ^ c[1].wrapping_mul(0x85EB_CA77)
        ^ c[2].wrapping_mul(0xC2B2_AE3D);
    (h ^ (h >> 15)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_needed_counts_and_refuses_overflow() {
        assert_eq!(UniformGrid::words_needed(0), 2);
        assert_eq!(UniformGrid::words_needed(1), 4 + 2 + 1);
        assert_eq!(UniformGrid::words_needed(3), 12 + 8 + 1);
        assert_eq!(UniformGrid::words_needed(usize::MAX / 2), usize::MAX);
        assert_eq!(UniformGrid::words_needed(usize::MAX), usize::MAX);
    }
}
