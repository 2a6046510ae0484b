//! Proximity against the f64 brute force over every triangle pair: the nearest distance, its
//! witnesses and triangles, `closer_than` on both sides of the true distance, the root-sphere
//! lower bound — in f32 and f64.

use crate::support::{
    closer_than, config, image_in, nearest, set_state_f64, with_random_pair, Case,
};
use bdtree_core::query::separation::separation_lower_bound;
use bdtree_core::{stack_capacity, Pose, QueryStatus, Scalar};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::Mesh;
use bdtree_std::shapes::procedural::icosphere;
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

fn check<S: Scalar>(a: &Case<'_>, b: &Case<'_>) -> Result<f64, TestCaseError> {
    let (ba, bb) = (image_in::<S>(a.0, Some(a.1)), image_in::<S>(b.0, Some(b.1)));
    let (ia, ib) = (ba.parse::<S>().expect("a"), bb.parse::<S>().expect("b"));
    let mut ca = BodyStorage::new(ia.tree.node_count());
    let mut cb = BodyStorage::new(ib.tree.node_count());
    let mut body_a = ca.body(&ia).expect("a");
    let mut body_b = cb.body(&ib).expect("b");
    for (body, case) in [(&mut body_a, a), (&mut body_b, b)] {
        set_state_f64(body, &case.3, &case.2);
    }
    let wa = oracle::deform(&a.0.vertices, Some(a.1), &a.2, &a.3);
    let wb = oracle::deform(&b.0.vertices, Some(b.1), &b.2, &b.3);
    let (truth, _, _) =
        oracle::brute_force_distance(&wa, &a.0.triangles, &wb, &b.0.triangles).expect("triangles");
    let tolerance = 10.0 * (body_a.error() + body_b.error()).to_f64();

    let lower = separation_lower_bound(&mut body_a, &mut body_b)
        .expect("roots")
        .to_f64();
    prop_assert!(
        lower <= truth + tolerance,
        "lower bound {lower} above the distance {truth}"
    );

    let mut stack = vec![[0u32; 2]; stack_capacity(ia.tree.depth(), ib.tree.depth())];
    let outcome = nearest(&mut body_a, &mut body_b, &mut stack);
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let n = outcome.nearest.expect("answer");
    let d = n.distance.to_f64();
    prop_assert!(
        (d - truth).abs() <= tolerance,
        "{}: distance {d}, brute force {truth}",
        S::NAME
    );
    if truth > tolerance {
        prop_assert!(!n.intersecting);
        // Witnesses lie on the reported triangles, as far apart as the distance, along the normal.
        let tri = |w: &[[f64; 3]], m: &Mesh, t: u32| m.triangles[t as usize].map(|v| w[v as usize]);
        let (pa, pb) = (n.point_a.map(|x| x.to_f64()), n.point_b.map(|x| x.to_f64()));
        let on = |p: [f64; 3], t: [[f64; 3]; 3]| oracle::triangle_distance(&[p, p, p], &t).0;
        prop_assert!(on(pa, tri(&wa, a.0, n.triangle_a)) <= tolerance);
        prop_assert!(on(pb, tri(&wb, b.0, n.triangle_b)) <= tolerance);
        let gap = [0, 1, 2].map(|k| pb[k] - pa[k]);
        let len = (gap[0] * gap[0] + gap[1] * gap[1] + gap[2] * gap[2]).sqrt();
        prop_assert!((len - d).abs() <= tolerance);
        let along: f64 = (0..3).map(|k| gap[k] * n.normal[k].to_f64()).sum();
        prop_assert!(
            (along - len).abs() <= tolerance,
            "normal from body 1 to body 2"
        );
    } else {
        prop_assert!(d <= tolerance);
    }
    for factor in [0.5, 0.9, 1.1, 2.0] {
        let limit = truth * factor;
        let (answer, _) = closer_than(
            &mut body_a,
            &mut body_b,
            S::from_f64(limit),
            S::ZERO,
            &mut stack,
        );
        let answer = answer.expect("complete");
        if truth <= limit {
            prop_assert!(answer, "{}: {truth} is within {limit}", S::NAME);
        } else if truth > limit + 2.0 * tolerance {
            prop_assert!(!answer, "{}: {truth} is beyond {limit}", S::NAME);
        }
    }
    Ok(truth)
}

proptest! {
    #![proptest_config(config(24, 0xBD7_0B01))]

    #[test]
    fn nearest_and_closer_than_equal_brute_force(
        ia in 0usize..5,
        ib in 0usize..5,
        modes in 0usize..=4,
        reach in prop_oneof![Just(0.3), Just(1.2), Just(2.5)],
        seed in any::<u64>(),
    ) {
        with_random_pair((ia, ib), modes, (reach, 0.3), seed, |a, b| {
            check::<f32>(a, b)?;
            check::<f64>(a, b)
        })?;
    }
}

#[test]
fn a_short_stack_is_reported() {
    let mesh = icosphere(0.4, 1);
    let buf = build(&mesh, None, BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    let im = buf.parse::<f32>().expect("image");
    let (mut c0, mut c1) = (
        BodyStorage::new(im.tree.node_count()),
        BodyStorage::new(im.tree.node_count()),
    );
    let mut a = c0.body(&im).expect("a");
    let mut b = c1.body(&im).expect("b");
    let mut stack = [[0u32; 2]; 2];
    assert!(matches!(
        nearest(&mut a, &mut b, &mut stack).status,
        QueryStatus::StackTooSmall { .. }
    ));
    assert_eq!(closer_than(&mut a, &mut b, 1.0, 0.0, &mut stack).0, None);
}

/// `closer_than` read the root pair's spheres from the cache without computing them for the
/// current state: after a state change (a new pose, or the same state at another floating
/// origin), the previous state's root spheres could skip the whole search and answer "not
/// closer" for bodies in contact (found through the host's `closer_than`, issue 39).
#[test]
fn closer_than_after_a_state_change_reads_this_states_roots_issue_39() {
    let mesh = icosphere(0.5, 2);
    for precision in [Precision::F32, Precision::F64] {
        let options = BuildOptions {
            precision,
            ..BuildOptions::default()
        };
        let buf = build(&mesh, None, options, &mut |_| {}).expect("build").0;
        macro_rules! run {
            ($s:ty) => {{
                let im = buf.parse::<$s>().expect("image");
                let (mut c0, mut c1) = (
                    BodyStorage::new(im.tree.node_count()),
                    BodyStorage::new(im.tree.node_count()),
                );
                let mut a = c0.body(&im).expect("a");
                let mut b = c1.body(&im).expect("b");
                let mut stack = vec![[0u32; 2]; stack_capacity(im.tree.depth(), im.tree.depth())];
                let at = |x: f64| Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [x as $s, 0.0, 0.0]);
                // Far apart: not closer than 0.1 (and every root sphere cached there).
                a.set_state(at(0.0).expect("pose"), &[]).expect("a");
                b.set_state(at(5.0).expect("pose"), &[]).expect("b");
                assert_eq!(
                    closer_than(&mut a, &mut b, 0.1, 0.0, &mut stack).0,
                    Some(false)
                );
                // Then touching, by a new pose of b and by the same states at another origin.
                b.set_state(at(0.9).expect("pose"), &[]).expect("b");
                assert_eq!(
                    closer_than(&mut a, &mut b, 0.0, 0.0, &mut stack).0,
                    Some(true)
                );
                b.set_state(at(5.0).expect("pose"), &[]).expect("b");
                assert_eq!(
                    closer_than(&mut a, &mut b, 0.1, 0.0, &mut stack).0,
                    Some(false)
                );
                let q: [f64; 0] = [];
                a.set_state_f64(
                    [1.0, 0.0, 0.0, 0.0],
                    [100.0, 0.0, 0.0],
                    &q,
                    [100.0, 0.0, 0.0],
                )
                .expect("a");
                b.set_state_f64(
                    [1.0, 0.0, 0.0, 0.0],
                    [100.9, 0.0, 0.0],
                    &q,
                    [100.0, 0.0, 0.0],
                )
                .expect("b");
                assert_eq!(
                    closer_than(&mut a, &mut b, 0.0, 0.0, &mut stack).0,
                    Some(true)
                );
            }};
        }
        match precision {
            Precision::F32 => run!(f32),
            Precision::F64 => run!(f64),
        }
    }
}
