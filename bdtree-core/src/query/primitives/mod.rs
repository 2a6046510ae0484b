//! Rigid primitives against a BD-Tree body: half-spaces (a floor), spheres (a tool tip),
//! capsules (a robot link) and oriented boxes (a link, a table), exact against the deformed triangles and conservative against the
//! node spheres.
//!
//! [`collide_primitive_proxies`] is its bounded-depth form for contact response: it stops at
//! the contact proxies of depth `L` (as [`crate::collide_proxies`] does for body pairs) and
//! reports each proxy whose world sphere may touch the primitive, with the sphere's
//! penetration — every touching triangle lies under a reported proxy, at the cost of a tree
//! of depth `L`.
//!
//! [`collide_primitive`] is a policy over the one walk ([`crate::walk`]) with the body as the
//! first tree and the primitive as a second tree of one terminal node (index 0): the body's
//! world spheres are tested against the primitive, and at each leaf the deformed triangle is
//! tested against it. Every triangle that touches the primitive is reported as a
//! [`ContactPoint`] `(triangle, 0)` with
//!
//! * **point**: a point of the triangle inside the primitive (within [`primitive_tolerance`]):
//!   the deepest vertex below a plane, the triangle's point nearest the sphere's center or the
//!   capsule's axis; for a box, the mean of the triangle clipped to the box (grown by `T`);
//! * **normal**: unit, from the triangle to the primitive: the plane's inward normal, or from
//!   the triangle's nearest point towards the center (axis); when that point is on the center
//!   (axis) within rounding, the triangle's normal (the `x` axis for a zero-area triangle);
//!   for a box, the axis of least overlap (see `box_shape.rs`);
//! * **depth**: how far the primitive must move along the normal for the triangle to stop
//!   touching it: `offset − min n·v` for a plane, `radius − distance` for a sphere or capsule
//!   (when the capsule's axis passes through the triangle, moving it by the radius along the
//!   normal leaves the triangle touching its surface, not separated: the depth is local); for
//!   a box, the least overlap, which is the penetration depth of the pair.
//!
//! # Tolerance
//!
//! The triangle's computed vertices are within the body's [`Body::error`] `δ` per coordinate
//! of the exact ones; a triangle is reported when its computed distance into the primitive is
//! at least `−T`, with
//!
//! ```text
//! T = 2δ + 64 u (w + e)     (w the largest |coordinate| of the triangle, e the primitive's
//!                            largest |coordinate| plus its radius or |offset|)
//! ```
//!
//! so a triangle that touches the primitive exactly is never missed, and a reported triangle
//! is at most `2T` away from it. Node spheres are tested with `T` computed for the sphere's
//! extent (every vertex below it is within it) plus the rounding of the test itself.

mod box_shape;
mod contact_point;
mod shape;

pub use contact_point::{primitive_contact, primitive_tolerance};
pub use shape::{Primitive, PrimitiveError};

use crate::body::Body;
use crate::image::tree::NONE;
use crate::query::contacts::ContactPoint;
use crate::scalar::Scalar;
use crate::walk::output::PrimitiveProxy;
use crate::walk::output::{report, QueryOutcome, QueryStats, QueryStatus, Sink};
use crate::walk::{check_triangle_query, run_query, stack_capacity, Flow, Node, Policy};
pub(crate) use contact_point::sphere_may_touch;

/// The primitive queries' policy: the body's world spheres against the primitive (a second tree
/// of one terminal node), and at the body's terminal nodes what `L` does there — a triangle's
/// contact ([`Contacts`]) or the node as a proxy ([`Proxies`]).
struct Against<'q, 't, 'c, S: Scalar, L> {
    body: &'q mut Body<'t, 'c, S>,
    primitive: Primitive<S>,
    error: S,
    at: L,
}

/// What a primitive query does at a terminal node of the body.
trait Terminal<S: Scalar> {
    /// Whether nodes at [`Terminal::depth`] end the walk too (proxies), not only leaves.
    const CUT: bool;
    /// The depth that ends the walk when [`Terminal::CUT`].
    fn depth(&self) -> u32;
    /// Reports what the terminal node `node` (its links `at`) holds.
    fn report(
        &mut self,
        body: &mut Body<'_, '_, S>,
        primitive: &Primitive<S>,
        error: S,
        node: u32,
        at: &Node,
        stats: &mut QueryStats,
    ) -> Result<(), QueryStatus>;
}

/// [`collide_primitive`]'s terminal nodes: leaves, each triangle's contact to the sink.
struct Contacts<'q, X: ?Sized>(&'q mut X);

impl<S: Scalar, X: Sink<ContactPoint<S>> + ?Sized> Terminal<S> for Contacts<'_, X> {
    const CUT: bool = false;

    fn depth(&self) -> u32 {
        u32::MAX
    }

    fn report(
        &mut self,
        body: &mut Body<'_, '_, S>,
        primitive: &Primitive<S>,
        error: S,
        _: u32,
        at: &Node,
        stats: &mut QueryStats,
    ) -> Result<(), QueryStatus> {
        let Some(triangle) = body.world_triangle(at.triangle as usize) else {
            return Err(QueryStatus::Inconsistent);
        };
        stats.triangle_tests += 1;
        if let Some(contact) = primitive_contact(&triangle, primitive, error) {
            let item = ContactPoint {
                a: at.triangle,
                b: 0,
                contact,
            };
            report(self.0, item, stats)?;
        }
        Ok(())
    }
}

/// [`collide_primitive_proxies`]' terminal nodes: nodes at the proxy depth (or shallower
/// leaves, or cut nodes), each a proxy to the sink.
struct Proxies<'q, X: ?Sized> {
    sink: &'q mut X,
    depth: u32,
}

impl<S: Scalar, X: Sink<PrimitiveProxy<S>> + ?Sized> Terminal<S> for Proxies<'_, X> {
    const CUT: bool = true;

    fn depth(&self) -> u32 {
        self.depth
    }

    fn report(
        &mut self,
        body: &mut Body<'_, '_, S>,
        primitive: &Primitive<S>,
        _: S,
        node: u32,
        _: &Node,
        stats: &mut QueryStats,
    ) -> Result<(), QueryStatus> {
        let Some(sphere) = body.sphere(node as usize) else {
            return Err(QueryStatus::Inconsistent);
        };
        let [x, y, z, r] = sphere;
        let item = PrimitiveProxy {
            node,
            sphere,
            depth: r - primitive.signed_distance([x, y, z]),
        };
        report(self.sink, item, stats)
    }
}

impl<S: Scalar, L: Terminal<S>> Policy for Against<'_, '_, '_, S, L> {
    type S = S;
    type Bound = [S; 4];
    type Key = ();

    #[inline(always)]
    fn node(&self, first: bool, node: u32) -> Option<Node> {
        if first {
            let links = self.body.tree().links(node as usize)?;
            if !L::CUT {
                return Some(Node::leaf_terminal(links));
            }
            let [left, right, triangle, depth] = links;
            Some(Node {
                children: [left, right],
                terminal: triangle != NONE || left == NONE || depth >= self.at.depth(),
                triangle,
            })
        } else {
            (node == 0).then_some(Node {
                children: [NONE, NONE],
                terminal: true,
                triangle: 0,
            })
        }
    }

    #[inline(always)]
    fn bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
        if first {
            self.body.sphere(node as usize)
        } else {
            (node == 0).then_some([S::ZERO; 4])
        }
    }

    #[inline(always)]
    fn size(bound: &[S; 4]) -> S {
        bound[3]
    }

    #[inline(always)]
    fn test(&self, a: &[S; 4], _: &[S; 4]) -> Option<()> {
        sphere_may_touch(a, &self.primitive, self.error).then_some(())
    }

    fn updates(&self) -> u32 {
        self.body.update_count()
    }

    fn leaf(
        &mut self,
        [node, _]: [u32; 2],
        a: &Node,
        _: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        self.at
            .report(self.body, &self.primitive, self.error, node, a, stats)?;
        Ok(Flow::Continue)
    }
}

/// The contact proxies of `body` at depth `proxy_depth` (nodes at that depth, shallower
/// leaves, or cut nodes of a bounded-depth image) whose world spheres may touch `primitive`,
/// to `sink` in traversal order, each with its sphere and penetration depth. Every node on the
/// way is tested as [`collide_primitive`] tests it, so **every triangle touching the primitive
/// lies under a reported proxy** (each node's sphere holds its triangles; no nesting needed),
/// and a proxy is reported only when its own sphere may touch (within the tolerance of the
/// module docs). Works on complete and bounded-depth images; `stack` needs
/// [`primitive_stack_capacity`] of the tree's depth. Cost: what [`collide_primitive`] costs on
/// a tree cut at `proxy_depth` — no triangle is deformed.
pub fn collide_primitive_proxies<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    primitive: &Primitive<S>,
    proxy_depth: u32,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<PrimitiveProxy<S>> + ?Sized),
) -> QueryOutcome {
    let needed = primitive_stack_capacity(body.tree().depth());
    let check = check_triangle_query(false, needed, stack.len());
    let error = body.error();
    let at = Proxies {
        sink,
        depth: proxy_depth,
    };
    let mut policy = Against {
        body,
        primitive: *primitive,
        error,
        at,
    };
    run_query(&mut policy, stack, check)
}

/// Stack entries [`collide_primitive`] needs for a tree of this depth.
pub const fn primitive_stack_capacity(depth: u32) -> usize {
    stack_capacity(depth, 0)
}

/// Every triangle of `body` that touches `primitive` (module docs), as [`ContactPoint`]s
/// `(triangle, 0)` with point, normal (from the triangle to the primitive) and depth —
/// delivered to `sink` in traversal order. Never misses a touching triangle; may report
/// triangles up to `2T` away. `stack` needs [`primitive_stack_capacity`] entries. Cost: one
/// sphere test per node pair the walk reaches, one triangle–primitive test per leaf reached.
pub fn collide_primitive<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    primitive: &Primitive<S>,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<ContactPoint<S>> + ?Sized),
) -> QueryOutcome {
    let needed = primitive_stack_capacity(body.tree().depth());
    let check = check_triangle_query(body.tree().is_bounded(), needed, stack.len());
    let error = body.error();
    let mut policy = Against {
        body,
        primitive: *primitive,
        error,
        at: Contacts(sink),
    };
    run_query(&mut policy, stack, check)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::pose::Pose;

    const T: [[f64; 3]; 3] = [[0.0, 0.0, 0.1], [1.0, 0.0, -0.2], [0.0, 1.0, 0.3]];

    #[test]
    fn a_triangle_below_the_floor_reports_its_deepest_vertex() {
        let floor = Primitive::plane([0.0, 0.0, 2.0], 0.0).expect("plane");
        let c = primitive_contact(&T, &floor, 0.0).expect("contact");
        assert_eq!(c.point, T[1]);
        assert_eq!(c.normal, [0.0, 0.0, -1.0]);
        assert!((c.depth - 0.2).abs() < 1e-15);
        let high = Primitive::plane([0.0, 0.0, 1.0], -0.25).expect("plane");
        assert!(primitive_contact(&T, &high, 0.0).is_none());
    }

    #[test]
    fn a_sphere_touching_the_face_has_the_face_point() {
        let ball = Primitive::sphere([0.25, 0.25, 1.0], 1.0).expect("ball");
        let c = primitive_contact(&T, &ball, 0.0).expect("contact");
        // The nearest point is inside the face; distance along the face normal.
        let n = [0.3, -0.2, 1.0];
        let len = (0.09f64 + 0.04 + 1.0).sqrt();
        let along: f64 = (0..3).map(|k| c.normal[k] * n[k] / len).sum();
        assert!(along > 0.999, "{:?}", c.normal);
        assert!(c.depth > 0.0 && c.depth < 1.0);
        let far = Primitive::sphere([5.0, 5.0, 5.0], 1.0).expect("ball");
        assert!(primitive_contact(&T, &far, 0.0).is_none());
    }

    #[test]
    fn a_triangle_through_a_box_has_its_penetration_depth() {
        // A unit cube turned a quarter turn about z (axes still along the world's) and a
        // large triangle in z = 0.3 slicing through it: no vertex inside, depth 0.7
        // (moving the box down by 0.7 clears it: normal −z) and the point inside the box.
        let h = core::f64::consts::FRAC_1_SQRT_2;
        let pose = Pose::from_quaternion([h, 0.0, 0.0, h], [0.0, 0.0, 0.0]).expect("pose");
        let cube = Primitive::oriented_box(&pose, [1.0, 1.0, 1.0]).expect("box");
        let big = [[-5.0, -5.0, 0.3], [5.0, -5.0, 0.3], [0.0, 5.0, 0.3]];
        let c = primitive_contact(&big, &cube, 0.0).expect("contact");
        assert!((c.depth - 0.7).abs() < 1e-12, "{c:?}");
        assert!((c.normal[2] + 1.0).abs() < 1e-12, "{c:?}");
        assert!(c.point.iter().all(|x| x.abs() <= 1.0 + 1e-12), "{c:?}");
        assert!((c.point[2] - 0.3).abs() < 1e-12);
        // Lifted to z = 1.5 it misses the box.
        let high = big.map(|v| [v[0], v[1], 1.5]);
        assert!(primitive_contact(&high, &cube, 0.0).is_none());
        // Negative half extents are refused.
        assert_eq!(
            Primitive::oriented_box(&pose, [1.0, -1.0, 1.0]),
            Err(PrimitiveError::NegativeRadius)
        );
    }

    #[test]
    fn bad_primitives_are_refused() {
        assert_eq!(
            Primitive::plane([0.0, 0.0, 0.0], 1.0),
            Err(PrimitiveError::ZeroNormal)
        );
        assert_eq!(
            Primitive::sphere([f64::NAN, 0.0, 0.0], 1.0),
            Err(PrimitiveError::NonFinite)
        );
        assert_eq!(
            Primitive::capsule([0.0; 3], [1.0; 3], -1.0),
            Err(PrimitiveError::NegativeRadius)
        );
    }
}
