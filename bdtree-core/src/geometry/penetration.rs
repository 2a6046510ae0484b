//! The **least penetration** of two triangles — the normal and depth of a contact
//! ([`super::triangle_pair::triangle_contact`]) — with the features that give it, and the
//! depth's derivative with respect to the six vertices.
//!
//! # The depth as a function of the vertices
//!
//! The depth is the least overlap of the two triangles' projections over 17 candidate axes
//! `A` (both normals, the nine edge × edge crosses, the six in-plane edge normals), each a
//! product of the triangles' edges. On the winning axis it is
//!
//! ```text
//! depth = n · (a_k − b_l),      n = s A / |A|   (s = ±1: the normal from a to b)
//! ```
//!
//! with `a_k` a's vertex at its extreme along the axis (the top when `s = +1`, the bottom
//! otherwise) and `b_l` b's opposite extreme. The **features** ([`PenetrationFeatures`]) are
//! the axis, `s`, and each triangle's extreme vertices — a whole face for a triangle's own
//! normal, an edge's two vertices when the axis is perpendicular to that edge by construction
//! (these project equally for every state, so they are one feature), one vertex otherwise.
//!
//! While the features stay the same, `depth` is a smooth function of the vertices, and
//! [`penetration_gradient`] is its derivative with the normal **moving with the features that
//! define it** (`A` is differentiated too):
//!
//! ```text
//! ∂depth = n · (∂a_k − ∂b_l) + m · ∂A,      m = (s / |A|) (w − n (n · w)),  w = a_k − b_l
//! ```
//!
//! and `∂A` follows the axis' cross products down to the vertices. The six gradients sum to
//! zero (a common translation does not change the depth).
//!
//! **Where the derivative does not exist**: at a state where the features switch — two axes
//! give the same least overlap, a vertex not in the extreme feature projects as far as it, or
//! the two orientations overlap equally. There the depth has a kink, and the gradient is the
//! one-sided derivative of the features reported (which of the tied ones is reported is
//! decided by rounding). A caller who needs to know compares the features of nearby states.

// `!(x > 0)` is meant: NaN takes the degenerate branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::scalar::{add, cross, dot, scale, sub, Scalar};

type V<S> = [S; 3];

/// The derivative of a depth with respect to a triangle's three vertices.
pub type VertexGradient<S> = [[S; 3]; 3];

/// The candidate axis a least penetration is measured along. Edge `i` of a triangle runs from
/// its vertex `i` to vertex `i + 1` (mod 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PenetrationAxis {
    /// The first triangle's normal `(a₁ − a₀) × (a₂ − a₁)`.
    FaceA,
    /// The second triangle's normal `(b₁ − b₀) × (b₂ − b₁)`.
    FaceB,
    /// Edge `.0` of the first triangle × edge `.1` of the second.
    EdgeEdge(u8, u8),
    /// The first triangle's normal × its edge `.0` (in its plane, across that edge).
    InPlaneA(u8),
    /// The second triangle's normal × its edge `.0`.
    InPlaneB(u8),
}

/// The features that give two triangles' least penetration (module docs): two states with
/// the same features have depths on one smooth function of the vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PenetrationFeatures {
    /// The winning axis `A`.
    pub axis: PenetrationAxis,
    /// Whether the normal is `−A / |A|` (b is pushed out towards `−A`).
    pub reversed: bool,
    /// The first triangle's vertices at its extreme along the axis, bit `k` for vertex `k`:
    /// all three for its own normal, an edge's two when the axis is perpendicular to that
    /// edge by construction, one otherwise.
    pub vertices_a: u8,
    /// The second triangle's, likewise.
    pub vertices_b: u8,
}

/// Two triangles' least penetration: the unit normal from the first to the second, the
/// depth (moving the second by `depth · normal` separates them) and its features.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Penetration<S> {
    /// Unit normal of least overlap, from the first triangle to the second.
    pub normal: V<S>,
    /// The overlap along it (negative when the triangles are apart along it).
    pub depth: S,
    /// What gives it.
    pub features: PenetrationFeatures,
}

/// The edges of a triangle, edge `i` from vertex `i` to `i + 1`.
fn edges<S: Scalar>(t: &[V<S>; 3]) -> [V<S>; 3] {
    [sub(t[1], t[0]), sub(t[2], t[1]), sub(t[0], t[2])]
}

/// The unnormalised axis of `axis` for triangles `a`, `b` (their normals given).
fn axis_vector<S: Scalar>(axis: PenetrationAxis, a: &[V<S>; 3], b: &[V<S>; 3]) -> V<S> {
    let (ea, eb) = (edges(a), edges(b));
    let (na, nb) = (cross(ea[0], ea[1]), cross(eb[0], eb[1]));
    match axis {
        PenetrationAxis::FaceA => na,
        PenetrationAxis::FaceB => nb,
        PenetrationAxis::EdgeEdge(i, j) => cross(ea[usize::from(i % 3)], eb[usize::from(j % 3)]),
        PenetrationAxis::InPlaneA(i) => cross(na, ea[usize::from(i % 3)]),
        PenetrationAxis::InPlaneB(j) => cross(nb, eb[usize::from(j % 3)]),
    }
}

/// The vertices of triangle `a` (`first`) or `b` that project equally on `axis` by
/// construction, as a bit set (0 when none do).
fn tied(axis: PenetrationAxis, first: bool) -> u8 {
    let edge = |i: u8| (1u8 << (i % 3)) | (1u8 << ((i + 1) % 3));
    match (axis, first) {
        (PenetrationAxis::FaceA, true) | (PenetrationAxis::FaceB, false) => 0b111,
        (PenetrationAxis::EdgeEdge(i, _), true) | (PenetrationAxis::InPlaneA(i), true) => edge(i),
        (PenetrationAxis::EdgeEdge(_, j), false) | (PenetrationAxis::InPlaneB(j), false) => edge(j),
        _ => 0,
    }
}

/// The extreme feature of a triangle whose projections are `p`: the top (`top`) or bottom
/// vertex, widened to its construction tie group `group`.
fn extreme<S: Scalar>(p: [S; 3], top: bool, group: u8) -> u8 {
    // The first vertex of the extreme value, without a variable index (no bounds check).
    let beats = |x: S, y: S| (top && x > y) || (!top && x < y);
    let (mut k, mut best) = (0u8, p[0]);
    if beats(p[1], best) {
        (k, best) = (1, p[1]);
    }
    if beats(p[2], best) {
        k = 2;
    }
    if group & (1 << k) != 0 {
        group
    } else {
        1 << k
    }
}

/// The unit axis of least overlap of the two triangles' projections over the 17 candidate
/// axes, oriented from `a` to `b`, with that overlap and its features; `None` when every axis
/// is degenerate (edges within about `4√u` radians of parallel give no axis).
pub fn least_penetration<S: Scalar>(a: &[V<S>; 3], b: &[V<S>; 3]) -> Option<Penetration<S>> {
    let ea = edges(a);
    let eb = edges(b);
    let na = cross(ea[0], ea[1]);
    let nb = cross(eb[0], eb[1]);
    // Axis validity: |x × y|² > 16u |x|² |y|² (the generating vectors are not within about
    // 4√u radians of parallel).
    let slack = S::from_u32(16) * S::UNIT_ROUNDOFF;
    let mut best: Option<Penetration<S>> = None;
    let mut consider = |kind: PenetrationAxis, axis: V<S>, x: V<S>, y: V<S>| {
        let len2 = dot(axis, axis);
        if len2 <= slack * dot(x, x) * dot(y, y) || !len2.is_finite() {
            return;
        }
        let pa = [dot(axis, a[0]), dot(axis, a[1]), dot(axis, a[2])];
        let pb = [dot(axis, b[0]), dot(axis, b[1]), dot(axis, b[2])];
        let (min_a, max_a) = (pa[0].min(pa[1]).min(pa[2]), pa[0].max(pa[1]).max(pa[2]));
        let (min_b, max_b) = (pb[0].min(pb[1]).min(pb[2]), pb[0].max(pb[1]).max(pb[2]));
        let len = len2.sqrt();
        // Pushing b along +axis separates after max_a − min_b, along −axis after max_b − min_a.
        let (up, down) = (max_a - min_b, max_b - min_a);
        let reversed = !(up <= down);
        let (overlap, sign) = if reversed {
            (down, -S::ONE)
        } else {
            (up, S::ONE)
        };
        let depth = overlap / len;
        if best.is_none_or(|p| depth < p.depth) {
            best = Some(Penetration {
                normal: scale(axis, sign / len),
                depth,
                features: PenetrationFeatures {
                    axis: kind,
                    reversed,
                    vertices_a: extreme(pa, !reversed, tied(kind, true)),
                    vertices_b: extreme(pb, reversed, tied(kind, false)),
                },
            });
        }
    };
    consider(PenetrationAxis::FaceA, na, ea[0], ea[1]);
    consider(PenetrationAxis::FaceB, nb, eb[0], eb[1]);
    for (i, e) in (0u8..).zip(ea) {
        for (j, f) in (0u8..).zip(eb) {
            consider(PenetrationAxis::EdgeEdge(i, j), cross(e, f), e, f);
        }
    }
    for (i, e) in (0u8..).zip(ea) {
        consider(PenetrationAxis::InPlaneA(i), cross(na, e), na, e);
    }
    for (j, f) in (0u8..).zip(eb) {
        consider(PenetrationAxis::InPlaneB(j), cross(nb, f), nb, f);
    }
    best
}

/// The lowest vertex of a feature's bit set (vertex 0 for an empty set).
fn first_vertex(set: u8) -> usize {
    // A match on constants, so the optimiser knows the index is below 3 (no bounds check, no
    // panic path: the firmware's panic check links this).
    if set & 1 != 0 {
        0
    } else if set & 2 != 0 {
        1
    } else if set & 4 != 0 {
        2
    } else {
        0
    }
}

/// Adds `∂(m · (x × y))` to the gradients of the vertices behind `x` and `y`: `y × m` for
/// `x`, `m × x` for `y`.
fn cross_gradient<S: Scalar>(m: V<S>, x: V<S>, y: V<S>) -> (V<S>, V<S>) {
    (cross(y, m), cross(m, x))
}

/// Adds the gradient `g` of an edge vector (edge `i`: vertex `i + 1` minus vertex `i`) to its
/// two vertices.
fn spread_edge<S: Scalar>(grad: &mut [V<S>; 3], i: usize, g: V<S>) {
    let (i, next) = (i % 3, (i + 1) % 3);
    grad[next] = add(grad[next], g);
    grad[i] = sub(grad[i], g);
}

/// Adds the gradient `g` of a triangle's normal `e₀ × e₁` to its three vertices.
fn spread_normal<S: Scalar>(grad: &mut [V<S>; 3], e: &[V<S>; 3], g: V<S>) {
    let (g0, g1) = cross_gradient(g, e[0], e[1]);
    spread_edge(grad, 0, g0);
    spread_edge(grad, 1, g1);
}

/// The derivative of the depth of [`least_penetration`] with the given `features` with respect
/// to each vertex of `a` and of `b` (module docs): `(ga, gb)`, `ga[k] = ∂depth/∂a_k`, with the
/// normal moving with its features. It is the depth's derivative where the features do not
/// switch; at a switch, the one-sided derivative of these features. `None` when their axis is
/// zero (or not finite) for these triangles. Cost: about 150 multiply-adds and a square root.
pub fn penetration_gradient<S: Scalar>(
    a: &[V<S>; 3],
    b: &[V<S>; 3],
    features: &PenetrationFeatures,
) -> Option<(VertexGradient<S>, VertexGradient<S>)> {
    let axis = axis_vector(features.axis, a, b);
    let len2 = dot(axis, axis);
    if !(len2 > S::ZERO) || !len2.is_finite() {
        return None;
    }
    let len = len2.sqrt();
    let s = if features.reversed { -S::ONE } else { S::ONE };
    let n = scale(axis, s / len);
    let (k, l) = (
        first_vertex(features.vertices_a),
        first_vertex(features.vertices_b),
    );
    let w = sub(a[k], b[l]);
    // m = (s / |A|) (w − n (n · w)): the depth's gradient with respect to A.
    let m = scale(sub(w, scale(n, dot(n, w))), s / len);
    let zero = [S::ZERO; 3];
    let (mut ga, mut gb) = ([zero; 3], [zero; 3]);
    ga[k] = n;
    gb[l] = scale(n, -S::ONE);
    let (ea, eb) = (edges(a), edges(b));
    match features.axis {
        PenetrationAxis::FaceA => spread_normal(&mut ga, &ea, m),
        PenetrationAxis::FaceB => spread_normal(&mut gb, &eb, m),
        PenetrationAxis::EdgeEdge(i, j) => {
            let (i, j) = (usize::from(i % 3), usize::from(j % 3));
            let (gi, gj) = cross_gradient(m, ea[i], eb[j]);
            spread_edge(&mut ga, i, gi);
            spread_edge(&mut gb, j, gj);
        }
        PenetrationAxis::InPlaneA(i) => {
            let i = usize::from(i % 3);
            let (gn, ge) = cross_gradient(m, cross(ea[0], ea[1]), ea[i]);
            spread_edge(&mut ga, i, ge);
            spread_normal(&mut ga, &ea, gn);
        }
        PenetrationAxis::InPlaneB(j) => {
            let j = usize::from(j % 3);
            let (gn, ge) = cross_gradient(m, cross(eb[0], eb[1]), eb[j]);
            spread_edge(&mut gb, j, ge);
            spread_normal(&mut gb, &eb, gn);
        }
    }
    Some((ga, gb))
}

#[cfg(test)]
mod tests {
    use super::*;

    type Triangle = [V<f64>; 3];

    /// Central differences of the depth of fixed features, step `H`, against the gradient.
    const H: f64 = 1e-6;
    const TOLERANCE: f64 = 1e-6;

    /// The depth of `features` for triangles `a`, `b` (the formula the gradient differentiates).
    fn depth_of(a: &[V<f64>; 3], b: &[V<f64>; 3], f: &PenetrationFeatures) -> f64 {
        let axis = axis_vector(f.axis, a, b);
        let s = if f.reversed { -1.0 } else { 1.0 };
        let n = scale(axis, s / dot(axis, axis).sqrt());
        dot(
            n,
            sub(a[first_vertex(f.vertices_a)], b[first_vertex(f.vertices_b)]),
        )
    }

    /// Every axis kind, on pairs that interpenetrate in different ways.
    fn pairs() -> [(Triangle, Triangle); 3] {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        [
            // A thin triangle piercing t (edge–edge wins).
            (t, [[0.2, 0.2, -0.3], [0.2, 0.2, 0.7], [0.25, 0.3, 0.7]]),
            // A vertex of b just below a's face (a face wins).
            (t, [[0.3, 0.3, -0.05], [0.5, 0.4, 0.9], [0.1, 0.6, 0.8]]),
            // Tilted, overlapping near an edge.
            (
                [[0.1, -0.2, 0.05], [1.3, 0.1, -0.1], [0.2, 1.1, 0.2]],
                [[0.9, 0.3, -0.4], [1.5, 0.6, 0.5], [0.7, 0.9, 0.3]],
            ),
        ]
    }

    #[test]
    fn the_gradient_is_the_derivative_of_the_depth_of_its_features() {
        for (a, b) in pairs() {
            let p = least_penetration(&a, &b).expect("axis");
            assert!((depth_of(&a, &b, &p.features) - p.depth).abs() < 1e-12);
            let (ga, gb) = penetration_gradient(&a, &b, &p.features).expect("gradient");
            for (side, g) in [(0, ga), (1, gb)] {
                for v in 0..3 {
                    for k in 0..3 {
                        let moved = |h: f64| {
                            let (mut x, mut y) = (a, b);
                            if side == 0 {
                                x[v][k] += h;
                            } else {
                                y[v][k] += h;
                            }
                            depth_of(&x, &y, &p.features)
                        };
                        let fd = (moved(H) - moved(-H)) / (2.0 * H);
                        assert!(
                            (fd - g[v][k]).abs() < TOLERANCE,
                            "{:?}: side {side} vertex {v} axis {k}: {fd} vs {}",
                            p.features,
                            g[v][k]
                        );
                    }
                }
            }
            // A common translation does not change the depth.
            let sum = (0..3).fold([0.0; 3], |s, v| add(add(s, ga[v]), gb[v]));
            assert!(sum.iter().all(|x| x.abs() < 1e-12), "{sum:?}");
        }
    }

    #[test]
    fn construction_ties_are_one_feature() {
        // a's own face: all three of its vertices are its extreme.
        let (a, b) = pairs()[1];
        let p = least_penetration(&a, &b).expect("axis");
        assert_eq!(p.features.axis, PenetrationAxis::FaceA);
        assert_eq!(p.features.vertices_a, 0b111);
        assert_eq!(p.features.vertices_b, 0b001);
        let (a, b) = pairs()[0];
        let p = least_penetration(&a, &b).expect("axis");
        assert!(matches!(p.features.axis, PenetrationAxis::EdgeEdge(..)));
        assert_eq!(p.features.vertices_a.count_ones(), 2, "{:?}", p.features);
        assert_eq!(p.features.vertices_b.count_ones(), 2, "{:?}", p.features);
    }
}
