//! **Building tree images** in f64 from a mesh and a basis, and making compact ones from them.
//! Imports [`crate::io`] only.
//!
//! | file | what |
//! |---|---|
//! | `tree.rs` | the BD-Tree builder: [`build`] with [`BuildOptions`] (split rule, sphere fit, mode centers, nesting) |
//! | `medial.rs` | the medial partition of [`TreeKind::Medial`]: closedness, the inside test ([`medial::Solid`]), medial balls by the shrinking ball |
//! | `fitted.rs` | fitted spheres beside the exact ones and their rest reach ([`fitted::fit_node`], [`fitted::reach`]) |
//! | `fit.rs` | how a tree's spheres fit a closed body, level by level: Bradshaw's error and the volume outside ([`fit::fit_rows`]) |
//! | `welzl.rs` | minimal enclosing spheres ([`welzl::minimal_ball`]) |
//! | `boxes.rs` | box tables of a built image for the box variant ([`boxes::box_table`]), and their file for a device ([`boxes::box_file`]) |
//! | `certificates.rs` | subspace certificates of the nodes for self-collision culling in `O(M)` ([`self_certificates`]) |
//! | `normals.rs` | per-node bounds on the deformed normals and affine spheres, for self-collision cones and spheres in `O(M)` ([`self_normals`], [`self_spheres`]) |
//! | `contours.rs` | boundary loops of the nodes' patches for sound self-collision culling ([`self_contours`]) |
//! | `self_data.rs` | an image with its self-collision culling data stored in it ([`with_self_data`]) |
//! | `compact.rs` | compact images: quantized rows, 16-bit models, bounded depth ([`compact()`]) |
//! | `quality.rs` | zero-area triangles and slivers: counted in a mesh and in an image ([`quality::counts`]) |
//! | `error.rs` | [`BuildError`] |
//! | `writer.rs` | the one image writer both use: section layout, magnitude bounds, header and checksum |
//!
//! Every bound is computed from the values as stored and rounded outward, so an image holds
//! exactly for the model it stores (see [`tree`](mod@tree) and [`compact`](mod@compact)).

pub mod boxes;
pub mod certificates;
pub mod compact;
pub mod contours;
mod error;
pub mod fit;
pub mod fitted;
pub mod medial;
pub mod normals;
pub mod quality;
mod self_data;
pub mod tree;
pub mod welzl;
mod writer;

pub use boxes::{box_file, box_rows, box_table};
pub use certificates::self_certificates;
pub use compact::{compact, CompactReport};
pub use contours::{self_contours, ContourTable};
pub use error::BuildError;
pub use normals::{
    self_normals, self_spheres, NodeRows, NORMAL_MIN_TRIANGLES, SPHERE_MIN_TRIANGLES,
};
pub use self_data::with_self_data;
pub use tree::{
    build, BuildOptions, BuildReport, Grouping, ModeCenter, Precision, SphereFit, TreeKind,
};
