//! The committed fixture scenes, answered by the kernel in f32 and f64, against the expected
//! answers that `cargo xtask fixtures` computed with the f64 brute-force oracle.

use std::path::PathBuf;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{compare, prepare, run_with};

use crate::support::{expected, fixtures, frame_error};

fn scenes() -> Vec<PathBuf> {
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(fixtures().join("scenes"))
        .expect("fixtures/scenes")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    scenes.sort();
    scenes
}

/// Whether a scene's expected answers include self-collisions (`"self": true` on its lines).
fn with_self(name: &str) -> bool {
    let text = std::fs::read_to_string(fixtures().join(format!("expected/{name}.jsonl")))
        .expect("expected file");
    text.lines().next().is_some_and(|l| {
        serde_json::from_str::<serde_json::Value>(l).expect("json")["self"] == true
    })
}

#[test]
fn every_fixture_scene_matches_brute_force_in_f32_and_f64() {
    let scenes = scenes();
    assert!(
        scenes.len() >= 4,
        "expected the fixture scenes, found {scenes:?}"
    );
    for path in scenes {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("name")
            .to_string();
        let scene = Scene::load(&path).expect("scene loads");
        let expected = expected(&scene, &name);
        assert_eq!(
            expected.len(),
            scene.frames.len(),
            "{name}: one expected line per frame"
        );
        let total: usize = expected.iter().map(Vec::len).sum();
        assert!(total > 0, "{name}: the fixture has contacts");
        for precision in [Precision::F32, Precision::F64] {
            let prepared = prepare(
                &scene,
                BuildOptions {
                    precision,
                    ..BuildOptions::default()
                },
            )
            .expect("build");
            let (frames, _) = match precision {
                Precision::F32 => run_with::<f32>(&scene, &prepared, 1, None, with_self(&name)),
                Precision::F64 => run_with::<f64>(&scene, &prepared, 1, None, with_self(&name)),
            }
            .expect("run");
            for (f, (got, want)) in frames.iter().zip(&expected).enumerate() {
                assert!(got.complete, "{name} frame {f}");
                let c = compare(&scene, f, &got.pairs, want);
                assert!(
                    c.missed.is_empty(),
                    "{name} frame {f} ({precision:?}): missed {:?}",
                    c.missed
                );
                // Extra pairs may only be near-touching ones, within the rounding inflation the
                // kernel documents: a few δ of the two bodies (δ from `Body::error`, about
                // 1e-5 of the scene's extent in f32 at M = 10, 1e-13 in f64).
                let delta = match precision {
                    Precision::F32 => frame_error::<f32>(&scene, &prepared, f),
                    Precision::F64 => frame_error::<f64>(&scene, &prepared, f),
                };
                let tolerance = 20.0 * delta;
                for (pair, gap) in &c.extra {
                    assert!(
                        *gap <= tolerance,
                        "{name} frame {f} ({precision:?}): extra {pair:?} is {gap} apart"
                    );
                }
                // In f64 the inflation is ~1e-13: no extra at all, except where a folding
                // sheet touches itself along its crease (gaps of 1e-16, true touching contact
                // that rounding in the oracle's deformation separates).
                if precision == Precision::F64 && !with_self(&name) {
                    assert!(
                        c.extra.is_empty(),
                        "{name} frame {f}: f64 extras {:?}",
                        c.extra
                    );
                }
            }
        }
    }
}
