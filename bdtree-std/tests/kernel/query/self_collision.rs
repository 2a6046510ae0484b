//! Self-collision against the f64 brute force over every pair of non-adjacent triangles of the
//! explicitly deformed mesh: nothing missed, extras only within the rounding inflation.

use bdtree_core::query::self_collision::{
    collide_self_lazy, collide_self_with, normal_cones, vertex_signatures, ConeSlot, SelfAids,
    SelfCertificates, SelfCones, UnitCounts,
};
use bdtree_core::query::self_collision::{tree_parents, SelfList};
use bdtree_core::{
    collide_self, collide_self_image, self_stack_capacity, BoxEntry, Pose, QueryStatus, Scalar,
    TrianglePair, VertexEntry,
};
use bdtree_std::build::{
    build, self_certificates, self_contours, self_normals, self_spheres, BuildOptions, Precision,
    TreeKind,
};
use bdtree_std::io;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::shapes::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus};
use bdtree_std::vec3::{cross, sub};
use bdtree_std::{host, oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{
    config, kernel_pose, node_triangles, options_in, pairs_into, rough_basis, Rng,
};

/// Checks one body and state in every mode a user can choose — the exact traversal
/// (`collide_self`, no vertex cache), the culled one (`collide_self_with` with signatures,
/// normal cones, the tree's contours and its subspace certificates, on a body with a vertex
/// cache), the same with the tables stored in the image and read from it alone
/// (`collide_self_image`, the device's path), the incremental list with the same aids, and the
/// host's `self_pairs` (refined in f64 for f32) on images without and with stored tables —
/// against the f64 brute force on the explicitly deformed f64 source mesh (not
/// its f32 rounding); returns the number of true self-contacts. `basis` `None`: no modes.
pub(super) fn check<S: Scalar>(
    mesh: &Mesh,
    basis: Option<&Basis>,
    q: &[f64],
    pose: io::Pose,
) -> Result<usize, TestCaseError> {
    check_of::<S>(TreeKind::Median, mesh, basis, q, pose)
}

/// [`check`] on a tree of the given kind.
pub(crate) fn check_of<S: Scalar>(
    tree: TreeKind,
    mesh: &Mesh,
    basis: Option<&Basis>,
    q: &[f64],
    pose: io::Pose,
) -> Result<usize, TestCaseError> {
    let options = BuildOptions {
        tree,
        ..options_in::<S>()
    };
    let buf = build(mesh, basis, options, &mut |_| {}).expect("build").0;
    let image = buf.parse::<S>().expect("image");
    let n = image.tree.node_count();
    let p = kernel_pose::<S>(&pose);
    let qs: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
    let world = oracle::deform(&mesh.vertices, basis, q, &pose);
    let truth = oracle::brute_force_self_pairs(&world, &mesh.triangles);

    let mut cache = BodyStorage::new(n);
    let mut body = cache.body(&image).expect("body");
    body.set_state(p, &qs).expect("state");
    let mut exact = Vec::new();
    let outcome = collide_self(&mut body, &mut stack, &mut |p: TrianglePair| {
        exact.push((p.a, p.b));
        true
    });
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let tolerance = 20.0 * body.error().to_f64();
    holds(mesh, &world, &truth, &mut exact, tolerance, S::NAME)?;

    let contours = self_contours(&image.tree, image.model.triangles());
    let weights = self_certificates(&image.tree, &image.model, &contours);
    let mut signatures = vec![[0u32; 2]; n];
    let mut cones = vec![0u16; n];
    let mut cache = BodyStorage::new(n);
    let mut vertices = vec![VertexEntry::<S>::default(); mesh.vertices.len()];
    let mut body = cache
        .body(&image)
        .and_then(|b| b.with_vertex_cache(&mut vertices))
        .expect("body");
    body.set_state(p, &qs).expect("state");
    vertex_signatures(&body, &mut signatures).expect("signatures");
    normal_cones(&mut body, &mut cones).expect("cones");
    let aids = SelfAids {
        signatures: &signatures,
        cones: &cones,
        contours: contours.view(),
        certificates: SelfCertificates { weights: &weights },
        normals: Default::default(),
        spheres: Default::default(),
    };
    let mut culled = Vec::new();
    let mut counts = UnitCounts::default();
    let outcome = collide_self_with(
        &mut body,
        aids,
        &mut counts,
        &mut stack,
        &mut |p: TrianglePair| {
            culled.push((p.a, p.b));
            true
        },
    );
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    holds(mesh, &world, &truth, &mut culled, tolerance, S::NAME)?;
    for p in &culled {
        prop_assert!(exact.binary_search(p).is_ok(), "culled invented {:?}", p);
    }

    // Cones and spheres made where the walk goes: the same pairs as the culled query's, on a
    // fresh body, again at the same step (its spheres kept, its cones of a new query), and on
    // the body the culled query refitted whole. The slots are shared by all three.
    culled.sort_unstable();
    // With normal bounds and affine spheres on every internal node, so that their `O(M)` cones
    // and spheres run on every family.
    let normals = self_normals(&image.tree, &image.model, 2);
    let spheres = self_spheres(&image.tree, &image.model, 2);
    let lazy_aids = SelfAids {
        cones: &[],
        normals: normals.normals(),
        spheres: spheres.spheres(),
        ..aids
    };
    let mut slots = vec![ConeSlot::EMPTY; n];
    let mut lazy_cones = SelfCones::new(&mut slots);
    let mut cache = BodyStorage::new(n);
    let mut lazy_vertices = vec![VertexEntry::<S>::default(); mesh.vertices.len()];
    // With a box cache (the walk's leaf pairs filtered by stored boxes at their parents'
    // expansion); the refitted body has none.
    let mut lazy_boxes = vec![BoxEntry::<S>::EMPTY; n];
    let mut fresh = cache
        .body(&image)
        .and_then(|b| b.with_vertex_cache(&mut lazy_vertices))
        .and_then(|b| b.with_box_cache(&mut lazy_boxes))
        .expect("body");
    fresh.set_state(p, &qs).expect("state");
    for name in ["lazy", "lazy, again", "lazy, refitted"] {
        let target = if name == "lazy, refitted" {
            &mut body
        } else {
            &mut fresh
        };
        let mut lazy = Vec::new();
        let outcome = collide_self_lazy(
            target,
            lazy_aids,
            &mut lazy_cones,
            &mut UnitCounts::default(),
            &mut stack,
            &mut |p: TrianglePair| {
                lazy.push((p.a, p.b));
                true
            },
        );
        prop_assert_eq!(outcome.status, QueryStatus::Complete, "{}", name);
        lazy.sort_unstable();
        prop_assert_eq!(&lazy, &culled, "{}", name);
    }

    // The device's path: the same tables stored in the image (`self_cull`) and read from it
    // alone, on a fresh body and again at the same step; the same pairs as the culled query.
    let stored = build(
        mesh,
        basis,
        BuildOptions {
            self_cull: true,
            ..options
        },
        &mut |_| {},
    )
    .expect("build with self data")
    .0;
    let stored = stored.parse::<S>().expect("image with self data");
    let data = stored.tree.self_data().expect("self data");
    prop_assert_eq!(data.contours.vertices, &contours.vertices[..]);
    prop_assert_eq!(data.certificates.weights, &weights[..]);
    let mut cache = BodyStorage::new(n);
    let mut image_vertices = vec![VertexEntry::<S>::default(); mesh.vertices.len()];
    let mut image_boxes = vec![BoxEntry::<S>::EMPTY; n];
    let mut device = cache
        .body(&stored)
        .and_then(|b| b.with_vertex_cache(&mut image_vertices))
        .and_then(|b| b.with_box_cache(&mut image_boxes))
        .expect("body");
    device.set_state(p, &qs).expect("state");
    for name in ["image", "image, again"] {
        let mut from_image = Vec::new();
        let outcome = collide_self_image(
            &mut device,
            &mut lazy_cones,
            &mut UnitCounts::default(),
            &mut stack,
            &mut |p: TrianglePair| {
                from_image.push((p.a, p.b));
                true
            },
        );
        prop_assert_eq!(outcome.status, QueryStatus::Complete, "{}", name);
        holds(mesh, &world, &truth, &mut from_image, tolerance, name)?;
        prop_assert_eq!(&from_image, &culled, "{}", name);
    }

    // The incremental list with the same aids, on its first step (from the root) and on a
    // second step at the same state (from its units).
    let mut parents = vec![0u32; n];
    tree_parents(&image.tree, &mut parents).expect("parents");
    let capacity = 16 * mesh.triangles.len() + 16;
    let (mut units, mut spare) = (vec![[0u32; 2]; capacity], vec![[0u32; 2]; capacity]);
    let mut list = SelfList::new(&parents, &mut units, &mut spare);
    for step in ["list, first step", "list, second step"] {
        let mut listed = Vec::new();
        let outcome = list.collide(
            &mut body,
            aids,
            &mut stack,
            &mut |p: TrianglePair| {
                listed.push((p.a, p.b));
                true
            },
            &mut UnitCounts::default(),
        );
        prop_assert_eq!(outcome.status, QueryStatus::Complete, "{}", step);
        holds(mesh, &world, &truth, &mut listed, tolerance, step)?;
    }

    // The host layer: the body at its own floating origin, the state in f64, refined.
    let (tree, _) = host::Tree::build(mesh, basis, options).expect("host tree");
    let mut body = host::Body::new(&tree).expect("host body");
    body.set_state(pose.rotation, pose.translation, q)
        .expect("host state");
    let answer = host::self_pairs(&mut body).expect("host self pairs");
    let mut hosted: Vec<(u32, u32)> = answer.items.iter().map(|p| (p[0], p[1])).collect();
    holds(mesh, &world, &truth, &mut hosted, tolerance, "host")?;
    // The host on an image with its own tables (read from the image, not made again).
    let stored_options = BuildOptions {
        self_cull: true,
        ..options
    };
    let (tree, _) = host::Tree::build(mesh, basis, stored_options).expect("host tree");
    let mut body = host::Body::new(&tree).expect("host body");
    body.set_state(pose.rotation, pose.translation, q)
        .expect("host state");
    let answer = host::self_pairs(&mut body).expect("host self pairs");
    let mut stored: Vec<(u32, u32)> = answer.items.iter().map(|p| (p[0], p[1])).collect();
    holds(
        mesh,
        &world,
        &truth,
        &mut stored,
        tolerance,
        "host, image tables",
    )?;
    prop_assert_eq!(&stored, &hosted, "host, image tables");
    Ok(truth.len())
}

/// One answer against the truth: sorted, no duplicates, only non-adjacent ordered pairs, every
/// true pair present, every extra pair within `tolerance` of touching.
fn holds(
    mesh: &Mesh,
    world: &[[f64; 3]],
    truth: &[(u32, u32)],
    found: &mut Vec<(u32, u32)>,
    tolerance: f64,
    name: &str,
) -> Result<(), TestCaseError> {
    let count = found.len();
    found.sort_unstable();
    found.dedup();
    prop_assert_eq!(found.len(), count, "duplicate pairs");
    for &(a, b) in found.iter() {
        let (ta, tb) = (mesh.triangles[a as usize], mesh.triangles[b as usize]);
        prop_assert!(
            a < b && !ta.iter().any(|v| tb.contains(v)),
            "({a}, {b}) adjacent or unordered"
        );
    }
    for t in truth {
        prop_assert!(
            found.binary_search(t).is_ok(),
            "{}: missed {t:?} of {}",
            name,
            truth.len()
        );
    }
    let tri = |t: u32| mesh.triangles[t as usize].map(|v| world[v as usize]);
    for &(a, b) in found.iter().filter(|p| truth.binary_search(p).is_err()) {
        let gap = oracle::separation_gap(&tri(a), &tri(b));
        prop_assert!(gap <= tolerance, "{}: extra ({a}, {b}) {gap} apart", name);
    }
    Ok(())
}

fn meshes() -> Vec<Mesh> {
    vec![
        sheet(1.5, 1.0, 12, 8),
        icosphere(0.5, 2),
        torus(0.5, 0.15, 18, 8),
        bar(2.0, 0.08, 14),
        blob(0.5, 2, 5, 11),
    ]
}

proptest! {
    #![proptest_config(config(40, 0xBD7_0701))]

    #[test]
    fn self_collision_equals_brute_force(
        index in 0usize..5,
        modes in 1usize..=6,
        rough in any::<bool>(),
        amplitude in prop_oneof![Just(0.02), Just(0.2), Just(0.6)],
        scale in prop_oneof![Just(1.0), Just(1e-3)],
        far in prop_oneof![Just(1.0), Just(300.0)],
        seed in any::<u64>(),
    ) {
        // Unit-size and millimetre parts, near the origin and hundreds of sizes away from it.
        let mut rng = Rng::new(seed);
        let mut mesh = meshes().swap_remove(index);
        let mut basis = if rough {
            rough_basis(mesh.vertices.len(), modes, amplitude * 0.2, &mut rng)
        } else {
            smooth_basis(&mesh.vertices, modes, amplitude)
        };
        mesh.vertices.iter_mut().flatten().for_each(|x| *x *= scale);
        basis.data.iter_mut().for_each(|x| *x *= scale);
        let q: Vec<f64> = (0..modes).map(|_| rng.uniform(-2.0, 2.0)).collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| far * scale * rng.uniform(-1.0, 1.0)),
        };
        check::<f32>(&mesh, Some(&basis), &q, pose)?;
        check::<f64>(&mesh, Some(&basis), &q, pose)?;
    }
}

/// A sheet folded onto itself by one mode: its right half swings over the left and through it.
#[test]
fn a_folded_sheet_collides_with_itself() {
    let mesh = sheet(2.0, 1.0, 16, 8);
    let mut basis = Basis::zeros(mesh.vertices.len(), 1);
    for (i, v) in mesh.vertices.iter().enumerate() {
        if v[0] > 0.0 {
            // q = 1 mirrors x > 0 to −x and lifts it by 0.3·x·(y − 0.5·sign), tilting the flap
            // so that it crosses the left half.
            basis.data[3 * i] = -2.0 * v[0];
            basis.data[3 * i + 2] = 0.6 * v[0] * v[1];
        }
    }
    let mut total = 0;
    for q in [0.0, 0.5, 1.0, 1.2] {
        total += check::<f32>(&mesh, Some(&basis), &[q], io::Pose::IDENTITY).expect("f32");
        total += check::<f64>(&mesh, Some(&basis), &[q], io::Pose::IDENTITY).expect("f64");
    }
    assert!(total > 0, "the fold crosses the sheet somewhere");
}

/// Folds made to fool a culling test, in f32 and f64, each at several depths of the fold and
/// placements (turned, far from the origin, millimetre scale): (1) a strip wound in its own
/// plane into a flat helix of one and a half turns whose layers tilt through each other — every
/// normal faces up, so the cone test passes everywhere and only the contour test can refuse the
/// patches that overlap themselves; (2) a sheet's half folded flat onto the other half, tilted
/// to cross it (adjacent patches folded onto each other); (3) a corner flap folded back over its
/// own patch and through it. Both modes must find every pair the brute force finds.
#[test]
fn culling_never_hides_a_fold() {
    let mut folds: Vec<(&str, Mesh, Basis)> = Vec::new();
    // (1) The flat helix: x along the strip becomes the angle, y the radius; z climbs slowly
    // with the angle and tilts across the strip by more than one turn's climb.
    let strip = sheet(1.0, 0.2, 60, 4);
    let mut helix = Basis::zeros(strip.vertices.len(), 1);
    for (i, v) in strip.vertices.iter().enumerate() {
        let angle = (v[0] + 0.5) * 3.0 * std::f64::consts::PI;
        let radius = 0.3 + v[1];
        let target = [
            radius * angle.cos(),
            radius * angle.sin(),
            // The tilt turns over along the strip, so one turn's layers cross each other.
            0.004 * angle + 0.3 * v[1] * (1.0 - angle / (1.5 * std::f64::consts::PI)),
        ];
        for k in 0..3 {
            helix.data[3 * i + k] = target[k] - v[k];
        }
    }
    folds.push(("helix", strip, helix));
    // (2) Half folded flat onto the other half, tilted across it.
    let half = sheet(2.0, 1.0, 16, 8);
    let mut flat = Basis::zeros(half.vertices.len(), 1);
    for (i, v) in half.vertices.iter().enumerate() {
        if v[0] > 0.0 {
            flat.data[3 * i] = -2.0 * v[0];
            flat.data[3 * i + 2] = 0.05 * v[0] * (v[1] + 0.1);
        }
    }
    folds.push(("flat", half, flat));
    // (3) A corner flap folded back over its own patch, diagonally.
    let corner = sheet(1.0, 1.0, 12, 12);
    let mut flap = Basis::zeros(corner.vertices.len(), 1);
    for (i, v) in corner.vertices.iter().enumerate() {
        let s = v[0] + v[1] - 0.3;
        if s > 0.0 {
            // Mirror across the line x + y = 0.3, lifted with a tilt along the fold.
            flap.data[3 * i] = -s;
            flap.data[3 * i + 1] = -s;
            flap.data[3 * i + 2] = 0.08 * s * (v[0] - v[1]);
        }
    }
    folds.push(("flap", corner, flap));

    let mut rng = Rng::new(0xBD7_0705);
    for (name, mesh, basis) in &folds {
        let mut total = 0;
        for (case, q) in [0.0, 0.5, 0.9, 0.97, 1.0, 1.03].into_iter().enumerate() {
            let (scale, offset) = [(1.0, 0.0), (1.0, 200.0), (1e-3, 0.2)][case % 3];
            let mut scaled = mesh.clone();
            scaled
                .vertices
                .iter_mut()
                .flatten()
                .for_each(|x| *x *= scale);
            let mut b = basis.clone();
            b.data.iter_mut().for_each(|x| *x *= scale);
            let pose = io::Pose {
                rotation: rng.rotation(),
                translation: [offset, -offset, 0.5 * offset],
            };
            total += check::<f32>(&scaled, Some(&b), &[q], pose).expect(name);
            total += check::<f64>(&scaled, Some(&b), &[q], pose).expect(name);
        }
        assert!(total > 0, "{name}: the fold crosses itself somewhere");
    }
}

/// Normal cones: a flat sheet is one cone at the root, a closed sphere has none; a parent's
/// bitfield is the AND of its children's; a set bit is a direction every true normal below
/// the node faces, checked against the f64 normals of the explicitly deformed mesh.
#[test]
fn normal_cones_nest_and_hold_for_the_true_normals() {
    use bdtree_core::query::self_collision::DIRECTIONS;
    use bdtree_core::NodeKind;
    let mut rng = Rng::new(0xBD7_0702);
    for (mesh, expect_root) in [
        (sheet(1.5, 1.0, 12, 8), Some(true)),
        (icosphere(0.5, 2), Some(false)),
        (blob(0.5, 2, 5, 11), None),
    ] {
        let basis = smooth_basis(&mesh.vertices, 4, 0.4);
        let buf = build(&mesh, Some(&basis), BuildOptions::default(), &mut |_| {})
            .expect("build")
            .0;
        let image = buf.parse::<f32>().expect("image");
        let n = image.tree.node_count();
        let mut cache = BodyStorage::new(n);
        let mut body = cache.body(&image).expect("body");
        let mut cones = vec![0u16; n];
        let sets = node_triangles(&image);
        for step in 0..6 {
            let q: Vec<f64> = if step == 0 {
                vec![0.0; 4]
            } else {
                (0..4).map(|_| rng.uniform(-2.0, 2.0)).collect()
            };
            let q32: Vec<f32> = q.iter().map(|&x| x as f32).collect();
            body.set_state(Pose::identity(), &q32).expect("state");
            normal_cones(&mut body, &mut cones).expect("cones");
            if step == 0 {
                if let Some(flat) = expect_root {
                    assert_eq!(cones[0] != 0, flat, "root cone of the rest shape");
                }
            }
            let q_stored: Vec<f64> = q32.iter().map(|&x| f64::from(x)).collect();
            let world =
                oracle::deform(&mesh.vertices, Some(&basis), &q_stored, &io::Pose::IDENTITY);
            for k in 0..n {
                if let Some(NodeKind::Internal { left, right }) = image.tree.kind(k) {
                    assert_eq!(cones[k], cones[left as usize] & cones[right as usize]);
                }
                for (d, dir) in DIRECTIONS.iter().enumerate() {
                    if cones[k] & (1 << d) == 0 {
                        continue;
                    }
                    for &t in &sets[k] {
                        let [a, b, c] = mesh.triangles[t as usize].map(|v| world[v as usize]);
                        let normal = cross(sub(b, a), sub(c, a));
                        let dot: f64 = (0..3).map(|i| normal[i] * f64::from(dir[i])).sum();
                        assert!(
                            dot > 0.0,
                            "node {k} bit {d}: triangle {t} faces away ({dot})"
                        );
                    }
                }
            }
        }
    }
}

/// The vertices below each node, collected independently of the kernel (leaves' triangles).
fn node_vertices(image: &bdtree_core::Image<'_, f32>, triangles: &[[u32; 3]]) -> Vec<Vec<u32>> {
    use bdtree_core::NodeKind;
    let n = image.tree.node_count();
    let mut sets = vec![Vec::new(); n];
    for k in (0..n).rev() {
        let set = match image.tree.kind(k).expect("node") {
            NodeKind::Leaf { triangle } => triangles[triangle as usize].to_vec(),
            NodeKind::Internal { left, right } => {
                let mut s = sets[left as usize].clone();
                s.extend_from_slice(&sets[right as usize]);
                s
            }
            NodeKind::Cut => unreachable!("complete trees have no cut nodes"),
        };
        sets[k] = set;
        sets[k].sort_unstable();
        sets[k].dedup();
    }
    sets
}

/// Signatures never call adjacent nodes non-adjacent (Type 3 is proven), and they do separate
/// most non-adjacent leaf pairs.
#[test]
fn vertex_signatures_never_hide_a_shared_vertex() {
    use bdtree_core::query::self_collision::vertex_signatures;
    let mut rng = Rng::new(0xBD7_0703);
    for mesh in meshes() {
        let buf = build(&mesh, None, BuildOptions::default(), &mut |_| {})
            .expect("build")
            .0;
        let image = buf.parse::<f32>().expect("image");
        let n = image.tree.node_count();
        let mut cache = BodyStorage::new(n);
        let body = cache.body(&image).expect("body");
        let mut signatures = vec![[0u32; 2]; n];
        vertex_signatures(&body, &mut signatures).expect("signatures");
        let sets = node_vertices(&image, &mesh.triangles);
        let leaves: Vec<usize> = (0..n)
            .filter(|&k| matches!(image.tree.kind(k), Some(bdtree_core::NodeKind::Leaf { .. })))
            .collect();
        let (mut disjoint, mut proven) = (0usize, 0usize);
        for _ in 0..4000 {
            let (i, j) = (rng.below(n), rng.below(n));
            let shared = sets[i].iter().any(|v| sets[j].binary_search(v).is_ok());
            if shared {
                assert_ne!(
                    [
                        signatures[i][0] & signatures[j][0],
                        signatures[i][1] & signatures[j][1]
                    ],
                    [0, 0],
                    "nodes {i}, {j} share a vertex"
                );
            }
            let (a, b) = (
                leaves[rng.below(leaves.len())],
                leaves[rng.below(leaves.len())],
            );
            if !sets[a].iter().any(|v| sets[b].binary_search(v).is_ok()) {
                disjoint += 1;
                proven += usize::from(
                    (signatures[a][0] & signatures[b][0]) | (signatures[a][1] & signatures[b][1])
                        == 0,
                );
            }
        }
        assert!(
            proven * 4 >= disjoint * 3,
            "only {proven} of {disjoint} non-adjacent leaf pairs proven Type 3"
        );
    }
}

/// A query's pairs, sorted, after checking it completed without duplicates (drains `found`).
fn settle(
    found: &mut Vec<(u32, u32)>,
    outcome: bdtree_core::QueryOutcome,
) -> Result<Vec<(u32, u32)>, TestCaseError> {
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let mut pairs = std::mem::take(found);
    let count = pairs.len();
    pairs.sort_unstable();
    pairs.dedup();
    prop_assert_eq!(pairs.len(), count, "duplicate pairs");
    Ok(pairs)
}

/// Runs `steps` states through the exact traversal, the typed traversal (signatures) and an
/// incremental list; all three must give the same set each step. Returns the list's lengths.
fn list_run(
    mesh: &Mesh,
    basis: &Basis,
    states: &[Vec<f32>],
    capacity: usize,
) -> Result<Vec<(usize, bool)>, TestCaseError> {
    use bdtree_core::query::self_collision::{tree_parents, SelfList};
    let buf = build(mesh, Some(basis), BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<f32>().expect("image");
    let n = image.tree.node_count();
    let mut cache = BodyStorage::new(n);
    let mut body = cache.body(&image).expect("body");
    let mut signatures = vec![[0u32; 2]; n];
    vertex_signatures(&body, &mut signatures).expect("signatures");
    let mut parents = vec![0u32; n];
    tree_parents(&image.tree, &mut parents).expect("parents");
    let (mut units, mut spare) = (vec![[0u32; 2]; capacity], vec![[0u32; 2]; capacity]);
    let mut list = SelfList::new(&parents, &mut units, &mut spare);
    let (mut units2, mut spare2) = (vec![[0u32; 2]; capacity], vec![[0u32; 2]; capacity]);
    let mut culled_list = SelfList::new(&parents, &mut units2, &mut spare2);
    let contours = self_contours(&image.tree, image.model.triangles());
    let certificates = self_certificates(&image.tree, &image.model, &contours);
    let mut cones = vec![0u16; n];
    let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
    let mut lengths = Vec::new();
    for q in states {
        body.set_state(Pose::identity(), q).expect("state");
        let aids = SelfAids {
            signatures: &signatures,
            ..SelfAids::NONE
        };
        let mut found = Vec::new();
        let outcome = collide_self(&mut body, &mut stack, &mut pairs_into(&mut found));
        let exact = settle(&mut found, outcome)?;
        let mut typed_counts = UnitCounts::default();
        let outcome = collide_self_with(
            &mut body,
            aids,
            &mut typed_counts,
            &mut stack,
            &mut pairs_into(&mut found),
        );
        let typed = settle(&mut found, outcome)?;
        let outcome = list.collide(
            &mut body,
            aids,
            &mut stack,
            &mut pairs_into(&mut found),
            &mut UnitCounts::default(),
        );
        let incremental = settle(&mut found, outcome)?;
        // The list with sound culling: every true pair, nothing the exact traversal lacks.
        normal_cones(&mut body, &mut cones).expect("cones");
        let culled_aids = SelfAids {
            signatures: &signatures,
            cones: &cones,
            contours: contours.view(),
            certificates: SelfCertificates {
                weights: &certificates,
            },
            normals: Default::default(),
            spheres: Default::default(),
        };
        let outcome = culled_list.collide(
            &mut body,
            culled_aids,
            &mut stack,
            &mut pairs_into(&mut found),
            &mut UnitCounts::default(),
        );
        let culled = settle(&mut found, outcome)?;
        let q64: Vec<f64> = q.iter().map(|&x| f64::from(x)).collect();
        let world = oracle::deform(&mesh.vertices, Some(basis), &q64, &io::Pose::IDENTITY);
        for t in oracle::brute_force_self_pairs(&world, &mesh.triangles) {
            prop_assert!(
                culled.binary_search(&t).is_ok(),
                "culled list missed {:?}",
                t
            );
        }
        for p in &culled {
            prop_assert!(
                exact.binary_search(p).is_ok(),
                "culled list invented {:?}",
                p
            );
        }
        prop_assert_eq!(&typed, &exact, "typed traversal differs");
        prop_assert_eq!(&incremental, &exact, "incremental list differs");
        prop_assert!(typed_counts.type3 > 0 && typed_counts.type2 > 0);
        lengths.push((list.len(), list.overflowed()));
    }
    Ok(lengths)
}

proptest! {
    #![proptest_config(config(16, 0xBD7_0704))]

    /// The incremental list and the typed traversal equal the exact traversal (itself checked
    /// against brute force above) over a motion that folds and unfolds.
    #[test]
    fn incremental_list_equals_exact_traversal(
        index in 0usize..5,
        modes in 1usize..=6,
        amplitude in prop_oneof![Just(0.05), Just(0.3), Just(0.8)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = meshes().swap_remove(index);
        let basis = smooth_basis(&mesh.vertices, modes, amplitude);
        let target: Vec<f64> = (0..modes).map(|_| rng.uniform(-2.0, 2.0)).collect();
        let states: Vec<Vec<f32>> = (0..=16)
            .map(|s| {
                let t = 1.0 - (f64::from(s) / 8.0 - 1.0).abs();
                target.iter().map(|&x| (x * t) as f32).collect()
            })
            .collect();
        // Crumpled states can outgrow the list: those steps check the fallback's answer.
        list_run(&mesh, &basis, &states, 16 * mesh.triangles.len())?;
    }
}

/// A list too small to hold the units still answers completely, says so, and walks from the
/// root again next step.
#[test]
fn a_full_list_is_reported_and_the_answer_stays_complete() {
    let mesh = sheet(2.0, 1.0, 16, 8);
    let basis = smooth_basis(&mesh.vertices, 3, 0.6);
    let states: Vec<Vec<f32>> = (0..4).map(|s| vec![0.5 * s as f32, -0.7, 0.3]).collect();
    let lengths = list_run(&mesh, &basis, &states, 16).expect("complete answers");
    assert!(lengths.iter().all(|&(len, overflow)| overflow && len == 0));
}

/// Folding then unfolding: the list grows where the sheet comes close and shrinks back as
/// separated units merge into their parents.
#[test]
fn the_list_shrinks_back_after_a_fold() {
    let mesh = sheet(2.0, 1.0, 16, 8);
    let mut basis = Basis::zeros(mesh.vertices.len(), 1);
    for (i, v) in mesh.vertices.iter().enumerate() {
        if v[0] > 0.0 {
            basis.data[3 * i] = -2.0 * v[0];
            basis.data[3 * i + 2] = 0.6 * v[0] * v[1];
        }
    }
    let mut states: Vec<Vec<f32>> = (0..=10).map(|s| vec![0.1 * s as f32]).collect();
    states.extend((0..=10).rev().map(|s| vec![0.1 * s as f32]));
    states.extend(std::iter::repeat_n(vec![0.0], 12));
    let lengths = list_run(&mesh, &basis, &states, 8192).expect("complete answers");
    let first = lengths[0].0;
    let peak = lengths.iter().map(|l| l.0).max().expect("steps");
    let last = lengths.last().expect("steps").0;
    eprintln!("list lengths: first {first}, peak {peak}, last {last}: {lengths:?}");
    assert!(peak > first, "folding refines the list");
    assert!(last < peak, "unfolding merges units back");
    assert!(
        last * 4 <= first * 5,
        "back at rest, the list is within 25 % of a fresh walk's"
    );
}

/// Subspace certificates: wherever one holds at a state, the node's patch of the explicitly
/// deformed f64 mesh has no intersecting pair of non-adjacent triangles. Checked on the
/// top-most holding nodes of a sheet, a sphere, a torus, a bar and a blob, with smooth and
/// rough bases, at amplitudes from barely moving to folding, unit-size and millimetre parts
/// modelled near and far from the origin, in f32 and f64 images; the certificates must hold
/// on some patches and be refused on others.
#[test]
fn certificates_hold_only_on_free_patches() {
    let mut rng = Rng::new(0xBD7_0C01);
    let (mut held, mut refused, mut touching) = (0usize, 0usize, 0usize);
    for (index, mesh) in meshes().into_iter().enumerate() {
        for (rough, modes, scale, offset) in [
            (false, 1, 1.0, 0.0),
            (false, 4, 1e-3, 0.3),
            (true, 3, 1.0, 300.0),
            (true, 6, 1e-3, 0.0),
        ] {
            let mut mesh = mesh.clone();
            let mut basis = if rough {
                rough_basis(mesh.vertices.len(), modes, 0.05, &mut rng)
            } else {
                smooth_basis(&mesh.vertices, modes, 0.6)
            };
            for v in &mut mesh.vertices {
                *v = v.map(|x| (x + offset) * scale);
            }
            basis.data.iter_mut().for_each(|x| *x *= scale);
            for f64_image in [false, true] {
                let options = BuildOptions {
                    precision: if f64_image {
                        Precision::F64
                    } else {
                        Precision::F32
                    },
                    ..BuildOptions::default()
                };
                let buf = build(&mesh, Some(&basis), options, &mut |_| {})
                    .expect("build")
                    .0;
                let (counts, free) = if f64_image {
                    certified_patches::<f64>(&buf, &mesh, &basis, &mut rng)
                } else {
                    certified_patches::<f32>(&buf, &mesh, &basis, &mut rng)
                };
                assert!(free, "mesh {index}: a certified patch touches itself");
                held += counts[0];
                refused += counts[1];
                touching += counts[2];
            }
        }
    }
    assert!(
        held > 100 && refused > 100,
        "held {held}, refused {refused}"
    );
    assert!(touching > 0, "some states touch themselves somewhere");
}

/// For one image, states at growing amplitudes: `[top-most nodes certified, internal nodes
/// refused, states with a self-contact]`, and whether every certified patch is free.
fn certified_patches<S: Scalar>(
    buf: &bdtree_std::io::ImageBuf,
    mesh: &Mesh,
    basis: &Basis,
    rng: &mut Rng,
) -> ([usize; 3], bool) {
    use bdtree_core::NodeKind;
    let image = buf.parse::<S>().expect("image");
    let n = image.tree.node_count();
    let contours = self_contours(&image.tree, image.model.triangles());
    let weights = self_certificates(&image.tree, &image.model, &contours);
    let certificates = SelfCertificates { weights: &weights };
    let below = node_triangles(&image);
    let mut cache = BodyStorage::new(n);
    let mut body = cache.body(&image).expect("body");
    let mut counts = [0usize; 3];
    for amplitude in [1e-3, 0.01, 0.05, 0.2, 1.0, 3.0] {
        let q: Vec<S> = (0..basis.modes)
            .map(|_| S::from_f64(amplitude * rng.uniform(-1.0, 1.0)))
            .collect();
        body.set_state(Pose::identity(), &q).expect("state");
        let q64: Vec<f64> = q.iter().map(|x| x.to_f64()).collect();
        let world = oracle::deform(&mesh.vertices, Some(basis), &q64, &io::Pose::IDENTITY);
        if !oracle::brute_force_self_pairs(&world, &mesh.triangles).is_empty() {
            counts[2] += 1;
        }
        let mut open = vec![0usize];
        while let Some(k) = open.pop() {
            let Some(NodeKind::Internal { left, right }) = image.tree.kind(k) else {
                continue;
            };
            if !certificates.hold(&body, k) {
                counts[1] += 1;
                open.extend([left as usize, right as usize]);
                continue;
            }
            counts[0] += 1;
            let patch: Vec<[u32; 3]> = below[k]
                .iter()
                .map(|&t| mesh.triangles[t as usize])
                .collect();
            if !oracle::brute_force_self_pairs(&world, &patch).is_empty() {
                return (counts, false);
            }
        }
    }
    (counts, true)
}
