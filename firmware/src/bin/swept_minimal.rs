//! The f32 swept query and nothing else: two objects over the M = 10 image (one f32 image,
//! embedded), each at two states, one `collide_swept`. `cargo xtask size` builds it for the
//! Cortex-M4F and checks from its symbols that the f32 swept path links no double-precision
//! soft-float routine (`__aeabi_d…`, `__…df…`). Exits with status 0 when the query completed and
//! found pairs.
#![no_std]
#![no_main]

use bdtree_core::{collide_swept, AlignedImage, Body, CacheEntry, Image, Pose, SweptPair};
use bdtree_firmware::rt;

/// The M = 10 image (80 triangles, 159 nodes).
static IMAGE: &AlignedImage<[u8]> = bdtree_firmware::BENCH_F32;
const NODES: usize = 160;
const MODES: usize = 10;

static mut CACHES: [[CacheEntry<f32>; NODES]; 4] = [[CacheEntry::EMPTY; NODES]; 4];
static mut SLOTS: [[f32; 5 * MODES]; 4] = [[0.0; 5 * MODES]; 4];

#[no_mangle]
fn firmware_main() -> ! {
    // SAFETY: the only references ever made to these statics.
    let ([c0, c1, c2, c3], [m0, m1, m2, m3]) = unsafe {
        (
            &mut *core::ptr::addr_of_mut!(CACHES),
            &mut *core::ptr::addr_of_mut!(SLOTS),
        )
    };
    let Ok(image) = Image::<f32>::parse(&IMAGE.0) else {
        rt::exit(false)
    };
    let (Ok(mut a0), Ok(mut a1), Ok(mut b0), Ok(mut b1)) = (
        Body::new(&image, c0, m0),
        Body::new(&image, c1, m1),
        Body::new(&image, c2, m2),
        Body::new(&image, c3, m3),
    ) else {
        rt::exit(false)
    };
    let q = [
        0.05f32, -0.02, 0.01, 0.0, 0.03, -0.01, 0.02, 0.0, -0.03, 0.01,
    ];
    // The second object passes through the first, turning, between the two ticks.
    let (Ok(from), Ok(to)) = (
        Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.5]),
        Pose::from_quaternion([0.8660254, 0.5, 0.0, 0.0], [0.1, 0.0, -1.5]),
    ) else {
        rt::exit(false)
    };
    let states = [
        a0.set_state(Pose::identity(), &q),
        a1.set_state(Pose::identity(), &q),
        b0.set_state(from, &q),
        b1.set_state(to, &q),
    ];
    if states.iter().any(Result::is_err) {
        rt::exit(false)
    }
    let mut stack = [[0u32; 2]; 64];
    let mut pairs = 0u32;
    let outcome = collide_swept(
        &mut a0,
        &mut a1,
        &mut b0,
        &mut b1,
        &mut stack,
        &mut |_: SweptPair<f32>| {
            pairs += 1;
            true
        },
    );
    rt::exit(outcome.status.is_complete() && pairs > 0)
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    rt::exit(false)
}
