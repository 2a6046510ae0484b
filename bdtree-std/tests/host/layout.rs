//! The crate's layout, as the book's workspace-layout chapter (`docs/src/reference/layout.md`)
//! states it: file sizes, the dependency rule between rooms, and no module cycle. Read from the
//! sources (`src/`), library code only (a file's test module — everything from its first
//! `#[cfg(test)]` line — and comments are skipped). The chapter's rooms table is read too: its
//! imports column must be [`RULE`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Longest source file of the library and of the command-line tool, in lines.
const MAX_LINES: usize = 900;
const MAX_CLI_LINES: usize = 300;

/// Files allowed over [`MAX_LINES`] for now, with the reason.
const LONG_FILES: &[(&str, &str)] = &[];

/// Which rooms each room may import (the rooms table of `docs/src/reference/layout.md`). `base`
/// (error, rng, storage, vec3) may be imported by all and imports none.
const RULE: &[(&str, &[&str])] = &[
    ("base", &[]),
    ("io", &[]),
    ("shapes", &["io"]),
    ("build", &["io"]),
    ("oracle", &["io"]),
    ("modes", &["io"]),
    ("host", &["io", "build"]),
    ("run", &["io", "build", "oracle", "host"]),
    (
        "sim",
        &["io", "shapes", "build", "oracle", "modes", "host", "run"],
    ),
    (
        "view",
        &[
            "io", "shapes", "build", "oracle", "modes", "host", "run", "sim",
        ],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, relative to it, sorted.
pub(super) fn rust_files(dir: &Path) -> Vec<PathBuf> {
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

fn is_cli(file: &Path) -> bool {
    file.starts_with("bin")
}

/// The room a first path segment under `crate::` names (old module paths included).
fn room_of(segment: &str) -> Option<&'static str> {
    Some(match segment {
        "error" | "rng" | "storage" | "vec3" | "LoadError" | "BodyStorage" => "base",
        "io" | "basis" | "mesh" | "scene" => "io",
        "shapes" | "procedural" | "local" => "shapes",
        "build" | "builder" | "compact" | "welzl" | "obb" => "build",
        "oracle" => "oracle",
        "host" => "host",
        "modes" | "modal" => "modes",
        "run" | "collide" | "inspect" | "budget" => "run",
        "sim" | "chairs" => "sim",
        "view" | "export" | "render" | "rerun_log" => "view",
        _ => return None,
    })
}

/// The room of a library file (`None` for the crate root, which only declares and re-exports).
fn room_of_file(file: &Path) -> Option<&'static str> {
    let first = file.components().next()?.as_os_str().to_str()?;
    if first == "lib.rs" {
        return None;
    }
    room_of(first.trim_end_matches(".rs"))
}

/// A file's library code: up to its first `#[cfg(test)]` line, comments dropped; empty for a
/// file that is a test module itself.
pub(super) fn library_code(file: &Path, text: &str) -> String {
    if file.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path of `code` that starts with `crate::` or `super::`, brace groups expanded:
/// `crate::io::{Basis, mesh::Mesh}` gives `crate::io::Basis` and `crate::io::mesh::Mesh`.
pub(super) fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        // Compared as bytes: `i` may be inside a multi-byte character until a path starts.
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

#[test]
fn no_source_file_is_over_900_lines_and_no_cli_file_over_300() {
    let mut sizes: Vec<(usize, PathBuf)> = Vec::new();
    let mut problems = Vec::new();
    for file in rust_files(&src()) {
        let lines = std::fs::read_to_string(src().join(&file))
            .expect("read")
            .lines()
            .count();
        let limit = if is_cli(&file) {
            MAX_CLI_LINES
        } else {
            MAX_LINES
        };
        let exempt = LONG_FILES.iter().any(|(name, _)| file == Path::new(name));
        if lines > limit && !exempt {
            problems.push(format!("{}: {lines} lines (limit {limit})", file.display()));
        }
        sizes.push((lines, file));
    }
    // The kernel's sources are held to the same limit.
    let core = src().join("../../bdtree-core/src");
    for file in rust_files(&core) {
        let lines = std::fs::read_to_string(core.join(&file))
            .expect("read")
            .lines()
            .count();
        if lines > MAX_LINES {
            problems.push(format!(
                "bdtree-core/src/{}: {lines} lines (limit {MAX_LINES})",
                file.display()
            ));
        }
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    for (lines, file) in sizes.iter().take(10) {
        println!("{lines:>6} {}", file.display());
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn rooms_import_only_what_the_rule_allows() {
    let rule: BTreeMap<&str, &[&str]> = RULE.iter().copied().collect();
    // The rule itself is acyclic: each room's imports come before it in the table.
    for (k, (room, allowed)) in RULE.iter().enumerate() {
        for a in allowed.iter() {
            let at = RULE.iter().position(|(r, _)| r == a).expect("known room");
            assert!(at < k, "{room} may import {a}, which comes after it");
        }
    }
    let mut problems = BTreeSet::new();
    for file in rust_files(&src()).iter().filter(|f| !is_cli(f)) {
        let Some(room) = room_of_file(file) else {
            continue;
        };
        let text = std::fs::read_to_string(src().join(file)).expect("read");
        for path in paths(&library_code(file, &text)) {
            if path.first().map(String::as_str) != Some("crate") {
                continue;
            }
            let Some(target) = path.get(1).and_then(|s| room_of(s)) else {
                continue;
            };
            let ok = target == room || target == "base" || rule[room].contains(&target);
            if !ok {
                problems.insert(format!(
                    "{} ({room}) imports {} ({target})",
                    file.display(),
                    path.join("::")
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The module a file defines: `io/ply/header.rs` → `io::ply::header`, `io/mod.rs` → `io`.
pub(super) fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

#[test]
fn no_module_imports_itself_through_others() {
    let files: Vec<PathBuf> = rust_files(&src())
        .into_iter()
        .filter(|f| !is_cli(f))
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    // The longest module that `path` (absolute, without `crate`) lies in.
    let resolve = |path: &[String]| -> Vec<String> {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| modules.contains(p))
            .unwrap_or_default()
    };
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in &files {
        let me = module_of(file);
        if me.is_empty() {
            continue; // the crate root re-exports everything
        }
        let text = std::fs::read_to_string(src().join(file)).expect("read");
        let code = library_code(file, &text);
        let mut targets = Vec::new();
        for path in paths(&code) {
            let absolute = if path[0] == "crate" {
                path[1..].to_vec()
            } else {
                let ups = path.iter().take_while(|s| *s == "super").count();
                let mut base = me.clone();
                base.truncate(me.len().saturating_sub(ups));
                base.extend(path[ups..].iter().cloned());
                base
            };
            targets.push(resolve(&absolute));
        }
        // `use child::…` of a module's own children (`mod child;`).
        for line in code.lines() {
            let line = line.trim();
            if let Some(rest) = line
                .strip_prefix("pub use ")
                .or_else(|| line.strip_prefix("use "))
            {
                let first = rest.split("::").next().unwrap_or("");
                let mut child = me.clone();
                child.push(first.to_string());
                if modules.contains(&child) {
                    targets.push(child);
                }
            }
        }
        let entry = edges.entry(me.clone()).or_default();
        for t in targets {
            if !t.is_empty() && t != me {
                entry.insert(t);
            }
        }
    }
    if let Some(cycle) = find_cycle(&edges) {
        panic!("module cycle: {}", cycle.join(" → "));
    }
    assert!(edges.len() > 40, "{} modules read", edges.len());
}

/// A module cycle of `edges` (module → the modules it imports), by depth-first search: the
/// modules on it, the first repeated at the end; `None` when there is none.
pub(super) fn find_cycle(
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Option<Vec<String>> {
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
    edges
        .keys()
        .find_map(|m| visit(m, edges, &mut state, &mut Vec::new()))
}

/// The book's rooms table (`docs/src/reference/layout.md`, the one description of the layout)
/// says what [`RULE`] holds: the same rooms, each with the same imports.
#[test]
fn the_book_states_the_rule() {
    let chapter = src().join("../../docs/src/reference/layout.md");
    let text = std::fs::read_to_string(&chapter).expect("read the layout chapter");
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with("| room | what | imports |"));
    assert!(
        lines.next().is_some(),
        "the layout chapter has no `| room | what | imports |` table"
    );
    let mut stated: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for row in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let [room, _, imports] = cells[..] else {
            panic!("layout chapter: a rooms row without three cells: {row}");
        };
        // `io/` or `error.rs`, `storage.rs`, `rng.rs` (the base): the first name decides.
        let first = room.split('`').nth(1).expect("a room in backticks");
        let name = first.trim_end_matches('/').trim_end_matches(".rs");
        let room = room_of(name).unwrap_or_else(|| panic!("layout chapter: unknown room {name}"));
        let imports: BTreeSet<&str> = imports
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|r| room_of(r).unwrap_or_else(|| panic!("layout chapter: unknown room {r}")))
            .collect();
        stated.insert(room, imports);
    }
    let rule: BTreeMap<&str, BTreeSet<&str>> = RULE
        .iter()
        .map(|(room, allowed)| (*room, allowed.iter().copied().collect()))
        .collect();
    assert_eq!(
        stated, rule,
        "docs/src/reference/layout.md's rooms table and this test's RULE disagree"
    );
}
