//! The entry points' inputs: the test image, bodies in static storage, opaque scalars.

use super::*;

/// The M = 10 test image in the scalar `S`, from bytes the optimiser cannot see.
pub(super) fn image<S: Scalar>() -> Option<Image<'static, S>> {
    let bytes: &'static [u8] = if S::BYTES == 4 {
        &bdtree_firmware::BENCH_F32.0
    } else {
        &bdtree_firmware::BENCH_F64.0
    };
    Image::<S>::parse(black_box(bytes)).ok()
}

pub(super) fn scalar<S: Scalar>(x: f32) -> S {
    black_box(S::from_f32(x))
}

/// A pose and coordinates the optimiser cannot see.
pub(super) fn set<S: Scalar>(body: &mut Body<'_, '_, S>, seed: f32) {
    let r = [scalar(0.9), scalar(seed), scalar(-0.2), scalar(0.1)];
    let t = [scalar(seed), scalar(0.5), scalar(-0.25)];
    let mut q = [S::ZERO; MODES];
    for (j, x) in q.iter_mut().enumerate() {
        *x = scalar(0.01 * j as f32 - seed);
    }
    let m = black_box(body.tree().modes()).min(MODES);
    if let Ok(pose) = Pose::from_quaternion(r, t) {
        let _ = black_box(body.set_state(pose, q.get(..m).unwrap_or(&[])));
    }
    // The state given in f64, relative to a floating origin (the caller's f64 path).
    if black_box(seed) > 2.0 {
        let wide = |x: f32| black_box(f64::from(x));
        let mut q64 = [0.0f64; MODES];
        for (j, x) in q64.iter_mut().enumerate() {
            *x = wide(0.01 * j as f32 - seed);
        }
        let r = [wide(0.9), wide(seed), wide(-0.2), wide(0.1)];
        let t = [wide(seed), wide(5000.5), wide(-0.25)];
        let o = [wide(seed), wide(5000.0), wide(0.0)];
        let _ = black_box(body.set_state_f64(r, t, q64.get(..m).unwrap_or(&[]), o));
        black_box(body.state_error());
    }
}

/// Storage of one body.
pub(super) struct Storage<S: Scalar> {
    cache: [CacheEntry<S>; NODES],
    modes: [S; 5 * MODES],
    vertices: [VertexEntry<S>; VERTICES],
    refs: [ReferenceEntry<S>; NODES],
    reference_modes: [S; 5 * MODES],
    regions: [u64; NODES + MODES],
}

impl<S: Scalar> Storage<S> {
    pub(super) fn new() -> Self {
        Self {
            cache: [CacheEntry::EMPTY; NODES],
            modes: [S::ZERO; 5 * MODES],
            vertices: [VertexEntry::EMPTY; VERTICES],
            refs: [ReferenceEntry::EMPTY; NODES],
            reference_modes: [S::ZERO; 5 * MODES],
            regions: [0; NODES + MODES],
        }
    }

    /// A body over the test image with the options `black_box` picks: vertex cache,
    /// coherence (with one of the anchoring policies), regions.
    pub(super) fn body(&mut self, image: &Image<'static, S>) -> Option<Body<'static, '_, S>> {
        let cut = |n: usize| black_box(n);
        let mut body = Body::new(
            image,
            self.cache.get_mut(..cut(NODES))?,
            self.modes.get_mut(..cut(5 * MODES))?,
        )
        .ok()?;
        let options = black_box(7u32);
        if options & 1 != 0 {
            body = body
                .with_vertex_cache(self.vertices.get_mut(..cut(VERTICES))?)
                .ok()?;
        }
        if options & 2 != 0 {
            let policy = match black_box(0u32) {
                0 => Anchor::OnRequest,
                1 => Anchor::Steps(black_box(3)),
                2 => Anchor::Drift(scalar(0.1)),
                _ => Anchor::Growth(scalar(0.01)),
            };
            body = body
                .with_coherence(
                    self.refs.get_mut(..cut(NODES))?,
                    self.reference_modes.get_mut(..cut(5 * MODES))?,
                    policy,
                )
                .ok()?;
        }
        if options & 4 != 0 {
            body = body
                .with_regions(self.regions.get_mut(..cut(NODES + MODES))?)
                .ok()?;
        }
        set(&mut body, 0.1);
        Some(body)
    }
}

/// Runs `f` on one body.
pub(super) fn one<S: Scalar>(f: impl FnOnce(&mut Body<'static, '_, S>)) {
    let Some(image) = image::<S>() else { return };
    let mut storage = Storage::new();
    if let Some(mut body) = storage.body(&image) {
        f(&mut body);
    }
}

/// Runs `f` on two bodies.
pub(super) fn two<S: Scalar>(f: impl FnOnce(&mut Body<'static, '_, S>, &mut Body<'static, '_, S>)) {
    let Some(image) = image::<S>() else { return };
    let (mut sa, mut sb) = (Storage::new(), Storage::new());
    if let (Some(mut a), Some(mut b)) = (sa.body(&image), sb.body(&image)) {
        set(&mut b, 0.3);
        f(&mut a, &mut b);
    }
}

pub(super) fn order() -> Order {
    match black_box(0u32) {
        0 => Order::BreadthFirst,
        1 => Order::DeepestFirst,
        _ => Order::LargestFirst,
    }
}

pub(super) fn sink(p: TrianglePair) -> bool {
    black_box(p);
    black_box(true)
}
