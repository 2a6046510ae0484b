//! Contact response: penalty forces along the center line, equal and opposite; torques about
//! the body origins; generalized reduced forces equal to `Ūᵀ Rᵀ f` computed independently in
//! f64 — and, by virtual work, to the derivative of `f · p_node(q)` along each mode.
#![allow(clippy::needless_range_loop)] // x, y, z index loops read clearer here

use bdtree_core::world::response::{
    apply_at_triangle, penalty, respond, respond_contact, respond_mut, Wrench, WrenchMut,
};
use bdtree_core::{
    collide_contacts, collide_proxies, proxy_stack_capacity, stack_capacity, ContactPoint, Pose,
    ProxyPair, QueryStatus,
};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io;
use bdtree_std::io::ImageBuf;
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

/// A body's totals (world force, torque, generalized force on `q`), written through a wrench
/// sized at run time.
struct Totals {
    force: [f64; 3],
    torque: [f64; 3],
    q: Vec<f64>,
}

impl Totals {
    /// Zero totals for `modes` modes.
    fn new(modes: usize) -> Self {
        Totals {
            force: [0.0; 3],
            torque: [0.0; 3],
            q: vec![0.0; modes],
        }
    }

    fn wrench(&mut self) -> WrenchMut<'_, f64> {
        WrenchMut {
            force: &mut self.force,
            torque: &mut self.torque,
            q: &mut self.q,
        }
    }
}

/// The two modal bodies of the response tests, built in f64 with nested trees: a ball (4
/// modes) and a torus (3 modes).
fn ball_and_torus() -> [ImageBuf; 2] {
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
    [(ma, ba), (mb, bb)].map(|(mesh, basis)| {
        build(&mesh, Some(&basis), options, &mut |_| {})
            .expect("build")
            .0
    })
}

#[test]
fn proxy_contacts_give_balanced_forces_and_the_virtual_work_of_each_mode() {
    let mut rng = Rng::new(0xBD7_0601);
    let [ia, ib] = ball_and_torus();
    let (ia, ib) = (ia.parse::<f64>().expect("a"), ib.parse::<f64>().expect("b"));
    let mut ca = BodyStorage::new(ia.tree.node_count());
    let mut cb = BodyStorage::new(ib.tree.node_count());
    let mut a = ca.body(&ia).expect("a");
    let mut b = cb.body(&ib).expect("b");
    let mut checked = 0;
    for _ in 0..10 {
        let qa: Vec<f64> = (0..4).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let qb: Vec<f64> = (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let pa = io::Pose {
            rotation: rng.rotation(),
            translation: [0.0, 0.0, 0.0],
        };
        let pb = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| rng.uniform(-0.5, 0.5)),
        };
        let pose = |p: &io::Pose| Pose::from_quaternion(p.rotation, p.translation).expect("pose");
        a.set_state(pose(&pa), &qa).expect("a");
        b.set_state(pose(&pb), &qb).expect("b");
        let mut stack =
            vec![[0u32; 2]; proxy_stack_capacity(ia.tree.depth(), 4, ib.tree.depth(), 4)];
        let mut pairs: Vec<ProxyPair<f64>> = Vec::new();
        let outcome = collide_proxies(&mut a, &mut b, 4, 4, &mut stack, &mut |p| {
            pairs.push(p);
            true
        });
        assert_eq!(outcome.status, QueryStatus::Complete);
        let (mut wa, mut wb) = (Wrench::<f64, 8>::ZERO, Wrench::<f64, 8>::ZERO);
        let k = 250.0;
        let mut expected_qa = [0.0f64; 4];
        for p in &pairs {
            let before = wb;
            let Some(c) = respond(&a, &b, p, k, &mut wa, &mut wb) else {
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
            let r = io::Pose {
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

/// A body's basis block `U_v` (3 × M) of vertex `v`, from the basis array.
fn basis_rows(basis: &bdtree_std::io::Basis, v: usize) -> Vec<[f64; 3]> {
    (0..basis.modes)
        .map(|j| [0, 1, 2].map(|k| basis.data[(3 * v + k) * basis.modes + j]))
        .collect()
}

#[test]
fn a_force_on_a_triangle_does_the_virtual_work_of_its_point_in_a_wrench_sized_at_run_time() {
    let mut rng = Rng::new(0xBD7_0602);
    let mesh = icosphere(0.5, 2);
    let basis = smooth_basis(&mesh.vertices, 5, 0.1);
    let options = BuildOptions {
        precision: Precision::F64,
        ..BuildOptions::default()
    };
    let image = build(&mesh, Some(&basis), options, &mut |_| {})
        .expect("build")
        .0;
    let image = image.parse::<f64>().expect("parse");
    let mut storage = BodyStorage::for_image(&image);
    let mut body = storage.body(&image).expect("body");
    let mut checked = 0;
    for _ in 0..20 {
        let q: Vec<f64> = (0..5).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| rng.uniform(-2.0, 2.0)),
        };
        body.set_state(
            Pose::from_quaternion(pose.rotation, pose.translation).expect("pose"),
            &q,
        )
        .expect("state");
        let world = oracle::deform(&mesh.vertices, Some(&basis), &q, &pose);
        let t = rng.below(mesh.triangles.len());
        let face = mesh.triangles[t];
        // Points with known barycentric weights: a vertex, an edge's middle, the centroid.
        let weights = [
            [1.0, 0.0, 0.0],
            [0.0, 0.5, 0.5],
            [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0],
        ];
        for w in weights {
            let point: [f64; 3] =
                std::array::from_fn(|k| (0..3).map(|i| w[i] * world[face[i] as usize][k]).sum());
            let force = [0, 1, 2].map(|_| rng.uniform(-3.0, 3.0));
            let mut total = Totals::new(5);
            apply_at_triangle(&body, t, point, force, total.wrench()).expect("applied");
            // Rᵀ f, then Σ_i w_i U_iᵀ (Rᵀ f), independently in f64.
            let r = pose.matrix();
            let local = [0, 1, 2].map(|k| (0..3).map(|i| r[i][k] * force[i]).sum::<f64>());
            for j in 0..5 {
                let expected: f64 = (0..3)
                    .map(|i| {
                        let u = basis_rows(&basis, face[i] as usize)[j];
                        w[i] * (u[0] * local[0] + u[1] * local[1] + u[2] * local[2])
                    })
                    .sum();
                assert!(
                    (total.q[j] - expected).abs() < 1e-9 * (1.0 + expected.abs()),
                    "mode {j}: {} vs {expected}",
                    total.q[j]
                );
            }
            let arm = [0, 1, 2].map(|k| point[k] - pose.translation[k]);
            let tau = [
                arm[1] * force[2] - arm[2] * force[1],
                arm[2] * force[0] - arm[0] * force[2],
                arm[0] * force[1] - arm[1] * force[0],
            ];
            for k in 0..3 {
                assert!(
                    (total.force[k] - force[k]).abs() < 1e-12
                        && (total.torque[k] - tau[k]).abs() < 1e-9
                );
            }
            checked += 1;
        }
        // A wrench shorter than the modes is refused and left as it was.
        let mut short = Totals::new(4);
        assert!(apply_at_triangle(&body, t, [0.0; 3], [1.0; 3], short.wrench()).is_none());
        assert!(short.force == [0.0; 3] && short.q.iter().all(|&x| x == 0.0));
    }
    assert_eq!(checked, 60);
}

#[test]
fn exact_contacts_push_apart_with_balanced_forces_and_the_old_api_still_answers() {
    let mut rng = Rng::new(0xBD7_0603);
    let [ia, ib] = ball_and_torus();
    let (ia, ib) = (ia.parse::<f64>().expect("a"), ib.parse::<f64>().expect("b"));
    let mut ca = BodyStorage::for_image(&ia);
    let mut cb = BodyStorage::for_image(&ib);
    let mut a = ca.body(&ia).expect("a");
    let mut b = cb.body(&ib).expect("b");
    let (mut contacts_seen, mut proxies_seen) = (0, 0);
    for _ in 0..10 {
        let qa: Vec<f64> = (0..4).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let qb: Vec<f64> = (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let tb = [0, 1, 2].map(|_| rng.uniform(-0.5, 0.5));
        a.set_state(
            Pose::from_quaternion(rng.rotation(), [0.0; 3]).expect("pose"),
            &qa,
        )
        .expect("a");
        b.set_state(
            Pose::from_quaternion(rng.rotation(), tb).expect("pose"),
            &qb,
        )
        .expect("b");
        let mut stack = vec![[0u32; 2]; stack_capacity(ia.tree.depth(), ib.tree.depth())];
        let mut found: Vec<ContactPoint<f64>> = Vec::new();
        let outcome = collide_contacts(&mut a, &mut b, &mut stack, &mut |c| {
            found.push(c);
            true
        });
        assert_eq!(outcome.status, QueryStatus::Complete);
        let (mut on_a, mut on_b) = (Totals::new(4), Totals::new(3));
        for c in &found {
            match respond_contact(&a, &b, c, 100.0, on_a.wrench(), on_b.wrench()) {
                Some(p) => {
                    contacts_seen += 1;
                    assert!(p.depth > 0.0);
                    // The force on b is k d n, along the contact's normal (a to b).
                    for k in 0..3 {
                        assert!((p.force[k] - 100.0 * p.depth * c.contact.normal[k]).abs() < 1e-9);
                    }
                }
                None => assert!(
                    c.contact.depth <= 0.0,
                    "a penetrating contact gave no force"
                ),
            }
        }
        for k in 0..3 {
            assert!(
                (on_a.force[k] + on_b.force[k]).abs() < 1e-9,
                "forces balance"
            );
        }
        // The old API (proxy pairs, compile-time M) and the new one give the same wrenches.
        let mut stack =
            vec![[0u32; 2]; proxy_stack_capacity(ia.tree.depth(), 3, ib.tree.depth(), 3)];
        let mut pairs: Vec<ProxyPair<f64>> = Vec::new();
        collide_proxies(&mut a, &mut b, 3, 3, &mut stack, &mut |p| {
            pairs.push(p);
            true
        });
        let (mut oa, mut ob) = (Wrench::<f64, 4>::ZERO, Wrench::<f64, 4>::ZERO);
        let (mut on_a, mut on_b) = (Totals::new(4), Totals::new(3));
        for p in &pairs {
            let old = respond(&a, &b, p, 50.0, &mut oa, &mut ob);
            let new = respond_mut(&a, &b, p, 50.0, on_a.wrench(), on_b.wrench());
            assert_eq!(old, new);
            proxies_seen += usize::from(new.is_some());
        }
        assert!(oa.force == on_a.force && oa.torque == on_a.torque && oa.q[..] == on_a.q[..]);
        assert!(ob.force == on_b.force && ob.torque == on_b.torque && ob.q[..3] == on_b.q[..]);
    }
    assert!(
        contacts_seen > 20 && proxies_seen > 20,
        "{contacts_seen} contacts, {proxies_seen} proxies"
    );
}
