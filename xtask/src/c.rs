//! `cargo xtask c [--overwrite]`: the C API (`bindings/c/`).
//!
//! 1. **Header**: generates `bindings/c/include/bdtree.h` with cbindgen (library, pinned in
//!    `Cargo.lock`) from `bindings/c/src` and `cbindgen.toml`, and fails when the committed file
//!    differs (`--overwrite` rewrites it).
//! 2. **Fixture pack** (`<target dir>/c-api/fixtures.bin`, f32 and f64; `fixtures-f32.bin` for
//!    the Cortex-M4F): every fixture scene's tree images (built nested, so proxy queries work
//!    too), frames and answers, in a format a C program reads with a few lines ([`pack`]).
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
//!
//! The pack's format is in [`pack`]; the Cortex-M4F run and its cost table in [`m4f`].

mod m4f;
mod pack;
#[path = "../../bindings/c/twin.rs"]
mod twin;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::prepare;

use crate::install::{c_dir, command, library, out_dir, path_arg, strings};
use crate::root;

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
        match pack::build(precisions) {
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
    if let Err(e) = m4f::run(overwrite) {
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
    let dir = c_dir();
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml"))
        .map_err(|e| format!("cbindgen.toml: {e}"))?;
    let bindings = cbindgen::Builder::new()
        .with_src(expanded_sources()?.join("lib.rs"))
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

/// A copy of the C API's sources for cbindgen (`<target dir>/c-api/src`), each file's last
/// line, the `include!` of its f64 exports, replaced by the text `build.rs` includes there
/// (cbindgen does not expand macros): the header declares both precisions, each f64 function
/// after the f32 ones of its file.
fn expanded_sources() -> Result<PathBuf, String> {
    let src = c_dir().join("src");
    let copy = out_dir().join("src");
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).map_err(|e| format!("{}: {e}", copy.display()))?;
    let entries = std::fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = match twin::f64_exports(&text) {
            Some(exports) => {
                let line = twin::include_line(stem);
                if !text.contains(&line) {
                    return Err(format!(
                        "{}: exports_f32 without its f64 twin (`{line}`)",
                        path.display()
                    ));
                }
                text.replace(&line, &exports)
            }
            None => text,
        };
        let to = copy.join(name);
        std::fs::write(&to, text).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    // The tests, as they are: cbindgen reads every module the crate names.
    let tests = src.join("tests");
    let tests_copy = copy.join("tests");
    std::fs::create_dir_all(&tests_copy).map_err(|e| format!("{}: {e}", tests_copy.display()))?;
    let entries = std::fs::read_dir(&tests).map_err(|e| format!("{}: {e}", tests.display()))?;
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if let Some(name) = path.file_name() {
            let to = tests_copy.join(name);
            std::fs::copy(&path, &to).map_err(|e| format!("{}: {e}", to.display()))?;
        }
    }
    Ok(copy)
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

/// The host C program (`examples/host.c`, `replay.c`) compiled with `before` (after the C
/// flags), linked with `link` into `out/NAME`, and run on the fixture pack: what it printed.
fn host_replay(name: &str, before: Vec<String>, link: Vec<String>) -> Result<String, String> {
    let examples = c_dir().join("examples");
    let exe = out_dir().join(name);
    let mut args = strings(C_FLAGS);
    args.extend(before);
    args.push(path_arg(&examples.join("host.c")));
    args.push(path_arg(&examples.join("replay.c")));
    args.extend(link);
    args.push("-o".into());
    args.push(path_arg(&exe));
    command("cc", &args)?;
    command(
        &path_arg(&exe),
        &[path_arg(&out_dir().join("fixtures.bin"))],
    )
}

/// Host: library, C program, C++ header check.
fn host() -> Result<(), String> {
    let started = Instant::now();
    let lib = library(None, "")?;
    let examples = c_dir().join("examples");
    let include = format!("-I{}", path_arg(&c_dir().join("include")));
    let mut link = vec![path_arg(&lib)];
    link.extend(strings(&["-lpthread", "-ldl", "-lm"]));
    let text = host_replay("host", vec![include.clone()], link)?;
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
    let link = flags.split_whitespace().map(String::from).collect();
    let text = host_replay("host-installed", Vec::new(), link)?;
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
