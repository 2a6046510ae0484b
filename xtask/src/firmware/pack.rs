//! The firmware's fixture pack, the swept pack and the benchmark images (see the parent module's
//! format notes).

use super::*;

use crate::words::Words;

impl Words {
    fn f32(&mut self, x: f64) {
        self.u32((x as f32).to_bits());
    }
}

/// Buffer sizes the firmware needs for the pack.
#[derive(Default)]
pub(super) struct Limits {
    bodies: usize,
    nodes: usize,
    vertices: usize,
    modes: usize,
    pairs: usize,
    depth: u32,
}

/// The M = 10 benchmark body: an icosphere (80 triangles) with a smooth 10-mode basis, nested.
pub(super) fn bench_image(precision: Precision) -> Result<Vec<u8>, String> {
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

/// One frame replayed on the host as the firmware replays it ([`host_sums`]).
pub(super) struct Replayed {
    /// `(sphere_sum, vertex_sum)`.
    pub(super) sums: (u32, u32),
    /// Whether every query completed.
    pub(super) complete: bool,
    /// The counters summed over the frame's queries.
    pub(super) stats: bdtree_core::QueryStats,
    /// The pairs found, sorted.
    pub(super) pairs: Vec<[u32; 4]>,
}

/// The host's side of the float checksums: the frames replayed with `bdtree-core` in f32 as the
/// firmware replays them (same bodies, same query order; with `with_self` every body's self
/// pairs after the world query, culled from its image with one set of cone slots, as
/// `replay::run_self` does), then every computed node sphere and the deformed vertices of every
/// found pair's triangles, mixed as `firmware/src/checksum.rs` mixes them on the target. One
/// [`Replayed`] per frame.
pub(super) fn host_sums(
    scene: &Scene,
    prepared: &PreparedScene,
    proxy_depth: Option<u32>,
    with_self: bool,
) -> Result<Vec<Replayed>, String> {
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
    // With self pairs, each body has its box cache too, as `replay::run_self` gives it.
    let mut boxes: Vec<Vec<BoxEntry<f32>>> = images
        .iter()
        .map(|i| vec![BoxEntry::EMPTY; i.tree.node_count()])
        .collect();
    let mut bodies = Vec::new();
    for ((((image, cache), modes), vertices), boxes) in images
        .iter()
        .zip(caches.iter_mut())
        .zip(slots.iter_mut())
        .zip(verts.iter_mut())
        .zip(boxes.iter_mut())
    {
        let body = Body::new(image, cache, modes)
            .and_then(|b| b.with_vertex_cache(vertices))
            .and_then(|b| {
                if with_self {
                    b.with_box_cache(boxes)
                } else {
                    Ok(b)
                }
            })
            .map_err(|e| e.to_string())?;
        bodies.push(body);
    }
    let depth = images.iter().map(|i| i.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; stack_pairs(depth)];
    let nodes = images
        .iter()
        .map(|i| i.tree.node_count())
        .max()
        .unwrap_or(0);
    let mut cone_slots = vec![ConeSlot::EMPTY; nodes];
    let mut cones = SelfCones::new(&mut cone_slots);
    let mut order = vec![0u32; bodies.len()];
    let mut roots = vec![[0f32; 4]; bodies.len()];
    let mut out = Vec::new();
    for frame in &scene.frames {
        for (body, (pose, q)) in bodies.iter_mut().zip(frame) {
            let r = pose.rotation.map(|x| x as f32);
            let t = pose.translation.map(|x| x as f32);
            let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
            let pose = Pose::from_quaternion(r, t).map_err(|e| e.to_string())?;
            body.set_state(pose, &q).map_err(|e| e.to_string())?;
        }
        // The queries the replay runs (`firmware/src/replay.rs`, `run_frame`): the world query
        // for triangle pairs, every body pair's proxy query otherwise.
        let mut found: Vec<[u32; 4]> = Vec::new();
        let (mut complete, mut stats) = (true, bdtree_core::QueryStats::default());
        match proxy_depth {
            None => {
                let mut sweep = SweepAndPrune::new(&mut order);
                let distinct = |i: usize, j: usize| i != j;
                let mut sink = |w: WorldPair| {
                    found.push([w.a, w.b, w.triangles.a, w.triangles.b]);
                    true
                };
                let o = collide_world(
                    bodies.as_mut_slice(),
                    &mut sweep,
                    &mut roots,
                    &distinct,
                    &mut stack,
                    &mut sink,
                );
                complete &= o.status.is_complete();
                stats.add(&o.stats);
                for (i, body) in bodies.iter_mut().enumerate().filter(|_| with_self) {
                    let i = i as u32;
                    let o = collide_self_image(
                        body,
                        &mut cones,
                        &mut UnitCounts::default(),
                        &mut stack,
                        &mut |p: TrianglePair| {
                            found.push([i, i, p.a, p.b]);
                            true
                        },
                    );
                    complete &= o.status.is_complete();
                    stats.add(&o.stats);
                }
            }
            Some(l) => {
                for i in 0..bodies.len() {
                    let (head, tail) = bodies.split_at_mut(i + 1);
                    let a = &mut head[i];
                    for (k, b) in tail.iter_mut().enumerate() {
                        let j = (i + 1 + k) as u32;
                        let mut sink = |p: ProxyPair<f32>| {
                            found.push([i as u32, j, p.a, p.b]);
                            true
                        };
                        collide_proxies(a, b, l, l, &mut stack, &mut sink);
                    }
                }
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
        found.sort_unstable();
        out.push(Replayed {
            sums: (spheres, vertices),
            complete,
            stats,
            pairs: found,
        });
    }
    Ok(out)
}

/// Stack entries the replay needs for trees of this depth: a pair query's or a self query's.
pub(super) fn stack_pairs(depth: u32) -> usize {
    stack_capacity(depth, depth).max(self_stack_capacity(depth))
}

/// Magic and version of `pack/swept.bin`.
pub(super) const SWEPT_MAGIC: &[u8; 4] = b"BDSW";
pub(super) const SWEPT_VERSION: u32 = 1;

/// Buffer sizes of the swept replay.
#[derive(Default)]
pub(super) struct SweptLimits {
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
pub(super) fn swept_pack() -> Result<(Vec<u8>, SweptLimits), String> {
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
    let mut out = Words::default();
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
        out.pad(16);
        out.0.extend_from_slice(bytes.as_bytes());
        out.pad(4);
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
    let mut out = Words::default();
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
        let sums =
            host_sums(scene, prepared, *proxy_depth, false).map_err(|e| format!("{name}: {e}"))?;
        let frames: Vec<Replayed> = results
            .iter()
            .zip(sums)
            .map(|(result, replayed)| Replayed {
                complete: result.complete,
                stats: result.stats,
                pairs: if proxy_depth.is_some() {
                    result
                        .proxies
                        .iter()
                        .map(|p| [p.bodies.0 as u32, p.bodies.1 as u32, p.nodes.0, p.nodes.1])
                        .collect()
                } else {
                    result
                        .pairs
                        .iter()
                        .map(|&(a, b, ta, tb)| [a as u32, b as u32, ta, tb])
                        .collect()
                },
                ..replayed
            })
            .collect();
        let job = Job {
            name,
            scene,
            prepared,
            proxy_depth: *proxy_depth,
            flags: 0,
        };
        write_scene(&mut out, &job, &frames, &mut limits)?;
    }
    // The fold scene with its self pairs, on images with their self-collision data.
    let fold_path = scenes_dir.join("fold.json");
    let fold = Scene::load(&fold_path).map_err(|e| e.to_string())?;
    let culled = BuildOptions {
        precision: Precision::F32,
        self_cull: true,
        ..BuildOptions::default()
    };
    let prepared = prepare(&fold, culled).map_err(|e| format!("{}: {e}", fold_path.display()))?;
    let frames = host_sums(&fold, &prepared, None, true).map_err(|e| format!("fold-self: {e}"))?;
    let mut self_pack = Words::default();
    self_pack.0.extend_from_slice(b"BDFP");
    self_pack.u32(PACK_VERSION);
    self_pack.usize(1)?;
    let job = Job {
        name: "fold-self",
        scene: &fold,
        prepared: &prepared,
        proxy_depth: None,
        flags: 1,
    };
    write_scene(&mut self_pack, &job, &frames, &mut limits)?;
    let bench32 = bench_image(Precision::F32)?;
    let bench64 = bench_image(Precision::F64)?;
    let bench_nodes = bdtree_std::io::ImageBuf::from_bytes(&bench32)
        .parse::<f32>()
        .map_err(|e| e.to_string())?
        .tree
        .node_count();
    let mut rs = String::from(
        "// Generated by `cargo xtask firmware-pack` from fixtures/scenes; do not edit.\n",
    );
    let stack = stack_pairs(limits.depth);
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
    write_if_changed(&dir.join("fold-self.bin"), &self_pack.0)?;
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

/// A scene to write into a pack: its name, the scene, its images, proxy depth and flags.
struct Job<'a> {
    name: &'a str,
    scene: &'a Scene,
    prepared: &'a PreparedScene,
    proxy_depth: Option<u32>,
    flags: u32,
}

/// Appends one scene to a pack (the format in the parent module), growing `limits` to fit it.
fn write_scene(
    out: &mut Words,
    job: &Job<'_>,
    frames: &[Replayed],
    limits: &mut Limits,
) -> Result<(), String> {
    let Job {
        name,
        scene,
        prepared,
        proxy_depth,
        flags,
    } = *job;
    let length_at = out.0.len();
    out.u32(0);
    out.usize(name.len())?;
    out.0.extend_from_slice(name.as_bytes());
    out.pad(4);
    out.usize(scene.bodies.len())?;
    out.usize(scene.frames.len())?;
    out.u32(proxy_depth.unwrap_or(u32::MAX));
    out.u32(flags);
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
        out.pad(16);
        out.0.extend_from_slice(image.as_bytes());
        out.pad(4);
    }
    for (frame, replayed) in scene.frames.iter().zip(frames) {
        for (pose, q) in frame {
            pose.rotation.iter().for_each(|&x| out.f32(x));
            pose.translation.iter().for_each(|&x| out.f32(x));
            q.iter().for_each(|&x| out.f32(x));
        }
        let s = replayed.stats;
        out.u32(u32::from(replayed.complete));
        for x in [
            s.nodes_visited,
            s.sphere_updates,
            s.overlap_tests,
            s.triangle_tests,
            s.pairs,
        ] {
            out.u32(x);
        }
        out.u32(replayed.sums.0);
        out.u32(replayed.sums.1);
        out.usize(replayed.pairs.len())?;
        limits.pairs = limits.pairs.max(replayed.pairs.len());
        for pair in &replayed.pairs {
            pair.iter().for_each(|&x| out.u32(x));
        }
    }
    let scene_bytes = u32::try_from(out.0.len() - length_at - 4).map_err(|e| e.to_string())?;
    out.0[length_at..length_at + 4].copy_from_slice(&scene_bytes.to_le_bytes());
    Ok(())
}

/// Leaves the file (and its timestamp, so cargo does not rebuild) alone when unchanged.
pub(super) fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if std::fs::read(path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}
