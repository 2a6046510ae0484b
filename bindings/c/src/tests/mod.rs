//! The crate's tests, one file per concept of the library (`boxes`, `closer`, `contacts`,
//! `jacobian`, `response`, `self_collision`, `swept`, `world`), each calling it through the C names only
//! ([`crate::c_names`]); `layout` holds the floor plan of the crate docs. What the files share:
//! `with_body_names!`, which expands a file's test macro in one precision with the C names every
//! file takes, and `scene_bodies!`, a scene's images and bodies set up through C.

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

/// A scene's images parsed through C and a body per mesh body, storage and objects boxed (the C
/// objects hold pointers into them): `World`, `world(prepared, options)` (`options` of
/// `bdtree_body_init_*`) and `set_body` (body `b` at frame `f`, placed at `origin`). Expanded in
/// each precision module of a test file with that precision's C names.
macro_rules! scene_bodies {
    ($image:ty, $body:ty, $parse:ident, $info:ident, $size:ident, $init:ident, $set:ident) => {
        /// The scene's images and bodies (see `scene_bodies!`).
        pub(super) struct World {
            _words: Vec<Vec<u64>>,
            _storage: Vec<Vec<u64>>,
            _images: Vec<Box<$image>>,
            pub bodies: Vec<Box<$body>>,
            pub depth: u32,
        }

        pub(super) fn world(prepared: &PreparedScene, options: u32) -> World {
            let words: Vec<Vec<u64>> = prepared
                .images
                .iter()
                .map(|im| aligned(im.as_bytes()))
                .collect();
            let (mut images, mut bodies, mut storage, mut depth) =
                (Vec::new(), Vec::new(), Vec::new(), 0);
            // SAFETY: zeroed objects are what parse/init expect; every pointer is valid for the
            // length given and outlives the objects (all kept in `World`).
            unsafe {
                for (w, im) in words.iter().zip(&prepared.images) {
                    let mut image: Box<$image> = Box::new(core::mem::zeroed());
                    let s = $parse(w.as_ptr().cast(), im.as_bytes().len(), &mut *image);
                    assert_eq!(s, bdtree_status::Ok);
                    let mut info = bdtree_image_info::default();
                    assert_eq!($info(&*image, &mut info), bdtree_status::Ok);
                    depth = depth.max(info.depth);
                    let need = $size(&*image, options);
                    let mut block = vec![0u64; need.div_ceil(8)];
                    let mut body: Box<$body> = Box::new(core::mem::zeroed());
                    let s = $init(
                        &mut *body,
                        &*image,
                        block.as_mut_ptr().cast(),
                        need,
                        options,
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    storage.push(block);
                    images.push(image);
                    bodies.push(body);
                }
            }
            World {
                _words: words,
                _storage: storage,
                _images: images,
                bodies,
                depth,
            }
        }

        /// Body `b`'s state of frame `f`, placed at `origin`.
        pub(super) fn set_body(
            world: &mut World,
            scene: &Scene,
            f: usize,
            b: usize,
            origin: [f64; 3],
        ) {
            let (pose, q) = &scene.frames[f][b];
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

mod boxes;
mod closer;
mod contacts;
mod jacobian;
mod layout;
mod response;
mod self_collision;
mod swept;
mod world;
