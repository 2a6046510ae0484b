//! Host companion of `bdtree-core`, in rooms named by pipeline stage: files in, trees built in
//! f64, the brute-force oracle, modal analysis, **the host layer** (owned bodies, every query,
//! per-pair floating origins, f64 refinement: the library a host program calls), and, for the
//! `bdtree` command-line tool, scenes run frame by frame, the demo's simulation, pictures and
//! exports. The tool itself (`src/bin/bdtree/`) is flags and printing over them.
//!
//! | room | what | may import |
//! |---|---|---|
//! | [`io`] | meshes (OBJ, PLY, STL), `.npy` bases, scene files, tree image files | — |
//! | [`shapes`] | procedural meshes and smooth bases, the chair, B-spline and cage bases | `io` |
//! | [`build`] | the tree builder, Welzl spheres, box tables, compaction, the one image writer | `io` |
//! | [`oracle`] | explicit deformation, exact triangle tests, distances, brute force | `io` |
//! | [`modal`] | vibration modes of closed meshes | `io` |
//! | [`host`] | **the library**: trees, owned bodies, every query on two bodies or a world, generalized forces | `io`, `build` |
//! | [`run`] | *for the CLI*: scenes run frame by frame over [`host`], checks against the oracle, interrupt tables, inspection, printed reports | `io`, `build`, `oracle`, `host` |
//! | [`sim`] | *for the CLI*: the falling chairs and the demo, over [`host`] | `io`, `shapes`, `build`, `oracle`, `modal`, `host`, `run` |
//! | [`view`] | *for the CLI*: pictures (feature `pictures`), exports, Rerun recordings (feature `rerun`) | all of the above |
//!
//! Beside the rooms, at the crate root and importable by all: [`error`] ([`LoadError`]),
//! [`storage`] ([`BodyStorage`], the one host body set-up), [`rng`] (the one seeded generator)
//! and a private 3-vector helper. Tests (`#[cfg(test)]`) may also use [`shapes`] for their
//! meshes. Each room imports only rooms above it in the table, so rooms form no cycle; inside a
//! room, files import their siblings, never their folder's `mod.rs`. `tests/integration/layout.rs`
//! checks both by reading every `crate::…` and `super::…` path of the library code, and keeps
//! every source file under 900 lines and every CLI file under 300.
//!
//! # Features
//!
//! * `cli` (default): the `bdtree` binary (clap, indicatif) and `pictures`.
//! * `pictures`: PNG and SVG pictures (`view::render`, with plotters and png).
//! * `rerun`: Rerun recordings of the chairs simulation (`view::rerun`).
//!
//! With `--no-default-features` the library needs none of clap, plotters, indicatif or rerun:
//! the lean library that bindings build on. Progress is reported through callbacks
//! (`&mut dyn FnMut(…)`); only the binary renders them as progress bars.

pub mod build;
pub mod error;
pub mod host;
pub mod io;
pub mod modal;
pub mod oracle;
pub mod rng;
pub mod run;
pub mod shapes;
pub mod sim;
pub mod storage;
mod vec3;
pub mod view;

pub use error::LoadError;
pub use storage::BodyStorage;
