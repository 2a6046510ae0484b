//! bdtree's fixture checks and measurements on emulated ARM cores.
//!
//! `cargo xtask firmware-pack` writes `pack/`: the fixture pack (every scene's f32 tree images,
//! every frame's poses and `q`, and the host's answers — pairs, counters and checksums of the
//! computed spheres and vertices) and two M = 10 images for the benchmarks and the small
//! firmwares. The binaries (`src/bin/`):
//!
//! * `replay` — replays every frame with the same kernel on the target and requires the host's
//!   answers bit for bit ([`replay`]), and measures instructions and stack; then the
//!   tunnelling scene's swept queries against the host's ([`swept`]);
//! * `minimal` — two bodies and one triangle query: the size a user pays;
//! * `panic-check` — links every public entry point of `bdtree-core` without a panic handler;
//! * `defmt-log` — a query's outcome logged through defmt.
//!
//! [`rt`] holds what differs between the cores (start-up, semihosting, counters, stack).
#![no_std]

pub mod checksum;
pub mod out;
pub mod pack;
pub mod replay;
pub mod rt;
pub mod swept;

/// An M = 10 f32 tree image (an icosphere with a smooth 10-mode basis, nested), for the
/// benchmarks and the small firmwares.
pub static BENCH_F32: &bdtree_core::AlignedImage<[u8]> =
    &bdtree_core::AlignedImage(*include_bytes!("../pack/bench-f32.bin"));
/// The same body as an f64 image.
pub static BENCH_F64: &bdtree_core::AlignedImage<[u8]> =
    &bdtree_core::AlignedImage(*include_bytes!("../pack/bench-f64.bin"));
