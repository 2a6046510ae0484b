//! Where a node pair's time goes: the query bench's scene (`query_scene`) run frame after frame
//! with nothing else in the process, for counters that do not depend on the machine's load —
//! `valgrind --tool=cachegrind --cache-sim=yes` (instructions, data reads, first-level and
//! last-level data misses) or `--tool=callgrind` (per function).
//!
//! ```text
//! cargo build --release -p bdtree-benches --example walk_profile
//! WALK_ROUNDS=0 valgrind --tool=cachegrind --cache-sim=yes target/release/examples/walk_profile
//! WALK_ROUNDS=4 valgrind --tool=cachegrind --cache-sim=yes target/release/examples/walk_profile
//! ```
//!
//! The difference of the two runs is the queries' own cost (`WALK_ROUNDS` passes over the
//! frames; the setup — images read from `target/walk-profile/`, built there on the first run —
//! is the same in both). `WALK_PRECISION=f64` runs the f64 trees; the query bench's variables
//! change the scene (`BDTREE_BENCH_SUBDIVISIONS=3`: a 1,280-triangle big body whose tree sits
//! in cache, to separate memory from work; `BDTREE_BENCH_DEPTH`, `BDTREE_BENCH_REST`). It
//! prints the counters the walk keeps, per frame.

use bdtree_benches::measure::cached_image;
use bdtree_benches::query_scene::{big_subdivisions, bodies, core_frames, frames, CoreFrame};
use bdtree_core::{
    collide, stack_capacity, Body, QueryOutcome, QueryStats, Scalar, TrianglePair, VertexEntry,
};
use bdtree_std::build::Precision;
use bdtree_std::BodyStorage;

/// One frame: both states set, then the query (not inlined, so that
/// `valgrind --tool=callgrind --toggle-collect='walk_profile::frame*'` counts the frames alone).
#[inline(never)]
fn frame<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    f: &CoreFrame<S>,
    stack: &mut [[u32; 2]],
    pairs: &mut usize,
) -> QueryOutcome {
    a.set_state(f.pose_big, &f.q_big).expect("a valid state");
    b.set_state(f.pose_small, &f.q_small)
        .expect("a valid state");
    let mut sink = |_: TrianglePair| {
        *pairs += 1;
        true
    };
    collide(a, b, stack, &mut sink)
}

fn run<S: Scalar>(rounds: usize) {
    let (big, big_basis, small, small_basis) = bodies();
    let frames = core_frames::<S>(&frames(&big, &big_basis));
    let precision = if S::BYTES == 4 {
        Precision::F32
    } else {
        Precision::F64
    };
    let sub = big_subdivisions();
    let big_image = cached_image(&format!("big-s{sub}"), &big, &big_basis, precision);
    let small_image = cached_image("small", &small, &small_basis, precision);
    let (big_view, small_view) = (
        big_image.parse::<S>().expect("parses"),
        small_image.parse::<S>().expect("parses"),
    );
    let mut big_cache = BodyStorage::new(big_view.tree.node_count());
    let mut small_cache = BodyStorage::new(small_view.tree.node_count());
    let mut big_vertices = vec![VertexEntry::<S>::default(); big.vertices.len()];
    let mut small_vertices = vec![VertexEntry::<S>::default(); small.vertices.len()];
    let mut a = big_cache
        .body(&big_view)
        .and_then(|b| b.with_vertex_cache(&mut big_vertices))
        .expect("caches fit");
    let mut b = small_cache
        .body(&small_view)
        .and_then(|b| b.with_vertex_cache(&mut small_vertices))
        .expect("caches fit");
    let mut stack = vec![[0u32; 2]; stack_capacity(big_view.tree.depth(), small_view.tree.depth())];
    let mut total = QueryStats::default();
    let mut pairs = 0usize;
    for _ in 0..rounds {
        for f in &frames {
            let outcome = frame(&mut a, &mut b, f, &mut stack, &mut pairs);
            assert!(outcome.status.is_complete(), "{outcome:?}");
            total.add(&outcome.stats);
        }
    }
    let queries = (rounds * frames.len()).max(1) as f64;
    let per = |x: u32| x as f64 / queries;
    println!(
        "{} triangles ({} nodes), {precision:?}, {rounds} rounds of {} frames: per frame {:.1} \
         node pairs, {:.1} sphere updates, {:.1} overlap tests, {:.1} triangle tests, {:.1} pairs",
        big.triangles.len(),
        big_view.tree.node_count(),
        frames.len(),
        per(total.nodes_visited),
        per(total.sphere_updates),
        per(total.overlap_tests),
        per(total.triangle_tests),
        pairs as f64 / queries,
    );
}

fn main() {
    let rounds = std::env::var("WALK_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    match std::env::var("WALK_PRECISION").as_deref() {
        Ok("f64") => run::<f64>(rounds),
        _ => run::<f32>(rounds),
    }
}
