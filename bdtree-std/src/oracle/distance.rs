//! Exact-enough triangle–triangle distance in f64, independent of the kernel's code.

use super::triangles::triangles_intersect;
use crate::vec3::{cross, dot, norm, sub};

/// Distance from `p` to segment `a b` and the closest point.
fn point_segment(p: [f64; 3], a: [f64; 3], b: [f64; 3]) -> (f64, [f64; 3]) {
    let ab = sub(b, a);
    let len2 = dot(ab, ab);
    let t = if len2 > 0.0 {
        (dot(sub(p, a), ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let c = [a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]];
    (norm(sub(p, c)), c)
}

/// Distance from `p` to triangle `t` and the closest point: the foot of the perpendicular when
/// it falls inside (same-side tests on the three edges), else the nearest edge point.
fn point_triangle(p: [f64; 3], t: &[[f64; 3]; 3]) -> (f64, [f64; 3]) {
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let nn = dot(n, n);
    if nn > 0.0 {
        let h = dot(sub(p, t[0]), n) / nn;
        let foot = [p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]];
        let inside = (0..3).all(|i| {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            dot(cross(sub(b, a), sub(foot, a)), n) >= 0.0
        });
        if inside {
            return (norm(sub(p, foot)), foot);
        }
    }
    (0..3)
        .map(|i| point_segment(p, t[i], t[(i + 1) % 3]))
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .unwrap_or((f64::INFINITY, p))
}

/// Closest points of segments `p q` and `r s`: the interior critical point when the lines are
/// not parallel and it falls inside both, else the best of the four endpoint–segment cases.
fn segment_segment_closest(
    p: [f64; 3],
    q: [f64; 3],
    r: [f64; 3],
    s: [f64; 3],
) -> (f64, [f64; 3], [f64; 3]) {
    let mut best = (f64::INFINITY, p, r);
    let (d1, d2, w) = (sub(q, p), sub(s, r), sub(p, r));
    let (a, b, c, d, e) = (
        dot(d1, d1),
        dot(d1, d2),
        dot(d2, d2),
        dot(d1, w),
        dot(d2, w),
    );
    let det = a * c - b * b;
    if det > 1e-300 {
        let sc = (b * e - c * d) / det;
        let tc = (a * e - b * d) / det;
        if (0.0..=1.0).contains(&sc) && (0.0..=1.0).contains(&tc) {
            let x = [p[0] + sc * d1[0], p[1] + sc * d1[1], p[2] + sc * d1[2]];
            let y = [r[0] + tc * d2[0], r[1] + tc * d2[1], r[2] + tc * d2[2]];
            best = (norm(sub(x, y)), x, y);
        }
    }
    for (pt, seg_a, seg_b, pt_first) in [
        (p, r, s, true),
        (q, r, s, true),
        (r, p, q, false),
        (s, p, q, false),
    ] {
        let (dist, c) = point_segment(pt, seg_a, seg_b);
        if dist < best.0 {
            best = if pt_first {
                (dist, pt, c)
            } else {
                (dist, c, pt)
            };
        }
    }
    best
}

/// The exact distance between two triangles in f64 (0 when [`triangles_intersect`]), with the
/// closest points: the least of the 6 vertex–triangle and 9 edge–edge distances, computed
/// independently of the kernel's code (perpendicular foot and edge clamping).
pub fn triangle_distance(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> (f64, [f64; 3], [f64; 3]) {
    if triangles_intersect(a, b) {
        return (0.0, a[0], a[0]);
    }
    let mut best = (f64::INFINITY, a[0], b[0]);
    for &p in a {
        let (d, c) = point_triangle(p, b);
        if d < best.0 {
            best = (d, p, c);
        }
    }
    for &p in b {
        let (d, c) = point_triangle(p, a);
        if d < best.0 {
            best = (d, c, p);
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            let r = segment_segment_closest(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]);
            if r.0 < best.0 {
                best = r;
            }
        }
    }
    best
}
