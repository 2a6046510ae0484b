//! The embedded side of CI: the firmware's fixture pack, its builds, its QEMU runs, its size and
//! instruction budget, and the link-time panic-freedom proof.
//!
//! # Fixture pack (`firmware/pack/fixtures.bin`, version 2)
//!
//! Little-endian; `u32` words unless noted; `f32` values stored as their bits.
//!
//! ```text
//! "BDFP"  version=2  scene_count
//! per scene:  name_len  name bytes (padded to 4)  body_count  frame_count  proxy_depth
//!   per body:   modes  image_len  (pad to 16 from the pack's start)  f32 tree image  (pad to 4)
//!   per frame:  per body: rotation w x y z, translation x y z, q[modes]      (f32)
//!               complete nodes_visited sphere_updates overlap_tests triangle_tests pairs
//!               pair_count, then pair_count × (body_a body_b triangle_a triangle_b)
//! ```
//!
//! `proxy_depth = u32::MAX`: triangle queries (`collide`) and their interruptible replay;
//! otherwise proxy queries (`collide_proxies`) at that depth, whose pairs are
//! `(body_a body_b node_a node_b)`. Besides the fixture scenes with their f32 images, the pack
//! holds [`VARIANTS`]: scenes with their images compacted (`q16`, `q8`; complete, or bounded for
//! proxy queries), so every image format runs on the target.
//!
//! The per-frame answers are the host's f32 kernel's (`bdtree_std::collide::run_with::<f32>`),
//! which `cargo test` in turn checks against the f64 brute-force oracle. `pack/limits.rs` sizes
//! the firmware's static buffers for the pack.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bdtree_core::{stack_capacity, Encoding};
use bdtree_std::builder::{BuildOptions, Precision};
use bdtree_std::collide::{prepare, run_with, PreparedScene};
use bdtree_std::compact::compact;
use bdtree_std::scene::Scene;

use crate::{cargo_in, root};

const PACK_VERSION: u32 = 2;

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

/// A firmware build: target triple and the QEMU boards that run it.
struct Flavor {
    target: &'static str,
    boards: &'static [Board],
}

/// A QEMU board model.
struct Board {
    machine: &'static str,
    core: &'static str,
    /// Whether its figures go into the golden file (boards with the same binary and ISA give the
    /// same instruction counts; one of them suffices).
    golden: bool,
    /// Instructions per exact sphere update at M = 10 that the kernel must not exceed on this
    /// board (FPU cores; the soft-float M3 is measured, not budgeted).
    update_budget: Option<u64>,
}

const FLAVORS: &[Flavor] = &[
    Flavor {
        target: "thumbv7em-none-eabihf",
        boards: &[
            Board {
                machine: "mps2-an386",
                core: "Cortex-M4F",
                golden: true,
                update_budget: Some(UPDATE_BUDGET),
            },
            Board {
                machine: "mps2-an500",
                core: "Cortex-M7",
                golden: false,
                update_budget: Some(UPDATE_BUDGET),
            },
        ],
    },
    Flavor {
        target: "thumbv7m-none-eabi",
        boards: &[Board {
            machine: "mps2-an385",
            core: "Cortex-M3 (soft float)",
            golden: true,
            update_budget: None,
        }],
    },
];

/// Instructions per exact sphere update at M = 10 that the kernel must not exceed.
const UPDATE_BUDGET: u64 = 120;
/// Relative growth of a golden figure that fails the check.
const TOLERANCE: f64 = 0.01;
/// A QEMU run that takes longer than this is killed and counted as failed.
const QEMU_TIMEOUT: Duration = Duration::from_secs(600);

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

/// Writes `firmware/pack/fixtures.bin` and `firmware/pack/limits.rs` from `fixtures/scenes/`.
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
        let (results, _) = run_with::<f32>(scene, prepared, 1, *proxy_depth, false)
            .map_err(|e| format!("{name}: {e}"))?;
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
        for (frame, result) in scene.frames.iter().zip(&results) {
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
    }
    let mut rs = String::from(
        "// Generated by `cargo xtask firmware-pack` from fixtures/scenes; do not edit.\n",
    );
    let stack = stack_capacity(limits.depth, limits.depth);
    for (name, value) in [
        ("MAX_BODIES", limits.bodies),
        ("MAX_NODES", limits.nodes),
        ("MAX_VERTICES", limits.vertices),
        ("MAX_MODES", limits.modes),
        // Headroom: a target that finds extra pairs must report them, not overflow.
        ("MAX_PAIRS", 2 * limits.pairs + 16),
        ("STACK_PAIRS", stack),
    ] {
        let _ = writeln!(rs, "const {name}: usize = {value};");
    }
    let dir = firmware_dir().join("pack");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write_if_changed(&dir.join("fixtures.bin"), &out.0)?;
    write_if_changed(&dir.join("limits.rs"), rs.as_bytes())?;
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

fn elf_path(target: &str) -> PathBuf {
    firmware_dir()
        .join("target")
        .join(target)
        .join("release")
        .join("bdtree-firmware")
}

fn build_firmware(target: &str, features: &str) -> Result<(), String> {
    crate::add_target(target)?;
    let target_dir = firmware_dir().join("target");
    let target_dir = target_dir.to_string_lossy();
    let args = [
        "build",
        "--release",
        "--target",
        target,
        "--features",
        features,
        "--target-dir",
        &target_dir,
    ];
    cargo_in(&firmware_dir(), &args, &[])
}

/// What one QEMU run printed: `BDTREE key=value …` lines, flattened to `key` → value.
#[derive(Default)]
struct RunFigures {
    figures: BTreeMap<String, u64>,
    ok: bool,
}

fn run_qemu(elf: &Path, board: &Board) -> Result<RunFigures, String> {
    let started = Instant::now();
    let mut child = Command::new("qemu-system-arm")
        .args(["-machine", board.machine, "-nographic", "-monitor", "none"])
        .args(["-serial", "none", "-icount", "shift=0"])
        .args(["-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(elf)
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
                "{}: no exit after {} s (killed)",
                board.machine,
                QEMU_TIMEOUT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    let mut figures = RunFigures::default();
    for line in text.lines() {
        println!("    {}: {line}", board.machine);
        let Some(rest) = line.strip_prefix("BDTREE ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let kind = words.next().unwrap_or_default();
        if kind == "result" {
            figures.ok = words.next() == Some("ok");
            continue;
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
    figures.ok &= status.success();
    println!(
        "  {} ({}): {} in {:.1} s",
        board.machine,
        board.core,
        if figures.ok {
            "all fixture frames match the host"
        } else {
            "FAILED"
        },
        started.elapsed().as_secs_f64()
    );
    Ok(figures)
}

/// Figures that go into the golden file, from one board's run.
fn golden_figures(target: &str, board: &Board, run: &RunFigures) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for (key, &value) in &run.figures {
        let keep = key == "update_m10.instructions"
            || key.ends_with(".frame_instructions_mean")
            || key.ends_with(".frame_instructions_max")
            || key.ends_with(".stack_bytes");
        if keep {
            out.insert(format!("{}.{}.{key}", board.machine, target), value);
        }
    }
    out
}

/// Flash and RAM of an ELF by section flags: code (`.vector_table`, `.text`), read-only data
/// other than the fixture pack, the pack, initialised data and zeroed data.
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
        "# Firmware budget: sizes in bytes (per target), instructions under `qemu -icount shift=0`\n\
         # and stack bytes (per board). `cargo xtask size` fails when a figure grows by more than\n\
         # 1 %; `cargo xtask size --overwrite` re-blesses this file after a deliberate change.\n",
    );
    for (k, v) in figures {
        let _ = writeln!(text, "{k} {v}");
    }
    std::fs::write(golden_path(), text).map_err(|e| format!("{}: {e}", golden_path().display()))
}

/// `cargo xtask qemu` (`golden` = None) and `cargo xtask size` (`Some(overwrite)`).
pub fn qemu(golden: Option<bool>) -> Vec<String> {
    let mut failures = Vec::new();
    if let Err(e) = pack() {
        return vec![format!("firmware pack: {e}")];
    }
    let pack_len = std::fs::metadata(firmware_dir().join("pack").join("fixtures.bin"))
        .map(|m| m.len())
        .unwrap_or(0);
    let mut figures = BTreeMap::new();
    let mut table = Vec::new();
    for flavor in FLAVORS {
        if let Err(e) = build_firmware(flavor.target, "report") {
            failures.push(e);
            continue;
        }
        let elf = elf_path(flavor.target);
        match elf_sizes(&elf, pack_len) {
            Ok(sizes) => {
                for (k, v) in &sizes {
                    figures.insert(format!("{}.{k}", flavor.target), *v);
                }
                table.push((flavor.target, sizes));
            }
            Err(e) => failures.push(e),
        }
        for board in flavor.boards {
            match run_qemu(&elf, board) {
                Ok(run) => {
                    if !run.ok {
                        failures.push(format!(
                            "{} ({}): the fixture checks failed on the target",
                            board.machine, board.core
                        ));
                    }
                    let update = run.figures.get("update_m10.instructions");
                    if let (Some(&n), Some(budget)) = (update, board.update_budget) {
                        if n > budget {
                            failures.push(format!(
                                "{}: {n} instructions per exact update at M = 10 (budget {budget})",
                                board.machine
                            ));
                        }
                    }
                    if board.golden {
                        figures.extend(golden_figures(flavor.target, board, &run));
                    }
                }
                Err(e) => failures.push(e),
            }
        }
    }
    println!("\nfirmware sizes in bytes (release, LTO, opt-level 3; `pack` = embedded fixtures):");
    println!(
        "  {:<24} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "target", "text", "rodata", "pack", "data", "bss"
    );
    for (target, s) in &table {
        println!(
            "  {:<24} {:>8} {:>8} {:>8} {:>8} {:>8}",
            target, s["text"], s["rodata"], s["pack"], s["data"], s["bss"]
        );
    }
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
                println!("  {key:<64} {value:>10} (golden {was}){mark}");
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
    let steps: [&[&str]; 2] = [
        &["fmt", "--", "--check"],
        &[
            "clippy",
            "--release",
            "--features",
            "report",
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

/// `cargo xtask panic-check`: links the firmware with a panic handler that calls an undefined
/// symbol, for every firmware target. LTO removes every panic path the optimiser can prove
/// unreachable; one that remains makes the link fail, naming the symbol.
pub fn panic_check() -> Vec<String> {
    let mut failures = Vec::new();
    if let Err(e) = pack() {
        return vec![format!("firmware pack: {e}")];
    }
    for flavor in FLAVORS {
        match build_firmware(flavor.target, "panic-check") {
            Ok(()) => println!(
                "  {}: no panic path is reachable (the firmware links without a panic handler)",
                flavor.target
            ),
            Err(e) => failures.push(format!(
                "{e}: a panic path is reachable in the firmware for {} — see the linker error \
                 (undefined `bdtree_firmware_error_a_panic_path_is_reachable`) above",
                flavor.target
            )),
        }
    }
    failures
}
