//! Bounded-depth proxy queries: nested images (built, verified, refused when corrupt), and
//! `collide_proxies` equal to brute force over every pair of proxies — in f32 and f64, with
//! exact and coherent spheres — plus the leaf contacts of the f64 oracle always lying under a
//! reported proxy pair.

use bdtree_core::bounds::sphere::spheres_overlap;
use bdtree_core::image::{checksum, CHECKSUM_OFFSET, FLAG_NESTED};
use bdtree_core::{
    collide_proxies, collide_proxies_apart, proxy_stack_capacity, Anchor, Body, Image, ImageError,
    NodeKind, ProxyBuffer, ProxyPair, QueryStatus, ReferenceEntry, Scalar, TreeView,
};
use bdtree_std::build::{build, BuildOptions};
use bdtree_std::io;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, torus};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{
    config, dist, meshes, precision, proxy_of_triangle, rough_basis, set_state_f64, Rng,
};

fn nested_image<S: Scalar>(mesh: &Mesh, basis: Option<&Basis>) -> ImageBuf {
    let options = BuildOptions {
        precision: precision::<S>(),
        nested: true,
        ..BuildOptions::default()
    };
    build(mesh, basis, options, &mut |_| {}).expect("build").0
}

/// The proxies of a tree at depth `l`: nodes at depth `l` and leaves above it.
fn proxies<S: Scalar>(tree: &TreeView<'_, S>, l: u32) -> Vec<u32> {
    (0..tree.node_count())
        .filter(|&k| {
            let depth = tree.node_depth(k).expect("node");
            depth == l || (depth < l && matches!(tree.kind(k), Some(NodeKind::Leaf { .. })))
        })
        .map(|k| k as u32)
        .collect()
}

struct Case<'m> {
    mesh: &'m Mesh,
    basis: Option<&'m Basis>,
    q: Vec<f64>,
    pose: io::Pose,
}

fn set_state<S: Scalar>(body: &mut Body<'_, '_, S>, case: &Case<'_>) {
    set_state_f64(body, &case.pose, &case.q);
}

/// `collide_proxies` at depths `(la, lb)` against every proxy pair tested directly with the
/// kernel's spheres, and the f64 oracle's triangle contacts against the proxies reported.
/// With `coherent`, both bodies are anchored at a different `q` first, so their spheres are
/// the coherent ones. Returns the number of proxy pairs.
fn check_proxies<S: Scalar>(
    a: &Case<'_>,
    b: &Case<'_>,
    depths: &[(u32, u32)],
    coherent: bool,
) -> Result<usize, TestCaseError> {
    let (buf_a, buf_b) = (
        nested_image::<S>(a.mesh, a.basis),
        nested_image::<S>(b.mesh, b.basis),
    );
    let (image_a, image_b) = (
        buf_a.parse::<S>().expect("a"),
        buf_b.parse::<S>().expect("b"),
    );
    prop_assert!(image_a.tree.is_nested() && image_b.tree.is_nested());
    let (ta, tb) = (image_a.tree, image_b.tree);
    let mut cache_a = BodyStorage::new(ta.node_count());
    let mut cache_b = BodyStorage::new(tb.node_count());
    let mut refs_a = vec![ReferenceEntry::EMPTY; ta.node_count()];
    let mut refs_b = vec![ReferenceEntry::EMPTY; tb.node_count()];
    let mut modes_a = vec![S::ZERO; bdtree_core::mode_storage(ta.modes())];
    let mut modes_b = vec![S::ZERO; bdtree_core::mode_storage(tb.modes())];
    let mut body_a = cache_a.body(&image_a).expect("body a");
    let mut body_b = cache_b.body(&image_b).expect("body b");
    if coherent {
        // Anchor at a scaled-down q, then step to the real one: drift ‖q − 0.7 q‖ > 0.
        fn anchor<'m>(case: &Case<'m>) -> Case<'m> {
            Case {
                q: case.q.iter().map(|x| 0.7 * x).collect(),
                ..*case
            }
        }
        set_state(&mut body_a, &anchor(a));
        set_state(&mut body_b, &anchor(b));
        body_a = body_a
            .with_coherence(&mut refs_a, &mut modes_a, Anchor::OnRequest)
            .expect("coherence a");
        body_b = body_b
            .with_coherence(&mut refs_b, &mut modes_b, Anchor::OnRequest)
            .expect("coherence b");
    }
    set_state(&mut body_a, a);
    set_state(&mut body_b, b);

    let world_a = oracle::deform(&a.mesh.vertices, a.basis, &a.q, &a.pose);
    let world_b = oracle::deform(&b.mesh.vertices, b.basis, &b.q, &b.pose);
    let contacts =
        oracle::brute_force_pairs(&world_a, &a.mesh.triangles, &world_b, &b.mesh.triangles);

    let mut total = 0;
    for &(la, lb) in depths {
        let mut stack = vec![[0u32; 2]; proxy_stack_capacity(ta.depth(), la, tb.depth(), lb)];
        let mut found: Vec<ProxyPair<S>> = Vec::new();
        let outcome = collide_proxies(&mut body_a, &mut body_b, la, lb, &mut stack, &mut |p| {
            found.push(p);
            true
        });
        prop_assert_eq!(outcome.status, QueryStatus::Complete);
        prop_assert_eq!(outcome.stats.pairs as usize, found.len());
        let mut got: Vec<(u32, u32)> = found.iter().map(|p| (p.a, p.b)).collect();
        got.sort_unstable();
        prop_assert!(got.windows(2).all(|w| w[0] != w[1]), "duplicate pairs");

        // Brute force over the proxies, with the same spheres.
        let mut expected = Vec::new();
        for &p in &proxies(&ta, la) {
            for &q in &proxies(&tb, lb) {
                let (sp, sq) = (
                    body_a.sphere(p as usize).expect("sphere"),
                    body_b.sphere(q as usize).expect("sphere"),
                );
                if spheres_overlap(sp, sq) {
                    expected.push((p, q));
                }
            }
        }
        expected.sort_unstable();
        prop_assert_eq!(
            &got,
            &expected,
            "{} depths ({}, {}) coherent {}",
            S::NAME,
            la,
            lb,
            coherent
        );
        // Each reported pair carries its spheres and depth.
        for p in &found {
            prop_assert_eq!(p.sphere_a, body_a.sphere(p.a as usize).expect("sphere"));
            prop_assert_eq!(p.sphere_b, body_b.sphere(p.b as usize).expect("sphere"));
            let c = |s: [S; 4]| [s[0].to_f64(), s[1].to_f64(), s[2].to_f64()];
            let depth = p.sphere_a[3].to_f64() + p.sphere_b[3].to_f64()
                - dist(c(p.sphere_a), c(p.sphere_b));
            prop_assert!((p.depth.to_f64() - depth).abs() <= 1e-5 * (1.0 + depth.abs()));
        }
        // Every true triangle contact lies under a reported proxy pair.
        let (owner_a, owner_b) = (proxy_of_triangle(&ta, la), proxy_of_triangle(&tb, lb));
        for &(x, y) in &contacts {
            let pair = (owner_a[x as usize], owner_b[y as usize]);
            prop_assert!(
                got.binary_search(&pair).is_ok(),
                "{}: contact ({x}, {y}) not under a proxy pair at depths ({la}, {lb})",
                S::NAME
            );
        }
        // Each body at its own origin (b moved by its translation): every true contact is
        // still under a reported pair; with no offset, a superset of the common-origin answer.
        let mut apart: Vec<(u32, u32)> = Vec::new();
        let outcome = collide_proxies_apart(
            &mut body_a,
            &mut body_b,
            la,
            lb,
            [0.0; 3],
            &mut stack,
            &mut |p: ProxyPair<S>| {
                apart.push((p.a, p.b));
                true
            },
        );
        prop_assert_eq!(outcome.status, QueryStatus::Complete);
        apart.sort_unstable();
        prop_assert!(got.iter().all(|p| apart.binary_search(p).is_ok()));
        // Exactly the brute force over the proxies with b's spheres as the walk sees them: grown
        // by the documented slack `16u (X_a + X_b)(1 + 8u)` (no offset), `X` a root's
        // `‖c‖∞ + 2r` — whether the walk enlarged the proxies' spheres too or not.
        let reach = |s: [S; 4]| {
            let c = s[0].abs().max(s[1].abs()).max(s[2].abs());
            c.to_f64() + 2.0 * s[3].to_f64()
        };
        let u = S::UNIT_ROUNDOFF.to_f64();
        let size = reach(body_a.sphere(0).expect("root")) + reach(body_b.sphere(0).expect("root"));
        let slack = S::from_f64(16.0 * u * size * (1.0 + 8.0 * u));
        let mut seen_pairs = Vec::new();
        for &p in &proxies(&ta, la) {
            for &q in &proxies(&tb, lb) {
                let sp = body_a.sphere(p as usize).expect("sphere");
                let [x, y, z, r] = body_b.sphere(q as usize).expect("sphere");
                if spheres_overlap(sp, [x, y, z, r + slack]) {
                    seen_pairs.push((p, q));
                }
            }
        }
        seen_pairs.sort_unstable();
        prop_assert_eq!(
            &apart,
            &seen_pairs,
            "apart, {} depths ({}, {})",
            S::NAME,
            la,
            lb
        );
        let own = Case {
            mesh: b.mesh,
            basis: b.basis,
            q: b.q.clone(),
            pose: io::Pose {
                translation: [0.0; 3],
                ..b.pose
            },
        };
        set_state(&mut body_b, &own);
        apart.clear();
        let outcome = collide_proxies_apart(
            &mut body_a,
            &mut body_b,
            la,
            lb,
            b.pose.translation,
            &mut stack,
            &mut |p: ProxyPair<S>| {
                apart.push((p.a, p.b));
                true
            },
        );
        set_state(&mut body_b, b);
        prop_assert_eq!(outcome.status, QueryStatus::Complete);
        apart.sort_unstable();
        for &(x, y) in &contacts {
            let pair = (owner_a[x as usize], owner_b[y as usize]);
            prop_assert!(
                apart.binary_search(&pair).is_ok(),
                "{}: contact ({x}, {y}) not under a proxy pair apart at depths ({la}, {lb})",
                S::NAME
            );
        }
        total += got.len();
    }
    Ok(total)
}

proptest! {
    #![proptest_config(config(24, 0xBD7_0401))]

    #[test]
    fn proxy_pairs_equal_brute_force_over_the_proxies(
        ia in 0usize..5,
        ib in 0usize..5,
        modes_a in 0usize..=8,
        modes_b in 0usize..=8,
        rough in any::<bool>(),
        coherent in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let all = meshes();
        let (mesh_a, mesh_b) = (&all[ia], &all[ib]);
        let basis = |mesh: &Mesh, modes: usize, rng: &mut Rng| if rough {
            rough_basis(mesh.vertices.len(), modes, 0.05, rng)
        } else {
            smooth_basis(&mesh.vertices, modes, 0.15)
        };
        let (basis_a, basis_b) = (basis(mesh_a, modes_a, &mut rng), basis(mesh_b, modes_b, &mut rng));
        let a = Case {
            mesh: mesh_a,
            basis: Some(&basis_a),
            q: (0..modes_a).map(|_| rng.uniform(-1.5, 1.5)).collect(),
            pose: io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-0.2, 0.2)) },
        };
        let b = Case {
            mesh: mesh_b,
            basis: Some(&basis_b),
            q: (0..modes_b).map(|_| rng.uniform(-1.5, 1.5)).collect(),
            pose: io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-0.7, 0.7)) },
        };
        let depths = [(0, 0), (1, 3), (3, 3), (4, 2), (5, 6), (64, 64), (2, 64)];
        check_proxies::<f32>(&a, &b, &depths, coherent)?;
        check_proxies::<f64>(&a, &b, &depths, coherent)?;
    }
}

/// Every child's updated sphere lies inside its parent's for random `q`, computed in f64 on
/// the stored bounds (the nesting guarantee in exact arithmetic, up to f64 rounding).
fn check_nesting<S: Scalar>(buf: &ImageBuf, rng: &mut Rng) {
    let image = buf.parse::<S>().expect("parse");
    assert_eq!(image.header.flags & FLAG_NESTED, FLAG_NESTED);
    let tree = image.tree;
    let m = tree.modes();
    for _ in 0..20 {
        let q: Vec<f64> = (0..m).map(|_| rng.uniform(-3.0, 3.0)).collect();
        let sphere = |k: usize| {
            let rows = tree.record(k).expect("record");
            let mut s = rows[0].map(|x| x.to_f64());
            for (row, &qj) in rows[1..].iter().zip(&q) {
                for l in 0..3 {
                    s[l] += row[l].to_f64() * qj;
                }
                s[3] += row[3].to_f64() * qj.abs();
            }
            s
        };
        for p in 0..tree.node_count() {
            let Some(NodeKind::Internal { left, right }) = tree.kind(p) else {
                continue;
            };
            let sp = sphere(p);
            for c in [left as usize, right as usize] {
                let sc = sphere(c);
                let reach = dist([sp[0], sp[1], sp[2]], [sc[0], sc[1], sc[2]]) + sc[3];
                assert!(
                    reach <= sp[3] * (1.0 + 1e-12) + 1e-12,
                    "{}: child {c} reaches {reach} beyond parent {p} radius {}",
                    S::NAME,
                    sp[3]
                );
                assert!(tree.spread(c) <= tree.spread(p));
            }
        }
    }
}

#[test]
fn nested_children_lie_inside_their_parents_for_any_q() {
    let mut rng = Rng::new(0xBD7_0402);
    for mesh in meshes() {
        let basis = rough_basis(mesh.vertices.len(), 6, 0.1, &mut rng);
        check_nesting::<f32>(&nested_image::<f32>(&mesh, Some(&basis)), &mut rng);
        check_nesting::<f64>(&nested_image::<f64>(&mesh, Some(&basis)), &mut rng);
    }
}

/// Re-seals an edited image with a valid checksum.
fn reseal(bytes: &mut [u8]) {
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].fill(0);
    let crc = checksum(bytes);
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_false_nesting_claim_or_an_unknown_flag_is_refused() {
    let mesh = torus(0.5, 0.15, 12, 6);
    let basis = smooth_basis(&mesh.vertices, 3, 0.1);
    let plain = build(&mesh, Some(&basis), BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    assert!(!plain.parse::<f32>().expect("parse").tree.is_nested());
    // Claiming nesting for a tree built without it: some child sticks out.
    let mut bytes = plain.as_bytes().to_vec();
    bytes[40] = 1;
    reseal(&mut bytes);
    let claimed = ImageBuf::from_bytes(&bytes);
    assert!(matches!(
        claimed.parse::<f32>(),
        Err(ImageError::NotNested { .. })
    ));
    // An unknown flag.
    let mut bytes = plain.as_bytes().to_vec();
    bytes[40] = 64;
    reseal(&mut bytes);
    assert_eq!(
        ImageBuf::from_bytes(&bytes).parse::<f32>().err(),
        Some(ImageError::UnknownFlags { flags: 64 })
    );
    // A nested image whose deepest growth row was shrunk below its child's.
    let nested = nested_image::<f32>(&mesh, Some(&basis));
    let image = nested.parse::<f32>().expect("parse");
    let parent = (0..image.tree.node_count())
        .find(|&k| {
            matches!(image.tree.kind(k), Some(NodeKind::Internal { .. }))
                && image.tree.record(k).expect("record")[1][3] > 0.0
        })
        .expect("an internal node that grows");
    let layout = nested.header().expect("header").layout().expect("layout");
    let offset = layout.section(1).start + (parent * 4 + 4 + 3) * 4;
    let mut bytes = nested.as_bytes().to_vec();
    bytes[offset..offset + 4].copy_from_slice(&0f32.to_le_bytes());
    reseal(&mut bytes);
    let err = ImageBuf::from_bytes(&bytes).parse::<f32>().err();
    assert!(matches!(err, Some(ImageError::NotNested { .. })), "{err:?}");
    let message = err.expect("error").to_string();
    assert!(message.contains("not inside its parent"), "{message}");
}

#[test]
fn proxy_queries_refuse_plain_trees_and_report_full_sinks_and_short_stacks() {
    let mesh = icosphere(0.5, 2);
    let plain = build(&mesh, None, BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    let nested = nested_image::<f32>(&mesh, None);
    let (plain, nested) = (
        plain.parse::<f32>().expect("parse"),
        nested.parse::<f32>().expect("parse"),
    );
    let n = nested.tree.node_count();
    let mut caches = [
        BodyStorage::new(n),
        BodyStorage::new(n),
        BodyStorage::new(n),
    ];
    let [c0, c1, c2] = &mut caches;
    let mut p = c0.body(&plain).expect("body");
    let mut a = c1.body(&nested).expect("body");
    let mut b = c2.body(&nested).expect("body");
    let mut stack = vec![[0u32; 2]; 64];
    let mut sink = ProxyBuffer::<f32, 4>::new();
    let outcome = collide_proxies(&mut p, &mut a, 2, 2, &mut stack, &mut sink);
    assert_eq!(outcome.status, QueryStatus::NotNested);
    assert!(sink.is_empty());
    // Two coincident balls: every depth-2 proxy of one overlaps some of the other.
    let outcome = collide_proxies(&mut a, &mut b, 2, 2, &mut stack, &mut sink);
    assert!(
        matches!(outcome.status, QueryStatus::ProxyOutputFull { .. }),
        "{:?}",
        outcome.status
    );
    assert_eq!(sink.len(), 4);
    let needed = proxy_stack_capacity(nested.tree.depth(), 2, nested.tree.depth(), 2);
    let outcome = collide_proxies(&mut a, &mut b, 2, 2, &mut stack[..needed - 1], &mut sink);
    assert_eq!(
        outcome.status,
        QueryStatus::StackTooSmall {
            needed,
            given: needed - 1
        }
    );
}

#[test]
fn image_roundtrip_keeps_the_flag() {
    let mesh = icosphere(0.5, 1);
    let buf = nested_image::<f64>(&mesh, None);
    let image: Image<'_, f64> = buf.parse().expect("parse");
    assert_eq!(image.header.flags, FLAG_NESTED);
    assert!(image.tree.is_nested());
}
