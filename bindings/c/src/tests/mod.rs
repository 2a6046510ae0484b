//! The crate's tests, one file per concept of the library (`boxes`, `closer`, `contacts`,
//! `jacobian`, `response`, `self_collision`, `swept`, `world`), each calling it through the C names only
//! ([`crate::c_names`]); `layout` holds the floor plan of the crate docs. What the files share:
//! `with_body_names!`, which expands a file's test macro in one precision with the C names every
//! file takes, `scene_bodies!` (and `scene_module!`), a scene's images and bodies set up through
//! C, and `aligned`, bytes in 8-byte aligned storage.

/// Expands the test macro `$test` in one precision (`f32` or `f64`): its first argument (a module
/// or test name), then the scalar, the build precision and the C names every test file takes —
/// image and body types, `bdtree_image_parse_*`, `bdtree_image_info_*`,
/// `bdtree_body_storage_size_*`, `bdtree_body_init_*`, `bdtree_body_set_state_from_f64_*` —, then
/// the file's own arguments (after the `;`).
macro_rules! with_body_names {
    ($test:ident, f32, $first:ident; $($own:tt)*) => {
        $test!($first, f32, Precision::F32, bdtree_image_f32, bdtree_body_f32,
            bdtree_image_parse_f32, bdtree_image_info_f32, bdtree_body_storage_size_f32,
            bdtree_body_init_f32, bdtree_body_set_state_from_f64_f32, $($own)*);
    };
    ($test:ident, f64, $first:ident; $($own:tt)*) => {
        $test!($first, f64, Precision::F64, bdtree_image_f64, bdtree_body_f64,
            bdtree_image_parse_f64, bdtree_image_info_f64, bdtree_body_storage_size_f64,
            bdtree_body_init_f64, bdtree_body_set_state_from_f64_f64, $($own)*);
    };
}

/// A scene's images parsed through C and bodies of them, storage and objects boxed (the C
/// objects hold pointers into them): `World`, `world(prepared, options)` (a body per mesh body;
/// `options` of `bdtree_body_init_*`), `world_of(images, options, copies)` (`copies` bodies of
/// each image), `set_body` (body `b` at frame `f`, placed at `origin`) and `set_state` (body `b`
/// at a pose and `q`). Expanded in each precision module of a test file with that precision's
/// C names (`scene_module!` makes such a module).
macro_rules! scene_bodies {
    ($image:ty, $body:ty, $parse:ident, $info:ident, $size:ident, $init:ident, $set:ident) => {
        /// The scene's images and bodies (see `scene_bodies!`).
        #[allow(dead_code)] // each file uses a part
        pub(super) struct World {
            _words: Vec<Vec<u64>>,
            _storage: Vec<Vec<u64>>,
            pub images: Vec<std::boxed::Box<$image>>,
            pub infos: Vec<bdtree_image_info>,
            pub bodies: Vec<std::boxed::Box<$body>>,
            pub depth: u32,
        }

        #[allow(dead_code)]
        pub(super) fn world(prepared: &bdtree_std::runner::PreparedScene, options: u32) -> World {
            world_of(&prepared.images, options, 1)
        }

        /// `copies` bodies of each image: body `k` of image `k / copies`.
        #[allow(dead_code)]
        pub(super) fn world_of<'a>(
            images: impl IntoIterator<Item = &'a bdtree_std::io::ImageBuf>,
            options: u32,
            copies: usize,
        ) -> World {
            let images: Vec<&bdtree_std::io::ImageBuf> = images.into_iter().collect();
            let mut w = World {
                _words: images
                    .iter()
                    .map(|im| crate::tests::aligned(im.as_bytes()))
                    .collect(),
                _storage: Vec::new(),
                images: Vec::new(),
                infos: Vec::new(),
                bodies: Vec::new(),
                depth: 0,
            };
            // SAFETY: zeroed objects are what parse/init expect; every pointer is valid for the
            // length given and outlives the objects (all kept in `World`).
            unsafe {
                for (words, im) in w._words.iter().zip(&images) {
                    let mut image = std::boxed::Box::<$image>::new(core::mem::zeroed());
                    let s = $parse(words.as_ptr().cast(), im.as_bytes().len(), &mut *image);
                    assert_eq!(s, bdtree_status::Ok);
                    let mut info = bdtree_image_info::default();
                    assert_eq!($info(&*image, &mut info), bdtree_status::Ok);
                    w.depth = w.depth.max(info.depth);
                    for _ in 0..copies {
                        let need = $size(&*image, options);
                        let mut block = vec![0u64; need.div_ceil(8)];
                        let mut body = std::boxed::Box::<$body>::new(core::mem::zeroed());
                        let s = $init(
                            &mut *body,
                            &*image,
                            block.as_mut_ptr().cast(),
                            need,
                            options,
                        );
                        assert_eq!(s, bdtree_status::Ok);
                        w._storage.push(block);
                        w.bodies.push(body);
                    }
                    w.images.push(image);
                    w.infos.push(info);
                }
            }
            w
        }

        /// Body `b`'s state of frame `f`, placed at `origin`.
        #[allow(dead_code)]
        pub(super) fn set_body(
            world: &mut World,
            scene: &bdtree_std::io::Scene,
            f: usize,
            b: usize,
            origin: [f64; 3],
        ) {
            let (pose, q) = &scene.frames[f][b];
            set_state(world, b, pose, q, origin);
        }

        /// Body `b` at `pose` and `q`, placed at `origin`.
        #[allow(dead_code)]
        pub(super) fn set_state(
            world: &mut World,
            b: usize,
            pose: &bdtree_std::io::Pose,
            q: &[f64],
            origin: [f64; 3],
        ) {
            // SAFETY: 4, 3, 3 and `q.len()` doubles; a body of the world.
            let s = unsafe {
                $set(
                    &mut *world.bodies[b],
                    pose.rotation.as_ptr(),
                    pose.translation.as_ptr(),
                    origin.as_ptr(),
                    q.as_ptr(),
                    q.len(),
                )
            };
            assert_eq!(s, bdtree_status::Ok);
        }
    };
}

/// A module `$module` with `scene_bodies!` in one precision, for a file whose test macros
/// expand one test each: `with_body_names!(scene_module, f32, in_f32;)`.
macro_rules! scene_module {
    ($module:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, ) => {
        mod $module {
            use super::*;
            scene_bodies!($image, $body, $parse, $info, $size, $init, $set);
        }
    };
}

/// Bytes copied into 8-byte aligned storage (what an image and a body's storage need).
pub(crate) fn aligned(bytes: &[u8]) -> Vec<u64> {
    let mut words = vec![0u64; bytes.len().div_ceil(8)];
    for (k, b) in bytes.iter().enumerate() {
        words[k / 8] |= u64::from(*b) << (8 * (k % 8));
    }
    words
}

use std::vec;
use std::vec::Vec;

mod boxes;
mod closer;
mod contacts;
mod jacobian;
mod layout;
mod response;
mod self_collision;
mod swept;
mod world;
