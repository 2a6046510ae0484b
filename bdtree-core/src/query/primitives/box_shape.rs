//! The box of [`crate::query::primitives`]: a deformed triangle against an oriented box, exact up to
//! the primitive tolerance `T`.
//!
//! The triangle is taken into the box's frame (`x'ₖ = aₖ · (x − c)`, `aₖ` the box's unit axes)
//! and clipped (Sutherland–Hodgman, at most 9 vertices, no allocation) against the box grown by
//! `T` on every side. An empty polygon means the triangle is farther than `T` from the box in
//! some axis, so it does not touch it; otherwise the pair is reported with
//!
//! * **point**: the mean of the clipped polygon's vertices (on the triangle, in the grown box);
//! * **normal, depth**: the axis of least overlap among the box's 3 axes, the triangle's normal,
//!   the 9 edge × edge directions and the triangle's 3 in-plane edge normals, oriented from the
//!   triangle to the box, and that overlap. For intersecting convex polytopes the least overlap
//!   over the face normals and edge × edge directions is the penetration depth (moving the box
//!   by it along the normal separates them); the extra in-plane axes never lower it below that.
//!
//! A reported triangle lies within the grown box, so at most `√3 T < 2T` from the box.

use crate::scalar::{cross, dot, sub, Scalar};

type V<S> = [S; 3];

/// Vertices of a clipped polygon: 3 plus at most one per clipping plane.
const MAX_POLYGON: usize = 9;

/// A convex polygon of at most [`MAX_POLYGON`] vertices.
#[derive(Clone, Copy)]
struct Polygon<S> {
    vertices: [V<S>; MAX_POLYGON],
    len: usize,
}

impl<S: Scalar> Polygon<S> {
    fn push(&mut self, v: V<S>) {
        if let Some(slot) = self.vertices.get_mut(self.len) {
            *slot = v;
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = &V<S>> {
        self.vertices.iter().take(self.len)
    }

    /// The part with `sign · x[axis] ≤ limit`.
    fn clip(&self, axis: usize, sign: S, limit: S) -> Self {
        let mut out = Polygon {
            vertices: [[S::ZERO; 3]; MAX_POLYGON],
            len: 0,
        };
        let height = |v: &V<S>| sign * v.get(axis).copied().unwrap_or(S::ZERO) - limit;
        for i in 0..self.len {
            let (Some(p), Some(q)) = (
                self.vertices.get(i),
                self.vertices.get(if i + 1 == self.len { 0 } else { i + 1 }),
            ) else {
                continue;
            };
            let (hp, hq) = (height(p), height(q));
            if hp <= S::ZERO {
                out.push(*p);
            }
            if (hp < S::ZERO && hq > S::ZERO) || (hp > S::ZERO && hq < S::ZERO) {
                let s = hp / (hp - hq);
                out.push([
                    p[0] + s * (q[0] - p[0]),
                    p[1] + s * (q[1] - p[1]),
                    p[2] + s * (q[2] - p[2]),
                ]);
            }
        }
        out
    }
}

/// The contact of a triangle given in the box's frame with the box `|x'ₖ| ≤ hₖ`, grown by `t`:
/// `(point, normal, depth)` in the box's frame, or `None` when the triangle misses the grown box.
pub(crate) fn box_contact<S: Scalar>(
    triangle: &[V<S>; 3],
    half: V<S>,
    t: S,
) -> Option<(V<S>, V<S>, S)> {
    let mut polygon = Polygon {
        vertices: [[S::ZERO; 3]; MAX_POLYGON],
        len: 0,
    };
    for v in triangle {
        polygon.push(*v);
    }
    for (k, h) in half.iter().enumerate() {
        for sign in [S::ONE, -S::ONE] {
            polygon = polygon.clip(k, sign, *h + t);
        }
    }
    // NaN coordinates clip to nothing: a broken state is no contact.
    if polygon.len == 0 {
        return None;
    }
    let mut sum = [S::ZERO; 3];
    for v in polygon.iter() {
        sum = [sum[0] + v[0], sum[1] + v[1], sum[2] + v[2]];
    }
    let count = S::from_u32(polygon.len as u32);
    let point = sum.map(|x| x / count);

    let [p, q, r] = *triangle;
    let edges = [sub(q, p), sub(r, q), sub(p, r)];
    let face = cross(edges[0], sub(r, p));
    let axes_of_box = [
        [S::ONE, S::ZERO, S::ZERO],
        [S::ZERO, S::ONE, S::ZERO],
        [S::ZERO, S::ZERO, S::ONE],
    ];
    let mut best: Option<(V<S>, S)> = None;
    let mut consider = |axis: V<S>| {
        let len = dot(axis, axis).sqrt();
        if !(len > S::ZERO && len.is_finite()) {
            return;
        }
        let u = axis.map(|x| x / len);
        let (mut lo, mut hi) = (dot(u, p), dot(u, p));
        for v in [q, r] {
            let h = dot(u, v);
            lo = lo.min(h);
            hi = hi.max(h);
        }
        let reach = half[0] * u[0].abs() + half[1] * u[1].abs() + half[2] * u[2].abs();
        // Moving the box by `hi + reach` along +u, or by `reach − lo` along −u, separates.
        for (depth, normal) in [(hi + reach, u), (reach - lo, u.map(|x| -x))] {
            let better = match best {
                Some((_, d)) => depth < d,
                None => true,
            };
            if better {
                best = Some((normal, depth));
            }
        }
    };
    for a in axes_of_box {
        consider(a);
    }
    consider(face);
    for e in edges {
        for a in axes_of_box {
            consider(cross(e, a));
        }
        consider(cross(e, face));
    }
    let (normal, depth) = best?;
    Some((point, normal, depth))
}

/// The signed distance of `x` (in the box's frame) from the box `|x'ₖ| ≤ hₖ`: the Euclidean
/// distance outside, minus the distance to the nearest face inside.
pub(crate) fn box_signed_distance<S: Scalar>(x: V<S>, half: V<S>) -> S {
    let d = [
        x[0].abs() - half[0],
        x[1].abs() - half[1],
        x[2].abs() - half[2],
    ];
    let outside = d.map(|v| v.max(S::ZERO));
    let inside = d[0].max(d[1]).max(d[2]).min(S::ZERO);
    dot(outside, outside).sqrt() + inside
}
