//! Scenes with rigid primitive bodies (plane, sphere, capsule, box) against the f64 brute force
//! on the explicitly deformed meshes: the oracle's own [`oracle::Solid`], posed by the scene
//! file's pose, over every triangle of every mesh body. The bundled fixture
//! (`fixtures/primitives/primitives.json`) and random scenes written to disk, in f64 (equal)
//! and f32 (nothing missed; extras only within the rounding tolerance), through the scene
//! runner, the contact runner, and the kernel's world query with a filter.

use std::path::{Path, PathBuf};

use bdtree_core::{
    collide_world_primitives, primitive_stack_capacity, BitMatrix, Pose, Primitive, QueryStatus,
    Scalar, WorldContact,
};
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io;
use bdtree_std::io::scene::PrimitiveShape;
use bdtree_std::io::{write_npy, write_obj, BodyFrame, BodySpec, FrameSpec, Scene, SceneFile};
use bdtree_std::runner::{
    brute_force_frame, brute_force_primitive_frame, compare, point_triangle_distance, prepare,
    primitive_solid, run_contacts, run_with,
};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, torus};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{config, frame_error, options_in, set_state_f64, small_meshes, Rng};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/primitives/primitives.json")
}

/// What one precision's run of a scene found.
#[derive(Debug, Default)]
struct Found {
    /// Body–primitive pairs of the brute force.
    truth: usize,
    /// Extra body–primitive pairs the kernel reported, and the largest gap among them.
    extra: usize,
    widest: f64,
    /// The tolerance extras were held to.
    tolerance: f64,
}

/// Runs `scene` in `S` (pairs, and contacts) and checks every frame against the brute force:
/// nothing missed, every extra within the frame's tolerance `2T` (T = 2δ + 64u·scale), the
/// contacts' primitive pairs equal the run's, every primitive contact's point on its triangle and in the
/// primitive, its normal unit and its depth the brute force's (plane, sphere, capsule).
fn check<S: Scalar>(scene: &Scene, scale: f64) -> Found {
    let prepared = prepare(scene, options_in::<S>()).expect("build");
    let (frames, _) = run_with::<S>(scene, &prepared, 1, None, false).expect("run");
    let (answers, _) = run_contacts::<S>(scene, &prepared).expect("contacts");
    let n = scene.bodies.len();
    let u = S::UNIT_ROUNDOFF.to_f64();
    let mut found = Found::default();
    for (f, (frame, answer)) in frames.iter().zip(&answers).enumerate() {
        assert!(frame.complete && answer.result.complete, "frame {f}");
        let truth = brute_force_frame(scene, f);
        let primitive_truth = brute_force_primitive_frame(scene, f);
        assert!(primitive_truth.iter().all(|p| truth.contains(p)));
        found.truth += primitive_truth.len();
        let c = compare(scene, f, &frame.pairs, &truth);
        assert!(
            c.missed.is_empty(),
            "{} frame {f}: missed {:?}",
            S::NAME,
            c.missed
        );
        let delta = frame_error::<S>(scene, &prepared, f);
        let t = 2.0 * delta + 64.0 * u * scale;
        found.tolerance = found.tolerance.max(2.0 * t);
        for (pair, gap) in &c.extra {
            assert!(
                *gap <= 2.0 * t,
                "{} frame {f}: extra {pair:?} is {gap} away (2T = {})",
                S::NAME,
                2.0 * t
            );
            if pair.1 >= n {
                found.extra += 1;
                found.widest = found.widest.max(*gap);
            }
        }
        // The contacts' body–primitive pairs are the run's; its mesh pairs hold the run's
        // (in f32 the run drops the walk's extras by its f64 second stage, `refine`).
        let of_primitives =
            |pairs: &[bdtree_std::export::Contact]| -> Vec<bdtree_std::export::Contact> {
                pairs.iter().copied().filter(|p| p.1 >= n).collect()
            };
        assert_eq!(
            of_primitives(&answer.result.pairs),
            of_primitives(&frame.pairs),
            "frame {f}: contacts' primitive pairs"
        );
        assert!(frame.pairs.iter().all(|p| answer.result.pairs.contains(p)));
        for item in answer.items.iter().filter(|i| i.pair.1 >= n) {
            let (b, p, tri, zero) = item.pair;
            assert_eq!(zero, 0, "the primitive's side is triangle 0");
            let solid = primitive_solid(scene, p - n, f).expect("primitive");
            let world = scene.world_vertices(f, b).expect("body");
            let triangle = scene.bodies[b].mesh.triangles[tri as usize].map(|v| world[v as usize]);
            let on = point_triangle_distance(item.point, &triangle);
            assert!(on <= 2.0 * t, "{} point {on} off its triangle", S::NAME);
            let point = item.point;
            let inside = solid.gap(&[point, point, point]);
            assert!(inside <= 2.0 * t, "{} point {inside} outside", S::NAME);
            let norm: f64 = item.normal.iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() <= 16.0 * u, "normal {norm}");
            match solid.depth(&triangle) {
                Some(depth) => assert!(
                    (item.depth - depth).abs() <= 2.0 * t,
                    "{} {solid:?}: depth {}, brute force {depth}",
                    S::NAME,
                    item.depth
                ),
                None => assert!(item.depth >= -2.0 * t, "box depth {}", item.depth),
            }
        }
    }
    found
}

/// The bundled fixture: every primitive kind cuts a modal body in some frame, and both
/// precisions agree with the brute force (f64 exactly).
#[test]
fn the_primitive_fixture_equals_brute_force() {
    let scene = Scene::load(&fixture()).expect("fixture");
    assert_eq!(scene.primitives.len(), 4);
    let n = scene.bodies.len();
    for p in 0..scene.primitives.len() {
        let hits: usize = (0..scene.frames.len())
            .map(|f| {
                brute_force_primitive_frame(&scene, f)
                    .iter()
                    .filter(|c| c.1 == n + p)
                    .count()
            })
            .sum();
        assert!(hits > 0, "{} touches nothing", scene.primitives[p].name);
    }
    let wide = check::<f64>(&scene, 2.0);
    assert_eq!(wide.extra, 0, "f64 extras: {wide:?}");
    let narrow = check::<f32>(&scene, 2.0);
    println!(
        "fixtures/primitives: {} body–primitive contacts over {} frames; f64: 0 missed, 0 extra; \
         f32: 0 missed, {} extra (widest gap {:.1e}, tolerance 2T ≤ {:.1e})",
        wide.truth,
        scene.frames.len(),
        narrow.extra,
        narrow.widest,
        narrow.tolerance
    );
}

fn random_shape(rng: &mut Rng) -> PrimitiveShape {
    match rng.below(4) {
        0 => PrimitiveShape::Plane {
            normal: rng.unit_vector().map(|x| x * rng.uniform(0.5, 2.0)),
            offset: rng.uniform(-0.4, 0.4),
        },
        1 => PrimitiveShape::Sphere(rng.uniform(0.0, 0.4)),
        2 => PrimitiveShape::Capsule {
            radius: rng.uniform(0.0, 0.2),
            half_length: rng.uniform(0.0, 0.5),
        },
        _ => PrimitiveShape::Box {
            half_extents: [0, 1, 2].map(|_| rng.uniform(0.0, 0.3)),
        },
    }
}

/// A scene of 2–3 modal meshes and 1–4 primitives in 2 frames, written to `dir`.
fn random_scene(dir: &Path, rng: &mut Rng) -> Scene {
    let shapes = small_meshes();
    let meshes = 2 + rng.below(2);
    let primitives = 1 + rng.below(4);
    let mut bodies = Vec::new();
    let mut modes = Vec::new();
    for k in 0..meshes {
        let mesh = &shapes[rng.below(shapes.len())];
        let m = rng.below(4);
        let mut obj = Vec::new();
        write_obj(mesh, &mut obj).expect("obj");
        std::fs::write(dir.join(format!("m{k}.obj")), obj).expect("write");
        let basis = if m > 0 {
            let mut npy = Vec::new();
            write_npy(&smooth_basis(&mesh.vertices, m, 0.1), &mut npy).expect("npy");
            std::fs::write(dir.join(format!("m{k}.npy")), npy).expect("write");
            Some(PathBuf::from(format!("m{k}.npy")))
        } else {
            None
        };
        bodies.push(BodySpec::mesh(
            format!("mesh{k}"),
            format!("m{k}.obj"),
            basis,
        ));
        modes.push(m);
    }
    for k in 0..primitives {
        // Primitives anywhere in the list: the frames must still line up.
        let at = rng.below(bodies.len() + 1);
        bodies.insert(
            at,
            BodySpec::primitive(format!("prim{k}"), random_shape(rng)),
        );
        modes.insert(at, 0);
    }
    let frames = (0..2)
        .map(|_| FrameSpec {
            bodies: modes
                .iter()
                .map(|&m| BodyFrame {
                    rotation: rng.rotation(),
                    translation: [0, 1, 2].map(|_| rng.uniform(-0.3, 0.3)),
                    q: (0..m).map(|_| rng.uniform(-1.0, 1.0)).collect(),
                })
                .collect(),
        })
        .collect();
    let path = dir.join("scene.json");
    SceneFile { bodies, frames }.write(&path).expect("scene");
    Scene::load(&path).expect("load")
}

proptest! {
    #![proptest_config(config(12, 0xBD7_5CE9))]

    /// Random scenes on disk: both precisions against the brute force.
    #[test]
    fn random_primitive_scenes_equal_brute_force(seed in any::<u64>()) {
        let dir = crate::support::Scratch::new("primitive-scenes");
        let scene = random_scene(&dir, &mut Rng::new(seed));
        let wide = check::<f64>(&scene, 2.0);
        prop_assert_eq!(wide.extra, 0);
        // (With this seed every case has contacts: 3 to 443 over its two frames, no f32 extra.)
        check::<f32>(&scene, 2.0);
    }
}

/// The world query's filter and broad phase: a pair the filter forbids reports nothing, a
/// plane below every root sphere is no candidate, and the allowed pairs are the brute force's.
#[test]
fn the_world_query_filters_and_prunes_primitive_pairs() {
    let meshes = [icosphere(0.4, 1), torus(0.4, 0.12, 12, 6)];
    let images: Vec<_> = meshes
        .iter()
        .map(|m| {
            let basis = smooth_basis(&m.vertices, 2, 0.1);
            let f64_options = BuildOptions {
                precision: Precision::F64,
                ..BuildOptions::default()
            };
            bdtree_std::build::build(m, Some(&basis), f64_options, &mut |_| {})
                .expect("build")
                .0
        })
        .collect();
    let parsed: Vec<_> = images
        .iter()
        .map(|b| b.parse::<f64>().expect("image"))
        .collect();
    let mut caches: Vec<BodyStorage<f64>> = parsed
        .iter()
        .map(|im| BodyStorage::new(im.tree.node_count()))
        .collect();
    let mut bodies: Vec<_> = caches
        .iter_mut()
        .zip(&parsed)
        .map(|(c, im)| c.body(im).expect("body"))
        .collect();
    let places = [[0.0, 0.0, 0.3], [1.0, 0.0, 0.1]];
    for (body, t) in bodies.iter_mut().zip(places) {
        let pose = Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], t).expect("pose");
        body.set_state(pose, &[0.2, -0.3]).expect("state");
    }
    let floor = Primitive::plane([0.0, 0.0, 1.0], 0.0).expect("floor");
    let deep = Primitive::plane([0.0, 0.0, 1.0], -5.0).expect("deep");
    let tool = Primitive::sphere([0.5, 0.0, 0.3], 0.42).expect("tool");
    let primitives = [floor, deep, tool];
    // Body 0 may not touch the tool (index n + 2 = 4).
    let mut words = vec![0u32; BitMatrix::words_needed(5)];
    let mut filter = BitMatrix::new(&mut words, 5).expect("matrix");
    filter.set(0, 4, false);
    let depth = parsed.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; primitive_stack_capacity(depth)];
    let mut found = Vec::new();
    let outcome = collide_world_primitives(
        bodies.as_mut_slice(),
        &primitives,
        &filter,
        &mut stack,
        &mut |c: WorldContact<f64>| {
            found.push((c.body as usize, c.primitive as usize, c.contact.a));
            true
        },
    );
    assert_eq!(outcome.status, QueryStatus::Complete);
    assert_eq!(outcome.broad_tests, 5, "six pairs, one forbidden");
    // The deep plane is below both root spheres: only the floor (both bodies reach below
    // z = 0) and the tool against body 1 are candidates.
    assert_eq!(outcome.candidate_pairs, 3);
    found.sort_unstable();
    let mut truth = Vec::new();
    let poses = places.map(io::Pose::from_translation);
    let solids = [
        oracle::Solid::HalfSpace {
            normal: [0.0, 0.0, 1.0],
            offset: 0.0,
        },
        oracle::Solid::HalfSpace {
            normal: [0.0, 0.0, 1.0],
            offset: -5.0,
        },
        oracle::Solid::Ball {
            center: [0.5, 0.0, 0.3],
            radius: 0.42,
        },
    ];
    for (b, mesh) in meshes.iter().enumerate() {
        let basis = smooth_basis(&mesh.vertices, 2, 0.1);
        let world = oracle::deform(&mesh.vertices, Some(&basis), &[0.2, -0.3], &poses[b]);
        for (p, solid) in solids.iter().enumerate() {
            if b == 0 && p == 2 {
                continue;
            }
            for t in oracle::brute_force_primitive(&world, &mesh.triangles, solid) {
                truth.push((b, p, t));
            }
        }
    }
    assert!(truth.iter().any(|c| c.1 == 0) && truth.iter().any(|c| c.1 == 2));
    assert_eq!(found, truth);
    // A full sink ends the query with its status.
    let mut one = 0;
    let outcome = collide_world_primitives(
        bodies.as_mut_slice(),
        &primitives,
        &filter,
        &mut stack,
        &mut |_: WorldContact<f64>| {
            one += 1;
            one < 2
        },
    );
    assert!(matches!(outcome.status, QueryStatus::OutputFull { .. }));
}

/// `collide_primitive_proxies` in `S` on a random body against a random posed primitive:
/// every triangle the brute force finds touching lies under a reported proxy, proxies are
/// reported once, each at the proxy depth (or a shallower leaf), and each depth is its
/// sphere's radius less its center's signed distance (computed here in f64).
fn check_primitive_proxies<S: Scalar>(
    mesh: &bdtree_std::io::Mesh,
    q: &[f64],
    pose: &io::Pose,
    shape: &PrimitiveShape,
    place: &io::Pose,
    proxy_depth: u32,
) -> Result<usize, TestCaseError> {
    let basis = smooth_basis(&mesh.vertices, q.len(), 0.1);
    let options = options_in::<S>();
    let built = bdtree_std::build::build(mesh, Some(&basis), options, &mut |_| {})
        .expect("build")
        .0;
    let image = built.parse::<S>().expect("image");
    let mut storage = BodyStorage::new(image.tree.node_count());
    let mut body = storage.body(&image).expect("body");
    set_state_f64(&mut body, pose, q);
    // Placed as a device places it: the pose rounded to `S` first.
    let primitive = bdtree_std::host::Primitive::new(*shape, *place)
        .and_then(|p| p.device::<S>())
        .expect("primitive");
    let mut stack = vec![[0u32; 2]; primitive_stack_capacity(image.tree.depth())];
    let mut found = Vec::new();
    let outcome = bdtree_core::collide_primitive_proxies(
        &mut body,
        &primitive,
        proxy_depth,
        &mut stack,
        &mut |p: bdtree_core::PrimitiveProxy<S>| {
            found.push(p);
            true
        },
    );
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let nodes: std::collections::BTreeSet<u32> = found.iter().map(|p| p.node).collect();
    prop_assert_eq!(nodes.len(), found.len(), "a proxy reported twice");
    let owners = bdtree_std::runner::proxy_of_triangles(&built, proxy_depth).expect("owners");
    let world = oracle::deform(&mesh.vertices, Some(&basis), q, pose);
    let solid = oracle::Solid::posed(shape, place);
    let touching = oracle::brute_force_primitive(&world, &mesh.triangles, &solid);
    for &t in &touching {
        prop_assert!(
            nodes.contains(&owners[t as usize]),
            "{}: triangle {t} touches {solid:?} but its proxy {} is not reported",
            S::NAME,
            owners[t as usize]
        );
    }
    for p in &found {
        let depth = image.tree.node_depth(p.node as usize).expect("node");
        let leaf = matches!(
            image.tree.kind(p.node as usize),
            Some(bdtree_core::NodeKind::Leaf { .. })
        );
        prop_assert!(depth == proxy_depth || (leaf && depth < proxy_depth));
        let [x, y, z, r] = p.sphere.map(|v| v.to_f64());
        // The sphere's penetration: r − signed distance of its center, by the oracle.
        let c = [x, y, z];
        let signed = match solid {
            oracle::Solid::HalfSpace { normal, offset } => {
                normal[0] * x + normal[1] * y + normal[2] * z - offset
            }
            oracle::Solid::Box { .. } => continue,
            _ => -solid.depth(&[c, c, c]).expect("round"),
        };
        let scale = 1.0 + r + c.iter().fold(0f64, |m, v| m.max(v.abs()));
        let slack = 64.0 * S::UNIT_ROUNDOFF.to_f64() * scale;
        prop_assert!(
            (p.depth.to_f64() - (r - signed)).abs() <= slack,
            "{}: depth {} against {}",
            S::NAME,
            p.depth.to_f64(),
            r - signed
        );
    }
    Ok(touching.len())
}

proptest! {
    #![proptest_config(config(24, 0xBD7_9E0C))]

    #[test]
    fn primitive_proxies_cover_every_touching_triangle(
        mesh in 0usize..5,
        modes in 0usize..=3,
        proxy_depth in 0u32..9,
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let meshes = small_meshes();
        let q: Vec<f64> = (0..modes).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| rng.uniform(-0.1, 0.1)),
        };
        let shape = random_shape(&mut rng);
        let place = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| rng.uniform(-0.3, 0.3)),
        };
        check_primitive_proxies::<f32>(&meshes[mesh], &q, &pose, &shape, &place, proxy_depth)?;
        check_primitive_proxies::<f64>(&meshes[mesh], &q, &pose, &shape, &place, proxy_depth)?;
    }
}
