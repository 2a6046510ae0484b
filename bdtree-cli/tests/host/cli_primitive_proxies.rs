//! `bdtree collide --depth L` on scenes with primitive bodies: every body's proxies reaching
//! into each primitive, printed with the proxy pairs, and the property the kernel promises —
//! every triangle touching a primitive lies under a reported proxy of its body — checked here
//! against the f64 brute force ([`brute_force_primitive_frame`]) with the tree's own proxy of
//! each triangle ([`proxy_of_triangles`]), on random scenes near the origin and 3 km from it,
//! with a plane exactly touching a body's lowest vertex, in f32 and f64.

use std::path::{Path, PathBuf};

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::scene::PrimitiveShape;
use bdtree_std::io::{write_npy, write_obj, BodyFrame, BodySpec, FrameSpec, Scene, SceneFile};
use bdtree_std::runner::{brute_force_primitive_frame, prepare, proxy_of_triangles};
use bdtree_std::shapes::procedural::{blob, icosphere, smooth_basis, torus};
use serde_json::Value;

use crate::binary::{bdtree, succeeds};
use crate::support::{Rng, Scratch};

const DEPTH: u32 = 3;

/// Two modal meshes, a sphere, a box and a plane, in three frames around `centre`; in the last
/// frame the plane (normal +z, at the origin of its pose) is placed at the lowest world vertex
/// of the first mesh, so that vertex touches it exactly.
fn scene(dir: &Path, rng: &mut Rng, centre: [f64; 3]) -> PathBuf {
    let meshes = [
        icosphere(0.4, 2),
        torus(0.4, 0.12, 16, 8),
        blob(0.4, 1, 4, 7),
    ];
    let mut bodies = Vec::new();
    let mut modes = Vec::new();
    for k in 0..2 {
        let mesh = &meshes[rng.below(meshes.len())];
        let mut obj = Vec::new();
        write_obj(mesh, &mut obj).expect("obj");
        std::fs::write(dir.join(format!("m{k}.obj")), obj).expect("write");
        let mut npy = Vec::new();
        write_npy(&smooth_basis(&mesh.vertices, 2, 0.1), &mut npy).expect("npy");
        std::fs::write(dir.join(format!("m{k}.npy")), npy).expect("write");
        bodies.push(BodySpec::mesh(
            format!("mesh{k}"),
            format!("m{k}.obj"),
            Some(PathBuf::from(format!("m{k}.npy"))),
        ));
        modes.push(2);
    }
    bodies.push(BodySpec::primitive("tool", PrimitiveShape::Sphere(0.25)));
    bodies.push(BodySpec::primitive(
        "table",
        PrimitiveShape::Box {
            half_extents: [0.3, 0.2, 0.1],
        },
    ));
    bodies.push(BodySpec::primitive(
        "floor",
        PrimitiveShape::Plane {
            normal: [0.0, 0.0, 1.0],
            offset: 0.0,
        },
    ));
    modes.extend([0, 0, 0]);
    let mut frames: Vec<FrameSpec> = (0..3)
        .map(|_| FrameSpec {
            bodies: modes
                .iter()
                .map(|&m| BodyFrame {
                    rotation: rng.rotation(),
                    translation: [0, 1, 2].map(|k| centre[k] + rng.uniform(-0.35, 0.35)),
                    q: (0..m).map(|_| rng.uniform(-1.0, 1.0)).collect(),
                })
                .collect(),
        })
        .collect();
    // The exact touch: the plane's pose (identity rotation) at the lowest vertex, in f64.
    let path = dir.join("scene.json");
    SceneFile {
        bodies: bodies.clone(),
        frames: frames.clone(),
    }
    .write(&path)
    .expect("scene");
    let loaded = Scene::load(&path).expect("load");
    let lowest = loaded
        .world_vertices(2, 0)
        .expect("vertices")
        .into_iter()
        .fold(
            [0.0, 0.0, f64::INFINITY],
            |m, v| if v[2] < m[2] { v } else { m },
        );
    frames[2].bodies[4] = BodyFrame {
        rotation: [1.0, 0.0, 0.0, 0.0],
        translation: lowest,
        q: Vec::new(),
    };
    SceneFile { bodies, frames }.write(&path).expect("scene");
    path
}

/// Runs `bdtree collide --depth L --json --check` on the scene and checks every frame against
/// the brute force; returns the touching triangles seen.
fn check(path: &Path, precision: Precision) -> usize {
    let name = match precision {
        Precision::F32 => "f32",
        Precision::F64 => "f64",
    };
    let depth = DEPTH.to_string();
    let out = bdtree(&[
        "collide",
        path.to_str().expect("path"),
        "--depth",
        &depth,
        "--precision",
        name,
        "--json",
        "--check",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: {stderr}");
    let scene = Scene::load(path).expect("load");
    let options = BuildOptions {
        precision,
        nested: true,
        ..BuildOptions::default()
    };
    let prepared = prepare(&scene, options).expect("build");
    let owners: Vec<Vec<u32>> = prepared
        .images
        .iter()
        .map(|im| proxy_of_triangles(im, DEPTH).expect("owners"))
        .collect();
    let n = scene.bodies.len();
    let mut touching = 0;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), scene.frames.len());
    for (f, line) in lines.iter().enumerate() {
        assert_eq!(line["check"]["uncovered"], 0, "{name} frame {f}");
        let reported: Vec<(String, String, u64, [f64; 4])> = line["primitive_proxies"]
            .as_array()
            .expect("primitive_proxies")
            .iter()
            .map(|p| {
                let sphere: Vec<f64> = p["sphere"]
                    .as_array()
                    .expect("sphere")
                    .iter()
                    .map(|x| x.as_f64().expect("number"))
                    .collect();
                (
                    p["bodies"][0].as_str().expect("body").to_string(),
                    p["bodies"][1].as_str().expect("primitive").to_string(),
                    p["node"].as_u64().expect("node"),
                    [sphere[0], sphere[1], sphere[2], sphere[3]],
                )
            })
            .collect();
        assert_eq!(
            line["stats"]["primitive_proxies"].as_u64(),
            Some(reported.len() as u64)
        );
        for (b, p, t, _) in brute_force_primitive_frame(&scene, f) {
            let node = u64::from(owners[b][t as usize]);
            let under = reported
                .iter()
                .any(|r| r.0 == scene.name(b) && r.1 == scene.name(p) && r.2 == node);
            assert!(
                under,
                "{name} frame {f}: triangle {t} of {} touches {} under no reported proxy",
                scene.name(b),
                scene.name(p)
            );
            touching += 1;
        }
        // A reported proxy's sphere holds its triangles: each touching triangle lies in it.
        let world: Vec<Vec<[f64; 3]>> = (0..n)
            .map(|b| scene.world_vertices(f, b).expect("vertices"))
            .collect();
        for (b, p, t, _) in brute_force_primitive_frame(&scene, f) {
            let node = u64::from(owners[b][t as usize]);
            let sphere = reported
                .iter()
                .find(|r| r.0 == scene.name(b) && r.1 == scene.name(p) && r.2 == node)
                .map(|r| r.3)
                .expect("reported");
            let tri = scene.bodies[b].mesh.triangles[t as usize];
            for v in tri {
                let x = world[b][v as usize];
                let d = (0..3)
                    .map(|k| (x[k] - sphere[k]).powi(2))
                    .sum::<f64>()
                    .sqrt();
                assert!(
                    d <= sphere[3] * (1.0 + 1e-6) + 1e-9,
                    "{name} frame {f}: vertex {v} of triangle {t} outside its proxy's sphere"
                );
            }
        }
        // The exact touch of the last frame.
        if f == 2 {
            let floor = scene.name(n + 2);
            assert!(reported.iter().any(|r| r.0 == "mesh0" && r.1 == floor));
        }
    }
    touching
}

#[test]
fn collide_depth_reports_every_proxy_reaching_into_a_primitive_near_and_far() {
    let dir = Scratch::new("cli-primitive-proxies");
    let mut rng = Rng::new(39);
    let mut touching = 0;
    for centre in [[0.0; 3], [3000.0, -1200.0, 800.0]] {
        for _ in 0..3 {
            let path = scene(&dir, &mut rng, centre);
            touching += check(&path, Precision::F64);
            touching += check(&path, Precision::F32);
        }
    }
    assert!(
        touching > 0,
        "no triangle touched a primitive: the test would be vacuous"
    );
}

#[test]
fn collide_depth_text_counts_the_proxies_reaching_into_primitives() {
    let dir = Scratch::new("cli-primitive-proxies-text");
    let path = scene(&dir, &mut Rng::new(7), [0.0; 3]);
    let stdout = succeeds(&["collide", path.to_str().expect("path"), "--depth", "3"]);
    assert!(
        stdout.contains("proxy pairs at depth 3 in all and ")
            && stdout.contains("proxies reaching into primitives;"),
        "{stdout}"
    );
}
