//! The BD-Tree paper's falling chairs, small: many flexing chairs dropped on the ground, with
//! the host layer's world ([`bdtree_std::host::World`]: sweep-and-prune over root spheres,
//! bounded-depth proxy queries per chair pair at its own floating origin, penalty response).
//!
//! A chair mesh (seat, four legs and a back made of welded, subdivided boxes; 3,648 triangles;
//! origin at its center of mass) gets its [`MODES`] lowest vibration modes from
//! [`bdtree_std::modal`] (stiff plastic: E = 50 MPa, ν = 0.35, ρ = 1000 kg/m³). Copies start in two
//! staggered layers with random orientations and fall ([`Layout::Flat`]), or stacked in a tall
//! column, a hopper's load, falling at the drag's terminal speed to heap up on the ground
//! ([`Layout::Pile`], the paper's Figure 1). The world answers its body pairs on
//! [`ChairOptions::threads`] threads (the same answers, bit for bit, as one). Each step (semi-implicit Euler):
//! sweep-and-prune, proxy queries at [`ChairOptions::proxy_depth`] for the candidate pairs with
//! penalty forces ([`bdtree_core::world::response`]), the ground as a plane primitive (the half-space
//! `z ≤ 0`) queried by the kernel's primitive queries — by default its contact proxies at the
//! same depth ([`bdtree_std::host::World::primitive_proxies`]), or every exact triangle contact
//! ([`bdtree_std::host::World::primitive_contacts`]), see [`GroundContacts`] — then rigid motion (translation and rotation, with the chair's inertia tensor) and modal
//! dynamics (`q̈ + 2ζω q̇ + ω² q = f_q / m_j`, ζ = 5 %, each modal coordinate held within ±1 cm
//! by an inelastic stop: a strain limit). A chair in so many contacts that its explicit step
//! could not resolve their stiffness has them softened to what it can
//! ([`super::response::StepLimit`]); a state that still goes non-finite stops the simulation
//! with [`SimError::NonFinite`].
//!
//! The `replay` module beside this one runs the collision part of a recorded trajectory again,
//! with the chairs' `q` or rigid (`q = 0`): the cost of deformation for identical
//! configurations (the paper measured 2 for whole simulations). Units: SI (metres, seconds,
//! kilograms, newtons).

// Index loops spell out the vector and matrix formulas of the dynamics.
#![allow(clippy::needless_range_loop)]

use std::time::Instant;

use bdtree_std::build::{build, BuildError, BuildOptions, Precision};
use bdtree_std::host::{Body, BroadPhase, HostError, Primitive, Tree, World as HostWorld, Wrench};
use bdtree_std::io::scene::PrimitiveShape;
use bdtree_std::io::{Basis, ImageBuf, Mesh, Pose};
use bdtree_std::modal::{compute_modes, ModalOptions, ModesError};
use bdtree_std::rng::Rng;
use bdtree_std::shapes::chair::{mass_properties, DENSITY};

use super::response::{friction, strain_limited, Push, StepLimit, VISCOUS};

/// Modes per chair.
pub const MODES: usize = 10;
const GRAVITY: f64 = 9.81;
/// The linear air drag of the translation, 1/s: a falling chair's terminal speed is
/// `GRAVITY / DRAG` (4.9 m/s).
const DRAG: f64 = 2.0;
/// The strain limit: each modal coordinate stays within ±1 cm ([`strain_limited`]).
const STRAIN_LIMIT: f64 = 0.01;

/// Why a chair could not be prepared or simulated.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SimError {
    /// The modal analysis of the chair failed.
    Modes(ModesError),
    /// Its tree could not be built.
    Build(BuildError),
    /// The ground plane was refused (a bug: its numbers are constants).
    Ground,
    /// The host layer refused a chair or a query failed (a bug: states are clamped).
    Host(HostError),
    /// A chair's state stopped being finite: the explicit step lost its stability (a bug of
    /// the step's limit, see [`super::response`]).
    NonFinite {
        /// The step whose forces made it non-finite.
        step: usize,
        /// The chair.
        chair: usize,
    },
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Modes(e) => e.fmt(f),
            Self::Build(e) => e.fmt(f),
            Self::Ground => write!(f, "the ground plane was refused"),
            Self::Host(e) => e.fmt(f),
            Self::NonFinite { step, chair } => write!(
                f,
                "the simulation went unstable: chair {chair}'s position, orientation or modes \
                 are not finite after step {step}"
            ),
        }
    }
}

impl std::error::Error for SimError {}

/// A chair ready to simulate: mesh, modes, tree image and mass properties.
pub struct Chair {
    /// The rest mesh (origin at the center of mass).
    pub mesh: Mesh,
    /// Its modal basis (3N × [`MODES`], largest vertex displacement 1 m per unit of `q`).
    pub basis: Basis,
    /// The nested f32 tree image.
    pub image: ImageBuf,
    /// Tree depth.
    pub depth: u32,
    /// Mass, kg.
    pub mass: f64,
    /// Inertia tensor about the center of mass, body axes, kg·m².
    pub inertia: [[f64; 3]; 3],
    /// Modal angular frequencies ω_j, rad/s.
    pub omega: Vec<f64>,
    /// Modal masses `m_j` (lumped: mass per vertex times `Σ_i |U_ij|²`), kg.
    pub modal_mass: Vec<f64>,
    /// Modal frequencies, Hz.
    pub frequencies_hz: Vec<f64>,
}

/// Computes a chair's modes (modal analysis on the automatic lattice) and builds its tree.
pub fn prepare_chair(mesh: Mesh) -> Result<Chair, SimError> {
    let options = ModalOptions {
        modes: MODES,
        young: 5e7,
        poisson: 0.35,
        density: DENSITY,
        ..ModalOptions::default()
    };
    let analysis = compute_modes(&mesh, &options, &mut |_| {}).map_err(SimError::Modes)?;
    let (mass, _, inertia) = mass_properties();
    let n = analysis.basis.vertices as f64;
    let modal_mass = (0..MODES)
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
    let build_options = BuildOptions {
        precision: Precision::F32,
        nested: true,
        ..BuildOptions::default()
    };
    let image = build(&mesh, Some(&analysis.basis), build_options, &mut |_| {})
        .map_err(SimError::Build)?
        .0;
    let depth = Tree::new(image.clone()).map_err(SimError::Host)?.depth();
    Ok(Chair {
        mesh,
        basis: analysis.basis,
        image,
        depth,
        mass,
        inertia,
        omega: analysis.eigenvalues.iter().map(|l| l.sqrt()).collect(),
        modal_mass,
        frequencies_hz: analysis.frequencies_hz,
    })
}

/// What to simulate.
#[derive(Debug, Clone, Copy)]
pub struct ChairOptions {
    /// Chairs.
    pub count: usize,
    /// Steps.
    pub steps: usize,
    /// Step, seconds.
    pub dt: f64,
    /// Proxy depth of the contact queries.
    pub proxy_depth: u32,
    /// Penalty stiffness of a chair–chair proxy contact, N/m.
    pub stiffness: f64,
    /// How the ground plane's contacts are found.
    pub ground_contacts: GroundContacts,
    /// With [`GroundContacts::Triangles`]: penalty stiffness of the ground per unit of contact
    /// area, N/m³: a triangle touching the
    /// ground plane at depth `d` is pushed up by `k d A`, `A` its area projected on the ground
    /// (so a face resting flat gets the same force however finely it is cut, and a wall
    /// standing on the ground none). The default makes a chair standing on its four feet
    /// (4 × 16 cm²) about as stiff as a few proxy contacts at [`ChairOptions::stiffness`].
    pub ground_stiffness: f64,
    /// Seed of the initial orientations.
    pub seed: u64,
    /// Where the chairs start.
    pub layout: Layout,
    /// Threads of the world's queries (0: one per core; 1: serial). The simulation is the
    /// same, bit for bit, whatever the count.
    pub threads: usize,
    /// The world's broad phase (the answers do not depend on it).
    pub broad: BroadPhase,
    /// Coefficient of friction of the penalty contacts (0: none, the default; a pile heaps
    /// only with friction).
    pub friction: f64,
}

/// Where the chairs start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Two staggered layers on a 1.2 m grid ([`initial_placements`]): a one-chair-deep carpet.
    #[default]
    Flat,
    /// A hopper's load: a column of layers on a 1.2 m grid, `⌈∛n⌉` chairs a side, all falling at
    /// the terminal speed, to heap up on the ground.
    Pile,
}

impl ChairOptions {
    /// The options of a pile of `count` chairs: contacts at the paper's depth (10), and steps
    /// enough for the top layer to land and the heap to settle ([`pile_steps`]).
    pub fn pile(count: usize) -> Self {
        Self {
            count,
            steps: pile_steps(count, 0.002),
            proxy_depth: 10,
            layout: Layout::Pile,
            friction: 0.6,
            ..Self::default()
        }
    }
}

/// Steps of `dt` for a pile of `count` chairs to form and settle: the top layer's fall at the
/// terminal speed, and 1.5 s more.
pub fn pile_steps(count: usize, dt: f64) -> usize {
    let (_, layers) = pile_shape(count);
    let top = 0.6 + SPACING * layers.saturating_sub(1) as f64;
    ((top / (GRAVITY / DRAG) + 1.5) / dt).ceil() as usize
}

/// The hopper's column: chairs per side of a layer (`⌈∛n⌉`, at least 2), and layers.
fn pile_shape(count: usize) -> (usize, usize) {
    let side = ((count as f64).cbrt().ceil() as usize).max(2);
    (side, count.div_ceil(side * side).max(1))
}

impl Default for ChairOptions {
    fn default() -> Self {
        Self {
            count: 100,
            steps: 1000,
            dt: 0.002,
            proxy_depth: 7,
            stiffness: 2e4,
            ground_contacts: GroundContacts::Proxies,
            ground_stiffness: 2e7,
            seed: 0xC4A1_5EED,
            layout: Layout::Flat,
            threads: 1,
            broad: BroadPhase::Auto,
            friction: 0.0,
        }
    }
}

/// How the chairs' contacts with the ground plane (the primitive half-space `z ≤ 0`) are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GroundContacts {
    /// The contact proxies at [`ChairOptions::proxy_depth`] whose spheres reach below the
    /// plane ([`bdtree_std::host::World::primitive_proxies`]), each pushing up with [`ChairOptions::stiffness`]
    /// times its sphere's depth — the same cost and response as the chair–chair contacts.
    #[default]
    Proxies,
    /// Every triangle touching the plane ([`bdtree_std::host::World::primitive_contacts`], exact), each pushing up
    /// with [`ChairOptions::ground_stiffness`] times its depth and projected area: about 25
    /// contacts per resting chair and several times the collision time of the proxies.
    Triangles,
}

/// One chair's configuration: position of its center of mass, orientation (unit quaternion
/// `(w, x, y, z)`) and modal coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Center of mass, m.
    pub x: [f64; 3],
    /// Orientation.
    pub rotation: [f64; 4],
    /// Modal coordinates.
    pub q: [f64; MODES],
}

/// The collision part of one step.
#[derive(Debug, Clone, Copy, Default)]
pub struct StepReport {
    /// Wall-clock seconds of the collision part (root spheres, sweep, proxy queries, ground).
    pub seconds: f64,
    /// Candidate chair pairs from the sweep.
    pub candidates: usize,
    /// Chair pairs with at least one proxy contact (collision events).
    pub colliding_pairs: usize,
    /// Chair–chair proxy contacts.
    pub contacts: usize,
    /// Triangle contacts with the ground plane.
    pub ground_contacts: usize,
    /// Queries of the step that did not end `Complete` (a full stack or a refused state): their
    /// contacts may be missing. The stack is sized by the capacity functions, so this stays 0;
    /// the demo prints it when it does not.
    pub incomplete: usize,
    /// Sphere overlap tests of the chair–chair proxy query (the kernel's count: a measure of
    /// its work that no other load on the machine changes).
    pub overlap_tests: u64,
    /// Spheres the chair–chair proxy query updated.
    pub sphere_updates: u64,
}

/// A chair–chair proxy contact: the two chairs (the first the lower index) and their proxy
/// nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyContact {
    /// The chairs.
    pub chairs: [usize; 2],
    /// The proxy node of each.
    pub nodes: [u32; 2],
}

/// The contacts of one step: chair–chair penalty points and ground points, world, m.
#[derive(Debug, Clone, Default)]
pub struct StepContacts {
    /// Chair–chair contact points.
    pub chairs: Vec<[f32; 3]>,
    /// The chair–chair proxy contacts behind them, in the same order.
    pub proxies: Vec<ProxyContact>,
    /// Ground contact points.
    pub ground: Vec<[f32; 3]>,
}

/// The collision part of a step: the chairs as bodies of a host world (each chair pair at its
/// own floating origin, see [`bdtree_std::host::World`]) and how the ground pushes.
pub(super) struct Chairs {
    world: HostWorld,
    proxy_depth: u32,
    stiffness: f64,
    ground: Ground,
    limit: StepLimit,
}

/// How the ground plane's contacts push.
struct Ground {
    contacts: GroundContacts,
    /// Per proxy contact, N/m.
    stiffness: f64,
    /// Per triangle contact and unit of projected area, N/m³.
    pressure: f64,
    /// The leaf node of every triangle (where a triangle's force is applied).
    leaves: Vec<u32>,
}

impl Chairs {
    pub(super) fn new(chair: &Chair, options: &ChairOptions) -> Result<Self, SimError> {
        let damping = if options.friction > 0.0 { VISCOUS } else { 0.0 };
        let limit = StepLimit::new(chair.mass, &chair.inertia, options.dt, damping);
        let tree = Tree::new(chair.image.clone()).map_err(SimError::Host)?;
        let leaves = tree.leaves();
        let bodies = (0..options.count)
            .map(|_| Body::new(&tree))
            .collect::<Result<Vec<_>, _>>()
            .map_err(SimError::Host)?;
        // The half-space z ≤ 0.
        let plane = PrimitiveShape::Plane {
            normal: [0.0, 0.0, 1.0],
            offset: 0.0,
        };
        let ground = Primitive::new(plane, Pose::IDENTITY).map_err(|_| SimError::Ground)?;
        let mut world = HostWorld::new(bodies, vec![ground]).map_err(SimError::Host)?;
        world.set_threads(options.threads).map_err(SimError::Host)?;
        world.set_broad_phase(options.broad);
        Ok(Self {
            world,
            proxy_depth: options.proxy_depth,
            stiffness: options.stiffness,
            ground: Ground {
                contacts: options.ground_contacts,
                stiffness: options.stiffness,
                pressure: options.ground_stiffness,
                leaves,
            },
            limit,
        })
    }

    /// Sets every chair's state and computes the contact wrenches, each contact softened by
    /// the step's limit ([`StepLimit`]). `pushes` gets every penalty contact's normal force
    /// (for the friction of a pile).
    pub(super) fn step(
        &mut self,
        placements: &[Placement],
        points: &mut StepContacts,
        pushes: &mut Vec<Push>,
    ) -> Result<(Vec<Wrench>, StepReport), SimError> {
        for (k, p) in placements.iter().enumerate() {
            // The simulation's f64 state as given (finite: `simulate` stops at a non-finite one).
            self.world
                .set_state(k, p.rotation, p.x, &p.q)
                .map_err(SimError::Host)?;
        }
        let started = Instant::now();
        let mut report = StepReport::default();
        let mut wrenches = vec![Wrench::zero(MODES); placements.len()];
        // The ground first: at each chair's own origin, where the world's broad phase finds
        // the chairs too. Its contacts are found, then pushed once the step's limit is known.
        let ground = match self.ground.contacts {
            GroundContacts::Proxies => {
                self.ground
                    .proxies(&mut self.world, self.proxy_depth, points, pushes)?
            }
            GroundContacts::Triangles => self.ground.triangles(&mut self.world, points, pushes)?,
        };
        let answer = self
            .world
            .proxies(self.proxy_depth)
            .map_err(SimError::Host)?;
        report.candidates = answer.candidates;
        report.overlap_tests = u64::from(answer.stats.overlap_tests);
        report.sphere_updates = u64::from(answer.stats.sphere_updates);
        let mut last = None;
        for found in &answer.found {
            let (p, [sa, sb]) = (&found.item, found.item.spheres);
            if p.depth.is_nan() || p.depth <= 0.0 {
                continue;
            }
            // The penalty's point: the middle of the overlap along the centre line.
            let d: [f64; 3] = std::array::from_fn(|k| sb[k] - sa[k]);
            let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            if len.is_nan() || len <= 0.0 {
                continue;
            }
            let reach = sa[3] - 0.5 * p.depth;
            let point: [f64; 3] = std::array::from_fn(|k| sa[k] + reach * d[k] / len);
            points.chairs.push(point.map(|x| x as f32));
            pushes.push(Push {
                chairs: [Some(found.bodies[0]), Some(found.bodies[1])],
                point,
                normal: d.map(|x| x / len),
                force: self.stiffness * p.depth,
                stiffness: self.stiffness,
                scale: 1.0,
                damping: 1.0,
            });
            points.proxies.push(ProxyContact {
                chairs: found.bodies,
                nodes: p.nodes,
            });
            report.contacts += 1;
            if last != Some(found.bodies) {
                report.colliding_pairs += 1;
                last = Some(found.bodies);
            }
        }
        let centers: Vec<[f64; 3]> = placements.iter().map(|p| p.x).collect();
        let (scales, damping) = self.limit.scales(&centers, pushes);
        for push in pushes.iter_mut() {
            push.scale = StepLimit::pair(&scales, push.chairs);
            push.damping = StepLimit::pair(&damping, push.chairs);
            push.force *= push.scale;
        }
        // The ground's pushes come first in `pushes`, one per found contact.
        for (g, push) in ground.iter().zip(pushes.iter()) {
            let force = push.normal.map(|x| x * push.force);
            let w = self
                .world
                .force_at_node(g.chair, g.node, push.point, force)
                .map_err(SimError::Host)?;
            if let (Some(w), Some(sum)) = (w, wrenches.get_mut(g.chair)) {
                sum.add(&w);
                report.ground_contacts += 1;
            }
        }
        let stiffness = self.stiffness;
        let forces = self
            .world
            .proxy_wrenches(&answer, &|[i, j]| stiffness * scales[i].min(scales[j]))
            .map_err(SimError::Host)?;
        for (w, f) in wrenches.iter_mut().zip(&forces) {
            w.add(f);
        }
        report.seconds = started.elapsed().as_secs_f64();
        Ok((wrenches, report))
    }
}

/// A ground contact found: the chair and the node its force is applied at.
struct GroundContact {
    chair: usize,
    node: usize,
}

impl Ground {
    /// The ground's proxy contacts ([`HostWorld::primitive_proxies`] at the proxy depth): each
    /// pushes `k d` straight up at the sphere's center dropped on the ground. Adds one push per
    /// contact to `pushes` and returns the contacts.
    fn proxies(
        &self,
        world: &mut HostWorld,
        depth: u32,
        points: &mut StepContacts,
        pushes: &mut Vec<Push>,
    ) -> Result<Vec<GroundContact>, SimError> {
        let answer = world.primitive_proxies(depth).map_err(SimError::Host)?;
        let mut contacts = Vec::new();
        // NaN depths (a broken state) push nothing.
        for found in answer.found.iter().filter(|f| f.item.depth > 0.0) {
            let [x, y, _, _] = found.item.sphere;
            let chair = found.bodies[0];
            contacts.push(GroundContact {
                chair,
                node: found.item.node as usize,
            });
            points.ground.push([x as f32, y as f32, 0.0]);
            pushes.push(Push {
                chairs: [None, Some(chair)],
                point: [x, y, 0.0],
                normal: [0.0, 0.0, 1.0],
                force: self.stiffness * found.item.depth,
                stiffness: self.stiffness,
                scale: 1.0,
                damping: 1.0,
            });
        }
        Ok(contacts)
    }

    /// The ground's exact triangle contacts ([`HostWorld::primitive_contacts`]), each pushing
    /// with [`ChairOptions::ground_stiffness`] times its depth and projected area. Adds one
    /// push per contact to `pushes` and returns the contacts.
    fn triangles(
        &self,
        world: &mut HostWorld,
        points: &mut StepContacts,
        pushes: &mut Vec<Push>,
    ) -> Result<Vec<GroundContact>, SimError> {
        let answer = world.primitive_contacts().map_err(SimError::Host)?;
        let mut contacts = Vec::new();
        for found in &answer.found {
            let (i, c) = (found.bodies[0], &found.item);
            let Some(body) = world.bodies_mut().get_mut(i) else {
                continue;
            };
            let triangle = body.triangle(c.triangles[0]).map_err(SimError::Host)?;
            let leaf = self.leaves.get(c.triangles[0] as usize).copied();
            let (Some([p, q, r]), Some(leaf)) = (triangle, leaf) else {
                continue;
            };
            // The triangle's area projected on the ground.
            let (u, v) = ([q[0] - p[0], q[1] - p[1]], [r[0] - p[0], r[1] - p[1]]);
            let area = 0.5 * (u[0] * v[1] - u[1] * v[0]).abs();
            if !(c.depth > 0.0 && area > 0.0) {
                continue;
            }
            contacts.push(GroundContact {
                chair: i,
                node: leaf as usize,
            });
            points.ground.push(c.point.map(|x| x as f32));
            pushes.push(Push {
                chairs: [None, Some(i)],
                point: c.point,
                normal: c.normal.map(|x| -x),
                force: self.pressure * c.depth * area,
                stiffness: self.pressure * area,
                scale: 1.0,
                damping: 1.0,
            });
        }
        Ok(contacts)
    }
}

/// A simulated run: every step's placements (before the step's forces) and collision report.
pub struct Trajectory {
    /// Placements per step.
    pub steps: Vec<Vec<Placement>>,
    /// Collision reports per step.
    pub reports: Vec<StepReport>,
    /// Contact points per step.
    pub contacts: Vec<StepContacts>,
}

pub(super) fn mat_vec(m: &[[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| (0..3).map(|j| m[i][j] * v[j]).sum())
}

pub(super) fn rotation_matrix(q: [f64; 4]) -> [[f64; 3]; 3] {
    let [w, x, y, z] = q;
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
        ],
        [
            2.0 * (x * y + w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - w * x),
        ],
        [
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ]
}

/// Solves the symmetric positive definite 3×3 system `a x = b` (Cramer's rule).
fn solve3(a: &[[f64; 3]; 3], b: [f64; 3]) -> [f64; 3] {
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(a);
    [0, 1, 2].map(|c| {
        let mut m = *a;
        for r in 0..3 {
            m[r][c] = b[r];
        }
        det(&m) / d
    })
}

/// Grid spacing of the initial layers, m: more than the chair's bounding diameter (1.12 m), so
/// no two chairs start in contact whatever their orientation.
const SPACING: f64 = 1.2;

/// Where the chairs start: two staggered layers 1.2 m apart, the upper one offset by half a
/// cell so that its chairs land across four of the lower ones; each chair turned by a random
/// yaw and tilted by up to ±0.4 rad.
///
/// With [`Layout::Pile`], the layers of the hopper's column (`⌈∛n⌉` chairs a side, 1.2 m
/// apart), alternate layers offset by half a cell, turned and tilted the same way.
pub fn initial_placements(options: &ChairOptions) -> Vec<Placement> {
    let (per_layer, side) = match options.layout {
        Layout::Flat => {
            let per_layer = options.count.div_ceil(2).max(1);
            (per_layer, (per_layer as f64).sqrt().ceil() as usize)
        }
        Layout::Pile => {
            let (side, _) = pile_shape(options.count);
            (side * side, side)
        }
    };
    let mut rng = Rng::new(options.seed);
    (0..options.count)
        .map(|k| {
            let (layer, cell) = (k / per_layer, k % per_layer);
            let shift = match options.layout {
                Layout::Flat => layer,
                Layout::Pile => layer % 2,
            };
            let offset = 0.5 * SPACING * shift as f64;
            let x = [
                (cell % side) as f64 * SPACING + offset,
                (cell / side) as f64 * SPACING + offset,
                0.6 + 1.2 * layer as f64 + 0.2 * rng.unit(),
            ];
            let yaw = std::f64::consts::TAU * rng.unit();
            let (ax, ay) = (0.8 * rng.unit() - 0.4, 0.8 * rng.unit() - 0.4);
            // Tilt about (ax, ay, 0) by its length, then yaw about z.
            let tilt = (ax * ax + ay * ay).sqrt().max(1e-12);
            let (s, c) = (0.5 * tilt).sin_cos();
            let t = [c, s * ax / tilt, s * ay / tilt, 0.0];
            let (sy, cy) = (0.5 * yaw).sin_cos();
            let r = [
                cy * t[0] - sy * t[3],
                cy * t[1] - sy * t[2],
                cy * t[2] + sy * t[1],
                cy * t[3] + sy * t[0],
            ];
            Placement {
                x,
                rotation: r,
                q: [0.0; MODES],
            }
        })
        .collect()
}

/// Runs the deformable simulation; `progress(step, report)` is called after every step.
pub fn simulate(
    chair: &Chair,
    options: &ChairOptions,
    progress: &mut dyn FnMut(usize, &StepReport),
) -> Result<Trajectory, SimError> {
    let start = initial_placements(options);
    simulate_from(chair, options, start, start_velocity(options), progress)
}

/// Every chair's velocity at the start: a hopper's load falls at the terminal speed.
fn start_velocity(options: &ChairOptions) -> [f64; 3] {
    match options.layout {
        Layout::Flat => [0.0; 3],
        Layout::Pile => [0.0, 0.0, -GRAVITY / DRAG],
    }
}

/// [`simulate`] from the placements `start` (one per chair: `options.count` is not used),
/// every chair moving at `velocity` (m/s) without turning.
pub fn simulate_from(
    chair: &Chair,
    options: &ChairOptions,
    start: Vec<Placement>,
    velocity: [f64; 3],
    progress: &mut dyn FnMut(usize, &StepReport),
) -> Result<Trajectory, SimError> {
    let mut trajectory = Trajectory {
        steps: Vec::with_capacity(options.steps),
        reports: Vec::with_capacity(options.steps),
        contacts: Vec::with_capacity(options.steps),
    };
    simulate_from_with(
        chair,
        options,
        start,
        velocity,
        &mut |step, at, report, points| {
            trajectory.steps.push(at.to_vec());
            trajectory.reports.push(*report);
            trajectory.contacts.push(points);
            progress(step, report);
            Ok(())
        },
    )?;
    Ok(trajectory)
}

/// What a streamed simulation hands over after each step's collision part: the step, the
/// placements (before the step's forces), its report and its contacts. An error stops the
/// simulation with it.
pub type StepSink<'a> =
    dyn FnMut(usize, &[Placement], &StepReport, StepContacts) -> Result<(), SimError> + 'a;

/// [`simulate`], handing every step to `sink` instead of keeping it: a long run keeps only
/// what its sink does.
pub fn simulate_with(
    chair: &Chair,
    options: &ChairOptions,
    sink: &mut StepSink<'_>,
) -> Result<(), SimError> {
    let start = initial_placements(options);
    simulate_from_with(chair, options, start, start_velocity(options), sink)
}

/// [`simulate_from`], handing every step to `sink` ([`simulate_with`]).
pub fn simulate_from_with(
    chair: &Chair,
    options: &ChairOptions,
    start: Vec<Placement>,
    velocity: [f64; 3],
    sink: &mut StepSink<'_>,
) -> Result<(), SimError> {
    let options = &ChairOptions {
        count: start.len(),
        ..*options
    };
    let mut world = Chairs::new(chair, options)?;
    let mut placements = start;
    let mut v = vec![velocity; options.count];
    let mut w = vec![[0.0f64; 3]; options.count];
    let mut qd = vec![[0.0f64; MODES]; options.count];
    let dt = options.dt;
    for step in 0..options.steps {
        let mut points = StepContacts::default();
        let mut pushes = Vec::new();
        let (mut wrenches, report) = world.step(&placements, &mut points, &mut pushes)?;
        if options.friction > 0.0 {
            let centers: Vec<[f64; 3]> = placements.iter().map(|p| p.x).collect();
            friction(&pushes, &centers, &v, &w, options.friction, &mut wrenches);
        }
        sink(step, &placements, &report, points)?;
        for (k, p) in placements.iter_mut().enumerate() {
            let wrench = &wrenches[k];
            // Translation, with a little air drag.
            for i in 0..3 {
                let g = if i == 2 { -GRAVITY } else { 0.0 };
                let a = wrench.force[i] / chair.mass + g - DRAG * v[k][i];
                v[k][i] += dt * a;
                p.x[i] += dt * v[k][i];
            }
            // Rotation: I_w ω̇ = τ − ω × I_w ω, I_w = R I Rᵀ; some angular damping.
            let r = rotation_matrix(p.rotation);
            let mut iw = [[0.0; 3]; 3];
            for i in 0..3 {
                for j in 0..3 {
                    iw[i][j] = (0..3)
                        .map(|a| {
                            (0..3)
                                .map(|b| r[i][a] * chair.inertia[a][b] * r[j][b])
                                .sum::<f64>()
                        })
                        .sum();
                }
            }
            let om = w[k];
            let l = mat_vec(&iw, om);
            let gyro = [
                om[1] * l[2] - om[2] * l[1],
                om[2] * l[0] - om[0] * l[2],
                om[0] * l[1] - om[1] * l[0],
            ];
            let tau = [0, 1, 2].map(|i| wrench.torque[i] - gyro[i]);
            let alpha = solve3(&iw, tau);
            for i in 0..3 {
                w[k][i] += dt * (alpha[i] - 2.0 * w[k][i]);
            }
            let [qw, qx, qy, qz] = p.rotation;
            let [wx, wy, wz] = w[k];
            let dq = [
                -wx * qx - wy * qy - wz * qz,
                wx * qw + wy * qz - wz * qy,
                wy * qw + wz * qx - wx * qz,
                wz * qw + wx * qy - wy * qx,
            ];
            let mut rot = [0, 1, 2, 3].map(|i| p.rotation[i] + 0.5 * dt * dq[i]);
            let norm = rot.iter().map(|x| x * x).sum::<f64>().sqrt();
            if !(norm.is_finite() && norm > 0.0) {
                // A spin past any physical one (its square overflows): the step lost stability.
                return Err(SimError::NonFinite { step, chair: k });
            }
            rot = rot.map(|x| x / norm);
            p.rotation = rot;
            // Modal dynamics, strain-limited.
            for j in 0..MODES {
                let om = chair.omega[j];
                let acc =
                    wrench.q[j] / chair.modal_mass[j] - om * om * p.q[j] - 0.1 * om * qd[k][j];
                (p.q[j], qd[k][j]) = strain_limited(p.q[j], qd[k][j], acc, dt, STRAIN_LIMIT);
            }
            let finite =
                p.x.iter()
                    .chain(&p.rotation)
                    .chain(&p.q)
                    .chain(&v[k])
                    .chain(&w[k]);
            if !finite.into_iter().all(|x| x.is_finite()) {
                return Err(SimError::NonFinite { step, chair: k });
            }
        }
    }
    Ok(())
}

/// World vertices of chair `placement` (deformed by its `q`, then posed), in f64.
pub fn world_vertices(chair: &Chair, placement: &Placement) -> Vec<[f64; 3]> {
    let r = rotation_matrix(placement.rotation);
    (0..chair.mesh.vertices.len())
        .map(|i| {
            let p = chair.mesh.vertices[i];
            let local = [0, 1, 2].map(|k| {
                p[k] + (0..MODES)
                    .map(|j| chair.basis.get(i, k, j) * placement.q[j])
                    .sum::<f64>()
            });
            let y = mat_vec(&r, local);
            [0, 1, 2].map(|k| y[k] + placement.x[k])
        })
        .collect()
}
