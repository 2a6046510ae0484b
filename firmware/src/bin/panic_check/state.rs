//! Entry points of the image, the body state and the sphere kernels.

use super::*;

pub(super) fn parse<S: Scalar>() {
    black_box(image::<S>().map(|i| i.tree.node_count()));
}

pub(super) fn image_header<S: Scalar>() {
    let bytes: &[u8] = black_box(&bdtree_firmware::BENCH_F32.0);
    if let Ok(header) = Header::read(bytes) {
        black_box(header.to_bytes());
        if let Some(layout) = header.layout() {
            black_box(layout.section(black_box(3)));
        }
    }
    black_box(checksum(bytes));
    black_box(crc32(bytes));
    if let Some(image) = image::<S>() {
        black_box(check_nested(&image.tree).is_ok());
    }
}

pub(super) fn body_state<S: Scalar>() {
    one::<S>(|body| {
        set(body, 0.2);
        for node in 0..black_box(4) {
            black_box(body.sphere(node));
            black_box(body.fitted_sphere(node));
            black_box(body.is_cached(node));
        }
        black_box(body.world_triangle(black_box(3)));
        black_box((
            body.error(),
            body.sphere_error(),
            body.step(),
            body.update_count(),
        ));
        black_box((
            body.pose().apply([S::ONE; 3]),
            body.q().len(),
            body.weights().len(),
        ));
    });
}

pub(super) fn vertex_cache<S: Scalar>() {
    one::<S>(|body| {
        for t in 0..black_box(3) {
            black_box(body.world_triangle(t));
        }
    });
}

pub(super) fn coherence<S: Scalar>() {
    one::<S>(|body| {
        set(body, 0.25);
        black_box(body.sphere(black_box(1)));
        body.reanchor();
        black_box((body.is_coherent(), body.anchor_count(), body.drift()));
        black_box(body.reference_q(black_box(2)));
        let q = [scalar::<S>(0.1); 3];
        black_box(drift_norm(q.iter().copied(), q.iter().copied()));
        black_box(coherent_radius(scalar::<S>(1.0), scalar(0.5), scalar(0.1)));
    });
}

pub(super) fn regions<S: Scalar>() {
    one::<S>(|body| {
        set(body, 0.1);
        black_box(body.sphere(black_box(2)));
        black_box(body.support(black_box(2)).map(|s| s.len()));
        black_box(Body::<S>::region_words(body.tree()));
    });
}

pub(super) fn tree_view<S: Scalar>() {
    one::<S>(|body| {
        let tree = *body.tree();
        let node = black_box(5);
        black_box((
            tree.row(node, black_box(2)),
            tree.rest_sphere(node),
            tree.kind(node),
        ));
        black_box((
            tree.spread(node),
            tree.node_depth(node),
            tree.record(node).map(|r| r.len()),
        ));
        black_box((
            tree.encoding(),
            tree.is_bounded(),
            tree.is_nested(),
            tree.depth(),
        ));
        black_box(tree.update(node, body.weights()));
        let support = [black_box(u64::MAX)];
        black_box(tree.update_sparse(node, body.weights(), &support));
    });
}

pub(super) fn model<S: Scalar>() {
    one::<S>(|body| {
        let model = *body.model();
        let i = black_box(7);
        black_box(model.basis_entry(i, black_box(1), black_box(2)));
        black_box(model.storage_error(body.q().iter().copied()));
        black_box((
            model.vertex_count(),
            model.is_quantized(),
            model.triangles().len(),
        ));
        black_box((model.positions().len(), model.basis().len(), model.modes()));
    });
}

/// `Model::deformed` and `position` (a bounds check at opt-level `s` before Q16 positions were
/// destructured).
pub(super) fn model_deformed<S: Scalar>() {
    one::<S>(|body| {
        let model = *body.model();
        let i = black_box(7);
        black_box(model.position(i));
        black_box(model.deformed(i, body.q()));
    });
}

pub(super) fn kernel<S: Scalar>() {
    let rows = [[scalar::<S>(0.5); 4]; MODES + 1];
    let q = [scalar::<S>(-0.25); MODES];
    let mut w = [[S::ZERO; 4]; MODES];
    let m = black_box(MODES);
    mode_weights(q.get(..m).unwrap_or(&[]), &mut w);
    let r = rows.get(..black_box(MODES + 1)).unwrap_or(&[]);
    let w = w.get(..m).unwrap_or(&[]);
    black_box(update(r, w));
    black_box(update_sparse(r, w, &[black_box(0b1011)]));
    black_box(error_bound(
        scalar(1.0),
        &[scalar::<S>(0.5); 3],
        q,
        [S::ONE; 3],
    ));
    black_box(spheres_overlap(rows[0], rows[1]));
    let corner = |x: f32, y: f32, z: f32| [scalar::<S>(x), scalar(y), scalar(z)];
    let a = [
        corner(0.0, 0.0, 0.0),
        corner(1.0, 0.0, 0.0),
        corner(0.0, 1.0, 0.0),
    ];
    let b = [
        corner(0.2, 0.2, -0.5),
        corner(0.3, 0.2, 0.5),
        corner(0.2, 0.3, 0.5),
    ];
    if let Some(p) = black_box(least_penetration(&a, &b)) {
        black_box(penetration_gradient(&a, &b, &black_box(p.features)));
    }
}

// `S` unused: the entry list instantiates every entry point in f32 and f64.
#[allow(clippy::extra_unused_type_parameters)]
pub(super) fn capacities<S: Scalar>() {
    let d = black_box(12u32);
    black_box(stack_capacity(d, black_box(9)));
    black_box(self_stack_capacity(d));
    black_box(query_stack_capacity(d, black_box(9)));
    black_box(proxy_stack_capacity(
        d,
        black_box(3),
        black_box(9),
        black_box(2),
    ));
}
