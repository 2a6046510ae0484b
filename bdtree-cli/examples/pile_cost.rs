//! The cost of one step of a pile's collision part, on a saved state, for callgrind.
//!
//! `save CHAIRS STEPS FILE` simulates a pile of `CHAIRS` chairs (`--pile`, 2 threads) for
//! `STEPS` steps and writes the chair's tree image to `FILE.image` and the placements (centre, orientation, modal coordinates) of every
//! chair at its busiest step (the most chair–chair proxy contacts) to `FILE`, one chair a line.
//!
//! `count FILE [deformable|rigid|both] [THREADS]` loads that state into the world the
//! simulation steps (the chairs and the ground plane) and runs one step's collision part on
//! it, each in its own `#[inline(never)]` function so that callgrind counts them apart:
//! [`set_states`] (every chair's state), [`ground`] (its proxies against the ground plane),
//! [`chair_pairs`] (the broad phase and the proxy walk of every candidate pair) and
//! [`forces`] (every pair's penalty wrenches), deformable (the chairs' `q`) and rigid
//! (`q = 0`). It prints the candidate pairs, the contacts and the kernel's counters.
//!
//! ```sh
//! cargo run --release -p bdtree-cli --example pile_cost -- save 1000 1040 target/pile-1000.state
//! cargo build --release -p bdtree-cli --example pile_cost
//! valgrind --tool=callgrind --dump-instr=no --callgrind-out-file=target/pile.cg \
//!     target/release/examples/pile_cost count target/pile-1000.state both 1
//! callgrind_annotate --inclusive=yes target/pile.cg | head -60
//! ```

use std::io::Write;

use bdtree_cli::sim::chairs::{prepare_chair, simulate_with, ChairOptions, Placement, MODES};
use bdtree_std::host::{Body, Primitive, Proxy, Tree, World, WorldAnswer, Wrench};
use bdtree_std::io::scene::PrimitiveShape;
use bdtree_std::io::{ImageBuf, Pose};
use bdtree_std::shapes::chair_mesh;

type Error = Box<dyn std::error::Error>;

/// Every chair's state set (the sphere caches start over).
#[inline(never)]
fn set_states(world: &mut World, at: &[Placement], rigid: bool) -> Result<(), Error> {
    for (k, p) in at.iter().enumerate() {
        let q = if rigid { [0.0; MODES] } else { p.q };
        world.set_state(k, p.rotation, p.x, &q)?;
    }
    Ok(())
}

/// The chairs' proxies against the ground plane: how many reach into it.
#[inline(never)]
fn ground(world: &mut World, depth: u32) -> Result<usize, Error> {
    Ok(world.primitive_proxies(depth)?.found.len())
}

/// The broad phase and the proxy walk of every candidate chair pair.
#[inline(never)]
fn chair_pairs(world: &mut World, depth: u32) -> Result<WorldAnswer<Proxy>, Error> {
    Ok(world.proxies(depth)?)
}

/// Every pair's penalty wrenches.
#[inline(never)]
fn forces(world: &mut World, answer: &WorldAnswer<Proxy>) -> Result<Vec<Wrench>, Error> {
    Ok(world.proxy_wrenches(answer, &|_| 2e4)?)
}

/// One step's collision part on `at`, deformable or rigid.
#[inline(never)]
fn step(world: &mut World, at: &[Placement], depth: u32, rigid: bool) -> Result<String, Error> {
    set_states(world, at, rigid)?;
    let on_ground = ground(world, depth)?;
    let answer = chair_pairs(world, depth)?;
    let wrenches = forces(world, &answer)?;
    let mut pairs = answer.found.iter().map(|f| f.bodies).collect::<Vec<_>>();
    pairs.dedup();
    let s = answer.stats;
    Ok(format!(
        "{}: {} candidate chair pairs, {} colliding, {} proxy contacts, {} ground proxies; overlap tests {}, sphere updates {}, node pairs visited {}; {} wrenches",
        if rigid { "rigid" } else { "deformable" },
        answer.candidates,
        pairs.len(),
        answer.found.len(),
        on_ground,
        s.overlap_tests,
        s.sphere_updates,
        s.nodes_visited,
        wrenches.len()
    ))
}

fn world(tree: &Tree, count: usize, threads: usize) -> Result<World, Error> {
    let bodies = (0..count)
        .map(|_| Body::new(tree))
        .collect::<Result<Vec<_>, _>>()?;
    let plane = PrimitiveShape::Plane {
        normal: [0.0, 0.0, 1.0],
        offset: 0.0,
    };
    let mut world = World::new(bodies, vec![Primitive::new(plane, Pose::IDENTITY)?])?;
    world.set_threads(threads)?;
    Ok(world)
}

fn save(count: usize, steps: usize, path: &str) -> Result<(), Error> {
    let chair = prepare_chair(chair_mesh())?;
    let options = ChairOptions {
        steps,
        threads: 2,
        ..ChairOptions::pile(count)
    };
    let mut busiest: Option<(usize, usize, Vec<Placement>)> = None;
    simulate_with(&chair, &options, &mut |step, at, report, _| {
        if busiest.as_ref().is_none_or(|b| report.contacts >= b.1) {
            busiest = Some((step, report.contacts, at.to_vec()));
        }
        if step % 50 == 0 {
            eprintln!("step {step}: {} proxy contacts", report.contacts);
        }
        Ok(())
    })?;
    let (step, contacts, at) = busiest.ok_or("no step")?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "# pile of {count} chairs, step {step}: {contacts} proxy contacts; x[3] rotation[4] q[{MODES}] per line")?;
    for p in &at {
        let numbers: Vec<String> =
            p.x.iter()
                .chain(&p.rotation)
                .chain(&p.q)
                .map(|v| format!("{v:?}"))
                .collect();
        writeln!(out, "{}", numbers.join(" "))?;
    }
    // The chair's tree beside it: `count` need not run the modal analysis again.
    std::fs::write(format!("{path}.image"), chair.image.as_bytes())?;
    println!("{path}: {count} chairs at step {step} ({contacts} proxy contacts)");
    Ok(())
}

fn load(path: &str) -> Result<Vec<Placement>, Error> {
    let text = std::fs::read_to_string(path)?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let v: Vec<f64> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        if v.len() != 7 + MODES {
            return Err(format!("{path}:{}: {} numbers, not {}", n + 1, v.len(), 7 + MODES).into());
        }
        out.push(Placement {
            x: [v[0], v[1], v[2]],
            rotation: [v[3], v[4], v[5], v[6]],
            q: std::array::from_fn(|j| v[7 + j]),
        });
    }
    Ok(out)
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |k: usize| args.get(k).map(String::as_str);
    match arg(0) {
        Some("save") => {
            let count = arg(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
            let steps = arg(2).and_then(|a| a.parse().ok()).unwrap_or(1040);
            save(count, steps, arg(3).unwrap_or("target/pile.state"))
        }
        Some("count") => {
            let path = arg(1).ok_or("count FILE")?;
            let which = arg(2).unwrap_or("both");
            let threads = arg(3).and_then(|a| a.parse().ok()).unwrap_or(1);
            let at = load(path)?;
            let image = match std::fs::read(format!("{path}.image")) {
                Ok(bytes) => ImageBuf::from_bytes(&bytes),
                Err(_) => prepare_chair(chair_mesh())?.image,
            };
            let tree = Tree::new(image)?;
            let mut world = world(&tree, at.len(), threads)?;
            let depth = ChairOptions::pile(at.len()).proxy_depth;
            if which != "rigid" {
                println!("{}", step(&mut world, &at, depth, false)?);
            }
            if which != "deformable" {
                println!("{}", step(&mut world, &at, depth, true)?);
            }
            Ok(())
        }
        _ => Err("usage: pile_cost save CHAIRS STEPS FILE | count FILE [deformable|rigid|both] [THREADS]".into()),
    }
}
