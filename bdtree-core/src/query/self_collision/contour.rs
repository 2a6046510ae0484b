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
use crate::image::self_tables::{SelfContours, MAX_CONTOUR};
use crate::scalar::Scalar;

/// Edges per run of the contour test (see [`MAX_CONTOUR`]).
const RUN: usize = 16;

/// Whether node `node`'s patch is proven free of self-intersection in the body's current
/// state: some direction of `cone` (the node's normal bitfield from
/// [`super::normal_cones`]) along which its contour projects to a simple closed curve. Tries
/// at most two directions; `O(B²)` for a contour of `B` vertices. Never inlined: its run boxes
/// (1 KiB of stack in f32) stay off the stack of a query that tests no contour.
#[inline(never)]
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
    // The largest coordinate the loop reads, for the rounding of the projection (vertices read
    // from the vertex cache, or deformed).
    let mut reach = S::ZERO;
    for &v in contour {
        let Some(p) = body.world_vertex(v as usize) else {
            return false;
        };
        reach = reach.max(p[0].abs()).max(p[1].abs()).max(p[2].abs());
    }
    // Each projected coordinate is a sum or difference of two world coordinates: within `2δ`
    // of the true one, plus one rounding of the result.
    let eta = (two * body.error() + two * u * (reach + reach)) * (S::ONE + S::from_u32(8) * u);
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
        let mut loop_ = Projected {
            body: &mut *body,
            contour,
            direction,
        };
        if simple(&mut loop_, eta) == Some(true) {
            return true;
        }
    }
    false
}

/// A closed polygon whose points are read one at a time (indices wrap).
trait Polygon<S: Scalar> {
    /// Number of points (and of edges).
    fn len(&self) -> usize;
    /// Point `k mod len`.
    fn at(&mut self, k: usize) -> Option<[S; 2]>;

    /// The points of run `r`: edges `r·RUN ..`, up to [`RUN`] of them (their end points, the
    /// last wrapping to point 0), and how many edges.
    fn run(&mut self, r: usize, points: &mut [[S; 2]; RUN + 1]) -> Option<usize> {
        let first = r.checked_mul(RUN)?;
        let edges = self.len().checked_sub(first)?.min(RUN);
        for (k, p) in points.iter_mut().enumerate().take(edges + 1) {
            *p = self.at(first + k)?;
        }
        Some(edges)
    }
}

/// A contour projected along a direction, its points computed on demand.
struct Projected<'q, 'b, 't, 'c, S: Scalar> {
    body: &'q mut Body<'t, 'c, S>,
    contour: &'b [u32],
    direction: [i8; 3],
}

impl<S: Scalar> Polygon<S> for Projected<'_, '_, '_, '_, S> {
    fn len(&self) -> usize {
        self.contour.len()
    }

    fn at(&mut self, k: usize) -> Option<[S; 2]> {
        // `k` is below twice the length where the test reads (no division).
        let len = self.contour.len();
        let v = *self.contour.get(if k >= len { k - len } else { k })?;
        Some(project(self.body.world_vertex(v as usize)?, self.direction))
    }
}

#[cfg(test)]
impl<S: Scalar> Polygon<S> for &[[S; 2]] {
    fn len(&self) -> usize {
        <[[S; 2]]>::len(self)
    }

    fn at(&mut self, k: usize) -> Option<[S; 2]> {
        self.get(k.checked_rem(<[[S; 2]]>::len(self))?).copied()
    }
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

/// Whether the closed polygon (each point within `eta` per coordinate of its true position)
/// is certainly simple: every two non-adjacent edges apart, and no two adjacent edges folding
/// back over each other. Edges are taken in runs of [`RUN`]; two runs whose boxes are more than
/// the margin apart hold only edge pairs [`apart`] would pass on its box test (an edge's box is
/// inside its run's, and rounded differences are monotone), so they are skipped whole. `None`
/// for a loop too long or an unreadable vertex.
fn simple<S: Scalar>(loop_: &mut impl Polygon<S>, eta: S) -> Option<bool> {
    let b = loop_.len();
    if b < 3 {
        return Some(false);
    }
    let runs = b.div_ceil(RUN);
    let mut boxes = [[S::ZERO; 4]; MAX_CONTOUR / RUN];
    let boxes = boxes.get_mut(..runs)?;
    let mut points = [[S::ZERO; 2]; RUN + 1];
    let mut others = [[S::ZERO; 2]; RUN + 1];
    // Each run's box, and the corner at every vertex: not a fold back along the edge it ends.
    for (r, bounds) in boxes.iter_mut().enumerate() {
        let edges = loop_.run(r, &mut points)?;
        let next = loop_.at(r * RUN + edges + 1)?;
        let first = *points.first()?;
        *bounds = [first[0], first[1], first[0], first[1]];
        for k in 0..edges {
            let (p, q) = (*points.get(k)?, *points.get(k + 1)?);
            *bounds = [
                bounds[0].min(q[0]),
                bounds[1].min(q[1]),
                bounds[2].max(q[0]),
                bounds[3].max(q[1]),
            ];
            let r_ = if k + 2 <= edges {
                *points.get(k + 2)?
            } else {
                next
            };
            let (e, f) = (sub(q, p), sub(r_, q));
            let bound = perturbation(e, f, eta);
            let turn = cross(e, f);
            let ahead = e[0] * f[0] + e[1] * f[1];
            if !(turn > bound || S::ZERO - turn > bound || ahead > bound) {
                return Some(false);
            }
        }
    }
    // Edge pairs that share no vertex, run against run: the last run first, whose points
    // the loop above left in `points`.
    let margin = (eta + eta) * (S::ONE + S::from_u32(8) * S::UNIT_ROUNDOFF);
    for r in (0..runs).rev() {
        let edges = if r + 1 == runs {
            b.checked_sub(r * RUN)?.min(RUN)
        } else {
            loop_.run(r, &mut points)?
        };
        let mine = *boxes.get(r)?;
        for s in r..runs {
            let theirs = *boxes.get(s)?;
            let far = theirs[0] - mine[2] > margin
                || mine[0] - theirs[2] > margin
                || theirs[1] - mine[3] > margin
                || mine[1] - theirs[3] > margin;
            if far {
                continue;
            }
            let others_len = if s == r {
                others = points;
                edges
            } else {
                loop_.run(s, &mut others)?
            };
            // Edge `b - 1` (the last of the last run) shares a vertex with edge 0.
            let last = (b - 1).checked_sub(s * RUN)?;
            for i in 0..edges {
                let ei = r * RUN + i;
                let e = [*points.get(i)?, *points.get(i + 1)?];
                // Only later edges, and not the two that share a vertex with edge `ei`.
                let from = (ei + 2).saturating_sub(s * RUN);
                let to = if ei == 0 {
                    others_len.min(last)
                } else {
                    others_len
                };
                if from >= to {
                    continue;
                }
                for pair in others.get(from..=to)?.windows(2) {
                    let [p, q] = *pair else {
                        return None;
                    };
                    if !apart(e, [p, q], eta) {
                        return Some(false);
                    }
                }
            }
        }
    }
    Some(true)
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
        assert_eq!(simple(&mut &square[..], 1e-9), Some(true));
        let bow_tie = [[0.0f64, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]];
        assert_eq!(simple(&mut &bow_tie[..], 1e-9), Some(false));
        // A loop folding back along an edge (a spike) and one touching itself are not simple.
        let spike = [
            [0.0f64, 0.0],
            [2.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
        ];
        assert_eq!(simple(&mut &spike[..], 1e-9), Some(false));
        let pinch = [
            [0.0f64, 0.0],
            [1.0, 0.0],
            [0.5, 0.5],
            [1.0, 1.0],
            [0.0, 1.0],
            [0.5, 0.5 + 1e-12],
        ];
        assert_eq!(simple(&mut &pinch[..], 1e-9), Some(false));
        // A straight run of collinear vertices is simple; the margin decides near-touching.
        let long = [
            [0.0f64, 0.0],
            [1.0, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [0.0, 1.0],
        ];
        assert_eq!(simple(&mut &long[..], 1e-9), Some(true));
        let close = [
            [0.0f64, 0.0],
            [1.0, 0.0],
            [0.5, 1e-3],
            [1.0, 1.0],
            [0.0, 1.0],
        ];
        assert_eq!(simple(&mut &close[..], 1e-9), Some(true));
        assert_eq!(simple(&mut &close[..], 1e-3), Some(false));
    }

    #[test]
    fn a_diagonal_projection_flattens_its_direction() {
        for d in DIRECTIONS {
            let p = [0.25f64, -0.5, 2.0];
            let moved = [0, 1, 2].map(|k| p[k] + 3.0 * f64::from(d[k]));
            assert_eq!(project(p, d), project(moved, d), "{d:?}");
        }
    }

    /// The test without runs: every corner, every non-adjacent edge pair.
    fn simple_every_pair(points: &[[f64; 2]], eta: f64) -> bool {
        let b = points.len();
        let at = |k: usize| points[k % b];
        for i in 0..b {
            let (p, q, r) = (at(i), at(i + 1), at(i + 2));
            let (e, f) = (sub(q, p), sub(r, q));
            let bound = perturbation(e, f, eta);
            let turn = cross(e, f);
            let ahead = e[0] * f[0] + e[1] * f[1];
            if !(turn > bound || -turn > bound || ahead > bound) {
                return false;
            }
            let last = if i == 0 { b - 1 } else { b };
            for j in i + 2..last {
                if !apart([p, q], [at(j), at(j + 1)], eta) {
                    return false;
                }
            }
        }
        true
    }

    #[test]
    fn runs_decide_as_every_pair_on_long_loops() {
        // Star-shaped loops (simple) of 3 to MAX_CONTOUR points, some with two points swapped
        // or one pulled across the loop (crossings), some thin (runs whose boxes meet across
        // the loop): the runs' answer is the all-pairs answer on every one.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut simple_seen, mut crossed_seen) = (0, 0);
        for case in 0..400 {
            let b = 3 + (random() * (MAX_CONTOUR - 3) as f64) as usize;
            let thin = if case % 3 == 0 { 0.02 } else { 1.0 };
            let mut all = [[0.0f64; 2]; MAX_CONTOUR];
            let points = &mut all[..b];
            for (k, p) in points.iter_mut().enumerate() {
                let angle = core::f64::consts::TAU * k as f64 / b as f64;
                let radius = 1.0 + 0.3 * random();
                *p = [
                    1e3 + radius * libm::cos(angle),
                    -5.0 + thin * radius * libm::sin(angle),
                ];
            }
            match case % 4 {
                1 => {
                    let (i, j) = (
                        (random() * b as f64) as usize,
                        (random() * b as f64) as usize,
                    );
                    points.swap(i, j);
                }
                2 => {
                    let i = (random() * b as f64) as usize;
                    points[i] = [2e3 - points[i][0], -10.0 - points[i][1]];
                }
                _ => {}
            }
            let eta = 1e-9 * 1e3;
            let every = simple_every_pair(points, eta);
            assert_eq!(
                simple(&mut &points[..], eta),
                Some(every),
                "case {case}, {b} points"
            );
            if every {
                simple_seen += 1;
            } else {
                crossed_seen += 1;
            }
        }
        assert!(
            simple_seen > 50 && crossed_seen > 50,
            "{simple_seen} simple, {crossed_seen} crossed"
        );
    }
}
