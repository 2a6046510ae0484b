//! The demo's picture: every chair at the busiest step, the triangles the exact check found in
//! contact highlighted, and the step's penalty contact points; the heap of a pile from the side;
//! the collision time per step, deformable and rigid.

use std::path::Path;

use super::error::RenderError;
use super::render::{snapshot_with, timeline, Series, SnapshotBody, SnapshotOptions, View};
use crate::sim::chairs::{world_vertices, Chair};
use crate::sim::demo::{Demo, Kept};

/// Draws the busiest step of `demo` into `path` (`.png` or `.svg`).
pub fn picture(chair: &Chair, demo: &Demo, path: &Path) -> Result<(), RenderError> {
    let (worlds, highlighted) = (&demo.worlds, &demo.check.contact_triangles);
    let step = demo.busiest;
    let contacts = &demo.at_busiest.contacts;
    let bodies: Vec<SnapshotBody> = worlds
        .iter()
        .zip(highlighted)
        .map(|(vertices, high)| SnapshotBody {
            vertices: vertices.clone(),
            triangles: chair.mesh.triangles.clone(),
            highlighted: high.clone(),
            ..SnapshotBody::default()
        })
        .collect();
    let points: Vec<[f64; 3]> = contacts.chairs.iter().map(|p| p.map(f64::from)).collect();
    let caption = format!(
        "bdtree demo: {} flexing chairs at step {step} (t = {:.2} s), the busiest step",
        worlds.len(),
        step as f64 * demo.options.dt
    );
    let options = SnapshotOptions {
        ground: Some(0.0),
        lines: vec![format!(
            "penalty contact points of the step's {} chair–chair proxy contacts; {} triangles of the exact check's intersecting pairs",
            points.len(),
            highlighted.iter().map(Vec::len).sum::<usize>()
        )],
        ..SnapshotOptions::default()
    };
    snapshot_with(&bodies, &points, &caption, &options, path)
}

/// Chairs at most in the side picture of a heap (the ones nearest its middle plane).
const SLICE_CHAIRS: usize = 400;

/// The heap from the side at the kept step `at` of `demo` into `path` (`.png` or `.svg`): the chairs
/// whose centres lie in a 2.4 m slab through the heap's middle (`y` between the centres'
/// median ± 1.2 m; at most 400, the nearest), seen along `+y`, with the step's
/// chair–chair penalty contact points in the slab.
pub fn heap_picture(chair: &Chair, demo: &Demo, at: &Kept, path: &Path) -> Result<(), RenderError> {
    let (step, placements) = (at.step, &at.placements);
    let mut ys: Vec<f64> = placements.iter().map(|p| p.x[1]).collect();
    ys.sort_by(f64::total_cmp);
    let middle = ys.get(ys.len() / 2).copied().unwrap_or(0.0);
    let mut slab: Vec<(f64, usize)> = placements
        .iter()
        .enumerate()
        .map(|(k, p)| ((p.x[1] - middle).abs(), k))
        .filter(|&(d, _)| d <= 1.2)
        .collect();
    slab.sort_by(|a, b| a.0.total_cmp(&b.0));
    slab.truncate(SLICE_CHAIRS);
    let bodies: Vec<SnapshotBody> = slab
        .iter()
        .map(|&(_, k)| SnapshotBody {
            vertices: world_vertices(chair, &placements[k]),
            triangles: chair.mesh.triangles.clone(),
            ..SnapshotBody::default()
        })
        .collect();
    let points: Vec<[f64; 3]> = at
        .contacts
        .chairs
        .iter()
        .filter(|p| (f64::from(p[1]) - middle).abs() <= 1.2)
        .map(|p| p.map(f64::from))
        .collect();
    let top = placements.iter().map(|p| p.x[2]).fold(0.0, f64::max);
    let caption = format!(
        "bdtree demo --pile: {} flexing chairs at t = {:.2} s, the heap from the side (a 2.4 m slab through its middle)",
        placements.len(),
        step as f64 * demo.options.dt
    );
    let options = SnapshotOptions {
        view: View::Y,
        size: (1400, 800),
        ground: Some(0.0),
        lines: vec![format!(
            "{} chairs in the slab; the highest centre of mass {top:.2} m above the ground; penalty contact points of the slab's chair–chair proxy contacts",
            bodies.len()
        )],
        ..SnapshotOptions::default()
    };
    snapshot_with(&bodies, &points, &caption, &options, path)
}

/// The collision time of every step of `demo`, deformable and rigid (the same placements,
/// `q = 0`), in milliseconds, into `path` (`.png` or `.svg`).
pub fn collision_plot(demo: &Demo, path: &Path) -> Result<(), RenderError> {
    let ms = |s: &[f64]| s.iter().map(|x| x * 1e3).collect::<Vec<_>>();
    let series = [
        Series {
            name: format!(
                "deformable (mean {:.1} ms)",
                demo.deformable.mean_seconds * 1e3
            ),
            values: ms(&demo.deformable.seconds),
        },
        Series {
            name: format!(
                "rigid, the same placements (mean {:.1} ms)",
                demo.rigid.mean_seconds * 1e3
            ),
            values: ms(&demo.rigid.seconds),
        },
    ];
    let title = format!(
        "bdtree demo: {} chairs, collision time per step on {} thread{} (proxies at depth {})",
        demo.options.count,
        demo.threads,
        if demo.threads == 1 { "" } else { "s" },
        demo.options.proxy_depth
    );
    timeline(
        &series,
        demo.options.dt,
        &title,
        "collision time per step, ms",
        (1200, 600),
        path,
    )
}
