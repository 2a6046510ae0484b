//! Shared test helpers of the test binaries (`kernel`, `modal`, and `bdtree-cli`'s `host`): deterministic
//! randomness, stored-model extraction, node vertex sets and proxies, and (in submodules) generated scenes, triangle and motion oracles.
// Each binary uses a part of the helpers.
#![allow(dead_code)]

pub mod expected;
pub mod families;
pub mod motion;
pub mod scenes;
pub mod triangles;

#[allow(unused_imports)] // as the rest: each binary uses a part
pub use expected::{expected, fixtures};

use bdtree_core::{Body, Image, NodeKind, Pose, Scalar, TreeView, TrianglePair};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus};
use proptest::test_runner::{Config, RngSeed};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh folder under the system temp dir (`bdtree-<name>-<process>-<n>`), removed when
/// dropped — kept when the test panics, for a look at what it wrote.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("bdtree-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A proptest configuration with a fixed seed and no persisted failures: every run tests the
/// same cases.
pub fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Five small test meshes: closed (icosphere, torus, blob), open (sheet) and elongated (bar).
pub fn meshes() -> Vec<Mesh> {
    vec![
        icosphere(0.5, 2),
        torus(0.5, 0.15, 18, 8),
        sheet(1.5, 1.0, 9, 6),
        bar(2.0, 0.08, 14),
        blob(0.5, 2, 5, 11),
    ]
}

/// A scene pose (f64) as the kernel's pose in `S`.
pub fn kernel_pose<S: Scalar>(pose: &bdtree_std::io::Pose) -> Pose<S> {
    Pose::from_quaternion(
        pose.rotation.map(S::from_f64),
        pose.translation.map(S::from_f64),
    )
    .expect("pose")
}

/// Sets `body` to a scene state: pose and modal coordinates in f64, rounded to `S`.
pub fn set_state_f64<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    pose: &bdtree_std::io::Pose,
    q: &[f64],
) {
    let q: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    body.set_state(kernel_pose(pose), &q).expect("state");
}

/// The largest per-body rounding bound δ (`Body::error`) of a frame's mesh bodies, in f64.
pub fn frame_error<S: Scalar>(
    scene: &bdtree_std::io::Scene,
    prepared: &bdtree_std::runner::PreparedScene,
    frame: usize,
) -> f64 {
    let mut worst = 0.0f64;
    for (buf, (pose, q)) in prepared.images.iter().zip(&scene.frames[frame]) {
        let image = buf.parse::<S>().expect("image");
        let mut cache = bdtree_std::BodyStorage::new(image.tree.node_count());
        let mut body = cache.body(&image).expect("body");
        set_state_f64(&mut body, pose, q);
        worst = worst.max(body.error().to_f64());
    }
    worst
}

/// `0..n` in a random order (Fisher–Yates): the order to visit a body's nodes in, since its
/// cache fills lazily in any order.
pub fn shuffled(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// Node `k`'s world sphere of `body`, in f64: centre and radius.
pub fn sphere_f64<S: Scalar>(body: &mut Body<'_, '_, S>, k: usize) -> ([f64; 3], f64) {
    let s = body.sphere(k).expect("sphere");
    ([s[0].to_f64(), s[1].to_f64(), s[2].to_f64()], s[3].to_f64())
}

/// Sets `body` to a scene state rounded to `S` and returns the model `image` stores with its
/// world vertices by the f64 oracle at that same rounded state: the oracle then differs from the
/// kernel by the kernel's rounding only.
pub fn set_state_rounded<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    image: &Image<'_, S>,
    pose: &bdtree_std::io::Pose,
    q: &[f64],
) -> (Mesh, Vec<[f64; 3]>) {
    let round = |x: f64| S::from_f64(x).to_f64();
    let pose = bdtree_std::io::Pose {
        rotation: pose.rotation.map(round),
        translation: pose.translation.map(round),
    };
    let q: Vec<f64> = q.iter().map(|&x| round(x)).collect();
    set_state_f64(body, &pose, &q);
    let (mesh, basis) = stored_model(image);
    let world = bdtree_std::oracle::deform(&mesh.vertices, Some(&basis), &q, &pose);
    (mesh, world)
}

/// The crate's seeded generator (xorshift64*, seeds scrambled by splitmix64).
/// The closed test meshes of [`meshes`] (all but the open sheet): icosphere, torus, bar, blob.
pub fn closed_meshes() -> Vec<Mesh> {
    vec![
        icosphere(0.5, 2),
        torus(0.5, 0.15, 18, 8),
        bar(2.0, 0.08, 14),
        blob(0.5, 2, 5, 11),
    ]
}

/// `mesh` with every coordinate multiplied by `s`.
pub fn scaled(mut mesh: Mesh, s: f64) -> Mesh {
    mesh.vertices.iter_mut().flatten().for_each(|x| *x *= s);
    mesh
}

pub use bdtree_std::rng::Rng;

/// The five test meshes of the randomized query cases, smaller (fewer triangles, quicker
/// brute force): icosphere, torus, sheet, bar, blob.
pub fn small_meshes() -> Vec<Mesh> {
    vec![
        icosphere(0.4, 1),
        torus(0.4, 0.12, 12, 6),
        sheet(1.0, 0.8, 6, 5),
        bar(1.2, 0.08, 8),
        blob(0.4, 1, 4, 7),
    ]
}

/// A body of a randomized case: mesh, basis, modal coordinates and pose.
pub type Case<'m> = (&'m Mesh, &'m Basis, Vec<f64>, bdtree_std::io::Pose);

/// A random case of `mesh`: `modes` coordinates in [-1, 1], then a random rotation, then the
/// translation `at` draws.
pub fn random_case<'m>(
    rng: &mut Rng,
    mesh: &'m Mesh,
    basis: &'m Basis,
    modes: usize,
    at: impl FnOnce(&mut Rng) -> [f64; 3],
) -> Case<'m> {
    let q = (0..modes).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let rotation = rng.rotation();
    let translation = at(rng);
    (
        mesh,
        basis,
        q,
        bdtree_std::io::Pose {
            rotation,
            translation,
        },
    )
}

/// Runs `check` on a random pair of [`small_meshes`] (`ia`, `ib`) with `modes` smooth modes
/// each: `a` at the origin, `b` at `reach` along x and within `spread` across, both turned at
/// random (the generator seeded by `seed`).
pub fn with_random_pair<R>(
    (ia, ib): (usize, usize),
    modes: usize,
    (reach, spread): (f64, f64),
    seed: u64,
    check: impl FnOnce(&Case<'_>, &Case<'_>) -> R,
) -> R {
    let mut rng = Rng::new(seed);
    let all = small_meshes();
    let (ma, mb) = (&all[ia], &all[ib]);
    let (ba, bb) = (
        smooth_basis(&ma.vertices, modes, 0.1),
        smooth_basis(&mb.vertices, modes, 0.1),
    );
    let a = random_case(&mut rng, ma, &ba, modes, |_| [0.0; 3]);
    let b = random_case(&mut rng, mb, &bb, modes, |rng| {
        [
            reach,
            rng.uniform(-spread, spread),
            rng.uniform(-spread, spread),
        ]
    });
    check(&a, &b)
}

/// A basis of independent random entries in [-amplitude, amplitude]: as rough as a basis gets.
pub fn rough_basis(vertices: usize, modes: usize, amplitude: f64, rng: &mut Rng) -> Basis {
    let data = (0..3 * vertices * modes)
        .map(|_| rng.uniform(-amplitude, amplitude))
        .collect();
    Basis {
        vertices,
        modes,
        data,
    }
}

/// The model an image stores (scalar or 16-bit), widened to f64.
pub fn stored_model<S: Scalar>(image: &Image<'_, S>) -> (Mesh, Basis) {
    let model = &image.model;
    let v = model.vertex_count();
    let m = model.modes();
    let mesh = Mesh {
        vertices: (0..v)
            .map(|i| model.position(i).expect("vertex").map(|x| x.to_f64()))
            .collect(),
        triangles: model.triangles().to_vec(),
    };
    let mut data = Vec::with_capacity(3 * v * m);
    for i in 0..v {
        for a in 0..3 {
            for j in 0..m {
                data.push(model.basis_entry(i, a, j).expect("entry").to_f64());
            }
        }
    }
    let basis = Basis {
        vertices: v,
        modes: m,
        data,
    };
    (mesh, basis)
}

/// A sheet whose right half folds over its still left half (mode 1) and which bends whole
/// (mode 0), the sheet the self-collision steps and the self tables' loading checks walk.
pub fn folding_sheet() -> (Mesh, Basis) {
    let mesh = sheet(2.0, 1.0, 16, 8);
    // Entry (3i + k, j) at data[(3i + k) · 2 + j].
    let mut basis = Basis::zeros(mesh.vertices.len(), 2);
    for (i, v) in mesh.vertices.iter().enumerate() {
        basis.data[6 * i + 4] = 0.5 * v[0] * v[0] + 0.3 * v[1];
        if v[0] > 0.0 {
            basis.data[6 * i + 1] = -2.0 * v[0];
            basis.data[6 * i + 5] = 0.6 * v[0] * v[1];
        }
    }
    (mesh, basis)
}

/// A sink that keeps every triangle pair it is given in `found` and asks for more.
pub fn pairs_into(found: &mut Vec<(u32, u32)>) -> impl FnMut(TrianglePair) -> bool + '_ {
    |p: TrianglePair| {
        found.push((p.a, p.b));
        true
    }
}

/// For every node, the triangles below it (leaves in tree order), collected independently of
/// the kernel.
pub fn node_triangles<S: Scalar>(image: &Image<'_, S>) -> Vec<Vec<u32>> {
    let tree = &image.tree;
    let n = tree.node_count();
    let mut sets: Vec<Vec<u32>> = vec![Vec::new(); n];
    // Children have larger indices than parents: fill bottom-up.
    for k in (0..n).rev() {
        sets[k] = match tree.kind(k).expect("valid node") {
            NodeKind::Leaf { triangle } => vec![triangle],
            NodeKind::Internal { left, right } => {
                let mut s = sets[left as usize].clone();
                s.extend_from_slice(&sets[right as usize]);
                s
            }
            NodeKind::Cut => unreachable!("complete trees have no cut nodes"),
        };
    }
    sets
}

/// For every node, the sorted vertex indices of the triangles below it.
pub fn node_vertices<S: Scalar>(image: &Image<'_, S>) -> Vec<Vec<u32>> {
    let tree = &image.tree;
    let n = tree.node_count();
    let mut sets: Vec<Vec<u32>> = vec![Vec::new(); n];
    // Children have larger indices than parents: fill bottom-up.
    for k in (0..n).rev() {
        let set = match tree.kind(k).expect("valid node") {
            NodeKind::Leaf { triangle } => image.model.triangles()[triangle as usize].to_vec(),
            NodeKind::Internal { left, right } => {
                let mut s = sets[left as usize].clone();
                s.extend_from_slice(&sets[right as usize]);
                s
            }
            NodeKind::Cut => unreachable!("complete trees have no cut nodes"),
        };
        let mut set = set;
        set.sort_unstable();
        set.dedup();
        sets[k] = set;
    }
    sets
}

/// The proxy (ancestor at depth `l`, or the leaf itself) of every leaf, by triangle.
pub fn proxy_of_triangle<S: Scalar>(tree: &TreeView<'_, S>, l: u32) -> Vec<u32> {
    let mut owner = vec![u32::MAX; tree.node_count()];
    let mut by_triangle = vec![u32::MAX; tree.triangle_count()];
    for k in 0..tree.node_count() {
        let depth = tree.node_depth(k).expect("node");
        if depth <= l {
            owner[k] = k as u32;
        }
        match tree.kind(k).expect("node") {
            NodeKind::Internal { left, right } => {
                for c in [left, right] {
                    if depth >= l {
                        owner[c as usize] = owner[k];
                    }
                }
            }
            NodeKind::Leaf { triangle } => by_triangle[triangle as usize] = owner[k],
            NodeKind::Cut => unreachable!("complete trees have no cut nodes"),
        }
    }
    by_triangle
}

pub fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The distance query's answer and outcome together, as the tests read them.
pub struct NearestAnswer<S> {
    pub status: bdtree_core::QueryStatus,
    pub nearest: Option<bdtree_core::Nearest<S>>,
}

/// [`bdtree_core::nearest`] with its answer slot returned beside its status.
pub fn nearest<S: bdtree_core::Scalar>(
    a: &mut bdtree_core::Body<'_, '_, S>,
    b: &mut bdtree_core::Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
) -> NearestAnswer<S> {
    let mut nearest = None;
    let outcome = bdtree_core::nearest(a, b, stack, &mut nearest);
    NearestAnswer {
        status: outcome.status,
        nearest,
    }
}

/// [`bdtree_core::closer_than`]'s answer, `None` when the query did not complete, and its work.
pub fn closer_than<S: bdtree_core::Scalar>(
    a: &mut bdtree_core::Body<'_, '_, S>,
    b: &mut bdtree_core::Body<'_, '_, S>,
    distance: S,
    margin: S,
    stack: &mut [[u32; 2]],
) -> (Option<bool>, bdtree_core::QueryStats) {
    let mut closer = true;
    let outcome = bdtree_core::closer_than(a, b, distance, margin, stack, &mut closer);
    (
        outcome.status.is_complete().then_some(closer),
        outcome.stats,
    )
}

/// The default build options in scalar `S`'s precision: how a test generic over the scalar
/// builds its images.
pub fn options_in<S: Scalar>() -> BuildOptions {
    BuildOptions {
        precision: precision::<S>(),
        ..BuildOptions::default()
    }
}

/// Every triangle pair `collide` reports for two bodies whose trees are `depths` deep, in the
/// order reported, with the query's outcome.
pub fn collide_all<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    depths: [u32; 2],
) -> (bdtree_core::QueryOutcome, Vec<bdtree_core::TrianglePair>) {
    let mut stack = vec![[0u32; 2]; bdtree_core::stack_capacity(depths[0], depths[1])];
    let mut found = Vec::new();
    let outcome = bdtree_core::collide(a, b, &mut stack, &mut |p| {
        found.push(p);
        true
    });
    (outcome, found)
}

/// The build precision of scalar `S`.
pub fn precision<S: Scalar>() -> Precision {
    if S::BYTES == 4 {
        Precision::F32
    } else {
        Precision::F64
    }
}

/// The image of `mesh` (with `basis`) built in scalar `S` with the default options.
pub fn image_in<S: Scalar>(mesh: &Mesh, basis: Option<&Basis>) -> ImageBuf {
    build(mesh, basis, options_in::<S>(), &mut |_| {})
        .expect("build")
        .0
}
