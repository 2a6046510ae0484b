//! The leaf test: do two triangles intersect?
//!
//! A separating-axis test over the three coordinate axes (a box test) and the 17 candidate axes
//! of two triangles — both normals, the nine
//! edge × edge crosses and the six in-plane edge normals `n × e` (which settle the coplanar
//! case). Two closed triangles are disjoint exactly when one of these axes separates them, and
//! any axis that the arithmetic produces is a valid axis, so only the projections need care: an
//! axis counts as separating only when the gap exceeds a bound on the projection error of
//! vertices that are themselves known only to within `error` per coordinate. Near-degenerate
//! configurations (zero-area triangles, parallel edges) therefore come out as "may intersect":
//! the test can report a pair that misses by less than its tolerance, and never misses a pair
//! that intersects.

use crate::scalar::{cross, dot, norm1, norm_inf, sub, Scalar};

/// Whether two triangles may intersect, given that each computed vertex is within `error`
/// (per coordinate) of the true one. Never `false` for triangles that truly intersect (touching
/// counts); `true` for disjoint ones only when they are within about `error` plus a few ulps.
///
/// Cost: a box test, then at most 17 axes × 7 dot products; a disjoint pair usually stops at
/// the box or at one of the two normals.
pub fn triangles_may_intersect<S: Scalar>(a: &[[S; 3]; 3], b: &[[S; 3]; 3], error: S) -> bool {
    let mut w = S::ZERO;
    for v in a.iter().chain(b.iter()) {
        w = w.max(norm_inf(*v));
    }
    let u = S::UNIT_ROUNDOFF;
    let eight = S::from_u32(8);
    let per_unit_axis = (error + error + eight * u * (w + error)) * (S::ONE + eight * u);

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
            return false;
        }
    }
    let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
    let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
    let na = cross(ea[0], ea[1]);
    let nb = cross(eb[0], eb[1]);
    if separated(na) || separated(nb) {
        return false;
    }
    for e in ea {
        for f in eb {
            if separated(cross(e, f)) {
                return false;
            }
        }
    }
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
    true
}

#[cfg(test)]
mod tests {
    use super::triangles_may_intersect;

    const T: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    fn shifted(t: [[f64; 3]; 3], d: [f64; 3]) -> [[f64; 3]; 3] {
        t.map(|v| [v[0] + d[0], v[1] + d[1], v[2] + d[2]])
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
            assert_eq!(triangles_may_intersect(&T, &b, 0.0), want, "{name}");
            assert_eq!(
                triangles_may_intersect(&b, &T, 0.0),
                want,
                "{name} (swapped)"
            );
            let b32 = b.map(|v| v.map(|x| x as f32));
            let t32 = T.map(|v| v.map(|x| x as f32));
            assert_eq!(
                triangles_may_intersect(&t32, &b32, 0.0),
                want,
                "{name} (f32)"
            );
        }
    }

    #[test]
    fn error_widens_the_test() {
        let near = shifted(T, [0.0, 0.0, 1e-3]);
        assert!(!triangles_may_intersect(&T, &near, 1e-4));
        assert!(triangles_may_intersect(&T, &near, 1e-3));
    }
}
