//! bdtree's fixture checks on an emulated Cortex-M core.
//!
//! `cargo xtask firmware-pack` writes `pack/fixtures.bin` from the committed fixture scenes:
//! every body's f32 tree image, every frame's poses and `q`, and the answers the host's f32
//! kernel gives (pairs and counters). This firmware replays every frame with the same kernel on
//! the target and requires the same answers bit for bit — the arithmetic is IEEE single
//! precision on both sides, with no fused operations. It also measures, in instructions under
//! `qemu -icount shift=0`, the exact sphere update at M = 10 and every frame's queries, and the
//! stack a frame uses. It exits through semihosting: status 0 when everything matched.
//!
//! Features: `report` prints the figures (lines starting `BDTREE `) — what `cargo xtask qemu`
//! and `cargo xtask size` read; `panic-check` makes every panic path a link error (see
//! `cargo xtask panic-check`).
#![no_std]
#![no_main]

mod measure;
mod pack;

use bdtree_core::sphere::{mode_weights, update};
use bdtree_core::{
    collide, collide_proxies, AlignedImage, Body, CacheEntry, Deadline, Image, Order, Pending,
    Pose, ProxyPair, QueryOutcome, RunStatus, Traversal, TrianglePair, VertexEntry,
};
use cortex_m_rt::entry;
use cortex_m_semihosting::debug;

use measure::Clock;
use pack::Reader;

// MAX_BODIES, MAX_NODES, MAX_VERTICES, MAX_MODES, MAX_PAIRS, STACK_PAIRS: the fixtures' needs.
include!("../pack/limits.rs");

static PACK: &AlignedImage<[u8]> = &AlignedImage(*include_bytes!("../pack/fixtures.bin"));
const PACK_MAGIC: u32 = u32::from_le_bytes(*b"BDFP");
const PACK_VERSION: u32 = 2;

/// Sphere caches, vertex caches, the traversal stack and the pair buffer live in `.bss`.
static mut CACHES: [[CacheEntry<f32>; MAX_NODES]; MAX_BODIES] =
    [[CacheEntry::EMPTY; MAX_NODES]; MAX_BODIES];
static mut MODES: [[f32; 5 * MAX_MODES]; MAX_BODIES] = [[0.0; 5 * MAX_MODES]; MAX_BODIES];
static mut VERTICES: [[VertexEntry<f32>; MAX_VERTICES]; MAX_BODIES] =
    [[VertexEntry::EMPTY; MAX_VERTICES]; MAX_BODIES];
static mut STACK: [[u32; 2]; STACK_PAIRS] = [[0; 2]; STACK_PAIRS];
static mut PAIRS: [[u32; 4]; MAX_PAIRS] = [[0; 4]; MAX_PAIRS];
/// The interruptible traversal's pending list.
static mut PENDING: [Pending<f32>; PENDING_PAIRS] = [Pending::EMPTY; PENDING_PAIRS];
const PENDING_PAIRS: usize = 32768;
/// Instructions each tick of the resumed queries may use.
const SLOT_INSTRUCTIONS: u64 = 20_000;

/// Prints a line over semihosting with the `report` feature; without it, only evaluates the
/// arguments (no formatting code is linked).
#[cfg(feature = "report")]
macro_rules! report {
    ($($arg:tt)*) => {
        cortex_m_semihosting::hprintln!($($arg)*)
    };
}

#[cfg(not(feature = "report"))]
macro_rules! report {
    ($fmt:literal $(, $arg:expr)* $(,)?) => {{
        $(let _ = &$arg;)*
    }};
}

/// Storage a scene runs in.
struct Work {
    caches: &'static mut [[CacheEntry<f32>; MAX_NODES]; MAX_BODIES],
    mode_slots: &'static mut [[f32; 5 * MAX_MODES]; MAX_BODIES],
    vertices: &'static mut [[VertexEntry<f32>; MAX_VERTICES]; MAX_BODIES],
    stack: &'static mut [[u32; 2]; STACK_PAIRS],
    pairs: &'static mut [[u32; 4]; MAX_PAIRS],
    pending: &'static mut [Pending<f32>; PENDING_PAIRS],
}

#[entry]
fn main() -> ! {
    let ok = run().unwrap_or(false);
    report!("BDTREE result {}", if ok { "ok" } else { "FAILED" });
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    #[allow(clippy::empty_loop)]
    loop {}
}

fn run() -> Option<bool> {
    let peripherals = cortex_m::Peripherals::take()?;
    let clock = Clock::new(peripherals.SYST);
    report!(
        "BDTREE calibration milli_instructions_per_tick={}",
        clock.milli_instructions_per_tick()
    );
    report!("BDTREE update_m10 instructions={}", update_m10(&clock));

    // SAFETY: `run` executes once, before anything else touches these statics, and the
    // references are the only ones ever made.
    let mut work = unsafe {
        Work {
            caches: &mut *core::ptr::addr_of_mut!(CACHES),
            mode_slots: &mut *core::ptr::addr_of_mut!(MODES),
            vertices: &mut *core::ptr::addr_of_mut!(VERTICES),
            stack: &mut *core::ptr::addr_of_mut!(STACK),
            pairs: &mut *core::ptr::addr_of_mut!(PAIRS),
            pending: &mut *core::ptr::addr_of_mut!(PENDING),
        }
    };
    let mut reader = Reader::new(&PACK.0);
    if reader.u32()? != PACK_MAGIC || reader.u32()? != PACK_VERSION {
        report!("BDTREE error: the fixture pack has a wrong magic or version");
        return Some(false);
    }
    let scenes = reader.u32()?;
    let mut ok = true;
    for _ in 0..scenes {
        ok &= run_scene(&mut reader, &mut work, &clock)?;
    }
    Some(ok)
}

/// Instructions per `sphere::update` at M = 10, averaged over many calls (loop and call
/// overhead included, so an upper bound on the update itself).
#[inline(never)]
fn update_m10(clock: &Clock) -> u64 {
    const CALLS: u32 = 2000;
    let mut record = [[0.0f32; 4]; 11];
    let mut v = 0.5f32;
    for row in record.iter_mut() {
        for x in row.iter_mut() {
            v = v * 1.37 - 0.21;
            *x = v;
        }
    }
    let mut q = [0.0f32; 10];
    for (j, x) in q.iter_mut().enumerate() {
        *x = 0.1 * j as f32 - 0.45;
    }
    let mut weights = [[0.0f32; 4]; 10];
    mode_weights(&q, &mut weights);
    let start = clock.now();
    for _ in 0..CALLS {
        let r = core::hint::black_box(&record);
        let w = core::hint::black_box(&weights);
        core::hint::black_box(update(r, w));
    }
    clock.instructions(clock.ticks_since(start)) / u64::from(CALLS)
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

fn run_scene(reader: &mut Reader<'static>, work: &mut Work, clock: &Clock) -> Option<bool> {
    let name_len = reader.usize()?;
    let name = reader.bytes(name_len)?;
    reader.align(4)?;
    let name = core::str::from_utf8(name).unwrap_or("?");
    let body_count = reader.usize()?;
    let frame_count = reader.usize()?;
    // `u32::MAX`: triangle queries; otherwise proxy queries at this depth.
    let proxy_depth = match reader.u32()? {
        u32::MAX => None,
        l => Some(l),
    };
    if body_count > MAX_BODIES {
        report!("BDTREE error: scene {} has {} bodies", name, body_count);
        return Some(false);
    }
    let mut images: [Option<Image<'static, f32>>; MAX_BODIES] = [None; MAX_BODIES];
    let mut modes = [0usize; MAX_BODIES];
    for (image, m) in images.iter_mut().zip(modes.iter_mut()).take(body_count) {
        *m = reader.usize()?;
        let len = reader.usize()?;
        reader.align(16)?;
        let bytes = reader.bytes(len)?;
        reader.align(4)?;
        match Image::<f32>::parse(bytes) {
            Ok(parsed) => *image = Some(parsed),
            Err(e) => {
                report!("BDTREE error: scene {}: image rejected: {}", name, e);
                return Some(false);
            }
        }
    }
    let Work {
        caches,
        mode_slots,
        vertices,
        stack,
        pairs,
        pending,
    } = work;
    let mut bodies: [Option<Body<'static, '_, f32>>; MAX_BODIES] = [const { None }; MAX_BODIES];
    for (((slot, image), (cache, vertices)), slots) in bodies
        .iter_mut()
        .zip(&images)
        .zip(caches.iter_mut().zip(vertices.iter_mut()))
        .zip(mode_slots.iter_mut())
    {
        if let Some(image) = image {
            match Body::new(image, cache, slots).and_then(|b| b.with_vertex_cache(vertices)) {
                Ok(body) => *slot = Some(body),
                Err(e) => {
                    report!("BDTREE error: scene {}: {}", name, e);
                    return Some(false);
                }
            }
        }
    }

    let mut mismatches = 0u32;
    let (mut total_pairs, mut sum, mut max) = (0u32, 0u64, 0u64);
    let mut stack_bytes = 0usize;
    let (mut resumed, mut ticks_max, mut resume_mismatches) = (0u32, 0u32, 0u32);
    for frame in 0..frame_count {
        let sp = measure::paint();
        let start = clock.now();
        let found = run_frame(
            reader,
            &mut bodies,
            &modes,
            body_count,
            proxy_depth,
            &mut stack[..],
            &mut pairs[..],
        )?;
        let instructions = clock.instructions(clock.ticks_since(start));
        stack_bytes = stack_bytes.max(measure::high_water(sp));
        sum += instructions;
        max = max.max(instructions);

        let (counters, count) = found;
        // The same step again, as a query spread over ticks of SLOT_INSTRUCTIONS each (outside
        // the measured region): it must end with the pairs the full query found. (Triangle
        // queries only: proxy scenes may use bounded trees, which have no triangles.)
        let (queries, ticks, same) = if proxy_depth.is_none() {
            resume_frame(
                &mut bodies,
                body_count,
                pairs.get(..count)?,
                &mut pending[..],
                clock,
            )?
        } else {
            (0, 0, true)
        };
        resumed = resumed.wrapping_add(queries);
        ticks_max = ticks_max.max(ticks);
        resume_mismatches += u32::from(!same);
        let expected = Counters {
            complete: reader.u32()?,
            nodes_visited: reader.u32()?,
            sphere_updates: reader.u32()?,
            overlap_tests: reader.u32()?,
            triangle_tests: reader.u32()?,
            pairs: reader.u32()?,
        };
        let expected_count = reader.usize()?;
        let mut same = counters == expected && count == expected_count;
        // Pairs are unique within a frame: equal counts and every expected pair found means
        // equal sets. (Traversal order differs from the host's sorted list.)
        let found_pairs = pairs.get(..count)?;
        for _ in 0..expected_count {
            let pair = [reader.u32()?, reader.u32()?, reader.u32()?, reader.u32()?];
            same &= found_pairs.contains(&pair);
        }
        total_pairs = total_pairs.wrapping_add(count as u32);
        if !same {
            mismatches += 1;
            if mismatches <= 3 {
                report!(
                    "BDTREE mismatch scene={} frame={} pairs={} expected={} counters(target)=[{} {} {} {} {} {}] counters(host)=[{} {} {} {} {} {}]",
                    name, frame, count, expected_count,
                    counters.complete, counters.nodes_visited, counters.sphere_updates,
                    counters.overlap_tests, counters.triangle_tests, counters.pairs,
                    expected.complete, expected.nodes_visited, expected.sphere_updates,
                    expected.overlap_tests, expected.triangle_tests, expected.pairs
                );
            }
        }
    }
    let mean = sum / (frame_count.max(1) as u64);
    report!(
        "BDTREE scene name={} bodies={} frames={} pairs={} mismatches={} frame_instructions_mean={} frame_instructions_max={} stack_bytes={}",
        name, body_count, frame_count, total_pairs, mismatches, mean, max, stack_bytes
    );
    report!(
        "BDTREE interrupt name={} slot_instructions={} queries={} ticks_max={} mismatches={}",
        name,
        SLOT_INSTRUCTIONS,
        resumed,
        ticks_max,
        resume_mismatches
    );
    Some(mismatches == 0 && resume_mismatches == 0)
}

/// SysTick as a monotonic 64-bit tick count for [`Deadline`] (read at least once per 2²⁴
/// ticks, which every traversal step is far below).
struct SysTickClock<'c> {
    clock: &'c Clock,
    last: u32,
    total: u64,
}

impl bdtree_core::Clock for SysTickClock<'_> {
    fn now(&mut self) -> u64 {
        let ticks = self.clock.ticks_since(self.last);
        self.last = self.clock.now();
        self.total += u64::from(ticks);
        self.total
    }
}

/// Runs every body pair of the current step as an interruptible query resumed over ticks of
/// [`SLOT_INSTRUCTIONS`]; returns the queries run, the most ticks one took, and whether every
/// query confirmed exactly the pairs in `found`.
#[inline(never)]
fn resume_frame(
    bodies: &mut [Option<Body<'static, '_, f32>>; MAX_BODIES],
    body_count: usize,
    found: &[[u32; 4]],
    pending: &mut [Pending<f32>],
    clock: &Clock,
) -> Option<(u32, u32, bool)> {
    let slot_ticks = SLOT_INSTRUCTIONS * 1000 / clock.milli_instructions_per_tick().max(1);
    let (mut queries, mut ticks_max, mut same) = (0u32, 0u32, true);
    for i in 0..body_count {
        let (head, tail) = bodies.split_at_mut_checked(i + 1)?;
        let a = head.last_mut()?.as_mut()?;
        for (k, b) in tail.iter_mut().take(body_count - i - 1).enumerate() {
            let b = b.as_mut()?;
            let j = (i + 1 + k) as u32;
            let mut t = Traversal::new(pending, Order::BreadthFirst);
            let mut status = t.start(a, b);
            let mut confirmed = 0usize;
            let mut ticks = 0u32;
            while status == RunStatus::Interrupted && ticks < 1_000_000 {
                let time = SysTickClock {
                    clock,
                    last: clock.now(),
                    total: 0,
                };
                let mut budget = Deadline::new(time, slot_ticks);
                let mut sink = |p: TrianglePair| {
                    same &= found.contains(&[i as u32, j, p.a, p.b]);
                    confirmed += 1;
                    true
                };
                status = t.run(a, b, &mut budget, &mut sink).status;
                ticks += 1;
            }
            let expected = found
                .iter()
                .filter(|p| p[0] == i as u32 && p[1] == j)
                .count();
            same &= status == RunStatus::Done && confirmed == expected;
            queries += 1;
            ticks_max = ticks_max.max(ticks);
        }
    }
    Some((queries, ticks_max, same))
}

/// Sets every body's state from the pack and runs every pair of bodies (triangle queries, or
/// proxy queries at `proxy_depth`); returns the counters summed over the pairs and the number of
/// pairs found (in `work.pairs`).
#[inline(never)]
fn run_frame(
    reader: &mut Reader<'static>,
    bodies: &mut [Option<Body<'static, '_, f32>>; MAX_BODIES],
    modes: &[usize; MAX_BODIES],
    body_count: usize,
    proxy_depth: Option<u32>,
    stack: &mut [[u32; 2]],
    pairs: &mut [[u32; 4]],
) -> Option<(Counters, usize)> {
    for (body, &m) in bodies.iter_mut().zip(modes).take(body_count) {
        let rotation = [reader.f32()?, reader.f32()?, reader.f32()?, reader.f32()?];
        let translation = [reader.f32()?, reader.f32()?, reader.f32()?];
        let mut q = [0.0f32; MAX_MODES];
        for x in q.get_mut(..m)? {
            *x = reader.f32()?;
        }
        let pose = Pose::from_quaternion(rotation, translation).ok()?;
        body.as_mut()?.set_state(pose, q.get(..m)?).ok()?;
    }
    let mut counters = Counters {
        complete: 1,
        ..Counters::default()
    };
    let mut count = 0usize;
    for i in 0..body_count {
        let (head, tail) = bodies.split_at_mut_checked(i + 1)?;
        let a = head.last_mut()?.as_mut()?;
        for (k, b) in tail.iter_mut().take(body_count - i - 1).enumerate() {
            let b = b.as_mut()?;
            let j = (i + 1 + k) as u32;
            let mut keep = |x: u32, y: u32| match pairs.get_mut(count) {
                Some(slot) => {
                    *slot = [i as u32, j, x, y];
                    count += 1;
                    true
                }
                None => false,
            };
            let outcome: QueryOutcome = match proxy_depth {
                None => collide(a, b, stack, &mut |p: TrianglePair| keep(p.a, p.b)),
                Some(l) => {
                    collide_proxies(a, l, b, l, stack, &mut |p: ProxyPair<f32>| keep(p.a, p.b))
                }
            };
            let s = outcome.stats;
            counters.complete &= u32::from(outcome.status.is_complete());
            counters.nodes_visited = counters.nodes_visited.wrapping_add(s.nodes_visited);
            counters.sphere_updates = counters.sphere_updates.wrapping_add(s.sphere_updates);
            counters.overlap_tests = counters.overlap_tests.wrapping_add(s.overlap_tests);
            counters.triangle_tests = counters.triangle_tests.wrapping_add(s.triangle_tests);
            counters.pairs = counters.pairs.wrapping_add(s.pairs);
        }
    }
    Some((counters, count))
}

#[cfg(not(feature = "panic-check"))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    report!("BDTREE panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}

#[cfg(feature = "panic-check")]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    extern "C" {
        /// Defined nowhere: linking fails if any panic path survives optimisation.
        fn bdtree_firmware_error_a_panic_path_is_reachable() -> !;
    }
    // SAFETY: never runs — the firmware links only when this function is unreachable.
    unsafe { bdtree_firmware_error_a_panic_path_is_reachable() }
}
