//! Tree images, in every format (scalar f32/f64, quantized q16/q8, complete or bounded):
//! `Image::<f32>::parse` and `Image::<f64>::parse` on arbitrary bytes, and on the same bytes
//! with the CRC-32 checksum recomputed and patched in (so that mutated images get past the
//! checksum to the structural checks). Every image that parses is then used: two bodies over it,
//! a few states, a triangle query and a proxy query between them, a self-collision query from
//! the image's culling data (optional sections), and every node's sphere, fitted sphere, rows
//! and kind and every world triangle. Nothing may panic.
#![no_main]

use bdtree_std::BodyStorage;
use bdtree_core::image::{checksum, CHECKSUM_OFFSET};
use bdtree_core::{
    collide, collide_proxies, collide_self_image, proxy_stack_capacity, self_stack_capacity,
    stack_capacity, Body, CacheEntry, ConeSlot, Image, Pose, ProxyPair, Scalar, SelfCones,
    TrianglePair,
};
use bdtree_std::io::ImageBuf;
use libfuzzer_sys::fuzz_target;

/// The states the two bodies are put in: (quaternion w x y z, translation, q value per mode).
const STATES: [([f64; 4], [f64; 3], f64, f64); 4] = [
    // Both at rest and on top of each other: every overlapping pair is reached.
    ([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 0.0, 0.0),
    // Rotated, shifted a little, deformed.
    ([0.5, 0.5, 0.5, 0.5], [0.05, -0.02, 0.01], 0.25, -0.5),
    // Far apart.
    ([0.0, 0.0, 0.0, 1.0], [1e3, 0.0, 0.0], 1.0, 1.0),
    // Huge coordinates: overflow to infinity in the bounds must not panic.
    ([0.0, 1.0, 0.0, 0.0], [1e30, -1e30, 0.0], 1e30, -1e30),
];

fn exercise<S: Scalar>(image: &Image<'_, S>) {
    let nodes = image.tree.node_count();
    let mut cache_a = BodyStorage::new(nodes);
    let mut cache_b = BodyStorage::new(nodes);
    let Ok(mut a) = cache_a.body(image) else {
        return;
    };
    let Ok(mut b) = cache_b.body(image) else {
        return;
    };
    let depth = image.tree.depth();
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    let modes = image.tree.modes();
    let mut found = 0usize;
    for &(rot, t, qa, qb) in &STATES {
        let cv = |v: [f64; 3]| v.map(S::from_f64);
        let Ok(pose) = Pose::from_quaternion(rot.map(S::from_f64), cv(t)) else {
            continue;
        };
        let q_a = vec![S::from_f64(qa); modes];
        let q_b: Vec<S> = (0..modes)
            .map(|j| S::from_f64(qb * (j as f64 + 1.0)))
            .collect();
        let _ = a.set_state(Pose::identity(), &q_a);
        let _ = b.set_state(pose, &q_b);
        let _ = collide(&mut a, &mut b, &mut stack, &mut |_p: TrianglePair| {
            found += 1;
            true
        });
        // Proxy queries at the tree's depth and one level up (bounded trees answer these).
        for l in [depth, depth.saturating_sub(1)] {
            let mut proxies = vec![[0u32; 2]; proxy_stack_capacity(depth, l, depth, l)];
            let _ = collide_proxies(&mut a, &mut b, l, l, &mut proxies, &mut |_p: ProxyPair<S>| {
                found += 1;
                true
            });
        }
        // Self-collision from the image's own culling data (optional sections), or the plain
        // walk without them.
        let mut slots = vec![ConeSlot::EMPTY; nodes];
        let mut cones = SelfCones::new(&mut slots);
        let mut self_stack = vec![[0u32; 2]; self_stack_capacity(depth)];
        let _ = collide_self_image(
            &mut b,
            &mut cones,
            &mut Default::default(),
            &mut self_stack,
            &mut |_p: TrianglePair| {
                found += 1;
                true
            },
        );
        // A sink that refuses after a few pairs ends the query early.
        let mut budget = 3usize;
        let _ = collide(&mut b, &mut a, &mut stack, &mut |_p: TrianglePair| {
            budget = budget.saturating_sub(1);
            budget > 0
        });
    }
    // A stack that is too small must be refused, not overrun.
    let mut small = vec![[0u32; 2]; stack_capacity(depth, depth) - 1];
    let _ = collide(&mut a, &mut b, &mut small, &mut |_p: TrianglePair| true);
    // Every node's sphere and every world triangle, and one past the end of each.
    for node in 0..=nodes {
        let _ = a.sphere(node);
        let _ = a.fitted_sphere(node);
        let _ = a.is_cached(node);
        let _ = image.tree.kind(node);
        let _ = image.tree.node_depth(node);
        let _ = image.tree.record(node);
        for r in 0..=modes + 1 {
            let _ = image.tree.row(node, r);
        }
    }
    // The model's triangles (a bounded image has none; its header's triangle count describes
    // the model it was made from and is not iterated).
    let _ = image.tree.triangle_count();
    for tri in 0..=image.model.triangles().len() {
        let _ = b.world_triangle(tri);
    }
    std::hint::black_box(found);
}

fn parse_all(data: &[u8]) {
    let buf = ImageBuf::from_bytes(data);
    if let Ok(image) = buf.parse::<f32>() {
        exercise(&image);
    }
    if let Ok(image) = buf.parse::<f64>() {
        exercise(&image);
    }
}

fuzz_target!(|data: &[u8]| {
    parse_all(data);
    // The same bytes with a valid checksum.
    if data.len() >= CHECKSUM_OFFSET + 4 {
        let mut patched = data.to_vec();
        let sum = checksum(&patched);
        patched[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&sum.to_le_bytes());
        if patched != data {
            parse_all(&patched);
        }
    }
});
