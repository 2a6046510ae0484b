//! The embedded side of CI: the firmware's fixture pack, its builds, its QEMU runs on seven
//! cores, its size and instruction budget, the link-time panic-freedom proof and the defmt
//! example.
//!
//! # Fixture pack (`firmware/pack/fixtures.bin`, version 3)
//!
//! Little-endian; `u32` words unless noted; `f32` values stored as their bits.
//!
//! ```text
//! "BDFP"  version=3  scene_count
//! per scene:  scene_bytes (the bytes that follow, up to the next scene)
//!   name_len  name bytes (padded to 4)  body_count  frame_count  proxy_depth
//!   per body:   modes  image_len  (pad to 16 from the pack's start)  f32 tree image  (pad to 4)
//!   per frame:  per body: rotation w x y z, translation x y z, q[modes]      (f32)
//!               complete nodes_visited sphere_updates overlap_tests triangle_tests pairs
//!               sphere_sum vertex_sum
//!               pair_count, then pair_count × (body_a body_b triangle_a triangle_b)
//! ```
//!
//! `proxy_depth = u32::MAX`: triangle queries (`collide`) and their interruptible replay;
//! otherwise proxy queries (`collide_proxies`) at that depth, whose pairs are
//! `(body_a body_b node_a node_b)`. Besides the fixture scenes with their f32 images, the pack
//! holds [`VARIANTS`]: scenes with their images compacted (`q16`, `q8`; complete, or bounded for
//! proxy queries), so every image format runs on the target. The scene length lets the firmware
//! go on with the next scene after an error in one.
//!
//! The per-frame answers are the host's f32 kernel's (`bdtree_std::collide::run_unrefined::<f32>`),
//! which `cargo test` in turn checks against the f64 brute-force oracle; the two checksums
//! (`firmware/src/checksum.rs`, shared) cover the floats the queries computed — every node
//! sphere computed that step, and the deformed world vertices of every triangle in a found
//! pair — from a replay of the same frames with `bdtree-core` on the host ([`host_sums`]).
//! `pack/limits.rs` sizes the firmware's static buffers for the pack; `pack/bench-f32.bin` and
//! `pack/bench-f64.bin` are an M = 10 body (icosphere, smooth basis, nested tree) for the
//! instruction benchmarks, the minimal firmware, the panic check and the defmt example.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead as _, Read as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bdtree_core::{
    collide, collide_proxies, collide_swept, stack_capacity, Body, CacheEntry, Encoding, Image,
    Pose, ProxyPair, SweptPair, TrianglePair, VertexEntry,
};
use bdtree_std::builder::{build, BuildOptions, Precision};
use bdtree_std::collide::{prepare, run_unrefined, PreparedScene};
use bdtree_std::compact::compact;
use bdtree_std::procedural::{icosphere, smooth_basis};
use bdtree_std::scene::Scene;

#[path = "../../firmware/src/checksum.rs"]
#[allow(dead_code)]
mod checksum;

use crate::{cargo_in, root};

const PACK_VERSION: u32 = 3;

/// Compacted copies of fixture scenes in the pack: scene, row encoding, the bounded depth
/// (proxy queries at that depth) or `None` (complete images, triangle queries), and whether the
/// mesh and basis are stored in 16 bits. Complete images carry their mesh, so only the small
/// scenes get them (the QEMU boards have 4 MiB of flash).
const VARIANTS: &[(&str, Encoding, Option<u32>, bool)] = &[
    ("touching", Encoding::Q16, None, false),
    ("touching", Encoding::Q8, None, false),
    ("touching", Encoding::Q8, None, true),
    ("thin", Encoding::Q16, None, false),
    ("thin", Encoding::Q8, None, false),
    ("thin", Encoding::Float, None, true),
    ("thin", Encoding::Q8, None, true),
    ("demo", Encoding::Float, Some(4), false),
    ("demo", Encoding::Q16, Some(4), false),
    ("demo", Encoding::Q8, Some(4), false),
    ("fold", Encoding::Q8, Some(3), false),
];

/// A QEMU board model running one firmware build.
struct Board {
    machine: &'static str,
    core: &'static str,
    target: &'static str,
    /// How QEMU is started.
    kind: Kind,
    /// Whether its figures go into the golden file (boards with the same binary and ISA give the
    /// same instruction counts; one of them suffices).
    golden: bool,
    /// Hard limits on `update_m10` and `sphere_m10` instructions.
    limits: Option<(u64, u64)>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// `qemu-system-arm -machine <mps2 board> -kernel <elf>`.
    Mps2,
    /// `qemu-system-arm -M none -cpu cortex-r5f -m 16M -device loader,…`.
    CortexR,
    /// `qemu-system-aarch64 -M virt -cpu cortex-a53 -device loader,…`.
    Aarch64,
}

/// The boards `cargo xtask qemu` runs, in order. Boards that share a target share its build.
const BOARDS: &[Board] = &[
    Board {
        machine: "mps2-an385",
        core: "Cortex-M0",
        target: "thumbv6m-none-eabi",
        kind: Kind::Mps2,
        golden: true,
        limits: None,
    },
    Board {
        machine: "mps2-an385",
        core: "Cortex-M3",
        target: "thumbv7m-none-eabi",
        kind: Kind::Mps2,
        golden: true,
        limits: None,
    },
    Board {
        machine: "mps2-an386",
        core: "Cortex-M4F",
        target: "thumbv7em-none-eabihf",
        kind: Kind::Mps2,
        golden: true,
        limits: Some((UPDATE_LIMIT, SPHERE_LIMIT)),
    },
    Board {
        machine: "mps2-an500",
        core: "Cortex-M7",
        target: "thumbv7em-none-eabihf",
        kind: Kind::Mps2,
        golden: false,
        limits: Some((UPDATE_LIMIT, SPHERE_LIMIT)),
    },
    Board {
        machine: "mps2-an505",
        core: "Cortex-M33",
        target: "thumbv8m.main-none-eabihf",
        kind: Kind::Mps2,
        golden: false,
        limits: None,
    },
    Board {
        machine: "none",
        core: "Cortex-R5F",
        target: "armv7r-none-eabihf",
        kind: Kind::CortexR,
        golden: false,
        limits: None,
    },
    Board {
        machine: "virt",
        core: "Cortex-A53",
        target: "aarch64-unknown-none",
        kind: Kind::Aarch64,
        golden: false,
        limits: None,
    },
];

/// Instructions per exact sphere update at M = 10 (through `TreeView::update`, M known at run
/// time) that the FPU Cortex-M cores must not exceed.
const UPDATE_LIMIT: u64 = 100;
/// Instructions per `Body::sphere` cache miss at M = 10 on the FPU Cortex-M cores.
const SPHERE_LIMIT: u64 = 160;
/// Flash for code the minimal firmware may use on the Cortex-M4F (opt-level `s`, no default
/// features); the budget file also holds the figure to 1 %.
const MINIMAL_TEXT_LIMIT: u64 = 20 * 1024;
/// Targets whose minimal firmware is budgeted.
const MINIMAL_TARGETS: &[&str] = &["thumbv6m-none-eabi", "thumbv7em-none-eabihf"];
/// Targets and opt-levels of the panic proof: (target, cargo profile, opt-level, board).
const PANIC_CHECKS: &[(&str, &str, &str, &str)] = &[
    ("thumbv6m-none-eabi", "release", "3", "mps2-an385"),
    ("thumbv6m-none-eabi", "size", "s", "mps2-an385"),
    ("thumbv7em-none-eabihf", "release", "3", "mps2-an386"),
    ("thumbv7em-none-eabihf", "size", "s", "mps2-an386"),
];
/// Relative growth of a golden figure that fails the check.
const TOLERANCE: f64 = 0.01;
/// A QEMU run that takes longer than this is killed and counted as failed.
const QEMU_TIMEOUT: Duration = Duration::from_secs(900);

fn firmware_dir() -> PathBuf {
    root().join("firmware")
}

fn golden_path() -> PathBuf {
    firmware_dir().join("budget.txt")
}

struct Word(Vec<u8>);

impl Word {
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn usize(&mut self, x: usize) -> Result<(), String> {
        self.u32(u32::try_from(x).map_err(|_| format!("{x} does not fit a u32"))?);
        Ok(())
    }
    fn f32(&mut self, x: f64) {
        self.u32((x as f32).to_bits());
    }
    /// Pads with zeros to a multiple of `to` (a power of two).
    fn align(&mut self, to: usize) {
        while self.0.len() & (to - 1) != 0 {
            self.0.push(0);
        }
    }
}

/// Buffer sizes the firmware needs for the pack.
#[derive(Default)]
struct Limits {
    bodies: usize,
    nodes: usize,
    vertices: usize,
    modes: usize,
    pairs: usize,
    depth: u32,
}

/// The M = 10 benchmark body: an icosphere (80 triangles) with a smooth 10-mode basis, nested.
fn bench_image(precision: Precision) -> Result<Vec<u8>, String> {
    let mesh = icosphere(1.0, 1);
    let basis = smooth_basis(&mesh.vertices, 10, 0.05);
    let options = BuildOptions {
        precision,
        nested: true,
        ..BuildOptions::default()
    };
    let (image, _) = build(&mesh, Some(&basis), options, &mut |_| {}).map_err(|e| e.to_string())?;
    Ok(image.as_bytes().to_vec())
}

/// The host's side of the float checksums: the frames replayed with `bdtree-core` in f32 as the
/// firmware replays them (same bodies, same query order), then every computed node sphere and
/// the deformed vertices of every found pair's triangles, mixed as `firmware/src/checksum.rs`
/// mixes them on the target. One `(sphere_sum, vertex_sum)` per frame.
fn host_sums(
    scene: &Scene,
    prepared: &PreparedScene,
    proxy_depth: Option<u32>,
) -> Result<Vec<(u32, u32)>, String> {
    let images: Vec<Image<'_, f32>> = prepared
        .images
        .iter()
        .map(|i| i.parse::<f32>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let mut caches: Vec<Vec<CacheEntry<f32>>> = images
        .iter()
        .map(|i| vec![CacheEntry::EMPTY; i.tree.node_count()])
        .collect();
    let mut slots: Vec<Vec<f32>> = images
        .iter()
        .map(|i| vec![0.0; bdtree_core::mode_storage(i.tree.modes())])
        .collect();
    let mut verts: Vec<Vec<VertexEntry<f32>>> = images
        .iter()
        .map(|i| vec![VertexEntry::EMPTY; i.model.vertex_count()])
        .collect();
    let mut bodies = Vec::new();
    for (((image, cache), modes), vertices) in images
        .iter()
        .zip(caches.iter_mut())
        .zip(slots.iter_mut())
        .zip(verts.iter_mut())
    {
        let body = Body::new(image, cache, modes)
            .and_then(|b| b.with_vertex_cache(vertices))
            .map_err(|e| e.to_string())?;
        bodies.push(body);
    }
    let depth = images.iter().map(|i| i.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    let mut out = Vec::new();
    for frame in &scene.frames {
        for (body, (pose, q)) in bodies.iter_mut().zip(frame) {
            let r = pose.rotation.map(|x| x as f32);
            let t = pose.translation.map(|x| x as f32);
            let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
            let pose = Pose::from_quaternion(r, t).map_err(|e| e.to_string())?;
            body.set_state(pose, &q).map_err(|e| e.to_string())?;
        }
        let mut found: Vec<[u32; 4]> = Vec::new();
        for i in 0..bodies.len() {
            let (head, tail) = bodies.split_at_mut(i + 1);
            let a = &mut head[i];
            for (k, b) in tail.iter_mut().enumerate() {
                let j = (i + 1 + k) as u32;
                let mut keep = |x: u32, y: u32| {
                    found.push([i as u32, j, x, y]);
                    true
                };
                match proxy_depth {
                    None => collide(a, b, &mut stack, &mut |p: TrianglePair| keep(p.a, p.b)),
                    Some(l) => collide_proxies(a, l, b, l, &mut stack, &mut |p: ProxyPair<f32>| {
                        keep(p.a, p.b)
                    }),
                };
            }
        }
        let mut spheres = 0u32;
        for (b, body) in bodies.iter_mut().enumerate() {
            for node in 0..body.tree().node_count() {
                if body.is_cached(node) {
                    if let Some(s) = body.sphere(node) {
                        let key = checksum::sphere_key(b as u32, node as u32);
                        spheres = spheres.wrapping_add(checksum::mix(key, &s.map(f32::to_bits)));
                    }
                }
            }
        }
        let mut vertices = 0u32;
        if proxy_depth.is_none() {
            for &[i, j, ta, tb] in &found {
                for (b, t) in [(i, ta), (j, tb)] {
                    if let Some(tri) = bodies[b as usize].world_triangle(t as usize) {
                        let bits: Vec<u32> = tri.iter().flatten().map(|x| x.to_bits()).collect();
                        let key = checksum::triangle_key(b, t);
                        vertices = vertices.wrapping_add(checksum::mix(key, &bits));
                    }
                }
            }
        }
        out.push((spheres, vertices));
    }
    Ok(out)
}

/// Magic and version of `pack/swept.bin`.
const SWEPT_MAGIC: &[u8; 4] = b"BDSW";
const SWEPT_VERSION: u32 = 1;

/// Buffer sizes of the swept replay.
#[derive(Default)]
struct SweptLimits {
    bodies: usize,
    nodes: usize,
    modes: usize,
    pairs: usize,
    depth: u32,
}

/// `pack/swept.bin`: the tunnelling scene (`fixtures/swept/tunnel.json`, bodies passing
/// through each other between frames) as f32 images and frames, and the host's swept pairs
/// for every motion from frame f − 1 to frame f (every body pair, `bdtree-core` in f32 as the
/// firmware runs it: the same bodies, without vertex caches): body indices, triangles and the
/// earliest time's bits.
fn swept_pack() -> Result<(Vec<u8>, SweptLimits), String> {
    let path = root().join("fixtures").join("swept").join("tunnel.json");
    let scene = Scene::load(&path).map_err(|e| e.to_string())?;
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let prepared = prepare(&scene, options).map_err(|e| format!("{}: {e}", path.display()))?;
    let images: Vec<Image<'_, f32>> = prepared
        .images
        .iter()
        .map(|i| i.parse::<f32>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let mut limits = SweptLimits {
        bodies: images.len(),
        modes: 1,
        ..SweptLimits::default()
    };
    let mut out = Word(Vec::new());
    out.0.extend_from_slice(SWEPT_MAGIC);
    out.u32(SWEPT_VERSION);
    out.usize(images.len())?;
    out.usize(scene.frames.len())?;
    for (image, bytes) in images.iter().zip(&prepared.images) {
        limits.nodes = limits.nodes.max(image.tree.node_count());
        limits.modes = limits.modes.max(image.tree.modes());
        limits.depth = limits.depth.max(image.tree.depth());
        out.usize(image.tree.modes())?;
        out.usize(bytes.as_bytes().len())?;
        out.align(16);
        out.0.extend_from_slice(bytes.as_bytes());
        out.align(4);
    }
    // Two bodies per scene body: the motion's start (`from`) and end (`to`).
    let mut caches: Vec<Vec<CacheEntry<f32>>> = images
        .iter()
        .flat_map(|i| [0, 1].map(|_| vec![CacheEntry::EMPTY; i.tree.node_count()]))
        .collect();
    let mut slots: Vec<Vec<f32>> = images
        .iter()
        .flat_map(|i| [0, 1].map(|_| vec![0.0; bdtree_core::mode_storage(i.tree.modes())]))
        .collect();
    let mut bodies = Vec::new();
    for (k, (cache, modes)) in caches.iter_mut().zip(slots.iter_mut()).enumerate() {
        bodies.push(Body::new(&images[k / 2], cache, modes).map_err(|e| e.to_string())?);
    }
    let mut stack = vec![[0u32; 2]; stack_capacity(limits.depth, limits.depth)];
    for (f, frame) in scene.frames.iter().enumerate() {
        for (b, (pose, q)) in frame.iter().enumerate() {
            let r = pose.rotation.map(|x| x as f32);
            let t = pose.translation.map(|x| x as f32);
            let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
            r.iter()
                .chain(&t)
                .chain(&q)
                .for_each(|&x| out.u32(x.to_bits()));
            let pose = Pose::from_quaternion(r, t).map_err(|e| e.to_string())?;
            bodies[2 * b + 1]
                .set_state(pose, &q)
                .map_err(|e| e.to_string())?;
        }
        if f > 0 {
            let mut found: Vec<[u32; 5]> = Vec::new();
            for i in 0..images.len() {
                for j in i + 1..images.len() {
                    let (head, tail) = bodies.split_at_mut(2 * j);
                    let (a_from, a_to) = head[2 * i..2 * i + 2].split_at_mut(1);
                    let (b_from, b_to) = tail[..2].split_at_mut(1);
                    let mut keep = |p: SweptPair<f32>| {
                        found.push([i as u32, j as u32, p.a, p.b, p.time.to_bits()]);
                        true
                    };
                    let outcome = collide_swept(
                        &mut a_from[0],
                        &mut a_to[0],
                        &mut b_from[0],
                        &mut b_to[0],
                        &mut stack,
                        &mut keep,
                    );
                    if !outcome.status.is_complete() {
                        return Err(format!("swept query frame {f}: {:?}", outcome.status));
                    }
                }
            }
            limits.pairs = limits.pairs.max(found.len());
            out.usize(found.len())?;
            found.iter().flatten().for_each(|&x| out.u32(x));
        }
        // The end of this motion starts the next one.
        for (b, (pose, q)) in frame.iter().enumerate() {
            let r = pose.rotation.map(|x| x as f32);
            let t = pose.translation.map(|x| x as f32);
            let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
            let pose = Pose::from_quaternion(r, t).map_err(|e| e.to_string())?;
            bodies[2 * b]
                .set_state(pose, &q)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok((out.0, limits))
}

/// Writes `firmware/pack/`: the fixture pack, its limits, the M = 10 benchmark images.
pub fn pack() -> Result<(), String> {
    let scenes_dir = root().join("fixtures").join("scenes");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&scenes_dir)
        .map_err(|e| format!("{}: {e}", scenes_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut out = Word(Vec::new());
    out.0.extend_from_slice(b"BDFP");
    out.u32(PACK_VERSION);
    let mut limits = Limits {
        modes: 1,
        ..Limits::default()
    };
    let mut jobs: Vec<(String, Scene, PreparedScene, Option<u32>)> = Vec::new();
    for path in &paths {
        let scene = Scene::load(path).map_err(|e| e.to_string())?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let options = BuildOptions {
            precision: Precision::F32,
            ..BuildOptions::default()
        };
        let prepared = prepare(&scene, options).map_err(|e| format!("{}: {e}", path.display()))?;
        for &(_, encoding, depth, model_q16) in VARIANTS.iter().filter(|v| v.0 == name) {
            // Proxy queries need nested trees.
            let nested = BuildOptions {
                nested: depth.is_some(),
                ..options
            };
            let source = prepare(&scene, nested).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut images = Vec::new();
            for image in &source.images {
                let full = image.parse::<f32>().map_err(|e| e.to_string())?;
                let (small, _) =
                    compact(&full, encoding, depth, model_q16).map_err(|e| e.to_string())?;
                images.push(small);
            }
            let mut label = format!("{name}-{}", encoding.name());
            if let Some(l) = depth {
                label.push_str(&format!("-d{l}"));
            }
            if model_q16 {
                label.push_str("-m16");
            }
            let variant = PreparedScene {
                images,
                reports: source.reports.clone(),
            };
            jobs.push((label, scene.clone(), variant, depth));
        }
        jobs.push((name, scene, prepared, None));
    }
    // Fixture scenes first (in file order), then the variants.
    jobs.sort_by_key(|j| j.0.contains('-'));
    out.usize(jobs.len())?;
    for (name, scene, prepared, proxy_depth) in &jobs {
        let results = run_unrefined::<f32>(scene, prepared, *proxy_depth, false)
            .map_err(|e| format!("{name}: {e}"))?;
        let sums = host_sums(scene, prepared, *proxy_depth).map_err(|e| format!("{name}: {e}"))?;
        let length_at = out.0.len();
        out.u32(0);
        out.usize(name.len())?;
        out.0.extend_from_slice(name.as_bytes());
        out.align(4);
        out.usize(scene.bodies.len())?;
        out.usize(scene.frames.len())?;
        out.u32(proxy_depth.unwrap_or(u32::MAX));
        limits.bodies = limits.bodies.max(scene.bodies.len());
        for (body, image) in scene.bodies.iter().zip(&prepared.images) {
            let modes = body.basis.as_ref().map_or(0, |b| b.modes);
            let parsed = image.parse::<f32>().map_err(|e| e.to_string())?;
            limits.nodes = limits.nodes.max(parsed.tree.node_count());
            limits.vertices = limits.vertices.max(parsed.model.vertex_count());
            limits.modes = limits.modes.max(modes);
            limits.depth = limits.depth.max(parsed.tree.depth());
            out.usize(modes)?;
            out.usize(image.as_bytes().len())?;
            out.align(16);
            out.0.extend_from_slice(image.as_bytes());
            out.align(4);
        }
        for ((frame, result), &(sphere_sum, vertex_sum)) in
            scene.frames.iter().zip(&results).zip(&sums)
        {
            for (pose, q) in frame {
                pose.rotation.iter().for_each(|&x| out.f32(x));
                pose.translation.iter().for_each(|&x| out.f32(x));
                q.iter().for_each(|&x| out.f32(x));
            }
            let s = result.stats;
            out.u32(u32::from(result.complete));
            for x in [
                s.nodes_visited,
                s.sphere_updates,
                s.overlap_tests,
                s.triangle_tests,
                s.pairs,
            ] {
                out.u32(x);
            }
            out.u32(sphere_sum);
            out.u32(vertex_sum);
            let pairs: Vec<(usize, usize, u32, u32)> = if proxy_depth.is_some() {
                result
                    .proxies
                    .iter()
                    .map(|p| (p.bodies.0, p.bodies.1, p.nodes.0, p.nodes.1))
                    .collect()
            } else {
                result.pairs.clone()
            };
            out.usize(pairs.len())?;
            limits.pairs = limits.pairs.max(pairs.len());
            for &(a, b, ta, tb) in &pairs {
                out.usize(a)?;
                out.usize(b)?;
                out.u32(ta);
                out.u32(tb);
            }
        }
        let scene_bytes = u32::try_from(out.0.len() - length_at - 4).map_err(|e| e.to_string())?;
        out.0[length_at..length_at + 4].copy_from_slice(&scene_bytes.to_le_bytes());
    }
    let bench32 = bench_image(Precision::F32)?;
    let bench64 = bench_image(Precision::F64)?;
    let bench_nodes = bdtree_std::builder::ImageBuf::from_bytes(&bench32)
        .parse::<f32>()
        .map_err(|e| e.to_string())?
        .tree
        .node_count();
    let mut rs = String::from(
        "// Generated by `cargo xtask firmware-pack` from fixtures/scenes; do not edit.\n",
    );
    let stack = stack_capacity(limits.depth, limits.depth);
    let (swept, swept_limits) = swept_pack()?;
    for (name, value) in [
        ("SWEPT_BODIES", swept_limits.bodies),
        ("SWEPT_NODES", swept_limits.nodes),
        ("SWEPT_MODES", swept_limits.modes),
        // Headroom: a target that finds extra pairs must report them, not overflow.
        ("SWEPT_PAIRS", 2 * swept_limits.pairs + 16),
        (
            "SWEPT_STACK",
            stack_capacity(swept_limits.depth, swept_limits.depth),
        ),
        ("MAX_BODIES", limits.bodies),
        ("MAX_NODES", limits.nodes),
        ("MAX_VERTICES", limits.vertices),
        ("MAX_MODES", limits.modes),
        // Headroom: a target that finds extra pairs must report them, not overflow.
        ("MAX_PAIRS", 2 * limits.pairs + 16),
        ("STACK_PAIRS", stack),
        ("BENCH_NODES", bench_nodes),
    ] {
        let _ = writeln!(rs, "pub const {name}: usize = {value};");
    }
    let dir = firmware_dir().join("pack");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write_if_changed(&dir.join("fixtures.bin"), &out.0)?;
    write_if_changed(&dir.join("swept.bin"), &swept)?;
    write_if_changed(&dir.join("limits.rs"), rs.as_bytes())?;
    write_if_changed(&dir.join("bench-f32.bin"), &bench32)?;
    write_if_changed(&dir.join("bench-f64.bin"), &bench64)?;
    println!(
        "firmware pack: {} scenes ({} fixture scenes and compacted variants), {} bytes; largest body {} nodes, {} vertices, M ≤ {}",
        jobs.len(),
        paths.len(),
        out.0.len(),
        limits.nodes,
        limits.vertices,
        limits.modes
    );
    Ok(())
}

/// Leaves the file (and its timestamp, so cargo does not rebuild) alone when unchanged.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if std::fs::read(path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn elf_path(target: &str, profile: &str, bin: &str) -> PathBuf {
    firmware_dir()
        .join("target")
        .join(target)
        .join(profile)
        .join(bin)
}

/// Builds firmware binaries for a target in one cargo call. Targets without a prebuilt `core`
/// (`armv7r-none-eabihf` on some mirrors) get it compiled from `rust-src`, as `cargo xtask
/// cross` does.
fn build_firmware(
    target: &str,
    profile: &str,
    bins: &[&str],
    features: &str,
) -> Result<(), String> {
    build_firmware_with(target, profile, bins, features, true)
}

/// [`build_firmware`], with or without the firmware's default features (bdtree-core's
/// `unrolled` sphere update).
fn build_firmware_with(
    target: &str,
    profile: &str,
    bins: &[&str],
    features: &str,
    default_features: bool,
) -> Result<(), String> {
    let prebuilt = crate::add_target(target).is_ok();
    let target_dir = firmware_dir().join("target");
    let target_dir = target_dir.to_string_lossy().into_owned();
    let mut args = vec![
        "build",
        "--profile",
        profile,
        "--target",
        target,
        "--target-dir",
        &target_dir,
    ];
    for bin in bins {
        args.extend(["--bin", bin]);
    }
    if !features.is_empty() {
        args.extend(["--features", features]);
    }
    if !default_features {
        args.push("--no-default-features");
    }
    // defmt compiles out every level below `error` unless `DEFMT_LOG` says otherwise; the
    // example logs at `info`.
    let mut envs: Vec<(&str, &str)> = vec![("DEFMT_LOG", "info")];
    if !prebuilt {
        args.push("-Zbuild-std=core");
        envs.push(("RUSTC_BOOTSTRAP", "1"));
    }
    cargo_in(&firmware_dir(), &args, &envs)
}

/// Features of the replay build per target: the VFP assembly kernel on hard-float ARM.
fn replay_features(target: &str) -> &'static str {
    if target.starts_with("thumbv7em")
        || target.starts_with("thumbv8m")
        || target.starts_with("armv7r")
    {
        "asm"
    } else {
        ""
    }
}

/// The QEMU command for a board and an ELF.
fn qemu_command(board: &Board, machine: &str, elf: &Path) -> Command {
    let mut cmd = match board.kind {
        Kind::Mps2 => {
            let mut c = Command::new("qemu-system-arm");
            c.args(["-machine", machine, "-kernel"]).arg(elf);
            c
        }
        Kind::CortexR => {
            let mut c = Command::new("qemu-system-arm");
            c.args(["-M", "none", "-cpu", "cortex-r5f", "-m", "16M", "-device"])
                .arg(format!("loader,file={},cpu-num=0", elf.display()));
            c
        }
        Kind::Aarch64 => {
            let mut c = Command::new("qemu-system-aarch64");
            c.args([
                "-M",
                "virt",
                "-cpu",
                "cortex-a53",
                "-m",
                "128M",
                "-nic",
                "none",
            ])
            .arg("-device")
            .arg(format!("loader,file={},cpu-num=0", elf.display()));
            c
        }
    };
    cmd.args(["-nographic", "-monitor", "none", "-serial", "none"])
        .args(["-icount", "shift=0"])
        .args(["-semihosting-config", "enable=on,target=native"]);
    cmd
}

/// What one QEMU run printed: `BDTREE key=value …` lines, flattened to `key` → value.
#[derive(Default)]
struct RunFigures {
    figures: BTreeMap<String, u64>,
    ok: bool,
    seconds: f64,
}

/// Runs QEMU, printing its output as it comes (prefixed with the board), and collects the
/// figures. QEMU's standard output is read while it runs; a run past [`QEMU_TIMEOUT`] is
/// killed.
fn run_qemu(mut cmd: Command, label: &str) -> Result<RunFigures, String> {
    let started = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("{label}: QEMU: {e} (install the Debian package `qemu-system-arm`)")
        })?;
    let (tx, rx) = mpsc::channel::<String>();
    let mut readers = Vec::new();
    if let Some(out) = child.stdout.take() {
        let tx = tx.clone();
        readers.push(std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        }));
    }
    if let Some(err) = child.stderr.take() {
        let tx = tx.clone();
        readers.push(std::thread::spawn(move || {
            for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        }));
    }
    drop(tx);
    let mut figures = RunFigures::default();
    let mut timed_out = false;
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) => {
                println!("    {label}: {line}");
                parse_line(&line, &mut figures);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if started.elapsed() > QEMU_TIMEOUT && !timed_out {
            timed_out = true;
            let _ = child.kill();
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    for r in readers {
        let _ = r.join();
    }
    if timed_out {
        return Err(format!(
            "{label}: no exit after {} s (killed)",
            QEMU_TIMEOUT.as_secs()
        ));
    }
    figures.ok &= status.success();
    figures.seconds = started.elapsed().as_secs_f64();
    Ok(figures)
}

fn parse_line(line: &str, figures: &mut RunFigures) {
    let Some(rest) = line.strip_prefix("BDTREE ") else {
        return;
    };
    let mut words = rest.split_whitespace();
    let kind = words.next().unwrap_or_default();
    if kind == "result" {
        figures.ok = words.next() == Some("ok");
        return;
    }
    let fields: Vec<(&str, &str)> = words.filter_map(|w| w.split_once('=')).collect();
    let scene = fields
        .iter()
        .find(|(k, _)| *k == "name")
        .map(|(_, v)| format!("{v}."))
        .unwrap_or_default();
    for (key, value) in fields {
        if let Ok(v) = value.parse::<u64>() {
            figures.figures.insert(format!("{kind}.{scene}{key}"), v);
        }
    }
}

/// Figures that go into the golden file, from one board's run.
fn golden_figures(board: &Board, run: &RunFigures) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for (key, &value) in &run.figures {
        let keep = key == "update_m10.instructions"
            || key == "update_m10_portable.instructions"
            || key == "sphere_m10.instructions"
            || key == "sqrt_libm.instructions"
            || key == "sqrt_micromath.instructions"
            || key == "deepest_first.instructions"
            || key.ends_with(".frame_instructions_mean")
            || key.ends_with(".frame_instructions_max")
            || key.ends_with(".motion_instructions_max")
            || key.ends_with(".stack_bytes");
        if keep {
            out.insert(format!("{}.{}.{key}", board.machine, board.target), value);
        }
    }
    out
}

/// Flash and RAM of a 32-bit ELF by section flags: code (`.vector_table`, `.text`), read-only
/// data other than the fixture pack, the pack, initialised data and zeroed data.
fn elf_sizes(elf: &Path, pack_len: u64) -> Result<BTreeMap<&'static str, u64>, String> {
    let bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
    let bad = || format!("{}: not a 32-bit little-endian ELF", elf.display());
    if bytes.get(..6) != Some(b"\x7fELF\x01\x01".as_slice()) {
        return Err(bad());
    }
    let u16_at = |o: usize| -> Option<u64> {
        Some(u64::from(u16::from_le_bytes(
            bytes.get(o..o + 2)?.try_into().ok()?,
        )))
    };
    let u32_at = |o: usize| -> Option<u64> {
        Some(u64::from(u32::from_le_bytes(
            bytes.get(o..o + 4)?.try_into().ok()?,
        )))
    };
    let shoff = u32_at(0x20).ok_or_else(bad)? as usize;
    let shentsize = u16_at(0x2e).ok_or_else(bad)? as usize;
    let shnum = u16_at(0x30).ok_or_else(bad)? as usize;
    let (mut text, mut rodata, mut data, mut bss) = (0, 0, 0, 0);
    for i in 0..shnum {
        let h = shoff + i * shentsize;
        let kind = u32_at(h + 4).ok_or_else(bad)?;
        let flags = u32_at(h + 8).ok_or_else(bad)?;
        let size = u32_at(h + 20).ok_or_else(bad)?;
        const WRITE: u64 = 1;
        const ALLOC: u64 = 2;
        const EXEC: u64 = 4;
        const NOBITS: u64 = 8;
        if flags & ALLOC == 0 {
            continue;
        }
        if kind == NOBITS {
            bss += size;
        } else if flags & EXEC != 0 {
            text += size;
        } else if flags & WRITE != 0 {
            data += size;
        } else {
            rodata += size;
        }
    }
    Ok(BTreeMap::from([
        ("text", text),
        ("rodata", rodata.saturating_sub(pack_len)),
        ("pack", pack_len),
        ("data", data),
        ("bss", bss),
    ]))
}

fn read_golden() -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(golden_path()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (k, v) = l.split_once(' ')?;
            Some((k.to_string(), v.trim().parse().ok()?))
        })
        .collect()
}

fn write_golden(figures: &BTreeMap<String, u64>) -> Result<(), String> {
    let mut text = String::from(
        "# Firmware budget: sizes in bytes (per target; `minimal.*` the minimal firmware at opt-level\n\
         # `s` without default features), instructions under `qemu -icount shift=0` and stack bytes (per board and target).\n\
         # `cargo xtask size` fails when a figure grows by more than 1 %; `cargo xtask size\n\
         # --overwrite` re-blesses this file after a deliberate change.\n",
    );
    for (k, v) in figures {
        let _ = writeln!(text, "{k} {v}");
    }
    std::fs::write(golden_path(), text).map_err(|e| format!("{}: {e}", golden_path().display()))
}

/// `cargo xtask qemu` (`golden` = None) and `cargo xtask size` (`Some(overwrite)`): the replay
/// on every board (one build per target, shared by its boards), the minimal firmware's size,
/// and with `golden` the comparison with `firmware/budget.txt`.
pub fn qemu(golden: Option<bool>) -> Vec<String> {
    let mut failures = Vec::new();
    let started = Instant::now();
    if let Err(e) = pack() {
        return vec![format!("firmware pack: {e}")];
    }
    let pack_len = std::fs::metadata(firmware_dir().join("pack").join("fixtures.bin"))
        .map(|m| m.len())
        .unwrap_or(0);
    let mut figures = BTreeMap::new();
    let mut table = Vec::new();
    let mut summary = Vec::new();
    let mut built: Vec<&str> = Vec::new();
    let mut broken: Vec<&str> = Vec::new();
    for board in BOARDS {
        if broken.contains(&board.target) {
            continue;
        }
        if !built.contains(&board.target) {
            let t = Instant::now();
            if let Err(e) = build_firmware(
                board.target,
                "release",
                &["replay"],
                replay_features(board.target),
            ) {
                failures.push(e);
                broken.push(board.target);
                continue;
            }
            println!(
                "  (built the replay for {} in {:.0} s)",
                board.target,
                t.elapsed().as_secs_f64()
            );
            built.push(board.target);
            let elf = elf_path(board.target, "release", "replay");
            if board.target.starts_with("thumbv") && board.target != "thumbv8m.main-none-eabihf" {
                match elf_sizes(&elf, pack_len) {
                    Ok(sizes) => {
                        for (k, v) in &sizes {
                            figures.insert(format!("{}.{k}", board.target), *v);
                        }
                        table.push((format!("replay {}", board.target), sizes));
                    }
                    Err(e) => failures.push(e),
                }
            }
        }
        let elf = elf_path(board.target, "release", "replay");
        let label = format!("{} ({})", board.machine, board.core);
        match run_qemu(qemu_command(board, board.machine, &elf), &label) {
            Ok(run) => {
                let line = format!(
                    "  {label}: {} in {:.1} s",
                    if run.ok {
                        "all fixture frames match the host"
                    } else {
                        "FAILED"
                    },
                    run.seconds
                );
                println!("{line}");
                summary.push(line);
                if !run.ok {
                    failures.push(format!("{label}: the fixture checks failed on the target"));
                }
                if let Some((update_limit, sphere_limit)) = board.limits {
                    for (key, limit) in [
                        ("update_m10.instructions", update_limit),
                        ("sphere_m10.instructions", sphere_limit),
                    ] {
                        match run.figures.get(key) {
                            Some(&n) if n <= limit => {}
                            Some(&n) => {
                                failures.push(format!("{label}: {key} = {n} (limit {limit})"))
                            }
                            None => failures.push(format!("{label}: {key} was not reported")),
                        }
                    }
                }
                if board.golden {
                    figures.extend(golden_figures(board, &run));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    // The minimal firmware: built at opt-level `s` without default features (no unrolled sphere
    // update) for the budgeted targets, run once each.
    for &target in MINIMAL_TARGETS {
        if let Err(e) = build_firmware_with(target, "size", &["minimal"], "", false) {
            failures.push(e);
            continue;
        }
        let elf = elf_path(target, "size", "minimal");
        match elf_sizes(&elf, 0) {
            Ok(sizes) => {
                for k in ["text", "rodata", "bss"] {
                    figures.insert(format!("minimal.{target}.{k}"), sizes[k]);
                }
                if target == "thumbv7em-none-eabihf" && sizes["text"] > MINIMAL_TEXT_LIMIT {
                    failures.push(format!(
                        "minimal firmware for {target}: {} bytes of code, above the {MINIMAL_TEXT_LIMIT}-byte limit",
                        sizes["text"]
                    ));
                }
                table.push((format!("minimal {target} (s)"), sizes));
            }
            Err(e) => failures.push(e),
        }
        let board = BOARDS.iter().find(|b| b.target == target).expect("a board");
        match run_qemu(qemu_command(board, board.machine, &elf), "minimal") {
            Ok(run) if run.ok || run.figures.is_empty() => {
                // No `BDTREE result` line: success is the exit status.
            }
            Ok(_) => failures.push(format!(
                "minimal firmware for {target}: failed on {}",
                board.machine
            )),
            Err(e) => failures.push(e),
        }
    }
    println!("\nfirmware runs:");
    for line in &summary {
        println!("{line}");
    }
    println!("\nfirmware sizes in bytes (LTO; `pack` = embedded fixtures):");
    println!(
        "  {:<36} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "build", "text", "rodata", "pack", "data", "bss"
    );
    for (name, s) in &table {
        println!(
            "  {:<36} {:>8} {:>8} {:>8} {:>8} {:>8}",
            name, s["text"], s["rodata"], s["pack"], s["data"], s["bss"]
        );
    }
    println!(
        "(firmware steps took {:.0} s)",
        started.elapsed().as_secs_f64()
    );
    let Some(overwrite) = golden else {
        return failures;
    };
    if overwrite {
        if let Err(e) = write_golden(&figures) {
            failures.push(e);
        } else {
            println!("wrote {}", golden_path().display());
        }
        return failures;
    }
    let old = read_golden();
    println!("\nbudget ({}):", golden_path().display());
    for (key, &value) in &figures {
        match old.get(key) {
            None => failures.push(format!(
                "{key} = {value} is not in {} (run `cargo xtask size --overwrite`)",
                golden_path().display()
            )),
            Some(&was) => {
                let limit = (was as f64 * (1.0 + TOLERANCE)).ceil() as u64;
                let mark = if value > limit {
                    failures.push(format!("{key} grew from {was} to {value} (more than 1 %)"));
                    "  GREW"
                } else if (value as f64) < was as f64 * (1.0 - TOLERANCE) {
                    "  shrank: re-bless with `cargo xtask size --overwrite`"
                } else {
                    ""
                };
                println!("  {key:<72} {value:>10} (golden {was}){mark}");
            }
        }
    }
    for key in old.keys().filter(|k| !figures.contains_key(*k)) {
        failures.push(format!(
            "{key} is in the golden file but was not measured (run `cargo xtask size --overwrite`)"
        ));
    }
    failures
}

/// Formatting and clippy of the firmware crate, which the workspace's own steps do not see.
pub fn lint() -> Vec<String> {
    if let Err(e) = pack() {
        return vec![format!("firmware pack: {e}")];
    }
    let target_dir = firmware_dir().join("target");
    let target_dir = target_dir.to_string_lossy();
    let steps: [&[&str]; 3] = [
        &["fmt", "--", "--check"],
        &[
            "clippy",
            "--release",
            "--bins",
            "--features",
            "asm",
            "--target-dir",
            &target_dir,
            "--",
            "-D",
            "warnings",
        ],
        &[
            "clippy",
            "--release",
            "--target",
            "aarch64-unknown-none",
            "--bin",
            "replay",
            "--target-dir",
            &target_dir,
            "--",
            "-D",
            "warnings",
        ],
    ];
    steps
        .iter()
        .filter_map(|args| cargo_in(&firmware_dir(), args, &[]).err())
        .collect()
}

/// What the `known` lists of firmware/src/bin/panic_check.rs hold (`None`: both are empty, and
/// every entry point is in the proofs).
const KNOWN_PANICS: Option<&str> = None;

/// `cargo xtask panic-check`: links the panic-check firmware (every public entry point of
/// bdtree-core, f32 and f64) with a panic handler that calls an undefined symbol, for each
/// target and opt-level; a panic path that survives optimisation makes the link fail, naming
/// the symbol. Each build that links then runs on QEMU and says how many entry points it
/// holds. Last, the entry points with known panic paths, if any ([`KNOWN_PANICS`]), are linked
/// too (opt-level `s`, M4F): that link must fail until they are fixed.
pub fn panic_check() -> Vec<String> {
    let mut failures = Vec::new();
    let started = Instant::now();
    if let Err(e) = pack() {
        return vec![format!("firmware pack: {e}")];
    }
    let mut proofs = Vec::new();
    for &(target, profile, level, machine) in PANIC_CHECKS {
        let features = if level == "s" { "opt-s" } else { "" };
        if let Err(e) = build_firmware(target, profile, &["panic-check"], features) {
            failures.push(format!(
                "{e}: a panic path is reachable in the panic-check firmware for {target} at \
                 opt-level {level} — see the linker error (undefined \
                 `bdtree_firmware_error_a_panic_path_is_reachable`) above"
            ));
            continue;
        }
        let elf = elf_path(target, profile, "panic-check");
        let board = BOARDS
            .iter()
            .find(|b| b.target == target)
            .expect("a board for the target");
        match run_qemu(qemu_command(board, machine, &elf), "panic-check") {
            Ok(run) => match run.figures.get("panic-check.entries") {
                Some(&n) if run.figures.contains_key("panic-check.entries") => {
                    proofs.push(format!(
                        "panic-check {target} opt-level {level}: {n} entry points linked, no panic path"
                    ));
                }
                _ => failures.push(format!(
                    "panic-check {target} opt-level {level}: the run did not report"
                )),
            },
            Err(e) => failures.push(e),
        }
    }
    // The known panic paths: still failing is expected (and reported); linking means fixed.
    let mut known_lines = Vec::new();
    // The known list at every level is linked with `known-panics` too, so this one build
    // covers both lists.
    if let Some(what) = KNOWN_PANICS {
        let target = "thumbv7em-none-eabihf";
        match build_firmware(target, "size", &["panic-check"], "opt-s,known-panics") {
            Err(_) => known_lines.push(format!(
                "known panic paths at opt-level s still present (the link with `--features \
                 opt-s,known-panics` fails, as expected until they are fixed): {what}"
            )),
            Ok(()) => failures.push(format!(
                "the known panic paths at opt-level s link now ({what}): move them into the \
                 entry points of firmware/src/bin/panic_check.rs"
            )),
        }
    }
    println!();
    for line in proofs.iter().chain(&known_lines) {
        println!("{line}");
    }
    println!(
        "(panic check took {:.0} s)",
        started.elapsed().as_secs_f64()
    );
    failures
}

/// `cargo xtask defmt`: builds the defmt example for the Cortex-M4F, runs it on QEMU and decodes
/// its binary log with `defmt-print` (installed by `.ci/run`: `cargo install defmt-print`).
pub fn defmt() -> Vec<String> {
    let started = Instant::now();
    if let Err(e) = pack() {
        return vec![format!("firmware pack: {e}")];
    }
    let target = "thumbv7em-none-eabihf";
    if let Err(e) = build_firmware(target, "release", &["defmt-log"], "defmt") {
        return vec![e];
    }
    let elf = elf_path(target, "release", "defmt-log");
    let board = &BOARDS[2];
    let output = qemu_command(board, board.machine, &elf)
        .stderr(Stdio::inherit())
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => return vec![format!("defmt example: QEMU: {e}")],
    };
    if !output.status.success() {
        return vec![format!(
            "defmt example: the firmware failed ({})",
            output.status
        )];
    }
    let decoder = Command::new("defmt-print")
        .args(["-e"])
        .arg(&elf)
        .arg("stdin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut decoder = match decoder {
        Ok(d) => d,
        Err(e) => {
            return vec![format!(
                "defmt-print: {e} (install it: `cargo install defmt-print`)"
            )]
        }
    };
    if let Some(mut stdin) = decoder.stdin.take() {
        use std::io::Write as _;
        let _ = stdin.write_all(&output.stdout);
    }
    let mut text = String::new();
    if let Some(mut out) = decoder.stdout.take() {
        let _ = out.read_to_string(&mut text);
    }
    let _ = decoder.wait();
    for line in text.lines() {
        println!("    defmt: {line}");
    }
    println!(
        "defmt example: {} bytes of log decoded in {:.0} s",
        output.stdout.len(),
        started.elapsed().as_secs_f64()
    );
    if text.contains("query:") && text.contains("pair") {
        Vec::new()
    } else {
        vec!["defmt example: the decoded log lacks the query's outcome".into()]
    }
}
