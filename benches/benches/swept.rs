//! Swept queries against static ones on the same scenes: for each scene, every motion between
//! consecutive frames with [`run_swept`] (`collide_swept` per body pair: the pairs that may
//! touch at some time of the motion) against every frame with [`run`] (`collide` per body
//! pair: the pairs touching at the frame), both in f32 through the scene runner (states set,
//! queries run, pairs collected and sorted; trees built once, before timing).
//!
//! Scenes: `fixtures/swept/tunnel.json` (3 motions: a blade swings through a sheet, a ball drops
//! through it; nothing touches at any frame), `fixtures/swept/plate.json` (4 motions: a ball
//! through a vibrating plate), `fixtures/swept/flap.json` (3 motions: a sheet flapping through
//! a ball and a bar) and `fixtures/scenes/demo.json` (23 motions of a ball through a waving
//! cloth next to a ring; contacts at most frames).
//!
//! Group `swept`, one whole scene per iteration: `static/<scene>` (every frame),
//! `substep8/<scene>` (the user's alternative: the static query at 8 evenly spaced instants of
//! every motion, [`substeps`]) and `swept/<scene>` (every motion). The per-frame or per-motion
//! figure is the median divided by the frame or motion count; the claim is `swept` per motion
//! against `substep8` per motion (the book's `docs/src/performance/swept.md`).

use std::hint::black_box;
use std::path::Path;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{prepare, run, run_swept, substeps};
use criterion::Criterion;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("swept");
    for (name, rel) in [
        ("tunnel", "swept/tunnel.json"),
        ("plate", "swept/plate.json"),
        ("flap", "swept/flap.json"),
        ("demo", "scenes/demo.json"),
    ] {
        let scene = Scene::load(&root.join(rel)).expect("fixture scene");
        let options = BuildOptions {
            precision: Precision::F32,
            ..BuildOptions::default()
        };
        let prepared = prepare(&scene, options).expect("build");
        let frames = scene.frames.len();
        let (statics, _) = run::<f32>(&scene, &prepared, 1).expect("static");
        let (swept, _) = run_swept::<f32>(&scene, &prepared).expect("swept");
        println!(
            "{name}: {frames} frames, {} static pairs in all; {} motions, {} swept pairs in all",
            statics.iter().map(|f| f.pairs.len()).sum::<usize>(),
            swept.len(),
            swept.iter().map(|a| a.items.len()).sum::<usize>(),
        );
        group.bench_function(format!("static/{name}"), |b| {
            b.iter(|| black_box(run::<f32>(&scene, &prepared, 1).expect("static")))
        });
        let stepped = substeps(&scene, 8);
        group.bench_function(format!("substep8/{name}"), |b| {
            b.iter(|| black_box(run::<f32>(&stepped, &prepared, 1).expect("sub-steps")))
        });
        group.bench_function(format!("swept/{name}"), |b| {
            b.iter(|| black_box(run_swept::<f32>(&scene, &prepared).expect("swept")))
        });
    }
    group.finish();
    c.final_summary();
}
