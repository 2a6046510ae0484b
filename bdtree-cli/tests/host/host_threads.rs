//! The host world on several threads and with either broad phase: every answer the serial
//! sweep's, bit for bit (the same items in the same order, the same counters, the same
//! wrenches), on randomized worlds of deformable and rigid bodies in f32 and f64, near and far
//! from the origin, with a ground plane.

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::host::{Body, BroadPhase, Primitive, Tree, World};
use bdtree_std::io::scene::PrimitiveShape;
use bdtree_std::io::Pose;
use bdtree_std::rng::Rng;
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, torus};

/// A world of `n` bodies (balls with 3 modes and rigid rings) heaped in a column around
/// `centre`, with the plane under them.
fn world(n: usize, precision: Precision, centre: [f64; 3], seed: u64) -> World {
    let options = BuildOptions {
        precision,
        nested: true,
        ..BuildOptions::default()
    };
    let (ball, ring) = (icosphere(0.5, 2), torus(0.5, 0.15, 18, 8));
    let basis = smooth_basis(&ball.vertices, 3, 0.1);
    let (ta, _) = Tree::build(&ball, Some(&basis), options).expect("ball");
    let (tb, _) = Tree::build(&ring, None, options).expect("ring");
    let bodies = (0..n)
        .map(|k| Body::new(if k % 3 == 0 { &tb } else { &ta }).expect("body"))
        .collect();
    let plane = PrimitiveShape::Plane {
        normal: [0.0, 0.0, 1.0],
        offset: centre[2],
    };
    let ground = Primitive::new(plane, Pose::IDENTITY).expect("plane");
    let mut world = World::new(bodies, vec![ground]).expect("world");
    let mut rng = Rng::new(seed);
    for k in 0..n {
        let t = [
            centre[0] + rng.uniform(-1.5, 1.5),
            centre[1] + rng.uniform(-1.5, 1.5),
            centre[2] + rng.uniform(0.3, 0.3 + 0.08 * n as f64),
        ];
        let q: Vec<f64> = if k % 3 == 0 {
            Vec::new()
        } else {
            (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect()
        };
        world.set_state(k, rng.rotation(), t, &q).expect("state");
    }
    world
}

/// Every world query's answer, printed exactly (`{:?}` of an f64 round-trips it).
fn answers(world: &mut World) -> Vec<String> {
    let (proxies, wrenches) = world.proxy_forces(4, 1e4).expect("proxy forces");
    let (contacts, contact_wrenches) = world.contact_forces(1e4).expect("contact forces");
    vec![
        format!("{:?}", world.pairs(false).expect("pairs")),
        format!("{:?}", world.contacts().expect("contacts")),
        format!("{:?}", world.within(0.05).expect("within")),
        format!("{:?}", world.proxies(4).expect("proxies")),
        format!("{proxies:?} {wrenches:?}"),
        format!("{contacts:?} {contact_wrenches:?}"),
        format!(
            "{:?}",
            world.primitive_proxies(4).expect("primitive proxies")
        ),
        format!("{:?}", world.closer_than(0.02).expect("closer")),
    ]
}

#[test]
fn threads_and_broad_phases_answer_as_the_serial_sweep() {
    let mut touching = 0;
    for (case, (precision, centre)) in [
        (Precision::F32, [0.0, 0.0, 0.0]),
        (Precision::F64, [0.0, 0.0, 0.0]),
        (Precision::F32, [3e3, -2e3, 50.0]),
        (Precision::F64, [-1e5, 4e4, 7.0]),
    ]
    .into_iter()
    .enumerate()
    {
        let n = 48;
        let mut serial = world(n, precision, centre, 0x62 + case as u64);
        serial.set_broad_phase(BroadPhase::Sweep);
        assert_eq!(serial.threads(), 1, "serial by default");
        let truth = answers(&mut serial);
        let pairs = serial.pairs(false).expect("pairs");
        assert!(
            pairs.candidates > n,
            "a heap: {} candidates",
            pairs.candidates
        );
        touching += pairs.found.len();
        for (threads, broad) in [
            (1, BroadPhase::Grid),
            (2, BroadPhase::Sweep),
            (2, BroadPhase::Grid),
            (3, BroadPhase::Auto),
        ] {
            let mut other = world(n, precision, centre, 0x62 + case as u64);
            other.set_threads(threads).expect("threads");
            other.set_broad_phase(broad);
            assert_eq!(other.threads(), threads);
            let got = answers(&mut other);
            for (k, (a, b)) in truth.iter().zip(&got).enumerate() {
                assert!(
                    a == b,
                    "case {case}, {threads} threads, {broad:?}: query {k} differs"
                );
            }
            if threads == 2 && broad == BroadPhase::Grid {
                // Asked again on the same world (warm caches): the same.
                assert_eq!(answers(&mut other), truth, "case {case}: again");
            }
        }
    }
    assert!(touching > 20, "too few intersecting pairs: {touching}");
}
