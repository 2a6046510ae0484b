//! The refit baseline for self-collision with parry3d: every vertex deformed (`p + U q`), the
//! `TriMesh` BVH refitted ([`ParryBody::update`]), then the tree traversed against itself
//! (`Bvh::traverse_bvtt_single_tree`: each node's two children against each other, so every
//! unordered pair of leaves whose AABBs overlap is reached once), pairs of triangles sharing a
//! vertex index skipped, and the exact triangle test ([`triangles_intersect`] on the f32
//! vertices widened to f64, as [`crate::refit`]) on every other candidate. Used by
//! `examples/versus_self.rs`.

use bdtree_std::io::{Basis, Mesh};
use bdtree_std::oracle::triangles_intersect;
use parry3d::partitioning::BvhWorkspace;
use parry3d::shape::TriMesh;

use crate::refit::{widen, ParryBody};

/// Self-collision of one body with parry3d, over a scene's frames.
pub struct ParrySelf {
    pub body: ParryBody,
    /// `q` of each frame, in f32.
    pub frames: Vec<Vec<f32>>,
    /// The last search's intersecting pairs `(a, b)`, `a < b`, in traversal order.
    pub pairs: Vec<(u32, u32)>,
    /// Per frame, the mesh deformed and refitted before any timing: the query phase alone runs
    /// on these.
    pub refitted: Vec<TriMesh>,
    /// The traversal's scratch stack.
    workspace: BvhWorkspace,
}

/// What one self search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SelfSearch {
    /// Leaf pairs whose AABBs overlap (the traversal's candidates).
    pub candidates: usize,
    /// Candidates that share no vertex: the exact tests run.
    pub tests: usize,
}

impl ParrySelf {
    pub fn new(mesh: &Mesh, basis: &Basis, frames: &[Vec<f64>]) -> Self {
        let mut peer = Self {
            body: ParryBody::new(mesh, basis),
            frames: frames
                .iter()
                .map(|q| q.iter().map(|&x| x as f32).collect())
                .collect(),
            pairs: Vec::new(),
            refitted: Vec::with_capacity(frames.len()),
            workspace: BvhWorkspace::default(),
        };
        for k in 0..frames.len() {
            peer.refit_pipeline(k);
            peer.refitted.push(peer.body.mesh.clone());
        }
        peer
    }

    /// The whole frame: deform every vertex, refit, then the self search.
    #[inline]
    pub fn refit_pipeline(&mut self, k: usize) -> SelfSearch {
        self.body.update(&self.frames[k], |x| x);
        Self::search(&self.body.mesh, &mut self.workspace, &mut self.pairs)
    }

    /// The query phase alone, on frame `k`'s mesh deformed and refitted beforehand.
    #[inline]
    pub fn query_only(&mut self, k: usize) -> SelfSearch {
        Self::search(&self.refitted[k], &mut self.workspace, &mut self.pairs)
    }

    /// The tree against itself, adjacent pairs skipped, the exact test on the rest. Out of line
    /// and with [`widen`] always inlined, so the instructions counted do not depend on how the
    /// compiler partitions the crate.
    #[inline(never)]
    pub fn search(
        mesh: &TriMesh,
        workspace: &mut BvhWorkspace,
        pairs: &mut Vec<(u32, u32)>,
    ) -> SelfSearch {
        pairs.clear();
        let mut done = SelfSearch::default();
        let indices = mesh.indices();
        mesh.bvh()
            .traverse_bvtt_single_tree::<false>(workspace, &mut |a: u32, b: u32| {
                done.candidates += 1;
                let (ta, tb) = (indices[a as usize], indices[b as usize]);
                if ta.iter().any(|v| tb.contains(v)) {
                    return;
                }
                done.tests += 1;
                if triangles_intersect(&widen(&mesh.triangle(a)), &widen(&mesh.triangle(b))) {
                    pairs.push((a.min(b), a.max(b)));
                }
            });
        done
    }
}
