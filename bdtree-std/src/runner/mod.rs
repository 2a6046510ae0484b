//! **Running scenes and inspecting images**: the scene runner (a scene file's bodies built,
//! then run frame by frame through the host layer), its checks against the oracle,
//! interrupted-query tables, frame geometry, and image statistics — answers as data; printing
//! them is a front end's (the `bdtree` application's report). Imports [`crate::io`],
//! [`crate::build`], [`crate::oracle`], [`crate::host`] and [`crate::export`].
//!
//! The per-query runners are named as the kernel's query files ([`bdtree_core::query`]) and the
//! host's ([`crate::host::query`]).
//!
//! | file | what |
//! |---|---|
//! | `scene.rs` | the scene runner: [`prepare`], [`run`] (triangle pairs), [`run_with`] (proxies, self-contacts), [`run_unrefined`]; [`RunError`], [`FrameAnswer`] |
//! | `contacts.rs` | contact data ([`run_contacts`]), with penalty forces ([`run_contact_forces`]), pairs within a distance ([`run_within`]) |
//! | `swept.rs` | swept pairs between frames, tick after tick ([`run_swept_front`]) or from the root ([`run_swept`]), and the sub-stepped scene to compare them with ([`substeps`]) |
//! | `separation.rs` | the nearest points of every body pair ([`distances`]), whether each comes within a distance ([`run_closer_than`]) |
//! | `boxes.rs` | triangle pairs with box bounds ([`run_bounded`]) |
//! | `check.rs` | the oracle's answer for a frame ([`brute_force_frame`]), [`compare`], the proxy cover checks ([`uncovered_contacts`], [`uncovered_primitive_contacts`]) |
//! | `traversal.rs` | interrupted queries per test budget (the interruptible-collision paper's Table 1) |
//! | `frame.rs` | one frame's deformed meshes, contacts, proxies and spheres ([`frame_geometry`]), for pictures and exports |
//! | `inspect.rs` | statistics of an image: sizes, per-level tightness, box bounds; compact vs complete ([`inspect::compare`]) |
//! | `cost.rs` | the tightness of an image in overlap tests of proxy queries ([`cost::cost_of_queries`]) |

pub mod boxes;
pub mod check;
pub mod contacts;
pub mod cost;
pub mod frame;
pub mod inspect;
pub mod scene;
pub mod separation;
pub mod swept;
pub mod traversal;

pub use boxes::run_bounded;
pub use check::{
    brute_force_distance_frame, brute_force_frame, brute_force_frame_with,
    brute_force_primitive_frame, brute_force_within_frame, compare, deformed_triangles,
    interpolated_state, point_triangle_distance, primitive_solid, proxy_of_triangles,
    sampled_swept_frame, uncovered_contacts, uncovered_primitive_contacts, Comparison,
};
pub use contacts::{run_contact_forces, run_contacts, run_within, ContactData, NearContact};
pub use frame::{frame_geometry, GeometryOptions};
pub use inspect::{inspect, Inspection};
pub use scene::{
    frame_origin, prepare, run, run_unrefined, run_with, FrameAnswer, FrameResult, PreparedScene,
    PrimitiveProxyContact, RunError,
};
pub use separation::{
    brute_force_pair_distance, distances, run_closer_than, PairCloser, PairDistance,
};
pub use swept::{run_swept, run_swept_front, substeps, FrontSummary, SweptContact};
pub use traversal::{budget_table, BudgetRow};
