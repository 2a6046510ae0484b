//! The chairs simulation: mass properties, starting placements, and a short fall that lands
//! every chair on the ground without launching any.

use std::sync::OnceLock;

use bdtree_cli::sim::chairs::{
    initial_placements, prepare_chair, simulate, simulate_from, world_vertices, Chair,
    ChairOptions, GroundContacts, Placement, ProxyContact, MODES,
};
use bdtree_cli::sim::check::{proxy_check, CheckError};
use bdtree_cli::sim::demo::{self, DemoError};
use bdtree_cli::sim::replay::{replay, Replay};
use bdtree_cli::sim::response::{
    smallest_eigenvalue, strain_limited, Push, StepLimit, DAMPING_BUDGET, VISCOUS,
};
use bdtree_std::host::BroadPhase;
use bdtree_std::shapes::chair_mesh;

/// The chair, analysed once for every test of this file (the modal analysis takes seconds).
fn chair() -> &'static Chair {
    static CHAIR: OnceLock<Chair> = OnceLock::new();
    CHAIR.get_or_init(|| prepare_chair(chair_mesh()).expect("chair"))
}

/// The mesh's origin is the solid's center of mass: its vertices balance around 0 in x and y
/// (the chair is symmetric in x) and the seat sits above the origin.
#[test]
fn the_chair_is_centered_and_closed() {
    let mesh = chair_mesh();
    assert_eq!(mesh.triangles.len(), 3648);
    let (lo, hi) = mesh.vertices.iter().fold(
        ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]),
        |(lo, hi), v| {
            (
                [0, 1, 2].map(|k| lo[k].min(v[k])),
                [0, 1, 2].map(|k| hi[k].max(v[k])),
            )
        },
    );
    assert!(
        (lo[0] + hi[0]).abs() < 1e-9,
        "symmetric in x: {lo:?} {hi:?}"
    );
    assert!(
        lo[2] < -0.3 && hi[2] > 0.3,
        "origin inside the chair's height"
    );
    // Closed surface: every edge shared by exactly two triangles.
    let mut edges = std::collections::HashMap::new();
    for t in &mesh.triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    assert!(edges.values().all(|&n| n == 2));
}

/// No two chairs start closer than the chair's bounding diameter.
#[test]
fn chairs_start_apart() {
    let mesh = chair_mesh();
    let radius = mesh
        .vertices
        .iter()
        .map(|v| v.iter().map(|x| x * x).sum::<f64>().sqrt())
        .fold(0.0, f64::max);
    let options = ChairOptions {
        count: 40,
        ..ChairOptions::default()
    };
    let placements = initial_placements(&options);
    for (i, a) in placements.iter().enumerate() {
        assert!(a.x[2] > radius, "chair {i} starts in the ground");
        for b in &placements[i + 1..] {
            let d = (0..3)
                .map(|k| (a.x[k] - b.x[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!(d > 2.0 * radius, "chairs {d} m apart");
        }
    }
}

/// Eight chairs fall for 0.8 s: contacts happen (with each other and the ground), nobody is
/// launched or sinks, every placement stays finite, and the rigid replay sees the same
/// placements.
#[test]
fn a_short_fall_lands_every_chair() {
    let chair = chair();
    assert_eq!(chair.omega.len(), MODES);
    let options = ChairOptions {
        count: 8,
        steps: 400,
        ..ChairOptions::default()
    };
    let mut calls = 0;
    let trajectory = simulate(chair, &options, &mut |_, _| calls += 1).expect("simulate");
    assert_eq!(calls, 400);
    assert_eq!(trajectory.reports[0].contacts, 0, "chairs start apart");
    let ground: usize = trajectory.reports.iter().map(|r| r.ground_contacts).sum();
    let pairs: usize = trajectory.reports.iter().map(|r| r.colliding_pairs).sum();
    let incomplete: usize = trajectory.reports.iter().map(|r| r.incomplete).sum();
    assert_eq!(incomplete, 0, "every query completes");
    assert!(
        ground > 0 && pairs > 0,
        "ground {ground}, chair pairs {pairs}"
    );
    let start = &trajectory.steps[0];
    let end = trajectory.steps.last().expect("steps");
    for (a, b) in start.iter().zip(end) {
        assert!(b
            .x
            .iter()
            .chain(&b.rotation)
            .chain(&b.q)
            .all(|x| x.is_finite()));
        assert!(b.x[2] < a.x[2], "fell");
        let lowest = world_vertices(chair, b)
            .iter()
            .map(|v| v[2])
            .fold(f64::INFINITY, f64::min);
        assert!(lowest > -0.05, "sank {lowest} m into the ground");
        assert!(b.q.iter().all(|q| q.abs() <= 0.01), "strain limit");
    }
    let rigid = replay(chair, &options, &trajectory, true).expect("replay");
    assert!(rigid.mean_seconds > 0.0 && rigid.contacts > 0.0);
}

/// Eight chairs fall for 0.8 s on the ground found as `ground` says: the deepest any chair
/// sinks into it (every 10th step), and the largest over the lower layer's chairs (the first
/// 4) of the lowest their meshes came to the ground.
fn fall(ground: GroundContacts) -> (f64, f64) {
    let chair = chair();
    let options = ChairOptions {
        count: 8,
        steps: 400,
        ground_contacts: ground,
        ..ChairOptions::default()
    };
    let trajectory = simulate(chair, &options, &mut |_, _| {}).expect("simulate");
    let contacts: usize = trajectory.reports.iter().map(|r| r.ground_contacts).sum();
    assert!(contacts > 0, "no ground contact");
    let incomplete: usize = trajectory.reports.iter().map(|r| r.incomplete).sum();
    assert_eq!(incomplete, 0, "{ground:?}: every query completes");
    let start = &trajectory.steps[0];
    let end = trajectory.steps.last().expect("steps");
    for (a, b) in start.iter().zip(end) {
        assert!(b.x.iter().chain(&b.rotation).all(|x| x.is_finite()));
        assert!(b.x[2] < a.x[2], "fell");
    }
    let (mut deepest, mut closest) = (0.0f64, [f64::INFINITY; 4]);
    for step in trajectory.steps.iter().step_by(10) {
        for (k, p) in step.iter().enumerate() {
            let lowest = world_vertices(chair, p)
                .iter()
                .map(|v| v[2])
                .fold(f64::INFINITY, f64::min);
            deepest = deepest.max(-lowest);
            if let Some(c) = closest.get_mut(k) {
                *c = c.min(lowest);
            }
        }
    }
    (
        deepest,
        closest.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    )
}

/// The ground's contact proxies (the demo's default) and its exact triangle contacts (a
/// pressure penalty per triangle) both land the chairs: every lower-layer chair comes within
/// 5 cm of the ground and none sinks 10 cm into it. Measured: proxies sink at most 3.4 mm and
/// hold the meshes up to 2.1 cm above the plane (their spheres are fatter than the mesh);
/// triangles put the meshes on the plane and let a chair landing on a leg's corner (a small
/// area, a small force) sink 5.7 cm before it stops.
#[test]
fn chairs_land_on_either_ground_model() {
    for ground in [GroundContacts::Proxies, GroundContacts::Triangles] {
        let (deepest, above) = fall(ground);
        println!(
            "{ground:?}: deepest {deepest:.4} m into the ground, lower layer down to {above:.4} m"
        );
        assert!(
            deepest < 0.1,
            "{ground:?}: sank {deepest} m into the ground"
        );
        assert!(
            above < 0.05,
            "{ground:?}: a lower-layer chair stayed {above} m above the ground"
        );
    }
}

/// The demo's proxy check compares something that can be wrong: on a short demo it finds the
/// busiest step's proxy contacts among a brute force with some to compare, and it fails,
/// naming the chairs and nodes, when a contact is dropped from the simulation's list or a
/// far pair is added to it.
#[test]
fn the_demo_check_fails_on_a_dropped_or_invented_proxy_contact() {
    let chair = chair();
    let run = demo::run(chair, 8, 400, &mut |_| {}).expect("demo");
    let check = &run.proxy_check;
    let step = run.busiest;
    assert_eq!(run.at_busiest.step, step);
    let reported = &run.at_busiest.contacts.proxies;
    assert!(
        check.truth > 0 && check.reported == reported.len(),
        "{check:?}"
    );
    assert!(check.proxies > 0 && check.chair_pairs > 0, "{check:?}");
    let summary = run.to_string();
    assert!(
        summary.contains(&format!(
            "its {} proxy contacts against a brute force",
            reported.len()
        )),
        "{summary}"
    );
    let at = &run.at_busiest.placements;
    let depth = run.options.proxy_depth;
    // Dropped: every contact's absence is seen.
    for k in 0..reported.len() {
        let mut dropped = reported.clone();
        let gone = dropped.remove(k);
        match proxy_check(chair, depth, at, &run.worlds, &dropped) {
            Err(CheckError::Missed { chairs, nodes, .. }) => {
                assert_eq!((chairs, nodes), (gone.chairs, gone.nodes));
            }
            other => panic!("dropping {gone:?}: {other:?}"),
        }
    }
    // Invented: a proxy pair of the two chairs farthest apart.
    let apart = |i: usize, j: usize| {
        let (a, b) = (at[i].x, at[j].x);
        (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>()
    };
    let (i, j) = (0..8)
        .flat_map(|i| (i + 1..8).map(move |j| (i, j)))
        .max_by(|p, q| apart(p.0, p.1).total_cmp(&apart(q.0, q.1)))
        .expect("pairs");
    let far = ProxyContact {
        chairs: [i, j],
        nodes: reported[0].nodes,
    };
    let mut invented = reported.clone();
    invented.push(far);
    let e = proxy_check(chair, depth, at, &run.worlds, &invented).expect_err("extra");
    assert!(matches!(e, CheckError::Extra { .. }), "{e:?}");
    // The demo's error (what `bdtree demo` prints before exiting with status 1).
    let text = DemoError::Check(e).to_string();
    let named = format!("demo check failed: chairs {i}, {j}");
    assert!(text.starts_with(&named), "{text}");
}

/// A small pile (27 chairs from a hopper, contacts at depth 10), run by the demo on 2
/// threads, every step kept: once for every test below.
fn small_pile() -> &'static demo::Demo {
    static PILE: OnceLock<demo::Demo> = OnceLock::new();
    PILE.get_or_init(|| {
        let options = ChairOptions {
            steps: 300,
            threads: 2,
            ..ChairOptions::pile(27)
        };
        demo::run_keeping(chair(), &options, 1, &mut |_, _, _| {}).expect("pile")
    })
}

/// The simulation is the same, bit for bit, on one thread and on two, with either broad phase:
/// every placement of every step and every step's contacts.
#[test]
fn a_pile_is_the_same_on_one_and_two_threads() {
    let pile = small_pile();
    let reference = &pile.kept;
    assert_eq!(reference.len(), pile.options.steps, "every step kept");
    assert!(
        pile.reports.iter().map(|r| r.contacts).max() > Some(20),
        "the chairs heap up"
    );
    for (threads, broad) in [(1, BroadPhase::Sweep), (1, BroadPhase::Grid)] {
        let options = ChairOptions {
            threads,
            broad,
            ..pile.options
        };
        let other = simulate(chair(), &options, &mut |_, _| {}).expect("simulate");
        assert_eq!(other.steps.len(), reference.len());
        for (step, (a, b)) in reference.iter().zip(&other.steps).enumerate() {
            assert_eq!(a.step, step);
            assert!(
                format!("{:?}", a.placements) == format!("{b:?}"),
                "{threads} thread(s), {broad:?}: step {step} differs"
            );
        }
        for (step, (a, b)) in reference.iter().zip(&other.contacts).enumerate() {
            assert_eq!(a.contacts.proxies, b.proxies, "step {step}");
            assert_eq!(
                format!("{:?}", a.contacts.ground),
                format!("{:?}", b.ground)
            );
        }
        if threads == 1 && broad == BroadPhase::Sweep {
            // The demo's streamed figures are the recorded trajectory's replays: deformable
            // (the simulation's own collision part) and rigid (each step replayed after it).
            let counts = |r: &Replay| {
                [r.colliding_pairs, r.contacts, r.ground_contacts]
                    .into_iter()
                    .chain([r.overlap_tests, r.sphere_updates])
                    .collect::<Vec<f64>>()
            };
            for (rigid, streamed) in [(false, &pile.deformable), (true, &pile.rigid)] {
                let again = replay(chair(), &options, &other, rigid).expect("replay");
                assert_eq!(counts(&again), counts(streamed), "rigid: {rigid}");
                assert_eq!(streamed.seconds.len(), pile.options.steps);
            }
            assert!(pile.rigid.contacts > 0.0 && pile.rigid.overlap_tests > 0.0);
        }
    }
}

/// The pile starts as a column of layers (nothing in contact) and ends heaped: several chairs
/// resting on others, none through the ground.
#[test]
fn a_pile_heaps_up() {
    let options = ChairOptions::pile(27);
    let start = initial_placements(&options);
    // Three layers of 3 × 3, nothing in contact (the chair's bounding diameter is 1.12 m).
    let layers = start.iter().filter(|p| p.x[2] > 2.0).count();
    assert_eq!(layers, 9, "the top layer");
    for (i, a) in start.iter().enumerate() {
        for b in &start[i + 1..] {
            let d = (0..3)
                .map(|k| (a.x[k] - b.x[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!(d > 1.12, "chairs {d} m apart");
        }
    }
    let pile = small_pile();
    let last = &pile.last.placements;
    assert_eq!(pile.last.step + 1, pile.options.steps);
    let above = last.iter().filter(|p| p.x[2] > 0.9).count();
    assert!(above >= 3, "chairs resting on chairs: {above}");
    assert!(last.iter().all(|p| p.x[2] > 0.0), "none through the ground");
}

/// At the pile's busiest step the exact check compares a non-empty set of true contacts
/// (triangle pairs within `NEAR`), and fails, naming the pair, when the host's answer loses one.
#[test]
fn the_exact_check_compares_near_pairs_and_fails_on_a_planted_miss() {
    let pile = small_pile();
    let check = &pile.check;
    assert!(check.near > 0, "{check:?}");
    let step = pile.busiest;
    assert_eq!(pile.kept[step].placements, pile.at_busiest.placements);
    let at = &pile.at_busiest.placements;
    let proxies = &pile.at_busiest.contacts.proxies;
    let again = demo::exact_check(chair(), at, &pile.worlds, proxies).expect("check");
    assert_eq!(&again, check);
    // Drop the first near pair of each chair pair: the check must fail on it.
    let mut calls = 0;
    let e = demo::exact_check_with(chair(), at, &pile.worlds, proxies, &mut |found| {
        calls += 1;
        // Every second call carries the near pairs (the intersecting ones come first).
        if calls % 2 == 0 && !found.is_empty() {
            found.remove(0);
        }
    })
    .expect_err("a planted miss");
    assert!(matches!(e, DemoError::MissedNear { .. }), "{e}");
    assert!(e.to_string().contains("missed triangle pair"), "{e}");
}

/// Two chairs released one inside the other (the upper one 10 cm into the lower, as a chair
/// landing on a heap can be pushed): hundreds of proxy contacts at depth 10 on each. The
/// explicit step without its limit turned this into a spin that overflowed at step 20 (a pile
/// of 1,000 chairs went to NaN the same way at step 582); with it, the chairs push apart at a
/// bounded speed and every state stays finite.
#[test]
fn chairs_released_inside_each_other_push_apart_without_blowing_up() {
    let chair = chair();
    let options = ChairOptions {
        steps: 150,
        ..ChairOptions::pile(2)
    };
    let mut start = initial_placements(&ChairOptions {
        count: 2,
        ..options
    });
    start[1] = Placement {
        x: [start[0].x[0], start[0].x[1] + 0.05, start[0].x[2] + 0.1],
        ..start[0]
    };
    let mut most = 0;
    let trajectory = simulate_from(chair, &options, start, [0.0; 3], &mut |_, r| {
        most = most.max(r.contacts)
    })
    .expect("simulate");
    assert!(
        most > 200,
        "{most} proxy contacts at most: not a deep overlap"
    );
    let dt = options.dt;
    let mut fastest: f64 = 0.0;
    let mut spin: f64 = 0.0;
    for (a, b) in trajectory.steps.iter().zip(&trajectory.steps[1..]) {
        for (p, q) in a.iter().zip(b) {
            let v = (0..3)
                .map(|k| (q.x[k] - p.x[k]).powi(2))
                .sum::<f64>()
                .sqrt()
                / dt;
            // The angle between the two orientations, per second.
            let dot: f64 = (0..4).map(|k| p.rotation[k] * q.rotation[k]).sum();
            let w = 2.0 * dot.abs().min(1.0).acos() / dt;
            fastest = fastest.max(v);
            spin = spin.max(w);
        }
    }
    eprintln!("fastest {fastest} m/s, spin {spin} rad/s");
    // The overlap's springs (a few hundred contacts of 2 × 10⁴ N/m, 1–2 cm deep) hold at most
    // a kilojoule: pushed apart, a 15 kg chair gets at most about 12 m/s; the unstable step
    // reached hundreds of m/s and thousands of rad/s before its NaN.
    assert!(fastest < 12.0, "a chair reached {fastest} m/s");
    assert!(spin < 100.0, "a chair turned at {spin} rad/s");
}

/// The strain limit is an inelastic stop: at the limit the velocity pushing past it is gone,
/// the velocity leaving it stays.
#[test]
fn the_strain_limit_stops_the_modal_velocity() {
    let (q, qd) = strain_limited(0.009, 5.0, 0.0, 0.002, 0.01);
    assert_eq!((q, qd), (0.01, 0.0));
    let (q, qd) = strain_limited(-0.01, -3.0, 100.0, 0.002, 0.01);
    assert_eq!((q, qd), (-0.01, 0.0));
    let (q, qd) = strain_limited(0.01, -1.0, 0.0, 0.002, 0.01);
    assert_eq!(qd, -1.0);
    assert!((q - 0.008).abs() < 1e-15);
}

/// The step's limit: the chair's smallest moment of inertia, a factor of 1 for a few contacts,
/// and for many the factor that brings the sum to 1; a contact between two chairs takes the
/// smaller factor.
#[test]
fn the_step_limit_softens_only_a_chair_in_many_contacts() {
    let chair = chair();
    let i = &chair.inertia;
    let smallest = smallest_eigenvalue(i);
    // The eigenvalue against the characteristic polynomial, and below every diagonal entry.
    let shifted: [[f64; 3]; 3] = std::array::from_fn(|r| {
        std::array::from_fn(|c| i[r][c] - if r == c { smallest } else { 0.0 })
    });
    let det = shifted[0][0] * (shifted[1][1] * shifted[2][2] - shifted[1][2] * shifted[2][1])
        - shifted[0][1] * (shifted[1][0] * shifted[2][2] - shifted[1][2] * shifted[2][0])
        + shifted[0][2] * (shifted[1][0] * shifted[2][1] - shifted[1][1] * shifted[2][0]);
    assert!(det.abs() < 1e-12, "det {det}");
    assert!((0..3).all(|k| smallest <= i[k][k]) && smallest > 0.0);
    assert_eq!(
        smallest_eigenvalue(&[[2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 1.5]]),
        1.5
    );
    let (dt, k) = (0.002, 2e4);
    let limit = StepLimit::new(chair.mass, i, dt, VISCOUS);
    let centers: Vec<[f64; 3]> = initial_placements(&ChairOptions::pile(3))
        .iter()
        .map(|p| p.x)
        .collect();
    let push = |chairs: [Option<usize>; 2], point: [f64; 3]| Push {
        chairs,
        point,
        normal: [0.0, 0.0, 1.0],
        force: 1.0,
        stiffness: k,
        scale: 1.0,
        damping: 1.0,
    };
    let at = |c: usize, dz: f64| {
        let x = centers[c];
        [x[0], x[1], x[2] + dz]
    };
    // A chair on its four feet.
    let feet: Vec<Push> = (0..4).map(|_| push([None, Some(0)], at(0, -0.5))).collect();
    let (scales, damping) = limit.scales(&centers, &feet);
    assert_eq!(scales, vec![1.0; 3]);
    let g = 1.0 / chair.mass + 0.25 / smallest;
    let damp = 4.0 * g * dt * VISCOUS;
    let expected = (DAMPING_BUDGET / damp).min(1.0);
    assert!(
        (damping[0] - expected).abs() < 1e-12,
        "{damping:?} {expected}"
    );
    assert_eq!(&damping[1..], &[1.0, 1.0]);
    // Chair 1 in 300 contacts with chair 2, 0.5 m from both centers.
    let many: Vec<Push> = (0..300)
        .map(|_| push([Some(1), Some(2)], at(1, 0.5)))
        .collect();
    let (scales, damping) = limit.scales(&centers, &many);
    assert_eq!((scales[0], damping[0]), (1.0, 1.0));
    let stiff = 300.0 * g * dt * dt * k;
    assert!(
        (scales[1] * stiff - 1.0).abs() < 1e-9,
        "{} {stiff}",
        scales[1]
    );
    let damp = 300.0 * g * dt * VISCOUS;
    assert!(
        (damping[1] * damp - DAMPING_BUDGET).abs() < 1e-9,
        "{} {damp}",
        damping[1]
    );
    assert!(scales[2] < 1.0 && damping[2] < 1.0);
    let pair = StepLimit::pair(&scales, [Some(1), Some(2)]);
    assert_eq!(pair, scales[1].min(scales[2]));
    assert_eq!(StepLimit::pair(&scales, [None, Some(0)]), 1.0);
}
