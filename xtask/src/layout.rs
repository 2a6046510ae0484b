//! `cargo xtask layout`: the workspace's layout rules, as the book's workspace-layout chapter
//! (`docs/src/reference/layout.md`) states them, held over **every crate** of the checkout
//! (each folder with a `Cargo.toml`: the kernel, the library, the application, xtask, the
//! firmware, the bindings, the benches, the book's crate, the fuzz targets):
//!
//! 1. no Rust file over [`MAX_LINES`] lines (sources, tests, examples, build scripts);
//! 2. no module cycle in any crate (a module and its own children count as one; each binary
//!    under `src/bin/` is a crate of its own);
//! 3. no crate but the application names it: the `bdtree` binary's crate ([`APPLICATION`]) is
//!    in no other manifest's dependency tables (dev- and build-dependencies, the workspace's
//!    included), and no Rust file outside its folder names its library — code, tests, examples,
//!    benches, comments alike. What the application shares lives in the library
//!    (`bdtree_std::runner`, the scene runner); xtask may run the `bdtree` binary as a process.
//!
//! The finer rules of two crates are beside it: the rooms of `bdtree-std` ([`rooms`]) and the
//! floors of `bdtree-core` ([`floors`]). A test plants a violation of each rule in a copy of the
//! checkout and sees it fail (`layout/planted.rs`), so a rule that stops biting is noticed.
//!
//! Read from the sources as text: a file's test module (everything from its first
//! `#[cfg(test)]` line) and comments are skipped.

pub mod floors;
#[cfg(test)]
mod planted;
pub mod rooms;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Longest Rust file anywhere in the checkout, in lines.
pub const MAX_LINES: usize = 900;

/// The application crate (the `bdtree` binary): its folder, package and crate names.
pub const APPLICATION: (&str, &str, &str) = ("bdtree-cli", "bdtree-cli", "bdtree_cli");

/// `cargo xtask layout`: every rule over this checkout (the workspace rules here, the rooms
/// and the floors), every problem listed.
pub fn check() -> Vec<String> {
    let root = crate::root();
    let mut problems = workspace(&root);
    problems.extend(rooms::check(&root));
    problems.extend(floors::check(&root));
    if problems.is_empty() {
        println!("layout: every crate holds the layout rules");
    }
    problems
}

/// The workspace rules (sizes, cycles, the application's door) over the checkout at `root`.
pub fn workspace(root: &Path) -> Vec<String> {
    let crates = crates(root);
    let mut problems = Vec::new();
    for dir in &crates {
        problems.extend(sizes(root, dir, &crates));
        problems.extend(cycles(root, dir));
    }
    problems.extend(application(root));
    problems
}

/// Every crate folder below `root` (relative, `/`-separated; `""` for the root itself), sorted.
pub fn crates(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if path.is_dir() {
                if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                    walk(root, &path, out);
                }
            } else if name == "Cargo.toml" {
                out.push(relative(root, dir));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.iter()
        .map(|p| p.to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Every `.rs` file under `dir`, relative to it, sorted (`target` folders skipped).
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                let name = path.file_name().map(|n| n.to_string_lossy().to_string());
                if name.is_some_and(|n| !(n.starts_with('.') || n == "target")) {
                    walk(root, &path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Rule 1: the Rust files of the crate at `dir` (not those of crates nested in it).
fn sizes(root: &Path, dir: &str, crates: &[String]) -> Vec<String> {
    let base = root.join(dir);
    let nested: Vec<PathBuf> = crates
        .iter()
        .filter(|c| *c != dir && (dir.is_empty() || c.starts_with(&format!("{dir}/"))))
        .map(|c| root.join(c))
        .collect();
    let mut problems = Vec::new();
    for file in rust_files(&base) {
        let path = base.join(&file);
        if nested.iter().any(|n| path.starts_with(n)) {
            continue;
        }
        let lines = std::fs::read_to_string(&path)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines > MAX_LINES {
            problems.push(format!(
                "{}: {lines} lines (limit {MAX_LINES})",
                relative(root, &path)
            ));
        }
    }
    problems
}

/// The rows of the layout chapter's table headed `header` (`docs/src/reference/layout.md`
/// under `root`), each as its three cells; `Err` when the chapter has no such table or a row
/// has not three cells.
pub fn chapter_table(root: &Path, header: &str) -> Result<Vec<[String; 3]>, String> {
    let chapter = root.join("docs/src/reference/layout.md");
    let text = std::fs::read_to_string(&chapter).unwrap_or_default();
    let mut lines = text.lines().skip_while(|l| !l.starts_with(header));
    if lines.next().is_none() {
        return Err(format!("the layout chapter has no `{header}` table"));
    }
    lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            match cells[..] {
                [a, b, c] => Ok([a.to_string(), b.to_string(), c.to_string()]),
                _ => Err(format!("layout chapter: a row without three cells: {row}")),
            }
        })
        .collect()
}

/// A file's library code: up to its first `#[cfg(test)]` line, comments dropped; empty for a
/// file that is a test module itself (`tests.rs`, `*_tests.rs`, a file of a `tests` folder:
/// the C API's `src/tests/`).
pub fn library_code(file: &Path, text: &str) -> String {
    let test_file = file
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == "tests.rs" || n.ends_with("_tests.rs"));
    let in_tests = file
        .parent()
        .is_some_and(|p| p.iter().any(|c| c == "tests"));
    if test_file || in_tests {
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
pub fn paths(code: &str) -> Vec<Vec<String>> {
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

/// The module a file defines: `io/ply/header.rs` → `io::ply::header`, `io/mod.rs` → `io`.
pub fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// `path` (as [`paths`] gives it, in the file of module `me`) as an absolute module path
/// without `crate`.
pub fn absolute(me: &[String], path: &[String]) -> Vec<String> {
    if path.first().is_some_and(|s| s == "crate") {
        return path[1..].to_vec();
    }
    let ups = path.iter().take_while(|s| *s == "super").count();
    let mut base = me.to_vec();
    base.truncate(me.len().saturating_sub(ups));
    base.extend(path[ups..].iter().cloned());
    base
}

/// A module cycle of `edges` (module → the modules it imports), by depth-first search: the
/// modules on it, the first repeated at the end; `None` when there is none.
pub fn find_cycle(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
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

/// The longest prefix of the crate path `path` that is one of `modules` (the crate root, empty,
/// when none is).
pub fn resolve(modules: &BTreeSet<Vec<String>>, path: &[String]) -> Vec<String> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains(p))
        .unwrap_or_default()
}

/// The module graph of one compiled crate whose files are `files` (relative to `src`, modules
/// from [`module_of`]): module → the modules its library code names, a module and its own
/// children counting as one (children use their parent's items, a parent re-exports its
/// children's). The crate root (`lib.rs`, `main.rs`) gathers and re-exports: it has no edges.
pub fn module_graph(
    src: &Path,
    files: &[(PathBuf, Vec<String>)],
) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
    let related = |a: &[String], b: &[String]| a.starts_with(b) || b.starts_with(a);
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (file, me) in files {
        if me.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(src.join(file)).unwrap_or_default();
        let entry = edges.entry(me.clone()).or_default();
        for path in paths(&library_code(file, &text)) {
            let target = resolve(&modules, &absolute(me, &path));
            if !target.is_empty() && !related(&target, me) {
                entry.insert(target);
            }
        }
    }
    edges
}

/// Rule 2: each compiled crate of the package at `dir` (its `src/` without `bin/`, and each
/// binary of `src/bin/`) has no module cycle.
fn cycles(root: &Path, dir: &str) -> Vec<String> {
    let src = root.join(dir).join("src");
    let mut units: BTreeMap<String, Vec<(PathBuf, Vec<String>)>> = BTreeMap::new();
    for file in rust_files(&src) {
        let mut module = module_of(&file);
        let unit = if module.first().is_some_and(|m| m == "bin") && module.len() > 1 {
            let name = module[1].clone();
            module.drain(..2);
            format!("src/bin/{name}")
        } else {
            "src".to_string()
        };
        // A binary's file is relative to its own folder for `module_of`, but read from `src`.
        units.entry(unit).or_default().push((file, module));
    }
    let mut problems = Vec::new();
    for (unit, files) in units {
        if let Some(cycle) = find_cycle(&module_graph(&src, &files)) {
            problems.push(format!(
                "{}: module cycle: {}",
                format!("{dir}/{unit}").trim_start_matches('/'),
                cycle.join(" → ")
            ));
        }
    }
    problems
}

/// Rule 3: no manifest but the application's depends on it (in any dependency table), and no
/// Rust file outside its folder names its library.
fn application(root: &Path) -> Vec<String> {
    let (folder, package, _) = APPLICATION;
    let mut problems = Vec::new();
    for dir in crates(root) {
        if dir == folder || dir.starts_with(&format!("{folder}/")) {
            continue;
        }
        let manifest = format!("{dir}/Cargo.toml")
            .trim_start_matches('/')
            .to_string();
        let text = std::fs::read_to_string(root.join(&manifest)).unwrap_or_default();
        if depends_on(&text, package) {
            problems.push(format!("{manifest} depends on {package}"));
        }
    }
    for file in rust_files(root) {
        let name = file.to_string_lossy().replace('\\', "/");
        if name.starts_with(&format!("{folder}/")) {
            continue;
        }
        let text = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
        if let Some(line) = names_application(&text) {
            problems.push(format!(
                "{name}:{line} names the application ({})",
                APPLICATION.2
            ));
        }
    }
    problems
}

/// Whether a manifest's text lists `package` in a dependency table: `[dependencies]`,
/// `[dev-dependencies]`, `[build-dependencies]`, `[workspace.dependencies]`, a target's, or a
/// table of its own (`[dependencies.NAME]`).
fn depends_on(manifest: &str, package: &str) -> bool {
    let mut section = String::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').to_string();
            if section.ends_with(&format!("dependencies.{package}")) {
                return true;
            }
        } else if section.ends_with("dependencies")
            && line
                .split(['=', ' ', '.'])
                .next()
                .is_some_and(|name| name.trim_matches('"') == package)
        {
            return true;
        }
    }
    false
}

/// The first line (1-based) of `text` naming the application's library as a word outside a
/// string's quotes (xtask's own rules hold the name as a string), if any.
fn names_application(text: &str) -> Option<usize> {
    let krate = APPLICATION.2;
    let word =
        |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '"');
    text.lines()
        .position(|line| {
            line.match_indices(krate).any(|(at, _)| {
                !word(line[..at].chars().next_back())
                    && !word(line[at + krate.len()..].chars().next())
            })
        })
        .map(|i| i + 1)
}
