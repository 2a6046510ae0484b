//! Modal analysis (`bdtree_std::modal`) against analytic references (the `bdtree modes`
//! command line: `bdtree-cli/tests/host/modes.rs`).

#[path = "../support/mod.rs"]
mod support;

mod modal_physics;
mod modal_references;
