//! Contacts, within-distance and primitives through the C functions only, against the Rust
//! kernel on the same images and states, bit for bit; and against the CLI's runners on
//! two-body scenes, placed by `bdtree_floating_origin` as the header tells a C client to.
//!
//! Every body pair is placed at its own floating origin (the centre of the box of its two
//! translations, computed by `bdtree_floating_origin`), every body against a primitive at its
//! own translation; scenes are also run moved 3 km away and with one body moved 250 units off,
//! so that the per-pair origin matters.

use std::path::Path;
use std::vec;
use std::vec::Vec;

use bdtree_core::{
    collide_contacts, collide_primitive, collide_primitive_proxies, floating_origin,
    primitive_stack_capacity, stack_capacity, within, ContactPoint, NearPair, Pose, Primitive,
    PrimitiveProxy, Scalar,
};
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::scene::PrimitiveShape;
use bdtree_std::io::Scene;
use bdtree_std::runner::{prepare, run_contacts, run_within, PreparedScene};
use bdtree_std::BodyStorage;

use crate::c_names::*;

/// The within-distance of the tests, in the fixtures' units (their bodies are ~0.1–1 across).
const NEAR: f64 = 0.01;

/// [`NEAR`] in `S` as the CLI's within run rounds it (up, so that it is not below `NEAR`).
fn near_distance<S: Scalar>() -> S {
    S::from_f64(NEAR * (1.0 + 1e-6))
}

fn scene(path: &str) -> Scene {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    Scene::load(&root.join(path)).expect("fixture scene")
}

/// The scene with every translation moved by `by` (bodies and primitives).
fn moved(mut scene: Scene, by: [f64; 3]) -> Scene {
    for frame in &mut scene.frames {
        for (pose, _) in frame {
            for (t, d) in pose.translation.iter_mut().zip(by) {
                *t += d;
            }
        }
    }
    for p in &mut scene.primitives {
        for pose in &mut p.poses {
            for (t, d) in pose.translation.iter_mut().zip(by) {
                *t += d;
            }
        }
    }
    scene
}

/// The scene with body `b` moved by `by` in every frame.
fn one_moved(mut scene: Scene, b: usize, by: [f64; 3]) -> Scene {
    for frame in &mut scene.frames {
        for (t, d) in frame[b].0.translation.iter_mut().zip(by) {
            *t += d;
        }
    }
    scene
}

/// `bdtree_floating_origin` of some translations, checked equal (bits) to the kernel's.
fn c_origin(translations: &[[f64; 3]]) -> [f64; 3] {
    let flat: Vec<f64> = translations.iter().flatten().copied().collect();
    let mut origin = [f64::NAN; 3];
    // SAFETY: `flat` holds 3 doubles per translation, `origin` 3.
    let s =
        unsafe { bdtree_floating_origin(flat.as_ptr(), translations.len(), origin.as_mut_ptr()) };
    assert_eq!(s, bdtree_status::Ok);
    assert_eq!(
        origin.map(f64::to_bits),
        floating_origin(translations).map(f64::to_bits)
    );
    origin
}

/// A primitive of a scene in frame `f`, placed relative to `origin` in f64 and then rounded
/// (what the header tells a C client to do): the arguments of its constructor.
enum Placed {
    Plane([f64; 3], f64),
    Sphere([f64; 3], f64),
    Capsule([f64; 3], [f64; 3], f64),
    Box([f64; 4], [f64; 3], [f64; 3]),
}

fn place(shape: &PrimitiveShape, pose: &bdtree_std::io::Pose, origin: [f64; 3]) -> Placed {
    let t: [f64; 3] = core::array::from_fn(|k| pose.translation[k] - origin[k]);
    let p = Pose::<f64>::from_quaternion(pose.rotation, t).expect("unit quaternion");
    match *shape {
        PrimitiveShape::Plane { normal, offset } => {
            let n = p.rotate(normal);
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            let n = n.map(|x| x / len);
            Placed::Plane(n, offset + n[0] * t[0] + n[1] * t[1] + n[2] * t[2])
        }
        PrimitiveShape::Sphere(r) => Placed::Sphere(t, r),
        PrimitiveShape::Capsule {
            radius,
            half_length,
        } => Placed::Capsule(
            p.apply([0.0, 0.0, -half_length]),
            p.apply([0.0, 0.0, half_length]),
            radius,
        ),
        PrimitiveShape::Box { half_extents } => Placed::Box(pose.rotation, t, half_extents),
    }
}

/// Sorted bit patterns of contacts.
type ContactBits = Vec<(u32, u32, [u64; 3], [u64; 3], u64)>;
/// Sorted bit patterns of near pairs.
type NearBits = Vec<(u32, u32, u64, [u64; 3], [u64; 3])>;

/// An f32 answer through C against the CLI's, refined in f64: every CLI item's triangle pair is
/// among C's (nothing missed), its scalar (depth or distance) at most `tolerance` from C's; C's
/// other pairs (the ones refinement proved apart) lie within `tolerance` of `edge`, the
/// scalar where a pair stops counting (0 for a contact's depth, the distance for near pairs). Points
/// and normals are not compared: on touching or parallel triangles the f32 and f64 answers
/// may pick different points of the same degenerate contact. `numbers` gives an item's
/// triangle pair and its scalar.
fn close_superset<T>(
    got: &[T],
    want: &[T],
    frame: usize,
    tolerance: f64,
    edge: f64,
    numbers: impl Fn(&T) -> ((u32, u32), u64),
) {
    let f = |b: u64| f64::from_bits(b);
    let got: std::collections::BTreeMap<_, _> = got.iter().map(&numbers).collect();
    let mut seen = 0;
    for x in want {
        let (k, d) = numbers(x);
        let gd = got
            .get(&k)
            .unwrap_or_else(|| panic!("frame {frame}: pair {k:?} of the CLI missing through C"));
        seen += 1;
        assert!(
            (f(*gd) - f(d)).abs() <= tolerance,
            "frame {frame}: pair {k:?}: {} through C, {} by the CLI",
            f(*gd),
            f(d)
        );
    }
    for (k, d) in &got {
        if !want.iter().any(|x| numbers(x).0 == *k) {
            assert!(
                (f(*d) - edge).abs() <= tolerance,
                "frame {frame}: C's extra pair {k:?} is {}",
                f(*d)
            );
        }
    }
    assert_eq!(seen, want.len());
}
/// Sorted bit patterns of primitive proxies.
type ProxyBits = Vec<(u32, [u64; 4], u64)>;

macro_rules! through_c {
    ($module:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $prim:ty, $contact:ty, $near:ty, $pproxy:ty,
     $contacts:ident, $within:ident, $plane:ident, $sphere:ident, $capsule:ident, $box_:ident,
     $collide_primitive:ident, $primitive_proxies:ident) => {
        mod $module {
            use super::*;

            type S = $s;

            fn bits(v: [S; 3]) -> [u64; 3] {
                v.map(|x| f64::from(x).to_bits())
            }

            /// A contact from C as the bits the comparisons hold equal.
            fn contact_bits(c: &$contact) -> (u32, u32, [u64; 3], [u64; 3], u64) {
                (
                    c.a,
                    c.b,
                    bits(c.point),
                    bits(c.normal),
                    f64::from(c.depth).to_bits(),
                )
            }

            /// A contact from the kernel as the same bits (its own fields, not the C API's
            /// conversion).
            fn kernel_contact_bits(p: &ContactPoint<S>) -> (u32, u32, [u64; 3], [u64; 3], u64) {
                (
                    p.a,
                    p.b,
                    bits(p.contact.point),
                    bits(p.contact.normal),
                    f64::from(p.contact.depth).to_bits(),
                )
            }

            scene_bodies!($image, $body, $parse, $info, $size, $init, $set);

            /// Sets body `b` of the C world to frame `f` of the scene, relative to `origin`.
            /// Contacts and near pairs of bodies `i`, `j` through C (their states set).
            pub(super) fn pair(world: &mut World, i: usize, j: usize) -> (ContactBits, NearBits) {
                let mut stack =
                    vec![bdtree_node_pair::default(); stack_capacity(world.depth, world.depth)];
                let mut contacts = vec![<$contact>::default(); 1 << 16];
                let mut near = vec![<$near>::default(); 1 << 16];
                let (mut n, mut m) = (0usize, 0usize);
                let mut stats = bdtree_stats::default();
                let (head, tail) = world.bodies.split_at_mut(j);
                let (a, b) = (&mut *head[i], &mut *tail[0]);
                // SAFETY: distinct bodies; every buffer valid for the length given.
                unsafe {
                    let s = $contacts(
                        a,
                        b,
                        stack.as_mut_ptr(),
                        stack.len(),
                        contacts.as_mut_ptr(),
                        contacts.len(),
                        &mut n,
                        &mut stats,
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    assert_eq!(stats.pairs as usize, n);
                    let d = near_distance::<S>();
                    let s = $within(
                        a,
                        b,
                        d,
                        stack.as_mut_ptr(),
                        stack.len(),
                        near.as_mut_ptr(),
                        near.len(),
                        &mut m,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::Ok);
                }
                let mut c: ContactBits = contacts[..n].iter().map(contact_bits).collect();
                let mut w: NearBits = near[..m]
                    .iter()
                    .map(|p| {
                        (
                            p.a,
                            p.b,
                            f64::from(p.distance).to_bits(),
                            bits(p.point_a),
                            bits(p.point_b),
                        )
                    })
                    .collect();
                c.sort_unstable();
                w.sort_unstable();
                (c, w)
            }

            /// The same through the kernel, from Rust, on bodies of the same images.
            pub(super) fn kernel_pair(
                prepared: &PreparedScene,
                scene: &Scene,
                f: usize,
                (i, j): (usize, usize),
                origin: [f64; 3],
            ) -> (ContactBits, NearBits) {
                let images: Vec<_> = [i, j]
                    .iter()
                    .map(|&k| prepared.images[k].parse::<S>().expect("image"))
                    .collect();
                let mut storage: Vec<BodyStorage<S>> =
                    images.iter().map(BodyStorage::for_image).collect();
                let [sa, sb] = &mut storage[..] else {
                    unreachable!()
                };
                let mut a = sa.body(&images[0]).expect("body");
                let mut b = sb.body(&images[1]).expect("body");
                for (body, k) in [(&mut a, i), (&mut b, j)] {
                    let (pose, q) = &scene.frames[f][k];
                    body.set_state_f64(pose.rotation, pose.translation, q, origin)
                        .expect("state");
                }
                let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
                let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
                let mut c: ContactBits = Vec::new();
                let mut sink = |p: ContactPoint<S>| {
                    c.push(kernel_contact_bits(&p));
                    true
                };
                assert!(collide_contacts(&mut a, &mut b, &mut stack, &mut sink)
                    .status
                    .is_complete());
                let mut w: NearBits = Vec::new();
                let mut sink = |p: NearPair<S>| {
                    w.push((
                        p.a,
                        p.b,
                        f64::from(p.distance).to_bits(),
                        bits(p.point_a),
                        bits(p.point_b),
                    ));
                    true
                };
                let d = near_distance::<S>();
                assert!(within(&mut a, &mut b, d, &mut stack, &mut sink)
                    .status
                    .is_complete());
                c.sort_unstable();
                w.sort_unstable();
                (c, w)
            }

            /// The C primitive of a placement (checked made).
            fn c_primitive(p: &Placed) -> $prim {
                let s = <S as Scalar>::from_f64;
                let v = |x: [f64; 3]| x.map(s);
                // SAFETY: zeroed objects are what the constructors expect; 3 or 4 scalars each.
                unsafe {
                    let mut out: $prim = core::mem::zeroed();
                    let status = match *p {
                        Placed::Plane(n, o) => $plane(&mut out, v(n).as_ptr(), s(o)),
                        Placed::Sphere(c, r) => $sphere(&mut out, v(c).as_ptr(), s(r)),
                        Placed::Capsule(a, b, r) => {
                            $capsule(&mut out, v(a).as_ptr(), v(b).as_ptr(), s(r))
                        }
                        Placed::Box(q, c, h) => {
                            $box_(&mut out, q.map(s).as_ptr(), v(c).as_ptr(), v(h).as_ptr())
                        }
                    };
                    assert_eq!(status, bdtree_status::Ok);
                    out
                }
            }

            /// The kernel's primitive of a placement.
            fn kernel_primitive(p: &Placed) -> Primitive<S> {
                let s = <S as Scalar>::from_f64;
                let v = |x: [f64; 3]| x.map(s);
                match *p {
                    Placed::Plane(n, o) => Primitive::plane(v(n), s(o)),
                    Placed::Sphere(c, r) => Primitive::sphere(v(c), s(r)),
                    Placed::Capsule(a, b, r) => Primitive::capsule(v(a), v(b), s(r)),
                    Placed::Box(q, c, h) => {
                        let pose = Pose::from_quaternion(q.map(s), v(c)).expect("pose");
                        Primitive::oriented_box(&pose, v(h))
                    }
                }
                .expect("primitive")
            }

            /// Every mesh body of the primitives fixture (moved by `by`) against every
            /// primitive, at the body's own origin: contacts and proxies through C equal the
            /// kernel's. Returns how many contacts there were.
            pub(super) fn primitives(by: [f64; 3]) -> usize {
                let scene = moved(super::scene("primitives/primitives.json"), by);
                let options = BuildOptions {
                    precision: $precision,
                    ..BuildOptions::default()
                };
                let prepared = prepare(&scene, options).expect("build");
                let mut world = world(&prepared, 0);
                let mut total = 0;
                const L: u32 = 3;
                for f in 0..scene.frames.len() {
                    for b in 0..scene.bodies.len() {
                        let origin = c_origin(&[scene.frames[f][b].0.translation]);
                        set_body(&mut world, &scene, f, b, origin);
                        let image = prepared.images[b].parse::<S>().expect("image");
                        let mut storage = BodyStorage::for_image(&image);
                        let mut body = storage.body(&image).expect("body");
                        let (pose, q) = &scene.frames[f][b];
                        body.set_state_f64(pose.rotation, pose.translation, q, origin)
                            .expect("state");
                        let depth = image.tree.depth();
                        let mut stack = vec![[0u32; 2]; primitive_stack_capacity(depth)];
                        let mut c_stack = vec![
                            bdtree_node_pair::default();
                            bdtree_primitive_stack_capacity(depth)
                        ];
                        for p in &scene.primitives {
                            let placed = place(&p.shape, &p.poses[f], origin);
                            let c_prim = c_primitive(&placed);
                            let k_prim = kernel_primitive(&placed);
                            let mut want: ContactBits = Vec::new();
                            let mut sink = |c: ContactPoint<S>| {
                                want.push(kernel_contact_bits(&c));
                                true
                            };
                            assert!(collide_primitive(&mut body, &k_prim, &mut stack, &mut sink)
                                .status
                                .is_complete());
                            let mut want_proxies: ProxyBits = Vec::new();
                            let mut sink = |x: PrimitiveProxy<S>| {
                                want_proxies.push((
                                    x.node,
                                    x.sphere.map(|y| f64::from(y).to_bits()),
                                    f64::from(x.depth).to_bits(),
                                ));
                                true
                            };
                            assert!(collide_primitive_proxies(
                                &mut body, &k_prim, L, &mut stack, &mut sink
                            )
                            .status
                            .is_complete());
                            let mut contacts = vec![<$contact>::default(); 1 << 14];
                            let mut proxies = vec![<$pproxy>::default(); 1 << 12];
                            let (mut n, mut m) = (0usize, 0usize);
                            // SAFETY: a body and a primitive of ours; buffers valid for their lengths.
                            unsafe {
                                let s = $collide_primitive(
                                    &mut *world.bodies[b],
                                    &c_prim,
                                    c_stack.as_mut_ptr(),
                                    c_stack.len(),
                                    contacts.as_mut_ptr(),
                                    contacts.len(),
                                    &mut n,
                                    core::ptr::null_mut(),
                                );
                                assert_eq!(s, bdtree_status::Ok);
                                let s = $primitive_proxies(
                                    &mut *world.bodies[b],
                                    L,
                                    &c_prim,
                                    c_stack.as_mut_ptr(),
                                    c_stack.len(),
                                    proxies.as_mut_ptr(),
                                    proxies.len(),
                                    &mut m,
                                    core::ptr::null_mut(),
                                );
                                assert_eq!(s, bdtree_status::Ok);
                            }
                            let mut got: ContactBits =
                                contacts[..n].iter().map(contact_bits).collect();
                            let mut got_proxies: ProxyBits = proxies[..m]
                                .iter()
                                .map(|x| {
                                    (
                                        x.node,
                                        x.sphere.map(|y| f64::from(y).to_bits()),
                                        f64::from(x.depth).to_bits(),
                                    )
                                })
                                .collect();
                            for v in [&mut want, &mut got] {
                                v.sort_unstable();
                            }
                            for v in [&mut want_proxies, &mut got_proxies] {
                                v.sort_unstable();
                            }
                            assert_eq!(got, want, "frame {f}, body {b}, primitive {}", p.name);
                            assert_eq!(
                                got_proxies, want_proxies,
                                "frame {f}, body {b}, primitive {} (proxies)",
                                p.name
                            );
                            // Every touching triangle lies under a reported proxy: none without.
                            assert!(want.is_empty() || !want_proxies.is_empty());
                            total += n;
                        }
                    }
                }
                total
            }

            /// Every body pair of a scene, each at its own origin: C equals the kernel.
            /// Returns how many contacts and near pairs there were.
            pub(super) fn pairs_equal_the_kernel(scene: &Scene) -> (usize, usize) {
                let options = BuildOptions {
                    precision: $precision,
                    ..BuildOptions::default()
                };
                let prepared = prepare(scene, options).expect("build");
                let mut world = world(&prepared, 0);
                let (mut contacts, mut near) = (0, 0);
                for f in 0..scene.frames.len() {
                    for i in 0..scene.bodies.len() {
                        for j in i + 1..scene.bodies.len() {
                            let origin = c_origin(&[
                                scene.frames[f][i].0.translation,
                                scene.frames[f][j].0.translation,
                            ]);
                            set_body(&mut world, scene, f, i, origin);
                            set_body(&mut world, scene, f, j, origin);
                            let got = pair(&mut world, i, j);
                            let want = kernel_pair(&prepared, scene, f, (i, j), origin);
                            assert_eq!(got, want, "frame {f}, bodies {i} and {j}");
                            contacts += got.0.len();
                            near += got.1.len();
                        }
                    }
                }
                (contacts, near)
            }

            /// A two-body scene through C, placed by `bdtree_floating_origin` and the origin
            /// added back in f64, equals the CLI's contacts and within runs bit for bit.
            pub(super) fn two_bodies_equal_the_cli(scene: &Scene) -> usize {
                assert_eq!(scene.bodies.len(), 2);
                let options = BuildOptions {
                    precision: $precision,
                    ..BuildOptions::default()
                };
                let prepared = prepare(scene, options).expect("build");
                let (cli, _) = run_contacts::<S>(scene, &prepared).expect("contacts");
                let (cli_near, _) = run_within::<S>(scene, &prepared, NEAR).expect("within");
                let mut world = world(&prepared, 0);
                let mut total = 0;
                for f in 0..scene.frames.len() {
                    let origin = c_origin(&[
                        scene.frames[f][0].0.translation,
                        scene.frames[f][1].0.translation,
                    ]);
                    set_body(&mut world, scene, f, 0, origin);
                    set_body(&mut world, scene, f, 1, origin);
                    let (c, w) = pair(&mut world, 0, 1);
                    let back = |p: [u64; 3]| -> [u64; 3] {
                        core::array::from_fn(|k| (f64::from_bits(p[k]) + origin[k]).to_bits())
                    };
                    let got: Vec<_> = c.iter().map(|x| (x.0, x.1, back(x.2), x.3, x.4)).collect();
                    let mut want: Vec<_> = cli[f]
                        .items
                        .iter()
                        .map(|x| {
                            (
                                x.pair.2,
                                x.pair.3,
                                x.point.map(f64::to_bits),
                                x.normal.map(f64::to_bits),
                                x.depth.to_bits(),
                            )
                        })
                        .collect();
                    want.sort_unstable();
                    if $precision == Precision::F64 {
                        assert_eq!(got, want, "contacts, frame {f}");
                    } else {
                        // The CLI refines f32 contacts in f64 (no negative depth); C gives the
                        // device's answer. Every refined contact is among C's, at most the f32
                        // rounding apart, and C's extras are pairs that barely touch.
                        close_superset(&got, &want, f, 1e-3, 0.0, |x| ((x.0, x.1), x.4));
                    }
                    let got: Vec<_> = w
                        .iter()
                        .map(|x| (x.0, x.1, x.2, back(x.3), back(x.4)))
                        .collect();
                    let mut want: Vec<_> = cli_near[f]
                        .items
                        .iter()
                        .map(|x| {
                            (
                                x.pair.2,
                                x.pair.3,
                                x.distance.to_bits(),
                                x.points[0].map(f64::to_bits),
                                x.points[1].map(f64::to_bits),
                            )
                        })
                        .collect();
                    want.sort_unstable();
                    if $precision == Precision::F64 {
                        assert_eq!(got, want, "within, frame {f}");
                    } else {
                        close_superset(&got, &want, f, 1e-3, NEAR, |x| ((x.0, x.1), x.2));
                    }
                    total += c.len() + w.len();
                }
                total
            }
        }
    };
}

with_body_names!(through_c, f32, in_f32;
    bdtree_primitive_f32, bdtree_contact_f32, bdtree_near_pair_f32, bdtree_primitive_proxy_f32,
    bdtree_collide_contacts_f32, bdtree_within_f32, bdtree_primitive_plane_f32,
    bdtree_primitive_sphere_f32, bdtree_primitive_capsule_f32, bdtree_primitive_box_f32,
    bdtree_collide_primitive_f32, bdtree_collide_primitive_proxies_f32);
with_body_names!(through_c, f64, in_f64;
    bdtree_primitive_f64, bdtree_contact_f64, bdtree_near_pair_f64, bdtree_primitive_proxy_f64,
    bdtree_collide_contacts_f64, bdtree_within_f64, bdtree_primitive_plane_f64,
    bdtree_primitive_sphere_f64, bdtree_primitive_capsule_f64, bdtree_primitive_box_f64,
    bdtree_collide_primitive_f64, bdtree_collide_primitive_proxies_f64);

/// 3 km from the world origin, in the fixtures' units.
const FAR: [f64; 3] = [3000.0, -1500.0, 700.0];
/// A body set 250 units away from the others (its pairs' origins are far from theirs).
const OFF: [f64; 3] = [-126.0, 201.0, 111.0];

/// Every fixture scene with several bodies as it is, moved 3 km away, and with its last
/// body 250 units off: contacts and near pairs through C equal the kernel's, bit for bit.
fn pairs_for(scene_path: &str) {
    let base = scene(scene_path);
    let last = base.bodies.len() - 1;
    let variants = [
        base.clone(),
        moved(base.clone(), FAR),
        one_moved(base, last, OFF),
    ];
    for (k, s) in variants.iter().enumerate() {
        let (c32, n32) = in_f32::pairs_equal_the_kernel(s);
        let (c64, n64) = in_f64::pairs_equal_the_kernel(s);
        // The untouched and moved scenes have contacts: the comparison is not vacuous.
        if k < 2 {
            assert!(
                c32 > 0 && c64 > 0 && n32 >= c32 && n64 >= c64,
                "{scene_path} {k}"
            );
        }
    }
}

#[test]
fn contacts_and_within_equal_the_kernel_on_demo() {
    pairs_for("scenes/demo.json");
}

#[test]
fn contacts_and_within_equal_the_kernel_on_fold() {
    pairs_for("scenes/fold.json");
}

#[test]
fn contacts_and_within_equal_the_kernel_on_touching() {
    pairs_for("scenes/touching.json");
}

/// Two-body scenes, as they are and 3 km away: the C client that places each pair by
/// `bdtree_floating_origin` gets the CLI's contacts and near pairs bit for bit in f64; in f32
/// (where the CLI refines in f64 and C gives the device's answer) every CLI pair is among C's,
/// with its depth or distance within 10⁻³.
#[test]
fn two_body_scenes_equal_the_cli() {
    for path in ["scenes/thin.json", "scenes/rigid.json"] {
        for s in [scene(path), moved(scene(path), FAR)] {
            assert!(in_f32::two_bodies_equal_the_cli(&s) > 0, "{path}");
            assert!(in_f64::two_bodies_equal_the_cli(&s) > 0, "{path}");
        }
    }
}

/// Both mesh bodies of the primitives fixture against its plane, ball, capsule and box, at
/// the body's own origin, as it is and 3 km away: C equals the kernel.
#[test]
fn primitives_equal_the_kernel() {
    for by in [[0.0; 3], FAR] {
        assert!(in_f32::primitives(by) > 0);
        assert!(in_f64::primitives(by) > 0);
    }
}

/// `bdtree_floating_origin`: the kernel's rule; no translation is the world origin; a NaN is
/// refused, naming the translation.
#[test]
fn floating_origin_is_the_kernel_rule() {
    let points = [
        [4552.25, -6579.5, 1955.125],
        [4553.0, -6570.0, 1950.0],
        [4551.5, -6575.25, 1960.5],
    ];
    for n in 1..=points.len() {
        c_origin(&points[..n]);
    }
    assert_eq!(c_origin(&[]), [0.0; 3]);
    let mut origin = [1.0; 3];
    let nan = [0.0, f64::NAN, 0.0];
    // SAFETY: 3 doubles in, 3 out.
    let s = unsafe { bdtree_floating_origin(nan.as_ptr(), 1, origin.as_mut_ptr()) };
    assert_eq!(s, bdtree_status::NonFiniteTranslation);
    assert_eq!(origin, [0.0; 3]);
    // SAFETY: NULL translations with a count: refused before reading.
    let s = unsafe { bdtree_floating_origin(core::ptr::null(), 2, origin.as_mut_ptr()) };
    assert_eq!(s, bdtree_status::NullPointer);
}
