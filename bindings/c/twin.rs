//! The f64 twin of a C API file's exports: each concept's exported functions are written once,
//! in f32, in the file's `exports_f32` module; `exports_f64` is that module in the other
//! precision, word for word. `build.rs` writes it into the build's output folder, where the
//! file's last line includes it; `cargo xtask c` writes the same text in place of that line in
//! the copy of the sources it gives cbindgen, so the header declares both precisions.

// Named, not taken from a prelude: the crate's tests (`no_std`) read this file too.
use std::{format, string::String, vec::Vec};

/// The line that ends every C API file with exports: its `exports_f64`, as `build.rs` wrote it
/// for the file named `stem`.
pub fn include_line(stem: &str) -> String {
    format!("include!(concat!(env!(\"OUT_DIR\"), \"/{stem}_f64.rs\"));")
}

/// The `exports_f64` module of a file's text, made from its `exports_f32` module (`None` for a
/// file without exports).
pub fn f64_exports(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let start = lines.iter().position(|l| *l == "pub mod exports_f32 {")?;
    let end = start + lines[start..].iter().position(|l| *l == "}")?;
    let mut block = lines[start..=end].join("\n");
    for (from, to) in [
        ("f32", "f64"),
        ("F32", "F64"),
        ("floats", "doubles"),
        ("aligned to 4", "aligned to 8"),
    ] {
        block = block.replace(from, to);
    }
    Some(format!(
        "/// The functions of `exports_f32` in f64, word for word (its documentation is \
         theirs).\n#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer \
         and length pairs.\n{block}\n"
    ))
}
