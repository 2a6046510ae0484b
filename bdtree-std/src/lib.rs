//! Host companion of `bdtree-core`: loading meshes, bases and scenes, building tree images in
//! f64, the brute-force oracle, vibration modes of closed meshes ([`modal`]), pictures ([`render`]: PNG and SVG) and
//! exports ([`export`]: PLY and OBJ), and the `bdtree` command-line tool.

pub mod basis;
pub mod budget;
pub mod builder;
pub mod chairs;
pub mod collide;
pub mod compact;
pub mod error;
pub mod export;
pub mod inspect;
pub mod local;
pub mod mesh;
pub mod modal;
/// The modal analysis under its former name.
pub use modal as modes;
pub mod obb;
pub mod oracle;
pub mod procedural;
pub mod render;
#[cfg(feature = "rerun")]
pub mod rerun_log;
pub mod scene;
pub mod storage;
mod vec3;
pub mod welzl;

pub use error::LoadError;
pub use storage::BodyStorage;
