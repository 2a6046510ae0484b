//! **Running scenes and inspecting images**: the scene runner (a scene file's bodies built,
//! then run frame by frame through the host layer), its checks against the oracle,
//! interrupted-query tables, frame geometry, and image statistics — answers as data; printing
//! them is a front end's (the `bdtree` application's report). Imports [`crate::io`],
//! [`crate::build`], [`crate::oracle`], [`crate::host`] and [`crate::export`].
//!
//! | file | what |
//! |---|---|
//! | `scene.rs` | the scene runner: [`prepare`], [`run`], [`run_with`] (proxies, self-contacts), [`distances`]; [`RunError`] |
//! | `contacts.rs` | what a controller acts on: swept pairs between frames, tick after tick ([`run_swept_front`]) or from the root ([`run_swept`]) and the sub-stepped scene to compare them with ([`substeps`]), contact data ([`run_contacts`]), pairs within a distance ([`run_within`]) |
//! | `closer.rs` | whether each body pair comes within a distance ([`run_closer_than`]) |
//! | `bounded.rs` | triangle pairs with box bounds ([`run_bounded`]) |
//! | `check.rs` | the oracle's answer for a frame ([`brute_force_frame`]), [`compare`], the proxy cover checks ([`uncovered_contacts`], [`uncovered_primitive_contacts`]) |
//! | `interrupt_table.rs` | interrupted queries per test budget (the interruptible-collision paper's Table 1) |
//! | `frame.rs` | one frame's deformed meshes, contacts, proxies and spheres ([`frame_geometry`]), for pictures and exports |
//! | `inspect.rs` | statistics of an image: sizes, per-level tightness, box bounds; compact vs complete ([`inspect::compare`]) |
//! | `cost.rs` | the tightness of an image in overlap tests of proxy queries ([`cost::cost_of_queries`]) |

pub mod bounded;
pub mod check;
pub mod closer;
pub mod contacts;
pub mod cost;
pub mod frame;
pub mod inspect;
pub mod interrupt_table;
pub mod scene;

pub use bounded::run_bounded;
pub use check::{
    brute_force_distance_frame, brute_force_frame, brute_force_frame_with,
    brute_force_primitive_frame, brute_force_within_frame, compare, deformed_triangles,
    interpolated_state, point_triangle_distance, primitive_solid, proxy_of_triangles,
    sampled_swept_frame, uncovered_contacts, uncovered_primitive_contacts, Comparison,
};
pub use closer::{brute_force_pair_distance, run_closer_than, PairCloser};
pub use contacts::{
    run_contact_forces, run_contacts, run_swept, run_swept_front, run_within, substeps,
    ContactData, FrameAnswer, FrontSummary, NearContact, SweptContact,
};
pub use frame::{frame_geometry, GeometryOptions};
pub use inspect::{inspect, Inspection};
pub use interrupt_table::{budget_table, BudgetRow};
pub use scene::{
    distances, frame_origin, prepare, run, run_unrefined, run_with, FrameResult, PairDistance,
    PreparedScene, PrimitiveProxyContact, RunError,
};
