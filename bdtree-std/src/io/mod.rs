//! **Files in and out**: meshes, bases, scenes and tree image files. The first room of the
//! pipeline; it imports no other room.
//!
//! | file | what |
//! |---|---|
//! | `mesh.rs` | [`Mesh`] and its checks |
//! | `load.rs` | [`load_mesh`]: the reader chosen by the file's extension |
//! | `obj.rs`, `ply.rs` (+ `ply/header.rs`), `stl.rs` | one reader per mesh format; `obj.rs` also writes OBJ |
//! | `text.rs` | the tokenizer the text readers share |
//! | `basis.rs` | [`Basis`]: the displacement basis `U` (3N × M) |
//! | `npy.rs` (+ `npy/header.rs`) | NumPy `.npy` bases: [`load_npy`], [`parse_npy`], [`write_npy`] |
//! | `pose.rs` | [`Pose`]: the f64 rigid pose of scene files |
//! | `scene.rs` (+ `scene/tests.rs`) | scene files: [`SceneFile`] as written, [`Scene`] loaded and checked |
//! | `image.rs` | [`ImageBuf`]: tree image bytes, aligned, read from and written to `.bdt` files |
//!
//! Every reader returns either a valid value or a [`crate::LoadError`] naming the file, the
//! place in it and the problem; none panics on any input.

pub mod basis;
pub mod image;
pub mod load;
pub mod mesh;
pub mod npy;
pub mod obj;
pub mod ply;
pub mod pose;
pub mod scene;
pub mod stl;
mod text;

pub use basis::Basis;
pub use image::ImageBuf;
pub use load::load_mesh;
pub use mesh::Mesh;
pub use npy::{load_npy, parse_npy, write_npy};
pub use obj::{parse_obj, write_obj};
pub use ply::parse_ply;
pub use pose::Pose;
pub use scene::{BodyFrame, BodySpec, FrameSpec, Scene, SceneBody, SceneFile, TREE_NAMES};
pub use stl::parse_stl;
