//! The refit baseline a user would otherwise pick with parry3d: every vertex of both bodies
//! deformed (`p + U q`), both `TriMesh` BVHs refitted, candidate leaf pairs from
//! `Bvh::leaf_pairs` with the AABB test, an exact triangle test on each candidate. Shared by
//! `benches/query.rs` and `examples/versus.rs`.

use std::hint::black_box;
use std::time::Instant;

use bdtree_std::io::Pose as OraclePose;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::oracle::triangles_intersect;
use parry3d::math::{Pose as ParryPose, Rot3, Vector};
use parry3d::partitioning::BvhNode;
use parry3d::query::details::intersection_test_support_map_support_map;
use parry3d::shape::{TriMesh, TriMeshFlags, Triangle};

use crate::query_scene::Frame;

/// Upper bound on intersecting pairs per frame (the contact must stay small).
pub const MAX_PAIRS: usize = 1000;

/// One body of the refit baseline: its `TriMesh`, rest positions and basis in f32 (per vertex
/// the M columns `U_i[:, j]` as 3-vectors, contiguous).
pub struct ParryBody {
    pub mesh: TriMesh,
    pub rest: Vec<Vector>,
    pub columns: Vec<Vector>,
}

impl ParryBody {
    pub fn new(mesh: &Mesh, basis: &Basis) -> Self {
        let v32 = |p: [f64; 3]| Vector::new(p[0] as f32, p[1] as f32, p[2] as f32);
        let rest: Vec<Vector> = mesh.vertices.iter().map(|&p| v32(p)).collect();
        let m = basis.modes;
        let columns = (0..mesh.vertices.len())
            .flat_map(|i| {
                (0..m).map(move |j| v32([0, 1, 2].map(|k| basis.data[(3 * i + k) * m + j])))
            })
            .collect();
        let mesh = TriMesh::with_flags(
            rest.clone(),
            mesh.triangles.clone(),
            TriMeshFlags::DEFORMABLE,
        )
        .expect("a valid mesh");
        Self {
            mesh,
            rest,
            columns,
        }
    }

    /// Deforms every vertex (`p + U q`, 3M multiply-adds each), maps it through `place`, and
    /// refits the mesh's BVH.
    #[inline]
    pub fn update(&mut self, q: &[f32], place: impl Fn(Vector) -> Vector) {
        let (rest, columns) = (&self.rest, &self.columns);
        self.mesh
            .update_vertices(|out| deform_into(out, rest, columns, q, place));
    }
}

/// `out[i] = place(p_i + U_i q)` for every vertex.
#[inline]
pub fn deform_into(
    out: &mut [Vector],
    rest: &[Vector],
    columns: &[Vector],
    q: &[f32],
    place: impl Fn(Vector) -> Vector,
) {
    for ((o, &p), u) in out.iter_mut().zip(rest).zip(columns.chunks_exact(q.len())) {
        let mut x = p;
        for (&uj, &qj) in u.iter().zip(q) {
            x += uj * qj;
        }
        *o = place(x);
    }
}

/// One frame of the refit baseline, in f32: `q` of both bodies and the small body's pose in
/// the big body's frame.
pub struct ParryFrame {
    pub q_big: Vec<f32>,
    pub q_small: Vec<f32>,
    pub relative: ParryPose,
}

pub struct ParryScene {
    pub big: ParryBody,
    pub small: ParryBody,
    pub frames: Vec<ParryFrame>,
    pub pairs: Vec<(u32, u32)>,
    /// Per frame, both meshes deformed and refitted before any timing: the query phase alone
    /// runs on these.
    pub refitted: Vec<(TriMesh, TriMesh)>,
}

#[inline(always)]
pub fn widen(t: &Triangle) -> [[f64; 3]; 3] {
    [t.a, t.b, t.c].map(|v| [v.x, v.y, v.z].map(f64::from))
}

pub fn parry_pose(p: &OraclePose) -> ParryPose {
    let [w, x, y, z] = p.rotation.map(|c| c as f32);
    let t = p.translation.map(|c| c as f32);
    ParryPose::from_parts(
        Vector::new(t[0], t[1], t[2]),
        Rot3::from_xyzw(x, y, z, w).normalize(),
    )
}

impl ParryScene {
    pub fn new(
        big: &Mesh,
        big_basis: &Basis,
        small: &Mesh,
        small_basis: &Basis,
        frames: &[Frame],
    ) -> Self {
        let frames = frames
            .iter()
            .map(|f| ParryFrame {
                q_big: f.q_big.iter().map(|&x| x as f32).collect(),
                q_small: f.q_small.iter().map(|&x| x as f32).collect(),
                relative: parry_pose(&f.pose_big).inv_mul(&parry_pose(&f.pose_small)),
            })
            .collect();
        let mut scene = Self {
            big: ParryBody::new(big, big_basis),
            small: ParryBody::new(small, small_basis),
            frames,
            pairs: Vec::with_capacity(4 * MAX_PAIRS),
            refitted: Vec::new(),
        };
        for k in 0..scene.frames.len() {
            scene.frame(k);
            scene
                .refitted
                .push((scene.big.mesh.clone(), scene.small.mesh.clone()));
        }
        scene
    }

    /// Parry's query phase alone on frame `k`'s meshes, refitted before timing: leaf pairs of
    /// the two BVHs and the exact test on each candidate, as in [`Self::candidates_and_tests`].
    #[inline]
    pub fn query_only(&mut self, k: usize) -> usize {
        let (big, small) = &self.refitted[k];
        Self::search(big, small, &mut self.pairs)
    }

    /// The timed work of one frame: deform and refit both meshes, then find the pairs.
    #[inline]
    pub fn frame(&mut self, k: usize) -> usize {
        let f = &self.frames[k];
        self.big.update(&f.q_big, |x| x);
        let relative = f.relative;
        self.small.update(&f.q_small, |x| relative * x);
        self.candidates_and_tests()
    }

    /// Leaf pairs of the two BVHs whose AABBs intersect, then an exact triangle–triangle test
    /// on each (the oracle's, on the f32 vertices widened to f64).
    #[inline]
    pub fn candidates_and_tests(&mut self) -> usize {
        Self::search(&self.big.mesh, &self.small.mesh, &mut self.pairs)
    }

    /// Out of line and with [`widen`] always inlined, so the instructions counted on this side
    /// do not depend on how the compiler partitions the crate.
    #[inline(never)]
    pub fn search(big: &TriMesh, small: &TriMesh, pairs: &mut Vec<(u32, u32)>) -> usize {
        pairs.clear();
        let mut candidates = 0;
        for (i, j) in big
            .bvh()
            .leaf_pairs(small.bvh(), |a: &BvhNode, b: &BvhNode| a.intersects(b))
        {
            candidates += 1;
            let (ta, tb) = (big.triangle(i), small.triangle(j));
            if triangles_intersect(&widen(&ta), &widen(&tb)) {
                pairs.push((i, j));
            }
        }
        candidates
    }

    /// Pairs of the last frame's candidates that parry's own GJK test
    /// (`intersection_test_support_map_support_map`) calls intersecting.
    pub fn gjk_pairs(&self) -> Vec<(u32, u32)> {
        let (big, small) = (&self.big.mesh, &self.small.mesh);
        let mut pairs: Vec<(u32, u32)> = big
            .bvh()
            .leaf_pairs(small.bvh(), |a: &BvhNode, b: &BvhNode| a.intersects(b))
            .filter(|&(i, j)| {
                let (ta, tb) = (big.triangle(i), small.triangle(j));
                intersection_test_support_map_support_map(&ParryPose::IDENTITY, &ta, &tb)
            })
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// One frame in three timed phases (seconds): deforming both bodies into `scratch`,
    /// `TriMesh::set_vertices` on both (copy and BVH refit), and the pair search.
    pub fn frame_phases(&mut self, k: usize, scratch: &mut (Vec<Vector>, Vec<Vector>)) -> [f64; 3] {
        let f = &self.frames[k];
        let relative = f.relative;
        let start = Instant::now();
        let (big, small) = (&self.big, &self.small);
        deform_into(&mut scratch.0, &big.rest, &big.columns, &f.q_big, |x| x);
        deform_into(
            &mut scratch.1,
            &small.rest,
            &small.columns,
            &f.q_small,
            |x| relative * x,
        );
        let deformed = Instant::now();
        self.big.mesh.set_vertices(&scratch.0);
        self.small.mesh.set_vertices(&scratch.1);
        let refitted = Instant::now();
        black_box(self.candidates_and_tests());
        let searched = Instant::now();
        [
            (deformed - start).as_secs_f64(),
            (refitted - deformed).as_secs_f64(),
            (searched - refitted).as_secs_f64(),
        ]
    }

    /// Node pairs parry's traversal visits on frame `k`'s refitted BVHs — pairs whose boxes
    /// its predicate finds overlapping, leaf pairs included, as bdtree's `nodes_visited` counts
    /// them — for the work table; kept out of the timed search.
    pub fn node_pairs(&self, k: usize) -> usize {
        let (big, small) = &self.refitted[k];
        let visited = std::cell::Cell::new(0usize);
        let leaves = big
            .bvh()
            .leaf_pairs(small.bvh(), |a: &BvhNode, b: &BvhNode| {
                let overlap = a.intersects(b);
                visited.set(visited.get() + usize::from(overlap));
                overlap
            })
            .count();
        black_box(leaves);
        visited.get()
    }

    pub fn sorted_pairs(&mut self, k: usize) -> (Vec<(u32, u32)>, usize) {
        let candidates = self.frame(k);
        let mut pairs = self.pairs.clone();
        pairs.sort_unstable();
        (pairs, candidates)
    }
}
