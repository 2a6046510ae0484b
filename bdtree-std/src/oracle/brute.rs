//! Brute force over every triangle pair of explicitly deformed meshes: intersecting pairs,
//! self-intersections and the minimum distance.

use super::distance::triangle_distance;
use super::triangles::{triangles_intersect, Aabb};

/// Every pair `(a, b)`, `a < b`, of triangles of one deformed mesh that intersect and share no
/// vertex index (adjacent triangles touch by construction): the self-collision answer,
/// exactly as [`triangles_intersect`] decides, through [`brute_force_pairs`] of the mesh
/// against itself.
pub fn brute_force_self_pairs(world: &[[f64; 3]], tris: &[[u32; 3]]) -> Vec<(u32, u32)> {
    brute_force_pairs(world, tris, world, tris)
        .into_iter()
        .filter(|&(a, b)| {
            a < b && {
                let (ta, tb) = (tris[a as usize], tris[b as usize]);
                !ta.iter().any(|v| tb.contains(v))
            }
        })
        .collect()
}

/// Every intersecting triangle pair `(ta, tb)` (indices into `tris_a`, `tris_b`), sorted.
///
/// Every pair whose axis-aligned boxes touch is passed to [`triangles_intersect`]; pairs are
/// skipped only when their boxes are strictly disjoint (an exact comparison of the coordinates
/// themselves), so the answer is exactly "all pairs `triangles_intersect` accepts". The pairs
/// are found with a sort-and-sweep along x, `O((n + m) log(n + m) + k)` for k box overlaps.
///
/// # Panics
///
/// If a triangle refers to a vertex index out of range of its vertex list (meshes from
/// [`crate::io::load::load_mesh`] and [`crate::shapes::procedural`] are always in range).
pub fn brute_force_pairs(
    world_a: &[[f64; 3]],
    tris_a: &[[u32; 3]],
    world_b: &[[f64; 3]],
    tris_b: &[[u32; 3]],
) -> Vec<(u32, u32)> {
    let corners_a: Vec<[[f64; 3]; 3]> = tris_a.iter().map(|t| corners(world_a, t)).collect();
    let corners_b: Vec<[[f64; 3]; 3]> = tris_b.iter().map(|t| corners(world_b, t)).collect();
    let boxes_a: Vec<Aabb> = corners_a.iter().map(Aabb::of).collect();
    let boxes_b: Vec<Aabb> = corners_b.iter().map(Aabb::of).collect();

    // Sweep events: (min x, side, index). Boxes with a NaN corner compare false everywhere
    // below and so never overlap anything; total_cmp keeps the sort well defined for them.
    let mut events: Vec<(f64, bool, u32)> = Vec::with_capacity(boxes_a.len() + boxes_b.len());
    events.extend(
        boxes_a
            .iter()
            .enumerate()
            .map(|(i, b)| (b.min[0], false, i as u32)),
    );
    events.extend(
        boxes_b
            .iter()
            .enumerate()
            .map(|(i, b)| (b.min[0], true, i as u32)),
    );
    events.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));

    let mut active_a: Vec<u32> = Vec::new();
    let mut active_b: Vec<u32> = Vec::new();
    let mut pairs = Vec::new();
    for &(min_x, is_b, i) in &events {
        let (own, other, own_boxes, other_boxes) = if is_b {
            (&mut active_b, &mut active_a, &boxes_b, &boxes_a)
        } else {
            (&mut active_a, &mut active_b, &boxes_a, &boxes_b)
        };
        // Minima arrive in increasing order, so a box ending before this minimum ends before
        // every later one too.
        other.retain(|&j| other_boxes[j as usize].max[0] >= min_x);
        let this = &own_boxes[i as usize];
        for &j in other.iter() {
            if !this.touches(&other_boxes[j as usize]) {
                continue;
            }
            let (ia, ib) = if is_b { (j, i) } else { (i, j) };
            if triangles_intersect(&corners_a[ia as usize], &corners_b[ib as usize]) {
                pairs.push((ia, ib));
            }
        }
        own.push(i);
    }
    pairs.sort_unstable();
    pairs
}

fn corners(world: &[[f64; 3]], t: &[u32; 3]) -> [[f64; 3]; 3] {
    [
        world[t[0] as usize],
        world[t[1] as usize],
        world[t[2] as usize],
    ]
}

/// The minimum distance between two deformed meshes by brute force over every triangle pair:
/// `(distance, triangle of a, triangle of b)`, or `None` without triangles.
pub fn brute_force_distance(
    world_a: &[[f64; 3]],
    tris_a: &[[u32; 3]],
    world_b: &[[f64; 3]],
    tris_b: &[[u32; 3]],
) -> Option<(f64, u32, u32)> {
    let mut best: Option<(f64, u32, u32)> = None;
    for (i, ta) in tris_a.iter().enumerate() {
        let a = corners(world_a, ta);
        for (j, tb) in tris_b.iter().enumerate() {
            let d = triangle_distance(&a, &corners(world_b, tb)).0;
            if best.is_none_or(|(bd, _, _)| d < bd) {
                best = Some((d, i as u32, j as u32));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::pose::Pose;
    use crate::oracle::deform;
    use crate::shapes::procedural;

    fn naive_pairs(
        wa: &[[f64; 3]],
        ta: &[[u32; 3]],
        wb: &[[f64; 3]],
        tb: &[[u32; 3]],
    ) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for (i, x) in ta.iter().enumerate() {
            for (j, y) in tb.iter().enumerate() {
                if triangles_intersect(&corners(wa, x), &corners(wb, y)) {
                    out.push((i as u32, j as u32));
                }
            }
        }
        out
    }

    #[test]
    fn sweep_equals_all_pairs() {
        let a = procedural::icosphere(1.0, 2);
        let mut b = procedural::torus(0.9, 0.3, 16, 8);
        procedural::translate(&mut b, [0.4, 0.1, 0.05]);
        let pairs = brute_force_pairs(&a.vertices, &a.triangles, &b.vertices, &b.triangles);
        assert!(!pairs.is_empty());
        assert_eq!(
            pairs,
            naive_pairs(&a.vertices, &a.triangles, &b.vertices, &b.triangles)
        );
        // Sharing exact vertices: a sheet against itself touches along every shared feature.
        let s = procedural::sheet(1.0, 1.0, 4, 4);
        let self_pairs = brute_force_pairs(&s.vertices, &s.triangles, &s.vertices, &s.triangles);
        assert_eq!(
            self_pairs,
            naive_pairs(&s.vertices, &s.triangles, &s.vertices, &s.triangles)
        );
    }

    #[test]
    fn brute_force_is_fast_enough_on_thousands_of_triangles() {
        let a = procedural::icosphere(1.0, 4); // 5120 triangles
        let b_rest = procedural::icosphere(1.0, 4);
        let pose = Pose::from_axis_angle([0.3, 1.0, 0.2], 0.7, [1.2, 0.3, 0.0]);
        let world_b = deform(&b_rest.vertices, None, &[], &pose);
        let start = std::time::Instant::now();
        let pairs = brute_force_pairs(&a.vertices, &a.triangles, &world_b, &b_rest.triangles);
        assert!(!pairs.is_empty());
        assert!(pairs.windows(2).all(|w| w[0] < w[1]), "sorted and unique");
        // Not a timing assertion; printed so a slow-down is visible in `--nocapture` runs.
        println!("{} pairs in {:?}", pairs.len(), start.elapsed());
    }
}
