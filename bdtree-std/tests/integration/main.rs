//! Integration tests of bdtree against the independent f64 brute-force oracle.

mod bounds;
mod broad;
mod capacity;
mod chairs;
mod cli;
mod coherence;
mod compact;
mod degenerate;
mod fixtures;
mod image;
mod interrupt;
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
