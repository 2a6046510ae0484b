//! Fixed capacities end a query explicitly and conservatively: a full sink, a short stack, a
//! small cache, a wrong `q` — never a panic, never a silent drop.

use bdtree_core::{
    collide, stack_capacity, Body, BodyError, BoxEntry, ContactBuffer, Pose, QueryStatus,
    TrianglePair,
};
use bdtree_std::build::{build, BuildOptions};
use bdtree_std::io::ImageBuf;
use bdtree_std::shapes::procedural::{sheet, smooth_basis};
use bdtree_std::BodyStorage;

fn image() -> ImageBuf {
    let mesh = sheet(1.0, 1.0, 6, 6);
    let basis = smooth_basis(&mesh.vertices, 2, 0.05);
    build(&mesh, Some(&basis), BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0
}

/// Two copies of the sheet crossing at right angles: many intersecting pairs.
fn crossing_pairs(
    buf: &ImageBuf,
    stack_len: usize,
    sink: &mut impl bdtree_core::ContactSink,
) -> QueryStatus {
    let image = buf.parse::<f32>().unwrap();
    let mut ca = BodyStorage::new(image.tree.node_count());
    let mut cb = BodyStorage::new(image.tree.node_count());
    let mut a = ca.body(&image).unwrap();
    let mut b = cb.body(&image).unwrap();
    let half = core::f32::consts::FRAC_1_SQRT_2;
    a.set_state(Pose::identity(), &[0.3, -0.2]).unwrap();
    b.set_state(
        Pose::from_quaternion([half, half, 0.0, 0.0], [0.0; 3]).unwrap(),
        &[0.1, 0.4],
    )
    .unwrap();
    let mut stack = vec![[0u32; 2]; stack_len];
    collide(&mut a, &mut b, &mut stack, sink).status
}

#[test]
fn a_full_buffer_ends_the_query_and_hands_back_the_pair() {
    let buf = image();
    let mut all = Vec::new();
    let depth = buf.header().unwrap().depth;
    let status = crossing_pairs(
        &buf,
        stack_capacity(depth, depth),
        &mut |p: TrianglePair| {
            all.push(p);
            true
        },
    );
    assert_eq!(status, QueryStatus::Complete);
    assert!(all.len() > 8, "the sheets cross: {} pairs", all.len());

    let mut small = ContactBuffer::<8>::new();
    let status = crossing_pairs(&buf, stack_capacity(depth, depth), &mut small);
    match status {
        QueryStatus::OutputFull { pair } => {
            assert!(!status.is_complete());
            assert_eq!(small.len(), 8);
            // The buffer holds the first eight pairs found, the status the ninth.
            assert_eq!(small.as_slice(), &all[..8]);
            assert_eq!(pair, all[8]);
        }
        other => panic!("expected OutputFull, got {other:?}"),
    }
}

#[test]
fn a_short_stack_is_refused_before_any_work() {
    let buf = image();
    let depth = buf.header().unwrap().depth;
    let needed = stack_capacity(depth, depth);
    let mut count = 0;
    let status = crossing_pairs(&buf, needed - 1, &mut |_: TrianglePair| {
        count += 1;
        true
    });
    assert_eq!(
        status,
        QueryStatus::StackTooSmall {
            needed,
            given: needed - 1
        }
    );
    assert!(!status.is_complete());
    assert_eq!(count, 0);
}

#[test]
fn bodies_refuse_small_caches_and_bad_coordinates() {
    let buf = image();
    let image = buf.parse::<f32>().unwrap();
    let n = image.tree.node_count();
    let mut short = BodyStorage::new(n - 1);
    assert_eq!(
        short.body(&image).err(),
        Some(BodyError::CacheTooSmall {
            needed: n,
            given: n - 1
        })
    );
    let mut cache = BodyStorage::new(n);
    let mut short_modes = [0.0f32; 9];
    assert_eq!(
        Body::new(&image, &mut cache.cache, &mut short_modes).err(),
        Some(BodyError::ModeStorageTooSmall {
            needed: 10,
            given: 9
        })
    );
    // The message names the tree's mode count (2), not the scalars it needs (10).
    let message = Body::new(&image, &mut cache.cache, &mut short_modes)
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        message.as_deref(),
        Some("mode storage has 9 scalars but the tree has 2 modes, which need 10 (mode_storage(2) = 5 per mode)")
    );
    // A box cache needs an entry per node (not per triangle): one short is refused by name.
    let mut boxes = vec![BoxEntry::<f32>::EMPTY; n - 1];
    let refused = cache.body(&image).unwrap().with_box_cache(&mut boxes).err();
    assert_eq!(
        refused,
        Some(BodyError::BoxCacheTooSmall {
            needed: n,
            given: n - 1
        })
    );
    assert_eq!(
        refused.map(|e| e.to_string()).as_deref(),
        Some(format!("box cache has {} entries but the tree has {n} nodes", n - 1).as_str())
    );
    let mut body = cache.body(&image).unwrap();
    assert_eq!(
        body.set_state(Pose::identity(), &[1.0]),
        Err(BodyError::WrongModeCount {
            expected: 2,
            actual: 1
        })
    );
    assert_eq!(
        body.set_state(Pose::identity(), &[1.0, f32::NAN]),
        Err(BodyError::NonFiniteCoordinates)
    );
    assert!(Pose::<f32>::from_quaternion([1.0, 1.0, 0.0, 0.0], [0.0; 3]).is_err());
    assert!(Pose::<f32>::from_quaternion([1.0, 0.0, 0.0, 0.0], [f32::INFINITY, 0.0, 0.0]).is_err());
}

#[test]
fn each_node_is_updated_at_most_once_per_step() {
    let buf = image();
    let image = buf.parse::<f32>().unwrap();
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).unwrap();
    body.set_state(Pose::identity(), &[0.5, 0.5]).unwrap();
    let before = body.update_count();
    for _ in 0..3 {
        for k in (0..image.tree.node_count()).rev() {
            body.sphere(k).unwrap();
        }
    }
    assert_eq!(body.update_count() - before, image.tree.node_count() as u32);
    body.set_state(Pose::identity(), &[0.25, 0.5]).unwrap();
    assert!(!body.is_cached(0), "a new step invalidates the cache");
    body.sphere(0).unwrap();
    assert!(body.is_cached(0));
}

/// `query_stack_capacity` serves every query: at least each query's own helper, for any pair of
/// depths (the self-collision of either tree included), and no more than the largest of them.
#[test]
fn one_stack_size_serves_every_query() {
    use bdtree_core::{
        primitive_stack_capacity, proxy_stack_capacity, query_stack_capacity, self_stack_capacity,
    };
    for a in 0..=40u32 {
        for b in 0..=40u32 {
            let one = query_stack_capacity(a, b);
            let mut needs = vec![
                stack_capacity(a, b),
                stack_capacity(b, a),
                self_stack_capacity(a),
                self_stack_capacity(b),
                primitive_stack_capacity(a),
                primitive_stack_capacity(b),
            ];
            for la in 0..=a {
                needs.push(proxy_stack_capacity(a, la, b, b.min(la + 1)));
            }
            assert!(
                needs.iter().all(|&n| n <= one),
                "{a} {b}: {one} < {needs:?}"
            );
            assert_eq!(Some(&one), needs.iter().max(), "{a} {b}");
        }
    }
}
