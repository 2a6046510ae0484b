//! The least a user links: two bodies at M = 10 (one f32 image, embedded), one triangle query,
//! no harness and no formatting. Exits with status 0 when the query completed and found pairs.
//! `cargo xtask size` builds it at opt-level `s` without default features (bdtree-core without
//! its unrolled sphere update) and budgets its flash and RAM
//! (`minimal.<target>.text|rodata|bss`).
#![no_std]
#![no_main]

use bdtree_core::{collide, AlignedImage, Body, CacheEntry, Image, Pose, TrianglePair};
use bdtree_firmware::rt;

/// The M = 10 image (80 triangles, 159 nodes).
static IMAGE: &AlignedImage<[u8]> = bdtree_firmware::BENCH_F32;
const NODES: usize = 160;
const MODES: usize = 10;

static mut CACHES: [[CacheEntry<f32>; NODES]; 2] = [[CacheEntry::EMPTY; NODES]; 2];
static mut SLOTS: [[f32; 5 * MODES]; 2] = [[0.0; 5 * MODES]; 2];

#[no_mangle]
fn firmware_main() -> ! {
    // SAFETY: the only references ever made to these statics.
    let ([ca, cb], [ma, mb]) = unsafe {
        (
            &mut *core::ptr::addr_of_mut!(CACHES),
            &mut *core::ptr::addr_of_mut!(SLOTS),
        )
    };
    let Ok(image) = Image::<f32>::parse(&IMAGE.0) else {
        rt::exit(false)
    };
    let (Ok(mut a), Ok(mut b)) = (Body::new(&image, ca, ma), Body::new(&image, cb, mb)) else {
        rt::exit(false)
    };
    let q = [
        0.05f32, -0.02, 0.01, 0.0, 0.03, -0.01, 0.02, 0.0, -0.03, 0.01,
    ];
    let shifted = Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.3, 0.1, 0.0]);
    let (Ok(()), Ok(Ok(()))) = (
        a.set_state(Pose::identity(), &q),
        shifted.map(|pose| b.set_state(pose, &q)),
    ) else {
        rt::exit(false)
    };
    let mut stack = [[0u32; 2]; 64];
    let mut pairs = 0u32;
    let outcome = collide(&mut a, &mut b, &mut stack, &mut |_: TrianglePair| {
        pairs += 1;
        true
    });
    rt::exit(outcome.status.is_complete() && pairs > 0)
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    rt::exit(false)
}
