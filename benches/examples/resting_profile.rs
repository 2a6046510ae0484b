//! A pad resting and sliding on a plate at 1 kHz: the swept query with its front carried across
//! ticks (`front_phase`), the swept query from the root each tick (`swept_phase`) and the static
//! query at each tick's state (`static_phase`), f32, 1000 ticks each, every body with sphere,
//! vertex and track caches (as the host's). Counted instructions do not depend on the load:
//!
//! ```text
//! cargo build --release -p bdtree-benches --example resting_profile
//! valgrind --tool=callgrind --callgrind-out-file=target/resting.callgrind \
//!     target/release/examples/resting_profile
//! callgrind_annotate --inclusive=yes target/resting.callgrind | grep -E '_phase'
//! ```
//!
//! The scene: a sheet 0.6 × 0.4 (432 triangles, 2 modes) and a modal ball of radius 0.06 (320
//! triangles, 3 modes) pressed 5 mm into it, sliding at 5 cm/s and 1 cm/s, turning at 0.2 rad/s,
//! both bodies' modes breathing at 3 Hz (the scene of `tests/kernel/query/swept_front.rs`).
//! `RESTING_TICKS=N` runs N ticks instead. `RESTING_TIME=R` times instead: R rounds, each
//! running the front phase and the static phase once, in turn first (order flipped every
//! round), and prints the medians per tick and the median of the rounds' ratios.

use std::hint::black_box;

use bdtree_core::{
    collide, collide_swept, collide_swept_front, stack_capacity, Body, CacheEntry, FrontEntry,
    Image, Pose, SweptFront, SweptPair, TrackEntry, TrianglePair, VertexEntry,
};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis};

type S = f32;

fn image((mesh, basis): &(Mesh, Basis)) -> ImageBuf {
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    build(mesh, Some(basis), options, &mut |_| {})
        .expect("build")
        .0
}

struct Storage {
    spheres: Vec<CacheEntry<S>>,
    modes: Vec<S>,
    vertices: Vec<VertexEntry<S>>,
    tracks: Vec<TrackEntry<S>>,
}

impl Storage {
    fn new(image: &Image<'_, S>) -> Self {
        Storage {
            spheres: vec![CacheEntry::default(); image.tree.node_count()],
            modes: vec![0.0; bdtree_core::mode_storage(image.tree.modes())],
            vertices: vec![VertexEntry::default(); image.model.vertex_count()],
            tracks: vec![TrackEntry::default(); image.tree.node_count()],
        }
    }

    fn body<'t>(&mut self, image: &Image<'t, S>) -> Body<'t, '_, S> {
        Body::new(image, &mut self.spheres, &mut self.modes)
            .and_then(|b| b.with_vertex_cache(&mut self.vertices))
            .and_then(|b| b.with_track_cache(&mut self.tracks))
            .expect("body")
    }
}

/// The plate's and the pad's (q, pose) at tick `k` of 1 kHz.
fn states(k: usize) -> [(Vec<S>, Pose<S>); 2] {
    let t = k as f64 / 1000.0;
    let wave = |phase: f64| (std::f64::consts::TAU * 3.0 * t + phase).sin() as S;
    let half = 0.5 * 0.2 * t;
    let pose = |q: [f64; 4], x: [f64; 3]| {
        Pose::from_quaternion(q.map(|v| v as S), x.map(|v| v as S)).expect("pose")
    };
    [
        (
            vec![0.3 * wave(0.0), -0.2 * wave(1.0)],
            pose([1.0, 0.0, 0.0, 0.0], [0.0; 3]),
        ),
        (
            vec![0.5 * wave(0.3), 0.4 * wave(2.0), -0.3 * wave(4.0)],
            pose(
                [half.cos(), 0.0, 0.0, half.sin()],
                [-0.1 + 0.05 * t, 0.01 * t, 0.055],
            ),
        ),
    ]
}

fn set(body: &mut Body<'_, '_, S>, (q, pose): &(Vec<S>, Pose<S>)) {
    body.set_state(*pose, q).expect("state");
}

/// The four bodies of a tick (each object at its last and current state).
struct Ticks<'t, 'c> {
    plates: [Body<'t, 'c, S>; 2],
    pads: [Body<'t, 'c, S>; 2],
}

impl<'t, 'c> Ticks<'t, 'c> {
    /// Sets the states of tick `k + 1` and hands out (plate from, plate to, pad from, pad to).
    fn step(&mut self, k: usize) -> [&mut Body<'t, 'c, S>; 4] {
        let to = (k + 1) % 2;
        let [p1, d1] = states(k + 1);
        set(&mut self.plates[to], &p1);
        set(&mut self.pads[to], &d1);
        let ([pa, pb], [da, db]) = (&mut self.plates, &mut self.pads);
        if to == 1 {
            [pa, pb, da, db]
        } else {
            [pb, pa, db, da]
        }
    }
}

#[inline(never)]
fn front_phase(ticks: &mut Ticks<'_, '_>, n: usize, stack: &mut [[u32; 2]]) -> (usize, usize) {
    let mut entries = vec![FrontEntry::<S>::EMPTY; 1 << 16];
    let mut spare = vec![FrontEntry::<S>::EMPTY; 1 << 16];
    let mut front = SweptFront::new(&mut entries, &mut spare);
    let (mut pairs, mut certified) = (0, 0);
    for k in 0..n {
        let [a0, a1, b0, b1] = ticks.step(k);
        collide_swept_front(a0, a1, b0, b1, &mut front, stack, &mut |_: SweptPair<S>| {
            pairs += 1;
            true
        });
        certified += front.certified();
    }
    (pairs, certified)
}

#[inline(never)]
fn swept_phase(ticks: &mut Ticks<'_, '_>, n: usize, stack: &mut [[u32; 2]]) -> usize {
    let mut pairs = 0;
    for k in 0..n {
        let [a0, a1, b0, b1] = ticks.step(k);
        collide_swept(a0, a1, b0, b1, stack, &mut |_: SweptPair<S>| {
            pairs += 1;
            true
        });
    }
    pairs
}

#[inline(never)]
fn static_phase(ticks: &mut Ticks<'_, '_>, n: usize, stack: &mut [[u32; 2]]) -> usize {
    let mut pairs = 0;
    for k in 0..n {
        let [_, a1, _, b1] = ticks.step(k);
        collide(a1, b1, stack, &mut |_: TrianglePair| {
            pairs += 1;
            true
        });
    }
    pairs
}

fn main() {
    let n: usize = std::env::var("RESTING_TICKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let plate_mesh = sheet(0.6, 0.4, 18, 12);
    let pad_mesh = icosphere(0.06, 2);
    let plate_basis = smooth_basis(&plate_mesh.vertices, 2, 0.002);
    let pad_basis = smooth_basis(&pad_mesh.vertices, 3, 0.004);
    let (pb, db) = (
        image(&(plate_mesh, plate_basis)),
        image(&(pad_mesh, pad_basis)),
    );
    let (plate, pad) = (
        pb.parse::<S>().expect("plate"),
        db.parse::<S>().expect("pad"),
    );
    let mut stack = vec![[0u32; 2]; stack_capacity(plate.tree.depth(), pad.tree.depth())];
    let mut stores: Vec<Storage> = (0..4)
        .map(|k| Storage::new(if k < 2 { &plate } else { &pad }))
        .collect();
    let [s0, s1, s2, s3] = &mut stores[..] else {
        unreachable!("four storages")
    };
    let mut ticks = Ticks {
        plates: [s0.body(&plate), s1.body(&plate)],
        pads: [s2.body(&pad), s3.body(&pad)],
    };
    let [p0, d0] = states(0);
    set(&mut ticks.plates[0], &p0);
    set(&mut ticks.pads[0], &d0);
    if let Some(rounds) = std::env::var("RESTING_TIME")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let mut timed = |front: bool, ticks: &mut Ticks<'_, '_>| {
            set(&mut ticks.plates[0], &p0);
            set(&mut ticks.pads[0], &d0);
            let start = std::time::Instant::now();
            if front {
                black_box(front_phase(ticks, n, &mut stack));
            } else {
                black_box(static_phase(ticks, n, &mut stack));
            }
            start.elapsed().as_secs_f64() / n.max(1) as f64
        };
        let (mut fronts, mut statics, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let (f, s) = if round % 2 == 0 {
                let f = timed(true, &mut ticks);
                (f, timed(false, &mut ticks))
            } else {
                let s = timed(false, &mut ticks);
                (timed(true, &mut ticks), s)
            };
            fronts.push(f);
            statics.push(s);
            ratios.push(f / s);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (lo, hi) = (
            ratios.iter().copied().fold(f64::INFINITY, f64::min),
            ratios.iter().copied().fold(0.0, f64::max),
        );
        println!(
            "resting pad, {rounds} rounds of {n} ticks, per tick (median): front {:.1} µs, \
             static {:.1} µs; front / static median {:.3} (range {lo:.3}–{hi:.3})",
            1e6 * median(&mut fronts),
            1e6 * median(&mut statics),
            median(&mut ratios),
        );
        return;
    }
    let (front_pairs, certified) = black_box(front_phase(&mut ticks, n, &mut stack));
    set(&mut ticks.plates[0], &p0);
    set(&mut ticks.pads[0], &d0);
    let swept_pairs = black_box(swept_phase(&mut ticks, n, &mut stack));
    set(&mut ticks.plates[0], &p0);
    set(&mut ticks.pads[0], &d0);
    let static_pairs = black_box(static_phase(&mut ticks, n, &mut stack));
    let m = n.max(1) as f64;
    println!(
        "resting pad, {n} ticks at 1 kHz, per tick: front {:.1} pairs ({:.0} entries certified), \
         swept from the root {:.1} pairs, static {:.1} pairs",
        front_pairs as f64 / m,
        certified as f64 / m,
        swept_pairs as f64 / m,
        static_pairs as f64 / m,
    );
}
