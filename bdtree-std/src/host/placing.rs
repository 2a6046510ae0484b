//! **The placing rule**: where each query puts its bodies' floating origin (the world point
//! subtracted in f64 from every translation before the state is rounded to the tree's
//! precision, [`bdtree_core::Body::set_state_f64`]). One rule for every surface, the kernel's
//! [`bdtree_core::floating_origin`] (the centre of the box of the translations involved):
//!
//! | query | origin |
//! |---|---|
//! | a body pair (pairs, contacts, within, distance, contact forces) | [`pair_origin`]: the centre of its two bodies' translations |
//! | contact proxies and their forces (spheres only) | each body at its own origin, the spheres compared in f64: the pair's relative frame ([`super::relative`]) |
//! | a swept pair | [`swept_origin`]: the centre of its two bodies' translations at both ends of the motion (four points) |
//! | a swept pair with its front carried across ticks ([`super::Front`]) | the [`swept_origin`] of the tick that placed it, kept while the current one stays within a quarter of the two bodies' radii of it (the front needs each tick's `before` states where the last tick's `now` states were) |
//! | a body's self pairs, a body against a primitive | [`self_origin`]: the body's own translation |
//!
//! A pair's f32 precision then depends on its two bodies' sizes and their distance from each
//! other only — not on where other bodies or the robot cell sit. **The bound** (what the
//! tests hold every f32 answer to, against the f64 brute force at the states as given): after
//! the exact second stage, an extra f32 pair of bodies a and b is closer than
//!
//! ```text
//! 256 u₃₂ (x_a + x_b + ‖t_a − t_b‖)        a self pair of body a: 256 u₃₂ · 2 x_a
//! ```
//!
//! with `u₃₂ = 2⁻²⁴`, `x` a body's extent (`max ‖p_i‖ + Σ_j max_i ‖U_ij‖ |q_j|`) and `t` its
//! translation; a witness or contact point lies that close to its triangles. A body pair at
//! its origin has `‖t_a − o‖ + ‖t_b − o‖ = ‖t_a − t_b‖`, the least any common origin gives.
//!
//! A [`super::World`] answers every pair by this rule too (see its docs for how it keeps the
//! many-body query fast), unless it is set to the device's path ([`Placement::Device`]: one
//! origin, the world's, for every body, on states rounded to the tree's scalar first, no
//! second stage — what a device given those values computes).

use bdtree_core::floating_origin;

use super::body::Body;

/// The floating origin of a query between two bodies: the centre of their translations.
pub fn pair_origin(a: &Body, b: &Body) -> [f64; 3] {
    floating_origin(&[a.state().translation, b.state().translation])
}

/// The floating origin of a body's own queries (self pairs, primitives): its translation.
pub fn self_origin(body: &Body) -> [f64; 3] {
    floating_origin(&[body.state().translation])
}

/// The floating origin of a swept query: the centre of the box of the four translations.
pub fn swept_origin(a_before: &Body, a_now: &Body, b_before: &Body, b_now: &Body) -> [f64; 3] {
    floating_origin(&[
        a_before.state().translation,
        a_now.state().translation,
        b_before.state().translation,
        b_now.state().translation,
    ])
}

/// Where a [`super::World`] places its bodies for [`super::World::pairs`] and
/// [`super::World::proxies`] ([`super::World::set_placement`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// Each body pair at its own floating origin (the rule above), f32 answers refined in f64:
    /// conservative against the states as given.
    #[default]
    PerPair,
    /// The device's path: every state rounded to the tree's scalar and taken as exact at the
    /// world origin, the kernel's own world query, primitives placed in that scalar
    /// ([`super::Primitive::device`]), no second stage (in f32 the answer holds the widened
    /// test's extras). The firmware replay's reference.
    Device,
}
