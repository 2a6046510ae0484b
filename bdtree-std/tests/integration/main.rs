//! Integration tests of bdtree against the independent f64 brute-force oracle.

mod bounds;
mod broad;
mod capacity;
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
mod coherence;
mod compact;
mod contact;
mod degenerate;
mod far;
mod fixtures;
#[cfg(feature = "cli")]
mod host;
#[cfg(feature = "cli")]
mod host_boxes;
mod host_interrupt;
mod image;
mod interrupt;
mod layout;
mod modal_physics;
mod modal_references;
#[cfg(feature = "cli")]
mod modes;
mod moved;
mod obb;
#[cfg(feature = "cli")]
mod pictures;
mod primitive;
mod properties;
mod proxies;
mod refine;
mod regions;
mod response;
mod scene_primitives;
mod selfcollide;
mod separation;
mod support;
mod swept;
mod swept_front;
mod world;
