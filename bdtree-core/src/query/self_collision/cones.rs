//! Lau et al.'s normal test, made conservative: per-node bitfields of the sampled directions
//! that every true normal below the node faces.

use crate::body::Body;
use crate::image::tree::NONE;
use crate::scalar::Scalar;

/// The 14 sampled directions of Lau et al.'s normal test (bit `d` of a cone is direction `d`): the 6 axis directions and the 8 cube
/// diagonals (unnormalised: only signs of dot products matter).
pub const DIRECTIONS: [[i8; 3]; 14] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
    [1, 1, 1],
    [1, 1, -1],
    [1, -1, 1],
    [1, -1, -1],
    [-1, 1, 1],
    [-1, 1, -1],
    [-1, -1, 1],
    [-1, -1, -1],
];

/// Lau et al.'s normal bitfields for this step: per node, bit `d` set when sampled direction
/// `d` ([`DIRECTIONS`]) has a positive dot product with the true deformed normal of every
/// triangle below the node. Conservative: a bit is set only when the computed dot product
/// exceeds the most the rounding of the vertices (each within [`Body::error`] per coordinate)
/// and of the normal's own arithmetic can move it, so a nearly edge-on triangle clears it.
/// Deforms every triangle (`O(n)` per step; reads with a vertex cache). `cones` needs one entry
/// per node; `None` for a short slice or a bad index.
///
/// A bit alone proves nothing about self-collision (a patch whose normals fit in a cone can
/// fold over its own boundary): [`super::collide_self_with`] culls a node only when its
/// contour ([`super::SelfContours`]) projected along a set direction does not cross itself.
pub fn normal_cones<S: Scalar>(body: &mut Body<'_, '_, S>, cones: &mut [u16]) -> Option<()> {
    let n = body.tree().node_count();
    let cones = cones.get_mut(..n)?;
    let delta = body.error();
    let (two, u) = (S::from_u32(2), S::UNIT_ROUNDOFF);
    for k in (0..n).rev() {
        let [left, right, triangle, _] = body.tree().links(k)?;
        let mask = if triangle != NONE {
            let [a, b, c] = body.world_triangle(triangle as usize)?;
            let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let normal = [
                e1[1] * e2[2] - e1[2] * e2[1],
                e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0],
            ];
            // Per coordinate, the edges are within `2δ` (both vertices) plus their rounding of
            // the true edges; the normal's coordinates within `2(m1 Δ2 + m2 Δ1 + Δ1 Δ2)` plus
            // its rounding `4u m1 m2`; a dot product with a direction of three ±1 entries
            // within three times that plus its own rounding `12u m1 m2`.
            let largest = |e: [S; 3]| e[0].abs().max(e[1].abs()).max(e[2].abs());
            let (m1, m2) = (largest(e1), largest(e2));
            let (d1, d2) = (two * delta + two * u * m1, two * delta + two * u * m2);
            let spread = m1 * d2 + m2 * d1 + d1 * d2;
            let threshold = (S::from_u32(6) * spread + S::from_u32(24) * u * m1 * m2)
                * (S::ONE + S::from_u32(16) * u);
            // The 14 dot products as sums of the normal's coordinates (each direction's terms
            // in the same order as `DIRECTIONS`, the negated directions by exact negation).
            let [x, y, z] = normal;
            let (p, m) = (x + y, x - y);
            let diagonals = [p + z, p - z, m + z, m - z];
            let bit = |positive: bool, d: u32| u16::from(positive) << d;
            let mut mask = bit(x > threshold, 0)
                | bit(x < -threshold, 1)
                | bit(y > threshold, 2)
                | bit(y < -threshold, 3)
                | bit(z > threshold, 4)
                | bit(z < -threshold, 5);
            for (k, dot) in (0u32..).zip(diagonals) {
                mask |= bit(dot > threshold, 6 + k) | bit(dot < -threshold, 13 - k);
            }
            mask
        } else {
            cones.get(left as usize)? & cones.get(right as usize)?
        };
        *cones.get_mut(k)? = mask;
    }
    Some(())
}
