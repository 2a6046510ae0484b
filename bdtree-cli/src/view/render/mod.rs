//! Pictures of BD-Trees and scenes, as PNG or SVG (drawn with [`plotters`]; feature
//! `pictures`).
//!
//! * [`spheres()`]: a body's deformed mesh and its deformed spheres at one tree level, each sphere
//!   coloured by its radius growth `r(q) / r_rest` (the BD-Tree paper's Figs. 4 and 6), with a
//!   colour bar and a caption naming the image, the level, `q` and the min/median/max growth;
//!   [`spheres_beside()`] draws several trees of one mesh side by side (the median and the
//!   medial tree).
//! * [`tightness()`]: the per-level tightness curve of [`bdtree_std::runner::inspect()`] (mean
//!   rest radius and mean `‖ΔR‖₂` per level, both relative to the root, on a log scale).
//! * [`contacts()`]: a scene frame: every body's deformed mesh in its own colour, the triangles in
//!   contact in red, optionally the overlapping contact proxies' spheres (the paper's Fig. 1).
//! * [`snapshot()`]: many bodies at once (a simulation frame: deformed meshes, highlighted
//!   triangles, contact points) over a ground plane.
//!
//! # Conventions
//!
//! The output format follows the file extension, `.png` or `.svg` (any case); anything else is a
//! [`RenderError`](super::RenderError) naming the file. Every picture is an **orthographic** projection along one of
//! the [`View`]s, with equal scales on both screen axes and a scale bar in mesh units. Triangles
//! are filled, flat-shaded by a light at the viewer, and drawn back to front (painter's order by
//! mean depth); highlighted triangles are drawn after them and after the sphere outlines, on top
//! (an X-ray view, so a contact is visible even where another surface hides it). A world sphere projects to a circle
//! of the same radius, drawn as an outline.
//!
//! Text uses the DejaVu Sans font bundled with the crate (`fixtures/fonts/DejaVuSans.ttf`,
//! Bitstream Vera licence in `fixtures/fonts/LICENSE-DejaVu.txt`), so pictures do not depend
//! on the fonts of the machine. SVG files name the font family `sans-serif`; their viewer
//! draws the text.
//!
//! | file | what |
//! |---|---|
//! | `picture.rs` | the picture all of them draw: projection, painter's order, caption, colour bar, PNG/SVG |
//! | `spheres.rs` | [`spheres()`] |
//! | `tightness.rs` | [`tightness()`], [`tightness_of`] |
//! | `snapshot.rs` | [`snapshot()`], [`snapshot_with`] |
//! | `contacts.rs` | [`contacts()`] |

mod contacts;
mod picture;
mod snapshot;
mod spheres;
mod tightness;
mod timeline;

pub use contacts::{contacts, ContactOptions, ContactSummary};
pub use picture::{Format, View};
pub use snapshot::{snapshot, snapshot_with, SnapshotBody, SnapshotOptions};
pub use spheres::{
    default_q, spheres, spheres_beside, SphereOptions, SphereSummary, DEFAULT_DISPLACEMENT,
};
pub use tightness::{tightness, tightness_of, tightness_series};
pub use timeline::{timeline, Series};
