//! Entry points of the pair queries: triangles, proxies, self-collision, traversal,
//! separation, contacts, primitives, swept, boxes.

use super::*;

pub(super) fn triangle_query<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let n = black_box(STACK);
        black_box(collide(
            a,
            b,
            stack.get_mut(..n).unwrap_or(&mut []),
            &mut sink,
        ));
    });
}

pub(super) fn triangle_query_buffer<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let mut buffer = ContactBuffer::<8>::new();
        black_box(collide(a, b, &mut stack, &mut buffer));
        black_box((buffer.len(), buffer.as_slice().first().copied()));
        buffer.clear();
    });
}

pub(super) fn refine_pairs<S: Scalar>() {
    two::<S>(|a, b| {
        let mut pairs = [TrianglePair {
            a: black_box(3),
            b: black_box(u32::MAX),
        }; 4];
        let n = black_box(pairs.len());
        let pairs = pairs.get_mut(..n).unwrap_or(&mut []);
        black_box(refine(a, b, pairs));
        black_box(refine_self(a, pairs));
        black_box(refine_error(b));
    });
}

pub(super) fn proxy_query<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let (la, lb) = (black_box(2), black_box(3));
        let mut sink = |p: ProxyPair<S>| black_box(p.a) != u32::MAX;
        black_box(collide_proxies(a, b, la, lb, &mut stack, &mut sink));
        let pair = ProxyPair {
            a: black_box(1),
            b: black_box(2),
            sphere_a: [S::ZERO; 4],
            sphere_b: [S::ZERO; 4],
            depth: S::ZERO,
        };
        black_box(fitted_pair(a, b, &pair));
        let mut buffer = ProxyBuffer::<S, 8>::new();
        black_box(collide_proxies(a, b, la, lb, &mut stack, &mut buffer));
        black_box(buffer.as_slice().len());
        let offset = [black_box(0.5), black_box(-2.0), black_box(1e3)];
        black_box(collide_proxies_apart(
            a, b, la, lb, offset, &mut stack, &mut sink,
        ));
    });
}

pub(super) fn self_query<S: Scalar>() {
    one::<S>(|body| {
        let mut stack = [[0u32; 2]; STACK];
        black_box(collide_self(body, &mut stack, &mut sink));
    });
}

pub(super) fn self_query_with<S: Scalar>() {
    one::<S>(|body| {
        let mut signatures = [[0u32; 2]; NODES];
        let mut cones = [0u16; NODES];
        black_box(vertex_signatures(body, &mut signatures));
        black_box(normal_cones(body, &mut cones));
        let n = black_box(NODES);
        let aids = SelfAids {
            signatures: signatures.get(..n).unwrap_or(&[]),
            cones: cones.get(..black_box(0)).unwrap_or(&[]),
            contours: SelfContours::NONE,
            certificates: SelfCertificates::NONE,
            normals: Default::default(),
            spheres: Default::default(),
        };
        let mut stack = [[0u32; 2]; STACK];
        let mut counts = UnitCounts::default();
        black_box(collide_self_with(
            body,
            aids,
            &mut counts,
            &mut stack,
            &mut sink,
        ));
        black_box(counts);
    });
}

pub(super) fn self_list<S: Scalar>() {
    one::<S>(|body| {
        let mut parents = [0u32; NODES];
        black_box(tree_parents(body.tree(), &mut parents));
        let mut units = [[0u32; 2]; 32];
        let mut spare = [[0u32; 2]; 32];
        let n = black_box(32);
        let mut list = SelfList::new(
            &parents,
            units.get_mut(..n).unwrap_or(&mut []),
            spare.get_mut(..n).unwrap_or(&mut []),
        );
        let mut stack = [[0u32; 2]; STACK];
        let mut counts = UnitCounts::default();
        let aids = SelfAids::NONE;
        black_box(list.collide(body, aids, &mut stack, &mut sink, &mut counts));
        set(body, 0.15);
        let aids = SelfAids::NONE;
        black_box(list.collide(body, aids, &mut stack, &mut sink, &mut counts));
        black_box((
            list.len(),
            list.is_empty(),
            list.overflowed(),
            list.units().count(),
        ));
        list.reset();
    });
}

pub(super) fn self_culled<S: Scalar>() {
    one::<S>(|body| {
        let mut cones = [0u16; NODES];
        black_box(normal_cones(body, &mut cones));
        // Any contour table the caller may give (the host writes it; here whatever the
        // optimiser cannot see through).
        let starts = black_box([0u32; NODES + 1]);
        let vertices = black_box([0u32; 96]);
        // Any certificate table, of any length and any weights.
        let weights = black_box([0.5f32; 512]);
        let certificates = SelfCertificates {
            weights: weights.get(..black_box(512)).unwrap_or(&[]),
        };
        black_box(certificates.hold(body, black_box(3)));
        let aids = SelfAids {
            signatures: &[],
            cones: &cones,
            contours: SelfContours {
                starts: starts.get(..black_box(NODES + 1)).unwrap_or(&[]),
                vertices: vertices.get(..black_box(96)).unwrap_or(&[]),
            },
            certificates,
            normals: Default::default(),
            spheres: Default::default(),
        };
        let mut stack = [[0u32; 2]; STACK];
        let mut counts = UnitCounts::default();
        black_box(collide_self_with(
            body,
            aids,
            &mut counts,
            &mut stack,
            &mut sink,
        ));
        black_box(counts);
    });
}

pub(super) fn self_lazy<S: Scalar>() {
    one::<S>(|body| {
        // Any contour table and certificates the caller may give, as in `self_culled`.
        let starts = black_box([0u32; NODES + 1]);
        let vertices = black_box([0u32; 96]);
        let weights = black_box([0.5f32; 512]);
        let aids = SelfAids {
            signatures: &[],
            cones: &[],
            contours: SelfContours {
                starts: starts.get(..black_box(NODES + 1)).unwrap_or(&[]),
                vertices: vertices.get(..black_box(96)).unwrap_or(&[]),
            },
            certificates: SelfCertificates {
                weights: weights.get(..black_box(512)).unwrap_or(&[]),
            },
            normals: Default::default(),
            spheres: Default::default(),
        };
        let mut slots = [ConeSlot::EMPTY; NODES];
        let mut cones = SelfCones::new(slots.get_mut(..black_box(NODES)).unwrap_or(&mut []));
        black_box((cones.len(), cones.is_empty()));
        let mut stack = [[0u32; 2]; STACK];
        let mut counts = UnitCounts::default();
        for _ in 0..2 {
            black_box(collide_self_lazy(
                body,
                aids,
                &mut cones,
                &mut counts,
                &mut stack,
                &mut sink,
            ));
            // The same from the image's own data (none in this image: the plain walk; the
            // branch that reads it is linked all the same).
            black_box(collide_self_image(
                body,
                &mut cones,
                &mut counts,
                &mut stack,
                &mut sink,
            ));
            black_box(body.tree().self_data().is_some());
            black_box(body.tree().has_fitted());
            set(body, 0.15);
        }
        black_box(counts);
    });
}

pub(super) fn traversal_test_budget<S: Scalar>() {
    two::<S>(|a, b| {
        let mut pending = [Pending::<S>::EMPTY; 64];
        let n = black_box(64);
        let mut t = Traversal::new(pending.get_mut(..n).unwrap_or(&mut []), order());
        black_box(t.start(a, b));
        let mut budget = TestBudget::new(black_box(50));
        black_box(t.run(a, b, &mut budget, &mut sink));
        let mut budget = TestBudget::unlimited();
        black_box(t.run(a, b, &mut budget, &mut sink));
        black_box(t.pending_len());
        black_box(Traversal::<S>::needed_capacity(
            black_box(10),
            black_box(20),
        ));
    });
}

/// A clock the optimiser cannot predict.
pub(super) struct Ticks(u64);

impl bdtree_core::Clock for Ticks {
    fn now(&mut self) -> u64 {
        self.0 = black_box(self.0.wrapping_add(1));
        self.0
    }
}

pub(super) fn traversal_deadline<S: Scalar>() {
    two::<S>(|a, b| {
        let mut pending = [Pending::<S>::EMPTY; 64];
        let mut t = Traversal::new(&mut pending, order());
        black_box(t.start(a, b));
        let mut budget = Deadline::new(Ticks(0), black_box(100));
        black_box(t.run(a, b, &mut budget, &mut sink));
        // Released and resumed over storage of any length (a short one included).
        let progress = black_box(t.suspend());
        let n = black_box(64);
        let mut t = Traversal::resume(pending.get_mut(..n).unwrap_or(&mut []), progress);
        black_box(t.run(a, b, &mut budget, &mut sink));
    });
}

/// `Traversal::pending()` (its `% cap`, query/traversal.rs, was reported as a panic path; it
/// links clean at opt-level 3 and `s` here).
pub(super) fn traversal_pending<S: Scalar>() {
    two::<S>(|a, b| {
        let mut pending = [Pending::<S>::EMPTY; 64];
        let n = black_box(64);
        let mut t = Traversal::new(pending.get_mut(..n).unwrap_or(&mut []), order());
        black_box(t.start(a, b));
        black_box(t.pending().count());
    });
}

pub(super) fn separation<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        black_box(separation_lower_bound(a, b));
        let mut near = None;
        black_box(nearest(a, b, &mut stack, &mut near));
        black_box(near.map(|n| n.distance));
        let mut closer = true;
        black_box(closer_than(
            a,
            b,
            scalar(0.1),
            scalar(0.01),
            &mut stack,
            &mut closer,
        ));
        black_box(closer);
    });
}

pub(super) fn contact_query<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let mut sink = |c: ContactPoint<S>| black_box(c.a) != u32::MAX;
        black_box(collide_contacts(a, b, &mut stack, &mut sink));
    });
}

pub(super) fn within_query<S: Scalar>() {
    two::<S>(|a, b| {
        let mut stack = [[0u32; 2]; STACK];
        let mut sink = |p: NearPair<S>| black_box(p.a) != u32::MAX;
        black_box(within(a, b, scalar(0.01), &mut stack, &mut sink));
    });
}

pub(super) fn primitive_query<S: Scalar>() {
    one::<S>(|body| {
        let mut stack = [[0u32; 2]; STACK];
        let (x, r) = (scalar::<S>(0.1), scalar::<S>(0.05));
        let primitives = [
            Primitive::plane([S::ZERO, S::ZERO, S::ONE], x),
            Primitive::sphere([x, S::ZERO, S::ZERO], r),
            Primitive::capsule([S::ZERO; 3], [S::ZERO, S::ZERO, x], r),
            Pose::from_quaternion([black_box(S::ONE), S::ZERO, S::ZERO, S::ZERO], [x; 3])
                .map_err(|_| bdtree_core::PrimitiveError::NonFinite)
                .and_then(|pose| Primitive::oriented_box(&pose, [r, x, r])),
        ];
        for primitive in primitives.iter().flatten() {
            let mut sink = |c: ContactPoint<S>| black_box(c.a) != u32::MAX;
            black_box(collide_primitive(body, primitive, &mut stack, &mut sink));
            let mut proxies = |p: PrimitiveProxy<S>| black_box(p.node) != u32::MAX;
            let depth = black_box(3);
            black_box(collide_primitive_proxies(
                body,
                primitive,
                depth,
                &mut stack,
                &mut proxies,
            ));
        }
    });
}

pub(super) fn world_primitives<S: Scalar>() {
    let Some(image) = image::<S>() else { return };
    let (mut sa, mut sb) = (Storage::new(), Storage::new());
    let (Some(a), Some(mut b)) = (sa.body(&image), sb.body(&image)) else {
        return;
    };
    set(&mut b, 0.3);
    let mut bodies = [a, b];
    let (x, r) = (scalar::<S>(0.1), scalar::<S>(0.05));
    let (Ok(floor), Ok(link)) = (
        Primitive::plane([S::ZERO, S::ZERO, S::ONE], x),
        Primitive::capsule([S::ZERO; 3], [S::ZERO, S::ZERO, x], r),
    ) else {
        return;
    };
    let primitives = [floor, link];
    let mut stack = [[0u32; 2]; STACK];
    let mut sink = |c: WorldContact<S>| black_box(c.body + c.contact.a) != u32::MAX;
    let filter = |i: usize, j: usize| black_box(i ^ j) != 3;
    let (n, m) = (black_box(2), black_box(2));
    black_box(collide_world_primitives(
        bodies.get_mut(..n).unwrap_or(&mut []),
        primitives.get(..m).unwrap_or(&[]),
        &filter,
        &mut stack,
        &mut sink,
    ));
}

pub(super) fn swept_query<S: Scalar>() {
    two::<S>(|a0, b0| {
        two::<S>(|a1, b1| {
            set(a1, 0.2);
            let mut stack = [[0u32; 2]; STACK];
            let mut sink = |p: SweptPair<S>| black_box(p.a) != u32::MAX;
            black_box(collide_swept(a0, a1, b0, b1, &mut stack, &mut sink));
        });
    });
}

pub(super) fn swept_front<S: Scalar>() {
    two::<S>(|a0, b0| {
        two::<S>(|a1, b1| {
            set(a1, 0.2);
            let mut stack = [[0u32; 2]; STACK];
            let mut sink = |p: SweptPair<S>| black_box(p.a) != u32::MAX;
            let mut entries = [FrontEntry::<S>::EMPTY; 64];
            let mut spare = [FrontEntry::<S>::EMPTY; 64];
            let mut front = SweptFront::new(&mut entries, &mut spare);
            // The first walks from the root; the second carries (or not, if it overflowed).
            black_box(collide_swept_front(
                a0, a1, b0, b1, &mut front, &mut stack, &mut sink,
            ));
            black_box(collide_swept_front(
                a0, a1, b0, b1, &mut front, &mut stack, &mut sink,
            ));
            black_box(front.entries().len() + front.certified() + front.retested());
            front.reset();
            // Suspended and resumed (as the C API keeps a front between calls).
            let state = black_box(front.suspend());
            let mut front = SweptFront::resume(&mut entries, &mut spare, state);
            black_box(collide_swept_front(
                a0, a1, b0, b1, &mut front, &mut stack, &mut sink,
            ));
            let state = front.suspend();
            black_box(state.len() + state.certified() + state.retested());
            black_box(state.is_empty() || state.overflowed());
        });
    });
}

pub(super) fn boxes<S: Scalar>() {
    two::<S>(|a, b| {
        // Box rows as an application stores them (here: zero extents, from opaque storage).
        let mut rows = [[S::ZERO; 4]; NODES * (MODES + 1)];
        let n = black_box(a.tree().node_count() * (a.tree().modes() + 1));
        rows.iter_mut().for_each(|r| *r = black_box(*r));
        let rows = rows.get(..n).unwrap_or(&[]);
        let (Ok(ta), Ok(tb)) = (BoxTable::new(rows, a.tree()), BoxTable::new(rows, b.tree()))
        else {
            return;
        };
        black_box(ta.record(black_box(1)).map(|r| r.len()));
        black_box((world_box(a, &ta, 0), world_box(b, &tb, black_box(1))));
        let test = if black_box(true) {
            BoxTest::Exact
        } else {
            BoxTest::FaceAxes
        };
        let mut stack = [[0u32; 2]; STACK];
        black_box(collide_boxes(a, b, &ta, &tb, test, &mut stack, &mut sink));
    });
}

/// Known panic path at opt-level `s`: `obb::boxes_overlap`'s `abs_r[i][j]` bounds checks.
pub(super) fn boxes_overlap_direct<S: Scalar>() {
    let b = |x: f32| bdtree_core::query::boxes::WorldBox {
        center: [scalar::<S>(x); 3],
        axes: [[scalar::<S>(0.5); 3]; 3],
        half: [scalar::<S>(1.0); 3],
    };
    let test = if black_box(true) {
        BoxTest::Exact
    } else {
        BoxTest::FaceAxes
    };
    black_box(boxes_overlap(&b(0.0), &b(1.5), test));
}
