//! # bdtree-c
//!
//! The C API of [`bdtree_core`]: a static library (`libbdtree.a`) for hosts and bare-metal ARM
//! targets, and its header `include/bdtree.h`, generated from this crate by cbindgen
//! (`cargo xtask c` checks that the committed header is current; `cargo xtask c --overwrite`
//! rewrites it).
//!
//! Every function comes in two precisions (`…_f32`, `…_f64`), each reading tree images of its
//! scalar. Nothing is allocated: the caller owns every byte — the image, the objects
//! (`bdtree_image_f32`, `bdtree_body_f32`, `bdtree_traversal_f32`, `bdtree_primitive_f32`,
//! `bdtree_box_table_f32`, `bdtree_swept_front_f32`:
//! fixed-size, 8-byte aligned structs declared in the header, so they can be `static`, on the
//! stack or in a heap block), the body's storage, a swept front's entries, stacks and output
//! buffers. Nothing panics:
//! every pointer and length is checked, and every outcome is a [`bdtree_status`]; a full output
//! buffer is a status (`BDTREE_STATUS_OUTPUT_FULL`), never a silent drop.
//!
//! # Floor plan
//!
//! One file per concept, each holding its C types, its work (generic in the scalar) and its
//! exported functions; each layer imports only the layers above it (`tests/layout.rs` holds it):
//!
//! | layer | files | what |
//! |---|---|---|
//! | 0 | [`status`] | `bdtree_status`, its sentences, the kernel's outcomes as statuses |
//! | 1 | [`ffi`], [`version`] | pointers made references (checked), object slots and marks; the version |
//! | 2 | [`image`] | tree images: parse, check, info |
//! | 3 | [`body`] | bodies: storage, state (floating origin), spheres |
//! | 4 | [`query`] | what queries share: stack, counters, triangle pairs, the frame around a kernel call |
//! | 5 | [`triangles`], [`boxes`], [`proxies`], [`separation`], [`swept`], [`contacts`], [`traversal`], [`world`] | the queries, each file named as the kernel's query module (box bounds: a tree's box table and the pair query pruned by it; separation: distance and closer-than; a world: many bodies, broad phase, pair filter) |
//! | 6 | [`primitives`], [`response`], [`jacobian`] | rigid primitives and the queries against them (their contacts are [`contacts`]'); generalized forces of proxy pairs and contacts into wrenches sized at run time; the contact Jacobian `∂depth/∂q` of a contact |
//!
//! Each concept's exported functions are written once, in f32, in its `exports_f32` module; its
//! `exports_f64` module, included by the file's last line, is generated from it word for word
//! when the crate is built (`build.rs`, `twin.rs`; `cargo xtask c` expands the same text for
//! cbindgen).
//!
//! The `unsafe` of this crate is where C's pointers become Rust references: [`ffi`] (slices and
//! objects, each validated first) and the body and traversal set-up, where caller storage is
//! zeroed before it is viewed as typed arrays. The exported functions (one call each of their
//! file's generic work) are `unsafe extern "C"`: their `# Safety` sections state the C caller's
//! side of the contract.
#![no_std]
#![deny(missing_docs)]
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::std_instead_of_core,
    unsafe_op_in_unsafe_fn
)]
// The C names of the header are the Rust names.
#![allow(non_camel_case_types)]

// On hosts the library links `std` for its panic runtime (no panic path is reachable: see the
// bare-metal proof below); nothing in this crate uses it.
#[cfg(not(target_os = "none"))]
extern crate std;

pub mod status;

pub mod ffi;
pub mod version;

pub mod image;

pub mod body;

pub mod query;

pub mod boxes;
pub mod contacts;
pub mod proxies;
pub mod response;
pub mod separation;
pub mod swept;
pub mod traversal;
pub mod triangles;
pub mod world;

pub mod jacobian;
pub mod primitives;

/// Every C name in one place, as a C client sees them: the crate's tests call the library
/// through these only.
#[cfg(test)]
#[allow(unused_imports)] // every C name, whether a test uses it yet or not
mod c_names {
    pub use crate::body::{exports_f32::*, exports_f64::*, *};
    pub use crate::boxes::{exports_f32::*, exports_f64::*, *};
    pub use crate::contacts::{exports_f32::*, exports_f64::*, *};
    pub use crate::image::{exports_f32::*, exports_f64::*, *};
    pub use crate::jacobian::{exports_f32::*, exports_f64::*, *};
    pub use crate::primitives::{exports_f32::*, exports_f64::*, *};
    pub use crate::proxies::{exports_f32::*, exports_f64::*, *};
    pub use crate::query::*;
    pub use crate::response::{exports_f32::*, exports_f64::*, *};
    pub use crate::separation::{exports_f32::*, exports_f64::*, *};
    pub use crate::status::*;
    pub use crate::swept::{exports_f32::*, exports_f64::*, *};
    pub use crate::traversal::{exports_f32::*, exports_f64::*, *};
    pub use crate::triangles::{exports_f32::*, exports_f64::*, *};
    pub use crate::version::*;
    pub use crate::world::{exports_f32::*, exports_f64::*, *};
}

/// The crate's tests, one file per concept in `tests/`.
#[cfg(test)]
mod tests;

pub use status::bdtree_status;

/// Bare-metal targets: a panic cannot happen (`cargo xtask c` links the Cortex-M4F example
/// against the library built with `panic-check`, where this handler calls a symbol defined
/// nowhere). Should one ever run, it stops the core here.
#[cfg(all(target_os = "none", not(feature = "panic-check")))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    loop {
        core::hint::spin_loop();
    }
}

#[cfg(all(target_os = "none", feature = "panic-check"))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    extern "C" {
        /// Defined nowhere: a program links only if no panic path survives optimisation.
        fn bdtree_c_error_a_panic_path_is_reachable() -> !;
    }
    // SAFETY: never runs — a program links only when this function is unreachable.
    unsafe { bdtree_c_error_a_panic_path_is_reachable() }
}
