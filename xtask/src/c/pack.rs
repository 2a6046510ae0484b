//! The fixture pack of `cargo xtask c`: every fixture scene's tree images, frames and the
//! kernel's answers, for the C programs to replay.
//!
//! # Pack format (version 3)
//!
//! Little-endian; `u32` words unless noted; scalars in the scene's precision (f32 or f64 bits);
//! `pad(n)` pads with zeros to a multiple of `n` bytes from the start of the pack.
//!
//! ```text
//! "BDCP"  version  scene_count
//! per scene:  name_len  name (pad 4)  scalar_bytes  body_count  frame_count  flags  proxy_depth
//!             max_pairs  max_proxies  max_contacts  max_near  max_primitive
//!             pad(8) near_distance pad(4)                  (flags: 1 = self-collisions too)
//!   per body:   modes  image_len  pad(16)  image  pad(4)
//!               boxes_len  pad(16)  boxes  pad(4)      (its box table: `bdtree boxes`' file;
//!               boxes_len 0 when above `MAX_PACKED_BOXES`: none, its pairs' box query skipped)
//!   per frame:  pad(8)  per body: rotation w x y z, translation x y z, q[modes]   (scalars)
//!               pad(4)  pair_count, pair_count × (body_a body_b tri_a tri_b)     the kernel's
//!               oracle_count, oracle_count × (body_a body_b tri_a tri_b)         brute force
//!               proxy_count, proxy_count × (body_a body_b node_a node_b pad(8) depth pad(4))
//!               per body pair a < b: tri_a tri_b intersecting pad(8) distance pad(4)
//!               per body pair a < b: contacts (count hash_lo hash_hi), near pairs (same)
//!               per body, per primitive (plane, ball, capsule, box): contacts (count hash_lo
//!               hash_hi), proxies at proxy_depth (count hash_lo hash_hi)
//! ```
//!
//! Pairs are sorted; self-collisions are `(b, b, t1, t2)` with `t1 < t2`. The kernel's answers
//! are `bdtree-core`'s on the same images in the same precision (the C API must give them bit
//! for bit: distances and penetration depths compared exactly); the oracle's are the f64 brute
//! force of `fixtures/expected/` (every one must be among the kernel's pairs).
//!
//! Contacts (`collide_contacts`, `collide_primitive`), near pairs (`within` at
//! `near_distance`) and primitive proxies (`collide_primitive_proxies`) are given by their
//! count and a hash of every bit of them: the wrapping sum, over the items, of the 64-bit
//! FNV-1a of each item's fields in order, each little-endian (`u32` indices, scalars' bits):
//! a contact `a b point[3] normal[3] depth`, a near pair `a b distance point_a[3] point_b[3]`,
//! a proxy `node sphere[4] depth`. The sum does not depend on the order the query found them
//! in. The primitives of a body are made from its root sphere `(c, r)` in the frame, in the
//! scene's scalar (every product exact): the plane `z ≤ c_z` (normal `(0, 0, 1)`), the ball
//! of radius `r/2` at `c + (r/2, 0, 0)`, the capsule of radius `r/8` from `c − (0, r, 0)` to
//! `c + (0, r, 0)`, and the box of half extents `(r, r/4, r/8)` at `c` turned by the
//! quaternion `(0.8, 0, 0.6, 0)`.

use crate::words::Words;
use std::path::PathBuf;

use bdtree_core::query::self_collision::UnitCounts;
use bdtree_core::query::separation::nearest;
use bdtree_core::{
    collide, collide_contacts, collide_primitive, collide_primitive_proxies, collide_proxies,
    collide_self_image, proxy_stack_capacity, self_stack_capacity, stack_capacity, within, Body,
    BoxEntry, ConeSlot, ContactPoint, NearPair, Pose, Primitive, PrimitiveProxy, ProxyPair, Scalar,
    SelfCones, TrianglePair, VertexEntry,
};
use bdtree_std::build::{box_file, with_self_data, BuildOptions, Precision};

/// The most modes a body of the C pack gets self-collision certificates for (see `build`'s
/// images: the calls after a culled self call of the same step pay for the spheres it did not
/// make).
const SELF_CERTIFICATE_MODES: usize = 1;

use bdtree_std::io::Scene;
use bdtree_std::runner::prepare;
use bdtree_std::BodyStorage;

use crate::root;

const PACK_VERSION: u32 = 3;
/// The largest box table packed (bytes): the fold scene's (90 modes, 0.5–0.9 MB a body) and the
/// demo's largest (0.1–0.25 MB) are left out, so the Cortex-M4F pack fits the board's 4 MiB of
/// flash with its code.
const MAX_PACKED_BOXES: usize = 128 * 1024;
/// The within-distance of the packed `within` queries, in the fixtures' units (their bodies are
/// ~0.1–1 across).
const NEAR_DISTANCE: f64 = 0.005;
/// Proxy depth of the packed proxy queries.
const PROXY_DEPTH: u32 = 4;

/// The pack's words: [`Words`] with this format's scalars and pairs.
type Pack = Words;

impl Words {
    fn scalar<S: Scalar>(&mut self, x: S) {
        if S::BYTES == 4 {
            self.u32((x.to_f64() as f32).to_bits());
        } else {
            self.0
                .extend_from_slice(&x.to_f64().to_bits().to_le_bytes());
        }
    }
    fn pairs(&mut self, pairs: &[[u32; 4]]) -> Result<(), String> {
        self.usize(pairs.len())?;
        for p in pairs {
            p.iter().for_each(|&x| self.u32(x));
        }
        Ok(())
    }
}

/// A frame's answers from the kernel.
struct Answers<S> {
    pairs: Vec<[u32; 4]>,
    proxies: Vec<([u32; 4], S)>,
    /// Per body pair `a < b`: triangles, intersecting, distance.
    distances: Vec<([u32; 3], S)>,
    /// Per body pair `a < b`: contacts and near pairs (count and hash).
    contacts: Vec<[Hashed; 2]>,
    /// Per body, per primitive: contacts and proxies (count and hash).
    primitives: Vec<[[Hashed; 2]; 4]>,
}

/// Items given by their count and the wrapping sum of their hashes (see the pack format).
#[derive(Clone, Copy, Default)]
struct Hashed {
    count: usize,
    sum: u64,
}

impl Hashed {
    fn add(&mut self, item: &Fnv) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(item.0);
    }
}

/// The 64-bit FNV-1a of an item's fields, each little-endian.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(mut self, bytes: &[u8]) -> Self {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }
    fn u32(self, x: u32) -> Self {
        self.bytes(&x.to_le_bytes())
    }
    fn scalars<S: Scalar>(mut self, xs: &[S]) -> Self {
        for &x in xs {
            self = if S::BYTES == 4 {
                self.bytes(&(x.to_f64() as f32).to_bits().to_le_bytes())
            } else {
                self.bytes(&x.to_f64().to_bits().to_le_bytes())
            };
        }
        self
    }
}

/// The packed primitives of a body whose root sphere is `(c, r)` (see the pack format).
fn primitives<S: Scalar>([x, y, z, r]: [S; 4]) -> Result<[Primitive<S>; 4], String> {
    let s = S::from_f64;
    let (zero, one) = (S::ZERO, S::ONE);
    let error = |e: bdtree_core::PrimitiveError| e.to_string();
    let pose = Pose::from_quaternion([s(0.8), zero, s(0.6), zero], [x, y, z])
        .map_err(|e| e.to_string())?;
    Ok([
        Primitive::plane([zero, zero, one], z).map_err(error)?,
        Primitive::sphere([x + r * s(0.5), y, z], r * s(0.5)).map_err(error)?,
        Primitive::capsule([x, y - r, z], [x, y + r, z], r * s(0.125)).map_err(error)?,
        Primitive::oriented_box(&pose, [r, r * s(0.25), r * s(0.125)]).map_err(error)?,
    ])
}

fn to_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// Every frame's answers by `bdtree-core` in `S`.
fn answers<S: Scalar>(
    scene: &Scene,
    images: &[bdtree_std::io::ImageBuf],
    with_self: bool,
) -> Result<Vec<Answers<S>>, String> {
    let parsed = images
        .iter()
        .map(|i| i.parse::<S>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut storage: Vec<BodyStorage<S>> = parsed.iter().map(BodyStorage::for_image).collect();
    // Every other body with a vertex cache, as the C example makes them: a vertex cache bounds
    // leaves from their triangles, which may change which of several equal answers a search
    // meets first.
    let mut vertices: Vec<Vec<VertexEntry<S>>> = parsed
        .iter()
        .enumerate()
        .map(|(i, im)| {
            vec![
                VertexEntry::default();
                if i % 2 == 1 {
                    im.model.vertex_count()
                } else {
                    0
                }
            ]
        })
        .collect();
    // And every body with a box cache, as the C example makes them: the one-pass refit of a
    // self query then makes boxes where the walk tests boxes, and spheres around them above,
    // which a later query of the same step reads.
    let mut boxes: Vec<Vec<BoxEntry<S>>> = parsed
        .iter()
        .map(|im| vec![BoxEntry::EMPTY; im.tree.node_count()])
        .collect();
    let mut bodies: Vec<Body<'_, '_, S>> = storage
        .iter_mut()
        .zip(&parsed)
        .zip(vertices.iter_mut().zip(boxes.iter_mut()))
        .map(|((s, im), (v, b))| {
            let body = s.body(im).map_err(|e| e.to_string())?;
            let body = if v.is_empty() {
                body
            } else {
                body.with_vertex_cache(v).map_err(|e| e.to_string())?
            };
            body.with_box_cache(b).map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    let depth = parsed.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![
        [0u32; 2];
        stack_capacity(depth, depth)
            .max(self_stack_capacity(depth))
            .max(proxy_stack_capacity(depth, PROXY_DEPTH, depth, PROXY_DEPTH))
    ];
    let mut out = Vec::new();
    for (f, frame) in scene.frames.iter().enumerate() {
        for (body, (pose, q)) in bodies.iter_mut().zip(frame) {
            let pose = Pose::from_quaternion(
                pose.rotation.map(S::from_f64),
                pose.translation.map(S::from_f64),
            )
            .map_err(|e| format!("frame {f}: {e}"))?;
            let q: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
            body.set_state(pose, &q)
                .map_err(|e| format!("frame {f}: {e}"))?;
        }
        let mut answer = Answers {
            pairs: Vec::new(),
            proxies: Vec::new(),
            distances: Vec::new(),
            contacts: Vec::new(),
            primitives: Vec::new(),
        };
        for i in 0..bodies.len() {
            let (head, tail) = bodies.split_at_mut(i + 1);
            let a = &mut head[i];
            if with_self {
                let mut sink = |p: TrianglePair| {
                    answer.pairs.push([to_u32(i), to_u32(i), p.a, p.b]);
                    true
                };
                let mut slots = vec![ConeSlot::EMPTY; a.tree().node_count()];
                let mut cones = SelfCones::new(&mut slots);
                let o = collide_self_image(
                    a,
                    &mut cones,
                    &mut UnitCounts::default(),
                    &mut stack,
                    &mut sink,
                );
                if !o.status.is_complete() {
                    return Err(format!("frame {f}: self {i}: {:?}", o.status));
                }
            }
            for (k, b) in tail.iter_mut().enumerate() {
                let j = to_u32(i + 1 + k);
                let i = to_u32(i);
                let mut sink = |p: TrianglePair| {
                    answer.pairs.push([i, j, p.a, p.b]);
                    true
                };
                let o = collide(a, b, &mut stack, &mut sink);
                if !o.status.is_complete() {
                    return Err(format!("frame {f}: collide: {:?}", o.status));
                }
                let mut sink = |p: ProxyPair<S>| {
                    answer.proxies.push(([i, j, p.a, p.b], p.depth));
                    true
                };
                let o = collide_proxies(a, b, PROXY_DEPTH, PROXY_DEPTH, &mut stack, &mut sink);
                if !o.status.is_complete() {
                    return Err(format!("frame {f}: proxies: {:?}", o.status));
                }
                let mut near = None;
                let n = nearest(a, b, &mut stack, &mut near);
                let near = near.ok_or_else(|| format!("frame {f}: distance: {:?}", n.status))?;
                answer.distances.push((
                    [
                        near.triangle_a,
                        near.triangle_b,
                        u32::from(near.intersecting),
                    ],
                    near.distance,
                ));
                let mut contacts = Hashed::default();
                let mut sink = |c: ContactPoint<S>| {
                    let k = &c.contact;
                    contacts.add(
                        &Fnv::new()
                            .u32(c.a)
                            .u32(c.b)
                            .scalars(&k.point)
                            .scalars(&k.normal)
                            .scalars(&[k.depth]),
                    );
                    true
                };
                let o = collide_contacts(a, b, &mut stack, &mut sink);
                if !o.status.is_complete() {
                    return Err(format!("frame {f}: contacts: {:?}", o.status));
                }
                let mut near = Hashed::default();
                let mut sink = |p: NearPair<S>| {
                    near.add(
                        &Fnv::new()
                            .u32(p.a)
                            .u32(p.b)
                            .scalars(&[p.distance])
                            .scalars(&p.point_a)
                            .scalars(&p.point_b),
                    );
                    true
                };
                let o = within(a, b, S::from_f64(NEAR_DISTANCE), &mut stack, &mut sink);
                if !o.status.is_complete() {
                    return Err(format!("frame {f}: within: {:?}", o.status));
                }
                answer.contacts.push([contacts, near]);
            }
        }
        for (i, body) in bodies.iter_mut().enumerate() {
            let root = body
                .sphere(0)
                .ok_or_else(|| format!("frame {f}: body {i}: no root"))?;
            let mut per = [[Hashed::default(); 2]; 4];
            for (k, primitive) in primitives(root)?.iter().enumerate() {
                let mut sink = |c: ContactPoint<S>| {
                    let x = &c.contact;
                    per[k][0].add(
                        &Fnv::new()
                            .u32(c.a)
                            .u32(c.b)
                            .scalars(&x.point)
                            .scalars(&x.normal)
                            .scalars(&[x.depth]),
                    );
                    true
                };
                let o = collide_primitive(body, primitive, &mut stack, &mut sink);
                if !o.status.is_complete() {
                    return Err(format!(
                        "frame {f}: body {i}: primitive {k}: {:?}",
                        o.status
                    ));
                }
                let mut sink = |p: PrimitiveProxy<S>| {
                    per[k][1].add(
                        &Fnv::new()
                            .u32(p.node)
                            .scalars(&p.sphere)
                            .scalars(&[p.depth]),
                    );
                    true
                };
                let o =
                    collide_primitive_proxies(body, primitive, PROXY_DEPTH, &mut stack, &mut sink);
                if !o.status.is_complete() {
                    return Err(format!(
                        "frame {f}: body {i}: primitive proxies {k}: {:?}",
                        o.status
                    ));
                }
            }
            answer.primitives.push(per);
        }
        answer.pairs.sort_unstable();
        answer.proxies.sort_unstable_by_key(|p| p.0);
        out.push(answer);
    }
    Ok(out)
}

/// Per frame, the brute-force pairs, four indices each as `fixtures/expected` lists them.
type FramePairs = Vec<Vec<[u32; 4]>>;

/// The brute-force answers of `fixtures/expected/NAME.jsonl`, and whether they hold
/// self-collisions.
fn oracle(scene: &Scene, name: &str) -> Result<(FramePairs, bool), String> {
    let path = root()
        .join("fixtures")
        .join("expected")
        .join(format!("{name}.jsonl"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let index = |v: &serde_json::Value| -> Result<u32, String> {
        let name = v.as_str().ok_or("body name")?;
        scene
            .bodies
            .iter()
            .position(|b| b.name == name)
            .map(to_u32)
            .ok_or_else(|| format!("{}: no body {name}", path.display()))
    };
    let mut frames = Vec::new();
    let mut with_self = false;
    for line in text.lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
        with_self |= v["self"] == true;
        let mut pairs = Vec::new();
        for p in v["pairs"].as_array().ok_or("pairs")? {
            let t = |k: usize| p[k].as_u64().map(|x| x as u32).ok_or("triangle");
            let (a, b) = (index(&p[0])?, index(&p[1])?);
            let (ta, tb) = (t(2)?, t(3)?);
            // The oracle lists a self pair once, smaller triangle first, like the kernel.
            pairs.push([a, b, ta, tb]);
        }
        pairs.sort_unstable();
        frames.push(pairs);
    }
    Ok((frames, with_self))
}

/// Writes the pack of every fixture scene in the given precisions.
pub(super) fn build(precisions: &[Precision]) -> Result<Vec<u8>, String> {
    let dir = root().join("fixtures").join("scenes");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut out = Pack::default();
    out.0.extend_from_slice(b"BDCP");
    out.u32(PACK_VERSION);
    out.usize(paths.len() * precisions.len())?;
    for path in &paths {
        let scene = Scene::load(path).map_err(|e| e.to_string())?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (oracle, with_self) = oracle(&scene, &name)?;
        if oracle.len() != scene.frames.len() {
            return Err(format!("{name}: expected answers for every frame"));
        }
        for &precision in precisions {
            let options = BuildOptions {
                precision,
                nested: true,
                ..BuildOptions::default()
            };
            let mut prepared = prepare(&scene, options).map_err(|e| format!("{name}: {e}"))?;
            // A scene with self pairs gets the culling data in its images, so the C query
            // culls; certificates only for bodies of at most `SELF_CERTIFICATE_MODES` modes.
            // Not for lack of room (the Cortex-M4F program keeps the pack in the board's 16 MiB
            // PSRAM): with every body's certificates the fold's self calls cull without making
            // tight spheres, and the pair calls that follow in the same step read the BD-Tree
            // spheres instead (measured: the fold's largest `bdtree_collide_self_f32` 1.61 M ->
            // 1.18 M instructions, but `bdtree_within_f32` 17.7 M -> 33.1 M and
            // `bdtree_collide_world_f32` 19.5 M -> 34.4 M). The device runs certificates in the
            // firmware's fold-self replay, whose images carry every body's.
            if with_self {
                for (image, body) in prepared.images.iter_mut().zip(&scene.bodies) {
                    let modes = body.basis.as_ref().map_or(0, |b| b.modes);
                    *image = with_self_data(image, modes <= SELF_CERTIFICATE_MODES)
                        .map_err(|e| format!("{name}: {e}"))?;
                }
            }
            let label = format!(
                "{name}-{}",
                if precision == Precision::F32 {
                    "f32"
                } else {
                    "f64"
                }
            );
            let written = match precision {
                Precision::F32 => {
                    let a = answers::<f32>(&scene, &prepared.images, with_self)
                        .map_err(|e| format!("{label}: {e}"))?;
                    write_scene(
                        &mut out,
                        &label,
                        &scene,
                        &prepared.images,
                        &a,
                        &oracle,
                        with_self,
                    )
                }
                Precision::F64 => {
                    let a = answers::<f64>(&scene, &prepared.images, with_self)
                        .map_err(|e| format!("{label}: {e}"))?;
                    write_scene(
                        &mut out,
                        &label,
                        &scene,
                        &prepared.images,
                        &a,
                        &oracle,
                        with_self,
                    )
                }
            };
            written.map_err(|e| format!("{label}: {e}"))?;
        }
    }
    Ok(out.0)
}

fn write_scene<S: Scalar>(
    out: &mut Pack,
    label: &str,
    scene: &Scene,
    images: &[bdtree_std::io::ImageBuf],
    answers: &[Answers<S>],
    oracle: &[Vec<[u32; 4]>],
    with_self: bool,
) -> Result<(), String> {
    out.usize(label.len())?;
    out.0.extend_from_slice(label.as_bytes());
    out.pad(4);
    out.u32(S::BYTES);
    out.usize(scene.bodies.len())?;
    out.usize(scene.frames.len())?;
    out.u32(u32::from(with_self));
    out.u32(PROXY_DEPTH);
    out.usize(answers.iter().map(|a| a.pairs.len()).max().unwrap_or(0))?;
    out.usize(answers.iter().map(|a| a.proxies.len()).max().unwrap_or(0))?;
    let most = |f: &dyn Fn(&Answers<S>) -> usize| answers.iter().map(f).max().unwrap_or(0);
    let max_contacts = most(&|a| a.contacts.iter().map(|c| c[0].count).max().unwrap_or(0));
    let max_near = most(&|a| a.contacts.iter().map(|c| c[1].count).max().unwrap_or(0));
    let max_primitive = most(&|a| {
        a.primitives
            .iter()
            .flatten()
            .flatten()
            .map(|h| h.count)
            .max()
            .unwrap_or(0)
    });
    out.usize(max_contacts)?;
    out.usize(max_near)?;
    out.usize(max_primitive)?;
    out.pad(8);
    out.scalar(S::from_f64(NEAR_DISTANCE));
    out.pad(4);
    println!(
        "c api: {label}: at most {max_contacts} contacts, {max_near} near pairs, \
         {max_primitive} primitive contacts or proxies per query"
    );
    for (body, image) in scene.bodies.iter().zip(images) {
        out.usize(body.basis.as_ref().map_or(0, |b| b.modes))?;
        out.usize(image.as_bytes().len())?;
        out.pad(16);
        out.0.extend_from_slice(image.as_bytes());
        out.pad(4);
        let parsed = image.parse::<S>().map_err(|e| format!("{label}: {e}"))?;
        let mut boxes = box_file(&parsed).ok_or_else(|| format!("{label}: no box table"))?;
        if boxes.len() > MAX_PACKED_BOXES {
            boxes.clear();
        }
        out.usize(boxes.len())?;
        out.pad(16);
        out.0.extend_from_slice(&boxes);
        out.pad(4);
    }
    for ((frame, answer), oracle) in scene.frames.iter().zip(answers).zip(oracle) {
        out.pad(8);
        for (pose, q) in frame {
            pose.rotation
                .iter()
                .for_each(|&x| out.scalar(S::from_f64(x)));
            pose.translation
                .iter()
                .for_each(|&x| out.scalar(S::from_f64(x)));
            q.iter().for_each(|&x| out.scalar(S::from_f64(x)));
        }
        out.pad(4);
        out.pairs(&answer.pairs)?;
        out.pairs(oracle)?;
        out.usize(answer.proxies.len())?;
        for (nodes, depth) in &answer.proxies {
            nodes.iter().for_each(|&x| out.u32(x));
            out.pad(8);
            out.scalar(*depth);
            out.pad(4);
        }
        for (words, distance) in &answer.distances {
            words.iter().for_each(|&x| out.u32(x));
            out.pad(8);
            out.scalar(*distance);
            out.pad(4);
        }
        let hashed = |out: &mut Pack, h: &Hashed| -> Result<(), String> {
            out.usize(h.count)?;
            out.u32(h.sum as u32);
            out.u32((h.sum >> 32) as u32);
            Ok(())
        };
        for h in answer.contacts.iter().flatten() {
            hashed(out, h)?;
        }
        for h in answer.primitives.iter().flatten().flatten() {
            hashed(out, h)?;
        }
    }
    Ok(())
}
