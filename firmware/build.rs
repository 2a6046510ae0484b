//! Chooses the runtime and the linker script for the target, and checks that the fixture pack
//! exists.
//!
//! | target | runtime (`cfg(rt = …)`) | boards (QEMU) | memory |
//! |---|---|---|---|
//! | `thumbv6m-none-eabi`, `thumbv7m-none-eabi`, `thumbv7em-none-eabihf` | `cortex_m` (cortex-m-rt) | mps2-an385/an386/an500 | `link/memory-mps2.x` |
//! | `thumbv8m.main-none-eabihf` | `cortex_m` | mps2-an505 | `link/memory-an505.x` |
//! | `armv7r-none-eabihf` | `cortex_r` (`src/rt/cortex_r.rs`) | `-M none -cpu cortex-r5f` | `link/cortex-r.x` |
//! | `aarch64-unknown-none` | `aarch64` (`src/rt/aarch64.rs`) | `virt -cpu cortex-a53` | `link/aarch64.x` |

use std::path::PathBuf;

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo::rustc-check-cfg=cfg(rt, values(\"cortex_m\", \"cortex_r\", \"aarch64\"))");
    println!("cargo::rustc-check-cfg=cfg(armv6m)");
    println!("cargo::rerun-if-changed=link");
    let (rt, script) = match target.as_str() {
        "thumbv8m.main-none-eabihf" => ("cortex_m", "memory-an505.x"),
        t if t.starts_with("thumbv") => ("cortex_m", "memory-mps2.x"),
        t if t.starts_with("armv7r") => ("cortex_r", "cortex-r.x"),
        t if t.starts_with("aarch64") => ("aarch64", "aarch64.x"),
        _ => {
            // Host builds (clippy of the build script, docs): nothing to link.
            return;
        }
    };
    println!("cargo::rustc-cfg=rt=\"{rt}\"");
    if target.starts_with("thumbv6m") {
        println!("cargo::rustc-cfg=armv6m");
    }
    if rt == "cortex_m" {
        // cortex-m-rt's link.x includes `memory.x`.
        std::fs::copy(format!("link/{script}"), out.join("memory.x")).expect("copy memory.x");
        println!("cargo::rustc-link-search={}", out.display());
        println!("cargo::rustc-link-arg=-Tlink.x");
    } else {
        let dir = std::env::current_dir().expect("cwd").join("link");
        println!("cargo::rustc-link-arg=-T{}", dir.join(script).display());
    }
    if std::env::var_os("CARGO_FEATURE_DEFMT").is_some() {
        println!("cargo::rustc-link-arg-bin=defmt-log=-Tdefmt.x");
    }
    println!("cargo::rerun-if-changed=pack");
    for file in [
        "pack/fixtures.bin",
        "pack/fold-self.bin",
        "pack/limits.rs",
        "pack/bench-f32.bin",
        "pack/bench-f64.bin",
    ] {
        println!("cargo::rerun-if-changed={file}");
        if !std::path::Path::new(file).exists() {
            panic!(
                "firmware/{file} is missing: it is generated from fixtures/ by `cargo xtask qemu` \
                 (or `cargo xtask firmware-pack`), run from the repository root"
            );
        }
    }
}
