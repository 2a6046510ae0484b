//! Caller storage for two bodies of one f32 image, each with a vertex cache, allocated once
//! outside a bench's timed loop (the proxies and interrupt benches).

use bdtree_core::{Body, Image, VertexEntry};
use bdtree_std::BodyStorage;

/// The sphere caches and vertex caches of two bodies.
pub struct PairStorage {
    /// Each body's sphere cache and mode slots.
    pub spheres: [BodyStorage<f32>; 2],
    /// Each body's vertex cache.
    pub vertices: [Vec<VertexEntry<f32>>; 2],
}

impl PairStorage {
    /// Storage sized for two bodies of `image`.
    pub fn new(image: &Image<'_, f32>) -> Self {
        let n = image.tree.node_count();
        let v = image.model.vertex_count();
        PairStorage {
            spheres: [BodyStorage::new(n), BodyStorage::new(n)],
            vertices: [
                vec![VertexEntry::default(); v],
                vec![VertexEntry::default(); v],
            ],
        }
    }

    /// Two bodies of `image` in this storage, each with its vertex cache.
    pub fn bodies<'t, 's>(
        &'s mut self,
        image: &Image<'t, f32>,
    ) -> (Body<'t, 's, f32>, Body<'t, 's, f32>) {
        let [ca, cb] = &mut self.spheres;
        let [va, vb] = &mut self.vertices;
        let a = ca
            .body(image)
            .and_then(|b| b.with_vertex_cache(va))
            .expect("body");
        let b = cb
            .body(image)
            .and_then(|b| b.with_vertex_cache(vb))
            .expect("body");
        (a, b)
    }
}
