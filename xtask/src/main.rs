//! `cargo xtask …`: the project's automation. Local runs and CI are the same thing.
//!
//! * `fixtures [--check]` — regenerate `fixtures/` (or fail when the committed files are stale);
//! * `cross` — build `bdtree-core` for the embedded targets, with each feature combination;
//! * `ci` — everything CI runs, in order, collecting every failure.

mod fixtures;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Embedded targets `bdtree-core` must build for.
const CROSS_TARGETS: &[&str] = &["thumbv7em-none-eabihf"];
/// Feature combinations of `bdtree-core`.
const FEATURE_SETS: &[&str] = &["", "defmt"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

fn cargo(args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    println!("$ cargo {}", args.join(" "));
    let status = Command::new(cargo)
        .args(args)
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(root())
        .status()
        .map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

fn cross() -> Vec<String> {
    let mut failures = Vec::new();
    for target in CROSS_TARGETS {
        let _ = Command::new("rustup")
            .args(["target", "add", target])
            .status();
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
            if let Err(e) = cargo(&args) {
                failures.push(e);
            }
        }
    }
    failures
}

fn ci() -> Vec<String> {
    let mut failures = Vec::new();
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
        &["doc", "--workspace", "--no-deps"],
    ];
    for step in steps {
        if let Err(e) = cargo(step) {
            failures.push(e);
        }
    }
    failures.extend(cross());
    if let Err(problems) = fixtures::run(&root().join("fixtures"), true) {
        failures.extend(problems);
    }
    failures
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let failures = match args.as_slice() {
        ["fixtures"] => fixtures::run(&root().join("fixtures"), false)
            .err()
            .unwrap_or_default(),
        ["fixtures", "--check"] => fixtures::run(&root().join("fixtures"), true)
            .err()
            .unwrap_or_default(),
        ["cross"] => cross(),
        ["ci"] => ci(),
        _ => {
            eprintln!("usage: cargo xtask <fixtures [--check] | cross | ci>");
            return ExitCode::from(2);
        }
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

#[cfg(test)]
mod tests {
    /// The committed fixtures are exactly what `cargo xtask fixtures` generates.
    #[test]
    fn fixtures_are_fresh() {
        if let Err(problems) = super::fixtures::run(&super::root().join("fixtures"), true) {
            panic!("stale fixtures:\n{}", problems.join("\n"));
        }
    }
}
