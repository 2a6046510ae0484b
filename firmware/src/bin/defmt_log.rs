//! bdtree through defmt: a triangle query between two M = 10 bodies, its outcome and pairs
//! logged with `defmt` (bdtree-core's `defmt` feature derives `Format` for its types) over
//! semihosting (`defmt-semihosting`). The host decodes the binary log with `defmt-print -e
//! <this ELF>` (`cargo xtask defmt`).
#![no_std]
#![no_main]

use bdtree_core::{collide, AlignedImage, Body, CacheEntry, Image, Pose, TrianglePair};
use bdtree_firmware::rt;
use defmt_semihosting as _;

static IMAGE: &AlignedImage<[u8]> = bdtree_firmware::BENCH_F32;
const NODES: usize = 160;

#[no_mangle]
fn firmware_main() -> ! {
    let Ok(image) = Image::<f32>::parse(&IMAGE.0) else {
        defmt::error!("image rejected");
        rt::exit(false)
    };
    defmt::info!(
        "image: {=usize} nodes, {=usize} modes, encoding {}",
        image.tree.node_count(),
        image.tree.modes(),
        image.tree.encoding()
    );
    let (mut ca, mut cb) = ([CacheEntry::EMPTY; NODES], [CacheEntry::EMPTY; NODES]);
    let (mut ma, mut mb) = ([0.0f32; 50], [0.0f32; 50]);
    let (Ok(mut a), Ok(mut b)) = (
        Body::new(&image, &mut ca, &mut ma),
        Body::new(&image, &mut cb, &mut mb),
    ) else {
        defmt::error!("storage too small");
        rt::exit(false)
    };
    let q = [
        0.05f32, -0.02, 0.01, 0.0, 0.03, -0.01, 0.02, 0.0, -0.03, 0.01,
    ];
    let shifted = Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.3, 0.1, 0.0]);
    match (
        a.set_state(Pose::identity(), &q),
        shifted.map(|p| b.set_state(p, &q)),
    ) {
        (Ok(()), Ok(Ok(()))) => {}
        (Err(e), _) | (_, Ok(Err(e))) => {
            defmt::error!("state refused: {}", e);
            rt::exit(false)
        }
        (_, Err(e)) => {
            defmt::error!("pose refused: {}", e);
            rt::exit(false)
        }
    }
    let mut stack = [[0u32; 2]; 64];
    let mut shown = 0u32;
    let outcome = collide(&mut a, &mut b, &mut stack, &mut |p: TrianglePair| {
        if shown < 3 {
            defmt::info!("pair {}", p);
        }
        shown += 1;
        true
    });
    defmt::info!(
        "query: {} ({=u32} pairs), {}",
        outcome.status,
        shown,
        outcome.stats
    );
    rt::exit(outcome.status.is_complete() && shown > 0)
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    defmt::error!("panic");
    rt::exit(false)
}
