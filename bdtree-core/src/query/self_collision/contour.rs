//! The contour test the normal cones need (Volino and Magnenat-Thalmann): a patch whose every
//! normal faces a direction `d`, and whose boundary projected along `d` is a simple closed
//! curve, cannot intersect itself.
//!
//! Why: projected along `d`, each triangle keeps its orientation (`d · n > 0`), so the
//! projection is an orientation-preserving immersion of the patch into the plane. For a point
//! `y` off the projected boundary, the number of patch points over `y` is then the winding
//! number of the projected boundary around `y` (the degree of the projection); a simple closed
//! curve winds 0 or 1 times, so no two points of the patch share a projection, and no two
//! points of the patch coincide in space. It needs a patch that is an oriented surface with one
//! boundary loop and no pinched vertex — what the host checks when it writes a node's contour
//! (`bdtree_std::build::self_contours`); a closed component cannot pass the cone test (its
//! normals face every way).
//!
//! Both halves are decided on the computed vertices with margins that cover their error
//! ([`crate::Body::error`] per coordinate and the arithmetic's rounding), so a patch is culled
//! only when the true, exactly deformed patch satisfies the theorem.

use super::cones::DIRECTIONS;
use crate::body::Body;
use crate::scalar::Scalar;

/// The longest contour the kernel tests (vertices of one loop): the test is `O(B²)` segment
/// pairs on a stack array of `MAX_CONTOUR` projected points (1 KiB in f32, 2 KiB in f64). Nodes
/// with longer contours are never culled. 128 lets a square sheet of up to ~1,000 quads be culled
/// whole at its root.
pub const MAX_CONTOUR: usize = 128;

/// Per node, the boundary loop of its patch of triangles as vertex indices (the host's
/// `bdtree_std::build::self_contours` writes them once per tree): node `k`'s loop is
/// `vertices[starts[k]..starts[k + 1]]`, each consecutive pair (and the last with the first)
/// one boundary edge. An empty loop marks a node that cannot be culled (its patch is not one
/// oriented surface with one boundary loop, or the loop is longer than [`MAX_CONTOUR`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct SelfContours<'a> {
    /// `nodes + 1` offsets into `vertices`, non-decreasing (empty: no contours).
    pub starts: &'a [u32],
    /// The loops' vertex indices, node after node.
    pub vertices: &'a [u32],
}

impl<'a> SelfContours<'a> {
    /// No contours: no node is culled.
    pub const NONE: SelfContours<'static> = SelfContours {
        starts: &[],
        vertices: &[],
    };

    /// Node `node`'s loop, `None` when there is none to test.
    fn loop_of(&self, node: usize) -> Option<&'a [u32]> {
        let (start, end) = (
            *self.starts.get(node)?,
            *self.starts.get(node.checked_add(1)?)?,
        );
        let contour = self.vertices.get(start as usize..end as usize)?;
        (contour.len() >= 3 && contour.len() <= MAX_CONTOUR).then_some(contour)
    }
}

/// Whether node `node`'s patch is proven free of self-intersection in the body's current
/// state: some direction of `cone` (the node's normal bitfield from
/// [`super::normal_cones`]) along which its contour projects to a simple closed curve. Tries
/// at most two directions; `O(B²)` for a contour of `B` vertices.
pub(super) fn certified<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    contours: &SelfContours<'_>,
    node: usize,
    cone: u16,
) -> bool {
    if cone == 0 {
        return false;
    }
    let Some(contour) = contours.loop_of(node) else {
        return false;
    };
    let u = S::UNIT_ROUNDOFF;
    let two = S::from_u32(2);
    let mut bits = cone;
    for _ in 0..2 {
        if bits == 0 {
            break;
        }
        let d = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let Some(&direction) = DIRECTIONS.get(d) else {
            return false;
        };
        // The loop projected (vertices read from the vertex cache, or deformed), and the
        // largest coordinate it reads, for the rounding of the projection.
        let mut plane = [[S::ZERO; 2]; MAX_CONTOUR];
        let mut reach = S::ZERO;
        for (q, &v) in plane.iter_mut().zip(contour) {
            let Some(p) = body.world_vertex(v as usize) else {
                return false;
            };
            reach = reach.max(p[0].abs()).max(p[1].abs()).max(p[2].abs());
            *q = project(p, direction);
        }
        // Each projected coordinate is a sum or difference of two world coordinates: within
        // `2δ` of the true one, plus one rounding of the result.
        let eta = (two * body.error() + two * u * (reach + reach)) * (S::ONE + S::from_u32(8) * u);
        if simple(plane.get(..contour.len()).unwrap_or(&[]), eta) {
            return true;
        }
    }
    false
}

/// `p` projected along `d` onto a plane: two coordinates, each a linear form that vanishes on
/// `d` (for a diagonal `(s₁, s₂, s₃)`: `s₁x − s₃z` and `s₂y − s₃z`), so points on one line
/// along `d` project to one point. Any such pair of forms serves the theorem.
fn project<S: Scalar>(p: [S; 3], d: [i8; 3]) -> [S; 2] {
    let signed = |x: S, s: i8| if s < 0 { S::ZERO - x } else { x };
    match d {
        [_, 0, 0] => [p[1], p[2]],
        [0, _, 0] => [p[0], p[2]],
        [0, 0, _] => [p[0], p[1]],
        [s1, s2, s3] => [
            signed(p[0], s1) - signed(p[2], s3),
            signed(p[1], s2) - signed(p[2], s3),
        ],
    }
}

/// Whether the closed polygon `points` (each within `eta` per coordinate of its true position)
/// is certainly simple: every two non-adjacent edges apart, and no two adjacent edges folding
/// back over each other.
fn simple<S: Scalar>(points: &[[S; 2]], eta: S) -> bool {
    let b = points.len();
    if b < 3 {
        return false;
    }
    let at = |k: usize| points.get(k % b).copied().unwrap_or([S::ZERO; 2]);
    for i in 0..b {
        // The corner at vertex i + 1: not a fold back along the edge it ends.
        let (p, q, r) = (at(i), at(i + 1), at(i + 2));
        let (e, f) = (sub(q, p), sub(r, q));
        let bound = perturbation(e, f, eta);
        let turn = cross(e, f);
        let ahead = e[0] * f[0] + e[1] * f[1];
        if !(turn > bound || S::ZERO - turn > bound || ahead > bound) {
            return false;
        }
        // Edge i against every later edge that shares no vertex with it.
        let last = if i == 0 { b - 1 } else { b };
        for j in i + 2..last {
            if !apart([p, q], [at(j), at(j + 1)], eta) {
                return false;
            }
        }
    }
    true
}

fn sub<S: Scalar>(a: [S; 2], b: [S; 2]) -> [S; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn cross<S: Scalar>(e: [S; 2], f: [S; 2]) -> S {
    e[0] * f[1] - e[1] * f[0]
}

/// How far `cross(e, f)` or `e · f` can be from its true value when the three points behind
/// `e` and `f` are each within `eta` per coordinate of their true positions:
/// `2η (|e|₁ + |f|₁) + 8η²`, plus the rounding of the differences and products
/// (`8u |e|₁ |f|₁`), grown for this bound's own rounding.
fn perturbation<S: Scalar>(e: [S; 2], f: [S; 2], eta: S) -> S {
    let u = S::UNIT_ROUNDOFF;
    let (ne, nf) = (e[0].abs() + e[1].abs(), f[0].abs() + f[1].abs());
    let two = S::from_u32(2);
    (two * eta * (ne + nf) + S::from_u32(8) * eta * eta + S::from_u32(8) * u * ne * nf)
        * (S::ONE + S::from_u32(16) * u)
}

/// Whether two segments are certainly apart: their boxes more than `2η` apart on an axis, or
/// one segment's two ends strictly on one side of the other's line.
fn apart<S: Scalar>(p: [[S; 2]; 2], q: [[S; 2]; 2], eta: S) -> bool {
    let margin = (eta + eta) * (S::ONE + S::from_u32(8) * S::UNIT_ROUNDOFF);
    for k in 0..2 {
        let (plo, phi) = (p[0][k].min(p[1][k]), p[0][k].max(p[1][k]));
        let (qlo, qhi) = (q[0][k].min(q[1][k]), q[0][k].max(q[1][k]));
        if qlo - phi > margin || plo - qhi > margin {
            return true;
        }
    }
    one_side(p, q, eta) || one_side(q, p, eta)
}

/// Whether both ends of `q` lie strictly on one side of the line through `p`.
fn one_side<S: Scalar>(p: [[S; 2]; 2], q: [[S; 2]; 2], eta: S) -> bool {
    let e = sub(p[1], p[0]);
    let side = |x: [S; 2]| {
        let f = sub(x, p[0]);
        (cross(e, f), perturbation(e, f, eta))
    };
    let ((s0, b0), (s1, b1)) = (side(q[0]), side(q[1]));
    (s0 > b0 && s1 > b1) || (S::ZERO - s0 > b0 && S::ZERO - s1 > b1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_is_simple_and_a_bow_tie_is_not() {
        let square = [[0.0f64, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        assert!(simple(&square, 1e-9));
        let bow_tie = [[0.0f64, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]];
        assert!(!simple(&bow_tie, 1e-9));
        // A loop folding back along an edge (a spike) and one touching itself are not simple.
        let spike = [
            [0.0f64, 0.0],
            [2.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
        ];
        assert!(!simple(&spike, 1e-9));
        let pinch = [
            [0.0f64, 0.0],
            [1.0, 0.0],
            [0.5, 0.5],
            [1.0, 1.0],
            [0.0, 1.0],
            [0.5, 0.5 + 1e-12],
        ];
        assert!(!simple(&pinch, 1e-9));
        // A straight run of collinear vertices is simple; the margin decides near-touching.
        let long = [
            [0.0f64, 0.0],
            [1.0, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [0.0, 1.0],
        ];
        assert!(simple(&long, 1e-9));
        let close = [
            [0.0f64, 0.0],
            [1.0, 0.0],
            [0.5, 1e-3],
            [1.0, 1.0],
            [0.0, 1.0],
        ];
        assert!(simple(&close, 1e-9));
        assert!(!simple(&close, 1e-3));
    }

    #[test]
    fn a_diagonal_projection_flattens_its_direction() {
        for d in DIRECTIONS {
            let p = [0.25f64, -0.5, 2.0];
            let moved = [0, 1, 2].map(|k| p[k] + 3.0 * f64::from(d[k]));
            assert_eq!(project(p, d), project(moved, d), "{d:?}");
        }
    }
}
