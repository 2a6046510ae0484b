//! [`contacts`] (point, normal and depth of every intersecting triangle pair),
//! [`contact_forces`] (with their penalty wrenches) and [`within`] (every triangle pair closer
//! than a distance, with witnesses) — the kernel's [`bdtree_core::collide_contacts`] and
//! [`bdtree_core::within`] ([`bdtree_core::query::contacts`]); in f32 each contact and distance
//! is computed again in f64 on the triangles found.

use bdtree_core::geometry::closest::closest_points;
use bdtree_core::geometry::triangle::triangles_may_intersect;
use bdtree_core::{
    collide_contacts, refine_error, respond_contact, stack_capacity, triangle_contact,
    within as kernel_within, Body as KernelBody, ContactPoint, NearPair, QueryStats, Scalar,
    TriangleContact,
};

use super::triangles::kernel_pairs;
use crate::host::answer::{wide, world, Answer, Contact, Near, ScalarWrench, Wrench};
use crate::host::body::{Body, Exact, OnTwo};
use crate::host::check;
use crate::host::error::HostError;
use crate::host::placing::pair_origin;
use crate::host::stack::{complete, Stack};

pub(super) fn unit(v: [f64; 3]) -> Option<[f64; 3]> {
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
/// those of [`super::pairs`] (refined in f64) and each contact is computed in f64 on the triangles the
/// refinement tested: one contact per refined pair, none with a negative depth.
pub fn contacts(a: &mut Body, b: &mut Body) -> Result<Answer<Contact>, HostError> {
    Ok(placed_contacts(a, b, None)?.0)
}

/// The contacts of `a` and `b` at the pair's floating origin, with the penalty forces of
/// `stiffness` when given.
fn placed_contacts(
    a: &mut Body,
    b: &mut Body,
    stiffness: Option<f64>,
) -> Result<(Answer<Contact>, Option<[Wrench; 2]>), HostError> {
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    let exact = [Exact::new(a.state(), origin), Exact::new(b.state(), origin)];
    let query = Contacts {
        origin,
        exact,
        stiffness,
    };
    Body::on_two(a, b, query)?
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
    check::stiffness(stiffness)?;
    let (answer, forces) = placed_contacts(a, b, Some(stiffness))?;
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
    crate::host::check::distance(distance)?;
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
