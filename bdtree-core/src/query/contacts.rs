//! Contact data a controller can act on: for each intersecting triangle pair a point on both
//! triangles, a unit normal and the pair's penetration depth ([`collide_contacts`]); and every
//! triangle pair closer than a distance, with its witness points ([`within`]).
//!
//! The geometry of one pair of triangles — [`triangle_contact`], its tolerance
//! [`contact_tolerance`] — is [`crate::geometry::closest`]'s, with the other closest features.
//!
//! # Queries
//!
//! * [`collide_contacts`]: [`crate::collide()`]'s walk with a leaf step that reports a
//!   [`ContactPoint`] for every pair with a contact (every truly intersecting pair; see above).
//! * [`within`]: every triangle pair whose distance is at most `distance`, as a [`NearPair`]
//!   with both witness points — a policy with spheres grown by the distance (a pair can be
//!   within `distance` only if its spheres' gap is) and the closest-feature distance at
//!   leaves. Conservative: every pair whose exact distance is at most `distance` is reported;
//!   pairs up to `2T` farther may be too.

use crate::body::Body;
use crate::bounds::sphere::spheres_overlap;
use crate::geometry::closest::closest_points;
use crate::geometry::triangle_pair::{contact_tolerance, triangle_contact, TriangleContact};
use crate::scalar::{norm_inf, Scalar};
use crate::walk::output::{
    report, QueryOutcome, QueryStats, QueryStatus, Reported, Sink, TrianglePair,
};
use crate::walk::{run_query, sphere_walk, Bodies, Flow, Node, Policy};

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

impl<S: Copy> Reported for ContactPoint<S> {
    fn refused(&self) -> QueryStatus {
        TrianglePair::new(self.a, self.b).refused()
    }
}

impl<S: Copy> Reported for NearPair<S> {
    fn refused(&self) -> QueryStatus {
        TrianglePair::new(self.a, self.b).refused()
    }
}

/// The policy of both queries: world spheres (the second grown by `reach`), at leaves
/// `step`'s item, if any, delivered.
struct Contacts<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar, X: ?Sized, F> {
    bodies: Bodies<'q, 'ta, 'ca, 'tb, 'cb, S>,
    sink: &'q mut X,
    /// Added to every sphere radius (0: the spheres of [`crate::collide()`]).
    reach: S,
    /// The leaf step on two world triangles and their indices.
    step: F,
}

impl<S, X, F, T> Policy for Contacts<'_, '_, '_, '_, '_, S, X, F>
where
    S: Scalar,
    X: Sink<T> + ?Sized,
    F: FnMut(&[[S; 3]; 3], &[[S; 3]; 3], [u32; 2]) -> Option<T>,
    T: Reported,
{
    sphere_walk!();
    type Key = ();

    #[inline(always)]
    fn test(&self, a: &[S; 4], b: &[S; 4]) -> Option<()> {
        let [x, y, z, r] = *b;
        spheres_overlap(*a, [x, y, z, r + self.reach]).then_some(())
    }

    fn leaf(
        &mut self,
        _: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let [va, vb] = self.bodies.triangles(a, b)?;
        stats.triangle_tests += 1;
        if let Some(item) = (self.step)(&va, &vb, [a.triangle, b.triangle]) {
            report(self.sink, item, stats)?;
        }
        Ok(Flow::Continue)
    }
}

/// Every triangle pair of `a` and `b` that intersects, with its contact (point, normal,
/// depth; see [`triangle_contact`]) — delivered to `sink` in traversal order. The same walk,
/// spheres and exact test as [`crate::collide()`]; a pair that test accepts is reported when
/// it has a contact (every truly intersecting pair does). `stack` needs [`crate::stack_capacity`]
/// entries.
pub fn collide_contacts<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<ContactPoint<S>> + ?Sized),
) -> QueryOutcome {
    let bodies = Bodies::new(a, b);
    let check = bodies.check(stack.len());
    let error = bodies.error();
    let step = |va: &[[S; 3]; 3], vb: &[[S; 3]; 3], [a, b]: [u32; 2]| {
        let contact = triangle_contact(va, vb, error)?;
        Some(ContactPoint { a, b, contact })
    };
    let reach = S::ZERO;
    run_query(
        &mut Contacts {
            bodies,
            sink,
            reach,
            step,
        },
        stack,
        check,
    )
}

/// Every triangle pair of `a` and `b` whose distance is at most `distance` (intersecting pairs
/// included, at distance 0), with witness points — delivered to `sink` in traversal order.
/// Conservative (module docs): never misses a pair within `distance`; may report pairs up to
/// `2T` farther. A negative or NaN `distance` counts as 0. `stack` needs [`crate::stack_capacity`]
/// entries. Cost: the walk of [`crate::collide()`] with every sphere grown by `distance`, and
/// at each leaf pair reached the 21 feature pairs of the distance.
pub fn within<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    distance: S,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<NearPair<S>> + ?Sized),
) -> QueryOutcome {
    let mut bodies = Bodies::new(a, b);
    let check = bodies.check(stack.len());
    let distance = if distance >= S::ZERO {
        distance
    } else {
        S::ZERO
    };
    let error = bodies.error();
    // Spheres grow by the distance plus what the leaf step adds (2T, bounded by the bodies'
    // magnitudes: every coordinate of a vertex lies within its root sphere's extent).
    let (Some(ra), Some(rb)) = (bodies.sphere(true, 0), bodies.sphere(false, 0)) else {
        let status = check.err().unwrap_or(QueryStatus::Inconsistent);
        let stats = QueryStats::default();
        return QueryOutcome { status, stats };
    };
    let w = (norm_inf([ra[0], ra[1], ra[2]]) + ra[3]).max(norm_inf([rb[0], rb[1], rb[2]]) + rb[3]);
    let reach_t = S::from_u32(4) * error + S::from_u32(64) * S::UNIT_ROUNDOFF * (w + error);
    let reach = (distance + reach_t + reach_t) * (S::ONE + S::from_u32(4) * S::UNIT_ROUNDOFF);
    let step = |va: &[[S; 3]; 3], vb: &[[S; 3]; 3], [a, b]: [u32; 2]| {
        let t = contact_tolerance(va, vb, error);
        let limit = distance + t + t;
        let (d2, point_a, point_b) = closest_points(va, vb);
        (d2 <= limit * limit).then(|| NearPair {
            a,
            b,
            distance: d2.sqrt(),
            point_a,
            point_b,
        })
    };
    run_query(
        &mut Contacts {
            bodies,
            sink,
            reach,
            step,
        },
        stack,
        check,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    #[test]
    fn closest_points_of_disjoint_triangles() {
        let above = T.map(|v| [v[0] + 0.5, v[1] + 0.5, v[2] + 2.0]);
        let (d2, pa, pb) = closest_points(&T, &above);
        assert!((d2 - 4.0).abs() < 1e-12);
        assert!((pb[2] - pa[2] - 2.0).abs() < 1e-12);
    }
}
