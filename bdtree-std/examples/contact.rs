//! Two soft balls collide and bounce apart under BD-Tree penalty forces.
//!
//! Each ball (radius 0.3 m, rubber-like: E = 0.5 MPa, ν = 0.45, ρ = 1000 kg/m³) moves by a
//! rigid translation and its 6 lowest vibration modes from [`bdtree_std::modal`]. Every time
//! step (0.1 ms) the bounded-depth proxy query (depth 10) finds the overlapping contact
//! spheres; each gives a penalty force `k d n` ([`bdtree_core::world::response`]), summed into a force
//! on each ball's center of mass and a generalized force on its modes. Dynamics, integrated by
//! semi-implicit Euler:
//!
//! ```text
//! m ẍ = F                                              (translation; rotation is not simulated)
//! m_j q̈_j = f_q,j − m_j ω_j² q_j − 2 ζ ω_j m_j q̇_j       (each mode, ζ = 2 %)
//! ```
//!
//! with `m_j ≈ (m / N) Σ_i ‖U_ij‖²`, the mode's mass lumped on the N surface vertices (the
//! modes are scaled to a largest displacement of 1 m per unit of `q`, so `q` is in metres).
//!
//! ```sh
//! cargo run --release -p bdtree-std --example contact
//! ```
//!
//! The penalty acts on sphere overlap, so contact starts when the proxy spheres touch — a
//! little before the surfaces do (reported at the end). The spheres' radii also grow with
//! `|q|` (`R + ΔR·|q|`), a dependence the generalized force does not include, so the contact
//! model is not exactly conservative; the modal damping and the energy left in vibration make
//! the measured restitution below 1.

use bdtree_core::world::response::{respond, Wrench};
use bdtree_core::{collide_proxies, proxy_stack_capacity, Pose, ProxyPair, QueryStatus};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::modal::{compute_modes, ModalOptions};
use bdtree_std::shapes::procedural::icosphere;
use bdtree_std::BodyStorage;

const MODES: usize = 6;
const PROXY_DEPTH: u32 = 10;
const DT: f64 = 1e-4;
const STEPS: usize = 8000;
/// Penalty stiffness per proxy pair, N/m.
const STIFFNESS: f64 = 2e4;
const DAMPING_RATIO: f64 = 0.02;

struct State {
    x: [f64; 3],
    v: [f64; 3],
    q: [f64; MODES],
    qd: [f64; MODES],
}

fn main() -> Result<(), String> {
    let radius = 0.3;
    let mesh = icosphere(radius, 3);
    let options = ModalOptions {
        modes: MODES,
        young: 5e5,
        poisson: 0.45,
        density: 1000.0,
        resolution: Some(10),
        ..ModalOptions::default()
    };
    let analysis = compute_modes(&mesh, &options, &mut |_| {}).map_err(|e| e.to_string())?;
    let basis = &analysis.basis;
    let mass = options.density * 4.0 / 3.0 * std::f64::consts::PI * radius.powi(3);
    let n = basis.vertices as f64;
    let modal_mass: Vec<f64> = (0..MODES)
        .map(|j| {
            let sum: f64 = (0..basis.vertices)
                .map(|i| (0..3).map(|k| basis.get(i, k, j).powi(2)).sum::<f64>())
                .sum();
            mass / n * sum
        })
        .collect();
    let omega: Vec<f64> = analysis.eigenvalues.iter().map(|l| l.sqrt()).collect();
    println!(
        "two balls: radius {radius} m, mass {mass:.1} kg, modes {:?} Hz",
        analysis
            .frequencies_hz
            .iter()
            .map(|f| format!("{f:.1}"))
            .collect::<Vec<_>>()
    );
    let build_options = BuildOptions {
        precision: Precision::F32,
        nested: true,
        ..BuildOptions::default()
    };
    let (buf, _) =
        build(&mesh, Some(basis), build_options, &mut |_| {}).map_err(|e| e.to_string())?;
    let image = buf.parse::<f32>().map_err(|e| e.to_string())?;
    let mut caches = [
        BodyStorage::new(image.tree.node_count()),
        BodyStorage::new(image.tree.node_count()),
    ];
    let [c0, c1] = &mut caches;
    let mut bodies = [
        c0.body(&image).map_err(|e| e.to_string())?,
        c1.body(&image).map_err(|e| e.to_string())?,
    ];
    let speed = 1.0;
    let mut states = [
        State {
            x: [-0.45, 0.05, 0.0],
            v: [speed, 0.0, 0.0],
            q: [0.0; MODES],
            qd: [0.0; MODES],
        },
        State {
            x: [0.45, -0.05, 0.0],
            v: [-speed, 0.0, 0.0],
            q: [0.0; MODES],
            qd: [0.0; MODES],
        },
    ];
    let depth = image.tree.depth();
    let mut stack = vec![[0u32; 2]; proxy_stack_capacity(depth, PROXY_DEPTH, depth, PROXY_DEPTH)];
    let mut pairs: Vec<ProxyPair<f32>> = Vec::new();
    let (mut first_contact, mut last_contact) = (None, None);
    let mut gap_at_first_contact = 0.0;
    let (mut max_depth, mut max_q, mut max_pairs) = (0.0f64, 0.0f64, 0usize);
    println!(
        "{:>7} {:>9} {:>7} {:>10} {:>10} {:>10}",
        "t (ms)", "gap (mm)", "proxies", "depth (mm)", "|q| (mm)", "v_x (m/s)"
    );
    for step in 0..=STEPS {
        for (body, s) in bodies.iter_mut().zip(&states) {
            let pose = Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], s.x.map(|x| x as f32))
                .map_err(|e| e.to_string())?;
            let q = s.q.map(|x| x as f32);
            body.set_state(pose, &q).map_err(|e| e.to_string())?;
        }
        pairs.clear();
        let [a, b] = &mut bodies;
        let outcome = collide_proxies(a, b, PROXY_DEPTH, PROXY_DEPTH, &mut stack, &mut |p| {
            pairs.push(p);
            true
        });
        if outcome.status != QueryStatus::Complete {
            return Err(format!("step {step}: {:?}", outcome.status));
        }
        let (mut wa, mut wb) = (Wrench::<f32, MODES>::ZERO, Wrench::<f32, MODES>::ZERO);
        let mut deepest = 0.0f64;
        for p in &pairs {
            if let Some(c) = respond(a, b, p, STIFFNESS as f32, &mut wa, &mut wb) {
                deepest = deepest.max(f64::from(c.depth));
            }
        }
        if deepest > 0.0 {
            if first_contact.is_none() {
                gap_at_first_contact = states[1].x[0] - states[0].x[0] - 2.0 * radius;
            }
            first_contact.get_or_insert(step);
            last_contact = Some(step);
        }
        max_depth = max_depth.max(deepest);
        max_pairs = max_pairs.max(pairs.len());
        for (s, w) in states.iter_mut().zip([&wa, &wb]) {
            for k in 0..3 {
                s.v[k] += DT * f64::from(w.force[k]) / mass;
                s.x[k] += DT * s.v[k];
            }
            for j in 0..MODES {
                let f = f64::from(w.q[j]);
                let acc = f / modal_mass[j]
                    - omega[j] * omega[j] * s.q[j]
                    - 2.0 * DAMPING_RATIO * omega[j] * s.qd[j];
                s.qd[j] += DT * acc;
                s.q[j] += DT * s.qd[j];
            }
            max_q = max_q.max(s.q.iter().map(|x| x * x).sum::<f64>().sqrt());
        }
        if step % 400 == 0 {
            let gap = states[1].x[0] - states[0].x[0] - 2.0 * radius;
            let qn = states[0].q.iter().map(|x| x * x).sum::<f64>().sqrt();
            println!(
                "{:>7.1} {:>9.2} {:>7} {:>10.2} {:>10.2} {:>10.3}",
                step as f64 * DT * 1e3,
                gap * 1e3,
                pairs.len(),
                deepest * 1e3,
                qn * 1e3,
                states[0].v[0]
            );
        }
    }
    let (Some(first), Some(last)) = (first_contact, last_contact) else {
        return Err("the balls never touched".into());
    };
    let closing = 2.0 * speed;
    let separating = states[1].v[0] - states[0].v[0];
    println!(
        "contact from {:.1} ms to {:.1} ms: up to {max_pairs} proxy pairs, deepest sphere overlap {:.1} mm, \
         largest modal deformation ‖q‖ {:.1} mm",
        first as f64 * DT * 1e3,
        last as f64 * DT * 1e3,
        max_depth * 1e3,
        max_q * 1e3
    );
    println!(
        "the proxy spheres first touched with the rest surfaces {:.1} mm apart: a contact \
         sphere reaches up to its radius beyond the surface it bounds (deeper proxies: closer)",
        gap_at_first_contact * 1e3
    );
    println!(
        "closing speed {closing:.2} m/s, separating speed {separating:.2} m/s (restitution {:.2}); \
         momentum x {:.2e} kg·m/s (was 0)",
        separating / closing,
        mass * (states[0].v[0] + states[1].v[0])
    );
    if separating <= 0.0 {
        return Err("the balls did not separate".into());
    }
    Ok(())
}
