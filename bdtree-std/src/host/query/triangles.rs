//! [`pairs`]: every intersecting triangle pair of two bodies — the kernel's
//! [`bdtree_core::collide`] ([`bdtree_core::query::triangles`]) at the pair's floating origin,
//! refined in f64 in f32.

use bdtree_core::{
    collide, refine, stack_capacity, Body as KernelBody, QueryStats, Scalar, TrianglePair,
};

use crate::host::answer::Answer;
use crate::host::body::{Body, OnTwo};
use crate::host::error::HostError;
use crate::host::placing::pair_origin;
use crate::host::stack::{complete, Stack};

/// The intersecting triangle pairs of two placed kernel bodies, refined (f32), in walk order.
pub(super) fn kernel_pairs<S: Scalar>(
    a: &mut KernelBody<'_, '_, S>,
    b: &mut KernelBody<'_, '_, S>,
    stats: &mut QueryStats,
) -> Result<Vec<TrianglePair>, HostError> {
    let mut found = Vec::new();
    let mut stack = Stack::take(stack_capacity(a.tree().depth(), b.tree().depth()));
    let outcome = collide(a, b, &mut stack, &mut |p: TrianglePair| {
        found.push(p);
        true
    });
    complete("collide", &outcome)?;
    stats.add(&outcome.stats);
    let kept = refine(a, b, &mut found);
    found.truncate(kept);
    Ok(found)
}

struct Pairs;

impl OnTwo for Pairs {
    type Out = Result<Answer<[u32; 2]>, HostError>;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out {
        let mut stats = QueryStats::default();
        let found = kernel_pairs(a, b, &mut stats)?;
        let mut items: Vec<[u32; 2]> = found.iter().map(|p| [p.a, p.b]).collect();
        items.sort_unstable();
        Ok(Answer { items, stats })
    }
}

/// Every intersecting triangle pair of `a` and `b` (`[triangle of a, triangle of b]`, sorted),
/// at the pair's floating origin. Conservative: every pair that intersects at the states as
/// given is reported (touching counts); in f32 the pairs are re-tested in f64
/// ([`bdtree_core::refine()`]), so an extra pair is closer than the bound of
/// [`crate::host::placing`] (the model's f32 storage rounding and the state's rounding, ~10⁻⁶ of
/// the bodies' size plus ~10⁻⁷ of their distance).
pub fn pairs(a: &mut Body, b: &mut Body) -> Result<Answer<[u32; 2]>, HostError> {
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    Body::on_two(a, b, Pairs)?
}
