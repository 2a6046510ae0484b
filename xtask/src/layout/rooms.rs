//! The rooms of `bdtree-std`, as the book's workspace-layout chapter states them: which room
//! may import which ([`RULE`], read back from the chapter's rooms table), no module cycle
//! counting a module's imports of its own children; the application's rooms
//! ([`CLI_RULE`]), its one door to the kernel's bodies (the host layer: no file of it, nor of
//! the scene runner it calls, sets one up, [`KERNEL_SETUP`]) and its glue files
//! (`bdtree-cli/src/bin/`) short.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{
    absolute, chapter_table, find_cycle, library_code, module_of, paths, resolve, rust_files,
};

/// Longest file of the command-line application's glue (`bdtree-cli/src/bin/`), in lines.
const MAX_CLI_LINES: usize = 300;

/// Which rooms each room may import (the rooms table of `docs/src/reference/layout.md`). `base`
/// (error, rng, storage, vec3) may be imported by all and imports none.
pub const RULE: &[(&str, &[&str])] = &[
    ("base", &[]),
    ("io", &[]),
    ("shapes", &["io"]),
    ("build", &["io"]),
    ("oracle", &["io"]),
    ("modes", &["io"]),
    ("host", &["io", "build"]),
    ("export", &["io", "shapes"]),
    ("runner", &["io", "build", "oracle", "host", "export"]),
];

/// Which rooms of the application (`bdtree-cli/src/`) each may import: pictures draw
/// simulations, the printed report and the simulation import no other room (the scenes they
/// run are the library's, `bdtree_std::runner`; the binary's glue, `src/bin/`, is over all
/// three).
pub const CLI_RULE: &[(&str, &[&str])] = &[("report", &[]), ("sim", &[]), ("view", &["sim"])];

/// What sets up a kernel body on the host (its storage, an f64 state at an origin of the
/// caller's choosing): the host layer's job (`bdtree_std::host`), and no file of the
/// application's nor of the scene runner's (`bdtree-std/src/runner/`: they reach the kernel's
/// bodies through the host: `Body`, `World`, `Interruptible`, the device's path).
const KERNEL_SETUP: &[&str] = &["BodyStorage", "set_state_f64", "VertexEntry", "CacheEntry"];

/// The room a first path segment under `crate::` names.
fn room_of(segment: &str) -> Option<&'static str> {
    Some(match segment {
        "error" | "rng" | "storage" | "vec3" | "LoadError" | "BodyStorage" => "base",
        "io" => "io",
        "shapes" => "shapes",
        "build" => "build",
        "oracle" => "oracle",
        "host" => "host",
        "modes" | "modal" => "modes",
        "export" => "export",
        "runner" => "runner",
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

/// Every rule of the rooms over the checkout at `root`.
pub fn check(root: &Path) -> Vec<String> {
    let src = root.join("bdtree-std/src");
    let mut problems = cli_sizes(&root.join("bdtree-cli/src/bin"));
    problems.extend(cli_rooms(&root.join("bdtree-cli/src")));
    problems.extend(runner_door(&src));
    problems.extend(imports(&src));
    problems.extend(cycle(&src));
    problems.extend(book(root));
    problems
}

fn cli_sizes(bin: &Path) -> Vec<String> {
    rust_files(bin)
        .into_iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(bin.join(&file))
                .map(|t| t.lines().count())
                .unwrap_or(0);
            (lines > MAX_CLI_LINES).then(|| {
                format!(
                    "bdtree-cli/src/bin/{}: {lines} lines (a CLI file's limit {MAX_CLI_LINES})",
                    file.display()
                )
            })
        })
        .collect()
}

/// The application's rooms import only what [`CLI_RULE`] allows, and none sets up a kernel
/// body ([`KERNEL_SETUP`]).
fn cli_rooms(src: &Path) -> Vec<String> {
    let rule: BTreeMap<&str, &[&str]> = CLI_RULE.iter().copied().collect();
    let mut problems = Vec::new();
    for file in rust_files(src) {
        let Some(room) = file
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .and_then(|first| rule.get_key_value(first.trim_end_matches(".rs")))
            .map(|(room, _)| *room)
        else {
            continue;
        };
        let text = std::fs::read_to_string(src.join(&file)).unwrap_or_default();
        let code = library_code(&file, &text);
        for path in paths(&code) {
            if path.first().map(String::as_str) != Some("crate") {
                continue;
            }
            let Some(target) = path.get(1).map(String::as_str) else {
                continue;
            };
            if target != room && rule.contains_key(target) && !rule[room].contains(&target) {
                problems.push(format!(
                    "bdtree-cli/src/{} ({room}) imports {} ({target})",
                    file.display(),
                    path.join("::")
                ));
            }
        }
        let name = file.to_string_lossy().replace('\\', "/");
        for word in KERNEL_SETUP {
            if code.contains(word) {
                problems.push(format!(
                    "bdtree-cli/src/{name} sets up a kernel body ({word}): the application \
                     reaches the kernel through bdtree_std::host"
                ));
            }
        }
    }
    problems
}

/// The scene runner (`bdtree-std/src/runner/`) sets up no kernel body ([`KERNEL_SETUP`]): it
/// runs scenes through the host layer, as the application did when it held the runner.
fn runner_door(src: &Path) -> Vec<String> {
    let runner = src.join("runner");
    let mut problems = Vec::new();
    for file in rust_files(&runner) {
        let text = std::fs::read_to_string(runner.join(&file)).unwrap_or_default();
        let code = library_code(&file, &text);
        let name = file.to_string_lossy().replace('\\', "/");
        for word in KERNEL_SETUP {
            if code.contains(word) {
                problems.push(format!(
                    "bdtree-std/src/runner/{name} sets up a kernel body ({word}): the scene \
                     runner reaches the kernel through crate::host"
                ));
            }
        }
    }
    problems
}

/// Each room imports only what [`RULE`] allows; the rule itself is acyclic.
fn imports(src: &Path) -> Vec<String> {
    let rule: BTreeMap<&str, &[&str]> = RULE.iter().copied().collect();
    let mut problems = Vec::new();
    for (k, (room, allowed)) in RULE.iter().enumerate() {
        for a in allowed.iter() {
            if RULE
                .iter()
                .position(|(r, _)| r == a)
                .is_none_or(|at| at >= k)
            {
                problems.push(format!(
                    "rooms: {room} may import {a}, which comes after it"
                ));
            }
        }
    }
    for file in rust_files(src).iter() {
        let Some(room) = room_of_file(file) else {
            continue;
        };
        let text = std::fs::read_to_string(src.join(file)).unwrap_or_default();
        for path in paths(&library_code(file, &text)) {
            if path.first().map(String::as_str) != Some("crate") {
                continue;
            }
            let Some(target) = path.get(1).and_then(|s| room_of(s)) else {
                continue;
            };
            if !(target == room || target == "base" || rule[room].contains(&target)) {
                problems.push(format!(
                    "bdtree-std/src/{} ({room}) imports {} ({target})",
                    file.display(),
                    path.join("::")
                ));
            }
        }
    }
    problems
}

/// No module imports itself through others, a module's `use child::…` of its own children
/// counting as an import (stricter than the workspace rule, where a module and its children
/// are one).
fn cycle(src: &Path) -> Vec<String> {
    let files: Vec<PathBuf> = rust_files(src);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in &files {
        let me = module_of(file);
        if me.is_empty() {
            continue; // the crate root re-exports everything
        }
        let text = std::fs::read_to_string(src.join(file)).unwrap_or_default();
        let code = library_code(file, &text);
        let mut targets: Vec<Vec<String>> = paths(&code)
            .iter()
            .map(|p| resolve(&modules, &absolute(&me, p)))
            .collect();
        for line in code.lines() {
            let line = line.trim();
            if let Some(rest) = line
                .strip_prefix("pub use ")
                .or_else(|| line.strip_prefix("use "))
            {
                let mut child = me.clone();
                child.push(rest.split("::").next().unwrap_or("").to_string());
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
    let mut problems = Vec::new();
    if let Some(cycle) = find_cycle(&edges) {
        problems.push(format!("bdtree-std: module cycle: {}", cycle.join(" → ")));
    }
    if edges.len() <= 40 {
        problems.push(format!("bdtree-std: only {} modules read", edges.len()));
    }
    problems
}

/// The book's rooms table (`docs/src/reference/layout.md`, the one description of the layout)
/// says what [`RULE`] holds: the same rooms, each with the same imports.
fn book(root: &Path) -> Vec<String> {
    let rows = match chapter_table(root, "| room | what | imports |") {
        Ok(rows) => rows,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    let mut stated: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for [room, _, imports] in &rows {
        // `io/` or `error.rs`, `storage.rs`, `rng.rs` (the base): the first name decides.
        let name = room.split('`').nth(1).unwrap_or("");
        let name = name.trim_end_matches('/').trim_end_matches(".rs");
        let Some(room) = room_of(name) else {
            problems.push(format!("layout chapter: unknown room {name}"));
            continue;
        };
        let mut set = BTreeSet::new();
        for r in imports.split('`').skip(1).step_by(2) {
            match room_of(r) {
                Some(r) => {
                    set.insert(r);
                }
                None => problems.push(format!("layout chapter: unknown room {r}")),
            }
        }
        stated.insert(room, set);
    }
    let rule: BTreeMap<&str, BTreeSet<&str>> = RULE
        .iter()
        .map(|(room, allowed)| (*room, allowed.iter().copied().collect()))
        .collect();
    if stated != rule {
        problems.push(format!(
            "docs/src/reference/layout.md's rooms table and xtask's rooms::RULE disagree: \
             {stated:?} against {rule:?}"
        ));
    }
    problems
}
