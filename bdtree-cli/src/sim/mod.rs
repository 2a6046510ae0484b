//! **Simulation**: the BD-Tree paper's falling chairs (rigid and modal dynamics, sweep-and-prune,
//! proxy queries, penalty response) and the demo built on it. Imports [`bdtree_std::io`],
//! [`bdtree_std::shapes`], [`bdtree_std::build`], [`bdtree_std::modal`] and
//! [`bdtree_std::oracle`].
//!
//! | file | what |
//! |---|---|
//! | `chairs.rs` | the simulation: [`chairs::prepare_chair`], [`chairs::simulate`], [`chairs::simulate_with`] |
//! | `replay.rs` | the collision part run again on the same placements, deformable or rigid: [`replay::replay`], [`replay::Shadow`] |
//! | `demo.rs` | `bdtree demo`: the run, its summary and its exact check against brute force |
//! | `check.rs` | the demo's proxy check: a step's proxy contacts against a brute force |
//! | `state.rs` | a pile's state (every chair's placement) in a text file: [`state::write_state`], [`state::read_state`] |
//! | `response.rs` | how the contacts push: the explicit step's stiffness limit, friction, the strain limit |

pub mod chairs;
pub mod check;
pub mod demo;
pub mod replay;
pub mod response;
pub mod state;
