//! Closest features: the nearest points of a point and a segment, of two segments, of a point
//! and a triangle, of two triangles — for every input, zero-area triangles included.
//!
//! A triangle here is the closed convex hull of its three vertices, whatever they are: three
//! coincident vertices make a **point triangle**, three collinear ones a **segment
//! triangle** (the segment between the two farthest vertices), and both have a well-defined
//! distance to anything and witness points on them. Every routine returns points that lie on
//! the closed features (up to the rounding of one affine combination) and never divides by
//! zero: where a formula for the general case has no meaning (a zero-length segment, parallel
//! segments, a collinear triangle), the routine falls back to the lower-dimensional features,
//! which are exact there.
//!
//! **Accuracy.** With `u` the unit roundoff and `w` the largest coordinate magnitude, a witness
//! point is within a few `u w` of a point of its feature. The distance between the witnesses
//! is then at most the true distance plus a few `u w`, except for two nearly parallel segments
//! whose closest points are interior to both, where the two-by-two solve is ill-conditioned
//! and the witnesses can be up to `√(u) · length` farther apart than the true distance (the
//! distance between the two supporting lines stays exact: the error is along the segments).
//!
//! Cost, in multiply-adds: point–segment ~15, segment–segment ~40, point–triangle ~40 (three
//! point–segment fallbacks ~45 more for a zero-area triangle), triangle–triangle the least of
//! 6 point–triangle and 9 segment–segment distances ([`triangle_distance`]; with the 6 edge
//! crossings of [`closest_points`], ~0 for intersecting triangles).
//!
//! This is the kernel's one home of closest features: the distance query
//! ([`crate::separation`]), contact data and `within` ([`crate::contact`]), the swept leaf test
//! ([`crate::swept`]), primitives ([`crate::primitive`]) and the leaf test's axes
//! ([`crate::triangle`]) all use these routines.
//!
//! [`perpendicular`] turns a point–segment pair into a separating-axis candidate for the leaf
//! test ([`crate::triangle`]): the direction from the segment's nearest point to the point,
//! made perpendicular to the segment to rounding accuracy when that point is interior.
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
//!   interpenetrate), not a depth of the bodies. Pairs that only touch within rounding have
//!   `d` within rounding of 0, possibly slightly negative. Axes nearly parallel to a
//!   degenerate cross (edges within `4√u` radians of parallel) are skipped; when no axis is
//!   left (two zero-area triangles), the normal is the unit `x` axis and the depth 0.
//!
//! **Pairs that do not touch are not contacts.** The exact leaf test
//! ([`crate::triangle::triangles_may_intersect`]) widens every separating axis by the
//! rounding bound, and a near-degenerate pair (a zero-area triangle, parallel edges) can pass
//! it although the triangles are far apart. [`triangle_contact`] therefore measures the pair's
//! distance (the closest points over the 6 vertex–triangle, 9 edge–edge and 6 edge–crossing
//! feature pairs) and returns `None` when it exceeds `2T`: intersecting triangles always come
//! out within `2T` (their computed vertices are within `√3 · error` of the exact ones, and the
//! feature distances carry a few `u` of the coordinates), so a contact is never lost, and a
//! reported point is never far from either triangle.
//!
//! # Tolerance
//!
//! ```text
//! T = 4 · error + 64 · u · (w + error)       (w the largest |coordinate| of the six vertices)
//! ```
//!
//! A reported point is within `T` of each computed triangle, hence within `T + √3 · error` of
//! each exact one. In f32, for unit-size bodies near the origin and M = 10, `T ≈ 10⁻⁵`.
//!

// `!(x > 0)` is meant: NaN takes the degenerate branch, never the division.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::scalar::{add, cross, distance2, dot, norm1, norm_inf, scale, sub, Scalar};
use crate::triangle::triangles_may_intersect;

type V<S> = [S; 3];

/// `x` clamped to `[0, 1]`; NaN becomes 0 (a parameter from a degenerate division still names
/// a point of the feature).
#[inline]
fn clamp01<S: Scalar>(x: S) -> S {
    if x > S::ZERO {
        x.min(S::ONE)
    } else {
        S::ZERO
    }
}

/// The point of the closed segment `a b` nearest to `p`, and its parameter `t ∈ [0, 1]`
/// (`a + t (b − a)`). A zero-length segment is the point `a`.
pub fn closest_on_segment<S: Scalar>(p: V<S>, a: V<S>, b: V<S>) -> (V<S>, S) {
    let e = sub(b, a);
    let ee = dot(e, e);
    if !(ee > S::ZERO) {
        return (a, S::ZERO);
    }
    let t = clamp01(dot(sub(p, a), e) / ee);
    if t >= S::ONE {
        (b, S::ONE)
    } else {
        (add(a, scale(e, t)), t)
    }
}

/// A separating-axis candidate from the segment `a b` to the point `p`: `p − a` or `p − b`
/// when the nearest point of the segment is an end, otherwise `p`'s offset from the segment's
/// line, made perpendicular to the segment once more after the first projection so that the
/// segment projects onto it in an interval of rounding width (a few `u |p − a| |b − a|`, not
/// `u |p − a|²` / distance as a plain difference of points would give). Zero when `p` lies on
/// the segment.
///
/// For a point whose nearest feature on the segment is `a b`'s interior or an end, this is the
/// direction of the nearest points, so projecting on it separates the point from the segment
/// by their distance, up to rounding. Cost: ~25 multiply-adds and two divisions.
pub fn perpendicular<S: Scalar>(p: V<S>, a: V<S>, b: V<S>) -> V<S> {
    let e = sub(b, a);
    let w = sub(p, a);
    let ee = dot(e, e);
    if !(ee > S::ZERO) {
        return w;
    }
    let t = dot(w, e) / ee;
    if !(t > S::ZERO) {
        return w;
    }
    if t >= S::ONE {
        return sub(p, b);
    }
    let v = sub(w, scale(e, t));
    let r = dot(v, e) / ee;
    sub(v, scale(e, r))
}

/// The point of triangle `t` nearest to `p` (Ericson, *Real-Time Collision Detection*, 5.1.5,
/// Voronoi regions by barycentric signs). For a triangle whose face test has no positive
/// denominator (collinear or coincident vertices, or an area lost to rounding), the nearest
/// point of its three edges — exact for point and segment triangles.
pub fn closest_on_triangle<S: Scalar>(p: V<S>, t: &[V<S>; 3]) -> V<S> {
    let [a, b, c] = *t;
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= S::ZERO && d2 <= S::ZERO {
        return a;
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= S::ZERO && d4 <= d3 {
        return b;
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= S::ZERO && d5 <= d6 {
        return c;
    }
    let vc = d1 * d4 - d3 * d2;
    let vb = d5 * d2 - d1 * d6;
    let va = d3 * d6 - d5 * d4;
    let denom = va + vb + vc;
    // The area test first: for a collinear triangle the edge-region tests below would trust
    // signs that are only rounding noise.
    if !(denom.is_finite() && denom > S::ZERO) {
        return closest_on_edges(p, t);
    }
    if vc <= S::ZERO && d1 >= S::ZERO && d3 <= S::ZERO {
        let v = d1 / (d1 - d3);
        return add(a, scale(ab, clamp01(v)));
    }
    if vb <= S::ZERO && d2 >= S::ZERO && d6 <= S::ZERO {
        let w = d2 / (d2 - d6);
        return add(a, scale(ac, clamp01(w)));
    }
    if va <= S::ZERO && (d4 - d3) >= S::ZERO && (d5 - d6) >= S::ZERO {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return add(b, scale(sub(c, b), clamp01(w)));
    }
    // Clamped so that the point is on the triangle even where rounding put it in no region.
    let v = clamp01(vb / denom);
    let w = clamp01(vc / denom).min(S::ONE - v);
    add(a, add(scale(ab, v), scale(ac, w)))
}

/// The nearest point to `p` on the three edges of `t`.
fn closest_on_edges<S: Scalar>(p: V<S>, t: &[V<S>; 3]) -> V<S> {
    let [a, b, c] = *t;
    let mut best = closest_on_segment(p, a, b).0;
    let mut best_d = distance2(p, best);
    for (x, y) in [(b, c), (c, a)] {
        let q = closest_on_segment(p, x, y).0;
        let d = distance2(p, q);
        if d < best_d {
            (best, best_d) = (q, d);
        }
    }
    best
}

/// The nearest points of the closed segments `p1 q1` and `p2 q2` (Ericson 5.1.9): the
/// critical point of the squared distance, clamped to the parameter square one parameter at a
/// time. Zero-length segments are points; parallel segments get a nearest pair among their
/// overlapping parts.
pub fn closest_segments<S: Scalar>(p1: V<S>, q1: V<S>, p2: V<S>, q2: V<S>) -> (V<S>, V<S>) {
    let (d1, d2, r) = (sub(q1, p1), sub(q2, p2), sub(p1, p2));
    let (a, e, f) = (dot(d1, d1), dot(d2, d2), dot(d2, r));
    let first_point = !(a > S::ZERO);
    let second_point = !(e > S::ZERO);
    if first_point && second_point {
        return (p1, p2);
    }
    if first_point {
        return (p1, closest_on_segment(p1, p2, q2).0);
    }
    if second_point {
        return (closest_on_segment(p2, p1, q1).0, p2);
    }
    let c = dot(d1, r);
    let b = dot(d1, d2);
    let denom = a * e - b * b;
    let mut s = if denom > S::ZERO {
        clamp01((b * f - c * e) / denom)
    } else {
        // Parallel (or numerically so): any s gives the line distance; start at p1.
        S::ZERO
    };
    let mut t = (b * s + f) / e;
    if !(t > S::ZERO) {
        t = S::ZERO;
        s = clamp01((S::ZERO - c) / a);
    } else if t > S::ONE {
        t = S::ONE;
        s = clamp01((b - c) / a);
    }
    (add(p1, scale(d1, s)), add(p2, scale(d2, t)))
}

/// The nearest points of two triangles (any shape, zero-area included): the best of the 6
/// vertex–triangle and 9 edge–edge pairs. Returns `(distance², on_a, on_b)`; for intersecting
/// triangles the distance found is the rounding-level one of the pair nearest to the
/// intersection, not necessarily 0 (decide intersection with
/// [`crate::triangle::triangles_may_intersect`]).
pub fn triangle_distance<S: Scalar>(a: &[V<S>; 3], b: &[V<S>; 3]) -> (S, V<S>, V<S>) {
    let mut best = (S::from_f64(f64::MAX), a[0], b[0]);
    let mut consider = |x: V<S>, y: V<S>| {
        let d2 = distance2(x, y);
        if d2 < best.0 {
            best = (d2, x, y);
        }
    };
    for &p in a {
        consider(p, closest_on_triangle(p, b));
    }
    for &p in b {
        consider(closest_on_triangle(p, a), p);
    }
    for (p, q) in [(a[0], a[1]), (a[1], a[2]), (a[2], a[0])] {
        for (r, s) in [(b[0], b[1]), (b[1], b[2]), (b[2], b[0])] {
            let (x, y) = closest_segments(p, q, r, s);
            consider(x, y);
        }
    }
    best
}

/// Where segment `p q` crosses the plane of triangle `t`, when its ends are on opposite sides
/// (or on the plane); the point is on the segment (parameter clamped). `None` for a triangle
/// without a plane (zero area) or a segment in the plane.
pub fn plane_crossing<S: Scalar>(p: V<S>, q: V<S>, t: &[V<S>; 3]) -> Option<V<S>> {
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let (dp, dq) = (dot(n, sub(p, t[0])), dot(n, sub(q, t[0])));
    let straddles = (dp <= S::ZERO && dq >= S::ZERO) || (dp >= S::ZERO && dq <= S::ZERO);
    if !straddles || dp == dq {
        return None;
    }
    Some(add(p, scale(sub(q, p), clamp01(dp / (dp - dq)))))
}

/// A triangle's three edges, in order (no index arithmetic, so no bounds check).
fn edges<S: Scalar>(t: &[V<S>; 3]) -> [(V<S>, V<S>); 3] {
    [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]
}

/// [`triangle_distance`] with the 6 edge crossings too (an edge through the other's plane, and
/// the nearest point of the other to that crossing): `(distance², on a, on b)`. Every
/// candidate is a pair of points of the two triangles (up to rounding), so the result never
/// under-estimates the distance by more than rounding, and the crossings make it 0 (up to
/// rounding) for intersecting triangles, where the 15 feature pairs alone do not.
pub fn closest_points<S: Scalar>(a: &[V<S>; 3], b: &[V<S>; 3]) -> (S, V<S>, V<S>) {
    let mut best = triangle_distance(a, b);
    let mut consider = |x: V<S>, y: V<S>| {
        let d2 = distance2(x, y);
        if d2 < best.0 {
            best = (d2, x, y);
        }
    };
    for ((p, q), (r, s)) in edges(a).into_iter().zip(edges(b)) {
        if let Some(x) = plane_crossing(p, q, b) {
            consider(x, closest_on_triangle(x, b));
        }
        if let Some(y) = plane_crossing(r, s, a) {
            consider(closest_on_triangle(y, a), y);
        }
    }
    best
}

/// A point where two intersecting triangles meet: the mean of the points where an edge of one
/// crosses the other's plane within `tolerance` of the other (each lies on the intersection,
/// so their mean does too), or, when there is none (coplanar overlap, a vertex resting on a
/// face, zero-area triangles), the midpoint of their nearest points ([`closest_points`]).
pub fn intersection_point<S: Scalar>(a: &[V<S>; 3], b: &[V<S>; 3], tolerance: S) -> V<S> {
    crossing_mean(a, b, tolerance).unwrap_or_else(|| {
        let (_, x, y) = closest_points(a, b);
        scale(add(x, y), S::from_f64(0.5))
    })
}

/// The mean of the edge crossings of each triangle through the other that lie within
/// `tolerance` of it, or `None` when there is none (see [`intersection_point`]).
pub(crate) fn crossing_mean<S: Scalar>(a: &[V<S>; 3], b: &[V<S>; 3], tolerance: S) -> Option<V<S>> {
    let mut sum = [S::ZERO; 3];
    let mut count = 0u32;
    let t2 = tolerance * tolerance;
    for (edges_of, other) in [(a, b), (b, a)] {
        for (p, q) in edges(edges_of) {
            if let Some(x) = plane_crossing(p, q, other) {
                if distance2(x, closest_on_triangle(x, other)) <= t2 {
                    sum = add(sum, x);
                    count += 1;
                }
            }
        }
    }
    (count > 0).then(|| scale(sum, S::ONE / S::from_u32(count)))
}

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
    if d2 > limit * limit || !d2.is_finite() {
        return None;
    }
    let point = crossing_mean(a, b, t).unwrap_or_else(|| scale(add(pa, pb), S::from_f64(0.5)));
    let (normal, depth) = least_penetration(a, b).unwrap_or_else(|| {
        let (o, i) = (S::ZERO, S::ONE);
        ([i, o, o], o)
    });
    Some(TriangleContact {
        point,
        normal,
        depth,
    })
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
/// coordinate: a point of their intersection when they may intersect, otherwise the exact
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

/// The unit axis of least overlap of the two triangles' projections over the 17 candidate axes,
/// oriented from `a` to `b`, and that overlap; `None` when every axis is degenerate.
fn least_penetration<S: Scalar>(a: &[V<S>; 3], b: &[V<S>; 3]) -> Option<(V<S>, S)> {
    let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
    let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
    let na = cross(ea[0], ea[1]);
    let nb = cross(eb[0], eb[1]);
    // Axis validity: |x × y|² > 16u |x|² |y|² (the generating vectors are not within about
    // 4√u radians of parallel).
    let slack = S::from_u32(16) * S::UNIT_ROUNDOFF;
    let mut best: Option<(V<S>, S)> = None;
    let mut consider = |axis: V<S>, x: V<S>, y: V<S>| {
        let len2 = dot(axis, axis);
        if len2 <= slack * dot(x, x) * dot(y, y) || !len2.is_finite() {
            return;
        }
        let project = |t: &[V<S>; 3]| {
            let p = [dot(axis, t[0]), dot(axis, t[1]), dot(axis, t[2])];
            (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
        };
        let ((min_a, max_a), (min_b, max_b)) = (project(a), project(b));
        let len = len2.sqrt();
        // Pushing b along +axis separates after max_a − min_b, along −axis after max_b − min_a.
        let (up, down) = (max_a - min_b, max_b - min_a);
        let (overlap, sign) = if up <= down {
            (up, S::ONE)
        } else {
            (down, -S::ONE)
        };
        let depth = overlap / len;
        if best.is_none_or(|(_, d)| depth < d) {
            best = Some((scale(axis, sign / len), depth));
        }
    };
    consider(na, ea[0], ea[1]);
    consider(nb, eb[0], eb[1]);
    for e in ea {
        for f in eb {
            consider(cross(e, f), e, f);
        }
    }
    for e in ea {
        consider(cross(na, e), na, e);
    }
    for f in eb {
        consider(cross(nb, f), nb, f);
    }
    best
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

    /// Tolerance for f64 comparisons of unit-sized geometry.
    const EPS: f64 = 1e-12;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        distance2(a, b) <= EPS * EPS
    }

    #[test]
    fn point_segment_cases() {
        let (a, b) = ([0.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
        let cases: [(&str, [f64; 3], [f64; 3]); 4] = [
            ("interior", [1.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
            ("before a", [-1.0, 1.0, 0.0], a),
            ("after b", [3.0, -1.0, 2.0], b),
            ("on it", [0.5, 0.0, 0.0], [0.5, 0.0, 0.0]),
        ];
        for (name, p, want) in cases {
            assert!(close(closest_on_segment(p, a, b).0, want), "{name}");
        }
        // A zero-length segment is its point.
        assert_eq!(closest_on_segment([1.0, 2.0, 3.0], a, a).0, a);
    }

    #[test]
    fn perpendicular_is_perpendicular_and_points_at_p() {
        let (a, b) = ([0.1, 0.2, 0.3], [0.7, -0.4, 1.1]);
        let p = [0.5, 0.5, 0.5];
        let v = perpendicular(p, a, b);
        let e = sub(b, a);
        assert!(dot(v, e).abs() <= 1e-15 * dot(v, v).sqrt() * dot(e, e).sqrt());
        assert!(dot(v, sub(p, a)) > 0.0);
        // Beyond an end: the difference to that end.
        assert_eq!(
            perpendicular([2.0, 0.0, 0.0], [0.0; 3], [1.0, 0.0, 0.0]),
            [1.0, 0.0, 0.0]
        );
        // A zero-length segment: the difference.
        assert_eq!(
            perpendicular([2.0, 1.0, 0.0], [1.0; 3], [1.0; 3]),
            [1.0, 0.0, -1.0]
        );
    }

    #[test]
    fn point_triangle_cases() {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let cases: [(&str, [f64; 3], [f64; 3]); 5] = [
            ("above the face", [0.2, 0.3, 1.0], [0.2, 0.3, 0.0]),
            ("beyond the hypotenuse", [1.0, 1.0, 0.0], [0.5, 0.5, 0.0]),
            ("vertex region", [-1.0, -1.0, 0.5], [0.0, 0.0, 0.0]),
            ("edge region", [0.5, -1.0, 0.0], [0.5, 0.0, 0.0]),
            ("vertex c", [-0.1, 2.0, 0.0], [0.0, 1.0, 0.0]),
        ];
        for (name, p, want) in cases {
            assert!(close(closest_on_triangle(p, &t), want), "{name}");
        }
    }

    #[test]
    fn zero_area_triangles_are_their_segment_or_point() {
        // A segment triangle: a vertex at the midpoint of the other two, in every order.
        let (a, m, b) = ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
        for t in [[a, m, b], [m, a, b], [a, b, m], [b, m, a]] {
            for (p, want) in [
                ([1.5, 1.0, 0.0], [1.5, 0.0, 0.0]),
                ([0.25, 0.0, -3.0], [0.25, 0.0, 0.0]),
                ([3.0, 1.0, 1.0], b),
                ([-1.0, 0.0, 0.0], a),
            ] {
                assert!(close(closest_on_triangle(p, &t), want), "{t:?} {p:?}");
            }
        }
        // A point triangle.
        let q = [0.3, -0.2, 0.9];
        assert_eq!(closest_on_triangle([5.0, 5.0, 5.0], &[q, q, q]), q);
        // The issue's example: a point triangle against a segment triangle 0.0876 apart.
        let p = [0.3894, 0.1422, 0.4740];
        let (s0, s1) = ([0.2375, 0.1491, 0.4292], [0.4038, 0.1320, 0.6275]);
        let mid = scale(add(s0, s1), 0.5);
        let (d2, x, y) = triangle_distance(&[p, p, p], &[s0, mid, s1]);
        let want = closest_on_segment(p, s0, s1).0;
        assert!((d2.sqrt() - 0.0876).abs() < 1e-4, "{}", d2.sqrt());
        assert_eq!(x, p);
        assert!(close(y, want));
    }

    #[test]
    fn segments_parallel_crossing_and_degenerate() {
        // Parallel, overlapping: distance 1, the nearest pair inside the overlap.
        let (x, y) = closest_segments([0.0; 3], [2.0, 0.0, 0.0], [1.0, 1.0, 0.0], [3.0, 1.0, 0.0]);
        assert!((distance2(x, y) - 1.0).abs() < EPS);
        assert!(x[0] >= 1.0 - EPS && x[0] <= 2.0 + EPS);
        // Skew, crossing in projection.
        let (x, y) = closest_segments(
            [-1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, -1.0, 0.5],
            [0.0, 1.0, 0.5],
        );
        assert!(close(x, [0.0; 3]) && close(y, [0.0, 0.0, 0.5]));
        // A point against a segment, both orders, and two points.
        let (x, y) = closest_segments([1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0; 3], [2.0, 0.0, 0.0]);
        assert!(close(x, [1.0, 1.0, 0.0]) && close(y, [1.0, 0.0, 0.0]));
        let (x, y) = closest_segments([0.0; 3], [2.0, 0.0, 0.0], [1.0, 1.0, 0.0], [1.0, 1.0, 0.0]);
        assert!(close(x, [1.0, 0.0, 0.0]) && close(y, [1.0, 1.0, 0.0]));
        assert_eq!(
            closest_segments([1.0; 3], [1.0; 3], [2.0; 3], [2.0; 3]),
            ([1.0; 3], [2.0; 3])
        );
    }

    #[test]
    fn triangle_distance_of_zero_area_pairs() {
        let seg = |a: [f64; 3], b: [f64; 3]| [a, scale(add(a, b), 0.5), b];
        let pt = |p: [f64; 3]| [p, p, p];
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        type Case = (&'static str, [[f64; 3]; 3], [[f64; 3]; 3], f64);
        let cases: [Case; 5] = [
            ("point–point", pt([0.0; 3]), pt([1.0, 2.0, 2.0]), 3.0),
            (
                "point–segment",
                pt([1.0, 1.0, 0.0]),
                seg([0.0; 3], [2.0, 0.0, 0.0]),
                1.0,
            ),
            (
                "parallel segments",
                seg([0.0; 3], [2.0, 0.0, 0.0]),
                seg([1.0, 0.0, 2.0], [3.0, 0.0, 2.0]),
                2.0,
            ),
            ("point above a face", pt([0.25, 0.25, -0.5]), t, 0.5),
            (
                "segment beside a face",
                seg([1.0, 1.0, 0.0], [2.0, 2.0, 0.0]),
                t,
                0.5f64.sqrt(),
            ),
        ];
        for (name, a, b, want) in cases {
            for (x, y) in [(a, b), (b, a)] {
                let (d2, p, q) = triangle_distance(&x, &y);
                assert!((d2.sqrt() - want).abs() < EPS, "{name}: {}", d2.sqrt());
                assert!((distance2(p, q) - d2).abs() < EPS, "{name}: witnesses");
                assert!(
                    close(closest_on_triangle(p, &x), p),
                    "{name}: p on its triangle"
                );
                assert!(
                    close(closest_on_triangle(q, &y), q),
                    "{name}: q on its triangle"
                );
            }
        }
    }

    #[test]
    fn intersection_point_lies_on_both() {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let piercing = [[0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [0.3, 0.25, 1.0]];
        let x = intersection_point(&t, &piercing, 1e-12);
        assert!(close(closest_on_triangle(x, &t), x));
        assert!(close(closest_on_triangle(x, &piercing), x));
        // A point triangle on a segment triangle: the point itself.
        let p = [0.5, 0.0, 0.0];
        let s = [[0.0; 3], [0.25, 0.0, 0.0], [1.0, 0.0, 0.0]];
        assert!(close(intersection_point(&[p, p, p], &s, 1e-12), p));
    }
}
