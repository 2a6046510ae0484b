//! The crate's floor plan (the crate docs' table): each file imports only files of the layers
//! above it, so there is no import cycle; no file is longer than [`MAX_LINES`]. Read from the
//! sources, library code only (a file's test module, from its first `#[cfg(test)]` line, is
//! skipped; the test files, in `src/tests/`, are not library code).

use std::collections::BTreeMap;
use std::format;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

/// Longest source file, in lines.
const MAX_LINES: usize = 900;

/// The layer of each library file (0 imports nothing of the crate).
const LAYERS: &[(&str, u32)] = &[
    ("status", 0),
    ("ffi", 1),
    ("version", 1),
    ("image", 2),
    ("body", 3),
    ("query", 4),
    ("boxes", 5),
    ("contacts", 5),
    ("proxies", 5),
    ("separation", 5),
    ("swept", 5),
    ("traversal", 5),
    ("triangles", 5),
    ("world", 5),
    ("jacobian", 6),
    ("primitives", 6),
    ("response", 6),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// Every Rust file of the crate: the library's in `src/`, the tests' in `src/tests/`.
fn rust_files() -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    for dir in [src.clone(), src.join("tests")] {
        for entry in std::fs::read_dir(&dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out
}

/// Each library file's text (test module cut) by module name.
fn library_files() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&src).expect("src") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let library = text.split("\n#[cfg(test)]\nmod ").next().unwrap_or("");
        out.insert(name.to_string(), library.to_string());
    }
    out
}

/// The crate modules a file's code names (`crate::NAME`), comments skipped.
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (k, _) in code.match_indices("crate::") {
            let rest = &code[k + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
        }
        // `use crate::{a, b}` groups.
        if let Some(group) = code.split("use crate::{").nth(1) {
            for name in group.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if layer(name).is_some() && !out.iter().any(|n| n == name) {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

#[test]
fn every_library_file_has_a_layer_and_imports_only_layers_above() {
    let files = library_files();
    let mut problems = Vec::new();
    for (module, text) in &files {
        if module == "lib" {
            continue;
        }
        let Some(own) = layer(module) else {
            problems.push(format!(
                "{module}.rs has no layer in LAYERS (and the crate docs)"
            ));
            continue;
        };
        for used in imports(text) {
            match layer(&used) {
                Some(l) if l < own => {}
                Some(l) => problems.push(format!(
                    "{module}.rs (layer {own}) imports {used} (layer {l}): only layers above"
                )),
                None => {}
            }
        }
    }
    for (module, _) in LAYERS {
        if !files.contains_key(*module) {
            problems.push(format!("LAYERS names {module}, which has no file"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_file_is_longer_than_the_limit() {
    for path in rust_files() {
        let text = std::fs::read_to_string(&path).expect("read");
        let lines = text.lines().count();
        assert!(
            lines <= MAX_LINES,
            "{}: {lines} lines (at most {MAX_LINES})",
            path.display()
        );
    }
}

/// The layer rule would let no cycle through: checked on the imports themselves too, so a
/// layer table that lied could not hide one.
#[test]
fn the_imports_have_no_cycle() {
    let files = library_files();
    let graph: BTreeMap<String, Vec<String>> = files
        .iter()
        .map(|(m, t)| {
            let edges = imports(t)
                .into_iter()
                .filter(|u| files.contains_key(u) && u != m)
                .collect();
            (m.clone(), edges)
        })
        .collect();
    // Depth-first search with colours: 1 on the path, 2 done.
    fn visit(
        m: &str,
        graph: &BTreeMap<String, Vec<String>>,
        colour: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match colour.get(m) {
            Some(2) => return None,
            Some(1) => {
                let start = path.iter().position(|p| p == m).unwrap_or(0);
                let mut cycle = path[start..].to_vec();
                cycle.push(m.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        colour.insert(m.to_string(), 1);
        path.push(m.to_string());
        for next in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, graph, colour, path) {
                return Some(c);
            }
        }
        path.pop();
        colour.insert(m.to_string(), 2);
        None
    }
    let mut colour = BTreeMap::new();
    for m in graph.keys() {
        let mut path = Vec::new();
        if let Some(cycle) = visit(m, &graph, &mut colour, &mut path) {
            panic!("import cycle: {}", cycle.join(" -> "));
        }
    }
}

/// The marker above each file's generated `exports_f64` (everything after it is generated).
const GENERATED: &str = "// @generated below: `exports_f64`, from `exports_f32` by `cargo xtask c \
                         --overwrite` (a test\n// checks it is current); do not edit it.";

/// What follows the marker: the module's documentation and attribute, then the f32 module in
/// the other precision.
const GENERATED_HEAD: &str = "/// The functions of `exports_f32` in f64, word for word (its \
                              documentation is theirs).\n#[allow(clippy::too_many_arguments)] \
                              // C functions take buffers as pointer and length pairs.";

/// A file's text with its `exports_f64` generated from its `exports_f32` (`cargo xtask c
/// --overwrite` writes the same).
fn with_f64_exports(text: &str) -> Option<String> {
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
    let head = text.split(GENERATED).next().unwrap_or(text);
    Some(format!("{head}{GENERATED}\n\n{GENERATED_HEAD}\n{block}\n"))
}

/// Each file's `exports_f64` is its `exports_f32` in the other precision, word for word.
#[test]
fn the_f64_exports_mirror_the_f32_exports() {
    let mut checked = 0;
    for path in rust_files() {
        let text = std::fs::read_to_string(&path).expect("read");
        if let Some(expected) = with_f64_exports(&text) {
            assert!(
                expected == text,
                "{}: exports_f64 is stale: `cargo xtask c --overwrite` regenerates it",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} files with exports");
}
