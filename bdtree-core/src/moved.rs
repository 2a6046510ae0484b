//! The module paths of the flat layout before the kernel's folders, kept for one release as
//! deprecated aliases of their new homes (the book's change log lists every move). Each
//! re-exports what the old module offered; new code names the new path or the crate root.
//! The modules `collide` and `refine` are gone without an alias: they shared their names with
//! the functions [`crate::collide()`] and [`crate::refine()`], which keep their root paths.

/// Moved to [`crate::world::sweep`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::world::sweep`")]
pub mod broad {
    pub use crate::world::sweep::*;
}

/// Moved to [`crate::walk::budget`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::walk::budget`")]
pub mod budget {
    pub use crate::walk::budget::*;
}

/// Moved to [`crate::geometry::closest`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::geometry::closest`")]
pub mod closest {
    pub use crate::geometry::closest::*;
    pub use crate::geometry::triangle_pair::*;
}

/// Moved to [`crate::bounds::coherence`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::bounds::coherence`")]
pub mod coherence {
    pub use crate::bounds::coherence::*;
}

/// Moved to [`crate::query::contacts`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::query::contacts`")]
pub mod contact {
    pub use crate::geometry::triangle_pair::{
        contact_tolerance, triangle_contact, TriangleContact,
    };
    pub use crate::query::contacts::*;
}

/// Moved to [`crate::query::traversal`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::query::traversal`")]
pub mod interrupt {
    pub use crate::query::traversal::*;
    pub use crate::walk::budget::{Budget, Clock, Deadline, TestBudget};
}

/// Moved to [`crate::image::model`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::image::model`")]
pub mod model {
    pub use crate::image::model::*;
}

/// Moved to [`crate::query::boxes`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::query::boxes`")]
pub mod obb {
    pub use crate::query::boxes::*;

    /// The argument order before the one order of every query (bodies first).
    #[deprecated(
        since = "0.2.0",
        note = "bodies first: `bdtree_core::collide_boxes(a, b, boxes_a, boxes_b, test, stack, sink)`"
    )]
    pub fn collide_boxes<S: crate::Scalar>(
        a: &mut crate::Body<'_, '_, S>,
        boxes_a: &crate::BoxTable<'_, S>,
        b: &mut crate::Body<'_, '_, S>,
        boxes_b: &crate::BoxTable<'_, S>,
        test: crate::BoxTest,
        stack: &mut [[u32; 2]],
        sink: &mut (impl crate::ContactSink + ?Sized),
    ) -> crate::QueryOutcome {
        crate::collide_boxes(a, b, boxes_a, boxes_b, test, stack, sink)
    }
}

/// Moved to [`crate::walk::output`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::walk::output`")]
pub mod output {
    pub use crate::walk::output::*;
}

/// Moved to [`crate::geometry::pose`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::geometry::pose`")]
pub mod pose {
    pub use crate::geometry::pose::*;
}

/// Moved to [`crate::query::primitives`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::query::primitives`")]
pub mod primitive {
    pub use crate::query::primitives::*;
    pub use crate::walk::output::PrimitiveProxy;

    /// The argument order before the one order of every query (the other side first).
    #[deprecated(
        since = "0.2.0",
        note = "the primitive first: `bdtree_core::collide_primitive_proxies(body, primitive, depth, stack, sink)`"
    )]
    pub fn collide_primitive_proxies<S: crate::Scalar>(
        body: &mut crate::Body<'_, '_, S>,
        proxy_depth: u32,
        primitive: &crate::Primitive<S>,
        stack: &mut [[u32; 2]],
        sink: &mut (impl crate::Sink<crate::PrimitiveProxy<S>> + ?Sized),
    ) -> crate::QueryOutcome {
        crate::collide_primitive_proxies(body, primitive, proxy_depth, stack, sink)
    }
}

/// Moved to [`crate::query::proxies`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::query::proxies`")]
pub mod proxy {
    pub use crate::query::proxies::*;
    pub use crate::walk::output::{ProxyBuffer, ProxyPair, ProxySink};

    /// The argument order before the one order of every query (bodies first).
    #[deprecated(
        since = "0.2.0",
        note = "bodies first: `bdtree_core::collide_proxies(a, b, depth_a, depth_b, stack, sink)`"
    )]
    pub fn collide_proxies<S: crate::Scalar>(
        a: &mut crate::Body<'_, '_, S>,
        proxy_depth_a: u32,
        b: &mut crate::Body<'_, '_, S>,
        proxy_depth_b: u32,
        stack: &mut [[u32; 2]],
        sink: &mut (impl crate::ProxySink<S> + ?Sized),
    ) -> crate::QueryOutcome {
        crate::collide_proxies(a, b, proxy_depth_a, proxy_depth_b, stack, sink)
    }

    /// The argument order before the one order of every query (bodies first).
    #[deprecated(
        since = "0.2.0",
        note = "bodies first: `bdtree_core::collide_proxies_apart(a, b, depth_a, depth_b, offset, stack, sink)`"
    )]
    pub fn collide_proxies_apart<S: crate::Scalar>(
        a: &mut crate::Body<'_, '_, S>,
        proxy_depth_a: u32,
        b: &mut crate::Body<'_, '_, S>,
        proxy_depth_b: u32,
        offset: [f64; 3],
        stack: &mut [[u32; 2]],
        sink: &mut (impl crate::ProxySink<S> + ?Sized),
    ) -> crate::QueryOutcome {
        crate::collide_proxies_apart(a, b, proxy_depth_a, proxy_depth_b, offset, stack, sink)
    }
}

/// Moved to [`crate::world::response`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::world::response`")]
pub mod response {
    pub use crate::world::response::*;

    /// The argument order before the one order (bodies first).
    #[deprecated(
        since = "0.2.0",
        note = "bodies first: `bdtree_core::respond(a, b, pair, stiffness, wrench_a, wrench_b)`"
    )]
    pub fn respond<S: crate::Scalar, const M: usize>(
        pair: &crate::ProxyPair<S>,
        stiffness: S,
        a: &crate::Body<'_, '_, S>,
        b: &crate::Body<'_, '_, S>,
        wrench_a: &mut crate::Wrench<S, M>,
        wrench_b: &mut crate::Wrench<S, M>,
    ) -> Option<crate::Penalty<S>> {
        crate::respond(a, b, pair, stiffness, wrench_a, wrench_b)
    }

    /// The argument order before the one order (bodies first).
    #[deprecated(
        since = "0.2.0",
        note = "bodies first: `bdtree_core::respond_mut(a, b, pair, stiffness, wrench_a, wrench_b)`"
    )]
    pub fn respond_mut<S: crate::Scalar>(
        pair: &crate::ProxyPair<S>,
        stiffness: S,
        a: &crate::Body<'_, '_, S>,
        b: &crate::Body<'_, '_, S>,
        wrench_a: crate::WrenchMut<'_, S>,
        wrench_b: crate::WrenchMut<'_, S>,
    ) -> Option<crate::Penalty<S>> {
        crate::respond_mut(a, b, pair, stiffness, wrench_a, wrench_b)
    }

    /// The argument order before the one order (bodies first).
    #[deprecated(
        since = "0.2.0",
        note = "bodies first: `bdtree_core::respond_contact(a, b, contact, stiffness, wrench_a, wrench_b)`"
    )]
    pub fn respond_contact<S: crate::Scalar>(
        contact: &crate::ContactPoint<S>,
        stiffness: S,
        a: &crate::Body<'_, '_, S>,
        b: &crate::Body<'_, '_, S>,
        wrench_a: crate::WrenchMut<'_, S>,
        wrench_b: crate::WrenchMut<'_, S>,
    ) -> Option<crate::Penalty<S>> {
        crate::respond_contact(a, b, contact, stiffness, wrench_a, wrench_b)
    }
}

/// Moved to [`crate::query::self_collision`].
#[deprecated(
    since = "0.2.0",
    note = "moved to `bdtree_core::query::self_collision`"
)]
pub mod selfcollide {
    pub use crate::query::self_collision::*;

    /// The argument order before the one order of every query (stack and sink last).
    #[deprecated(
        since = "0.2.0",
        note = "stack and sink last: `bdtree_core::collide_self_with(body, aids, counts, stack, sink)`"
    )]
    pub fn collide_self_with<S: crate::Scalar>(
        body: &mut crate::Body<'_, '_, S>,
        aids: crate::SelfAids<'_>,
        stack: &mut [[u32; 2]],
        sink: &mut impl crate::ContactSink,
        counts: &mut crate::query::self_collision::UnitCounts,
    ) -> crate::QueryOutcome {
        crate::collide_self_with(body, aids, counts, stack, sink)
    }
}

/// Moved to [`crate::query::separation`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::query::separation`")]
pub mod separation {
    pub use crate::query::separation::*;

    /// A [`nearest`] query's outcome, before every query returned a [`crate::QueryOutcome`].
    #[deprecated(
        since = "0.2.0",
        note = "`bdtree_core::nearest` returns a `QueryOutcome` and writes its answer to a slot"
    )]
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct NearestOutcome<S> {
        /// How it ended.
        pub status: crate::QueryStatus,
        /// The answer (`None` when incomplete).
        pub nearest: Option<crate::Nearest<S>>,
        /// Work.
        pub stats: crate::QueryStats,
    }

    /// The shape before the one shape of every query.
    #[deprecated(
        since = "0.2.0",
        note = "`bdtree_core::nearest(a, b, stack, &mut answer)` returns a `QueryOutcome`"
    )]
    #[allow(deprecated)]
    pub fn nearest<S: crate::Scalar>(
        a: &mut crate::Body<'_, '_, S>,
        b: &mut crate::Body<'_, '_, S>,
        stack: &mut [[u32; 2]],
    ) -> NearestOutcome<S> {
        let mut nearest = None;
        let outcome = crate::nearest(a, b, stack, &mut nearest);
        NearestOutcome {
            status: outcome.status,
            nearest,
            stats: outcome.stats,
        }
    }

    /// The shape before the one shape of every query (`None` when incomplete).
    #[deprecated(
        since = "0.2.0",
        note = "`bdtree_core::closer_than(a, b, distance, margin, stack, &mut closer)` returns a `QueryOutcome`"
    )]
    pub fn closer_than<S: crate::Scalar>(
        a: &mut crate::Body<'_, '_, S>,
        b: &mut crate::Body<'_, '_, S>,
        distance: S,
        margin: S,
        stack: &mut [[u32; 2]],
    ) -> (Option<bool>, crate::QueryStats) {
        let mut closer = true;
        let outcome = crate::closer_than(a, b, distance, margin, stack, &mut closer);
        (
            outcome.status.is_complete().then_some(closer),
            outcome.stats,
        )
    }
}

/// Moved to [`crate::bounds::sphere`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::bounds::sphere`")]
pub mod sphere {
    pub use crate::bounds::sphere::*;
}

/// Moved to [`crate::query::swept`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::query::swept`")]
pub mod swept {
    pub use crate::bounds::track_cache::TrackEntry;
    pub use crate::query::swept::*;
}

/// Moved to [`crate::image::tree`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::image::tree`")]
pub mod tree {
    pub use crate::image::tree::*;
}

/// Moved to [`crate::geometry::triangle`].
#[deprecated(since = "0.2.0", note = "moved to `bdtree_core::geometry::triangle`")]
pub mod triangle {
    pub use crate::geometry::triangle::*;
}
