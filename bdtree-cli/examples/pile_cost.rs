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
//! (`q = 0`). It prints the candidate pairs, the contacts and the kernel's counters, and runs
//! the deformable world query once more on the same states: its sphere updates (none: every
//! sphere is computed once per step and serves all of its chair's pairs).
//!
//! `pairs FILE` runs the proxy walk of every chair pair whose centres are within the root's
//! diameter one pair at a time and sums its overlap tests and node pairs over the pairs with
//! a proxy contact and the pairs without: where the walk's work goes.
//!
//! ```sh
//! cargo run --release -p bdtree-cli --example pile_cost -- save 1000 1040 target/pile-1000.state
//! cargo build --release -p bdtree-cli --example pile_cost
//! valgrind --tool=callgrind --dump-instr=no --callgrind-out-file=target/pile.cg \
//!     target/release/examples/pile_cost count target/pile-1000.state both 1
//! callgrind_annotate --inclusive=yes target/pile.cg | head -60
//! ```

use std::path::Path;

use bdtree_cli::sim::chairs::{prepare_chair, simulate_with, ChairOptions, Placement, MODES};
use bdtree_cli::sim::state::{read_state, write_state};
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
fn step(
    world: &mut World,
    at: &[Placement],
    depth: u32,
    rigid: bool,
) -> Result<(String, u32), Error> {
    set_states(world, at, rigid)?;
    let on_ground = ground(world, depth)?;
    let answer = chair_pairs(world, depth)?;
    let wrenches = forces(world, &answer)?;
    let mut pairs = answer.found.iter().map(|f| f.bodies).collect::<Vec<_>>();
    pairs.dedup();
    let s = answer.stats;
    let line = format!(
        "{}: {} candidate chair pairs, {} colliding, {} proxy contacts, {} ground proxies; overlap tests {}, sphere updates {}, node pairs visited {}; {} wrenches; answer {:016x}",
        if rigid { "rigid" } else { "deformable" },
        answer.candidates,
        pairs.len(),
        answer.found.len(),
        on_ground,
        s.overlap_tests,
        s.sphere_updates,
        s.nodes_visited,
        wrenches.len(),
        fingerprint(&answer, &wrenches)
    );
    Ok((line, s.sphere_updates))
}

/// A hash (FNV-1a) of every bit of the answer — each proxy contact's bodies, nodes, spheres
/// and depth, in order — and of the wrenches: two builds that print the same one gave the
/// same answer.
fn fingerprint(answer: &WorldAnswer<Proxy>, wrenches: &[Wrench]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut eat = |x: u64| {
        for byte in x.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in &answer.found {
        f.bodies.iter().for_each(|&b| eat(b as u64));
        f.item.nodes.iter().for_each(|&n| eat(u64::from(n)));
        f.item
            .spheres
            .iter()
            .flatten()
            .for_each(|x| eat(x.to_bits()));
        eat(f.item.depth.to_bits());
    }
    for w in wrenches {
        w.force
            .iter()
            .chain(&w.torque)
            .chain(&w.q)
            .for_each(|x| eat(x.to_bits()));
    }
    hash
}

/// Where the proxy walk's work goes: the overlap tests and node pairs of the candidate pairs
/// with and without a proxy contact (every pair whose centres are within the root's diameter).
fn pair_costs(world: &mut World, at: &[Placement], radius: f64) -> Result<(), Error> {
    // [pairs, overlap tests, nodes visited, contacts] for pairs with no contact, with some.
    let mut sums = [[0u64; 4]; 2];
    let mut tests_by_contacts: Vec<(u64, u64)> = Vec::new();
    let bodies = world.bodies_mut();
    for j in 0..at.len() {
        for i in 0..j {
            let d2: f64 = (0..3).map(|k| (at[i].x[k] - at[j].x[k]).powi(2)).sum();
            if d2 > (2.0 * radius + 0.05).powi(2) {
                continue;
            }
            let (head, tail) = bodies.split_at_mut(j);
            let answer = bdtree_std::host::proxies(&mut head[i], 10, &mut tail[0], 10)?;
            let s = answer.stats;
            let side = usize::from(!answer.items.is_empty());
            let row = &mut sums[side];
            row[0] += 1;
            row[1] += u64::from(s.overlap_tests);
            row[2] += u64::from(s.nodes_visited);
            row[3] += answer.items.len() as u64;
            tests_by_contacts.push((answer.items.len() as u64, u64::from(s.overlap_tests)));
        }
    }
    for (name, row) in ["no contact", "in contact"].iter().zip(sums) {
        println!(
            "{name}: {} pairs, {} overlap tests ({:.0} per pair), {} node pairs visited, {} contacts",
            row[0],
            row[1],
            row[1] as f64 / row[0].max(1) as f64,
            row[2],
            row[3]
        );
    }
    tests_by_contacts.sort_unstable();
    let early = tests_by_contacts
        .iter()
        .filter(|p| p.0 == 0 && p.1 <= 5)
        .count();
    println!("pairs with no contact settled within 5 tests: {early}");
    Ok(())
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
    let comment = format!("pile of {count} chairs, step {step}: {contacts} proxy contacts");
    write_state(Path::new(path), &comment, &at)?;
    // The chair's tree beside it: `count` need not run the modal analysis again.
    std::fs::write(format!("{path}.image"), chair.image.as_bytes())?;
    println!("{path}: {count} chairs at step {step} ({contacts} proxy contacts)");
    Ok(())
}

/// The state at `path` and the chair's tree beside it (`path.image`; without it, the chair
/// prepared again).
fn load(path: &str) -> Result<(Vec<Placement>, Tree), Error> {
    let at = read_state(Path::new(path))?;
    let image = match std::fs::read(format!("{path}.image")) {
        Ok(bytes) => ImageBuf::from_bytes(&bytes),
        Err(_) => prepare_chair(chair_mesh())?.image,
    };
    Ok((at, Tree::new(image)?))
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
            let (at, tree) = load(path)?;
            let mut world = world(&tree, at.len(), threads)?;
            let depth = ChairOptions::pile(at.len()).proxy_depth;
            if which != "rigid" {
                let (line, first) = step(&mut world, &at, depth, false)?;
                println!("{line}");
                // The same query again on the same states: a sphere computed once per step
                // serves every pair, so nothing is updated again.
                let again = world.proxies(depth)?;
                println!(
                    "the world query again on the same states: {} sphere updates (the first: {:.0} a chair, of its tree's {} nodes)",
                    again.stats.sphere_updates,
                    first as f64 / at.len() as f64,
                    2 * tree.triangles().len() - 1
                );
            }
            if which != "deformable" {
                println!("{}", step(&mut world, &at, depth, true)?.0);
            }
            Ok(())
        }
        Some("pairs") => {
            let path = arg(1).ok_or("pairs FILE")?;
            let (at, tree) = load(path)?;
            let mut world = world(&tree, at.len(), 1)?;
            set_states(&mut world, &at, false)?;
            pair_costs(&mut world, &at, tree.radius())
        }
        _ => Err("usage: pile_cost save CHAIRS STEPS FILE | count FILE [deformable|rigid|both] [THREADS] | pairs FILE".into()),
    }
}
