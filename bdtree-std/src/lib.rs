//! Host companion of `bdtree-core`, in rooms named by pipeline stage: files in, trees built in
//! f64, the brute-force oracle, modal analysis, **the host layer** (owned bodies, every query,
//! per-pair floating origins, f64 refinement: the library a host program calls), and, for the
//! `bdtree` command-line tool, scenes run frame by frame, the demo's simulation, pictures and
//! exports. The tool itself (`src/bin/bdtree/`) is flags and printing over them.
//!
//! The rooms — [`io`], [`shapes`], [`build`], [`oracle`], [`modal`], [`host`] (**the
//! library**: trees, owned bodies, every query on two bodies or a world, generalized forces),
//! and for the CLI [`run`], [`sim`], [`view`]; beside them [`error`] ([`LoadError`]),
//! [`storage`] ([`BodyStorage`], the one host body set-up) and [`rng`] (the one seeded
//! generator) — and which may import which are described once, in the book's workspace-layout
//! chapter (`docs/src/reference/layout.md`); `tests/host/layout.rs` holds that
//! chapter's rules (its rooms table included) against the sources.
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
