//! The link-time proof of panic freedom over bdtree-core's public API.
//!
//! Every public query and state operation is called from an entry point below, in f32 and in
//! f64, with every order and budget, on inputs the optimiser cannot see (`black_box`: the
//! image bytes, poses, coordinates, capacities, options). The panic handler calls a symbol that
//! exists nowhere, so the firmware links only if no panic path survives optimisation — in any
//! of the entry points. `cargo xtask panic-check` builds it for `thumbv6m-none-eabi` and
//! `thumbv7em-none-eabihf` at opt-level 3 and `s`, then runs it (on an M0 and an M4F image),
//! and it prints how many entry points it linked and ran.
//!
//! **Adding an API**: write `fn name<S: Scalar>()` that calls it (take bodies from [`two`] or
//! [`one`], inputs through `black_box`) and add `name` to the [`entries!`] list — each name
//! is linked in f32 and f64. An entry point whose panic path is known and not yet fixed goes
//! into the `known` list instead: it is linked only with the `known-panics` feature, where
//! `cargo xtask panic-check` expects the link to fail (and says so when it stops failing).
#![no_std]
#![no_main]

use bdtree_core::bounds::coherence::{coherent_radius, drift_norm};
use bdtree_core::bounds::sphere::{
    error_bound, mode_weights, spheres_overlap, update, update_sparse,
};
use bdtree_core::geometry::penetration::{least_penetration, penetration_gradient};
use bdtree_core::image::{check_nested, checksum};
use bdtree_core::query::boxes::{boxes_overlap, collide_boxes, world_box, BoxTable, BoxTest};
use bdtree_core::query::self_collision::{
    normal_cones, tree_parents, vertex_signatures, SelfContours, UnitCounts,
};
use bdtree_core::query::separation::{closer_than, nearest, separation_lower_bound};
use bdtree_core::world::response::{
    apply_at_node, apply_at_node_mut, apply_at_triangle, penalty, respond, respond_contact,
    respond_mut, Wrench, WrenchMut,
};
use bdtree_core::{
    collide, collide_proxies, collide_proxies_apart, collide_self, collide_self_with,
    collide_world, crc32, proxy_stack_capacity, self_stack_capacity, stack_capacity, AllPairs,
    Anchor, BitMatrix, BitMatrixView, Body, CacheEntry, ContactBuffer, Deadline, Header, Image,
    Order, Pending, Pose, ProxyBuffer, ProxyPair, ReferenceEntry, Scalar, SelfAids, SelfList,
    SweepAndPrune, TestBudget, Traversal, TrianglePair, VertexEntry, WorldPair,
};
use bdtree_core::{
    collide_contacts, collide_primitive, collide_primitive_proxies, collide_swept,
    collide_swept_front, collide_world_primitives, query_stack_capacity, refine, refine_error,
    refine_self, within, ContactPoint, FrontEntry, NearPair, Primitive, PrimitiveProxy, SweptFront,
    SweptPair, WorldContact,
};
use bdtree_firmware::rt;
use core::hint::black_box;

/// Capacities of the storage the entry points give their bodies (the M = 10 test body has 159
/// nodes and 42 vertices; the capacities are opaque to the optimiser anyway).
const NODES: usize = 160;
const VERTICES: usize = 48;
const MODES: usize = 10;
const STACK: usize = 64;

/// The list of entry points: `entries!([linked…], [known at opt-level s…], [known…])`.
macro_rules! entries {
    ([$($name:ident),* $(,)?], [$($known_s:ident),* $(,)?], [$($known:ident),* $(,)?]) => {
        const ENTRIES: &[fn()] = &[$($name::<f32>, $name::<f64>,)*];
        /// Linked except in the opt-level `s` proof (feature `opt-s`), unless `known-panics`.
        #[cfg(any(not(feature = "opt-s"), feature = "known-panics"))]
        const LEVEL_KNOWN: &[fn()] = &[$($known_s::<f32>, $known_s::<f64>,)*];
        #[cfg(all(feature = "opt-s", not(feature = "known-panics")))]
        const LEVEL_KNOWN: &[fn()] = &[];
        #[cfg(feature = "known-panics")]
        #[allow(unused_macros)]
        const KNOWN: &[fn()] = &[$($known::<f32>, $known::<f64>,)*];
        #[cfg(not(feature = "known-panics"))]
        const KNOWN: &[fn()] = &[];
    };
}

entries!(
    [
        parse,
        image_header,
        body_state,
        vertex_cache,
        coherence,
        regions,
        tree_view,
        model,
        model_deformed,
        triangle_query,
        triangle_query_buffer,
        proxy_query,
        self_query,
        self_query_with,
        self_list,
        self_culled,
        traversal_test_budget,
        traversal_deadline,
        traversal_pending,
        separation,
        broad_phase,
        world,
        kernel,
        capacities,
        boxes,
        boxes_overlap_direct,
        response,
        contact_query,
        within_query,
        primitive_query,
        world_primitives,
        swept_query,
        swept_front,
        refine_pairs,
    ],
    // Known panic paths at opt-level `s` only: none at present (the bounds checks of
    // `obb::boxes_overlap`, `response::penalty` and `apply_at_node` are gone).
    [],
    // Known panic paths at every opt-level: none at present.
    []
);

#[no_mangle]
fn firmware_main() -> ! {
    let mut n = 0u32;
    for entry in ENTRIES.iter().chain(LEVEL_KNOWN).chain(KNOWN) {
        // The pointer is opaque too: no entry can be specialised away.
        black_box(*entry)();
        n += 1;
    }
    rt::write(b"BDTREE panic-check entries=");
    write_u32(n);
    rt::write(b"\n");
    rt::exit(true)
}

/// Decimal digits without `core::fmt` (whose own checks are not the kernel's business).
fn write_u32(mut n: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
        start -= 1;
        if n == 0 {
            break;
        }
    }
    rt::write(digits.get(start..).unwrap_or(&[]));
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    extern "C" {
        /// Defined nowhere: linking fails if any panic path survives optimisation.
        fn bdtree_firmware_error_a_panic_path_is_reachable() -> !;
    }
    // SAFETY: never runs — the firmware links only when this function is unreachable.
    unsafe { bdtree_firmware_error_a_panic_path_is_reachable() }
}

// ---- inputs ------------------------------------------------------------------------------

/// The M = 10 test image in the scalar `S`, from bytes the optimiser cannot see.
fn image<S: Scalar>() -> Option<Image<'static, S>> {
    let bytes: &'static [u8] = if S::BYTES == 4 {
        &bdtree_firmware::BENCH_F32.0
    } else {
        &bdtree_firmware::BENCH_F64.0
    };
    Image::<S>::parse(black_box(bytes)).ok()
}

fn scalar<S: Scalar>(x: f32) -> S {
    black_box(S::from_f32(x))
}

/// A pose and coordinates the optimiser cannot see.
fn set<S: Scalar>(body: &mut Body<'_, '_, S>, seed: f32) {
    let r = [scalar(0.9), scalar(seed), scalar(-0.2), scalar(0.1)];
    let t = [scalar(seed), scalar(0.5), scalar(-0.25)];
    let mut q = [S::ZERO; MODES];
    for (j, x) in q.iter_mut().enumerate() {
        *x = scalar(0.01 * j as f32 - seed);
    }
    let m = black_box(body.tree().modes()).min(MODES);
    if let Ok(pose) = Pose::from_quaternion(r, t) {
        let _ = black_box(body.set_state(pose, q.get(..m).unwrap_or(&[])));
    }
    // The state given in f64, relative to a floating origin (the caller's f64 path).
    if black_box(seed) > 2.0 {
        let wide = |x: f32| black_box(f64::from(x));
        let mut q64 = [0.0f64; MODES];
        for (j, x) in q64.iter_mut().enumerate() {
            *x = wide(0.01 * j as f32 - seed);
        }
        let r = [wide(0.9), wide(seed), wide(-0.2), wide(0.1)];
        let t = [wide(seed), wide(5000.5), wide(-0.25)];
        let o = [wide(seed), wide(5000.0), wide(0.0)];
        let _ = black_box(body.set_state_f64(r, t, q64.get(..m).unwrap_or(&[]), o));
        black_box(body.state_error());
    }
}

/// Storage of one body.
struct Storage<S: Scalar> {
    cache: [CacheEntry<S>; NODES],
    modes: [S; 5 * MODES],
    vertices: [VertexEntry<S>; VERTICES],
    refs: [ReferenceEntry<S>; NODES],
    reference_modes: [S; 5 * MODES],
    regions: [u64; NODES + MODES],
}

impl<S: Scalar> Storage<S> {
    fn new() -> Self {
        Self {
            cache: [CacheEntry::EMPTY; NODES],
            modes: [S::ZERO; 5 * MODES],
            vertices: [VertexEntry::EMPTY; VERTICES],
            refs: [ReferenceEntry::EMPTY; NODES],
            reference_modes: [S::ZERO; 5 * MODES],
            regions: [0; NODES + MODES],
        }
    }

    /// A body over the test image with the options `black_box` picks: vertex cache,
    /// coherence (with one of the anchoring policies), regions.
    fn body(&mut self, image: &Image<'static, S>) -> Option<Body<'static, '_, S>> {
        let cut = |n: usize| black_box(n);
        let mut body = Body::new(
            image,
            self.cache.get_mut(..cut(NODES))?,
            self.modes.get_mut(..cut(5 * MODES))?,
        )
        .ok()?;
        let options = black_box(7u32);
        if options & 1 != 0 {
            body = body
                .with_vertex_cache(self.vertices.get_mut(..cut(VERTICES))?)
                .ok()?;
        }
        if options & 2 != 0 {
            let policy = match black_box(0u32) {
                0 => Anchor::OnRequest,
                1 => Anchor::Steps(black_box(3)),
                2 => Anchor::Drift(scalar(0.1)),
                _ => Anchor::Growth(scalar(0.01)),
            };
            body = body
                .with_coherence(
                    self.refs.get_mut(..cut(NODES))?,
                    self.reference_modes.get_mut(..cut(5 * MODES))?,
                    policy,
                )
                .ok()?;
        }
        if options & 4 != 0 {
            body = body
                .with_regions(self.regions.get_mut(..cut(NODES + MODES))?)
                .ok()?;
        }
        set(&mut body, 0.1);
        Some(body)
    }
}

/// Runs `f` on one body.
fn one<S: Scalar>(f: impl FnOnce(&mut Body<'static, '_, S>)) {
    let Some(image) = image::<S>() else { return };
    let mut storage = Storage::new();
    if let Some(mut body) = storage.body(&image) {
        f(&mut body);
    }
}

/// Runs `f` on two bodies.
fn two<S: Scalar>(f: impl FnOnce(&mut Body<'static, '_, S>, &mut Body<'static, '_, S>)) {
    let Some(image) = image::<S>() else { return };
    let (mut sa, mut sb) = (Storage::new(), Storage::new());
    if let (Some(mut a), Some(mut b)) = (sa.body(&image), sb.body(&image)) {
        set(&mut b, 0.3);
        f(&mut a, &mut b);
    }
}

fn order() -> Order {
    match black_box(0u32) {
        0 => Order::BreadthFirst,
        1 => Order::DeepestFirst,
        _ => Order::LargestFirst,
    }
}

fn sink(p: TrianglePair) -> bool {
    black_box(p);
    black_box(true)
}

// ---- entry points ------------------------------------------------------------------------

fn parse<S: Scalar>() {
    black_box(image::<S>().map(|i| i.tree.node_count()));
}

fn image_header<S: Scalar>() {
    let bytes: &[u8] = black_box(&bdtree_firmware::BENCH_F32.0);
    if let Ok(header) = Header::read(bytes) {
        black_box(header.to_bytes());
        if let Some(layout) = header.layout() {
            black_box(layout.section(black_box(3)));
        }
    }
    black_box(checksum(bytes));
    black_box(crc32(bytes));
    if let Some(image) = image::<S>() {
        black_box(check_nested(&image.tree).is_ok());
    }
}

fn body_state<S: Scalar>() {
    one::<S>(|body| {
        set(body, 0.2);
        for node in 0..black_box(4) {
            black_box(body.sphere(node));
            black_box(body.is_cached(node));
        }
        black_box(body.world_triangle(black_box(3)));
        black_box((
            body.error(),
            body.sphere_error(),
            body.step(),
            body.update_count(),
        ));
        black_box((
            body.pose().apply([S::ONE; 3]),
            body.q().len(),
            body.weights().len(),
        ));
    });
}

fn vertex_cache<S: Scalar>() {
    one::<S>(|body| {
        for t in 0..black_box(3) {
            black_box(body.world_triangle(t));
        }
    });
}

fn coherence<S: Scalar>() {
    one::<S>(|body| {
        set(body, 0.25);
        black_box(body.sphere(black_box(1)));
        body.reanchor();
        black_box((body.is_coherent(), body.anchor_count(), body.drift()));
        black_box(body.reference_q(black_box(2)));
        let q = [scalar::<S>(0.1); 3];
        black_box(drift_norm(q.iter().copied(), q.iter().copied()));
        black_box(coherent_radius(scalar::<S>(1.0), scalar(0.5), scalar(0.1)));
    });
}

fn regions<S: Scalar>() {
    one::<S>(|body| {
        set(body, 0.1);
        black_box(body.sphere(black_box(2)));
        black_box(body.support(black_box(2)).map(|s| s.len()));
        black_box(Body::<S>::region_words(body.tree()));
    });
}

fn tree_view<S: Scalar>() {
    one::<S>(|body| {
        let tree = *body.tree();
        let node = black_box(5);
        black_box((
            tree.row(node, black_box(2)),
            tree.rest_sphere(node),
            tree.kind(node),
        ));
        black_box((
            tree.spread(node),
            tree.node_depth(node),
            tree.record(node).map(|r| r.len()),
        ));
        black_box((
            tree.encoding(),
            tree.is_bounded(),
            tree.is_nested(),
            tree.depth(),
        ));
        black_box(tree.update(node, body.weights()));
        let support = [black_box(u64::MAX)];
        black_box(tree.update_sparse(node, body.weights(), &support));
    });
}

fn model<S: Scalar>() {
    one::<S>(|body| {
        let model = *body.model();
        let i = black_box(7);
        black_box(model.basis_entry(i, black_box(1), black_box(2)));
        black_box(model.storage_error(body.q().iter().copied()));
        black_box((
            model.vertex_count(),
            model.is_quantized(),
            model.triangles().len(),
        ));
        black_box((model.positions().len(), model.basis().len(), model.modes()));
    });
}

/// `Model::deformed` and `position` (a bounds check at opt-level `s` before Q16 positions were
/// destructured).
fn model_deformed<S: Scalar>() {
    one::<S>(|body| {
        let model = *body.model();
        let i = black_box(7);
        black_box(model.position(i));
        black_box(model.deformed(i, body.q()));
    });
}

fn triangle_query<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let n = black_box(STACK);
        black_box(collide(
            a,
            b,
            stack.get_mut(..n).unwrap_or(&mut []),
            &mut sink,
        ));
    });
}

fn triangle_query_buffer<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let mut buffer = ContactBuffer::<8>::new();
        black_box(collide(a, b, &mut stack, &mut buffer));
        black_box((buffer.len(), buffer.as_slice().first().copied()));
        buffer.clear();
    });
}

fn refine_pairs<S: Scalar>() {
    two::<S>(|a, b| {
        let mut pairs = [TrianglePair {
            a: black_box(3),
            b: black_box(u32::MAX),
        }; 4];
        let n = black_box(pairs.len());
        let pairs = pairs.get_mut(..n).unwrap_or(&mut []);
        black_box(refine(a, b, pairs));
        black_box(refine_self(a, pairs));
        black_box(refine_error(b));
    });
}

fn proxy_query<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let (la, lb) = (black_box(2), black_box(3));
        let mut sink = |p: ProxyPair<S>| black_box(p.a) != u32::MAX;
        black_box(collide_proxies(a, b, la, lb, &mut stack, &mut sink));
        let mut buffer = ProxyBuffer::<S, 8>::new();
        black_box(collide_proxies(a, b, la, lb, &mut stack, &mut buffer));
        black_box(buffer.as_slice().len());
        let offset = [black_box(0.5), black_box(-2.0), black_box(1e3)];
        black_box(collide_proxies_apart(
            a, b, la, lb, offset, &mut stack, &mut sink,
        ));
    });
}

fn self_query<S: Scalar>() {
    one::<S>(|body| {
        let mut stack = [[0u32; 2]; STACK];
        black_box(collide_self(body, &mut stack, &mut sink));
    });
}

fn self_query_with<S: Scalar>() {
    one::<S>(|body| {
        let mut signatures = [0u64; NODES];
        let mut cones = [0u16; NODES];
        black_box(vertex_signatures(body, &mut signatures));
        black_box(normal_cones(body, &mut cones));
        let n = black_box(NODES);
        let aids = SelfAids {
            signatures: signatures.get(..n).unwrap_or(&[]),
            cones: cones.get(..black_box(0)).unwrap_or(&[]),
            contours: SelfContours::NONE,
        };
        let mut stack = [[0u32; 2]; STACK];
        let mut counts = UnitCounts::default();
        black_box(collide_self_with(
            body,
            aids,
            &mut counts,
            &mut stack,
            &mut sink,
        ));
        black_box(counts);
    });
}

fn self_list<S: Scalar>() {
    one::<S>(|body| {
        let mut parents = [0u32; NODES];
        black_box(tree_parents(body.tree(), &mut parents));
        let mut units = [[0u32; 2]; 32];
        let mut spare = [[0u32; 2]; 32];
        let n = black_box(32);
        let mut list = SelfList::new(
            &parents,
            units.get_mut(..n).unwrap_or(&mut []),
            spare.get_mut(..n).unwrap_or(&mut []),
        );
        let mut stack = [[0u32; 2]; STACK];
        let mut counts = UnitCounts::default();
        let aids = SelfAids::NONE;
        black_box(list.collide(body, aids, &mut stack, &mut sink, &mut counts));
        set(body, 0.15);
        let aids = SelfAids::NONE;
        black_box(list.collide(body, aids, &mut stack, &mut sink, &mut counts));
        black_box((
            list.len(),
            list.is_empty(),
            list.overflowed(),
            list.units().count(),
        ));
        list.reset();
    });
}

fn self_culled<S: Scalar>() {
    one::<S>(|body| {
        let mut cones = [0u16; NODES];
        black_box(normal_cones(body, &mut cones));
        // Any contour table the caller may give (the host writes it; here whatever the
        // optimiser cannot see through).
        let starts = black_box([0u32; NODES + 1]);
        let vertices = black_box([0u32; 96]);
        let aids = SelfAids {
            signatures: &[],
            cones: &cones,
            contours: SelfContours {
                starts: starts.get(..black_box(NODES + 1)).unwrap_or(&[]),
                vertices: vertices.get(..black_box(96)).unwrap_or(&[]),
            },
        };
        let mut stack = [[0u32; 2]; STACK];
        let mut counts = UnitCounts::default();
        black_box(collide_self_with(
            body,
            aids,
            &mut counts,
            &mut stack,
            &mut sink,
        ));
        black_box(counts);
    });
}

fn traversal_test_budget<S: Scalar>() {
    two::<S>(|a, b| {
        let mut pending = [Pending::<S>::EMPTY; 64];
        let n = black_box(64);
        let mut t = Traversal::new(pending.get_mut(..n).unwrap_or(&mut []), order());
        black_box(t.start(a, b));
        let mut budget = TestBudget::new(black_box(50));
        black_box(t.run(a, b, &mut budget, &mut sink));
        let mut budget = TestBudget::unlimited();
        black_box(t.run(a, b, &mut budget, &mut sink));
        black_box(t.pending_len());
        black_box(Traversal::<S>::needed_capacity(
            black_box(10),
            black_box(20),
        ));
    });
}

/// A clock the optimiser cannot predict.
struct Ticks(u64);

impl bdtree_core::Clock for Ticks {
    fn now(&mut self) -> u64 {
        self.0 = black_box(self.0.wrapping_add(1));
        self.0
    }
}

fn traversal_deadline<S: Scalar>() {
    two::<S>(|a, b| {
        let mut pending = [Pending::<S>::EMPTY; 64];
        let mut t = Traversal::new(&mut pending, order());
        black_box(t.start(a, b));
        let mut budget = Deadline::new(Ticks(0), black_box(100));
        black_box(t.run(a, b, &mut budget, &mut sink));
        // Released and resumed over storage of any length (a short one included).
        let progress = black_box(t.suspend());
        let n = black_box(64);
        let mut t = Traversal::resume(pending.get_mut(..n).unwrap_or(&mut []), progress);
        black_box(t.run(a, b, &mut budget, &mut sink));
    });
}

/// `Traversal::pending()` (its `% cap`, query/traversal.rs, was reported as a panic path; it
/// links clean at opt-level 3 and `s` here).
fn traversal_pending<S: Scalar>() {
    two::<S>(|a, b| {
        let mut pending = [Pending::<S>::EMPTY; 64];
        let n = black_box(64);
        let mut t = Traversal::new(pending.get_mut(..n).unwrap_or(&mut []), order());
        black_box(t.start(a, b));
        black_box(t.pending().count());
    });
}

fn separation<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        black_box(separation_lower_bound(a, b));
        let mut near = None;
        black_box(nearest(a, b, &mut stack, &mut near));
        black_box(near.map(|n| n.distance));
        let mut closer = true;
        black_box(closer_than(
            a,
            b,
            scalar(0.1),
            scalar(0.01),
            &mut stack,
            &mut closer,
        ));
        black_box(closer);
    });
}

fn contact_query<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let mut sink = |c: ContactPoint<S>| black_box(c.a) != u32::MAX;
        black_box(collide_contacts(a, b, &mut stack, &mut sink));
    });
}

fn within_query<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let mut sink = |p: NearPair<S>| black_box(p.a) != u32::MAX;
        black_box(within(a, b, scalar(0.01), &mut stack, &mut sink));
    });
}

fn primitive_query<S: Scalar>() {
    one::<S>(|body| {
        let mut stack = [[0u32; 2]; STACK];
        let (x, r) = (scalar::<S>(0.1), scalar::<S>(0.05));
        let primitives = [
            Primitive::plane([S::ZERO, S::ZERO, S::ONE], x),
            Primitive::sphere([x, S::ZERO, S::ZERO], r),
            Primitive::capsule([S::ZERO; 3], [S::ZERO, S::ZERO, x], r),
            Pose::from_quaternion([black_box(S::ONE), S::ZERO, S::ZERO, S::ZERO], [x; 3])
                .map_err(|_| bdtree_core::PrimitiveError::NonFinite)
                .and_then(|pose| Primitive::oriented_box(&pose, [r, x, r])),
        ];
        for primitive in primitives.iter().flatten() {
            let mut sink = |c: ContactPoint<S>| black_box(c.a) != u32::MAX;
            black_box(collide_primitive(body, primitive, &mut stack, &mut sink));
            let mut proxies = |p: PrimitiveProxy<S>| black_box(p.node) != u32::MAX;
            let depth = black_box(3);
            black_box(collide_primitive_proxies(
                body,
                primitive,
                depth,
                &mut stack,
                &mut proxies,
            ));
        }
    });
}

fn world_primitives<S: Scalar>() {
    let Some(image) = image::<S>() else { return };
    let (mut sa, mut sb) = (Storage::new(), Storage::new());
    let (Some(a), Some(mut b)) = (sa.body(&image), sb.body(&image)) else {
        return;
    };
    set(&mut b, 0.3);
    let mut bodies = [a, b];
    let (x, r) = (scalar::<S>(0.1), scalar::<S>(0.05));
    let (Ok(floor), Ok(link)) = (
        Primitive::plane([S::ZERO, S::ZERO, S::ONE], x),
        Primitive::capsule([S::ZERO; 3], [S::ZERO, S::ZERO, x], r),
    ) else {
        return;
    };
    let primitives = [floor, link];
    let mut stack = [[0u32; 2]; STACK];
    let mut sink = |c: WorldContact<S>| black_box(c.body + c.contact.a) != u32::MAX;
    let filter = |i: usize, j: usize| black_box(i ^ j) != 3;
    let (n, m) = (black_box(2), black_box(2));
    black_box(collide_world_primitives(
        bodies.get_mut(..n).unwrap_or(&mut []),
        primitives.get(..m).unwrap_or(&[]),
        &filter,
        &mut stack,
        &mut sink,
    ));
}

fn swept_query<S: Scalar>() {
    two::<S>(|a0, b0| {
        two::<S>(|a1, b1| {
            set(a1, 0.2);
            let mut stack = [[0u32; 2]; STACK];
            let mut sink = |p: SweptPair<S>| black_box(p.a) != u32::MAX;
            black_box(collide_swept(a0, a1, b0, b1, &mut stack, &mut sink));
        });
    });
}

fn swept_front<S: Scalar>() {
    two::<S>(|a0, b0| {
        two::<S>(|a1, b1| {
            set(a1, 0.2);
            let mut stack = [[0u32; 2]; STACK];
            let mut sink = |p: SweptPair<S>| black_box(p.a) != u32::MAX;
            let mut entries = [FrontEntry::<S>::EMPTY; 64];
            let mut spare = [FrontEntry::<S>::EMPTY; 64];
            let mut front = SweptFront::new(&mut entries, &mut spare);
            // The first walks from the root; the second carries (or not, if it overflowed).
            black_box(collide_swept_front(
                a0, a1, b0, b1, &mut front, &mut stack, &mut sink,
            ));
            black_box(collide_swept_front(
                a0, a1, b0, b1, &mut front, &mut stack, &mut sink,
            ));
            black_box(front.entries().len() + front.certified() + front.retested());
            front.reset();
        });
    });
}

fn boxes<S: Scalar>() {
    two::<S>(|a, b| {
        // Box rows as an application stores them (here: zero extents, from opaque storage).
        let mut rows = [[S::ZERO; 4]; NODES * (MODES + 1)];
        let n = black_box(a.tree().node_count() * (a.tree().modes() + 1));
        rows.iter_mut().for_each(|r| *r = black_box(*r));
        let rows = rows.get(..n).unwrap_or(&[]);
        let (Ok(ta), Ok(tb)) = (BoxTable::new(rows, a.tree()), BoxTable::new(rows, b.tree()))
        else {
            return;
        };
        black_box(ta.record(black_box(1)).map(|r| r.len()));
        black_box((world_box(a, &ta, 0), world_box(b, &tb, black_box(1))));
        let test = if black_box(true) {
            BoxTest::Exact
        } else {
            BoxTest::FaceAxes
        };
        let mut stack = [[0u32; 2]; STACK];
        black_box(collide_boxes(a, b, &ta, &tb, test, &mut stack, &mut sink));
    });
}

/// Known panic path at opt-level `s`: `obb::boxes_overlap`'s `abs_r[i][j]` bounds checks.
fn boxes_overlap_direct<S: Scalar>() {
    let b = |x: f32| bdtree_core::query::boxes::WorldBox {
        center: [scalar::<S>(x); 3],
        axes: [[scalar::<S>(0.5); 3]; 3],
        half: [scalar::<S>(1.0); 3],
    };
    let test = if black_box(true) {
        BoxTest::Exact
    } else {
        BoxTest::FaceAxes
    };
    black_box(boxes_overlap(&b(0.0), &b(1.5), test));
}

fn broad_phase<S: Scalar>() {
    let mut spheres = [[S::ZERO; 4]; 8];
    for (k, s) in spheres.iter_mut().enumerate() {
        *s = [scalar(k as f32), S::ZERO, S::ZERO, scalar(0.75)];
    }
    let n = black_box(8);
    let spheres = spheres.get(..n).unwrap_or(&[]);
    let mut order = [0u32; 8];
    let mut sweep = SweepAndPrune::new(order.get_mut(..black_box(8)).unwrap_or(&mut []));
    let mut pairs = |i: u32, j: u32| black_box(i + j) < 100;
    black_box(sweep.pairs(spheres, &AllPairs, &mut pairs));
    let mut words = [0u32; 2];
    if let Some(mut matrix) = BitMatrix::new(&mut words, black_box(8)) {
        matrix.set(black_box(1), black_box(2), false);
        black_box(sweep.pairs(spheres, &matrix, &mut pairs));
    }
    black_box(BitMatrix::words_needed(black_box(70_000)));
    // Words kept and viewed read-only (a filter in flash, a C client's table).
    let words = black_box(&mut words);
    if let Some(mut kept) = BitMatrix::from_words(words.as_mut_slice(), black_box(8)) {
        kept.set(black_box(3), black_box(3), true);
        black_box(sweep.pairs(spheres, &kept.view(), &mut pairs));
    }
    if let Some(view) = BitMatrixView::new(black_box(&words[..]), black_box(8)) {
        black_box(sweep.pairs(spheres, &view, &mut pairs));
    }
    let filter = |i: usize, j: usize| black_box(i ^ j) != 3;
    black_box(sweep.pairs(spheres, &filter, &mut pairs));
}

fn world<S: Scalar>() {
    let Some(image) = image::<S>() else { return };
    let (mut sa, mut sb) = (Storage::new(), Storage::new());
    let (Some(a), Some(mut b)) = (sa.body(&image), sb.body(&image)) else {
        return;
    };
    set(&mut b, 0.3);
    let mut bodies = [a, b];
    let mut order = [0u32; 2];
    let mut sweep = SweepAndPrune::new(&mut order);
    let mut roots = [[S::ZERO; 4]; 2];
    let mut stack = [[0u32; 2]; STACK];
    let mut sink = |p: WorldPair| black_box(p.a + p.b + p.triangles.a) != 0;
    let n = black_box(2);
    black_box(collide_world(
        bodies.get_mut(..n).unwrap_or(&mut []),
        &mut sweep,
        &mut roots,
        &AllPairs,
        &mut stack,
        &mut sink,
    ));
    // Bodies held by reference (`[&mut Body]`: not contiguous).
    let mut refs: [&mut Body<'_, '_, S>; 2] = {
        let [a, b] = &mut bodies;
        [a, b]
    };
    let mut sweep = SweepAndPrune::new(&mut order);
    black_box(collide_world(
        refs.get_mut(..n).unwrap_or(&mut []),
        &mut sweep,
        &mut roots,
        &AllPairs,
        &mut stack,
        &mut sink,
    ));
}

fn response<S: Scalar>() {
    two::<S>(|a, b| {
        let (sa, sb) = (a.sphere(0), b.sphere(0));
        if let (Some(sa), Some(sb)) = (sa, sb) {
            black_box(penalty(sa, sb, scalar(100.0)));
            let pair = ProxyPair {
                a: black_box(1),
                b: black_box(2),
                sphere_a: sa,
                sphere_b: sb,
                depth: scalar(0.01),
            };
            let mut wa = Wrench::<S, MODES>::ZERO;
            let mut wb = Wrench::<S, MODES>::default();
            black_box(respond(a, b, &pair, scalar(100.0), &mut wa, &mut wb));
            black_box(apply_at_node(
                a,
                black_box(3),
                [S::ONE; 3],
                [S::ONE; 3],
                &mut wa,
            ));
            // Wrenches sized at run time, and exact contacts.
            let (mut fa, mut ta, mut qa) = ([S::ZERO; 3], [S::ZERO; 3], [S::ZERO; MODES]);
            let (mut fb, mut tb, mut qb) = ([S::ZERO; 3], [S::ZERO; 3], [S::ZERO; MODES]);
            let m = black_box(MODES);
            let mut va = WrenchMut {
                force: &mut fa,
                torque: &mut ta,
                q: qa.get_mut(..m).unwrap_or(&mut []),
            };
            let mut vb = WrenchMut {
                force: &mut fb,
                torque: &mut tb,
                q: qb.get_mut(..m).unwrap_or(&mut []),
            };
            black_box(respond_mut(
                a,
                b,
                &pair,
                scalar(100.0),
                va.reborrow(),
                vb.reborrow(),
            ));
            let contact = ContactPoint {
                a: black_box(1),
                b: black_box(2),
                contact: bdtree_core::TriangleContact {
                    point: [sa[0], sa[1], sa[2]],
                    normal: [S::ONE, S::ZERO, S::ZERO],
                    depth: scalar(0.01),
                },
            };
            black_box(respond_contact(
                a,
                b,
                &contact,
                scalar(100.0),
                va.reborrow(),
                vb.reborrow(),
            ));
            black_box(apply_at_triangle(
                a,
                black_box(4),
                [S::ONE; 3],
                [S::ONE; 3],
                va.reborrow(),
            ));
            black_box(apply_at_node_mut(
                b,
                black_box(5),
                [S::ONE; 3],
                [S::ONE; 3],
                vb.reborrow(),
            ));
            black_box((wa, wb, fa, ta, qa, fb, tb, qb));
        }
    });
}

fn kernel<S: Scalar>() {
    let rows = [[scalar::<S>(0.5); 4]; MODES + 1];
    let q = [scalar::<S>(-0.25); MODES];
    let mut w = [[S::ZERO; 4]; MODES];
    let m = black_box(MODES);
    mode_weights(q.get(..m).unwrap_or(&[]), &mut w);
    let r = rows.get(..black_box(MODES + 1)).unwrap_or(&[]);
    let w = w.get(..m).unwrap_or(&[]);
    black_box(update(r, w));
    black_box(update_sparse(r, w, &[black_box(0b1011)]));
    black_box(error_bound(
        scalar(1.0),
        &[scalar::<S>(0.5); 3],
        q,
        [S::ONE; 3],
    ));
    black_box(spheres_overlap(rows[0], rows[1]));
    let corner = |x: f32, y: f32, z: f32| [scalar::<S>(x), scalar(y), scalar(z)];
    let a = [
        corner(0.0, 0.0, 0.0),
        corner(1.0, 0.0, 0.0),
        corner(0.0, 1.0, 0.0),
    ];
    let b = [
        corner(0.2, 0.2, -0.5),
        corner(0.3, 0.2, 0.5),
        corner(0.2, 0.3, 0.5),
    ];
    if let Some(p) = black_box(least_penetration(&a, &b)) {
        black_box(penetration_gradient(&a, &b, &black_box(p.features)));
    }
}

// `S` unused: the entry list instantiates every entry point in f32 and f64.
#[allow(clippy::extra_unused_type_parameters)]
fn capacities<S: Scalar>() {
    let d = black_box(12u32);
    black_box(stack_capacity(d, black_box(9)));
    black_box(self_stack_capacity(d));
    black_box(query_stack_capacity(d, black_box(9)));
    black_box(proxy_stack_capacity(
        d,
        black_box(3),
        black_box(9),
        black_box(2),
    ));
}
