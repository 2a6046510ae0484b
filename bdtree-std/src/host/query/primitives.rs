//! [`primitive_contacts`] and [`primitive_proxies`]: a body against a rigid primitive — the
//! kernel's [`bdtree_core::collide_primitive`] and [`bdtree_core::collide_primitive_proxies`]
//! ([`bdtree_core::query::primitives`]) at the body's own origin, f32 contacts measured again
//! in f64.

use bdtree_core::{
    collide_primitive, collide_primitive_proxies, primitive_contact, primitive_stack_capacity,
    refine_error, Body as KernelBody, ContactPoint, PrimitiveProxy as KernelPrimitiveProxy, Scalar,
};

use crate::host::answer::{wide, world, world_sphere, Answer, Contact, PrimitiveProxy};
use crate::host::body::{Body, Exact, OnOne};
use crate::host::error::HostError;
use crate::host::placing::self_origin;
use crate::host::primitive::Primitive;
use crate::host::stack::{complete, Stack};

struct AgainstPrimitive<'p> {
    primitive: &'p Primitive,
    origin: [f64; 3],
    /// The body's state as given, relative to the origin (f32 contacts are measured on it).
    exact: Option<Exact>,
    /// `Some(depth)`: proxies at that depth; `None`: exact contacts.
    proxies: Option<u32>,
}

/// A body's answer against a primitive: contacts or proxies.
pub(crate) enum PrimitiveAnswer {
    Contacts(Answer<Contact>),
    Proxies(Answer<PrimitiveProxy>),
}

impl OnOne for AgainstPrimitive<'_> {
    type Out = Result<PrimitiveAnswer, HostError>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        let primitive = self.primitive.kernel::<S>(self.origin)?;
        let mut stack = Stack::take(primitive_stack_capacity(body.tree().depth()));
        let origin = self.origin;
        match self.proxies {
            None => {
                let mut items = Vec::new();
                let outcome =
                    collide_primitive(body, &primitive, &mut stack, &mut |c: ContactPoint<S>| {
                        items.push(Contact {
                            triangles: [c.a, c.b],
                            point: world(c.contact.point, origin),
                            normal: wide(c.contact.normal),
                            depth: c.contact.depth.to_f64().max(0.0),
                        });
                        true
                    });
                complete("collide_primitive", &outcome)?;
                if let (true, Some(exact)) = (S::BYTES < 8, &self.exact) {
                    // f32: each triangle again in f64 at the state as given, against the
                    // primitive placed in f64; one farther than the tolerance of its rounding
                    // bound does not touch and is dropped.
                    let wide = self.primitive.kernel::<f64>(origin)?;
                    let error = refine_error(body);
                    items.retain_mut(|c| {
                        let Some(tri) = exact.triangle(body, c.triangles[0]) else {
                            return true;
                        };
                        match primitive_contact(&tri, &wide, error) {
                            Some(k) => {
                                c.point = std::array::from_fn(|i| k.point[i] + origin[i]);
                                c.normal = k.normal;
                                c.depth = k.depth.max(0.0);
                                true
                            }
                            None => false,
                        }
                    });
                }
                items.sort_by_key(|c| c.triangles);
                Ok(PrimitiveAnswer::Contacts(Answer {
                    items,
                    stats: outcome.stats,
                }))
            }
            Some(depth) => {
                let mut items = Vec::new();
                let outcome = collide_primitive_proxies(
                    body,
                    &primitive,
                    depth,
                    &mut stack,
                    &mut |p: KernelPrimitiveProxy<S>| {
                        items.push(PrimitiveProxy {
                            node: p.node,
                            sphere: world_sphere(p.sphere, origin),
                            depth: p.depth.to_f64(),
                        });
                        true
                    },
                );
                complete("collide_primitive_proxies", &outcome)?;
                items.sort_by_key(|p| p.node);
                Ok(PrimitiveAnswer::Proxies(Answer {
                    items,
                    stats: outcome.stats,
                }))
            }
        }
    }
}

/// Every triangle of `body` touching `primitive`, with its contact (triangles `[t, 0]`;
/// normal from the triangle into the primitive), sorted, at the body's own origin (a primitive
/// is placed exactly in f64 before rounding, so the pair's precision is the body's own). In
/// f32 each triangle found is measured again in f64 on the stored model at the state as
/// given, against the primitive placed in f64 ([`bdtree_core::primitive_contact`] with the
/// refine bound): one farther than that tolerance is dropped, the others carry the f64
/// contact. Depths are never negative.
pub fn primitive_contacts(
    body: &mut Body,
    primitive: &Primitive,
) -> Result<Answer<Contact>, HostError> {
    let origin = self_origin(body);
    body.place(origin)?;
    let query = AgainstPrimitive {
        primitive,
        origin,
        exact: Some(Exact::new(body.state(), origin)),
        proxies: None,
    };
    match body.on_one(query)? {
        PrimitiveAnswer::Contacts(a) => Ok(a),
        PrimitiveAnswer::Proxies(_) => Ok(Answer::default()),
    }
}

/// The contact proxies of `body` at `depth` (nodes at that depth, or leaves above) whose
/// spheres may reach into `primitive`, sorted by node, at the body's own origin. The tree must
/// be nested.
pub fn primitive_proxies(
    body: &mut Body,
    depth: u32,
    primitive: &Primitive,
) -> Result<Answer<PrimitiveProxy>, HostError> {
    if !body.tree().nested() {
        return Err(HostError::NotNested { which: "a" });
    }
    let origin = self_origin(body);
    body.place(origin)?;
    let query = AgainstPrimitive {
        primitive,
        origin,
        exact: None,
        proxies: Some(depth),
    };
    match body.on_one(query)? {
        PrimitiveAnswer::Proxies(a) => Ok(a),
        PrimitiveAnswer::Contacts(_) => Ok(Answer::default()),
    }
}
