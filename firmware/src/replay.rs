//! The fixture replay: every frame of every scene in the pack, with the kernel on the target,
//! against the host's answers; and the measurements (instructions, stack).
//!
//! Per frame it compares the pairs (as sets), the work counters and two checksums of computed
//! floats ([`crate::checksum`]): every node sphere the queries computed, and the deformed world
//! vertices of every triangle in a found pair. Each frame is also run as an interruptible query
//! resumed over slots of [`SLOT_INSTRUCTIONS`], which must end with the same pairs. A scene that
//! cannot be read or set up is reported and counted as failed; the next scene still runs.
//!
//! Lines start with `BDTREE ` (`key=value` fields, read by `cargo xtask qemu`).

use bdtree_core::query::self_collision::UnitCounts;
use bdtree_core::{
    collide_proxies, collide_self_image, collide_world, AlignedImage, BitMatrix, Body, BoxEntry,
    CacheEntry, ConeSlot, Deadline, Image, Order, Pending, Pose, ProxyPair, QueryStats, RunStatus,
    SelfCones, SweepAndPrune, Traversal, TrianglePair, VertexEntry, WorldPair,
};
use core::hint::black_box;

use crate::checksum::{mix, sphere_key, triangle_key};
use crate::pack::Reader;
use crate::report;
use crate::rt::{self, Counter};

// MAX_BODIES, MAX_NODES, MAX_VERTICES, MAX_MODES, MAX_PAIRS, STACK_PAIRS, BENCH_NODES.
include!("../pack/limits.rs");

static PACK: &AlignedImage<[u8]> = &AlignedImage(*include_bytes!("../pack/fixtures.bin"));
/// The fold scene with its self pairs, its images carrying the self-collision culling data
/// ([`run_self`]): a pack of its own, linked only into the `replay-self` firmware (the
/// fixture pack fills the Cortex-M0's flash).
static SELF_PACK: &AlignedImage<[u8]> = &AlignedImage(*include_bytes!("../pack/fold-self.bin"));
const PACK_MAGIC: u32 = u32::from_le_bytes(*b"BDFP");
const PACK_VERSION: u32 = 4;
/// Scene flag of the pack: each body's self pairs too, culled from its image
/// ([`collide_self_image`]).
const SCENE_SELF: u32 = 1;

/// The cone slots of the culled self query (one per node), for [`run_self`] only.
static mut CONES: [ConeSlot; MAX_NODES] = [ConeSlot::EMPTY; MAX_NODES];

/// Each body's box cache (one entry per node: the self walk's stored boxes), for [`run_self`]
/// only.
type Boxes = [[BoxEntry<f32>; MAX_NODES]; MAX_BODIES];
static mut BOXES: Boxes = [[BoxEntry::EMPTY; MAX_NODES]; MAX_BODIES];

/// Instructions each slot of the resumed queries may use.
pub const SLOT_INSTRUCTIONS: u64 = 20_000;
const PENDING_PAIRS: usize = 32768;

/// The world query's broad-phase storage: the sweep's order and the root spheres.
struct World {
    order: [u32; MAX_BODIES],
    roots: [[f32; 4]; MAX_BODIES],
}

/// Every buffer of the replay, in `.bss`.
struct Work {
    caches: [[CacheEntry<f32>; MAX_NODES]; MAX_BODIES],
    modes: [[f32; 5 * MAX_MODES]; MAX_BODIES],
    vertices: [[VertexEntry<f32>; MAX_VERTICES]; MAX_BODIES],
    stack: [[u32; 2]; STACK_PAIRS],
    pairs: [[u32; 4]; MAX_PAIRS],
    pending: [Pending<f32>; PENDING_PAIRS],
    world: World,
    bench_cache: [CacheEntry<f32>; BENCH_NODES],
    bench_modes: [f32; 50],
    bench_cache_b: [CacheEntry<f32>; BENCH_NODES],
    bench_modes_b: [f32; 50],
}

static mut WORK: Work = Work {
    caches: [[CacheEntry::EMPTY; MAX_NODES]; MAX_BODIES],
    modes: [[0.0; 5 * MAX_MODES]; MAX_BODIES],
    vertices: [[VertexEntry::EMPTY; MAX_VERTICES]; MAX_BODIES],
    stack: [[0; 2]; STACK_PAIRS],
    pairs: [[0; 4]; MAX_PAIRS],
    pending: [Pending::EMPTY; PENDING_PAIRS],
    world: World {
        order: [0; MAX_BODIES],
        roots: [[0.0; 4]; MAX_BODIES],
    },
    bench_cache: [CacheEntry::EMPTY; BENCH_NODES],
    bench_modes: [0.0; 50],
    bench_cache_b: [CacheEntry::EMPTY; BENCH_NODES],
    bench_modes_b: [0.0; 50],
};

/// Runs everything; `true` when every scene matched the host.
pub fn run() -> bool {
    // SAFETY: `run` is called once; this is the only reference to WORK ever made.
    let work = unsafe { &mut *core::ptr::addr_of_mut!(WORK) };
    let counter = Counter::new();
    report!("BDTREE core name={}", rt::CORE);
    let mut ok = bench(work, &counter);
    ok &= broad_phase_is_checked();
    ok &= run_pack(&PACK.0, work, &counter, None);
    ok & crate::swept::run(&counter)
}

/// Replays the fold scene with every body's self pairs culled from its image (the pack
/// `fold-self.bin`): the device's culled self-collision, bit for bit against the host.
pub fn run_self() -> bool {
    // SAFETY: `run_self` is called once, and `run` is never called in the same firmware;
    // these are the only references to WORK and CONES ever made.
    let work = unsafe { &mut *core::ptr::addr_of_mut!(WORK) };
    // SAFETY: as above.
    let slots = unsafe { &mut *core::ptr::addr_of_mut!(CONES) };
    let mut cones = SelfCones::new(slots);
    // SAFETY: as above.
    let boxes = unsafe { &mut *core::ptr::addr_of_mut!(BOXES) };
    let counter = Counter::new();
    report!("BDTREE core name={}", rt::CORE);
    run_pack(&SELF_PACK.0, work, &counter, Some((&mut cones, boxes)))
}

/// Every scene of a pack; the cone slots and box caches for scenes with self pairs.
fn run_pack(
    pack: &'static [u8],
    work: &mut Work,
    counter: &Counter,
    mut self_storage: Option<(&mut SelfCones<'_>, &mut Boxes)>,
) -> bool {
    let mut ok = true;
    let mut reader = Reader::new(pack);
    let header = (reader.u32(), reader.u32(), reader.u32());
    let (Some(PACK_MAGIC), Some(PACK_VERSION), Some(scenes)) = header else {
        report!("BDTREE error: the fixture pack has a wrong magic or version");
        return false;
    };
    for index in 0..scenes {
        let Some(mut scene) = reader.usize().and_then(|len| reader.sub(len)) else {
            report!("BDTREE error scene_index={}: the pack ends early", index);
            return false;
        };
        let storage = self_storage.as_mut().map(|(c, b)| (&mut **c, &mut **b));
        match run_scene(&mut scene, work, counter, storage) {
            Ok(matched) => ok &= matched,
            Err(e) => {
                report!("BDTREE error scene_index={}: {}", index, e);
                ok = false;
            }
        }
    }
    ok
}

/// The broad phase's allowed-collision matrix on this core's `usize` (32 bits on every
/// Cortex-M and R): 65,536 bodies need 2,147,516,416 bits, more words than 1,024; the old
/// `usize` product wrapped to 32,768 bits and accepted them.
fn broad_phase_is_checked() -> bool {
    let mut words = [0u32; 1024];
    let n = black_box(65_536usize);
    let refused = BitMatrix::new(&mut words, n).is_none();
    let needed = BitMatrix::checked_words_needed(n);
    let too_big = BitMatrix::checked_words_needed(black_box(100_000)).is_none();
    let ok =
        refused && needed == Some(2_147_516_416usize.div_ceil(32)) && (usize::BITS > 32 || too_big);
    report!(
        "BDTREE check name=broad_overflow usize_bits={} refused={} ok={}",
        usize::BITS,
        u32::from(refused),
        u32::from(ok)
    );
    ok
}

/// Per-call instruction counts at M = 10 (loop overhead included: upper bounds):
/// `update_m10` through [`bdtree_core::TreeView::update`] with the mode count known only at run
/// time, as [`Body::sphere`] calls it; `update_m10_portable`, the Rust kernel alone
/// ([`bdtree_core::bounds::sphere::update_portable`]); `sphere_m10`, a cache miss of [`Body::sphere`]
/// (update, world transform, inflation, cache write); `sqrt_libm` and `sqrt_micromath`, the
/// square root of a deepest-first ordering key without and with bdtree-core's `micromath`
/// feature.
#[inline(never)]
fn bench(work: &mut Work, counter: &Counter) -> bool {
    let image = match Image::<f32>::parse(black_box(&crate::BENCH_F32.0)) {
        Ok(image) => image,
        Err(e) => {
            report!("BDTREE error: the M = 10 image: {}", e);
            return false;
        }
    };
    let body = Body::new(&image, &mut work.bench_cache, &mut work.bench_modes);
    let mut body = match body {
        Ok(body) => body,
        Err(e) => {
            report!("BDTREE error: the M = 10 body: {}", e);
            return false;
        }
    };
    let mut q = [0.0f32; 10];
    for (j, x) in q.iter_mut().enumerate() {
        *x = 0.01 * j as f32 - 0.045;
    }
    let pose =
        Pose::from_quaternion([0.9, 0.1, -0.3, 0.2], [0.5, -1.0, 2.0]).unwrap_or(Pose::identity());
    if body.set_state(pose, &q).is_err() || body.tree().modes() != 10 {
        report!("BDTREE error: the M = 10 body: bad state");
        return false;
    }
    let nodes = body.tree().node_count();
    const ROUNDS: u64 = 4;
    let calls = ROUNDS * nodes as u64;

    // Every result is folded into a word the optimiser must keep (four `eor`s a call), so
    // nothing is skipped and little is added: the figures include that and the loop.
    fn fold(h: u32, s: [f32; 4]) -> u32 {
        h ^ s[0].to_bits() ^ s[1].to_bits() ^ s[2].to_bits() ^ s[3].to_bits()
    }
    let tree = *body.tree();
    let weights = body.weights();
    let mut h = 0u32;
    let start = counter.now();
    for _ in 0..ROUNDS {
        for node in 0..nodes {
            if let Some(s) = tree.update(node, weights) {
                h = fold(h, s);
            }
        }
    }
    let update = (counter.now() - start) / calls;

    let start = counter.now();
    for _ in 0..ROUNDS {
        for node in 0..nodes {
            if let Some(r) = tree.record(node) {
                h = fold(h, bdtree_core::bounds::sphere::update_portable(r, weights));
            }
        }
    }
    let portable = (counter.now() - start) / calls;

    let mut total = 0;
    for _ in 0..ROUNDS {
        // A new step: every node misses once.
        if body.set_state(pose, &q).is_err() {
            return false;
        }
        let start = counter.now();
        for node in 0..nodes {
            if let Some(s) = body.sphere(node) {
                h = fold(h, s);
            }
        }
        total += counter.now() - start;
    }
    let sphere = total / calls;
    black_box(h);
    report!("BDTREE update_m10 instructions={}", update);
    report!("BDTREE update_m10_portable instructions={}", portable);
    report!("BDTREE sphere_m10 instructions={}", sphere);

    // A deepest-first traversal of two M = 10 bodies in contact, run to its end: one square
    // root per key (`deepest_first`: instructions of the whole run, and the pairs it found).
    let other = Body::new(&image, &mut work.bench_cache_b, &mut work.bench_modes_b);
    let shifted = Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.3, 0.1, 0.0]);
    let (Ok(mut other), Ok(shifted)) = (other, shifted) else {
        report!("BDTREE error: the second M = 10 body");
        return false;
    };
    if other.set_state(shifted, &q).is_err() || body.set_state(Pose::identity(), &q).is_err() {
        return false;
    }
    let mut found = 0u32;
    let mut sink = |_: TrianglePair| {
        found += 1;
        true
    };
    let start = counter.now();
    let mut t = Traversal::new(&mut work.pending, Order::DeepestFirst);
    let mut status = t.start(&mut body, &mut other);
    if status == RunStatus::Interrupted {
        let mut budget = bdtree_core::TestBudget::unlimited();
        status = t.run(&mut body, &mut other, &mut budget, &mut sink).status;
    }
    let deepest = counter.now() - start;
    if status != RunStatus::Done || found == 0 {
        report!("BDTREE error: the deepest-first bench did not finish with pairs");
        return false;
    }
    report!(
        "BDTREE deepest_first instructions={} pairs={}",
        deepest,
        found
    );
    roots(counter);
    sizes();
    true
}

/// Instructions per square root of an `Order::DeepestFirst` key (`sqrt_libm`, the default, and
/// `sqrt_micromath`, bdtree-core's `micromath` feature); out of line so that [`bench`]'s loops
/// compile as before.
#[inline(never)]
fn roots(counter: &Counter) {
    // Squared distances from 10⁻⁶ to 0.19 (node centres of a unit-size body), computed before
    // the clock starts: each loop costs a load, the root, an `eor` and the loop.
    let mut roots = [0.0f32; 256];
    for (i, x) in roots.iter_mut().enumerate() {
        let r = (i as f32 + 1.0) * (1.0 / 1024.0) * (1.0 + (i % 7) as f32 / 8.0);
        *x = black_box(r * r);
    }
    let roots = black_box(roots);
    let mut acc = 0u32;
    let start = counter.now();
    for &x in &roots {
        acc ^= bdtree_core::Scalar::sqrt(black_box(x)).to_bits();
    }
    let sqrt_libm = (counter.now() - start) / roots.len() as u64;
    let start = counter.now();
    for &x in &roots {
        acc ^= micromath::F32(black_box(x)).sqrt().0.to_bits();
    }
    let sqrt_micromath = (counter.now() - start) / roots.len() as u64;
    black_box(acc);
    report!("BDTREE sqrt_libm instructions={}", sqrt_libm);
    report!("BDTREE sqrt_micromath instructions={}", sqrt_micromath);
}

/// `size_of` of the public state types on this target.
#[inline(never)]
fn sizes() {
    {
        use core::mem::size_of;
        report!(
            "BDTREE size_of body_f32={} body_f64={} image_f32={} tree_view_f32={} pose_f32={} cache_entry_f32={} cache_entry_f64={} vertex_entry_f32={} traversal_f32={} pending_f32={} triangle_pair={}",
            size_of::<Body<'static, 'static, f32>>(),
            size_of::<Body<'static, 'static, f64>>(),
            size_of::<Image<'static, f32>>(),
            size_of::<bdtree_core::TreeView<'static, f32>>(),
            size_of::<Pose<f32>>(),
            size_of::<CacheEntry<f32>>(),
            size_of::<CacheEntry<f64>>(),
            size_of::<VertexEntry<f32>>(),
            size_of::<Traversal<'static, f32>>(),
            size_of::<Pending<f32>>(),
            size_of::<TrianglePair>()
        );
    }
}

/// Per-frame work counters, as the pack stores them.
#[derive(Default, PartialEq, Eq, Clone, Copy)]
struct Counters {
    complete: u32,
    nodes_visited: u32,
    sphere_updates: u32,
    overlap_tests: u32,
    triangle_tests: u32,
    pairs: u32,
}

/// What a frame read from the pack: every body's pose and `q`.
struct FrameState {
    poses: [([f32; 4], [f32; 3]); MAX_BODIES],
    q: [[f32; MAX_MODES]; MAX_BODIES],
}

fn run_scene(
    reader: &mut Reader<'static>,
    work: &mut Work,
    counter: &Counter,
    self_storage: Option<(&mut SelfCones<'_>, &mut Boxes)>,
) -> Result<bool, &'static str> {
    const SHORT: &str = "the scene's data ends early";
    // The whole scene's stack: every frame and the interruptible replay, from the stack's top.
    rt::paint_stack();
    let name_len = reader.usize().ok_or(SHORT)?;
    let name = reader.bytes(name_len).ok_or(SHORT)?;
    reader.align(4).ok_or(SHORT)?;
    let name = core::str::from_utf8(name).unwrap_or("?");
    let body_count = reader.usize().ok_or(SHORT)?;
    let frame_count = reader.usize().ok_or(SHORT)?;
    // `u32::MAX`: triangle queries; otherwise proxy queries at this depth.
    let proxy_depth = match reader.u32().ok_or(SHORT)? {
        u32::MAX => None,
        l => Some(l),
    };
    let flags = reader.u32().ok_or(SHORT)?;
    // Self pairs need the cone slots (and complete trees).
    let (mut cones, boxes) = match (flags & SCENE_SELF != 0, self_storage) {
        (false, _) => (None, None),
        (true, Some((c, b))) if proxy_depth.is_none() => (Some(c), Some(b)),
        (true, _) => return Err("a scene with self pairs outside the self replay"),
    };
    if body_count > MAX_BODIES {
        return Err("more bodies than the firmware has buffers for");
    }
    // Each body's box cache (scenes with self pairs), taken by its body below.
    let mut box_slots: [Option<&mut [BoxEntry<f32>; MAX_NODES]>; MAX_BODIES] = match boxes {
        Some(all) => all.each_mut().map(Some),
        None => core::array::from_fn(|_| None),
    };
    let mut images: [Option<Image<'static, f32>>; MAX_BODIES] = [None; MAX_BODIES];
    let mut modes = [0usize; MAX_BODIES];
    for (image, m) in images.iter_mut().zip(modes.iter_mut()).take(body_count) {
        *m = reader.usize().ok_or(SHORT)?;
        let len = reader.usize().ok_or(SHORT)?;
        reader.align(16).ok_or(SHORT)?;
        let bytes = reader.bytes(len).ok_or(SHORT)?;
        reader.align(4).ok_or(SHORT)?;
        match Image::<f32>::parse(bytes) {
            Ok(parsed) => *image = Some(parsed),
            Err(e) => {
                report!("BDTREE error scene={}: image rejected: {}", name, e);
                return Ok(false);
            }
        }
        if *m > MAX_MODES {
            return Err("more modes than the firmware has buffers for");
        }
    }
    let Work {
        caches,
        modes: mode_slots,
        vertices,
        stack,
        pairs,
        pending,
        world,
        ..
    } = work;
    // The scene's bodies side by side, as the world query takes them.
    let mut bodies: heapless::Vec<Body<'static, '_, f32>, MAX_BODIES> = heapless::Vec::new();
    for (k, ((image, (cache, vertices)), slots)) in images
        .iter()
        .take(body_count)
        .zip(caches.iter_mut().zip(vertices.iter_mut()))
        .zip(mode_slots.iter_mut())
        .enumerate()
    {
        let image = image.as_ref().ok_or("a body of the scene has no image")?;
        let boxes = box_slots.get_mut(k).and_then(Option::take);
        match make_body(image, cache, slots, vertices, boxes) {
            Ok(body) => bodies
                .push(body)
                .map_err(|_| "more bodies than MAX_BODIES")?,
            Err(e) => {
                report!("BDTREE error scene={}: {}", name, e);
                return Ok(false);
            }
        }
    }
    let bodies = bodies.as_mut_slice();

    let mut mismatches = 0u32;
    let mut float_mismatches = 0u32;
    let (mut total_pairs, mut sum, mut max) = (0u32, 0u64, 0u64);
    let (mut resumed, mut slots_max, mut resume_mismatches) = (0u32, 0u32, 0u32);
    let mut state = FrameState {
        poses: [([1.0, 0.0, 0.0, 0.0], [0.0; 3]); MAX_BODIES],
        q: [[0.0; MAX_MODES]; MAX_BODIES],
    };
    for frame in 0..frame_count {
        for ((pose, q), &m) in state
            .poses
            .iter_mut()
            .zip(state.q.iter_mut())
            .zip(&modes)
            .take(body_count)
        {
            for x in pose.0.iter_mut().chain(pose.1.iter_mut()) {
                *x = reader.f32().ok_or(SHORT)?;
            }
            for x in q.iter_mut().take(m) {
                *x = reader.f32().ok_or(SHORT)?;
            }
        }
        let expected = Counters {
            complete: reader.u32().ok_or(SHORT)?,
            nodes_visited: reader.u32().ok_or(SHORT)?,
            sphere_updates: reader.u32().ok_or(SHORT)?,
            overlap_tests: reader.u32().ok_or(SHORT)?,
            triangle_tests: reader.u32().ok_or(SHORT)?,
            pairs: reader.u32().ok_or(SHORT)?,
        };
        let expected_sums = (reader.u32().ok_or(SHORT)?, reader.u32().ok_or(SHORT)?);
        let expected_count = reader.usize().ok_or(SHORT)?;
        let expected_pairs = reader.sub(16 * expected_count).ok_or(SHORT)?;

        let start = counter.now();
        let found = run_frame(
            &state,
            bodies,
            &modes,
            proxy_depth,
            (world, cones.as_deref_mut()),
            stack,
            pairs,
        );
        let instructions = counter.now() - start;
        sum += instructions;
        max = max.max(instructions);
        let Some((counters, count)) = found else {
            report!(
                "BDTREE error scene={} frame={}: a body refused its state",
                name,
                frame
            );
            mismatches += 1;
            continue;
        };
        let found_pairs = pairs.get(..count).unwrap_or(&[]);
        let sums = checksums(bodies, found_pairs, proxy_depth.is_none());

        // The same step again, as a query spread over slots (outside the measured region): it
        // must end with the pairs the full query found. (Triangle queries only: proxy scenes
        // may use bounded trees, which have no triangles.)
        if proxy_depth.is_none() {
            let (queries, slots, same) = resume_frame(bodies, found_pairs, pending, counter);
            resumed = resumed.wrapping_add(queries);
            slots_max = slots_max.max(slots);
            resume_mismatches += u32::from(!same);
        }

        let mut same = counters == expected && count == expected_count;
        // Pairs are unique within a frame: equal counts and every expected pair found means
        // equal sets. (Traversal order differs from the host's sorted list.)
        let mut list = expected_pairs;
        for _ in 0..expected_count {
            let pair = [
                list.u32().ok_or(SHORT)?,
                list.u32().ok_or(SHORT)?,
                list.u32().ok_or(SHORT)?,
                list.u32().ok_or(SHORT)?,
            ];
            same &= found_pairs.contains(&pair);
        }
        total_pairs = total_pairs.wrapping_add(count as u32);
        let floats_same = sums == expected_sums;
        float_mismatches += u32::from(!floats_same);
        if !same || !floats_same {
            mismatches += 1;
            if mismatches <= 3 {
                report!(
                    "BDTREE mismatch scene={} frame={} pairs={} expected={} counters(target)=[{} {} {} {} {} {}] counters(host)=[{} {} {} {} {} {}] sums(target)=[{:08x} {:08x}] sums(host)=[{:08x} {:08x}]",
                    name, frame, count, expected_count,
                    counters.complete, counters.nodes_visited, counters.sphere_updates,
                    counters.overlap_tests, counters.triangle_tests, counters.pairs,
                    expected.complete, expected.nodes_visited, expected.sphere_updates,
                    expected.overlap_tests, expected.triangle_tests, expected.pairs,
                    sums.0, sums.1, expected_sums.0, expected_sums.1
                );
            }
        }
    }
    let stack_bytes = rt::stack_high_water();
    let mean = sum / (frame_count.max(1) as u64);
    report!(
        "BDTREE scene name={} bodies={} frames={} pairs={} mismatches={} float_mismatches={} frame_instructions_mean={} frame_instructions_max={} stack_bytes={}",
        name, body_count, frame_count, total_pairs, mismatches, float_mismatches, mean, max, stack_bytes
    );
    report!(
        "BDTREE interrupt name={} slot_instructions={} queries={} slots_max={} mismatches={}",
        name,
        SLOT_INSTRUCTIONS,
        resumed,
        slots_max,
        resume_mismatches
    );
    Ok(mismatches == 0 && resume_mismatches == 0)
}

/// The checksums of a frame's computed floats: every node sphere computed this step (of every
/// body), and the deformed world vertices of both triangles of every found pair.
#[inline(never)]
fn checksums(
    bodies: &mut [Body<'static, '_, f32>],
    found: &[[u32; 4]],
    triangles: bool,
) -> (u32, u32) {
    let mut spheres = 0u32;
    for (b, body) in bodies.iter_mut().enumerate() {
        for node in 0..body.tree().node_count() {
            if body.is_cached(node) {
                if let Some(s) = body.sphere(node) {
                    let word = mix(sphere_key(b as u32, node as u32), &s.map(f32::to_bits));
                    spheres = spheres.wrapping_add(word);
                }
            }
        }
    }
    let mut vertices = 0u32;
    if triangles {
        for &[i, j, ta, tb] in found {
            for (b, t) in [(i, ta), (j, tb)] {
                let body = bodies.get_mut(b as usize);
                if let Some(tri) = body.and_then(|body| body.world_triangle(t as usize)) {
                    let mut bits = [0u32; 9];
                    for (o, x) in bits.iter_mut().zip(tri.iter().flatten()) {
                        *o = x.to_bits();
                    }
                    vertices = vertices.wrapping_add(mix(triangle_key(b, t), &bits));
                }
            }
        }
    }
    (spheres, vertices)
}

/// A [`bdtree_core::Clock`] over the instruction counter.
struct Instructions<'c>(&'c Counter);

impl bdtree_core::Clock for Instructions<'_> {
    fn now(&mut self) -> u64 {
        self.0.now()
    }
}

/// Runs every body pair of the current step as an interruptible query resumed over slots of
/// [`SLOT_INSTRUCTIONS`]; returns the queries run, the most slots one took, and whether every
/// query confirmed exactly the pairs in `found`.
#[inline(never)]
fn resume_frame(
    bodies: &mut [Body<'static, '_, f32>],
    found: &[[u32; 4]],
    pending: &mut [Pending<f32>],
    counter: &Counter,
) -> (u32, u32, bool) {
    let (mut queries, mut slots_max, mut same) = (0u32, 0u32, true);
    for i in 0..bodies.len() {
        let Some((head, tail)) = bodies.split_at_mut_checked(i + 1) else {
            return (queries, slots_max, false);
        };
        let Some(a) = head.last_mut() else {
            continue;
        };
        for (k, b) in tail.iter_mut().enumerate() {
            let j = (i + 1 + k) as u32;
            let mut t = Traversal::new(pending, Order::BreadthFirst);
            let mut status = t.start(a, b);
            let mut confirmed = 0usize;
            let mut slots = 0u32;
            while status == RunStatus::Interrupted && slots < 1_000_000 {
                let deadline = counter.now() + SLOT_INSTRUCTIONS;
                let mut budget = Deadline::new(Instructions(counter), deadline);
                let mut sink = |p: TrianglePair| {
                    same &= found.contains(&[i as u32, j, p.a, p.b]);
                    confirmed += 1;
                    true
                };
                status = t.run(a, b, &mut budget, &mut sink).status;
                slots += 1;
            }
            let expected = found
                .iter()
                .filter(|p| p[0] == i as u32 && p[1] == j)
                .count();
            same &= status == RunStatus::Done && confirmed == expected;
            queries += 1;
            slots_max = slots_max.max(slots);
        }
    }
    (queries, slots_max, same)
}

/// The world query over distinct body pairs (triangle pairs): whether it completed, and its
/// counters. (Inlined: the triangle scenes' frames measure the world query itself.)
#[inline(always)]
fn world_pairs(
    bodies: &mut [Body<'static, '_, f32>],
    world: &mut World,
    stack: &mut [[u32; 2]],
    keep: &mut impl FnMut([u32; 4]) -> bool,
) -> (bool, QueryStats) {
    let mut sweep = SweepAndPrune::new(&mut world.order);
    let distinct = |i: usize, j: usize| i != j;
    let outcome = collide_world(
        bodies,
        &mut sweep,
        &mut world.roots,
        &distinct,
        stack,
        &mut |w: WorldPair| keep([w.a, w.b, w.triangles.a, w.triangles.b]),
    );
    (outcome.status.is_complete(), outcome.stats)
}

/// Every body pair's proxy query at depth `l` (the kernel has no world proxy query, so the
/// host's runner does the same): whether every query completed, and their summed counters.
#[inline(never)]
fn proxy_pairs(
    bodies: &mut [Body<'static, '_, f32>],
    l: u32,
    stack: &mut [[u32; 2]],
    keep: &mut impl FnMut([u32; 4]) -> bool,
) -> Option<(bool, QueryStats)> {
    let (mut complete, mut stats) = (true, QueryStats::default());
    for i in 0..bodies.len() {
        let (head, tail) = bodies.split_at_mut_checked(i + 1)?;
        let a = head.last_mut()?;
        for (k, b) in tail.iter_mut().enumerate() {
            let j = (i + 1 + k) as u32;
            let mut sink = |p: ProxyPair<f32>| keep([i as u32, j, p.a, p.b]);
            let outcome = collide_proxies(a, b, l, l, stack, &mut sink);
            complete &= outcome.status.is_complete();
            stats.add(&outcome.stats);
        }
    }
    Some((complete, stats))
}

/// Sets every body's state and runs the world query (triangle pairs between distinct bodies,
/// as the host's runner does), or every body pair's proxy query at `proxy_depth`; returns the
/// counters summed over the queries and the number of pairs found (in `pairs`), or `None`
/// when a body refused its state.
#[inline(never)]
fn run_frame(
    state: &FrameState,
    bodies: &mut [Body<'static, '_, f32>],
    modes: &[usize; MAX_BODIES],
    proxy_depth: Option<u32>,
    (world, cones): (&mut World, Option<&mut SelfCones<'_>>),
    stack: &mut [[u32; 2]],
    pairs: &mut [[u32; 4]],
) -> Option<(Counters, usize)> {
    for (((body, &m), pose), q) in bodies.iter_mut().zip(modes).zip(&state.poses).zip(&state.q) {
        let pose = Pose::from_quaternion(pose.0, pose.1).ok()?;
        body.set_state(pose, q.get(..m)?).ok()?;
    }
    let mut count = 0usize;
    let mut keep = |pair: [u32; 4]| match pairs.get_mut(count) {
        Some(slot) => {
            *slot = pair;
            count += 1;
            true
        }
        None => false,
    };
    let (mut complete, mut stats) = match proxy_depth {
        None => world_pairs(bodies, world, stack, &mut keep),
        Some(l) => proxy_pairs(bodies, l, stack, &mut keep)?,
    };
    // Then every body's self pairs, culled with its image's data.
    if let Some(cones) = cones {
        for (i, body) in bodies.iter_mut().enumerate() {
            let i = i as u32;
            let outcome = collide_self_image(
                body,
                cones,
                &mut UnitCounts::default(),
                stack,
                &mut |p: TrianglePair| keep([i, i, p.a, p.b]),
            );
            complete &= outcome.status.is_complete();
            stats.add(&outcome.stats);
        }
    }
    let counters = Counters {
        complete: u32::from(complete),
        nodes_visited: stats.nodes_visited,
        sphere_updates: stats.sphere_updates,
        overlap_tests: stats.overlap_tests,
        triangle_tests: stats.triangle_tests,
        pairs: stats.pairs,
    };
    Some((counters, count))
}

/// A body with its vertex cache and, in a scene with self pairs, its box cache. Out of line:
/// the scenes' stack (which every frame's figure counts) holds only the body made.
#[inline(never)]
fn make_body<'c>(
    image: &'c Image<'static, f32>,
    cache: &'c mut [CacheEntry<f32>],
    slots: &'c mut [f32],
    vertices: &'c mut [VertexEntry<f32>],
    boxes: Option<&'c mut [BoxEntry<f32>; MAX_NODES]>,
) -> Result<Body<'static, 'c, f32>, bdtree_core::BodyError> {
    let body = Body::new(image, cache, slots)?.with_vertex_cache(vertices)?;
    match boxes {
        Some(boxes) => body.with_box_cache(boxes),
        None => Ok(body),
    }
}

/// A replay binary (`src/bin/replay.rs`, `src/bin/replay_self.rs`): its entry runs `$run` (a
/// function of this module saying whether every frame matched), prints the result and exits
/// with it; its panic handler prints the panic and fails the run.
#[macro_export]
macro_rules! replay_main {
    ($run:path) => {
        #[no_mangle]
        fn firmware_main() -> ! {
            let ok = $run();
            $crate::report!("BDTREE result {}", if ok { "ok" } else { "FAILED" });
            $crate::rt::exit(ok)
        }

        #[panic_handler]
        fn panic(info: &core::panic::PanicInfo) -> ! {
            $crate::report!("BDTREE panic: {}", info);
            $crate::rt::exit(false)
        }
    };
}
