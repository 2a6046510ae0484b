//! # bdtree-core
//!
//! The `no_std`, allocation-free kernel of bdtree: exact collision detection between **reduced
//! deformable models** — meshes whose vertices move as `x_i = p_i + U_i q` (rest position
//! `p_i`, a 3×M block `U_i` of a displacement basis, M reduced coordinates `q`) under a rigid
//! pose `y = R x + t` — with a BD-Tree (James & Pai 2004): a sphere tree built once on the rest
//! shape whose spheres are updated from `q` in `O(M)` per node, lazily, only where a query
//! looks.
//!
//! ```text
//! tree image (bytes) ──Image::parse──▶ TreeView + Model ──Body::new(cache)──▶ Body
//!   Body::set_state(pose, q) each step ──collide(&mut a, &mut b, stack, sink)──▶ triangle pairs
//! ```
//!
//! * [`Image::parse`] validates an image (written by `bdtree-std`) and views it in place.
//! * [`Body`] holds pose, `q` and the caller's sphere cache (one [`CacheEntry`] per node).
//! * [`collide()`] finds every intersecting triangle pair, with the caller's stack and sink.
//!
//! **Conventions.** Units are whatever the mesh uses (metres for SI users); `q` is unitless or
//! whatever the basis makes it (`U q` is a displacement). Rotations are unit quaternions
//! `(w, x, y, z)`. Triangle indices are the model's face order.
//!
//! **Guarantee.** Every bound is conservative in floating point (see [`bounds::sphere`]): a query never
//! misses an intersecting pair of the stored model; it may report pairs that miss by less than
//! the documented rounding inflation.
//!
//! # Floor plan
//!
//! | layer | folder | what |
//! |---|---|---|
//! | numbers | [`scalar`], `crc` | the two scalars and every float operation; checksums |
//! | geometry | [`geometry`] | rigid poses, closest features, the exact leaf test, a triangle pair's contact and separation |
//! | bounds | [`bounds`] | the BD-Tree sphere update and its rounding bound, the coherent update, the swept track cache |
//! | image | [`image`] | zero-copy views of a tree image: node rows and links ([`image::tree`]), the mesh and basis ([`image::model`]), validation |
//! | body | [`body`] | a body's step: pose, `q`, the lazy sphere cache in caller storage |
//! | walk | [`walk`] | the one pair walk with its container and split rule; sinks and statuses ([`walk::output`]), budgets ([`walk::budget`]) |
//! | queries | [`query`] | each query a policy over the walk, one file (or folder) each, one argument order |
//! | world | [`world`] | sweep-and-prune ([`world::sweep`]), a hashed uniform grid ([`world::grid`]), the many-body query, penalty forces ([`world::response`]) |
//!
//! **Dependency rule**: a module uses only its own layer or earlier ones; nothing uses a later
//! layer, and no two modules import each other (held by
//! `cargo xtask layout`, `xtask/src/layout/floors.rs`). The crate root re-exports each name a user needs
//! once (`bdtree_core::collide`, `bdtree_core::Body`, …);
//! every other item has one path, its module's. The root's [`Error`] holds any of the kernel's
//! errors.
//!
//! **No panics, no allocation.** Every index is validated when the image is loaded and read
//! with checked accessors; capacities are the caller's; a full sink or a short stack ends a
//! query with an explicit [`QueryStatus`].
#![no_std]
// The only unsafe code is the opt-in ARM VFP kernel of `sphere::vfp` (feature `asm`).
#![cfg_attr(not(feature = "asm"), forbid(unsafe_code))]
#![cfg_attr(feature = "asm", deny(unsafe_code))]
#![deny(missing_docs)]
#![warn(clippy::std_instead_of_core, clippy::std_instead_of_alloc)]

pub mod body;
pub mod bounds;
mod crc;
mod error;
pub mod geometry;
pub mod image;
pub mod query;
pub mod scalar;
pub mod walk;
pub mod world;

pub use body::{floating_origin, mode_storage, Body, BodyError, BoxEntry, CacheEntry, VertexEntry};
pub use bounds::coherence::{Anchor, ReferenceEntry};
pub use bounds::track_cache::TrackEntry;
pub use crc::crc32;
pub use error::Error;
pub use geometry::pose::{Pose, PoseError, QUATERNION_TOLERANCE};
pub use geometry::triangle_pair::{contact_tolerance, triangle_contact, TriangleContact};
pub use image::model::{Model, ModelError};
pub use image::tree::{Encoding, NodeKind, TreeView};
pub use image::{AlignedImage, Header, Image, ImageError, Layout};
pub use query::boxes::{collide_boxes, BoxTable, BoxTableError, BoxTest};
pub use query::contacts::{collide_contacts, within, ContactPoint, NearPair};
pub use query::primitives::{
    collide_primitive, collide_primitive_proxies, primitive_contact, primitive_stack_capacity,
    primitive_tolerance, Primitive, PrimitiveError,
};
pub use query::proxies::{
    collide_proxies, collide_proxies_apart, fitted_pair, proxy_stack_capacity, FittedPair,
};
pub use query::query_stack_capacity;
pub use query::refinement::{refine, refine_error, refine_self};
pub use query::self_collision::{
    collide_self, collide_self_image, collide_self_lazy, collide_self_with, self_stack_capacity,
    ConeSlot, SelfAids, SelfCones, SelfList,
};
pub use query::separation::{closer_than, nearest, Nearest};
pub use query::swept::{
    collide_swept, collide_swept_front, FrontEntry, FrontState, SweptFront, SweptPair,
};
pub use query::traversal::{Order, Pending, RunOutcome, RunStatus, Suspended, Traversal};
pub use query::triangles::collide;
pub use scalar::Scalar;
pub use walk::budget::{Budget, Clock, Deadline, TestBudget};
pub use walk::output::{
    Buffer, ContactBuffer, ContactSink, PrimitiveProxy, ProxyBuffer, ProxyPair, ProxySink,
    QueryOutcome, QueryStats, QueryStatus, Sink, TrianglePair,
};
pub use walk::stack_capacity;
pub use world::grid::{GridStatus, UniformGrid};
pub use world::response::{
    apply_at_node, apply_at_node_mut, apply_at_triangle, contact_jacobian, penalty, respond,
    respond_contact, respond_mut, JacobianError, Penalty, Wrench, WrenchMut,
};
pub use world::sweep::{
    AllPairs, BitMatrix, BitMatrixView, PairFilter, SweepAndPrune, SweepStatus,
};
pub use world::{
    collide_world, collide_world_primitives, WorldBodies, WorldContact, WorldOutcome, WorldPair,
};
