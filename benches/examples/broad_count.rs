//! Instructions per body of the two broad phases (sweep-and-prune and the uniform grid) on the
//! layouts of the `broad` bench, under callgrind: each side's frames in a function of its own
//! that is never inlined, the world built and the first frame run beforehand (not counted).
//!
//! ```text
//! cargo build --release -p bdtree-benches --example broad_count
//! for l in flat pile; do for n in 64 256 1000 3601; do for s in sweep grid; do
//!   valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
//!     --toggle-collect='broad_count::frames_*' target/release/examples/broad_count $l $n $s
//! done; done; done   # "Collected" / (10 frames × n): instructions per body and frame
//! ```

use std::hint::black_box;

use bdtree_benches::broad_scene::{drift, flat, pile};
use bdtree_core::{AllPairs, GridStatus, SweepAndPrune, UniformGrid};

/// Frames counted.
const FRAMES: usize = 10;

#[inline(never)]
fn frames_sweep(sap: &mut SweepAndPrune<'_>, spheres: &mut [[f32; 4]]) -> u32 {
    let mut count = 0u32;
    for frame in 1..=FRAMES {
        drift(spheres, frame);
        sap.pairs(spheres, &AllPairs, &mut |_, _| {
            count += 1;
            true
        });
    }
    count
}

#[inline(never)]
fn frames_grid(words: &mut [u32], spheres: &mut [[f32; 4]]) -> u32 {
    let mut count = 0u32;
    for frame in 1..=FRAMES {
        drift(spheres, frame);
        let (status, _) = UniformGrid::new(words).pairs(spheres, &AllPairs, &mut |_, _| {
            count += 1;
            true
        });
        assert_eq!(status, GridStatus::Complete);
    }
    count
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (layout, n, side) = match args.as_slice() {
        [_, l, n, s] => (l.as_str(), n.parse::<usize>().expect("n"), s.as_str()),
        _ => panic!("usage: broad_count flat|pile N sweep|grid"),
    };
    let mut spheres = match layout {
        "flat" => flat(n, 0x5eed + n as u64),
        _ => pile(n, 0x5eed + n as u64),
    };
    let mut order = vec![0u32; n];
    let mut sap = SweepAndPrune::new(&mut order);
    let mut words = vec![0u32; UniformGrid::words_needed(n)];
    // The first frame (the sweep's first sort) is not counted.
    sap.pairs(&spheres, &AllPairs, &mut |_, _| true);
    let pairs = match side {
        "sweep" => frames_sweep(&mut sap, &mut spheres),
        _ => frames_grid(&mut words, &mut spheres),
    };
    println!(
        "{layout} {n} {side}: {} pairs per frame",
        pairs as usize / FRAMES
    );
    black_box(pairs);
}
