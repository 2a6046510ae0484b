//! The host library (`bdtree_std::host`) and the application (the scene runner, the `bdtree`
//! command line, the chairs, pictures) together, and the workspace's checks (fixtures), against
//! the independent f64 brute-force oracle.

#[path = "../../../bdtree-std/tests/support/mod.rs"]
mod support;

mod binary;
mod chairs;
mod cli;
mod cli_boxes;
mod cli_contacts;
mod cli_degenerate;
mod cli_far;
mod cli_medial;
mod cli_primitive_proxies;
mod closer;
mod fixtures;
mod host;
mod host_boxes;
mod host_front;
mod host_interrupt;
mod host_threads;
mod jacobian;
mod modes;
#[cfg(feature = "pictures")]
mod pictures;
mod scene_primitives;
