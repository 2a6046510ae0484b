//! The tightness of an image measured in work: sphere overlap tests of proxy queries between
//! two copies of a body placed by a fixed pseudo-random sequence (what `bdtree inspect
//! --reference` compares between a compact image and its source).

use crate::host::{Body, Placement, Tree, World};
use crate::rng::Rng;

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

/// Runs `queries` proxy queries at `proxy_depth` between two copies of `tree` (an f32 image),
/// placed by a fixed pseudo-random sequence (`seed`): the second copy rotated and shifted
/// within the root radius, both deformed with `q_j` uniform in `±a`, `a` chosen so that
/// displacements are about 5 % of the root radius. The same seed gives the same placements for
/// any image of the same body, so the counts of two images compare their tightness.
///
/// The copies are host bodies without a vertex cache ([`Body::without_vertex_cache`]: every
/// sphere, a leaf's too, is the image's own) in a world on the device's path
/// ([`Placement::Device`]: the states rounded to f32 and taken as exact, the kernel's proxy
/// query with its counters). A placement the host refuses is skipped.
pub fn cost_of_queries(tree: &Tree, proxy_depth: u32, queries: usize, seed: u64) -> QueryCost {
    let mut cost = QueryCost::default();
    let Ok(image) = tree.image().parse::<f32>() else {
        return cost;
    };
    let tree_view = &image.tree;
    let m = tree_view.modes();
    let root = tree_view.rest_sphere(0).unwrap_or([0.0; 4]).map(f64::from);
    let amax = (1..=m)
        .filter_map(|r| tree_view.row(0, r))
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
    let copies = (
        Body::without_vertex_cache(tree),
        Body::without_vertex_cache(tree),
    );
    let (Ok(a), Ok(b)) = copies else {
        return cost;
    };
    let Ok(mut world) = World::new(vec![a, b], Vec::new()) else {
        return cost;
    };
    world.set_placement(Placement::Device);
    for _ in 0..queries {
        let mut quat = [0f64; 4].map(|_| next() * 2.0 - 1.0);
        let len = (quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3])
            .sqrt()
            .hypot(quat[0])
            .max(1e-9);
        quat = quat.map(|x| x / len);
        let shift = [0; 3].map(|_| (next() * 2.0 - 1.0) * root[3] * 1.2);
        let t = [0, 1, 2].map(|k| root[k] + shift[k]);
        // Drawn in f64, held in f32 (the copies' states are rounded to f32 anyway).
        let mut draw_q = || -> Vec<f64> {
            (0..m)
                .map(|_| f64::from(((next() * 2.0 - 1.0) * amplitude) as f32))
                .collect()
        };
        let (qa, qb) = (draw_q(), draw_q());
        let [a, b] = world.bodies_mut() else {
            return cost;
        };
        if a.set_state([1.0, 0.0, 0.0, 0.0], [0.0; 3], &qa).is_err()
            || b.set_state(quat, t, &qb).is_err()
        {
            continue;
        }
        let Ok(answer) = world.proxies(proxy_depth) else {
            continue;
        };
        cost.queries += 1;
        cost.overlap_tests += u64::from(answer.stats.overlap_tests);
        cost.proxy_pairs += answer.found.len() as u64;
    }
    cost
}
