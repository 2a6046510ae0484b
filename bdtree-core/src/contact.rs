//! Contact data a controller can act on: for each intersecting triangle pair a point on both
//! triangles, a unit normal and the pair's penetration depth ([`collide_contacts`]); and every
//! triangle pair closer than a distance, with its witness points ([`within`]).
//!
//! # One pair of triangles
//!
//! [`triangle_contact`] takes two world triangles whose vertices are known to within `error`
//! per coordinate (a body's [`crate::Body::error`], summed over the two bodies):
//!
//! * **point**: the mean of the points where an edge of one triangle crosses the other (each
//!   such crossing lies on the intersection segment, so their mean does too); when no crossing
//!   is found within rounding (coplanar overlap, a vertex resting on a face, zero-area
//!   triangles) the midpoint of the two closest points. Either way the point lies within
//!   [`contact_tolerance`] `T` of both computed triangles — never only on the one whose edge it
//!   came from.
//! * **normal** and **depth**: the pair's minimum translation: over the 17 candidate axes of
//!   two triangles (both normals, the nine edge × edge crosses, the six in-plane edge normals —
//!   every face normal of their Minkowski difference is among them, so the least overlap over
//!   these axes is the least over all directions), the unit axis `n` of least overlap `d` of
//!   the projections, oriented from the first triangle to the second: moving the second
//!   triangle by `d n` separates the pair. `d` is local to the two triangles (how far *they*
//!   interpenetrate), not a depth of the bodies. Pairs that only touch within rounding have
//!   `d` within rounding of 0, possibly slightly negative. Axes nearly parallel to a
//!   degenerate cross (edges within `4√u` radians of parallel) are skipped; when no axis is
//!   left (two zero-area triangles), the normal is the unit `x` axis and the depth 0.
//!
//! **Pairs that do not touch are not contacts.** The exact leaf test
//! ([`crate::triangle::triangles_may_intersect`]) widens every separating axis by the
//! rounding bound, and a near-degenerate pair (a zero-area triangle, parallel edges) can pass
//! it although the triangles are far apart. [`triangle_contact`] therefore measures the pair's
//! distance (the closest points over the 6 vertex–triangle, 9 edge–edge and 6 edge–crossing
//! feature pairs) and returns `None` when it exceeds `2T`: intersecting triangles always come
//! out within `2T` (their computed vertices are within `√3 · error` of the exact ones, and the
//! feature distances carry a few `u` of the coordinates), so a contact is never lost, and a
//! reported point is never far from either triangle.
//!
//! # Tolerance
//!
//! ```text
//! T = 4 · error + 64 · u · (w + error)       (w the largest |coordinate| of the six vertices)
//! ```
//!
//! A reported point is within `T` of each computed triangle, hence within `T + √3 · error` of
//! each exact one. In f32, for unit-size bodies near the origin and M = 10, `T ≈ 10⁻⁵`.
//!
//! # Queries
//!
//! * [`collide_contacts`]: [`crate::collide`]'s walk with a leaf step that reports a
//!   [`ContactPoint`] for every pair with a contact (every truly intersecting pair; see above).
//! * [`within`]: every triangle pair whose distance is at most `distance`, as a [`NearPair`]
//!   with both witness points — a policy with spheres grown by the distance (a pair can be
//!   within `distance` only if its spheres' gap is) and the closest-feature distance at
//!   leaves. Conservative: every pair whose exact distance is at most `distance` is reported;
//!   pairs up to `2T` farther may be too.

use crate::body::Body;
use crate::closest::{closest_points, crossing_mean};
use crate::output::{QueryOutcome, QueryStats, QueryStatus, Sink, TrianglePair};
use crate::scalar::{add, cross, dot, norm_inf, scale, sub, Scalar};
use crate::sphere::spheres_overlap;
use crate::triangle::triangles_may_intersect;
use crate::walk::{
    check_triangle_query, run_from_roots, stack_capacity, Bodies, Flow, Node, Policy,
};

type V<S> = [S; 3];
/// A world triangle.
type Tri<S> = [V<S>; 3];

/// The tolerance `T` of [`triangle_contact`] for two triangles whose vertices are known to
/// within `error` per coordinate (module docs): a reported point lies within `T` of both.
pub fn contact_tolerance<S: Scalar>(a: &[[S; 3]; 3], b: &[[S; 3]; 3], error: S) -> S {
    let mut w = S::ZERO;
    for v in a.iter().chain(b.iter()) {
        w = w.max(norm_inf(*v));
    }
    S::from_u32(4) * error + S::from_u32(64) * S::UNIT_ROUNDOFF * (w + error)
}

/// The contact of one pair of triangles (see [`triangle_contact`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TriangleContact<S> {
    /// A point of the intersection (within [`contact_tolerance`] of both triangles).
    pub point: [S; 3],
    /// Unit normal of least penetration, from the first triangle to the second.
    pub normal: [S; 3],
    /// Penetration depth along `normal` (moving the second triangle by `depth · normal`
    /// separates them); within rounding of 0 for touching triangles.
    pub depth: S,
}

/// The contact of two triangles whose vertices are known to within `error` per coordinate:
/// `None` when they do not touch (module docs). Cost: a separating-axis test, then the 21
/// feature pairs of the distance and 17 normalised axes (17 square roots).
pub fn triangle_contact<S: Scalar>(
    a: &[[S; 3]; 3],
    b: &[[S; 3]; 3],
    error: S,
) -> Option<TriangleContact<S>> {
    if !triangles_may_intersect(a, b, error) {
        return None;
    }
    let t = contact_tolerance(a, b, error);
    let (d2, pa, pb) = closest_points(a, b);
    let limit = t + t;
    if d2 > limit * limit || !d2.is_finite() {
        return None;
    }
    let point = crossing_mean(a, b, t).unwrap_or_else(|| scale(add(pa, pb), S::from_f64(0.5)));
    let (normal, depth) = least_penetration(a, b).unwrap_or_else(|| {
        let (o, i) = (S::ZERO, S::ONE);
        ([i, o, o], o)
    });
    Some(TriangleContact {
        point,
        normal,
        depth,
    })
}

/// The unit axis of least overlap of the two triangles' projections over the 17 candidate axes,
/// oriented from `a` to `b`, and that overlap; `None` when every axis is degenerate.
fn least_penetration<S: Scalar>(a: &[V<S>; 3], b: &[V<S>; 3]) -> Option<(V<S>, S)> {
    let ea = [sub(a[1], a[0]), sub(a[2], a[1]), sub(a[0], a[2])];
    let eb = [sub(b[1], b[0]), sub(b[2], b[1]), sub(b[0], b[2])];
    let na = cross(ea[0], ea[1]);
    let nb = cross(eb[0], eb[1]);
    // Axis validity: |x × y|² > 16u |x|² |y|² (the generating vectors are not within about
    // 4√u radians of parallel).
    let slack = S::from_u32(16) * S::UNIT_ROUNDOFF;
    let mut best: Option<(V<S>, S)> = None;
    let mut consider = |axis: V<S>, x: V<S>, y: V<S>| {
        let len2 = dot(axis, axis);
        if len2 <= slack * dot(x, x) * dot(y, y) || !len2.is_finite() {
            return;
        }
        let project = |t: &[V<S>; 3]| {
            let p = [dot(axis, t[0]), dot(axis, t[1]), dot(axis, t[2])];
            (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
        };
        let ((min_a, max_a), (min_b, max_b)) = (project(a), project(b));
        let len = len2.sqrt();
        // Pushing b along +axis separates after max_a − min_b, along −axis after max_b − min_a.
        let (up, down) = (max_a - min_b, max_b - min_a);
        let (overlap, sign) = if up <= down {
            (up, S::ONE)
        } else {
            (down, -S::ONE)
        };
        let depth = overlap / len;
        if best.is_none_or(|(_, d)| depth < d) {
            best = Some((scale(axis, sign / len), depth));
        }
    };
    consider(na, ea[0], ea[1]);
    consider(nb, eb[0], eb[1]);
    for e in ea {
        for f in eb {
            consider(cross(e, f), e, f);
        }
    }
    for e in ea {
        consider(cross(na, e), na, e);
    }
    for f in eb {
        consider(cross(nb, f), nb, f);
    }
    best
}

/// An intersecting triangle pair with its contact (see [`triangle_contact`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ContactPoint<S> {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// The contact: point (world), unit normal from the first body's triangle to the second's,
    /// penetration depth.
    pub contact: TriangleContact<S>,
}

/// A triangle pair closer than a query's distance, with its witness points.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct NearPair<S> {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// Their distance (0, up to rounding, when they intersect).
    pub distance: S,
    /// The witness on the first triangle (world).
    pub point_a: [S; 3],
    /// The witness on the second triangle.
    pub point_b: [S; 3],
}

/// The bound, size and test both policies share: world spheres, `b` grown by `reach`.
macro_rules! sphere_bounds {
    () => {
        type S = S;
        type Bound = [S; 4];
        type Key = ();

        #[inline(always)]
        fn node(&self, first: bool, node: u32) -> Option<Node> {
            self.bodies.leaf_node(first, node)
        }

        #[inline(always)]
        fn bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
            self.bodies.sphere(first, node)
        }

        #[inline(always)]
        fn size(bound: &[S; 4]) -> S {
            bound[3]
        }

        #[inline(always)]
        fn test(&self, a: &[S; 4], b: &[S; 4]) -> Option<()> {
            let [x, y, z, r] = *b;
            spheres_overlap(*a, [x, y, z, r + self.reach]).then_some(())
        }
    };
}

/// The contact query's policy: world spheres, the exact test, contact data at leaves.
struct Contacts<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar, X: ?Sized> {
    bodies: Bodies<'q, 'ta, 'ca, 'tb, 'cb, S>,
    sink: &'q mut X,
    error: S,
    /// Added to every sphere radius (0: the spheres of [`crate::collide`]).
    reach: S,
}

/// The two world triangles of a leaf pair.
fn leaf_triangles<S: Scalar>(
    bodies: &mut Bodies<'_, '_, '_, '_, '_, S>,
    a: &Node,
    b: &Node,
) -> Result<(Tri<S>, Tri<S>), QueryStatus> {
    match (
        bodies.a.world_triangle(a.triangle as usize),
        bodies.b.world_triangle(b.triangle as usize),
    ) {
        (Some(va), Some(vb)) => Ok((va, vb)),
        _ => Err(QueryStatus::Inconsistent),
    }
}

impl<S: Scalar, X: Sink<ContactPoint<S>> + ?Sized> Policy for Contacts<'_, '_, '_, '_, '_, S, X> {
    sphere_bounds!();

    fn leaf(
        &mut self,
        _: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let (va, vb) = leaf_triangles(&mut self.bodies, a, b)?;
        stats.triangle_tests += 1;
        if let Some(contact) = triangle_contact(&va, &vb, self.error) {
            let item = ContactPoint {
                a: a.triangle,
                b: b.triangle,
                contact,
            };
            if let Err(c) = self.sink.push(item) {
                let pair = TrianglePair { a: c.a, b: c.b };
                return Err(QueryStatus::OutputFull { pair });
            }
            stats.pairs += 1;
        }
        Ok(Flow::Continue)
    }
}

/// The `within` query's policy: spheres grown by the distance, the closest-feature distance at
/// leaves.
struct Near<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar, X: ?Sized> {
    bodies: Bodies<'q, 'ta, 'ca, 'tb, 'cb, S>,
    sink: &'q mut X,
    error: S,
    /// Added to every sphere radius: the distance and the leaf step's tolerance.
    reach: S,
    distance: S,
}

impl<S: Scalar, X: Sink<NearPair<S>> + ?Sized> Policy for Near<'_, '_, '_, '_, '_, S, X> {
    sphere_bounds!();

    fn leaf(
        &mut self,
        _: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let (va, vb) = leaf_triangles(&mut self.bodies, a, b)?;
        stats.triangle_tests += 1;
        let t = contact_tolerance(&va, &vb, self.error);
        let limit = self.distance + t + t;
        let (d2, point_a, point_b) = closest_points(&va, &vb);
        if d2 <= limit * limit {
            let item = NearPair {
                a: a.triangle,
                b: b.triangle,
                distance: d2.sqrt(),
                point_a,
                point_b,
            };
            if let Err(c) = self.sink.push(item) {
                let pair = TrianglePair { a: c.a, b: c.b };
                return Err(QueryStatus::OutputFull { pair });
            }
            stats.pairs += 1;
        }
        Ok(Flow::Continue)
    }
}

/// Every triangle pair of `a` and `b` that intersects, with its contact (point, normal,
/// depth; see the module docs) — delivered to `sink` in traversal order. The same walk,
/// spheres and exact test as [`crate::collide`]; a pair that test accepts is reported when
/// it has a contact (every truly intersecting pair does). `stack` needs [`stack_capacity`]
/// entries.
pub fn collide_contacts<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<ContactPoint<S>> + ?Sized),
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    let bounded = a.tree().is_bounded() || b.tree().is_bounded();
    let needed = stack_capacity(a.tree().depth(), b.tree().depth());
    if let Err(status) = check_triangle_query(bounded, needed, stack.len()) {
        return QueryOutcome { status, stats };
    }
    let error = a.error() + b.error();
    let mut policy = Contacts {
        bodies: Bodies { a, b },
        sink,
        error,
        reach: S::ZERO,
    };
    let before = policy.bodies.updates();
    let status = run_from_roots(&mut policy, stack, &mut stats);
    stats.sphere_updates = policy.bodies.updates().wrapping_sub(before);
    QueryOutcome { status, stats }
}

/// Every triangle pair of `a` and `b` whose distance is at most `distance` (intersecting pairs
/// included, at distance 0), with witness points — delivered to `sink` in traversal order.
/// Conservative (module docs): never misses a pair within `distance`; may report pairs up to
/// `2T` farther. A negative or NaN `distance` counts as 0. `stack` needs [`stack_capacity`]
/// entries. Cost: the walk of [`crate::collide`] with every sphere grown by `distance`, and
/// at each leaf pair reached the 21 feature pairs of the distance.
pub fn within<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    distance: S,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<NearPair<S>> + ?Sized),
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    let bounded = a.tree().is_bounded() || b.tree().is_bounded();
    let needed = stack_capacity(a.tree().depth(), b.tree().depth());
    if let Err(status) = check_triangle_query(bounded, needed, stack.len()) {
        return QueryOutcome { status, stats };
    }
    let distance = if distance >= S::ZERO {
        distance
    } else {
        S::ZERO
    };
    let error = a.error() + b.error();
    // Spheres grow by the distance plus what the leaf step adds (2T, bounded by the bodies'
    // magnitudes: every coordinate of a vertex lies within its root sphere's extent).
    let (Some(ra), Some(rb)) = (a.sphere(0), b.sphere(0)) else {
        return QueryOutcome {
            status: QueryStatus::Inconsistent,
            stats,
        };
    };
    let w = (norm_inf([ra[0], ra[1], ra[2]]) + ra[3]).max(norm_inf([rb[0], rb[1], rb[2]]) + rb[3]);
    let reach_t = S::from_u32(4) * error + S::from_u32(64) * S::UNIT_ROUNDOFF * (w + error);
    let reach = (distance + reach_t + reach_t) * (S::ONE + S::from_u32(4) * S::UNIT_ROUNDOFF);
    let mut policy = Near {
        bodies: Bodies { a, b },
        sink,
        error,
        reach,
        distance,
    };
    let before = policy.bodies.updates();
    let status = run_from_roots(&mut policy, stack, &mut stats);
    stats.sphere_updates = policy.bodies.updates().wrapping_sub(before);
    QueryOutcome { status, stats }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    #[test]
    fn a_piercing_pair_has_its_crossing_as_point_and_the_short_way_out_as_depth() {
        // A thin triangle pierces T along the segment (0.2, 0.2, 0)–(0.215, 0.23, 0), 0.3
        // deep below and 0.7 above; the least overlap over directions sampled on a 400 × 800
        // grid of the sphere is 0.21618 (an edge–edge axis near −x), above 0.3 along z.
        let b = [[0.2, 0.2, -0.3], [0.2, 0.2, 0.7], [0.25, 0.3, 0.7]];
        let c = triangle_contact(&T, &b, 0.0).expect("contact");
        let mid = [0.2075, 0.215, 0.0];
        assert!(
            c.point.iter().zip(mid).all(|(x, y)| (x - y).abs() < 1e-12),
            "{:?}",
            c.point
        );
        assert!(c.depth > 0.2 && c.depth <= 0.21619, "depth {}", c.depth);
        assert!(c.normal[0] < -0.99, "normal {:?}", c.normal);
        let n2: f64 = c.normal.iter().map(|x| x * x).sum();
        assert!((n2 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_far_zero_area_pair_is_no_contact() {
        // A point triangle and a segment triangle the separating-axis test cannot separate.
        let point = [[0.0, 0.0, 1.0]; 3];
        let segment = [[5.0, 0.0, 0.0], [6.0, 0.0, 0.0], [5.5, 0.0, 0.0]];
        assert!(triangle_contact(&point, &segment, 0.0).is_none());
    }

    #[test]
    fn closest_points_of_disjoint_triangles() {
        let above = T.map(|v| [v[0] + 0.5, v[1] + 0.5, v[2] + 2.0]);
        let (d2, pa, pb) = closest_points(&T, &above);
        assert!((d2 - 4.0).abs() < 1e-12);
        assert!((pb[2] - pa[2] - 2.0).abs() < 1e-12);
    }
}
