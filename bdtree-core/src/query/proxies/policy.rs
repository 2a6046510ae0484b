//! The proxy walk as a policy over [`crate::walk`]'s depth-first pair walk: what
//! [`super::collide_proxies`] and [`super::collide_proxies_apart`] run where floating point is
//! a library call (Cortex-M0, M3; f64 on an f32 FPU), on which it measures cheaper than the
//! loop of `packed` (on the firmware replay's proxy scenes, 2 % fewer instructions a frame on
//! the Cortex-M0 and M3). The same node pairs, tests, order, counters and answers as that loop
//! with proxies unenlarged (see the module docs).

use crate::body::Body;
use crate::bounds::sphere::spheres_overlap;
use crate::image::tree::NONE;
use crate::scalar::Scalar;
use crate::walk::output::{report, ProxySink, QueryOutcome, QueryStats, QueryStatus};
use crate::walk::{run_query, Bodies, Flow, Node, Policy};

use super::packed::Moved;
use super::proxy_pair;

/// The proxy query's policy: spheres enlarged above the proxy depth, proxies terminal, the
/// leaf step reports the pair.
struct Proxies<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar, X: ?Sized> {
    bodies: Bodies<'q, 'ta, 'ca, 'tb, 'cb, S>,
    /// Per side: proxy depth and the non-proxy margin (module docs).
    depths: [u32; 2],
    margins: [S; 2],
    sink: &'q mut X,
}

impl<S: Scalar, X: ProxySink<S> + ?Sized> Proxies<'_, '_, '_, '_, '_, S, X> {
    /// A node's sphere as its bound: a proxy's own, a non-proxy's enlarged by the margin.
    #[inline(always)]
    fn enlarged(&self, first: bool, node: u32, [x, y, z, r]: [S; 4]) -> Option<[S; 4]> {
        let proxy = self.node(first, node)?.terminal;
        let margin = if first {
            self.margins[0]
        } else {
            self.margins[1]
        };
        Some([x, y, z, if proxy { r } else { r + margin }])
    }
}

impl<S: Scalar, X: ProxySink<S> + ?Sized> Policy for Proxies<'_, '_, '_, '_, '_, S, X> {
    type S = S;
    type Bound = [S; 4];
    type Key = ();

    /// Leaves, cut nodes of a bounded tree (no children) and nodes at the proxy depth are
    /// terminal.
    #[inline(always)]
    fn node(&self, first: bool, node: u32) -> Option<Node> {
        let tree = if first {
            self.bodies.a.body.tree()
        } else {
            self.bodies.b.body.tree()
        };
        let [left, right, triangle, depth] = tree.links(node as usize)?;
        let proxy_depth = if first {
            self.depths[0]
        } else {
            self.depths[1]
        };
        Some(Node {
            children: [left, right],
            terminal: triangle != NONE || left == NONE || depth >= proxy_depth,
            triangle,
        })
    }

    /// A proxy's own sphere, a non-proxy's enlarged by the margin.
    #[inline(always)]
    fn bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
        let sphere = self.bodies.sphere(first, node)?;
        self.enlarged(first, node, sphere)
    }

    #[inline(always)]
    fn pending_bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
        let sphere = self.bodies.cached_sphere(first, node)?;
        self.enlarged(first, node, sphere)
    }

    #[inline(always)]
    fn children(&mut self, first: bool, [left, right]: [u32; 2]) -> Option<[[S; 4]; 2]> {
        let [l, r] = self.bodies.child_spheres(first, left)?;
        Some([
            self.enlarged(first, left, l)?,
            self.enlarged(first, right, r)?,
        ])
    }

    #[inline(always)]
    fn size(bound: &[S; 4]) -> S {
        bound[3]
    }

    #[inline(always)]
    fn test(&self, a: &[S; 4], b: &[S; 4]) -> Option<()> {
        spheres_overlap(*a, *b).then_some(())
    }

    fn updates(&self) -> u32 {
        self.bodies.updates()
    }

    fn leaf(
        &mut self,
        [i, j]: [u32; 2],
        _: &Node,
        _: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let (Some(sa), Some(sb)) = (self.bodies.sphere(true, i), self.bodies.sphere(false, j))
        else {
            return Err(QueryStatus::Inconsistent);
        };
        let pair = proxy_pair(i, j, sa, sb);
        report(self.sink, pair, stats)?;
        Ok(Flow::Continue)
    }
}

/// The proxy policy with b's spheres seen from a's frame ([`collide_proxies_apart`]): moved by
/// `shift`, grown by `slack`. A wrapper, so [`collide_proxies`] compiles as it did.
struct Apart<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar, X: ?Sized> {
    inner: Proxies<'q, 'ta, 'ca, 'tb, 'cb, S, X>,
    shift: [S; 3],
    slack: S,
}

impl<S: Scalar, X: ProxySink<S> + ?Sized> Apart<'_, '_, '_, '_, '_, S, X> {
    #[inline(always)]
    fn see(&self, first: bool, bound: [S; 4]) -> [S; 4] {
        if first {
            return bound;
        }
        let [x, y, z, r] = bound;
        let o = self.shift;
        [x + o[0], y + o[1], z + o[2], r + self.slack]
    }
}

impl<S: Scalar, X: ProxySink<S> + ?Sized> Policy for Apart<'_, '_, '_, '_, '_, S, X> {
    type S = S;
    type Bound = [S; 4];
    type Key = ();

    #[inline(always)]
    fn node(&self, first: bool, node: u32) -> Option<Node> {
        self.inner.node(first, node)
    }

    #[inline(always)]
    fn bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
        let bound = self.inner.bound(first, node)?;
        Some(self.see(first, bound))
    }

    #[inline(always)]
    fn pending_bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
        let bound = self.inner.pending_bound(first, node)?;
        Some(self.see(first, bound))
    }

    #[inline(always)]
    fn children(&mut self, first: bool, pair: [u32; 2]) -> Option<[[S; 4]; 2]> {
        let [l, r] = self.inner.children(first, pair)?;
        Some([self.see(first, l), self.see(first, r)])
    }

    #[inline(always)]
    fn size(bound: &[S; 4]) -> S {
        bound[3]
    }

    #[inline(always)]
    fn test(&self, a: &[S; 4], b: &[S; 4]) -> Option<()> {
        self.inner.test(a, b)
    }

    fn updates(&self) -> u32 {
        self.inner.updates()
    }

    fn leaf(
        &mut self,
        [i, j]: [u32; 2],
        _: &Node,
        _: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let bodies = &mut self.inner.bodies;
        let (Some(sa), Some(sb)) = (bodies.sphere(true, i), bodies.sphere(false, j)) else {
            return Err(QueryStatus::Inconsistent);
        };
        let sb = self.see(false, sb);
        let pair = proxy_pair(i, j, sa, sb);
        report(self.inner.sink, pair, stats)?;
        Ok(Flow::Continue)
    }
}

/// [`super::collide_proxies`] as this policy, from the root pair (`check`: the query's entry
/// checks).
#[inline(always)]
pub(super) fn plain<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    depths: [u32; 2],
    stack: &mut [[u32; 2]],
    sink: &mut (impl ProxySink<S> + ?Sized),
    check: Result<(), QueryStatus>,
) -> QueryOutcome {
    let mut policy = Proxies {
        margins: [super::margin(a), super::margin(b)],
        bodies: Bodies::new(a, b),
        depths,
        sink,
    };
    run_query(&mut policy, stack, check)
}

/// [`super::collide_proxies_apart`] as this policy, b's spheres seen through `view`.
#[inline(always)]
pub(super) fn apart<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    depths: [u32; 2],
    view: &Moved<S>,
    stack: &mut [[u32; 2]],
    sink: &mut (impl ProxySink<S> + ?Sized),
    check: Result<(), QueryStatus>,
) -> QueryOutcome {
    let mut policy = Apart {
        inner: Proxies {
            margins: [super::margin(a), super::margin(b)],
            bodies: Bodies::new(a, b),
            depths,
            sink,
        },
        shift: view.shift,
        slack: view.slack,
    };
    run_query(&mut policy, stack, check)
}
