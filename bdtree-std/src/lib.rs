//! Host companion of `bdtree-core`, in rooms named by pipeline stage: files in, trees built in
//! f64, the brute-force oracle, modal analysis, scenes run on the kernel, simulation, and
//! pictures and exports. The `bdtree` command-line tool (`src/bin/bdtree/`) is glue over them.
//!
//! The rooms — [`io`], [`shapes`], [`build`], [`oracle`], [`modal`], [`run`], [`sim`],
//! [`view`], and beside them [`error`] ([`LoadError`]), [`storage`] ([`BodyStorage`], the one
//! host body set-up) and [`rng`] (the one seeded generator) — and which may import which are
//! described once, in the book's workspace-layout chapter (`docs/src/reference/layout.md`);
//! `tests/integration/layout.rs` holds that chapter's rules (its rooms table included) against
//! the sources.
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
