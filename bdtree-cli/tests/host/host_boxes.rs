//! Box bounds on the host (`host::pairs_with`, `World::pairs_with`, `bdtree collide --bounds`):
//! the triangle pairs found with 15- and 6-axis boxes equal the sphere-bound pairs after
//! refinement, and both hold the f64 brute force (nothing missed, extras within the pair's
//! bound) — on scenes far from the origin, sheets touching exactly under rotation, millimetre
//! bodies beside a far large one and randomized mixed scenes, in f32 and f64.

use std::collections::BTreeSet;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::export::Contact;
use bdtree_std::host::{self, Body, PairBound, Tree};
use bdtree_std::io::Scene;
use bdtree_std::oracle;
use bdtree_std::rng::Rng;
use bdtree_std::runner::{brute_force_frame, deformed_triangles, prepare, run_bounded, run_with};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, torus};

use crate::binary::json_lines;
use crate::support::scenes::{
    far_scene, millimetre_scene, mixed_scene, pair_bound, touching_scene, write_scene,
};

/// Checks every frame of `scene` with each bound against the sphere-bound answer and the brute
/// force; returns `(brute-force pairs, node pairs visited per bound)`.
fn check(scene: &Scene) -> (usize, [u64; 3]) {
    let mut truth_pairs = 0;
    let mut visited = [0u64; 3];
    for precision in [Precision::F32, Precision::F64] {
        let options = BuildOptions {
            precision,
            ..BuildOptions::default()
        };
        let prepared = prepare(scene, options).expect("build");
        let spheres = match precision {
            Precision::F32 => run_with::<f32>(scene, &prepared, 1, None, false),
            Precision::F64 => run_with::<f64>(scene, &prepared, 1, None, false),
        }
        .expect("spheres")
        .0;
        for (k, bound) in [PairBound::Boxes15, PairBound::Boxes6]
            .into_iter()
            .enumerate()
        {
            let boxes = match precision {
                Precision::F32 => run_bounded::<f32>(scene, &prepared, 1, bound, false),
                Precision::F64 => run_bounded::<f64>(scene, &prepared, 1, bound, false),
            }
            .expect("boxes")
            .0;
            for (f, (s, b)) in spheres.iter().zip(&boxes).enumerate() {
                assert_eq!(
                    s.pairs, b.pairs,
                    "{precision:?} {bound:?} frame {f}: box pairs differ from sphere pairs"
                );
                visited[k + 1] += u64::from(b.stats.nodes_visited);
                if k == 0 {
                    visited[0] += u64::from(s.stats.nodes_visited);
                }
            }
        }
        // Both against the brute force.
        let tri_of = |f: usize| deformed_triangles(scene, &scene.frames[f]);
        for (f, frame) in spheres.iter().enumerate() {
            let truth: BTreeSet<Contact> = brute_force_frame(scene, f).into_iter().collect();
            truth_pairs += truth.len();
            let reported: BTreeSet<Contact> = frame.pairs.iter().copied().collect();
            let missed: Vec<_> = truth.difference(&reported).collect();
            assert!(
                missed.is_empty(),
                "{precision:?} frame {f} misses {missed:?}"
            );
            let tri = tri_of(f);
            for &(a, b, ta, tb) in reported.difference(&truth) {
                let gap = oracle::triangle_distance(&tri[a][ta as usize], &tri[b][tb as usize]).0;
                let bound = pair_bound(scene, f, a, b);
                assert!(
                    gap <= bound,
                    "{precision:?} frame {f}: extra {:?} {gap:e} apart, beyond {bound:e}",
                    (a, b, ta, tb)
                );
            }
        }
    }
    (truth_pairs, visited)
}

#[test]
fn box_bounds_find_the_sphere_pairs_far_touching_and_in_millimetres() {
    let mut truth = 0;
    let mut visited = [0u64; 3];
    let mut add = |(t, v): (usize, [u64; 3])| {
        truth += t;
        for k in 0..3 {
            visited[k] += v[k];
        }
    };
    for seed in 0..3 {
        add(check(&far_scene(0xb0c5 + seed, 2)));
        add(check(&touching_scene(0x70c4 + seed, 2)));
        add(check(&mixed_scene(0x3173_0200 + seed)));
    }
    add(check(&millimetre_scene()));
    eprintln!(
        "box bounds: {truth} brute-force pairs; node pairs visited: spheres {}, boxes15 {}, \
         boxes6 {}",
        visited[0], visited[1], visited[2]
    );
    assert!(truth > 0, "no touching pair in the scenes");
}

/// Random poses of a modal ball and a ring, 1 to 10⁴ from the origin: the pair query with each
/// bound gives the same pairs, in f32 and f64, some of them non-empty.
#[test]
fn pairs_with_each_bound_agree_on_random_far_states() {
    let mut rng = Rng::new(0xb0c5_0001);
    let mut touching = 0;
    for precision in [Precision::F32, Precision::F64] {
        let options = BuildOptions {
            precision,
            ..BuildOptions::default()
        };
        let ball = icosphere(0.5, 2);
        let basis = smooth_basis(&ball.vertices, 3, 0.1);
        let (ta, _) = Tree::build(&ball, Some(&basis), options).expect("a");
        let (tb, _) = Tree::build(&torus(0.5, 0.15, 18, 8), None, options).expect("b");
        let (mut a, mut b) = (Body::new(&ta).expect("a"), Body::new(&tb).expect("b"));
        for _ in 0..12 {
            let far = 10f64.powf(rng.uniform(0.0, 4.0));
            let centre = rng.unit_vector().map(|x| x * far);
            let tb: [f64; 3] = std::array::from_fn(|k| centre[k] + rng.uniform(-0.6, 0.6));
            let q: Vec<f64> = (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect();
            a.set_state(rng.rotation(), centre, &q).expect("a");
            b.set_state(rng.rotation(), tb, &[]).expect("b");
            let spheres = host::pairs(&mut a, &mut b).expect("spheres").items;
            for bound in [PairBound::Spheres, PairBound::Boxes15, PairBound::Boxes6] {
                let found = host::pairs_with(&mut a, &mut b, bound)
                    .expect("boxes")
                    .items;
                assert_eq!(found, spheres, "{precision:?} {bound:?}");
            }
            touching += usize::from(!spheres.is_empty());
        }
    }
    assert!(touching >= 4, "too few touching states: {touching}");
    assert_eq!(PairBound::from_name("boxes6"), Some(PairBound::Boxes6));
    assert_eq!(PairBound::from_name("boxes"), None);
}

#[test]
fn collide_bounds_through_the_cli_give_the_sphere_pairs() {
    let dir = crate::support::Scratch::new("boxes-cli");
    let scene = millimetre_scene();
    let path = write_scene(&dir, &scene, "mm");
    let demo = crate::binary::fixtures().join("scenes/touching.json");
    for path in [path.to_str().expect("path"), demo.to_str().expect("path")] {
        for precision in ["f32", "f64"] {
            let pairs = |bounds: &str| -> Vec<serde_json::Value> {
                json_lines(&[
                    "collide",
                    path,
                    "--precision",
                    precision,
                    "--bounds",
                    bounds,
                    "--check",
                    "--json",
                ])
                .into_iter()
                .map(|x| x["pairs"].clone())
                .collect()
            };
            let spheres = pairs("spheres");
            assert!(spheres
                .iter()
                .any(|p| p.as_array().is_some_and(|a| !a.is_empty())));
            assert_eq!(pairs("boxes15"), spheres, "{path} {precision}");
            assert_eq!(pairs("boxes6"), spheres, "{path} {precision}");
        }
    }
    // An unknown bound is a usage error (clap's exit code 2) naming the flag, the value and
    // the choices.
    let out = crate::binary::bdtree(&["collide", demo.to_str().unwrap(), "--bounds", "boxes"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for needle in ["'boxes'", "--bounds", "spheres, boxes15, boxes6"] {
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
}
