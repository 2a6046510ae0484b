//! The floors of `bdtree-core`, as the book's workspace-layout chapter ("The floors of
//! bdtree-core") states them: each module imports only its own floor and the floors below,
//! never through the crate root's re-exports; no module is named like a free function; the
//! chapter's floors table says [`FLOORS`]. (No cycle and no long file: the workspace rules.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{absolute, chapter_table, library_code, module_of, paths, rust_files};

/// The floors, lowest first: each may import only the floors before it (and itself). The files
/// of the crate root (`lib.rs`, `error.rs`) gather names from every floor and are imported by
/// none.
pub const FLOORS: &[&str] = &[
    "numbers", "geometry", "bounds", "image", "body", "walk", "query", "world",
];

/// The crate root's own files.
const ROOT_FILES: &[&str] = &["lib.rs", "error.rs"];

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

fn is_root_file(file: &Path) -> bool {
    ROOT_FILES.iter().any(|r| file == Path::new(r))
}

/// Every rule of the floors over the checkout at `root`.
pub fn check(root: &Path) -> Vec<String> {
    let src = root.join("bdtree-core/src");
    let mut problems = imports(&src);
    problems.extend(names(&src));
    problems.extend(book(root));
    problems
}

/// Every library file with its module and the absolute module paths its code names.
fn library(src: &Path) -> Vec<(PathBuf, Vec<String>, Vec<Vec<String>>)> {
    rust_files(src)
        .into_iter()
        .map(|file| {
            let me = module_of(&file);
            let text = std::fs::read_to_string(src.join(&file)).unwrap_or_default();
            let named = paths(&library_code(&file, &text))
                .iter()
                .map(|p| absolute(&me, p))
                .collect();
            (file, me, named)
        })
        .collect()
}

fn imports(src: &Path) -> Vec<String> {
    let rank = |floor: &str| FLOORS.iter().position(|f| *f == floor).unwrap_or(0);
    let mut problems = BTreeSet::new();
    let mut checked = 0;
    for (file, me, named) in library(src) {
        if is_root_file(&file) {
            continue;
        }
        let Some(mine) = me.first().and_then(|m| floor_of(m)) else {
            problems.insert(format!(
                "bdtree-core/src/{}: outside every floor",
                file.display()
            ));
            continue;
        };
        for path in named {
            let Some(first) = path.first() else { continue };
            let Some(target) = floor_of(first) else {
                // A path through the crate root's re-exports hides which floor it needs.
                problems.insert(format!(
                    "bdtree-core/src/{} names crate::{}: name the item by its module",
                    file.display(),
                    path.join("::")
                ));
                continue;
            };
            checked += 1;
            if rank(target) > rank(mine) {
                problems.insert(format!(
                    "bdtree-core/src/{} ({mine}) imports {} ({target}), a higher floor",
                    file.display(),
                    path.join("::")
                ));
            }
        }
    }
    if checked <= 300 {
        problems.insert(format!("bdtree-core: only {checked} paths read"));
    }
    problems.into_iter().collect()
}

/// No module is named like a free function (`collide()` is a function, its file is
/// `query/triangles.rs`).
fn names(src: &Path) -> Vec<String> {
    let mut modules = BTreeSet::new();
    let mut functions = BTreeMap::new();
    for file in rust_files(src) {
        modules.extend(module_of(&file));
        let text = std::fs::read_to_string(src.join(&file)).unwrap_or_default();
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
    let mut problems: Vec<String> = functions
        .iter()
        .filter(|(name, _)| modules.contains(*name))
        .map(|(name, file)| format!("bdtree-core: fn {name} ({file}) is also a module"))
        .collect();
    if functions.len() <= 150 {
        problems.push(format!(
            "bdtree-core: only {} functions read",
            functions.len()
        ));
    }
    problems
}

/// The book's floors table states [`FLOORS`] and [`floor_of`]: the same folders in the same
/// order.
fn book(root: &Path) -> Vec<String> {
    let rows = match chapter_table(root, "| floor | folders | what |") {
        Ok(rows) => rows,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    let mut stated = Vec::new();
    for [floor, folders, _] in &rows {
        let floor = floor.as_str();
        for folder in folders.split('`').skip(1).step_by(2) {
            let name = folder.trim_end_matches('/').trim_end_matches(".rs");
            if floor_of(name) != Some(floor) {
                problems.push(format!(
                    "layout chapter: `{folder}` is on floor {floor}, xtask says {:?}",
                    floor_of(name)
                ));
            }
        }
        stated.push(floor);
    }
    if stated != FLOORS {
        problems.push(format!(
            "layout chapter: floors {stated:?}, xtask's floors::FLOORS {FLOORS:?}"
        ));
    }
    problems
}
