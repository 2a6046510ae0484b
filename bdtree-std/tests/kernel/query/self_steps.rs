//! The lazy self query (`collide_self_lazy`, what the host and the image path run) on one body
//! over a sequence of steps, against the f64 brute force at each: its spheres are made where
//! the walk reads them, so the cache holds the earlier steps' spheres wherever this step's walk
//! has not been yet, and the walk must never read one of them as this step's.

use bdtree_core::query::self_collision::{
    collide_self_lazy, vertex_signatures, ConeSlot, SelfAids, SelfCertificates, SelfCones,
    SelfNormals, SelfSpheres, UnitCounts,
};
use bdtree_core::{
    collide_self, self_stack_capacity, BoxEntry, Pose, QueryStatus, Scalar, TrianglePair,
    VertexEntry,
};
use bdtree_std::build::{build, self_certificates, self_contours, self_normals, self_spheres};
use bdtree_std::io;
use bdtree_std::{oracle, BodyStorage};

use crate::support::{folding_sheet, options_in, pairs_into};

/// A sheet whose right half folds over its still left half (`q₁ = 1`: mirrored and tilted
/// through it) and which bends whole (`q₀`), walked lazily on one body over states that move
/// the flap back and forth between bent, flat and folded, in f32 and f64. Folded alone, the
/// still half's nodes are nearly rigid and the query takes its lazy path (no refit before the
/// walk) over a cache holding the last step's spheres (an exact query after each lazy one
/// refits them all): a child pair's spheres read from it would place the flap where it was and
/// miss its crossings.
#[test]
fn a_lazy_walk_over_steps_reads_no_sphere_of_an_earlier_step() {
    let states = [
        [0.0, 0.0],
        [1.0, 0.0],
        [0.0, 1.2],
        [0.0, 0.0],
        [0.0, 1.0],
        [1.0, 1.0],
        [0.0, 0.5],
        [-1.0, 0.0],
        [0.0, 0.97],
    ];
    for tables in [false, true] {
        walk_steps::<f32>(tables, true, &states);
        walk_steps::<f64>(tables, true, &states);
    }
}

/// The whole sheet bent at every step (the one-pass refit before the walk), its flap
/// stretched away (`q₁ = −1`) and folded back through the still half (`q₁ ≈ 1`) in turn: the
/// boxed nodes' spheres are left unmade by the refit (no certificates: no node near the root
/// is skipped), and a sphere of a node above them must
/// be made from this step's boxes, never from the spheres an earlier step left in the cache
/// (which place the flap where it was, away from the half it now crosses).
#[test]
fn a_one_pass_refit_builds_no_sphere_from_an_earlier_step() {
    let states = [
        [1.0, -1.0],
        [1.0, 1.0],
        [1.0, -1.0],
        [1.0, 0.97],
        [0.5, -1.0],
        [1.0, 1.1],
    ];
    walk_steps::<f32>(false, false, &states);
    walk_steps::<f64>(false, false, &states);
}

/// `tables`: with the normal bounds and affine spheres (every node over two triangles or more
/// gets a row, so that the walk takes them wherever they bound). `certify`: with the subspace
/// certificates (without, no node is skipped near the root of a bent sheet).
fn walk_steps<S: Scalar>(tables: bool, certify: bool, states: &[[f64; 2]]) {
    // Mode 0 bends the whole sheet (nothing still: the query refits every sphere before its
    // walk); mode 1 folds the right half (the left half still: the lazy path).
    let (mesh, basis) = folding_sheet();
    let buf = build(&mesh, Some(&basis), options_in::<S>(), &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<S>().expect("image");
    let n = image.tree.node_count();
    let contours = self_contours(&image.tree, image.model.triangles());
    let weights = self_certificates(&image.tree, &image.model, &contours);
    let mut signatures = vec![[0u32; 2]; n];
    let mut slots = vec![ConeSlot::EMPTY; n];
    let mut cones = SelfCones::new(&mut slots);
    let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
    let mut cache = BodyStorage::new(n);
    let mut vertices = vec![VertexEntry::<S>::default(); mesh.vertices.len()];
    // A box cache too: the boxes of an earlier step must not be read as this step's either.
    let mut boxes = vec![BoxEntry::<S>::EMPTY; n];
    let mut body = cache
        .body(&image)
        .and_then(|b| b.with_vertex_cache(&mut vertices))
        .and_then(|b| b.with_box_cache(&mut boxes))
        .expect("body");
    vertex_signatures(&body, &mut signatures).expect("signatures");
    let normals = self_normals(&image.tree, &image.model, 2);
    let spheres = self_spheres(&image.tree, &image.model, 2);
    if tables {
        assert!(
            !spheres.is_empty(),
            "{}: the flap's nodes have rows",
            S::NAME
        );
    }
    let aids = SelfAids {
        signatures: &signatures,
        cones: &[],
        contours: contours.view(),
        certificates: if certify {
            SelfCertificates { weights: &weights }
        } else {
            SelfCertificates::NONE
        },
        normals: if tables {
            normals.normals()
        } else {
            SelfNormals::NONE
        },
        spheres: if tables {
            spheres.spheres()
        } else {
            SelfSpheres::NONE
        },
    };
    let mut crossings = 0;
    for &q in states {
        body.set_state(Pose::identity(), &q.map(S::from_f64))
            .expect("state");
        let mut found = Vec::new();
        let outcome = collide_self_lazy(
            &mut body,
            aids,
            &mut cones,
            &mut UnitCounts::default(),
            &mut stack,
            &mut pairs_into(&mut found),
        );
        assert_eq!(
            outcome.status,
            QueryStatus::Complete,
            "{} at q = {q:?}",
            S::NAME
        );
        found.sort_unstable();
        let world = oracle::deform(&mesh.vertices, Some(&basis), &q, &io::Pose::IDENTITY);
        let truth = oracle::brute_force_self_pairs(&world, &mesh.triangles);
        for t in &truth {
            assert!(
                found.binary_search(t).is_ok(),
                "{} at q = {q:?}: missed {t:?} of {}",
                S::NAME,
                truth.len()
            );
        }
        crossings += truth.len();
        // Every sphere of this step made (the exact query refits them all): the next step's
        // lazy walk finds a cache full of spheres of this state.
        let outcome = collide_self(&mut body, &mut stack, &mut |_: TrianglePair| true);
        assert_eq!(outcome.status, QueryStatus::Complete);
    }
    assert!(crossings > 0, "the flap crosses the still half");
}
