//! The committed fixture scenes, answered by the kernel in f32 and f64, against the expected
//! answers that `cargo xtask fixtures` computed with the f64 brute-force oracle.

use std::path::{Path, PathBuf};

use bdtree_std::builder::{BuildOptions, Precision};
use bdtree_std::collide::{compare, prepare, run, Contact};
use bdtree_std::scene::Scene;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn scenes() -> Vec<PathBuf> {
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(fixtures().join("scenes"))
        .expect("fixtures/scenes")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    scenes.sort();
    scenes
}

/// The expected pairs of every frame, as body indices and triangle indices.
fn expected(scene: &Scene, name: &str) -> Vec<Vec<Contact>> {
    let text = std::fs::read_to_string(fixtures().join(format!("expected/{name}.jsonl")))
        .expect("expected file");
    let index = |n: &serde_json::Value| {
        scene
            .bodies
            .iter()
            .position(|b| Some(b.name.as_str()) == n.as_str())
            .expect("body name")
    };
    text.lines()
        .enumerate()
        .map(|(f, line)| {
            let v: serde_json::Value = serde_json::from_str(line).expect("json line");
            assert_eq!(v["frame"].as_u64(), Some(f as u64));
            v["pairs"]
                .as_array()
                .expect("pairs")
                .iter()
                .map(|p| {
                    let t = |i: usize| p[i].as_u64().expect("triangle") as u32;
                    (index(&p[0]), index(&p[1]), t(2), t(3))
                })
                .collect()
        })
        .collect()
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
                Precision::F32 => run::<f32>(&scene, &prepared, 1),
                Precision::F64 => run::<f64>(&scene, &prepared, 1),
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
                // Extra pairs may only be near-touching ones, within the documented inflation
                // (about 1e-5 of the scene's extent in f32, 1e-13 in f64).
                let tolerance = match precision {
                    Precision::F32 => 1e-4,
                    Precision::F64 => 1e-12,
                };
                for (pair, gap) in &c.extra {
                    assert!(
                        *gap <= tolerance,
                        "{name} frame {f} ({precision:?}): extra {pair:?} is {gap} apart"
                    );
                }
                if precision == Precision::F64 {
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
