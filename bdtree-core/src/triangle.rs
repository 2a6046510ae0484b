//! The leaf test: do two triangles intersect?
//!
//! Two closed convex sets are disjoint exactly when some direction separates their
//! projections, and any direction the arithmetic produces is a valid one to try: an axis
//! counts as separating only when the gap between the projections exceeds a bound on the
//! projection error of vertices that are themselves known only to within `error` per
//! coordinate. So a `false` is always right, whatever the axis; the work is in trying axes
//! that separate every pair that is farther apart than the rounding bound.
//!
//! 1. **Filter** (every pair): the three coordinate axes (a box test), then the 17 axes of the
//!    separating-axis theorem for two triangles — both normals, the nine edge × edge crosses,
//!    the six in-plane edge normals `n × e`. Most disjoint pairs stop here, at the box or a
//!    normal.
//! 2. **Certificate** (pairs the filter kept): an edge of one triangle — any triangle, even a
//!    point — that pierces a *well-shaped* other one (height at least 1/28 of its longest
//!    edge, so that its normal is accurate) inside its three edges, or a vertex lying in its
//!    plane inside them: the triangles then meet up to rounding, `true`. This settles nearly
//!    every intersecting pair in a few dozen operations.
//! 3. **Closest features** (the rest: touching and coplanar pairs, pairs with a zero-area or
//!    sliver triangle, near misses the filter could not split): the direction between the
//!    nearest features is itself a separating axis, and it is always one of — a normal made
//!    exactly perpendicular to its triangle's longest edge; an edge × edge cross computed from
//!    the edge components perpendicular to each other (accurate for nearly parallel edges); or
//!    the perpendicular from a vertex to an edge (or the difference of two vertices). All 29
//!    are tried. Zero-area triangles need nothing else: a point triangle is its vertex, a
//!    segment triangle its longest edge, and both have those features.
//!
//! The filter alone (the earlier leaf test) is complete for triangles with area, but its
//! answer for a point or segment triangle was "may intersect" at any distance: every axis it
//! builds from a zero normal or a zero edge is the zero vector, and a zero axis separates
//! nothing.
//!
//! # Guarantee
//!
//! With `δ` = `error`, `u` the unit roundoff, `w` the largest coordinate magnitude of the six
//! vertices and `τ = (2δ + 8u(w + δ))(1 + 8u)` (the tolerance per unit axis length):
//!
//! * **Never `false` for triangles that meet** (touching counts) when every exact vertex is
//!   within `δ` per coordinate of the given one — for every input: ordinary, sliver, segment
//!   and point triangles.
//! * **`true` only for triangles within `√3 τ + c u w`** of each other (`c` a small constant:
//!   the spread of a rounded axis, measured below `64`), for every class of triangle. That is
//!   `√3 · 2δ` plus a few dozen ulps of the coordinates: in f64 about `10⁻¹⁴ w`, in f32 about
//!   `5·10⁻⁶ w` (with `δ = 0`). Triangles with area are settled the same way; the stage that
//!   answers only changes the constant.
//!
//! Cost: the filter is unchanged (a box test, then at most 17 axes × 7 dot products); kept
//! pairs pay two shape checks and the certificate (a few dozen multiply-adds); only pairs
//! without a certificate pay the closest-feature stage (29 axes).

// `!(x > 0)` is meant: NaN takes the degenerate branch, never the division.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::closest::perpendicular;
use crate::scalar::{cross, dot, norm1, norm_inf, sub, Scalar};

type V<S> = [S; 3];
type Tri<S> = [V<S>; 3];

/// A triangle is well-shaped for the certificate when `|n|₁ ≥ L² / 16` (`L` its longest edge,
/// `|n|` twice its area): its height over the longest edge is then at least `L / 28`, and its
/// rounded normal within `~3u · 28` of the exact direction per unit of distance from it.
const SHAPE_RATIO: u32 = 16;

/// Whether two triangles may intersect, given that each computed vertex is within `error`
/// (per coordinate) of the true one. Never `false` for triangles that truly intersect (touching
/// counts); `true` for disjoint ones only when they are within the rounding bound of the
/// module docs — for zero-area triangles (points, segments) as for any other.
///
/// Cost: a box test, then at most 17 axes × 7 dot products; a disjoint pair usually stops at
/// the box or at one of the two normals. Pairs that pass pay a certificate of a few dozen
/// multiply-adds, and only touching, coplanar or zero-area ones the closest-feature axes.
#[inline]
pub fn triangles_may_intersect<S: Scalar>(a: &[[S; 3]; 3], b: &[[S; 3]; 3], error: S) -> bool {
    match filter(a, b, error) {
        None => false,
        Some(per_unit_axis) => kept(a, b, per_unit_axis),
    }
}

/// [`triangles_may_intersect`] for a pair expected to intersect (one a widened test has already
/// accepted): the certificate first, which settles most intersecting pairs in a few dozen
/// multiply-adds, and the whole test only for pairs it does not settle. The same answer's
/// guarantee (module docs): a certificate holds only for triangles within the rounding bound.
#[inline]
pub fn triangles_may_intersect_likely<S: Scalar>(
    a: &[[S; 3]; 3],
    b: &[[S; 3]; 3],
    error: S,
) -> bool {
    let per_unit_axis = tolerance(a, b, error);
    pierces(a, b, per_unit_axis)
        || pierces(b, a, per_unit_axis)
        || triangles_may_intersect(a, b, error)
}

/// The tolerance per unit axis length `τ` (module docs) for a pair and a vertex error bound.
#[inline(always)]
fn tolerance<S: Scalar>(a: &Tri<S>, b: &Tri<S>, error: S) -> S {
    let mut w = S::ZERO;
    for v in a.iter().chain(b.iter()) {
        w = w.max(norm_inf(*v));
    }
    let u = S::UNIT_ROUNDOFF;
    let eight = S::from_u32(8);
    (error + error + eight * u * (w + error)) * (S::ONE + eight * u)
}

/// Stage 1 (module docs) up to the edge crosses: `None` when an axis separates the pair,
/// otherwise the tolerance per unit axis length for the later stages.
fn filter<S: Scalar>(a: &Tri<S>, b: &Tri<S>, error: S) -> Option<S> {
    let per_unit_axis = tolerance(a, b, error);

    let separated = |axis: [S; 3]| -> bool {
        let pa = [dot(axis, a[0]), dot(axis, a[1]), dot(axis, a[2])];
        let pb = [dot(axis, b[0]), dot(axis, b[1]), dot(axis, b[2])];
        let (min_a, max_a) = (pa[0].min(pa[1]).min(pa[2]), pa[0].max(pa[1]).max(pa[2]));
        let (min_b, max_b) = (pb[0].min(pb[1]).min(pb[2]), pb[0].max(pb[1]).max(pb[2]));
        let tol = norm1(axis) * per_unit_axis;
        min_b - max_a > tol || min_a - max_b > tol
    };

    // The coordinate axes first: a bounding-box test, no multiplications, and the cheapest
    // rejection of the near-miss pairs that overlapping leaf spheres leave.
    for k in 0..3 {
        let (min_a, max_a) = (
            a[0][k].min(a[1][k]).min(a[2][k]),
            a[0][k].max(a[1][k]).max(a[2][k]),
        );
        let (min_b, max_b) = (
            b[0][k].min(b[1][k]).min(b[2][k]),
            b[0][k].max(b[1][k]).max(b[2][k]),
        );
        if min_b - max_a > per_unit_axis || min_a - max_b > per_unit_axis {
            return None;
        }
    }
    let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
    let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
    let na = cross(ea[0], ea[1]);
    let nb = cross(eb[0], eb[1]);
    if separated(na) || separated(nb) {
        return None;
    }
    for e in ea {
        for f in eb {
            if separated(cross(e, f)) {
                return None;
            }
        }
    }
    Some(per_unit_axis)
}

/// Stages 2 and 3 (module docs) for a pair the filter kept: the certificate, then the rest of
/// the filter (the in-plane edge normals) and the closest features. Apart from the filter so
/// that the filter's loop keeps its registers; each part recomputes the edges and normals it
/// needs (a few multiply-adds) rather than keeping them live.
#[inline(never)]
fn kept<S: Scalar>(a: &Tri<S>, b: &Tri<S>, per_unit_axis: S) -> bool {
    pierces(a, b, per_unit_axis) || pierces(b, a, per_unit_axis) || undecided(a, b, per_unit_axis)
}

/// The rest of stage 1 (the in-plane edge normals, which only separate coplanar pairs), then
/// stage 3, for a pair without a certificate.
#[inline(never)]
fn undecided<S: Scalar>(a: &Tri<S>, b: &Tri<S>, per_unit_axis: S) -> bool {
    let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
    let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
    let na = cross(ea[0], ea[1]);
    let nb = cross(eb[0], eb[1]);
    let separated = |axis: [S; 3]| separates(a, b, axis, per_unit_axis);
    for e in ea {
        if separated(cross(na, e)) {
            return false;
        }
    }
    for f in eb {
        if separated(cross(nb, f)) {
            return false;
        }
    }
    closest_features(a, b, &ea, &eb, na, nb, per_unit_axis)
}

/// Whether `axis` separates the projections of `a` and `b` by more than the tolerance.
#[inline(always)]
fn separates<S: Scalar>(a: &Tri<S>, b: &Tri<S>, axis: V<S>, per_unit_axis: S) -> bool {
    let pa = [dot(axis, a[0]), dot(axis, a[1]), dot(axis, a[2])];
    let pb = [dot(axis, b[0]), dot(axis, b[1]), dot(axis, b[2])];
    let (min_a, max_a) = (pa[0].min(pa[1]).min(pa[2]), pa[0].max(pa[1]).max(pa[2]));
    let (min_b, max_b) = (pb[0].min(pb[1]).min(pb[2]), pb[0].max(pb[1]).max(pb[2]));
    let tol = norm1(axis) * per_unit_axis;
    min_b - max_a > tol || min_a - max_b > tol
}

/// Stage 3 (module docs): the closest-feature axes, for a pair the filter kept without a
/// certificate.
fn closest_features<S: Scalar>(
    a: &Tri<S>,
    b: &Tri<S>,
    ea: &[V<S>; 3],
    eb: &[V<S>; 3],
    na: V<S>,
    nb: V<S>,
    per_unit_axis: S,
) -> bool {
    let separated = |axis: [S; 3]| separates(a, b, axis, per_unit_axis);
    for (p, q) in [(a, b), (b, a)] {
        for &v in p {
            for (x, y) in [(q[0], q[1]), (q[1], q[2]), (q[2], q[0])] {
                if separated(perpendicular(v, x, y)) {
                    return false;
                }
            }
        }
    }
    for &e in ea {
        for &f in eb {
            if separated(accurate_cross(e, f)) {
                return false;
            }
        }
    }
    !(separated(corrected_normal(na, ea)) || separated(corrected_normal(nb, eb)))
}

/// The longest of three edges, and its squared length.
fn spine<S: Scalar>(e: &[V<S>; 3]) -> (V<S>, S) {
    let l = [dot(e[0], e[0]), dot(e[1], e[1]), dot(e[2], e[2])];
    if l[0] >= l[1] && l[0] >= l[2] {
        (e[0], l[0])
    } else if l[1] >= l[2] {
        (e[1], l[1])
    } else {
        (e[2], l[2])
    }
}

/// The normal `n` with its component along the longest edge removed: the rounding error of a
/// cross product of nearly parallel edges (a sliver's) lies in any direction, and the part
/// along the triangle's length would make the triangle's own projection as wide as that error
/// times its length. Removed, the rest tilts the axis only towards directions in which the
/// triangle is as thin as its height. Unchanged for a point triangle.
fn corrected_normal<S: Scalar>(n: V<S>, e: &[V<S>; 3]) -> V<S> {
    let (s, s2) = spine(e);
    if !(s2 > S::ZERO) {
        return n;
    }
    let r = dot(n, s) / s2;
    [n[0] - r * s[0], n[1] - r * s[1], n[2] - r * s[2]]
}

/// `e × f` computed as `e × (f − λ e)` with `f − λ e ⊥ e`: the same vector in exact
/// arithmetic, but perpendicular to both edges to rounding accuracy even when they are nearly
/// parallel (then the plain cross product's error, `u |e| |f|`, is as large as the result).
fn accurate_cross<S: Scalar>(e: V<S>, f: V<S>) -> V<S> {
    let ee = dot(e, e);
    if !(ee > S::ZERO) {
        return [S::ZERO; 3];
    }
    let l = dot(f, e) / ee;
    cross(e, [f[0] - l * e[0], f[1] - l * e[1], f[2] - l * e[2]])
}

/// The certificate (module docs, stage 2): whether an edge of `t` (any triangle, even a
/// point) crosses the plane of the well-shaped triangle `p` at a point
/// inside `p`'s three edges, or a vertex of `t` lies in that plane (within the projection
/// tolerance) inside them. Either way a
/// point of `t` is within rounding of `p`: the computed crossing is a convex combination of the
/// edge's ends whose height over the plane is at most the heights' rounding bound, and the
/// inside tests (2D orientations in the coordinate plane `p` projects onto one-to-one) are off
/// by at most a rounding error of the point's distance from `p`'s vertices.
///
/// `false` for a `p` that is not well-shaped: its normal would be too inaccurate to certify.
/// Cost: ~25 multiply-adds for the shape check and the heights, then ~12 per crossing edge or
/// vertex tried.
fn pierces<S: Scalar>(t: &Tri<S>, p: &Tri<S>, per_unit_axis: S) -> bool {
    let e = [sub(p[1], p[0]), sub(p[2], p[1]), sub(p[0], p[2])];
    let n = cross(e[0], e[1]);
    let n1 = norm1(n);
    let (_, l2) = spine(&e);
    if !(l2 > S::ZERO && S::from_u32(SHAPE_RATIO) * n1 >= l2) {
        return false;
    }
    let o = dot(n, p[0]);
    let h = [dot(n, t[0]) - o, dot(n, t[1]) - o, dot(n, t[2]) - o];
    // Project along the normal's largest component: (x, y) with x × y · n > 0.
    let (ax, ay) = (n[0].abs(), n[1].abs());
    let az = n[2].abs();
    let (i, j, sign) = if az >= ax && az >= ay {
        (0usize, 1usize, n[2])
    } else if ax >= ay {
        (1, 2, n[0])
    } else {
        (2, 0, n[1])
    };
    let pick = |v: V<S>, k: usize| match k {
        0 => v[0],
        1 => v[1],
        _ => v[2],
    };
    let inside = |x: V<S>| -> bool {
        let (xi, xj) = (pick(x, i), pick(x, j));
        let mut sides = [S::ZERO; 3];
        for ((side, pk), ek) in sides.iter_mut().zip(p).zip(&e) {
            *side = pick(*ek, i) * (xj - pick(*pk, j)) - pick(*ek, j) * (xi - pick(*pk, i));
        }
        if sign > S::ZERO {
            sides.iter().all(|&s| s >= S::ZERO)
        } else {
            sides.iter().all(|&s| s <= S::ZERO)
        }
    };
    let flat = n1 * per_unit_axis;
    for (v, hv) in t.iter().zip(&h) {
        if hv.abs() <= flat && inside(*v) {
            return true;
        }
    }
    for (x, hx, y, hy) in [
        (t[0], h[0], t[1], h[1]),
        (t[1], h[1], t[2], h[2]),
        (t[2], h[2], t[0], h[0]),
    ] {
        if (hx < S::ZERO && hy > S::ZERO) || (hx > S::ZERO && hy < S::ZERO) {
            let s = hx / (hx - hy);
            let c = [
                x[0] + (y[0] - x[0]) * s,
                x[1] + (y[1] - x[1]) * s,
                x[2] + (y[2] - x[2]) * s,
            ];
            if inside(c) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::triangles_may_intersect;

    const T: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    fn shifted(t: [[f64; 3]; 3], d: [f64; 3]) -> [[f64; 3]; 3] {
        t.map(|v| [v[0] + d[0], v[1] + d[1], v[2] + d[2]])
    }

    fn point(p: [f64; 3]) -> [[f64; 3]; 3] {
        [p, p, p]
    }

    fn segment(p: [f64; 3], q: [f64; 3]) -> [[f64; 3]; 3] {
        let mid = [
            0.5 * (p[0] + q[0]),
            0.5 * (p[1] + q[1]),
            0.5 * (p[2] + q[2]),
        ];
        [p, mid, q]
    }

    fn check(name: &str, a: [[f64; 3]; 3], b: [[f64; 3]; 3], want: bool) {
        assert_eq!(triangles_may_intersect(&a, &b, 0.0), want, "{name}");
        assert_eq!(
            triangles_may_intersect(&b, &a, 0.0),
            want,
            "{name} (swapped)"
        );
        let a32 = a.map(|v| v.map(|x| x as f32));
        let b32 = b.map(|v| v.map(|x| x as f32));
        assert_eq!(
            triangles_may_intersect(&a32, &b32, 0.0),
            want,
            "{name} (f32)"
        );
        // Every vertex order.
        for r in [[1, 2, 0], [2, 0, 1], [0, 2, 1]] {
            let ar = r.map(|i| a[i]);
            assert_eq!(triangles_may_intersect(&ar, &b, 0.0), want, "{name} {r:?}");
        }
    }

    #[test]
    fn case_table() {
        let piercing = [[0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [0.3, 0.25, 1.0]];
        let above = shifted(T, [0.0, 0.0, 0.5]);
        let coplanar_overlap = shifted(T, [0.3, 0.3, 0.0]);
        let coplanar_apart = shifted(T, [0.6, 0.6, 0.0]);
        let vertex_touch = [[1.0, 0.0, 0.0], [2.0, 0.0, 1.0], [2.0, 1.0, -1.0]];
        let cases: [(&str, [[f64; 3]; 3], bool); 5] = [
            ("piercing", piercing, true),
            ("parallel planes", above, false),
            ("coplanar overlapping", coplanar_overlap, true),
            ("coplanar beside the hypotenuse", coplanar_apart, false),
            ("touching at a vertex", vertex_touch, true),
        ];
        for (name, b, want) in cases {
            check(name, T, b, want);
        }
    }

    /// Point and segment triangles against each other and against `T`: every candidate axis
    /// of the filter is zero for a point against a segment, so these pin the closest-feature
    /// stage.
    #[test]
    fn zero_area_case_table() {
        type Case = (&'static str, [[f64; 3]; 3], [[f64; 3]; 3], bool);
        let cases: [Case; 14] = [
            (
                "the issue's point and segment, 0.088 apart",
                point([0.3894, 0.1422, 0.4740]),
                segment([0.2375, 0.1491, 0.4292], [0.4038, 0.1320, 0.6275]),
                false,
            ),
            (
                "point on a segment",
                point([0.5, 0.0, 0.0]),
                segment([0.0; 3], [1.0, 0.0, 0.0]),
                true,
            ),
            (
                "point beside a segment, box overlapping",
                point([0.5, 0.15, 0.05]),
                segment([0.0; 3], [1.0, 0.2, 0.2]),
                false,
            ),
            ("coincident points", point([0.3; 3]), point([0.3; 3]), true),
            (
                "points one apart",
                point([0.0; 3]),
                point([0.0, 0.0, 1.0]),
                false,
            ),
            (
                "parallel segments",
                segment([0.0; 3], [1.0, 1.0, 1.0]),
                segment([0.0, 0.1, 0.0], [1.0, 1.1, 1.0]),
                false,
            ),
            (
                "collinear overlapping segments",
                segment([0.0; 3], [1.0, 1.0, 1.0]),
                segment([0.5; 3], [2.0; 3]),
                true,
            ),
            (
                "collinear segments end to end, touching",
                segment([0.0; 3], [1.0, 1.0, 1.0]),
                segment([1.0; 3], [2.0; 3]),
                true,
            ),
            (
                "collinear segments with a gap",
                segment([0.0; 3], [1.0, 1.0, 1.0]),
                segment([1.25; 3], [2.0; 3]),
                false,
            ),
            (
                "crossing segments",
                segment([0.0; 3], [1.0, 1.0, 0.0]),
                segment([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
                true,
            ),
            ("point on the face", point([0.25, 0.25, 0.0]), T, true),
            (
                "point in the plane beside the hypotenuse",
                point([0.6, 0.6, 0.0]),
                T,
                false,
            ),
            (
                "segment in the plane beside the hypotenuse",
                segment([1.1, 0.0, 0.0], [0.0, 1.1, 0.0]),
                T,
                false,
            ),
            (
                "segment piercing the face",
                segment([0.2, 0.2, -1.0], [0.2, 0.2, 1.0]),
                T,
                true,
            ),
        ];
        for (name, a, b, want) in cases {
            check(name, a, b, want);
        }
    }

    /// A sliver (area 10⁻¹⁸ of its box) beside a segment: the sliver's normal is rounding
    /// noise, so the filter's normal and in-plane axes cannot separate them.
    #[test]
    fn sliver_beside_a_parallel_segment() {
        let sliver = [[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.5, 0.5 + 1e-18, 0.0]];
        let beside = segment([0.0, 0.01, 0.0], [1.0, 1.01, 0.0]);
        check("sliver beside a segment", sliver, beside, false);
        let on = segment([0.0, 0.0, 0.0], [1.0, 1.0, 0.0]);
        check("sliver on its own edge", sliver, on, true);
    }

    #[test]
    fn error_widens_the_test() {
        let near = shifted(T, [0.0, 0.0, 1e-3]);
        assert!(!triangles_may_intersect(&T, &near, 1e-4));
        assert!(triangles_may_intersect(&T, &near, 1e-3));
        let p = point([0.2, 0.2, 1e-3]);
        let s = segment([0.0, 0.0, 0.0], [1.0, 1.0, 0.0]);
        assert!(!triangles_may_intersect(&p, &s, 1e-4));
        assert!(triangles_may_intersect(&p, &s, 1e-3));
    }

    #[test]
    fn non_finite_input_is_kept() {
        let nan = [[f64::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        // Not a panic; conservative either way is fine, but it must not loop or crash.
        let _ = triangles_may_intersect(&nan, &T, 0.0);
        let inf = point([f64::INFINITY, 0.0, 0.0]);
        let _ = triangles_may_intersect(&inf, &T, 0.0);
    }
}
