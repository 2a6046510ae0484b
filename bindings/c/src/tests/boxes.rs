//! Box bounds through the C functions only (`bdtree_box_table_init_*`,
//! `bdtree_collide_boxes_*`): on the touching, fold and demo fixture scenes, as given, moved
//! 3 km away and with one body 250 units off, each pair placed at its own floating origin by
//! `bdtree_floating_origin`, bodies with and without the vertex cache, both box tests:
//!
//! * the pairs equal the kernel's `collide_boxes` on the same images, tables and states, in
//!   order, bit for bit;
//! * refined (`bdtree_refine_*`), they equal `bdtree_collide_*`'s refined pairs;
//! * every f64 brute-force pair is among them;
//!
//! and the tables are the CLI's (`bdtree_std::build::box_file`, what `bdtree boxes` writes);
//! bad tables and arguments get their documented status.

use std::boxed::Box;
use std::collections::BTreeSet;
use std::vec;
use std::vec::Vec;

use bdtree_core::query::boxes::{collide_boxes, BoxTable, BoxTest};
use bdtree_core::{floating_origin, stack_capacity, TrianglePair};
use bdtree_std::build::{box_file, box_table, BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{brute_force_frame, prepare, PreparedScene};
use bdtree_std::BodyStorage;

use super::aligned;
use super::closer::{moved, scene};
use crate::c_names::*;

/// `bdtree_floating_origin` of two translations, checked equal (bits) to the kernel's.
fn c_origin(ts: [[f64; 3]; 2]) -> [f64; 3] {
    let flat: Vec<f64> = ts.iter().flatten().copied().collect();
    let mut origin = [f64::NAN; 3];
    // SAFETY: 6 doubles in, 3 out.
    let s = unsafe { bdtree_floating_origin(flat.as_ptr(), 2, origin.as_mut_ptr()) };
    assert_eq!(s, bdtree_status::Ok);
    assert_eq!(
        origin.map(f64::to_bits),
        floating_origin(&ts).map(f64::to_bits)
    );
    origin
}

/// What the checks saw: pairs found by the box queries, brute-force pairs held.
#[derive(Debug, Default)]
struct Tally {
    found: usize,
    truth: usize,
}

macro_rules! boxes_through_c {
    ($module:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $table:ty, $table_init:ident, $collide:ident,
     $boxes:ident, $refine:ident) => {
        mod $module {
            use super::*;

            type S = $s;

            scene_bodies!($image, $body, $parse, $info, $size, $init, $set);

            /// The scene's images and bodies (`World`, which it dereferences to) with the
            /// images' box tables (the CLI's files, kept aligned; the tables are boxed: the C
            /// objects hold pointers into them).
            pub(super) struct Tabled {
                world: World,
                _files: Vec<Vec<u64>>,
                pub(super) tables: Vec<Box<$table>>,
            }

            impl core::ops::Deref for Tabled {
                type Target = World;
                fn deref(&self) -> &World {
                    &self.world
                }
            }

            impl core::ops::DerefMut for Tabled {
                fn deref_mut(&mut self) -> &mut World {
                    &mut self.world
                }
            }

            /// [`world`] with each image's box table.
            pub(super) fn tabled(prepared: &PreparedScene, options: u32) -> Tabled {
                let world = world(prepared, options);
                let mut w = Tabled { world, _files: Vec::new(), tables: Vec::new() };
                for (image, im) in w.world.images.iter().zip(&prepared.images) {
                    let file = box_file(&im.parse::<S>().expect("image")).expect("complete");
                    let words = aligned(&file);
                    // SAFETY: a zeroed object is what init expects; `words` holds `file.len()`
                    // bytes and outlives the table (both kept in `Tabled`).
                    let mut table: Box<$table> = Box::new(unsafe { core::mem::zeroed() });
                    // SAFETY: as above; an image object of the world.
                    let s = unsafe {
                        $table_init(words.as_ptr().cast(), file.len(), &**image, &mut *table)
                    };
                    assert_eq!(s, bdtree_status::Ok);
                    w._files.push(words);
                    w.tables.push(table);
                }
                w
            }

            /// `bdtree_collide_boxes_*` of bodies `i`, `j` with tables `ti`, `tj` and `axes`.
            pub(super) fn c_boxes(
                w: &mut Tabled,
                (i, ti): (usize, usize),
                (j, tj): (usize, usize),
                axes: u32,
                len: usize,
            ) -> (bdtree_status, Vec<bdtree_triangle_pair>) {
                let full = stack_capacity(w.depth, w.depth);
                let mut stack = vec![bdtree_node_pair::default(); len.min(full)];
                let mut pairs = vec![bdtree_triangle_pair::default(); 1 << 16];
                let (mut count, mut stats) = (usize::MAX, bdtree_stats::default());
                let (table_i, table_j): (*const $table, *const $table) =
                    (&*w.tables[ti], &*w.tables[tj]);
                let (head, tail) = w.bodies.split_at_mut(j);
                // SAFETY: distinct bodies; tables of the world; buffers of the lengths given.
                let s = unsafe {
                    $boxes(
                        &mut *head[i],
                        table_i,
                        &mut *tail[0],
                        table_j,
                        axes,
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        &mut stats,
                    )
                };
                pairs.truncate(count);
                (s, pairs)
            }

            fn c_spheres(w: &mut World, i: usize, j: usize) -> Vec<bdtree_triangle_pair> {
                let mut stack = vec![bdtree_node_pair::default(); stack_capacity(w.depth, w.depth)];
                let mut pairs = vec![bdtree_triangle_pair::default(); 1 << 16];
                let mut count = 0;
                let (head, tail) = w.bodies.split_at_mut(j);
                // SAFETY: distinct bodies; buffers of the lengths given.
                let s = unsafe {
                    $collide(
                        &mut *head[i],
                        &mut *tail[0],
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        core::ptr::null_mut(),
                    )
                };
                assert_eq!(s, bdtree_status::Ok);
                pairs.truncate(count);
                pairs
            }

            /// `bdtree_refine_*` of a pair list, as a set.
            fn c_refined(w: &World, i: usize, j: usize, mut pairs: Vec<bdtree_triangle_pair>) -> BTreeSet<(u32, u32)> {
                let mut kept = 0;
                // SAFETY: bodies of the world; `pairs` holds `pairs.len()` entries.
                let s = unsafe { $refine(&*w.bodies[i], &*w.bodies[j], pairs.as_mut_ptr(), pairs.len(), &mut kept) };
                assert_eq!(s, bdtree_status::Ok);
                pairs[..kept].iter().map(|p| (p.a, p.b)).collect()
            }

            /// The kernel's `collide_boxes` on bodies of the same images (with a vertex cache
            /// when `options` asks for one), states and the host's tables, from Rust.
            fn kernel_boxes(
                prepared: &PreparedScene,
                scene: &Scene,
                f: usize,
                (i, j): (usize, usize),
                origin: [f64; 3],
                options: u32,
                test: BoxTest,
            ) -> Vec<(u32, u32)> {
                let parse = |k: usize| prepared.images[k].parse::<S>().expect("image");
                let (ia, ib) = (parse(i), parse(j));
                let (ra, rb) = (box_table(&ia), box_table(&ib));
                let ta = BoxTable::new(&ra, &ia.tree).expect("table a");
                let tb = BoxTable::new(&rb, &ib.tree).expect("table b");
                let mut ca = BodyStorage::new(ia.tree.node_count());
                let mut cb = BodyStorage::new(ib.tree.node_count());
                let cached = options & BDTREE_BODY_VERTEX_CACHE != 0;
                let verts = |im: &bdtree_core::Image<'_, S>| {
                    vec![bdtree_core::VertexEntry::<S>::default(); if cached { im.model.vertex_count() } else { 0 }]
                };
                let (mut va, mut vb) = (verts(&ia), verts(&ib));
                let mut a = ca.body(&ia).expect("a");
                let mut b = cb.body(&ib).expect("b");
                if cached {
                    a = a.with_vertex_cache(&mut va).expect("vertex cache a");
                    b = b.with_vertex_cache(&mut vb).expect("vertex cache b");
                }
                for (body, k) in [(&mut a, i), (&mut b, j)] {
                    let (pose, q) = &scene.frames[f][k];
                    body.set_state_f64(pose.rotation, pose.translation, q, origin)
                        .expect("state");
                }
                let mut stack = vec![[0u32; 2]; stack_capacity(ia.tree.depth(), ib.tree.depth())];
                let mut found = Vec::new();
                let outcome = collide_boxes(&mut a, &mut b, &ta, &tb, test, &mut stack, &mut |p: TrianglePair| {
                    found.push((p.a, p.b));
                    true
                });
                assert!(outcome.status.is_complete(), "{:?}", outcome.status);
                found
            }

            /// Frames `frames` of `scene`, every body pair, both box tests, bodies made with
            /// `options`.
            pub(super) fn check(scene: &Scene, frames: &[usize], options: u32, tally: &mut Tally) {
                let built = BuildOptions {
                    precision: $precision,
                    ..BuildOptions::default()
                };
                let prepared = prepare(scene, built).expect("build");
                let mut w = tabled(&prepared, options);
                let n = scene.bodies.len();
                for &f in frames {
                    let truth = brute_force_frame(scene, f);
                    for i in 0..n {
                        for j in i + 1..n {
                            let ts = [scene.frames[f][i].0.translation, scene.frames[f][j].0.translation];
                            let origin = c_origin(ts);
                            set_body(&mut w, scene, f, i, origin);
                            set_body(&mut w, scene, f, j, origin);
                            let spheres = c_spheres(&mut w, i, j);
                            let refined_spheres = c_refined(&w, i, j, spheres);
                            let want: Vec<(u32, u32)> = truth
                                .iter()
                                .filter(|c| (c.0, c.1) == (i, j))
                                .map(|c| (c.2, c.3))
                                .collect();
                            for (axes, test) in [(BDTREE_BOX_AXES_15, BoxTest::Exact), (BDTREE_BOX_AXES_6, BoxTest::FaceAxes)] {
                                let at = std::format!("frame {f}, bodies {i} {j}, {axes} axes, options {options}");
                                let (s, pairs) = c_boxes(&mut w, (i, i), (j, j), axes, usize::MAX);
                                assert_eq!(s, bdtree_status::Ok, "{at}");
                                let got: Vec<(u32, u32)> = pairs.iter().map(|p| (p.a, p.b)).collect();
                                let kernel = kernel_boxes(&prepared, scene, f, (i, j), origin, options, test);
                                assert_eq!(got, kernel, "{at}: C and the kernel differ");
                                let refined = c_refined(&w, i, j, pairs);
                                assert_eq!(refined, refined_spheres, "{at}: box and sphere pairs differ after refinement");
                                for p in &want {
                                    assert!(refined.contains(p), "{at}: brute-force pair {p:?} missed");
                                }
                                tally.found += got.len();
                                tally.truth += want.len();
                            }
                        }
                    }
                }
            }
        }
    };
}

with_body_names!(boxes_through_c, f32, in_f32;
    bdtree_box_table_f32, bdtree_box_table_init_f32, bdtree_collide_f32,
    bdtree_collide_boxes_f32, bdtree_refine_f32);

with_body_names!(boxes_through_c, f64, in_f64;
    bdtree_box_table_f64, bdtree_box_table_init_f64, bdtree_collide_f64,
    bdtree_collide_boxes_f64, bdtree_refine_f64);

/// Every `stride`-th frame of a scene, from `first`.
fn frames(scene: &Scene, first: usize, stride: usize) -> Vec<usize> {
    (first.min(scene.frames.len() - 1)..scene.frames.len())
        .step_by(stride)
        .collect()
}

/// The scene at `path` as given, 3 km away and with body 0 250 units off, in both
/// precisions, with and without the vertex cache.
fn check_scene(path: &str, stride: usize) -> Tally {
    let base = scene(path);
    let far = moved(base.clone(), [3000.0, -2000.0, 1000.0], None);
    let apart = moved(base.clone(), [250.0, 0.0, 0.0], Some(0));
    let mut tally = Tally::default();
    for (first, s) in [&base, &far, &apart].into_iter().enumerate() {
        let frames = frames(s, first, stride);
        for options in [0, BDTREE_BODY_VERTEX_CACHE] {
            in_f32::check(s, &frames, options, &mut tally);
            in_f64::check(s, &frames, options, &mut tally);
        }
    }
    tally
}

#[test]
fn box_pairs_equal_the_kernel_and_hold_the_brute_force_on_touching_bodies() {
    let tally = check_scene("scenes/touching.json", 1);
    assert!(tally.truth > 0 && tally.found >= tally.truth, "{tally:?}");
}

#[test]
fn box_pairs_equal_the_kernel_and_hold_the_brute_force_on_deformed_bodies() {
    let mut tally = check_scene("scenes/fold.json", 2);
    let demo = check_scene("scenes/demo.json", 6);
    tally.found += demo.found;
    tally.truth += demo.truth;
    assert!(tally.truth > 0 && tally.found >= tally.truth, "{tally:?}");
}

/// `bdtree_box_table_init_f32` of `file` against image `k` of the world, into a fresh object
/// (aligned copy of the bytes, kept alive by the caller through `keep`).
fn init_f32(
    w: &in_f32::World,
    k: usize,
    file: &[u8],
    keep: &mut Vec<Vec<u64>>,
) -> (bdtree_status, Box<bdtree_box_table_f32>) {
    let words = aligned(file);
    // SAFETY: a zeroed object; `words` holds `file.len()` bytes and is kept by the caller.
    let mut table: Box<bdtree_box_table_f32> = Box::new(unsafe { core::mem::zeroed() });
    // SAFETY: as above; an image object of the world.
    let s = unsafe {
        bdtree_box_table_init_f32(
            words.as_ptr().cast(),
            file.len(),
            &*w.images[k],
            &mut *table,
        )
    };
    keep.push(words);
    (s, table)
}

/// The box table file with its rows' checksum recomputed (so a changed value is what is
/// refused, not the checksum).
fn resealed(mut file: Vec<u8>) -> Vec<u8> {
    let crc = bdtree_core::crc32(&file[32..]);
    file[28..32].copy_from_slice(&crc.to_le_bytes());
    file
}

#[test]
fn bad_box_tables_and_arguments_get_their_status() {
    let s = scene("scenes/touching.json");
    let prepared = prepare(&s, BuildOptions::default()).expect("build");
    let mut w = in_f32::tabled(&prepared, 0);
    let file =
        |k: usize| box_file(&prepared.images[k].parse::<f32>().expect("image")).expect("complete");
    let (good, other) = (file(0), file(1));
    let mut keep = Vec::new();
    let mut refused = |bytes: &[u8], k: usize, want: bdtree_status, what: &str| {
        let (got, _) = init_f32(&w, k, bytes, &mut keep);
        assert_eq!(got, want, "{what}");
    };
    refused(&good, 0, bdtree_status::Ok, "the CLI's table");
    refused(
        &other,
        0,
        bdtree_status::BoxTableWrongTree,
        "another body's table",
    );
    refused(
        &good[..good.len() - 1],
        0,
        bdtree_status::BoxTableTooShort,
        "one byte short",
    );
    refused(
        &good[..20],
        0,
        bdtree_status::BoxTableTooShort,
        "a header cut short",
    );
    refused(
        &good[..4],
        0,
        bdtree_status::BoxTableTooShort,
        "a magic cut short",
    );
    let mut longer = good.clone();
    longer.extend_from_slice(&[0; 16]);
    refused(
        &longer,
        0,
        bdtree_status::BoxTableLengthMismatch,
        "16 bytes more",
    );
    let mut magic = good.clone();
    magic[0] ^= 1;
    refused(&magic, 0, bdtree_status::BoxTableBadMagic, "bad magic");
    let mut version = good.clone();
    version[8] = 2;
    refused(
        &version,
        0,
        bdtree_status::BoxTableUnsupportedVersion,
        "version 2",
    );
    let mut scalar = good.clone();
    scalar[12] = 8;
    refused(
        &scalar,
        0,
        bdtree_status::BoxTableScalarMismatch,
        "f64 scalars",
    );
    let mut crc = good.clone();
    crc[24] ^= 1;
    refused(
        &crc,
        0,
        bdtree_status::BoxTableWrongTree,
        "another image's checksum",
    );
    // A corrupted value: caught by the checksum, and (checksum resealed) by the bounds when
    // it breaks one. A value lowered within its bounds is caught by the checksum only.
    let modes = prepared.images[0]
        .parse::<f32>()
        .expect("image")
        .tree
        .modes();
    let row = |node: usize| 32 + node * 16 * (modes + 1);
    let mut lowered = good.clone();
    lowered[row(3)..row(3) + 4].copy_from_slice(&0.0f32.to_le_bytes());
    refused(
        &lowered,
        0,
        bdtree_status::BoxTableChecksumMismatch,
        "a value lowered",
    );
    for (bad, what) in [
        (f32::NAN, "NaN"),
        (-1.0, "negative"),
        (1e30, "above the sphere's radius"),
    ] {
        let mut v = good.clone();
        v[row(3)..row(3) + 4].copy_from_slice(&bad.to_le_bytes());
        refused(&resealed(v), 0, bdtree_status::BoxTableBadValue, what);
    }
    let mut lane = good.clone();
    lane[row(3) + 12..row(3) + 16].copy_from_slice(&1.0f32.to_le_bytes());
    refused(
        &resealed(lane),
        0,
        bdtree_status::BoxTableBadValue,
        "a fourth lane not zero",
    );
    // The other precision's table.
    let file64 = box_file(
        &prepare(
            &s,
            BuildOptions {
                precision: Precision::F64,
                ..BuildOptions::default()
            },
        )
        .expect("build")
        .images[0]
            .parse::<f64>()
            .expect("image"),
    )
    .expect("complete");
    refused(
        &file64,
        0,
        bdtree_status::BoxTableScalarMismatch,
        "an f64 table",
    );

    // Pointers: NULL bytes, image or table; misaligned bytes; an image never parsed.
    let words = aligned(&good);
    // SAFETY: each call passes valid memory or NULL (refused before use).
    unsafe {
        let mut table: bdtree_box_table_f32 = core::mem::zeroed();
        let p: *const u8 = words.as_ptr().cast();
        let n = good.len();
        assert_eq!(
            bdtree_box_table_init_f32(core::ptr::null(), n, &*w.images[0], &mut table),
            bdtree_status::NullPointer
        );
        assert_eq!(
            bdtree_box_table_init_f32(p, n, core::ptr::null(), &mut table),
            bdtree_status::NullPointer
        );
        assert_eq!(
            bdtree_box_table_init_f32(p, n, &*w.images[0], core::ptr::null_mut()),
            bdtree_status::NullPointer
        );
        let mut shifted = vec![0u8; n + 1];
        let at = usize::from(shifted.as_ptr().align_offset(4) == 0);
        shifted[at..at + n].copy_from_slice(&good);
        assert_eq!(
            bdtree_box_table_init_f32(shifted.as_ptr().add(at), n, &*w.images[0], &mut table),
            bdtree_status::Misaligned
        );
        let never: bdtree_image_f32 = core::mem::zeroed();
        assert_eq!(
            bdtree_box_table_init_f32(p, n, &never, &mut table),
            bdtree_status::NotInitialized
        );
    }

    // The query: tables swapped (each table is another body's), wrong axes, a table whose
    // re-initialisation failed, a short stack, one body twice.
    let (s0, t) = in_f32::c_boxes(&mut w, (0, 1), (1, 0), BDTREE_BOX_AXES_15, usize::MAX);
    assert_eq!((s0, t.len()), (bdtree_status::BoxTableWrongTree, 0));
    for axes in [0, 1, 3, 5, 7, 9, 14, 16, u32::MAX] {
        let (status, _) = in_f32::c_boxes(&mut w, (0, 0), (1, 1), axes, usize::MAX);
        assert_eq!(status, bdtree_status::BadArgument, "{axes} axes");
    }
    let (status, _) = in_f32::c_boxes(&mut w, (0, 0), (1, 1), BDTREE_BOX_AXES_6, 2);
    assert_eq!(status, bdtree_status::StackTooSmall);
    let bad = resealed({
        let mut v = good.clone();
        v[row(0)..row(0) + 4].copy_from_slice(&(-1.0f32).to_le_bytes());
        v
    });
    // SAFETY: the world's table object and an aligned copy of `bad`, alive for the call.
    let status = unsafe {
        let words = aligned(&bad);
        bdtree_box_table_init_f32(
            words.as_ptr().cast(),
            bad.len(),
            &*w.images[0],
            &mut *w.tables[0],
        )
    };
    assert_eq!(status, bdtree_status::BoxTableBadValue);
    let (status, _) = in_f32::c_boxes(&mut w, (0, 0), (1, 1), BDTREE_BOX_AXES_15, usize::MAX);
    assert_eq!(
        status,
        bdtree_status::NotInitialized,
        "a table whose init failed"
    );
    let mut stack = vec![bdtree_node_pair::default(); 64];
    let mut pairs = vec![bdtree_triangle_pair::default(); 8];
    let mut count = 0;
    let body: *mut bdtree_body_f32 = &mut *w.bodies[0];
    // SAFETY: one body passed twice is refused before any use.
    let status = unsafe {
        bdtree_collide_boxes_f32(
            body,
            &*w.tables[1],
            body,
            &*w.tables[1],
            BDTREE_BOX_AXES_15,
            stack.as_mut_ptr(),
            stack.len(),
            pairs.as_mut_ptr(),
            pairs.len(),
            &mut count,
            core::ptr::null_mut(),
        )
    };
    assert_eq!(status, bdtree_status::SameBody);
}

#[test]
fn a_bounded_image_has_no_box_table() {
    let s = scene("scenes/touching.json");
    let options = BuildOptions {
        nested: true,
        ..BuildOptions::default()
    };
    let prepared = prepare(&s, options).expect("build");
    let full = prepared.images[0].parse::<f32>().expect("image");
    let good = box_file(&full).expect("complete");
    let (bounded, _) =
        bdtree_std::build::compact(&full, bdtree_core::Encoding::Float, Some(2), false)
            .expect("bounded");
    assert!(box_file(&bounded.parse::<f32>().expect("bounded image")).is_none());
    let words = aligned(bounded.as_bytes());
    let table_words = aligned(&good);
    // SAFETY: zeroed objects; aligned copies of the bytes, alive for the calls.
    unsafe {
        let mut image: bdtree_image_f32 = core::mem::zeroed();
        let s = bdtree_image_parse_f32(words.as_ptr().cast(), bounded.as_bytes().len(), &mut image);
        assert_eq!(s, bdtree_status::Ok);
        let mut table: bdtree_box_table_f32 = core::mem::zeroed();
        let s =
            bdtree_box_table_init_f32(table_words.as_ptr().cast(), good.len(), &image, &mut table);
        assert_eq!(s, bdtree_status::Truncated);
    }
}
