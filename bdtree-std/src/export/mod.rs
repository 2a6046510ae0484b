//! **Exports**: one frame's geometry (deformed meshes, contact triangles, proxies, spheres,
//! contact points) and its writer to PLY or OBJ for MeshLab or Blender, with the colours that
//! pictures share. The library's part of "seeing results": the `bdtree` application's pictures
//! and Python's `bdtree.export` both write through it. Imports [`crate::io`] (reading back) and
//! [`crate::shapes`] (the spheres' icospheres).
//!
//! | file | what |
//! |---|---|
//! | `frame.rs` | [`FrameGeometry`], [`BodyGeometry`], [`contact_point`], the pair types [`Contact`], [`ProxyContact`] |
//! | `write.rs` | [`write_frame`], [`MeshFormat`], [`ExportError`] |
//! | `colors.rs` | the palette and the growth colour scale ([`growth_color`]) |

mod colors;
mod frame;
mod write;

pub use colors::{growth_color, GROWTH_STOPS, HIGHLIGHT, PALETTE, SECONDARY};
pub use frame::{contact_point, BodyGeometry, Contact, FrameGeometry, ProxyContact};
pub use write::{
    write_frame, ExportError, ExportSummary, MeshFormat, POINT_COLOR, SPHERE_SUBDIVISIONS,
};
