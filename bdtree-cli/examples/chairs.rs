//! Many flexing chairs dropped on the ground: the BD-Tree paper's chairs experiment
//! ([`bdtree_cli::sim::chairs`]), at a chosen scale. `bdtree demo` runs a small version of it.
//!
//! The deformable trajectory is recorded, then its collision part (broad phase, proxy queries
//! and ground) is replayed twice on the same placements: with the chairs' `q`, and rigid
//! (`q = 0`).
//!
//! ```sh
//! cargo run --release -p bdtree-cli --example chairs -- 1000 [steps]
//! ```

use std::time::Instant;

use bdtree_cli::sim::chairs::{prepare_chair, simulate, ChairOptions, MODES};
use bdtree_cli::sim::replay::replay;
use bdtree_std::shapes::chair_mesh;

fn main() -> Result<(), bdtree_cli::sim::chairs::SimError> {
    let mut args = std::env::args().skip(1);
    let count = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let steps = args.next().and_then(|a| a.parse().ok()).unwrap_or(400);
    let options = ChairOptions {
        count,
        steps,
        ..ChairOptions::default()
    };
    let started = Instant::now();
    let chair = prepare_chair(chair_mesh())?;
    println!(
        "chair: {} triangles, {:.1} kg, modes {:.0}–{:.0} Hz, tree depth {} (modal analysis and build {:.1} s)",
        chair.mesh.triangles.len(),
        chair.mass,
        chair.frequencies_hz[0],
        chair.frequencies_hz[MODES - 1],
        chair.depth,
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let trajectory = simulate(&chair, &options, &mut |_, _| {})?;
    let simulated = started.elapsed().as_secs_f64();
    let deformable = replay(&chair, &options, &trajectory, false)?;
    let rigid = replay(&chair, &options, &trajectory, true)?;
    let seconds = steps as f64 * options.dt;
    println!(
        "{count} chairs, {steps} steps of {} ms ({seconds:.1} s simulated in {simulated:.1} s), proxy depth {}:",
        options.dt * 1e3,
        options.proxy_depth
    );
    for (name, r) in [("deformable", &deformable), ("rigid (q = 0)", &rigid)] {
        println!(
            "  {name}: collision {:.3} ms per step (median {:.3}), {:.1} colliding chair pairs ({:.0} collision events per simulated second), {:.1} chair–chair and {:.1} ground proxy contacts per step",
            r.mean_seconds * 1e3,
            r.median_seconds * 1e3,
            r.colliding_pairs,
            r.colliding_pairs / options.dt,
            r.contacts,
            r.ground_contacts
        );
    }
    println!(
        "  deformable / rigid collision cost: {:.2} mean, {:.2} median (paper: 2; target ≤ 1.5)",
        deformable.mean_seconds / rigid.mean_seconds,
        deformable.median_seconds / rigid.median_seconds
    );
    Ok(())
}
