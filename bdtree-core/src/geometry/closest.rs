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
//! ([`crate::query::separation`]), contact data and `within` ([`crate::query::contacts`]), the swept leaf test
//! ([`crate::query::swept`]), primitives ([`crate::query::primitives`]) and the leaf test's axes
//! ([`crate::geometry::triangle`]) all use these routines.
//!
//! [`perpendicular`] turns a point–segment pair into a separating-axis candidate for the leaf
//! test ([`crate::geometry::triangle`]): the direction from the segment's nearest point to the point,
//! made perpendicular to the segment to rounding accuracy when that point is interior.

// `!(x > 0)` is meant: NaN takes the degenerate branch, never the division.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::scalar::{add, cross, distance2, dot, scale, sub, Scalar};

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
/// [`crate::geometry::triangle::triangles_may_intersect`]).
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // The example: a point triangle against a segment triangle 0.0876 apart.
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
