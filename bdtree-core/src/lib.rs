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
//! * [`collide`] finds every intersecting triangle pair, with the caller's stack and sink.
//!
//! **Conventions.** Units are whatever the mesh uses (metres for SI users); `q` is unitless or
//! whatever the basis makes it (`U q` is a displacement). Rotations are unit quaternions
//! `(w, x, y, z)`. Triangle indices are the model's face order.
//!
//! **Guarantee.** Every bound is conservative in floating point (see [`sphere`]): a query never
//! misses an intersecting pair of the stored model; it may report pairs that miss by less than
//! the documented rounding inflation.
//!
//! **No panics, no allocation.** Every index is validated when the image is loaded and read
//! with checked accessors; capacities are the caller's; a full sink or a short stack ends a
//! query with an explicit [`QueryStatus`].
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(clippy::std_instead_of_core, clippy::std_instead_of_alloc)]

pub mod body;
pub mod broad;
pub mod closest;
pub mod coherence;
mod crc;
pub mod image;
pub mod interrupt;
pub mod model;
pub mod obb;
pub mod pose;
pub mod proxy;
pub mod query;
pub mod response;
pub mod scalar;
pub mod selfcollide;
pub mod separation;
pub mod sphere;
pub mod tree;
pub mod triangle;
pub mod world;

pub use body::{Body, BodyError, CacheEntry, VertexEntry};
pub use broad::{AllPairs, BitMatrix, PairFilter, SweepAndPrune, SweepStatus};
pub use coherence::{Anchor, ReferenceEntry};
pub use crc::crc32;
pub use image::{AlignedImage, Header, Image, ImageError, Layout};
pub use interrupt::{
    Budget, Clock, Deadline, Order, Pending, RunOutcome, RunStatus, TestBudget, Traversal,
};
pub use model::{Model, ModelError};
pub use pose::{Pose, PoseError};
pub use proxy::{collide_proxies, proxy_stack_capacity, ProxyBuffer, ProxyPair, ProxySink};
pub use query::{
    collide, stack_capacity, ContactBuffer, ContactSink, QueryOutcome, QueryStats, QueryStatus,
    TrianglePair,
};
pub use scalar::Scalar;
pub use selfcollide::{collide_self, collide_self_with, self_stack_capacity, SelfAids, SelfList};
pub use tree::{Encoding, NodeKind, TreeView};
pub use world::{collide_world, WorldOutcome};
