//! Integration tests of bdtree against the independent f64 brute-force oracle.

mod capacity;
mod cli;
mod fixtures;
mod image;
mod properties;
mod support;
