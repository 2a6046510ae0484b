//! A state given in f64 to a body of any precision: a floating origin, and the rounding folded
//! into the body's error bound.
//!
//! A caller that holds its poses and coordinates in f64 (a scene file, a simulation, Python)
//! and rounds them to f32 itself moves every vertex by up to `u₃₂ ‖t‖` — 4 µm at 50 units from
//! the origin, 0.4 mm at 5,000 — and an f32 answer is then exact for the rounded state, not
//! for the caller's. [`Body::set_state_f64`] does two things about it:
//!
//! * **a floating origin**: the caller's `origin` is subtracted from the translation in f64,
//!   before anything is rounded, so the body's precision follows the distance from that point
//!   (give every body of a query the same origin, near the bodies), not from the world's;
//! * **the state's rounding as part of the error bound**: the distance, over every vertex,
//!   between the rounded state and the caller's is bounded in f64 and added to the body's
//!   [`Body::error`], which widens every query's tests and the exact second stage
//!   ([`crate::refine()`]). So the answer is conservative against the state as given: a pair
//!   that touches there is reported, at any distance from the origin.

use super::{Body, BodyError};
use crate::geometry::pose::{Pose, PoseError};
use crate::scalar::Scalar;

impl<S: Scalar> Body<'_, '_, S> {
    /// Starts a new step from a state in f64: the unit quaternion `rotation` `(w, x, y, z)`,
    /// the world `translation`, the reduced coordinates `q`, and a floating `origin` (a world
    /// point subtracted from the translation in f64 before rounding to `S`). The body then sits
    /// at `translation − origin`: every world coordinate the queries take or give for this body
    /// (spheres, contact points, witnesses) is relative to `origin`, and every body of one query
    /// must have the same origin. Choose it near the bodies (e.g. the centre of their
    /// translations): the f32 rounding then depends on how far apart the bodies are, not on where
    /// the robot cell sits.
    ///
    /// The bound on how far the rounded state moves any vertex from the given one
    /// ([`Body::state_error`]: the translation's rounding, the f32 rotation matrix's distance
    /// from the quaternion's exact rotation times the body's extent, and the rounding of `q`
    /// times the mode magnitudes) widens every test of this step, so answers are conservative
    /// against the state as given. Cost: `O(M)` in f64 (soft float on most Cortex-M cores:
    /// a few thousand instructions at M = 10), then [`Body::set_state`].
    ///
    /// Errors as [`Body::set_state`], with [`BodyError::Pose`] for a refused quaternion (its
    /// norm further than [`crate::QUATERNION_TOLERANCE`] from 1) or a non-finite translation or
    /// origin, and [`BodyError::OutOfRange`] for a finite translation (less the origin) or `q`
    /// beyond `S`'s range. A refused state changes nothing.
    pub fn set_state_f64(
        &mut self,
        rotation: [f64; 4],
        translation: [f64; 3],
        q: &[f64],
        origin: [f64; 3],
    ) -> Result<(), BodyError> {
        if translation.iter().chain(&origin).any(|v| !v.is_finite()) {
            return Err(BodyError::Pose(PoseError::NonFinite));
        }
        let local = [
            translation[0] - origin[0],
            translation[1] - origin[1],
            translation[2] - origin[2],
        ];
        // The caller's rotation, exactly as f64 computes it (this checks the quaternion against
        // `QUATERNION_TOLERANCE` in f64), and the one the body will hold: normalised in f64
        // before rounding, so a quaternion accepted here is accepted in `S` too.
        let exact = Pose::<f64>::from_quaternion(rotation, local)?;
        // A finite value beyond `S`'s range is out of range, not non-finite (`commit` checks
        // the length and the rest).
        if local
            .iter()
            .chain(q)
            .any(|&x| x.is_finite() && !S::from_f64(x).is_finite())
        {
            return Err(BodyError::OutOfRange);
        }
        let n = Scalar::sqrt(rotation.iter().map(|x| x * x).sum::<f64>());
        let unit = rotation.map(|x| S::from_f64(x / n));
        let pose = Pose::<S>::from_quaternion(unit, local.map(S::from_f64))?;
        let error = self.state_rounding(&exact, &pose, q, origin == [0.0; 3]);
        self.commit(pose, q.iter().map(|&x| S::from_f64(x)), round_up(error))
    }

    /// A bound, in f64, on `‖(R x + t) − (R' x' + t')‖₂` over every vertex `x = p + U q` of the
    /// body's source model, where `R, t, q` is the caller's state (`exact`, `q`) and `R', t',
    /// q'` the rounded one (`pose`, `q` in `S`):
    ///
    /// `‖t − t'‖ + ‖R − R'‖_F ‖x‖ + ‖R'‖₂ ‖U (q − q')‖`, with `‖x‖ ≤ √3 (X₀ + Σ A_j |q_j|)`,
    /// `‖U (q − q')‖ ≤ √3 Σ A_j |q_j − q'_j|` (`X₀ ≥ ‖c‖∞ + R` and `A_j ≥ ‖Ū_j‖∞ + ΔR_j` over
    /// the tree's nodes) and `‖R'‖₂ ≤ 1 + ‖R − R'‖_F`, plus the rounding of `translation −
    /// origin` in f64 and a relative `2⁻²⁰` for this sum's own rounding and the model's storage.
    fn state_rounding(
        &self,
        exact: &Pose<f64>,
        pose: &Pose<S>,
        q: &[f64],
        origin_is_zero: bool,
    ) -> f64 {
        let mut dt2 = 0.0f64;
        let mut t2 = 0.0f64;
        for (&t, &t_s) in exact.translation.iter().zip(&pose.translation) {
            let d = t - t_s.to_f64();
            dt2 += d * d;
            t2 += t * t;
        }
        let mut dr2 = 0.0f64;
        for (row, row_s) in exact.rotation.iter().zip(&pose.rotation) {
            for (&r, &r_s) in row.iter().zip(row_s) {
                let d = r - r_s.to_f64();
                dr2 += d * d;
            }
        }
        let mut extent = self.tree.magnitude().to_f64();
        let mut dq = 0.0f64;
        for (&a, &qj) in self.tree.mode_magnitudes().iter().zip(q) {
            let a = a.to_f64();
            extent += a * qj.abs();
            dq += a * (qj - S::from_f64(qj).to_f64()).abs();
        }
        let (dt, dr) = (Scalar::sqrt(dt2), Scalar::sqrt(dr2));
        let sqrt3 = 1.732_050_807_568_877_5_f64;
        // `translation − origin` is exact when the origin is 0.
        let subtraction = if origin_is_zero {
            0.0
        } else {
            f64::EPSILON * Scalar::sqrt(t2)
        };
        let total = dt + subtraction + sqrt3 * (dr * extent + (1.0 + dr) * dq);
        total * (1.0 + 1.0 / 1_048_576.0)
    }
}

/// `x ≥ 0` rounded up to `S` (never below `x`; 0 stays 0).
fn round_up<S: Scalar>(x: f64) -> S {
    if x <= 0.0 {
        return S::ZERO;
    }
    let u = S::UNIT_ROUNDOFF.to_f64();
    // Rounding to nearest loses at most a relative u of a normal value; the absolute term
    // covers values in the subnormal range of `S`.
    S::from_f64(x * (1.0 + 4.0 * u) + f64::from(f32::MIN_POSITIVE))
}

/// The floating origin of a query over bodies at these world `translations`: the centre of
/// their axis-aligned box, computed in f64 (the world origin when there is none, or when a
/// translation is not finite). This is the one placing rule of every surface: a body pair is
/// placed at the origin of its two bodies' translations, a swept pair at the origin of its two
/// bodies' translations at both ends of the motion (four points), a body's self pairs at its
/// own translation(s). A pair's f32 precision then depends on the two bodies' sizes and their
/// distance from each other, not on where other bodies or the robot cell sit.
///
/// ```
/// use bdtree_core::floating_origin;
/// let o = floating_origin(&[[1000.0, 0.0, 2.0], [1002.0, 4.0, 2.0]]);
/// assert_eq!(o, [1001.0, 2.0, 2.0]);
/// ```
pub fn floating_origin(translations: &[[f64; 3]]) -> [f64; 3] {
    let mut origin = [0.0f64; 3];
    for (k, o) in origin.iter_mut().enumerate() {
        let (low, high) = translations
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
                (lo.min(t[k]), hi.max(t[k]))
            });
        let mid = 0.5 * low + 0.5 * high;
        *o = if mid.is_finite() { mid } else { 0.0 };
    }
    origin
}
