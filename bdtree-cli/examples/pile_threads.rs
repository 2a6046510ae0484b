//! Two threads against one on the world query of a pile: a pile of chairs
//! ([`bdtree_cli::sim::chairs`], `--pile`) is simulated, and at its busiest step (the most
//! proxy contacts) the world's proxy query at depth 10 ([`bdtree_std::host::World::proxies`])
//! is timed on two worlds holding that state, one answering on 1 thread and one on 2,
//! interleaved frame by frame with the order flipped every frame. Prints the medians, their
//! ratio and the median of the per-frame ratios, the cores each side's frames got (CPU time
//! over wall time: on a loaded machine two threads may not get two cores), and checks that
//! both answers are the same.
//!
//! ```sh
//! cargo run --release -p bdtree-cli --example pile_threads -- [chairs] [frames]
//! cargo run --release -p bdtree-cli --example pile_threads -- FILE [frames]
//! ```
//!
//! Defaults: 216 chairs, 41 frames. With a state file (`pile_cost save`, e.g. the 1,000-chair
//! pile at its busiest step) the frames run on that state instead of a simulated one. On a shared machine run it several times and give the load
//! (`uptime`) beside the figures.

use std::time::Instant;

use bdtree_cli::sim::chairs::{prepare_chair, simulate, ChairOptions, Placement};
use bdtree_cli::sim::state::read_state;
use bdtree_std::host::{Body, Primitive, Tree, World};
use bdtree_std::io::scene::PrimitiveShape;
use bdtree_std::io::Pose;
use bdtree_std::shapes::chair_mesh;

fn world(
    tree: &Tree,
    at: &[Placement],
    threads: usize,
) -> Result<World, Box<dyn std::error::Error>> {
    let bodies = at
        .iter()
        .map(|_| Body::new(tree))
        .collect::<Result<Vec<_>, _>>()?;
    let plane = PrimitiveShape::Plane {
        normal: [0.0, 0.0, 1.0],
        offset: 0.0,
    };
    let ground = Primitive::new(plane, Pose::IDENTITY)?;
    let mut world = World::new(bodies, vec![ground])?;
    world.set_threads(threads)?;
    for (k, p) in at.iter().enumerate() {
        world.set_state(k, p.rotation, p.x, &p.q)?;
    }
    Ok(world)
}

/// One frame of the query: seconds and the answer's proxy contacts.
#[inline(never)]
fn frame(
    world: &mut World,
    at: &[Placement],
    depth: u32,
) -> Result<(f64, Vec<String>), Box<dyn std::error::Error>> {
    // A new frame: the states set again (the sphere caches start over), then the query.
    for (k, p) in at.iter().enumerate() {
        world.set_state(k, p.rotation, p.x, &p.q)?;
    }
    let started = Instant::now();
    let answer = world.proxies(depth)?;
    let seconds = started.elapsed().as_secs_f64();
    let found = answer
        .found
        .iter()
        .map(|f| format!("{:?} {:?}", f.bodies, f.item.nodes))
        .collect();
    Ok((seconds, found))
}

/// The process's CPU seconds so far (user and system, all threads; Linux's `/proc/self/stat`,
/// in clock ticks of 1/100 s), or `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis; utime and stime are the 14th and
    // 15th of the line, the 12th and 13th after it.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let first = args.next().unwrap_or_else(|| "216".to_string());
    let frames: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(41);
    let chair = prepare_chair(chair_mesh())?;
    let (at, options) = match first.parse::<usize>() {
        Ok(count) => {
            let options = ChairOptions {
                threads: 2,
                ..ChairOptions::pile(count)
            };
            let started = Instant::now();
            let trajectory = simulate(&chair, &options, &mut |_, _| {})?;
            let busiest = (0..trajectory.reports.len())
                .max_by_key(|&s| trajectory.reports[s].contacts)
                .unwrap_or(0);
            println!(
                "pile of {count} chairs: {} steps simulated in {:.1} s; busiest step {busiest}: {} chair–chair proxy contacts, {} colliding chair pairs",
                options.steps,
                started.elapsed().as_secs_f64(),
                trajectory.reports[busiest].contacts,
                trajectory.reports[busiest].colliding_pairs
            );
            (trajectory.steps[busiest].clone(), options)
        }
        Err(_) => {
            let at = read_state(std::path::Path::new(&first))?;
            println!("{first}: {} chairs", at.len());
            let options = ChairOptions::pile(at.len());
            (at, options)
        }
    };
    let at = &at;
    let tree = Tree::new(chair.image.clone())?;
    let (mut one, mut two) = (world(&tree, at, 1)?, world(&tree, at, 2)?);
    let depth = options.proxy_depth;
    // One frame of each to warm up, and the answers compared.
    let (_, a) = frame(&mut one, at, depth)?;
    let (_, b) = frame(&mut two, at, depth)?;
    if a != b {
        return Err("the answers on 1 and 2 threads differ".into());
    }
    let (mut t1, mut t2, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    // CPU seconds over wall seconds of each side's frames: the cores it got.
    let mut cores = [[0.0f64; 2]; 2];
    let mut timed = |world: &mut World, side: usize| -> Result<f64, Box<dyn std::error::Error>> {
        let (cpu, started) = (cpu_seconds(), Instant::now());
        let seconds = frame(world, at, depth)?.0;
        if let (Some(a), Some(b)) = (cpu, cpu_seconds()) {
            cores[side][0] += b - a;
            cores[side][1] += started.elapsed().as_secs_f64();
        }
        Ok(seconds)
    };
    for k in 0..frames {
        let (s1, s2) = if k % 2 == 0 {
            let s1 = timed(&mut one, 0)?;
            (s1, timed(&mut two, 1)?)
        } else {
            let s2 = timed(&mut two, 1)?;
            (timed(&mut one, 0)?, s2)
        };
        t1.push(s1);
        t2.push(s2);
        ratios.push(s1 / s2);
    }
    let (m1, m2) = (median(&mut t1), median(&mut t2));
    println!(
        "world query (proxies at depth {depth}, {} contacts), {frames} interleaved frames, order flipped: median {:.2} ms on 1 thread, {:.2} ms on 2: {:.2}x (median of the per-frame ratios {:.2}x; the same answers)",
        a.len(),
        m1 * 1e3,
        m2 * 1e3,
        m1 / m2,
        median(&mut ratios)
    );
    println!(
        "cores the frames got (CPU seconds over wall seconds, set_state included): {:.2} on 1 thread, {:.2} on 2",
        cores[0][0] / cores[0][1].max(1e-9),
        cores[1][0] / cores[1][1].max(1e-9)
    );
    Ok(())
}
