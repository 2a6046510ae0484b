//! [`distance`] (the nearest points of two bodies, the kernel's [`bdtree_core::nearest`]) and
//! [`closer_than`] (whether they come within a distance, with an early exit) — the host's
//! counterpart of [`bdtree_core::query::separation`].
//!
//! # Closer than `d`
//!
//! "Are these bodies closer than `d`?" — the safety monitor's question, answered with an early
//! exit and settled in f64 against the caller's state: [`closer_than`] for two bodies,
//! [`crate::host::World::closer_than`] for every body pair of a world.
//!
//! # What the answer guarantees
//!
//! Let `D` be the distance of the two bodies by the f64 brute force on the explicitly deformed
//! meshes at the states as given (the least distance over every triangle pair; 0 when they
//! intersect), and `ε` the pair's rounding bound of [`crate::host::placing`]
//! (`256 u (x_a + x_b + ‖t_a − t_b‖)`, `u` the tree precision's unit roundoff):
//!
//! * `D ≤ d` ⇒ the answer is **yes** (never a false "no"; touching counts at `d = 0`);
//! * a **yes** comes with a witness: a triangle pair whose distance, computed again in f64 on
//!   the stored model at the state as given, is at most `d` plus that recomputation's bound
//!   ([`bdtree_core::refine_error`], `√3` of it per point) — so `D ≤ d + ε`.
//!
//! Between `d` and `d + ε` (ties, exact touching under rounding) either answer may come. In
//! f32 that band is the pair's own (its sizes and its distance, not where the pair sits), in
//! f64 it is `~10⁻¹⁵` of the pair's size.
//!
//! # How
//!
//! At the pair's floating origin ([`crate::host::placing::pair_origin`]): the kernel's
//! [`bdtree_core::query::separation::closer_than`] (nearest-first, pruned at `d` from the root,
//! stopping at the first leaf pair within `d` plus its error bound). Its "no" is final (it never
//! says "not closer" for bodies within `d` at the state as given, whose rounding its error
//! bound includes). Its "yes" is a "maybe" in the tree's precision: it is settled by the
//! kernel's [`bdtree_core::within`] walk at `d`, each pair it reaches measured again in f64 on
//! the stored model at the state as given, stopping at the first pair within `d` plus the
//! measurement's bound — the witness. Cost: one pruned walk for "no"; for "yes" two walks, each
//! stopping early.

use bdtree_core::geometry::closest::closest_points;
use bdtree_core::geometry::triangle::triangles_may_intersect;
use bdtree_core::query::separation::{closer_than as kernel_closer_than, nearest};
use bdtree_core::{
    refine_error, stack_capacity, within as kernel_within, Body as KernelBody, NearPair,
    QueryStats, QueryStatus, Scalar,
};

use super::contacts::unit;
use crate::host::answer::{wide, world, Nearest};
use crate::host::body::{Body, Exact, OnTwo};
use crate::host::error::HostError;
use crate::host::placing::pair_origin;
use crate::host::stack::Stack;

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

/// The witness of a "yes" of [`closer_than`]: a triangle pair within the distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Closer {
    /// Triangle of the first body and of the second.
    pub triangles: [u32; 2],
    /// Their distance, in f64 on the stored model at the states as given (0 when they may
    /// intersect): at most the distance asked for plus the recomputation's bound.
    pub distance: f64,
}

struct CloserThan {
    distance: f64,
    exact: [Exact; 2],
}

/// The f64 tolerance of a triangle pair measured again on the stored model: each point moves
/// by at most `√3` of each body's per-coordinate bound, plus the f64 distance computation's
/// own rounding on coordinates of magnitude `size`.
fn tolerance<S: Scalar>(a: &KernelBody<'_, '_, S>, b: &KernelBody<'_, '_, S>) -> f64 {
    (3.0f64).sqrt() * (refine_error(a) + refine_error(b)) * (1.0 + 1e-12)
}

fn magnitude(t: &[[f64; 3]; 3]) -> f64 {
    t.iter()
        .flat_map(|v| v.iter())
        .fold(0.0f64, |m, x| m.max(x.abs()))
}

impl OnTwo for CloserThan {
    type Out = Result<(Option<Closer>, QueryStats), HostError>;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out {
        let mut stats = QueryStats::default();
        let mut stack = Stack::take(stack_capacity(a.tree().depth(), b.tree().depth()));
        // Rounded up, so that `S`'s distance is not below the one asked for.
        let d = S::from_f64(self.distance * (1.0 + 4.0 * S::UNIT_ROUNDOFF.to_f64()));
        let mut closer = true;
        let first = kernel_closer_than(a, b, d, S::ZERO, &mut stack, &mut closer);
        stats.add(&first.stats);
        if first.status.is_complete() && !closer {
            return Ok((None, stats));
        }
        // (Incomplete: the walk could not complete; the walk below ends with the status that says
        // why, or answers in full.)
        // Settle the "maybe" in f64: the first pair within `d` (plus the measurement's bound)
        // on the stored model at the states as given.
        let tol = tolerance(a, b);
        let (model_a, model_b) = (*a.model(), *b.model());
        let [ea, eb] = &self.exact;
        let limit = self.distance;
        let mut witness = None;
        let outcome = kernel_within(a, b, d, &mut stack, &mut |p: NearPair<S>| {
            let (Some(ta), Some(tb)) = (
                ea.model_triangle(&model_a, p.a),
                eb.model_triangle(&model_b, p.b),
            ) else {
                return true;
            };
            let (d2, _, _) = closest_points(&ta, &tb);
            let gap = d2.sqrt();
            let slack = tol + 64.0 * f64::EPSILON * (magnitude(&ta) + magnitude(&tb) + limit);
            let touching = triangles_may_intersect(&ta, &tb, tol);
            if touching || gap <= limit + slack {
                witness = Some(Closer {
                    triangles: [p.a, p.b],
                    distance: if touching { 0.0 } else { gap },
                });
                return false;
            }
            true
        });
        stats.add(&outcome.stats);
        match (witness, outcome.status) {
            (Some(w), _) => Ok((Some(w), stats)),
            (None, QueryStatus::Complete) => Ok((None, stats)),
            (None, status) => Err(HostError::Incomplete {
                query: "closer_than",
                status,
            }),
        }
    }
}

/// Whether `a` and `b` come within `distance` of each other (touching counts), with a
/// witness triangle pair when they do, at the pair's floating origin; see the
/// [module docs](self) for what is guaranteed (never a false "no"; a "yes" within the pair's
/// rounding bound of `distance`) and how it is settled in f64. `distance` must be finite and
/// at least 0.
pub fn closer_than(
    a: &mut Body,
    b: &mut Body,
    distance: f64,
) -> Result<(Option<Closer>, QueryStats), HostError> {
    crate::host::check::distance(distance)?;
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    let exact = [Exact::new(a.state(), origin), Exact::new(b.state(), origin)];
    Body::on_two(a, b, CloserThan { distance, exact })?
}
