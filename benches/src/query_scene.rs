//! The query bench's scene (see the book's `docs/src/performance/query.md`): a 327,680-triangle
//! icosphere and a 720-triangle UV sphere, both with M = 10 smooth modes, the small one pressed
//! into the big one's deformed surface over a few frames. Shared by `benches/query.rs` and
//! `examples/walk_profile.rs`.

use std::time::Instant;

use bdtree_core::{collide, Body, Pose as CorePose, QueryOutcome, Scalar, TrianglePair};
use bdtree_std::build::{build, BuildOptions, Precision, TreeKind};
use bdtree_std::io::Pose as OraclePose;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::oracle::deform;
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, uv_sphere};

/// Modes of both bodies.
pub const MODES: usize = 10;
/// Frames of the sequence.
pub const FRAMES: usize = 8;
/// Icosphere subdivisions of the big body (20·4⁷ = 327,680 triangles); the environment variable
/// `BDTREE_BENCH_SUBDIVISIONS` overrides it (8: 1,310,720 triangles) to see how the ratio scales.
pub const BIG_SUBDIVISIONS: u32 = 7;

pub fn big_subdivisions() -> u32 {
    std::env::var("BDTREE_BENCH_SUBDIVISIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(BIG_SUBDIVISIONS)
}
/// Largest displacement of one mode of the big body (radius 1).
pub const BIG_AMPLITUDE: f64 = 0.03;
/// Radius, stacks and slices of the small body (2·24·15 = 720 triangles).
pub const SMALL_SHAPE: (f64, u32, u32) = (0.04, 16, 24);
/// Largest displacement of one mode of the small body.
pub const SMALL_AMPLITUDE: f64 = 0.0012;
/// How far the small body is pressed into the big one's deformed surface.
pub const DEPTH: f64 = 0.006;

/// [`DEPTH`], or the environment variable `BDTREE_BENCH_DEPTH` (metres; 0.001 is a graze).
pub fn depth() -> f64 {
    std::env::var("BDTREE_BENCH_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEPTH)
}
/// `q = 0` on both bodies when the environment variable `BDTREE_BENCH_REST` is set: the same
/// scene without deformation (the trees' bounds still carry their `|q|` growth terms).
pub fn at_rest() -> bool {
    std::env::var_os("BDTREE_BENCH_REST").is_some()
}
/// One frame in f64: both bodies' `q` and world poses.
pub struct Frame {
    pub q_big: Vec<f64>,
    pub q_small: Vec<f64>,
    pub pose_big: OraclePose,
    pub pose_small: OraclePose,
}

/// Hamilton product of quaternions `(w, x, y, z)`.
pub fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

pub fn normalized(v: [f64; 3]) -> [f64; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|c| c / n)
}

/// The frames: smooth `q` trajectories, a slowly turning big body, and the small body pressed
/// [`DEPTH`] into the big one's deformed surface along a slowly moving direction.
pub fn frames(big: &Mesh, big_basis: &Basis) -> Vec<Frame> {
    let scale = if at_rest() { 0.0 } else { 1.0 };
    pressed_frames(
        big,
        big_basis,
        &Press {
            q_big: scale,
            q_small: scale,
            small_radius: SMALL_SHAPE.0,
            depth: depth(),
            at_vertex: false,
        },
    )
}

/// How a small body is pressed into a big one over [`FRAMES`] frames.
pub struct Press {
    /// Amplitude of the big body's `q_j`.
    pub q_big: f64,
    /// Amplitude of the small body's `q_j`.
    pub q_small: f64,
    /// The small body's radius (its centre is placed this far outside the surface, less
    /// `depth`).
    pub small_radius: f64,
    /// How far the small body is pressed into the big one's deformed surface.
    pub depth: f64,
    /// Place the small body against the big body's extreme vertex along the direction (for a
    /// body that is not round), not on the line from the big body's origin.
    pub at_vertex: bool,
}

/// The frames of [`frames`] for any pair of bodies: smooth `q` trajectories of amplitudes
/// `press.q_big`, `press.q_small`, a slowly turning big body, and the small body's centre
/// `press.small_radius − press.depth` outside the big one's deformed surface along a slowly
/// moving direction.
pub fn pressed_frames(big: &Mesh, big_basis: &Basis, press: &Press) -> Vec<Frame> {
    (0..FRAMES)
        .map(|k| {
            let t = k as f64;
            let q_big: Vec<f64> = (0..big_basis.modes)
                .map(|j| press.q_big * (1.3 * j as f64 + 0.4 + 0.05 * t).sin())
                .collect();
            let q_small: Vec<f64> = (0..MODES)
                .map(|j| press.q_small * (0.9 * j as f64 + 1.1 + 0.07 * t).cos())
                .collect();
            let pose_big = OraclePose::from_axis_angle(
                [0.3, 1.0, 0.2],
                0.4 + 0.01 * t,
                [0.5 + 0.002 * t, -0.25, 0.1],
            );
            // Where the deformed big surface is along `dir`, in the big body's frame.
            let dir = normalized([0.6, 0.5 + 0.01 * t, 0.62 - 0.005 * t]);
            let local = deform(
                &big.vertices,
                Some(big_basis),
                &q_big,
                &OraclePose::IDENTITY,
            );
            let dot = |v: &[f64; 3]| v[0] * dir[0] + v[1] * dir[1] + v[2] * dir[2];
            let extreme = *local
                .iter()
                .max_by(|a, b| dot(a).total_cmp(&dot(b)))
                .expect("the big body has vertices");
            let center = if press.at_vertex {
                let lift = press.small_radius - press.depth;
                [0, 1, 2].map(|k| extreme[k] + dir[k] * lift)
            } else {
                dir.map(|c| c * (dot(&extreme) + press.small_radius - press.depth))
            };
            let turn = OraclePose::from_axis_angle([1.0, 2.0, 3.0], 0.2 + 0.05 * t, [0.0; 3]);
            let pose_small = OraclePose {
                rotation: quat_mul(pose_big.rotation, turn.rotation),
                translation: pose_big.apply(center),
            };
            Frame {
                q_big,
                q_small,
                pose_big,
                pose_small,
            }
        })
        .collect()
}

/// One frame in the kernel's scalar.
pub struct CoreFrame<S: Scalar> {
    pub q_big: Vec<S>,
    pub q_small: Vec<S>,
    pub pose_big: CorePose<S>,
    pub pose_small: CorePose<S>,
}

pub fn core_pose<S: Scalar>(p: &OraclePose) -> CorePose<S> {
    CorePose::from_quaternion(p.rotation.map(S::from_f64), p.translation.map(S::from_f64))
        .expect("unit quaternion, finite translation")
}

pub fn core_frames<S: Scalar>(frames: &[Frame]) -> Vec<CoreFrame<S>> {
    frames
        .iter()
        .map(|f| CoreFrame {
            q_big: f.q_big.iter().map(|&x| S::from_f64(x)).collect(),
            q_small: f.q_small.iter().map(|&x| S::from_f64(x)).collect(),
            pose_big: core_pose(&f.pose_big),
            pose_small: core_pose(&f.pose_small),
        })
        .collect()
}

/// The partition the benches' trees are built on: `BENCH_TREE=medial` for the medial tree,
/// else the default (median split).
pub fn bench_tree() -> TreeKind {
    std::env::var("BENCH_TREE")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or_default()
}

pub fn build_image(mesh: &Mesh, basis: &Basis, precision: Precision) -> ImageBuf {
    let options = BuildOptions {
        precision,
        tree: bench_tree(),
        ..Default::default()
    };
    let start = Instant::now();
    let (image, report) = build(mesh, Some(basis), options, &mut |_| {}).expect("tree builds");
    eprintln!(
        "built {:?} tree: {} triangles, {} nodes, depth {}, {:.1} MB, {:.2} s",
        precision,
        mesh.triangles.len(),
        report.nodes,
        report.depth,
        report.bytes as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    image
}

/// The two bodies with their bases: (big, big basis, small, small basis).
pub fn bodies() -> (Mesh, Basis, Mesh, Basis) {
    let big = icosphere(1.0, big_subdivisions());
    let big_basis = smooth_basis(&big.vertices, MODES, BIG_AMPLITUDE);
    let small = uv_sphere(SMALL_SHAPE.0, SMALL_SHAPE.1, SMALL_SHAPE.2);
    let small_basis = smooth_basis(&small.vertices, MODES, SMALL_AMPLITUDE);
    (big, big_basis, small, small_basis)
}

/// The kernel's triangle query ([`collide`]) of `a` and `b`, its pairs in walk order in `pairs`
/// (cleared first).
#[inline(always)]
pub fn collide_into<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    pairs: &mut Vec<TrianglePair>,
) -> QueryOutcome {
    pairs.clear();
    collide(a, b, stack, &mut |p: TrianglePair| {
        pairs.push(p);
        true
    })
}
