//! The C library as clients get it: `cargo xtask c --install PREFIX [--target TRIPLE]`.
//!
//! This module builds in xtask's lean configuration (no `bdtree-std`, no cbindgen: see
//! `main.rs`), so installing the C library compiles `bdtree-c` and its kernel and nothing else.
//! Every path is under cargo's target directory as `cargo metadata` gives it, so
//! `CARGO_TARGET_DIR` (or `build.target-dir`) is honoured.
//!
//! **Runtime symbols.** A Rust static library carries the compiler's runtime (compiler-rt:
//! `__aeabi_uidiv`, `__aeabi_dmul`, …, and on hosts Rust's `std`) as global symbols, hidden
//! only for dynamic linking: in a client's static link they would satisfy the client's own
//! calls in place of libgcc's. So the library is linked into one relocatable object
//! (`ld -r`, which resolves the library's calls into its runtime), every symbol but the
//! header's `bdtree_*` functions is made local (`objcopy --keep-global-symbols`), and that
//! object is the archive's one member. [`check_symbols`] then proves that the archive defines
//! exactly the header's functions as global symbols.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use crate::{add_target, cargo_in, root};

/// `bindings/c`.
pub(crate) fn c_dir() -> PathBuf {
    root().join("bindings").join("c")
}

/// Cargo's target directory for this workspace, as `cargo metadata` reports it
/// (`CARGO_TARGET_DIR`, `build.target-dir`, or `<workspace>/target`).
pub(crate) fn target_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let output = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .current_dir(root())
            .stderr(Stdio::inherit())
            .output();
        let from_metadata = output.ok().and_then(|o| {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).ok()?;
            Some(PathBuf::from(v["target_directory"].as_str()?))
        });
        from_metadata.unwrap_or_else(|| {
            let dir = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| root().join("target"));
            println!(
                "note: `cargo metadata` gave no target directory; using {}",
                dir.display()
            );
            dir
        })
    })
    .clone()
}

/// Where the C checks and the client libraries go: `<target dir>/c-api`.
pub(crate) fn out_dir() -> PathBuf {
    target_dir().join("c-api")
}

/// Runs a command; the error names it and carries its output.
pub(crate) fn command(program: &str, args: &[String]) -> Result<String, String> {
    println!("$ {program} {}", args.join(" "));
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    if output.status.success() {
        Ok(text)
    } else {
        Err(format!(
            "`{program} {}` failed ({}):\n{text}",
            args.join(" "),
            output.status
        ))
    }
}

pub(crate) fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

pub(crate) fn path_arg(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The exported function names of the committed header.
pub(crate) fn exported_functions() -> Result<Vec<String>, String> {
    let path = c_dir().join("include").join("bdtree.h");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    // Declarations: an identifier directly followed by `(` outside comments and macros.
    let mut names: Vec<String> = text
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with("//")
                || t.starts_with('*')
                || t.starts_with("/*")
                || t.starts_with('#'))
        })
        .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '(')))
        .filter_map(|w| w.split_once('(').map(|(name, _)| name))
        .filter(|w| w.starts_with("bdtree_"))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    if names.len() < 10 {
        return Err(format!(
            "{}: only {} functions found",
            path.display(),
            names.len()
        ));
    }
    Ok(names)
}

/// The binutils prefix for a target (`None`: the host's own tools).
fn binutils(target: Option<&str>) -> Result<&'static str, String> {
    let Some(target) = target else {
        return Ok("");
    };
    let candidates: &[&'static str] = if target.starts_with("thumb") || target.starts_with("arm") {
        &["arm-none-eabi-"]
    } else if target.starts_with("aarch64") {
        &["aarch64-none-elf-", "aarch64-linux-gnu-"]
    } else {
        &[]
    };
    candidates
        .iter()
        .copied()
        .find(|prefix| {
            Command::new(format!("{prefix}ld"))
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .ok_or_else(|| {
            format!(
                "no binutils for {target} (tried {}): they link the library into one object \
                 whose runtime symbols are local (Debian: gcc-arm-none-eabi for Cortex-M/R)",
                if candidates.is_empty() {
                    "none known".to_string()
                } else {
                    candidates
                        .iter()
                        .map(|p| format!("{p}ld"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            )
        })
}

/// The static library a C client links, for a target (`None`: the host) with `features`:
/// `bdtree-c` built in the `c-release` profile, then its runtime symbols made local (module
/// docs) and checked. Returns `<target dir>/c-api/lib/<target or host>[-features]/libbdtree.a`.
pub(crate) fn library(target: Option<&str>, features: &str) -> Result<PathBuf, String> {
    let mut args = vec!["build", "-p", "bdtree-c", "--profile", "c-release"];
    if let Some(t) = target {
        add_target(t)?;
        args.extend(["--target", t]);
    }
    if !features.is_empty() {
        args.extend(["--features", features]);
    }
    cargo_in(&root(), &args, &[])?;
    let mut built = target_dir();
    if let Some(t) = target {
        built = built.join(t);
    }
    let built = built.join("c-release").join("libbdtree.a");
    let mut label = target.unwrap_or("host").to_string();
    if !features.is_empty() {
        label = format!("{label}-{}", features.replace(',', "-"));
    }
    let dir = out_dir().join("lib").join(label);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let lib = dir.join("libbdtree.a");
    prelink(&built, &dir, &lib, target)?;
    let n = check_symbols(&lib, target)?;
    println!(
        "c api: {} defines {n} global symbols, the header's functions (the runtime's are local)",
        lib.display()
    );
    Ok(lib)
}

/// `built` linked into one object with only the header's functions global, archived as `lib`.
fn prelink(built: &Path, dir: &Path, lib: &Path, target: Option<&str>) -> Result<(), String> {
    let tools = binutils(target)?;
    let exports = exported_functions()?;
    let object = dir.join("bdtree.o");
    let keep = dir.join("exports.txt");
    std::fs::write(&keep, exports.join("\n") + "\n")
        .map_err(|e| format!("{}: {e}", keep.display()))?;
    // `-r`: a relocatable object; each `-u` pulls the member defining an export, and with it
    // every runtime member it needs.
    let mut args = strings(&["-r", "-o"]);
    args.push(path_arg(&object));
    for name in &exports {
        args.push(format!("--undefined={name}"));
    }
    args.push(path_arg(built));
    command(&format!("{tools}ld"), &args)?;
    // The runtime's objects embed LLVM bitcode (`.llvmbc`, for Rust's own LTO), which the
    // linker plugins of binutils then try, and fail, to read: a C client has no use for it.
    command(
        &format!("{tools}objcopy"),
        &[
            format!("--keep-global-symbols={}", path_arg(&keep)),
            "--remove-section=.llvmbc".to_string(),
            "--remove-section=.llvmcmd".to_string(),
            path_arg(&object),
        ],
    )?;
    if lib.exists() {
        std::fs::remove_file(lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    }
    command(
        &format!("{tools}ar"),
        &["rcs".to_string(), path_arg(lib), path_arg(&object)],
    )?;
    Ok(())
}

/// Checks that an archive defines, as global (or weak) symbols, exactly the header's
/// functions; returns how many.
pub(crate) fn check_symbols(lib: &Path, target: Option<&str>) -> Result<usize, String> {
    let tools = binutils(target)?;
    let table = command(
        &format!("{tools}readelf"),
        &["-W".to_string(), "-s".to_string(), path_arg(lib)],
    )?;
    // `Num: Value Size Type Bind Vis Ndx Name`: defined (Ndx not UND) global or weak symbols.
    let mut defined: Vec<&str> = table
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let global = matches!(f.get(4), Some(&"GLOBAL") | Some(&"WEAK"));
            (f.len() >= 8 && global && f[6] != "UND").then(|| f[7])
        })
        .collect();
    defined.sort_unstable();
    defined.dedup();
    let exports = exported_functions()?;
    let foreign: Vec<&str> = defined
        .iter()
        .copied()
        .filter(|s| !s.starts_with("bdtree_"))
        .collect();
    if !foreign.is_empty() {
        return Err(format!(
            "{}: {} global symbols that are not the C API's could clash with a client's \
             (e.g. {})",
            lib.display(),
            foreign.len(),
            foreign
                .iter()
                .take(8)
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let missing: Vec<&String> = exports
        .iter()
        .filter(|e| defined.binary_search(&e.as_str()).is_err())
        .collect();
    if !missing.is_empty() || defined.len() != exports.len() {
        return Err(format!(
            "{}: defines {} bdtree_ symbols where the header declares {} (missing: {:?})",
            lib.display(),
            defined.len(),
            exports.len(),
            missing
        ));
    }
    Ok(defined.len())
}

/// Libraries the host's static library needs besides itself (Rust's `std` on Linux).
pub(crate) const HOST_LIBS: &str = "-lpthread -ldl -lm";

/// Installs the library for `target` (`None`: the host) under `prefix`: header, static
/// library, pkg-config and CMake files. Returns the pkg-config directory.
pub fn install(prefix: &Path, target: Option<&str>) -> Result<PathBuf, String> {
    let lib = library(target, "")?;
    let version = env!("CARGO_PKG_VERSION");
    let libs = if target.is_none() { HOST_LIBS } else { "" };
    let dirs = [
        prefix.join("include"),
        prefix.join("lib").join("pkgconfig"),
        prefix.join("lib").join("cmake").join("bdtree"),
    ];
    for dir in &dirs {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let copy = |from: &Path, to: PathBuf| {
        std::fs::copy(from, &to).map_err(|e| format!("{} -> {}: {e}", from.display(), to.display()))
    };
    copy(
        &c_dir().join("include").join("bdtree.h"),
        dirs[0].join("bdtree.h"),
    )?;
    copy(&lib, prefix.join("lib").join("libbdtree.a"))?;
    let prefix_text = path_arg(&std::path::absolute(prefix).map_err(|e| e.to_string())?);
    let pc = format!(
        "prefix={prefix_text}\nincludedir=${{prefix}}/include\nlibdir=${{prefix}}/lib\n\n\
         Name: bdtree\nDescription: collision detection for reduced deformable models (C API)\n\
         Version: {version}\nCflags: -I${{includedir}}\nLibs: -L${{libdir}} -lbdtree {libs}\n"
    );
    let cmake =
        format!(
        "# bdtree {version}: the C API's static library and header (`cargo xtask c --install`).\n\
         get_filename_component(_bdtree_prefix \"${{CMAKE_CURRENT_LIST_DIR}}/../../..\" ABSOLUTE)\n\
         set(bdtree_VERSION {version})\n\
         if(NOT TARGET bdtree::bdtree)\n\
         \x20 add_library(bdtree::bdtree STATIC IMPORTED)\n\
         \x20 set_target_properties(bdtree::bdtree PROPERTIES\n\
         \x20   IMPORTED_LOCATION \"${{_bdtree_prefix}}/lib/libbdtree.a\"\n\
         \x20   INTERFACE_INCLUDE_DIRECTORIES \"${{_bdtree_prefix}}/include\"\n\
         \x20   INTERFACE_LINK_LIBRARIES \"{}\")\n\
         endif()\n",
        libs.replace("-l", "").split_whitespace().collect::<Vec<_>>().join(";")
    );
    let write = |path: PathBuf, text: &str| {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    write(dirs[1].join("bdtree.pc"), &pc)?;
    write(dirs[2].join("bdtreeConfig.cmake"), &cmake)?;
    println!("c api: installed {version} under {}", prefix.display());
    Ok(dirs[1].clone())
}
