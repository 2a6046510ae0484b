//! Integration tests of bdtree against the independent f64 brute-force oracle.

mod bounds;
mod broad;
mod capacity;
mod chairs;
mod cli;
mod coherence;
mod compact;
mod fixtures;
mod image;
mod interrupt;
mod modal_physics;
mod modal_references;
mod modes;
mod obb;
mod pictures;
mod properties;
mod proxies;
mod regions;
mod response;
mod selfcollide;
mod separation;
mod support;
mod world;
