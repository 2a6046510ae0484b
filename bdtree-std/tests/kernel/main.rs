//! The kernel's queries (`bdtree_core`) against the independent f64 brute-force oracle.

#[path = "../support/mod.rs"]
mod support;

mod bounds;
mod broad;
mod capacity;
mod coherence;
mod compact;
mod contact;
mod degenerate;
mod far;
mod image;
mod interrupt;
mod obb;
mod primitive;
mod properties;
mod proxies;
mod refine;
mod regions;
mod response;
mod selfcollide;
mod separation;
mod swept;
mod swept_front;
mod world;
