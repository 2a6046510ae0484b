//! The Rust examples of the README and of the book (`docs/src/`), compiled — and run where
//! they have a `main` — as this crate's doctests by `cargo test`. The crate depends on
//! everything the examples use (`bdtree-core`, `bdtree-std`), so no library's own tests depend
//! on prose about another.
//!
//! Every chapter is included (a test checks the list against `docs/src/`), so a Rust block
//! added to any chapter is compiled. The book's other examples are checked where their
//! language is: Python blocks in the Python suite (`bindings/python/tests/test_docs.py`), C
//! blocks by `cargo xtask c`; `cargo xtask book` checks that every block names its language.

/// One item per markdown file, its text as the item's docs (rustdoc runs its `rust` blocks).
macro_rules! documents {
    ($($item:ident = $path:literal,)*) => {
        $(
            #[cfg(doctest)]
            #[doc = include_str!($path)]
            pub struct $item;
        )*
        /// The files included above, relative to this crate.
        #[cfg(test)]
        const DOCUMENTS: &[&str] = &[$($path),*];
    };
}

documents! {
    Readme = "../README.md",
    Summary = "src/SUMMARY.md",
    Introduction = "src/introduction.md",
    StartCli = "src/start/cli.md",
    StartPython = "src/start/python.md",
    StartRustController = "src/start/rust-controller.md",
    StartRustHost = "src/start/rust-host.md",
    StartC = "src/start/c.md",
    ConceptsReducedModels = "src/concepts/reduced-models.md",
    ConceptsTree = "src/concepts/tree.md",
    ConceptsMedial = "src/concepts/medial.md",
    ConceptsPrecision = "src/concepts/precision.md",
    ConceptsFloatingOrigins = "src/concepts/floating-origins.md",
    QueriesIndex = "src/queries/index.md",
    QueriesCollide = "src/queries/collide.md",
    QueriesSelf = "src/queries/self.md",
    QueriesProxies = "src/queries/proxies.md",
    QueriesContacts = "src/queries/contacts.md",
    QueriesDistance = "src/queries/distance.md",
    QueriesSwept = "src/queries/swept.md",
    QueriesInterruptible = "src/queries/interruptible.md",
    QueriesWorld = "src/queries/world.md",
    QueriesRefine = "src/queries/refine.md",
    QueriesBoxes = "src/queries/boxes.md",
    Modal = "src/modal.md",
    Images = "src/images.md",
    SceneFormat = "src/scene-format.md",
    Pictures = "src/pictures.md",
    Firmware = "src/firmware.md",
    PerformanceIndex = "src/performance/index.md",
    PerformanceUpdate = "src/performance/update.md",
    PerformanceQuery = "src/performance/query.md",
    PerformanceWalk = "src/performance/walk.md",
    PerformanceRigidCost = "src/performance/rigid-cost.md",
    PerformanceBounds = "src/performance/bounds.md",
    PerformanceProxies = "src/performance/proxies.md",
    PerformanceCoherence = "src/performance/coherence.md",
    PerformanceInterruptible = "src/performance/interruptible.md",
    PerformanceBroad = "src/performance/broad.md",
    PerformanceLocal = "src/performance/local.md",
    PerformanceBoxes = "src/performance/boxes.md",
    PerformanceProximity = "src/performance/proximity.md",
    PerformanceSelf = "src/performance/self.md",
    PerformanceChairs = "src/performance/chairs.md",
    PerformanceSwept = "src/performance/swept.md",
    ReferenceCli = "src/reference/cli.md",
    ReferencePython = "src/reference/python.md",
    ReferenceC = "src/reference/c.md",
    ReferenceLayout = "src/reference/layout.md",
    ReferenceChanges = "src/reference/changes.md",
    ReferenceCi = "src/reference/ci.md",
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    fn markdown(dir: &Path, out: &mut BTreeSet<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read docs/src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                markdown(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.insert(path);
            }
        }
    }

    /// Every chapter of the book is included above, so its Rust blocks are compiled.
    #[test]
    fn every_chapter_is_compiled() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut on_disk = BTreeSet::new();
        markdown(&here.join("src"), &mut on_disk);
        let included: BTreeSet<PathBuf> = super::DOCUMENTS
            .iter()
            .map(|p| here.join(p))
            .filter(|p| p.starts_with(here.join("src")))
            .collect();
        let missing: Vec<_> = on_disk.difference(&included).collect();
        let stale: Vec<_> = included.difference(&on_disk).collect();
        assert!(
            missing.is_empty() && stale.is_empty(),
            "docs/doctests.rs: chapters not included {missing:?}; included but absent {stale:?}"
        );
    }
}
