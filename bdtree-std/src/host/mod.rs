//! **The host layer**: the library a host program calls — Rust code, the `bdtree` command-line
//! tool and the Python module are its clients. It owns what the kernel borrows, keeps every
//! state in f64 as the caller gave it, chooses the precision at run time from the tree, places
//! every query at its own floating origin, refines f32 answers in f64 and answers in world
//! coordinates, sorted.
//!
//! | type / function | what |
//! |---|---|
//! | [`Tree`] | a validated tree image (f32 or f64, read from its header), shared by its bodies; [`Tree::leaves`], the leaf node of every triangle |
//! | [`Body`] | an owned body: its caches, its [`State`] in f64, [`Body::set_state`] with every argument checked; [`Body::without_vertex_cache`], every sphere the image's own |
//! | [`pairs`], [`self_pairs`], [`contacts()`], [`within`], [`distance`], [`proxies()`], [`swept()`], [`primitive_contacts`], [`primitive_proxies`] | the queries on two (one, four) bodies: [`query`], one file per query family named as the kernel's |
//! | [`Interruptible`] | the interruptible, budgeted, resumable traversal at the pair's origin: complete, [`pairs`]' answer; interrupted, an explicit conservative [`Cover`]; [`Interruptible::start_unrefined_at`], at one origin many bodies share, no second stage |
//! | [`closer_than`] ([`query::separation`]) | whether two bodies come within a distance, early exit, settled in f64 against the states as given |
//! | [`pairs_with`] ([`query::boxes`]) | [`pairs`] pruned by box bounds (15- or 6-axis) instead of spheres: the same pairs |
//! | [`contact_jacobians`] ([`jacobian`]) | the derivative of each contact's depth with respect to each body's `q`, with the features it differentiates |
//! | [`contact_forces`], [`proxy_forces`], [`force_at_node`] | generalized forces of penalty contacts, in a [`Wrench`] sized at run time |
//! | [`Body::sphere`], [`Body::level_spheres`] ([`level_cut`]), [`Body::vertices`], [`Body::normal_row`] | a body's geometry at its state in world coordinates, and a point's motion along a normal `∂(n · x)/∂q`; on the device's path, [`Body::device_level_spheres`], [`Body::device_triangles`] |
//! | [`Primitive`] | a rigid plane, sphere, capsule or box with its pose in f64 |
//! | [`swept_front`], [`Front`] ([`query::swept::front`]) | the swept query every tick with its front carried from the last: in slow or resting contact it walks only where margins ran out |
//! | [`World`], [`world::swept`], [`world::swept_front`] | every query over many bodies and primitives, each pair at its own origin |
//! | [`placing`] | where each query's floating origin is, and the precision bound that follows; a world's [`Placement`] (per pair, or the device's path) |
//! | [`check`] | the input checks of every front end: finite values, a unit quaternion |
//! | [`HostError`] | every refusal, naming the argument and its value |
//!
//! ```
//! use bdtree_std::build::{BuildOptions, Precision};
//! use bdtree_std::host::{self, Body, Tree};
//!
//! let ball = bdtree_std::shapes::procedural::icosphere(0.5, 2);
//! let options = BuildOptions { precision: Precision::F32, ..BuildOptions::default() };
//! let (tree, _) = Tree::build(&ball, None, options)?;
//! let (mut a, mut b) = (Body::new(&tree)?, Body::new(&tree)?);
//! // Two balls 3 km from the world origin, 0.9 apart: f32 bodies, f64 states.
//! a.set_state([1.0, 0.0, 0.0, 0.0], [3000.0, 0.0, 0.0], &[])?;
//! b.set_state([1.0, 0.0, 0.0, 0.0], [3000.9, 0.0, 0.0], &[])?;
//! let touching = host::contacts(&mut a, &mut b)?;
//! assert!(!touching.items.is_empty());
//! for c in &touching.items {
//!     assert!(c.depth >= 0.0 && (c.point[0] - 3000.45).abs() < 0.1);
//! }
//! let (nearest, _) = host::distance(&mut a, &mut b)?;
//! assert_eq!(nearest.distance, 0.0);
//! # Ok::<(), bdtree_std::host::HostError>(())
//! ```
//!
//! # Precision
//!
//! A tree is f32 or f64; its bodies' states are f64. Each query places its bodies at the
//! floating origin of [`placing`] (a pair at the centre of its two translations, a body alone
//! at its own), so a pair's precision depends on its two bodies' sizes and their distance from
//! each other only. In f32, triangle pairs are re-tested in f64 on the stored model
//! ([`bdtree_core::refine()`]), contacts, distances and witnesses are computed again in f64 on
//! the triangles found, so the bound of [`placing`] holds against the f64 brute force at the
//! states as given.
//!
//! **Absurd states**: a state whose rounding bound at the body's own origin exceeds
//! [`IMPRECISE_FRACTION`] (1/16) of the body's size is refused with
//! [`HostError::Imprecise`], naming the largest `q`: its spheres would be inflated past the
//! body, so every node pair would overlap (an f32 `q` of 10⁹ on a unit body would otherwise
//! report every triangle pair).
//!
//! # Cost
//!
//! A body holds `(16 + 16) × nodes + 16 × vertices` bytes of caches in f32 (twice in f64); a
//! pair query places each body at the pair's origin (one `O(M)` state update when its origin
//! changes) and runs one kernel walk; in f32 the refinement costs a few f64 vertex deformations
//! per reported pair. [`World`] shares the spheres of each body at its own origin between its
//! broad phase, self pairs, primitives and certificates of separation, so only pairs that may
//! touch are placed (see its docs).

mod answer;
mod body;
pub mod check;
mod device;
mod error;
mod geometry;
pub mod jacobian;
mod owned;
mod parallel;
pub mod placing;
mod primitive;
pub mod query;
pub mod relative;
mod response;
mod stack;
mod tree;
pub mod world;

// The modules of these queries before they moved under [`query`], kept as paths.
pub use query::separation as closer;
pub use query::{boxes, swept::front};

pub use body::{Body, State};
pub use error::{HostError, IMPRECISE_FRACTION};
pub use geometry::level_cut;
pub use jacobian::{contact_jacobians, ContactJacobian};
pub use placing::Placement;
pub use primitive::Primitive;
pub use query::{
    closer_than, contact_forces, contacts, distance, force_at_node, pairs, pairs_with,
    primitive_contacts, primitive_proxies, proxies, proxy_forces, self_pairs, swept, swept_front,
    within, Answer, Budget, Closer, Contact, Cover, Front, Fronts, Interruptible, Near, Nearest,
    Order, PairBound, PrimitiveProxy, Progress, Proxy, RunStatus, Swept, Wrench,
};
pub use tree::Tree;
pub use world::{BroadPhase, Found, World, WorldAnswer};
