//! The kernel's deprecated paths (the flat layout's modules, the argument orders before the one
//! order): each still compiles and gives the new function's answer, bit for bit, on a touching
//! pair of deformed bodies.

#![allow(deprecated)]

use bdtree_core::{stack_capacity, Body, Pose, ProxyPair, QueryOutcome, Wrench};
use bdtree_std::build::{build, BuildOptions};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};
use bdtree_std::BodyStorage;

const DEPTH: u32 = 3;

fn with_pair(run: impl FnOnce(&mut Body<'_, '_, f32>, &mut Body<'_, '_, f32>, &mut [[u32; 2]])) {
    let mesh = icosphere(0.5, 2);
    let basis = smooth_basis(&mesh.vertices, 4, 0.05);
    let options = BuildOptions {
        nested: true,
        ..BuildOptions::default()
    };
    let image = build(&mesh, Some(&basis), options, &mut |_| {})
        .expect("build")
        .0;
    let view = image.parse::<f32>().expect("parse");
    let (mut sa, mut sb) = (
        BodyStorage::new(view.tree.node_count()),
        BodyStorage::new(view.tree.node_count()),
    );
    let (mut a, mut b) = (sa.body(&view).expect("a"), sb.body(&view).expect("b"));
    // Overlapping by a fifth of a radius, turned, breathing.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    a.set_state(Pose::identity(), &[0.3, -0.2, 0.1, 0.0])
        .expect("a");
    b.set_state(
        Pose::from_quaternion([h, 0.0, h, 0.0], [0.9, 0.05, 0.0]).expect("pose"),
        &[-0.1, 0.2, 0.0, 0.3],
    )
    .expect("b");
    let mut stack = vec![[0u32; 2]; stack_capacity(view.tree.depth(), view.tree.depth())];
    run(&mut a, &mut b, &mut stack);
}

#[test]
fn the_old_proxy_order_gives_the_new_answer() {
    with_pair(|a, b, stack| {
        let (mut new, mut old) = (Vec::<ProxyPair<f32>>::new(), Vec::<ProxyPair<f32>>::new());
        let n: QueryOutcome = bdtree_core::collide_proxies(a, b, DEPTH, DEPTH, stack, &mut |p| {
            new.push(p);
            true
        });
        let o = bdtree_core::proxy::collide_proxies(a, DEPTH, b, DEPTH, stack, &mut |p| {
            old.push(p);
            true
        });
        assert!(n.status.is_complete() && !new.is_empty(), "{n:?}");
        assert_eq!(
            (n.status, n.stats.nodes_visited, new),
            (o.status, o.stats.nodes_visited, old)
        );
    });
}

#[test]
fn the_old_distance_shapes_give_the_new_answers() {
    with_pair(|a, b, stack| {
        let mut answer = None;
        let n = bdtree_core::nearest(a, b, stack, &mut answer);
        let o = bdtree_core::separation::nearest(a, b, stack);
        assert!(n.status.is_complete() && answer.is_some());
        // The second call finds the spheres cached: the same walk, no sphere updates.
        let walk =
            |s: bdtree_core::QueryStats| (s.nodes_visited, s.overlap_tests, s.triangle_tests);
        assert_eq!(
            (n.status, answer, walk(n.stats)),
            (o.status, o.nearest, walk(o.stats))
        );
        for d in [0.0f32, 0.01, 1.0] {
            let mut closer = false;
            let n = bdtree_core::closer_than(a, b, d, 0.0, stack, &mut closer);
            let (o, stats) = bdtree_core::separation::closer_than(a, b, d, 0.0, stack);
            assert!(closer, "touching bodies are closer than {d}");
            assert_eq!((Some(closer), walk(n.stats)), (o, walk(stats)));
        }
    });
}

#[test]
fn the_old_module_paths_and_force_order_give_the_new_answers() {
    with_pair(|a, b, stack| {
        let mut pairs = Vec::<ProxyPair<f32>>::new();
        bdtree_core::collide_proxies(a, b, DEPTH, DEPTH, stack, &mut |p| {
            pairs.push(p);
            true
        });
        assert!(!pairs.is_empty());
        let (mut new, mut old) = ([Wrench::<f32, 4>::ZERO; 2], [Wrench::<f32, 4>::ZERO; 2]);
        for pair in &pairs {
            let [na, nb] = &mut new;
            let p = bdtree_core::respond(a, b, pair, 100.0, na, nb);
            let [oa, ob] = &mut old;
            let q = bdtree_core::response::respond(pair, 100.0, a, b, oa, ob);
            assert_eq!(p, q);
        }
        assert_eq!(new, old);
        assert!(new[0].force != [0.0; 3], "pressed bodies push each other");
        // A module path of the flat layout names the same function as the new one.
        let (x, y) = (a.sphere(0).expect("root"), b.sphere(0).expect("root"));
        assert!(bdtree_core::sphere::spheres_overlap(x, y));
        assert!(bdtree_core::bounds::sphere::spheres_overlap(x, y));
    });
}
