//! Medial trees ([`TreeKind::Medial`]): the same exact answers as the f64 brute force — pair
//! and self queries, f32 and f64, unit-size and millimetre bodies, near the origin and far from
//! it — the same shape as the median tree, and the refusal of meshes that are not closed.

use bdtree_std::build::medial::{check_closed, NotClosed, Solid};
use bdtree_std::build::{build, BuildError, BuildOptions, TreeKind};
use bdtree_std::io;
use bdtree_std::shapes::chair_mesh;
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis};
use proptest::prelude::*;

use super::self_collision::check_of;
use super::triangles::check_traversal_of;
use crate::support::scenes::scene_of;
use crate::support::{closed_meshes, config, rough_basis, scaled, Rng};

proptest! {
    #![proptest_config(config(32, 0xBD7_5901))]

    #[test]
    fn medial_pairs_equal_brute_force(
        ia in 0usize..4,
        ib in 0usize..4,
        modes_a in 0usize..=8,
        modes_b in 0usize..=8,
        amplitude in prop_oneof![Just(0.02), Just(0.2)],
        scale in prop_oneof![Just(1.0), Just(1e-3)],
        far in prop_oneof![Just(0.0), Just(300.0)],
        seed in any::<u64>(),
    ) {
        // Unit-size and millimetre bodies, at the origin and hundreds of sizes away from it.
        let mut rng = Rng::new(seed);
        let all = closed_meshes();
        let (mesh_a, mesh_b) = (scaled(all[ia].clone(), scale), scaled(all[ib].clone(), scale));
        let mut basis_a = smooth_basis(&mesh_a.vertices, modes_a, amplitude);
        let mut basis_b = smooth_basis(&mesh_b.vertices, modes_b, amplitude);
        basis_a.data.iter_mut().for_each(|x| *x *= scale);
        basis_b.data.iter_mut().for_each(|x| *x *= scale);
        let qa: Vec<f64> = (0..modes_a).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let qb: Vec<f64> = (0..modes_b).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let origin = [0, 1, 2].map(|_| far * scale * rng.uniform(-1.0, 1.0));
        let near = |rng: &mut Rng, reach: f64| {
            [0, 1, 2].map(|k| origin[k] + scale * rng.uniform(-reach, reach))
        };
        let pose_a = io::Pose { rotation: rng.rotation(), translation: near(&mut rng, 0.2) };
        let pose_b = io::Pose { rotation: rng.rotation(), translation: near(&mut rng, 0.7) };
        let a = (&mesh_a, Some(&basis_a), qa.as_slice(), pose_a);
        let b = (&mesh_b, Some(&basis_b), qb.as_slice(), pose_b);
        check_traversal_of::<f32>(TreeKind::Medial, a, b)?;
        check_traversal_of::<f64>(TreeKind::Medial, a, b)?;
        // Rigid bodies too.
        let a = (&mesh_a, None, &[][..], pose_a);
        let b = (&mesh_b, None, &[][..], pose_b);
        check_traversal_of::<f32>(TreeKind::Medial, a, b)?;
        check_traversal_of::<f64>(TreeKind::Medial, a, b)?;
    }

    #[test]
    fn medial_self_pairs_equal_brute_force(
        index in 0usize..4,
        modes in 1usize..=6,
        rough in any::<bool>(),
        amplitude in prop_oneof![Just(0.02), Just(0.2), Just(0.6)],
        scale in prop_oneof![Just(1.0), Just(1e-3)],
        far in prop_oneof![Just(1.0), Just(300.0)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = scaled(closed_meshes().swap_remove(index), scale);
        let mut basis = if rough {
            rough_basis(mesh.vertices.len(), modes, amplitude * 0.2 * scale, &mut rng)
        } else {
            smooth_basis(&mesh.vertices, modes, amplitude)
        };
        if !rough {
            basis.data.iter_mut().for_each(|x| *x *= scale);
        }
        let q: Vec<f64> = (0..modes).map(|_| rng.uniform(-2.0, 2.0)).collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| far * scale * rng.uniform(-1.0, 1.0)),
        };
        check_of::<f32>(TreeKind::Medial, &mesh, Some(&basis), &q, pose)?;
        check_of::<f64>(TreeKind::Medial, &mesh, Some(&basis), &q, pose)?;
    }
}

#[test]
fn medial_tree_has_the_median_trees_shape() {
    let mut different = 0;
    for mesh in closed_meshes().into_iter().chain([chair_mesh()]) {
        let built = |tree| {
            let options = BuildOptions {
                tree,
                ..BuildOptions::default()
            };
            build(&mesh, None, options, &mut |_| {}).expect("build")
        };
        let ((median_image, median), (medial_image, medial)) =
            (built(TreeKind::Median), built(TreeKind::Medial));
        assert_eq!(median.nodes, medial.nodes);
        assert_eq!(median.depth, medial.depth);
        // The medial image adds its fitted spheres (20 bytes a node in f32, section padded).
        assert_eq!(
            medial.bytes,
            median.bytes + (20 * median.nodes).next_multiple_of(16)
        );
        if median_image.as_bytes() != medial_image.as_bytes() {
            different += 1;
        }
    }
    // The exact tests above run on other partitions than the median split's.
    assert!(different >= 3, "only {different} medial trees differ");
}

#[test]
fn medial_build_refuses_open_meshes() {
    let medial = BuildOptions {
        tree: TreeKind::Medial,
        ..BuildOptions::default()
    };
    let mut holed = icosphere(0.5, 2);
    holed.triangles.swap_remove(17);
    for (name, mesh) in [("sheet", sheet(1.0, 1.0, 4, 4)), ("holed sphere", holed)] {
        match build(&mesh, None, medial, &mut |_| {}) {
            Err(e @ BuildError::NotClosed(_)) => {
                let text = e.to_string();
                assert!(text.contains("not closed"), "{name}: {text}");
                assert!(text.contains("median split"), "{name}: {text}");
            }
            other => panic!("{name}: expected NotClosed, got {:?}", other.map(|r| r.1)),
        }
        // The median split still builds it.
        build(&mesh, None, BuildOptions::default(), &mut |_| {}).expect("median build");
    }
    // A triangle that repeats a vertex is refused too.
    let mut pinched = icosphere(0.5, 1);
    pinched.triangles[0][1] = pinched.triangles[0][0];
    assert!(matches!(check_closed(&pinched), Err(NotClosed(_))));
}

#[test]
fn solid_winding_numbers() {
    let sphere = icosphere(0.5, 3);
    let solid = Solid::new(&sphere).expect("closed");
    let cases: [([f64; 3], bool); 6] = [
        ([0.0; 3], true),
        ([0.31, -0.2, 0.1], true),
        ([0.0, 0.0, 0.48], true),
        ([0.0, 0.0, 0.51], false),
        ([2.0, 0.0, 0.0], false),
        ([-0.45, 0.3, 0.0], false),
    ];
    for (p, inside) in cases {
        assert_eq!(solid.contains(p), inside, "{p:?}");
    }
    // The chair's parts overlap: winding numbers above one inside the overlaps still count.
    let chair = Solid::new(&chair_mesh()).expect("closed");
    assert!(!chair.contains([10.0, 10.0, 10.0]));
}

#[test]
fn every_scene_tree_name_parses() {
    for name in io::TREE_NAMES {
        let kind: TreeKind = name.parse().expect("a tree name");
        assert_eq!(kind.name(), name);
    }
    assert!("medal"
        .parse::<TreeKind>()
        .unwrap_err()
        .contains("\"medal\""));
}

#[test]
fn a_scene_body_names_its_tree() {
    use bdtree_std::runner::prepare;
    // Body 0 rigid, body 1 with modes: both closed, the first asked for a medial tree.
    let chair = chair_mesh();
    let basis = smooth_basis(&chair.vertices, 4, 0.05);
    let mut scene = scene_of(vec![
        (chair.clone(), None),
        (chair.clone(), Some(basis.clone())),
    ]);
    scene.bodies[0].tree = Some("medial".into());
    let prepared = prepare(&scene, BuildOptions::default()).expect("build");
    let alone = |tree, basis: Option<&io::Basis>| {
        let options = BuildOptions {
            tree,
            ..BuildOptions::default()
        };
        build(&chair, basis, options, &mut |_| {}).expect("build").0
    };
    // Compared with `assert!`: a failed `assert_eq!` would print two images.
    let same = |image: &io::ImageBuf, other: io::ImageBuf| image.as_bytes() == other.as_bytes();
    assert!(
        same(&prepared.images[0], alone(TreeKind::Medial, None)),
        "body 0: TreeKind::Medial"
    );
    assert!(
        same(&prepared.images[1], alone(TreeKind::Median, Some(&basis))),
        "body 1: TreeKind::Median"
    );
    // `--tree medial` for all: body 1 too; a body's "median" wins over it.
    scene.bodies[0].tree = Some("median".into());
    let medial = BuildOptions {
        tree: TreeKind::Medial,
        ..BuildOptions::default()
    };
    let prepared = prepare(&scene, medial).expect("build");
    assert!(
        same(&prepared.images[0], alone(TreeKind::Median, None)),
        "body 0: TreeKind::Median"
    );
    assert!(
        same(&prepared.images[1], alone(TreeKind::Medial, Some(&basis))),
        "body 1: TreeKind::Medial"
    );
    // An open body asked for a medial tree: refused, naming the body.
    let mut scene = scene_of(vec![(chair, None), (sheet(1.0, 1.0, 4, 4), None)]);
    scene.bodies[1].tree = Some("medial".into());
    match prepare(&scene, BuildOptions::default()) {
        Err(e @ BuildError::NotClosed(_)) => {
            let text = e.to_string();
            assert!(text.contains("body \"body1\""), "{text}");
            assert!(text.contains("not closed"), "{text}");
        }
        other => panic!("expected NotClosed, got {:?}", other.err()),
    }
}

#[test]
fn build_progress_counts_the_work_of_either_tree() {
    let mesh = chair_mesh();
    for tree in [TreeKind::Median, TreeKind::Medial] {
        let options = BuildOptions {
            tree,
            ..BuildOptions::default()
        };
        let (mut total, mut calls) = (0, 0);
        build(&mesh, None, options, &mut |n| {
            total += n;
            calls += 1;
        })
        .expect("build");
        assert_eq!(total, options.work(mesh.triangles.len()), "{tree:?}");
        assert!(calls > 1, "{tree:?}: one call is no progress");
    }
}
