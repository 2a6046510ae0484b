//! The kernel's floor plan, as the book's workspace-layout chapter
//! (`docs/src/reference/layout.md`, "The floors of bdtree-core") states it: the folders' layers,
//! no module cycle, no module named like a function, no library path through a root re-export
//! (file sizes: [`super::layout`]'s size test covers the kernel). Read from the kernel's sources
//! with the workspace layout test's readers, library code only: a file's test module
//! (everything from its first `#[cfg(test)]` line) and comments are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::layout::{find_cycle, library_code, module_of, paths, rust_files};

/// The floors, lowest first: each may import only the floors before it (and itself). The files
/// of the crate root (`lib.rs`, `error.rs`) gather names from every floor and are
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
const ROOT_FILES: &[&str] = &["lib.rs", "error.rs"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bdtree-core/src")
}

fn is_root_file(file: &Path) -> bool {
    ROOT_FILES.iter().any(|r| file == Path::new(r))
}

/// Every library file with its module and the absolute module paths (without `crate`) its code
/// names.
fn library() -> Vec<(PathBuf, Vec<String>, Vec<Vec<String>>)> {
    rust_files(&src())
        .into_iter()
        .map(|file| {
            let me = module_of(&file);
            let text = std::fs::read_to_string(src().join(&file)).expect("read");
            let absolute = paths(&library_code(&file, &text))
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
    if let Some(cycle) = find_cycle(&edges) {
        panic!("module cycle: {}", cycle.join(" → "));
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
        for line in library_code(&file, &text).lines() {
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
