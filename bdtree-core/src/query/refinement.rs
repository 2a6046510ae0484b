//! The exact second stage of an f32 answer: its triangle pairs re-tested in f64.
//!
//! An f32 query is conservative: its leaf test is widened by a bound on the rounding of the
//! whole f32 pipeline (`(2M + 96) u₃₂` of the body's magnitude per coordinate, see
//! [`crate::bounds::sphere`]), so it also reports pairs that are that close without touching. This
//! stage takes the pairs the query reported and tests each again on vertices deformed in f64
//! from the same stored model, pose and `q` (every stored value is exact in f64), widened only
//! by
//!
//! * the f64 rounding of that deformation (the same bound with `u₆₄`), and
//! * the model's storage rounding: every stored f32 position and basis entry is within a
//!   relative `u₃₂` of the f64 source it was made from (and a quantized model within its
//!   stored error), `u₃₂ (X₀ + Σ A_j |q_j|)` per coordinate, twice over for the rotation;
//! * the state's own rounding ([`Body::state_error`]): 0 when the caller gave the state in
//!   `S` ([`Body::set_state`]), the bound on how far rounding the caller's f64 state moved any
//!   vertex when it came through [`Body::set_state_f64`].
//!
//! So the refined answer stays conservative against the f64 source model at the caller's
//! state — a pair that touches there is kept, however far from the origin — and its extras are
//! only pairs closer than about `4 √3 u₃₂ (X₀ + Σ A_j |q_j|)` plus four times the state errors
//! (~`10⁻⁶`–`10⁻⁵` on a unit body), against `~3·10⁻⁵` unrefined.
//!
//! ```text
//! collide(a, b, stack, sink)            f32 walk, widened test      → pairs
//! refine(a, b, &mut pairs)              f64 test per pair           → the pairs kept, in order
//! ```
//!
//! Cost per pair: up to 6 vertex deformations in f64 (`3M + 9` multiply-adds each; a vertex
//! already deformed in this call usually comes from a small memo) and the f64 leaf test, its
//! certificate tried first (most reported pairs do intersect). On hosts that is a small
//! part of the query; on a Cortex-M f64 is soft-float (~24,400 instructions per pair on the
//! M4F at M = 10, measured on QEMU), so
//! the firmware leaves it to the caller. For an f64 body the query is already exact within its
//! own rounding, and this returns every pair unchanged.

use crate::body::Body;
use crate::bounds::sphere::rounding_bound;
use crate::geometry::triangle::triangles_may_intersect_likely;
use crate::scalar::Scalar;
use crate::walk::output::TrianglePair;

/// Re-tests the pairs of a query between `a` and `b` (pair `.a` a triangle of `a`, `.b` of `b`)
/// in f64 and moves the ones that may intersect to the front, in their order; returns how many.
/// A pair whose triangle index is out of range is kept (this stage only ever removes pairs it
/// has shown apart). Returns `pairs.len()` for f64 bodies (nothing to refine).
///
/// Stack: two direct-mapped memos of [`MEMO`] f64 vertices (~3.6 KB), so a vertex shared by
/// several reported triangles is deformed once.
pub fn refine<S: Scalar>(
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
    pairs: &mut [TrianglePair],
) -> usize {
    if S::BYTES >= 8 {
        return pairs.len();
    }
    let error = refine_error(a) + refine_error(b);
    let mut memo_a = Memo::new(a);
    let mut memo_b = Memo::new(b);
    let mut kept = 0usize;
    for i in 0..pairs.len() {
        let Some(&pair) = pairs.get(i) else { break };
        let keep = match (memo_a.triangle(pair.a), memo_b.triangle(pair.b)) {
            (Some(ta), Some(tb)) => triangles_may_intersect_likely(&ta, &tb, error),
            _ => true,
        };
        if keep {
            if let Some(slot) = pairs.get_mut(kept) {
                *slot = pair;
            }
            kept += 1;
        }
    }
    kept
}

/// The per-coordinate bound, in f64, on how far a body's vertices deformed in f64 from its
/// stored model (as [`refine`] does) are from those of the model the image was made from (its
/// f64 source), at the body's state: the f64 rounding of the deformation
/// ([`crate::bounds::sphere::error_bound`] with f64's unit roundoff), plus, twice over for the rotation
/// to world axes, the rounding of the stored values to `S` (`u_S (X₀ + Σ A_j |q_j|)`: every
/// stored position and basis entry is within a relative `u_S` of its source) and, for a
/// quantized model, its storage error.
pub fn refine_error<S: Scalar>(body: &Body<'_, '_, S>) -> f64 {
    let tree = body.tree();
    let q = body.q();
    let mut x = tree.magnitude().to_f64();
    let mut modes = 0u32;
    for (&a, &qj) in tree.mode_magnitudes().iter().zip(q) {
        x += a.to_f64() * qj.to_f64().abs();
        modes = modes.saturating_add(1);
    }
    let rounding = rounding_bound(x, modes, body.pose().translation.map(S::to_f64));
    let stored =
        S::UNIT_ROUNDOFF.to_f64() * x + body.model().storage_error(q.iter().copied()).to_f64();
    // The state's own rounding (0 unless the state was given in f64, see
    // `Body::set_state_f64`): the pairs the caller's state makes touch are kept.
    let state = body.state_error().to_f64();
    rounding + 2.0 * stored * (1.0 + 8.0 * f64::EPSILON) + state
}

/// [`refine`] for the pairs of a self-collision query of `body` (both triangles its own).
pub fn refine_self<S: Scalar>(body: &Body<'_, '_, S>, pairs: &mut [TrianglePair]) -> usize {
    refine(body, body, pairs)
}

/// Entries of each body's vertex memo in [`refine`] (a power of two).
pub const MEMO: usize = 64;

/// A direct-mapped memo of a body's vertices deformed in f64.
struct Memo<'b, 'q, 't, 'c, S: Scalar> {
    body: &'b Body<'t, 'c, S>,
    r: [[f64; 3]; 3],
    t: [f64; 3],
    q: &'q [S],
    keys: [u32; MEMO],
    positions: [[f64; 3]; MEMO],
}

impl<'b, 't, 'c, S: Scalar> Memo<'b, 'b, 't, 'c, S> {
    fn new(body: &'b Body<'t, 'c, S>) -> Self {
        let pose = body.pose();
        Self {
            body,
            r: pose.rotation.map(|row| row.map(S::to_f64)),
            t: pose.translation.map(S::to_f64),
            q: body.q(),
            keys: [u32::MAX; MEMO],
            positions: [[0.0; 3]; MEMO],
        }
    }

    /// The world position of vertex `v` in f64.
    fn vertex(&mut self, v: u32) -> Option<[f64; 3]> {
        let slot = v as usize % MEMO;
        if self.keys.get(slot) == Some(&v) {
            return self.positions.get(slot).copied();
        }
        let x = self.body.model().deformed_f64(v as usize, self.q)?;
        let mut out = [0.0; 3];
        for (ok, (rk, tk)) in out.iter_mut().zip(self.r.iter().zip(self.t)) {
            *ok = rk[0] * x[0] + rk[1] * x[1] + rk[2] * x[2] + tk;
        }
        if let (Some(k), Some(p)) = (self.keys.get_mut(slot), self.positions.get_mut(slot)) {
            *k = v;
            *p = out;
        }
        Some(out)
    }

    /// Triangle `t`'s world vertices in f64.
    fn triangle(&mut self, t: u32) -> Option<[[f64; 3]; 3]> {
        let face = *self.body.model().triangles().get(t as usize)?;
        Some([
            self.vertex(face[0])?,
            self.vertex(face[1])?,
            self.vertex(face[2])?,
        ])
    }
}
