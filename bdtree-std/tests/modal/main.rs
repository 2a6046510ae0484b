//! Modal analysis (`bdtree_std::modal`) against analytic references, and the `bdtree modes`
//! command line.

#[path = "../support/mod.rs"]
mod support;

mod modal_physics;
mod modal_references;
#[cfg(feature = "cli")]
mod modes;
