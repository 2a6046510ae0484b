//! A world of many bodies against brute force: every allowed pair of distinct bodies and every
//! self-colliding body whose diagonal bit is on, on the f64 deformed meshes.

use bdtree_core::{
    collide_world, self_stack_capacity, stack_capacity, BitMatrix, Body, PairFilter, Pose,
    QueryStatus, SweepAndPrune, WorldPair,
};
use bdtree_std::build::{build, BuildOptions};
use bdtree_std::io;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{config, Rng};

proptest! {
    #![proptest_config(config(16, 0xBD7_0901))]

    #[test]
    fn a_world_finds_every_allowed_contact(n in 2usize..9, seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let shapes = [
            icosphere(0.3, 2),
            torus(0.3, 0.1, 14, 6),
            sheet(0.8, 0.6, 8, 6),
            bar(1.0, 0.06, 10),
            blob(0.3, 2, 4, 3),
        ];
        let meshes: Vec<Mesh> = (0..n).map(|_| shapes[rng.below(shapes.len())].clone()).collect();
        let bases: Vec<Basis> = meshes.iter().map(|m| smooth_basis(&m.vertices, 3, 0.25)).collect();
        let images: Vec<ImageBuf> = meshes
            .iter()
            .zip(&bases)
            .map(|(m, b)| build(m, Some(b), BuildOptions::default(), &mut |_| {}).expect("build").0)
            .collect();
        let parsed: Vec<_> = images.iter().map(|b| b.parse::<f32>().expect("image")).collect();
        let mut caches: Vec<BodyStorage<f32>> =
            parsed.iter().map(|im| BodyStorage::new(im.tree.node_count())).collect();
        let mut bodies: Vec<Body<'_, '_, f32>> = caches
            .iter_mut()
            .zip(&parsed)
            .map(|(c, im)| c.body(im).expect("body"))
            .collect();
        let qs: Vec<Vec<f64>> = (0..n).map(|_| (0..3).map(|_| rng.uniform(-2.0, 2.0)).collect()).collect();
        let poses: Vec<io::Pose> = (0..n)
            .map(|_| io::Pose {
                rotation: rng.rotation(),
                translation: [0, 1, 2].map(|_| rng.uniform(-0.8, 0.8)),
            })
            .collect();
        for ((body, q), p) in bodies.iter_mut().zip(&qs).zip(&poses) {
            let pose = Pose::from_quaternion(p.rotation.map(|x| x as f32), p.translation.map(|x| x as f32)).expect("pose");
            let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
            body.set_state(pose, &q).expect("state");
        }
        let mut words = vec![0u32; BitMatrix::words_needed(n)];
        let mut filter = BitMatrix::new(&mut words, n).expect("matrix");
        for _ in 0..n / 2 {
            let (i, j) = (rng.below(n), rng.below(n));
            filter.set(i, j, i == j);
        }
        let depth = parsed.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
        let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth).max(self_stack_capacity(depth))];
        let mut order = vec![0u32; n];
        let mut sweep = SweepAndPrune::new(&mut order);
        let mut roots = vec![[0.0f32; 4]; n];
        let mut found = Vec::new();
        let outcome = collide_world(bodies.as_mut_slice(), &mut sweep, &mut roots, &filter, &mut stack, &mut |w: WorldPair| {
            found.push((w.a as usize, w.b as usize, w.triangles.a, w.triangles.b));
            true
        });
        prop_assert_eq!(outcome.status, QueryStatus::Complete);
        found.sort_unstable();
        // The same world over bodies held by reference (`[&mut Body]`) answers the same.
        let mut refs: Vec<&mut Body<'_, '_, f32>> = bodies.iter_mut().collect();
        let mut sweep = SweepAndPrune::new(&mut order);
        let mut by_ref = Vec::new();
        let again = collide_world(refs.as_mut_slice(), &mut sweep, &mut roots, &filter, &mut stack, &mut |w: WorldPair| {
            by_ref.push((w.a as usize, w.b as usize, w.triangles.a, w.triangles.b));
            true
        });
        prop_assert_eq!(again.status, QueryStatus::Complete);
        by_ref.sort_unstable();
        prop_assert_eq!(&by_ref, &found);
        let world: Vec<Vec<[f64; 3]>> = (0..n)
            .map(|b| oracle::deform(&meshes[b].vertices, Some(&bases[b]), &qs[b], &poses[b]))
            .collect();
        let mut truth = Vec::new();
        for i in 0..n {
            if filter.allows(i, i) {
                for (a, b) in oracle::brute_force_self_pairs(&world[i], &meshes[i].triangles) {
                    truth.push((i, i, a, b));
                }
            }
            for j in i + 1..n {
                if filter.allows(i, j) {
                    for (a, b) in oracle::brute_force_pairs(&world[i], &meshes[i].triangles, &world[j], &meshes[j].triangles) {
                        truth.push((i, j, a, b));
                    }
                }
            }
        }
        for t in &truth {
            prop_assert!(found.binary_search(t).is_ok(), "missed {t:?}");
        }
        for f in &found {
            prop_assert!(filter.allows(f.0, f.1), "a forbidden pair was reported: {f:?}");
        }
        // Every reported pair not in the truth is a near-touching f32 extra.
        prop_assert!(found.len() <= truth.len() + truth.len() / 5 + 8, "{} found, {} true", found.len(), truth.len());
    }
}
