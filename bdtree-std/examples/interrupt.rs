//! A collision query spread over control ticks with a wall-clock budget.
//!
//! Each frame of a scene is one "step" of the bodies; the query for every body pair gets a
//! slot of `--slot-us` microseconds per tick (a [`Deadline`] over a host clock built on
//! `std::time::Instant`), and resumes on the next tick until it is done. At the end of each
//! frame the confirmed pairs must equal the uninterrupted query's, which is checked.
//!
//! ```sh
//! cargo run --release -p bdtree-std --example interrupt -- fixtures/scenes/demo.json --slot-us 20
//! ```
//!
//! On a controller the clock is a cycle counter or SysTick (see `bdtree_core::query::traversal`).

use bdtree_std::BodyStorage;
use std::path::PathBuf;
use std::time::Instant;

use bdtree_core::{
    collide, stack_capacity, Clock, Deadline, Order, Pending, Pose, RunStatus, Traversal,
    TrianglePair,
};
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::prepare;

/// Microseconds since a fixed start: a monotonic host clock.
struct HostClock(Instant);

impl Clock for HostClock {
    fn now(&mut self) -> u64 {
        self.0.elapsed().as_micros() as u64
    }
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut scene_path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/scenes/demo.json"
    ));
    let mut slot_us = 20u64;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--slot-us" => {
                slot_us = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--slot-us needs a number of microseconds")?;
            }
            other => scene_path = PathBuf::from(other),
        }
    }
    let scene = Scene::load(&scene_path).map_err(|e| e.to_string())?;
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let prepared = prepare(&scene, options).map_err(|e| e.to_string())?;
    let images = prepared
        .images
        .iter()
        .map(|b| b.parse::<f32>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mut caches: Vec<BodyStorage<f32>> = images
        .iter()
        .map(|im| BodyStorage::new(im.tree.node_count()))
        .collect();
    let mut bodies = caches
        .iter_mut()
        .zip(&images)
        .map(|(cache, im)| cache.body(im))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    let mut storage = vec![Pending::<f32>::EMPTY; 1 << 16];
    println!(
        "{}: {} frames, slot {slot_us} µs per body pair and tick, deepest-first order",
        scene_path.display(),
        scene.frames.len()
    );
    let (mut total_ticks, mut worst) = (0usize, 0usize);
    for (f, frame) in scene.frames.iter().enumerate() {
        for (body, (pose, q)) in bodies.iter_mut().zip(frame) {
            let pose = Pose::from_quaternion(
                pose.rotation.map(|x| x as f32),
                pose.translation.map(|x| x as f32),
            )
            .map_err(|e| e.to_string())?;
            let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
            body.set_state(pose, &q).map_err(|e| e.to_string())?;
        }
        let mut ticks_in_frame = 0;
        for i in 0..bodies.len() {
            let (head, tail) = bodies.split_at_mut(i + 1);
            let a = &mut head[i];
            for b in tail.iter_mut() {
                let mut t = Traversal::new(&mut storage, Order::DeepestFirst);
                let mut confirmed = Vec::new();
                let mut status = t.start(a, b);
                let mut ticks = 0;
                while status == RunStatus::Interrupted {
                    let clock = HostClock(Instant::now());
                    let mut budget = Deadline::new(clock, slot_us);
                    status = t
                        .run(a, b, &mut budget, &mut |p: TrianglePair| {
                            confirmed.push((p.a, p.b));
                            true
                        })
                        .status;
                    ticks += 1;
                }
                if status != RunStatus::Done {
                    return Err(format!("frame {f}: query ended {status:?}"));
                }
                let mut full = Vec::new();
                let outcome = collide(a, b, &mut stack, &mut |p: TrianglePair| {
                    full.push((p.a, p.b));
                    true
                });
                if !outcome.status.is_complete() {
                    return Err(format!("frame {f}: full query ended {:?}", outcome.status));
                }
                confirmed.sort_unstable();
                full.sort_unstable();
                if confirmed != full {
                    return Err(format!(
                        "frame {f}: resumed answer differs from the full one"
                    ));
                }
                ticks_in_frame = ticks_in_frame.max(ticks);
                total_ticks += ticks;
            }
        }
        worst = worst.max(ticks_in_frame);
        println!("frame {f:>3}: longest body-pair query took {ticks_in_frame} tick(s)");
    }
    println!(
        "every resumed query ended with exactly the uninterrupted answer; {total_ticks} ticks in \
         all, at most {worst} for one body pair"
    );
    Ok(())
}
