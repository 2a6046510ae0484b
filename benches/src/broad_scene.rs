//! The `broad` bench's worlds of `n` root spheres `[x, y, z, r]` (see `benches/broad.rs`), shared
//! with the `broad_count` example: a flat layout, a pile, and the drift applied each frame.

/// Radius 0.3–0.6 scattered over a slab of 40 × 40 × 4 per 1,000 bodies (chairs on a floor).
pub fn flat(n: usize, seed: u64) -> Vec<[f32; 4]> {
    let mut rng = bdtree_std::rng::Rng::from_state(seed);
    let mut next = move || rng.unit();
    let side = 40.0 * (n as f64 / 1000.0).sqrt();
    (0..n)
        .map(|_| {
            [
                (next() * side) as f32,
                (next() * side) as f32,
                (next() * 4.0) as f32,
                (0.3 + 0.3 * next()) as f32,
            ]
        })
        .collect()
}

/// A heap: centres uniform in a cone (apex up, 45° slopes) of volume `0.35 n` m³.
pub fn pile(n: usize, seed: u64) -> Vec<[f32; 4]> {
    let mut rng = bdtree_std::rng::Rng::from_state(seed);
    let base = (0.35 * n as f64 * 3.0 / std::f64::consts::PI).cbrt();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = [0, 1, 2].map(|_| rng.unit());
        let (x, y, z) = (
            (2.0 * p[0] - 1.0) * base,
            (2.0 * p[1] - 1.0) * base,
            p[2] * base,
        );
        if (x * x + y * y).sqrt() <= base - z {
            out.push([x as f32, y as f32, (z + 0.5) as f32, 0.56]);
        }
    }
    out
}

/// Each sphere moved by up to 2 cm in x and y, by its index and the frame.
pub fn drift(spheres: &mut [[f32; 4]], frame: usize) {
    for (k, s) in spheres.iter_mut().enumerate() {
        let phase = (k * 7 + frame) as f32 * 0.1;
        s[0] += 0.02 * phase.sin();
        s[1] += 0.02 * phase.cos();
    }
}
