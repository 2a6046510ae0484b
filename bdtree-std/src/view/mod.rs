//! **Seeing results**: pictures (PNG, SVG), exports for MeshLab and Blender (PLY, OBJ) and Rerun
//! recordings. The last room: it may import every other.
//!
//! | file | what | feature |
//! |---|---|---|
//! | `colors.rs` | the palette and the growth colour scale | |
//! | `error.rs` | [`RenderError`] | |
//! | `export.rs` | a scene frame as PLY or OBJ ([`export::write_frame`]) | |
//! | `render/` | pictures: spheres at a level, tightness curves, contacts, snapshots | `pictures` |
//! | `demo.rs` | the picture of `bdtree demo` | `pictures` |
//! | `rerun.rs` | a chairs simulation as a Rerun recording | `rerun` |

pub mod colors;
#[cfg(feature = "pictures")]
pub mod demo;
mod error;
pub mod export;
#[cfg(feature = "pictures")]
pub mod render;
#[cfg(feature = "rerun")]
pub mod rerun;

pub use error::RenderError;
