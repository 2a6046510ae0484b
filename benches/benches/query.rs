//! Per-frame exact query between a large and a small deforming body: the BD-Tree against the
//! refit approach a user would otherwise pick with parry3d.
//!
//! Scene: a unit icosphere of 327,680 triangles (163,842 vertices) and a 720-triangle UV sphere
//! of radius 0.04, both with M = 10 smooth modes (each mode's largest displacement 3 % of the
//! body's radius, `q_j` in [−1, 1]), the small one pressed [`DEPTH`] into the big one's
//! deformed surface: 54–58 intersecting triangle pairs. [`FRAMES`] frames of small motion (both
//! `q`, both poses).
//!
//! Group `query`, one frame per iteration (cycling through the frames):
//!
//! * `bdtree_f32`, `bdtree_f64` — `set_state` on both bodies + `collide`, pairs into a
//!   preallocated `Vec`; both bodies with a vertex cache (`Body::with_vertex_cache`). Trees are built once, before any timing.
//! * `parry_refit` — every vertex of both bodies deformed (`p + U q`, 3NM multiply-adds; the
//!   small body's vertices then put in the big body's frame by the relative pose) straight into
//!   two `TriMesh`es made with `TriMeshFlags::DEFORMABLE`, through `TriMesh::update_vertices`
//!   (the in-place form of `set_vertices`, which refits the BVH); candidate leaf pairs from
//!   `Bvh::leaf_pairs` with the AABB test; an exact triangle–triangle test on each candidate
//!   (`oracle::triangles_intersect` on the f32 vertices: parry's own GJK test,
//!   `intersection_test_support_map_support_map`, calls triangles up to ~5·10⁻³ apart
//!   intersecting, so it is only reported, not used).
//!
//! Before timing, every frame's pairs from every method are checked against
//! `oracle::brute_force_pairs` on the f64 deformed meshes: a missed pair panics (for the f32
//! baseline, one deeper than 10⁻⁵); extra pairs (near-touching ones within the rounding
//! inflation) are counted and printed. After criterion, each method is timed frame by frame
//! ([`RATIO_ROUNDS`] rounds, warm, one method at a time) and the per-frame medians, the
//! baseline's phases and the ratio `parry_refit / bdtree_f32` are printed.

use bdtree_std::BodyStorage;
use std::hint::black_box;
use std::time::{Duration, Instant};

use bdtree_benches::query_scene::{
    at_rest, bodies, build_image, collide_into, core_frames, depth, frames, CoreFrame, Frame,
    FRAMES,
};
use bdtree_benches::refit::{ParryScene, MAX_PAIRS};
use bdtree_core::{
    refine, stack_capacity, Body, Image, QueryOutcome, QueryStats, Scalar, TrianglePair,
    VertexEntry,
};
use bdtree_std::build::Precision;
use bdtree_std::oracle::{brute_force_pairs, deform, separation_gap};
use criterion::Criterion;
use parry3d::math::Vector;

/// Rounds of the frame-by-frame timing behind the printed ratio.
const RATIO_ROUNDS: usize = 15;

/// Both bodies of the bdtree side in one scalar, with the query's stack and output.
struct CoreScene<'t, 'c, S: Scalar> {
    big: Body<'t, 'c, S>,
    small: Body<'t, 'c, S>,
    stack: Vec<[u32; 2]>,
    pairs: Vec<TrianglePair>,
    frames: Vec<CoreFrame<S>>,
}

impl<'t, 'c, S: Scalar> CoreScene<'t, 'c, S> {
    fn new(
        big: &Image<'t, S>,
        big_cache: &'c mut BodyStorage<S>,
        big_vertices: &'c mut [VertexEntry<S>],
        small: &Image<'t, S>,
        small_cache: &'c mut BodyStorage<S>,
        small_vertices: &'c mut [VertexEntry<S>],
        frames: &[Frame],
    ) -> Self {
        let stack = vec![[0u32; 2]; stack_capacity(big.tree.depth(), small.tree.depth())];
        Self {
            big: big_cache
                .body(big)
                .and_then(|b| b.with_vertex_cache(big_vertices))
                .expect("caches fit"),
            small: small_cache
                .body(small)
                .and_then(|b| b.with_vertex_cache(small_vertices))
                .expect("caches fit"),
            stack,
            pairs: Vec::with_capacity(4 * MAX_PAIRS),
            frames: core_frames(frames),
        }
    }

    /// The timed work of one frame: both `set_state` calls and the query.
    #[inline]
    fn frame(&mut self, k: usize) -> QueryOutcome {
        let f = &self.frames[k];
        self.big
            .set_state(f.pose_big, &f.q_big)
            .expect("q has M finite entries");
        self.small
            .set_state(f.pose_small, &f.q_small)
            .expect("q has M finite entries");
        collide_into(
            &mut self.big,
            &mut self.small,
            &mut self.stack,
            &mut self.pairs,
        )
    }

    /// [`CoreScene::frame`], then the pairs re-tested exactly ([`refine`], the f32 answer's
    /// second stage; nothing to do for f64): the pairs kept.
    #[inline]
    fn frame_refined(&mut self, k: usize) -> (QueryOutcome, usize) {
        let outcome = self.frame(k);
        let kept = refine(&self.big, &self.small, &mut self.pairs);
        self.pairs.truncate(kept);
        (outcome, kept)
    }

    fn sorted_refined(&mut self, k: usize) -> Vec<(u32, u32)> {
        let (outcome, _) = self.frame_refined(k);
        assert!(
            outcome.status.is_complete(),
            "query incomplete: {outcome:?}"
        );
        let mut pairs: Vec<(u32, u32)> = self.pairs.iter().map(|p| (p.a, p.b)).collect();
        pairs.sort_unstable();
        pairs
    }

    fn sorted_pairs(&mut self, k: usize) -> (Vec<(u32, u32)>, QueryOutcome) {
        let outcome = self.frame(k);
        assert!(
            outcome.status.is_complete(),
            "query incomplete: {outcome:?}"
        );
        let mut pairs: Vec<(u32, u32)> = self.pairs.iter().map(|p| (p.a, p.b)).collect();
        pairs.sort_unstable();
        (pairs, outcome)
    }
}

fn world_triangle(world: &[[f64; 3]], t: [u32; 3]) -> [[f64; 3]; 3] {
    t.map(|v| world[v as usize])
}

/// A method's pairs against the brute force.
struct Agreement {
    /// Reported pairs the brute force rejects.
    extra: usize,
    /// Largest separation gap among them.
    extra_gap: f64,
    /// Intersecting pairs not reported.
    missed: usize,
}

/// Compares a method's pairs with the brute force. Panics on a missed pair deeper than
/// `missed_slack` (0: any missed pair) and on an extra pair further apart than `extra_slack`.
#[allow(clippy::too_many_arguments)]
fn check(
    name: &str,
    frame: usize,
    got: &[(u32, u32)],
    truth: &[(u32, u32)],
    worlds: (&[[f64; 3]], &[[f64; 3]]),
    tris: (&[[u32; 3]], &[[u32; 3]]),
    missed_slack: f64,
    extra_slack: f64,
) -> Agreement {
    let gap = |&(a, b): &(u32, u32)| {
        separation_gap(
            &world_triangle(worlds.0, tris.0[a as usize]),
            &world_triangle(worlds.1, tris.1[b as usize]),
        )
    };
    let missed: Vec<_> = truth
        .iter()
        .filter(|p| got.binary_search(p).is_err())
        .map(|p| (*p, gap(p)))
        .collect();
    if missed
        .iter()
        .any(|&(_, g)| missed_slack == 0.0 || g < -missed_slack)
    {
        panic!(
            "{name}, frame {frame}: {} of {} intersecting pairs missed (pair, gap): {missed:?}",
            missed.len(),
            truth.len()
        );
    }
    let extra: Vec<_> = got
        .iter()
        .filter(|p| truth.binary_search(p).is_err())
        .map(|p| (*p, gap(p)))
        .collect();
    let extra_gap = extra.iter().map(|&(_, g)| g).fold(0.0, f64::max);
    assert!(
        extra_gap <= extra_slack,
        "{name}, frame {frame}: reports pairs up to {extra_gap:.2e} apart: {extra:?}"
    );
    Agreement {
        extra: extra.len(),
        extra_gap,
        missed: missed.len(),
    }
}

/// One frame's work: true pairs, the f32 and f64 queries' counters, parry's candidates and
/// node pairs.
type Work = (usize, QueryStats, QueryStats, usize, usize);

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut criterion = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();

    // The scene.
    let (big, big_basis, small, small_basis) = bodies();
    eprintln!(
        "big body: {} triangles; small body pressed {} m deep",
        big.triangles.len(),
        depth()
    );
    let frames = frames(&big, &big_basis);

    // bdtree: images built once.
    let images32 = [
        build_image(&big, &big_basis, Precision::F32),
        build_image(&small, &small_basis, Precision::F32),
    ];
    let images64 = [
        build_image(&big, &big_basis, Precision::F64),
        build_image(&small, &small_basis, Precision::F64),
    ];
    let (big32, small32) = (
        images32[0].parse::<f32>().expect("parses"),
        images32[1].parse::<f32>().expect("parses"),
    );
    let (big64, small64) = (
        images64[0].parse::<f64>().expect("parses"),
        images64[1].parse::<f64>().expect("parses"),
    );
    let mut caches32 = (
        BodyStorage::new(big32.tree.node_count()),
        vec![VertexEntry::<f32>::default(); big.vertices.len()],
        BodyStorage::new(small32.tree.node_count()),
        vec![VertexEntry::<f32>::default(); small.vertices.len()],
    );
    let mut caches64 = (
        BodyStorage::new(big64.tree.node_count()),
        vec![VertexEntry::<f64>::default(); big.vertices.len()],
        BodyStorage::new(small64.tree.node_count()),
        vec![VertexEntry::<f64>::default(); small.vertices.len()],
    );
    let (c, v, sc, sv) = (
        &mut caches32.0,
        &mut caches32.1,
        &mut caches32.2,
        &mut caches32.3,
    );
    let mut core32 = CoreScene::new(&big32, c, v, &small32, sc, sv, &frames);
    let (c, v, sc, sv) = (
        &mut caches64.0,
        &mut caches64.1,
        &mut caches64.2,
        &mut caches64.3,
    );
    let mut core64 = CoreScene::new(&big64, c, v, &small64, sc, sv, &frames);
    let mut parry = ParryScene::new(&big, &big_basis, &small, &small_basis, &frames);

    // Every method against the brute force, frame by frame.
    eprintln!(
        "\nframe  true pairs | bdtree_f32: pairs +extra (max gap), node pairs, sphere updates, \
         triangle tests | bdtree_f64: pairs +extra | parry_refit: AABB candidates, pairs \
         +extra -missed | parry GJK on the candidates: pairs +extra (max gap)"
    );
    let mut gjk_extra_total = 0;
    let mut work: Vec<Work> = Vec::new();
    let (mut extra32, mut gap32, mut true_total) = (0, 0.0f64, 0);
    let (mut extra_refined, mut gap_refined) = (0, 0.0f64);
    for (k, f) in frames.iter().enumerate() {
        let world_big = deform(&big.vertices, Some(&big_basis), &f.q_big, &f.pose_big);
        let world_small = deform(
            &small.vertices,
            Some(&small_basis),
            &f.q_small,
            &f.pose_small,
        );
        let truth = brute_force_pairs(&world_big, &big.triangles, &world_small, &small.triangles);
        assert!(
            !truth.is_empty() && truth.len() <= MAX_PAIRS,
            "frame {k}: {} intersecting pairs; the scene should graze",
            truth.len()
        );
        let worlds = (&world_big[..], &world_small[..]);
        let tris = (&big.triangles[..], &small.triangles[..]);
        let (p32, out32) = core32.sorted_pairs(k);
        let (p64, out64) = core64.sorted_pairs(k);
        let (pp, candidates) = parry.sorted_pairs(k);
        let a32 = check("bdtree_f32", k, &p32, &truth, worlds, tris, 0.0, 1e-3);
        let r32 = core32.sorted_refined(k);
        let ar = check(
            "bdtree_f32 refined",
            k,
            &r32,
            &truth,
            worlds,
            tris,
            0.0,
            1e-3,
        );
        extra_refined += ar.extra;
        gap_refined = gap_refined.max(ar.extra_gap);
        let a64 = check("bdtree_f64", k, &p64, &truth, worlds, tris, 0.0, 1e-9);
        // The baseline runs in f32: pairs within its rounding may go either way.
        let ap = check("parry_refit", k, &pp, &truth, worlds, tris, 1e-5, 1e-5);
        let gjk = parry.gjk_pairs();
        let ag = check(
            "parry GJK",
            k,
            &gjk,
            &truth,
            worlds,
            tris,
            1e-5,
            f64::INFINITY,
        );
        gjk_extra_total += ag.extra;
        let s32 = out32.stats;
        work.push((
            truth.len(),
            s32,
            out64.stats,
            candidates,
            parry.node_pairs(k),
        ));
        extra32 += a32.extra;
        gap32 = gap32.max(a32.extra_gap);
        true_total += truth.len();
        eprintln!(
            "{k:5}  {:10} | {:5} +{} ({:.1e}) {:7} {:5} {:5} | {:5} +{} | {:5} {:5} +{} -{} | {:5} +{} ({:.1e})",
            truth.len(),
            p32.len(),
            a32.extra,
            a32.extra_gap,
            s32.nodes_visited,
            s32.sphere_updates,
            s32.triangle_tests,
            p64.len(),
            a64.extra,
            candidates,
            pp.len(),
            ap.extra,
            ap.missed,
            gjk.len(),
            ag.extra,
            ag.extra_gap,
        );
    }
    if gjk_extra_total > 0 {
        eprintln!(
            "note: parry's GJK test reports {gjk_extra_total} disjoint triangle pairs as \
             intersecting over the {FRAMES} frames; the baseline uses the exact oracle test"
        );
    }

    // Work per intersecting pair (every frame has contact; the scene asserts it above).
    let per = |f: &dyn Fn(&Work) -> f64| {
        work.iter().map(|w| f(w) / w.0 as f64).sum::<f64>() / work.len() as f64
    };
    println!(
        "\nwork per intersecting pair (mean over {FRAMES} frames{}):",
        if at_rest() { ", q = 0" } else { "" }
    );
    println!("             node pairs  sphere updates  triangle tests");
    println!(
        "bdtree_f32   {:10.1}  {:14.1}  {:14.1}",
        per(&|w| w.1.nodes_visited as f64),
        per(&|w| w.1.sphere_updates as f64),
        per(&|w| w.1.triangle_tests as f64)
    );
    println!(
        "bdtree_f64   {:10.1}  {:14.1}  {:14.1}",
        per(&|w| w.2.nodes_visited as f64),
        per(&|w| w.2.sphere_updates as f64),
        per(&|w| w.2.triangle_tests as f64)
    );
    println!(
        "parry        {:10.1}  {:>14}  {:14.1}  (AABB node pairs visited; leaf candidates, \
         each tested exactly)",
        per(&|w| w.4 as f64),
        "-",
        per(&|w| w.3 as f64)
    );
    println!(
        "bdtree_f32 extras: {extra32} of {true_total} true pairs ({:.2} %), farthest {gap32:.1e} apart",
        100.0 * extra32 as f64 / true_total as f64
    );

    println!(
        "bdtree_f32 refined (f64 second stage) extras: {extra_refined} of {true_total} true pairs \
         ({:.2} %), farthest {gap_refined:.1e} apart",
        100.0 * extra_refined as f64 / true_total as f64
    );

    // Criterion: one frame per iteration, cycling through the frames.
    let mut group = criterion.benchmark_group("query");
    let mut k = 0;
    group.bench_function("bdtree_f32", |b| {
        b.iter(|| {
            k = (k + 1) % FRAMES;
            black_box(core32.frame(k))
        })
    });
    group.bench_function("bdtree_f32_refined", |b| {
        b.iter(|| {
            k = (k + 1) % FRAMES;
            black_box(core32.frame_refined(k))
        })
    });
    group.bench_function("bdtree_f64", |b| {
        b.iter(|| {
            k = (k + 1) % FRAMES;
            black_box(core64.frame(k))
        })
    });
    group.bench_function("parry_refit", |b| {
        b.iter(|| {
            k = (k + 1) % FRAMES;
            black_box(parry.frame(k))
        })
    });
    group.bench_function("parry_query", |b| {
        b.iter(|| {
            k = (k + 1) % FRAMES;
            black_box(parry.query_only(k))
        })
    });
    group.finish();

    if std::env::args().any(|a| a == "--list") {
        return;
    }

    // Per-frame medians of our own (each method on its own, warm, as under criterion).
    let timed = |run: &mut dyn FnMut(usize)| -> Vec<f64> {
        let mut t = vec![Vec::new(); FRAMES];
        for _ in 0..RATIO_ROUNDS {
            for (k, tk) in t.iter_mut().enumerate() {
                let start = Instant::now();
                run(k);
                tk.push(start.elapsed().as_secs_f64());
            }
        }
        t.iter_mut().map(|tk| median(tk)).collect()
    };
    let t32 = timed(&mut |k| {
        black_box(core32.frame(k));
    });
    let t64 = timed(&mut |k| {
        black_box(core64.frame(k));
    });
    let tparry = timed(&mut |k| {
        black_box(parry.frame(k));
    });
    let tquery = timed(&mut |k| {
        black_box(parry.query_only(k));
    });
    let mut scratch = (
        vec![Vector::ZERO; big.vertices.len()],
        vec![Vector::ZERO; small.vertices.len()],
    );
    let mut phases = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..RATIO_ROUNDS {
        for k in 0..FRAMES {
            for (p, t) in phases.iter_mut().zip(parry.frame_phases(k, &mut scratch)) {
                p.push(t);
            }
        }
    }

    println!("\nper-frame medians over {RATIO_ROUNDS} rounds (ms):");
    println!(
        "frame  bdtree_f32  bdtree_f64  parry_refit  parry_query  parry/f32  parry/f64  f32/query"
    );
    let mut ratios32 = Vec::new();
    let mut ratios64 = Vec::new();
    let mut query_ratios = Vec::new();
    for k in 0..FRAMES {
        ratios32.push(tparry[k] / t32[k]);
        ratios64.push(tparry[k] / t64[k]);
        query_ratios.push(t32[k] / tquery[k]);
        println!(
            "{k:5}  {:10.4}  {:10.4}  {:11.3}  {:11.4}  {:9.1}  {:9.1}  {:9.2}",
            t32[k] * 1e3,
            t64[k] * 1e3,
            tparry[k] * 1e3,
            tquery[k] * 1e3,
            tparry[k] / t32[k],
            tparry[k] / t64[k],
            t32[k] / tquery[k],
        );
    }
    let ms = |mut v: Vec<f64>| median(&mut v) * 1e3;
    println!(
        "median per frame: bdtree_f32 {:.4} ms, bdtree_f64 {:.4} ms, parry_refit {:.3} ms \
         (deform {:.3} + set_vertices/refit {:.3} + pair search {:.3})",
        ms(t32.clone()),
        ms(t64.clone()),
        ms(tparry.clone()),
        ms(phases[0].clone()),
        ms(phases[1].clone()),
        ms(phases[2].clone()),
    );
    let ratio32 = median(&mut ratios32);
    let min32 = ratios32.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "ratio parry_refit / bdtree_f32 = {ratio32:.1} (median over frames; lowest {min32:.1})"
    );
    println!(
        "ratio parry_refit / bdtree_f64 = {:.1} (median over frames)",
        median(&mut ratios64)
    );
    println!(
        "ratio bdtree_f32 / parry_query = {:.2} (median over frames; parry's query phase alone \
         {:.4} ms on BVHs refitted before timing)",
        median(&mut query_ratios),
        ms(tquery.clone())
    );

    criterion.final_summary();
}
