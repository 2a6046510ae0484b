//! [`swept`]: every triangle pair of two moving objects that may touch between two steps — the
//! kernel's [`bdtree_core::collide_swept`] ([`bdtree_core::query::swept`]) — and, in [`front`],
//! the same query every tick with its front carried ([`bdtree_core::collide_swept_front`]).

pub mod front;

use bdtree_core::{collide_swept, stack_capacity, Body as KernelBody, Scalar, SweptPair};

use crate::host::answer::{Answer, Swept};
use crate::host::body::{Body, OnFour};
use crate::host::error::HostError;
use crate::host::placing::swept_origin;
use crate::host::stack::{complete, Stack};

struct SweptQuery;

impl OnFour for SweptQuery {
    type Out = Result<Answer<Swept>, HostError>;
    fn run<S: Scalar>(self, bodies: [&mut KernelBody<'_, '_, S>; 4]) -> Self::Out {
        let [a_before, a_now, b_before, b_now] = bodies;
        let capacity = stack_capacity(a_now.tree().depth(), b_now.tree().depth());
        let mut stack = Stack::take(capacity);
        let mut items = Vec::new();
        let outcome = collide_swept(
            a_before,
            a_now,
            b_before,
            b_now,
            &mut stack,
            &mut |p: SweptPair<S>| {
                items.push(swept_of(p));
                true
            },
        );
        complete("collide_swept", &outcome)?;
        items.sort_by_key(|s| s.triangles);
        Ok(Answer {
            items,
            stats: outcome.stats,
        })
    }
}

/// A pair the kernel's swept query found, as the host answers it (its time in f64).
pub(crate) fn swept_of<S: Scalar>(p: SweptPair<S>) -> Swept {
    Swept {
        triangles: [p.a, p.b],
        time: p.time.to_f64(),
    }
}

/// A swept query's objects: each one's two bodies (before, now) over one tree.
pub(crate) fn same_objects([a0, a1, b0, b1]: [&Body; 4]) -> Result<(), HostError> {
    if !a0.tree().same(a1.tree()) || !b0.tree().same(b1.tree()) {
        return Err(HostError::DifferentTrees);
    }
    Ok(())
}

/// A swept query's four bodies placed at `origin`.
pub(crate) fn place_four(bodies: [&mut Body; 4], origin: [f64; 3]) -> Result<(), HostError> {
    bodies.into_iter().try_for_each(|body| body.place(origin))
}

/// Every triangle pair of two moving objects that may touch at some time between two steps,
/// with a conservative earliest time (0 at the step before, 1 at this one), sorted. Each object
/// is two bodies over one tree: its state before (`a_before`, `b_before`) and now; between them
/// `q` and the translation move linearly and the rotation by slerp on the shorter arc. Placed
/// at the floating origin of the four translations.
pub fn swept(
    a_before: &mut Body,
    a_now: &mut Body,
    b_before: &mut Body,
    b_now: &mut Body,
) -> Result<Answer<Swept>, HostError> {
    same_objects([a_before, a_now, b_before, b_now])?;
    let origin = swept_origin(a_before, a_now, b_before, b_now);
    place_four(
        [&mut *a_before, &mut *a_now, &mut *b_before, &mut *b_now],
        origin,
    )?;
    Body::on_four([a_before, a_now, b_before, b_now], SweptQuery)?
}
