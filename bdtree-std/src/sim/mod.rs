//! **Simulation**: the BD-Tree paper's falling chairs (rigid and modal dynamics, sweep-and-prune,
//! proxy queries, penalty response) and the demo built on it. Imports [`crate::io`],
//! [`crate::shapes`], [`crate::build`], [`crate::modal`], [`crate::oracle`] and [`crate::run`].
//!
//! | file | what |
//! |---|---|
//! | `chairs.rs` | the simulation: [`chairs::prepare_chair`], [`chairs::simulate`], [`chairs::replay`] |
//! | `demo.rs` | `bdtree demo`: the run, its summary and its exact check against brute force |

pub mod chairs;
pub mod demo;
