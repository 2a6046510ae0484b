//! Writes each C API file's `exports_f64` (its `exports_f32` in f64, word for word: `twin.rs`)
//! into the build's output folder, where the file's last line includes it.

mod twin;

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo::rerun-if-changed=src");
    println!("cargo::rerun-if-changed=twin.rs");
    let mut paths: Vec<PathBuf> = std::fs::read_dir("src")
        .expect("bindings/c/src")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a C API source file");
        let Some(exports) = twin::f64_exports(&text) else {
            continue;
        };
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a file name");
        let line = twin::include_line(stem);
        assert!(
            text.contains(&line),
            "{}: exports_f32 without its f64 twin: end the file with `{line}`",
            path.display()
        );
        std::fs::write(out.join(format!("{stem}_f64.rs")), exports).expect("OUT_DIR");
    }
}
