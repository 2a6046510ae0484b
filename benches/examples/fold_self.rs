//! The C API's self call on the fold scene, on the host: the images as `cargo xtask c` packs
//! them for the Cortex-M4F (f32, nested, `with_self_data` with certificates for bodies of at
//! most one mode), every other body with a vertex cache (the curtain and the bar without), and
//! per frame and body the call `bdtree_collide_self_f32` makes (`collide_self_image`), in a
//! function of its own for callgrind: one dump per call, frame after frame, body after body
//! (`.1` is frame 0's curtain, `.2` its cloth, `.3` its bar, `.4` frame 1's curtain, …).
//!
//! ```text
//! cargo build --release -p bdtree-benches --example fold_self
//! target/release/examples/fold_self          # work per call: units, node pairs, updates
//! valgrind --tool=callgrind --dump-instr=no --callgrind-out-file=fold.cg \
//!     --toggle-collect='fold_self::self_call' --dump-after='fold_self::self_call' \
//!     target/release/examples/fold_self      # fold.cg.1 … fold.cg.24, one call each
//! ```
//!
//! `FOLD_CERTIFICATES=all` gives every body its certificates and tables in `q` (what the pack
//! leaves out for flash), `=none` none.

use bdtree_core::query::self_collision::UnitCounts;
use bdtree_core::{
    collide_self_image, self_stack_capacity, Body, ConeSlot, Pose, QueryOutcome, SelfCones,
    TrianglePair, VertexEntry,
};
use bdtree_std::build::{with_self_data, BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::prepare;
use bdtree_std::BodyStorage;

/// One body's self call, as the C API makes it.
#[inline(never)]
fn self_call(
    body: &mut Body<'_, '_, f32>,
    slots: &mut [ConeSlot],
    counts: &mut UnitCounts,
    stack: &mut [[u32; 2]],
    pairs: &mut Vec<TrianglePair>,
) -> QueryOutcome {
    let mut cones = SelfCones::new(slots);
    let mut sink = |p: TrianglePair| {
        pairs.push(p);
        true
    };
    collide_self_image(body, &mut cones, counts, stack, &mut sink)
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scene = Scene::load(&root.join("fixtures/scenes/fold.json")).expect("the fold scene");
    let options = BuildOptions {
        precision: Precision::F32,
        nested: true,
        ..BuildOptions::default()
    };
    let mut prepared = prepare(&scene, options).expect("builds");
    let which = std::env::var("FOLD_CERTIFICATES").unwrap_or_default();
    for (image, body) in prepared.images.iter_mut().zip(&scene.bodies) {
        let modes = body.basis.as_ref().map_or(0, |b| b.modes);
        let certificates = match which.as_str() {
            "all" => true,
            "none" => false,
            _ => modes <= 1,
        };
        *image = with_self_data(image, certificates).expect("self data");
    }
    let parsed: Vec<_> = prepared
        .images
        .iter()
        .map(|i| i.parse::<f32>().expect("parses"))
        .collect();
    let mut storage: Vec<BodyStorage<f32>> = parsed.iter().map(BodyStorage::for_image).collect();
    // Every other body with a vertex cache (the pack's answers and the C example alike).
    let mut vertices: Vec<Vec<VertexEntry<f32>>> = (0..parsed.len())
        .map(|i| vec![VertexEntry::default(); (i % 2) * parsed[i].model.vertex_count()])
        .collect();
    let mut bodies = Vec::new();
    for ((storage, image), cache) in storage.iter_mut().zip(&parsed).zip(&mut vertices) {
        let body = storage.body(image).expect("a body");
        bodies.push(if cache.is_empty() {
            body
        } else {
            body.with_vertex_cache(cache).expect("a vertex cache")
        });
    }
    let depth = parsed.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; self_stack_capacity(depth)];
    let mut slots: Vec<Vec<ConeSlot>> = parsed
        .iter()
        .map(|im| vec![ConeSlot::EMPTY; im.tree.node_count()])
        .collect();
    for (f, frame) in scene.frames.iter().enumerate() {
        for (b, (body, (pose, q))) in bodies.iter_mut().zip(frame).enumerate() {
            let pose = Pose::from_quaternion(
                pose.rotation.map(|x| x as f32),
                pose.translation.map(|x| x as f32),
            )
            .expect("a pose");
            let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
            body.set_state(pose, &q).expect("a state");
            let mut counts = UnitCounts::default();
            let mut pairs = Vec::new();
            let o = self_call(body, &mut slots[b], &mut counts, &mut stack, &mut pairs);
            println!(
                "frame {f} body {b} ({}): {:?}, {} pairs, {} node pairs, {} sphere updates, \
                 {} triangle tests, units {counts:?}",
                scene.bodies[b].name,
                o.status,
                pairs.len(),
                o.stats.nodes_visited,
                o.stats.sphere_updates,
                o.stats.triangle_tests
            );
        }
    }
}
