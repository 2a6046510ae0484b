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
//! **Guarantee.** Every bound is conservative in floating point (see [`sphere`]): a query never
//! misses an intersecting pair of the stored model; it may report pairs that miss by less than
//! the documented rounding inflation.
//!
//! # Rooms
//!
//! | layer | modules | what |
//! |---|---|---|
//! | numbers | [`scalar`], `crc` | the two scalars and every float operation; checksums |
//! | the image | [`tree`], [`model`], [`image`] | zero-copy views of a tree image: node rows and links, the mesh and basis, validation |
//! | bounds | [`sphere`], [`coherence`], [`pose`], [`triangle`] | the BD-Tree update and its rounding bound, the coherent update, rigid poses, the exact leaf test |
//! | state | [`body`] | a body's step: pose, `q`, the lazy sphere cache in caller storage |
//! | the walk | [`output`], [`budget`], [`walk`] | sinks and statuses, budgets, the one pair walk with its container and split rule |
//! | queries | [`collide()`](mod@collide), [`proxy`], [`obb`], [`separation`], [`selfcollide`], [`interrupt`], [`contact`], [`primitive`], [`swept`] | each a policy over the walk: bound, test, leaf step, container |
//! | many bodies | [`broad`], [`world`], [`response`] | sweep-and-prune, the world query, penalty forces |
//!
//! **Dependency rule**: a module uses only modules of its own or an earlier layer (queries may
//! use the triangle query's policy, [`interrupt`] does); nothing uses a later layer, so there
//! is no cycle.
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
pub mod broad;
pub mod budget;
pub mod closest;
pub mod coherence;
pub mod collide;
pub mod contact;
mod crc;
pub mod image;
pub mod interrupt;
pub mod model;
pub mod obb;
pub mod output;
pub mod pose;
pub mod primitive;
pub mod proxy;
pub mod refine;
pub mod response;
pub mod scalar;
pub mod selfcollide;
pub mod separation;
pub mod sphere;
pub mod swept;
pub mod tree;
pub mod triangle;
pub mod walk;
pub mod world;

pub use body::{floating_origin, mode_storage, Body, BodyError, CacheEntry, VertexEntry};
pub use broad::{AllPairs, BitMatrix, BitMatrixView, PairFilter, SweepAndPrune, SweepStatus};
pub use budget::{Budget, Clock, Deadline, TestBudget};
pub use coherence::{Anchor, ReferenceEntry};
pub use collide::collide;
pub use contact::{
    collide_contacts, contact_tolerance, triangle_contact, within, ContactPoint, NearPair,
    TriangleContact,
};
pub use crc::crc32;
pub use image::{AlignedImage, Header, Image, ImageError, Layout};
pub use interrupt::{Order, Pending, RunOutcome, RunStatus, Suspended, Traversal};
pub use model::{Model, ModelError};
pub use output::{
    Buffer, ContactBuffer, ContactSink, QueryOutcome, QueryStats, QueryStatus, Sink, TrianglePair,
};
pub use pose::{Pose, PoseError, QUATERNION_TOLERANCE};
pub use primitive::{
    collide_primitive, collide_primitive_proxies, primitive_contact, primitive_stack_capacity,
    primitive_tolerance, Primitive, PrimitiveError, PrimitiveProxy,
};
pub use proxy::{
    collide_proxies, collide_proxies_apart, proxy_stack_capacity, ProxyBuffer, ProxyPair, ProxySink,
};
pub use refine::{refine, refine_error, refine_self};
pub use response::{
    apply_at_node, apply_at_node_mut, apply_at_triangle, penalty, respond, respond_contact,
    respond_mut, Penalty, Wrench, WrenchMut,
};
pub use scalar::Scalar;
pub use selfcollide::{collide_self, collide_self_with, self_stack_capacity, SelfAids, SelfList};
pub use swept::{
    collide_swept, collide_swept_front, FrontEntry, SweptFront, SweptPair, TrackEntry,
};
pub use tree::{Encoding, NodeKind, TreeView};
pub use walk::{query_stack_capacity, stack_capacity};
pub use world::{
    collide_world, collide_world_primitives, WorldBodies, WorldContact, WorldOutcome, WorldPair,
};
