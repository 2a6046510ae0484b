//! The exact triangle–triangle intersection test (see the [module docs](super)) and the
//! separation gap diagnostic.

use super::predicates::{orient2d, orient3d};
use crate::vec3::{cross, dot, norm, sub};

/// The axis-aligned box of a triangle.
#[derive(Debug, Clone, Copy)]
pub(super) struct Aabb {
    pub(super) min: [f64; 3],
    pub(super) max: [f64; 3],
}

impl Aabb {
    pub(super) fn of(t: &[[f64; 3]; 3]) -> Aabb {
        let mut b = Aabb {
            min: t[0],
            max: t[0],
        };
        for p in &t[1..] {
            for ((lo, hi), &c) in b.min.iter_mut().zip(b.max.iter_mut()).zip(p) {
                // Written so that a NaN coordinate poisons the box (never touches anything).
                if c < *lo || c.is_nan() {
                    *lo = c;
                }
                if c > *hi || c.is_nan() {
                    *hi = c;
                }
            }
        }
        b
    }

    /// Closed boxes share a point (exact comparisons; false if any coordinate is NaN).
    pub(super) fn touches(&self, o: &Aabb) -> bool {
        (0..3).all(|k| self.min[k] <= o.max[k] && o.min[k] <= self.max[k])
    }
}

/// Whether two closed triangles share a point, decided exactly (see the module docs).
///
/// Touching counts: a shared vertex, a vertex on the other's edge or face, or an edge lying on
/// the other face are intersections. Coplanar triangles are handled by a 2D test in a coordinate
/// plane onto which their common plane projects one-to-one. Degenerate (zero-area) triangles are
/// the segment or point they span and are tested as such. Triangles with a non-finite
/// coordinate never intersect.
///
/// Cost: an exact box rejection (6 comparisons), a degeneracy check (one to three 2×2
/// orientations per triangle), then at most 8 orientation tests for two proper non-coplanar
/// triangles (Guigue–Devillers), each a 3×3 determinant in f64 plus, only in near-degenerate
/// configurations, its exact re-evaluation.
pub fn triangles_intersect(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> bool {
    if a.iter().chain(b).flatten().any(|c| !c.is_finite()) {
        return false;
    }
    if !Aabb::of(a).touches(&Aabb::of(b)) {
        return false;
    }
    let a_axis = projection_axis(a);
    let b_axis = projection_axis(b);
    match (a_axis, b_axis) {
        (Some(_), Some(_)) => tri_tri_proper(a, b),
        (None, Some(bk)) => edges(a).iter().any(|&(p, q)| segment_triangle(p, q, b, bk)),
        (Some(ak), None) => edges(b).iter().any(|&(p, q)| segment_triangle(p, q, a, ak)),
        (None, None) => edges(a)
            .iter()
            .any(|&(p, q)| edges(b).iter().any(|&(r, s)| segment_segment(p, q, r, s))),
    }
}

fn edges(t: &[[f64; 3]; 3]) -> [([f64; 3], [f64; 3]); 3] {
    [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]
}

/// The coordinate axis `k` along which the triangle projects one-to-one (its normal has an
/// exactly non-zero k component), preferring the dominant one; `None` for a degenerate
/// (collinear or coincident) triangle.
fn projection_axis(t: &[[f64; 3]; 3]) -> Option<usize> {
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| n[j].abs().total_cmp(&n[i].abs()));
    order
        .into_iter()
        .find(|&k| orient2d(drop_axis(t[0], k), drop_axis(t[1], k), drop_axis(t[2], k)) != 0)
}

fn drop_axis(p: [f64; 3], k: usize) -> [f64; 2] {
    match k {
        0 => [p[1], p[2]],
        1 => [p[0], p[2]],
        _ => [p[0], p[1]],
    }
}

/// Guigue–Devillers ("Fast and robust triangle-triangle overlap test using orientation
/// predicates", 2003) for two non-degenerate triangles, with exact predicates.
fn tri_tri_proper(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> bool {
    let [p1, q1, r1] = *a;
    let [p2, q2, r2] = *b;
    // Sides of T1's vertices with respect to the plane of T2.
    let dp1 = orient3d(p2, q2, r2, p1);
    let dq1 = orient3d(p2, q2, r2, q1);
    let dr1 = orient3d(p2, q2, r2, r1);
    if dp1 * dq1 > 0 && dp1 * dr1 > 0 {
        return false;
    }
    let dp2 = orient3d(p1, q1, r1, p2);
    let dq2 = orient3d(p1, q1, r1, q2);
    let dr2 = orient3d(p1, q1, r1, r2);
    if dp2 * dq2 > 0 && dp2 * dr2 > 0 {
        return false;
    }
    // Permute T1 so that its first vertex is alone on its side of T2's plane, and flip T2
    // (swap its last two vertices) so that this side is the non-negative one.
    let d2 = (dp2, dq2, dr2);
    let d2_flipped = (dp2, dr2, dq2);
    if dp1 > 0 {
        if dq1 > 0 {
            tri_tri_3d([r1, p1, q1], [p2, r2, q2], d2_flipped)
        } else if dr1 > 0 {
            tri_tri_3d([q1, r1, p1], [p2, r2, q2], d2_flipped)
        } else {
            tri_tri_3d([p1, q1, r1], [p2, q2, r2], d2)
        }
    } else if dp1 < 0 {
        if dq1 < 0 {
            tri_tri_3d([r1, p1, q1], [p2, q2, r2], d2)
        } else if dr1 < 0 {
            tri_tri_3d([q1, r1, p1], [p2, q2, r2], d2)
        } else {
            tri_tri_3d([p1, q1, r1], [p2, r2, q2], d2_flipped)
        }
    } else if dq1 < 0 {
        if dr1 >= 0 {
            tri_tri_3d([q1, r1, p1], [p2, r2, q2], d2_flipped)
        } else {
            tri_tri_3d([p1, q1, r1], [p2, q2, r2], d2)
        }
    } else if dq1 > 0 {
        if dr1 > 0 {
            tri_tri_3d([p1, q1, r1], [p2, r2, q2], d2_flipped)
        } else {
            tri_tri_3d([q1, r1, p1], [p2, q2, r2], d2)
        }
    } else if dr1 > 0 {
        tri_tri_3d([r1, p1, q1], [p2, q2, r2], d2)
    } else if dr1 < 0 {
        tri_tri_3d([r1, p1, q1], [p2, r2, q2], d2_flipped)
    } else {
        coplanar_tri_tri(a, b)
    }
}

/// Second stage of Guigue–Devillers: permute T2 the same way (flipping T1 as needed), then
/// compare the two intervals on the planes' common line with two orientation tests.
fn tri_tri_3d(t1: [[f64; 3]; 3], t2: [[f64; 3]; 3], (dp2, dq2, dr2): (i32, i32, i32)) -> bool {
    let [p1, q1, r1] = t1;
    let [p2, q2, r2] = t2;
    if dp2 > 0 {
        if dq2 > 0 {
            check_min_max([p1, r1, q1], [r2, p2, q2])
        } else if dr2 > 0 {
            check_min_max([p1, r1, q1], [q2, r2, p2])
        } else {
            check_min_max([p1, q1, r1], [p2, q2, r2])
        }
    } else if dp2 < 0 {
        if dq2 < 0 {
            check_min_max([p1, q1, r1], [r2, p2, q2])
        } else if dr2 < 0 {
            check_min_max([p1, q1, r1], [q2, r2, p2])
        } else {
            check_min_max([p1, r1, q1], [p2, q2, r2])
        }
    } else if dq2 < 0 {
        if dr2 >= 0 {
            check_min_max([p1, r1, q1], [q2, r2, p2])
        } else {
            check_min_max([p1, q1, r1], [p2, q2, r2])
        }
    } else if dq2 > 0 {
        if dr2 > 0 {
            check_min_max([p1, r1, q1], [p2, q2, r2])
        } else {
            check_min_max([p1, q1, r1], [q2, r2, p2])
        }
    } else if dr2 > 0 {
        check_min_max([p1, q1, r1], [r2, p2, q2])
    } else if dr2 < 0 {
        check_min_max([p1, r1, q1], [r2, p2, q2])
    } else {
        // T2 lies in T1's plane; unreachable when T1 is not coplanar with T2, kept for safety.
        coplanar_tri_tri(&t1, &t2)
    }
}

/// The intervals `T1 ∩ L` and `T2 ∩ L` on the common line `L` overlap iff
/// `[p1, q1, p2, q2] <= 0` and `[p1, r1, r2, p2] <= 0`.
fn check_min_max(t1: [[f64; 3]; 3], t2: [[f64; 3]; 3]) -> bool {
    let [p1, q1, r1] = t1;
    let [p2, q2, r2] = t2;
    orient3d(p1, q1, p2, q2) <= 0 && orient3d(p1, r1, r2, p2) <= 0
}

/// Two non-degenerate triangles in one plane: project along an axis the plane is not parallel
/// to, then test edge against edge and vertex inside triangle.
fn coplanar_tri_tri(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> bool {
    let Some(k) = projection_axis(a).or_else(|| projection_axis(b)) else {
        return false;
    };
    let a2 = a.map(|p| drop_axis(p, k));
    let b2 = b.map(|p| drop_axis(p, k));
    for i in 0..3 {
        for j in 0..3 {
            if segments_intersect_2d(a2[i], a2[(i + 1) % 3], b2[j], b2[(j + 1) % 3]) {
                return true;
            }
        }
    }
    point_in_triangle_2d(a2[0], &b2) || point_in_triangle_2d(b2[0], &a2)
}

/// A closed segment (possibly a point) against a non-degenerate triangle whose projection along
/// axis `k` is one-to-one.
fn segment_triangle(s0: [f64; 3], s1: [f64; 3], t: &[[f64; 3]; 3], k: usize) -> bool {
    let [a, b, c] = *t;
    let d0 = orient3d(a, b, c, s0);
    let d1 = orient3d(a, b, c, s1);
    if d0 * d1 > 0 {
        return false;
    }
    if d0 == 0 && d1 == 0 {
        let t2 = t.map(|p| drop_axis(p, k));
        let (p, q) = (drop_axis(s0, k), drop_axis(s1, k));
        return point_in_triangle_2d(p, &t2)
            || point_in_triangle_2d(q, &t2)
            || (0..3).any(|i| segments_intersect_2d(p, q, t2[i], t2[(i + 1) % 3]));
    }
    // The line crosses the plane within the segment; it meets the closed triangle iff it passes
    // on the same side of all three edges (zeros allowed).
    let o = [
        orient3d(s0, s1, a, b),
        orient3d(s0, s1, b, c),
        orient3d(s0, s1, c, a),
    ];
    !(o.contains(&1) && o.contains(&-1))
}

/// Two closed segments (possibly points) in space.
fn segment_segment(p: [f64; 3], q: [f64; 3], r: [f64; 3], s: [f64; 3]) -> bool {
    if orient3d(p, q, r, s) != 0 {
        return false;
    }
    // Coplanar (or collinear) segments meet iff their projections on all three coordinate
    // planes meet: some plane containing both projects one-to-one along some axis.
    (0..3).all(|k| {
        segments_intersect_2d(
            drop_axis(p, k),
            drop_axis(q, k),
            drop_axis(r, k),
            drop_axis(s, k),
        )
    })
}

fn segments_intersect_2d(p: [f64; 2], q: [f64; 2], r: [f64; 2], s: [f64; 2]) -> bool {
    let d1 = orient2d(r, s, p);
    let d2 = orient2d(r, s, q);
    let d3 = orient2d(p, q, r);
    let d4 = orient2d(p, q, s);
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && in_box_2d(r, s, p))
        || (d2 == 0 && in_box_2d(r, s, q))
        || (d3 == 0 && in_box_2d(p, q, r))
        || (d4 == 0 && in_box_2d(p, q, s))
}

/// `x` lies in the box spanned by `a` and `b` (for a point collinear with them: on the segment).
fn in_box_2d(a: [f64; 2], b: [f64; 2], x: [f64; 2]) -> bool {
    (0..2).all(|k| a[k].min(b[k]) <= x[k] && x[k] <= a[k].max(b[k]))
}

/// Closed containment in a non-degenerate 2D triangle (either orientation).
fn point_in_triangle_2d(p: [f64; 2], t: &[[f64; 2]; 3]) -> bool {
    let o = [
        orient2d(t[0], t[1], p),
        orient2d(t[1], t[2], p),
        orient2d(t[2], t[0], p),
    ];
    !(o.contains(&1) && o.contains(&-1))
}

/// The largest separation along the 17 candidate axes of the separating-axis theorem for two
/// triangles: both normals, the 9 edge × edge cross products and the 6 in-plane edge normals
/// (normal × edge), each normalised to unit length (zero axes are skipped).
///
/// Positive: the triangles are separated by at least that distance along some axis. Zero or
/// negative: no candidate axis separates them (for two proper non-coplanar triangles the first
/// 11 axes are complete, so they then intersect up to rounding). Plain f64 with rounding errors
/// of a few ulps of the coordinates; `f64::NEG_INFINITY` when every axis is zero (both
/// triangles collapse to single points). A diagnostic for near misses, not a predicate: use
/// [`triangles_intersect`] for decisions.
pub fn separation_gap(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> f64 {
    let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
    let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
    let na = cross(ea[0], sub(a[2], a[0]));
    let nb = cross(eb[0], sub(b[2], b[0]));
    let mut axes = Vec::with_capacity(17);
    axes.push(na);
    axes.push(nb);
    for &u in &ea {
        for &v in &eb {
            axes.push(cross(u, v));
        }
    }
    for &u in &ea {
        axes.push(cross(na, u));
    }
    for &v in &eb {
        axes.push(cross(nb, v));
    }
    let mut best = f64::NEG_INFINITY;
    for axis in axes {
        let n = norm(axis);
        if n == 0.0 || !n.is_finite() {
            continue;
        }
        let unit = [axis[0] / n, axis[1] / n, axis[2] / n];
        let (amin, amax) = project(a, unit);
        let (bmin, bmax) = project(b, unit);
        let gap = (bmin - amax).max(amin - bmax);
        if gap > best {
            best = gap;
        }
    }
    best
}

fn project(t: &[[f64; 3]; 3], axis: [f64; 3]) -> (f64, f64) {
    let d = t.map(|p| dot(p, axis));
    (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::predicates::exact;
    use crate::rng::Rng;

    /// Integer points from the crate's fixed-seed generator, so every run tests the same cases.
    struct Ints(Rng);

    impl Ints {
        /// Uniform integer in `[-r, r]`.
        fn int(&mut self, r: i64) -> i64 {
            (self.0.next_u64() % (2 * r as u64 + 1)) as i64 - r
        }

        fn point(&mut self, r: i64) -> [i64; 3] {
            [self.int(r), self.int(r), self.int(r)]
        }

        fn triangle(&mut self, r: i64) -> [[i64; 3]; 3] {
            [self.point(r), self.point(r), self.point(r)]
        }
    }

    fn to_f64(t: &[[i64; 3]; 3]) -> [[f64; 3]; 3] {
        t.map(|p| p.map(|c| c as f64))
    }

    // ---- An independent reference in exact integer arithmetic -------------------------------
    //
    // Two closed triangles (degenerate or not) intersect iff an edge of one meets the other
    // (the extreme points of the convex intersection lie on a boundary). Segments are met in
    // exact i128 arithmetic with rational parameters; no projection, no orientation filter.

    type P = [i128; 3];

    fn isub(a: P, b: P) -> P {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }
    fn icross(a: P, b: P) -> P {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }
    fn idot(a: P, b: P) -> i128 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }
    fn iscale(a: P, k: i128) -> P {
        [a[0] * k, a[1] * k, a[2] * k]
    }
    fn iadd(a: P, b: P) -> P {
        [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
    }

    /// `den · x` lies in the closed triangle `abc` with normal `n ≠ 0` (x in its plane).
    fn in_triangle_scaled(x_scaled: P, den: i128, t: [P; 3], n: P) -> bool {
        (0..3).all(|i| {
            let (u, v) = (t[i], t[(i + 1) % 3]);
            let s = idot(icross(isub(v, u), isub(x_scaled, iscale(u, den))), n);
            s * den.signum() >= 0
        })
    }

    /// Coplanar closed segments `pq`, `rs` in a plane with normal `n ≠ 0`.
    fn coplanar_segments(p: P, q: P, r: P, s: P, n: P) -> bool {
        let o = |a: P, b: P, c: P| idot(icross(isub(b, a), isub(c, a)), n).signum();
        let within =
            |a: P, b: P, x: P| (0..3).all(|k| a[k].min(b[k]) <= x[k] && x[k] <= a[k].max(b[k]));
        let (d1, d2, d3, d4) = (o(r, s, p), o(r, s, q), o(p, q, r), o(p, q, s));
        (d1 * d2 < 0 && d3 * d4 < 0)
            || (d1 == 0 && within(r, s, p))
            || (d2 == 0 && within(r, s, q))
            || (d3 == 0 && within(p, q, r))
            || (d4 == 0 && within(p, q, s))
    }

    fn ref_segment_segment(p: P, q: P, r: P, s: P) -> bool {
        let candidates = [
            icross(isub(q, p), isub(s, r)),
            icross(isub(q, p), isub(r, p)),
            icross(isub(q, p), isub(s, p)),
            icross(isub(s, r), isub(p, r)),
            icross(isub(s, r), isub(q, r)),
        ];
        if let Some(&n) = candidates.iter().find(|c| **c != [0; 3]) {
            if [q, r, s].iter().any(|&x| idot(n, isub(x, p)) != 0) {
                return false;
            }
            return coplanar_segments(p, q, r, s, n);
        }
        // Everything on one line (or points): compare intervals along its direction.
        let d = if q != p { isub(q, p) } else { isub(s, r) };
        if d == [0; 3] {
            return p == r;
        }
        let (a0, a1) = (idot(p, d), idot(q, d));
        let (b0, b1) = (idot(r, d), idot(s, d));
        a0.min(a1) <= b0.max(b1) && b0.min(b1) <= a0.max(a1)
    }

    fn ref_segment_triangle(s0: P, s1: P, t: [P; 3]) -> bool {
        let n = icross(isub(t[1], t[0]), isub(t[2], t[0]));
        if n == [0; 3] {
            return (0..3).any(|i| ref_segment_segment(s0, s1, t[i], t[(i + 1) % 3]));
        }
        let dir = isub(s1, s0);
        let den = idot(n, dir);
        let num = idot(n, isub(t[0], s0));
        if den == 0 {
            if num != 0 {
                return false;
            }
            return in_triangle_scaled(s0, 1, t, n)
                || in_triangle_scaled(s1, 1, t, n)
                || (0..3).any(|i| coplanar_segments(s0, s1, t[i], t[(i + 1) % 3], n));
        }
        // Parameter num / den must lie in [0, 1].
        let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
        if num < 0 || num > den {
            return false;
        }
        let x_scaled = iadd(iscale(s0, den), iscale(dir, num));
        in_triangle_scaled(x_scaled, den, t, n)
    }

    fn reference_intersect(a: &[[i64; 3]; 3], b: &[[i64; 3]; 3]) -> bool {
        let a = a.map(|p| p.map(i128::from));
        let b = b.map(|p| p.map(i128::from));
        (0..3).any(|i| ref_segment_triangle(a[i], a[(i + 1) % 3], b))
            || (0..3).any(|i| ref_segment_triangle(b[i], b[(i + 1) % 3], a))
    }

    // ---- Hand cases --------------------------------------------------------------------------

    const UNIT: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    fn moved(t: [[f64; 3]; 3], d: [f64; 3]) -> [[f64; 3]; 3] {
        t.map(|p| [p[0] + d[0], p[1] + d[1], p[2] + d[2]])
    }

    /// Both argument orders, and every cyclic/flipped vertex order, give the same answer.
    fn intersect_all_orders(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> bool {
        let perms = |t: &[[f64; 3]; 3]| {
            [
                [t[0], t[1], t[2]],
                [t[1], t[2], t[0]],
                [t[2], t[0], t[1]],
                [t[0], t[2], t[1]],
                [t[2], t[1], t[0]],
                [t[1], t[0], t[2]],
            ]
        };
        let first = triangles_intersect(a, b);
        for pa in perms(a) {
            for pb in perms(b) {
                assert_eq!(
                    triangles_intersect(&pa, &pb),
                    first,
                    "order dependence: {pa:?} vs {pb:?}"
                );
                assert_eq!(
                    triangles_intersect(&pb, &pa),
                    first,
                    "order dependence: {pb:?} vs {pa:?}"
                );
            }
        }
        first
    }

    /// A hand case: name, two triangles, whether they intersect.
    type Case = (&'static str, [[f64; 3]; 3], [[f64; 3]; 3], bool);

    #[test]
    fn hand_cases() {
        let vertical = |x: f64| [[x, -1.0, -1.0], [x, 1.0, -1.0], [x, 0.0, 1.0]];
        let cases: &[Case] = &[
            (
                "crossing",
                UNIT,
                [[0.25, 0.25, -1.0], [0.25, 0.25, 1.0], [0.25, -2.0, 0.0]],
                true,
            ),
            (
                "crossing through the interior",
                [[-1.0, -1.0, 0.0], [2.0, -1.0, 0.0], [-1.0, 2.0, 0.0]],
                vertical(0.0),
                true,
            ),
            (
                "touching at a vertex",
                UNIT,
                [[1.0, 0.0, 0.0], [2.0, 0.0, 1.0], [2.0, 1.0, -1.0]],
                true,
            ),
            (
                "vertex on the face",
                UNIT,
                [[0.25, 0.25, 0.0], [0.25, 0.25, 1.0], [0.5, 0.0, 1.0]],
                true,
            ),
            (
                "edge lying on the face",
                UNIT,
                [[0.1, 0.1, 0.0], [0.5, 0.2, 0.0], [0.3, 0.3, 1.0]],
                true,
            ),
            (
                "edge-on: edge across the other's edge",
                UNIT,
                [[0.5, -1.0, 0.0], [0.5, 1.0, 0.0], [0.5, 0.0, 1.0]],
                true,
            ),
            (
                "coplanar overlapping",
                UNIT,
                moved(UNIT, [0.3, 0.3, 0.0]),
                true,
            ),
            (
                "coplanar sharing an edge",
                UNIT,
                [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]],
                true,
            ),
            (
                "coplanar disjoint",
                UNIT,
                moved(UNIT, [1.5, 1.5, 0.0]),
                false,
            ),
            (
                "coplanar, one inside the other",
                [[-5.0, -5.0, 0.0], [5.0, -5.0, 0.0], [0.0, 5.0, 0.0]],
                [[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0]],
                true,
            ),
            (
                "parallel separate planes",
                UNIT,
                moved(UNIT, [0.0, 0.0, 1.0]),
                false,
            ),
            (
                "degenerate segment piercing",
                UNIT,
                [[0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [0.2, 0.2, 0.5]],
                true,
            ),
            (
                "degenerate segment passing beside",
                UNIT,
                [[0.6, 0.6, -1.0], [0.6, 0.6, 1.0], [0.6, 0.6, 0.5]],
                false,
            ),
            (
                "degenerate point on the face",
                UNIT,
                [[0.25, 0.5, 0.0]; 3],
                true,
            ),
            (
                "degenerate point above the face",
                UNIT,
                [[0.25, 0.5, 1e-300]; 3],
                false,
            ),
            (
                "two crossing degenerate segments",
                [[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                [[0.0, -1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.5, 0.0]],
                true,
            ),
            (
                "two skew degenerate segments",
                [[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                [[0.0, -1.0, 1e-9], [0.0, 1.0, 1e-9], [0.0, 0.5, 1e-9]],
                false,
            ),
            (
                "nearly touching by 1e-9 (vertex above face)",
                UNIT,
                [[0.25, 0.25, 1e-9], [0.25, 0.25, 1.0], [0.5, 0.0, 1.0]],
                false,
            ),
            (
                "nearly touching by 1e-9 (crossing planes)",
                [[-1.0, -1.0, 0.0], [2.0, -1.0, 0.0], [-1.0, 2.0, 0.0]],
                moved(vertical(0.0), [0.0, 0.0, 1.0 + 1e-9]),
                false,
            ),
            (
                "touching exactly (crossing planes)",
                [[-1.0, -1.0, 0.0], [2.0, -1.0, 0.0], [-1.0, 2.0, 0.0]],
                moved(vertical(0.0), [0.0, 0.0, 1.0]),
                true,
            ),
            (
                "coplanar, 1e-9 apart",
                UNIT,
                moved(UNIT, [1.0 + 1e-9, 0.0, 0.0]),
                false,
            ),
        ];
        for (name, a, b, expected) in cases {
            assert_eq!(intersect_all_orders(a, b), *expected, "{name}");
            let gap = separation_gap(a, b);
            if *expected {
                assert!(gap <= 1e-12, "{name}: intersecting but gap {gap}");
            }
        }
    }

    #[test]
    fn nearly_touching_gap_is_reported() {
        let b = [[0.25, 0.25, 1e-9], [0.25, 0.25, 1.0], [0.5, 0.0, 1.0]];
        let gap = separation_gap(&UNIT, &b);
        assert!((gap - 1e-9).abs() < 1e-15, "gap {gap}");
    }

    #[test]
    fn non_finite_never_intersects() {
        let mut b = UNIT;
        b[1][0] = f64::NAN;
        assert!(!triangles_intersect(&UNIT, &b));
        b[1][0] = f64::INFINITY;
        assert!(!triangles_intersect(&UNIT, &b));
    }

    #[test]
    fn exact_predicates_resolve_tiny_determinants() {
        // Nearly collinear points whose f64 determinant is pure rounding noise.
        let a = [0.5, 0.5];
        let b = [12.0, 12.0];
        let c = [24.0, 24.0];
        assert_eq!(orient2d(a, b, c), 0);
        let c_up = [24.0, f64::from_bits(24.0f64.to_bits() + 1)];
        assert_eq!(orient2d(a, b, c_up), 1);
        let c_down = [24.0, f64::from_bits(24.0f64.to_bits() - 1)];
        assert_eq!(orient2d(a, b, c_down), -1);
        // A point one ulp off a plane through non-representable-difference coordinates.
        let p = [0.1, 0.2, 0.3];
        let q = [1.1, 0.7, 0.3];
        let r = [0.4, 1.9, 0.3];
        assert_eq!(orient3d(p, q, r, [0.6, 0.6, 0.3]), 0);
        assert_eq!(
            orient3d(p, q, r, [0.6, 0.6, f64::from_bits(0.3f64.to_bits() + 1)]),
            1
        );
        assert_eq!(
            orient3d(p, q, r, [0.6, 0.6, f64::from_bits(0.3f64.to_bits() - 1)]),
            -1
        );
    }

    #[test]
    fn exact_and_filtered_signs_agree() {
        let mut rng = Ints(Rng::from_state(0x5eed_0001));
        for _ in 0..2000 {
            let pts: Vec<[f64; 3]> = (0..4)
                .map(|_| rng.point(1000).map(|c| c as f64 * 0.37))
                .collect();
            assert_eq!(
                orient3d(pts[0], pts[1], pts[2], pts[3]),
                exact::orient3d(pts[0], pts[1], pts[2], pts[3])
            );
            let d = |p: [f64; 3]| [p[0], p[1]];
            assert_eq!(
                orient2d(d(pts[0]), d(pts[1]), d(pts[2])),
                exact::orient2d(d(pts[0]), d(pts[1]), d(pts[2]))
            );
        }
    }

    // ---- Randomized cross-check against the integer reference -------------------------------

    /// Tolerance of the consistency check between the f64 gap and the exact predicate, relative
    /// to the coordinate magnitude.
    const GAP_TOLERANCE: f64 = 1e-9;

    fn cross_check(a: &[[i64; 3]; 3], b: &[[i64; 3]; 3], scale: f64, counts: &mut [usize; 2]) {
        let (fa, fb) = (to_f64(a), to_f64(b));
        let expected = reference_intersect(a, b);
        let got = triangles_intersect(&fa, &fb);
        assert_eq!(
            got, expected,
            "triangles_intersect disagrees with the reference on {a:?} vs {b:?}"
        );
        assert_eq!(
            triangles_intersect(&fb, &fa),
            expected,
            "asymmetric on {a:?} vs {b:?}"
        );
        let gap = separation_gap(&fa, &fb);
        if gap > GAP_TOLERANCE * scale {
            assert!(!got, "gap {gap} > 0 but intersecting: {a:?} vs {b:?}");
        }
        counts[usize::from(got)] += 1;
    }

    #[test]
    fn random_small_grid_matches_reference() {
        // Coordinates in {-2..2}: many coplanar, touching and degenerate configurations.
        let mut rng = Ints(Rng::from_state(0x0123_4567_89ab_cdef));
        let mut counts = [0; 2];
        for _ in 0..6000 {
            let a = rng.triangle(2);
            let b = rng.triangle(2);
            cross_check(&a, &b, 2.0, &mut counts);
        }
        assert!(
            counts[0] > 500 && counts[1] > 500,
            "both outcomes exercised: {counts:?}"
        );
    }

    #[test]
    fn random_wide_grid_matches_reference() {
        // Coordinates in {-1000..1000}: general position, nearly continuous.
        let mut rng = Ints(Rng::from_state(0xfeed_beef_dead_cafe));
        let mut counts = [0; 2];
        for _ in 0..6000 {
            let a = rng.triangle(1000);
            // Bias b towards a so that both outcomes are frequent.
            let off = rng.point(600);
            let b = [0, 1, 2].map(|i| {
                let p = rng.point(500);
                [
                    a[i][0] / 2 + p[0] + off[0],
                    a[i][1] / 2 + p[1] + off[1],
                    a[i][2] / 2 + p[2] + off[2],
                ]
            });
            cross_check(&a, &b, 2000.0, &mut counts);
        }
        assert!(
            counts[0] > 500 && counts[1] > 500,
            "both outcomes exercised: {counts:?}"
        );
    }

    #[test]
    fn random_coplanar_matches_reference() {
        // Both triangles in one plane z = c, then mapped by a random small integer matrix
        // (sometimes singular, which adds degenerate triangles).
        let mut rng = Ints(Rng::from_state(0x00c0_ffee_1234_5678));
        let mut counts = [0; 2];
        for _ in 0..4000 {
            let c = rng.int(3);
            let mut tri = || [0; 3].map(|_| [rng.int(4), rng.int(4), c]);
            let (a, b) = (tri(), tri());
            let m = [0; 3].map(|_| [rng.int(2), rng.int(2), rng.int(2)]);
            let map = |t: [[i64; 3]; 3]| {
                t.map(|p| [0, 1, 2].map(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2]))
            };
            cross_check(&map(a), &map(b), 50.0, &mut counts);
        }
        assert!(
            counts[0] > 300 && counts[1] > 300,
            "both outcomes exercised: {counts:?}"
        );
    }

    #[test]
    fn random_shared_features_match_reference() {
        // B reuses one or two of A's vertices: touching at a vertex or an edge.
        let mut rng = Ints(Rng::from_state(0x0bad_5eed_0bad_5eed));
        let mut counts = [0; 2];
        for i in 0..4000 {
            let a = rng.triangle(5);
            let mut b = rng.triangle(5);
            b[0] = a[(i % 3) as usize];
            if i % 2 == 0 {
                b[1] = a[((i + 1) % 3) as usize];
            }
            cross_check(&a, &b, 5.0, &mut counts);
        }
        assert_eq!(counts[0], 0, "triangles sharing a vertex always intersect");
    }
}
