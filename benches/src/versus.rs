//! The harness the head-to-head examples share (`examples/versus.rs`, `examples/versus_wide.rs`):
//! the scene (`VERSUS_SCENE`), bdtree's two f32 bodies with vertex caches set up on it, the
//! binary walk's frame (both states set, then the kernel's `collide`) and the f64 brute-force
//! truth of a frame, and the examples' `main` (their subcommands). Each example keeps its frame
//! functions (`#[inline(never)]`, the names callgrind toggles on) and its subcommands' bodies.

use bdtree_core::{refine, stack_capacity, Body, QueryOutcome, TrianglePair, VertexEntry};
use bdtree_std::build::Precision;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::oracle::{brute_force_pairs, deform};
use bdtree_std::BodyStorage;

use crate::fem_scene::{fem_bodies, fem_frames};
use crate::measure::{cache_dir, cached_image, env_usize};
use crate::query_scene::{
    big_subdivisions, bodies, collide_into, core_frames, frames, CoreFrame, Frame,
};
use crate::refit::ParryScene;

/// The two bodies and their bases: the big one, then the small one.
pub type Meshes<'m> = (&'m Mesh, &'m Basis, &'m Mesh, &'m Basis);

/// A head-to-head scene: a name for its cached images, the two bodies and the frames.
pub struct VersusScene {
    /// The name its images are cached under (in `target/walk-profile/`).
    pub name: String,
    /// The big body and its basis.
    pub big: (Mesh, Basis),
    /// The small body and its basis.
    pub small: (Mesh, Basis),
    /// The frames.
    pub frames: Vec<Frame>,
}

impl VersusScene {
    /// The two bodies and their bases.
    pub fn meshes(&self) -> Meshes<'_> {
        (&self.big.0, &self.big.1, &self.small.0, &self.small.1)
    }
}

/// The query bench's scene (`query_scene`), or with `VERSUS_SCENE=fem` the FEM scene
/// (`fem_scene`: a 327,680-triangle bumpy body with modal modes grazed by a small modal sphere).
pub fn scene() -> VersusScene {
    if std::env::var("VERSUS_SCENE").as_deref() == Ok("fem") {
        let (big, big_basis, small, small_basis) = fem_bodies(&cache_dir());
        let frames = fem_frames(&big, &big_basis);
        VersusScene {
            name: "fem".into(),
            big: (big, big_basis),
            small: (small, small_basis),
            frames,
        }
    } else {
        let (big, big_basis, small, small_basis) = bodies();
        let frames = frames(&big, &big_basis);
        VersusScene {
            name: format!("big-s{}", big_subdivisions()),
            big: (big, big_basis),
            small: (small, small_basis),
            frames,
        }
    }
}

/// bdtree's side: both bodies (vertex caches on), the stack, the pairs and the frames' states.
pub struct Binary<'t, 'c> {
    /// The big body.
    pub big: Body<'t, 'c, f32>,
    /// The small body.
    pub small: Body<'t, 'c, f32>,
    /// The walk's stack.
    pub stack: Vec<[u32; 2]>,
    /// The last frame's pairs, in walk order.
    pub pairs: Vec<TrianglePair>,
    /// Every frame's states, rounded to f32.
    pub frames: Vec<CoreFrame<f32>>,
}

impl Binary<'_, '_> {
    /// Frame `k`'s states set on both bodies.
    #[inline(always)]
    pub fn set_states(&mut self, k: usize) {
        let f = &self.frames[k];
        self.big
            .set_state(f.pose_big, &f.q_big)
            .expect("a valid state");
        self.small
            .set_state(f.pose_small, &f.q_small)
            .expect("a valid state");
    }

    /// One binary frame: both states set, then the kernel's query, its pairs in `pairs`.
    #[inline(always)]
    pub fn frame(&mut self, k: usize) -> QueryOutcome {
        self.set_states(k);
        collide_into(
            &mut self.big,
            &mut self.small,
            &mut self.stack,
            &mut self.pairs,
        )
    }
}

/// Runs `f` with bdtree's side set up on the scene (f32 images, cached).
pub fn with_binary<R>(
    scene_name: &str,
    meshes: Meshes<'_>,
    frames: &[Frame],
    f: impl FnOnce(&mut Binary<'_, '_>) -> R,
) -> R {
    let (big, big_basis, small, small_basis) = meshes;
    let big_image = cached_image(scene_name, big, big_basis, Precision::F32);
    let small_image = cached_image(
        &format!("{scene_name}-small"),
        small,
        small_basis,
        Precision::F32,
    );
    let (big_view, small_view) = (
        big_image.parse::<f32>().expect("parses"),
        small_image.parse::<f32>().expect("parses"),
    );
    let mut big_cache = BodyStorage::new(big_view.tree.node_count());
    let mut small_cache = BodyStorage::new(small_view.tree.node_count());
    let mut big_vertices = vec![VertexEntry::<f32>::default(); big.vertices.len()];
    let mut small_vertices = vec![VertexEntry::<f32>::default(); small.vertices.len()];
    let mut side = Binary {
        big: big_cache
            .body(&big_view)
            .and_then(|b| b.with_vertex_cache(&mut big_vertices))
            .expect("caches fit"),
        small: small_cache
            .body(&small_view)
            .and_then(|b| b.with_vertex_cache(&mut small_vertices))
            .expect("caches fit"),
        stack: vec![[0u32; 2]; stack_capacity(big_view.tree.depth(), small_view.tree.depth())],
        pairs: Vec::with_capacity(4096),
        frames: core_frames(frames),
    };
    f(&mut side)
}

/// Frame `f`'s intersecting triangle pairs by the f64 brute force on the deformed meshes.
pub fn truth(meshes: Meshes<'_>, f: &Frame) -> Vec<(u32, u32)> {
    let (big, big_basis, small, small_basis) = meshes;
    let wb = deform(&big.vertices, Some(big_basis), &f.q_big, &f.pose_big);
    let ws = deform(
        &small.vertices,
        Some(small_basis),
        &f.q_small,
        &f.pose_small,
    );
    brute_force_pairs(&wb, &big.triangles, &ws, &small.triangles)
}

/// A head-to-head example's `main`: reads the subcommand and runs it on [`scene`] with the
/// scene's name, bodies and frames: `run [SIDE]` (one pass over the frames on one side, what
/// `count` measures; `default_side` without SIDE), `time` (the sides interleaved frame by
/// frame), `check` (the sides' pairs against the brute force), and without one `count`
/// (instructions per frame, each side under callgrind).
pub fn main(
    default_side: &str,
    run: fn(&str, &str, Meshes<'_>, &[Frame]),
    time: fn(&str, Meshes<'_>, &[Frame]),
    check: fn(&str, Meshes<'_>, &[Frame]),
    count: fn(&str, Meshes<'_>, &[Frame]),
) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scene = scene();
    let (name, meshes, frames) = (&scene.name, scene.meshes(), &scene.frames);
    match args.first().map(String::as_str) {
        Some("run") => run(
            args.get(1).map_or(default_side, String::as_str),
            name,
            meshes,
            frames,
        ),
        Some("time") => time(name, meshes, frames),
        Some("check") => check(name, meshes, frames),
        _ => count(name, meshes, frames),
    }
}

/// `run parry`: one pass over the frames with parry, each frame by `frame` (the example's, whose
/// name callgrind toggles on).
pub fn run_parry(meshes: Meshes<'_>, frames: &[Frame], frame: fn(&mut ParryScene, usize) -> usize) {
    let mut parry = parry_scene(meshes, frames);
    for k in 0..frames.len() {
        std::hint::black_box(frame(&mut parry, k));
    }
}

/// parry's side of the scene.
pub fn parry_scene(meshes: Meshes<'_>, frames: &[Frame]) -> ParryScene {
    ParryScene::new(meshes.0, meshes.1, meshes.2, meshes.3, frames)
}

/// The node pairs parry's query visits over all the frames.
pub fn parry_node_pairs(meshes: Meshes<'_>, frames: &[Frame]) -> usize {
    let parry = parry_scene(meshes, frames);
    (0..frames.len()).map(|k| parry.node_pairs(k)).sum()
}

/// `run` on a bdtree side: `frame(k)` on every frame, each query complete.
pub fn run_complete(frames: usize, mut frame: impl FnMut(usize) -> QueryOutcome) {
    for k in 0..frames {
        let outcome = frame(k);
        assert!(outcome.status.is_complete(), "{outcome:?}");
    }
}

/// `time`'s rounds per run and runs (`VERSUS_ROUNDS`, 200 by default; `VERSUS_RUNS`, 3).
pub fn rounds_and_runs() -> (usize, usize) {
    (env_usize("VERSUS_ROUNDS", 200), env_usize("VERSUS_RUNS", 3))
}

/// The pairs `big` and `small`'s query found (`pairs`, in walk order) that [`refine`] keeps,
/// as `(triangle of big, triangle of small)`, sorted.
pub fn refined_pairs(
    big: &Body<'_, '_, f32>,
    small: &Body<'_, '_, f32>,
    pairs: &mut [TrianglePair],
) -> Vec<(u32, u32)> {
    let kept = refine(big, small, pairs);
    let mut refined: Vec<(u32, u32)> = pairs[..kept].iter().map(|p| (p.a, p.b)).collect();
    refined.sort_unstable();
    refined
}

/// A side's line of `count`: its name (padded to `width`), then per frame its instructions
/// (`per_frame`) and node pairs (`node_pairs` over the `frames` frames), and its instructions
/// per node pair.
pub fn count_line(
    name: &str,
    width: usize,
    per_frame: f64,
    node_pairs: f64,
    frames: f64,
) -> String {
    format!(
        "  {name:<width$}{per_frame:>10.0} instructions  {:>7.1} node pairs  {:>5.0} per node pair",
        node_pairs / frames,
        per_frame * frames / node_pairs,
    )
}

/// How many of `pairs` the sorted `sorted` lacks.
pub fn lacking(pairs: &[(u32, u32)], sorted: &[(u32, u32)]) -> usize {
    pairs
        .iter()
        .filter(|p| sorted.binary_search(p).is_err())
        .count()
}
