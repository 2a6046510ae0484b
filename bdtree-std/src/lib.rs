//! Host companion of `bdtree-core`: the library a host program calls, in rooms named by
//! pipeline stage: files in, trees built in f64, the brute-force oracle, modal analysis,
//! procedural shapes, **the host layer** (owned bodies, every query, per-pair floating origins,
//! f64 refinement), exports of a frame's geometry and the scene runner (scene files run frame by
//! frame over the host layer, checked against the oracle). The command-line application
//! (`bdtree`: its printed reports, the chairs simulation, pictures) is the crate `bdtree-cli`,
//! built on this one; nothing here knows it.
//!
//! The rooms — [`io`], [`shapes`], [`build`], [`oracle`], [`modal`], [`host`] (**the
//! library**: trees, owned bodies, every query on two bodies or a world, generalized forces),
//! [`export`], [`runner`] (scenes run frame by frame, image statistics); beside them
//! [`error`] ([`LoadError`]), [`storage`] ([`BodyStorage`], the one host body set-up), [`rng`]
//! (the one seeded generator) and [`vec3`] — and which may import which
//! are described once, in the book's workspace-layout chapter (`docs/src/reference/layout.md`);
//! `cargo xtask layout` holds that chapter's rules (its rooms table included) against the
//! sources.
//!
//! # Features
//!
//! * `clap`: the option enums (`build::Precision`, …) derive `clap::ValueEnum`, for the
//!   command-line application.
//!
//! The library needs none of clap, plotters, indicatif or rerun: the lean library that the
//! application and the bindings build on. Progress is reported through callbacks
//! (`&mut dyn FnMut(…)`); only the application renders them as progress bars.

pub mod build;
pub mod error;
pub mod export;
pub mod host;
pub mod io;
pub mod modal;
pub mod oracle;
pub mod rng;
pub mod runner;
pub mod shapes;
pub mod storage;
pub mod vec3;

pub use error::LoadError;
pub use storage::BodyStorage;
