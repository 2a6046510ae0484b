//! `cargo xtask c [--overwrite]`: the C API (`bindings/c/`).
//!
//! 1. **Header**: generates `bindings/c/include/bdtree.h` with cbindgen (library, pinned in
//!    `Cargo.lock`) from `bindings/c/src` and `cbindgen.toml`, and fails when the committed file
//!    differs (`--overwrite` rewrites it).
//! 2. **Fixture pack** (`<target dir>/c-api/fixtures.bin`, f32 and f64; `fixtures-f32.bin` for
//!    the Cortex-M4F): every fixture scene's tree images (built nested, so proxy queries work
//!    too), frames and answers, in a format a C program reads with a few lines (below).
//! 3. **Host**: builds `libbdtree.a` (profile `c-release`, runtime symbols made local and
//!    checked: `install.rs`), compiles `examples/host.c` and `examples/replay.c` with
//!    `-std=c11 -Wall -Wextra -Werror -pedantic`, and runs them on the pack; compiles and runs
//!    `examples/header.cpp` (the header from C++).
//! 4. **Cortex-M4F**: builds `libbdtree.a` for `thumbv7em-none-eabihf` with `panic-check`,
//!    links `examples/mps2-an386/` and the same `replay.c` with `arm-none-eabi-gcc`, with every
//!    exported function kept as a link root (`-Wl,--undefined=…`): the link succeeds only if no
//!    panic path is reachable from any entry point. Runs it on QEMU's `mps2-an386` under
//!    `-icount shift=0`, where it measures every call (instructions, stack), and checks the
//!    header's cost table (in `cbindgen.toml`) against those figures: each within 25 %
//!    (`--overwrite` rewrites the table from the run).
//!
//! Both programs print `c api <platform>: N frames match`. The host step also compiles (and
//! runs, where they have a `main`) the C examples of the README and the book as written there
//! (`doc_examples`), and runs `cargo xtask c --install` into a
//! fresh prefix with a `CARGO_TARGET_DIR` of its own (the installed archive must be the one
//! built there, and nothing of `bdtree-std` built), then builds `host.c` with the flags its
//! pkg-config file gives and runs it.
//!
//! `cargo xtask c --install PREFIX [--target TRIPLE]` installs the library for a target (the
//! host without `--target`): `PREFIX/include/bdtree.h`, `PREFIX/lib/libbdtree.a`,
//! `PREFIX/lib/pkgconfig/bdtree.pc` (`pkg-config --cflags --libs bdtree`) and
//! `PREFIX/lib/cmake/bdtree/bdtreeConfig.cmake` (`find_package(bdtree)`, target
//! `bdtree::bdtree`); see `install.rs`.
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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bdtree_core::query::separation::nearest;
use bdtree_core::{
    collide, collide_contacts, collide_primitive, collide_primitive_proxies, collide_proxies,
    collide_self, proxy_stack_capacity, self_stack_capacity, stack_capacity, within, Body,
    ContactPoint, NearPair, Pose, Primitive, PrimitiveProxy, ProxyPair, Scalar, TrianglePair,
    VertexEntry,
};
use bdtree_std::build::{box_file, BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::run::prepare;
use bdtree_std::BodyStorage;

use crate::install::{c_dir, command, exported_functions, library, out_dir, path_arg, strings};
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
/// The M4F board and the time its run may take.
const BOARD: &str = "mps2-an386";
const QEMU_TIMEOUT: Duration = Duration::from_secs(900);
/// Flags of the C compilers.
const C_FLAGS: &[&str] = &[
    "-std=c11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-O2",
];
const CXX_FLAGS: &[&str] = &[
    "-std=c++11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-O2",
];
const M4F_FLAGS: &[&str] = &[
    "-mcpu=cortex-m4",
    "-mthumb",
    "-mfloat-abi=hard",
    "-mfpu=fpv4-sp-d16",
    "-ffunction-sections",
    "-fdata-sections",
];

/// `cargo xtask c [--overwrite]`.
pub fn run(overwrite: bool) -> Vec<String> {
    let mut failures = Vec::new();
    let started = Instant::now();
    if let Err(e) = header(overwrite) {
        failures.push(e);
    }
    if let Err(e) = std::fs::create_dir_all(out_dir()) {
        return vec![format!("{}: {e}", out_dir().display())];
    }
    let packs = [
        ("fixtures.bin", &[Precision::F32, Precision::F64][..]),
        ("fixtures-f32.bin", &[Precision::F32][..]),
    ];
    for (name, precisions) in packs {
        match pack(precisions) {
            Ok(bytes) => {
                println!("c api: {name}: {} bytes", bytes.len());
                if let Err(e) = std::fs::write(out_dir().join(name), bytes) {
                    failures.push(format!("{name}: {e}"));
                }
            }
            Err(e) => failures.push(format!("c api pack: {e}")),
        }
    }
    if !failures.is_empty() {
        return failures;
    }
    if let Err(e) = host() {
        failures.push(e);
    }
    if let Err(e) = m4f(overwrite) {
        failures.push(e);
    }
    println!(
        "c api: {} in {:.0} s",
        if failures.is_empty() { "ok" } else { "FAILED" },
        started.elapsed().as_secs_f64()
    );
    failures
}

/// Generates the header and compares it with (or writes it over) the committed one.
fn header(overwrite: bool) -> Result<(), String> {
    exports_f64(overwrite)?;
    let dir = c_dir();
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml"))
        .map_err(|e| format!("cbindgen.toml: {e}"))?;
    let bindings = cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .map_err(|e| format!("cbindgen: {e}"))?;
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let path = dir.join("include").join("bdtree.h");
    let committed = std::fs::read(&path).unwrap_or_default();
    if committed == fresh {
        println!("c api: {} is current", path.display());
        return Ok(());
    }
    if overwrite {
        std::fs::write(&path, &fresh).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("c api: wrote {}", path.display());
        return Ok(());
    }
    Err(format!(
        "{} is stale: run `cargo xtask c --overwrite` and commit it",
        path.display()
    ))
}

/// The marker above each C API file's generated `exports_f64` module (all that follows it is
/// generated; `bindings/c/src/layout_tests.rs` checks the same).
const GENERATED: &str = "// @generated below: `exports_f64`, from `exports_f32` by `cargo xtask c \
                         --overwrite` (a test\n// checks it is current); do not edit it.";
const GENERATED_HEAD: &str = "/// The functions of `exports_f32` in f64, word for word (its \
                              documentation is theirs).\n#[allow(clippy::too_many_arguments)] \
                              // C functions take buffers as pointer and length pairs.";

/// A C API file with its `exports_f64` module generated from its `exports_f32` module: the f32
/// exports in the other precision, word for word, after the marker at the end of the file.
fn with_f64_exports(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let start = lines.iter().position(|l| *l == "pub mod exports_f32 {")?;
    let end = start + lines[start..].iter().position(|l| *l == "}")?;
    let mut block = lines[start..=end].join("\n");
    for (from, to) in [
        ("f32", "f64"),
        ("F32", "F64"),
        ("floats", "doubles"),
        ("aligned to 4", "aligned to 8"),
    ] {
        block = block.replace(from, to);
    }
    let head = text.split(GENERATED).next().unwrap_or(text);
    Some(format!("{head}{GENERATED}\n\n{GENERATED_HEAD}\n{block}\n"))
}

/// Every C API file's generated `exports_f64`: compared with (or, `overwrite`, written over)
/// the committed files.
fn exports_f64(overwrite: bool) -> Result<(), String> {
    let src = c_dir().join("src");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&src)
        .map_err(|e| format!("{}: {e}", src.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    paths.sort();
    let mut stale = Vec::new();
    for path in paths {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let Some(fresh) = with_f64_exports(&text) else {
            continue;
        };
        if fresh == text {
            continue;
        }
        if overwrite {
            std::fs::write(&path, fresh).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("c api: wrote the f64 exports of {}", path.display());
        } else {
            stale.push(path.display().to_string());
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "stale f64 exports in {}: run `cargo xtask c --overwrite` (they are generated from \
             each file's exports_f32)",
            stale.join(", ")
        ))
    }
}

/// The pack's words.
#[derive(Default)]
struct Pack(Vec<u8>);

impl Pack {
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn usize(&mut self, x: usize) -> Result<(), String> {
        self.u32(u32::try_from(x).map_err(|_| format!("{x} does not fit a u32"))?);
        Ok(())
    }
    fn pad(&mut self, to: usize) {
        while !self.0.len().is_multiple_of(to) {
            self.0.push(0);
        }
    }
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
    let mut bodies: Vec<Body<'_, '_, S>> = storage
        .iter_mut()
        .zip(&parsed)
        .zip(vertices.iter_mut())
        .map(|((s, im), v)| {
            let body = s.body(im).map_err(|e| e.to_string())?;
            if v.is_empty() {
                Ok(body)
            } else {
                body.with_vertex_cache(v).map_err(|e| e.to_string())
            }
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
                let o = collide_self(a, &mut stack, &mut sink);
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
fn pack(precisions: &[Precision]) -> Result<Vec<u8>, String> {
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
            let prepared = prepare(&scene, options).map_err(|e| format!("{name}: {e}"))?;
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

/// Checks a program's output for its `frames match` line and prints it.
fn frames_line(text: &str, platform: &str) -> Result<(), String> {
    let prefix = format!("c api {platform}: ");
    for line in text.lines() {
        println!("    {line}");
    }
    match text
        .lines()
        .find(|l| l.starts_with(&prefix) && l.ends_with("frames match"))
    {
        Some(line) => {
            println!("{line}");
            Ok(())
        }
        None => Err(format!("c api {platform}: no `frames match` line")),
    }
}

/// Host: library, C program, C++ header check.
fn host() -> Result<(), String> {
    let started = Instant::now();
    let lib = library(None, "")?;
    let examples = c_dir().join("examples");
    let include = format!("-I{}", path_arg(&c_dir().join("include")));
    let exe = out_dir().join("host");
    let mut args = strings(C_FLAGS);
    args.push(include.clone());
    args.push(path_arg(&examples.join("host.c")));
    args.push(path_arg(&examples.join("replay.c")));
    args.push(path_arg(&lib));
    args.extend(strings(&["-lpthread", "-ldl", "-lm", "-o"]));
    args.push(path_arg(&exe));
    command("cc", &args)?;
    let text = command(
        &path_arg(&exe),
        &[path_arg(&out_dir().join("fixtures.bin"))],
    )?;
    frames_line(&text, "host")?;
    let cpp = out_dir().join("header-cpp");
    let mut args = strings(CXX_FLAGS);
    args.push(include);
    args.push(path_arg(&examples.join("header.cpp")));
    args.push(path_arg(&lib));
    args.extend(strings(&["-lpthread", "-ldl", "-lm", "-o"]));
    args.push(path_arg(&cpp));
    command("c++", &args)?;
    print!("{}", command(&path_arg(&cpp), &[])?);
    doc_examples(&lib)?;
    installed()?;
    println!("c api host: {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The installed library as pkg-config gives it: `host.c` and `replay.c` built with its flags
/// and nothing else, then run on the pack.
///
/// The install is the command a user runs, `cargo xtask c --install PREFIX`, into a fresh
/// prefix with `CARGO_TARGET_DIR` set to a directory of its own: the library must come from
/// there (byte for byte), and nothing of `bdtree-std` may have been built there.
fn installed() -> Result<(), String> {
    let prefix = out_dir().join("install");
    if prefix.exists() {
        std::fs::remove_dir_all(&prefix).map_err(|e| format!("{}: {e}", prefix.display()))?;
    }
    // Kept between runs (cargo's cache), and used by nothing else.
    let own_target = out_dir().join("install-target");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    println!(
        "$ CARGO_TARGET_DIR={} cargo xtask c --install {}",
        own_target.display(),
        prefix.display()
    );
    let status = Command::new(cargo)
        .args(["xtask", "c", "--install"])
        .arg(&prefix)
        .env("CARGO_TARGET_DIR", &own_target)
        .current_dir(root())
        .status()
        .map_err(|e| format!("cargo xtask c --install: {e}"))?;
    if !status.success() {
        return Err(format!("cargo xtask c --install failed ({status})"));
    }
    let built = own_target
        .join("c-api")
        .join("lib")
        .join("host")
        .join("libbdtree.a");
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    if read(&built)? != read(&prefix.join("lib").join("libbdtree.a"))? {
        return Err(format!(
            "the installed libbdtree.a is not the one built under CARGO_TARGET_DIR ({})",
            built.display()
        ));
    }
    let mut std_artifacts = Vec::new();
    for profile in ["debug", "c-release"] {
        let deps = own_target.join(profile).join("deps");
        for entry in std::fs::read_dir(&deps).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.contains("bdtree_std") || name.contains("cbindgen") {
                std_artifacts.push(name);
            }
        }
    }
    if !std_artifacts.is_empty() {
        return Err(format!(
            "installing the C library built more than it: {} in {}",
            std_artifacts.join(", "),
            own_target.display()
        ));
    }
    println!(
        "c api: installed under CARGO_TARGET_DIR={}: the library built there, nothing of \
         bdtree-std or cbindgen",
        own_target.display()
    );
    let pkgconfig = prefix.join("lib").join("pkgconfig");
    let output = Command::new("pkg-config")
        .args(["--cflags", "--libs", "bdtree"])
        .env("PKG_CONFIG_PATH", &pkgconfig)
        .output()
        .map_err(|e| format!("pkg-config: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "pkg-config bdtree: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let flags = String::from_utf8_lossy(&output.stdout).into_owned();
    let examples = c_dir().join("examples");
    let exe = out_dir().join("host-installed");
    let mut args = strings(C_FLAGS);
    args.push(path_arg(&examples.join("host.c")));
    args.push(path_arg(&examples.join("replay.c")));
    args.extend(flags.split_whitespace().map(String::from));
    args.push("-o".into());
    args.push(path_arg(&exe));
    command("cc", &args)?;
    let text = command(
        &path_arg(&exe),
        &[path_arg(&out_dir().join("fixtures.bin"))],
    )?;
    let installed = text.replace("c api host: ", "c api host (installed, pkg-config): ");
    frames_line(&installed, "host (installed, pkg-config)")
}

/// The C examples of the README and the book (every ```c block of `README.md` and
/// `docs/src/`), as written there: each compiled against the header with
/// `-std=c11 -Wall -Wextra -Werror -pedantic`; one that includes `arm_bdt.h` gets the image of
/// the demo scene's ring in the form the documented `xxd -i … | sed …` line makes, and its
/// `ARM_NODES`, `ARM_MODES`, `ARM_DEPTH` and `ARM_VERTICES` are checked against that image; one
/// with a `main` is linked and run (it must exit 0), the others are compiled only.
fn doc_examples(lib: &Path) -> Result<(), String> {
    let scene =
        Scene::load(&root().join("fixtures/scenes/demo.json")).map_err(|e| e.to_string())?;
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let prepared = prepare(&scene, options).map_err(|e| format!("doc examples: {e}"))?;
    let ring = scene
        .bodies
        .iter()
        .position(|b| b.name == "ring")
        .unwrap_or(0);
    let Some(image) = prepared.images.get(ring) else {
        return Err("doc examples: the demo scene has no ring".into());
    };
    let view = image
        .parse::<f32>()
        .map_err(|e| format!("doc examples: {e}"))?;
    let tree = view.tree;
    let actual = [
        ("ARM_NODES", tree.node_count()),
        ("ARM_MODES", tree.modes()),
        ("ARM_DEPTH", tree.depth() as usize),
        ("ARM_VERTICES", view.model.vertex_count()),
    ];
    let dir = out_dir().join("doc-examples");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let bytes = image.as_bytes();
    let mut header = String::from("static _Alignas(8) const unsigned char arm_bdt[] = {\n");
    for row in bytes.chunks(12) {
        let row: Vec<String> = row.iter().map(|b| format!("0x{b:02x}")).collect();
        header += &format!("  {},\n", row.join(", "));
    }
    header += &format!(
        "}};\nstatic _Alignas(8) const unsigned int arm_bdt_len = {};\n",
        bytes.len()
    );
    std::fs::write(dir.join("arm_bdt.h"), &header).map_err(|e| format!("arm_bdt.h: {e}"))?;
    let mut count = 0;
    for document in crate::book::documents() {
        let text = std::fs::read_to_string(&document)
            .map_err(|e| format!("{}: {e}", document.display()))?;
        let name = document
            .strip_prefix(root())
            .unwrap_or(&document)
            .display()
            .to_string();
        for (line, info, code) in crate::book::code_blocks(&text) {
            if info != "c" {
                continue;
            }
            let place = format!("{name}:{line}");
            if code.contains("arm_bdt.h") {
                for (define, value) in actual {
                    let defined = code
                        .lines()
                        .find_map(|l| l.strip_prefix(&format!("#define {define} ")))
                        .and_then(|v| v.split_whitespace().next()?.parse::<usize>().ok());
                    if defined.is_some_and(|d| d != value) {
                        return Err(format!(
                            "{place}: C example: `#define {define}` is {}, the demo ring's \
                             image has {value}",
                            defined.unwrap_or_default()
                        ));
                    }
                }
            }
            count += 1;
            let stem = format!("example-{count}");
            let source = dir.join(format!("{stem}.c"));
            std::fs::write(&source, &code).map_err(|e| format!("{}: {e}", source.display()))?;
            let mut args = strings(C_FLAGS);
            args.push(format!("-I{}", path_arg(&c_dir().join("include"))));
            args.push(format!("-I{}", path_arg(&dir)));
            args.push(path_arg(&source));
            let exe = dir.join(&stem);
            let runs = code.contains("int main(");
            if runs {
                args.push(path_arg(lib));
                args.extend(strings(&["-lpthread", "-ldl", "-lm", "-o"]));
            } else {
                args.extend(strings(&["-c", "-o"]));
            }
            args.push(path_arg(&exe));
            command("cc", &args).map_err(|e| format!("{place}: C example: {e}"))?;
            if runs {
                let out = command(&path_arg(&exe), &[])
                    .map_err(|e| format!("{place}: C example: {e}"))?;
                println!("c api doc example {place}: {}", out.trim());
            } else {
                println!("c api doc example {place}: compiles");
            }
        }
    }
    if count == 0 {
        return Err("doc examples: no ```c block in README.md or docs/src".into());
    }
    Ok(())
}

/// Cortex-M4F: library with `panic-check`, program linked with every export as a root, QEMU;
/// then the header's cost table checked against the run's figures (or, `overwrite`, rewritten).
fn m4f(overwrite: bool) -> Result<(), String> {
    let started = Instant::now();
    let target = "thumbv7em-none-eabihf";
    let lib = library(Some(target), "panic-check")?;
    let dir = c_dir().join("examples");
    let board = dir.join(BOARD);
    let elf = out_dir().join(format!("{BOARD}.elf"));
    let mut args = strings(C_FLAGS);
    args.extend(strings(M4F_FLAGS));
    args.push(format!("-I{}", path_arg(&c_dir().join("include"))));
    args.push(format!(
        "-DPACK_FILE=\"{}\"",
        path_arg(&out_dir().join("fixtures-f32.bin"))
    ));
    args.extend(strings(&["-nostdlib", "-T"]));
    args.push(path_arg(&board.join("link.ld")));
    args.push("-Wl,--gc-sections".into());
    let exports = exported_functions()?;
    for name in &exports {
        args.push(format!("-Wl,--undefined={name}"));
    }
    for file in ["startup.c", "main.c", "pack.S"] {
        args.push(path_arg(&board.join(file)));
    }
    args.push(path_arg(&dir.join("replay.c")));
    args.push(path_arg(&lib));
    // The library brings no libc: newlib's gives the replay its memcpy, memset and memcmp,
    // libgcc its runtime (the library's own runtime is local to it).
    args.extend(strings(&["-lc", "-lgcc", "-o"]));
    args.push(path_arg(&elf));
    command("arm-none-eabi-gcc", &args).map_err(|e| {
        format!(
            "{e}\nc api {target}: the link failed — an undefined \
             `bdtree_c_error_a_panic_path_is_reachable` means a panic path is reachable from \
             one of the {} exported functions",
            exports.len()
        )
    })?;
    println!(
        "c api {target}: no panic path is reachable from the {} exported functions (the \
         library links without a panic handler)",
        exports.len()
    );
    let text = qemu(&elf)?;
    frames_line(&text, BOARD)?;
    println!("c api {BOARD}: {:.0} s", started.elapsed().as_secs_f64());
    cost_table(&text, overwrite)
}

/// One function's figures from the Cortex-M4F run's `cost:` lines.
#[derive(Default)]
struct Cost {
    mean: u64,
    max: u64,
    scene: String,
    stack: u64,
    per_item: u64,
    max_per_item: u64,
    nodes: u64,
    updates: u64,
    overlaps: u64,
    triangles: u64,
    calls: u64,
}

/// The `c api mps2-an386 cost: NAME key=value …` lines, by name.
fn parse_costs(text: &str) -> BTreeMap<String, Cost> {
    let prefix = format!("c api {BOARD} cost: ");
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix(&prefix) else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let Some(name) = words.next() else { continue };
        let mut c = Cost::default();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                continue;
            };
            let n = value.parse::<u64>().unwrap_or(0);
            match key {
                "calls" => c.calls = n,
                "mean" => c.mean = n,
                "max" => c.max = n,
                "max_scene" => c.scene = value.trim_end_matches("-f32").to_string(),
                "stack" => c.stack = n,
                "per_item" => c.per_item = n,
                "max_per_item" => c.max_per_item = n,
                "nodes" => c.nodes = n,
                "updates" => c.updates = n,
                "overlaps" => c.overlaps = n,
                "triangles" => c.triangles = n,
                _ => {}
            }
        }
        out.insert(name.to_string(), c);
    }
    out
}

/// `1234567` as `1,234,567`.
fn thousands(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (k, ch) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The title line of the header's cost table (in `cbindgen.toml`): its rows follow it.
const COST_TITLE: &str =
    " *   call                                             mean      largest (scene)    stack B";

/// Per scene, the instructions per frame of collide between bodies 0 and 1 without and with
/// vertex caches (the replay's `  NAME: collide of bodies 0 and 1, …` lines).
fn parse_cache_lines(text: &str) -> Vec<(String, u64, u64)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((scene, rest)) = line.trim().split_once(": collide of bodies 0 and 1, ") else {
            continue;
        };
        let numbers: Vec<u64> = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        if let [plain, cached, ..] = numbers[..] {
            let name = scene.rsplit(' ').next().unwrap_or(scene);
            out.push((name.trim_end_matches("-f32").to_string(), plain, cached));
        }
    }
    out
}

/// The rows of the header's cost table from a run's figures.
fn cost_rows(
    costs: &BTreeMap<String, Cost>,
    cache: &[(String, u64, u64)],
) -> Result<Vec<String>, String> {
    let get = |name: &str| {
        costs
            .get(name)
            .ok_or_else(|| format!("c api {BOARD}: no cost line for {name}"))
    };
    let row = |label: &str, mean: u64, max: u64, scene: &str, stack: u64| {
        format!(
            " *   {label:<44}{:>11}{:>13} {:<10}{:>7}",
            thousands(mean),
            thousands(max),
            format!("({scene})"),
            thousands(stack)
        )
    };
    let mut rows = Vec::new();
    for (name, label) in [
        (
            "bdtree_image_parse_f32",
            "bdtree_image_parse_f32 (per image)",
        ),
        ("bdtree_body_init_f32", "bdtree_body_init_f32"),
        ("bdtree_body_set_state_f32", "bdtree_body_set_state_f32"),
        (
            "bdtree_body_set_state_from_f64_f32",
            "bdtree_body_set_state_from_f64_f32",
        ),
        ("bdtree_collide_f32", "bdtree_collide_f32"),
        ("bdtree_collide_self_f32", "bdtree_collide_self_f32"),
        (
            "bdtree_box_table_init_f32",
            "bdtree_box_table_init_f32 (per table)",
        ),
        (
            "bdtree_collide_boxes_f32",
            "bdtree_collide_boxes_f32 (15 axes)",
        ),
        ("bdtree_refine_f32", "bdtree_refine_f32 (per pair given)"),
        (
            "bdtree_collide_proxies_f32",
            "bdtree_collide_proxies_f32 (depth 4)",
        ),
        ("bdtree_distance_f32", "bdtree_distance_f32"),
        ("bdtree_collide_contacts_f32", "bdtree_collide_contacts_f32"),
        ("bdtree_within_f32", "bdtree_within_f32 (d = 0.005)"),
        (
            "bdtree_collide_primitive_f32",
            "bdtree_collide_primitive_f32",
        ),
        (
            "bdtree_collide_primitive_proxies_f32",
            "bdtree_collide_primitive_proxies_f32 (d. 4)",
        ),
        (
            "bdtree_traversal_run_f32",
            "bdtree_traversal_run_f32 (64 tests)",
        ),
        (
            "bdtree_collide_world_f32",
            "bdtree_collide_world_f32 (all bodies)",
        ),
        (
            "bdtree_collide[plain]_f32",
            "bdtree_collide_f32, no vertex cache",
        ),
        (
            "bdtree_collide[cached]_f32",
            "bdtree_collide_f32, vertex caches",
        ),
    ] {
        let c = get(name)?;
        rows.push(if name == "bdtree_refine_f32" {
            row(label, c.per_item, c.max_per_item, &c.scene, c.stack)
        } else {
            row(label, c.mean, c.max, &c.scene, c.stack)
        });
    }
    let (plain, cached) = (
        get("bdtree_collide[plain]_f32")?,
        get("bdtree_collide[cached]_f32")?,
    );
    let per = |x: u64, c: &Cost| thousands(x / c.calls.max(1));
    rows.push(format!(
        " *   work per call without / with vertex caches: {} / {} node pairs, {} / {} sphere \
         updates,",
        per(plain.nodes, plain),
        per(cached.nodes, cached),
        per(plain.updates, plain),
        per(cached.updates, cached)
    ));
    rows.push(format!(
        " *   {} / {} sphere tests, {} / {} triangle tests (`bdtree_stats`).",
        per(plain.overlaps, plain),
        per(cached.overlaps, cached),
        per(plain.triangles, plain),
        per(cached.triangles, cached)
    ));
    if cache.is_empty() {
        return Err(format!("c api {BOARD}: no vertex cache lines"));
    }
    let ratios: Vec<String> = cache
        .iter()
        .map(|(scene, plain, cached)| {
            format!("{scene} {:.1}", *plain as f64 / (*cached).max(1) as f64)
        })
        .collect();
    rows.push(format!(
        " *   instructions without / with vertex caches, per scene: {}",
        ratios.join(", ")
    ));
    Ok(rows)
}

/// Where two versions of the table disagree: a row's words differ, or one of its numbers moved
/// by more than 25 % (the scene of a largest figure, in parentheses, may change).
fn table_drift(committed: &[String], fresh: &[String]) -> Option<String> {
    if committed.len() != fresh.len() {
        return Some(format!(
            "{} rows where the run gives {}",
            committed.len(),
            fresh.len()
        ));
    }
    for (old, new) in committed.iter().zip(fresh) {
        let (a, b): (Vec<&str>, Vec<&str>) = (
            old.split_whitespace().collect(),
            new.split_whitespace().collect(),
        );
        let number = |w: &str| w.trim_end_matches(',').replace(',', "").parse::<f64>().ok();
        let same = a.len() == b.len()
            && a.iter().zip(&b).all(|(x, y)| {
                if x.starts_with('(') && y.starts_with('(') {
                    return true;
                }
                match (number(x), number(y)) {
                    (Some(p), Some(q)) => (p - q).abs() <= 0.25 * p.max(q),
                    _ => x == y,
                }
            });
        if !same {
            return Some(format!(
                "`{}` where the run gives `{}`",
                old.trim(),
                new.trim()
            ));
        }
    }
    None
}

/// Checks the header's cost table (`cbindgen.toml`) against a run's figures, or rewrites it
/// (and the header) with them.
fn cost_table(text: &str, overwrite: bool) -> Result<(), String> {
    let fresh = cost_rows(&parse_costs(text), &parse_cache_lines(text))?;
    for row in &fresh {
        println!("{row}");
    }
    let path = c_dir().join("cbindgen.toml");
    let config = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<&str> = config.lines().collect();
    let title = lines
        .iter()
        .position(|l| *l == COST_TITLE)
        .ok_or_else(|| format!("{}: no cost table title `{COST_TITLE}`", path.display()))?;
    let end = lines[title + 1..]
        .iter()
        .position(|l| !l.starts_with(" *   "))
        .map_or(lines.len(), |k| title + 1 + k);
    let committed: Vec<String> = lines[title + 1..end]
        .iter()
        .map(|l| l.to_string())
        .collect();
    let drift = table_drift(&committed, &fresh);
    if !overwrite {
        return match drift {
            None => {
                println!("c api {BOARD}: the header's cost table holds (every figure within 25 %)");
                Ok(())
            }
            Some(d) => Err(format!(
                "the header's Cortex-M4F cost table is stale ({}): {d}; `cargo xtask c \
                 --overwrite` rewrites it from this run",
                path.display()
            )),
        };
    }
    if committed == fresh {
        return Ok(());
    }
    let mut out: Vec<String> = lines[..=title].iter().map(|l| l.to_string()).collect();
    out.extend(fresh);
    out.extend(lines[end..].iter().map(|l| l.to_string()));
    let mut written = out.join("\n");
    written.push('\n');
    std::fs::write(&path, written).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("c api: wrote the cost table into {}", path.display());
    header(true)
}

fn qemu(elf: &Path) -> Result<String, String> {
    let started = Instant::now();
    let mut child = Command::new("qemu-system-arm")
        .args([
            "-machine",
            BOARD,
            "-cpu",
            "cortex-m4",
            "-nographic",
            "-monitor",
            "none",
            // One virtual nanosecond per instruction: SysTick counts instructions (as
            // `cargo xtask qemu` counts the firmware's).
            "-icount",
            "shift=0",
        ])
        .args([
            "-serial",
            "none",
            "-semihosting-config",
            "enable=on,target=native",
            "-kernel",
        ])
        .arg(elf)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("qemu-system-arm: {e} (install the Debian package `qemu-system-arm`)")
        })?;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > QEMU_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{BOARD}: no exit after {} s",
                QEMU_TIMEOUT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    if status.success() {
        Ok(text)
    } else {
        Err(format!("{BOARD}: the C program failed ({status}):\n{text}"))
    }
}
