//! The embedded side of CI: the firmware's fixture pack, its builds, its QEMU runs on seven
//! cores, its size and instruction budget, the link-time panic-freedom proof and the defmt
//! example.
//!
//! # Fixture pack (`firmware/pack/fixtures.bin`, version 4)
//!
//! Little-endian; `u32` words unless noted; `f32` values stored as their bits.
//!
//! ```text
//! "BDFP"  version=4  scene_count
//! per scene:  scene_bytes (the bytes that follow, up to the next scene)
//!   name_len  name bytes (padded to 4)  body_count  frame_count  proxy_depth  flags
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
//! go on with the next scene after an error in one. `flags` bit 0: after the world query, every
//! body's self pairs `(b, b, t1, t2)` culled from its image (`collide_self_image`), their
//! counters added — only in `pack/fold-self.bin`, the fold scene built with its self-collision
//! data, which the `replay-self` firmware replays on the Cortex-M4F (the fixture pack leaves no
//! room in the Cortex-M0's flash for it).
//!
//! The per-frame answers are the host's f32 kernel's
//! (`bdtree_std::runner::run_unrefined::<f32>`), which `cargo test` in turn checks against the f64 brute-force oracle; the two checksums
//! (`firmware/src/checksum.rs`, shared) cover the floats the queries computed — every node
//! sphere computed that step, and the deformed world vertices of every triangle in a found
//! pair — from a replay of the same frames with `bdtree-core` on the host ([`pack::host_sums`]).
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

use bdtree_core::query::self_collision::UnitCounts;
use bdtree_core::{
    collide_proxies, collide_self_image, collide_swept, collide_world, self_stack_capacity,
    stack_capacity, Body, BoxEntry, CacheEntry, ConeSlot, Encoding, Image, Pose, ProxyPair,
    SelfCones, SweepAndPrune, SweptPair, TrianglePair, VertexEntry, WorldPair,
};
use bdtree_std::build::compact;
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{prepare, run_unrefined, PreparedScene};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};

mod budget;
#[path = "../../firmware/src/checksum.rs"]
#[allow(dead_code)]
mod checksum;
mod defmt;
mod lint;
mod pack;

use budget::*;
pub use defmt::defmt;
pub use lint::{lint, panic_check};
pub use pack::pack;

use crate::{cargo_in, root};

const PACK_VERSION: u32 = 4;

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

/// The board that replays the fold scene with its self pairs (`replay-self`).
const SELF_BOARD: &str = "mps2-an386";
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

/// A replay firmware run under QEMU on `board`: its summary line printed and kept in
/// `summary` (`checks.0` when every frame matched, `FAILED` otherwise; `checks.1` is what the
/// caller reports as the failure).
fn replayed(
    board: &Board,
    elf: &Path,
    label: &str,
    checks: (&str, &str),
    summary: &mut Vec<String>,
) -> Result<RunFigures, String> {
    let run = run_qemu(qemu_command(board, board.machine, elf), label)?;
    let line = format!(
        "  {label}: {} in {:.1} s",
        if run.ok { checks.0 } else { "FAILED" },
        run.seconds
    );
    println!("{line}");
    summary.push(line);
    Ok(run)
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
    // `BDTREE_BOARDS=mps2-an386,…`: only these machines (a development aid for `qemu`; the
    // budget needs every board).
    let only = std::env::var("BDTREE_BOARDS").ok();
    let chosen = |b: &Board| {
        only.as_deref()
            .is_none_or(|o| o.split(',').any(|m| m == b.machine))
    };
    for board in BOARDS.iter().filter(|b| chosen(b)) {
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
        let checks = (
            "all fixture frames match the host",
            "the fixture checks failed on the target",
        );
        match replayed(board, &elf, &label, checks, &mut summary) {
            Ok(run) => {
                if !run.ok {
                    failures.push(format!("{label}: {}", checks.1));
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
    // The fold scene with every body's self pairs culled from its image, on the Cortex-M4F (a
    // firmware of its own: the fixture pack fills the Cortex-M0's flash).
    if let Some(board) = BOARDS.iter().find(|b| b.machine == SELF_BOARD && chosen(b)) {
        let self_len = std::fs::metadata(firmware_dir().join("pack").join("fold-self.bin"))
            .map(|m| m.len())
            .unwrap_or(0);
        match build_firmware(
            board.target,
            "release",
            &["replay-self"],
            replay_features(board.target),
        ) {
            Err(e) => failures.push(e),
            Ok(()) => {
                let elf = elf_path(board.target, "release", "replay-self");
                match elf_sizes(&elf, self_len) {
                    Ok(sizes) => {
                        for (k, v) in &sizes {
                            figures.insert(format!("replay-self.{}.{k}", board.target), *v);
                        }
                        table.push((format!("replay-self {}", board.target), sizes));
                    }
                    Err(e) => failures.push(e),
                }
                let label = format!("{} ({}), self pairs", board.machine, board.core);
                let checks = (
                    "the fold scene's self pairs, culled from the images, match the host",
                    "the self-pair replay failed",
                );
                match replayed(board, &elf, &label, checks, &mut summary) {
                    Ok(run) => {
                        if !run.ok {
                            failures.push(format!("{label}: {}", checks.1));
                        }
                        figures.extend(golden_figures(board, &run));
                    }
                    Err(e) => failures.push(e),
                }
            }
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
    // The f32 swept path links no double-precision soft float (Cortex-M4F: single-precision
    // FPU only), read from the symbols of a firmware that runs the swept query alone.
    match swept_soft_double() {
        Ok(found) if found.is_empty() => summary
            .push("swept-minimal thumbv7em-none-eabihf: no f64 soft-float routine linked".into()),
        Ok(found) => failures.push(format!(
            "the f32 swept query links double-precision soft float on thumbv7em-none-eabihf: {}",
            found.join(", ")
        )),
        Err(e) => failures.push(e),
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

/// The double-precision soft-float routines (`__aeabi_d…`, `__aeabi_f2d`, `__adddf3`,
/// `__extendsfdf2`, …) defined in the `swept-minimal` firmware for the Cortex-M4F: with LTO,
/// exactly those its one `collide_swept::<f32>` call reaches.
fn swept_soft_double() -> Result<Vec<String>, String> {
    let target = "thumbv7em-none-eabihf";
    build_firmware_with(target, "release", &["swept-minimal"], "", false)?;
    let elf = elf_path(target, "release", "swept-minimal");
    let out = Command::new("arm-none-eabi-nm")
        .arg("--defined-only")
        .arg(&elf)
        .output()
        .map_err(|e| format!("arm-none-eabi-nm: {e}"))?;
    if !out.status.success() {
        return Err(format!("arm-none-eabi-nm {} failed", elf.display()));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let double = |name: &str| {
        let plain = name.trim_start_matches('_');
        name.starts_with("__aeabi_d")
            || [
                "__aeabi_f2d",
                "__aeabi_i2d",
                "__aeabi_ui2d",
                "__aeabi_l2d",
                "__aeabi_ul2d",
            ]
            .contains(&name)
            || (name.starts_with("__") && (plain.contains("df") || plain.ends_with("2d")))
    };
    let mut found: Vec<String> = text
        .lines()
        .filter_map(|line| line.split_whitespace().nth(2))
        .filter(|name| double(name))
        .map(str::to_string)
        .collect();
    found.sort();
    found.dedup();
    Ok(found)
}
