//! [`World`]: many bodies and primitives, every query over all of them, each body pair answered
//! at its own floating origin ([`super::placing`]) and still fast.
//!
//! # How a world query runs
//!
//! 1. **At each body's own origin** (its translation, where [`Body::set_state`] leaves it):
//!    its root sphere, moved to world coordinates in f64, for sweep-and-prune over all bodies
//!    ([`bdtree_core::SweepAndPrune`]); its self pairs and its queries against primitives
//!    (their rule is the body's own origin too); and, for every candidate pair, a
//!    **certificate of separation**: the two bodies' spheres down to depth [`CERTIFICATE_DEPTH`],
//!    each at its own origin and compared in f64 world coordinates, descending only where
//!    they overlap. A pair whose spheres all come apart cannot touch (every sphere encloses
//!    its node's geometry at the state as given, its rounding included) and is settled
//!    without placing it.
//! 2. **At each remaining pair's origin**: both bodies are placed there and the pair query of
//!    [`super::query`] runs on them — exactly what a two-body call gives.
//!
//!
//! Contact proxies skip phase 2: they are spheres only, so each candidate pair's proxy walk
//! runs at the two bodies' own origins, comparing their spheres in f64 (the pair's relative
//! frame, [`super::relative`]) — no placement at all, every sphere computed once per state.
//!
//! **Threads.** [`World::set_threads`] answers the bodies (phase 1, primitives) and the body
//! pairs (certificates, pair queries, proxies, wrenches) on several threads, in rounds of pairs
//! that share no body (the host's `parallel` module); the answers are the serial run's, bit for bit
//! (each pair's answer depends only on its two bodies' states, and they are gathered in pair
//! order). The default is one thread.
//!
//! **Broad phase.** [`BroadPhase`]: sweep-and-prune, the hashed uniform grid
//! ([`bdtree_core::UniformGrid`]), or either by the body count ([`BroadPhase::Auto`], the
//! default: the grid from [`AUTO_GRID_BODIES`] on). The candidates are sorted, so the answer is the same whichever runs.
//!
//! So the sphere caches are shared, at the bodies' own origins, by the broad phase, the
//! certificates, self pairs and primitives, and only pairs that may touch pay for a placement
//! of their own (two `O(M)` state updates and the spheres their walk visits). The answer of a
//! settled pair is empty where a pair query could at most have reported an extra within its
//! rounding bound; every other pair's answer is the pair query's, bit for bit.

use bdtree_core::{
    AllPairs, Body as KernelBody, GridStatus, NodeKind, QueryStats, Scalar, SweepAndPrune,
    UniformGrid,
};

use super::body::{Body, OnOne, OnTwo};
use super::device;
use super::error::HostError;
use super::parallel::Threads;
use super::placing::{self_origin, Placement};
use super::primitive::Primitive;
use super::query::swept::front::{self, Fronts};
use super::query::{self, Answer, Contact, Near, Nearest, PrimitiveProxy, Proxy, Swept, Wrench};
use super::relative;

/// How deep the certificate of separation of phase 1 descends (module docs): deep enough to
/// settle most candidate pairs of bodies whose root spheres overlap loosely (on the falling
/// chairs, 7 in 8 of the candidate pairs), shallow enough to cost less than a placement.
pub const CERTIFICATE_DEPTH: u32 = 6;

/// Which broad phase a [`World`] runs over its root spheres (module docs). The candidate pairs
/// are the same whichever runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BroadPhase {
    /// Sweep-and-prune along x ([`bdtree_core::SweepAndPrune`]).
    Sweep,
    /// The hashed uniform grid ([`bdtree_core::UniformGrid`]).
    Grid,
    /// The grid from [`AUTO_GRID_BODIES`] bodies on, the sweep below.
    #[default]
    Auto,
}

/// From how many bodies [`BroadPhase::Auto`] runs the grid: counted instructions per body
/// (the book's broad-phase chapter) put the grid ahead on a heap from about 500 bodies (1.5×
/// fewer at 1,000, 3.2× at 3,601) and level with the sweep on a floor at 3,601 (1.8× more at
/// 1,000); below 1,000 bodies both cost microseconds.
pub const AUTO_GRID_BODIES: usize = 1000;

/// One item of a world's answer: the two bodies (`a < b`; `a == b` for a self pair; a
/// primitive `p` numbered `n + p` after the `n` bodies) and the pair query's item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found<T> {
    /// The two bodies.
    pub bodies: [usize; 2],
    /// The item.
    pub item: T,
}

/// A world query's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldAnswer<T> {
    /// The items, sorted by bodies, then as the pair queries sort them.
    pub found: Vec<Found<T>>,
    /// The kernel's counters summed over every query run.
    pub stats: QueryStats,
    /// Body pairs whose root spheres overlap (the broad phase's candidates).
    pub candidates: usize,
    /// Candidates settled by their certificate of separation (not placed, no query).
    pub settled: usize,
}

impl<T> Default for WorldAnswer<T> {
    fn default() -> Self {
        WorldAnswer {
            found: Vec::new(),
            stats: QueryStats::default(),
            candidates: 0,
            settled: 0,
        }
    }
}

impl<T> WorldAnswer<T> {
    fn add(&mut self, bodies: [usize; 2], answer: Answer<T>) {
        self.stats.add(&answer.stats);
        self.found
            .extend(answer.items.into_iter().map(|item| Found { bodies, item }));
    }

    fn add_found(&mut self, found: Vec<([usize; 2], T)>, stats: QueryStats) {
        self.stats.add(&stats);
        self.found.extend(
            found
                .into_iter()
                .map(|(bodies, item)| Found { bodies, item }),
        );
    }
}

/// Many bodies (of one precision) and rigid primitives, with their states.
///
/// ```
/// # use bdtree_std::host::{Body, Tree, World};
/// # use bdtree_std::build::BuildOptions;
/// let mesh = bdtree_std::shapes::procedural::icosphere(1.0, 2);
/// let (tree, _) = Tree::build(&mesh, None, BuildOptions::default())?;
/// let mut world = World::new(vec![Body::new(&tree)?, Body::new(&tree)?], Vec::new())?;
/// world.set_state(1, [1.0, 0.0, 0.0, 0.0], [1.5, 0.0, 0.0], &[])?;
/// let contacts = world.contacts()?;
/// assert!(contacts.found.iter().all(|f| f.bodies == [0, 1] && f.item.depth >= 0.0));
/// # Ok::<(), bdtree_std::host::HostError>(())
/// ```
pub struct World {
    bodies: Vec<Body>,
    primitives: Vec<Primitive>,
    /// Sweep-and-prune order storage (kept between queries: cheap re-sorts).
    order: Vec<u32>,
    /// The certificates' node-pair stack (kept between queries).
    certificate: Vec<(u32, u32)>,
    /// Where [`World::pairs`] and [`World::proxies`] place the bodies.
    placement: Placement,
    /// The grid's storage (kept between queries).
    grid: Vec<u32>,
    broad: BroadPhase,
    threads: Threads,
}

/// A body's root sphere, at its own origin, in world coordinates (f64), grown by the f64
/// rounding of the move.
struct RootSphere;

impl OnOne for RootSphere {
    type Out = Result<[f64; 4], HostError>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        body.sphere(0)
            .map(|s| s.map(S::to_f64))
            .ok_or(HostError::Body {
                message: "the tree has no root".to_string(),
            })
    }
}

/// `sphere` (relative to `origin`) in the world, its radius grown by the rounding of the
/// addition (`2u₆₄` of the coordinates, per axis).
fn to_world(sphere: [f64; 4], origin: [f64; 3]) -> [f64; 4] {
    let c: [f64; 3] = std::array::from_fn(|k| sphere[k] + origin[k]);
    let size = c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let slack = 4.0 * f64::EPSILON * (size + sphere[3]);
    [c[0], c[1], c[2], sphere[3] + slack]
}

/// The certificate of separation of the module docs, on two kernel bodies each placed at
/// its own origin: `delta` is `origin_a − origin_b` (f64). `true` when it cannot prove them
/// farther apart than `reach`.
struct Certificate<'s> {
    delta: [f64; 3],
    reach: f64,
    /// How deep it descends.
    depth: u32,
    stack: &'s mut Vec<(u32, u32)>,
}

impl OnTwo for Certificate<'_> {
    type Out = bool;
    fn run<S: Scalar>(self, a: &mut KernelBody<'_, '_, S>, b: &mut KernelBody<'_, '_, S>) -> bool {
        let Certificate {
            delta,
            reach,
            depth,
            stack,
        } = self;
        // The rounding of comparing `(c_a − c_b) + (o_a − o_b)` in f64 instead of the world
        // centres: 2u₆₄ of the coordinates per axis; every node's centre lies within twice its
        // root's radius of the root's centre (the root sphere holds the node's geometry, the
        // node's sphere is centred within its radius of it).
        let extent = |body: &mut KernelBody<'_, '_, S>| {
            body.sphere(0).map_or(f64::INFINITY, |s| {
                let r = s[3].to_f64();
                (0..3).fold(0.0f64, |m, k| m.max(s[k].to_f64().abs())) + r + r
            })
        };
        let size = delta.iter().fold(0.0f64, |m, x| m.max(x.abs())) + extent(a) + extent(b);
        let slack = reach + 8.0 * f64::EPSILON * size;
        let grow = 1.0 + 16.0 * f64::EPSILON;
        stack.clear();
        stack.push((0, 0));
        while let Some((x, y)) = stack.pop() {
            let (Some(sa), Some(sb)) = (a.sphere(x as usize), b.sphere(y as usize)) else {
                return true;
            };
            let d: [f64; 3] = std::array::from_fn(|k| (sa[k].to_f64() - sb[k].to_f64()) + delta[k]);
            let r = sa[3].to_f64() + sb[3].to_f64() + slack;
            if d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > r * r * grow {
                continue;
            }
            let split =
                |body: &KernelBody<'_, '_, S>, node: u32| match body.tree().kind(node as usize) {
                    Some(NodeKind::Internal { left, right })
                        if body
                            .tree()
                            .node_depth(node as usize)
                            .is_some_and(|d| d < depth) =>
                    {
                        Some([left, right])
                    }
                    _ => None,
                };
            match (split(a, x), split(b, y)) {
                (None, None) => return true,
                // Split the larger sphere, as the walk does.
                (Some([l, r]), other) if other.is_none() || sa[3] >= sb[3] => {
                    stack.push((l, y));
                    stack.push((r, y));
                }
                (_, Some([l, r])) => {
                    stack.push((x, l));
                    stack.push((x, r));
                }
                (Some(_), None) => return true,
            }
        }
        false
    }
}

/// Whether `a` and `b` (both at their own origins) may come within `reach` of each other: the
/// certificate of separation of the module docs.
fn may_touch(
    a: &mut Body,
    b: &mut Body,
    reach: f64,
    depth: u32,
    stack: &mut Vec<(u32, u32)>,
) -> bool {
    let (oa, ob) = (a.origin(), b.origin());
    let delta = std::array::from_fn(|k| oa[k] - ob[k]);
    let certificate = Certificate {
        delta,
        reach,
        depth,
        stack,
    };
    Body::on_two(a, b, certificate).unwrap_or(true)
}

impl World {
    /// A world of `bodies` (all of one precision: the kernel compares bodies of one) and rigid
    /// `primitives`. Bodies keep their states; primitives theirs.
    pub fn new(bodies: Vec<Body>, primitives: Vec<Primitive>) -> Result<World, HostError> {
        if let Some(first) = bodies.first() {
            if bodies.iter().any(|b| b.precision() != first.precision()) {
                return Err(HostError::MixedPrecision);
            }
        }
        let order = vec![0; bodies.len()];
        Ok(World {
            bodies,
            primitives,
            order,
            certificate: Vec::new(),
            placement: Placement::PerPair,
            grid: Vec::new(),
            broad: BroadPhase::default(),
            threads: Threads::serial(),
        })
    }

    /// Answers the bodies and body pairs on `threads` threads (0: one per core; 1, the
    /// default: serial, on the calling thread). Every answer is the serial run's, bit for bit
    /// (module docs). An error when the threads cannot be started.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), HostError> {
        self.threads = Threads::new(threads)?;
        Ok(())
    }

    /// The thread count of [`World::set_threads`].
    pub fn threads(&self) -> usize {
        self.threads.count()
    }

    /// The broad phase (module docs); the answers do not depend on it.
    pub fn set_broad_phase(&mut self, broad: BroadPhase) {
        self.broad = broad;
    }

    /// The broad phase of [`World::set_broad_phase`].
    pub fn broad_phase_kind(&self) -> BroadPhase {
        self.broad
    }

    /// Where [`World::pairs`] and [`World::proxies`] place the bodies: each pair at its own
    /// origin, refined (the default), or the device's path ([`Placement::Device`]). The other
    /// queries always place each pair at its own origin.
    pub fn set_placement(&mut self, placement: Placement) {
        self.placement = placement;
    }

    /// The placement of [`World::pairs`] and [`World::proxies`].
    pub fn placement(&self) -> Placement {
        self.placement
    }

    /// The bodies, in the order answers number them.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// The bodies, to set states or run a pair query on two of them
    /// ([`slice::split_at_mut`]).
    pub fn bodies_mut(&mut self) -> &mut [Body] {
        &mut self.bodies
    }

    /// The primitives (numbered after the bodies in answers).
    pub fn primitives(&self) -> &[Primitive] {
        &self.primitives
    }

    /// The primitives, to move them.
    pub fn primitives_mut(&mut self) -> &mut [Primitive] {
        &mut self.primitives
    }

    /// Sets body `index`'s state ([`Body::set_state`]); an index out of range is an
    /// [`HostError::Argument`].
    pub fn set_state(
        &mut self,
        index: usize,
        rotation: [f64; 4],
        translation: [f64; 3],
        q: &[f64],
    ) -> Result<(), HostError> {
        let n = self.bodies.len();
        let body = self.bodies.get_mut(index).ok_or(HostError::Argument {
            name: "index",
            message: format!("body {index} does not exist (the world has {n})"),
        })?;
        body.set_state(rotation, translation, q)
    }

    /// Every body at its own origin, and the candidate pairs of the broad phase: root spheres
    /// within `reach`, sorted.
    fn broad_phase(&mut self, reach: f64) -> Result<Vec<[usize; 2]>, HostError> {
        let roots = self.threads.bodies(&mut self.bodies, |_, body| {
            let origin = self_origin(body);
            body.place(origin)?;
            let root = body.on_one(RootSphere)?;
            let mut world = to_world(root, origin);
            world[3] += 0.5 * reach;
            Ok(world)
        });
        let roots = roots.into_iter().collect::<Result<Vec<_>, HostError>>()?;
        let n = roots.len();
        let mut candidates = Vec::new();
        let grid = match self.broad {
            BroadPhase::Sweep => false,
            BroadPhase::Grid => true,
            BroadPhase::Auto => n >= AUTO_GRID_BODIES,
        };
        // The grid refuses a non-finite sphere (states are finite: a bug) or too many bodies
        // for a `u32`: the sweep answers then, as it always did.
        let words = UniformGrid::words_needed(n);
        let mut swept = !grid || words == usize::MAX;
        if !swept {
            self.grid.resize(words.max(self.grid.len()), 0);
            let (status, _) =
                UniformGrid::new(&mut self.grid).pairs(&roots, &AllPairs, &mut |i, j| {
                    candidates.push([i as usize, j as usize]);
                    true
                });
            if status != GridStatus::Complete {
                candidates.clear();
                swept = true;
            }
        }
        if swept {
            self.order.resize(n, 0);
            let mut sweep = SweepAndPrune::new(&mut self.order);
            sweep.pairs(&roots, &AllPairs, &mut |i, j| {
                candidates.push([i as usize, j as usize]);
                true
            });
        }
        candidates.sort_unstable();
        Ok(candidates)
    }

    /// Phase 1 of the module docs: every body at its own origin, the candidate pairs (root
    /// spheres within `reach`), and for each whether its certificate leaves it to place.
    /// Returns `(candidates, pairs that may touch)`.
    fn candidates(
        &mut self,
        reach: f64,
        depth: u32,
    ) -> Result<(usize, Vec<[usize; 2]>), HostError> {
        let candidates = self.broad_phase(reach)?;
        let count = candidates.len();
        let touch = self.threads.pairs(
            &mut self.bodies,
            &candidates,
            &mut self.certificate,
            |_, a, b, stack| may_touch(a, b, reach, depth, stack),
        );
        let open = candidates
            .into_iter()
            .zip(touch)
            .filter_map(|(pair, touch)| touch.then_some(pair))
            .collect();
        Ok((count, open))
    }

    /// Runs `query` on every open candidate pair at its origin.
    pub(crate) fn per_pair<T>(
        &mut self,
        reach: f64,
        depth: u32,
        answer: &mut WorldAnswer<T>,
        query: impl Fn(&mut Body, &mut Body) -> Result<Answer<T>, HostError> + Sync,
    ) -> Result<(), HostError>
    where
        T: Send,
    {
        let (candidates, open) = self.candidates(reach, depth)?;
        answer.candidates = candidates;
        answer.settled = candidates - open.len();
        let found = self.threads.pairs(
            &mut self.bodies,
            &open,
            &mut self.certificate,
            |_, a, b, _| query(a, b),
        );
        for (pair, found) in open.into_iter().zip(found) {
            answer.add(pair, found?);
        }
        Ok(())
    }

    /// [`World::per_pair`] for a query that also gives both bodies' wrenches: every body's
    /// wrench summed over its open pairs (zero for a body in none).
    fn per_pair_forces<T>(
        &mut self,
        depth: u32,
        answer: &mut WorldAnswer<T>,
        query: impl Fn(&mut Body, &mut Body) -> Result<(Answer<T>, [Wrench; 2]), HostError> + Sync,
    ) -> Result<Vec<Wrench>, HostError>
    where
        T: Send,
    {
        let mut wrenches: Vec<Wrench> = self
            .bodies
            .iter()
            .map(|b| Wrench::zero(b.tree().modes()))
            .collect();
        let (candidates, open) = self.candidates(0.0, depth)?;
        answer.candidates = candidates;
        answer.settled = candidates - open.len();
        let found = self.threads.pairs(
            &mut self.bodies,
            &open,
            &mut self.certificate,
            |_, a, b, _| query(a, b),
        );
        for ([i, j], found) in open.into_iter().zip(found) {
            let (found, [wa, wb]) = found?;
            wrenches[i].add(&wa);
            wrenches[j].add(&wb);
            answer.add([i, j], found);
        }
        Ok(wrenches)
    }

    /// Every body against every primitive at the body's own origin.
    pub(crate) fn against_primitives<T>(
        &mut self,
        answer: &mut WorldAnswer<T>,
        query: impl Fn(&mut Body, &Primitive) -> Result<Answer<T>, HostError> + Sync,
    ) -> Result<(), HostError>
    where
        T: Send,
    {
        let n = self.bodies.len();
        let primitives = &self.primitives;
        let found = self.threads.bodies(&mut self.bodies, |_, body| {
            primitives
                .iter()
                .map(|primitive| query(body, primitive))
                .collect::<Vec<_>>()
        });
        for (i, found) in found.into_iter().enumerate() {
            for (p, found) in found.into_iter().enumerate() {
                answer.add([i, n + p], found?);
            }
        }
        Ok(())
    }

    pub(crate) fn finish<T>(
        mut answer: WorldAnswer<T>,
        key: impl Fn(&T) -> [u32; 2],
    ) -> WorldAnswer<T> {
        answer.found.sort_by_key(|x| (x.bodies, key(&x.item)));
        answer
    }

    /// Every intersecting triangle pair between distinct bodies, and with `self_pairs` within
    /// each body, and every triangle touching a primitive (`[t, 0]`), sorted: each as
    /// [`query::pairs`], [`query::self_pairs`] and [`query::primitive_contacts`] give it.
    pub fn pairs(&mut self, self_pairs: bool) -> Result<WorldAnswer<[u32; 2]>, HostError> {
        let mut answer = WorldAnswer::default();
        if self.placement == Placement::Device {
            let (found, stats) = device::pairs(
                &mut self.bodies,
                &self.primitives,
                &mut self.order,
                self_pairs,
            )?;
            answer.add_found(found, stats);
            return Ok(Self::finish(answer, |p| *p));
        }
        // Own-origin work first (phase 1 leaves the bodies there too).
        if self_pairs {
            for (i, body) in self.bodies.iter_mut().enumerate() {
                answer.add([i, i], query::self_pairs(body)?);
            }
        }
        self.against_primitives(&mut answer, |body, p| {
            let contacts = query::primitive_contacts(body, p)?;
            Ok(Answer {
                items: contacts.items.iter().map(|c| c.triangles).collect(),
                stats: contacts.stats,
            })
        })?;
        self.per_pair(0.0, CERTIFICATE_DEPTH, &mut answer, query::pairs)?;
        Ok(Self::finish(answer, |p| *p))
    }

    /// Every intersecting triangle pair between distinct bodies with its contact, and every
    /// triangle touching a primitive with its contact: as [`query::contacts()`] and
    /// [`query::primitive_contacts`] give them (depths never negative; in f32 one contact per
    /// refined pair).
    pub fn contacts(&mut self) -> Result<WorldAnswer<Contact>, HostError> {
        let mut answer = WorldAnswer::default();
        self.against_primitives(&mut answer, query::primitive_contacts)?;
        self.per_pair(0.0, CERTIFICATE_DEPTH, &mut answer, query::contacts)?;
        Ok(Self::finish(answer, |c| c.triangles))
    }

    /// Every triangle touching a primitive, with its contact ([`query::primitive_contacts`]),
    /// as `[body, n + primitive]`: the primitives' part of [`World::contacts`] alone.
    pub fn primitive_contacts(&mut self) -> Result<WorldAnswer<Contact>, HostError> {
        let mut answer = WorldAnswer::default();
        self.against_primitives(&mut answer, query::primitive_contacts)?;
        Ok(Self::finish(answer, |c| c.triangles))
    }

    /// [`World::contacts`] with penalty forces (see [`query::contact_forces`]; contacts with
    /// primitives push nothing: give them a response of your own), and each body's wrench.
    pub fn contact_forces(
        &mut self,
        stiffness: f64,
    ) -> Result<(WorldAnswer<Contact>, Vec<Wrench>), HostError> {
        let mut answer = WorldAnswer::default();
        self.against_primitives(&mut answer, query::primitive_contacts)?;
        let wrenches = self.per_pair_forces(CERTIFICATE_DEPTH, &mut answer, |a, b| {
            query::contact_forces(a, b, stiffness)
        })?;
        Ok((Self::finish(answer, |c| c.triangles), wrenches))
    }

    /// Every triangle pair of distinct bodies at most `distance` apart, as [`query::within`]
    /// gives it (the broad phase and the certificates grown by `distance`).
    pub fn within(&mut self, distance: f64) -> Result<WorldAnswer<Near>, HostError> {
        crate::host::check::distance(distance)?;
        let mut answer = WorldAnswer::default();
        // Grown a little: the spheres' f64 comparison must not drop a pair at exactly d.
        let reach = distance * (1.0 + 1e-9);
        self.per_pair(reach, CERTIFICATE_DEPTH, &mut answer, |a, b| {
            query::within(a, b, distance)
        })?;
        Ok(Self::finish(answer, |n| n.triangles))
    }

    /// The nearest points of every pair of distinct bodies (no broad phase: every pair has a
    /// distance), as [`query::distance`] gives them, in pair order.
    pub fn distances(&mut self) -> Result<WorldAnswer<Nearest>, HostError> {
        let mut answer = WorldAnswer::default();
        let n = self.bodies.len();
        for j in 0..n {
            let (head, tail) = self.bodies.split_at_mut(j);
            for (i, a) in head.iter_mut().enumerate() {
                let (nearest, stats) = query::distance(a, &mut tail[0])?;
                answer.add(
                    [i, j],
                    Answer {
                        items: vec![nearest],
                        stats,
                    },
                );
            }
        }
        Ok(Self::finish(answer, |x| x.triangles))
    }

    /// The overlapping contact proxies at depth `depth` of every pair of distinct bodies, as
    /// [`query::proxies()`] gives them (every tree nested): each candidate pair of the broad phase
    /// in its relative frame, every body at its own origin (no placement, no certificate: the
    /// proxy walk is itself a sphere walk at the bodies' own origins). `settled` counts the
    /// candidates with no proxy pair.
    pub fn proxies(&mut self, depth: u32) -> Result<WorldAnswer<Proxy>, HostError> {
        let mut answer = WorldAnswer::default();
        if self.placement == Placement::Device {
            let (found, stats) = device::proxies(&mut self.bodies, depth)?;
            answer.add_found(found, stats);
            return Ok(Self::finish(answer, |p| p.nodes));
        }
        let candidates = self.broad_phase(0.0)?;
        answer.candidates = candidates.len();
        let found = self.threads.pairs(
            &mut self.bodies,
            &candidates,
            &mut self.certificate,
            |_, a, b, _| {
                query::check_nested(a, b)?;
                relative::proxies(a, depth, b, depth)
            },
        );
        for (pair, found) in candidates.into_iter().zip(found) {
            let found = found?;
            if found.items.is_empty() {
                answer.settled += 1;
            }
            answer.add(pair, found);
        }
        Ok(Self::finish(answer, |p| p.nodes))
    }

    /// [`World::proxies`] with their penalty forces (as [`query::proxy_forces`] gives them),
    /// and each body's wrench (zero for a body in no pair).
    pub fn proxy_forces(
        &mut self,
        depth: u32,
        stiffness: f64,
    ) -> Result<(WorldAnswer<Proxy>, Vec<Wrench>), HostError> {
        super::check::stiffness(stiffness)?;
        let answer = self.proxies(depth)?;
        let wrenches = self.proxy_wrenches(&answer, &|_| stiffness)?;
        Ok((answer, wrenches))
    }

    /// Each body's wrench of the penalty contacts of `answer` (a [`World::proxies`] answer of
    /// this world), the contacts of body pair `[i, j]` with `stiffness([i, j])`: a simulation
    /// that softens some pairs' contacts (an explicit step's limit) gets its forces in one call.
    pub fn proxy_wrenches(
        &mut self,
        answer: &WorldAnswer<Proxy>,
        stiffness: &(dyn Fn([usize; 2]) -> f64 + Sync),
    ) -> Result<Vec<Wrench>, HostError> {
        let n = self.bodies.len();
        let mut wrenches: Vec<Wrench> = self
            .bodies
            .iter()
            .map(|b| Wrench::zero(b.tree().modes()))
            .collect();
        // `found` is sorted by bodies: one run of proxies per pair.
        let runs: Vec<Vec<Proxy>> = answer
            .found
            .chunk_by(|x, y| x.bodies == y.bodies)
            .map(|run| run.iter().map(|f| f.item).collect())
            .collect();
        let pairs: Vec<[usize; 2]> = answer
            .found
            .chunk_by(|x, y| x.bodies == y.bodies)
            .map(|run| run[0].bodies)
            .collect();
        for &pair in &pairs {
            if pair[0] >= pair[1] || pair[1] >= n {
                return Err(HostError::Argument {
                    name: "answer",
                    message: format!("body pair {pair:?} is not a pair of this world's {n} bodies"),
                });
            }
            super::check::stiffness(stiffness(pair))?;
        }
        let found = self.threads.pairs(
            &mut self.bodies,
            &pairs,
            &mut self.certificate,
            |k, a, b, _| query::proxy_wrenches(a, b, &runs[k], stiffness(pairs[k])),
        );
        for ([i, j], found) in pairs.iter().zip(found) {
            let [wa, wb] = found?;
            wrenches[*i].add(&wa);
            wrenches[*j].add(&wb);
        }
        Ok(wrenches)
    }

    /// Every body's contact proxies at `depth` reaching into every primitive
    /// ([`query::primitive_proxies`]), as `[body, n + primitive]`.
    pub fn primitive_proxies(
        &mut self,
        depth: u32,
    ) -> Result<WorldAnswer<PrimitiveProxy>, HostError> {
        let mut answer = WorldAnswer::default();
        self.against_primitives(&mut answer, |body, p| {
            query::primitive_proxies(body, depth, p)
        })?;
        Ok(Self::finish(answer, |p| [p.node, 0]))
    }

    /// The wrench of a world force at a world point applied at `node` of body `index`
    /// ([`query::force_at_node`]).
    pub fn force_at_node(
        &mut self,
        index: usize,
        node: usize,
        point: [f64; 3],
        force: [f64; 3],
    ) -> Result<Option<Wrench>, HostError> {
        let n = self.bodies.len();
        let body = self.bodies.get_mut(index).ok_or(HostError::Argument {
            name: "index",
            message: format!("body {index} does not exist (the world has {n})"),
        })?;
        query::force_at_node(body, node, point, force)
    }
}

/// Every triangle pair of distinct bodies that may touch during the motion from `before` to
/// `now` (the same bodies, over the same trees, in two states), as [`query::swept()`] gives it,
/// for every pair of bodies (no broad phase).
pub fn swept(before: &mut World, now: &mut World) -> Result<WorldAnswer<Swept>, HostError> {
    each_motion(before, now, |_, [a0, a1, b0, b1]| {
        query::swept(a0, a1, b0, b1)
    })
}

/// [`swept`] with each body pair's front carried from the last tick ([`front`]): the
/// same answer, walking only where a pair's front ran out of margin. Pass the last query's
/// `now` world as this one's `before` (swap the two worlds each tick, then set `now`'s
/// states); `fronts` belongs to these worlds.
pub fn swept_front(
    before: &mut World,
    now: &mut World,
    fronts: &mut Fronts,
) -> Result<WorldAnswer<Swept>, HostError> {
    each_motion(before, now, |[i, j], [a0, a1, b0, b1]| {
        front::swept_front(a0, a1, b0, b1, fronts.pair(i, j))
    })
}

/// `query` on every pair of bodies `i < j` of two worlds of the same bodies, as `[body i
/// before, body i now, body j before, body j now]`, its answers gathered by pair.
fn each_motion(
    before: &mut World,
    now: &mut World,
    mut query: impl FnMut([usize; 2], [&mut Body; 4]) -> Result<Answer<Swept>, HostError>,
) -> Result<WorldAnswer<Swept>, HostError> {
    let n = now.bodies.len();
    if before.bodies.len() != n {
        return Err(HostError::Argument {
            name: "before",
            message: format!("has {} bodies where `now` has {n}", before.bodies.len()),
        });
    }
    let mut answer = WorldAnswer::default();
    for j in 0..n {
        let (bh, bt) = before.bodies.split_at_mut(j);
        let (nh, nt) = now.bodies.split_at_mut(j);
        for (i, (a_before, a_now)) in bh.iter_mut().zip(nh.iter_mut()).enumerate() {
            let found = query([i, j], [a_before, a_now, &mut bt[0], &mut nt[0]])?;
            answer.add([i, j], found);
        }
    }
    Ok(World::finish(answer, |s| s.triangles))
}

impl World {
    /// [`World::pairs`] with the node bound `bound` for the body pairs ([`query::pairs_with`]); self
    /// pairs and primitives are as [`World::pairs`] gives them (sphere bounds: the box variant
    /// has no self or primitive query).
    pub fn pairs_with(
        &mut self,
        self_pairs: bool,
        bound: query::PairBound,
    ) -> Result<WorldAnswer<[u32; 2]>, HostError> {
        if bound == query::PairBound::Spheres {
            return self.pairs(self_pairs);
        }
        let mut answer = WorldAnswer::default();
        if self_pairs {
            for (i, body) in self.bodies_mut().iter_mut().enumerate() {
                let found = query::self_pairs(body)?;
                answer.stats.add(&found.stats);
                answer
                    .found
                    .extend(found.items.into_iter().map(|item| Found {
                        bodies: [i, i],
                        item,
                    }));
            }
        }
        self.against_primitives(&mut answer, |body, p| {
            let contacts = query::primitive_contacts(body, p)?;
            Ok(Answer {
                items: contacts.items.iter().map(|c| c.triangles).collect(),
                stats: contacts.stats,
            })
        })?;
        self.per_pair(0.0, CERTIFICATE_DEPTH, &mut answer, |a, b| {
            query::pairs_with(a, b, bound)
        })?;
        Ok(World::finish(answer, |p| *p))
    }
}

impl World {
    /// Every pair of distinct bodies closer than `distance`, each with its witness, as
    /// [`query::closer_than`] answers it; pairs not closer are absent. The broad phase and the
    /// certificates of separation (grown by `distance`) settle far pairs without placing them.
    pub fn closer_than(&mut self, distance: f64) -> Result<WorldAnswer<query::Closer>, HostError> {
        crate::host::check::distance(distance)?;
        let mut answer = WorldAnswer::default();
        // Grown a little: the spheres' f64 comparison must not drop a pair at exactly d.
        let reach = distance * (1.0 + 1e-9);
        self.per_pair(reach, CERTIFICATE_DEPTH, &mut answer, |a, b| {
            let (found, stats) = query::closer_than(a, b, distance)?;
            Ok(Answer {
                items: found.into_iter().collect(),
                stats,
            })
        })?;
        Ok(World::finish(answer, |c| c.triangles))
    }
}
