//! Self-collision on the meshes that break its shortcuts' preconditions (the families of
//! `support::families`): every self mode against the f64 brute force on the source mesh, with
//! no modes, zero, clamped, smooth and rough bases, unit-size and millimetre parts modelled and
//! posed far; and the C-shaped strip whose f64 source crosses itself by less than its f32
//! storage rounding.

use bdtree_core::query::self_collision::SelfCertificates;
use bdtree_core::Pose;
use bdtree_std::build::{build, self_certificates, self_contours, BuildOptions, Precision};
use bdtree_std::io;
use bdtree_std::BodyStorage;
use proptest::prelude::*;

use super::self_collision::check;
use crate::support::families::{
    c_strip, family_basis, family_mesh, placed, BasisKind, Family, BASES, FAMILIES,
};
use crate::support::{config, Rng};

proptest! {
    #![proptest_config(config(48, 0xBD7_0758))]

    /// The families whose rest shapes break the shortcuts' preconditions — crossing and touching
    /// rest shapes, duplicated vertices, soups, non-manifold edges, degenerate triangles — with
    /// no modes, all-zero and clamped bases as well as smooth and rough ones, unit-size and
    /// millimetre parts modelled at the origin or far from it and posed far away: every mode
    /// (exact, culled, incremental list, host) finds every pair the f64 brute force finds.
    #[test]
    fn self_collision_holds_on_shapes_that_break_the_shortcuts(
        family in proptest::sample::select(FAMILIES.to_vec()),
        kind in proptest::sample::select(BASES.to_vec()),
        modes in 1usize..=3,
        small in any::<bool>(),
        scale in prop_oneof![Just(1.0), Just(1e-3)],
        modelled in prop_oneof![Just(0.0), Just(1000.0)],
        far in prop_oneof![Just(0.0), Just(300.0)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = family_mesh(family, &mut rng);
        // Small states leave the certificates holding; larger ones fold.
        let amplitude = if small { 0.01 } else { 0.2 };
        let basis = family_basis(kind, &mesh, modes, amplitude, &mut rng);
        let offset = [0, 1, 2].map(|_| modelled * scale * rng.uniform(-1.0, 1.0));
        let (mesh, basis) = placed(mesh, basis, scale, offset);
        let m = basis.as_ref().map_or(0, |b| b.modes);
        let q: Vec<f64> = (0..m)
            .map(|_| if small { rng.uniform(-0.3, 0.3) } else { rng.uniform(-2.0, 2.0) })
            .collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| far * scale * rng.uniform(-1.0, 1.0)),
        };
        let found = check::<f32>(&mesh, basis.as_ref(), &q, pose)?;
        check::<f64>(&mesh, basis.as_ref(), &q, pose)?;
        // Every family touches or crosses itself at rest; the soup by chance, mostly.
        if family != Family::Soup && m == 0 {
            prop_assert!(found > 0, "{:?} without modes has self contacts at rest", family);
        }
    }
}

/// The C-shaped strip whose f64 source crosses itself by less than its f32 storage rounding
/// (its rounded copy does not cross): at small states the rounded copy's certificate would
/// hold at the root; the source's crossing pairs are found in f32 and f64 — near the origin,
/// in millimetres and modelled 1,000 units away — at rest and at states of both signs.
#[test]
fn a_crossing_smaller_than_the_storage_rounding_is_not_certified_away() {
    for (scale, offset) in [
        (1.0, [0.0; 3]),
        (1e-3, [0.0; 3]),
        (1.0, [1000.0, -600.0, 250.0]),
        (1e-3, [1.0, 0.5, -0.2]),
    ] {
        let (mesh, basis) = c_strip(scale, offset).expect("a turn that rounding undoes");
        // The rounded copy's certificate holds at the root for small states: the strip is
        // flat and free in f32, so only the storage margin keeps the root from being culled.
        let buf = build(
            &mesh,
            Some(&basis),
            BuildOptions {
                precision: Precision::F32,
                ..BuildOptions::default()
            },
            &mut |_| {},
        )
        .expect("build")
        .0;
        let image = buf.parse::<f32>().expect("image");
        let contours = self_contours(&image.tree, image.model.triangles());
        assert!(
            contours.starts[1] > contours.starts[0],
            "the strip's root has a contour"
        );
        let weights = self_certificates(&image.tree, &image.model, &contours);
        let mut cache = BodyStorage::new(image.tree.node_count());
        let mut body = cache.body(&image).expect("body");
        body.set_state(Pose::identity(), &[0.1]).expect("state");
        assert!(
            !SelfCertificates { weights: &weights }.hold(&body, 0),
            "{scale} at {offset:?}: the root certified although the source crosses itself"
        );
        for q in [0.0, 0.1, -0.3] {
            let pose = io::Pose {
                rotation: [1.0, 0.0, 0.0, 0.0],
                translation: [0.0; 3],
            };
            let found = check::<f32>(&mesh, Some(&basis), &[q], pose).expect("f32");
            assert!(
                found > 0,
                "{scale} at {offset:?}: the source crosses itself"
            );
            check::<f64>(&mesh, Some(&basis), &[q], pose).expect("f64");
        }
    }
}

/// A rigid body (no modes) whose rest shape crosses itself: every crossing pair found, and the
/// root is never certified (an empty certificate table holds nowhere).
#[test]
fn a_rigid_body_crossing_itself_is_never_certified() {
    let mut rng = Rng::new(58);
    let mesh = family_mesh(Family::Crossing, &mut rng);
    let buf = build(&mesh, None, BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<f32>().expect("image");
    let contours = self_contours(&image.tree, image.model.triangles());
    let weights = self_certificates(&image.tree, &image.model, &contours);
    assert!(weights.is_empty(), "no modes: no certificate table");
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).expect("body");
    body.set_state(Pose::identity(), &[]).expect("state");
    let certificates = SelfCertificates { weights: &weights };
    for k in 0..image.tree.node_count() {
        assert!(
            !certificates.hold(&body, k),
            "node {k} certified with no table"
        );
    }
    let found = check::<f32>(&mesh, None, &[], io::Pose::IDENTITY).expect("f32");
    assert!(found > 0);
    check::<f64>(&mesh, None, &[], io::Pose::IDENTITY).expect("f64");
}

/// Each family with no modes and with an all-zero basis (at rest, `q = 0`), unit-size at the
/// origin, in millimetres modelled 1 m away and posed far: every true pair found in f32 and
/// f64. Failures are gathered over all families before the test fails, so a regression names
/// every family it breaks.
#[test]
fn every_family_at_rest_is_found_whole() {
    let mut failures = Vec::new();
    for family in FAMILIES {
        for kind in [BasisKind::None, BasisKind::Zero] {
            for (scale, offset, far) in [(1.0, 0.0, 0.0), (1e-3, 1.0, 0.3)] {
                let mut rng = Rng::new(0x58 + family as u64);
                let mesh = family_mesh(family, &mut rng);
                let basis = family_basis(kind, &mesh, 2, 0.0, &mut rng);
                let (mesh, basis) = placed(mesh, basis, scale, [offset, -offset, 0.5 * offset]);
                let q = vec![0.0; basis.as_ref().map_or(0, |b| b.modes)];
                let pose = io::Pose {
                    rotation: rng.rotation(),
                    translation: [far, 0.5 * far, -far],
                };
                let f32 = check::<f32>(&mesh, basis.as_ref(), &q, pose);
                let f64 = check::<f64>(&mesh, basis.as_ref(), &q, pose);
                match (f32, f64) {
                    (Ok(found), Ok(_)) if found > 0 || family == Family::Soup => {}
                    (Ok(_), Ok(_)) => failures.push(format!("{family:?} {kind:?}: no contact")),
                    (Err(e), _) | (_, Err(e)) => {
                        failures.push(format!("{family:?} {kind:?} scale {scale}: {e}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
