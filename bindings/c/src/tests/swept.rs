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

/// Bytes copied into 8-byte aligned storage (what an image and a body's storage need).
pub(crate) fn aligned(bytes: &[u8]) -> Vec<u64> {
    let mut words = vec![0u64; bytes.len().div_ceil(8)];
    for (k, b) in bytes.iter().enumerate() {
        words[k / 8] |= u64::from(*b) << (8 * (k % 8));
    }
    words
}

macro_rules! swept_through_c {
    ($name:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $pair:ty, $swept:ident) => {
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
            let words: Vec<Vec<u64>> = prepared
                .images
                .iter()
                .map(|im| aligned(im.as_bytes()))
                .collect();
            // SAFETY: zeroed opaque objects are what the C API expects before parse/init; every
            // pointer below is valid for the length given, and the bodies are distinct.
            unsafe {
                let mut images: [$image; 2] = core::mem::zeroed();
                for (image, (w, im)) in images.iter_mut().zip(words.iter().zip(&prepared.images)) {
                    let s = $parse(w.as_ptr().cast(), im.as_bytes().len(), image);
                    assert_eq!(s, bdtree_status::Ok);
                }
                // Bodies 0, 1: object a before and now; 2, 3: object b. With vertex caches, as
                // the host's bodies have them: the swept leaf reads the end positions from the
                // cache, and without one (deformed on demand) the earliest times may differ in
                // the last advancement step (same pairs; on this scene by at most 8.4e-5 of the
                // motion in f32, 9.9e-6 in f64).
                let mut bodies: [$body; 4] = core::mem::zeroed();
                let mut storage: Vec<Vec<u64>> = Vec::new();
                for (k, body) in bodies.iter_mut().enumerate() {
                    let image = &images[k / 2];
                    let need = $size(image, BDTREE_BODY_VERTEX_CACHE);
                    storage.push(vec![0u64; need.div_ceil(8)]);
                    let buffer = storage.last_mut().expect("pushed");
                    let s = $init(
                        body,
                        image,
                        buffer.as_mut_ptr().cast(),
                        need,
                        BDTREE_BODY_VERTEX_CACHE,
                    );
                    assert_eq!(s, bdtree_status::Ok);
                }
                let mut stack = vec![bdtree_node_pair::default(); 4096];
                let mut pairs = vec![<$pair>::default(); 1 << 16];
                let mut total = 0;
                for answer in &answers {
                    let f = answer.frame;
                    // The swept pair's floating origin as a C client computes it: of both
                    // bodies' translations at both ends of the motion (the runner's, on a
                    // two-body scene).
                    let origin = {
                        let four: Vec<f64> = [f - 1, f]
                            .iter()
                            .flat_map(|&g| scene.frames[g].iter().map(|(p, _)| p.translation))
                            .flatten()
                            .collect();
                        let mut origin = [f64::NAN; 3];
                        let s = bdtree_floating_origin(four.as_ptr(), 4, origin.as_mut_ptr());
                        assert_eq!(s, bdtree_status::Ok);
                        assert_eq!(origin, frame_origin(&scene, [f - 1, f]));
                        origin
                    };
                    for (object, body) in [(0usize, 0usize), (0, 1), (1, 2), (1, 3)] {
                        let frame = if body % 2 == 0 { f - 1 } else { f };
                        let (pose, q) = &scene.frames[frame][object];
                        let s = $set(
                            &mut bodies[body],
                            pose.rotation.as_ptr(),
                            pose.translation.as_ptr(),
                            origin.as_ptr(),
                            q.as_ptr(),
                            q.len(),
                        );
                        assert_eq!(s, bdtree_status::Ok);
                    }
                    let [a0, a1, b0, b1] = &mut bodies;
                    let mut count = 0usize;
                    let mut stats = bdtree_stats::default();
                    let s = $swept(
                        a0,
                        a1,
                        b0,
                        b1,
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        &mut stats,
                    );
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
                    let (a0, a1, b0, b1) = (
                        &mut bodies[0] as *mut $body,
                        &mut bodies[1] as *mut $body,
                        &mut bodies[2] as *mut $body,
                        &mut bodies[3] as *mut $body,
                    );
                    let s = $swept(
                        a0,
                        a0,
                        b0,
                        b1,
                        stack.as_mut_ptr(),
                        stack.len(),
                        one.as_mut_ptr(),
                        1,
                        &mut count,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::SameBody);
                    if !want.is_empty() {
                        let s = $swept(
                            a0,
                            a1,
                            b0,
                            b1,
                            stack.as_mut_ptr(),
                            stack.len(),
                            one.as_mut_ptr(),
                            1,
                            &mut count,
                            core::ptr::null_mut(),
                        );
                        assert!(
                            (want.len() == 1 && s == bdtree_status::Ok)
                                || (s == bdtree_status::OutputFull && count == 1)
                        );
                    }
                }
                assert!(total > 0, "no swept pair: the comparison would be vacuous");
            }
        }
    };
}

with_body_names!(swept_through_c, f32, swept_f32_equals_the_runner;
    bdtree_swept_pair_f32, bdtree_collide_swept_f32);
with_body_names!(swept_through_c, f64, swept_f64_equals_the_runner;
    bdtree_swept_pair_f64, bdtree_collide_swept_f64);

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
     $size:ident, $init:ident, $set:ident, $pair:ty, $entry:ty, $front:ty, $swept:ident,
     $front_init:ident, $front_info:ident, $front_query:ident) => {
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
            let words: Vec<Vec<u64>> = prepared
                .images
                .iter()
                .map(|im| aligned(im.as_bytes()))
                .collect();
            // SAFETY: zeroed opaque objects are what the C API expects before parse/init; every
            // pointer below is valid for the length given, and the bodies are distinct.
            unsafe {
                let mut images: [$image; 2] = core::mem::zeroed();
                for (image, (w, im)) in images.iter_mut().zip(words.iter().zip(&prepared.images)) {
                    let s = $parse(w.as_ptr().cast(), im.as_bytes().len(), image);
                    assert_eq!(s, bdtree_status::Ok);
                }
                // Bodies 0, 1: the plate, 2, 3: the pad; each tick the last tick's `to` body
                // of each object is this tick's `from`, and only the new `to` is set.
                let mut bodies: [$body; 4] = core::mem::zeroed();
                let mut storage: Vec<Vec<u64>> = Vec::new();
                for (k, body) in bodies.iter_mut().enumerate() {
                    let image = &images[k / 2];
                    let need = $size(image, BDTREE_BODY_VERTEX_CACHE);
                    storage.push(vec![0u64; need.div_ceil(8)]);
                    let buffer = storage.last_mut().expect("pushed");
                    let s = $init(
                        body,
                        image,
                        buffer.as_mut_ptr().cast(),
                        need,
                        BDTREE_BODY_VERTEX_CACHE,
                    );
                    assert_eq!(s, bdtree_status::Ok);
                }
                let mut origin = [f64::NAN; 3];
                let first: Vec<f64> = scene.frames[0]
                    .iter()
                    .flat_map(|(p, _)| p.translation)
                    .collect();
                let s = bdtree_floating_origin(first.as_ptr(), 2, origin.as_mut_ptr());
                assert_eq!(s, bdtree_status::Ok);
                let set = |bodies: &mut [$body; 4], frame: usize, end: usize, origin: &[f64; 3]| {
                    for object in 0..2 {
                        let (pose, q) = &scene.frames[frame][object];
                        let s = $set(
                            &mut bodies[2 * object + end],
                            pose.rotation.as_ptr(),
                            pose.translation.as_ptr(),
                            origin.as_ptr(),
                            q.as_ptr(),
                            q.len(),
                        );
                        assert_eq!(s, bdtree_status::Ok);
                    }
                };
                let mut stack = vec![bdtree_node_pair::default(); 4096];
                let mut pairs = vec![<$pair>::default(); 1 << 14];
                let mut entries = vec![<$entry>::default(); 2 * 4096];
                let mut grown = vec![<$entry>::default(); 2 * 8192];
                let mut front: $front = core::mem::zeroed();
                // A second front with room for 32 entries: it overflows every tick.
                let mut small = [<$entry>::default(); 2 * 32];
                let mut tight: $front = core::mem::zeroed();
                assert_eq!($front_init(&mut tight), bdtree_status::Ok);
                let mut info = bdtree_swept_front_info::default();
                let mut count = 0usize;
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
                assert_eq!(info, bdtree_swept_front_info::default());
                set(&mut bodies, 0, 0, &origin);
                let mut run = Ticks::default();
                let (jump, full, grow) = (12, 20, 28);
                for f in 1..=TICKS {
                    let (from, to) = ((f - 1) % 2, f % 2);
                    if f == jump {
                        // The caller moves its floating origin: a new state for the front.
                        origin = origin.map(|x| x + 0.25);
                        set(&mut bodies, f - 1, from, &origin);
                    }
                    set(&mut bodies, f, to, &origin);
                    let [p0, p1, d0, d1] = &mut bodies;
                    let (a_from, a_to) = if from == 0 { (p0, p1) } else { (p1, p0) };
                    let (b_from, b_to) = if from == 0 { (d0, d1) } else { (d1, d0) };
                    let (a_from, a_to, b_from, b_to) = (
                        a_from as *mut $body,
                        a_to as *mut $body,
                        b_from as *mut $body,
                        b_to as *mut $body,
                    );
                    let s = $swept(
                        a_from,
                        a_to,
                        b_from,
                        b_to,
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    let root = found(&pairs[..count], |p| (p.a, p.b, f64::from(p.time)));
                    let store = if f >= grow { &mut grown } else { &mut entries };
                    let (entries_ptr, entries_len) = (store.as_mut_ptr(), store.len());
                    let (stack_ptr, stack_len) = (stack.as_mut_ptr(), stack.len());
                    let (pairs_ptr, front_ptr) = (pairs.as_mut_ptr(), &mut front as *mut $front);
                    let query = |capacity: usize, stats: *mut bdtree_stats| {
                        let mut count = 0usize;
                        let s = $front_query(
                            a_from,
                            a_to,
                            b_from,
                            b_to,
                            front_ptr,
                            entries_ptr,
                            entries_len,
                            stack_ptr,
                            stack_len,
                            pairs_ptr,
                            capacity,
                            &mut count,
                            stats,
                        );
                        let got = core::slice::from_raw_parts(pairs_ptr, count);
                        (s, found(got, |p| (p.a, p.b, f64::from(p.time))))
                    };
                    if f == full {
                        // A full output buffer says so, and drops the front.
                        assert!(root.len() > 1, "frame {f}: {} pairs", root.len());
                        let (s, got) = query(1, core::ptr::null_mut());
                        assert_eq!(s, bdtree_status::OutputFull);
                        assert_eq!(got.len(), 1);
                        assert_eq!($front_info(front_ptr, &mut info), bdtree_status::Ok);
                        assert_eq!(info.entries, 0);
                    }
                    let mut stats = bdtree_stats::default();
                    let (s, by_front) = query(1 << 14, &mut stats);
                    assert_eq!(s, bdtree_status::Ok, "frame {f}");
                    assert_eq!(stats.pairs as usize, by_front.len());
                    assert_eq!($front_info(front_ptr, &mut info), bdtree_status::Ok);
                    assert!(!info.overflowed, "frame {f}: {info:?}");
                    assert_eq!(info.capacity, entries_len / 2);
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
                    let s = $front_query(
                        a_from,
                        a_to,
                        b_from,
                        b_to,
                        &mut tight,
                        small.as_mut_ptr(),
                        small.len(),
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    let by_tight = found(&pairs[..count], |p| (p.a, p.b, f64::from(p.time)));
                    assert_eq!(by_tight, root, "frame {f}: the overflowing front");
                    let mut t = bdtree_swept_front_info::default();
                    assert_eq!($front_info(&tight, &mut t), bdtree_status::Ok);
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
                let [p0, p1, d0, d1] = &mut bodies;
                let ends = [p0, p1, d0, d1].map(|b| b as *mut $body);
                let mut call = |ends: [*mut $body; 4],
                                front: *mut $front,
                                entries: *mut $entry,
                                entries_len: usize,
                                stack_len: usize| {
                    $front_query(
                        ends[0],
                        ends[1],
                        ends[2],
                        ends[3],
                        front,
                        entries,
                        entries_len,
                        stack.as_mut_ptr(),
                        stack_len,
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        core::ptr::null_mut(),
                    )
                };
                let (e, n) = (grown.as_mut_ptr(), grown.len());
                let same = [ends[0], ends[1], ends[0], ends[3]];
                assert_eq!(call(same, &mut front, e, n, 64), bdtree_status::SameBody);
                let null = [ends[0], core::ptr::null_mut(), ends[2], ends[3]];
                assert_eq!(call(null, &mut front, e, n, 64), bdtree_status::NullPointer);
                let nowhere = core::ptr::null_mut();
                assert_eq!(call(ends, nowhere, e, n, 64), bdtree_status::NullPointer);
                let mut zeroed: $front = core::mem::zeroed();
                assert_eq!(
                    call(ends, &mut zeroed, e, n, 64),
                    bdtree_status::NotInitialized
                );
                let no_entries = core::ptr::null_mut();
                assert_eq!(
                    call(ends, &mut front, no_entries, n, 64),
                    bdtree_status::NullPointer
                );
                assert_eq!(
                    call(ends, &mut front, e, n, 0),
                    bdtree_status::StackTooSmall
                );
                assert_eq!(count, 0);
            }
        }
    };
}

with_body_names!(front_through_c, f32, swept_front_f32_answers_as_the_root_walk_and_sampling;
    bdtree_swept_pair_f32, bdtree_swept_front_entry_f32, bdtree_swept_front_f32,
    bdtree_collide_swept_f32, bdtree_swept_front_init_f32, bdtree_swept_front_info_f32,
    bdtree_collide_swept_front_f32);
with_body_names!(front_through_c, f64, swept_front_f64_answers_as_the_root_walk_and_sampling;
    bdtree_swept_pair_f64, bdtree_swept_front_entry_f64, bdtree_swept_front_f64,
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
    let words: Vec<Vec<u64>> = prepared
        .images
        .iter()
        .map(|im| aligned(im.as_bytes()))
        .collect();
    let mut out = Vec::new();
    // SAFETY: as in the tests above.
    unsafe {
        let n = prepared.images.len();
        let mut images: Vec<bdtree_image_f32> = (0..n).map(|_| core::mem::zeroed()).collect();
        let mut nodes = Vec::new();
        for (image, (w, im)) in images.iter_mut().zip(words.iter().zip(&prepared.images)) {
            let s = bdtree_image_parse_f32(w.as_ptr().cast(), im.as_bytes().len(), image);
            assert_eq!(s, bdtree_status::Ok);
            let mut info = bdtree_image_info::default();
            assert_eq!(bdtree_image_info_f32(image, &mut info), bdtree_status::Ok);
            nodes.push(info.nodes as usize);
        }
        for i in 0..n {
            for j in i + 1..n {
                let mut bodies: [bdtree_body_f32; 4] = core::mem::zeroed();
                let mut storage: Vec<Vec<u64>> = Vec::new();
                for (k, body) in bodies.iter_mut().enumerate() {
                    let image = &images[if k < 2 { i } else { j }];
                    let need = bdtree_body_storage_size_f32(image, BDTREE_BODY_VERTEX_CACHE);
                    storage.push(vec![0u64; need.div_ceil(8)]);
                    let buffer = storage.last_mut().expect("pushed");
                    let s = bdtree_body_init_f32(
                        body,
                        image,
                        buffer.as_mut_ptr().cast(),
                        need,
                        BDTREE_BODY_VERTEX_CACHE,
                    );
                    assert_eq!(s, bdtree_status::Ok);
                }
                let all: Vec<f64> = scene
                    .frames
                    .iter()
                    .flat_map(|fr| [fr[i].0.translation, fr[j].0.translation])
                    .flatten()
                    .collect();
                let mut origin = [0.0; 3];
                let s = bdtree_floating_origin(all.as_ptr(), all.len() / 3, origin.as_mut_ptr());
                assert_eq!(s, bdtree_status::Ok);
                let mut front: bdtree_swept_front_f32 = core::mem::zeroed();
                assert_eq!(bdtree_swept_front_init_f32(&mut front), bdtree_status::Ok);
                let mut entries = vec![bdtree_swept_front_entry_f32::default(); 2 << 17];
                let mut stack = vec![bdtree_node_pair::default(); 4096];
                let mut pairs = vec![bdtree_swept_pair_f32::default(); 1 << 18];
                let mut largest = 0;
                for f in 0..scene.frames.len() {
                    for (object, b) in [(0, i), (1, j)] {
                        let (pose, q) = &scene.frames[f][b];
                        let s = bdtree_body_set_state_from_f64_f32(
                            &mut bodies[2 * object + f % 2],
                            pose.rotation.as_ptr(),
                            pose.translation.as_ptr(),
                            origin.as_ptr(),
                            q.as_ptr(),
                            q.len(),
                        );
                        assert_eq!(s, bdtree_status::Ok);
                    }
                    if f == 0 {
                        continue;
                    }
                    let b = &mut bodies as *mut bdtree_body_f32;
                    let (from, to) = ((f - 1) % 2, f % 2);
                    let mut count = 0;
                    let s = bdtree_collide_swept_front_f32(
                        b.add(from),
                        b.add(to),
                        b.add(2 + from),
                        b.add(2 + to),
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
                out.push((i, j, largest, nodes[i], nodes[j]));
            }
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
