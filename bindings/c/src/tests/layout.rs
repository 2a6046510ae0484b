//! The crate's floor plan (the crate docs' table): each file imports only files of the layers
//! above it, so there is no import cycle; no file is longer than [`MAX_LINES`]. Read from the
//! sources, library code only (a file's test module, from its first `#[cfg(test)]` line, is
//! skipped; the test files, in `src/tests/`, are not library code).

use std::collections::BTreeMap;
use std::format;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

#[path = "../../twin.rs"]
mod twin;

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

/// Each file with exports ends with the inclusion of its `exports_f64`, which `build.rs`
/// writes from its `exports_f32` (`twin.rs`); a file without exports includes none.
#[test]
fn every_file_with_f32_exports_includes_its_f64_twin() {
    let mut checked = 0;
    for path in rust_files() {
        let text = std::fs::read_to_string(&path).expect("read");
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("name");
        let line = twin::include_line(stem);
        let ends = text.trim_end().ends_with(&line);
        if twin::f64_exports(&text).is_some() {
            assert!(
                ends,
                "{}: its exports_f32 without `{line}` at the end",
                path.display()
            );
            checked += 1;
        } else {
            let includes = text.lines().any(|l| l.starts_with("include!("));
            assert!(!includes, "{}: an include without exports", path.display());
        }
    }
    assert!(checked >= 9, "only {checked} files with exports");
}

/// The generated twin: the f32 module in f64, word for word, under its own name.
#[test]
fn the_f64_twin_is_the_f32_module_in_the_other_precision() {
    let text = "head\npub mod exports_f32 {\n    /// In floats aligned to 4 (F32).\n    \
                pub fn bdtree_x_f32() {}\n}\ntail\n";
    let twin = twin::f64_exports(text).expect("exports");
    assert!(twin.contains(
        "pub mod exports_f64 {\n    /// In doubles aligned to 8 (F64).\n    pub fn bdtree_x_f64() {}\n}\n"
    ));
    assert!(!twin.contains("head") && !twin.contains("tail"), "{twin}");
    assert!(twin::f64_exports("fn f() {}\n").is_none());
}
