//! Contact response: penalty forces along the center line, equal and opposite; torques about
//! the body origins; generalized reduced forces equal to `Ūᵀ Rᵀ f` computed independently in
//! f64 — and, by virtual work, to the derivative of `f · p_node(q)` along each mode.
#![allow(clippy::needless_range_loop)] // x, y, z index loops read clearer here

use bdtree_core::response::{penalty, respond, Wrench};
use bdtree_core::{collide_proxies, proxy_stack_capacity, Pose, ProxyPair, QueryStatus};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, torus};
use bdtree_std::{oracle, BodyStorage};

use crate::support::Rng;

#[test]
fn penalty_pushes_b_away_from_a_at_the_middle_of_the_overlap() {
    let c = penalty([0.0f64, 0.0, 0.0, 1.0], [1.5, 0.0, 0.0, 1.0], 10.0).expect("overlap");
    assert_eq!(c.normal, [1.0, 0.0, 0.0]);
    assert!((c.depth - 0.5).abs() < 1e-15);
    assert!((c.point[0] - 0.75).abs() < 1e-15);
    assert!((c.force[0] - 5.0).abs() < 1e-14 && c.force[1] == 0.0);
    assert!(penalty([0.0f64, 0.0, 0.0, 1.0], [2.5, 0.0, 0.0, 1.0], 10.0).is_none());
    assert!(penalty([0.0f64, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0], 10.0).is_none());
}

#[test]
fn proxy_contacts_give_balanced_forces_and_the_virtual_work_of_each_mode() {
    let mut rng = Rng::new(0xBD7_0601);
    let (ma, mb) = (icosphere(0.5, 2), torus(0.5, 0.15, 18, 8));
    let (ba, bb) = (
        smooth_basis(&ma.vertices, 4, 0.1),
        smooth_basis(&mb.vertices, 3, 0.1),
    );
    let options = BuildOptions {
        precision: Precision::F64,
        nested: true,
        ..BuildOptions::default()
    };
    let ia = build(&ma, Some(&ba), options, &mut |_| {}).expect("a").0;
    let ib = build(&mb, Some(&bb), options, &mut |_| {}).expect("b").0;
    let (ia, ib) = (ia.parse::<f64>().expect("a"), ib.parse::<f64>().expect("b"));
    let mut ca = BodyStorage::new(ia.tree.node_count());
    let mut cb = BodyStorage::new(ib.tree.node_count());
    let mut a = ca.body(&ia).expect("a");
    let mut b = cb.body(&ib).expect("b");
    let mut checked = 0;
    for _ in 0..10 {
        let qa: Vec<f64> = (0..4).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let qb: Vec<f64> = (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let pa = oracle::Pose {
            rotation: rng.rotation(),
            translation: [0.0, 0.0, 0.0],
        };
        let pb = oracle::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| rng.uniform(-0.5, 0.5)),
        };
        let pose =
            |p: &oracle::Pose| Pose::from_quaternion(p.rotation, p.translation).expect("pose");
        a.set_state(pose(&pa), &qa).expect("a");
        b.set_state(pose(&pb), &qb).expect("b");
        let mut stack =
            vec![[0u32; 2]; proxy_stack_capacity(ia.tree.depth(), 4, ib.tree.depth(), 4)];
        let mut pairs: Vec<ProxyPair<f64>> = Vec::new();
        let outcome = collide_proxies(&mut a, 4, &mut b, 4, &mut stack, &mut |p| {
            pairs.push(p);
            true
        });
        assert_eq!(outcome.status, QueryStatus::Complete);
        let (mut wa, mut wb) = (Wrench::<f64, 8>::ZERO, Wrench::<f64, 8>::ZERO);
        let k = 250.0;
        let mut expected_qa = [0.0f64; 4];
        for p in &pairs {
            let before = wb;
            let Some(c) = respond(p, k, &a, &b, &mut wa, &mut wb) else {
                continue;
            };
            checked += 1;
            // The force is k d n with n from a's center to b's.
            let n = [0, 1, 2].map(|i| p.sphere_b[i] - p.sphere_a[i]);
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            for i in 0..3 {
                assert!((c.force[i] - k * c.depth * n[i] / len).abs() < 1e-9);
            }
            // Virtual work on a, independently: d/dq_j of (−f) · (R (c + Ū q) + t) for the node
            // center, by central differences of the world center computed in f64.
            let rows = ia.tree.record(p.a as usize).expect("record");
            let r = oracle::Pose {
                rotation: pa.rotation,
                translation: pa.translation,
            };
            for (j, slot) in expected_qa.iter_mut().enumerate() {
                let center = |dq: f64| {
                    let local = [0, 1, 2].map(|i| {
                        rows[0][i]
                            + (0..4)
                                .map(|m| rows[m + 1][i] * (qa[m] + if m == j { dq } else { 0.0 }))
                                .sum::<f64>()
                    });
                    r.apply(local)
                };
                let (hi, lo) = (center(1e-6), center(-1e-6));
                let work: f64 = (0..3).map(|i| -c.force[i] * (hi[i] - lo[i]) / 2e-6).sum();
                *slot += work;
            }
            // Torque increment on b about its origin.
            let arm = [0, 1, 2].map(|i| c.point[i] - pb.translation[i]);
            let f = c.force;
            let tau = [
                arm[1] * f[2] - arm[2] * f[1],
                arm[2] * f[0] - arm[0] * f[2],
                arm[0] * f[1] - arm[1] * f[0],
            ];
            for i in 0..3 {
                assert!((wb.torque[i] - before.torque[i] - tau[i]).abs() < 1e-9);
            }
        }
        for i in 0..3 {
            assert!((wa.force[i] + wb.force[i]).abs() < 1e-9, "forces balance");
        }
        for j in 0..4 {
            let scale = 1.0 + expected_qa[j].abs();
            assert!(
                (wa.q[j] - expected_qa[j]).abs() < 1e-6 * scale,
                "mode {j}: {} vs virtual work {}",
                wa.q[j],
                expected_qa[j]
            );
        }
        assert!(
            wa.q[4..].iter().all(|&x| x == 0.0),
            "unused modes stay zero"
        );
    }
    assert!(checked > 20, "too few contacts to mean anything: {checked}");
}
