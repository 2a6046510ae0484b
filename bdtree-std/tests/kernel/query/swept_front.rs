//! The swept query's front carried across ticks (`collide_swept_front`): tick after tick the
//! same pairs and times as `collide_swept` from the root, through jumps in state, a front too
//! small for its storage, far from the origin and at millimetre scale; and dense sampling of a
//! pad resting and sliding on a plate finds nothing missed or late.

use bdtree_core::{
    collide_swept, collide_swept_front, stack_capacity, Body, CacheEntry, FrontEntry, FrontState,
    Image, QueryStatus, Scalar, SweptFront, SweptPair, TrackEntry, VertexEntry,
};
use bdtree_std::io;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::oracle;
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis};

use crate::support::motion::state_at;
use crate::support::{image_in, scaled, set_state_f64};

/// A pad (a modal ball) pressed into a plate and sliding slowly over it, `scale` the unit (1 m
/// or 1 mm) and `offset` where the scene sits: the state of each body at tick `k` of a
/// `rate`-Hz loop (its `q`, its pose).
struct Resting {
    plate: (Mesh, Basis),
    pad: (Mesh, Basis),
    scale: f64,
    offset: [f64; 3],
    rate: f64,
    /// Sliding velocity (units/s at unit scale), turning rate (rad/s), mode amplitude.
    speed: [f64; 2],
    turn: f64,
    breath: f64,
}

impl Resting {
    fn new(scale: f64, offset: [f64; 3], rate: f64) -> Self {
        let plate = scaled(sheet(0.6, 0.4, 18, 12), scale);
        let pad = scaled(icosphere(0.06, 2), scale);
        let plate_basis = smooth_basis(&plate.vertices, 2, 0.002 * scale);
        let pad_basis = smooth_basis(&pad.vertices, 3, 0.004 * scale);
        Resting {
            plate: (plate, plate_basis),
            pad: (pad, pad_basis),
            scale,
            offset,
            rate,
            speed: [0.05, 0.01],
            turn: 0.2,
            breath: 1.0,
        }
    }

    /// The plate's and the pad's states at tick `k`, in world coordinates less the scene's
    /// floating origin (its offset, as the host places a pair): the pad 5 mm (at unit scale)
    /// into the plate, sliding at 0.05 units/s, turning at 0.2 rad/s, both bodies' modes
    /// breathing at 3 Hz; `jump` teleports the pad 0.1 units aside.
    fn states(&self, k: usize, jump: bool) -> [(Vec<f64>, io::Pose); 2] {
        let [plate, pad] = self.world(k, jump);
        let origin = bdtree_core::floating_origin(&[self.offset]);
        let placed = |(q, p): (Vec<f64>, io::Pose)| {
            let t = [0, 1, 2].map(|i| p.translation[i] - origin[i]);
            (
                q,
                io::Pose {
                    rotation: p.rotation,
                    translation: t,
                },
            )
        };
        [placed(plate), placed(pad)]
    }

    /// The states in world coordinates.
    fn world(&self, k: usize, jump: bool) -> [(Vec<f64>, io::Pose); 2] {
        let t = k as f64 / self.rate;
        let (s, o) = (self.scale, self.offset);
        let b = self.breath;
        let wave = |phase: f64| b * (std::f64::consts::TAU * 3.0 * t + phase).sin();
        let plate = (
            vec![0.3 * wave(0.0), -0.2 * wave(1.0)],
            io::Pose {
                rotation: [1.0, 0.0, 0.0, 0.0],
                translation: o,
            },
        );
        let half = 0.5 * self.turn * t;
        let aside = if jump { 0.1 } else { 0.0 };
        let pad = (
            vec![0.5 * wave(0.3), 0.4 * wave(2.0), -0.3 * wave(4.0)],
            io::Pose {
                rotation: [half.cos(), 0.0, 0.0, half.sin()],
                translation: [
                    o[0] + s * (-0.1 + self.speed[0] * t + aside),
                    o[1] + s * self.speed[1] * t,
                    o[2] + s * (0.06 - 0.005),
                ],
            },
        );
        [plate, pad]
    }
}

fn image<S: Scalar>((mesh, basis): &(Mesh, Basis)) -> ImageBuf {
    image_in::<S>(mesh, Some(basis))
}

/// A body's caches: spheres, and (when `cached`) vertices and tracks, as the host gives them.
struct Storage<S: Scalar> {
    spheres: Vec<CacheEntry<S>>,
    modes: Vec<S>,
    vertices: Vec<VertexEntry<S>>,
    tracks: Vec<TrackEntry<S>>,
}

impl<S: Scalar> Storage<S> {
    fn new(image: &Image<'_, S>) -> Self {
        Storage {
            spheres: vec![CacheEntry::default(); image.tree.node_count()],
            modes: vec![S::ZERO; bdtree_core::mode_storage(image.tree.modes())],
            vertices: vec![VertexEntry::default(); image.model.vertex_count()],
            tracks: vec![TrackEntry::default(); image.tree.node_count()],
        }
    }

    fn body<'t>(&mut self, image: &Image<'t, S>, cached: bool) -> Body<'t, '_, S> {
        let body = Body::new(image, &mut self.spheres, &mut self.modes).expect("body");
        if cached {
            body.with_vertex_cache(&mut self.vertices)
                .expect("vertex cache")
                .with_track_cache(&mut self.tracks)
                .expect("track cache")
        } else {
            body
        }
    }
}

fn set<S: Scalar>(body: &mut Body<'_, '_, S>, (q, pose): &(Vec<f64>, io::Pose)) {
    set_state_f64(body, pose, q);
}

type Found = Vec<(u32, u32, u64)>;

/// A state as the kernel holds it (each number rounded to `S`), for the oracle.
fn rounded<S: Scalar>((q, p): &(Vec<f64>, io::Pose)) -> (Vec<f64>, io::Pose) {
    let round = |x: f64| S::from_f64(x).to_f64();
    (
        q.iter().map(|&x| round(x)).collect(),
        io::Pose {
            rotation: p.rotation.map(round),
            translation: p.translation.map(round),
        },
    )
}

fn sorted<S: Scalar>(pairs: &[SweptPair<S>]) -> Found {
    let mut v: Found = pairs
        .iter()
        .map(|p| (p.a, p.b, p.time.to_f64().to_bits()))
        .collect();
    v.sort_unstable();
    v
}

/// What one run of ticks saw: per tick the front's answer and the root walk's, and the front's
/// counters.
#[derive(Default, Debug)]
struct Run {
    ticks: usize,
    pairs: usize,
    certified: usize,
    retested: usize,
    overflows: usize,
    /// Pairs one of the two answers has and the other has not.
    differ: usize,
    /// Pairs only the root walk reported, sampled densely and found apart.
    sampled: usize,
}

/// How `replay` keeps its front between ticks.
#[derive(Clone, Copy, PartialEq)]
enum Keep {
    /// One `SweptFront` held across the ticks.
    Held,
    /// Its state suspended after each tick and the front resumed on the same buffers (as the
    /// host and C keep it).
    Suspended,
    /// Suspended, and the buffers grown to twice their length after this tick (the resumed
    /// front starts afresh).
    GrownAfter(usize),
}

/// `ticks` ticks of the scene: each tick's front answer equals the root walk's, pairs and times
/// bit for bit. At tick `jump` the pad's `from` state is not the last tick's `to` (teleported
/// aside: the caller reset its state): nothing may be carried. `front_len` entries of front
/// storage.
fn replay<S: Scalar>(
    scene: &Resting,
    ticks: usize,
    jump: Option<usize>,
    cached: bool,
    front_len: usize,
    keep: Keep,
) -> Run {
    let (plate_buf, pad_buf) = (image::<S>(&scene.plate), image::<S>(&scene.pad));
    let (plate, pad) = (
        plate_buf.parse::<S>().expect("plate"),
        pad_buf.parse::<S>().expect("pad"),
    );
    let plate_model = crate::support::stored_model(&plate);
    let pad_model = crate::support::stored_model(&pad);
    let mut stores: Vec<Storage<S>> = (0..4)
        .map(|k| Storage::new(if k < 2 { &plate } else { &pad }))
        .collect();
    let [s0, s1, s2, s3] = &mut stores[..] else {
        unreachable!("four storages")
    };
    let mut plates = [s0.body(&plate, cached), s1.body(&plate, cached)];
    let mut pads = [s2.body(&pad, cached), s3.body(&pad, cached)];
    let mut entries = vec![FrontEntry::<S>::EMPTY; front_len];
    let mut spare = vec![FrontEntry::<S>::EMPTY; front_len];
    let mut held = SweptFront::new(&mut entries, &mut spare);
    let mut kept: (Vec<FrontEntry<S>>, Vec<FrontEntry<S>>, FrontState<S>) = (
        vec![FrontEntry::EMPTY; front_len],
        vec![FrontEntry::EMPTY; front_len],
        FrontState::NEW,
    );
    let mut stack = vec![[0u32; 2]; stack_capacity(plate.tree.depth(), pad.tree.depth())];
    let mut run = Run::default();
    let [p0, d0] = scene.states(0, false);
    set(&mut plates[0], &p0);
    set(&mut pads[0], &d0);
    for k in 0..ticks {
        let (from, to) = (k % 2, (k + 1) % 2);
        let [p1, d1] = scene.states(k + 1, jump == Some(k));
        set(&mut plates[to], &p1);
        set(&mut pads[to], &d1);
        if jump == Some(k) {
            set(&mut pads[from], &scene.states(k, true)[1]);
        }
        let ([pa, pb], [da, db]) = (&mut plates, &mut pads);
        let (plate_from, plate_to) = if from == 0 { (pa, pb) } else { (pb, pa) };
        let (pad_from, pad_to) = if from == 0 { (da, db) } else { (db, da) };
        let mut by_front = Vec::new();
        let mut resumed = SweptFront::resume(&mut kept.0, &mut kept.1, kept.2);
        let mut query = |front: &mut SweptFront<'_, S>| {
            let outcome = collide_swept_front(
                &mut *plate_from,
                &mut *plate_to,
                &mut *pad_from,
                &mut *pad_to,
                front,
                &mut stack,
                &mut |p: SweptPair<S>| {
                    by_front.push(p);
                    true
                },
            );
            (
                outcome,
                front.certified(),
                front.retested(),
                front.overflowed(),
            )
        };
        let (outcome, certified, retested, overflowed) = if keep == Keep::Held {
            query(&mut held)
        } else {
            query(&mut resumed)
        };
        assert_eq!(outcome.status, QueryStatus::Complete, "tick {k}");
        let mut by_root = Vec::new();
        let root = collide_swept(
            plate_from,
            plate_to,
            pad_from,
            pad_to,
            &mut stack,
            &mut |p: SweptPair<S>| {
                by_root.push(p);
                true
            },
        );
        assert_eq!(root.status, QueryStatus::Complete, "tick {k}");
        // The same leaf test on the same tracks (the front's first step reports a pair touching
        // at the start at 0, where the root walk's first round finds it too): a pair both
        // report has the same time. The
        // sets may differ by extras only — the root walk prunes a pair at an ancestor whose
        // tracks are apart where a carried entry's own are near, and the front certifies pairs
        // the root walk reaches (BD-Tree spheres are not nested) — which dense sampling holds
        // (below).
        let (front_set, root_set) = (sorted(&by_front), sorted(&by_root));
        let times = |v: &Found| -> std::collections::BTreeMap<(u32, u32), u64> {
            v.iter().map(|&(a, b, t)| ((a, b), t)).collect()
        };
        let (f, r) = (times(&front_set), times(&root_set));
        for (pair, t) in &f {
            if let Some(u) = r.get(pair) {
                assert_eq!(t, u, "{} tick {k}: {pair:?} at different times", S::NAME);
            }
        }
        run.differ += f.keys().filter(|p| !r.contains_key(p)).count()
            + r.keys().filter(|p| !f.contains_key(p)).count();
        // A pair only the root walk reports was certified or pruned by the front: dense
        // sampling of the tick's motion must find it apart throughout.
        let only_root: Vec<(u32, u32)> = r.keys().filter(|p| !f.contains_key(p)).copied().collect();
        if !only_root.is_empty() {
            // The pad's `from` is the last tick's `to` (teleported when the jump was then), or
            // the teleported state the jump resets it to.
            let teleported = jump == Some(k) || (k > 0 && jump == Some(k - 1));
            let from_states = scene.states(k, teleported);
            let to_states = scene.states(k + 1, jump == Some(k));
            let plate_ends = [rounded::<S>(&from_states[0]), rounded::<S>(&to_states[0])];
            let pad_ends = [rounded::<S>(&from_states[1]), rounded::<S>(&to_states[1])];
            for i in 0..=64 {
                let tau = i as f64 / 64.0;
                let (qa, pa) = state_at(&plate_ends, tau);
                let (qb, pb) = state_at(&pad_ends, tau);
                let wa = oracle::deform(&plate_model.0.vertices, Some(&plate_model.1), &qa, &pa);
                let wb = oracle::deform(&pad_model.0.vertices, Some(&pad_model.1), &qb, &pb);
                for &(ta, tb) in &only_root {
                    let tri = |w: &[[f64; 3]], m: &Mesh, t: u32| {
                        m.triangles[t as usize].map(|v| w[v as usize])
                    };
                    assert!(
                        !oracle::triangles_intersect(
                            &tri(&wa, &plate_model.0, ta),
                            &tri(&wb, &pad_model.0, tb)
                        ),
                        "{} tick {k}: pair ({ta}, {tb}) touches at τ = {tau}, the front missed it",
                        S::NAME
                    );
                }
            }
            run.sampled += only_root.len();
        }
        run.ticks += 1;
        run.pairs += by_root.len();
        run.certified += certified;
        run.retested += retested;
        run.overflows += usize::from(overflowed);
        // A jump (from ≠ the last to) walks from the root: nothing carried; so does the first
        // query on grown buffers.
        let grown = k > 0 && keep == Keep::GrownAfter(k - 1);
        if jump == Some(k) || grown {
            assert_eq!(certified, 0, "tick {k}: carried across a jump");
        }
        kept.2 = resumed.suspend();
        if keep == Keep::GrownAfter(k) {
            let len = 2 * kept.0.len();
            kept.0.resize(len, FrontEntry::EMPTY);
            kept.1.resize(len, FrontEntry::EMPTY);
        }
    }
    run
}

#[test]
fn the_front_answers_as_the_root_walk_tick_after_tick() {
    for (scale, offset) in [
        (1.0, [0.0; 3]),
        (1.0, [3000.0, -2000.0, 1000.0]),
        (1e-3, [0.0; 3]),
        (1e-3, [200.0, 150.0, -120.0]),
    ] {
        let scene = Resting::new(scale, offset, 1000.0);
        for cached in [true, false] {
            let keep = if cached { Keep::Held } else { Keep::Suspended };
            let run = replay::<f32>(&scene, 40, Some(20), cached, 1 << 16, keep);
            eprintln!("f32 scale {scale} at {offset:?}, caches {cached}: {run:?}");
            assert!(run.pairs > 0, "the pad touches the plate: {run:?}");
            assert!(
                run.certified > run.retested,
                "the front skips most: {run:?}"
            );
            assert_eq!(run.overflows, 0);
            assert!(run.differ * 50 <= run.pairs + 50, "{run:?}");
            let keep = if cached { Keep::Suspended } else { Keep::Held };
            let run = replay::<f64>(&scene, 40, Some(20), cached, 1 << 16, keep);
            eprintln!("f64 scale {scale} at {offset:?}, caches {cached}: {run:?}");
            assert!(run.pairs > 0 && run.certified > run.retested, "{run:?}");
            assert!(run.differ * 50 <= run.pairs + 50, "{run:?}");
        }
    }
}

/// Random motions (faster sliding and turning, larger mode amplitudes, lower rates, far from
/// the origin and at millimetre scale): the front's answer against the root walk's, every pair
/// only the root walk reports sampled densely and found apart.
#[test]
fn random_motions_keep_the_front_honest() {
    let mut rng = crate::support::Rng::new(0x5EE7_F407);
    let mut sampled = 0;
    for case in 0..12 {
        let scale = if case % 3 == 2 { 1e-3 } else { 1.0 };
        let offset = if case % 2 == 1 {
            [
                rng.uniform(-3e3, 3e3),
                rng.uniform(-3e3, 3e3),
                rng.uniform(-3e3, 3e3),
            ]
        } else {
            [0.0; 3]
        };
        let rate = [1000.0, 250.0, 60.0][case % 3];
        let mut scene = Resting::new(scale, offset, rate);
        scene.speed = [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)];
        scene.turn = rng.uniform(-3.0, 3.0);
        scene.breath = rng.uniform(0.0, 2.0);
        let run = if case % 2 == 0 {
            replay::<f32>(&scene, 30, Some(17), case % 4 == 0, 1 << 16, Keep::Held)
        } else {
            replay::<f64>(
                &scene,
                30,
                Some(17),
                case % 4 == 1,
                1 << 16,
                Keep::Suspended,
            )
        };
        eprintln!("case {case}: scale {scale}, {rate} Hz: {run:?}");
        assert!(run.certified > 0, "{run:?}");
        sampled += run.sampled;
    }
    eprintln!("{sampled} pairs only the root walk reported, each sampled and found apart");
}

/// A front that does not fit its storage is dropped: the answer stays the root walk's, the next
/// query walks from the root.
#[test]
fn a_front_too_large_for_its_storage_changes_no_answer() {
    let scene = Resting::new(1.0, [0.0; 3], 1000.0);
    let run = replay::<f32>(&scene, 12, None, true, 64, Keep::Held);
    assert_eq!(run.overflows, run.ticks, "{run:?}");
    assert_eq!(run.certified, 0, "{run:?}");
    assert!(run.pairs > 0);
}

/// A suspended front resumed on buffers of another length starts afresh (storage may grow
/// between ticks), then carries again: 64 entries overflow, grown past the front's size they
/// do not.
#[test]
fn a_front_resumed_on_grown_storage_starts_afresh() {
    let scene = Resting::new(1.0, [0.0; 3], 1000.0);
    let mut lens = 64;
    let mut grown = None;
    while grown.is_none() && lens <= 1 << 20 {
        let run = replay::<f32>(&scene, 2, None, true, lens, Keep::Suspended);
        if run.overflows == 0 {
            grown = Some(lens);
        }
        lens *= 2;
    }
    let fits = grown.expect("a front of the resting pad fits 2^20 entries");
    // Overflowing for the first ticks, grown to fit after tick 3: carried from tick 5 on.
    let run = replay::<f32>(&scene, 12, None, true, fits / 2, Keep::GrownAfter(3));
    assert!(run.overflows >= 1, "{run:?}");
    assert!(run.certified > 0, "{run:?}");
    let held = replay::<f32>(&scene, 12, None, true, fits, Keep::Held);
    assert!(run.certified < held.certified, "{run:?} {held:?}");
}

/// Dense sampling of the resting pad over some ticks' motions: every pair some sample finds is
/// reported, no later than that sample.
#[test]
fn dense_sampling_of_the_resting_pad_finds_nothing_missed_or_late() {
    type S = f32;
    for (scale, offset) in [(1.0, [0.0; 3]), (1e-3, [200.0, 150.0, -120.0])] {
        // 100 Hz: larger motions per tick than 1 kHz, the same code.
        let scene = Resting::new(scale, offset, 100.0);
        let (plate_buf, pad_buf) = (image::<S>(&scene.plate), image::<S>(&scene.pad));
        let (plate, pad) = (
            plate_buf.parse::<S>().expect("plate"),
            pad_buf.parse::<S>().expect("pad"),
        );
        let (plate_model, plate_basis) = crate::support::stored_model(&plate);
        let (pad_model, pad_basis) = crate::support::stored_model(&pad);
        let mut stores: Vec<Storage<S>> = (0..4)
            .map(|k| Storage::new(if k < 2 { &plate } else { &pad }))
            .collect();
        let [s0, s1, s2, s3] = &mut stores[..] else {
            unreachable!("four storages")
        };
        let mut plates = [s0.body(&plate, true), s1.body(&plate, true)];
        let mut pads = [s2.body(&pad, true), s3.body(&pad, true)];
        let mut entries = vec![FrontEntry::<S>::EMPTY; 1 << 16];
        let mut spare = vec![FrontEntry::<S>::EMPTY; 1 << 16];
        let mut front = SweptFront::new(&mut entries, &mut spare);
        let mut stack = vec![[0u32; 2]; stack_capacity(plate.tree.depth(), pad.tree.depth())];
        let round = |x: f64| S::from_f64(x).to_f64();
        let rounded = |(q, p): &(Vec<f64>, io::Pose)| {
            (
                q.iter().map(|&x| round(x)).collect::<Vec<_>>(),
                io::Pose {
                    rotation: p.rotation.map(round),
                    translation: p.translation.map(round),
                },
            )
        };
        let [p0, d0] = scene.states(0, false);
        set(&mut plates[0], &p0);
        set(&mut pads[0], &d0);
        let (mut sampled_pairs, mut reported_pairs) = (0, 0);
        for k in 0..6 {
            let (from, to) = (k % 2, (k + 1) % 2);
            let [pk, dk] = scene.states(k, false);
            let [p1, d1] = scene.states(k + 1, false);
            set(&mut plates[to], &p1);
            set(&mut pads[to], &d1);
            let ([pa, pb], [da, db]) = (&mut plates, &mut pads);
            let (plate_from, plate_to) = if from == 0 { (pa, pb) } else { (pb, pa) };
            let (pad_from, pad_to) = if from == 0 { (da, db) } else { (db, da) };
            let mut found = std::collections::BTreeMap::new();
            let outcome = collide_swept_front(
                plate_from,
                plate_to,
                pad_from,
                pad_to,
                &mut front,
                &mut stack,
                &mut |p: SweptPair<S>| {
                    found.insert((p.a, p.b), p.time.to_f64());
                    true
                },
            );
            assert_eq!(outcome.status, QueryStatus::Complete);
            let plate_ends = [rounded(&pk), rounded(&p1)];
            let pad_ends = [rounded(&dk), rounded(&d1)];
            let mut first = std::collections::BTreeMap::new();
            for i in 0..=24 {
                let tau = i as f64 / 24.0;
                let (qa, pa) = state_at(&plate_ends, tau);
                let (qb, pb) = state_at(&pad_ends, tau);
                let wa = oracle::deform(&plate_model.vertices, Some(&plate_basis), &qa, &pa);
                let wb = oracle::deform(&pad_model.vertices, Some(&pad_basis), &qb, &pb);
                for pair in oracle::brute_force_pairs(
                    &wa,
                    &plate_model.triangles,
                    &wb,
                    &pad_model.triangles,
                ) {
                    first.entry(pair).or_insert(tau);
                }
            }
            for (pair, &tau) in &first {
                let time = found.get(pair).unwrap_or_else(|| {
                    panic!("scale {scale} tick {k}: pair {pair:?} touching at τ = {tau} missed")
                });
                assert!(
                    *time <= tau + 1e-12,
                    "tick {k}: {pair:?} at {tau}, reported {time}"
                );
            }
            sampled_pairs += first.len();
            reported_pairs += found.len();
        }
        eprintln!(
            "resting pad, scale {scale}: sampling finds {sampled_pairs} pairs over 6 ticks, the \
             front reports {reported_pairs}"
        );
        assert!(sampled_pairs > 0, "the pad touches the plate");
        // Tight at either scale (the swept tolerance is relative to the coordinates in play:
        // no absolute part that a millimetre part would feel).
        assert!(
            reported_pairs <= 3 * sampled_pairs / 2 + 8,
            "scale {scale}: {reported_pairs} reported, {sampled_pairs} sampled"
        );
    }
}
