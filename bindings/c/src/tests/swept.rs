//! `bdtree_collide_swept_f32`/`_f64` against the CLI's swept runner (`run_swept`, itself checked
//! against dense sampling of the motion): the plate fixture built by `bdtree-std`, every motion
//! through the C functions only — placed at `bdtree_floating_origin` of the four translations,
//! as the header tells a C client —, pairs and the bits of every earliest time equal.

use std::format;
use std::path::Path;
use std::string::String;
use std::vec;
use std::vec::Vec;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::inspect::swept_front_share;
use bdtree_std::runner::{frame_origin, prepare, run_swept, sampled_swept_frame};

use crate::c_names::*;

macro_rules! swept_through_c {
    ($name:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $scene:ident, $pair:ty, $swept:ident) => {
        #[test]
        fn $name() {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/swept");
            let scene = Scene::load(&root.join("plate.json")).expect("fixture scene");
            let options = BuildOptions {
                precision: $precision,
                ..BuildOptions::default()
            };
            let prepared = prepare(&scene, options).expect("build");
            let (answers, _) = run_swept::<$s>(&scene, &prepared).expect("swept");
            assert_eq!(scene.bodies.len(), 2);
            // Bodies 0, 1: object a before and now; 2, 3: object b. With vertex caches, as the
            // host's bodies have them: the swept leaf reads the end positions from the cache,
            // and without one (deformed on demand) the earliest times may differ in the last
            // advancement step (same pairs; on this scene by at most 8.4e-5 of the motion in
            // f32, 9.9e-6 in f64).
            let mut w = $scene::world_of(&prepared.images, BDTREE_BODY_VERTEX_CACHE, 2);
            let mut stack = vec![bdtree_node_pair::default(); 4096];
            let (stack_ptr, stack_len) = (stack.as_mut_ptr(), stack.len());
            // SAFETY: bodies of the world (distinct, but where the same one is passed on
            // purpose); the stack and `out` hold the lengths given.
            let swept = |ends: [*mut $body; 4], out: &mut [$pair], stats| unsafe {
                let stats: *mut bdtree_stats = stats;
                let mut count = usize::MAX;
                let s = $swept(
                    ends[0],
                    ends[1],
                    ends[2],
                    ends[3],
                    stack_ptr,
                    stack_len,
                    out.as_mut_ptr(),
                    out.len(),
                    &mut count,
                    stats,
                );
                (s, count)
            };
            let mut pairs = vec![<$pair>::default(); 1 << 16];
            let mut total = 0;
            for answer in &answers {
                let f = answer.frame;
                // The swept pair's floating origin as a C client computes it: of both bodies'
                // translations at both ends of the motion (the runner's, on a two-body scene).
                let four: Vec<f64> = [f - 1, f]
                    .iter()
                    .flat_map(|&g| scene.frames[g].iter().map(|(p, _)| p.translation))
                    .flatten()
                    .collect();
                let mut origin = [f64::NAN; 3];
                // SAFETY: 12 doubles in, 3 out.
                let s = unsafe { bdtree_floating_origin(four.as_ptr(), 4, origin.as_mut_ptr()) };
                assert_eq!(s, bdtree_status::Ok);
                assert_eq!(origin, frame_origin(&scene, [f - 1, f]));
                for (object, body) in [(0usize, 0usize), (0, 1), (1, 2), (1, 3)] {
                    let frame = if body % 2 == 0 { f - 1 } else { f };
                    let (pose, q) = &scene.frames[frame][object];
                    $scene::set_state(&mut w, body, pose, q, origin);
                }
                let ends: [*mut $body; 4] =
                    core::array::from_fn(|k| &mut *w.bodies[k] as *mut $body);
                let mut stats = bdtree_stats::default();
                let (s, count) = swept(ends, &mut pairs, &mut stats);
                assert_eq!(s, bdtree_status::Ok);
                let mut got: Vec<(u32, u32, u64)> = pairs[..count]
                    .iter()
                    .map(|p| (p.a, p.b, f64::from(p.time).to_bits()))
                    .collect();
                got.sort_unstable();
                let mut want: Vec<(u32, u32, u64)> = answer
                    .items
                    .iter()
                    .map(|c| (c.pair.2, c.pair.3, c.time.to_bits()))
                    .collect();
                want.sort_unstable();
                assert_eq!(got, want, "motion into frame {f}");
                total += count;
                // The same body twice is refused, and a full buffer says so.
                let mut one = [<$pair>::default(); 1];
                let same = [ends[0], ends[0], ends[2], ends[3]];
                let (s, _) = swept(same, &mut one, core::ptr::null_mut());
                assert_eq!(s, bdtree_status::SameBody);
                if !want.is_empty() {
                    let (s, count) = swept(ends, &mut one, core::ptr::null_mut());
                    assert!(
                        (want.len() == 1 && s == bdtree_status::Ok)
                            || (s == bdtree_status::OutputFull && count == 1)
                    );
                }
            }
            assert!(total > 0, "no swept pair: the comparison would be vacuous");
        }
    };
}

with_body_names!(scene_module, f32, in_f32;);
with_body_names!(scene_module, f64, in_f64;);

with_body_names!(swept_through_c, f32, swept_f32_equals_the_runner;
    in_f32, bdtree_swept_pair_f32, bdtree_collide_swept_f32);
with_body_names!(swept_through_c, f64, swept_f64_equals_the_runner;
    in_f64, bdtree_swept_pair_f64, bdtree_collide_swept_f64);

/// The kernel test's resting pad (`bdtree-std/tests/kernel/query/swept_front.rs`) as a scene: a
/// modal ball of radius 0.06 (320 triangles, 3 modes) pressed 5 mm into a modal sheet 0.6 × 0.4
/// (432 triangles, 2 modes), sliding at 5 cm/s and 1 cm/s and turning at 0.2 rad/s, both
/// bodies' modes breathing at 3 Hz; `ticks + 1` frames at `rate` Hz, `offset` from the world
/// origin.
pub(crate) fn resting_pad(ticks: usize, rate: f64, offset: [f64; 3]) -> Scene {
    use bdtree_std::io::{Pose, SceneBody};
    use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis};
    let body = |name: &str, mesh: bdtree_std::io::Mesh, modes, amplitude| {
        let basis = smooth_basis(&mesh.vertices, modes, amplitude);
        SceneBody {
            name: name.into(),
            mesh_path: Path::new(name).with_extension("obj"),
            mesh,
            basis: Some(basis),
            tree: None,
        }
    };
    let frames = (0..=ticks)
        .map(|k| {
            let t = k as f64 / rate;
            let wave = |phase: f64| (core::f64::consts::TAU * 3.0 * t + phase).sin();
            let half = 0.1 * t;
            let plate = (
                Pose {
                    rotation: [1.0, 0.0, 0.0, 0.0],
                    translation: offset,
                },
                vec![0.3 * wave(0.0), -0.2 * wave(1.0)],
            );
            let pad = (
                Pose {
                    rotation: [half.cos(), 0.0, 0.0, half.sin()],
                    translation: [
                        offset[0] - 0.1 + 0.05 * t,
                        offset[1] + 0.01 * t,
                        offset[2] + 0.055,
                    ],
                },
                vec![0.5 * wave(0.3), 0.4 * wave(2.0), -0.3 * wave(4.0)],
            );
            vec![plate, pad]
        })
        .collect();
    Scene {
        path: "resting-pad.json".into(),
        bodies: vec![
            body("plate", sheet(0.6, 0.4, 18, 12), 2, 0.002),
            body("pad", icosphere(0.06, 2), 3, 0.004),
        ],
        frames,
        primitives: Vec::new(),
    }
}

/// Sorted `(a, b, bits of the time as f64)`.
fn found<P: Copy>(pairs: &[P], of: impl Fn(P) -> (u32, u32, f64)) -> Vec<(u32, u32, u64)> {
    let mut v: Vec<(u32, u32, u64)> = pairs
        .iter()
        .map(|&p| {
            let (a, b, t) = of(p);
            (a, b, t.to_bits())
        })
        .collect();
    v.sort_unstable();
    v
}

/// What the front's ticks saw.
#[derive(Debug, Default)]
struct Ticks {
    ticks: usize,
    pairs: usize,
    certified: usize,
    retested: usize,
    /// Pairs one answer has and the other has not.
    differ: usize,
    /// Pairs only the root walk reported, sampled densely and found apart.
    sampled: usize,
}

impl Ticks {
    /// Tick `f` of `scene` (the motion into frame `f`): the front's answer against the root
    /// walk's — a pair both report at the same time, every pair some of 16 samples finds
    /// touching reported by the front no later, every pair only the root walk reports apart at
    /// 64 samples.
    fn compare(
        &mut self,
        scene: &Scene,
        f: usize,
        front: &[(u32, u32, u64)],
        root: &[(u32, u32, u64)],
        info: &bdtree_swept_front_info,
    ) {
        let times = |v: &[(u32, u32, u64)]| -> std::collections::BTreeMap<(u32, u32), f64> {
            v.iter()
                .map(|&(a, b, t)| ((a, b), f64::from_bits(t)))
                .collect()
        };
        let (by_front, by_root) = (times(front), times(root));
        for (pair, t) in &by_front {
            if let Some(u) = by_root.get(pair) {
                assert_eq!(t, u, "frame {f}: {pair:?} at different times");
            }
        }
        for ((_, _, a, b), tau) in sampled_swept_frame(scene, f, 16) {
            let time = by_front
                .get(&(a, b))
                .unwrap_or_else(|| panic!("frame {f}: ({a}, {b}) touching at {tau} missed"));
            assert!(
                *time <= tau + 1e-12,
                "frame {f}: ({a}, {b}) at {tau}, time {time}"
            );
        }
        let only_root: Vec<(u32, u32)> = by_root
            .keys()
            .filter(|p| !by_front.contains_key(p))
            .copied()
            .collect();
        if !only_root.is_empty() {
            let dense = sampled_swept_frame(scene, f, 64);
            for &(a, b) in &only_root {
                assert!(
                    !dense.contains_key(&(0, 1, a, b)),
                    "frame {f}: ({a}, {b}) touches, only the root walk reported it"
                );
            }
            self.sampled += only_root.len();
        }
        self.differ +=
            only_root.len() + by_front.keys().filter(|p| !by_root.contains_key(p)).count();
        self.ticks += 1;
        self.pairs += root.len();
        self.certified += info.certified;
        self.retested += info.retested;
    }
}

macro_rules! front_through_c {
    ($name:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $scene:ident, $pair:ty, $entry:ty, $front:ty,
     $swept:ident, $front_init:ident, $front_info:ident, $front_query:ident) => {
        /// The front through the C functions on the resting pad, 3 km from the world origin at
        /// a floating origin kept while the front is: tick after tick against
        /// `bdtree_collide_swept_*` and dense sampling, certifying most of the front after the
        /// first tick; a new origin (a jump in state), a full output buffer and grown storage
        /// each walk from the root once; a front too large for its storage overflows, with the
        /// same answer; the statuses of bad arguments.
        #[test]
        fn $name() {
            const TICKS: usize = 40;
            let offset = [3000.0, -2000.0, 1000.0];
            let scene = resting_pad(TICKS, 1000.0, offset);
            let options = BuildOptions {
                precision: $precision,
                ..BuildOptions::default()
            };
            let prepared = prepare(&scene, options).expect("build");
            // Bodies 0, 1: the plate, 2, 3: the pad; each tick the last tick's `to` body of
            // each object is this tick's `from`, and only the new `to` is set.
            let mut w = $scene::world_of(&prepared.images, BDTREE_BODY_VERTEX_CACHE, 2);
            let mut origin = [f64::NAN; 3];
            let first: Vec<f64> = scene.frames[0]
                .iter()
                .flat_map(|(p, _)| p.translation)
                .collect();
            // SAFETY: 6 doubles in, 3 out.
            let s = unsafe { bdtree_floating_origin(first.as_ptr(), 2, origin.as_mut_ptr()) };
            assert_eq!(s, bdtree_status::Ok);
            let set = |w: &mut $scene::World, frame: usize, end: usize, origin: [f64; 3]| {
                for object in 0..2 {
                    let (pose, q) = &scene.frames[frame][object];
                    $scene::set_state(w, 2 * object + end, pose, q, origin);
                }
            };
            let mut stack = vec![bdtree_node_pair::default(); 4096];
            let (stack_ptr, stack_len) = (stack.as_mut_ptr(), stack.len());
            let mut pairs = vec![<$pair>::default(); 1 << 14];
            let pairs_ptr = pairs.as_mut_ptr();
            // One call of the front query with the test's stack (its first `stack_len` entries)
            // and pair buffer (its first `capacity` entries): the status, the pairs found (as
            // `found` sorts them) and the count.
            let query = |ends: [*mut $body; 4],
                         front: *mut $front,
                         (entries, entries_len): (*mut $entry, usize),
                         stack_len: usize,
                         capacity: usize,
                         stats: *mut bdtree_stats| {
                let mut count = usize::MAX;
                // SAFETY: bodies of the world (distinct, but where the same one is passed on
                // purpose) or NULL; a front object or NULL; `entries` of the length given or
                // NULL; `stack_len` and `capacity` within the buffers.
                let s = unsafe {
                    $front_query(
                        ends[0],
                        ends[1],
                        ends[2],
                        ends[3],
                        front,
                        entries,
                        entries_len,
                        stack_ptr,
                        stack_len,
                        pairs_ptr,
                        capacity,
                        &mut count,
                        stats,
                    )
                };
                // SAFETY: the query wrote its first `count` entries (at most `capacity`).
                let got = unsafe { core::slice::from_raw_parts(pairs_ptr, count.min(capacity)) };
                (s, found(got, |p| (p.a, p.b, f64::from(p.time))), count)
            };
            let mut entries = vec![<$entry>::default(); 2 * 4096];
            let mut grown = vec![<$entry>::default(); 2 * 8192];
            // SAFETY: zeroed front objects are what `bdtree_swept_front_init_*` expects.
            let (mut front, mut tight): ($front, $front) = unsafe { core::mem::zeroed() };
            // A second front with room for 32 entries: it overflows every tick.
            let mut small = [<$entry>::default(); 2 * 32];
            let mut info = bdtree_swept_front_info::default();
            // SAFETY: front objects and an info to write, or NULL where refused.
            unsafe {
                assert_eq!($front_init(&mut tight), bdtree_status::Ok);
                // A zeroed front is refused until it is initialised.
                assert_eq!(
                    $front_info(&front, &mut info),
                    bdtree_status::NotInitialized
                );
                assert_eq!(
                    $front_init(core::ptr::null_mut()),
                    bdtree_status::NullPointer
                );
                assert_eq!($front_init(&mut front), bdtree_status::Ok);
                assert_eq!($front_info(&front, &mut info), bdtree_status::Ok);
            }
            assert_eq!(info, bdtree_swept_front_info::default());
            set(&mut w, 0, 0, origin);
            let mut run = Ticks::default();
            let (jump, full, grow) = (12, 20, 28);
            for f in 1..=TICKS {
                let (from, to) = ((f - 1) % 2, f % 2);
                if f == jump {
                    // The caller moves its floating origin: a new state for the front.
                    origin = origin.map(|x| x + 0.25);
                    set(&mut w, f - 1, from, origin);
                }
                set(&mut w, f, to, origin);
                let body: [*mut $body; 4] =
                    core::array::from_fn(|k| &mut *w.bodies[k] as *mut $body);
                let ends = [body[from], body[to], body[2 + from], body[2 + to]];
                let mut count = 0usize;
                // SAFETY: distinct bodies; buffers of the lengths given.
                let s = unsafe {
                    $swept(
                        ends[0],
                        ends[1],
                        ends[2],
                        ends[3],
                        stack_ptr,
                        stack_len,
                        pairs_ptr,
                        pairs.len(),
                        &mut count,
                        core::ptr::null_mut(),
                    )
                };
                assert_eq!(s, bdtree_status::Ok);
                let root = found(&pairs[..count], |p| (p.a, p.b, f64::from(p.time)));
                let store = if f >= grow { &mut grown } else { &mut entries };
                let store = (store.as_mut_ptr(), store.len());
                if f == full {
                    // A full output buffer says so, and drops the front.
                    assert!(root.len() > 1, "frame {f}: {} pairs", root.len());
                    let null = core::ptr::null_mut();
                    let (s, got, _) = query(ends, &mut front, store, stack_len, 1, null);
                    assert_eq!(s, bdtree_status::OutputFull);
                    assert_eq!(got.len(), 1);
                    // SAFETY: a front object; an info to write.
                    assert_eq!(unsafe { $front_info(&front, &mut info) }, bdtree_status::Ok);
                    assert_eq!(info.entries, 0);
                }
                let mut stats = bdtree_stats::default();
                let (s, by_front, _) =
                    query(ends, &mut front, store, stack_len, 1 << 14, &mut stats);
                assert_eq!(s, bdtree_status::Ok, "frame {f}");
                assert_eq!(stats.pairs as usize, by_front.len());
                // SAFETY: a front object; an info to write.
                assert_eq!(unsafe { $front_info(&front, &mut info) }, bdtree_status::Ok);
                assert!(!info.overflowed, "frame {f}: {info:?}");
                assert_eq!(info.capacity, store.1 / 2);
                assert!(info.entries > 0 && info.entries <= info.capacity);
                if f == 1 || f == jump || f == full || f == grow {
                    // The first query, a jump, after a full buffer, on other storage:
                    // from the root, and the same answer as the root walk.
                    assert_eq!(info.certified + info.retested, 0, "frame {f}: {info:?}");
                    assert_eq!(by_front, root, "frame {f}");
                } else {
                    assert!(info.certified > info.retested, "frame {f}: {info:?}");
                }
                run.compare(&scene, f, &by_front, &root, &info);
                // Storage too small for the front: the root walk's answer, an overflow.
                let room = (small.as_mut_ptr(), small.len());
                let null = core::ptr::null_mut();
                let (s, by_tight, _) = query(ends, &mut tight, room, stack_len, 1 << 14, null);
                assert_eq!(s, bdtree_status::Ok);
                assert_eq!(by_tight, root, "frame {f}: the overflowing front");
                let mut t = bdtree_swept_front_info::default();
                // SAFETY: a front object; an info to write.
                assert_eq!(unsafe { $front_info(&tight, &mut t) }, bdtree_status::Ok);
                assert!(t.overflowed && t.entries == 0 && t.capacity == 32, "{t:?}");
                assert_eq!(t.certified + t.retested, 0, "{t:?}");
            }
            std::eprintln!(
                "{}: {run:?}, front of {} entries",
                stringify!($front_query),
                info.entries
            );
            assert!(run.pairs > 0, "the pad touches the plate");
            assert!(run.differ * 50 <= run.pairs + 50, "{run:?}");

            // The statuses of bad arguments, as `bdtree_collide_swept_*`'s.
            let ends: [*mut $body; 4] = core::array::from_fn(|k| &mut *w.bodies[k] as *mut $body);
            let call = |ends, front, entries, stack_len| {
                let null = core::ptr::null_mut();
                let (s, _, count) = query(ends, front, entries, stack_len, 1 << 14, null);
                (s, count)
            };
            let e = (grown.as_mut_ptr(), grown.len());
            let same = [ends[0], ends[1], ends[0], ends[3]];
            assert_eq!(call(same, &mut front, e, 64).0, bdtree_status::SameBody);
            let null = [ends[0], core::ptr::null_mut(), ends[2], ends[3]];
            assert_eq!(call(null, &mut front, e, 64).0, bdtree_status::NullPointer);
            let nowhere = core::ptr::null_mut();
            assert_eq!(call(ends, nowhere, e, 64).0, bdtree_status::NullPointer);
            // SAFETY: a zeroed front object, as a caller might forget to initialise it.
            let mut zeroed: $front = unsafe { core::mem::zeroed() };
            assert_eq!(
                call(ends, &mut zeroed, e, 64).0,
                bdtree_status::NotInitialized
            );
            let no_entries = (core::ptr::null_mut(), e.1);
            assert_eq!(
                call(ends, &mut front, no_entries, 64).0,
                bdtree_status::NullPointer
            );
            let (s, count) = call(ends, &mut front, e, 0);
            assert_eq!(s, bdtree_status::StackTooSmall);
            assert_eq!(count, 0);
        }
    };
}

with_body_names!(front_through_c, f32, swept_front_f32_answers_as_the_root_walk_and_sampling;
    in_f32, bdtree_swept_pair_f32, bdtree_swept_front_entry_f32, bdtree_swept_front_f32,
    bdtree_collide_swept_f32, bdtree_swept_front_init_f32, bdtree_swept_front_info_f32,
    bdtree_collide_swept_front_f32);
with_body_names!(front_through_c, f64, swept_front_f64_answers_as_the_root_walk_and_sampling;
    in_f64, bdtree_swept_pair_f64, bdtree_swept_front_entry_f64, bdtree_swept_front_f64,
    bdtree_collide_swept_f64, bdtree_swept_front_init_f64, bdtree_swept_front_info_f64,
    bdtree_collide_swept_front_f64);

/// The largest front each body pair of `scene` reaches over its frames as ticks (f32, vertex
/// caches, one floating origin per pair for all its frames): `(i, j, entries, nodes of i, nodes
/// of j)`.
fn largest_fronts(scene: &Scene) -> Vec<(usize, usize, usize, usize, usize)> {
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let prepared = prepare(scene, options).expect("build");
    let n = prepared.images.len();
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            // Bodies 2 k and 2 k + 1 of image k: objects i and j at two states each.
            let mut w = in_f32::world_of(&prepared.images, BDTREE_BODY_VERTEX_CACHE, 2);
            let all: Vec<f64> = scene
                .frames
                .iter()
                .flat_map(|fr| [fr[i].0.translation, fr[j].0.translation])
                .flatten()
                .collect();
            let mut origin = [0.0; 3];
            let mut largest = 0;
            // SAFETY: as in the tests above.
            unsafe {
                let s = bdtree_floating_origin(all.as_ptr(), all.len() / 3, origin.as_mut_ptr());
                assert_eq!(s, bdtree_status::Ok);
                let mut front: bdtree_swept_front_f32 = core::mem::zeroed();
                assert_eq!(bdtree_swept_front_init_f32(&mut front), bdtree_status::Ok);
                let mut entries = vec![bdtree_swept_front_entry_f32::default(); 2 << 17];
                let mut stack = vec![bdtree_node_pair::default(); 4096];
                let mut pairs = vec![bdtree_swept_pair_f32::default(); 1 << 18];
                for f in 0..scene.frames.len() {
                    for b in [i, j] {
                        let (pose, q) = &scene.frames[f][b];
                        in_f32::set_state(&mut w, 2 * b + f % 2, pose, q, origin);
                    }
                    if f == 0 {
                        continue;
                    }
                    let mut body = |k: usize| &mut *w.bodies[k] as *mut bdtree_body_f32;
                    let (from, to) = ((f - 1) % 2, f % 2);
                    let mut count = 0;
                    let s = bdtree_collide_swept_front_f32(
                        body(2 * i + from),
                        body(2 * i + to),
                        body(2 * j + from),
                        body(2 * j + to),
                        &mut front,
                        entries.as_mut_ptr(),
                        entries.len(),
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    let mut info = bdtree_swept_front_info::default();
                    assert_eq!(
                        bdtree_swept_front_info_f32(&front, &mut info),
                        bdtree_status::Ok
                    );
                    assert!(!info.overflowed, "{}: {info:?}", scene.path.display());
                    largest = largest.max(info.entries);
                }
            }
            let nodes = |k: usize| w.infos[k].nodes as usize;
            out.push((i, j, largest, nodes(i), nodes(j)));
        }
    }
    out
}

/// The sizing guide (`bdtree_swept_front_entries`, each tree's share in `bdtree inspect`)
/// against the largest front each body pair reaches: half the storage it gives holds the front
/// on contact in small patches — the resting pad at 1 kHz, 100 Hz and 60 Hz, the swept fixtures
/// as given and sub-stepped 8 times, the `touching` fixture; the fixtures with contact spread
/// over large areas need more (printed).
#[test]
fn front_sizes_fit_the_guide_on_small_patches() {
    let mut patches: Vec<(String, Scene)> = vec![
        (
            "resting pad 1 kHz".into(),
            resting_pad(200, 1000.0, [0.0; 3]),
        ),
        (
            "resting pad 100 Hz".into(),
            resting_pad(60, 100.0, [0.0; 3]),
        ),
        ("resting pad 60 Hz".into(), resting_pad(60, 60.0, [0.0; 3])),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let load = |path: &str| Scene::load(&root.join(path)).expect("fixture scene");
    for name in ["tunnel", "plate", "flap"] {
        let scene = load(&format!("swept/{name}.json"));
        patches.push((
            format!("{name} x8"),
            bdtree_std::runner::substeps(&scene, 8),
        ));
        patches.push((name.into(), scene));
    }
    patches.push(("touching".into(), load("scenes/touching.json")));
    let wide: Vec<(String, Scene)> = ["thin", "demo", "rigid", "fold"]
        .iter()
        .map(|name| (String::from(*name), load(&format!("scenes/{name}.json"))))
        .collect();
    let mut most: f64 = 0.0;
    for (within, scenes) in [(true, &patches), (false, &wide)] {
        for (name, scene) in scenes {
            for (i, j, largest, na, nb) in largest_fronts(scene) {
                let guide = bdtree_swept_front_entries(na as u32, nb as u32);
                assert_eq!(guide, 2 * (swept_front_share(na) + swept_front_share(nb)));
                let per_node = largest as f64 / (na + nb) as f64;
                std::eprintln!(
                    "{name:>18} bodies {i}-{j}: largest front {largest:>6} entries, {per_node:.2} \
                     per node of the two trees ({na} + {nb}); the guide's half {}",
                    guide / 2
                );
                if within {
                    most = most.max(per_node);
                    assert!(
                        largest <= guide / 2,
                        "{name} {i}-{j}: {largest} > {}",
                        guide / 2
                    );
                }
            }
        }
    }
    std::eprintln!("contact in small patches: at most {most:.2} entries per node");
}
