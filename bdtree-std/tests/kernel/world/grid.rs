//! Broad phase: the hashed uniform grid equals all-pairs brute force (and sweep-and-prune) over
//! the same sphere test and filter, frame after frame as bodies move and as the world grows
//! and shrinks; far from the origin, millimetre bodies, huge and tiny radii mixed, in f32 and
//! f64; non-finite spheres, short storage and a full sink are explicit statuses.

use bdtree_core::{
    AllPairs, BitMatrix, GridStatus, PairFilter, Scalar, SweepAndPrune, UniformGrid,
};
use proptest::prelude::*;

use super::sweep::{brute, neighbour_filter, nudge};
use crate::support::{config, Rng};

/// The grid's pairs, in its order; checks each pair once, `i < j`.
fn grid_raw<S: Scalar>(
    words: &mut [u32],
    spheres: &[[S; 4]],
    filter: &impl PairFilter,
) -> Vec<(u32, u32)> {
    let mut found = Vec::new();
    let (status, tests) = UniformGrid::new(words).pairs(spheres, filter, &mut |i, j| {
        found.push((i, j));
        true
    });
    assert_eq!(status, GridStatus::Complete);
    assert!(tests as usize >= found.len());
    assert!(found.iter().all(|&(i, j)| i < j));
    found
}

fn grid<S: Scalar>(
    words: &mut [u32],
    spheres: &[[S; 4]],
    filter: &impl PairFilter,
) -> Vec<(u32, u32)> {
    let mut found = grid_raw(words, spheres, filter);
    found.sort_unstable();
    let before = found.len();
    found.dedup();
    assert_eq!(found.len(), before, "a pair delivered twice");
    found
}

/// Sweep-and-prune's pairs ([`super::sweep::sweep`]) on storage of its own.
fn sweep<S: Scalar>(spheres: &[[S; 4]], filter: &impl PairFilter) -> Vec<(u32, u32)> {
    let mut order = vec![0u32; spheres.len()];
    super::sweep::sweep(&mut SweepAndPrune::new(&mut order), spheres, filter)
}

/// The kinds of world the grid must get right.
#[derive(Debug, Clone, Copy)]
enum Layout {
    /// Radii 0.01–1 in a cube of side `2 spread`.
    Plain,
    /// The same 10⁴ m from the origin.
    Far,
    /// Millimetre bodies (radii 0.1–1 mm) in a 5 cm box, 300 m from the origin.
    Millimetre,
    /// Radii from 10⁻⁴ to 50 mixed.
    Mixed,
    /// A heap: a column of 2 × 2 footprint, many bodies in every x slice.
    Column,
}

fn world(layout: Layout, n: usize, spread: f64, rng: &mut Rng) -> Vec<[f64; 4]> {
    (0..n)
        .map(|_| match layout {
            Layout::Plain => {
                let c = [0, 1, 2].map(|_| rng.uniform(-spread, spread));
                [c[0], c[1], c[2], rng.uniform(0.01, 1.0)]
            }
            Layout::Far => {
                let c = [0, 1, 2].map(|_| 1e4 + rng.uniform(-spread, spread));
                [c[0], c[1], c[2], rng.uniform(0.01, 1.0)]
            }
            Layout::Millimetre => {
                let c = [0, 1, 2].map(|_| 300.0 + rng.uniform(0.0, 0.05));
                [c[0], c[1], c[2], rng.uniform(1e-4, 1e-3)]
            }
            Layout::Mixed => {
                let c = [0, 1, 2].map(|_| rng.uniform(-spread, spread));
                let r = if rng.below(20) == 0 {
                    rng.uniform(5.0, 50.0)
                } else {
                    rng.uniform(1e-4, 0.5)
                };
                [c[0], c[1], c[2], r]
            }
            Layout::Column => {
                let c = [
                    rng.uniform(0.0, 2.0),
                    rng.uniform(0.0, 2.0),
                    rng.uniform(0.0, spread),
                ];
                [c[0], c[1], c[2], rng.uniform(0.4, 0.6)]
            }
        })
        .collect()
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::Plain),
        Just(Layout::Far),
        Just(Layout::Millimetre),
        Just(Layout::Mixed),
        Just(Layout::Column),
    ]
}

/// Moves every body a little and one far, `frames` times, comparing grid, brute force and
/// the sweep at each frame, with and without a matrix filter; the world shrinks and grows.
fn frames<S: Scalar>(
    layout: Layout,
    n: usize,
    spread: f64,
    seed: u64,
) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let mut spheres = world(layout, n, spread, &mut rng);
    let step = spheres.iter().map(|s| s[3]).fold(0.0, f64::max) * 0.2;
    let mut words = vec![0u32; UniformGrid::words_needed(256)];
    let mut bits = vec![0u32; BitMatrix::words_needed(256)];
    let matrix = neighbour_filter(&mut bits, n);
    for frame in 0..8 {
        nudge(&mut spheres, || rng.uniform(-step, step));
        let far = rng.below(spheres.len());
        spheres[far][1] += 3.0 * spread;
        let typed: Vec<[S; 4]> = spheres.iter().map(|s| s.map(S::from_f64)).collect();
        let truth = brute(&typed, &AllPairs);
        prop_assert_eq!(
            grid(&mut words, &typed, &AllPairs),
            truth.clone(),
            "frame {}",
            frame
        );
        prop_assert_eq!(sweep(&typed, &AllPairs), truth);
        prop_assert_eq!(grid(&mut words, &typed, &matrix), brute(&typed, &matrix));
        // The world shrinks and grows again (the same storage).
        let part = &typed[..typed.len().div_ceil(2)];
        prop_assert_eq!(grid(&mut words, part, &AllPairs), brute(part, &AllPairs));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(48, 0xBD7_0862))]

    #[test]
    fn the_grid_equals_all_pairs(
        layout in layout(),
        n in 1usize..250,
        spread in prop_oneof![Just(1.0), Just(10.0), Just(1000.0)],
        f64s in any::<bool>(),
        seed in any::<u64>(),
    ) {
        if f64s {
            frames::<f64>(layout, n, spread, seed)?;
        } else {
            frames::<f32>(layout, n, spread, seed)?;
        }
    }
}

/// Pairs at the edge of touching: the grid keeps every pair the sphere test accepts, at the
/// exact boundary of the cell side (every body of the largest radius), in f32 and f64, near
/// and far from the origin.
#[test]
fn touching_spheres_across_cells_are_pairs() {
    for origin in [0.0, 1e3, -7.5e4] {
        for r in [1.0, 1e-3, 0.37] {
            // A row of spheres, each touching the next (overlapping by 10⁻⁷ of the diameter:
            // their centres a cell side apart, less the grid's 2⁻¹⁶), plus one just apart.
            let mut spheres: Vec<[f64; 4]> = (0..6)
                .map(|k| {
                    [
                        origin + 2.0 * r * (1.0 - 1e-7) * k as f64,
                        origin,
                        origin,
                        r,
                    ]
                })
                .collect();
            spheres.push([origin + 12.0 * r * (1.0 + 1e-5), origin, origin, r]);
            let f32s: Vec<[f32; 4]> = spheres.iter().map(|s| s.map(|x| x as f32)).collect();
            let mut words = vec![0u32; UniformGrid::words_needed(spheres.len())];
            assert_eq!(
                grid(&mut words, &spheres, &AllPairs),
                brute(&spheres, &AllPairs)
            );
            assert_eq!(grid(&mut words, &f32s, &AllPairs), brute(&f32s, &AllPairs));
            let touching = brute(&spheres, &AllPairs).len();
            assert_eq!(touching, 5, "origin {origin}, r {r}");
        }
    }
}

/// The grid's order: by first body ascending (the module docs).
#[test]
fn pairs_come_by_first_body() {
    let mut rng = Rng::new(62);
    let spheres = world(Layout::Column, 200, 20.0, &mut rng);
    let mut words = vec![0u32; UniformGrid::words_needed(spheres.len())];
    let found = grid_raw(&mut words, &spheres, &AllPairs);
    assert!(found.len() > 100);
    assert!(found.windows(2).all(|w| w[0].0 <= w[1].0));
}

#[test]
fn non_finite_spheres_and_short_storage_are_refused() {
    let good = [1.0f32, 2.0, 3.0, 0.5];
    let mut words = vec![0u32; UniformGrid::words_needed(4)];
    for bad in [
        [f32::NAN, 0.0, 0.0, 1.0],
        [0.0, f32::INFINITY, 0.0, 1.0],
        [0.0, 0.0, 0.0, f32::NAN],
        [0.0, 0.0, 0.0, -1.0],
    ] {
        let spheres = [good, good, bad, good];
        let mut delivered = 0;
        let (status, _) = UniformGrid::new(&mut words).pairs(&spheres, &AllPairs, &mut |_, _| {
            delivered += 1;
            true
        });
        assert_eq!(status, GridStatus::NotFinite { body: 2 }, "{bad:?}");
        assert_eq!(delivered, 0, "nothing delivered before the refusal");
    }
    let spheres = [good; 4];
    let need = UniformGrid::words_needed(4);
    let mut short = vec![0u32; need - 1];
    let (status, tests) = UniformGrid::new(&mut short).pairs(&spheres, &AllPairs, &mut |_, _| true);
    assert_eq!(status, GridStatus::TooManyBodies { words: need });
    assert_eq!(tests, 0);
    // Grown to what it asked for, the same storage answers.
    short.resize(need, 0);
    assert_eq!(grid(&mut short, &spheres, &AllPairs).len(), 6);
    // Empty and single worlds.
    assert!(grid::<f32>(&mut short, &[], &AllPairs).is_empty());
    assert!(grid(&mut short, &[good], &AllPairs).is_empty());
}

#[test]
fn a_full_sink_stops_the_grid_and_says_which_pair() {
    let spheres: Vec<[f32; 4]> = (0..5).map(|k| [k as f32 * 0.5, 0.0, 0.0, 1.0]).collect();
    let mut words = vec![0u32; UniformGrid::words_needed(5)];
    let mut taken = Vec::new();
    let (status, _) = UniformGrid::new(&mut words).pairs(&spheres, &AllPairs, &mut |i, j| {
        taken.push((i, j));
        taken.len() <= 2
    });
    let &(i, j) = taken.last().expect("three pairs offered");
    assert_eq!(taken.len(), 3);
    assert_eq!(status, GridStatus::SinkFull { i, j });
}

/// Two spheres the test accepts as touching though their centres are a little more than two
/// radii apart (within its `16u` slack), the first just below a cell boundary of a grid with no
/// growth: without the cell side's growth they would land two cells apart and be missed.
#[test]
fn a_pair_touching_within_the_slack_across_a_cell_boundary_is_found() {
    fn check<S: Scalar>(below_two: S, apart: S) {
        for axis in 0..3 {
            let at = |x: S| {
                let mut s = [S::ZERO, S::ZERO, S::ZERO, S::ONE];
                s[axis] = x;
                s
            };
            // The first sphere sets the grid's low corner at 0 and the largest radius 1.
            let spheres = [at(S::ZERO), at(below_two), at(below_two + apart)];
            let truth = brute(&spheres, &AllPairs);
            assert!(truth.contains(&(1, 2)), "{truth:?}");
            let mut words = vec![0u32; UniformGrid::words_needed(3)];
            assert_eq!(grid(&mut words, &spheres, &AllPairs), truth, "axis {axis}");
        }
    }
    check::<f64>(
        f64::from_bits(2.0f64.to_bits() - 1),
        2.0 + 8.0 * f64::EPSILON,
    );
    check::<f32>(
        f32::from_bits(2.0f32.to_bits() - 1),
        2.0 + 8.0 * f32::EPSILON,
    );
}
