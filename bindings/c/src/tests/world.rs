//! `bdtree_collide_world_*` through the C functions only: on the three-body fixture scenes
//! (demo, fold, touching — exact touching), as given, moved 3 km away and with one body 250
//! units off, every body placed at one floating origin (`bdtree_floating_origin` of all the
//! translations, as the header tells a C client to), the world's answer equals the union of
//! the kernel's pairwise `collide` (and `collide_self`) answers on the same images and states,
//! bit for bit, and holds every intersecting pair of the f64 brute force; the pair filter is
//! honoured; and its statuses.

use std::boxed::Box;
use std::vec;
use std::vec::Vec;

use bdtree_core::{collide, collide_self, floating_origin, self_stack_capacity, stack_capacity};
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::export::Contact;
use bdtree_std::io::Scene;
use bdtree_std::runner::{brute_force_frame_with, prepare, PreparedScene};
use bdtree_std::BodyStorage;

use super::closer::{moved, scene};
use crate::c_names::*;

/// The filters a frame is queried with: `None` is NULL (every distinct pair, no self), else
/// the pairs `(i, j)` to forbid and the bodies whose self-collision to allow.
struct FilterCase {
    forbid: &'static [(usize, usize)],
    selves: &'static [usize],
}

const FILTERS: &[Option<FilterCase>] = &[
    None,
    Some(FilterCase {
        forbid: &[(0, 1)],
        selves: &[2],
    }),
    Some(FilterCase {
        forbid: &[(1, 2)],
        selves: &[0, 1],
    }),
];

/// The filter's words through `bdtree_pair_filter_*`, and the same rule as a closure.
fn filter_words(n: usize, case: &FilterCase) -> Vec<u32> {
    let len = bdtree_pair_filter_words(n);
    let mut words = vec![u32::MAX; len];
    // SAFETY: `len` words.
    unsafe {
        assert_eq!(
            bdtree_pair_filter_init(words.as_mut_ptr(), len, n),
            bdtree_status::Ok
        );
        for &(i, j) in case.forbid {
            let s = bdtree_pair_filter_set(words.as_mut_ptr(), len, n, j, i, false);
            assert_eq!(s, bdtree_status::Ok);
        }
        for &b in case.selves {
            let s = bdtree_pair_filter_set(words.as_mut_ptr(), len, n, b, b, true);
            assert_eq!(s, bdtree_status::Ok);
        }
    }
    words
}

fn allows(case: Option<&FilterCase>, i: usize, j: usize) -> bool {
    match case {
        None => i != j,
        Some(c) if i == j => c.selves.contains(&i),
        Some(c) => !c
            .forbid
            .iter()
            .any(|&(x, y)| (x, y) == (i, j) || (y, x) == (i, j)),
    }
}

/// What the checks saw.
#[derive(Debug, Default)]
struct Tally {
    frames: usize,
    pairs: usize,
    self_pairs: usize,
    true_pairs: usize,
    candidates: usize,
}

macro_rules! world_through_c {
    ($module:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $sphere:ident, $world:ident) => {
        mod $module {
            use super::*;

            type S = $s;

            scene_bodies!($image, $body, $parse, $info, $size, $init, $set);

            /// `scene`'s images built in this precision.
            fn prepared(scene: &Scene) -> PreparedScene {
                let options = BuildOptions {
                    precision: $precision,
                    ..BuildOptions::default()
                };
                prepare(scene, options).expect("build")
            }

            /// Every body of frame `f` relative to `origin`.
            pub(super) fn set(world: &mut World, scene: &Scene, f: usize, origin: [f64; 3]) {
                for b in 0..world.bodies.len().min(scene.frames[f].len()) {
                    set_body(world, scene, f, b, origin);
                }
            }

            /// Storage of one world query.
            pub(super) struct Call {
                pub order: Vec<u32>,
                pub roots: Vec<S>,
                pub stack: Vec<bdtree_node_pair>,
                pub pairs: Vec<bdtree_world_pair>,
            }

            impl Call {
                pub(super) fn new(n: usize, depth: u32, capacity: usize) -> Self {
                    let d = depth;
                    Self {
                        order: vec![0; n],
                        roots: vec![0.0; 4 * n],
                        stack: vec![
                            bdtree_node_pair::default();
                            stack_capacity(d, d).max(self_stack_capacity(d))
                        ],
                        pairs: vec![bdtree_world_pair::default(); capacity],
                    }
                }

                /// The world query over `bodies` with `filter` (NULL when `None`).
                pub(super) fn run(
                    &mut self,
                    bodies: &[*mut $body],
                    filter: Option<&[u32]>,
                ) -> (bdtree_status, usize, bdtree_world_stats) {
                    let mut count = usize::MAX;
                    let mut stats = bdtree_world_stats::default();
                    let (fp, fl) = filter.map_or((core::ptr::null(), 0), |w| (w.as_ptr(), w.len()));
                    // SAFETY: every buffer holds the length given; the bodies are distinct C
                    // objects (or the case under test).
                    let s = unsafe {
                        $world(
                            bodies.as_ptr(),
                            bodies.len(),
                            self.order.as_mut_ptr(),
                            self.order.len(),
                            self.roots.as_mut_ptr(),
                            self.roots.len() / 4,
                            fp,
                            fl,
                            self.stack.as_mut_ptr(),
                            self.stack.len(),
                            self.pairs.as_mut_ptr(),
                            self.pairs.len(),
                            &mut count,
                            &mut stats,
                        )
                    };
                    (s, count, stats)
                }
            }

            /// The kernel's pairwise answers on bodies of the same images, from Rust: the
            /// union of `collide` over every distinct pair and `collide_self` over every body,
            /// sorted.
            fn kernel_union(
                prepared: &PreparedScene,
                scene: &Scene,
                f: usize,
                origin: [f64; 3],
            ) -> Vec<Contact> {
                let images: Vec<_> = prepared
                    .images
                    .iter()
                    .map(|im| im.parse::<S>().expect("image"))
                    .collect();
                let mut storage: Vec<BodyStorage<S>> = images
                    .iter()
                    .map(|im| BodyStorage::new(im.tree.node_count()))
                    .collect();
                let mut bodies: Vec<_> = storage
                    .iter_mut()
                    .zip(&images)
                    .map(|(st, im)| st.body(im).expect("body"))
                    .collect();
                for (body, (pose, q)) in bodies.iter_mut().zip(&scene.frames[f]) {
                    body.set_state_f64(pose.rotation, pose.translation, q, origin)
                        .expect("state");
                }
                let d = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
                let mut stack = vec![[0u32; 2]; stack_capacity(d, d).max(self_stack_capacity(d))];
                let mut out = Vec::new();
                let n = bodies.len();
                for i in 0..n {
                    let mut sink = |p: bdtree_core::TrianglePair| {
                        out.push((i, i, p.a, p.b));
                        true
                    };
                    let o = collide_self(&mut bodies[i], &mut stack, &mut sink);
                    assert!(o.status.is_complete());
                    for j in i + 1..n {
                        let (head, tail) = bodies.split_at_mut(j);
                        let mut sink = |p: bdtree_core::TrianglePair| {
                            out.push((i, j, p.a, p.b));
                            true
                        };
                        let o = collide(&mut head[i], &mut tail[0], &mut stack, &mut sink);
                        assert!(o.status.is_complete());
                    }
                }
                out.sort_unstable();
                out
            }

            /// Every `stride`-th frame of `scene` with every filter: the world through C
            /// against the kernel's pairwise union and the brute force (`truth[f]`, self pairs
            /// included).
            pub(super) fn check(
                scene: &Scene,
                frames: &[usize],
                truth: &[Vec<Contact>],
                tally: &mut Tally,
            ) {
                let prepared = prepared(scene);
                let mut w = world(&prepared, BDTREE_BODY_VERTEX_CACHE);
                let n = scene.bodies.len();
                let mut call = Call::new(n, w.depth, 1 << 16);
                for (&f, truth) in frames.iter().zip(truth) {
                    let ts: Vec<[f64; 3]> =
                        scene.frames[f].iter().map(|(p, _)| p.translation).collect();
                    let flat: Vec<f64> = ts.iter().flatten().copied().collect();
                    let mut origin = [f64::NAN; 3];
                    let (from, to) = (flat.as_ptr(), origin.as_mut_ptr());
                    // SAFETY: 3n doubles in, 3 out.
                    let s = unsafe { bdtree_floating_origin(from, n, to) };
                    assert_eq!(s, bdtree_status::Ok);
                    assert_eq!(origin, floating_origin(&ts));
                    set(&mut w, scene, f, origin);
                    let ptrs: Vec<*mut $body> = w
                        .bodies
                        .iter_mut()
                        .map(|b| &mut **b as *mut $body)
                        .collect();
                    let kernel = kernel_union(&prepared, scene, f, origin);
                    for case in FILTERS {
                        let case = case.as_ref();
                        let words = case.map(|c| filter_words(n, c));
                        let (s, count, stats) = call.run(&ptrs, words.as_deref());
                        assert_eq!(s, bdtree_status::Ok, "frame {f}");
                        let mut got: Vec<Contact> = call.pairs[..count]
                            .iter()
                            .map(|p| (p.a as usize, p.b as usize, p.triangle_a, p.triangle_b))
                            .collect();
                        got.sort_unstable();
                        let want: Vec<Contact> = kernel
                            .iter()
                            .copied()
                            .filter(|k| allows(case, k.0, k.1))
                            .collect();
                        assert_eq!(
                            got, want,
                            "frame {f}: the world through C against the kernel's pairs"
                        );
                        for t in truth.iter().filter(|t| allows(case, t.0, t.1)) {
                            assert!(got.binary_search(t).is_ok(), "frame {f}: missed {t:?}");
                            tally.true_pairs += 1;
                        }
                        for g in &got {
                            assert!(allows(case, g.0, g.1), "frame {f}: a forbidden pair {g:?}");
                        }
                        assert_eq!(stats.queries.pairs as usize, count);
                        assert!(stats.candidate_pairs <= stats.broad_tests);
                        // Each root sphere as `bdtree_body_sphere` gives it.
                        for (k, &b) in ptrs.iter().enumerate() {
                            let mut sphere = [S::NAN; 4];
                            // SAFETY: a body of the world, 4 scalars.
                            let s = unsafe { $sphere(b, 0, sphere.as_mut_ptr()) };
                            assert_eq!(s, bdtree_status::Ok);
                            assert_eq!(
                                sphere.map(|x| x.to_bits()),
                                [0, 1, 2, 3].map(|c| call.roots[4 * k + c].to_bits())
                            );
                        }
                        tally.pairs += count;
                        tally.self_pairs += got.iter().filter(|g| g.0 == g.1).count();
                        tally.candidates += stats.candidate_pairs as usize;
                    }
                    tally.frames += 1;
                }
            }

            /// The statuses, on frame 0 of `scene`.
            pub(super) fn statuses(scene: &Scene) {
                let prepared = prepared(scene);
                let mut w = world(&prepared, BDTREE_BODY_VERTEX_CACHE);
                let n = scene.bodies.len();
                set(&mut w, scene, 0, [0.0; 3]);
                let ptrs: Vec<*mut $body> = w
                    .bodies
                    .iter_mut()
                    .map(|b| &mut **b as *mut $body)
                    .collect();
                let mut call = Call::new(n, w.depth, 1 << 16);
                let (s, all, _) = call.run(&ptrs, None);
                assert_eq!(s, bdtree_status::Ok);
                assert!(all >= 2, "the scene's first frame has {all} pairs");
                let full: Vec<bdtree_world_pair> = call.pairs[..all].to_vec();
                // A full output: the buffer full of valid pairs, the status says more exist.
                let mut short = Call::new(n, w.depth, all - 1);
                let (s, count, _) = short.run(&ptrs, None);
                assert_eq!((s, count), (bdtree_status::OutputFull, all - 1));
                assert!(short.pairs.iter().all(|p| full.contains(p)));
                // Aliasing: one body twice, first and last or side by side.
                let mut twice = ptrs.clone();
                twice[n - 1] = ptrs[0];
                assert_eq!(call.run(&twice, None).0, bdtree_status::SameBody);
                let twice = [ptrs[1], ptrs[1]];
                assert_eq!(call.run(&twice, None).0, bdtree_status::SameBody);
                // Two overlapping objects (a pointer a word into a body) are refused as one.
                let inside = ptrs[0].cast::<u64>().wrapping_add(1).cast::<$body>();
                let overlapping = [ptrs[0], inside];
                assert_eq!(call.run(&overlapping, None).0, bdtree_status::SameBody);
                // NULL and uninitialised bodies.
                let mut with_null = ptrs.clone();
                with_null[1] = core::ptr::null_mut();
                assert_eq!(call.run(&with_null, None).0, bdtree_status::NullPointer);
                // SAFETY: an all-zero object is what an uninitialised static holds.
                let mut zeroed: Box<$body> = Box::new(unsafe { core::mem::zeroed() });
                let mut with_zeroed = ptrs.clone();
                with_zeroed[2] = &mut *zeroed;
                assert_eq!(
                    call.run(&with_zeroed, None).0,
                    bdtree_status::NotInitialized
                );
                // Too little storage for the bodies.
                let mut few = Call::new(n, w.depth, all);
                few.order.truncate(n - 1);
                assert_eq!(few.run(&ptrs, None).0, bdtree_status::StorageTooSmall);
                let mut few = Call::new(n, w.depth, all);
                few.roots.truncate(4 * (n - 1));
                assert_eq!(few.run(&ptrs, None).0, bdtree_status::StorageTooSmall);
                let case = FilterCase {
                    forbid: &[],
                    selves: &[],
                };
                let words = filter_words(n, &case);
                assert_eq!(
                    call.run(&ptrs, Some(&words[..0])).0,
                    bdtree_status::StorageTooSmall
                );
                // The same filter as NULL gives the same answer.
                let (s, count, _) = call.run(&ptrs, Some(&words));
                assert_eq!((s, count), (bdtree_status::Ok, all));
                // A short stack.
                let mut shallow = Call::new(n, w.depth, all);
                shallow.stack.truncate(2);
                assert_eq!(shallow.run(&ptrs, None).0, bdtree_status::StackTooSmall);
                // Required pointers.
                let mut count = 7usize;
                // SAFETY: NULL bodies with a count, then a NULL count: refused before use.
                let mut refused = |bodies, count| unsafe {
                    $world(
                        bodies,
                        n,
                        call.order.as_mut_ptr(),
                        n,
                        call.roots.as_mut_ptr(),
                        n,
                        core::ptr::null(),
                        0,
                        call.stack.as_mut_ptr(),
                        call.stack.len(),
                        call.pairs.as_mut_ptr(),
                        call.pairs.len(),
                        count,
                        core::ptr::null_mut(),
                    )
                };
                let s = refused(core::ptr::null(), &mut count);
                assert_eq!((s, count), (bdtree_status::NullPointer, 0));
                let s = refused(ptrs.as_ptr(), core::ptr::null_mut());
                assert_eq!(s, bdtree_status::NullPointer);
                // No bodies: nothing to do.
                let (s, count, stats) = call.run(&[], None);
                assert_eq!(
                    (s, count, stats),
                    (bdtree_status::Ok, 0, bdtree_world_stats::default())
                );
            }
        }
    };
}

with_body_names!(world_through_c, f32, in_f32;
    bdtree_body_sphere_f32, bdtree_collide_world_f32);

with_body_names!(world_through_c, f64, in_f64;
    bdtree_body_sphere_f64, bdtree_collide_world_f64);

/// The world through C equals the kernel's pairwise answers and holds the brute force, on
/// the three-body scenes (touching: exact touching), near the origin, 3 km away and with one
/// body 250 units off.
#[test]
fn collide_world_equals_the_kernel_pairs_and_holds_the_brute_force() {
    let mut tally = Tally::default();
    for (path, stride) in [
        ("scenes/touching.json", 1),
        ("scenes/fold.json", 3),
        ("scenes/demo.json", 11),
    ] {
        let base = scene(path);
        let far = moved(base.clone(), [3000.0, -2000.0, 1000.0], None);
        let apart = moved(base.clone(), [250.0, 0.0, 0.0], Some(0));
        for s in [&base, &far, &apart] {
            let frames: Vec<usize> = (0..s.frames.len()).step_by(stride).collect();
            let truth: Vec<Vec<Contact>> = frames
                .iter()
                .map(|&f| brute_force_frame_with(s, f, true))
                .collect();
            in_f32::check(s, &frames, &truth, &mut tally);
            in_f64::check(s, &frames, &truth, &mut tally);
        }
    }
    assert!(
        tally.true_pairs > 0 && tally.self_pairs > 0 && tally.candidates > 0,
        "{tally:?}"
    );
}

#[test]
fn collide_world_statuses() {
    let s = scene("scenes/touching.json");
    in_f32::statuses(&s);
    in_f64::statuses(&s);
}

/// The filter's words: the documented bit of each pair, its statuses, the header's macro.
#[test]
fn pair_filter_words_and_statuses() {
    let n = 9;
    let len = bdtree_pair_filter_words(n);
    assert_eq!(len, (n * (n + 1) / 2).div_ceil(32));
    let mut words = vec![0u32; len];
    // SAFETY: `len` words (and shorter lengths given where a status is tested).
    unsafe {
        let p = words.as_mut_ptr();
        assert_eq!(
            bdtree_pair_filter_init(p, len - 1, n),
            bdtree_status::StorageTooSmall
        );
        assert_eq!(
            bdtree_pair_filter_init(core::ptr::null_mut(), len, n),
            bdtree_status::NullPointer
        );
        assert_eq!(
            bdtree_pair_filter_init(p, len, usize::MAX),
            bdtree_status::BadArgument
        );
        assert_eq!(bdtree_pair_filter_init(p, len, n), bdtree_status::Ok);
        assert_eq!(
            bdtree_pair_filter_set(p, len, n, 3, n, true),
            bdtree_status::BadArgument
        );
        assert_eq!(
            bdtree_pair_filter_set(p, len - 1, n, 3, 4, true),
            bdtree_status::StorageTooSmall
        );
        assert_eq!(
            bdtree_pair_filter_set(p, len, n, 6, 2, false),
            bdtree_status::Ok
        );
        assert_eq!(
            bdtree_pair_filter_set(p, len, n, 5, 5, true),
            bdtree_status::Ok
        );
        for i in 0..n {
            for j in 0..n {
                let want = if i == j {
                    i == 5
                } else {
                    (i.min(j), i.max(j)) != (2, 6)
                };
                assert_eq!(
                    bdtree_pair_filter_allows(p, len, n, i, j),
                    want,
                    "({i}, {j})"
                );
                let (lo, hi) = (i.min(j), i.max(j));
                let k = hi * (hi + 1) / 2 + lo;
                assert_eq!(
                    words[k / 32] >> (k % 32) & 1 == 1,
                    want,
                    "bit of ({i}, {j})"
                );
            }
        }
        assert!(!bdtree_pair_filter_allows(p, len, n, 0, n));
        assert!(!bdtree_pair_filter_allows(core::ptr::null(), len, n, 0, 1));
        assert!(!bdtree_pair_filter_allows(p, len - 1, n, 0, 1));
    }
    assert_eq!(bdtree_pair_filter_words(usize::MAX), usize::MAX);
}
