//! The queries on one, two or four [`Body`]s: each places its bodies at the floating origin
//! of the placing rule ([`super::placing`]), asks the kernel, refines an f32 answer in f64,
//! moves it to world coordinates and sorts it. Every query takes its bodies first, then its
//! parameters, and returns an [`Answer`] (its items and the kernel's counters) or a
//! [`HostError`].

use bdtree_core::geometry::closest::closest_points;
use bdtree_core::geometry::triangle::triangles_may_intersect;
use bdtree_core::query::self_collision::{
    collide_self_lazy, vertex_signatures, ConeSlot, SelfAids, SelfCertificates, SelfCones,
    UnitCounts,
};
use bdtree_core::query::separation::nearest;
use bdtree_core::{
    apply_at_node_mut, collide, collide_contacts, collide_primitive, collide_primitive_proxies,
    collide_swept, primitive_contact, primitive_stack_capacity, refine, refine_error, refine_self,
    respond_contact, self_stack_capacity, stack_capacity, triangle_contact,
    within as kernel_within, Body as KernelBody, ContactPoint, NearPair,
    PrimitiveProxy as KernelPrimitiveProxy, QueryStats, Scalar, SweptPair, TriangleContact,
    TrianglePair,
};

use super::answer::{wide, world, world_sphere, ScalarWrench};
pub use super::answer::{Answer, Contact, Near, Nearest, PrimitiveProxy, Proxy, Swept, Wrench};
use super::body::{Body, Exact, OnFour, OnOne, OnTwo};
use super::error::HostError;
use super::owned::SelfTreeAids;
use super::placing::{pair_origin, self_origin, swept_origin};
use super::primitive::Primitive;
use super::relative;
use super::stack::{complete, Stack};
use super::tree::Tree;
use crate::build::{self_certificates, self_contours};

fn unit(v: [f64; 3]) -> Option<[f64; 3]> {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    (n > 0.0 && n.is_finite()).then(|| v.map(|x| x / n))
}

/// The contact of a refined pair, in f64 on the triangles [`refine`] tested (relative to the
/// origin): the kernel's [`triangle_contact`] with the refine bound, depth at least 0; for a
/// pair that touches only within the bound and has no contact there, the midpoint of the
/// closest points with the normal between them and depth 0.
fn refined_contact(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3], error: f64) -> TriangleContact<f64> {
    if let Some(c) = triangle_contact(a, b, error) {
        return TriangleContact {
            depth: c.depth.max(0.0),
            ..c
        };
    }
    let (_, pa, pb) = closest_points(a, b);
    TriangleContact {
        point: std::array::from_fn(|k| 0.5 * (pa[k] + pb[k])),
        normal: unit(std::array::from_fn(|k| pb[k] - pa[k])).unwrap_or([1.0, 0.0, 0.0]),
        depth: 0.0,
    }
}

/// The intersecting triangle pairs of two placed kernel bodies, refined (f32), in walk order.
fn kernel_pairs<S: Scalar>(
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
/// [`super::placing`] (the model's f32 storage rounding and the state's rounding, ~10⁻⁶ of
/// the bodies' size plus ~10⁻⁷ of their distance).
pub fn pairs(a: &mut Body, b: &mut Body) -> Result<Answer<[u32; 2]>, HostError> {
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    Body::on_two(a, b, Pairs)?
}

struct SelfPairs<'t> {
    tree: &'t Tree,
}

impl OnOne for SelfPairs<'_> {
    type Out = Result<Answer<[u32; 2]>, HostError>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        let n = body.tree().node_count();
        let tree_aids = self.tree.data.self_aids.get_or_init(|| {
            let mut signatures = vec![0u64; n];
            if vertex_signatures(body, &mut signatures).is_none() {
                signatures.clear();
            }
            let contours = self_contours(body.tree(), body.model().triangles());
            SelfTreeAids {
                signatures,
                certificates: self_certificates(body.tree(), body.model(), &contours),
                contours,
            }
        });
        let certificates = SelfCertificates {
            weights: &tree_aids.certificates,
        };
        // The cones and spheres are made where the walk goes (a body certified whole needs
        // none: the query ends at the root).
        let mut slots = vec![ConeSlot::EMPTY; n];
        let mut cones = SelfCones::new(&mut slots);
        let aids = SelfAids {
            signatures: &tree_aids.signatures,
            cones: &[],
            contours: tree_aids.contours.view(),
            certificates,
        };
        let mut found = Vec::new();
        let mut stack = Stack::take(self_stack_capacity(body.tree().depth()));
        let outcome = collide_self_lazy(
            body,
            aids,
            &mut cones,
            &mut UnitCounts::default(),
            &mut stack,
            &mut |p: TrianglePair| {
                found.push(p);
                true
            },
        );
        complete("collide_self", &outcome)?;
        let kept = refine_self(body, &mut found);
        let mut items: Vec<[u32; 2]> = found.iter().take(kept).map(|p| [p.a, p.b]).collect();
        items.sort_unstable();
        Ok(Answer {
            items,
            stats: outcome.stats,
        })
    }
}

/// Every intersecting pair of non-adjacent triangles of one body (`a < b` in each, sorted), at
/// the body's own origin (its translation): the precision of its self pairs is its own,
/// wherever it sits. Refined in f64 in f32, as [`pairs`].
pub fn self_pairs(body: &mut Body) -> Result<Answer<[u32; 2]>, HostError> {
    body.place(self_origin(body))?;
    let tree = body.tree().clone();
    body.on_one(SelfPairs { tree: &tree })
}

struct Contacts {
    origin: [f64; 3],
    /// The two states as given, relative to the origin.
    exact: [Exact; 2],
    /// With a stiffness, the penalty forces of the contacts too.
    stiffness: Option<f64>,
}

impl OnTwo for Contacts {
    type Out = Result<(Answer<Contact>, Option<[Wrench; 2]>), HostError>;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out {
        let mut stats = QueryStats::default();
        let mut items = Vec::new();
        if S::BYTES < 8 {
            // f32: the pairs refined in f64, each with its contact computed in f64 on the
            // triangles the refinement tested — as many contacts as refined pairs.
            let error = refine_error(a) + refine_error(b);
            for p in kernel_pairs(a, b, &mut stats)? {
                let [ea, eb] = &self.exact;
                let (Some(ta), Some(tb)) = (ea.triangle(a, p.a), eb.triangle(b, p.b)) else {
                    continue;
                };
                let c = refined_contact(&ta, &tb, error);
                items.push(Contact {
                    triangles: [p.a, p.b],
                    point: std::array::from_fn(|k| c.point[k] + self.origin[k]),
                    normal: c.normal,
                    depth: c.depth,
                });
            }
        } else {
            let mut stack = Stack::take(stack_capacity(a.tree().depth(), b.tree().depth()));
            let origin = self.origin;
            let outcome = collide_contacts(a, b, &mut stack, &mut |p: ContactPoint<S>| {
                items.push(Contact {
                    triangles: [p.a, p.b],
                    point: world(p.contact.point, origin),
                    normal: wide(p.contact.normal),
                    depth: p.contact.depth.to_f64().max(0.0),
                });
                true
            });
            complete("collide_contacts", &outcome)?;
            stats.add(&outcome.stats);
        }
        items.sort_by_key(|c| c.triangles);
        let forces = self
            .stiffness
            .map(|k| contact_wrenches(a, b, &items, k, self.origin));
        Ok((Answer { items, stats }, forces))
    }
}

/// The penalty wrenches of exact contacts ([`respond_contact`]: `k d n` on b at the point, on
/// its triangle; the negative on a), in the bodies' scalar, widened.
fn contact_wrenches<S: Scalar>(
    a: &KernelBody<'_, '_, S>,
    b: &KernelBody<'_, '_, S>,
    contacts: &[Contact],
    stiffness: f64,
    origin: [f64; 3],
) -> [Wrench; 2] {
    let mut wa = ScalarWrench::<S>::new(a.tree().modes());
    let mut wb = ScalarWrench::<S>::new(b.tree().modes());
    for c in contacts {
        let contact = ContactPoint {
            a: c.triangles[0],
            b: c.triangles[1],
            contact: TriangleContact {
                point: std::array::from_fn(|k| S::from_f64(c.point[k] - origin[k])),
                normal: c.normal.map(S::from_f64),
                depth: S::from_f64(c.depth),
            },
        };
        let _ = respond_contact(a, b, &contact, S::from_f64(stiffness), wa.view(), wb.view());
    }
    [wa.wide(), wb.wide()]
}

/// Every intersecting triangle pair of `a` and `b` with its contact (point, normal, depth;
/// see [`Contact`]), sorted by triangles, at the pair's floating origin. In f32 the pairs are
/// those of [`pairs`] (refined in f64) and each contact is computed in f64 on the triangles the
/// refinement tested: one contact per refined pair, none with a negative depth.
pub fn contacts(a: &mut Body, b: &mut Body) -> Result<Answer<Contact>, HostError> {
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    let exact = [Exact::new(a.state(), origin), Exact::new(b.state(), origin)];
    let query = Contacts {
        origin,
        exact,
        stiffness: None,
    };
    Ok(Body::on_two(a, b, query)??.0)
}

/// [`contacts`] with the generalized forces of a penalty response: each contact pushes body b
/// by `stiffness · depth` along its normal at its point (on its triangle, so the reduced force
/// is the exact virtual work `Σ λ_i U_iᵀ Rᵀ f` of that point of the surface, see
/// [`bdtree_core::world::response`]) and body a by the opposite. Returns the contacts and the two
/// bodies' wrenches (computed in the bodies' precision, widened).
pub fn contact_forces(
    a: &mut Body,
    b: &mut Body,
    stiffness: f64,
) -> Result<(Answer<Contact>, [Wrench; 2]), HostError> {
    if !(stiffness.is_finite() && stiffness >= 0.0) {
        return Err(HostError::Argument {
            name: "stiffness",
            message: format!("{stiffness} must be finite and at least 0"),
        });
    }
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    let exact = [Exact::new(a.state(), origin), Exact::new(b.state(), origin)];
    let query = Contacts {
        origin,
        exact,
        stiffness: Some(stiffness),
    };
    let (answer, forces) = Body::on_two(a, b, query)??;
    let forces = forces.unwrap_or_else(|| [Wrench::default(), Wrench::default()]);
    Ok((answer, forces))
}

struct Within {
    origin: [f64; 3],
    distance: f64,
    exact: [Exact; 2],
}

impl OnTwo for Within {
    type Out = Result<Answer<Near>, HostError>;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out {
        let mut stack = Stack::take(stack_capacity(a.tree().depth(), b.tree().depth()));
        let mut found = Vec::new();
        // Rounded up so that `S`'s distance is not below the one asked for.
        let d = S::from_f64(self.distance * (1.0 + 4.0 * S::UNIT_ROUNDOFF.to_f64()));
        let outcome = kernel_within(a, b, d, &mut stack, &mut |p: NearPair<S>| {
            found.push(p);
            true
        });
        complete("within", &outcome)?;
        let origin = self.origin;
        let mut items = Vec::with_capacity(found.len());
        // In f32, each pair's distance again in f64 on the stored model (bound: the refine
        // bound of each vertex, √3 of it per point); pairs then farther than the distance are
        // dropped.
        let error = (3.0f64).sqrt() * (refine_error(a) + refine_error(b)) * (1.0 + 1e-12);
        for p in &found {
            let [ea, eb] = &self.exact;
            let near = match (S::BYTES < 8).then(|| (ea.triangle(a, p.a), eb.triangle(b, p.b))) {
                Some((Some(ta), Some(tb))) => {
                    // `closest_points` is 0 up to rounding for intersecting triangles, and an
                    // intersecting pair is kept whatever its features' distance.
                    let (d2, pa, pb) = closest_points(&ta, &tb);
                    let dist = d2.sqrt();
                    if dist > self.distance + error && !triangles_may_intersect(&ta, &tb, error) {
                        continue;
                    }
                    let intersecting = triangle_contact(&ta, &tb, error).is_some();
                    let (x, y) = match intersecting {
                        true => {
                            let c = refined_contact(&ta, &tb, error).point;
                            (c, c)
                        }
                        false => (pa, pb),
                    };
                    Near {
                        triangles: [p.a, p.b],
                        distance: if intersecting { 0.0 } else { dist },
                        points: [
                            std::array::from_fn(|k| x[k] + origin[k]),
                            std::array::from_fn(|k| y[k] + origin[k]),
                        ],
                    }
                }
                _ => Near {
                    triangles: [p.a, p.b],
                    distance: p.distance.to_f64(),
                    points: [world(p.point_a, origin), world(p.point_b, origin)],
                },
            };
            items.push(near);
        }
        items.sort_by_key(|n| n.triangles);
        Ok(Answer {
            items,
            stats: outcome.stats,
        })
    }
}

/// Every triangle pair of `a` and `b` at most `distance` apart (intersecting pairs at 0), with
/// its distance and witness points, sorted, at the pair's floating origin. Conservative: every
/// pair within `distance` at the states as given is reported. In f32 each pair's distance and
/// witnesses are computed again in f64 on the stored model and pairs then farther than
/// `distance` plus the refine bound are dropped.
pub fn within(a: &mut Body, b: &mut Body, distance: f64) -> Result<Answer<Near>, HostError> {
    if !(distance >= 0.0 && distance.is_finite()) {
        return Err(HostError::Argument {
            name: "distance",
            message: format!("{distance} must be finite and at least 0"),
        });
    }
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    let exact = [Exact::new(a.state(), origin), Exact::new(b.state(), origin)];
    Body::on_two(
        a,
        b,
        Within {
            origin,
            distance,
            exact,
        },
    )?
}

struct Distance {
    origin: [f64; 3],
    exact: [Exact; 2],
}

impl OnTwo for Distance {
    type Out = Result<(Nearest, QueryStats), HostError>;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out {
        let mut stack = Stack::take(stack_capacity(a.tree().depth(), b.tree().depth()));
        let mut answer = None;
        let outcome = nearest(a, b, &mut stack, &mut answer);
        let n = match answer {
            Some(n) if outcome.status.is_complete() => n,
            _ => {
                return Err(HostError::Incomplete {
                    query: "distance",
                    status: outcome.status,
                })
            }
        };
        let origin = self.origin;
        let mut out = Nearest {
            distance: n.distance.to_f64(),
            points: [world(n.point_a, origin), world(n.point_b, origin)],
            normal: wide(n.normal),
            triangles: [n.triangle_a, n.triangle_b],
            intersecting: n.intersecting,
        };
        // In f32, the witnesses' triangles again in f64 on the stored model.
        if S::BYTES < 8 && !n.intersecting {
            if let (Some(ta), Some(tb)) = (
                self.exact[0].triangle(a, n.triangle_a),
                self.exact[1].triangle(b, n.triangle_b),
            ) {
                let (d2, pa, pb) = closest_points(&ta, &tb);
                let d = d2.sqrt();
                if d.is_finite() {
                    out.distance = d;
                    out.points = [
                        std::array::from_fn(|k| pa[k] + origin[k]),
                        std::array::from_fn(|k| pb[k] + origin[k]),
                    ];
                    if let Some(normal) = unit(std::array::from_fn(|k| pb[k] - pa[k])) {
                        out.normal = normal;
                    }
                }
            }
        }
        Ok((out, outcome.stats))
    }
}

/// The nearest points of `a` and `b` (distance 0 when they intersect), at the pair's floating
/// origin. In f32 the witnesses are computed again in f64 on their triangles of the stored
/// model: the distance is then that of the two triangles the f32 search found nearest, within
/// the refine bound of the bodies' true distance.
pub fn distance(a: &mut Body, b: &mut Body) -> Result<(Nearest, QueryStats), HostError> {
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    let exact = [Exact::new(a.state(), origin), Exact::new(b.state(), origin)];
    Body::on_two(a, b, Distance { origin, exact })?
}

pub(crate) fn check_nested(a: &Body, b: &Body) -> Result<(), HostError> {
    for (body, which) in [(a, "a"), (b, "b")] {
        if !body.tree().nested() {
            return Err(HostError::NotNested { which });
        }
    }
    Ok(())
}

/// The overlapping contact proxies of `a` and `b` — nodes at depth `depth_a` of a and
/// `depth_b` of b, or leaves above them — with their world spheres and penetration depths,
/// sorted by nodes. Each body stays at its own origin and the spheres are compared in f64
/// (the pair's relative frame: proxies are spheres only, see [`super::relative`]), so a body
/// in many pairs computes each sphere once per state. The trees must be nested.
pub fn proxies(
    a: &mut Body,
    depth_a: u32,
    b: &mut Body,
    depth_b: u32,
) -> Result<Answer<Proxy>, HostError> {
    check_nested(a, b)?;
    relative::proxies(a, depth_a, b, depth_b)
}

/// [`proxies`] with the penalty forces of the proxy contacts ([`Proxy::penalty`]: `stiffness ·
/// depth` along the centre line, at the middle of the overlap, in f64; each body's share
/// applied at its proxy node through the node's `Ū`, [`bdtree_core::apply_at_node_mut`], at
/// the body's own origin). Returns the proxies and the two bodies' wrenches.
pub fn proxy_forces(
    a: &mut Body,
    depth_a: u32,
    b: &mut Body,
    depth_b: u32,
    stiffness: f64,
) -> Result<(Answer<Proxy>, [Wrench; 2]), HostError> {
    check_stiffness(stiffness)?;
    let answer = proxies(a, depth_a, b, depth_b)?;
    let wrenches = proxy_wrenches(a, b, &answer.items, stiffness)?;
    Ok((answer, wrenches))
}

/// The stiffness of a penalty response: finite and at least 0.
pub(crate) fn check_stiffness(stiffness: f64) -> Result<(), HostError> {
    if stiffness.is_finite() && stiffness >= 0.0 {
        return Ok(());
    }
    Err(HostError::Argument {
        name: "stiffness",
        message: format!("{stiffness} must be finite and at least 0"),
    })
}

/// The two bodies' wrenches of the penalty contacts of `proxies` (of `a` and `b`, in this
/// order), each body's forces applied at its own origin.
pub(crate) fn proxy_wrenches(
    a: &mut Body,
    b: &mut Body,
    proxies: &[Proxy],
    stiffness: f64,
) -> Result<[Wrench; 2], HostError> {
    let mut on_a = Vec::new();
    let mut on_b = Vec::new();
    for p in proxies {
        if let Some(c) = p.penalty(stiffness) {
            on_a.push((p.nodes[0] as usize, c.point, c.force.map(|x| -x)));
            on_b.push((p.nodes[1] as usize, c.point, c.force));
        }
    }
    Ok([apply_forces(a, &on_a)?, apply_forces(b, &on_b)?])
}

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
                items.push(Swept {
                    triangles: [p.a, p.b],
                    time: p.time.to_f64(),
                });
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
