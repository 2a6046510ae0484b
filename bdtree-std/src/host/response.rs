//! Generalized forces of the host's penalty responses: a world force at a node of a body
//! through the node's `Ū` ([`force_at_node`], [`bdtree_core::apply_at_node_mut`] of the kernel's
//! [`bdtree_core::world::response`]).

use bdtree_core::{apply_at_node_mut, Body as KernelBody, Scalar};

use super::answer::{ScalarWrench, Wrench};
use super::body::{Body, OnOne};
use super::error::HostError;
use super::placing::self_origin;

/// World forces `(node, point, force)` applied to a body at `origin` (its state placed there).
struct ApplyForces<'f> {
    forces: &'f [(usize, [f64; 3], [f64; 3])],
    origin: [f64; 3],
}

impl OnOne for ApplyForces<'_> {
    type Out = Option<Wrench>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        let mut w = ScalarWrench::<S>::new(body.tree().modes());
        for &(node, point, force) in self.forces {
            let point = std::array::from_fn(|k| S::from_f64(point[k] - self.origin[k]));
            apply_at_node_mut(body, node, point, force.map(S::from_f64), w.view())?;
        }
        Some(w.wide())
    }
}

/// The wrench of world forces `(node, point, force)` on `body` at its own origin; an error for
/// a node the tree does not have.
pub(crate) fn apply_forces(
    body: &mut Body,
    forces: &[(usize, [f64; 3], [f64; 3])],
) -> Result<Wrench, HostError> {
    let origin = self_origin(body);
    body.place(origin)?;
    body.on_one(ApplyForces { forces, origin })
        .ok_or_else(|| HostError::Body {
            message: "a proxy node the tree does not have".to_string(),
        })
}

/// The wrench of a world force `force` at world `point` applied at `node` of `body` (its
/// reduced force through the node's `Ū`, [`bdtree_core::apply_at_node_mut`]), at the body's
/// state: for responses of the caller's own (e.g. a ground pushing straight up under a proxy).
/// `None` for a node the tree does not have.
pub fn force_at_node(
    body: &mut Body,
    node: usize,
    point: [f64; 3],
    force: [f64; 3],
) -> Result<Option<Wrench>, HostError> {
    let origin = self_origin(body);
    body.place(origin)?;
    Ok(body.on_one(ApplyForces {
        forces: &[(node, point, force)],
        origin,
    }))
}
