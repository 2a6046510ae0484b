//! The host library (`bdtree_std::host`, the scene runner), the `bdtree` command line and the
//! workspace's checks (fixtures) against the independent f64 brute-force oracle.

#[path = "../support/mod.rs"]
mod support;

mod chairs;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod cli_boxes;
#[cfg(feature = "cli")]
mod cli_contacts;
#[cfg(feature = "cli")]
mod cli_primitive_proxies;
mod closer;
mod fixtures;
#[cfg(feature = "cli")]
mod host;
#[cfg(feature = "cli")]
mod host_boxes;
mod host_interrupt;
mod jacobian;
#[cfg(feature = "cli")]
mod pictures;
mod scene_primitives;
