//! The `bdtree` command-line application, over the host library `bdtree-std`: the binary's
//! glue (`src/bin/bdtree/`: one file per subcommand) and the rooms only it needs:
//!
//! * [`report`] — the lines it prints (text and JSON) for the answers of the scene runner
//!   (`bdtree_std::runner`: scenes run frame by frame through the host layer, their checks
//!   against the oracle, interrupt tables, inspection);
//! * [`sim`] — the falling chairs (over `bdtree_std::host::World`) and the demo;
//! * [`view`] — pictures (feature `pictures`) and Rerun recordings (feature `rerun`); exports
//!   are the library's (`bdtree_std::export`).
//!
//! Which room may import which, and why the application is a crate of its own, are in the
//! book's workspace-layout chapter (`docs/src/reference/layout.md`); `cargo xtask layout`
//! holds the rules.
//!
//! # Features
//!
//! * `pictures` (default): PNG and SVG pictures (`view::render`, with plotters and png).
//! * `rerun`: Rerun recordings of the chairs simulation (`view::rerun`).

pub mod report;
pub mod sim;
pub mod view;
