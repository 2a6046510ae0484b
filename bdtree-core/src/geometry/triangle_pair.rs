//! What two triangles are to each other: the contact of a touching pair (a point, the
//! normal and depth of least penetration) and the separation the distance queries report.
//!
//! # One pair of triangles
//!
//! [`triangle_contact`] takes two world triangles whose vertices are known to within `error`
//! per coordinate (a body's [`crate::Body::error`], summed over the two bodies):
//!
//! * **point**: the mean of the points where an edge of one triangle crosses the other (each
//!   such crossing lies on the intersection segment, so their mean does too); when no crossing
//!   is found within rounding (coplanar overlap, a vertex resting on a face, zero-area
//!   triangles) the midpoint of the two closest points. Either way the point lies within
//!   [`contact_tolerance`] `T` of both computed triangles — never only on the one whose edge it
//!   came from.
//! * **normal** and **depth**: the pair's minimum translation: over the 17 candidate axes of
//!   two triangles (both normals, the nine edge × edge crosses, the six in-plane edge normals —
//!   every face normal of their Minkowski difference is among them, so the least overlap over
//!   these axes is the least over all directions), the unit axis `n` of least overlap `d` of
//!   the projections, oriented from the first triangle to the second: moving the second
//!   triangle by `d n` separates the pair. `d` is local to the two triangles (how far *they*
//!   interpenetrate), not a depth of the bodies ([`super::penetration`] gives the features
//!   behind it and its derivative with respect to the vertices). Pairs that only touch
//!   within rounding have `d` within rounding of 0, possibly slightly negative. Axes nearly
//!   parallel to a degenerate cross (edges within `4√u` radians of parallel) are skipped;
//!   when no axis is left (two zero-area triangles), the normal is the unit `x` axis and the
//!   depth 0.
//!
//! **Pairs that do not touch are not contacts.** The exact leaf test
//! ([`crate::geometry::triangle::triangles_may_intersect`]) widens every separating axis by the
//! rounding bound, and a near-degenerate pair (a zero-area triangle, parallel edges) can pass
//! it although the triangles are far apart. [`triangle_contact`] therefore measures the pair's
//! distance (the closest points over the 6 vertex–triangle, 9 edge–edge and 6 edge–crossing
//! feature pairs) and returns `None` when it exceeds `2T`: intersecting triangles always come
//! out within `2T` (their computed vertices are within `√3 · error` of the exact ones, and the
//! feature distances carry a few `u` of the coordinates), so a contact is never lost, and a
//! reported point is never far from either triangle.
//!
//! **Slivers are the exception (measured, issue 50).** The feature distances carry a few `u` of
//! the coordinates only while both triangles are well shaped: a sliver's plane normal is
//! rounded by about `u / sin φ` of its length and its face solve by `u / sin² φ` (`φ` its
//! smallest angle), and a crossing or nearest point computed through them can lie far off the
//! sliver. A sliver pair's closest features can then come out farther than `2T` apart although
//! the triangles touch (859 of 20,000 random sliver pairs through a common point, the test
//! `triangle_pair_witness`); [`triangle_contact`] therefore keeps every pair the exact test
//! accepts when a triangle is a sliver (an angle's sine below 1/16), so no contact is lost, and
//! its point is then within `T / sin² φ` of both (asserted; at most `0.027 T / sin² φ`
//! measured). For pairs of triangles whose smallest sine is at least 0.02 both the contact
//! point and the distance query's point of a pair that may intersect (`triangle_separation`)
//! are within `T` of both (at most `0.85 T` measured, `0.05 T` on pairs of triangles built with
//! angles above 0.5 rad).
//!
//! # Tolerance
//!
//! ```text
//! T = 4 · error + 64 · u · (w + error)       (w the largest |coordinate| of the six vertices)
//! ```
//!
//! A reported point is within `T` of each computed triangle, hence within `T + √3 · error` of
//! each exact one. In f32, for unit-size bodies near the origin and M = 10, `T ≈ 10⁻⁵`.

// `!(x > 0)` is meant: NaN takes the degenerate branch, never the division.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::geometry::closest::{
    closest_points, crossing_mean, intersection_point, triangle_distance,
};
use crate::geometry::penetration::least_penetration;
use crate::geometry::triangle::triangles_may_intersect;
use crate::scalar::{add, cross, dot, norm1, norm_inf, scale, sub, Scalar};

type V<S> = [S; 3];

/// The tolerance `T` of [`triangle_contact`] for two triangles whose vertices are known to
/// within `error` per coordinate (module docs): a reported point lies within `T` of both.
pub fn contact_tolerance<S: Scalar>(a: &[[S; 3]; 3], b: &[[S; 3]; 3], error: S) -> S {
    let mut w = S::ZERO;
    for v in a.iter().chain(b.iter()) {
        w = w.max(norm_inf(*v));
    }
    S::from_u32(4) * error + S::from_u32(64) * S::UNIT_ROUNDOFF * (w + error)
}

/// The contact of one pair of triangles (see [`triangle_contact`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TriangleContact<S> {
    /// A point of the intersection (within [`contact_tolerance`] of both triangles).
    pub point: [S; 3],
    /// Unit normal of least penetration, from the first triangle to the second.
    pub normal: [S; 3],
    /// Penetration depth along `normal` (moving the second triangle by `depth · normal`
    /// separates them); within rounding of 0 for touching triangles.
    pub depth: S,
}

/// The contact of two triangles whose vertices are known to within `error` per coordinate:
/// `None` when they do not touch (module docs). Cost: a separating-axis test, then the 21
/// feature pairs of the distance and 17 normalised axes (17 square roots).
pub fn triangle_contact<S: Scalar>(
    a: &[[S; 3]; 3],
    b: &[[S; 3]; 3],
    error: S,
) -> Option<TriangleContact<S>> {
    if !triangles_may_intersect(a, b, error) {
        return None;
    }
    let t = contact_tolerance(a, b, error);
    let (d2, pa, pb) = closest_points(a, b);
    let limit = t + t;
    // Far apart by the closest features: not a contact — unless a triangle is a sliver, whose
    // closest features are computed too far apart (issue 50: 859 of 20,000 touching sliver
    // pairs were lost here); the exact test above accepted the pair, so it is kept.
    if !d2.is_finite() || (d2 > limit * limit && !sliver(a) && !sliver(b)) {
        return None;
    }
    let point = crossing_mean(a, b, t).unwrap_or_else(|| scale(add(pa, pb), S::from_f64(0.5)));
    let (normal, depth) = least_penetration(a, b).map_or_else(
        || {
            let (o, i) = (S::ZERO, S::ONE);
            ([i, o, o], o)
        },
        |p| (p.normal, p.depth),
    );
    Some(TriangleContact {
        point,
        normal,
        depth,
    })
}

/// Whether a triangle has an angle whose sine is below 1/16 (about 3.6°): its plane and its
/// closest features are ill-conditioned (their error grows as `1 / sin² φ`). Zero-area
/// triangles count.
fn sliver<S: Scalar>(t: &[V<S>; 3]) -> bool {
    let e = [sub(t[1], t[0]), sub(t[2], t[1]), sub(t[0], t[2])];
    let area2 = {
        let n = cross(e[0], e[1]);
        dot(n, n)
    };
    let limit = S::ONE / S::from_u32(256);
    // sin² of the angle between edges i and i + 1 is |eᵢ × eᵢ₊₁|² / (|eᵢ|² |eᵢ₊₁|²), and every
    // such cross product has the norm of twice the area.
    [(e[0], e[1]), (e[1], e[2]), (e[2], e[0])]
        .iter()
        .any(|&(x, y)| !(area2 > limit * dot(x, x) * dot(y, y)))
}

/// Two triangles' separation as the distance queries report it (see [`triangle_separation`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TriangleSeparation<S> {
    /// The distance (0 when they may intersect).
    pub distance: S,
    /// The nearest point of `a` (a point of the intersection when they may intersect).
    pub point_a: V<S>,
    /// The nearest point of `b` (equal to `point_a` when they may intersect).
    pub point_b: V<S>,
    /// Unit normal from `a` to `b` (zero when they may intersect or are at distance 0).
    pub normal: V<S>,
    /// Whether they may intersect within `error` ([`triangles_may_intersect`]).
    pub intersecting: bool,
}

/// Whether two triangles whose vertices are known to within `error` per coordinate are
/// certainly farther apart than `bound` — or, with `ties`, certainly not closer than `bound`
/// less the distance's own accuracy `√3 τ` — from five separating axes: the three coordinate
/// axes (the gap between the boxes) and the two normals (the gap between each triangle's plane
/// and the other triangle). Along an axis `n`, the computed projections' gap `g` exceeds the
/// exact one by at most `|n|₁ τ` (the leaf test's tolerance per unit axis, which covers the
/// vertices' error and the projections' rounding), so `(g − |n|₁ τ) / |n|₂` bounds the exact
/// distance from below; it is compared with the threshold as `g − |n|₁ τ > threshold |n|₂ (1 +
/// 4u)` (the square root and product covered by the `4u`). `false` when no axis proves it (or
/// for NaN).
///
/// `ties` is for the nearest-distance search: a pair that cannot come closer than the best
/// distance by more than the answer's accuracy cannot change it beyond that accuracy, and two
/// parallel sheets have thousands of pairs at exactly the best distance, which a strict
/// comparison would all evaluate. A yes/no proximity test (`closer_than`) must not skip those.
///
/// The boxes first (no multiplication), then each normal: ~70 multiply-adds and two square
/// roots at most, against the thousands of [`triangle_separation`] — the distance search skips
/// a leaf pair this proves farther than the best distance found.
pub(crate) fn farther_than<S: Scalar>(
    a: &[V<S>; 3],
    b: &[V<S>; 3],
    error: S,
    bound: S,
    ties: bool,
) -> bool {
    let mut w = S::ZERO;
    for v in a.iter().chain(b.iter()) {
        w = w.max(norm_inf(*v));
    }
    let u = S::UNIT_ROUNDOFF;
    let eight = S::from_u32(8);
    let tau = (error + error + eight * u * (w + error)) * (S::ONE + eight * u);
    let slack = S::ONE + S::from_u32(4) * u;
    // `√3 τ` rounded up (1.7321 > √3).
    let bound = if ties {
        bound - S::from_f64(1.7321) * tau
    } else {
        bound
    };
    for k in 0..3 {
        let lo = |t: &[V<S>; 3]| t[0][k].min(t[1][k]).min(t[2][k]);
        let hi = |t: &[V<S>; 3]| t[0][k].max(t[1][k]).max(t[2][k]);
        if (lo(b) - hi(a)).max(lo(a) - hi(b)) - tau > bound * slack {
            return true;
        }
    }
    for t in [a, b] {
        let n = cross(sub(t[1], t[0]), sub(t[2], t[1]));
        let span = |t: &[V<S>; 3]| {
            let p = [dot(n, t[0]), dot(n, t[1]), dot(n, t[2])];
            (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
        };
        let ((lo_a, hi_a), (lo_b, hi_b)) = (span(a), span(b));
        let g = (lo_b - hi_a).max(lo_a - hi_b) - norm1(n) * tau;
        if g > S::ZERO && g > bound * dot(n, n).sqrt() * slack {
            return true;
        }
    }
    false
}

/// The separation of two triangles whose vertices are known to within `error` per
/// coordinate: a point of their intersection when they may intersect (within
/// [`contact_tolerance`] `T` of both, or `T / sin² φ` for a sliver of smallest angle `φ`:
/// module docs), otherwise the exact
/// distance ([`triangle_distance`]), its nearest points and the unit normal from `a` to `b`.
pub(crate) fn triangle_separation<S: Scalar>(
    a: &[V<S>; 3],
    b: &[V<S>; 3],
    error: S,
) -> TriangleSeparation<S> {
    if triangles_may_intersect(a, b, error) {
        let p = intersection_point(a, b, contact_tolerance(a, b, error));
        return TriangleSeparation {
            distance: S::ZERO,
            point_a: p,
            point_b: p,
            normal: [S::ZERO; 3],
            intersecting: true,
        };
    }
    let (d2, x, y) = triangle_distance(a, b);
    let distance = d2.sqrt();
    let normal = if distance > S::ZERO {
        scale(sub(y, x), S::ONE / distance)
    } else {
        [S::ZERO; 3]
    };
    TriangleSeparation {
        distance,
        point_a: x,
        point_b: y,
        normal,
        intersecting: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    #[test]
    fn a_piercing_pair_has_its_crossing_as_point_and_the_short_way_out_as_depth() {
        // A thin triangle pierces T along the segment (0.2, 0.2, 0)–(0.215, 0.23, 0), 0.3
        // deep below and 0.7 above; the least overlap over directions sampled on a 400 × 800
        // grid of the sphere is 0.21618 (an edge–edge axis near −x), above 0.3 along z.
        let b = [[0.2, 0.2, -0.3], [0.2, 0.2, 0.7], [0.25, 0.3, 0.7]];
        let c = triangle_contact(&T, &b, 0.0).expect("contact");
        let mid = [0.2075, 0.215, 0.0];
        assert!(
            c.point.iter().zip(mid).all(|(x, y)| (x - y).abs() < 1e-12),
            "{:?}",
            c.point
        );
        assert!(c.depth > 0.2 && c.depth <= 0.21619, "depth {}", c.depth);
        assert!(c.normal[0] < -0.99, "normal {:?}", c.normal);
        let n2: f64 = c.normal.iter().map(|x| x * x).sum();
        assert!((n2 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_far_zero_area_pair_is_no_contact() {
        // A point triangle and a segment triangle the separating-axis test cannot separate.
        let point = [[0.0, 0.0, 1.0]; 3];
        let segment = [[5.0, 0.0, 0.0], [6.0, 0.0, 0.0], [5.5, 0.0, 0.0]];
        assert!(triangle_contact(&point, &segment, 0.0).is_none());
    }
}
