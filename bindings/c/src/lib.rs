//! # bdtree-c
//!
//! The C API of [`bdtree_core`]: a static library (`libbdtree.a`) for hosts and bare-metal ARM
//! targets, and its header `include/bdtree.h`, generated from this crate by cbindgen
//! (`cargo xtask c` checks that the committed header is current; `cargo xtask c --overwrite`
//! rewrites it).
//!
//! Every function comes in two precisions (`…_f32`, `…_f64`), each reading tree images of its
//! scalar. Nothing is allocated: the caller owns every byte — the image, the objects
//! (`bdtree_image_f32`, `bdtree_body_f32`, `bdtree_traversal_f32`: fixed-size, 8-byte
//! aligned structs declared in the header, so they can be `static`, on the stack or in a
//! heap block), the body's storage, stacks and output buffers. Nothing panics: every pointer
//! and length is checked, and every outcome is a [`bdtree_status`]; a full output buffer is a
//! status (`BDTREE_STATUS_OUTPUT_FULL`), never a silent drop.
//!
//! The `unsafe` of this crate is where C's pointers become Rust references: [`raw`] (slices and
//! objects, each validated first) and the body and traversal set-up in [`api`], where caller
//! storage is zeroed before it is viewed as typed arrays. The exported functions (in [`exports_f32`]
//! and [`exports_f64`], one line each over [`api`]) are `unsafe extern "C"`: their `# Safety`
//! sections state the C caller's side of the contract.
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

pub mod api;
pub mod exports;
pub mod exports_f32;
pub mod exports_f64;
pub mod raw;
pub mod types;

#[cfg(test)]
mod contact_tests;
#[cfg(test)]
mod swept_tests;

pub use types::*;

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

#[cfg(test)]
mod tests {
    /// The header's version macros are the crate's version.
    #[test]
    fn the_version_macros_are_the_crate_version() {
        let version = std::format!(
            "{}.{}.{}",
            crate::types::BDTREE_VERSION_MAJOR,
            crate::types::BDTREE_VERSION_MINOR,
            crate::types::BDTREE_VERSION_PATCH
        );
        assert_eq!(version, env!("CARGO_PKG_VERSION"));
    }

    /// `exports_f64.rs` is `exports_f32.rs` in the other precision, word for word (`cargo
    /// xtask c --overwrite` writes it with the same substitution).
    #[test]
    fn the_f64_exports_mirror_the_f32_exports() {
        let f32_text = include_str!("exports_f32.rs");
        let f64_text = include_str!("exports_f64.rs");
        let head = |t: &str| t.lines().take(2).collect::<std::vec::Vec<_>>().join("\n");
        let mut expected = std::string::String::from(f32_text);
        for (from, to) in [
            ("f32", "f64"),
            ("F32", "F64"),
            ("floats", "doubles"),
            ("aligned to 4", "aligned to 8"),
        ] {
            expected = expected.replace(from, to);
        }
        // The head lines (which name the f32 source) are the f64 file's own.
        let expected = expected.replacen(&head(&expected), &head(f64_text), 1);
        assert!(
            expected == f64_text,
            "exports_f64.rs is stale: regenerate it from exports_f32.rs"
        );
    }
}
