//! Entry points of the many-body queries: sweep-and-prune, the world, penalty response.

use super::*;

pub(super) fn broad_phase<S: Scalar>() {
    let mut spheres = [[S::ZERO; 4]; 8];
    for (k, s) in spheres.iter_mut().enumerate() {
        *s = [scalar(k as f32), S::ZERO, S::ZERO, scalar(0.75)];
    }
    let n = black_box(8);
    let spheres = spheres.get(..n).unwrap_or(&[]);
    let mut order = [0u32; 8];
    let mut sweep = SweepAndPrune::new(order.get_mut(..black_box(8)).unwrap_or(&mut []));
    let mut pairs = |i: u32, j: u32| black_box(i + j) < 100;
    black_box(sweep.pairs(spheres, &AllPairs, &mut pairs));
    let mut words = [0u32; 2];
    if let Some(mut matrix) = BitMatrix::new(&mut words, black_box(8)) {
        matrix.set(black_box(1), black_box(2), false);
        black_box(sweep.pairs(spheres, &matrix, &mut pairs));
    }
    black_box(BitMatrix::words_needed(black_box(70_000)));
    // Words kept and viewed read-only (a filter in flash, a C client's table).
    let words = black_box(&mut words);
    if let Some(mut kept) = BitMatrix::from_words(words.as_mut_slice(), black_box(8)) {
        kept.set(black_box(3), black_box(3), true);
        black_box(sweep.pairs(spheres, &kept.view(), &mut pairs));
    }
    if let Some(view) = BitMatrixView::new(black_box(&words[..]), black_box(8)) {
        black_box(sweep.pairs(spheres, &view, &mut pairs));
    }
    let filter = |i: usize, j: usize| black_box(i ^ j) != 3;
    black_box(sweep.pairs(spheres, &filter, &mut pairs));
    // The hashed uniform grid, over storage of any length (short storage is a status).
    let mut words = [0u32; UniformGrid::words_needed(8)];
    let len = black_box(UniformGrid::words_needed(black_box(8)));
    let mut grid = UniformGrid::new(words.get_mut(..len).unwrap_or(&mut []));
    black_box(grid.pairs(spheres, &AllPairs, &mut pairs));
    black_box(grid.pairs(spheres, &filter, &mut pairs));
    black_box(UniformGrid::words_needed(black_box(usize::MAX)));
}

pub(super) fn world<S: Scalar>() {
    let Some(image) = image::<S>() else { return };
    let (mut sa, mut sb) = (Storage::new(), Storage::new());
    let (Some(a), Some(mut b)) = (sa.body(&image), sb.body(&image)) else {
        return;
    };
    set(&mut b, 0.3);
    let mut bodies = [a, b];
    let mut order = [0u32; 2];
    let mut sweep = SweepAndPrune::new(&mut order);
    let mut roots = [[S::ZERO; 4]; 2];
    let mut stack = [[0u32; 2]; STACK];
    let mut sink = |p: WorldPair| black_box(p.a + p.b + p.triangles.a) != 0;
    let n = black_box(2);
    black_box(collide_world(
        bodies.get_mut(..n).unwrap_or(&mut []),
        &mut sweep,
        &mut roots,
        &AllPairs,
        &mut stack,
        &mut sink,
    ));
    // Bodies held by reference (`[&mut Body]`: not contiguous).
    let mut refs: [&mut Body<'_, '_, S>; 2] = {
        let [a, b] = &mut bodies;
        [a, b]
    };
    let mut sweep = SweepAndPrune::new(&mut order);
    black_box(collide_world(
        refs.get_mut(..n).unwrap_or(&mut []),
        &mut sweep,
        &mut roots,
        &AllPairs,
        &mut stack,
        &mut sink,
    ));
}

pub(super) fn response<S: Scalar>() {
    two::<S>(|a, b| {
        let (sa, sb) = (a.sphere(0), b.sphere(0));
        if let (Some(sa), Some(sb)) = (sa, sb) {
            black_box(penalty(sa, sb, scalar(100.0)));
            let pair = ProxyPair {
                a: black_box(1),
                b: black_box(2),
                sphere_a: sa,
                sphere_b: sb,
                depth: scalar(0.01),
            };
            let mut wa = Wrench::<S, MODES>::ZERO;
            let mut wb = Wrench::<S, MODES>::default();
            black_box(respond(a, b, &pair, scalar(100.0), &mut wa, &mut wb));
            black_box(apply_at_node(
                a,
                black_box(3),
                [S::ONE; 3],
                [S::ONE; 3],
                &mut wa,
            ));
            // Wrenches sized at run time, and exact contacts.
            let (mut fa, mut ta, mut qa) = ([S::ZERO; 3], [S::ZERO; 3], [S::ZERO; MODES]);
            let (mut fb, mut tb, mut qb) = ([S::ZERO; 3], [S::ZERO; 3], [S::ZERO; MODES]);
            let m = black_box(MODES);
            let mut va = WrenchMut {
                force: &mut fa,
                torque: &mut ta,
                q: qa.get_mut(..m).unwrap_or(&mut []),
            };
            let mut vb = WrenchMut {
                force: &mut fb,
                torque: &mut tb,
                q: qb.get_mut(..m).unwrap_or(&mut []),
            };
            black_box(respond_mut(
                a,
                b,
                &pair,
                scalar(100.0),
                va.reborrow(),
                vb.reborrow(),
            ));
            let contact = ContactPoint {
                a: black_box(1),
                b: black_box(2),
                contact: bdtree_core::TriangleContact {
                    point: [sa[0], sa[1], sa[2]],
                    normal: [S::ONE, S::ZERO, S::ZERO],
                    depth: scalar(0.01),
                },
            };
            black_box(respond_contact(
                a,
                b,
                &contact,
                scalar(100.0),
                va.reborrow(),
                vb.reborrow(),
            ));
            black_box(apply_at_triangle(
                a,
                black_box(4),
                [S::ONE; 3],
                [S::ONE; 3],
                va.reborrow(),
            ));
            black_box(apply_at_node_mut(
                b,
                black_box(5),
                [S::ONE; 3],
                [S::ONE; 3],
                vb.reborrow(),
            ));
            // The contact Jacobian into rows of any length (short ones refused).
            let (mut ra, mut rb) = ([S::ZERO; MODES], [S::ZERO; MODES]);
            black_box(
                contact_jacobian(
                    a,
                    b,
                    black_box(1),
                    black_box(2),
                    ra.get_mut(..m).unwrap_or(&mut []),
                    rb.get_mut(..black_box(MODES)).unwrap_or(&mut []),
                )
                .is_ok(),
            );
            black_box((ra, rb));
            black_box((wa, wb, fa, ta, qa, fb, tb, qb));
        }
    });
}
