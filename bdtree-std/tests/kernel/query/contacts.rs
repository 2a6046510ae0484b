//! Contact data and `within` against the f64 brute force over every triangle pair, in f32 and
//! f64: every intersecting pair has a contact, its point lies on both triangles within the
//! documented tolerance, its normal is unit and its depth is the pair's penetration depth
//! (the least distance from the origin to a facet of the Minkowski difference, found by
//! brute force over all triples of its nine points); `within` reports exactly the pairs the
//! brute-force distance puts within the distance (up to the documented `2T`).

use bdtree_core::{
    collide_contacts, contact_tolerance, stack_capacity, within, ContactPoint, NearPair,
    QueryStatus, Scalar,
};
use bdtree_std::io;
use bdtree_std::oracle;
use bdtree_std::shapes::procedural::smooth_basis;
use bdtree_std::BodyStorage;
use proptest::prelude::*;
use std::collections::BTreeSet;

use crate::support::triangles::{dot, penetration_depth, point_distance, sub, Tri, V};
use crate::support::{
    config, image_in, set_state_rounded, small_meshes, with_random_pair, Case, Rng,
};

/// How far `b` must move along unit `n` for the projections onto `n` to separate.
fn overlap_along(a: &Tri, b: &Tri, n: V) -> f64 {
    let max_a = a
        .iter()
        .map(|&x| dot(n, x))
        .fold(f64::NEG_INFINITY, f64::max);
    let min_b = b.iter().map(|&x| dot(n, x)).fold(f64::INFINITY, f64::min);
    max_a - min_b
}

/// Counts of what one case checked: (intersecting pairs, pairs within the largest distance).
fn check<S: Scalar>(
    a: &Case<'_>,
    b: &Case<'_>,
    distances: &[f64],
) -> Result<(usize, usize), TestCaseError> {
    let (ba, bb) = (image_in::<S>(a.0, Some(a.1)), image_in::<S>(b.0, Some(b.1)));
    let (ia, ib) = (ba.parse::<S>().expect("a"), bb.parse::<S>().expect("b"));
    let mut ca = BodyStorage::new(ia.tree.node_count());
    let mut cb = BodyStorage::new(ib.tree.node_count());
    let mut body_a = ca.body(&ia).expect("a");
    let mut body_b = cb.body(&ib).expect("b");
    // The oracle deforms the model the image stores, with the state the kernel is given
    // (rounded to S), so the only difference left is the kernel's rounding.
    let mut world = Vec::new();
    for (body, case, image) in [(&mut body_a, a, &ia), (&mut body_b, b, &ib)] {
        world.push(set_state_rounded(body, image, &case.3, &case.2));
    }
    let (ma, wa) = &world[0];
    let (mb, wb) = &world[1];
    let tri_a = |t: u32| ma.triangles[t as usize].map(|v| wa[v as usize]);
    let tri_b = |t: u32| mb.triangles[t as usize].map(|v| wb[v as usize]);
    let error_s = body_a.error() + body_b.error();
    let error = error_s.to_f64();
    let root3 = 3f64.sqrt();
    let u = S::UNIT_ROUNDOFF.to_f64();
    // The oracle's own plain-f64 feature distances carry a few ulps of the coordinates.
    let oracle_slack = 1e-13
        * (1.0
            + wa.iter()
                .chain(wb)
                .flatten()
                .fold(0f64, |m, x| m.max(x.abs())));
    let mut stack = vec![[0u32; 2]; stack_capacity(ia.tree.depth(), ib.tree.depth())];

    // Contacts.
    let truth: BTreeSet<(u32, u32)> =
        oracle::brute_force_pairs(wa, &ma.triangles, wb, &mb.triangles)
            .into_iter()
            .collect();
    let mut contacts: Vec<ContactPoint<S>> = Vec::new();
    let outcome = collide_contacts(&mut body_a, &mut body_b, &mut stack, &mut |c| {
        contacts.push(c);
        true
    });
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let found: BTreeSet<(u32, u32)> = contacts.iter().map(|c| (c.a, c.b)).collect();
    prop_assert_eq!(found.len(), contacts.len(), "a pair reported twice");
    for pair in &truth {
        prop_assert!(
            found.contains(pair),
            "{}: intersecting pair {pair:?} has no contact",
            S::NAME
        );
    }
    for c in &contacts {
        let (ka, kb) = (
            body_a.world_triangle(c.a as usize).expect("a"),
            body_b.world_triangle(c.b as usize).expect("b"),
        );
        let t = contact_tolerance(&ka, &kb, error_s).to_f64();
        let (ta, tb) = (tri_a(c.a), tri_b(c.b));
        let intersecting = truth.contains(&(c.a, c.b));
        if !intersecting {
            let gap = oracle::triangle_distance(&ta, &tb).0;
            prop_assert!(
                gap <= 2.0 * t + 2.0 * root3 * error + oracle_slack,
                "{}: pair {:?} reported {gap} apart (2T = {})",
                S::NAME,
                (c.a, c.b),
                2.0 * t
            );
        }
        let point = c.contact.point.map(|x| x.to_f64());
        let limit = t + root3 * error + oracle_slack;
        let (da, db) = (point_distance(point, &ta), point_distance(point, &tb));
        prop_assert!(
            da <= limit && db <= limit,
            "{}: contact point {da}, {db} from its triangles (T = {t})",
            S::NAME
        );
        let n = c.contact.normal.map(|x| x.to_f64());
        prop_assert!(
            (dot(n, n) - 1.0).abs() <= 16.0 * u,
            "{}: normal {n:?} not unit",
            S::NAME
        );
        let depth = c.contact.depth.to_f64();
        // The overlap along the reported normal is the reported depth (up to the vertices'
        // rounding, 2√3 δ, and the projections' own): moving b by it separates the pair.
        let along = overlap_along(&ta, &tb, n);
        prop_assert!(
            (along - depth).abs() <= t + oracle_slack,
            "{}: depth {depth}, overlap along its normal {along}",
            S::NAME
        );
        if intersecting {
            let pd = penetration_depth(&ta, &tb);
            prop_assert!(
                (depth - pd).abs() <= t + oracle_slack,
                "{}: pair {:?} depth {depth}, brute force {pd} (T = {t})",
                S::NAME,
                (c.a, c.b)
            );
            let shift = (depth + t + oracle_slack) * (1.0 + 1e-9) + 1e-300;
            let moved = tb.map(|x| [0, 1, 2].map(|k| x[k] + shift * n[k]));
            prop_assert!(
                !oracle::triangles_intersect(&ta, &moved),
                "{}: moving by depth + T along the normal does not separate",
                S::NAME
            );
        } else {
            prop_assert!(depth <= t, "{}: touching pair {depth} deep", S::NAME);
        }
    }

    // Within.
    let mut all = Vec::new();
    for i in 0..ma.triangles.len() as u32 {
        for j in 0..mb.triangles.len() as u32 {
            all.push((i, j, oracle::triangle_distance(&tri_a(i), &tri_b(j)).0));
        }
    }
    let mut near_count = 0;
    for &d in distances {
        let mut near: Vec<NearPair<S>> = Vec::new();
        let outcome = within(
            &mut body_a,
            &mut body_b,
            S::from_f64(d),
            &mut stack,
            &mut |p| {
                near.push(p);
                true
            },
        );
        prop_assert_eq!(outcome.status, QueryStatus::Complete);
        let reported: BTreeSet<(u32, u32)> = near.iter().map(|p| (p.a, p.b)).collect();
        prop_assert_eq!(reported.len(), near.len(), "a pair reported twice");
        let d_s = S::from_f64(d).to_f64();
        for &(i, j, gap) in &all {
            if gap <= d_s {
                prop_assert!(
                    reported.contains(&(i, j)),
                    "{}: pair {:?} {gap} apart missing from within({d})",
                    S::NAME,
                    (i, j)
                );
            }
        }
        for p in &near {
            let (ka, kb) = (
                body_a.world_triangle(p.a as usize).expect("a"),
                body_b.world_triangle(p.b as usize).expect("b"),
            );
            let t = contact_tolerance(&ka, &kb, error_s).to_f64();
            let (ta, tb) = (tri_a(p.a), tri_b(p.b));
            let gap = oracle::triangle_distance(&ta, &tb).0;
            let distance = p.distance.to_f64();
            prop_assert!(
                gap <= d_s + 2.0 * t + oracle_slack,
                "{}: pair {:?} {gap} apart reported within {d}",
                S::NAME,
                (p.a, p.b)
            );
            prop_assert!(
                (distance - gap).abs() <= t + oracle_slack,
                "{}: distance {distance}, brute force {gap}",
                S::NAME
            );
            let (pa, pb) = (p.point_a.map(|x| x.to_f64()), p.point_b.map(|x| x.to_f64()));
            let limit = t + root3 * error + oracle_slack;
            prop_assert!(
                point_distance(pa, &ta) <= limit,
                "{}: witness off its triangle",
                S::NAME
            );
            prop_assert!(
                point_distance(pb, &tb) <= limit,
                "{}: witness off its triangle",
                S::NAME
            );
            let apart = dot(sub(pa, pb), sub(pa, pb)).sqrt();
            prop_assert!(
                (apart - distance).abs() <= t + oracle_slack,
                "{}: witnesses {apart} apart, distance {distance}",
                S::NAME
            );
        }
        near_count = near_count.max(near.len());
    }
    Ok((truth.len(), near_count))
}

proptest! {
    #![proptest_config(config(24, 0xBD7_C0A7))]

    #[test]
    fn contacts_and_within_equal_brute_force(
        ia in 0usize..5,
        ib in 0usize..5,
        modes in 0usize..=4,
        reach in prop_oneof![Just(0.1), Just(0.3), Just(0.6)],
        seed in any::<u64>(),
    ) {
        with_random_pair((ia, ib), modes, (reach, 0.2), seed, |a, b| {
            check::<f32>(a, b, &[0.0, 0.02, 0.1])?;
            check::<f64>(a, b, &[0.0, 0.02, 0.1])
        })?;
    }
}

/// The cases above are not vacuous: most intersect, and `within` finds more than `collide`.
#[test]
fn the_cases_intersect() {
    let all = small_meshes();
    let mut rng = Rng::new(7);
    let (mut hits, mut near) = (0, 0);
    for k in 0..5 {
        let (ma, mb) = (&all[k], &all[(k + 1) % 5]);
        let (ba, bb) = (
            smooth_basis(&ma.vertices, 2, 0.1),
            smooth_basis(&mb.vertices, 2, 0.1),
        );
        let a: Case<'_> = (ma, &ba, vec![0.5, -0.5], io::Pose::IDENTITY);
        let b: Case<'_> = (
            mb,
            &bb,
            vec![-0.3, 0.8],
            io::Pose {
                rotation: rng.rotation(),
                translation: [0.2, 0.05, 0.0],
            },
        );
        let (h, n) = check::<f64>(&a, &b, &[0.05]).expect("check");
        hits += usize::from(h > 0);
        near += usize::from(n > h);
    }
    assert!(hits >= 4, "{hits} of 5 cases intersect");
    assert!(
        near >= 4,
        "{near} of 5 cases have near pairs beyond the intersecting ones"
    );
}
