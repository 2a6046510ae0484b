//! Broad phase: sweep-and-prune equals all-pairs brute force over the same sphere test and
//! filter, frame after frame as bodies move (and as the world grows and shrinks); the
//! allowed-collision matrix; a full sink.

use bdtree_core::bounds::sphere::spheres_overlap;
use bdtree_core::{AllPairs, BitMatrix, PairFilter, SweepAndPrune, SweepStatus};
use proptest::prelude::*;

use crate::support::{config, Rng};

/// Every pair `i < j` that `filter` allows and whose spheres overlap, sorted.
pub(super) fn brute<S: bdtree_core::Scalar>(
    spheres: &[[S; 4]],
    filter: &impl PairFilter,
) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for i in 0..spheres.len() {
        for j in i + 1..spheres.len() {
            if filter.allows(i, j) && spheres_overlap(spheres[i], spheres[j]) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

/// Sweep-and-prune's pairs, sorted.
pub(super) fn sweep<S: bdtree_core::Scalar>(
    sap: &mut SweepAndPrune<'_>,
    spheres: &[[S; 4]],
    filter: &impl PairFilter,
) -> Vec<(u32, u32)> {
    let mut found = Vec::new();
    let (status, _) = sap.pairs(spheres, filter, &mut |i, j| {
        found.push((i, j));
        true
    });
    assert_eq!(status, SweepStatus::Complete);
    found.sort_unstable();
    found
}

/// A filter of up to 256 bodies forbidding each pair `(k, k + 1)` with `k < n / 3`.
pub(super) fn neighbour_filter(words: &mut [u32], n: usize) -> BitMatrix<'_> {
    let mut matrix = BitMatrix::new(words, 256).expect("matrix");
    for k in 0..n / 3 {
        matrix.set(k, k + 1, false);
    }
    matrix
}

/// Moves every sphere's centre by `step()` along each axis in turn.
pub(super) fn nudge<T: Copy + std::ops::AddAssign>(
    spheres: &mut [[T; 4]],
    mut step: impl FnMut() -> T,
) {
    for s in spheres.iter_mut() {
        for c in s.iter_mut().take(3) {
            *c += step();
        }
    }
}

proptest! {
    #![proptest_config(config(32, 0xBD7_0801))]

    #[test]
    fn sweep_and_prune_equals_all_pairs(
        n in 1usize..250,
        spread in prop_oneof![Just(1.0), Just(10.0), Just(1000.0)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mut spheres: Vec<[f32; 4]> = (0..n)
            .map(|_| {
                let c = [0, 1, 2].map(|_| rng.uniform(-spread, spread) as f32);
                [c[0], c[1], c[2], rng.uniform(0.01, 1.0) as f32]
            })
            .collect();
        let mut order = vec![0u32; 256];
        let mut sap = SweepAndPrune::new(&mut order);
        let mut words = vec![0u32; BitMatrix::words_needed(256)];
        let matrix = neighbour_filter(&mut words, n);
        for frame in 0..12 {
            // Move every body a little (frame coherence) and one a lot.
            nudge(&mut spheres, || rng.uniform(-0.05, 0.05) as f32 * spread as f32 * 0.1);
            let far = rng.below(spheres.len());
            spheres[far][0] = -spheres[far][0];
            prop_assert_eq!(sweep(&mut sap, &spheres, &AllPairs), brute(&spheres, &AllPairs), "frame {}", frame);
            prop_assert_eq!(sweep(&mut sap, &spheres, &matrix), brute(&spheres, &matrix));
            // The world shrinks and grows again.
            if frame == 5 && spheres.len() > 3 {
                let part = &spheres[..spheres.len() / 2];
                prop_assert_eq!(sweep(&mut sap, part, &AllPairs), brute(part, &AllPairs));
            }
        }
    }
}

#[test]
fn touching_spheres_are_a_pair_and_the_filter_is_symmetric() {
    let spheres = [
        [0.0f64, 0.0, 0.0, 1.0],
        [2.0, 0.0, 0.0, 1.0],        // touches the first
        [4.0 + 1e-9, 0.0, 0.0, 1.0], // misses the second by 1e-9
    ];
    let mut order = vec![0u32; 3];
    let mut sap = SweepAndPrune::new(&mut order);
    assert_eq!(sweep(&mut sap, &spheres, &AllPairs), vec![(0, 1)]);
    let mut words = vec![0u32; BitMatrix::words_needed(3)];
    let mut m = BitMatrix::new(&mut words, 3).expect("matrix");
    assert!(m.allows(0, 1) && m.allows(1, 0) && !m.allows(1, 1));
    m.set(1, 0, false);
    m.set(2, 2, true);
    assert!(!m.allows(0, 1) && m.allows(2, 2) && m.allows(0, 2));
    assert!(!m.allows(0, 7), "out of range is not allowed");
    assert_eq!(sweep(&mut sap, &spheres, &m), vec![]);
    assert!(BitMatrix::new(&mut [0u32; 1], 10).is_none());
}

#[test]
fn a_full_sink_stops_the_sweep_and_says_which_pair() {
    let spheres: Vec<[f32; 4]> = (0..5).map(|k| [k as f32 * 0.5, 0.0, 0.0, 1.0]).collect();
    let mut order = vec![0u32; 5];
    let mut sap = SweepAndPrune::new(&mut order);
    let mut taken = 0;
    let (status, _) = sap.pairs(&spheres, &AllPairs, &mut |_, _| {
        taken += 1;
        taken <= 2
    });
    assert!(matches!(status, SweepStatus::SinkFull { .. }), "{status:?}");
    let (status, _) = sap.pairs(&spheres, &AllPairs, &mut |_, _| true);
    assert_eq!(status, SweepStatus::Complete);
    let mut small = vec![0u32; 2];
    let mut tiny = SweepAndPrune::new(&mut small);
    assert_eq!(
        tiny.pairs(&spheres, &AllPairs, &mut |_, _| true).0,
        SweepStatus::TooManyBodies
    );
}
