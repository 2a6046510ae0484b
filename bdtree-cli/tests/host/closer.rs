//! "Closer than d?" (`host::closer_than`, `World::closer_than`, `bdtree distance
//! --closer-than`) against the f64 brute-force distance: never a false "no"; a "yes" (and its
//! witness pair) within the pair's rounding bound of d — on scenes far from the origin, on
//! sheets touching exactly under rotation, on millimetre bodies beside a far large one and on
//! randomized mixed scenes, in f32 and f64, at d = 0 and d > 0, both answers occurring.

use bdtree_core::floating_origin;
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::host::{self, Body, Tree};
use bdtree_std::io::{Pose, Scene};
use bdtree_std::oracle;
use bdtree_std::rng::Rng;
use bdtree_std::runner::{
    brute_force_pair_distance, deformed_triangles, prepare, run_closer_than, PairCloser,
};
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis};

use crate::binary::json_lines;
use crate::support::scenes::{
    far_scene, millimetre_scene, mixed_scene, pair_bound, touching_scene, write_scene,
};

/// What a scene's checks saw.
#[derive(Debug, Default)]
struct Tally {
    /// Answers "closer", "not closer".
    yes: usize,
    no: usize,
    /// "Closer" answers of pairs the brute force puts at exactly 0 (touching or intersecting).
    touching: usize,
    /// The largest `(D − d) / bound` of a "closer" answer.
    worst: f64,
}

/// The pair bound of `placing` in the precision's unit roundoff.
fn bound(scene: &Scene, f: usize, a: usize, b: usize, precision: Precision) -> f64 {
    let f32_bound = pair_bound(scene, f, a, b);
    match precision {
        Precision::F32 => f32_bound,
        Precision::F64 => f32_bound * (f64::EPSILON / f32::EPSILON as f64),
    }
}

/// Every frame, body pair and distance of `distances(D)` against the brute-force distance `D`.
fn check(scene: &Scene, tally: &mut Tally, distances: impl Fn(f64) -> Vec<f64>) {
    for precision in [Precision::F32, Precision::F64] {
        let options = BuildOptions {
            precision,
            ..BuildOptions::default()
        };
        let prepared = prepare(scene, options).expect("build");
        let n = scene.bodies.len();
        for f in 0..scene.frames.len() {
            // Each pair's triangles relative to its own origin (see brute_force_pair_distance).
            let tri_at = |a: usize, b: usize| {
                let frame = &scene.frames[f];
                let o = floating_origin(&[frame[a].0.translation, frame[b].0.translation]);
                let shifted: Vec<(Pose, Vec<f64>)> = frame
                    .iter()
                    .map(|(p, q)| {
                        let translation = std::array::from_fn(|k| p.translation[k] - o[k]);
                        (Pose { translation, ..*p }, q.clone())
                    })
                    .collect();
                deformed_triangles(scene, &shifted)
            };
            let mut truth = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    let d = brute_force_pair_distance(scene, f, a, b).expect("distance");
                    truth.push(((a, b), d));
                }
            }
            let mut ds: Vec<f64> = truth.iter().flat_map(|t| distances(t.1)).collect();
            ds.push(0.0);
            ds.sort_by(f64::total_cmp);
            ds.dedup();
            for d in ds {
                let single = Scene {
                    frames: vec![scene.frames[f].clone()],
                    ..scene.clone()
                };
                let rows = match precision {
                    Precision::F32 => run_closer_than::<f32>(&single, &prepared, d),
                    Precision::F64 => run_closer_than::<f64>(&single, &prepared, d),
                }
                .expect("closer_than");
                for PairCloser { bodies, witness } in &rows[0] {
                    let (a, b) = *bodies;
                    let t = truth.iter().find(|x| x.0 == (a, b)).expect("pair").1;
                    let e = bound(scene, f, a, b, precision);
                    match witness {
                        None => {
                            assert!(
                                t > d,
                                "{precision:?} frame {f} bodies {a} {b}: \"not closer than {d:e}\" \
                                 where the brute force gives {t:e}"
                            );
                            tally.no += 1;
                        }
                        Some(w) => {
                            assert!(
                                t <= d + e,
                                "{precision:?} frame {f} bodies {a} {b}: \"closer than {d:e}\" \
                                 where the brute force gives {t:e} (bound {e:e})"
                            );
                            let [ta, tb] = w.triangles;
                            let tri = tri_at(a, b);
                            let (pair, _, _) = oracle::triangle_distance(
                                &tri[a][ta as usize],
                                &tri[b][tb as usize],
                            );
                            assert!(
                                pair <= d + e,
                                "{precision:?} frame {f} bodies {a} {b}: witness {:?} is {pair:e} \
                                 apart, beyond {d:e} + {e:e}",
                                w.triangles
                            );
                            tally.yes += 1;
                            tally.touching += usize::from(t == 0.0);
                            tally.worst = tally.worst.max((t - d) / e);
                        }
                    }
                }
            }
        }
    }
}

/// d = 0, the pair's distance itself (a tie), and just below and above it.
fn around(d: f64) -> Vec<f64> {
    vec![d, d * (1.0 - 1e-3), d * (1.0 + 1e-3)]
}

#[test]
fn closer_than_holds_the_brute_force_far_touching_and_in_millimetres() {
    let mut tally = Tally::default();
    for seed in 0..3 {
        check(&far_scene(0xc105e + seed, 2), &mut tally, around);
        check(&touching_scene(0x70c4 + seed, 2), &mut tally, |_| vec![]);
        check(&mixed_scene(0x3173_0100 + seed), &mut tally, around);
    }
    check(&millimetre_scene(), &mut tally, around);
    eprintln!("closer_than: {tally:?}");
    assert!(
        tally.yes > 0 && tally.no > 0 && tally.touching > 0,
        "both answers and touching pairs: {tally:?}"
    );
}

/// Two coplanar sheets under a random rotation, up to 10⁴ of their size from the origin, unit
/// size or ~1 mm (2⁻¹⁰): the second's rest mesh is the first's moved in its plane by whole
/// grid cells (exact: the sizes are powers of two), so at one pose their shared vertices
/// coincide bit for bit — touching exactly, "closer than 0" by any rounding. Then the second
/// is lifted along the rotated normal by `lift`; the brute force at the pair's origin decides
/// the ties there.
#[test]
fn touching_sheets_under_rotation_far_from_the_origin() {
    let mut rng = Rng::new(0x5eed_c105);
    let (mut yes, mut no) = (0usize, 0usize);
    for precision in [Precision::F32, Precision::F64] {
        for s in [1.0, 2f64.powi(-10)] {
            let a = sheet(s, s, 8, 8);
            let mut b = a.clone();
            for v in &mut b.vertices {
                *v = [v[0] + 0.5 * s, v[1] + 0.25 * s, v[2]];
            }
            let basis = smooth_basis(&a.vertices, 2, 0.05 * s);
            let options = BuildOptions {
                precision,
                ..BuildOptions::default()
            };
            let (ta, _) = Tree::build(&a, Some(&basis), options).expect("a");
            let (tb, _) = Tree::build(&b, None, options).expect("b");
            let (mut ba, mut bb) = (Body::new(&ta).expect("a"), Body::new(&tb).expect("b"));
            let u = match precision {
                Precision::F32 => f32::EPSILON as f64,
                Precision::F64 => f64::EPSILON,
            };
            // The bound of `placing`, 256 u (x_a + x_b + ‖t_a − t_b‖) with u = EPSILON / 2:
            // each sheet's extent is under 1.2 s (corners at 0.71 s and 0.9 s from their
            // origins, the modes' reach under 0.05 s), the translations at most 0.3 s apart.
            let e = 128.0 * u * (1.2 * s + 1.2 * s + 0.3 * s);
            for _ in 0..6 {
                let far = s * 10f64.powf(rng.uniform(0.0, 4.0));
                let centre = rng.unit_vector().map(|x| x * far);
                let rotation = rng.rotation();
                let normal = Pose {
                    rotation,
                    translation: [0.0; 3],
                }
                .apply([0.0, 0.0, 1.0]);
                for (d, lift, q) in [
                    (0.0, 0.0, [0.0, 0.0]),
                    (0.1 * s, 0.0, [0.0, 0.0]),
                    (0.0, 0.1 * s, [0.0, 0.0]),
                    (0.1 * s, 0.1 * s, [0.0, 0.0]),
                    (0.15 * s, 0.1 * s, [0.0, 0.0]),
                    (0.0, 0.3 * s, [0.2, -0.1]),
                    (0.05 * s, 0.0, [0.3, 0.3]),
                ] {
                    ba.set_state(rotation, centre, &q).expect("a");
                    let tb: [f64; 3] = std::array::from_fn(|k| centre[k] + lift * normal[k]);
                    bb.set_state(rotation, tb, &[]).expect("b");
                    // The brute force at the pair's origin.
                    let o = floating_origin(&[centre, tb]);
                    let at = |t: [f64; 3]| Pose {
                        rotation,
                        translation: std::array::from_fn(|k| t[k] - o[k]),
                    };
                    let wa = oracle::deform(&a.vertices, Some(&basis), &q, &at(centre));
                    let wb = oracle::deform(&b.vertices, None, &[], &at(tb));
                    let (t, _, _) =
                        oracle::brute_force_distance(&wa, &a.triangles, &wb, &b.triangles)
                            .expect("distance");
                    let (found, _) = host::closer_than(&mut ba, &mut bb, d).expect("query");
                    match found {
                        None => {
                            assert!(t > d, "{precision:?} s {s}: no at {d:e}, truth {t:e}");
                            no += 1;
                        }
                        Some(w) => {
                            assert!(
                                t <= d + e,
                                "{precision:?} s {s}: yes at {d:e}, truth {t:e}, bound {e:e}"
                            );
                            assert!(w.distance <= d + e, "witness {w:?}");
                            yes += 1;
                        }
                    }
                    // Exact touching (one pose, coinciding vertices) is "closer", whatever d.
                    if lift == 0.0 && q == [0.0, 0.0] {
                        assert!(
                            found.is_some(),
                            "{precision:?} s {s}: touching at {d:e} said no"
                        );
                    }
                }
            }
        }
    }
    assert!(yes > 0 && no > 0, "yes {yes}, no {no}");
}

#[test]
fn closer_than_refuses_a_bad_distance_by_name() {
    let ball = icosphere(0.5, 1);
    let (tree, _) = Tree::build(&ball, None, BuildOptions::default()).expect("tree");
    let (mut a, mut b) = (Body::new(&tree).expect("a"), Body::new(&tree).expect("b"));
    for d in [-1.0, f64::NAN, f64::INFINITY] {
        let e = host::closer_than(&mut a, &mut b, d).expect_err("bad distance");
        assert!(e.to_string().starts_with("distance: "), "{e}");
    }
}

#[test]
fn distance_closer_than_through_the_cli_holds_the_brute_force() {
    let dir = crate::support::Scratch::new("closer-cli");
    let scene = millimetre_scene();
    let path = write_scene(&dir, &scene, "mm");
    let path = path.to_str().expect("path");
    let mut seen = [0usize; 2];
    for precision in ["f32", "f64"] {
        for d in ["0", "0.0004", "300"] {
            let lines = json_lines(&[
                "distance",
                path,
                "--precision",
                precision,
                "--closer-than",
                d,
                "--check",
                "--json",
            ]);
            assert_eq!(lines.len(), 3 * scene.frames.len());
            for x in &lines {
                let closer = x["closer"].as_bool().expect("closer");
                let truth = x["check"]["brute_force"].as_f64().expect("brute force");
                let d: f64 = d.parse().unwrap();
                if truth <= d {
                    assert!(closer, "{precision} {x}");
                }
                seen[usize::from(closer)] += 1;
            }
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    crate::binary::fails_with(
        &["distance", path, "--closer-than", "-1"],
        &["--closer-than -1", "finite number ≥ 0"],
    );
    // The text form on a fixture scene, checked by the CLI itself.
    let demo = crate::binary::fixtures().join("scenes/touching.json");
    let text = crate::binary::succeeds(&[
        "distance",
        demo.to_str().expect("path"),
        "--closer-than",
        "0",
        "--check",
    ]);
    assert!(
        text.contains("closer than 0") && text.contains("0 pair(s) within 0 answered"),
        "{text}"
    );
}
