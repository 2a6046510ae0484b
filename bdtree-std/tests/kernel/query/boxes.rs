//! Box bounds: every deformed vertex inside its node's world box (f32 and f64, random bodies,
//! poses and q); box queries (15-axis and 6-axis) equal to brute force; the 6-axis test never
//! separates what the 15-axis test does not; hand-made separating-axis cases.

use bdtree_core::query::boxes::{
    boxes_overlap, collide_boxes, world_box, BoxTable, BoxTest, WorldBox,
};
use bdtree_core::{stack_capacity, QueryStatus, Scalar, TrianglePair};
use bdtree_std::build::{box_table, build, BuildOptions};
use bdtree_std::io;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{
    config, kernel_pose, meshes, node_vertices, pairs_into, precision, rough_basis, Rng,
};

/// Every deformed vertex (f64, source data) inside its node's world box.
fn containment<S: Scalar>(
    mesh: &Mesh,
    basis: &Basis,
    q: &[f64],
    p: io::Pose,
) -> Result<(), TestCaseError> {
    let options = BuildOptions {
        precision: precision::<S>(),
        ..BuildOptions::default()
    };
    let buf = build(mesh, Some(basis), options, &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<S>().expect("image");
    let rows = box_table(&image);
    let table = BoxTable::new(&rows, &image.tree).expect("valid table");
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).expect("body");
    let qs: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    body.set_state(kernel_pose::<S>(&p), &qs).expect("state");
    let world = oracle::deform(&mesh.vertices, Some(basis), q, &p);
    for (k, set) in node_vertices(&image).iter().enumerate() {
        let b = world_box(&mut body, &table, k).expect("box");
        let c = b.center.map(|x| x.to_f64());
        for &v in set {
            let d = [0, 1, 2].map(|r| world[v as usize][r] - c[r]);
            for axis in 0..3 {
                let proj: f64 = (0..3).map(|r| d[r] * b.axes[r][axis].to_f64()).sum();
                prop_assert!(
                    proj.abs() <= b.half[axis].to_f64(),
                    "{}: node {k} vertex {v} at {proj} beyond half-extent {} on axis {axis}",
                    S::NAME,
                    b.half[axis].to_f64()
                );
            }
        }
    }
    Ok(())
}

/// Box queries against brute force: nothing missed, extras near-touching only.
fn queries<S: Scalar>(
    a: (&Mesh, &Basis, &[f64], io::Pose),
    b: (&Mesh, &Basis, &[f64], io::Pose),
) -> Result<(), TestCaseError> {
    let options = BuildOptions {
        precision: precision::<S>(),
        ..BuildOptions::default()
    };
    let (ba, bb) = (
        build(a.0, Some(a.1), options, &mut |_| {}).expect("a").0,
        build(b.0, Some(b.1), options, &mut |_| {}).expect("b").0,
    );
    let (ia, ib) = (ba.parse::<S>().expect("a"), bb.parse::<S>().expect("b"));
    let (ra, rb) = (box_table(&ia), box_table(&ib));
    let (tba, tbb) = (
        BoxTable::new(&ra, &ia.tree).expect("a"),
        BoxTable::new(&rb, &ib.tree).expect("b"),
    );
    let mut ca = BodyStorage::new(ia.tree.node_count());
    let mut cb = BodyStorage::new(ib.tree.node_count());
    let mut body_a = ca.body(&ia).expect("a");
    let mut body_b = cb.body(&ib).expect("b");
    let qa: Vec<S> = a.2.iter().map(|&x| S::from_f64(x)).collect();
    let qb: Vec<S> = b.2.iter().map(|&x| S::from_f64(x)).collect();
    body_a.set_state(kernel_pose::<S>(&a.3), &qa).expect("a");
    body_b.set_state(kernel_pose::<S>(&b.3), &qb).expect("b");
    let wa = oracle::deform(&a.0.vertices, Some(a.1), a.2, &a.3);
    let wb = oracle::deform(&b.0.vertices, Some(b.1), b.2, &b.3);
    let truth = oracle::brute_force_pairs(&wa, &a.0.triangles, &wb, &b.0.triangles);
    let mut stack = vec![[0u32; 2]; stack_capacity(ia.tree.depth(), ib.tree.depth())];
    for test in [BoxTest::Exact, BoxTest::FaceAxes] {
        let mut found = Vec::new();
        let outcome = collide_boxes(
            &mut body_a,
            &mut body_b,
            &tba,
            &tbb,
            test,
            &mut stack,
            &mut pairs_into(&mut found),
        );
        prop_assert_eq!(outcome.status, QueryStatus::Complete);
        found.sort_unstable();
        for t in &truth {
            prop_assert!(
                found.binary_search(t).is_ok(),
                "{} {test:?}: missed {t:?}",
                S::NAME
            );
        }
        let tolerance = 10.0 * (body_a.error() + body_b.error()).to_f64();
        let tri = |w: &[[f64; 3]], m: &Mesh, t: u32| m.triangles[t as usize].map(|v| w[v as usize]);
        for &(x, y) in found.iter().filter(|p| truth.binary_search(p).is_err()) {
            let gap = oracle::separation_gap(&tri(&wa, a.0, x), &tri(&wb, b.0, y));
            prop_assert!(
                gap <= tolerance,
                "{} {test:?}: extra ({x}, {y}) {gap} apart",
                S::NAME
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(32, 0xBD7_0A01))]

    #[test]
    fn every_deformed_vertex_lies_in_its_world_box(
        index in 0usize..5,
        modes in 0usize..=8,
        rough in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = meshes().swap_remove(index);
        let basis = if rough { rough_basis(mesh.vertices.len(), modes, 0.1, &mut rng) } else { smooth_basis(&mesh.vertices, modes, 0.3) };
        let q: Vec<f64> = (0..modes).map(|_| rng.uniform(-2.0, 2.0)).collect();
        let p = io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-50.0, 50.0)) };
        containment::<f32>(&mesh, &basis, &q, p)?;
        containment::<f64>(&mesh, &basis, &q, p)?;
    }

    #[test]
    fn box_queries_equal_brute_force(
        ia in 0usize..5,
        ib in 0usize..5,
        modes in 0usize..=6,
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let all = meshes();
        let (ma, mb) = (&all[ia], &all[ib]);
        let (ba, bb) = (smooth_basis(&ma.vertices, modes, 0.2), smooth_basis(&mb.vertices, modes, 0.2));
        let qa: Vec<f64> = (0..modes).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let qb: Vec<f64> = (0..modes).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let pa = io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-0.2, 0.2)) };
        let pb = io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-0.7, 0.7)) };
        queries::<f32>((ma, &ba, &qa, pa), (mb, &bb, &qb, pb))?;
        queries::<f64>((ma, &ba, &qa, pa), (mb, &bb, &qb, pb))?;
    }
}

fn rotation(q: [f64; 4]) -> [[f64; 3]; 3] {
    io::Pose {
        rotation: q,
        translation: [0.0; 3],
    }
    .matrix()
}

#[test]
fn face_axes_never_separate_what_all_axes_do_not() {
    let mut rng = Rng::new(0xBD7_0A02);
    let mut only_edges = 0;
    for _ in 0..20_000 {
        let make = |rng: &mut Rng| WorldBox {
            center: [0, 1, 2].map(|_| rng.uniform(-1.5, 1.5)),
            axes: rotation(rng.rotation()),
            half: [0, 1, 2].map(|_| rng.uniform(0.05, 1.0)),
        };
        let (a, b) = (make(&mut rng), make(&mut rng));
        let exact = boxes_overlap(&a, &b, BoxTest::Exact);
        let faces = boxes_overlap(&a, &b, BoxTest::FaceAxes);
        assert!(
            faces || !exact,
            "6 axes separated boxes that 15 axes do not"
        );
        only_edges += usize::from(faces && !exact);
    }
    assert!(
        only_edges > 0,
        "some pairs are separated by an edge axis only"
    );
}

#[test]
fn hand_made_separating_axis_cases() {
    let id = rotation([1.0, 0.0, 0.0, 0.0]);
    let unit = |c: [f64; 3], axes| WorldBox {
        center: c,
        axes,
        half: [0.5; 3],
    };
    // Touching faces overlap; a hair apart they do not.
    assert!(boxes_overlap(
        &unit([0.0; 3], id),
        &unit([1.0, 0.0, 0.0], id),
        BoxTest::Exact
    ));
    assert!(!boxes_overlap(
        &unit([0.0; 3], id),
        &unit([1.0 + 1e-9, 0.0, 0.0], id),
        BoxTest::Exact
    ));
    // Two long thin bars crossing as an X (rotated ±22.5° about z), one above the other: apart
    // when the z offset exceeds their thickness (0.1), overlapping when it does not.
    let bar = |angle_sign: f64, z: f64| WorldBox {
        center: [0.0, 0.0, z],
        axes: rotation([
            (std::f64::consts::PI / 8.0).cos(),
            0.0,
            0.0,
            angle_sign * (std::f64::consts::PI / 8.0).sin(),
        ]),
        half: [2.0, 0.05, 0.05],
    };
    let (a, b) = (bar(1.0, 0.0), bar(-1.0, 0.11));
    assert!(!boxes_overlap(&a, &b, BoxTest::Exact));
    let (a, b) = (bar(1.0, 0.0), bar(-1.0, 0.09));
    assert!(boxes_overlap(&a, &b, BoxTest::Exact));
    assert!(boxes_overlap(&a, &b, BoxTest::FaceAxes));
}

#[test]
fn a_box_table_that_breaks_its_bounds_is_refused() {
    let mesh = icosphere(0.5, 1);
    let basis = smooth_basis(&mesh.vertices, 2, 0.1);
    let buf = build(&mesh, Some(&basis), BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<f32>().expect("image");
    let mut rows = box_table(&image);
    assert!(BoxTable::new(&rows, &image.tree).is_ok());
    assert!(BoxTable::new(&rows[1..], &image.tree).is_err());
    rows[3][1] = -1.0;
    assert!(BoxTable::new(&rows, &image.tree).is_err());
    rows[3][1] = f32::NAN;
    assert!(BoxTable::new(&rows, &image.tree).is_err());
    rows[3][1] = 1e9;
    assert!(BoxTable::new(&rows, &image.tree).is_err());
}

/// Box queries on bodies with vertex caches centred each box on the node's cached sphere,
/// which a vertex cache makes, for a leaf, the sphere of its deformed triangle: on the
/// touching fixture (rigid sheets and a ball in contact) the 15-axis query found 12 of the 36
/// intersecting pairs of two bodies. Boxes now take their center from the tree (issue 39).
#[test]
fn box_queries_on_bodies_with_vertex_caches_miss_nothing_issue_39() {
    use bdtree_core::{collide, mode_storage, Body, CacheEntry, VertexEntry};
    use bdtree_std::io::Scene;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let scene = Scene::load(&root.join("scenes/touching.json")).expect("scene");
    let prepared = bdtree_std::runner::prepare(&scene, BuildOptions::default()).expect("build");
    let n = scene.bodies.len();
    let mut compared = 0;
    for f in 0..scene.frames.len() {
        for i in 0..n {
            for j in i + 1..n {
                let (ia, ib) = (
                    prepared.images[i].parse::<f32>().expect("a"),
                    prepared.images[j].parse::<f32>().expect("b"),
                );
                let (ra, rb) = (box_table(&ia), box_table(&ib));
                let ta = BoxTable::new(&ra, &ia.tree).expect("a");
                let tb = BoxTable::new(&rb, &ib.tree).expect("b");
                let mut c1 = vec![CacheEntry::EMPTY; ia.tree.node_count()];
                let mut c2 = vec![CacheEntry::EMPTY; ib.tree.node_count()];
                let mut m1 = vec![0f32; mode_storage(ia.tree.modes())];
                let mut m2 = vec![0f32; mode_storage(ib.tree.modes())];
                let mut v1 = vec![VertexEntry::EMPTY; ia.model.vertex_count()];
                let mut v2 = vec![VertexEntry::EMPTY; ib.model.vertex_count()];
                let mut a = Body::new(&ia, &mut c1, &mut m1)
                    .and_then(|b| b.with_vertex_cache(&mut v1))
                    .expect("a");
                let mut b = Body::new(&ib, &mut c2, &mut m2)
                    .and_then(|b| b.with_vertex_cache(&mut v2))
                    .expect("b");
                let fr = &scene.frames[f];
                let origin =
                    bdtree_core::floating_origin(&[fr[i].0.translation, fr[j].0.translation]);
                a.set_state_f64(fr[i].0.rotation, fr[i].0.translation, &fr[i].1, origin)
                    .expect("a");
                b.set_state_f64(fr[j].0.rotation, fr[j].0.translation, &fr[j].1, origin)
                    .expect("b");
                let mut stack = vec![[0u32; 2]; stack_capacity(ia.tree.depth(), ib.tree.depth())];
                let mut spheres = Vec::new();
                collide(&mut a, &mut b, &mut stack, &mut |p: TrianglePair| {
                    spheres.push((p.a, p.b));
                    true
                });
                spheres.sort_unstable();
                for test in [BoxTest::Exact, BoxTest::FaceAxes] {
                    let mut boxes = Vec::new();
                    let outcome = collide_boxes(
                        &mut a,
                        &mut b,
                        &ta,
                        &tb,
                        test,
                        &mut stack,
                        &mut |p: TrianglePair| {
                            boxes.push((p.a, p.b));
                            true
                        },
                    );
                    assert_eq!(outcome.status, QueryStatus::Complete);
                    boxes.sort_unstable();
                    assert_eq!(boxes, spheres, "frame {f}, bodies {i} {j}, {test:?}");
                }
                compared += spheres.len();
            }
        }
    }
    assert!(compared > 0, "no intersecting pair in the fixture");
}
