//! Triangle geometry in f64 for the contact oracles: a point's distance to a triangle, and two
//! intersecting triangles' penetration depth by brute force.

use bdtree_std::oracle;

pub type V = [f64; 3];
pub type Tri = [V; 3];

pub fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The distance from `p` to triangle `t` (the oracle's triangle distance to a point triangle).
pub fn point_distance(p: V, t: &Tri) -> f64 {
    oracle::triangle_distance(&[p, p, p], t).0
}

/// The penetration depth of two intersecting triangles by brute force: the least distance from
/// the origin to a supporting plane of the Minkowski difference `b − a` (its nine points; every
/// facet is spanned by three of them, so trying every triple finds every facet).
pub fn penetration_depth(a: &Tri, b: &Tri) -> f64 {
    hull_penetration(a, b, 1e-14)
}

/// The penetration depth of two intersecting convex point sets (their hulls) by brute force:
/// the least distance from the origin to a supporting plane of the Minkowski difference
/// `b − a`, every facet spanned by three of its points; three points whose cross product is
/// below `flat` times the squared size of the difference are taken as collinear.
pub fn hull_penetration(a: &[V], b: &[V], flat: f64) -> f64 {
    let points: Vec<V> = b
        .iter()
        .flat_map(|&y| a.iter().map(move |&x| sub(y, x)))
        .collect();
    let scale = points
        .iter()
        .map(|p| dot(*p, *p).sqrt())
        .fold(1e-300, f64::max);
    let eps = 1e-11 * scale;
    let mut best = f64::INFINITY;
    let n = points.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (p, q, r) = (points[i], points[j], points[k]);
                let m = cross(sub(q, p), sub(r, p));
                let len = dot(m, m).sqrt();
                if len <= flat * scale * scale {
                    continue;
                }
                let m = m.map(|x| x / len);
                let s = dot(m, p);
                if s.abs() >= best {
                    // Neither side can lower the best.
                    continue;
                }
                let (mut below, mut above) = (true, true);
                for h in points.iter().map(|&x| dot(m, x) - s) {
                    below &= h <= eps;
                    above &= h >= -eps;
                }
                if below {
                    best = best.min(s);
                }
                if above {
                    best = best.min(-s);
                }
            }
        }
    }
    best.max(0.0)
}
