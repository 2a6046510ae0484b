//! The host layer (`bdtree_std::host`) and the CLI over it, against the f64 brute force:
//! precision per pair (millimetre bodies beside a far, large one), f32 contacts refined like
//! pairs (a soft finger pressing a modal ball), randomized scenes mixing small and large, near
//! and far bodies, absurd states refused by name, and the CLI on closed or full outputs.

use std::collections::BTreeSet;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::export::Contact;
use bdtree_std::host::{self, Body, HostError, Tree, World};
use bdtree_std::io::{Basis, Mesh, Pose, Scene};
use bdtree_std::oracle;
use bdtree_std::rng::Rng;
use bdtree_std::runner::{brute_force_frame_with, prepare, run_contacts, run_with, PreparedScene};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, torus, uv_sphere};

use crate::binary::json_lines;
use crate::support::scenes::{
    millimetre_scene, mixed_scene, norm, pair_bound, scene_of, write_scene,
};

/// Every body's triangles in frame `f`, deformed explicitly (f64).
fn triangles(scene: &Scene, f: usize) -> Vec<Vec<[[f64; 3]; 3]>> {
    bdtree_std::runner::deformed_triangles(scene, &scene.frames[f])
}

fn prepared(scene: &Scene, precision: Precision) -> PreparedScene {
    let options = BuildOptions {
        precision,
        ..BuildOptions::default()
    };
    prepare(scene, options).expect("build")
}

/// Checks f32 and f64 pairs (self pairs too) against the brute force: none missed, every extra
/// within its pair's (or body's) bound. Returns the extras' largest gap over their bound.
fn check_pairs(scene: &Scene) -> f64 {
    let mut worst = 0.0f64;
    for precision in [Precision::F32, Precision::F64] {
        let p = prepared(scene, precision);
        let frames = match precision {
            Precision::F32 => run_with::<f32>(scene, &p, 1, None, true),
            Precision::F64 => run_with::<f64>(scene, &p, 1, None, true),
        }
        .expect("run")
        .0;
        for (f, frame) in frames.iter().enumerate() {
            let truth = brute_force_frame_with(scene, f, true);
            let reported: BTreeSet<Contact> = frame.pairs.iter().copied().collect();
            let missed: Vec<_> = truth.iter().filter(|c| !reported.contains(c)).collect();
            assert!(
                missed.is_empty(),
                "{precision:?} frame {f} misses {missed:?}"
            );
            let tri = triangles(scene, f);
            let truth: BTreeSet<Contact> = truth.into_iter().collect();
            for &(a, b, ta, tb) in reported.difference(&truth) {
                let gap = oracle::triangle_distance(&tri[a][ta as usize], &tri[b][tb as usize]).0;
                let bound = pair_bound(scene, f, a, b);
                worst = worst.max(gap / bound);
                assert!(
                    gap <= bound,
                    "{precision:?} frame {f}: extra {:?} is {gap:e} apart, beyond its bound {bound:e}",
                    (a, b, ta, tb)
                );
            }
        }
    }
    worst
}

/// A finger in millimetres: an elongated sphere (radius 8, half length 20, its base at
/// z = −20), with `modes` smooth modes clamped at the base (a ramp that is 0 at z ≤ −12).
fn finger(modes: usize) -> (Mesh, Basis) {
    let mut mesh = uv_sphere(8.0, 24, 36);
    for v in &mut mesh.vertices {
        v[2] *= 2.5;
    }
    let mut basis = smooth_basis(&mesh.vertices, modes, 1.5);
    for (i, v) in mesh.vertices.iter().enumerate() {
        let ramp = ((v[2] + 12.0) / 32.0).clamp(0.0, 1.0).powi(2);
        for k in 0..3 {
            for j in 0..modes {
                basis.data[(3 * i + k) * modes + j] *= ramp;
            }
        }
    }
    (mesh, basis)
}

/// The finger pressing 0.3–2 mm into a modal ball (radius 30 mm) and sliding over it, near the
/// origin and 3 km (3·10⁶ mm) away.
fn finger_scene() -> Scene {
    let (finger, clamped) = finger(6);
    let ball = icosphere(30.0, 3);
    let ball_basis = smooth_basis(&ball.vertices, 4, 1.0);
    let mut scene = scene_of(vec![(finger, Some(clamped)), (ball, Some(ball_basis))]);
    let mut rng = Rng::new(0xF1_6E12);
    for _ in 0..4 {
        let press = rng.uniform(0.5, 2.0);
        let slide = rng.uniform(-3.0, 3.0);
        let tilt = Pose::from_axis_angle([1.0, 0.0, 0.0], rng.uniform(-0.1, 0.1), [0.0; 3]);
        let q_finger: Vec<f64> = (0..6).map(|_| rng.uniform(-0.3, 0.3)).collect();
        let q_ball: Vec<f64> = (0..4).map(|_| rng.uniform(-0.2, 0.2)).collect();
        // The same press near the origin and 3 km away.
        for far in [0.0, 3.0e6] {
            let centre = [far, 0.5 * far, -0.25 * far];
            let finger = Pose {
                rotation: tilt.rotation,
                translation: [
                    centre[0] + slide,
                    centre[1],
                    centre[2] + 30.0 + 20.0 - press,
                ],
            };
            let ball = Pose::from_translation(centre);
            scene
                .frames
                .push(vec![(finger, q_finger.clone()), (ball, q_ball.clone())]);
        }
    }
    scene
}

fn pair_key(p: &serde_json::Value) -> (u64, u64) {
    (
        p[2].as_u64().expect("triangle"),
        p[3].as_u64().expect("triangle"),
    )
}

#[test]
fn f32_contacts_of_a_finger_pressing_a_ball_are_refined_like_pairs_issue_39() {
    let scene = finger_scene();
    // The library: one contact per refined pair, none with a negative depth, none missed.
    let p32 = prepared(&scene, Precision::F32);
    let (pairs, _) = run_with::<f32>(&scene, &p32, 1, None, false).expect("pairs");
    let (contacts, _) = run_contacts::<f32>(&scene, &p32).expect("contacts");
    let mut total = 0;
    for (f, (pairs, contacts)) in pairs.iter().zip(&contacts).enumerate() {
        let with_contact: Vec<Contact> = contacts.items.iter().map(|c| c.pair).collect();
        assert_eq!(
            with_contact, pairs.pairs,
            "frame {f}: contacts and refined pairs"
        );
        let truth = brute_force_frame_with(&scene, f, false);
        assert!(
            truth.iter().all(|c| pairs.pairs.contains(c)),
            "frame {f} misses a pair"
        );
        let tri = triangles(&scene, f);
        for c in &contacts.items {
            assert!(c.depth >= 0.0, "frame {f}: {c:?} has a negative depth");
            let (a, b, ta, tb) = c.pair;
            // The point is on both triangles within the pair's bound.
            let bound = pair_bound(&scene, f, a, b);
            let on = |body: usize, t: u32| {
                oracle::triangle_distance(&[c.point; 3], &tri[body][t as usize]).0
            };
            assert!(on(a, ta) <= bound && on(b, tb) <= bound, "frame {f}: {c:?}");
        }
        assert!(
            !contacts.items.is_empty(),
            "frame {f}: the finger must press"
        );
        total += contacts.items.len();
    }
    assert!(total > 100, "the finger must press: {total} contacts");
    check_pairs(&scene);
    // The CLI: the same counts, no negative depth.
    let dir = crate::support::Scratch::new("host-finger");
    let path = write_scene(&dir, &scene, "finger");
    let path = path.to_str().expect("path");
    let collide = json_lines(&["collide", path, "--precision", "f32", "--json"]);
    let touching = json_lines(&[
        "collide",
        path,
        "--contacts",
        "--precision",
        "f32",
        "--json",
    ]);
    assert_eq!(collide.len(), scene.frames.len());
    for (f, (p, c)) in collide.iter().zip(&touching).enumerate() {
        let pairs: Vec<_> = p["pairs"]
            .as_array()
            .expect("pairs")
            .iter()
            .map(pair_key)
            .collect();
        let contacts = c["contacts"].as_array().expect("contacts");
        let keyed: Vec<_> = contacts.iter().map(|x| pair_key(&x["pair"])).collect();
        assert_eq!(keyed, pairs, "frame {f}: one contact per refined pair");
        for x in contacts {
            let depth = x["depth"].as_f64().expect("depth");
            assert!(depth >= 0.0, "frame {f}: negative depth {x}");
        }
    }
}

#[test]
fn millimetre_bodies_beside_a_far_large_body_keep_their_own_precision_issue_39() {
    let scene = millimetre_scene();
    let worst = check_pairs(&scene);
    eprintln!("largest extra over its pair's bound: {worst:.3}");
    // Through the CLI: f32 distances within 10⁻⁶ of the f64 ones, witnesses on their
    // triangles within the pair's bound.
    let dir = crate::support::Scratch::new("host-mm");
    let path = write_scene(&dir, &scene, "mm");
    let path = path.to_str().expect("path");
    let f32s = json_lines(&["distance", path, "--precision", "f32", "--json"]);
    let f64s = json_lines(&["distance", path, "--precision", "f64", "--json"]);
    assert_eq!(f32s.len(), 3 * scene.frames.len());
    for (x, y) in f32s.iter().zip(&f64s) {
        let f = x["frame"].as_u64().expect("frame") as usize;
        let (d32, d64) = (
            x["distance"].as_f64().unwrap(),
            y["distance"].as_f64().unwrap(),
        );
        let bodies: Vec<usize> = x["bodies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap()[4..].parse().unwrap())
            .collect();
        let (a, b) = (bodies[0], bodies[1]);
        if (a, b) == (0, 1) && d64 > 0.0 {
            assert!(
                (d32 - d64).abs() <= 1e-6 * d64,
                "frame {f}: f32 distance {d32:e}, f64 {d64:e}"
            );
        }
        let tri = triangles(&scene, f);
        let bound = pair_bound(&scene, f, a, b);
        let t = x["triangles"].as_array().unwrap();
        for (k, body) in [(0usize, a), (1, b)] {
            let p: Vec<f64> = x[["point_a", "point_b"][k]]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let triangle = &tri[body][t[k].as_u64().unwrap() as usize];
            let off = oracle::triangle_distance(&[[p[0], p[1], p[2]]; 3], triangle).0;
            assert!(
                off <= bound,
                "frame {f}, bodies {a} {b}: witness {k} is {off:e} off its triangle (bound {bound:e})"
            );
        }
    }
    // The f32 pairs with self pairs through the CLI, checked by the CLI against the brute force.
    let out = crate::binary::bdtree(&["collide", path, "--precision", "f32", "--self", "--check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn mixed_scenes_of_small_large_near_and_far_bodies_hold_each_pairs_bound() {
    let scenes = std::env::var("BDTREE_MIXED_SCENES")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(12);
    let mut worst = 0.0f64;
    for seed in 0..scenes {
        worst = worst.max(check_pairs(&mixed_scene(0x3173_0000 + seed)));
    }
    eprintln!("{scenes} mixed scenes: largest extra over its pair's bound {worst:.3}");
}

/// A world answer's items alone.
fn items<T: Copy>(found: &[host::Found<T>]) -> Vec<T> {
    found.iter().map(|f| f.item).collect()
}

/// Two f32 bodies of the host API, built from meshes.
fn two_bodies(a: &Mesh, b: &Mesh, precision: Precision) -> (Body, Body) {
    let options = BuildOptions {
        precision,
        nested: true,
        ..BuildOptions::default()
    };
    let basis = smooth_basis(&a.vertices, 3, 0.1);
    let (ta, _) = Tree::build(a, Some(&basis), options).expect("a");
    let (tb, _) = Tree::build(b, None, options).expect("b");
    (Body::new(&ta).expect("a"), Body::new(&tb).expect("b"))
}

#[test]
fn an_f32_pair_1e12_apart_is_refused_naming_the_translation_issue_50() {
    // Each body alone is fine; at the pair's floating origin each is 5e11 away, beyond what
    // f32 computes with: the error names the translation and its value, not q (which is 0).
    let (mut a, mut b) = two_bodies(&icosphere(0.5, 2), &icosphere(0.5, 1), Precision::F32);
    a.set_state([1.0, 0.0, 0.0, 0.0], [0.0; 3], &[0.0; 3])
        .expect("a");
    b.set_state([1.0, 0.0, 0.0, 0.0], [1e12, 0.0, 0.0], &[])
        .expect("b");
    let text = host::pairs(&mut a, &mut b)
        .expect_err("too far")
        .to_string();
    assert!(
        text.starts_with(
            "translation: translation[0] = 0e0 (at -5e11 from the query's floating origin \
             [500000000000.0, 0.0, 0.0]: the bodies are that far apart) is out of range"
        ),
        "{text}"
    );
}

#[test]
fn an_absurd_f32_state_is_refused_naming_the_value() {
    let (mut a, _) = two_bodies(&icosphere(0.5, 2), &icosphere(0.5, 1), Precision::F32);
    let e = a
        .set_state([1.0, 0.0, 0.0, 0.0], [0.0; 3], &[0.0, 1e9, 0.0])
        .expect_err("an f32 q of 1e9");
    assert!(matches!(e, HostError::Imprecise { q: (1, _), .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.contains("q[1] = 1e9") && text.contains("f32"),
        "{text}"
    );
    // The body keeps its previous state, and a sane one is accepted.
    assert_eq!(a.state().q, vec![0.0; 3]);
    a.set_state([1.0, 0.0, 0.0, 0.0], [0.0; 3], &[0.0, 0.2, 0.0])
        .expect("a sane state");
    // The same state in f64 is only large, not absurd.
    let (mut b, _) = two_bodies(&icosphere(0.5, 2), &icosphere(0.5, 1), Precision::F64);
    b.set_state([1.0, 0.0, 0.0, 0.0], [0.0; 3], &[0.0, 1e9, 0.0])
        .expect("f64 carries it");
    // A quaternion off unit length, by name and value; a wrong q length.
    let e = a
        .set_state([1.0, 0.01, 0.0, 0.0], [0.0; 3], &[0.0; 3])
        .expect_err("not unit");
    assert!(
        e.to_string()
            .starts_with("rotation: quaternion (w, x, y, z) = (1, 0.01, 0, 0)"),
        "{e}"
    );
    let e = a
        .set_state([1.0, 0.0, 0.0, 0.0], [0.0; 3], &[0.0; 2])
        .expect_err("short q");
    assert!(e.to_string().starts_with("q: expected 3"), "{e}");
    let e = a
        .set_state([1.0, 0.0, 0.0, 0.0], [f64::NAN, 0.0, 0.0], &[0.0; 3])
        .expect_err("NaN");
    assert!(e.to_string().starts_with("translation:"), "{e}");
    // Through the CLI: the frame, the body and the value.
    let mut scene = scene_of(vec![
        (
            icosphere(0.5, 2),
            Some(smooth_basis(&icosphere(0.5, 2).vertices, 1, 0.1)),
        ),
        (icosphere(0.5, 1), None),
    ]);
    scene.frames.push(vec![
        (Pose::IDENTITY, vec![1e9]),
        (Pose::from_translation([2.0, 0.0, 0.0]), Vec::new()),
    ]);
    let dir = crate::support::Scratch::new("host-absurd");
    let path = write_scene(&dir, &scene, "absurd");
    crate::binary::fails_with(
        &["collide", path.to_str().unwrap(), "--precision", "f32"],
        &["frame 0, body body0: q: q[0] = 1e9", "f32"],
    );
}

#[test]
fn a_world_answers_each_pair_as_the_pair_query_does() {
    let mut rng = Rng::new(0x0420);
    let (ball, ring) = (icosphere(0.5, 2), torus(0.5, 0.15, 18, 8));
    let (mut a, mut b) = two_bodies(&ball, &ring, Precision::F32);
    let (c, d) = two_bodies(&ball, &ring, Precision::F32);
    let mut world = World::new(vec![c, d], Vec::new()).expect("world");
    let mut touching = 0;
    for _ in 0..8 {
        let far = 10f64.powf(rng.uniform(0.0, 4.0));
        let centre = rng.unit_vector().map(|x| x * far);
        let tb: [f64; 3] = std::array::from_fn(|k| centre[k] + rng.uniform(-0.6, 0.6));
        let q: Vec<f64> = (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let (ra, rb) = (rng.rotation(), rng.rotation());
        a.set_state(ra, centre, &q).expect("a");
        b.set_state(rb, tb, &[]).expect("b");
        world.set_state(0, ra, centre, &q).expect("a");
        world.set_state(1, rb, tb, &[]).expect("b");
        let pairs = host::pairs(&mut a, &mut b).expect("pairs").items;
        let contacts = host::contacts(&mut a, &mut b).expect("contacts").items;
        let proxies = host::proxies(&mut a, 4, &mut b, 4).expect("proxies").items;
        let (nearest, _) = host::distance(&mut a, &mut b).expect("distance");
        assert_eq!(items(&world.pairs(false).expect("pairs").found), pairs);
        assert_eq!(items(&world.contacts().expect("contacts").found), contacts);
        assert_eq!(items(&world.proxies(4).expect("proxies").found), proxies);
        assert_eq!(world.distances().expect("distances").found[0].item, nearest);
        assert_eq!(contacts.len(), pairs.len());
        assert!(contacts.iter().all(|c| c.depth >= 0.0));
        touching += usize::from(!pairs.is_empty());
    }
    assert!(touching >= 2, "too few touching states: {touching}");
    // Mixed precisions are refused, by the pair queries and by a world.
    let (mut e, f) = two_bodies(&icosphere(0.5, 1), &icosphere(0.5, 1), Precision::F64);
    assert_eq!(
        host::pairs(&mut a, &mut e).unwrap_err(),
        HostError::MixedPrecision
    );
    assert_eq!(
        World::new(vec![a, f], Vec::new()).err(),
        Some(HostError::MixedPrecision)
    );
}

#[test]
fn the_cli_ends_cleanly_on_a_closed_pipe_or_a_full_output() {
    let scene = crate::binary::fixtures().join("scenes/demo.json");
    let scene = scene.to_str().expect("path");
    // A reader that is gone before the output comes (`bdtree … | true`): no panic, exit 0.
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "'{}' collide '{scene}' --json --repeat 3 | true; echo \"status ${{PIPESTATUS[0]}}\"",
            env!("CARGO_BIN_EXE_bdtree")
        ))
        .output()
        .expect("bash");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stdout.contains("status 0"), "{stdout}{stderr}");
    // Standard output that cannot be written (a full device): a clear error, exit 1.
    if let Ok(full) = std::fs::File::create("/dev/full") {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bdtree"))
            .args(["collide", scene])
            .stdout(full)
            .output()
            .expect("bdtree");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("cannot write to standard output") && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
}

/// Barycentric weights of the point of `t` nearest to `p`, by brute force over a fine grid of
/// the triangle (independent of the kernel's closest-point routine).
fn grid_weights(p: [f64; 3], t: &[[f64; 3]; 3]) -> [f64; 3] {
    let n = 400;
    let mut best = (f64::INFINITY, [1.0, 0.0, 0.0]);
    for i in 0..=n {
        for j in 0..=(n - i) {
            let (v, w) = (i as f64 / n as f64, j as f64 / n as f64);
            let u = 1.0 - v - w;
            let x: [f64; 3] = std::array::from_fn(|k| u * t[0][k] + v * t[1][k] + w * t[2][k]);
            let d = norm(std::array::from_fn(|k| x[k] - p[k]));
            if d < best.0 {
                best = (d, [u, v, w]);
            }
        }
    }
    best.1
}

#[test]
fn contact_forces_balance_and_do_the_virtual_work_of_their_points() {
    let mut rng = Rng::new(0xF0_4CE5);
    let (ball, ring) = (icosphere(0.5, 2), torus(0.5, 0.15, 18, 8));
    let basis = smooth_basis(&ball.vertices, 3, 0.1);
    let (mut a, mut b) = two_bodies(&ball, &ring, Precision::F64);
    let k = 300.0;
    let mut checked = 0;
    for _ in 0..6 {
        let q: Vec<f64> = (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let pa = Pose {
            rotation: rng.rotation(),
            translation: [100.0, -50.0, 20.0],
        };
        let pb = Pose {
            rotation: rng.rotation(),
            translation: std::array::from_fn(|i| pa.translation[i] + rng.uniform(-0.5, 0.5)),
        };
        a.set_state(pa.rotation, pa.translation, &q).expect("a");
        b.set_state(pb.rotation, pb.translation, &[]).expect("b");
        let (contacts, [wa, wb]) = host::contact_forces(&mut a, &mut b, k).expect("forces");
        let world = oracle::deform(&ball.vertices, Some(&basis), &q, &pa);
        let r = pa.matrix();
        let (mut force, mut torque, mut gq) = ([0.0; 3], [0.0; 3], [0.0; 3]);
        for c in contacts.items.iter().filter(|c| c.depth > 0.0) {
            let f: [f64; 3] = c.normal.map(|n| k * c.depth * n);
            let arm: [f64; 3] = std::array::from_fn(|i| c.point[i] - pb.translation[i]);
            for i in 0..3 {
                force[i] += f[i];
            }
            torque[0] += arm[1] * f[2] - arm[2] * f[1];
            torque[1] += arm[2] * f[0] - arm[0] * f[2];
            torque[2] += arm[0] * f[1] - arm[1] * f[0];
            // On a (the negative force), the virtual work of the point on its triangle.
            let face = ball.triangles[c.triangles[0] as usize];
            let t = face.map(|v| world[v as usize]);
            let w = grid_weights(c.point, &t);
            let local: [f64; 3] =
                std::array::from_fn(|j| -(0..3).map(|i| r[i][j] * f[i]).sum::<f64>());
            for (m, g) in gq.iter_mut().enumerate() {
                for (i, &v) in face.iter().enumerate() {
                    let u: [f64; 3] =
                        std::array::from_fn(|x| basis.data[(3 * v as usize + x) * 3 + m]);
                    *g += w[i] * (u[0] * local[0] + u[1] * local[1] + u[2] * local[2]);
                }
            }
            checked += 1;
        }
        let scale = 1.0 + norm(force);
        for i in 0..3 {
            assert!((wb.force[i] - force[i]).abs() < 1e-9 * scale, "force on b");
            assert!((wa.force[i] + force[i]).abs() < 1e-9 * scale, "force on a");
            assert!(
                (wb.torque[i] - torque[i]).abs() < 1e-9 * scale,
                "torque on b"
            );
        }
        for (m, (got, want)) in wa.q.iter().zip(gq).enumerate() {
            // The grid's weights are within 1/400 of the point's: a loose but independent check.
            assert!(
                (got - want).abs() <= 0.02 * scale,
                "mode {m}: {got} vs {want}"
            );
        }
        assert_eq!(wb.q.len(), 0);
    }
    assert!(checked > 10, "too few contacts: {checked}");
    // A stiffness that is not a number is refused by name.
    let e = host::contact_forces(&mut a, &mut b, f64::NAN).expect_err("NaN");
    assert!(e.to_string().starts_with("stiffness:"), "{e}");
}

#[test]
fn the_cli_gives_every_bodys_wrench_with_stiffness() {
    let scene = crate::binary::fixtures().join("scenes/demo.json");
    let lines = json_lines(&[
        "collide",
        scene.to_str().expect("path"),
        "--contacts",
        "--stiffness",
        "250",
        "--json",
    ]);
    let mut pushed = 0;
    for line in &lines {
        let wrenches = line["wrenches"].as_array().expect("wrenches");
        assert_eq!(wrenches.len(), 3, "one wrench per mesh body");
        // Every contact pushes two bodies of the scene oppositely: the forces sum to zero.
        let mut sum = [0.0f64; 3];
        let mut size = 0.0f64;
        for w in wrenches {
            for (k, x) in w["force"].as_array().expect("force").iter().enumerate() {
                let x = x.as_f64().expect("number");
                sum[k] += x;
                size = size.max(x.abs());
            }
        }
        assert!(norm(sum) <= 1e-5 * size.max(1e-30), "{line}");
        // The total pushed equals Σ k · depth over the contacts.
        let pushes: f64 = line["contacts"]
            .as_array()
            .expect("contacts")
            .iter()
            .map(|c| 250.0 * c["depth"].as_f64().expect("depth"))
            .sum();
        pushed += usize::from(pushes > 0.0 && size > 0.0);
    }
    assert!(pushed > 5, "too few frames with forces: {pushed}");
    // Without `--contacts`: a usage error naming it.
    let out = crate::binary::bdtree(&["collide", scene.to_str().unwrap(), "--stiffness", "3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--contacts"), "{stderr}");
}

/// A body of an icosphere with 3 smooth modes, f32 or f64, nested, at a state far away.
fn far_modal_body(precision: Precision) -> (Mesh, Basis, Body, Pose, Vec<f64>) {
    let mesh = icosphere(0.5, 2);
    let basis = smooth_basis(&mesh.vertices, 3, 0.1);
    let options = BuildOptions {
        precision,
        nested: true,
        ..BuildOptions::default()
    };
    let (tree, _) = Tree::build(&mesh, Some(&basis), options).expect("tree");
    let mut body = Body::new(&tree).expect("body");
    let pose = Pose::from_axis_angle([0.2, -1.0, 0.4], 1.1, [3012.5, -771.25, 18.0]);
    let q = vec![0.7, -0.4, 0.25];
    body.set_state(pose.rotation, pose.translation, &q)
        .expect("state");
    (mesh, basis, body, pose, q)
}

#[test]
fn a_bodys_spheres_and_vertices_in_world_coordinates_hold_the_brute_force() {
    for precision in [Precision::F32, Precision::F64] {
        let (mesh, basis, mut body, pose, q) = far_modal_body(precision);
        let truth = oracle::deform(&mesh.vertices, Some(&basis), &q, &pose);
        let got = body.vertices().expect("vertices");
        assert_eq!(got.len(), truth.len());
        // The stored model at the stored state: the f32 storage and state rounding, ~1e-6.
        let tol = if precision == Precision::F32 {
            1e-5
        } else {
            1e-11
        };
        for (g, t) in got.iter().zip(&truth) {
            let off = norm(std::array::from_fn(|k| g[k] - t[k]));
            assert!(off <= tol, "{precision:?}: vertex off by {off:e}");
        }
        let inside = |s: [f64; 4], p: &[f64; 3]| norm(std::array::from_fn(|k| p[k] - s[k])) <= s[3];
        let root = body.sphere(0).expect("sphere").expect("root");
        assert!(truth.iter().all(|p| inside(root, p)), "{precision:?}: root");
        assert!(body.sphere(1 << 30).expect("sphere").is_none());
        // Every triangle's vertices are inside the sphere of its level-3 cut node... at least
        // inside one of the cut's spheres (each covers its leaves).
        let cut = body.level_spheres(3).expect("level");
        assert!(cut.len() > 1 && cut.iter().all(|(_, g)| *g >= 1.0 - 1e-6));
        for p in &truth {
            assert!(cut.iter().any(|(s, _)| inside(*s, p)), "{precision:?}: cut");
        }
        assert_eq!(body.level_spheres(0).expect("level")[0].0, root);
        assert_eq!(body.tree().triangles(), &mesh.triangles[..]);
    }
}

#[test]
fn a_bodys_device_geometry_holds_the_brute_force_with_or_without_a_vertex_cache() {
    for precision in [Precision::F32, Precision::F64] {
        let (mesh, basis, far, _, q) = far_modal_body(precision);
        let pose = Pose::from_axis_angle([0.2, -1.0, 0.4], 1.1, [1.5, -0.75, 0.25]);
        let truth = oracle::deform(&mesh.vertices, Some(&basis), &q, &pose);
        // The state rounded to the tree's scalar and taken as exact: the f32 rounding, ~1e-7.
        let tol = if precision == Precision::F32 {
            1e-5
        } else {
            1e-11
        };
        for mut body in [
            Body::new(far.tree()).expect("body"),
            Body::without_vertex_cache(far.tree()).expect("body"),
        ] {
            body.set_state(pose.rotation, pose.translation, &q)
                .expect("state");
            let triangles = body.device_triangles().expect("triangles");
            assert_eq!(triangles.len(), mesh.triangles.len());
            for (got, face) in triangles.iter().zip(&mesh.triangles) {
                for (g, &v) in got.iter().zip(face) {
                    let t = truth[v as usize];
                    let off = norm(std::array::from_fn(|k| g[k] - t[k]));
                    assert!(off <= tol, "{precision:?}: vertex off by {off:e}");
                }
            }
            let cut = body.device_level_spheres(3).expect("level");
            assert!(cut.len() > 1 && cut.iter().all(|(_, g)| *g >= 1.0 - 1e-6));
            for p in &truth {
                let inside =
                    |s: &[f64; 4]| norm(std::array::from_fn(|k| p[k] - s[k])) <= s[3] + tol;
                assert!(cut.iter().any(|(s, _)| inside(s)), "{precision:?}: cut");
            }
        }
    }
}

#[test]
fn the_contact_jacobian_row_is_the_motion_of_the_point_along_the_normal() {
    // Linear in q: the row predicts the finite difference of the point with fixed barycentric
    // weights on the explicitly deformed triangles, up to rounding.
    let (mesh, basis, mut body, pose, q) = far_modal_body(Precision::F64);
    let normal = {
        let n = [0.3, -0.5, 0.8];
        let l = norm(n);
        n.map(|x| x / l)
    };
    let corners = |q: &[f64], t: usize| {
        let w = oracle::deform(&mesh.vertices, Some(&basis), q, &pose);
        mesh.triangles[t].map(|v| w[v as usize])
    };
    for t in [0usize, 17, 101] {
        let tri = corners(&q, t);
        let weights = [0.2, 0.5, 0.3];
        let point: [f64; 3] =
            std::array::from_fn(|k| (0..3).map(|i| weights[i] * tri[i][k]).sum::<f64>());
        let row = body
            .normal_row(t as u32, point, normal)
            .expect("row")
            .expect("triangle");
        assert_eq!(row.len(), 3);
        for (j, &r) in row.iter().enumerate() {
            let mut moved = q.clone();
            moved[j] += 1.0;
            let tri1 = corners(&moved, t);
            let p1: [f64; 3] =
                std::array::from_fn(|k| (0..3).map(|i| weights[i] * tri1[i][k]).sum::<f64>());
            let along: f64 = (0..3).map(|k| (p1[k] - point[k]) * normal[k]).sum();
            assert!(
                (r - along).abs() <= 1e-9,
                "triangle {t}, mode {j}: {r} vs {along}"
            );
        }
    }
    assert!(body
        .normal_row(1 << 30, [0.0; 3], normal)
        .expect("row")
        .is_none());
}

#[test]
fn a_proxys_penalty_forces_sum_to_the_bodys_wrench() {
    for precision in [Precision::F32, Precision::F64] {
        let (_, _, mut a, pose, q) = far_modal_body(precision);
        let (_, _, mut b, _, _) = far_modal_body(precision);
        let t = pose.translation;
        b.set_state(pose.rotation, [t[0] + 0.8, t[1] + 0.1, t[2]], &q)
            .expect("b");
        let k = 40.0;
        // The kernel's depth in the bodies' precision against the f64 one of the world spheres.
        let tol = if precision == Precision::F32 {
            1e-4
        } else {
            1e-9
        };
        let (proxies, [_, wb]) = host::proxy_forces(&mut a, 3, &mut b, 3, k).expect("forces");
        let mut sum = [0.0; 3];
        let mut live = 0;
        for p in &proxies.items {
            if let Some(c) = p.penalty(k) {
                let expected = k * p.depth;
                assert!((norm(c.force) - expected).abs() <= tol * k);
                for (s, f) in sum.iter_mut().zip(c.force) {
                    *s += f;
                }
                live += 1;
            }
        }
        assert!(
            live > 0,
            "{precision:?}: no proxy force, the test would be vacuous"
        );
        let scale = norm(wb.force).max(1.0);
        let tol = if precision == Precision::F32 {
            1e-4
        } else {
            1e-9
        };
        let off = norm(std::array::from_fn(|k| sum[k] - wb.force[k]));
        assert!(
            off <= tol * scale,
            "{precision:?}: {sum:?} vs {:?}",
            wb.force
        );
    }
}

#[test]
fn within_keeps_every_intersecting_pair_in_f32_too() {
    // Intersecting triangles have no feature pair at distance 0 (the nearest features of two
    // crossing triangles are apart); `within` must report them at any distance, 0 included,
    // and f32 contacts must lie on their triangles to the model's storage rounding.
    for precision in [Precision::F32, Precision::F64] {
        let (mesh, basis, mut a, pose, q) = far_modal_body(precision);
        let (_, _, mut b, _, _) = far_modal_body(precision);
        let t = pose.translation;
        let moved = Pose {
            rotation: pose.rotation,
            translation: [t[0] + 0.8, t[1] + 0.1, t[2]],
        };
        b.set_state(moved.rotation, moved.translation, &q)
            .expect("b");
        let wa = oracle::deform(&mesh.vertices, Some(&basis), &q, &pose);
        let wb = oracle::deform(&mesh.vertices, Some(&basis), &q, &moved);
        let truth: BTreeSet<(u32, u32)> =
            oracle::brute_force_pairs(&wa, &mesh.triangles, &wb, &mesh.triangles)
                .into_iter()
                .collect();
        assert!(
            !truth.is_empty(),
            "{precision:?}: no contact, the test would be vacuous"
        );
        for distance in [0.0, 1e-3] {
            let got: BTreeSet<(u32, u32)> = host::within(&mut a, &mut b, distance)
                .expect("within")
                .items
                .iter()
                .map(|n| (n.triangles[0], n.triangles[1]))
                .collect();
            let missed: Vec<_> = truth.difference(&got).collect();
            assert!(
                missed.is_empty(),
                "{precision:?}, {distance}: missed {missed:?}"
            );
        }
        let tri = |w: &[[f64; 3]], t: u32| mesh.triangles[t as usize].map(|v| w[v as usize]);
        for c in host::contacts(&mut a, &mut b).expect("contacts").items {
            for (w, t) in [(&wa, c.triangles[0]), (&wb, c.triangles[1])] {
                let off = oracle::triangle_distance(&[c.point; 3], &tri(w, t)).0;
                // The stored model's rounding (f32: ~1e-7 of the body), not the state's.
                assert!(
                    off <= 1e-6,
                    "{precision:?}: contact {off:e} off its triangle"
                );
            }
        }
    }
}

#[test]
fn f32_primitive_contacts_are_measured_again_in_f64() {
    // A ball cutting into a far modal body: none missed, and in f32 too every reported
    // triangle is within the model's storage rounding of the ball, its point on it.
    use bdtree_std::io::scene::PrimitiveShape;
    for precision in [Precision::F32, Precision::F64] {
        let (mesh, basis, mut body, pose, q) = far_modal_body(precision);
        let t = pose.translation;
        let (centre, radius) = ([t[0] + 0.45, t[1] - 0.1, t[2] + 0.05], 0.3);
        let ball = host::Primitive::new(
            PrimitiveShape::Sphere(radius),
            Pose::from_translation(centre),
        )
        .expect("ball");
        let w = oracle::deform(&mesh.vertices, Some(&basis), &q, &pose);
        let tri = |t: u32| mesh.triangles[t as usize].map(|v| w[v as usize]);
        let gap = |t: u32| oracle::triangle_distance(&[centre; 3], &tri(t)).0 - radius;
        let truth: BTreeSet<u32> = (0..mesh.triangles.len() as u32)
            .filter(|&t| gap(t) <= 0.0)
            .collect();
        assert!(!truth.is_empty(), "the test would be vacuous");
        let got = host::primitive_contacts(&mut body, &ball).expect("contacts");
        let found: BTreeSet<u32> = got.items.iter().map(|c| c.triangles[0]).collect();
        let missed: Vec<_> = truth.difference(&found).collect();
        assert!(missed.is_empty(), "{precision:?}: missed {missed:?}");
        for c in &got.items {
            let t = c.triangles[0];
            assert!(
                gap(t) <= 1e-6,
                "{precision:?}: triangle {t} is {:e} away",
                gap(t)
            );
            let off = oracle::triangle_distance(&[c.point; 3], &tri(t)).0;
            let inside = norm(std::array::from_fn(|k| c.point[k] - centre[k])) - radius;
            assert!(
                off <= 1e-6 && inside <= 1e-6,
                "{precision:?}: point {off:e} {inside:e}"
            );
            assert!(c.depth >= 0.0);
        }
    }
}
