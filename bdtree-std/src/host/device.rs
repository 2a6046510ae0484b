//! **The device's path**, a [`super::World`] option ([`super::Placement::Device`]): every
//! body's state rounded to the tree's scalar first and taken as exact at the world origin, as a
//! device given `S` values computes it; the kernel's own world query ([`collide_world`]: its broad
//! phase on root spheres, then the pair and self queries) and [`collide_world_primitives`],
//! each primitive placed in `S` by the kernel's pose ([`Primitive::device`]); with a proxy
//! depth, every body pair's [`collide_proxies`]. No second stage: in f32 the answer holds the
//! widened test's extras. The firmware replay's reference (`cargo xtask firmware-pack`).
//!
//! A body's geometry on this path ([`Body::device_level_spheres`], [`Body::device_triangles`]):
//! what the kernel computes from that state, in `S`, widened to f64 — the spheres and
//! triangles a device holds, drawn as they are.
//!
//! A query on this path leaves each kernel body at its device state; the next query of the
//! other placement places it again ([`Body::set_device_state`]).

use std::marker::PhantomData;

use bdtree_core::{
    collide_proxies, collide_world, collide_world_primitives, primitive_stack_capacity,
    proxy_stack_capacity, self_stack_capacity, stack_capacity, AllPairs, Body as KernelBody,
    ProxyPair, QueryStats, QueryStatus, Scalar, SweepAndPrune, WorldBodies, WorldContact,
    WorldOutcome, WorldPair,
};

use super::body::{Body, InKernel, OnOne};
use super::error::HostError;
use super::geometry::LevelSpheres;
use super::primitive::Primitive;
use super::query::Proxy;
use super::stack::Stack;
use crate::build::Precision;

/// Items of a device query: the two bodies (a primitive `p` numbered `n + p`) and the item.
pub(crate) type Items<T> = Vec<([usize; 2], T)>;

/// The kernel bodies of a world's host bodies, in scalar `S`, as the kernel's world queries
/// take them.
struct Kernels<'w, S> {
    bodies: &'w mut [Body],
    scalar: PhantomData<S>,
}

impl<S: InKernel> WorldBodies<'static, 'static, S> for Kernels<'_, S> {
    fn count(&self) -> usize {
        self.bodies.len()
    }

    fn body(&mut self, i: usize) -> Option<&mut KernelBody<'static, 'static, S>> {
        self.bodies.get_mut(i)?.kernel_in::<S>()
    }

    fn pair(
        &mut self,
        i: usize,
        j: usize,
    ) -> Option<(
        &mut KernelBody<'static, 'static, S>,
        &mut KernelBody<'static, 'static, S>,
    )> {
        if i >= j {
            return None;
        }
        let (head, tail) = self.bodies.split_at_mut_checked(j)?;
        Some((
            head.get_mut(i)?.kernel_in()?,
            tail.first_mut()?.kernel_in()?,
        ))
    }
}

/// Every body at its device state: their kernel bodies, and a pair stack for every query of
/// the path.
fn prepare<S: InKernel>(bodies: &mut [Body]) -> Result<(Kernels<'_, S>, Stack), HostError> {
    let mut depth = 0;
    for body in bodies.iter_mut() {
        body.set_device_state::<S>()?;
        depth = depth.max(body.tree().depth());
    }
    let capacity = stack_capacity(depth, depth)
        .max(proxy_stack_capacity(depth, depth, depth, depth))
        .max(self_stack_capacity(depth))
        .max(primitive_stack_capacity(depth));
    let kernels = Kernels {
        bodies,
        scalar: PhantomData,
    };
    Ok((kernels, Stack::take(capacity)))
}

fn complete(query: &'static str, outcome: &WorldOutcome) -> Result<(), HostError> {
    match outcome.status {
        QueryStatus::Complete => Ok(()),
        status => Err(HostError::Incomplete { query, status }),
    }
}

/// [`super::World::pairs`] on the device's path: every intersecting triangle pair `[ta, tb]`
/// of distinct bodies (with `self_pairs`, of each body with itself) and every triangle
/// touching a primitive (`[t, 0]`), unsorted, with the kernel's counters.
pub(crate) fn pairs(
    bodies: &mut [Body],
    primitives: &[Primitive],
    order: &mut Vec<u32>,
    self_pairs: bool,
) -> Result<(Items<[u32; 2]>, QueryStats), HostError> {
    match bodies.first().map(Body::precision) {
        None => Ok((Vec::new(), QueryStats::default())),
        Some(Precision::F32) => pairs_in::<f32>(bodies, primitives, order, self_pairs),
        Some(Precision::F64) => pairs_in::<f64>(bodies, primitives, order, self_pairs),
    }
}

fn pairs_in<S: InKernel>(
    bodies: &mut [Body],
    primitives: &[Primitive],
    order: &mut Vec<u32>,
    self_pairs: bool,
) -> Result<(Items<[u32; 2]>, QueryStats), HostError> {
    let (mut kernels, mut stack) = prepare::<S>(bodies)?;
    let n = kernels.count();
    let mut stats = QueryStats::default();
    let mut found = Vec::new();
    order.resize(n, 0);
    let mut sweep = SweepAndPrune::new(order);
    let mut roots = vec![[S::ZERO; 4]; n];
    let filter = |i: usize, j: usize| i != j || self_pairs;
    let outcome = collide_world(
        &mut kernels,
        &mut sweep,
        &mut roots,
        &filter,
        &mut stack,
        &mut |p: WorldPair| {
            found.push(([p.a as usize, p.b as usize], [p.triangles.a, p.triangles.b]));
            true
        },
    );
    complete("device world", &outcome)?;
    stats.add(&outcome.stats);
    if !primitives.is_empty() {
        let placed = primitives
            .iter()
            .map(Primitive::device::<S>)
            .collect::<Result<Vec<_>, _>>()?;
        let outcome = collide_world_primitives(
            &mut kernels,
            &placed,
            &AllPairs,
            &mut stack,
            &mut |c: WorldContact<S>| {
                let bodies = [c.body as usize, n + c.primitive as usize];
                found.push((bodies, [c.contact.a, c.contact.b]));
                true
            },
        );
        complete("device world primitives", &outcome)?;
        stats.add(&outcome.stats);
    }
    Ok((found, stats))
}

/// [`super::World::proxies`] on the device's path: the overlapping proxies at `depth` of
/// every pair of distinct bodies ([`collide_proxies`], no broad phase), unsorted, with the
/// kernel's counters.
pub(crate) fn proxies(
    bodies: &mut [Body],
    depth: u32,
) -> Result<(Items<Proxy>, QueryStats), HostError> {
    match bodies.first().map(Body::precision) {
        None => Ok((Vec::new(), QueryStats::default())),
        Some(Precision::F32) => proxies_in::<f32>(bodies, depth),
        Some(Precision::F64) => proxies_in::<f64>(bodies, depth),
    }
}

fn proxies_in<S: InKernel>(
    bodies: &mut [Body],
    depth: u32,
) -> Result<(Items<Proxy>, QueryStats), HostError> {
    let (mut kernels, mut stack) = prepare::<S>(bodies)?;
    let n = kernels.count();
    let mut stats = QueryStats::default();
    let mut found = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let Some((a, b)) = kernels.pair(i, j) else {
                continue;
            };
            let wide = |s: [S; 4]| s.map(|x| x.to_f64());
            let outcome =
                collide_proxies(a, b, depth, depth, &mut stack, &mut |p: ProxyPair<S>| {
                    let proxy = Proxy {
                        nodes: [p.a, p.b],
                        spheres: [wide(p.sphere_a), wide(p.sphere_b)],
                        depth: p.depth.to_f64(),
                    };
                    found.push(([i, j], proxy));
                    true
                });
            super::stack::complete("device proxies", &outcome)?;
            stats.add(&outcome.stats);
        }
    }
    Ok((found, stats))
}

/// Every triangle of a kernel body at its state, in its scalar, widened.
struct Triangles;

impl OnOne for Triangles {
    type Out = Vec<[[f64; 3]; 3]>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        (0..body.model().triangles().len())
            .filter_map(|t| body.world_triangle(t))
            .map(|tri| tri.map(|v| v.map(S::to_f64)))
            .collect()
    }
}

impl Body {
    /// Runs `query` on the kernel body at its device state.
    fn on_device<Q: OnOne>(&mut self, query: Q) -> Result<Q::Out, HostError> {
        match self.precision() {
            Precision::F32 => self.set_device_state::<f32>()?,
            Precision::F64 => self.set_device_state::<f64>()?,
        }
        Ok(self.on_one(query))
    }

    /// [`Body::level_spheres`] on the device's path: the world spheres of the tree's cut at
    /// `level`, each with its growth `r(q) / r_rest`, as the kernel computes them from the
    /// state rounded to the tree's scalar at the world origin (taken as exact: no rounding of
    /// the caller's state widens them), widened to f64. Cost: one sphere update per node of
    /// the cut and its ancestors.
    pub fn device_level_spheres(&mut self, level: u32) -> Result<Vec<([f64; 4], f64)>, HostError> {
        self.on_device(LevelSpheres { level })
    }

    /// Every triangle on the device's path, in the mesh's order: the kernel's deformation in
    /// the tree's scalar at the state rounded to it at the world origin (what the device's
    /// triangle tests read), widened to f64. [`Body::triangle`] gives the f64 one. Cost:
    /// `3 (3M + 9)` multiply-adds per triangle (fewer with the vertex cache).
    pub fn device_triangles(&mut self) -> Result<Vec<[[f64; 3]; 3]>, HostError> {
        self.on_device(Triangles)
    }
}
