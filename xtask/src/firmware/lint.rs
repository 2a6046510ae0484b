//! The firmware's lint and the link-time panic-freedom proof.

use super::*;

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

/// What the `known` lists of firmware/src/bin/panic_check/main.rs hold (`None`: both are empty, and
/// every entry point is in the proofs).
pub(super) const KNOWN_PANICS: Option<&str> = None;

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
                 entry points of firmware/src/bin/panic_check/main.rs"
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
