//! Minimal enclosing spheres (Welzl 1991, move-to-front, iterative in the support size).
//!
//! Used for the rest spheres of the tree. Numerically, the returned center is whatever the
//! arithmetic gives; callers recompute the radius as the largest distance from that center, so
//! a slightly off center costs a little tightness, never correctness.

use crate::vec3::{cross, dot, sub};
/// A sphere: center and radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball {
    /// Center.
    pub center: [f64; 3],
    /// Radius (negative for the empty ball).
    pub radius: f64,
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    dot(sub(a, b), sub(a, b)).sqrt()
}

impl Ball {
    const EMPTY: Ball = Ball {
        center: [0.0; 3],
        radius: -1.0,
    };

    fn contains(&self, p: [f64; 3]) -> bool {
        let d = dist(self.center, p);
        d <= self.radius * (1.0 + 1e-12) + 1e-300
    }

    fn through(support: &[[f64; 3]]) -> Ball {
        match *support {
            [] => Ball::EMPTY,
            [a] => Ball {
                center: a,
                radius: 0.0,
            },
            [a, b] => {
                let center = [
                    (a[0] + b[0]) * 0.5,
                    (a[1] + b[1]) * 0.5,
                    (a[2] + b[2]) * 0.5,
                ];
                Ball {
                    center,
                    radius: dist(center, a).max(dist(center, b)),
                }
            }
            [a, b, c] => {
                // Circumcenter of a triangle in 3D.
                let (ab, ac) = (sub(b, a), sub(c, a));
                let n = cross(ab, ac);
                let n2 = dot(n, n);
                let fallback = || widest(&[a, b, c]);
                if n2 <= 0.0 || !n2.is_finite() {
                    return fallback();
                }
                let t1 = cross(n, ab);
                let t2 = cross(ac, n);
                let k1 = dot(ac, ac) / (2.0 * n2);
                let k2 = dot(ab, ab) / (2.0 * n2);
                let off = [
                    t1[0] * k1 + t2[0] * k2,
                    t1[1] * k1 + t2[1] * k2,
                    t1[2] * k1 + t2[2] * k2,
                ];
                let center = [a[0] + off[0], a[1] + off[1], a[2] + off[2]];
                let radius = dist(center, a).max(dist(center, b)).max(dist(center, c));
                if radius.is_finite() {
                    Ball { center, radius }
                } else {
                    fallback()
                }
            }
            [a, b, c, d] => {
                // Circumsphere of a tetrahedron: solve 2 (x − a)·(p − a) = |p − a|² for p = b, c, d.
                let (u, v, w) = (sub(b, a), sub(c, a), sub(d, a));
                let det = dot(u, cross(v, w));
                let fallback = || widest(&[a, b, c, d]);
                if det == 0.0 || !det.is_finite() {
                    return fallback();
                }
                let (uu, vv, ww) = (dot(u, u), dot(v, v), dot(w, w));
                let vw = cross(v, w);
                let wu = cross(w, u);
                let uv = cross(u, v);
                let s = 0.5 / det;
                let off = [
                    (uu * vw[0] + vv * wu[0] + ww * uv[0]) * s,
                    (uu * vw[1] + vv * wu[1] + ww * uv[1]) * s,
                    (uu * vw[2] + vv * wu[2] + ww * uv[2]) * s,
                ];
                let center = [a[0] + off[0], a[1] + off[1], a[2] + off[2]];
                let radius = [a, b, c, d]
                    .iter()
                    .map(|&p| dist(center, p))
                    .fold(0.0, f64::max);
                if radius.is_finite() {
                    Ball { center, radius }
                } else {
                    fallback()
                }
            }
            _ => Ball::EMPTY,
        }
    }
}

/// The smallest of the balls through subsets of a degenerate support that contains it all.
fn widest(points: &[[f64; 3]]) -> Ball {
    let mut best = Ball {
        center: points[0],
        radius: f64::INFINITY,
    };
    for i in 0..points.len() {
        for j in i..points.len() {
            let ball = Ball::through(&[points[i], points[j]]);
            let r = points
                .iter()
                .map(|&p| dist(ball.center, p))
                .fold(0.0, f64::max);
            if r < best.radius {
                best = Ball {
                    center: ball.center,
                    radius: r,
                };
            }
        }
    }
    best
}

/// The minimal enclosing ball of `points` (reordered in place; expected linear time after a
/// deterministic shuffle). The radius is recomputed as the largest distance from the center.
pub fn minimal_ball(points: &mut [[f64; 3]]) -> Ball {
    if points.is_empty() {
        return Ball::EMPTY;
    }
    // Deterministic shuffle (xorshift64) so that adversarial orders do not go quadratic. Not
    // `crate::rng::Rng`: this order decides the rounding of every Welzl ball, hence the bytes of
    // every built image (and of the committed fixtures), so it stays exactly as it is.
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ points.len() as u64;
    for i in (1..points.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        points.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let mut support = Vec::with_capacity(4);
    let ball = move_to_front(points, points.len(), &mut support);
    let radius = points
        .iter()
        .map(|&p| dist(ball.center, p))
        .fold(0.0, f64::max);
    Ball {
        center: ball.center,
        radius,
    }
}

fn move_to_front(points: &mut [[f64; 3]], n: usize, support: &mut Vec<[f64; 3]>) -> Ball {
    let mut ball = Ball::through(support);
    if support.len() == 4 {
        return ball;
    }
    for i in 0..n {
        let p = points[i];
        if !ball.contains(p) {
            support.push(p);
            ball = move_to_front(points, i, support);
            support.pop();
            points[..=i].rotate_right(1);
        }
    }
    ball
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_balls() {
        let mut two = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 0.5, 0.0]];
        let b = minimal_ball(&mut two);
        assert!((b.radius - 1.0).abs() < 1e-12 && dist(b.center, [1.0, 0.0, 0.0]) < 1e-12);
        let mut cube: Vec<[f64; 3]> = (0..8)
            .map(|i| [(i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64])
            .collect();
        let b = minimal_ball(&mut cube);
        assert!((b.radius - 3f64.sqrt() / 2.0).abs() < 1e-12, "{b:?}");
    }

    #[test]
    fn never_larger_than_the_box_sphere_and_contains_all() {
        let mut rng = crate::rng::Rng::from_state(7);
        let mut rnd = || rng.unit() - 0.5;
        for n in [1usize, 2, 3, 5, 17, 200] {
            let pts: Vec<[f64; 3]> = (0..n).map(|_| [rnd(), rnd() * 3.0, rnd() * 0.01]).collect();
            let mut work = pts.clone();
            let b = minimal_ball(&mut work);
            for p in &pts {
                assert!(dist(b.center, *p) <= b.radius);
            }
            let mut lo = [f64::MAX; 3];
            let mut hi = [f64::MIN; 3];
            for p in &pts {
                for k in 0..3 {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
            let c = [
                (lo[0] + hi[0]) / 2.0,
                (lo[1] + hi[1]) / 2.0,
                (lo[2] + hi[2]) / 2.0,
            ];
            let box_r = pts.iter().map(|&p| dist(c, p)).fold(0.0, f64::max);
            assert!(
                b.radius <= box_r * (1.0 + 1e-9),
                "n = {n}: {} > {box_r}",
                b.radius
            );
        }
    }
}
