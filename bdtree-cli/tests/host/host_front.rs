//! The swept query with each body pair's front carried across ticks, through the host
//! (`host::world::swept_front`, the scene runner's `run_swept_front`) and the CLI (`bdtree
//! collide --swept`, whose default it is), against dense sampling of each motion by the f64
//! brute force at the states as given (`cli_contacts::sampled_with`, written independently of
//! the library's interpolation): nothing missed, nothing reported late, few extras against the
//! walk from the root — in f32 and f64, at unit and millimetre scale, near and far from the
//! origin, through jumps in state and across a pair's floating origin moving.

use std::collections::BTreeMap;

use bdtree_core::Scalar;
use bdtree_std::io::{Pose, Scene, SceneBody};
use bdtree_std::rng::Rng;
use bdtree_std::runner::{prepare, run_swept, run_swept_front, FrameAnswer, SweptContact};
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis};

use crate::binary::fixtures;
use crate::cli_contacts::{json_lines, key, sampled_with, Key};
use crate::support::{options_in, scaled};

/// A pad (a ball with 3 smooth modes) pressed into a plate (2 modes) and sliding over it:
/// `scale` the unit, `offset` where the scene sits, `rate` ticks per second, `speed` the
/// sliding velocity (units/s at unit scale), `turn` rad/s, `breath` the modes' amplitude;
/// `jump` teleports the pad 0.02 units aside from that tick on.
struct Pad {
    scale: f64,
    offset: [f64; 3],
    rate: f64,
    speed: [f64; 2],
    turn: f64,
    breath: f64,
    jump: Option<usize>,
}

impl Pad {
    fn scene(&self, ticks: usize) -> Scene {
        let s = self.scale;
        let plate = scaled(sheet(0.3, 0.2, 12, 8), s);
        let pad = scaled(icosphere(0.03, 1), s);
        let bodies = [("plate", plate, 2, 0.0005), ("pad", pad, 3, 0.0004)]
            .into_iter()
            .map(|(name, mesh, modes, amplitude)| SceneBody {
                name: name.into(),
                mesh_path: format!("{name}.obj").into(),
                basis: Some(smooth_basis(&mesh.vertices, modes, amplitude * s)),
                mesh,
                tree: None,
            })
            .collect();
        let o = self.offset;
        let frames = (0..=ticks)
            .map(|k| {
                let t = k as f64 / self.rate;
                let b = self.breath;
                let wave = |phase: f64| b * (std::f64::consts::TAU * 3.0 * t + phase).sin();
                let half = 0.5 * self.turn * t;
                let aside = if self.jump.is_some_and(|j| k >= j) {
                    0.02
                } else {
                    0.0
                };
                vec![
                    (
                        Pose {
                            rotation: [1.0, 0.0, 0.0, 0.0],
                            translation: o,
                        },
                        vec![wave(0.0), -wave(1.0)],
                    ),
                    (
                        Pose {
                            rotation: [half.cos(), 0.0, 0.0, half.sin()],
                            translation: [
                                o[0] + s * (-0.05 + self.speed[0] * t + aside),
                                o[1] + s * self.speed[1] * t,
                                o[2] + s * (0.03 - 0.0012),
                            ],
                        },
                        vec![wave(0.3), wave(2.0), -wave(4.0)],
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
}

/// The pairs of one motion's answer, keyed by body names, with their times.
fn keyed(scene: &Scene, answer: &FrameAnswer<SweptContact>) -> BTreeMap<Key, f64> {
    answer
        .items
        .iter()
        .map(|c| {
            let (a, b, ta, tb) = c.pair;
            let k = (
                scene.bodies[a].name.clone(),
                scene.bodies[b].name.clone(),
                ta.into(),
                tb.into(),
            );
            (k, c.time)
        })
        .collect()
}

/// What a run of ticks through fronts saw against sampling and the walk from the root.
#[derive(Debug, Default)]
struct Seen {
    sampled: usize,
    front: usize,
    root: usize,
    certified: usize,
}

/// Runs `scene`'s motions through fronts and from the root in scalar `S`: every pair dense
/// sampling finds is reported by both, no later than the sample.
fn check<S: Scalar>(scene: &Scene, samples: usize, what: &str) -> Seen {
    let options = options_in::<S>();
    let prepared = prepare(scene, options).expect("build");
    let (front, _, summary) = run_swept_front::<S>(scene, &prepared).expect("front");
    let (root, _) = run_swept::<S>(scene, &prepared).expect("root");
    let mut seen = Seen {
        certified: summary.certified,
        ..Seen::default()
    };
    // The oracle samples the scene moved by its first body's first translation: the same
    // geometry (each translation's difference from it is exact in f64, Sterbenz), where the
    // brute force's own rounding is that of the parts, not of their distance from the world
    // origin (at 3 km, 1e-12 m: more than a millimetre part's grazing contacts).
    let shift = scene.frames[0][0].0.translation;
    let mut near = scene.clone();
    for frame in &mut near.frames {
        for (pose, _) in frame {
            pose.translation = std::array::from_fn(|k| pose.translation[k] - shift[k]);
        }
    }
    for (f_answer, r_answer) in front.iter().zip(&root) {
        let f = f_answer.frame;
        let truth = sampled_with(&near, f, samples);
        for (name, answer) in [("front", f_answer), ("root", r_answer)] {
            let reported = keyed(scene, answer);
            for (k, &tau) in &truth {
                let time = reported.get(k).copied();
                assert!(
                    time.is_some_and(|t| t <= tau),
                    "{what} {} {name}, motion into frame {f}: {k:?} touches at τ = {tau}, \
                     reported at {time:?}",
                    S::NAME
                );
            }
        }
        seen.sampled += truth.len();
        seen.front += f_answer.items.len();
        seen.root += r_answer.items.len();
    }
    seen
}

/// Randomized resting and sliding contact: fast and slow, near and far (3 km), metre and
/// millimetre parts, 1 kHz to 60 Hz, a jump in state mid-run and travels long enough to move a
/// pair's floating origin; f32 and f64 trees, states given in f64.
#[test]
fn fronts_carried_across_ticks_miss_nothing_dense_sampling_finds() {
    let mut rng = Rng::new(0xF807_7105);
    let (mut total, mut certified) = (Seen::default(), 0);
    for case in 0..8 {
        let scale = if case % 4 == 3 { 1e-3 } else { 1.0 };
        let far = case % 2 == 1;
        let offset = if far {
            [
                rng.uniform(-3e3, 3e3),
                rng.uniform(-3e3, 3e3),
                rng.uniform(-3e3, 3e3),
            ]
        } else {
            [0.0; 3]
        };
        let rate = [1000.0, 250.0, 60.0, 1000.0][case % 4];
        let fast = case >= 4;
        let pad = Pad {
            scale,
            offset,
            rate,
            // Fast cases at 60 Hz travel 0.2–0.3 units in 24 ticks, at 250 Hz 0.05–0.08: past
            // a quarter of the two radii (about 0.05), so the pair's origin moves.
            speed: if fast {
                [rng.uniform(0.5, 0.8), rng.uniform(-0.3, 0.3)]
            } else {
                [rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05)]
            },
            turn: rng.uniform(-3.0, 3.0),
            breath: rng.uniform(0.2, 1.5),
            jump: (case % 3 == 0).then_some(11),
        };
        let scene = pad.scene(24);
        let what = format!("case {case} (scale {scale}, far {far}, {rate} Hz, fast {fast})");
        let seen = if case % 2 == 0 {
            check::<f32>(&scene, 12, &what)
        } else {
            check::<f64>(&scene, 12, &what)
        };
        eprintln!("{what}: {seen:?}");
        assert!(seen.sampled > 0, "{what}: the pad touches the plate");
        // Few extras: the front's pairs against the root walk's.
        assert!(
            20 * seen.front <= 23 * seen.root + 20,
            "{what}: front {} against root {}",
            seen.front,
            seen.root
        );
        if !fast {
            certified += seen.certified;
        }
        total.sampled += seen.sampled;
        total.front += seen.front;
        total.root += seen.root;
    }
    assert!(certified > 0, "slow contact carries certificates");
    eprintln!("all cases: {total:?}");
}

/// `bdtree collide --swept` on the resting fixture runs the frames as ticks through fronts:
/// the same pairs as `--from-root` in count within a few, every pair dense sampling finds
/// reported no later than it, and the text report says how it ran.
#[test]
fn collide_swept_runs_the_resting_fixture_as_ticks() {
    let path = fixtures().join("swept/resting.json");
    let scene = Scene::load(&path).expect("resting scene");
    for precision in ["f32", "f64"] {
        let p = path.to_str().expect("path");
        let front = json_lines(&["collide", p, "--swept", "--json", "--precision", precision]);
        let root = json_lines(&[
            "collide",
            p,
            "--swept",
            "--from-root",
            "--json",
            "--precision",
            precision,
        ]);
        assert_eq!(front.len(), scene.frames.len() - 1);
        let (mut n_front, mut n_root, mut n_sampled) = (0, 0, 0);
        for (v, w) in front.iter().zip(&root) {
            let f = v["frame"].as_u64().expect("frame") as usize;
            let pairs: Vec<Key> = v["pairs"]
                .as_array()
                .expect("pairs")
                .iter()
                .map(key)
                .collect();
            let times: Vec<f64> = v["times"]
                .as_array()
                .expect("times")
                .iter()
                .map(|t| t.as_f64().expect("time"))
                .collect();
            let reported: BTreeMap<&Key, f64> = pairs.iter().zip(times).collect();
            // Every fourth motion sampled (the brute force of 432 × 320 triangles per sample).
            if f % 4 == 1 {
                for (k, &tau) in &sampled_with(&scene, f, 6) {
                    let time = reported.get(k).copied();
                    assert!(
                        time.is_some_and(|t| t <= tau),
                        "{precision} motion into {f}: {k:?} at τ = {tau}, reported {time:?}"
                    );
                    n_sampled += 1;
                }
            }
            n_front += pairs.len();
            n_root += w["pairs"].as_array().expect("pairs").len();
        }
        assert!(n_sampled > 0);
        assert!(
            20 * n_front <= 23 * n_root,
            "{precision}: {n_front} against {n_root} from the root"
        );
        let out = crate::binary::bdtree(&["collide", p, "--swept", "--precision", precision]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success());
        assert!(
            text.contains("run as ticks") && text.contains("skipped on their margins"),
            "{text}"
        );
    }
}
