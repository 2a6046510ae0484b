//! What the measuring examples (`versus`, `versus_self`, `walk_profile`) share: the cache
//! folder for built images, their environment knobs, interleaved timing and medians, and
//! instruction counts from a run of the example itself under callgrind.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use bdtree_std::build::Precision;
use bdtree_std::io::{Basis, ImageBuf, Mesh};

use crate::query_scene::build_image;

/// `target/walk-profile/`: built images (and the FEM scene's bases) kept between runs.
pub fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/walk-profile")
}

/// The environment variable `name` as a count, or `default` when unset or not a count.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The median of `v` (the upper one of an even count); sorts `v`.
///
/// # Panics
///
/// If `v` is empty.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median over frames of the ratio of side `x`'s time to side `y`'s (each one time per
/// frame, as [`interleaved_medians`] gives them).
pub fn median_ratio(x: &[f64], y: &[f64]) -> f64 {
    let mut r: Vec<f64> = x.iter().zip(y).map(|(a, b)| a / b).collect();
    median(&mut r)
}

/// Interleaved timing of `N` sides: `rounds` rounds over `frames` frames, each frame run once
/// on every side in the order `order(round, frame)` gives (a permutation of `0..N`: see
/// [`alternated`], [`rotated`]), `frame(side, k)` the work of one side on frame `k`, timed
/// alone. Per side, each frame's median time in seconds.
pub fn interleaved_medians<const N: usize>(
    rounds: usize,
    frames: usize,
    order: fn(usize, usize) -> [usize; N],
    mut frame: impl FnMut(usize, usize),
) -> [Vec<f64>; N] {
    // Per frame, per side, the times of every round.
    let mut t: Vec<[Vec<f64>; N]> = (0..frames)
        .map(|_| std::array::from_fn(|_| Vec::with_capacity(rounds)))
        .collect();
    for round in 0..rounds {
        for (k, times) in t.iter_mut().enumerate() {
            for side in order(round, k) {
                let start = Instant::now();
                frame(side, k);
                times[side].push(start.elapsed().as_secs_f64());
            }
        }
    }
    std::array::from_fn(|side| t.iter_mut().map(|f| median(&mut f[side])).collect())
}

/// The sides in order on even `round + frame`, in reverse order on odd.
pub fn alternated<const N: usize>(round: usize, frame: usize) -> [usize; N] {
    std::array::from_fn(|i| {
        if (round + frame).is_multiple_of(2) {
            i
        } else {
            N - 1 - i
        }
    })
}

/// The sides in order starting from `(round + frame) mod N`.
pub fn rotated<const N: usize>(round: usize, frame: usize) -> [usize; N] {
    std::array::from_fn(|i| (i + round + frame) % N)
}

/// The image of `mesh` in `precision` (on the partition of [`crate::query_scene::bench_tree`]),
/// read from `cache_dir()/NAME-PRECISION[-medial].bdt` when one is
/// there that parses and has the mesh's triangle and mode counts, else built and written there.
pub fn cached_image(name: &str, mesh: &Mesh, basis: &Basis, precision: Precision) -> ImageBuf {
    let dir = cache_dir();
    let tree = match crate::query_scene::bench_tree() {
        bdtree_std::build::TreeKind::Median => String::new(),
        other => format!("-{}", other.name()),
    };
    let path = dir.join(format!("{name}-{precision:?}{tree}.bdt"));
    if let Ok(image) = ImageBuf::read(&path) {
        let fits = |triangles: usize, modes: usize| {
            triangles == mesh.triangles.len() && modes == basis.modes
        };
        let fresh = match precision {
            Precision::F32 => image
                .parse::<f32>()
                .is_ok_and(|v| fits(v.tree.triangle_count(), v.tree.modes())),
            Precision::F64 => image
                .parse::<f64>()
                .is_ok_and(|v| fits(v.tree.triangle_count(), v.tree.modes())),
        };
        if fresh {
            return image;
        }
    }
    let image = build_image(mesh, basis, precision);
    std::fs::create_dir_all(&dir).expect("the cache folder is writable");
    std::fs::write(&path, image.as_bytes()).expect("the image is written");
    image
}

/// Runs this example again under `valgrind --tool=callgrind` with `args`, collecting only
/// inside the functions matching `toggle` (e.g. `versus::bdtree_frame*`), writes the profile
/// to `file` and returns the instructions collected.
///
/// # Panics
///
/// If valgrind is missing or the run fails.
pub fn callgrind(file: &Path, toggle: &str, args: &[&str]) -> u64 {
    let exe = std::env::current_exe().expect("the example's path");
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", file.display()))
        .arg(format!("--toggle-collect={toggle}"))
        .arg(&exe)
        .args(args)
        .status()
        .expect("valgrind runs (install it: apt-get install valgrind)");
    assert!(
        status.success(),
        "the run of {args:?} under callgrind failed"
    );
    callgrind_total(file)
}

/// Instructions a callgrind file collected inside calls to functions whose names contain
/// `callee` (their inclusive cost, summed over the call sites in other functions).
///
/// # Panics
///
/// If the file cannot be read.
pub fn callgrind_inclusive(file: &Path, callee: &str) -> u64 {
    let text = std::fs::read_to_string(file).expect("the callgrind file is readable");
    // Compressed names: `fn=(id) name` or `cfn=(id) name` the first time, `(id)` after.
    let mut names = std::collections::HashMap::new();
    let mut is_callee = |rest: &str| {
        let (id, name) = rest.split_once(')').unwrap_or((rest, ""));
        let name = name.trim();
        if !name.is_empty() {
            names.insert(id.to_string(), name.contains(callee));
        }
        names.get(id).copied().unwrap_or(false)
    };
    let (mut inside, mut target, mut call) = (false, false, false);
    let mut sum = 0;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("fn=(") {
            inside = is_callee(rest);
        } else if let Some(rest) = line.strip_prefix("cfn=(") {
            target = is_callee(rest);
        } else if line.starts_with("calls=") {
            call = true;
        } else if call {
            // The line after `calls=` is the call's inclusive cost: position, then events.
            call = false;
            if target && !inside {
                sum += line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|c| c.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
    }
    sum
}

/// The `totals:` (or `summary:`) line of a callgrind file.
fn callgrind_total(file: &Path) -> u64 {
    let text = std::fs::read_to_string(file).expect("the callgrind file is readable");
    text.lines()
        .filter_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .filter_map(|v| v.split_whitespace().next()?.parse().ok())
        .next_back()
        .expect("a totals line")
}
