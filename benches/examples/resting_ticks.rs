//! Resting contact through the path `bdtree collide --swept` runs, as instructions: a scene's
//! frames as a controller's ticks, f32, trees built before — the swept query with each body
//! pair's front carried (`front_phase`, [`run_swept_front`]), from the root (`root_phase`,
//! [`run_swept`]), and one static query per tick (`static_phase`, [`run`]: what `bdtree
//! collide` runs, the f64 second stage included) — each through the scene runner, states set
//! and pairs sorted. Counts do not depend on the machine's load:
//!
//! ```text
//! cargo build --release -p bdtree-benches --example resting_ticks
//! valgrind --tool=callgrind --callgrind-out-file=target/ticks.callgrind \
//!     target/release/examples/resting_ticks
//! callgrind_annotate --inclusive=yes target/ticks.callgrind | grep -E '_phase'
//! ```
//!
//! Two scenes (`RESTING_SCENE=fixture|pad`, default both in turn, so the inclusive figures sum
//! them; the program prints each scene's ticks to divide by): `fixture` is
//! `fixtures/swept/resting.json` (a modal pad pressed 1.2 mm into a plate, sliding 20 mm/s,
//! 1 ms ticks, 99 motions); `pad` is the kernel's resting pad (`resting_profile`: a ball of
//! radius 6 cm pressed 5 mm into a 60 × 40 cm sheet, sliding 5 cm/s, turning, 1 kHz, 300
//! motions), here with its states given in f64 at 2 km from the world origin.
//!
//! `RESTING_TIME=R` times instead: R rounds per scene, each running the front phase and the
//! static phase `RESTING_REPEAT` times (default 5), in turn first (order flipped every round),
//! and prints the medians per tick and the median of the rounds' ratios (front / static).

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::{Pose, Scene, SceneBody};
use bdtree_std::runner::{prepare, run, run_swept, run_swept_front, PreparedScene};
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis};

#[inline(never)]
fn front_phase(scene: &Scene, prepared: &PreparedScene) -> (usize, usize) {
    let (answers, _, fronts) = run_swept_front::<f32>(scene, prepared).expect("front");
    (
        answers.iter().map(|a| a.items.len()).sum(),
        fronts.certified,
    )
}

#[inline(never)]
fn root_phase(scene: &Scene, prepared: &PreparedScene) -> usize {
    let (answers, _) = run_swept::<f32>(scene, prepared).expect("swept");
    answers.iter().map(|a| a.items.len()).sum()
}

#[inline(never)]
fn static_phase(scene: &Scene, prepared: &PreparedScene) -> usize {
    let (frames, _) = run::<f32>(scene, prepared, 1).expect("static");
    frames.iter().map(|f| f.pairs.len()).sum()
}

/// The kernel's resting pad (`resting_profile`) as a scene, 2 km from the origin.
fn pad_scene(motions: usize) -> Scene {
    let plate = sheet(0.6, 0.4, 18, 12);
    let pad = icosphere(0.06, 2);
    let bodies = [("plate", plate, 2, 0.002), ("pad", pad, 3, 0.004)]
        .into_iter()
        .map(|(name, mesh, modes, amplitude)| SceneBody {
            name: name.into(),
            mesh_path: format!("{name}.obj").into(),
            basis: Some(smooth_basis(&mesh.vertices, modes, amplitude)),
            mesh,
            tree: None,
        })
        .collect();
    let far = [2000.0, -1500.0, 300.0];
    let frames = (0..=motions)
        .map(|k| {
            let t = k as f64 / 1000.0;
            let wave = |phase: f64| (std::f64::consts::TAU * 3.0 * t + phase).sin();
            let half = 0.5 * 0.2 * t;
            vec![
                (
                    Pose {
                        rotation: [1.0, 0.0, 0.0, 0.0],
                        translation: far,
                    },
                    vec![0.3 * wave(0.0), -0.2 * wave(1.0)],
                ),
                (
                    Pose {
                        rotation: [half.cos(), 0.0, 0.0, half.sin()],
                        translation: [far[0] - 0.1 + 0.05 * t, far[1] + 0.01 * t, far[2] + 0.055],
                    },
                    vec![0.5 * wave(0.3), 0.4 * wave(2.0), -0.3 * wave(4.0)],
                ),
            ]
        })
        .collect();
    Scene {
        path: "pad.json".into(),
        bodies,
        frames,
        primitives: Vec::new(),
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/swept/resting.json");
    let only = std::env::var("RESTING_SCENE").ok();
    for name in ["fixture", "pad"] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let scene = match name {
            "fixture" => Scene::load(&fixture).expect("fixture scene"),
            _ => pad_scene(300),
        };
        let options = BuildOptions {
            precision: Precision::F32,
            ..BuildOptions::default()
        };
        let prepared = prepare(&scene, options).expect("build");
        let (motions, frames) = (scene.frames.len() - 1, scene.frames.len());
        if let Some(rounds) = std::env::var("RESTING_TIME")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
        {
            let repeat: usize = std::env::var("RESTING_REPEAT")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(5);
            let front = || {
                let start = Instant::now();
                for _ in 0..repeat {
                    black_box(front_phase(&scene, &prepared));
                }
                start.elapsed().as_secs_f64() / (repeat * motions) as f64
            };
            let fixed = || {
                let start = Instant::now();
                for _ in 0..repeat {
                    black_box(static_phase(&scene, &prepared));
                }
                start.elapsed().as_secs_f64() / (repeat * frames) as f64
            };
            let (mut fr, mut st, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
            for round in 0..rounds {
                let (a, b) = if round % 2 == 0 {
                    let a = front();
                    (a, fixed())
                } else {
                    let b = fixed();
                    (front(), b)
                };
                fr.push(a);
                st.push(b);
                ratios.push(a / b);
            }
            println!(
                "{name}: per tick, median of {rounds} rounds: swept with fronts {:.4} ms, static \
                 {:.4} ms; median ratio {:.2} (rounds {:.2}–{:.2})",
                median(&mut fr) * 1e3,
                median(&mut st) * 1e3,
                median(&mut ratios.clone()),
                ratios.iter().cloned().fold(f64::INFINITY, f64::min),
                ratios.iter().cloned().fold(0.0, f64::max),
            );
            continue;
        }
        let (front_pairs, certified) = black_box(front_phase(&scene, &prepared));
        let root_pairs = black_box(root_phase(&scene, &prepared));
        let static_pairs = black_box(static_phase(&scene, &prepared));
        println!(
            "{name}: {motions} motions ({frames} frames): swept pairs with fronts {front_pairs}, \
             from the root {root_pairs}; {certified} front entries certified; static pairs \
             {static_pairs}"
        );
    }
}
