//! The tightness of an image measured in work: sphere overlap tests of proxy queries between
//! two copies of a body placed by a fixed pseudo-random sequence (what `bdtree inspect
//! --reference` compares between a compact image and its source).

use bdtree_core::{collide_proxies, proxy_stack_capacity, Image, Pose, ProxyPair};

use bdtree_std::rng::Rng;
use bdtree_std::BodyStorage;

/// Work of proxy queries on two images of the same body, for the same placements: what
/// [`cost_of_queries`] measured.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct QueryCost {
    /// Queries run (pairs of copies placed).
    pub queries: usize,
    /// Sphere overlap tests, summed.
    pub overlap_tests: u64,
    /// Proxy pairs reported, summed.
    pub proxy_pairs: u64,
}

/// Runs `queries` proxy queries at `proxy_depth` between two copies of `image`, placed by a
/// fixed pseudo-random sequence (`seed`): the second copy rotated and shifted within the root
/// radius, both deformed with `q_j` uniform in `±a`, `a` chosen so that displacements are
/// about 5 % of the root radius. The same seed gives the same placements for any image of
/// the same body, so the counts of two images compare their tightness.
pub fn cost_of_queries(
    image: &Image<'_, f32>,
    proxy_depth: u32,
    queries: usize,
    seed: u64,
) -> QueryCost {
    let tree = &image.tree;
    let m = tree.modes();
    let root = tree.rest_sphere(0).unwrap_or([0.0; 4]).map(f64::from);
    let amax = (1..=m)
        .filter_map(|r| tree.row(0, r))
        .map(|row| f64::from(row[0].abs().max(row[1].abs()).max(row[2].abs())) + f64::from(row[3]))
        .fold(0f64, f64::max);
    let amplitude = if amax > 0.0 {
        0.05 * root[3] / ((m as f64).sqrt() * amax)
    } else {
        0.0
    };
    // A fixed sequence, independent of any crate version.
    let mut rng = Rng::from_state(seed | 1);
    let mut next = move || rng.unit();
    let mut cache_a = BodyStorage::for_image(image);
    let mut cache_b = BodyStorage::for_image(image);
    let mut cost = QueryCost::default();
    let (Ok(mut a), Ok(mut b)) = (cache_a.body(image), cache_b.body(image)) else {
        return cost;
    };
    let depth = tree.depth();
    let mut stack = vec![[0u32; 2]; proxy_stack_capacity(depth, proxy_depth, depth, proxy_depth)];
    for _ in 0..queries {
        let mut quat = [0f64; 4].map(|_| next() * 2.0 - 1.0);
        let len = (quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3])
            .sqrt()
            .hypot(quat[0])
            .max(1e-9);
        quat = quat.map(|x| x / len);
        let shift = [0; 3].map(|_| (next() * 2.0 - 1.0) * root[3] * 1.2);
        let t = [0, 1, 2].map(|k| root[k] + shift[k]);
        let qa: Vec<f32> = (0..m)
            .map(|_| ((next() * 2.0 - 1.0) * amplitude) as f32)
            .collect();
        let qb: Vec<f32> = (0..m)
            .map(|_| ((next() * 2.0 - 1.0) * amplitude) as f32)
            .collect();
        let Ok(pose) = Pose::from_quaternion(quat.map(|x| x as f32), t.map(|x| x as f32)) else {
            continue;
        };
        if a.set_state(Pose::identity(), &qa).is_err() || b.set_state(pose, &qb).is_err() {
            continue;
        }
        let mut pairs = 0u64;
        let outcome = collide_proxies(
            &mut a,
            &mut b,
            proxy_depth,
            proxy_depth,
            &mut stack,
            &mut |_p: ProxyPair<f32>| {
                pairs += 1;
                true
            },
        );
        cost.queries += 1;
        cost.overlap_tests += u64::from(outcome.stats.overlap_tests);
        cost.proxy_pairs += pairs;
    }
    cost
}
