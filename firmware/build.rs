//! Puts `memory.x` on the linker's search path and checks that the fixture pack exists.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::copy("memory.x", out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=pack");
    for file in ["pack/fixtures.bin", "pack/limits.rs"] {
        println!("cargo:rerun-if-changed={file}");
        if !std::path::Path::new(file).exists() {
            panic!(
                "firmware/{file} is missing: it is generated from fixtures/ by `cargo xtask qemu` \
                 (or `cargo xtask firmware-pack`), run from the repository root"
            );
        }
    }
}
