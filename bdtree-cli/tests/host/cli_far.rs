//! Answers conservative against the state as the caller gave it, far from the origin and at
//! millimetre scale, through the command line (the kernel's side of it:
//! `bdtree-std/tests/kernel/body/floating_origin.rs`).

use crate::support::scenes::{far_scene, touching_scene, write_scene};

/// The far and touching scenes through the CLI: `bdtree collide SCENE --precision f32
/// --check` (the exact second stage on, as users run it) misses no pair of the f64 brute
/// force. `BDTREE_FAR_CLI_SCENES` scenes per kind (default 40; the full run: 1000).
#[test]
fn far_and_touching_scenes_through_the_cli_miss_nothing() {
    let total = std::env::var("BDTREE_FAR_CLI_SCENES")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(40);
    let per_family = 20.min(total.max(1));
    let dir = crate::support::Scratch::new("far-cli");
    let mut checked = 0;
    for family in 0..total.div_ceil(per_family) as u64 {
        for (kind, scene) in [
            ("far", far_scene(0xc11f + family, per_family)),
            ("touching", touching_scene(0xc11e + family, per_family)),
        ] {
            let path = write_scene(&dir, &scene, &format!("{kind}{family}"));
            for precision in ["f32", "f64"] {
                let what = format!("{kind} family {family}");
                crate::binary::collide_checked(&path, Some(precision), &what);
                checked += scene.frames.len();
            }
        }
    }
    eprintln!("{checked} scene-precision runs through the CLI, none missed a pair");
}
