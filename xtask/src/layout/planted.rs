//! The layout rules hold on this checkout, and each one bites: a violation of each, planted in
//! a copy of the checkout's sources, manifests and layout chapter, is reported — a long file
//! and a module cycle in every crate, the application named outside its own folder (in any
//! crate's sources, tests, examples or comments, in any manifest's dependency tables), a room
//! and a floor crossed the wrong way.

use std::path::{Path, PathBuf};

use super::{crates, rooms, workspace, APPLICATION};

/// A copy of what the rules read (Rust files, manifests, the layout chapter) in a fresh
/// temporary folder, removed when dropped.
struct Copy(PathBuf);

impl Copy {
    fn new(name: &str) -> Self {
        let to = std::env::temp_dir().join(format!("bdtree-layout-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&to);
        copy(&crate::root(), &crate::root(), &to);
        Self(to)
    }
    fn write(&self, file: &str, text: &str) {
        let path = self.0.join(file);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    /// `text` as the file's first line (before any test module, which the rules skip).
    fn prepend(&self, file: &str, text: &str) {
        let old = std::fs::read_to_string(self.0.join(file)).expect("read");
        self.write(file, &format!("{text}\n{old}"));
    }
    fn problems(&self) -> Vec<String> {
        let mut problems = workspace(&self.0);
        problems.extend(rooms::check(&self.0));
        problems.extend(super::floors::check(&self.0));
        problems
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy(root: &Path, dir: &Path, to: &Path) {
    for entry in std::fs::read_dir(dir).expect("read").flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                copy(root, &path, to);
            }
        } else if name.ends_with(".rs") || name == "Cargo.toml" || name == "layout.md" {
            let rel = path.strip_prefix(root).expect("under the root");
            let dest = to.join(rel);
            std::fs::create_dir_all(dest.parent().expect("a parent")).expect("mkdir");
            std::fs::copy(&path, dest).expect("copy");
        }
    }
}

fn assert_reported(problems: &[String], needle: &str) {
    assert!(
        problems.iter().any(|p| p.contains(needle)),
        "no problem mentions {needle:?}: {problems:#?}"
    );
}

#[test]
fn the_checkout_holds_the_layout() {
    let root = crate::root();
    let mut problems = workspace(&root);
    problems.extend(rooms::check(&root));
    problems.extend(super::floors::check(&root));
    assert!(problems.is_empty(), "{problems:#?}");
    let crates = crates(&root);
    for expected in [
        "bdtree-core",
        "bdtree-std",
        "bindings/c",
        "bindings/python",
        "firmware",
        "xtask",
    ] {
        assert!(
            crates.iter().any(|c| c == expected),
            "{expected}: {crates:?}"
        );
    }
}

#[test]
fn a_long_file_in_any_crate_fails() {
    let copy = Copy::new("long");
    assert!(copy.problems().is_empty(), "{:#?}", copy.problems());
    let long = "// a line\n".repeat(super::MAX_LINES + 1);
    for dir in crates(&copy.0) {
        let file = format!("{dir}/planted_long.rs")
            .trim_start_matches('/')
            .to_string();
        copy.write(&file, &long);
        assert_reported(&copy.problems(), &file);
    }
}

#[test]
fn a_module_cycle_in_any_crate_fails() {
    let copy = Copy::new("cycle");
    for dir in crates(&copy.0) {
        if !copy.0.join(&dir).join("src").is_dir() {
            continue;
        }
        let src = format!("{dir}/src").trim_start_matches('/').to_string();
        copy.write(&format!("{src}/planted_a.rs"), "use crate::planted_b::B;\n");
        copy.write(&format!("{src}/planted_b.rs"), "use crate::planted_a::A;\n");
        assert_reported(&copy.problems(), &format!("{src}: module cycle"));
        for file in ["planted_a.rs", "planted_b.rs"] {
            std::fs::remove_file(copy.0.join(&src).join(file)).expect("remove");
        }
    }
}

#[test]
fn a_crate_naming_the_application_fails() {
    let (_, package, krate) = APPLICATION;
    let copy = Copy::new("application");
    copy.prepend(
        "bdtree-std/src/io/mod.rs",
        &format!("use {krate}::report::build_summary;"),
    );
    assert_reported(
        &copy.problems(),
        "bdtree-std/src/io/mod.rs:1 names the application",
    );
    // Not only libraries: tests, examples, benches, xtask, comments.
    for file in [
        "bdtree-std/tests/kernel/planted.rs",
        "bdtree-std/examples/planted.rs",
        "bindings/c/src/tests/planted.rs",
        "benches/benches/planted.rs",
        "xtask/src/planted.rs",
    ] {
        copy.write(
            file,
            &format!("//! Runs scenes.\nuse {krate}::sim::demo;\n"),
        );
        assert_reported(&copy.problems(), &format!("{file}:2 names the application"));
    }
    copy.write(
        "docs/src/planted.rs",
        &format!("//! The demo (`{krate}::sim`).\n"),
    );
    assert_reported(
        &copy.problems(),
        "docs/src/planted.rs:1 names the application",
    );
    // Its name as a string is not a use of it (xtask's rules hold it so).
    copy.write(
        "xtask/src/planted_name.rs",
        &format!("const A: &str = \"{krate}\";\n"),
    );
    assert!(!copy
        .problems()
        .iter()
        .any(|p| p.contains("planted_name.rs")));
    for (manifest, table) in [
        ("bdtree-std/Cargo.toml", "[dependencies]"),
        ("bindings/c/Cargo.toml", "[dev-dependencies]"),
        ("xtask/Cargo.toml", "[dependencies]"),
        ("Cargo.toml", "[workspace.dependencies]"),
    ] {
        let text = std::fs::read_to_string(copy.0.join(manifest)).expect("read");
        assert!(text.contains(table), "{manifest} has no {table}");
        copy.write(
            manifest,
            &text.replacen(
                &format!("{table}\n"),
                &format!("{table}\n{package} = {{ path = \"../{package}\" }}\n"),
                1,
            ),
        );
        assert_reported(
            &copy.problems(),
            &format!("{manifest} depends on {package}"),
        );
    }
    copy.write(
        "benches/Cargo.toml",
        &format!("[package]\nname = \"b\"\n\n[dev-dependencies.{package}]\npath = \"..\"\n"),
    );
    assert_reported(
        &copy.problems(),
        &format!("benches/Cargo.toml depends on {package}"),
    );
}

#[test]
fn a_room_or_floor_crossed_the_wrong_way_fails() {
    let copy = Copy::new("rooms");
    copy.prepend("bdtree-std/src/io/mod.rs", "use crate::host::Tree;");
    assert_reported(
        &copy.problems(),
        "bdtree-std/src/io/mod.rs (io) imports crate::host",
    );
    copy.prepend(
        "bdtree-core/src/geometry/pose.rs",
        "use crate::world::sweep::AllPairs;",
    );
    assert_reported(
        &copy.problems(),
        "geometry/pose.rs (geometry) imports world",
    );
}

#[test]
fn an_application_room_crossed_or_a_second_kernel_door_fails() {
    let copy = Copy::new("cli-rooms");
    copy.prepend("bdtree-cli/src/report.rs", "use crate::view::render;");
    assert_reported(
        &copy.problems(),
        "bdtree-cli/src/report.rs (report) imports crate::view::render (view)",
    );
    copy.write(
        "bdtree-cli/src/sim/planted_door.rs",
        "fn caches() { let _ = bdtree_std::BodyStorage::<f32>::new(1); }\n",
    );
    assert_reported(
        &copy.problems(),
        "bdtree-cli/src/sim/planted_door.rs sets up a kernel body (BodyStorage)",
    );
    copy.write(
        "bdtree-std/src/runner/planted_door.rs",
        "fn caches() { let _ = crate::BodyStorage::<f32>::new(1); }\n",
    );
    assert_reported(
        &copy.problems(),
        "bdtree-std/src/runner/planted_door.rs sets up a kernel body (BodyStorage)",
    );
}
