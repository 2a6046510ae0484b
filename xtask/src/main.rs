//! `cargo xtask …`: the project's automation. Local runs and CI are the same thing.
//!
//! * `fixtures [--check]` — regenerate `fixtures/` (or fail when the committed files are stale);
//! * `cross` — build `bdtree-core` for the embedded targets, with each feature combination;
//! * `firmware-pack` — write the firmware's fixture pack (`firmware/pack/`) from `fixtures/`;
//! * `qemu` — build the firmware and replay the fixture scenes on QEMU's Cortex-M0, M3, M4F, M7,
//!   M33, R5F and A53 (and build and run the minimal firmware);
//! * `size [--overwrite]` — `qemu`, then compare flash, RAM, stack and instruction counts with
//!   `firmware/budget.txt` (or re-bless it);
//! * `panic-check` — prove at link time that no panic path is reachable from bdtree-core's
//!   public API (M0 and M4F, opt-level 3 and `s`);
//! * `defmt` — run the defmt example and decode its log with `defmt-print`;
//! * `book` — check the README and the book's sources (code block languages, tables, links and
//!   anchors), build the book with mdBook and check the built pages' links (see `book.rs`),
//!   then run every `bdtree` line the documents print and compare the output they quote;
//! * `book-commands` — that last step alone (see `commands.rs`);
//! * `layout` — the layout rules over every crate: no file over 900 lines, no module cycle, no
//!   library reaching the application, the rooms of `bdtree-std` and the floors of
//!   `bdtree-core` (see `layout.rs`; its tests plant a violation of each rule in a copy);
//! * `c [--overwrite]` — the C API: header freshness (or rewrite), host and Cortex-M4F fixture
//!   replays, its panic-freedom link check (see `c.rs`);
//! * `c --install PREFIX [--target TRIPLE]` — install the C library (see `install.rs`);
//! * `ci [--after-tests]` — everything CI runs after its installs, in order, collecting every
//!   failure: `cargo test`, `.ci/python`, then the checks (`--after-tests` skips the first
//!   two, for `.ci/run`, which runs them itself first).
//!
//! The alias (`.cargo/config.toml`) runs xtask without its default feature `full`: that lean
//! build (no `bdtree-std`, no cbindgen) does `c --install` itself, so installing the C library
//! compiles only the C library, and hands every other task to the `full` build (`cargo run
//! --package xtask -- …`, the same arguments).

#[cfg(feature = "full")]
mod book;
#[cfg(feature = "full")]
mod c;
#[cfg(feature = "full")]
mod commands;
#[cfg(feature = "full")]
mod firmware;
#[cfg(feature = "full")]
mod fixtures;
mod install;
#[cfg(feature = "full")]
mod layout;
#[cfg(feature = "full")]
mod words;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// Embedded targets `bdtree-core` must build for: Cortex-M0/M0+ (no FPU, no atomics),
/// Cortex-M4F/M7, Cortex-M33, Cortex-R4F/R5F, 64-bit ARM boards.
#[cfg(feature = "full")]
const CROSS_TARGETS: &[&str] = &[
    "thumbv6m-none-eabi",
    "thumbv7em-none-eabihf",
    "thumbv8m.main-none-eabihf",
    "armv7r-none-eabihf",
    "aarch64-unknown-none",
];
/// Feature combinations of `bdtree-core`.
#[cfg(feature = "full")]
const FEATURE_SETS: &[&str] = &["", "defmt,heapless,micromath"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

#[cfg(feature = "full")]
fn cargo(args: &[&str]) -> Result<(), String> {
    cargo_in(&root(), args, &[])
}

/// Runs cargo in `dir` with extra environment variables; the error names the command.
pub(crate) fn cargo_in(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let shown: String = envs.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    println!("$ {shown}cargo {}", args.join(" "));
    let status = Command::new(cargo)
        .args(args)
        .env("RUSTDOCFLAGS", "-D warnings")
        .envs(envs.iter().copied())
        .current_dir(dir)
        .status()
        .map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{shown}cargo {}` failed ({status})",
            args.join(" ")
        ))
    }
}

/// Installs a target's prebuilt standard library with rustup (a no-op when present).
pub(crate) fn add_target(target: &str) -> Result<(), String> {
    let status = Command::new("rustup")
        .args(["target", "add", target])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("rustup: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`rustup target add {target}` failed"))
    }
}

/// Builds `bdtree-core` for every cross target and feature set. A target whose prebuilt
/// `core` rustup cannot fetch (the Cortex-R targets are missing from some distribution
/// mirrors) is built with `core` compiled from the `rust-src` component instead
/// (`-Zbuild-std=core`, enabled on stable with `RUSTC_BOOTSTRAP=1`): the same compiler and the
/// same source, so the check is as strong.
#[cfg(feature = "full")]
fn cross() -> Vec<String> {
    let mut failures = Vec::new();
    for target in CROSS_TARGETS {
        let prebuilt = add_target(target).is_ok();
        if !prebuilt {
            println!("note: no prebuilt `core` for {target}; building it from rust-src");
            let _ = Command::new("rustup")
                .args(["component", "add", "rust-src"])
                .status();
        }
        for features in FEATURE_SETS {
            let mut args = vec![
                "build",
                "-p",
                "bdtree-core",
                "--release",
                "--target",
                target,
            ];
            if !features.is_empty() {
                args.extend(["--features", features]);
            }
            let envs: &[(&str, &str)] = if prebuilt {
                &[]
            } else {
                args.push("-Zbuild-std=core");
                &[("RUSTC_BOOTSTRAP", "1")]
            };
            if let Err(e) = cargo_in(&root(), &args, envs) {
                failures.push(e);
            }
        }
    }
    failures
}

/// `cargo xtask ci`: what `.ci/run` runs after its installs — the README's test command
/// (`cargo test`), the Python package's suite (`.ci/python`), then every check below;
/// `with_tests: false` (`--after-tests`, as `.ci/run` calls it after running the first two
/// itself) skips the first two.
#[cfg(feature = "full")]
fn ci(with_tests: bool) -> Vec<String> {
    let mut failures = Vec::new();
    if with_tests {
        let run = |program: &str, args: &[&str]| -> Result<(), String> {
            println!("$ {program} {}", args.join(" "));
            let status = Command::new(program)
                .args(args)
                .current_dir(root())
                .status()
                .map_err(|e| format!("{program}: {e}"))?;
            if status.success() {
                Ok(())
            } else {
                Err(format!("`{program} {}` failed ({status})", args.join(" ")))
            }
        };
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        for (program, args) in [
            (cargo.as_str(), &["test"][..]),
            ("bash", &[".ci/python"][..]),
        ] {
            if let Err(e) = run(program, args) {
                failures.push(e);
            }
        }
    }
    let steps: &[&[&str]] = &[
        &["fmt", "--all", "--", "--check"],
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        // xtask's lean build (what the alias runs first; see the crate docs).
        &[
            "clippy",
            "-p",
            "xtask",
            "--no-default-features",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        &["doc", "--workspace", "--no-deps"],
        // The optional heapless sinks and micromath keys (its root checked over every f32).
        &[
            "test",
            "-p",
            "bdtree-core",
            "--features",
            "heapless,micromath",
        ],
        // The kernel without its default features (no unrolled sphere update), as the minimal
        // firmware builds it: tested and lint-clean.
        &[
            "test",
            "-p",
            "bdtree-core",
            "--no-default-features",
            "--lib",
        ],
        &[
            "clippy",
            "-p",
            "bdtree-core",
            "--no-default-features",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        // The lean library (no CLI, pictures or Rerun) builds on its own.
        &["build", "-p", "bdtree-std"],
        // The optional Rerun logging compiles and is lint-clean (checked, not built: ~400
        // crates of the Rerun SDK).
        &[
            "clippy",
            "-p",
            "bdtree-cli",
            "--features",
            "rerun",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    ];
    for step in steps {
        if let Err(e) = cargo(step) {
            failures.push(e);
        }
    }
    failures.extend(lean_library());
    failures.extend(layout::check());
    failures.extend(book::check());
    failures.extend(commands::check());
    failures.extend(cross());
    if let Err(problems) = fixtures::run(&root().join("fixtures"), true) {
        failures.extend(problems);
    }
    let firmware_started = std::time::Instant::now();
    failures.extend(firmware::lint());
    failures.extend(firmware::panic_check());
    failures.extend(firmware::qemu(Some(false)));
    failures.extend(firmware::defmt());
    failures.extend(c::run(false));
    println!(
        "firmware steps (lint, panic check, QEMU on seven cores, size, defmt): {:.0} s",
        firmware_started.elapsed().as_secs_f64()
    );
    failures
}

/// `bdtree-std` depends on none of the command line's, the pictures' or Rerun's crates (the
/// lean library the application and the bindings build on).
#[cfg(feature = "full")]
fn lean_library() -> Option<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let args = [
        "tree",
        "-p",
        "bdtree-std",
        "-e",
        "normal",
        "--prefix",
        "none",
    ];
    println!("$ cargo {}", args.join(" "));
    let out = match Command::new(cargo).args(args).current_dir(root()).output() {
        Ok(out) if out.status.success() => out,
        Ok(out) => {
            return Some(format!(
                "`cargo {}` failed ({})",
                args.join(" "),
                out.status
            ))
        }
        Err(e) => return Some(format!("`cargo {}`: {e}", args.join(" "))),
    };
    let tree = String::from_utf8_lossy(&out.stdout);
    let heavy: Vec<&str> = ["clap", "plotters", "indicatif", "rerun"]
        .into_iter()
        .filter(|name| {
            tree.lines()
                .any(|l| l.split_whitespace().next() == Some(*name))
        })
        .collect();
    (!heavy.is_empty()).then(|| format!("bdtree-std depends on {}", heavy.join(", ")))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let failures = match args.as_slice() {
        ["c", "--install", prefix] => install::install(Path::new(prefix), None)
            .err()
            .into_iter()
            .collect(),
        ["c", "--install", prefix, "--target", target] => {
            install::install(Path::new(prefix), Some(target))
                .err()
                .into_iter()
                .collect()
        }
        _ => match tasks(&args) {
            Ok(failures) => failures,
            Err(code) => return code,
        },
    };
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("\n{} failure(s):", failures.len());
        for f in &failures {
            eprintln!("  - {f}");
        }
        ExitCode::FAILURE
    }
}

/// The lean build: every task but `c --install` runs in the `full` build, with the same
/// arguments; its exit code is this one's.
#[cfg(not(feature = "full"))]
fn tasks(args: &[&str]) -> Result<Vec<String>, ExitCode> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["run", "--package", "xtask", "--"])
        .args(args)
        .current_dir(root())
        .status();
    match status {
        Ok(s) if s.success() => Ok(Vec::new()),
        Ok(s) => Err(ExitCode::from(
            u8::try_from(s.code().unwrap_or(1)).unwrap_or(1),
        )),
        Err(e) => Ok(vec![format!("cargo run --package xtask: {e}")]),
    }
}

/// The tasks of the `full` build; `Err` with the exit code for a usage error.
#[cfg(feature = "full")]
fn tasks(args: &[&str]) -> Result<Vec<String>, ExitCode> {
    let failures = match args {
        ["fixtures"] => fixtures::run(&root().join("fixtures"), false)
            .err()
            .unwrap_or_default(),
        ["fixtures", "--check"] => fixtures::run(&root().join("fixtures"), true)
            .err()
            .unwrap_or_default(),
        ["cross"] => cross(),
        ["firmware-pack"] => firmware::pack().err().into_iter().collect(),
        ["qemu"] => firmware::qemu(None),
        ["size"] => firmware::qemu(Some(false)),
        ["size", "--overwrite"] => firmware::qemu(Some(true)),
        ["panic-check"] => firmware::panic_check(),
        ["defmt"] => firmware::defmt(),
        ["book"] => book::check().into_iter().chain(commands::check()).collect(),
        ["book-commands"] => commands::check(),
        ["layout"] => layout::check(),
        ["c"] => c::run(false),
        ["c", "--overwrite"] => c::run(true),
        ["ci"] => ci(true),
        ["ci", "--after-tests"] => ci(false),
        _ => {
            eprintln!(
                "usage: cargo xtask <fixtures [--check] | cross | firmware-pack | qemu | \
                 size [--overwrite] | panic-check | defmt | book | book-commands | layout | \
                 c [--overwrite | --install PREFIX [--target TRIPLE]] | \
                 ci [--after-tests]>"
            );
            return Err(ExitCode::from(2));
        }
    };
    Ok(failures)
}

#[cfg(all(test, feature = "full"))]
mod tests {
    /// The committed fixtures are exactly what `cargo xtask fixtures` generates.
    #[test]
    fn fixtures_are_fresh() {
        if let Err(problems) = super::fixtures::run(&super::root().join("fixtures"), true) {
            panic!("stale fixtures:\n{}", problems.join("\n"));
        }
    }
}
