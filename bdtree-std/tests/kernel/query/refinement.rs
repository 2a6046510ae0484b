//! The exact second stage of f32 answers (`bdtree_core::refine`): against brute force in f64 on
//! the source meshes deformed at the state the f32 bodies hold, nothing is missed, every pair it
//! keeps is within its stated bound (`4 (ε_a + ε_b)`, the bodies' `refine_error`s, plus f64
//! rounding), it only ever removes pairs, and on grazing scenes it removes the widened test's
//! extras. Float and 16-bit (quantized) models.

use bdtree_core::{
    collide_self, refine, refine_error, refine_self, self_stack_capacity, Body, Encoding, Image,
    Pose, TrianglePair,
};
use bdtree_std::build::{build, compact, BuildOptions, Precision};
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis, translate};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{collide_all, config, meshes, Rng};

fn f32_image(mesh: &Mesh, basis: &Basis, quantized: bool) -> ImageBuf {
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let buf = build(mesh, Some(basis), options, &mut |_| {})
        .expect("build")
        .0;
    if !quantized {
        return buf;
    }
    let source = buf.parse::<f32>().expect("source");
    compact(&source, Encoding::Float, None, true)
        .expect("compact")
        .0
}

/// A body's state as the f32 kernel holds it, and the same state widened to f64.
struct State {
    pose: Pose<f32>,
    q: Vec<f32>,
}

impl State {
    fn new(rotation: [f64; 4], translation: [f64; 3], q: &[f64]) -> Self {
        let pose = Pose::from_quaternion(rotation.map(|x| x as f32), translation.map(|x| x as f32))
            .expect("pose");
        Self {
            pose,
            q: q.iter().map(|&x| x as f32).collect(),
        }
    }

    /// The source mesh deformed at this state, in f64: `R (p + U q) + t` with the kernel's
    /// rotation matrix and `q`, widened.
    fn world(&self, mesh: &Mesh, basis: &Basis) -> Vec<[f64; 3]> {
        let m = basis.modes;
        let r = self.pose.rotation.map(|row| row.map(f64::from));
        let t = self.pose.translation.map(f64::from);
        mesh.vertices
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut x = *p;
                for (k, xk) in x.iter_mut().enumerate() {
                    for (j, &qj) in self.q.iter().enumerate() {
                        *xk += basis.data[(3 * i + k) * m + j] * f64::from(qj);
                    }
                }
                [0, 1, 2].map(|k| r[k][0] * x[0] + r[k][1] * x[1] + r[k][2] * x[2] + t[k])
            })
            .collect()
    }
}

fn body<'t, 'c>(
    image: &Image<'t, f32>,
    storage: &'c mut BodyStorage<f32>,
    state: &State,
) -> Body<'t, 'c, f32> {
    let mut body = storage.body(image).expect("body");
    body.set_state(state.pose, &state.q).expect("state");
    body
}

/// What the second stage did to one query's answer.
#[derive(Debug, Default)]
struct Outcome {
    truth: usize,
    widened_extras: usize,
    refined_extras: usize,
    farthest: f64,
}

/// Checks a refined answer against the truth: nothing missed, refined ⊆ widened, extras within
/// `bound`.
fn judge(
    widened: &[(u32, u32)],
    refined: &[(u32, u32)],
    truth: &[(u32, u32)],
    gap: impl Fn(u32, u32) -> f64,
    bound: f64,
) -> Result<Outcome, TestCaseError> {
    let missed: Vec<_> = truth
        .iter()
        .filter(|p| refined.binary_search(p).is_err())
        .collect();
    prop_assert!(missed.is_empty(), "refined answer misses {missed:?}");
    for p in refined {
        prop_assert!(
            widened.binary_search(p).is_ok(),
            "refine added {p:?}, which the query did not report"
        );
    }
    let mut outcome = Outcome {
        truth: truth.len(),
        widened_extras: widened.len() - truth.len(),
        ..Outcome::default()
    };
    for &(a, b) in refined.iter().filter(|p| truth.binary_search(p).is_err()) {
        let g = gap(a, b);
        prop_assert!(
            g <= bound,
            "refined pair ({a}, {b}) is {g:.3e} apart, over the bound {bound:.3e}"
        );
        outcome.refined_extras += 1;
        outcome.farthest = outcome.farthest.max(g);
    }
    Ok(outcome)
}

fn sorted(pairs: &[TrianglePair]) -> Vec<(u32, u32)> {
    let mut v: Vec<_> = pairs.iter().map(|p| (p.a, p.b)).collect();
    v.sort_unstable();
    v
}

type Side<'m> = (&'m Mesh, &'m Basis, State);

/// One pair query in f32, refined, against brute force at the f32 state.
fn check_pair(a: &Side<'_>, b: &Side<'_>, quantized: bool) -> Result<Outcome, TestCaseError> {
    let (buf_a, buf_b) = (
        f32_image(a.0, a.1, quantized),
        f32_image(b.0, b.1, quantized),
    );
    let (image_a, image_b) = (
        buf_a.parse::<f32>().expect("a"),
        buf_b.parse::<f32>().expect("b"),
    );
    prop_assert_eq!(image_a.model.is_quantized(), quantized);
    let mut storage_a = BodyStorage::new(image_a.tree.node_count());
    let mut storage_b = BodyStorage::new(image_b.tree.node_count());
    let mut body_a = body(&image_a, &mut storage_a, &a.2);
    let mut body_b = body(&image_b, &mut storage_b, &b.2);
    let depths = [image_a.tree.depth(), image_b.tree.depth()];
    let (outcome, mut found) = collide_all(&mut body_a, &mut body_b, depths);
    prop_assert!(outcome.status.is_complete());
    let widened = sorted(&found);
    let kept = refine(&body_a, &body_b, &mut found);
    let refined = sorted(&found[..kept]);

    let (world_a, world_b) = (a.2.world(a.0, a.1), b.2.world(b.0, b.1));
    let truth = oracle::brute_force_pairs(&world_a, &a.0.triangles, &world_b, &b.0.triangles);
    let w = world_a
        .iter()
        .chain(&world_b)
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()));
    let bound = 4.0 * (refine_error(&body_a) + refine_error(&body_b)) + 1e-13 * w;
    let tri = |world: &[[f64; 3]], mesh: &Mesh, t: u32| {
        mesh.triangles[t as usize].map(|v| world[v as usize])
    };
    let gap =
        |ta: u32, tb: u32| oracle::separation_gap(&tri(&world_a, a.0, ta), &tri(&world_b, b.0, tb));
    judge(&widened, &refined, &truth, gap, bound)
}

proptest! {
    #![proptest_config(config(32, 0xBD7_5E71))]

    #[test]
    fn refined_pairs_equal_brute_force_within_the_storage_rounding(
        ia in 0usize..5,
        ib in 0usize..5,
        modes_a in 0usize..=10,
        modes_b in 0usize..=10,
        amplitude in prop_oneof![Just(0.02), Just(0.2)],
        quantized in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let all = meshes();
        let (mesh_a, mesh_b) = (&all[ia], &all[ib]);
        let basis_a = smooth_basis(&mesh_a.vertices, modes_a, amplitude);
        let basis_b = smooth_basis(&mesh_b.vertices, modes_b, amplitude);
        let qa: Vec<f64> = (0..modes_a).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let qb: Vec<f64> = (0..modes_b).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let ta = [0, 1, 2].map(|_| rng.uniform(-0.2, 0.2));
        let tb = [0, 1, 2].map(|_| rng.uniform(-0.7, 0.7));
        let a = (mesh_a, &basis_a, State::new(rng.rotation(), ta, &qa));
        let b = (mesh_b, &basis_b, State::new(rng.rotation(), tb, &qb));
        check_pair(&a, &b, quantized)?;
    }
}

/// A floor and a deforming ball resting on it, many triangle pairs grazing: the widened f32
/// test reports near-touching extras, the refined answer (almost) none, all within the bound.
#[test]
fn grazing_extras_are_removed() {
    let floor = sheet(2.0, 2.0, 40, 40);
    let floor_basis = smooth_basis(&floor.vertices, 4, 0.01);
    let mut ball = icosphere(0.5, 4);
    translate(&mut ball, [0.0, 0.0, 0.5]);
    let ball_basis = smooth_basis(&ball.vertices, 6, 0.02);
    let mut rng = Rng::new(7);
    let (mut widened, mut refined, mut truth, mut farthest) = (0, 0, 0, 0.0f64);
    for depth in [1e-3, 1e-4, 1e-5, 0.0] {
        let qf: Vec<f64> = (0..4).map(|_| rng.uniform(-0.5, 0.5)).collect();
        let qb: Vec<f64> = (0..6).map(|_| rng.uniform(-0.5, 0.5)).collect();
        let a = (
            &floor,
            &floor_basis,
            State::new([1.0, 0.0, 0.0, 0.0], [0.0; 3], &qf),
        );
        let b = (
            &ball,
            &ball_basis,
            State::new([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -depth], &qb),
        );
        let o = check_pair(&a, &b, false).unwrap_or_else(|e| panic!("depth {depth}: {e}"));
        widened += o.widened_extras;
        refined += o.refined_extras;
        truth += o.truth;
        farthest = farthest.max(o.farthest);
    }
    eprintln!(
        "grazing: {truth} true pairs, widened f32 extras {widened}, refined {refined} \
         (farthest {farthest:.1e})"
    );
    assert!(truth > 0, "the ball should touch the floor");
    assert!(
        widened > 0,
        "the widened test should report grazing extras here"
    );
    assert!(
        100 * refined <= truth,
        "refined extras {refined} over 1 % of {truth} true pairs"
    );
}

/// Self-collision answers refined: nothing missed against brute force at the f32 state.
#[test]
fn refined_self_pairs_miss_nothing() {
    let mut rng = Rng::new(11);
    let mesh = sheet(1.0, 1.0, 12, 12);
    let basis = smooth_basis(&mesh.vertices, 6, 0.6);
    for _ in 0..8 {
        let q: Vec<f64> = (0..6).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let state = State::new(rng.rotation(), [0.0; 3], &q);
        let buf = f32_image(&mesh, &basis, false);
        let image = buf.parse::<f32>().expect("image");
        let mut storage = BodyStorage::new(image.tree.node_count());
        let mut b = body(&image, &mut storage, &state);
        let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
        let mut found = Vec::new();
        let outcome = collide_self(&mut b, &mut stack, &mut |p: TrianglePair| {
            found.push(p);
            true
        });
        assert!(outcome.status.is_complete());
        let widened = sorted(&found);
        let kept = refine_self(&b, &mut found);
        let refined = sorted(&found[..kept]);
        let world = state.world(&mesh, &basis);
        let truth = oracle::brute_force_self_pairs(&world, &mesh.triangles);
        let tri = |t: u32| mesh.triangles[t as usize].map(|v| world[v as usize]);
        let bound = 8.0 * refine_error(&b) + 1e-13;
        judge(
            &widened,
            &refined,
            &truth,
            |x, y| oracle::separation_gap(&tri(x), &tri(y)),
            bound,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
}
