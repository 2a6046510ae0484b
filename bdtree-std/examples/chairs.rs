//! Many flexing chairs dropped on the ground: the BD-Tree paper's chairs experiment, small.
//!
//! A chair mesh (seat, four legs and a back made of subdivided boxes) gets its 10 lowest
//! vibration modes from [`bdtree_std::modes`] (stiff plastic: E = 50 MPa, ν = 0.35, ρ = 1000
//! kg/m³); `N` copies start in a staggered grid above the ground and fall. Each step (2 ms,
//! semi-implicit Euler): sweep-and-prune over root spheres, proxy queries (depth 7) for the
//! candidate pairs with penalty forces ([`bdtree_core::response`]), proxy spheres against the
//! ground plane, then translation and modal dynamics (`q̈ + 2ζω q̇ + ω² q = f_q / m_j`, ζ = 5 %,
//! modal coordinates clamped to ±1 cm — a strain limit). Rotation is not simulated.
//!
//! The deformable trajectory is recorded, then its collision part (broad phase, proxy queries
//! and ground) is replayed twice on the same positions: with the chairs' `q`, and rigid
//! (`q = 0`). That is the cost of deformation for identical configurations; the paper measured
//! a ratio of 2 for whole simulations.
//!
//! ```sh
//! cargo run --release -p bdtree-std --example chairs -- 1000
//! ```

use std::time::Instant;

use bdtree_core::response::{respond, Wrench};
use bdtree_core::{
    collide_proxies, proxy_stack_capacity, AllPairs, Body, CacheEntry, Pose, ProxyPair,
    SweepAndPrune,
};
use bdtree_std::builder::{build, BuildOptions, Precision};
use bdtree_std::mesh::Mesh;
use bdtree_std::modes::{compute_modes, ModalOptions};

const MODES: usize = 10;
const DEPTH: u32 = 7;
const DT: f64 = 0.002;
const STIFFNESS: f32 = 2e4;
const GRAVITY: f64 = 9.81;

/// A closed box `[lo, hi]`, each face a grid of `n` cells per metre (at least 1 per side); the
/// faces' shared edges are welded, so every box is a closed surface of its own.
fn add_box(mesh: &mut Mesh, lo: [f64; 3], hi: [f64; 3], n: f64) {
    let mut part = Mesh {
        vertices: Vec::new(),
        triangles: Vec::new(),
    };
    add_faces(&mut part, lo, hi, n);
    // Weld bit-identical positions (the face grids compute shared edges identically).
    let mut index = std::collections::HashMap::new();
    let mut remap = Vec::with_capacity(part.vertices.len());
    let base = mesh.vertices.len() as u32;
    for p in &part.vertices {
        let key = p.map(f64::to_bits);
        let next = base + index.len() as u32;
        let id = *index.entry(key).or_insert_with(|| {
            mesh.vertices.push(*p);
            next
        });
        remap.push(id);
    }
    for t in &part.triangles {
        mesh.triangles.push(t.map(|v| remap[v as usize]));
    }
}

fn add_faces(mesh: &mut Mesh, lo: [f64; 3], hi: [f64; 3], n: f64) {
    let cells = [0, 1, 2].map(|k| (((hi[k] - lo[k]) * n).ceil() as usize).max(1));
    for axis in 0..3 {
        for side in [0, 1] {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let base = mesh.vertices.len() as u32;
            let (nu, nv) = (cells[u], cells[v]);
            for j in 0..=nv {
                for i in 0..=nu {
                    let mut p = [0.0; 3];
                    p[axis] = if side == 0 { lo[axis] } else { hi[axis] };
                    p[u] = lo[u] + (hi[u] - lo[u]) * i as f64 / nu as f64;
                    p[v] = lo[v] + (hi[v] - lo[v]) * j as f64 / nv as f64;
                    mesh.vertices.push(p);
                }
            }
            let id = |i: usize, j: usize| base + (i + j * (nu + 1)) as u32;
            for j in 0..nv {
                for i in 0..nu {
                    let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
                    // Outward orientation: flip on the low side.
                    if side == 1 {
                        mesh.triangles.push([a, b, c]);
                        mesh.triangles.push([a, c, d]);
                    } else {
                        mesh.triangles.push([a, c, b]);
                        mesh.triangles.push([a, d, c]);
                    }
                }
            }
        }
    }
}

fn chair() -> Mesh {
    let mut mesh = Mesh {
        vertices: Vec::new(),
        triangles: Vec::new(),
    };
    let n = 40.0;
    add_box(&mut mesh, [-0.2, -0.2, 0.40], [0.2, 0.2, 0.44], n); // seat
    for (x, y) in [(-0.2, -0.2), (0.16, -0.2), (-0.2, 0.16), (0.16, 0.16)] {
        add_box(&mut mesh, [x, y, 0.0], [x + 0.04, y + 0.04, 0.40], n); // legs
    }
    add_box(&mut mesh, [-0.2, 0.16, 0.44], [0.2, 0.2, 0.84], n); // back
    mesh
}

struct State {
    x: [f64; 3],
    v: [f64; 3],
    q: [f64; MODES],
    qd: [f64; MODES],
}

/// Proxy spheres of a body (nodes at `DEPTH` or shallower leaves) below the ground plane:
/// penalty force straight up at the sphere's lowest point.
fn ground<const M: usize>(
    body: &mut Body<'_, '_, f32, M>,
    wrench: &mut Wrench<f32, M>,
    contacts: &mut usize,
) {
    let mut stack = vec![0usize];
    while let Some(k) = stack.pop() {
        let Some(s) = body.sphere(k) else { continue };
        if s[2] - s[3] >= 0.0 {
            continue;
        }
        let depth = body.tree().node_depth(k).unwrap_or(0);
        match body.tree().kind(k) {
            Some(bdtree_core::NodeKind::Internal { left, right }) if depth < DEPTH => {
                stack.push(left as usize);
                stack.push(right as usize);
            }
            _ => {
                let penetration = s[3] - s[2];
                let f = [0.0, 0.0, STIFFNESS * penetration];
                let _ = bdtree_core::response::apply_at_node(body, k, [s[0], s[1], 0.0], f, wrench);
                *contacts += 1;
            }
        }
    }
}

/// Storage and scratch for the collision part of a step.
struct World<'i> {
    image: &'i bdtree_core::Image<'i, f32>,
    caches: Vec<Vec<CacheEntry<f32>>>,
    order: Vec<u32>,
    roots: Vec<[f32; 4]>,
    stack: Vec<[u32; 2]>,
}

impl<'i> World<'i> {
    fn new(image: &'i bdtree_core::Image<'i, f32>, count: usize) -> Self {
        let depth = image.tree.depth();
        Self {
            image,
            caches: (0..count)
                .map(|_| vec![CacheEntry::default(); image.tree.node_count()])
                .collect(),
            order: vec![0u32; count],
            roots: vec![[0.0; 4]; count],
            stack: vec![[0u32; 2]; proxy_stack_capacity(depth, DEPTH, depth, DEPTH)],
        }
    }

    /// Sets every chair's state and computes the contact wrenches; returns them, the seconds
    /// the collision part took, and the chair–chair and ground contact counts.
    fn step(
        &mut self,
        states: &[([f64; 3], [f64; MODES])],
    ) -> (Vec<Wrench<f32, MODES>>, f64, usize, usize) {
        let image = self.image;
        let mut bodies: Vec<Body<'_, '_, f32, MODES>> = self
            .caches
            .iter_mut()
            .map(|c| Body::new(image, c).expect("body"))
            .collect();
        for (body, (x, q)) in bodies.iter_mut().zip(states) {
            let pose =
                Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], x.map(|v| v as f32)).expect("pose");
            body.set_state(pose, &q.map(|v| v as f32)).expect("state");
        }
        let started = Instant::now();
        let count = bodies.len();
        let mut wrenches = vec![Wrench::<f32, MODES>::ZERO; count];
        for (root, body) in self.roots.iter_mut().zip(bodies.iter_mut()) {
            *root = body.sphere(0).expect("root");
        }
        let mut candidates = Vec::new();
        let mut sweep = SweepAndPrune::new(&mut self.order);
        sweep.pairs(&self.roots, &AllPairs, &mut |i, j| {
            candidates.push((i as usize, j as usize));
            true
        });
        let (mut pairs, mut grounds) = (0usize, 0usize);
        let mut proxies: Vec<ProxyPair<f32>> = Vec::new();
        for &(i, j) in &candidates {
            let (head, tail) = bodies.split_at_mut(j);
            let (a, b) = (&mut head[i], &mut tail[0]);
            proxies.clear();
            collide_proxies(a, DEPTH, b, DEPTH, &mut self.stack, &mut |p| {
                proxies.push(p);
                true
            });
            let (wh, wt) = wrenches.split_at_mut(j);
            for p in &proxies {
                if respond(p, STIFFNESS, a, b, &mut wh[i], &mut wt[0]).is_some() {
                    pairs += 1;
                }
            }
        }
        for (body, w) in bodies.iter_mut().zip(wrenches.iter_mut()) {
            ground(body, w, &mut grounds);
        }
        (wrenches, started.elapsed().as_secs_f64(), pairs, grounds)
    }
}

/// Runs the deformable simulation; returns every step's states.
fn simulate(
    count: usize,
    world: &mut World<'_>,
    omega: &[f64],
    modal_mass: &[f64],
    mass: f64,
    steps: usize,
) -> Vec<Vec<([f64; 3], [f64; MODES])>> {
    let side = (count as f64).sqrt().ceil() as usize;
    let mut states: Vec<State> = (0..count)
        .map(|k| State {
            x: [
                (k % side) as f64 * 0.7,
                (k / side) as f64 * 0.7,
                0.1 + 0.3 * (k % 3) as f64 + 0.05 * (k % 7) as f64,
            ],
            v: [0.0; 3],
            q: [0.0; MODES],
            qd: [0.0; MODES],
        })
        .collect();
    let mut trajectory = Vec::with_capacity(steps);
    for _ in 0..steps {
        let snapshot: Vec<([f64; 3], [f64; MODES])> = states.iter().map(|s| (s.x, s.q)).collect();
        let (wrenches, _, _, _) = world.step(&snapshot);
        trajectory.push(snapshot);
        for (s, w) in states.iter_mut().zip(&wrenches) {
            for k in 0..3 {
                let g = if k == 2 { -GRAVITY } else { 0.0 };
                let damping = -2.0 * s.v[k];
                s.v[k] += DT * (f64::from(w.force[k]) / mass + g + damping);
                s.x[k] += DT * s.v[k];
            }
            for j in 0..MODES {
                let acc = f64::from(w.q[j]) / modal_mass[j]
                    - omega[j] * omega[j] * s.q[j]
                    - 0.1 * omega[j] * s.qd[j];
                s.qd[j] += DT * acc;
                s.q[j] = (s.q[j] + DT * s.qd[j]).clamp(-0.01, 0.01);
            }
        }
    }
    trajectory
}

/// Replays a trajectory's collision part, with its `q` or with `q = 0` (the same chairs at
/// the same places, rigid); returns seconds per step and contacts per step.
fn replay(
    world: &mut World<'_>,
    trajectory: &[Vec<([f64; 3], [f64; MODES])>],
    rigid: bool,
) -> (f64, f64, f64) {
    let (mut time, mut pairs, mut grounds) = (0.0, 0usize, 0usize);
    for step in trajectory {
        let states: Vec<([f64; 3], [f64; MODES])> = step
            .iter()
            .map(|&(x, q)| (x, if rigid { [0.0; MODES] } else { q }))
            .collect();
        let (_, t, p, g) = world.step(&states);
        time += t;
        pairs += p;
        grounds += g;
    }
    let n = trajectory.len().max(1) as f64;
    (time / n, pairs as f64 / n, grounds as f64 / n)
}

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let steps = 250;
    let mesh = chair();
    let options = ModalOptions {
        modes: MODES,
        young: 5e7,
        poisson: 0.35,
        density: 1000.0,
        resolution: 42,
    };
    let started = Instant::now();
    let analysis = compute_modes(&mesh, &options, &mut |_| {}).expect("modes");
    let volume = analysis.lattice.solid_cells as f64 * analysis.lattice.spacing.powi(3);
    let mass = options.density * volume;
    let n = analysis.basis.vertices as f64;
    let modal_mass: Vec<f64> = (0..MODES)
        .map(|j| {
            mass / n
                * (0..analysis.basis.vertices)
                    .map(|i| {
                        (0..3)
                            .map(|k| analysis.basis.get(i, k, j).powi(2))
                            .sum::<f64>()
                    })
                    .sum::<f64>()
        })
        .collect();
    let omega: Vec<f64> = analysis.eigenvalues.iter().map(|l| l.sqrt()).collect();
    let options = BuildOptions {
        precision: Precision::F32,
        nested: true,
        ..BuildOptions::default()
    };
    let buf = build(&mesh, Some(&analysis.basis), options, &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<f32>().expect("image");
    println!(
        "chair: {} triangles, {:.1} kg, modes {:.0}–{:.0} Hz, tree depth {} (modal analysis and build {:.1} s)",
        mesh.triangles.len(),
        mass,
        analysis.frequencies_hz[0],
        analysis.frequencies_hz[MODES - 1],
        image.tree.depth(),
        started.elapsed().as_secs_f64()
    );
    let mut world = World::new(&image, count);
    let trajectory = simulate(count, &mut world, &omega, &modal_mass, mass, steps);
    let settled = trajectory.last().map_or(0.0, |s| {
        s.iter()
            .map(|(_, q)| q.iter().map(|x| x * x).sum::<f64>().sqrt())
            .fold(0.0, f64::max)
    });
    let (deformable, pairs_d, ground_d) = replay(&mut world, &trajectory, false);
    let (rigid, pairs_r, ground_r) = replay(&mut world, &trajectory, true);
    println!("{count} chairs, {steps} steps of {} ms, proxy depth {DEPTH} (largest ‖q‖ at the end {:.1} mm):", DT * 1e3, settled * 1e3);
    println!(
        "  deformable: {:.3} ms collision time per step, {:.1} chair–chair and {:.1} ground proxy contacts per step",
        deformable * 1e3,
        pairs_d,
        ground_d
    );
    println!(
        "  same positions, rigid (q = 0): {:.3} ms per step, {:.1} chair–chair and {:.1} ground proxy contacts per step",
        rigid * 1e3,
        pairs_r,
        ground_r
    );
    println!(
        "  deformable / rigid collision cost: {:.2} (paper: 2; target ≤ 1.5)",
        deformable / rigid
    );
}
