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

use bdtree_core::{AllPairs, GridStatus, SweepAndPrune, UniformGrid};

/// Frames counted.
const FRAMES: usize = 10;

fn flat(n: usize, seed: u64) -> Vec<[f32; 4]> {
    let mut rng = bdtree_std::rng::Rng::from_state(seed);
    let mut next = move || rng.unit();
    let side = 40.0 * (n as f64 / 1000.0).sqrt();
    (0..n)
        .map(|_| {
            [
                (next() * side) as f32,
                (next() * side) as f32,
                (next() * 4.0) as f32,
                (0.3 + 0.3 * next()) as f32,
            ]
        })
        .collect()
}

fn pile(n: usize, seed: u64) -> Vec<[f32; 4]> {
    let mut rng = bdtree_std::rng::Rng::from_state(seed);
    let base = (0.35 * n as f64 * 3.0 / std::f64::consts::PI).cbrt();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = [0, 1, 2].map(|_| rng.unit());
        let (x, y, z) = (
            (2.0 * p[0] - 1.0) * base,
            (2.0 * p[1] - 1.0) * base,
            p[2] * base,
        );
        if (x * x + y * y).sqrt() <= base - z {
            out.push([x as f32, y as f32, (z + 0.5) as f32, 0.56]);
        }
    }
    out
}

fn drift(spheres: &mut [[f32; 4]], frame: usize) {
    for (k, s) in spheres.iter_mut().enumerate() {
        let phase = (k * 7 + frame) as f32 * 0.1;
        s[0] += 0.02 * phase.sin();
        s[1] += 0.02 * phase.cos();
    }
}

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
