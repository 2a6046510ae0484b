//! The triangle query: every intersecting triangle pair between two bodies.
//!
//! A policy over the walk ([`crate::walk`]): bounds are the bodies' world spheres
//! ([`Body::sphere`]), the test is [`spheres_overlap`], leaves are terminal and the leaf step is
//! the exact triangle test. [`collide()`] runs it depth-first on the caller's stack;
//! [`crate::Traversal`] runs the same policy on its resumable, ordered pending list.

use crate::body::Body;
use crate::bounds::sphere::spheres_overlap;
use crate::scalar::Scalar;
use crate::walk::output::{ContactSink, QueryOutcome, QueryStats, QueryStatus};
use crate::walk::{run_query, sphere_walk, Bodies, Flow, Node, Policy, Rank, Unranked};

/// The triangle query's policy: spheres, leaves, the exact test; `rank` orders pairs for an
/// ordered container.
pub(crate) struct Triangles<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar, X: ?Sized, R> {
    pub bodies: Bodies<'q, 'ta, 'ca, 'tb, 'cb, S>,
    pub sink: &'q mut X,
    pub error: S,
    pub rank: R,
}

impl<S, X, R> Policy for Triangles<'_, '_, '_, '_, '_, S, X, R>
where
    S: Scalar,
    X: ContactSink + ?Sized,
    R: Rank<S>,
{
    sphere_walk!();
    type Key = R::Key;

    #[inline(always)]
    fn test(&self, a: &[S; 4], b: &[S; 4]) -> Option<R::Key> {
        spheres_overlap(*a, *b).then(|| self.rank.rank(a, b))
    }

    #[inline(always)]
    fn leaf(
        &mut self,
        _: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        self.bodies
            .triangle_leaf(a, b, self.error, self.sink, stats)
    }
}

/// Every pair of triangles, one of `a` and one of `b`, that intersect in the bodies' current
/// states — delivered to `sink` in traversal order (sort them if you need an order).
///
/// Depth-first over node pairs with the caller's `stack` (at least [`stack_capacity`](crate::stack_capacity)
/// entries; no recursion, no allocation). A node's sphere is updated the first time any query
/// of the step reaches it. At a pair of overlapping leaves the deformed world vertices of the two
/// triangles are computed and tested exactly (see [`crate::geometry::triangle`]); pairs closer than the
/// bodies' rounding-error bounds may be reported, intersecting pairs are never missed.
pub fn collide<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut (impl ContactSink + ?Sized),
) -> QueryOutcome {
    let bodies = Bodies::new(a, b);
    let check = bodies.check(stack.len());
    let error = bodies.error();
    let mut policy = Triangles {
        bodies,
        sink,
        error,
        rank: Unranked,
    };
    run_query(&mut policy, stack, check)
}
