//! The leaf test: do two triangles intersect?
//!
//! Two closed convex sets are disjoint exactly when some direction separates their
//! projections, and any direction the arithmetic produces is a valid one to try: an axis
//! counts as separating only when the gap between the projections exceeds a bound on the
//! projection error of vertices that are themselves known only to within `error` per
//! coordinate. So a `false` is always right, whatever the axis; the work is in trying axes
//! that separate every pair that is farther apart than the rounding bound.
//!
//! 1. **Filter** (every pair): the three coordinate axes (a box test), then 11 of the 17 axes
//!    of the separating-axis theorem for two triangles — both normals, the nine edge × edge
//!    crosses (the six in-plane edge normals `n × e` come after the certificate). Most disjoint
//!    pairs stop here, at the box or a normal.
//! 2. **Certificate** (pairs the filter kept): a point of one triangle — any triangle, even a
//!    point — within `τ` of a *well-shaped* other one (height at least 1/28 of its longest
//!    edge, so that its normal is accurate): a vertex near its plane, or the point where an edge
//!    crosses the plane, whose image in the plane lies inside the triangle or outside it by a
//!    margin the bound allows (see `pierces`). The triangles then meet up to the tolerance,
//!    `true`. This settles nearly every intersecting pair in a few dozen operations, and with
//!    the margin also touching pairs whose contact rounding or compaction moved by their error
//!    (a vertex on a vertex or an edge, an edge along an edge). A coplanar pair without a
//!    certificate from the first side tries the six in-plane edge normals next (they are what
//!    separates coplanar neighbours).
//! 3. **Closest features** (the rest, after the in-plane edge normals: pairs with a zero-area
//!    or sliver triangle, near misses the filter could not split, the rare touching pair without
//!    a certificate): the direction between the nearest features is itself a separating axis,
//!    and it is always one of — a normal made exactly perpendicular to its triangle's longest
//!    edge; an edge × edge cross computed from the edge components perpendicular to each other
//!    (accurate for nearly parallel edges); or the perpendicular from a vertex to an edge (or
//!    the difference of two vertices). All 29 are tried. Zero-area triangles need nothing else: a point triangle is its vertex, a
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
//!   answers only changes the constant: a separating axis `a` is tried with gap `|a|₁ τ ≤ √3
//!   |a|₂ τ`, and a certificate proves a distance of at most `τ` (plus rounding).
//!
//! Cost: the filter is unchanged (a box test, then at most 11 axes × 7 dot products); kept
//! pairs pay one or two shape checks and the certificate (a few dozen multiply-adds), coplanar
//! ones the six in-plane edge normals (as the filter did before stage 2 existed); only pairs
//! without a certificate pay the closest-feature stage (29 axes).

// `!(x > 0)` is meant: NaN takes the degenerate branch, never the division.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::geometry::closest::perpendicular;
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
/// Cost: a box test, then at most 11 axes × 7 dot products; a disjoint pair usually stops at
/// the box or at one of the two normals. Pairs that pass pay a certificate of a few dozen
/// multiply-adds (coplanar ones the in-plane edge normals), and only zero-area ones, near
/// misses and touching pairs without a certificate the closest-feature axes.
#[inline]
pub fn triangles_may_intersect<S: Scalar>(a: &[[S; 3]; 3], b: &[[S; 3]; 3], error: S) -> bool {
    let per_unit_axis = tolerance(a, b, error);
    !boxes_separated(a, b, per_unit_axis)
        && !axes_separate(a, b, per_unit_axis)
        && kept(a, b, per_unit_axis)
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
    pierces(a, b, per_unit_axis) == Found::Meets
        || pierces(b, a, per_unit_axis) == Found::Meets
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

/// Stage 1's coordinate axes (module docs): whether the bounding boxes are more than the
/// tolerance apart on an axis — no multiplications, the cheapest rejection.
#[inline(always)]
fn boxes_separated<S: Scalar>(a: &Tri<S>, b: &Tri<S>, per_unit_axis: S) -> bool {
    (0..3).any(|k| {
        let (min_a, max_a) = (
            a[0][k].min(a[1][k]).min(a[2][k]),
            a[0][k].max(a[1][k]).max(a[2][k]),
        );
        let (min_b, max_b) = (
            b[0][k].min(b[1][k]).min(b[2][k]),
            b[0][k].max(b[1][k]).max(b[2][k]),
        );
        min_b - max_a > per_unit_axis || min_a - max_b > per_unit_axis
    })
}

/// The rest of stage 1 after the box axes: whether one of the two normals or the nine edge
/// crosses separates the pair (most disjoint pairs that get this far stop at the first
/// normal). Out of line, one copy for both entries; it returns before [`kept`] runs, so the
/// two frames are never on the stack together.
#[inline(never)]
fn axes_separate<S: Scalar>(a: &Tri<S>, b: &Tri<S>, per_unit_axis: S) -> bool {
    // With the `speed` feature, the normals first, each from the two edges it needs: most pairs
    // stop at the first (counted on the query bench: 263 of 471 per frame), before the other
    // edges are made. The same axes in the same order as the loop below.
    #[cfg(feature = "speed")]
    {
        let ea = [sub(a[1], a[0]), sub(a[2], a[1])];
        if separates(a, b, cross(ea[0], ea[1]), per_unit_axis) {
            return true;
        }
        let eb = [sub(b[1], b[0]), sub(b[2], b[1])];
        if separates(a, b, cross(eb[0], eb[1]), per_unit_axis) {
            return true;
        }
        let ea = [ea[0], ea[1], sub(a[0], a[2])];
        let eb = [eb[0], eb[1], sub(b[0], b[2])];
        (0..9).any(|k| separates(a, b, cross(ea[k / 3], eb[k % 3]), per_unit_axis))
    }
    #[cfg(not(feature = "speed"))]
    {
        let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
        let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
        // One loop over the eleven axes (one copy of the axis test, which keeps the leaf test
        // small on microcontrollers), each made when reached: both normals first (most disjoint
        // pairs stop at the first), then the nine edge crosses.
        (0..11).any(|k| {
            let axis = match k {
                0 => cross(ea[0], ea[1]),
                1 => cross(eb[0], eb[1]),
                _ => cross(ea[(k - 2) / 3 % 3], eb[(k - 2) % 3]),
            };
            separates(a, b, axis, per_unit_axis)
        })
    }
}

/// [`triangles_may_intersect`] for a pair whose coordinate boxes are known to be within
/// `error (1 + 2u)` of each other on every axis (the walk's leaf step tested them): the box
/// axes, whose tolerance is larger, could not separate it and are skipped.
#[inline(always)]
pub(crate) fn triangles_may_intersect_boxed<S: Scalar>(
    a: &[[S; 3]; 3],
    b: &[[S; 3]; 3],
    error: S,
) -> bool {
    let per_unit_axis = tolerance(a, b, error);
    !axes_separate(a, b, per_unit_axis) && kept(a, b, per_unit_axis)
}

/// Stage 1's axes (module docs: the box axes, both normals, the nine edge crosses): the first
/// that separates the pair by more than the tolerance `per_unit_axis`, or `None` (the filter
/// keeps the pair; for triangles with area, then within the bound of the guarantee).
pub(crate) fn filter_axis<S: Scalar>(a: &Tri<S>, b: &Tri<S>, per_unit_axis: S) -> Option<V<S>> {
    let apart = |axis: V<S>| separates(a, b, axis, per_unit_axis).then_some(axis);
    let (o, i) = (S::ZERO, S::ONE);
    let found = apart([i, o, o])
        .or_else(|| apart([o, i, o]))
        .or_else(|| apart([o, o, i]));
    if found.is_some() {
        return found;
    }
    let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
    let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
    if let Some(axis) = apart(cross(ea[0], ea[1])).or_else(|| apart(cross(eb[0], eb[1]))) {
        return Some(axis);
    }
    for e in ea {
        for f in eb {
            if let Some(axis) = apart(cross(e, f)) {
                return Some(axis);
            }
        }
    }
    None
}

/// The filter's axes for an error bound `error` per coordinate ([`filter_axis`]).
pub(crate) fn filter_axis_for<S: Scalar>(a: &Tri<S>, b: &Tri<S>, error: S) -> Option<V<S>> {
    filter_axis(a, b, tolerance(a, b, error))
}

/// Stages 2 and 3 (module docs) for a pair the filter kept: the certificates, the rest of the
/// filter (the in-plane edge normals) and the closest features. Apart from the filter so that
/// the filter's loop keeps its registers; each part recomputes the edges and normals it needs
/// (a few multiply-adds) rather than keeping them live.
///
/// A coplanar pair (every vertex of one triangle within the tolerance of the other's plane)
/// without a certificate from the first side tries the in-plane edge normals at once, before
/// the other side's certificate: they are the axes that separate coplanar pairs, and most
/// coplanar pairs past the filter (neighbours on a resting face) are disjoint.
#[inline(never)]
fn kept<S: Scalar>(a: &Tri<S>, b: &Tri<S>, per_unit_axis: S) -> bool {
    let first = pierces(a, b, per_unit_axis);
    if first == Found::Meets {
        return true;
    }
    if first == Found::Coplanar && separated_beyond(a, b, per_unit_axis, true) {
        return false;
    }
    pierces(b, a, per_unit_axis) == Found::Meets || !separated_beyond(a, b, per_unit_axis, false)
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

/// Whether an axis after the certificate separates the pair: the six in-plane edge normals
/// `n × e` (the rest of stage 1, which only separate coplanar or nearly coplanar pairs), then
/// unless `in_plane_only` the closest-feature axes (stage 3). One function for both, so that
/// the code holds one copy of the axis test; a coplanar pair without a certificate (rare)
/// tries the in-plane normals twice.
#[inline(never)]
fn separated_beyond<S: Scalar>(
    a: &Tri<S>,
    b: &Tri<S>,
    per_unit_axis: S,
    in_plane_only: bool,
) -> bool {
    let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
    let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
    let na = cross(ea[0], ea[1]);
    let nb = cross(eb[0], eb[1]);
    let separated = |axis: [S; 3]| separates(a, b, axis, per_unit_axis);
    for (n, e) in [(na, &ea), (nb, &eb)] {
        for &f in e {
            if separated(cross(n, f)) {
                return true;
            }
        }
    }
    if in_plane_only {
        return false;
    }
    for (p, q) in [(a, b), (b, a)] {
        for &v in p {
            for (x, y) in [(q[0], q[1]), (q[1], q[2]), (q[2], q[0])] {
                if separated(perpendicular(v, x, y)) {
                    return true;
                }
            }
        }
    }
    for e in ea {
        for f in eb {
            if separated(accurate_cross(e, f)) {
                return true;
            }
        }
    }
    separated(corrected_normal(na, &ea)) || separated(corrected_normal(nb, &eb))
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

/// What [`pierces`] found for a triangle `t` against a triangle `p`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Found {
    /// A point of `t` within `τ` of `p` (up to rounding): the triangles meet within the bound.
    Meets,
    /// No certificate, and every vertex of `t` within the tolerance of `p`'s plane.
    Coplanar,
    /// No certificate (or `p` not well-shaped).
    Nothing,
}

/// The certificate (module docs, stage 2): whether a point of `t` (a vertex, or the point
/// where an edge crosses the plane) is within `τ` (`per_unit_axis`) of the well-shaped
/// triangle `p`, by a bound that needs no square root.
///
/// Let `n` be `p`'s normal, `k` its largest component and `y` the point of `p`'s plane below
/// a point `x` along the coordinate axis `k`. The three 2-D cross products `s_l = (e_l × (x −
/// p_l))_k` of the coordinate plane `p` projects onto one-to-one sum to `n_k`, and `β_l = s_l /
/// n_k` are `y`'s barycentric coordinates in `p`. With `β⁻` the sum of the negative ones, the
/// point `z` of `p` with the positive ones rescaled is within `β⁻ L` of `y` (`L` the longest
/// edge: `y − z = Σ_{β_l<0} |β_l| (z − p_l)`), and `|x − y| = |h| / |n_k|` for `h = n · (x −
/// p₀)`. So
///
/// ```text
/// dist(x, p) ≤ (|h| + L Σ_{s_l<0} |s_l|) / |n_k|,
/// ```
///
/// and the certificate is that bound `≤ τ`, with `|s|₁` of the longest edge for `L`. For a
/// crossing point `h` is zero up to rounding (the computed point is a convex combination of
/// the edge's ends, `s ∈ [0, 1]`, with height at most the heights' rounding error). A point
/// strictly inside has no negative `s_l`: then only its height counts, `|h| ≤ |n_k| τ`. The
/// margin for points just outside `p` certifies touching pairs whose computed vertices moved by
/// their error: a vertex on a vertex or an edge of `p`, an edge along `p`'s edge.
///
/// Rounding: `h`, the `s_l` and `n_k` are a few operations each on coordinates below `w`; for
/// a well-shaped `p` (`|n|₁ ≥ L² / 16`, so `|n_k| ≥ L² / 48`), their errors divided by `|n_k|`
/// are `O(u w)` per unit distance, which is the `c u w` of the guarantee. The certified
/// distance is `τ`, below the `√3 τ` the guarantee allows.
///
/// Besides [`Found::Meets`], [`Found::Coplanar`] when every vertex of `t` is within `|n|₁ τ` of
/// the plane (the caller then tries the in-plane edge normals first), else [`Found::Nothing`]
/// — always for a `p` that is not well-shaped: its normal would be too inaccurate to certify.
/// Cost: ~25 multiply-adds for the shape check and the heights, then ~12 per vertex near the
/// plane or crossing edge.
fn pierces<S: Scalar>(t: &Tri<S>, p: &Tri<S>, per_unit_axis: S) -> Found {
    let e = [sub(p[1], p[0]), sub(p[2], p[1]), sub(p[0], p[2])];
    let n = cross(e[0], e[1]);
    let n1 = norm1(n);
    let (spine, l2) = spine(&e);
    if !(l2 > S::ZERO && S::from_u32(SHAPE_RATIO) * n1 >= l2) {
        return Found::Nothing;
    }
    let o = dot(n, p[0]);
    let h = [dot(n, t[0]) - o, dot(n, t[1]) - o, dot(n, t[2]) - o];
    // Project along the normal's largest component: (x, y) with x × y · n > 0.
    let (ax, ay) = (n[0].abs(), n[1].abs());
    let az = n[2].abs();
    let (i, j, nk) = if az >= ax && az >= ay {
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
    let positive = nk > S::ZERO;
    // `|n_k| τ`: the certificate's distance `τ` in the units of `h` and `L s_l`.
    let reach = nk.abs() * per_unit_axis;
    let length = norm1(spine);
    // `L Σ_{s_l<0} |s_l|` (NaN for NaN input, which then certifies nothing).
    let outside = |x: V<S>| -> S {
        let (xi, xj) = (pick(x, i), pick(x, j));
        let mut out = S::ZERO;
        for (pk, ek) in p.iter().zip(&e) {
            let side = pick(*ek, i) * (xj - pick(*pk, j)) - pick(*ek, j) * (xi - pick(*pk, i));
            let side = if positive { side } else { -side };
            if !(side >= S::ZERO) {
                out = out - side;
            }
        }
        out * length
    };
    let flat = n1 * per_unit_axis;
    let mut coplanar = true;
    let edges = [
        (t[0], h[0], t[1], h[1]),
        (t[1], h[1], t[2], h[2]),
        (t[2], h[2], t[0], h[0]),
    ];
    // The three vertices, then the points where edges cross the plane (`height` zero up to
    // rounding); one call site for `outside`, which keeps the code small.
    for crossing in [false, true] {
        for &(x, hx, y, hy) in &edges {
            let (x, height) = if crossing {
                if !((hx < S::ZERO && hy > S::ZERO) || (hx > S::ZERO && hy < S::ZERO)) {
                    continue;
                }
                let s = hx / (hx - hy);
                let c = [
                    x[0] + (y[0] - x[0]) * s,
                    x[1] + (y[1] - x[1]) * s,
                    x[2] + (y[2] - x[2]) * s,
                ];
                (c, S::ZERO)
            } else {
                let height = hx.abs();
                coplanar &= height <= flat;
                (x, height)
            };
            if height <= reach && height + outside(x) <= reach {
                return Found::Meets;
            }
        }
    }
    if coplanar {
        Found::Coplanar
    } else {
        Found::Nothing
    }
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

    /// Touching pairs whose contact moved by their error (as compaction moves it): a vertex
    /// near a corner or an edge, just outside, a tilted triangle's vertex on its plane. The
    /// certificate settles them (no closest-feature stage), and the answer is `true`.
    #[test]
    fn touching_within_the_error_is_certified() {
        let error = 1e-3;
        let tilted = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.5], [0.2, 1.0, -0.3]];
        let lift = |t: [[f64; 3]; 3], d: [f64; 3]| shifted(t, d);
        type Case = (&'static str, [[f64; 3]; 3], [[f64; 3]; 3]);
        let cases: [Case; 6] = [
            ("vertex beside a corner", point([-3e-4, -3e-4, 0.0]), T),
            ("vertex beside an edge", point([0.5, -6e-4, 2e-4]), T),
            (
                "a vertex of a triangle on the corner, moved",
                [[-2e-4, -2e-4, 1e-4], [-1.0, 0.0, 1.0], [0.0, -1.0, 1.0]],
                T,
            ),
            (
                "an edge along an edge, moved outside",
                [[0.2, -5e-4, 0.0], [0.8, -5e-4, 0.0], [0.5, -0.5, 0.5]],
                T,
            ),
            (
                "coplanar, sharing an edge, moved apart",
                lift(
                    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]],
                    [4e-4, 4e-4, 0.0],
                ),
                T,
            ),
            (
                "vertex near a tilted plane",
                point([0.4, 0.3, 0.0805]),
                tilted,
            ),
        ];
        for (name, t, p) in cases {
            let tau = (2.0 * error + 8.0 * f64::EPSILON * 2.0) * 1.01;
            assert!(
                super::pierces(&t, &p, tau) == super::Found::Meets
                    || super::pierces(&p, &t, tau) == super::Found::Meets,
                "{name}: no certificate"
            );
            assert!(triangles_may_intersect(&t, &p, error), "{name}");
            assert!(triangles_may_intersect(&p, &t, error), "{name} (swapped)");
        }
    }

    /// The certificate proves a distance of at most `τ`: on random points and short segments
    /// around a triangle (in its plane, near its corners and edges), every certified one is
    /// within `τ` (plus rounding) of it, by the closest point on the triangle.
    #[test]
    fn certified_points_are_within_tau() {
        use crate::geometry::closest::closest_on_triangle;
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let p = [[0.1, 0.2, 0.3], [0.9, 0.25, 0.5], [0.3, 0.8, 0.1]];
        let tau = 1e-2;
        let mut certified = 0;
        for _ in 0..20_000 {
            // A point near the triangle: a random point of its plane's neighbourhood.
            let (b0, b1) = (next() * 1.2 - 0.1, next() * 1.2 - 0.1);
            let mut x = [0.0; 3];
            for (k, xk) in x.iter_mut().enumerate() {
                *xk = p[0][k]
                    + b0 * (p[1][k] - p[0][k])
                    + b1 * (p[2][k] - p[0][k])
                    + (next() - 0.5) * 0.03;
            }
            let t = point(x);
            if super::pierces(&t, &p, tau) == super::Found::Meets {
                certified += 1;
                let c = closest_on_triangle(x, &p);
                let d =
                    ((x[0] - c[0]).powi(2) + (x[1] - c[1]).powi(2) + (x[2] - c[2]).powi(2)).sqrt();
                assert!(d <= tau * (1.0 + 1e-9), "{x:?} certified at {d}, tau {tau}");
            }
        }
        assert!(certified > 1000, "only {certified} certified");
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
