//! The contact Jacobian ([`host::contact_jacobians`]) against central finite differences of
//! the depth [`host::contacts`] reports, on random f64 (and f32) scenes: unit bodies, and
//! millimetre parts, near the origin and kilometres away, smooth and rough bases.

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::host::{self, Body, Tree};
use bdtree_std::rng::Rng;
use bdtree_std::shapes::procedural::{blob, icosphere, smooth_basis, torus};

use crate::support::{rough_basis, scaled};

/// The largest relative error of a row pair against its finite differences
/// (`‖J − FD‖ / ‖FD‖`, both bodies' rows together) where the derivative exists.
const RELATIVE: f64 = 1e-3;
/// The finite-difference step in q, relative to the scene's q amplitude: the vertices move
/// about 10⁻⁶ of a body's size.
const STEP: f64 = 1e-6;

/// One random body pair of one scene: two modal bodies (3 or 4 modes each) of size `size`,
/// interpenetrating by 5–40 % of their size, the pair at `far` from the origin.
struct Pair {
    a: Body,
    b: Body,
    poses: [([f64; 4], [f64; 3]); 2],
    q: [Vec<f64>; 2],
}

fn random_pair(rng: &mut Rng, precision: Precision, size: f64, far: f64) -> Pair {
    let meshes = [
        icosphere(0.5, 2),
        torus(0.5, 0.18, 16, 8),
        blob(0.5, 2, 5, rng.next_u64()),
    ];
    let mut bodies = Vec::new();
    for _ in 0..2 {
        let mesh = scaled(meshes[rng.below(meshes.len())].clone(), size);
        let modes = 3 + rng.below(2);
        let basis = if rng.below(2) == 0 {
            smooth_basis(&mesh.vertices, modes, 0.15 * size)
        } else {
            rough_basis(mesh.vertices.len(), modes, 0.02 * size, rng)
        };
        let options = BuildOptions {
            precision,
            ..BuildOptions::default()
        };
        let (tree, _) = Tree::build(&mesh, Some(&basis), options).expect("build");
        bodies.push((tree, modes));
    }
    let centre: [f64; 3] = rng.unit_vector().map(|x| x * far);
    let gap = size * rng.uniform(0.6, 0.95);
    let offset = rng.unit_vector().map(|x| x * gap);
    let poses = [
        (rng.rotation(), centre),
        (
            rng.rotation(),
            std::array::from_fn(|k| centre[k] + offset[k]),
        ),
    ];
    let q: [Vec<f64>; 2] =
        std::array::from_fn(|i| (0..bodies[i].1).map(|_| rng.uniform(-1.0, 1.0)).collect());
    let body = |i: usize| {
        let mut b = Body::new(&bodies[i].0).expect("body");
        b.set_state(poses[i].0, poses[i].1, &q[i]).expect("state");
        b
    };
    let (a, b) = (body(0), body(1));
    Pair { a, b, poses, q }
}

/// What the comparison found over many contacts.
#[derive(Default, Debug)]
struct Tally {
    compared: usize,
    switched: usize,
    touching: usize,
    worst: f64,
}

/// Compares every contact's rows of one pair with central differences of the reported depth,
/// one mode at a time; contacts whose features differ at `q ± h` (or that are gone there)
/// count as switched, those of depth 0 as touching.
fn compare(pair: &mut Pair, tally: &mut Tally) {
    let contacts = host::contacts(&mut pair.a, &mut pair.b)
        .expect("contacts")
        .items;
    let rows = host::contact_jacobians(&mut pair.a, &mut pair.b, &contacts).expect("rows");
    assert_eq!(rows.len(), contacts.len());
    // Per contact: finite differences of both rows, or None once its features switch.
    let mut fd: Vec<Option<Vec<f64>>> = vec![Some(Vec::new()); contacts.len()];
    for (side, modes) in [pair.q[0].len(), pair.q[1].len()].into_iter().enumerate() {
        for j in 0..modes {
            let mut depth_at = |h: f64| {
                let mut q = pair.q[side].clone();
                q[j] += h;
                let (rotation, translation) = pair.poses[side];
                let body = if side == 0 { &mut pair.a } else { &mut pair.b };
                body.set_state(rotation, translation, &q).expect("state");
                let found = host::contacts(&mut pair.a, &mut pair.b)
                    .expect("contacts")
                    .items;
                let rows = host::contact_jacobians(&mut pair.a, &mut pair.b, &found).expect("rows");
                let body = if side == 0 { &mut pair.a } else { &mut pair.b };
                body.set_state(rotation, translation, &pair.q[side])
                    .expect("state");
                (found, rows)
            };
            let (plus, rows_plus) = depth_at(STEP);
            let (minus, rows_minus) = depth_at(-STEP);
            for (k, c) in contacts.iter().enumerate() {
                let Some(entries) = fd[k].as_mut() else {
                    continue;
                };
                let at = |found: &[host::Contact]| {
                    found
                        .binary_search_by_key(&c.triangles, |f| f.triangles)
                        .ok()
                };
                let same = |found: &[host::Contact], rows: &[host::ContactJacobian]| {
                    at(found).filter(|&i| rows[i].features == rows[k].features)
                };
                match (same(&plus, &rows_plus), same(&minus, &rows_minus)) {
                    (Some(p), Some(m)) => {
                        entries.push((plus[p].depth - minus[m].depth) / (2.0 * STEP));
                    }
                    _ => fd[k] = None,
                }
            }
        }
    }
    for ((c, row), fd) in contacts.iter().zip(&rows).zip(&fd) {
        if c.depth <= 0.0 {
            tally.touching += 1;
            continue;
        }
        let Some(fd) = fd else {
            tally.switched += 1;
            continue;
        };
        assert!(
            row.features.is_some(),
            "a contact of depth {} has no axis",
            c.depth
        );
        let j: Vec<f64> = row.a.iter().chain(&row.b).copied().collect();
        let diff = j.iter().zip(fd).map(|(x, y)| (x - y).powi(2)).sum::<f64>();
        let scale = fd.iter().map(|y| y * y).sum::<f64>();
        let relative = (diff / scale).sqrt();
        assert!(
            relative <= RELATIVE,
            "contact {:?} (depth {:e}, {:?}): rows {j:?} against finite differences {fd:?}: \
             relative error {relative:e}",
            c.triangles,
            c.depth,
            row.features
        );
        tally.worst = tally.worst.max(relative);
        tally.compared += 1;
    }
}

#[test]
fn the_contact_jacobian_is_the_derivative_of_the_reported_depth() {
    let mut rng = Rng::new(0x1AC0_B1A5);
    let mut tallies = Vec::new();
    for precision in [Precision::F64, Precision::F32] {
        let mut tally = Tally::default();
        // f64: 120 scenes; f32 (its depths measured again in f64): 30.
        let scenes = if precision == Precision::F64 { 120 } else { 30 };
        for s in 0..scenes {
            // Unit bodies and millimetre parts, at the origin, 1 km and 100 km away.
            let size = [1.0, 2e-3][s % 2];
            let far = [0.0, 1e3, 1e5][(s / 2) % 3];
            let mut pair = random_pair(&mut rng, precision, size, far);
            compare(&mut pair, &mut tally);
        }
        println!(
            "{precision:?}: {} contacts compared (worst relative error {:.2e}), {} skipped at a \
             feature switch, {} of depth 0",
            tally.compared, tally.worst, tally.switched, tally.touching
        );
        tallies.push((precision, tally));
    }
    let [(_, f64s), (_, f32s)] = &tallies[..] else {
        unreachable!("two precisions");
    };
    // Thousands compared in f64, and switches rare: the test is not vacuous.
    assert!(f64s.compared >= 2000, "{f64s:?}");
    assert!(f32s.compared >= 300, "{f32s:?}");
    assert!(f64s.switched * 20 <= f64s.compared, "{f64s:?}");
}

#[test]
fn the_old_point_row_is_not_the_depth_derivative() {
    // The contact point's motion along a fixed normal (`Body::normal_row`, what the Jacobian
    // was before issue 50) differs from the depth's derivative on such scenes: the test
    // above could fail.
    let mut rng = Rng::new(0x50);
    let mut pair = random_pair(&mut rng, Precision::F64, 1.0, 0.0);
    let contacts = host::contacts(&mut pair.a, &mut pair.b)
        .expect("contacts")
        .items;
    let rows = host::contact_jacobians(&mut pair.a, &mut pair.b, &contacts).expect("rows");
    let mut worst = 0.0f64;
    for (c, row) in contacts.iter().zip(&rows) {
        let old = pair
            .a
            .normal_row(c.triangles[0], c.point, c.normal)
            .expect("row")
            .expect("triangle");
        let diff = old
            .iter()
            .zip(&row.a)
            .map(|(x, y)| (x - y).powi(2))
            .sum::<f64>();
        let scale = row.a.iter().map(|y| y * y).sum::<f64>();
        worst = worst.max((diff / scale).sqrt());
    }
    assert!(!contacts.is_empty());
    assert!(worst > 10.0 * RELATIVE, "the point row agrees to {worst:e}");
}

#[test]
fn a_contact_naming_a_missing_triangle_is_refused_by_name() {
    let mut rng = Rng::new(0x51);
    let mut pair = random_pair(&mut rng, Precision::F64, 1.0, 0.0);
    let mut contacts = host::contacts(&mut pair.a, &mut pair.b)
        .expect("contacts")
        .items;
    assert!(!contacts.is_empty());
    contacts[0].triangles[1] = 1 << 30;
    let e = host::contact_jacobians(&mut pair.a, &mut pair.b, &contacts).expect_err("refused");
    let text = e.to_string();
    assert!(
        text.contains("contacts[0]") && text.contains("triangle 1073741824 of body b"),
        "{text}"
    );
}
