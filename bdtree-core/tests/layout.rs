//! The kernel's floor plan, as the book's workspace-layout chapter
//! (`docs/src/reference/layout.md`, "The floors of bdtree-core") states it: the folders' layers,
//! no module cycle, no module named like a function, no library path through a root re-export,
//! file sizes. Read from the sources (`src/`), library code only: a file's test module
//! (everything from its first `#[cfg(test)]` line) and comments are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Longest source file, in lines.
const MAX_LINES: usize = 900;

/// The floors, lowest first: each may import only the floors before it (and itself). The files
/// of the crate root (`lib.rs`, `error.rs`, `moved.rs`) gather names from every floor and are
/// imported by none.
const FLOORS: &[&str] = &[
    "numbers", "geometry", "bounds", "image", "body", "walk", "query", "world",
];

/// The floor of a module's first path segment under `crate::`.
fn floor_of(segment: &str) -> Option<&'static str> {
    Some(match segment {
        "scalar" | "crc" => "numbers",
        "geometry" => "geometry",
        "bounds" => "bounds",
        "image" => "image",
        "body" => "body",
        "walk" => "walk",
        "query" => "query",
        "world" => "world",
        _ => return None,
    })
}

/// The crate root's own files.
const ROOT_FILES: &[&str] = &["lib.rs", "error.rs", "moved.rs"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, relative to it, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path.strip_prefix(root).expect("under src").to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn is_root_file(file: &Path) -> bool {
    ROOT_FILES.iter().any(|r| file == Path::new(r))
}

/// A file's library code: up to its first `#[cfg(test)]` line, comments dropped.
fn library_code(text: &str) -> String {
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path of `code` that starts with `crate::` or `super::`, brace groups expanded (one
/// level): `crate::walk::{output::Sink, Flow}` gives `crate::walk::output::Sink` and
/// `crate::walk::Flow`.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = (bytes[i..].starts_with(b"crate::") || bytes[i..].starts_with(b"super::"))
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if !starts {
            i += 1;
            continue;
        }
        let rest = &code[i..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let head: Vec<String> = rest[..end]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        if rest[end..].starts_with('{') {
            let close = rest[end..].find('}').map_or(rest.len(), |c| end + c);
            for item in rest[end + 1..close].split(',') {
                let mut p = head.clone();
                p.extend(
                    item.split("::")
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty() && s != "self"),
                );
                out.push(p);
            }
            i += close.max(end);
        } else {
            out.push(head);
            i += end.max(1);
        }
    }
    out
}

/// The module a file defines: `query/swept/leaf.rs` → `query::swept::leaf`, `walk/mod.rs` →
/// `walk`.
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Every library file with its module and the absolute module paths (without `crate`) its code
/// names.
fn library() -> Vec<(PathBuf, Vec<String>, Vec<Vec<String>>)> {
    rust_files(&src())
        .into_iter()
        .map(|file| {
            let me = module_of(&file);
            let text = std::fs::read_to_string(src().join(&file)).expect("read");
            let absolute = paths(&library_code(&text))
                .into_iter()
                .map(|path| {
                    if path[0] == "crate" {
                        path[1..].to_vec()
                    } else {
                        let ups = path.iter().take_while(|s| *s == "super").count();
                        // `super` of a `mod.rs` is its folder's parent, as of any file.
                        let mut base = me.clone();
                        base.truncate(me.len().saturating_sub(ups));
                        base.extend(path[ups..].iter().cloned());
                        base
                    }
                })
                .collect();
            (file, me, absolute)
        })
        .collect()
}

#[test]
fn no_source_file_is_over_900_lines() {
    let mut problems = Vec::new();
    for file in rust_files(&src()) {
        let lines = std::fs::read_to_string(src().join(&file))
            .expect("read")
            .lines()
            .count();
        if lines > MAX_LINES {
            problems.push(format!("{}: {lines} lines", file.display()));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn floors_import_only_floors_below_them() {
    let rank = |floor: &str| FLOORS.iter().position(|f| *f == floor).expect("a floor");
    let mut problems = BTreeSet::new();
    let mut checked = 0;
    for (file, me, absolute) in library() {
        if is_root_file(&file) {
            continue;
        }
        let mine = floor_of(&me[0])
            .unwrap_or_else(|| panic!("{}: a file outside every floor", file.display()));
        for path in absolute {
            let Some(first) = path.first() else { continue };
            let Some(target) = floor_of(first) else {
                // A path through the crate root's re-exports hides which floor it needs.
                problems.insert(format!(
                    "{} names crate::{}: name the item by its module",
                    file.display(),
                    path.join("::")
                ));
                continue;
            };
            checked += 1;
            if rank(target) > rank(mine) {
                problems.insert(format!(
                    "{} ({mine}) imports {} ({target}), a higher floor",
                    file.display(),
                    path.join("::")
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(checked > 300, "{checked} paths read");
}

#[test]
fn no_two_modules_import_each_other_through_any_chain() {
    let files = library();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(_, m, _)| m.clone()).collect();
    // The longest module that `path` lies in.
    let resolve = |path: &[String]| -> Vec<String> {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| modules.contains(p))
            .unwrap_or_default()
    };
    // A module and its own children are one unit (children use their parent's items, the
    // parent re-exports its children's): edges between them are not dependencies.
    let related = |a: &[String], b: &[String]| a.starts_with(b) || b.starts_with(a);
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (file, me, absolute) in &files {
        if is_root_file(file) {
            continue;
        }
        let entry = edges.entry(me.clone()).or_default();
        for path in absolute {
            let target = resolve(path);
            if !target.is_empty() && !related(&target, me) {
                entry.insert(target);
            }
        }
    }
    fn visit(
        m: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let at = stack.iter().position(|s| s == m).unwrap_or(0);
                let mut cycle: Vec<String> = stack[at..].iter().map(|s| s.join("::")).collect();
                cycle.push(m.join("::"));
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for next in edges.get(m).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, state, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in edges.keys() {
        if let Some(cycle) = visit(m, &edges, &mut state, &mut Vec::new()) {
            panic!("module cycle: {}", cycle.join(" → "));
        }
    }
    assert!(edges.len() > 40, "{} modules read", edges.len());
}

#[test]
fn no_module_is_named_like_a_function() {
    let mut modules = BTreeSet::new();
    let mut functions = BTreeMap::new();
    for file in rust_files(&src()) {
        for part in module_of(&file) {
            modules.insert(part);
        }
        let text = std::fs::read_to_string(src().join(&file)).expect("read");
        // Free functions: items at the file's top level (methods are not the module's names).
        for line in library_code(&text).lines() {
            let mut rest = line;
            for prefix in ["pub(crate) ", "pub(super) ", "pub ", "const ", "unsafe "] {
                rest = rest.strip_prefix(prefix).unwrap_or(rest);
            }
            if let Some(after) = rest.strip_prefix("fn ") {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                functions.insert(name, file.display().to_string());
            }
        }
    }
    assert!(functions.len() > 150, "{} functions read", functions.len());
    let clashes: Vec<String> = functions
        .iter()
        .filter(|(name, _)| modules.contains(*name))
        .map(|(name, file)| format!("fn {name} ({file}) is also a module"))
        .collect();
    assert!(clashes.is_empty(), "{clashes:#?}");
}

/// The book's floors table states [`FLOORS`] and [`floor_of`]: the same folders in the same
/// order.
#[test]
fn the_book_states_the_floors() {
    let chapter = src().join("../../docs/src/reference/layout.md");
    let text = std::fs::read_to_string(&chapter).expect("read the layout chapter");
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with("| floor | folders | what |"));
    assert!(
        lines.next().is_some(),
        "the layout chapter has no `| floor | folders | what |` table"
    );
    let mut stated = Vec::new();
    for row in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let [floor, folders, _] = cells[..] else {
            panic!("layout chapter: a floors row without three cells: {row}");
        };
        for folder in folders.split('`').skip(1).step_by(2) {
            let name = folder.trim_end_matches('/').trim_end_matches(".rs");
            assert_eq!(
                floor_of(name),
                Some(floor),
                "layout chapter: `{folder}` is on floor {floor}, the test says {:?}",
                floor_of(name)
            );
        }
        stated.push(floor);
    }
    assert_eq!(stated, FLOORS, "the chapter's floors, lowest first");
}
